/* SPDX-License-Identifier: MIT */
/*
 * Policy files: the malformed corpus (tests/data/bad, each with its exact
 * FILE:LINE:COLUMN: message), load → save → load identity on the good
 * corpus (tests/data/good), rule and pattern sources, the embedded default.
 */
#include <errno.h>
#include <glob.h>
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

#include "core/model.h"
#include "policy/jpos.h"
#include "policy/policy.h"

static void chdir_srcdir(void)
{
	const char *src = getenv("LANDFENCE_SRCDIR");
	assert_non_null(src);
	assert_int_equal(chdir(src), 0);
}

static char *slurp(const char *path)
{
	char *text;
	size_t len;
	if (lf_file_read(path, 1 << 20, &text, &len) < 0)
		return NULL;
	return text;
}

/* Every malformed file fails with exactly the message of its sidecar.
 * LANDFENCE_REGEN=1 rewrites the sidecars (review the diff!). */
static void test_bad_corpus(void **state)
{
	glob_t g;
	size_t failures = 0;
	bool regen = getenv("LANDFENCE_REGEN") && strcmp(getenv("LANDFENCE_REGEN"), "1") == 0;

	(void)state;
	chdir_srcdir();
	assert_int_equal(glob("tests/data/bad/*.json", 0, NULL, &g), 0);
	assert_true(g.gl_pathc >= 30);
	for (size_t i = 0; i < g.gl_pathc; i++) {
		const char *path = g.gl_pathv[i];
		struct lf_policy *p = NULL;
		struct lf_diag diag;
		char got[1200], expect_path[1024];
		int r = lf_policy_load(path, LF_LAYER_PROJECT, &p, &diag);

		if (r != -EINVAL) {
			fprintf(stderr, "%s: loaded (r=%d), expected an error\n", path, r);
			lf_policy_free(p);
			failures++;
			continue;
		}
		lf_diag_format(&diag, got, sizeof(got));
		snprintf(expect_path, sizeof(expect_path), "%.*s.expect",
			 (int)(strlen(path) - strlen(".json")), path);
		if (regen) {
			FILE *f = fopen(expect_path, "we");
			assert_non_null(f);
			fprintf(f, "%s\n", got);
			assert_int_equal(fclose(f), 0);
			continue;
		}
		char *want = slurp(expect_path);
		if (!want) {
			fprintf(stderr, "%s: no sidecar %s\n", path, expect_path);
			failures++;
			continue;
		}
		want[strcspn(want, "\n")] = '\0';
		if (strcmp(got, want) != 0) {
			fprintf(stderr, "%s:\n  got:    %s\n  wanted: %s\n", path, got, want);
			failures++;
		}
		/* The position is always a real one. */
		if (diag.line == 0 || diag.column == 0) {
			fprintf(stderr, "%s: no position\n", path);
			failures++;
		}
		free(want);
	}
	printf("bad corpus: %zu files\n", g.gl_pathc);
	globfree(&g);
	assert_int_equal(failures, 0);
}

/* Two policies are the same model: rules, patterns, commands, posture,
 * host, profiles and environment. */
static void assert_strv_equal(const struct lf_strv *a, const struct lf_strv *b)
{
	assert_int_equal(a->n, b->n);
	for (size_t i = 0; i < a->n; i++)
		assert_string_equal(a->v[i], b->v[i]);
}

