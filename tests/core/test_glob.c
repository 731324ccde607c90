/* SPDX-License-Identifier: MIT */
/*
 * The glob grammar of doc/globs.md, one table row per case: matching,
 * normalisation, static prefixes and every validation error, word for word.
 */
#include "helpers.h"

struct match_case {
	const char *pattern;
	const char *path;
	bool match;
};

static const struct match_case match_cases[] = {
	/* literal segments, anchored at the root */
	{ "src", "src", true },
	{ "src", "lib/src", false },
	{ "src/main.c", "src/main.c", true },
	{ "src/main.c", "src/main.h", false },
	/* a directory covers its subtree, component-wise */
	{ "src", "src/a/b.c", true },
	{ "src", "src2", false },
	{ "src", "src2/a", false },
	{ "src", "sr", false },
	{ "src/a", "src", false },
	{ "src/**", "src2/x", false },
	{ "src2/**", "src/x", false },
	/* '*': any run within one segment, never '/' */
	{ "*", "a", true },
	{ "*", "abc/def", true }, /* matches "abc", which covers abc/def */
	{ "*", "", false },
	{ "*.c", "main.c", true },
	{ "*.c", ".c", true },
	{ "*.c", "main.h", false },
	{ "*.c", "src/main.c", false },
	{ "src/*.c", "src/main.c", true },
	{ "src/*.c", "src/sub/main.c", false },
	{ "src/*", "src/sub/main.c", true },
	{ "a*b*c", "abc", true },
	{ "a*b*c", "axxbyyc", true },
	{ "a*b*c", "axxbyy", false },
	{ "a*c", "a/c", false },
	{ "*a", "ba", true },
	{ "*a", "ab", false },
	/* '**' not a whole segment is a '*' */
	{ "a**b", "axxb", true },
	{ "a**b", "a/b", false },
	{ "a**", "abc", true },
	{ "**b", "x/b", false },
	/* '?': exactly one character, never '/' */
	{ "?", "a", true },
	{ "?", "ab", false },
	{ "?", "", false },
	{ "a?c", "abc", true },
	{ "a?c", "ac", false },
	{ "a?c", "a/c", false },
	{ "src/?.c", "src/x.c", true },
	/* classes */
	{ "[abc]", "b", true },
	{ "[abc]", "d", false },
	{ "[abc]", "ab", false },
	{ "file[0-9].txt", "file7.txt", true },
	{ "file[0-9].txt", "filex.txt", false },
	{ "[a-cx-z]", "y", true },
	{ "[a-cx-z]", "m", false },
	{ "[!abc]", "d", true },
	{ "[!abc]", "a", false },
	{ "[!a-z]", "A", true },
	{ "[!a-z]", "q", false },
	{ "[]]", "]", true },
	{ "[]a]", "a", true },
	{ "[!]]", "]", false },
	{ "[!]]", "x", true },
	{ "[a-]", "-", true },
	{ "[-a]", "-", true },
	{ "[*]", "*", true },
	{ "[*]", "x", false },
	{ "[?]", "?", true },
	{ "[[]", "[", true },
	{ "[z-a]", "m", false },
	{ "x[ab]y/*", "xay/f", true },
	/* no escape character: a backslash is an ordinary character */
	{ "a\\*", "a\\bc", true },
	{ "a\\*", "a*", false },
	{ "a\\b", "a\\b", true },
	/* '**' at the start */
	{ "**/*.c", "main.c", true },
	{ "**/*.c", "a/b/main.c", true },
	{ "**/*.c", "a/b/main.h", false },
	{ "**/.env", ".env", true },
	{ "**/.env", "deep/er/.env", true },
	{ "**/.env", "deep/er/.envrc", false },
	/* '**' in the middle, zero or more segments */
	{ "a/**/b", "a/b", true },
	{ "a/**/b", "a/x/b", true },
	{ "a/**/b", "a/x/y/b", true },
	{ "a/**/b", "a/x/y/c", false },
	{ "a/**/b", "b", false },
	{ "a/**/b/*.c", "a/q/b/m.c", true },
	{ "a/**/**/b", "a/b", true },
	{ "a/**/x/**/b", "a/1/x/2/3/b", true },
	{ "a/**/x/**/b", "a/1/2/3/b", false },
	/* '**' at the end */
	{ "src/**", "src", true },
	{ "src/**", "src/a", true },
	{ "src/**", "src/a/b/c", true },
	{ "src/**", "other", false },
	{ "**", "", true },
	{ "**", "anything/at/all", true },
	{ "**", ".git/config", true },
	/* hidden files: no special case, '*' and '?' match a leading dot */
	{ "*", ".env", true },
	{ "?git", ".git", true },
	{ "*/*", ".git/hooks", true },
	{ "src/*", "src/.hidden", true },
	/* the root itself */
	{ "src", "", false },
	{ "**/x", "", false },
};

