/* SPDX-License-Identifier: MIT */
/*
 * The directory of landfence's caches (fs.h, lf_cache_dir): the listings
 * of the nested-repository and device-node searches (treecache.c) and the
 * namespace probe's answer (src/launch/nsmemo.c).
 *
 * What is cached there decides what a launch protects, so it must be
 * beyond the sandbox's reach: the configuration directory is (a fence on
 * its real path), and the cache directory is used only when it is a real
 * directory inside it, not a symbolic link to somewhere the program may
 * write, owned by the user and writable by nobody else. Anything else is
 * no cache: the searches walk, the probe runs.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fs/fs.h"

int lf_cache_dir(const char *config_dir, bool make, char *out, size_t size)
{
	struct stat st;

	if (!config_dir || config_dir[0] != '/' ||
	    snprintf(out, size, "%s/cache", config_dir) >= (int)size)
		return -EINVAL;
	if (make) {
		/* The configuration directory and any missing parent,
		 * private, as the trust store's (trust.c). */
		for (char *sl = out + 1; (sl = strchr(sl, '/')); sl++) {
			*sl = '\0';
			int r = mkdir(out, 0700) == 0 || errno == EEXIST ? 0 : -errno;
			*sl = '/';
			if (r < 0)
				return r;
		}
		if (mkdir(out, 0700) != 0 && errno != EEXIST)
			return -errno;
	}
	if (lstat(out, &st) != 0)
		return -errno;
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	if (st.st_uid != geteuid() || (st.st_mode & 022))
		return -EPERM;
	/* Whatever is written there must also be removable: an answer
	 * that cannot be forgotten would be used at every launch. */
	if (access(out, W_OK | X_OK) != 0)
		return -errno;
	return 0;
}

void lf_cache_sweep(const char *dir)
{
	struct timespec now;
	struct dirent *e;
	DIR *d;

	if (clock_gettime(CLOCK_REALTIME, &now) != 0 || !(d = lf_dir_open(dir, O_NOFOLLOW)))
		return;
	while ((e = readdir(d))) {
		const char *n = e->d_name, *dot = strrchr(n, '.');
		struct stat st;

		/* A temporary file of a write that did not finish: NAME.XXXXXX
		 * (mkostemp) of one of ours, a minute old. */
		if (!dot || strlen(dot + 1) != 6 ||
		    (strncmp(n, "tree-", 5) != 0 && strncmp(n, "dev-", 4) != 0 &&
		     strncmp(n, "ns-probe.", 9) != 0) ||
		    fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
		    !S_ISREG(st.st_mode) || st.st_mtim.tv_sec > now.tv_sec - 60)
			continue;
		(void)unlinkat(dirfd(d), e->d_name, 0); /* gone already: fine */
	}
	closedir(d);
}
