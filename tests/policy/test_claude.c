/* SPDX-License-Identifier: MIT */
/*
 * Claude Code settings import and export (doc/claude-settings.md): every
 * rule form and anchor, every defaultMode, layers, malformed settings with
 * their exact FILE:LINE:COLUMN messages, import(export(P)) deciding like P,
 * and the two subcommands run as programs.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "core/model.h"
#include "policy/policy.h"

#define ROOT "/work/proj"
#define HOME "/home/u"

static int import_text(const char *text, const char *root, struct lf_policy **p,
		       struct lf_strv *notes, struct lf_diag *diag)
{
	struct lf_claude_file f = { "settings.json", text, strlen(text), root };
	struct lf_claude_opts o = { ROOT, HOME };
	return lf_claude_import(&f, 1, &o, p, notes, diag);
}

/* The rule of p with this capability and effect, or NULL. */
static const struct lf_rule *find_rule(const struct lf_policy *p, enum lf_capability cap,
				       enum lf_effect e)
{
	for (size_t i = 0; i < p->nrules; i++)
		if (p->rules[i].cap == cap && (cap == LF_CAP_BASH || p->rules[i].effect == e))
			return &p->rules[i];
	return NULL;
}

static bool has_pattern(const struct lf_policy *p, enum lf_capability cap, enum lf_effect e,
			const char *pat)
{
	const struct lf_rule *r = find_rule(p, cap, e);
	for (size_t i = 0; r && i < r->nglobs; i++)
		if (strcmp(r->globs[i].pattern, pat) == 0)
			return true;
	return false;
}

static bool has_cmd(const struct lf_policy *p, enum lf_matcher m, const char *text,
		    enum lf_effect e)
{
	const struct lf_rule *r = find_rule(p, LF_CAP_BASH, LF_ALLOW);
	for (size_t i = 0; r && i < r->ncmds; i++)
		if (r->cmds[i].matcher == m && r->cmds[i].effect == e &&
		    strcmp(r->cmds[i].text, text) == 0)
			return true;
	return false;
}

enum expect_kind {
	X_FILE, /* pattern in caps (bit 0 read, 1 write, 2 delete) */
	X_CMD,	/* command rule */
	X_BASH, /* the bash rule's own effect */
	X_NOTE, /* not imported: a note containing text */
};

static const struct import_case {
	const char *list; /* allow, ask, deny */
	const char *rule;
	enum expect_kind kind;
	unsigned caps;
	const char *text; /* pattern, command or note fragment */
	enum lf_matcher matcher;
	enum lf_effect bash;
} import_cases[] = {
	{ "allow", "Read(src/**)", X_FILE, 1, "src/**" },
	{ "deny", "Read(.env)", X_FILE, 1, "**/.env" },
	{ "deny", "Read(*.pem)", X_FILE, 1, "**/*.pem" },
	{ "deny", "Read(secrets/)", X_FILE, 1, "**/secrets" },
	{ "deny", "Read(./.env)", X_FILE, 1, ".env" },
	{ "deny", "Read(config/*.json)", X_FILE, 1, "config/*.json" },
	{ "ask", "Read(**/id_*)", X_FILE, 1, "**/id_*" },
	{ "allow", "Edit(/src/**/*.ts)", X_FILE, 6, "src/**/*.ts" },
	{ "allow", "Write(docs/**)", X_FILE, 6, "docs/**" },
	{ "deny", "MultiEdit(/.git/**)", X_FILE, 6, ".git/**" },
	{ "ask", "NotebookEdit(/nb/*.ipynb)", X_FILE, 6, "nb/*.ipynb" },
	{ "allow", "Grep", X_FILE, 1, "**" },
	{ "allow", "Glob(/lib/**)", X_FILE, 1, "lib/**" },
	{ "deny", "Read(//work/proj/secrets/**)", X_FILE, 1, "secrets/**" },
	{ "allow", "Read(//work/proj)", X_FILE, 1, "**" },
	/* A tree above the project covers all of it. */
	{ "deny", "Read(//**)", X_FILE, 1, "**" },
	{ "deny", "Read(~/**)", X_NOTE, 0, "/home/u/** lies outside the project" },
	{ "deny", "Read(//work/**)", X_FILE, 1, "**" },
	{ "deny", "Read(//etc/passwd)", X_NOTE, 0, "/etc/passwd lies outside the project" },
	{ "deny", "Read(//work/project2/**)", X_NOTE, 0, "lies outside the project" },
	{ "deny", "Read(~/.ssh/**)", X_NOTE, 0, "/home/u/.ssh/** lies outside the project" },
	/* A deny the import drops says it is not enforced, and what the
	 * sandbox does there by default. */
	{ "deny", "Read(//etc/passwd)", X_NOTE, 0,
	  "this deny is not enforced by landfence: the sandbox's default host grant /etc "
	  "makes /etc/passwd readable" },
	{ "deny", "Read(//etc/shadow)", X_NOTE, 0,
	  "this deny is not enforced by landfence: the sandbox's default host grant /etc "
	  "leaves /etc/shadow out (landfence hides /etc's secrets), so the kernel refuses it "
	  "anyway" },
	{ "deny", "Read(//etc/ssh/ssh_host_ed25519_key)", X_NOTE, 0, "leaves" },
	{ "deny", "Read(~/.ssh/**)", X_NOTE, 0,
	  "this deny is not enforced by landfence: no default host grant covers "
	  "/home/u/.ssh/**, so the kernel refuses it anyway" },
	{ "deny", "Edit(//etc/hosts)", X_NOTE, 0,
	  "default host grant /etc is read-only: the kernel refuses writes to /etc/hosts anyway" },
	{ "ask", "Read(~/.gitconfig)", X_NOTE, 0,
	  "this ask is not enforced by landfence: the sandbox's default host grant "
	  "/home/u/.gitconfig makes /home/u/.gitconfig readable" },
	{ "deny", "Edit(src/../../x)", X_NOTE, 0, "\"..\"" },
	{ "allow", "Edit(", X_NOTE, 0, "no closing parenthesis" },
	{ "allow", "WebFetch(domain:example.com)", X_NOTE, 0, "WebFetch tool has no landfence" },
	{ "allow", "WebSearch", X_NOTE, 0, "WebSearch tool" },
	{ "deny", "mcp__github__create_issue", X_NOTE, 0, "mcp__github__create_issue tool" },
	{ "allow", "Task(Explore)", X_NOTE, 0, "Task tool" },
	{ "allow", "Bash(npm run test:*)", X_CMD, 0, "npm run test", LF_MATCH_PREFIX },
	{ "deny", "Bash(git push *)", X_CMD, 0, "git push", LF_MATCH_PREFIX },
	{ "ask", "Bash(git * main)", X_CMD, 0, "git * main", LF_MATCH_GLOB },
	{ "allow", "Bash(ls*)", X_CMD, 0, "ls*", LF_MATCH_GLOB },
	{ "allow", "Bash(* --version)", X_CMD, 0, "* --version", LF_MATCH_GLOB },
	{ "allow", "Bash(make test)", X_CMD, 0, "make test", LF_MATCH_EXACT },
	{ "deny", "Bash(curl http://x/:*)", X_CMD, 0, "curl http://x/", LF_MATCH_PREFIX },
	{ "allow", "Bash", X_BASH, 0, NULL, 0, LF_ALLOW },
	{ "allow", "Bash(*)", X_BASH, 0, NULL, 0, LF_ALLOW },
	{ "deny", "Bash", X_CMD, 0, "*", LF_MATCH_GLOB, LF_DENY },
	{ "ask", "Bash", X_CMD, 0, "*", LF_MATCH_GLOB, LF_ASK },
	{ "allow", "Bash()", X_BASH, 0, NULL, 0, LF_ALLOW },
	{ "allow", "Bash(   )", X_NOTE, 0, "command rule is empty" },
};

