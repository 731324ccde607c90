/* SPDX-License-Identifier: MIT */
/*
 * Plan compilation time on generated policies of 1,000, 10,000 and 100,000
 * file rules: half allows, half denies and asks, nested globs over a tree
 * of packages, so fences land inside, above and beside allows. Prints
 * `name: value` lines; the best of several runs is reported, measured with
 * cold caches (plan_N_ms, and the ratio) and warm (plan_N_warm_ms). Times are the
 * process's CPU time (page faults included), so that other work on a busy
 * machine does not count.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/model.h"

#define BENCH_SEED 0x9e3779b97f4a7c15ull
#include "../bench-gen.h"

/* A realistic pattern: pkgN/<dir>/.../<tail>, where the number of packages
 * grows with the policy so that roots stay mostly distinct. */
static void gen_pattern(char *buf, size_t size, unsigned npkg, int allow)
{
	static const char *const dirs[] = { "src",    "lib",	 "tests",   "docs",   "build",
					    "vendor", "include", "scripts", "assets", "gen" };
	static const char *const tails[] = { "**",	    "*.c",	  "**/*.rs", "*.key",
					     "config.json", "[a-m]*.txt", "**/*.o",  "README.md" };
	int n = snprintf(buf, size, "pkg%u", below(npkg));
	unsigned depth = below(3);
	for (unsigned i = 0; i < depth; i++)
		n += snprintf(buf + n, size - (size_t)n, "/%s", dirs[below(10)]);
	if (allow)
		snprintf(buf + n, size - (size_t)n, "/%s", tails[below(3)]);
	else
		snprintf(buf + n, size - (size_t)n, "/%s", tails[below(8)]);
}

static struct lf_policy *gen_policy(unsigned nrules)
{
	struct lf_policy *p = NULL;
	if (lf_policy_new("bench.json", LF_LAYER_PROJECT, &p) < 0)
		return NULL;
	p->has_fallback = true;
	p->fallback = LF_ASK;
	unsigned npkg = nrules / 8 + 1;
	for (unsigned i = 0; i < nrules; i++) {
		char pat[256];
		int allow = i % 2 == 0;
		gen_pattern(pat, sizeof(pat), npkg, allow);
		enum lf_effect eff = allow ? LF_ALLOW : (below(2) ? LF_DENY : LF_ASK);
		if (bench_rule_add(p, pat, (enum lf_capability)below(3), eff, i + 1) < 0) {
			lf_policy_free(p);
			return NULL;
		}
	}
	return p;
}

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* Evicts the policy and everything else from the caches, so that every
 * size is measured cold, as the first compile of a policy just read. */
static void caches_flush(void)
{
	static unsigned char *junk;
	static unsigned char v;
	const size_t size = (size_t)256 << 20;
	if (!junk)
		junk = malloc(size);
	if (junk)
		memset(junk, ++v, size);
}

static double compile_ms(const struct lf_effective *e, bool cold, size_t *grants, size_t *dropped)
{
	struct lf_context ctx = { .project_root = "/work/proj", .run_dir = "/work/proj/.run" };
	struct lf_plan *plan = NULL;
	if (cold)
		caches_flush();
	double t0 = now_ms();
	int r = lf_plan_compile(e, &ctx, &plan);
	double t = now_ms() - t0;
	if (r < 0) {
		fprintf(stderr, "bench-plan: compile: %s\n", strerror(-r));
		exit(1);
	}
	*grants = lf_plan_grant_count(plan);
	*dropped = lf_plan_dropped_count(plan);
	lf_plan_free(plan);
	return t;
}

/* Best of runs compilations of one n-rule policy, in milliseconds, with
 * the caches flushed before each run (cold) and not (warm). */
static void bench(unsigned n, int runs, double *cold, double *warm, size_t *grants, size_t *dropped)
{
	rng = 0x9e3779b97f4a7c15ull ^ n; /* the same policy on every run of the tool */
	struct lf_policy *p = gen_policy(n);
	struct lf_effective *e = NULL;
	const struct lf_policy *layers[] = { p };
	if (!p || lf_effective_resolve(layers, 1, &e) < 0) {
		fprintf(stderr, "bench-plan: cannot build a %u-rule policy\n", n);
		exit(1);
	}
	*cold = *warm = 1e30;
	for (int i = 0; i < runs; i++) {
		double t = compile_ms(e, true, grants, dropped);
		if (t < *cold)
			*cold = t;
	}
	for (int i = 0; i < runs; i++) {
		double t = compile_ms(e, false, grants, dropped);
		if (t < *warm)
			*warm = t;
	}
	lf_effective_free(e);
	lf_policy_free(p);
}

int main(void)
{
	static const unsigned sizes[] = { 1000, 10000, 100000 };
	double cold[3], warm[3];
	for (int i = 0; i < 3; i++) {
		size_t grants, dropped;
		bench(sizes[i], 7, &cold[i], &warm[i], &grants, &dropped);
		printf("plan_%u_ms: %.3f\n", sizes[i], cold[i]);
		printf("plan_%u_warm_ms: %.3f\n", sizes[i], warm[i]);
		printf("plan_%u_grants: %zu\n", sizes[i], grants);
		printf("plan_%u_dropped: %zu\n", sizes[i], dropped);
	}
	/* Cold against cold: the same conditions at every size. A warm 10k
	 * policy stays in the cache between runs, a 100k one cannot, so the
	 * warm ratio also measures the cache's size. */
	printf("plan_ratio_100k_10k: %.2f\n", cold[2] / cold[1]);
	printf("plan_ratio_100k_10k_warm: %.2f\n", warm[2] / warm[1]);
	return 0;
}
