/* SPDX-License-Identifier: MIT */
/*
 * Fork, harden, restrict, exec. See launch.h and doc/launch.md.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <linux/capability.h>
#include <linux/magic.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/statfs.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "landlock/sandbox.h"
#include "launch/launch.h"
#include "launch/mountns.h"

/* Where the child keeps the two descriptors it still needs once every
 * other one above stderr is closed. */
#define CHILD_ERR_FD 3
#define CHILD_RULESET_FD 4
#define CHILD_USERNS_FD 5

const char *lf_launch_stage_name(enum lf_launch_stage stage)
{
	switch (stage) {
	case LF_STAGE_NONE:
		return "launch";
	case LF_STAGE_FDS:
		return "closing inherited descriptors";
	case LF_STAGE_SIGNALS:
		return "restoring the signal mask";
	case LF_STAGE_CWD:
		return "changing directory";
	case LF_STAGE_NNP:
		return "setting no-new-privs";
	case LF_STAGE_CAPS:
		return "dropping capabilities";
	case LF_STAGE_PARENT:
		return "tying its life to landfence's";
	case LF_STAGE_SECCOMP:
		return "loading the seccomp filter";
	case LF_STAGE_LANDLOCK:
		return "entering the Landlock domain";
	case LF_STAGE_EXEC:
		return "executing the program";
	case LF_STAGE_NAMESPACE:
		return "masking in a mount namespace";
	case LF_STAGE_WATCH:
		return "opening the mount table to watch the masks";
	}
	return "launch";
}

/* Whether path is a regular file this process may execute. */
static int check_exec(const char *path)
{
	struct stat st;

	if (stat(path, &st) < 0)
		return -errno;
	if (S_ISDIR(st.st_mode))
		return -EACCES;
	if (!S_ISREG(st.st_mode))
		return -EACCES;
	if (access(path, X_OK) < 0)
		return -EACCES;
	return 0;
}

/* Joins dir (possibly relative or empty) and name into an absolute path. */
static int join_abs(const char *dir, size_t dlen, const char *name, char *out, size_t size)
{
	char cwd[PATH_MAX];
	int n;

	if (dlen > 0 && dir[0] == '/') {
		n = snprintf(out, size, "%.*s/%s", (int)dlen, dir, name);
	} else {
		if (!getcwd(cwd, sizeof(cwd)))
			return -errno;
		if (dlen == 0)
			n = snprintf(out, size, "%s/%s", cwd, name);
		else
			n = snprintf(out, size, "%s/%.*s/%s", cwd, (int)dlen, dir, name);
	}
	if (n < 0 || (size_t)n >= size)
		return -ENAMETOOLONG;
	return 0;
}

int lf_launch_resolve(const char *name, const char *path_env, char *out, size_t size)
{
	char buf[PATH_MAX];
	int r, seen = -ENOENT;

	if (!name || !out || size == 0 || name[0] == '\0')
		return -ENOENT;
	if (strchr(name, '/')) {
		if (name[0] == '/') {
			if (strlen(name) >= sizeof(buf))
				return -ENAMETOOLONG;
			strcpy(buf, name);
		} else if ((r = join_abs("", 0, name, buf, sizeof(buf))) < 0) {
			return r;
		}
		r = check_exec(buf);
		if (r < 0)
			return r == -ENOENT || r == -ENOTDIR ? -ENOENT
			       : r == -ENAMETOOLONG	     ? r
							     : -EACCES;
		if (strlen(buf) >= size)
			return -ENAMETOOLONG;
		strcpy(out, buf);
		return 0;
	}
	if (!path_env)
		path_env = "/usr/local/bin:/usr/bin:/bin";
	for (const char *p = path_env;;) {
		const char *end = strchrnul(p, ':');
		r = join_abs(p, (size_t)(end - p), name, buf, sizeof(buf));
		if (r == 0) {
			r = check_exec(buf);
			if (r == 0) {
				if (strlen(buf) >= size)
					return -ENAMETOOLONG;
				strcpy(out, buf);
				return 0;
			}
			/* execvp keeps looking after EACCES but reports it
			 * when nothing else is found. */
			if (r != -ENOENT && r != -ENOTDIR)
				seen = -EACCES;
		}
		if (*end == '\0')
			break;
		p = end + 1;
	}
	return seen;
}

static const int forwarded[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGWINCH };

static void wait_set(sigset_t *set)
{
	sigemptyset(set);
	for (size_t i = 0; i < sizeof(forwarded) / sizeof(forwarded[0]); i++)
		sigaddset(set, forwarded[i]);
	sigaddset(set, SIGCHLD);
}

/*
 * The child. It shares the caller's memory until it execs (CLONE_VM), so
 * it makes system calls through syscall(2) (no libc wrapper a sanitizer
 * intercepts; errno is the calling thread's, which sleeps meanwhile) and
 * is never instrumented: a sanitizer's bookkeeping of its frames would
 * land in memory the caller goes on using. The same code runs in every
 * build, sanitizers included (doc/launch.md, "Sanitizers").
 */
#define CHILD __attribute__((no_sanitize("address", "undefined")))

CHILD __attribute__((noreturn)) static void child_fail_at(int errfd, enum lf_launch_stage stage,
							  int err, int step, int op)
{
	int32_t msg[4] = { (int32_t)stage, (int32_t)err, (int32_t)step, (int32_t)op };
	long w;

	do {
		w = syscall(SYS_write, errfd, msg, sizeof(msg));
	} while (w < 0 && errno == EINTR);
	syscall(SYS_exit_group, LF_STAGE_EXEC == stage && (err == ENOENT) ? 127 : 126);
	__builtin_unreachable();
}

CHILD __attribute__((noreturn)) static void child_fail(int errfd, enum lf_launch_stage stage,
						       int err)
{
	child_fail_at(errfd, stage, err, 0, -1);
}

CHILD static int close_above(unsigned first, unsigned long max_fd)
{
	if (syscall(SYS_close_range, first, ~0U, 0) == 0)
		return 0;
	if (errno != ENOSYS && errno != EINVAL)
		return -errno;
	/* Kernels before 5.9: close one by one up to the limit read in the
	 * parent. */
	for (unsigned long fd = first; fd < max_fd; fd++)
		syscall(SYS_close, (int)fd);
	return 0;
}

/* Capabilities a root program keeps in the sandbox: the set container
 * runtimes give by default (file ownership and modes, uid/gid changes,
 * signals, low ports, chroot), less CAP_SETFCAP (file capabilities would
 * outlive the sandbox), less CAP_NET_RAW (without a network namespace a
 * packet socket sees every frame of the host, other programs' traffic
 * included) and less CAP_FSETID (a write to a set-user-ID file must clear
 * the bit, so the sandbox cannot put its code into one). Everything else —
 * CAP_SYS_ADMIN, CAP_SYS_MODULE, CAP_SYS_BOOT, CAP_SYS_TIME, CAP_SYS_RAWIO,
 * CAP_SYS_PTRACE, CAP_DAC_READ_SEARCH (open_by_handle_at), CAP_BPF,
 * CAP_NET_ADMIN, ... — reaches past the file system Landlock fences. */
#define KEEP_CAPS                                                                            \
	((1ULL << CAP_CHOWN) | (1ULL << CAP_DAC_OVERRIDE) | (1ULL << CAP_FOWNER) |           \
	 (1ULL << CAP_KILL) | (1ULL << CAP_SETGID) | (1ULL << CAP_SETUID) |                  \
	 (1ULL << CAP_SETPCAP) | (1ULL << CAP_NET_BIND_SERVICE) | (1ULL << CAP_SYS_CHROOT) | \
	 (1ULL << CAP_MKNOD) | (1ULL << CAP_AUDIT_WRITE))

/* Drops every capability outside keep from the bounding, ambient,
 * effective, permitted and inheritable sets. */
