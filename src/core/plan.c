/* SPDX-License-Identifier: MIT */
/*
 * compile_sandbox_plan of the seed (SPEC §2), in O(n log n).
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
 * fence; here the fences of a class are hashed by root (for the "equal or
 * above" test: look up each '/'-prefix of the allow's root) and sorted (for
 * the "below" test: the fences under "root/" form one range of the sorted
 * order). The fence reported for a dropped allow is the first conflicting
 * fence in pool order, found with a range-minimum table. Pure.
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

/* ---- a map from a root (bytes) to a number --------------------------- */

struct pmap_slot {
	const char *key; /* NULL: empty */
	uint64_t hash;
	size_t len;
	uint32_t value;
};

struct pmap {
	struct pmap_slot *slots;
	size_t mask;
};

static uint64_t fnv(const char *s, size_t n)
{
	uint64_t h = FNV_BASIS;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * FNV_PRIME;
	return h;
}

static int pmap_init(struct pmap *m, size_t n)
{
	size_t size = 8;
	while (size < 2 * n)
		size *= 2;
	m->slots = calloc(size, sizeof(*m->slots));
	m->mask = size - 1;
	return m->slots ? 0 : -ENOMEM;
}

static struct pmap_slot *pmap_find(const struct pmap *m, uint64_t h, const char *key, size_t len)
{
	for (size_t i = h & m->mask;; i = (i + 1) & m->mask) {
		struct pmap_slot *s = &m->slots[i];
		if (!s->key || (s->hash == h && s->len == len && memcmp(s->key, key, len) == 0))
			return s;
	}
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

/* The fences of one access class, searchable. */
struct sorted_fence {
	const char *rel;
	uint32_t n; /* the fence's number, its position in pool order */
};

struct fence_class {
	struct sorted_fence *sorted; /* by rel_root, then by number */
	size_t n;
	uint32_t **rmq; /* rmq[k][i] = least fence number in sorted[i, i + 2^k) */
	size_t levels;
	struct pmap by_root; /* rel_root -> least fence number */
};

static int fence_cmp(const void *a, const void *b)
{
	const struct sorted_fence *x = a, *y = b;
	int c = strcmp(x->rel, y->rel);
	if (c)
		return c;
	return x->n < y->n ? -1 : x->n > y->n;
}

static void fence_class_fini(struct fence_class *fc)
{
	if (fc->rmq)
		for (size_t k = 0; k < fc->levels; k++)
			free(fc->rmq[k]);
	free(fc->rmq);
	free(fc->sorted);
	free(fc->by_root.slots);
}

static int fence_class_build(struct fence_class *fc, const struct lf_fence *fences, size_t nfences,
			     unsigned access)
{
	memset(fc, 0, sizeof(*fc));
	for (size_t i = 0; i < nfences; i++)
		if (fences[i].access == access)
			fc->n++;
	fc->sorted = malloc((fc->n ? fc->n : 1) * sizeof(*fc->sorted));
	if (!fc->sorted || pmap_init(&fc->by_root, fc->n) < 0)
		return -ENOMEM;
	size_t n = 0;
	for (size_t i = 0; i < nfences; i++) {
		if (fences[i].access != access)
			continue;
		const char *rel = fences[i].rel_root;
		fc->sorted[n].rel = rel;
		fc->sorted[n++].n = (uint32_t)i;
		size_t len = strlen(rel);
		uint64_t h = fnv(rel, len);
		struct pmap_slot *s = pmap_find(&fc->by_root, h, rel, len);
		if (!s->key) {
			/* Fences are visited in pool order: the first one stays. */
			s->key = rel;
			s->hash = h;
			s->len = len;
			s->value = (uint32_t)i;
		}
	}
	qsort(fc->sorted, fc->n, sizeof(*fc->sorted), fence_cmp);

	fc->levels = 1;
	while (((size_t)1 << fc->levels) <= fc->n)
		fc->levels++;
	fc->rmq = calloc(fc->levels, sizeof(*fc->rmq));
	if (!fc->rmq)
		return -ENOMEM;
	for (size_t k = 0; k < fc->levels; k++) {
		fc->rmq[k] = malloc((fc->n ? fc->n : 1) * sizeof(**fc->rmq));
		if (!fc->rmq[k])
			return -ENOMEM;
	}
	for (size_t i = 0; i < fc->n; i++)
		fc->rmq[0][i] = fc->sorted[i].n;
	for (size_t k = 1; k < fc->levels; k++) {
		size_t half = (size_t)1 << (k - 1);
		for (size_t i = 0; i + 2 * half <= fc->n; i++) {
			uint32_t a = fc->rmq[k - 1][i], b = fc->rmq[k - 1][i + half];
			fc->rmq[k][i] = a < b ? a : b;
		}
	}
	return 0;
}

static uint32_t rmq_min(const struct fence_class *fc, size_t lo, size_t hi)
{
	size_t k = 0;
	while (((size_t)2 << k) <= hi - lo)
		k++;
	uint32_t a = fc->rmq[k][lo], b = fc->rmq[k][hi - ((size_t)1 << k)];
	return a < b ? a : b;
}

/* Orders a fence root f against the range of roots under rel + "/". */
static int under_cmp(const char *f, const char *rel, size_t len)
{
	int c = strncmp(f, rel, len);
	if (c)
		return c;
	return (int)(unsigned char)f[len] - '/';
}

/* The least fence number conflicting with the root rel[0..len), or NONE. */
static uint32_t fence_conflict(const struct fence_class *fc, const char *rel, size_t len)
{
	if (fc->n == 0)
		return NONE;
	if (len == 0) /* every fence is the root or below it */
		return rmq_min(fc, 0, fc->n);

	uint32_t best = NONE;
	/* Equal or above: "" and every '/'-prefix of rel, rel itself last. */
	uint64_t h = FNV_BASIS;
	const struct pmap_slot *s = pmap_find(&fc->by_root, h, rel, 0);
	if (s->key)
		best = s->value;
	for (size_t i = 0; i < len; i++) {
		h = (h ^ (unsigned char)rel[i]) * FNV_PRIME;
		if (i + 1 == len || rel[i + 1] == '/') {
			s = pmap_find(&fc->by_root, h, rel, i + 1);
			if (s->key && s->value < best)
				best = s->value;
		}
	}
	/* Below: the sorted range of roots starting with rel + "/". */
	size_t lo = 0, hi = fc->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (under_cmp(fc->sorted[mid].rel, rel, len) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	size_t first = lo;
	hi = fc->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (under_cmp(fc->sorted[mid].rel, rel, len) <= 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (first < lo) {
		uint32_t m = rmq_min(fc, first, lo);
		if (m < best)
			best = m;
	}
	return best;
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
	struct fence_class fc[2];
	memset(fc, 0, sizeof(fc));
	struct pmap grant_by_root = { 0 };
	struct lf_plan *plan = calloc(1, sizeof(*plan));
	if (!plan)
		return -ENOMEM;
	plan->posture = e->fallback;
	plan->fences = calloc(nfence ? nfence : 1, sizeof(*plan->fences));
	plan->grants = calloc(nallow ? nallow : 1, sizeof(*plan->grants));
	plan->dropped = calloc(nallow ? nallow : 1, sizeof(*plan->dropped));
	if (!plan->fences || !plan->grants || !plan->dropped)
		goto out;

	/* 1. Fences, in pool order. */
	for (size_t i = 0; i < e->nrules; i++) {
		const struct lf_rule *r = e->rules[i];
		unsigned access = access_class(r->cap);
		if (!access || r->effect == LF_ALLOW)
			continue;
		for (size_t k = 0; k < r->nglobs; k++) {
			const struct lf_glob *g = &r->globs[k];
			struct lf_fence *f = &plan->fences[plan->nfences++];
			f->rel_root = arena_strndup(&plan->arena, g->pattern, g->prefix_len);
			f->abs_root =
				arena_join(&plan->arena, base, blen, g->pattern, g->prefix_len);
			if (!f->rel_root || !f->abs_root)
				goto out;
			f->access = access;
			f->effect = r->effect;
			f->source = r->source;
		}
	}
	if (fence_class_build(&fc[0], plan->fences, plan->nfences, LF_ACCESS_RO) < 0 ||
	    fence_class_build(&fc[1], plan->fences, plan->nfences, LF_ACCESS_RW) < 0 ||
	    pmap_init(&grant_by_root, nallow) < 0)
		goto out;

	/* 2. Allows: dropped when fenced in their class, else merged by root. */
	for (size_t i = 0; i < e->nrules; i++) {
		const struct lf_rule *r = e->rules[i];
		unsigned access = access_class(r->cap);
		if (!access || r->effect != LF_ALLOW)
			continue;
		const struct fence_class *cls = &fc[access == LF_ACCESS_RO ? 0 : 1];
		for (size_t k = 0; k < r->nglobs; k++) {
			const char *rel = r->globs[k].pattern;
			size_t len = r->globs[k].prefix_len;
			uint32_t f = fence_conflict(cls, rel, len);
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
			uint64_t h = fnv(rel, len);
			struct pmap_slot *s = pmap_find(&grant_by_root, h, rel, len);
			if (!s->key) {
				struct lf_grant *g = &plan->grants[plan->ngrants];
				g->abs_root = arena_join(&plan->arena, base, blen, rel, len);
				if (!g->abs_root)
					goto out;
				g->access = 0;
				s->key = rel;
				s->hash = h;
				s->len = len;
				s->value = (uint32_t)plan->ngrants++;
			}
			plan->grants[s->value].access |= access;
		}
	}
	ret = 0;
out:
	fence_class_fini(&fc[0]);
	fence_class_fini(&fc[1]);
	free(grant_by_root.slots);
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
