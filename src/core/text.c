/* SPDX-License-Identifier: MIT */
/* Escaping text from outside for printing (text.h). */
#include <stdlib.h>
#include <string.h>

#include "core/text.h"

static const char hex[] = "0123456789abcdef";

static size_t put_x(char *out, unsigned char b)
{
	out[0] = '\\';
	out[1] = 'x';
	out[2] = hex[b >> 4];
	out[3] = hex[b & 15];
	return 4;
}

/* A byte below 0x80. */
static size_t put_ascii(char *out, unsigned char b, bool keep_lines)
{
	if (b >= 0x20 && b != 0x7f) {
		out[0] = (char)b;
		return 1;
	}
	if (keep_lines && (b == '\n' || b == '\t')) {
		out[0] = (char)b;
		return 1;
	}
	if (b == '\n' || b == '\t' || b == '\r') {
		out[0] = '\\';
		out[1] = b == '\n' ? 'n' : b == '\t' ? 't' : 'r';
		return 2;
	}
	return put_x(out, b);
}

/* The length of the sequence lead b starts, 0 when b cannot start one. */
static unsigned seq_len(unsigned char b)
{
	if (b >= 0xc2 && b <= 0xdf)
		return 2;
	if (b >= 0xe0 && b <= 0xef)
		return 3;
	if (b >= 0xf0 && b <= 0xf4)
		return 4;
	return 0;
}

/* Whether b may follow the bytes in st (no overlong form, no surrogate,
 * nothing above U+10FFFF). */
static bool seq_next(const struct lf_text_state *st, unsigned char b)
{
	unsigned char lead = st->pend[0];

	if ((b & 0xc0) != 0x80)
		return false;
	if (st->npend == 1) {
		if (lead == 0xe0 && b < 0xa0)
			return false;
		if (lead == 0xed && b >= 0xa0)
			return false;
		if (lead == 0xf0 && b < 0x90)
			return false;
		if (lead == 0xf4 && b >= 0x90)
			return false;
	}
	return true;
}

/* A finished sequence: copied, or \u00XX for a C1 control character. */
static size_t put_seq(struct lf_text_state *st, char *out)
{
	size_t n = st->npend;

	st->npend = st->need = 0;
	if (n == 2 && st->pend[0] == 0xc2 && st->pend[1] < 0xa0) {
		memcpy(out, "\\u00", 4);
		out[4] = hex[st->pend[1] >> 4];
		out[5] = hex[st->pend[1] & 15];
		return 6;
	}
	memcpy(out, st->pend, n);
	return n;
}

/* An unfinished sequence given up: each byte as \xNN. */
static size_t put_broken(struct lf_text_state *st, char *out)
{
	size_t k = 0;

	for (unsigned i = 0; i < st->npend; i++)
		k += put_x(out + k, st->pend[i]);
	st->npend = st->need = 0;
	return k;
}

size_t lf_text_escape_step(struct lf_text_state *st, const char *in, size_t n, char *out,
			   bool keep_lines)
{
	size_t k = 0;

	if (!in)
		return put_broken(st, out);
	for (size_t i = 0; i < n; i++) {
		unsigned char b = (unsigned char)in[i];

		if (st->npend) {
			if (seq_next(st, b)) {
				st->pend[st->npend++] = b;
				if (st->npend == st->need)
					k += put_seq(st, out + k);
				continue;
			}
			k += put_broken(st, out + k);
		}
		if (b < 0x80) {
			k += put_ascii(out + k, b, keep_lines);
		} else if ((st->need = seq_len(b)) != 0) {
			st->pend[0] = b;
			st->npend = 1;
		} else {
			k += put_x(out + k, b);
		}
	}
	return k;
}

bool lf_text_clean(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; s && *p; p++)
		if (*p < 0x20 || *p >= 0x7f)
			return false;
	return true;
}

char *lf_text_escape(const char *s)
{
	struct lf_text_state st = { 0 };
	size_t n = s ? strlen(s) : 0, k;
	char *out;

	if (lf_text_clean(s))
		return strdup(s ? s : "");
	out = malloc(6 * n + 18 + 1);
	if (!out)
		return NULL;
	k = lf_text_escape_step(&st, s, n, out, false);
	k += lf_text_escape_step(&st, NULL, 0, out + k, false);
	out[k] = '\0';
	return out;
}
