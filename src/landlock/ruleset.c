/* SPDX-License-Identifier: MIT */
/*
 * From the sandbox value to a Landlock ruleset (SPEC §3). The value holds
 * every decision; this only opens each rule's path and adds it.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "core/path.h"
#include "fs/fs.h"
#include "landlock/sandbox.h"
#include "landlock/syscall.h"

/* The rules' descriptors, opened one after another: the directory of the
 * last rule, kept open for the next rule in the same directory (the
 * entries of /etc one by one, without a namespace), and the rules' own
 * descriptors, closed together (one close_range when they are
 * consecutive numbers, as they are in a process that opens nothing else
 * meanwhile; else one by one: never a descriptor that is not ours). */
#define BATCH_MAX 64

struct opener {
	char dir[4096];
	int dirfd;
	bool no_openat2; /* refused here (a seccomp profile): open + fstat */
	int batch[BATCH_MAX];
	size_t nbatch;
};

static void batch_flush(struct opener *o)
{
	bool consecutive = true;

	for (size_t k = 1; k < o->nbatch; k++)
		consecutive = consecutive && o->batch[k] == o->batch[k - 1] + 1;
	if (o->nbatch > 1 && consecutive &&
	    close_range((unsigned)o->batch[0], (unsigned)o->batch[o->nbatch - 1], 0) == 0) {
		o->nbatch = 0;
		return;
	}
	for (size_t k = 0; k < o->nbatch; k++)
		close(o->batch[k]);
	o->nbatch = 0;
}

/* Flushed as soon as it is full, so the next descriptors take the numbers
 * just freed and stay consecutive. */
static void batch_add(struct opener *o, int fd)
{
	o->batch[o->nbatch++] = fd;
	if (o->nbatch == BATCH_MAX)
		batch_flush(o);
}

static void opener_fini(struct opener *o)
{
	batch_flush(o);
	if (o->dirfd >= 0)
		close(o->dirfd);
	o->dirfd = -1;
}

static long sys_openat2(int dirfd, const char *path, uint64_t flags, uint64_t resolve)
{
	struct open_how how = { .flags = flags, .resolve = resolve };

	return syscall(SYS_openat2, dirfd, path, &how, sizeof(how));
}

/* path's directory, open (O_PATH) without following a symbolic link
 * anywhere on the way (RESOLVE_NO_SYMLINKS): a rule's path is canonical,
 * so a link on the way was put there since the build, by a process that
 * could have led the rule to another inode (a directory exchanged with a
 * link to a fenced one). Returns the descriptor, or a negative errno:
 * -ELOOP for such a link (the rule is left out), -ENOSYS when the path
 * has no directory form or openat2 is refused (the rule is opened whole,
 * checked by rule_open_whole), else the open's error. */
static int opener_dir(struct opener *o, const char *path, const char **base)
{
	const char *slash = strrchr(path, '/');
	size_t len;

	if (!slash || !slash[1] || o->no_openat2)
		return -ENOSYS;
	len = slash == path ? 1 : (size_t)(slash - path);
	*base = slash + 1;
	if (len >= sizeof(o->dir))
		return -ENOSYS;
	if (o->dirfd >= 0 && strlen(o->dir) == len && !memcmp(o->dir, path, len))
		return o->dirfd;
	if (o->dirfd >= 0)
		close(o->dirfd);
	memcpy(o->dir, path, len);
	o->dir[len] = '\0';
	o->dirfd = (int)sys_openat2(AT_FDCWD, o->dir, O_PATH | O_DIRECTORY | O_CLOEXEC,
				    RESOLVE_NO_SYMLINKS);
	if (o->dirfd >= 0)
		return o->dirfd;
	if (errno == ENOSYS || errno == EPERM || errno == E2BIG) {
		o->no_openat2 = true; /* refused here (a seccomp profile) */
		return -ENOSYS;
	}
	return -errno;
}

/* Without openat2: the path opened whole, O_NOFOLLOW, which refuses a
 * link as the last component only; the links on the way are followed.
 * So the descriptor must be the path itself, as /proc/self/fd names it
 * (a link on the way: another name, and the rule is left out). Returns
 * the descriptor, -ENOENT (left out), or another negative errno (diag
 * filled; /proc that cannot answer is one: nothing runs on a rule that
 * could not be checked). */
