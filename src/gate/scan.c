/* SPDX-License-Identifier: MIT */
/*
 * Hard-link, device-node and persistence checks made before launch
 * (scan.h), on the one walker (src/fs/walk.c).
 *
 * The hard-link scan has two phases. First every fence of the tree is
 * walked for regular files with more than one name: the candidates. In the
 * usual tree there are none and the scan ends there, without looking at
 * any grant. Only then are the granted roots of the candidates' classes
 * walked, on the candidates' file systems only, and the walk stops early
 * once every candidate's other names have been found.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "core/model.h"
#include "core/path.h"
#include "core/tables.h"
#include "fs/treecache.h"
#include "gate/scan.h"

struct candidate {
	dev_t dev;
	ino_t ino;
	nlink_t nlink;
	nlink_t found; /* names seen so far, below fences or grants */
	unsigned access;
	char *path;
	const char *fence;
};

struct scan {
	struct candidate *cand;
	size_t ncand, capcand;
	const struct lf_path_access *fences;
	size_t nfences;
	bool dino_ok; /* readdir's d_ino equals st_ino on the candidates' file systems */
	unsigned cur_access;
	const char *cur_root;
	struct lf_hardlink_report *rep;
	size_t caphits;
};

static bool below_fence(const struct scan *s, const char *path, unsigned access)
{
	for (size_t i = 0; i < s->nfences; i++)
		if ((s->fences[i].access & access) && lf_path_covers(s->fences[i].path, path))
			return true;
	return false;
}

static bool dev_wanted(const struct scan *s, dev_t dev)
{
	for (size_t i = 0; i < s->ncand; i++)
		if (s->cand[i].dev == dev)
			return true;
	return false;
}

static bool all_found(const struct scan *s)
{
	for (size_t i = 0; i < s->ncand; i++)
		if (s->cand[i].found < s->cand[i].nlink)
			return false;
	return true;
}

/* Walk options shared by every scan: the caller's budget, or the
 * walker's defaults. */
static void walk_init(struct lf_walk *w, lf_walk_fn visit, void *ctx,
		      const struct lf_walk_budget *budget)
{
	memset(w, 0, sizeof(*w));
	w->visit = visit;
	w->ctx = ctx;
	if (budget)
		w->budget = *budget;
	lf_walk_begin(w);
}

/* Ends a scan's walk: what it saw and whether it saw all. Returns r. */
static int walk_finish(struct lf_walk *w, int r, size_t *seen, bool *incomplete, char *reason,
		       size_t size)
{
	*seen = w->entries;
	if (w->incomplete) {
		*incomplete = true;
		snprintf(reason, size, "%s", w->reason ? w->reason : "incomplete");
	}
	lf_walk_end(w);
	return r;
}

/* Whether a scan walks this root, after setting up for it. */
typedef bool (*root_fn)(void *ctx, const struct lf_path_access *root);

/* Walks each root take() accepts, in order, until an error or a stop. */
static int walk_roots(struct lf_walk *w, const struct lf_path_access *roots, size_t n, root_fn take,
		      void *ctx)
{
	int r = 0;

	for (size_t i = 0; i < n && r == 0 && !w->stopped; i++)
		if (take(ctx, &roots[i]))
			r = lf_walk_run(w, roots[i].path);
	return r;
}

static int entry_stat(const struct lf_walk_entry *e, struct stat *st)
{
	if (fstatat(e->dirfd, e->name, st, AT_SYMLINK_NOFOLLOW) != 0)
		return -errno;
	return 0;
}

static int visit_fenced(void *ctx, const struct lf_walk_entry *e)
{
	struct scan *s = ctx;
	struct stat st;

	if (e->type == DT_DIR)
		return LF_WALK_NEXT;
	if (e->type != DT_REG || entry_stat(e, &st) < 0 || !S_ISREG(st.st_mode) || st.st_nlink < 2)
		return LF_WALK_NEXT;
	for (size_t i = 0; i < s->ncand; i++) {
		struct candidate *c = &s->cand[i];
		if (c->dev == st.st_dev && c->ino == st.st_ino) {
			/* Two fences, or two names below fences: count the
			 * name once and widen the classes it is fenced in. */
			c->access |= s->cur_access;
			if (strcmp(c->path, e->path) != 0)
				c->found++;
			return LF_WALK_NEXT;
		}
	}
	if (lf_grow((void **)&s->cand, &s->capcand, s->ncand, sizeof(*s->cand)) < 0)
		return -ENOMEM;
	char *copy = strdup(e->path);
	if (!copy)
		return -ENOMEM;
	s->cand[s->ncand++] = (struct candidate){
		.dev = st.st_dev,
		.ino = st.st_ino,
		.nlink = st.st_nlink,
		.found = 1,
		.access = s->cur_access,
		.path = copy,
		.fence = s->cur_root,
	};
	return LF_WALK_NEXT;
}

