/* SPDX-License-Identifier: MIT */
/*
 * Bash requests (SPEC §1): a command line is analysed into parts
 * (shell.c); each part gets a verdict and the line gets the strictest.
 * Pure: no I/O.
 *
 * A simple command is judged by the command rules of every bash rule
 * (strictest match wins; the earliest rule on a tie). When none matches,
 * the bash rules' own effect applies (the strictest across bash rules),
 * else the fallback. A redirection is a file request (lf_decide_file). A
 * part the analyser could not see through is at best ask.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/decide_index.h"
#include "core/shell.h"

/* ------------------------------------------------------------------------
 * Command matchers.
 */

/* p at '['; on success returns the end of the class and sets *hit. NULL
 * for an unterminated class, which then stands for a literal '['. */
static const char *class_match(const char *p, const char *pe, unsigned char c, bool *hit)
{
	const char *q = p + 1;
	bool neg = false, in = false;

	if (q < pe && (*q == '!' || *q == '^')) {
		neg = true;
		q++;
	}
	const char *first = q;
	while (q < pe && (*q != ']' || q == first)) {
		unsigned char lo = (unsigned char)*q, hi;
		if (lo == '\\' && q + 1 < pe)
			lo = (unsigned char)*++q;
		q++;
		if (q + 1 < pe && *q == '-' && q[1] != ']') {
			hi = (unsigned char)q[1];
			q += 2;
			if (hi == '\\' && q < pe)
				hi = (unsigned char)*q++;
		} else {
			hi = lo;
		}
		if (lo <= c && c <= hi)
			in = true;
	}
	if (q >= pe)
		return NULL;
	*hit = in != neg;
	return q + 1;
}

static bool blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n';
}

/* One pattern element against one character: the element's end, or NULL. */
static const char *glob_one(const char *p, const char *pe, char c)
{
	bool hit;

	switch (*p) {
	case '?':
		return p + 1;
	case '[': {
		const char *q = class_match(p, pe, (unsigned char)c, &hit);
		if (q)
			return hit ? q : NULL;
		return c == '[' ? p + 1 : NULL;
	}
	case '\\':
		if (p + 1 < pe)
			return c == p[1] ? p + 2 : NULL;
		return c == '\\' ? p + 1 : NULL;
	default:
		if (blank(*p)) {
			/* the command text joins words with single spaces */
			if (c != ' ')
				return NULL;
			while (p < pe && blank(*p))
				p++;
			return p;
		}
		return c == *p ? p + 1 : NULL;
	}
}

/* The classic one-star backtracking matcher: linear for one '*', and a
 * later '*' only moves the resume point forward, so it never explodes. */
static bool glob_match(const char *p, const char *pe, const char *text, size_t len, bool prefix_ok)
{
	const char *star = NULL;
	size_t t = 0, mark = 0;

	while (t < len) {
		if (p < pe && *p == '*') {
			while (p < pe && *p == '*')
				p++;
			star = p;
			mark = t;
			continue;
		}
		if (p < pe) {
			const char *q = glob_one(p, pe, text[t]);
			if (q) {
				p = q;
				t++;
				continue;
			}
		}
		if (!star)
			return false;
		p = star;
		t = ++mark;
	}
	if (prefix_ok)
		return true;
	while (p < pe && *p == '*')
		p++;
	return p == pe;
}

bool lf_cmd_glob_match(const char *pattern, const char *text, size_t len, bool prefix_ok)
{
	return glob_match(pattern, pattern + strlen(pattern), text, len, prefix_ok);
}

/* For an allow glob on a command with more arguments to come: true only
 * when every completion matches, i.e. the pattern is "P *" (or only
 * stars) and P matches the command as written. */
static bool glob_allows_any_tail(const char *pattern, const char *text, size_t len)
{
	size_t n = strlen(pattern);
	size_t k = n;

	while (k > 0 && pattern[k - 1] == '*')
		k--;
	if (k == 0)
		return true;
	if (k == n || !blank(pattern[k - 1]) || (k >= 2 && pattern[k - 2] == '\\'))
		return false;
	while (k > 0 && blank(pattern[k - 1]))
		k--;
	return glob_match(pattern, pattern + k, text, len, false);
}

bool lf_cmd_rule_match(const struct lf_cmd_rule *c, const struct lf_cmd_view *v)
{
	bool allow = c->effect == LF_ALLOW;

	if (v->argc == 0)
		return false;
	if (c->matcher == LF_MATCH_GLOB) {
		if (!v->open_args)
			return glob_match(c->text, c->text + strlen(c->text), v->text, v->len,
					  false);
		if (allow)
			return glob_allows_any_tail(c->text, v->text, v->len);
		return glob_match(c->text, c->text + strlen(c->text), v->text, v->len, true);
	}

	size_t n = c->ntokens;
	size_t k = n < v->argc ? n : v->argc;
	if (n == 0 || strcmp(c->tokens[0], v->prog) != 0)
		return false;
	for (size_t i = 1; i < k; i++)
		if (strcmp(c->tokens[i], v->argv[i].text) != 0)
			return false;
	/* the leading min(n, argc) tokens agree */
	if (c->matcher == LF_MATCH_EXACT) {
		if (!v->open_args)
			return n == v->argc;
		return !allow && v->argc <= n;
	}
	if (v->argc >= n)
		return true;
	return v->open_args && !allow;
}

/* ------------------------------------------------------------------------
 * Could a pattern match? Words the shell still expands ($x, a pathname
 * pattern) may become anything; a rule that could match some expansion
 * must be taken into account. Both sides are reduced to "star patterns":
 * literal bytes, ONE (any one byte) and STAR (any run, also empty). The
 * reduction only ever widens what a side matches, so "no intersection"
 * is a proof and "intersection" may be a false alarm (which only asks).
 */
#define SP_ONE 256
#define SP_STAR 257
#define SP_SEG 258  /* any run without '/': a path glob's '*' */
#define SP_MAX 4096 /* longer: assume they intersect */

struct spat {
	uint16_t *v;
	size_t n, cap;
	bool over; /* too long: treated as "could match anything" */
};

static void sp_put(struct spat *p, unsigned e)
{
	if (p->over)
		return;
	if (p->n == p->cap) {
		p->over = true;
		return;
	}
	/* two stars in a row are one star (the wider one) */
	if (e >= SP_STAR && p->n && p->v[p->n - 1] >= SP_STAR) {
		if (e == SP_STAR)
			p->v[p->n - 1] = SP_STAR;
		return;
	}
	p->v[p->n++] = (uint16_t)e;
}

/* A command glob (lf_cmd_glob_match's syntax) as a star pattern. */
static void sp_from_cmd_glob(struct spat *p, const char *g)
{
	while (*g) {
		if (*g == '*') {
			sp_put(p, SP_STAR);
			g++;
		} else if (*g == '?') {
			sp_put(p, SP_ONE);
			g++;
		} else if (*g == '[') {
			const char *e = strchr(g + 2, ']');
			if (e) {
				sp_put(p, SP_ONE);
				g = e + 1;
			} else {
				sp_put(p, (unsigned char)*g++);
			}
		} else if (*g == '\\' && g[1]) {
			sp_put(p, (unsigned char)g[1]);
			g += 2;
		} else if (blank(*g)) {
			sp_put(p, ' ');
			while (blank(*g))
				g++;
		} else {
			sp_put(p, (unsigned char)*g++);
		}
	}
}

/* A path glob (a file rule's, or an unquoted word's): "**" as STAR, '*',
 * a class or an escape as SEG (wider than what they match), '?' as ONE. */
