/* SPDX-License-Identifier: MIT */
/*
 * Fork, harden, restrict, exec. See launch.h and doc/launch.md.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/capability.h>
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
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "landlock/sandbox.h"
#include "launch/launch.h"

/* Where the child keeps the two descriptors it still needs once every
 * other one above stderr is closed. */
#define CHILD_ERR_FD 3
#define CHILD_RULESET_FD 4

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
	case LF_STAGE_SECCOMP:
		return "loading the seccomp filter";
	case LF_STAGE_LANDLOCK:
		return "entering the Landlock domain";
	case LF_STAGE_EXEC:
		return "executing the program";
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

/* Child side: async-signal-safe calls only. Never returns. */
__attribute__((noreturn)) static void child_fail(int errfd, enum lf_launch_stage stage, int err)
{
	int32_t msg[2] = { (int32_t)stage, (int32_t)err };
	ssize_t w;

	do {
		w = write(errfd, msg, sizeof(msg));
	} while (w < 0 && errno == EINTR);
	_exit(LF_STAGE_EXEC == stage && (err == ENOENT) ? 127 : 126);
}

static int close_above(unsigned first, unsigned long max_fd)
{
	if (close_range(first, ~0U, 0) == 0)
		return 0;
	if (errno != ENOSYS && errno != EINVAL)
		return -errno;
	/* Kernels before 5.9: close one by one up to the limit read in the
	 * parent. */
	for (unsigned long fd = first; fd < max_fd; fd++)
		close((int)fd);
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

/* Drops every capability outside KEEP_CAPS from the bounding, ambient,
 * effective, permitted and inheritable sets. Raw system calls only. */
static int child_drop_caps(unsigned last_cap)
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
			if (KEEP_CAPS & (1ULL << cap))
				continue;
			if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) < 0 && errno != EINVAL)
				return -errno;
		}
	}
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) < 0 && errno != EINVAL)
		return -errno;
	e = data[0].effective | ((uint64_t)data[1].effective << 32);
	i = data[0].inheritable | ((uint64_t)data[1].inheritable << 32);
	if (!(e & ~KEEP_CAPS) && !(p & ~KEEP_CAPS) && !(i & ~KEEP_CAPS))
		return 0;
	e &= KEEP_CAPS;
	p &= KEEP_CAPS;
	i &= KEEP_CAPS;
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

