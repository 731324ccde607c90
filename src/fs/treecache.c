/* SPDX-License-Identifier: MIT */
/*
 * The nested-repository search (maskfacts.c, facts_gitdirs), the device
 * search (gate/scan.c) and the look at /etc for what others cannot read
 * (maskfacts.c, lf_etc_scan: the listing search, which keeps each
 * directory's every entry but links, and looks at each of them at every
 * search) from a cache of directory listings, so that a launch does not
 * read every directory of the project (or of /etc) again: each
 * directory's ".git" entry and subdirectories (its device nodes; its
 * entries) are kept with its (device, inode, change time, modification
 * time), and a directory whose four are unchanged is not read again,
 * only looked at with one lstat. Adding, removing or renaming an entry changes its
 * directory's times; the change time cannot be set back by anyone short
 * of the clock; a mount over a directory changes its device and inode.
 * Directories changed in the last two seconds are never kept (their
 * times may not have moved yet on the next change: a coarse clock).
 *
 * The cache lives below landfence's configuration directory, which the
 * sandbox cannot write (the built-in fence). Anything unusual — no
 * configuration directory, a cache that does not parse or names another
 * root, a directory that cannot be read, the walk's budget reached —
 * makes the search answer 0, and the caller walks as it always did (with
 * its own refusals): the cache never decides alone.
 */
#include <dirent.h>
#include <stdbool.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/fnv.h"
#include "fs/fs.h"
#include "fs/treecache.h"

/* One magic per search: a cache of one kind is never read as the other
 * (their files are named apart too). */
#define CACHE_MAGIC_GIT "landfence-tree-cache 2\n"
#define CACHE_MAGIC_DEV "landfence-dev-cache 1\n"
#define CACHE_MAGIC_LIST "landfence-list-cache 1\n"
#define CACHE_MAGIC_LINKS "landfence-links-cache 1\n"
#define CACHE_MAX (64u << 20)
/* The fewest bytes a record takes in the file: its rel's length, the six
 * 64-bit identity and time fields, nentries, gittype, nsub and ndev. */
#define REC_MIN (4 + 6 * 8 + 4 + 1 + 4 + 4)
/* The most records a cache's array is sized for at once (~6 MB). */
#define REC_PRESIZE (64u << 10)
#define RACY_NS (2LL * 1000000000LL)
/* The search recurses with one PATH_MAX buffer a level. */
#define TREE_MAX_DEPTH 64

/* A device node a directory holds (the device search). */
struct devent {
	char *name;
	uint64_t rdev;
	uint8_t block;
};

struct rec {
	char *rel; /* below the root: "" for the root, else "a/b" */
	uint64_t dev, ino;
	int64_t cs, cns, ms, mns;
	uint32_t nentries; /* what the walk would count */
	uint8_t gittype;   /* DT_* of its ".git" entry, 0 without one */
	char **subs;	   /* its subdirectories in directory order (".git"
			      only for the device search); for the listing
			      search, every entry but symbolic links (with
			      LF_LIST_LINKS, every entry) */
	/* With LF_LIST_LINKS, for each of subs: a link's target and inode
	 * (target NULL for an entry that is no link); else NULL. */
	struct linkent {
		char *target;
		uint64_t ino;
	} * links;
	uint32_t nsub;
	struct devent *devs; /* its device nodes (the device search) */
	uint32_t ndev;
};

struct recs {
	struct rec *v;
	size_t n, cap;
};

/* An entry's lstat taken ahead (err 0), or the errno it failed with. */
struct ent_pre {
	int err;
	struct stat st;
};

struct search {
	struct recs old; /* in the order the last search saw them */
	size_t cursor;	 /* the record the next directory most likely is */
	size_t *index;	 /* old's records sorted by rel, made when needed */
	bool indexed;	 /* index made (NULL: none usable) */
	struct recs now; /* what this search saw (kept ones only) */
	/* While every directory so far was found unchanged, in the order
	 * old holds them, now is old's first same records, left in place
	 * (a tree that did not change costs no copy); the first other
	 * directory moves them over (now_take). */
	size_t same;
	bool diverged;
	/* For a large cache, whether each of old's directories was found
	 * with its record's times, looked at before the search (prestat),
	 * or NULL: each is looked at when the search meets it. */
	bool *pre;
	/* For the listing search of a cache of many entries, each cached
	 * entry's lstat, looked at before the search the same way: record
	 * i's entries from ents[first[i]] on, in its subs' order; or NULL. */
	struct ent_pre *ents;
	size_t *first;
	const char *root;
	int rootfd;	    /* the root, opened once: every lookup starts there */
	int64_t start_ns;   /* CLOCK_REALTIME, to compare with file times */
	int64_t start_mono; /* CLOCK_MONOTONIC, for the budget */
	size_t work;	    /* entries read, plus directories found unchanged */
	size_t dirs;	    /* directories searched (kept or not) */
	bool changed;	    /* a listing read again and kept */
	bool devices;	    /* the device search, else the .git search */
	/* The listing search (lf_treecache_list): visit is given every
	 * entry but links, with its lstat, and says where to descend. */
	lf_treecache_visit_fn visit;
	void *ctx;
	bool links;    /* LF_LIST_LINKS: links kept too, with their targets */
	size_t budget; /* the walk's entry budget */
	struct lf_dotgit *found;
	size_t nfound, capfound;
	struct lf_tree_devnode *devfound;
	size_t ndevfound, capdevfound;
	/* A search begun ahead (lf_treecache_dotgits_ahead) whose answer
	 * is no longer wanted stops at its next directory; NULL: never. */
	const atomic_bool *cancel;
};

/* A record the file's reader gave up on may count kids it never
 * allocated (nsub or ndev read, the array not made). */
static void rec_fini(struct rec *r)
{
	for (uint32_t i = 0; r->subs && i < r->nsub; i++)
		free(r->subs[i]);
	free(r->subs);
	for (uint32_t i = 0; r->links && i < r->nsub; i++)
		free(r->links[i].target);
	free(r->links);
	for (uint32_t i = 0; r->devs && i < r->ndev; i++)
		free(r->devs[i].name);
	free(r->devs);
	free(r->rel);
}

static void recs_fini(struct recs *rs)
{
	for (size_t i = 0; i < rs->n; i++)
		rec_fini(&rs->v[i]);
	free(rs->v);
	*rs = (struct recs){ 0 };
}

void lf_dotgits_free(struct lf_dotgit *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i].path);
	free(v);
}

void lf_tree_devnodes_free(struct lf_tree_devnode *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i].path);
	free(v);
}

/* ------------------------------------------------------------------------
 * The file: the magic, the root, then records; integers little-endian
 * as this machine writes them (a cache is never moved between machines;
 * one that does not parse is ignored).
 */

struct rd {
	FILE *f;
	uint64_t left; /* bytes of the file not read yet */
	bool bad;
};

