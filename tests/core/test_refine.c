/* SPDX-License-Identifier: MIT */
/*
 * The refinement of the seed's plan (doc/model.md, "The refinement"), case
 * by case, on made-up facts: which fences are masked and how, which stay
 * drops and why, protections, pins, /etc as one rule and its bound. Pure:
 * the facts are written here, nothing touches the file system.
 */
#include <errno.h>
#include <stdio.h>

#include "core/sandbox.h"
#include "helpers.h"

struct fact {
	const char *rel; /* project-relative, "" the root */
	enum lf_ftype type;
};

struct world {
	struct lf_policy *p;
	struct lf_effective *e;
	struct lf_plan *plan;
	struct lf_sandbox_input *in;
	struct lf_sandbox *sb;
};

static enum lf_ftype type_of(const struct fact *facts, const char *abs)
{
	size_t rl = strlen(ROOT);

	if (strncmp(abs, ROOT, rl) != 0 || (abs[rl] && abs[rl] != '/'))
		return LF_FT_NONE;
	const char *rel = abs[rl] ? abs + rl + 1 : "";
	for (size_t i = 0; facts[i].rel; i++)
		if (!strcmp(facts[i].rel, rel))
			return facts[i].type;
	return LF_FT_NONE;
}

/* Compiles p with a namespace (or not) against the facts; the /etc
 * candidate gets etc_err when set. */
static void build(struct world *w, bool ns, const struct fact *facts, const char *etc_err)
{
	struct lf_diag d;
	struct lf_host host = {
		.project_root = ROOT,
		.probe = { .kernel = 7, .abi = 7, .cap = -1 },
		.ns = ns,
		.ns_failed = ns ? NULL : "made up: no namespace",
	};

	w->e = h_resolve1(w->p);
	w->plan = h_plan(w->e, ROOT);
	assert_int_equal(lf_sandbox_sources(w->e, w->plan, &host, NULL, 0, &w->in, &d), 0);
	for (size_t i = 0; i < w->in->ncands; i++) {
		struct lf_cand *c = &w->in->cands[i];
		enum lf_ftype t = type_of(facts, c->raw);

		if (c->flags & LF_CAND_LIST) {
			c->canon = strdup(c->raw);
			assert_non_null(c->canon);
			c->dir = 1;
			w->in->etc_checked = ns;
			if (etc_err)
				w->in->etc_err = strdup(etc_err);
			continue;
		}
		if (t == LF_FT_NONE) {
			c->err = ENOENT;
			continue;
		}
		c->canon = strdup(c->raw);
		c->dir = t == LF_FT_DIR;
	}
	for (size_t i = 0; i < w->in->nfences; i++) {
		struct lf_fence_in *f = &w->in->fences[i];

		f->canon = strdup(f->raw);
		f->type = type_of(facts, f->raw);
	}
	/* A protection's place: the project rows only. */
	for (size_t i = 0; i < w->in->nprotects; i++) {
		const struct lf_protect_in *pr = &w->in->protects[i];
		char *abs;

		if (pr->base != LF_PROTECT_PROJECT || !pr->rel)
			continue;
		abs = malloc(strlen(ROOT) + strlen(pr->rel) + 2);
		assert_non_null(abs);
		sprintf(abs, "%s/%s", ROOT, pr->rel);
		assert_int_equal(lf_grow((void **)&w->in->protect_paths, &w->in->protect_paths_cap,
					 w->in->nprotect_paths, sizeof(*w->in->protect_paths)),
				 0);
		w->in->protect_paths[w->in->nprotect_paths++] =
			(struct lf_protect_path){ abs, i, type_of(facts, abs) };
	}
	assert_int_equal(lf_sandbox_compile(w->in, &w->sb, &d), 0);
}

static void unbuild(struct world *w)
{
	lf_sandbox_free(w->sb);
	lf_sandbox_input_free(w->in);
	lf_plan_free(w->plan);
	lf_effective_free(w->e);
	lf_policy_free(w->p);
}

