/* SPDX-License-Identifier: MIT */
/*
 * The directory walker (fs.h): iterative, on directory descriptors, with
 * a budget, and honest about what it could not see.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/model.h"
#include "core/text.h"
#include "fs/fs.h"

/* One directory on the current path. Its entries are read whole when it
 * is opened, so that its descriptor can be closed while the walk is
 * deeper down and opened again on the way back. Its identity (device,
 * inode) is read from its descriptor only when something needs it: just
 * before that descriptor is closed (to check the directory reopened on
 * the way back is the same one) or for the leave visitor. A descriptor
 * names one directory for as long as it is open, so reading it later
 * gives the same answer as reading it at once. */
struct level {
	int fd;	    /* -1 while closed to save descriptors */
	bool known; /* dev and ino are read */
	dev_t dev;
	ino_t ino;
	char *buf; /* records: ino_t, type byte, NUL-terminated name */
	size_t len, pos;
	size_t path_len; /* length of this directory's path in the path buffer */
};

struct state {
	struct lf_walk *w;
	struct level *lv;
	size_t nlv, caplv;
	size_t first_open; /* levels below it are closed */
	char *path;
	size_t path_cap;
};

static long long now_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0)
		return 0;
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* The default entry budget: LANDFENCE_SCAN_MAX_ENTRIES when set (decimal
 * digits, > 0), else LF_WALK_MAX_ENTRIES. Returns -EINVAL for anything
 * else: a typo must not silently change how far a scan looks. */
int lf_walk_budget_entries(size_t *out)
{
	const char *v = secure_getenv("LANDFENCE_SCAN_MAX_ENTRIES");
	size_t n = 0;

	*out = LF_WALK_MAX_ENTRIES;
	if (!v || !*v)
		return 0;
	for (const char *c = v; *c; c++) {
		if (*c < '0' || *c > '9' || n > ((size_t)-2 - 9) / 10)
			return -EINVAL;
		n = n * 10 + (size_t)(*c - '0');
	}
	if (n == 0)
		return -EINVAL;
	*out = n;
	return 0;
}

void lf_walk_begin(struct lf_walk *w)
{
	bool bad = false;

	if (!w->budget.max_entries)
		bad = lf_walk_budget_entries(&w->budget.max_entries) < 0;
	if (!w->budget.max_millis)
		w->budget.max_millis = LF_WALK_MAX_MILLIS;
	w->entries = 0;
	w->start_ns = now_ns();
	w->stopped = false;
	w->exhausted = false;
	w->incomplete = false;
	w->reason = NULL;
	/* Fail closed: nothing is walked, and the reason says why. */
	if (bad) {
		w->exhausted = true;
		w->incomplete = true;
		w->reason = strdup("LANDFENCE_SCAN_MAX_ENTRIES must be a number > 0");
	}
}

void lf_walk_end(struct lf_walk *w)
{
	free(w->reason);
	w->reason = NULL;
}

/* Records the first reason the walk is incomplete. */
__attribute__((format(printf, 2, 3))) static void incomplete(struct lf_walk *w, const char *fmt,
							     ...)
{
	va_list ap;

	w->incomplete = true;
	if (w->reason)
		return;
	va_start(ap, fmt);
	if (vasprintf(&w->reason, fmt, ap) < 0)
		w->reason = NULL;
	va_end(ap);
	/* It names a place in the tree: one line, escaped (core/text.h). */
	if (w->reason && !lf_text_clean(w->reason)) {
		char *esc = lf_text_escape(w->reason);

		free(w->reason);
		w->reason = esc;
	}
}

/* Counts one entry (at where, named when the budget runs out); false once
 * the budget is spent. */
static bool tick(struct lf_walk *w, const char *where)
{
	if (w->budget.max_entries == LF_WALK_UNLIMITED)
		return true;
	if (++w->entries > w->budget.max_entries) {
		incomplete(w, "stopped after %zu entries (limit), at %s", w->budget.max_entries,
			   where);
		w->exhausted = true;
		return false;
	}
	/* The clock every 256 entries: cheap, and fine enough for a bound
	 * counted in seconds. */
	if ((w->entries & 255u) == 0 &&
	    (now_ns() - w->start_ns) / 1000000 > (long long)w->budget.max_millis) {
		incomplete(w, "stopped after %u ms (limit), at %s", w->budget.max_millis, where);
		w->exhausted = true;
		return false;
	}
	return true;
}

static bool spent(const struct lf_walk *w)
{
	return w->stopped || w->exhausted;
}

static const char *shown(const struct state *s, size_t len)
{
	return len ? s->path : "/";
}

static int path_reserve(struct state *s, size_t need)
{
	if (need <= s->path_cap)
		return 0;
	size_t cap = s->path_cap ? s->path_cap : 256;
	while (cap < need)
		cap *= 2;
	char *p = realloc(s->path, cap);
	if (!p)
		return -ENOMEM;
	s->path = p;
	s->path_cap = cap;
	return 0;
}

