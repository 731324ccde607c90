/* SPDX-License-Identifier: MIT */
/*
 * compile_sandbox_plan of the seed (SPEC §2), in linear expected time.
 *
 * The seed's semantics, unchanged: only read, write and delete rules take
 * part; per access class (RO <- read; RW <- write, delete) each allow glob is
 * cut to its static prefix and dropped when a fence of the same class is
 * equal to it, above it or below it (component-wise); survivors merge by
 * root in order of first appearance, with unioned access. Fences are the
 * static prefixes of deny rules and, here, of ask rules: the kernel cannot
 * ask, so an ask is a no at the OS level.
 *
 * What differs is only the search. The seed tests every allow against every
 * fence; here one hash map holds, per class, every fence root and every root
 * above a fence. An allow's root then conflicts when one of its '/'-prefixes
 * ("" first, itself last) is a fence root of its class, or when a fence of
 * its class lies below it: at most depth + 1 lookups per allow, so the
 * compile is linear in the total length of the roots (expected). The fence reported for a dropped
 * allow is the first conflicting fence in pool order, as a literal reading
 * of the seed would find. Pure.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/model.h"

#define FNV_BASIS 14695981039346656037ull
#define FNV_PRIME 1099511628211ull
#define NONE UINT32_MAX

/* ---- a bump allocator for the plan's strings ------------------------- */

struct chunk {
	struct chunk *next;
	size_t used, size;
	char data[];
};

struct arena {
	struct chunk *head;
};

static char *arena_alloc(struct arena *a, size_t n)
{
	struct chunk *c = a->head;
	if (!c || c->size - c->used < n) {
		size_t size = n > 65536 ? n : 65536;
		c = malloc(sizeof(*c) + size);
		if (!c)
			return NULL;
		c->used = 0;
		c->size = size;
		c->next = a->head;
		a->head = c;
	}
	char *p = c->data + c->used;
	c->used += n;
	return p;
}

static void arena_fini(struct arena *a)
{
	while (a->head) {
		struct chunk *c = a->head;
		a->head = c->next;
		free(c);
	}
}

static char *arena_strndup(struct arena *a, const char *s, size_t n)
{
	char *p = arena_alloc(a, n + 1);
	if (p) {
		memcpy(p, s, n);
		p[n] = '\0';
	}
	return p;
}

/* base (no trailing '/') joined with a relative root; "" is the base. */
static char *arena_join(struct arena *a, const char *base, size_t blen, const char *rel,
			size_t rlen)
{
	if (rlen == 0)
		return blen ? arena_strndup(a, base, blen) : arena_strndup(a, "/", 1);
	char *p = arena_alloc(a, blen + 1 + rlen + 1);
	if (p) {
		memcpy(p, base, blen);
		p[blen] = '/';
		memcpy(p + blen + 1, rel, rlen);
		p[blen + 1 + rlen] = '\0';
	}
	return p;
}

/* ---- one map from a root to what the compiler knows about it --------- */

/*
 * Open addressing over 8-byte slots (32 bits of hash, entry number + 1) and
 * dense entries that hold the key's first bytes: a probe rarely touches an
 * entry whose hash differs, and a hit rarely leaves the entry. Fences of
 * both classes and grants share the map, so the lookup that tells whether
 * an allow's root is fenced also finds (or places) its grant.
 */
#define INLINE_KEY 16
#define CHUNK_BITS 12 /* entries come in chunks of 4096: growing moves none */

struct root_info {
	char head[INLINE_KEY];
	const char *key;
	uint64_t hash;
	uint32_t len;
	uint32_t grant;	   /* the grant on this root */
	uint32_t eq[2];	   /* per class: the first fence on exactly this root */
	uint32_t below[2]; /* per class: the first fence strictly below it */
};

struct root_map {
	uint64_t *slots;
	size_t mask;
	struct root_info **chunks;
	size_t nchunks;
	size_t n;
};

static uint64_t fnv(const char *s, size_t n)
{
	uint64_t h = FNV_BASIS;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * FNV_PRIME;
	return h;
}

