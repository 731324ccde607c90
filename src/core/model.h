/* SPDX-License-Identifier: MIT */
/*
 * The permission model's data, shared by the pure core (src/core), the
 * policy loaders (src/policy) and the adapter. Internal: not installed.
 *
 * Ownership: a policy owns its rules, their globs and command rules, and
 * every string inside them. An effective policy borrows the layers.
 */
#ifndef LF_CORE_MODEL_H
#define LF_CORE_MODEL_H

#include <stdbool.h>
#include <stddef.h>

#include "core/path.h"
#include "landfence.h"

/* A list of owned strings. */
struct lf_strv {
	char **v;
	size_t n;
};

/* A list of TCP ports, in the order written, each once. */
struct lf_ports {
	unsigned short *v;
	size_t n;
};

/* Appends port unless it is there already. Returns 0 or -ENOMEM. */
int lf_ports_add(struct lf_ports *p, unsigned short port);
bool lf_ports_has(const struct lf_ports *p, unsigned short port);
void lf_ports_fini(struct lf_ports *p);

/* A validated, normalised project-relative glob. */
struct lf_glob {
	char *pattern;	       /* normalised: no "./" prefix, no "//", no trailing '/' */
	size_t prefix_len;     /* length of the static prefix (seed static_prefix):
			      pattern[0..prefix_len) is the literal directory path
			      before the first metacharacter, or the whole pattern
			      when it has none; 0 means the project root */
	unsigned line, column; /* where the pattern was written, 0 if unknown */
};

/* One command rule of a bash rule. */
struct lf_cmd_rule {
	enum lf_matcher matcher;
	char *text;    /* as written; non-empty */
	char **tokens; /* text split on blanks (exact, prefix) */
	size_t ntokens;
	enum lf_effect effect;
	struct lf_source source;
};

/* A file rule (cap read/write/delete, globs) or a bash rule (cap bash,
 * cmds). Never both. */
struct lf_rule {
	enum lf_capability cap;
	enum lf_effect effect;
	struct lf_glob *globs;
	size_t nglobs;
	struct lf_cmd_rule *cmds;
	size_t ncmds;
	struct lf_source source; /* source.file points to the policy's file */
	enum lf_layer layer;
};

struct lf_policy {
	char *file; /* name used in sources and diagnostics */
	enum lf_layer layer;
	bool extends_default; /* "extends": "default": the embedded default is a layer too */
	bool has_fallback;    /* false: this layer states no fallback */
	lf_posture fallback;
	struct lf_rule *rules;
	size_t nrules;
	struct lf_strv host_read;    /* "host": {"read": [...]} as written */
	struct lf_strv host_write;   /* "host": {"write": [...]} as written */
	struct lf_strv profiles;     /* "profiles": [...] */
	struct lf_strv env_unset;    /* "env": {"unset": [...]} */
	struct lf_strv env_keep;     /* "env": {"keep": [...]}: kept despite the
				      default scrub list */
	struct lf_strv protect_add;  /* "protect": {"add": [...]}: more protections,
					project-relative or "~/..." */
	struct lf_strv protect_lift; /* "protect": {"lift": [...]}: built-in rows
					only watched, not masked */
	/* "toolchains": {"discover": false, "except": [...]} */
	bool has_discover;
	bool discover;
	struct lf_strv toolchains_except;
	/* "network": {"connect": [...], "bind": [...]}: TCP restricted to
	 * these ports (absent keys: none) */
	bool has_network;
	struct lf_ports net_connect;
	struct lf_ports net_bind;
};

/* Model construction (src/core/model.c). All return 0 or a negative errno;
 * on -EINVAL they fill diag->message (and leave file/line/column for the
 * caller to set, since only the caller knows where the value came from). */
int lf_policy_new(const char *file, enum lf_layer layer, struct lf_policy **out);

/* Validates and normalises pattern (SPEC §1 path scope) into g.
 * -EINVAL: empty, absolute, a ".." component, NUL byte (len != strlen),
 * an unterminated '[' class, or a pattern that normalises to nothing. */
int lf_glob_init(struct lf_glob *g, const char *pattern, size_t len, struct lf_diag *diag);
void lf_glob_fini(struct lf_glob *g);

