/* SPDX-License-Identifier: MIT */
/*
 * landfence — one permission policy for AI coding agents, enforced by the
 * kernel (Landlock) and answered for the agent's own allow / ask / deny
 * prompts.
 *
 * This is the only public header of liblandfence. Handles are opaque; their
 * lifecycle is new/parse → use → free, and every *_free() accepts NULL.
 *
 * Errors are values: functions return 0 on success or a negative errno
 * value. Output parameters are written only on success. Parsing functions
 * also fill a struct lf_diag (FILE:LINE:COLUMN: message). The library never
 * prints, exits or aborts on bad input.
 *
 * Terms. Landlock: ruleset, handled access, path-beneath rule, ABI, domain,
 * scope. This project (after the reference seed, doc/seed.md): capability,
 * effect, posture, grant, fence, plan.
 */
#ifndef LANDFENCE_H
#define LANDFENCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

#define LF_EXPORT __attribute__((visibility("default")))

/* ------------------------------------------------------------------------
 * Permission model (SPEC §1)
 */

/* What a request wants to do. Read, write and delete are file capabilities;
 * bash is a shell command line. */
enum lf_capability {
	LF_CAP_READ = 0,
	LF_CAP_WRITE = 1,
	LF_CAP_DELETE = 2,
	LF_CAP_BASH = 3,
};
#define LF_CAP_COUNT 4

/* Effect of a rule, and the verdict of a decision. The numeric order is the
 * order of strictness: allow < ask < deny. */
enum lf_effect {
	LF_ALLOW = 0,
	LF_ASK = 1,
	LF_DENY = 2,
};

/* The fallback for requests no rule matches. Same values and strictness
 * order as enum lf_effect. */
typedef enum lf_effect lf_posture;

/* Where a policy layer comes from. Layers are pooled in this order. */
enum lf_layer {
	LF_LAYER_USER = 0,
	LF_LAYER_PROJECT = 1,
	LF_LAYER_AGENT = 2,
	LF_LAYER_LOCAL = 3,
};

/* How a command rule matches a simple command (SPEC §1). */
enum lf_matcher {
	LF_MATCH_EXACT = 0,  /* the whole command, token for token */
	LF_MATCH_PREFIX = 1, /* the leading tokens: "git commit" matches
				"git commit -m x", never "git commitx" */
	LF_MATCH_GLOB = 2,   /* a glob over the whole command text; '*' also
				crosses spaces and '/' here */
};

/* Where a rule was written: a file name (owned by the policy that holds the
 * rule; "<embedded>" for the embedded default), 1-based line and column; 0
 * when unknown (rules built in memory). */
struct lf_source {
	const char *file;
	unsigned line;
	unsigned column;
};

/* A diagnostic for bad input: "FILE:LINE:COLUMN: message". */
struct lf_diag {
	char file[512];
	unsigned line;
	unsigned column;
	char message[512];
};

/* Formats a diagnostic as "FILE:LINE:COLUMN: message" into buf (always NUL
 * terminated when size > 0). Returns the length snprintf would write. */
LF_EXPORT int lf_diag_format(const struct lf_diag *diag, char *buf, size_t size);

LF_EXPORT const char *lf_effect_name(enum lf_effect effect);
LF_EXPORT const char *lf_capability_name(enum lf_capability cap);
LF_EXPORT const char *lf_layer_name(enum lf_layer layer);

/* One policy layer: file rules, bash rules, a fallback posture, host grants,
 * agent profiles and the environment scrub. */
struct lf_policy;

/* Parses a version-1 policy document (SPEC §4) from text[0..len).
 * filename is copied and used in diagnostics and rule sources.
 * Returns 0 and *out (caller frees with lf_policy_free), or:
 *   -EINVAL  malformed document; diag filled with file, line, column, message
 *   -ENOMEM  out of memory */
LF_EXPORT int lf_policy_parse(const char *text, size_t len, const char *filename,
			      enum lf_layer layer, struct lf_policy **out, struct lf_diag *diag);

/* Reads and parses the policy file at path. Errors as lf_policy_parse, plus
 * the negative errno of open/read (diag names the file, line 0). */
LF_EXPORT int lf_policy_load(const char *path, enum lf_layer layer, struct lf_policy **out,
			     struct lf_diag *diag);

