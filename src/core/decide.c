/* SPDX-License-Identifier: MIT */
/*
 * File decisions (SPEC §1): deny > ask > allow > fallback, the deciding
 * rule being the first rule in pool order with the winning effect.
 *
 * A glob can only match paths at or below its static prefix (the literal
 * directories before its first metacharacter), so the index maps, per
 * capability, each static prefix to the globs that have it. A decision
 * walks the '/'-prefixes of the path ("" first), extending one FNV-1a hash
 * as it goes, and runs the matcher only on the globs filed under those
 * prefixes. Pure.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/decide_index.h"
#include "core/fnv.h"
#include "core/model.h"

#define FILE_CAPS 3

struct idx_entry {
	const struct lf_glob *glob;
	uint32_t rule; /* position in the pool */
	int32_t next;  /* next entry with the same prefix, -1 ends */
};

struct idx_slot {
	const char *key; /* NULL: empty slot */
	uint64_t hash;
	size_t len;
	int32_t head;
};

struct idx_table {
	struct idx_slot *slots;
	size_t mask;
};

struct lf_decide_index {
	struct idx_table caps[FILE_CAPS];
	struct idx_entry *entries;
};

static struct idx_slot *table_find(const struct idx_table *t, uint64_t h, const char *key,
				   size_t len)
{
	for (size_t i = h & t->mask;; i = (i + 1) & t->mask) {
		struct idx_slot *s = &t->slots[i];
		if (!s->key || (s->hash == h && s->len == len && memcmp(s->key, key, len) == 0))
			return s;
	}
}

void lf_decide_index_free(struct lf_decide_index *idx)
{
	if (!idx)
		return;
	for (int c = 0; c < FILE_CAPS; c++)
		free(idx->caps[c].slots);
	free(idx->entries);
	free(idx);
}

int lf_decide_index_build(const struct lf_effective *e, struct lf_decide_index **out)
{
	size_t count[FILE_CAPS] = { 0 }, total = 0;

	if (e->nrules > INT32_MAX)
		return -ENOMEM;
	for (size_t i = 0; i < e->nrules; i++) {
		const struct lf_rule *r = e->rules[i];
		if (r->cap < FILE_CAPS) {
			count[r->cap] += r->nglobs;
			total += r->nglobs;
		}
	}
	if (total > INT32_MAX)
		return -ENOMEM;

	struct lf_decide_index *idx = calloc(1, sizeof(*idx));
	if (!idx)
		return -ENOMEM;
	idx->entries = calloc(total ? total : 1, sizeof(*idx->entries));
	if (!idx->entries)
		goto nomem;
	for (int c = 0; c < FILE_CAPS; c++) {
		/* At most half full, so probes stay short. */
		size_t size = 8;
		while (size < 2 * count[c])
			size *= 2;
		idx->caps[c].slots = calloc(size, sizeof(struct idx_slot));
		if (!idx->caps[c].slots)
			goto nomem;
		idx->caps[c].mask = size - 1;
	}

	size_t n = 0;
	for (size_t i = 0; i < e->nrules; i++) {
		const struct lf_rule *r = e->rules[i];
		if (r->cap >= FILE_CAPS)
			continue;
		for (size_t k = 0; k < r->nglobs; k++) {
			const struct lf_glob *g = &r->globs[k];
			uint64_t h = lf_fnv(g->pattern, g->prefix_len);
			struct idx_slot *s =
				table_find(&idx->caps[r->cap], h, g->pattern, g->prefix_len);
			if (!s->key) {
				s->key = g->pattern;
				s->hash = h;
				s->len = g->prefix_len;
				s->head = -1;
			}
			idx->entries[n] = (struct idx_entry){
				.glob = g,
				.rule = (uint32_t)i,
				.next = s->head,
			};
			s->head = (int32_t)n++;
		}
	}
	*out = idx;
	return 0;
nomem:
	lf_decide_index_free(idx);
	return -ENOMEM;
}

/* The winner so far: highest effect, then lowest pool position. */
struct best {
	int effect; /* -1: none */
	size_t rule;
};

static void consider(struct best *b, const struct lf_effective *e, size_t i,
		     const struct lf_glob *g, const char *rel)
{
	int eff = (int)e->rules[i]->effect;
	if (eff < b->effect || (eff == b->effect && i >= b->rule))
		return;
	if (lf_glob_match(g, rel)) {
		b->effect = eff;
		b->rule = i;
	}
}

