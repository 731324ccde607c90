/* SPDX-License-Identifier: MIT */
/*
 * The trust store of src/cli/trust.c (doc/trust.md): where it lives, its
 * line format, replacing and revoking, and the answers of the check for a
 * trusted, changed, unknown, symlinked and missing policy.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "project/project.h"
#include "project/sha256.h"

static char base[PATH_MAX / 4];

static const char *P(const char *rel)
{
	static char bufs[8][PATH_MAX];
	static unsigned next;
	char *b = bufs[next++ % 8];

	snprintf(b, PATH_MAX, "%s/%s", base, rel);
	return b;
}

static void put(const char *rel, const char *text)
{
	int fd = open(P(rel), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

static char *slurp(const char *rel)
{
	static char buf[8192];
	int fd = open(P(rel), O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[n < 0 ? 0 : n] = '\0';
	return buf;
}

static int setup(void **state)
{
	char tpl[] = "/tmp/lf-trust-XXXXXX", canon[PATH_MAX];

	(void)state;
	if (!mkdtemp(tpl) || !realpath(tpl, canon) || strlen(canon) >= sizeof(base))
		return -1;
	strcpy(base, canon);
	setenv("XDG_CONFIG_HOME", P("cfg"), 1);
	setenv("HOME", P("home"), 1);
	return 0;
}

static int teardown(void **state)
{
	char cmd[PATH_MAX];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", base);
	return system(cmd) == 0 ? 0 : -1;
}

static void test_store_path(void **state)
{
	char p[PATH_MAX];

	(void)state;
	assert_int_equal(lf_trust_store_path(p, sizeof(p)), 0);
	assert_string_equal(p, P("cfg/landfence/trusted"));
	setenv("XDG_CONFIG_HOME", "relative/ignored", 1);
	assert_int_equal(lf_trust_store_path(p, sizeof(p)), 0);
	assert_string_equal(p, P("home/.config/landfence/trusted"));
	unsetenv("XDG_CONFIG_HOME");
	unsetenv("HOME");
	assert_int_equal(lf_trust_store_path(p, sizeof(p)), -ENOENT);
	setenv("XDG_CONFIG_HOME", P("cfg"), 1);
	setenv("HOME", P("home"), 1);
	assert_int_equal(lf_trust_store_path(p, 8), -ENAMETOOLONG);
}

struct check_case {
	const char *name;
	const char *recorded; /* content recorded as trusted, NULL: none */
	const char *now;      /* content checked */
	int want;
};

static const struct check_case checks[] = {
	{ "never trusted", NULL, "{}", -EPERM },
	{ "trusted as it is", "{\"version\":1}", "{\"version\":1}", 0 },
	{ "changed by one byte", "{\"version\":1}", "{\"version\":1} ", -ESTALE },
	{ "emptied", "{\"version\":1}", "", -ESTALE },
	{ "empty, trusted empty", "", "", 0 },
};

static void test_check_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(checks) / sizeof(checks[0]); i++) {
		const struct check_case *c = &checks[i];
		const char *path = P("proj/.landfence/policy.json");

		print_message("case: %s\n", c->name);
		unlink(P("cfg/landfence/trusted"));
		if (c->recorded)
			assert_int_equal(lf_trust_record(path, c->recorded, strlen(c->recorded)),
					 0);
		assert_int_equal(lf_trust_check(path, c->now, strlen(c->now)), c->want);
		/* Another path with the same content is not trusted. */
		assert_int_equal(
			lf_trust_check(P("other/.landfence/policy.json"), c->now, strlen(c->now)),
			-EPERM);
	}
	assert_int_equal(lf_trust_check("relative", "", 0), -EINVAL);
	assert_int_equal(lf_trust_record("relative", "", 0), -EINVAL);
}

