/* SPDX-License-Identifier: MIT */
/*
 * landfence — one permission policy for AI coding agents, enforced by the
 * kernel (Landlock) and answered for the agent's own allow / ask / deny
 * prompts.
 *
 * This is the only public header of liblandfence (pkg-config: landfence).
 * doc/api.md walks through it; doc/landlock.md and doc/launch.md give the
 * reasons behind each rule.
 *
 * Data flows one way: a policy file is parsed (lf_policy), layers are
 * resolved (lf_effective), the seed's plan is compiled (lf_plan), and the
 * plan, the host grants, the agent profiles, the environment scrub and
 * the run directory are compiled into one sandbox value (lf_sandbox),
 * which the Landlock adapter and the launcher apply and nothing else.
 * lf_project does the first three steps the way `landfence run` does
 * (discovery, trust, the managed layer); lf_run does everything `landfence
 * run` does, gate by gate, and each gate has its own API as well.
 *
 * Conventions. Handles are opaque; their lifecycle is new/open/parse →
 * use → free, and every *_free() accepts NULL. Errors are values:
 * functions return 0 on success or a negative errno value, documented per
 * function. Output parameters are written only on success. Functions that
 * can refuse fill a struct lf_diag with the reason. The library never
 * prints, exits or aborts; the process-wide effects of launching are
 * listed below lf_child_start.
 *
 * Option structs (every struct named *_opts) start with a size field: set
 * it to sizeof the struct (the LF_*_OPTS_INIT macros do) and leave the
 * fields you do not use zero. The library reads the fields the size
 * covers; fields it does not know must be zero (else -EINVAL). So new
 * fields are added at the end without breaking programs built before.
 *
 * Terms. Landlock: ruleset, handled access, path-beneath rule, ABI,
 * domain, scope. This project: capability, effect, posture, grant, fence,
 * plan, mask.
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

/* The version of this header; lf_version() gives the library's. Checked
 * against the build's project version by meson. */
#define LANDFENCE_VERSION_MAJOR 0
#define LANDFENCE_VERSION_MINOR 1
#define LANDFENCE_VERSION_PATCH 0
#define LANDFENCE_VERSION_STRING "0.1.0"

/* The library's version, "MAJOR.MINOR.PATCH" (static string). When major
 * is not NULL, *major, *minor and *patch are written. */
LF_EXPORT const char *lf_version(int *major, int *minor, int *patch);

/* ------------------------------------------------------------------------
 * Diagnostics and exit statuses
 */

/* Why something was refused or could not be done. For bad input (a
 * policy file) file, line and column say where (1-based; 0 when not
 * about a place in a file); otherwise file is empty. message may hold
 * several lines, separated by '\n'. */
struct lf_diag {
	char file[512];
	unsigned line;
	unsigned column;
	char message[1024];
};

/* Writes the diagnostic as landfence prints it: "FILE:LINE:COLUMN:
 * message" for a diagnostic about a file, else each line of the message
 * after "landfence: ". Always NUL terminated when size > 0; no trailing
 * newline. Returns the length snprintf would write. */
LF_EXPORT int lf_diag_format(const struct lf_diag *diag, char *buf, size_t size);

/* The exit status `landfence run` gives an error of lf_project_open,
 * lf_run_new, lf_run_start, lf_child_new or lf_child_start (doc/cli.md):
 * 0 for 0; 2 for -EINVAL (bad input: policy, options) and -EPERM (refused
 * before anything ran: trust, project root, managed layer); 127 for
 * -ENOENT (the program was not found); 126 for -EACCES (it cannot be
 * executed); 125 for every other error (-EOPNOTSUPP KernelTooOld,
 * -ECANCELED a pre-launch check refused, -ENOMEM, ...). */
LF_EXPORT int lf_exit_status(int err);

/* The exit status of a program from its raw wait status: its exit code,
 * or 128 + N when killed by signal N (125 for anything else). */
LF_EXPORT int lf_exit_status_wait(int wait_status);

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

/* Where a policy layer comes from. Layers are pooled in this order; the
 * managed layer (/etc/landfence/policy.json, doc/policy.md) comes first,
 * and since a deny or an ask is never lifted by any rule, no other layer
 * can lift its denies and asks. */
