/* SPDX-License-Identifier: MIT */
/*
 * Hard-link and persistence checks made before launch (hardlink.h).
 *
 * The scan has two phases. First every fence of the tree is walked for
 * regular files with more than one name: the candidates. In the usual tree
 * there are none and the scan ends there, without looking at any grant.
 * Only then are the granted roots of the candidates' classes walked, on
 * the candidates' file systems only, and the walk stops early once every
 * candidate's other names have been found.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "core/model.h"
#include "landlock/hardlink.h"

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
	const struct lf_hardlink_limits *lim;
	struct timespec start;
	size_t seen;
	bool stop;
	char reason[160];
	struct candidate *cand;
	size_t ncand, capcand;
	const struct lf_path_access *fences;
	size_t nfences;
	bool devices; /* visit device nodes instead of regular files */
	void *ctx;    /* the device scan's report */
	bool dino_ok; /* readdir's d_ino equals st_ino on the candidates' file systems */
	/* phase 2 */
	unsigned cur_access;
	const char *cur_root;
	struct lf_hardlink_report *rep;
	size_t caphits;
};

static unsigned elapsed_ms(const struct timespec *start)
{
	struct timespec now;

	if (clock_gettime(CLOCK_MONOTONIC, &now) != 0)
		return 0;
	int64_t ms = (int64_t)(now.tv_sec - start->tv_sec) * 1000 +
		     (now.tv_nsec - start->tv_nsec) / 1000000;
	return ms < 0 ? 0 : (ms > UINT32_MAX ? UINT32_MAX : (unsigned)ms);
}

/* Counts one entry; returns false once a bound is hit. */
static bool scan_tick(struct scan *s)
{
	if (s->stop)
		return false;
	s->seen++;
	if (s->seen > s->lim->max_files) {
		snprintf(s->reason, sizeof(s->reason), "stopped after %zu entries (limit)",
			 s->lim->max_files);
		s->stop = true;
		return false;
	}
	/* The clock is read every 256 entries: cheap enough, and fine-grained
	 * enough for a bound measured in seconds. */
	if ((s->seen & 255u) == 0 && elapsed_ms(&s->start) > s->lim->max_millis) {
		snprintf(s->reason, sizeof(s->reason), "stopped after %u ms (limit)",
			 s->lim->max_millis);
		s->stop = true;
		return false;
	}
	return true;
}

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

typedef int (*visit_fn)(struct scan *s, const char *path, const struct stat *st);

/* Whether the entry can be passed over without a stat, from the type and
 * inode number readdir already gives (most file systems fill d_type): the
 * walk of a large grant stats only directories and the few entries that
 * can matter. DT_UNKNOWN is always looked at. */
static bool skip_unstatted(const struct scan *s, const struct dirent *de, bool granted)
{
	switch (de->d_type) {
	case DT_UNKNOWN:
	case DT_DIR:
		return false;
	case DT_LNK:
	case DT_FIFO:
	case DT_SOCK:
		return true;
	case DT_CHR:
	case DT_BLK:
		return !s->devices;
	case DT_REG:
		if (s->devices)
			return true;
		if (!granted || !s->dino_ok)
			return false;
		/* Below a grant, only a candidate's inode number is worth a
		 * stat (the device is compared after it). */
		for (size_t i = 0; i < s->ncand; i++)
			if (s->cand[i].ino == de->d_ino)
				return false;
		return true;
	default:
		return false;
	}
}

/* Walks the directory open at dfd (path names it), calling visit for each
 * regular file. Never follows symbolic links; prunes other file systems
 * when prune_dev is set. Consumes dfd. */
