/* SPDX-License-Identifier: MIT */
/*
 * `landfence hook claude` through the built tool (LANDFENCE_BIN), fed the
 * PreToolUse payloads Claude Code really sends (tests/advisory/data, from
 * /work/shared/claude-code) and variants of them: extra fields, missing
 * fields, wrong types, broken JSON, other tools. A malformed payload is
 * denied, never allowed; a tool the hook does not judge gets no output.
 */
#include <jansson.h>

#include "landfence.h"
#include "run.h"

static char proj[256], pol[300], bad[300];

static const char policy_text[] =
	"{\n"
	"  \"version\": 1,\n"
	"  \"fallback\": \"ask\",\n"
	"  \"rules\": [\n"
	"    { \"effect\": \"allow\", \"capability\": \"read\", \"paths\": [\"notes.txt\", "
	"\"src/**\"] },\n"								   /* 5 */
	"    { \"effect\": \"deny\", \"capability\": \"read\", \"paths\": [\".env\"] },\n" /* 6 */
	"    { \"effect\": \"allow\", \"capability\": \"write\", \"paths\": [\"notes.txt\"] "
	"},\n"									   /* 7 */
	"    { \"effect\": \"allow\", \"capability\": \"bash\", \"commands\": [\n" /* 8 */
	"        { \"effect\": \"deny\", \"prefix\": \"rm\" },\n"		   /* 9 */
	"        { \"effect\": \"allow\", \"prefix\": \"cat\" },\n"		   /* 10 */
	"        { \"effect\": \"allow\", \"prefix\": \"ls\" } ] }\n"		   /* 11 */
	"  ]\n"
	"}\n";

static int setup(void **state)
{
	if (project_make(proj, sizeof(proj), "/tmp/lf-hook-XXXXXX", pol, sizeof(pol), policy_text,
			 bad, sizeof(bad), "{ \"version\": 1, \"rules\": 3 }\n"))
		return -1;
	make_dir(proj, "src/lib");
	write_file(proj, "notes.txt", "hello\n");
	return 0;
}

static int teardown(void **state)
{
	return tree_remove(proj);
}

/* A recorded payload with the project root moved to the temp project. */
static json_t *payload(const char *name)
{
	const char *src = getenv("LANDFENCE_SRCDIR");
	char path[4096];
	json_error_t e;

	assert_non_null(src);
	snprintf(path, sizeof(path), "%s/tests/advisory/data/pretooluse-%s.json", src, name);
	json_t *j = json_load_file(path, 0, &e);
	if (!j)
		fail_msg("%s: %s", path, e.text);
	char *text = json_dumps(j, JSON_COMPACT);
	json_decref(j);
	assert_non_null(text);
	/* "/work/proj" → proj, everywhere (cwd and the paths) */
	char out[65536];
	size_t n = 0;
	for (const char *s = text; *s && n < sizeof(out) - 300;) {
		if (!strncmp(s, "/work/proj", 10)) {
			n += (size_t)snprintf(out + n, sizeof(out) - n, "%s", proj);
			s += 10;
		} else {
			out[n++] = *s++;
		}
	}
	out[n] = '\0';
	free(text);
	j = json_loads(out, 0, &e);
	assert_non_null(j);
	return j;
}

static void hook_raw(struct run *r, const char *input, const char *policy)
{
	const char *const a[] = { "hook", "claude", "-C", proj, "-p", policy ? policy : pol, NULL };
	run_tool(r, input, NULL, a);
}

/* Runs the hook on j (consumed) and checks the documented answer shape;
 * returns the decision and copies the reason. */
/* A file request the policy asks about but the kernel will refuse is
 * answered deny where Landlock enforces (asking cannot make the kernel
 * grant it), ask where nothing is enforced. */
#define FILE_ASK (lf_landlock_abi(-1) > 0 ? "deny" : "ask")

static const char *hook(json_t *j, char *reason, size_t size)
{
	static char decision[16];
	struct run *r = calloc(1, sizeof(*r));
	char *text = json_dumps(j, JSON_COMPACT);
	json_decref(j);
	assert_non_null(text);
	hook_raw(r, text, NULL);
	free(text);
	if (r->status != 0)
		fail_msg("hook exit %d, stderr %s", r->status, r->err);
	json_error_t e;
	json_t *out = json_loads(r->out, 0, &e);
	if (!out)
		fail_msg("hook stdout is not JSON: [%s]", r->out);
	assert_int_equal(json_object_size(out), 1);
	json_t *h = json_object_get(out, "hookSpecificOutput");
	assert_true(json_is_object(h));
	assert_int_equal(json_object_size(h), 3);
	assert_string_equal(json_string_value(json_object_get(h, "hookEventName")), "PreToolUse");
	const char *d = json_string_value(json_object_get(h, "permissionDecision"));
	const char *why = json_string_value(json_object_get(h, "permissionDecisionReason"));
	assert_non_null(d);
	assert_non_null(why);
	assert_true(why[0] != '\0');
	snprintf(decision, sizeof(decision), "%s", d);
	if (reason)
		snprintf(reason, size, "%s", why);
	json_decref(out);
	free(r);
	return decision;
}

