/* SPDX-License-Identifier: MIT */
/*
 * The syntax tree of a bash command line, as the lexer (shell_lex.c) and
 * the parser (shell_parse.c) build it and the analysis (shell_analyse.c)
 * walks it. Internal to the core; pure. doc/shell.md lists the grammar.
 *
 * Everything lives in one arena for the whole analysis: nodes, words and
 * the text they point to are freed at once.
 */
#ifndef LF_CORE_SHELL_NODES_H
#define LF_CORE_SHELL_NODES_H

#include <stdbool.h>
#include <stddef.h>

#include "core/shell.h"

/* ------------------------------------------------------------------------
 * Memory.
 */
struct sh_block {
	struct sh_block *next;
	size_t cap;
	_Alignas(16) char data[];
};

struct sh_arena {
	char *cur;
	size_t cap, used;
	struct sh_block *blocks;
	_Alignas(16) char first[4096];
};

void sh_arena_init(struct sh_arena *a);
void sh_arena_fini(struct sh_arena *a);
/* size bytes, 16-byte aligned, zeroed; NULL when out of memory. */
void *sh_alloc(struct sh_arena *a, size_t size);
/* A NUL-terminated copy of s[0..n). */
char *sh_strndup(struct sh_arena *a, const char *s, size_t n);

/* ------------------------------------------------------------------------
 * Words.
 */
struct sh_word;
struct sh_node;

/* Expansions found inside a word, in the order written. */
enum sh_exp_kind {
	SH_EXP_PARAM,	/* $x, ${…} */
	SH_EXP_CMDSUB,	/* $( … ) */
	SH_EXP_BQUOTE,	/* ` … ` */
	SH_EXP_PROCSUB, /* <( … ), >( … ) */
	SH_EXP_ARITH,	/* $(( … )), $[ … ] */
	SH_EXP_LOCALE,	/* $" … " */
};

/* What ${…} does with its parameter. */
enum sh_param_op {
	SH_POP_NONE,
	SH_POP_DEFAULT,	  /* - :- = := ? :? + :+ */
	SH_POP_TRIM,	  /* # ## % %% */
	SH_POP_REPLACE,	  /* / // /# /% */
	SH_POP_CASE,	  /* ^ ^^ , ,, ~ ~~ */
	SH_POP_SUBSTR,	  /* :offset[:length] */
	SH_POP_TRANSFORM, /* @X */
	SH_POP_BAD,	  /* an operator bash rejects when it expands it */
};

#define SH_PARAM_BRACED 0x01u	/* ${…}, not $x */
#define SH_PARAM_LENGTH 0x02u	/* ${#x} */
#define SH_PARAM_INDIRECT 0x04u /* ${!x} */
#define SH_PARAM_NAMES 0x08u	/* ${!prefix*}, ${!prefix@}, ${!a[@]} */
#define SH_PARAM_SPECIAL 0x10u	/* $@ $* $# $? $- $$ $! $0 and $1… */
#define SH_PARAM_ASSIGN 0x20u	/* ${x=word}, ${x:=word}: sets x */

struct sh_param {
	const char *name; /* NUL terminated */
	unsigned flags;
	struct sh_word *index; /* the subscript of a[…], or NULL */
	enum sh_param_op op;
	char transform;	      /* the X of ${x@X} */
	struct sh_word *arg;  /* the word after the operator, or the offset */
	struct sh_word *arg2; /* the replacement, or the length */
};

struct sh_exp {
	enum sh_exp_kind kind;
	struct sh_exp *next;
	struct sh_param param; /* SH_EXP_PARAM */
	struct sh_node *body;  /* CMDSUB, BQUOTE, PROCSUB: the commands */
	bool out;	       /* PROCSUB: >( … ) */
	struct sh_word *expr;  /* ARITH: the expression, lexed as a word */
};

struct sh_word {
	const char *raw; /* as written (points into its source) */
	size_t rawlen;
	char *text; /* after quote removal; expansions kept as written */
	size_t len;
	unsigned flags; /* LF_WORD_* */
	struct sh_exp *exps, **exps_tail;
	/* NAME=( … ): the elements of the compound assignment */
	bool compound;
	struct sh_word **elems;
	size_t nelems;
};

/* ------------------------------------------------------------------------
 * Redirections.
 */
enum sh_redir_op {
	SH_R_IN,	    /* < */
	SH_R_OUT,	    /* > */
	SH_R_APPEND,	    /* >> */
	SH_R_CLOBBER,	    /* >| */
	SH_R_RW,	    /* <> */
	SH_R_HEREDOC,	    /* << */
	SH_R_HEREDOC_STRIP, /* <<- */
	SH_R_HERESTRING,    /* <<< */
	SH_R_DUP_IN,	    /* <& */
	SH_R_DUP_OUT,	    /* >& */
	SH_R_ALL_OUT,	    /* &> */
	SH_R_ALL_APPEND,    /* &>> */
};

extern const char *const sh_redir_text[];

struct sh_redir {
	struct sh_redir *next;
	enum sh_redir_op op;
	int fd;			/* the number written before it, or -1 */
	const char *fdvar;	/* {name} written before it, or NULL */
	struct sh_word *target; /* the file, fd or delimiter word */
	/* here-documents */
	struct sh_word *body; /* the body (its expansions when unquoted) */
	bool quoted;	      /* the delimiter was quoted: the body is data */
	bool unterminated;    /* no delimiter line before the end */
};

