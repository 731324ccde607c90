/* SPDX-License-Identifier: MIT */
/*
 * The differential test's tracer: runs command lines in the real bash and
 * records what bash did. Meant to run inside `landfence run`, so that a
 * hostile line can do no harm. For every line it
 *   - puts the project back as it was (a copy of the template),
 *   - runs `bash -x -c LINE` in the project with stub programs first on
 *     PATH, its trace of every simple command (builtins too) on a file
 *     descriptor of its own (BASH_XTRACEFD),
 *   - traces bash and everything it starts with ptrace; a seccomp filter
 *     stops the processes only at the system calls that run a program or
 *     change the file system: every execve and every attempt to create,
 *     open for writing, rename, link, remove, truncate or change a file is
 *     recorded with the absolute path (relative paths resolved against the
 *     process's working directory or the directory descriptor), whether
 *     it then succeeds or not,
 *   - stops the line after a time limit.
 * Each line runs in a Landlock domain of its own that scopes signals and
 * abstract sockets, so that `kill -9 -1` cannot reach the tracer.
 *
 * usage: lf-difftrace LINES TEMPLATE PROJECT OUT BASH PATH HOME
 * LINES: records of a 32-bit length and the bytes. OUT: records
 *   'L' index | 'E' path argc args… | 'W' path | 'D' path | 'X' trace |
 *   'S' status (exit code, 1 when the line was stopped by the time limit)
 * each a type byte and length-prefixed strings.
 *
 * x86_64 only (the system call numbers); built without sanitizers, whose
 * runtimes use ptrace themselves.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define LINE_SECONDS 3
#define XTRACE_FD 197
#define MAX_PIDS 4096

static FILE *out;
static bool modified; /* the line wrote or removed something */
static const char *proj_dir = "", *home_dir = "";

static void put_u32(uint32_t v)
{
	fwrite(&v, sizeof(v), 1, out);
}

static void put_str(const char *s, size_t n)
{
	put_u32((uint32_t)n);
	fwrite(s, 1, n, out);
}

static void die(const char *what)
{
	perror(what);
	exit(2);
}

/* ------------------------------------------------------------------------
 * Resetting the project.
 */
static int rm_entry(const char *p, const struct stat *st, int flag, struct FTW *f)
{
	(void)st;
	(void)f;
	if (flag == FTW_DP || flag == FTW_D) {
		chmod(p, 0700);
		return rmdir(p) == 0 || errno == ENOENT ? 0 : 0;
	}
	unlink(p);
	return 0;
}

static const char *copy_from, *copy_to;

static int copy_entry(const char *p, const struct stat *st, int flag, struct FTW *f)
{
	char dst[4096];
	(void)f;
	snprintf(dst, sizeof(dst), "%s%s", copy_to, p + strlen(copy_from));
	if (flag == FTW_D)
		return mkdir(dst, st->st_mode & 07777) == 0 || errno == EEXIST ? 0 : -1;
	if (flag == FTW_SL) {
		char l[4096];
		ssize_t n = readlink(p, l, sizeof(l) - 1);
		if (n < 0)
			return -1;
		l[n] = '\0';
		return symlink(l, dst);
	}
	if (flag != FTW_F)
		return 0;
	int in = open(p, O_RDONLY | O_CLOEXEC);
	int o = open(dst, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, st->st_mode & 07777);
	if (in < 0 || o < 0) {
		if (in >= 0)
			close(in);
		if (o >= 0)
			close(o);
		return -1;
	}
	char buf[65536];
	ssize_t n;
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(o, buf, (size_t)n) != n) {
			n = -1;
			break;
		}
	close(in);
	close(o);
	return n < 0 ? -1 : 0;
}

static int reset(const char *tmpl, const char *proj)
{
	nftw(proj, rm_entry, 32, FTW_DEPTH | FTW_PHYS);
	copy_from = tmpl;
	copy_to = proj;
	return nftw(tmpl, copy_entry, 32, FTW_PHYS);
}

/* ------------------------------------------------------------------------
 * The child.
 */
#define OPEN_WRITE_FLAGS (O_WRONLY | O_RDWR | O_CREAT | O_TRUNC | O_APPEND)

#define TRACE_NR(nr)                                     \
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (nr), 0, 1), \
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRACE)

