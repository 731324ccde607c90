/* SPDX-License-Identifier: MIT */
/*
 * The state the lexer (shell_lex.c) and the parser (shell_parse.c) share.
 * Private to those two files.
 */
#ifndef LF_CORE_SHELL_LEX_H
#define LF_CORE_SHELL_LEX_H

#include "core/shell_nodes.h"

enum sh_tok_kind {
	SH_T_EOF,
	SH_T_NEWLINE,
	SH_T_WORD,
	SH_T_OP,
	SH_T_REDIR,
};

enum sh_op {
	SH_O_SEMI,	/* ; */
	SH_O_AND_AND,	/* && */
	SH_O_OR_OR,	/* || */
	SH_O_PIPE,	/* | */
	SH_O_PIPE_AND,	/* |& */
	SH_O_AMP,	/* & */
	SH_O_LPAREN,	/* ( */
	SH_O_RPAREN,	/* ) */
	SH_O_DSEMI,	/* ;; */
	SH_O_SEMI_AMP,	/* ;& */
	SH_O_DSEMI_AMP, /* ;;& */
	SH_O_LESS,	/* < inside [[ ]] */
	SH_O_GREATER,	/* > inside [[ ]] */
};

/* What the next token may be: the lexer reads a few things differently
 * depending on where the parser is. */
#define SH_LX_CMD 0x01u	      /* command position: NAME[…]= and NAME=( … ) */
#define SH_LX_DECL 0x02u      /* argument of declare & co: NAME=( … ) */
#define SH_LX_COND 0x04u      /* inside [[ ]]: < > are operators, extended globs */
#define SH_LX_REGEX 0x08u     /* the right side of =~ */
#define SH_LX_NOHEREDOC 0x10u /* do not read pending here-documents at a newline */

struct sh_tok {
	enum sh_tok_kind kind;
	int op;		   /* enum sh_op or enum sh_redir_op */
	int fd;		   /* SH_T_REDIR: N before the operator, or -1 */
	const char *fdvar; /* SH_T_REDIR: {name} before the operator */
	struct sh_word *word;
	size_t start, end;
};

struct sh_parser {
	struct sh_arena *a;
	const char *s;
	size_t len, i;
	unsigned depth; /* nesting, bounded by SH_MAX_DEPTH */
	unsigned opts;	/* SH_PARSE_* */
	/* here-documents whose bodies start after the next newline */
	struct sh_redir *pending[SH_MAX_PENDING_HD];
	size_t npending;
	/* the lookahead token and the mode it was read in */
	bool have;
	struct sh_tok tok;
	unsigned tok_mode;
	const char *tok_err; /* the error state before it was read */
	size_t tok_err_at;
	const char *error; /* first syntax error (a static string) */
	size_t error_at;
	const char *bashism;
	bool nomem;
};

/* Records the first error; returns -1 so callers can `return sh_fail()`. */
int sh_fail(struct sh_parser *p, const char *what);

/* Reads the next token in mode (SH_LX_*). Returns 0, or -1 on a syntax
 * error or out of memory (p->error / p->nomem say which). */
int sh_lex_token(struct sh_parser *p, unsigned mode, struct sh_tok *t);

/* Reads the bodies of the pending here-documents; p->i is just after a
 * newline. */
int sh_read_heredocs(struct sh_parser *p);

/* Parses commands up to the ')' that closes a $( … ) or <( … ), which is
 * consumed. Used by the lexer for substitutions. */
int sh_parse_subst(struct sh_parser *p, struct sh_node **out);

/* Parses a whole other text (a backquote body) at depth + 1. */
int sh_parse_nested(struct sh_parser *p, const char *s, size_t len, struct sh_node **out);

/* Whether name[0..n) is a shell identifier. */
bool sh_is_name(const char *name, size_t n);

/* Adds an expansion to a word. */
void sh_word_add_exp(struct sh_word *w, struct sh_exp *e);

#endif /* LF_CORE_SHELL_LEX_H */
