/* SPDX-License-Identifier: MIT */
/*
 * SPEC §2's invariant on random policies: the OS guard never grants what a
 * rule denies or asks. For every path p inside the project and each access
 * class C, if a plan grant carrying C has a root equal to or above p, then
 * no deny or ask rule of class C matches p.
 *
 * Policies use a small alphabet of segments so that rules overlap often.
 * The seed is printed (LANDFENCE_SEED=N reproduces a run); a failing case is
 * minimised and printed as a ready-to-paste cmocka test.
 */
#include <inttypes.h>
#include <stdio.h>

#include <errno.h>

#include "core/sandbox.h"
#include "helpers.h"

#define POLICIES 2500
#define PATHS_PER_POLICY 40 /* 100,000 cases, two classes each */
#define MAX_ITEMS 16

struct item {
	enum lf_capability cap;
	enum lf_effect effect;
	char glob[64];
};

struct built {
	struct lf_policy *p;
	struct lf_effective *e;
	struct lf_plan *plan;
};

static unsigned class_of(enum lf_capability cap)
{
	return cap == LF_CAP_READ ? LF_ACCESS_RO : LF_ACCESS_RW;
}

static void build(const struct item *items, size_t n, struct built *b)
{
	b->p = h_policy_fallback(LF_ASK);
	for (size_t i = 0; i < n; i++)
		H_RULE(b->p, items[i].cap, items[i].effect, (unsigned)i + 1, items[i].glob);
	b->e = h_resolve1(b->p);
	b->plan = h_plan(b->e, ROOT);
}

static void unbuild(struct built *b)
{
	lf_plan_free(b->plan);
	lf_effective_free(b->e);
	lf_policy_free(b->p);
}

/* Whether a grant of class cls has a root equal to or above path. */
static bool granted(const struct lf_plan *plan, unsigned cls, const char *path)
{
	size_t rl = strlen(ROOT);
	for (size_t i = 0; i < lf_plan_grant_count(plan); i++) {
		const struct lf_grant *g = lf_plan_grant(plan, i);
		if (!(g->access & cls))
			continue;
		const char *rel = g->abs_root + rl;
		if (*rel == '/')
			rel++;
		size_t len = strlen(rel);
		if (len == 0 ||
		    (strncmp(path, rel, len) == 0 && (path[len] == '\0' || path[len] == '/')))
			return true;
	}
	return false;
}

/* The number (1-based) of a deny or ask rule of class cls matching path
 * under a grant of that class, or 0 when the invariant holds. */
static size_t violation(const struct built *b, const char *path, unsigned cls)
{
	if (!granted(b->plan, cls, path))
		return 0;
	for (size_t i = 0; i < b->p->nrules; i++) {
		const struct lf_rule *r = &b->p->rules[i];
		if (r->effect == LF_ALLOW || class_of(r->cap) != cls)
			continue;
		for (size_t k = 0; k < r->nglobs; k++)
			if (lf_glob_match(&r->globs[k], path))
				return i + 1;
	}
	return 0;
}

static bool fails(const struct item *items, size_t n, const char *path, unsigned cls)
{
	struct built b;
	build(items, n, &b);
	bool bad = violation(&b, path, cls) != 0;
	unbuild(&b);
	return bad;
}

static const char *cap_macro(enum lf_capability c)
{
	return c == LF_CAP_READ	   ? "LF_CAP_READ"
	       : c == LF_CAP_WRITE ? "LF_CAP_WRITE"
				   : "LF_CAP_DELETE";
}

static const char *effect_macro(enum lf_effect e)
{
	return e == LF_ALLOW ? "LF_ALLOW" : e == LF_ASK ? "LF_ASK" : "LF_DENY";
}

