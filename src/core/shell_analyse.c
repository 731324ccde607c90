/* SPDX-License-Identifier: MIT */
/*
 * The analysis of a parsed command line: walks the syntax tree
 * (shell_parse.c) in the order bash runs it and reports every part
 * through the callback (shell.h): simple commands (after brace and tilde
 * expansion; through wrappers, shell payloads and substitutions),
 * redirection targets, files the table of programs (shell_table.c) says
 * a command opens, and what cannot be analysed, with its reason. Every
 * expansion that evaluates code or names at run time is found here, on
 * the tree. Pure: no I/O.
 */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/shell_table.h"

struct an {
	lf_shell_emit_fn emit;
	void *ctx;
	struct sh_arena arena;
	const char *home;
	bool cd_scoped; /* the next command part is a scoped cd */
	/* an assignment to a variable that may be exported: every later
	 * command is at best ask */
	const char *later_why;
};

static const char R_CMDSUBST[] = "command substitution";
static const char R_NOT_LITERAL_CMD[] = "the command name is not a literal word";
static const char R_NOT_LITERAL_TARGET[] = "the redirection target is not a literal word";
static const char R_DEPTH[] = "wrappers nested too deeply";

static int walk(struct an *an, const struct sh_node *n, unsigned depth, const char *inherit);

/* ------------------------------------------------------------------------
 * Parts.
 */
static int emit_opaque(struct an *an, const char *text, size_t len, const char *reason)
{
	struct lf_shell_part p = {
		.kind = LF_PART_OPAQUE,
		.text = text,
		.text_len = len,
		.reason = reason,
	};
	return an->emit(an->ctx, &p);
}

static struct lf_shell_word *word_new(struct an *an, const char *text, size_t len, unsigned flags)
{
	struct lf_shell_word *w = sh_alloc(&an->arena, sizeof(*w));
	if (w) {
		w->text = text;
		w->len = len;
		w->flags = flags;
	}
	return w;
}

/* a + "/" + b as a word; unknown when either is. */
static struct lf_shell_word *path_join(struct an *an, const struct lf_shell_word *a,
				       const struct lf_shell_word *b)
{
	size_t n = a->len + 1 + b->len;
	char *t = sh_alloc(&an->arena, n + 1);

	if (!t)
		return NULL;
	memcpy(t, a->text, a->len);
	t[a->len] = '/';
	memcpy(t + a->len + 1, b->text, b->len);
	t[n] = '\0';
	return word_new(an, t, n, (a->flags | b->flags) & ~LF_WORD_BRACE);
}

/* ~ and ~/… with the known home directory. */
static void tilde(struct an *an, struct lf_shell_word *w, const char *raw, size_t rawlen)
{
	if (!(w->flags & LF_WORD_TILDE) || !an->home || !raw || !rawlen || raw[0] != '~')
		return;
	if (!(rawlen == 1 || raw[1] == '/'))
		return;
	size_t hl = strlen(an->home);
	char *t = sh_alloc(&an->arena, hl + w->len + 1);
	if (!t)
		return;
	memcpy(t, an->home, hl);
	memcpy(t + hl, w->text + 1, w->len - 1);
	t[hl + w->len - 1] = '\0';
	w->text = t;
	w->len = hl + w->len - 1;
	w->flags &= ~LF_WORD_TILDE;
}

/* A word that looks like an assignment (NAME=VALUE) given as an argument:
 * bash (outside POSIX mode) expands a tilde at the start of the value and
 * after each unquoted ':' as in an assignment (`dd of=~/x` writes in the
 * home directory). A plain value is expanded with the known home; a value
 * with quotes or expansions holding such a tilde is unknown. (Not after
 * brace expansion: bash leaves `x{,}=~/a` as written.) */
static void assign_tilde(struct an *an, struct lf_shell_word *w, const char *raw, size_t rawlen)
{
	size_t k = 0;

	if (!raw || !rawlen || !(isalpha((unsigned char)raw[0]) || raw[0] == '_'))
		return;
	while (k < rawlen && (isalnum((unsigned char)raw[k]) || raw[k] == '_'))
		k++;
	if (k < rawlen && raw[k] == '+')
		k++;
	if (k >= rawlen || raw[k] != '=' || !memchr(raw + k, '~', rawlen - k))
		return;
	bool plain = !(w->flags & LF_WORD_NOT_LITERAL);
	for (size_t i = k + 1; i < rawlen && plain; i++)
		plain = !strchr("'\"\\$`", raw[i]);
	/* the tildes at the value's start and after a ':' */
	bool any = false, unknown = false;
	for (size_t i = k + 1; i < rawlen; i++) {
		if (raw[i] != '~' || !(raw[i - 1] == '=' || raw[i - 1] == ':'))
			continue;
		any = true;
		size_t e = i + 1;
		if (!(e == rawlen || raw[e] == '/' || raw[e] == ':') || !an->home)
			unknown = true; /* ~user, ~+, ~-, or no home */
	}
	if (!any)
		return;
	if (!plain || unknown) {
		w->flags |= LF_WORD_TILDE;
		return;
	}
	size_t hl = strlen(an->home), n = 0;
	char *t = sh_alloc(&an->arena, rawlen + 1 + hl * rawlen);
	if (!t)
		return;
	for (size_t i = 0; i < rawlen; i++) {
		if (i > k && raw[i] == '~' && (raw[i - 1] == '=' || raw[i - 1] == ':')) {
			memcpy(t + n, an->home, hl);
			n += hl;
		} else {
			t[n++] = raw[i];
		}
	}
	t[n] = '\0';
	w->text = t;
	w->len = n;
}

