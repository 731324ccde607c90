/* SPDX-License-Identifier: MIT */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/checks.h"
#include "core/model.h"
#include "landlock/hardlink.h"

void lf_cli_findings_fini(struct lf_cli_findings *f)
{
	if (!f)
		return;
	for (size_t i = 0; i < f->n; i++)
		free(f->lines[i]);
	free(f->lines);
	memset(f, 0, sizeof(*f));
}

static int rules_of(const struct lf_sandbox *sb, struct lf_path_access **out, size_t *n)
{
	size_t k = lf_sandbox_rule_count(sb);
	struct lf_path_access *v = calloc(k ? k : 1, sizeof(*v));

	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < k; i++) {
		const struct lf_final_rule *r = lf_sandbox_rule(sb, i);
		v[i].path = r->path;
		v[i].access = r->access;
	}
	*out = v;
	*n = k;
	return 0;
}

static int add_line(struct lf_cli_findings *f, const char *text)
{
	char **v = realloc(f->lines, (f->n + 1) * sizeof(*v));

	if (!v)
		return -ENOMEM;
	f->lines = v;
	if (!(v[f->n] = strdup(text)))
		return -ENOMEM;
	f->n++;
	return 0;
}

int lf_cli_hardlinks(const struct lf_plan *plan, const struct lf_sandbox *sb,
		     struct lf_cli_findings *out)
{
	size_t nf = lf_plan_fence_count(plan), k = 0, ng = 0;
	struct lf_path_access *fences = NULL, *grants = NULL;
	struct lf_hardlink_report rep = { 0 };
	struct lf_cli_findings f = { 0 };
	char **canon = NULL, line[PATH_MAX * 3];
	int r;

	if ((r = rules_of(sb, &grants, &ng)) < 0)
		return r;
	fences = calloc(nf ? nf : 1, sizeof(*fences));
	canon = calloc(nf ? nf : 1, sizeof(*canon));
	if (!fences || !canon) {
		r = -ENOMEM;
		goto out;
	}
	/* The scan compares canonical paths; a fence that does not exist
	 * has no file to link to. */
	for (size_t i = 0; i < nf; i++) {
		const struct lf_fence *fe = lf_plan_fence(plan, i);
		char *c = realpath(fe->abs_root, NULL);
		if (!c)
			continue;
		canon[k] = c;
		fences[k].path = c;
		fences[k].access = fe->access;
		k++;
	}
	if (k > 0 && ng > 0) {
		r = lf_hardlink_scan(fences, k, grants, ng, NULL, &rep);
		if (r < 0)
			goto out;
		for (size_t i = 0; i < rep.nhits && r == 0; i++) {
			lf_hardlink_hit_format(&rep.hits[i], line, sizeof(line));
			r = add_line(&f, line);
		}
		f.incomplete = rep.incomplete;
		snprintf(f.reason, sizeof(f.reason), "%s", rep.reason);
		lf_hardlink_report_fini(&rep);
		if (r < 0)
			goto out;
	}
	*out = f;
	memset(&f, 0, sizeof(f));
	r = 0;
out:
	lf_cli_findings_fini(&f);
	for (size_t i = 0; canon && i < k; i++)
		free(canon[i]);
	free(canon);
	free(fences);
	free(grants);
	return r;
}

/* Whether the canonical path lies at or below root. */
static bool path_below(const char *root, const char *path)
{
	size_t n = strlen(root);

	if (n == 1 && root[0] == '/')
		return true;
	return !strncmp(root, path, n) && (path[n] == '\0' || path[n] == '/');
}

/* The policy files this run read (user layer, -p layers; the project's
 * own file is among the persistence paths already): one the program may
 * rewrite decides the next run started the same way. */
static int add_policy_files(struct lf_cli_findings *f, const char *project_root,
			    const struct lf_sandbox *sb, const char *const *files, size_t nfiles)
{
	char line[PATH_MAX * 2 + 200], own[PATH_MAX + 16];
	int r = 0;

	snprintf(own, sizeof(own), "%s/.landfence", project_root);
	for (size_t i = 0; r == 0 && i < nfiles; i++) {
		if (!files[i] || files[i][0] == '<')
			continue;
		char *canon = realpath(files[i], NULL);
		if (!canon)
			continue;
		if (path_below(own, canon)) {
			free(canon);
			continue;
		}
		for (size_t j = 0; j < lf_sandbox_rule_count(sb); j++) {
			const struct lf_final_rule *fr = lf_sandbox_rule(sb, j);
			if (!(fr->access & LF_ACCESS_RW) || !path_below(fr->path, canon))
				continue;
			snprintf(line, sizeof(line),
				 "%s stays writable (rule %s): a policy file of this run; the "
				 "program can rewrite the policy of the next run started the same "
				 "way",
				 canon, fr->path);
			r = add_line(f, line);
			break;
		}
		free(canon);
	}
	return r;
}

