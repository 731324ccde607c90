/* SPDX-License-Identifier: MIT */
/*
 * Tests that need Landlock skip on a kernel without it, and fail instead
 * when CI demands enforcement (LANDFENCE_TESTS_MUST_ENFORCE=1): a runner
 * without Landlock must not pass by skipping everything. Include after
 * cmocka.h and landfence.h.
 */
#ifndef LF_TESTS_ENFORCE_H
#define LF_TESTS_ENFORCE_H

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static inline bool must_enforce(void)
{
	const char *m = getenv("LANDFENCE_TESTS_MUST_ENFORCE");
	return m && !strcmp(m, "1");
}

/* Skips the calling test when the kernel lacks Landlock, unless CI demands
 * enforcement; then it fails. */
#define NEED_LANDLOCK()                                                     \
	do {                                                                \
		if (lf_landlock_abi(-1) <= 0) {                             \
			if (must_enforce())                                 \
				fail_msg("Landlock is not available and "   \
					 "LANDFENCE_TESTS_MUST_ENFORCE=1"); \
			skip();                                             \
		}                                                           \
	} while (0)

#endif /* LF_TESTS_ENFORCE_H */
