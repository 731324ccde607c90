/* SPDX-License-Identifier: MIT */
/*
 * lf-probe: the attacker of the escape suite (doc/escape.md). It runs
 * under `landfence run` and performs, in order, the operations named on
 * its command line, printing one result token per operation on stdout:
 * "ok", or the errno name of the failure ("EACCES", "EPERM", "EXDEV"...),
 * or a word the operation documents. It uses raw system calls where libc
 * would hide the request (ioctl numbers with high bits, renameat2, ...).
 *
 * Operations with a rest (exec, memfd-run) consume every later argument.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <linux/io_uring.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <mqueue.h>
#include <sys/mount.h>
#include <sys/shm.h>
#include <dirent.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <sys/xattr.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "probe.h"

#ifndef SYS_landlock_create_ruleset
#define SYS_landlock_create_ruleset 444
#endif

static int passed_fd[2] = { -1, -1 }; /* a directory, a file: from recvfd */

/* read the file and compare its whole content with text */
static void op_readeq(const char *p, const char *text)
{
	char buf[4096];
	int fd = open(p, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		out_err(errno);
		return;
	}
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < 0) {
		out_err(errno);
		return;
	}
	buf[n] = '\0';
	out(strcmp(buf, text) == 0 ? "ok" : "DIFF");
}

static int op_openw(const char *p, int flags)
{
	int fd = open(p, flags | O_CLOEXEC | O_NOCTTY | O_NONBLOCK, 0644);
	if (fd < 0)
		return -1;
	if ((flags & O_ACCMODE) != O_RDONLY && write(fd, "x", 1) != 1) {
		int e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	close(fd);
	return 0;
}

static int op_ls(const char *p)
{
	int fd = open(p, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	char buf[1024];
	if (fd < 0)
		return -1;
	long n = syscall(SYS_getdents64, fd, buf, sizeof(buf));
	int e = errno;
	close(fd);
	errno = e;
	return n < 0 ? -1 : 0;
}

/* Runs argv in a child; prints ok when it exited 0, else "exitN",
 * "sigN" or the errno of execve. */
static void run_child(int exec_fd, char **argv)
{
	int pfd[2];
	if (pipe2(pfd, O_CLOEXEC) != 0) {
		out_err(errno);
		return;
	}
	fflush(stdout);
	pid_t pid = fork();
	if (pid < 0) {
		out_err(errno);
		return;
	}
	if (pid == 0) {
		extern char **environ;
		close(pfd[0]);
		if (exec_fd >= 0)
			syscall(SYS_execveat, exec_fd, "", argv, environ, AT_EMPTY_PATH);
		else
			execve(argv[0], argv, environ);
		int e = errno;
		if (write(pfd[1], &e, sizeof(e)) != sizeof(e))
			_exit(126);
		_exit(127);
	}
	close(pfd[1]);
	int e = 0, st = 0;
	ssize_t n = read(pfd[0], &e, sizeof(e));
	close(pfd[0]);
	waitpid(pid, &st, 0);
	if (n == sizeof(e)) {
		out_err(e);
		return;
	}
	char tok[32];
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
		snprintf(tok, sizeof(tok), "ok");
	else if (WIFEXITED(st))
		snprintf(tok, sizeof(tok), "exit%d", WEXITSTATUS(st));
	else
		snprintf(tok, sizeof(tok), "sig%d", WTERMSIG(st));
	out(tok);
}

/* memfd-run OPS...: copies this program into a memfd and runs it from
 * there with execveat(AT_EMPTY_PATH): a program that is in no file. */
static void op_memfd_run(char **rest)
{
	int src = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	if (src < 0) {
		out_err(errno);
		return;
	}
	int mfd = (int)syscall(SYS_memfd_create, "probe", 0 /* no MFD_CLOEXEC: see below */);
	if (mfd < 0) {
		out_err(errno);
		close(src);
		return;
	}
	char buf[65536];
	ssize_t n;
	while ((n = read(src, buf, sizeof(buf))) > 0)
		if (write(mfd, buf, (size_t)n) != n) {
			out_err(errno);
			close(src);
			close(mfd);
			return;
		}
	close(src);
	/* rest[-1] is the op name; it becomes argv[0] of the copy. */
	rest[-1] = (char *)"lf-probe-memfd";
	run_child(mfd, rest - 1);
	close(mfd);
}

static int op_abstract(const char *name)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	size_t n = strlen(name);
	if (n + 1 > sizeof(a.sun_path))
		n = sizeof(a.sun_path) - 1;
	memcpy(a.sun_path + 1, name, n);
	int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (s < 0)
		return -1;
	int r = connect(s, (struct sockaddr *)&a,
			(socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + n));
	int e = errno;
	close(s);
	errno = e;
	return r;
}

/* Listens on an abstract name itself, then connects to it: the honest
 * path inside one domain. */
static int op_abstract_self(const char *name)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	size_t n = strlen(name);
	if (n + 1 > sizeof(a.sun_path))
		n = sizeof(a.sun_path) - 1;
	memcpy(a.sun_path + 1, name, n);
	socklen_t len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + n);
	int l = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (l < 0 || bind(l, (struct sockaddr *)&a, len) != 0 || listen(l, 1) != 0)
		return -1;
	int r = op_abstract(name);
	int e = errno;
	close(l);
	errno = e;
	return r;
}

