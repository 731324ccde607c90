/* SPDX-License-Identifier: MIT */
/*
 * Shell command-line analysis (SPEC §1, bash requests). Internal to the
 * core; pure: no I/O, no global state. doc/shell.md describes the grammar
 * covered, the table of programs and what makes a line "ask at best".
 *
 * The line is lexed and parsed into a syntax tree as bash would read it
 * (shell_lex.c, shell_parse.c), and the analysis (shell_analyse.c) walks
 * the tree and reports every *part* the line would run or open, through
 * a callback: simple commands (also the command inside a wrapper, a `sh
 * -c` payload or a substitution), redirection targets, files a program
 * names in its options and operands (the table of programs,
 * shell_table.c), and pieces it cannot analyse. A part that carries a
 * reason is at best ask. Reporting more parts than a shell would run only
 * makes a verdict stricter; the analysis leans that way whenever it is
 * unsure.
 */
#ifndef LF_CORE_SHELL_H
#define LF_CORE_SHELL_H

#include <stdbool.h>
#include <stddef.h>

#include "core/model.h"

/* Word flags: what the shell would still do to the word at run time. */
#define LF_WORD_QUOTED 0x01u	/* some part of it was quoted */
#define LF_WORD_EXPANSION 0x02u /* $NAME, ${…}, $((…)), $[…] or $"…" */
#define LF_WORD_SUBST 0x04u	/* $(…), `…`, <(…) or >(…) */
#define LF_WORD_GLOB 0x08u	/* unquoted * ? [ or brace expansion */
#define LF_WORD_TILDE 0x10u	/* unquoted leading ~ */
#define LF_WORD_BRACE 0x20u	/* unquoted {a,b} or {1..3} (the parser expands it) */
#define LF_WORD_NOT_LITERAL (LF_WORD_EXPANSION | LF_WORD_SUBST | LF_WORD_GLOB | LF_WORD_TILDE)

/* One word after quote removal. text is NUL terminated; expansions are
 * kept as written ("$HOME"). */
struct lf_shell_word {
	const char *text;
	size_t len;
	unsigned flags;
};

enum lf_shell_part_kind {
	LF_PART_COMMAND = 0,  /* a simple command: argv */
	LF_PART_REDIRECT = 1, /* a file the shell opens: target, cap */
	LF_PART_OPAQUE = 2,   /* something that cannot be analysed: text */
	LF_PART_FILE = 3,     /* a file a command names in an option or operand */
	LF_PART_CWD = 4,      /* the parts up to the matching pop run in target after a cd
			       * that must have succeeded (cd DIR && …): push, or pop */
};

struct lf_shell_part {
	enum lf_shell_part_kind kind;
	/* LF_PART_COMMAND: the words, leading assignments removed. */
	const struct lf_shell_word *argv;
	size_t argc;
	bool open_args; /* more arguments arrive at run time (xargs) */
	bool wrapped;	/* found inside a wrapper, payload or substitution */
	/* LF_PART_REDIRECT, LF_PART_FILE: the target and what is done to it
	 * (LF_CAP_READ, LF_CAP_WRITE; for a file also LF_CAP_DELETE). */
	const struct lf_shell_word *target;
	enum lf_capability cap;
	const char *op; /* LF_PART_REDIRECT: ">", ">>", "<", … as written */
	/* LF_PART_FILE: argv and argc are the command naming the file. sure:
	 * the program's table entry says it opens the word as a file (else
	 * the word is an operand that may be one); tree: the program writes
	 * files of its own choosing at or below target (a directory). */
	bool sure;
	bool tree;
	/* LF_PART_FILE: link: the write makes a link (or a tree that may hold
	 * links) through which later paths of the line may lead elsewhere;
	 * code: the program runs the file as code (a script, source) */
	bool link;
	bool code;
	/* LF_PART_FILE: conf: a file (tree: a directory) of the program's own
	 * configuration or build description, read from its directory and
	 * obeyed (Makefile, package.json, .git/): not a file request; it
	 * makes the part at best ask when the line itself wrote it */
	bool conf;
	/* LF_PART_COMMAND: a cd whose directory the LF_PART_CWD push after it
	 * carries; LF_PART_CWD: push (target set) or pop */
	bool cd_scoped;
	bool push;
	/* LF_PART_OPAQUE: what could not be analysed, as written. */
	const char *text;
	size_t text_len;
	/* Why this part is at best ask (a static string), or NULL. */
	const char *reason;
	/* the reason is about a word the shell expands: a deny or ask rule
	 * such a word could match names the verdict better */
	bool reason_weak;
};

/* Receives each part in line order. The part and everything it points to
 * live only during the call. Return 0 to continue, > 0 to stop the
 * analysis early (lf_shell_analyse then returns that value), < 0 for an
 * error (returned as is). */
typedef int (*lf_shell_emit_fn)(void *ctx, const struct lf_shell_part *part);