static void assert_policy_equal(const struct lf_policy *a, const struct lf_policy *b)
{
	assert_int_equal(a->has_fallback, b->has_fallback);
	if (a->has_fallback)
		assert_int_equal(a->fallback, b->fallback);
	assert_int_equal(a->nrules, b->nrules);
	for (size_t i = 0; i < a->nrules; i++) {
		const struct lf_rule *x = &a->rules[i], *y = &b->rules[i];
		assert_int_equal(x->cap, y->cap);
		assert_int_equal(x->effect, y->effect);
		assert_int_equal(x->nglobs, y->nglobs);
		for (size_t j = 0; j < x->nglobs; j++) {
			assert_string_equal(x->globs[j].pattern, y->globs[j].pattern);
			assert_int_equal(x->globs[j].prefix_len, y->globs[j].prefix_len);
		}
		assert_int_equal(x->ncmds, y->ncmds);
		for (size_t j = 0; j < x->ncmds; j++) {
			assert_int_equal(x->cmds[j].matcher, y->cmds[j].matcher);
			assert_int_equal(x->cmds[j].effect, y->cmds[j].effect);
			assert_string_equal(x->cmds[j].text, y->cmds[j].text);
		}
	}
	assert_strv_equal(&a->host_read, &b->host_read);
	assert_strv_equal(&a->host_write, &b->host_write);
	assert_strv_equal(&a->profiles, &b->profiles);
	assert_strv_equal(&a->env_unset, &b->env_unset);
	assert_strv_equal(&a->env_keep, &b->env_keep);
	assert_int_equal(a->extends_default, b->extends_default);
	assert_int_equal(a->has_discover, b->has_discover);
	assert_int_equal(a->discover, b->discover);
	assert_strv_equal(&a->toolchains_except, &b->toolchains_except);
	assert_int_equal(a->has_network, b->has_network);
	assert_int_equal(a->net_connect.n, b->net_connect.n);
	for (size_t i = 0; i < a->net_connect.n; i++)
		assert_int_equal(a->net_connect.v[i], b->net_connect.v[i]);
	assert_int_equal(a->net_bind.n, b->net_bind.n);
	for (size_t i = 0; i < a->net_bind.n; i++)
		assert_int_equal(a->net_bind.v[i], b->net_bind.v[i]);
}

/* Requests whose decisions must survive a round trip. */
static const char *const probe_paths[] = {
	"",
	"src",
	"src/a.c",
	"src/lib/x.h",
	"tests/t.c",
	".git/hooks/pre-commit",
	".git/config",
	".env",
	".env.local",
	"a/b/c.pem",
	"secrets/k",
	"keys/ab.key",
	"keys/a.key",
	"config/p.json",
	"config/q.json",
	"Makefile",
	"sub/Makefile",
	"x.toml",
	"build/o/a.o",
	"tmp",
	"tmp/x",
	"docs/index.md",
	"données/f",
	"日本語/a.txt",
	"a b/c\"d",
	"/etc/passwd",
	"../outside",
};

static const char *const probe_lines[] = {
	"make",
	"make test",
	"git status",
	"git status -s",
	"git commit -m x",
	"git push origin",
	"git pushx",
	"npm run build",
	"curl x|sh",
	"rm -rf /",
	"sudo ls",
	"cargo test --all",
	"ls",
	"echo \"é\" > /dev/null",
};

static void assert_decide_equal(const struct lf_policy *a, const struct lf_policy *b)
{
	const struct lf_policy *la[] = { a }, *lb[] = { b };
	struct lf_effective *ea = NULL, *eb = NULL;

	assert_int_equal(lf_effective_resolve(la, 1, &ea), 0);
	assert_int_equal(lf_effective_resolve(lb, 1, &eb), 0);
	for (size_t i = 0; i < sizeof(probe_paths) / sizeof(probe_paths[0]); i++)
		for (int cap = LF_CAP_READ; cap <= LF_CAP_DELETE; cap++) {
			struct lf_verdict va, vb;
			assert_int_equal(lf_effective_decide_file(ea, "/work/proj",
								  (enum lf_capability)cap,
								  probe_paths[i], &va),
					 0);
			assert_int_equal(lf_effective_decide_file(eb, "/work/proj",
								  (enum lf_capability)cap,
								  probe_paths[i], &vb),
					 0);
			assert_int_equal(va.effect, vb.effect);
			assert_int_equal(va.from_fallback, vb.from_fallback);
		}
	for (size_t i = 0; i < sizeof(probe_lines) / sizeof(probe_lines[0]); i++) {
		struct lf_verdict va, vb;
		int ra = lf_effective_decide_bash(ea, "/work/proj", probe_lines[i], &va);
		int rb = lf_effective_decide_bash(eb, "/work/proj", probe_lines[i], &vb);
		assert_int_equal(ra, rb);
		if (ra == 0)
			assert_int_equal(va.effect, vb.effect);
	}
	lf_effective_free(ea);
	lf_effective_free(eb);
}