/* Drops rules one at a time while the case still fails, then prints it. */
static void report(uint64_t seed, struct item *items, size_t n, const char *path, unsigned cls)
{
	for (size_t i = 0; i < n;) {
		struct item keep = items[i];
		memmove(&items[i], &items[i + 1], (n - i - 1) * sizeof(*items));
		if (fails(items, n - 1, path, cls)) {
			n--;
		} else {
			memmove(&items[i + 1], &items[i], (n - i - 1) * sizeof(*items));
			items[i] = keep;
			i++;
		}
	}
	struct built b;
	build(items, n, &b);
	size_t rule = violation(&b, path, cls);
	unbuild(&b);

	print_error("invariant broken (LANDFENCE_SEED=%" PRIu64 "): path \"%s\" is granted %s "
		    "yet rule %zu matches it. Minimised case:\n\n",
		    seed, path, cls == LF_ACCESS_RO ? "RO" : "RW", rule);
	print_error("static void invariant_seed_%" PRIu64 "(void **state)\n{\n", seed);
	print_error("\t(void)state;\n\tstruct lf_policy *p = h_policy_fallback(LF_ASK);\n");
	for (size_t i = 0; i < n; i++)
		print_error("\tH_RULE(p, %s, %s, %zu, \"%s\");\n", cap_macro(items[i].cap),
			    effect_macro(items[i].effect), i + 1, items[i].glob);
	print_error("\tstruct lf_effective *e = h_resolve1(p);\n"
		    "\tstruct lf_plan *plan = h_plan(e, ROOT);\n"
		    "\t/* no grant of class %s may cover \"%s\" */\n"
		    "\tconst char *want = ROOT \"/%s\";\n"
		    "\tfor (size_t i = 0; i < lf_plan_grant_count(plan); i++) {\n"
		    "\t\tconst struct lf_grant *g = lf_plan_grant(plan, i);\n"
		    "\t\tsize_t n = strlen(g->abs_root);\n"
		    "\t\tif (g->access & %s)\n"
		    "\t\t\tassert_false(strncmp(want, g->abs_root, n) == 0 &&\n"
		    "\t\t\t\t     (want[n] == '\\0' || want[n] == '/'));\n"
		    "\t}\n"
		    "\tlf_plan_free(plan);\n\tlf_effective_free(e);\n\tlf_policy_free(p);\n}\n\n",
		    cls == LF_ACCESS_RO ? "RO" : "RW", path, path,
		    cls == LF_ACCESS_RO ? "LF_ACCESS_RO" : "LF_ACCESS_RW");
}

static void os_guard_never_grants_a_denied_or_asked_path(void **state)
{
	(void)state;
	uint64_t seed = h_seed();
	print_message("invariant: LANDFENCE_SEED=%" PRIu64 "\n", seed);
	uint64_t s = seed;
	size_t cases = 0, covered = 0;

	for (int round = 0; round < POLICIES; round++) {
		struct item items[MAX_ITEMS];
		size_t n = 1 + h_below(&s, MAX_ITEMS);
		for (size_t i = 0; i < n; i++) {
			items[i].cap = (enum lf_capability)h_below(&s, 3);
			/* Half allows, so that grants survive often enough. */
			size_t e = h_below(&s, 4);
			items[i].effect = e < 2 ? LF_ALLOW : e == 2 ? LF_ASK : LF_DENY;
			h_random_glob(&s, items[i].glob);
		}
		struct built b;
		build(items, n, &b);
		for (int k = 0; k < PATHS_PER_POLICY; k++) {
			char path[64];
			h_random_path(&s, path);
			cases++;
			const unsigned classes[] = { LF_ACCESS_RO, LF_ACCESS_RW };
			for (int c = 0; c < 2; c++) {
				covered += granted(b.plan, classes[c], path);
				if (violation(&b, path, classes[c])) {
					unbuild(&b);
					report(seed, items, n, path, classes[c]);
					fail();
				}
			}
		}
		unbuild(&b);
	}
	print_message("invariant: %zu cases, %zu (path, class) pairs under a grant\n", cases,
		      covered);
	assert_true(cases >= 100000);
	/* The run means something only if grants do cover paths. */
	assert_true(covered > cases / 20);
}

/* ------------------------------------------------------------------------
 * The refinement (doc/model.md): the sandbox value compiled with a mount
 * namespace, from facts about a random tree. For every path of the tree
 * and every class C, if a final rule of C covers it and no mask keeps C
 * from it, no deny or ask rule of C matches it; the same for paths made
 * after launch, where the only exception is the documented one: a read
 * fence whose glob was expanded at launch does not cover what matches
 * later. Pure: the facts are made up, nothing touches the file system.
 */

