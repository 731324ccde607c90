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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(os_guard_never_grants_a_denied_or_asked_path),
	};
	return cmocka_run_group_tests_name("invariant", tests, NULL, NULL);
}
