/* SPDX-License-Identifier: MIT */
/*
 * `landfence check` through the built tool (LANDFENCE_BIN) on a temporary
 * project: the verdict word first, the deciding rule, exit statuses
 * (0 allow, 1 deny, 3 ask, 2 usage or policy error), --json, and the
 * kernel's answer beside the policy's: an allow the compiled plan drops
 * is never answered allow.
 */
#include <jansson.h>

#include "landfence.h"
#include "run.h"

static char proj[256], pol[300], bad[300];

/* One rule per line: tests name rules by line. */
static const char policy_text[] =
	"{\n"
	"  \"version\": 1,\n"
	"  \"fallback\": \"ask\",\n"
	"  \"rules\": [\n"
	"    { \"effect\": \"allow\", \"capability\": \"read\", \"paths\": [\"src/**\", \"docs\"] "
	"},\n"										   /* 5 */
	"    { \"effect\": \"deny\", \"capability\": \"read\", \"paths\": [\".env\"] },\n" /* 6 */
	"    { \"effect\": \"allow\", \"capability\": \"write\", \"paths\": [\"src/**\", \"docs\"] "
	"},\n" /* 7 */
	"    { \"effect\": \"ask\", \"capability\": \"write\", \"paths\": [\"src/gen\"] },\n" /* 8 */
	"    { \"effect\": \"deny\", \"capability\": \"delete\", \"paths\": [\"docs\"] },\n" /* 9 */
	"    { \"effect\": \"allow\", \"capability\": \"bash\", \"commands\": [\n" /* 10 */
	"        { \"effect\": \"deny\", \"prefix\": \"rm\" },\n"		   /* 11 */
	"        { \"effect\": \"allow\", \"prefix\": \"ls\" } ] }\n"		   /* 12 */
	"  ]\n"
	"}\n";

static int setup(void **state)
{
	if (project_make(proj, sizeof(proj), "/tmp/lf-check-XXXXXX", pol, sizeof(pol), policy_text,
			 bad, sizeof(bad), "{\n  \"version\": 1,\n  \"fallbak\": \"ask\"\n}\n"))
		return -1;
	make_dir(proj, "docs");
	write_file(proj, "src/a.c", "int x;\n");
	write_file(proj, "docs/readme", "hello\n");
	return 0;
}

static int teardown(void **state)
{
	return tree_remove(proj);
}

static bool landlock_here(void)
{
	if (lf_landlock_abi(-1) > 0)
		return true;
	if (must_enforce())
		fail_msg("Landlock is not available and LANDFENCE_TESTS_MUST_ENFORCE=1");
	return false;
}

#define CHECK(r, ...)                                                                           \
	do {                                                                                    \
		const char *const a_[] = { "check", "-C", proj, "-p", pol, __VA_ARGS__, NULL }; \
		run_tool((r), NULL, NULL, a_);                                                  \
	} while (0)

static void expect(const struct run *r, int status, const char *first_word, const char *has)
{
	if (r->status != status || strncmp(r->out, first_word, strlen(first_word)) != 0 ||
	    r->out[strlen(first_word)] != ' ' || (has && !strstr(r->out, has)))
		fail_msg("exit %d (expected %d), stdout:\n%s\nstderr:\n%s\nexpected first word %s "
			 "and [%s]",
			 r->status, status, r->out, r->err, first_word, has ? has : "");
}

static void test_file_requests(void **state)
{
	struct run *r = calloc(1, sizeof(*r));
	char rule[400];

	/* a deny, named by its file, line and column */
	CHECK(r, "read", ".env");
	snprintf(rule, sizeof(rule), "deny local %s:6:5\n", pol);
	expect(r, 1, "deny", rule);
	/* the fallback asks; but the kernel grants no read of README, and a
	 * person's yes cannot change that: deny, naming the kernel */
	bool ll = landlock_here();
	CHECK(r, "read", "README");
	if (ll) {
		expect(r, 1, "deny", "deny kernel refuses: no final rule grants read");
		assert_non_null(strstr(r->out, "/README: ask by fallback"));
		assert_non_null(strstr(r->out, "what the policy would ask about"));
	} else {
		expect(r, 3, "ask", "ask fallback\n");
	}
	/* outside the project: the fallback too, and the kernel refuses */
	CHECK(r, "write", "/etc/landfence-nowhere");
	expect(r, ll ? 1 : 3, ll ? "deny" : "ask", ll ? "kernel refuses" : "fallback");
	/* what the kernel refuses under a policy deny stays the policy's deny */
	CHECK(r, "read", "/root/.ssh/id_rsa");
	expect(r, ll ? 1 : 3, ll ? "deny" : "ask", NULL);
	/* an allow the kernel grants */
	CHECK(r, "read", "src/a.c");
	snprintf(rule, sizeof(rule), "allow local %s:5:5\n", pol);
	expect(r, 0, "allow", rule);
	if (landlock_here())
		assert_non_null(strstr(r->out, "kernel: grants read"));
	/* several paths: the strictest */
	CHECK(r, "read", "src/a.c", "README", ".env");
	expect(r, 1, "deny", NULL);
	CHECK(r, "read", "src/a.c", "README");
	expect(r, ll ? 1 : 3, ll ? "deny" : "ask", NULL);
	/* the policy denies deleting docs/ */
	CHECK(r, "delete", "docs/readme");
	expect(r, 1, "deny", ":9:5");
	/* ".." cannot walk around a rule */
	CHECK(r, "read", "src/../.env");
	expect(r, 1, "deny", NULL);
	free(r);
}