static const struct lf_sandbox_mask *mask_at(const struct lf_sandbox *sb, const char *rel)
{
	char abs[256];

	snprintf(abs, sizeof(abs), "%s/%s", ROOT, rel);
	for (size_t i = 0; i < lf_sandbox_mask_count(sb); i++)
		if (!strcmp(lf_sandbox_mask(sb, i)->path, abs))
			return lf_sandbox_mask(sb, i);
	return NULL;
}

static const struct lf_sandbox_fence *fence_at(const struct lf_sandbox *sb, const char *rel,
					       unsigned cls)
{
	char abs[256];

	snprintf(abs, sizeof(abs), "%s%s%s", ROOT, rel[0] ? "/" : "", rel);
	for (size_t i = 0; i < lf_sandbox_fence_count(sb); i++)
		if (!strcmp(lf_sandbox_fence(sb, i)->path, abs) &&
		    lf_sandbox_fence(sb, i)->access == cls)
			return lf_sandbox_fence(sb, i);
	return NULL;
}

static unsigned root_access(const struct lf_sandbox *sb)
{
	for (size_t i = 0; i < lf_sandbox_rule_count(sb); i++)
		if (!strcmp(lf_sandbox_rule(sb, i)->path, ROOT))
			return lf_sandbox_rule(sb, i)->access;
	return 0;
}

static const struct fact tree[] = {
	{ "", LF_FT_DIR },
	{ ".env", LF_FT_FILE },
	{ "secrets", LF_FT_DIR },
	{ "secrets/k", LF_FT_FILE },
	{ ".git", LF_FT_DIR },
	{ ".git/hooks", LF_FT_DIR },
	{ ".git/config", LF_FT_FILE },
	{ "src", LF_FT_DIR },
	{ "src/a.c", LF_FT_FILE },
	{ "a.pem", LF_FT_FILE },
	{ "lnk.pem", LF_FT_LINK },
	{ NULL, LF_FT_NONE },
};

/* The issue's policy: every fence masked, the allows back. */
static void refine_masks_the_issue_policy(void **state)
{
	struct world w = { 0 };
	(void)state;

	w.p = h_policy_fallback(LF_DENY);
	H_RULE(w.p, LF_CAP_READ, LF_ALLOW, 1, "**");
	H_RULE(w.p, LF_CAP_WRITE, LF_ALLOW, 2, "**");
	H_RULE(w.p, LF_CAP_READ, LF_DENY, 3, ".env");
	H_RULE(w.p, LF_CAP_READ, LF_DENY, 4, "secrets/**");
	H_RULE(w.p, LF_CAP_WRITE, LF_DENY, 5, ".git/hooks/**");
	H_RULE(w.p, LF_CAP_WRITE, LF_DENY, 6, ".git/config");
	build(&w, true, tree, NULL);
	assert_int_equal(root_access(w.sb), LF_ACCESS_RO | LF_ACCESS_RW);
	assert_int_equal(mask_at(w.sb, ".env")->kind, LF_MASK_HIDE_FILE);
	assert_int_equal(mask_at(w.sb, "secrets")->kind, LF_MASK_HIDE_DIR);
	assert_int_equal(mask_at(w.sb, ".git/hooks")->kind, LF_MASK_READ_ONLY);
	assert_int_equal(mask_at(w.sb, ".git/config")->kind, LF_MASK_READ_ONLY);
	assert_int_equal(fence_at(w.sb, ".env", LF_ACCESS_RO)->mechanism, LF_MECH_MASK);
	/* The plan's drops came back, and say so. */
	assert_true(lf_plan_dropped_count(w.plan) > 0);
	for (size_t i = 0; i < lf_plan_dropped_count(w.plan); i++)
		assert_true(lf_sandbox_readmitted(w.sb, lf_plan_dropped(w.plan, i)));
	/* .git is pinned: its parent, the project, is writable. */
	const struct lf_namespace *ns = lf_sandbox_namespace(w.sb);
	assert_true(ns->available);
	assert_int_equal(ns->npins, 1);
	assert_int_equal(ns->nnodev, 1);
	unbuild(&w);
}

