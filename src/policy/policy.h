/* SPDX-License-Identifier: MIT */
/*
 * Internal interface of src/policy: helpers shared by the policy loader,
 * the embedded default and the Claude Code settings translation.
 */
#ifndef LF_POLICY_POLICY_H
#define LF_POLICY_POLICY_H

#include <stdbool.h>
#include <stddef.h>

#include "core/model.h"
#include "landfence.h"

/* Names to enums: "allow" / "ask" / "deny"; "read" / "write" / "delete" /
 * "bash". Return 0 or -EINVAL. */
int lf_effect_parse(const char *s, enum lf_effect *out);
int lf_capability_parse(const char *s, enum lf_capability *out);

/* Whether s is a portable environment variable name ([A-Za-z_][A-Za-z0-9_]*). */
bool lf_env_name_valid(const char *s);

/* The largest policy file landfence reads, whichever layer it is (the
 * loader, and the trust check that reads a project policy before it is
 * parsed): a policy nobody could review is refused before it is read
 * into memory. LF_POLICY_MAX_SIZE_TEXT says it in messages. */
#define LF_POLICY_MAX_SIZE (4u << 20)
#define LF_POLICY_MAX_SIZE_TEXT "4 MiB"

/* Reads a whole file (O_CLOEXEC) into a NUL-terminated malloc'ed buffer.
 * Returns 0, -EFBIG when larger than max bytes, -ENOMEM, or the negative
 * errno of open/read (-EISDIR for a directory). */
int lf_file_read(const char *path, size_t max, char **text, size_t *len);

/* The same for path relative to dirfd (AT_FDCWD: the working directory).
 * With LF_FILE_STRICT, only a regular file reached without following a
 * symbolic link is read: a link is -ELOOP, anything else (a directory, a
 * FIFO, which does not block the open) -EINVAL. max must be below
 * SIZE_MAX - 1. */
#define LF_FILE_STRICT 1u
int lf_file_read_at(int dirfd, const char *path, unsigned flags, size_t max, char **text,
		    size_t *len);

/* The same for what is left to read on fd (left open), e.g. standard
 * input; hint is a first guess of the size (0: none). */
int lf_fd_read(int fd, size_t hint, size_t max, char **text, size_t *len);
/* Writes buf[0..n) to fd whole, again after a short write or EINTR.
 * Returns 0, or -1 with errno (a write that wrote nothing: EIO). */
int lf_fd_write(int fd, const void *buf, size_t n);

/* The JSON text landfence writes (two-space indent, keys in insertion
 * order, a trailing newline) of root, malloc'ed into *out: the policy
 * files and the exported Claude Code settings look alike. Returns 0 or
 * -ENOMEM. */
struct json_t;
int lf_json_dump(const struct json_t *root, char **out);

/* The embedded default policy's JSON text and the file name its rules
 * carry ("<embedded>"), so `landfence plan` can show where they come from. */
extern const char lf_policy_default_text[];
#define LF_POLICY_DEFAULT_FILE "<embedded>"

/*
 * Claude Code settings (doc/claude-settings.md).
 */

/* One settings file, a layer of the import. */
struct lf_claude_file {
	const char *name; /* as given; used in notes and diagnostics */
	const char *text;
	size_t len;
	const char *project_root; /* the project this settings file belongs to
				     (absolute), the anchor of "/x" patterns;
				     NULL: the import's project root */
};

struct lf_claude_opts {
	const char *project_root; /* absolute: the project the policy is for */
	const char *home;	  /* absolute home directory for "~/"; NULL: none */
};

/* Translates the permissions of n settings files (in precedence order:
 * later files override earlier ones' defaultMode; rules are pooled) into a
 * policy named "<claude import>". Whatever has no exact landfence
 * equivalent is described in notes (one line each: "FILE: "RULE": why").
 * Returns 0 and *out, or:
 *   -EINVAL  a malformed settings file (diag: FILE:LINE:COLUMN: message)
 *   -ENOMEM */
int lf_claude_import(const struct lf_claude_file *files, size_t n, const struct lf_claude_opts *o,
		     struct lf_policy **out, struct lf_strv *notes, struct lf_diag *diag);

/* Writes the Claude Code settings.json of an effective policy (a
 * "permissions" block, two-space indent, trailing newline) into *out.
 * What Claude cannot express is described in notes.
 * Returns 0, -EINVAL (e NULL), -ENOMEM. */
int lf_claude_export(const struct lf_effective *e, char **out, struct lf_strv *notes);

/* The same, against the sandbox plan compiled from e: an allow the plan
 * drops (a deny or ask of its class inside it; Landlock cannot carve a
 * hole) is exported as an ask, with a note naming the allow and the fence,
 * so that Claude Code never says yes where the kernel refuses. plan NULL:
 * as lf_claude_export. */
int lf_claude_export_plan(const struct lf_effective *e, const struct lf_plan *plan, char **out,
			  struct lf_strv *notes);

#endif /* LF_POLICY_POLICY_H */
