/* SPDX-License-Identifier: MIT */
/*
 * The sandbox value (core/sandbox.h), stages 1 and 3: what every source
 * asks for, then, given the file-system facts, the final rules. Every
 * grant source is collected, canonicalised (by the facts step), then
 * fenced as a whole, so no source can reopen a fence. Design choices are
 * in doc/landlock.md. Pure.
 */
#include <dirent.h>
#include <errno.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/path.h"
#include "core/sandbox.h"
#include "core/tables.h"
#include "landlock/compat.h"

#define RO LF_ACCESS_RO
#define RW LF_ACCESS_RW

__attribute__((format(printf, 1, 2))) static char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;
	int r;

	va_start(ap, fmt);
	r = vasprintf(&s, fmt, ap);
	va_end(ap);
	return r < 0 ? NULL : s;
}

/* "policy allow at LAYER FILE:LINE:COLUMN", the reason of a policy grant,
 * put together by hand: a 10,000-rule policy has one per rule, and
 * vasprintf spent ~2,200 instructions on each. NULL when out of memory. */
static char *allow_why(const char *layer, const char *file, unsigned line, unsigned column)
{
	static const char head[] = "policy allow at ";
	size_t ll = strlen(layer), fl = strlen(file);
	char *s = malloc(sizeof(head) + ll + 1 + fl + 2 * 11), *p;

	if (!s)
		return NULL;
	p = mempcpy(s, head, sizeof(head) - 1);
	p = mempcpy(p, layer, ll);
	*p++ = ' ';
	p = mempcpy(p, file, fl);
	for (int k = 0; k < 2; k++) {
		unsigned v = k ? column : line;
		char digits[10];
		size_t n = 0;

		do
			digits[n++] = (char)('0' + v % 10);
		while ((v /= 10));
		*p++ = ':';
		while (n)
			*p++ = digits[--n];
	}
	*p = '\0';
	return s;
}

/* ------------------------------------------------------------------------
 * Stage 1: the sources
 */

static int cand_new(struct lf_sandbox_input *in, char *raw, unsigned access, enum lf_origin origin,
		    unsigned flags, char *why, struct lf_source src, enum lf_layer layer)
{
	struct lf_cand *c;

	if (!raw || !why ||
	    lf_grow((void **)&in->cands, &in->cands_cap, in->ncands, sizeof(*in->cands)) < 0) {
		free(raw);
		free(why);
		return -ENOMEM;
	}
	c = &in->cands[in->ncands++];
	*c = (struct lf_cand){
		.raw = raw,
		.access = access,
		.origin = origin,
		.flags = flags,
		.why = why,
		.source = src,
		.layer = layer,
		.dir = -1,
	};
	return 0;
}

static int fence_new(struct lf_sandbox_input *in, const char *raw, unsigned access,
		     enum lf_effect effect, enum lf_origin origin, struct lf_source src,
		     enum lf_layer layer)
{
	if (lf_grow((void **)&in->fences, &in->fences_cap, in->nfences, sizeof(*in->fences)) < 0)
		return -ENOMEM;
	char *copy = strdup(raw);
	if (!copy)
		return -ENOMEM;
	in->fences[in->nfences++] = (struct lf_fence_in){
		.raw = copy,
		.access = access,
		.effect = effect,
		.origin = origin,
		.source = src,
		.layer = layer,
	};
	return 0;
}

/* "~" and "~/x" from the home directory; other paths must be absolute.
 * Returns 0, -ENOENT (no home), -EINVAL (relative), -ENOMEM. */
static int home_expand(const struct lf_host *h, const char *in, char **out)
{
	if (in[0] == '~' && (in[1] == '\0' || in[1] == '/')) {
		if (!h->home)
			return -ENOENT;
		*out = xasprintf("%s%s", h->home, in + 1);
		return *out ? 0 : -ENOMEM;
	}
	if (in[0] != '/')
		return -EINVAL;
	*out = strdup(in);
	return *out ? 0 : -ENOMEM;
}

static enum lf_layer layer_of(const struct lf_effective *e, const struct lf_source *src)
{
	enum lf_layer l = LF_LAYER_LOCAL;

	if (e)
		(void)lf_effective_layer_of(e, src, &l);
	return l;
}

/* The allow rules behind the plan's grants, by static prefix: one entry
 * per glob of every allow file rule, sorted by prefix then by the rule's
 * place in the pool, so that the first rule of a class with a given
 * prefix is found by a binary search (a scan of every rule per grant is
 * quadratic in the policy's size). */
struct grant_index_entry {
	const char *prefix;
	size_t len;
	size_t rule; /* index in e->rules */
	unsigned cls;
};

struct grant_index {
	struct grant_index_entry *v;
	size_t n;
};

static int grant_index_cmp(const void *a, const void *b)
{
	const struct grant_index_entry *x = a, *y = b;
	size_t n = x->len < y->len ? x->len : y->len;
	int c = memcmp(x->prefix, y->prefix, n);

	if (c)
		return c;
	if (x->len != y->len)
		return x->len < y->len ? -1 : 1;
	return (x->rule > y->rule) - (x->rule < y->rule);
}

static int grant_index_build(struct grant_index *gi, const struct lf_effective *e)
{
	size_t n = 0;

	gi->v = NULL;
	gi->n = 0;
	for (size_t i = 0; e && i < e->nrules; i++)
		if (e->rules[i]->cap != LF_CAP_BASH && e->rules[i]->effect == LF_ALLOW)
			n += e->rules[i]->nglobs;
	if (!n)
		return 0;
	gi->v = calloc(n, sizeof(*gi->v));
	if (!gi->v)
		return -ENOMEM;
	for (size_t i = 0; i < e->nrules; i++) {
		const struct lf_rule *r = e->rules[i];

		if (r->cap == LF_CAP_BASH || r->effect != LF_ALLOW)
			continue;
		for (size_t k = 0; k < r->nglobs; k++)
			gi->v[gi->n++] =
				(struct grant_index_entry){ r->globs[k].pattern,
							    r->globs[k].prefix_len, i,
							    r->cap == LF_CAP_READ ? RO : RW };
	}
	if (gi->n > 1)
		qsort(gi->v, gi->n, sizeof(*gi->v), grant_index_cmp);
	return 0;
}

/* The first allow rule behind a plan grant: the rule whose static prefix,
 * joined onto the project root, is the grant's root (the first in pool
 * order among the classes the grant carries). */