CHILD static int child_drop_caps(unsigned last_cap, uint64_t keep)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[2];
	uint64_t e, p, i;

	if (syscall(SYS_capget, &hdr, data) < 0)
		return -errno;
	p = data[0].permitted | ((uint64_t)data[1].permitted << 32);
	/* Without CAP_SETPCAP the bounding set cannot change, and an
	 * unprivileged program gains nothing from it under no-new-privs. */
	if (p & (1ULL << CAP_SETPCAP)) {
		for (unsigned cap = 0; cap <= last_cap && cap < 64; cap++) {
			if (keep & (1ULL << cap))
				continue;
			if (syscall(SYS_prctl, PR_CAPBSET_DROP, cap, 0, 0, 0) < 0 &&
			    errno != EINVAL)
				return -errno;
		}
	}
	if (syscall(SYS_prctl, PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) < 0 &&
	    errno != EINVAL)
		return -errno;
	e = data[0].effective | ((uint64_t)data[1].effective << 32);
	i = data[0].inheritable | ((uint64_t)data[1].inheritable << 32);
	if (!(e & ~keep) && !(p & ~keep) && !(i & ~keep))
		return 0;
	e &= keep;
	p &= keep;
	i &= keep;
	data[0].effective = (uint32_t)e;
	data[1].effective = (uint32_t)(e >> 32);
	data[0].permitted = (uint32_t)p;
	data[1].permitted = (uint32_t)(p >> 32);
	data[0].inheritable = (uint32_t)i;
	data[1].inheritable = (uint32_t)(i >> 32);
	if (syscall(SYS_capset, &hdr, data) < 0)
		return -errno;
	return 0;
}

CHILD int lf_sigcgt_parse(const char *status, uint64_t *set)
{
	static const char key[] = "\nSigCgt:";
	uint64_t v = 0;
	size_t digits = 0;
	const char *p = status;

	/* The first line is "Name:", never this one: a match starts at a
	 * newline. A name holding "\nSigCgt:" is escaped by the kernel. */
	for (;; p++) {
		if (!*p)
			return -EINVAL;
		if (*p == '\n' && !strncmp(p, key, sizeof(key) - 1))
			break;
	}
	p += sizeof(key) - 1;
	while (*p == ' ' || *p == '\t')
		p++;
	for (; digits <= 16; p++, digits++) {
		unsigned d;

		if (*p >= '0' && *p <= '9')
			d = (unsigned)(*p - '0');
		else if (*p >= 'a' && *p <= 'f')
			d = (unsigned)(*p - 'a' + 10);
		else if (*p >= 'A' && *p <= 'F')
			d = (unsigned)(*p - 'A' + 10);
		else
			break;
		v = v << 4 | d;
	}
	if (digits == 0 || digits > 16 || *p != '\n')
		return -EINVAL;
	*set = v;
	return 0;
}

/* The signals a handler catches in the child's own copy of the
 * dispositions, read from its /proc/self/status once /proc is seen to be
 * the proc file system (a file put in its place would name fewer).
 * False when it cannot be read: the caller then asks about every
 * signal. No signal arrives meanwhile: all are blocked. */
