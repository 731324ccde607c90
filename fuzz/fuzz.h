/* SPDX-License-Identifier: MIT */
/*
 * What every harness shares. A harness defines LLVMFuzzerTestOneInput; the
 * same object links either with libFuzzer (clang, -Dfuzz=true) or with
 * replay.c, which feeds it the corpus as an ordinary test in any build.
 *
 * Harnesses check properties with FUZZ_ASSERT, which aborts: an abort is
 * how libFuzzer and the replay learn that an input broke a property.
 * Library code never aborts; only harness code does.
 */
#ifndef LF_FUZZ_H
#define LF_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

#define FUZZ_ASSERT(cond)                                                                   \
	do {                                                                                \
		if (!(cond)) {                                                              \
			fprintf(stderr, "%s:%d: property broken: %s\n", __FILE__, __LINE__, \
				#cond);                                                     \
			abort();                                                            \
		}                                                                           \
	} while (0)

/* Inputs above this size are skipped: the properties checked do not need
 * them, and they only slow the search down. */
#define FUZZ_MAX_INPUT 4096

#endif /* LF_FUZZ_H */
