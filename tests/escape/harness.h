/* SPDX-License-Identifier: MIT */
/*
 * The escape suite's harness (doc/escape.md): each case builds a fresh
 * tree, runs the attacker (lf-probe) under `landfence run` with a policy
 * that denies something, and compares the probe's result tokens, the exit
 * status and what landfence said with what the case expects.
 */
#ifndef LF_TESTS_ESCAPE_HARNESS_H
#define LF_TESTS_ESCAPE_HARNESS_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* The places of one case. Paths are canonical. */
struct esc {
	char base[PATH_MAX / 4]; /* @B */
	char proj[PATH_MAX / 4]; /* @P: the project root */
	char out[PATH_MAX / 4];	 /* @O: outside the project, never granted */
	char cfg[PATH_MAX / 4];	 /* XDG_CONFIG_HOME of the user */
	char home[PATH_MAX / 4]; /* HOME of the user */
	char link[PATH_MAX / 4]; /* @R: a symlink to the project root */
	char policy[PATH_MAX / 4];
	char name[64];		/* @N: a name unique to the case */
	pid_t helper;		/* @X: an unsandboxed process, or 0 */
	char cwd[PATH_MAX / 4]; /* working directory of esc_landfence, "" = @P */
	const struct esc_case *c;
};

struct esc_result {
	int exit;	 /* landfence's exit status, 128+N for a signal */
	char out[16384]; /* stdout */
	char err[16384]; /* stderr */
};

enum esc_mode {
	ESC_RUN = 0,	/* landfence run [-p policy] -C proj -- probe ... */
	ESC_PLAN = 1,	/* landfence plan [-p policy] -C proj */
	ESC_DOCTOR = 2, /* landfence doctor */
};

enum {
	ESC_PTY = 1u << 0,	      /* the probe's stdin is a pseudo-terminal */
	ESC_HELPER = 1u << 1,	      /* start the outside helper (@X) */
	ESC_PROJECT_POLICY = 1u << 2, /* policy in proj/.landfence/policy.json */
	ESC_TRUST = 1u << 3,	      /* ... and trusted with `landfence trust` */
	ESC_VIA_LINK = 1u << 4,	      /* -C names the project through @R */
	ESC_INHERIT_FDS = 1u << 5,    /* the caller leaves fds 3, 7, 200 open on @O/secret */
	ESC_NO_POLICY = 1u << 6,      /* no -p: the embedded default (or project policy) */
	ESC_POLICY_IN_SRC = 1u << 7,  /* -p @P/src/agent-policy.json (a writable place) */
	ESC_ROOT = 1u << 8,	      /* needs root (mknod, chroot, capabilities): skipped
					 otherwise; CI runs as root */
	ESC_NO_NS = 1u << 9,	      /* the path without a mount namespace: landfence runs
					 with LANDFENCE_NO_NAMESPACES=1 */
	ESC_NS = 1u << 10,	      /* needs the mount namespace (masks): skipped where
					 there is none (LANDFENCE_NO_NAMESPACES=1 or a probe
					 that fails) */
	ESC_NS_EXIT = 1u << 11,	      /* want_exit_ns is the exit status with masks */
	ESC_STDIN_DIR = 1u << 12,     /* the probe's stdin is the project directory */
	ESC_NOT_ROOT = 1u << 13,      /* as a user other than root only: skipped as root */
	ESC_DISCOVER = 1u << 14,      /* no -C: the root is discovered from the working
					 directory (e->cwd, set by setup, else @P) */
	ESC_WARM = 1u << 15,	      /* the same command runs once before, the probe
					 doing nothing: the case's run makes no place of
					 landfence's own (caches, profile directories), so
					 what happens during it is the program's */
};

struct esc_case {
	const char *name;
	int kind; /* 1..12, the kinds of doc/escape.md */
	enum esc_mode mode;
	unsigned flags;
	const char *policy; /* JSON; @-substituted */
	const char *probe;  /* probe operations, space separated; @-substituted */
	const char *want;   /* the probe's tokens, space separated; NULL: not checked */
	int want_exit;
	const char *abi_max;	/* LANDFENCE_ABI_MAX, or NULL */
	const char *args;	/* more landfence options, space separated, or NULL */
	int min_abi;		/* skip when the kernel's ABI is lower */
	const char *out_has[4]; /* substrings of stdout or stderr (plan, doctor) */
	const char *err_has[4]; /* substrings of stderr */
	const char *err_lacks[2];
	const char *hole; /* an open hole or a missing piece: whose file, what
			     to do. Such cases run in the escape-holes test,
			     which fails until they are fixed. */
	/* Where the mount namespace is in force (doc/landlock.md, "Masks"):
	 * the probe's tokens and the exit status (ESC_NS_EXIT), when they
	 * differ from want and want_exit. */
	const char *want_ns;
	int want_exit_ns;
	void (*setup)(struct esc *e);
	void (*during)(struct esc *e); /* when the probe says "ready" */
	void (*after)(struct esc *e, const struct esc_result *r);
	const char *env; /* "NAME=VALUE" set for landfence, or NULL; @-substituted */
};

/* Helpers for setup/after callbacks (paths relative to e->base). */
const char *esc_path(const struct esc *e, const char *rel);
void esc_put(const struct esc *e, const char *rel, const char *text);
void esc_mkdir(const struct esc *e, const char *rel);
bool esc_file_is(const struct esc *e, const char *rel, const char *text);
bool esc_exists(const struct esc *e, const char *rel);
/* Runs landfence with argv (NULL-terminated, @-substituted) as the case's
 * user would, in the project directory. */
void esc_landfence(struct esc *e, const char *const *argv, struct esc_result *r);
void esc_subst(const struct esc *e, const char *in, char *out, size_t size);
/* Whether this case runs with the mount namespace's masks in force. */
bool esc_ns(const struct esc *e);

extern const struct esc_case esc_cases[];
extern const size_t esc_ncases;

#endif /* LF_TESTS_ESCAPE_HARNESS_H */