static enum lf_effect effect_of(const char *list)
{
	enum lf_effect e = LF_ALLOW;
	assert_int_equal(lf_effect_parse(list, &e), 0);
	return e;
}

static bool notes_have(const struct lf_strv *notes, const char *frag)
{
	for (size_t i = 0; i < notes->n; i++)
		if (strstr(notes->v[i], frag))
			return true;
	return false;
}

static void test_import_rules(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(import_cases) / sizeof(import_cases[0]); i++) {
		const struct import_case *c = &import_cases[i];
		char text[512];
		struct lf_policy *p = NULL;
		struct lf_strv notes = { 0 };
		struct lf_diag diag;
		enum lf_effect e = effect_of(c->list);

		/* dontAsk adds no implicit rule, so only the rule shows. */
		snprintf(text, sizeof(text),
			 "{\n  \"permissions\": {\n    \"defaultMode\": \"dontAsk\",\n    \"%s\": "
			 "[\"%s\"]\n  }\n}\n",
			 c->list, c->rule);
		print_message("case %zu: %s %s\n", i, c->list, c->rule);
		assert_int_equal(import_text(text, ROOT, &p, &notes, &diag), 0);
		switch (c->kind) {
		case X_FILE:
			for (int cap = 0; cap < 3; cap++)
				assert_int_equal(
					has_pattern(p, (enum lf_capability)cap, e, c->text),
					(c->caps >> cap) & 1);
			break;
		case X_CMD:
			assert_true(has_cmd(p, c->matcher, c->text, e));
			/* A bare ask or deny also sets the bash rule's effect. */
			if (c->bash != LF_ALLOW)
				assert_int_equal(find_rule(p, LF_CAP_BASH, LF_ALLOW)->effect,
						 c->bash);
			break;
		case X_BASH: {
			const struct lf_rule *r = find_rule(p, LF_CAP_BASH, LF_ALLOW);
			assert_non_null(r);
			assert_int_equal(r->effect, c->bash);
			break;
		}
		case X_NOTE:
			assert_int_equal(p->nrules, 0);
			if (!notes_have(&notes, c->text)) {
				for (size_t k = 0; k < notes.n; k++)
					print_message("note: %s\n", notes.v[k]);
				fail_msg("no note containing %s", c->text);
			}
			/* Each note names the file and where the rule is. */
			assert_non_null(strstr(notes.v[0], "settings.json:4:"));
			break;
		}
		lf_strv_fini(&notes);
		lf_policy_free(p);
	}
}

/* Bash rules alone: the bash rule's effect is the mode's answer. */
static void test_import_bash_effect(void **state)
{
	static const char text[] = "{\"permissions\":{\"allow\":[\"Bash(make)\"]}}";
	struct lf_policy *p = NULL;
	struct lf_strv notes = { 0 };
	struct lf_diag diag;

	(void)state;
	assert_int_equal(import_text(text, ROOT, &p, &notes, &diag), 0);
	const struct lf_rule *r = find_rule(p, LF_CAP_BASH, LF_ALLOW);
	assert_non_null(r);
	assert_int_equal(r->effect, LF_ASK);
	assert_int_equal(r->ncmds, 1);
	lf_policy_free(p);
	lf_strv_fini(&notes);
}

static const struct mode_case {
	const char *mode;
	lf_posture fallback;
	unsigned allow_caps; /* implicit allow "**" per capability bit */
} mode_cases[] = {
	{ NULL, LF_ASK, 1 },
	{ "default", LF_ASK, 1 },
	{ "acceptEdits", LF_ASK, 7 },
	{ "plan", LF_ASK, 1 },
	{ "auto", LF_ASK, 1 },
	{ "dontAsk", LF_DENY, 0 },
	{ "bypassPermissions", LF_ALLOW, 0 },
};

