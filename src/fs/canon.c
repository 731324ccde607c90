/* SPDX-License-Identifier: MIT */
/*
 * The canonical form of a path that may not exist (fs.h). Fences, the
 * advisor's second look at a request and the configuration fence all use
 * this one function, so that "where the kernel would go" means the same
 * everywhere.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/fnv.h"
#include "core/path.h"
#include "fs/fs.h"
#include "policy/policy.h"

/* How many dangling links are followed before the clean form is taken. */
#define CANON_MAX_LINKS 40

/* prefix "/" rest, or rest alone when prefix is "/". */
static char *join(const char *prefix, const char *rest)
{
	char *s = NULL;

	if (asprintf(&s, "%s%s", strcmp(prefix, "/") ? prefix : "", rest) < 0)
		return NULL;
	return s;
}

/* The target of the link at cur[0..cut) with cur + cut appended, or NULL
 * (not a link, unreadable: *err 0; out of memory: *err -ENOMEM). */
static char *follow_link(const char *cur, size_t cut, int *err)
{
	char *prefix = strndup(cur, cut), *link = NULL, *next = NULL;
	struct stat st;

	*err = 0;
	if (!prefix) {
		*err = -ENOMEM;
		return NULL;
	}
	if (lstat(prefix, &st) != 0 || !S_ISLNK(st.st_mode) || st.st_size <= 0 ||
	    st.st_size >= 65536)
		goto out;
	link = malloc((size_t)st.st_size + 1);
	if (!link) {
		*err = -ENOMEM;
		goto out;
	}
	ssize_t n = readlink(prefix, link, (size_t)st.st_size + 1);
	if (n <= 0 || n > st.st_size)
		goto out;
	link[n] = '\0';
	if (link[0] == '/') {
		next = join(link, cur + cut);
	} else {
		/* Relative to the directory holding the link. */
		*strrchr(prefix, '/') = '\0';
		if (asprintf(&next, "%s/%s%s", prefix, link, cur + cut) < 0)
			next = NULL;
	}
	if (!next)
		*err = -ENOMEM;
out:
	free(link);
	free(prefix);
	return next;
}

int lf_path_canon_lenient(const char *in, char **out)
{
	char *cur, *res = NULL;
	int r;

	if (!in || in[0] != '/' || !out)
		return -EINVAL;
	cur = strdup(in);
	if (!cur)
		return -ENOMEM;
	for (int links = 0; !res && links <= CANON_MAX_LINKS; links++) {
		size_t cut = strlen(cur);
		char *next = NULL;

		for (;;) {
			char saved = cur[cut];
			char *real;

			cur[cut] = '\0';
			real = realpath(cut ? cur : "/", NULL);
			cur[cut] = saved;
			if (real) {
				char *joined = join(real, cur + cut);

				free(real);
				if (!joined) {
					free(cur);
					return -ENOMEM;
				}
				r = lf_path_clean_dup(joined, &res);
				free(joined);
				if (r < 0) {
					free(cur);
					return r;
				}
				break;
			}
			if (errno == ENOMEM) {
				free(cur);
				return -ENOMEM;
			}
			if (cut > 0 && links < CANON_MAX_LINKS) {
				next = follow_link(cur, cut, &r);
				if (r < 0) {
					free(cur);
					return r;
				}
				if (next)
					break;
			}
			if (cut == 0)
				break;
			/* Back to the '/' that ends the parent. */
			cut--;
			while (cut > 0 && cur[cut] != '/')
				cut--;
		}
		if (!next)
			break;
		free(cur);
		cur = next;
	}
	free(cur);
	if (res) {
		*out = res;
		return 0;
	}
	/* Links that loop or go too deep: the written place, cleaned. */
	return lf_path_clean_dup(in, out);
}

/* ------------------------------------------------------------------------
 * realpath with a memo of canonical directories
 */

/* The slot of dir[0..len) in a table of cap (a power of two) slots: where
 * it is, or the free slot where it goes (the table is never full). */
static size_t memo_slot(char *const *v, size_t cap, const char *dir, size_t len)
{
	size_t i = lf_fnv(dir, len) & (cap - 1);

	while (v[i] && !(strlen(v[i]) == len && memcmp(v[i], dir, len) == 0))
		i = (i + 1) & (cap - 1);
	return i;
}

