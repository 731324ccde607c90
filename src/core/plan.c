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
 * fence. Here, two roots can only conflict when one of them is the project
 * root "" or when they share their first component; so:
 *
 * 1. fences on "" and allows on "" are settled with two numbers per class
 *    (the first fence on "", the first fence at all);
 * 2. every other root goes to a bucket chosen by its first component (a
 *    stable counting sort, so pool order survives inside each bucket);
 * 3. bucket by bucket, a small hash map holds every fence root and every
 *    root above a fence, with the first fence on it and the first fence
 *    below it; an allow's root conflicts when one of its '/'-prefixes is a
 *    fence root, or when a fence lies below it. The walk up from a fence
 *    stops at the first root already marked, the walk down an allow stops
 *    at the first prefix missing from the map;
 * 4. one pass over the allows in pool order then writes the drops and the
 *    grants, in the seed's order.
 *
 * Each bucket's map fits in the cache, which keeps the cost per rule flat
 * as policies grow; keys are always compared in full, so a hash collision
 * costs time, never a wrong answer. The fence reported for a dropped allow
 * is the first conflicting fence in pool order, as a literal reading of the
 * seed would find. Pure.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/fnv.h"
#include "core/model.h"

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

/* ---- a map from a root to what the compiler knows about it ----------- */

#define INLINE_KEY 16

struct root_info {
	char head[INLINE_KEY]; /* the key's first bytes: most keys never leave the entry */
	const char *key;
	uint32_t len;
	uint32_t eq[2];	   /* per class: the first fence on exactly this root */
	uint32_t below[2]; /* per class: the first fence strictly below it */
	uint32_t first;	   /* the first surviving allow on this root */
};

/* Open addressing over 8-byte slots: 32 bits of hash, entry number + 1. */
struct root_map {
	uint64_t *slots;
	size_t mask;
	struct root_info *entries;
	size_t n;
};

/* Empties the map and sizes it for at most keys keys (the slot array was
 * allocated for the largest bucket). */
static void map_reset(struct root_map *m, size_t keys)
{
	size_t size = 16;
	while (size < 2 * keys)
		size *= 2;
	m->mask = size - 1;
	m->n = 0;
	memset(m->slots, 0, size * sizeof(*m->slots));
}

/* The slot holding key, or the empty slot where it belongs. map_reset
 * zeroes every slot before use; the analyser loses track of that through
 * the realloc in map_reset, hence the NOLINT blocks in this file. */
/* NOLINTBEGIN(clang-analyzer-core.UndefinedBinaryOperatorResult) */
static uint64_t *map_slot(const struct root_map *m, uint64_t h, const char *key, size_t len)
{
	uint32_t tag = (uint32_t)(h >> 32);
	for (size_t i = h & m->mask;; i = (i + 1) & m->mask) {
		uint64_t s = m->slots[i];
		if (!s)
			return &m->slots[i];
		if ((uint32_t)(s >> 32) != tag)
			continue;
		const struct root_info *e = &m->entries[(uint32_t)s - 1];
		if (e->len != len)
			continue;
		size_t n = len < INLINE_KEY ? len : INLINE_KEY;
		if (memcmp(e->head, key, n) == 0 &&
		    (len <= INLINE_KEY ||
		     memcmp(e->key + INLINE_KEY, key + INLINE_KEY, len - INLINE_KEY) == 0))
			return &m->slots[i];
	}
}
/* NOLINTEND(clang-analyzer-core.UndefinedBinaryOperatorResult) */

static struct root_info *map_at(const struct root_map *m, const uint64_t *slot)
{
	return *slot ? &m->entries[(uint32_t)*slot - 1] : NULL;
}

/* The entry for key, new (every number NONE) if need be; the map was sized
 * for every key of the bucket. */
