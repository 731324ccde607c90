/* SPDX-License-Identifier: MIT */
/*
 * The boundary between the Landlock adapter (src/landlock) and the launcher
 * (src/launch) and CLI. Internal: not installed.
 *
 * lf_sandbox_build() turns a compiled plan into the final set of
 * path-beneath rules: the plan's grants, the materialised fallback, host
 * grants, agent profiles, the run directory and the command itself — every
 * one fenced (after symlink resolution) by the plan's fences of its class.
 * It does file-system I/O (realpath, stat) but no Landlock syscall.
 *
 * lf_sandbox_ruleset_fd() creates the ruleset and adds the rules; call it
 * before fork. lf_landlock_restrict() is the only call made in the child.
 */
#ifndef LF_LANDLOCK_SANDBOX_H
#define LF_LANDLOCK_SANDBOX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "landfence.h"

/* Where a final rule comes from (for `landfence plan`). */
enum lf_origin {
	LF_ORIGIN_POLICY = 0,	   /* a grant of the compiled plan */
	LF_ORIGIN_FALLBACK = 1,	   /* the materialised allow fallback */
	LF_ORIGIN_HOST = 2,	   /* a default host grant */
	LF_ORIGIN_HOST_POLICY = 3, /* the policy's "host" section */
	LF_ORIGIN_PROFILE = 4,	   /* an agent profile */
	LF_ORIGIN_RUN_DIR = 5,	   /* the private TMPDIR / run directory */
	LF_ORIGIN_COMMAND = 6,	   /* the command or its interpreter */
	LF_ORIGIN_DEVICE = 7,	   /* a /dev node or directory */
};

/* One final path-beneath rule. */
struct lf_final_rule {
	char *path;	   /* canonical absolute path (owned) */
	unsigned access;   /* LF_ACCESS_* classes granted */
	uint64_t landlock; /* the Landlock rights it will carry at this ABI */
	bool ioctl_dev;	   /* terminal ioctls (only /dev/tty, /dev/ptmx, /dev/pts) */
	enum lf_origin origin;
	char *why; /* human-readable source, e.g. the rule or profile (owned) */
};

/* A grant dropped by the adapter because a fence of its class covers it,
 * or skipped because its path does not exist. */
struct lf_final_dropped {
	char *path;
	unsigned access;
	enum lf_origin origin;
	char *why;   /* owned */
	char *fence; /* canonical fence path, NULL when skipped as missing */
	struct lf_source fence_source;
};

struct lf_sandbox_opts {
	const char *project_root;    /* canonical absolute */
	const char *run_dir;	     /* the private TMPDIR, already created; NULL: none */
	const char *home;	     /* for "~" and profiles; NULL: from secure_getenv("HOME") */
	const char *const *profiles; /* --profile names plus the policy's "profiles" */
	size_t nprofiles;
	const char *command; /* resolved absolute path of the program, or NULL */
	int abi_max;	     /* < 0: LANDFENCE_ABI_MAX from the environment */
};

struct lf_sandbox;

/* Builds the final rules and predicts the status.
 * Returns 0 and *out, or:
 *   -EINVAL        bad options, unknown profile (diag says which)
 *   -EOPNOTSUPP    KernelTooOld: fallback deny and the plan cannot be fully
 *                  enforced at this ABI (diag says why); nothing may run
 *   -ENOMEM
 * An Unsupported or Degraded status under another posture is not an error:
 * see lf_sandbox_status(). */
int lf_sandbox_build(const struct lf_effective *eff, const struct lf_plan *plan,
		     const struct lf_sandbox_opts *o, struct lf_sandbox **out,
		     struct lf_diag *diag);
void lf_sandbox_free(struct lf_sandbox *sb);

int lf_sandbox_abi(const struct lf_sandbox *sb);
const struct lf_status *lf_sandbox_status(const struct lf_sandbox *sb);
uint64_t lf_sandbox_handled(const struct lf_sandbox *sb); /* handled_access_fs */
uint64_t lf_sandbox_scoped(const struct lf_sandbox *sb);  /* scope bits, 0 below ABI 6 */
size_t lf_sandbox_rule_count(const struct lf_sandbox *sb);
const struct lf_final_rule *lf_sandbox_rule(const struct lf_sandbox *sb, size_t i);
size_t lf_sandbox_dropped_count(const struct lf_sandbox *sb);
const struct lf_final_dropped *lf_sandbox_dropped(const struct lf_sandbox *sb, size_t i);
/* Notices for the user: hardenings this kernel lacks, grants added for the
 * command, hard links found, ... (owned by the sandbox). */