/* ------------------------------------------------------------------------
 * Brace expansion: `git {push,x}` runs `git push x`, `git pu{s,}h` runs
 * `git push puh`. On the raw word (quotes kept), then each result lexed
 * again. Bounded; beyond the bounds the word is unknown.
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
 * starts none; SIZE_MAX when it is unterminated. */
static size_t brace_skip(const char *s, size_t len, size_t i)
{
	const char *q;
	char c = s[i];

	switch (c) {
	case '\\':
		return i + 2 <= len ? i + 2 : len;
	case '\'':
		q = memchr(s + i + 1, '\'', len - i - 1);
		return q ? (size_t)(q - s) + 1 : SIZE_MAX;
	case '"':
	case '`':
		for (size_t k = i + 1; k < len; k++) {
			if (s[k] == '\\')
				k++;
			else if (s[k] == c)
				return k + 1;
		}
		return SIZE_MAX;
	case '$':
		if (i + 1 < len && (s[i + 1] == '{' || s[i + 1] == '(' || s[i + 1] == '[')) {
			char o = s[i + 1], cl = o == '{' ? '}' : o == '(' ? ')' : ']';
			unsigned level = 0;
			for (size_t k = i + 1; k < len; k++) {
				if (s[k] == '\\')
					k++;
				else if (s[k] == o)
					level++;
				else if (s[k] == cl && --level == 0)
					return k + 1;
			}
			return SIZE_MAX;
		}
		if (i + 1 < len && s[i + 1] == '\'') {
			for (size_t k = i + 2; k < len; k++) {
				if (s[k] == '\\')
					k++;
				else if (s[k] == '\'')
					return k + 1;
			}
			return SIZE_MAX;
		}
		return i + 1;
	default:
		return i;
	}
}

static bool brace_add(struct an *an, struct braces *b, const char *parts[3], const size_t lens[3])
{
	size_t n = lens[0] + lens[1] + lens[2];

	if (b->n >= BRACE_MAX_WORDS) {
		b->unsure = true;
		return false;
	}
	char *o = sh_alloc(&an->arena, n + 1);
	if (!o)
		return false;
	for (int k = 0, at = 0; k < 3; at += (int)lens[k], k++)
		memcpy(o + at, parts[k], lens[k]);
	o[n] = '\0';
	b->v[b->n] = o;
	b->len[b->n++] = n;
	return true;
}

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

static int brace_expand(struct an *an, const char *s, size_t len, struct braces *b, unsigned depth);

