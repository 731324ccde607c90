/* SPDX-License-Identifier: MIT */
/*
 * The permission model (SPEC §1): building layers, command rules, names,
 * diagnostics, lexical paths and resolving layers.
 */
#include "helpers.h"

static void names_of_enumerations(void **state)
{
	(void)state;
	assert_string_equal(lf_effect_name(LF_ALLOW), "allow");
	assert_string_equal(lf_effect_name(LF_ASK), "ask");
	assert_string_equal(lf_effect_name(LF_DENY), "deny");
	assert_string_equal(lf_effect_name((enum lf_effect)9), "?");
	assert_string_equal(lf_capability_name(LF_CAP_READ), "read");
	assert_string_equal(lf_capability_name(LF_CAP_WRITE), "write");
	assert_string_equal(lf_capability_name(LF_CAP_DELETE), "delete");
	assert_string_equal(lf_capability_name(LF_CAP_BASH), "bash");
	assert_string_equal(lf_layer_name(LF_LAYER_USER), "user");
	assert_string_equal(lf_layer_name(LF_LAYER_PROJECT), "project");
	assert_string_equal(lf_layer_name(LF_LAYER_AGENT), "agent");
	assert_string_equal(lf_layer_name(LF_LAYER_LOCAL), "local");
}

static void diag_formats_file_line_column(void **state)
{
	(void)state;
	struct lf_diag d = { .line = 7, .column = 12 };
	strcpy(d.file, "p.json");
	strcpy(d.message, "unknown key \"x\"");
	char buf[128];
	int n = lf_diag_format(&d, buf, sizeof(buf));
	assert_string_equal(buf, "p.json:7:12: unknown key \"x\"");
	assert_int_equal(n, (int)strlen(buf));
	char small[8];
	assert_int_equal(lf_diag_format(&d, small, sizeof(small)), n);
	assert_string_equal(small, "p.json:");
	assert_int_equal(lf_diag_format(&d, NULL, 0), n);
}

static void policy_new_has_no_fallback(void **state)
{
	(void)state;
	struct lf_policy *p = h_policy(LF_LAYER_AGENT, "agent.json");
	assert_string_equal(p->file, "agent.json");
	assert_int_equal(p->layer, LF_LAYER_AGENT);
	assert_false(p->has_fallback);
	assert_int_equal(p->nrules, 0);
	lf_policy_free(p);
	lf_policy_free(NULL);

	p = h_policy(LF_LAYER_USER, NULL);
	assert_string_equal(p->file, "<memory>");
	lf_policy_free(p);
}

static void file_rule_records_layer_and_source(void **state)
{
	(void)state;
	struct lf_policy *p = h_policy(LF_LAYER_LOCAL, "local.json");
	H_RULE(p, LF_CAP_WRITE, LF_DENY, 42, "a/**", "./b/");
	assert_int_equal(p->nrules, 1);
	const struct lf_rule *r = &p->rules[0];
	assert_int_equal(r->cap, LF_CAP_WRITE);
	assert_int_equal(r->effect, LF_DENY);
	assert_int_equal(r->layer, LF_LAYER_LOCAL);
	assert_ptr_equal(r->source.file, p->file);
	assert_int_equal(r->source.line, 42);
	assert_int_equal(r->nglobs, 2);
	assert_string_equal(r->globs[1].pattern, "b");
	lf_policy_free(p);
}

static struct lf_glob *one_glob(const char *pat)
{
	struct lf_glob *g = calloc(1, sizeof(*g));
	assert_non_null(g);
	assert_int_equal(lf_glob_init(g, pat, strlen(pat), NULL), 0);
	return g;
}

