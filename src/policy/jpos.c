/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "policy/jpos.h"

void lf_quote(char *buf, size_t size, const char *s, size_t len)
{
	size_t o = 0;

	if (size < 8) {
		if (size)
			buf[0] = '\0';
		return;
	}
	buf[o++] = '"';
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		char esc[8];
		size_t n;

		if (c == '"' || c == '\\')
			n = (size_t)snprintf(esc, sizeof(esc), "\\%c", c);
		else if (c < 0x20 || c == 0x7f)
			n = (size_t)snprintf(esc, sizeof(esc), "\\u%04x", c);
		else
			n = (size_t)snprintf(esc, sizeof(esc), "%c", c);
		/* Keep room for the ellipsis, the quote and the NUL. */
		if (o + n + 5 >= size || o > 64) {
			memcpy(buf + o, "...", 3);
			o += 3;
			break;
		}
		memcpy(buf + o, esc, n);
		o += n;
	}
	buf[o++] = '"';
	buf[o] = '\0';
}

const char *lf_json_type_name(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT:
		return "an object";
	case JSON_ARRAY:
		return "an array";
	case JSON_STRING:
		return "a string";
	case JSON_INTEGER:
		return "an integer";
	case JSON_REAL:
		return "a real number";
	case JSON_TRUE:
		return "true";
	case JSON_FALSE:
		return "false";
	case JSON_NULL:
	default:
		return "null";
	}
}

/*
 * The scanner. It trusts nothing: every access is bounds-checked, and a
 * malformed document simply stops the scan (jansson has already said why).
 */
struct scan {
	const char *s;
	size_t len, i;
	unsigned line, column;
	/* The first duplicate key met, for jansson's duplicate-key error. */
	bool dup_found;
	unsigned dup_line, dup_column;
	char dup_key[128];
	/* The first syntax error the scanner can name better than jansson
	 * (a trailing comma, a missing comma, single quotes, a comment...):
	 * where the culprit is, as a byte offset too, to tell whether it
	 * comes before the place jansson stopped. */
	bool bad_found;
	size_t bad_offset;
	unsigned bad_line, bad_column;
	char bad_msg[200];
};

static void bad_at(struct scan *sc, size_t offset, unsigned line, unsigned column, const char *fmt,
		   ...) __attribute__((format(printf, 5, 6)));

static void bad_at(struct scan *sc, size_t offset, unsigned line, unsigned column, const char *fmt,
		   ...)
{
	va_list ap;

	if (sc->bad_found)
		return;
	sc->bad_found = true;
	sc->bad_offset = offset;
	sc->bad_line = line;
	sc->bad_column = column;
	va_start(ap, fmt);
	vsnprintf(sc->bad_msg, sizeof(sc->bad_msg), fmt, ap);
	va_end(ap);
}

/* The token at the scanner, quoted for a message: up to a blank or a
 * structural character, at most about 40 bytes. */
static void token_quote(const struct scan *sc, char *buf, size_t size)
{
	const char *t = sc->s + sc->i;
	size_t left = sc->len - sc->i, n = 0;

	if (left && t[0] == '"') {
		/* A string: its contents, quoted once. */
		while (n + 1 < left && n < 40 && t[n + 1] != '"' && t[n + 1] != '\n')
			n++;
		lf_quote(buf, size, t + 1, n);
		return;
	}
	while (n < left && n < 40 && t[n] && !strchr(" \t\r\n,:[]{}", t[n]))
		n++;
	if (n == 0 && left)
		n = 1;
	lf_quote(buf, size, t, n);
}

/* Names what stands where a value, a key or a separator was expected,
 * when it is a mistake people make: a comment, single quotes, a bare
 * word. expected says what belongs there. Returns whether it named one. */
static bool name_culprit(struct scan *sc, bool key, const char *expected)
{
	char c = sc->i < sc->len ? sc->s[sc->i] : '\0';
	char q[64];

	if (sc->i >= sc->len)
		return false;
	if (c == '/' && sc->i + 1 < sc->len &&
	    (sc->s[sc->i + 1] == '/' || sc->s[sc->i + 1] == '*')) {
		bad_at(sc, sc->i, sc->line, sc->column,
		       "a comment, expected %s (JSON has no comments)", expected);
		return true;
	}
	if (c == '\'') {
		token_quote(sc, q, sizeof(q));
		bad_at(sc, sc->i, sc->line, sc->column,
		       "a single-quoted string, expected %s in double quotes",
		       key ? "a key" : "text");
		return true;
	}
	if (key && ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_')) {
		token_quote(sc, q, sizeof(q));
		bad_at(sc, sc->i, sc->line, sc->column,
		       "unquoted key %.*s, expected a key in double quotes (%s)",
		       (int)(strlen(q) - 2), q + 1, q);
		return true;
	}
	return false;
}