static void child(const char *bash, const char *line, int xfd, const char *proj, char **envp)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		/* x32 numbers would bypass the list */
		BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
		/* open and openat only when they may write: the flags are the
		 * second and third argument (their low 32 bits on x86_64) */
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_open, 0, 4),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[1])),
		BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, OPEN_WRITE_FLAGS, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRACE),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_openat, 0, 4),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[2])),
		BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, OPEN_WRITE_FLAGS, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRACE),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		TRACE_NR(SYS_execve),
		TRACE_NR(SYS_execveat),
		TRACE_NR(437 /* openat2 */),
		TRACE_NR(SYS_creat),
		TRACE_NR(SYS_mkdir),
		TRACE_NR(SYS_mkdirat),
		TRACE_NR(SYS_mknod),
		TRACE_NR(SYS_mknodat),
		TRACE_NR(SYS_rename),
		TRACE_NR(SYS_renameat),
		TRACE_NR(SYS_renameat2),
		TRACE_NR(SYS_link),
		TRACE_NR(SYS_linkat),
		TRACE_NR(SYS_symlink),
		TRACE_NR(SYS_symlinkat),
		TRACE_NR(SYS_unlink),
		TRACE_NR(SYS_unlinkat),
		TRACE_NR(SYS_rmdir),
		TRACE_NR(SYS_truncate),
		TRACE_NR(SYS_chmod),
		TRACE_NR(SYS_fchmodat),
		TRACE_NR(SYS_chown),
		TRACE_NR(SYS_lchown),
		TRACE_NR(SYS_fchownat),
		TRACE_NR(SYS_utimensat),
		TRACE_NR(SYS_utimes),
		TRACE_NR(SYS_utime),
		TRACE_NR(SYS_setxattr),
		TRACE_NR(SYS_lsetxattr),
		TRACE_NR(SYS_removexattr),
		TRACE_NR(SYS_lremovexattr),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { sizeof(f) / sizeof(f[0]), f };
	int devnull = open("/dev/null", O_RDWR);

	setpgid(0, 0);
	if (devnull < 0 || dup2(devnull, 0) < 0 || dup2(devnull, 1) < 0 || dup2(devnull, 2) < 0 ||
	    dup2(xfd, XTRACE_FD) < 0 || chdir(proj) != 0)
		_exit(126);
	/* signals and abstract sockets stay inside this line's domain */
	struct {
		uint64_t fs, net, scoped;
	} attr = { 0, 0, 3 };
	long rs = syscall(444, &attr, sizeof(attr), 0);
	if (rs >= 0) {
		prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
		syscall(446, (int)rs, 0);
		close((int)rs);
	}
	if (ptrace(PTRACE_TRACEME, 0, 0, 0) != 0)
		_exit(126);
	raise(SIGSTOP);
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
	    syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) != 0)
		_exit(126);
	char *argv[] = { "bash", "-x", "-c", (char *)line, NULL };
	execve(bash, argv, envp);
	_exit(127);
}

/* ------------------------------------------------------------------------
 * The tracer.
 */
struct pending {
	pid_t pid;
	char *rec; /* an exec record waiting for its PTRACE_EVENT_EXEC */
	size_t len;
};

static struct pending pend[MAX_PIDS];
static pid_t pids[MAX_PIDS];
static size_t npids;

static void pid_add(pid_t p)
{
	for (size_t k = 0; k < npids; k++)
		if (pids[k] == p)
			return;
	if (npids < MAX_PIDS)
		pids[npids++] = p;
}

static void pid_del(pid_t p)
{
	for (size_t k = 0; k < npids; k++)
		if (pids[k] == p) {
			pids[k] = pids[--npids];
			return;
		}
}

static struct pending *pend_of(pid_t p)
{
	for (size_t k = 0; k < MAX_PIDS; k++)
		if (pend[k].pid == p)
			return &pend[k];
	for (size_t k = 0; k < MAX_PIDS; k++)
		if (!pend[k].pid) {
			pend[k].pid = p;
			return &pend[k];
		}
	return NULL;
}

/* A string from the tracee's memory; false when it cannot be read. */
static bool read_str(pid_t pid, unsigned long addr, char *buf, size_t size)
{
	size_t n = 0;

	if (!addr)
		return false;
	while (n + 1 < size) {
		size_t chunk = 256 - ((addr + n) & 255);
		if (chunk > size - 1 - n)
			chunk = size - 1 - n;
		struct iovec l = { buf + n, chunk }, r = { (void *)(addr + n), chunk };
		ssize_t got = process_vm_readv(pid, &l, 1, &r, 1, 0);
		if (got <= 0)
			return false;
		void *z = memchr(buf + n, '\0', (size_t)got);
		if (z)
			return true;
		n += (size_t)got;
	}
	buf[size - 1] = '\0';
	return true;
}