static void set_input(json_t *j, const char *key, json_t *v)
{
	json_t *in = json_object_get(j, "tool_input");
	assert_non_null(in);
	if (v)
		json_object_set_new(in, key, v);
	else
		json_object_del(in, key);
}

static void test_recorded_payloads(void **state)
{
	char why[4096], rule[400];

	/* Bash "cat .env": cat is allowed, reading .env is denied */
	assert_string_equal(hook(payload("bash"), why, sizeof(why)), "deny");
	snprintf(rule, sizeof(rule), "%s:6:5", pol);
	assert_non_null(strstr(why, rule));
	/* Read notes.txt: allowed by line 5 */
	assert_string_equal(hook(payload("read"), why, sizeof(why)), "allow");
	snprintf(rule, sizeof(rule), "%s:5:5", pol);
	assert_non_null(strstr(why, rule));
	/* Edit notes.txt: allowed by line 7 */
	assert_string_equal(hook(payload("edit"), why, sizeof(why)), "allow");
	snprintf(rule, sizeof(rule), "%s:7:5", pol);
	assert_non_null(strstr(why, rule));
	/* Write new.txt: no rule, the fallback asks; but the kernel grants no
	 * write there and a person's yes cannot change that: deny */
	assert_string_equal(hook(payload("write"), why, sizeof(why)), FILE_ASK);
	assert_non_null(strstr(why, "fallback"));
	if (lf_landlock_abi(-1) > 0)
		assert_non_null(strstr(why, "would ask about it"));
}

