/* SPDX-License-Identifier: MIT */
/*
 * The namespace probe's answer, remembered (mountns.h, lf_ns_memo_*).
 *
 * The probe (mountns.c) clones a child that makes a mount namespace and
 * tries every step a launch takes, and, as root, makes an id-mapped clone
 * of /etc; tearing the namespace and the clone down waits for the kernel
 * each time. Its answer depends on the kernel, the process's credentials
 * and confinement, its namespaces and the mounts, not on the project: a
 * "yes" is kept in the cache directory of landfence's configuration (which
 * the sandbox cannot write, being fenced, in a cache directory beyond the
 * program's reach: lf_cache_dir) under a key of everything that
 * decides it:
 *   - the file's format (MEMO_MAGIC: changed whenever the probe's steps
 *     change), landfence's version and build (the GNU build ID of the
 *     object this code is linked into: another build of the same
 *     version, whose probe may differ, does not take this one's word;
 *     without a build ID nothing is remembered), and the boot (boot_id);
 *   - the ids, capabilities, no_new_privs and seccomp state of the process
 *     (/proc/self/status), and whether it needs a user namespace;
 *   - its mount and user namespaces (their inode numbers);
 *   - the sysctls that allow or limit namespaces, and the LSM label;
 *   - a digest of the whole mount table (/proc/self/mountinfo).
 * Only a full "yes" is kept (a mount namespace, and, as root, the
 * id-mapped /etc): a "no" may be passing (a limit reached) and is probed
 * again at every launch, as before.
 *
 * What replaces the probe when the answer is remembered: the launch's own
 * child takes every step the probe took, and fails closed where one
 * fails (nothing runs); unless the step failed because the file system
 * changed since the plan (spawn.c, ns_step_voids_answer), the launch then
 * forgets the answer (lf_ns_memo_forget), so that the next one probes. A
 * remembered answer
 * never makes a sandbox weaker: it can only say that masks are possible,
 * and a launch that cannot place them does not run the program.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/fnv.h"
#include "fs/fs.h"
#include "launch/mountns.h"
#include "landfence.h"

#define MEMO_MAGIC "landfence-ns-probe 1"
#define MEMO_NAME LF_CACHE_NS_PROBE
/* The key and the answer: a few hundred bytes on any host. */
#define MEMO_MAX 4096

/* The file this process's remembered answer came from ("" none). */
static char memo_used[PATH_MAX];

struct key {
	char buf[MEMO_MAX];
	size_t n;
	bool bad;
};

/* Appends "name value\n", or "name\n" when value is NULL. */
static void key_add(struct key *k, const char *name, const char *value)
{
	int w;

	if (k->bad)
		return;
	w = snprintf(k->buf + k->n, sizeof(k->buf) - k->n, "%s%s%s\n", name, value ? " " : "",
		     value ? value : "");
	if (w < 0 || (size_t)w >= sizeof(k->buf) - k->n)
		k->bad = true;
	else
		k->n += (size_t)w;
}

