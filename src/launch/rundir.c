/* SPDX-License-Identifier: MIT */
/*
 * The private run directory, exported to the program as TMPDIR: the only
 * place outside the project a program may write by default, and gone when
 * the program ends.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "launch/launch.h"

int lf_rundir_create(char *out, size_t size)
{
	char tmpl[PATH_MAX], canon[PATH_MAX];
	const char *base = secure_getenv("TMPDIR");
	int n;

	if (!out || size == 0)
		return -EINVAL;
	if (!base || base[0] != '/')
		base = "/tmp";
	n = snprintf(tmpl, sizeof(tmpl), "%s/landfence.XXXXXX", base);
	if (n < 0 || (size_t)n >= sizeof(tmpl))
		return -ENAMETOOLONG;
	if (!mkdtemp(tmpl))
		return -errno;
	/* Grants are compared on canonical paths: hand out the canonical
	 * name so the rule and TMPDIR agree. */
	if (!realpath(tmpl, canon)) {
		int r = -errno;
		rmdir(tmpl);
		return r;
	}
	if (strlen(canon) >= size) {
		rmdir(tmpl);
		return -ENAMETOOLONG;
	}
	strcpy(out, canon);
	return 0;
}

/* Empties the directory open as dfd (consumed), depth first. */
static int empty_dir(int dfd)
{
	DIR *d = fdopendir(dfd);
	struct dirent *de;
	int first = 0;

	if (!d) {
		int r = -errno;
		close(dfd);
		return r;
	}
	/* A program may leave a directory without write or search
	 * permission; the owner can give them back. */
	(void)fchmod(dfd, 0700);
	while ((errno = 0, de = readdir(d))) {
		struct stat st;
		int r;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (fstatat(dfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
			if (!first && errno != ENOENT)
				first = -errno;
			continue;
		}
		if (S_ISDIR(st.st_mode)) {
			int sub = openat(dfd, de->d_name,
					 O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (sub < 0) {
				if (!first)
					first = -errno;
				continue;
			}
			r = empty_dir(sub);
			if (r < 0 && !first)
				first = r;
			if (unlinkat(dfd, de->d_name, AT_REMOVEDIR) < 0 && !first)
				first = -errno;
		} else if (unlinkat(dfd, de->d_name, 0) < 0 && !first) {
			first = -errno;
		}
	}
	if (errno && !first)
		first = -errno;
	closedir(d);
	return first;
}

int lf_rundir_remove(const char *path)
{
	int dfd, r;

	if (!path || path[0] != '/')
		return -EINVAL;
	dfd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dfd < 0)
		return errno == ENOENT ? 0 : -errno;
	r = empty_dir(dfd);
	if (rmdir(path) < 0 && !r)
		r = -errno;
	return r;
}
