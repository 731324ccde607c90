/* SPDX-License-Identifier: MIT */
/*
 * Compiled policies (src/policy/compiled.c, src/project/polcache.c): a
 * parsed policy read back from its compiled form is the same model, field
 * for field and source for source, for every file of the good corpus; a
 * form that is cut, extended or holds what a parse never makes is
 * refused; a large trusted policy is kept in the cache directory, read
 * from there for the same text by the same build, and parsed again for
 * any other text, a damaged file, or a cache directory others may write.
 */
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/model.h"
#include "policy/compiled.h"
#include "policy/policy.h"
#include "project/project.h"
#include "project/sha256.h"

static void strv_same(const struct lf_strv *a, const struct lf_strv *b)
{
	assert_int_equal(a->n, b->n);
	for (size_t i = 0; i < a->n; i++)
		assert_string_equal(a->v[i], b->v[i]);
}

static void ports_same(const struct lf_ports *a, const struct lf_ports *b)
{
	assert_int_equal(a->n, b->n);
	for (size_t i = 0; i < a->n; i++)
		assert_int_equal(a->v[i], b->v[i]);
}

/* Every field of the model, every source position, and each source
 * naming its own policy's file. */
static void policy_same(const struct lf_policy *a, const struct lf_policy *b)
{
	assert_string_equal(a->file, b->file);
	assert_int_equal(a->layer, b->layer);
	assert_int_equal(a->extends_default, b->extends_default);
	assert_int_equal(a->has_fallback, b->has_fallback);
	assert_int_equal(a->fallback, b->fallback);
	assert_int_equal(a->nrules, b->nrules);
	for (size_t i = 0; i < a->nrules; i++) {
		const struct lf_rule *x = &a->rules[i], *y = &b->rules[i];

		assert_int_equal(x->cap, y->cap);
		assert_int_equal(x->effect, y->effect);
		assert_int_equal(x->layer, y->layer);
		assert_int_equal(x->source.line, y->source.line);
		assert_int_equal(x->source.column, y->source.column);
		assert_ptr_equal(y->source.file, b->file);
		assert_int_equal(x->nglobs, y->nglobs);
		for (size_t k = 0; k < x->nglobs; k++) {
			assert_string_equal(x->globs[k].pattern, y->globs[k].pattern);
			assert_int_equal(x->globs[k].prefix_len, y->globs[k].prefix_len);
			assert_int_equal(x->globs[k].line, y->globs[k].line);
			assert_int_equal(x->globs[k].column, y->globs[k].column);
		}
		assert_int_equal(x->ncmds, y->ncmds);
		for (size_t k = 0; k < x->ncmds; k++) {
			const struct lf_cmd_rule *c = &x->cmds[k], *d = &y->cmds[k];

			assert_int_equal(c->matcher, d->matcher);
			assert_string_equal(c->text, d->text);
			assert_int_equal(c->effect, d->effect);
			assert_int_equal(c->ntokens, d->ntokens);
			for (size_t t = 0; t < c->ntokens; t++)
				assert_string_equal(c->tokens[t], d->tokens[t]);
			assert_int_equal(c->source.line, d->source.line);
			assert_int_equal(c->source.column, d->source.column);
			assert_ptr_equal(d->source.file, b->file);
		}
	}
	strv_same(&a->host_read, &b->host_read);
	strv_same(&a->host_write, &b->host_write);
	strv_same(&a->profiles, &b->profiles);
	strv_same(&a->env_unset, &b->env_unset);
	strv_same(&a->env_keep, &b->env_keep);
	strv_same(&a->protect_add, &b->protect_add);
	strv_same(&a->protect_lift, &b->protect_lift);
	assert_int_equal(a->has_discover, b->has_discover);
	assert_int_equal(a->discover, b->discover);
	strv_same(&a->toolchains_except, &b->toolchains_except);
	assert_int_equal(a->has_network, b->has_network);
	ports_same(&a->net_connect, &b->net_connect);
	ports_same(&a->net_bind, &b->net_bind);
}

static struct lf_policy *parse(const char *text, size_t len)
{
	struct lf_policy *p = NULL;
	struct lf_diag diag;

	assert_int_equal(lf_policy_parse(text, len, "policy.json", LF_LAYER_PROJECT, &p, &diag), 0);
	return p;
}

