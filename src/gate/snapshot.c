/* SPDX-License-Identifier: MIT */
/*
 * The post-run report (landfence.h, lf_snapshot_take): what the program
 * changed where code runs later outside the sandbox. Before launch, lstat
 * of every persistence path the sandbox value leaves writable and of the
 * files directly in the git hook directories among them (.git/hooks,
 * .husky, .githooks): existence, type and mode, size, mtime, inode. After
 * the program, the same again, compared.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/path.h"
#include "core/tables.h"
#include "gate/gate.h"

/* How many entries of one hook directory are looked at. */
#define SNAP_DIR_MAX 512

struct snap_item {
	char *path; /* owned */
	char *why;  /* what runs it, owned */
	bool exists;
	struct stat st;
};

struct snap_list {
	struct snap_item *v;
	size_t n, cap;
};

struct lf_snapshot {
	struct snap_list bases; /* the persistence paths */
	struct snap_list items; /* bases plus hook files, as taken */
	char *incomplete;	/* a hook directory not looked at whole, or NULL */
};

static int snap_push(struct snap_list *l, const char *path, const char *why)
{
	struct snap_item *it;

	if (lf_grow((void **)&l->v, &l->cap, l->n, sizeof(*l->v)) < 0)
		return -ENOMEM;
	it = &l->v[l->n];
	memset(it, 0, sizeof(*it));
	if (!(it->path = strdup(path)))
		return -ENOMEM;
	if (!(it->why = strdup(why))) {
		free(it->path);
		return -ENOMEM;
	}
	it->exists = lstat(path, &it->st) == 0;
	l->n++;
	return 0;
}

static void snap_list_fini(struct snap_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i].path);
		free(l->v[i].why);
	}
	free(l->v);
	memset(l, 0, sizeof(*l));
}

struct hook_walk {
	struct snap_list *l;
	const char *why;
};

/* git's own examples (pre-commit.sample, ...): git never runs a file
 * whose name ends in ".sample", and `git init` writes a dozen of them. */
static bool hook_sample(const char *name)
{
	size_t n = strlen(name);

	return n > 7 && !strcmp(name + n - 7, ".sample");
}

static int hook_visit(void *ctx, const struct lf_walk_entry *e)
{
	struct hook_walk *h = ctx;
	int r;

	if (hook_sample(e->name))
		return LF_WALK_SKIP;
	r = snap_push(h->l, e->path, h->why);

	/* Only the files directly in the hook directory run as hooks. */
	return r < 0 ? r : LF_WALK_SKIP;
}

/* lstat of every base, and of the files directly inside the hook
 * directories among them. */
static int snap_take(const struct lf_snapshot *s, struct snap_list *out, char **incomplete)
{
	int r = 0;

	for (size_t i = 0; r == 0 && i < s->bases.n; i++) {
		const struct snap_item *b = &s->bases.v[i];
		struct hook_walk h = { out, b->why };
		struct lf_walk w = { .visit = hook_visit, .ctx = &h };

		r = snap_push(out, b->path, b->why);
		if (r < 0)
			break;
		/* As the directory is now: the program may have made it. */
		const struct snap_item *now = &out->v[out->n - 1];
		if (!lf_persist_hook_dir(b->path) || !now->exists || !S_ISDIR(now->st.st_mode))
			continue;
		w.budget.max_entries = SNAP_DIR_MAX;
		lf_walk_begin(&w);
		r = lf_walk_run(&w, b->path);
		if (r == 0 && w.incomplete && incomplete && !*incomplete &&
		    asprintf(incomplete, "%s (%s)", b->path, w.reason ? w.reason : "") < 0)
			r = -ENOMEM;
		lf_walk_end(&w);
	}
	return r;
}

void lf_snapshot_free(struct lf_snapshot *s)
{
	if (!s)
		return;
	snap_list_fini(&s->bases);
	snap_list_fini(&s->items);
	free(s->incomplete);
	free(s);
}