/* The embedded default policy (SPEC §4): the project readable and writable,
 * every command allowed, fallback deny; host grants make programs run. */
LF_EXPORT int lf_policy_default(struct lf_policy **out);

/* Writes p as canonical JSON (keys in the order of SPEC §4, two-space
 * indent, trailing newline; doc/policy.md)
 * into a malloc'ed string *out that the caller frees. Loading the result
 * gives a policy that decides exactly like p.
 * Returns 0, or -ENOMEM. */
LF_EXPORT int lf_policy_save(const struct lf_policy *p, char **out);

LF_EXPORT void lf_policy_free(struct lf_policy *p);

/* The resolved policy of several layers (SPEC §1): rules pooled in layer
 * order, the strictest fallback, deny never overridden. */
struct lf_effective;

/* Resolves n layers. The result borrows the layers: they must outlive it.
 * n == 0 means no policy: returns 0 with *out = NULL (the program runs
 * natively; compile_sandbox_plan gives no plan).
 * Returns 0, -EINVAL (layers NULL with n > 0), -ENOMEM. */
LF_EXPORT int lf_resolve(const struct lf_policy *const *layers, size_t n,
			 struct lf_effective **out);
LF_EXPORT void lf_effective_free(struct lf_effective *e);
/* The resolved fallback: the strictest any layer states, ask when none
 * states one (doc/model.md); LF_DENY for e == NULL. */
LF_EXPORT lf_posture lf_effective_fallback(const struct lf_effective *e);

/* A decision: the verdict and the rule that decided it. When no rule
 * decided, from_fallback is true and the source is empty. For a bash
 * request, part is the simple command (or redirection) that decided, and
 * reason says why a part could not be analysed, if that decided. */
struct lf_verdict {
	enum lf_effect effect;
	bool from_fallback;
	enum lf_layer layer;
	struct lf_source source;
	char part[256];
	char reason[256];
};

/* Decides a file request (cap is read, write or delete; SPEC §1). path is
 * absolute or relative to project_root; it is normalised lexically (no
 * file system access). A path outside project_root gets the fallback.
 * Any matching deny wins, else any ask, else any allow, else the fallback;
 * the deciding rule is the first matching rule of the winning effect in
 * layer order (doc/model.md).
 * Returns 0, -EINVAL (bash capability, NULL argument), -ENOMEM (only for
 * paths longer than 4 KiB, which need a heap buffer). */
LF_EXPORT int lf_decide_file(const struct lf_effective *e, const char *project_root,
			     enum lf_capability cap, const char *path, struct lf_verdict *out);

/* Decides a shell command line (SPEC §1 bash requests). The line's verdict
 * is the strictest of its parts; what cannot be analysed is at best ask.
 * Returns 0, -EINVAL, -ENOMEM. */
LF_EXPORT int lf_decide_bash(const struct lf_effective *e, const char *project_root,
			     const char *line, struct lf_verdict *out);

/* ------------------------------------------------------------------------
 * The sandbox plan (SPEC §2, seed-exact)
 */

/* Access bits of a grant. Independent bits: RW does not imply RO. */
#define LF_ACCESS_RO 0x1u
#define LF_ACCESS_RW 0x2u
#define LF_ACCESS_EXEC 0x4u /* reserved, never emitted by the compiler */

/* One granted root (a file, or a directory and everything below it). */
struct lf_grant {
	const char *abs_root; /* owned by the plan */
	unsigned access;      /* LF_ACCESS_* */
};

/* An allow the compiler dropped because a fence of its class overlaps it. */
struct lf_dropped {
	const char *abs_root;	     /* the allow's static-prefix root */
	unsigned access;	     /* the class it was dropped from */
	struct lf_source allow;	     /* the allow rule */
	const char *fence_root;	     /* the fence's static-prefix root */
	struct lf_source fence;	     /* the deny or ask rule behind the fence */
	enum lf_effect fence_effect; /* LF_DENY or LF_ASK */
};

/* Inputs the compiler joins into the roots it emits. */
struct lf_context {
	const char *project_root; /* absolute; a trailing '/' is ignored */
	const char *run_dir;	  /* absolute; reserved for the adapter */
};

struct lf_plan;