static void sp_from_path_glob(struct spat *p, const char *g, size_t len)
{
	for (size_t k = 0; k < len; k++) {
		char c = g[k];
		if (c == '*' && k + 1 < len && g[k + 1] == '*') {
			sp_put(p, SP_STAR);
			k++;
		} else if (c == '[') {
			/* a class: one character, its text is no literal */
			size_t from = k + 2 < len ? k + 2 : len;
			const char *e = memchr(g + from, ']', len - from);
			sp_put(p, SP_SEG);
			if (e)
				k = (size_t)(e - g);
		} else if (c == '*' || c == ']' || c == '\\') {
			sp_put(p, SP_SEG);
		} else if (c == '?') {
			sp_put(p, SP_ONE);
		} else {
			sp_put(p, (unsigned char)c);
		}
	}
}

static void sp_lit(struct spat *p, const char *s, size_t len)
{
	for (size_t k = 0; k < len; k++)
		sp_put(p, (unsigned char)s[k]);
}

/* Whether some string matches both a and b: reachability over pairs of
 * positions, row by row (every step moves forward in a, in b or both). */
static bool sp_intersect(const struct spat *a, const struct spat *b, bool *row_a, bool *row_b,
			 size_t *budget)
{
	size_t na = a->n, nb = b->n;
	bool *cur = row_a, *next = row_b;

	if (a->over || b->over)
		return true;
	/* Elements that take exactly one character at either end of both
	 * sides must take the same one: compared directly, they leave the
	 * table (most rules differ from the command in their first bytes). */
	const uint16_t *va = a->v, *vb = b->v;
	while (na && nb && va[0] < SP_STAR && vb[0] < SP_STAR) {
		if (va[0] != vb[0] && va[0] != SP_ONE && vb[0] != SP_ONE)
			return false;
		va++;
		vb++;
		na--;
		nb--;
	}
	while (na && nb && va[na - 1] < SP_STAR && vb[nb - 1] < SP_STAR) {
		if (va[na - 1] != vb[nb - 1] && va[na - 1] != SP_ONE && vb[nb - 1] != SP_ONE)
			return false;
		na--;
		nb--;
	}
	/* bounded work per line (a hostile line of many patterns): past the
	 * budget every pair is assumed to intersect, which only asks */
	size_t cost = (na + 1) * (nb + 1);
	if (cost > *budget)
		return true;
	*budget -= cost;
	memset(cur, 0, nb + 1);
	cur[0] = true;
	for (size_t i = 0; i <= na; i++) {
		memset(next, 0, nb + 1);
		for (size_t j = 0; j <= nb; j++) {
			if (!cur[j])
				continue;
			unsigned ea = i < na ? va[i] : 0, eb = j < nb ? vb[j] : 0;
			bool sa = i < na && ea >= SP_STAR, sb = j < nb && eb >= SP_STAR;
			if (i == na && j == nb)
				return true;
			/* a star may end (skip it), or produce the one character
			 * the other side's element takes (a SEG never a '/') */
			if (sa) {
				next[j] = true;
				if (j < nb && !sb && (ea == SP_STAR || eb != '/'))
					cur[j + 1] = true;
			}
			if (sb) {
				cur[j + 1] = true;
				if (i < na && !sa && (eb == SP_STAR || ea != '/'))
					next[j] = true;
			}
			if (i < na && j < nb && !sa && !sb &&
			    (ea == eb || ea == SP_ONE || eb == SP_ONE))
				next[j + 1] = true;
		}
		bool *t = cur;
		cur = next;
		next = t;
	}
	return false;
}

/* ------------------------------------------------------------------------
 * The command rules of a resolved policy, by the first byte they can
 * match: a command is compared only with the rules that start with its
 * own first byte, and with the globs that start with a wildcard.
 */
struct bash_entry {
	const struct lf_cmd_rule *c;
	const struct lf_rule *owner;
	size_t seq; /* policy order: the earliest wins a tie */
};

struct lf_bash_index {
	const struct lf_rule **bash; /* the bash rules, in order */
	size_t nbash;
	bool has_globs;	      /* some command rule is a glob */
	struct bash_entry *v; /* by first byte: v[start[b]..start[b + 1]) */
	size_t start[257];
	struct bash_entry *wild; /* globs that start with a wildcard */
	size_t nwild;
};

/* The byte every command c matches starts with, or -1 when it may start
 * with any (a glob's wildcard or escape). */
static int entry_key(const struct lf_cmd_rule *c)
{
	if (c->matcher != LF_MATCH_GLOB)
		return c->ntokens ? (unsigned char)c->tokens[0][0] : -1;
	char g = c->text[0];
	return g == '*' || g == '?' || g == '[' || g == '\\' || g == '\0' ? -1 : (unsigned char)g;
}

void lf_bash_index_free(struct lf_bash_index *ix)
{
	if (!ix)
		return;
	free(ix->bash);
	free(ix->v);
	free(ix->wild);
	free(ix);
}

int lf_bash_index_build(const struct lf_effective *e, struct lf_bash_index **out)
{
	struct lf_bash_index *ix = calloc(1, sizeof(*ix));
	size_t ncmds = 0, seq = 0;

	if (!ix)
		return -ENOMEM;
	for (size_t i = 0; i < e->nrules; i++)
		if (e->rules[i]->cap == LF_CAP_BASH)
			ncmds += e->rules[i]->ncmds;
	ix->bash = malloc((e->nrules ? e->nrules : 1) * sizeof(*ix->bash));
	ix->v = malloc((ncmds ? ncmds : 1) * sizeof(*ix->v));
	ix->wild = malloc((ncmds ? ncmds : 1) * sizeof(*ix->wild));
	if (!ix->bash || !ix->v || !ix->wild) {
		lf_bash_index_free(ix);
		return -ENOMEM;
	}
	/* counting sort by key, stable: policy order within a byte */
	for (size_t i = 0; i < e->nrules; i++) {
		const struct lf_rule *r = e->rules[i];
		if (r->cap != LF_CAP_BASH)
			continue;
		ix->bash[ix->nbash++] = r;
		for (size_t k = 0; k < r->ncmds; k++) {
			int key = entry_key(&r->cmds[k]);
			if (key >= 0)
				ix->start[key + 1]++;
			ix->has_globs = ix->has_globs || r->cmds[k].matcher == LF_MATCH_GLOB;
		}
	}
	for (size_t b = 1; b <= 256; b++)
		ix->start[b] += ix->start[b - 1];
	size_t fill[256];
	memcpy(fill, ix->start, sizeof(fill));
	for (size_t i = 0; i < ix->nbash; i++) {
		const struct lf_rule *r = ix->bash[i];
		for (size_t k = 0; k < r->ncmds; k++, seq++) {
			struct bash_entry en = { &r->cmds[k], r, seq };
			int key = entry_key(&r->cmds[k]);
			if (key >= 0)
				ix->v[fill[key]++] = en;
			else
				ix->wild[ix->nwild++] = en;
		}
	}
	*out = ix;
	return 0;
}

/* ------------------------------------------------------------------------
 * Deciding a line.
 */
#define MAX_CWDS 8
#define CWD_MAX 1024
#define MAX_LINKS 8
#define MAX_WRITTEN 16
#define MAX_SCOPES 2