/* A policy with every part the model has. */
static const char every_part[] =
	"{\"version\": 1, \"fallback\": \"ask\", \"extends\": \"default\",\n"
	" \"rules\": [\n"
	"  {\"effect\": \"allow\", \"capability\": \"read\", \"paths\": [\"./src//\", "
	"\"docs/**\"]},\n"
	"  {\"effect\": \"deny\", \"capability\": \"write\", \"paths\": [\".env*\"]},\n"
	"  {\"effect\": \"ask\", \"capability\": \"delete\", \"paths\": [\"**/*.db\"]},\n"
	"  {\"effect\": \"allow\", \"capability\": \"bash\", \"commands\": [\n"
	"    {\"exact\": \"  git status \", \"effect\": \"allow\"}, {\"prefix\": \"npm run\", "
	"\"effect\": \"ask\"},\n"
	"    {\"glob\": \"rm -rf *\", \"effect\": \"deny\"}]},\n"
	"  {\"effect\": \"deny\", \"capability\": \"bash\"}\n"
	" ],\n"
	" \"host\": {\"read\": [\"/opt/sdk\"], \"write\": [\"/var/tmp/x\"]},\n"
	" \"profiles\": [\"claude\"],\n"
	" \"env\": {\"unset\": [\"AWS_PROFILE\"], \"keep\": [\"GITHUB_TOKEN\"]},\n"
	" \"protect\": {\"add\": [\".tool/hooks\"], \"lift\": [\".git/config\"]},\n"
	" \"toolchains\": {\"discover\": false, \"except\": [\"cargo\"]},\n"
	" \"network\": {\"connect\": [443, 80], \"bind\": [8080]}\n"
	"}\n";

/* parse → form → model → form: the same model, the same bytes. */
static void roundtrip(const char *text, size_t len)
{
	struct lf_policy *a = parse(text, len), *b = NULL;
	char *f1 = NULL, *f2 = NULL;
	size_t n1 = 0, n2 = 0;

	assert_int_equal(lf_policy_compile_form(a, &f1, &n1), 0);
	assert_int_equal(lf_policy_from_form(f1, n1, "policy.json", LF_LAYER_PROJECT, &b), 0);
	policy_same(a, b);
	assert_int_equal(lf_policy_compile_form(b, &f2, &n2), 0);
	assert_int_equal(n1, n2);
	assert_memory_equal(f1, f2, n1);
	free(f1);
	free(f2);
	lf_policy_free(a);
	lf_policy_free(b);
}

static void test_every_part(void **state)
{
	struct lf_policy *p;

	(void)state;
	p = parse(every_part, strlen(every_part));
	/* The policy above does fill every part. */
	assert_true(p->extends_default && p->has_fallback && p->has_discover && !p->discover &&
		    p->has_network);
	assert_int_equal(p->nrules, 5);
	assert_int_equal(p->rules[3].ncmds, 3);
	assert_true(p->host_read.n && p->host_write.n && p->profiles.n && p->env_unset.n &&
		    p->env_keep.n && p->protect_add.n && p->protect_lift.n &&
		    p->toolchains_except.n && p->net_connect.n && p->net_bind.n);
	lf_policy_free(p);
	roundtrip(every_part, strlen(every_part));
}

static void test_good_corpus(void **state)
{
	const char *src = getenv("LANDFENCE_SRCDIR");
	glob_t g;

	(void)state;
	assert_non_null(src);
	assert_int_equal(chdir(src), 0);
	assert_int_equal(glob("tests/data/good/*.json", 0, NULL, &g), 0);
	assert_true(g.gl_pathc >= 5);
	for (size_t i = 0; i < g.gl_pathc; i++) {
		char *text = NULL;
		size_t len = 0;

		assert_int_equal(lf_file_read(g.gl_pathv[i], 1 << 20, &text, &len), 0);
		roundtrip(text, len);
		free(text);
	}
	globfree(&g);
}

/* Every cut of a form, a form with a byte more, and forms holding what
 * no parse makes (a pattern not normalised, a command rule's text with
 * blanks around it, an unknown capability) are refused. */