static void test_good_roundtrip(void **state)
{
	glob_t g;

	(void)state;
	chdir_srcdir();
	assert_int_equal(glob("tests/data/good/*.json", 0, NULL, &g), 0);
	assert_true(g.gl_pathc >= 5);
	for (size_t i = 0; i < g.gl_pathc; i++) {
		struct lf_policy *p1 = NULL, *p2 = NULL;
		struct lf_diag diag;
		char *s1 = NULL, *s2 = NULL;
		int r = lf_policy_load(g.gl_pathv[i], LF_LAYER_PROJECT, &p1, &diag);

		if (r < 0) {
			char msg[1200];
			lf_diag_format(&diag, msg, sizeof(msg));
			fail_msg("%s", msg);
		}
		assert_int_equal(lf_policy_save(p1, &s1), 0);
		assert_int_equal(
			lf_policy_parse(s1, strlen(s1), "saved.json", LF_LAYER_PROJECT, &p2, &diag),
			0);
		assert_int_equal(lf_policy_save(p2, &s2), 0);
		assert_string_equal(s1, s2);
		assert_policy_equal(p1, p2);
		assert_decide_equal(p1, p2);
		free(s1);
		free(s2);
		lf_policy_free(p1);
		lf_policy_free(p2);
	}
	globfree(&g);
}

/* Each rule remembers where its object starts, each pattern where it was
 * written, each command rule where its object starts. */
static void test_sources(void **state)
{
	struct lf_policy *p = NULL;
	struct lf_diag diag;

	(void)state;
	chdir_srcdir();
	assert_int_equal(
		lf_policy_load("tests/data/good/spec-example.json", LF_LAYER_LOCAL, &p, &diag), 0);
	assert_int_equal(p->nrules, 5);
	assert_string_equal(p->rules[0].source.file, "tests/data/good/spec-example.json");
	for (size_t i = 0; i < 5; i++) {
		assert_int_equal(p->rules[i].source.line, 5 + i);
		assert_int_equal(p->rules[i].source.column, 5);
		assert_int_equal(p->rules[i].layer, LF_LAYER_LOCAL);
	}
	assert_int_equal(p->rules[1].nglobs, 2);
	assert_int_equal(p->rules[1].globs[0].line, 6);
	assert_int_equal(p->rules[1].globs[0].column, 60);
	assert_int_equal(p->rules[1].globs[1].column, 70);
	assert_int_equal(p->rules[4].ncmds, 3);
	assert_int_equal(p->rules[4].cmds[0].source.line, 10);
	assert_int_equal(p->rules[4].cmds[0].source.column, 9);
	assert_int_equal(p->rules[4].cmds[2].source.line, 12);
	assert_int_equal(p->rules[4].cmds[2].matcher, LF_MATCH_EXACT);
	assert_int_equal(p->rules[4].cmds[1].matcher, LF_MATCH_GLOB);
	assert_int_equal(p->rules[4].cmds[0].matcher, LF_MATCH_PREFIX);
	assert_true(p->has_fallback);
	assert_int_equal(p->fallback, LF_ASK);
	assert_int_equal(p->host_read.n, 1);
	assert_string_equal(p->host_write.v[0], "~/.cache/pip");
	assert_string_equal(p->profiles.v[0], "claude");
	assert_string_equal(p->env_unset.v[0], "SSH_AUTH_SOCK");
	lf_policy_free(p);
}

