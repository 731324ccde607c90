/* SPDX-License-Identifier: MIT */
/*
 * The file-system module: the one walker (no depth or PATH_MAX cut-off,
 * descriptors reopened through "..", the budget, incompleteness reported,
 * links never followed, post-order leave), the run directory's removal on
 * it, and the canonical form of a path that may not exist. Real trees in
 * a temporary directory.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/capability.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "fs/fs.h"
#include "launch/launch.h"

static char base[64];

static void sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void sh(const char *fmt, ...)
{
	char cmd[16384];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(cmd))
		fail_msg("command too long: %.80s...", cmd);
	if (system(cmd) != 0)
		fail_msg("command failed: %s", cmd);
}

static int setup(void **state)
{
	(void)state;
	snprintf(base, sizeof(base), "/tmp/lf-walk-test.XXXXXX");
	if (!mkdtemp(base))
		return -1;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return lf_rundir_remove(base) == 0 ? 0 : -1;
}

/* A chain of n directories named name below dir (created with mkdirat
 * from descriptors, so the whole path may exceed PATH_MAX), with a file
 * "leaf" at the bottom. */
static void chain(const char *dir, const char *name, int n)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	assert_true(fd >= 0);
	for (int i = 0; i < n; i++) {
		assert_int_equal(mkdirat(fd, name, 0755), 0);
		int sub = openat(fd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		assert_true(sub >= 0);
		close(fd);
		fd = sub;
	}
	int f = openat(fd, "leaf", O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	assert_true(f >= 0);
	close(f);
	close(fd);
}

struct tally {
	size_t dirs, files, links, leaves;
	size_t longest;
	size_t max_depth;
	char last_leave[64];
	int stop_at_file; /* stop at the first file when set */
	const char *skip; /* a directory name not to descend into */
	const char *move_from, *move_to;
	size_t move_depth;
};

static int tally_visit(void *ctx, const struct lf_walk_entry *e)
{
	struct tally *t = ctx;

	assert_int_equal(strlen(e->path), e->path_len);
	if (e->path_len > t->longest)
		t->longest = e->path_len;
	if (e->depth > t->max_depth)
		t->max_depth = e->depth;
	if (e->type == DT_DIR)
		t->dirs++;
	else if (e->type == DT_LNK)
		t->links++;
	else
		t->files++;
	if (t->move_from && e->depth == t->move_depth) {
		assert_int_equal(rename(t->move_from, t->move_to), 0);
		t->move_from = NULL;
	}
	if (t->stop_at_file && e->type == DT_REG)
		return LF_WALK_STOP;
	if (t->skip && e->type == DT_DIR && !strcmp(e->name, t->skip))
		return LF_WALK_SKIP;
	return LF_WALK_NEXT;
}

static int tally_leave(void *ctx, const struct lf_walk_entry *e)
{
	struct tally *t = ctx;

	t->leaves++;
	snprintf(t->last_leave, sizeof(t->last_leave), "%s", e->name);
	return LF_WALK_NEXT;
}

/* A walk with or without a leave visitor: without one, the walker reads
 * a directory's identity only when it gives up its descriptor. */
static void walk_as(const char *root, struct tally *t, struct lf_walk *w, size_t max_entries,
		    bool leave)
{
	memset(w, 0, sizeof(*w));
	w->visit = tally_visit;
	w->leave = leave ? tally_leave : NULL;
	w->ctx = t;
	w->budget.max_entries = max_entries;
	lf_walk_begin(w);
	assert_int_equal(lf_walk_run(w, root), 0);
}

static void walk(const char *root, struct tally *t, struct lf_walk *w, size_t max_entries)
{
	walk_as(root, t, w, max_entries, true);
}

/* 600 levels, 6,600 bytes of path: every level is visited, the deepest
 * path is longer than PATH_MAX, descriptors are given up and reopened
 * through ".." on the way back, and each directory is left after its
 * entries. */
static void test_walk_deep_and_long(void **state)
{
	char root[PATH_MAX];
	struct tally t = { 0 };
	struct lf_walk w;
	(void)state;

	snprintf(root, sizeof(root), "%s/deep", base);
	assert_int_equal(mkdir(root, 0755), 0);
	chain(root, "dddddddddd", 600);
	walk(root, &t, &w, 0);
	assert_false(w.incomplete);
	assert_null(w.reason);
	assert_int_equal(t.dirs, 600);
	assert_int_equal(t.files, 1);
	assert_int_equal(t.leaves, 600);
	assert_int_equal(t.max_depth, 601);
	assert_true(t.longest > PATH_MAX);
	/* Post-order: the outermost directory is left last. */
	assert_string_equal(t.last_leave, "dddddddddd");
	lf_walk_end(&w);
	/* Without a leave visitor the same walk reopens the same way. */
	t = (struct tally){ 0 };
	walk_as(root, &t, &w, 0, false);
	assert_false(w.incomplete);
	assert_int_equal(t.dirs, 600);
	assert_int_equal(t.files, 1);
	assert_int_equal(t.leaves, 0);
	lf_walk_end(&w);
	/* The run directory's removal walks it the same way. */
	assert_int_equal(lf_rundir_remove(root), 0);
	assert_int_equal(access(root, F_OK), -1);
}

/* The budget: past max_entries the walk stops and says why. */
static void test_walk_budget(void **state)
{
	char root[PATH_MAX];
	struct tally t = { 0 };
	struct lf_walk w;
	(void)state;

	snprintf(root, sizeof(root), "%s/wide", base);
	sh("mkdir -p %s && cd %s && for i in $(seq 40); do : > f$i; done", root, root);
	walk(root, &t, &w, 10);
	assert_true(w.incomplete);
	assert_true(w.exhausted);
	assert_non_null(strstr(w.reason, "limit"));
	assert_int_equal(t.files, 10);
	/* A second root of the same scan gets nothing more. */
	assert_int_equal(lf_walk_run(&w, root), 0);
	assert_int_equal(t.files, 10);
	lf_walk_end(&w);
	walk(root, &t, &w, 0);
	assert_false(w.incomplete);
	lf_walk_end(&w);
}

/* Links are entries, never followed; a root that is a link is nothing; a
 * root that is a file is visited itself; SKIP and STOP. */
static void test_walk_links_skip_stop(void **state)
{
	char root[256], link[PATH_MAX], file[PATH_MAX];
	struct tally t = { 0 };
	struct lf_walk w;
	(void)state;

	snprintf(root, sizeof(root), "%s/links", base);
	sh("mkdir -p %s/a/b %s/skip/x %s/outside && : > %s/a/b/f && : > %s/outside/o && "
	   "ln -s %s/outside %s/a/to-outside",
	   root, root, base, root, base, base, root);
	walk(root, &t, &w, 0);
	assert_false(w.incomplete);
	assert_int_equal(t.links, 1);
	assert_int_equal(t.files, 1); /* outside/o is never reached */
	lf_walk_end(&w);

	memset(&t, 0, sizeof(t));
	t.skip = "skip";
	walk(root, &t, &w, 0);
	assert_int_equal(t.dirs, 3); /* a, a/b, skip: not skip/x */
	lf_walk_end(&w);

	memset(&t, 0, sizeof(t));
	t.stop_at_file = 1;
	walk(root, &t, &w, 0);
	assert_true(w.stopped);
	assert_false(w.incomplete); /* stopping on purpose is complete */
	assert_int_equal(t.files, 1);
	lf_walk_end(&w);

	snprintf(link, sizeof(link), "%s/a/to-outside", root);
	memset(&t, 0, sizeof(t));
	walk(link, &t, &w, 0);
	assert_int_equal(t.dirs + t.files + t.links, 0);
	lf_walk_end(&w);

	snprintf(file, sizeof(file), "%s/a/b/f", root);
	memset(&t, 0, sizeof(t));
	walk(file, &t, &w, 0);
	assert_int_equal(t.files, 1);
	assert_int_equal(t.max_depth, 0);
	lf_walk_end(&w);
}

/* Drops the capabilities that let root ignore file modes, in this
 * process (a forked child). */
static void drop_dac(void)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[2];

	assert_int_equal(syscall(SYS_capget, &hdr, data), 0);
	data[0].effective &= ~((1u << CAP_DAC_OVERRIDE) | (1u << CAP_DAC_READ_SEARCH));
	assert_int_equal(syscall(SYS_capset, &hdr, data), 0);
}

