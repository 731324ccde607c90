/* SPDX-License-Identifier: MIT */
/*
 * A POSIX-shell (and common bash) command-line analyser for bash requests.
 * Pure: no I/O. See shell.h for the contract and doc/shell.md for what is
 * understood.
 *
 * One pass: a lexer turns the line into words (quote removal done,
 * expansions flagged), operators and redirections; a small parser groups
 * words into simple commands and reports each as a part, then looks
 * through wrappers. Substitution bodies and `sh -c` payloads are analysed
 * recursively, so a denied command hidden in them still decides.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/shell.h"

/* ------------------------------------------------------------------------
 * Memory: words live in an arena for the whole analysis, so parts may
 * point into it without copies. A block reserved for a word is at least
 * as long as the rest of the input, which bounds the word.
 */
struct arena_block {
	struct arena_block *next;
	char data[];
};

struct arena {
	char *cur;
	size_t cap, used;
	struct arena_block *blocks;
	char first[2048];
};

static void arena_init(struct arena *a)
{
	a->cur = a->first;
	a->cap = sizeof(a->first);
	a->used = 0;
	a->blocks = NULL;
}

static void arena_fini(struct arena *a)
{
	while (a->blocks) {
		struct arena_block *b = a->blocks;
		a->blocks = b->next;
		free(b);
	}
}

/* Room for need bytes at the arena's end; committed with arena_commit. */
static char *arena_reserve(struct arena *a, size_t need)
{
	if (a->cap - a->used >= need)
		return a->cur + a->used;
	size_t cap = need > 4096 ? need : 4096;
	struct arena_block *b = malloc(sizeof(*b) + cap);
	if (!b)
		return NULL;
	b->next = a->blocks;
	a->blocks = b;
	a->cur = b->data;
	a->cap = cap;
	a->used = 0;
	return a->cur;
}

static void arena_commit(struct arena *a, size_t n)
{
	a->used += n;
}

/* A growable array of words with inline room for common commands. */
struct wordv {
	struct lf_shell_word *v;
	size_t n, cap;
	struct lf_shell_word inl[16];
};

static void wordv_init(struct wordv *w)
{
	w->v = w->inl;
	w->n = 0;
	w->cap = sizeof(w->inl) / sizeof(w->inl[0]);
}

static void wordv_fini(struct wordv *w)
{
	if (w->v != w->inl)
		free(w->v);
	wordv_init(w);
}

static int wordv_push(struct wordv *w, const struct lf_shell_word *word)
{
	if (w->n == w->cap) {
		size_t cap = w->cap ? w->cap * 2 : 16;
		struct lf_shell_word *v;
		if (w->v == w->inl) {
			v = malloc(cap * sizeof(*v));
			if (v)
				memcpy(v, w->inl, w->n * sizeof(*v));
		} else {
			v = realloc(w->v, cap * sizeof(*v));
		}
		if (!v)
			return -ENOMEM;
		w->v = v;
		w->cap = cap;
	}
	w->v[w->n++] = *word;
	return 0;
}

/* ------------------------------------------------------------------------
 * The analysis and its lexer.
 */
struct analysis {
	lf_shell_emit_fn emit;
	void *ctx;
	struct arena arena;
};

enum tok_kind {
	TK_EOF,
	TK_NEWLINE,
	TK_OP,
	TK_REDIR,
	TK_WORD,
};

enum op {
	OP_SEMI,
	OP_AND,
	OP_OR,
	OP_PIPE,
	OP_BG,
	OP_LPAREN,
	OP_RPAREN,
	OP_DSEMI, /* ;; ;& ;;& in case */
};

enum redir {
	R_IN,
	R_OUT,
	R_APPEND,
	R_CLOBBER,
	R_RW,
	R_HEREDOC,
	R_HEREDOC_STRIP,
	R_HERESTRING,
	R_DUP_IN,
	R_DUP_OUT,
	R_ALL_OUT,
	R_ALL_APPEND,
};

static const char *const redir_text[] = {
	[R_IN] = "<",	   [R_OUT] = ">",      [R_APPEND] = ">>",	  [R_CLOBBER] = ">|",
	[R_RW] = "<>",	   [R_HEREDOC] = "<<", [R_HEREDOC_STRIP] = "<<-", [R_HERESTRING] = "<<<",
	[R_DUP_IN] = "<&", [R_DUP_OUT] = ">&", [R_ALL_OUT] = "&>",	  [R_ALL_APPEND] = "&>>",
};

struct token {
	enum tok_kind kind;
	int op; /* enum op or enum redir */
	struct lf_shell_word w;
	const char *reason; /* TK_WORD: why the word is not analysable */
	size_t start, end;  /* where it was written */
};

struct span {
	size_t start, len;
};

struct heredoc {
	const char *delim;
	size_t len;
	bool strip, quoted;
};

#define MAX_HEREDOCS 16

struct lexer {
	struct analysis *an;
	const char *s;
	size_t len, i;
	unsigned depth;
	bool dbracket; /* inside [[ … ]]: && || < > ( ) are words */
	struct token back;
	bool has_back;
	struct heredoc hd[MAX_HEREDOCS];
	size_t nhd;
	bool hd_overflow;
	/* substitution bodies met in the current word, analysed after it */
	struct span *bodies;
	size_t nbodies, capbodies;
	const char *word_reason;
	unsigned word_flags;
};

static const char R_UNTERM_SQ[] = "unterminated single quote";
static const char R_UNTERM_DQ[] = "unterminated double quote";
static const char R_UNTERM_BQ[] = "unterminated backquote";
static const char R_UNTERM_SUBST[] = "unterminated substitution";
static const char R_CMDSUBST[] = "command substitution";
static const char R_BACKQUOTE[] = "command substitution (backquotes)";
static const char R_PROCSUBST[] = "process substitution";
static const char R_ARITH[] = "arithmetic expansion";
static const char R_PARAM_SUBST[] = "command substitution inside a parameter expansion";

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

static bool is_meta(char c)
{
	return is_blank(c) || c == '\n' || c == ';' || c == '&' || c == '|' || c == '(' ||
	       c == ')' || c == '<' || c == '>';
}