/* How deep `sh -c` payloads, wrappers and substitutions are followed;
 * deeper is reported as an opaque part. */
#define LF_SHELL_MAX_DEPTH 8

/* What the analysis may know of the shell's environment. */
struct lf_shell_opts {
	const char *home; /* $HOME for ~ and ~/…, or NULL: such words stay unknown */
};

/* Analyses line[0..len). Returns 0 when every part was reported, the
 * callback's positive or negative value when it stopped, or -ENOMEM. */
int lf_shell_analyse(const char *line, size_t len, lf_shell_emit_fn emit, void *ctx);

/* lf_shell_analyse with options (opts may be NULL). */
int lf_shell_analyse_opts(const char *line, size_t len, const struct lf_shell_opts *opts,
			  lf_shell_emit_fn emit, void *ctx);

/* Formats a part for people and for lf_verdict.part: a command as its
 * words joined by single spaces, a redirection as "OP TARGET", an opaque
 * part as written. Truncates with "…" to fit; always NUL terminates when
 * size > 0. */
void lf_shell_part_format(const struct lf_shell_part *part, char *buf, size_t size);

/* A simple command as the matchers see it: the words, with argv[0]
 * possibly replaced by prog (its basename), and the words joined by single
 * spaces for glob matchers. */
struct lf_cmd_view {
	const struct lf_shell_word *argv;
	size_t argc;
	const char *prog; /* the program token to compare: argv[0] or its basename */
	const char *text; /* prog and argv[1..] joined by single spaces */
	size_t len;
	bool open_args; /* more arguments arrive at run time (xargs) */
};

/* Whether the command rule c matches v. With open_args, a deny or ask rule
 * matches when it could match some completion of the command, an allow
 * rule only when it matches every completion. */
bool lf_cmd_rule_match(const struct lf_cmd_rule *c, const struct lf_cmd_view *v);

/* Shell-style glob over text (SPEC §1 glob command matchers): '*' any run
 * of characters including ' ' and '/', '?' one character, "[…]" / "[!…]"
 * a class, '\' quotes the next character, a run of blanks matches one
 * space. prefix_ok: also true when text is a prefix of some string the
 * pattern matches. */
bool lf_cmd_glob_match(const char *pattern, const char *text, size_t len, bool prefix_ok);

/* lf_decide_bash with the shell's working directory given: cwd is absolute
 * (relative redirection targets are resolved against it, lexically), or
 * NULL for the project root. The hook passes the payload's cwd. */
int lf_bash_decide(const struct lf_effective *e, const char *project_root, const char *cwd,
		   const char *line, struct lf_verdict *out);

/* A file word of a command line (an argument or a redirection target, as
 * written) and the absolute canonical path it names: the caller resolves
 * symlinks (the core does no I/O), the core judges both, the stricter
 * wins. Relative words are resolved against the starting cwd. */
struct lf_path_alias {
	const char *word;
	const char *canon;
};

/* lf_bash_decide, also judging every word in aliases[0..n) by its
 * canonical path. */
int lf_bash_decide_aliased(const struct lf_effective *e, const char *project_root, const char *cwd,
			   const char *line, const struct lf_path_alias *aliases, size_t n,
			   struct lf_verdict *out);

/* Judges a file request beyond the policy: the CLI asks the kernel's
 * final rules (the core cannot). path is absolute and lexically clean;
 * cap is LF_CAP_READ, LF_CAP_WRITE or LF_CAP_DELETE. Sets *v when the
 * answer is stricter than v->effect (as a whole verdict with its reason),
 * leaves it otherwise. Returns 0 or a negative errno. */
typedef int (*lf_bash_file_check_fn)(void *ctx, enum lf_capability cap, const char *path,
				     struct lf_verdict *v);

/* Everything the caller knows beyond the policy and the line. */
struct lf_bash_env {
	const char *home; /* $HOME, for ~ (NULL: ~ stays unknown) */
	const struct lf_path_alias *aliases;
	size_t naliases;
	/* called for every file the line surely opens (redirection targets and
	 * files the table of programs names), in every directory the line may
	 * be in; NULL for none */
	lf_bash_file_check_fn file_check;
	void *file_ctx;
};

/* lf_bash_decide with env (may be NULL). */
int lf_bash_decide_env(const struct lf_effective *e, const char *project_root, const char *cwd,
		       const char *line, const struct lf_bash_env *env, struct lf_verdict *out);

/* The verdict of the command rules alone for one simple command (argv as
 * the program receives it; argv[0] matched as written and by basename):
 * no wrapper is looked through and no file is judged. The differential
 * test uses it to judge each command bash really ran. */
int lf_bash_command_verdict(const struct lf_effective *e, const char *const *argv, size_t argc,
			    struct lf_verdict *out);

#endif /* LF_CORE_SHELL_H */
