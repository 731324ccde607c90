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

bool lf_ports_has(const struct lf_ports *p, unsigned short port)
{
	for (size_t i = 0; i < p->n; i++)
		if (p->v[i] == port)
			return true;
	return false;
}

int lf_ports_add(struct lf_ports *p, unsigned short port)
{
	unsigned short *v;

	if (lf_ports_has(p, port))
		return 0;
	v = reallocarray(p->v, p->n + 1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	p->v = v;
	p->v[p->n++] = port;
	return 0;
}

void lf_ports_fini(struct lf_ports *p)
{
	free(p->v);
	p->v = NULL;
	p->n = 0;
}