size_t lf_sandbox_notice_count(const struct lf_sandbox *sb);
const char *lf_sandbox_notice(const struct lf_sandbox *sb, size_t i);

/* Creates the Landlock ruleset (O_CLOEXEC) holding every final rule.
 * Returns 0 and *fd (-1 when the status is Unsupported), or a negative
 * errno (diag filled). Call before fork. */
int lf_sandbox_ruleset_fd(const struct lf_sandbox *sb, int *fd, struct lf_diag *diag);

/* In the child, after no-new-privs: landlock_restrict_self(fd, 0).
 * Async-signal-safe. Returns 0 or a negative errno. */
int lf_landlock_restrict(int ruleset_fd);

/* Whether name is a known agent profile ("claude", "codex", "gemini",
 * "aider"). Pure; the policy loader uses it to reject unknown names. */
bool lf_profile_known(const char *name);

/* The name of the i-th known agent profile, in the profile table's order;
 * NULL when i is past the end. `landfence --list-profiles` prints them (the
 * shell completions read that list). */
const char *lf_profile_name(size_t i);

/* ------------------------------------------------------------------------
 * Landlock primitives (added by the adapter; see doc/landlock.md).
 */

/* What the ABI probe found. */
struct lf_abi_probe {
	int kernel; /* the kernel's ABI, 0 when Landlock is absent */
	int abi;    /* the ABI in use: kernel capped by cap */
	int cap;    /* the cap applied (option or LANDFENCE_ABI_MAX), -1 none */
	int err;    /* when kernel == 0: ENOSYS (not built in) or EOPNOTSUPP
		       (built in, not enabled at boot); else 0 */
};

/* Probes the kernel (LANDLOCK_CREATE_RULESET_VERSION) and applies the cap:
 * abi_max >= 0, else LANDFENCE_ABI_MAX (secure_getenv; unset or empty = no
 * cap). Returns 0 and *out, or -EINVAL when LANDFENCE_ABI_MAX is not a
 * decimal number >= 0, or the negative errno of an unexpected probe
 * failure. lf_landlock_abi() is this, returning out.abi. */
int lf_landlock_probe(int abi_max, struct lf_abi_probe *out);

/* A one-line "Hint: ..." telling how to enable Landlock, for err ENOSYS or
 * EOPNOTSUPP from the probe; NULL for any other value. Static string. */
const char *lf_landlock_hint(int err);

/* Every filesystem right the ABI knows (handled_access_fs), with
 * MAKE_CHAR and MAKE_BLOCK among them: handled, never granted. ABIs above
 * the newest known are treated as the newest known. 0 for abi <= 0. */
uint64_t lf_landlock_handled_fs(int abi);

/* The scope bits of the ABI (abstract UNIX sockets, signals: ABI >= 6). */
uint64_t lf_landlock_scoped(int abi);

/* The Landlock rights of LF_ACCESS_* classes at an ABI (SPEC §3 mapping):
 * RO -> READ_FILE|READ_DIR|EXECUTE; RW -> WRITE_FILE|REMOVE_*|MAKE_DIR|
 * MAKE_REG|MAKE_SOCK|MAKE_FIFO|MAKE_SYM|REFER|TRUNCATE; ioctl_dev adds
 * IOCTL_DEV. Masked by the handled set of the ABI and, when !dir, by the
 * rights a file may carry. */
uint64_t lf_landlock_rights(unsigned access, bool dir, bool ioctl_dev, int abi);

/* The name of one right ("read_file", "make_reg", ...), or NULL for a bit
 * that is not a known filesystem right. Static string. */
const char *lf_landlock_right_name(uint64_t bit);

/* "policy", "fallback", "host", "host-policy", "profile", "run-dir",
 * "command", "device". Static string. */
const char *lf_origin_name(enum lf_origin origin);

#endif /* LF_LANDLOCK_SANDBOX_H */