static int sock_path(const char *p, struct sockaddr_un *a)
{
	memset(a, 0, sizeof(*a));
	a->sun_family = AF_UNIX;
	if (strlen(p) >= sizeof(a->sun_path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	strcpy(a->sun_path, p);
	return 0;
}

static int op_connect_path(const char *p)
{
	struct sockaddr_un a;
	if (sock_path(p, &a) < 0)
		return -1;
	int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (s < 0)
		return -1;
	int r = connect(s, (struct sockaddr *)&a, sizeof(a));
	int e = errno;
	close(s);
	errno = e;
	return r;
}

static int op_mksock(const char *p)
{
	struct sockaddr_un a;
	if (sock_path(p, &a) < 0)
		return -1;
	int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (s < 0)
		return -1;
	int r = bind(s, (struct sockaddr *)&a, sizeof(a));
	int e = errno;
	close(s);
	errno = e;
	return r;
}

/* recvfd PATH: connects to the helper's socket at PATH and receives two
 * descriptors, a directory and a file, opened outside the sandbox. */
static int op_recvfd(const char *p)
{
	struct sockaddr_un a;
	if (sock_path(p, &a) < 0)
		return -1;
	int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (s < 0)
		return -1;
	if (connect(s, (struct sockaddr *)&a, sizeof(a)) != 0) {
		int e = errno;
		close(s);
		errno = e;
		return -1;
	}
	char c;
	struct iovec iov = { &c, 1 };
	union {
		char buf[CMSG_SPACE(2 * sizeof(int))];
		struct cmsghdr align;
	} u;
	struct msghdr m = { .msg_iov = &iov,
			    .msg_iovlen = 1,
			    .msg_control = u.buf,
			    .msg_controllen = sizeof(u.buf) };
	ssize_t n = recvmsg(s, &m, MSG_CMSG_CLOEXEC);
	int e = errno;
	close(s);
	if (n <= 0) {
		errno = n == 0 ? ECONNRESET : e;
		return -1;
	}
	struct cmsghdr *cm = CMSG_FIRSTHDR(&m);
	if (!cm || cm->cmsg_type != SCM_RIGHTS || cm->cmsg_len != CMSG_LEN(2 * sizeof(int))) {
		errno = EPROTO;
		return -1;
	}
	memcpy(passed_fd, CMSG_DATA(cm), sizeof(passed_fd));
	return 0;
}

static int op_tiocsti(int fd, uint64_t high)
{
	char c = '#';
	return (int)syscall(SYS_ioctl, fd, (unsigned long)(high | TIOCSTI), &c);
}

static int op_tioclinux(int fd, uint64_t high)
{
	char sub = 6; /* TIOCL_GETSHIFTSTATE: harmless */
	return (int)syscall(SYS_ioctl, fd, (unsigned long)(high | TIOCLINUX), &sub);
}

/* Opens a fresh pseudo-terminal pair and tries TIOCSTI on the slave. */
static int op_tiocsti_ptmx(uint64_t high)
{
	int m = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (m < 0)
		return -1;
	if (grantpt(m) != 0 || unlockpt(m) != 0) {
		int e = errno;
		close(m);
		errno = e;
		return -1;
	}
	char *name = ptsname(m);
	int s = name ? open(name, O_RDWR | O_NOCTTY | O_CLOEXEC) : -1;
	if (s < 0) {
		int e = errno;
		close(m);
		errno = e;
		return -1;
	}
	int r = op_tiocsti(s, high);
	int e = errno;
	close(s);
	close(m);
	errno = e;
	return r;
}

/* name_to_handle_at + open_by_handle_at ("shocker"): opens a file by
 * its handle, through a directory on the same mount, not by path.
 * Prints the handle step and the open step. */
static void op_handle_open(const char *path, const char *mount_dir)
{
	union {
		struct file_handle fh;
		char buf[sizeof(struct file_handle) + MAX_HANDLE_SZ];
	} h;
	int mnt_id;

	h.fh.handle_bytes = MAX_HANDLE_SZ;
	result(name_to_handle_at(AT_FDCWD, path, &h.fh, &mnt_id, 0));
	int mfd = open(mount_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (mfd < 0) {
		out_err(errno);
		return;
	}
	int fd = open_by_handle_at(mfd, &h.fh, O_RDONLY | O_CLOEXEC);
	result(fd);
	if (fd >= 0)
		close(fd);
	close(mfd);
}

/* The new mount API: fsopen, fsconfig, fsmount, move_mount of a tmpfs
 * onto path. Prints ok or the errno of the first step that failed. */
static int op_newmount(const char *path)
{
	int fs = (int)syscall(SYS_fsopen, "tmpfs", 1 /* FSOPEN_CLOEXEC */);
	if (fs < 0)
		return -1;
	if (syscall(SYS_fsconfig, fs, 6 /* FSCONFIG_CMD_CREATE */, NULL, NULL, 0) < 0) {
		int e = errno;
		close(fs);
		errno = e;
		return -1;
	}
	int m = (int)syscall(SYS_fsmount, fs, 1 /* FSMOUNT_CLOEXEC */, 0);
	int e = errno;
	close(fs);
	if (m < 0) {
		errno = e;
		return -1;
	}
	long r = syscall(SYS_move_mount, m, "", AT_FDCWD, path, 4 /* MOVE_MOUNT_F_EMPTY_PATH */);
	e = errno;
	close(m);
	errno = e;
	return (int)r;
}

/* open_tree(OPEN_TREE_CLONE) of a directory, then move_mount elsewhere:
 * a bind mount through the new API. */
static int op_newbind(const char *from, const char *to)
{
	int t = (int)syscall(SYS_open_tree, AT_FDCWD, from, 1 /* OPEN_TREE_CLONE */ | O_CLOEXEC);
	if (t < 0)
		return -1;
	long r = syscall(SYS_move_mount, t, "", AT_FDCWD, to, 4 /* MOVE_MOUNT_F_EMPTY_PATH */);
	int e = errno;
	close(t);
	errno = e;
	return (int)r;
}

/* An openat submitted through io_uring instead of the system call:
 * "nouring" when io_uring is not available here, else ok or the errno of
 * the open. */
static void op_uring_open(const char *path, int flags)
{
	struct io_uring_params p;
	memset(&p, 0, sizeof(p));
	int fd = (int)syscall(SYS_io_uring_setup, 4, &p);
	if (fd < 0) {
		out("nouring");
		return;
	}
	size_t sq_sz = p.sq_off.array + p.sq_entries * sizeof(unsigned);
	size_t cq_sz = p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe);
	bool single = p.features & IORING_FEAT_SINGLE_MMAP;
	if (single && cq_sz > sq_sz)
		sq_sz = cq_sz;
	char *sq = mmap(NULL, sq_sz, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd,
			IORING_OFF_SQ_RING);
	char *cq = single ? sq
			  : mmap(NULL, cq_sz, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd,
				 IORING_OFF_CQ_RING);
	struct io_uring_sqe *sqes =
		mmap(NULL, p.sq_entries * sizeof(struct io_uring_sqe), PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_POPULATE, fd, IORING_OFF_SQES);
	if (sq == MAP_FAILED || cq == MAP_FAILED || sqes == MAP_FAILED) {
		out_err(errno);
		close(fd);
		return;
	}
	unsigned *tail = (unsigned *)(sq + p.sq_off.tail);
	unsigned mask = *(unsigned *)(sq + p.sq_off.ring_mask);
	unsigned *array = (unsigned *)(sq + p.sq_off.array);
	unsigned t = *tail, idx = t & mask;
	struct io_uring_sqe *e = &sqes[idx];
	memset(e, 0, sizeof(*e));
	e->opcode = IORING_OP_OPENAT;
	e->fd = AT_FDCWD;
	e->addr = (uint64_t)(uintptr_t)path;
	e->open_flags = (uint32_t)(flags | O_CLOEXEC);
	e->len = 0644;
	array[idx] = idx;
	__atomic_store_n(tail, t + 1, __ATOMIC_RELEASE);
	if (syscall(SYS_io_uring_enter, fd, 1, 1, IORING_ENTER_GETEVENTS, NULL, 0) < 0) {
		out_err(errno);
		close(fd);
		return;
	}
	unsigned *head = (unsigned *)(cq + p.cq_off.head);
	unsigned cmask = *(unsigned *)(cq + p.cq_off.ring_mask);
	struct io_uring_cqe *cqes = (struct io_uring_cqe *)(cq + p.cq_off.cqes);
	int res = cqes[__atomic_load_n(head, __ATOMIC_ACQUIRE) & cmask].res;
	if (res >= 0) {
		close(res);
		out("ok");
	} else {
		out_err(-res);
	}
	close(fd);
}

#if defined(__x86_64__)
/* ioctl(0, TIOCSTI) through the i386 system call table (int $0x80,
 * ioctl = 54), which a filter written for x86_64 numbers alone would not
 * see. The byte must have a 32-bit address. */
static long op_tiocsti_int80(void)
{
	char *c = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT,
		       -1, 0);
	long r;

	if (c == MAP_FAILED)
		return -1;
	c[0] = '#';
	__asm__ volatile("int $0x80"
			 : "=a"(r)
			 : "a"(54L), "b"(0L), "c"((long)TIOCSTI), "d"((long)(uintptr_t)c)
			 : "memory");
	munmap(c, 4096);
	if (r < 0 && r > -4096) {
		errno = (int)-r;
		return -1;
	}
	return r;
}

/* Runs op in a child: a kernel with IA-32 emulation off answers int $0x80
 * with SIGSEGV, which means there is no such table to get through. */
static void result_in_child(long (*op)(void))
{
	int st;
	pid_t pid = fork();

	if (pid < 0) {
		out_err(errno);
		return;
	}
	if (pid == 0) {
		long r = op();
		_exit(r >= 0 ? 0 : errno > 0 && errno < 255 ? errno : 255);
	}
	if (waitpid(pid, &st, 0) != pid) {
		out_err(errno);
		return;
	}
	if (WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV)
		out("n/a");
	else if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
		out("ok");
	else if (WIFEXITED(st) && WEXITSTATUS(st) != 255)
		out_err(WEXITSTATUS(st));
	else
		out("crashed");
}

/* The same through the x32 table: ioctl is 514 there, with the x32 bit. */
static long op_tiocsti_x32(void)
{
	char c = '#';
	return syscall(0x40000000L | 514L, 0, (unsigned long)TIOCSTI, &c);
}
#endif

static int op_caps(void)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];
	if (syscall(SYS_capget, &h, d) != 0)
		return -1;
	return d[0].effective != 0 || d[1].effective != 0;
}