struct bash_ctx {
	const struct lf_effective *e;
	const char *root;
	size_t ncwd;
	bool cwd_unknown;
	bool has_globs; /* some command rule is a glob: build the joined text */
	/* the bash rules, in order: parts are matched against these only */
	const struct lf_rule *const *bash;
	size_t nbash;
	const struct lf_bash_index *ix;
	struct lf_bash_index *own_ix; /* the policy came without one */
	char *join;
	size_t joincap;
	bool have;
	struct lf_verdict best;
	bool have_unmatched; /* the verdict for a command no rule names */
	struct lf_verdict unmatched;
	/* the caller's check of file requests (the kernel's final rules) */
	lf_bash_file_check_fn file_check;
	void *file_ctx;
	/* canonical paths of file words, from the caller */
	const struct lf_path_alias *aliases;
	size_t naliases;
	size_t sp_budget; /* pattern cells left for this line */
	/* links this line makes (ln, cp -s, an extracted tree), and the files
	 * it writes: a later path through the one, a later run of the other,
	 * is not what it seems */
	size_t nlinks, nwritten;
	bool links_over, written_over;
	/* cd DIR && …: the directories before the cd, restored (joined) after */
	size_t nscopes, scopes_over;
	/* ---- below: buffers, not cleared ---- */
	/* where relative targets may land: the start directory and every
	 * literal `cd` target seen so far (a subshell may have left again,
	 * so none is ever forgotten) */
	char cwds[MAX_CWDS][CWD_MAX];
	struct {
		char cwds[MAX_CWDS][CWD_MAX];
		size_t ncwd;
		bool unknown;
	} scopes[MAX_SCOPES];
	char links[MAX_LINKS][CWD_MAX];
	char written[MAX_WRITTEN][CWD_MAX];
	char path[CWD_MAX * 2 + 2];
	/* star patterns for words the shell still expands (could-match) */
	uint16_t sp_t[SP_MAX], sp_r[SP_MAX];
	bool sp_row[2][SP_MAX + 1];
	char sp_path[SP_MAX];
};

static void verdict_rule(struct lf_verdict *v, enum lf_effect eff, enum lf_layer layer,
			 struct lf_source src)
{
	v->effect = eff;
	v->from_fallback = false;
	v->layer = layer;
	v->source = src;
}

/* No command rule matched: the bash rules' own effect (the strictest, the
 * earliest on a tie), else the fallback. */
static void verdict_unmatched(const struct lf_effective *e, const struct lf_rule *const *bash,
			      size_t nbash, struct lf_verdict *v)
{
	const struct lf_rule *best = NULL;

	for (size_t i = 0; i < nbash; i++)
		if (!best || bash[i]->effect > best->effect)
			best = bash[i];
	if (best) {
		verdict_rule(v, best->effect, best->layer, best->source);
	} else {
		v->effect = e->fallback;
		v->from_fallback = true;
	}
}

/* Whether command rule c could match the view whose program starts with
 * p0 p1 and whose joined text with t0 t1: most rules name another program
 * and are rejected on the first bytes before any real matching. */
static bool entry_may_match(const struct lf_cmd_rule *c, char p0, char p1, char t0, char t1)
{
	if (c->matcher != LF_MATCH_GLOB)
		return c->ntokens && c->tokens[0][0] == p0 && (!p0 || c->tokens[0][1] == p1);
	if (!t0)
		return true;
	char g = c->text[0], h;
	if (g == '*' || g == '?' || g == '[' || g == '\\')
		return true;
	if (g != t0)
		return false;
	h = c->text[1];
	return !t1 || !h || h == t1 || h == '*' || h == '?' || h == '[' || h == '\\' || h == ' ' ||
	       h == '\t';
}

static void entry_try(const struct bash_entry *en, const struct lf_cmd_view *view, char p0, char p1,
		      char t0, char t1, const struct lf_cmd_rule **best,
		      const struct lf_rule **owner)
{
	if (*best && en->c->effect <= (*best)->effect)
		return;
	if (entry_may_match(en->c, p0, p1, t0, t1) && lf_cmd_rule_match(en->c, view)) {
		*best = en->c;
		*owner = en->owner;
	}
}

/* The strictest matching command rule for one view (the earliest on a
 * tie), raising *best. */
static void match_view(const struct lf_bash_index *ix, const struct lf_cmd_view *view,
		       const struct lf_cmd_rule **best, const struct lf_rule **owner)
{
	char p0 = view->prog[0], p1 = '\0', t0 = '\0', t1 = '\0';

	if (p0)
		p1 = view->prog[1];
	if (view->len)
		t0 = view->text[0];
	if (view->len > 1)
		t1 = view->text[1];
	if (ix->has_globs && (t0 != p0 || !t0)) {
		/* no text, or one that does not start with the program: every
		 * rule in order */
		for (size_t i = 0; i < ix->nbash; i++)
			for (size_t k = 0; k < ix->bash[i]->ncmds; k++) {
				struct bash_entry en = { &ix->bash[i]->cmds[k], ix->bash[i], 0 };
				entry_try(&en, view, p0, p1, t0, t1, best, owner);
			}
		return;
	}
	/* the rules of the program's first byte and the wildcard globs,
	 * merged in policy order */
	const struct bash_entry *a = ix->v + ix->start[(unsigned char)p0],
				*ae = ix->v + ix->start[(unsigned char)p0 + 1], *w = ix->wild,
				*we = ix->wild + ix->nwild;
	while (a < ae || w < we) {
		const struct bash_entry *en = w == we || (a < ae && a->seq < w->seq) ? a++ : w++;
		entry_try(en, view, p0, p1, t0, t1, best, owner);
	}
}

/* dst = a followed by b, truncated to size. */
static void set_text(char *dst, size_t size, const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);

	if (la >= size)
		la = size - 1;
	memcpy(dst, a, la);
	if (lb >= size - la)
		lb = size - la - 1;
	memcpy(dst + la, b, lb);
	dst[la + lb] = '\0';
}

static int join_words(struct bash_ctx *bc, const struct lf_shell_part *part, size_t *len)
{
	size_t need = 1;

	for (size_t k = 0; k < part->argc; k++)
		need += part->argv[k].len + 1;
	if (need > bc->joincap) {
		char *j = realloc(bc->join, need);
		if (!j)
			return -ENOMEM;
		bc->join = j;
		bc->joincap = need;
	}
	size_t n = 0;
	for (size_t k = 0; k < part->argc; k++) {
		if (k)
			bc->join[n++] = ' ';
		memcpy(bc->join + n, part->argv[k].text, part->argv[k].len);
		n += part->argv[k].len;
	}
	bc->join[n] = '\0';
	*len = n;
	return 0;
}

/* The first deny command rule matching v, or NULL. */
static const struct lf_cmd_rule *deny_matching(const struct bash_ctx *bc,
					       const struct lf_cmd_view *v)
{
	for (size_t i = 0; i < bc->nbash; i++)
		for (size_t k = 0; k < bc->bash[i]->ncmds; k++)
			if (bc->bash[i]->cmds[k].effect == LF_DENY &&
			    lf_cmd_rule_match(&bc->bash[i]->cmds[k], v))
				return &bc->bash[i]->cmds[k];
	return NULL;
}

/* A word the shell still expands: what it becomes is unknown here. */
static bool word_wild(const struct lf_shell_word *w)
{
	return (w->flags & LF_WORD_NOT_LITERAL) != 0;
}

/* dst += s, truncated, always NUL terminated. */
static void text_add(char *dst, size_t size, const char *s)
{
	size_t n = strlen(dst), l = strlen(s);

	if (n + 1 >= size)
		return;
	if (l > size - n - 1)
		l = size - n - 1;
	memcpy(dst + n, s, l);
	dst[n + l] = '\0';
}

/* The command as a star pattern: literal words joined by single spaces,
 * each expanded word a STAR that also stands for the blanks around it
 * (it may become no word, or several). prog replaces the first word. */
static void sp_command(struct bash_ctx *bc, const struct lf_shell_part *part, const char *prog,
		       struct spat *t)
{
	bool prev_lit = false;

