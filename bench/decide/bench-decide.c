/* SPDX-License-Identifier: MIT */
/*
 * File decisions per second against a generated 1,000-rule policy, with the
 * index and, as a baseline in the same run, with a linear scan of every
 * rule. Prints `name: value` lines. Times are the process's CPU time, so
 * that other work on a busy machine does not count.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/model.h"

#define BENCH_SEED 0x2545f4914f6cdd1dull
#include "../bench-gen.h"

#define ROOT "/work/proj"

static const char *const dirs[] = { "src",    "lib",	 "tests",   "docs",   "build",
				    "vendor", "include", "scripts", "assets", "gen" };

static struct lf_policy *gen_policy(unsigned nrules)
{
	static const char *const tails[] = { "**",	    "*.c",	  "**/*.rs", "*.key",
					     "config.json", "[a-m]*.txt", "**/*.o",  "README.md" };
	struct lf_policy *p = NULL;
	if (lf_policy_new("bench.json", LF_LAYER_PROJECT, &p) < 0)
		return NULL;
	p->has_fallback = true;
	p->fallback = LF_ASK;
	for (unsigned i = 0; i < nrules; i++) {
		char pat[256];
		int n = snprintf(pat, sizeof(pat), "pkg%u", below(nrules / 8));
		unsigned depth = below(3);
		for (unsigned k = 0; k < depth; k++)
			n += snprintf(pat + n, sizeof(pat) - (size_t)n, "/%s", dirs[below(10)]);
		snprintf(pat + n, sizeof(pat) - (size_t)n, "/%s", tails[below(8)]);
		enum lf_effect eff = i % 2 ? (enum lf_effect)(1 + below(2)) : LF_ALLOW;
		if (bench_rule_add(p, pat, (enum lf_capability)below(3), eff, i + 1) < 0) {
			lf_policy_free(p);
			return NULL;
		}
	}
	return p;
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

#define NPATHS 4096

/* Decisions per second over the request set, for at least min_s seconds. */
static double rate(const struct lf_effective *e, char paths[][128], unsigned *caps, double min_s,
		   unsigned *denied)
{
	size_t done = 0;
	unsigned d = 0;
	double t0 = now_s(), t;
	do {
		for (size_t i = 0; i < NPATHS; i++) {
			struct lf_verdict v;
			if (lf_effective_decide_file(e, ROOT, (enum lf_capability)caps[i], paths[i],
						     &v) < 0) {
				fprintf(stderr, "bench-decide: decide failed\n");
				exit(1);
			}
			if (done == 0)
				d += v.effect == LF_DENY;
		}
		done += NPATHS;
		t = now_s() - t0;
	} while (t < min_s);
	*denied = d;
	return (double)done / t;
}

int main(void)
{
	struct lf_policy *p = gen_policy(1000);
	struct lf_effective *e = NULL;
	const struct lf_policy *layers[] = { p };
	if (!p || lf_effective_resolve(layers, 1, &e) < 0) {
		fprintf(stderr, "bench-decide: cannot build the policy\n");
		return 1;
	}
	/* Requests like an agent's: absolute paths, 2 to 6 levels deep, in
	 * and beside the packages the rules talk about. */
	static char paths[NPATHS][128];
	static unsigned caps[NPATHS];
	static const char *const files[] = { "main.c",	  "lib.rs", "id.key",	"config.json",
					     "notes.txt", "x.o",    "README.md" };
	for (size_t i = 0; i < NPATHS; i++) {
		int n = snprintf(paths[i], sizeof(paths[i]), ROOT "/pkg%u", below(200));
		unsigned depth = below(4);
		for (unsigned k = 0; k < depth; k++)
			n += snprintf(paths[i] + n, sizeof(paths[i]) - (size_t)n, "/%s",
				      dirs[below(10)]);
		snprintf(paths[i] + n, sizeof(paths[i]) - (size_t)n, "/%s", files[below(7)]);
		caps[i] = below(3);
	}

	unsigned d1, d2;
	double indexed = rate(e, paths, caps, 1.0, &d1);
	struct lf_effective linear = *e;
	linear.index = NULL; /* the same decisions by scanning every rule */
	linear.scan_only = true;
	double scan = rate(&linear, paths, caps, 1.0, &d2);
	printf("decide_rules: %zu\n", e->nrules);
	printf("decide_file_per_sec: %.0f\n", indexed);
	printf("decide_file_linear_per_sec: %.0f\n", scan);
	printf("decide_speedup_vs_linear: %.1f\n", indexed / scan);
	if (d1 != d2) {
		fprintf(stderr, "bench-decide: index and scan disagree\n");
		return 1;
	}
	lf_effective_free(e);
	lf_policy_free(p);
	return 0;
}
