/* SPDX-License-Identifier: MIT */
/*
 * The private mount namespace (mountns.h): the probe and the child's
 * steps. Both use the new mount API on descriptors: a target is opened
 * once, without following a symbolic link (openat2 RESOLVE_NO_SYMLINKS,
 * then RESOLVE_BENEATH below its anchor), checked, and mounted on by its
 * descriptor, never by a path that could change in between.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <linux/mount.h>
#include <linux/openat2.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <pthread.h>
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#else
#define RUNNING_ON_VALGRIND 0
#endif

#include "core/path.h"
#include "core/sandbox.h"
#include "launch/mountns.h"

#ifndef AT_RECURSIVE
#define AT_RECURSIVE 0x8000
#endif

/* Child code: never instrumented, system calls only (launch.c). */
#define CHILD __attribute__((no_sanitize("address", "undefined")))

const char *lf_ns_step_name(enum lf_ns_step step)
{
	switch (step) {
	case LF_NS_STEP_USERNS:
		return "creating a user namespace";
	case LF_NS_STEP_IDMAP:
		return "mapping the user and group ids";
	case LF_NS_STEP_MNTNS:
		return "creating a mount namespace";
	case LF_NS_STEP_PRIVATE:
		return "making every mount private";
	case LF_NS_STEP_STAGE:
		return "making a detached tmpfs (fsopen, fsmount)";
	case LF_NS_STEP_OPEN:
		return "opening the target without following links (openat2)";
	case LF_NS_STEP_TYPE:
		return "checking the target is still what it was";
	case LF_NS_STEP_CLONE:
		return "cloning a mount (open_tree, mount_setattr)";
	case LF_NS_STEP_MOVE:
		return "placing a mount (move_mount)";
	case LF_NS_STEP_CWD:
		return "re-entering the working directory";
	}
	return "mount namespace";
}

bool lf_ns_disabled_by_env(void)
{
	const char *v = secure_getenv("LANDFENCE_NO_NAMESPACES");

	return v && v[0] && strcmp(v, "0") != 0;
}

/* ------------------------------------------------------------------------
 * System calls, for the child
 */

CHILD static long sys_openat2(int dirfd, const char *path, uint64_t flags, uint64_t resolve)
{
	struct open_how how;

	how.flags = flags;
	how.mode = 0;
	how.resolve = resolve;
	return syscall(SYS_openat2, dirfd, path, &how, sizeof(how));
}

/* Sets attrs on fd's mount and every mount below it; userns: the user
 * namespace of MOUNT_ATTR_IDMAP (ignored without it). */
CHILD static int sys_setattr(int fd, uint64_t set, int userns)
{
	struct mount_attr a;

	a.attr_set = set;
	a.attr_clr = 0;
	a.propagation = 0;
	a.userns_fd = (set & MOUNT_ATTR_IDMAP) ? (uint64_t)userns : 0;
	return (int)syscall(SYS_mount_setattr, fd, "", AT_EMPTY_PATH | AT_RECURSIVE, &a, sizeof(a));
}

CHILD static int write_file(const char *path, const char *buf, size_t len)
{
	int fd = (int)syscall(SYS_openat, AT_FDCWD, path, O_WRONLY | O_CLOEXEC);
	long w;

	if (fd < 0)
		return -errno;
	w = syscall(SYS_write, fd, buf, len);
	int e = errno;
	syscall(SYS_close, fd);
	return w == (long)len ? 0 : w < 0 ? -e : -EIO;
}

