/* SPDX-License-Identifier: MIT */
/* SHA-256 of src/project/sha256.c against the FIPS 180-4 / NIST examples. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "project/sha256.h"

struct vector {
	const char *text;
	size_t repeat;
	const char *hex;
};

static const struct vector vectors[] = {
	{ "", 1, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" },
	{ "abc", 1, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" },
	{ "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 1,
	  "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1" },
	{ "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqr"
	  "lmnopqrsmnopqrstnopqrstu",
	  1, "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1" },
	{ "a", 1000000, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0" },
	/* 55, 56 and 64 bytes: the padding edges (digests from coreutils sha256sum). */
	{ "0123456789012345678901234567890123456789012345678901234", 1,
	  "f34d5a0f80c0cbf84c8c0b90218c22637abd199965249da736a20143c8c9c9d9" },
	{ "01234567890123456789012345678901234567890123456789012345", 1,
	  "83aa034bda83e458a0dc9cbce0d4e354716aa0ff770ed37ac0ed2b292052e4af" },
	{ "0123456789012345678901234567890123456789012345678901234567890123", 1,
	  "9674d9e078535b7cec43284387a6ee39956188e735a85452b0050b55341cda56" },
};

static void test_vectors(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(vectors) / sizeof(vectors[0]); i++) {
		const struct vector *v = &vectors[i];
		size_t n = strlen(v->text);
		char hex[LF_SHA256_HEX_LEN + 1];

		if (v->repeat == 1) {
			lf_sha256_hex(v->text, n, hex);
		} else {
			/* Fed in uneven pieces, to cross block edges. */
			struct lf_sha256 c;
			uint8_t d[LF_SHA256_LEN];
			char *buf = malloc(v->repeat * n);
			assert_non_null(buf);
			for (size_t k = 0; k < v->repeat; k++)
				memcpy(buf + k * n, v->text, n);
			lf_sha256_init(&c);
			for (size_t off = 0, step = 1; off < v->repeat * n;
			     off += step, step = step * 3 % 997 + 1) {
				size_t take = step;
				if (take > v->repeat * n - off)
					take = v->repeat * n - off;
				lf_sha256_add(&c, buf + off, take);
			}
			lf_sha256_finish(&c, d);
			free(buf);
			for (int b = 0; b < LF_SHA256_LEN; b++)
				snprintf(hex + 2 * b, 3, "%02x", d[b]);
		}
		assert_string_equal(hex, v->hex);
	}
}

/* The vectors again with the portable compression function alone (the
 * first run used the processor's SHA extensions where it has them). */
static void test_vectors_portable(void **state)
{
	lf_sha256_portable(true);
	test_vectors(state);
	lf_sha256_portable(false);
}

/* Both compression functions agree on every length up to 4 KiB of
 * pseudo-random bytes and on 1 MiB fed in uneven pieces. */
static void test_both_agree(void **state)
{
	size_t size = 1u << 20;
	unsigned char *buf = malloc(size);
	uint64_t x = 0x9e3779b97f4a7c15ull;
	char a[LF_SHA256_HEX_LEN + 1], b[LF_SHA256_HEX_LEN + 1];

	(void)state;
	assert_non_null(buf);
	for (size_t i = 0; i < size; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		buf[i] = (unsigned char)x;
	}
	for (size_t n = 0; n <= 4096; n++) {
		lf_sha256_hex(buf + n % 61, n, a);
		lf_sha256_portable(true);
		lf_sha256_hex(buf + n % 61, n, b);
		lf_sha256_portable(false);
		assert_string_equal(a, b);
	}
	for (int only = 0; only < 2; only++) {
		struct lf_sha256 c;
		uint8_t d[LF_SHA256_LEN];

		lf_sha256_portable(only);
		lf_sha256_init(&c);
		for (size_t off = 0, step = 1; off < size; off += step, step = step * 7 % 9973 + 1)
			lf_sha256_add(&c, buf + off, step < size - off ? step : size - off);
		lf_sha256_finish(&c, d);
		for (int i = 0; i < LF_SHA256_LEN; i++)
			snprintf((only ? b : a) + 2 * i, 3, "%02x", d[i]);
	}
	lf_sha256_portable(false);
	assert_string_equal(a, b);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vectors),
		cmocka_unit_test(test_vectors_portable),
		cmocka_unit_test(test_both_agree),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