static struct root_info *map_get(struct root_map *m, uint64_t h, const char *key, size_t len)
{
	uint64_t *slot = map_slot(m, h, key, len);
	if (*slot)
		return &m->entries[(uint32_t)*slot - 1];
	struct root_info *e = &m->entries[m->n++];
	memcpy(e->head, key, len < INLINE_KEY ? len : INLINE_KEY);
	e->key = key;
	e->len = (uint32_t)len;
	e->eq[0] = e->eq[1] = NONE;
	e->below[0] = e->below[1] = NONE;
	e->first = NONE;
	*slot = (h >> 32 << 32) | (uint64_t)m->n;
	return e;
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

/* A non-empty root waiting in its bucket: a fence's or an allow's. */
struct item {
	const char *rel;
	uint32_t len;
	uint32_t id;   /* fence number or allow number (pool order) */
	uint32_t keys; /* map keys it may add: its root and, for a fence, those above */
	uint32_t bucket;
	uint8_t cls;   /* 0: RO, 1: RW */
	uint8_t fence; /* a fence's root, else an allow's */
};

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

/* Files an item's bucket (by its first component) and key bound. */
static void item_init(struct item *it, const char *rel, size_t len, uint32_t id, int cls,
		      bool fence, size_t nbuckets)
{
	size_t first = 0;
	uint64_t h = LF_FNV_BASIS;
	uint32_t slashes = 0;
	while (first < len && rel[first] != '/')
		h = lf_fnv_step(h, rel[first++]);
	if (fence)
		for (size_t j = first; j < len; j++)
			slashes += rel[j] == '/';
	it->rel = rel;
	it->len = (uint32_t)len;
	it->id = id;
	it->cls = (uint8_t)cls;
	it->fence = fence;
	it->keys = 1 + slashes;
	it->bucket = (uint32_t)((h ^ (h >> 29)) & (nbuckets - 1));
}

/*
 * Files a fence in the map: on its root, and as "below" on every non-empty
 * root above it, nearest first, stopping at the first one already marked
 * for the class: whoever marked it marked every root above it too. Fences
 * arrive in pool order, so the first one to reach an entry stays its first.
 */
static void fence_add(struct root_map *m, const struct item *it)
{
	const char *rel = it->rel;
	size_t len = it->len;
	int c = it->cls;
	uint64_t hs[64];
	size_t ends[64], nends = 0;
	bool deep = false;
	uint64_t h = LF_FNV_BASIS;

	for (size_t j = 0; j < len; j++) {
		if (rel[j] == '/') {
			if (nends < 64) {
				hs[nends] = h;
				ends[nends++] = j;
			} else {
				deep = true;
			}
		}
		h = lf_fnv_step(h, rel[j]);
	}
	struct root_info *e = map_get(m, h, rel, len);
	if (e->eq[c] == NONE)
		e->eq[c] = it->id;
	if (deep) {
		/* Too many levels to remember: mark each one from the top. */
		h = LF_FNV_BASIS;
		for (size_t j = 0; j < len; j++) {
			if (rel[j] == '/') {
				e = map_get(m, h, rel, j);
				if (e->below[c] == NONE)
					e->below[c] = it->id;
			}
			h = lf_fnv_step(h, rel[j]);
		}
		return;
	}
	while (nends > 0) {
		nends--;
		e = map_get(m, hs[nends], rel, ends[nends]);
		if (e->below[c] != NONE)
			break;
		e->below[c] = it->id;
	}
}

/* The first fence (pool order) of the item's class on, above (short of "")
 * or below its root, or NONE; *root is the root's entry, if any. A prefix
 * missing from the map has no fence on or below it, hence none below the
 * root either. */
static uint32_t fence_conflict(const struct root_map *m, const struct item *it,
			       struct root_info **root)
{
	const char *rel = it->rel;
	size_t len = it->len;
	int c = it->cls;
	uint32_t best = NONE;
	uint64_t h = LF_FNV_BASIS;

