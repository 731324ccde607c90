/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/model.h"

int lf_strv_push(struct lf_strv *sv, const char *s)
{
	char *copy = strdup(s);
	if (!copy)
		return -ENOMEM;
	char **v = realloc(sv->v, (sv->n + 1) * sizeof(*v));
	if (!v) {
		free(copy);
		return -ENOMEM;
	}
	v[sv->n++] = copy;
	sv->v = v;
	return 0;
}

void lf_strv_fini(struct lf_strv *sv)
{
	for (size_t i = 0; i < sv->n; i++)
		free(sv->v[i]);
	free(sv->v);
	sv->v = NULL;
	sv->n = 0;
}

int lf_strv_pushf(struct lf_strv *sv, const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;
	char **v = realloc(sv->v, (sv->n + 1) * sizeof(*v));
	int r;

	if (!v)
		return -ENOMEM;
	sv->v = v;
	va_start(ap, fmt);
	r = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (r < 0)
		return -ENOMEM;
	sv->v[sv->n++] = s;
	return 0;
}