static void test_variants(void **state)
{
	json_t *j;
	char why[4096];

	/* fields the hook does not know are ignored */
	j = payload("read");
	json_object_set_new(j, "future_field", json_pack("{s:[i,i]}", "x", 1, 2));
	set_input(j, "limit", json_integer(10));
	set_input(j, "offset", json_string("weird"));
	assert_string_equal(hook(j, NULL, 0), "allow");

	/* bash lines */
	j = payload("bash");
	set_input(j, "command", json_string("ls && rm -rf x"));
	assert_string_equal(hook(j, why, sizeof(why)), "deny");
	assert_non_null(strstr(why, "rm -rf x"));
	j = payload("bash");
	set_input(j, "command", json_string("ls -la"));
	assert_string_equal(hook(j, NULL, 0), "allow");
	j = payload("bash");
	set_input(j, "command", json_string("cat $(echo notes.txt)"));
	assert_string_equal(hook(j, why, sizeof(why)), "ask");
	assert_non_null(strstr(why, "command substitution"));

	/* the classes of doc/shell.md, as the hook answers them */
	j = payload("bash");
	set_input(j, "command", json_string("coproc NAME { rm y; }"));
	assert_string_equal(hook(j, NULL, 0), "deny");
	j = payload("bash");
	set_input(j, "command", json_string("ls\r; rm y"));
	assert_string_equal(hook(j, NULL, 0), "deny");
	j = payload("bash");
	set_input(j, "command", json_string("cat <<EOF\nx\nEOF\r\nrm y\nEOF"));
	assert_string_equal(hook(j, NULL, 0), "allow");
	j = payload("bash");
	set_input(j, "command", json_string("command -v rm"));
	assert_string_equal(hook(j, NULL, 0), "allow");
	j = payload("bash");
	set_input(j, "command", json_string("x='$(rm y)'; echo ${x@P}"));
	assert_string_equal(hook(j, why, sizeof(why)), "ask");
	assert_non_null(strstr(why, "transformation"));
	j = payload("bash");
	set_input(j, "command", json_string("MAKEFLAGS=x ls"));
	assert_string_equal(hook(j, NULL, 0), "ask");
	j = payload("bash");
	set_input(j, "command", json_string("git log --output=.git/hooks/pre-commit"));
	assert_string_equal(hook(j, why, sizeof(why)), FILE_ASK);
	assert_non_null(strstr(why, "pre-commit"));
	j = payload("bash");
	set_input(j, "command", json_string("cat notes.txt"));
	assert_string_equal(hook(j, NULL, 0), "allow");

	/* Read and Bash agree on a symlink to a denied file */
	j = payload("read");
	set_input(j, "file_path", json_string("src/envlink"));
	assert_string_equal(hook(j, NULL, 0), "deny");
	j = payload("bash");
	set_input(j, "command", json_string("cat src/envlink"));
	assert_string_equal(hook(j, why, sizeof(why)), "deny");

	/* a relative path is relative to the payload's cwd */
	j = payload("read");
	set_input(j, "file_path", json_string("notes.txt"));
	assert_string_equal(hook(j, NULL, 0), "allow");
	j = payload("read");
	set_input(j, "file_path", json_string("src/../.env"));
	assert_string_equal(hook(j, NULL, 0), "deny");

	/* a reason that cuts a name inside a character is still valid
	 * UTF-8: an answer, not a blocked call (exit 2) */
	{
		char line[1024] = "echo ";
		for (size_t k = 0; k < 300; k++)
			strcat(line, "\xc3\xa9");
		j = payload("bash");
		set_input(j, "command", json_string(line));
		assert_non_null(hook(j, NULL, 0)); /* exit 0 and a JSON answer */
	}

	/* "~/…" is judged as the home's too (the client may expand it): in
	 * src/ the literal name is allowed, the home's file is not */
	{
		char src[300], home[300];
		snprintf(src, sizeof(src), "%s/src", proj);
		snprintf(home, sizeof(home), "HOME=%s/../lf-hook-home", proj);
		const char *const env[] = { home, NULL };
		const char *const a[] = { "hook", "claude", "-C", proj, "-p", pol, NULL };
		j = payload("read");
		json_object_set_new(j, "cwd", json_string(src));
		set_input(j, "file_path", json_string("~/secret.txt"));
		char *text = json_dumps(j, JSON_COMPACT);
		json_decref(j);
		struct run *r = calloc(1, sizeof(*r));
		assert_non_null(r);
		run_tool(r, text, env, a);
		free(text);
		assert_int_equal(r->status, 0);
		bool refused = strstr(r->out, "\"permissionDecision\":\"deny\"") ||
			       strstr(r->out, "\"permissionDecision\":\"ask\"");
		bool named = strstr(r->out, "lf-hook-home/secret.txt") != NULL;
		if (!refused || !named)
			fail_msg("~/secret.txt from src/: not refused, or not named: %s", r->out);
		free(r);
	}

	/* Glob and Grep read their path, the cwd by default */
	j = payload("read");
	json_object_set_new(j, "tool_name", json_string("Glob"));
	json_object_set_new(j, "tool_input", json_pack("{s:s}", "pattern", "**/*.c"));
	assert_string_equal(hook(j, NULL, 0), FILE_ASK);
	j = payload("read");
	json_object_set_new(j, "tool_name", json_string("Glob"));
	json_object_set_new(j, "tool_input",
			    json_pack("{s:s,s:s}", "pattern", "*.c", "path", "src/lib"));
	assert_string_equal(hook(j, NULL, 0), "allow");
	j = payload("read");
	json_object_set_new(j, "tool_name", json_string("Grep"));
	json_object_set_new(j, "tool_input",
			    json_pack("{s:s,s:s}", "pattern", "SECRET", "path", ".env"));
	assert_string_equal(hook(j, NULL, 0), "deny");
	j = payload("read");
	json_object_set_new(j, "tool_name", json_string("Grep"));
	json_object_set_new(j, "tool_input", json_pack("{s:s,s:n}", "pattern", "x", "path"));
	assert_string_equal(hook(j, NULL, 0), FILE_ASK);

	/* the write tools */
	j = payload("edit");
	json_object_set_new(j, "tool_name", json_string("MultiEdit"));
	assert_string_equal(hook(j, NULL, 0), "allow");
	j = payload("edit");
	json_object_set_new(j, "tool_name", json_string("Write"));
	set_input(j, "file_path", json_string(".env"));
	assert_string_equal(hook(j, NULL, 0), FILE_ASK);
	j = payload("edit");
	json_object_set_new(j, "tool_name", json_string("NotebookEdit"));
	json_object_set_new(j, "tool_input",
			    json_pack("{s:s,s:s}", "notebook_path", "nb.ipynb", "new_source", "x"));
	assert_string_equal(hook(j, NULL, 0), FILE_ASK);
}

