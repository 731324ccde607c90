/* SPDX-License-Identifier: MIT */
/*
 * The one path module. Lexical handling here, pure (no file-system access):
 * cleaning an absolute path, the project-relative form of a request, and
 * the component-aware "covers" and "overlaps" tests every comparison of
 * roots, fences and grants uses. The canonical form, which needs the file
 * system, is lf_path_canon_lenient() in src/fs/fs.h.
 * Internal: not installed.
 */
#ifndef LF_CORE_PATH_H
#define LF_CORE_PATH_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

/* Lexical normalisation of the absolute path in: "" and "." components
 * vanish, ".." removes the component before it (".." at "/" stays at "/",
 * as the kernel keeps it), no repeated or trailing '/'. Writes into out
 * (size bytes; strlen(in) + 2 always suffice). No symlink is followed.
 * Returns 0, -EINVAL (in NULL or not absolute), -ENAMETOOLONG (out too
 * small: nothing usable is written). */
int lf_path_clean(const char *in, char *out, size_t size);

/* The same into a malloc'ed string (*out, caller frees). Returns 0,
 * -EINVAL, -ENOMEM. */
int lf_path_clean_dup(const char *in, char **out);

/* Lexical path normalisation for requests: resolves ".", "..", "//" as
 * the kernel would without symlinks (".." at "/" stays at "/"); a relative
 * path is taken relative to project_root. Writes the project-relative form
 * of path into out, which needs 2 * strlen(project_root) + strlen(path) + 3
 * bytes in the worst case.
 * Returns 0, 1 when the path lies outside project_root, -ENAMETOOLONG,
 * -EINVAL. */
int lf_path_relative(const char *project_root, const char *path, char *out, size_t size);

/* Component-aware overlap of two project-relative roots ("" = the root):
 * equal, or one a strict ancestor of the other. */
bool lf_path_conflict(const char *a, size_t alen, const char *b, size_t blen);

/* Whether the absolute clean path p is root or lies below it,
 * component-wise: "/a" covers "/a/b" but not "/ab"; "/" covers every
 * absolute path. */
bool lf_path_covers(const char *root, const char *p);

/* lf_path_covers with both lengths known: hot loops compare every rule
 * with every other, so it is inline, and the byte after the root is looked
 * at before the root is compared. */
static inline bool lf_path_covers_n(const char *root, size_t rlen, const char *p, size_t plen)
{
	if (rlen == 1 && root[0] == '/')
		return p[0] == '/';
	return rlen <= plen && (rlen == plen || p[rlen] == '/') && memcmp(root, p, rlen) == 0;
}

/* Whether a and b (absolute, clean) are equal or one covers the other. */
bool lf_path_overlap(const char *a, const char *b);

/* Orders absolute paths component by component ('/' before every other
 * byte), so that a directory comes right before what lies below it, as
 * strcmp does otherwise. */
int lf_path_order(const char *a, const char *b);
bool lf_path_overlap_n(const char *a, size_t alen, const char *b, size_t blen);

#endif /* LF_CORE_PATH_H */
