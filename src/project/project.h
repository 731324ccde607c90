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

/* The store read once for several questions (opening a project asks
 * about the root and each of its ancestors, then checks the project
 * policy: one read, not one per question). Zero-initialise; the first
 * question reads the store; lf_trust_store_known and lf_trust_store_check
 * answer as lf_trust_known and lf_trust_check do, and a check that
 * passes writes the text's SHA-256 (hex, 65 bytes with the NUL) into
 * digest unless it is NULL; lf_trust_store_fini frees it. */
struct lf_trust_store {
	bool loaded;
	int err; /* 0, -EPERM (no store: nothing trusted), another -errno */
	char *text;
};
bool lf_trust_store_known(struct lf_trust_store *s, const char *path);
int lf_trust_store_check(struct lf_trust_store *s, const char *canon_path, const void *text,
			 size_t len, char *digest);
void lf_trust_store_fini(struct lf_trust_store *s);
int lf_trust_read_policy(const char *path, char **text, size_t *len);
int lf_trust_check(const char *canon_path, const void *text, size_t len);
int lf_trust_record(const char *canon_path, const void *text, size_t len);
void lf_trust_refusal(const char *shown_path, int err, struct lf_diag *diag);

/* A trusted project policy (canon, whose text's SHA-256 the trust check
 * gave as digest), parsed as lf_policy_parse does, for path: from its
 * compiled form in the cache directory when one was kept for that text by
 * this build, else parsed, and a text of at least LF_POLICY_FORM_MIN bytes
 * then kept so (polcache.c, doc/policy.md "Compiled policies"). Returns
 * as lf_policy_parse. */
#define LF_POLICY_FORM_MIN (32u << 10)
int lf_policy_parse_trusted(const char *canon, const char *digest, const char *text, size_t len,
			    const char *path, struct lf_policy **out, struct lf_diag *diag);

#endif /* LF_PROJECT_PROJECT_H */