/* The policy allows writing src/a.c, but the plan drops the allow on src
 * because the ask on src/gen fences it: the kernel will refuse, so the
 * answer is deny, naming the allow and the fence. */
static void test_kernel_refuses_an_allow(void **state)
{
	struct run *r = calloc(1, sizeof(*r));
	char allow[400], fence[400];

	if (!landlock_here()) {
		free(r);
		skip();
	}
	snprintf(allow, sizeof(allow), "the allow at %s:7:5", pol);
	snprintf(fence, sizeof(fence), "fence of the ask rule at %s:8:5", pol);
	CHECK(r, "write", "src/a.c");
	expect(r, 1, "deny", allow);
	assert_non_null(strstr(r->out, fence));
	assert_non_null(strstr(r->out, "allow by local"));

	/* the same in JSON */
	CHECK(r, "--json", "write", "src/a.c");
	assert_int_equal(r->status, 1);
	json_error_t e;
	json_t *j = json_loads(r->out, 0, &e);
	assert_non_null(j);
	assert_string_equal(json_string_value(json_object_get(j, "verdict")), "deny");
	json_t *req = json_array_get(json_object_get(j, "requests"), 0);
	json_t *k = json_object_get(req, "kernel");
	assert_true(json_is_false(json_object_get(k, "grants")));
	assert_true(json_is_true(json_object_get(k, "enforced")));
	json_t *p = json_object_get(req, "policy");
	assert_string_equal(json_string_value(json_object_get(p, "verdict")), "allow");
	assert_int_equal(json_integer_value(json_object_get(json_object_get(p, "rule"), "line")),
			 7);
	json_decref(j);

	/* without Landlock nothing is enforced and the policy's allow stands */
	const char *const env[] = { "LANDFENCE_ABI_MAX=0", NULL };
	const char *const a[] = { "check", "-C", proj, "-p", pol, "write", "src/a.c", NULL };
	run_tool(r, NULL, env, a);
	expect(r, 0, "allow", "not enforced");
	free(r);
}

static void test_bash_requests(void **state)
{
	struct run *r = calloc(1, sizeof(*r));
	char rule[400];

	CHECK(r, "bash", "--", "ls -la");
	snprintf(rule, sizeof(rule), "allow local %s:12:9\n", pol);
	expect(r, 0, "allow", rule);
	CHECK(r, "bash", "--", "ls && rm -rf x");
	snprintf(rule, sizeof(rule), "deny local %s:11:9\n", pol);
	expect(r, 1, "deny", rule);
	assert_non_null(strstr(r->out, "part: rm -rf x"));
	CHECK(r, "bash", "--", "echo $(ls)");
	expect(r, 3, "ask", "not analysable: command substitution");
	/* write .env: no rule, the fallback asks; but the kernel grants no
	 * write there, so the line is refused as a Write of .env is */
	bool ll = landlock_here();
	CHECK(r, "bash", "--", "echo x > .env");
	expect(r, ll ? 1 : 3, ll ? "deny" : "ask", ll ? "kernel refuses" : NULL);
	CHECK(r, "write", ".env");
	expect(r, ll ? 1 : 3, ll ? "deny" : "ask", NULL);
	/* files a program's options and operands name are file requests too:
	 * git writes the --output file, cat reads its operands */
	CHECK(r, "bash", "--", "ls --color=never src");
	expect(r, 0, "allow", NULL);
	CHECK(r, "bash", "--", "cat src/a.c docs/readme");
	expect(r, 0, "allow", NULL);
	CHECK(r, "bash", "--", "cat .env");
	expect(r, 1, "deny", ":6:5");
	/* a file word through a symlink is judged where it leads, as a Read
	 * of the same path is: src/envlink -> ../.env */
	CHECK(r, "read", "src/envlink");
	expect(r, 1, "deny", ":6:5");
	CHECK(r, "bash", "--", "cat src/envlink");
	expect(r, 1, "deny", ":6:5");
	CHECK(r, "bash", "--", "ls && cat ./src/envlink");
	expect(r, 1, "deny", ":6:5");
	CHECK(r, "bash", "--", "cat < src/envlink");
	expect(r, 1, "deny", ":6:5");
	CHECK(r, "bash", "--", "cat src/a.c");
	expect(r, 0, "allow", NULL);
	/* words after -- form one line */
	CHECK(r, "bash", "--", "ls", "&&", "rm", "x");
	expect(r, 1, "deny", NULL);
	/* options before the request */
	const char *const a[] = { "check", "--json", "-C", proj,   "-p",
				  pol,	   "bash",   "--", "rm x", NULL };
	run_tool(r, NULL, NULL, a);
	assert_int_equal(r->status, 1);
	json_error_t e;
	json_t *j = json_loads(r->out, 0, &e);
	assert_non_null(j);
	json_t *req = json_array_get(json_object_get(j, "requests"), 0);
	assert_string_equal(json_string_value(json_object_get(req, "line")), "rm x");
	assert_string_equal(
		json_string_value(json_object_get(json_object_get(req, "policy"), "part")), "rm x");
	json_decref(j);
	free(r);
}