int lf_cli_persistence(const char *project_root, const struct lf_sandbox *sb,
		       const char *const *files, size_t nfiles, struct lf_cli_findings *out)
{
	struct lf_path_access *rules = NULL;
	struct lf_persist_report rep = { 0 };
	struct lf_cli_findings f = { 0 };
	const char *home = secure_getenv("HOME");
	char line[PATH_MAX * 2 + 256];
	size_t n = 0;
	int r;

	if ((r = rules_of(sb, &rules, &n)) < 0)
		return r;
	r = lf_persistence_check(project_root, home && home[0] == '/' ? home : NULL, rules, n,
				 &rep);
	for (size_t i = 0; r == 0 && i < rep.nhits; i++) {
		lf_persist_hit_format(&rep.hits[i], line, sizeof(line));
		r = add_line(&f, line);
	}
	lf_persist_report_fini(&rep);
	if (r == 0)
		r = add_policy_files(&f, project_root, sb, files, nfiles);
	free(rules);
	if (r < 0) {
		lf_cli_findings_fini(&f);
		return r;
	}
	*out = f;
	return 0;
}

int lf_cli_devnodes(const struct lf_sandbox *sb, struct lf_cli_findings *out)
{
	size_t n = lf_sandbox_rule_count(sb), k = 0;
	struct lf_path_access *roots = calloc(n ? n : 1, sizeof(*roots));
	struct lf_devnode_report rep = { 0 };
	struct lf_cli_findings f = { 0 };
	char line[PATH_MAX * 2 + 256];
	int r;

	if (!roots)
		return -ENOMEM;
	/* The grants someone else could have filled before launch: the
	 * project, profiles, the policy's host section. Not the system
	 * directories or /dev (their nodes are the system's), not the
	 * fresh run directory. */
	for (size_t i = 0; i < n; i++) {
		const struct lf_final_rule *fr = lf_sandbox_rule(sb, i);
		if (fr->origin != LF_ORIGIN_POLICY && fr->origin != LF_ORIGIN_FALLBACK &&
		    fr->origin != LF_ORIGIN_HOST_POLICY && fr->origin != LF_ORIGIN_PROFILE)
			continue;
		roots[k].path = fr->path;
		roots[k].access = fr->access;
		k++;
	}
	r = k ? lf_devnode_scan(roots, k, NULL, &rep) : 0;
	for (size_t i = 0; r == 0 && i < rep.nhits; i++) {
		lf_devnode_hit_format(&rep.hits[i], line, sizeof(line));
		r = add_line(&f, line);
	}
	f.incomplete = rep.incomplete;
	snprintf(f.reason, sizeof(f.reason), "%s", rep.reason);
	if (k)
		lf_devnode_report_fini(&rep);
	free(roots);
	if (r < 0) {
		lf_cli_findings_fini(&f);
		return r;
	}
	*out = f;
	return 0;
}

/* The walk `run` makes for device nodes: the names' d_type tells
 * directories and device nodes apart without a stat per file (the
 * adapter's general walker stats every entry). It visits every directory
 * of the project at every launch, and reading directories is nearly all
 * of its cost (kernel time in getdents), so it is spread over the online
 * CPUs: a queue of open directories, drained by the calling thread and,
 * once the queue holds enough work, by helper threads. Directories are
 * still opened relative to their parent with O_NOFOLLOW, and the same
 * bounds as the adapter's scans apply. Findings are sorted, so the output
 * does not depend on the threads' order. */
#define DN_BUF 32768
#define DN_QUEUE_MAX 256 /* open directories waiting; beyond, scan inline */
#define DN_HELPERS_MAX 3
#define DN_HELPER_START 4 /* queued directories before helpers start */

struct dn_job {
	int fd;
	unsigned depth;
	const char *root;
	char *path;
};

