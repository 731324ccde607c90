/* SPDX-License-Identifier: MIT */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/checks.h"
#include "core/model.h"
#include "landlock/hardlink.h"

void lf_cli_findings_fini(struct lf_cli_findings *f)
{
	if (!f)
		return;
	for (size_t i = 0; i < f->n; i++)
		free(f->lines[i]);
	free(f->lines);
	memset(f, 0, sizeof(*f));
}

static int rules_of(const struct lf_sandbox *sb, struct lf_path_access **out, size_t *n)
{
	size_t k = lf_sandbox_rule_count(sb);
	struct lf_path_access *v = calloc(k ? k : 1, sizeof(*v));

	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < k; i++) {
		const struct lf_final_rule *r = lf_sandbox_rule(sb, i);
		v[i].path = r->path;
		v[i].access = r->access;
	}
	*out = v;
	*n = k;
	return 0;
}

static int add_line(struct lf_cli_findings *f, const char *text)
{
	char **v = realloc(f->lines, (f->n + 1) * sizeof(*v));

	if (!v)
		return -ENOMEM;
	f->lines = v;
	if (!(v[f->n] = strdup(text)))
		return -ENOMEM;
	f->n++;
	return 0;
}

int lf_cli_hardlinks(const struct lf_plan *plan, const struct lf_sandbox *sb,
		     struct lf_cli_findings *out)
{
	size_t nf = lf_plan_fence_count(plan), k = 0, ng = 0;
	struct lf_path_access *fences = NULL, *grants = NULL;
	struct lf_hardlink_report rep = { 0 };
	struct lf_cli_findings f = { 0 };
	char **canon = NULL, line[PATH_MAX * 3];
	int r;

	if ((r = rules_of(sb, &grants, &ng)) < 0)
		return r;
	fences = calloc(nf ? nf : 1, sizeof(*fences));
	canon = calloc(nf ? nf : 1, sizeof(*canon));
	if (!fences || !canon) {
		r = -ENOMEM;
		goto out;
	}
	/* The scan compares canonical paths; a fence that does not exist
	 * has no file to link to. */
	for (size_t i = 0; i < nf; i++) {
		const struct lf_fence *fe = lf_plan_fence(plan, i);
		char *c = realpath(fe->abs_root, NULL);
		if (!c)
			continue;
		canon[k] = c;
		fences[k].path = c;
		fences[k].access = fe->access;
		k++;
	}
	if (k > 0 && ng > 0) {
		r = lf_hardlink_scan(fences, k, grants, ng, NULL, &rep);
		if (r < 0)
			goto out;
		for (size_t i = 0; i < rep.nhits && r == 0; i++) {
			lf_hardlink_hit_format(&rep.hits[i], line, sizeof(line));
			r = add_line(&f, line);
		}
		f.incomplete = rep.incomplete;
		snprintf(f.reason, sizeof(f.reason), "%s", rep.reason);
		lf_hardlink_report_fini(&rep);
		if (r < 0)
			goto out;
	}
	*out = f;
	memset(&f, 0, sizeof(f));
	r = 0;
out:
	lf_cli_findings_fini(&f);
	for (size_t i = 0; canon && i < k; i++)
		free(canon[i]);
	free(canon);
	free(fences);
	free(grants);
	return r;
}

/* Whether the canonical path lies at or below root. */
static bool path_below(const char *root, const char *path)
{
	size_t n = strlen(root);

	if (n == 1 && root[0] == '/')
		return true;
	return !strncmp(root, path, n) && (path[n] == '\0' || path[n] == '/');
}

/* The policy files this run read (user layer, -p layers; the project's
 * own file is among the persistence paths already): one the program may
 * rewrite decides the next run started the same way. */
