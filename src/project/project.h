/* SPDX-License-Identifier: MIT */
/*
 * Opening a project (src/project): the root with every refusal, the
 * managed layer, trust, the layers, the effective policy and the plan.
 * The public API is lf_project_* and lf_trust_* in landfence.h; this is
 * what the rest of the library shares. Internal: not installed.
 */
#ifndef LF_PROJECT_PROJECT_H
#define LF_PROJECT_PROJECT_H

#include <stdbool.h>
#include <stddef.h>

#include "core/model.h"
#include "landfence.h"

struct lf_project {
	char *project_root; /* canonical absolute */
	struct lf_policy **layers;
	struct lf_project_layer *info; /* file names owned (strdup) */
	size_t nlayers, cap;
	bool embedded_default;
	struct lf_effective *eff;
	struct lf_plan *plan;
	struct lf_strv warnings;
};

/* The path of name in landfence's configuration directory
 * ($XDG_CONFIG_HOME/landfence when absolute, else ~/.config/landfence):
 * the user policy and the trust store live there, and the sandbox value
 * fences the same directory. Returns 0, -ENOENT when neither variable is
 * an absolute path, -ENAMETOOLONG. */
int lf_config_path(const char *name, char *out, size_t size);

/* The trust store (src/project/trust.c, doc/trust.md).
 * lf_trust_policy_path: root/.landfence/policy.json into out: 0, or
 * -ELOOP when .landfence or the policy is a symbolic link, -ENOTDIR,
 * -EINVAL (not a regular file), -ENOENT, -ENAMETOOLONG.
 * lf_trust_known: whether the store has a line for path.
 * lf_trust_read_policy: a policy's bytes, bounded like the loader's.
 * lf_trust_check: 0 trusted, -EPERM never trusted, -ESTALE changed since,
 * another negative errno when the store is unreadable.
 * lf_trust_record: records the digest of text for canon_path.
 * lf_trust_refusal: the refusal for -EPERM, -ESTALE, -ELOOP and -ENOENT (a
 * trusted policy that is gone), or "cannot check" for another error, into
 * diag (shown_path names the file). */
int lf_trust_policy_path(const char *project_root, char *out, size_t size);
bool lf_trust_known(const char *path);
int lf_trust_read_policy(const char *path, char **text, size_t *len);
int lf_trust_check(const char *canon_path, const void *text, size_t len);
int lf_trust_record(const char *canon_path, const void *text, size_t len);
void lf_trust_refusal(const char *shown_path, int err, struct lf_diag *diag);

#endif /* LF_PROJECT_PROJECT_H */
