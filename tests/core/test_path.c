/* SPDX-License-Identifier: MIT */
/*
 * The one path module's lexical half (core/path.h): cleaning an absolute
 * path, and the component-aware covers and overlap tests. Table-driven.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/path.h"

static void test_path_clean(void **state)
{
	static const struct {
		const char *in, *want;
	} cases[] = {
		{ "/", "/" },
		{ "//", "/" },
		{ "/a//b/", "/a/b" },
		{ "/a/./b/.", "/a/b" },
		{ "/a/b/../c", "/a/c" },
		{ "/a/../../..", "/" }, /* ".." at "/" stays at "/" */
		{ "/../etc/passwd", "/etc/passwd" },
		{ "/a/b/..", "/a" },
		{ "/.hidden/..x", "/.hidden/..x" },
	};
	char out[64];
	char *dup = NULL;
	(void)state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(lf_path_clean(cases[i].in, out, sizeof(out)), 0);
		assert_string_equal(out, cases[i].want);
		assert_int_equal(lf_path_clean_dup(cases[i].in, &dup), 0);
		assert_string_equal(dup, cases[i].want);
		free(dup);
	}
	assert_int_equal(lf_path_clean("relative", out, sizeof(out)), -EINVAL);
	assert_int_equal(lf_path_clean(NULL, out, sizeof(out)), -EINVAL);
	/* Too small: an error, never a shortened path. */
	assert_int_equal(lf_path_clean("/abcdef/ghi", out, 6), -ENAMETOOLONG);
	assert_int_equal(lf_path_clean_dup("x", &dup), -EINVAL);
}

static void test_path_covers_overlap(void **state)
{
	static const struct {
		const char *a, *b;
		bool covers, overlap;
	} cases[] = {
		{ "/", "/anything", true, true },      { "/a", "/a", true, true },
		{ "/a", "/a/b", true, true },	       { "/a", "/ab", false, false },
		{ "/a/b", "/a", false, true },	       { "/a/b", "/a/c", false, false },
		{ "/usr", "/usr/bin/sh", true, true },
	};
	(void)state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(lf_path_covers(cases[i].a, cases[i].b), cases[i].covers);
		assert_int_equal(lf_path_covers_n(cases[i].a, strlen(cases[i].a), cases[i].b,
						  strlen(cases[i].b)),
				 cases[i].covers);
		assert_int_equal(lf_path_overlap(cases[i].a, cases[i].b), cases[i].overlap);
		assert_int_equal(lf_path_overlap(cases[i].b, cases[i].a), cases[i].overlap);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_path_clean),
		cmocka_unit_test(test_path_covers_overlap),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