/* Patterns are stored normalised (SPEC §1). */
static void test_normalised(void **state)
{
	static const char text[] = "{\"version\":1,\"rules\":[{\"effect\":\"allow\","
				   "\"capability\":\"write\",\"paths\":[\"./src//lib/\"]}]}";
	struct lf_policy *p = NULL;
	struct lf_diag diag;

	(void)state;
	assert_int_equal(lf_policy_parse(text, strlen(text), "t", LF_LAYER_USER, &p, &diag), 0);
	assert_string_equal(p->rules[0].globs[0].pattern, "src/lib");
	assert_false(p->has_fallback);
	assert_int_equal(p->rules[0].globs[0].line, 1);
	lf_policy_free(p);
}

static void test_default(void **state)
{
	struct lf_policy *p = NULL;

	(void)state;
	assert_int_equal(lf_policy_default(&p), 0);
	assert_string_equal(p->file, "<embedded>");
	assert_true(p->has_fallback);
	assert_int_equal(p->fallback, LF_DENY);
	assert_int_equal(p->nrules, 4);
	for (int cap = LF_CAP_READ; cap <= LF_CAP_BASH; cap++) {
		const struct lf_rule *r = &p->rules[cap];
		assert_int_equal(r->cap, cap);
		assert_int_equal(r->effect, LF_ALLOW);
		assert_string_equal(r->source.file, "<embedded>");
		assert_int_equal(r->source.line, 5 + cap);
		assert_int_equal(r->source.column, 5);
		if (cap != LF_CAP_BASH) {
			assert_int_equal(r->nglobs, 1);
			assert_string_equal(r->globs[0].pattern, "**");
		} else {
			assert_int_equal(r->ncmds, 0);
		}
	}
	/* Decides as SPEC §4 says: the project is open, the rest denied. */
	const struct lf_policy *layers[] = { p };
	struct lf_effective *e = NULL;
	struct lf_verdict v;
	assert_int_equal(lf_effective_resolve(layers, 1, &e), 0);
	assert_int_equal(lf_effective_decide_file(e, "/work/proj", LF_CAP_WRITE, "src/a.c", &v), 0);
	assert_int_equal(v.effect, LF_ALLOW);
	assert_int_equal(
		lf_effective_decide_file(e, "/work/proj", LF_CAP_READ, "/home/u/.ssh/id", &v), 0);
	assert_int_equal(v.effect, LF_DENY);
	assert_true(v.from_fallback);
	lf_effective_free(e);
	lf_policy_free(p);
}

/* The exact canonical text of save. */
static void test_save_canonical(void **state)
{
	static const char text[] =
		"{\"env\":{\"keep\":[\"A\"]},\"rules\":[{\"capability\":\"bash\",\"effect\":"
		"\"ask\","
		"\"commands\":[{\"glob\":\"npm *\",\"effect\":\"deny\"}]},{\"paths\":[\"a/**\"],"
		"\"capability\":\"read\",\"effect\":\"allow\"}],\"version\":1,\"fallback\":"
		"\"ask\"}";
	static const char want[] = "{\n"
				   "  \"version\": 1,\n"
				   "  \"fallback\": \"ask\",\n"
				   "  \"rules\": [\n"
				   "    {\n"
				   "      \"effect\": \"ask\",\n"
				   "      \"capability\": \"bash\",\n"
				   "      \"commands\": [\n"
				   "        {\n"
				   "          \"effect\": \"deny\",\n"
				   "          \"glob\": \"npm *\"\n"
				   "        }\n"
				   "      ]\n"
				   "    },\n"
				   "    {\n"
				   "      \"effect\": \"allow\",\n"
				   "      \"capability\": \"read\",\n"
				   "      \"paths\": [\n"
				   "        \"a/**\"\n"
				   "      ]\n"
				   "    }\n"
				   "  ],\n"
				   "  \"env\": {\n"
				   "    \"keep\": [\n"
				   "      \"A\"\n"
				   "    ]\n"
				   "  }\n"
				   "}\n";
	struct lf_policy *p = NULL;
	struct lf_diag diag;
	char *out = NULL;

	(void)state;
	assert_int_equal(lf_policy_parse(text, strlen(text), "t", LF_LAYER_USER, &p, &diag), 0);
	assert_int_equal(lf_policy_save(p, &out), 0);
	assert_string_equal(out, want);
	free(out);
	lf_policy_free(p);
}

