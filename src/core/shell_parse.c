/* SPDX-License-Identifier: MIT */
/*
 * A recursive-descent parser for the bash grammar (bash's parse.y is the
 * reference; doc/shell.md lists what is covered): lists, pipelines, `!`,
 * `time`, simple commands with assignments and redirections, subshells,
 * groups, if, while, until, for, select, arithmetic for, case, [[ ]],
 * (( )), function definitions (both forms) and coproc. Tokens come from
 * shell_lex.c. Pure: no I/O.
 *
 * Like `bash -c`, the text is taken one complete command (a line, with
 * what it continues onto) at a time: a syntax error stops the parse, and
 * the commands of earlier lines are kept, since bash has run them by the
 * time it meets the error.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/shell_lex.h"

/* Reserved words that end a compound list. */
#define RW_THEN 0x001u
#define RW_ELSE 0x002u
#define RW_ELIF 0x004u
#define RW_FI 0x008u
#define RW_DO 0x010u
#define RW_DONE 0x020u
#define RW_ESAC 0x040u
#define RW_RBRACE 0x080u
#define STOP_RPAREN 0x100u /* ')' */
#define STOP_DSEMI 0x200u  /* ;; ;& ;;& */

static const struct {
	const char *word;
	unsigned bit;
} stop_words[] = {
	{ "then", RW_THEN }, { "else", RW_ELSE }, { "elif", RW_ELIF }, { "fi", RW_FI },
	{ "do", RW_DO },     { "done", RW_DONE }, { "esac", RW_ESAC }, { "}", RW_RBRACE },
};

static int oom(struct sh_parser *p)
{
	p->nomem = true;
	return -1;
}

/* ------------------------------------------------------------------------
 * Tokens with one token of lookahead.
 */
static int peek(struct sh_parser *p, unsigned mode, struct sh_tok **t)
{
	if (p->have) {
		if (p->tok.kind != SH_T_WORD || p->tok_mode == mode) {
			*t = &p->tok;
			return 0;
		}
		/* a word read in another mode: read it again */
		p->i = p->tok.start;
		p->error = p->tok_err;
		p->error_at = p->tok_err_at;
		p->have = false;
	}
	p->tok_err = p->error;
	p->tok_err_at = p->error_at;
	if (sh_lex_token(p, mode, &p->tok) < 0)
		return -1;
	p->have = true;
	p->tok_mode = mode;
	*t = &p->tok;
	return 0;
}

static void consume(struct sh_parser *p)
{
	p->have = false;
}

static bool is_word(const struct sh_tok *t, const char *lit)
{
	return t->kind == SH_T_WORD && t->word->flags == 0 && !t->word->exps &&
	       !strcmp(t->word->text, lit);
}

static bool is_op(const struct sh_tok *t, int op)
{
	return t->kind == SH_T_OP && t->op == op;
}

static unsigned stop_bit(const struct sh_tok *t)
{
	if (t->kind != SH_T_WORD || t->word->flags || t->word->exps || t->word->len > 4)
		return 0;
	for (size_t k = 0; k < sizeof(stop_words) / sizeof(stop_words[0]); k++)
		if (!strcmp(t->word->text, stop_words[k].word))
			return stop_words[k].bit;
	return 0;
}

/* Newlines (and the here-document bodies they start). */
static int linebreak(struct sh_parser *p)
{
	struct sh_tok *t;

	for (;;) {
		if (peek(p, SH_LX_CMD, &t) < 0)
			return -1;
		if (t->kind != SH_T_NEWLINE)
			return 0;
		consume(p);
	}
}

static int expect_word(struct sh_parser *p, const char *lit, const char *err)
{
	struct sh_tok *t;

	if (peek(p, SH_LX_CMD, &t) < 0)
		return -1;
	if (!is_word(t, lit))
		return sh_fail(p, err);
	consume(p);
	return 0;
}

static struct sh_node *node_new(struct sh_parser *p, enum sh_node_kind kind, size_t start)
{
	struct sh_node *n = sh_alloc(p->a, sizeof(*n));
	if (!n) {
		p->nomem = true;
		return NULL;
	}
	n->kind = kind;
	n->start = start;
	return n;
}

static struct sh_node *bin_new(struct sh_parser *p, enum sh_node_kind kind, struct sh_node *l,
			       struct sh_node *r)
{
	if (!l)
		return r;
	if (!r)
		return l;
	struct sh_node *n = node_new(p, kind, l->start);
	if (n) {
		n->u.bin.left = l;
		n->u.bin.right = r;
	}
	return n;
}

/* A growable array of pointers in the arena. */
struct vec {
	void **v;
	size_t n, cap;
};

static int vec_push(struct sh_parser *p, struct vec *v, void *x)
{
	if (v->n == v->cap) {
		size_t cap = v->cap ? v->cap * 2 : 8;
		void **nv = sh_alloc(p->a, cap * sizeof(*nv));
		if (!nv)
			return oom(p);
		if (v->n)
			memcpy(nv, v->v, v->n * sizeof(*nv));
		v->v = nv;
		v->cap = cap;
	}
	v->v[v->n++] = x;
	return 0;
}

/* ------------------------------------------------------------------------
 * The grammar.
 */
static int parse_list(struct sh_parser *p, unsigned stop, struct sh_node **out);
static int parse_and_or(struct sh_parser *p, struct sh_node **out);
static int parse_command(struct sh_parser *p, struct sh_node **out);

