/* SPDX-License-Identifier: MIT */
/*
 * The toolchain table (core/toolchains.h): the path syntax of its rows,
 * and what the rows promise: no place covers or lies in a credential file,
 * installation roots are never writable, every row parses, names are
 * unique. Pure: variables come from a table.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/model.h"
#include "core/path.h"
#include "core/tables.h"
#include "core/toolchains.h"

static const char *const *g_vars;

static const char *vars_get(void *ctx, const char *name)
{
	(void)ctx;
	for (size_t i = 0; g_vars && g_vars[i]; i += 2)
		if (!strcmp(g_vars[i], name))
			return g_vars[i + 1];
	return NULL;
}

static void test_expand(void **state)
{
	static const char *const vars[] = {
		"CARGO_HOME", "/opt/cargo/", "GOPATH", "/g1:/g2",  "EMPTY", "",	  "RELATIVE",
		"rel/ative",  "XDG_X",	     "/x",     "TRAILING", "/t//",  NULL,
	};
	static const struct {
		const char *spec, *home;
		int r;
		const char *want;
	} cases[] = {
		{ "~/.pyenv", "/home/u", 0, "/home/u/.pyenv" },
		{ "~", "/home/u", 0, "/home/u" },
		{ "~/.pyenv", NULL, -ENOENT, NULL },
		{ "~user/x", "/home/u", -EINVAL, NULL },
		{ "${CARGO_HOME}", "/home/u", 0, "/opt/cargo" },
		{ "${CARGO_HOME:-~/.cargo}/bin", "/home/u", 0, "/opt/cargo/bin" },
		{ "${NOPE:-~/.cargo}/bin", "/home/u", 0, "/home/u/.cargo/bin" },
		{ "${NOPE}", "/home/u", -ENOENT, NULL },
		{ "${NOPE}/bin", "/home/u", -ENOENT, NULL },
		/* Only the first element of a list; empty and relative values
		 * do not count. */
		{ "${GOPATH:-~/go}/pkg/mod", "/home/u", 0, "/g1/pkg/mod" },
		{ "${EMPTY:-~/e}", "/home/u", 0, "/home/u/e" },
		{ "${RELATIVE:-~/r}", "/home/u", 0, "/home/u/r" },
		{ "${RELATIVE}", "/home/u", -ENOENT, NULL },
		/* Nested fallbacks. */
		{ "${NOPE:-${XDG_X:-~/.cache}/pip}", "/home/u", 0, "/x/pip" },
		{ "${NOPE:-${NOPE2:-~/.cache}/pip}", "/home/u", 0, "/home/u/.cache/pip" },
		{ "${NOPE:-${NOPE2}}", "/home/u", -ENOENT, NULL },
		{ "${TRAILING}/x/../y", "/home/u", 0, "/t/y" },
		{ "/abs/path", NULL, 0, "/abs/path" },
		{ "relative", "/home/u", -EINVAL, NULL },
		{ "${UNCLOSED", "/home/u", -EINVAL, NULL },
		{ "${CARGO_HOME}bin", "/home/u", -EINVAL, NULL },
	};
	(void)state;
	g_vars = vars;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *out = NULL;
		int r = lf_tool_expand(cases[i].spec, cases[i].home, vars_get, NULL, &out);

		if (r != cases[i].r || (cases[i].want && (!out || strcmp(out, cases[i].want))))
			fail_msg("%s: got %d %s, want %d %s", cases[i].spec, r, out ? out : "-",
				 cases[i].r, cases[i].want ? cases[i].want : "-");
		free(out);
	}
	g_vars = NULL;
}

/* Every place and every credential of the table, expanded with every
 * variable unset (the defaults) and with each set to a path of its own:
 * no place overlaps a credential; roots are read-only; caches are
 * writable; every row parses. */