static bool is_name_start(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool is_name_char(char c)
{
	return is_name_start(c) || (c >= '0' && c <= '9');
}

static void set_reason(struct lexer *lx, const char *r)
{
	if (!lx->word_reason)
		lx->word_reason = r;
}

static int add_body(struct lexer *lx, size_t start, size_t len)
{
	if (lx->nbodies == lx->capbodies) {
		size_t cap = lx->capbodies ? lx->capbodies * 2 : 4;
		struct span *b = realloc(lx->bodies, cap * sizeof(*b));
		if (!b)
			return -ENOMEM;
		lx->bodies = b;
		lx->capbodies = cap;
	}
	lx->bodies[lx->nbodies].start = start;
	lx->bodies[lx->nbodies].len = len;
	lx->nbodies++;
	return 0;
}

/*
 * Scanners for the end of a quoted or bracketed piece. Each returns the
 * index just after its closing character, or NONE when there is none.
 * nest bounds the recursion through nested substitutions, so a hostile
 * line cannot exhaust the stack; too deep counts as unterminated.
 */
#define NONE SIZE_MAX
#define MAX_NEST 64

static size_t skip_dquote(const char *s, size_t len, size_t i, unsigned nest);
static size_t skip_bquote(const char *s, size_t len, size_t i);

static size_t skip_squote(const char *s, size_t len, size_t i)
{
	const char *q = memchr(s + i + 1, '\'', len - i - 1);
	return q ? (size_t)(q - s) + 1 : NONE;
}

/*
 * Given i just after an opening '(', returns the index after the matching
 * ')', or NONE. Quotes, escapes and nested substitutions are skipped; a
 * comment runs to the end of its line. An unusual body (a case pattern's
 * ')') may end early: the enclosing part is at best ask anyway, so this
 * can only cost precision, never safety.
 */
static size_t paren_end(const char *s, size_t len, size_t i, unsigned nest)
{
	unsigned depth = 1;
	bool word_start = true;

	if (nest > MAX_NEST)
		return NONE;
	while (i < len) {
		char c = s[i];
		size_t e;
		switch (c) {
		case '\\':
			i += 2;
			word_start = false;
			continue;
		case '\'':
		case '"':
		case '`':
			e = c == '\''  ? skip_squote(s, len, i)
			    : c == '"' ? skip_dquote(s, len, i, nest + 1)
				       : skip_bquote(s, len, i);
			if (e == NONE)
				return NONE;
			i = e;
			word_start = false;
			continue;
		case '#':
			if (word_start) {
				while (i < len && s[i] != '\n')
					i++;
				continue;
			}
			break;
		case '(':
			depth++;
			break;
		case ')':
			if (--depth == 0)
				return i + 1;
			break;
		default:
			break;
		}
		word_start = is_meta(c);
		i++;
	}
	return NONE;
}

static size_t skip_dquote(const char *s, size_t len, size_t i, unsigned nest)
{
	for (i++; i < len; i++) {
		if (s[i] == '\\') {
			i++;
		} else if (s[i] == '"') {
			return i + 1;
		} else if (s[i] == '$' && i + 1 < len && s[i + 1] == '(') {
			size_t e = paren_end(s, len, i + 2, nest + 1);
			if (e == NONE)
				return NONE;
			i = e - 1;
		} else if (s[i] == '`') {
			size_t e = skip_bquote(s, len, i);
			if (e == NONE)
				return NONE;
			i = e - 1;
		}
	}
	return NONE;
}

static size_t skip_bquote(const char *s, size_t len, size_t i)
{
	for (i++; i < len; i++) {
		if (s[i] == '\\')
			i++;
		else if (s[i] == '`')
			return i + 1;
	}
	return NONE;
}

/* i just after "${"; returns the index after the matching '}', or NONE.
 * *subst: a command substitution inside. */
static size_t brace_end(const char *s, size_t len, size_t i, bool *subst)
{
	unsigned depth = 1;

	while (i < len) {
		char c = s[i];
		size_t e;
		if (c == '\\') {
			i += 2;
			continue;
		}
		if (c == '\'' || c == '"' || c == '`' ||
		    (c == '$' && i + 1 < len && s[i + 1] == '(')) {
			if (c == '\'')
				e = skip_squote(s, len, i);
			else if (c == '"')
				e = skip_dquote(s, len, i, 1);
			else if (c == '`')
				e = skip_bquote(s, len, i);
			else
				e = paren_end(s, len, i + 2, 1);
			if (e == NONE)
				return NONE;
			if (c != '\'' && (c != '"' || memchr(s + i, '`', e - i) ||
					  memmem(s + i, e - i, "$(", 2)))
				*subst = true;
			i = e;
			continue;
		}
		if (c == '{')
			depth++;
		else if (c == '}' && --depth == 0)
			return i + 1;
		i++;
	}
	return NONE;
}

/* Copies s[from..to) into the word being built. */
static char *copy_raw(char *o, const char *s, size_t from, size_t to)
{
	if (to > from) {
		memcpy(o, s + from, to - from);
		o += to - from;
	}
	return o;
}

static int hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Code point cp as UTF-8 (bash writes \u and \U so in a UTF-8 locale). */
static char *utf8_put(char *o, unsigned long cp)
{
	if (cp < 0x80) {
		*o++ = (char)cp;
	} else if (cp < 0x800) {
		*o++ = (char)(0xc0 | (cp >> 6));
		*o++ = (char)(0x80 | (cp & 0x3f));
	} else if (cp < 0x10000) {
		*o++ = (char)(0xe0 | (cp >> 12));
		*o++ = (char)(0x80 | ((cp >> 6) & 0x3f));
		*o++ = (char)(0x80 | (cp & 0x3f));
	} else {
		*o++ = (char)(0xf0 | ((cp >> 18) & 0x07));
		*o++ = (char)(0x80 | ((cp >> 12) & 0x3f));
		*o++ = (char)(0x80 | ((cp >> 6) & 0x3f));
		*o++ = (char)(0x80 | (cp & 0x3f));
	}
	return o;
}

/*
 * The body of $'…' (between the quotes) decoded into o, as bash does:
 * \a \b \e \E \f \n \r \t \v \\ \' \" \?, \NNN (octal), \xHH, \uHHHH,
 * \UHHHHHHHH, \cX; any other escape stays as written. A NUL ends the
 * string (bash drops the rest). Never longer than the input, so it fits
 * the word's reservation. Returns the new end.
 */
static char *ansi_c_decode(char *o, const char *b, size_t n)
{
	static const char from[] = "abeEfnrtv\\'\"?";
	static const char to[] = "\a\b\033\033\f\n\r\t\v\\'\"?";
	size_t k = 0;

	while (k < n) {
		if (b[k] != '\\' || k + 1 >= n) {
			*o++ = b[k++];
			continue;
		}
		char c = b[k + 1];
		const char *f = c ? strchr(from, c) : NULL;
		unsigned long v = 0;
		size_t d = 0;
		k += 2;
		if (f) {
			*o++ = to[f - from];
			continue;
		}
		if (c >= '0' && c <= '7') {
			v = (unsigned long)(c - '0');
			while (d < 2 && k < n && b[k] >= '0' && b[k] <= '7') {
				v = v * 8 + (unsigned long)(b[k++] - '0');
				d++;
			}
			v &= 0xff;
		} else if (c == 'x' || c == 'u' || c == 'U') {
			size_t max = c == 'x' ? 2 : c == 'u' ? 4 : 8;
			while (d < max && k < n && hex_value(b[k]) >= 0) {
				v = v * 16 + (unsigned long)hex_value(b[k++]);
				d++;
			}
			if (d == 0) {
				*o++ = '\\';
				*o++ = c;
				continue;
			}
			if (c != 'x' && v > 0x10ffff)
				v = 0xfffd;
			/* a code point takes at most as many bytes as its escape */
			if (c != 'x') {
				if (v == 0)
					return o;
				o = utf8_put(o, v);
				continue;
			}
		} else if (c == 'c' && k < n) {
			v = (unsigned long)(b[k++] & 0x1f);
		} else {
			*o++ = '\\';
			*o++ = c;
			continue;
		}
		if (v == 0)
			return o;
		*o++ = (char)v;
	}
	return o;
}

/* A '$' at lx->i (unquoted, or inside double quotes when in_dq). */
static int lex_dollar(struct lexer *lx, char **op, bool in_dq)
{
	const char *s = lx->s;
	size_t len = lx->len, i = lx->i;
	char *o = *op;
	char n = '\0';
	int r;

	if (i + 1 < len)
		n = s[i + 1];
	if (n == '(') {
		/* $(( … )) is arithmetic: it can run commands through the array
		 * subscripts of variables, so it is not analysable either */
		bool arith = i + 2 < len && s[i + 2] == '(';
		size_t e = paren_end(s, len, i + 2, 0);
		lx->word_flags |= LF_WORD_SUBST;
		if (e == NONE) {
			set_reason(lx, R_UNTERM_SUBST);
			e = len;
		} else if (arith) {
			set_reason(lx, R_ARITH);
		} else {
			set_reason(lx, R_CMDSUBST);
			if ((r = add_body(lx, i + 2, e - 1 - (i + 2))) < 0)
				return r;
		}
		o = copy_raw(o, s, i, e);
		lx->i = e;
	} else if (n == '{') {
		bool subst = false;
		size_t e = brace_end(s, len, i + 2, &subst);
		lx->word_flags |= LF_WORD_EXPANSION;
		if (subst) {
			lx->word_flags |= LF_WORD_SUBST;
			set_reason(lx, R_PARAM_SUBST);
		}
		if (e == NONE) {
			lx->word_flags |= LF_WORD_SUBST;
			set_reason(lx, R_UNTERM_SUBST);
			e = len;
		}
		o = copy_raw(o, s, i, e);
		lx->i = e;
	} else if (n == '\'' && !in_dq) {
		/* $'…': ANSI-C quoting, decoded as bash does; the word is
		 * judged by what it becomes */
		size_t e = i + 2;
		while (e < len && s[e] != '\'')
			e += s[e] == '\\' ? 2 : 1;
		lx->word_flags |= LF_WORD_QUOTED;
		if (e >= len) {
			set_reason(lx, R_UNTERM_SQ);
			lx->word_flags |= LF_WORD_EXPANSION;
			o = copy_raw(o, s, i, len);
			e = len;
		} else {
			o = ansi_c_decode(o, s + i + 2, e - (i + 2));
			e++;
		}
		lx->i = e;
	} else if (n == '"' && !in_dq) {
		/* $"…": a translated string; the '"' is lexed next */
		lx->word_flags |= LF_WORD_EXPANSION;
		lx->i = i + 1;
	} else if (is_name_start(n)) {
		size_t e = i + 1;
		while (e < len && is_name_char(s[e]))
			e++;
		lx->word_flags |= LF_WORD_EXPANSION;
		o = copy_raw(o, s, i, e);
		lx->i = e;
	} else if (n && strchr("0123456789@*#?-$!", n)) {
		lx->word_flags |= LF_WORD_EXPANSION;
		o = copy_raw(o, s, i, i + 2);
		lx->i = i + 2;
	} else {
		*o++ = '$';
		lx->i = i + 1;
	}
	*op = o;
	return 0;
}

static int lex_backquote(struct lexer *lx, char **op)
{
	size_t e = skip_bquote(lx->s, lx->len, lx->i);
	int r;

	lx->word_flags |= LF_WORD_SUBST;
	if (e == NONE) {
		set_reason(lx, R_UNTERM_BQ);
		e = lx->len;
	} else {
		set_reason(lx, R_BACKQUOTE);
		if ((r = add_body(lx, lx->i + 1, e - lx->i - 2)) < 0)
			return r;
	}
	*op = copy_raw(*op, lx->s, lx->i, e);
	lx->i = e;
	return 0;
}

/* "<(" or ">(" at lx->i. */
static int lex_procsubst(struct lexer *lx, char **op)
{
	size_t e = paren_end(lx->s, lx->len, lx->i + 2, 0);
	int r;

	lx->word_flags |= LF_WORD_SUBST;
	if (e == NONE) {
		set_reason(lx, R_UNTERM_SUBST);
		e = lx->len;
	} else {
		set_reason(lx, R_PROCSUBST);
		if ((r = add_body(lx, lx->i + 2, e - 1 - (lx->i + 2))) < 0)
			return r;
	}
	*op = copy_raw(*op, lx->s, lx->i, e);
	lx->i = e;
	return 0;
}

/* What an unquoted literal character at lx->i says about its word: a glob
 * character marks it a pattern, a leading '~' a tilde word. A bracket is a
 * pattern only with its ']' ("[" and "[[" are commands), a brace only with
 * a ',' or a ".." after it. */
static void mark_literal(struct lexer *lx, bool first, bool *bracket, bool *brace)
{
	size_t i = lx->i;
	char c = lx->s[i];

	switch (c) {
	case '*':
	case '?':
		lx->word_flags |= LF_WORD_GLOB;
		break;
	case '[':
		*bracket = true;
		break;
	case ']':
		if (*bracket)
			lx->word_flags |= LF_WORD_GLOB;
		break;
	case '{':
		*brace = true;
		break;
	case ',':
		if (*brace)
			lx->word_flags |= LF_WORD_GLOB | LF_WORD_BRACE;
		break;
	case '.':
		if (*brace && i + 1 < lx->len && lx->s[i + 1] == '.')
			lx->word_flags |= LF_WORD_GLOB | LF_WORD_BRACE;
		break;
	case '~':
		if (first)
			lx->word_flags |= LF_WORD_TILDE;
		break;
	default:
		break;
	}
}

static int lex_word(struct lexer *lx, struct token *t)
{
	const char *s = lx->s;
	size_t len = lx->len;
	char *buf = arena_reserve(&lx->an->arena, len - lx->i + 1);
	char *o = buf;
	bool brace = false, bracket = false;
	int r;

	if (!buf)
		return -ENOMEM;
	lx->word_flags = 0;
	lx->word_reason = NULL;
	t->start = lx->i;
	while (lx->i < len) {
		size_t i = lx->i;
		char c = s[i];

		if ((c == '<' || c == '>') && i + 1 < len && s[i + 1] == '(' && !lx->dbracket) {
			if ((r = lex_procsubst(lx, &o)) < 0)
				return r;
			continue;
		}
		if (is_meta(c))
			break;
		switch (c) {
		case '\\':
			if (i + 1 >= len) {
				*o++ = '\\';
				lx->i = i + 1;
			} else if (s[i + 1] == '\n') {
				lx->i = i + 2;
			} else {
				*o++ = s[i + 1];
				lx->word_flags |= LF_WORD_QUOTED;
				lx->i = i + 2;
			}
			break;
		case '\'': {
			size_t e = skip_squote(s, len, i);
			lx->word_flags |= LF_WORD_QUOTED;
			if (e == NONE) {
				set_reason(lx, R_UNTERM_SQ);
				o = copy_raw(o, s, i + 1, len);
				e = len;
			} else {
				o = copy_raw(o, s, i + 1, e - 1);
			}
			lx->i = e;
			break;
		}
		case '"':
			lx->word_flags |= LF_WORD_QUOTED;
			lx->i = i + 1;
			while (lx->i < len && s[lx->i] != '"') {
				char d = s[lx->i];
				if (d == '\\' && lx->i + 1 < len &&
				    strchr("$`\"\\\n", s[lx->i + 1])) {
					if (s[lx->i + 1] != '\n')
						*o++ = s[lx->i + 1];
					lx->i += 2;
				} else if (d == '$') {
					if ((r = lex_dollar(lx, &o, true)) < 0)
						return r;
				} else if (d == '`') {
					if ((r = lex_backquote(lx, &o)) < 0)
						return r;
				} else {
					*o++ = d;
					lx->i++;
				}
			}
			if (lx->i >= len)
				set_reason(lx, R_UNTERM_DQ);
			else
				lx->i++;
			break;
		case '$':
			if ((r = lex_dollar(lx, &o, false)) < 0)
				return r;
			break;
		case '`':
			if ((r = lex_backquote(lx, &o)) < 0)
				return r;
			break;
		default:
			mark_literal(lx, o == buf, &bracket, &brace);
			*o++ = c;
			lx->i++;
			break;
		}
	}
	*o = '\0';
	arena_commit(&lx->an->arena, (size_t)(o - buf) + 1);
	t->kind = TK_WORD;
	t->w.text = buf;
	t->w.len = (size_t)(o - buf);
	t->w.flags = lx->word_flags;
	t->reason = lx->word_reason;
	t->end = lx->i;
	return 0;
}

static bool starts(const struct lexer *lx, const char *p)
{
	size_t n = strlen(p);
	return lx->len - lx->i >= n && !memcmp(lx->s + lx->i, p, n);
}

static void lex_redir(struct lexer *lx, struct token *t)
{
	static const struct {
		const char *text;
		enum redir r;
	} ops[] = {
		{ "&>>", R_ALL_APPEND }, { "&>", R_ALL_OUT },
		{ "<<<", R_HERESTRING }, { "<<-", R_HEREDOC_STRIP },
		{ "<<", R_HEREDOC },	 { "<&", R_DUP_IN },
		{ "<>", R_RW },		 { "<", R_IN },
		{ ">>", R_APPEND },	 { ">|", R_CLOBBER },
		{ ">&", R_DUP_OUT },	 { ">", R_OUT },
	};
	for (size_t k = 0; k < sizeof(ops) / sizeof(ops[0]); k++) {
		if (starts(lx, ops[k].text)) {
			t->kind = TK_REDIR;
			t->op = ops[k].r;
			lx->i += strlen(ops[k].text);
			return;
		}
	}
}

static int lex_next(struct lexer *lx, struct token *t)
{
	const char *s = lx->s;

	if (lx->has_back) {
		*t = lx->back;
		lx->has_back = false;
		return 0;
	}
	memset(t, 0, sizeof(*t));
	for (;;) {
		while (lx->i < lx->len && is_blank(s[lx->i]))
			lx->i++;
		if (lx->i + 1 < lx->len && s[lx->i] == '\\' && s[lx->i + 1] == '\n') {
			lx->i += 2;
			continue;
		}
		if (lx->i < lx->len && s[lx->i] == '#') {
			while (lx->i < lx->len && s[lx->i] != '\n')
				lx->i++;
			continue;
		}
		break;
	}
	t->start = lx->i;
	if (lx->i >= lx->len) {
		t->kind = TK_EOF;
		return 0;
	}
	char c = s[lx->i];
	if (c == '\n') {
		lx->i++;
		t->kind = TK_NEWLINE;
		t->end = lx->i;
		return 0;
	}
	if (lx->dbracket && (starts(lx, "&&") || starts(lx, "||") || c == '<' || c == '>' ||
			     c == '(' || c == ')')) {
		/* inside [[ ]] these are the test's own operators */
		size_t n = (c == '&' || c == '|') ? 2 : 1;
		char *buf = arena_reserve(&lx->an->arena, n + 1);
		if (!buf)
			return -ENOMEM;
		memcpy(buf, s + lx->i, n);
		buf[n] = '\0';
		arena_commit(&lx->an->arena, n + 1);
		lx->i += n;
		t->kind = TK_WORD;
		t->w.text = buf;
		t->w.len = n;
		t->end = lx->i;
		return 0;
	}
	/* an IO number: digits directly before a redirection operator */
	size_t j = lx->i;
	while (j < lx->len && s[j] >= '0' && s[j] <= '9')
		j++;
	if (j > lx->i && j < lx->len && (s[j] == '<' || s[j] == '>') &&
	    !(j + 1 < lx->len && s[j + 1] == '(')) {
		lx->i = j;
		lex_redir(lx, t);
		t->end = lx->i;
		return 0;
	}
	switch (c) {
	case '&':
		if (starts(lx, "&&")) {
			t->op = OP_AND;
			lx->i += 2;
		} else if (starts(lx, "&>")) {
			lex_redir(lx, t);
			t->end = lx->i;
			return 0;
		} else {
			t->op = OP_BG;
			lx->i++;
		}
		break;
	case '|':
		if (starts(lx, "||")) {
			t->op = OP_OR;
			lx->i += 2;
		} else {
			/* "|&" pipes stderr too; for splitting it is a pipe */
			t->op = OP_PIPE;
			lx->i += starts(lx, "|&") ? 2 : 1;
		}
		break;
	case ';':
		if (starts(lx, ";;&")) {
			t->op = OP_DSEMI;
			lx->i += 3;
		} else if (starts(lx, ";;") || starts(lx, ";&")) {
			t->op = OP_DSEMI;
			lx->i += 2;
		} else {
			t->op = OP_SEMI;
			lx->i++;
		}
		break;
	case '(':
		t->op = OP_LPAREN;
		lx->i++;
		break;
	case ')':
		t->op = OP_RPAREN;
		lx->i++;
		break;
	case '<':
	case '>':
		if (lx->i + 1 < lx->len && s[lx->i + 1] == '(')
			return lex_word(lx, t);
		lex_redir(lx, t);
		t->end = lx->i;
		return 0;
	default:
		return lex_word(lx, t);
	}
	t->kind = TK_OP;
	t->end = lx->i;
	return 0;
}

/* ------------------------------------------------------------------------
 * Parts and the parser.
 */
static int parse_list(struct analysis *an, const char *s, size_t len, unsigned depth);

static int emit_opaque(struct analysis *an, const char *text, size_t len, const char *reason)
{
	struct lf_shell_part p = {
		.kind = LF_PART_OPAQUE,
		.text = text,
		.text_len = len,
		.reason = reason,
	};
	return an->emit(an->ctx, &p);
}

static const char *base_name(const char *p)
{
	const char *slash = strrchr(p, '/');
	return slash && slash[1] ? slash + 1 : p;
}

static bool word_is(const struct lf_shell_word *w, const char *lit)
{
	return !(w->flags & LF_WORD_NOT_LITERAL) && !strcmp(w->text, lit);
}

/* NAME=value, NAME+=value or NAME[…]=value as written (unquoted name). */
static bool is_assignment(const char *raw, size_t len)
{
	size_t k = 0;

	if (!len || !is_name_start(raw[0]))
		return false;
	while (k < len && is_name_char(raw[k]))
		k++;
	if (k < len && raw[k] == '[') {
		while (k < len && raw[k] != ']')
			k++;
		if (k < len)
			k++;
	}
	if (k < len && raw[k] == '+')
		k++;
	return k < len && raw[k] == '=';
}

static bool is_fd_word(const struct lf_shell_word *w)
{
	size_t k = 0;

	if (w->flags & LF_WORD_NOT_LITERAL)
		return false;
	while (k < w->len && w->text[k] >= '0' && w->text[k] <= '9')
		k++;
	if (k < w->len && w->text[k] == '-')
		k++;
	return k == w->len && w->len > 0;
}

/* Whether b (a program's basename) is one the analyser treats specially:
 * a wrapper, a shell, eval, trap or let. Most commands are not; this
 * spares them the comparisons below. */
static bool special_name(const char *b)
{
	static const struct {
		const char *name;
		size_t len;
	} names[] = {
		{ "sh", 2 },	  { "env", 3 },	    { "zsh", 3 },     { "ksh", 3 },
		{ "ash", 3 },	  { "git", 3 },	    { "let", 3 },     { "nice", 4 },
		{ "time", 4 },	  { "exec", 4 },    { "sudo", 4 },    { "doas", 4 },
		{ "bash", 4 },	  { "dash", 4 },    { "mksh", 4 },    { "yash", 4 },
		{ "posh", 4 },	  { "find", 4 },    { "eval", 4 },    { "trap", 4 },
		{ "nohup", 5 },	  { "xargs", 5 },   { "rbash", 5 },   { "setsid", 6 },
		{ "stdbuf", 6 },  { "coproc", 6 },  { "toybox", 6 },  { "timeout", 7 },
		{ "builtin", 7 }, { "command", 7 }, { "busybox", 7 },
	};
	size_t n = strlen(b);

	if (n < 2 || n > 7)
		return false;
	for (size_t k = 0; k < sizeof(names) / sizeof(names[0]); k++)
		if (names[k].len == n && names[k].name[0] == b[0] && !memcmp(names[k].name, b, n))
			return true;
	return false;
}

/* Programs that run another command given in their arguments, whose
 * syntax the analyser does not model (the ones it does are unwrapped
 * below, see struct wrapper): a line
 * naming one is not analysable, so that an allow written for it ("flock
 * *", "watch *") cannot carry a denied command (`flock /tmp/l rm -rf x`,
 * `watch 'rm x'`) past the policy (doc/escape.md, "Red team, round 2"). */
static bool runs_command(const char *b)
{
	/* sorted (strcmp order): looked up for every command */
	static const char *const names[] = {
		"at",
		"batch",
		"bwrap",
		"cgexec",
		"chpst",
		"daemonize",
		"dtach",
		"entr",
		"expect",
		"faketime",
		"flatpak-spawn",
		"linux32",
		"linux64",
		"nsjail",
		"numactl",
		"parallel",
		"prlimit",
		"proxychains",
		"proxychains4",
		"rlwrap",
		"screen",
		"sem",
		"setarch",
		"sg",
		"ssh-agent",
		"start-stop-daemon",
		"tmux",
		"torsocks",
	};
	size_t lo = 0, hi = sizeof(names) / sizeof(names[0]);

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strcmp(b, names[mid]);
		if (c == 0)
			return true;
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return false;
}

/* Variables that decide which program or which code a command runs: the
 * search path, the dynamic loader, the shells' start-up files, the
 * interpreters' module paths and options, the programs git, less or sudo
 * start, and where configuration (which can name such programs) is read.
 * `PATH=./bin ls` or `LD_PRELOAD=./x.so ls` would run code of the
 * program's choosing under an allow written for ls (doc/escape.md, "Red
 * team, round 2"). */
static bool code_variable(const char *raw, size_t len)
{
	static const char *const names[] = {
		"PATH",		"BASH_ENV",	   "ENV",	    "IFS",
		"SHELLOPTS",	"BASHOPTS",	   "PS4",	    "PROMPT_COMMAND",
		"GCONV_PATH",	"PYTHONPATH",	   "PYTHONSTARTUP", "PYTHONHOME",
		"NODE_OPTIONS", "NODE_PATH",	   "PERL5OPT",	    "PERL5LIB",
		"PERLLIB",	"RUBYOPT",	   "RUBYLIB",	    "EDITOR",
		"VISUAL",	"PAGER",	   "MANPAGER",	    "LESSOPEN",
		"LESSCLOSE",	"SSH_ASKPASS",	   "SUDO_ASKPASS",  "BROWSER",
		"HOME",		"XDG_CONFIG_HOME", "ZDOTDIR",	    "CDPATH",
	};
	static const char *const prefixes[] = { "LD_", "GIT_", "DYLD_", "BASH_FUNC_" };
	size_t n = 0;

	while (n < len && is_name_char(raw[n]))
		n++;
	for (size_t k = 0; k < sizeof(prefixes) / sizeof(prefixes[0]); k++) {
		size_t pl = strlen(prefixes[k]);
		if (n >= pl && !memcmp(raw, prefixes[k], pl))
			return true;
	}
	for (size_t k = 0; k < sizeof(names) / sizeof(names[0]); k++)
		if (strlen(names[k]) == n && !memcmp(raw, names[k], n))
			return true;
	return false;
}

static const char R_CODE_VAR[] =
	"an assignment to a variable that decides what the command runs (PATH, LD_*, ...)";

/* Builtins that change what later commands of the line run: alias
 * definitions, hash -p (a name bound to another program), enable -f (a
 * builtin loaded from a shared object), export/declare of one of the
 * variables above, and env or sudo setting one. Returns the reason, or
 * NULL. */
static const char *redefining_reason(const char *b, const struct lf_shell_word *argv, size_t argc)
{
	bool decl = !strcmp(b, "export") || !strcmp(b, "declare") || !strcmp(b, "typeset") ||
		    !strcmp(b, "readonly") || !strcmp(b, "local");
	bool wrap = !strcmp(b, "env") || !strcmp(b, "sudo") || !strcmp(b, "doas");

	for (size_t i = 1; i < argc; i++) {
		const char *w = argv[i].text;

		if (!strcmp(b, "alias") && strchr(w, '='))
			return "an alias changes what later commands run";
		if (!strcmp(b, "hash") && w[0] == '-' && strchr(w, 'p'))
			return "hash -p binds a command name to another program";
		if (!strcmp(b, "enable") && w[0] == '-' && strchr(w, 'f'))
			return "enable -f loads a builtin from a shared object";
		if (decl && (argv[i].flags & LF_WORD_NOT_LITERAL))
			return "a declaration that is not a literal word";
		if (decl && code_variable(w, argv[i].len))
			return R_CODE_VAR;
		/* env PATH=./bin ls, sudo LD_PRELOAD=./x.so ls */
		if (wrap && is_assignment(w, argv[i].len) && code_variable(w, argv[i].len))
			return R_CODE_VAR;
	}
	return NULL;
}

/* Why a command is not analysable because of its own words. */
static const char *command_reason(const struct lf_shell_word *argv, size_t argc)
{
	if (argv[0].flags & LF_WORD_NOT_LITERAL)
		return "the command name is not a literal word";
	const char *b = base_name(argv[0].text);
	if (runs_command(b))
		return "it runs another command, which this analyser does not unwrap";
	const char *why = redefining_reason(b, argv, argc);
	if (why)
		return why;
	if (!special_name(b))
		return NULL;
	if (!strcmp(b, "eval"))
		return "eval runs a command built at run time";
	if (!strcmp(b, "trap"))
		return "trap runs a command string later";
	if (!strcmp(b, "let"))
		return "arithmetic evaluation can run commands";
	(void)argc;
	return NULL;
}

static int emit_command(struct analysis *an, const struct lf_shell_word *argv, size_t argc,
			const char *reason, unsigned depth, bool open, bool wrapped);

static int emit_inner(struct analysis *an, const struct lf_shell_word *argv, size_t argc, size_t k,
		      const char *reason, unsigned depth, bool open)
{
	if (k >= argc)
		return 0;
	if (depth > LF_SHELL_MAX_DEPTH)
		return emit_opaque(an, argv[0].text, argv[0].len, "wrappers nested too deeply");
	return emit_command(an, argv + k, argc - k, reason, depth, open, true);
}

static const char R_WRAPPER_OPT[] = "a wrapper option this analyser does not know";

/* One option of a wrapper at argv[i]. short_flag: letters without an
 * argument; short_arg: letters whose option takes one (attached, or the
 * next word); long_arg: NULL-terminated long options that take the next
 * word when written without '='; long_any: other long options are flags.
 * Returns the index after the option, i when argv[i] is not an option
 * (an operand; "--" is consumed), or SIZE_MAX for an unknown option. */
static size_t skip_option(const struct lf_shell_word *argv, size_t argc, size_t i,
			  const char *short_flag, const char *short_arg,
			  const char *const *long_arg, bool long_any)
{
	if (i >= argc)
		return i;
	const char *w = argv[i].text;
	if (argv[i].flags & LF_WORD_NOT_LITERAL)
		return w[0] == '-' ? SIZE_MAX : i;
	if (w[0] != '-' || !w[1])
		return i;
	if (!strcmp(w, "--"))
		return i + 1;
	if (w[1] == '-') {
		if (strchr(w, '='))
			return i + 1;
		for (size_t k = 0; long_arg && long_arg[k]; k++)
			if (!strcmp(w, long_arg[k]))
				return i + 2;
		return long_any ? i + 1 : SIZE_MAX;
	}
	for (size_t k = 1; w[k]; k++) {
		if (strchr(short_arg, w[k]))
			return w[k + 1] ? i + 1 : i + 2;
		if (!strchr(short_flag, w[k]))
			return SIZE_MAX;
	}
	return i + 1;
}

/* Skips every option; returns the first operand's index or SIZE_MAX. */
static size_t skip_options(const struct lf_shell_word *argv, size_t argc, size_t i,
			   const char *short_flag, const char *short_arg,
			   const char *const *long_arg, bool long_any)
{
	while (i < argc) {
		bool dashdash = argv[i].text[0] == '-' && !strcmp(argv[i].text, "--");
		size_t n = skip_option(argv, argc, i, short_flag, short_arg, long_arg, long_any);
		if (n == SIZE_MAX || n == i)
			return n;
		i = n;
		if (dashdash)
			break;
	}
	return i;
}

static bool is_shell(const char *b)
{
	static const char *const shells[] = { "sh",  "bash", "dash", "zsh",   "ksh", "mksh",
					      "ash", "yash", "posh", "rbash", NULL };
	for (size_t k = 0; shells[k]; k++)
		if (!strcmp(b, shells[k]))
			return true;
	return false;
}

static int unwrap_shell(struct analysis *an, const struct lf_shell_word *argv, size_t argc,
			unsigned depth)
{
	size_t i = 1;
	bool c_flag = false, s_flag = false;

	while (i < argc) {
		const char *w = argv[i].text;
		if (argv[i].flags & LF_WORD_NOT_LITERAL)
			return emit_opaque(an, w, argv[i].len,
					   "a shell option is not a literal word");
		if ((w[0] != '-' && w[0] != '+') || !w[1])
			break;
		if (!strcmp(w, "--")) {
			i++;
			break;
		}
		if (w[1] == '-') {
			i += (!strcmp(w, "--rcfile") || !strcmp(w, "--init-file")) ? 2 : 1;
			continue;
		}
		bool takes = false;
		for (size_t k = 1; w[k]; k++) {
			if (w[k] == 'c' && w[0] == '-')
				c_flag = true;
			else if (w[k] == 's')
				s_flag = true;
			else if (w[k] == 'o' || w[k] == 'O')
				takes = true;
		}
		i += takes ? 2 : 1;
	}
	if (c_flag) {
		if (i >= argc)
			return emit_opaque(an, argv[0].text, argv[0].len,
					   "a shell -c without a command string");
		if (argv[i].flags & LF_WORD_NOT_LITERAL)
			return emit_opaque(an, argv[i].text, argv[i].len,
					   "the shell -c command string is not a literal");
		return parse_list(an, argv[i].text, argv[i].len, depth + 1);
	}
	if (i >= argc || s_flag)
		return emit_opaque(an, argv[0].text, argv[0].len,
				   "the shell reads its commands from standard input");
	return 0;
}

static const char *const timeout_long[] = { "--signal", "--kill-after", NULL };
static const char *const nice_long[] = { "--adjustment", NULL };
static const char *const xargs_long[] = { "--arg-file",	 "--delimiter",	       "--max-procs",
					  "--max-lines", "--max-args",	       "--max-chars",
					  "--eof",	 "--process-slot-var", NULL };
static const char *const sudo_long[] = { "--user",	 "--group",	      "--prompt", "--chdir",
					 "--chroot",	 "--close-from",      "--role",	  "--type",
					 "--other-user", "--command-timeout", "--host",	  NULL };
static const char *const env_long[] = { "--unset", "--chdir", "--split-string", NULL };
static const char *const time_long[] = { "--format", "--output", NULL };
static const char *const stdbuf_long[] = { "--input", "--output", "--error", NULL };

/* After the options of a wrapper: skips NAME=value words. */
static size_t skip_assignments(const struct lf_shell_word *argv, size_t argc, size_t i)
{
	while (i < argc && is_assignment(argv[i].text, argv[i].len))
		i++;
	return i;
}

/* ------------------------------------------------------------------------
 * More wrappers: programs that run the command given in their arguments,
 * with their option syntax (doc/shell.md lists them). The wrapper is
 * judged as a command and the wrapped command too.
 */
static const char R_STDIN_SHELL[] = "without a command it runs a shell reading standard input";

struct wrapper {
	const char *name;
	const char *sflag;	 /* short options without an argument */
	const char *sarg;	 /* short options with one */
	const char *const *larg; /* long options taking the next word */
	bool long_any;		 /* other long options are flags */
	unsigned operands;	 /* words before the command (chroot DIR) */
	const char *no_cmd;	 /* short options that mean "no command" */
	const char *none_reason; /* no command: an opaque part, or NULL */
};

static const char *const ionice_long[] = { "--class", "--classdata", "--pid",
					   "--pgid",  "--uid",	     NULL };
static const char *const chrt_long[] = { "--sched-runtime", "--sched-period", "--sched-deadline",
					 NULL };
static const char *const strace_long[] = { "--output",
					   "--trace",
					   "--expr",
					   "--string-limit",
					   "--user",
					   "--env",
					   "--attach",
					   "--trace-path",
					   "--signal",
					   "--status",
					   "--columns",
					   "--absolute-timestamps",
					   "--decode-fds",
					   "--quiet",
					   "--summary-sort-by",
					   NULL };
static const char *const ltrace_long[] = { "--output", "--library", "--indent", "--align", NULL };
static const char *const unshare_long[] = { "--setuid",	    "--setgid",	     "--root",
					    "--wd",	    "--propagation", "--setgroups",
					    "--map-user",   "--map-group",   "--map-users",
					    "--map-groups", "--load-interp", NULL };
static const char *const setpriv_long[] = { "--reuid",
					    "--regid",
					    "--ruid",
					    "--rgid",
					    "--euid",
					    "--egid",
					    "--groups",
					    "--inh-caps",
					    "--ambient-caps",
					    "--bounding-set",
					    "--securebits",
					    "--pdeathsig",
					    "--selinux-label",
					    "--apparmor-profile",
					    "--landlock-access",
					    "--landlock-rule",
					    "--seccomp-filter",
					    NULL };
static const char *const nsenter_long[] = { "--target", "--setuid", "--setgid", "--env", NULL };
static const char *const chroot_long[] = { "--userspec", "--groups", NULL };
static const char *const sdrun_long[] = { "--unit",
					  "--property",
					  "--description",
					  "--slice",
					  "--setenv",
					  "--uid",
					  "--gid",
					  "--nice",
					  "--working-directory",
					  "--service-type",
					  "--on-active",
					  "--on-boot",
					  "--on-startup",
					  "--on-unit-active",
					  "--on-unit-inactive",
					  "--on-calendar",
					  "--path-property",
					  "--socket-property",
					  "--timer-property",
					  "--host",
					  "--machine",
					  "--background",
					  "--json",
					  "--capsule",
					  "--expand-environment",
					  NULL };
static const char *const xvfb_long[] = {
	"--error-file", "--auth-file", "--server-num", "--xauth-protocol", "--server-args",
	"--wait",	NULL
};
static const char *const fakeroot_long[] = { "--lib", "--faked", NULL };
static const char *const proot_long[] = { "--rootfs",  "--bind", "--mount",	     "--qemu",
					  "--cwd",     "--pwd",	 "--kernel-release", "--change-id",
					  "--verbose", NULL };
static const char *const pkexec_long[] = { "--user", NULL };

/* Sorted by name (strcmp order): looked up for every command. */
static const struct wrapper wrappers[] = {
	{ "catchsegv", "", "", NULL, false, 0, "", NULL },
	{ "chroot", "", "", chroot_long, true, 1, "", R_STDIN_SHELL },
	{ "chrt", "abdefiorRvmphV", "TPD", chrt_long, true, 1, "pm", NULL },
	{ "dbus-launch", "", "", NULL, true, 0, "", NULL },
	{ "fakeroot", "uhv", "lisb", fakeroot_long, true, 0, "", R_STDIN_SHELL },
	{ "firejail", "", "", NULL, true, 0, "", R_STDIN_SHELL },
	{ "ionice", "t", "cnpPu", ionice_long, true, 0, "pPu", NULL },
	{ "ltrace", "bcCfhiLrStTV", "aADeEFlnopsuwx", ltrace_long, true, 0, "p", NULL },
	{ "nsenter", "muinpUCTrwaFZehV", "tSG", nsenter_long, true, 0, "", R_STDIN_SHELL },
	{ "pkexec", "", "", pkexec_long, true, 0, "", R_STDIN_SHELL },
	{ "proot", "0RSlVh", "rbqwkimv", proot_long, true, 0, "", R_STDIN_SHELL },
	{ "setpriv", "dhV", "", setpriv_long, true, 0, "", NULL },
	{ "strace", "AcCdDfFhiknqrtTvVwxyYzZ", "abeEIoOpPsSuUX", strace_long, false, 0, "p", NULL },
	{ "systemd-run", "tPGqrdS", "upEHM", sdrun_long, true, 0, "S", NULL },
	{ "taskset", "acp", "", NULL, true, 1, "p", NULL },
	{ "unbuffer", "p", "", NULL, false, 0, "", NULL },
	{ "unshare", "muinpUCTfrcFVh", "SGRw", unshare_long, true, 0, "", R_STDIN_SHELL },
	{ "valgrind", "qvdhs", "", NULL, true, 0, "", NULL },
	{ "xvfb-run", "adlh", "efnpsw", xvfb_long, true, 0, "", NULL },
};

static const struct wrapper *wrapper_find(const char *b)
{
	size_t lo = 0, hi = sizeof(wrappers) / sizeof(wrappers[0]);

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strcmp(b, wrappers[mid].name);
		if (c == 0)
			return &wrappers[mid];
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

/* Whether a short option cluster among argv[from..to) holds a letter of
 * letters (before the first letter that takes an argument). */
static bool saw_short(const struct lf_shell_word *argv, size_t from, size_t to, const char *letters,
		      const char *sarg)
{
	for (size_t i = from; i < to; i++) {
		const char *w = argv[i].text;
		if (w[0] != '-' || w[1] == '-' || !w[1])
			continue;
		for (size_t k = 1; w[k]; k++) {
			if (strchr(letters, w[k]))
				return true;
			if (strchr(sarg, w[k])) {
				i += w[k + 1] ? 0 : 1;
				break;
			}
		}
	}
	return false;
}

static int unwrap_spec(struct analysis *an, const struct wrapper *wr,
		       const struct lf_shell_word *argv, size_t argc, const char *reason,
		       unsigned depth, bool open)
{
	size_t i = skip_options(argv, argc, 1, wr->sflag, wr->sarg, wr->larg, wr->long_any);

	if (i == SIZE_MAX)
		return emit_opaque(an, argv[0].text, argv[0].len, R_WRAPPER_OPT);
	if (wr->no_cmd[0] && saw_short(argv, 1, i, wr->no_cmd, wr->sarg))
		return 0;
	i += wr->operands;
	if (i >= argc)
		return wr->none_reason ? emit_opaque(an, argv[0].text, argv[0].len, wr->none_reason)
				       : 0;
	return emit_inner(an, argv, argc, i, reason, depth, open);
}

/* Words joined by spaces and analysed as a line (a remote or `watch`
 * shell runs them so), when every one is literal. */
static int parse_joined(struct analysis *an, const struct lf_shell_word *argv, size_t from,
			size_t argc, unsigned depth, const char *why)
{
	size_t need = 1;

	for (size_t i = from; i < argc; i++) {
		if (argv[i].flags & LF_WORD_NOT_LITERAL)
			return emit_opaque(an, argv[i].text, argv[i].len, why);
		need += argv[i].len + 1;
	}
	char *buf = arena_reserve(&an->arena, need), *o = buf;
	if (!buf)
		return -ENOMEM;
	for (size_t i = from; i < argc; i++) {
		if (i > from)
			*o++ = ' ';
		memcpy(o, argv[i].text, argv[i].len);
		o += argv[i].len;
	}
	*o = '\0';
	arena_commit(&an->arena, (size_t)(o - buf) + 1);
	return parse_list(an, buf, (size_t)(o - buf), depth + 1);
}

/* A shell command string given to a wrapper (su -c, flock -c, script -c). */
static int parse_payload(struct analysis *an, const struct lf_shell_word *w, unsigned depth)
{
	if (w->flags & LF_WORD_NOT_LITERAL)
		return emit_opaque(an, w->text, w->len, "the command string is not a literal");
	return parse_list(an, w->text, w->len, depth + 1);
}

/*
 * su, runuser and script take their options anywhere (GNU getopt
 * permutes), and run a command string given with -c / --command (su also
 * --session-command) through a shell. runuser -u USER runs its operands
 * as the command instead. Without a command they run an interactive
 * shell; su's arguments after the user go to that shell.
 */
static int unwrap_permuted(struct analysis *an, const char *b, const struct lf_shell_word *argv,
			   size_t argc, const char *reason, unsigned depth, bool open)
{
	bool is_script = !strcmp(b, "script"), is_runuser = !strcmp(b, "runuser");
	const char *sflag = is_script ? "aefqhVt" : "lmpfhVP";
	const char *sarg = is_script ? "BcEIOomT" : "cCgGsuw";
	const struct lf_shell_word *payload = NULL;
	struct lf_shell_word eq_word;
	bool user_opt = false;
	size_t operands[8], nops = 0, rest = SIZE_MAX;

	for (size_t i = 1; i < argc; i++) {
		const char *w = argv[i].text;
		if (argv[i].flags & LF_WORD_NOT_LITERAL) {
			if (w[0] == '-')
				return emit_opaque(an, w, argv[i].len, R_WRAPPER_OPT);
		} else if (!strcmp(w, "--")) {
			rest = i + 1;
			break;
		} else if (w[0] == '-' && w[1] == '-') {
			const char *eq = strchr(w, '=');
			size_t n = eq ? (size_t)(eq - w) : strlen(w);
			bool cmd = (n == 9 && !memcmp(w, "--command", 9)) ||
				   (n == 17 && !memcmp(w, "--session-command", 17));
			bool takes = cmd || (n == 6 && !memcmp(w, "--user", 6)) ||
				     (n == 7 && !memcmp(w, "--shell", 7)) ||
				     (n == 7 && !memcmp(w, "--group", 7)) ||
				     (n == 12 && !memcmp(w, "--supp-group", 12)) ||
				     !strncmp(w, "--log-", 6) ||
				     !strncmp(w, "--output-limit", 14) ||
				     !strncmp(w, "--logging-format", 16) ||
				     !strncmp(w, "--whitelist-environment", 23) ||
				     (n == 6 && !memcmp(w, "--echo", 6));
			if (n == 6 && !memcmp(w, "--user", 6))
				user_opt = true;
			if (takes && !eq) {
				if (i + 1 >= argc)
					return emit_opaque(an, w, strlen(w), R_WRAPPER_OPT);
				if (cmd)
					payload = &argv[i + 1];
				i++;
			} else if (cmd) {
				if (argv[i].flags & LF_WORD_NOT_LITERAL)
					return emit_opaque(an, w, strlen(w),
							   "the command string is not a literal");
				eq_word = (struct lf_shell_word){ .text = eq + 1,
								  .len = strlen(eq + 1) };
				payload = &eq_word;
			}
		} else if (w[0] == '-' && w[1]) {
			for (size_t k = 1; w[k]; k++) {
				if (strchr(sflag, w[k]))
					continue;
				if (!strchr(sarg, w[k]))
					return emit_opaque(an, w, argv[i].len, R_WRAPPER_OPT);
				if (w[k] == 'u' && !is_script)
					user_opt = true;
				if (w[k + 1]) {
					/* the argument is the rest of the cluster */
					if (w[k] == 'c' || w[k] == 'C')
						return emit_opaque(an, w, argv[i].len,
								   R_WRAPPER_OPT);
				} else {
					if (i + 1 >= argc)
						return emit_opaque(an, w, argv[i].len,
								   R_WRAPPER_OPT);
					if (w[k] == 'c' || (w[k] == 'C' && !is_script))
						payload = &argv[i + 1];
					i++;
				}
				break;
			}
		} else if (is_runuser && user_opt) {
			/* runuser -u USER COMMAND…: the first operand starts it */
			rest = i;
			break;
		} else if (w[0] != '-' || w[1]) {
			if (nops < sizeof(operands) / sizeof(operands[0]))
				operands[nops] = i;
			nops++;
		}
	}
	int r = 0;
	if (payload && (r = parse_payload(an, payload, depth)) != 0)
		return r;
	if (is_runuser && user_opt) {
		if (rest < argc)
			return emit_inner(an, argv, argc, rest, reason, depth, open);
		return payload ? 0 : emit_opaque(an, argv[0].text, argv[0].len, R_STDIN_SHELL);
	}
	if (rest < argc)
		return emit_opaque(an, argv[rest].text, argv[rest].len,
				   "arguments given to the user's shell");
	if (is_script)
		return payload ? 0 : emit_opaque(an, argv[0].text, argv[0].len, R_STDIN_SHELL);
	/* su [-] [USER [ARG…]]: arguments after the user go to the shell */
	if (nops > 1)
		return emit_opaque(an, argv[operands[1]].text, argv[operands[1]].len,
				   "arguments given to the user's shell");
	return payload ? 0 : emit_opaque(an, argv[0].text, argv[0].len, R_STDIN_SHELL);
}

/* flock [options] FILE COMMAND… | flock [options] FILE -c STRING | flock FD */
static int unwrap_flock(struct analysis *an, const struct lf_shell_word *argv, size_t argc,
			const char *reason, unsigned depth, bool open)
{
	static const char *const flock_long[] = { "--conflict-exit-code", "--timeout", NULL };
	size_t i = skip_options(argv, argc, 1, "sxeunoFvhV", "Ew", flock_long, true);

	if (i == SIZE_MAX)
		return emit_opaque(an, argv[0].text, argv[0].len, R_WRAPPER_OPT);
	if (i + 1 >= argc)
		return 0; /* a file descriptor, or a lock file alone */
	if (word_is(&argv[i + 1], "-c") || word_is(&argv[i + 1], "--command")) {
		if (i + 2 >= argc)
			return emit_opaque(an, argv[0].text, argv[0].len, R_WRAPPER_OPT);
		return parse_payload(an, &argv[i + 2], depth);
	}
	return emit_inner(an, argv, argc, i + 1, reason, depth, open);
}

/* watch [options] COMMAND…: the words joined and run by sh -c, or with
 * -x / --exec run as they are. */
static int unwrap_watch(struct analysis *an, const struct lf_shell_word *argv, size_t argc,
			const char *reason, unsigned depth, bool open)
{
	static const char *const watch_long[] = { "--interval", "--equexit", NULL };
	size_t i = skip_options(argv, argc, 1, "bcCdeghprtwxv", "nq", watch_long, true);
	bool exec = false;

	if (i == SIZE_MAX)
		return emit_opaque(an, argv[0].text, argv[0].len, R_WRAPPER_OPT);
	for (size_t k = 1; k < i; k++)
		if (word_is(&argv[k], "--exec"))
			exec = true;
	exec = exec || saw_short(argv, 1, i, "x", "nq");
	if (i >= argc)
		return 0;
	if (exec)
		return emit_inner(an, argv, argc, i, reason, depth, open);
	return parse_joined(an, argv, i, argc, depth, "the watched command is not a literal");
}

/* ssh [options] HOST [COMMAND…]: the remote shell runs the words joined
 * by spaces. Options that run local commands (ProxyCommand, LocalCommand,
 * a configuration file) are not followed. */
static int unwrap_ssh(struct analysis *an, const struct lf_shell_word *argv, size_t argc,
		      unsigned depth)
{
	const char *sflag = "46AaCfGgKkMNnqsTtVvXxYy", *sarg = "BbcDEeFIiJLlmOoPpQRSWw";
	size_t i = 1;
	bool host = false, no_cmd = false;

	while (i < argc) {
		const char *w = argv[i].text;
		if (argv[i].flags & LF_WORD_NOT_LITERAL) {
			if (w[0] == '-' || !host)
				return emit_opaque(an, w, argv[i].len, R_WRAPPER_OPT);
			break;
		}
		if (!strcmp(w, "--") && !host) {
			i++;
			continue;
		}
		if (w[0] != '-' || !w[1]) {
			if (host)
				break;
			host = true;
			i++;
			continue;
		}
		size_t next = i + 1;
		for (size_t k = 1; w[k]; k++) {
			if (w[k] == 'N')
				no_cmd = true;
			if (strchr(sflag, w[k]))
				continue;
			if (!strchr(sarg, w[k]))
				return emit_opaque(an, w, argv[i].len, R_WRAPPER_OPT);
			const char *val =
				w[k + 1] ? w + k + 1 : (i + 1 < argc ? argv[i + 1].text : "");
			if (w[k] == 'F' || (w[k] == 'o' && strcasestr(val, "command")) ||
			    (w[k] == 'o' && strcasestr(val, "include")))
				return emit_opaque(an, w, argv[i].len,
						   "an ssh option that runs local commands");
			next = w[k + 1] ? i + 1 : i + 2;
			break;
		}
		i = next;
	}
	if (!host)
		return 0;
	if (i >= argc)
		return no_cmd ? 0
			      : emit_opaque(an, argv[0].text, argv[0].len,
					    "without a command ssh runs a remote shell reading "
					    "standard input");
	return parse_joined(an, argv, i, argc, depth, "the remote command is not a literal");
}

/* gdb --args PROGRAM ARGS…: the program is judged; gdb itself runs
 * commands from -ex, -x or standard input, which are not analysed. */
static int unwrap_gdb(struct analysis *an, const struct lf_shell_word *argv, size_t argc,
		      const char *reason, unsigned depth, bool open)
{
	int r = emit_opaque(an, argv[0].text, argv[0].len,
			    "gdb runs commands from -ex, -x or standard input");
	if (r)
		return r;
	for (size_t i = 1; i < argc; i++)
		if (word_is(&argv[i], "--args"))
			return emit_inner(an, argv, argc, i + 1, reason, depth, open);
	return 0;
}

/* The wrappers above: > 0 handled (the result in *res), 0 not one. */
static int unwrap_more(struct analysis *an, const char *b, const struct lf_shell_word *argv,
		       size_t argc, const char *reason, unsigned depth, bool open, int *res)
{
	const struct wrapper *wr;

	switch (b[0]) {
	case 'f':
		if (!strcmp(b, "flock")) {
			*res = unwrap_flock(an, argv, argc, reason, depth, open);
			return 1;
		}
		break;
	case 'g':
		if (!strcmp(b, "gdb")) {
			*res = unwrap_gdb(an, argv, argc, reason, depth, open);
			return 1;
		}
		break;
	case 'r':
	case 's':
		if (!strcmp(b, "su") || !strcmp(b, "runuser") || !strcmp(b, "script")) {
			*res = unwrap_permuted(an, b, argv, argc, reason, depth, open);
			return 1;
		}
		if (!strcmp(b, "ssh")) {
			*res = unwrap_ssh(an, argv, argc, depth);
			return 1;
		}
		break;
	case 'w':
		if (!strcmp(b, "watch")) {
			*res = unwrap_watch(an, argv, argc, reason, depth, open);
			return 1;
		}
		break;
	default:
		break;
	}
	wr = wrapper_find(b);
	if (!wr)
		return 0;
	*res = unwrap_spec(an, wr, argv, argc, reason, depth, open);
	return 1;
}

/* A `git -c KEY=VALUE` whose key can make git run another command than
 * the one written (`git -c alias.x=push x` is a push) or any program
 * (core.sshCommand, core.pager, a filter, a credential helper, …). */
static bool git_config_runs(const struct lf_shell_word *w)
{
	static const char *const sections[] = {
		"alias.",	"core.",    "credential.", "diff.",	   "difftool.",
		"filter.",	"gpg.",	    "merge.",	   "mergetool.",   "pager.",
		"protocol.",	"remote.",  "sequence.",   "ssh.",	   "uploadpack.",
		"receivepack.", "url.",	    "include.",	   "includeif.",   "sendemail.",
		"http.",	"man.",	    "web.",	   "hook.",	   "submodule.",
		"gc.",		"browser.", "instaweb.",   "interactive.", "pull.",
		"rebase.",	"fetch.",   "push.",	   "tag.",	   "commit.",
		"log.",
	};

	if (w->flags & LF_WORD_NOT_LITERAL)
		return true;
	for (size_t k = 0; k < sizeof(sections) / sizeof(sections[0]); k++)
		if (!strncasecmp(w->text, sections[k], strlen(sections[k])))
			return true;
	return false;
}

/* The special wrappers whose syntax is only their options (timeout: then
 * its duration), unwrapped as the table of more wrappers above is. */
static const struct wrapper plain_wrappers[] = {
	{ "command", "pvV", "", NULL, false, 0, "", NULL },
	{ "exec", "cl", "a", NULL, false, 0, "", NULL },
	{ "setsid", "fwc", "", NULL, true, 0, "", NULL },
	{ "stdbuf", "", "ioe", stdbuf_long, false, 0, "", NULL },
	{ "timeout", "v", "sk", timeout_long, true, 1, "", NULL },
};

/*
 * Looks through a wrapper: reports the wrapped command (and, for the
 * shells, the payload) as further parts. An option the wrapper is not
 * known to take makes an opaque part: the analyser cannot tell where the
 * wrapped command starts.
 */
static int unwrap(struct analysis *an, const struct lf_shell_word *argv, size_t argc,
		  const char *reason, unsigned depth, bool open)
{
	const struct lf_shell_word *w0 = &argv[0];
	size_t i;
	int r;

	if (w0->flags & LF_WORD_NOT_LITERAL)
		return 0;
	const char *b = base_name(w0->text);
	if (!special_name(b)) {
		int res = 0;
		if (depth <= LF_SHELL_MAX_DEPTH + 1 &&
		    unwrap_more(an, b, argv, argc, reason, depth, open, &res))
			return res;
		return 0;
	}

	for (size_t k = 0; k < sizeof(plain_wrappers) / sizeof(plain_wrappers[0]); k++)
		if (!strcmp(b, plain_wrappers[k].name))
			return unwrap_spec(an, &plain_wrappers[k], argv, argc, reason, depth, open);
	if (!strcmp(b, "env")) {
		i = 1;
		while (i < argc) {
			const char *w = argv[i].text;
			if (!strcmp(w, "-")) {
				i++;
				continue;
			}
			if (!strcmp(w, "-S") || !strcmp(w, "--split-string") ||
			    !strncmp(w, "--split-string=", 15) ||
			    (!strncmp(w, "-S", 2) && !(argv[i].flags & LF_WORD_NOT_LITERAL))) {
				/* env -S splits a string into a command: a payload */
				const struct lf_shell_word *p = &argv[i];
				const char *text = w + 2;
				if (w[1] == '-')
					text = strchr(w, '=') ? strchr(w, '=') + 1 : NULL;
				else if (!w[2])
					text = NULL;
				if (!text) {
					if (i + 1 >= argc)
						return emit_opaque(an, w, strlen(w), R_WRAPPER_OPT);
					p = &argv[i + 1];
					text = p->text;
				}
				if (p->flags & LF_WORD_NOT_LITERAL)
					return emit_opaque(an, text, strlen(text),
							   "the env -S string is not a literal");
				return parse_list(an, text, strlen(text), depth + 1);
			}
			bool dashdash = !strcmp(w, "--");
			size_t n = skip_option(argv, argc, i, "i0v", "uC", env_long, false);
			if (n == SIZE_MAX)
				return emit_opaque(an, w, strlen(w), R_WRAPPER_OPT);
			if (n == i)
				break;
			i = n;
			if (dashdash)
				break;
		}
		i = skip_assignments(argv, argc, i);
		return emit_inner(an, argv, argc, i, reason, depth, open);
	}
	if (!strcmp(b, "nice")) {
		i = 1;
		if (i < argc && argv[i].text[0] == '-' && argv[i].text[1] >= '0' &&
		    argv[i].text[1] <= '9')
			i++;
		else
			i = skip_options(argv, argc, 1, "", "n", nice_long, false);
		if (i == SIZE_MAX)
			return emit_opaque(an, w0->text, w0->len, R_WRAPPER_OPT);
		return emit_inner(an, argv, argc, i, reason, depth, open);
	}
	if (!strcmp(b, "nohup") || !strcmp(b, "builtin") || !strcmp(b, "coproc") ||
	    !strcmp(b, "busybox") || !strcmp(b, "toybox")) {
		/* busybox and toybox run their first argument as the applet */
		i = (argc > 1 && !strcmp(argv[1].text, "--")) ? 2 : 1;
		return emit_inner(an, argv, argc, i, reason, depth, open);
	}
	if (!strcmp(b, "time")) {
		i = 1;
		while (i < argc) {
			const char *w = argv[i].text;
			if ((!strcmp(w, "-o") || !strcmp(w, "--output")) && i + 1 < argc) {
				/* GNU time -o FILE writes FILE */
				struct lf_shell_part p = { .kind = LF_PART_REDIRECT,
							   .target = &argv[i + 1],
							   .cap = LF_CAP_WRITE,
							   .op = "time -o" };
				if (argv[i + 1].flags & LF_WORD_NOT_LITERAL)
					p.reason = "the output file is not a literal path";
				if ((r = an->emit(an->ctx, &p)) != 0)
					return r;
			}
			bool dashdash = !strcmp(w, "--");
			size_t n = skip_option(argv, argc, i, "pvaq", "fo", time_long, true);
			if (n == SIZE_MAX)
				return emit_opaque(an, w, strlen(w), R_WRAPPER_OPT);
			if (n == i)
				break;
			i = n;
			if (dashdash)
				break;
		}
		return emit_inner(an, argv, argc, i, reason, depth, open);
	}
	if (!strcmp(b, "xargs")) {
		i = 1;
		while (i < argc) {
			const char *w = argv[i].text;
			/* -i, -l and -e take an optional attached argument only */
			if (!(argv[i].flags & LF_WORD_NOT_LITERAL) &&
			    ((w[0] == '-' && w[1] && strchr("ile", w[1])) ||
			     !strcmp(w, "--replace") || !strcmp(w, "--max-lines"))) {
				i++;
				continue;
			}
			bool dashdash = !strcmp(w, "--");
			size_t n =
				skip_option(argv, argc, i, "0rtpxo", "InLPdEsa", xargs_long, false);
			if (n == SIZE_MAX)
				return emit_opaque(an, w, strlen(w), R_WRAPPER_OPT);
			if (n == i)
				break;
			i = n;
			if (dashdash)
				break;
		}
		/* the wrapped command gets more arguments from standard input */
		return emit_inner(an, argv, argc, i, reason, depth, true);
	}
	if (!strcmp(b, "sudo") || !strcmp(b, "doas")) {
		if (!strcmp(b, "sudo"))
			i = skip_options(argv, argc, 1, "AbEeHiKklnPSsVvh", "CDgpRrTtUu", sudo_long,
					 false);
		else
			i = skip_options(argv, argc, 1, "nsL", "uC", NULL, false);
		if (i == SIZE_MAX)
			return emit_opaque(an, w0->text, w0->len, R_WRAPPER_OPT);
		i = skip_assignments(argv, argc, i);
		return emit_inner(an, argv, argc, i, reason, depth, open);
	}
	if (is_shell(b))
		return unwrap_shell(an, argv, argc, depth);
	if (!strcmp(b, "eval") && argc > 1) {
		/* eval runs its arguments joined by spaces; literal ones can
		 * be read like a sh -c payload (the part stays at best ask) */
		size_t need = 1;
		for (i = 1; i < argc; i++) {
			if (argv[i].flags & LF_WORD_NOT_LITERAL)
				return 0;
			need += argv[i].len + 1;
		}
		char *buf = arena_reserve(&an->arena, need), *o = buf;
		if (!buf)
			return -ENOMEM;
		for (i = 1; i < argc; i++) {
			if (i > 1)
				*o++ = ' ';
			memcpy(o, argv[i].text, argv[i].len);
			o += argv[i].len;
		}
		*o = '\0';
		arena_commit(&an->arena, (size_t)(o - buf) + 1);
		return parse_list(an, buf, (size_t)(o - buf), depth + 1);
	}
	if (!strcmp(b, "find")) {
		/* find … -exec CMD … ; runs CMD for each file */
		for (i = 1; i < argc; i++) {
			if (!word_is(&argv[i], "-exec") && !word_is(&argv[i], "-execdir") &&
			    !word_is(&argv[i], "-ok") && !word_is(&argv[i], "-okdir"))
				continue;
			size_t e = i + 1;
			while (e < argc && !word_is(&argv[e], ";") && !word_is(&argv[e], "+"))
				e++;
			if (e > i + 1 &&
			    (r = emit_inner(an, argv, e, i + 1, reason, depth, false)) != 0)
				return r;
			i = e;
		}
		return 0;
	}
	if (!strcmp(b, "git") && argc > 1 && argv[1].text[0] == '-') {
		/* git's global options come before the subcommand: judge
		 * "git -C dir push" also as "git push" */
		i = 1;
		while (i < argc && argv[i].text[0] == '-') {
			const char *w = argv[i].text;
			if ((!strcmp(w, "-c") || !strcmp(w, "--config-env")) && i + 1 < argc &&
			    git_config_runs(&argv[i + 1]))
				return emit_opaque(an, argv[i + 1].text, argv[i + 1].len,
						   "a git -c setting that runs commands or "
						   "defines aliases");
			if (!strcmp(w, "-C") || !strcmp(w, "-c") || !strcmp(w, "--git-dir") ||
			    !strcmp(w, "--work-tree") || !strcmp(w, "--namespace") ||
			    !strcmp(w, "--config-env") || !strcmp(w, "--super-prefix"))
				i += 2;
			else
				i++;
		}
		if (i >= argc)
			return 0;
		struct wordv v;
		wordv_init(&v);
		r = wordv_push(&v, &argv[0]);
		for (size_t k = i; r == 0 && k < argc; k++)
			r = wordv_push(&v, &argv[k]);
		if (r == 0 && depth > LF_SHELL_MAX_DEPTH)
			r = emit_opaque(an, argv[0].text, argv[0].len,
					"wrappers nested too deeply");
		else if (r == 0)
			r = emit_command(an, v.v, v.n, reason, depth, open, true);
		wordv_fini(&v);
		return r;
	}
	return 0;
}

static int emit_command(struct analysis *an, const struct lf_shell_word *argv, size_t argc,
			const char *reason, unsigned depth, bool open, bool wrapped)
{
	struct lf_shell_part p = {
		.kind = LF_PART_COMMAND,
		.argv = argv,
		.argc = argc,
		.open_args = open,
		.wrapped = wrapped,
		.reason = reason ? reason : command_reason(argv, argc),
	};
	int r = an->emit(an->ctx, &p);
	if (r)
		return r;
	return unwrap(an, argv, argc, reason, depth + 1, open);
}

/* The simple command being collected. */
struct cmd {
	struct wordv words;
	const char *reason;
	size_t start, end; /* where it was written */
	bool any;	   /* it has words, assignments or redirections */
};

enum pstate {
	ST_CMD,
	ST_CASE_WORD, /* case WORD */
	ST_CASE_IN,   /* case WORD in */
	ST_CASE_PAT,  /* a case pattern up to ')' */
	ST_FOR,	      /* for/select header up to ';', newline or do */
	ST_FUNC_NAME, /* function NAME */
};

struct parser {
	struct analysis *an;
	struct lexer lx;
	struct cmd cmd;
	enum pstate st;
	unsigned case_depth;
	unsigned depth;
};

static int flush(struct parser *ps)
{
	struct cmd *c = &ps->cmd;
	int r = 0;

	if (c->words.n)
		r = emit_command(ps->an, c->words.v, c->words.n, c->reason, ps->depth, false,
				 ps->depth > 0);
	else if (c->reason)
		r = emit_opaque(ps->an, ps->lx.s + c->start, c->end - c->start, c->reason);
	c->words.n = 0;
	c->reason = NULL;
	c->any = false;
	ps->lx.dbracket = false;
	return r;
}

static void cmd_touch(struct parser *ps, const struct token *t)
{
	if (!ps->cmd.any) {
		ps->cmd.any = true;
		ps->cmd.start = t->start;
	}
	ps->cmd.end = t->end;
}

/* Analyses the substitution bodies the last word held. */
static int analyse_bodies(struct parser *ps)
{
	int r = 0;

	for (size_t k = 0; k < ps->lx.nbodies && r == 0; k++)
		r = parse_list(ps->an, ps->lx.s + ps->lx.bodies[k].start, ps->lx.bodies[k].len,
			       ps->depth + 1);
	ps->lx.nbodies = 0;
	return r;
}

/* Reads here-document bodies after a newline. */
static int read_heredocs(struct parser *ps)
{
	struct lexer *lx = &ps->lx;
	int r;

	for (size_t k = 0; k < lx->nhd; k++) {
		const struct heredoc *h = &lx->hd[k];
		bool found = false, subst = false;
		size_t body = lx->i;
		while (lx->i < lx->len) {
			size_t b = lx->i;
			const char *nl = memchr(lx->s + b, '\n', lx->len - b);
			size_t e = nl ? (size_t)(nl - lx->s) : lx->len;
			size_t ls = b;
			if (h->strip)
				while (ls < e && lx->s[ls] == '\t')
					ls++;
			lx->i = nl ? e + 1 : e;
			if (e - ls == h->len && !memcmp(lx->s + ls, h->delim, h->len)) {
				found = true;
				break;
			}
			if (!h->quoted &&
			    (memchr(lx->s + b, '`', e - b) || memmem(lx->s + b, e - b, "$(", 2)))
				subst = true;
		}
		if (!found)
			r = emit_opaque(ps->an, h->delim, h->len, "unterminated here-document");
		else if (subst)
			r = emit_opaque(ps->an, lx->s + body, lx->i - body,
					"command substitution in a here-document");
		else
			r = 0;
		if (r)
			return r;
	}
	lx->nhd = 0;
	if (lx->hd_overflow) {
		lx->hd_overflow = false;
		return emit_opaque(ps->an, lx->s, 0, "too many here-documents");
	}
	return 0;
}

static int handle_redir(struct parser *ps, const struct token *t)
{
	struct token w;
	int r;

	cmd_touch(ps, t);
	if ((r = lex_next(&ps->lx, &w)) < 0)
		return r;
	if (w.kind != TK_WORD) {
		ps->cmd.reason = ps->cmd.reason ? ps->cmd.reason : "a redirection without a target";
		ps->lx.back = w;
		ps->lx.has_back = true;
		return 0;
	}
	cmd_touch(ps, &w);
	if ((r = analyse_bodies(ps)) != 0)
		return r;
	enum redir op = (enum redir)t->op;
	struct lf_shell_part p = { .kind = LF_PART_REDIRECT, .target = &w.w, .op = redir_text[op] };
	if (w.w.flags & LF_WORD_NOT_LITERAL)
		p.reason = w.reason ? w.reason : "the redirection target is not a literal path";

	switch (op) {
	case R_HEREDOC:
	case R_HEREDOC_STRIP:
		if (ps->lx.nhd >= MAX_HEREDOCS) {
			ps->lx.hd_overflow = true;
			return 0;
		}
		ps->lx.hd[ps->lx.nhd++] =
			(struct heredoc){ .delim = w.w.text,
					  .len = w.w.len,
					  .strip = op == R_HEREDOC_STRIP,
					  .quoted = (w.w.flags & LF_WORD_QUOTED) != 0 };
		return 0;
	case R_HERESTRING:
		if (w.reason && !ps->cmd.reason)
			ps->cmd.reason = w.reason;
		return 0;
	case R_DUP_IN:
	case R_DUP_OUT:
		if (is_fd_word(&w.w))
			return 0;
		if (w.reason && !ps->cmd.reason)
			ps->cmd.reason = w.reason;
		p.cap = op == R_DUP_IN ? LF_CAP_READ : LF_CAP_WRITE;
		return ps->an->emit(ps->an->ctx, &p);
	case R_IN:
		p.cap = LF_CAP_READ;
		return ps->an->emit(ps->an->ctx, &p);
	case R_RW:
		p.cap = LF_CAP_READ;
		if ((r = ps->an->emit(ps->an->ctx, &p)) != 0)
			return r;
		p.cap = LF_CAP_WRITE;
		return ps->an->emit(ps->an->ctx, &p);
	default:
		p.cap = LF_CAP_WRITE;
		return ps->an->emit(ps->an->ctx, &p);
	}
}

static bool is_reserved_skip(const struct lf_shell_word *w)
{
	static const char *const skip[] = { "!",  "{",	"}",	"if",	 "then",  "else",   "elif",
					    "fi", "do", "done", "while", "until", "coproc", NULL };
	if (w->flags || w->len > 6 || !strchr("!{}itefdwuc", w->text[0]))
		return false;
	for (size_t k = 0; skip[k]; k++)
		if (!strcmp(w->text, skip[k]))
			return true;
	return false;
}

/* ------------------------------------------------------------------------
 * Brace expansion: `git {push,x}` runs `git push x`, `git pu{s,}h` runs
 * `git push puh`. Bounded; beyond the bounds the word is unknown.
 */
#define BRACE_MAX_WORDS 64
#define BRACE_MAX_DEPTH 8

struct braces {
	const char *v[BRACE_MAX_WORDS];
	size_t len[BRACE_MAX_WORDS];
	size_t n;
	bool unsure;
};

/* The index after a quoted or substituted piece at s[i], or i when s[i]
 * starts none; NONE when it is unterminated. */
static size_t brace_skip(const char *s, size_t len, size_t i)
{
	bool subst = false;

	switch (s[i]) {
	case '\\':
		return i + 2 <= len ? i + 2 : len;
	case '\'':
		return skip_squote(s, len, i);
	case '"':
		return skip_dquote(s, len, i, 1);
	case '`':
		return skip_bquote(s, len, i);
	case '$':
		if (i + 1 < len && s[i + 1] == '{')
			return brace_end(s, len, i + 2, &subst);
		if (i + 1 < len && s[i + 1] == '(')
			return paren_end(s, len, i + 2, 1);
		if (i + 1 < len && s[i + 1] == '\'')
			return skip_squote(s, len, i + 1);
		return i + 1;
	default:
		return i;
	}
}

static bool brace_add(struct analysis *an, struct braces *b, const char *parts[3],
		      const size_t lens[3])
{
	size_t n = lens[0] + lens[1] + lens[2];

	if (b->n >= BRACE_MAX_WORDS) {
		b->unsure = true;
		return false;
	}
	char *o = arena_reserve(&an->arena, n + 1);
	if (!o)
		return false;
	for (int k = 0, at = 0; k < 3; at += (int)lens[k], k++)
		memcpy(o + at, parts[k], lens[k]);
	o[n] = '\0';
	arena_commit(&an->arena, n + 1);
	b->v[b->n] = o;
	b->len[b->n++] = n;
	return true;
}

/* An integer for a {X..Y..S} sequence; false when it is not one. */
static bool seq_number(const char *s, size_t len, long *v)
{
	size_t k = 0;
	long x = 0;
	bool neg = false;

	if (k < len && (s[k] == '-' || s[k] == '+'))
		neg = s[k++] == '-';
	if (k == len || len - k > 9)
		return false;
	for (; k < len; k++) {
		if (s[k] < '0' || s[k] > '9')
			return false;
		x = x * 10 + (s[k] - '0');
	}
	*v = neg ? -x : x;
	return true;
}

static int brace_expand(struct analysis *an, const char *s, size_t len, struct braces *b,
			unsigned depth);

/* A sequence {X..Y} or {X..Y..S} in s[open+1 .. close): expands it with
 * prefix s[0..open) and suffix s[close+1..). false: not a sequence. */
static int brace_sequence(struct analysis *an, const char *s, size_t len, size_t open, size_t close,
			  struct braces *b, unsigned depth, bool *done)
{
	const char *in = s + open + 1;
	size_t n = close - open - 1;
	const char *d1 = memmem(in, n, "..", 2);
	long x, y, step = 1;

	*done = false;
	if (!d1)
		return 0;
	const char *ys = d1 + 2;
	const char *d2 = memmem(ys, (size_t)(in + n - ys), "..", 2);
	size_t xl = (size_t)(d1 - in), yl = (size_t)((d2 ? d2 : in + n) - ys);
	if (d2 && !seq_number(d2 + 2, (size_t)(in + n - d2 - 2), &step))
		return 0;
	bool letters = xl == 1 && yl == 1 && !(in[0] >= '0' && in[0] <= '9') &&
		       !(ys[0] >= '0' && ys[0] <= '9') &&
		       ((in[0] | 0x20) >= 'a' && (in[0] | 0x20) <= 'z') &&
		       ((ys[0] | 0x20) >= 'a' && (ys[0] | 0x20) <= 'z');
	if (letters) {
		x = (unsigned char)in[0];
		y = (unsigned char)ys[0];
	} else if (!seq_number(in, xl, &x) || !seq_number(ys, yl, &y)) {
		return 0;
	}
	*done = true;
	if (step < 0)
		step = -step;
	if (step == 0)
		step = 1;
	long count = (x <= y ? y - x : x - y) / step + 1;
	if (count > BRACE_MAX_WORDS) {
		b->unsure = true;
		return 0;
	}
	/* zero padding when either end is written with a leading zero */
	size_t width = 0;
	if (!letters && ((xl > 1 && (in[0] == '0' || (in[0] == '-' && in[1] == '0'))) ||
			 (yl > 1 && (ys[0] == '0' || (ys[0] == '-' && ys[1] == '0')))))
		width = xl > yl ? xl : yl;
	for (long k = 0, v = x; k < count; k++, v += x <= y ? step : -step) {
		char num[32], tmp[32];
		size_t nl = 0, tl = 0;
		if (letters) {
			num[nl++] = (char)v;
		} else {
			unsigned long a = v < 0 ? (unsigned long)-v : (unsigned long)v;
			do {
				tmp[tl++] = (char)('0' + a % 10);
				a /= 10;
			} while (a);
			if (v < 0)
				num[nl++] = '-';
			while (nl + tl < width && nl + tl < sizeof(num) - 1)
				num[nl++] = '0';
			while (tl)
				num[nl++] = tmp[--tl];
		}
		const char *parts[3] = { s, num, s + close + 1 };
		size_t lens[3] = { open, nl, len - close - 1 };
		struct braces one = { .n = 0 };
		if (!brace_add(an, &one, parts, lens))
			return b->unsure ? 0 : -ENOMEM;
		int r = brace_expand(an, one.v[0], one.len[0], b, depth + 1);
		if (r < 0 || b->unsure)
			return r;
	}
	return 0;
}

/* Appends every word s[0..len) expands to (raw text, quotes kept). */
static int brace_expand(struct analysis *an, const char *s, size_t len, struct braces *b,
			unsigned depth)
{
	if (depth > BRACE_MAX_DEPTH) {
		b->unsure = true;
		return 0;
	}
	for (size_t i = 0; i < len;) {
		size_t e = brace_skip(s, len, i);
		if (e == NONE)
			break;
		if (e != i) {
			i = e;
			continue;
		}
		if (s[i] != '{') {
			i++;
			continue;
		}
		/* the matching '}' and the top-level commas */
		size_t commas[BRACE_MAX_WORDS], nc = 0, j = i + 1;
		unsigned level = 1;
		while (j < len) {
			size_t f = brace_skip(s, len, j);
			if (f == NONE) {
				j = len;
				break;
			}
			if (f != j) {
				j = f;
				continue;
			}
			if (s[j] == '{') {
				level++;
			} else if (s[j] == '}' && --level == 0) {
				break;
			} else if (s[j] == ',' && level == 1) {
				if (nc == BRACE_MAX_WORDS) {
					b->unsure = true;
					return 0;
				}
				commas[nc++] = j;
			}
			j++;
		}
		if (j >= len) {
			i++;
			continue;
		}
		if (nc == 0) {
			bool done;
			int r = brace_sequence(an, s, len, i, j, b, depth, &done);
			if (r < 0 || done || b->unsure)
				return r;
			i++;
			continue;
		}
		for (size_t k = 0; k <= nc; k++) {
			size_t from = k ? commas[k - 1] + 1 : i + 1, to = k < nc ? commas[k] : j;
			const char *parts[3] = { s, s + from, s + j + 1 };
			size_t lens[3] = { i, to - from, len - j - 1 };
			struct braces one = { .n = 0 };
			if (!brace_add(an, &one, parts, lens))
				return -ENOMEM;
			int r = brace_expand(an, one.v[0], one.len[0], b, depth + 1);
			if (r < 0 || b->unsure)
				return r;
		}
		return 0;
	}
	const char *parts[3] = { s, "", "" };
	size_t lens[3] = { len, 0, 0 };
	if (!brace_add(an, b, parts, lens) && !b->unsure)
		return -ENOMEM;
	return 0;
}

/* Pushes the words an unquoted brace expansion in t makes, each lexed
 * again (quote removal, flags); when it is too large, the word as written,
 * marked as one the shell expands. */
static int push_braced(struct parser *ps, const struct token *t)
{
	struct braces *b = malloc(sizeof(*b));
	int r;

	if (!b)
		return -ENOMEM;
	b->n = 0;
	/* scanning for groups is quadratic in the worst case: bound it */
	b->unsure = t->end - t->start > 4096;
	r = b->unsure ? 0 : brace_expand(ps->an, ps->lx.s + t->start, t->end - t->start, b, 0);
	if (r == 0 && b->unsure) {
		struct lf_shell_word w = t->w;
		w.flags |= LF_WORD_EXPANSION;
		r = wordv_push(&ps->cmd.words, &w);
	}
	for (size_t k = 0; r == 0 && !b->unsure && k < b->n; k++) {
		struct lexer sub = { .an = ps->an, .s = b->v[k], .len = b->len[k] };
		struct token w;
		memset(&w, 0, sizeof(w));
		r = lex_word(&sub, &w);
		free(sub.bodies);
		if (r < 0)
			break;
		/* an unquoted empty result is no word at all */
		if (w.w.len == 0 && !(w.w.flags & LF_WORD_QUOTED))
			continue;
		w.w.flags &= ~LF_WORD_BRACE;
		r = wordv_push(&ps->cmd.words, &w.w);
	}
	free(b);
	return r;
}

/* A word in command position or after it. */
static int handle_word(struct parser *ps, const struct token *t)
{
	const struct lf_shell_word *w = &t->w;
	struct cmd *c = &ps->cmd;
	int r;

	if ((r = analyse_bodies(ps)) != 0)
		return r;
	switch (ps->st) {
	case ST_CASE_WORD:
		ps->st = ST_CASE_IN;
		goto skipped;
	case ST_CASE_IN:
		ps->st = ST_CASE_PAT;
		ps->case_depth++;
		return 0;
	case ST_CASE_PAT:
		if (word_is(w, "esac")) {
			ps->case_depth--;
			ps->st = ST_CMD;
			return 0;
		}
		goto skipped;
	case ST_FOR:
		if (word_is(w, "do") && !c->any) {
			ps->st = ST_CMD;
			return 0;
		}
		goto skipped;
	case ST_FUNC_NAME:
		ps->st = ST_CMD;
		return 0;
	case ST_CMD:
		break;
	}

	if (c->words.n == 0) {
		const char *raw = ps->lx.s + t->start;
		if (is_reserved_skip(w))
			return 0;
		if (word_is(w, "esac") && ps->case_depth) {
			ps->case_depth--;
			return 0;
		}
		if (word_is(w, "case")) {
			ps->st = ST_CASE_WORD;
			return 0;
		}
		if (word_is(w, "for") || word_is(w, "select")) {
			ps->st = ST_FOR;
			return 0;
		}
		if (word_is(w, "function")) {
			ps->st = ST_FUNC_NAME;
			return 0;
		}
		if (is_assignment(raw, t->end - t->start)) {
			/* a leading assignment: skipped, but what it expands counts */
			cmd_touch(ps, t);
			if (code_variable(raw, t->end - t->start) && !c->reason)
				c->reason = R_CODE_VAR;
			if (t->reason && !c->reason)
				c->reason = t->reason;
			return 0;
		}
		if (word_is(w, "[["))
			ps->lx.dbracket = true;
	} else if (ps->lx.dbracket && word_is(w, "]]")) {
		ps->lx.dbracket = false;
	}
	cmd_touch(ps, t);
	if (t->reason && !c->reason)
		c->reason = t->reason;
	if ((w->flags & LF_WORD_BRACE) && !(w->flags & LF_WORD_SUBST))
		return push_braced(ps, t);
	return wordv_push(&c->words, w);

skipped:
	/* words the shell expands but does not run: only their substitutions count */
	if (t->reason)
		return emit_opaque(ps->an, ps->lx.s + t->start, t->end - t->start, t->reason);
	return 0;
}

/* "((" at command start: an arithmetic command. */
static int arith_command(struct parser *ps, size_t open_at)
{
	struct lexer *lx = &ps->lx;
	size_t e = paren_end(lx->s, lx->len, lx->i + 1, 0);
	if (e != NONE && e < lx->len && lx->s[e] == ')')
		lx->i = e + 1;
	else
		lx->i = lx->len;
	return emit_opaque(ps->an, lx->s + open_at, lx->i - open_at,
			   "arithmetic evaluation can run commands");
}

static int parse_list(struct analysis *an, const char *s, size_t len, unsigned depth)
{
	struct parser ps = { .an = an, .st = ST_CMD, .depth = depth };
	struct token t;
	int r = 0;

	if (depth > LF_SHELL_MAX_DEPTH)
		return emit_opaque(an, s, len, "nested too deeply");
	ps.lx = (struct lexer){ .an = an, .s = s, .len = len, .depth = depth };
	wordv_init(&ps.cmd.words);

	for (;;) {
		if ((r = lex_next(&ps.lx, &t)) < 0)
			break;
		if (t.kind == TK_EOF) {
			r = flush(&ps);
			if (!r && ps.lx.nhd)
				r = read_heredocs(&ps);
			break;
		}
		if (t.kind == TK_NEWLINE) {
			if (ps.st == ST_FOR)
				ps.st = ST_CMD;
			if ((r = flush(&ps)) != 0 || (r = read_heredocs(&ps)) != 0)
				break;
			continue;
		}
		if (t.kind == TK_REDIR) {
			if ((r = handle_redir(&ps, &t)) != 0)
				break;
			continue;
		}
		if (t.kind == TK_WORD) {
			if ((r = handle_word(&ps, &t)) != 0)
				break;
			continue;
		}
		/* operators */
		switch (t.op) {
		case OP_LPAREN:
			if (ps.st == ST_CASE_PAT)
				continue;
			if (ps.st == ST_FOR || ps.st == ST_FUNC_NAME) {
				if (ps.lx.i < len && s[ps.lx.i] == '(') {
					ps.st = ST_CMD;
					r = arith_command(&ps, t.start);
				} else if (ps.st == ST_FUNC_NAME) {
					ps.st = ST_CMD;
				}
				break;
			}
			if (ps.cmd.words.n) {
				/* NAME ( ) is a function definition; anything
				 * else is a syntax error the shell rejects */
				size_t k = ps.lx.i;
				while (k < len && is_blank(s[k]))
					k++;
				if (k < len && s[k] == ')' && ps.cmd.words.n == 1) {
					ps.lx.i = k + 1;
					ps.cmd.words.n = 0;
					ps.cmd.any = false;
					break;
				}
				cmd_touch(&ps, &t);
				if (!ps.cmd.reason)
					ps.cmd.reason = "unexpected '('";
				r = flush(&ps);
				break;
			}
			if (ps.lx.i < len && s[ps.lx.i] == '(') {
				r = flush(&ps);
				if (!r)
					r = arith_command(&ps, t.start);
				break;
			}
			r = flush(&ps);
			break;
		case OP_RPAREN:
			if (ps.st == ST_CASE_PAT) {
				ps.st = ST_CMD;
				break;
			}
			r = flush(&ps);
			break;
		case OP_DSEMI:
			r = flush(&ps);
			if (ps.case_depth)
				ps.st = ST_CASE_PAT;
			break;
		case OP_PIPE:
			if (ps.st == ST_CASE_PAT)
				break;
			r = flush(&ps);
			break;
		default:
			if (ps.st == ST_FOR)
				ps.st = ST_CMD;
			r = flush(&ps);
			break;
		}
		if (r)
			break;
	}
	wordv_fini(&ps.cmd.words);
	free(ps.lx.bodies);
	return r;
}

int lf_shell_analyse(const char *line, size_t len, lf_shell_emit_fn emit, void *ctx)
{
	struct analysis an = { .emit = emit, .ctx = ctx };

	if (!line || !emit)
		return -EINVAL;
	arena_init(&an.arena);
	int r = parse_list(&an, line, len, 0);
	if (r == 0 && (memchr(line, '`', len) || memmem(line, len, "$(", 2)))
	/* Quoted, commented or here-document text that looks like a
		 * command substitution is shell code for something the analyser
		 * cannot follow (ssh, su -c, docker exec, a script): at best ask.
		 * A real substitution was reported already; this adds nothing
		 * stricter then. */
	{
		const char *at = memmem(line, len, "$(", 2);
		const char *bq = memchr(line, '`', len);
		if (!at || (bq && bq < at))
			at = bq;
		size_t n = (size_t)(line + len - at);
		r = emit_opaque(&an, at, n < 40 ? n : 40,
				"shell code in quoted text, a comment or a here-document");
	}
	arena_fini(&an.arena);
	return r;
}

/* ------------------------------------------------------------------------
 * Formatting.
 */
struct out {
	char *buf;
	size_t size, n;
	bool full;
};

static void out_put(struct out *o, const char *s, size_t len)
{
	if (o->full)
		return;
	/* keep room for "…" (3 bytes) and the NUL */
	if (o->n + len + 4 > o->size) {
		size_t room = o->size > o->n + 4 ? o->size - o->n - 4 : 0;
		memcpy(o->buf + o->n, s, room);
		o->n += room;
		if (o->n + 4 <= o->size) {
			memcpy(o->buf + o->n, "\xe2\x80\xa6", 3);
			o->n += 3;
		}
		o->full = true;
		return;
	}
	memcpy(o->buf + o->n, s, len);
	o->n += len;
}

void lf_shell_part_format(const struct lf_shell_part *part, char *buf, size_t size)
{
	struct out o = { .buf = buf, .size = size };

	if (!size)
		return;
	if (size < 8) {
		buf[0] = '\0';
		return;
	}
	switch (part->kind) {
	case LF_PART_COMMAND:
		for (size_t k = 0; k < part->argc; k++) {
			if (k)
				out_put(&o, " ", 1);
			out_put(&o, part->argv[k].text, part->argv[k].len);
		}
		break;
	case LF_PART_REDIRECT:
		out_put(&o, part->op, strlen(part->op));
		out_put(&o, " ", 1);
		out_put(&o, part->target->text, part->target->len);
		break;
	case LF_PART_OPAQUE:
		out_put(&o, part->text, part->text_len);
		break;
	}
	/* a line break inside a part would break one-line output */
	for (size_t k = 0; k < o.n; k++)
		if (buf[k] == '\n' || buf[k] == '\t')
			buf[k] = ' ';
	buf[o.n] = '\0';
}