static int add_hit(struct scan *s, const struct candidate *c, const char *path)
{
	struct lf_hardlink_report *rep = s->rep;

	for (size_t i = 0; i < rep->nhits; i++)
		if (!strcmp(rep->hits[i].granted_path, path) && rep->hits[i].dev == c->dev &&
		    rep->hits[i].ino == c->ino) {
			rep->hits[i].access |= c->access & s->cur_access;
			return 0; /* a name seen again through an overlapping root */
		}
	if (lf_grow((void **)&rep->hits, &s->caphits, rep->nhits, sizeof(*rep->hits)) < 0)
		return -ENOMEM;
	struct lf_hardlink_hit *h = &rep->hits[rep->nhits];
	h->fenced_path = strdup(c->path);
	h->granted_path = strdup(path);
	if (!h->fenced_path || !h->granted_path) {
		free(h->fenced_path);
		free(h->granted_path);
		return -ENOMEM;
	}
	h->fence = c->fence;
	h->root = s->cur_root;
	h->access = c->access & s->cur_access;
	h->dev = c->dev;
	h->ino = c->ino;
	rep->nhits++;
	return 1;
}

/* Whether a regular file below a grant can be passed over without a stat:
 * only a candidate's inode number is worth one (the device is compared
 * after it), where the file systems give readdir the real numbers. */
static bool skip_granted(const struct scan *s, const struct lf_walk_entry *e)
{
	if (!s->dino_ok || e->depth == 0)
		return false;
	for (size_t i = 0; i < s->ncand; i++)
		if (s->cand[i].ino == e->ino)
			return false;
	return true;
}

static int visit_granted(void *ctx, const struct lf_walk_entry *e)
{
	struct scan *s = ctx;
	struct stat st;

	if (e->type != DT_DIR && (e->type != DT_REG || skip_granted(s, e)))
		return LF_WALK_NEXT;
	if (entry_stat(e, &st) < 0)
		return LF_WALK_NEXT;
	/* Another file system holds no second name of a candidate. */
	if (S_ISDIR(st.st_mode))
		return dev_wanted(s, st.st_dev) ? LF_WALK_NEXT : LF_WALK_SKIP;
	if (!S_ISREG(st.st_mode) || st.st_nlink < 2)
		return LF_WALK_NEXT;
	for (size_t i = 0; i < s->ncand; i++) {
		struct candidate *c = &s->cand[i];
		if (c->dev != st.st_dev || c->ino != st.st_ino)
			continue;
		if (!(c->access & s->cur_access) || !strcmp(c->path, e->path))
			return LF_WALK_NEXT;
		if (below_fence(s, e->path, c->access & s->cur_access))
			return LF_WALK_NEXT;
		int r = add_hit(s, c, e->path);
		if (r <= 0)
			return r;
		c->found++;
		/* Every name is accounted for: nothing more to find. */
		return c->found >= c->nlink && all_found(s) ? LF_WALK_STOP : LF_WALK_NEXT;
	}
	return LF_WALK_NEXT;
}

/* Whether every candidate lies on a file system whose readdir gives the
 * same inode numbers as stat: the local ones below do; overlayfs and
 * network or FUSE file systems may not, and there every file is stat'ed. */
static bool dino_trusted(const struct scan *s)
{
	static const unsigned long same[] = {
		0xEF53,	    /* ext2, ext3, ext4 */
		0x58465342, /* xfs */
		0x9123683E, /* btrfs */
		0x01021994, /* tmpfs */
		0xF2F52010, /* f2fs */
	};

	for (size_t i = 0; i < s->ncand; i++) {
		struct statfs fs;
		bool ok = false;

		if (statfs(s->cand[i].path, &fs) != 0)
			return false;
		for (size_t k = 0; k < sizeof(same) / sizeof(same[0]); k++)
			ok = ok || (unsigned long)fs.f_type == same[k];
		if (!ok)
			return false;
	}
	return true;
}

static int roots_valid(const struct lf_path_access *v, size_t n)
{
	if (n && !v)
		return -EINVAL;
	for (size_t i = 0; i < n; i++)
		if (!v[i].path || v[i].path[0] != '/')
			return -EINVAL;
	return 0;
}

static bool take_fence(void *ctx, const struct lf_path_access *root)
{
	struct scan *s = ctx;

	s->cur_access = root->access;
	s->cur_root = root->path;
	return root->access & (LF_ACCESS_RO | LF_ACCESS_RW);
}

