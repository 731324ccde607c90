/* SPDX-License-Identifier: MIT */
/*
 * The sandbox value (landfence.h, struct lf_sandbox) and the two pure
 * stages that compile it. Internal: not installed.
 *
 *   lf_sandbox_sources()   pure: what every source asks for — the plan's
 *                          grants, the allow fallback, the host-grant table,
 *                          the policies' "host" sections, the agent
 *                          profiles, the run directory — as raw paths, and
 *                          the fences; the environment scrub
 *   lf_facts_gather()      I/O (src/fs/facts.c): canonical paths, types,
 *                          the /etc listing, the command and its "#!"
 *   lf_sandbox_compile()   pure: fences every grant on canonical paths,
 *                          masks the fences that can be masked when a
 *                          mount namespace is available (the refinement
 *                          of the seed's plan: doc/model.md), protects
 *                          the persistence paths, merges, adds the
 *                          command, maps to Landlock rights, predicts the
 *                          status
 *   lf_sandbox_mask_links() pure: masks the second names of fenced and
 *                          protected files that the hard-link scan found
 *                          inside the grants (src/gate/scan.c gathers them)
 *
 * Nothing below this (the Landlock adapter, the launcher) reads a policy
 * layer: they apply the value.
 */
#ifndef LF_CORE_SANDBOX_H
#define LF_CORE_SANDBOX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/model.h"
#include "core/tables.h"
#include "landfence.h"

/* What a discovered grant is. */
enum lf_discovered_kind {
	LF_DISCOVERED_TOOLCHAIN = 0, /* a toolchain's place (LF_ORIGIN_TOOLCHAIN) */
	LF_DISCOVERED_COMMAND = 1,   /* the command's package tree (LF_ORIGIN_COMMAND) */
	LF_DISCOVERED_SELF = 2,	     /* landfence's own executable or library (LF_ORIGIN_SELF) */
	LF_DISCOVERED_GIT = 3,	     /* a git directory outside the project (LF_ORIGIN_GIT) */
};

/* A grant found on the host rather than written anywhere (src/fs/
 * discover.c): a toolchain's installation root or cache, the package tree
 * of the command, landfence itself, the git directory of a linked
 * worktree. why names what led to it (a PATH entry, a variable). */
struct lf_discovered {
	const char *path; /* absolute */
	unsigned access;  /* LF_ACCESS_* */
	const char *why;
	enum lf_discovered_kind kind;
	unsigned flags; /* LF_CAND_MAKE_DIR: a cache made by a launch when missing */
};

/* What is known of the host before compiling (gathered by the I/O step:
 * environment, the ABI probe, the mount-namespace probe). Borrowed
 * strings. */
struct lf_host {
	const char *project_root; /* canonical absolute */
	const char *home;	  /* absolute, or NULL */
	const char *config_dir;	  /* landfence's configuration directory, or NULL */
	const char *run_dir;	  /* canonical, or NULL */
	const char *command;	  /* the program's absolute path, or NULL */
	/* Make the missing places that say so (LF_CAND_MAKE_*: profile
	 * directories, toolchain caches) before looking at them: what
	 * `landfence run` does, never `plan`. */
	bool prepare;
	bool allow_unscoped; /* LF_SANDBOX_ALLOW_UNSCOPED */
	struct lf_abi_probe probe;
	/* A private mount namespace can be made (masks are possible), with
	 * a user namespace (unprivileged) or not (root); when not, which
	 * step failed. */
	bool ns;
	bool ns_user;
	const char *ns_failed;
	/* /etc can be seen as others see it (lf_ns_probe.others): an
	 * id-mapped mount instead of a walk and a mask per entry. */
	bool ns_others;
	/* That answer came from an earlier launch (lf_ns_probe_run_memo). */
	bool ns_remembered;
	/* Grants discovered on the host (src/fs/discover.c), fenced like
	 * every other, and what discovering them has to say. */
	const struct lf_discovered *discovered;
	size_t ndiscovered;
	const char *const *notes;
	size_t nnotes;
	/* The project's nested-repository search, begun ahead by
	 * lf_sandbox_new (src/fs/treecache.h), or NULL: searched when
	 * needed. */
	struct lf_search_ahead *dotgits_ahead;
	/* /proc/self/mountinfo as lf_sandbox_new read it once, for the
	 * namespace answer's key and the mount aliases (NUL-terminated,
	 * mountinfo_len bytes), or NULL: each reads it itself. */
	const char *mountinfo;
	size_t mountinfo_len;
};