CHILD static bool child_caught_signals(uint64_t *set)
{
	char buf[4096];
	struct statfs fs;
	size_t n = 0;
	long r = 0;
	int fd = (int)syscall(SYS_openat, AT_FDCWD, "/proc/self/status",
			      O_RDONLY | O_CLOEXEC | O_NOCTTY);

	if (fd < 0)
		return false;
	if (fstatfs(fd, &fs) < 0 || fs.f_type != PROC_SUPER_MAGIC) {
		syscall(SYS_close, fd);
		return false;
	}
	while (n < sizeof(buf) - 1) {
		r = syscall(SYS_read, fd, buf + n, sizeof(buf) - 1 - n);
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	syscall(SYS_close, fd);
	buf[n] = '\0';
	return r >= 0 && lf_sigcgt_parse(buf, set) == 0;
}

/* Back to the default disposition for every signal a handler of the
 * caller catches (ignored ones stay ignored, as across exec): the child
 * shares the caller's memory, so a handler of the caller must not run
 * here. Its own copy of the dispositions (no CLONE_SIGHAND) changes.
 * Only the signals the kernel counts as caught are asked about (one read
 * of /proc/self/status instead of 64 sigaction calls, ~100 us a launch
 * on the development VM); every one when that cannot be read.
 * libc's sigaction, as posix_spawn's child uses it: the kernel's struct
 * differs between architectures. */
CHILD static int child_reset_signals(void)
{
	uint64_t caught = ~(uint64_t)0;

	if (!child_caught_signals(&caught))
		caught = ~(uint64_t)0;
	for (int sig = 1; sig < _NSIG; sig++) {
		struct sigaction sa;

		if (sig == SIGKILL || sig == SIGSTOP)
			continue;
		if (sig <= 64 && !(caught >> (sig - 1) & 1))
			continue;
		if (sigaction(sig, NULL, &sa) < 0 || sa.sa_handler == SIG_IGN ||
		    sa.sa_handler == SIG_DFL)
			continue;
		sa.sa_handler = SIG_DFL;
		sa.sa_flags = 0;
		if (sigaction(sig, &sa, NULL) < 0)
			return -errno;
	}
	return 0;
}

struct child_args {
	const struct lf_launch_opts *o;
	int errfd;
	int readfd;
	const sigset_t *mask;
	unsigned long max_fd;
	unsigned last_cap;
	pid_t parent;
	bool watch; /* hand the mount table over (lf_mask_watch_needed) */
	/* Written by the child, read once it has exec'ed (shared memory): */
	struct statx *ns_id; /* its mount namespace's inode and device */
};

/* Moves the error channel, the ruleset and the user namespace of an
 * id-mapped mount to fixed numbers, then drops every other inherited
 * descriptor: the program must not inherit a way around the sandbox (an
 * O_PATH to $HOME, a socket, ...). A user namespace's descriptor reaches
 * no file; it is closed once the mounts are made. Returns the ruleset's
 * descriptor (-1 when there is none); sets *errfd and *nsfd (-1 none). */
CHILD static int child_fds(const struct child_args *a, int *errfd, int *nsfd)
{
	int e, rfd = -1, u = -1, next;
	int userns = a->o->ns ? a->o->ns->userns_fd : -1;

	e = (int)syscall(SYS_fcntl, a->errfd, F_DUPFD_CLOEXEC, CHILD_USERNS_FD + 1);
	if (e < 0)
		child_fail(a->errfd, LF_STAGE_FDS, errno);
	if (a->o->ruleset_fd >= 0) {
		rfd = (int)syscall(SYS_fcntl, a->o->ruleset_fd, F_DUPFD_CLOEXEC,
				   CHILD_USERNS_FD + 1);
		if (rfd < 0)
			child_fail(e, LF_STAGE_FDS, errno);
	}
	if (userns >= 0) {
		u = (int)syscall(SYS_fcntl, userns, F_DUPFD_CLOEXEC, CHILD_USERNS_FD + 1);
		if (u < 0)
			child_fail(e, LF_STAGE_FDS, errno);
	}
	if (syscall(SYS_dup3, e, CHILD_ERR_FD, O_CLOEXEC) < 0)
		child_fail(e, LF_STAGE_FDS, errno);
	*errfd = CHILD_ERR_FD;
	next = CHILD_ERR_FD + 1;
	if (rfd >= 0) {
		if (syscall(SYS_dup3, rfd, CHILD_RULESET_FD, O_CLOEXEC) < 0)
			child_fail(*errfd, LF_STAGE_FDS, errno);
		rfd = CHILD_RULESET_FD;
		next = CHILD_RULESET_FD + 1;
	}
	/* The next free number: nothing inherited stays between them. */
	if (u >= 0) {
		if (syscall(SYS_dup3, u, next, O_CLOEXEC) < 0)
			child_fail(*errfd, LF_STAGE_FDS, errno);
		u = next++;
	}
	*nsfd = u;
	if (close_above(next, a->max_fd) < 0)
		child_fail(*errfd, LF_STAGE_FDS, errno);
	return rfd;
}

/* Opens the namespace's mount table, now that the masks are made and
 * from the root the launcher has, and hands it to the parent through the
 * error channel (a socket pair when there is a watch), with nothing else
 * in the message (stage 0): the parent watches the masks through it.
 * Opened here, before the exec, the table is seen from that root
 * whatever the program does afterwards (a root program's chroot would
 * otherwise show the parent only the program's part of it). The
 * namespace's root goes with it (O_PATH): through it the parent looks
 * each mask's path up, which needs no lock the kernel holds while it
 * takes a fallen mask off, where a read of the table waits for it. Also
 * notes the namespace's identity (/proc/N/ns/mnt), by which the parent
 * finds its processes. */
CHILD static void child_send_table(int errfd, const struct child_args *a)
{
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(2 * sizeof(int))];
	} cm = { 0 };
	int32_t msg[4] = { LF_STAGE_NONE, 0, 0, 0 };
	struct iovec iov = { .iov_base = msg, .iov_len = sizeof(msg) };
	struct msghdr mh = { .msg_iov = &iov,
			     .msg_iovlen = 1,
			     .msg_control = cm.buf,
			     .msg_controllen = sizeof(cm.buf) };
	struct cmsghdr *c = CMSG_FIRSTHDR(&mh);
	long w;
	int fd[2];

	if (syscall(SYS_statx, AT_FDCWD, "/proc/self/ns/mnt", 0, STATX_INO, a->ns_id) < 0)
		child_fail(errfd, LF_STAGE_WATCH, errno);
	fd[0] = (int)syscall(SYS_openat, AT_FDCWD, "/proc/self/mountinfo", O_RDONLY | O_CLOEXEC);
	if (fd[0] < 0)
		child_fail(errfd, LF_STAGE_WATCH, errno);
	fd[1] = (int)syscall(SYS_openat, AT_FDCWD, "/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd[1] < 0)
		child_fail(errfd, LF_STAGE_WATCH, errno);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(fd));
	((int *)CMSG_DATA(c))[0] = fd[0];
	((int *)CMSG_DATA(c))[1] = fd[1];
	do {
		w = syscall(SYS_sendmsg, errfd, &mh, 0);
	} while (w < 0 && errno == EINTR);
	if (w < 0)
		child_fail(errfd, LF_STAGE_WATCH, errno);
	syscall(SYS_close, fd[0]);
	syscall(SYS_close, fd[1]);
}