/* compile_sandbox_plan of the seed. e == NULL → returns 0 with *out = NULL
 * (no policy, no plan). Otherwise *out is a plan, possibly with no grant.
 * Fences are the static prefixes of deny and ask rules, per access class
 * (RO ← read; RW ← write, delete); an allow whose root overlaps a fence of
 * its class (equal, ancestor, descendant) is dropped and recorded.
 * Returns 0, -EINVAL (ctx or project_root NULL, project_root not absolute),
 * -ENOMEM. */
LF_EXPORT int lf_plan_compile(const struct lf_effective *e, const struct lf_context *ctx,
			      struct lf_plan **out);
LF_EXPORT void lf_plan_free(struct lf_plan *plan);

LF_EXPORT size_t lf_plan_grant_count(const struct lf_plan *plan);
LF_EXPORT const struct lf_grant *lf_plan_grant(const struct lf_plan *plan, size_t i);
LF_EXPORT size_t lf_plan_dropped_count(const struct lf_plan *plan);
LF_EXPORT const struct lf_dropped *lf_plan_dropped(const struct lf_plan *plan, size_t i);
LF_EXPORT lf_posture lf_plan_default_posture(const struct lf_plan *plan);

/* A fence: the static-prefix root of a deny or ask file rule, in its access
 * class (LF_ACCESS_RO for read, LF_ACCESS_RW for write and delete). The
 * adapter fences every later grant source (fallback, host, profiles, the
 * command) with these, after symlink resolution. */
struct lf_fence {
	const char *abs_root;  /* owned by the plan */
	const char *rel_root;  /* project-relative; "" is the project root */
	unsigned access;       /* LF_ACCESS_RO or LF_ACCESS_RW */
	enum lf_effect effect; /* LF_DENY or LF_ASK */
	struct lf_source source;
};

LF_EXPORT size_t lf_plan_fence_count(const struct lf_plan *plan);
LF_EXPORT const struct lf_fence *lf_plan_fence(const struct lf_plan *plan, size_t i);

/* ------------------------------------------------------------------------
 * Enforcement (SPEC §3)
 */

/* The outcome of enforcing a plan. */
enum lf_status_kind {
	LF_STATUS_ENFORCED = 0,	   /* all the plan needs is enforced */
	LF_STATUS_DEGRADED = 1,	   /* a needed right is missing; reason says which */
	LF_STATUS_UNSUPPORTED = 2, /* no Landlock: nothing is enforced */
};

struct lf_status {
	enum lf_status_kind kind;
	char reason[256];
};

/* Which mechanism enforces. */
enum lf_sandbox_kind {
	LF_SANDBOX_LANDLOCK = 0,
	LF_SANDBOX_UNSUPPORTED = 1,
};

/* The enforcer port (the seed's SandboxEnforcer): applies a plan to the
 * calling process. One-shot and irreversible, meant for a child after fork
 * and before exec; it only ever removes access, and a no-op adapter is a
 * valid enforcer. It allocates: a multithreaded caller should prefer
 * lf_child_new/lf_spawn below, which prepare everything before fork. */
struct lf_enforcer {
	enum lf_sandbox_kind kind;
	/* Applies plan (compiled against project_root, canonical absolute):
	 * its grants, the host grants that let programs run, all fenced by
	 * the plan's fences (doc/landlock.md); no-new-privs first.
	 * Returns 0 with *status (Enforced, Degraded; Unsupported for the
	 * no-op adapter or a kernel without Landlock under a non-deny
	 * posture), or:
	 *   -EOPNOTSUPP  KernelTooOld: fallback deny that this kernel cannot
	 *                fully enforce; nothing was changed
	 *   -EINVAL      plan or project_root missing or not absolute
	 *   another negative errno: building or applying the ruleset failed
	 *                (the seed's Ruleset error); diag says where. */
	int (*enforce)(const struct lf_enforcer *self, const struct lf_plan *plan,
		       const char *project_root, struct lf_status *status, struct lf_diag *diag);
};

/* The Landlock enforcer, and the no-op one (kind LF_SANDBOX_UNSUPPORTED:
 * changes nothing, reports Unsupported). Static objects: never freed. */
LF_EXPORT const struct lf_enforcer *lf_enforcer_landlock(void);
LF_EXPORT const struct lf_enforcer *lf_enforcer_unsupported(void);