/* A directory the walk cannot open makes it incomplete and names it;
 * the rest is still walked. */
static void test_walk_unreadable(void **state)
{
	char root[PATH_MAX];
	(void)state;

	snprintf(root, sizeof(root), "%s/closed", base);
	sh("mkdir -p %s/shut/in %s/open && : > %s/open/f && chmod 000 %s/shut", root, root, root,
	   root);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct tally t = { 0 };
		struct lf_walk w;

		drop_dac();
		walk(root, &t, &w, 0);
		if (!w.incomplete || !w.reason || !strstr(w.reason, "cannot open") ||
		    !strstr(w.reason, "/shut") || t.files != 1)
			_exit(1);
		lf_walk_end(&w);
		_exit(0);
	}
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
	sh("chmod 755 %s/shut", root);
}

/* A directory moved away while the walk is below it, from where the walk
 * must reopen a closed ancestor through "..": the walk notices instead of
 * going on in the wrong place. */
static void test_walk_tree_changed(void **state)
{
	char root[PATH_MAX], from[8192], to[PATH_MAX];
	struct tally t = { 0 };
	struct lf_walk w;
	int depth = LF_WALK_OPEN_MAX + 20;
	(void)state;

	snprintf(root, sizeof(root), "%s/moving", base);
	snprintf(to, sizeof(to), "%s/elsewhere", base);
	assert_int_equal(mkdir(root, 0755), 0);
	assert_int_equal(mkdir(to, 0755), 0);
	chain(root, "d", depth);
	/* The first directory still open when the leaf is visited. */
	int keep = depth + 1 - LF_WALK_OPEN_MAX;
	snprintf(from, sizeof(from), "%s", root);
	for (int i = 0; i < keep; i++)
		strcat(from, "/d");
	strcat(to, "/moved");
	t.move_from = from;
	t.move_to = to;
	t.move_depth = (size_t)depth + 1;
	walk(root, &t, &w, 0);
	assert_true(w.incomplete);
	assert_non_null(strstr(w.reason, "changed"));
	lf_walk_end(&w);
	/* The same move, without a leave visitor: the identity read when the
	 * descriptor was given up is what the reopened one is checked
	 * against. The moved directory comes back first. */
	assert_int_equal(rename(to, from), 0);
	t = (struct tally){ .move_from = from, .move_to = to, .move_depth = (size_t)depth + 1 };
	walk_as(root, &t, &w, 0, false);
	assert_true(w.incomplete);
	assert_non_null(strstr(w.reason, "changed"));
	lf_walk_end(&w);
}