/* Whether glob g matches the normalised project-relative path (""
 * is the project root). A pattern that matches a directory covers every
 * path below it. Pure. */
bool lf_glob_match(const struct lf_glob *g, const char *path);

/* Appends a file rule; takes ownership of globs[0..n) on success and on
 * failure alike. -EINVAL for cap == bash or n == 0. */
int lf_policy_add_file_rule(struct lf_policy *p, enum lf_capability cap, enum lf_effect effect,
			    struct lf_glob *globs, size_t n, struct lf_source src,
			    struct lf_diag *diag);

/* Validates a command rule text (non-empty after trimming blanks) and
 * fills c. Takes no ownership of text. */
int lf_cmd_rule_init(struct lf_cmd_rule *c, enum lf_matcher m, const char *text,
		     enum lf_effect effect, struct lf_source src, struct lf_diag *diag);
void lf_cmd_rule_fini(struct lf_cmd_rule *c);

/* Appends a bash rule; takes ownership of cmds[0..n) (n may be 0). */
int lf_policy_add_bash_rule(struct lf_policy *p, enum lf_effect effect, struct lf_cmd_rule *cmds,
			    size_t n, struct lf_source src);

int lf_strv_push(struct lf_strv *sv, const char *s);
/* Appends a formatted string. Returns 0 or -ENOMEM. */
int lf_strv_pushf(struct lf_strv *sv, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void lf_strv_fini(struct lf_strv *sv);

/* The resolved policy. Rules are pooled as pointers in layer order. */
struct lf_decide_index; /* private to src/core/decide.c */
struct lf_bash_index;	/* private to src/core/decide_bash.c */

struct lf_effective {
	const struct lf_policy *const *layers;
	size_t nlayers;
	const struct lf_rule **rules;
	size_t nrules;
	lf_posture fallback;
	/* The file rules' index: made at the first file decision that
	 * needs it (a launch makes none: a 10,000-rule policy's took 4.7 ms
	 * of it), by the first thread to finish it; NULL before, and when
	 * it could not be made (each decision then scans every rule). */
	struct lf_decide_index *index;
	bool scan_only; /* every file decision scans every rule (tests, benchmarks) */
	struct lf_bash_index *bash_index; /* NULL: built for each line */
};

/* The names the seed's tests and the shell analysis (src/core/
 * decide_bash.c) use for lf_effective_resolve, lf_effective_decide_file and
 * lf_effective_decide_bash (landfence.h names them noun-first); the last
 * is defined there and the public one calls it. */
int lf_resolve(const struct lf_policy *const *layers, size_t n, struct lf_effective **out);
int lf_decide_file(const struct lf_effective *e, const char *project_root, enum lf_capability cap,
		   const char *path, struct lf_verdict *out);
int lf_decide_bash(const struct lf_effective *e, const char *project_root, const char *line,
		   struct lf_verdict *out);

/* Copies a caller's option struct (src, src_size bytes: its size field)
 * into dst (the library's own layout, dst_size bytes), zeroing what the
 * caller's struct does not cover. Returns 0, or -EINVAL when src is NULL,
 * its size does not cover the size field, or a field past dst_size is not
 * zero (landfence.h, "Option structs"). */
int lf_opts_copy(void *dst, size_t dst_size, const void *src, size_t src_size);

/* Makes room for element n of the array *v (of size-byte elements, *cap
 * of them allocated): nothing when n < *cap, else twice the room (16 at
 * first). Returns 0 or -ENOMEM (*v and *cap unchanged). */
int lf_grow(void **v, size_t *cap, size_t n, size_t size);

/* Fills diag (when not NULL) with file, line, column and a formatted
 * message; file "" (or NULL) for a refusal or an error that is not about a
 * place in a file. Returns -EINVAL so that a parser can
 * "return lf_diag_set(...)". */
int lf_diag_set(struct lf_diag *diag, const char *file, unsigned line, unsigned column,
		const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* "read", "write", "read+write" or "none" for LF_ACCESS_* classes. */
const char *lf_access_name(unsigned access);

/* snprintf that may truncate on purpose (messages for people). */
void lf_text(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif /* LF_CORE_MODEL_H */