/* Inputs that are not files of the corpus: raw NUL bytes, a missing file,
 * a directory, bad arguments. */
static void test_odd_inputs(void **state)
{
	static const char nul[] = "{\"version\":1,\0\"fallback\":\"deny\"}";
	struct lf_policy *p = NULL;
	struct lf_diag diag;

	(void)state;
	assert_int_equal(
		lf_policy_parse(nul, sizeof(nul) - 1, "nul.json", LF_LAYER_USER, &p, &diag),
		-EINVAL);
	assert_null(p);
	assert_string_equal(diag.file, "nul.json");
	assert_int_equal(diag.line, 1);
	assert_non_null(strstr(diag.message, "invalid JSON"));

	assert_int_equal(lf_policy_load("/nonexistent/policy.json", LF_LAYER_USER, &p, &diag),
			 -ENOENT);
	assert_null(p);
	assert_string_equal(diag.file, "/nonexistent/policy.json");
	assert_int_equal(diag.line, 0);
	assert_int_equal(lf_policy_load("/", LF_LAYER_USER, &p, &diag), -EISDIR);
	assert_int_equal(lf_policy_parse(NULL, 0, "x", LF_LAYER_USER, &p, &diag), -EINVAL);
	assert_int_equal(lf_policy_parse("{}", 2, "x", LF_LAYER_USER, NULL, &diag), -EINVAL);
	/* A NULL diag is allowed. */
	assert_int_equal(lf_policy_parse("[]", 2, "x", LF_LAYER_USER, &p, NULL), -EINVAL);
	assert_null(p);
}

/* Writes a valid policy padded with blanks to exactly size bytes. */
static void write_padded(const char *path, size_t size)
{
	static const char head[] = "{\"version\": 1}";
	FILE *f = fopen(path, "we");

	assert_non_null(f);
	assert_int_equal(fputs(head, f) >= 0, 1);
	for (size_t i = sizeof(head) - 1; i < size; i++)
		assert_int_equal(fputc(i + 1 == size ? '\n' : ' ', f), i + 1 == size ? '\n' : ' ');
	assert_int_equal(fclose(f), 0);
}

static int run_status(const char *cmd)
{
	int st = system(cmd);
	assert_true(WIFEXITED(st));
	return WEXITSTATUS(st);
}

/* One size limit for every policy file, said in the messages: the loader
 * and `landfence trust` refuse 4 MiB + 1 byte and accept 4 MiB. */
