/* SPDX-License-Identifier: MIT */
/*
 * Toolchains as users install them, below the home directory (pyenv,
 * rustup and cargo, nvm, volta, npm, go, bun, deno, asdf, mise, sdkman,
 * pipx, uv, poetry, pip, yarn, pnpm, gradle, maven, ...): one table of
 * rows, not branches. Each row names what shows the toolchain is in use
 * (its variables, its commands on PATH, a PATH entry below one of its
 * installation roots), its places (installation roots read+execute,
 * caches read+write) and the credential files near them, which no
 * discovered grant ever covers. src/fs/discover.c looks at the host with
 * it; the policy's "toolchains" key switches it off (doc/toolchains.md).
 * Pure data and pure functions. Internal: not installed.
 */
#ifndef LF_CORE_TOOLCHAINS_H
#define LF_CORE_TOOLCHAINS_H

#include <stdbool.h>
#include <stddef.h>

/* A place's path is written as the toolchain documents it:
 *   "~/.cargo"                      below the home directory
 *   "${CARGO_HOME}"                 a variable's value (an absolute path;
 *                                   the first element of a list such as
 *                                   GOPATH); nothing when it is unset
 *   "${CARGO_HOME:-~/.cargo}/bin"   the variable, else the fallback (which
 *                                   may itself be "${...:-...}")
 * See lf_tool_expand. */

#define LF_TOOL_ROOT 0x1u  /* an installation root: a PATH entry below it shows the tool in use */
#define LF_TOOL_CACHE 0x2u /* a cache: made (0700) by `landfence run` when missing */

struct lf_tool_place {
	const char *path;
	unsigned access;  /* LF_ACCESS_RO, or LF_ACCESS_RO | LF_ACCESS_RW */
	unsigned flags;	  /* LF_TOOL_* */
	const char *what; /* for plan: "Python versions", "the package cache" */
};

#define LF_TOOL_PLACES_MAX 10

struct lf_toolchain {
	const char *name;	 /* the name the policy's "toolchains" key uses */
	const char *vars[6];	 /* one of them set (non-empty): in use */
	const char *commands[5]; /* one of them on PATH: in use */
	struct lf_tool_place places[LF_TOOL_PLACES_MAX]; /* up to the first NULL path */
};

extern const struct lf_toolchain lf_toolchain_table[];
extern const size_t lf_toolchain_table_len;

/* Places found from a PATH entry rather than named: an entry ending in
 * suffix (a path, "/bin") whose rel (relative to the entry) exists is that
 * toolchain's root: D/bin with D/lib/node_modules is an npm prefix, and
 * D/node_modules/.bin is an npm install. */
struct lf_tool_path_rule {
	const char *tool;
	const char *suffix;
	const char *rel;
	const char *what;
};

extern const struct lf_tool_path_rule lf_tool_path_table[];
extern const size_t lf_tool_path_table_len;

/* Files that may hold a token or a key, in the same path syntax: no
 * discovered grant (a toolchain's place, the command's package tree) may
 * cover one, and `plan` names every one a final rule lets the program
 * read. */
struct lf_credential {
	const char *path;
	const char *what;
};

extern const struct lf_credential lf_credential_table[];
extern const size_t lf_credential_table_len;

/* The toolchain called name, or NULL. */
const struct lf_toolchain *lf_toolchain_find(const char *name);

/* The toolchain names for messages ("pyenv, rustup, ..."), NUL terminated
 * when size > 0. */
void lf_toolchain_list(char *buf, size_t size);

/* Looks a variable up: its value, or NULL when unset. */
typedef const char *(*lf_getenv_fn)(void *ctx, const char *name);

/* Expands a place's path (syntax above) into *out (malloc'ed): home for
 * "~" (absolute, or NULL: none), get for the variables. A variable counts
 * when it is set, not empty and absolute (the first element of a
 * colon-separated list); otherwise its fallback, if any, applies.
 * Returns 0, -ENOENT (nothing to expand to: an unset variable without a
 * fallback, "~" without a home), -EINVAL (a malformed path), -ENOMEM. */
int lf_tool_expand(const char *spec, const char *home, lf_getenv_fn get, void *ctx, char **out);

#endif /* LF_CORE_TOOLCHAINS_H */
