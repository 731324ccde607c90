/* SPDX-License-Identifier: MIT */
/*
 * The host facts (src/fs/hostfacts.h): the look at a directory for
 * entries others cannot read, on a real tree and on /etc itself; the
 * password database's homes, resolved through the realpath memo, against
 * getpwent and realpath(3) directly, and asked of getent(1) where other
 * NSS sources than the file hold users.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/sandbox.h"
#include "core/tables.h"
#include "fs/fs.h"
#include "fs/hostfacts.h"
#include "fs/treecache.h"
#include "launch/launch.h"

static char base[64];

static int setup(void **state)
{
	(void)state;
	snprintf(base, sizeof(base), "/tmp/lf-hostfacts-test.XXXXXX");
	return mkdtemp(base) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	return lf_rundir_remove(base) == 0 ? 0 : -1;
}

static void make(const char *rel, mode_t mode, bool dir)
{
	char p[256];

	snprintf(p, sizeof(p), "%s/%s", base, rel);
	if (dir) {
		assert_int_equal(mkdir(p, 0700), 0);
	} else {
		int fd = open(p, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);

		assert_true(fd >= 0);
		assert_int_equal(close(fd), 0);
	}
	assert_int_equal(chmod(p, mode), 0); /* not the umask's */
}

/* A symbolic link at rel below base, to target. */
static void link_make(const char *rel, const char *target)
{
	char p[256];

	snprintf(p, sizeof(p), "%s/%s", base, rel);
	assert_int_equal(symlink(target, p), 0);
}

static const struct lf_typed_path *found(const struct lf_etc_scan *s, const char *rel)
{
	char p[256];

	snprintf(p, sizeof(p), "%s/%s", base, rel);
	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->v[i].path, p) == 0)
			return &s->v[i];
	return NULL;
}

/* What others cannot read is found, with its type; what they can is not;
 * a hidden directory is not entered; links are not judged here. */
static void test_etc_scan_tree(void **state)
{
	struct lf_etc_scan s;
	char p[256], q[256];

	(void)state;
	make("public", 0644, false);
	make("secret", 0600, false);
	make("group-only", 0640, false);
	make("locked", 0700, true);
	make("locked/inside", 0644, false);
	make("listed-only", 0751, true); /* others may enter, not list */
	make("open", 0755, true);
	make("open/key", 0400, false);
	make("open/readme", 0444, false);
	snprintf(p, sizeof(p), "%s/secret", base);
	snprintf(q, sizeof(q), "%s/open/link", base);
	assert_int_equal(symlink(p, q), 0);

	assert_int_equal(lf_etc_scan(base, NULL, &s), 0);
	assert_null(s.err);
	assert_int_equal(s.n, 5);
	assert_int_equal(found(&s, "secret")->type, LF_FT_FILE);
	assert_int_equal(found(&s, "group-only")->type, LF_FT_FILE);
	assert_int_equal(found(&s, "locked")->type, LF_FT_DIR);
	assert_int_equal(found(&s, "listed-only")->type, LF_FT_DIR);
	assert_int_equal(found(&s, "open/key")->type, LF_FT_FILE);
	assert_null(found(&s, "public"));
	assert_null(found(&s, "locked/inside"));
	assert_null(found(&s, "open/readme"));
	assert_null(found(&s, "open/link"));
	lf_etc_scan_fini(&s);
}

/* The entries of a scan, "rel:type" sorted, joined by spaces. */
static void scan_text(const struct lf_etc_scan *s, const char *root, char *out, size_t size)
{
	char *v[64];
	size_t n = 0, len = 0, rl = strlen(root);

	assert_true(s->n < 64);
	for (size_t i = 0; i < s->n; i++) {
		assert_true(asprintf(&v[n], "%s:%d", s->v[i].path + rl, (int)s->v[i].type) > 0);
		n++;
	}
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && strcmp(v[j - 1], v[j]) > 0; j--) {
			char *t = v[j];
			v[j] = v[j - 1];
			v[j - 1] = t;
		}
	out[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		len += (size_t)snprintf(out + len, size - len, "%s%s", i ? " " : "", v[i]);
		assert_true(len < size);
		free(v[i]);
	}
}