static bool memo_has(const struct lf_realpath_memo *m, const char *dir, size_t len)
{
	return m->cap && m->v[memo_slot(m->v, m->cap, dir, len)];
}

static int memo_grow(struct lf_realpath_memo *m)
{
	size_t cap = m->cap ? m->cap * 2 : 64;
	char **v = calloc(cap, sizeof(*v));

	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < m->cap; i++)
		if (m->v[i])
			v[memo_slot(v, cap, m->v[i], strlen(m->v[i]))] = m->v[i];
	free(m->v);
	m->v = v;
	m->cap = cap;
	return 0;
}

static int memo_put(struct lf_realpath_memo *m, const char *dir, size_t len)
{
	size_t i;

	if (memo_has(m, dir, len))
		return 0;
	if ((m->n + 1) * 2 > m->cap && memo_grow(m) < 0)
		return -ENOMEM;
	i = memo_slot(m->v, m->cap, dir, len);
	if (!(m->v[i] = strndup(dir, len)))
		return -ENOMEM;
	m->n++;
	return 0;
}

/* Every proper ancestor of the canonical path real but "/" is a canonical
 * directory; so is real when dir says it is one. */
static int memo_learn(struct lf_realpath_memo *m, const char *real, bool dir)
{
	size_t len = strlen(real);
	int r = dir ? memo_put(m, real, len) : 0;

	for (size_t i = len - 1; r == 0 && i > 0; i--)
		if (real[i] == '/')
			r = memo_put(m, real, i);
	return r;
}

/* Absolute, no empty, "." or ".." component, no trailing slash. */
static bool clean_absolute(const char *p)
{
	if (p[0] != '/')
		return false;
	for (const char *c = p; *c; c++) {
		if (*c != '/')
			continue;
		const char *n = c + 1;

		if (*n == '/' || (*n == '\0' && c != p) ||
		    (n[0] == '.' && (n[1] == '/' || n[1] == '\0')) ||
		    (n[0] == '.' && n[1] == '.' && (n[2] == '/' || n[2] == '\0')))
			return false;
	}
	return true;
}

/* The hops realpath(3) follows before ELOOP (glibc's MAXSYMLINKS). */
#define LINK_HOPS 40

/* How deep memo_walk goes (parents and links) before it leaves the
 * path to realpath: a bound on its stack, 128 frames of ~250 bytes. */
#define WALK_DEPTH 128

static char *link_joined(int dirfd, const char *name, const char *path);

/* realpath of the clean absolute path, in the memo's steps: the parent
 * made canonical first ("/", a directory the memo knows, or this same
 * walk one level up), then one lstat of the name below it. A directory
 * is its own canonical form and remembered; a link's target is read
 * once, joined to the canonical parent, and walked the same way. NULL
 * with errno where realpath fails: the lstat's (ENOENT, EACCES, ENOTDIR,
 * ENAMETOOLONG), ENOMEM; with errno 0 when the walk stops short, for
 * the caller to take realpath's answer: a target holding ".." or "//",
 * more than *hops links (realpath says ELOOP), deeper than WALK_DEPTH, a
 * path of PATH_MAX bytes or more on the way (where realpath's checks of
 * length and the kernel's come in their own order), a link changed
 * under it. *st is what lstat said of the answer, which is no link. */