/* {X..Y} or {X..Y..S} in s[open+1 .. close); *done false: not one. */
static int brace_sequence(struct an *an, const char *s, size_t len, size_t open, size_t close,
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
	bool letters = xl == 1 && yl == 1 && ((in[0] | 0x20) >= 'a' && (in[0] | 0x20) <= 'z') &&
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

static int brace_expand(struct an *an, const char *s, size_t len, struct braces *b, unsigned depth)
{
	if (depth > BRACE_MAX_DEPTH) {
		b->unsure = true;
		return 0;
	}
	for (size_t i = 0; i < len;) {
		size_t e = brace_skip(s, len, i);
		if (e == SIZE_MAX)
			break;
		if (e != i) {
			i = e;
			continue;
		}
		if (s[i] != '{') {
			i++;
			continue;
		}
		size_t commas[BRACE_MAX_WORDS], nc = 0, j = i + 1;
		unsigned level = 1;
		while (j < len) {
			size_t f = brace_skip(s, len, j);
			if (f == SIZE_MAX) {
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
				return b->unsure ? 0 : -ENOMEM;
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

/* A growable array of words. */
struct wordv {
	struct lf_shell_word *v;
	size_t n, cap;
};

static int wv_push(struct an *an, struct wordv *wv, const struct lf_shell_word *w)
{
	if (wv->n == wv->cap) {
		size_t cap = wv->cap ? wv->cap * 2 : 16;
		struct lf_shell_word *v = sh_alloc(&an->arena, cap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		if (wv->n)
			memcpy(v, wv->v, wv->n * sizeof(*v));
		wv->v = v;
		wv->cap = cap;
	}
	wv->v[wv->n++] = *w;
	return 0;
}

/*
 * "$(cat <<'EOF' … EOF)": a command substitution whose output is known,
 * the body of a quoted here-document (the way agents write a commit
 * message). The word is that text, trailing newlines removed as bash
 * removes them. false for any other word.
 */
static bool comsub_literal(const struct sh_word *w, const char **text, size_t *len)
{
	const struct sh_exp *e = w->exps;

	if (!e || e->next || e->kind != SH_EXP_CMDSUB || w->rawlen < 5 || w->raw[0] != '"' ||
	    w->raw[1] != '$' || w->raw[2] != '(' || w->raw[w->rawlen - 1] != '"' ||
	    w->raw[w->rawlen - 2] != ')')
		return false;
	const struct sh_node *b = e->body;
	if (!b || b->kind != SH_SIMPLE || b->u.simple.assigns || b->u.simple.nwords != 1 ||
	    b->u.simple.words[0]->flags || strcmp(b->u.simple.words[0]->text, "cat") != 0)
		return false;
	const struct sh_redir *r = b->redirs;
	if (!r || r->next || (r->op != SH_R_HEREDOC && r->op != SH_R_HEREDOC_STRIP) || !r->quoted ||
	    r->unterminated || !r->body || r->fd > 0)
		return false;
	size_t n = r->body->len;
	while (n && r->body->text[n - 1] == '\n')
		n--;
	*text = r->body->text;
	*len = n;
	return true;
}

/* The words one parsed word becomes before it is run (brace and tilde
 * expansion done; other expansions kept as written and flagged). */
static int push_word(struct an *an, struct wordv *wv, const struct sh_word *sw, unsigned depth)
{
	struct lf_shell_word w = { sw->text, sw->len, sw->flags };
	const char *lt;
	size_t ll;

	if (comsub_literal(sw, &lt, &ll)) {
		w = (struct lf_shell_word){ sh_strndup(&an->arena, lt, ll), ll, LF_WORD_QUOTED };
		if (!w.text)
			return -ENOMEM;
		return wv_push(an, wv, &w);
	}
	if (!(sw->flags & LF_WORD_BRACE)) {
		tilde(an, &w, sw->raw, sw->rawlen);
		assign_tilde(an, &w, sw->raw, sw->rawlen);
		return wv_push(an, wv, &w);
	}
	struct braces *b = sh_alloc(&an->arena, sizeof(*b));
	if (!b)
		return -ENOMEM;
	/* scanning for groups is quadratic in the worst case: bound it */
	b->unsure = sw->rawlen > 4096;
	int r = b->unsure ? 0 : brace_expand(an, sw->raw, sw->rawlen, b, 0);
	if (r < 0)
		return r;
	if (b->unsure) {
		w.flags |= LF_WORD_EXPANSION;
		return wv_push(an, wv, &w);
	}
	for (size_t k = 0; k < b->n; k++) {
		if (b->len[k] == 0)
			continue; /* an unquoted empty result is no word */
		struct sh_word *x = sh_lex_one_word(&an->arena, b->v[k], b->len[k], depth);
		struct lf_shell_word one;
		if (!x) {
			/* an expansion the lexer cannot read alone: unknown */
			one = (struct lf_shell_word){ b->v[k], b->len[k], LF_WORD_EXPANSION };
		} else {
			/* an unquoted empty result is no word at all */
			if (x->len == 0 && !(x->flags & LF_WORD_QUOTED))
				continue;
			one = (struct lf_shell_word){ x->text, x->len, x->flags & ~LF_WORD_BRACE };
			tilde(an, &one, x->raw, x->rawlen);
		}
		if ((r = wv_push(an, wv, &one)) < 0)
			return r;
	}
	return 0;
}

/* ------------------------------------------------------------------------
 * What words evaluate at run time.
 */
static bool subscript_literal(const struct sh_word *w)
{
	if (!w)
		return true;
	if (w->exps || (w->flags & (LF_WORD_EXPANSION | LF_WORD_SUBST)))
		return false;
	if (w->len == 1 && (w->text[0] == '@' || w->text[0] == '*'))
		return true;
	return sh_arith_literal(w->text, w->len);
}

static bool arith_word_literal(const struct sh_word *w)
{
	return !w || (!w->exps && !(w->flags & (LF_WORD_EXPANSION | LF_WORD_SUBST)) &&
		      sh_arith_literal(w->text, w->len));
}

static int scan_word(struct an *an, const struct sh_word *w, unsigned depth, const char **why);

static void set_why(const char **why, const char *r)
{
	if (!*why)
		*why = r;
}

/* Walks the expansions of w: substitution bodies are analysed (their
 * parts reported), and the first reason why the word evaluates code or
 * names at run time is stored in *why. */
static int scan_word(struct an *an, const struct sh_word *w, unsigned depth, const char **why)
{
	int r;

	if (!w)
		return 0;
	for (const struct sh_exp *e = w->exps; e; e = e->next) {
		switch (e->kind) {
		case SH_EXP_PARAM: {
			const struct sh_param *pm = &e->param;
			if (pm->flags & SH_PARAM_INDIRECT)
				set_why(why,
					"an indirect expansion ${!name} names a variable at run "
					"time");
			if (pm->op == SH_POP_TRANSFORM)
				set_why(why, "a ${name@op} transformation");
			if (pm->op == SH_POP_BAD)
				set_why(why, "a parameter expansion bash rejects when it runs");
			if (pm->flags & SH_PARAM_ASSIGN) {
				/* ${NAME:=word} assigns like NAME=word, and before
				 * the command it is a word of runs: the same
				 * variables decide what this and later commands
				 * run (${CDPATH:=/usr}; cd src) */
				const char *as = sh_assign_reason(pm->name, strlen(pm->name));
				if (as) {
					set_why(why, as);
					if (!an->later_why)
						an->later_why = as;
				}
			}
			if (pm->op == SH_POP_SUBSTR &&
			    (!arith_word_literal(pm->arg) || !arith_word_literal(pm->arg2)))
				set_why(why,
					"an offset or length is arithmetic on values not written "
					"in the line");
			if (!subscript_literal(pm->index))
				set_why(why,
					"an array subscript is arithmetic on values not written "
					"in the line");
			if ((r = scan_word(an, pm->index, depth, why)) != 0 ||
			    (r = scan_word(an, pm->arg, depth, why)) != 0 ||
			    (r = scan_word(an, pm->arg2, depth, why)) != 0)
				return r;
			break;
		}
		case SH_EXP_CMDSUB:
		case SH_EXP_BQUOTE:
		case SH_EXP_PROCSUB:
			if ((r = walk(an, e->body, depth + 1, NULL)) != 0)
				return r;
			break;
		case SH_EXP_ARITH:
			if (!arith_word_literal(e->expr))
				set_why(why, "arithmetic on values not written in the line can run "
					     "commands");
			if ((r = scan_word(an, e->expr, depth, why)) != 0)
				return r;
			break;
		case SH_EXP_LOCALE:
			set_why(why, "a $\"...\" string is translated and then expanded again");
			break;
		}
	}
	/* NAME=( … ) elements and their [key]= subscripts */
	for (size_t k = 0; k < w->nelems; k++) {
		const struct sh_word *el = w->elems[k];
		if (el->rawlen && el->raw[0] == '[') {
			const char *close = memchr(el->text, ']', el->len);
			if (!close ||
			    !sh_arith_literal(el->text + 1, (size_t)(close - el->text - 1)))
				set_why(why,
					"an array subscript is arithmetic on values not written in "
					"the line");
		}
		if ((r = scan_word(an, el, depth, why)) != 0)
			return r;
	}
	return 0;
}

/* ------------------------------------------------------------------------
 * Commands.
 */
static int analyse_command(struct an *an, const struct lf_shell_word *argv, size_t argc,
			   const char *reason, unsigned depth, bool open, bool wrapped,
			   const struct lf_shell_word *base);

/* A shell string: parsed and walked one level deeper. */
static int analyse_string(struct an *an, const char *text, size_t len, unsigned depth,
			  unsigned popts)
{
	struct sh_parse_result res;
	int r;

	if (depth > LF_SHELL_MAX_DEPTH)
		return emit_opaque(an, text, len, "nested too deeply");
	r = sh_parse(&an->arena, text, len, 0, popts, &res);
	if (r < 0)
		return r;
	if ((r = walk(an, res.root, depth, NULL)) != 0)
		return r;
	if (res.error) {
		size_t at = res.error_at < len ? res.error_at : len;
		size_t from = at > 30 ? at - 30 : 0;
		return emit_opaque(an, text + from, len - from < 60 ? len - from : 60, res.error);
	}
	if (res.bashism)
		return emit_opaque(an, text, len, "sh reads this differently from bash");
	return 0;
}

static int effect(struct an *an, const struct sh_eff *e, const struct lf_shell_word *argv,
		  size_t argc, const char *inherit, unsigned depth)
{
	switch (e->kind) {
	case SH_EF_FILE: {
		const struct lf_shell_word *t = e->word;
		struct lf_shell_word *tw = word_new(an, t->text, t->len, t->flags);
		if (!tw)
			return -ENOMEM;
		tilde(an, tw, t->text, t->len);
		if (e->base && tw->text[0] != '/' && tw->len) {
			struct lf_shell_word *bw =
				word_new(an, e->base->text, e->base->len, e->base->flags);
			if (!bw)
				return -ENOMEM;
			tilde(an, bw, e->base->text, e->base->len);
			tw = path_join(an, bw, tw);
			if (!tw)
				return -ENOMEM;
		}
		struct lf_shell_part p = {
			.kind = LF_PART_FILE,
			.argv = argv,
			.argc = argc,
			.target = tw,
			.cap = e->cap,
			.sure = e->sure,
			.tree = e->tree,
			.link = e->link,
			.code = e->code,
			.conf = e->conf,
			.wrapped = depth > 0,
		};
		return an->emit(an->ctx, &p);
	}
	case SH_EF_CMD:
		if (e->words)
			return analyse_command(an, e->words, e->nwords, inherit, depth + 1, e->open,
					       true, e->base);
		return analyse_command(an, argv + e->from, e->to - e->from, inherit, depth + 1,
				       e->open, true, e->base);
	case SH_EF_LINE:
		if (e->word->flags & LF_WORD_NOT_LITERAL)
			return emit_opaque(an, e->word->text, e->word->len, e->reason);
		if (e->base)
			/* its relative paths are in another directory than the line's */
			return emit_opaque(an, e->word->text, e->word->len,
					   "a command string run in another directory (-C)");
		return analyse_string(an, e->word->text, e->word->len, depth + 1, e->parse_opts);
	case SH_EF_JOINED: {
		size_t need = 1;
		if (e->base)
			return emit_opaque(an, argv[e->from].text, argv[e->from].len,
					   "a command string run in another directory (-C)");
		for (size_t i = e->from; i < e->to; i++) {
			if (argv[i].flags & LF_WORD_NOT_LITERAL)
				return emit_opaque(an, argv[i].text, argv[i].len, e->reason);
			need += argv[i].len + 1;
		}
		char *buf = sh_alloc(&an->arena, need), *o = buf;
		if (!buf)
			return -ENOMEM;
		for (size_t i = e->from; i < e->to; i++) {
			if (i > e->from)
				*o++ = ' ';
			memcpy(o, argv[i].text, argv[i].len);
			o += argv[i].len;
		}
		*o = '\0';
		return analyse_string(an, buf, (size_t)(o - buf), depth + 1, e->parse_opts);
	}
	case SH_EF_ARGV: {
		struct lf_shell_part p = {
			.kind = LF_PART_COMMAND,
			.argv = e->words,
			.argc = e->nwords,
			.wrapped = true,
		};
		return an->emit(an->ctx, &p);
	}
	case SH_EF_REASON:
		break;
	}
	return 0;
}

/*
 * A simple command as it will run: its part, then what the table says it
 * opens and runs. reason: why the command is at best ask already (from
 * its words); the table's reasons are added.
 */
static int analyse_command(struct an *an, const struct lf_shell_word *argv, size_t argc,
			   const char *reason, unsigned depth, bool open, bool wrapped,
			   const struct lf_shell_word *base)
{
	struct sh_effs effs = { 0 };
	bool weak = false;
	int r;

	if (argc == 0)
		return 0;
	if (depth > LF_SHELL_MAX_DEPTH)
		return emit_opaque(an, argv[0].text, argv[0].len, R_DEPTH);
	if (argv[0].flags & LF_WORD_NOT_LITERAL) {
		reason = reason ? reason : R_NOT_LITERAL_CMD;
	} else {
		if (sh_table_effects(&an->arena, argv, argc, &effs) < 0)
			return -ENOMEM;
		for (size_t k = 0; k < effs.n && !reason; k++)
			if (effs.v[k].kind == SH_EF_REASON) {
				reason = effs.v[k].reason;
				weak = effs.v[k].weak;
			}
	}
	struct lf_shell_part p = {
		.kind = LF_PART_COMMAND,
		.argv = argv,
		.argc = argc,
		.open_args = open,
		.wrapped = wrapped,
		.reason = reason,
		.reason_weak = weak,
		.cd_scoped = an->cd_scoped,
	};
	an->cd_scoped = false;
	if (!p.reason && an->later_why) {
		p.reason = an->later_why;
		p.reason_weak = false;
	}
	if ((r = an->emit(an->ctx, &p)) != 0)
		return r;
	for (size_t k = 0; k < effs.n; k++) {
		struct sh_eff e = effs.v[k];
		if (!e.base)
			e.base = base;
		if ((r = effect(an, &e, argv, argc, NULL, depth)) != 0)
			return r;
	}
	return 0;
}

static bool harmless_dev(const char *t)
{
	static const char *const dev[] = { "/dev/null", "/dev/stdout", "/dev/stderr",
					   "/dev/tty",	"/dev/stdin",  NULL };
	for (size_t k = 0; dev[k]; k++)
		if (!strcmp(t, dev[k]))
			return true;
	return false;
}

static bool fd_word(const struct sh_word *w)
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

/* The redirections of a command: their words are expanded first (their
 * substitutions run), then each target is a file opened for reading or
 * writing. */
static int walk_redirs(struct an *an, const struct sh_redir *rd, unsigned depth)
{
	int r;

	for (; rd; rd = rd->next) {
		const char *why = NULL;
		if (rd->op == SH_R_HEREDOC || rd->op == SH_R_HEREDOC_STRIP) {
			if (rd->body && !rd->quoted &&
			    (r = scan_word(an, rd->body, depth, &why)) != 0)
				return r;
			if (rd->unterminated &&
			    (r = emit_opaque(an, rd->target->text, rd->target->len,
					     "unterminated here-document")) != 0)
				return r;
			if (why &&
			    (r = emit_opaque(an, rd->target->text, rd->target->len, why)) != 0)
				return r;
			continue;
		}
		if ((r = scan_word(an, rd->target, depth, &why)) != 0)
			return r;
		if (rd->op == SH_R_HERESTRING) {
			if (why &&
			    (r = emit_opaque(an, rd->target->text, rd->target->len, why)) != 0)
				return r;
			continue;
		}
		if ((rd->op == SH_R_DUP_IN || rd->op == SH_R_DUP_OUT) && fd_word(rd->target))
			continue;
		if (rd->fdvar) {
			/* {NAME}> assigns the descriptor's number to NAME
			 * (exec {PATH}>x leaves PATH=10) */
			const char *as = sh_assign_reason(rd->fdvar, strlen(rd->fdvar));
			if (as && !an->later_why)
				an->later_why = as;
		}
		struct lf_shell_word *t =
			word_new(an, rd->target->text, rd->target->len, rd->target->flags);
		if (!t)
			return -ENOMEM;
		tilde(an, t, rd->target->raw, rd->target->rawlen);
		if (!(t->flags & LF_WORD_NOT_LITERAL) && harmless_dev(t->text))
			continue;
		if (!(t->flags & LF_WORD_NOT_LITERAL) &&
		    (!strncmp(t->text, "/dev/fd/", 8) || !strncmp(t->text, "/proc/self/fd/", 14))) {
			const char *d = t->text + (t->text[1] == 'd' ? 8 : 14);
			size_t k = 0;
			while (d[k] >= '0' && d[k] <= '9')
				k++;
			if (k && !d[k])
				continue;
		}
		if (!(t->flags & LF_WORD_NOT_LITERAL) &&
		    (!strncmp(t->text, "/dev/tcp/", 9) || !strncmp(t->text, "/dev/udp/", 9)))
			why = why ? why : "a network connection bash opens itself";
		if (t->flags & LF_WORD_NOT_LITERAL)
			why = why ? why : R_NOT_LITERAL_TARGET;
		struct lf_shell_part p = {
			.kind = LF_PART_REDIRECT,
			.target = t,
			.op = sh_redir_text[rd->op],
			.reason = why,
		};
		switch (rd->op) {
		case SH_R_IN:
		case SH_R_DUP_IN:
			p.cap = LF_CAP_READ;
			break;
		case SH_R_RW:
			p.cap = LF_CAP_READ;
			if ((r = an->emit(an->ctx, &p)) != 0)
				return r;
			p.cap = LF_CAP_WRITE;
			break;
		default:
			p.cap = LF_CAP_WRITE;
			break;
		}
		if ((r = an->emit(an->ctx, &p)) != 0)
			return r;
	}
	return 0;
}

/* Why a word holding a substitution is not known before it runs. */
static const char *subst_reason(const struct sh_word *w)
{
	for (const struct sh_exp *e = w->exps; e; e = e->next) {
		if (e->kind == SH_EXP_BQUOTE)
			return "command substitution (backquotes)";
		if (e->kind == SH_EXP_PROCSUB)
			return "process substitution";
		if (e->kind == SH_EXP_CMDSUB)
			return R_CMDSUBST;
	}
	return R_CMDSUBST;
}

static int walk_simple(struct an *an, const struct sh_node *n, unsigned depth, const char *inherit)
{
	const char *reason = inherit, *why = NULL, *standalone = NULL;
	struct wordv wv = { 0 };
	bool has_words = n->u.simple.nwords > 0;
	int r;

	/* assignments: what their values expand, and what they set */
	for (const struct sh_assign *as = n->u.simple.assigns; as; as = as->next) {
		if (as->index && !subscript_literal(as->index))
			set_why(&why,
				"an array subscript is arithmetic on values not written in the "
				"line");
		if ((r = scan_word(an, as->value ? as->value : as->word, depth, &why)) != 0)
			return r;
		size_t nl = strlen(as->name);
		if (has_words) {
			const char *e = sh_env_reason(as->name, nl);
			if (e && !reason)
				reason = e;
		} else if (!standalone) {
			standalone = sh_var_reason(as->name, nl);
			if (!an->later_why)
				an->later_why = sh_assign_reason(as->name, nl);
		}
	}
	for (size_t k = 0; k < n->u.simple.nwords; k++) {
		const struct sh_word *w = n->u.simple.words[k];
		if ((r = scan_word(an, w, depth, &why)) != 0)
			return r;
		const char *lt;
		size_t ll;
		if ((w->flags & LF_WORD_SUBST) && !reason && !comsub_literal(w, &lt, &ll))
			reason = subst_reason(w);
	}
	if (!reason)
		reason = why;
	if ((r = walk_redirs(an, n->redirs, depth)) != 0)
		return r;
	if (!has_words) {
		const char *what = standalone ? standalone : why;
		if (what && n->u.simple.assigns) {
			const struct sh_word *w = n->u.simple.assigns->word;
			return emit_opaque(an, w->raw, w->rawlen, what);
		}
		return 0;
	}
	for (size_t k = 0; k < n->u.simple.nwords; k++)
		if ((r = push_word(an, &wv, n->u.simple.words[k], depth)) < 0)
			return r;
	return analyse_command(an, wv.v, wv.n, reason, depth, false, false, NULL);
}

/* [[ … ]]: the operands of arithmetic comparisons and of -v are
 * evaluated. */
static int walk_cond(struct an *an, const struct sh_node *n, unsigned depth)
{
	const struct sh_cond_term *t = n->u.test.terms;
	size_t nt = n->u.test.nterms;
	const char *why = NULL;
	int r;

	for (size_t k = 0; k < nt; k++) {
		if (t[k].word && (r = scan_word(an, t[k].word, depth, &why)) != 0)
			return r;
		if (t[k].kind == SH_CT_BINARY && t[k].word && t[k].word->len == 3 &&
		    t[k].word->text[0] == '-' && strcmp(t[k].word->text, "-nt") != 0 &&
		    strcmp(t[k].word->text, "-ot") != 0 && strcmp(t[k].word->text, "-ef") != 0) {
			/* -eq -ne -lt -le -gt -ge: both sides are arithmetic */
			if ((k > 0 && !arith_word_literal(t[k - 1].word)) ||
			    (k + 1 < nt && !arith_word_literal(t[k + 1].word)))
				set_why(&why,
					"an arithmetic comparison in [[ ]] evaluates values not "
					"written in the line");
		}
		if (t[k].kind == SH_CT_UNARY && t[k].word &&
		    (!strcmp(t[k].word->text, "-v") || !strcmp(t[k].word->text, "-R")) &&
		    k + 1 < nt && t[k + 1].word) {
			const struct sh_word *v = t[k + 1].word;
			if ((v->flags & LF_WORD_NOT_LITERAL) || memchr(v->text, '[', v->len))
				set_why(&why,
					"[[ -v ]] evaluates a variable name and its subscript");
		}
	}
	if (why)
		return emit_opaque(an, "[[", 2, why);
	return 0;
}

/* `cd DIR` (or pushd, -L, -P) with DIR a literal word: a command after
 * it in an && chain runs in DIR. */
static const struct sh_word *cd_dir(const struct sh_node *x)
{
	if (!x || x->kind != SH_SIMPLE || x->u.simple.assigns || x->u.simple.nwords < 2 ||
	    x->u.simple.nwords > 3)
		return NULL;
	const struct sh_word *const *w = (const struct sh_word *const *)x->u.simple.words;
	size_t n = x->u.simple.nwords;
	if (w[0]->flags || (strcmp(w[0]->text, "cd") != 0 && strcmp(w[0]->text, "pushd") != 0))
		return NULL;
	if (n == 3 &&
	    (w[1]->flags || (strcmp(w[1]->text, "-L") != 0 && strcmp(w[1]->text, "-P") != 0)))
		return NULL;
	const struct sh_word *d = w[n - 1];
	if ((d->flags & (LF_WORD_NOT_LITERAL | LF_WORD_BRACE)) || !d->len || d->text[0] == '-' ||
	    d->text[0] == '+')
		return NULL;
	return d;
}

/* The cd at the bottom of an && chain, or NULL. */
static const struct sh_node *and_cd_leaf(const struct sh_node *n)
{
	if (!n || n->kind != SH_AND)
		return NULL;
	while (n->kind == SH_AND)
		n = n->u.bin.left;
	return cd_dir(n) ? n : NULL;
}

static int walk(struct an *an, const struct sh_node *n, unsigned depth, const char *inherit)
{
	const char *why = NULL;
	int r;

	if (!n)
		return 0;
	switch (n->kind) {
	case SH_SIMPLE:
		return walk_simple(an, n, depth, inherit);
	case SH_PIPE:
	case SH_AND:
	case SH_OR:
	case SH_SEQ: {
		/* lists are left-deep (a; b; c is ((a; b); c)): their left
		 * spine is walked with a stack of its own, not by recursion */
		size_t ns = 0, cap = 64;
		const struct sh_node *inl[64], **stack = inl;
		const struct sh_node *x = n;
		const struct sh_node *leaf = and_cd_leaf(n);
		if (leaf) {
			/* cd DIR && a && b: a and b run in DIR */
			while (x->kind == SH_AND) {
				if (ns == cap) {
					const struct sh_node **s2 =
						sh_alloc(&an->arena, cap * 2 * sizeof(*s2));
					if (!s2)
						return -ENOMEM;
					memcpy(s2, stack, ns * sizeof(*s2));
					stack = s2;
					cap *= 2;
				}
				stack[ns++] = x;
				x = x->u.bin.left;
			}
			const struct sh_word *d = cd_dir(leaf);
			struct lf_shell_word dw = { d->text, d->len, d->flags };
			tilde(an, &dw, d->raw, d->rawlen);
			an->cd_scoped = true;
			r = walk(an, leaf, depth, inherit);
			an->cd_scoped = false;
			if (r != 0)
				return r;
			struct lf_shell_part p = { .kind = LF_PART_CWD,
						   .target = &dw,
						   .push = true };
			if ((r = an->emit(an->ctx, &p)) != 0)
				return r;
			while (ns)
				if ((r = walk(an, stack[--ns]->u.bin.right, depth, inherit)) != 0)
					return r;
			struct lf_shell_part q = { .kind = LF_PART_CWD };
			return an->emit(an->ctx, &q);
		}
		while (x &&
		       (x->kind == SH_PIPE || x->kind == SH_AND || x->kind == SH_OR ||
			x->kind == SH_SEQ) &&
		       !(x != n && and_cd_leaf(x))) {
			if (ns == cap) {
				const struct sh_node **ns2 =
					sh_alloc(&an->arena, cap * 2 * sizeof(*ns2));
				if (!ns2)
					return -ENOMEM;
				memcpy(ns2, stack, ns * sizeof(*ns2));
				stack = ns2;
				cap *= 2;
			}
			stack[ns++] = x;
			x = x->u.bin.left;
		}
		if ((r = walk(an, x, depth, inherit)) != 0)
			return r;
		while (ns)
			if ((r = walk(an, stack[--ns]->u.bin.right, depth, inherit)) != 0)
				return r;
		return 0;
	}
	case SH_ASYNC:
	case SH_NOT:
	case SH_TIME:
	case SH_SUBSHELL:
	case SH_GROUP:
		if ((r = walk_redirs(an, n->redirs, depth)) != 0)
			return r;
		return walk(an, n->u.un.body, depth, inherit);
	case SH_IF:
	case SH_WHILE:
	case SH_UNTIL:
		if ((r = walk_redirs(an, n->redirs, depth)) != 0 ||
		    (r = walk(an, n->u.cond.cond, depth, inherit)) != 0 ||
		    (r = walk(an, n->u.cond.then, depth, inherit)) != 0)
			return r;
		return walk(an, n->u.cond.els, depth, inherit);
	case SH_FOR:
	case SH_SELECT:
		if ((r = walk_redirs(an, n->redirs, depth)) != 0)
			return r;
		for (size_t k = 0; k < n->u.loop.nwords; k++)
			if ((r = scan_word(an, n->u.loop.words[k], depth, &why)) != 0)
				return r;
		if (!why)
			why = sh_var_reason(n->u.loop.name, strlen(n->u.loop.name));
		if (why && (r = emit_opaque(an, n->u.loop.name, strlen(n->u.loop.name), why)) != 0)
			return r;
		return walk(an, n->u.loop.body, depth, inherit);
	case SH_ARITH_FOR:
	case SH_ARITH_CMD: {
		const struct sh_word *e =
			n->kind == SH_ARITH_FOR ? n->u.afor.exprs[0] : n->u.arith.expr;
		if ((r = walk_redirs(an, n->redirs, depth)) != 0 ||
		    (r = scan_word(an, e, depth, &why)) != 0)
			return r;
		if (!arith_word_literal(e))
			set_why(&why, "arithmetic evaluation can run commands");
		if (why && (r = emit_opaque(an, e ? e->text : "((", e ? e->len : 2, why)) != 0)
			return r;
		return n->kind == SH_ARITH_FOR ? walk(an, n->u.afor.body, depth, inherit) : 0;
	}
	case SH_CASE:
		if ((r = walk_redirs(an, n->redirs, depth)) != 0 ||
		    (r = scan_word(an, n->u.kase.word, depth, &why)) != 0)
			return r;
		for (size_t k = 0; k < n->u.kase.nitems; k++) {
			const struct sh_case_item *it = &n->u.kase.items[k];
			for (size_t j = 0; j < it->npatterns; j++)
				if ((r = scan_word(an, it->patterns[j], depth, &why)) != 0)
					return r;
			if ((r = walk(an, it->body, depth, inherit)) != 0)
				return r;
		}
		if (why)
			return emit_opaque(an, n->u.kase.word->text, n->u.kase.word->len, why);
		return 0;
	case SH_COND:
		if ((r = walk_redirs(an, n->redirs, depth)) != 0)
			return r;
		return walk_cond(an, n, depth);
	case SH_FUNCDEF: /* the body is judged where it is written */
	case SH_COPROC:
		if ((r = walk_redirs(an, n->redirs, depth)) != 0 ||
		    (r = walk(an, n->u.func.body, depth, inherit)) != 0)
			return r;
		if (n->kind == SH_COPROC && n->u.func.name && !an->later_why) {
			/* the shell then sets the array NAME to two
			 * descriptor numbers: coproc PATH { :; } leaves
			 * PATH=63 (an array is never exported) */
			const struct sh_word *w = n->u.func.name;
			an->later_why = sh_var_reason(w->text, w->len);
		}
		return 0;
	}
	return 0;
}

/* ------------------------------------------------------------------------
 * Entry points.
 */
int lf_shell_analyse_opts(const char *line, size_t len, const struct lf_shell_opts *opts,
			  lf_shell_emit_fn emit, void *ctx)
{
	struct an *an;
	struct sh_parse_result res;
	int r;

	if (!line || !emit)
		return -EINVAL;
	an = malloc(sizeof(*an)); /* not zeroed: the arena's first block is large */
	if (!an)
		return -ENOMEM;
	an->emit = emit;
	an->cd_scoped = false;
	an->later_why = NULL;
	an->ctx = ctx;
	an->home = opts && opts->home && opts->home[0] == '/' ? opts->home : NULL;
	sh_arena_init(&an->arena);
	r = sh_parse(&an->arena, line, len, 0, 0, &res);
	if (r == 0)
		r = walk(an, res.root, 0, NULL);
	if (r == 0 && res.error) {
		/* shown: the text around where the parser stopped */
		size_t at = res.error_at < len ? res.error_at : len;
		size_t from = at > 30 ? at - 30 : 0;
		size_t n = len - from < 60 ? len - from : 60;
		r = emit_opaque(an, line + from, n, res.error);
	}
	sh_arena_fini(&an->arena);
	free(an);
	return r;
}

int lf_shell_analyse(const char *line, size_t len, lf_shell_emit_fn emit, void *ctx)
{
	return lf_shell_analyse_opts(line, len, NULL, emit, ctx);
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
	case LF_PART_FILE:
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
	case LF_PART_CWD:
		if (part->push) {
			out_put(&o, "cd ", 3);
			out_put(&o, part->target->text, part->target->len);
		}
		break;
	}
	/* a line break inside a part would break one-line output */
	for (size_t k = 0; k < o.n; k++)
		if (buf[k] == '\n' || buf[k] == '\t' || buf[k] == '\r')
			buf[k] = ' ';
	buf[o.n] = '\0';
}