static void expect_deny(json_t *j, const char *why_has)
{
	char why[4096];
	assert_string_equal(hook(j, why, sizeof(why)), "deny");
	if (why_has && !strstr(why, why_has))
		fail_msg("reason [%s] lacks [%s]", why, why_has);
}

static void test_malformed_is_denied(void **state)
{
	json_t *j;

	j = payload("bash");
	json_object_del(j, "hook_event_name");
	expect_deny(j, "hook_event_name");
	j = payload("bash");
	json_object_set_new(j, "hook_event_name", json_string("PostToolUse"));
	expect_deny(j, "PostToolUse");
	j = payload("bash");
	json_object_set_new(j, "hook_event_name", json_integer(1));
	expect_deny(j, "hook_event_name");
	j = payload("bash");
	json_object_del(j, "tool_name");
	expect_deny(j, "tool_name");
	j = payload("bash");
	json_object_set_new(j, "tool_name", json_integer(5));
	expect_deny(j, "tool_name");
	j = payload("bash");
	json_object_del(j, "tool_input");
	expect_deny(j, "tool_input");
	j = payload("bash");
	json_object_set_new(j, "tool_input", json_string("ls"));
	expect_deny(j, "tool_input");
	j = payload("bash");
	set_input(j, "command", NULL);
	expect_deny(j, "command");
	j = payload("bash");
	set_input(j, "command", json_integer(42));
	expect_deny(j, "command");
	j = payload("bash");
	set_input(j, "command", json_stringn("ls\0rm x", 7));
	expect_deny(j, "NUL");
	j = payload("read");
	set_input(j, "file_path", json_null());
	expect_deny(j, "file_path");
	j = payload("read");
	set_input(j, "file_path", json_string(""));
	expect_deny(j, "file_path");
	j = payload("bash");
	json_object_del(j, "cwd");
	expect_deny(j, "cwd");
	j = payload("bash");
	json_object_set_new(j, "cwd", json_integer(7));
	expect_deny(j, "cwd");
	j = payload("read");
	json_object_set_new(j, "cwd", json_string("relative/dir"));
	expect_deny(j, "cwd");

	/* broken or odd documents */
	static const char *const raw[] = {
		"",
		"{",
		"not json",
		"[]",
		"null",
		"{\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Bash\",\"tool_name\":"
		"\"Read\"}",
		"{\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Bash\",\"tool_input\":{"
		"\"command\":\"ls\"},\"cwd\":\"/\"}garbage",
	};
	struct run *r = calloc(1, sizeof(*r));
	for (size_t i = 0; i < sizeof(raw) / sizeof(raw[0]); i++) {
		hook_raw(r, raw[i], NULL);
		if (r->status != 0 || !strstr(r->out, "\"permissionDecision\":\"deny\""))
			fail_msg("[%s]: exit %d, stdout [%s]", raw[i], r->status, r->out);
	}

	/* a policy that cannot be loaded: deny, with the error on stderr */
	j = payload("read");
	char *text = json_dumps(j, JSON_COMPACT);
	json_decref(j);
	hook_raw(r, text, bad);
	free(text);
	assert_int_equal(r->status, 0);
	assert_non_null(strstr(r->out, "\"permissionDecision\":\"deny\""));
	assert_non_null(strstr(r->err, "bad.json:1:"));
	free(r);
}

static void test_tools_not_judged(void **state)
{
	static const char *const tools[] = { "Skill", "Agent", "WebFetch", "mcp__srv__tool",
					     "TodoWrite" };
	struct run *r = calloc(1, sizeof(*r));

	for (size_t i = 0; i < sizeof(tools) / sizeof(tools[0]); i++) {
		json_t *j = payload("bash");
		json_object_set_new(j, "tool_name", json_string(tools[i]));
		char *text = json_dumps(j, JSON_COMPACT);
		json_decref(j);
		hook_raw(r, text, NULL);
		free(text);
		if (r->status != 0 || r->out[0])
			fail_msg("%s: exit %d, stdout [%s]", tools[i], r->status, r->out);
	}
	/* the hook needs its agent */
	const char *const a[] = { "hook", NULL };
	run_tool(r, "{}", NULL, a);
	assert_int_equal(r->status, 2);
	const char *const b[] = { "hook", "codex", NULL };
	run_tool(r, "{}", NULL, b);
	assert_int_equal(r->status, 2);
	free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_recorded_payloads),
		cmocka_unit_test(test_variants),
		cmocka_unit_test(test_malformed_is_denied),
		cmocka_unit_test(test_tools_not_judged),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
