/* SPDX-License-Identifier: MIT */
/*
 * A parsed policy in a compact form of its own, so that a launch can read
 * a large policy without jansson: the tree of a 10,000-rule file costs a
 * launch ~45 ms to build, its compiled form a few. What the form holds is
 * exactly what lf_policy_parse made of the file (rules, patterns as
 * normalised, command rules, every list, the ports, the flags, each
 * source position); the file's name and layer are the reader's. Where it
 * is kept, and under what key: project.c and doc/policy.md ("Compiled
 * policies"). Internal to the library.
 */
#ifndef LF_POLICY_COMPILED_H
#define LF_POLICY_COMPILED_H

#include <stddef.h>

#include "core/model.h"

/* Writes p's compiled form into *out (malloc'ed, *len bytes). Returns 0,
 * -ENOMEM, or -EINVAL (p holds a value the form cannot carry: a count or
 * position beyond 32 bits). */
int lf_policy_compile_form(const struct lf_policy *p, char **out, size_t *len);

/* Rebuilds a policy from buf[0..len), its file named filename, of layer
 * layer, through the model's constructors: every pattern must come out of
 * lf_glob_init as it went in, every command rule out of lf_cmd_rule_init,
 * every count and string lie within buf. Returns 0 and *out (free with
 * lf_policy_free), -EINVAL when buf is not such a form (nothing is kept),
 * or -ENOMEM. */
int lf_policy_from_form(const void *buf, size_t len, const char *filename, enum lf_layer layer,
			struct lf_policy **out);

#endif /* LF_POLICY_COMPILED_H */