static char *memo_walk(struct lf_realpath_memo *m, const char *path, struct stat *st, int *hops,
		       int depth)
{
	const char *slash = strrchr(path, '/');
	size_t plen = (size_t)(slash - path);
	char *parent = NULL, *cur, *next;

	if (depth > WALK_DEPTH || strlen(path) >= PATH_MAX) {
		errno = 0;
		return NULL;
	}
	if (plen > 0 && !memo_has(m, path, plen)) {
		struct stat pst;
		char *up = strndup(path, plen);

		if (!up) {
			errno = ENOMEM;
			return NULL;
		}
		parent = memo_walk(m, up, &pst, hops, depth + 1);
		free(up);
		if (!parent)
			return NULL;
		/* Not a directory: ENOTDIR, or ENAMETOOLONG first where the
		 * path realpath would build is too long. Its own answer. */
		if (!S_ISDIR(pst.st_mode)) {
			free(parent);
			errno = 0;
			return NULL;
		}
	}
	/* The parent's canonical form, "/" written as "" before the slash. */
	const char *pre = parent ? parent : path;
	int prelen = parent ? (int)strlen(parent) : (int)plen;

	if (prelen == 1)
		prelen = 0;
	if (asprintf(&cur, "%.*s/%s", prelen, pre, slash + 1) < 0) {
		free(parent);
		errno = ENOMEM;
		return NULL;
	}
	free(parent);
	if (strlen(cur) >= PATH_MAX) {
		free(cur);
		errno = 0;
		return NULL;
	}
	if (lstat(cur, st) != 0) {
		int e = errno;

		free(cur);
		errno = e;
		return NULL;
	}
	if (!S_ISLNK(st->st_mode)) {
		if (S_ISDIR(st->st_mode) && memo_put(m, cur, strlen(cur)) < 0) {
			free(cur);
			errno = ENOMEM;
			return NULL;
		}
		return cur;
	}
	if (--*hops < 0) {
		free(cur);
		errno = 0;
		return NULL;
	}
	next = link_joined(-1, NULL, cur);
	free(cur);
	if (!next) {
		/* Gone, or no longer a link, since the lstat; too long. */
		if (errno != ENOMEM)
			errno = 0;
		return NULL;
	}
	if (!clean_absolute(next)) {
		free(next);
		errno = 0;
		return NULL;
	}
	cur = memo_walk(m, next, st, hops, depth + 1);
	free(next);
	return cur;
}

char *lf_realpath_memo(struct lf_realpath_memo *m, const char *path, struct stat *out)
{
	struct stat st;
	char *real;

	if (out)
		out->st_mode = 0;

	if (clean_absolute(path)) {
		int hops = LINK_HOPS;

		errno = 0;
		real = memo_walk(m, path, &st, &hops, 0);
		if (real && out)
			*out = st;
		if (real || errno != 0)
			return real;
	}
	real = realpath(path, NULL);
	if (real) {
		bool seen = stat(real, &st) == 0, dir = seen && S_ISDIR(st.st_mode);

		if (out && seen)
			*out = st;

		if (memo_learn(m, real, dir) < 0) {
			free(real);
			errno = ENOMEM;
			return NULL;
		}
	}
	return real;
}

/* The target of the link at path (dirfd and name when dirfd >= 0),
 * joined to the link's directory: malloc'ed, or NULL with errno (EINVAL:
 * not a link; ENAMETOOLONG). */
/* The link at path, of target (n bytes), joined to the link's directory. */
static char *target_joined(const char *target, size_t n, const char *path)
{
	const char *slash = strrchr(path, '/');
	char *joined = NULL;
	size_t dlen;

	if (n == 0 || n >= PATH_MAX || !slash) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	dlen = (size_t)(slash - path);
	if (target[0] != '/') {
		/* The leading "." and ".." of a relative target, taken from
		 * the link's directory as realpath(3) takes them: that
		 * directory is canonical (every caller's contract), so its
		 * parent is its path less the last name ("/.." is "/").
		 * Those after a name stay, for realpath's own answer: the
		 * name may be a link. A Debian /etc holds ~100 links such as
		 * "../conf.avail/x", each of which cost realpath a readlink
		 * per component. */
		for (;;) {
			size_t c = 0;

			if (n >= 2 && target[0] == '.' && target[1] == '.' &&
			    (n == 2 || target[2] == '/')) {
				while (dlen > 0 && path[dlen - 1] != '/')
					dlen--;
				if (dlen > 0)
					dlen--; /* the slash before the name */
				c = 2;
			} else if (target[0] == '.' && (n == 1 || target[1] == '/')) {
				c = 1;
			} else {
				break;
			}
			while (c < n && target[c] == '/')
				c++;
			target += c;
			n -= c;
			if (n == 0)
				break;
		}
		if (n == 0) {
			/* The target named a directory above: that one. */
			joined = dlen ? strndup(path, dlen) : strdup("/");
			if (!joined)
				errno = ENOMEM;
			return joined;
		}
	}
	if (target[0] == '/')
		joined = strndup(target, n);
	else if (asprintf(&joined, "%.*s/%.*s", (int)dlen, path, (int)n, target) < 0)
		joined = NULL;
	if (!joined)
		errno = ENOMEM;
	return joined;
}