int lf_snapshot_take(const struct lf_sandbox *sb, struct lf_snapshot **out)
{
	struct lf_snapshot *s;
	int r = 0;

	if (!sb || !out)
		return -EINVAL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	/* The protections a grant leaves writable and no mask keeps
	 * read-only (the value's list: every git directory's hooks and
	 * config, core.hooksPath, agent and editor settings...): the others
	 * cannot change. */
	for (size_t i = 0; r == 0 && i < sb->nprotects; i++)
		if (sb->protects[i].mechanism == LF_MECH_WATCHED)
			r = snap_push(&s->bases, sb->protects[i].path, sb->protects[i].why);
	if (r == 0)
		r = snap_take(s, &s->items, &s->incomplete);
	if (r < 0) {
		lf_snapshot_free(s);
		return r;
	}
	*out = s;
	return 0;
}

static bool snap_same(const struct snap_item *a, const struct snap_item *b)
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

/* A hook directory that is a directory before and after (or only after:
 * made by the program) is not news by itself: the files it holds are
 * compared one by one, so a hook the program planted is reported by its
 * name, and git's samples, which never run, are not. One that is removed,
 * or replaced by something else (a symbolic link elsewhere), is. */
static bool snap_hook_dir_kept(const struct snap_item *was, const struct snap_item *now)
{
	return lf_persist_hook_dir(now->path) && now->exists && S_ISDIR(now->st.st_mode) &&
	       (!was || !was->exists || S_ISDIR(was->st.st_mode));
}

static const struct snap_item *snap_find(const struct snap_list *l, const char *path)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i].path, path))
			return &l->v[i];
	return NULL;
}

static int report_changes(const struct snap_item **changed, size_t n, struct lf_findings *f)
{
	int r = 0;

	for (size_t i = 0; r == 0 && i < n; i++) {
		bool parent = false;

		/* A hook directory changes with each file made in it: name
		 * the file. */
		for (size_t j = 0; j < n && !parent; j++)
			parent = j != i && strcmp(changed[i]->path, changed[j]->path) != 0 &&
				 lf_path_covers(changed[i]->path, changed[j]->path);
		if (!parent)
			r = lf_findings_add(
				f, LF_SCAN_CHANGES, false, LF_SEVERITY_WARNING, changed[i]->path,
				"the program changed %s, which runs outside the sandbox later (%s)",
				changed[i]->path, changed[i]->why);
	}
	return r;
}

int lf_snapshot_compare(const struct lf_snapshot *before, struct lf_findings **out)
{
	struct lf_findings *f;
	struct snap_list now = { 0 };
	const struct snap_item **changed = NULL;
	size_t nchanged = 0;
	int r;

	if (!before || !out)
		return -EINVAL;
	f = calloc(1, sizeof(*f));
	if (!f)
		return -ENOMEM;
	r = snap_take(before, &now, NULL);
	if (r == 0 && !(changed = calloc(now.n + before->items.n + 1, sizeof(*changed))))
		r = -ENOMEM;
	for (size_t i = 0; r == 0 && i < now.n; i++) {
		const struct snap_item *was = snap_find(&before->items, now.v[i].path);

		if (snap_hook_dir_kept(was, &now.v[i]))
			continue;
		if (was ? !snap_same(was, &now.v[i]) : now.v[i].exists)
			changed[nchanged++] = &now.v[i];
	}
	for (size_t i = 0; r == 0 && i < before->items.n; i++)
		if (before->items.v[i].exists && !snap_find(&now, before->items.v[i].path))
			changed[nchanged++] = &before->items.v[i];
	if (r == 0)
		r = report_changes(changed, nchanged, f);
	if (r == 0 && before->incomplete)
		r = lf_findings_add(f, LF_SCAN_CHANGES, true, LF_SEVERITY_WARNING, NULL,
				    "only the first %d entries of %s were looked at: a change to "
				    "the others is not reported",
				    SNAP_DIR_MAX, before->incomplete);
	free(changed);
	snap_list_fini(&now);
	if (r < 0) {
		lf_findings_free(f);
		return r;
	}
	*out = f;
	return 0;
}