static void file_rule_errors(void **state)
{
	(void)state;
	struct lf_policy *p = h_policy(LF_LAYER_PROJECT, "p.json");
	struct lf_source src = { 0 };
	struct lf_diag d;

	memset(&d, 0, sizeof(d));
	assert_int_equal(
		lf_policy_add_file_rule(p, LF_CAP_BASH, LF_ALLOW, one_glob("x"), 1, src, &d),
		-EINVAL);
	assert_string_equal(d.message,
			    "a bash rule cannot have \"paths\"; expected \"commands\" for bash, or "
			    "a capability read, write or delete for paths");
	memset(&d, 0, sizeof(d));
	assert_int_equal(lf_policy_add_file_rule(p, LF_CAP_READ, LF_ALLOW, NULL, 0, src, &d),
			 -EINVAL);
	assert_string_equal(d.message, "a file rule needs at least one path pattern; expected "
				       "e.g. \"paths\": [\"src/**\"]");
	memset(&d, 0, sizeof(d));
	assert_int_equal(lf_policy_add_file_rule(p, LF_CAP_READ, (enum lf_effect)7, one_glob("x"),
						 1, src, &d),
			 -EINVAL);
	assert_string_equal(d.message, "unknown effect; expected allow, ask or deny");
	assert_int_equal(p->nrules, 0);
	lf_policy_free(p); /* the globs were taken and freed: ASan checks */
}

struct cmd_case {
	enum lf_matcher m;
	const char *text;
	const char *trimmed;
	size_t ntokens;
	const char *tokens[4];
};

static const struct cmd_case cmd_cases[] = {
	{ LF_MATCH_EXACT, "make test", "make test", 2, { "make", "test" } },
	{ LF_MATCH_PREFIX, "  git   commit\t", "git   commit", 2, { "git", "commit" } },
	{ LF_MATCH_PREFIX, "rm ", "rm", 1, { "rm" } },
	{ LF_MATCH_GLOB, " npm run * ", "npm run *", 0, { NULL } },
};

static void cmd_rule_trims_and_tokenises(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cmd_cases) / sizeof(cmd_cases[0]); i++) {
		const struct cmd_case *c = &cmd_cases[i];
		struct lf_cmd_rule r;
		struct lf_source src = { .line = 3 };
		assert_int_equal(lf_cmd_rule_init(&r, c->m, c->text, LF_ASK, src, NULL), 0);
		assert_string_equal(r.text, c->trimmed);
		assert_int_equal(r.matcher, c->m);
		assert_int_equal(r.effect, LF_ASK);
		assert_int_equal(r.source.line, 3);
		assert_int_equal(r.ntokens, c->ntokens);
		for (size_t k = 0; k < c->ntokens; k++)
			assert_string_equal(r.tokens[k], c->tokens[k]);
		lf_cmd_rule_fini(&r);
	}
}

static void cmd_rule_rejects_empty(void **state)
{
	(void)state;
	const char *empties[] = { "", " ", "\t \n" };
	for (size_t i = 0; i < 3; i++) {
		struct lf_cmd_rule r = { .text = (char *)"untouched" };
		struct lf_diag d;
		memset(&d, 0, sizeof(d));
		struct lf_source src = { 0 };
		assert_int_equal(
			lf_cmd_rule_init(&r, LF_MATCH_PREFIX, empties[i], LF_DENY, src, &d),
			-EINVAL);
		assert_string_equal(
			d.message,
			"command rule is empty; expected a command such as \"git status\"");
		assert_string_equal(r.text, "untouched");
	}
	struct lf_cmd_rule r;
	struct lf_diag d;
	struct lf_source src = { 0 };
	assert_int_equal(lf_cmd_rule_init(&r, (enum lf_matcher)5, "x", LF_DENY, src, &d), -EINVAL);
	assert_string_equal(d.message, "unknown command matcher; expected exact, prefix or glob");
}

static void bash_rule_owns_commands(void **state)
{
	(void)state;
	struct lf_policy *p = h_policy(LF_LAYER_PROJECT, "p.json");
	struct lf_cmd_rule *c = calloc(2, sizeof(*c));
	assert_non_null(c);
	struct lf_source src = { .line = 9 };
	assert_int_equal(lf_cmd_rule_init(&c[0], LF_MATCH_PREFIX, "git push", LF_DENY, src, NULL),
			 0);
	assert_int_equal(lf_cmd_rule_init(&c[1], LF_MATCH_EXACT, "make test", LF_ALLOW, src, NULL),
			 0);
	assert_int_equal(lf_policy_add_bash_rule(p, LF_ALLOW, c, 2, src), 0);
	assert_int_equal(p->nrules, 1);
	assert_int_equal(p->rules[0].cap, LF_CAP_BASH);
	assert_int_equal(p->rules[0].ncmds, 2);
	assert_ptr_equal(p->rules[0].cmds[0].source.file, p->file);
	assert_int_equal(p->rules[0].nglobs, 0);
	lf_policy_free(p);
}