static const struct lf_rule *grant_rule(const struct lf_effective *e, const struct grant_index *gi,
					const char *root, const struct lf_grant *g)
{
	size_t rl = strcmp(root, "/") ? strlen(root) : 0, lo = 0, hi = gi->n;

	if (strncmp(g->abs_root, root, rl) != 0)
		return NULL;
	const char *rel = g->abs_root + rl;
	rel += rel[0] == '/';
	struct grant_index_entry key = { rel, strlen(rel), 0, 0 };

	/* The first entry not below (rel, rule 0). */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (grant_index_cmp(&gi->v[mid], &key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < gi->n && gi->v[lo].len == key.len && !memcmp(gi->v[lo].prefix, rel, key.len);
	     lo++) {
		/* Sorted by rule within the prefix: the first match is the first rule. */
		if (g->access & gi->v[lo].cls)
			return e->rules[gi->v[lo].rule];
	}
	return NULL;
}

/* Where the walk over the deny and ask rules' globs stands: fence_glob
 * is asked for fences in increasing order, so the walk never restarts
 * (restarting it for each fence is quadratic in the policy's size). */
struct fence_cursor {
	size_t rule; /* index in e->rules */
	size_t n;    /* globs of the deny and ask rules before it */
};

/* The glob behind the plan's fence number k: the plan makes one fence per
 * glob of every deny and ask file rule, in pool order. NULL when the
 * plan does not come from e (a caller's own plan). k never decreases
 * between two calls with the same cursor. */
static const struct lf_glob *fence_glob(const struct lf_effective *e, const struct lf_fence *f,
					size_t k, struct fence_cursor *cur)
{
	for (; e && cur->rule < e->nrules; cur->rule++) {
		const struct lf_rule *r = e->rules[cur->rule];

		if (r->cap == LF_CAP_BASH || r->effect == LF_ALLOW)
			continue;
		if (k >= cur->n + r->nglobs) {
			cur->n += r->nglobs;
			continue;
		}
		const struct lf_glob *g = &r->globs[k - cur->n];
		bool same = r->source.line == f->source.line &&
			    r->source.column == f->source.column &&
			    strlen(f->rel_root) == g->prefix_len &&
			    strncmp(f->rel_root, g->pattern, g->prefix_len) == 0;

		/* The same rule and the same static prefix, or not ours. */
		return same ? g : NULL;
	}
	return NULL;
}

/* An allow the plan dropped, offered again: with a mount namespace, stage
 * 3 keeps it when every fence that overlaps it can be masked. */
static int sources_readmit(struct lf_sandbox_input *in, const struct lf_effective *e,
			   const struct lf_plan *plan)
{
	for (size_t i = 0; i < lf_plan_dropped_count(plan); i++) {
		const struct lf_dropped *d = lf_plan_dropped(plan, i);
		enum lf_layer layer = layer_of(e, &d->allow);
		int r;

		if (!d || !d->abs_root || !(d->access & (RO | RW)))
			continue;
		r = cand_new(in, strdup(d->abs_root), d->access & (RO | RW), LF_ORIGIN_POLICY,
			     LF_CAND_READMIT,
			     xasprintf("policy allow at %s %s:%u:%u (its fences are masked)",
				       lf_layer_name(layer),
				       d->allow.file ? d->allow.file : "<memory>", d->allow.line,
				       d->allow.column),
			     d->allow, layer);
		if (r < 0)
			return r;
	}
	return 0;
}

static int sources_plan(struct lf_sandbox_input *in, const struct lf_effective *e,
			const struct lf_plan *plan)
{
	struct fence_cursor cur = { 0, 0 };
	struct grant_index gi;
	int r;

	for (size_t i = 0; i < lf_plan_fence_count(plan); i++) {
		const struct lf_fence *f = lf_plan_fence(plan, i);

		if (!f || !f->abs_root)
			continue;
		r = fence_new(in, f->abs_root, f->access, f->effect, LF_ORIGIN_POLICY, f->source,
			      layer_of(e, &f->source));
		if (r < 0)
			return r;
		in->fences[in->nfences - 1].glob = fence_glob(e, f, i, &cur);
	}
	if (in->host.ns && (r = sources_readmit(in, e, plan)) < 0)
		return r;
	if ((r = grant_index_build(&gi, e)) < 0)
		return r;
	for (size_t i = 0; i < lf_plan_grant_count(plan); i++) {
		const struct lf_grant *g = lf_plan_grant(plan, i);
		const struct lf_rule *rule;
		struct lf_source src = { 0 };
		enum lf_layer layer = LF_LAYER_LOCAL;
		char *why;

		if (!g || !g->abs_root || !(g->access & (RO | RW)))
			continue;
		rule = grant_rule(e, &gi, in->host.project_root, g);
		if (rule) {
			src = rule->source;
			layer = rule->layer;
			why = allow_why(lf_layer_name(layer), src.file ? src.file : "<memory>",
					src.line, src.column);
		} else {
			why = strdup("policy allow");
		}
		r = cand_new(in, strdup(g->abs_root), g->access & (RO | RW), LF_ORIGIN_POLICY, 0,
			     why, src, layer);
		if (r < 0) {
			free(gi.v);
			return r;
		}
	}
	free(gi.v);
	if (in->posture == LF_ALLOW)
		return cand_new(in, strdup(in->host.project_root), RO | RW, LF_ORIGIN_FALLBACK, 0,
				strdup("fallback allow (an implicit allow ** for each class)"),
				(struct lf_source){ 0 }, LF_LAYER_LOCAL);
	return 0;
}

static int sources_host_table(struct lf_sandbox_input *in)
{
	const struct lf_source none = { 0 };
	int r = 0;

	for (size_t i = 0; i < lf_host_table_len && r == 0; i++) {
		const struct lf_host_row *row = &lf_host_table[i];
		unsigned flags = LF_CAND_QUIET_MISSING;
		enum lf_origin origin = LF_ORIGIN_HOST;
		char *path = NULL;

		switch (row->kind) {
		case LF_HOST_ETC:
			flags |= LF_CAND_LIST;
			break;
		case LF_HOST_TERMINAL:
			flags |= LF_CAND_TERMINAL;
			/* fall through */
		case LF_HOST_DEVICE:
			flags |= LF_CAND_DEVICE;
			origin = LF_ORIGIN_DEVICE;
			break;
		default:
			break;
		}
		r = home_expand(&in->host, row->path, &path);
		if (r == -ENOENT) {
			r = 0; /* no home: nothing there to grant */
			continue;
		}
		if (r == 0)
			r = cand_new(in, path, lf_host_access(row->kind), origin, flags,
				     strdup(row->why), none, LF_LAYER_LOCAL);
		/* landfence's own configuration (user policy, trust store):
		 * readable so that `landfence hook claude` and `check` work
		 * inside the sandbox; never writable (the built-in fence). */
		if (r == 0 && row->kind == LF_HOST_ETC && in->host.config_dir)
			r = cand_new(in, strdup(in->host.config_dir), RO, LF_ORIGIN_HOST,
				     LF_CAND_QUIET_MISSING,
				     strdup("host: landfence configuration (read-only)"), none,
				     LF_LAYER_LOCAL);
	}
	if (r == 0 && in->host.run_dir)
		r = cand_new(in, strdup(in->host.run_dir), RO | RW, LF_ORIGIN_RUN_DIR, 0,
			     strdup("run directory (TMPDIR)"), none, LF_LAYER_LOCAL);
	for (size_t i = 0; r == 0 && i < in->host.ndiscovered; i++) {
		const struct lf_discovered *d = &in->host.discovered[i];
		static const enum lf_origin origins[] = {
			[LF_DISCOVERED_TOOLCHAIN] = LF_ORIGIN_TOOLCHAIN,
			[LF_DISCOVERED_COMMAND] = LF_ORIGIN_COMMAND,
			[LF_DISCOVERED_SELF] = LF_ORIGIN_SELF,
			[LF_DISCOVERED_GIT] = LF_ORIGIN_GIT,
		};

		if (!d->path || d->path[0] != '/' || (unsigned)d->kind > LF_DISCOVERED_GIT)
			continue;
		/* A discovered place under a host grant of the same classes
		 * adds nothing (a PATH entry below /usr): it is left out. */
		r = cand_new(in, strdup(d->path), d->access & (RO | RW), origins[d->kind],
			     (d->flags & LF_CAND_MAKE_DIR) | LF_CAND_UNCOVERED,
			     strdup(d->why ? d->why : "discovered"), none, LF_LAYER_LOCAL);
	}
	return r;
}

static int sources_host_policy(struct lf_sandbox_input *in, const struct lf_effective *e,
			       struct lf_diag *diag)
{
	for (size_t l = 0; e && l < e->nlayers; l++) {
		const struct lf_policy *pol = e->layers[l];
		const struct lf_source src = { .file = pol->file };

		for (int w = 0; w < 2; w++) {
			const struct lf_strv *sv = w ? &pol->host_write : &pol->host_read;
			/* Writing a place one cannot read is no use: host.write
			 * grants both. */
			unsigned access = w ? RO | RW : RO;

			for (size_t i = 0; i < sv->n; i++) {
				char *path = NULL;
				int r = home_expand(&in->host, sv->v[i], &path);

				if (r == -EINVAL || r == -ENOENT) {
					lf_diag_set(diag, "", 0, 0, "%s: host.%s \"%s\": %s",
						    pol->file ? pol->file : "",
						    w ? "write" : "read", sv->v[i],
						    r == -EINVAL
							    ? "must be absolute or start with ~/"
							    : "no home directory to expand ~");
					return -EINVAL;
				}
				if (r < 0)
					return r;
				r = cand_new(in, path, access, LF_ORIGIN_HOST_POLICY, 0,
					     xasprintf("host.%s %s (%s %s)", w ? "write" : "read",
						       sv->v[i], lf_layer_name(pol->layer),
						       pol->file ? pol->file : "policy"),
					     src, pol->layer);
				if (r < 0)
					return r;
			}
		}
	}
	return 0;
}

static int sources_profile(struct lf_sandbox_input *in, const char *name, struct lf_source src,
			   enum lf_layer layer, struct lf_diag *diag)
{
	const struct lf_profile *p = lf_profile_find(name);
	char names[128];

	if (!p) {
		lf_profile_list(names, sizeof(names), false);
		lf_diag_set(diag, "", 0, 0, "unknown profile \"%s\", expected one of %s", name,
			    names);
		return -EINVAL;
	}
	for (const struct lf_profile_path *pp = p->paths; pp->path; pp++) {
		char *path = NULL;
		int r = home_expand(&in->host, pp->path, &path);

		if (r == -ENOENT) {
			/* Reported as skipped: the profile asked for it. */
			path = strdup(pp->path);
			r = 0;
		}
		if (r < 0)
			return r;
		unsigned flags = pp->flags & LF_PROFILE_OPTIONAL ? LF_CAND_QUIET_MISSING
				 : pp->flags & LF_PROFILE_FILE	 ? LF_CAND_MAKE_FILE
								 : LF_CAND_MAKE_DIR;
		r = cand_new(in, path, pp->access, LF_ORIGIN_PROFILE, flags,
			     src.file ? xasprintf("profile %s (%s %s)", name, lf_layer_name(layer),
						  src.file)
				      : xasprintf("profile %s", name),
			     src, layer);
		if (r < 0)
			return r;
		in->cands[in->ncands - 1].make_content = pp->content;
	}
	return 0;
}

/* Profiles named by the caller, then by every layer of the policy, each
 * once. */
static int sources_profiles(struct lf_sandbox_input *in, const struct lf_effective *e,
			    const char *const *profiles, size_t nprofiles, struct lf_diag *diag)
{
	size_t nlayers = e ? e->nlayers : 0;
	const char **seen = NULL;
	size_t nseen = 0, cap = 0;
	int r = 0;

	for (size_t pass = 0; pass <= nlayers && r == 0; pass++) {
		const char *const *names = profiles;
		size_t n = profiles ? nprofiles : 0;
		struct lf_source src = { 0 };
		enum lf_layer layer = LF_LAYER_LOCAL;

		if (pass > 0) {
			const struct lf_policy *pol = e->layers[pass - 1];
			names = (const char *const *)pol->profiles.v;
			n = pol->profiles.n;
			src.file = pol->file;
			layer = pol->layer;
		}
		for (size_t i = 0; i < n && r == 0; i++) {
			bool dup = false;

			if (!names[i]) {
				lf_diag_set(diag, "", 0, 0, "profile name is NULL");
				r = -EINVAL;
				break;
			}
			for (size_t j = 0; j < nseen && !dup; j++)
				dup = strcmp(seen[j], names[i]) == 0;
			if (dup)
				continue;
			if (lf_grow((void **)&seen, &cap, nseen, sizeof(*seen)) < 0) {
				r = -ENOMEM;
				break;
			}
			seen[nseen++] = names[i];
			r = sources_profile(in, names[i], src, layer, diag);
		}
	}
	free(seen);
	return r;
}

static int env_add(struct lf_sandbox_input *in, const char *name, char *why)
{
	for (size_t i = 0; i < in->nenv; i++)
		if (!strcmp(in->env[i].name, name)) {
			free(why);
			return 0;
		}
	if (!why || lf_grow((void **)&in->env, &in->env_cap, in->nenv, sizeof(*in->env)) < 0) {
		free(why);
		return -ENOMEM;
	}
	char *copy = strdup(name);
	if (!copy) {
		free(why);
		return -ENOMEM;
	}
	in->env[in->nenv++] = (struct lf_env_in){ copy, why };
	return 0;
}

/* Whether any layer's list at offset field of struct lf_policy (a
 * struct lf_strv: env.keep, protect.lift) holds name. */
static bool layers_list_has(const struct lf_effective *e, size_t field, const char *name)
{
	for (size_t l = 0; e && l < e->nlayers; l++) {
		const struct lf_strv *v =
			(const struct lf_strv *)(const void *)((const char *)e->layers[l] + field);

		for (size_t i = 0; i < v->n; i++)
			if (!strcmp(v->v[i], name))
				return true;
	}
	return false;
}

static bool env_kept(const struct lf_effective *e, const char *name)
{
	return layers_list_has(e, offsetof(struct lf_policy, env_keep), name);
}

/* The scrub: the default list less what a layer keeps, what a layer
 * unsets, and landfence's own controls, which nothing keeps. */
static int sources_env(struct lf_sandbox_input *in, const struct lf_effective *e)
{
	int r = 0;

	for (size_t i = 0; lf_env_default_scrub[i] && r == 0; i++)
		if (!env_kept(e, lf_env_default_scrub[i]))
			r = env_add(in, lf_env_default_scrub[i], strdup("default scrub list"));
	for (size_t l = 0; e && l < e->nlayers && r == 0; l++) {
		const struct lf_policy *p = e->layers[l];
		for (size_t i = 0; i < p->env_unset.n && r == 0; i++)
			r = env_add(in, p->env_unset.v[i], xasprintf("env.unset (%s)", p->file));
	}
	if (r == 0)
		r = env_add(in, "LANDFENCE_*", strdup("landfence's own controls"));
	return r;
}

static int protect_new(struct lf_sandbox_input *in, enum lf_protect_base base, const char *rel,
		       char *name, const char *why, bool watch_only, bool from_policy)
{
	if (!name || lf_grow((void **)&in->protects, &in->protects_cap, in->nprotects,
			     sizeof(*in->protects)) < 0) {
		free(name);
		return -ENOMEM;
	}
	in->protects[in->nprotects++] = (struct lf_protect_in){
		.base = base,
		.rel = rel,
		.name = name,
		.why = why,
		.watch_only = watch_only,
		.from_policy = from_policy,
	};
	return 0;
}

static bool protect_lifted(const struct lf_effective *e, const char *name)
{
	return layers_list_has(e, offsetof(struct lf_policy, protect_lift), name);
}

/* The protections: every row of the persistence table (a row a layer
 * lifts is only watched), then every layer's "protect.add". */
static int sources_protect(struct lf_sandbox_input *in, const struct lf_effective *e)
{
	static const enum lf_protect_base bases[] = { LF_PROTECT_PROJECT, LF_PROTECT_GITDIR,
						      LF_PROTECT_HOME };
	char name[512];
	int r = 0;

	for (size_t t = 0; t < 3 && r == 0; t++) {
		size_t n;
		const struct lf_persist_row *rows = lf_protect_rows(bases[t], &n);

		for (size_t i = 0; i < n && r == 0; i++) {
			lf_protect_row_name(bases[t], &rows[i], name, sizeof(name));
			r = protect_new(in, bases[t], rows[i].rel, strdup(name), rows[i].why,
					rows[i].flags & LF_PERSIST_WATCH, false);
			if (r == 0)
				in->protects[in->nprotects - 1].lifted = protect_lifted(e, name);
		}
	}
	for (size_t l = 0; e && l < e->nlayers && r == 0; l++) {
		const struct lf_policy *p = e->layers[l];

		for (size_t i = 0; i < p->protect_add.n && r == 0; i++) {
			const char *v = p->protect_add.v[i];
			bool home = strncmp(v, "~/", 2) == 0;

			r = protect_new(in, home ? LF_PROTECT_HOME : LF_PROTECT_PROJECT,
					home ? v + 2 : v, strdup(v),
					"a protection the policy adds (protect.add)", false, true);
		}
	}
	return r;
}

/* The layers that restrict the network pool by intersection: a port is
 * allowed only when every one of them allows it, as a deny of any layer
 * is never lifted. */
static int sources_net_class(struct lf_sandbox_input *in, const struct lf_effective *e, bool bind)
{
	const struct lf_ports *first = NULL;
	struct lf_ports *out = bind ? &in->net_bind : &in->net_connect;

	for (size_t l = 0; l < e->nlayers && !first; l++)
		if (e->layers[l]->has_network)
			first = bind ? &e->layers[l]->net_bind : &e->layers[l]->net_connect;
	for (size_t i = 0; first && i < first->n; i++) {
		bool all = true;

		for (size_t l = 0; l < e->nlayers && all; l++) {
			const struct lf_policy *p = e->layers[l];

			all = !p->has_network ||
			      lf_ports_has(bind ? &p->net_bind : &p->net_connect, first->v[i]);
		}
		if (all && lf_ports_add(out, first->v[i]) < 0)
			return -ENOMEM;
	}
	return 0;
}

static int sources_net(struct lf_sandbox_input *in, const struct lf_effective *e)
{
	for (size_t l = 0; e && l < e->nlayers; l++)
		in->net_restricted = in->net_restricted || e->layers[l]->has_network;
	if (!in->net_restricted)
		return 0;
	int r = sources_net_class(in, e, false);
	return r ? r : sources_net_class(in, e, true);
}

int lf_sandbox_sources(const struct lf_effective *e, const struct lf_plan *plan,
		       const struct lf_host *host, const char *const *profiles, size_t nprofiles,
		       struct lf_sandbox_input **out, struct lf_diag *diag)
{
	struct lf_sandbox_input *in;
	int r;

	if (!plan || !host || !out || !host->project_root || host->project_root[0] != '/') {
		lf_diag_set(diag, "", 0, 0,
			    "sandbox: a plan and an absolute project root are required");
		return -EINVAL;
	}
	in = calloc(1, sizeof(*in));
	if (!in)
		return -ENOMEM;
	in->host = *host;
	in->posture = lf_plan_default_posture(plan);
	r = sources_plan(in, e, plan);
	if (r == 0 && host->config_dir) {
		/* landfence's configuration directory holds the user policy
		 * and the trust store: a program that could write it would
		 * approve any policy for the next run. A write fence like a
		 * policy's, so every grant covering it loses write. */
		struct lf_source src = { .file = "landfence's own configuration (built in)" };
		r = fence_new(in, host->config_dir, RW, LF_DENY, LF_ORIGIN_BUILTIN, src,
			      LF_LAYER_MANAGED);
	}
	if (r == 0)
		r = sources_host_table(in);
	if (r == 0)
		r = sources_host_policy(in, e, diag);
	if (r == 0)
		r = sources_profiles(in, e, profiles, nprofiles, diag);
	if (r == 0)
		r = sources_env(in, e);
	if (r == 0)
		r = sources_protect(in, e);
	if (r == 0)
		r = sources_net(in, e);
	if (r < 0) {
		if (r == -ENOMEM && diag && !diag->message[0])
			lf_diag_set(diag, "", 0, 0, "out of memory");
		lf_sandbox_input_free(in);
		return r;
	}
	*out = in;
	return 0;
}

static void typed_paths_free(struct lf_typed_path *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i].path);
	free(v);
}

