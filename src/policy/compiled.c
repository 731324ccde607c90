/* SPDX-License-Identifier: MIT */
/*
 * The compiled form of a parsed policy (compiled.h). Little-endian 32-bit
 * numbers and length-prefixed strings, in the order of struct lf_policy:
 *   flags, fallback,
 *   rules: count; each capability, effect, line, column, then its
 *     patterns (count; each pattern, line, column) or its command rules
 *     (count; each matcher, text, effect, line, column),
 *   the eight lists (count; each string), the two port lists (count;
 *   each port).
 * A reader checks every count and length against what is left.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "policy/compiled.h"

/* A field added to the model must be added to the form too: these sizes
 * are the model's as the form knows it (LP64). */
#if defined(__x86_64__) || defined(__aarch64__)
_Static_assert(sizeof(struct lf_policy) == 216, "struct lf_policy changed: update compiled.c");
_Static_assert(sizeof(struct lf_rule) == 64, "struct lf_rule changed: update compiled.c");
_Static_assert(sizeof(struct lf_glob) == 24, "struct lf_glob changed: update compiled.c");
_Static_assert(sizeof(struct lf_cmd_rule) == 56, "struct lf_cmd_rule changed: update compiled.c");
#endif

enum {
	F_EXTENDS_DEFAULT = 1u << 0,
	F_HAS_FALLBACK = 1u << 1,
	F_HAS_DISCOVER = 1u << 2,
	F_DISCOVER = 1u << 3,
	F_HAS_NETWORK = 1u << 4,
	F_ALL = (1u << 5) - 1,
};

struct out {
	char *b;
	size_t n, cap;
	int err;
};

static void put(struct out *o, const void *p, size_t n)
{
	if (o->err)
		return;
	if (o->cap - o->n < n) {
		size_t cap = o->cap ? o->cap : 4096;
		while (cap - o->n < n)
			cap *= 2;
		char *b = realloc(o->b, cap);
		if (!b) {
			o->err = -ENOMEM;
			return;
		}
		o->b = b;
		o->cap = cap;
	}
	memcpy(o->b + o->n, p, n);
	o->n += n;
}

static void put_u32(struct out *o, size_t v)
{
	unsigned char b[4] = { (unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16),
			       (unsigned char)(v >> 24) };

	if (v > UINT32_MAX)
		o->err = o->err ? o->err : -EINVAL;
	put(o, b, sizeof(b));
}

static void put_str(struct out *o, const char *s)
{
	size_t n = strlen(s);

	put_u32(o, n);
	put(o, s, n);
}

static void put_strv(struct out *o, const struct lf_strv *sv)
{
	put_u32(o, sv->n);
	for (size_t i = 0; i < sv->n; i++)
		put_str(o, sv->v[i]);
}

static void put_ports(struct out *o, const struct lf_ports *pv)
{
	put_u32(o, pv->n);
	for (size_t i = 0; i < pv->n; i++)
		put_u32(o, pv->v[i]);
}

int lf_policy_compile_form(const struct lf_policy *p, char **out, size_t *len)
{
	struct out o = { 0 };

	put_u32(&o, (p->extends_default ? F_EXTENDS_DEFAULT : 0) |
			    (p->has_fallback ? F_HAS_FALLBACK : 0) |
			    (p->has_discover ? F_HAS_DISCOVER : 0) |
			    (p->discover ? F_DISCOVER : 0) | (p->has_network ? F_HAS_NETWORK : 0));
	put_u32(&o, p->fallback);
	put_u32(&o, p->nrules);
	for (size_t i = 0; i < p->nrules; i++) {
		const struct lf_rule *r = &p->rules[i];

		put_u32(&o, r->cap);
		put_u32(&o, r->effect);
		put_u32(&o, r->source.line);
		put_u32(&o, r->source.column);
		if (r->cap != LF_CAP_BASH) {
			put_u32(&o, r->nglobs);
			for (size_t k = 0; k < r->nglobs; k++) {
				put_str(&o, r->globs[k].pattern);
				put_u32(&o, r->globs[k].line);
				put_u32(&o, r->globs[k].column);
			}
			continue;
		}
		put_u32(&o, r->ncmds);
		for (size_t k = 0; k < r->ncmds; k++) {
			const struct lf_cmd_rule *c = &r->cmds[k];

			put_u32(&o, c->matcher);
			put_str(&o, c->text);
			put_u32(&o, c->effect);
			put_u32(&o, c->source.line);
			put_u32(&o, c->source.column);
		}
	}
	put_strv(&o, &p->host_read);
	put_strv(&o, &p->host_write);
	put_strv(&o, &p->profiles);
	put_strv(&o, &p->env_unset);
	put_strv(&o, &p->env_keep);
	put_strv(&o, &p->protect_add);
	put_strv(&o, &p->protect_lift);
	put_strv(&o, &p->toolchains_except);
	put_ports(&o, &p->net_connect);
	put_ports(&o, &p->net_bind);
	if (o.err) {
		free(o.b);
		return o.err;
	}
	*out = o.b;
	*len = o.n;
	return 0;
}