/* Where the kernel would go: a link on the way, ".." after a link, a
 * dangling link followed to its target, links in a loop. */
static void test_canon_lenient(void **state)
{
	char p[PATH_MAX], want[PATH_MAX + 64], canon_base[PATH_MAX];
	char *c = NULL;
	(void)state;

	assert_non_null(realpath(base, canon_base));
	sh("mkdir -p %s/c/real/sub %s/c/other && ln -s real %s/c/link && "
	   "ln -s %s/c/nowhere/file %s/c/dangling && ln -s loop2 %s/c/loop1 && "
	   "ln -s loop1 %s/c/loop2",
	   base, base, base, base, base, base, base);
	snprintf(p, sizeof(p), "%s/c/link/sub/new", base);
	assert_int_equal(lf_path_canon_lenient(p, &c), 0);
	snprintf(want, sizeof(want), "%s/c/real/sub/new", canon_base);
	assert_string_equal(c, want);
	free(c);
	/* ".." leaves the link's target, not the link. */
	snprintf(p, sizeof(p), "%s/c/link/sub/../../other/x", base);
	assert_int_equal(lf_path_canon_lenient(p, &c), 0);
	snprintf(want, sizeof(want), "%s/c/other/x", canon_base);
	assert_string_equal(c, want);
	free(c);
	snprintf(p, sizeof(p), "%s/c/dangling", base);
	assert_int_equal(lf_path_canon_lenient(p, &c), 0);
	snprintf(want, sizeof(want), "%s/c/nowhere/file", canon_base);
	assert_string_equal(c, want);
	free(c);
	snprintf(p, sizeof(p), "%s/c/loop1/x", base);
	assert_int_equal(lf_path_canon_lenient(p, &c), 0);
	snprintf(want, sizeof(want), "%s/c/loop1/x", canon_base);
	assert_string_equal(c, want);
	free(c);
	assert_int_equal(lf_path_canon_lenient("relative", &c), -EINVAL);
}

/* Fails unless got (errno got_err) is what realpath says of p (want,
 * want_err), and st what stat(2) says of it. Frees want and got. */
static void expect_realpath(const char *what, const char *p, char *want, int want_err, char *got,
			    int got_err, const struct stat *st)
{
	if (!want != !got || (want && strcmp(want, got) != 0) || want_err != got_err)
		fail_msg("%s: realpath %s (%d), %s %s (%d)", p, want ? want : "NULL", want_err,
			 what, got ? got : "NULL", got_err);
	if (got) {
		struct stat ws;

		assert_int_equal(stat(got, &ws), 0);
		assert_int_equal(st->st_mode, ws.st_mode);
		assert_int_equal(st->st_ino, ws.st_ino);
	}
	free(want);
	free(got);
}

/* lf_realpath_memo answers as realpath does, path for path and errno for
 * errno, in an order where the memo answers most of them (the parents
 * proved canonical first), links, dot components and files on the way
 * included; and after a directory became a link, asked again with a
 * fresh memo, it follows the link as realpath does. */