/* A grant of a class some candidate has, on a candidate's file system (a
 * granted directory elsewhere holds no second name of one). */
static bool take_grant(void *ctx, const struct lf_path_access *root)
{
	struct scan *s = ctx;
	struct stat st;
	unsigned want = 0;

	for (size_t j = 0; j < s->ncand; j++)
		want |= s->cand[j].access;
	if (!(root->access & want) ||
	    (stat(root->path, &st) == 0 && S_ISDIR(st.st_mode) && !dev_wanted(s, st.st_dev)))
		return false;
	s->cur_access = root->access;
	s->cur_root = root->path;
	return true;
}

int lf_hardlink_scan(const struct lf_path_access *fences, size_t nfences,
		     const struct lf_path_access *grants, size_t ngrants,
		     const struct lf_walk_budget *budget, struct lf_hardlink_report *out)
{
	struct lf_hardlink_report rep = { 0 };
	struct scan s = { .fences = fences, .nfences = nfences, .rep = &rep };
	struct lf_walk w;
	int r;

	if (!out || roots_valid(fences, nfences) < 0 || roots_valid(grants, ngrants) < 0)
		return -EINVAL;
	walk_init(&w, visit_fenced, &s, budget);
	r = walk_roots(&w, fences, nfences, take_fence, &s);
	rep.candidates = s.ncand;
	if (r == 0 && s.ncand && !all_found(&s)) {
		s.dino_ok = dino_trusted(&s);
		w.visit = visit_granted;
		r = walk_roots(&w, grants, ngrants, take_grant, &s);
	}
	/* A stop because every name was found is completeness, not a bound. */
	r = walk_finish(&w, r, &rep.files_seen, &rep.incomplete, rep.reason, sizeof(rep.reason));
	for (size_t i = 0; i < s.ncand; i++)
		free(s.cand[i].path);
	free(s.cand);
	if (r == 0)
		*out = rep;
	else
		lf_hardlink_report_fini(&rep);
	return r;
}

void lf_hardlink_report_fini(struct lf_hardlink_report *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->nhits; i++) {
		free(r->hits[i].fenced_path);
		free(r->hits[i].granted_path);
	}
	free(r->hits);
	r->hits = NULL;
	r->nhits = 0;
}

static const char *class_words(unsigned access)
{
	switch (access & (LF_ACCESS_RO | LF_ACCESS_RW)) {
	case LF_ACCESS_RO:
		return "read";
	case LF_ACCESS_RW:
		return "write";
	default:
		return "read and write";
	}
}

int lf_hardlink_hit_format(const struct lf_hardlink_hit *h, char *buf, size_t size)
{
	return snprintf(buf, size,
			"%s is fenced (%s, fence %s) but is also reachable as %s (a hard link "
			"below the grant %s); Landlock cannot tell the two names apart: remove "
			"the link",
			h->fenced_path, class_words(h->access), h->fence, h->granted_path, h->root);
}

/* ------------------------------------------------------------------------
 * Device nodes below grants
 */

struct dev_scan {
	struct lf_devnode_report *rep;
	size_t cap;
	const char *root;
};

static int visit_device(void *ctx, const struct lf_walk_entry *e)
{
	struct dev_scan *d = ctx;
	struct lf_devnode_report *rep = d->rep;
	struct stat st;

	/* The directory's own types: only device nodes need a stat. */
	if (e->type != DT_CHR && e->type != DT_BLK)
		return LF_WALK_NEXT;
	if (entry_stat(e, &st) < 0 || (!S_ISCHR(st.st_mode) && !S_ISBLK(st.st_mode)))
		return LF_WALK_NEXT;
	if (lf_grow((void **)&rep->hits, &d->cap, rep->nhits, sizeof(*rep->hits)) < 0)
		return -ENOMEM;
	char *copy = strdup(e->path);
	if (!copy)
		return -ENOMEM;
	rep->hits[rep->nhits++] = (struct lf_devnode_hit){
		.path = copy,
		.root = d->root,
		.block = S_ISBLK(st.st_mode),
		.rdev = st.st_rdev,
	};
	return LF_WALK_NEXT;
}

/* On a nodev mount a device node cannot be opened: nothing to find
 * there. */
static bool take_device_root(void *ctx, const struct lf_path_access *root)
{
	struct dev_scan *d = ctx;
	struct statvfs vfs;

	d->root = root->path;
	return !(statvfs(root->path, &vfs) == 0 && (vfs.f_flag & ST_NODEV));
}

