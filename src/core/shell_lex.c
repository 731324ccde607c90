/* SPDX-License-Identifier: MIT */
/*
 * The lexer of bash command lines: tokens (words, operators,
 * redirections, newlines) and, inside words, every expansion form with
 * its own structure ($x, ${…} with its operator and operand words, $( …
 * ) and <( … ) parsed as commands, ` … ` decoded and parsed, $(( … ))
 * and $[ … ] as arithmetic, $'…' decoded, $"…"). Here-document bodies
 * are read at the newline after their operator, as bash reads them.
 * Pure: no I/O. The grammar is in shell_parse.c; doc/shell.md says what
 * is covered.
 *
 * Exact to bash where it matters for what runs:
 * - a carriage return is an ordinary word character, not a blank;
 * - backslash-newline is removed wherever bash removes it (everywhere
 *   but inside single quotes, $'…', comments and the bodies of quoted
 *   here-documents), also inside unquoted here-document bodies before
 *   their lines are compared with the delimiter;
 * - a here-document ends at the first line equal to its delimiter (after
 *   quote removal of the delimiter word; leading tabs stripped for <<-).
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "core/shell_lex.h"

/* ------------------------------------------------------------------------
 * Memory.
 */
#define BLOCK_MIN 16384

void sh_arena_init(struct sh_arena *a)
{
	a->cur = a->first;
	a->cap = sizeof(a->first);
	a->used = 0;
	a->blocks = NULL;
}

void sh_arena_fini(struct sh_arena *a)
{
	while (a->blocks) {
		struct sh_block *b = a->blocks;
		a->blocks = b->next;
		free(b);
	}
	sh_arena_init(a);
}

void *sh_alloc(struct sh_arena *a, size_t size)
{
	size = (size + 15) & ~(size_t)15;
	if (size == 0)
		size = 16;
	if (a->cap - a->used < size) {
		size_t cap = size > BLOCK_MIN ? size : BLOCK_MIN;
		struct sh_block *b = malloc(sizeof(*b) + cap);
		if (!b)
			return NULL;
		b->next = a->blocks;
		b->cap = cap;
		a->blocks = b;
		a->cur = b->data;
		a->cap = cap;
		a->used = 0;
	}
	void *r = a->cur + a->used;
	a->used += size;
	memset(r, 0, size);
	return r;
}

char *sh_strndup(struct sh_arena *a, const char *s, size_t n)
{
	char *d = sh_alloc(a, n + 1);
	if (d) {
		if (n)
			memcpy(d, s, n);
		d[n] = '\0';
	}
	return d;
}

/* A word's text while it is read: grows in the arena. */
struct wbuf {
	struct sh_arena *a;
	char *p;
	size_t n, cap;
	bool oom;
};

static void wb_init(struct wbuf *b, struct sh_arena *a)
{
	b->a = a;
	b->p = NULL;
	b->n = b->cap = 0;
	b->oom = false;
}

static void wb_put(struct wbuf *b, const char *s, size_t n)
{
	if (b->oom || n == 0)
		return;
	if (b->n + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 64;
		while (cap < b->n + n + 1)
			cap *= 2;
		char *q = sh_alloc(b->a, cap);
		if (!q) {
			b->oom = true;
			return;
		}
		if (b->n)
			memcpy(q, b->p, b->n);
		b->p = q;
		b->cap = cap;
	}
	if (!b->p)
		return;
	memcpy(b->p + b->n, s, n);
	b->n += n;
	b->p[b->n] = '\0';
}

static void wb_putc(struct wbuf *b, char c)
{
	wb_put(b, &c, 1);
}

/* ------------------------------------------------------------------------
 * Errors and small helpers.
 */
int sh_fail(struct sh_parser *p, const char *what)
{
	if (!p->error) {
		p->error = what;
		p->error_at = p->i;
	}
	return -1;
}

static int oom(struct sh_parser *p)
{
	p->nomem = true;
	return -1;
}

static void bashism(struct sh_parser *p, const char *what)
{
	if ((p->opts & SH_PARSE_POSIX) && !p->bashism)
		p->bashism = what;
}