/* The map is sized for about hint roots (the rules' own roots: their
 * ancestors are mostly shared, duplicates are common) and doubles when half
 * full, so its size follows the distinct roots rather than a bound on them:
 * less memory to fault in and to miss in the cache. */
static int map_init(struct root_map *m, size_t hint)
{
	memset(m, 0, sizeof(*m));
	m->mask = 1023;
	while (m->mask + 1 < 2 * hint)
		m->mask = 2 * m->mask + 1;
	m->slots = calloc(m->mask + 1, sizeof(*m->slots));
	return m->slots ? 0 : -ENOMEM;
}

static void map_fini(struct root_map *m)
{
	free(m->slots);
	for (size_t i = 0; i < m->nchunks; i++)
		free(m->chunks[i]);
	free(m->chunks);
}

static struct root_info *map_entry(const struct root_map *m, size_t i)
{
	return &m->chunks[i >> CHUNK_BITS][i & ((1u << CHUNK_BITS) - 1)];
}

/* The slot holding key, or the empty slot where it belongs. */
static uint64_t *map_slot(const struct root_map *m, uint64_t h, const char *key, size_t len)
{
	uint32_t tag = (uint32_t)(h >> 32);
	for (size_t i = h & m->mask;; i = (i + 1) & m->mask) {
		uint64_t s = m->slots[i];
		if (!s)
			return &m->slots[i];
		if ((uint32_t)(s >> 32) != tag)
			continue;
		const struct root_info *e = map_entry(m, (uint32_t)s - 1);
		if (e->len != len)
			continue;
		size_t n = len < INLINE_KEY ? len : INLINE_KEY;
		if (memcmp(e->head, key, n) == 0 &&
		    (len <= INLINE_KEY ||
		     memcmp(e->key + INLINE_KEY, key + INLINE_KEY, len - INLINE_KEY) == 0))
			return &m->slots[i];
	}
}

static struct root_info *map_at(const struct root_map *m, const uint64_t *slot)
{
	return *slot ? map_entry(m, (uint32_t)*slot - 1) : NULL;
}

static int map_grow(struct root_map *m)
{
	size_t size = (m->mask + 1) * 2;
	uint64_t *slots = calloc(size, sizeof(*slots));
	if (!slots)
		return -ENOMEM;
	for (size_t k = 0; k < m->n; k++) {
		uint64_t h = map_entry(m, k)->hash;
		size_t i = h & (size - 1);
		while (slots[i])
			i = (i + 1) & (size - 1);
		slots[i] = (h >> 32 << 32) | (uint64_t)(k + 1);
	}
	free(m->slots);
	m->slots = slots;
	m->mask = size - 1;
	return 0;
}

/* Adds key at its empty slot (which a growth may move: hence slot_io).
 * Returns NULL when out of memory. */
static struct root_info *map_put(struct root_map *m, uint64_t **slot_io, uint64_t h,
				 const char *key, size_t len)
{
	if (m->n >= NONE - 1)
		return NULL;
	if (m->n == m->nchunks << CHUNK_BITS) {
		struct root_info **v = realloc(m->chunks, (m->nchunks + 1) * sizeof(*v));
		if (!v)
			return NULL;
		m->chunks = v;
		v[m->nchunks] = malloc(sizeof(struct root_info) << CHUNK_BITS);
		if (!v[m->nchunks])
			return NULL;
		m->nchunks++;
	}
	if (2 * (m->n + 1) > m->mask + 1) {
		if (map_grow(m) < 0)
			return NULL;
		*slot_io = map_slot(m, h, key, len);
	}
	struct root_info *e = map_entry(m, m->n++);
	memcpy(e->head, key, len < INLINE_KEY ? len : INLINE_KEY);
	e->key = key;
	e->hash = h;
	e->len = (uint32_t)len;
	e->eq[0] = e->eq[1] = NONE;
	e->below[0] = e->below[1] = NONE;
	e->grant = NONE;
	**slot_io = (h >> 32 << 32) | (uint64_t)m->n;
	return e;
}