static int enter(struct sh_parser *p)
{
	if (++p->depth > SH_MAX_DEPTH)
		return sh_fail(p, "nested too deeply");
	return 0;
}

/*
 * A compound list: and-or lists separated by ';', '&' or newlines, up to
 * one of the terminators in stop (not consumed). May be empty (callers
 * that need a command check).
 */
static int parse_list(struct sh_parser *p, unsigned stop, struct sh_node **out)
{
	struct sh_node *list = NULL;
	struct sh_tok *t;

	*out = NULL;
	for (;;) {
		if (linebreak(p) < 0)
			return -1;
		if (peek(p, SH_LX_CMD, &t) < 0)
			return -1;
		if (t->kind == SH_T_EOF)
			break;
		if (t->kind == SH_T_OP && t->op == SH_O_RPAREN && (stop & STOP_RPAREN))
			break;
		if (t->kind == SH_T_OP &&
		    (t->op == SH_O_DSEMI || t->op == SH_O_SEMI_AMP || t->op == SH_O_DSEMI_AMP) &&
		    (stop & STOP_DSEMI))
			break;
		if (stop_bit(t) & stop)
			break;
		struct sh_node *item = NULL;
		if (parse_and_or(p, &item) < 0)
			return -1;
		if (!item)
			return sh_fail(p, "syntax error: missing command");
		if (peek(p, SH_LX_CMD, &t) < 0)
			return -1;
		if (is_op(t, SH_O_SEMI) || t->kind == SH_T_NEWLINE) {
			consume(p);
		} else if (is_op(t, SH_O_AMP)) {
			struct sh_node *bg = node_new(p, SH_ASYNC, item->start);
			if (!bg)
				return -1;
			bg->u.un.body = item;
			item = bg;
			consume(p);
		}
		list = bin_new(p, SH_SEQ, list, item);
		if (!list)
			return -1;
		*out = list;
		if (t->kind != SH_T_NEWLINE &&
		    !(t->kind == SH_T_OP && (t->op == SH_O_SEMI || t->op == SH_O_AMP))) {
			/* no separator: a terminator must follow */
			if (t->kind == SH_T_EOF)
				break;
			if (t->kind == SH_T_OP && t->op == SH_O_RPAREN && (stop & STOP_RPAREN))
				break;
			if (t->kind == SH_T_OP &&
			    (t->op == SH_O_DSEMI || t->op == SH_O_SEMI_AMP ||
			     t->op == SH_O_DSEMI_AMP) &&
			    (stop & STOP_DSEMI))
				break;
			if (stop_bit(t) & stop)
				break;
			return sh_fail(p, "syntax error: unexpected token");
		}
	}
	*out = list;
	return 0;
}

static int parse_pipeline(struct sh_parser *p, struct sh_node **out)
{
	struct sh_node *left = NULL;
	struct sh_tok *t;

	if (parse_command(p, &left) < 0)
		return -1;
	for (;;) {
		if (peek(p, SH_LX_CMD, &t) < 0)
			return -1;
		if (!is_op(t, SH_O_PIPE) && !is_op(t, SH_O_PIPE_AND))
			break;
		bool err = t->op == SH_O_PIPE_AND;
		consume(p);
		if (linebreak(p) < 0)
			return -1;
		struct sh_node *right = NULL;
		if (parse_command(p, &right) < 0)
			return -1;
		if (!left || !right)
			return sh_fail(p, "syntax error: missing command");
		struct sh_node *n = node_new(p, SH_PIPE, left->start);
		if (!n)
			return -1;
		n->u.bin.left = left;
		n->u.bin.right = right;
		n->u.bin.pipe_err = err;
		left = n;
	}
	*out = left;
	return 0;
}

/* A token that ends a pipeline where `!` or `time` may stand alone. */
static bool ends_pipeline(const struct sh_tok *t)
{
	return t->kind == SH_T_EOF || t->kind == SH_T_NEWLINE ||
	       (t->kind == SH_T_OP && t->op != SH_O_LPAREN);
}

/* [!] [time [-p] [--]] … pipeline */
static int parse_pipeline_command(struct sh_parser *p, struct sh_node **out)
{
	struct sh_tok *t;
	size_t start;

	if (enter(p) < 0)
		return -1;
	if (peek(p, SH_LX_CMD, &t) < 0)
		return -1;
	start = t->start;
	if (is_word(t, "!") || is_word(t, "time")) {
		bool is_time = is_word(t, "time"), posix = false;
		consume(p);
		if (is_time) {
			if (peek(p, SH_LX_CMD, &t) < 0)
				return -1;
			if (is_word(t, "-p")) {
				posix = true;
				consume(p);
				if (peek(p, SH_LX_CMD, &t) < 0)
					return -1;
			}
			if (is_word(t, "--")) {
				consume(p);
			}
		}
		struct sh_node *n = node_new(p, is_time ? SH_TIME : SH_NOT, start);
		if (!n)
			return -1;
		n->u.un.posix = posix;
		if (peek(p, SH_LX_CMD, &t) < 0)
			return -1;
		if (!ends_pipeline(t) && parse_pipeline_command(p, &n->u.un.body) < 0)
			return -1;
		*out = n;
		p->depth--;
		return 0;
	}
	int r = parse_pipeline(p, out);
	p->depth--;
	return r;
}

