/* SPDX-License-Identifier: MIT */
/*
 * Whether a git directory could have appeared in the project during a
 * run, told by the kernel instead of a second search of the tree.
 *
 * The search for git directories after the program (gate/snapshot.c,
 * report_gitdirs) looks at every directory of the project again: one
 * lstat each, 2,201 in a 200,000-file project. A git directory can only
 * appear by a name being made or moved in: a ".git" entry made (a
 * directory, a file naming one, a link), or a directory made or moved
 * in (a nested repository, or a git directory below an existing one's
 * modules/ or worktrees/). A fanotify group with a filesystem mark on
 * every file system the project spans hears each of these, from any
 * process, as a FAN_CREATE or FAN_MOVED_TO event carrying the entry's
 * name; an event it cannot keep is an overflow event. So when, from
 * before the search that planned the run until after it, the group heard
 * no ".git" name, no directory made or moved in, no overflow, and the
 * mounts at, above and below the project are the same, no git directory
 * appeared, and the second search would find only what the first found.
 * Any doubt (not root: a filesystem mark needs CAP_SYS_ADMIN; a file
 * system whose changes may not all pass through this kernel's VFS, such
 * as a network or FUSE file system or an overlay; an event that does not
 * parse) leaves the search to run as before. Changes to the .git files
 * found before the run are the snapshot's to see (they are protections).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/fanotify.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "core/model.h"
#include "fs/dirwatch.h"
#include "fs/maskfacts.h"

#ifndef F2FS_SUPER_MAGIC
#define F2FS_SUPER_MAGIC 0xF2F52010
#endif

struct lf_dirwatch {
	int fd;
	char *root;
	char *mounts; /* lf_mounts_near's signature when the watch began */
};

#define WATCH_EVENTS (FAN_CREATE | FAN_MOVED_TO | FAN_ONDIR)

/* Local file systems whose every change passes through this kernel's
 * VFS (and so its fanotify hooks). */
static bool fs_local(const char *path)
{
	struct statfs sf;

	if (statfs(path, &sf) != 0)
		return false;
	switch ((unsigned long)sf.f_type) {
	case EXT4_SUPER_MAGIC: /* also ext2 and ext3 */
	case XFS_SUPER_MAGIC:
	case BTRFS_SUPER_MAGIC:
	case TMPFS_MAGIC:
	case F2FS_SUPER_MAGIC:
		return true;
	default:
		return false;
	}
}

static int mark(int fd, const char *path)
{
	if (!fs_local(path))
		return -EOPNOTSUPP;
	return fanotify_mark(fd, FAN_MARK_ADD | FAN_MARK_FILESYSTEM, WATCH_EVENTS, AT_FDCWD,
			     path) == 0
		       ? 0
		       : -errno;
}

int lf_dirwatch_start(const char *root, struct lf_dirwatch **out)
{
	struct lf_strv below = { 0 };
	struct lf_dirwatch *w;
	int r;

	*out = NULL;
	if (!root || root[0] != '/' || geteuid() != 0)
		return 0;
	w = calloc(1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	w->fd = fanotify_init(FAN_CLASS_NOTIF | FAN_CLOEXEC | FAN_NONBLOCK | FAN_REPORT_DFID_NAME,
			      O_RDONLY | O_CLOEXEC);
	if (w->fd < 0) {
		free(w);
		return 0;
	}
	r = (w->root = strdup(root)) ? lf_mounts_near(root, &below, &w->mounts) : -ENOMEM;
	if (r == 0)
		r = mark(w->fd, root);
	for (size_t i = 0; r == 0 && i < below.n; i++)
		r = mark(w->fd, below.v[i]);
	lf_strv_fini(&below);
	if (r < 0) {
		lf_dirwatch_free(w);
		return r == -ENOMEM ? r : 0;
	}
	*out = w;
	return 1;
}

/* Whether one event could be a git directory appearing: a directory
 * made or moved in, or a ".git" entry; anything it cannot read counts. */
static bool event_relevant(const struct fanotify_event_metadata *m)
{
	const char *p = (const char *)m + m->metadata_len, *end = (const char *)m + m->event_len;
	bool named = false;

	if (m->vers != FANOTIFY_METADATA_VERSION || (m->mask & FAN_Q_OVERFLOW) ||
	    (m->mask & FAN_ONDIR) || m->metadata_len < sizeof(*m) || m->event_len < m->metadata_len)
		return true;
	while ((size_t)(end - p) >= sizeof(struct fanotify_event_info_header)) {
		const struct fanotify_event_info_header *h = (const void *)p;

		if (h->len < sizeof(*h) || h->len > (size_t)(end - p))
			return true;
		if (h->info_type == FAN_EVENT_INFO_TYPE_DFID_NAME) {
			const struct fanotify_event_info_fid *fid = (const void *)p;
			const struct file_handle *fh = (const void *)fid->handle;
			size_t head = sizeof(*fid) + sizeof(*fh);
			const char *name;

			if (h->len < head || fh->handle_bytes > h->len - head)
				return true;
			name = (const char *)fh->f_handle + fh->handle_bytes;
			if (!memchr(name, '\0', (size_t)(p + h->len - name)))
				return true;
			if (!strcmp(name, ".git"))
				return true;
			named = true;
		}
		p += h->len;
	}
	return !named;
}

bool lf_dirwatch_quiet(const struct lf_dirwatch *w)
{
	/* Aligned as the kernel writes the records. */
	char buf[16384] __attribute__((aligned(__alignof__(struct fanotify_event_metadata))));
	struct lf_strv below = { 0 };
	char *now = NULL;
	bool quiet = true;

	if (!w)
		return false;
	for (;;) {
		ssize_t n = read(w->fd, buf, sizeof(buf));
		const struct fanotify_event_metadata *m = (const void *)buf;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			break;
		if (n <= 0)
			return false;
		for (; FAN_EVENT_OK(m, n); m = FAN_EVENT_NEXT(m, n)) {
			if (m->fd >= 0)
				close(m->fd);
			quiet = quiet && !event_relevant(m);
		}
		if (n > 0 || !quiet)
			return false; /* a record cut short, or news */
	}
	if (lf_mounts_near(w->root, &below, &now) < 0)
		quiet = false;
	else
		quiet = !strcmp(now, w->mounts);
	free(now);
	lf_strv_fini(&below);
	return quiet;
}

void lf_dirwatch_free(struct lf_dirwatch *w)
{
	if (!w)
		return;
	if (w->fd >= 0)
		close(w->fd);
	free(w->root);
	free(w->mounts);
	free(w);
}
