/* SPDX-License-Identifier: MIT */
/*
 * What Landlock cannot see by itself, found by looking at the tree before
 * launch (doc/escape.md, kinds 2 and 11). The public face is
 * lf_findings_scan (landfence.h); these are its parts, on plain (path,
 * access) pairs so that tests can call them on any tree. Internal: not
 * installed.
 *
 * Hard links. A Landlock path-beneath rule binds the inode of a directory
 * (or file) and everything reachable below it; an access is checked along
 * the path actually walked. A second name for a fenced file, placed in a
 * granted directory before launch, is therefore reachable through the
 * grant: the kernel cannot tell it from any other file there.
 * lf_hardlink_scan() looks for such names: regular files below a fence with
 * st_nlink > 1 whose (st_dev, st_ino) also appears below a granted root of
 * the same access class. It walks with the one walker (src/fs/fs.h): a
 * budget of entries and time, no depth or path-length cut-off; whatever it
 * could not look at makes the report incomplete, with the reason.
 *
 * Persistence. A sandboxed program that can write .git/hooks, the agent's
 * settings, .envrc, ... plants code that runs later outside the sandbox.
 * lf_persistence_check() lists such paths that the final rules leave
 * writable, for a notice from `plan`, `doctor` and `run`.
 *
 * Both take the final rules as plain (path, access) pairs so that the
 * caller can pass lf_sandbox_rule() results, plan grants or test data.
 */
#ifndef LF_GATE_SCAN_H
#define LF_GATE_SCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "fs/fs.h"
#include "landfence.h"

/* A canonical absolute path and the LF_ACCESS_* classes it carries. */
struct lf_path_access {
	const char *path;
	unsigned access;
};

/* One fenced file reachable under a second name through a grant. */
struct lf_hardlink_hit {
	char *fenced_path;  /* the name below the fence (owned) */
	char *granted_path; /* the other name, below a granted root (owned) */
	const char *fence;  /* the fence root, borrowed from the caller */
	const char *root;   /* the granted root, borrowed from the caller */
	unsigned access;    /* the class the grant gives and the fence denies */
	dev_t dev;
	ino_t ino;
};

struct lf_hardlink_report {
	struct lf_hardlink_hit *hits;
	size_t nhits;
	size_t candidates; /* files below fences with st_nlink > 1 */
	size_t files_seen; /* entries looked at */
	bool incomplete;   /* something was not looked at: names may be missing */
	char reason[256];  /* why it is incomplete, "" when complete */
};

/* Scans for hard links from fenced files into granted roots.
 * fences[i].path and grants[i].path must be canonical absolute paths (they
 * are borrowed by the report). A fence that does not exist is skipped.
 * Symbolic links are never followed and the walk never leaves the file
 * systems of the fenced candidates. A name that lies itself below a fence
 * of the class is not a hit. budget may be NULL (the walker's defaults).
 * Returns 0 and fills *out (free with lf_hardlink_report_fini), or:
 *   -EINVAL  NULL arguments, a relative path
 *   -ENOMEM
 * A file removed while walking is simply gone; any other I/O error below a
 * root (a directory that cannot be opened or read) makes the report
 * incomplete. */
int lf_hardlink_scan(const struct lf_path_access *fences, size_t nfences,
		     const struct lf_path_access *grants, size_t ngrants,
		     const struct lf_walk_budget *budget, struct lf_hardlink_report *out);
void lf_hardlink_report_fini(struct lf_hardlink_report *r);

/* Writes "WHAT: FENCED is also reachable as GRANTED (hard link, ...)" for
 * hit h into buf (NUL terminated when size > 0). Returns snprintf's. */
int lf_hardlink_hit_format(const struct lf_hardlink_hit *h, char *buf, size_t size);