struct rel_case {
	const char *root;
	const char *path;
	int ret;
	const char *rel;
};

static const struct rel_case rel_cases[] = {
	{ "/work/proj", "/work/proj", 0, "" },
	{ "/work/proj", "/work/proj/", 0, "" },
	{ "/work/proj/", "/work/proj/src/a.c", 0, "src/a.c" },
	{ "/work/proj", "/work/proj//src/./a.c", 0, "src/a.c" },
	{ "/work/proj", "/work/proj/src/../lib/x", 0, "lib/x" },
	{ "/work/proj", "/work/proj/src/..", 0, "" },
	{ "/work/proj", "/work/proj/..", 1, NULL },
	{ "/work/proj", "/work/proj/../proj/a", 0, "a" },
	{ "/work/proj", "/work/proj2/a", 1, NULL },
	{ "/work/proj", "/work", 1, NULL },
	{ "/work/proj", "/etc/passwd", 1, NULL },
	{ "/work/proj", "/../..", 1, NULL },
	{ "/work/proj", "src/a.c", 0, "src/a.c" },
	{ "/work/proj", "./src//a.c/", 0, "src/a.c" },
	{ "/work/proj", "src/../../x", 1, NULL },
	{ "/work/proj", "..", 1, NULL },
	/* ".." at "/" stays at "/", and a relative path may climb out and
	 * back in (fuzz/pending/glob, F3): both name files of the project. */
	{ "/work/proj", "/../work/proj/.env", 0, ".env" },
	{ "/work/proj", "/../../work/./proj/src/a", 0, "src/a" },
	{ "/work/proj", "../proj", 0, "" },
	{ "/work/proj", "../proj/.git/hooks/x", 0, ".git/hooks/x" },
	{ "/work/proj", "../proj2/x", 1, NULL },
	{ "/work/proj", ".", 0, "" },
	{ "/work/proj", "", 0, "" },
	{ "/work/./proj", "/work/proj/a", 0, "a" },
	{ "/", "/etc/x", 0, "etc/x" },
};

static void path_relative_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(rel_cases) / sizeof(rel_cases[0]); i++) {
		const struct rel_case *c = &rel_cases[i];
		char buf[256];
		int r = lf_path_relative(c->root, c->path, buf, sizeof(buf));
		if (r != c->ret)
			print_error("case %zu: %s + %s\n", i, c->root, c->path);
		assert_int_equal(r, c->ret);
		if (c->rel)
			assert_string_equal(buf, c->rel);
	}
	char tiny[4];
	assert_int_equal(lf_path_relative("/r", "/r/abcdef", tiny, sizeof(tiny)), -ENAMETOOLONG);
	assert_int_equal(lf_path_relative(NULL, "x", tiny, sizeof(tiny)), -EINVAL);
}

struct conflict_case {
	const char *a, *b;
	bool conflict;
};

static const struct conflict_case conflict_cases[] = {
	{ "", "", true },	  { "", "a", true },	    { "a", "", true },
	{ "src", "src", true },	  { "src", "src/x", true }, { "src/x", "src", true },
	{ "src", "src2", false }, { "src2", "src", false }, { "src/a", "src/b", false },
	{ "a/b", "a/bc", false }, { "a/b/c", "a/b", true }, { "x", "y", false },
};

static void path_conflict_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(conflict_cases) / sizeof(conflict_cases[0]); i++) {
		const struct conflict_case *c = &conflict_cases[i];
		assert_int_equal(lf_path_conflict(c->a, strlen(c->a), c->b, strlen(c->b)),
				 c->conflict);
	}
}