static char *link_joined(int dirfd, const char *name, const char *path)
{
	char target[PATH_MAX];
	ssize_t n = dirfd >= 0 ? readlinkat(dirfd, name, target, sizeof(target))
			       : readlink(path, target, sizeof(target));

	if (n < 0)
		return NULL;
	return target_joined(target, (size_t)n, path);
}

/* The memo's walk from joined (what the link at path leads to, joined to
 * its canonical directory), else realpath's own answer. Takes joined. */
static char *link_walk(struct lf_realpath_memo *m, char *joined, const char *path, struct stat *out)
{
	char *real = NULL;
	struct stat st;
	int hops = LINK_HOPS - 1, e = 0;

	if (joined && clean_absolute(joined)) {
		errno = 0;
		real = memo_walk(m, joined, &st, &hops, 0);
		e = errno;
		if (real && out)
			*out = st;
	}
	free(joined);
	if (real || e != 0) {
		errno = e;
		return real;
	}
	/* The first link gone or changed, a target holding "..", a long
	 * chain: realpath's own answer. */
	real = realpath(path, NULL);
	if (real && out && stat(real, out) != 0)
		out->st_mode = 0;
	return real;
}

char *lf_realpath_link_target(struct lf_realpath_memo *m, const char *target, const char *path,
			      struct stat *out)
{
	char *joined = NULL;

	if (out)
		out->st_mode = 0;
	if (strlen(path) < PATH_MAX) {
		joined = target_joined(target, strlen(target), path);
		if (!joined && errno == ENOMEM)
			return NULL;
	}
	return link_walk(m, joined, path, out);
}

char *lf_realpath_link_memo(struct lf_realpath_memo *m, int dirfd, const char *name,
			    const char *path, struct stat *out)
{
	/* The link's target joined to its canonical directory, then the
	 * memo's walk from there. */
	char *joined = NULL;

	if (out)
		out->st_mode = 0;
	/* A path realpath refuses as too long is refused the same way,
	 * without reading the link first. */
	if (strlen(path) < PATH_MAX) {
		joined = link_joined(dirfd, name, path);
		if (!joined && errno == ENOMEM)
			return NULL;
	}
	return link_walk(m, joined, path, out);
}

static void dirnames_list(struct lf_dirnames *d, const char *dir, size_t max, bool search);
static struct lf_dirname *dirnames_find(const struct lf_dirnames *d, const char *name);
static void dirnames_unmount(struct lf_dirnames *d);

/* A parent lf_realpath_memo_type was asked about: how often, and its
 * listing once taken. */
struct lf_memo_parent {
	char *dir; /* owned; NULL: a free slot */
	size_t asks;
	size_t next_try; /* asks at which it is listed (again) */
	struct lf_dirnames names;
};

static size_t parent_slot(const struct lf_memo_parent *v, size_t cap, const char *dir, size_t len)
{
	size_t i = lf_fnv(dir, len) & (cap - 1);

	while (v[i].dir && !(strlen(v[i].dir) == len && memcmp(v[i].dir, dir, len) == 0))
		i = (i + 1) & (cap - 1);
	return i;
}

/* The record of the parent dir[0..len), made when missing; NULL when
 * memory runs out. */
static struct lf_memo_parent *parent_get(struct lf_realpath_memo *m, const char *dir, size_t len)
{
	size_t i;

	if (m->capparents && m->parents[i = parent_slot(m->parents, m->capparents, dir, len)].dir)
		return &m->parents[i];
	if ((m->nparents + 1) * 2 > m->capparents) {
		size_t cap = m->capparents ? m->capparents * 2 : 64;
		struct lf_memo_parent *v = calloc(cap, sizeof(*v));

		if (!v)
			return NULL;
		for (size_t k = 0; k < m->capparents; k++)
			if (m->parents[k].dir)
				v[parent_slot(v, cap, m->parents[k].dir,
					      strlen(m->parents[k].dir))] = m->parents[k];
		free(m->parents);
		m->parents = v;
		m->capparents = cap;
	}
	i = parent_slot(m->parents, m->capparents, dir, len);
	if (!(m->parents[i].dir = strndup(dir, len)))
		return NULL;
	m->parents[i].next_try = LF_MEMO_LIST_AFTER;
	m->nparents++;
	return &m->parents[i];
}