static void rd_bytes(struct rd *r, void *out, size_t n)
{
	if (r->bad || r->left < n || fread_unlocked(out, 1, n, r->f) != n) {
		r->bad = true;
		memset(out, 0, n);
		return;
	}
	r->left -= n;
}

static char *rd_str(struct rd *r)
{
	uint32_t n = 0;
	char *s;

	rd_bytes(r, &n, sizeof(n));
	if (r->bad || n > PATH_MAX || r->left < n || !(s = malloc((size_t)n + 1))) {
		r->bad = true;
		return NULL;
	}
	rd_bytes(r, s, n);
	s[n] = '\0';
	if (r->bad || memchr(s, '\0', n)) {
		r->bad = true;
		free(s);
		return NULL;
	}
	return s;
}

static int recs_push(struct recs *rs, const struct rec *r)
{
	if (lf_grow((void **)&rs->v, &rs->cap, rs->n, sizeof(*rs->v)) < 0)
		return -ENOMEM;
	rs->v[rs->n++] = *r;
	return 0;
}

/* Reads the cache of root into old; leaves it empty when there is none or
 * it cannot be trusted to parse. */
static bool name_ok(const char *n)
{
	return n[0] && !strchr(n, '/') && strcmp(n, ".") != 0 && strcmp(n, "..") != 0;
}

/* Read through a small buffer, not whole: a 200,000-file project's cache
 * is 180 KB, whose pages a launch would otherwise touch once more. Only a
 * regular file reached without a link, of the user's own that nobody
 * else may write (lf_cache_file_ours), of its size at most CACHE_MAX. */
static void cache_load(const char *file, const char *magic, const char *root, bool links,
		       struct recs *old)
{
	bool list = links || !strcmp(magic, CACHE_MAGIC_LIST);
	char head[64];
	struct stat st;
	int fd = lf_cache_file_open(file, CACHE_MAX, &st);
	FILE *f;

	if (fd < 0)
		return;
	if (!(f = fdopen(fd, "r"))) {
		close(fd);
		return;
	}
	struct rd r = { f, (uint64_t)st.st_size, false };
	size_t ml = strlen(magic);
	char *croot = NULL;

	if (ml > sizeof(head))
		goto out;
	rd_bytes(&r, head, ml);
	if (r.bad || memcmp(head, magic, ml) != 0)
		goto out;
	croot = rd_str(&r);
	if (r.bad || strcmp(croot, root) != 0)
		goto out;
	/* Sized once for as many records as the rest of the file can hold
	 * (REC_MIN bytes each at least), up to REC_PRESIZE: a doubling
	 * array copies itself and writes fresh pages at each step, and a
	 * fresh page costs a fault (~9 us on a VM); the pages beyond the
	 * last record are never written. */
	old->cap = (size_t)(r.left / REC_MIN) + 1;
	if (old->cap > REC_PRESIZE)
		old->cap = REC_PRESIZE;
	if (!(old->v = malloc(old->cap * sizeof(*old->v)))) {
		old->cap = 0;
		goto out;
	}
	while (!r.bad && r.left > 0) {
		struct rec c = { 0 };

		c.rel = rd_str(&r);
		rd_bytes(&r, &c.dev, sizeof(c.dev));
		rd_bytes(&r, &c.ino, sizeof(c.ino));
		rd_bytes(&r, &c.cs, sizeof(c.cs));
		rd_bytes(&r, &c.cns, sizeof(c.cns));
		rd_bytes(&r, &c.ms, sizeof(c.ms));
		rd_bytes(&r, &c.mns, sizeof(c.mns));
		rd_bytes(&r, &c.nentries, sizeof(c.nentries));
		rd_bytes(&r, &c.gittype, sizeof(c.gittype));
		rd_bytes(&r, &c.nsub, sizeof(c.nsub));
		/* Each name takes at least its length's four bytes: a count
		 * the file cannot hold is not believed (nor allocated). */
		if (!r.bad && (c.nsub > c.nentries || c.nsub > r.left / 4))
			r.bad = true;
		/* The listing searches keep no .git entry. */
		if (!r.bad && list && c.gittype)
			r.bad = true;
		if (!r.bad && c.nsub && !(c.subs = calloc(c.nsub, sizeof(*c.subs))))
			r.bad = true;
		if (!r.bad && links && c.nsub && !(c.links = calloc(c.nsub, sizeof(*c.links))))
			r.bad = true;
		for (uint32_t i = 0; !r.bad && i < c.nsub; i++) {
			uint8_t link = 0;

			c.subs[i] = rd_str(&r);
			if (!r.bad && !name_ok(c.subs[i]))
				r.bad = true;
			if (links)
				rd_bytes(&r, &link, sizeof(link));
			if (!r.bad && link > 1)
				r.bad = true;
			if (!r.bad && link) {
				c.links[i].target = rd_str(&r);
				rd_bytes(&r, &c.links[i].ino, sizeof(c.links[i].ino));
				/* A link's target is never empty. */
				if (!r.bad && !c.links[i].target[0])
					r.bad = true;
			}
		}
		rd_bytes(&r, &c.ndev, sizeof(c.ndev));
		if (!r.bad && (c.nsub + (uint64_t)c.ndev > c.nentries || c.ndev > r.left / 4 ||
			       (list && c.ndev)))
			r.bad = true;
		if (!r.bad && c.ndev && !(c.devs = calloc(c.ndev, sizeof(*c.devs))))
			r.bad = true;
		for (uint32_t i = 0; !r.bad && i < c.ndev; i++) {
			c.devs[i].name = rd_str(&r);
			rd_bytes(&r, &c.devs[i].rdev, sizeof(c.devs[i].rdev));
			rd_bytes(&r, &c.devs[i].block, sizeof(c.devs[i].block));
			if (!r.bad && !name_ok(c.devs[i].name))
				r.bad = true;
		}
		if (r.bad || recs_push(old, &c) < 0) {
			rec_fini(&c);
			r.bad = true;
		}
	}
out:
	/* A file that did not parse whole (or changed under the read) is
	 * not used at all. */
	if (r.bad || r.left > 0)
		recs_fini(old);
	free(croot);
	fclose(f);
}

static int wr(FILE *f, const void *p, size_t n)
{
	return fwrite(p, 1, n, f) == n ? 0 : -EIO;
}

static int wr_str(FILE *f, const char *s)
{
	uint32_t n = (uint32_t)strlen(s);

	return wr(f, &n, sizeof(n)) ?: wr(f, s, n);
}

/* Written to a temporary file and renamed over: a reader sees the old
 * cache or the new one. Failing to write costs the next launch a walk. */