static void glob_matches_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(match_cases) / sizeof(match_cases[0]); i++) {
		const struct match_case *c = &match_cases[i];
		struct lf_glob g;
		struct lf_diag d = { 0 };
		int r = lf_glob_init(&g, c->pattern, strlen(c->pattern), &d);
		if (r)
			print_error("case %zu \"%s\": %s\n", i, c->pattern, d.message);
		assert_int_equal(r, 0);
		bool got = lf_glob_match(&g, c->path);
		if (got != c->match)
			print_error("case %zu: \"%s\" vs \"%s\": expected %s\n", i, c->pattern,
				    c->path, c->match ? "match" : "no match");
		assert_int_equal(got, c->match);
		lf_glob_fini(&g);
	}
}

struct norm_case {
	const char *pattern;
	const char *normal;
	const char *prefix; /* seed static_prefix */
};

static const struct norm_case norm_cases[] = {
	{ "src/**", "src/**", "src" },
	{ "./src/**", "src/**", "src" },
	{ "././src", "src", "src" },
	{ ".//./src", "src", "src" },
	{ "src//lib///a.c", "src/lib/a.c", "src/lib/a.c" },
	{ "src/", "src", "src" },
	{ "src///", "src", "src" },
	{ "src/.", "src", "src" },
	{ "src/./lib", "src/lib", "src/lib" },
	{ "**", "**", "" },
	{ "*.rs", "*.rs", "" },
	{ "src/*.rs", "src/*.rs", "src" },
	{ "a/b/**/*.rs", "a/b/**/*.rs", "a/b" },
	{ "src/foo.rs", "src/foo.rs", "src/foo.rs" },
	{ "a/b?/c", "a/b?/c", "a" },
	{ "a/[xy]/c", "a/[xy]/c", "a" },
	{ "ab[c]", "ab[c]", "" },
	{ "...", "...", "..." },
	{ "a/..b/c", "a/..b/c", "a/..b/c" },
	{ "a\\b/*", "a\\b/*", "a\\b" },
};

static void glob_normalises_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(norm_cases) / sizeof(norm_cases[0]); i++) {
		const struct norm_case *c = &norm_cases[i];
		struct lf_glob g;
		assert_int_equal(lf_glob_init(&g, c->pattern, strlen(c->pattern), NULL), 0);
		assert_string_equal(g.pattern, c->normal);
		assert_int_equal(g.prefix_len, strlen(c->prefix));
		assert_memory_equal(g.pattern, c->prefix, g.prefix_len);
		lf_glob_fini(&g);
	}
}

struct error_case {
	const char *pattern;
	size_t len; /* 0: strlen */
	const char *message;
};