static void test_import_modes(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(mode_cases) / sizeof(mode_cases[0]); i++) {
		const struct mode_case *c = &mode_cases[i];
		char text[256];
		struct lf_policy *p = NULL;
		struct lf_diag diag;

		if (c->mode)
			snprintf(text, sizeof(text), "{\"permissions\":{\"defaultMode\":\"%s\"}}",
				 c->mode);
		else
			snprintf(text, sizeof(text), "{\"model\":\"x\"}");
		assert_int_equal(import_text(text, ROOT, &p, NULL, &diag), 0);
		assert_true(p->has_fallback);
		assert_int_equal(p->fallback, c->fallback);
		for (int cap = 0; cap < 3; cap++)
			assert_int_equal(has_pattern(p, (enum lf_capability)cap, LF_ALLOW, "**"),
					 (c->allow_caps >> cap) & 1);
		assert_null(find_rule(p, LF_CAP_BASH, LF_ALLOW));
		lf_policy_free(p);
	}
}

/* Several files: rules pooled, the last defaultMode wins, "/x" anchored at
 * each file's own project, "~/" at the home directory. */
static void test_import_layers(void **state)
{
	static const char user[] = "{\"permissions\":{\"defaultMode\":\"acceptEdits\","
				   "\"deny\":[\"Read(~/proj2/.env)\", \"Edit(/x/**)\"]}}";
	static const char proj[] = "{\"permissions\":{\"defaultMode\":\"dontAsk\","
				   "\"allow\":[\"Edit(/src/**)\"]}}";
	static const char local[] = "{\"permissions\":{\"ask\":[\"Bash(git commit:*)\"]}}";
	struct lf_claude_file f[] = {
		{ "user.json", user, sizeof(user) - 1, NULL },
		{ "proj.json", proj, sizeof(proj) - 1, "/home/u/proj2" },
		{ "local.json", local, sizeof(local) - 1, "/home/u/proj2" },
	};
	struct lf_claude_opts o = { "/home/u/proj2", HOME };
	struct lf_policy *p = NULL;
	struct lf_strv notes = { 0 };
	struct lf_diag diag;

	(void)state;
	assert_int_equal(lf_claude_import(f, 3, &o, &p, &notes, &diag), 0);
	assert_int_equal(p->fallback, LF_DENY);
	assert_true(has_pattern(p, LF_CAP_READ, LF_DENY, ".env"));
	assert_true(has_pattern(p, LF_CAP_WRITE, LF_DENY, "x/**"));
	assert_true(has_pattern(p, LF_CAP_DELETE, LF_ALLOW, "src/**"));
	assert_false(has_pattern(p, LF_CAP_READ, LF_ALLOW, "**"));
	assert_true(has_cmd(p, LF_MATCH_PREFIX, "git commit", LF_ASK));
	assert_int_equal(find_rule(p, LF_CAP_BASH, LF_ALLOW)->effect, LF_DENY);
	assert_int_equal(notes.n, 0);
	lf_policy_free(p);

	/* "/x" of a settings file from another project lies outside. */
	f[1].project_root = "/srv/other";
	assert_int_equal(lf_claude_import(f, 3, &o, &p, &notes, &diag), 0);
	assert_false(has_pattern(p, LF_CAP_WRITE, LF_ALLOW, "src/**"));
	assert_true(notes_have(&notes, "proj.json:1:"));
	assert_true(notes_have(&notes, "/srv/other/src/** lies outside the project"));
	lf_policy_free(p);
	lf_strv_fini(&notes);
}

static const struct bad_case {
	const char *text;
	const char *message;
} bad_cases[] = {
	{ "", "s.json:1:1: the file is empty, expected a JSON object" },
	{ "[]", "s.json:1:1: the settings file is an array, expected an object" },
	{ "{\n  \"permissions\": []\n}",
	  "s.json:2:18: \"permissions\" is an array, expected an object" },
	{ "{\"permissions\": {\"allow\": \"Bash\"}}",
	  "s.json:1:27: \"permissions.allow\" is a string, expected an array of rule strings" },
	{ "{\"permissions\": {\n  \"deny\": [\"Read(.env)\",\n           42]}}",
	  "s.json:3:12: permissions.deny[1] is an integer, expected a rule string such as "
	  "\"Bash(npm test)\"" },
	{ "{\"permissions\": {\"ask\": [\"Bash(a\\u0000b)\"]}}",
	  "s.json:1:26: permissions.ask[0] contains a NUL byte, expected a rule string" },
	{ "{\"permissions\": {\"defaultMode\": \"yolo\"}}",
	  "s.json:1:33: unknown defaultMode \"yolo\", expected default, acceptEdits, plan, auto, "
	  "dontAsk or bypassPermissions" },
	{ "{\"permissions\": {\"defaultMode\": 1}}",
	  "s.json:1:33: \"permissions.defaultMode\" is an integer, expected the string "
	  "\"default\", \"acceptEdits\", \"plan\", \"auto\", \"dontAsk\" or "
	  "\"bypassPermissions\"" },
	{ "{\"permissions\": {\"allow\": [\"Bash\"],}}",
	  "s.json:1:35: invalid JSON: trailing comma, expected another value after ','" },
	{ "{\"permissions\": {\"allow\": [\"Bash\",]}}",
	  "s.json:1:34: invalid JSON: trailing comma, expected another value after ','" },
	{ "{\n  // mine\n  \"permissions\": {}}",
	  "s.json:2:3: invalid JSON: a comment, expected a key in double quotes (JSON has no "
	  "comments)" },
	{ "{\"permissions\": {}, \"permissions\": {}}",
	  "s.json:1:21: duplicate key \"permissions\", expected each key once in an object" },
};

static void test_import_malformed(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(bad_cases) / sizeof(bad_cases[0]); i++) {
		struct lf_claude_file f = { "s.json", bad_cases[i].text, strlen(bad_cases[i].text),
					    NULL };
		struct lf_claude_opts o = { ROOT, HOME };
		struct lf_policy *p = NULL;
		struct lf_diag diag;
		char msg[1200];

		assert_int_equal(lf_claude_import(&f, 1, &o, &p, NULL, &diag), -EINVAL);
		assert_null(p);
		lf_diag_format(&diag, msg, sizeof(msg));
		assert_string_equal(msg, bad_cases[i].message);
	}
}

