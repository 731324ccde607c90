/* SPDX-License-Identifier: MIT */
/*
 * Resolving policy layers into one effective policy (SPEC §1): rules pooled
 * in layer order (user, project, agent, local), the strictest stated
 * fallback. Deny-wins needs nothing here: decisions look at every pooled
 * rule, so a deny in any layer is never overridden. Pure.
 */
#include <errno.h>
#include <stdlib.h>

#include "core/decide_index.h"
#include "core/model.h"

int lf_effective_resolve(const struct lf_policy *const *layers, size_t n, struct lf_effective **out)
{
	if (!out || (n && !layers))
		return -EINVAL;
	if (n == 0) {
		/* No layer is no policy: the program runs natively. */
		*out = NULL;
		return 0;
	}
	for (size_t i = 0; i < n; i++)
		if (!layers[i])
			return -EINVAL;

	struct lf_effective *e = calloc(1, sizeof(*e));
	const struct lf_policy **sorted = calloc(n, sizeof(*sorted));
	if (!e || !sorted) {
		free(e);
		free(sorted);
		return -ENOMEM;
	}
	/* Stable insertion sort by layer: a handful of layers, and layers of
	 * the same kind keep the order they were given in (-p FILE order). */
	size_t nrules = 0;
	for (size_t i = 0; i < n; i++) {
		size_t j = i;
		while (j > 0 && sorted[j - 1]->layer > layers[i]->layer) {
			sorted[j] = sorted[j - 1];
			j--;
		}
		sorted[j] = layers[i];
		nrules += layers[i]->nrules;
	}

	e->layers = sorted;
	e->nlayers = n;
	e->rules = calloc(nrules ? nrules : 1, sizeof(*e->rules));
	if (!e->rules) {
		lf_effective_free(e);
		return -ENOMEM;
	}
	/* A layer that states no fallback has no say; when none states one the
	 * result is ask: neither silently open nor silently closed. */
	bool stated = false;
	lf_posture fallback = LF_ASK;
	for (size_t i = 0; i < n; i++) {
		const struct lf_policy *p = sorted[i];
		for (size_t k = 0; k < p->nrules; k++)
			e->rules[e->nrules++] = &p->rules[k];
		if (p->has_fallback) {
			if (!stated || p->fallback > fallback)
				fallback = p->fallback;
			stated = true;
		}
	}
	e->fallback = fallback;

	/* The file rules' index waits for a file decision (decide.c). */
	int r = lf_bash_index_build(e, &e->bash_index);
	if (r < 0) {
		lf_effective_free(e);
		return r;
	}
	*out = e;
	return 0;
}

void lf_effective_free(struct lf_effective *e)
{
	if (!e)
		return;
	lf_decide_index_free(e->index);
	lf_bash_index_free(e->bash_index);
	free(e->rules);
	free((void *)e->layers);
	free(e);
}

lf_posture lf_effective_fallback(const struct lf_effective *e)
{
	/* No policy decides nothing; the strictest answer is the safe one. */
	return e ? e->fallback : LF_DENY;
}

int lf_effective_layer_of(const struct lf_effective *e, const struct lf_source *src,
			  enum lf_layer *layer)
{
	if (!e || !src || !src->file || !layer)
		return -ENOENT;
	/* Rules point at their policy's own file name: identity, not text,
	 * so two layers loaded from files of the same name stay apart. */
	for (size_t i = 0; i < e->nlayers; i++)
		if (e->layers[i]->file == src->file) {
			*layer = e->layers[i]->layer;
			return 0;
		}
	return -ENOENT;
}

int lf_resolve(const struct lf_policy *const *layers, size_t n, struct lf_effective **out)
{
	return lf_effective_resolve(layers, n, out);
}