	*t = (struct spat){ .v = bc->sp_t, .cap = SP_MAX };
	for (size_t k = 0; k < part->argc; k++) {
		const struct lf_shell_word *w = &part->argv[k];
		if (word_wild(w)) {
			sp_put(t, SP_STAR);
			prev_lit = false;
			continue;
		}
		if (prev_lit)
			sp_put(t, ' ');
		if (k == 0)
			sp_lit(t, prog, strlen(prog));
		else
			sp_lit(t, w->text, w->len);
		prev_lit = true;
	}
	if (part->open_args)
		sp_put(t, SP_STAR);
}

/* Whether command rule c could match some expansion of the command t. */
static bool cmd_rule_could_match(struct bash_ctx *bc, const struct lf_cmd_rule *c,
				 const struct spat *t)
{
	struct spat r = { .v = bc->sp_r, .cap = SP_MAX };

	if (c->matcher == LF_MATCH_GLOB) {
		sp_from_cmd_glob(&r, c->text);
		return sp_intersect(&r, t, bc->sp_row[0], bc->sp_row[1], &bc->sp_budget);
	}
	for (size_t i = 0; i < c->ntokens; i++) {
		if (i)
			sp_put(&r, ' ');
		sp_lit(&r, c->tokens[i], strlen(c->tokens[i]));
	}
	if (sp_intersect(&r, t, bc->sp_row[0], bc->sp_row[1], &bc->sp_budget))
		return true;
	if (c->matcher != LF_MATCH_PREFIX)
		return false;
	sp_put(&r, ' ');
	sp_put(&r, SP_STAR);
	return sp_intersect(&r, t, bc->sp_row[0], bc->sp_row[1], &bc->sp_budget);
}

static const char *matcher_name(enum lf_matcher m)
{
	return m == LF_MATCH_EXACT ? "exact" : m == LF_MATCH_PREFIX ? "prefix" : "glob";
}

/*
 * An allowed command with words the shell still expands ($x, ${x:-y}, a
 * pathname pattern): every expansion must be allowed. When some deny or
 * ask command rule could match one of them, the part is at best ask,
 * naming that rule (the strictest, the earliest on a tie).
 */
static void expanded_words_check(struct bash_ctx *bc, const struct lf_shell_part *part,
				 struct lf_verdict *v)
{
	const struct lf_shell_word *wild = NULL;
	const struct lf_cmd_rule *best = NULL;
	const struct lf_rule *owner = NULL;
	struct spat t, tb;

	for (size_t k = 0; k < part->argc && !wild; k++)
		if (word_wild(&part->argv[k]))
			wild = &part->argv[k];
	/* a part with a reason is at best ask already, and the reason says
	 * why, unless the reason is about an expanded word itself */
	if (!wild || v->effect != LF_ALLOW || (part->reason && !part->reason_weak))
		return;
	const char *prog = part->argv[0].text;
	const char *slash = strrchr(prog, '/');
	sp_command(bc, part, prog, &t);
	for (size_t i = 0; i < bc->nbash; i++) {
		const struct lf_rule *r = bc->bash[i];
		for (size_t k = 0; k < r->ncmds; k++) {
			const struct lf_cmd_rule *c = &r->cmds[k];
			if (c->effect == LF_ALLOW || (best && c->effect <= best->effect))
				continue;
			bool could = cmd_rule_could_match(bc, c, &t);
			if (!could && slash && slash[1] && !word_wild(&part->argv[0])) {
				/* /bin/rm is judged like rm: the basename too */
				sp_command(bc, part, slash + 1, &tb);
				could = cmd_rule_could_match(bc, c, &tb);
				sp_command(bc, part, prog, &t);
			}
			if (could) {
				best = c;
				owner = r;
			}
		}
	}
	if (!best)
		return;
	verdict_rule(v, LF_ASK, owner->layer, best->source);
	v->reason[0] = '\0';
	text_add(v->reason, sizeof(v->reason), "the shell expands ");
	text_add(v->reason, sizeof(v->reason), wild->text);
	text_add(v->reason, sizeof(v->reason), ", which could make it match the ");
	text_add(v->reason, sizeof(v->reason), lf_effect_name(best->effect));
	text_add(v->reason, sizeof(v->reason), " rule ");
	text_add(v->reason, sizeof(v->reason), matcher_name(best->matcher));
	text_add(v->reason, sizeof(v->reason), " \"");
	text_add(v->reason, sizeof(v->reason), best->text);
	text_add(v->reason, sizeof(v->reason), "\"");
}

static int decide_command(struct bash_ctx *bc, const struct lf_shell_part *part,
			  struct lf_verdict *v, bool *matched)
{
	const char *prog = part->argv[0].text;
	struct lf_cmd_view view = {
		.argv = part->argv,
		.argc = part->argc,
		.prog = prog,
		.open_args = part->open_args,
	};
	const struct lf_cmd_rule *best = NULL;
	const struct lf_rule *owner = NULL;
	int r;

	if (bc->has_globs && (r = join_words(bc, part, &view.len)) < 0)
		return r;
	size_t full_len = view.len;
	view.text = bc->join ? bc->join : "";
	match_view(bc->ix, &view, &best, &owner);

	/* /bin/rm is judged like rm too */
	const char *slash = strrchr(prog, '/');
	if (slash && slash[1]) {
		size_t skip = (size_t)(slash + 1 - prog);
		view.prog = slash + 1;
		if (bc->has_globs) {
			view.text += skip;
			view.len -= skip;
		}
		match_view(bc->ix, &view, &best, &owner);
	}
	if (!best) {
		if (!bc->have_unmatched) {
			memset(&bc->unmatched, 0, sizeof(bc->unmatched));
			verdict_unmatched(bc->e, bc->bash, bc->nbash, &bc->unmatched);
			bc->have_unmatched = true;
		}
		*v = bc->unmatched;
		*matched = false;
		expanded_words_check(bc, part, v);
		/* an ask naming the rule an expansion could match says more than
		 * "not analysable" */
		if (bc->unmatched.effect == LF_ALLOW && v->effect == LF_ASK &&
		    (!part->reason || part->reason_weak))
			*matched = true;
		return 0;
	}
	verdict_rule(v, best->effect, owner->layer, best->source);
	*matched = true;
	if (part->open_args && best->effect == LF_DENY) {
		/* xargs: a deny that only could match once standard input adds
		 * arguments is not certain: ask, unless some deny matches the
		 * command as written */
		const struct lf_cmd_rule *sure = NULL;
		view.open_args = false;
		view.prog = prog;
		view.text = bc->join ? bc->join : "";
		view.len = full_len;
		sure = deny_matching(bc, &view);
		if (!sure && slash && slash[1]) {
			view.prog = slash + 1;
			if (bc->has_globs) {
				view.text += (size_t)(slash + 1 - prog);
				view.len -= (size_t)(slash + 1 - prog);
			}
			sure = deny_matching(bc, &view);
		}
		if (sure) {
			v->source = sure->source;
		} else {
			v->effect = LF_ASK;
			set_text(v->reason, sizeof(v->reason), "",
				 "a denied command could match once standard input adds arguments");
		}
	}
	expanded_words_check(bc, part, v);
	return 0;
}

static bool is_harmless_target(const char *t)
{
	static const char *const dev[] = { "/dev/null", "/dev/stdout", "/dev/stderr",
					   "/dev/tty",	"/dev/stdin",  NULL };
	for (size_t k = 0; dev[k]; k++)
		if (!strcmp(t, dev[k]))
			return true;
	if (!strncmp(t, "/dev/fd/", 8) && t[8]) {
		for (t += 8; *t; t++)
			if (*t < '0' || *t > '9')
				return false;
		return true;
	}
	return false;
}