static void advance(struct scan *sc)
{
	unsigned char c = (unsigned char)sc->s[sc->i++];

	if (c == '\n') {
		sc->line++;
		sc->column = 1;
	} else if ((c & 0xc0) != 0x80) {
		/* Columns count characters: UTF-8 continuation bytes do not
		 * start a new one. */
		sc->column++;
	}
}

static void skip_ws(struct scan *sc)
{
	while (sc->i < sc->len) {
		char c = sc->s[sc->i];
		if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
			break;
		advance(sc);
	}
}

static bool at(const struct scan *sc, char c)
{
	return sc->i < sc->len && sc->s[sc->i] == c;
}

/* Skips a string; *start and *end delimit its raw contents. */
static int skip_string(struct scan *sc, size_t *start, size_t *end)
{
	size_t open = sc->i;
	unsigned line = sc->line, column = sc->column;

	if (!at(sc, '"'))
		return -1;
	advance(sc);
	*start = sc->i;
	while (sc->i < sc->len) {
		char c = sc->s[sc->i];
		if (c == '\n') {
			bad_at(sc, open, line, column,
			       "unterminated string, expected a closing '\"' on the same line");
			return -1;
		}
		if (c == '"') {
			*end = sc->i;
			advance(sc);
			return 0;
		}
		if (c == '\\') {
			advance(sc);
			if (sc->i >= sc->len)
				return -1;
		}
		advance(sc);
	}
	return -1;
}

static int grow(struct lf_jpos *pos, size_t *cap)
{
	if (pos->n < *cap)
		return 0;
	size_t ncap = *cap ? *cap * 2 : 4;
	struct lf_jpos_kid *k = realloc(pos->kids, ncap * sizeof(*k));
	if (!k)
		return -ENOMEM;
	memset(k + *cap, 0, (ncap - *cap) * sizeof(*k));
	pos->kids = k;
	*cap = ncap;
	return 0;
}

/* Gives back what grow() took beyond the last kid: most objects and
 * arrays of a policy hold one to three. A failed shrink keeps the
 * larger block. */
static void fit(struct lf_jpos *pos, size_t cap)
{
	if (pos->n && pos->n < cap) {
		struct lf_jpos_kid *k = realloc(pos->kids, pos->n * sizeof(*k));

		if (k)
			pos->kids = k;
	}
}

static int scan_value(struct scan *sc, struct lf_jpos *pos, unsigned depth);

struct span {
	size_t a, b;
};

/* The keys of one object seen so far, by hash once there are more than a
 * few (open addressing: key index + 1, 0 empty), so that finding a
 * duplicate key stays linear in the object's size: comparing each key
 * with every earlier one is quadratic, and an object may be large. */
#define DUP_LINEAR 16

struct keyset {
	size_t *slot;
	size_t nslots; /* a power of two; 0 until the object has DUP_LINEAR keys */
};

static uint64_t key_hash(const struct scan *sc, struct span k)
{
	uint64_t h = 14695981039346656037ULL;

	for (size_t i = k.a; i < k.b; i++)
		h = (h ^ (unsigned char)sc->s[i]) * 1099511628211ULL;
	return h;
}

static bool key_same(const struct scan *sc, struct span x, struct span y)
{
	return x.b - x.a == y.b - y.a && memcmp(sc->s + x.a, sc->s + y.a, y.b - y.a) == 0;
}

static void keyset_put(const struct scan *sc, struct keyset *ks, const struct span *spans, size_t j)
{
	size_t s = key_hash(sc, spans[j]) & (ks->nslots - 1);

	while (ks->slot[s])
		s = (s + 1) & (ks->nslots - 1);
	ks->slot[s] = j + 1;
}

/* Whether key k equals one of spans[0..n): a scan of the first few, the
 * hash beyond (built, or doubled, here). -ENOMEM when it cannot grow. */