/* The store's lines: "<hex> <path>", one per path, others kept. */
static void test_store_lines(void **state)
{
	char hex_a[LF_SHA256_HEX_LEN + 1], hex_b[LF_SHA256_HEX_LEN + 1], want[4096];

	(void)state;
	unlink(P("cfg/landfence/trusted"));
	lf_sha256_hex("a", 1, hex_a);
	lf_sha256_hex("b", 1, hex_b);
	assert_int_equal(lf_trust_record("/x/one", "a", 1), 0);
	assert_int_equal(lf_trust_record("/x/two words", "b", 1), 0);
	snprintf(want, sizeof(want), "%s /x/one\n%s /x/two words\n", hex_a, hex_b);
	assert_string_equal(slurp("cfg/landfence/trusted"), want);
	assert_true(lf_trust_known("/x/one"));
	assert_true(lf_trust_known("/x/two words"));
	assert_false(lf_trust_known("/x/two"));
	assert_false(lf_trust_known("/x/on"));

	/* Trusting again replaces the line, and keeps the other. */
	assert_int_equal(lf_trust_record("/x/one", "b", 1), 0);
	snprintf(want, sizeof(want), "%s /x/two words\n%s /x/one\n", hex_b, hex_b);
	assert_string_equal(slurp("cfg/landfence/trusted"), want);
	assert_int_equal(lf_trust_check("/x/one", "a", 1), -ESTALE);
	assert_int_equal(lf_trust_check("/x/one", "b", 1), 0);

	/* A path with a newline cannot be recorded. */
	assert_int_equal(lf_trust_record("/x/new\nline", "a", 1), -EINVAL);

	/* The directories are private. */
	struct stat st;
	assert_int_equal(stat(P("cfg/landfence"), &st), 0);
	assert_int_equal(st.st_mode & 0777, 0700);

	/* A store others may write, or that has another name, is not
	 * believed (a sandboxed program can chmod it, and another user
	 * could then write it), and trusting does not carry it over. */
	assert_int_equal(chmod(P("cfg/landfence/trusted"), 0622), 0);
	assert_int_equal(lf_trust_check("/x/one", "b", 1), -EACCES);
	assert_int_equal(lf_trust_record("/x/three", "c", 1), -EACCES);
	assert_int_equal(chmod(P("cfg/landfence/trusted"), 0600), 0);
	assert_int_equal(lf_trust_check("/x/one", "b", 1), 0);
	assert_int_equal(link(P("cfg/landfence/trusted"), P("cfg/second-name")), 0);
	assert_int_equal(lf_trust_check("/x/one", "b", 1), -EACCES);
	assert_int_equal(unlink(P("cfg/second-name")), 0);
	assert_int_equal(lf_trust_check("/x/one", "b", 1), 0);

	/* Nor one in a directory somebody else may change: a sandboxed
	 * program can chmod the configuration directory, or one above it,
	 * and another user could then swap the store, or the directory, for
	 * one the program wrote. The refusal names the directory. Only a
	 * directory like /tmp (root's, sticky, writable by everybody: above
	 * all of these) is fine: a sticky one made group-writable would
	 * still take a store moved in where there was none. */
	static const struct {
		const char *dir;
		mode_t mode, back;
		int want;
	} chain[] = {
		{ "cfg/landfence", 0777, 0700, -EACCES }, { "cfg/landfence", 0770, 0700, -EACCES },
		{ "cfg", 0757, 0755, -EACCES },		  { "", 0777, 0700, -EACCES },
		{ "cfg", 01770, 0755, -EACCES },	  { "cfg/landfence", 01770, 0700, -EACCES },
	};
	for (size_t i = 0; i < sizeof(chain) / sizeof(chain[0]); i++) {
		struct lf_diag d = { 0 };
		const char *dir = chain[i].dir[0] ? P(chain[i].dir) : base;

		assert_int_equal(chmod(dir, chain[i].mode), 0);
		assert_int_equal(lf_trust_check("/x/one", "b", 1), chain[i].want);
		if (chain[i].want) {
			assert_int_equal(lf_trust_record("/x/three", "c", 1), chain[i].want);
			lf_trust_refusal("/x/one", chain[i].want, &d);
			if (!strstr(d.message, "lies in") || !strstr(d.message, dir))
				fail_msg("case %zu: %s", i, d.message);
		}
		assert_int_equal(chmod(dir, chain[i].back), 0);
		assert_int_equal(lf_trust_check("/x/one", "b", 1), 0);
	}
	/* The directories a link leads through are looked at too: the
	 * configuration directory made a link into a directory others may
	 * write. */
	assert_int_equal(mkdir(P("open"), 0777), 0);
	assert_int_equal(chmod(P("open"), 0777), 0);
	assert_int_equal(rename(P("cfg/landfence"), P("open/landfence")), 0);
	assert_int_equal(symlink(P("open/landfence"), P("cfg/landfence")), 0);
	assert_int_equal(lf_trust_check("/x/one", "b", 1), -EACCES);
	assert_int_equal(chmod(P("open"), 0755), 0);
	assert_int_equal(lf_trust_check("/x/one", "b", 1), 0);
	assert_int_equal(unlink(P("cfg/landfence")), 0);
	assert_int_equal(rename(P("open/landfence"), P("cfg/landfence")), 0);

	/* A store that is a symbolic link is not read (nor trusted). */
	assert_int_equal(rename(P("cfg/landfence/trusted"), P("cfg/elsewhere")), 0);
	assert_int_equal(symlink(P("cfg/elsewhere"), P("cfg/landfence/trusted")), 0);
	assert_int_equal(lf_trust_check("/x/one", "b", 1), -ELOOP);
	assert_false(lf_trust_known("/x/one"));
	unlink(P("cfg/landfence/trusted"));
}