static void test_realpath_memo(void **state)
{
	static const char *const rel[] = {
		"m/a/b/c",
		"m/a/b",
		"m/a/link",
		"m/a/link/c",
		"m/a/file",
		"m/a/nope",
		"m/a/file/x",
		"m/a/./b",
		"m/a/../a/b",
		"m/a//b",
		"m/a/b/",
		"m/a/b/c/d",
		"m/a/dang",
		"m/a/b/c/.",
		"m/a/b/../link",
		"m/a/b/c/e",
		"m/a",
		"m/a/ulink",
		"m/a/ulink/c",
		"m/shut/in/d",
		"m/shut/in",
		"m/a/dang/x",
		"m/a/file/x/y",
		"m/u/c/../c",
		/* Names below "/" itself, and links near the top. */
		"/",
		"/proc/self/fd",
		"/proc/self/fd/0",
		"/nonexistent-landfence",
		"/nonexistent-landfence/x",
		"/dev/null",
		"/dev/fd/1",
		"/tmp",
		"/lib/x86_64-linux-gnu",
		"/bin/sh",
		"/proc/self/root/etc",
		"/proc/self/cwd",
		/* Chains of links, a loop, targets absolute and with "..",
		 * deeper than the memo walks. */
		"m/chain1",
		"m/chain1/c",
		"m/loop1",
		"m/loop1/x",
		"m/abs",
		"m/abs/b/c",
		"m/up",
		"m/up/c",
		"m/lf",
		"m/lf/x",
		"m/self/self/a",
		"m/deep",
		"m/deep/d",
	};
	struct lf_realpath_memo memo = { 0 };
	char p[PATH_MAX];

	(void)state;
	/* m/shut: searchable by its owner only (EACCES as another user). */
	sh("mkdir -p %s/m/a/b/c/d %s/m/u %s/m/shut/in/d && touch %s/m/a/file && "
	   "ln -s b %s/m/a/link && ln -s nowhere %s/m/a/dang && ln -s ../u %s/m/a/ulink && "
	   "mkdir %s/m/u/c && chmod 700 %s/m/shut",
	   base, base, base, base, base, base, base, base, base);
	sh("cd %s/m && ln -s chain2 chain1 && ln -s a/link chain2 && ln -s loop2 loop1 && "
	   "ln -s loop1 loop2 && ln -s %s/m/a abs && ln -s ../m/a/link up && ln -s a/file lf && "
	   "ln -s . self && mkdir -p $(printf 'd/%%.0s' $(seq 140)) && "
	   "ln -s $(printf 'd/%%.0s' $(seq 139))d deep",
	   base, base);
	for (int round = 0; round < 2; round++) {
		for (size_t i = 0; i < sizeof(rel) / sizeof(rel[0]); i++) {
			if (rel[i][0] == '/')
				snprintf(p, sizeof(p), "%s", rel[i]);
			else
				snprintf(p, sizeof(p), "%s/%s", base, rel[i]);
			errno = 0;
			char *want = realpath(p, NULL);
			int want_err = want ? 0 : errno;
			errno = 0;
			struct stat st;
			char *got = lf_realpath_memo(&memo, p, &st);

			expect_realpath("memo", p, want, want_err, got, got ? 0 : errno, &st);
		}
		/* A directory the memo knows becomes a link: a fresh memo
		 * (one per launch) follows it. */
		lf_realpath_memo_fini(&memo);
		if (round == 0)
			sh("mv %s/m/a/b %s/m/a/b2 && ln -s ../u %s/m/a/b && mkdir -p %s/m/u/c/d",
			   base, base, base, base);
	}
	assert_int_equal(memo.n, 0);
}

/* Each of n names below dir asked of lf_realpath_memo_type with memo,
 * rounds times (the parent, proved canonical first as a policy's grants'
 * project root is, is listed on the 16th ask), answers as realpath and
 * stat do. Returns the number of answers that differ (printed). */
static int memo_type_differs(struct lf_realpath_memo *memo, const char *dir,
			     const char *const *names, size_t n, int rounds)
{
	char p[PATH_MAX * 2];
	int bad = 0;

	free(lf_realpath_memo(memo, dir, NULL));
	for (int round = 0; round < rounds; round++)
		for (size_t i = 0; i < n; i++) {
			snprintf(p, sizeof(p), "%s/%s", dir, names[i]);
			errno = 0;
			char *want = realpath(p, NULL);
			int want_err = want ? 0 : errno;
			struct stat ws;
			unsigned want_type = want && stat(want, &ws) == 0 ? ws.st_mode & S_IFMT : 0;
			unsigned type = 7;

			errno = 0;
			char *got = lf_realpath_memo_type(memo, p, &type);
			int got_err = got ? 0 : errno;

			if (!want != !got || (want && strcmp(want, got) != 0) ||
			    want_err != got_err || type != want_type) {
				print_message(
					"%.60s...: realpath %.60s (%d, type %o), memo %.60s (%d, "
					"type %o)\n",
					p, want ? want : "NULL", want_err, want_type,
					got ? got : "NULL", got_err, type);
				bad++;
			}
			free(want);
			free(got);
		}
	return bad;
}