/* Flags of a candidate grant. */
#define LF_CAND_DEVICE 0x1u	   /* a device node: read and write, no make/remove/execute */
#define LF_CAND_TERMINAL 0x2u	   /* terminal ioctls where the canonical path is a terminal */
#define LF_CAND_QUIET_MISSING 0x4u /* left out without a word when it does not exist */
#define LF_CAND_LIST 0x8u	   /* granted entry by entry (/etc) */
#define LF_CAND_MAKE_DIR 0x10u	   /* missing: made (0700) when the host says prepare */
#define LF_CAND_MAKE_FILE 0x20u	   /* missing: made (0600, holding make_content) likewise */
#define LF_CAND_UNCOVERED 0x40u	   /* granted after the host grants, only where none covers it */
#define LF_CAND_READMIT \
	0x80u /* an allow the plan dropped, back when every fence that
				      dropped it can be masked (else dropped again, silently:
				      the plan reports it) */

/* One entry of a listed directory (LF_CAND_LIST), a fact. */
struct lf_listing_entry {
	char *path;	    /* dir "/" name */
	char *canon;	    /* realpath, NULL for a dangling link */
	unsigned char type; /* DT_* */
	bool descended;	    /* a directory whose entries follow */
	bool hidden;	    /* not readable by others (a directory: not
			       readable and searchable), or where a link
			       leads is not; or a row of lf_etc_hidden */
};

/* The type of a path at launch, a fact. */
enum lf_ftype {
	LF_FT_NONE = 0,	 /* does not exist */
	LF_FT_DIR = 1,	 /* a directory */
	LF_FT_FILE = 2,	 /* a regular file */
	LF_FT_LINK = 3,	 /* a symbolic link */
	LF_FT_OTHER = 4, /* a FIFO, socket or device node */
};

/* A path and its type, a fact (glob matches, /etc entries to hide). */
struct lf_typed_path {
	char *path;
	enum lf_ftype type;
};

/* A grant before fencing. */
struct lf_cand {
	char *raw; /* the path as its source names it (absolute) */
	unsigned access;
	enum lf_origin origin;
	unsigned flags;
	char *why;
	struct lf_source source; /* a policy's place, file NULL if none */
	enum lf_layer layer;
	const char *make_content; /* LF_CAND_MAKE_FILE: what the file holds (static) */
	/* facts */
	bool made;	 /* missing, and made by the facts step */
	int make_err;	 /* missing, and making it failed: the errno */
	char *canon;	 /* realpath(raw), NULL when err */
	int err;	 /* the errno of realpath, 0 */
	signed char dir; /* 1 directory, 0 not, -1 unknown */
	bool exists;	 /* lstat(raw) succeeded */
	struct lf_listing_entry *list;
	size_t nlist;
	char *list_err; /* the listing is incomplete: why (then nothing of it
			   is granted) */
};

/* A fence before canonicalisation. */
struct lf_fence_in {
	char *raw; /* the plan's abs_root, or the configuration directory */
	unsigned access;
	enum lf_effect effect;
	enum lf_origin origin; /* LF_ORIGIN_POLICY or LF_ORIGIN_BUILTIN */
	struct lf_source source;
	enum lf_layer layer;
	const struct lf_glob *glob; /* the deny or ask glob behind a policy fence
				       (borrowed from the policy), NULL otherwise */
	/* facts */
	char *canon;	     /* lf_path_canon_lenient(raw) */
	unsigned long nlink; /* a regular file's link count at canon, 0 otherwise */
	enum lf_ftype type;  /* what canon is at launch (lstat) */
	/* The glob expanded below canon (a read fence whose glob has more
	 * than its static prefix, at or above a read grant): every match
	 * at launch. expanded says the walk ran; expand_err why it could
	 * not finish (then nothing can be masked). */
	bool expanded;
	char *expand_err;
	struct lf_typed_path *matches;
	size_t nmatches, matches_cap;
	/* Other mount paths that show canon's place (a bind mount of the
	 * project elsewhere): fences too. */
	char **aliases;
	size_t naliases;
};

/* A protection as stage 1 lists it: a table row or a policy's entry. */
struct lf_protect_in {
	enum lf_protect_base base;
	const char *rel;  /* below the base; borrowed (table or policy) */
	char *name;	  /* as `plan` shows it (".git/hooks", "~/.ssh") */
	const char *why;  /* borrowed */
	bool watch_only;  /* the row is only ever watched */
	bool lifted;	  /* a layer's "protect.lift" names it */
	bool from_policy; /* a layer's "protect.add" */
};

