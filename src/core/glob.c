/* SPDX-License-Identifier: MIT */
/*
 * Project-relative path globs (SPEC §1, grammar in doc/globs.md).
 *
 * Matching works segment by segment: a path and a pattern are both lists of
 * '/'-separated segments, "**" as a whole segment stands for any number of
 * path segments (zero included), and every other segment matches exactly one
 * path segment with '*', '?' and bracket classes. A pattern that matches the
 * first k segments of a path matches the path too: granting or denying a
 * directory reaches everything below it, as an OS grant on it would. Pure.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/model.h"

#define EXAMPLE "expected a project-relative glob such as \"src/**\""

/* Fills diag->message; patterns are quoted with "%.*s" and cut at 200 bytes. */
__attribute__((format(printf, 2, 3))) static void glob_error(struct lf_diag *diag, const char *fmt,
							     ...)
{
	if (!diag)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(diag->message, sizeof(diag->message), fmt, ap);
	va_end(ap);
}

static int shown(size_t len)
{
	return len > 200 ? 200 : (int)len;
}

static const char *seg_end(const char *s)
{
	while (*s && *s != '/')
		s++;
	return s;
}

static const char *seg_next(const char *e)
{
	return *e == '/' ? e + 1 : e;
}

/*
 * Parses the bracket class starting at p ('[') and ending before end.
 * Returns the length of the class including both brackets, or 0 when the
 * class is not closed within [p, end). When c >= 0, *hit tells whether the
 * character c belongs to the class (negation applied).
 */
static size_t class_parse(const char *p, const char *end, int c, bool *hit)
{
	const char *q = p + 1;
	bool neg = false, in = false;

	if (q < end && *q == '!') {
		neg = true;
		q++;
	}
	const char *first = q;
	while (q < end && (*q != ']' || q == first)) {
		unsigned char lo = (unsigned char)*q;
		if (q + 2 < end && q[1] == '-' && q[2] != ']') {
			unsigned char hi = (unsigned char)q[2];
			if (c >= lo && c <= hi)
				in = true;
			q += 3;
		} else {
			if (c == lo)
				in = true;
			q++;
		}
	}
	if (q >= end)
		return 0;
	if (hit)
		*hit = in != neg;
	return (size_t)(q + 1 - p);
}

/* One pattern segment [p, pe) against one path segment [s, se). */
static bool seg_match(const char *p, const char *pe, const char *s, const char *se)
{
	const char *star_p = NULL, *star_s = NULL;

	while (s < se) {
		if (p < pe && *p == '*') {
			while (p < pe && *p == '*')
				p++;
			star_p = p;
			star_s = s;
			continue;
		}
		if (p < pe) {
			if (*p == '?') {
				p++;
				s++;
				continue;
			}
			if (*p == '[') {
				bool hit = false;
				size_t n = class_parse(p, pe, (unsigned char)*s, &hit);
				if (n) {
					if (hit) {
						p += n;
						s++;
						continue;
					}
				} else if (*s == '[') {
					/* Unreachable for validated globs: an unclosed
					 * '[' is then just a character. */
					p++;
					s++;
					continue;
				}
			} else if (*p == *s) {
				p++;
				s++;
				continue;
			}
		}
		if (!star_p)
			return false;
		p = star_p;
		s = ++star_s;
	}
	while (p < pe && *p == '*')
		p++;
	return p == pe;
}

static bool seg_is_globstar(const char *p, const char *pe)
{
	return pe - p == 2 && p[0] == '*' && p[1] == '*';
}

bool lf_glob_match(const struct lf_glob *g, const char *path)
{
	const char *p = g->pattern, *s = path;
	const char *star_p = NULL, *star_s = NULL;

	/*
	 * Wildcard matching with one backtrack point, over segments. Running
	 * out of pattern at a segment boundary means the pattern matched an
	 * ancestor of the path (or the path itself): it covers the path.
	 */
	for (;;) {
		if (*p == '\0')
			return true;
		if (*s == '\0')
			break;
		const char *pe = seg_end(p), *se = seg_end(s);
		if (seg_is_globstar(p, pe)) {
			star_p = seg_next(pe);
			star_s = s;
			p = star_p;
			continue;
		}
		if (seg_match(p, pe, s, se)) {
			p = seg_next(pe);
			s = seg_next(se);
			continue;
		}
		if (!star_p)
			return false;
		star_s = seg_next(seg_end(star_s));
		p = star_p;
		s = star_s;
	}
	/* The path is used up: what is left of the pattern must be able to
	 * match zero segments. */
	while (*p) {
		const char *pe = seg_end(p);
		if (!seg_is_globstar(p, pe))
			return false;
		p = seg_next(pe);
	}
	return true;
}