CHILD __attribute__((noreturn)) static void child_run(const struct child_args *a)
{
	const struct lf_launch_opts *o = a->o;
	int errfd = a->errfd, nsfd = -1, rfd, r;

	/* The program never outlives the thread that started it: SIGKILL
	 * when that thread ends. Asked first, then checked, so that a caller
	 * that died before the request is noticed too (the child has been
	 * handed to another parent by then). */
	if (syscall(SYS_prctl, PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0)
		child_fail(errfd, LF_STAGE_PARENT, errno);
	if (syscall(SYS_getppid) != a->parent)
		child_fail(errfd, LF_STAGE_PARENT, ESRCH);

	rfd = child_fds(a, &errfd, &nsfd);

	r = child_reset_signals();
	if (r < 0)
		child_fail(errfd, LF_STAGE_SIGNALS, -r);
	if (syscall(SYS_rt_sigprocmask, SIG_SETMASK, a->mask, NULL, _NSIG / 8) < 0)
		child_fail(errfd, LF_STAGE_SIGNALS, errno);

	/* The masks, after every inherited descriptor is closed (none can
	 * reach below them) and before Landlock, which forbids changing
	 * the mount topology once entered. The plan re-enters the
	 * working directory last. */
	if (o->ns) {
		int step = 0, op = -1;

		r = lf_ns_enter(o->ns, nsfd, &step, &op);
		if (r < 0)
			child_fail_at(errfd, LF_STAGE_NAMESPACE, -r, step, op);
		if (nsfd >= 0 && syscall(SYS_close, nsfd) < 0)
			child_fail(errfd, LF_STAGE_FDS, errno);
		if (a->watch)
			child_send_table(errfd, a);
	} else if (o->cwd && syscall(SYS_chdir, o->cwd) < 0) {
		child_fail(errfd, LF_STAGE_CWD, errno);
	}

	/* Landlock requires it for an unprivileged caller, and it keeps a
	 * setuid program from shedding the domain. */
	if (syscall(SYS_prctl, PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		child_fail(errfd, LF_STAGE_NNP, errno);

	/* In a user namespace of its own the child holds every capability
	 * over it: none is kept. */
	r = child_drop_caps(a->last_cap, o->ns && o->ns->user ? 0 : KEEP_CAPS);
	if (r < 0)
		child_fail(errfd, LF_STAGE_CAPS, -r);

	if (o->filter &&
	    syscall(SYS_prctl, PR_SET_SECCOMP, SECCOMP_MODE_FILTER, o->filter, 0, 0) < 0)
		child_fail(errfd, LF_STAGE_SECCOMP, errno);

	if (rfd >= 0) {
		r = lf_landlock_restrict(rfd);
		if (r < 0)
			child_fail(errfd, LF_STAGE_LANDLOCK, -r);
		syscall(SYS_close, rfd);
	}

	syscall(SYS_execve, o->path, o->argv, o->envp);
	child_fail(errfd, LF_STAGE_EXEC, errno);
}

/* The highest capability this kernel knows (CAP_LAST_CAP of the running
 * kernel, which may be newer than our headers). */
static unsigned read_last_cap(void)
{
	char buf[16];

	if (lf_proc_read("/proc/sys/kernel/cap_last_cap", buf, sizeof(buf)) <= 0)
		return CAP_LAST_CAP;
	long v = strtol(buf, NULL, 10);
	return v > 0 && v < 64 ? (unsigned)v : CAP_LAST_CAP;
}

CHILD static int child_entry(void *arg)
{
	const struct child_args *a = arg;

	syscall(SYS_close, a->readfd);
	child_run(a);
}

/* The child's stack while it shares our memory, and the guard page below
 * it: an overflow faults instead of writing over our heap. */
#define CHILD_STACK_SIZE (256 * 1024)

static char *stack_new(size_t *total)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	char *map;

	*total = CHILD_STACK_SIZE + page;
	map = mmap(NULL, *total, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
	if (map == MAP_FAILED)
		return NULL;
	if (mprotect(map + page, CHILD_STACK_SIZE, PROT_READ | PROT_WRITE) < 0) {
		munmap(map, *total);
		return NULL;
	}
	return map;
}

/* Reads the child's verdict from the error channel: nothing once it has
 * exec'ed (the channel closes), a failure message otherwise; before
 * either, on a socket (sock), the message that hands over its mount
 * table and its root (*table_fd and *root_fd, -1 when none came).
 * Returns the failure message's length: 0 when the child exec'ed,
 * sizeof(int32_t[4]) when it failed, anything else when the channel
 * could not be read. */
static size_t chan_read(int fd, bool sock, int32_t msg[4], int *table_fd, int *root_fd)
{
	*table_fd = -1;
	*root_fd = -1;
	for (;;) {
		union {
			struct cmsghdr h;
			char buf[CMSG_SPACE(2 * sizeof(int))];
		} cm;
		struct iovec iov = { .iov_base = msg, .iov_len = 4 * sizeof(int32_t) };
		struct msghdr mh = { .msg_iov = &iov,
				     .msg_iovlen = 1,
				     .msg_control = cm.buf,
				     .msg_controllen = sizeof(cm.buf) };
		int got[2] = { -1, -1 };
		/* A failure message is one write of 16 bytes: whole on a
		 * pipe too (PIPE_BUF). */
		ssize_t n = sock ? recvmsg(fd, &mh, MSG_CMSG_CLOEXEC)
				 : read(fd, msg, 4 * sizeof(int32_t));

		if (n < 0 && errno == EINTR)
			continue;
		for (struct cmsghdr *c = n >= 0 && sock ? CMSG_FIRSTHDR(&mh) : NULL; c;
		     c = CMSG_NXTHDR(&mh, c))
			if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS &&
			    c->cmsg_len == CMSG_LEN(sizeof(got)) && got[0] < 0)
				memcpy(got, CMSG_DATA(c), sizeof(got));
		if (sock && n == (ssize_t)(4 * sizeof(int32_t)) && msg[0] == LF_STAGE_NONE &&
		    got[0] >= 0 && *table_fd < 0 && !(mh.msg_flags & (MSG_CTRUNC | MSG_TRUNC))) {
			*table_fd = got[0];
			*root_fd = got[1];
			continue;
		}
		for (int i = 0; i < 2; i++)
			if (got[i] >= 0)
				close(got[i]);
		close(fd);
		if (n == 0)
			return 0;
		if (n < 0 || msg[0] == LF_STAGE_NONE || (sock && (mh.msg_flags & MSG_TRUNC)))
			return 1;
		return (size_t)n;
	}
}

/* Clones the child on its own stack in our memory (CLONE_VM) and sleeps
 * until it has exec'ed or exited (CLONE_VFORK), as posix_spawn does: no
 * page tables to copy, no copy-on-write faults afterwards, half a
 * millisecond less per launch on a VM. Returns the pid or -errno. */
static pid_t child_clone(struct child_args *args)
{
	size_t total;
	char *map = stack_new(&total);
	pid_t pid;

	if (!map)
		return -errno;
	pid = clone(child_entry, map + total, CLONE_VM | CLONE_VFORK | SIGCHLD, args);
	int e = errno;
	munmap(map, total);
	return pid < 0 ? -e : pid;
}

int lf_launch_spawn(const struct lf_launch_opts *o, struct lf_launch *out,
		    struct lf_launch_failure *fail)
{
	sigset_t block, saved, all, during;
	struct rlimit rl;
	struct sigaction chld;
	int pfd[2], r, table_fd, root_fd;
	int32_t msg[4];
	struct statx ns_id = { 0 };
	pid_t pid;

	if (fail) {
		fail->stage = LF_STAGE_NONE;
		fail->err = 0;
		fail->ns_step = 0;
		fail->ns_op = -1;
	}
	if (!o || !out || !o->path || !o->argv || !o->envp)
		return -EINVAL;
	struct child_args args = {
		.o = o,
		.mask = &saved,
		.max_fd = 65536,
		.last_cap = read_last_cap(),
		.parent = getpid(),
	};
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
		args.max_fd = (unsigned long)rl.rlim_cur;
	/* A non-dumpable launcher: the sandboxed program cannot read its
	 * /proc entries (environ with the unscrubbed variables, maps, mem,
	 * cwd) without CAP_SYS_PTRACE, which the child drops. The program
	 * itself is dumpable again after execve. */
	if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0)
		return -errno;
	/* An ignored SIGCHLD reaps the program behind our back and loses its
	 * status. */
	if (sigaction(SIGCHLD, NULL, &chld) == 0 && chld.sa_handler == SIG_IGN)
		signal(SIGCHLD, SIG_DFL);

	/* Every signal is blocked across clone, so that no handler of ours
	 * runs in the child before it resets them; the forwarded ones and
	 * SIGCHLD stay blocked until lf_launch_wait. */
	sigfillset(&all);
	wait_set(&block);
	if ((r = pthread_sigmask(SIG_SETMASK, &all, &saved)) != 0)
		return -r;
	/* With masks to watch, a packet socket rather than a pipe: it
	 * carries the mount table's descriptor, and keeps each message
	 * whole. */
	args.watch = lf_mask_watch_needed(o->ns);
	if ((args.watch ? socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, pfd)
			: pipe2(pfd, O_CLOEXEC)) < 0) {
		r = -errno;
		pthread_sigmask(SIG_SETMASK, &saved, NULL);
		return r;
	}
	args.errfd = pfd[1];
	args.readfd = pfd[0];
	args.ns_id = &ns_id;
	pid = child_clone(&args);
	during = saved;
	for (int i = 1; i < _NSIG; i++)
		if (sigismember(&block, i) == 1)
			sigaddset(&during, i);
	pthread_sigmask(SIG_SETMASK, &during, NULL);
	close(pfd[1]);
	if (pid < 0) {
		close(pfd[0]);
		pthread_sigmask(SIG_SETMASK, &saved, NULL);
		return pid;
	}
	size_t got = chan_read(pfd[0], args.watch, msg, &table_fd, &root_fd);
	if (got == 0) {
		out->pid = pid;
		out->saved_mask = saved;
		out->waited = false;
		out->reap_others = false;
		out->ns_ino = (ino_t)ns_id.stx_ino;
		out->ns_dev = makedev(ns_id.stx_dev_major, ns_id.stx_dev_minor);
		out->ns_fd = -1;
		lf_mask_watch_start(out, o->ns, table_fd, root_fd);
		return 0;
	}

	/* The child failed before exec and is exiting: reap it (killed
	 * first when what it said could not be read: it may have exec'ed). */
	if (table_fd >= 0)
		close(table_fd);
	if (root_fd >= 0)
		close(root_fd);
	if (got != sizeof(msg))
		kill(pid, SIGKILL);
	int status;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	pthread_sigmask(SIG_SETMASK, &saved, NULL);
	if (got < sizeof(msg)) {
		if (fail)
			fail->stage = LF_STAGE_NONE, fail->err = EPROTO;
		return -EPROTO;
	}
	if (fail) {
		fail->stage = (enum lf_launch_stage)msg[0];
		fail->err = msg[1];
		fail->ns_step = msg[2];
		fail->ns_op = msg[3];
	}
	return msg[1] > 0 ? -msg[1] : -EPROTO;
}