/* The absolute form of path as seen by pid, relative to dirfd. */
static void abs_path(pid_t pid, int dirfd, const char *path, char *outp, size_t size)
{
	char link[64], base[4096];
	ssize_t n;

	if (path[0] == '/') {
		snprintf(outp, size, "%s", path);
		return;
	}
	if (dirfd == AT_FDCWD)
		snprintf(link, sizeof(link), "/proc/%d/cwd", pid);
	else
		snprintf(link, sizeof(link), "/proc/%d/fd/%d", pid, dirfd);
	n = readlink(link, base, sizeof(base) - 1);
	if (n < 0)
		n = snprintf(base, sizeof(base), "?");
	base[n] = '\0';
	snprintf(outp, size, "%s/%s", base, path);
}

/* The path with its directory resolved through symbolic links, as the
 * kernel will (the last component is kept: it may not exist yet, and a
 * write to a symbolic link goes where it points, which the policy judges
 * by the link's own name as well). */
static void canon_dir(const char *in, char *outp, size_t size)
{
	char dir[8192], real[4096];
	const char *slash = strrchr(in, '/');

	snprintf(outp, size, "%s", in);
	if (!slash || slash == in)
		return;
	snprintf(dir, sizeof(dir), "%.*s", (int)(slash - in), in);
	if (realpath(dir, real))
		snprintf(outp, size, "%s%s", strcmp(real, "/") ? real : "", slash);
}

static void record_path(char type, pid_t pid, int dirfd, unsigned long addr)
{
	char p[4096], a[8192], c[8192];

	if (!read_str(pid, addr, p, sizeof(p)))
		snprintf(p, sizeof(p), "?");
	abs_path(pid, dirfd, p, a, sizeof(a));
	canon_dir(a, c, sizeof(c));
	fputc(type, out);
	put_str(c, strlen(c));
	if (!strncmp(c, proj_dir, strlen(proj_dir)) || !strncmp(c, home_dir, strlen(home_dir)) ||
	    (strncmp(c, "/dev/", 5) && strncmp(c, "/proc/", 6)))
		modified = true;
}

/* An execve's file and arguments, kept until it succeeds. */
static void record_exec(pid_t pid, int dirfd, unsigned long file, unsigned long argv)
{
	struct pending *pe = pend_of(pid);
	char p[4096], a[8192];
	char *rec = NULL;
	size_t len = 0;
	FILE *m;

	if (!pe)
		return;
	if (!read_str(pid, file, p, sizeof(p)))
		snprintf(p, sizeof(p), "?");
	abs_path(pid, dirfd, p, a, sizeof(a));
	m = open_memstream(&rec, &len);
	if (!m)
		return;
	FILE *save = out;
	out = m;
	fputc('E', out);
	put_str(a, strlen(a));
	unsigned long ptrs[256];
	uint32_t argc = 0;
	char args[256][1024];
	for (; argc < 256; argc++) {
		struct iovec l = { &ptrs[argc], sizeof(ptrs[0]) },
			     r = { (void *)(argv + argc * sizeof(ptrs[0])), sizeof(ptrs[0]) };
		if (!argv || process_vm_readv(pid, &l, 1, &r, 1, 0) != sizeof(ptrs[0]) ||
		    !ptrs[argc])
			break;
		if (!read_str(pid, ptrs[argc], args[argc], sizeof(args[argc])))
			snprintf(args[argc], sizeof(args[argc]), "?");
	}
	put_u32(argc);
	for (uint32_t k = 0; k < argc; k++)
		put_str(args[k], strlen(args[k]));
	fclose(m);
	out = save;
	free(pe->rec);
	pe->rec = rec;
	pe->len = len;
}