static int add_policy_files(struct lf_cli_findings *f, const char *project_root,
			    const struct lf_sandbox *sb, const char *const *files, size_t nfiles)
{
	char line[PATH_MAX * 2 + 200], own[PATH_MAX + 16];
	int r = 0;

	snprintf(own, sizeof(own), "%s/.landfence", project_root);
	for (size_t i = 0; r == 0 && i < nfiles; i++) {
		if (!files[i] || files[i][0] == '<')
			continue;
		char *canon = realpath(files[i], NULL);
		if (!canon)
			continue;
		if (path_below(own, canon)) {
			free(canon);
			continue;
		}
		for (size_t j = 0; j < lf_sandbox_rule_count(sb); j++) {
			const struct lf_final_rule *fr = lf_sandbox_rule(sb, j);
			if (!(fr->access & LF_ACCESS_RW) || !path_below(fr->path, canon))
				continue;
			snprintf(line, sizeof(line),
				 "%s stays writable (rule %s): a policy file of this run; the "
				 "program can rewrite the policy of the next run started the same "
				 "way",
				 canon, fr->path);
			r = add_line(f, line);
			break;
		}
		free(canon);
	}
	return r;
}

int lf_cli_persistence(const char *project_root, const struct lf_sandbox *sb,
		       const char *const *files, size_t nfiles, struct lf_cli_findings *out)
{
	struct lf_path_access *rules = NULL;
	struct lf_persist_report rep = { 0 };
	struct lf_cli_findings f = { 0 };
	const char *home = secure_getenv("HOME");
	char line[PATH_MAX * 2 + 256];
	size_t n = 0;
	int r;

	if ((r = rules_of(sb, &rules, &n)) < 0)
		return r;
	r = lf_persistence_check(project_root, home && home[0] == '/' ? home : NULL, rules, n,
				 &rep);
	for (size_t i = 0; r == 0 && i < rep.nhits; i++) {
		lf_persist_hit_format(&rep.hits[i], line, sizeof(line));
		r = add_line(&f, line);
	}
	lf_persist_report_fini(&rep);
	if (r == 0)
		r = add_policy_files(&f, project_root, sb, files, nfiles);
	free(rules);
	if (r < 0) {
		lf_cli_findings_fini(&f);
		return r;
	}
	*out = f;
	return 0;
}

int lf_cli_devnodes(const struct lf_sandbox *sb, struct lf_cli_findings *out)
{
	size_t n = lf_sandbox_rule_count(sb), k = 0;
	struct lf_path_access *roots = calloc(n ? n : 1, sizeof(*roots));
	struct lf_devnode_report rep = { 0 };
	struct lf_cli_findings f = { 0 };
	char line[PATH_MAX * 2 + 256];
	int r;

	if (!roots)
		return -ENOMEM;
	/* The grants someone else could have filled before launch: the
	 * project, profiles, the policy's host section. Not the system
	 * directories or /dev (their nodes are the system's), not the
	 * fresh run directory. */
	for (size_t i = 0; i < n; i++) {
		const struct lf_final_rule *fr = lf_sandbox_rule(sb, i);
		if (fr->origin != LF_ORIGIN_POLICY && fr->origin != LF_ORIGIN_FALLBACK &&
		    fr->origin != LF_ORIGIN_HOST_POLICY && fr->origin != LF_ORIGIN_PROFILE)
			continue;
		roots[k].path = fr->path;
		roots[k].access = fr->access;
		k++;
	}
	r = k ? lf_devnode_scan(roots, k, NULL, &rep) : 0;
	for (size_t i = 0; r == 0 && i < rep.nhits; i++) {
		lf_devnode_hit_format(&rep.hits[i], line, sizeof(line));
		r = add_line(&f, line);
	}
	f.incomplete = rep.incomplete;
	snprintf(f.reason, sizeof(f.reason), "%s", rep.reason);
	if (k)
		lf_devnode_report_fini(&rep);
	free(roots);
	if (r < 0) {
		lf_cli_findings_fini(&f);
		return r;
	}
	*out = f;
	return 0;
}