static int rule_open_whole(const char *path, struct lf_diag *diag)
{
	char link[32], got[PATH_MAX + 2];
	size_t len = strlen(path);
	ssize_t n;
	int fd = open(path, O_PATH | O_CLOEXEC | O_NOFOLLOW), e;

	if (fd < 0) {
		e = errno;
		if (e != ENOENT)
			lf_diag_set(diag, "", 0, 0, "%s: %s", path, strerror(e));
		return -e;
	}
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, got, sizeof(got));
	if (n < 0) {
		e = errno;
		lf_diag_set(diag, "", 0, 0,
			    "%s: cannot check that the path opened is this one, without openat2 "
			    "(readlink %s: %s)",
			    path, link, strerror(e));
		close(fd);
		return -e;
	}
	if ((size_t)n != len || memcmp(got, path, len) != 0) {
		close(fd);
		return -ENOENT; /* a symbolic link on the way since the build */
	}
	return fd;
}

/* Adds rule i; returns 0 (added or rightly left out) or a negative errno. */
static int rule_add(const struct lf_sandbox *sb, size_t i, int rfd, struct opener *o,
		    struct lf_diag *diag)
{
	const struct lf_sandbox_rule *fr = &sb->rules[i];
	struct landlock_path_beneath_attr pb;
	struct stat st;
	uint64_t rights = fr->landlock;
	const char *base = NULL;
	int dfd, pfd = -1, r = 0;
	bool typed = false;

	/* A rule adds nothing when a directory rule above it already carries
	 * all its rights (Landlock unions the rules of every ancestor): each
	 * ancestor looked up in the value's path index. */
	if (!rights || lf_sandbox_rule_redundant(sb, i, rights))
		return 0;
	/* Relative to its directory, refusing a symbolic link anywhere on
	 * the path (ELOOP, RESOLVE_NO_SYMLINKS, here and in opener_dir):
	 * the last component as the fstat below would, one system call
	 * less; the type is the one the value saw, and checked by the
	 * kernel (a directory right on a file is EINVAL). */
	dfd = opener_dir(o, fr->path, &base);
	if (dfd == -ELOOP || dfd == -ENOENT)
		return 0; /* a link on the way since, or gone: left out */
	if (dfd >= 0) {
		pfd = (int)sys_openat2(dfd, base, O_PATH | O_CLOEXEC, RESOLVE_NO_SYMLINKS);
		if (pfd < 0 && (errno == ENOSYS || errno == EPERM || errno == E2BIG))
			o->no_openat2 = true; /* then as below, for every rule */
		else if (pfd < 0 && errno == ELOOP)
			return 0; /* replaced by a symlink since: left out */
		else
			typed = true;
	}
	if (!typed)
		pfd = rule_open_whole(fr->path, diag);
	else if (pfd < 0)
		pfd = -errno;
	if (pfd < 0) {
		/* Gone since the value was compiled: losing an allow is safe. */
		if (pfd == -ENOENT)
			return 0;
		if (typed)
			lf_diag_set(diag, "", 0, 0, "%s: %s", fr->path, strerror(-pfd));
		return pfd;
	}
	if (typed) {
		if (!sb->rule_dir[i])
			rights &= LF_LANDLOCK_FILE_RIGHTS;
		pb.allowed_access = rights;
		pb.parent_fd = pfd;
		if (!rights ||
		    lf_sys_landlock_add_rule(rfd, LANDLOCK_RULE_PATH_BENEATH, &pb, 0) == 0) {
			batch_add(o, pfd);
			return 0;
		}
		r = -errno;
		/* Not a directory any more: what it is now decides, as below. */
		if (r != -EINVAL || (rights & ~LF_LANDLOCK_FILE_RIGHTS) == 0) {
			lf_diag_set(diag, "", 0, 0, "landlock_add_rule %s: %s", fr->path,
				    strerror(-r));
			close(pfd);
			return r;
		}
		r = 0;
		rights = fr->landlock;
	}
	/* Replaced by a symlink since: left out. What the path is now
	 * decides its rights, not what it was. */
	if (fstat(pfd, &st) == 0 && !S_ISLNK(st.st_mode)) {
		if (!S_ISDIR(st.st_mode))
			rights &= LF_LANDLOCK_FILE_RIGHTS;
		pb.allowed_access = rights;
		pb.parent_fd = pfd;
		if (rights &&
		    lf_sys_landlock_add_rule(rfd, LANDLOCK_RULE_PATH_BENEATH, &pb, 0) < 0) {
			r = -errno;
			lf_diag_set(diag, "", 0, 0, "landlock_add_rule %s: %s", fr->path,
				    strerror(-r));
		}
	}
	close(pfd);
	return r;
}