/*
 * import(export(P)) decides like P.
 */
static const char *const rt_policies[] = {
	/* The embedded default. */
	NULL,
	/* Read everything but secrets, write and delete the sources, ask for
	 * the build files, a mixed bash rule. */
	"{\"version\":1,\"fallback\":\"ask\",\"rules\":["
	"{\"effect\":\"allow\",\"capability\":\"read\",\"paths\":[\"**\"]},"
	"{\"effect\":\"deny\",\"capability\":\"read\",\"paths\":[\".env\",\"**/"
	"*.pem\",\"secrets\"]},"
	"{\"effect\":\"allow\",\"capability\":\"write\",\"paths\":[\"src/**\",\"tests\"]},"
	"{\"effect\":\"allow\",\"capability\":\"delete\",\"paths\":[\"src/**\",\"tests\"]},"
	"{\"effect\":\"ask\",\"capability\":\"write\",\"paths\":[\"Makefile\",\"src/gen/**\"]},"
	"{\"effect\":\"ask\",\"capability\":\"delete\",\"paths\":[\"Makefile\",\"src/gen/**\"]},"
	"{\"effect\":\"deny\",\"capability\":\"write\",\"paths\":[\".git/**\"]},"
	"{\"effect\":\"deny\",\"capability\":\"delete\",\"paths\":[\".git/**\"]},"
	"{\"effect\":\"allow\",\"capability\":\"bash\",\"commands\":["
	"{\"effect\":\"deny\",\"prefix\":\"git push\"},"
	"{\"effect\":\"ask\",\"prefix\":\"npm publish\"},"
	"{\"effect\":\"deny\",\"glob\":\"curl *\"},"
	"{\"effect\":\"allow\",\"exact\":\"make test\"}]}]}",
	/* Deny by default, a few allows, bash denies what is unmatched. */
	"{\"version\":1,\"fallback\":\"deny\",\"rules\":["
	"{\"effect\":\"allow\",\"capability\":\"read\",\"paths\":[\"src\",\"docs/*.md\"]},"
	"{\"effect\":\"allow\",\"capability\":\"write\",\"paths\":[\"docs/*.md\"]},"
	"{\"effect\":\"allow\",\"capability\":\"delete\",\"paths\":[\"docs/*.md\"]},"
	"{\"effect\":\"deny\",\"capability\":\"bash\",\"commands\":["
	"{\"effect\":\"allow\",\"prefix\":\"git status\"},"
	"{\"effect\":\"allow\",\"exact\":\"make\"}]}]}",
	/* Allow by default with fences. */
	"{\"version\":1,\"fallback\":\"allow\",\"rules\":["
	"{\"effect\":\"deny\",\"capability\":\"read\",\"paths\":[\"**/.env*\"]},"
	"{\"effect\":\"ask\",\"capability\":\"write\",\"paths\":[\"**/*.lock\"]},"
	"{\"effect\":\"ask\",\"capability\":\"delete\",\"paths\":[\"**/*.lock\"]},"
	"{\"effect\":\"deny\",\"capability\":\"bash\",\"commands\":[]}]}",
};

static const char *const rt_paths[] = {
	"",
	"src",
	"src/a.c",
	"src/gen/x.c",
	"src/gen",
	"tests",
	"tests/t.c",
	"Makefile",
	"sub/Makefile",
	".env",
	".env.local",
	"a/.env",
	"a/b.pem",
	"secrets",
	"secrets/k",
	"x/secrets/k",
	".git",
	".git/config",
	"docs/a.md",
	"docs/b/c.md",
	"docs/a.txt",
	"Cargo.lock",
	"a/yarn.lock",
	"README",
	"/etc/passwd",
	"/home/u/.ssh/id",
	"../proj2/a",
};

static const char *const rt_lines[] = {
	"make test",
	"make",
	"make install",
	"git status",
	"git status -s",
	"git push",
	"git push origin main",
	"git pushx",
	"npm publish",
	"npm publish --dry-run",
	"curl http://x",
	"ls -la",
	"rm -rf build",
	"echo hi",
};

static void assert_same_decisions(const struct lf_policy *a, const struct lf_policy *b,
				  const char *what)
{
	const struct lf_policy *la[] = { a }, *lb[] = { b };
	struct lf_effective *ea = NULL, *eb = NULL;

	assert_int_equal(lf_effective_resolve(la, 1, &ea), 0);
	assert_int_equal(lf_effective_resolve(lb, 1, &eb), 0);
	for (size_t i = 0; i < sizeof(rt_paths) / sizeof(rt_paths[0]); i++)
		for (int cap = LF_CAP_READ; cap <= LF_CAP_DELETE; cap++) {
			struct lf_verdict va, vb;
			assert_int_equal(lf_effective_decide_file(ea, ROOT, (enum lf_capability)cap,
								  rt_paths[i], &va),
					 0);
			assert_int_equal(lf_effective_decide_file(eb, ROOT, (enum lf_capability)cap,
								  rt_paths[i], &vb),
					 0);
			if (va.effect != vb.effect)
				fail_msg("%s: %s %s: %s before, %s after the round trip", what,
					 lf_capability_name((enum lf_capability)cap), rt_paths[i],
					 lf_effect_name(va.effect), lf_effect_name(vb.effect));
		}
	for (size_t i = 0; i < sizeof(rt_lines) / sizeof(rt_lines[0]); i++) {
		struct lf_verdict va, vb;
		assert_int_equal(lf_effective_decide_bash(ea, ROOT, rt_lines[i], &va), 0);
		assert_int_equal(lf_effective_decide_bash(eb, ROOT, rt_lines[i], &vb), 0);
		if (va.effect != vb.effect)
			fail_msg("%s: bash %s: %s before, %s after the round trip", what,
				 rt_lines[i], lf_effect_name(va.effect), lf_effect_name(vb.effect));
	}
	lf_effective_free(ea);
	lf_effective_free(eb);
}

