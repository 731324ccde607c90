/* SPDX-License-Identifier: MIT */
/*
 * Canonical JSON for a policy: keys in the order of the format's
 * documentation (SPEC §4), two-space indent, a trailing newline. Loading
 * the output and saving again gives the same bytes.
 */
#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "core/model.h"
#include "policy/policy.h"

static const char *const matcher_keys[] = { "exact", "prefix", "glob" };

/* json_object_set_new and friends steal the value even on failure. */
static int put(json_t *obj, const char *key, json_t *v)
{
	return v && json_object_set_new(obj, key, v) == 0 ? 0 : -ENOMEM;
}

static int push(json_t *arr, json_t *v)
{
	return v && json_array_append_new(arr, v) == 0 ? 0 : -ENOMEM;
}

static json_t *strv_json(const struct lf_strv *sv)
{
	json_t *a = json_array();

	if (!a)
		return NULL;
	for (size_t i = 0; i < sv->n; i++)
		if (push(a, json_string(sv->v[i])) < 0) {
			json_decref(a);
			return NULL;
		}
	return a;
}

static json_t *ports_json(const struct lf_ports *p)
{
	json_t *a = json_array();

	for (size_t i = 0; a && i < p->n; i++)
		if (push(a, json_integer(p->v[i])) < 0) {
			json_decref(a);
			return NULL;
		}
	return a;
}

static json_t *rule_json(const struct lf_rule *r)
{
	json_t *o = json_object(), *a = json_array();

	if (!o || !a)
		goto fail;
	if (put(o, "effect", json_string(lf_effect_name(r->effect))) < 0 ||
	    put(o, "capability", json_string(lf_capability_name(r->cap))) < 0)
		goto fail;
	if (r->cap != LF_CAP_BASH) {
		for (size_t i = 0; i < r->nglobs; i++)
			if (push(a, json_string(r->globs[i].pattern)) < 0)
				goto fail;
		if (put(o, "paths", a) < 0)
			goto fail_o;
		return o;
	}
	if (r->ncmds == 0) {
		json_decref(a);
		return o;
	}
	for (size_t i = 0; i < r->ncmds; i++) {
		const struct lf_cmd_rule *c = &r->cmds[i];
		json_t *co = json_object();
		if (!co)
			goto fail;
		if (put(co, "effect", json_string(lf_effect_name(c->effect))) < 0 ||
		    put(co, matcher_keys[c->matcher], json_string(c->text)) < 0 ||
		    push(a, co) < 0) {
			json_decref(co);
			goto fail;
		}
	}
	if (put(o, "commands", a) < 0)
		goto fail_o;
	return o;
fail:
	json_decref(a);
fail_o:
	json_decref(o);
	return NULL;
}

int lf_json_dump(const struct json_t *root, char **out)
{
	char *text = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	if (!text)
		return -ENOMEM;
	size_t n = strlen(text);
	char *t = realloc(text, n + 2);
	if (!t) {
		free(text);
		return -ENOMEM;
	}
	t[n] = '\n';
	t[n + 1] = '\0';
	*out = t;
	return 0;
}

int lf_policy_save(const struct lf_policy *p, char **out)
{
	json_t *root = NULL, *rules = NULL, *sub = NULL;
	int r = -ENOMEM;

	if (!p || !out)
		return -EINVAL;
	root = json_object();
	if (!root || put(root, "version", json_integer(1)) < 0)
		goto out;
	if (p->extends_default && put(root, "extends", json_string("default")) < 0)
		goto out;
	if (p->has_fallback && put(root, "fallback", json_string(lf_effect_name(p->fallback))) < 0)
		goto out;
	if (p->nrules) {
		rules = json_array();
		if (!rules)
			goto out;
		for (size_t i = 0; i < p->nrules; i++)
			if (push(rules, rule_json(&p->rules[i])) < 0)
				goto out;
		r = put(root, "rules", rules);
		rules = NULL;
		if (r < 0)
			goto out;
		r = -ENOMEM;
	}
	if (p->host_read.n || p->host_write.n) {
		sub = json_object();
		if (!sub)
			goto out;
		if (p->host_read.n && put(sub, "read", strv_json(&p->host_read)) < 0)
			goto out;
		if (p->host_write.n && put(sub, "write", strv_json(&p->host_write)) < 0)
			goto out;
		r = put(root, "host", sub);
		sub = NULL;
		if (r < 0)
			goto out;
		r = -ENOMEM;
	}
	if (p->profiles.n && put(root, "profiles", strv_json(&p->profiles)) < 0)
		goto out;
	if (p->has_discover || p->toolchains_except.n) {
		sub = json_object();
		if (!sub)
			goto out;
		if (p->has_discover && put(sub, "discover", json_boolean(p->discover)) < 0)
			goto out;
		if (p->toolchains_except.n &&
		    put(sub, "except", strv_json(&p->toolchains_except)) < 0)
			goto out;
		r = put(root, "toolchains", sub);
		sub = NULL;
		if (r < 0)
			goto out;
		r = -ENOMEM;
	}
	if (p->has_network) {
		sub = json_object();
		if (!sub || put(sub, "connect", ports_json(&p->net_connect)) < 0 ||
		    put(sub, "bind", ports_json(&p->net_bind)) < 0)
			goto out;
		r = put(root, "network", sub);
		sub = NULL;
		if (r < 0)
			goto out;
		r = -ENOMEM;
	}
	if (p->env_unset.n || p->env_keep.n) {
		sub = json_object();
		if (!sub)
			goto out;
		if (p->env_unset.n && put(sub, "unset", strv_json(&p->env_unset)) < 0)
			goto out;
		if (p->env_keep.n && put(sub, "keep", strv_json(&p->env_keep)) < 0)
			goto out;
		r = put(root, "env", sub);
		sub = NULL;
		if (r < 0)
			goto out;
		r = -ENOMEM;
	}
	if (p->protect_add.n || p->protect_lift.n) {
		sub = json_object();
		if (!sub)
			goto out;
		if (p->protect_add.n && put(sub, "add", strv_json(&p->protect_add)) < 0)
			goto out;
		if (p->protect_lift.n && put(sub, "lift", strv_json(&p->protect_lift)) < 0)
			goto out;
		r = put(root, "protect", sub);
		sub = NULL;
		if (r < 0)
			goto out;
	}
	r = lf_json_dump(root, out);
out:
	json_decref(rules);
	json_decref(sub);
	json_decref(root);
	return r;
}