/* The type lf_realpath_memo_type gives name below dir, which must have an
 * answer. */
static unsigned memo_type_of(struct lf_realpath_memo *memo, const char *dir, const char *name)
{
	char p[PATH_MAX + 64];
	unsigned type = 0;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	char *got = lf_realpath_memo_type(memo, p, &type);

	assert_non_null(got);
	free(got);
	return type;
}

/* lf_realpath_memo_type answers as realpath and stat do, path for path
 * (the canonical path, errno, the type), before and after the parent is
 * asked about often enough to be listed: directories, files, a FIFO,
 * links to each and a dangling one, a missing name, a name made after the
 * listing. A directory too large for the asks so far is not listed, and
 * still answers alike. The listing is what the parent held when it was
 * taken: a directory replaced by a file since is still a directory to it
 * (which also shows that the listing answered, not a lstat). */
static void test_realpath_memo_type(void **state)
{
	static const char *const names[] = { "d0", "d1",   "d7",   "f0", "f3",	"fifo", "ld",
					     "lf", "dang", "nope", "up", "sub", "d19",	"f19" };
	enum {
		N = sizeof(names) / sizeof(names[0])
	};
	struct lf_realpath_memo memo = { 0 };
	char p[PATH_MAX + 64], dir[PATH_MAX / 2], big[PATH_MAX / 2], bigname[N][16];
	const char *bignames[N];

	(void)state;
	snprintf(dir, sizeof(dir), "%s/mt", base);
	snprintf(big, sizeof(big), "%s/mtbig", base);
	sh("mkdir -p %s/sub %s && cd %s && for i in $(seq 0 19); do mkdir d$i; touch f$i; done && "
	   "mkfifo fifo && ln -s d1 ld && ln -s f1 lf && ln -s nowhere dang && ln -s ../mt/sub up "
	   "&& "
	   "cd %s && for i in $(seq 0 1999); do touch f$i; done",
	   dir, big, dir, big);
	/* The large one holds the files f0 to f1999 only. */
	for (size_t i = 0; i < N; i++) {
		if (names[i][0] == 'f' && names[i][1] != 'i')
			snprintf(bigname[i], sizeof(bigname[i]), "%s", names[i]);
		else
			snprintf(bigname[i], sizeof(bigname[i]), "f%zu", i * 100);
		bignames[i] = bigname[i];
	}
	assert_int_equal(memo_type_differs(&memo, dir, names, N, 4), 0);
	assert_int_equal(memo_type_differs(&memo, big, bignames, N, 4), 0);
	/* Made after the listing: looked at, found. */
	sh("mkdir %s/late", dir);
	snprintf(p, sizeof(p), "%s/late", dir);
	unsigned type = 0;
	char *got = lf_realpath_memo_type(&memo, p, &type);
	assert_non_null(got);
	assert_string_equal(got, p);
	assert_int_equal(type, S_IFDIR);
	free(got);
	/* Replaced since the listing: the listing's answer. */
	sh("rmdir %s/d5 && touch %s/d5", dir, dir);
	assert_int_equal(memo_type_of(&memo, dir, "d5"), S_IFDIR);
	/* The large one was never listed whole: stat's answer. */
	sh("rm %s/f5 && mkdir %s/f5", big, big);
	assert_int_equal(memo_type_of(&memo, big, "f5"), S_IFDIR);
	lf_realpath_memo_fini(&memo);
}

/* A name something is mounted on is looked at, not taken from its
 * parent's listing: a link mounted over a file (open_tree of the link,
 * move_mount over the file) is followed as realpath follows it. Root, in
 * a private mount namespace of a child. */