void lf_sandbox_input_free(struct lf_sandbox_input *in)
{
	if (!in)
		return;
	for (size_t i = 0; i < in->ncands; i++) {
		struct lf_cand *c = &in->cands[i];
		free(c->raw);
		free(c->why);
		free(c->canon);
		for (size_t k = 0; k < c->nlist; k++) {
			free(c->list[k].path);
			free(c->list[k].canon);
		}
		free(c->list);
		free(c->list_err);
	}
	free(in->cands);
	for (size_t i = 0; i < in->nfences; i++) {
		struct lf_fence_in *f = &in->fences[i];

		free(f->raw);
		free(f->canon);
		free(f->expand_err);
		typed_paths_free(f->matches, f->nmatches);
		for (size_t k = 0; k < f->naliases; k++)
			free(f->aliases[k]);
		free(f->aliases);
	}
	free(in->fences);
	for (size_t i = 0; i < in->nprotects; i++)
		free(in->protects[i].name);
	free(in->protects);
	for (size_t i = 0; i < in->nprotect_paths; i++)
		free(in->protect_paths[i].path);
	free(in->protect_paths);
	lf_strv_fini(&in->gitdirs);
	free(in->etc_err);
	typed_paths_free(in->etc_hidden, in->netc_hidden);
	for (size_t i = 0; i < in->netc_aliases; i++) {
		free(in->etc_aliases[i]);
		free(in->etc_alias_shown ? in->etc_alias_shown[i] : NULL);
	}
	free(in->etc_aliases);
	free(in->etc_alias_shown);
	lf_strv_fini(&in->fact_notes);
	for (size_t i = 0; i < in->nenv; i++) {
		free(in->env[i].name);
		free(in->env[i].why);
	}
	free(in->env);
	lf_ports_fini(&in->net_connect);
	lf_ports_fini(&in->net_bind);
	free(in->command_canon);
	free(in->interp_canon);
	free(in);
}

/* ------------------------------------------------------------------------
 * Stage 3: fencing and merging
 */

/* A grant with its canonical path, as stage 3 sees it. */
struct grant {
	const char *path;
	unsigned access;
	enum lf_origin origin;
	const char *why;
	struct lf_source source;
	enum lf_layer layer;
	signed char dir;
	bool device;
	bool ioctl_dev;
};

/* Which form of its input fence a fence of the value is. */
enum {
	LF_FORM_RAW = 0,   /* as written (the project root joined with the prefix) */
	LF_FORM_CANON = 1, /* where it really is */
	LF_FORM_ALIAS = 2, /* another mount path that shows the same place */
};

static int fences_grow(struct lf_sandbox *sb)
{
	size_t old_cap = sb->fences_cap;

	if (lf_grow((void **)&sb->fences, &sb->fences_cap, sb->nfences, sizeof(*sb->fences)) < 0)
		return -ENOMEM;
	if (sb->fences_cap == old_cap)
		return 0;
	size_t *src = reallocarray(sb->fence_src, sb->fences_cap, sizeof(*src));
	if (!src)
		return -ENOMEM;
	sb->fence_src = src;
	unsigned char *form = reallocarray(sb->fence_form, sb->fences_cap, sizeof(*form));
	if (!form)
		return -ENOMEM;
	sb->fence_form = form;
	return 0;
}

static int fence_push(struct lf_sandbox *sb, const struct lf_sandbox_input *in, const char *raw,
		      size_t src, unsigned form)
{
	const struct lf_fence_in *f = &in->fences[src];
	char *path = NULL;

	if (lf_path_clean_dup(raw, &path) < 0)
		return -ENOMEM;
	/* Two fences on one place of one class are one, unless their globs
	 * differ: whether a fence can be masked depends on its glob
	 * ("**" cannot be at the grant, "*.pem" can be expanded). */
	for (size_t i = 0; i < sb->nfences; i++) {
		const struct lf_fence_in *o = &in->fences[sb->fence_src[i]];

		if (sb->fences[i].access == f->access && strcmp(sb->fences[i].path, path) == 0 &&
		    (o->glob == f->glob ||
		     (o->glob && f->glob && !strcmp(o->glob->pattern, f->glob->pattern)))) {
			free(path);
			return 0;
		}
	}
	if (fences_grow(sb) < 0) {
		free(path);
		return -ENOMEM;
	}
	sb->fence_src[sb->nfences] = src;
	sb->fence_form[sb->nfences] = (unsigned char)form;
	sb->fences[sb->nfences++] = (struct lf_sandbox_fence){
		.path = path,
		.access = f->access,
		.effect = f->effect,
		.origin = f->origin,
		.source = f->source,
		.layer = f->layer,
		.mechanism = LF_MECH_UNREACHED,
	};
	return 0;
}

/* How a fence ended up: a mask wins over a drop (both may happen, for
 * two grants), and the first reason given is kept. */
static int fence_mech_set(struct lf_sandbox *sb, size_t i, enum lf_mechanism m, const char *why)
{
	struct lf_sandbox_fence *f = &sb->fences[i];

	if (f->mechanism == LF_MECH_MASK && m != LF_MECH_MASK)
		return 0;
	if (f->mechanism == m && f->mechanism_why)
		return 0;
	if (f->mechanism != m) {
		free((char *)f->mechanism_why);
		f->mechanism_why = NULL;
	}
	f->mechanism = m;
	if (why && why[0] && !(f->mechanism_why = strdup(why)))
		return -ENOMEM;
	return 0;
}

/* ------------------------------------------------------------------------
 * Masks (doc/landlock.md, "Masks")
 */

static bool rules_cover(const struct lf_sandbox *sb, const char *path, unsigned access);

static bool strictly_below(const char *root, const char *p)
{
	return lf_path_covers(root, p) && strcmp(root, p) != 0;
}

static enum lf_mask_kind mask_kind(unsigned cls, enum lf_ftype type)
{
	if (cls == RW)
		return LF_MASK_READ_ONLY;
	return type == LF_FT_DIR ? LF_MASK_HIDE_DIR : LF_MASK_HIDE_FILE;
}

/* Adds a mask on path, or makes the one there stricter (a hidden path is
 * read-only too). why is taken (freed on every path). */
static int mask_add(struct lf_sandbox *sb, const char *path, enum lf_mask_kind kind,
		    enum lf_origin origin, struct lf_source src, enum lf_layer layer, char *why)
{
	unsigned access = kind == LF_MASK_READ_ONLY ? RW : RO;
	struct lf_sandbox_mask *m;

	if (!why)
		return -ENOMEM;
	for (size_t i = 0; i < sb->nmasks; i++) {
		m = &sb->masks[i];
		if (strcmp(m->path, path) != 0)
			continue;
		if (m->kind == LF_MASK_READ_ONLY && kind != LF_MASK_READ_ONLY) {
			free((char *)m->why);
			m->kind = kind;
			m->access = access;
			m->origin = origin;
			m->source = src;
			m->layer = layer;
			m->why = why;
			return 0;
		}
		free(why);
		return 0;
	}
	if (lf_grow((void **)&sb->masks, &sb->masks_cap, sb->nmasks, sizeof(*sb->masks)) < 0) {
		free(why);
		return -ENOMEM;
	}
	char *copy = strdup(path);
	if (!copy) {
		free(why);
		return -ENOMEM;
	}
	sb->masks[sb->nmasks++] = (struct lf_sandbox_mask){
		.path = copy,
		.access = access,
		.source = src,
		.layer = layer,
		.kind = kind,
		.origin = origin,
		.why = why,
	};
	return 0;
}

/* The mask that keeps class cls from path (at it or above it), or NULL:
 * a hidden place refuses both classes, a read-only one writes. */
static const struct lf_sandbox_mask *mask_over(const struct lf_sandbox *sb, const char *path,
					       unsigned cls)
{
	for (size_t i = 0; i < sb->nmasks; i++) {
		const struct lf_sandbox_mask *m = &sb->masks[i];

		if ((m->kind != LF_MASK_READ_ONLY || cls == RW) && lf_path_covers(m->path, path))
			return m;
	}
	return NULL;
}

bool lf_sandbox_masked(const struct lf_sandbox *sb, const char *path, unsigned cls)
{
	return mask_over(sb, path, cls) != NULL;
}

static const char *ftype_words(enum lf_ftype t)
{
	switch (t) {
	case LF_FT_NONE:
		return "does not exist at launch";
	case LF_FT_LINK:
		return "is a symbolic link (a mount cannot cover it)";
	case LF_FT_OTHER:
		return "is not a regular file or a directory";
	default:
		return NULL;
	}
}