static int parse_and_or(struct sh_parser *p, struct sh_node **out)
{
	struct sh_node *left = NULL;
	struct sh_tok *t;

	if (parse_pipeline_command(p, &left) < 0)
		return -1;
	for (;;) {
		if (peek(p, SH_LX_CMD, &t) < 0)
			return -1;
		if (!is_op(t, SH_O_AND_AND) && !is_op(t, SH_O_OR_OR))
			break;
		enum sh_node_kind k = t->op == SH_O_AND_AND ? SH_AND : SH_OR;
		consume(p);
		if (linebreak(p) < 0)
			return -1;
		struct sh_node *right = NULL;
		if (parse_pipeline_command(p, &right) < 0)
			return -1;
		if (!left || !right)
			return sh_fail(p, "syntax error: missing command");
		struct sh_node *n = node_new(p, k, left->start);
		if (!n)
			return -1;
		n->u.bin.left = left;
		n->u.bin.right = right;
		left = n;
	}
	if (!left)
		return sh_fail(p, "syntax error: missing command");
	*out = left;
	return 0;
}

/* ------------------------------------------------------------------------
 * Redirections.
 */
static int parse_redirect(struct sh_parser *p, struct sh_redir ***tail)
{
	struct sh_tok *t;
	struct sh_redir *r = sh_alloc(p->a, sizeof(*r));

	if (!r)
		return oom(p);
	if (peek(p, 0, &t) < 0)
		return -1;
	r->op = (enum sh_redir_op)t->op;
	r->fd = t->fd;
	r->fdvar = t->fdvar;
	consume(p);
	if (peek(p, 0, &t) < 0)
		return -1;
	if (t->kind != SH_T_WORD)
		return sh_fail(p, "syntax error: a redirection without its word");
	r->target = t->word;
	consume(p);
	if (r->op == SH_R_HEREDOC || r->op == SH_R_HEREDOC_STRIP) {
		if (!sh_heredoc_delim(p->a, r->target->raw, r->target->rawlen, &r->quoted))
			return oom(p);
		if (p->npending >= SH_MAX_PENDING_HD)
			return sh_fail(p, "too many here-documents on one line");
		p->pending[p->npending++] = r;
	}
	**tail = r;
	*tail = &r->next;
	return 0;
}

static int parse_redirects(struct sh_parser *p, struct sh_node *n)
{
	struct sh_redir **tail = &n->redirs;
	struct sh_tok *t;

	while (*tail)
		tail = &(*tail)->next;
	for (;;) {
		if (peek(p, 0, &t) < 0)
			return -1;
		if (t->kind != SH_T_REDIR)
			return 0;
		if (parse_redirect(p, &tail) < 0)
			return -1;
	}
}

/* ------------------------------------------------------------------------
 * Simple commands.
 */

/* Where the name of NAME=, NAME+= or NAME[…]= ends in a raw word (the
 * index of '=' or '+'), or 0 when the word is no assignment. *sub: the
 * index of '[' when there is a subscript. */
static size_t assignment_split(const struct sh_word *w, size_t *sub)
{
	const char *s = w->raw;
	size_t n = w->rawlen, k = 0;

	*sub = 0;
	while (k < n && (((s[k] | 0x20) >= 'a' && (s[k] | 0x20) <= 'z') || s[k] == '_' ||
			 (k && s[k] >= '0' && s[k] <= '9')))
		k++;
	if (k == 0)
		return 0;
	if (k < n && s[k] == '[') {
		*sub = k;
		/* the subscript was matched by the lexer; find its ']' */
		size_t depth = 0;
		for (; k < n; k++) {
			if (s[k] == '[')
				depth++;
			else if (s[k] == ']' && --depth == 0)
				break;
			else if (s[k] == '\\')
				k++;
		}
		if (k >= n)
			return 0;
		k++;
	}
	if (k < n && s[k] == '+' && k + 1 < n && s[k + 1] == '=')
		return k;
	return k < n && s[k] == '=' ? k : 0;
}

static int make_assign(struct sh_parser *p, struct sh_word *w, size_t split, size_t sub,
		       struct sh_assign **out)
{
	struct sh_assign *as = sh_alloc(p->a, sizeof(*as));
	size_t nl = sub ? sub : split;

	if (!as)
		return oom(p);
	as->word = w;
	as->name = sh_strndup(p->a, w->raw, nl);
	if (!as->name)
		return oom(p);
	as->append = w->raw[split] == '+';
	if (sub) {
		as->index = sh_alloc(p->a, sizeof(*as->index));
		if (!as->index)
			return oom(p);
		as->index->raw = w->raw + sub + 1;
		/* NAME[…]: between the brackets */
		as->index->rawlen = split - sub - 2;
		if (w->raw[split - 1] != ']')
			as->index->rawlen = 0;
		as->index->text = sh_strndup(p->a, as->index->raw, as->index->rawlen);
		if (!as->index->text)
			return oom(p);
		as->index->len = as->index->rawlen;
		/* the subscript's expansions are among the word's */
		as->index->exps = w->exps;
		as->index->flags = w->flags & (LF_WORD_EXPANSION | LF_WORD_SUBST);
	}
	if (w->compound) {
		as->array = true;
		as->elems = w->elems;
		as->nelems = w->nelems;
	} else {
		/* the value: the text after the first '=' of the name part */
		const char *eq = memchr(w->text, '=', w->len);
		struct sh_word *v = sh_alloc(p->a, sizeof(*v));
		if (!v)
			return oom(p);
		*v = *w;
		v->exps_tail = NULL;
		if (eq) {
			v->text = (char *)eq + 1;
			v->len = w->len - (size_t)(eq + 1 - w->text);
		}
		v->raw = w->raw + split + (as->append ? 2 : 1);
		v->rawlen = w->rawlen - (split + (as->append ? 2 : 1));
		as->value = v;
	}
	*out = as;
	return 0;
}