int lf_devnode_scan(const struct lf_path_access *roots, size_t nroots,
		    const struct lf_walk_budget *budget, struct lf_devnode_report *out)
{
	return lf_devnode_scan_cached(NULL, roots, nroots, budget, out);
}

/* The roots the cache answered are not walked again. */
struct dev_rest {
	struct dev_scan *d;
	const bool *cached;
	const struct lf_path_access *roots;
};

static bool take_uncached_root(void *ctx, const struct lf_path_access *root)
{
	struct dev_rest *x = ctx;

	return !x->cached[root - x->roots] && take_device_root(x->d, root);
}

int lf_devnode_scan_cached(const char *config_dir, const struct lf_path_access *roots,
			   size_t nroots, const struct lf_walk_budget *budget,
			   struct lf_devnode_report *out)
{
	struct lf_devnode_report rep = { 0 };
	struct dev_scan d = { &rep, 0, NULL };
	struct dev_rest rest = { &d, NULL, roots };
	bool *cached;
	struct lf_walk w;
	int r = 0;

	if (!out || roots_valid(roots, nroots) < 0)
		return -EINVAL;
	if (!(cached = calloc(nroots ? nroots : 1, sizeof(*cached))))
		return -ENOMEM;
	/* A root the cache of directory listings answers whole (src/fs/
	 * treecache.c): its device nodes from there. The budget is the
	 * walk's own only when none was given. */
	for (size_t i = 0; r == 0 && config_dir && !budget && i < nroots; i++) {
		struct lf_tree_devnode *v = NULL;
		size_t n = 0;
		int c;

		if (!take_device_root(&d, &roots[i]))
			continue;
		c = lf_treecache_devnodes(config_dir, roots[i].path, &v, &n);
		if (c < 0)
			r = c;
		for (size_t k = 0; c == 1 && r == 0 && k < n; k++) {
			if (lf_grow((void **)&rep.hits, &d.cap, rep.nhits, sizeof(*rep.hits)) < 0) {
				r = -ENOMEM;
				break;
			}
			rep.hits[rep.nhits++] = (struct lf_devnode_hit){
				.path = v[k].path,
				.root = roots[i].path,
				.block = v[k].block,
				.rdev = v[k].rdev,
			};
			v[k].path = NULL;
		}
		cached[i] = c == 1;
		lf_tree_devnodes_free(v, n);
	}
	if (r == 0) {
		rest.cached = cached;
		walk_init(&w, visit_device, &d, budget);
		r = walk_roots(&w, roots, nroots, take_uncached_root, &rest);
		r = walk_finish(&w, r, &rep.files_seen, &rep.incomplete, rep.reason,
				sizeof(rep.reason));
	}
	free(cached);
	if (r == 0)
		*out = rep;
	else
		lf_devnode_report_fini(&rep);
	return r;
}

/* Frees n hits of size bytes each, and the owned path at offset off in
 * each: the device-node and the persistence reports hold the same. */
static void path_hits_free(void *hits, size_t n, size_t size, size_t off)
{
	for (size_t i = 0; i < n; i++)
		free(*(char **)((char *)hits + i * size + off));
	free(hits);
}

void lf_devnode_report_fini(struct lf_devnode_report *r)
{
	if (!r)
		return;
	path_hits_free(r->hits, r->nhits, sizeof(*r->hits), offsetof(struct lf_devnode_hit, path));
	r->hits = NULL;
	r->nhits = 0;
}

int lf_devnode_hit_format(const struct lf_devnode_hit *h, char *buf, size_t size)
{
	return snprintf(buf, size,
			"%s is a %s device node (%u:%u) below the grant %s: Landlock lets it be "
			"opened like a file there; remove it",
			h->path, h->block ? "block" : "character", major(h->rdev), minor(h->rdev),
			h->root);
}

/* ------------------------------------------------------------------------
 * Persistence paths (the rows are in core/tables.c)
 */

static int persist_add(struct lf_persist_report *rep, size_t *cap, const char *path,
		       const char *rule, const char *why)
{
	for (size_t i = 0; i < rep->nhits; i++)
		if (!strcmp(rep->hits[i].path, path))
			return 0;
	if (lf_grow((void **)&rep->hits, cap, rep->nhits, sizeof(*rep->hits)) < 0)
		return -ENOMEM;
	char *copy = strdup(path);
	if (!copy)
		return -ENOMEM;
	rep->hits[rep->nhits++] = (struct lf_persist_hit){ copy, rule, why };
	return 0;
}