/* What stays the seed's drop, and why. */
static void refine_drops_what_it_cannot_mask(void **state)
{
	static const struct {
		const char *glob;
		enum lf_capability cap;
		const char *fence_rel;
		const char *why; /* a substring */
	} cases[] = {
		{ "missing", LF_CAP_READ, "missing", "does not exist at launch" },
		{ "**", LF_CAP_READ, "", "covers the grant itself" },
		{ "*.pem", LF_CAP_WRITE, "",
		  "a matching path made during the run could be written" },
		{ "src/**", LF_CAP_WRITE, "src", NULL }, /* masked: the control case */
	};
	(void)state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct world w = { 0 };
		unsigned cls = cases[i].cap == LF_CAP_READ ? LF_ACCESS_RO : LF_ACCESS_RW;

		w.p = h_policy_fallback(LF_DENY);
		H_RULE(w.p, LF_CAP_READ, LF_ALLOW, 1, "**");
		H_RULE(w.p, LF_CAP_WRITE, LF_ALLOW, 2, "**");
		H_RULE(w.p, cases[i].cap, LF_DENY, 3, cases[i].glob);
		build(&w, true, tree, NULL);
		const struct lf_sandbox_fence *f = fence_at(w.sb, cases[i].fence_rel, cls);
		assert_non_null(f);
		if (!cases[i].why) {
			assert_int_equal(f->mechanism, LF_MECH_MASK);
			assert_true(root_access(w.sb) & cls);
		} else {
			if (f->mechanism != LF_MECH_DROP || !f->mechanism_why ||
			    !strstr(f->mechanism_why, cases[i].why))
				fail_msg("%s: mechanism %s (%s), want a drop: %s", cases[i].glob,
					 lf_mechanism_name(f->mechanism),
					 f->mechanism_why ? f->mechanism_why : "", cases[i].why);
			assert_false(root_access(w.sb) & cls);
		}
		unbuild(&w);
	}
}

/* A read glob with a tail is expanded: its matches masked, a link among
 * them refused. */
static void refine_expands_a_read_glob(void **state)
{
	struct world w = { 0 };
	(void)state;

	w.p = h_policy_fallback(LF_DENY);
	H_RULE(w.p, LF_CAP_READ, LF_ALLOW, 1, "**");
	H_RULE(w.p, LF_CAP_READ, LF_DENY, 2, "*.env");
	/* Facts by hand: ".env" matches "*.env". */
	build(&w, true, tree, NULL);
	/* Without the expansion facts (made up: not expanded) it is a drop. */
	assert_int_equal(fence_at(w.sb, "", LF_ACCESS_RO)->mechanism, LF_MECH_DROP);
	lf_sandbox_free(w.sb);
	w.sb = NULL;
	struct lf_diag d;
	struct lf_fence_in *f = &w.in->fences[0];
	f->expanded = true;
	f->nmatches = 1;
	f->matches_cap = 1;
	f->matches = calloc(1, sizeof(*f->matches));
	f->matches[0].path = strdup(ROOT "/.env");
	f->matches[0].type = LF_FT_FILE;
	assert_int_equal(lf_sandbox_compile(w.in, &w.sb, &d), 0);
	assert_int_equal(fence_at(w.sb, "", LF_ACCESS_RO)->mechanism, LF_MECH_MASK);
	assert_non_null(strstr(fence_at(w.sb, "", LF_ACCESS_RO)->mechanism_why,
			       "a match made during the run is not hidden"));
	assert_int_equal(mask_at(w.sb, ".env")->kind, LF_MASK_HIDE_FILE);
	assert_true(root_access(w.sb) & LF_ACCESS_RO);
	/* A link among the matches: no mask can cover it. */
	lf_sandbox_free(w.sb);
	w.sb = NULL;
	free(f->matches[0].path);
	f->matches[0].path = strdup(ROOT "/lnk.pem");
	f->matches[0].type = LF_FT_LINK;
	assert_int_equal(lf_sandbox_compile(w.in, &w.sb, &d), 0);
	assert_int_equal(fence_at(w.sb, "", LF_ACCESS_RO)->mechanism, LF_MECH_DROP);
	assert_false(root_access(w.sb) & LF_ACCESS_RO);
	unbuild(&w);
}

