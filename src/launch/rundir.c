/* SPDX-License-Identifier: MIT */
/*
 * The private run directory, exported to the program as TMPDIR: the only
 * place outside the project a program may write by default, and gone when
 * the program ends.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "fs/fs.h"
#include "launch/launch.h"

/* A tmpfs needs this much free space to hold the run directory: a
 * program's temporary files (a compiler's, a test suite's) must not fill
 * a small one (a container's 64 MiB /dev/shm). */
#define TMPFS_MIN_FREE (256ULL << 20)

/* Whether dir is a tmpfs with room that the run directory may go in:
 * shared, like /tmp (sticky, owned by root), or private (owned by us,
 * no access for others: $XDG_RUNTIME_DIR). */
static bool tmpfs_usable(const char *dir, bool shared)
{
	struct statfs sf;
	struct stat st;

	if (!dir || dir[0] != '/' || statfs(dir, &sf) < 0 || sf.f_type != TMPFS_MAGIC ||
	    (unsigned long long)sf.f_bavail * (unsigned long long)sf.f_bsize < TMPFS_MIN_FREE ||
	    stat(dir, &st) < 0 || !S_ISDIR(st.st_mode) || access(dir, W_OK | X_OK) < 0)
		return false;
	if (shared)
		return (st.st_mode & S_ISVTX) && st.st_uid == 0;
	return st.st_uid == geteuid() && !(st.st_mode & 077);
}

/* mkdtemp of base/landfence.XXXXXX into tmpl: 0 or -errno. */
static int rundir_make(const char *base, char *tmpl, size_t size)
{
	int n = snprintf(tmpl, size, "%s/landfence.XXXXXX", base);

	if (n < 0 || (size_t)n >= size)
		return -ENAMETOOLONG;
	return mkdtemp(tmpl) ? 0 : -errno;
}

int lf_rundir_create(char *out, size_t size)
{
	char tmpl[PATH_MAX], canon[PATH_MAX];
	const char *base = secure_getenv("TMPDIR");
	const char *runtime = secure_getenv("XDG_RUNTIME_DIR");
	int r = -ENOENT;

	if (!out || size == 0)
		return -EINVAL;
	/* TMPDIR set: the user's choice. Otherwise a tmpfs when one is
	 * usable, since making and removing a directory on a disk file
	 * system at every launch costs more (on ext4 the inode allocator
	 * scans past recently freed inodes): /dev/shm (meant for this, as
	 * /tmp is), then $XDG_RUNTIME_DIR (small files only, says its
	 * specification: second), then /tmp. */
	if (base && base[0] == '/')
		r = rundir_make(base, tmpl, sizeof(tmpl));
	else {
		if (tmpfs_usable("/dev/shm", true))
			r = rundir_make("/dev/shm", tmpl, sizeof(tmpl));
		if (r < 0 && tmpfs_usable(runtime, false))
			r = rundir_make(runtime, tmpl, sizeof(tmpl));
		if (r < 0)
			r = rundir_make("/tmp", tmpl, sizeof(tmpl));
	}
	if (r < 0)
		return r;
	/* Grants are compared on canonical paths: hand out the canonical
	 * name so the rule and TMPDIR agree. */
	if (!realpath(tmpl, canon)) {
		r = -errno;
		rmdir(tmpl);
		return r;
	}
	if (strlen(canon) >= size) {
		rmdir(tmpl);
		return -ENAMETOOLONG;
	}
	strcpy(out, canon);
	return 0;
}

struct removal {
	int first; /* the first error met, 0 */
};

static void removal_error(struct removal *rm, int err)
{
	if (!rm->first && err != ENOENT)
		rm->first = -err;
}

/* A directory gets its owner's rights back before the walk opens it: a
 * program may leave one without read, write or search permission. */
static int remove_visit(void *ctx, const struct lf_walk_entry *e)
{
	struct removal *rm = ctx;

	if (e->type == DT_DIR) {
		(void)fchmodat(e->dirfd, e->name, 0700, AT_SYMLINK_NOFOLLOW);
		return LF_WALK_NEXT;
	}
	if (unlinkat(e->dirfd, e->name, 0) < 0)
		removal_error(rm, errno);
	return LF_WALK_NEXT;
}

/* After its entries: the directory itself, depth first. */
static int remove_leave(void *ctx, const struct lf_walk_entry *e)
{
	struct removal *rm = ctx;

	if (unlinkat(e->dirfd, e->name, AT_REMOVEDIR) < 0)
		removal_error(rm, errno);
	return LF_WALK_NEXT;
}

int lf_rundir_remove(const char *path)
{
	struct removal rm = { 0 };
	struct lf_walk w = { .visit = remove_visit, .leave = remove_leave, .ctx = &rm };
	struct stat st;
	int r;

	if (!path || path[0] != '/')
		return -EINVAL;
	/* Never through a link: a link in place of the run directory is
	 * removed, never its target. */
	if (lstat(path, &st) < 0)
		return errno == ENOENT ? 0 : -errno;
	if (!S_ISDIR(st.st_mode))
		return unlink(path) < 0 ? -errno : 0;
	(void)chmod(path, 0700);
	w.budget.max_entries = LF_WALK_UNLIMITED;
	lf_walk_begin(&w);
	r = lf_walk_run(&w, path);
	if (r == 0 && w.incomplete && !rm.first)
		r = -EIO;
	lf_walk_end(&w);
	if (rmdir(path) < 0 && !r && !rm.first)
		r = -errno;
	return r ? r : rm.first;
}
