/* SPDX-License-Identifier: MIT */
/*
 * The file-decision index of a resolved policy (src/core/decide.c).
 * Internal to the core.
 */
#ifndef LF_CORE_DECIDE_INDEX_H
#define LF_CORE_DECIDE_INDEX_H

#include "core/model.h"

/* Builds the index over e->rules. Returns 0 and *out, or -ENOMEM. */
int lf_decide_index_build(const struct lf_effective *e, struct lf_decide_index **out);
void lf_decide_index_free(struct lf_decide_index *idx);

#endif /* LF_CORE_DECIDE_INDEX_H */