/* A protection's place, a fact: the entry's path below its base (each
 * git directory for a git-directory row), or another mount path that
 * shows it. */
struct lf_protect_path {
	char *path;	    /* the parent canonical, the last component as written */
	size_t entry;	    /* index into lf_sandbox_input.protects */
	enum lf_ftype type; /* lstat: a link is never followed */
	bool alias;	    /* another mount path of an earlier entry */
};

/* A variable the scrub removes. */
struct lf_env_in {
	char *name;
	char *why;
};

/* Everything the compile needs: stage 1's output plus the facts. */
struct lf_sandbox_input {
	struct lf_host host;
	lf_posture posture;
	struct lf_cand *cands;
	size_t ncands, cands_cap;
	struct lf_fence_in *fences;
	size_t nfences, fences_cap;
	struct lf_env_in *env;
	size_t nenv, env_cap;
	/* The network: restricted when a layer has a "network" section; the
	 * ports every such layer allows. */
	bool net_restricted;
	struct lf_ports net_connect;
	struct lf_ports net_bind;
	/* The command: facts. */
	char *command_canon; /* realpath(host.command), NULL none */
	char *interp_canon;  /* its "#!" interpreter, resolved, NULL none */
	/* Protections (stage 1) and their places (facts). */
	struct lf_protect_in *protects;
	size_t nprotects, protects_cap;
	struct lf_protect_path *protect_paths;
	size_t nprotect_paths, protect_paths_cap;
	/* The git directories of the project (facts), for `plan`. */
	struct lf_strv gitdirs;
	/* /etc with a mount namespace: one rule, and every entry others
	 * cannot read hidden (facts); etc_err says why the look at /etc
	 * could not finish (then /etc is not granted at all). */
	bool etc_checked;
	/* /etc is seen as others see it (an id-mapped mount): then
	 * etc_hidden holds only the entries of the built-in list others can
	 * read, and etc_aliases is empty. */
	bool etc_others;
	char *etc_err;
	struct lf_typed_path *etc_hidden;
	size_t netc_hidden, etc_hidden_cap;
	char **etc_aliases;	/* other mount paths that show /etc */
	char **etc_alias_shown; /* what each shows: /etc or a place below it */
	size_t netc_aliases;
	/* Notes of the facts step for the user (a look that could not
	 * finish), passed on as the value's notices. */
	struct lf_strv fact_notes;
};

/* Stage 1 (pure). profiles: the caller's, pooled with every layer's
 * "profiles" (each name once). e may be NULL (no layers: only the plan
 * and the host grants). Returns 0 and *out (free with
 * lf_sandbox_input_free), -EINVAL (unknown profile, bad host path; diag),
 * -ENOMEM. */
int lf_sandbox_sources(const struct lf_effective *e, const struct lf_plan *plan,
		       const struct lf_host *host, const char *const *profiles, size_t nprofiles,
		       struct lf_sandbox_input **out, struct lf_diag *diag);
void lf_sandbox_input_free(struct lf_sandbox_input *in);

/* Stage 3 (pure). Returns 0 and *out, -EOPNOTSUPP (KernelTooOld; diag),
 * -ENOMEM. */
int lf_sandbox_compile(const struct lf_sandbox_input *in, struct lf_sandbox **out,
		       struct lf_diag *diag);

/* A second name of a fenced or protected file below a grant (the hard-link
 * scan's hit), a fact for lf_sandbox_mask_links. */
struct lf_link_fact {
	const char *path;   /* the name below the grant */
	const char *fenced; /* the fenced or protected name */
	unsigned access;    /* the class the grant gives and the fence denies */
};

/* Pure, after the hard-link scan: with a mount namespace, masks each
 * hit at its own path (hidden for a read fence, read-only for a write
 * fence) and counts it among the masks. Without one it changes nothing
 * (the pre-launch checks refuse or warn). Returns the number masked, or
 * -ENOMEM. */
int lf_sandbox_mask_links(struct lf_sandbox *sb, const struct lf_link_fact *links, size_t n);

/* Whether a mask keeps class cls (LF_ACCESS_RO or _RW) from path: a
 * hidden place refuses both, a read-only one writing. */
bool lf_sandbox_masked(const struct lf_sandbox *sb, const char *path, unsigned cls);