/* Reads every entry of fd into lv (fd stays open). */
static int level_read(struct state *s, struct level *lv)
{
	char dents[32768];
	size_t cap = 0;

	lv->buf = NULL;
	lv->len = lv->pos = 0;
	for (;;) {
		ssize_t n = getdents64(lv->fd, dents, sizeof(dents));

		if (n < 0) {
			if (errno == EINTR)
				continue;
			incomplete(s->w, "cannot read %s: %s", shown(s, lv->path_len),
				   strerror(errno));
			return 0;
		}
		if (n == 0)
			return 0;
		for (ssize_t off = 0; off < n;) {
			const struct dirent64 *d = (const struct dirent64 *)(dents + off);
			const char *name = d->d_name;
			size_t nl = strlen(name), rec = sizeof(ino_t) + 1 + nl + 1;

			off += d->d_reclen;
			if (name[0] == '.' &&
			    (name[1] == '\0' || (name[1] == '.' && name[2] == '\0')))
				continue;
			if (lv->len + rec > cap) {
				size_t ncap = cap ? cap * 2 : 4096;
				while (ncap < lv->len + rec)
					ncap *= 2;
				char *b = realloc(lv->buf, ncap);
				if (!b)
					return -ENOMEM;
				lv->buf = b;
				cap = ncap;
			}
			ino_t ino = (ino_t)d->d_ino;
			memcpy(lv->buf + lv->len, &ino, sizeof(ino));
			lv->buf[lv->len + sizeof(ino)] = (char)d->d_type;
			memcpy(lv->buf + lv->len + sizeof(ino) + 1, name, nl + 1);
			lv->len += rec;
		}
	}
}

/* Reads the identity of an open level. False (and the walk marked
 * incomplete) when it cannot. */
static bool level_know(struct state *s, struct level *lv)
{
	struct stat st;

	if (lv->known)
		return true;
	if (fstat(lv->fd, &st) != 0) {
		int err = errno;
		/* The path may be deeper by now: name this level's own. */
		char cut = s->path[lv->path_len];

		s->path[lv->path_len] = '\0';
		incomplete(s->w, "cannot look at %s: %s", shown(s, lv->path_len), strerror(err));
		s->path[lv->path_len] = cut;
		return false;
	}
	lv->dev = st.st_dev;
	lv->ino = st.st_ino;
	lv->known = true;
	return true;
}

/* Closes the oldest open level to save descriptors; it reopens on the way
 * back, checked against the identity read here. An identity that cannot
 * be read leaves the level closed and unknown: the way back then stops
 * the walk as incomplete (parent_reopen). */
static void level_close_oldest(struct state *s)
{
	struct level *lv = &s->lv[s->first_open++];

	(void)level_know(s, lv);
	close(lv->fd);
	lv->fd = -1;
}

/* Opens the directory name below the top level and pushes it. Returns 1
 * when pushed, 0 when there is nothing to walk there, or -ENOMEM. */
static int level_push(struct state *s, int dirfd, const char *name, size_t path_len)
{
	int fd;

	for (;;) {
		fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd >= 0 || (errno != EMFILE && errno != ENFILE) || s->first_open + 1 >= s->nlv)
			break;
		/* Out of descriptors: give up an ancestor's, it reopens. */
		level_close_oldest(s);
	}
	if (fd < 0) {
		/* Gone, or no longer a directory: nothing below it to see. */
		if (errno == ENOENT || errno == ENOTDIR || errno == ELOOP)
			return 0;
		incomplete(s->w, "cannot open %s: %s", shown(s, path_len), strerror(errno));
		return 0;
	}
	if (lf_grow((void **)&s->lv, &s->caplv, s->nlv, sizeof(*s->lv)) < 0) {
		close(fd);
		return -ENOMEM;
	}
	struct level *lv = &s->lv[s->nlv];
	*lv = (struct level){ .fd = fd, .path_len = path_len };
	/* The leave visitor is given each directory's inode. */
	if (s->w->leave && !level_know(s, lv)) {
		close(fd);
		return 0;
	}
	int r = level_read(s, lv);
	if (r < 0) {
		free(lv->buf);
		close(fd);
		return r;
	}
	s->nlv++;
	if (s->nlv - s->first_open > LF_WALK_OPEN_MAX)
		level_close_oldest(s);
	return 1;
}

/* The parent of the top level, open again when it was closed; false when
 * it changed since (renamed away, replaced). */