/* Whether fence i can be masked for grant g (the grant keeps its class),
 * else why not (into why). The refinement of the seed's rule (doc/
 * model.md): a fence strictly below the grant, existing at launch as a
 * file or a directory reached without a symbolic link, is masked at its
 * static prefix, which covers every path its glob can match, now and
 * later; a read fence whose glob needs its tail ("**" then "*.pem" at the
 * grant) is expanded against the tree and each match masked, and what
 * matches later is not covered (said by `plan`). Anything else is the
 * seed's drop. */
static bool fence_maskable(const struct lf_sandbox *sb, const struct lf_sandbox_input *in, size_t i,
			   const char *gpath, char *why, size_t size)
{
	const struct lf_sandbox_fence *f = &sb->fences[i];
	const struct lf_fence_in *F = &in->fences[sb->fence_src[i]];
	const char *p = f->path;

	why[0] = '\0';
	if (!in->host.ns) {
		lf_text(why, size, "no mount namespace here%s%s", in->host.ns_failed ? ": " : "",
			in->host.ns_failed ? in->host.ns_failed : "");
		return false;
	}
	if (sb->fence_form[i] == LF_FORM_RAW && F->canon && strcmp(p, F->canon) != 0) {
		lf_text(why, size, "the path goes through a symbolic link (%s)", F->canon);
		return false;
	}
	if (strictly_below(gpath, p)) {
		if (F->type == LF_FT_DIR || F->type == LF_FT_FILE)
			return true;
		lf_text(why, size, "%s", ftype_words(F->type));
		return false;
	}
	/* The fence covers the grant: only matches can be masked. */
	if (!F->glob || !F->expanded) {
		lf_text(why, size,
			F->glob && F->access == RW && F->glob->pattern[F->glob->prefix_len]
				? "its glob would need expanding, and a matching path made "
				  "during the run could be written"
				: "it covers the grant itself");
		return false;
	}
	if (F->expand_err) {
		lf_text(why, size, "its glob could not be expanded: %s", F->expand_err);
		return false;
	}
	/* The glob's own reach: a glob that matches the grant itself (or a
	 * place above it) cannot be masked below it ("**" then "**"). */
	const char *root = in->host.project_root;
	size_t rl = strcmp(root, "/") ? strlen(root) : 0;
	if (!lf_path_covers(root, gpath)) {
		lf_text(why, size, "the grant %s lies outside the project", gpath);
		return false;
	}
	if (lf_glob_match(F->glob, gpath[rl] ? gpath + rl + 1 : "")) {
		lf_text(why, size, "its glob matches the grant itself");
		return false;
	}
	for (size_t k = 0; k < F->nmatches; k++) {
		const struct lf_typed_path *m = &F->matches[k];

		/* Anywhere: a link that matches names, through itself, a
		 * place the grant may reach, and a mount cannot cover it. */
		if (m->type != LF_FT_DIR && m->type != LF_FT_FILE) {
			lf_text(why, size, "its match %s %s", m->path, ftype_words(m->type));
			return false;
		}
		if (!lf_path_overlap(gpath, m->path))
			continue;
		if (!strictly_below(gpath, m->path)) {
			lf_text(why, size, "its match %s covers the grant itself", m->path);
			return false;
		}
	}
	return true;
}

static char *fence_words(const struct lf_fence_in *F)
{
	if (F->origin == LF_ORIGIN_BUILTIN)
		return xasprintf("%s", F->source.file ? F->source.file : "built in");
	return xasprintf("%s %s rule at %s:%u:%u", lf_effect_name(F->effect),
			 F->access == RO ? "read" : "write/delete",
			 F->source.file ? F->source.file : "<memory>", F->source.line,
			 F->source.column);
}

/* The masks fence i needs so that grant g keeps its class. */
static int fence_masks(struct lf_sandbox *sb, const struct lf_sandbox_input *in, size_t i,
		       const char *gpath)
{
	const struct lf_sandbox_fence *f = &sb->fences[i];
	const struct lf_fence_in *F = &in->fences[sb->fence_src[i]];
	char *words = fence_words(F), why[160];
	size_t n = 0;
	int r = 0;

	if (!words)
		return -ENOMEM;
	if (strictly_below(gpath, f->path)) {
		r = mask_add(sb, f->path, mask_kind(f->access, F->type), F->origin, F->source,
			     F->layer, strdup(words));
		r = r ?: fence_mech_set(sb, i, LF_MECH_MASK, NULL);
		free(words);
		return r;
	}
	for (size_t k = 0; k < F->nmatches && r == 0; k++) {
		const struct lf_typed_path *m = &F->matches[k];

		n += lf_path_covers(gpath, m->path);
		if (lf_path_covers(gpath, m->path))
			r = mask_add(sb, m->path, mask_kind(f->access, m->type), F->origin,
				     F->source, F->layer,
				     xasprintf("%s (matches %s)", words, F->glob->pattern));
	}
	free(words);
	lf_text(why, sizeof(why), "%zu %s at launch; a match made during the run is not hidden", n,
		n == 1 ? "path" : "paths");
	return r ?: fence_mech_set(sb, i, LF_MECH_MASK, why);
}

static int dropped_add(struct lf_sandbox *sb, const struct grant *g, unsigned access,
		       const struct lf_sandbox_fence *f, const char *reason)
{
	struct lf_sandbox_dropped *d;
	char *path, *why, *fence = NULL;

	if (lf_grow((void **)&sb->dropped, &sb->dropped_cap, sb->ndropped, sizeof(*sb->dropped)) <
	    0)
		return -ENOMEM;
	path = strdup(g->path);
	why = reason ? xasprintf("%s: %s", g->why, reason) : strdup(g->why);
	if (f)
		fence = strdup(f->path);
	if (!path || !why || (f && !fence)) {
		free(path);
		free(why);
		free(fence);
		return -ENOMEM;
	}
	d = &sb->dropped[sb->ndropped++];
	*d = (struct lf_sandbox_dropped){
		.path = path,
		.access = access,
		.origin = g->origin,
		.why = why,
		.fence = fence,
	};
	if (f) {
		d->fence_source = f->source;
		d->fence_layer = f->layer;
	}
	return 0;
}

#define RULE_FNV_BASIS 2166136261u
#define RULE_FNV_PRIME 16777619u

static struct lf_rule_key rule_key_of(const char *path)
{
	/* FNV-1a: the path index's hash, and a cheap filter before the
	 * full comparison. */
	struct lf_rule_key k = { 0, RULE_FNV_BASIS };

	for (; path[k.len]; k.len++)
		k.hash = (k.hash ^ (unsigned char)path[k.len]) * RULE_FNV_PRIME;
	return k;
}

static long rule_lookup(const struct lf_sandbox *sb, const char *path, size_t len, uint32_t hash)
{
	if (!sb->nslots)
		return -1;
	for (size_t s = hash & (sb->nslots - 1);; s = (s + 1) & (sb->nslots - 1)) {
		size_t v = sb->rule_slot[s];

		if (!v)
			return -1;
		v--;
		if (sb->rule_key[v].hash == hash && sb->rule_key[v].len == len &&
		    memcmp(sb->rules[v].path, path, len) == 0)
			return (long)v;
	}
}

long lf_sandbox_rule_find(const struct lf_sandbox *sb, const char *path, size_t len)
{
	uint32_t h = RULE_FNV_BASIS;

	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)path[i]) * RULE_FNV_PRIME;
	return rule_lookup(sb, path, len, h);
}

static void rule_slot_put(struct lf_sandbox *sb, size_t i)
{
	size_t s = sb->rule_key[i].hash & (sb->nslots - 1);

	while (sb->rule_slot[s])
		s = (s + 1) & (sb->nslots - 1);
	sb->rule_slot[s] = i + 1;
}

/* (Re)builds the path index for the first n rules, growing it so that it
 * stays at most half full. Paths are unique (rule_push merges). */
static int rule_index_build(struct lf_sandbox *sb, size_t n)
{
	size_t want = 64;

	while (want < 2 * (n + 1))
		want *= 2;
	if (want != sb->nslots) {
		size_t *v = calloc(want, sizeof(*v));

		if (!v)
			return -ENOMEM;
		free(sb->rule_slot);
		sb->rule_slot = v;
		sb->nslots = want;
	} else {
		memset(sb->rule_slot, 0, want * sizeof(*sb->rule_slot));
	}
	for (size_t i = 0; i < n; i++)
		rule_slot_put(sb, i);
	return 0;
}

/* Calls f on every rule whose path is an ancestor of path[0..len) (and
 * path itself unless strict), the root first; stops at, and returns true
 * for, the first on which f returns true. Each ancestor is looked up in
 * the index: O(depth), where comparing with every rule was O(rules). */
static bool rules_above_any(const struct lf_sandbox *sb, const char *path, size_t len, bool strict,
			    bool (*f)(const struct lf_sandbox *, size_t, const void *),
			    const void *ctx)
{
	uint32_t h = RULE_FNV_BASIS;
	long j;

	if (!len || path[0] != '/')
		return false;
	for (size_t i = 0; i < len; i++) {
		/* path[0..i) is an ancestor when path[i] is a separator;
		 * "/" (length 1) is the root's. */
		if (i == 1 && (j = rule_lookup(sb, path, 1, h)) >= 0 && f(sb, (size_t)j, ctx))
			return true;
		if (i > 1 && path[i] == '/' && (j = rule_lookup(sb, path, i, h)) >= 0 &&
		    f(sb, (size_t)j, ctx))
			return true;
		h = (h ^ (unsigned char)path[i]) * RULE_FNV_PRIME;
	}
	/* path itself ("/" was looked up above when len > 1). */
	if (!strict && (j = rule_lookup(sb, path, len, h)) >= 0 && f(sb, (size_t)j, ctx))
		return true;
	return false;
}

struct redundant_ctx {
	size_t i;
	uint64_t rights;
};

static bool dir_carries(const struct lf_sandbox *sb, size_t j, const void *ctx)
{
	const struct redundant_ctx *c = ctx;

	return j != c->i && sb->rule_dir[j] && (sb->rules[j].landlock & c->rights) == c->rights;
}

bool lf_sandbox_rule_redundant(const struct lf_sandbox *sb, size_t i, uint64_t rights)
{
	struct redundant_ctx c = { i, rights };

	return rules_above_any(sb, sb->rules[i].path, sb->rule_key[i].len, true, dir_carries, &c);
}

static int rule_merge(struct lf_sandbox_rule *fr, bool *device, const struct grant *g,
		      unsigned access)
{
	/* Same place from several sources: union, remember each. */
	fr->access |= access;
	fr->ioctl_dev = fr->ioctl_dev || g->ioctl_dev;
	*device = *device && g->device;
	if (!strstr(fr->why, g->why)) {
		char *why = xasprintf("%s; %s", fr->why, g->why);

		if (!why)
			return -ENOMEM;
		free((char *)fr->why);
		fr->why = why;
	}
	return 0;
}

static int rules_grow(struct lf_sandbox *sb)
{
	size_t old_cap = sb->rules_cap;

	if (lf_grow((void **)&sb->rules, &sb->rules_cap, sb->nrules, sizeof(*sb->rules)) < 0)
		return -ENOMEM;
	if (sb->rules_cap == old_cap)
		return 0;
	bool *d = reallocarray(sb->rule_dir, sb->rules_cap, sizeof(bool));
	if (!d)
		return -ENOMEM;
	sb->rule_dir = d;
	d = reallocarray(sb->rule_device, sb->rules_cap, sizeof(bool));
	if (!d)
		return -ENOMEM;
	sb->rule_device = d;
	struct lf_rule_key *k = reallocarray(sb->rule_key, sb->rules_cap, sizeof(*k));
	if (!k)
		return -ENOMEM;
	sb->rule_key = k;
	return 0;
}

