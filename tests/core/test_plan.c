/* SPDX-License-Identifier: MIT */
/*
 * The plan compiler beyond the seed's own tests: ask fences, the record of
 * dropped allows, the exposed fences, argument errors, and agreement with a
 * direct port of the seed's quadratic algorithm on random policies.
 */
#include <inttypes.h>
#include <stdio.h>

#include "helpers.h"

static unsigned class_of(enum lf_capability cap)
{
	return cap == LF_CAP_READ ? LF_ACCESS_RO : LF_ACCESS_RW;
}

static void ask_rules_fence_like_deny(void **state)
{
	(void)state;
	struct lf_policy *p = h_policy_fallback(LF_ASK);
	H_RULE(p, LF_CAP_READ, LF_ALLOW, 1, "src/**", "docs/**");
	H_RULE(p, LF_CAP_WRITE, LF_ALLOW, 2, "src/**");
	H_RULE(p, LF_CAP_READ, LF_ASK, 3, "src/private/*.key");
	struct lf_effective *e = h_resolve1(p);
	struct lf_plan *plan = h_plan(e, ROOT);

	assert_int_equal(lf_plan_grant_count(plan), 2);
	/* Grants keep the order in which surviving roots first appear: the
	 * read allow on src is fenced, so docs comes first. */
	assert_string_equal(lf_plan_grant(plan, 0)->abs_root, ROOT "/docs");
	assert_int_equal(lf_plan_grant(plan, 0)->access, LF_ACCESS_RO);
	assert_string_equal(lf_plan_grant(plan, 1)->abs_root, ROOT "/src");
	assert_int_equal(lf_plan_grant(plan, 1)->access, LF_ACCESS_RW);
	assert_null(lf_plan_grant(plan, 2));

	assert_int_equal(lf_plan_dropped_count(plan), 1);
	const struct lf_dropped *d = lf_plan_dropped(plan, 0);
	assert_string_equal(d->abs_root, ROOT "/src");
	assert_int_equal(d->access, LF_ACCESS_RO);
	assert_int_equal(d->allow.line, 1);
	assert_string_equal(d->allow.file, "policy.json");
	assert_string_equal(d->fence_root, ROOT "/src/private");
	assert_int_equal(d->fence.line, 3);
	assert_int_equal(d->fence_effect, LF_ASK);
	assert_null(lf_plan_dropped(plan, 1));

	assert_int_equal(lf_plan_fence_count(plan), 1);
	const struct lf_fence *f = lf_plan_fence(plan, 0);
	assert_string_equal(f->rel_root, "src/private");
	assert_string_equal(f->abs_root, ROOT "/src/private");
	assert_int_equal(f->access, LF_ACCESS_RO);
	assert_int_equal(f->effect, LF_ASK);
	assert_int_equal(f->source.line, 3);
	assert_null(lf_plan_fence(plan, 1));

	lf_plan_free(plan);
	lf_effective_free(e);
	lf_policy_free(p);
}

static void fences_keep_pool_order_and_roots(void **state)
{
	(void)state;
	struct lf_policy *p = h_policy_fallback(LF_DENY);
	H_RULE(p, LF_CAP_DELETE, LF_DENY, 1, ".git/**");
	H_RULE(p, LF_CAP_READ, LF_DENY, 2, "**/*.pem", "keys");
	H_RULE(p, LF_CAP_READ, LF_ALLOW, 3, "**");
	struct lf_effective *e = h_resolve1(p);
	struct lf_plan *plan = h_plan(e, "/");
	assert_int_equal(lf_plan_fence_count(plan), 3);
	assert_string_equal(lf_plan_fence(plan, 0)->rel_root, ".git");
	assert_string_equal(lf_plan_fence(plan, 0)->abs_root, "/.git");
	assert_int_equal(lf_plan_fence(plan, 0)->access, LF_ACCESS_RW);
	assert_string_equal(lf_plan_fence(plan, 1)->rel_root, "");
	assert_string_equal(lf_plan_fence(plan, 1)->abs_root, "/");
	assert_string_equal(lf_plan_fence(plan, 2)->rel_root, "keys");
	/* The read allow on the root meets the root fence first. */
	assert_int_equal(lf_plan_grant_count(plan), 0);
	assert_int_equal(lf_plan_dropped_count(plan), 1);
	assert_int_equal(lf_plan_dropped(plan, 0)->fence.line, 2);
	assert_string_equal(lf_plan_dropped(plan, 0)->fence_root, "/");
	assert_int_equal(lf_plan_default_posture(plan), LF_DENY);
	lf_plan_free(plan);
	lf_effective_free(e);
	lf_policy_free(p);
}