/* A file request on a literal path as the shell sees it: absolute, or
 * relative to each directory the line may be in (the strictest verdict).
 * *known is false when no directory could be used. */
static int decide_path(struct bash_ctx *bc, enum lf_capability cap, const char *t, size_t len,
		       struct lf_verdict *v, bool *known)
{
	struct lf_verdict one;
	int r;

	*known = true;
	if (t[0] == '/')
		return lf_decide_file(bc->e, bc->root, cap, t, v);
	bool have = false;
	for (size_t k = 0; k < bc->ncwd; k++) {
		size_t cl = strlen(bc->cwds[k]);
		if (cl + 1 + len + 1 > sizeof(bc->path)) {
			bc->cwd_unknown = true;
			continue;
		}
		memcpy(bc->path, bc->cwds[k], cl);
		bc->path[cl] = '/';
		memcpy(bc->path + cl + 1, t, len + 1);
		if ((r = lf_decide_file(bc->e, bc->root, cap, bc->path, &one)) < 0)
			return r;
		if (!have || one.effect > v->effect)
			*v = one;
		have = true;
	}
	*known = have;
	return 0;
}

/* The canonical path the caller found for the file word t, or NULL. */
static const char *alias_of(const struct bash_ctx *bc, const char *t)
{
	for (size_t k = 0; k < bc->naliases; k++)
		if (!strcmp(bc->aliases[k].word, t))
			return bc->aliases[k].canon;
	return NULL;
}

static int decide_redirect(struct bash_ctx *bc, const struct lf_shell_part *part,
			   struct lf_verdict *v, bool *skip)
{
	const char *t = part->target->text;
	bool known;
	int r;

	*skip = false;
	if (part->reason) {
		v->effect = LF_ASK;
		return 0;
	}
	if (is_harmless_target(t)) {
		*skip = true;
		return 0;
	}
	if (part->target->len == 0)
		t = ".";
	if ((r = decide_path(bc, part->cap, t, strlen(t), v, &known)) < 0)
		return r;
	const char *canon = bc->naliases ? alias_of(bc, t) : NULL;
	if (canon && canon[0] == '/') {
		/* the same file through its symlinks: the stricter verdict */
		struct lf_verdict cv;
		bool cknown;
		if ((r = decide_path(bc, part->cap, canon, strlen(canon), &cv, &cknown)) < 0)
			return r;
		if (cknown && (!known || cv.effect > v->effect)) {
			*v = cv;
			known = true;
		}
	}
	if (!known) {
		v->effect = LF_ASK;
		v->from_fallback = false;
		v->source = (struct lf_source){ 0 };
	}
	return 0;
}

/* A glob made only of stars and slashes matches every path: it says
 * nothing about the word being a file. */
static bool glob_matches_all(const struct lf_glob *g)
{
	for (const char *p = g->pattern; *p; p++)
		if (*p != '*' && *p != '/')
			return false;
	return true;
}

/*
 * The strictest deny or ask file rule of cap naming the word t (a literal
 * path, relative to each directory the line may be in). Rules whose globs
 * match every path are left out: under "ask read **" every word would
 * otherwise look like a file. *known: some rule matched.
 */
static int argument_rules(struct bash_ctx *bc, enum lf_capability cap, const char *t, size_t len,
			  struct lf_verdict *v, bool *known)
{
	const struct lf_effective *e = bc->e;
	const struct lf_rule *best = NULL;
	char rel[CWD_MAX * 2 + 2];

	*known = false;
	for (size_t k = 0; k < (t[0] == '/' ? 1 : bc->ncwd); k++) {
		const char *abs = t;
		if (t[0] != '/') {
			size_t cl = strlen(bc->cwds[k]);
			if (cl + 1 + len + 1 > sizeof(bc->path))
				continue;
			memcpy(bc->path, bc->cwds[k], cl);
			bc->path[cl] = '/';
			memcpy(bc->path + cl + 1, t, len + 1);
			abs = bc->path;
		}
		int r = lf_path_relative(bc->root, abs, rel, sizeof(rel));
		if (r == -ENAMETOOLONG || r == 1)
			continue; /* outside the project: no rule names it */
		if (r < 0)
			return r;
		for (size_t i = 0; i < e->nrules; i++) {
			const struct lf_rule *rule = e->rules[i];
			if (rule->cap != cap || rule->effect == LF_ALLOW ||
			    (best && rule->effect <= best->effect))
				continue;
			for (size_t g = 0; g < rule->nglobs; g++) {
				if (!glob_matches_all(&rule->globs[g]) &&
				    lf_glob_match(&rule->globs[g], rel)) {
					best = rule;
					break;
				}
			}
		}
	}
	if (best) {
		memset(v, 0, sizeof(*v));
		verdict_rule(v, best->effect, best->layer, best->source);
		*known = true;
	}
	return 0;
}

/*
 * Lexical normalisation of dir "/" word into out: "", "." dropped, ".."
 * removes the component before it. false when that component is a pattern
 * (what ".." leaves is unknown) or out is too small.
 */
static bool glob_path_clean(const char *dir, const char *word, char *out, size_t size)
{
	size_t n = 0;

	for (int part = dir ? 0 : 1; part < 2; part++) {
		const char *in = part ? word : dir;
		while (*in) {
			while (*in == '/')
				in++;
			const char *e = strchrnul(in, '/');
			size_t seg = (size_t)(e - in);
			if (seg == 0 || (seg == 1 && in[0] == '.')) {
				/* nothing */
			} else if (seg == 2 && in[0] == '.' && in[1] == '.') {
				size_t k = n;
				while (k > 0 && out[k - 1] != '/')
					k--;
				if (strpbrk(out + k, "*?[]\\"))
					return false;
				n = k ? k - 1 : 0;
				out[n] = '\0';
			} else {
				if (n + 1 + seg + 1 > size)
					return false;
				out[n++] = '/';
				memcpy(out + n, in, seg);
				n += seg;
				out[n] = '\0';
			}
			in = e;
		}
	}
	if (n == 0)
		out[n++] = '/';
	out[n] = '\0';
	return true;
}

/*
 * An unquoted pathname pattern among the arguments (`cat .e*`) may name
 * any path it matches. The strictest deny or ask file rule of cap that
 * could match such a path (its globs, anchored at the project root, also
 * cover what lies below); rules matching every path are left out as in
 * argument_rules. *known: some rule could.
 */
static void argument_glob_rules(struct bash_ctx *bc, enum lf_capability cap,
				const struct lf_shell_word *w, struct lf_verdict *v, bool *known)
{
	const struct lf_effective *e = bc->e;
	const struct lf_rule *best = NULL;
	struct spat t, r;

	*known = false;
	for (size_t k = 0; k < (w->text[0] == '/' ? 1 : bc->ncwd); k++) {
		bool ok = glob_path_clean(w->text[0] == '/' ? NULL : bc->cwds[k], w->text,
					  bc->sp_path, sizeof(bc->sp_path));
		t = (struct spat){ .v = bc->sp_t, .cap = SP_MAX, .over = !ok };
		if (ok)
			sp_from_path_glob(&t, bc->sp_path, strlen(bc->sp_path));
		for (size_t i = 0; i < e->nrules; i++) {
			const struct lf_rule *rule = e->rules[i];
			if (rule->cap != cap || rule->effect == LF_ALLOW ||
			    (best && rule->effect <= best->effect))
				continue;
			for (size_t g = 0; g < rule->nglobs; g++) {
				const struct lf_glob *gl = &rule->globs[g];
				if (glob_matches_all(gl))
					continue;
				r = (struct spat){ .v = bc->sp_r, .cap = SP_MAX };
				sp_lit(&r, bc->root, strlen(bc->root));
				if (gl->pattern[0]) {
					if (!bc->root[0] || bc->root[strlen(bc->root) - 1] != '/')
						sp_put(&r, '/');
					sp_from_path_glob(&r, gl->pattern, strlen(gl->pattern));
				}
				bool could = sp_intersect(&r, &t, bc->sp_row[0], bc->sp_row[1],
							  &bc->sp_budget);
				if (!could) {
					/* the rule also covers what lies below */
					sp_put(&r, '/');
					sp_put(&r, SP_STAR);
					could = sp_intersect(&r, &t, bc->sp_row[0], bc->sp_row[1],
							     &bc->sp_budget);
				}
				if (could) {
					best = rule;
					break;
				}
			}
		}
	}
	if (best) {
		memset(v, 0, sizeof(*v));
		verdict_rule(v, LF_ASK, best->layer, best->source);
		*known = true;
	}
}

