/* SPDX-License-Identifier: MIT */
/*
 * The masks of a running launch, watched (launch.h, lf_mask_watch_*;
 * doc/launch.md, "A mask that falls"). A mask is a mount on a name: the
 * empty file over .env, the read-only bind of .git/config. When that name
 * is unlinked or renamed over outside the sandbox (an editor's or sed -i's
 * save, git config's rewrite), the kernel detaches every mount on it, in
 * every mount namespace, ours included, and the program then reaches the
 * new file the mask no longer covers. Nothing in the sandbox can cause
 * that (it cannot unlink a mount point of its own namespace: EBUSY), and
 * nothing can prevent it; what the launcher can do is notice at once and
 * stop the program. The namespace's mount table, /proc/PID/mountinfo,
 * signals every change to poll(2) (POLLPRI); the descriptor also keeps
 * the namespace alive until it is closed, so that a check never reads
 * the table of a namespace already gone. A duplicate of it holds the
 * namespace until lf_launch_wait is done: the walks that stop or kill its
 * processes know it by its inode number, which the kernel gives to the
 * next namespace made once this one is freed. The child opens it once its
 * masks are made, before it execs, and hands it over (launch.c): the
 * kernel shows a table from the root its reader had when it opened it,
 * so one opened after the exec could show a program's chroot instead.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/mount.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "launch/launch.h"
#include "launch/mountns.h"

/* Whether op is a mask: a hidden path, or a read-only bind. The other
 * binds (nodev, nosuid over a writable place) hide nothing. */
static bool watched(const struct lf_mount_op *op)
{
	return op->kind != LF_MOUNT_BIND || (op->attrs & MOUNT_ATTR_RDONLY);
}

/* The mount point field of a mountinfo line (the fifth), with the
 * kernel's octal escapes (space, tab, newline, backslash) undone, in
 * place; NULL when the line is not one. */
static char *mount_point(char *line)
{
	char *p = line, *out, *in;

	for (int i = 0; i < 4; i++) {
		p = strchr(p, ' ');
		if (!p)
			return NULL;
		p++;
	}
	char *end = strchr(p, ' ');
	if (!end)
		return NULL;
	*end = '\0';
	for (in = out = p; *in; in++, out++) {
		if (in[0] == '\\' && in[1] >= '0' && in[1] <= '3' && in[2] >= '0' && in[2] <= '7' &&
		    in[3] >= '0' && in[3] <= '7') {
			*out = (char)((in[1] - '0') << 6 | (in[2] - '0') << 3 | (in[3] - '0'));
			in += 3;
		} else {
			*out = *in;
		}
	}
	*out = '\0';
	return p;
}