/* The scan of root with the cache below conf, then without it: both
 * give want (rel:type, sorted), with no error. */
static void cached_expect(const char *root, const char *conf, const char *want)
{
	struct lf_etc_scan s;
	char got[2048];

	assert_int_equal(lf_etc_scan(root, conf, &s), 0);
	assert_null(s.err);
	scan_text(&s, root, got, sizeof(got));
	lf_etc_scan_fini(&s);
	assert_string_equal(got, want);
	assert_int_equal(lf_etc_scan(root, NULL, &s), 0);
	assert_null(s.err);
	scan_text(&s, root, got, sizeof(got));
	lf_etc_scan_fini(&s);
	assert_string_equal(got, want);
}

/* The cache file whose name starts with prefix ("list-", "links-") in
 * conf's cache directory, or "". */
static void cache_file(const char *conf, const char *prefix, char *out, size_t size)
{
	char dir[256];
	struct dirent *e;
	DIR *d;

	out[0] = '\0';
	snprintf(dir, sizeof(dir), "%s/cache", conf);
	if (!(d = opendir(dir)))
		return;
	while ((e = readdir(d)))
		if (!strncmp(e->d_name, prefix, strlen(prefix)) && !strchr(e->d_name, '.'))
			snprintf(out, size, "%s/%s", dir, e->d_name);
	closedir(d);
}

/* Sixteen empty directories below base's rel: a tree of fewer gets no
 * cache file (src/fs/treecache.c, CACHE_MIN_DIRS). */
static void cacheable(const char *rel)
{
	char p[256];

	snprintf(p, sizeof(p), "%s/fill", rel);
	make(p, 0755, true);
	for (int i = 0; i < 16; i++) {
		snprintf(p, sizeof(p), "%s/fill/%02d", rel, i);
		make(p, 0755, true);
	}
}

/* With the cache of listings, the scan finds what the walk finds at
 * every step: each entry is looked at again, only an unchanged
 * directory's listing comes from the cache. A file or directory made
 * unreadable by others after it was cached (its directory's times do not
 * move) is found; an entry made, or a directory replaced, is; a cache
 * file that does not parse is ignored; a cache directory others may
 * write is not used. */
