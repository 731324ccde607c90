/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of src/landlock/hardlink.c on real temporary trees: the
 * hard-link scan (kind 2 of doc/escape.md) and the persistence paths
 * (kind 11).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cmocka.h>

#include "gate/scan.h"

static char base[PATH_MAX / 2];

static const char *P(const char *rel)
{
	static char bufs[8][PATH_MAX];
	static unsigned next;
	char *b = bufs[next++ % 8];

	snprintf(b, PATH_MAX, "%s/%s", base, rel);
	return b;
}

static void mkdirs(const char *rel)
{
	char p[PATH_MAX];

	snprintf(p, sizeof(p), "%s/%s", base, rel);
	for (char *s = p + strlen(base) + 1; *s; s++)
		if (*s == '/') {
			*s = '\0';
			mkdir(p, 0755);
			*s = '/';
		}
	assert_true(mkdir(p, 0755) == 0 || errno == EEXIST);
}

static void put(const char *rel, const char *text)
{
	int fd = open(P(rel), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

static void hard(const char *from, const char *to)
{
	assert_int_equal(link(P(from), P(to)), 0);
}

static int rm_tree(const char *path)
{
	char cmd[PATH_MAX + 32];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", path);
	return system(cmd);
}

static int setup(void **state)
{
	const char *tmp = getenv("TMPDIR");
	char tpl[PATH_MAX];

	snprintf(tpl, sizeof(tpl), "%s/lf-hardlink-XXXXXX", tmp && tmp[0] == '/' ? tmp : "/tmp");
	if (!mkdtemp(tpl))
		return -1;
	char canon[PATH_MAX];
	if (!realpath(tpl, canon) || strlen(canon) >= sizeof(base))
		return -1;
	strcpy(base, canon);
	(void)state;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return rm_tree(base) == 0 ? 0 : -1;
}

/* A tree: proj/secret (fenced), proj/src (granted), outside/ (neither). */
static void tree(void)
{
	mkdirs("proj/secret/deep");
	mkdirs("proj/src/sub");
	mkdirs("proj/other");
	mkdirs("outside");
	put("proj/secret/key", "k");
	put("proj/secret/deep/token", "t");
	put("proj/secret/lonely", "l");
	put("proj/src/main.c", "m");
}

struct scan_case {
	const char *name;
	void (*links)(void);
	unsigned fence_access;
	unsigned grant_access;
	size_t want_hits;
	const char *want_granted; /* the first hit's other name, relative */
	size_t want_candidates;
};

static void links_none(void)
{
}

static void links_into_grant(void)
{
	hard("proj/secret/key", "proj/src/sub/innocent.txt");
}

static void links_deep_into_grant(void)
{
	hard("proj/secret/deep/token", "proj/src/token");
}

static void links_outside(void)
{
	hard("proj/secret/key", "outside/key");
}

static void links_within_fence(void)
{
	hard("proj/secret/key", "proj/secret/deep/key2");
}

static void links_symlink_only(void)
{
	assert_int_equal(symlink(P("proj/secret/key"), P("proj/src/link")), 0);
}

static void links_two(void)
{
	hard("proj/secret/key", "proj/src/a");
	hard("proj/secret/key", "proj/src/sub/b");
}

static const struct scan_case scan_cases[] = {
	{ "no links", links_none, LF_ACCESS_RO, LF_ACCESS_RO, 0, NULL, 0 },
	{ "read-fenced file linked into a read grant", links_into_grant, LF_ACCESS_RO, LF_ACCESS_RO,
	  1, "proj/src/sub/innocent.txt", 1 },
	{ "write-fenced file linked into a write grant", links_into_grant, LF_ACCESS_RW,
	  LF_ACCESS_RW | LF_ACCESS_RO, 1, "proj/src/sub/innocent.txt", 1 },
	{ "deep fenced file", links_deep_into_grant, LF_ACCESS_RO, LF_ACCESS_RO, 1,
	  "proj/src/token", 1 },
	{ "class differs: write fence, read grant", links_into_grant, LF_ACCESS_RW, LF_ACCESS_RO, 0,
	  NULL, 1 },
	{ "other name outside every grant", links_outside, LF_ACCESS_RO, LF_ACCESS_RO, 0, NULL, 1 },
	{ "both names below the fence", links_within_fence, LF_ACCESS_RO, LF_ACCESS_RO, 0, NULL,
	  1 },
	{ "a symlink is not a hard link", links_symlink_only, LF_ACCESS_RO, LF_ACCESS_RO, 0, NULL,
	  0 },
	{ "two names in the grant", links_two, LF_ACCESS_RO, LF_ACCESS_RO, 2, NULL, 1 },
};

static void test_scan_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(scan_cases) / sizeof(scan_cases[0]); i++) {
		const struct scan_case *c = &scan_cases[i];
		struct lf_hardlink_report rep;

		print_message("case: %s\n", c->name);
		assert_int_equal(rm_tree(base), 0);
		assert_int_equal(mkdir(base, 0755), 0);
		tree();
		c->links();
		struct lf_path_access fences[] = { { P("proj/secret"), c->fence_access } };
		struct lf_path_access grants[] = {
			{ P("proj/src"), c->grant_access },
			{ P("proj/other"), c->grant_access },
		};
		assert_int_equal(lf_hardlink_scan(fences, 1, grants, 2, NULL, &rep), 0);
		assert_int_equal(rep.nhits, c->want_hits);
		assert_int_equal(rep.candidates, c->want_candidates);
		assert_false(rep.incomplete);
		if (c->want_granted) {
			assert_string_equal(rep.hits[0].granted_path, P(c->want_granted));
			assert_string_equal(rep.hits[0].fence, P("proj/secret"));
			assert_string_equal(rep.hits[0].root, P("proj/src"));
			assert_true(rep.hits[0].access & c->fence_access);
			char msg[2048];
			lf_hardlink_hit_format(&rep.hits[0], msg, sizeof(msg));
			assert_non_null(strstr(msg, "hard link"));
			assert_non_null(strstr(msg, P(c->want_granted)));
		}
		for (size_t h = 0; h < rep.nhits; h++) {
			struct stat a, b;
			assert_int_equal(stat(rep.hits[h].fenced_path, &a), 0);
			assert_int_equal(stat(rep.hits[h].granted_path, &b), 0);
			assert_true(a.st_ino == b.st_ino && a.st_dev == b.st_dev);
			assert_true(a.st_ino == rep.hits[h].ino);
		}
		lf_hardlink_report_fini(&rep);
	}
}