/* The Landlock ABI this process may use: the kernel's, capped by
 * LANDFENCE_ABI_MAX (read with secure_getenv) or by abi_max >= 0.
 * Returns the ABI (>= 1), 0 when Landlock is absent or capped to 0, or a
 * negative errno for an unexpected probe failure. */
LF_EXPORT int lf_landlock_abi(int abi_max);

/* ------------------------------------------------------------------------
 * Launching a program under the OS guard (SPEC §3 Launch; doc/launch.md)
 *
 * Lifecycle: lf_child_new (everything that can fail or allocate: the path
 * search, the private TMPDIR, the final rules, the ruleset, the seccomp
 * filter, the environment; nothing runs) → lf_child_status (tell the user
 * about a Degraded or Unsupported sandbox before it starts) →
 * lf_child_start (fork; the child hardens itself, restricts itself and
 * execs) → lf_child_wait → lf_child_free (removes the TMPDIR).
 * lf_spawn is lf_child_new + lf_child_start.
 */

struct lf_spawn_opts {
	const char *project_root;    /* canonical absolute project root */
	const char *const *profiles; /* agent profiles added to the policy's */
	size_t nprofiles;
	const char *cwd; /* the child's working directory, NULL: ours */
	int abi_max;	 /* < 0: LANDFENCE_ABI_MAX from the environment */
};

struct lf_child;

/* Prepares a launch of argv (argv[0] is searched in PATH as execvp does)
 * under plan, compiled from e. Nothing runs. The environment is this
 * process's, scrubbed (doc/launch.md) with the policies' "env" sections,
 * TMPDIR pointing at a fresh private directory.
 * Returns 0 and *out (free with lf_child_free), or:
 *   -ENOENT      the program was not found (exit status 127)
 *   -EACCES      the program is not an executable file (126)
 *   -EOPNOTSUPP  KernelTooOld: fallback deny and this kernel cannot
 *                enforce the plan fully (diag says why); must not run
 *   -EINVAL      bad arguments, unknown profile (diag says which)
 *   -ENOMEM, or the negative errno of a failed system call (diag) */
LF_EXPORT int lf_child_new(const struct lf_effective *e, const struct lf_plan *plan,
			   const struct lf_spawn_opts *o, char *const argv[], struct lf_child **out,
			   struct lf_diag *diag);

/* The status the sandbox will have: Enforced, Degraded(reason),
 * Unsupported. Owned by c. */
LF_EXPORT const struct lf_status *lf_child_status(const struct lf_child *c);

/* Starts the prepared child. Returns 0 once the program has been exec'ed
 * inside the sandbox; or a negative errno when the child failed before
 * exec (diag names the step: no-new-privs, seccomp, Landlock, exec, ...):
 * the program did not run and the child has been reaped. -EALREADY when
 * started before. While the child runs, SIGINT, SIGTERM, SIGHUP, SIGQUIT,
 * SIGWINCH and SIGCHLD are blocked in the caller until lf_child_wait. The
 * caller becomes non-dumpable (PR_SET_DUMPABLE 0): the sandboxed program
 * must not read its /proc entries (environ still holds what was scrubbed). */
LF_EXPORT int lf_child_start(struct lf_child *c, struct lf_diag *diag);

/* The child's pid after a successful start, else -1. */
LF_EXPORT pid_t lf_child_pid(const struct lf_child *c);

/* Waits for the child, forwarding SIGINT, SIGTERM, SIGHUP, SIGQUIT and
 * SIGWINCH sent to the caller, and writes the raw wait status.
 * Returns 0, -EINVAL (not started, or already waited). */
LF_EXPORT int lf_child_wait(struct lf_child *c, int *status);

/* Frees c and removes its private TMPDIR (without following symlinks).
 * A started child that was not waited for is killed and reaped first. */
LF_EXPORT void lf_child_free(struct lf_child *c);

/* lf_child_new + lf_child_start. On success *out holds a running child. */
LF_EXPORT int lf_spawn(const struct lf_effective *e, const struct lf_plan *plan,
		       const struct lf_spawn_opts *o, char *const argv[], struct lf_child **out,
		       struct lf_diag *diag);

#ifdef __cplusplus
}
#endif

#endif /* LANDFENCE_H */