/* The classes of doc/shell.md through the tool: what the line opens is
 * answered as a file request, the kernel's part included. */
static void test_bash_classes(void **state)
{
	struct run *r = calloc(1, sizeof(*r));
	bool ll = landlock_here();

	CHECK(r, "bash", "--", "coproc NAME { rm x; }");
	expect(r, 1, "deny", ":11:9");
	CHECK(r, "bash", "--", "ls\r; rm x");
	expect(r, 1, "deny", ":11:9");
	CHECK(r, "bash", "--", "cat <<EOF\nx\\\nEOF\nrm x\nEOF");
	expect(r, 0, "allow", NULL);
	CHECK(r, "bash", "--", "echo $[1<<2]\nrm x");
	expect(r, 1, "deny", ":11:9");
	CHECK(r, "bash", "--", "command -v rm");
	expect(r, 0, "allow", NULL);
	CHECK(r, "bash", "--", "x='a[$(rm y)]'; echo $((x))");
	expect(r, 3, "ask", "arithmetic");
	CHECK(r, "bash", "--", "MAKEFLAGS=x ls");
	expect(r, 3, "ask", "MAKEFLAGS");
	/* a write through git's own option: the fallback asks, and the kernel
	 * grants no write in .git */
	CHECK(r, "bash", "--", "git log --output=.git/hooks/pre-commit");
	expect(r, ll ? 1 : 3, ll ? "deny" : "ask", NULL);
	assert_non_null(strstr(r->out, ".git/hooks/pre-commit"));
	/* this policy's write allow on src is dropped by the ask on src/gen */
	CHECK(r, "bash", "--", "cat src/a.c > src/b.c");
	expect(r, ll ? 1 : 0, ll ? "deny" : "allow", ll ? "kernel refuses" : NULL);
	free(r);
}

/* The embedded default (no policy file): a file outside the project that a
 * command reads or writes is refused, by the policy's fallback (deny) as
 * by the kernel. */
static void test_bash_default(void **state)
{
	struct run *r = calloc(1, sizeof(*r));
	char dir[300], home[320], env_home[340];

	snprintf(dir, sizeof(dir), "%s/plain", proj);
	make_dir(proj, "plain");
	make_dir(proj, "plain/.git");
	make_dir(proj, "plain/src");
	make_dir(proj, "home");
	write_file(proj, "home/secret.txt", "secret\n");
	write_file(proj, "plain/README", "hello\n");
	snprintf(home, sizeof(home), "%s/home", proj);
	snprintf(env_home, sizeof(env_home), "HOME=%s", home);
	const char *const env[] = { env_home, "XDG_CONFIG_HOME=", NULL };
	static const struct {
		const char *line;
		int status;
		const char *has;
		bool no_file; /* the line names no file: no kernel to ask */
	} t[] = {
		{ "cat ~/secret.txt", 1, "secret.txt" },
		{ "cat README", 0, NULL },
		{ "head -n1 ~/secret.txt | wc -l", 1, "secret.txt" },
		{ "cp README ~/copy", 1, "copy" },
		{ "echo x > src/new", 0, NULL },
		{ "echo x > ~/.bashrc", 1, ".bashrc" },
		{ "git log --output=../escape", 1, "escape" },
		/* bash expands the tilde of an argument that looks like an
		 * assignment */
		{ "dd if=README of=~/secret.txt", 1, "secret.txt" },
		{ "echo a=~/secret.txt", 0, NULL, true },
	};
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		const char *const a[] = { "check", "-C", dir, "bash", "--", t[i].line, NULL };
		run_tool(r, NULL, env, a);
		/* without Landlock the default's fallback deny cannot be
		 * enforced: the sandbox would not start, every file is refused */
		int want = t[i].status == 0 && !t[i].no_file && !landlock_here() ? 1 : t[i].status;
		if (r->status != want || (t[i].has && !strstr(r->out, t[i].has)))
			fail_msg("[%s]: exit %d, expected %d [%s]: %s", t[i].line, r->status, want,
				 t[i].has ? t[i].has : "", r->out);
	}
	free(r);
}