static void test_size_limit(void **state)
{
	const char *bin = getenv("LANDFENCE_BIN");
	char dir[] = "/tmp/lf-size-XXXXXX", path[256], cmd[1024];
	struct lf_policy *p = NULL;
	struct lf_diag diag;
	char *text;
	size_t len;

	(void)state;
	assert_non_null(bin);
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/.landfence", dir);
	assert_int_equal(mkdir(path, 0700), 0);
	snprintf(path, sizeof(path), "%s/.landfence/policy.json", dir);

	write_padded(path, LF_POLICY_MAX_SIZE + 1);
	assert_int_equal(lf_policy_load(path, LF_LAYER_PROJECT, &p, &diag), -EFBIG);
	assert_string_equal(diag.message, "cannot read the policy: larger than 4 MiB, expected a "
					  "policy of at most 4 MiB");
	snprintf(cmd, sizeof(cmd), "XDG_CONFIG_HOME='%s/xdg' '%s' trust -C '%s' 2>'%s/err.txt'",
		 dir, bin, dir, dir);
	assert_int_equal(run_status(cmd), 2);
	snprintf(cmd, sizeof(cmd), "%s/err.txt", dir);
	assert_int_equal(lf_file_read(cmd, 1 << 20, &text, &len), 0);
	if (!strstr(text, "larger than 4 MiB, expected a policy of at most 4 MiB; not trusted"))
		fail_msg("landfence trust said: %s", text);
	free(text);

	write_padded(path, LF_POLICY_MAX_SIZE);
	assert_int_equal(lf_policy_load(path, LF_LAYER_PROJECT, &p, &diag), 0);
	lf_policy_free(p);
	snprintf(cmd, sizeof(cmd), "XDG_CONFIG_HOME='%s/xdg' '%s' trust -C '%s' >/dev/null", dir,
		 bin, dir);
	assert_int_equal(run_status(cmd), 0);

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(run_status(cmd), 0);
}

/* The offset of a 1-based line and character column in text. */
static size_t offset_of(const char *text, size_t len, unsigned line, unsigned column)
{
	size_t i = 0;
	unsigned l = 1, c = 1;

	while (i < len && (l < line || (l == line && c < column))) {
		unsigned char ch = (unsigned char)text[i++];
		if (ch == '\n') {
			l++;
			c = 1;
		} else if ((ch & 0xc0) != 0x80) {
			c++;
		}
		/* Skip the continuation bytes of the character just counted. */
		while (i < len && ((unsigned char)text[i] & 0xc0) == 0x80)
			i++;
	}
	return i;
}

static void check_positions(const char *text, size_t len, const json_t *v,
			    const struct lf_jpos *pos)
{
	size_t off = offset_of(text, len, pos->line, pos->column);
	const char *key;
	json_t *m;
	size_t i = 0;

	assert_true(off < len);
	switch (json_typeof(v)) {
	case JSON_OBJECT:
		assert_int_equal(text[off], '{');
		assert_int_equal(pos->n, json_object_size(v));
		json_object_foreach((json_t *)v, key, m)
		{
			const struct lf_jpos_kid *k = lf_jpos_kid(pos, i++);
			size_t ko = offset_of(text, len, k->key_line, k->key_column);
			assert_int_equal(text[ko], '"');
			/* The kid belongs to this very key: jansson iterates in
			 * insertion order, which the scanner relies on. */
			if (!memchr(text + ko + 1, '\\', strlen(key)))
				assert_memory_equal(text + ko + 1, key, strlen(key));
			check_positions(text, len, m, &k->value);
		}
		break;
	case JSON_ARRAY:
		assert_int_equal(text[off], '[');
		assert_int_equal(pos->n, json_array_size(v));
		json_array_foreach((json_t *)v, i, m)
		{
			check_positions(text, len, m, &lf_jpos_kid(pos, i)->value);
		}
		break;
	case JSON_STRING:
		assert_int_equal(text[off], '"');
		break;
	case JSON_TRUE:
		assert_int_equal(text[off], 't');
		break;
	case JSON_FALSE:
		assert_int_equal(text[off], 'f');
		break;
	case JSON_NULL:
		assert_int_equal(text[off], 'n');
		break;
	default:
		assert_non_null(strchr("-0123456789", text[off]));
		break;
	}
}

/* The position scanner agrees with jansson's tree on awkward documents:
 * escapes, nested containers, numbers, CR LF, UTF-8. */