struct dn_walk {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct dn_job jobs[DN_QUEUE_MAX];
	size_t njobs;
	unsigned busy;
	bool stop;
	int err;
	size_t seen;
	struct lf_cli_findings *f;
};

struct linux_dirent64 {
	uint64_t d_ino;
	int64_t d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

static void dn_stop(struct dn_walk *w, int err, const char *reason)
{
	pthread_mutex_lock(&w->mu);
	if (err && !w->err)
		w->err = err;
	if (reason && !w->f->incomplete) {
		snprintf(w->f->reason, sizeof(w->f->reason), "%s", reason);
		w->f->incomplete = true;
	}
	__atomic_store_n(&w->stop, true, __ATOMIC_RELAXED);
	pthread_cond_broadcast(&w->cv);
	pthread_mutex_unlock(&w->mu);
}

static void dn_hit(struct dn_walk *w, int dfd, const char *name, const char *path, const char *root)
{
	struct stat st;
	char line[PATH_MAX * 2 + 256];
	int r;

	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
		return;
	if (!S_ISCHR(st.st_mode) && !S_ISBLK(st.st_mode))
		return;
	struct lf_devnode_hit h = {
		.path = (char *)path,
		.root = root,
		.block = S_ISBLK(st.st_mode),
		.rdev = st.st_rdev,
	};
	lf_devnode_hit_format(&h, line, sizeof(line));
	pthread_mutex_lock(&w->mu);
	r = add_line(w->f, line);
	pthread_mutex_unlock(&w->mu);
	if (r < 0)
		dn_stop(w, r, NULL);
}

/* Queues an open directory for any thread; false when the queue is full
 * (the caller scans it itself). Takes path. */
static bool dn_push(struct dn_walk *w, int fd, char *path, unsigned depth, const char *root)
{
	bool ok = false;

	pthread_mutex_lock(&w->mu);
	if (w->njobs < DN_QUEUE_MAX) {
		w->jobs[w->njobs++] = (struct dn_job){ fd, depth, root, path };
		pthread_cond_signal(&w->cv);
		ok = true;
	}
	pthread_mutex_unlock(&w->mu);
	return ok;
}

static void dn_dir(struct dn_walk *w, int fd, const char *path, unsigned depth, const char *root);

static void dn_subdir(struct dn_walk *w, int dfd, const char *name, const char *path,
		      unsigned depth, const char *root)
{
	char *copy;
	int sub;

	if (depth > LF_HARDLINK_MAX_DEPTH) {
		char reason[64];
		snprintf(reason, sizeof(reason), "deeper than %u levels", LF_HARDLINK_MAX_DEPTH);
		dn_stop(w, 0, reason);
		return;
	}
	sub = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (sub < 0)
		return;
	copy = strdup(path);
	if (!copy) {
		close(sub);
		dn_stop(w, -ENOMEM, NULL);
		return;
	}
	if (dn_push(w, sub, copy, depth, root))
		return;
	free(copy);
	dn_dir(w, sub, path, depth, root);
}

/* Reads one directory (closes fd): device nodes are findings, directories
 * are queued. */
static void dn_dir(struct dn_walk *w, int fd, const char *path, unsigned depth, const char *root)
{
	size_t len = strlen(path);
	char *buf = malloc(DN_BUF), *sub = malloc(PATH_MAX);

	if (!buf || !sub) {
		dn_stop(w, -ENOMEM, NULL);
		goto out;
	}
	if (len == 1 && path[0] == '/')
		len = 0;
	memcpy(sub, path, len);
	for (;;) {
		long got = syscall(SYS_getdents64, fd, buf, DN_BUF);
		if (got <= 0)
			break;
		for (long off = 0; off < got;) {
			const struct linux_dirent64 *de = (const void *)(buf + off);
			const char *n = de->d_name;
			unsigned char t = de->d_type;

			off += de->d_reclen;
			if (n[0] == '.' && (n[1] == '\0' || (n[1] == '.' && n[2] == '\0')))
				continue;
			if (__atomic_add_fetch(&w->seen, 1, __ATOMIC_RELAXED) >
			    LF_HARDLINK_MAX_FILES) {
				char reason[64];
				snprintf(reason, sizeof(reason), "more than %u entries",
					 LF_HARDLINK_MAX_FILES);
				dn_stop(w, 0, reason);
			}
			if (__atomic_load_n(&w->stop, __ATOMIC_RELAXED))
				goto out;
			size_t nl = strlen(n);
			if (len + 1 + nl >= PATH_MAX)
				continue;
			sub[len] = '/';
			memcpy(sub + len + 1, n, nl + 1);
			if (t == DT_UNKNOWN) {
				struct stat st;
				if (fstatat(fd, n, &st, AT_SYMLINK_NOFOLLOW) != 0)
					continue;
				t = S_ISDIR(st.st_mode)	  ? DT_DIR
				    : S_ISCHR(st.st_mode) ? DT_CHR
				    : S_ISBLK(st.st_mode) ? DT_BLK
							  : DT_REG;
			}
			if (t == DT_CHR || t == DT_BLK)
				dn_hit(w, fd, n, sub, root);
			else if (t == DT_DIR)
				dn_subdir(w, fd, n, sub, depth + 1, root);
		}
	}
out:
	free(sub);
	free(buf);
	close(fd);
}

/* Drains the queue until it is empty and no thread is reading (a reading
 * thread may queue more). */
static void *dn_worker(void *arg)
{
	struct dn_walk *w = arg;

	pthread_mutex_lock(&w->mu);
	for (;;) {
		while (!w->stop && w->njobs == 0 && w->busy > 0)
			pthread_cond_wait(&w->cv, &w->mu);
		if (w->stop || w->njobs == 0)
			break;
		struct dn_job j = w->jobs[--w->njobs];
		w->busy++;
		pthread_mutex_unlock(&w->mu);
		dn_dir(w, j.fd, j.path, j.depth, j.root);
		free(j.path);
		pthread_mutex_lock(&w->mu);
		w->busy--;
		if (w->njobs == 0 && w->busy == 0)
			pthread_cond_broadcast(&w->cv);
	}
	pthread_cond_broadcast(&w->cv);
	pthread_mutex_unlock(&w->mu);
	return NULL;
}

/* The calling thread's share: like dn_worker, but it starts the helpers
 * once there is enough queued work to be worth a thread. */
static void dn_run(struct dn_walk *w)
{
	pthread_t helpers[DN_HELPERS_MAX];
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	size_t nhelpers = 0, want = cpus > 1 ? (size_t)cpus - 1 : 0;

	if (want > DN_HELPERS_MAX)
		want = DN_HELPERS_MAX;
	pthread_mutex_lock(&w->mu);
	for (;;) {
		if (nhelpers < want && w->njobs >= DN_HELPER_START) {
			pthread_mutex_unlock(&w->mu);
			while (nhelpers < want &&
			       pthread_create(&helpers[nhelpers], NULL, dn_worker, w) == 0)
				nhelpers++;
			want = nhelpers; /* a failed create: carry on with fewer */
			pthread_mutex_lock(&w->mu);
		}
		while (!w->stop && w->njobs == 0 && w->busy > 0)
			pthread_cond_wait(&w->cv, &w->mu);
		if (w->stop || w->njobs == 0)
			break;
		struct dn_job j = w->jobs[--w->njobs];
		w->busy++;
		pthread_mutex_unlock(&w->mu);
		dn_dir(w, j.fd, j.path, j.depth, j.root);
		free(j.path);
		pthread_mutex_lock(&w->mu);
		w->busy--;
		if (w->njobs == 0 && w->busy == 0)
			pthread_cond_broadcast(&w->cv);
	}
	pthread_cond_broadcast(&w->cv);
	pthread_mutex_unlock(&w->mu);
	for (size_t i = 0; i < nhelpers; i++)
		pthread_join(helpers[i], NULL);
	/* Stopped early: directories still queued are closed unread. */
	for (size_t i = 0; i < w->njobs; i++) {
		close(w->jobs[i].fd);
		free(w->jobs[i].path);
	}
	w->njobs = 0;
}

static int line_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int lf_cli_devnodes_fast(const struct lf_sandbox *sb, struct lf_cli_findings *out)
{
	struct lf_cli_findings f = { 0 };
	struct dn_walk *w = calloc(1, sizeof(*w));
	int r = 0;

	if (!w)
		return -ENOMEM;
	pthread_mutex_init(&w->mu, NULL);
	pthread_cond_init(&w->cv, NULL);
	w->f = &f;
	for (size_t i = 0; !w->stop && i < lf_sandbox_rule_count(sb); i++) {
		const struct lf_final_rule *fr = lf_sandbox_rule(sb, i);
		struct statvfs vfs;
		struct stat st;

		if (fr->origin != LF_ORIGIN_POLICY && fr->origin != LF_ORIGIN_FALLBACK &&
		    fr->origin != LF_ORIGIN_HOST_POLICY && fr->origin != LF_ORIGIN_PROFILE)
			continue;
		/* On a nodev mount a device node cannot be opened. */
		if (statvfs(fr->path, &vfs) == 0 && (vfs.f_flag & ST_NODEV))
			continue;
		if (lstat(fr->path, &st) != 0 || strlen(fr->path) >= PATH_MAX)
			continue;
		if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)) {
			dn_hit(w, AT_FDCWD, fr->path, fr->path, fr->path);
			continue;
		}
		if (!S_ISDIR(st.st_mode))
			continue;
		int fd = open(fr->path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0)
			continue;
		char *copy = strdup(fr->path);
		if (!copy) {
			close(fd);
			dn_stop(w, -ENOMEM, NULL);
			break;
		}
		if (!dn_push(w, fd, copy, 0, fr->path)) {
			free(copy);
			dn_dir(w, fd, fr->path, 0, fr->path);
		}
	}
	dn_run(w);
	r = w->err;
	pthread_cond_destroy(&w->cv);
	pthread_mutex_destroy(&w->mu);
	free(w);
	if (r < 0) {
		lf_cli_findings_fini(&f);
		return r;
	}
	if (f.n > 1)
		qsort(f.lines, f.n, sizeof(f.lines[0]), line_cmp);
	*out = f;
	return 0;
}