#define TREE_MAX 48

struct tnode {
	char rel[64];
	enum lf_ftype type;
};

struct tree {
	struct tnode v[TREE_MAX];
	size_t n;
};

static struct tnode *tree_find(struct tree *t, const char *rel)
{
	for (size_t i = 0; i < t->n; i++)
		if (!strcmp(t->v[i].rel, rel))
			return &t->v[i];
	return NULL;
}

/* Adds rel and its parents as directories; rel itself a file or a
 * directory (a parent that was a file stays one: rel is then dropped). */
static void tree_add(struct tree *t, const char *rel, enum lf_ftype type)
{
	char buf[64];

	for (const char *c = rel; (c = strchr(c, '/')); c++) {
		snprintf(buf, sizeof(buf), "%.*s", (int)(c - rel), rel);
		struct tnode *n = tree_find(t, buf);
		if (n && n->type != LF_FT_DIR)
			return;
		if (!n && t->n < TREE_MAX) {
			t->v[t->n].type = LF_FT_DIR;
			snprintf(t->v[t->n++].rel, sizeof(t->v[0].rel), "%s", buf);
		}
	}
	if (!tree_find(t, rel) && t->n < TREE_MAX) {
		t->v[t->n].type = type;
		snprintf(t->v[t->n++].rel, sizeof(t->v[0].rel), "%s", rel);
	}
}

static void tree_random(uint64_t *s, struct tree *t)
{
	t->n = 0;
	tree_add(t, "", LF_FT_DIR);
	for (int i = 0; i < 24; i++) {
		char rel[64];
		h_random_path(s, rel);
		if (rel[0])
			tree_add(t, rel, h_below(s, 3) ? LF_FT_DIR : LF_FT_FILE);
	}
}

static const char *rel_of(const char *abs)
{
	size_t rl = strlen(ROOT);
	if (strncmp(abs, ROOT, rl) != 0 || (abs[rl] && abs[rl] != '/'))
		return NULL;
	return abs[rl] ? abs + rl + 1 : "";
}

static bool glob_tail(const struct lf_glob *g)
{
	const char *tail = g->pattern + g->prefix_len;
	return *tail && strcmp(tail, g->prefix_len ? "/**" : "**") != 0;
}

/* The facts the I/O step would gather on tree t. */
static void facts_made_up(struct lf_sandbox_input *in, struct tree *t)
{
	for (size_t i = 0; i < in->ncands; i++) {
		struct lf_cand *c = &in->cands[i];
		const char *rel = rel_of(c->raw);
		struct tnode *n = rel ? tree_find(t, rel) : NULL;

		if (!n) {
			c->err = ENOENT;
			continue;
		}
		c->canon = strdup(c->raw);
		assert_non_null(c->canon);
		c->dir = n->type == LF_FT_DIR;
		c->exists = true;
	}
	for (size_t i = 0; i < in->nfences; i++) {
		struct lf_fence_in *f = &in->fences[i];
		const char *rel = rel_of(f->raw);
		struct tnode *n = rel ? tree_find(t, rel) : NULL;
		bool above_read_grant = false;

		f->canon = strdup(f->raw);
		assert_non_null(f->canon);
		f->type = n ? n->type : LF_FT_NONE;
		for (size_t k = 0; k < in->ncands; k++)
			above_read_grant =
				above_read_grant || ((in->cands[k].access & LF_ACCESS_RO) &&
						     lf_path_covers(f->raw, in->cands[k].raw));
		if (!(f->glob && f->access == LF_ACCESS_RO && f->type == LF_FT_DIR &&
		      glob_tail(f->glob) && above_read_grant))
			continue;
		f->expanded = true;
		for (size_t k = 0; k < t->n; k++) {
			const char *r = t->v[k].rel;
			bool under_match = false;

			if (!r[0] || !lf_glob_match(f->glob, r) ||
			    !(rel[0] == '\0' || lf_path_covers(rel, r)))
				continue;
			/* A matching directory is masked whole: nothing below it. */
			for (size_t m = 0; m < f->nmatches; m++)
				under_match =
					under_match ||
					lf_path_covers(f->matches[m].path + strlen(ROOT) + 1, r);
			if (under_match)
				continue;
			assert_int_equal(lf_grow((void **)&f->matches, &f->matches_cap, f->nmatches,
						 sizeof(*f->matches)),
					 0);
			char *abs = malloc(strlen(ROOT) + strlen(r) + 2);
			assert_non_null(abs);
			sprintf(abs, "%s/%s", ROOT, r);
			f->matches[f->nmatches++] = (struct lf_typed_path){ abs, t->v[k].type };
		}
	}
}

