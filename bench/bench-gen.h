/* SPDX-License-Identifier: MIT */
/*
 * What the generated-policy benchmarks share: a small xorshift generator
 * (the same figures on every run, no libc rand state) and adding one file
 * rule from a pattern. Define BENCH_SEED before including: each benchmark
 * keeps its own sequence, so its figures stay comparable with earlier runs.
 */
#ifndef LF_BENCH_GEN_H
#define LF_BENCH_GEN_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/model.h"

static uint64_t rng = BENCH_SEED;

static uint64_t next(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 2685821657736338717ull;
}

static unsigned below(unsigned n)
{
	return (unsigned)(next() % n);
}

/* Adds "cap eff pat" to p as if read from line; 0, or -1 with p unchanged
 * by this rule (the caller frees p). */
static int bench_rule_add(struct lf_policy *p, const char *pat, enum lf_capability cap,
			  enum lf_effect eff, unsigned line)
{
	struct lf_glob *g = calloc(1, sizeof(*g));
	if (!g || lf_glob_init(g, pat, strlen(pat), NULL) < 0) {
		free(g);
		return -1;
	}
	struct lf_source src = { .line = line };
	return lf_policy_add_file_rule(p, cap, eff, g, 1, src, NULL) < 0 ? -1 : 0;
}

#endif /* LF_BENCH_GEN_H */
