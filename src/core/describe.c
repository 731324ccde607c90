/* SPDX-License-Identifier: MIT */
/*
 * lf_sandbox_describe: the sandbox value as sorted lines of text, for
 * comparing two values (the embedding test compares a program's with
 * `landfence run`'s) and for reading one. Pure.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/path.h"
#include "core/sandbox.h"

struct lines {
	char **v;
	size_t n, cap;
};

__attribute__((format(printf, 2, 3))) static int line_add(struct lines *l, const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;
	int r;

	if (l->n == l->cap) {
		size_t ncap = l->cap ? l->cap * 2 : 64;
		char **v = realloc(l->v, ncap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		l->v = v;
		l->cap = ncap;
	}
	va_start(ap, fmt);
	r = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (r < 0)
		return -ENOMEM;
	l->v[l->n++] = s;
	return 0;
}

static int cmp_line(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static const char *class_name(unsigned access)
{
	switch (access & (LF_ACCESS_RO | LF_ACCESS_RW)) {
	case LF_ACCESS_RO:
		return "read";
	case LF_ACCESS_RW:
		return "write";
	case LF_ACCESS_RO | LF_ACCESS_RW:
		return "read+write";
	}
	return "none";
}

/* A path with the run directory written as $TMPDIR: it differs on every
 * launch. */
static int path_line(struct lines *l, const struct lf_sandbox *sb, const char *kind,
		     const char *cls, const char *path, const char *tail)
{
	size_t rl = sb->run_dir ? strlen(sb->run_dir) : 0;

	if (rl && lf_path_covers_n(sb->run_dir, rl, path, strlen(path)))
		return line_add(l, "%s %s $TMPDIR%s%s", kind, cls, path + rl, tail);
	return line_add(l, "%s %s %s%s", kind, cls, path, tail);
}

static int describe_lines(const struct lf_sandbox *sb, struct lines *l)
{
	static const char *const status[] = { "enforced", "degraded", "unsupported" };
	int r;

	r = line_add(l, "abi %d", sb->abi);
	r = r ?: line_add(l, "fallback %s", lf_effect_name(sb->posture));
	r = r ?: line_add(l, "status %s", status[sb->status.kind]);
	for (size_t i = 0; i < sb->nrules && r == 0; i++) {
		const struct lf_sandbox_rule *fr = &sb->rules[i];
		char tail[64];

		snprintf(tail, sizeof(tail), " %s%s", lf_origin_name(fr->origin),
			 fr->ioctl_dev ? " ioctl" : "");
		r = path_line(l, sb, "rule", class_name(fr->access), fr->path, tail);
	}
	for (size_t i = 0; i < sb->nfences && r == 0; i++)
		r = path_line(l, sb, "fence", class_name(sb->fences[i].access), sb->fences[i].path,
			      "");
	for (size_t i = 0; i < sb->nmasks && r == 0; i++)
		r = path_line(l, sb, "mask", class_name(sb->masks[i].access), sb->masks[i].path,
			      "");
	for (size_t i = 0; i < sb->nenv && r == 0; i++)
		r = line_add(l, "env %s", sb->env[i].name);
	return r;
}

int lf_sandbox_describe(const struct lf_sandbox *sb, char **out)
{
	struct lines l = { 0 };
	size_t len = 1;
	char *text = NULL;
	int r;

	if (!sb || !out)
		return -EINVAL;
	r = describe_lines(sb, &l);
	if (r == 0) {
		/* The three header lines stay first; the entries are sorted. */
		if (l.n > 3)
			qsort(l.v + 3, l.n - 3, sizeof(*l.v), cmp_line);
		for (size_t i = 0; i < l.n; i++)
			len += strlen(l.v[i]) + 1;
		text = malloc(len);
		r = text ? 0 : -ENOMEM;
	}
	if (r == 0) {
		size_t n = 0;
		for (size_t i = 0; i < l.n; i++) {
			size_t k = strlen(l.v[i]);
			memcpy(text + n, l.v[i], k);
			text[n + k] = '\n';
			n += k + 1;
		}
		text[n] = '\0';
		*out = text;
	}
	for (size_t i = 0; i < l.n; i++)
		free(l.v[i]);
	free(l.v);
	return r;
}
