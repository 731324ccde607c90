/* SPDX-License-Identifier: MIT */
/*
 * Checks `plan` and `run` make on the final rules before anything runs:
 * hard links from fenced files into grants (Landlock cannot tell a second
 * name of a fenced file from any other file in a grant), and persistence
 * paths (git hooks, agent settings, shell start-up files) left writable.
 */
#ifndef LF_CLI_CHECKS_H
#define LF_CLI_CHECKS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

#include "landlock/sandbox.h"

/* What a check found, one formatted line per finding. */
struct lf_cli_findings {
	char **lines;
	size_t n;
	bool incomplete;  /* the hard-link scan hit a bound */
	char reason[160]; /* why it is incomplete */
};

void lf_cli_findings_fini(struct lf_cli_findings *f);

/* lf_hardlink_scan over the plan's fences (canonicalised; missing ones
 * skipped) and the sandbox's final rules. Returns 0 and *out, or a
 * negative errno. */
int lf_cli_hardlinks(const struct lf_plan *plan, const struct lf_sandbox *sb,
		     struct lf_cli_findings *out);

/* lf_persistence_check over the sandbox's final rules, home from HOME,
 * plus the policy files of the run (files[0..nfiles), "<embedded>"
 * skipped) that a writable rule covers. Returns 0 and *out, or a negative
 * errno. */
int lf_cli_persistence(const char *project_root, const struct lf_sandbox *sb,
		       const char *const *files, size_t nfiles, struct lf_cli_findings *out);

/* lf_devnode_scan below the grants of the policy, fallback, profiles and
 * host section. Returns 0 and *out, or a negative errno. */
int lf_cli_devnodes(const struct lf_sandbox *sb, struct lf_cli_findings *out);

/* The same finding as lf_cli_devnodes, for `run`: a walk that trusts the
 * directory entries' types and stats only device nodes. */
int lf_cli_devnodes_fast(const struct lf_sandbox *sb, struct lf_cli_findings *out);

/* What `run` looks at before and after the program, where code planted
 * by the sandbox would run later outside it: the persistence paths the
 * final rules leave writable (lf_persistence_check) and the files directly
 * inside the git hook directories among them (.git/hooks, .husky,
 * .githooks). lstat only: existence, type and mode, size, mtime, inode. */
struct lf_cli_snap_item {
	char *path;	 /* owned */
	const char *why; /* what runs it, static text */
	bool exists;
	struct stat st;
};

struct lf_cli_snapshot {
	struct lf_cli_snap_item *bases; /* the persistence paths */
	size_t nbases;
	struct lf_cli_snap_item *items; /* bases plus hook files, as taken */
	size_t nitems;
};

/* Takes the snapshot before launch. Returns 0 and *out, or a negative
 * errno. */
int lf_cli_snapshot_take(const char *project_root, const struct lf_sandbox *sb,
			 struct lf_cli_snapshot *out);
/* Looks again and lists each path created, removed or changed since, one
 * line each ("the program changed PATH, which runs outside the sandbox
 * later (WHY)"); a directory is not named when a file in it is. */
int lf_cli_snapshot_compare(const struct lf_cli_snapshot *before, struct lf_cli_findings *out);
void lf_cli_snapshot_fini(struct lf_cli_snapshot *s);

#endif /* LF_CLI_CHECKS_H */