static void test_roundtrip(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(rt_policies) / sizeof(rt_policies[0]); i++) {
		struct lf_policy *p = NULL, *q = NULL;
		struct lf_effective *e = NULL;
		struct lf_strv notes = { 0 };
		struct lf_diag diag;
		char *settings = NULL, name[32];

		if (rt_policies[i])
			assert_int_equal(lf_policy_parse(rt_policies[i], strlen(rt_policies[i]),
							 "p.json", LF_LAYER_PROJECT, &p, &diag),
					 0);
		else
			assert_int_equal(lf_policy_default(&p), 0);
		const struct lf_policy *layers[] = { p };
		assert_int_equal(lf_effective_resolve(layers, 1, &e), 0);
		assert_int_equal(lf_claude_export(e, &settings, &notes), 0);
		for (size_t k = 0; k < notes.n; k++)
			print_message("policy %zu export note: %s\n", i, notes.v[k]);
		/* These policies are chosen to be representable. */
		assert_int_equal(notes.n, 0);
		assert_int_equal(import_text(settings, ROOT, &q, &notes, &diag), 0);
		snprintf(name, sizeof(name), "policy %zu", i);
		assert_same_decisions(p, q, name);
		if (i == 1) {
			/* The comparison is not vacuous: the imported policy
			 * still tells these apart. */
			static const struct {
				const char *line;
				enum lf_effect want;
			} spot[] = {
				{ "git push origin main", LF_DENY },
				{ "make test", LF_ALLOW },
				{ "npm publish", LF_ASK },
				{ "curl http://x", LF_DENY },
				{ "ls -la", LF_ALLOW },
			};
			const struct lf_policy *ql[] = { q };
			struct lf_effective *qe = NULL;
			struct lf_verdict v;
			assert_int_equal(lf_effective_resolve(ql, 1, &qe), 0);
			for (size_t k = 0; k < sizeof(spot) / sizeof(spot[0]); k++) {
				assert_int_equal(
					lf_effective_decide_bash(qe, ROOT, spot[k].line, &v), 0);
				assert_int_equal(v.effect, spot[k].want);
			}
			assert_int_equal(
				lf_effective_decide_file(qe, ROOT, LF_CAP_READ, "a/b.pem", &v), 0);
			assert_int_equal(v.effect, LF_DENY);
			assert_int_equal(
				lf_effective_decide_file(qe, ROOT, LF_CAP_WRITE, "src/gen/x.c", &v),
				0);
			assert_int_equal(v.effect, LF_ASK);
			lf_effective_free(qe);
		}
		free(settings);
		lf_strv_fini(&notes);
		lf_effective_free(e);
		lf_policy_free(p);
		lf_policy_free(q);
	}
}

/* The SPEC §4 example: what Claude cannot say is noted, never dropped. */
static void test_export_spec_example(void **state)
{
	struct lf_policy *p = NULL;
	struct lf_effective *e = NULL;
	struct lf_strv notes = { 0 };
	struct lf_diag diag;
	char *out = NULL;
	const char *src = getenv("LANDFENCE_SRCDIR");

	(void)state;
	assert_non_null(src);
	assert_int_equal(chdir(src), 0);
	assert_int_equal(
		lf_policy_load("tests/data/good/spec-example.json", LF_LAYER_PROJECT, &p, &diag),
		0);
	const struct lf_policy *layers[] = { p };
	assert_int_equal(lf_effective_resolve(layers, 1, &e), 0);
	assert_int_equal(lf_claude_export(e, &out, &notes), 0);
	static const char *const want[] = {
		"\"Read(/**)\"",
		"\"Edit(/src/**)\"",
		"\"Edit(/tests/**)\"",
		"\"Edit(/.git/hooks/**)\"",
		"\"Edit(/.git/**)\"",
		"\"Bash(git push *)\"",
		"\"Bash(npm run *)\"",
		"\"Bash(make test)\"",
		"\"Bash\"",
		"\"defaultMode\": \"default\"",
	};
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		if (!strstr(out, want[i]))
			fail_msg("%s missing from\n%s", want[i], out);
	assert_true(out[strlen(out) - 1] == '\n');
	/* The deny on deletions in .git widens to writes; host, profiles and
	 * env have no Claude equivalent. */
	assert_int_equal(notes.n, 2);
	assert_true(notes_have(&notes, "spec-example.json:8:5: deny delete \".git/**\""));
	assert_true(notes_have(&notes, "host grants, profiles and the environment scrub"));
	free(out);
	lf_strv_fini(&notes);
	lf_effective_free(e);
	lf_policy_free(p);
}

/* Each thing Claude Code cannot say is noted; allows that would widen
 * Claude are left out, asks and denies that narrow it are kept. */