/* The fence is a single file (the static prefix of a literal pattern), and
 * the grant is a single file too. */
static void test_scan_file_roots(void **state)
{
	struct lf_hardlink_report rep;

	(void)state;
	assert_int_equal(rm_tree(base), 0);
	assert_int_equal(mkdir(base, 0755), 0);
	tree();
	hard("proj/secret/key", "proj/other/copy");
	struct lf_path_access fences[] = { { P("proj/secret/key"), LF_ACCESS_RW } };
	struct lf_path_access grants[] = { { P("proj/other/copy"), LF_ACCESS_RW } };
	assert_int_equal(lf_hardlink_scan(fences, 1, grants, 1, NULL, &rep), 0);
	assert_int_equal(rep.nhits, 1);
	assert_string_equal(rep.hits[0].fenced_path, P("proj/secret/key"));
	assert_string_equal(rep.hits[0].granted_path, P("proj/other/copy"));
	lf_hardlink_report_fini(&rep);
}

/* A grant root that is itself below a fence of another class, and a name
 * below a second fence: not a hit. A missing fence is skipped. */
static void test_scan_name_below_other_fence(void **state)
{
	struct lf_hardlink_report rep;

	(void)state;
	assert_int_equal(rm_tree(base), 0);
	assert_int_equal(mkdir(base, 0755), 0);
	tree();
	mkdirs("proj/src/vault");
	hard("proj/secret/key", "proj/src/vault/key");
	struct lf_path_access fences[] = {
		{ P("proj/secret"), LF_ACCESS_RO },
		{ P("proj/src/vault"), LF_ACCESS_RO },
		{ P("proj/missing"), LF_ACCESS_RO },
	};
	struct lf_path_access grants[] = { { P("proj/src"), LF_ACCESS_RO } };
	assert_int_equal(lf_hardlink_scan(fences, 3, grants, 1, NULL, &rep), 0);
	assert_int_equal(rep.nhits, 0);
	assert_false(rep.incomplete);
	lf_hardlink_report_fini(&rep);
}