/* Whether the kernel's view grants class cls on the project path rel:
 * a final rule covers it and no mask keeps the class from it. */
static bool view_grants(const struct lf_sandbox *sb, const char *rel, unsigned cls)
{
	char abs[256];
	bool ruled = false;

	snprintf(abs, sizeof(abs), "%s%s%s", ROOT, rel[0] ? "/" : "", rel);
	for (size_t i = 0; i < lf_sandbox_rule_count(sb) && !ruled; i++) {
		const struct lf_sandbox_rule *r = lf_sandbox_rule(sb, i);
		ruled = (r->access & cls) && lf_path_covers(r->path, abs);
	}
	return ruled && !lf_sandbox_masked(sb, abs, cls);
}

/* The deny or ask rule of class cls matching rel, and whether every one
 * that does is a read fence expanded at launch. */
static const struct lf_rule *denied_by(const struct lf_effective *e,
				       const struct lf_sandbox_input *in, const char *rel,
				       unsigned cls, bool *expanded_only)
{
	const struct lf_rule *first = NULL;

	*expanded_only = true;
	for (size_t i = 0; i < e->nrules; i++) {
		const struct lf_rule *r = e->rules[i];
		if (r->cap == LF_CAP_BASH || r->effect == LF_ALLOW || class_of(r->cap) != cls)
			continue;
		for (size_t k = 0; k < r->nglobs; k++) {
			if (!lf_glob_match(&r->globs[k], rel))
				continue;
			bool exp = false;
			for (size_t f = 0; f < in->nfences; f++)
				exp = exp || (in->fences[f].glob == &r->globs[k] &&
					      in->fences[f].expanded);
			*expanded_only = *expanded_only && exp;
			if (!first)
				first = r;
		}
	}
	return first;
}