/* The namespaces and private propagation, as a launch makes them. */
CHILD static int ns_make(bool user, const char *uid_map, size_t ul, const char *gid_map, size_t gl,
			 int *step)
{
	int r;

	if (user) {
		long dumpable = syscall(SYS_prctl, PR_GET_DUMPABLE, 0, 0, 0, 0);

		*step = LF_NS_STEP_USERNS;
		if (syscall(SYS_unshare, CLONE_NEWUSER) < 0)
			return -errno;
		/* A non-dumpable process's /proc files belong to root: the
		 * launcher is one (doc/launch.md), and the child shares its
		 * memory, hence the flag. Dumpable while the maps are
		 * written, as before right after: the launcher sleeps until
		 * the child execs, and nothing of the sandbox runs yet. */
		*step = LF_NS_STEP_IDMAP;
		if (dumpable == 0 && syscall(SYS_prctl, PR_SET_DUMPABLE, 1, 0, 0, 0) < 0)
			return -errno;
		if ((r = write_file("/proc/self/setgroups", "deny", 4)) < 0 ||
		    (r = write_file("/proc/self/uid_map", uid_map, ul)) < 0 ||
		    (r = write_file("/proc/self/gid_map", gid_map, gl)) < 0)
			goto out;
		r = 0;
	out:
		if (dumpable == 0 && syscall(SYS_prctl, PR_SET_DUMPABLE, 0, 0, 0, 0) < 0 && r == 0)
			r = -errno;
		if (r < 0)
			return r;
	}
	*step = LF_NS_STEP_MNTNS;
	if (syscall(SYS_unshare, CLONE_NEWNS) < 0)
		return -errno;
	/* Nothing mounted here reaches the host, and nothing the host
	 * mounts later changes what the program sees. */
	*step = LF_NS_STEP_PRIVATE;
	if (syscall(SYS_mount, NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
		return -errno;
	return 0;
}

/* A detached tmpfs holding an empty directory "d" and an empty file "f",
 * both mode 000, then made read-only: what hidden paths are covered
 * with. It has no path: once the masks are placed and its descriptor
 * closed, nothing reaches it. Returns the mount's descriptor or -errno. */
CHILD static int stage_make(void)
{
	int fs, mnt, f;

	fs = (int)syscall(SYS_fsopen, "tmpfs", FSOPEN_CLOEXEC);
	if (fs < 0)
		return -errno;
	if (syscall(SYS_fsconfig, fs, FSCONFIG_SET_STRING, "mode", "0700", 0) < 0 ||
	    syscall(SYS_fsconfig, fs, FSCONFIG_SET_STRING, "size", "4k", 0) < 0 ||
	    syscall(SYS_fsconfig, fs, FSCONFIG_SET_STRING, "nr_inodes", "8", 0) < 0 ||
	    syscall(SYS_fsconfig, fs, FSCONFIG_CMD_CREATE, NULL, NULL, 0) < 0) {
		int e = errno;
		syscall(SYS_close, fs);
		return -e;
	}
	mnt = (int)syscall(SYS_fsmount, fs, FSMOUNT_CLOEXEC,
			   MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV | MOUNT_ATTR_NOEXEC);
	int e = errno;
	syscall(SYS_close, fs);
	if (mnt < 0)
		return -e;
	if (syscall(SYS_mkdirat, mnt, "d", 0) < 0)
		goto fail;
	f = (int)syscall(SYS_openat, mnt, "f", O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0);
	if (f < 0)
		goto fail;
	syscall(SYS_close, f);
	if (sys_setattr(mnt, MOUNT_ATTR_RDONLY, -1) < 0)
		goto fail;
	return mnt;
fail:
	e = errno;
	syscall(SYS_close, mnt);
	return -e;
}

/* ------------------------------------------------------------------------
 * The probe
 */

struct probe_arg {
	bool user;
	char uid_map[64], gid_map[64];
	size_t ul, gl;
	int step; /* the failing step, 0 when every step worked */
	int err;
};

CHILD static int probe_child(void *arg)
{
	struct probe_arg *a = arg;
	int step = 0, stage, t, r;

	r = ns_make(a->user, a->uid_map, a->ul, a->gid_map, a->gl, &step);
	if (r < 0)
		goto out;
	step = LF_NS_STEP_STAGE;
	stage = stage_make();
	if (stage < 0) {
		r = stage;
		goto out;
	}
	step = LF_NS_STEP_OPEN;
	t = (int)sys_openat2(AT_FDCWD, "/", O_PATH | O_CLOEXEC,
			     RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS);
	if (t < 0) {
		r = -errno;
		goto out;
	}
	step = LF_NS_STEP_CLONE;
	int c = (int)syscall(SYS_open_tree, stage, "d", OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC);
	if (c < 0 ||
	    sys_setattr(c, MOUNT_ATTR_RDONLY | MOUNT_ATTR_NODEV | MOUNT_ATTR_NOSUID, -1) < 0) {
		r = -errno;
		goto out;
	}
	step = LF_NS_STEP_MOVE;
	if (syscall(SYS_move_mount, c, "", t, "",
		    MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH) < 0) {
		r = -errno;
		goto out;
	}
	step = 0;
	r = 0;
out:
	a->step = step;
	a->err = -r;
	syscall(SYS_exit, 0);
	return 0;
}

/* Whether this process may make a mount namespace without a user
 * namespace: root with CAP_SYS_ADMIN in its effective set. */
static bool needs_userns(void)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[2];

	if (geteuid() != 0)
		return true;
	if (syscall(SYS_capget, &hdr, data) < 0)
		return true;
	return !(data[CAP_TO_INDEX(CAP_SYS_ADMIN)].effective & CAP_TO_MASK(CAP_SYS_ADMIN));
}

static void maps_format(char *uid_map, char *gid_map, size_t size, size_t *ul, size_t *gl)
{
	int n = snprintf(uid_map, size, "%u %u 1\n", (unsigned)geteuid(), (unsigned)geteuid());

	*ul = n > 0 ? (size_t)n : 0;
	n = snprintf(gid_map, size, "%u %u 1\n", (unsigned)getegid(), (unsigned)getegid());
	*gl = n > 0 ? (size_t)n : 0;
}

#define PROBE_STACK (64 * 1024)

/* Runs fn(arg) in a child that shares our memory until it exits
 * (CLONE_VM | CLONE_VFORK), on a stack of its own; waits for it. */
static int run_shared(int (*fn)(void *), void *arg)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), total = PROBE_STACK + page;
	char *map = mmap(NULL, total, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
	sigset_t all, saved;
	int st, e;
	pid_t pid;

	if (map == MAP_FAILED)
		return -errno;
	if (mprotect(map + page, PROBE_STACK, PROT_READ | PROT_WRITE) < 0) {
		e = errno;
		munmap(map, total);
		return -e;
	}
	/* No handler of ours may run in the child, on our memory. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &saved);
	pid = clone(fn, map + total, CLONE_VM | CLONE_VFORK | SIGCHLD, arg);
	e = errno;
	pthread_sigmask(SIG_SETMASK, &saved, NULL);
	munmap(map, total);
	if (pid < 0)
		return -e;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return 0;
}

/* ------------------------------------------------------------------------
 * A user namespace that maps one random id, for id-mapped mounts
 *
 * A mount id-mapped through it shows every file whose owner and group it
 * does not map as owned by nobody, and the kernel then grants on such a
 * file what its mode grants others, to root too: a capability overrides
 * file permissions only for ids the mount maps
 * (privileged_wrt_inode_uidgid, fs/inode.c). A map needs one line: it
 * maps one user id and one group id, each onto itself (no file gains
 * another owner), each drawn at random per process from the upper half of
 * the id space, where no system and no subordinate range puts owners.
 * A file owned by exactly that id keeps its owner's (or group's) bits:
 * to use them a program would have to own such a file and guess the id,
 * one chance in 2^31 per process, and nothing tells it the id (the
 * namespace's only member has exited, its descriptor is closed before the
 * program runs). Made once per process, by root (writing another
 * process's maps needs CAP_SETUID and CAP_SETGID), and kept open,
 * close-on-exec, for the process.
 */

/* An id in [2^31, 2^32 - 2] from the kernel's random pool, or -errno. */
static int64_t nobody_id(void)
{
	uint32_t v;

	if (getrandom(&v, sizeof(v), 0) != (ssize_t)sizeof(v))
		return errno ? -errno : -EIO;
	v |= 0x80000000u;
	return v == UINT32_MAX ? (int64_t)(v - 1) : (int64_t)v;
}

static int maps_write(pid_t pid, const char *name)
{
	char path[64], line[40];
	int64_t id = nobody_id();

	if (id < 0)
		return (int)id;
	int n = snprintf(line, sizeof(line), "%lld %lld 1\n", (long long)id, (long long)id);
	snprintf(path, sizeof(path), "/proc/%d/%s", (int)pid, name);
	return write_file(path, line, (size_t)n);
}

/* Returns the namespace's descriptor, or -errno. The child is a copy of
 * this process (no shared memory: valgrind and the sanitizers follow a
 * fork) that lives in the new user namespace, system calls only, until
 * the write end of the pipe closes. */
/* The namespace's only member: it waits for the end of the pipe (its
 * maker closes the write end once the maps are written and the namespace
 * is open), then exits. It shares our memory (CLONE_VM: no copy of the
 * address space to make and to tear down), runs on a stack of its own
 * and makes only system calls that cannot fail here (every signal is
 * blocked, the descriptors are its own copies), so it never writes errno,
 * which it shares with us. Under valgrind, which runs no clone but a
 * thread's, fork's and vfork's, it gets a copy of our memory instead. */
static int nobody_member(void *arg)
{
	const int *p = arg; /* static: the maker does not wait for us */
	char c;

	syscall(SYS_close, p[1]);
	syscall(SYS_read, p[0], &c, 1);
	return 0;
}

/* The helper's descriptor (CLONE_PIDFD) while it is not reaped, else -1:
 * it ends on its own once the pipe's write end is closed, and is reaped
 * later (lf_ns_nobody_reap) instead of being waited for here. */
static int nobody_pidfd = -1;

/* Reaps the helper through its descriptor: never another process that
 * took its pid once someone else reaped it (waitpid(-1) of a subreaper,
 * lf_orphans_kill), which leaves waitid ECHILD. */
static void nobody_reap(void)
{
	siginfo_t si;

	if (nobody_pidfd < 0)
		return;
	while (waitid(P_PIDFD, (id_t)nobody_pidfd, &si, WEXITED | __WALL) < 0 && errno == EINTR)
		;
	close(nobody_pidfd);
	nobody_pidfd = -1;
}

static int nobody_userns_make(void)
{
	/* Used once per process (under nobody_lock), by one child at a time;
	 * static, as the pipe's descriptors the child reads, for the maker
	 * returns before the child has ended (or even run). */
	static char stack[16 * 1024] __attribute__((aligned(64)));
	static int p[2];
	int fd = -1, r = 0, st, pidfd = -1;
	sigset_t all, saved;
	char path[64];
	pid_t pid;

	if (pipe2(p, O_CLOEXEC) < 0)
		return -errno;
	/* No handler of ours may run in the child. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &saved);
	/* Valgrind runs no CLONE_PIDFD: waited for at once there. */
	pid = clone(nobody_member, stack + sizeof(stack),
		    CLONE_NEWUSER | (RUNNING_ON_VALGRIND ? 0 : CLONE_VM | CLONE_PIDFD) | SIGCHLD, p,
		    &pidfd);
	if (pid < 0)
		r = -errno;
	pthread_sigmask(SIG_SETMASK, &saved, NULL);
	if (r == 0) {
		snprintf(path, sizeof(path), "/proc/%ld/ns/user", (long)pid);
		if ((r = maps_write(pid, "uid_map")) == 0 &&
		    (r = maps_write(pid, "gid_map")) == 0 &&
		    (fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
			r = -errno;
	}
	close(p[1]);
	if (pid > 0 && pidfd >= 0) {
		/* The child's exit and the reaping overlap the launch's own
		 * work; the pipe it reads is closed in it by its own exit. */
		nobody_pidfd = pidfd; /* close-on-exec, as CLONE_PIDFD makes it */
	} else if (pid > 0) {
		while (waitpid(pid, &st, __WALL) < 0)
			if (errno != EINTR) {
				r = r ?: -errno;
				break;
			}
	}
	close(p[0]);
	if (r < 0 && fd >= 0) {
		close(fd);
		fd = -1;
	}
	return r < 0 ? r : fd;
}

static pthread_mutex_t nobody_lock = PTHREAD_MUTEX_INITIALIZER;
static int nobody_fd = -1, nobody_err;

int lf_ns_nobody_userns(void)
{
	int r;

	pthread_mutex_lock(&nobody_lock);
	if (nobody_fd < 0 && !nobody_err) {
		r = nobody_userns_make();
		if (r < 0)
			nobody_err = r;
		else
			nobody_fd = r;
	}
	r = nobody_fd >= 0 ? nobody_fd : nobody_err;
	pthread_mutex_unlock(&nobody_lock);
	return r;
}

void lf_ns_nobody_reap(void)
{
	pthread_mutex_lock(&nobody_lock);
	nobody_reap();
	pthread_mutex_unlock(&nobody_lock);
}

/* Whether path (and every mount below it) can be cloned and id-mapped
 * through that namespace here: the file system allows it, the caller
 * controls its superblock. Tried in our own mount namespace on a detached
 * clone, which closing its descriptor removes. */
static int idmap_try(const char *path)
{
	int ns = lf_ns_nobody_userns(), t, r = 0;

	if (ns < 0)
		return ns;
	t = (int)syscall(SYS_open_tree, AT_FDCWD, path,
			 OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_RECURSIVE);
	if (t < 0)
		return -errno;
	if (sys_setattr(t, LF_MOUNT_ATTRS_OTHERS, ns) < 0)
		r = -errno;
	close(t);
	return r;
}

/* The probe's answer for this process: 0 not asked yet, 1 asked. */
static int probe_done;
static struct lf_ns_probe probe_result;

int lf_ns_probe_run(struct lf_ns_probe *out)
{
	struct probe_arg a = { 0 };
	int r;

	memset(out, 0, sizeof(*out));
	if (lf_ns_disabled_by_env()) {
		snprintf(out->failed, sizeof(out->failed),
			 "LANDFENCE_NO_NAMESPACES is set in the environment");
		return 0;
	}
	if (__atomic_load_n(&probe_done, __ATOMIC_ACQUIRE)) {
		*out = probe_result;
		return 0;
	}
	a.user = needs_userns();
	maps_format(a.uid_map, a.gid_map, sizeof(a.uid_map), &a.ul, &a.gl);
	a.step = LF_NS_STEP_USERNS;
	a.err = EPROTO;
	r = run_shared(probe_child, &a);
	if (r < 0) {
		snprintf(out->failed, sizeof(out->failed), "starting the probe: %s", strerror(-r));
		return r;
	}
	out->user = a.user;
	out->available = a.step == 0;
	/* Root without a user namespace: /etc seen as others see it, if
	 * its file systems allow an id-mapped mount. */
	out->others = out->available && !out->user && idmap_try("/etc") == 0;
	lf_ns_nobody_reap();
	if (!out->available)
		snprintf(out->failed, sizeof(out->failed), "%s: %s",
			 lf_ns_step_name((enum lf_ns_step)a.step), strerror(a.err));
	probe_result = *out;
	__atomic_store_n(&probe_done, 1, __ATOMIC_RELEASE);
	return 0;
}

int lf_ns_probe_run_memo(struct lf_ns_probe *out, const char *config_dir, const char *mountinfo,
			 size_t mountinfo_len)
{
	int r;

	/* The environment's word first; valgrind cannot run the probe's
	 * child, so its "no" is neither kept nor overridden there. */
	if (lf_ns_disabled_by_env() || RUNNING_ON_VALGRIND || !config_dir ||
	    __atomic_load_n(&probe_done, __ATOMIC_ACQUIRE))
		return lf_ns_probe_run(out);
	if (lf_ns_memo_recall(config_dir, needs_userns(), mountinfo, mountinfo_len, out)) {
		probe_result = *out;
		__atomic_store_n(&probe_done, 1, __ATOMIC_RELEASE);
		return 0;
	}
	r = lf_ns_probe_run(out);
	if (r == 0)
		lf_ns_memo_keep(config_dir, out, mountinfo, mountinfo_len);
	return r;
}

int lf_ns_probe_forget(void)
{
	int r = lf_ns_memo_forget();

	if (r != 0)
		__atomic_store_n(&probe_done, 0, __ATOMIC_RELEASE);
	return r;
}

int lf_namespace_probe(bool *available, bool *user, char *why, size_t size)
{
	struct lf_ns_probe p;
	int r = lf_ns_probe_run(&p);

	if (available)
		*available = p.available;
	if (user)
		*user = p.user;
	if (why && size)
		snprintf(why, size, "%s", p.available ? "" : p.failed);
	return r;
}

/* ------------------------------------------------------------------------
 * The plan (parent)
 */

/* The outermost final rule that covers path: the place it is opened
 * beneath. "/" when none does. */
static const char *anchor_of(const struct lf_sandbox *sb, const char *path)
{
	const char *best = "/";
	size_t blen = (size_t)-1;

	for (size_t i = 0; i < sb->nrules; i++) {
		const char *r = sb->rules[i].path;
		size_t n = strlen(r);

		if (n < blen && lf_path_covers(r, path)) {
			best = r;
			blen = n;
		}
	}
	return best;
}

static bool rule_is_dir(const struct lf_sandbox *sb, const char *path, bool fallback)
{
	for (size_t i = 0; i < sb->nrules; i++)
		if (!strcmp(sb->rules[i].path, path))
			return sb->rule_dir[i];
	return fallback;
}

static void op_fill(const struct lf_sandbox *sb, struct lf_mount_op *op, const char *path)
{
	const char *a = anchor_of(sb, path);
	size_t al = strcmp(a, "/") ? strlen(a) : 0;

	op->anchor = al ? a : "/";
	op->rel = path + al;
	if (op->rel[0] == '/')
		op->rel++;
	op->path = path;
}

struct op_key {
	const char *path;
	bool bind;
	size_t i;
};

static int cmp_op(const void *a, const void *b)
{
	const struct op_key *x = a, *y = b;
	int c = lf_path_order(x->path, y->path);

	/* At one path, the bind before the mask placed on it. */
	return c ? c : (int)y->bind - (int)x->bind;
}

int lf_ns_plan_build(const struct lf_sandbox *sb, const char *cwd, struct lf_ns_plan *out)
{
	size_t nb = sb->nbinds, nm = sb->nmasks;
	struct op_key *keys;

	memset(out, 0, sizeof(*out));
	out->userns_fd = -1;
	out->user = sb->ns.user;
	maps_format(out->uid_map, out->gid_map, sizeof(out->uid_map), &out->uid_map_len,
		    &out->gid_map_len);
	out->cwd_copy = cwd ? strdup(cwd) : NULL;
	out->ops = calloc(nb + nm + 1, sizeof(*out->ops));
	keys = calloc(nb + nm + 1, sizeof(*keys));
	if ((cwd && !out->cwd_copy) || !out->ops || !keys) {
		free(keys);
		lf_ns_plan_fini(out);
		return -ENOMEM;
	}
	out->cwd = out->cwd_copy;
	for (size_t i = 0; i < nb; i++)
		keys[i] = (struct op_key){ sb->binds[i].path, true, i };
	for (size_t i = 0; i < nm; i++)
		keys[nb + i] = (struct op_key){ sb->masks[i].path, false, i };
	/* Parent first: a mask is placed on a target opened through the
	 * binds above it, and never under one made later. */
	if (nb + nm > 1)
		qsort(keys, nb + nm, sizeof(*keys), cmp_op);
	for (size_t k = 0; k < nb + nm; k++) {
		struct lf_mount_op *op = &out->ops[out->nops++];

		if (keys[k].bind) {
			const struct lf_bind *b = &sb->binds[keys[k].i];

			op->kind = LF_MOUNT_BIND;
			op->attrs = b->nodev ? MOUNT_ATTR_NODEV | MOUNT_ATTR_NOSUID : 0;
			if (b->others) {
				int ns = lf_ns_nobody_userns();

				if (ns < 0) {
					free(keys);
					lf_ns_plan_fini(out);
					return ns;
				}
				op->attrs = LF_MOUNT_ATTRS_OTHERS;
				out->userns_fd = ns;
			}
			op->want = rule_is_dir(sb, b->path, true) ? LF_WANT_DIR : LF_WANT_NONDIR;
			op_fill(sb, op, b->path);
			continue;
		}
		const struct lf_sandbox_mask *m = &sb->masks[keys[k].i];
		switch (m->kind) {
		case LF_MASK_HIDE_DIR:
			op->kind = LF_MOUNT_HIDE_DIR;
			op->want = LF_WANT_DIR;
			out->stage = true;
			break;
		case LF_MASK_HIDE_FILE:
			op->kind = LF_MOUNT_HIDE_FILE;
			op->want = LF_WANT_NONDIR;
			out->stage = true;
			break;
		case LF_MASK_READ_ONLY:
			op->kind = LF_MOUNT_BIND;
			op->attrs = MOUNT_ATTR_RDONLY | MOUNT_ATTR_NODEV | MOUNT_ATTR_NOSUID;
			op->want = LF_WANT_ANY;
			break;
		}
		op_fill(sb, op, m->path);
	}
	free(keys);
	return 0;
}

void lf_ns_plan_fini(struct lf_ns_plan *p)
{
	if (!p)
		return;
	free(p->ops);
	free(p->cwd_copy);
	memset(p, 0, sizeof(*p));
}

/* ------------------------------------------------------------------------
 * The child's steps
 */

/* The anchor last opened: kept while the steps below it place nothing
 * on it (a mount on the anchor itself needs it opened again to be seen). */
struct anchor {
	const char *path;
	int fd;
};

CHILD static void anchor_drop(struct anchor *a)
{
	if (a->fd >= 0)
		syscall(SYS_close, a->fd);
	a->fd = -1;
	a->path = NULL;
}

/* Opens op's target: its anchor without following any link, then the
 * rest beneath it, likewise; checks its type against the plan's. */
CHILD static int target_open(const struct lf_mount_op *op, struct anchor *an, int *step)
{
	int t;
	struct statx stx;

	*step = LF_NS_STEP_OPEN;
	if (an->fd < 0 || an->path != op->anchor) {
		anchor_drop(an);
		an->fd = (int)sys_openat2(AT_FDCWD, op->anchor, O_PATH | O_CLOEXEC,
					  RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS);
		if (an->fd < 0)
			return -errno;
		an->path = op->anchor;
	}
	if (!op->rel[0]) {
		/* The anchor itself: ours to mount on, and to open again for
		 * the steps below it. */
		t = an->fd;
		an->fd = -1;
		an->path = NULL;
	} else {
		t = (int)sys_openat2(an->fd, op->rel, O_PATH | O_CLOEXEC,
				     RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS);
		if (t < 0)
			return -errno;
	}
	*step = LF_NS_STEP_TYPE;
	if (syscall(SYS_statx, t, "", AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW, STATX_TYPE, &stx) < 0) {
		int e = errno;
		syscall(SYS_close, t);
		return -e;
	}
	bool dir = S_ISDIR(stx.stx_mode);
	/* A read-only bind fits any type but a link; a hidden path or a
	 * bound root must still be what the facts step saw. */
	if (S_ISLNK(stx.stx_mode) || (op->want == LF_WANT_DIR && !dir) ||
	    (op->want == LF_WANT_NONDIR && dir)) {
		syscall(SYS_close, t);
		return -ESTALE;
	}
	return t;
}

CHILD static int op_apply(const struct lf_mount_op *op, int stage, int userns, struct anchor *an,
			  int *step)
{
	int t = target_open(op, an, step), c, r = 0;

	if (t < 0)
		return t;
	*step = LF_NS_STEP_CLONE;
	if (op->kind == LF_MOUNT_BIND) {
		c = (int)syscall(SYS_open_tree, t, "",
				 OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_EMPTY_PATH |
					 AT_RECURSIVE);
		if (c >= 0 && op->attrs && sys_setattr(c, op->attrs, userns) < 0) {
			r = -errno;
			syscall(SYS_close, c);
			c = -1;
		}
	} else {
		c = (int)syscall(SYS_open_tree, stage, op->kind == LF_MOUNT_HIDE_DIR ? "d" : "f",
				 OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC);
	}
	if (c < 0) {
		r = r ?: -errno;
		syscall(SYS_close, t);
		return r;
	}
	*step = LF_NS_STEP_MOVE;
	if (syscall(SYS_move_mount, c, "", t, "",
		    MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH) < 0)
		r = -errno;
	syscall(SYS_close, c);
	syscall(SYS_close, t);
	return r;
}

CHILD int lf_ns_enter(const struct lf_ns_plan *p, int userns, int *step, int *op)
{
	struct anchor an = { NULL, -1 };
	int stage = -1, r;

	*op = -1;
	r = ns_make(p->user, p->uid_map, p->uid_map_len, p->gid_map, p->gid_map_len, step);
	if (r < 0)
		return r;
	if (p->stage) {
		*step = LF_NS_STEP_STAGE;
		stage = stage_make();
		if (stage < 0)
			return stage;
	}
	for (size_t i = 0; i < p->nops; i++) {
		*op = (int)i;
		r = op_apply(&p->ops[i], stage, userns, &an, step);
		if (r < 0)
			break;
	}
	anchor_drop(&an);
	if (stage >= 0)
		syscall(SYS_close, stage);
	if (r < 0)
		return r;
	*op = -1;
	/* The working directory still points below the mounts made here
	 * (at what a mask now covers, or on a mount without nodev): going
	 * there again by its path lands on them. */
	*step = LF_NS_STEP_CWD;
	if (p->cwd && syscall(SYS_chdir, p->cwd) < 0)
		return -errno;
	return 0;
}