/* Builtins whose NAME=( … ) arguments are assignments. */
static bool is_decl_builtin(const struct sh_word *w)
{
	static const char *const names[] = { "declare", "typeset",  "local",
					     "export",	"readonly", NULL };
	if (w->flags & LF_WORD_NOT_LITERAL)
		return false;
	for (size_t k = 0; names[k]; k++)
		if (!strcmp(w->text, names[k]))
			return true;
	return false;
}

static int parse_compound(struct sh_parser *p, struct sh_node **out, bool *is_compound);

/* A simple command, or NAME ( ) BODY. first: a word already read. */
static int parse_simple(struct sh_parser *p, struct sh_word *first, size_t start,
			struct sh_node **out)
{
	struct sh_node *n = node_new(p, SH_SIMPLE, start);
	struct sh_redir **rtail;
	struct sh_assign **atail;
	struct vec words = { 0 };
	bool decl = false;
	struct sh_tok *t;

	if (!n)
		return -1;
	rtail = &n->redirs;
	atail = &n->u.simple.assigns;
	if (first) {
		if (vec_push(p, &words, first) < 0)
			return -1;
		decl = is_decl_builtin(first);
	}
	for (;;) {
		unsigned mode = words.n ? (decl ? SH_LX_DECL : 0) : SH_LX_CMD;
		if (peek(p, mode, &t) < 0)
			return -1;
		if (t->kind == SH_T_REDIR) {
			if (parse_redirect(p, &rtail) < 0)
				return -1;
			continue;
		}
		if (t->kind != SH_T_WORD)
			break;
		struct sh_word *w = t->word;
		size_t sub, split;
		if (!words.n && (split = assignment_split(w, &sub)) > 0) {
			struct sh_assign *as = NULL;
			consume(p);
			if (make_assign(p, w, split, sub, &as) < 0)
				return -1;
			*atail = as;
			atail = &as->next;
			continue;
		}
		if (w->compound)
			return sh_fail(p, "syntax error: unexpected '('");
		consume(p);
		if (vec_push(p, &words, w) < 0)
			return -1;
		if (words.n == 1) {
			decl = is_decl_builtin(w);
			/* NAME ( ) BODY: a function definition */
			if (!n->u.simple.assigns && !n->redirs) {
				if (peek(p, decl ? SH_LX_DECL : 0, &t) < 0)
					return -1;
				if (is_op(t, SH_O_LPAREN)) {
					consume(p);
					if (peek(p, 0, &t) < 0)
						return -1;
					if (!is_op(t, SH_O_RPAREN))
						return sh_fail(p, "syntax error near '('");
					consume(p);
					if (linebreak(p) < 0)
						return -1;
					struct sh_node *f = node_new(p, SH_FUNCDEF, start);
					bool compound = false;
					if (!f)
						return -1;
					f->u.func.name = w;
					if (parse_compound(p, &f->u.func.body, &compound) < 0)
						return -1;
					if (!compound)
						return sh_fail(
							p, "syntax error: a function body must be "
							   "a compound command");
					if (parse_redirects(p, f) < 0)
						return -1;
					*out = f;
					return 0;
				}
			}
		}
	}
	if (!words.n && !n->u.simple.assigns && !n->redirs)
		return sh_fail(p, "syntax error: unexpected token");
	n->u.simple.words = (struct sh_word **)words.v;
	n->u.simple.nwords = words.n;
	*out = n;
	return 0;
}

/* ------------------------------------------------------------------------
 * Compound commands.
 */
static int parse_body_list(struct sh_parser *p, unsigned stop, struct sh_node **out)
{
	if (parse_list(p, stop, out) < 0)
		return -1;
	if (!*out)
		return sh_fail(p, "syntax error: an empty command list");
	return 0;
}

/* ( ( … ) ) or (( … )) at p->tok (a '('): the arithmetic form when the
 * text closes with "))". */
static bool try_arith(struct sh_parser *p, size_t open, size_t *from, size_t *to, size_t *end)
{
	size_t i = open + 1;

	while (i + 1 < p->len && p->s[i] == '\\' && p->s[i + 1] == '\n')
		i += 2;
	if (i >= p->len || p->s[i] != '(')
		return false;
	/* find the ')' that closes the inner '(' with quotes skipped */
	size_t level = 1, k = i + 1;
	for (; k < p->len; k++) {
		char c = p->s[k];
		if (c == '\\') {
			k++;
		} else if (c == '\'' || c == '"' || c == '`') {
			size_t e = k + 1;
			while (e < p->len && p->s[e] != c)
				e += (c != '\'' && p->s[e] == '\\') ? 2 : 1;
			if (e >= p->len)
				return false;
			k = e;
		} else if (c == '(') {
			level++;
		} else if (c == ')' && --level == 0) {
			break;
		}
	}
	if (k >= p->len)
		return false;
	size_t j = k + 1;
	while (j + 1 < p->len && p->s[j] == '\\' && p->s[j + 1] == '\n')
		j += 2;
	if (j >= p->len || p->s[j] != ')')
		return false;
	*from = i + 1;
	*to = k;
	*end = j + 1;
	return true;
}