ssize_t lf_proc_read(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	size_t n = 0;

	if (fd < 0)
		return -errno;
	while (n < size - 1) {
		ssize_t r = read(fd, buf + n, size - 1 - n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = errno;
			close(fd);
			return -e;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	buf[n] = '\0';
	return (ssize_t)n;
}

/* A one-line value, "-" when the file does not exist (a sysctl this
 * kernel does not have, no LSM label). Any other error voids the key. */
static void key_file(struct key *k, const char *path)
{
	char v[256] = "";
	ssize_t n = lf_proc_read(path, v, sizeof(v));

	if (n < 0 && n != -ENOENT && n != -EINVAL && n != -EOPNOTSUPP) {
		k->bad = true;
		return;
	}
	if (n < 0)
		snprintf(v, sizeof(v), "-");
	v[strcspn(v, "\n")] = '\0';
	/* The key is one line per fact: nothing read may add one. */
	for (char *p = v; *p; p++)
		if ((unsigned char)*p < 0x20)
			*p = '?';
	key_add(k, path, v);
}

/* The lines of /proc/self/status that decide what the process may do. */
static void key_status(struct key *k)
{
	static const char *const names[] = {
		"Uid:",	   "Gid:",	  "CapEff:",  "CapPrm:",
		"CapBnd:", "NoNewPrivs:", "Seccomp:", "Seccomp_filters:"
	};
	char st[8192];
	size_t found = 0;

	st[0] = '\0';
	if (lf_proc_read("/proc/self/status", st, sizeof(st)) < 0) {
		k->bad = true;
		return;
	}
	for (char *line = st, *next; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
			if (!strncmp(line, names[i], strlen(names[i]))) {
				key_add(k, line, NULL);
				found++;
			}
	}
	/* Seccomp_filters is recent (5.9); the others are not optional. */
	if (found < 7)
		k->bad = true;
}

/* The mount table's digest: a mount made or removed anywhere changes it.
 * text: the table as the caller has just read it (len bytes), else NULL:
 * read here. Either way the same digest of the same bytes. */
static void key_mounts(struct key *k, const char *text, size_t text_len)
{
	uint64_t h = LF_FNV_BASIS, len = 0;
	char buf[4096], v[64];

	if (text) {
		for (size_t i = 0; i < text_len; i++)
			h = lf_fnv_step(h, (unsigned char)text[i]);
		snprintf(v, sizeof(v), "%016" PRIx64 " %" PRIu64, h, (uint64_t)text_len);
		key_add(k, "mountinfo", v);
		return;
	}
	int fd = open("/proc/self/mountinfo", O_RDONLY | O_CLOEXEC | O_NOCTTY);

	if (fd < 0) {
		k->bad = true;
		return;
	}
	for (;;) {
		ssize_t r = read(fd, buf, sizeof(buf));

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			k->bad = true;
			break;
		}
		if (r == 0)
			break;
		for (ssize_t i = 0; i < r; i++)
			h = lf_fnv_step(h, (unsigned char)buf[i]);
		len += (uint64_t)r;
	}
	close(fd);
	snprintf(v, sizeof(v), "%016" PRIx64 " %" PRIu64, h, len);
	key_add(k, "mountinfo", v);
}

static void key_ns(struct key *k, const char *path)
{
	struct stat st;
	char v[64];

	if (stat(path, &st) != 0) {
		k->bad = true;
		return;
	}
	snprintf(v, sizeof(v), "%" PRIu64 ":%" PRIu64, (uint64_t)st.st_dev, (uint64_t)st.st_ino);
	key_add(k, path, v);
}

static void key_make(struct key *k, bool user, const char *mountinfo, size_t mountinfo_len)
{
	char build[LF_BUILD_ID_HEX], boot[64] = "";

	k->n = 0;
	k->bad = false;
	key_add(k, MEMO_MAGIC, lf_version(NULL, NULL, NULL));
	if (lf_build_id(build) < 0) {
		k->bad = true; /* no build to name: probe at every launch */
		return;
	}
	key_add(k, "build", build);
	if (lf_proc_read("/proc/sys/kernel/random/boot_id", boot, sizeof(boot)) <= 0) {
		k->bad = true;
		return;
	}
	boot[strcspn(boot, "\n")] = '\0';
	key_add(k, "boot", boot);
	key_add(k, "userns", user ? "1" : "0");
	key_status(k);
	key_ns(k, "/proc/self/ns/mnt");
	key_ns(k, "/proc/self/ns/user");
	key_file(k, "/proc/sys/user/max_user_namespaces");
	key_file(k, "/proc/sys/user/max_mnt_namespaces");
	key_file(k, "/proc/sys/kernel/unprivileged_userns_clone");
	key_file(k, "/proc/sys/kernel/apparmor_restrict_unprivileged_userns");
	key_file(k, "/proc/sys/kernel/apparmor_restrict_unprivileged_unconfined");
	key_file(k, "/proc/self/attr/current");
	key_mounts(k, mountinfo, mountinfo_len);
}

/* The file, in a cache directory beyond the program's reach
 * (lf_cache_dir); make: creating that directory when missing. */
static bool memo_path(const char *config_dir, bool make, char *file, size_t size)
{
	char dir[PATH_MAX];

	return lf_cache_dir(config_dir, make, dir, sizeof(dir)) == 0 &&
	       snprintf(file, size, "%s/%s", dir, MEMO_NAME) < (int)size;
}

/* The answer a file holds after the key, to its end: "yes others=0|1". */
static bool answer_parse(const char *s, size_t len, bool *others)
{
	static const char no[] = "yes others=0\n", yes[] = "yes others=1\n";

	if (len == sizeof(no) - 1 && !memcmp(s, no, len))
		*others = false;
	else if (len == sizeof(yes) - 1 && !memcmp(s, yes, len))
		*others = true;
	else
		return false;
	return true;
}

bool lf_ns_memo_recall(const char *config_dir, bool user, const char *mountinfo,
		       size_t mountinfo_len, struct lf_ns_probe *out)
{
	char file[PATH_MAX], text[MEMO_MAX + 64];
	struct key k;
	struct stat st;
	bool others;
	ssize_t n;
	int fd;

	if (!memo_path(config_dir, false, file, sizeof(file)))
		return false;
	/* Only a regular file of ours, that nobody else may write, with no
	 * other name. */
	fd = lf_cache_file_open(file, sizeof(text) - 1, &st);
	if (fd < 0)
		return false;
	n = read(fd, text, sizeof(text) - 1);
	close(fd);
	if (n <= 0)
		return false;
	text[n] = '\0';
	key_make(&k, user, mountinfo, mountinfo_len);
	if (k.bad || (size_t)n <= k.n || memcmp(text, k.buf, k.n) != 0 ||
	    !answer_parse(text + k.n, (size_t)n - k.n, &others) || (!user && !others))
		return false;
	memset(out, 0, sizeof(*out));
	out->available = true;
	out->user = user;
	out->others = others;
	out->remembered = true;
	snprintf(memo_used, sizeof(memo_used), "%s", file);
	return true;
}

void lf_ns_memo_keep(const char *config_dir, const struct lf_ns_probe *p, const char *mountinfo,
		     size_t mountinfo_len)
{
	char file[PATH_MAX], tmp[PATH_MAX + 16];
	struct key k;
	int fd;

	/* A full "yes" only (the file's comment above). */
	if (!p->available || (!p->user && !p->others) || p->remembered)
		return;
	key_make(&k, p->user, mountinfo, mountinfo_len);
	key_add(&k, "yes", p->others ? "others=1" : "others=0");
	if (k.bad || !memo_path(config_dir, true, file, sizeof(file)) ||
	    snprintf(tmp, sizeof(tmp), "%s.XXXXXX", file) >= (int)sizeof(tmp))
		return;
	/* What an earlier write left when it was killed midway. */
	*strrchr(tmp, '/') = '\0';
	lf_cache_sweep(tmp);
	snprintf(tmp, sizeof(tmp), "%s.XXXXXX", file);
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		return;
	bool ok = write(fd, k.buf, k.n) == (ssize_t)k.n;

	if (close(fd) != 0)
		ok = false;
	/* Best effort: an answer not kept is probed again next time. */
	if (!ok || rename(tmp, file) != 0)
		(void)unlink(tmp);
}

const char *lf_ns_memo_used(void)
{
	return memo_used;
}

int lf_ns_memo_forget(void)
{
	int r = 0;

	if (!memo_used[0])
		return 0;
	if (unlink(memo_used) != 0 && errno != ENOENT) /* gone already: fine */
		r = -errno;
	memo_used[0] = '\0';
	return r < 0 ? r : 1;
}