static int walk_dir(struct scan *s, int dfd, char *path, size_t len, unsigned depth, visit_fn visit,
		    bool prune_dev)
{
	DIR *d = fdopendir(dfd);
	struct dirent *de;
	int r = 0;

	if (!d) {
		close(dfd);
		return 0;
	}
	while (!s->stop && (de = readdir(d))) {
		const char *n = de->d_name;
		struct stat st;

		if (n[0] == '.' && (n[1] == '\0' || (n[1] == '.' && n[2] == '\0')))
			continue;
		if (!scan_tick(s))
			break;
		size_t nl = strlen(n);
		if (len + 1 + nl >= PATH_MAX)
			continue;
		if (skip_unstatted(s, de, prune_dev))
			continue;
		if (fstatat(dirfd(d), n, &st, AT_SYMLINK_NOFOLLOW) != 0)
			continue;
		path[len] = '/';
		memcpy(path + len + 1, n, nl + 1);
		if (s->devices ? (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode))
			       : S_ISREG(st.st_mode)) {
			r = visit(s, path, &st);
		} else if (S_ISDIR(st.st_mode)) {
			if (prune_dev && !dev_wanted(s, st.st_dev)) {
				path[len] = '\0';
				continue;
			}
			if (depth + 1 > s->lim->max_depth) {
				snprintf(s->reason, sizeof(s->reason),
					 "stopped at %s: deeper than %u levels", path,
					 s->lim->max_depth);
				s->stop = true;
				path[len] = '\0';
				break;
			}
			int sub = openat(dirfd(d), n,
					 O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (sub >= 0)
				r = walk_dir(s, sub, path, len + 1 + nl, depth + 1, visit,
					     prune_dev);
		}
		path[len] = '\0';
		if (r < 0)
			break;
	}
	closedir(d);
	return r;
}

/* Walks root: a regular file is visited itself, a directory below. */
static int walk_root(struct scan *s, const char *root, visit_fn visit, bool prune_dev)
{
	char path[PATH_MAX];
	struct stat st;
	size_t len = strlen(root);

	if (len >= sizeof(path))
		return 0;
	memcpy(path, root, len + 1);
	/* "/" is walked with an empty prefix so that names come out as
	 * "/usr", not "//usr". */
	if (len == 1)
		len = 0;
	/* O_PATH first: opening a FIFO or a device node for reading would
	 * block or touch the device. */
	if (lstat(root, &st) != 0 || S_ISLNK(st.st_mode))
		return 0;
	if (!S_ISDIR(st.st_mode)) {
		if (s->devices ? (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode))
			       : S_ISREG(st.st_mode)) {
			if (!scan_tick(s))
				return 0;
			return visit(s, root, &st);
		}
		return 0;
	}
	int fd = open(root, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return 0;
	if (fstat(fd, &st) != 0) {
		close(fd);
		return 0;
	}
	if (s->devices ? (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)) : S_ISREG(st.st_mode)) {
		close(fd);
		if (!scan_tick(s))
			return 0;
		return visit(s, root, &st);
	}
	if (!S_ISDIR(st.st_mode) || (prune_dev && !dev_wanted(s, st.st_dev))) {
		close(fd);
		return 0;
	}
	path[len] = '\0';
	if (len == 0)
		path[0] = '\0';
	return walk_dir(s, fd, path, len, 0, visit, prune_dev);
}

