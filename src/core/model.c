/* SPDX-License-Identifier: MIT */
/*
 * Building a policy layer in memory: file rules, bash rules and their
 * command rules, validated as they are added (SPEC §1). Pure.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/model.h"

static void model_error(struct lf_diag *diag, const char *msg)
{
	if (diag)
		snprintf(diag->message, sizeof(diag->message), "%s", msg);
}

static bool effect_valid(enum lf_effect e)
{
	return e == LF_ALLOW || e == LF_ASK || e == LF_DENY;
}

int lf_policy_new(const char *file, enum lf_layer layer, struct lf_policy **out)
{
	if (!out)
		return -EINVAL;
	struct lf_policy *p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	/* Rules point at this copy for their source, so it always exists. */
	p->file = strdup(file ? file : "<memory>");
	if (!p->file) {
		free(p);
		return -ENOMEM;
	}
	p->layer = layer;
	p->has_fallback = false;
	p->fallback = LF_ASK;
	*out = p;
	return 0;
}

static void rule_fini(struct lf_rule *r)
{
	for (size_t i = 0; i < r->nglobs; i++)
		lf_glob_fini(&r->globs[i]);
	free(r->globs);
	for (size_t i = 0; i < r->ncmds; i++)
		lf_cmd_rule_fini(&r->cmds[i]);
	free(r->cmds);
}

void lf_policy_free(struct lf_policy *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->nrules; i++)
		rule_fini(&p->rules[i]);
	free(p->rules);
	lf_strv_fini(&p->host_read);
	lf_strv_fini(&p->host_write);
	lf_strv_fini(&p->profiles);
	lf_strv_fini(&p->env_unset);
	lf_strv_fini(&p->env_keep);
	lf_strv_fini(&p->protect_add);
	lf_strv_fini(&p->protect_lift);
	lf_strv_fini(&p->toolchains_except);
	lf_ports_fini(&p->net_connect);
	lf_ports_fini(&p->net_bind);
	free(p->file);
	free(p);
}

static int policy_push(struct lf_policy *p, struct lf_rule *r)
{
	/* The capacity is the next power of two of nrules: growing doubles it,
	 * so a policy of n rules costs O(n) copies, not O(n^2). */
	size_t n = p->nrules;
	if (n == 0 || (n & (n - 1)) == 0) {
		size_t cap = n ? 2 * n : 1;
		struct lf_rule *v = realloc(p->rules, cap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		p->rules = v;
	}
	r->layer = p->layer;
	r->source.file = p->file;
	p->rules[p->nrules++] = *r;
	return 0;
}

static void globs_drop(struct lf_glob *globs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		lf_glob_fini(&globs[i]);
	free(globs);
}

int lf_policy_add_file_rule(struct lf_policy *p, enum lf_capability cap, enum lf_effect effect,
			    struct lf_glob *globs, size_t n, struct lf_source src,
			    struct lf_diag *diag)
{
	int r = -EINVAL;

	if (!p || (n && !globs)) {
		model_error(diag, "file rule is missing; expected a policy and its path patterns");
		goto fail;
	}
	if (cap == LF_CAP_BASH) {
		model_error(diag,
			    "a bash rule cannot have \"paths\"; expected \"commands\" for bash, "
			    "or a capability read, write or delete for paths");
		goto fail;
	}
	if (cap != LF_CAP_READ && cap != LF_CAP_WRITE && cap != LF_CAP_DELETE) {
		model_error(diag, "unknown capability; expected read, write, delete or bash");
		goto fail;
	}
	if (!effect_valid(effect)) {
		model_error(diag, "unknown effect; expected allow, ask or deny");
		goto fail;
	}
	if (n == 0) {
		model_error(diag, "a file rule needs at least one path pattern; expected e.g. "
				  "\"paths\": [\"src/**\"]");
		goto fail;
	}
	struct lf_rule rule = {
		.cap = cap,
		.effect = effect,
		.globs = globs,
		.nglobs = n,
		.source = src,
	};
	r = policy_push(p, &rule);
	if (r == 0)
		return 0;
fail:
	globs_drop(globs, n);
	return r;
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

int lf_cmd_rule_init(struct lf_cmd_rule *c, enum lf_matcher m, const char *text,
		     enum lf_effect effect, struct lf_source src, struct lf_diag *diag)
{
	if (!c || !text) {
		model_error(diag,
			    "command rule is missing; expected a command such as \"git status\"");
		return -EINVAL;
	}
	if (m != LF_MATCH_EXACT && m != LF_MATCH_PREFIX && m != LF_MATCH_GLOB) {
		model_error(diag, "unknown command matcher; expected exact, prefix or glob");
		return -EINVAL;
	}
	if (!effect_valid(effect)) {
		model_error(diag, "unknown effect; expected allow, ask or deny");
		return -EINVAL;
	}
	const char *b = text, *e = text + strlen(text);
	while (b < e && is_blank(*b))
		b++;
	while (e > b && is_blank(e[-1]))
		e--;
	if (b == e) {
		model_error(diag,
			    "command rule is empty; expected a command such as \"git status\"");
		return -EINVAL;
	}

	struct lf_cmd_rule t = { .matcher = m, .effect = effect, .source = src };
	t.text = strndup(b, (size_t)(e - b));
	if (!t.text)
		return -ENOMEM;
	if (m != LF_MATCH_GLOB) {
		/* Tokens for token-wise matching: "git commit" is two words. */
		size_t cap = 0;
		const char *s = t.text;
		while (*s) {
			while (*s && is_blank(*s))
				s++;
			if (!*s)
				break;
			const char *w = s;
			while (*s && !is_blank(*s))
				s++;
			if (t.ntokens == cap) {
				cap = cap ? cap * 2 : 4;
				char **v = realloc(t.tokens, cap * sizeof(*v));
				if (!v)
					goto nomem;
				t.tokens = v;
			}
			t.tokens[t.ntokens] = strndup(w, (size_t)(s - w));
			if (!t.tokens[t.ntokens])
				goto nomem;
			t.ntokens++;
		}
	}
	*c = t;
	return 0;
nomem:
	lf_cmd_rule_fini(&t);
	return -ENOMEM;
}

void lf_cmd_rule_fini(struct lf_cmd_rule *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->ntokens; i++)
		free(c->tokens[i]);
	free(c->tokens);
	free(c->text);
	c->tokens = NULL;
	c->ntokens = 0;
	c->text = NULL;
}

int lf_policy_add_bash_rule(struct lf_policy *p, enum lf_effect effect, struct lf_cmd_rule *cmds,
			    size_t n, struct lf_source src)
{
	int r = -EINVAL;

	if (p && (cmds || !n) && effect_valid(effect)) {
		struct lf_rule rule = {
			.cap = LF_CAP_BASH,
			.effect = effect,
			.cmds = cmds,
			.ncmds = n,
			.source = src,
		};
		/* Command rules point at the policy's file name too. */
		for (size_t i = 0; i < n; i++)
			cmds[i].source.file = p->file;
		r = policy_push(p, &rule);
		if (r == 0)
			return 0;
	}
	for (size_t i = 0; i < n && cmds; i++)
		lf_cmd_rule_fini(&cmds[i]);
	free(cmds);
	return r;
}