static bool parent_reopen(struct state *s)
{
	struct level *top = &s->lv[s->nlv - 1], *up = &s->lv[s->nlv - 2];
	struct stat st;

	if (up->fd >= 0)
		return true;
	/* Closed without its identity read, there is nothing to check the
	 * reopened one against: the walk stops as for a change. */
	if (up->known)
		up->fd = openat(top->fd, "..", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (up->fd >= 0 && fstat(up->fd, &st) == 0 && st.st_dev == up->dev &&
	    st.st_ino == up->ino) {
		s->first_open = s->nlv - 2;
		return true;
	}
	incomplete(s->w, "%s changed while it was walked", shown(s, up->path_len));
	return false;
}

static int visit(struct state *s, lf_walk_fn fn, int dirfd, const char *name, size_t len,
		 unsigned char type, ino_t ino)
{
	struct lf_walk_entry e = {
		.dirfd = dirfd,
		.name = name,
		.path = s->path,
		.path_len = len,
		.type = type,
		.ino = ino,
		.depth = s->nlv,
	};

	return fn ? fn(s->w->ctx, &e) : LF_WALK_NEXT;
}

/* The type of an entry the directory did not give. */
static unsigned char type_of(struct state *s, int dirfd, const char *name, size_t len)
{
	struct stat st;

	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
		if (errno != ENOENT)
			incomplete(s->w, "cannot look at %s: %s", s->path, strerror(errno));
		(void)len;
		return DT_UNKNOWN;
	}
	return IFTODT(st.st_mode);
}

/* Leaves the top level: closes it and tells the visitor. */
static int level_pop(struct state *s, bool *abort)
{
	struct level *top = &s->lv[s->nlv - 1];
	int r = 0;

	*abort = false;
	if (s->nlv >= 2 && !parent_reopen(s)) {
		*abort = true;
	} else if (s->nlv >= 2) {
		const struct level *up = &s->lv[s->nlv - 2];

		s->path[top->path_len] = '\0';
		/* Its name is the last component of its path. */
		const char *name = s->path + up->path_len + 1;
		s->nlv--;
		r = visit(s, s->w->leave, up->fd, name, top->path_len, DT_DIR, top->ino);
		s->nlv++;
	}
	close(top->fd);
	free(top->buf);
	s->nlv--;
	if (s->first_open > s->nlv)
		s->first_open = s->nlv;
	return r < 0 ? r : 0;
}

static int walk_dir(struct state *s)
{
	int r = 0;

	while (s->nlv > 0) {
		struct level *lv = &s->lv[s->nlv - 1];
		bool abort = false;

		if (lv->pos >= lv->len || spent(s->w)) {
			r = level_pop(s, &abort);
			if (r < 0 || abort)
				break;
			continue;
		}
		ino_t ino;
		memcpy(&ino, lv->buf + lv->pos, sizeof(ino));
		unsigned char type = (unsigned char)lv->buf[lv->pos + sizeof(ino)];
		const char *name = lv->buf + lv->pos + sizeof(ino) + 1;
		size_t nl = strlen(name), len = lv->path_len + 1 + nl;

		lv->pos += sizeof(ino) + 1 + nl + 1;
		if ((r = path_reserve(s, len + 1)) < 0)
			break;
		s->path[lv->path_len] = '/';
		memcpy(s->path + lv->path_len + 1, name, nl + 1);
		if (type == DT_UNKNOWN && (type = type_of(s, lv->fd, name, len)) == DT_UNKNOWN)
			continue;
		if (!tick(s->w, s->path))
			continue;
		r = visit(s, s->w->visit, lv->fd, name, len, type, ino);
		if (r < 0)
			break;
		if (r == LF_WALK_STOP) {
			s->w->stopped = true;
			r = 0;
			continue;
		}
		if (type == DT_DIR && r != LF_WALK_SKIP) {
			r = level_push(s, lv->fd, name, len);
			if (r < 0)
				break;
		}
		r = 0;
	}
	/* After an error: close what is still open. */
	while (s->nlv > 0) {
		struct level *lv = &s->lv[--s->nlv];
		if (lv->fd >= 0)
			close(lv->fd);
		free(lv->buf);
	}
	return r;
}

int lf_walk_run(struct lf_walk *w, const char *root)
{
	struct state s = { .w = w };
	struct stat st;
	size_t len;
	int r;

	if (!root || root[0] != '/')
		return -EINVAL;
	if (spent(w))
		return 0;
	if (lstat(root, &st) != 0) {
		if (errno != ENOENT && errno != ENOTDIR)
			incomplete(w, "cannot look at %s: %s", root, strerror(errno));
		return 0;
	}
	if (S_ISLNK(st.st_mode))
		return 0;
	len = strlen(root);
	if (!S_ISDIR(st.st_mode)) {
		if (!tick(w, root))
			return 0;
		struct lf_walk_entry e = {
			.dirfd = AT_FDCWD,
			.name = root,
			.path = root,
			.path_len = len,
			.type = IFTODT(st.st_mode),
			.ino = st.st_ino,
			.depth = 0,
		};
		r = w->visit ? w->visit(w->ctx, &e) : 0;
		if (r == LF_WALK_STOP)
			w->stopped = true;
		return r < 0 ? r : 0;
	}
	/* "/" is walked with an empty prefix: names come out as "/usr". */
	if (len == 1)
		len = 0;
	if ((r = path_reserve(&s, len + 1)) < 0)
		return r;
	memcpy(s.path, root, len);
	s.path[len] = '\0';
	r = level_push(&s, AT_FDCWD, root, len);
	if (r > 0)
		r = walk_dir(&s);
	free(s.lv);
	free(s.path);
	return r < 0 ? r : 0;
}
