/* SPDX-License-Identifier: MIT */
/*
 * The table of programs (shell_table.c): for a simple command's words,
 * what the program does beyond being run — the files its options and
 * operands name (read, written, deleted), the commands and shell strings
 * it runs, the code in other languages it evaluates, the environment it
 * is given. The analysis (shell_analyse.c) turns these effects into
 * parts. Internal to the core; pure.
 */
#ifndef LF_CORE_SHELL_TABLE_H
#define LF_CORE_SHELL_TABLE_H

#include "core/shell_nodes.h"

enum sh_eff_kind {
	SH_EF_FILE,   /* a file: cap, word, sure, tree */
	SH_EF_CMD,    /* argv[from..to) (or words[0..nwords) when set) is a command
		       * the program runs */
	SH_EF_LINE,   /* word is a shell command string the program runs */
	SH_EF_JOINED, /* argv[from..to) joined by spaces is run as a shell line */
	SH_EF_REASON, /* the command is at best ask: reason */
	SH_EF_ARGV,   /* words[0..nwords) is the same command as another rule sees it
		       * (git -C x push is also judged as git push) */
};

struct sh_eff {
	enum sh_eff_kind kind;
	enum lf_capability cap;
	const struct lf_shell_word *word;
	bool sure, tree;
	bool link;	     /* SH_EF_FILE: the write makes a link (ln, cp -s, an extracted tree) */
	bool code;	     /* SH_EF_FILE: the file is run as code (a script, source) */
	bool conf;	     /* SH_EF_FILE: a configuration the program reads from its
			      * directory and obeys (code): only the line's writes count */
	size_t from, to;     /* SH_EF_CMD, SH_EF_JOINED */
	bool open;	     /* SH_EF_CMD: more arguments arrive at run time */
	unsigned parse_opts; /* SH_EF_LINE, SH_EF_JOINED: SH_PARSE_* */
	const char *reason;  /* SH_EF_REASON; for LINE and JOINED: why a word is unknown */
	bool weak;	     /* SH_EF_REASON: about a word the shell expands (the
				 * rule such a word could match names a verdict better) */
	const struct lf_shell_word *base;  /* FILE, CMD: relative paths are in this directory */
	const struct lf_shell_word *words; /* SH_EF_ARGV; SH_EF_CMD when set */
	size_t nwords;
};

struct sh_effs {
	struct sh_eff *v;
	size_t n, cap;
	bool nomem;
};

/* The effects of running argv[0..argc) (argv[0] literal), appended to
 * out. Programs the table does not know: each literal operand may be a
 * file it reads. Returns 0 or -ENOMEM. */
int sh_table_effects(struct sh_arena *a, const struct lf_shell_word *argv, size_t argc,
		     struct sh_effs *out);

/* Why an assignment to name[0..n) in a command's environment (NAME=v
 * cmd, env NAME=v cmd, export NAME=v) is at best ask, or NULL when the
 * variable is on the list of harmless ones. */
const char *sh_env_reason(const char *name, size_t n);

/* Why setting the shell variable name[0..n) changes what later commands
 * of the line run (PATH, IFS, LD_*, …), or NULL. */
const char *sh_var_reason(const char *name, size_t n);

/* The same for a plain NAME=VALUE statement: also an upper-case name not
 * on the harmless list (it may already be exported to later programs). */
const char *sh_assign_reason(const char *name, size_t n);

/* Whether s[0..n) is arithmetic made only of numbers written in it
 * (digits, 0x1f, 16#ff) and operators: evaluating it reads no variable,
 * so it cannot run code through an array subscript. */
bool sh_arith_literal(const char *s, size_t n);

/* Whether the tables of programs, git subcommands and subcommands are sorted (they
 * are searched by bisection). */
bool sh_table_sorted(void);

/* The basename of a program word. */
const char *sh_base_name(const char *p);

#endif /* LF_CORE_SHELL_TABLE_H */