static int visit_fenced(struct scan *s, const char *path, const struct stat *st)
{
	if (st->st_nlink < 2)
		return 0;
	for (size_t i = 0; i < s->ncand; i++) {
		struct candidate *c = &s->cand[i];
		if (c->dev == st->st_dev && c->ino == st->st_ino) {
			/* Two fences, or two names below fences: count the
			 * name once and widen the classes it is fenced in. */
			c->access |= s->cur_access;
			if (strcmp(c->path, path) != 0)
				c->found++;
			return 0;
		}
	}
	if (s->ncand == s->capcand) {
		size_t ncap = s->capcand ? s->capcand * 2 : 16;
		struct candidate *n = realloc(s->cand, ncap * sizeof(*n));
		if (!n)
			return -ENOMEM;
		s->cand = n;
		s->capcand = ncap;
	}
	char *copy = strdup(path);
	if (!copy)
		return -ENOMEM;
	s->cand[s->ncand++] = (struct candidate){
		.dev = st->st_dev,
		.ino = st->st_ino,
		.nlink = st->st_nlink,
		.found = 1,
		.access = s->cur_access,
		.path = copy,
		.fence = s->cur_root,
	};
	return 0;
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
	if (rep->nhits == s->caphits) {
		size_t ncap = s->caphits ? s->caphits * 2 : 8;
		struct lf_hardlink_hit *n = realloc(rep->hits, ncap * sizeof(*n));
		if (!n)
			return -ENOMEM;
		rep->hits = n;
		s->caphits = ncap;
	}
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

static int visit_granted(struct scan *s, const char *path, const struct stat *st)
{
	if (st->st_nlink < 2)
		return 0;
	for (size_t i = 0; i < s->ncand; i++) {
		struct candidate *c = &s->cand[i];
		if (c->dev != st->st_dev || c->ino != st->st_ino)
			continue;
		if (!(c->access & s->cur_access) || !strcmp(c->path, path))
			return 0;
		if (below_fence(s, path, c->access & s->cur_access))
			return 0;
		int r = add_hit(s, c, path);
		if (r <= 0)
			return r;
		c->found++;
		if (c->found >= c->nlink && all_found(s)) {
			/* Every name is accounted for: nothing more to find. */
			s->stop = true;
		}
		return 0;
	}
	return 0;
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

int lf_hardlink_scan(const struct lf_path_access *fences, size_t nfences,
		     const struct lf_path_access *grants, size_t ngrants,
		     const struct lf_hardlink_limits *limits, struct lf_hardlink_report *out)
{
	struct lf_hardlink_limits lim = { LF_HARDLINK_MAX_FILES, LF_HARDLINK_MAX_MILLIS,
					  LF_HARDLINK_MAX_DEPTH };
	struct lf_hardlink_report rep = { 0 };
	struct scan s = { 0 };
	int r = 0;

	if (!out || (nfences && !fences) || (ngrants && !grants))
		return -EINVAL;
	for (size_t i = 0; i < nfences; i++)
		if (!fences[i].path || fences[i].path[0] != '/')
			return -EINVAL;
	for (size_t i = 0; i < ngrants; i++)
		if (!grants[i].path || grants[i].path[0] != '/')
			return -EINVAL;
	if (limits) {
		if (limits->max_files)
			lim.max_files = limits->max_files;
		if (limits->max_millis)
			lim.max_millis = limits->max_millis;
		if (limits->max_depth)
			lim.max_depth = limits->max_depth;
	}
	s.lim = &lim;
	s.fences = fences;
	s.nfences = nfences;
	s.rep = &rep;
	if (clock_gettime(CLOCK_MONOTONIC, &s.start) != 0)
		memset(&s.start, 0, sizeof(s.start));

	for (size_t i = 0; i < nfences && !s.stop && r == 0; i++) {
		if (!(fences[i].access & (LF_ACCESS_RO | LF_ACCESS_RW)))
			continue;
		s.cur_access = fences[i].access;
		s.cur_root = fences[i].path;
		r = walk_root(&s, fences[i].path, visit_fenced, false);
	}
	rep.candidates = s.ncand;
	s.dino_ok = dino_trusted(&s);
	if (r == 0 && !s.stop && s.ncand && !all_found(&s)) {
		for (size_t i = 0; i < ngrants && !s.stop && r == 0; i++) {
			unsigned want = 0;
			for (size_t j = 0; j < s.ncand; j++)
				want |= s.cand[j].access;
			if (!(grants[i].access & want))
				continue;
			s.cur_access = grants[i].access;
			s.cur_root = grants[i].path;
			r = walk_root(&s, grants[i].path, visit_granted, true);
		}
	}
	/* A stop because every name was found is completeness, not a bound. */
	rep.files_seen = s.seen;
	if (s.reason[0]) {
		rep.incomplete = true;
		memcpy(rep.reason, s.reason, sizeof(rep.reason));
	}
	for (size_t i = 0; i < s.ncand; i++)
		free(s.cand[i].path);
	free(s.cand);
	if (r < 0) {
		lf_hardlink_report_fini(&rep);
		return r;
	}
	*out = rep;
	return 0;
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

struct dev_ctx {
	struct lf_devnode_report *rep;
	size_t cap;
};

static int visit_device(struct scan *s, const char *path, const struct stat *st)
{
	struct dev_ctx *d = s->ctx;
	struct lf_devnode_report *rep = d->rep;

	if (rep->nhits == d->cap) {
		size_t ncap = d->cap ? d->cap * 2 : 8;
		struct lf_devnode_hit *n = realloc(rep->hits, ncap * sizeof(*n));
		if (!n)
			return -ENOMEM;
		rep->hits = n;
		d->cap = ncap;
	}
	char *copy = strdup(path);
	if (!copy)
		return -ENOMEM;
	rep->hits[rep->nhits++] = (struct lf_devnode_hit){
		.path = copy,
		.root = s->cur_root,
		.block = S_ISBLK(st->st_mode),
		.rdev = st->st_rdev,
	};
	return 0;
}

int lf_devnode_scan(const struct lf_path_access *roots, size_t nroots,
		    const struct lf_hardlink_limits *limits, struct lf_devnode_report *out)
{
	struct lf_hardlink_limits lim = { LF_HARDLINK_MAX_FILES, LF_HARDLINK_MAX_MILLIS,
					  LF_HARDLINK_MAX_DEPTH };
	struct lf_devnode_report rep = { 0 };
	struct dev_ctx d = { &rep, 0 };
	struct scan s = { 0 };
	int r = 0;

	if (!out || (nroots && !roots))
		return -EINVAL;
	for (size_t i = 0; i < nroots; i++)
		if (!roots[i].path || roots[i].path[0] != '/')
			return -EINVAL;
	if (limits) {
		if (limits->max_files)
			lim.max_files = limits->max_files;
		if (limits->max_millis)
			lim.max_millis = limits->max_millis;
		if (limits->max_depth)
			lim.max_depth = limits->max_depth;
	}
	s.lim = &lim;
	s.devices = true;
	s.ctx = &d;
	if (clock_gettime(CLOCK_MONOTONIC, &s.start) != 0)
		memset(&s.start, 0, sizeof(s.start));
	for (size_t i = 0; i < nroots && !s.stop && r == 0; i++) {
		struct statvfs vfs;

		/* On a nodev mount a device node cannot be opened: nothing
		 * to find there. */
		if (statvfs(roots[i].path, &vfs) == 0 && (vfs.f_flag & ST_NODEV))
			continue;
		s.cur_root = roots[i].path;
		s.cur_access = roots[i].access;
		r = walk_root(&s, roots[i].path, visit_device, false);
	}
	rep.files_seen = s.seen;
	if (s.reason[0]) {
		rep.incomplete = true;
		memcpy(rep.reason, s.reason, sizeof(rep.reason));
	}
	if (r < 0) {
		lf_devnode_report_fini(&rep);
		return r;
	}
	*out = rep;
	return 0;
}

void lf_devnode_report_fini(struct lf_devnode_report *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->nhits; i++)
		free(r->hits[i].path);
	free(r->hits);
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
 * Persistence paths
 */

struct persist_name {
	const char *rel;
	const char *why;
};

static const struct persist_name project_names[] = {
	{ ".landfence", "the project policy (used again only after `landfence trust`)" },
	{ ".git/hooks", "git runs hooks outside the sandbox on commit, checkout, push" },
	{ ".git/config", "git config can name hooks, filters, fsmonitor and aliases that run" },
	{ ".git/info/attributes", "with .git/config, names filter drivers that run" },
	{ ".husky", "husky git hooks run on commit" },
	{ ".pre-commit-config.yaml", "pre-commit runs the hooks it names" },
	{ ".claude/settings.json", "Claude Code hooks and permissions" },
	{ ".claude/settings.local.json", "Claude Code hooks and permissions" },
	{ ".mcp.json", "MCP servers an agent starts" },
	{ ".vscode", "editor tasks, settings and launch configurations" },
	{ ".idea", "IDE run configurations" },
	{ ".envrc", "direnv runs it in the user's shell" },
	{ ".env", "read by tools and shells outside the sandbox" },
	{ ".npmrc", "npm configuration (script shell, registries)" },
	{ ".gemini/settings.json", "Gemini CLI settings" },
	{ ".codex", "Codex CLI configuration" },
	{ ".aider.conf.yml", "aider configuration" },
	{ ".devcontainer", "container definitions an editor builds and runs" },
};

static const struct persist_name home_names[] = {
	{ ".config/landfence", "landfence's trusted policies and user policy" },
	{ ".bashrc", "run by every interactive shell" },
	{ ".bash_profile", "run by login shells" },
	{ ".profile", "run by login shells" },
	{ ".zshrc", "run by every interactive zsh" },
	{ ".zshenv", "run by every zsh" },
	{ ".config/fish", "run by fish" },
	{ ".gitconfig", "git configuration for every repository" },
	{ ".config/git", "git configuration for every repository" },
	{ ".ssh", "SSH keys, authorized_keys and client configuration" },
	{ ".claude/settings.json", "Claude Code hooks for every project" },
	{ ".claude/settings.local.json", "Claude Code hooks for every project" },
	/* The claude, codex and gemini profiles grant these read-write. */
	{ ".claude.json", "Claude Code's MCP servers (commands it starts) for every project" },
	{ ".codex", "Codex CLI configuration and the MCP servers it starts" },
	{ ".gemini/settings.json", "Gemini CLI settings and the MCP servers it starts" },
	{ ".config/autostart", "programs the desktop starts" },
	{ ".config/systemd", "user services systemd starts" },
	{ ".local/bin", "programs found first on PATH" },
};

static bool overlaps(const char *a, const char *b)
{
	return lf_path_covers(b, a) || lf_path_covers(a, b);
}

static int persist_add(struct lf_persist_report *rep, size_t *cap, const char *path,
		       const char *rule, const char *why)
{
	for (size_t i = 0; i < rep->nhits; i++)
		if (!strcmp(rep->hits[i].path, path))
			return 0;
	if (rep->nhits == *cap) {
		size_t ncap = *cap ? *cap * 2 : 8;
		struct lf_persist_hit *n = realloc(rep->hits, ncap * sizeof(*n));
		if (!n)
			return -ENOMEM;
		rep->hits = n;
		*cap = ncap;
	}
	char *copy = strdup(path);
	if (!copy)
		return -ENOMEM;
	rep->hits[rep->nhits++] = (struct lf_persist_hit){ copy, rule, why };
	return 0;
}

static int persist_base(struct lf_persist_report *rep, size_t *cap, const char *base,
			const struct persist_name *names, size_t nnames,
			const struct lf_path_access *rules, size_t nrules)
{
	char p[PATH_MAX];

	for (size_t i = 0; i < nnames; i++) {
		if (snprintf(p, sizeof(p), "%s/%s", base, names[i].rel) >= (int)sizeof(p))
			continue;
		for (size_t j = 0; j < nrules; j++) {
			if (!(rules[j].access & LF_ACCESS_RW) || !rules[j].path)
				continue;
			if (!overlaps(p, rules[j].path))
				continue;
			int r = persist_add(rep, cap, p, rules[j].path, names[i].why);
			if (r < 0)
				return r;
			break;
		}
	}
	return 0;
}

/* When .git is a file (a worktree or a submodule), its "gitdir: DIR" line
 * names where hooks and config really are. */
static int git_dir_of(const char *project_root, char *out, size_t size)
{
	char p[PATH_MAX], buf[PATH_MAX + 16], dir[PATH_MAX];
	struct stat st;

	if (snprintf(p, sizeof(p), "%s/.git", project_root) >= (int)sizeof(p))
		return -ENAMETOOLONG;
	if (lstat(p, &st) != 0 || !S_ISREG(st.st_mode))
		return -ENOENT;
	int fd = open(p, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return -errno;
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -EINVAL;
	buf[n] = '\0';
	if (strncmp(buf, "gitdir: ", 8) != 0)
		return -EINVAL;
	char *e = strchr(buf, '\n');
	if (e)
		*e = '\0';
	const char *g = buf + 8;
	if (g[0] == '/') {
		if (strlen(g) >= sizeof(dir))
			return -ENAMETOOLONG;
		strcpy(dir, g);
	} else if (snprintf(dir, sizeof(dir), "%s/%s", project_root, g) >= (int)sizeof(dir)) {
		return -ENAMETOOLONG;
	}
	if (!realpath(dir, p))
		return -errno;
	if (strlen(p) >= size)
		return -ENAMETOOLONG;
	strcpy(out, p);
	return 0;
}

int lf_persistence_check(const char *project_root, const char *home,
			 const struct lf_path_access *rules, size_t nrules,
			 struct lf_persist_report *out)
{
	static const struct persist_name git_names[] = {
		{ "hooks", "git runs hooks outside the sandbox on commit, checkout, push" },
		{ "config", "git config can name hooks, filters, fsmonitor and aliases that run" },
	};
	struct lf_persist_report rep = { 0 };
	size_t cap = 0;
	char gitdir[PATH_MAX], canon_home[PATH_MAX];
	int r;

	if (!out || !project_root || project_root[0] != '/' || (nrules && !rules))
		return -EINVAL;
	r = persist_base(&rep, &cap, project_root, project_names,
			 sizeof(project_names) / sizeof(project_names[0]), rules, nrules);
	if (r == 0 && git_dir_of(project_root, gitdir, sizeof(gitdir)) == 0)
		r = persist_base(&rep, &cap, gitdir, git_names,
				 sizeof(git_names) / sizeof(git_names[0]), rules, nrules);
	if (r == 0 && home && home[0] == '/') {
		/* Rules are canonical; a home behind a symlink must be too. */
		const char *h = realpath(home, canon_home) ? canon_home : home;
		r = persist_base(&rep, &cap, h, home_names,
				 sizeof(home_names) / sizeof(home_names[0]), rules, nrules);
	}
	if (r < 0) {
		lf_persist_report_fini(&rep);
		return r;
	}
	*out = rep;
	return 0;
}

int lf_persistence_add_files(struct lf_persist_report *rep, const char *const *files, size_t nfiles,
			     const struct lf_path_access *rules, size_t nrules)
{
	char canon[PATH_MAX];
	size_t cap = rep ? rep->nhits : 0;

	if (!rep || (nfiles && !files) || (nrules && !rules))
		return -EINVAL;
	for (size_t i = 0; i < nfiles; i++) {
		const char *f = files[i];
		if (!f)
			continue;
		if (realpath(f, canon))
			f = canon;
		if (f[0] != '/')
			continue;
		for (size_t j = 0; j < nrules; j++) {
			if (!(rules[j].access & LF_ACCESS_RW) || !rules[j].path ||
			    !lf_path_covers(rules[j].path, f))
				continue;
			int r = persist_add(rep, &cap, f, rules[j].path,
					    "a policy file of this run: the next run started "
					    "the same way would use what the program wrote");
			if (r < 0)
				return r;
			break;
		}
	}
	return 0;
}

void lf_persist_report_fini(struct lf_persist_report *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->nhits; i++)
		free(r->hits[i].path);
	free(r->hits);
	r->hits = NULL;
	r->nhits = 0;
}

int lf_persist_hit_format(const struct lf_persist_hit *h, char *buf, size_t size)
{
	return snprintf(buf, size, "%s stays writable (rule %s): %s", h->path, h->rule, h->why);
}