static struct root_info *map_get(struct root_map *m, uint64_t h, const char *key, size_t len)
{
	uint64_t *slot = map_slot(m, h, key, len);
	struct root_info *e = map_at(m, slot);
	return e ? e : map_put(m, &slot, h, key, len);
}

/* ---- the plan --------------------------------------------------------- */

struct lf_plan {
	struct lf_grant *grants;
	size_t ngrants;
	struct lf_dropped *dropped;
	size_t ndropped;
	struct lf_fence *fences;
	size_t nfences;
	lf_posture posture;
	struct arena arena;
};

/*
 * Files fence i (class c, root rel) in the map: on its root, and as "below"
 * on every root above it. The walk up starts at the parent and stops at the
 * first root already marked for the class: whoever marked it marked every
 * root above it too. Fences arrive in pool order, so the first one to reach
 * an entry stays its first.
 */
static int fence_add(struct root_map *m, const char *rel, int c, uint32_t i)
{
	uint64_t hs[64];
	size_t ends[64], nends = 1;
	uint64_t h = FNV_BASIS;
	size_t j = 0;
	bool deep = false;

	hs[0] = h; /* "" */
	ends[0] = 0;
	for (; rel[j]; j++) {
		if (rel[j] == '/') {
			if (nends < 64) {
				hs[nends] = h;
				ends[nends++] = j;
			} else {
				deep = true;
			}
		}
		h = (h ^ (unsigned char)rel[j]) * FNV_PRIME;
	}
	struct root_info *e = map_get(m, h, rel, j);
	if (!e)
		return -ENOMEM;
	if (e->eq[c] == NONE)
		e->eq[c] = i;
	if (j == 0)
		return 0; /* the project root has nothing above it */
	if (deep) {
		/* Too many levels to remember: mark each one from the top. */
		h = FNV_BASIS;
		for (size_t k = 0; k < j; k++) {
			if (k == 0 || rel[k] == '/') {
				e = map_get(m, h, rel, k);
				if (!e)
					return -ENOMEM;
				if (e->below[c] == NONE)
					e->below[c] = i;
			}
			h = (h ^ (unsigned char)rel[k]) * FNV_PRIME;
		}
		return 0;
	}
	while (nends > 0) {
		nends--;
		e = map_get(m, hs[nends], rel, ends[nends]);
		if (!e)
			return -ENOMEM;
		if (e->below[c] != NONE)
			break;
		e->below[c] = i;
	}
	return 0;
}

/*
 * The first fence (pool order) of class c on, above or below the root
 * rel[0..len), or NONE. *slot is left at the root's slot (or where it
 * belongs) and *h at its hash, for the grant. A prefix missing from the map
 * has no fence on or below it, so nothing below it can conflict either.
 */
static uint32_t fence_conflict(const struct root_map *m, const char *rel, size_t len, int c,
			       uint64_t **slot, uint64_t *hash)
{
	uint32_t best = NONE;
	uint64_t h = FNV_BASIS;
	for (size_t j = 0;; j++) {
		if (j == 0 || j == len || rel[j] == '/') {
			uint64_t *s = map_slot(m, h, rel, j);
			const struct root_info *e = map_at(m, s);
			if (!e && j < len) {
				/* Nothing here or below: find the root's slot. */
				h = fnv(rel, len);
				*slot = map_slot(m, h, rel, len);
				*hash = h;
				return best;
			}
			if (j == len) {
				*slot = s;
				*hash = h;
				if (e) {
					if (e->eq[c] < best)
						best = e->eq[c];
					if (e->below[c] < best)
						best = e->below[c];
				}
				return best;
			}
			if (e->eq[c] < best)
				best = e->eq[c];
		}
		h = (h ^ (unsigned char)rel[j]) * FNV_PRIME;
	}
}

