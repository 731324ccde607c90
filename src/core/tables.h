/* SPDX-License-Identifier: MIT */
/*
 * What landfence knows about the host, as tables: one row per host grant,
 * /etc secret, agent profile, scrubbed variable or persistence path. Every
 * consumer (the sandbox value, `plan`, `check`, `hook`, the Claude Code
 * export, the policy loader, the pre-launch checks) reads these rows;
 * adding a case adds a row. Pure data and lookups. Internal: not installed.
 */
#ifndef LF_CORE_TABLES_H
#define LF_CORE_TABLES_H

#include <stdbool.h>
#include <stddef.h>

#include "landfence.h"

/* Host grants: what a program needs outside the project to run at all
 * (SPEC §3). Every row is fenced like any other grant. */
enum lf_host_kind {
	LF_HOST_SYSTEM = 0,   /* a system directory, read-only */
	LF_HOST_ETC = 1,      /* /etc, granted entry by entry without its secrets */
	LF_HOST_HOME = 2,     /* "~/..." below the home directory, read-only */
	LF_HOST_DEVICE = 3,   /* a device node: read and write, nothing else */
	LF_HOST_TERMINAL = 4, /* a terminal device, with terminal ioctls */
};

struct lf_host_row {
	const char *path; /* absolute, or "~/" for the home directory */
	enum lf_host_kind kind;
	const char *why; /* shown by `plan` */
};

/* Every row, in the order `plan` lists them. A row whose path does not
 * exist on this machine is left out quietly (it is not news that /libx32
 * is missing). */
extern const struct lf_host_row lf_host_table[];
extern const size_t lf_host_table_len;

/* The classes (LF_ACCESS_*) a host row grants. */
unsigned lf_host_access(enum lf_host_kind kind);

/* Known secrets of /etc (password hashes, sudo rules, TLS and SSH host
 * private keys, old passwords): never granted, even for a program running
 * as root, whatever their mode says. The rule is wider than the list:
 * nothing in /etc that others cannot read is granted (doc/landlock.md,
 * "/etc"); the list documents the known cases. NULL-terminated. */
extern const char *const lf_etc_hidden[];

/* Whether path is, or lies below, a hidden /etc entry (fnmatch for the
 * patterns). */
bool lf_etc_is_hidden(const char *path);

/* What stays open under Landlock up to ABI 7, whatever the policy: each
 * row a short name and the sentence `doctor` and `plan` print (doc/
 * escape.md). NULL-terminated. */
struct lf_open_limit {
	const char *name;
	const char *text;
};
extern const struct lf_open_limit lf_open_limits[];

/* The terminal paths that carry terminal ioctls (IOCTL_DEV), judged on
 * canonical paths: /dev/tty, /dev/ptmx and /dev/pts. */
bool lf_host_terminal(const char *canon);

/* Agent profiles: the config and cache places each agent writes. A place
 * that does not exist is made by `landfence run` before the program starts
 * (a directory 0700, a file 0600 holding content), so that a first run
 * keeps its state; an optional one is never made, and left out quietly
 * when missing. */
#define LF_PROFILE_DIR 0x1u	 /* a directory */
#define LF_PROFILE_FILE 0x2u	 /* a file */
#define LF_PROFILE_OPTIONAL 0x4u /* never made; left out without a word when missing */

struct lf_profile_path {
	const char *path;    /* "~/..." */
	unsigned access;     /* LF_ACCESS_* */
	unsigned flags;	     /* LF_PROFILE_* */
	const char *content; /* what a file made before launch holds ("" if NULL) */
};

struct lf_profile {
	const char *name;    /* "claude" */
	const char *command; /* the agent's command name: `run -- claude` adds the profile */
	struct lf_profile_path paths[10];
};

extern const struct lf_profile lf_profile_table[];
extern const size_t lf_profile_table_len;

/* The profile called name, or NULL. */
const struct lf_profile *lf_profile_find(const char *name);