static const struct export_case {
	const char *rules; /* the "rules" array and what follows it */
	const char *fallback;
	const char *note;    /* fragment of the one expected note */
	const char *present; /* an entry the output holds, or NULL */
	const char *absent;  /* an entry the output lacks, or NULL */
} export_cases[] = {
	{ "[{\"effect\":\"allow\",\"capability\":\"delete\",\"paths\":[\"tmp\"]}]", "deny",
	  "allow delete \"tmp\": Claude Code has no deletion rule", NULL, "Edit(/tmp)" },
	{ "[{\"effect\":\"ask\",\"capability\":\"delete\",\"paths\":[\"db/**\"]}]", "deny",
	  "ask delete \"db/**\": exported as an Edit ask rule", "\"Edit(/db/**)\"", NULL },
	{ "[{\"effect\":\"allow\",\"capability\":\"bash\",\"commands\":[{\"effect\":"
	  "\"allow\",\"glob\":\"make ?\"}]}]",
	  "allow", "a glob without \"*\" is an exact command in Claude Code; not exported", NULL,
	  "Bash(make ?)" },
	{ "[{\"effect\":\"allow\",\"capability\":\"bash\",\"commands\":[{\"effect\":"
	  "\"deny\",\"glob\":\"rm *[ab]\"}]}]",
	  "allow", "literal in Claude Code; exported as Bash(rm *[ab])", "\"Bash(rm *[ab])\"",
	  NULL },
	{ "[{\"effect\":\"allow\",\"capability\":\"bash\",\"commands\":[{\"effect\":"
	  "\"allow\",\"exact\":\"ls *.c\"}]}]",
	  "allow", "a \"*\" in an exact command is a wildcard", NULL, "Bash(ls *.c)" },
	{ "[{\"effect\":\"ask\",\"capability\":\"bash\",\"commands\":[{\"effect\":"
	  "\"allow\",\"prefix\":\"git log\"}]}]",
	  "deny", "unmatched commands get ask", "\"Bash(git log *)\"", "\"Bash\"" },
	{ "[{\"effect\":\"deny\",\"capability\":\"bash\",\"commands\":[{\"effect\":"
	  "\"deny\",\"prefix\":\"sudo\"}]}]",
	  "allow", NULL, "\"Bash\"", NULL },
	{ "[{\"effect\":\"allow\",\"capability\":\"read\",\"paths\":[\"src/**\"]}]", "ask",
	  "Claude Code's default mode reads project files without asking", "\"Read(/src/**)\"",
	  "Read(/src/**/**)" },
	{ "[], \"profiles\": [\"codex\"]", "allow", "host grants, profiles",
	  "\"defaultMode\": \"bypassPermissions\"", NULL },
};

static void test_export_notes(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(export_cases) / sizeof(export_cases[0]); i++) {
		const struct export_case *c = &export_cases[i];
		char text[1024], *out = NULL;
		struct lf_policy *p = NULL;
		struct lf_effective *e = NULL;
		struct lf_strv notes = { 0 };
		struct lf_diag diag;

		snprintf(text, sizeof(text), "{\"version\":1,\"fallback\":\"%s\",\"rules\":%s}",
			 c->fallback, c->rules);
		if (lf_policy_parse(text, strlen(text), "e.json", LF_LAYER_PROJECT, &p, &diag) < 0)
			fail_msg("case %zu: %s", i, diag.message);
		const struct lf_policy *layers[] = { p };
		assert_int_equal(lf_effective_resolve(layers, 1, &e), 0);
		assert_int_equal(lf_claude_export(e, &out, &notes), 0);
		if (c->note) {
			if (notes.n != 1 || !strstr(notes.v[0], c->note))
				fail_msg("case %zu: notes %zu, first: %s", i, notes.n,
					 notes.n ? notes.v[0] : "-");
		} else {
			assert_int_equal(notes.n, 0);
		}
		if (c->present && !strstr(out, c->present))
			fail_msg("case %zu: %s missing from\n%s", i, c->present, out);
		if (c->absent && strstr(out, c->absent))
			fail_msg("case %zu: %s present in\n%s", i, c->absent, out);
		free(out);
		lf_strv_fini(&notes);
		lf_effective_free(e);
		lf_policy_free(p);
	}
}

/* An import whose Read allow meets a Read deny inside it: the kernel drops
 * the whole allow (Landlock cannot carve a hole), and the import says what
 * that means. A Read deny outside the project adds no such note. */
static void test_import_drop_notes(void **state)
{
	static const struct {
		const char *settings;
		const char *note; /* NULL: no drop note */
	} cases[] = {
		{ "{\"permissions\": {\"deny\": [\"Read(.env)\"]}}",
		  "note: allow read \"**\" is dropped by the fence deny read \"**/.env\" "
		  "(Landlock cannot carve a hole in a granted tree): the project will not be "
		  "readable in the sandbox; list the readable directories instead" },
		{ "{\"permissions\": {\"deny\": [\"Read(./.env)\"]}}",
		  "note: allow read \"**\" is dropped by the fence deny read \".env\"" },
		{ "{\"permissions\": {\"defaultMode\": \"acceptEdits\", \"ask\": "
		  "[\"Edit(/src/gen/**)\"]}}",
		  "note: allow write \"**\" is dropped by the fence ask write \"src/gen/**\" "
		  "(Landlock cannot carve a hole in a granted tree): the project will not be "
		  "writable" },
		{ "{\"permissions\": {\"defaultMode\": \"dontAsk\", \"allow\": "
		  "[\"Read(/src/**)\"], \"deny\": [\"Read(/src/secret.txt)\"]}}",
		  "src will not be readable in the sandbox" },
		{ "{\"permissions\": {\"deny\": [\"Read(~/.ssh/**)\"]}}", NULL },
		{ "{\"permissions\": {\"allow\": [\"Edit(/src/**)\"]}}", NULL },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct lf_policy *p = NULL;
		struct lf_strv notes = { 0 };
		struct lf_diag diag;
		size_t drops = 0;

		assert_int_equal(import_text(cases[i].settings, ROOT, &p, &notes, &diag), 0);
		for (size_t k = 0; k < notes.n; k++)
			if (strncmp(notes.v[k], "note: allow ", 12) == 0)
				drops++;
		if (cases[i].note && (drops != 1 || !notes_have(&notes, cases[i].note))) {
			for (size_t k = 0; k < notes.n; k++)
				print_message("note: %s\n", notes.v[k]);
			fail_msg("case %zu: no single note containing %s", i, cases[i].note);
		}
		if (!cases[i].note)
			assert_int_equal(drops, 0);
		lf_strv_fini(&notes);
		lf_policy_free(p);
	}
}

/* export against the plan: an allow the kernel drops is exported as an ask
 * with a note naming the allow and the fence; the kept allows stay allows.
 * The round trip through the plan keeps every deny and ask, and gives
 * "allow" only where the kernel grants. */