static int rule_push(struct lf_sandbox *sb, const struct grant *g, unsigned access)
{
	struct lf_rule_key key = rule_key_of(g->path);
	struct lf_sandbox_rule *fr;
	long dup = rule_lookup(sb, g->path, key.len, key.hash);

	/* The same path again: merged (the index finds it in O(1)). */
	if (dup >= 0)
		return rule_merge(&sb->rules[dup], &sb->rule_device[dup], g, access);
	if (rules_grow(sb) < 0)
		return -ENOMEM;
	if (2 * (sb->nrules + 1) > sb->nslots && rule_index_build(sb, sb->nrules) < 0)
		return -ENOMEM;
	fr = &sb->rules[sb->nrules];
	*fr = (struct lf_sandbox_rule){
		.path = strdup(g->path),
		.why = strdup(g->why),
		.access = access,
		.ioctl_dev = g->ioctl_dev,
		.origin = g->origin,
		.source = g->source,
		.layer = g->layer,
	};
	if (!fr->path || !fr->why) {
		free((char *)fr->path);
		free((char *)fr->why);
		return -ENOMEM;
	}
	/* A type that changes before the ruleset is made is caught there:
	 * the adapter judges the path as it is then. */
	sb->rule_dir[sb->nrules] = g->dir > 0;
	sb->rule_device[sb->nrules] = g->device;
	sb->rule_key[sb->nrules] = key;
	rule_slot_put(sb, sb->nrules);
	sb->nrules++;
	return 0;
}

/* Removes from g every class a fence of that class overlaps and no mask
 * can take care of, reporting each (not for an allow the plan already
 * reported: readmit); masks the fences that can be; pushes what remains.
 * *kept (when not NULL) gets the classes kept. */
static int grant_fence(struct lf_sandbox *sb, const struct lf_sandbox_input *in,
		       const struct grant *g, bool readmit, unsigned *kept)
{
	unsigned keep = g->access;
	size_t glen = strlen(g->path), *masked = NULL;
	char why[600];
	int r = 0;

	for (unsigned cls = RO; cls <= RW && r == 0; cls <<= 1) {
		size_t nmasked = 0;
		bool dropped = false;

		if (!(g->access & cls))
			continue;
		for (size_t i = 0; i < sb->nfences && r == 0; i++) {
			const struct lf_sandbox_fence *f = &sb->fences[i];

			if (f->access != cls ||
			    !lf_path_overlap_n(g->path, glen, f->path, strlen(f->path)))
				continue;
			if (fence_maskable(sb, in, i, g->path, why, sizeof(why))) {
				if (!masked && !(masked = calloc(sb->nfences, sizeof(*masked))))
					r = -ENOMEM;
				else
					masked[nmasked++] = i;
				continue;
			}
			keep &= ~cls;
			dropped = true;
			r = fence_mech_set(sb, i, LF_MECH_DROP, why);
			if (r == 0 && !readmit)
				r = dropped_add(sb, g, cls, f, NULL);
			if (r == 0 && !readmit && f->origin == LF_ORIGIN_BUILTIN)
				r = lf_strv_pushf(
					&sb->notices,
					"write access to %s (%s) dropped: it covers "
					"landfence's configuration %s, which stays read-only",
					g->path, g->why, f->path);
			break;
		}
		for (size_t k = 0; !dropped && k < nmasked && r == 0; k++)
			r = fence_masks(sb, in, masked[k], g->path);
	}
	free(masked);
	if (r < 0)
		return r;
	if (kept)
		*kept = keep;
	if (!keep)
		return 0;
	return rule_push(sb, g, keep);
}

/* /etc as one rule, with a mount namespace: every entry others cannot
 * read (and every entry of the built-in list) hidden, at /etc and at
 * every other mount path that shows it. When the look at /etc could not
 * finish, /etc is not granted at all: fail closed. */
static int grant_etc(struct lf_sandbox *sb, const struct lf_sandbox_input *in,
		     const struct lf_cand *c)
{
	struct grant g = {
		.path = c->canon,
		.access = c->access,
		.origin = c->origin,
		.why = c->why,
		.source = c->source,
		.layer = c->layer,
		.dir = 1,
	};
	unsigned kept = 0;
	int r;

	if (in->etc_err)
		return lf_strv_pushf(&sb->notices,
				     "%s is not granted: its entries could not all be checked "
				     "(%s)",
				     c->canon, in->etc_err);
	r = grant_fence(sb, in, &g, false, &kept);
	/* Every entry others cannot read, found by the kernel at each
	 * access instead of by the walk (LF_MOUNT_ATTRS_OTHERS). */
	if (r == 0 && (kept & RO) && in->etc_others && !sb->others_path &&
	    !(sb->others_path = strdup(c->canon)))
		return -ENOMEM;
	for (size_t i = 0; r == 0 && (kept & RO) && i < in->netc_hidden; i++) {
		const struct lf_typed_path *h = &in->etc_hidden[i];
		enum lf_mask_kind kind = mask_kind(RO, h->type);

		r = mask_add(sb, h->path, kind, LF_ORIGIN_HOST, c->source, c->layer,
			     strdup(in->etc_others ? "host: a secret of the built-in list"
						   : "host: not readable by others"));
		for (size_t a = 0; r == 0 && a < in->netc_aliases; a++) {
			/* An alias that shows a place below /etc shows only
			 * the entries below that place. */
			const char *part = in->etc_alias_shown[a];
			size_t plen = strcmp(part, "/") ? strlen(part) : 0;

			if (!lf_path_covers(part, h->path))
				continue;
			char *alias = xasprintf("%s%s", in->etc_aliases[a], h->path + plen);

			if (!alias)
				return -ENOMEM;
			/* Reached through /etc's inode even where no rule
			 * names it (mask_aliases). */
			r = mask_add(sb, alias, kind, LF_ORIGIN_HOST, c->source, c->layer,
				     xasprintf("host: not readable by others (%s)", h->path));
			free(alias);
		}
	}
	return r;
}

/* Whether a hidden entry of the listing lies at or below path. */
static bool listing_dirty(const struct lf_listing_entry *const *hidden, size_t nhidden,
			  const char *path)
{
	for (size_t i = 0; i < nhidden; i++)
		if (lf_path_covers(path, hidden[i]->path))
			return true;
	return false;
}

/* /etc by permission, without a mount namespace to mask in (doc/
 * landlock.md, "/etc"): the listing holds every entry of /etc, each
 * marked hidden when others cannot read it (or it is a row of the
 * built-in list). Granted are the largest subtrees holding nothing
 * hidden: /etc itself when it is clean, else each clean entry of a
 * directory that is not, down to the hidden ones, which are never
 * granted. A link is judged by where it leads as well. A listing that
 * could not finish grants nothing (fail closed); entries created after
 * it are not granted. */
static int grant_listing(struct lf_sandbox *sb, const struct lf_sandbox_input *in,
			 const struct lf_cand *c)
{
	const struct lf_listing_entry **hidden = NULL;
	size_t nhidden = 0, clen = strlen(c->canon);
	int r = 0;

	if (c->list_err)
		return lf_strv_pushf(&sb->notices,
				     "%s is not granted: its entries could not all be checked "
				     "(%s)",
				     c->canon, c->list_err);
	hidden = calloc(c->nlist + 1, sizeof(*hidden));
	if (!hidden)
		return -ENOMEM;
	for (size_t i = 0; i < c->nlist; i++)
		if (c->list[i].hidden)
			hidden[nhidden++] = &c->list[i];
	if (!nhidden) {
		struct grant g = {
			.path = c->canon,
			.access = c->access,
			.origin = c->origin,
			.why = c->why,
			.source = c->source,
			.layer = c->layer,
			.dir = 1,
		};

		free(hidden);
		return grant_fence(sb, in, &g, false, NULL);
	}
	for (size_t i = 0; r == 0 && i < c->nlist; i++) {
		const struct lf_listing_entry *le = &c->list[i];
		const char *slash = strrchr(le->path, '/');
		size_t plen = slash ? (size_t)(slash - le->path) : 0;

		/* A dangling link grants nothing; a hidden entry, or one
		 * holding one, is not granted whole. */
		if (!le->canon || le->hidden || listing_dirty(hidden, nhidden, le->path))
			continue;
		/* Only the top of a clean subtree: its parent is /etc or
		 * holds something hidden. */
		if (plen != clen) {
			char *parent = strndup(le->path, plen);
			bool top;

			if (!parent) {
				r = -ENOMEM;
				break;
			}
			top = listing_dirty(hidden, nhidden, parent);
			free(parent);
			if (!top)
				continue;
		}
		/* A link into a hidden part of /etc, or onto a row of the
		 * built-in list. */
		if (lf_etc_is_hidden(le->canon) || listing_dirty(hidden, nhidden, le->canon))
			continue;
		struct grant g = {
			.path = le->canon,
			.access = c->access,
			.origin = c->origin,
			.why = c->why,
			.source = c->source,
			.layer = c->layer,
			.dir = le->type == DT_DIR	? 1
			       : le->type == DT_UNKNOWN ? -1
							: 0,
		};
		r = grant_fence(sb, in, &g, false, NULL);
	}
	free(hidden);
	return r;
}

static int grant_cand(struct lf_sandbox *sb, const struct lf_sandbox_input *in,
		      const struct lf_cand *c)
{
	struct grant g = {
		.path = c->canon ? c->canon : c->raw,
		.access = c->access,
		.origin = c->origin,
		.why = c->why,
		.source = c->source,
		.layer = c->layer,
		.dir = c->dir,
		.device = c->flags & LF_CAND_DEVICE,
	};

	bool readmit = c->flags & LF_CAND_READMIT;
	unsigned kept = 0;
	int r;

	if (c->flags & LF_CAND_LIST) {
		if (!c->canon)
			return 0;
		return in->etc_checked ? grant_etc(sb, in, c) : grant_listing(sb, in, c);
	}
	if (readmit && !c->canon)
		return 0; /* the plan reports it */
	if (c->raw[0] != '/')
		return dropped_add(sb, &g, c->access, NULL, "no home directory");
	if (!c->canon) {
		/* A source that does not resolve is skipped and reported,
		 * never replaced by its parent; a host-table row that this
		 * machine lacks (/libx32) is not news. */
		if ((c->flags & LF_CAND_QUIET_MISSING) && c->err == ENOENT)
			return 0;
		/* A place `run` makes: `plan` says so. */
		if (c->make_err) {
			char reason[160];

			snprintf(reason, sizeof(reason), "does not exist, and cannot be made: %s",
				 strerror(c->make_err));
			return dropped_add(sb, &g, c->access, NULL, reason);
		}
		if ((c->flags & (LF_CAND_MAKE_DIR | LF_CAND_MAKE_FILE)) && c->err == ENOENT)
			return dropped_add(sb, &g, c->access, NULL,
					   "does not exist yet: `landfence run` makes it");
		return dropped_add(sb, &g, c->access, NULL, strerror(c->err ? c->err : ENOENT));
	}
	g.ioctl_dev = (c->flags & LF_CAND_TERMINAL) && lf_host_terminal(c->canon);
	if (c->made) {
		r = lf_strv_pushf(&sb->notices, "made %s (%s) before the program started", c->raw,
				  c->why);
		if (r < 0)
			return r;
	}
	r = grant_fence(sb, in, &g, readmit, &kept);
	for (unsigned cls = RO; r == 0 && readmit && cls <= RW; cls <<= 1)
		if (kept & cls)
			r = lf_strv_pushf(&sb->readmitted, "%u\t%s", cls, c->raw);
	return r;
}

static bool host_dir_carries(const struct lf_sandbox *sb, size_t j, const void *ctx)
{
	unsigned access = *(const unsigned *)ctx;

	return sb->rules[j].origin == LF_ORIGIN_HOST && sb->rule_dir[j] &&
	       (sb->rules[j].access & access) == access;
}

/* Default host grants that resolve below another one carrying the same
 * classes ("/bin" is "/usr/bin" on merged-/usr systems) add nothing: fold
 * them so the listing shows what the kernel gets. Only host-table grants
 * are folded, so every other source stays visible. */