static void test_positions(void **state)
{
	static const char *const docs[] = {
		"{\"a\\\"b\": [1, -2.5e+3, true, false, null, \"x\\\\\"], \"c\": {}}",
		"\r\n[ [ [] , {} ] ,\t{\"k\" :\r\n \"v\\u00e9\\\"\" } ]",
		"{\"\u00e9t\u00e9\": {\"\u65e5\u672c\": [\"\u00e0\", {\"z\": 0}]}, \"n\": -0}",
		"\"just a string\"",
		"  42  ",
		("{\"z\":1,\"y\":2,\"x\":3,\"w\":4,\"v\":5,\"u\":6,\"t\":7,\"s\":8,\"r\":9,\"q\":"
		 "10,"
		 "\"p\":11,\"o\":12,\"n\":13,\"m\":[{\"b\":0,\"a\":1}]}"),
		"{\"a\":{\"b\":{\"c\":{\"d\":[[[[\"deep\"]]]]}}}}",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(docs) / sizeof(docs[0]); i++) {
		struct lf_jdoc doc = { 0 };
		struct lf_diag diag;
		size_t len = strlen(docs[i]);
		int r = lf_jdoc_parse(&doc, docs[i], len, "d", &diag);
		if (r < 0)
			fail_msg("doc %zu: %s", i, diag.message);
		check_positions(docs[i], len, doc.root, &doc.pos);
		lf_jdoc_fini(&doc);
	}
}

/* Mutated policies never crash the loader; each is either a policy that
 * saves and reloads, or an error with a real position. */
static void test_mutations(void **state)
{
	static const char alphabet[] = "{}[]\",:\\ \n0aé*/.";
	char *base = NULL;
	size_t blen, errors = 0, loaded = 0;
	unsigned seed = 20261130;

	(void)state;
	chdir_srcdir();
	assert_int_equal(lf_file_read("tests/data/good/spec-example.json", 1 << 20, &base, &blen),
			 0);
	for (unsigned iter = 0; iter < 20000; iter++) {
		char buf[4096];
		size_t len = blen < sizeof(buf) - 8 ? blen : sizeof(buf) - 8;
		memcpy(buf, base, len);
		for (unsigned k = 0, n = 1 + rand_r(&seed) % 3; k < n; k++) {
			size_t at = (size_t)rand_r(&seed) % (len + 1);
			char ch = alphabet[rand_r(&seed) % (sizeof(alphabet) - 1)];
			switch (rand_r(&seed) % 3) {
			case 0: /* replace */
				if (at < len)
					buf[at] = ch;
				break;
			case 1: /* delete */
				if (at < len) {
					memmove(buf + at, buf + at + 1, len - at - 1);
					len--;
				}
				break;
			default: /* insert */
				if (len + 1 < sizeof(buf)) {
					memmove(buf + at + 1, buf + at, len - at);
					buf[at] = ch;
					len++;
				}
				break;
			}
		}
		struct lf_policy *p = NULL, *q = NULL;
		struct lf_diag diag;
		int r = lf_policy_parse(buf, len, "m.json", LF_LAYER_PROJECT, &p, &diag);
		if (r == 0) {
			char *out = NULL;
			assert_int_equal(lf_policy_save(p, &out), 0);
			assert_int_equal(
				lf_policy_parse(out, strlen(out), "s", LF_LAYER_PROJECT, &q, &diag),
				0);
			free(out);
			lf_policy_free(q);
			lf_policy_free(p);
			loaded++;
			continue;
		}
		assert_int_equal(r, -EINVAL);
		assert_true(diag.line >= 1 && diag.column >= 1);
		assert_true(diag.message[0] != '\0');
		assert_null(strstr(diag.message, "internal error"));
		errors++;
	}
	print_message("mutations: %zu loaded, %zu rejected\n", loaded, errors);
	free(base);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad_corpus), cmocka_unit_test(test_good_roundtrip),
		cmocka_unit_test(test_sources),	   cmocka_unit_test(test_normalised),
		cmocka_unit_test(test_default),	   cmocka_unit_test(test_save_canonical),
		cmocka_unit_test(test_odd_inputs), cmocka_unit_test(test_positions),
		cmocka_unit_test(test_mutations),  cmocka_unit_test(test_size_limit),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
