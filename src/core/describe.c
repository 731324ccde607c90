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

static int cmp_line(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A path with the run directory written as $TMPDIR: it differs on every
 * launch. */
static int path_line(struct lf_strv *l, const struct lf_sandbox *sb, const char *kind,
		     const char *cls, const char *path, const char *tail)
{
	size_t rl = sb->run_dir ? strlen(sb->run_dir) : 0;

	if (rl && lf_path_covers_n(sb->run_dir, rl, path, strlen(path)))
		return lf_strv_pushf(l, "%s %s $TMPDIR%s%s", kind, cls, path + rl, tail);
	return lf_strv_pushf(l, "%s %s %s%s", kind, cls, path, tail);
}

static int describe_lines(const struct lf_sandbox *sb, struct lf_strv *l)
{
	static const char *const status[] = { "enforced", "degraded", "unsupported" };
	int r;

	r = lf_strv_pushf(l, "abi %d", sb->abi);
	r = r ?: lf_strv_pushf(l, "fallback %s", lf_effect_name(sb->posture));
	r = r ?: lf_strv_pushf(l, "status %s", status[sb->status.kind]);
	for (size_t i = 0; i < sb->nrules && r == 0; i++) {
		const struct lf_sandbox_rule *fr = &sb->rules[i];
		char tail[64];

		snprintf(tail, sizeof(tail), " %s%s", lf_origin_name(fr->origin),
			 fr->ioctl_dev ? " ioctl" : "");
		r = path_line(l, sb, "rule", lf_access_name(fr->access), fr->path, tail);
	}
	for (size_t i = 0; i < sb->nfences && r == 0; i++)
		r = path_line(l, sb, "fence", lf_access_name(sb->fences[i].access),
			      sb->fences[i].path, "");
	for (size_t i = 0; i < sb->nmasks && r == 0; i++)
		r = path_line(l, sb, "mask", lf_access_name(sb->masks[i].access), sb->masks[i].path,
			      "");
	for (size_t i = 0; i < sb->nenv && r == 0; i++)
		r = lf_strv_pushf(l, "env %s", sb->env[i].name);
	if (r == 0 && sb->net_restricted)
		r = lf_strv_pushf(l, "net tcp restricted");
	for (size_t i = 0; i < sb->nports && r == 0; i++)
		r = lf_strv_pushf(l, "net port %u%s%s", sb->ports[i].port,
				  sb->ports[i].connect ? " connect" : "",
				  sb->ports[i].bind ? " bind" : "");
	return r;
}

int lf_sandbox_describe(const struct lf_sandbox *sb, char **out)
{
	struct lf_strv l = { 0 };
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
	lf_strv_fini(&l);
	return r;
}