/* ------------------------------------------------------------------------
 * Reading
 */

struct in {
	const unsigned char *p;
	size_t left;
	bool bad;
};

static uint32_t get_u32(struct in *in)
{
	if (in->bad || in->left < 4) {
		in->bad = true;
		return 0;
	}
	uint32_t v = (uint32_t)in->p[0] | (uint32_t)in->p[1] << 8 | (uint32_t)in->p[2] << 16 |
		     (uint32_t)in->p[3] << 24;
	in->p += 4;
	in->left -= 4;
	return v;
}

/* A count of items of at least min bytes each: no larger than what is
 * left can hold (so that nothing is allocated for a count the form
 * cannot back). */
static size_t get_count(struct in *in, size_t min)
{
	size_t n = get_u32(in);

	if (n > in->left / min)
		in->bad = true;
	return in->bad ? 0 : n;
}

/* A string: malloc'ed, NULL when the form is bad (in->bad) or memory
 * ran out (in->bad stays false). No NUL inside. */
static char *get_str(struct in *in)
{
	size_t n = get_u32(in);

	if (in->bad || n > in->left || memchr(in->p, '\0', n)) {
		in->bad = true;
		return NULL;
	}
	char *s = strndup((const char *)in->p, n);
	in->p += n;
	in->left -= n;
	return s;
}

static int get_strv(struct in *in, struct lf_strv *sv)
{
	size_t n = get_count(in, 4);

	for (size_t i = 0; i < n && !in->bad; i++) {
		char *s = get_str(in);

		if (!s)
			return in->bad ? -EINVAL : -ENOMEM;
		int r = lf_strv_push(sv, s);
		free(s);
		if (r < 0)
			return r;
	}
	return in->bad ? -EINVAL : 0;
}

static int get_ports(struct in *in, struct lf_ports *pv)
{
	size_t n = get_count(in, 4);

	for (size_t i = 0; i < n && !in->bad; i++) {
		uint32_t port = get_u32(in);

		if (in->bad || port > 65535 || lf_ports_has(pv, (unsigned short)port))
			return -EINVAL;
		if (lf_ports_add(pv, (unsigned short)port) < 0)
			return -ENOMEM;
	}
	return in->bad ? -EINVAL : 0;
}

static bool effect_ok(uint32_t e)
{
	return e == LF_ALLOW || e == LF_ASK || e == LF_DENY;
}

/* One file rule's patterns: each must be a pattern lf_glob_init keeps as
 * it is (what the parse stored is already normalised). */
static int get_file_rule(struct in *in, struct lf_policy *p, enum lf_capability cap,
			 enum lf_effect effect, struct lf_source src)
{
	size_t n = get_count(in, 12);
	struct lf_glob *globs = n ? calloc(n, sizeof(*globs)) : NULL;
	struct lf_diag diag;
	size_t k = 0;
	int r = 0;

	if (in->bad || !n)
		return -EINVAL;
	if (!globs)
		return -ENOMEM;
	for (; k < n; k++) {
		char *s = get_str(in);

		if (!s) {
			r = in->bad ? -EINVAL : -ENOMEM;
			break;
		}
		r = lf_glob_init(&globs[k], s, strlen(s), &diag);
		if (r == 0 && strcmp(globs[k].pattern, s) != 0) {
			lf_glob_fini(&globs[k]);
			r = -EINVAL;
		}
		free(s);
		if (r < 0)
			break;
		globs[k].line = get_u32(in);
		globs[k].column = get_u32(in);
		if (in->bad) {
			k++;
			r = -EINVAL;
			break;
		}
	}
	if (r < 0) {
		for (size_t i = 0; i < k; i++)
			lf_glob_fini(&globs[i]);
		free(globs);
		return r == -ENOMEM ? r : -EINVAL;
	}
	/* The globs pass to the policy, on failure too. */
	r = lf_policy_add_file_rule(p, cap, effect, globs, n, src, &diag);
	return r == -ENOMEM ? r : r < 0 ? -EINVAL : 0;
}

