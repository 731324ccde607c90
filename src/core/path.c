/* SPDX-License-Identifier: MIT */
/*
 * Lexical path handling for requests and plan roots: no file system access,
 * so a symlink is not followed here (the adapter compares canonical paths
 * for what the kernel enforces). Pure.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/path.h"

/*
 * Normalises the '/'-separated path s onto out[0..*len), which may already
 * hold components (no leading '/'): "" components and "." vanish, ".."
 * removes the previous component, and a ".." with nothing left to remove
 * stays where it is, as the kernel keeps ".." at "/". On return *len is the
 * new length. Returns 0 or -ENAMETOOLONG.
 */
static int path_norm(const char *s, char *out, size_t size, size_t *len)
{
	size_t n = *len;

	while (*s) {
		while (*s == '/')
			s++;
		if (!*s)
			break;
		const char *e = s;
		while (*e && *e != '/')
			e++;
		size_t seg = (size_t)(e - s);
		if (seg == 1 && s[0] == '.') {
			/* nothing */
		} else if (seg == 2 && s[0] == '.' && s[1] == '.') {
			while (n > 0 && out[n - 1] != '/')
				n--;
			if (n > 0)
				n--;
		} else {
			if (n + (n ? 1 : 0) + seg + 1 > size)
				return -ENAMETOOLONG;
			if (n)
				out[n++] = '/';
			memcpy(out + n, s, seg);
			n += seg;
		}
		s = e;
	}
	if (n + 1 > size)
		return -ENAMETOOLONG;
	out[n] = '\0';
	*len = n;
	return 0;
}

int lf_path_relative(const char *project_root, const char *path, char *out, size_t size)
{
	if (!project_root || !path || !out || size == 0)
		return -EINVAL;

	/* The normalised root goes first in out, the normalised request
	 * right after it (a relative request joined onto the root first, so
	 * that "../proj/x" comes back in); the remainder below the root then
	 * moves to the front. */
	size_t rl = 0, pl;
	int r = path_norm(project_root, out, size, &rl);
	if (r < 0)
		return r;
	if (rl + 1 >= size)
		return -ENAMETOOLONG;
	char *p = out + rl + 1;
	pl = 0;
	if (path[0] != '/') {
		memcpy(p, out, rl);
		pl = rl;
	}
	r = path_norm(path, p, size - rl - 1, &pl);
	if (r < 0)
		return r;
	const char *rel;
	if (rl == 0)
		rel = p;
	else if (pl == rl && memcmp(p, out, rl) == 0)
		rel = p + pl;
	else if (pl > rl && memcmp(p, out, rl) == 0 && p[rl] == '/')
		rel = p + rl + 1;
	else
		return 1;
	memmove(out, rel, strlen(rel) + 1);
	return 0;
}

bool lf_path_conflict(const char *a, size_t alen, const char *b, size_t blen)
{
	/* The shorter one must be the longer one's ancestor or equal; "" is
	 * the ancestor of everything. */
	if (alen > blen) {
		const char *t = a;
		a = b;
		b = t;
		size_t tl = alen;
		alen = blen;
		blen = tl;
	}
	if (alen == 0)
		return true;
	if (memcmp(a, b, alen) != 0)
		return false;
	return alen == blen || b[alen] == '/';
}

int lf_path_clean(const char *in, char *out, size_t size)
{
	size_t n = 0;

	if (!in || in[0] != '/' || !out || size < 2)
		return in && in[0] == '/' ? -ENAMETOOLONG : -EINVAL;
	/* path_norm writes the components without the leading '/'. */
	int r = path_norm(in, out + 1, size - 1, &n);
	if (r < 0) {
		out[0] = '\0';
		return r;
	}
	out[0] = '/';
	return 0;
}

int lf_path_clean_dup(const char *in, char **out)
{
	if (!in || in[0] != '/' || !out)
		return -EINVAL;
	size_t size = strlen(in) + 2;
	char *s = malloc(size);
	if (!s)
		return -ENOMEM;
	int r = lf_path_clean(in, s, size);
	if (r < 0) {
		free(s);
		return r;
	}
	*out = s;
	return 0;
}

bool lf_path_covers(const char *root, const char *p)
{
	return lf_path_covers_n(root, strlen(root), p, strlen(p));
}

bool lf_path_overlap_n(const char *a, size_t alen, const char *b, size_t blen)
{
	/* Only the shorter path can cover the longer one. */
	return alen <= blen ? lf_path_covers_n(a, alen, b, blen)
			    : lf_path_covers_n(b, blen, a, alen);
}

bool lf_path_overlap(const char *a, const char *b)
{
	return lf_path_overlap_n(a, strlen(a), b, strlen(b));
}

int lf_path_order(const char *a, const char *b)
{
	const char *x = a, *y = b;

	for (; *x && *x == *y; x++, y++)
		;
	unsigned cx = *x == '/' ? 1 : (unsigned char)*x, cy = *y == '/' ? 1 : (unsigned char)*y;
	return (int)cx - (int)cy;
}