/* The walk `run` makes for device nodes: the names' d_type tells
 * directories and device nodes apart without a stat per file, which keeps
 * it to a few milliseconds on a 20,000-file project (the adapter's general
 * walker stats every entry). Bounded like the adapter's scans. */
struct fast_walk {
	struct lf_cli_findings *f;
	const char *root;
	size_t seen;
	bool stop;
};

static int fast_hit(struct fast_walk *w, int dfd, const char *name, const char *path)
{
	struct stat st;
	char line[PATH_MAX * 2 + 256];

	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
		return 0;
	if (!S_ISCHR(st.st_mode) && !S_ISBLK(st.st_mode))
		return 0;
	struct lf_devnode_hit h = {
		.path = (char *)path,
		.root = w->root,
		.block = S_ISBLK(st.st_mode),
		.rdev = st.st_rdev,
	};
	lf_devnode_hit_format(&h, line, sizeof(line));
	return add_line(w->f, line);
}

static int fast_dir(struct fast_walk *w, int fd, char *path, size_t len, unsigned depth)
{
	DIR *d = fdopendir(fd);
	struct dirent *de;
	int r = 0;

	if (!d) {
		close(fd);
		return 0;
	}
	while (!w->stop && r == 0 && (de = readdir(d))) {
		const char *n = de->d_name;
		unsigned char t = de->d_type;

		if (n[0] == '.' && (n[1] == '\0' || (n[1] == '.' && n[2] == '\0')))
			continue;
		if (++w->seen > LF_HARDLINK_MAX_FILES) {
			snprintf(w->f->reason, sizeof(w->f->reason), "more than %u entries",
				 LF_HARDLINK_MAX_FILES);
			w->f->incomplete = w->stop = true;
			break;
		}
		size_t nl = strlen(n);
		if (len + 1 + nl >= PATH_MAX)
			continue;
		path[len] = '/';
		memcpy(path + len + 1, n, nl + 1);
		if (t == DT_UNKNOWN) {
			struct stat st;
			if (fstatat(dirfd(d), n, &st, AT_SYMLINK_NOFOLLOW) != 0) {
				path[len] = '\0';
				continue;
			}
			t = S_ISDIR(st.st_mode)	  ? DT_DIR
			    : S_ISCHR(st.st_mode) ? DT_CHR
			    : S_ISBLK(st.st_mode) ? DT_BLK
						  : DT_REG;
		}
		if (t == DT_CHR || t == DT_BLK) {
			r = fast_hit(w, dirfd(d), n, path);
		} else if (t == DT_DIR) {
			if (depth + 1 > LF_HARDLINK_MAX_DEPTH) {
				snprintf(w->f->reason, sizeof(w->f->reason),
					 "deeper than %u levels", LF_HARDLINK_MAX_DEPTH);
				w->f->incomplete = w->stop = true;
			} else {
				int sub = openat(dirfd(d), n,
						 O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
				if (sub >= 0)
					r = fast_dir(w, sub, path, len + 1 + nl, depth + 1);
			}
		}
		path[len] = '\0';
	}
	closedir(d);
	return r;
}

int lf_cli_devnodes_fast(const struct lf_sandbox *sb, struct lf_cli_findings *out)
{
	struct lf_cli_findings f = { 0 };
	char path[PATH_MAX];
	int r = 0;

	for (size_t i = 0; r == 0 && i < lf_sandbox_rule_count(sb); i++) {
		const struct lf_final_rule *fr = lf_sandbox_rule(sb, i);
		struct fast_walk w = { .f = &f, .root = fr->path };
		struct statvfs vfs;
		struct stat st;

		if (fr->origin != LF_ORIGIN_POLICY && fr->origin != LF_ORIGIN_FALLBACK &&
		    fr->origin != LF_ORIGIN_HOST_POLICY && fr->origin != LF_ORIGIN_PROFILE)
			continue;
		/* On a nodev mount a device node cannot be opened. */
		if (statvfs(fr->path, &vfs) == 0 && (vfs.f_flag & ST_NODEV))
			continue;
		if (lstat(fr->path, &st) != 0)
			continue;
		size_t len = strlen(fr->path);
		if (len >= sizeof(path))
			continue;
		memcpy(path, fr->path, len + 1);
		if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)) {
			r = fast_hit(&w, AT_FDCWD, fr->path, path);
			continue;
		}
		if (!S_ISDIR(st.st_mode))
			continue;
		int fd = open(fr->path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (len == 1)
			len = 0; /* "/" */
		r = fast_dir(&w, fd, path, len, 0);
		if (w.stop)
			break;
	}
	if (r < 0) {
		lf_cli_findings_fini(&f);
		return r;
	}
	*out = f;
	return 0;
}

