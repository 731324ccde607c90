/* SPDX-License-Identifier: MIT */
/*
 * Small builders shared by the core tests: policies written in a line of C.
 * A builder failure is a test failure (cmocka assertions).
 */
#ifndef LF_TESTS_CORE_HELPERS_H
#define LF_TESTS_CORE_HELPERS_H

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "core/model.h"

#define ROOT "/work/proj"

static inline struct lf_policy *h_policy(enum lf_layer layer, const char *file)
{
	struct lf_policy *p = NULL;
	assert_int_equal(lf_policy_new(file, layer, &p), 0);
	return p;
}

static inline struct lf_policy *h_policy_fallback(lf_posture fallback)
{
	struct lf_policy *p = h_policy(LF_LAYER_PROJECT, "policy.json");
	p->has_fallback = true;
	p->fallback = fallback;
	return p;
}

/* Adds a file rule with the NULL-terminated patterns; line is its source. */
static inline void h_rule_v(struct lf_policy *p, enum lf_capability cap, enum lf_effect eff,
			    unsigned line, const char *const *pats)
{
	size_t n = 0;
	while (pats[n])
		n++;
	struct lf_glob *g = calloc(n, sizeof(*g));
	assert_non_null(g);
	for (size_t i = 0; i < n; i++) {
		struct lf_diag d = { 0 };
		int r = lf_glob_init(&g[i], pats[i], strlen(pats[i]), &d);
		if (r)
			print_error("pattern \"%s\": %s\n", pats[i], d.message);
		assert_int_equal(r, 0);
	}
	struct lf_source src = { .file = NULL, .line = line, .column = 3 };
	assert_int_equal(lf_policy_add_file_rule(p, cap, eff, g, n, src, NULL), 0);
}

#define H_RULE(p, cap, eff, line, ...) \
	h_rule_v((p), (cap), (eff), (line), (const char *const[]){ __VA_ARGS__, NULL })

/* Resolves one layer. */
static inline struct lf_effective *h_resolve1(const struct lf_policy *p)
{
	struct lf_effective *e = NULL;
	const struct lf_policy *layers[] = { p };
	assert_int_equal(lf_effective_resolve(layers, 1, &e), 0);
	assert_non_null(e);
	return e;
}

static inline struct lf_plan *h_plan(const struct lf_effective *e, const char *root)
{
	struct lf_plan *plan = NULL;
	struct lf_context ctx = { .project_root = root, .run_dir = "/work/proj/.landfence/run/x" };
	assert_int_equal(lf_plan_compile(e, &ctx, &plan), 0);
	return plan;
}

/* The grant on abs_root, or NULL. */
static inline const struct lf_grant *h_grant(const struct lf_plan *plan, const char *abs_root)
{
	for (size_t i = 0; i < lf_plan_grant_count(plan); i++)
		if (strcmp(lf_plan_grant(plan, i)->abs_root, abs_root) == 0)
			return lf_plan_grant(plan, i);
	return NULL;
}

/* ---- seeded random policies (xorshift64*: reproducible from a seed) ---- */

static inline uint64_t h_rand(uint64_t *s)
{
	uint64_t x = *s;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return x * 2685821657736338717ull;
}

static inline size_t h_below(uint64_t *s, size_t n)
{
	return (size_t)(h_rand(s) % n);
}

/* Segments over a small alphabet, so that rules overlap often. */
static const char *const h_glob_segs[] = { "a", "b", "c", "*", "**", "?", "a*", "[ab]", "[!a]" };
static const char *const h_path_segs[] = { "a", "b", "c", "ab", "ba" };

/* A random pattern of 1..4 segments into buf (at least 64 bytes). */
static inline void h_random_glob(uint64_t *s, char *buf)
{
	size_t nseg = 1 + h_below(s, 4);
	buf[0] = '\0';
	for (size_t i = 0; i < nseg; i++) {
		if (i)
			strcat(buf, "/");
		strcat(buf, h_glob_segs[h_below(s, sizeof(h_glob_segs) / sizeof(h_glob_segs[0]))]);
	}
}

/* A random project-relative path of 0..5 segments into buf (>= 64 bytes). */
static inline void h_random_path(uint64_t *s, char *buf)
{
	size_t nseg = h_below(s, 6);
	buf[0] = '\0';
	for (size_t i = 0; i < nseg; i++) {
		if (i)
			strcat(buf, "/");
		strcat(buf, h_path_segs[h_below(s, sizeof(h_path_segs) / sizeof(h_path_segs[0]))]);
	}
}

/* The seed for a randomised test: LANDFENCE_SEED, else the clock. */
static inline uint64_t h_seed(void)
{
	const char *env = getenv("LANDFENCE_SEED");
	uint64_t seed = env && *env ? strtoull(env, NULL, 0) : (uint64_t)time(NULL);
	return seed ? seed : 1;
}

#endif /* LF_TESTS_CORE_HELPERS_H */
