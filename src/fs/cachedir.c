/* SPDX-License-Identifier: MIT */
/*
 * The directory of landfence's caches (fs.h, lf_cache_dir): the listings
 * of the nested-repository and device-node searches (treecache.c), the
 * namespace probe's answer (src/launch/nsmemo.c) and the compiled project
 * policies (src/project/polcache.c); and the build ID that keys what a
 * build keeps there (lf_build_id).
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
#include <limits.h>
#include <stdatomic.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fs/fs.h"

/* The id an owner that this user namespace does not map shows as, when
 * root is such an owner (in the sandbox of an unprivileged user, whose
 * namespace maps that user alone): root's directories show as it.
 * (uid_t)-1 in the initial namespace, where it stands for nobody. */
static uid_t unmapped_root(void)
{
	/* 0 not known yet, else the answer plus one (read once: a process's
	 * user namespace does not change under it). */
	static _Atomic long long memo;
	char map[4096] = "", over[32] = "";
	long long known = atomic_load(&memo);

	if (known)
		return (uid_t)(known - 1);
	uid_t id = (uid_t)-1;
	int fd = open("/proc/self/uid_map", O_RDONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : read(fd, map, sizeof(map) - 1);
	if (fd >= 0)
		close(fd);
	/* Unreadable, or more than fits: as if root were mapped (no owner
	 * other than root and the user is accepted). */
	bool root_mapped = n <= 0 || (size_t)n >= sizeof(map) - 1;
	/* Lines of "INSIDE OUTSIDE COUNT": root is mapped when a range of
	 * the outer ids starts at 0. */
	for (const char *p = map; !root_mapped && *p;) {
		char *e1, *e2, *e3;

		(void)strtoull(p, &e1, 10);
		unsigned long long out = strtoull(e1, &e2, 10);
		unsigned long long count = strtoull(e2, &e3, 10);
		root_mapped = e1 != p && e2 != e1 && e3 != e2 && out == 0 && count > 0;
		const char *nl = strchr(e3, '\n');
		if (!nl)
			break;
		p = nl + 1;
	}
	if (!root_mapped) {
		fd = open("/proc/sys/kernel/overflowuid", O_RDONLY | O_CLOEXEC);
		n = fd < 0 ? -1 : read(fd, over, sizeof(over) - 1);
		if (fd >= 0)
			close(fd);
		id = n > 0 ? (uid_t)strtoul(over, NULL, 10) : 65534;
	}
	atomic_store(&memo, (long long)id + 1);
	return id;
}

/* The directory at, of status st, is root's or the user's, and nobody
 * else may change it. Only a directory like /tmp is excused: root's,
 * sticky and writable by everybody, a mode the sandboxed program cannot
 * set (its filter refuses the write bit for others). A sticky directory
 * the program made group-writable (chmod 1770, and chgrp as root) would
 * still take a file another user moves in where none was. */
static int guard_dir(const char *at, const struct stat *st, char *bad, size_t badsize)
{
	bool roots = st->st_uid == 0 || (st->st_uid != geteuid() && st->st_uid == unmapped_root());
	bool shared_tmp = roots && (st->st_mode & S_ISVTX) && (st->st_mode & S_IWOTH);

	if ((!roots && st->st_uid != geteuid()) || ((st->st_mode & 022) && !shared_tmp)) {
		snprintf(bad, badsize, "%s (owner uid %u, mode %04o)", at[0] ? at : "/",
			 (unsigned)st->st_uid, (unsigned)(st->st_mode & 07777));
		return -EACCES;
	}
	return 0;
}

#define GUARD_MAX_LINKS 40

/* One lstat a component, from the root: at is always a path without a
 * link in it (each link met is read, and its target walked in its
 * place), so ".." is its parent. */
int lf_path_guarded(const char *path, char *bad, size_t badsize)
{
	char rest[2 * PATH_MAX], at[PATH_MAX] = "", target[PATH_MAX], tail[2 * PATH_MAX];
	size_t pos = 0, len = 0;
	struct stat st;
	int links = 0, r;

	if (!path || path[0] != '/')
		return -EINVAL;
	if (snprintf(rest, sizeof(rest), "%s", path) >= (int)sizeof(rest))
		return -ENAMETOOLONG;
	if (lstat("/", &st) != 0)
		return -errno;
	r = guard_dir(at, &st, bad, badsize);
	while (r == 0) {
		while (rest[pos] == '/')
			pos++;
		if (!rest[pos])
			break;
		size_t n = strcspn(rest + pos, "/");
		const char *name = rest + pos;

		pos += n;
		if (n == 1 && name[0] == '.')
			continue;
		if (n == 2 && name[0] == '.' && name[1] == '.') {
			char *cut = strrchr(at, '/');
			len = cut ? (size_t)(cut - at) : 0;
			at[len] = '\0';
			continue;
		}
		if (len + 1 + n >= sizeof(at)) {
			r = -ENAMETOOLONG;
			break;
		}
		size_t parent = len;
		at[len++] = '/';
		memcpy(at + len, name, n);
		len += n;
		at[len] = '\0';
		if (lstat(at, &st) != 0) {
			r = -errno;
			break;
		}
		if (S_ISLNK(st.st_mode)) {
			/* The link's target, then what was left after it,
			 * walked from the link's directory or from the root. */
			ssize_t tl = readlink(at, target, sizeof(target));

			r = tl < 0 ? -errno : ++links > GUARD_MAX_LINKS ? -ELOOP : 0;
			if (r == 0 && (size_t)tl >= sizeof(target))
				r = -ENAMETOOLONG;
			if (r == 0) {
				target[tl] = '\0';
				if (snprintf(tail, sizeof(tail), "%s/%s", target, rest + pos) >=
				    (int)sizeof(tail))
					r = -ENAMETOOLONG;
			}
			if (r < 0)
				break;
			memcpy(rest, tail, strlen(tail) + 1);
			pos = 0;
			len = target[0] == '/' ? 0 : parent;
			at[len] = '\0';
			continue;
		}
		if (S_ISDIR(st.st_mode))
			r = guard_dir(at, &st, bad, badsize);
		else if (rest[pos + strspn(rest + pos, "/")])
			r = -ENOTDIR; /* a file with more to walk */
	}
	return r;
}

int lf_cache_dir(const char *config_dir, bool make, char *out, size_t size)
{
	struct stat st;

	if (!config_dir || config_dir[0] != '/' ||
	    snprintf(out, size, "%s/cache", config_dir) >= (int)size)
		return -EINVAL;
	if (make) {
		/* Nothing is made where nobody could use it: below a
		 * directory somebody else may change. */
		char have[PATH_MAX], bad[PATH_MAX + 64];
		struct stat hst;

		snprintf(have, sizeof(have), "%s", out);
		for (char *sl; lstat(have, &hst) != 0 && errno == ENOENT &&
			       (sl = strrchr(have, '/')) && sl != have;)
			*sl = '\0';
		if (lf_path_guarded(have, bad, sizeof(bad)) == -EACCES)
			return -EPERM;
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
	/* Nor may anybody else change a directory on the way to it (a
	 * configuration directory replaced with a link to files the program
	 * wrote). */
	char bad[PATH_MAX + 64];
	if (lf_path_guarded(out, bad, sizeof(bad)) != 0)
		return -EPERM;
	/* Whatever is written there must also be removable: an answer
	 * that cannot be forgotten would be used at every launch. */
	if (access(out, W_OK | X_OK) != 0)
		return -errno;
	return 0;
}

bool lf_cache_file_ours(int fd, struct stat *st)
{
	return fstat(fd, st) == 0 && S_ISREG(st->st_mode) && st->st_uid == geteuid() &&
	       !(st->st_mode & 022) && st->st_nlink == 1;
}

int lf_cache_file_open(const char *file, uint64_t max, struct stat *st)
{
	int fd = open(file, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW | O_NONBLOCK);
	int r = fd;

	if (fd < 0)
		return -errno;
	if (!lf_cache_file_ours(fd, st))
		r = S_ISREG(st->st_mode) ? -EACCES : -EINVAL;
	else if (st->st_size < 0 || (uint64_t)st->st_size > max)
		r = -EFBIG;
	if (r < 0)
		close(fd);
	return r;
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
		    (strncmp(n, "tree-", 5) != 0 && strncmp(n, "list-", 5) != 0 &&
		     strncmp(n, "links-", 6) != 0 && strncmp(n, "dev-", 4) != 0 &&
		     strncmp(n, "pol-", 4) != 0 &&
		     strncmp(n, LF_CACHE_NS_PROBE ".", sizeof(LF_CACHE_NS_PROBE)) != 0) ||
		    fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
		    !S_ISREG(st.st_mode) || st.st_mtim.tv_sec > now.tv_sec - 60)
			continue;
		(void)unlinkat(dirfd(d), e->d_name, 0); /* gone already: fine */
	}
	closedir(d);
}