/* The profile whose agent command is the basename of cmd, or NULL. */
const struct lf_profile *lf_profile_for_command(const char *cmd);

/* Whether name is a known agent profile. The policy loader rejects
 * unknown names with it. */
bool lf_profile_known(const char *name);

/* The profile names for messages: "claude, codex, gemini, aider,
 * opencode", or with quoted set, "\"claude\", ..., \"aider\" or
 * \"opencode\"". Always
 * NUL terminated when size > 0. */
void lf_profile_list(char *buf, size_t size, bool quoted);

/* Variables scrubbed from the program's environment by default (they point
 * a program at an IPC endpoint outside the sandbox), NULL-terminated. */
extern const char *const lf_env_default_scrub[];

/* Persistence paths: where code planted by the sandbox runs later outside
 * it (doc/escape.md). Relative to the project root, to the home directory,
 * and to every git directory of the project (the main one, submodules'
 * under .git/modules, a linked worktree's common directory, nested
 * repositories). Each row is a protection (doc/policy.md, "protect"):
 * read-only where a mount namespace is available and the path exists,
 * watched (the post-run report) otherwise; a row flagged
 * LF_PERSIST_WATCH is only ever watched, because the tools that own it
 * write it as they run (Claude Code's ~/.claude.json, an editor's
 * .vscode/). A row left without flags is protected: the safe default. */
#define LF_PERSIST_WATCH 0x1u
/* A JSON file its tool rewrites at every run, of which only the members
 * that can make something run are compared (lf_protect_row_json_keys). */
#define LF_PERSIST_JSON_KEYS 0x2u

struct lf_persist_row {
	const char *rel;
	const char *why;
	unsigned flags;
};

extern const struct lf_persist_row lf_persist_project[];
extern const size_t lf_persist_project_len;
extern const struct lf_persist_row lf_persist_home[];
extern const size_t lf_persist_home_len;
extern const struct lf_persist_row lf_persist_gitdir[];
extern const size_t lf_persist_gitdir_len;

/* Directories whose files run as git hooks: the post-run report looks at
 * their files one by one. */
bool lf_persist_hook_dir(const char *path);

/* Where a protection is relative to. */
enum lf_protect_base {
	LF_PROTECT_PROJECT = 0, /* the project root */
	LF_PROTECT_HOME = 1,	/* the home directory */
	LF_PROTECT_GITDIR = 2,	/* every git directory of the project */
};

/* The name a policy uses for a row in "protect": {"lift": [...]}, and
 * that `plan` shows: the project row as written (".envrc"), a git
 * directory row after ".git/" (".git/hooks": every git directory's), a
 * home row after "~/" ("~/.codex/config.toml"). Written into buf (NUL
 * terminated when size > 0). */
void lf_protect_row_name(enum lf_protect_base base, const struct lf_persist_row *row, char *buf,
			 size_t size);

/* The persistence table of one base (static; *n its length). */
const struct lf_persist_row *lf_protect_rows(enum lf_protect_base base, size_t *n);

/* Whether name is a row's name (lf_protect_row_name) of any base. */
bool lf_protect_row_known(const char *name);

/* Whether name is a row the owning tool writes as it runs
 * (LF_PERSIST_WATCH: ~/.codex, .vscode, ...): the post-run report looks
 * at the place itself, not at every file below it. */
bool lf_protect_row_watch_only(const char *name);

/* Whether name is a row flagged LF_PERSIST_JSON_KEYS (~/.claude.json,
 * which Claude Code rewrites at every start: its counters, tips and
 * per-project history): the post-run report compares the members whose
 * names say they make something run or widen what runs (MCP servers,
 * allowed tools, hooks, trust, permissions, commands, environment...),
 * and the whole content when the file is not JSON. */
bool lf_protect_row_json_keys(const char *name);

#endif /* LF_CORE_TABLES_H */