/* Whether final rule i is a grant root the launcher binds nodev,nosuid
 * (or lies below one): the device-node scan need not walk it. */
bool lf_sandbox_rule_nodev(const struct lf_sandbox *sb, size_t i);
/* The rule whose path is path[0..len), or -1 (the path index: O(1)). */
long lf_sandbox_rule_find(const struct lf_sandbox *sb, const char *path, size_t len);
/* Whether a directory rule strictly above rule i carries all of rights
 * (Landlock unions the rules of every ancestor, so rule i then adds
 * nothing): each ancestor of its path looked up, O(depth). */
bool lf_sandbox_rule_redundant(const struct lf_sandbox *sb, size_t i, uint64_t rights);

/* The places the launcher bind-mounts onto themselves before the masks:
 * grant roots (nodev,nosuid) and pins. Sorted so that a parent comes
 * before what lies below it. */
struct lf_bind {
	char *path;
	bool nodev;  /* a grant root: nodev,nosuid; else a pin */
	bool others; /* seen as others see it: id-mapped through a user
			namespace that maps one random id */
};

/* A rule's path in short: its length and hash, the key of the rules'
 * path index. */
struct lf_rule_key {
	size_t len;
	uint32_t hash;
};

struct lf_sandbox {
	struct lf_abi_probe probe;
	int abi;
	struct lf_status status;
	uint64_t handled;
	uint64_t scoped;
	uint64_t handled_net;
	bool net_restricted;
	bool allow_unscoped; /* the missing scopes below ABI 6 accepted */
	struct lf_sandbox_port *ports;
	size_t nports;
	lf_posture posture;
	char *project_root;
	char *home;
	char *config_dir; /* landfence's configuration directory (its caches), or NULL */
	char *run_dir;
	struct lf_sandbox_rule *rules;
	bool *rule_dir;	   /* the path was a directory when compiled */
	bool *rule_device; /* a device node: device rights only */
	struct lf_rule_key *rule_key;
	size_t nrules, rules_cap;
	/* The rules by path (open addressing: rule index + 1, 0 empty), so
	 * that duplicate, ancestor and cover checks look a path and each of
	 * its ancestors up instead of comparing every rule with every other. */
	size_t *rule_slot;
	size_t nslots; /* a power of two, at least twice nrules; 0: none */
	struct lf_sandbox_dropped *dropped;
	size_t ndropped, dropped_cap;
	struct lf_sandbox_fence *fences;
	size_t nfences, fences_cap;
	/* Per fence, while compiling: its input fence, and which form it is
	 * (LF_FORM_*). */
	size_t *fence_src;
	unsigned char *fence_form;
	struct lf_sandbox_mask *masks; /* sorted parent first once compiled */
	size_t nmasks, masks_cap;
	struct lf_sandbox_protect *protects;
	size_t nprotects, protects_cap;
	struct lf_bind *binds; /* nodev roots and pins, sorted parent first */
	size_t nbinds, binds_cap;
	struct lf_namespace ns;
	char *ns_failed;
	char *others_path; /* /etc when it is seen as others see it, else NULL */
	/* Plan drops given back as rules: "CLASS\tROOT" of each. */
	struct lf_strv readmitted;
	struct lf_sandbox_env *env;
	size_t nenv;
	struct lf_strv notices;
};

/* Landlock rights (pure tables, src/core/rights.c): every filesystem
 * right the ABI knows (MAKE_CHAR and MAKE_BLOCK among them: handled, never
 * granted; ABIs above the newest known count as the newest), the scope
 * bits (ABI >= 6), the rights of LF_ACCESS_* classes (RO -> READ_FILE,
 * READ_DIR, EXECUTE; RW -> WRITE_FILE, REMOVE_*, MAKE_DIR, MAKE_REG,
 * MAKE_SOCK, MAKE_FIFO, MAKE_SYM, REFER, TRUNCATE; ioctl_dev adds
 * IOCTL_DEV; masked by the ABI and, for a file, by what a file can
 * carry). */
uint64_t lf_landlock_handled_fs(int abi);
uint64_t lf_landlock_scoped(int abi);
uint64_t lf_landlock_rights(unsigned access, bool dir, bool ioctl_dev, int abi);
/* The rights a device node keeps: reading, writing, truncating, ioctls. */
uint64_t lf_landlock_device_rights(void);

#endif /* LF_CORE_SANDBOX_H */