static int key_seen(const struct scan *sc, struct keyset *ks, const struct span *spans, size_t n,
		    struct span k)
{
	if (n < DUP_LINEAR) {
		for (size_t j = 0; j < n; j++)
			if (key_same(sc, spans[j], k))
				return 1;
		return 0;
	}
	if (2 * (n + 1) > ks->nslots) {
		size_t want = ks->nslots ? ks->nslots * 2 : 4 * DUP_LINEAR;

		while (want < 2 * (n + 1))
			want *= 2;
		size_t *v = calloc(want, sizeof(*v));
		if (!v)
			return -ENOMEM;
		free(ks->slot);
		ks->slot = v;
		ks->nslots = want;
		for (size_t j = 0; j < n; j++)
			keyset_put(sc, ks, spans, j);
	}
	for (size_t s = key_hash(sc, k) & (ks->nslots - 1); ks->slot[s];
	     s = (s + 1) & (ks->nslots - 1))
		if (key_same(sc, spans[ks->slot[s] - 1], k))
			return 1;
	return 0;
}

/* Records the first duplicate key of the document: spans[n] against
 * spans[0..n), then adds it to the set. Returns 0 or -ENOMEM. */
static int check_duplicate(struct scan *sc, struct keyset *ks, const struct span *spans, size_t n,
			   unsigned line, unsigned column)
{
	struct span k = spans[n];
	int seen;

	if (sc->dup_found)
		return 0; /* only the first is reported */
	seen = key_seen(sc, ks, spans, n, k);
	if (seen < 0)
		return seen;
	if (seen) {
		sc->dup_found = true;
		sc->dup_line = line;
		sc->dup_column = column;
		lf_quote(sc->dup_key, sizeof(sc->dup_key), sc->s + k.a, k.b - k.a);
	}
	if (ks->nslots)
		keyset_put(sc, ks, spans, n);
	return 0;
}

/* After a member or an element: a ',' followed by another one, or the
 * closing character. Leaves the scanner at the ',' or the closing
 * character and returns 0, or names the mistake and returns -1. */
static int after_value(struct scan *sc, char close)
{
	size_t end = sc->i;
	unsigned line = sc->line, column = sc->column;
	char expected[64], q[64];

	skip_ws(sc);
	if (at(sc, close))
		return 0;
	if (at(sc, ',')) {
		struct scan look = *sc;
		advance(&look);
		skip_ws(&look);
		if (at(&look, '}') || at(&look, ']')) {
			bad_at(sc, sc->i, sc->line, sc->column,
			       "trailing comma, expected another value after ','");
			return -1;
		}
		return 0;
	}
	/* Formatted only here: a policy of 10,000 rules has some 50,000
	 * values, each followed by this check. */
	snprintf(expected, sizeof(expected), "',' or '%c'", close);
	if (sc->i >= sc->len || name_culprit(sc, false, expected))
		return -1;
	/* Something else follows the value on the same or a later line:
	 * the comma that should separate them is missing. Point where it
	 * belongs, right after the value. */
	token_quote(sc, q, sizeof(q));
	bad_at(sc, end, line, column, "missing comma, expected ',' or '%c' before %s", close, q);
	return -1;
}