static void test_etc_scan_cached(void **state)
{
	char root[128], conf[128], p[256], file[PATH_MAX + 512];
	struct stat st;

	(void)state;
	make("t", 0755, true);
	make("t/public", 0644, false);
	make("t/secret", 0600, false);
	make("t/open", 0755, true);
	make("t/open/readme", 0444, false);
	make("t/open/deep", 0755, true);
	make("t/open/deep/note", 0644, false);
	make("t/locked", 0700, true);
	cacheable("t");
	make("conf", 0700, true);
	snprintf(root, sizeof(root), "%s/t", base);
	snprintf(conf, sizeof(conf), "%s/conf", base);
	link_make("t/open/link", "../secret");
	/* A directory changed in the last two seconds is never kept. */
	sleep(3);

	cached_expect(root, conf, "/locked:1 /secret:2");
	cache_file(conf, "list-", file, sizeof(file));
	assert_true(file[0]);
	assert_int_equal(lstat(file, &st), 0);
	assert_true(S_ISREG(st.st_mode) && st.st_uid == geteuid() && !(st.st_mode & 077));
	/* From the cache now: the same. */
	cached_expect(root, conf, "/locked:1 /secret:2");

	/* Modes changed below directories whose listings are cached. */
	snprintf(p, sizeof(p), "%s/t/open/readme", base);
	assert_int_equal(chmod(p, 0440), 0);
	snprintf(p, sizeof(p), "%s/t/open/deep", base);
	assert_int_equal(chmod(p, 0750), 0);
	cached_expect(root, conf, "/locked:1 /open/deep:1 /open/readme:2 /secret:2");
	assert_int_equal(chmod(p, 0755), 0);
	snprintf(p, sizeof(p), "%s/t/open/deep/note", base);
	assert_int_equal(chmod(p, 0600), 0);
	cached_expect(root, conf, "/locked:1 /open/deep/note:2 /open/readme:2 /secret:2");

	/* Entries made, a directory replaced by a file. */
	make("t/open/deep/new", 0600, false);
	make("t/locked2", 0755, true);
	make("t/locked2/key", 0400, false);
	cached_expect(root, conf,
		      "/locked2/key:2 /locked:1 /open/deep/new:2 /open/deep/note:2 "
		      "/open/readme:2 /secret:2");
	snprintf(p, sizeof(p), "%s/t/locked2/key", base);
	assert_int_equal(unlink(p), 0);
	snprintf(p, sizeof(p), "%s/t/locked2", base);
	assert_int_equal(rmdir(p), 0);
	make("t/locked2", 0600, false);
	cached_expect(root, conf,
		      "/locked2:2 /locked:1 /open/deep/new:2 /open/deep/note:2 /open/readme:2 "
		      "/secret:2");

	/* A cache file that does not parse: not used. */
	sleep(3);
	cached_expect(root, conf,
		      "/locked2:2 /locked:1 /open/deep/new:2 /open/deep/note:2 /open/readme:2 "
		      "/secret:2");
	cache_file(conf, "list-", file, sizeof(file));
	assert_true(file[0]);
	int fd = open(file, O_WRONLY | O_TRUNC | O_CLOEXEC);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "landfence-list-cache 1\nxx", 25), 25);
	assert_int_equal(close(fd), 0);
	make("t/open/deep/later", 0600, false);
	cached_expect(root, conf,
		      "/locked2:2 /locked:1 /open/deep/later:2 /open/deep/new:2 /open/deep/note:2 "
		      "/open/readme:2 /secret:2");

	/* A cache directory others may write: neither read nor written. */
	snprintf(p, sizeof(p), "%s/conf/cache", base);
	assert_int_equal(chmod(p, 0777), 0);
	assert_int_equal(unlink(file), 0);
	cached_expect(root, conf,
		      "/locked2:2 /locked:1 /open/deep/later:2 /open/deep/new:2 /open/deep/note:2 "
		      "/open/readme:2 /secret:2");
	cache_file(conf, "list-", file, sizeof(file));
	assert_string_equal(file, "");
	assert_int_equal(chmod(p, 0700), 0);
}

/* What lf_treecache_list visits, "rel:kind[>target]" with kind d, f or
 * l, gathered in visit order. */
struct seen {
	const char *root;
	char text[4096];
	size_t len;
};

static int seen_visit(void *ctx, const char *path, const struct stat *st, const char *target)
{
	struct seen *s = ctx;
	char kind = S_ISDIR(st->st_mode) ? 'd' : S_ISLNK(st->st_mode) ? 'l' : 'f';

	assert_true(!target == !S_ISLNK(st->st_mode));
	s->len += (size_t)snprintf(s->text + s->len, sizeof(s->text) - s->len, "%s%s:%c%s%s",
				   s->len ? " " : "", path + strlen(s->root), kind,
				   target ? ">" : "", target ? target : "");
	assert_true(s->len < sizeof(s->text));
	return LF_WALK_NEXT;
}

/* What lf_treecache_list should visit, read from the tree itself
 * (readdir, lstat, readlink), in directory order, depth first, given to
 * visit as lf_treecache_list gives it. */
static void tree_walk(const char *dir,
		      int (*visit)(void *, const char *, const struct stat *, const char *),
		      void *ctx)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	assert_non_null(d);
	while ((e = readdir(d))) {
		char p[PATH_MAX], t[PATH_MAX] = "";
		struct stat st;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		snprintf(p, sizeof(p), "%s/%s", dir, e->d_name);
		assert_int_equal(lstat(p, &st), 0);
		if (S_ISLNK(st.st_mode))
			assert_true(readlink(p, t, sizeof(t) - 1) > 0);
		assert_int_equal(visit(ctx, p, &st, S_ISLNK(st.st_mode) ? t : NULL), 0);
		if (S_ISDIR(st.st_mode))
			tree_walk(p, visit, ctx);
	}
	closedir(d);
}