enum lf_layer {
	LF_LAYER_MANAGED = 0,
	LF_LAYER_USER = 1,
	LF_LAYER_PROJECT = 2,
	LF_LAYER_AGENT = 3,
	LF_LAYER_LOCAL = 4,
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
LF_EXPORT int lf_effective_resolve(const struct lf_policy *const *layers, size_t n,
				   struct lf_effective **out);
LF_EXPORT void lf_effective_free(struct lf_effective *e);
/* The resolved fallback: the strictest any layer states, ask when none
 * states one (doc/model.md); LF_DENY for e == NULL. */
LF_EXPORT lf_posture lf_effective_fallback(const struct lf_effective *e);

/* The layer of the policy that holds the rule written at src (src->file
 * is compared by identity with the layers' file names), into *layer.
 * Returns 0, or -ENOENT when no layer of e wrote it. */
LF_EXPORT int lf_effective_layer_of(const struct lf_effective *e, const struct lf_source *src,
				    enum lf_layer *layer);

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
LF_EXPORT int lf_effective_decide_file(const struct lf_effective *e, const char *project_root,
				       enum lf_capability cap, const char *path,
				       struct lf_verdict *out);

/* Decides a shell command line (SPEC §1 bash requests). The line's verdict
 * is the strictest of its parts; what cannot be analysed is at best ask.
 * Returns 0, -EINVAL, -ENOMEM. */
LF_EXPORT int lf_effective_decide_bash(const struct lf_effective *e, const char *project_root,
				       const char *line, struct lf_verdict *out);

/* ------------------------------------------------------------------------
 * The sandbox plan (SPEC §2, seed-exact): the first stage of the sandbox
 * value.
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

/* Inputs the compiler joins into the roots it emits: the seed's
 * SandboxContext, fixed (new inputs go to struct lf_sandbox_opts). */
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
 * sandbox value fences every later grant source (fallback, host, profiles,
 * the command) with these, after symlink resolution. */
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
 * Projects: discovery with every refusal, trust, the policy layers
 * (doc/policy.md, doc/trust.md)
 */

struct lf_project;

struct lf_project_opts {
	size_t size;			 /* sizeof(struct lf_project_opts) */
	const char *directory;		 /* -C DIR: the project root; NULL: discovered */
	const char *const *policy_files; /* -p FILE...: local layers, in order */
	size_t npolicy_files;
	unsigned flags; /* LF_PROJECT_* */
};
#define LF_PROJECT_OPTS_INIT                           \
	{                                              \
		.size = sizeof(struct lf_project_opts) \
	}

/* Find the root with every refusal and warning, and load no policy
 * (lf_project_effective and lf_project_plan are then NULL). */
#define LF_PROJECT_ROOT_ONLY 0x1u
/* Accept a root that is no place for a project ("/", a system directory,
 * a sticky directory anyone may write, a home directory or an ancestor of
 * one), with a warning, instead of refusing it (-EPERM). */
#define LF_PROJECT_UNSAFE_ROOT 0x2u

/* Opens the project `landfence` would use from the working directory:
 *
 * - the root: o->directory (canonicalised), else the nearest ancestor
 *   of the working directory holding .landfence/ or .git, else the
 *   working directory. The search stops at a sticky directory anyone may
 *   write and at a .git or .landfence/ owned by neither the user nor root
 *   (then the working directory is the root, with a warning). A root that
 *   is "/", /usr, /var, /tmp, /run, at or below /etc, /dev, /proc, /sys
 *   or /boot, a sticky directory anyone may write, or a home directory
 *   (the user's or any user's in the password database) or an ancestor
 *   of one is refused (-EPERM) unless o->flags has LF_PROJECT_UNSAFE_ROOT;
 *   where NSS sources other than /etc/passwd hold users, they are listed
 *   by running getent(1) (/usr/bin or /bin) and waiting for it by its
 *   pid, and a root that cannot be told apart because getent failed is
 *   refused the same way (a caller that ignores SIGCHLD or reaps every
 *   child meets that case: doc/cli.md);
 *   so is a discovered root inside a trusted project that has no trusted
 *   policy of its own;
 * - the layers, in order: managed ($LANDFENCE_MANAGED_POLICY, else
 *   /etc/landfence/policy.json; honoured only when it and every directory
 *   above it are owned by root and not writable by group or others),
 *   user ($XDG_CONFIG_HOME/landfence/policy.json, else
 *   ~/.config/landfence/policy.json), project (.landfence/policy.json,
 *   only when trusted: doc/trust.md; one of 32 KiB or more is read from
 *   its compiled form in $XDG_CONFIG_HOME/landfence/cache/, else
 *   ~/.config/landfence/cache/, when one was kept for exactly its bytes,
 *   and kept there once parsed: doc/policy.md, "Compiled policies"), then
 *   each of o->policy_files; the embedded default when no user, project
 *   or local layer exists;
 * - the effective policy and the seed's plan for the root.
 *
 * Returns 0 and *out (free with lf_project_free), or:
 *   -EINVAL  bad input: a policy file malformed or unreadable (diag:
 *            FILE:LINE:COLUMN), o->directory not a directory, a bad size
 *   -EPERM   refused: the project policy is not trusted, changed since,
 *            gone, or a symbolic link; the discovered root is refused (see
 *            above); the managed policy is not root's or is writable by
 *            others, or cannot be read (diag says which and why)
 *   -EIO     the working directory cannot be determined
 *   -ENAMETOOLONG, -ENOMEM */
LF_EXPORT int lf_project_open(const struct lf_project_opts *o, struct lf_project **out,
			      struct lf_diag *diag);
LF_EXPORT void lf_project_free(struct lf_project *p);

/* The canonical absolute project root. Owned by p. */
LF_EXPORT const char *lf_project_root(const struct lf_project *p);

/* The loaded layers, in pooling order: their kind and file name
 * ("<embedded>" for the embedded default). Owned by p. */
struct lf_project_layer {
	enum lf_layer layer;
	const char *file;
};
LF_EXPORT size_t lf_project_layer_count(const struct lf_project *p);
LF_EXPORT const struct lf_project_layer *lf_project_layer(const struct lf_project *p, size_t i);
/* Whether no policy file applied and the embedded default did (a managed
 * layer may apply beside it). */
LF_EXPORT bool lf_project_embedded_default(const struct lf_project *p);

/* The resolved policy and the seed's plan (no run directory). Owned by p;
 * NULL with LF_PROJECT_ROOT_ONLY. */
LF_EXPORT const struct lf_effective *lf_project_effective(const struct lf_project *p);
LF_EXPORT const struct lf_plan *lf_project_plan(const struct lf_project *p);

/* Warnings the user must see even when asked to be quiet (a root named
 * with -C that holds the home directory). Owned by p. */
LF_EXPORT size_t lf_project_warning_count(const struct lf_project *p);
LF_EXPORT const char *lf_project_warning(const struct lf_project *p, size_t i);

/* Trust (doc/trust.md): a project policy is used only once the user has
 * trusted its exact bytes; the store lives outside the project
 * ($XDG_CONFIG_HOME/landfence/trusted, else ~/.config/landfence/trusted).
 *
 * lf_trust_status: whether project_root's .landfence/policy.json is
 * trusted: 0 yes, -EPERM never trusted, -ESTALE changed since, -ENOENT no
 * policy, -ELOOP the policy or .landfence is a symbolic link, -EFBIG
 * larger than any policy, or the negative errno of reading it.
 *
 * lf_trust_add: parses the policy (it must load: diag and -EINVAL if not),
 * then records its SHA-256 (hex into sha256 when not NULL). Errors as
 * lf_trust_status, plus -EINVAL, and the errno of writing the store.
 *
 * lf_trust_remove: forgets the policy (also when the file is gone).
 *
 * lf_trust_store_path: the store's path into out. -ENOENT when neither
 * XDG_CONFIG_HOME nor HOME is absolute, -ENAMETOOLONG. */
LF_EXPORT int lf_trust_status(const char *project_root);
LF_EXPORT int lf_trust_add(const char *project_root, char sha256[65], struct lf_diag *diag);
LF_EXPORT int lf_trust_remove(const char *project_root);
LF_EXPORT int lf_trust_store_path(char *out, size_t size);

/* ------------------------------------------------------------------------
 * The sandbox value (SPEC §3; doc/api.md, doc/landlock.md)
 *
 * Everything the kernel will be asked to do for one launch, with the
 * source of every entry: the final path-beneath rules (the plan's grants,
 * the materialised allow fallback, the host-grant table, the policies'
 * "host" sections, agent profiles, the run directory, the command), every
 * grant dropped and why, the fences and how each is enforced, the masks
 * and protections of the private mount namespace, the environment scrub,
 * the ABI, the handled rights and scopes and the predicted status. It is
 * built in three steps: the pure core lists what each source asks for,
 * one I/O step gathers the facts (canonical paths, types, the /etc
 * listing, whether a mount namespace can be made, which fenced paths
 * exist, glob matches, git directories, mount aliases), and the pure core
 * fences, masks, merges and maps the result to Landlock rights; a last
 * look for hard links into the grants masks them at their own name.
 */

/* Where an entry of the sandbox value comes from. */
enum lf_origin {
	LF_ORIGIN_POLICY = 0,	   /* a grant of the plan: an allow rule */
	LF_ORIGIN_FALLBACK = 1,	   /* the materialised allow fallback */
	LF_ORIGIN_HOST = 2,	   /* the host-grant table */
	LF_ORIGIN_HOST_POLICY = 3, /* a policy's "host" section */
	LF_ORIGIN_PROFILE = 4,	   /* an agent profile */
	LF_ORIGIN_RUN_DIR = 5,	   /* the private TMPDIR */
	LF_ORIGIN_COMMAND = 6,	   /* the command or its interpreter */
	LF_ORIGIN_DEVICE = 7,	   /* a /dev node (host-grant table) */
	LF_ORIGIN_TOOLCHAIN = 8,   /* a toolchain found on the host (doc/toolchains.md) */
	LF_ORIGIN_BUILTIN = 9,	   /* landfence's own fence on its configuration */
	LF_ORIGIN_SELF = 10,	   /* landfence's own executable and library */
	LF_ORIGIN_GIT = 11,	   /* the git directory of a linked worktree outside the project */
	LF_ORIGIN_PROTECT = 12,	   /* a protection: a persistence path kept read-only */
};

/* "policy", "fallback", "host", "host-policy", "profile", "run-dir",
 * "command", "device", "toolchain", "builtin", "self", "git", "protect".
 * Static string. */
LF_EXPORT const char *lf_origin_name(enum lf_origin origin);

/* One final path-beneath rule. Strings are owned by the value. */
struct lf_sandbox_rule {
	const char *path;	 /* canonical absolute */
	unsigned access;	 /* LF_ACCESS_RO | LF_ACCESS_RW */
	uint64_t landlock;	 /* the Landlock rights it carries at the value's ABI */
	bool ioctl_dev;		 /* terminal ioctls (only /dev/tty, /dev/ptmx, /dev/pts) */
	enum lf_origin origin;	 /* its first source */
	const char *why;	 /* every source, for people ("; " between them) */
	struct lf_source source; /* the first source's place in a policy; file NULL if none */
	enum lf_layer layer;	 /* the layer of source, when source.file is set */
};

/* A grant dropped because a fence of its class covers it, or skipped
 * because its path does not resolve. */
struct lf_sandbox_dropped {
	const char *path;
	unsigned access;
	enum lf_origin origin;
	const char *why;
	const char *fence; /* canonical fence path; NULL when skipped as missing */
	struct lf_source fence_source;
	enum lf_layer fence_layer; /* when fence_source.file is set */
};

/* How a fence or a protection is enforced (doc/landlock.md, "Masks"). */
enum lf_mechanism {
	LF_MECH_DROP = 0,      /* every grant of its class that overlaps it loses the
				  class (the seed's rule) */
	LF_MECH_MASK = 1,      /* masked in a private mount namespace: the grants
				  around it keep their class */
	LF_MECH_WATCHED = 2,   /* a protection that cannot be masked: compared
				  before and after the program (post-run report) */
	LF_MECH_UNREACHED = 3, /* no grant of its class reaches it: nothing to do */
};

/* "drop", "mask", "watched", "unreached". Static string. */
LF_EXPORT const char *lf_mechanism_name(enum lf_mechanism m);

/* A fence, in the form it is compared: the plan's fence as written and
 * canonical (both are fences), another mount path that shows the same
 * place (an alias), and landfence's configuration directory (origin
 * LF_ORIGIN_BUILTIN, write class). */
struct lf_sandbox_fence {
	const char *path;
	unsigned access; /* LF_ACCESS_RO or LF_ACCESS_RW */
	enum lf_effect effect;
	enum lf_origin origin; /* LF_ORIGIN_POLICY or LF_ORIGIN_BUILTIN */
	struct lf_source source;
	enum lf_layer layer;
	/* Since 0.1: how it is enforced, and why that way ("does not exist
	 * at launch", "2 paths at launch; a match made later is not
	 * hidden", ...; NULL when there is nothing to say). */
	enum lf_mechanism mechanism;
	const char *mechanism_why;
};

/* What a mask puts over its path. */
enum lf_mask_kind {
	LF_MASK_HIDE_DIR = 0,  /* an empty directory, mode 000, on a read-only tmpfs */
	LF_MASK_HIDE_FILE = 1, /* an empty file, mode 000, on a read-only tmpfs */
	LF_MASK_READ_ONLY = 2, /* the path itself, bound read-only (recursively) */
};

/* A mask: a path hidden (read class: reading and writing below it are
 * refused) or made read-only (write class) in a private mount namespace
 * before Landlock applies (doc/landlock.md, "Masks"). */
struct lf_sandbox_mask {
	const char *path; /* canonical absolute */
	unsigned access;  /* LF_ACCESS_RO: hidden; LF_ACCESS_RW: read-only */
	struct lf_source source;
	enum lf_layer layer;
	/* Since 0.1. */
	enum lf_mask_kind kind;
	enum lf_origin origin; /* LF_ORIGIN_POLICY (a deny or ask rule), _BUILTIN,
				  _PROTECT, _HOST (/etc) */
	const char *why;       /* for people: the rule, the protection, the link */
};

/* A protection: a persistence path (git hooks and config, agent and
 * editor settings that run commands, ...) that a grant leaves writable.
 * Not a fence: it never drops a grant. Masked read-only where a mount
 * namespace is available and the path exists; otherwise watched (the
 * post-run report). The list comes from the built-in table and the
 * policies' "protect" sections (doc/policy.md). */
struct lf_sandbox_protect {
	const char *path;	     /* canonical absolute */
	const char *entry;	     /* the table row or policy entry: ".git/hooks",
			      "~/.codex/config.toml" */
	const char *why;	     /* what runs it */
	enum lf_mechanism mechanism; /* LF_MECH_MASK or LF_MECH_WATCHED */
	const char *mechanism_why;   /* why not masked, NULL when masked */
	bool lifted;		     /* a policy lifted the entry ("protect.lift") */
};

/* The private mount namespace of a launch: whether one is used, and what
 * it costs. */
struct lf_namespace {
	bool available;	    /* the probe succeeded (and LANDFENCE_NO_NAMESPACES is unset) */
	bool user;	    /* with a user namespace (an unprivileged launch) */
	const char *failed; /* when not available: which step failed and why */
	size_t nmasks;	    /* masks */
	size_t npins;	    /* directories bound onto themselves so that no
			       parent of a mask can be renamed */
	size_t nnodev;	    /* grant roots bound nodev,nosuid */
	size_t nmounts;	    /* mount operations per launch, all of the above */
	const char *others; /* a place seen as others see it (/etc, when root
			       and its file systems allow an id-mapped mount):
			       every entry there grants what its mode grants
			       others, root included, at each access; NULL
			       none. Owned by the value. */
	bool remembered;    /* available, by the answer an earlier launch's
			       probe gave on this very host state, kept in the
			       configuration directory's cache: a launch that
			       then cannot place its mounts runs nothing, and
			       forgets it unless the file system changed since
			       the plan (doc/launch.md, "The probe
			       remembered") */
};

/* A TCP port the program may use when the policy restricts the network
 * (its "network" section; Landlock ABI 4 and later): every other port is
 * refused for connect(2) and bind(2). */
struct lf_sandbox_port {
	uint16_t port;
	bool connect;
	bool bind;
};

/* One variable the environment scrub removes from the program's
 * environment, and why (the default list, or a policy's "env"). */
struct lf_sandbox_env {
	const char *name;
	const char *why;
};

/* The outcome of enforcing a sandbox value. */
enum lf_status_kind {
	LF_STATUS_ENFORCED = 0,	   /* all the value needs is enforced */
	LF_STATUS_DEGRADED = 1,	   /* a needed right is missing; reason says which */
	LF_STATUS_UNSUPPORTED = 2, /* no Landlock: nothing is enforced */
};

struct lf_status {
	enum lf_status_kind kind;
	char reason[256];
};

struct lf_sandbox_opts {
	size_t size;		     /* sizeof(struct lf_sandbox_opts) */
	const char *project_root;    /* canonical absolute; required */
	const char *const *profiles; /* agent profiles beside the policies' own */
	size_t nprofiles;
	const char *run_dir; /* the private TMPDIR, existing; NULL: none */
	const char *command; /* the program's absolute path; NULL: none */
	const char *home;    /* for "~/"; NULL: $HOME (secure_getenv) */
	int abi_max;	     /* 0: LANDFENCE_ABI_MAX decides; N > 0: at most
				ABI N; LF_ABI_NONE: as if there were no Landlock */
	int namespaces;	     /* since 0.1. LF_NS_PROBE (0): a forked child tries
				(LANDFENCE_NO_NAMESPACES=1 says no); LF_NS_NEVER:
				no mount namespace; LF_NS_ASSUME: as if one
				were available, without trying (a value to
				read, never to launch) */
	unsigned flags;	     /* LF_SANDBOX_* */
};
#define LF_NS_PROBE 0
#define LF_NS_NEVER (-1)
#define LF_NS_ASSUME 1
/* Prepare a launch: make the missing places the value would grant and
 * that say so (agent profile directories and files, caches of the
 * toolchains in use; doc/landlock.md), below the home directory, owned by
 * this user, before looking at them. lf_child_new sets it; `plan` does
 * not, and lists them as "does not exist yet". */
#define LF_SANDBOX_PREPARE 0x1u
/* Below Landlock ABI 6 signals and abstract UNIX sockets are not scoped:
 * the program can signal any process of the user outside the sandbox
 * (landfence included) and connect to abstract sockets. That makes the
 * status Degraded (KernelTooOld under fallback deny) unless this flag
 * accepts it (`--allow-unscoped`); then it is a notice. */
#define LF_SANDBOX_ALLOW_UNSCOPED 0x2u
#define LF_SANDBOX_OPTS_INIT                           \
	{                                              \
		.size = sizeof(struct lf_sandbox_opts) \
	}
#define LF_ABI_NONE (-1)

struct lf_sandbox;

/* Compiles the sandbox value of e (resolved policy) and plan (its seed
 * plan) for one launch. It reads the file system (canonical paths, types,
 * the /etc listing, the command's "#!" line) and probes Landlock; it makes
 * no Landlock call and starts nothing. It changes nothing on disk unless
 * o->flags has LF_SANDBOX_PREPARE.
 * Returns 0 and *out (free with lf_sandbox_free), or:
 *   -EINVAL      bad options, an unknown profile, a bad "host" path (diag)
 *   -EOPNOTSUPP  KernelTooOld: fallback deny and this kernel cannot fully
 *                enforce the value (diag says why); nothing may run
 *   -ENOMEM
 * An Unsupported or Degraded status under another posture is not an
 * error: see lf_sandbox_status. */
LF_EXPORT int lf_sandbox_new(const struct lf_effective *e, const struct lf_plan *plan,
			     const struct lf_sandbox_opts *o, struct lf_sandbox **out,
			     struct lf_diag *diag);
LF_EXPORT void lf_sandbox_free(struct lf_sandbox *sb);

LF_EXPORT const char *lf_sandbox_project_root(const struct lf_sandbox *sb);
LF_EXPORT lf_posture lf_sandbox_fallback(const struct lf_sandbox *sb);
LF_EXPORT int lf_sandbox_abi(const struct lf_sandbox *sb);
LF_EXPORT const struct lf_status *lf_sandbox_status(const struct lf_sandbox *sb);
LF_EXPORT uint64_t lf_sandbox_handled(const struct lf_sandbox *sb); /* handled_access_fs */
LF_EXPORT uint64_t lf_sandbox_scoped(const struct lf_sandbox *sb);  /* scopes; 0 below ABI 6 */
/* Whether a policy restricts the network (TCP connect and bind to the
 * listed ports only; doc/landlock.md, "Network"). Not by default: the
 * program may connect anywhere. */
LF_EXPORT bool lf_sandbox_network_restricted(const struct lf_sandbox *sb);
/* handled_access_net: LANDLOCK_ACCESS_NET_BIND_TCP | _CONNECT_TCP when
 * restricted and the ABI has them (4+), else 0. */
LF_EXPORT uint64_t lf_sandbox_handled_net(const struct lf_sandbox *sb);
/* The ports allowed when restricted, in port order. */
LF_EXPORT size_t lf_sandbox_port_count(const struct lf_sandbox *sb);
LF_EXPORT const struct lf_sandbox_port *lf_sandbox_port(const struct lf_sandbox *sb, size_t i);
LF_EXPORT const char *lf_sandbox_run_dir(const struct lf_sandbox *sb);
LF_EXPORT size_t lf_sandbox_rule_count(const struct lf_sandbox *sb);
LF_EXPORT const struct lf_sandbox_rule *lf_sandbox_rule(const struct lf_sandbox *sb, size_t i);
LF_EXPORT size_t lf_sandbox_dropped_count(const struct lf_sandbox *sb);
LF_EXPORT const struct lf_sandbox_dropped *lf_sandbox_dropped(const struct lf_sandbox *sb,
							      size_t i);
LF_EXPORT size_t lf_sandbox_fence_count(const struct lf_sandbox *sb);
LF_EXPORT const struct lf_sandbox_fence *lf_sandbox_fence(const struct lf_sandbox *sb, size_t i);
LF_EXPORT size_t lf_sandbox_mask_count(const struct lf_sandbox *sb);
LF_EXPORT const struct lf_sandbox_mask *lf_sandbox_mask(const struct lf_sandbox *sb, size_t i);
/* The protections a grant leaves writable, each with its mechanism. */
LF_EXPORT size_t lf_sandbox_protect_count(const struct lf_sandbox *sb);
LF_EXPORT const struct lf_sandbox_protect *lf_sandbox_protect(const struct lf_sandbox *sb,
							      size_t i);
/* The mount namespace: available or why not, and its cost. Owned by sb. */
LF_EXPORT const struct lf_namespace *lf_sandbox_namespace(const struct lf_sandbox *sb);
/* Whether a private mount namespace can be made here, as lf_sandbox_new
 * finds out (a forked child tries every step a launch takes;
 * LANDFENCE_NO_NAMESPACES=1 in the environment says no without trying):
 * *available, *user (a user namespace is needed: not root with
 * CAP_SYS_ADMIN), and when not available the failing step and why into
 * why (NUL terminated when size > 0). The child's answer is remembered
 * for the process. Returns 0, or the negative errno of starting the
 * child (then *available is false and why says so). */
LF_EXPORT int lf_namespace_probe(bool *available, bool *user, char *why, size_t size);

/* Whether the value re-admitted d, an allow the plan dropped (d is one of
 * lf_plan_dropped of the plan the value was built from): every fence that
 * dropped it is masked, so its grant is a final rule. */
LF_EXPORT bool lf_sandbox_readmitted(const struct lf_sandbox *sb, const struct lf_dropped *d);
LF_EXPORT size_t lf_sandbox_env_count(const struct lf_sandbox *sb);
LF_EXPORT const struct lf_sandbox_env *lf_sandbox_env(const struct lf_sandbox *sb, size_t i);
/* Notices for the user: hardenings this kernel lacks, grants added for
 * the command, ... */
LF_EXPORT size_t lf_sandbox_notice_count(const struct lf_sandbox *sb);
LF_EXPORT const char *lf_sandbox_notice(const struct lf_sandbox *sb, size_t i);

/* The value as text, one line per entry, in a documented, stable form
 * (doc/api.md, "describe"): "abi N", "status KIND", "fallback P", then
 * "rule ACCESS PATH ORIGIN", "fence CLASS PATH", "mask CLASS PATH",
 * "env NAME" lines, each sorted. The run directory's path is written as
 * "$TMPDIR" so that two launches compare equal. *out is malloc'ed.
 * Returns 0, -ENOMEM. */
LF_EXPORT int lf_sandbox_describe(const struct lf_sandbox *sb, char **out);

/* The agent profiles landfence knows (claude, codex, gemini, aider, opencode), for
 * option checking and listings. Static strings. */
LF_EXPORT size_t lf_profile_count(void);
LF_EXPORT const char *lf_profile_name(size_t i);

/* What the Landlock ABI probe found. */
struct lf_abi_probe {
	int kernel; /* the kernel's ABI, 0 when Landlock is absent */
	int abi;    /* the ABI in use: kernel capped by cap */
	int cap;    /* the cap applied, -1 none */
	int err;    /* when kernel == 0: ENOSYS (not built in) or EOPNOTSUPP
		       (built in, not enabled at boot); else 0 */
};

/* Probes the kernel (LANDLOCK_CREATE_RULESET_VERSION) and applies the cap:
 * abi_max >= 0 (0 behaves as if Landlock were absent), else
 * LANDFENCE_ABI_MAX, read with secure_getenv (unset or empty: no cap).
 * Note that the option structs spell the same choice with zero as the
 * default: there 0 is "LANDFENCE_ABI_MAX decides" and LF_ABI_NONE is "no
 * Landlock".
 * Returns 0 and *out, or -EINVAL when LANDFENCE_ABI_MAX is not a decimal
 * number >= 0, or the negative errno of an unexpected probe failure. */
LF_EXPORT int lf_landlock_probe(int abi_max, struct lf_abi_probe *out);

/* lf_landlock_probe's out.abi: the ABI (>= 1), 0 when Landlock is absent
 * or capped away, or a negative errno. */
LF_EXPORT int lf_landlock_abi(int abi_max);

/* The name of one Landlock filesystem right ("read_file", "make_reg", ...:
 * the kernel's LANDLOCK_ACCESS_FS_* names in lower case), for the bits of
 * struct lf_sandbox_rule's landlock field; NULL for a bit that is not a
 * known right. Static string. */
LF_EXPORT const char *lf_landlock_right_name(uint64_t bit);

/* A one-line "Hint: ..." telling how to enable Landlock, for err ENOSYS or
 * EOPNOTSUPP from the probe; NULL for any other value. Static string. */
LF_EXPORT const char *lf_landlock_hint(int err);

/* The enforcer port (the seed's SandboxEnforcer): applies a sandbox value
 * to the calling process. One-shot and irreversible, meant for a child
 * after fork and before exec; it only ever removes access, and a no-op
 * adapter is a valid enforcer. It allocates and sets no-new-privs: a
 * multithreaded caller should prefer lf_child_new/lf_child_spawn below, which
 * prepare everything before fork. */
enum lf_sandbox_kind {
	LF_SANDBOX_LANDLOCK = 0,
	LF_SANDBOX_UNSUPPORTED = 1,
};

struct lf_enforcer {
	enum lf_sandbox_kind kind;
	/* Applies every final rule of sb (no-new-privs first). Returns 0 with
	 * *status (Enforced, Degraded; Unsupported for the no-op adapter or
	 * a kernel without Landlock), or -EINVAL (sb or status NULL), or the
	 * negative errno of building or applying the ruleset (the seed's
	 * Ruleset error; diag says where). */
	int (*enforce)(const struct lf_enforcer *self, const struct lf_sandbox *sb,
		       struct lf_status *status, struct lf_diag *diag);
};

/* The Landlock enforcer, and the no-op one (kind LF_SANDBOX_UNSUPPORTED:
 * changes nothing, reports Unsupported). Static objects: never freed. */
LF_EXPORT const struct lf_enforcer *lf_enforcer_landlock(void);
LF_EXPORT const struct lf_enforcer *lf_enforcer_unsupported(void);

/* ------------------------------------------------------------------------
 * Pre-launch checks and the post-run report (doc/escape.md)
 *
 * Landlock decides on paths. Three things it cannot see are looked for in
 * the tree before launch: a hard link that gives a fenced file a second
 * name inside a grant, a device node planted below a grant (it opens like
 * a file there), and persistence paths (git hooks, agent settings, shell
 * start-up files) left writable, where code planted now runs later
 * outside the sandbox. After the program, the persistence paths are
 * looked at again and every change is reported.
 */

/* Which check found it. */
#define LF_SCAN_HARDLINKS 0x1u
#define LF_SCAN_DEVICES 0x2u
#define LF_SCAN_PERSISTENCE 0x4u
#define LF_SCAN_CHANGES 0x8u	  /* the post-run report */
#define LF_SCAN_CREDENTIALS 0x10u /* credential files the program can read */
#define LF_SCAN_PRELAUNCH \
	(LF_SCAN_HARDLINKS | LF_SCAN_DEVICES | LF_SCAN_PERSISTENCE | LF_SCAN_CREDENTIALS)

/* How loud a message is; landfence prints "note", "WARNING" or "error". */
enum lf_severity {
	LF_SEVERITY_NOTE = 0,
	LF_SEVERITY_WARNING = 1,
	LF_SEVERITY_ERROR = 2,
};

/* "note", "WARNING", "error". Static string. */
LF_EXPORT const char *lf_severity_name(enum lf_severity severity);

struct lf_finding {
	unsigned scan;		   /* one LF_SCAN_* bit */
	bool incomplete;	   /* the scan could not finish: text says why */
	enum lf_severity severity; /* ERROR: it makes lf_findings_verdict refuse */
	const char *path;	   /* the path concerned, NULL for an incomplete scan */
	const char *text;	   /* one line for people */
};

struct lf_findings;

/* Runs the checks of what (LF_SCAN_HARDLINKS, _DEVICES, _PERSISTENCE,
 * _CREDENTIALS) over sb. A credential file (an SSH key, ~/.npmrc, a
 * crates.io token, ...: doc/toolchains.md) that exists and that a final
 * rule lets the program read is a note naming the rule: only a policy
 * grants one. p names the policy files of the run for the persistence check
 * (a writable one decides the next run; NULL: none). Under fallback deny
 * a hard link, a device node or an incomplete hard-link scan is an error
 * (lf_findings_verdict refuses); under another posture a warning, as an
 * incomplete device-node scan always is; a persistence path is a note. A value
 * whose status is Unsupported enforces nothing: nothing is checked.
 * Returns 0 and *out (free with lf_findings_free), -EINVAL, -ENOMEM. */
LF_EXPORT int lf_findings_scan(const struct lf_sandbox *sb, const struct lf_project *p,
			       unsigned what, struct lf_findings **out);
LF_EXPORT void lf_findings_free(struct lf_findings *f);
LF_EXPORT size_t lf_findings_count(const struct lf_findings *f);
LF_EXPORT const struct lf_finding *lf_findings_get(const struct lf_findings *f, size_t i);

/* The fail-closed decision: 0 when the program may run, -ECANCELED when a
 * finding forbids it (diag says why; nothing may run). */
LF_EXPORT int lf_findings_verdict(const struct lf_findings *f, struct lf_diag *diag);

/* The post-run report: lf_snapshot_take before the program (lstat of the
 * persistence paths the value leaves writable, and of the files directly
 * in the git hook directories among them), lf_snapshot_compare after it:
 * one LF_SCAN_CHANGES finding (severity WARNING) per path created,
 * removed or changed. Both return 0, -EINVAL, -ENOMEM. */
struct lf_snapshot;
LF_EXPORT int lf_snapshot_take(const struct lf_sandbox *sb, struct lf_snapshot **out);
LF_EXPORT int lf_snapshot_compare(const struct lf_snapshot *s, struct lf_findings **out);
LF_EXPORT void lf_snapshot_free(struct lf_snapshot *s);

/* ------------------------------------------------------------------------
 * Launching a program under the sandbox value (SPEC §3 Launch;
 * doc/launch.md)
 *
 * Lifecycle: lf_child_new (everything that can fail or allocate: the path
 * search, the private TMPDIR, the sandbox value, the ruleset, the seccomp
 * filter, the environment; nothing runs) → lf_child_sandbox (tell the user
 * about a Degraded or Unsupported sandbox, run the pre-launch checks) →
 * lf_child_start (the child hardens itself, restricts itself and execs) →
 * lf_child_wait → lf_child_free (removes the TMPDIR).
 */

struct lf_child_opts {
	size_t size;		     /* sizeof(struct lf_child_opts) */
	const char *project_root;    /* canonical absolute; required */
	const char *const *profiles; /* agent profiles beside the policies' own */
	size_t nprofiles;
	const char *cwd;	/* the child's working directory, NULL: ours */
	int abi_max;		/* as in struct lf_sandbox_opts */
	unsigned sandbox_flags; /* since 0.1: LF_SANDBOX_ALLOW_UNSCOPED */
};
#define LF_CHILD_OPTS_INIT                           \
	{                                            \
		.size = sizeof(struct lf_child_opts) \
	}

struct lf_child;

/* Prepares a launch of argv (argv[0] is searched in PATH as execvp does)
 * under the sandbox value of e and plan. Nothing runs; the missing places
 * the value makes for a launch are made (LF_SANDBOX_PREPARE). When the
 * value sees /etc as others do (root, a mount namespace), the user
 * namespace of that id-mapped mount is made too (once per process), by a
 * short-lived child of this process that lf_child_start (before the
 * program's process) or lf_child_free reaps through its pidfd; a caller's
 * waitpid(-1) may reap it first, harmlessly (doc/landlock.md, "/etc as
 * one rule"). The environment is this process's, scrubbed as the value
 * says, TMPDIR pointing at a fresh private directory.
 * Returns 0 and *out (free with lf_child_free), or:
 *   -ENOENT      the program was not found (exit status 127)
 *   -EACCES      the program is not an executable file (126)
 *   -EOPNOTSUPP  KernelTooOld (diag); must not run
 *   -EINVAL      bad arguments, unknown profile (diag says which)
 *   -EIO         a system call failed (diag names it), -ENOMEM */
LF_EXPORT int lf_child_new(const struct lf_effective *e, const struct lf_plan *plan,
			   const struct lf_child_opts *o, char *const argv[], struct lf_child **out,
			   struct lf_diag *diag);

/* The sandbox value the child will apply, and its status. Owned by c. */
LF_EXPORT const struct lf_sandbox *lf_child_sandbox(const struct lf_child *c);
LF_EXPORT const struct lf_status *lf_child_status(const struct lf_child *c);

/* Starts the prepared child: it closes inherited descriptors, asks for
 * SIGKILL when the calling thread ends (PR_SET_PDEATHSIG; it exits at
 * once when the caller is already gone), sets no-new-privs, drops
 * capabilities, loads the seccomp filter, enters the Landlock domain and
 * execs. Returns 0 once the program has been exec'ed inside the sandbox;
 * or, when the child failed before exec (it has been reaped; diag names
 * the step): -ENOENT or -EACCES when exec itself failed, -ECHILD for an
 * earlier step. -EALREADY when started before.
 *
 * Process-wide effects, from lf_child_start until lf_child_wait returns:
 * - SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGWINCH and SIGCHLD are blocked in
 *   the calling thread (pthread_sigmask), so none is lost; lf_child_wait
 *   forwards them and restores the mask;
 * - the process becomes non-dumpable (PR_SET_DUMPABLE 0) for good: the
 *   program must not read its /proc entries (its environment still holds
 *   what was scrubbed);
 * - the program gets SIGKILL when the thread that called lf_child_start
 *   exits: call it from the thread that waits. */
LF_EXPORT int lf_child_start(struct lf_child *c, struct lf_diag *diag);

/* The child's pid after a successful start, else -1. */
LF_EXPORT pid_t lf_child_pid(const struct lf_child *c);

/* Waits for the child, forwarding SIGINT, SIGTERM, SIGHUP, SIGQUIT and
 * SIGWINCH sent to the caller, and writes the raw wait status. Job
 * control: when the program stops (Ctrl-Z, SIGSTOP) the caller stops too
 * (SIGSTOP), and continues the program when it is continued itself.
 * A caller that wants to end as the program did (a shell loop stops on
 * Ctrl-C only when its job died by SIGINT) re-raises a terminating
 * signal itself, as `landfence run` does (doc/launch.md, "Signals").
 *
 * Masks (a hidden file, a read-only bind; lf_sandbox_namespace) are
 * watched while waiting: a mask's name replaced or removed outside the
 * sandbox takes the mount off it in every namespace, and the program and
 * every process in its mount namespace are then killed at once (SIGKILL;
 * lf_child_mask_fell says which); so are they when the masks cannot be
 * watched (fail closed; lf_child_watch_error says why). Either way the
 * status is a death by SIGKILL (doc/launch.md, "A mask that falls").
 * Returns 0, -EINVAL (not started, or already waited). */
LF_EXPORT int lf_child_wait(struct lf_child *c, int *status);

/* After lf_child_wait: the path whose mask fell while the program ran
 * (the program was killed then), or NULL. Owned by c, valid until
 * lf_child_free. */
LF_EXPORT const char *lf_child_mask_fell(const struct lf_child *c);

/* After lf_child_wait: 0 (the masks were watched, or there were none),
 * or the positive errno of the step that kept them from being watched
 * (the program was killed then): EPROTO when the child handed over no
 * mount table, else what reading the table, signalfd(2) or poll(2)
 * failed with. */
LF_EXPORT int lf_child_watch_error(const struct lf_child *c);

/* Frees c and removes its private TMPDIR (without following symlinks).
 * A started child that was not waited for is killed and reaped first. */
LF_EXPORT void lf_child_free(struct lf_child *c);

/* lf_child_new + lf_child_start. On success *out holds a running child. */
LF_EXPORT int lf_child_spawn(const struct lf_effective *e, const struct lf_plan *plan,
			     const struct lf_child_opts *o, char *const argv[],
			     struct lf_child **out, struct lf_diag *diag);

/* Ends every process of a sandbox still alive once its program exited:
 * kills (SIGKILL) and reaps every child of the calling process. A caller
 * that made itself a child subreaper (PR_SET_CHILD_SUBREAPER, as lf_run
 * does) inherits the sandbox's orphans, so they are among its children; a
 * leftover in the terminal's session could read what the user types next
 * (doc/escape.md). Only the caller's own children are signalled: their
 * pids cannot be reused before they are reaped. Do not call it while
 * other children of the process must live. Returns the number killed. */
LF_EXPORT int lf_orphans_kill(void);

/* ------------------------------------------------------------------------
 * A whole run: what `landfence run` does (doc/cli.md), for a program that
 * embeds the library (examples/embed.c)
 */

/* Receives what landfence would print, in order. text lives only during
 * the call. A note may be left out (landfence run -q does); a warning or
 * an error must be shown. */
typedef void (*lf_message_fn)(void *ctx, enum lf_severity severity, const char *text);

struct lf_run_opts {
	size_t size;		     /* sizeof(struct lf_run_opts) */
	const char *const *profiles; /* --profile NAME... */
	size_t nprofiles;
	const char *cwd; /* the program's working directory, NULL: ours */
	int abi_max;	 /* as in struct lf_sandbox_opts */
	lf_message_fn message;
	void *message_ctx;
	unsigned sandbox_flags; /* since 0.1: LF_SANDBOX_ALLOW_UNSCOPED */
};
#define LF_RUN_OPTS_INIT                           \
	{                                          \
		.size = sizeof(struct lf_run_opts) \
	}

struct lf_run;

/* Prepares a run of argv in project p exactly as `landfence run` does:
 * when argv[0] is an agent's command, its profile is added (a note says
 * so); the child and its sandbox value are prepared (lf_child_new); a
 * Degraded or Unsupported status is a warning, the value's notices are
 * notes; the pre-launch checks run and their verdict applies (unless
 * nothing is enforced); the persistence snapshot is taken. Messages go to
 * o->message. p must outlive the run.
 * Returns 0 and *out (free with lf_run_free), or lf_child_new's errors,
 * or -ECANCELED (a pre-launch check refused: diag), -ENOMEM. */
LF_EXPORT int lf_run_new(const struct lf_project *p, const struct lf_run_opts *o,
			 char *const argv[], struct lf_run **out, struct lf_diag *diag);

/* Makes the process a child subreaper (PR_SET_CHILD_SUBREAPER, for good:
 * the sandbox's orphans become its children) and starts the program
 * (lf_child_start, with its process-wide effects). While lf_run_wait
 * waits, every other child of the process that ends (the program's
 * orphans, and any child of the caller's own) is reaped at once: a long
 * run keeps no zombies. Errors as lf_child_start, or the negative errno
 * of prctl (nothing runs: the orphans would escape the run's end). */
LF_EXPORT int lf_run_start(struct lf_run *r, struct lf_diag *diag);

/* Waits for the program (lf_child_wait), ends what it left running
 * (lf_orphans_kill) and reports, as warnings, every change to a
 * persistence path. Writes the raw wait status. Returns 0, -EINVAL. */
LF_EXPORT int lf_run_wait(struct lf_run *r, int *status);

LF_EXPORT const struct lf_sandbox *lf_run_sandbox(const struct lf_run *r);
LF_EXPORT pid_t lf_run_pid(const struct lf_run *r);
LF_EXPORT void lf_run_free(struct lf_run *r);

/* ------------------------------------------------------------------------
 * The advisory answer (doc/hook.md): the policy's verdict and, for a file
 * request, what the kernel will do under the sandbox value. An agent is
 * never told allow for what the kernel refuses.
 */

struct lf_advice {
	enum lf_effect effect;	  /* the answer for the agent */
	struct lf_verdict policy; /* the policy's verdict */
	bool kernel_checked;	  /* a file request: the kernel was consulted */
	bool kernel_enforced;	  /* Landlock will enforce the value here */
	bool kernel_grants;	  /* a final rule of the class covers the path */
	bool downgraded;	  /* the policy said allow or ask, the kernel refuses */
	char path[4096];	  /* the request's absolute path (file requests) */
	char kernel[1024];	  /* what the kernel will do, and why */
};

struct lf_advisor;

/* An advisor over an open project; profiles are the agent profiles the
 * agent runs with (the policies' own are added). p must outlive it.
 * Returns 0 and *out, -EINVAL (p opened with LF_PROJECT_ROOT_ONLY),
 * -ENOMEM. */
LF_EXPORT int lf_advisor_new(const struct lf_project *p, const char *const *profiles,
			     size_t nprofiles, struct lf_advisor **out);
LF_EXPORT void lf_advisor_free(struct lf_advisor *a);

/* A file request: cap read, write or delete; path absolute, or relative to
 * cwd (absolute; NULL = the project root). The sandbox value is built on
 * the first file request. Returns 0, -EINVAL, -ENAMETOOLONG, -ENOMEM. */
LF_EXPORT int lf_advisor_file(struct lf_advisor *a, enum lf_capability cap, const char *path,
			      const char *cwd, struct lf_advice *out);

/* A command line, run in cwd (absolute; NULL = the project root): the
 * policy's bash verdict (doc/shell.md), every file the line surely opens
 * (redirection targets, the files the table of programs names) judged as
 * lf_advisor_file judges it, the kernel's final rules included: a file
 * the kernel refuses makes the answer deny. Returns 0, -EINVAL (cwd not
 * absolute), -ENOMEM. */
LF_EXPORT int lf_advisor_bash(struct lf_advisor *a, const char *line, const char *cwd,
			      struct lf_advice *out);

/* Why the sandbox value could not be built for the kernel's answer
 * (0 when it could, or was not needed yet): -EINVAL (an unknown profile,
 * a bad host path: a usage error), -EOPNOTSUPP (KernelTooOld), ...;
 * *message (owned by a) says why. */
LF_EXPORT int lf_advisor_error(const struct lf_advisor *a, const char **message);

/* The deciding rule in words: "LAYER FILE:LINE:COLUMN", "fallback", or
 * "not analysable: …". */
LF_EXPORT void lf_advice_rule(const struct lf_verdict *v, char *buf, size_t size);

#ifdef __cplusplus
}
#endif

#endif /* LANDFENCE_H */