static const struct error_case error_cases[] = {
	{ "", 0, "path pattern is empty; expected a project-relative glob such as \"src/**\"" },
	{ "/etc", 0,
	  "path pattern \"/etc\" is absolute; expected a project-relative glob such as "
	  "\"src/**\"" },
	{ "~/.ssh/**", 0,
	  "path pattern \"~/.ssh/**\" names the home directory; expected a project-relative "
	  "glob such as \"src/**\" (paths outside the project go in \"host\")" },
	{ "~", 0,
	  "path pattern \"~\" names the home directory; expected a project-relative glob such "
	  "as \"src/**\" (paths outside the project go in \"host\")" },
	{ "//x/**", 0,
	  "path pattern \"//x/**\" is absolute; expected a project-relative glob such as "
	  "\"src/**\"" },
	{ "..", 0,
	  "path pattern \"..\" has a \"..\" component; expected a path inside the project, "
	  "without \"..\"" },
	{ "../x", 0,
	  "path pattern \"../x\" has a \"..\" component; expected a path inside the project, "
	  "without \"..\"" },
	{ "a/../b", 0,
	  "path pattern \"a/../b\" has a \"..\" component; expected a path inside the "
	  "project, without \"..\"" },
	{ "a/b/..", 0,
	  "path pattern \"a/b/..\" has a \"..\" component; expected a path inside the "
	  "project, without \"..\"" },
	{ "ab\0cd", 5,
	  "path pattern \"ab\" contains a NUL byte; expected a project-relative glob without "
	  "control characters" },
	{ "src/[ab", 0,
	  "path pattern \"src/[ab\" has an unterminated \"[\" class; expected a closing \"]\" "
	  "in the same segment, as in \"[abc]\"" },
	{ "[", 0,
	  "path pattern \"[\" has an unterminated \"[\" class; expected a closing \"]\" in the "
	  "same segment, as in \"[abc]\"" },
	{ "[]", 0,
	  "path pattern \"[]\" has an unterminated \"[\" class; expected a closing \"]\" in the "
	  "same segment, as in \"[abc]\"" },
	{ "[!]", 0,
	  "path pattern \"[!]\" has an unterminated \"[\" class; expected a closing \"]\" in "
	  "the same segment, as in \"[abc]\"" },
	{ "[a/b]", 0,
	  "path pattern \"[a/b]\" has an unterminated \"[\" class; expected a closing \"]\" in "
	  "the same segment, as in \"[abc]\"" },
	{ ".", 0,
	  "path pattern \".\" names nothing once normalised; expected \"**\" for the whole "
	  "project" },
	{ "./", 0,
	  "path pattern \"./\" names nothing once normalised; expected \"**\" for the whole "
	  "project" },
	{ ".//.", 0,
	  "path pattern \".//.\" names nothing once normalised; expected \"**\" for the whole "
	  "project" },
};

static void glob_rejects_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(error_cases) / sizeof(error_cases[0]); i++) {
		const struct error_case *c = &error_cases[i];
		struct lf_glob g = { .pattern = (char *)"untouched" };
		struct lf_diag d;
		memset(&d, 0, sizeof(d));
		size_t len = c->len ? c->len : strlen(c->pattern);
		assert_int_equal(lf_glob_init(&g, c->pattern, len, &d), -EINVAL);
		assert_string_equal(d.message, c->message);
		/* Output parameters are written only on success. */
		assert_string_equal(g.pattern, "untouched");
	}
}

static void glob_diag_may_be_null(void **state)
{
	(void)state;
	struct lf_glob g;
	assert_int_equal(lf_glob_init(&g, "/abs", 4, NULL), -EINVAL);
	assert_int_equal(lf_glob_init(&g, "x", 1, NULL), 0);
	lf_glob_fini(&g);
	lf_glob_fini(&g); /* twice is harmless */
	lf_glob_fini(NULL);
}

static void glob_long_pattern_message_is_cut(void **state)
{
	(void)state;
	char pat[1200];
	memset(pat, 'a', sizeof(pat));
	pat[0] = '/';
	struct lf_glob g;
	struct lf_diag d;
	assert_int_equal(lf_glob_init(&g, pat, sizeof(pat), &d), -EINVAL);
	assert_true(strlen(d.message) < sizeof(d.message));
	assert_non_null(strstr(d.message, "is absolute"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(glob_matches_table),
		cmocka_unit_test(glob_normalises_table),
		cmocka_unit_test(glob_rejects_table),
		cmocka_unit_test(glob_diag_may_be_null),
		cmocka_unit_test(glob_long_pattern_message_is_cut),
	};
	return cmocka_run_group_tests_name("glob", tests, NULL, NULL);
}