static void plan_rejects_bad_context(void **state)
{
	(void)state;
	struct lf_policy *p = h_policy_fallback(LF_ASK);
	struct lf_effective *e = h_resolve1(p);
	struct lf_plan *plan = (struct lf_plan *)1;
	struct lf_context rel = { .project_root = "proj", .run_dir = "/x" };
	struct lf_context none = { .project_root = NULL, .run_dir = "/x" };
	assert_int_equal(lf_plan_compile(e, NULL, &plan), -EINVAL);
	assert_int_equal(lf_plan_compile(e, &rel, &plan), -EINVAL);
	assert_int_equal(lf_plan_compile(e, &none, &plan), -EINVAL);
	assert_int_equal(lf_plan_compile(e, &rel, NULL), -EINVAL);
	assert_ptr_equal(plan, (struct lf_plan *)1);
	lf_plan_free(NULL);
	assert_int_equal(lf_plan_grant_count(NULL), 0);
	lf_effective_free(e);
	lf_policy_free(p);
}

/* ---- the seed's algorithm, ported literally, as the oracle ----------- */

struct ref_grant {
	char rel[512];
	unsigned access;
};

struct ref_dropped {
	char rel[512];
	unsigned access;
	unsigned allow_line;
	unsigned fence_line;
};

struct ref_plan {
	struct ref_grant *g;
	size_t ng;
	struct ref_dropped *d;
	size_t nd;
};

static void prefix_of(const struct lf_glob *g, char *out)
{
	memcpy(out, g->pattern, g->prefix_len);
	out[g->prefix_len] = '\0';
}

static void ref_compile(const struct lf_effective *e, struct ref_plan *rp)
{
	size_t n = 0;
	for (size_t i = 0; i < e->nrules; i++)
		n += e->rules[i]->nglobs;
	memset(rp, 0, sizeof(*rp));
	rp->g = calloc(n + 1, sizeof(*rp->g));
	rp->d = calloc(n + 1, sizeof(*rp->d));
	assert_non_null(rp->g);
	assert_non_null(rp->d);
	for (size_t i = 0; i < e->nrules; i++) {
		const struct lf_rule *r = e->rules[i];
		if (r->cap == LF_CAP_BASH || r->effect != LF_ALLOW)
			continue;
		for (size_t k = 0; k < r->nglobs; k++) {
			char rel[512];
			prefix_of(&r->globs[k], rel);
			const struct lf_rule *fence = NULL;
			/* Fences in pool order: the first conflicting one. */
			for (size_t j = 0; j < e->nrules && !fence; j++) {
				const struct lf_rule *f = e->rules[j];
				if (f->cap == LF_CAP_BASH || f->effect == LF_ALLOW ||
				    class_of(f->cap) != class_of(r->cap))
					continue;
				for (size_t m = 0; m < f->nglobs && !fence; m++) {
					char frel[512];
					prefix_of(&f->globs[m], frel);
					if (lf_path_conflict(rel, strlen(rel), frel, strlen(frel)))
						fence = f;
				}
			}
			if (fence) {
				struct ref_dropped *d = &rp->d[rp->nd++];
				strcpy(d->rel, rel);
				d->access = class_of(r->cap);
				d->allow_line = r->source.line;
				d->fence_line = fence->source.line;
				continue;
			}
			size_t x = 0;
			while (x < rp->ng && strcmp(rp->g[x].rel, rel) != 0)
				x++;
			if (x == rp->ng)
				strcpy(rp->g[rp->ng++].rel, rel);
			rp->g[x].access |= class_of(r->cap);
		}
	}
}

static void ref_free(struct ref_plan *rp)
{
	free(rp->g);
	free(rp->d);
}

static void abs_of(const char *rel, char *out)
{
	strcpy(out, ROOT);
	if (*rel) {
		strcat(out, "/");
		strcat(out, rel);
	}
}

/* Compiles p both ways and compares grants (order, access) and drops
 * (root, class, allow, fence). */
