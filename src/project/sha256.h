/* SPDX-License-Identifier: MIT */
/*
 * SHA-256 (FIPS 180-4), small and dependency-free, for `landfence trust`:
 * the digest of a project policy recorded outside the project
 * (doc/trust.md), computed again at every launch. On x86-64 processors
 * with the SHA extensions their instructions compress the blocks (asked
 * of CPUID once per process). Pure; internal.
 */
#ifndef LF_PROJECT_SHA256_H
#define LF_PROJECT_SHA256_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LF_SHA256_LEN 32
#define LF_SHA256_HEX_LEN 64

struct lf_sha256 {
	uint32_t h[8];
	uint64_t total; /* bytes fed so far */
	uint8_t block[64];
	size_t used; /* bytes in block */
};

void lf_sha256_init(struct lf_sha256 *c);
void lf_sha256_add(struct lf_sha256 *c, const void *data, size_t len);
void lf_sha256_finish(struct lf_sha256 *c, uint8_t out[LF_SHA256_LEN]);

/* Tests only: true makes every digest of this process use the portable
 * compression function even where the processor's SHA extensions would
 * be used, so that the two can be compared; false undoes it. */
void lf_sha256_portable(bool only);

/* The digest of data[0..len) as 64 lower-case hex digits and a NUL. */
void lf_sha256_hex(const void *data, size_t len, char out[LF_SHA256_HEX_LEN + 1]);

#endif /* LF_PROJECT_SHA256_H */