/* Seed static_prefix: the literal directory path before the first
 * metacharacter, or the whole pattern when it has none. */
static size_t static_prefix_len(const char *pattern)
{
	size_t meta = strcspn(pattern, "*?[");
	if (pattern[meta] == '\0')
		return meta;
	while (meta > 0 && pattern[meta - 1] != '/')
		meta--;
	return meta ? meta - 1 : 0;
}

int lf_glob_init(struct lf_glob *g, const char *pattern, size_t len, struct lf_diag *diag)
{
	if (!g || (!pattern && len)) {
		glob_error(diag, "%s", "path pattern is missing; " EXAMPLE);
		return -EINVAL;
	}
	if (len == 0) {
		glob_error(diag, "%s", "path pattern is empty; " EXAMPLE);
		return -EINVAL;
	}
	size_t real = strnlen(pattern, len);
	if (real != len) {
		glob_error(diag,
			   "path pattern \"%.*s\" contains a NUL byte; expected a project-relative "
			   "glob without control characters",
			   shown(real), pattern);
		return -EINVAL;
	}
	if (pattern[0] == '/') {
		glob_error(diag, "path pattern \"%.*s\" is absolute; " EXAMPLE, shown(len),
			   pattern);
		return -EINVAL;
	}
	/* A pattern such as "~/.ssh" would silently name a directory "~" inside the
	 * project: the user meant the home directory, which project rules
	 * cannot reach. */
	if (pattern[0] == '~' && (len == 1 || pattern[1] == '/')) {
		glob_error(diag,
			   "path pattern \"%.*s\" names the home directory; expected a "
			   "project-relative glob such as \"src/**\" (paths outside the project "
			   "go in \"host\")",
			   shown(len), pattern);
		return -EINVAL;
	}

	char *out = malloc(len + 1);
	if (!out)
		return -ENOMEM;
	size_t n = 0;
	const char *s = pattern, *end = pattern + len;
	while (s < end) {
		const char *e = s;
		while (e < end && *e != '/')
			e++;
		size_t seg = (size_t)(e - s);
		/* "" (from "//" or a trailing '/') and "." add nothing. */
		if (seg == 0 || (seg == 1 && s[0] == '.')) {
			s = e < end ? e + 1 : e;
			continue;
		}
		if (seg == 2 && s[0] == '.' && s[1] == '.') {
			free(out);
			glob_error(diag,
				   "path pattern \"%.*s\" has a \"..\" component; expected a path "
				   "inside the project, without \"..\"",
				   shown(len), pattern);
			return -EINVAL;
		}
		for (const char *q = s; q < e; q++) {
			if (*q == '[') {
				size_t cl = class_parse(q, e, -1, NULL);
				if (!cl) {
					free(out);
					glob_error(
						diag,
						"path pattern \"%.*s\" has an unterminated \"[\" "
						"class; expected a closing \"]\" in the same "
						"segment, as in \"[abc]\"",
						shown(len), pattern);
					return -EINVAL;
				}
				q += cl - 1;
			}
		}
		if (n)
			out[n++] = '/';
		memcpy(out + n, s, seg);
		n += seg;
		s = e < end ? e + 1 : e;
	}
	out[n] = '\0';
	if (n == 0) {
		free(out);
		glob_error(diag,
			   "path pattern \"%.*s\" names nothing once normalised; expected \"**\" "
			   "for the whole project",
			   shown(len), pattern);
		return -EINVAL;
	}

	g->pattern = out;
	g->prefix_len = static_prefix_len(out);
	g->line = 0;
	g->column = 0;
	return 0;
}

void lf_glob_fini(struct lf_glob *g)
{
	if (!g)
		return;
	free(g->pattern);
	g->pattern = NULL;
	g->prefix_len = 0;
}