/* ------------------------------------------------------------------------
 * What the program changed where code runs later outside the sandbox.
 */

/* Directories whose files run as git hooks: their entries are looked at
 * one by one, not only the directory. */
static bool snap_lists(const char *path)
{
	const char *base = strrchr(path, '/');

	base = base ? base + 1 : path;
	return !strcmp(base, "hooks") || !strcmp(base, ".husky") || !strcmp(base, ".githooks");
}

static int snap_push(struct lf_cli_snap_item **v, size_t *n, size_t *cap, const char *path,
		     const char *why)
{
	struct lf_cli_snap_item *it;

	if (*n == *cap) {
		size_t ncap = *cap ? *cap * 2 : 32;
		struct lf_cli_snap_item *nv = realloc(*v, ncap * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		*v = nv;
		*cap = ncap;
	}
	it = &(*v)[*n];
	memset(it, 0, sizeof(*it));
	if (!(it->path = strdup(path)))
		return -ENOMEM;
	it->why = why;
	it->exists = lstat(path, &it->st) == 0;
	(*n)++;
	return 0;
}

/* lstat of every base, and of the files directly inside the hook
 * directories among them (at most 512 each). */
static int snap_take(const struct lf_cli_snapshot *s, struct lf_cli_snap_item **out, size_t *nout)
{
	struct lf_cli_snap_item *v = NULL;
	size_t n = 0, cap = 0;
	char p[PATH_MAX];
	int r = 0;

	for (size_t i = 0; r == 0 && i < s->nbases; i++) {
		const struct lf_cli_snap_item *b = &s->bases[i];
		int fd;
		DIR *d;
		struct dirent *e;
		size_t seen = 0;

		r = snap_push(&v, &n, &cap, b->path, b->why);
		if (r < 0 || !snap_lists(b->path))
			continue;
		fd = open(b->path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0)
			continue;
		d = fdopendir(fd);
		if (!d) {
			close(fd);
			continue;
		}
		while (r == 0 && seen < 512 && (e = readdir(d))) {
			if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
				continue;
			seen++;
			if (snprintf(p, sizeof(p), "%s/%s", b->path, e->d_name) >= (int)sizeof(p))
				continue;
			r = snap_push(&v, &n, &cap, p, b->why);
		}
		closedir(d);
	}
	if (r < 0) {
		for (size_t i = 0; i < n; i++)
			free(v[i].path);
		free(v);
		return r;
	}
	*out = v;
	*nout = n;
	return 0;
}

static void snap_items_free(struct lf_cli_snap_item *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i].path);
	free(v);
}