/* Without a namespace: the seed's drop, the reason named. */
static void refine_without_a_namespace(void **state)
{
	struct world w = { 0 };
	(void)state;

	w.p = h_policy_fallback(LF_DENY);
	H_RULE(w.p, LF_CAP_READ, LF_ALLOW, 1, "**");
	H_RULE(w.p, LF_CAP_READ, LF_DENY, 2, ".env");
	build(&w, false, tree, NULL);
	assert_int_equal(lf_sandbox_mask_count(w.sb), 0);
	assert_int_equal(root_access(w.sb), 0);
	assert_false(lf_sandbox_namespace(w.sb)->available);
	assert_string_equal(lf_sandbox_namespace(w.sb)->failed, "made up: no namespace");
	unbuild(&w);
}

/* Protections: masked where they exist, watched where not, lifted ones
 * watched; none drops a grant. */
static void refine_protects_persistence_paths(void **state)
{
	struct world w = { 0 };
	(void)state;

	w.p = h_policy_fallback(LF_DENY);
	H_RULE(w.p, LF_CAP_READ, LF_ALLOW, 1, "**");
	H_RULE(w.p, LF_CAP_WRITE, LF_ALLOW, 2, "**");
	assert_int_equal(lf_strv_push(&w.p->protect_lift, ".git/config"), 0);
	build(&w, true, tree, NULL);
	assert_int_equal(root_access(w.sb), LF_ACCESS_RO | LF_ACCESS_RW);
	const struct lf_sandbox_mask *m = mask_at(w.sb, ".git/hooks");
	assert_non_null(m);
	assert_int_equal(m->kind, LF_MASK_READ_ONLY);
	assert_int_equal(m->origin, LF_ORIGIN_PROTECT);
	assert_null(mask_at(w.sb, ".git/config")); /* lifted */
	bool lifted = false, missing = false;
	for (size_t i = 0; i < lf_sandbox_protect_count(w.sb); i++) {
		const struct lf_sandbox_protect *pr = lf_sandbox_protect(w.sb, i);
		if (!strcmp(pr->entry, ".git/config")) {
			lifted = pr->lifted && pr->mechanism == LF_MECH_WATCHED;
		}
		if (!strcmp(pr->entry, ".envrc"))
			missing = pr->mechanism == LF_MECH_WATCHED &&
				  strstr(pr->mechanism_why, "does not exist");
	}
	assert_true(lifted);
	assert_true(missing);
	unbuild(&w);
}

/* /etc as one rule; a look that could not finish grants no /etc. */
static void refine_etc_one_rule_and_its_bound(void **state)
{
	struct world w = { 0 };
	(void)state;

	w.p = h_policy_fallback(LF_DENY);
	H_RULE(w.p, LF_CAP_READ, LF_ALLOW, 1, "**");
	build(&w, true, tree, NULL);
	bool etc = false;
	for (size_t i = 0; i < lf_sandbox_rule_count(w.sb); i++)
		etc = etc || !strcmp(lf_sandbox_rule(w.sb, i)->path, "/etc");
	assert_true(etc);
	unbuild(&w);

	memset(&w, 0, sizeof(w));
	w.p = h_policy_fallback(LF_DENY);
	H_RULE(w.p, LF_CAP_READ, LF_ALLOW, 1, "**");
	build(&w, true, tree, "stopped after 50000 entries (limit)");
	for (size_t i = 0; i < lf_sandbox_rule_count(w.sb); i++)
		assert_false(lf_path_covers("/etc", lf_sandbox_rule(w.sb, i)->path));
	bool said = false;
	for (size_t i = 0; i < lf_sandbox_notice_count(w.sb); i++)
		said = said || strstr(lf_sandbox_notice(w.sb, i), "/etc is not granted");
	assert_true(said);
	unbuild(&w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(refine_masks_the_issue_policy),
		cmocka_unit_test(refine_drops_what_it_cannot_mask),
		cmocka_unit_test(refine_expands_a_read_glob),
		cmocka_unit_test(refine_without_a_namespace),
		cmocka_unit_test(refine_protects_persistence_paths),
		cmocka_unit_test(refine_etc_one_rule_and_its_bound),
	};
	return cmocka_run_group_tests_name("refine", tests, NULL, NULL);
}