/* Reaps every child that has ended but the program, for a subreaper
 * (l->reap_others): true when the program itself had ended among them,
 * its status then in *st. Stops of the program are not asked for here
 * (no WUNTRACED): lf_launch_wait's own waitpid sees them. */
static bool reap_others(const struct lf_launch *l, int *st)
{
	pid_t w;
	int s;

	while ((w = waitpid(-1, &s, WNOHANG)) > 0)
		if (w == l->pid) {
			*st = s;
			return true;
		}
	return false;
}

/* Forwards a signal the caller got (see lf_launch_wait). */
static void forward(const struct lf_launch *l, int sig, int code)
{
	/* A signal from the terminal (SI_KERNEL) went to the whole
	 * foreground process group, the child included. */
	if (sig == SIGCHLD || code == SI_KERNEL)
		return;
	kill(l->pid, sig);
}

/* Waits for a signal, or a change of the masks' mount table (then checks
 * it): the signals arrive through a signalfd, so that one poll(2) waits
 * for both. Returns 0, or a negative errno (then the caller waits as
 * without a watch: the watch has failed and the program is killed). */
static int wait_watched(struct lf_launch *l, int sfd)
{
	struct pollfd p[2] = { { sfd, POLLIN, 0 }, { l->mnt_fd, POLLPRI, 0 } };
	struct signalfd_siginfo ss;

	if (poll(p, l->mnt_fd >= 0 ? 2 : 1, -1) < 0) {
		if (errno == EINTR)
			return 0;
		int e = errno;
		lf_mask_watch_fail(l, e);
		return -e;
	}
	if (l->mnt_fd >= 0 && (p[1].revents & (POLLPRI | POLLERR | POLLNVAL))) {
		int r = lf_mask_watch_check(l);
		/* Fell (the program is killed), or the table cannot be read:
		 * either way no more to watch. */
		if (r < 0)
			lf_mask_watch_fail(l, -r);
		else if (r > 0)
			lf_mask_watch_stop(l);
	}
	if (p[0].revents & POLLIN)
		while (read(sfd, &ss, sizeof(ss)) == (ssize_t)sizeof(ss))
			forward(l, (int)ss.ssi_signo, ss.ssi_code);
	return 0;
}