/* The bounds: a small file limit stops the walk and says so. */
static void test_scan_limits(void **state)
{
	struct lf_hardlink_report rep;
	char name[64];

	(void)state;
	assert_int_equal(rm_tree(base), 0);
	assert_int_equal(mkdir(base, 0755), 0);
	tree();
	for (int i = 0; i < 50; i++) {
		snprintf(name, sizeof(name), "proj/src/f%02d", i);
		put(name, "x");
	}
	hard("proj/secret/key", "proj/src/zz-link");
	struct lf_path_access fences[] = { { P("proj/secret"), LF_ACCESS_RO } };
	struct lf_path_access grants[] = { { P("proj/src"), LF_ACCESS_RO } };

	struct lf_walk_budget few = { .max_entries = 10 };
	assert_int_equal(lf_hardlink_scan(fences, 1, grants, 1, &few, &rep), 0);
	assert_true(rep.incomplete);
	assert_non_null(strstr(rep.reason, "limit"));
	assert_true(rep.files_seen <= 11);
	lf_hardlink_report_fini(&rep);

	/* No depth cut-off: a fenced file 200 levels down, linked into the
	 * grant, is found (the old walk stopped at 64 levels). */
	char deep[8192] = "proj/secret";
	for (int i = 0; i < 200; i++)
		strcat(deep, "/d");
	mkdirs(deep);
	strcat(deep, "/key");
	put(deep, "k");
	hard(deep, "proj/src/zz-deep");
	assert_int_equal(lf_hardlink_scan(fences, 1, grants, 1, NULL, &rep), 0);
	assert_false(rep.incomplete);
	assert_int_equal(rep.nhits, 2);
	lf_hardlink_report_fini(&rep);
	assert_int_equal(unlink(P("proj/src/zz-deep")), 0);

	/* The defaults see it all. */
	assert_int_equal(lf_hardlink_scan(fences, 1, grants, 1, NULL, &rep), 0);
	assert_false(rep.incomplete);
	assert_int_equal(rep.nhits, 1);
	assert_string_equal(rep.hits[0].granted_path, P("proj/src/zz-link"));
	lf_hardlink_report_fini(&rep);
}

static void test_scan_einval(void **state)
{
	struct lf_hardlink_report rep = { 0 };
	struct lf_path_access rel[] = { { "relative/path", LF_ACCESS_RO } };

	(void)state;
	assert_int_equal(lf_hardlink_scan(rel, 1, NULL, 0, NULL, &rep), -EINVAL);
	assert_int_equal(lf_hardlink_scan(NULL, 1, NULL, 0, NULL, &rep), -EINVAL);
	assert_int_equal(lf_hardlink_scan(NULL, 0, NULL, 0, NULL, NULL), -EINVAL);
	assert_int_equal(lf_hardlink_scan(NULL, 0, NULL, 0, NULL, &rep), 0);
	assert_int_equal(rep.nhits, 0);
	lf_hardlink_report_fini(&rep);
	lf_hardlink_report_fini(NULL);
}

/* Device nodes below grants (root can make them; otherwise skipped). */
static void test_devnode_scan(void **state)
{
	struct lf_devnode_report rep;

	(void)state;
	assert_int_equal(rm_tree(base), 0);
	assert_int_equal(mkdir(base, 0755), 0);
	tree();
	if (mknod(P("proj/src/sub/disk"), S_IFBLK | 0600, makedev(7, 0)) != 0) {
		print_message("cannot mknod (%s): needs CAP_MKNOD\n", strerror(errno));
		skip();
	}
	assert_int_equal(mknod(P("proj/other/null"), S_IFCHR | 0666, makedev(1, 3)), 0);
	assert_int_equal(mkfifo(P("proj/src/fifo"), 0600), 0);
	assert_int_equal(mknod(P("outside/null"), S_IFCHR | 0666, makedev(1, 3)), 0);
	struct lf_path_access roots[] = {
		{ P("proj/src"), LF_ACCESS_RW },
		{ P("proj/other/null"), LF_ACCESS_RO }, /* a node as the root itself */
	};
	assert_int_equal(lf_devnode_scan(roots, 2, NULL, &rep), 0);
	assert_int_equal(rep.nhits, 2);
	assert_false(rep.incomplete);
	assert_string_equal(rep.hits[0].path, P("proj/src/sub/disk"));
	assert_true(rep.hits[0].block);
	assert_int_equal(major(rep.hits[0].rdev), 7);
	assert_string_equal(rep.hits[0].root, P("proj/src"));
	assert_string_equal(rep.hits[1].path, P("proj/other/null"));
	assert_false(rep.hits[1].block);
	char msg[2048];
	lf_devnode_hit_format(&rep.hits[0], msg, sizeof(msg));
	assert_non_null(strstr(msg, "block device node (7:0)"));
	lf_devnode_report_fini(&rep);

	struct lf_walk_budget few = { .max_entries = 2 };
	assert_int_equal(lf_devnode_scan(roots, 1, &few, &rep), 0);
	assert_true(rep.incomplete);
	lf_devnode_report_fini(&rep);

	struct lf_path_access rel[] = { { "proj", LF_ACCESS_RO } };
	assert_int_equal(lf_devnode_scan(rel, 1, NULL, &rep), -EINVAL);
}