static int get_bash_rule(struct in *in, struct lf_policy *p, enum lf_effect effect,
			 struct lf_source src)
{
	size_t n = get_count(in, 20);
	struct lf_cmd_rule *cmds = n ? calloc(n, sizeof(*cmds)) : NULL;
	struct lf_diag diag;
	size_t k = 0;
	int r = 0;

	if (in->bad)
		return -EINVAL;
	if (n && !cmds)
		return -ENOMEM;
	for (; k < n; k++) {
		uint32_t m = get_u32(in);
		char *text = get_str(in);
		uint32_t e = get_u32(in);
		struct lf_source cs = { p->file, 0, 0 };

		cs.line = get_u32(in);
		cs.column = get_u32(in);
		if (!text) {
			r = in->bad ? -EINVAL : -ENOMEM;
			break;
		}
		r = in->bad || !effect_ok(e) ? -EINVAL
					     : lf_cmd_rule_init(&cmds[k], (enum lf_matcher)m, text,
								(enum lf_effect)e, cs, &diag);
		/* As written: the parse stored a command rule's text
		 * trimmed, which init keeps as it is. */
		if (r == 0 && strcmp(cmds[k].text, text) != 0) {
			lf_cmd_rule_fini(&cmds[k]);
			r = -EINVAL;
		}
		free(text);
		if (r < 0)
			break;
	}
	if (r < 0) {
		for (size_t i = 0; i < k; i++)
			lf_cmd_rule_fini(&cmds[i]);
		free(cmds);
		return r == -ENOMEM ? r : -EINVAL;
	}
	r = lf_policy_add_bash_rule(p, effect, cmds, n, src);
	return r == -ENOMEM ? r : r < 0 ? -EINVAL : 0;
}

static int get_rules(struct in *in, struct lf_policy *p)
{
	size_t n = get_count(in, 20);

	for (size_t i = 0; i < n && !in->bad; i++) {
		uint32_t cap = get_u32(in), effect = get_u32(in);
		struct lf_source src = { p->file, 0, 0 };
		int r;

		src.line = get_u32(in);
		src.column = get_u32(in);
		if (in->bad || cap >= LF_CAP_COUNT || !effect_ok(effect))
			return -EINVAL;
		r = cap == LF_CAP_BASH ? get_bash_rule(in, p, (enum lf_effect)effect, src)
				       : get_file_rule(in, p, (enum lf_capability)cap,
						       (enum lf_effect)effect, src);
		if (r < 0)
			return r;
	}
	return in->bad ? -EINVAL : 0;
}

int lf_policy_from_form(const void *buf, size_t len, const char *filename, enum lf_layer layer,
			struct lf_policy **out)
{
	struct in in = { buf, len, false };
	struct lf_policy *p = NULL;
	uint32_t flags, fallback;
	int r;

	if (!buf || !filename || !out)
		return -EINVAL;
	if ((r = lf_policy_new(filename, layer, &p)) < 0)
		return r;
	flags = get_u32(&in);
	fallback = get_u32(&in);
	if (in.bad || (flags & ~(uint32_t)F_ALL) || !effect_ok(fallback)) {
		lf_policy_free(p);
		return -EINVAL;
	}
	p->extends_default = flags & F_EXTENDS_DEFAULT;
	p->has_fallback = flags & F_HAS_FALLBACK;
	p->has_discover = flags & F_HAS_DISCOVER;
	p->discover = flags & F_DISCOVER;
	p->has_network = flags & F_HAS_NETWORK;
	p->fallback = (lf_posture)fallback;
	r = get_rules(&in, p);
	struct lf_strv *lists[] = { &p->host_read,    &p->host_write,	    &p->profiles,
				    &p->env_unset,    &p->env_keep,	    &p->protect_add,
				    &p->protect_lift, &p->toolchains_except };
	for (size_t i = 0; r == 0 && i < sizeof(lists) / sizeof(lists[0]); i++)
		r = get_strv(&in, lists[i]);
	if (r == 0)
		r = get_ports(&in, &p->net_connect);
	if (r == 0)
		r = get_ports(&in, &p->net_bind);
	if (r == 0 && in.left)
		r = -EINVAL; /* something after the form */
	if (r < 0) {
		lf_policy_free(p);
		return r;
	}
	*out = p;
	return 0;
}
