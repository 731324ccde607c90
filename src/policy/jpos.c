/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "policy/jpos.h"

int lf_diag_set(struct lf_diag *diag, const char *file, unsigned line, unsigned column,
		const char *fmt, ...)
{
	va_list ap;

	if (!diag)
		return -EINVAL;
	snprintf(diag->file, sizeof(diag->file), "%s", file ? file : "");
	diag->line = line;
	diag->column = column;
	va_start(ap, fmt);
	vsnprintf(diag->message, sizeof(diag->message), fmt, ap);
	va_end(ap);
	return -EINVAL;
}

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
};

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
	if (!at(sc, '"'))
		return -1;
	advance(sc);
	*start = sc->i;
	while (sc->i < sc->len) {
		char c = sc->s[sc->i];
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

static int scan_value(struct scan *sc, struct lf_jpos *pos, unsigned depth);

struct span {
	size_t a, b;
};

static void check_duplicate(struct scan *sc, const struct span *spans, size_t n, struct span k,
			    unsigned line, unsigned column)
{
	if (sc->dup_found)
		return;
	for (size_t j = 0; j < n; j++) {
		if (spans[j].b - spans[j].a == k.b - k.a &&
		    memcmp(sc->s + spans[j].a, sc->s + k.a, k.b - k.a) == 0) {
			sc->dup_found = true;
			sc->dup_line = line;
			sc->dup_column = column;
			lf_quote(sc->dup_key, sizeof(sc->dup_key), sc->s + k.a, k.b - k.a);
			return;
		}
	}
}

static int scan_object(struct scan *sc, struct lf_jpos *pos, unsigned depth)
{
	struct span *spans = NULL;
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
		if (skip_string(sc, &k.a, &k.b) < 0)
			goto out;
		skip_ws(sc);
		if (!at(sc, ':'))
			goto out;
		advance(sc);
		skip_ws(sc);
		size_t oldcap = cap;
		if ((r = grow(pos, &cap)) < 0)
			goto out;
		if (cap != oldcap) {
			struct span *ns = realloc(spans, cap * sizeof(*ns));
			if (!ns) {
				r = -ENOMEM;
				goto out;
			}
			spans = ns;
		}
		check_duplicate(sc, spans, pos->n, k, kl, kc);
		spans[pos->n] = k;
		struct lf_jpos_kid *kid = &pos->kids[pos->n++];
		kid->key_line = kl;
		kid->key_column = kc;
		if ((r = scan_value(sc, &kid->value, depth + 1)) != 0)
			goto out;
		r = -1;
		skip_ws(sc);
		if (at(sc, ',')) {
			advance(sc);
			continue;
		}
		if (at(sc, '}')) {
			advance(sc);
			r = 0;
		}
		goto out;
	}
out:
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
		skip_ws(sc);
		if (at(sc, ',')) {
			advance(sc);
			continue;
		}
		if (at(sc, ']')) {
			advance(sc);
			return 0;
		}
		return -1;
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
		if (!strchr("-0123456789tfn", sc->s[sc->i]))
			return -1;
		while (sc->i < sc->len && sc->s[sc->i] &&
		       strchr("+-.0123456789eEtrufalsn", sc->s[sc->i]))
			advance(sc);
		return 0;
	}
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