static void check_against_seed(const struct lf_policy *p, uint64_t seed, int round)
{
	struct lf_effective *e = h_resolve1(p);
	struct lf_plan *plan = h_plan(e, ROOT);
	struct ref_plan rp;
	ref_compile(e, &rp);

	char abs[600];
	assert_int_equal(lf_plan_grant_count(plan), rp.ng);
	for (size_t i = 0; i < rp.ng; i++) {
		abs_of(rp.g[i].rel, abs);
		assert_string_equal(lf_plan_grant(plan, i)->abs_root, abs);
		assert_int_equal(lf_plan_grant(plan, i)->access, rp.g[i].access);
	}
	assert_int_equal(lf_plan_dropped_count(plan), rp.nd);
	for (size_t i = 0; i < rp.nd; i++) {
		const struct lf_dropped *d = lf_plan_dropped(plan, i);
		abs_of(rp.d[i].rel, abs);
		assert_string_equal(d->abs_root, abs);
		assert_int_equal(d->access, rp.d[i].access);
		assert_int_equal(d->allow.line, rp.d[i].allow_line);
		if (d->fence.line != rp.d[i].fence_line)
			print_error("seed %" PRIu64 " round %d: dropped %s by line %u, "
				    "expected line %u\n",
				    seed, round, d->abs_root, d->fence.line, rp.d[i].fence_line);
		assert_int_equal(d->fence.line, rp.d[i].fence_line);
	}
	ref_free(&rp);
	lf_plan_free(plan);
	lf_effective_free(e);
}

static void plan_matches_seed_algorithm(void **state)
{
	(void)state;
	uint64_t seed = h_seed();
	print_message("plan_matches_seed_algorithm: LANDFENCE_SEED=%" PRIu64 "\n", seed);
	uint64_t s = seed;
	for (int round = 0; round < 2000; round++) {
		struct lf_policy *p = h_policy_fallback(LF_ASK);
		size_t nrules = 1 + h_below(&s, 25);
		for (size_t i = 0; i < nrules; i++) {
			char g1[64], g2[64];
			h_random_glob(&s, g1);
			h_random_glob(&s, g2);
			enum lf_capability cap = (enum lf_capability)h_below(&s, 3);
			/* allows half of the time */
			enum lf_effect eff =
				h_below(&s, 2) ? LF_ALLOW : (enum lf_effect)(1 + h_below(&s, 2));
			H_RULE(p, cap, eff, (unsigned)i + 1, g1, g2);
		}
		check_against_seed(p, seed, round);
		lf_policy_free(p);
	}
}

/* Larger policies over deeper trees: the compiler's map grows many times
 * over, and a fence deeper than 64 levels takes the long way up. */
static void plan_matches_seed_algorithm_large(void **state)
{
	(void)state;
	uint64_t seed = h_seed();
	print_message("plan_matches_seed_algorithm_large: LANDFENCE_SEED=%" PRIu64 "\n", seed);
	uint64_t s = seed;
	for (int round = 0; round < 3; round++) {
		struct lf_policy *p = h_policy_fallback(LF_ASK);
		for (unsigned i = 0; i < 3000; i++) {
			char pat[512];
			size_t n = 0;
			size_t depth = 1 + h_below(&s, 6);
			for (size_t d = 0; d < depth; d++)
				n += (size_t)snprintf(pat + n, sizeof(pat) - n, "%sd%zu",
						      d ? "/" : "", h_below(&s, d == 0 ? 40 : 4));
			if (h_below(&s, 3) == 0)
				snprintf(pat + n, sizeof(pat) - n, "/**");
			enum lf_effect eff =
				h_below(&s, 2) ? LF_ALLOW : (enum lf_effect)(1 + h_below(&s, 2));
			H_RULE(p, (enum lf_capability)h_below(&s, 3), eff, i + 1, pat);
		}
		/* 70 levels deep, fenced, and allows around it. */
		char deep[512] = "d1";
		for (int d = 0; d < 70; d++)
			strcat(deep, "/x");
		H_RULE(p, LF_CAP_READ, LF_DENY, 3001, deep);
		H_RULE(p, LF_CAP_READ, LF_ALLOW, 3002, "d1/x/x/**", "d1/x/x/x/x/x/x/x/x/x/x/x/x/x");
		check_against_seed(p, seed, round);
		lf_policy_free(p);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ask_rules_fence_like_deny),
		cmocka_unit_test(fences_keep_pool_order_and_roots),
		cmocka_unit_test(plan_rejects_bad_context),
		cmocka_unit_test(plan_matches_seed_algorithm),
		cmocka_unit_test(plan_matches_seed_algorithm_large),
	};
	return cmocka_run_group_tests_name("plan", tests, NULL, NULL);
}