static void decide_linear(const struct lf_effective *e, enum lf_capability cap, const char *rel,
			  struct best *b)
{
	for (size_t i = 0; i < e->nrules; i++) {
		const struct lf_rule *r = e->rules[i];
		if (r->cap != cap)
			continue;
		for (size_t k = 0; k < r->nglobs; k++)
			consider(b, e, i, &r->globs[k], rel);
	}
}

static void bucket_scan(const struct lf_decide_index *idx, const struct idx_table *t,
			const struct lf_effective *e, uint64_t h, const char *rel, size_t len,
			struct best *b)
{
	const struct idx_slot *s = table_find(t, h, rel, len);
	if (!s->key)
		return;
	for (int32_t j = s->head; j >= 0; j = idx->entries[j].next)
		consider(b, e, idx->entries[j].rule, idx->entries[j].glob, rel);
}

/* e's index, made now when no decision made it yet: kept in e by the
 * first thread to finish one (another's is freed), through an atomic
 * exchange, for e is shared and read-only to its callers. NULL when e
 * asks for the scan, or when it cannot be made (ENOMEM): the scan then. */
static const struct lf_decide_index *index_of(const struct lf_effective *e)
{
	struct lf_decide_index **slot = (struct lf_decide_index **)&e->index;
	struct lf_decide_index *idx = __atomic_load_n(slot, __ATOMIC_ACQUIRE), *none = NULL;

	if (idx || e->scan_only)
		return idx;
	if (lf_decide_index_build(e, &idx) < 0)
		return NULL;
	if (!__atomic_compare_exchange_n(slot, &none, idx, false, __ATOMIC_ACQ_REL,
					 __ATOMIC_ACQUIRE)) {
		lf_decide_index_free(idx);
		idx = none;
	}
	return idx;
}

static void decide_indexed(const struct lf_effective *e, const struct lf_decide_index *idx,
			   enum lf_capability cap, const char *rel, struct best *b)
{
	const struct idx_table *t = &idx->caps[cap];
	uint64_t h = LF_FNV_BASIS;

	bucket_scan(idx, t, e, h, rel, 0, b);
	for (size_t i = 0; rel[i]; i++) {
		h = lf_fnv_step(h, (unsigned char)rel[i]);
		if (rel[i + 1] == '/' || rel[i + 1] == '\0')
			bucket_scan(idx, t, e, h, rel, i + 1, b);
	}
}

int lf_effective_decide_file(const struct lf_effective *e, const char *project_root,
			     enum lf_capability cap, const char *path, struct lf_verdict *out)
{
	if (!e || !project_root || !path || !out)
		return -EINVAL;
	if (cap != LF_CAP_READ && cap != LF_CAP_WRITE && cap != LF_CAP_DELETE)
		return -EINVAL;

	/* Room for the root and the path side by side (see lf_path_relative). */
	char stack[4096];
	/* The root, then (for a relative path) the root again and the path. */
	size_t need = 2 * strlen(project_root) + strlen(path) + 3;
	char *buf = need <= sizeof(stack) ? stack : malloc(need);
	if (!buf)
		return -ENOMEM;
	int r = lf_path_relative(project_root, path, buf, need);
	if (r < 0) {
		if (buf != stack)
			free(buf);
		return r;
	}

	struct best b = { .effect = -1, .rule = 0 };
	if (r == 0) {
		/* Outside the project (r == 1) only the fallback speaks. */
		const struct lf_decide_index *idx = index_of(e);

		if (idx)
			decide_indexed(e, idx, cap, buf, &b);
		else
			decide_linear(e, cap, buf, &b);
	}
	if (buf != stack)
		free(buf);

	struct lf_verdict v;
	memset(&v, 0, sizeof(v));
	if (b.effect < 0) {
		v.effect = e->fallback;
		v.from_fallback = true;
	} else {
		const struct lf_rule *rule = e->rules[b.rule];
		v.effect = rule->effect;
		v.from_fallback = false;
		v.layer = rule->layer;
		v.source = rule->source;
	}
	*out = v;
	return 0;
}

int lf_decide_file(const struct lf_effective *e, const char *project_root, enum lf_capability cap,
		   const char *path, struct lf_verdict *out)
{
	return lf_effective_decide_file(e, project_root, cap, path, out);
}

int lf_effective_decide_bash(const struct lf_effective *e, const char *project_root,
			     const char *line, struct lf_verdict *out)
{
	return lf_decide_bash(e, project_root, line, out);
}