char *lf_read_whole(int fd)
{
	size_t cap = 16384, len = 0;
	char *buf = malloc(cap);

	if (!buf)
		return NULL;
	if (lseek(fd, 0, SEEK_SET) < 0) {
		free(buf);
		return NULL;
	}
	for (;;) {
		if (cap - len < 4096) {
			char *grown = cap > (64u << 20) ? NULL : realloc(buf, cap *= 2);
			if (!grown) {
				free(buf);
				errno = ENOMEM;
				return NULL;
			}
			buf = grown;
		}
		ssize_t n = read(fd, buf + len, cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			free(buf);
			return NULL;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	buf[len] = '\0';
	return buf;
}

/* One read of the table: the first watched op missing from it, -1 when
 * none is, or a negative errno below -1 (-errno - 1). */
static int table_scan(const struct lf_launch *l)
{
	const struct lf_ns_plan *ns = l->ns;
	char *table = lf_read_whole(l->mnt_fd);
	bool *seen;

	if (!table)
		return -errno - 1;
	seen = calloc(ns->nops ? ns->nops : 1, sizeof(*seen));
	if (!seen) {
		free(table);
		return -ENOMEM - 1;
	}
	for (char *line = table, *next; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		const char *mp = mount_point(line);
		for (size_t i = 0; mp && i < ns->nops; i++)
			if (!seen[i] && !strcmp(ns->ops[i].path, mp))
				seen[i] = true;
	}
	int fell = -1;
	for (size_t i = 0; fell < 0 && i < ns->nops; i++)
		if (watched(&ns->ops[i]) && !seen[i])
			fell = (int)i;
	free(seen);
	free(table);
	return fell;
}

/* What path reaches through the namespace's root root_fd: the mount's
 * id, MOUNT_GONE when nothing is there (the name unlinked, or a parent
 * moved), 0 when it cannot be looked at (another error: the table
 * decides). */
#define MOUNT_GONE UINT64_MAX
static uint64_t mount_at(int root_fd, const char *path)
{
	struct statx sx;

	if (statx(root_fd, path[0] == '/' && path[1] ? path + 1 : ".",
		  AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT, STATX_MNT_ID, &sx) != 0)
		return errno == ENOENT || errno == ENOTDIR ? MOUNT_GONE : 0;
	return (sx.stx_mask & STATX_MNT_ID) ? sx.stx_mnt_id : 0;
}

/* The first watched op whose path no longer reaches the mount it reached
 * when the watch started, -1 when none. One look per mask, through the
 * namespace's root: a path lookup takes no lock that the kernel holds
 * while it takes a fallen mask off, where a read of the table waits for
 * the namespace's lock until the kernel lets go of it. A rename over a
 * masked name takes the mount off before it gives the name to the new
 * file (doc/launch.md, "A mask that falls"): found this way, the fall
 * can be answered before the new file is reachable at all. */
static int quick_scan(const struct lf_launch *l)
{
	for (size_t i = 0; l->mnt_ids && i < l->ns->nops; i++) {
		uint64_t now;

		if (!l->mnt_ids[i] || !watched(&l->ns->ops[i]))
			continue;
		now = mount_at(l->root_fd, l->ns->ops[i].path);
		if (now && now != l->mnt_ids[i])
			return (int)i;
	}
	return -1;
}

/* Each watched op's mount, as its path reaches it now (lf_mask_watch_start,
 * before the table's first check: a mask already gone when its mount is
 * noted is found by that check). */
static void mounts_note(struct lf_launch *l)
{
	if (l->root_fd < 0 ||
	    !(l->mnt_ids = calloc(l->ns->nops ? l->ns->nops : 1, sizeof(*l->mnt_ids))))
		return;
	for (size_t i = 0; i < l->ns->nops; i++)
		if (watched(&l->ns->ops[i])) {
			uint64_t id = mount_at(l->root_fd, l->ns->ops[i].path);
			l->mnt_ids[i] = id == MOUNT_GONE ? 0 : id;
		}
}

size_t lf_mask_watch_looks(const struct lf_launch *l)
{
	size_t n = 0;

	for (size_t i = 0; l->mnt_ids && i < l->ns->nops; i++)
		n += l->mnt_ids[i] != 0;
	return n;
}

/* The program and every process of its namespace killed, op named as
 * the mask that fell (once). */
static void fell_at(struct lf_launch *l, int op)
{
	if (l->fell >= 0)
		return;
	l->fell = op;
	kill(l->pid, SIGKILL);
	/* and at once every other process in the namespace, not only when
	 * the program's end lets the orphans be killed */
	lf_mask_watch_signal(l, SIGKILL);
}

int lf_mask_watch_check(struct lf_launch *l)
{
	int quick = quick_scan(l);

	if (quick >= 0)
		fell_at(l, quick);
	/* The kernel hands the table out a page per read(2), each page
	 * under the namespace's lock but not the whole: a change between
	 * two pages (a mount elsewhere in the namespace going) can skip a
	 * line. A mask that fell stays fallen, so it counts when two reads
	 * in a row miss the same one; a skipped line shows in one read
	 * only. A table that never settles (8 reads) counts as a fall. */
	int fell = table_scan(l);

	for (int tries = 0; fell >= 0 && tries < 8; tries++) {
		int again = table_scan(l);

		if (again == fell || again < -1) {
			fell = again;
			break;
		}
		fell = again; /* -1: there after all; another: read again */
	}
	if (fell < -1)
		return quick >= 0 ? 1 : fell + 1;
	if (fell >= 0)
		fell_at(l, fell);
	return fell >= 0 || quick >= 0;
}

/* Whether stat of path names the namespace of the launch l. */
static bool ns_is(const char *path, const void *l)
{
	const struct lf_launch *launch = l;
	struct stat st;

	return stat(path, &st) == 0 && st.st_ino == launch->ns_ino && st.st_dev == launch->ns_dev;
}

/* The state letter of a /proc stat file (R, S, T, Z...), 0 when it
 * cannot be read. */
static char state_of(const char *path)
{
	char buf[512];

	if (lf_proc_read(path, buf, sizeof(buf)) <= 0)
		return 0;
	const char *paren = strrchr(buf, ')');
	return paren && paren[1] == ' ' ? paren[2] : 0;
}

/* Whether the thread whose stat file is path is running: not stopped,
 * not ending, not gone. */
static bool running(const char *path, const void *unused)
{
	char st = state_of(path);

	(void)unused;
	return st && st != 'T' && st != 't' && st != 'Z' && st != 'X';
}

/* Whether test(path, ctx) holds for a thread of process pid other than
 * its main one, path naming that thread's /proc file leaf: 1, 0, or -1
 * when its threads cannot be listed. A process whose main thread has
 * ended while others run on has no links of its own left: it is looked
 * at thread by thread, or it would hide from the walk. */
static int other_thread(const char *pid, const char *leaf,
			bool (*test)(const char *path, const void *ctx), const void *ctx)
{
	char path[96];
	DIR *d;
	struct dirent *e;
	int found = 0;

	snprintf(path, sizeof(path), "/proc/%.20s/task", pid);
	d = opendir(path);
	if (!d)
		return -1;
	while (!found && (e = readdir(d))) {
		if (e->d_name[0] < '0' || e->d_name[0] > '9' || !strcmp(e->d_name, pid))
			continue;
		snprintf(path, sizeof(path), "/proc/%.20s/task/%.20s/%s", pid, e->d_name, leaf);
		found = test(path, ctx);
	}
	closedir(d);
	return found;
}

/* Whether process pid (a /proc entry) has a thread in the program's
 * namespace. */
static bool in_ns(const struct lf_launch *l, const char *pid)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%.20s/ns/mnt", pid);
	return ns_is(path, l) || other_thread(pid, "ns/mnt", ns_is, l) == 1;
}

/* Whether process pid is stopped: its main thread, or, when that thread
 * has ended while others run on, every thread still there. */
static bool stopped(const char *pid)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%.20s/stat", pid);
	char st = state_of(path);
	if (st == 'T' || st == 't')
		return true;
	return st == 'Z' && other_thread(pid, "stat", running, NULL) == 0;
}