/* What the listing of path's parent (dir[0..len), canonical) says of
 * its last name: its DT_* type, or DT_UNKNOWN when the listing cannot say
 * (not taken, not whole, a name too long, a name it does not hold: made
 * since, perhaps, which the lstat then finds). -ENOMEM. */
static int parent_says(struct lf_realpath_memo *m, const char *dir, size_t len, const char *name)
{
	struct lf_memo_parent *p = parent_get(m, dir, len);
	const struct lf_dirname *e;

	if (!p)
		return -ENOMEM;
	p->asks++;
	if (p->names.state != 1 && p->asks >= p->next_try) {
		/* Again when it was too large: only after four times as many
		 * asks, so that listing costs at most a few names per ask. */
		lf_dirnames_fini(&p->names);
		dirnames_list(&p->names, p->dir, p->asks * LF_MEMO_LIST_RATIO, true);
		if (p->names.state == 1)
			dirnames_unmount(&p->names);
		p->next_try = p->asks * 4;
	}
	if (p->names.state != 1 || strlen(name) > NAME_MAX)
		return DT_UNKNOWN;
	e = dirnames_find(&p->names, name);
	return e ? e->type : DT_UNKNOWN;
}

char *lf_realpath_memo_type(struct lf_realpath_memo *m, const char *path, unsigned *type)
{
	const char *slash = strrchr(path, '/');
	struct stat st;
	char *real;

	*type = 0;
	/* A path of PATH_MAX bytes or more is lstat's (ENAMETOOLONG),
	 * whatever its parent's listing holds. */
	if (clean_absolute(path) && slash != path && strlen(path) < PATH_MAX &&
	    memo_has(m, path, (size_t)(slash - path))) {
		int t = parent_says(m, path, (size_t)(slash - path), slash + 1);

		if (t == -ENOMEM) {
			errno = ENOMEM;
			return NULL;
		}
		/* Listed, and not a link: the path is its own canonical form,
		 * as the lstat below would find. */
		if (t != DT_UNKNOWN && t != DT_LNK) {
			real = strdup(path);
			if (!real || (t == DT_DIR && memo_put(m, path, strlen(path)) < 0)) {
				free(real);
				errno = ENOMEM;
				return NULL;
			}
			*type = DTTOIF((unsigned)t);
			return real;
		}
	}
	real = lf_realpath_memo(m, path, &st);
	if (real)
		*type = st.st_mode & S_IFMT;
	return real;
}

void lf_realpath_memo_fini(struct lf_realpath_memo *m)
{
	for (size_t i = 0; i < m->cap; i++)
		free(m->v[i]);
	free(m->v);
	for (size_t i = 0; i < m->capparents; i++)
		if (m->parents[i].dir) {
			free(m->parents[i].dir);
			lf_dirnames_fini(&m->parents[i].names);
		}
	free(m->parents);
	*m = (struct lf_realpath_memo){ 0 };
}

/* ------------------------------------------------------------------------
 * Names of one directory (fs.h, lf_dirnames_absent)
 */

static int cmp_name(const void *a, const void *b)
{
	return strcmp(((const struct lf_dirname *)a)->name, ((const struct lf_dirname *)b)->name);
}

DIR *lf_dir_open(const char *path, int flags)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC | flags);
	DIR *d;

	if (fd < 0)
		return NULL;
	d = fdopendir(fd);
	if (!d) {
		int e = errno;

		close(fd);
		errno = e;
	}
	return d;
}

/* Lists dir into d: at most max names; search: only a directory the
 * caller may search (what a lookup below it needs). */