static int arith_word(struct sh_parser *p, size_t from, size_t to, struct sh_word **out)
{
	struct sh_parser q;
	struct sh_tok *unused = NULL;
	(void)unused;

	/* lexed as the expression of $(( … )) is */
	char *text = sh_strndup(p->a, p->s + from, to - from);
	if (!text)
		return oom(p);
	size_t n = to - from + 6;
	char *wrapped = sh_alloc(p->a, n + 1);
	if (!wrapped)
		return oom(p);
	memcpy(wrapped, "$((", 3);
	memcpy(wrapped + 3, text, to - from);
	memcpy(wrapped + 3 + (to - from), "))", 3);
	memset(&q, 0, sizeof(q));
	struct sh_word *w = sh_lex_one_word(p->a, wrapped, n - 1, p->depth + 1);
	if (!w || !w->exps || w->exps->kind != SH_EXP_ARITH) {
		/* fall back: an opaque expression */
		w = sh_alloc(p->a, sizeof(*w));
		if (!w)
			return oom(p);
		w->raw = p->s + from;
		w->rawlen = to - from;
		w->text = text;
		w->len = to - from;
		w->flags = LF_WORD_EXPANSION | LF_WORD_SUBST;
		*out = w;
		return 0;
	}
	*out = w->exps->expr;
	return 0;
}

static int parse_if(struct sh_parser *p, struct sh_node *n)
{
	struct sh_tok *t;

	if (parse_body_list(p, RW_THEN, &n->u.cond.cond) < 0 ||
	    expect_word(p, "then", "syntax error: expected 'then'") < 0 ||
	    parse_body_list(p, RW_ELSE | RW_ELIF | RW_FI, &n->u.cond.then) < 0)
		return -1;
	if (peek(p, SH_LX_CMD, &t) < 0)
		return -1;
	if (is_word(t, "elif")) {
		struct sh_node *e = node_new(p, SH_IF, t->start);
		if (!e)
			return -1;
		consume(p);
		n->u.cond.els = e;
		return parse_if(p, e);
	}
	if (is_word(t, "else")) {
		consume(p);
		if (parse_body_list(p, RW_FI, &n->u.cond.els) < 0)
			return -1;
	}
	return expect_word(p, "fi", "syntax error: expected 'fi'");
}

/* do LIST done, or { LIST } (for and select) */
static int parse_do_group(struct sh_parser *p, struct sh_node **body, bool brace_ok)
{
	struct sh_tok *t;

	if (linebreak(p) < 0 || peek(p, SH_LX_CMD, &t) < 0)
		return -1;
	if (brace_ok && is_word(t, "{")) {
		consume(p);
		if (parse_body_list(p, RW_RBRACE, body) < 0)
			return -1;
		return expect_word(p, "}", "syntax error: expected '}'");
	}
	if (!is_word(t, "do"))
		return sh_fail(p, "syntax error: expected 'do'");
	consume(p);
	if (parse_body_list(p, RW_DONE, body) < 0)
		return -1;
	return expect_word(p, "done", "syntax error: expected 'done'");
}

static int parse_for(struct sh_parser *p, struct sh_node *n)
{
	struct sh_tok *t;

	if (peek(p, 0, &t) < 0)
		return -1;
	if (n->kind == SH_FOR && is_op(t, SH_O_LPAREN)) {
		size_t from, to, end;
		if (!try_arith(p, t->start, &from, &to, &end))
			return sh_fail(p, "syntax error: expected '((' after for");
		consume(p);
		p->i = end;
		n->kind = SH_ARITH_FOR;
		if (arith_word(p, from, to, &n->u.afor.exprs[0]) < 0)
			return -1;
		if (peek(p, SH_LX_CMD, &t) < 0)
			return -1;
		if (is_op(t, SH_O_SEMI))
			consume(p);
		return parse_do_group(p, &n->u.afor.body, true);
	}
	if (t->kind != SH_T_WORD || !sh_is_name(t->word->text, t->word->len) ||
	    (t->word->flags & LF_WORD_NOT_LITERAL))
		return sh_fail(p, "syntax error: a for loop needs a variable name");
	n->u.loop.name = t->word->text;
	n->u.loop.name_word = t->word;
	consume(p);
	if (linebreak(p) < 0 || peek(p, SH_LX_CMD, &t) < 0)
		return -1;
	if (is_word(t, "in")) {
		struct vec words = { 0 };
		consume(p);
		n->u.loop.has_in = true;
		for (;;) {
			if (peek(p, 0, &t) < 0)
				return -1;
			if (t->kind != SH_T_WORD)
				break;
			if (vec_push(p, &words, t->word) < 0)
				return -1;
			consume(p);
		}
		if (is_op(t, SH_O_SEMI) || t->kind == SH_T_NEWLINE)
			consume(p);
		else
			return sh_fail(p,
				       "syntax error: expected ';' or a newline after the words");
		n->u.loop.words = (struct sh_word **)words.v;
		n->u.loop.nwords = words.n;
	} else if (is_op(t, SH_O_SEMI)) {
		consume(p);
	}
	return parse_do_group(p, &n->u.loop.body, true);
}