static int scan_object(struct scan *sc, struct lf_jpos *pos, unsigned depth)
{
	struct span *spans = NULL;
	struct keyset ks = { NULL, 0 };
	size_t cap = 0;
	int r = -1;

	advance(sc);
	skip_ws(sc);
	if (at(sc, '}')) {
		advance(sc);
		return 0;
	}
	for (;;) {
		struct span k;
		unsigned kl, kc;

		skip_ws(sc);
		kl = sc->line;
		kc = sc->column;
		if (!at(sc, '"')) {
			name_culprit(sc, true, "a key in double quotes");
			goto out;
		}
		if (skip_string(sc, &k.a, &k.b) < 0)
			goto out;
		skip_ws(sc);
		if (!at(sc, ':')) {
			name_culprit(sc, false, "':' after the key");
			goto out;
		}
		advance(sc);
		skip_ws(sc);
		size_t oldcap = cap;
		if ((r = grow(pos, &cap)) < 0)
			goto out;
		/* spans grows with pos->kids: grow() makes cap at least 4 before
		 * the first key, which the analysers cannot follow. */
		/* NOLINTBEGIN(clang-analyzer-optin.portability.UnixAPI,clang-analyzer-core.NullDereference) */
		if (cap != oldcap) {
			struct span *ns = realloc(spans, cap * sizeof(*ns));
			if (!ns) {
				r = -ENOMEM;
				goto out;
			}
			spans = ns;
		}
		spans[pos->n] = k;
		if ((r = check_duplicate(sc, &ks, spans, pos->n, kl, kc)) < 0)
			goto out;
		/* NOLINTEND(clang-analyzer-optin.portability.UnixAPI,clang-analyzer-core.NullDereference) */
		struct lf_jpos_kid *kid = &pos->kids[pos->n++];
		kid->key_line = kl;
		kid->key_column = kc;
		if ((r = scan_value(sc, &kid->value, depth + 1)) != 0)
			goto out;
		r = -1;
		if (after_value(sc, '}') < 0)
			goto out;
		if (at(sc, ',')) {
			advance(sc);
			continue;
		}
		advance(sc);
		fit(pos, cap);
		r = 0;
		goto out;
	}
out:
	free(ks.slot);
	free(spans);
	return r;
}

static int scan_array(struct scan *sc, struct lf_jpos *pos, unsigned depth)
{
	size_t cap = 0;
	int r;

	advance(sc);
	skip_ws(sc);
	if (at(sc, ']')) {
		advance(sc);
		return 0;
	}
	for (;;) {
		skip_ws(sc);
		if ((r = grow(pos, &cap)) < 0)
			return r;
		struct lf_jpos_kid *kid = &pos->kids[pos->n++];
		if ((r = scan_value(sc, &kid->value, depth + 1)) != 0)
			return r;
		if (after_value(sc, ']') < 0)
			return -1;
		if (at(sc, ',')) {
			advance(sc);
			continue;
		}
		advance(sc);
		fit(pos, cap);
		return 0;
	}
}

static int scan_value(struct scan *sc, struct lf_jpos *pos, unsigned depth)
{
	size_t a, b;

	if (depth > 4096 || sc->i >= sc->len)
		return -1;
	pos->line = sc->line;
	pos->column = sc->column;
	switch (sc->s[sc->i]) {
	case '{':
		return scan_object(sc, pos, depth);
	case '[':
		return scan_array(sc, pos, depth);
	case '"':
		return skip_string(sc, &a, &b);
	default:
		break;
	}
	char c = sc->s[sc->i];
	if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_') {
		/* A word: true, false and null are the only ones JSON has. */
		size_t n = 0;
		char q[64];
		while (sc->i + n < sc->len &&
		       strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-",
			      sc->s[sc->i + n]) &&
		       sc->s[sc->i + n])
			n++;
		if ((n == 4 && !memcmp(sc->s + sc->i, "true", 4)) ||
		    (n == 5 && !memcmp(sc->s + sc->i, "false", 5)) ||
		    (n == 4 && !memcmp(sc->s + sc->i, "null", 4))) {
			while (n--)
				advance(sc);
			return 0;
		}
		lf_quote(q, sizeof(q), sc->s + sc->i, n);
		bad_at(sc, sc->i, sc->line, sc->column,
		       "unquoted text %.*s, expected a string in double quotes (%s), a number, "
		       "true, false or null",
		       (int)(strlen(q) - 2), q + 1, q);
		return -1;
	}
	if (!c || !strchr("-0123456789", c)) {
		name_culprit(sc, false, "a value");
		return -1;
	}
	while (sc->i < sc->len && sc->s[sc->i] && strchr("+-.0123456789eE", sc->s[sc->i]))
		advance(sc);
	return 0;
}

static void jpos_fini(struct lf_jpos *pos)
{
	for (size_t i = 0; i < pos->n; i++)
		jpos_fini(&pos->kids[i].value);
	free(pos->kids);
	pos->kids = NULL;
	pos->n = 0;
}

const struct lf_jpos_kid *lf_jpos_kid(const struct lf_jpos *pos, size_t i)
{
	return pos && i < pos->n ? &pos->kids[i] : NULL;
}

void lf_jdoc_fini(struct lf_jdoc *doc)
{
	json_decref(doc->root);
	doc->root = NULL;
	jpos_fini(&doc->pos);
}

static bool all_blank(const char *text, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (!strchr(" \t\r\n", text[i]) || !text[i])
			return false;
	return true;
}