__attribute__((noreturn)) static void child_run(const struct lf_launch_opts *o, int errfd,
						const sigset_t *mask, unsigned long max_fd,
						unsigned last_cap)
{
	int e, rfd = -1;

	/* Move the pipe and the ruleset to fixed numbers, then drop every
	 * other inherited descriptor: the program must not inherit a way
	 * around the sandbox (an O_PATH to $HOME, a socket, ...). */
	e = fcntl(errfd, F_DUPFD_CLOEXEC, CHILD_RULESET_FD + 1);
	if (e < 0)
		child_fail(errfd, LF_STAGE_FDS, errno);
	if (o->ruleset_fd >= 0) {
		rfd = fcntl(o->ruleset_fd, F_DUPFD_CLOEXEC, CHILD_RULESET_FD + 1);
		if (rfd < 0)
			child_fail(e, LF_STAGE_FDS, errno);
	}
	if (dup3(e, CHILD_ERR_FD, O_CLOEXEC) < 0)
		child_fail(e, LF_STAGE_FDS, errno);
	errfd = CHILD_ERR_FD;
	if (rfd >= 0) {
		if (dup3(rfd, CHILD_RULESET_FD, O_CLOEXEC) < 0)
			child_fail(errfd, LF_STAGE_FDS, errno);
		rfd = CHILD_RULESET_FD;
	}
	if (close_above(rfd >= 0 ? CHILD_RULESET_FD + 1 : CHILD_ERR_FD + 1, max_fd) < 0)
		child_fail(errfd, LF_STAGE_FDS, errno);

	/* The child shares the caller's memory until it execs (CLONE_VM):
	 * a handler of the caller must not run here. Its own copy of the
	 * dispositions (no CLONE_SIGHAND) goes back to the defaults before
	 * signals are unblocked; ignored ones stay ignored, as across exec. */
	for (int sig = 1; sig < _NSIG; sig++) {
		struct sigaction sa;
		if (sig == SIGKILL || sig == SIGSTOP)
			continue;
		if (sigaction(sig, NULL, &sa) < 0 || sa.sa_handler == SIG_IGN ||
		    sa.sa_handler == SIG_DFL)
			continue;
		sa.sa_handler = SIG_DFL;
		sa.sa_flags = 0;
		if (sigaction(sig, &sa, NULL) < 0)
			child_fail(errfd, LF_STAGE_SIGNALS, errno);
	}
	if (sigprocmask(SIG_SETMASK, mask, NULL) < 0)
		child_fail(errfd, LF_STAGE_SIGNALS, errno);

	if (o->cwd && chdir(o->cwd) < 0)
		child_fail(errfd, LF_STAGE_CWD, errno);

	/* Landlock requires it for an unprivileged caller, and it keeps a
	 * setuid program from shedding the domain. */
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		child_fail(errfd, LF_STAGE_NNP, errno);

	int r = child_drop_caps(last_cap);
	if (r < 0)
		child_fail(errfd, LF_STAGE_CAPS, -r);

	if (o->filter && prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, o->filter, 0, 0) < 0)
		child_fail(errfd, LF_STAGE_SECCOMP, errno);

	if (rfd >= 0) {
		r = lf_landlock_restrict(rfd);
		if (r < 0)
			child_fail(errfd, LF_STAGE_LANDLOCK, -r);
		close(rfd);
	}

	execve(o->path, o->argv, o->envp);
	child_fail(errfd, LF_STAGE_EXEC, errno);
}

/* The highest capability this kernel knows (CAP_LAST_CAP of the running
 * kernel, which may be newer than our headers). */