/* The GNU build ID of the loaded object that holds addr, in hex. */
struct build_id {
	uintptr_t addr;
	char hex[2 * 64 + 1]; /* "" until found */
};

static void build_id_notes(struct build_id *b, const char *p, size_t len, size_t align)
{
	while (len >= sizeof(ElfW(Nhdr))) {
		const ElfW(Nhdr) *n = (const ElfW(Nhdr) *)(const void *)p;
		size_t name = (n->n_namesz + align - 1) & ~(align - 1),
		       desc = (n->n_descsz + align - 1) & ~(align - 1),
		       rec = sizeof(*n) + name + desc;

		if (name > len || desc > len || rec > len)
			return;
		if (n->n_type == NT_GNU_BUILD_ID && n->n_namesz == 4 &&
		    memcmp(p + sizeof(*n), "GNU", 4) == 0 && n->n_descsz > 0 && n->n_descsz <= 64) {
			const unsigned char *d = (const unsigned char *)p + sizeof(*n) + name;

			for (size_t i = 0; i < n->n_descsz; i++)
				snprintf(b->hex + 2 * i, 3, "%02x", d[i]);
			return;
		}
		p += rec;
		len -= rec;
	}
}

/* Whether [addr, addr + len) lies in one loaded segment of the object. */
static bool build_id_mapped(const struct dl_phdr_info *info, uintptr_t addr, size_t len)
{
	for (size_t i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t lo = info->dlpi_addr + ph->p_vaddr;

		if (ph->p_type == PT_LOAD && addr >= lo && addr - lo <= ph->p_memsz &&
		    len <= ph->p_memsz - (addr - lo))
			return true;
	}
	return false;
}

static int build_id_find(struct dl_phdr_info *info, size_t size, void *data)
{
	struct build_id *b = data;

	(void)size;
	if (!build_id_mapped(info, b->addr, 1))
		return 0;
	/* The object holding the code: its notes, where they are loaded
	 * (a note outside every loaded segment is not read). */
	for (size_t i = 0; i < info->dlpi_phnum && !b->hex[0]; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t at = info->dlpi_addr + ph->p_vaddr;

		if (ph->p_type == PT_NOTE && build_id_mapped(info, at, ph->p_memsz))
			build_id_notes(b, (const char *)at, ph->p_memsz, ph->p_align == 8 ? 8 : 4);
	}
	return 1;
}

int lf_build_id(char hex[LF_BUILD_ID_HEX])
{
	struct build_id b = { .addr = (uintptr_t)(void *)lf_build_id };

	(void)dl_iterate_phdr(build_id_find, &b);
	if (!b.hex[0])
		return -ENOENT;
	memcpy(hex, b.hex, sizeof(b.hex));
	return 0;
}