/* ------------------------------------------------------------------------
 * What the program changed where code runs later outside the sandbox.
 */

/* Directories whose files run as git hooks: their entries are looked at
 * one by one, not only the directory. */
static bool snap_lists(const char *path)
{
	const char *base = strrchr(path, '/');

	base = base ? base + 1 : path;
	return !strcmp(base, "hooks") || !strcmp(base, ".husky") || !strcmp(base, ".githooks");
}

static int snap_push(struct lf_cli_snap_item **v, size_t *n, size_t *cap, const char *path,
		     const char *why)
{
	struct lf_cli_snap_item *it;

	if (*n == *cap) {
		size_t ncap = *cap ? *cap * 2 : 32;
		struct lf_cli_snap_item *nv = realloc(*v, ncap * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		*v = nv;
		*cap = ncap;
	}
	it = &(*v)[*n];
	memset(it, 0, sizeof(*it));
	if (!(it->path = strdup(path)))
		return -ENOMEM;
	it->why = why;
	it->exists = lstat(path, &it->st) == 0;
	(*n)++;
	return 0;
}

/* lstat of every base, and of the files directly inside the hook
 * directories among them (at most 512 each). */
static int snap_take(const struct lf_cli_snapshot *s, struct lf_cli_snap_item **out, size_t *nout)
{
	struct lf_cli_snap_item *v = NULL;
	size_t n = 0, cap = 0;
	char p[PATH_MAX];
	int r = 0;

	for (size_t i = 0; r == 0 && i < s->nbases; i++) {
		const struct lf_cli_snap_item *b = &s->bases[i];
		int fd;
		DIR *d;
		struct dirent *e;
		size_t seen = 0;

		r = snap_push(&v, &n, &cap, b->path, b->why);
		if (r < 0 || !snap_lists(b->path))
			continue;
		fd = open(b->path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0)
			continue;
		d = fdopendir(fd);
		if (!d) {
			close(fd);
			continue;
		}
		while (r == 0 && seen < 512 && (e = readdir(d))) {
			if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
				continue;
			seen++;
			if (snprintf(p, sizeof(p), "%s/%s", b->path, e->d_name) >= (int)sizeof(p))
				continue;
			r = snap_push(&v, &n, &cap, p, b->why);
		}
		closedir(d);
	}
	if (r < 0) {
		for (size_t i = 0; i < n; i++)
			free(v[i].path);
		free(v);
		return r;
	}
	*out = v;
	*nout = n;
	return 0;
}

static void snap_items_free(struct lf_cli_snap_item *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i].path);
	free(v);
}

void lf_cli_snapshot_fini(struct lf_cli_snapshot *s)
{
	snap_items_free(s->bases, s->nbases);
	snap_items_free(s->items, s->nitems);
	memset(s, 0, sizeof(*s));
}

int lf_cli_snapshot_take(const char *project_root, const struct lf_sandbox *sb,
			 struct lf_cli_snapshot *out)
{
	struct lf_path_access *rules = NULL;
	struct lf_persist_report rep = { 0 };
	struct lf_cli_snapshot s = { 0 };
	const char *home = secure_getenv("HOME");
	size_t n = 0, cap = 0;
	char p[PATH_MAX];
	bool githooks = false;
	int r;