void lf_cli_snapshot_fini(struct lf_cli_snapshot *s)
{
	snap_items_free(s->bases, s->nbases);
	snap_items_free(s->items, s->nitems);
	memset(s, 0, sizeof(*s));
}

int lf_cli_snapshot_take(const char *project_root, const struct lf_sandbox *sb,
			 struct lf_cli_snapshot *out)
{
	struct lf_path_access *rules = NULL;
	struct lf_persist_report rep = { 0 };
	struct lf_cli_snapshot s = { 0 };
	const char *home = secure_getenv("HOME");
	size_t n = 0, cap = 0;
	char p[PATH_MAX];
	bool githooks = false;
	int r;

	if ((r = rules_of(sb, &rules, &n)) < 0)
		return r;
	r = lf_persistence_check(project_root, home && home[0] == '/' ? home : NULL, rules, n,
				 &rep);
	free(rules);
	if (r < 0)
		return r;
	/* Only the places the program can write: the others cannot change. */
	for (size_t i = 0; r == 0 && i < rep.nhits; i++) {
		githooks = githooks || snap_lists(rep.hits[i].path);
		r = snap_push(&s.bases, &s.nbases, &cap, rep.hits[i].path, rep.hits[i].why);
	}
	lf_persist_report_fini(&rep);
	/* core.hooksPath often names .githooks; git runs what it holds. */
	if (r == 0 && githooks &&
	    snprintf(p, sizeof(p), "%s/.githooks", project_root) < (int)sizeof(p))
		r = snap_push(&s.bases, &s.nbases, &cap, p,
			      "git runs the hooks core.hooksPath names outside the sandbox");
	if (r == 0)
		r = snap_take(&s, &s.items, &s.nitems);
	if (r < 0) {
		lf_cli_snapshot_fini(&s);
		return r;
	}
	*out = s;
	return 0;
}

