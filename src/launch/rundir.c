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
#include <sys/stat.h>
#include <unistd.h>

#include "fs/fs.h"
#include "launch/launch.h"

int lf_rundir_create(char *out, size_t size)
{
	char tmpl[PATH_MAX], canon[PATH_MAX];
	const char *base = secure_getenv("TMPDIR");
	int n;

	if (!out || size == 0)
		return -EINVAL;
	if (!base || base[0] != '/')
		base = "/tmp";
	n = snprintf(tmpl, sizeof(tmpl), "%s/landfence.XXXXXX", base);
	if (n < 0 || (size_t)n >= sizeof(tmpl))
		return -ENAMETOOLONG;
	if (!mkdtemp(tmpl))
		return -errno;
	/* Grants are compared on canonical paths: hand out the canonical
	 * name so the rule and TMPDIR agree. */
	if (!realpath(tmpl, canon)) {
		int r = -errno;
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