static void resolve_no_layer_is_no_policy(void **state)
{
	(void)state;
	struct lf_effective *e = (struct lf_effective *)1;
	assert_int_equal(lf_effective_resolve(NULL, 0, &e), 0);
	assert_null(e);
	assert_int_equal(lf_effective_resolve(NULL, 2, &e), -EINVAL);
	const struct lf_policy *layers[] = { NULL };
	assert_int_equal(lf_effective_resolve(layers, 1, &e), -EINVAL);
	lf_effective_free(NULL);
}

static void resolve_pools_in_layer_order(void **state)
{
	(void)state;
	struct lf_policy *local = h_policy(LF_LAYER_LOCAL, "local.json");
	struct lf_policy *user = h_policy(LF_LAYER_USER, "user.json");
	struct lf_policy *project = h_policy(LF_LAYER_PROJECT, "project.json");
	H_RULE(local, LF_CAP_READ, LF_ALLOW, 1, "l");
	H_RULE(user, LF_CAP_READ, LF_ALLOW, 1, "u");
	H_RULE(project, LF_CAP_READ, LF_ALLOW, 1, "p1");
	H_RULE(project, LF_CAP_READ, LF_ALLOW, 2, "p2");
	const struct lf_policy *layers[] = { local, project, user };
	struct lf_effective *e = NULL;
	assert_int_equal(lf_effective_resolve(layers, 3, &e), 0);
	assert_int_equal(e->nrules, 4);
	const char *order[] = { "u", "p1", "p2", "l" };
	for (size_t i = 0; i < 4; i++)
		assert_string_equal(e->rules[i]->globs[0].pattern, order[i]);
	assert_int_equal(e->rules[0]->layer, LF_LAYER_USER);
	assert_int_equal(e->rules[3]->layer, LF_LAYER_LOCAL);
	lf_effective_free(e);
	lf_policy_free(local);
	lf_policy_free(user);
	lf_policy_free(project);
}

struct fallback_case {
	int a, b, c; /* -1: the layer states no fallback */
	lf_posture want;
};

static const struct fallback_case fallback_cases[] = {
	{ -1, -1, -1, LF_ASK },		  { LF_ALLOW, -1, -1, LF_ALLOW },
	{ LF_ALLOW, LF_ASK, -1, LF_ASK }, { LF_DENY, LF_ALLOW, LF_ASK, LF_DENY },
	{ -1, LF_ALLOW, -1, LF_ALLOW },	  { LF_ALLOW, LF_ALLOW, LF_DENY, LF_DENY },
	{ LF_ASK, -1, LF_ALLOW, LF_ASK },
};

static void resolve_takes_strictest_fallback(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(fallback_cases) / sizeof(fallback_cases[0]); i++) {
		const struct fallback_case *c = &fallback_cases[i];
		int fb[3] = { c->a, c->b, c->c };
		struct lf_policy *p[3];
		for (int k = 0; k < 3; k++) {
			p[k] = h_policy((enum lf_layer)k, "x.json");
			if (fb[k] >= 0) {
				p[k]->has_fallback = true;
				p[k]->fallback = (lf_posture)fb[k];
			}
		}
		const struct lf_policy *layers[] = { p[0], p[1], p[2] };
		struct lf_effective *e = NULL;
		assert_int_equal(lf_effective_resolve(layers, 3, &e), 0);
		assert_int_equal(lf_effective_fallback(e), c->want);
		lf_effective_free(e);
		for (int k = 0; k < 3; k++)
			lf_policy_free(p[k]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(names_of_enumerations),
		cmocka_unit_test(diag_formats_file_line_column),
		cmocka_unit_test(policy_new_has_no_fallback),
		cmocka_unit_test(file_rule_records_layer_and_source),
		cmocka_unit_test(file_rule_errors),
		cmocka_unit_test(cmd_rule_trims_and_tokenises),
		cmocka_unit_test(cmd_rule_rejects_empty),
		cmocka_unit_test(bash_rule_owns_commands),
		cmocka_unit_test(path_relative_table),
		cmocka_unit_test(path_conflict_table),
		cmocka_unit_test(resolve_no_layer_is_no_policy),
		cmocka_unit_test(resolve_pools_in_layer_order),
		cmocka_unit_test(resolve_takes_strictest_fallback),
	};
	return cmocka_run_group_tests_name("model", tests, NULL, NULL);
}