/* A value of at least this many rules has them added by two threads at
 * once, each its half (a thread set aside, lf_thread_aside): each rule is
 * an open, an add and a close (~5 us on the development VM), against the
 * second thread's start (~150 us). The kernel unions a ruleset's rules,
 * whatever order they come in; a rule either thread could not add fails
 * the whole ruleset, as it did alone. */
#define SPLIT_MIN 512

/* The rules [from, to) of sb added to rfd; r and diag say how. */
struct rules_part {
	const struct lf_sandbox *sb;
	size_t from, to;
	int rfd, r;
	struct lf_diag diag;
};

static void *part_add(void *arg)
{
	struct rules_part *p = arg;
	struct opener o = { .dirfd = -1 };

	p->r = 0;
	for (size_t i = p->from; p->r == 0 && i < p->to; i++)
		p->r = rule_add(p->sb, i, p->rfd, &o, &p->diag);
	opener_fini(&o);
	return NULL;
}

/* Every rule of sb added to rfd: 0, or the first failure's negative
 * errno with diag filled. */
static int rules_add(const struct lf_sandbox *sb, int rfd, struct lf_diag *diag)
{
	struct rules_part mine = { .sb = sb, .from = 0, .to = sb->nrules, .rfd = rfd },
			  other = { .sb = sb, .to = sb->nrules, .rfd = rfd };
	pthread_t t;
	bool split = false;

	if (sb->nrules >= SPLIT_MIN) {
		mine.to = other.from = sb->nrules / 2;
		/* The thread's frames: an opener's path (4 KiB) and a path
		 * read back from /proc (4 KiB) at most. */
		split = lf_thread_aside(&t, 256u << 10, part_add, &other) == 0;
		if (!split)
			mine.to = sb->nrules;
	}
	part_add(&mine);
	if (split && pthread_join(t, NULL) != 0)
		abort(); /* never: the thread would still add rules */
	if (mine.r < 0 || !split || other.r == 0) {
		if (mine.r < 0 && diag)
			*diag = mine.diag;
		return mine.r;
	}
	if (diag)
		*diag = other.diag;
	return other.r;
}

int lf_sandbox_ruleset_fd(const struct lf_sandbox *sb, int *fd, struct lf_diag *diag)
{
	struct lf_ruleset_attr attr = { 0 };
	size_t size;
	int rfd;

	if (!sb || !fd) {
		lf_diag_set(diag, "", 0, 0, "sandbox: no sandbox");
		return -EINVAL;
	}
	if (sb->abi == 0) {
		*fd = -1;
		return 0;
	}
	attr.handled_access_fs = sb->handled;
	/* Open unless a policy restricts it (doc/landlock.md, "Network"). */
	attr.handled_access_net = sb->handled_net;
	attr.scoped = sb->scoped;
	/* Pass only the fields the ABI knows, as an older kernel expects. */
	size = sb->abi < 4 ? sizeof(uint64_t) : sb->abi < 6 ? 2 * sizeof(uint64_t) : sizeof(attr);
	rfd = lf_sys_landlock_create_ruleset(&attr, size, 0);
	if (rfd < 0) {
		int e = errno;

		lf_diag_set(diag, "", 0, 0, "landlock_create_ruleset: %s", strerror(e));
		return -e;
	}
	int r = rules_add(sb, rfd, diag);

	if (r < 0) {
		close(rfd);
		return r;
	}
	for (size_t i = 0; sb->handled_net && i < sb->nports; i++) {
		struct landlock_net_port_attr np = {
			.allowed_access =
				(sb->ports[i].connect ? LANDLOCK_ACCESS_NET_CONNECT_TCP : 0) |
				(sb->ports[i].bind ? LANDLOCK_ACCESS_NET_BIND_TCP : 0),
			.port = sb->ports[i].port,
		};

		if (lf_sys_landlock_add_rule(rfd, LANDLOCK_RULE_NET_PORT, &np, 0) < 0) {
			int e = errno;

			lf_diag_set(diag, "", 0, 0, "landlock_add_rule TCP port %u: %s",
				    sb->ports[i].port, strerror(e));
			close(rfd);
			return -e;
		}
	}
	*fd = rfd;
	return 0;
}
