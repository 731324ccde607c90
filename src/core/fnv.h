/* SPDX-License-Identifier: MIT */
/*
 * 64-bit FNV-1a, the hash of the core's path-prefix tables (the decide
 * index, src/core/decide.c; the plan's root map, src/core/plan.c). Both
 * extend one hash a byte at a time while walking a path, so the step is
 * here as well as the whole-string form. Internal to the core.
 */
#ifndef LF_CORE_FNV_H
#define LF_CORE_FNV_H

#include <stddef.h>
#include <stdint.h>

#define LF_FNV_BASIS 14695981039346656037ull
#define LF_FNV_PRIME 1099511628211ull

static inline uint64_t lf_fnv_step(uint64_t h, unsigned char c)
{
	return (h ^ c) * LF_FNV_PRIME;
}

static inline uint64_t lf_fnv(const char *s, size_t n)
{
	uint64_t h = LF_FNV_BASIS;
	for (size_t i = 0; i < n; i++)
		h = lf_fnv_step(h, (unsigned char)s[i]);
	return h;
}

#endif /* LF_CORE_FNV_H */