/* The policy `landfence init` writes: its shell rules hold however the
 * options of the command they name are spelled. */
static void test_starter_policy(void **state)
{
	static const struct {
		const char *line;
		int status;
	} t[] = {
		/* ask by the rule on rm, but deleting / is also a delete
		 * request the fallback (deny) and the kernel refuse: deny (1),
		 * with Landlock or without */
		{ "rm -rf /", 1 },
		{ "rm -fr /", 1 },
		{ "rm -r -f /", 1 },
		{ "rm -R -f /", 1 },
		{ "rm --recursive /", 1 },
		/* negative: that answer where Landlock enforces; without it the
		 * file it names is refused (the sandbox would not start) */
		{ "/bin/rm -fr x", -3 },
		{ "git push", 1 },
		{ "git -C . push", 1 },
		{ "git push --force", 1 },
		{ "ls && rm -fr /", 1 },
		{ "ls -la", 0 },
	};
	struct run *r = calloc(1, sizeof(*r));
	char dir[300], policy[340];

	snprintf(dir, sizeof(dir), "%s/starter", proj);
	make_dir(proj, "starter");
	const char *const init[] = { "init", "-C", dir, NULL };
	run_tool(r, NULL, NULL, init);
	if (r->status != 0)
		fail_msg("init: exit %d: %s", r->status, r->err);
	snprintf(policy, sizeof(policy), "%s/.landfence/policy.json", dir);
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		const char *const a[] = { "check", "-C", dir,	    "-p", policy,
					  "bash",  "--", t[i].line, NULL };
		run_tool(r, NULL, NULL, a);
		int want = t[i].status < 0 ? (landlock_here() ? -t[i].status : 1) : t[i].status;
		if (r->status != want)
			fail_msg("[%s]: exit %d, expected %d: %s", t[i].line, r->status, want,
				 r->out);
	}
	free(r);
}

static void test_usage_and_policy_errors(void **state)
{
	struct run *r = calloc(1, sizeof(*r));
	static const char *const cases[][6] = {
		{ "check", NULL },
		{ "check", "frob", "x", NULL },
		{ "check", "read", NULL },
		{ "check", "bash", "ls", NULL },
		{ "check", "bash", "--", NULL },
		{ "check", "--nope", "read", "x", NULL },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		run_tool(r, NULL, NULL, cases[i]);
		if (r->status != 2 || r->out[0])
			fail_msg("case %zu: exit %d, stdout [%s]", i, r->status, r->out);
	}
	const char *const u[] = { "check",     "-C",	 proj,	 "-p",	    pol,
				  "--profile", "nosuch", "read", "src/a.c", NULL };
	run_tool(r, NULL, NULL, u);
	assert_int_equal(r->status, 2);
	assert_non_null(strstr(r->err, "nosuch"));
	const char *const a[] = { "check", "-C", proj, "-p", bad, "read", "x", NULL };
	run_tool(r, NULL, NULL, a);
	assert_int_equal(r->status, 2);
	char where[400];
	snprintf(where, sizeof(where), "%s:3:", bad);
	assert_non_null(strstr(r->err, where));
	assert_string_equal(r->out, "");
	free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_file_requests),
		cmocka_unit_test(test_kernel_refuses_an_allow),
		cmocka_unit_test(test_bash_requests),
		cmocka_unit_test(test_usage_and_policy_errors),
		cmocka_unit_test(test_starter_policy),
		cmocka_unit_test(test_bash_classes),
		cmocka_unit_test(test_bash_default),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