static void cache_save(const char *file, const char *magic, const char *root, bool links,
		       const struct recs *now)
{
	char tmp[PATH_MAX + 16];
	int fd, r = 0;
	FILE *f;

	if (snprintf(tmp, sizeof(tmp), "%s.XXXXXX", file) >= (int)sizeof(tmp))
		return;
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		return;
	f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		unlink(tmp);
		return;
	}
	r = wr(f, magic, strlen(magic)) ?: wr_str(f, root);
	for (size_t i = 0; r == 0 && i < now->n; i++) {
		const struct rec *c = &now->v[i];

		r = wr_str(f, c->rel) ?: wr(f, &c->dev, sizeof(c->dev))
					     ?: wr(f, &c->ino, sizeof(c->ino))
						    ?: wr(f, &c->cs, sizeof(c->cs))
							   ?: wr(f, &c->cns, sizeof(c->cns));
		r = r ?: wr(f, &c->ms, sizeof(c->ms)) ?: wr(f, &c->mns, sizeof(c->mns))
				   ?: wr(f, &c->nentries, sizeof(c->nentries))
					  ?: wr(f, &c->gittype, sizeof(c->gittype))
						 ?: wr(f, &c->nsub, sizeof(c->nsub));
		for (uint32_t k = 0; r == 0 && k < c->nsub; k++) {
			const struct linkent *le = c->links ? &c->links[k] : NULL;
			uint8_t link = le && le->target;

			r = wr_str(f, c->subs[k]);
			if (r == 0 && links)
				r = wr(f, &link, sizeof(link));
			if (r == 0 && link)
				r = wr_str(f, le->target) ?: wr(f, &le->ino, sizeof(le->ino));
		}
		r = r ?: wr(f, &c->ndev, sizeof(c->ndev));
		for (uint32_t k = 0; r == 0 && k < c->ndev; k++)
			r = wr_str(f, c->devs[k].name) ?: wr(f, &c->devs[k].rdev, sizeof(c->devs[k].rdev))
							       ?: wr(f, &c->devs[k].block,
								     sizeof(c->devs[k].block));
	}
	if (fclose(f) != 0)
		r = -EIO;
	if (r != 0 || rename(tmp, file) != 0)
		unlink(tmp);
}

/* ------------------------------------------------------------------------
 * The search
 */

static int64_t ts_ns(int64_t s, int64_t ns)
{
	return s * 1000000000LL + ns;
}

static int64_t mono_ns(void)
{
	struct timespec t;

	return clock_gettime(CLOCK_MONOTONIC, &t) == 0 ? ts_ns(t.tv_sec, t.tv_nsec) : INT64_MAX;
}

/* old's records by rel, for old_find when the cursor misses. NULL when
 * memory runs out or a directory is there twice (not a file of ours):
 * then no record is found, and every directory is read. */
static int cmp_index(const void *a, const void *b, void *recs)
{
	const struct rec *v = recs;

	return strcmp(v[*(const size_t *)a].rel, v[*(const size_t *)b].rel);
}

static void index_make(struct search *s)
{
	s->indexed = true;
	if (!s->old.n || !(s->index = malloc(s->old.n * sizeof(*s->index))))
		return;
	for (size_t i = 0; i < s->old.n; i++)
		s->index[i] = i;
	qsort_r(s->index, s->old.n, sizeof(*s->index), cmp_index, s->old.v);
	for (size_t i = 1; i < s->old.n; i++)
		if (!strcmp(s->old.v[s->index[i - 1]].rel, s->old.v[s->index[i]].rel)) {
			free(s->index);
			s->index = NULL;
			return;
		}
}

/* The record of rel. The file holds them in the order a search meets
 * them (depth first, subdirectories in their directory's order), and so
 * does a search of an unchanged tree: the record after the last one found
 * is tried first, one strcmp; any other is found in the index. Every
 * record found is still checked against the directory's times. */
static struct rec *old_find(struct search *s, const char *rel)
{
	size_t lo = 0, hi;

	if (s->cursor < s->old.n && !strcmp(s->old.v[s->cursor].rel, rel))
		return &s->old.v[s->cursor++];
	if (!s->indexed)
		index_make(s);
	if (!s->index)
		return NULL;
	hi = s->old.n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2, k = s->index[mid];
		int c = strcmp(s->old.v[k].rel, rel);