/* Persistence paths. */
struct persist_case {
	const char *name;
	const char *rule_rel; /* relative to base */
	unsigned access;
	const char *const want[6]; /* relative paths that must be reported */
	const char *const not_want[4];
};

static const struct persist_case persist_cases[] = {
	{ "project root writable",
	  "proj",
	  LF_ACCESS_RW | LF_ACCESS_RO,
	  { "proj/.git/hooks", "proj/.git/config", "proj/.landfence", "proj/.envrc",
	    "proj/.claude/settings.json", "proj/.vscode" },
	  { "home/.bashrc" } },
	{ "project root readable only", "proj", LF_ACCESS_RO, { NULL }, { "proj/.git/hooks" } },
	{ "only src writable",
	  "proj/src",
	  LF_ACCESS_RW,
	  { NULL },
	  { "proj/.git/hooks", "proj/.landfence" } },
	{ "one hook writable",
	  "proj/.git/hooks/pre-commit",
	  LF_ACCESS_RW,
	  { "proj/.git/hooks" },
	  { "proj/.git/config" } },
	{ ".git writable",
	  "proj/.git",
	  LF_ACCESS_RW,
	  { "proj/.git/hooks", "proj/.git/config" },
	  { "proj/.envrc" } },
	{ ".claude writable",
	  "proj/.claude",
	  LF_ACCESS_RW,
	  { "proj/.claude/settings.json", "proj/.claude/settings.local.json" },
	  { "proj/.git/hooks" } },
	{ "home .claude writable",
	  "home/.claude",
	  LF_ACCESS_RW,
	  { "home/.claude/settings.json" },
	  { "home/.bashrc", "proj/.git/hooks" } },
	{ "home writable",
	  "home",
	  LF_ACCESS_RW,
	  { "home/.bashrc", "home/.config/landfence", "home/.ssh", "home/.gitconfig" },
	  { "proj/.git/hooks" } },
};

static bool report_has(const struct lf_persist_report *r, const char *path)
{
	for (size_t i = 0; i < r->nhits; i++)
		if (!strcmp(r->hits[i].path, path))
			return true;
	return false;
}

static void test_persist_table(void **state)
{
	(void)state;
	assert_int_equal(rm_tree(base), 0);
	assert_int_equal(mkdir(base, 0755), 0);
	mkdirs("proj/.git/hooks");
	mkdirs("proj/src");
	mkdirs("home");
	for (size_t i = 0; i < sizeof(persist_cases) / sizeof(persist_cases[0]); i++) {
		const struct persist_case *c = &persist_cases[i];
		struct lf_persist_report rep;
		char rule[PATH_MAX];

		print_message("case: %s\n", c->name);
		snprintf(rule, sizeof(rule), "%s/%s", base, c->rule_rel);
		struct lf_path_access rules[] = {
			{ P("proj/src"), LF_ACCESS_RO }, /* unrelated */
			{ rule, c->access },
		};
		assert_int_equal(lf_persistence_check(P("proj"), P("home"), rules, 2, &rep), 0);
		for (size_t w = 0; w < 6 && c->want[w]; w++) {
			print_message("  want %s\n", c->want[w]);
			assert_true(report_has(&rep, P(c->want[w])));
		}
		for (size_t w = 0; w < 4 && c->not_want[w]; w++)
			assert_false(report_has(&rep, P(c->not_want[w])));
		for (size_t h = 0; h < rep.nhits; h++) {
			char msg[2048];
			assert_string_equal(rep.hits[h].rule, rule);
			lf_persist_hit_format(&rep.hits[h], msg, sizeof(msg));
			assert_non_null(strstr(msg, "stays writable"));
		}
		lf_persist_report_fini(&rep);
	}
}