/* lf_treecache_list with links: each link visited with its target, from
 * the cache once its directory's listing is kept there, as the tree
 * itself says, before and after a link is replaced by another of the
 * same name (rename over it), and with a cache that does not parse. */
static void list_links_expect(const char *root, const char *conf)
{
	struct seen got = { .root = root }, want = { .root = root };

	assert_int_equal(lf_treecache_list(conf, root, 1000, LF_LIST_LINKS, seen_visit, &got), 1);
	tree_walk(root, seen_visit, &want);
	assert_string_equal(got.text, want.text);
}

static void test_list_links_cached(void **state)
{
	char root[128], conf[128], p[256], q[256], file[PATH_MAX + 512];

	(void)state;
	make("lt", 0755, true);
	make("lt/a", 0644, false);
	make("lt/d", 0755, true);
	cacheable("lt");
	make("lconf", 0700, true);
	snprintf(root, sizeof(root), "%s/lt", base);
	snprintf(conf, sizeof(conf), "%s/lconf", base);
	link_make("lt/l1", "a");
	link_make("lt/l2", "/nonexistent/x");
	link_make("lt/d/l3", "../a");
	sleep(3);
	list_links_expect(root, conf);
	cache_file(conf, "links-", file, sizeof(file));
	assert_true(file[0]);
	list_links_expect(root, conf); /* from the cache */

	/* A link replaced by another of the same name. */
	link_make("lt/d/l3.new", "/elsewhere");
	snprintf(p, sizeof(p), "%s/lt/d/l3.new", base);
	snprintf(q, sizeof(q), "%s/lt/d/l3", base);
	assert_int_equal(rename(p, q), 0);
	list_links_expect(root, conf);
	sleep(3);
	list_links_expect(root, conf);
	list_links_expect(root, conf);

	/* A cache that does not parse: not used. */
	int fd = open(file, O_WRONLY | O_TRUNC | O_CLOEXEC);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "landfence-links-cache 1\nxx", 26), 26);
	assert_int_equal(close(fd), 0);
	list_links_expect(root, conf);
}

/* What lf_treecache_list visits, "rel:mode" in visit order, in a buffer
 * large enough for the many-entry tree below. */
struct modes {
	const char *root;
	char *text;
	size_t len, size;
};

static int modes_visit(void *ctx, const char *path, const struct stat *st, const char *target)
{
	struct modes *m = ctx;

	(void)target;
	m->len += (size_t)snprintf(m->text + m->len, m->size - m->len, "%s%s:%o", m->len ? " " : "",
				   path + strlen(m->root), (unsigned)st->st_mode);
	assert_true(m->len < m->size);
	return LF_WALK_NEXT;
}

static void list_modes_expect(const char *root, const char *conf)
{
	struct modes got = { .root = root, .size = 1u << 16 },
		     want = { .root = root, .size = 1u << 16 };

	got.text = calloc(1, got.size);
	want.text = calloc(1, want.size);
	assert_non_null(got.text);
	assert_non_null(want.text);
	assert_int_equal(lf_treecache_list(conf, root, 10000, 0, modes_visit, &got), 1);
	tree_walk(root, modes_visit, &want);
	assert_string_equal(got.text, want.text);
	free(got.text);
	free(want.text);
}

/* A cached listing of more entries than one search looks at alone
 * (src/fs/treecache.c, PRESTAT_ENTRIES_MIN: 512; two threads look at
 * them before the search): each entry is visited with its own lstat, as
 * the tree says, from a warm cache and after modes changed that move no
 * directory's times. */
static void test_list_cached_many(void **state)
{
	char root[128], conf[128], rel[64], p[256];

	(void)state;
	make("mt", 0755, true);
	make("mconf", 0700, true);
	for (int d = 0; d < 3; d++) {
		snprintf(rel, sizeof(rel), "mt/d%d", d);
		make(rel, 0755, true);
		for (int f = 0; f < 250; f++) {
			snprintf(rel, sizeof(rel), "mt/d%d/f%03d", d, f);
			make(rel, f % 3 ? 0644 : 0640, false);
		}
	}
	snprintf(root, sizeof(root), "%s/mt", base);
	snprintf(conf, sizeof(conf), "%s/mconf", base);
	sleep(3); /* the listings settle, and are kept */
	list_modes_expect(root, conf);
	list_modes_expect(root, conf); /* from the cache */
	for (int d = 0; d < 3; d++) {
		snprintf(p, sizeof(p), "%s/mt/d%d/f%03d", base, d, 17 * (d + 1));
		assert_int_equal(chmod(p, 0600), 0);
	}
	list_modes_expect(root, conf);
}