static int parse_case(struct sh_parser *p, struct sh_node *n)
{
	struct sh_tok *t;
	struct sh_case_item *items = NULL;
	size_t nitems = 0, cap = 0;

	if (peek(p, 0, &t) < 0)
		return -1;
	if (t->kind != SH_T_WORD)
		return sh_fail(p, "syntax error: case needs a word");
	n->u.kase.word = t->word;
	consume(p);
	if (linebreak(p) < 0 || expect_word(p, "in", "syntax error: expected 'in'") < 0)
		return -1;
	for (;;) {
		if (linebreak(p) < 0 || peek(p, SH_LX_CMD, &t) < 0)
			return -1;
		if (is_word(t, "esac")) {
			consume(p);
			break;
		}
		if (nitems == cap) {
			size_t nc = cap ? cap * 2 : 4;
			struct sh_case_item *ni = sh_alloc(p->a, nc * sizeof(*ni));
			if (!ni)
				return oom(p);
			if (nitems)
				memcpy(ni, items, nitems * sizeof(*ni));
			items = ni;
			cap = nc;
		}
		struct sh_case_item *it = &items[nitems++];
		struct vec pats = { 0 };
		if (is_op(t, SH_O_LPAREN)) {
			consume(p);
		}
		for (;;) {
			if (peek(p, 0, &t) < 0)
				return -1;
			if (t->kind != SH_T_WORD)
				return sh_fail(p, "syntax error: expected a case pattern");
			if (vec_push(p, &pats, t->word) < 0)
				return -1;
			consume(p);
			if (peek(p, 0, &t) < 0)
				return -1;
			if (is_op(t, SH_O_PIPE)) {
				consume(p);
				continue;
			}
			if (is_op(t, SH_O_RPAREN)) {
				consume(p);
				break;
			}
			return sh_fail(p, "syntax error: expected ')' after a case pattern");
		}
		it->patterns = (struct sh_word **)pats.v;
		it->npatterns = pats.n;
		if (parse_list(p, STOP_DSEMI | RW_ESAC, &it->body) < 0)
			return -1;
		if (peek(p, SH_LX_CMD, &t) < 0)
			return -1;
		if (t->kind == SH_T_OP &&
		    (t->op == SH_O_DSEMI || t->op == SH_O_SEMI_AMP || t->op == SH_O_DSEMI_AMP)) {
			consume(p);
			continue;
		}
		if (is_word(t, "esac")) {
			consume(p);
			break;
		}
		return sh_fail(p, "syntax error: expected ';;' or 'esac'");
	}
	n->u.kase.items = items;
	n->u.kase.nitems = nitems;
	return 0;
}

/* [[ … ]]: terms in order; the operators are classified so the analysis
 * knows which operands are arithmetic or variable names. */
static bool cond_unary(const struct sh_word *w)
{
	static const char ops[] = "abcdefghknoprstuvwxzGLNOSR";
	return w->flags == 0 && !w->exps && w->len == 2 && w->text[0] == '-' &&
	       strchr(ops, w->text[1]);
}

static bool cond_binary(const struct sh_word *w)
{
	static const char *const ops[] = { "==",  "=",	 "!=",	"=~",  "-eq", "-ne", "-lt",
					   "-le", "-gt", "-ge", "-nt", "-ot", "-ef", NULL };
	if (w->flags || w->exps)
		return false;
	for (size_t k = 0; ops[k]; k++)
		if (!strcmp(w->text, ops[k]))
			return true;
	return false;
}

static int parse_cond(struct sh_parser *p, struct sh_node *n)
{
	struct vec terms = { 0 };
	struct sh_tok *t;
	bool regex_next = false, operand_next = true;

	for (;;) {
		unsigned mode = SH_LX_COND | (regex_next ? SH_LX_REGEX : 0);
		if (peek(p, mode, &t) < 0)
			return -1;
		if (t->kind == SH_T_NEWLINE) {
			consume(p);
			continue;
		}
		if (t->kind == SH_T_EOF)
			return sh_fail(p, "syntax error: unterminated [[");
		struct sh_cond_term *ct = sh_alloc(p->a, sizeof(*ct));
		if (!ct)
			return oom(p);
		if (t->kind == SH_T_WORD) {
			if (is_word(t, "]]") && !regex_next) {
				consume(p);
				break;
			}
			ct->word = t->word;
			if (regex_next || !operand_next) {
				ct->kind = SH_CT_WORD;
				if (!regex_next && cond_binary(t->word)) {
					ct->kind = SH_CT_BINARY;
					regex_next = !strcmp(t->word->text, "=~");
					operand_next = true;
					consume(p);
					if (vec_push(p, &terms, ct) < 0)
						return -1;
					continue;
				}
				regex_next = false;
				operand_next = false;
			} else if (cond_unary(t->word)) {
				ct->kind = SH_CT_UNARY;
			} else if (is_word(t, "!")) {
				ct->kind = SH_CT_OTHER;
			} else {
				ct->kind = SH_CT_WORD;
				operand_next = false;
			}
		} else if (t->kind == SH_T_OP && (t->op == SH_O_LESS || t->op == SH_O_GREATER) &&
			   !operand_next) {
			ct->kind = SH_CT_BINARY;
			ct->word = NULL;
			operand_next = true;
		} else if (t->kind == SH_T_OP && (t->op == SH_O_AND_AND || t->op == SH_O_OR_OR ||
						  t->op == SH_O_LPAREN || t->op == SH_O_RPAREN)) {
			ct->kind = SH_CT_OTHER;
			operand_next = t->op != SH_O_RPAREN;
		} else {
			return sh_fail(p, "syntax error in [[ ]]");
		}
		consume(p);
		if (vec_push(p, &terms, ct) < 0)
			return -1;
	}
	if (terms.n == 0)
		return sh_fail(p, "syntax error: empty [[ ]]");
	struct sh_cond_term *arr = sh_alloc(p->a, terms.n * sizeof(*arr));
	if (!arr)
		return oom(p);
	for (size_t k = 0; k < terms.n; k++)
		arr[k] = *(struct sh_cond_term *)terms.v[k];
	n->u.test.terms = arr;
	n->u.test.nterms = terms.n;
	return 0;
}