static void test_refused(void **state)
{
	struct lf_policy *a, *b = NULL;
	char *f = NULL, *g;
	size_t n = 0;

	(void)state;
	a = parse(every_part, strlen(every_part));
	assert_int_equal(lf_policy_compile_form(a, &f, &n), 0);
	for (size_t cut = 0; cut < n; cut++) {
		assert_int_equal(lf_policy_from_form(f, cut, "p", LF_LAYER_PROJECT, &b), -EINVAL);
		assert_null(b);
	}
	g = malloc(n + 1);
	assert_non_null(g);
	memcpy(g, f, n);
	g[n] = 0;
	assert_int_equal(lf_policy_from_form(g, n + 1, "p", LF_LAYER_PROJECT, &b), -EINVAL);
	free(g);
	free(f);

	/* What the parse would have normalised or trimmed. */
	char *saved = a->rules[0].globs[0].pattern;
	a->rules[0].globs[0].pattern = (char *)"src//lib";
	assert_int_equal(lf_policy_compile_form(a, &f, &n), 0);
	assert_int_equal(lf_policy_from_form(f, n, "p", LF_LAYER_PROJECT, &b), -EINVAL);
	free(f);
	a->rules[0].globs[0].pattern = saved;
	saved = a->rules[3].cmds[0].text;
	a->rules[3].cmds[0].text = (char *)" git status";
	assert_int_equal(lf_policy_compile_form(a, &f, &n), 0);
	assert_int_equal(lf_policy_from_form(f, n, "p", LF_LAYER_PROJECT, &b), -EINVAL);
	free(f);
	a->rules[3].cmds[0].text = saved;
	a->rules[1].cap = (enum lf_capability)7;
	assert_int_equal(lf_policy_compile_form(a, &f, &n), 0);
	assert_int_equal(lf_policy_from_form(f, n, "p", LF_LAYER_PROJECT, &b), -EINVAL);
	free(f);
	a->rules[1].cap = LF_CAP_WRITE;
	assert_null(b);
	lf_policy_free(a);
}

/* ------------------------------------------------------------------------
 * Kept in the cache directory
 */

static char config_home[64];

static int setup_config(void **state)
{
	(void)state;
	snprintf(config_home, sizeof(config_home), "/tmp/lf-compiled-XXXXXX");
	if (!mkdtemp(config_home))
		return -1;
	return setenv("XDG_CONFIG_HOME", config_home, 1);
}

static int teardown_config(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", config_home);
	return system(cmd) == 0 ? 0 : -1;
}

/* A policy of n file rules, each on its own line. */
static char *many_rules(size_t n, const char *first)
{
	size_t cap = 128 + n * 96, len = 0;
	char *s = malloc(cap);

	assert_non_null(s);
	len += (size_t)snprintf(s + len, cap - len,
				"{\"version\": 1, \"fallback\": \"deny\", \"rules\": [\n"
				"{\"effect\": \"allow\", \"capability\": \"read\", \"paths\": "
				"[\"%s\"]}",
				first);
	for (size_t i = 0; i < n; i++)
		len += (size_t)snprintf(s + len, cap - len,
					",\n{\"effect\": \"allow\", \"capability\": \"%s\", "
					"\"paths\": [\"p%02zu/d%05zu/**\"]}",
					i % 2 ? "write" : "read", i / 1000, i);
	snprintf(s + len, cap - len, "\n]}\n");
	return s;
}

static const char canon[] = "/srv/proj/.landfence/policy.json";

static struct lf_policy *trusted(const char *text, const char *digest)
{
	struct lf_policy *p = NULL;
	struct lf_diag diag;

	assert_int_equal(lf_policy_parse_trusted(canon, digest, text, strlen(text), "policy.json",
						 &p, &diag),
			 0);
	return p;
}

/* The cache file of canon, or "" when there is none. */
static const char *kept_file(void)
{
	static char path[256];
	char pat[128];
	glob_t g;

	path[0] = '\0';
	snprintf(pat, sizeof(pat), "%s/landfence/cache/pol-*", config_home);
	if (glob(pat, 0, NULL, &g) == 0) {
		assert_int_equal(g.gl_pathc, 1);
		snprintf(path, sizeof(path), "%s", g.gl_pathv[0]);
		globfree(&g);
	}
	return path;
}