/* A worktree: .git is a file naming the real git directory elsewhere. */
static void test_persist_gitdir_file(void **state)
{
	struct lf_persist_report rep;
	char text[PATH_MAX + 16];

	(void)state;
	assert_int_equal(rm_tree(base), 0);
	assert_int_equal(mkdir(base, 0755), 0);
	mkdirs("wt");
	mkdirs("main/.git/worktrees/wt");
	snprintf(text, sizeof(text), "gitdir: %s\n", P("main/.git/worktrees/wt"));
	put("wt/.git", text);
	struct lf_path_access rules[] = { { P("main"), LF_ACCESS_RW } };
	assert_int_equal(lf_persistence_check(P("wt"), NULL, rules, 1, &rep), 0);
	assert_true(report_has(&rep, P("main/.git/worktrees/wt/hooks")));
	assert_true(report_has(&rep, P("main/.git/worktrees/wt/config")));
	lf_persist_report_fini(&rep);

	/* Relative gitdir. */
	put("wt/.git", "gitdir: ../main/.git/worktrees/wt\n");
	assert_int_equal(lf_persistence_check(P("wt"), NULL, rules, 1, &rep), 0);
	assert_true(report_has(&rep, P("main/.git/worktrees/wt/hooks")));
	lf_persist_report_fini(&rep);

	assert_int_equal(lf_persistence_check("rel", NULL, rules, 1, &rep), -EINVAL);
}

/* Policy files of the run below a writable rule. */
static void test_persist_files(void **state)
{
	struct lf_persist_report rep = { 0 };

	(void)state;
	assert_int_equal(rm_tree(base), 0);
	assert_int_equal(mkdir(base, 0755), 0);
	tree();
	put("proj/src/agent.json", "{}");
	put("proj/other/ro.json", "{}");
	assert_int_equal(symlink(P("proj/src/agent.json"), P("outside/link.json")), 0);
	struct lf_path_access rules[] = { { P("proj/src"), LF_ACCESS_RW | LF_ACCESS_RO },
					  { P("proj/other"), LF_ACCESS_RO } };
	const char *files[] = { P("proj/src/agent.json"), P("proj/other/ro.json"),
				P("outside/link.json"), "relative-missing.json", NULL };
	assert_int_equal(lf_persistence_add_files(&rep, NULL, files, 5, rules, 2), 0);
	assert_int_equal(rep.nhits, 1); /* the link resolves to the same file */
	assert_string_equal(rep.hits[0].path, P("proj/src/agent.json"));
	assert_string_equal(rep.hits[0].rule, P("proj/src"));
	assert_non_null(strstr(rep.hits[0].why, "policy file"));
	lf_persist_report_fini(&rep);
	/* Appends to a report that has hits already. */
	struct lf_persist_report r2;
	assert_int_equal(lf_persistence_check(P("proj"), NULL, rules, 2, &r2), 0);
	size_t before = r2.nhits;
	assert_int_equal(lf_persistence_add_files(&r2, NULL, files, 1, rules, 2), 0);
	assert_int_equal(r2.nhits, before + 1);
	lf_persist_report_fini(&r2);
	assert_int_equal(lf_persistence_add_files(NULL, NULL, files, 1, rules, 2), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_scan_table),
		cmocka_unit_test(test_scan_file_roots),
		cmocka_unit_test(test_scan_name_below_other_fence),
		cmocka_unit_test(test_scan_limits),
		cmocka_unit_test(test_scan_einval),
		cmocka_unit_test(test_devnode_scan),
		cmocka_unit_test(test_persist_table),
		cmocka_unit_test(test_persist_gitdir_file),
		cmocka_unit_test(test_persist_files),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