static void on_syscall(pid_t pid)
{
	struct user_regs_struct r;

	if (ptrace(PTRACE_GETREGS, pid, 0, &r) != 0)
		return;
	unsigned long a0 = r.rdi, a1 = r.rsi, a2 = r.rdx, a3 = r.r10;
	int at = AT_FDCWD;
	switch (r.orig_rax) {
	case SYS_execve:
		record_exec(pid, AT_FDCWD, a0, a1);
		break;
	case SYS_execveat:
		record_exec(pid, (int)a0, a1, a2);
		break;
	case SYS_open:
	case SYS_openat:
	case 437: {
		unsigned long path = r.orig_rax == SYS_open ? a0 : a1;
		unsigned long flags = r.orig_rax == SYS_open ? a1 : a2;
		if (r.orig_rax == 437) {
			uint64_t how = 0;
			struct iovec l = { &how, sizeof(how) }, rv = { (void *)a2, sizeof(how) };
			if (process_vm_readv(pid, &l, 1, &rv, 1, 0) != sizeof(how))
				how = O_WRONLY;
			flags = how;
		}
		if (r.orig_rax != SYS_open)
			at = (int)a0;
		if (flags & O_PATH)
			break;
		if (flags & (O_WRONLY | O_RDWR | O_CREAT | O_TRUNC | O_APPEND))
			record_path('W', pid, at, path);
		break;
	}
	case SYS_creat:
	case SYS_mkdir:
	case SYS_mknod:
	case SYS_truncate:
	case SYS_chmod:
	case SYS_chown:
	case SYS_lchown:
	case SYS_utime:
	case SYS_utimes:
	case SYS_setxattr:
	case SYS_lsetxattr:
	case SYS_removexattr:
	case SYS_lremovexattr:
		record_path('W', pid, AT_FDCWD, a0);
		break;
	case SYS_mkdirat:
	case SYS_mknodat:
	case SYS_fchmodat:
	case SYS_fchownat:
		record_path('W', pid, (int)a0, a1);
		break;
	case SYS_utimensat:
		if (a1)
			record_path('W', pid, (int)a0, a1);
		break;
	case SYS_unlink:
	case SYS_rmdir:
		record_path('D', pid, AT_FDCWD, a0);
		break;
	case SYS_unlinkat:
		record_path('D', pid, (int)a0, a1);
		break;
	case SYS_rename:
		record_path('D', pid, AT_FDCWD, a0);
		record_path('W', pid, AT_FDCWD, a1);
		break;
	case SYS_renameat:
	case SYS_renameat2:
		record_path('D', pid, (int)a0, a1);
		record_path('W', pid, (int)a2, a3);
		break;
	case SYS_link:
	case SYS_symlink:
		record_path('W', pid, AT_FDCWD, a1);
		break;
	case SYS_linkat:
		record_path('W', pid, (int)a2, a3);
		break;
	case SYS_symlinkat:
		record_path('W', pid, (int)a1, a2);
		break;
	default:
		break;
	}
}

static volatile sig_atomic_t timed_out;

static void on_alarm(int sig)
{
	(void)sig;
	timed_out = 1;
}

static void kill_all(pid_t grp)
{
	kill(-grp, SIGKILL);
	for (size_t k = 0; k < npids; k++)
		kill(pids[k], SIGKILL);
}