bool sh_is_name(const char *s, size_t n)
{
	if (n == 0 ||
	    !((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z') || s[0] == '_'))
		return false;
	for (size_t k = 1; k < n; k++)
		if (!((s[k] >= 'a' && s[k] <= 'z') || (s[k] >= 'A' && s[k] <= 'Z') || s[k] == '_' ||
		      (s[k] >= '0' && s[k] <= '9')))
			return false;
	return true;
}

static bool name_start(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool name_char(int c)
{
	return name_start(c) || (c >= '0' && c <= '9');
}

void sh_word_add_exp(struct sh_word *w, struct sh_exp *e)
{
	if (!w->exps_tail)
		w->exps_tail = &w->exps;
	*w->exps_tail = e;
	w->exps_tail = &e->next;
}

/* Index of the first character at or after i that is not part of a
 * backslash-newline pair (bash removes those while it reads). */
static size_t skip_cont(const struct sh_parser *p, size_t i)
{
	while (i + 1 < p->len && p->s[i] == '\\' && p->s[i + 1] == '\n')
		i += 2;
	return i;
}

/* The character at p->i, after backslash-newline pairs; -1 at the end. */
static int cur(struct sh_parser *p)
{
	p->i = skip_cont(p, p->i);
	return p->i < p->len ? (unsigned char)p->s[p->i] : -1;
}

/* The character after the one at p->i (read with cur()), and its index. */
static int after(const struct sh_parser *p, size_t *at)
{
	size_t j = skip_cont(p, p->i + 1);
	if (at)
		*at = j;
	return j < p->len ? (unsigned char)p->s[j] : -1;
}

static bool is_meta(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == ';' || c == '&' || c == '|' || c == '(' ||
	       c == ')' || c == '<' || c == '>';
}

/* A parser over p->s[from..to), nested one level deeper. */
static void sub_parser(const struct sh_parser *p, struct sh_parser *q, size_t from, size_t to)
{
	memset(q, 0, sizeof(*q));
	q->a = p->a;
	q->s = p->s;
	q->len = to;
	q->i = from;
	q->depth = p->depth + 1;
	q->opts = p->opts;
}

/* Carries a nested parser's errors back. */
static int sub_done(struct sh_parser *p, const struct sh_parser *q, int r)
{
	if (q->nomem)
		p->nomem = true;
	if (q->error && !p->error) {
		p->error = q->error;
		p->error_at = q->error_at;
	}
	if (q->bashism && !p->bashism)
		p->bashism = q->bashism;
	return r < 0 || q->nomem || q->error ? -1 : 0;
}

/* ------------------------------------------------------------------------
 * Finding the end of bracketed text the way bash's parse_matched_pair
 * does: quotes, escapes and nested substitutions are skipped, the
 * brackets counted. Returns the index of the closing character, or
 * SIZE_MAX when there is none.
 */
#define NONE SIZE_MAX

static size_t match_close(const struct sh_parser *p, size_t i, char open, char close,
			  unsigned nest);

static size_t skip_squote_raw(const struct sh_parser *p, size_t i)
{
	const char *q = memchr(p->s + i + 1, '\'', p->len - i - 1);
	return q ? (size_t)(q - p->s) : NONE;
}

static size_t skip_bquote_raw(const struct sh_parser *p, size_t i)
{
	for (i++; i < p->len; i++) {
		if (p->s[i] == '\\')
			i++;
		else if (p->s[i] == '`')
			return i;
	}
	return NONE;
}

/* i at a '"'; the index of the closing '"'. */
static size_t skip_dquote_raw(const struct sh_parser *p, size_t i, unsigned nest)
{
	for (i++; i < p->len; i++) {
		char c = p->s[i];
		size_t e;
		if (c == '\\') {
			i++;
		} else if (c == '"') {
			return i;
		} else if (c == '`') {
			if ((e = skip_bquote_raw(p, i)) == NONE)
				return NONE;
			i = e;
		} else if (c == '$' && i + 1 < p->len && strchr("({[", p->s[i + 1])) {
			char o = p->s[i + 1];
			e = match_close(p, i + 2, o,
					o == '('   ? ')'
					: o == '{' ? '}'
						   : ']',
					nest + 1);
			if (e == NONE)
				return NONE;
			i = e;
		}
	}
	return NONE;
}

static size_t match_close(const struct sh_parser *p, size_t i, char open, char close, unsigned nest)
{
	unsigned level = 1;

	if (nest > SH_MAX_DEPTH)
		return NONE;
	for (; i < p->len; i++) {
		char c = p->s[i];
		size_t e = i;
		if (c == '\\') {
			i++;
			continue;
		}
		if (c == '\'' && open != '\'')
			e = skip_squote_raw(p, i);
		else if (c == '"')
			e = skip_dquote_raw(p, i, nest);
		else if (c == '`')
			e = skip_bquote_raw(p, i);
		else if (c == '$' && i + 1 < p->len && strchr("({[", p->s[i + 1]) &&
			 (p->s[i + 1] != open || open == '{')) {
			char o = p->s[i + 1];
			e = match_close(p, i + 2, o,
					o == '('   ? ')'
					: o == '{' ? '}'
						   : ']',
					nest + 1);
		} else if (c == '$' && i + 1 < p->len && p->s[i + 1] == '\'') {
			/* $'…': a backslash escapes the quote */
			for (e = i + 2; e < p->len && p->s[e] != '\''; e++)
				if (p->s[e] == '\\')
					e++;
			if (e >= p->len)
				e = NONE;
		} else if (c == open && open != '{') {
			/* a bare '{' does not nest in ${…} (bash) */
			level++;
			continue;
		} else if (c == close) {
			if (--level == 0)
				return i;
			continue;
		} else {
			continue;
		}
		if (e == NONE)
			return NONE;
		i = e;
	}
	return NONE;
}

/* ------------------------------------------------------------------------
 * ANSI-C quoting.
 */
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
 * \a \b \e \E \f \n \r \t \v \\ \' \" \?, \NNN (octal), \xHH, \uHHHH,
 * \UHHHHHHHH, \cX; any other escape stays as written. A NUL ends the
 * string (bash drops the rest). A code point takes at most as many bytes
 * as its escape, so the result is never longer than the input.
 */
char *sh_ansi_c_decode(char *o, const char *b, size_t n)
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
		} else if (c == 'x' && k < n && b[k] == '{') {
			/* \x{HH…}: every hex digit up to the '}', the low byte
			 * kept (bash's ansicstr; $'\x{72}m' is rm) */
			for (k++; k < n && hex_value(b[k]) >= 0; k++)
				v = (v * 16 + (unsigned long)hex_value(b[k])) & 0xff;
			while (k < n && b[k] != '}')
				k++;
			if (k < n)
				k++;
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

/* ------------------------------------------------------------------------
 * Words.
 */
enum ctx {
	CX_WORD,      /* an unquoted word */
	CX_DQ,	      /* inside "…" */
	CX_HEREDOC,   /* an unquoted here-document body: like "…", '"' plain */
	CX_PARAM,     /* an operand inside ${…} */
	CX_PARAM_DQ,  /* an operand inside "${…}" */
	CX_ARITH,     /* an arithmetic expression */
	CX_SUBSCRIPT, /* the index of a[…] */
};

struct wstate {
	struct sh_word *w;
	struct wbuf b;
	bool bracket, brace; /* an unquoted '[' or '{' seen in this word */
};

static int lex_parts(struct sh_parser *p, struct wstate *ws, enum ctx cx, const char *stops,
		     unsigned mode);

static struct sh_word *word_new(struct sh_parser *p, size_t start)
{
	struct sh_word *w = sh_alloc(p->a, sizeof(*w));
	if (w) {
		w->raw = p->s + start;
		w->exps_tail = &w->exps;
	}
	return w;
}

static struct sh_exp *exp_new(struct sh_parser *p, enum sh_exp_kind kind)
{
	struct sh_exp *e = sh_alloc(p->a, sizeof(*e));
	if (e)
		e->kind = kind;
	return e;
}

/* Finishes a nested word read by lex_parts: its text and raw extent. */
static int word_close(struct sh_parser *p, struct wstate *ws, size_t start)
{
	if (ws->b.oom)
		return oom(p);
	ws->w->rawlen = p->i - start;
	ws->w->text = ws->b.p ? ws->b.p : sh_strndup(p->a, "", 0);
	ws->w->len = ws->b.n;
	if (!ws->w->text)
		return oom(p);
	return 0;
}

/* Reads a word of context cx from p->i until one of stops (at brace or
 * bracket level 0) or the end; the stop character is not consumed. */
static int lex_nested_word(struct sh_parser *p, enum ctx cx, const char *stops,
			   struct sh_word **out)
{
	struct wstate ws = { 0 };
	size_t start = p->i;

	ws.w = word_new(p, start);
	if (!ws.w)
		return oom(p);
	wb_init(&ws.b, p->a);
	if (lex_parts(p, &ws, cx, stops, 0) < 0)
		return -1;
	*out = ws.w;
	return word_close(p, &ws, start);
}

/* Lexes text p->s[from..to) as a word of context cx in a nested parser
 * (arithmetic expressions, subscripts, here-document bodies). */
static int lex_region(struct sh_parser *p, size_t from, size_t to, enum ctx cx,
		      struct sh_word **out)
{
	struct sh_parser q;

	if (p->depth >= SH_MAX_DEPTH)
		return sh_fail(p, "nested too deeply");
	sub_parser(p, &q, from, to);
	int r = lex_nested_word(&q, cx, "", out);
	return sub_done(p, &q, r);
}

/* $( … ) and <( … ) / >( … ): p->i just after the '('. */
static int lex_subst(struct sh_parser *p, struct sh_word *w, enum sh_exp_kind kind, bool out)
{
	struct sh_exp *e = exp_new(p, kind);

	if (!e)
		return oom(p);
	e->out = out;
	if (sh_parse_subst(p, &e->body) < 0)
		return -1;
	sh_word_add_exp(w, e);
	w->flags |= LF_WORD_SUBST;
	return 0;
}

/* ` … `: p->i at the opening backquote. In the body a backslash quotes $,
 * ` and \ (and " inside double quotes); the rest is parsed as commands. */
static int lex_backquote(struct sh_parser *p, struct wstate *ws, bool in_dq)
{
	size_t i = p->i + 1, start = p->i;
	struct wbuf body;

	wb_init(&body, p->a);
	for (; i < p->len && p->s[i] != '`'; i++) {
		char c = p->s[i];
		if (c == '\\' && i + 1 < p->len) {
			char n = p->s[i + 1];
			if (n == '$' || n == '`' || n == '\\' || (in_dq && n == '"')) {
				wb_putc(&body, n);
				i++;
				continue;
			}
			if (n == '\n') {
				i++;
				continue;
			}
		}
		wb_putc(&body, c);
	}
	if (i >= p->len) {
		p->i = p->len;
		return sh_fail(p, "unterminated backquote");
	}
	if (body.oom)
		return oom(p);
	p->i = i + 1;
	struct sh_exp *e = exp_new(p, SH_EXP_BQUOTE);
	if (!e)
		return oom(p);
	if (sh_parse_nested(p, body.p ? body.p : "", body.n, &e->body) < 0)
		return -1;
	sh_word_add_exp(ws->w, e);
	ws->w->flags |= LF_WORD_SUBST;
	wb_put(&ws->b, p->s + start, p->i - start);
	return 0;
}

/* $(( … )) or $[ … ]: the expression p->s[from..to), lexed for what it
 * expands. */
static int lex_arith(struct sh_parser *p, struct sh_word *w, size_t from, size_t to)
{
	struct sh_exp *e = exp_new(p, SH_EXP_ARITH);

	if (!e)
		return oom(p);
	if (lex_region(p, from, to, CX_ARITH, &e->expr) < 0)
		return -1;
	sh_word_add_exp(w, e);
	w->flags |= LF_WORD_EXPANSION;
	return 0;
}

/* ${ … }: p->i just after the '{'. */
static int lex_brace_param(struct sh_parser *p, struct sh_word *w, bool in_dq)
{
	struct sh_exp *e = exp_new(p, SH_EXP_PARAM);
	struct sh_param *pm;
	size_t ns;
	int c;

	if (!e)
		return oom(p);
	pm = &e->param;
	pm->flags = SH_PARAM_BRACED;
	c = cur(p);
	if (c == '#') {
		size_t at;
		int n = after(p, &at);
		/* ${#} is $#; ${#x} a length */
		if (n > 0 && n != '}' && (name_char(n) || strchr("@*#?-$!", n))) {
			pm->flags |= SH_PARAM_LENGTH;
			p->i = at;
			c = n;
		}
	} else if (c == '!') {
		size_t at;
		int n = after(p, &at);
		if (n != '}' && n >= 0) {
			pm->flags |= SH_PARAM_INDIRECT;
			p->i = at;
			c = n;
		}
	}
	ns = p->i;
	if (c >= 0 && name_start(c)) {
		while ((c = cur(p)) >= 0 && name_char(c))
			p->i++;
	} else if (c >= '0' && c <= '9') {
		pm->flags |= SH_PARAM_SPECIAL;
		while ((c = cur(p)) >= '0' && c <= '9')
			p->i++;
	} else if (c > 0 && strchr("@*#?-$!", c)) {
		pm->flags |= SH_PARAM_SPECIAL;
		p->i++;
	} else {
		return sh_fail(p, "bad substitution");
	}
	/* the name, without the continuations it may hold */
	struct wbuf nb;
	wb_init(&nb, p->a);
	for (size_t k = ns; k < p->i; k++) {
		if (p->s[k] == '\\' && k + 1 < p->i && p->s[k + 1] == '\n')
			k++;
		else
			wb_putc(&nb, p->s[k]);
	}
	if (nb.oom)
		return oom(p);
	pm->name = nb.p ? nb.p : "";
	c = cur(p);
	if (c == '[' && !(pm->flags & SH_PARAM_SPECIAL)) {
		size_t close = match_close(p, p->i + 1, '[', ']', 0);
		if (close == NONE)
			return sh_fail(p, "unterminated subscript");
		if (lex_region(p, p->i + 1, close, CX_SUBSCRIPT, &pm->index) < 0)
			return -1;
		p->i = close + 1;
		c = cur(p);
	}
	if ((pm->flags & SH_PARAM_INDIRECT) && (c == '*' || c == '@')) {
		size_t at;
		if (after(p, &at) == '}') {
			/* ${!prefix*}, ${!prefix@}: names, not values */
			pm->flags = (pm->flags & ~SH_PARAM_INDIRECT) | SH_PARAM_NAMES;
			p->i = at;
			c = '}';
		}
	}
	if ((pm->flags & SH_PARAM_INDIRECT) && pm->index && pm->index->len == 1 &&
	    (pm->index->text[0] == '@' || pm->index->text[0] == '*'))
		pm->flags = (pm->flags & ~SH_PARAM_INDIRECT) | SH_PARAM_NAMES; /* ${!a[@]} */
	enum ctx ocx = in_dq ? CX_PARAM_DQ : CX_PARAM;
	if (c != '}') {
		size_t at;
		int n;
		switch (c) {
		case ':':
			n = after(p, &at);
			if (n >= 0 && strchr("-=?+", n)) {
				pm->op = SH_POP_DEFAULT;
				if (n == '=')
					pm->flags |= SH_PARAM_ASSIGN;
				p->i = at + 1;
			} else {
				pm->op = SH_POP_SUBSTR;
				p->i++;
				if (lex_nested_word(p, ocx, ":", &pm->arg) < 0)
					return -1;
				if (cur(p) == ':') {
					p->i++;
					if (lex_nested_word(p, ocx, "", &pm->arg2) < 0)
						return -1;
				}
			}
			break;
		case '-':
		case '=':
		case '?':
		case '+':
			pm->op = SH_POP_DEFAULT;
			if (c == '=')
				pm->flags |= SH_PARAM_ASSIGN;
			p->i++;
			break;
		case '#':
		case '%':
			pm->op = SH_POP_TRIM;
			p->i++;
			if (cur(p) == c)
				p->i++;
			break;
		case '/':
			pm->op = SH_POP_REPLACE;
			p->i++;
			if ((c = cur(p)) == '/' || c == '#' || c == '%')
				p->i++;
			if (lex_nested_word(p, ocx, "/", &pm->arg) < 0)
				return -1;
			if (cur(p) == '/') {
				p->i++;
				if (lex_nested_word(p, ocx, "", &pm->arg2) < 0)
					return -1;
			}
			break;
		case '^':
		case ',':
		case '~':
			pm->op = SH_POP_CASE;
			p->i++;
			if (cur(p) == c)
				p->i++;
			break;
		case '@':
			pm->op = SH_POP_TRANSFORM;
			p->i++;
			c = cur(p);
			if (c < 0)
				return sh_fail(p, "unterminated parameter expansion");
			pm->transform = (char)c;
			p->i++;
			break;
		default: {
			/* bash finds the end and fails only when it expands it */
			size_t close = match_close(p, p->i, '{', '}', 0);
			if (close == NONE)
				return sh_fail(p, "unterminated parameter expansion");
			pm->op = SH_POP_BAD;
			p->i = close;
			break;
		}
		}
		if (pm->op != SH_POP_SUBSTR && pm->op != SH_POP_BAD && pm->op != SH_POP_REPLACE &&
		    pm->op != SH_POP_TRANSFORM && lex_nested_word(p, ocx, "", &pm->arg) < 0)
			return -1;
	}
	if (cur(p) != '}')
		return sh_fail(p, "unterminated parameter expansion");
	p->i++;
	sh_word_add_exp(w, e);
	/* a substitution in an operand makes the word's value come from a
	 * command too */
	w->flags |= LF_WORD_EXPANSION |
		    (((pm->arg ? pm->arg->flags : 0) | (pm->arg2 ? pm->arg2->flags : 0) |
		      (pm->index ? pm->index->flags : 0)) &
		     LF_WORD_SUBST);
	return 0;
}

/* A '$' at p->i in context cx. */
static int lex_dollar(struct sh_parser *p, struct wstate *ws, enum ctx cx)
{
	struct sh_word *w = ws->w;
	size_t start = p->i, at;
	int n = after(p, &at);
	bool quoted_cx = cx == CX_DQ || cx == CX_HEREDOC || cx == CX_PARAM_DQ || cx == CX_ARITH;

	if (n == '(') {
		size_t at2 = skip_cont(p, at + 1);
		if (at2 < p->len && p->s[at2] == '(') {
			/* $(( … )) when the text closes with "))", else $( ( … ) ) */
			size_t close = match_close(p, at2 + 1, '(', ')', 0);
			size_t next = close == NONE ? NONE : skip_cont(p, close + 1);
			if (close != NONE && next < p->len && p->s[next] == ')') {
				if (lex_arith(p, w, at2 + 1, close) < 0)
					return -1;
				p->i = next + 1;
				wb_put(&ws->b, p->s + start, p->i - start);
				return 0;
			}
		}
		p->i = at + 1;
		if (lex_subst(p, w, SH_EXP_CMDSUB, false) < 0)
			return -1;
		wb_put(&ws->b, p->s + start, p->i - start);
		return 0;
	}
	if (n == '[') {
		size_t close = match_close(p, at + 1, '[', ']', 0);
		if (close == NONE) {
			p->i = p->len;
			return sh_fail(p, "unterminated $[");
		}
		bashism(p, "$[ ]");
		if (lex_arith(p, w, at + 1, close) < 0)
			return -1;
		p->i = close + 1;
		wb_put(&ws->b, p->s + start, p->i - start);
		return 0;
	}
	if (n == '{') {
		p->i = at + 1;
		if (lex_brace_param(p, w, quoted_cx) < 0)
			return -1;
		wb_put(&ws->b, p->s + start, p->i - start);
		return 0;
	}
	/* Inside "${…}" a $ before a quote is a plain $, and the quotes are
	 * the literal ones lex_parts reads (bash runs the cmd of
	 * "${x:-$'$(cmd)'}"). */
	if (n == '\'' && (cx == CX_WORD || cx == CX_PARAM)) {
		/* $'…': decoded now; no backslash-newline removal inside */
		size_t e = at + 1;
		while (e < p->len && p->s[e] != '\'')
			e += p->s[e] == '\\' ? 2 : 1;
		if (e >= p->len) {
			p->i = p->len;
			return sh_fail(p, "unterminated $'");
		}
		bashism(p, "$'...'");
		char *o = sh_alloc(p->a, e - at);
		if (!o)
			return oom(p);
		char *end = sh_ansi_c_decode(o, p->s + at + 1, e - at - 1);
		wb_put(&ws->b, o, (size_t)(end - o));
		w->flags |= LF_WORD_QUOTED;
		p->i = e + 1;
		return 0;
	}
	if (n == '"' && (cx == CX_WORD || cx == CX_PARAM)) {
		/* $"…": translated, then expanded as "…" */
		struct sh_exp *e = exp_new(p, SH_EXP_LOCALE);
		if (!e)
			return oom(p);
		bashism(p, "$\"...\"");
		sh_word_add_exp(w, e);
		w->flags |= LF_WORD_EXPANSION | LF_WORD_QUOTED;
		p->i = at + 1;
		if (lex_parts(p, ws, CX_DQ, "\"", 0) < 0)
			return -1;
		if (cur(p) != '"')
			return sh_fail(p, "unterminated double quote");
		p->i++;
		return 0;
	}
	if (n > 0 && (name_start(n) || (n >= '0' && n <= '9') || strchr("@*#?-$!", n))) {
		struct sh_exp *e = exp_new(p, SH_EXP_PARAM);
		if (!e)
			return oom(p);
		p->i = at;
		if (name_start(n)) {
			struct wbuf nb;
			wb_init(&nb, p->a);
			while ((n = cur(p)) >= 0 && name_char(n)) {
				wb_putc(&nb, (char)n);
				p->i++;
			}
			if (nb.oom)
				return oom(p);
			e->param.name = nb.p;
		} else {
			char *nm = sh_strndup(p->a, p->s + at, 1);
			if (!nm)
				return oom(p);
			e->param.name = nm;
			e->param.flags = SH_PARAM_SPECIAL;
			p->i = at + 1;
		}
		sh_word_add_exp(w, e);
		w->flags |= LF_WORD_EXPANSION;
		wb_put(&ws->b, p->s + start, p->i - start);
		return 0;
	}
	/* a plain dollar sign */
	wb_putc(&ws->b, '$');
	p->i++;
	return 0;
}

/* An extended glob @( … ) etc. inside [[ ]], or a parenthesised group of a
 * regular expression: p->i at the '('; read to its ')' as word text. */
static int lex_group(struct sh_parser *p, struct wstate *ws)
{
	size_t close = match_close(p, p->i + 1, '(', ')', 0);

	if (close == NONE)
		return sh_fail(p, "unterminated pattern group");
	/* What it expands is found by lexing its inside as a here-document
	 * body: every $ and ` counts, a quote of either kind is text, so that
	 * a "…" inside cannot end the scan before the substitution it holds
	 * (@("$(cmd)") runs cmd); one in '…' is counted too, which only
	 * judges more. */
	struct sh_word *inner = NULL;
	if (lex_region(p, p->i + 1, close, CX_HEREDOC, &inner) < 0 || !inner)
		return -1;
	for (struct sh_exp *e = inner->exps; e;) {
		struct sh_exp *next = e->next;
		e->next = NULL;
		sh_word_add_exp(ws->w, e);
		e = next;
	}
	ws->w->flags |= inner->flags & (LF_WORD_EXPANSION | LF_WORD_SUBST);
	ws->w->flags |= LF_WORD_GLOB;
	wb_put(&ws->b, p->s + p->i, close + 1 - p->i);
	p->i = close + 1;
	return 0;
}

/* What an unquoted literal character says about its word. */
/* Whether p->i, at an unquoted '{', starts a brace sequence of single
 * characters {X..Y} or {X..Y..N} whose range holds something other than
 * letters and digits: bash makes the words before it expands anything
 * else, so {Z..a} makes a backslash and a backquote that change how the
 * rest of each word is quoted (echo {Z..a}'$(cmd)' runs cmd). */
static bool char_seq_quotes(const struct sh_parser *p)
{
	const char *s = p->s + p->i;
	size_t left = p->len - p->i;
	unsigned char lo, hi;

	if (left < 6 || s[2] != '.' || s[3] != '.')
		return false;
	if (s[5] != '}' && !(left > 7 && s[5] == '.' && s[6] == '.'))
		return false;
	lo = (unsigned char)s[1];
	hi = (unsigned char)s[4];
	if (lo > hi) {
		unsigned char t = lo;
		lo = hi;
		hi = t;
	}
	for (unsigned c = lo; c <= hi; c++)
		if (!((c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z')))
			return true;
	return false;
}

static void mark_literal(struct wstate *ws, int c, bool first, int next)
{
	switch (c) {
	case '*':
	case '?':
		ws->w->flags |= LF_WORD_GLOB;
		break;
	case '[':
		ws->bracket = true;
		break;
	case ']':
		if (ws->bracket)
			ws->w->flags |= LF_WORD_GLOB;
		break;
	case '{':
		ws->brace = true;
		break;
	case ',':
		if (ws->brace)
			ws->w->flags |= LF_WORD_GLOB | LF_WORD_BRACE;
		break;
	case '.':
		if (ws->brace && next == '.')
			ws->w->flags |= LF_WORD_GLOB | LF_WORD_BRACE;
		break;
	case '~':
		if (first)
			ws->w->flags |= LF_WORD_TILDE;
		break;
	default:
		break;
	}
}

/* <(…) or >(…) (out) at p->i, its '(' at paren: parsed as commands, its
 * text kept in the word. */
static int lex_procsub(struct sh_parser *p, struct wstate *ws, bool out, size_t paren)
{
	size_t start = p->i;

	bashism(p, "process substitution");
	p->i = paren + 1;
	if (lex_subst(p, ws->w, SH_EXP_PROCSUB, out) < 0)
		return -1;
	wb_put(&ws->b, p->s + start, p->i - start);
	return 0;
}

/*
 * The characters of a word in context cx, up to a terminator, appended to
 * ws. stops: characters that end the word at brace and bracket level 0
 * (operands of ${…}: "}" always, ":" or "/" too).
 */
static int lex_parts(struct sh_parser *p, struct wstate *ws, enum ctx cx, const char *stops,
		     unsigned mode)
{
	bool unquoted = cx == CX_WORD || cx == CX_PARAM;
	bool dq_like = cx == CX_DQ || cx == CX_HEREDOC || cx == CX_PARAM_DQ;

	if (p->depth >= SH_MAX_DEPTH)
		return sh_fail(p, "nested too deeply");
	for (;;) {
		int c = cur(p);
		size_t at;
		int n;

		if (c < 0)
			break;
		if (cx == CX_WORD) {
			if (is_meta(c)) {
				n = after(p, &at);
				if ((c == '<' || c == '>') && n == '(' && !(mode & SH_LX_COND)) {
					if (lex_procsub(p, ws, c == '>', at) < 0)
						return -1;
					continue;
				}
				if (c == '(' && ((mode & SH_LX_REGEX) ||
						 ((mode & SH_LX_COND) && ws->b.n &&
						  strchr("@!+*?", ws->b.p[ws->b.n - 1])))) {
					if (lex_group(p, ws) < 0)
						return -1;
					continue;
				}
				if (c == '|' && (mode & SH_LX_REGEX)) {
					wb_putc(&ws->b, '|');
					p->i++;
					continue;
				}
				break;
			}
		} else if ((cx == CX_DQ && c == '"') || ((cx == CX_PARAM || cx == CX_PARAM_DQ) &&
							 (c == '}' || (c && strchr(stops, c))))) {
			/* the end; arithmetic and subscripts read to the region's end */
			break;
		}
		switch (c) {
		case '\\': {
			size_t j = p->i + 1;
			if (j >= p->len) {
				wb_putc(&ws->b, '\\');
				p->i++;
				break;
			}
			char e = p->s[j];
			if (unquoted || (dq_like && (e == '$' || e == '`' || e == '\\' ||
						     (e == '"' && cx != CX_HEREDOC)))) {
				wb_putc(&ws->b, e);
				ws->w->flags |= LF_WORD_QUOTED;
			} else {
				/* kept: arithmetic, subscripts, other escapes in "…" */
				wb_putc(&ws->b, '\\');
				wb_putc(&ws->b, e);
			}
			p->i = j + 1;
			break;
		}
		case '\'':
			/* POSIX shells (dash, bash --posix) take a quote in
			 * "${…}" as a plain character, even before a '}' */
			if (dq_like && (cx != CX_PARAM_DQ || (p->opts & SH_PARSE_POSIX))) {
				wb_putc(&ws->b, '\'');
				p->i++;
				break;
			}
			if (cx == CX_ARITH || cx == CX_SUBSCRIPT) {
				/* quotes in arithmetic: left as text, never literal */
				wb_putc(&ws->b, '\'');
				p->i++;
				break;
			}
			{
				size_t e = skip_squote_raw(p, p->i);
				if (e == NONE) {
					p->i = p->len;
					return sh_fail(p, "unterminated single quote");
				}
				ws->w->flags |= LF_WORD_QUOTED;
				if (cx == CX_PARAM_DQ) {
					/* Inside "${…}" the quotes hide a '}' from
					 * the end and stay in the value, but what
					 * they hold is expanded as in "…": bash runs
					 * the cmd of "${x:-'$(cmd)'}". */
					size_t len = p->len;
					int r;

					wb_putc(&ws->b, '\'');
					p->i++;
					p->len = e;
					r = lex_parts(p, ws, CX_HEREDOC, "", mode);
					p->len = len;
					if (r < 0)
						return -1;
					wb_putc(&ws->b, '\'');
					p->i = e + 1;
					break;
				}
				wb_put(&ws->b, p->s + p->i + 1, e - p->i - 1);
				p->i = e + 1;
			}
			break;
		case '"':
			if (cx == CX_HEREDOC) {
				wb_putc(&ws->b, '"');
				p->i++;
				break;
			}
			p->i++;
			ws->w->flags |= LF_WORD_QUOTED;
			if (lex_parts(p, ws, CX_DQ, "", mode) < 0)
				return -1;
			if (cur(p) != '"') {
				p->i = p->len;
				return sh_fail(p, "unterminated double quote");
			}
			p->i++;
			break;
		case '$':
			if (lex_dollar(p, ws, cx) < 0)
				return -1;
			break;
		case '`':
			if (lex_backquote(p, ws, dq_like) < 0)
				return -1;
			break;
		default:
			/* In a ${…} operand neither '{' nor '[' nests: bash ends
			 * it at the first '}' outside quotes and expansions
			 * (echo ${x:-{}; rm y #} runs rm). */
			if (cx == CX_PARAM && (c == '<' || c == '>') && after(p, &at) == '(') {
				/* unquoted, <(…) is a process substitution there */
				if (lex_procsub(p, ws, c == '>', at) < 0)
					return -1;
				break;
			}
			if (cx == CX_WORD && c == '{' && char_seq_quotes(p)) {
				p->i = p->len;
				return sh_fail(
					p, "a brace sequence of characters that are not letters "
					   "or digits (it can make quotes and backslashes)");
			}
			if (unquoted) {
				n = after(p, &at);
				mark_literal(ws, c, ws->b.n == 0, n);
			}
			wb_putc(&ws->b, (char)c);
			p->i++;
			break;
		}
	}
	return ws->b.oom ? oom(p) : 0;
}

/* ------------------------------------------------------------------------
 * Tokens.
 */
const char *const sh_redir_text[] = {
	[SH_R_IN] = "<",
	[SH_R_OUT] = ">",
	[SH_R_APPEND] = ">>",
	[SH_R_CLOBBER] = ">|",
	[SH_R_RW] = "<>",
	[SH_R_HEREDOC] = "<<",
	[SH_R_HEREDOC_STRIP] = "<<-",
	[SH_R_HERESTRING] = "<<<",
	[SH_R_DUP_IN] = "<&",
	[SH_R_DUP_OUT] = ">&",
	[SH_R_ALL_OUT] = "&>",
	[SH_R_ALL_APPEND] = "&>>",
};

/* The next k logical characters from p->i match text. On a match, *end
 * is the index after them. */
static bool lmatch(const struct sh_parser *p, const char *text, size_t *end)
{
	size_t i = p->i;

	for (; *text; text++) {
		i = skip_cont(p, i);
		if (i >= p->len || p->s[i] != *text)
			return false;
		i++;
	}
	*end = i;
	return true;
}

/* A redirection operator at p->i; false when there is none. */
static bool lex_redir_op(struct sh_parser *p, struct sh_tok *t)
{
	static const struct {
		const char *text;
		enum sh_redir_op op;
	} ops[] = {
		{ "&>>", SH_R_ALL_APPEND }, { "&>", SH_R_ALL_OUT },
		{ "<<<", SH_R_HERESTRING }, { "<<-", SH_R_HEREDOC_STRIP },
		{ "<<", SH_R_HEREDOC },	    { "<&", SH_R_DUP_IN },
		{ "<>", SH_R_RW },	    { "<", SH_R_IN },
		{ ">>", SH_R_APPEND },	    { ">|", SH_R_CLOBBER },
		{ ">&", SH_R_DUP_OUT },	    { ">", SH_R_OUT },
	};
	size_t end;

	for (size_t k = 0; k < sizeof(ops) / sizeof(ops[0]); k++) {
		if (lmatch(p, ops[k].text, &end)) {
			t->kind = SH_T_REDIR;
			t->op = (int)ops[k].op;
			p->i = end;
			if (ops[k].op == SH_R_ALL_OUT || ops[k].op == SH_R_ALL_APPEND ||
			    ops[k].op == SH_R_HERESTRING)
				bashism(p, "&> or <<<");
			return true;
		}
	}
	return false;
}

/* Reads a word token at p->i. */
static int lex_word_token(struct sh_parser *p, unsigned mode, struct sh_tok *t)
{
	struct wstate ws = { 0 };
	size_t start = p->i;

	ws.w = word_new(p, start);
	if (!ws.w)
		return oom(p);
	wb_init(&ws.b, p->a);

	/* In command position NAME[…] is read with its brackets matched, so
	 * a subscript may hold blanks (a[1 + 2]=x). */
	if (mode & SH_LX_CMD) {
		size_t k = p->i;
		while (k < p->len && name_char((unsigned char)p->s[k]))
			k++;
		if (k > p->i && k < p->len && p->s[k] == '[' &&
		    name_start((unsigned char)p->s[p->i])) {
			size_t close = match_close(p, k + 1, '[', ']', 0);
			if (close != NONE) {
				struct sh_word *idx = NULL;
				if (lex_region(p, k + 1, close, CX_SUBSCRIPT, &idx) < 0 || !idx)
					return -1;
				for (struct sh_exp *e = idx->exps; e;) {
					struct sh_exp *next = e->next;
					e->next = NULL;
					sh_word_add_exp(ws.w, e);
					e = next;
				}
				ws.w->flags |= idx->flags & (LF_WORD_EXPANSION | LF_WORD_SUBST);
				wb_put(&ws.b, p->s + p->i, close + 1 - p->i);
				p->i = close + 1;
			}
		}
	}
	if (lex_parts(p, &ws, CX_WORD, "", mode) < 0)
		return -1;
	/* NAME=( … ) or NAME+=( … ): a compound assignment, read as a list
	 * of words inside the same token */
	if ((mode & (SH_LX_CMD | SH_LX_DECL)) && cur(p) == '(' && ws.b.n >= 2 &&
	    ws.b.p[ws.b.n - 1] == '=') {
		size_t nl = ws.b.n - 1;
		if (ws.b.p[nl - 1] == '+')
			nl--;
		size_t idx = nl;
		if (nl && ws.b.p[nl - 1] == ']') {
			const char *o = memchr(ws.b.p, '[', nl);
			idx = o ? (size_t)(o - ws.b.p) : 0;
		}
		if (sh_is_name(ws.b.p, idx) && !(ws.w->flags & LF_WORD_QUOTED)) {
			struct sh_word **elems = NULL;
			size_t n = 0, cap = 0;
			bashism(p, "array assignment");
			p->i++;
			for (;;) {
				int c = cur(p);
				if (c == ' ' || c == '\t' || c == '\n') {
					p->i++;
					continue;
				}
				if (c == '#') {
					while (p->i < p->len && p->s[p->i] != '\n')
						p->i++;
					continue;
				}
				if (c == ')') {
					p->i++;
					break;
				}
				if (c < 0 || is_meta(c))
					return sh_fail(p, "bad array assignment");
				struct sh_tok et;
				memset(&et, 0, sizeof(et));
				if (lex_word_token(p, 0, &et) < 0)
					return -1;
				if (n == cap) {
					size_t nc = cap ? cap * 2 : 8;
					struct sh_word **ne = sh_alloc(p->a, nc * sizeof(*ne));
					if (!ne)
						return oom(p);
					if (n)
						memcpy(ne, elems, n * sizeof(*ne));
					elems = ne;
					cap = nc;
				}
				elems[n++] = et.word;
			}
			ws.w->elems = elems;
			ws.w->nelems = n;
			ws.w->compound = true;
			wb_put(&ws.b, "(…)", strlen("(…)"));
		}
	}
	if (word_close(p, &ws, start) < 0)
		return -1;
	t->kind = SH_T_WORD;
	t->word = ws.w;
	return 0;
}

int sh_lex_token(struct sh_parser *p, unsigned mode, struct sh_tok *t)
{
	size_t end;
	int c;

	memset(t, 0, sizeof(*t));
	t->fd = -1;
	for (;;) {
		c = cur(p);
		if (c == ' ' || c == '\t') {
			p->i++;
			continue;
		}
		if (c == '#') {
			/* a comment: to the end of the line, continuations kept */
			while (p->i < p->len && p->s[p->i] != '\n')
				p->i++;
			continue;
		}
		break;
	}
	t->start = p->i;
	if (c < 0) {
		t->kind = SH_T_EOF;
		t->end = p->i;
		return 0;
	}
	if (c == '\n') {
		p->i++;
		t->kind = SH_T_NEWLINE;
		t->end = p->i;
		if (!(mode & SH_LX_NOHEREDOC) && p->npending)
			return sh_read_heredocs(p);
		return 0;
	}
	if (mode & SH_LX_COND) {
		if (c == '<' || c == '>') {
			size_t at;
			if (after(p, &at) != '(') {
				t->kind = SH_T_OP;
				t->op = c == '<' ? SH_O_LESS : SH_O_GREATER;
				p->i++;
				t->end = p->i;
				return 0;
			}
		}
	}
	/* an IO number: digits right before a redirection operator */
	if (c >= '0' && c <= '9') {
		size_t save = p->i;
		long fd = 0;
		while ((c = cur(p)) >= '0' && c <= '9') {
			fd = fd < 100000 ? fd * 10 + (c - '0') : fd;
			p->i++;
		}
		size_t at;
		if ((c == '<' || c == '>') && after(p, &at) != '(' && !(mode & SH_LX_COND) &&
		    lex_redir_op(p, t)) {
			t->fd = (int)fd;
			t->end = p->i;
			return 0;
		}
		p->i = save;
		c = cur(p);
	}
	/* {name} right before a redirection operator */
	if (c == '{' && !(mode & SH_LX_COND)) {
		size_t k = p->i + 1;
		while (k < p->len && name_char((unsigned char)p->s[k]))
			k++;
		if (k < p->len && p->s[k] == '}' && k > p->i + 1 && k + 1 < p->len &&
		    (p->s[k + 1] == '<' || p->s[k + 1] == '>') &&
		    !(k + 2 < p->len && p->s[k + 2] == '(') &&
		    sh_is_name(p->s + p->i + 1, k - p->i - 1)) {
			const char *name = sh_strndup(p->a, p->s + p->i + 1, k - p->i - 1);
			if (!name)
				return oom(p);
			size_t save = p->i;
			p->i = k + 1;
			if (lex_redir_op(p, t)) {
				t->fdvar = name;
				t->end = p->i;
				bashism(p, "{fd} redirection");
				return 0;
			}
			p->i = save;
		}
	}
	if ((mode & SH_LX_REGEX) && (c == '(' || c == '|')) {
		if (lex_word_token(p, mode, t) < 0)
			return -1;
		t->end = p->i;
		return 0;
	}
	switch (c) {
	case '&':
		if (lmatch(p, "&&", &end)) {
			t->op = SH_O_AND_AND;
		} else if (lmatch(p, "&>", &end)) {
			lex_redir_op(p, t);
			t->end = p->i;
			return 0;
		} else {
			t->op = SH_O_AMP;
			end = p->i + 1;
		}
		break;
	case '|':
		if (lmatch(p, "||", &end)) {
			t->op = SH_O_OR_OR;
		} else if (lmatch(p, "|&", &end)) {
			t->op = SH_O_PIPE_AND;
			bashism(p, "|&");
		} else {
			t->op = SH_O_PIPE;
			end = p->i + 1;
		}
		break;
	case ';':
		if (lmatch(p, ";;&", &end))
			t->op = SH_O_DSEMI_AMP;
		else if (lmatch(p, ";;", &end))
			t->op = SH_O_DSEMI;
		else if (lmatch(p, ";&", &end))
			t->op = SH_O_SEMI_AMP;
		else {
			t->op = SH_O_SEMI;
			end = p->i + 1;
		}
		break;
	case '(':
		t->op = SH_O_LPAREN;
		end = p->i + 1;
		break;
	case ')':
		t->op = SH_O_RPAREN;
		end = p->i + 1;
		break;
	case '<':
	case '>': {
		size_t at;
		if (after(p, &at) == '(' && !(mode & SH_LX_COND)) {
			if (lex_word_token(p, mode, t) < 0)
				return -1;
			t->end = p->i;
			return 0;
		}
		lex_redir_op(p, t);
		t->end = p->i;
		return 0;
	}
	default:
		if (lex_word_token(p, mode, t) < 0)
			return -1;
		t->end = p->i;
		return 0;
	}
	t->kind = SH_T_OP;
	p->i = end;
	t->end = end;
	return 0;
}

/* ------------------------------------------------------------------------
 * Here-documents.
 */
char *sh_heredoc_delim(struct sh_arena *arena, const char *raw, size_t len, bool *quoted)
{
	char *o = sh_alloc(arena, len + 1), *d = o;
	size_t i = 0;

	*quoted = false;
	if (!o)
		return NULL;
	while (i < len) {
		char c = raw[i];
		if (c == '\\' && i + 1 < len && raw[i + 1] == '\n') {
			/* a line continuation, removed: it quotes nothing */
			i += 2;
		} else if (c == '\\' && i + 1 < len) {
			*d++ = raw[i + 1];
			*quoted = true;
			i += 2;
		} else if (c == '\'') {
			const char *q = memchr(raw + i + 1, '\'', len - i - 1);
			size_t e = q ? (size_t)(q - raw) : len;
			memcpy(d, raw + i + 1, e - i - 1);
			d += e - i - 1;
			*quoted = true;
			i = e + 1;
		} else if (c == '$' && i + 1 < len && raw[i + 1] == '\'') {
			size_t e = i + 2;
			while (e < len && raw[e] != '\'')
				e += raw[e] == '\\' ? 2 : 1;
			if (e > len)
				e = len;
			d = sh_ansi_c_decode(d, raw + i + 2, e - i - 2);
			*quoted = true;
			i = e + 1;
		} else if (c == '"' || (c == '$' && i + 1 < len && raw[i + 1] == '"')) {
			i += c == '$' ? 2 : 1;
			while (i < len && raw[i] != '"') {
				if (raw[i] == '\\' && i + 1 < len &&
				    strchr("$`\"\\\n", raw[i + 1])) {
					if (raw[i + 1] != '\n')
						*d++ = raw[i + 1];
					i += 2;
				} else {
					*d++ = raw[i++];
				}
			}
			i++;
			*quoted = true;
		} else {
			*d++ = c;
			i++;
		}
	}
	*d = '\0';
	return o;
}

/*
 * One here-document body from p->i. An unquoted body's lines are read as
 * bash reads them: a backslash before a newline joins the next line (a
 * backslash escaped by another does not), and the joined line is
 * compared with the delimiter; <<- strips the leading tabs of that line.
 */
static int read_one_heredoc(struct sh_parser *p, struct sh_redir *r)
{
	bool dummy;
	const char *delim;
	size_t dlen, body_start = p->i, body_end;
	bool strip = r->op == SH_R_HEREDOC_STRIP;

	delim = sh_heredoc_delim(p->a, r->target->raw, r->target->rawlen, &dummy);
	if (!delim)
		return oom(p);
	dlen = strlen(delim);
	for (;;) {
		size_t ls = p->i;
		size_t k = ls;
		struct wbuf line;
		wb_init(&line, p->a);
		if (ls >= p->len) {
			body_end = p->len;
			r->unterminated = true;
			break;
		}
		/* one logical line */
		while (k < p->len && p->s[k] != '\n') {
			if (!r->quoted && p->s[k] == '\\' && k + 1 < p->len) {
				if (p->s[k + 1] == '\n') {
					k += 2;
					continue;
				}
				wb_put(&line, p->s + k, 2);
				k += 2;
				continue;
			}
			wb_putc(&line, p->s[k]);
			k++;
		}
		if (line.oom)
			return oom(p);
		const char *l = line.p ? line.p : "";
		size_t ll = line.n;
		if (strip)
			while (ll && *l == '\t') {
				l++;
				ll--;
			}
		p->i = k < p->len ? k + 1 : k;
		if (ll == dlen && !memcmp(l, delim, dlen)) {
			body_end = ls;
			break;
		}
	}
	if (r->quoted) {
		r->body = word_new(p, body_start);
		if (!r->body)
			return oom(p);
		r->body->rawlen = body_end - body_start;
		r->body->text = sh_strndup(p->a, p->s + body_start, body_end - body_start);
		if (!r->body->text)
			return oom(p);
		r->body->len = body_end - body_start;
		r->body->flags = LF_WORD_QUOTED;
		return 0;
	}
	return lex_region(p, body_start, body_end, CX_HEREDOC, &r->body);
}

int sh_read_heredocs(struct sh_parser *p)
{
	size_t n = p->npending;

	p->npending = 0;
	for (size_t k = 0; k < n; k++)
		if (read_one_heredoc(p, p->pending[k]) < 0)
			return -1;
	return 0;
}

struct sh_word *sh_lex_one_word(struct sh_arena *arena, const char *s, size_t len, unsigned depth)
{
	struct sh_parser p;
	struct sh_tok t;

	memset(&p, 0, sizeof(p));
	p.a = arena;
	p.s = s;
	p.len = len;
	p.depth = depth;
	if (len == 0 || sh_lex_token(&p, 0, &t) < 0 || t.kind != SH_T_WORD || p.i != len)
		return NULL;
	return t.word;
}