static const char *const compound_words[] = { "if",   "while", "until", "for", "select",
					      "case", "{",     "[[",	NULL };

static bool starts_compound(const struct sh_tok *t)
{
	if (is_op(t, SH_O_LPAREN))
		return true;
	for (size_t k = 0; compound_words[k]; k++)
		if (is_word(t, compound_words[k]))
			return true;
	return false;
}

/* A compound command at the lookahead; *is_compound false (and nothing
 * consumed) when there is none. */
static int parse_compound(struct sh_parser *p, struct sh_node **out, bool *is_compound)
{
	struct sh_tok *t;
	struct sh_node *n;
	int r = 0;

	*is_compound = false;
	if (peek(p, SH_LX_CMD, &t) < 0)
		return -1;
	if (!starts_compound(t))
		return 0;
	*is_compound = true;
	if (enter(p) < 0)
		return -1;
	size_t start = t->start;
	if (is_op(t, SH_O_LPAREN)) {
		size_t from, to, end;
		if (try_arith(p, t->start, &from, &to, &end)) {
			consume(p);
			p->i = end;
			n = node_new(p, SH_ARITH_CMD, start);
			if (!n || arith_word(p, from, to, &n->u.arith.expr) < 0)
				return -1;
		} else {
			consume(p);
			n = node_new(p, SH_SUBSHELL, start);
			if (!n || parse_body_list(p, STOP_RPAREN, &n->u.un.body) < 0)
				return -1;
			if (peek(p, 0, &t) < 0)
				return -1;
			if (!is_op(t, SH_O_RPAREN))
				return sh_fail(p, "syntax error: expected ')'");
			consume(p);
		}
	} else if (is_word(t, "{")) {
		consume(p);
		n = node_new(p, SH_GROUP, start);
		if (!n || parse_body_list(p, RW_RBRACE, &n->u.un.body) < 0 ||
		    expect_word(p, "}", "syntax error: expected '}'") < 0)
			return -1;
	} else if (is_word(t, "if")) {
		consume(p);
		n = node_new(p, SH_IF, start);
		if (!n || parse_if(p, n) < 0)
			return -1;
	} else if (is_word(t, "while") || is_word(t, "until")) {
		bool until = is_word(t, "until");
		consume(p);
		n = node_new(p, until ? SH_UNTIL : SH_WHILE, start);
		if (!n || parse_body_list(p, RW_DO, &n->u.cond.cond) < 0 ||
		    parse_do_group(p, &n->u.cond.then, false) < 0)
			return -1;
	} else if (is_word(t, "for") || is_word(t, "select")) {
		bool sel = is_word(t, "select");
		consume(p);
		n = node_new(p, sel ? SH_SELECT : SH_FOR, start);
		if (!n || parse_for(p, n) < 0)
			return -1;
	} else if (is_word(t, "case")) {
		consume(p);
		n = node_new(p, SH_CASE, start);
		if (!n || parse_case(p, n) < 0)
			return -1;
	} else {
		/* [[ */
		consume(p);
		n = node_new(p, SH_COND, start);
		if (!n || parse_cond(p, n) < 0)
			return -1;
	}
	r = parse_redirects(p, n);
	*out = n;
	p->depth--;
	return r;
}

/* function NAME [( )] BODY */
static int parse_function(struct sh_parser *p, size_t start, struct sh_node **out)
{
	struct sh_tok *t;
	bool compound = false;
	struct sh_node *n = node_new(p, SH_FUNCDEF, start);

	if (!n || peek(p, 0, &t) < 0)
		return -1;
	if (t->kind != SH_T_WORD)
		return sh_fail(p, "syntax error: function needs a name");
	n->u.func.name = t->word;
	consume(p);
	if (peek(p, SH_LX_CMD, &t) < 0)
		return -1;
	if (is_op(t, SH_O_LPAREN)) {
		size_t from, to, end;
		/* "function f ( )": but not "function f ((…))" */
		if (!try_arith(p, t->start, &from, &to, &end)) {
			consume(p);
			if (peek(p, 0, &t) < 0)
				return -1;
			if (!is_op(t, SH_O_RPAREN))
				return sh_fail(p, "syntax error near '('");
			consume(p);
		}
	}
	if (linebreak(p) < 0)
		return -1;
	if (parse_compound(p, &n->u.func.body, &compound) < 0)
		return -1;
	if (!compound)
		return sh_fail(p, "syntax error: a function body must be a compound command");
	if (parse_redirects(p, n) < 0)
		return -1;
	*out = n;
	return 0;
}

/* coproc [NAME] COMMAND */
static int parse_coproc(struct sh_parser *p, size_t start, struct sh_node **out)
{
	struct sh_tok *t;
	bool compound = false;
	struct sh_node *n = node_new(p, SH_COPROC, start);

	if (!n)
		return -1;
	if (parse_compound(p, &n->u.func.body, &compound) < 0)
		return -1;
	if (compound) {
		*out = n;
		return 0;
	}
	if (peek(p, SH_LX_CMD, &t) < 0)
		return -1;
	if (t->kind != SH_T_WORD) {
		/* coproc with redirections only, or nothing */
		if (parse_simple(p, NULL, t->start, &n->u.func.body) < 0)
			return -1;
		*out = n;
		return 0;
	}
	struct sh_word *w = t->word;
	size_t wstart = t->start, sub;
	if (assignment_split(w, &sub)) {
		if (parse_simple(p, NULL, wstart, &n->u.func.body) < 0)
			return -1;
		*out = n;
		return 0;
	}
	consume(p);
	/* NAME followed by a compound command names the coprocess */
	if (parse_compound(p, &n->u.func.body, &compound) < 0)
		return -1;
	if (compound) {
		n->u.func.name = w;
		*out = n;
		return 0;
	}
	if (parse_simple(p, w, wstart, &n->u.func.body) < 0)
		return -1;
	*out = n;
	return 0;
}