static int rules_fold_host(struct lf_sandbox *sb)
{
	bool *fold = calloc(sb->nrules ? sb->nrules : 1, sizeof(bool));
	size_t out = 0;

	if (!fold)
		return -ENOMEM;
	/* Decide on the whole list first, then compact: each host rule's
	 * ancestors looked up in the index. */
	for (size_t i = 0; i < sb->nrules; i++) {
		const struct lf_sandbox_rule *fr = &sb->rules[i];

		fold[i] = fr->origin == LF_ORIGIN_HOST &&
			  rules_above_any(sb, fr->path, sb->rule_key[i].len, true, host_dir_carries,
					  &fr->access);
	}
	for (size_t i = 0; i < sb->nrules; i++) {
		if (fold[i]) {
			free((char *)sb->rules[i].path);
			free((char *)sb->rules[i].why);
			continue;
		}
		sb->rules[out] = sb->rules[i];
		sb->rule_dir[out] = sb->rule_dir[i];
		sb->rule_device[out] = sb->rule_device[i];
		sb->rule_key[out] = sb->rule_key[i];
		out++;
	}
	sb->nrules = out;
	free(fold);
	return rule_index_build(sb, sb->nrules);
}

static bool access_carried(const struct lf_sandbox *sb, size_t j, const void *ctx)
{
	unsigned access = *(const unsigned *)ctx;

	return (sb->rules[j].access & access) == access;
}

/* Whether a rule at path or above it carries access: path and each of its
 * ancestors looked up in the index. */
static bool rules_cover(const struct lf_sandbox *sb, const char *path, unsigned access)
{
	return rules_above_any(sb, path, strlen(path), false, access_carried, &access);
}

/* The command, then its interpreter, granted read+execute when no
 * surviving rule lets them be read. Fenced like every grant. */
static int grant_command(struct lf_sandbox *sb, const struct lf_sandbox_input *in)
{
	const char *what[2] = { "the command", "interpreter of the command" };
	const char *paths[2] = { in->command_canon, in->interp_canon };
	int r = 0;

	if (!in->command_canon)
		return 0;
	for (int i = 0; i < 2 && r == 0; i++) {
		if (!paths[i] || rules_cover(sb, paths[i], RO))
			continue;
		struct grant g = {
			.path = paths[i],
			.access = RO,
			.origin = LF_ORIGIN_COMMAND,
			.why = what[i],
			.dir = 0,
		};
		r = grant_fence(sb, in, &g, false, NULL);
		if (r == 0 && rules_cover(sb, paths[i], RO))
			r = lf_strv_pushf(
				&sb->notices,
				"granted read+execute on %s (%s), outside the host grants",
				paths[i], what[i]);
	}
	return r;
}