/* ------------------------------------------------------------------------
 * Commands.
 */
enum sh_node_kind {
	SH_SIMPLE,
	SH_PIPE,  /* a | b, a |& b */
	SH_AND,	  /* a && b */
	SH_OR,	  /* a || b */
	SH_SEQ,	  /* a ; b, a \n b */
	SH_ASYNC, /* a & */
	SH_NOT,	  /* ! a */
	SH_TIME,  /* time [-p] a */
	SH_SUBSHELL,
	SH_GROUP,
	SH_IF,
	SH_WHILE,
	SH_UNTIL,
	SH_FOR,
	SH_SELECT,
	SH_ARITH_FOR,
	SH_CASE,
	SH_COND,      /* [[ … ]] */
	SH_ARITH_CMD, /* (( … )) */
	SH_FUNCDEF,
	SH_COPROC,
};

/* NAME=value, NAME+=value, NAME[i]=value, NAME=( … ) */
struct sh_assign {
	struct sh_assign *next;
	const char *name;
	struct sh_word *index; /* NAME[index]=, or NULL */
	bool append;
	struct sh_word *value; /* the value, or NULL for an array */
	/* NAME=( … ): its elements; "[k]=v" elements keep their key */
	struct sh_word **elems;
	size_t nelems;
	bool array;
	struct sh_word *word; /* the whole word as written */
};

/* A [[ … ]] expression: a flat list of terms in order. */
enum sh_cond_kind {
	SH_CT_WORD,   /* an operand */
	SH_CT_UNARY,  /* -f -v -n … (the operator) */
	SH_CT_BINARY, /* == != =~ < > -eq -nt … (the operator) */
	SH_CT_OTHER,  /* ! ( ) && || */
};

struct sh_cond_term {
	enum sh_cond_kind kind;
	struct sh_word *word;
};

struct sh_case_item {
	struct sh_word **patterns;
	size_t npatterns;
	struct sh_node *body; /* may be NULL */
};

struct sh_node {
	enum sh_node_kind kind;
	struct sh_redir *redirs; /* simple and compound commands */
	size_t start;		 /* where it was written, in its source */
	union {
		struct {
			struct sh_assign *assigns;
			struct sh_word **words;
			size_t nwords;
		} simple;
		struct {
			struct sh_node *left, *right; /* PIPE AND OR SEQ */
			bool pipe_err;		      /* |& */
		} bin;
		struct {
			struct sh_node *body; /* NOT TIME ASYNC SUBSHELL GROUP */
			bool posix;	      /* time -p */
		} un;
		struct {
			struct sh_node *cond, *then, *els; /* IF; WHILE UNTIL: cond, then */
		} cond;
		struct {
			const char *name;
			struct sh_word *name_word;
			struct sh_word **words; /* NULL: "$@" */
			size_t nwords;
			bool has_in;
			struct sh_node *body;
		} loop; /* FOR SELECT */
		struct {
			struct sh_word *exprs[3]; /* ARITH_FOR */
			struct sh_node *body;
		} afor;
		struct {
			struct sh_word *word;
			struct sh_case_item *items;
			size_t nitems;
		} kase;
		struct {
			struct sh_cond_term *terms;
			size_t nterms;
		} test; /* COND */
		struct {
			struct sh_word *expr; /* ARITH_CMD */
		} arith;
		struct {
			struct sh_word *name;
			struct sh_node *body;
		} func; /* FUNCDEF; COPROC: name may be NULL */
	} u;
};

/* ------------------------------------------------------------------------
 * Parsing.
 */
#define SH_MAX_DEPTH 64	     /* nesting of the grammar and of substitutions */
#define SH_MAX_PENDING_HD 32 /* here-documents waiting for their newline */

/* Parser options. */
#define SH_PARSE_POSIX 0x01u /* the text is for sh/dash: bash-only syntax is unsure */

struct sh_parse_result {
	struct sh_node *root; /* NULL for an empty line */
	/* The first syntax error, or something this parser does not model
	 * exactly; bash stops at a syntax error, so what follows does not
	 * run, but everything before may have. NULL when none. */
	const char *error;
	size_t error_at;
	/* bash-only syntax met in a POSIX-mode parse (the reason), or NULL */
	const char *bashism;
};

/* Parses s[0..len) into a tree allocated in arena. depth: how deep this
 * parse is nested already (payloads, backquote bodies). Returns 0 or
 * -ENOMEM; syntax errors are reported in res->error. */
int sh_parse(struct sh_arena *arena, const char *s, size_t len, unsigned depth, unsigned opts,
	     struct sh_parse_result *res);

/* Lexes s[0..len) as one word in the normal context (used again on the
 * words brace expansion makes). Returns the word, or NULL on error (out
 * of memory, or not exactly one word). */
struct sh_word *sh_lex_one_word(struct sh_arena *arena, const char *s, size_t len, unsigned depth);

/* The delimiter of a here-document after quote removal (bash's rule),
 * and whether any part of it was quoted. */
char *sh_heredoc_delim(struct sh_arena *arena, const char *raw, size_t len, bool *quoted);

/* ANSI-C decoding of the body of $'…' into o (never longer than n);
 * returns the end. A NUL ends the string, as in bash. */
char *sh_ansi_c_decode(char *o, const char *b, size_t n);

#endif /* LF_CORE_SHELL_NODES_H */