/* jansson's position is the byte after the token it choked on; the token
 * is quoted in its message ("... near 'TOKEN'"). Point at where the token
 * starts instead, which is where an editor should take the reader. */
static void syntax_position(struct scan *sc, const json_error_t *err)
{
	size_t end = err->position > 0 ? (size_t)err->position : 0, start;
	const char *near = strstr(err->text, " near '");
	size_t tok = 0;

	if (end > sc->len)
		end = sc->len;
	if (near) {
		const char *q = strrchr(near + 7, '\'');
		if (q)
			tok = (size_t)(q - (near + 7));
	}
	start = tok <= end ? end - tok : 0;
	/* jansson may have read one byte past a token (an unexpected
	 * newline, say): back up so the token itself is shown. */
	if (tok && start > 0 && memcmp(sc->s + start, near + 7, tok) != 0 &&
	    memcmp(sc->s + start - 1, near + 7, tok) == 0)
		start--;
	while (sc->i < start)
		advance(sc);
}

static void (*jdoc_reserve)(size_t len);

void lf_jdoc_set_reserve(void (*reserve)(size_t len))
{
	jdoc_reserve = reserve;
}

int lf_jdoc_parse(struct lf_jdoc *doc, const char *text, size_t len, const char *filename,
		  struct lf_diag *diag)
{
	struct scan sc = { .s = text, .len = len, .line = 1, .column = 1 };
	struct lf_jdoc d = { 0 };
	json_error_t err;
	int r;

	if (all_blank(text, len))
		return lf_diag_set(diag, filename, 1, 1,
				   "the file is empty, expected a JSON object");

	if (jdoc_reserve)
		jdoc_reserve(len);
	d.root = json_loadb(text, len, JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL | JSON_DECODE_ANY,
			    &err);
	if (!d.root) {
		if (json_error_code(&err) == json_error_out_of_memory)
			return -ENOMEM;
		if (json_error_code(&err) == json_error_duplicate_key) {
			/* jansson points past the key; find where it starts. */
			skip_ws(&sc);
			r = scan_value(&sc, &d.pos, 0);
			jpos_fini(&d.pos);
			if (r == -ENOMEM)
				return -ENOMEM;
			if (sc.dup_found)
				return lf_diag_set(
					diag, filename, sc.dup_line, sc.dup_column,
					"duplicate key %s, expected each key once in an object",
					sc.dup_key);
			return lf_diag_set(diag, filename, (unsigned)err.line, (unsigned)err.column,
					   "%s, expected each key once in an object", err.text);
		}
		/* The scanner names the usual mistakes (a trailing or missing
		 * comma, single quotes, a comment, an unquoted key) where they
		 * are; jansson's own message is kept for the rest, and when
		 * the scanner only stumbled past the place jansson stopped. */
		skip_ws(&sc);
		r = scan_value(&sc, &d.pos, 0);
		jpos_fini(&d.pos);
		if (r == -ENOMEM)
			return -ENOMEM;
		if (r == 0 && !sc.bad_found) {
			skip_ws(&sc);
			if (sc.i < sc.len) {
				char q[64];
				token_quote(&sc, q, sizeof(q));
				bad_at(&sc, sc.i, sc.line, sc.column,
				       "text after the end of the document (%s), expected the end "
				       "of the file",
				       q);
			}
		}
		if (sc.bad_found && sc.bad_offset <= (size_t)(err.position > 0 ? err.position : 0))
			return lf_diag_set(diag, filename, sc.bad_line, sc.bad_column,
					   "invalid JSON: %s", sc.bad_msg);
		sc = (struct scan){ .s = text, .len = len, .line = 1, .column = 1 };
		syntax_position(&sc, &err);
		return lf_diag_set(diag, filename, sc.line, sc.column, "invalid JSON: %s",
				   err.text);
	}

	skip_ws(&sc);
	r = scan_value(&sc, &d.pos, 0);
	if (r != 0) {
		/* jansson accepted what the scanner could not follow: a bug,
		 * but never a reason to guess positions. */
		lf_jdoc_fini(&d);
		if (r == -ENOMEM)
			return -ENOMEM;
		return lf_diag_set(diag, filename, 1, 1, "internal error: cannot locate values");
	}
	*doc = d;
	return 0;
}