static unsigned access_class(enum lf_capability cap)
{
	switch (cap) {
	case LF_CAP_READ:
		return LF_ACCESS_RO;
	case LF_CAP_WRITE:
	case LF_CAP_DELETE:
		return LF_ACCESS_RW;
	case LF_CAP_BASH:
		break;
	}
	return 0; /* bash: no class, never a grant nor a fence */
}

void lf_plan_free(struct lf_plan *plan)
{
	if (!plan)
		return;
	free(plan->grants);
	free(plan->dropped);
	free(plan->fences);
	arena_fini(&plan->arena);
	free(plan);
}

/*
 * Hash-map lookups miss the cache once the map outgrows it; the prefixes of
 * an allow or fence a few places ahead are independent of the current one,
 * so their slots are requested early and arrive while it is processed.
 */
#define LOOKAHEAD 8

static void map_prefetch(const struct root_map *m, const char *rel, size_t len)
{
	uint64_t h = FNV_BASIS;
	for (size_t j = 0; j < len; j++) {
		h = (h ^ (unsigned char)rel[j]) * FNV_PRIME;
		if (j + 1 == len || rel[j + 1] == '/')
			__builtin_prefetch(&m->slots[h & m->mask]);
	}
}

/* Steps through the globs of the file rules that are (allow) or are not
 * (!allow) allows, in pool order. */
struct cursor {
	size_t rule, glob;
};

static const struct lf_glob *cursor_next(const struct lf_effective *e, struct cursor *c, bool allow)
{
	for (; c->rule < e->nrules; c->rule++, c->glob = 0) {
		const struct lf_rule *r = e->rules[c->rule];
		if (!access_class(r->cap) || (r->effect == LF_ALLOW) != allow)
			continue;
		if (c->glob < r->nglobs)
			return &r->globs[c->glob++];
	}
	return NULL;
}

static void cursor_ahead(const struct lf_effective *e, struct cursor *ahead, bool allow,
			 const struct root_map *m)
{
	const struct lf_glob *g = cursor_next(e, ahead, allow);
	if (g)
		map_prefetch(m, g->pattern, g->prefix_len);
}

int lf_plan_compile(const struct lf_effective *e, const struct lf_context *ctx,
		    struct lf_plan **out)
{
	if (!out)
		return -EINVAL;
	if (!e) {
		/* Nothing posed: no sandbox, the program runs natively. */
		*out = NULL;
		return 0;
	}
	if (!ctx || !ctx->project_root || ctx->project_root[0] != '/')
		return -EINVAL;

	const char *base = ctx->project_root;
	size_t blen = strlen(base);
	while (blen > 0 && base[blen - 1] == '/')
		blen--;

	size_t nfence = 0, nallow = 0;
	for (size_t i = 0; i < e->nrules; i++) {
		const struct lf_rule *r = e->rules[i];
		if (!access_class(r->cap))
			continue;
		if (r->effect == LF_ALLOW)
			nallow += r->nglobs;
		else
			nfence += r->nglobs;
	}
	if (nfence >= NONE || nallow >= NONE)
		return -ENOMEM;

	int ret = -ENOMEM;
	struct root_map map = { 0 };
	struct lf_plan *plan = calloc(1, sizeof(*plan));
	if (!plan)
		return -ENOMEM;
	plan->posture = e->fallback;
	plan->fences = malloc((nfence ? nfence : 1) * sizeof(*plan->fences));
	plan->grants = malloc((nallow ? nallow : 1) * sizeof(*plan->grants));
	plan->dropped = malloc((nallow ? nallow : 1) * sizeof(*plan->dropped));
	if (!plan->fences || !plan->grants || !plan->dropped || map_init(&map, nfence + nallow) < 0)
		goto out;