/* The .git entries below root, sorted, one per line, as the tree itself
 * holds them (readdir; none is inside another here). */
struct dotgits_text {
	char text[4096];
	size_t len;
};

static int dotgits_visit(void *ctx, const char *path, const struct stat *st, const char *target)
{
	struct dotgits_text *t = ctx;
	const char *slash = strrchr(path, '/');

	(void)st;
	(void)target;
	if (slash && !strcmp(slash + 1, ".git")) {
		t->len +=
			(size_t)snprintf(t->text + t->len, sizeof(t->text) - t->len, "%s\n", path);
		assert_true(t->len < sizeof(t->text));
	}
	return LF_WALK_NEXT;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* An answer (1, dg) as sorted text. */
static void dotgits_sorted(struct lf_dotgit *dg, size_t n, struct dotgits_text *t)
{
	char **v = calloc(n + 1, sizeof(*v));

	assert_non_null(v);
	for (size_t i = 0; i < n; i++)
		v[i] = dg[i].path;
	qsort(v, n, sizeof(*v), cmp_str);
	t->len = 0;
	t->text[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		t->len +=
			(size_t)snprintf(t->text + t->len, sizeof(t->text) - t->len, "%s\n", v[i]);
		assert_true(t->len < sizeof(t->text));
	}
	free(v);
	lf_dotgits_free(dg, n);
}

/* What the tree holds below root, sorted. */
static void dotgits_want(const char *root, struct dotgits_text *want)
{
	struct dotgits_text raw = { .len = 0 };
	struct lf_dotgit *dg = NULL;
	size_t n = 0, cap = 0;

	tree_walk(root, dotgits_visit, &raw);
	for (char *line = raw.text, *nl; (nl = strchr(line, '\n')); line = nl + 1) {
		if (n == cap) {
			cap = cap ? 2 * cap : 8;
			dg = realloc(dg, cap * sizeof(*dg));
			assert_non_null(dg);
		}
		dg[n++] = (struct lf_dotgit){ .path = strndup(line, (size_t)(nl - line)) };
		assert_non_null(dg[n - 1].path);
	}
	dotgits_sorted(dg, n, want);
}

static void dotgits_expect(int r, struct lf_dotgit *dg, size_t n, const char *root)
{
	struct dotgits_text got, want;

	assert_int_equal(r, 1);
	dotgits_sorted(dg, n, &got);
	dotgits_want(root, &want);
	assert_string_equal(got.text, want.text);
}

/* The nested-repository search begun ahead (lf_treecache_dotgits_ahead:
 * from a cache of about 1,024 directories on, on a thread set aside)
 * answers as the tree says; its answer is given once, for its own root,
 * and a search asked again, or for another root, is made then; one that
 * is stopped unused leaves the cache whole. */
static void test_dotgits_ahead(void **state)
{
	char root[128], conf[128], sub[160], rel[64];
	struct lf_search_ahead *a;
	struct lf_dotgit *dg;
	cpu_set_t cpus;
	size_t n;
	int r;

	(void)state;
	make("at", 0755, true);
	make("aconf", 0700, true);
	for (int t = 0; t < 11; t++) {
		snprintf(rel, sizeof(rel), "at/t%02d", t);
		make(rel, 0755, true);
		for (int d = 0; d < 100; d++) {
			snprintf(rel, sizeof(rel), "at/t%02d/d%04d", t, t * 100 + d);
			make(rel, 0755, true);
		}
	}
	make("at/t00/d0003/.git", 0755, true);
	make("at/t05/d0550/.git", 0755, true);
	make("at/t10/d1099/.git", 0644, false);
	snprintf(root, sizeof(root), "%s/at", base);
	snprintf(conf, sizeof(conf), "%s/aconf", base);
	snprintf(sub, sizeof(sub), "%s/at/t05", base);
	bool two = sched_getaffinity(0, sizeof(cpus), &cpus) == 0 && CPU_COUNT(&cpus) >= 2;

	/* No cache yet: nothing begun, and a search made when asked. */
	assert_null(lf_treecache_dotgits_ahead(conf, root));
	sleep(3); /* the listings settle, and are kept */
	r = lf_treecache_dotgits_join(NULL, conf, root, &dg, &n);
	dotgits_expect(r, dg, n, root);

	a = lf_treecache_dotgits_ahead(conf, root);
	if (!two) {
		assert_null(a);
		return;
	}
	assert_non_null(a);
	r = lf_treecache_dotgits_join(a, conf, root, &dg, &n);
	dotgits_expect(r, dg, n, root);
	/* Asked again: searched now, and so sees a repository made since. */
	make("at/t07/d0777/.git", 0755, true);
	r = lf_treecache_dotgits_join(a, conf, root, &dg, &n);
	dotgits_expect(r, dg, n, root);
	lf_treecache_ahead_free(a);

	/* For another root: that root's, searched now. */
	a = lf_treecache_dotgits_ahead(conf, root);
	assert_non_null(a);
	r = lf_treecache_dotgits_join(a, conf, sub, &dg, &n);
	dotgits_expect(r, dg, n, sub);
	lf_treecache_ahead_free(a);

	/* Stopped unused, at once or midway: the next search is whole. */
	for (int i = 0; i < 8; i++) {
		a = lf_treecache_dotgits_ahead(conf, root);
		assert_non_null(a);
		if (i)
			usleep((useconds_t)(250 * i));
		lf_treecache_ahead_free(a);
	}
	r = lf_treecache_dotgits(conf, root, &dg, &n);
	dotgits_expect(r, dg, n, root);
	r = lf_treecache_dotgits_join(NULL, conf, root, &dg, &n);
	dotgits_expect(r, dg, n, root);
}

/* A tree of fewer than 16 directories gets no cache file, and the search
 * answers all the same; one of 16 gets one, which a search stopped early
 * leaves; a file kept while the tree was larger is removed once it is
 * smaller again. */
static void test_dotgits_small_uncached(void **state)
{
	char root[128], conf[128], rel[256], file[PATH_MAX + 512];
	struct lf_dotgit *dg;
	size_t n;
	int r;

	(void)state;
	make("st", 0755, true);
	make("sconf", 0700, true);
	for (int d = 0; d < 14; d++) {
		snprintf(rel, sizeof(rel), "st/d%02d", d);
		make(rel, 0755, true);
	}
	make("st/d03/.git", 0755, true);
	snprintf(root, sizeof(root), "%s/st", base);
	snprintf(conf, sizeof(conf), "%s/sconf", base);
	sleep(3); /* the listings settle: only then would they be kept */
	r = lf_treecache_dotgits(conf, root, &dg, &n);
	dotgits_expect(r, dg, n, root);
	cache_file(conf, "tree-", file, sizeof(file));
	assert_string_equal(file, ""); /* 15 directories */
	r = lf_treecache_dotgits(conf, root, &dg, &n);
	dotgits_expect(r, dg, n, root);

	make("st/d14", 0755, true);
	sleep(3);
	r = lf_treecache_dotgits(conf, root, &dg, &n);
	dotgits_expect(r, dg, n, root);
	cache_file(conf, "tree-", file, sizeof(file));
	assert_true(file[0]); /* 16 directories */
	r = lf_treecache_dotgits(conf, root, &dg, &n);
	dotgits_expect(r, dg, n, root);
	/* A search that stops early (the budget) has not seen a small tree:
	 * the file stays. */
	assert_int_equal(setenv("LANDFENCE_SCAN_MAX_ENTRIES", "3", 1), 0);
	r = lf_treecache_dotgits(conf, root, &dg, &n);
	assert_int_equal(unsetenv("LANDFENCE_SCAN_MAX_ENTRIES"), 0);
	assert_int_equal(r, 0);
	cache_file(conf, "tree-", file, sizeof(file));
	assert_true(file[0]);

	snprintf(rel, sizeof(rel), "%s/st/d13", base);
	assert_int_equal(rmdir(rel), 0);
	snprintf(rel, sizeof(rel), "%s/st/d14", base);
	assert_int_equal(rmdir(rel), 0);
	sleep(3);
	r = lf_treecache_dotgits(conf, root, &dg, &n);
	dotgits_expect(r, dg, n, root);
	cache_file(conf, "tree-", file, sizeof(file));
	assert_string_equal(file, ""); /* 14: the kept file is gone */
}

/* /etc: the shadow file is in the list on any system that has one, with
 * every row of the built-in list present; nothing others can read is. */
static void test_etc_scan_etc(void **state)
{
	struct lf_etc_scan s;
	bool shadow = false;

	(void)state;
	assert_int_equal(lf_etc_scan("/etc", NULL, &s), 0);
	for (size_t i = 0; i < s.n; i++) {
		struct stat st;

		shadow |= strcmp(s.v[i].path, "/etc/shadow") == 0;
		assert_int_equal(lstat(s.v[i].path, &st), 0);
		if (S_ISREG(st.st_mode) && (st.st_mode & S_IROTH) && !lf_etc_is_hidden(s.v[i].path))
			fail_msg("%s is readable by others but listed", s.v[i].path);
	}
	assert_true(shadow || access("/etc/shadow", F_OK) != 0);
	lf_etc_scan_fini(&s);
}

/* The built-in list for /etc seen as others see it: exactly its literal
 * rows that exist and that others could read (every directory above them
 * searchable by others); the id-mapped mount refuses the others. */
static void test_etc_builtin_scan(void **state)
{
	struct lf_etc_scan s;

	(void)state;
	assert_int_equal(lf_etc_builtin_scan(&s), 0);
	assert_null(s.err);
	for (size_t i = 0; lf_etc_hidden[i]; i++) {
		const char *h = lf_etc_hidden[i];
		struct stat st;
		bool want = false, listed = false;

		if (strpbrk(h, "*?[\\"))
			continue;
		if (lstat(h, &st) == 0 && !S_ISLNK(st.st_mode)) {
			want = S_ISDIR(st.st_mode) ? (st.st_mode & (S_IROTH | S_IXOTH)) != 0
						   : (st.st_mode & S_IROTH) != 0;
			char up[PATH_MAX];
			snprintf(up, sizeof(up), "%s", h);
			for (char *sl; want && (sl = strrchr(up, '/')) && sl - up > 4;) {
				*sl = '\0';
				want = stat(up, &st) == 0 && (st.st_mode & S_IXOTH);
			}
		}
		for (size_t k = 0; k < s.n; k++)
			listed |= strcmp(s.v[k].path, h) == 0;
		if (want != listed)
			fail_msg("%s: %s", h, want ? "others can read it, not listed" : "listed");
	}
	for (size_t k = 0; k < s.n; k++)
		assert_true(lf_etc_is_hidden(s.v[k].path));
	lf_etc_scan_fini(&s);
}

/* The homes are getpwent's, each resolved as realpath(3) resolves it (or
 * as written when it cannot be), in the database's order. */
static void test_homes_read(void **state)
{
	struct lf_homes h;
	size_t k = 0;

	(void)state;
	assert_int_equal(lf_homes_read(&h), 0);
	setpwent();
	for (struct passwd *pw; (pw = getpwent());) {
		if (!pw->pw_dir || pw->pw_dir[0] != '/' || strcmp(pw->pw_dir, "/") == 0)
			continue;
		char *real = realpath(pw->pw_dir, NULL);

		assert_true(k < h.n);
		assert_string_equal(h.v[k].dir, real ? real : pw->pw_dir);
		assert_string_equal(h.v[k].name, pw->pw_name);
		assert_int_equal(h.v[k].uid, pw->pw_uid);
		free(real);
		k++;
	}
	endpwent();
	assert_int_equal(k, h.n);
	assert_true(h.n > 0); /* root, at least */
	lf_homes_fini(&h);
}

/* In a mount namespace of the child's own: /etc/nsswitch.conf says
 * "passwd: compat" (not the file alone), and getent is a script at
 * base/getent that prints body and exits with code. What lf_homes_read
 * gives: 0 with the user "lfgetent" (uid 4242, home /lf-getent-home,
 * which does not exist) among the homes, or the error. */
static void getent_fake(const char *body, int code)
{
	char p[256];
	FILE *f;

	snprintf(p, sizeof(p), "%s/getent", base);
	f = fopen(p, "we");
	assert_non_null(f);
	fprintf(f, "#!/bin/sh\n[ \"$*\" = passwd ] || exit 9\n%s\nexit %d\n", body, code);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(chmod(p, 0755), 0);
}

static int homes_getent_case(void)
{
	struct lf_homes h;
	int r = lf_homes_read(&h);

	if (r < 0)
		return r;
	for (size_t i = 0; i < h.n; i++)
		if (strcmp(h.v[i].name, "lfgetent") == 0 && h.v[i].uid == 4242 &&
		    strcmp(h.v[i].dir, "/lf-getent-home") == 0)
			r = 1;
	lf_homes_fini(&h);
	return r;
}

/* Where NSS sources other than the file hold users, they are asked
 * through `getent passwd`, in a process of its own (no NSS module loads
 * into ours); a getent that fails, is killed or prints what is not a
 * password entry fails the read (the project-root check then refuses)
 * instead of giving a list that may miss a home. */
static void test_homes_read_getent(void **state)
{
	static const struct {
		const char *body;
		int code, want;
	} cases[] = {
		{ "echo root:x:0:0:root:/root:/bin/sh; "
		  "echo lfgetent:x:4242:4242::/lf-getent-home:/bin/sh",
		  0, 1 },
		{ "echo lfgetent:x:4242:4242::/lf-getent-home:/bin/sh", 3, 1 },
		{ "echo lfgetent:x:4242:4242::/lf-getent-home:/bin/sh", 1, -EIO },
		{ "echo lfgetent:x:4242:4242::/lf-getent-home:/bin/sh; kill -9 $$", 0, -EIO },
		{ "echo 'not a password entry'", 0, -EIO },
		{ "echo lfgetent:x:notanumber:4242::/lf-getent-home:/bin/sh", 0, -EIO },
	};
	char conf[256], fake[256];
	int status;
	pid_t pid;
	FILE *f;

	(void)state;
	snprintf(conf, sizeof(conf), "%s/nsswitch.conf", base);
	snprintf(fake, sizeof(fake), "%s/getent", base);
	f = fopen(conf, "we");
	assert_non_null(f);
	fputs("passwd: compat\ngroup: files\n", f);
	assert_int_equal(fclose(f), 0);
	getent_fake("", 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		if (unshare(geteuid() == 0 ? CLONE_NEWNS : CLONE_NEWUSER | CLONE_NEWNS) != 0 ||
		    mount("none", "/", "none", MS_REC | MS_PRIVATE, NULL) != 0 ||
		    mount(conf, "/etc/nsswitch.conf", "none", MS_BIND, NULL) != 0 ||
		    mount(fake, "/usr/bin/getent", "none", MS_BIND, NULL) != 0)
			_exit(77);
		for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
			getent_fake(cases[i].body, cases[i].code);
			int r = homes_getent_case();

			if (r != cases[i].want) {
				fprintf(stderr, "case %zu: %d, expected %d\n", i, r, cases[i].want);
				_exit(1);
			}
		}
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	if (WEXITSTATUS(status) == 77) {
		print_message("no private mount namespace here\n");
		skip();
	}
	assert_int_equal(WEXITSTATUS(status), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_etc_scan_tree),
		cmocka_unit_test(test_etc_scan_cached),
		cmocka_unit_test(test_list_links_cached),
		cmocka_unit_test(test_list_cached_many),
		cmocka_unit_test(test_dotgits_ahead),
		cmocka_unit_test(test_etc_scan_etc),
		cmocka_unit_test(test_etc_builtin_scan),
		cmocka_unit_test(test_homes_read),
		cmocka_unit_test(test_homes_read_getent),
		cmocka_unit_test(test_dotgits_small_uncached),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