	*root = NULL;
	for (size_t j = 0;; j++) {
		if (j == len || rel[j] == '/') {
			struct root_info *e = map_at(m, map_slot(m, h, rel, j));
			if (!e)
				return best;
			if (e->eq[c] < best)
				best = e->eq[c];
			if (j == len) {
				*root = e;
				return e->below[c] < best ? e->below[c] : best;
			}
		}
		h = lf_fnv_step(h, rel[j]);
	}
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

/* Working memory of one compilation. */
struct work {
	struct item *items;		   /* fences first, then allows; empty roots excluded */
	struct item *sorted;		   /* the same, by bucket, stable */
	size_t *start;			   /* bucket b is sorted[start[b] .. start[b + 1]) */
	const struct lf_rule **allow_rule; /* per allow number */
	const char **allow_rel;
	uint32_t *allow_len;
	uint32_t *fenced; /* per allow: the fence that drops it, or NONE */
	uint32_t *first;  /* per allow: the first survivor on its root */
	char *bytes;	  /* the bucketed roots' bytes, not NUL-terminated */
	struct root_map map;
};

static void work_fini(struct work *w)
{
	free(w->items);
	free(w->sorted);
	free(w->start);
	free(w->allow_rule);
	free(w->allow_rel);
	free(w->allow_len);
	free(w->fenced);
	free(w->first);
	free(w->map.slots);
	free(w->map.entries);
	free(w->bytes);
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
	if (nfence >= NONE / 2 || nallow >= NONE / 2)
		return -ENOMEM;
	/* About a thousand roots per bucket: its map then stays in the cache. */
	size_t nbuckets = 1;
	while (nbuckets < 65536 && nbuckets * 1024 < nfence + nallow)
		nbuckets *= 2;

	int ret = -ENOMEM;
	struct work w;
	memset(&w, 0, sizeof(w));
	struct lf_plan *plan = calloc(1, sizeof(*plan));
	if (!plan)
		return -ENOMEM;
	plan->posture = e->fallback;
	size_t nitems = nfence + nallow;
	plan->fences = malloc((nfence ? nfence : 1) * sizeof(*plan->fences));
	plan->grants = malloc((nallow ? nallow : 1) * sizeof(*plan->grants));
	plan->dropped = malloc((nallow ? nallow : 1) * sizeof(*plan->dropped));
	w.items = malloc((nitems ? nitems : 1) * sizeof(*w.items));
	w.sorted = malloc((nitems ? nitems : 1) * sizeof(*w.sorted));
	w.start = calloc(nbuckets + 1, sizeof(*w.start));
	w.allow_rule = malloc((nallow ? nallow : 1) * sizeof(*w.allow_rule));
	w.allow_rel = malloc((nallow ? nallow : 1) * sizeof(*w.allow_rel));
	w.allow_len = malloc((nallow ? nallow : 1) * sizeof(*w.allow_len));
	w.fenced = malloc((nallow ? nallow : 1) * sizeof(*w.fenced));
	w.first = malloc((nallow ? nallow : 1) * sizeof(*w.first));
	if (!plan->fences || !plan->grants || !plan->dropped || !w.items || !w.sorted || !w.start ||
	    !w.allow_rule || !w.allow_rel || !w.allow_len || !w.fenced || !w.first)
		goto out;

	/*
	 * 1. One pass over the rules in pool order. Fence items fill items[]
	 * from the front, allow items from nfence on: scattered in that order,
	 * fences come first in every bucket. Roots on "" stay out of the
	 * buckets: a fence on "" meets every allow of its class, an allow on ""
	 * meets every fence of its class; these two numbers settle them.
	 */
	uint32_t on_root[2] = { NONE, NONE }, any[2] = { NONE, NONE };
	uint32_t na = 0;
	size_t nfitems = 0, naitems = 0;
	for (size_t i = 0; i < e->nrules; i++) {
		const struct lf_rule *r = e->rules[i];
		unsigned access = access_class(r->cap);
		if (!access)
			continue;
		int c = access == LF_ACCESS_RO ? 0 : 1;
		for (size_t k = 0; k < r->nglobs; k++) {
			const char *pattern = r->globs[k].pattern;
			size_t len = r->globs[k].prefix_len;
			if (r->effect == LF_ALLOW) {
				w.allow_rule[na] = r;
				w.allow_rel[na] = pattern;
				w.allow_len[na] = (uint32_t)len;
				w.fenced[na] = NONE;
				w.first[na] = NONE;
				if (len)
					item_init(&w.items[nfence + naitems++], pattern, len, na, c,
						  false, nbuckets);
				na++;
				continue;
			}
			uint32_t n = (uint32_t)plan->nfences++;
			struct lf_fence *f = &plan->fences[n];
			f->abs_root = arena_join(&plan->arena, base, blen, pattern, len);
			if (!f->abs_root)
				goto out;
			/* The relative root is the tail of the absolute one ("" for
			 * the project root: the terminating NUL). */
			f->rel_root = f->abs_root + strlen(f->abs_root) - len;
			f->access = access;
			f->effect = r->effect;
			f->source = r->source;
			if (any[c] == NONE)
				any[c] = n;
			if (len == 0) {
				if (on_root[c] == NONE)
					on_root[c] = n;
				continue;
			}
			item_init(&w.items[nfitems++], f->rel_root, len, n, c, true, nbuckets);
		}
	}

	/*
	 * 3. Stable counting sort by bucket. The roots' bytes move into bucket
	 * order too, so that each bucket reads one stretch of memory instead
	 * of strings strewn over the policy; the map is sized for the largest
	 * bucket.
	 */
	size_t *keys = calloc(nbuckets, sizeof(*keys));
	size_t *bytes = calloc(nbuckets + 1, sizeof(*bytes));
	size_t *fill = malloc(nbuckets * sizeof(*fill));
	if (!keys || !bytes || !fill) {
		free(keys);
		free(bytes);
		free(fill);
		goto out;
	}
	const size_t range[2][2] = { { 0, nfitems }, { nfence, nfence + naitems } };
	for (int part = 0; part < 2; part++) {
		for (size_t i = range[part][0]; i < range[part][1]; i++) {
			const struct item *it = &w.items[i];
			w.start[it->bucket + 1]++;
			keys[it->bucket] += it->keys;
			bytes[it->bucket + 1] += it->len;
		}
	}
	size_t most = 0, size = 16;
	for (size_t b = 0; b < nbuckets; b++) {
		w.start[b + 1] += w.start[b];
		bytes[b + 1] += bytes[b];
		if (keys[b] > most)
			most = keys[b];
	}
	while (size < 2 * most)
		size *= 2;
	w.map.slots = malloc(size * sizeof(*w.map.slots));
	w.map.entries = malloc((most ? most : 1) * sizeof(*w.map.entries));
	w.bytes = malloc(bytes[nbuckets] ? bytes[nbuckets] : 1);
	if (!w.map.slots || !w.map.entries || !w.bytes) {
		free(keys);
		free(bytes);
		free(fill);
		goto out;
	}
	memcpy(fill, w.start, nbuckets * sizeof(*fill));
	for (int part = 0; part < 2; part++) {
		for (size_t i = range[part][0]; i < range[part][1]; i++) {
			const struct item *it = &w.items[i];
			char *dst = w.bytes + bytes[it->bucket];
			memcpy(dst, it->rel, it->len);
			bytes[it->bucket] += it->len;
			struct item *s = &w.sorted[fill[it->bucket]++];
			*s = *it;
			s->rel = dst;
		}
	}
	free(bytes);
	free(fill);

	/* 4. Bucket by bucket: fences into the map, then the allows against
	 * it (fences precede allows in items, so in every bucket too). */
	/* NOLINTBEGIN(clang-analyzer-unix.Malloc,clang-analyzer-core.uninitialized.Branch) */
	for (size_t b = 0; b < nbuckets; b++) {
		if (w.start[b] == w.start[b + 1])
			continue;
		map_reset(&w.map, keys[b]);
		for (size_t i = w.start[b]; i < w.start[b + 1]; i++) {
			const struct item *it = &w.sorted[i];
			if (it->fence) {
				fence_add(&w.map, it);
				continue;
			}
			struct root_info *root;
			uint32_t f = fence_conflict(&w.map, it, &root);
			if (on_root[it->cls] < f)
				f = on_root[it->cls];
			w.fenced[it->id] = f;
			if (f != NONE)
				continue;
			if (!root)
				root = map_get(&w.map, lf_fnv(it->rel, it->len), it->rel, it->len);
			if (root->first == NONE)
				root->first = it->id;
			w.first[it->id] = root->first;
		}
	}
	/* NOLINTEND(clang-analyzer-unix.Malloc,clang-analyzer-core.uninitialized.Branch) */
	free(keys);

	/* 5. The allows in pool order: drops, and grants in order of their
	 * first surviving allow. first[] turns into grant numbers on the way:
	 * an allow's first survivor comes before it. */
	uint32_t root_first = NONE;
	for (uint32_t a = 0; a < na; a++) {
		const struct lf_rule *r = w.allow_rule[a];
		const char *rel = w.allow_rel[a];
		size_t len = w.allow_len[a];
		unsigned access = access_class(r->cap);
		if (len == 0)
			w.fenced[a] = any[access == LF_ACCESS_RO ? 0 : 1];
		if (w.fenced[a] != NONE) {
			const struct lf_fence *f = &plan->fences[w.fenced[a]];
			struct lf_dropped *d = &plan->dropped[plan->ndropped++];
			d->abs_root = arena_join(&plan->arena, base, blen, rel, len);
			if (!d->abs_root)
				goto out;
			d->access = access;
			d->allow = r->source;
			d->fence_root = f->abs_root;
			d->fence = f->source;
			d->fence_effect = f->effect;
			continue;
		}
		if (len == 0) {
			if (root_first == NONE)
				root_first = a;
			w.first[a] = root_first;
		}
		uint32_t gid;
		if (w.first[a] == a) {
			gid = (uint32_t)plan->ngrants++;
			struct lf_grant *gr = &plan->grants[gid];
			gr->abs_root = arena_join(&plan->arena, base, blen, rel, len);
			if (!gr->abs_root)
				goto out;
			gr->access = 0;
			w.first[a] = gid;
		} else {
			gid = w.first[w.first[a]];
		}
		plan->grants[gid].access |= access;
	}
	ret = 0;
out:
	work_fini(&w);
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