static void dirnames_list(struct lf_dirnames *d, const char *dir, size_t max, bool search)
{
	size_t len = strlen(dir), cap = 0;
	struct dirent *e;
	DIR *dh;

	d->state = -1;
	/* A plain absolute path: a trailing slash or a "." would make
	 * the prefix test below lie. */
	if (dir[0] != '/' || len < 2 || dir[len - 1] == '/' || !clean_absolute(dir) ||
	    !(d->dir = strdup(dir)))
		return;
	dh = lf_dir_open(dir, 0);
	if (!dh)
		return;
	if (search && faccessat(dirfd(dh), ".", X_OK, AT_EACCESS) != 0) {
		closedir(dh);
		return;
	}
	errno = 0;
	while ((e = readdir(dh))) {
		if (d->n == max || lf_grow((void **)&d->v, &cap, d->n, sizeof(*d->v)) < 0 ||
		    !(d->v[d->n].name = strdup(e->d_name))) {
			closedir(dh);
			return;
		}
		d->v[d->n++].type = e->d_type;
		errno = 0;
	}
	/* readdir's NULL with errno set: the listing is not whole. */
	if (errno == 0) {
		if (d->n > 1)
			qsort(d->v, d->n, sizeof(*d->v), cmp_name);
		d->state = 1;
	}
	closedir(dh);
}

/* The entry name (NUL-terminated, at most NAME_MAX bytes) of a listed d,
 * or NULL. */
static struct lf_dirname *dirnames_find(const struct lf_dirnames *d, const char *name)
{
	struct lf_dirname key = { (char *)name, 0 };

	return bsearch(&key, d->v, d->n, sizeof(*d->v), cmp_name);
}

void lf_mountinfo_unescape(char *s)
{
	char *o = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*o++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 3;
		} else {
			*o++ = *s;
		}
	}
	*o = '\0';
}

/* A listing gives the type of each name's own entry; a lookup of a name
 * something is mounted on reaches the mount (a link mounted over a file,
 * say). Each such name of d (listed) is marked DT_UNKNOWN, so that it is
 * looked at; a mount table that cannot be read or understood makes the
 * whole listing unusable. */
static void dirnames_unmount(struct lf_dirnames *d)
{
	size_t dl = strlen(d->dir), len = 0;
	char *text = NULL;

	if (lf_file_read("/proc/self/mountinfo", 16u << 20, &text, &len) < 0) {
		d->state = -1;
		return;
	}
	for (char *line = text, *next; line && *line; line = next) {
		char *point = line, *end, *slash;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		/* "ID PARENT MAJ:MIN ROOT POINT ...": the fifth field. */
		for (int f = 0; f < 4 && point; f++)
			if ((point = strchr(point, ' ')))
				point++;
		if (!point || !(end = strchr(point, ' '))) {
			d->state = -1;
			break;
		}
		*end = '\0';
		lf_mountinfo_unescape(point);
		slash = strrchr(point, '/');
		if (!slash) {
			d->state = -1;
			break;
		}
		if ((size_t)(slash - point) == dl && memcmp(point, d->dir, dl) == 0) {
			struct lf_dirname *e = dirnames_find(d, slash + 1);

			if (e)
				e->type = DT_UNKNOWN;
		}
	}
	free(text);
}

bool lf_dirnames_absent(struct lf_dirnames *d, const char *dir, const char *path)
{
	char name[NAME_MAX + 1];
	const char *p, *end;
	size_t len;

	if (!dir)
		return false;
	if (d->state == 0)
		dirnames_list(d, dir, LF_DIRNAMES_MAX, false);
	if (d->state != 1 || strcmp(d->dir, dir) != 0)
		return false;
	len = strlen(dir);
	if (strncmp(path, dir, len) != 0 || path[len] != '/')
		return false;
	p = path + len + 1;
	end = strchrnul(p, '/');
	if (end == p || (size_t)(end - p) > NAME_MAX || (end - p == 1 && p[0] == '.') ||
	    (end - p == 2 && p[0] == '.' && p[1] == '.'))
		return false;
	memcpy(name, p, (size_t)(end - p));
	name[end - p] = '\0';
	return !dirnames_find(d, name);
}

void lf_dirnames_fini(struct lf_dirnames *d)
{
	for (size_t i = 0; i < d->n; i++)
		free(d->v[i].name);
	free(d->v);
	free(d->dir);
	memset(d, 0, sizeof(*d));
}
