/* SPDX-License-Identifier: MIT */
/*
 * Text from outside as landfence prints it (core/text.h): every control
 * character escaped, UTF-8 kept, a stream cut anywhere escaped the same.
 * Table-driven.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/text.h"

static const struct {
	const char *in, *want;
} cases[] = {
	{ "", "" },
	{ "plain/path.txt", "plain/path.txt" },
	{ "a\\b", "a\\b" },
	/* The hook name: cursor up, erase line. */
	{ "z\x1b[1A\x1b[2Kx", "z\\x1b[1A\\x1b[2Kx" },
	/* OSC 52, a clipboard write, ended by BEL. */
	{ "\x1b]52;c;ZXZpbA==\x07", "\\x1b]52;c;ZXZpbA==\\x07" },
	{ "a\nb\tc\rd", "a\\nb\\tc\\rd" },
	{ "del\x7f", "del\\x7f" },
	/* UTF-8 kept, C1 controls (U+009B, CSI) escaped. */
	{ "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80",
	  "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80" },
	{ "x\xc2\x9b"
	  "31m",
	  "x\\u009b31m" },
	{ "x\xc2\x85y", "x\\u0085y" },
	{ "\xc2\xa0", "\xc2\xa0" },
	/* Bytes that are not UTF-8: a lone CSI of an 8-bit terminal, a
	 * broken sequence, overlong forms, a surrogate, past U+10FFFF. */
	{ "\x9b"
	  "31m",
	  "\\x9b31m" },
	{ "\xc3(", "\\xc3(" },
	{ "\xe2\x82", "\\xe2\\x82" },
	{ "\xc0\x9b", "\\xc0\\x9b" },
	{ "\xe0\x80\x9b", "\\xe0\\x80\\x9b" },
	{ "\xed\xa0\x80", "\\xed\\xa0\\x80" },
	{ "\xf4\x90\x80\x80", "\\xf4\\x90\\x80\\x80" },
	{ "\xff\xfe", "\\xff\\xfe" },
};

static void test_escape(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *out = lf_text_escape(cases[i].in);

		assert_non_null(out);
		assert_string_equal(out, cases[i].want);
		/* The fast path never skips what needs escaping. */
		if (lf_text_clean(cases[i].in))
			assert_string_equal(out, cases[i].in);
		free(out);
	}
	char *null = lf_text_escape(NULL);
	assert_string_equal(null, "");
	free(null);
}

/* The stream form (the tool's output) gives the same text however the
 * input is cut, keeping newlines and tabs. */
static void test_stream_cuts(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *in = cases[i].in;
		size_t n = strlen(in);

		for (size_t cut = 0; cut <= n; cut++) {
			struct lf_text_state st = { 0 };
			char out[6 * 64 + 64];
			size_t k;

			k = lf_text_escape_step(&st, in, cut, out, false);
			k += lf_text_escape_step(&st, in + cut, n - cut, out + k, false);
			k += lf_text_escape_step(&st, NULL, 0, out + k, false);
			out[k] = '\0';
			assert_string_equal(out, cases[i].want);
		}
	}
	struct lf_text_state st = { 0 };
	char out[64];
	size_t k = lf_text_escape_step(&st, "a\n\tb\x1b", 5, out, true);
	out[k] = '\0';
	assert_string_equal(out, "a\n\tb\\x1b");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escape),
		cmocka_unit_test(test_stream_cuts),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