/* Every capability set of /proc/self/status (inheritable, permitted,
 * effective, bounding, ambient): "none" when all are empty, else "some". */
static void op_capsets(void)
{
	FILE *f = fopen("/proc/self/status", "re");
	char line[256];
	bool some = false;

	if (!f) {
		out_err(errno);
		return;
	}
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "Cap", 3) && strtoull(strchr(line, ':') + 1, NULL, 16) != 0)
			some = true;
	fclose(f);
	out(some ? "some" : "none");
}

/* Clears the read-only flag of the mount at p with the new mount API
 * (a locked flag cannot be cleared; Landlock refuses mount changes). */
static int op_setattr_clear(const char *p)
{
	struct mount_attr a = { .attr_clr = MOUNT_ATTR_RDONLY };

	return (int)syscall(SYS_mount_setattr, AT_FDCWD, p, 0, &a, sizeof(a));
}

/* A child in a new user namespace, by clone or clone3: ok when made. */
static int op_clone_newuser(bool three)
{
	long pid;

	if (three) {
		/* struct clone_args of linux/sched.h, version 0 (64 bytes):
		 * flags, pidfd, child_tid, parent_tid, exit_signal, stack,
		 * stack_size, tls. */
		uint64_t ca[8] = { CLONE_NEWUSER, 0, 0, 0, SIGCHLD, 0, 0, 0 };
		pid = syscall(SYS_clone3, ca, sizeof(ca));
	} else {
		pid = syscall(SYS_clone, CLONE_NEWUSER | SIGCHLD, 0, 0, 0, 0);
	}
	if (pid == 0)
		_exit(0);
	if (pid < 0)
		return -1;
	waitpid((pid_t)pid, NULL, 0);
	return 0;
}