static void test_export_plan(void **state)
{
	static const char policy[] =
		"{\"version\":1,\"fallback\":\"deny\",\"rules\":[\n"
		"{\"effect\":\"allow\",\"capability\":\"read\",\"paths\":[\"**\"]},\n"
		"{\"effect\":\"deny\",\"capability\":\"read\",\"paths\":[\".env\"]},\n"
		"{\"effect\":\"allow\",\"capability\":\"write\",\"paths\":[\"src/**\",\"docs\"]},\n"
		"{\"effect\":\"deny\",\"capability\":\"write\",\"paths\":[\"src/gen/**\"]}]}";
	struct lf_policy *p = NULL, *q = NULL;
	struct lf_effective *e = NULL, *qe = NULL;
	struct lf_plan *plan = NULL;
	struct lf_strv notes = { 0 };
	struct lf_diag diag;
	char *out = NULL, *plain = NULL;

	(void)state;
	assert_int_equal(
		lf_policy_parse(policy, strlen(policy), "p.json", LF_LAYER_PROJECT, &p, &diag), 0);
	const struct lf_policy *layers[] = { p };
	assert_int_equal(lf_effective_resolve(layers, 1, &e), 0);
	struct lf_context ctx = { ROOT, ROOT };
	assert_int_equal(lf_plan_compile(e, &ctx, &plan), 0);
	assert_int_equal(lf_plan_dropped_count(plan), 2);

	/* Without the plan (the old export) the read allow stays an allow. */
	assert_int_equal(lf_claude_export(e, &plain, NULL), 0);
	assert_non_null(strstr(plain, "\"allow\": [\n      \"Read(/**)\""));

	assert_int_equal(lf_claude_export_plan(e, plan, &out, &notes), 0);
	for (size_t k = 0; k < notes.n; k++)
		print_message("note: %s\n", notes.v[k]);
	assert_int_equal(notes.n, 2);
	assert_true(notes_have(&notes, "p.json:2:1: allow read \"**\": the kernel drops this "
				       "allow, fenced by deny read \".env\" at p.json:3:1"));
	assert_true(notes_have(&notes, "p.json:4:1: allow write \"src/**\": the kernel drops "
				       "this allow, fenced by deny write \"src/gen/**\" at "
				       "p.json:5:1"));
	assert_true(notes_have(&notes, "exported under \"ask\", not \"allow\""));
	json_error_t jerr;
	json_t *root = json_loads(out, 0, &jerr), *perm, *v;
	size_t i;
	assert_non_null(root);
	perm = json_object_get(root, "permissions");
	static const struct {
		const char *list, *rule;
		bool present;
	} want[] = {
		{ "allow", "Read(/**)", false },     { "ask", "Read(/**)", true },
		{ "allow", "Edit(/src/**)", false }, { "ask", "Edit(/src/**)", true },
		{ "allow", "Edit(/docs)", true },    { "allow", "Edit(/docs/**)", true },
		{ "deny", "Read(/.env)", true },     { "deny", "Edit(/src/gen/**)", true },
	};
	for (size_t k = 0; k < sizeof(want) / sizeof(want[0]); k++) {
		bool found = false;
		json_array_foreach(json_object_get(perm, want[k].list), i, v)
		{
			if (strcmp(json_string_value(v), want[k].rule) == 0)
				found = true;
		}
		if (found != want[k].present)
			fail_msg("%s %s: %s in\n%s", want[k].list, want[k].rule,
				 found ? "present" : "absent", out);
	}
	json_decref(root);

	/* The round trip: denies and asks hold; an allow only where the
	 * kernel grants it (docs), never for what it drops (README, src). */
	assert_int_equal(import_text(out, ROOT, &q, NULL, &diag), 0);
	const struct lf_policy *ql[] = { q };
	assert_int_equal(lf_effective_resolve(ql, 1, &qe), 0);
	static const struct {
		enum lf_capability cap;
		const char *path;
		enum lf_effect want;
	} spot[] = {
		{ LF_CAP_READ, ".env", LF_DENY },	 { LF_CAP_READ, "README", LF_ASK },
		{ LF_CAP_WRITE, "src/a.c", LF_ASK },	 { LF_CAP_WRITE, "src/gen/x.c", LF_DENY },
		{ LF_CAP_WRITE, "docs/a.md", LF_ALLOW },
	};
	for (size_t k = 0; k < sizeof(spot) / sizeof(spot[0]); k++) {
		struct lf_verdict vq;
		assert_int_equal(lf_effective_decide_file(qe, ROOT, spot[k].cap, spot[k].path, &vq),
				 0);
		if (vq.effect != spot[k].want)
			fail_msg("%s %s: %s after the round trip, wanted %s",
				 lf_capability_name(spot[k].cap), spot[k].path,
				 lf_effect_name(vq.effect), lf_effect_name(spot[k].want));
	}
	free(out);
	free(plain);
	lf_strv_fini(&notes);
	lf_effective_free(qe);
	lf_effective_free(e);
	lf_plan_free(plan);
	lf_policy_free(q);
	lf_policy_free(p);
}

/*
 * The subcommands as programs.
 */
static char tmpdir[64];

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "we");
	assert_non_null(f);
	assert_int_equal(fputs(text, f) >= 0, 1);
	assert_int_equal(fclose(f), 0);
}

static int run(const char *cmd)
{
	int st = system(cmd);
	assert_true(WIFEXITED(st));
	return WEXITSTATUS(st);
}

/* A rule holding control characters is quoted in the notes: a newline
 * cannot forge a note line, an escape cannot reach the terminal (fuzz F2). */
static void test_import_notes_quote_control_bytes(void **state)
{
	static const char *const texts[] = {
		"{\"permissions\":{\"ask\":[\"\\n\"]}}",
		"{\"permissions\":{\"deny\":[\"Read(a\\u001b[2Jb\"]}}",
	};
	(void)state;

	for (size_t t = 0; t < sizeof(texts) / sizeof(texts[0]); t++) {
		struct lf_policy *p = NULL;
		struct lf_strv notes = { 0 };
		struct lf_diag diag = { 0 };

		assert_int_equal(import_text(texts[t], ROOT, &p, &notes, &diag), 0);
		assert_true(notes.n > 0);
		for (size_t i = 0; i < notes.n; i++)
			for (const char *c = notes.v[i]; *c; c++)
				assert_false((unsigned char)*c < 0x20 || *c == 0x7f);
		lf_strv_fini(&notes);
		lf_policy_free(p);
	}
}