	/* 1. Fences, in pool order. */
	struct cursor ahead = { 0, 0 };
	for (int k = 0; k < LOOKAHEAD; k++)
		cursor_ahead(e, &ahead, false, &map);
	for (size_t i = 0; i < e->nrules; i++) {
		const struct lf_rule *r = e->rules[i];
		unsigned access = access_class(r->cap);
		if (!access || r->effect == LF_ALLOW)
			continue;
		for (size_t k = 0; k < r->nglobs; k++) {
			const struct lf_glob *g = &r->globs[k];
			cursor_ahead(e, &ahead, false, &map);
			uint32_t n = (uint32_t)plan->nfences++;
			struct lf_fence *f = &plan->fences[n];
			f->abs_root =
				arena_join(&plan->arena, base, blen, g->pattern, g->prefix_len);
			if (!f->abs_root)
				goto out;
			/* The relative root is the tail of the absolute one ("" for
			 * the project root: the terminating NUL). */
			f->rel_root = f->abs_root + strlen(f->abs_root) - g->prefix_len;
			f->access = access;
			f->effect = r->effect;
			f->source = r->source;
			if (fence_add(&map, f->rel_root, access == LF_ACCESS_RO ? 0 : 1, n) < 0)
				goto out;
		}
	}

	/* 2. Allows: dropped when fenced in their class, else merged by root. */
	ahead = (struct cursor){ 0, 0 };
	for (int k = 0; k < LOOKAHEAD; k++)
		cursor_ahead(e, &ahead, true, &map);
	for (size_t i = 0; i < e->nrules; i++) {
		const struct lf_rule *r = e->rules[i];
		unsigned access = access_class(r->cap);
		if (!access || r->effect != LF_ALLOW)
			continue;
		int c = access == LF_ACCESS_RO ? 0 : 1;
		for (size_t k = 0; k < r->nglobs; k++) {
			const char *rel = r->globs[k].pattern;
			size_t len = r->globs[k].prefix_len;
			cursor_ahead(e, &ahead, true, &map);
			uint64_t *slot, h;
			uint32_t f = fence_conflict(&map, rel, len, c, &slot, &h);
			if (f != NONE) {
				struct lf_dropped *d = &plan->dropped[plan->ndropped++];
				d->abs_root = arena_join(&plan->arena, base, blen, rel, len);
				if (!d->abs_root)
					goto out;
				d->access = access;
				d->allow = r->source;
				d->fence_root = plan->fences[f].abs_root;
				d->fence = plan->fences[f].source;
				d->fence_effect = plan->fences[f].effect;
				continue;
			}
			struct root_info *ri = map_at(&map, slot);
			if (!ri)
				ri = map_put(&map, &slot, h, rel, len);
			if (!ri)
				goto out;
			if (ri->grant == NONE) {
				struct lf_grant *g = &plan->grants[plan->ngrants];
				g->abs_root = arena_join(&plan->arena, base, blen, rel, len);
				if (!g->abs_root)
					goto out;
				g->access = 0;
				ri->grant = (uint32_t)plan->ngrants++;
			}
			plan->grants[ri->grant].access |= access;
		}
	}
	ret = 0;
out:
	map_fini(&map);
	if (ret < 0) {
		lf_plan_free(plan);
		return ret;
	}
	*out = plan;
	return 0;
}

size_t lf_plan_grant_count(const struct lf_plan *plan)
{
	return plan ? plan->ngrants : 0;
}

const struct lf_grant *lf_plan_grant(const struct lf_plan *plan, size_t i)
{
	return plan && i < plan->ngrants ? &plan->grants[i] : NULL;
}

size_t lf_plan_dropped_count(const struct lf_plan *plan)
{
	return plan ? plan->ndropped : 0;
}

const struct lf_dropped *lf_plan_dropped(const struct lf_plan *plan, size_t i)
{
	return plan && i < plan->ndropped ? &plan->dropped[i] : NULL;
}

lf_posture lf_plan_default_posture(const struct lf_plan *plan)
{
	return plan ? plan->posture : LF_DENY;
}

size_t lf_plan_fence_count(const struct lf_plan *plan)
{
	return plan ? plan->nfences : 0;
}

const struct lf_fence *lf_plan_fence(const struct lf_plan *plan, size_t i)
{
	return plan && i < plan->nfences ? &plan->fences[i] : NULL;
}