static unsigned read_last_cap(void)
{
	char buf[16] = "";
	int fd = open("/proc/sys/kernel/cap_last_cap", O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return CAP_LAST_CAP;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return CAP_LAST_CAP;
	buf[n] = '\0';
	long v = strtol(buf, NULL, 10);
	return v > 0 && v < 64 ? (unsigned)v : CAP_LAST_CAP;
}

struct child_args {
	const struct lf_launch_opts *o;
	int errfd;
	int readfd;
	const sigset_t *mask;
	unsigned long max_fd;
	unsigned last_cap;
};

static int child_entry(void *arg)
{
	const struct child_args *a = arg;

	close(a->readfd);
	child_run(a->o, a->errfd, a->mask, a->max_fd, a->last_cap);
}

/* The child's stack while it shares our memory. */
#define CHILD_STACK_SIZE (256 * 1024)

/* AddressSanitizer keeps per-thread stack bookkeeping in memory a CLONE_VM
 * child would share with us and get wrong: sanitizer builds fork instead.
 * The child's code is the same either way. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define LF_LAUNCH_FORK 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || \
	__has_feature(memory_sanitizer)
#define LF_LAUNCH_FORK 1
#endif
#endif

int lf_launch_spawn(const struct lf_launch_opts *o, struct lf_launch *out,
		    struct lf_launch_failure *fail)
{
	sigset_t block, saved;
	struct rlimit rl;
	unsigned long max_fd = 65536;
	unsigned last_cap;
	int pfd[2], r;
	pid_t pid;

	if (fail) {
		fail->stage = LF_STAGE_NONE;
		fail->err = 0;
	}
	if (!o || !out || !o->path || !o->argv || !o->envp)
		return -EINVAL;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
		max_fd = (unsigned long)rl.rlim_cur;
	last_cap = read_last_cap();
	/* A non-dumpable launcher: the sandboxed program cannot read its
	 * /proc entries (environ with the unscrubbed variables, maps, mem,
	 * cwd) without CAP_SYS_PTRACE, which the child drops. The program
	 * itself is dumpable again after execve. */
	if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0)
		return -errno;

	/* The child runs on its own stack in our memory (CLONE_VM) and we
	 * sleep until it has exec'ed or exited (CLONE_VFORK), as
	 * posix_spawn does: no page tables to copy, no copy-on-write faults
	 * afterwards, half a millisecond less per launch on a VM. */
	char *stack = mmap(NULL, CHILD_STACK_SIZE, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
	if (stack == MAP_FAILED)
		return -errno;
	/* No guard page: the child's frames are a few hundred bytes of
	 * fixed code, far from 256 KiB, and splitting the mapping costs a
	 * measurable part of a launch. */

	/* Every signal is blocked across clone, so that no handler of ours
	 * runs in the child before it resets them; the forwarded ones and
	 * SIGCHLD stay blocked until lf_launch_wait. */
	sigset_t all;
	sigfillset(&all);
	wait_set(&block);
	if (sigprocmask(SIG_SETMASK, &all, &saved) < 0) {
		r = -errno;
		munmap(stack, CHILD_STACK_SIZE);
		return r;
	}
	if (pipe2(pfd, O_CLOEXEC) < 0) {
		r = -errno;
		sigprocmask(SIG_SETMASK, &saved, NULL);
		munmap(stack, CHILD_STACK_SIZE);
		return r;
	}
	struct child_args args = {
		.o = o,
		.errfd = pfd[1],
		.readfd = pfd[0],
		.mask = &saved,
		.max_fd = max_fd,
		.last_cap = last_cap,
	};
#ifdef LF_LAUNCH_FORK
	pid = fork();
	if (pid == 0)
		child_entry(&args);
#else
	pid = clone(child_entry, stack + CHILD_STACK_SIZE, CLONE_VM | CLONE_VFORK | SIGCHLD, &args);
#endif
	r = pid < 0 ? -errno : 0;
	munmap(stack, CHILD_STACK_SIZE);
	sigset_t during = saved;
	for (int i = 1; i < _NSIG; i++)
		if (sigismember(&block, i) == 1)
			sigaddset(&during, i);
	sigprocmask(SIG_SETMASK, &during, NULL);
	if (pid < 0) {
		close(pfd[0]);
		close(pfd[1]);
		sigprocmask(SIG_SETMASK, &saved, NULL);
		return r;
	}
	close(pfd[1]);

	int32_t msg[2];
	size_t got = 0;
	while (got < sizeof(msg)) {
		ssize_t n = read(pfd[0], (char *)msg + got, sizeof(msg) - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	close(pfd[0]);
	if (got == 0) {
		out->pid = pid;
		out->saved_mask = saved;
		out->waited = false;
		return 0;
	}

	/* The child failed before exec and is exiting: reap it. */
	int status;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	sigprocmask(SIG_SETMASK, &saved, NULL);
	if (got < sizeof(msg)) {
		if (fail)
			fail->stage = LF_STAGE_NONE, fail->err = EPROTO;
		return -EPROTO;
	}
	if (fail) {
		fail->stage = (enum lf_launch_stage)msg[0];
		fail->err = msg[1];
	}
	return msg[1] > 0 ? -msg[1] : -EPROTO;
}

int lf_launch_wait(struct lf_launch *l, int *status)
{
	sigset_t set;
	siginfo_t si;
	int st, r = 0;

	if (!l || l->waited)
		return -EINVAL;
	wait_set(&set);
	for (;;) {
		pid_t w = waitpid(l->pid, &st, WNOHANG);
		if (w == l->pid)
			break;
		if (w < 0 && errno != EINTR) {
			r = -errno;
			break;
		}
		int sig = sigwaitinfo(&set, &si);
		if (sig < 0 || sig == SIGCHLD)
			continue;
		/* A signal from the terminal (SI_KERNEL) went to the whole
		 * foreground process group, the child included. */
		if (si.si_code == SI_KERNEL)
			continue;
		kill(l->pid, sig);
	}
	l->waited = true;
	sigprocmask(SIG_SETMASK, &l->saved_mask, NULL);
	if (r == 0 && status)
		*status = st;
	return r;
}
