/* SPDX-License-Identifier: MIT */
/*
 * The canonical form of a path that may not exist (fs.h). Fences, the
 * advisor's second look at a request and the configuration fence all use
 * this one function, so that "where the kernel would go" means the same
 * everywhere.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/path.h"
#include "fs/fs.h"

/* How many dangling links are followed before the clean form is taken. */
#define CANON_MAX_LINKS 40

/* prefix "/" rest, or rest alone when prefix is "/". */
static char *join(const char *prefix, const char *rest)
{
	char *s = NULL;

	if (asprintf(&s, "%s%s", strcmp(prefix, "/") ? prefix : "", rest) < 0)
		return NULL;
	return s;
}

/* The target of the link at cur[0..cut) with cur + cut appended, or NULL
 * (not a link, unreadable: *err 0; out of memory: *err -ENOMEM). */
static char *follow_link(const char *cur, size_t cut, int *err)
{
	char *prefix = strndup(cur, cut), *link = NULL, *next = NULL;
	struct stat st;

	*err = 0;
	if (!prefix) {
		*err = -ENOMEM;
		return NULL;
	}
	if (lstat(prefix, &st) != 0 || !S_ISLNK(st.st_mode) || st.st_size <= 0 ||
	    st.st_size >= 65536)
		goto out;
	link = malloc((size_t)st.st_size + 1);
	if (!link) {
		*err = -ENOMEM;
		goto out;
	}
	ssize_t n = readlink(prefix, link, (size_t)st.st_size + 1);
	if (n <= 0 || n > st.st_size)
		goto out;
	link[n] = '\0';
	if (link[0] == '/') {
		next = join(link, cur + cut);
	} else {
		/* Relative to the directory holding the link. */
		*strrchr(prefix, '/') = '\0';
		if (asprintf(&next, "%s/%s%s", prefix, link, cur + cut) < 0)
			next = NULL;
	}
	if (!next)
		*err = -ENOMEM;
out:
	free(link);
	free(prefix);
	return next;
}

int lf_path_canon_lenient(const char *in, char **out)
{
	char *cur, *res = NULL;
	int r;

	if (!in || in[0] != '/' || !out)
		return -EINVAL;
	cur = strdup(in);
	if (!cur)
		return -ENOMEM;
	for (int links = 0; !res && links <= CANON_MAX_LINKS; links++) {
		size_t cut = strlen(cur);
		char *next = NULL;

		for (;;) {
			char saved = cur[cut];
			char *real;

			cur[cut] = '\0';
			real = realpath(cut ? cur : "/", NULL);
			cur[cut] = saved;
			if (real) {
				char *joined = join(real, cur + cut);

				free(real);
				if (!joined) {
					free(cur);
					return -ENOMEM;
				}
				r = lf_path_clean_dup(joined, &res);
				free(joined);
				if (r < 0) {
					free(cur);
					return r;
				}
				break;
			}
			if (errno == ENOMEM) {
				free(cur);
				return -ENOMEM;
			}
			if (cut > 0 && links < CANON_MAX_LINKS) {
				next = follow_link(cur, cut, &r);
				if (r < 0) {
					free(cur);
					return r;
				}
				if (next)
					break;
			}
			if (cut == 0)
				break;
			/* Back to the '/' that ends the parent. */
			cut--;
			while (cut > 0 && cur[cut] != '/')
				cut--;
		}
		if (!next)
			break;
		free(cur);
		cur = next;
	}
	free(cur);
	if (res) {
		*out = res;
		return 0;
	}
	/* Links that loop or go too deep: the written place, cleaned. */
	return lf_path_clean_dup(in, out);
}