static void check_rows(const char *home, const char *const *vars)
{
	char *creds[64];
	size_t ncreds = 0;

	g_vars = vars;
	for (size_t i = 0; i < lf_credential_table_len; i++) {
		char *c = NULL;
		int r = lf_tool_expand(lf_credential_table[i].path, home, vars_get, NULL, &c);

		if (r < 0 && r != -ENOENT)
			fail_msg("credential %s: %d", lf_credential_table[i].path, r);
		if (r == 0) {
			assert_true(ncreds < 64);
			creds[ncreds++] = c;
		}
	}
	for (size_t i = 0; i < lf_toolchain_table_len; i++) {
		const struct lf_toolchain *t = &lf_toolchain_table[i];

		for (size_t k = 0; k < LF_TOOL_PLACES_MAX && t->places[k].path; k++) {
			const struct lf_tool_place *p = &t->places[k];
			char *path = NULL;
			int r = lf_tool_expand(p->path, home, vars_get, NULL, &path);

			if (r < 0 && r != -ENOENT)
				fail_msg("%s: %s does not parse (%d)", t->name, p->path, r);
			if ((p->flags & LF_TOOL_ROOT) && (p->access & LF_ACCESS_RW))
				fail_msg("%s: the root %s is writable", t->name, p->path);
			if ((p->flags & LF_TOOL_CACHE) && !(p->access & LF_ACCESS_RW))
				fail_msg("%s: the cache %s is read-only", t->name, p->path);
			assert_true(p->access & LF_ACCESS_RO);
			assert_non_null(p->what);
			for (size_t c = 0; r == 0 && c < ncreds; c++)
				if (lf_path_overlap(path, creds[c]))
					fail_msg("%s: %s (%s) overlaps the credential %s", t->name,
						 p->path, path, creds[c]);
			if (r == 0 && lf_path_covers(path, home))
				fail_msg("%s: %s holds the home directory", t->name, p->path);
			free(path);
		}
	}
	for (size_t c = 0; c < ncreds; c++)
		free(creds[c]);
	g_vars = NULL;
}

static void test_table_promises(void **state)
{
	static const char *const none[] = { NULL };
	/* Each variable a row names, set to a place of its own. */
	static const char *const set[] = {
		"PYENV_ROOT",
		"/v/pyenv",
		"PIP_CACHE_DIR",
		"/v/pip",
		"PIPX_HOME",
		"/v/pipx",
		"PIPX_BIN_DIR",
		"/v/pipxbin",
		"UV_CACHE_DIR",
		"/v/uvc",
		"UV_TOOL_DIR",
		"/v/uvt",
		"CARGO_HOME",
		"/v/cargo",
		"RUSTUP_HOME",
		"/v/rustup",
		"CARGO_TARGET_DIR",
		"/v/target",
		"CARGO_INSTALL_ROOT",
		"/v/cir",
		"NVM_DIR",
		"/v/nvm",
		"npm_config_prefix",
		"/v/npm",
		"npm_config_cache",
		"/v/npmc",
		"GOPATH",
		"/v/go",
		"GOROOT",
		"/v/goroot",
		"GRADLE_USER_HOME",
		"/v/gradle",
		"XDG_CACHE_HOME",
		"/v/cache",
		"XDG_DATA_HOME",
		"/v/data",
		"XDG_CONFIG_HOME",
		"/v/config",
		"POETRY_CONFIG_DIR",
		"/v/pconf",
		"JAVA_HOME",
		"/v/jdk",
		"CONDA_PREFIX",
		"/v/conda",
		NULL,
	};
	(void)state;
	check_rows("/home/u", none);
	check_rows("/home/u", set);
}

static void test_names(void **state)
{
	char list[1024];
	(void)state;
	for (size_t i = 0; i < lf_toolchain_table_len; i++) {
		assert_ptr_equal(lf_toolchain_find(lf_toolchain_table[i].name),
				 &lf_toolchain_table[i]);
		for (size_t j = i + 1; j < lf_toolchain_table_len; j++)
			assert_string_not_equal(lf_toolchain_table[i].name,
						lf_toolchain_table[j].name);
	}
	assert_null(lf_toolchain_find("rvm"));
	assert_null(lf_toolchain_find(NULL));
	lf_toolchain_list(list, sizeof(list));
	assert_non_null(strstr(list, "pyenv, pip, "));
	assert_non_null(strstr(list, ", local-bin"));
	/* Every PATH rule names a toolchain of the table. */
	for (size_t i = 0; i < lf_tool_path_table_len; i++)
		assert_non_null(lf_toolchain_find(lf_tool_path_table[i].tool));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_expand),
		cmocka_unit_test(test_table_promises),
		cmocka_unit_test(test_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