/* A literal path as the shell sees it, joined to each directory the line
 * may be in, passed to the caller's check (the kernel's final rules):
 * the stricter verdict. */
static int file_check_all(struct bash_ctx *bc, enum lf_capability cap, const char *t, size_t len,
			  struct lf_verdict *v)
{
	if (!bc->file_check)
		return 0;
	if (t[0] == '/')
		return bc->file_check(bc->file_ctx, cap, t, v);
	for (size_t k = 0; k < bc->ncwd; k++) {
		size_t cl = strlen(bc->cwds[k]);
		if (cl + 1 + len + 1 > sizeof(bc->path))
			continue;
		memcpy(bc->path, bc->cwds[k], cl);
		bc->path[cl] = '/';
		memcpy(bc->path + cl + 1, t, len + 1);
		int r = bc->file_check(bc->file_ctx, cap, bc->path, v);
		if (r < 0)
			return r;
	}
	return 0;
}

/* p is base or lies below it. */
static bool path_under(const char *p, const char *base)
{
	size_t n = strlen(base);
	return !strncmp(p, base, n) && (p[n] == '\0' || p[n] == '/' || (n == 1 && base[0] == '/'));
}

/* The clean absolute paths the literal word t may name (one per
 * directory the line may be in), passed to fn; stops when fn is true. */
static bool paths_of(struct bash_ctx *bc, const char *t,
		     bool (*fn)(struct bash_ctx *bc, const char *path, void *arg), void *arg)
{
	char p[CWD_MAX];

	for (size_t k = 0; k < (t[0] == '/' ? 1 : bc->ncwd); k++) {
		if (!glob_path_clean(t[0] == '/' ? NULL : bc->cwds[k], t, p, sizeof(p)))
			return true; /* not known: as if it were */
		if (fn(bc, p, arg))
			return true;
	}
	return false;
}

static bool is_through_link(struct bash_ctx *bc, const char *p, void *arg)
{
	(void)arg;
	for (size_t i = 0; i < bc->nlinks; i++)
		if (path_under(p, bc->links[i]))
			return true;
	return false;
}

static bool is_written(struct bash_ctx *bc, const char *p, void *arg)
{
	(void)arg;
	for (size_t i = 0; i < bc->nwritten; i++)
		if (!strcmp(p, bc->written[i]))
			return true;
	return false;
}

/* Something the line wrote lies at or below p, or p lies below a
 * directory it wrote (a tree extracted there). */
static bool is_written_near(struct bash_ctx *bc, const char *p, void *arg)
{
	(void)arg;
	for (size_t i = 0; i < bc->nwritten; i++)
		if (path_under(bc->written[i], p) || path_under(p, bc->written[i]))
			return true;
	return false;
}

static bool add_path(struct bash_ctx *bc, const char *p, void *arg)
{
	bool link = *(bool *)arg;
	char(*set)[CWD_MAX] = link ? bc->links : bc->written;
	size_t *n = link ? &bc->nlinks : &bc->nwritten;
	size_t max = link ? MAX_LINKS : MAX_WRITTEN;

	if (*n >= max) {
		*(link ? &bc->links_over : &bc->written_over) = true;
		return true;
	}
	size_t l = strlen(p);
	if (l >= CWD_MAX) {
		*(link ? &bc->links_over : &bc->written_over) = true;
		return true;
	}
	memcpy(set[(*n)++], p, l + 1);
	return false;
}

/* Remembers a file the line writes (and makes a link of). */
static void remember_write(struct bash_ctx *bc, const struct lf_shell_word *w, bool link)
{
	bool no = false;

	if (w->flags & LF_WORD_NOT_LITERAL) {
		bc->written_over = true;
		if (link)
			bc->links_over = true;
		return;
	}
	paths_of(bc, w->text, add_path, &no);
	if (link)
		paths_of(bc, w->text, add_path, &link);
}

/* Ask when a literal path of the line leads through a link it made, or
 * when it runs a file it wrote (code). */
static void line_made(struct bash_ctx *bc, const char *t, bool code, struct lf_verdict *v)
{
	const char *why = NULL;

	if ((bc->nlinks || bc->links_over) &&
	    (bc->links_over || paths_of(bc, t, is_through_link, NULL)))
		why = "a path through a link this line makes";
	else if (code && (bc->nwritten || bc->written_over) &&
		 (bc->written_over || paths_of(bc, t, is_written, NULL)))
		why = "it runs a file this line writes";
	if (!why || v->effect >= LF_ASK)
		return;
	memset(v, 0, sizeof(*v));
	v->effect = LF_ASK;
	set_text(v->reason, sizeof(v->reason), "not analysable: ", why);
}

static const char *cap_verb(enum lf_capability cap)
{
	return cap == LF_CAP_READ ? "reads" : cap == LF_CAP_WRITE ? "writes" : "deletes";
}

/*
 * A file a command names in an option or operand (the table of
 * programs, shell_table.c). A file the program surely opens is a file
 * request like `check read|write|delete`: the file rules (the fallback
 * too) and, through the caller, the kernel's final rules. An operand
 * that may be a file (a program the table does not know) counts only
 * through a deny or ask file rule, and only to make the part stricter: a
 * miss proves nothing, the kernel guard covers every file a command
 * opens. *skip: nothing to say about it.
 */
static int decide_file_part(struct bash_ctx *bc, const struct lf_shell_part *part,
			    struct lf_verdict *v, bool *skip)
{
	const struct lf_shell_word *w = part->target;
	enum lf_capability cap = part->cap;
	struct lf_verdict one;
	bool known = false;
	int r;