		if (c == 0) {
			s->cursor = k + 1;
			return &s->old.v[k];
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* Ends the prefix of old that stands for now: its records move to now,
 * each with a copy of its rel (old's rel stays for old_find's index);
 * their subdirectory lists move (the callers that are still going
 * through them keep the same arrays). */
static int now_take(struct search *s)
{
	s->diverged = true;
	for (size_t i = 0; i < s->same; i++) {
		struct rec *o = &s->old.v[i];
		struct rec c = *o;

		if (!(c.rel = strdup(o->rel)) || recs_push(&s->now, &c) < 0) {
			free(c.rel);
			return -ENOMEM;
		}
		o->subs = NULL;
		o->links = NULL;
		o->nsub = 0;
		o->devs = NULL;
		o->ndev = 0;
	}
	return 0;
}

/* What now holds at the end of a search: the prefix of old, when no
 * directory differed. */
static void now_finish(struct search *s)
{
	if (s->diverged)
		return;
	for (size_t i = s->same; i < s->old.n; i++)
		rec_fini(&s->old.v[i]);
	s->old.n = s->same;
	s->now = s->old;
	s->old = (struct recs){ 0 };
}

static bool same_times(const struct rec *c, const struct stat *st)
{
	return c->dev == (uint64_t)st->st_dev && c->ino == (uint64_t)st->st_ino &&
	       c->cs == st->st_ctim.tv_sec && c->cns == st->st_ctim.tv_nsec &&
	       c->ms == st->st_mtim.tv_sec && c->mns == st->st_mtim.tv_nsec;
}

/* Reads the directory rel below rootfd ("" the root itself; open,
 * fstat: its times from the same descriptor as its entries) into c.
 * Returns 1 read, 0 nothing there (gone, not a directory, a link: what
 * the walk skips too), -EAGAIN anything else (the caller walks),
 * -ENOMEM. */
static int list_read(int rootfd, const char *rel, const struct search *s, struct rec *c,
		     struct stat *st)
{
	bool devices = s->devices, all = s->visit != NULL;
	size_t linkcap = 0;
	int fd =
		openat(rootfd, rel[0] ? rel : ".", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	struct dirent *d;
	DIR *dir;
	size_t cap = 0, devcap = 0;

	if (fd < 0)
		return errno == ENOENT || errno == ENOTDIR || errno == ELOOP ? 0 : -EAGAIN;
	if (fstat(fd, st) != 0 || !(dir = fdopendir(fd))) {
		close(fd);
		return -EAGAIN;
	}
	errno = 0;
	while ((d = readdir(dir))) {
		unsigned char type = d->d_type;
		struct stat est;

		if (d->d_name[0] == '.' &&
		    (!d->d_name[1] || (d->d_name[1] == '.' && !d->d_name[2])))
			continue;
		if (type == DT_UNKNOWN) {
			if (fstatat(dirfd(dir), d->d_name, &est, AT_SYMLINK_NOFOLLOW) != 0) {
				if (errno == ENOENT)
					continue;
				closedir(dir);
				return -EAGAIN;
			}
			type = IFTODT(est.st_mode);
		}
		c->nentries++;
		/* The listing search: every name but links, which the scans
		 * judge where they lead (or with their targets). */
		if (all && type == DT_LNK && !s->links)
			continue;
		if (!all && !strcmp(d->d_name, ".git")) {
			c->gittype = type ? type : DT_UNKNOWN;
			if (!devices)
				continue;
		}
		/* A device node: its number from lstat, as the walk's scan
		 * (gate/scan.c, visit_device) takes it. */
		if (devices && (type == DT_CHR || type == DT_BLK)) {
			if (fstatat(dirfd(dir), d->d_name, &est, AT_SYMLINK_NOFOLLOW) != 0) {
				if (errno == ENOENT)
					continue;
				closedir(dir);
				return -EAGAIN;
			}
			if (!S_ISCHR(est.st_mode) && !S_ISBLK(est.st_mode)) {
				closedir(dir);
				return -EAGAIN; /* replaced while read: the walk decides */
			}
			if (lf_grow((void **)&c->devs, &devcap, c->ndev, sizeof(*c->devs)) < 0 ||
			    !(c->devs[c->ndev].name = strdup(d->d_name))) {
				closedir(dir);
				return -ENOMEM;
			}
			c->devs[c->ndev].rdev = (uint64_t)est.st_rdev;
			c->devs[c->ndev++].block = S_ISBLK(est.st_mode);
			errno = 0;
			continue;
		}
		if (type != DT_DIR && !all)
			continue;
		struct linkent le = { NULL, (uint64_t)d->d_ino };

		if (s->links && type == DT_LNK) {
			/* A link's target never changes: the cache keeps it
			 * with the link's inode (its directory's entry). */
			char t[PATH_MAX];
			ssize_t n = readlinkat(dirfd(dir), d->d_name, t, sizeof(t));

			if (n < 0 && errno == ENOENT)
				continue;
			if (n <= 0 || (size_t)n >= sizeof(t)) {
				closedir(dir);
				return -EAGAIN;
			}
			if (!(le.target = strndup(t, (size_t)n))) {
				closedir(dir);
				return -ENOMEM;
			}
		}
		if (lf_grow((void **)&c->subs, &cap, c->nsub, sizeof(*c->subs)) < 0 ||
		    (s->links &&
		     lf_grow((void **)&c->links, &linkcap, c->nsub, sizeof(*c->links)) < 0) ||
		    !(c->subs[c->nsub] = strdup(d->d_name))) {
			free(le.target);
			closedir(dir);
			return -ENOMEM;
		}
		if (s->links)
			c->links[c->nsub] = le;
		c->nsub++;
		errno = 0;
	}
	if (errno) {
		closedir(dir);
		return -EAGAIN;
	}
	closedir(dir);
	return 1;
}

static int found_push(struct search *s, const char *path, unsigned char type, size_t depth)
{
	if (lf_grow((void **)&s->found, &s->capfound, s->nfound, sizeof(*s->found)) < 0)
		return -ENOMEM;
	struct lf_dotgit *g = &s->found[s->nfound];

	g->path = strdup(path);
	if (!g->path)
		return -ENOMEM;
	g->type = type;
	g->depth = depth;
	s->nfound++;
	return 0;
}

static int devfound_push(struct search *s, const char *dir, const struct devent *d)
{
	if (lf_grow((void **)&s->devfound, &s->capdevfound, s->ndevfound, sizeof(*s->devfound)) < 0)
		return -ENOMEM;
	struct lf_tree_devnode *g = &s->devfound[s->ndevfound];

	if (asprintf(&g->path, "%s/%s", dir, d->name) < 0)
		return -ENOMEM;
	g->rdev = (dev_t)d->rdev;
	g->block = d->block;
	s->ndevfound++;
	return 0;
}

/* a, then "/" and b when both are non-empty, into out (size bytes).
 * Returns 0, or -EAGAIN when it does not fit (the caller walks). Called
 * twice per directory of the project: no printf. */
static int join(char *out, size_t size, const char *a, const char *b)
{
	size_t al = strlen(a), bl = strlen(b), sep = al && bl;

	if (al + sep + bl >= size)
		return -EAGAIN;
	memmove(out, a, al);
	out[al] = '/';
	memcpy(out + al + sep, b, bl + 1);
	return 0;
}

/* Whether the directory of record o is there, a directory, with the
 * record's device, inode and times. Below the root's descriptor: the
 * root's own names are not looked up again for each of its directories. */
static bool rec_unchanged(const struct search *s, const struct rec *o)
{
	struct stat st;

	return fstatat(s->rootfd, o->rel[0] ? o->rel : ".", &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	       S_ISDIR(st.st_mode) && same_times(o, &st);
}

/* A cache of at least this many directories is looked at in two halves
 * at once, when two processors may run this process: each look is a
 * system call (~3 us on the development VM), two per directory a launch,
 * and the directories of a cache are known before the search starts.
 * With the second thread off the caller's processor (lf_thread_aside),
 * a launch in a project of ~500 directories took 6 to 7 % less time
 * (bench/README.md, "Eighteenth round"), one of ~300 2 % less, and one
 * of 200 2 % more: below this, the thread costs what it saves. */
#define PRESTAT_MIN 256

/* The directories are shared out 64 at a time: a thread that starts
 * late (waking another processor can take milliseconds on a VM) or runs
 * slower takes fewer, and the search waits at most for the other's last
 * 64. */
#define PRESTAT_CHUNK 64

/* A listing search's cache of at least this many entries has them
 * looked at in two halves at once, the same way: one look each (~2 us on
 * the development VM) against the second thread's start (~150 us). An
 * unprivileged launch's look at /etc: ~650 entries. */
#define PRESTAT_ENTRIES_MIN 512

struct prestat_work {
	const struct search *s;
	bool *pre;	      /* the directories' answers, or NULL */
	struct ent_pre *ents; /* the entries' answers, or NULL */
	const size_t *first;  /* with ents: each record's first entry */
	size_t chunk;	      /* records taken at a time */
	atomic_size_t next;   /* the first record nobody took yet */
};

/* Each entry of record i looked at as list_visit would (lstat below the
 * root's descriptor), into its slots of w->ents. */
static void prestat_entries(const struct prestat_work *w, size_t i)
{
	const struct search *s = w->s;
	const struct rec *o = &s->old.v[i];
	char path[PATH_MAX];

	for (uint32_t k = 0; k < o->nsub; k++) {
		struct ent_pre *e = &w->ents[w->first[i] + k];

		if (join(path, sizeof(path), o->rel, o->subs[k]) < 0)
			e->err = ENAMETOOLONG;
		else
			e->err = fstatat(s->rootfd, path, &e->st, AT_SYMLINK_NOFOLLOW) == 0 ? 0
											    : errno;
	}
}

static void *prestat_run(void *arg)
{
	struct prestat_work *w = arg;
	size_t n = w->s->old.n;

	for (;;) {
		size_t from = atomic_fetch_add(&w->next, w->chunk);

		if (from >= n)
			return NULL;
		for (size_t i = from; i < n && i < from + w->chunk; i++) {
			if (w->ents)
				prestat_entries(w, i);
			else
				w->pre[i] = rec_unchanged(w->s, &w->s->old.v[i]);
		}
	}
}

int lf_thread_aside(pthread_t *t, size_t stack, void *(*fn)(void *), void *arg)
{
	sigset_t all, mask;
	pthread_attr_t attr;
	cpu_set_t cpus;
	int r, self;

	/* The first thread's: a thread set aside itself may run on one
	 * processor only (the search begun ahead shares its look-ahead). */
	if (sched_getaffinity(getpid(), sizeof(cpus), &cpus) != 0 || CPU_COUNT(&cpus) < 2)
		return EAGAIN;
	if ((r = pthread_attr_init(&attr)) != 0)
		return r;
	self = sched_getcpu();
	if (self >= 0 && self < CPU_SETSIZE && CPU_ISSET(self, &cpus)) {
		CPU_CLR(self, &cpus);
		/* A hint: where it cannot be given, anywhere. */
		(void)pthread_attr_setaffinity_np(&attr, sizeof(cpus), &cpus);
	}
	(void)pthread_attr_setstacksize(&attr, stack); /* else the default */
	sigfillset(&all);
	r = pthread_sigmask(SIG_SETMASK, &all, &mask);
	if (r == 0) {
		r = pthread_create(t, &attr, fn, arg);
		(void)pthread_sigmask(SIG_SETMASK, &mask, NULL); /* as it was */
	}
	(void)pthread_attr_destroy(&attr);
	return r;
}

/* Fills s->pre for a large cache (the listing search: s->ents and
 * s->first, for a cache of many entries): a thread set aside
 * (lf_thread_aside, a small stack) and this one look at old's
 * directories (their entries) together, and the thread is joined before
 * the search. Anything that fails leaves them NULL: the search looks at
 * each directory (entry) itself. Each look is the one the search would
 * make, a little earlier: what a directory held when it was looked at,
 * as before. */
static void prestat(struct search *s)
{
	struct prestat_work w = { .s = s, .chunk = PRESTAT_CHUNK };
	size_t *first = NULL, nents = 0;
	pthread_t t;

	if (s->visit) {
		for (size_t i = 0; i < s->old.n; i++)
			nents += s->old.v[i].nsub;
		if (nents < PRESTAT_ENTRIES_MIN || !(first = malloc(s->old.n * sizeof(*first))) ||
		    !(w.ents = malloc(nents * sizeof(*w.ents)))) {
			free(first);
			return;
		}
		nents = 0;
		for (size_t i = 0; i < s->old.n; i++) {
			first[i] = nents;
			nents += s->old.v[i].nsub;
		}
		w.first = first;
		w.chunk = 1; /* a directory's entries: tens, /etc's hundreds */
	} else if (s->old.n < PRESTAT_MIN || !(w.pre = malloc(s->old.n * sizeof(*w.pre)))) {
		return;
	}
	atomic_init(&w.next, 0);
	if (lf_thread_aside(&t, 64u << 10, prestat_run, &w) != 0) {
		free(w.pre);
		free(w.ents);
		free(first);
		return;
	}
	prestat_run(&w);
	if (pthread_join(t, NULL) != 0)
		return; /* never: the thread may still write the answers, which are left */
	s->pre = w.pre;
	s->ents = w.ents;
	s->first = first;
}

/* Whether a record's times are old enough to move on a change: only
 * such records are kept. */
static bool rec_settled(const struct search *s, const struct rec *c)
{
	return ts_ns(c->cs, c->cns) < s->start_ns - RACY_NS &&
	       ts_ns(c->ms, c->mns) < s->start_ns - RACY_NS;
}

static int search_dir(struct search *s, const char *rel, size_t depth, const struct stat *known);

/* The listing search's look at the entries of the directory at path
 * (rel below the root, in the same buffer, of size bytes): each but a
 * link looked at (lstat) and given to the visitor, which says whether to
 * descend. Returns 0, -EAGAIN (the caller walks: an entry that cannot be
 * looked at, a visitor that stops), -ENOMEM. */
static int list_visit(struct search *s, char *path, size_t size, size_t depth, char *const *names,
		      const struct linkent *links, uint32_t n, bool cached,
		      const struct ent_pre *pre)
{
	size_t pl = strlen(path), rootlen = strlen(s->root);
	int r = 0;

	for (uint32_t i = 0; r == 0 && i < n; i++) {
		size_t nl = strlen(names[i]);
		struct stat st;

		if (pl + 1 + nl >= size)
			return -EAGAIN;
		path[pl] = '/';
		memcpy(path + pl + 1, names[i], nl + 1);
		/* path is the root, then rel: looked up below the root's
		 * descriptor (or looked up so before the search: pre). */
		int err = 0;

		if (pre && !(err = pre[i].err))
			st = pre[i].st;
		else if (!pre &&
			 fstatat(s->rootfd, path + rootlen + 1, &st, AT_SYMLINK_NOFOLLOW) != 0)
			err = errno;
		if (err) {
			/* Gone from a listing read now: as the walk, nothing
			 * to see. Gone from one the cache gave for a directory
			 * whose times did not move: the cache and the disk
			 * disagree, and the walk decides. */
			if (err != ENOENT || cached)
				r = -EAGAIN;
			continue;
		}
		const char *target = NULL;
		char t[PATH_MAX];

		if (S_ISLNK(st.st_mode) && !s->links)
			continue;
		if (S_ISLNK(st.st_mode)) {
			/* The target kept with the same link (its inode),
			 * else read now. */
			if (links && links[i].target && links[i].ino == (uint64_t)st.st_ino) {
				target = links[i].target;
			} else {
				ssize_t tl =
					readlinkat(s->rootfd, path + rootlen + 1, t, sizeof(t));

				if (tl <= 0 || (size_t)tl >= sizeof(t)) {
					if (tl < 0 && errno == ENOENT)
						continue;
					r = -EAGAIN;
					continue;
				}
				t[tl] = '\0';
				target = t;
			}
		}
		int v = s->visit(s->ctx, path, &st, target);

		if (v < 0)
			r = v;
		else if (v == LF_WALK_STOP)
			r = -EAGAIN;
		else if (v == LF_WALK_NEXT && S_ISDIR(st.st_mode) && !target)
			r = search_dir(s, path + rootlen + 1, depth + 1, &st);
	}
	path[pl] = '\0';
	return r;
}

/* One directory (rel below the root, at depth: its entries' depth), then
 * its subdirectories. known: the directory's lstat, taken by the listing
 * search in its parent (or of the root), NULL for the other searches.
 * Returns 0, -EAGAIN (walk instead), -ENOMEM. */
static int search_dir(struct search *s, const char *rel, size_t depth, const struct stat *known)
{
	char path[PATH_MAX];
	struct stat st;
	struct rec c = { 0 };
	struct rec *o;
	int r;

	if (s->cancel && atomic_load(s->cancel))
		return -ECANCELED;
	/* Deeper trees are the walk's (it keeps its levels on the heap). */
	if (depth > TREE_MAX_DEPTH || join(path, sizeof(path), s->root, rel) < 0)
		return -EAGAIN;
	o = old_find(s, rel);
	/* Below the root's descriptor: the root's own names are not looked
	 * up again for each of its directories. The listing search has
	 * looked at each directory already. */
	bool hit = o && (known	  ? S_ISDIR(known->st_mode) && same_times(o, known)
			 : s->pre ? s->pre[o - s->old.v]
				  : rec_unchanged(s, o));
	/* Unchanged and next in old's order while all before it were too:
	 * the record stays where it is, and c only looks at it. */
	bool borrowed = hit && !s->diverged && o == &s->old.v[s->same] && rec_settled(s, o);

	if (!borrowed && !s->diverged && (r = now_take(s)) < 0)
		return r;
	if (borrowed) {
		c = *o;
	} else if (hit) {
		c = (struct rec){ .dev = o->dev,
				  .ino = o->ino,
				  .cs = o->cs,
				  .cns = o->cns,
				  .ms = o->ms,
				  .mns = o->mns,
				  .nentries = o->nentries,
				  .gittype = o->gittype };
		/* Its subdirectories move over: each directory is looked
		 * up once per search (unique paths). */
		c.subs = o->subs;
		c.links = o->links;
		c.nsub = o->nsub;
		o->subs = NULL;
		o->links = NULL;
		o->nsub = 0;
		c.devs = o->devs;
		c.ndev = o->ndev;
		o->devs = NULL;
		o->ndev = 0;
	} else {
		r = list_read(s->rootfd, rel, s, &c, &st);
		/* The listing search judged the directory it looked at: the
		 * one read must be it (else it was replaced meanwhile). */
		if (r > 0 && known && (st.st_dev != known->st_dev || st.st_ino != known->st_ino))
			r = -EAGAIN;
		if (r <= 0) {
			rec_fini(&c);
			return r;
		}
		c.dev = (uint64_t)st.st_dev;
		c.ino = (uint64_t)st.st_ino;
		c.cs = st.st_ctim.tv_sec;
		c.cns = st.st_ctim.tv_nsec;
		c.ms = st.st_mtim.tv_sec;
		c.mns = st.st_mtim.tv_nsec;
	}
	/* The walk's budget, in what this costs (a directory found unchanged
	 * costs one lstat, one read costs its entries): beyond it the walk
	 * runs, and says what it could not see. What was read so far is kept,
	 * so a tree too large for one launch is known after a few. */
	s->work += hit && !s->visit ? 1 : c.nentries;
	s->dirs++;
	r = s->work > s->budget || mono_ns() - s->start_mono > LF_WALK_MAX_MILLIS * 1000000LL
		    ? -EAGAIN
		    : 0;
	for (uint32_t i = 0; r == 0 && s->devices && i < c.ndev; i++)
		r = devfound_push(s, path, &c.devs[i]);
	if (r == 0 && c.gittype && !s->devices && !s->visit) {
		size_t pl = strlen(path);

		r = pl + sizeof("/.git") > sizeof(path) ? -EAGAIN : 0;
		if (r == 0) {
			memcpy(path + pl, "/.git", sizeof("/.git"));
			r = found_push(s, path, c.gittype, depth);
		}
	}
	bool keep = borrowed || rec_settled(s, &c);

	/* A listing read again and kept is news for the file. One that
	 * cannot be kept yet (changed in the last two seconds) is not: the
	 * file would be rewritten without it at each launch while an agent
	 * works in the directory, and the next search reads it again
	 * whether or not the file was rewritten. */
	if (!hit && keep)
		s->changed = true;
	char **subs = c.subs;
	uint32_t nsub = c.nsub;

	if (r == 0 && borrowed)
		s->same++;
	else if (r == 0 && (!(c.rel = strdup(rel)) || (keep && recs_push(&s->now, &c) < 0)))
		r = -ENOMEM;
	if (r < 0) {
		if (!borrowed)
			rec_fini(&c);
		return r;
	}
	/* path is free again: each subdirectory's rel is made in it (one
	 * buffer per level, and the levels are bounded: TREE_MAX_DEPTH). */
	if (s->visit)
		r = join(path, sizeof(path), s->root, rel)
			    ?: list_visit(s, path, sizeof(path), depth, subs, c.links, nsub, hit,
					  hit && s->ents ? s->ents + s->first[o - s->old.v] : NULL);
	for (uint32_t i = 0; r == 0 && !s->visit && i < nsub; i++)
		r = join(path, sizeof(path), rel, subs[i]) ?: search_dir(s, path, depth + 1, NULL);
	if (!keep)
		rec_fini(&c);
	return r;
}

/* At most this many caches are kept (a project's nested-repository
 * search, and without a mount namespace each grant's device search): the
 * directory is a fence, which the pre-launch scans walk, and scratch
 * projects (tests, one-off clones) would otherwise leave files for ever. */
#define CACHE_KEEP 128

struct aged {
	char name[32];
	int64_t used_ns;
};

static int cmp_aged(const void *a, const void *b)
{
	const struct aged *x = a, *y = b;

	return x->used_ns < y->used_ns ? -1 : x->used_ns > y->used_ns;
}

/* Whether name is a cache file's: "tree-", "list-", "dev-" or "pol-" (a
 * compiled policy, src/project/polcache.c) and 16 hexadecimal digits. */
static bool cache_name(const char *name)
{
	size_t p = !strncmp(name, "tree-", 5)	 ? 5
		   : !strncmp(name, "list-", 5)	 ? 5
		   : !strncmp(name, "links-", 6) ? 6
		   : !strncmp(name, "dev-", 4)	 ? 4
		   : !strncmp(name, "pol-", 4)	 ? 4
						 : 0;

	return p && strlen(name) == p + 16 && strspn(name + p, "0123456789abcdef") == 16;
}

/* Removes the least recently used cache files beyond CACHE_KEEP, when a
 * new one has been made. A cache that answers without a change is read,
 * not written, so its use is the later of its access time (which the
 * kernel's default "relatime" moves at most once a day on a read) and
 * its modification time (with "noatime", the modification time alone).
 * Best effort: a cache that stays costs a little space and a few entries
 * of the fence's scans; one removed while in use costs its project one
 * walk. */
void lf_cache_prune(const char *dir)
{
	DIR *d = lf_dir_open(dir, O_NOFOLLOW);
	struct aged *v = NULL;
	size_t n = 0, cap = 0;
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d))) {
		struct stat st;

		if (!cache_name(e->d_name) ||
		    fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
		    !S_ISREG(st.st_mode))
			continue;
		if (lf_grow((void **)&v, &cap, n, sizeof(*v)) < 0)
			break;
		/* cache_name: 21 characters at most. */
		snprintf(v[n].name, sizeof(v[n].name), "%.31s", e->d_name);
		v[n].used_ns = ts_ns(st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
		if (ts_ns(st.st_atim.tv_sec, st.st_atim.tv_nsec) > v[n].used_ns)
			v[n].used_ns = ts_ns(st.st_atim.tv_sec, st.st_atim.tv_nsec);
		n++;
	}
	if (n > CACHE_KEEP) {
		qsort(v, n, sizeof(*v), cmp_aged);
		for (size_t i = 0; i < n - CACHE_KEEP; i++)
			(void)unlinkat(dirfd(d), v[i].name, 0); /* gone already: fine */
	}
	free(v);
	closedir(d);
}

int lf_cache_forget(const char *config_dir, const char *const *names, size_t n, bool *left)
{
	char dir[PATH_MAX];
	struct stat st;
	int gone = 0, r = 0, fd = -1;

	for (size_t i = 0; left && i < n; i++)
		left[i] = true;
	if (n == 0)
		return 0;
	/* Only the cache directory that lf_cache_dir would use, opened
	 * without following a link and checked again through the
	 * descriptor: nothing else is removed through it. */
	if ((r = lf_cache_dir(config_dir, false, dir, sizeof(dir))) < 0) {
		/* No cache directory there: no file left in it either. */
		for (size_t i = 0; left && r == -ENOENT && i < n; i++)
			left[i] = false;
		return r;
	}
	fd = open(dir, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != geteuid()) {
		close(fd);
		return -EPERM;
	}
	for (size_t i = 0; i < n; i++) {
		if (!cache_name(names[i]) && strcmp(names[i], LF_CACHE_NS_PROBE) != 0)
			continue; /* not ours to remove: still there */
		bool removed = unlinkat(fd, names[i], 0) == 0;

		if (removed)
			gone++;
		if (left && (removed || errno == ENOENT))
			left[i] = false;
	}
	close(fd);
	return gone;
}

/* What the last searches of this process saw, by cache file: the run's
 * search for git directories after the program (maskfacts.c) starts from
 * the records the search before it left, instead of reading and parsing
 * the file again (a 200,000-file project's is 180 KB). The records are
 * what the search before it kept (what it wrote to the file, when it
 * wrote it), out of the sandbox's reach; each is still checked against
 * the directory's times as the file's would be. */
#define KEPT_MAX 8

static struct kept {
	char *file;	  /* the cache file, a newline, the root (as cache_load checks) */
	struct recs recs; /* in the order the search met them */
	bool filed;	  /* the file was there after that search */
} kept[KEPT_MAX];

/* A search begun ahead runs beside the launching thread's searches. */
static pthread_mutex_t kept_lock = PTHREAD_MUTEX_INITIALIZER;

static bool kept_take(const char *file, struct recs *out, bool *filed)
{
	bool found = false;

	(void)pthread_mutex_lock(&kept_lock);
	for (size_t i = 0; !found && i < KEPT_MAX; i++)
		if (kept[i].file && !strcmp(kept[i].file, file)) {
			*out = kept[i].recs;
			*filed = kept[i].filed;
			kept[i].recs = (struct recs){ 0 };
			free(kept[i].file);
			kept[i].file = NULL;
			found = true;
		}
	(void)pthread_mutex_unlock(&kept_lock);
	return found;
}

/* Keeps recs (moved) for file (filed: the cache file is there); the
 * oldest entry makes room. */
static void kept_put(const char *file, struct recs *recs, bool filed)
{
	static size_t next;
	char *copy = strdup(file);
	struct recs gone;

	if (!copy) {
		recs_fini(recs);
		return;
	}
	(void)pthread_mutex_lock(&kept_lock);
	struct kept *k = &kept[next];
	next = (next + 1) % KEPT_MAX;
	free(k->file);
	gone = k->recs;
	k->file = copy;
	k->recs = *recs;
	k->filed = filed;
	(void)pthread_mutex_unlock(&kept_lock);
	recs_fini(&gone);
	*recs = (struct recs){ 0 };
}

/* The cache file of root's search of kind prefix, in the cache
 * directory dir, into file (of size bytes: PATH_MAX + 32). */
static void cache_file(char *file, size_t size, const char *dir, const char *prefix,
		       const char *root)
{
	snprintf(file, size, "%s/%s-%016llx", dir, prefix,
		 (unsigned long long)lf_fnv(root, strlen(root)));
}

/* A tree of fewer directories than this gets no cache file. Each file
 * in the cache directory costs every launch of every project four looks
 * (the two hard-link scans walk the configuration directory, a fence; the
 * persistence snapshot looks at each cache before and after the run), and
 * using one costs its own launch the cache directory's checks and a read:
 * more than reading the listings of a few directories again. With 122
 * cache files a launch took 20 % longer than with 2 (bench/README.md,
 * "Nineteenth round"). */
#define CACHE_MIN_DIRS 16

/* The search of root below config_dir's cache: 1 whole (s->found or
 * s->devfound), 0 the caller walks, -ENOMEM, -ECANCELED (s->cancel). */
static int search_run(const char *config_dir, const char *root, struct search *s)
{
	const char *magic = s->links	 ? CACHE_MAGIC_LINKS
			    : s->visit	 ? CACHE_MAGIC_LIST
			    : s->devices ? CACHE_MAGIC_DEV
					 : CACHE_MAGIC_GIT;
	const char *prefix = s->links ? "links" : s->visit ? "list" : s->devices ? "dev" : "tree";
	char file[PATH_MAX + 32], dir[PATH_MAX];
	struct timespec now;
	struct stat rootst;
	int r;

	s->root = root;
	/* The root "/" (a project named so with -C) is walked as before;
	 * so is everything when the budget in the environment is bad (the
	 * walk says so). */
	if (!config_dir || config_dir[0] != '/' || !root || root[0] != '/' || !root[1] ||
	    (!s->visit && lf_walk_budget_entries(&s->budget) < 0) ||
	    clock_gettime(CLOCK_REALTIME, &now) != 0 ||
	    snprintf(dir, sizeof(dir), "%s/cache", config_dir) >= (int)sizeof(dir))
		return 0;
	cache_file(file, sizeof(file), dir, prefix, root);
	s->start_ns = ts_ns(now.tv_sec, now.tv_nsec);
	s->start_mono = mono_ns();
	char *key = NULL;

	if (asprintf(&key, "%s\n%s", file, root) < 0)
		return -ENOMEM;
	/* A root that cannot be opened as a directory (gone, replaced by a
	 * link) is the walk's, which says what it could not see. */
	s->rootfd = open(root, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (s->rootfd >= 0 && s->visit && fstat(s->rootfd, &rootst) != 0) {
		close(s->rootfd);
		s->rootfd = -1;
	}
	if (s->rootfd < 0) {
		free(key);
		return 0;
	}
	/* Read only from a cache directory beyond the program's reach
	 * (lf_cache_dir): else every directory is read again. A file that is
	 * not there (a small tree's) needs no look at the directory. */
	struct stat fst;
	bool filed = false;

	if (!kept_take(key, &s->old, &filed) && lstat(file, &fst) == 0 &&
	    lf_cache_dir(config_dir, false, dir, sizeof(dir)) == 0) {
		cache_load(file, magic, root, s->links, &s->old);
		filed = true;
	}
	prestat(s);
	r = search_dir(s, "", 1, s->visit ? &rootst : NULL);
	free(s->pre);
	free(s->ents);
	free(s->first);
	now_finish(s);
	/* Only a whole search knows the tree is small: one handed back to
	 * the walk keeps what it read, as before. */
	bool small = r == 0 && s->dirs < CACHE_MIN_DIRS;

	if (small && filed) {
		/* Kept when the tree was larger: now a cost for every launch. */
		const char *name = strrchr(file, '/') + 1;

		(void)lf_cache_forget(config_dir, &name, 1, NULL);
		filed = false;
	}
	if ((r == 0 || r == -EAGAIN) && s->changed && !small &&
	    lf_cache_dir(config_dir, true, dir, sizeof(dir)) == 0) {
		struct stat st;
		bool fresh = lstat(file, &st) != 0;

		cache_save(file, magic, root, s->links, &s->now);
		filed = true;
		if (fresh) {
			lf_cache_prune(dir);
			lf_cache_sweep(dir);
		}
	}
	recs_fini(&s->old);
	free(s->index);
	/* What the file now holds (a small tree: what it would), for the
	 * next search of this process. */
	if (r == 0 || r == -EAGAIN)
		kept_put(key, &s->now, filed);
	else
		recs_fini(&s->now);
	free(key);
	close(s->rootfd);
	return r == -EAGAIN ? 0 : r < 0 ? r : 1;
}

int lf_treecache_dotgits(const char *config_dir, const char *root, struct lf_dotgit **out,
			 size_t *nout)
{
	struct search s = { 0 };
	int r = search_run(config_dir, root, &s);

	*out = NULL;
	*nout = 0;
	if (r <= 0) {
		lf_dotgits_free(s.found, s.nfound);
		return r;
	}
	*out = s.found;
	*nout = s.nfound;
	return 1;
}

/* A search begun ahead is worth its thread from a cache file of this
 * size on: 1,024 directories of REC_MIN bytes or more. Measured on
 * the development VM: a 10,000-directory project with a 10,000-rule
 * policy 7 % faster, 2,201 directories and the default policy no faster,
 * 200 directories 1 % slower (the search, ~0.5 ms, then overlaps little
 * but pays for the thread). */
#define AHEAD_MIN_BYTES (1024 * REC_MIN)

/* The thread's frames: search_run's two paths, and a path per level of
 * search_dir and list_visit, TREE_MAX_DEPTH levels at most. */
#define AHEAD_STACK ((size_t)(TREE_MAX_DEPTH + 4) * 3 * PATH_MAX + (256u << 10))

struct lf_search_ahead {
	pthread_t thread;
	char *config_dir, *root;
	struct search s;
	int r;		    /* search_run's, once joined */
	bool joined;	    /* the thread is gone */
	atomic_bool cancel; /* the answer is no longer wanted */
};

static void *ahead_run(void *arg)
{
	struct lf_search_ahead *a = arg;

	a->r = search_run(a->config_dir, a->root, &a->s);
	return NULL;
}

struct lf_search_ahead *lf_treecache_dotgits_ahead(const char *config_dir, const char *root)
{
	char file[PATH_MAX + 32], dir[PATH_MAX];
	struct lf_search_ahead *a;
	struct stat st;

	if (!config_dir || config_dir[0] != '/' || !root || root[0] != '/' || !root[1] ||
	    snprintf(dir, sizeof(dir), "%s/cache", config_dir) >= (int)sizeof(dir))
		return NULL;
	cache_file(file, sizeof(file), dir, "tree", root);
	if (stat(file, &st) != 0 || st.st_size < AHEAD_MIN_BYTES || !(a = calloc(1, sizeof(*a))))
		return NULL;
	a->config_dir = strdup(config_dir);
	a->root = strdup(root);
	atomic_init(&a->cancel, false);
	a->s.cancel = &a->cancel;
	if (!a->config_dir || !a->root ||
	    lf_thread_aside(&a->thread, AHEAD_STACK, ahead_run, a) != 0) {
		free(a->config_dir);
		free(a->root);
		free(a);
		return NULL;
	}
	return a;
}

/* Waits for a's thread. */
static void ahead_join(struct lf_search_ahead *a)
{
	if (a->joined)
		return;
	if (pthread_join(a->thread, NULL) != 0)
		abort(); /* never: the thread would still write the answer */
	a->joined = true;
}

int lf_treecache_dotgits_join(struct lf_search_ahead *a, const char *config_dir, const char *root,
			      struct lf_dotgit **out, size_t *nout)
{
	/* Only the search asked for, and only once: else one made now. */
	if (!a || a->joined || !config_dir || !root || strcmp(a->config_dir, config_dir) != 0 ||
	    strcmp(a->root, root) != 0)
		return lf_treecache_dotgits(config_dir, root, out, nout);
	ahead_join(a);
	*out = NULL;
	*nout = 0;
	if (a->r <= 0)
		return a->r;
	*out = a->s.found;
	*nout = a->s.nfound;
	a->s.found = NULL;
	a->s.nfound = 0;
	return 1;
}

void lf_treecache_ahead_free(struct lf_search_ahead *a)
{
	if (!a)
		return;
	atomic_store(&a->cancel, true);
	ahead_join(a);
	lf_dotgits_free(a->s.found, a->s.nfound);
	free(a->config_dir);
	free(a->root);
	free(a);
}

int lf_treecache_devnodes(const char *config_dir, const char *root, struct lf_tree_devnode **out,
			  size_t *nout)
{
	struct search s = { .devices = true };
	int r = search_run(config_dir, root, &s);

	*out = NULL;
	*nout = 0;
	if (r <= 0) {
		lf_tree_devnodes_free(s.devfound, s.ndevfound);
		return r;
	}
	*out = s.devfound;
	*nout = s.ndevfound;
	return 1;
}

int lf_treecache_list(const char *config_dir, const char *root, size_t max_entries, unsigned flags,
		      lf_treecache_visit_fn visit, void *ctx)
{
	struct search s = {
		.visit = visit, .ctx = ctx, .budget = max_entries, .links = flags & LF_LIST_LINKS
	};

	if (!visit || !max_entries)
		return 0;
	int r = search_run(config_dir, root, &s);

	lf_dotgits_free(s.found, s.nfound); /* none: the listing keeps no .git */
	return r;
}