int lf_launch_wait(struct lf_launch *l, int *status)
{
	sigset_t set;
	siginfo_t si;
	int st, r = 0, sfd = -1;

	if (!l || l->waited)
		return -EINVAL;
	wait_set(&set);
	if (l->mnt_fd >= 0) {
		sfd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
		if (sfd < 0)
			lf_mask_watch_fail(l, errno); /* run says why */
	}
	for (;;) {
		pid_t w = waitpid(l->pid, &st, WNOHANG | WUNTRACED);
		if (w == l->pid && WIFSTOPPED(st)) {
			/* Job control: the program stopped (Ctrl-Z reached it,
			 * or a stop signal sent to it alone) while we run. Stop
			 * as well, so that the shell sees the job stopped; once
			 * continued (`fg` continues the whole group, `kill -CONT`
			 * only us), continue the program too. A stop seen after
			 * both were continued is not reported by the kernel. */
			/* With masks watched, the whole namespace stops with
			 * us (its processes in other groups too: nothing may
			 * read past a mask while the watch sleeps), and on the
			 * way back the table is read before anything runs. */
			bool watched = l->mnt_fd >= 0;
			if (watched)
				lf_mask_watch_signal(l, SIGSTOP);
			kill(getpid(), SIGSTOP);
			int fell = watched ? lf_mask_watch_check(l) : 0;
			if (fell != 0) {
				if (fell < 0)
					lf_mask_watch_fail(l, -fell); /* unreadable */
				else
					lf_mask_watch_stop(l);
				kill(l->pid, SIGCONT);
				continue;
			}
			if (watched)
				lf_mask_watch_signal(l, SIGCONT);
			kill(l->pid, SIGCONT);
			continue;
		}
		if (w == l->pid)
			break;
		if (w < 0 && errno != EINTR) {
			r = -errno;
			break;
		}
		if (l->reap_others && reap_others(l, &st))
			break;
		if (sfd >= 0) {
			if (wait_watched(l, sfd) == 0)
				continue;
			close(sfd);
			sfd = -1;
		}
		int sig = sigwaitinfo(&set, &si);
		if (sig >= 0)
			forward(l, sig, si.si_code);
	}
	if (sfd >= 0)
		close(sfd);
	lf_mask_watch_end(l);
	l->waited = true;
	pthread_sigmask(SIG_SETMASK, &l->saved_mask, NULL);
	if (r == 0 && status)
		*status = st;
	return r;
}