static void test_realpath_memo_type_mounts(void **state)
{
	static const char *const names[] = { "f0",  "f1",  "f2",  "f3",	  "f4",	 "f5",
					     "f6",  "f7",  "f8",  "f9",	  "f10", "f11",
					     "f12", "f13", "f14", "over", "d0",	 "d1" };
	char dir[PATH_MAX / 2];
	int status;
	pid_t pid;

	(void)state;
	if (geteuid() != 0) {
		print_message("needs root (a mount namespace of its own)\n");
		skip();
	}
	snprintf(dir, sizeof(dir), "%s/mnt-over", base);
	sh("mkdir -p %s/d0 %s/d1 && cd %s && for i in $(seq 0 14); do touch f$i; done && "
	   "touch over && ln -s /etc/hostname link",
	   dir, dir, dir);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		char link[PATH_MAX], over[PATH_MAX];
		int t;

		snprintf(link, sizeof(link), "%s/link", dir);
		snprintf(over, sizeof(over), "%s/over", dir);
		if (unshare(CLONE_NEWNS) != 0 ||
		    mount("none", "/", "none", MS_REC | MS_PRIVATE, NULL) != 0)
			_exit(77);
		t = (int)syscall(SYS_open_tree, AT_FDCWD, link,
				 OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_SYMLINK_NOFOLLOW);
		if (t < 0 ||
		    syscall(SYS_move_mount, t, "", AT_FDCWD, over, MOVE_MOUNT_F_EMPTY_PATH) != 0)
			_exit(78);
		struct lf_realpath_memo memo = { 0 };
		int bad = memo_type_differs(&memo, dir, names, sizeof(names) / sizeof(names[0]), 3);

		_exit(bad ? 1 : 0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	if (WEXITSTATUS(status) == 77 || WEXITSTATUS(status) == 78) {
		print_message("no private mount namespace, or a link cannot be mounted here\n");
		skip();
	}
	assert_int_equal(WEXITSTATUS(status), 0);
}

/* A path of PATH_MAX bytes or more below a listed parent (whose own path
 * is shorter) is "File name too long", as lstat says, not an answer from
 * the listing. */
static void test_realpath_memo_type_long(void **state)
{
	static const char *names[20];
	char dir[PATH_MAX], name[20][80];
	size_t len;
	int fd;

	(void)state;
	len = (size_t)snprintf(dir, sizeof(dir), "%s/long", base);
	assert_int_equal(mkdir(dir, 0755), 0);
	/* Components of 200 bytes, then one that makes the parent
	 * PATH_MAX - 40 bytes long; each made by its own path (shorter
	 * than PATH_MAX). */
	while (len + 1 < PATH_MAX - 40) {
		size_t part = PATH_MAX - 41 - len < 200 ? PATH_MAX - 41 - len : 200;

		len += (size_t)snprintf(dir + len, sizeof(dir) - len, "/%0*d", (int)part, 7);
		assert_int_equal(mkdir(dir, 0755), 0);
	}
	assert_int_equal(len, PATH_MAX - 40);
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(fd >= 0);
	for (int i = 0; i < 20; i++) {
		snprintf(name[i], sizeof(name[i]), "%064d", i);
		names[i] = name[i];
		assert_int_equal(mkdirat(fd, name[i], 0755), 0);
	}
	close(fd);
	struct lf_realpath_memo memo = { 0 };

	assert_int_equal(memo_type_differs(&memo, dir, names, 20, 3), 0);
	lf_realpath_memo_fini(&memo);
}

/* Near PATH_MAX the memo answers as realpath does, errno included: a
 * file on the way whose next path would be PATH_MAX bytes or more is
 * ENAMETOOLONG to realpath before ENOTDIR (asked short, through a link,
 * and long), and a link whose own path is that long is refused too,
 * though its directory's descriptor could read it (red team, round 7). */
static void test_realpath_memo_near_max(void **state)
{
	char d[PATH_MAX], p[PATH_MAX * 2], n[251], x[251];
	struct lf_realpath_memo memo = { 0 };
	struct stat st;
	int dfd;

	(void)state;
	memset(n, 'd', 250);
	memset(x, 'x', 250);
	n[250] = x[250] = '\0';
	/* A real directory of ~4,030 bytes holding a file, a link to the
	 * file from the top, a link below it, and one more level. */
	snprintf(d, sizeof(d), "%s/nm", base);
	for (int i = 0; i < 16; i++)
		snprintf(d + strlen(d), sizeof(d) - strlen(d), "/%s", n);
	sh("mkdir -p %s && cd %s && touch f && ln -s \"$PWD/f\" %s/nm-l && ln -s f/%s l2", d, d,
	   base, x);
	/* Asked short through the link, long, and one level further. */
	for (int i = 0; i < 3; i++) {
		snprintf(p, sizeof(p), "%s/%s/%s%s", i == 1 ? d : base, i == 1 ? "f" : "nm-l", x,
			 i == 2 ? "/y" : "");
		for (int fn = 0; fn < 2; fn++) {
			errno = 0;
			char *want = realpath(p, NULL);
			int want_err = want ? 0 : errno;
			unsigned type = 0;

			errno = 0;
			char *got = fn ? lf_realpath_memo_type(&memo, p, &type)
				       : lf_realpath_memo(&memo, p, &st);
			int got_err = got ? 0 : errno;

			if (fn && got) {
				assert_int_equal(stat(got, &st), 0);
				assert_int_equal(type, st.st_mode & S_IFMT);
			}
			expect_realpath(fn ? "memo type" : "memo", p, want, want_err, got, got_err,
					&st);
		}
	}
	/* The links, through their directories' descriptors. */
	dfd = open(d, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(dfd >= 0);
	assert_int_equal(mkdirat(dfd, n, 0755), 0);
	int sub = openat(dfd, n, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(sub >= 0);
	assert_int_equal(symlinkat("/tmp", sub, "abs"), 0);
	assert_int_equal(symlinkat("/nonexistent", sub, "dang"), 0);
	const struct {
		int fd;
		const char *dir, *name;
	} links[] = { { dfd, "", "l2" }, { sub, n, "abs" }, { sub, n, "dang" } };
	for (size_t i = 0; i < sizeof(links) / sizeof(links[0]); i++) {
		snprintf(p, sizeof(p), "%s/%s%s%s", d, links[i].dir, links[i].dir[0] ? "/" : "",
			 links[i].name);
		errno = 0;
		char *want = realpath(p, NULL);
		int want_err = want ? 0 : errno;

		errno = 0;
		char *got = lf_realpath_link_memo(&memo, links[i].fd, links[i].name, p, &st);
		expect_realpath("link memo", p, want, want_err, got, got ? 0 : errno, &st);
	}
	close(sub);
	close(dfd);
	lf_realpath_memo_fini(&memo);
}

/* lf_realpath_link_memo answers as realpath does for every link of a
 * canonical directory, twice over with one memo (the second time from
 * what the first proved): relative and absolute targets, chains through
 * another directory of links (as /etc/alternatives), "..", a dangling
 * link, a loop, a chain longer than realpath follows, a link to a
 * directory and one whose target is not a link any more; leading "." and
 * ".." (taken from the link's directory: to it, its parent, past "/"),
 * doubled slashes, a name of three dots, a trailing slash after a file,
 * and ".." after a link or a name in the middle (realpath's answer). */
static void test_realpath_link_memo(void **state)
{
	static const char *const links[] = {
		"rel",	 "abs",	  "chain", "dotdot", "dang",  "loop1",	"todir",
		"deep",	 "long0", "dot",   "up",     "upsl",  "toroot", "dbl",
		"dotup", "dots3", "trail", "uplink", "upmid",
	};
	struct lf_realpath_memo memo = { 0 };
	char p[PATH_MAX + 64], dir[PATH_MAX];
	int fd;

	(void)state;
	snprintf(dir, sizeof(dir), "%s/lk/etc", base);
	sh("mkdir -p %s/lk/etc %s/lk/alt %s/lk/usr/share/x/y && touch %s/lk/usr/share/x/y/f "
	   "%s/lk/usr/bin-real && cd %s/lk/etc && ln -s ../usr/share/x/y/f rel && "
	   "ln -s %s/lk/usr/share/x/y/f abs && ln -s ../alt/c chain && "
	   "ln -s ../usr/bin-real ../alt/c && ln -s ../usr/share/x/../x/y/f dotdot && "
	   "ln -s nowhere dang && ln -s loop2 loop1 && ln -s loop1 loop2 && "
	   "ln -s ../usr/share/x todir && ln -s ../alt/d1 deep && ln -s d2 ../alt/d1 && "
	   "ln -s ../usr/share/x/y/f ../alt/d2 && "
	   "i=0; while [ $i -lt 45 ]; do ln -s long$((i+1)) long$i; i=$((i+1)); done; "
	   "touch long45 && mkdir ... && touch .../f && ln -s ./long45 dot && ln -s .. up && "
	   "ln -s ../ upsl && ln -s ../../../../../../../../../../../../.. toroot && "
	   "ln -s ..//usr/share//x/y/f dbl && ln -s ./.././usr/share/x/y/f dotup && "
	   "ln -s .../f dots3 && ln -s ../usr/share/x/y/f/ trail && "
	   "ln -s ../alt/tox/../y/f uplink && ln -s ../usr/share/x/y ../alt/tox && "
	   "ln -s ../usr/../usr/share/x/y/f upmid",
	   base, base, base, base, base, base, base);
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(fd >= 0);
	for (int round = 0; round < 2; round++)
		for (size_t i = 0; i < sizeof(links) / sizeof(links[0]); i++) {
			snprintf(p, sizeof(p), "%s/%s", dir, links[i]);
			errno = 0;
			char *want = realpath(p, NULL);
			int want_err = want ? 0 : errno;
			struct stat st;

			errno = 0;
			char *got = lf_realpath_link_memo(&memo, fd, links[i], p, &st);
			int got_err = got ? 0 : errno;

			if (!got)
				assert_int_equal(st.st_mode, 0);
			expect_realpath("link memo", p, want, want_err, got, got_err, &st);
		}
	/* Not a link any more: the long way, realpath's answer. */
	sh("rm %s/rel && touch %s/rel", dir, dir);
	snprintf(p, sizeof(p), "%s/rel", dir);
	char *got = lf_realpath_link_memo(&memo, fd, "rel", p, NULL);
	assert_non_null(got);
	assert_string_equal(got, p);
	free(got);
	close(fd);
	lf_realpath_memo_fini(&memo);
}

/* lf_dirnames_absent says "no such file" only where a look would: below
 * the listed directory, through a first name it does not hold; never for
 * a name it holds (a dangling link included), for ".", "..", an empty
 * name, a path outside it or the directory itself, another directory
 * than the first one asked for, a directory given with a trailing slash,
 * or one it cannot list. */
static void test_dirnames_absent(void **state)
{
	static const struct {
		const char *rel;
		bool absent;
	} cases[] = {
		{ "dn/missing", true },	   { "dn/missing/x/y", true },
		{ "dn/.missing", true },   { "dn/a", false },
		{ "dn/a/missing", false }, { "dn/f", false },
		{ "dn/f/x", false },	   { "dn/l", false },
		{ "dn/l/x", false },	   { "dn/.hidden", false },
		{ "dn/./missing", false }, { "dn/../missing", false },
		{ "dn//missing", false },  { "dn", false },
		{ "dnx/missing", false },  { "other/missing", false },
	};
	struct lf_dirnames d = { 0 };
	char dir[PATH_MAX], p[PATH_MAX + 64];
	struct stat st;

	(void)state;
	sh("mkdir -p %s/dn/a %s/other && touch %s/dn/f %s/dn/.hidden && ln -s nowhere %s/dn/l",
	   base, base, base, base, base);
	snprintf(dir, sizeof(dir), "%s/dn", base);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(p, sizeof(p), "%s/%s", base, cases[i].rel);
		bool got = lf_dirnames_absent(&d, dir, p);

		if (got != cases[i].absent)
			fail_msg("%s: absent %d, expected %d", p, got, cases[i].absent);
		/* What it says absent, a look finds missing. */
		if (got && (lstat(p, &st) == 0 || errno != ENOENT))
			fail_msg("%s: said absent, lstat says otherwise", p);
	}
	assert_int_equal(d.state, 1);
	/* One directory per value: another one is not answered. */
	snprintf(p, sizeof(p), "%s/other/missing", base);
	snprintf(dir, sizeof(dir), "%s/other", base);
	assert_false(lf_dirnames_absent(&d, dir, p));
	lf_dirnames_fini(&d);
	assert_int_equal(d.n, 0);
	/* A trailing slash, a relative directory: nothing is said. */
	snprintf(dir, sizeof(dir), "%s/dn/", base);
	snprintf(p, sizeof(p), "%s/dn/missing", base);
	assert_false(lf_dirnames_absent(&d, dir, p));
	assert_int_equal(d.state, -1);
	lf_dirnames_fini(&d);
	assert_false(lf_dirnames_absent(&d, "dn", "dn/missing"));
	lf_dirnames_fini(&d);
	/* A directory it cannot list (searchable, not readable), for
	 * whom its mode binds: nothing is said. */
	if (geteuid() != 0) {
		snprintf(dir, sizeof(dir), "%s/dn", base);
		sh("chmod 0311 %s/dn", base);
		assert_false(lf_dirnames_absent(&d, dir, p));
		assert_int_equal(d.state, -1);
		sh("chmod 0755 %s/dn", base);
		lf_dirnames_fini(&d);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_walk_deep_and_long),
		cmocka_unit_test(test_walk_budget),
		cmocka_unit_test(test_walk_links_skip_stop),
		cmocka_unit_test(test_walk_unreadable),
		cmocka_unit_test(test_walk_tree_changed),
		cmocka_unit_test(test_canon_lenient),
		cmocka_unit_test(test_realpath_memo),
		cmocka_unit_test(test_realpath_memo_type),
		cmocka_unit_test(test_realpath_memo_type_mounts),
		cmocka_unit_test(test_realpath_memo_type_long),
		cmocka_unit_test(test_realpath_link_memo),
		cmocka_unit_test(test_realpath_memo_near_max),
		cmocka_unit_test(test_dirnames_absent),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