static const char *const misplaced[] = { "then", "else", "elif", "fi", "do",
					 "done", "esac", "}",	 "in", NULL };

static int parse_command(struct sh_parser *p, struct sh_node **out)
{
	struct sh_tok *t;
	bool compound = false;

	if (peek(p, SH_LX_CMD, &t) < 0)
		return -1;
	if (t->kind == SH_T_WORD) {
		for (size_t k = 0; misplaced[k]; k++)
			if (is_word(t, misplaced[k]) && strcmp(misplaced[k], "in") != 0)
				return sh_fail(p, "syntax error: unexpected reserved word");
		if (is_word(t, "function")) {
			size_t start = t->start;
			consume(p);
			return parse_function(p, start, out);
		}
		if (is_word(t, "coproc")) {
			size_t start = t->start;
			consume(p);
			return parse_coproc(p, start, out);
		}
	}
	if (parse_compound(p, out, &compound) < 0)
		return -1;
	if (compound)
		return 0;
	if (t->kind != SH_T_WORD && t->kind != SH_T_REDIR)
		return sh_fail(p, "syntax error: unexpected token");
	return parse_simple(p, NULL, t->start, out);
}

/* ------------------------------------------------------------------------
 * Entry points.
 */
static void parser_init(struct sh_parser *p, struct sh_arena *a, const char *s, size_t len,
			unsigned depth, unsigned opts)
{
	memset(p, 0, sizeof(*p));
	p->a = a;
	p->s = s;
	p->len = len;
	p->depth = depth;
	p->opts = opts;
}

/* Complete commands one line at a time until the end, or a syntax error
 * (what was parsed before it is kept in *out). */
static int parse_program(struct sh_parser *p, struct sh_node **out)
{
	struct sh_node *root = NULL;
	struct sh_tok *t;

	*out = NULL;
	for (;;) {
		if (linebreak(p) < 0)
			break;
		if (peek(p, SH_LX_CMD, &t) < 0)
			break;
		if (t->kind == SH_T_EOF)
			break;
		struct sh_node *unit = NULL;
		/* the lines before an error were run by bash: they are kept */
		int r = parse_list(p, 0, &unit);
		root = bin_new(p, SH_SEQ, root, unit);
		if (r < 0 || peek(p, SH_LX_CMD, &t) < 0)
			break;
		if (t->kind != SH_T_EOF) {
			sh_fail(p, "syntax error: unexpected token");
			break;
		}
	}
	*out = root;
	/* here-documents still waiting at the end have no body */
	for (size_t k = 0; k < p->npending; k++)
		p->pending[k]->unterminated = true;
	p->npending = 0;
	return p->nomem ? -ENOMEM : 0;
}

int sh_parse(struct sh_arena *arena, const char *s, size_t len, unsigned depth, unsigned opts,
	     struct sh_parse_result *res)
{
	struct sh_parser p;

	memset(res, 0, sizeof(*res));
	parser_init(&p, arena, s, len, depth, opts);
	if (depth > SH_MAX_DEPTH) {
		res->error = "nested too deeply";
		return 0;
	}
	int r = parse_program(&p, &res->root);
	res->error = p.error;
	res->error_at = p.error_at;
	res->bashism = p.bashism;
	return r;
}

int sh_parse_subst(struct sh_parser *p, struct sh_node **out)
{
	struct sh_parser q;
	struct sh_tok *t;
	int r;

	if (p->depth >= SH_MAX_DEPTH)
		return sh_fail(p, "nested too deeply");
	parser_init(&q, p->a, p->s, p->len, p->depth + 1, p->opts);
	q.i = p->i;
	r = parse_list(&q, STOP_RPAREN, out);
	if (r == 0 && peek(&q, 0, &t) == 0) {
		if (!is_op(t, SH_O_RPAREN))
			r = sh_fail(&q, "unterminated command substitution");
		else
			consume(&q);
	}
	if (r == 0 && q.npending)
		r = sh_fail(&q, "a here-document inside a substitution without its body");
	if (q.have && !q.error)
		q.i = q.tok.start;
	p->i = q.i;
	if (q.nomem)
		p->nomem = true;
	if (q.error && !p->error) {
		p->error = q.error;
		p->error_at = q.error_at;
	}
	if (q.bashism && !p->bashism)
		p->bashism = q.bashism;
	return r < 0 || q.nomem || q.error ? -1 : 0;
}

int sh_parse_nested(struct sh_parser *p, const char *s, size_t len, struct sh_node **out)
{
	struct sh_parser q;

	if (p->depth >= SH_MAX_DEPTH)
		return sh_fail(p, "nested too deeply");
	parser_init(&q, p->a, s, len, p->depth + 1, p->opts);
	parse_program(&q, out);
	if (q.nomem)
		p->nomem = true;
	if (q.error && !p->error) {
		p->error = q.error;
		p->error_at = p->i;
	}
	if (q.bashism && !p->bashism)
		p->bashism = q.bashism;
	return q.nomem || q.error ? -1 : 0;
}