/* The number of entries of directory p, or the errno name. */
static void op_count(const char *p)
{
	DIR *d = opendir(p);
	struct dirent *de;
	int n = 0;
	char buf[32];

	if (!d) {
		out_err(errno);
		return;
	}
	while ((de = readdir(d)))
		n += strcmp(de->d_name, ".") && strcmp(de->d_name, "..");
	closedir(d);
	snprintf(buf, sizeof(buf), "%d", n);
	out(buf);
}

/* Whether /proc/self/mountinfo mentions text: "yes" or "no". */
static void op_mountinfo_has(const char *text)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char line[4096];
	bool has = false;

	if (!f) {
		out_err(errno);
		return;
	}
	while (fgets(line, sizeof(line), f))
		has = has || strstr(line, text);
	fclose(f);
	out(has ? "yes" : "no");
}

static unsigned long parse_ul(const char *s)
{
	return strtoul(s, NULL, 0);
}

static void usage(void)
{
	fputs("usage: lf-probe OP ARGS... [OP ARGS...]...\n", stderr);
	exit(2);
}

#define NEED(k)                      \
	do {                         \
		if (i + (k) >= argc) \
			usage();     \
	} while (0)

static void op_fork_chain(const char *file, int seconds)
{
	char leak[4096], end_path[4096];
	pid_t pid = fork();

	if (pid != 0) {
		result(pid);
		return;
	}
	/* The probe's output is read to its end: the chain keeps none of it. */
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (null >= 0) {
		dup2(null, 0);
		dup2(null, 1);
		close(null);
	}
	snprintf(leak, sizeof(leak), "%s.chain", file);
	snprintf(end_path, sizeof(end_path), "%s.deadline", file);
	time_t end = time(NULL) + seconds;
	while (time(NULL) < end) {
		pid_t next = fork();
		if (next > 0)
			_exit(0);
		if (next < 0)
			continue;
		char buf[256];
		int fd = open(file, O_RDONLY | O_CLOEXEC);
		if (fd >= 0) {
			ssize_t n = read(fd, buf, sizeof(buf));
			close(fd);
			int o = open(leak, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
			if (o >= 0 && n > 0 && write(o, buf, (size_t)n) < 0)
				n = 0;
			if (o >= 0)
				close(o);
		}
		usleep(500);
	}
	int o = open(end_path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (o >= 0)
		close(o);
	_exit(0);
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	for (int i = 1; i < argc; i++) {
		const char *op = argv[i];

		if (!strcmp(op, "read")) {
			NEED(1);
			result(op_read(argv[++i]));
		} else if (!strcmp(op, "readsome")) {
			NEED(1);
			op_readsome(argv[++i]);
		} else if (!strcmp(op, "readeq")) {
			NEED(2);
			op_readeq(argv[i + 1], argv[i + 2]);
			i += 2;
		} else if (!strcmp(op, "write")) {
			NEED(1);
			result(op_openw(argv[++i], O_WRONLY | O_APPEND));
		} else if (!strcmp(op, "put")) {
			/* put PATH TEXT: replaces the content (O_TRUNC) */
			NEED(2);
			int fd = open(argv[i + 1], O_WRONLY | O_TRUNC | O_CREAT | O_CLOEXEC, 0644);
			size_t n = strlen(argv[i + 2]);
			if (fd < 0) {
				out_err(errno);
			} else {
				result(write(fd, argv[i + 2], n) == (ssize_t)n ? 0 : -1);
				close(fd);
			}
			i += 2;
		} else if (!strcmp(op, "put-same-time")) {
			/* put-same-time PATH TEXT: replaces the content in
			 * place and sets the access and modification times
			 * back, as a careful attacker would. */
			NEED(2);
			struct stat st;
			int fd = -1;
			size_t n = strlen(argv[i + 2]);
			if (stat(argv[i + 1], &st) != 0 ||
			    (fd = open(argv[i + 1], O_WRONLY | O_CLOEXEC)) < 0) {
				out_err(errno);
			} else {
				struct timespec ts[2] = { st.st_atim, st.st_mtim };
				result(pwrite(fd, argv[i + 2], n, 0) == (ssize_t)n &&
						       futimens(fd, ts) == 0
					       ? 0
					       : -1);
			}
			if (fd >= 0)
				close(fd);
			i += 2;
		} else if (!strcmp(op, "opath-reopen")) {
			/* O_PATH needs no right; reopening it through
			 * /proc/self/fd is a new open, checked on the path. */
			NEED(1);
			int fd = open(argv[++i], O_PATH | O_CLOEXEC);
			result(fd);
			if (fd >= 0) {
				char p[64];
				struct stat st;
				snprintf(p, sizeof(p), "/proc/self/fd/%d", fd);
				result(op_read(p));
				result(op_openw(p, O_WRONLY | O_APPEND));
				result(fstat(fd, &st));
				close(fd);
			}
		} else if (!strcmp(op, "handle-open")) {
			NEED(2);
			op_handle_open(argv[i + 1], argv[i + 2]);
			i += 2;
		} else if (!strcmp(op, "newmount")) {
			NEED(1);
			result(op_newmount(argv[++i]));
		} else if (!strcmp(op, "newbind")) {
			NEED(2);
			result(op_newbind(argv[i + 1], argv[i + 2]));
			i += 2;
		} else if (!strcmp(op, "chmod")) {
			NEED(2);
			result(chmod(argv[i + 1], (mode_t)strtoul(argv[i + 2], NULL, 8)));
			i += 2;
		} else if (!strcmp(op, "create-mode")) {
			/* create-mode PATH MODE: open(O_CREAT|O_EXCL) with that
			 * mode (umask cleared so the bits are asked for as is) */
			NEED(2);
			mode_t old = umask(0);
			int fd = open(argv[i + 1], O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
				      (mode_t)strtoul(argv[i + 2], NULL, 8));
			umask(old);
			result(fd);
			if (fd >= 0)
				close(fd);
			i += 2;
		} else if (!strcmp(op, "fchmod")) {
			NEED(2);
			int fd = open(argv[i + 1], O_RDONLY | O_CLOEXEC);
			if (fd < 0) {
				out_err(errno);
			} else {
				result(fchmod(fd, (mode_t)strtoul(argv[i + 2], NULL, 8)));
				close(fd);
			}
			i += 2;
		} else if (!strcmp(op, "fchmodat")) {
			NEED(2);
			result(syscall(SYS_fchmodat, AT_FDCWD, argv[i + 1],
				       (mode_t)strtoul(argv[i + 2], NULL, 8)));
			i += 2;
		} else if (!strcmp(op, "mknod-reg")) {
			NEED(2);
			mode_t old = umask(0);
			result(mknod(argv[i + 1], S_IFREG | (mode_t)strtoul(argv[i + 2], NULL, 8),
				     0));
			umask(old);
			i += 2;
		} else if (!strcmp(op, "mkdir-mode")) {
			NEED(2);
			mode_t old = umask(0);
			result(mkdir(argv[i + 1], (mode_t)strtoul(argv[i + 2], NULL, 8)));
			umask(old);
			i += 2;
		} else if (!strcmp(op, "openat2-create")) {
			/* openat2 carries the mode in a struct seccomp cannot
			 * read: it must be refused (ENOSYS) or checked */
			NEED(2);
			struct {
				uint64_t flags, mode, resolve;
			} how = { O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
				  strtoul(argv[i + 2], NULL, 8), 0 };
			mode_t old = umask(0);
			long fd = syscall(SYS_openat2, AT_FDCWD, argv[i + 1], &how, sizeof(how));
			umask(old);
			result(fd);
			if (fd >= 0)
				close((int)fd);
			i += 2;
		} else if (!strcmp(op, "chown")) {
			NEED(2);
			result(chown(argv[i + 1], (uid_t)parse_ul(argv[i + 2]),
				     (gid_t)parse_ul(argv[i + 2])));
			i += 2;
		} else if (!strcmp(op, "utime")) {
			NEED(1);
			struct timespec ts[2] = { { 0, 0 }, { 0, 0 } };
			result(utimensat(AT_FDCWD, argv[++i], ts, 0));
		} else if (!strcmp(op, "xattr")) {
			NEED(1);
			result(setxattr(argv[++i], "user.landfence", "1", 1, 0));
		} else if (!strcmp(op, "xattrat")) {
			/* The same through setxattrat (Linux 6.13, number 463):
			 * a POSIX ACL entry would go this way too. */
			NEED(1);
			struct {
				uint64_t value;
				uint32_t size, flags;
			} args = { (uint64_t)(uintptr_t) "1", 1, 0 };
			result((int)syscall(463, AT_FDCWD, argv[++i], 0, "user.landfence", &args,
					    sizeof(args)));
		} else if (!strcmp(op, "setcap")) {
			/* security.capability, VFS_CAP_REVISION_2, effective,
			 * CAP_SYS_ADMIN permitted: what setcap(8) writes. */
			NEED(1);
			uint32_t cap[5] = { 0x02000001u, 1u << 21, 0, 0, 0 };
			result(setxattr(argv[++i], "security.capability", cap, sizeof(cap), 0));
		} else if (!strcmp(op, "mode")) {
			/* mode PATH: prints the permission bits in octal */
			NEED(1);
			struct stat st;
			if (stat(argv[++i], &st) != 0) {
				out_err(errno);
			} else {
				char m[16];
				snprintf(m, sizeof(m), "%04o", (unsigned)(st.st_mode & 07777));
				out(m);
			}
		} else if (!strcmp(op, "uring-read")) {
			NEED(1);
			op_uring_open(argv[++i], O_RDONLY);
		} else if (!strcmp(op, "uring-write")) {
			NEED(1);
			op_uring_open(argv[++i], O_WRONLY | O_APPEND);
		} else if (!strcmp(op, "uring-create")) {
			NEED(1);
			op_uring_open(argv[++i], O_WRONLY | O_CREAT | O_EXCL);
		} else if (!strcmp(op, "fds")) {
			/* Descriptors above stderr that the program did not open
			 * itself: "none", or their numbers. */
			int dfd = open("/proc/self/fd", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
			char buf[4096], list[256] = "";
			long n;
			if (dfd < 0) {
				out_err(errno);
				continue;
			}
			while ((n = syscall(SYS_getdents64, dfd, buf, sizeof(buf))) > 0)
				for (long off = 0; off < n;) {
					struct dirent64 *de =
						(struct dirent64 *)(void *)(buf + off);
					int fd = atoi(de->d_name);
					if (de->d_name[0] != '.' && fd > 2 && fd != dfd)
						snprintf(list + strlen(list),
							 sizeof(list) - strlen(list), "%s%d",
							 list[0] ? "," : "", fd);
					off += de->d_reclen;
				}
			close(dfd);
			out(list[0] ? list : "none");
		} else if (!strcmp(op, "sysv-shm")) {
			/* sysv-shm KEY: attaches an existing SysV segment and
			 * reads it */
			NEED(1);
			int id = shmget((key_t)parse_ul(argv[++i]), 0, 0);
			if (id < 0) {
				out_err(errno);
			} else {
				void *a = shmat(id, NULL, SHM_RDONLY);
				result(a == (void *)-1 ? -1 : 0);
				if (a != (void *)-1)
					shmdt(a);
			}
		} else if (!strcmp(op, "mq")) {
			/* mq NAME: opens an existing POSIX message queue */
			NEED(1);
			char name[256];
			snprintf(name, sizeof(name), "/%s", argv[++i]);
			mqd_t q = mq_open(name, O_RDWR);
			result(q == (mqd_t)-1 ? -1 : 0);
			if (q != (mqd_t)-1)
				mq_close(q);
		} else if (!strcmp(op, "abi")) {
			/* The kernel's Landlock ABI, asked here rather than in the
			 * harness, which may run under valgrind (it does not know
			 * the system call). */
			long v = syscall(SYS_landlock_create_ruleset, NULL, 0, 1u);
			printf("%ld\n", v < 0 ? 0L : v);
			fflush(stdout);
		} else if (!strcmp(op, "pidfd-getfd")) {
			/* pidfd-getfd PID FD: takes a copy of another process's
			 * descriptor (needs ptrace-attach rights on it) */
			NEED(2);
			int pfd = (int)syscall(SYS_pidfd_open, (pid_t)parse_ul(argv[i + 1]), 0);
			result(pfd);
			if (pfd >= 0) {
				int fd = (int)syscall(SYS_pidfd_getfd, pfd,
						      (int)parse_ul(argv[i + 2]), 0);
				result(fd);
				if (fd >= 0)
					close(fd);
				close(pfd);
			}
			i += 2;
		} else if (!strcmp(op, "vm-read")) {
			/* vm-read PID: process_vm_readv of one byte at an address
			 * of ours (EFAULT there is an allowed read) */
			NEED(1);
			char mine = 0, got = 0;
			struct iovec l = { &got, 1 }, r = { &mine, 1 };
			result(syscall(SYS_process_vm_readv, (pid_t)parse_ul(argv[++i]), &l, 1, &r,
				       1, 0));
		} else if (!strcmp(op, "init-module")) {
			/* an empty image: EPERM without CAP_SYS_MODULE, else
			 * a format error; loads nothing either way */
			static const char img[16];
			result(syscall(SYS_init_module, img, sizeof(img), ""));
		} else if (!strcmp(op, "kexec")) {
			result(syscall(SYS_kexec_load, 0UL, 0UL, NULL, 0UL));
		} else if (!strcmp(op, "create")) {
			NEED(1);
			result(op_openw(argv[++i], O_WRONLY | O_CREAT | O_EXCL));
		} else if (!strcmp(op, "otrunc")) {
			NEED(1);
			result(op_openw(argv[++i], O_WRONLY | O_TRUNC));
		} else if (!strcmp(op, "rdtrunc")) {
			/* O_RDONLY|O_TRUNC truncates too: no write access asked. */
			NEED(1);
			result(op_openw(argv[++i], O_RDONLY | O_TRUNC));
		} else if (!strcmp(op, "truncate")) {
			NEED(1);
			result(truncate(argv[++i], 0));
		} else if (!strcmp(op, "ftruncate")) {
			NEED(1);
			int fd = open(argv[++i], O_WRONLY | O_CLOEXEC);
			if (fd < 0) {
				out_err(errno);
			} else {
				result(ftruncate(fd, 0));
				close(fd);
			}
		} else if (!strcmp(op, "ls")) {
			NEED(1);
			result(op_ls(argv[++i]));
		} else if (!strcmp(op, "unlink")) {
			NEED(1);
			result(unlink(argv[++i]));
		} else if (!strcmp(op, "mkdir")) {
			NEED(1);
			result(mkdir(argv[++i], 0755));
		} else if (!strcmp(op, "rmdir")) {
			NEED(1);
			result(rmdir(argv[++i]));
		} else if (!strcmp(op, "rename")) {
			NEED(2);
			result(rename(argv[i + 1], argv[i + 2]));
			i += 2;
		} else if (!strcmp(op, "exchange")) {
			NEED(2);
			result(syscall(SYS_renameat2, AT_FDCWD, argv[i + 1], AT_FDCWD, argv[i + 2],
				       RENAME_EXCHANGE));
			i += 2;
		} else if (!strcmp(op, "link")) {
			NEED(2);
			result(link(argv[i + 1], argv[i + 2]));
			i += 2;
		} else if (!strcmp(op, "symlink")) {
			NEED(2);
			result(symlink(argv[i + 1], argv[i + 2]));
			i += 2;
		} else if (!strcmp(op, "mknod-c")) {
			NEED(1);
			result(mknod(argv[++i], S_IFCHR | 0600, makedev(1, 3)));
		} else if (!strcmp(op, "mknod-b")) {
			NEED(1);
			result(mknod(argv[++i], S_IFBLK | 0600, makedev(7, 0)));
		} else if (!strcmp(op, "mkfifo")) {
			NEED(1);
			result(mkfifo(argv[++i], 0600));
		} else if (!strcmp(op, "mksock")) {
			NEED(1);
			result(op_mksock(argv[++i]));
		} else if (!strcmp(op, "fifo-w")) {
			/* Non-blocking open for writing: ENXIO when nobody reads,
			 * EACCES when Landlock refuses. */
			NEED(1);
			int fd = open(argv[++i], O_WRONLY | O_NONBLOCK | O_CLOEXEC);
			result(fd);
			if (fd >= 0)
				close(fd);
		} else if (!strcmp(op, "fifo-r")) {
			NEED(1);
			int fd = open(argv[++i], O_RDONLY | O_NONBLOCK | O_CLOEXEC);
			result(fd);
			if (fd >= 0)
				close(fd);
		} else if (!strcmp(op, "shm")) {
			NEED(1);
			char name[256];
			snprintf(name, sizeof(name), "/%s", argv[++i]);
			int fd = shm_open(name, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
			result(fd);
			if (fd >= 0) {
				close(fd);
				shm_unlink(name);
			}
		} else if (!strcmp(op, "fd")) {
			/* Reads one byte from an inherited descriptor number. */
			NEED(1);
			char c;
			result(read((int)parse_ul(argv[++i]), &c, 1));
		} else if (!strcmp(op, "recvfd")) {
			NEED(1);
			result(op_recvfd(argv[++i]));
		} else if (!strcmp(op, "passed-read")) {
			char c;
			result(read(passed_fd[1], &c, 1));
		} else if (!strcmp(op, "passed-reopen-w")) {
			char p[64];
			snprintf(p, sizeof(p), "/proc/self/fd/%d", passed_fd[1]);
			result(op_openw(p, O_WRONLY | O_APPEND));
		} else if (!strcmp(op, "passed-reopen-r")) {
			char p[64];
			snprintf(p, sizeof(p), "/proc/self/fd/%d", passed_fd[1]);
			result(op_read(p));
		} else if (!strcmp(op, "passed-ftruncate")) {
			result(ftruncate(passed_fd[1], 0));
		} else if (!strcmp(op, "passed-openat")) {
			NEED(1);
			int fd = openat(passed_fd[0], argv[++i], O_RDONLY | O_CLOEXEC);
			result(fd);
			if (fd >= 0)
				close(fd);
		} else if (!strcmp(op, "passed-fchdir-read")) {
			NEED(1);
			if (fchdir(passed_fd[0]) != 0)
				out_err(errno);
			else
				result(op_read(argv[++i]));
		} else if (!strcmp(op, "abstract")) {
			NEED(1);
			result(op_abstract(argv[++i]));
		} else if (!strcmp(op, "abstract-self")) {
			NEED(1);
			result(op_abstract_self(argv[++i]));
		} else if (!strcmp(op, "connect")) {
			NEED(1);
			result(op_connect_path(argv[++i]));
		} else if (!strcmp(op, "kill")) {
			NEED(2);
			result(kill((pid_t)parse_ul(argv[i + 1]), (int)parse_ul(argv[i + 2])));
			i += 2;
		} else if (!strcmp(op, "prlimit") || !strcmp(op, "prlimit-parent")) {
			/* prlimit PID (0: itself) | prlimit-parent: sets the
			 * open-files limit of that process to what it is. */
			pid_t p = op[7] ? getppid() : 0;
			struct rlimit now;

			if (!op[7]) {
				NEED(1);
				p = (pid_t)parse_ul(argv[++i]);
			}
			if (prlimit(p, RLIMIT_NOFILE, NULL, &now) != 0)
				result(-1);
			else
				result(prlimit(p, RLIMIT_NOFILE, &now, NULL));
		} else if (!strcmp(op, "kill-parent")) {
			NEED(1);
			result(kill(getppid(), (int)parse_ul(argv[++i])));
		} else if (!strcmp(op, "kill-child")) {
			/* The honest path: a process of the sandbox signals its
			 * own child. */
			pid_t c = fork();
			if (c == 0) {
				pause();
				_exit(0);
			}
			result(c < 0 ? -1 : kill(c, SIGKILL));
			waitpid(c, NULL, 0);
		} else if (!strcmp(op, "ptrace")) {
			NEED(1);
			pid_t p = (pid_t)parse_ul(argv[++i]);
			long r = ptrace(PTRACE_SEIZE, p, NULL, NULL);
			int e = errno;
			if (r == 0)
				ptrace(PTRACE_DETACH, p, NULL, NULL);
			errno = e;
			result(r);
		} else if (!strcmp(op, "ptrace-parent")) {
			pid_t p = getppid();
			long r = ptrace(PTRACE_SEIZE, p, NULL, NULL);
			int e = errno;
			if (r == 0)
				ptrace(PTRACE_DETACH, p, NULL, NULL);
			errno = e;
			result(r);
		} else if (!strcmp(op, "ptrace-child")) {
			pid_t c = fork();
			if (c == 0) {
				pause();
				_exit(0);
			}
			long r = c < 0 ? -1 : ptrace(PTRACE_SEIZE, c, NULL, NULL);
			result(r);
			kill(c, SIGKILL);
			waitpid(c, NULL, 0);
		} else if (!strcmp(op, "parent-path")) {
			/* parent-path REST: reads /proc/<parent>/REST */
			NEED(1);
			char p[4096];
			snprintf(p, sizeof(p), "/proc/%d/%s", (int)getppid(), argv[++i]);
			result(op_read(p));
		} else if (!strcmp(op, "getenv")) {
			NEED(1);
			out(getenv(argv[++i]) ? "set" : "unset");
		} else if (!strcmp(op, "mount-tmpfs")) {
			NEED(1);
			result(mount("none", argv[++i], "tmpfs", 0, NULL));
		} else if (!strcmp(op, "mount-bind")) {
			NEED(2);
			result(mount(argv[i + 1], argv[i + 2], "none", MS_BIND, NULL));
			i += 2;
		} else if (!strcmp(op, "umount")) {
			NEED(1);
			result(umount2(argv[++i], MNT_DETACH));
		} else if (!strcmp(op, "pivot-root")) {
			NEED(2);
			result(syscall(SYS_pivot_root, argv[i + 1], argv[i + 2]));
			i += 2;
		} else if (!strcmp(op, "unshare")) {
			/* unshare mnt|user|user+mnt */
			NEED(1);
			const char *w = argv[++i];
			int fl = !strcmp(w, "mnt")	  ? CLONE_NEWNS
				 : !strcmp(w, "user")	  ? CLONE_NEWUSER
				 : !strcmp(w, "user+mnt") ? CLONE_NEWUSER | CLONE_NEWNS
							  : 0;
			result(unshare(fl));
		} else if (!strcmp(op, "make-private")) {
			result(mount("none", "/", "none", MS_REC | MS_PRIVATE, NULL));
		} else if (!strcmp(op, "chroot")) {
			NEED(1);
			result(chroot(argv[++i]));
		} else if (!strcmp(op, "chdir")) {
			NEED(1);
			result(chdir(argv[++i]));
		} else if (!strcmp(op, "capsets")) {
			op_capsets();
		} else if (!strcmp(op, "setattr-clear")) {
			NEED(1);
			result(op_setattr_clear(argv[++i]));
		} else if (!strcmp(op, "remount-rw")) {
			NEED(1);
			result(mount("none", argv[++i], "none", MS_REMOUNT | MS_BIND, NULL));
		} else if (!strcmp(op, "open-tree")) {
			NEED(1);
			result(syscall(SYS_open_tree, AT_FDCWD, argv[++i],
				       OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC));
		} else if (!strcmp(op, "clone-newuser")) {
			result(op_clone_newuser(false));
		} else if (!strcmp(op, "clone3-newuser")) {
			result(op_clone_newuser(true));
		} else if (!strcmp(op, "fork")) {
			pid_t pid = fork();
			if (pid == 0)
				_exit(0);
			if (pid > 0)
				waitpid(pid, NULL, 0);
			result(pid);
		} else if (!strcmp(op, "fork-chain")) {
			/* fork-chain FILE SECONDS: a chain of processes beside
			 * the probe, each forking the next and exiting at once,
			 * each appending FILE's content to FILE.chain and
			 * pausing 0.5 ms; after SECONDS it gives up and makes
			 * FILE.deadline. */
			NEED(2);
			op_fork_chain(argv[i + 1], atoi(argv[i + 2]));
			i += 2;
		} else if (!strcmp(op, "count")) {
			NEED(1);
			op_count(argv[++i]);
		} else if (!strcmp(op, "mountinfo-has")) {
			NEED(1);
			op_mountinfo_has(argv[++i]);
		} else if (!strcmp(op, "caps")) {
			int r = op_caps();
			out(r < 0 ? "error" : r ? "caps" : "nocaps");
		} else if (!strcmp(op, "caps-bound")) {
			/* Capabilities that reach past the file system and that
			 * Landlock does not restrict: "dropped" when none is
			 * left in the bounding set, else the numbers kept. */
			static const int danger[] = { 12, 16, 17, 19, 21, 22, 25,
						      30, 32, 33, 34, 38, 39 };
			char kept[128] = "";
			for (size_t k = 0; k < sizeof(danger) / sizeof(danger[0]); k++)
				if (prctl(PR_CAPBSET_READ, danger[k], 0, 0, 0) == 1)
					snprintf(kept + strlen(kept), sizeof(kept) - strlen(kept),
						 "%s%d", kept[0] ? "," : "kept:", danger[k]);
			out(kept[0] ? kept : "dropped");
		} else if (!strcmp(op, "reboot-bad")) {
			/* A wrong magic number: EINVAL once CAP_SYS_BOOT is
			 * checked and held, EPERM when it is not. Reboots
			 * nothing either way. */
			result(syscall(SYS_reboot, 0x12345678, 0x1, 0, NULL));
		} else if (!strcmp(op, "tiocsti")) {
			NEED(1);
			result(op_tiocsti(0, (uint64_t)parse_ul(argv[++i]) << 32));
		} else if (!strcmp(op, "tiocsti-ptmx")) {
			NEED(1);
			result(op_tiocsti_ptmx((uint64_t)parse_ul(argv[++i]) << 32));
		} else if (!strcmp(op, "tiocsti-int80")) {
#if defined(__x86_64__)
			result_in_child(op_tiocsti_int80);
#else
			out("n/a"); /* no second system call table to try */
#endif
		} else if (!strcmp(op, "tiocsti-x32")) {
#if defined(__x86_64__)
			result(op_tiocsti_x32());
#else
			out("n/a");
#endif
		} else if (!strcmp(op, "tioclinux")) {
			NEED(1);
			result(op_tioclinux(0, (uint64_t)parse_ul(argv[++i]) << 32));
		} else if (!strcmp(op, "tcgetattr")) {
			struct termios t;
			result(tcgetattr(0, &t));
		} else if (!strcmp(op, "exec")) {
			NEED(1);
			run_child(-1, argv + i + 1);
			break;
		} else if (!strcmp(op, "memfd-run")) {
			op_memfd_run(argv + i + 1);
			break;
		} else if (!strcmp(op, "sync")) {
			/* Tells the harness it may act, and waits until it did. */
			char c;
			out("ready");
			if (read(0, &c, 1) != 1)
				return 3;
		} else {
			fprintf(stderr, "lf-probe: unknown operation %s\n", op);
			return 2;
		}
	}
	return 0;
}