/* One walk of /proc: sig to every process of the namespace. Returns how
 * many still needed it (for SIGSTOP, the ones not stopped yet), or a
 * negative errno. */
static int signal_pass(const struct lf_launch *l, int sig)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	int n = 0;

	if (!d)
		return -errno;
	while ((e = readdir(d))) {
		char *end;
		long pid = strtol(e->d_name, &end, 10);

		if (*end || pid <= 0 || pid == (long)getpid() || !in_ns(l, e->d_name))
			continue;
		if (sig == SIGSTOP && stopped(e->d_name))
			continue;
		if (kill((pid_t)pid, sig) == 0)
			n++;
	}
	closedir(d);
	return n;
}

int lf_mask_watch_signal(const struct lf_launch *l, int sig)
{
	int total = 0;

	/* Held by the table while the watch runs, by its duplicate after
	 * (or the table alone, when the duplicate could not be made). */
	if (!l->ns_ino || (l->ns_fd < 0 && l->mnt_fd < 0))
		return 0;
	/* A process may fork while a walk passes it, its child landing
	 * behind the walk: SIGKILL and SIGSTOP walk again until a walk
	 * finds no process of the namespace left alive (a killed process's
	 * links are gone once it has exited), or none left running. */
	for (int pass = 0; pass < 64; pass++) {
		int n = signal_pass(l, sig);

		if (n < 0)
			return total ? total : n;
		total += n;
		if (n == 0 || (sig != SIGKILL && sig != SIGSTOP))
			break;
		if (sig == SIGSTOP)
			sched_yield(); /* let the stops land */
	}
	return total;
}

bool lf_mask_watch_needed(const struct lf_ns_plan *ns)
{
	for (size_t i = 0; ns && i < ns->nops; i++)
		if (watched(&ns->ops[i]))
			return true;
	return false;
}

void lf_mask_watch_fail(struct lf_launch *l, int err)
{
	if (!l->watch_err)
		l->watch_err = err;
	kill(l->pid, SIGKILL);
	lf_mask_watch_signal(l, SIGKILL);
	lf_mask_watch_stop(l);
}

void lf_mask_watch_start(struct lf_launch *l, const struct lf_ns_plan *ns, int table_fd,
			 int root_fd)
{
	l->mnt_fd = table_fd;
	l->root_fd = root_fd;
	l->mnt_ids = NULL;
	l->ns = NULL;
	l->fell = -1;
	l->watch_err = 0;
	if (!lf_mask_watch_needed(ns)) {
		lf_mask_watch_stop(l);
		return;
	}
	/* The child opened the table once its masks were made, or failed
	 * before its exec; a table missing here is a broken hand-over. */
	if (table_fd < 0) {
		lf_mask_watch_fail(l, EPROTO);
		return;
	}
	l->ns = ns;
	/* The table holds the namespace (the kernel keeps it for the
	 * reader), and a duplicate keeps it held once the watch stops, until
	 * lf_launch_wait is done signalling its processes. */
	l->ns_fd = fcntl(table_fd, F_DUPFD_CLOEXEC, 0);
	if (l->ns_fd < 0) {
		lf_mask_watch_fail(l, errno);
		return;
	}
	mounts_note(l);
	/* What fell between the child's open and this check. */
	int r = lf_mask_watch_check(l);
	if (r < 0)
		lf_mask_watch_fail(l, -r);
}

void lf_mask_watch_stop(struct lf_launch *l)
{
	if (l->mnt_fd >= 0)
		close(l->mnt_fd);
	l->mnt_fd = -1;
	if (l->root_fd >= 0)
		close(l->root_fd);
	l->root_fd = -1;
	free(l->mnt_ids);
	l->mnt_ids = NULL;
}

void lf_mask_watch_end(struct lf_launch *l)
{
	lf_mask_watch_stop(l);
	if (l->ns_fd >= 0)
		close(l->ns_fd);
	l->ns_fd = -1;
}