static void status_set(struct lf_sandbox *sb, enum lf_status_kind kind, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void status_set(struct lf_sandbox *sb, enum lf_status_kind kind, const char *fmt, ...)
{
	va_list ap;

	sb->status.kind = kind;
	sb->status.reason[0] = '\0';
	if (!fmt)
		return;
	va_start(ap, fmt);
	vsnprintf(sb->status.reason, sizeof(sb->status.reason), fmt, ap);
	va_end(ap);
}

static const char *landlock_hint(int err)
{
	if (err == ENOSYS)
		return "Hint: this kernel has no Landlock; build it with "
		       "CONFIG_SECURITY_LANDLOCK=y "
		       "(Linux 5.13 or later) and list landlock in CONFIG_LSM";
	if (err == EOPNOTSUPP)
		return "Hint: Landlock is built in but not enabled; add landlock to the lsm= boot "
		       "parameter (e.g. lsm=landlock,lockdown,yama,integrity,apparmor) and reboot";
	return NULL;
}

const char *lf_landlock_hint(int err)
{
	return landlock_hint(err);
}

static int status_compute(struct lf_sandbox *sb)
{
	bool all_writable = false;
	int r = 0;

	for (size_t i = 0; i < sb->nrules; i++)
		if (strcmp(sb->rules[i].path, "/") == 0 && (sb->rules[i].access & RW))
			all_writable = true;

	if (sb->abi == 0) {
		if (sb->probe.kernel > 0)
			status_set(sb, LF_STATUS_UNSUPPORTED,
				   "Landlock turned off by the ABI cap (LANDFENCE_ABI_MAX=0)");
		else if (sb->probe.err == EOPNOTSUPP)
			status_set(sb, LF_STATUS_UNSUPPORTED,
				   "Landlock is built into this kernel but not enabled");
		else
			status_set(sb, LF_STATUS_UNSUPPORTED, "this kernel has no Landlock");
		if (landlock_hint(sb->probe.err))
			r = lf_strv_pushf(&sb->notices, "%s", landlock_hint(sb->probe.err));
		return r;
	}
	if (sb->abi < 3 && !all_writable)
		status_set(sb, LF_STATUS_DEGRADED,
			   "truncate is not enforced below Landlock ABI 3 (ABI %d): truncate(2) "
			   "and O_TRUNC work on any file the program can reach",
			   sb->abi);
	else if (sb->net_restricted && sb->abi < 4)
		status_set(sb, LF_STATUS_DEGRADED,
			   "the policy restricts TCP, which needs Landlock ABI 4 (ABI %d): the "
			   "program may connect and listen on any port",
			   sb->abi);
	/* Unscoped, the program can kill landfence itself, which then
	 * skips its checks after the run while the program lives on
	 * (doc/escape.md, "Hostile projects"). */
	else if (sb->abi < 6 && !sb->allow_unscoped)
		status_set(sb, LF_STATUS_DEGRADED,
			   "abstract UNIX sockets and signals are not scoped to the sandbox "
			   "below Landlock ABI 6 (ABI %d): the program can connect to abstract "
			   "sockets and signal processes outside it, landfence included "
			   "(--allow-unscoped accepts this)",
			   sb->abi);
	else
		status_set(sb, LF_STATUS_ENFORCED, NULL);

	if (sb->probe.kernel > LF_LANDLOCK_ABI_KNOWN && sb->abi == sb->probe.kernel)
		r = r
			    ?: lf_strv_pushf(
				       &sb->notices,
				       "kernel Landlock ABI %d is newer than %d: used as ABI %d",
				       sb->abi, LF_LANDLOCK_ABI_KNOWN, LF_LANDLOCK_ABI_KNOWN);
	if (sb->abi < 2)
		r = r
			    ?: lf_strv_pushf(
				       &sb->notices,
				       "Landlock ABI 1: renaming or linking a file into another "
				       "directory is always refused (no REFER right)");
	if (sb->abi < 5)
		r = r
			    ?: lf_strv_pushf(
				       &sb->notices,
				       "Landlock ABI %d: ioctls on devices are not restricted "
				       "(IOCTL_DEV needs ABI 5)",
				       sb->abi);
	if (sb->abi < 6 && sb->allow_unscoped)
		r = r
			    ?: lf_strv_pushf(
				       &sb->notices,
				       "Landlock ABI %d: abstract UNIX sockets and signals are not "
				       "scoped to the sandbox (needs ABI 6; accepted with "
				       "--allow-unscoped)",
				       sb->abi);
	return r;
}

static int compile_fences(struct lf_sandbox *sb, const struct lf_sandbox_input *in)
{
	for (size_t i = 0; i < in->nfences; i++) {
		const struct lf_fence_in *f = &in->fences[i];
		/* Both forms, the written place and where it really is, and
		 * every other mount path that shows it. */
		int r = fence_push(sb, in, f->raw, i, LF_FORM_RAW);

		if (r == 0 && f->canon)
			r = fence_push(sb, in, f->canon, i, LF_FORM_CANON);
		for (size_t k = 0; r == 0 && k < f->naliases; k++)
			r = fence_push(sb, in, f->aliases[k], i, LF_FORM_ALIAS);
		if (r == 0 && f->origin == LF_ORIGIN_POLICY && f->nlink > 1)
			r = lf_strv_pushf(
				&sb->notices,
				"fenced file %s has %lu hard links: Landlock fences the "
				"file's names below granted directories, not its other links",
				f->canon, f->nlink);
		if (r < 0)
			return r;
	}
	return 0;
}

/* Another mount path of a fenced place that no grant's path reaches is
 * still reached: Landlock's rule sits on the inode of the granted
 * directory, which the other mount shows too, so `cat /mnt/.env`
 * through a bind of the project at /mnt read what the mask at the
 * project's .env hides. In the mount namespace such a place is masked
 * where it is (hidden for a read fence, read-only for a write fence),
 * whatever becomes of the fence elsewhere; an alias is never granted by
 * its own path, so nothing the policy gives is lost. */
static int mask_aliases(struct lf_sandbox *sb, const struct lf_sandbox_input *in)
{
	int r = 0;

	if (!in->host.ns)
		return 0;
	for (size_t i = 0; i < sb->nfences && r == 0; i++) {
		const struct lf_fence_in *F = &in->fences[sb->fence_src[i]];
		const struct lf_sandbox_fence *f = &sb->fences[i];
		char *words;

		if (sb->fence_form[i] != LF_FORM_ALIAS || f->mechanism == LF_MECH_MASK ||
		    (F->type != LF_FT_DIR && F->type != LF_FT_FILE) ||
		    mask_over(sb, f->path, f->access))
			continue;
		words = fence_words(F);
		if (!words)
			return -ENOMEM;
		r = mask_add(sb, f->path, mask_kind(f->access, F->type), F->origin, F->source,
			     F->layer,
			     xasprintf("%s (another mount path of %s)", words,
				       F->canon ? F->canon : F->raw));
		free(words);
		r = r
			    ?: fence_mech_set(sb, i, LF_MECH_MASK,
					      "another mount path: Landlock reaches it through the "
					      "grant's directory there");
	}
	return r;
}

/* ------------------------------------------------------------------------
 * Protections, and what the launcher binds before the masks
 */

/* Whether a rule carrying class cls covers or lies below path. */
static bool rules_reach(const struct lf_sandbox *sb, const char *path, unsigned cls)
{
	for (size_t i = 0; i < sb->nrules; i++)
		if ((sb->rules[i].access & cls) && lf_path_overlap(sb->rules[i].path, path))
			return true;
	return false;
}

static int protect_push(struct lf_sandbox *sb, const char *path, const struct lf_protect_in *e,
			enum lf_mechanism m, const char *why)
{
	for (size_t i = 0; i < sb->nprotects; i++)
		if (!strcmp(sb->protects[i].path, path))
			return 0;
	if (lf_grow((void **)&sb->protects, &sb->protects_cap, sb->nprotects,
		    sizeof(*sb->protects)) < 0)
		return -ENOMEM;
	struct lf_sandbox_protect *pr = &sb->protects[sb->nprotects];
	*pr = (struct lf_sandbox_protect){
		.path = strdup(path),
		.entry = strdup(e->name),
		.why = strdup(e->why),
		.mechanism = m,
		.mechanism_why = why ? strdup(why) : NULL,
		.lifted = e->lifted,
	};
	if (!pr->path || !pr->entry || !pr->why || (why && !pr->mechanism_why)) {
		free((char *)pr->path);
		free((char *)pr->entry);
		free((char *)pr->why);
		free((char *)pr->mechanism_why);
		return -ENOMEM;
	}
	sb->nprotects++;
	return 0;
}

/* Whether a protection can be masked read-only, else why not. */
static bool protect_maskable(const struct lf_sandbox_input *in, const struct lf_protect_in *e,
			     const struct lf_protect_path *pp, char *why, size_t size)
{
	if (e->lifted)
		lf_text(why, size, "lifted by a policy (protect.lift)");
	else if (e->watch_only)
		lf_text(why, size, "the tool that owns it writes it as it runs");
	else if (!in->host.ns)
		lf_text(why, size, "no mount namespace here%s%s", in->host.ns_failed ? ": " : "",
			in->host.ns_failed ? in->host.ns_failed : "");
	else if (pp->type != LF_FT_DIR && pp->type != LF_FT_FILE)
		lf_text(why, size, "%s", ftype_words(pp->type));
	else
		return true;
	return false;
}

/* Each protection a rule leaves writable: masked read-only when it can
 * be, else watched, with the reason. A protection never drops a grant. */
static int compile_protects(struct lf_sandbox *sb, const struct lf_sandbox_input *in)
{
	char why[600];
	int r = 0;

	for (size_t i = 0; i < in->nprotect_paths && r == 0; i++) {
		const struct lf_protect_path *pp = &in->protect_paths[i];
		const struct lf_protect_in *e = &in->protects[pp->entry];
		enum lf_mechanism m = LF_MECH_WATCHED;

		/* Another mount path of a protection is reached through the
		 * inode of the grant's directory it shows (mask_aliases). */
		if (!rules_reach(sb, pp->path, RW) && !(pp->alias && in->host.ns))
			continue;
		why[0] = '\0';
		bool covered = mask_over(sb, pp->path, RW) != NULL;
		if (covered || protect_maskable(in, e, pp, why, sizeof(why)))
			m = LF_MECH_MASK;
		if (m == LF_MECH_MASK && !covered)
			r = mask_add(sb, pp->path, LF_MASK_READ_ONLY, LF_ORIGIN_PROTECT,
				     (struct lf_source){ 0 }, LF_LAYER_LOCAL,
				     xasprintf("protected: %s (%s)", e->name, e->why));
		if (r == 0)
			r = protect_push(sb, pp->path, e, m, why[0] ? why : NULL);
	}
	return r;
}

static int cmp_mask(const void *a, const void *b)
{
	return lf_path_order(((const struct lf_sandbox_mask *)a)->path,
			     ((const struct lf_sandbox_mask *)b)->path);
}

static int cmp_bind(const void *a, const void *b)
{
	return lf_path_order(((const struct lf_bind *)a)->path, ((const struct lf_bind *)b)->path);
}

/* Masks below a hidden place are not there to mask (it is empty), and a
 * read-only place below a read-only one adds nothing. */
static void masks_normalise(struct lf_sandbox *sb)
{
	size_t out = 0;

	if (sb->nmasks > 1)
		qsort(sb->masks, sb->nmasks, sizeof(*sb->masks), cmp_mask);
	for (size_t i = 0; i < sb->nmasks; i++) {
		struct lf_sandbox_mask *m = &sb->masks[i];
		bool drop = false;

		for (size_t k = 0; k < out && !drop; k++) {
			const struct lf_sandbox_mask *a = &sb->masks[k];

			drop = strictly_below(a->path, m->path) &&
			       (a->kind != LF_MASK_READ_ONLY || m->kind == LF_MASK_READ_ONLY);
		}
		if (drop) {
			free((char *)m->path);
			free((char *)m->why);
			continue;
		}
		sb->masks[out++] = *m;
	}
	sb->nmasks = out;
}

static int bind_add(struct lf_sandbox *sb, const char *path, bool nodev, bool others)
{
	for (size_t i = 0; i < sb->nbinds; i++)
		if (!strcmp(sb->binds[i].path, path)) {
			sb->binds[i].nodev = sb->binds[i].nodev || nodev;
			sb->binds[i].others = sb->binds[i].others || others;
			return 0;
		}
	if (lf_grow((void **)&sb->binds, &sb->binds_cap, sb->nbinds, sizeof(*sb->binds)) < 0)
		return -ENOMEM;
	char *copy = strdup(path);
	if (!copy)
		return -ENOMEM;
	sb->binds[sb->nbinds++] = (struct lf_bind){ copy, nodev, others };
	return 0;
}

/* The grants someone else could have filled before launch: the project,
 * profiles, the policies' host sections (the device-node scan's roots,
 * src/gate/findings.c). */
static bool filled_by_others(enum lf_origin o)
{
	return o == LF_ORIGIN_POLICY || o == LF_ORIGIN_FALLBACK || o == LF_ORIGIN_HOST_POLICY ||
	       o == LF_ORIGIN_PROFILE || o == LF_ORIGIN_TOOLCHAIN || o == LF_ORIGIN_GIT;
}

/* Whether the grant root rule i is bound nodev,nosuid (so the device-node
 * scan need not walk it): one filled by others that does not hold /dev
 * (whose nodes the host grants one by one), with a mount namespace. */
static bool rule_nodev(const struct lf_sandbox *sb, size_t i)
{
	return sb->ns.available && filled_by_others(sb->rules[i].origin) &&
	       !lf_path_covers(sb->rules[i].path, "/dev");
}

static bool nodev_rule(const struct lf_sandbox *sb, size_t k, const void *ctx)
{
	(void)ctx;
	return rule_nodev(sb, k);
}

/* A nodev bind at path[0..len), looked up in the binds (sorted by
 * lf_path_order once compiled). */
static bool nodev_bind_at(const struct lf_sandbox *sb, const char *path, size_t len)
{
	size_t lo = 0, hi = sb->nbinds;
	char *p = strndup(path, len);
	bool found = false;

	if (!p)
		return false; /* out of memory: not known to be nodev, so scanned */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = lf_path_order(sb->binds[mid].path, p);

		if (c == 0) {
			found = sb->binds[mid].nodev;
			break;
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	free(p);
	return found;
}

bool lf_sandbox_rule_nodev(const struct lf_sandbox *sb, size_t i)
{
	const char *path;
	size_t len;

	if (i >= sb->nrules || !rule_nodev(sb, i))
		return false;
	/* A nodev bind at the rule's path or at one of its ancestors. */
	path = sb->rules[i].path;
	len = sb->rule_key[i].len;
	if (nodev_bind_at(sb, "/", 1))
		return true;
	for (size_t k = 2; k <= len; k++)
		if ((k == len || path[k] == '/') && nodev_bind_at(sb, path, k))
			return true;
	return false;
}

/* The grant roots bound nodev,nosuid, and the pins: every directory
 * between a mask and the top of the writable grants above it whose
 * parent the program can write is bound onto itself, so that it cannot
 * be renamed away (a mount point cannot be renamed) and a fresh
 * directory put in its place. */
static int binds_compute(struct lf_sandbox *sb)
{
	int r = 0;

	for (size_t i = 0; i < sb->nbinds; i++)
		free(sb->binds[i].path);
	sb->nbinds = 0;
	if (!sb->ns.available)
		return 0;
	masks_normalise(sb);
	/* Several nodev roots inside the project: one nodev bind of the
	 * project root covers them all. nodev and nosuid on the places
	 * between them change nothing the program can reach (no rule
	 * grants them), and a mount per grant costs the kernel more with
	 * each mount (10,000 grants: seconds per launch). Not a root that
	 * holds /dev (rule_nodev's condition). */
	const char *root = sb->project_root;
	size_t rootlen = root ? strlen(root) : 0, inside = 0;
	bool root_bound = false;

	for (size_t i = 0; root && i < sb->nrules && inside < 2; i++)
		inside += rule_nodev(sb, i) && strictly_below(root, sb->rules[i].path);
	if (inside >= 2 && !lf_path_covers(root, "/dev")) {
		char *copy = strdup(root);

		if (!copy || lf_grow((void **)&sb->binds, &sb->binds_cap, sb->nbinds,
				     sizeof(*sb->binds)) < 0) {
			free(copy);
			return -ENOMEM;
		}
		sb->binds[sb->nbinds++] = (struct lf_bind){ copy, true, false };
		root_bound = true;
	}
	/* A nodev root below another (or below the bound project root)
	 * needs no mount of its own: each rule's ancestors looked up in the
	 * index. Rule paths are unique, so these binds are too (no
	 * bind_add's search). */
	for (size_t i = 0; i < sb->nrules && r == 0; i++) {
		if (!rule_nodev(sb, i) ||
		    (root_bound &&
		     lf_path_covers_n(root, rootlen, sb->rules[i].path, sb->rule_key[i].len)) ||
		    rules_above_any(sb, sb->rules[i].path, sb->rule_key[i].len, true, nodev_rule,
				    NULL))
			continue;
		if (lf_grow((void **)&sb->binds, &sb->binds_cap, sb->nbinds, sizeof(*sb->binds)) <
		    0)
			return -ENOMEM;
		char *copy = strdup(sb->rules[i].path);
		if (!copy)
			return -ENOMEM;
		sb->binds[sb->nbinds++] = (struct lf_bind){ copy, true, false };
	}
	for (size_t i = 0; i < sb->nmasks && r == 0; i++) {
		char *d = strdup(sb->masks[i].path);
		char *slash;

		if (!d)
			return -ENOMEM;
		/* d walks up: each ancestor below "/" whose parent is writable. */
		while (r == 0 && (slash = strrchr(d, '/')) && slash != d) {
			*slash = '\0';
			char *parent = strdup(d);
			char *ps = parent ? strrchr(parent, '/') : NULL;

			if (!parent) {
				r = -ENOMEM;
				break;
			}
			if (ps == parent)
				ps[1] = '\0';
			else if (ps)
				*ps = '\0';
			/* Nothing below a mask moves: it is a mount point, or
			 * read-only, or hidden. */
			if (!mask_over(sb, d, RW) && rules_cover(sb, parent, RW))
				r = bind_add(sb, d, false, false);
			free(parent);
		}
		free(d);
	}
	/* /etc as others see it: its own mount, whatever binds above it. */
	if (r == 0 && sb->others_path)
		r = bind_add(sb, sb->others_path, true, true);
	sb->ns.others = sb->others_path;
	if (sb->nbinds > 1)
		qsort(sb->binds, sb->nbinds, sizeof(*sb->binds), cmp_bind);
	sb->ns.nmasks = sb->nmasks;
	sb->ns.npins = 0;
	sb->ns.nnodev = 0;
	for (size_t i = 0; i < sb->nbinds; i++) {
		sb->ns.npins += !sb->binds[i].nodev;
		sb->ns.nnodev += sb->binds[i].nodev;
	}
	sb->ns.nmounts = sb->nbinds + sb->nmasks;
	return r;
}

int lf_sandbox_mask_links(struct lf_sandbox *sb, const struct lf_link_fact *links, size_t n)
{
	int masked = 0, r = 0;

	if (!sb->ns.available)
		return 0;
	for (size_t i = 0; i < n && r == 0; i++) {
		unsigned cls = links[i].access & RO ? RO : RW;

		if (mask_over(sb, links[i].path, cls))
			continue;
		r = mask_add(sb, links[i].path, mask_kind(cls, LF_FT_FILE), LF_ORIGIN_POLICY,
			     (struct lf_source){ 0 }, LF_LAYER_LOCAL,
			     xasprintf("a hard link to %s, which is %s", links[i].fenced,
				       cls == RO ? "hidden" : "read-only"));
		if (r == 0)
			r = lf_strv_pushf(
				&sb->notices, "%s is a hard link to %s: %s at its own name too",
				links[i].path, links[i].fenced, cls == RO ? "hidden" : "read-only");
		masked += r == 0;
	}
	r = r ?: binds_compute(sb);
	return r < 0 ? r : masked;
}

static int compile_env(struct lf_sandbox *sb, const struct lf_sandbox_input *in)
{
	sb->env = calloc(in->nenv ? in->nenv : 1, sizeof(*sb->env));
	if (!sb->env)
		return -ENOMEM;
	for (size_t i = 0; i < in->nenv; i++) {
		char *name = strdup(in->env[i].name), *why = strdup(in->env[i].why);

		if (!name || !why) {
			free(name);
			free(why);
			return -ENOMEM;
		}
		sb->env[sb->nenv++] = (struct lf_sandbox_env){ name, why };
	}
	return 0;
}

/* A discovered grant (LF_CAND_UNCOVERED) that a surviving rule already
 * covers with its classes adds nothing; the others are granted, and the
 * command's package tree with a note, as the command is. */
static int grant_uncovered(struct lf_sandbox *sb, const struct lf_sandbox_input *in,
			   const struct lf_cand *c)
{
	const char *path = c->canon ? c->canon : c->raw;
	size_t before = sb->nrules;
	int r;

	if (c->canon && rules_cover(sb, path, c->access))
		return 0;
	r = grant_cand(sb, in, c);
	if (r == 0 && c->origin == LF_ORIGIN_COMMAND && sb->nrules > before)
		r = lf_strv_pushf(&sb->notices, "granted read+execute on %s (%s)", path, c->why);
	return r;
}

static int cmp_port(const void *a, const void *b)
{
	return (int)((const struct lf_sandbox_port *)a)->port -
	       (int)((const struct lf_sandbox_port *)b)->port;
}

/* The allowed ports, one entry per port with both classes. */
static int compile_net(struct lf_sandbox *sb, const struct lf_sandbox_input *in)
{
	size_t cap = in->net_connect.n + in->net_bind.n;

	sb->net_restricted = in->net_restricted;
	if (!sb->net_restricted)
		return 0;
	if (sb->abi >= 4)
		sb->handled_net = LANDLOCK_ACCESS_NET_BIND_TCP | LANDLOCK_ACCESS_NET_CONNECT_TCP;
	sb->ports = calloc(cap ? cap : 1, sizeof(*sb->ports));
	if (!sb->ports)
		return -ENOMEM;
	for (int bind = 0; bind < 2; bind++) {
		const struct lf_ports *ps = bind ? &in->net_bind : &in->net_connect;

		for (size_t i = 0; i < ps->n; i++) {
			size_t k = 0;

			while (k < sb->nports && sb->ports[k].port != ps->v[i])
				k++;
			if (k == sb->nports)
				sb->ports[sb->nports++].port = ps->v[i];
			if (bind)
				sb->ports[k].bind = true;
			else
				sb->ports[k].connect = true;
		}
	}
	if (sb->nports > 1)
		qsort(sb->ports, sb->nports, sizeof(*sb->ports), cmp_port);
	return 0;
}

static int compile_rules(struct lf_sandbox *sb, const struct lf_sandbox_input *in)
{
	int r = 0;

	for (size_t i = 0; i < in->host.nnotes && r == 0; i++)
		r = lf_strv_pushf(&sb->notices, "%s", in->host.notes[i]);
	for (size_t i = 0; i < in->ncands && r == 0; i++)
		if (!(in->cands[i].flags & LF_CAND_UNCOVERED))
			r = grant_cand(sb, in, &in->cands[i]);
	if (r == 0)
		r = rules_fold_host(sb);
	for (size_t i = 0; i < in->ncands && r == 0; i++)
		if (in->cands[i].flags & LF_CAND_UNCOVERED)
			r = grant_uncovered(sb, in, &in->cands[i]);
	if (r == 0)
		r = grant_command(sb, in);
	for (size_t i = 0; i < sb->nrules && r == 0; i++) {
		struct lf_sandbox_rule *fr = &sb->rules[i];

		fr->landlock =
			lf_landlock_rights(fr->access, sb->rule_dir[i], fr->ioctl_dev, sb->abi);
		if (sb->rule_device[i])
			fr->landlock &= lf_landlock_device_rights();
	}
	return r;
}

int lf_sandbox_compile(const struct lf_sandbox_input *in, struct lf_sandbox **out,
		       struct lf_diag *diag)
{
	struct lf_sandbox *sb;
	int r;

	if (!in || !out)
		return -EINVAL;
	sb = calloc(1, sizeof(*sb));
	if (!sb)
		return -ENOMEM;
	sb->probe = in->host.probe;
	sb->abi = sb->probe.abi;
	sb->handled = lf_landlock_handled_fs(sb->abi);
	sb->scoped = lf_landlock_scoped(sb->abi);
	sb->posture = in->posture;
	sb->allow_unscoped = in->host.allow_unscoped;
	sb->project_root = strdup(in->host.project_root);
	sb->home = in->host.home ? strdup(in->host.home) : NULL;
	sb->config_dir = in->host.config_dir ? strdup(in->host.config_dir) : NULL;
	sb->run_dir = in->host.run_dir ? strdup(in->host.run_dir) : NULL;
	sb->ns.available = in->host.ns;
	sb->ns.user = in->host.ns && in->host.ns_user;
	sb->ns.remembered = in->host.ns && in->host.ns_remembered;
	sb->ns_failed = in->host.ns_failed ? strdup(in->host.ns_failed) : NULL;
	sb->ns.failed = sb->ns_failed;
	r = !sb->project_root || (in->host.home && !sb->home) ||
			    (in->host.config_dir && !sb->config_dir) ||
			    (in->host.run_dir && !sb->run_dir) ||
			    (in->host.ns_failed && !sb->ns_failed)
		    ? -ENOMEM
		    : 0;
	if (r == 0)
		r = compile_fences(sb, in);
	if (r == 0)
		r = compile_rules(sb, in);
	if (r == 0)
		r = mask_aliases(sb, in);
	if (r == 0)
		r = compile_protects(sb, in);
	if (r == 0)
		r = binds_compute(sb);
	if (r == 0)
		r = compile_env(sb, in);
	for (size_t i = 0; r == 0 && i < in->fact_notes.n; i++)
		r = lf_strv_push(&sb->notices, in->fact_notes.v[i]);
	if (r == 0)
		r = compile_net(sb, in);
	if (r == 0)
		r = status_compute(sb);
	if (r == 0 && sb->posture == LF_DENY && sb->status.kind != LF_STATUS_ENFORCED) {
		lf_diag_set(diag, "", 0, 0,
			    "KernelTooOld: fallback deny cannot be fully enforced: %s",
			    sb->status.reason);
		r = -EOPNOTSUPP;
	}
	if (r < 0) {
		if (r == -ENOMEM)
			lf_diag_set(diag, "", 0, 0, "out of memory");
		lf_sandbox_free(sb);
		return r;
	}
	*out = sb;
	return 0;
}

/* ------------------------------------------------------------------------
 * The value's accessors
 */

void lf_sandbox_free(struct lf_sandbox *sb)
{
	if (!sb)
		return;
	for (size_t i = 0; i < sb->nrules; i++) {
		free((char *)sb->rules[i].path);
		free((char *)sb->rules[i].why);
	}
	free(sb->rules);
	free(sb->rule_dir);
	free(sb->rule_device);
	free(sb->rule_key);
	free(sb->rule_slot);
	for (size_t i = 0; i < sb->ndropped; i++) {
		free((char *)sb->dropped[i].path);
		free((char *)sb->dropped[i].why);
		free((char *)sb->dropped[i].fence);
	}
	free(sb->dropped);
	for (size_t i = 0; i < sb->nfences; i++) {
		free((char *)sb->fences[i].path);
		free((char *)sb->fences[i].mechanism_why);
	}
	free(sb->fences);
	free(sb->fence_src);
	free(sb->fence_form);
	for (size_t i = 0; i < sb->nmasks; i++) {
		free((char *)sb->masks[i].path);
		free((char *)sb->masks[i].why);
	}
	free(sb->masks);
	for (size_t i = 0; i < sb->nprotects; i++) {
		free((char *)sb->protects[i].path);
		free((char *)sb->protects[i].entry);
		free((char *)sb->protects[i].why);
		free((char *)sb->protects[i].mechanism_why);
	}
	free(sb->protects);
	for (size_t i = 0; i < sb->nbinds; i++)
		free(sb->binds[i].path);
	free(sb->binds);
	free(sb->ns_failed);
	free(sb->others_path);
	lf_strv_fini(&sb->readmitted);
	free(sb->ports);
	for (size_t i = 0; i < sb->nenv; i++) {
		free((char *)sb->env[i].name);
		free((char *)sb->env[i].why);
	}
	free(sb->env);
	lf_strv_fini(&sb->notices);
	free(sb->project_root);
	free(sb->home);
	free(sb->config_dir);
	free(sb->run_dir);
	free(sb);
}

const char *lf_sandbox_project_root(const struct lf_sandbox *sb)
{
	return sb->project_root;
}

lf_posture lf_sandbox_fallback(const struct lf_sandbox *sb)
{
	return sb->posture;
}

int lf_sandbox_abi(const struct lf_sandbox *sb)
{
	return sb->abi;
}

const struct lf_status *lf_sandbox_status(const struct lf_sandbox *sb)
{
	return &sb->status;
}

uint64_t lf_sandbox_handled(const struct lf_sandbox *sb)
{
	return sb->handled;
}

bool lf_sandbox_network_restricted(const struct lf_sandbox *sb)
{
	return sb->net_restricted;
}

uint64_t lf_sandbox_handled_net(const struct lf_sandbox *sb)
{
	return sb->handled_net;
}

size_t lf_sandbox_port_count(const struct lf_sandbox *sb)
{
	return sb->nports;
}

const struct lf_sandbox_port *lf_sandbox_port(const struct lf_sandbox *sb, size_t i)
{
	return i < sb->nports ? &sb->ports[i] : NULL;
}

uint64_t lf_sandbox_scoped(const struct lf_sandbox *sb)
{
	return sb->scoped;
}

const char *lf_sandbox_run_dir(const struct lf_sandbox *sb)
{
	return sb->run_dir;
}

size_t lf_sandbox_rule_count(const struct lf_sandbox *sb)
{
	return sb->nrules;
}

const struct lf_sandbox_rule *lf_sandbox_rule(const struct lf_sandbox *sb, size_t i)
{
	return i < sb->nrules ? &sb->rules[i] : NULL;
}

size_t lf_sandbox_dropped_count(const struct lf_sandbox *sb)
{
	return sb->ndropped;
}

const struct lf_sandbox_dropped *lf_sandbox_dropped(const struct lf_sandbox *sb, size_t i)
{
	return i < sb->ndropped ? &sb->dropped[i] : NULL;
}

size_t lf_sandbox_fence_count(const struct lf_sandbox *sb)
{
	return sb->nfences;
}

const struct lf_sandbox_fence *lf_sandbox_fence(const struct lf_sandbox *sb, size_t i)
{
	return i < sb->nfences ? &sb->fences[i] : NULL;
}

size_t lf_sandbox_mask_count(const struct lf_sandbox *sb)
{
	return sb->nmasks;
}

const struct lf_sandbox_mask *lf_sandbox_mask(const struct lf_sandbox *sb, size_t i)
{
	return i < sb->nmasks ? &sb->masks[i] : NULL;
}

size_t lf_sandbox_protect_count(const struct lf_sandbox *sb)
{
	return sb->nprotects;
}

const struct lf_sandbox_protect *lf_sandbox_protect(const struct lf_sandbox *sb, size_t i)
{
	return i < sb->nprotects ? &sb->protects[i] : NULL;
}

const struct lf_namespace *lf_sandbox_namespace(const struct lf_sandbox *sb)
{
	return &sb->ns;
}

bool lf_sandbox_readmitted(const struct lf_sandbox *sb, const struct lf_dropped *d)
{
	char key[16];
	size_t kl;

	if (!sb || !d || !d->abs_root)
		return false;
	kl = (size_t)snprintf(key, sizeof(key), "%u\t", d->access & (RO | RW));
	for (size_t i = 0; i < sb->readmitted.n; i++)
		if (!strncmp(sb->readmitted.v[i], key, kl) &&
		    !strcmp(sb->readmitted.v[i] + kl, d->abs_root))
			return true;
	return false;
}

size_t lf_sandbox_env_count(const struct lf_sandbox *sb)
{
	return sb->nenv;
}

const struct lf_sandbox_env *lf_sandbox_env(const struct lf_sandbox *sb, size_t i)
{
	return i < sb->nenv ? &sb->env[i] : NULL;
}

size_t lf_sandbox_notice_count(const struct lf_sandbox *sb)
{
	return sb->notices.n;
}

const char *lf_sandbox_notice(const struct lf_sandbox *sb, size_t i)
{
	return i < sb->notices.n ? sb->notices.v[i] : NULL;
}