static bool snap_same(const struct lf_cli_snap_item *a, const struct lf_cli_snap_item *b)
{
	if (a->exists != b->exists)
		return false;
	if (!a->exists)
		return true;
	return a->st.st_dev == b->st.st_dev && a->st.st_ino == b->st.st_ino &&
	       a->st.st_mode == b->st.st_mode && a->st.st_size == b->st.st_size &&
	       a->st.st_mtim.tv_sec == b->st.st_mtim.tv_sec &&
	       a->st.st_mtim.tv_nsec == b->st.st_mtim.tv_nsec;
}

static const struct lf_cli_snap_item *snap_find(const struct lf_cli_snap_item *v, size_t n,
						const char *path)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i].path, path))
			return &v[i];
	return NULL;
}

int lf_cli_snapshot_compare(const struct lf_cli_snapshot *before, struct lf_cli_findings *out)
{
	struct lf_cli_findings f = { 0 };
	struct lf_cli_snap_item *now = NULL;
	const struct lf_cli_snap_item **changed = NULL;
	size_t nnow = 0, nchanged = 0;
	char line[PATH_MAX + 256];
	int r;

	r = snap_take(before, &now, &nnow);
	if (r < 0)
		return r;
	changed = calloc(nnow + before->nitems + 1, sizeof(*changed));
	if (!changed) {
		snap_items_free(now, nnow);
		return -ENOMEM;
	}
	for (size_t i = 0; i < nnow; i++) {
		const struct lf_cli_snap_item *was =
			snap_find(before->items, before->nitems, now[i].path);

		if (was ? !snap_same(was, &now[i]) : now[i].exists)
			changed[nchanged++] = &now[i];
	}
	for (size_t i = 0; i < before->nitems; i++)
		if (before->items[i].exists && !snap_find(now, nnow, before->items[i].path))
			changed[nchanged++] = &before->items[i];
	for (size_t i = 0; r == 0 && i < nchanged; i++) {
		bool parent = false;

		/* A hook directory changes with each file made in it: name
		 * the file. */
		for (size_t j = 0; j < nchanged && !parent; j++)
			parent = j != i && strcmp(changed[i]->path, changed[j]->path) != 0 &&
				 lf_path_covers(changed[i]->path, changed[j]->path);
		if (parent)
			continue;
		snprintf(line, sizeof(line),
			 "the program changed %s, which runs outside the sandbox later (%s)",
			 changed[i]->path, changed[i]->why);
		r = add_line(&f, line);
	}
	free(changed);
	snap_items_free(now, nnow);
	if (r < 0) {
		lf_cli_findings_fini(&f);
		return r;
	}
	*out = f;
	return 0;
}