static void rules_plus_masks_never_grant_a_denied_or_asked_path(void **state)
{
	(void)state;
	uint64_t seed = h_seed();
	print_message("invariant with masks: LANDFENCE_SEED=%" PRIu64 "\n", seed);
	uint64_t s = seed;
	size_t cases = 0, kept = 0, masked = 0, later = 0;

	for (int round = 0; round < 1500; round++) {
		struct item items[MAX_ITEMS];
		size_t n = 1 + h_below(&s, 8);
		struct tree t;
		struct built b;

		for (size_t i = 0; i < n; i++) {
			items[i].cap = (enum lf_capability)h_below(&s, 3);
			/* Allows of the whole project often: the refinement's case. */
			size_t e = h_below(&s, 6);
			items[i].effect = e < 3 ? LF_ALLOW : e < 5 ? LF_DENY : LF_ASK;
			if (items[i].effect == LF_ALLOW && h_below(&s, 2))
				snprintf(items[i].glob, sizeof(items[i].glob), "**");
			else
				h_random_glob(&s, items[i].glob);
		}
		tree_random(&s, &t);
		build(items, n, &b);
		b.p->fallback = (lf_posture)h_below(&s, 3);

		struct lf_host host = {
			.project_root = ROOT,
			.probe = { .kernel = 7, .abi = 7, .cap = -1 },
			.ns = true,
		};
		struct lf_sandbox_input *in = NULL;
		struct lf_sandbox *sb = NULL;
		struct lf_diag d;
		assert_int_equal(lf_sandbox_sources(b.e, b.plan, &host, NULL, 0, &in, &d), 0);
		facts_made_up(in, &t);
		int r = lf_sandbox_compile(in, &sb, &d);
		if (r == -EOPNOTSUPP) {
			lf_sandbox_input_free(in);
			unbuild(&b);
			continue;
		}
		assert_int_equal(r, 0);
		masked += lf_sandbox_mask_count(sb) > 0;
		for (size_t i = 0; i < lf_plan_dropped_count(b.plan); i++)
			kept += lf_sandbox_readmitted(sb, lf_plan_dropped(b.plan, i));
		/* Every mask lies on a path that exists, of its kind. */
		for (size_t i = 0; i < lf_sandbox_mask_count(sb); i++) {
			const struct lf_sandbox_mask *m = lf_sandbox_mask(sb, i);
			struct tnode *node =
				rel_of(m->path) ? tree_find(&t, rel_of(m->path)) : NULL;
			assert_non_null(node);
			if (m->kind == LF_MASK_HIDE_DIR)
				assert_int_equal(node->type, LF_FT_DIR);
			if (m->kind == LF_MASK_HIDE_FILE)
				assert_int_equal(node->type, LF_FT_FILE);
		}
		/* The tree at launch, and one new name in each directory. */
		for (size_t i = 0; i < t.n * 2; i++) {
			char rel[160];
			bool made_later = i >= t.n;
			const struct tnode *node = &t.v[i % t.n];

			if (made_later) {
				if (node->type != LF_FT_DIR)
					continue;
				snprintf(rel, sizeof(rel), "%s%snew%zu", node->rel,
					 node->rel[0] ? "/" : "", i);
				/* Sometimes a name a glob of the alphabet matches. */
				if (h_below(&s, 2))
					snprintf(rel, sizeof(rel), "%s%s%s", node->rel,
						 node->rel[0] ? "/" : "",
						 h_path_segs[h_below(&s, 5)]);
				if (tree_find(&t, rel))
					continue;
			} else {
				snprintf(rel, sizeof(rel), "%s", node->rel);
			}
			for (unsigned cls = LF_ACCESS_RO; cls <= LF_ACCESS_RW; cls <<= 1) {
				bool expanded_only;
				const struct lf_rule *rule;

				cases++;
				if (!view_grants(sb, rel, cls))
					continue;
				rule = denied_by(b.e, in, rel, cls, &expanded_only);
				if (!rule)
					continue;
				if (made_later && cls == LF_ACCESS_RO && expanded_only) {
					later++; /* the documented exception */
					continue;
				}
				for (size_t k = 0; k < n; k++)
					print_error("rule %zu: %s %s %s\n", k + 1,
						    lf_effect_name(items[k].effect),
						    lf_capability_name(items[k].cap),
						    items[k].glob);
				for (size_t k = 0; k < t.n; k++)
					print_error("tree: %s %s\n", t.v[k].rel,
						    t.v[k].type == LF_FT_DIR ? "dir" : "file");
				for (size_t k = 0; k < lf_sandbox_mask_count(sb); k++)
					print_error("mask: %s %d\n", lf_sandbox_mask(sb, k)->path,
						    lf_sandbox_mask(sb, k)->kind);
				for (size_t k = 0; k < lf_sandbox_rule_count(sb); k++)
					print_error("rule: %s %u\n", lf_sandbox_rule(sb, k)->path,
						    lf_sandbox_rule(sb, k)->access);
				fail_msg("LANDFENCE_SEED=%" PRIu64 " round %d: %s path \"%s\" is "
					 "granted %s by rules and masks, yet rule %u denies or "
					 "asks it",
					 seed, round, made_later ? "a later" : "the", rel,
					 cls == LF_ACCESS_RO ? "read" : "write", rule->source.line);
			}
		}
		lf_sandbox_free(sb);
		lf_sandbox_input_free(in);
		unbuild(&b);
	}
	print_message("invariant with masks: %zu cases, %zu allows given back by masks, %zu "
		      "values with masks, %zu later matches of expanded globs\n",
		      cases, kept, masked, later);
	assert_true(cases >= 50000);
	assert_true(kept > 0 && masked > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(os_guard_never_grants_a_denied_or_asked_path),
		cmocka_unit_test(rules_plus_masks_never_grant_a_denied_or_asked_path),
	};
	return cmocka_run_group_tests_name("invariant", tests, NULL, NULL);
}