	*skip = true;
	if (!w->len || memchr(w->text, '\n', w->len))
		return 0;
	if (!(w->flags & LF_WORD_NOT_LITERAL) && is_harmless_target(w->text))
		return 0;
	if (w->flags & LF_WORD_NOT_LITERAL) {
		if ((w->flags & LF_WORD_NOT_LITERAL) == LF_WORD_GLOB) {
			/* a pathname pattern: any file it could match */
			argument_glob_rules(bc, cap, w, &one, &known);
			if (known) {
				set_text(one.reason, sizeof(one.reason),
					 "an argument pattern could name a file a rule guards: ",
					 w->text);
				*v = one;
				*skip = false;
				return 0;
			}
		}
		if (part->sure && cap != LF_CAP_READ) {
			/* where it writes is not known */
			memset(v, 0, sizeof(*v));
			v->effect = LF_ASK;
			set_text(v->reason, sizeof(v->reason), "not analysable: ",
				 "the file a command writes or deletes is not a literal word");
			*skip = false;
		}
		return 0;
	}
	if (!part->sure) {
		if ((r = argument_rules(bc, cap, w->text, w->len, &one, &known)) < 0)
			return r;
		const char *canon = bc->naliases ? alias_of(bc, w->text) : NULL;
		if (canon && canon[0] == '/') {
			/* the file it names through its symlinks */
			struct lf_verdict cv;
			bool cknown;
			if ((r = argument_rules(bc, cap, canon, strlen(canon), &cv, &cknown)) < 0)
				return r;
			if (cknown && (!known || cv.effect > one.effect)) {
				one = cv;
				known = true;
			}
		}
		if (!known)
			return 0;
		set_text(one.reason, sizeof(one.reason), "an argument names a file: ", w->text);
		*v = one;
		*skip = false;
		return 0;
	}
	/* a file the program opens: a file request */
	*skip = false;
	if (w->text[0] != '/' && bc->cwd_unknown) {
		memset(v, 0, sizeof(*v));
		v->effect = LF_ASK;
		set_text(v->reason, sizeof(v->reason),
			 "not analysable: ", "the working directory is unknown after cd");
		return 0;
	}
	/* a tree: what is judged is a file of the program's choosing below
	 * the directory, DIR/(a name) */
	char *below = NULL;
	const char *ft = w->text;
	size_t fl = w->len;
	if (part->tree) {
		below = malloc(w->len + 4);
		if (!below)
			return -ENOMEM;
		memcpy(below, w->text, w->len);
		memcpy(below + w->len, "/*", 3);
		ft = below;
		fl = w->len + 2;
	}
	if ((r = decide_path(bc, cap, ft, fl, v, &known)) < 0)
		goto out;
	if (!known) {
		memset(v, 0, sizeof(*v));
		v->effect = LF_ASK;
		goto out;
	}
	const char *canon = bc->naliases ? alias_of(bc, w->text) : NULL;
	if (canon && canon[0] == '/') {
		struct lf_verdict cv;
		bool cknown;
		if ((r = decide_path(bc, cap, canon, strlen(canon), &cv, &cknown)) < 0)
			goto out;
		if (cknown && cv.effect > v->effect)
			*v = cv;
	}
	if (part->tree && v->effect < LF_ASK) {
		/* any file below it a deny or ask rule guards */
		memcpy(below + w->len, "/**", 4);
		struct lf_shell_word pw = { below, w->len + 3, LF_WORD_GLOB };
		argument_glob_rules(bc, cap, &pw, &one, &known);
		memcpy(below + w->len, "/*", 3);
		if (known) {
			set_text(one.reason, sizeof(one.reason),
				 "the command writes files of its choosing below ", w->text);
			*v = one;
		}
	}
	if (v->effect < LF_DENY && (r = file_check_all(bc, cap, ft, fl, v)) < 0)
		goto out;
	if (v->effect != LF_ALLOW && !v->reason[0]) {
		char what[64];
		set_text(what, sizeof(what), cap_verb(cap), " a file: ");
		set_text(v->reason, sizeof(v->reason), what, w->text);
	}
out:
	free(below);
	return r;
}

static void add_cwd(struct bash_ctx *bc, const char *dir, size_t len)
{
	size_t n = bc->ncwd;

	for (size_t k = 0; k < n; k++) {
		if (bc->ncwd >= MAX_CWDS) {
			bc->cwd_unknown = true;
			return;
		}
		char *dst = bc->cwds[bc->ncwd];
		if (dir[0] == '/') {
			if (len >= CWD_MAX) {
				bc->cwd_unknown = true;
				return;
			}
			memcpy(dst, dir, len + 1);
			bc->ncwd++;
			return; /* the same for every start */
		}
		size_t cl = strlen(bc->cwds[k]);
		if (cl + 1 + len >= CWD_MAX) {
			bc->cwd_unknown = true;
			return;
		}
		memmove(dst, bc->cwds[k], cl);
		dst[cl] = '/';
		memcpy(dst + cl + 1, dir, len + 1);
		bc->ncwd++;
	}
}

/* cd, pushd, popd: later relative redirections may land elsewhere. */
static void track_cd(struct bash_ctx *bc, const struct lf_shell_part *part)
{
	const struct lf_shell_word *w0 = &part->argv[0];

	if (w0->flags & LF_WORD_NOT_LITERAL)
		return;
	const char *b = strrchr(w0->text, '/');
	b = b ? b + 1 : w0->text;
	bool cd = !strcmp(b, "cd") || !strcmp(b, "pushd");
	if (!cd) {
		if (!strcmp(b, "popd"))
			bc->cwd_unknown = true;
		return;
	}
	size_t i = 1;
	while (i < part->argc && part->argv[i].text[0] == '-' && part->argv[i].text[1] &&
	       !(part->argv[i].flags & LF_WORD_NOT_LITERAL)) {
		if (!strcmp(part->argv[i].text, "--")) {
			i++;
			break;
		}
		i++;
	}
	if (i >= part->argc || (part->argv[i].flags & LF_WORD_NOT_LITERAL) ||
	    !strcmp(part->argv[i].text, "-") || part->argv[i].text[0] == '+' ||
	    part->argv[i].len == 0) {
		bc->cwd_unknown = true;
		return;
	}
	add_cwd(bc, part->argv[i].text, part->argv[i].len);
}

/* cd DIR && …: the parts up to the pop run in DIR, joined to each
 * directory the line may be in before the cd; after the pop the line may
 * be in any of them (the cd may have failed). */
static void scope_push(struct bash_ctx *bc, const struct lf_shell_word *dir)
{
	if (bc->nscopes >= MAX_SCOPES) {
		bc->scopes_over++;
		add_cwd(bc, dir->text, dir->len);
		return;
	}
	size_t k = bc->nscopes++;
	memcpy(bc->scopes[k].cwds, bc->cwds, bc->ncwd * sizeof(bc->cwds[0]));
	bc->scopes[k].ncwd = bc->ncwd;
	bc->scopes[k].unknown = bc->cwd_unknown;
	/* only the directories the cd leads to */
	size_t n = bc->ncwd;
	add_cwd(bc, dir->text, dir->len);
	memmove(bc->cwds, bc->cwds + n, (bc->ncwd - n) * sizeof(bc->cwds[0]));
	bc->ncwd -= n;
	if (!bc->ncwd)
		bc->cwd_unknown = true;
}

static void scope_pop(struct bash_ctx *bc)
{
	if (bc->scopes_over) {
		bc->scopes_over--;
		return;
	}
	if (!bc->nscopes)
		return;
	size_t k = --bc->nscopes;
	for (size_t i = 0; i < bc->scopes[k].ncwd; i++) {
		bool have = false;
		for (size_t j = 0; j < bc->ncwd && !have; j++)
			have = !strcmp(bc->cwds[j], bc->scopes[k].cwds[i]);
		if (have)
			continue;
		if (bc->ncwd >= MAX_CWDS) {
			bc->cwd_unknown = true;
			break;
		}
		memcpy(bc->cwds[bc->ncwd++], bc->scopes[k].cwds[i], CWD_MAX);
	}
	bc->cwd_unknown = bc->cwd_unknown || bc->scopes[k].unknown;
}