static int persist_base(struct lf_persist_report *rep, size_t *cap, const char *base,
			const struct lf_persist_row *rows, size_t nrows,
			const struct lf_path_access *rules, size_t nrules)
{
	for (size_t i = 0; i < nrows; i++) {
		char *p = NULL;
		int r = 0;

		if (asprintf(&p, "%s/%s", strcmp(base, "/") ? base : "", rows[i].rel) < 0)
			return -ENOMEM;
		for (size_t j = 0; j < nrules; j++) {
			if (!(rules[j].access & LF_ACCESS_RW) || !rules[j].path ||
			    !lf_path_overlap(p, rules[j].path))
				continue;
			r = persist_add(rep, cap, p, rules[j].path, rows[i].why);
			break;
		}
		free(p);
		if (r < 0)
			return r;
	}
	return 0;
}

/* When .git is a file (a worktree or a submodule), its "gitdir: DIR" line
 * names where hooks and config really are. */
static int git_dir_of(const char *project_root, char **out)
{
	char *p = NULL, buf[PATH_MAX + 16];
	struct stat st;
	int fd;

	if (asprintf(&p, "%s/.git", project_root) < 0)
		return -ENOMEM;
	fd = lstat(p, &st) == 0 && S_ISREG(st.st_mode) ? open(p, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
						       : -1;
	free(p);
	if (fd < 0)
		return -ENOENT;
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -EINVAL;
	buf[n] = '\0';
	if (strncmp(buf, "gitdir: ", 8) != 0)
		return -EINVAL;
	buf[strcspn(buf, "\n")] = '\0';
	const char *g = buf + 8;
	char *dir = NULL;
	if (g[0] == '/' ? !(dir = strdup(g)) : asprintf(&dir, "%s/%s", project_root, g) < 0)
		return -ENOMEM;
	*out = realpath(dir, NULL);
	free(dir);
	return *out ? 0 : -ENOENT;
}

int lf_persistence_check(const char *project_root, const char *home,
			 const struct lf_path_access *rules, size_t nrules,
			 struct lf_persist_report *out)
{
	struct lf_persist_report rep = { 0 };
	size_t cap = 0;
	char *gitdir = NULL;
	int r;

	if (!out || !project_root || project_root[0] != '/' || (nrules && !rules))
		return -EINVAL;
	r = persist_base(&rep, &cap, project_root, lf_persist_project, lf_persist_project_len,
			 rules, nrules);
	if (r == 0 && git_dir_of(project_root, &gitdir) == 0)
		r = persist_base(&rep, &cap, gitdir, lf_persist_gitdir, lf_persist_gitdir_len,
				 rules, nrules);
	free(gitdir);
	if (r == 0 && home && home[0] == '/') {
		/* Rules are canonical; a home behind a symlink must be too. */
		char *canon_home = realpath(home, NULL);
		r = persist_base(&rep, &cap, canon_home ? canon_home : home, lf_persist_home,
				 lf_persist_home_len, rules, nrules);
		free(canon_home);
	}
	if (r < 0) {
		lf_persist_report_fini(&rep);
		return r;
	}
	*out = rep;
	return 0;
}

int lf_persistence_add_files(struct lf_persist_report *rep, const char *project_root,
			     const char *const *files, size_t nfiles,
			     const struct lf_path_access *rules, size_t nrules)
{
	size_t cap = rep ? rep->nhits : 0;
	char *own = NULL;
	int r = 0;

	if (!rep || (nfiles && !files) || (nrules && !rules))
		return -EINVAL;
	if (project_root && asprintf(&own, "%s/.landfence", project_root) < 0)
		return -ENOMEM;
	for (size_t i = 0; i < nfiles && r == 0; i++) {
		char *canon;
		const char *f = files[i];

		if (!f || f[0] == '<')
			continue;
		canon = realpath(f, NULL);
		if (canon)
			f = canon;
		for (size_t j = 0; f[0] == '/' && !(own && lf_path_covers(own, f)) && j < nrules;
		     j++) {
			if (!(rules[j].access & LF_ACCESS_RW) || !rules[j].path ||
			    !lf_path_covers(rules[j].path, f))
				continue;
			r = persist_add(rep, &cap, f, rules[j].path,
					"a policy file of this run: the next run started "
					"the same way would use what the program wrote");
			break;
		}
		free(canon);
	}
	free(own);
	return r;
}

void lf_persist_report_fini(struct lf_persist_report *r)
{
	if (!r)
		return;
	path_hits_free(r->hits, r->nhits, sizeof(*r->hits), offsetof(struct lf_persist_hit, path));
	r->hits = NULL;
	r->nhits = 0;
}

int lf_persist_hit_format(const struct lf_persist_hit *h, char *buf, size_t size)
{
	return snprintf(buf, size, "%s stays writable (rule %s): %s", h->path, h->rule, h->why);
}