static void test_kept(void **state)
{
	char d1[LF_SHA256_HEX_LEN + 1], d2[LF_SHA256_HEX_LEN + 1], d3[LF_SHA256_HEX_LEN + 1];
	char *big = many_rules(600, "a/**"), *edited = many_rules(600, "b/**"),
	     *decoy = many_rules(600, "z/**");
	static const char small[] = "{\"version\": 1, \"rules\": []}";
	struct lf_policy *want, *p;
	struct stat st;

	(void)state;
	assert_true(strlen(big) >= LF_POLICY_FORM_MIN);
	lf_sha256_hex(big, strlen(big), d1);
	lf_sha256_hex(edited, strlen(edited), d2);
	lf_sha256_hex(small, strlen(small), d3);
	want = parse(big, strlen(big));

	/* A small policy is parsed, nothing kept. */
	p = trusted(small, d3);
	lf_policy_free(p);
	assert_string_equal(kept_file(), "");

	/* The first launch parses and keeps the form. */
	p = trusted(big, d1);
	policy_same(want, p);
	lf_policy_free(p);
	assert_string_not_equal(kept_file(), "");
	char file[256];
	snprintf(file, sizeof(file), "%s", kept_file());
	assert_int_equal(stat(file, &st), 0);
	assert_int_equal(st.st_mode & 077, 0);

	/* The next reads it: what is kept answers for that digest, whatever
	 * the text (which the trust check has already matched to it): a
	 * decoy of the same size comes back as the kept policy. */
	p = trusted(decoy, d1);
	policy_same(want, p);
	lf_policy_free(p);

	/* Another text (edited and trusted again) is parsed, and kept in
	 * its turn. */
	struct lf_policy *want2 = parse(edited, strlen(edited));
	p = trusted(edited, d2);
	policy_same(want2, p);
	assert_string_equal(p->rules[0].globs[0].pattern, "b/**");
	lf_policy_free(p);
	p = trusted(decoy, d2);
	policy_same(want2, p);
	lf_policy_free(p);
	lf_policy_free(want2);

	/* A damaged file (cut short; then one byte of the form changed) is
	 * parsed again. */
	p = trusted(big, d1);
	lf_policy_free(p);
	assert_int_equal(stat(file, &st), 0);
	assert_int_equal(truncate(file, st.st_size - 10), 0);
	p = trusted(big, d1);
	policy_same(want, p);
	lf_policy_free(p);
	int fd = open(file, O_RDWR | O_CLOEXEC);
	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &st), 0);
	char c;
	assert_int_equal(pread(fd, &c, 1, st.st_size - 3), 1);
	c ^= 1;
	assert_int_equal(pwrite(fd, &c, 1, st.st_size - 3), 1);
	assert_int_equal(close(fd), 0);
	p = trusted(big, d1);
	policy_same(want, p);
	lf_policy_free(p);
	p = trusted(decoy, d1); /* written again whole */
	policy_same(want, p);
	lf_policy_free(p);

	/* A kept file others may write, or that has another name, is not
	 * read: the sandboxed program can chmod it (not write it), and
	 * another user could then write it. Parsed instead, and written
	 * again whole. */
	p = trusted(big, d1);
	lf_policy_free(p);
	assert_int_equal(chmod(file, 0666), 0);
	p = trusted(decoy, d1);
	assert_string_equal(p->rules[0].globs[0].pattern, "z/**");
	lf_policy_free(p);
	assert_int_equal(stat(file, &st), 0);
	assert_int_equal(st.st_mode & 077, 0);
	p = trusted(big, d1);
	lf_policy_free(p);
	char second[300];
	snprintf(second, sizeof(second), "%s.second", file);
	assert_int_equal(link(file, second), 0);
	p = trusted(decoy, d1);
	assert_string_equal(p->rules[0].globs[0].pattern, "z/**");
	lf_policy_free(p);
	unlink(second);

	/* A cache directory others may write is neither read nor written. */
	char dir[128];
	snprintf(dir, sizeof(dir), "%s/landfence/cache", config_home);
	assert_int_equal(chmod(dir, 0777), 0);
	p = trusted(decoy, d1);
	assert_string_equal(p->rules[0].globs[0].pattern, "z/**");
	lf_policy_free(p);
	assert_int_equal(chmod(dir, 0700), 0);

	lf_policy_free(want);
	free(big);
	free(edited);
	free(decoy);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_part),
		cmocka_unit_test(test_good_corpus),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_kept),
	};
	return cmocka_run_group_tests(tests, setup_config, teardown_config);
}