static int on_part(void *ctx, const struct lf_shell_part *part)
{
	struct bash_ctx *bc = ctx;
	struct lf_verdict v;
	bool skip = false, matched = false;
	int r = 0;

	memset(&v, 0, sizeof(v));
	switch (part->kind) {
	case LF_PART_CWD:
		if (part->push)
			scope_push(bc, part->target);
		else
			scope_pop(bc);
		return 0;
	case LF_PART_COMMAND:
		r = decide_command(bc, part, &v, &matched);
		if (r == 0 && !(part->argv[0].flags & LF_WORD_NOT_LITERAL) &&
		    strchr(part->argv[0].text, '/'))
			line_made(bc, part->argv[0].text, true, &v);
		if (!part->cd_scoped)
			track_cd(bc, part);
		break;
	case LF_PART_REDIRECT:
		r = decide_redirect(bc, part, &v, &skip);
		if (!skip && !part->reason && part->target->text[0] != '/' && bc->cwd_unknown &&
		    v.effect < LF_ASK) {
			v.effect = LF_ASK;
			v.from_fallback = false;
			v.source = (struct lf_source){ 0 };
			set_text(v.reason, sizeof(v.reason),
				 "not analysable: ", "the working directory is unknown after cd");
		}
		if (r == 0 && !skip && !part->reason && v.effect < LF_DENY &&
		    !(part->target->flags & LF_WORD_NOT_LITERAL))
			r = file_check_all(bc, part->cap, part->target->text, part->target->len,
					   &v);
		if (r == 0 && !skip && !(part->target->flags & LF_WORD_NOT_LITERAL))
			line_made(bc, part->target->text, false, &v);
		if (r == 0 && !skip && part->cap == LF_CAP_WRITE)
			remember_write(bc, part->target, false);
		break;
	case LF_PART_FILE:
		if (part->conf) {
			/* a configuration the program obeys: only the line's
			 * own writes count */
			const char *t = part->target->text;
			bool wrote = bc->written_over || bc->links_over;
			if (part->target->flags & LF_WORD_NOT_LITERAL)
				wrote = wrote || bc->nwritten || bc->nlinks;
			else
				wrote = wrote ||
					(bc->nwritten && paths_of(bc, t, is_written_near, NULL)) ||
					(bc->nlinks && paths_of(bc, t, is_through_link, NULL));
			if (!wrote)
				return 0;
			v.effect = LF_ASK;
			set_text(v.reason, sizeof(v.reason), "not analysable: ",
				 "the program obeys a configuration this line writes");
			break;
		}
		r = decide_file_part(bc, part, &v, &skip);
		if (r == 0 && !(part->target->flags & LF_WORD_NOT_LITERAL) && part->target->len &&
		    (part->sure || part->link)) {
			if (skip) {
				memset(&v, 0, sizeof(v));
				v.effect = LF_ALLOW;
			}
			line_made(bc, part->target->text, part->code, &v);
			skip = skip && v.effect == LF_ALLOW;
		}
		if (r == 0 && part->cap != LF_CAP_READ && (part->sure || part->link))
			remember_write(bc, part->target, part->link);
		break;
	case LF_PART_OPAQUE:
		v.effect = LF_ASK;
		break;
	}
	if (r < 0)
		return r;
	if (skip)
		return 0;
	if (part->reason && v.effect <= LF_ASK &&
	    (v.effect < LF_ASK || part->kind == LF_PART_OPAQUE || v.from_fallback ||
	     (part->kind == LF_PART_COMMAND && !matched) || !v.source.file)) {
		/* not analysable: at best ask, and the reason decides */
		v.effect = LF_ASK;
		v.from_fallback = false;
		v.source = (struct lf_source){ 0 };
		v.layer = 0;
		set_text(v.reason, sizeof(v.reason), "not analysable: ", part->reason);
	}
	if (!bc->have || v.effect > bc->best.effect) {
		lf_shell_part_format(part, v.part, sizeof(v.part));
		bc->best = v;
		bc->have = true;
	}
	/* nothing is stricter than deny: the rest cannot change the verdict */
	return bc->best.effect == LF_DENY ? 1 : 0;
}

int lf_bash_decide(const struct lf_effective *e, const char *project_root, const char *cwd,
		   const char *line, struct lf_verdict *out)
{
	return lf_bash_decide_env(e, project_root, cwd, line, NULL, out);
}

int lf_bash_decide_aliased(const struct lf_effective *e, const char *project_root, const char *cwd,
			   const char *line, const struct lf_path_alias *aliases, size_t n,
			   struct lf_verdict *out)
{
	struct lf_bash_env env = { .aliases = aliases, .naliases = aliases ? n : 0 };
	return lf_bash_decide_env(e, project_root, cwd, line, &env, out);
}

/* A context for one line: the bash rules in order, the start directory. */
static struct bash_ctx *ctx_new(const struct lf_effective *e, const char *project_root,
				const char *cwd)
{
	struct bash_ctx *bc = malloc(sizeof(*bc));

	if (!bc)
		return NULL;
	memset(bc, 0, offsetof(struct bash_ctx, cwds));
	bc->e = e;
	bc->root = project_root;
	const char *start = cwd ? cwd : project_root;
	if (strlen(start) >= CWD_MAX) {
		bc->cwd_unknown = true;
	} else {
		strcpy(bc->cwds[0], start);
		bc->ncwd = 1;
	}
	bc->sp_budget = (size_t)32 << 20;
	bc->ix = e->bash_index;
	if (!bc->ix) {
		if (lf_bash_index_build(e, &bc->own_ix) < 0) {
			free(bc);
			return NULL;
		}
		bc->ix = bc->own_ix;
	}
	bc->bash = bc->ix->bash;
	bc->nbash = bc->ix->nbash;
	bc->has_globs = bc->ix->has_globs;
	return bc;
}

static void ctx_free(struct bash_ctx *bc)
{
	lf_bash_index_free(bc->own_ix);
	free(bc->join);
	free(bc);
}

int lf_bash_decide_env(const struct lf_effective *e, const char *project_root, const char *cwd,
		       const char *line, const struct lf_bash_env *env, struct lf_verdict *out)
{
	struct bash_ctx *bc;
	struct lf_shell_opts so = { 0 };
	int r;

	if (!e || !project_root || !line || !out || project_root[0] != '/' ||
	    (cwd && cwd[0] != '/'))
		return -EINVAL;
	bc = ctx_new(e, project_root, cwd);
	if (!bc)
		return -ENOMEM;
	if (env) {
		bc->aliases = env->aliases;
		bc->naliases = env->aliases ? env->naliases : 0;
		bc->file_check = env->file_check;
		bc->file_ctx = env->file_ctx;
		so.home = env->home;
	}
	r = lf_shell_analyse_opts(line, strlen(line), &so, on_part, bc);
	if (r >= 0) {
		if (!bc->have) {
			/* an empty line runs nothing; it is judged like a
			 * command no rule names */
			struct lf_verdict v;
			memset(&v, 0, sizeof(v));
			verdict_unmatched(e, bc->bash, bc->nbash, &v);
			bc->best = v;
		}
		*out = bc->best;
		r = 0;
	}
	ctx_free(bc);
	return r;
}

int lf_bash_command_verdict(const struct lf_effective *e, const char *const *argv, size_t argc,
			    struct lf_verdict *out)
{
	struct lf_shell_word *words;
	struct bash_ctx *bc;
	bool matched;
	int r;

	if (!e || !argv || !argc || !out)
		return -EINVAL;
	words = calloc(argc, sizeof(*words));
	if (!words)
		return -ENOMEM;
	for (size_t k = 0; k < argc; k++)
		words[k] = (struct lf_shell_word){ argv[k], strlen(argv[k]), 0 };
	bc = ctx_new(e, "/", NULL);
	if (!bc) {
		free(words);
		return -ENOMEM;
	}
	struct lf_shell_part p = { .kind = LF_PART_COMMAND, .argv = words, .argc = argc };
	memset(out, 0, sizeof(*out));
	r = decide_command(bc, &p, out, &matched);
	if (r == 0)
		lf_shell_part_format(&p, out->part, sizeof(out->part));
	ctx_free(bc);
	free(words);
	return r;
}

int lf_decide_bash(const struct lf_effective *e, const char *project_root, const char *line,
		   struct lf_verdict *out)
{
	return lf_bash_decide(e, project_root, NULL, line, out);
}