static void test_cli(void **state)
{
	const char *bin = getenv("LANDFENCE_BIN");
	char cmd[2048], path[256], *text;
	size_t len;
	struct lf_policy *p = NULL;
	struct lf_diag diag;

	(void)state;
	assert_non_null(bin);
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/lf-claude-XXXXXX");
	assert_non_null(mkdtemp(tmpdir));
	snprintf(path, sizeof(path), "%s/.claude", tmpdir);
	assert_int_equal(mkdir(path, 0700), 0);
	snprintf(path, sizeof(path), "%s/.claude/settings.json", tmpdir);
	write_file(path,
		   "{\n  \"permissions\": {\n    \"allow\": [\"Edit(/src/**)\", "
		   "\"Bash(make:*)\"],\n    \"deny\": [\"Read(./.env)\", \"WebFetch\"]\n  }\n}\n");

	/* import: the policy on stdout loads; the WebFetch rule is noted. */
	snprintf(cmd, sizeof(cmd),
		 "cd %s && '%s' import claude .claude/settings.json >out.json 2>err.txt", tmpdir,
		 bin);
	assert_int_equal(run(cmd), 0);
	snprintf(path, sizeof(path), "%s/out.json", tmpdir);
	assert_int_equal(lf_policy_load(path, LF_LAYER_PROJECT, &p, &diag), 0);
	assert_true(has_pattern(p, LF_CAP_WRITE, LF_ALLOW, "src/**"));
	assert_true(has_pattern(p, LF_CAP_READ, LF_DENY, ".env"));
	assert_true(has_cmd(p, LF_MATCH_PREFIX, "make", LF_ALLOW));
	lf_policy_free(p);
	snprintf(path, sizeof(path), "%s/err.txt", tmpdir);
	assert_int_equal(lf_file_read(path, 1 << 20, &text, &len), 0);
	assert_non_null(
		strstr(text, ".claude/settings.json:4:30: \"WebFetch\": the WebFetch tool"));
	free(text);

	/* A malformed settings file: exit 2 and FILE:LINE:COLUMN. */
	snprintf(path, sizeof(path), "%s/bad.json", tmpdir);
	write_file(path, "{\"permissions\": {\"allow\": [1]}}");
	snprintf(cmd, sizeof(cmd), "cd %s && '%s' import claude bad.json >out2.json 2>err2.txt",
		 tmpdir, bin);
	assert_int_equal(run(cmd), 2);
	snprintf(path, sizeof(path), "%s/err2.txt", tmpdir);
	assert_int_equal(lf_file_read(path, 1 << 20, &text, &len), 0);
	assert_string_equal(text, "bad.json:1:28: permissions.allow[0] is an integer, expected a "
				  "rule string such as \"Bash(npm test)\"\n");
	free(text);
	snprintf(cmd, sizeof(cmd), "cd %s && '%s' import claude missing.json 2>/dev/null", tmpdir,
		 bin);
	assert_int_equal(run(cmd), 2);
	snprintf(cmd, sizeof(cmd), "'%s' import 2>/dev/null", bin);
	assert_int_equal(run(cmd), 2);

	/* export: the imported policy back to settings. */
	snprintf(cmd, sizeof(cmd),
		 "cd %s && '%s' export claude -C . -p out.json >settings.json 2>err3.txt", tmpdir,
		 bin);
	assert_int_equal(run(cmd), 0);
	snprintf(path, sizeof(path), "%s/settings.json", tmpdir);
	assert_int_equal(lf_file_read(path, 1 << 20, &text, &len), 0);
	assert_non_null(strstr(text, "\"Edit(/src/**)\""));
	assert_non_null(strstr(text, "\"Read(/.env)\""));
	assert_non_null(strstr(text, "\"Bash(make *)\""));
	free(text);
	snprintf(cmd, sizeof(cmd), "cd %s && '%s' export claude -p bad.json >/dev/null 2>&1",
		 tmpdir, bin);
	assert_int_equal(run(cmd), 2);

	/* import says the imported "Read" allow is dropped by the .env
	 * deny; export, against the plan, asks for it instead of allowing. */
	snprintf(path, sizeof(path), "%s/err.txt", tmpdir);
	assert_int_equal(lf_file_read(path, 1 << 20, &text, &len), 0);
	assert_non_null(strstr(text, "note: allow read \"**\" is dropped by the fence deny "
				     "read \".env\""));
	free(text);
	snprintf(path, sizeof(path), "%s/settings.json", tmpdir);
	assert_int_equal(lf_file_read(path, 1 << 20, &text, &len), 0);
	assert_non_null(strstr(text, "\"ask\": [\n      \"Read(/**)\""));
	free(text);
	snprintf(path, sizeof(path), "%s/err3.txt", tmpdir);
	assert_int_equal(lf_file_read(path, 1 << 20, &text, &len), 0);
	assert_non_null(strstr(text, "allow read \"**\": the kernel drops this allow, fenced by "
				     "deny read \".env\""));
	free(text);

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	assert_int_equal(run(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_import_rules),
		cmocka_unit_test(test_import_bash_effect),
		cmocka_unit_test(test_import_modes),
		cmocka_unit_test(test_import_layers),
		cmocka_unit_test(test_import_malformed),
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_export_spec_example),
		cmocka_unit_test(test_export_notes),
		cmocka_unit_test(test_import_drop_notes),
		cmocka_unit_test(test_export_plan),
		cmocka_unit_test(test_import_notes_quote_control_bytes),
		cmocka_unit_test(test_cli),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