/* The project's own file, never what a symbolic link points at. */
static void test_policy_path(void **state)
{
	char p[PATH_MAX], cmd[PATH_MAX];

	(void)state;
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s' '%s'", P("a/.landfence"), P("b/.landfence"));
	assert_int_equal(system(cmd), 0);
	assert_int_equal(lf_trust_policy_path(P("a"), p, sizeof(p)), -ENOENT);
	put("a/.landfence/policy.json", "{}");
	assert_int_equal(lf_trust_policy_path(P("a"), p, sizeof(p)), 0);
	assert_string_equal(p, P("a/.landfence/policy.json"));

	assert_int_equal(symlink(P("a/.landfence/policy.json"), P("b/.landfence/policy.json")), 0);
	assert_int_equal(lf_trust_policy_path(P("b"), p, sizeof(p)), -ELOOP);

	snprintf(cmd, sizeof(cmd), "rm -rf '%s' && mkdir -p '%s' && ln -s '%s' '%s'", P("c"),
		 P("c"), P("a/.landfence"), P("c/.landfence"));
	assert_int_equal(system(cmd), 0);
	assert_int_equal(lf_trust_policy_path(P("c"), p, sizeof(p)), -ELOOP);

	put("d-file", "");
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s' && cp '%s' '%s'", P("d"), P("d-file"),
		 P("d/.landfence"));
	assert_int_equal(system(cmd), 0);
	assert_int_equal(lf_trust_policy_path(P("d"), p, sizeof(p)), -ENOTDIR);
	assert_int_equal(lf_trust_policy_path("relative", p, sizeof(p)), -EINVAL);

	/* Reading a policy through a symbolic link is refused too. */
	char *text = NULL;
	size_t len = 0;
	assert_int_equal(lf_trust_read_policy(P("b/.landfence/policy.json"), &text, &len), -ELOOP);
	assert_int_equal(lf_trust_read_policy(P("a/.landfence/policy.json"), &text, &len), 0);
	assert_int_equal(len, 2);
	assert_string_equal(text, "{}");
	free(text);
}

/* The root lf_project_open finds (LF_PROJECT_ROOT_ONLY) into root, or
 * its error. */
static int project_root(const struct lf_project_opts *o, char *root, size_t size)
{
	struct lf_project *p = NULL;
	struct lf_diag d;
	int r = lf_project_open(o, &p, &d);

	if (r == 0)
		snprintf(root, size, "%s", lf_project_root(p));
	lf_project_free(p);
	return r;
}

/* A root found below a trusted project, without a trusted policy of its
 * own, is refused unless named with -C. */
static void test_nested_root(void **state)
{
	char cmd[PATH_MAX], root[PATH_MAX], cwd[PATH_MAX];
	struct lf_project_opts o = LF_PROJECT_OPTS_INIT;

	o.flags = LF_PROJECT_ROOT_ONLY;

	(void)state;
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s' '%s' '%s'", P("outer/.landfence"),
		 P("outer/inner/.git"), P("plain/sub/.git"));
	assert_int_equal(system(cmd), 0);
	put("outer/.landfence/policy.json", "{}");
	assert_int_equal(lf_trust_record(P("outer/.landfence/policy.json"), "{}", 2), 0);

	assert_int_equal(chdir(P("outer/inner")), 0);
	assert_int_equal(project_root(&o, root, sizeof(root)), -EPERM);
	/* Named with -C: the user chose it. */
	o.directory = ".";
	assert_int_equal(project_root(&o, root, sizeof(root)), 0);
	assert_string_equal(root, P("outer/inner"));
	o.directory = NULL;
	/* A nested project with its own trusted policy is a project. */
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s'", P("outer/inner/.landfence"));
	assert_int_equal(system(cmd), 0);
	put("outer/inner/.landfence/policy.json", "{ }");
	assert_int_equal(project_root(&o, root, sizeof(root)), -EPERM);
	assert_int_equal(lf_trust_record(P("outer/inner/.landfence/policy.json"), "{ }", 3), 0);
	assert_int_equal(project_root(&o, root, sizeof(root)), 0);
	assert_string_equal(root, P("outer/inner"));
	/* No trusted project above: the nearest root, as before. */
	assert_int_equal(chdir(P("plain/sub")), 0);
	assert_int_equal(project_root(&o, root, sizeof(root)), 0);
	assert_string_equal(root, P("plain/sub"));
	assert_int_equal(chdir(cwd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_store_path),  cmocka_unit_test(test_check_table),
		cmocka_unit_test(test_store_lines), cmocka_unit_test(test_policy_path),
		cmocka_unit_test(test_nested_root),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
