/* SPDX-License-Identifier: MIT */
/*
 * The indexes of a resolved policy: file decisions (src/core/decide.c) and
 * command rules (src/core/decide_bash.c).
 * Internal to the core.
 */
#ifndef LF_CORE_DECIDE_INDEX_H
#define LF_CORE_DECIDE_INDEX_H

#include "core/model.h"

/* Builds the index over e->rules. Returns 0 and *out, or -ENOMEM. */
int lf_decide_index_build(const struct lf_effective *e, struct lf_decide_index **out);
void lf_decide_index_free(struct lf_decide_index *idx);

/* The bash rules of e and their command rules by first byte
 * (src/core/decide_bash.c). Returns 0 and *out, or -ENOMEM. */
int lf_bash_index_build(const struct lf_effective *e, struct lf_bash_index **out);
void lf_bash_index_free(struct lf_bash_index *ix);

#endif /* LF_CORE_DECIDE_INDEX_H */