	if ((r = rules_of(sb, &rules, &n)) < 0)
		return r;
	r = lf_persistence_check(project_root, home && home[0] == '/' ? home : NULL, rules, n,
				 &rep);
	free(rules);
	if (r < 0)
		return r;
	/* Only the places the program can write: the others cannot change. */
	for (size_t i = 0; r == 0 && i < rep.nhits; i++) {
		githooks = githooks || snap_lists(rep.hits[i].path);
		r = snap_push(&s.bases, &s.nbases, &cap, rep.hits[i].path, rep.hits[i].why);
	}
	lf_persist_report_fini(&rep);
	/* core.hooksPath often names .githooks; git runs what it holds. */
	if (r == 0 && githooks &&
	    snprintf(p, sizeof(p), "%s/.githooks", project_root) < (int)sizeof(p))
		r = snap_push(&s.bases, &s.nbases, &cap, p,
			      "git runs the hooks core.hooksPath names outside the sandbox");
	if (r == 0)
		r = snap_take(&s, &s.items, &s.nitems);
	if (r < 0) {
		lf_cli_snapshot_fini(&s);
		return r;
	}
	*out = s;
	return 0;
}

static bool snap_same(const struct lf_cli_snap_item *a, const struct lf_cli_snap_item *b)
{
	if (a->exists != b->exists)
		return false;
	if (!a->exists)
		return true;
	return a->st.st_dev == b->st.st_dev && a->st.st_ino == b->st.st_ino &&
	       a->st.st_mode == b->st.st_mode && a->st.st_size == b->st.st_size &&
	       a->st.st_mtim.tv_sec == b->st.st_mtim.tv_sec &&
	       a->st.st_mtim.tv_nsec == b->st.st_mtim.tv_nsec;
}

static const struct lf_cli_snap_item *snap_find(const struct lf_cli_snap_item *v, size_t n,
						const char *path)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i].path, path))
			return &v[i];
	return NULL;
}

int lf_cli_snapshot_compare(const struct lf_cli_snapshot *before, struct lf_cli_findings *out)
{
	struct lf_cli_findings f = { 0 };
	struct lf_cli_snap_item *now = NULL;
	const struct lf_cli_snap_item **changed = NULL;
	size_t nnow = 0, nchanged = 0;
	char line[PATH_MAX + 256];
	int r;

	r = snap_take(before, &now, &nnow);
	if (r < 0)
		return r;
	changed = calloc(nnow + before->nitems + 1, sizeof(*changed));
	if (!changed) {
		snap_items_free(now, nnow);
		return -ENOMEM;
	}
	for (size_t i = 0; i < nnow; i++) {
		const struct lf_cli_snap_item *was =
			snap_find(before->items, before->nitems, now[i].path);

		if (was ? !snap_same(was, &now[i]) : now[i].exists)
			changed[nchanged++] = &now[i];
	}
	for (size_t i = 0; i < before->nitems; i++)
		if (before->items[i].exists && !snap_find(now, nnow, before->items[i].path))
			changed[nchanged++] = &before->items[i];
	for (size_t i = 0; r == 0 && i < nchanged; i++) {
		bool parent = false;

		/* A hook directory changes with each file made in it: name
		 * the file. */
		for (size_t j = 0; j < nchanged && !parent; j++)
			parent = j != i && strcmp(changed[i]->path, changed[j]->path) != 0 &&
				 lf_path_covers(changed[i]->path, changed[j]->path);
		if (parent)
			continue;
		snprintf(line, sizeof(line),
			 "the program changed %s, which runs outside the sandbox later (%s)",
			 changed[i]->path, changed[i]->why);
		r = add_line(&f, line);
	}
	free(changed);
	snap_items_free(now, nnow);
	if (r < 0) {
		lf_cli_findings_fini(&f);
		return r;
	}
	*out = f;
	return 0;
}