static int run_line(const char *bash, const char *line, const char *proj, char **envp)
{
	int xfd = memfd_create("xtrace", 0);
	int status = 0, code = -1;
	pid_t root;

	if (xfd < 0)
		die("memfd_create");
	root = fork();
	if (root < 0)
		die("fork");
	if (root == 0)
		child(bash, line, xfd, proj, envp);
	npids = 0;
	memset(pend, 0, sizeof(pend));
	if (waitpid(root, &status, __WALL) != root || !WIFSTOPPED(status))
		die("waitpid");
	if (ptrace(PTRACE_SETOPTIONS, root, 0,
		   PTRACE_O_EXITKILL | PTRACE_O_TRACESECCOMP | PTRACE_O_TRACEEXEC |
			   PTRACE_O_TRACEFORK | PTRACE_O_TRACEVFORK | PTRACE_O_TRACECLONE) != 0)
		die("PTRACE_SETOPTIONS");
	pid_add(root);
	ptrace(PTRACE_CONT, root, 0, 0);
	timed_out = 0;
	alarm(LINE_SECONDS);
	bool killed = false;
	while (npids) {
		pid_t p = waitpid(-1, &status, __WALL);
		if (p < 0) {
			if (errno == EINTR) {
				if (timed_out && !killed) {
					kill_all(root);
					killed = true;
				}
				continue;
			}
			break;
		}
		if (timed_out && !killed) {
			kill_all(root);
			killed = true;
		}
		if (WIFEXITED(status) || WIFSIGNALED(status)) {
			if (p == root)
				code = WIFEXITED(status) ? WEXITSTATUS(status)
							 : 128 + WTERMSIG(status);
			pid_del(p);
			struct pending *pe = pend_of(p);
			if (pe) {
				free(pe->rec);
				memset(pe, 0, sizeof(*pe));
			}
			continue;
		}
		if (!WIFSTOPPED(status))
			continue;
		pid_add(p);
		int sig = WSTOPSIG(status), ev = status >> 16, deliver = 0;
		if (sig == SIGTRAP && ev == PTRACE_EVENT_SECCOMP) {
			on_syscall(p);
		} else if (sig == SIGTRAP && ev == PTRACE_EVENT_EXEC) {
			struct pending *pe = pend_of(p);
			if (pe && pe->rec) {
				fwrite(pe->rec, 1, pe->len, out);
				free(pe->rec);
				pe->rec = NULL;
			}
		} else if (sig == SIGTRAP && (ev == PTRACE_EVENT_FORK || ev == PTRACE_EVENT_VFORK ||
					      ev == PTRACE_EVENT_CLONE)) {
			unsigned long np = 0;
			if (ptrace(PTRACE_GETEVENTMSG, p, 0, &np) == 0)
				pid_add((pid_t)np);
		} else if (sig == SIGSTOP && ev == 0) {
			/* a new child's first stop, or a real SIGSTOP: go on */
		} else if (sig != SIGTRAP) {
			deliver = sig;
		}
		ptrace(PTRACE_CONT, p, 0, deliver);
	}
	alarm(0);
	for (size_t k = 0; k < MAX_PIDS; k++) {
		free(pend[k].rec);
		pend[k].rec = NULL;
	}
	/* the xtrace */
	off_t n = lseek(xfd, 0, SEEK_END);
	if (n > 0) {
		size_t cap = n > (1 << 20) ? (1 << 20) : (size_t)n;
		char *buf = malloc(cap);
		if (buf && pread(xfd, buf, cap, 0) == (ssize_t)cap) {
			fputc('X', out);
			put_str(buf, cap);
		}
		free(buf);
	}
	close(xfd);
	fputc('S', out);
	put_u32((uint32_t)code);
	put_u32(killed ? 1 : 0);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc != 8) {
		fprintf(stderr, "usage: %s LINES TEMPLATE PROJECT OUT BASH PATH HOME\n", argv[0]);
		return 2;
	}
	proj_dir = argv[3];
	home_dir = argv[7];
	FILE *in = fopen(argv[1], "rbe");
	out = fopen(argv[4], "wbe");
	if (!in || !out)
		die("open");
	struct sigaction sa = { 0 };
	sa.sa_handler = on_alarm;
	sigaction(SIGALRM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);

	char env_path[4200], env_home[4200], env_tmp[4200];
	snprintf(env_path, sizeof(env_path), "PATH=%s", argv[6]);
	snprintf(env_home, sizeof(env_home), "HOME=%s", argv[7]);
	snprintf(env_tmp, sizeof(env_tmp), "TMPDIR=%s/tmp", argv[3]);
	char xfd[32];
	snprintf(xfd, sizeof(xfd), "BASH_XTRACEFD=%d", XTRACE_FD);
	char *envp[] = { env_path,   env_home,	  env_tmp,     xfd,
			 "LC_ALL=C", "TERM=dumb", "USER=root", "GIT_CONFIG_NOSYSTEM=1",
			 NULL };

	uint32_t len;
	uint32_t index = 0;
	modified = true;
	while (fread(&len, sizeof(len), 1, in) == 1) {
		char *line = malloc((size_t)len + 1);
		if (!line || fread(line, 1, len, in) != len)
			die("read line");
		line[len] = '\0';
		fputc('L', out);
		put_u32(index++);
		/* the project as it was: copied again after a line changed it */
		if (modified && reset(argv[2], argv[3]) != 0) {
			fputc('S', out);
			put_u32((uint32_t)-2);
			put_u32(2);
			free(line);
			continue;
		}
		modified = false;
		run_line(argv[5], line, argv[3], envp);
		fflush(out);
		free(line);
	}
	fclose(in);
	if (fclose(out) != 0)
		die("write");
	return 0;
}