/* Device nodes. Landlock decides on the path, not on the kind of file: a
 * character or block device node that someone with CAP_MKNOD placed below
 * a grant before launch opens like a file there (a copy of /dev/sda's
 * numbers in the project is the whole disk). The sandbox cannot make one
 * (make_char and make_block are never granted); lf_devnode_scan() finds
 * those already there, below the given roots (the grants of the project,
 * profiles and the policy's host section; not /dev, whose nodes are
 * granted one by one). Roots on nodev mounts are skipped. The walk trusts
 * the directory entries' types and stats only device nodes (and entries
 * whose type the directory does not give). Bounded like the hard-link
 * scan.
 * Returns 0 and *out (free with lf_devnode_report_fini), -EINVAL, -ENOMEM. */
struct lf_devnode_hit {
	char *path;	  /* owned */
	const char *root; /* the grant it lies below (borrowed) */
	bool block;
	dev_t rdev;
};

struct lf_devnode_report {
	struct lf_devnode_hit *hits;
	size_t nhits;
	size_t files_seen;
	bool incomplete;
	char reason[256];
};

int lf_devnode_scan(const struct lf_path_access *roots, size_t nroots,
		    const struct lf_walk_budget *budget, struct lf_devnode_report *out);

/* The same, each root first asked of the cache of directory listings below
 * config_dir (landfence's configuration directory; NULL: none), when no
 * budget is given: a root it answers whole is not walked (a directory
 * whose device, inode, change and modification times are those cached is
 * not read again: making, linking or renaming a node in changes them;
 * doc/landlock.md). The others are walked as by lf_devnode_scan, which
 * says what it could not see. files_seen counts the walked roots only. */
int lf_devnode_scan_cached(const char *config_dir, const struct lf_path_access *roots,
			   size_t nroots, const struct lf_walk_budget *budget,
			   struct lf_devnode_report *out);
void lf_devnode_report_fini(struct lf_devnode_report *r);
int lf_devnode_hit_format(const struct lf_devnode_hit *h, char *buf, size_t size);

/* One path where code can be planted that runs later outside the sandbox. */
struct lf_persist_hit {
	char *path;	  /* canonical absolute path that is writable (owned) */
	const char *rule; /* the writable rule that covers it (borrowed) */
	const char *why;  /* what runs it, static text */
};

struct lf_persist_report {
	struct lf_persist_hit *hits;
	size_t nhits;
};

/* Lists the persistence paths (project-relative: .landfence/, .git/hooks,
 * .git/config, .claude/settings*.json, .mcp.json, .vscode/, .envrc, ...;
 * below home: shell start-up files, ~/.config/landfence, ~/.gitconfig,
 * ~/.claude/settings*.json, ...) that a rule with LF_ACCESS_RW covers, is
 * equal to, or lies below (a grant on one hook is a hook). When .git is a
 * file ("gitdir: DIR"), DIR's hooks and config are checked too.
 * project_root canonical absolute; home may be NULL (no home paths).
 * Paths need not exist: creating them is the threat.
 * Returns 0 and *out (free with lf_persist_report_fini), -EINVAL, -ENOMEM. */
int lf_persistence_check(const char *project_root, const char *home,
			 const struct lf_path_access *rules, size_t nrules,
			 struct lf_persist_report *out);
void lf_persist_report_fini(struct lf_persist_report *r);

/* Adds to rep the given policy files (the -p files and the user policy of
 * this run) that a rule with LF_ACCESS_RW covers: the program could
 * rewrite the policy of the next run started the same way. Files below
 * project_root/.landfence are left out: trust covers the project policy,
 * and .landfence is a persistence path already. Names that start with '<'
 * ("<embedded>") are not files. Paths are resolved with realpath when they
 * exist. Returns 0, -EINVAL, -ENOMEM (rep keeps what it had). */
int lf_persistence_add_files(struct lf_persist_report *rep, const char *project_root,
			     const char *const *files, size_t nfiles,
			     const struct lf_path_access *rules, size_t nrules);

/* Writes "PATH stays writable (rule RULE): WHY" into buf. */
int lf_persist_hit_format(const struct lf_persist_hit *h, char *buf, size_t size);

#endif /* LF_GATE_SCAN_H */
