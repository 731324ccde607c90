/* SPDX-License-Identifier: MIT */
/*
 * The escape suite's cases, by kind (doc/escape.md has the same numbers).
 *
 * Every case starts from the tree of harness.c:
 *   @P = proj/   .git/{hooks/pre-commit,config,HEAD}  src/{a.txt="A",
 *                sub/b.txt="B"}  docs/ro.txt="RO"  secret/key="KEY"
 *   @O = out/    secret="OUT"  dir/inner="IN"   (outside the project)
 *   @H = home/   .ssh/id_rsa    @C = the user's XDG_CONFIG_HOME
 *   @R = a symlink to @P; @X = the outside helper's pid; @N = a unique
 *   name; @L = landfence; @E = the probe; @D = the build directory.
 * Policies use ' for ". Probe operations: see probe.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cmocka.h>

#include "harness.h"

/* The standard policy: src is read-write, docs and .git read-only, the
 * secret fenced for both classes; the fallback denies. */
#define STD_RULES                                                                        \
	"{'effect':'allow','capability':'read','paths':['src/**','docs/**','.git/**']}," \
	"{'effect':'allow','capability':'write','paths':['src/**']},"                    \
	"{'effect':'allow','capability':'delete','paths':['src/**']},"                   \
	"{'effect':'deny','capability':'read','paths':['secret/**']},"                   \
	"{'effect':'deny','capability':'write','paths':['.git/**','secret/**','docs/**']}"
#define STD "{'version':1,'fallback':'deny','rules':[" STD_RULES "]}"

/* Precise denies: the project readable and writable, a secret directory
 * and a deep one hidden, the hooks and config read-only. */
#define MASK_RULES                                                                       \
	"{'effect':'allow','capability':'read','paths':['**']},"                         \
	"{'effect':'allow','capability':'write','paths':['**']},"                        \
	"{'effect':'allow','capability':'delete','paths':['**']},"                       \
	"{'effect':'deny','capability':'read','paths':['secret/**','src/sub/deep/**']}," \
	"{'effect':'deny','capability':'write','paths':['.git/hooks/**','.git/config']}"
#define MASKP "{'version':1,'fallback':'deny','rules':[" MASK_RULES "]}"
#define STD_ASK "{'version':1,'fallback':'ask','rules':[" STD_RULES "]}"

/* ------------------------------------------------------------------------
 * Setup and check callbacks
 */

static void sym_out(struct esc *e)
{
	assert_int_equal(symlink(esc_path(e, "out/secret"), esc_path(e, "proj/src/l-out")), 0);
	assert_int_equal(symlink(esc_path(e, "home/.ssh/id_rsa"), esc_path(e, "proj/src/l-key")),
			 0);
}

static void sym_fenced_dir(struct esc *e)
{
	assert_int_equal(symlink("../secret", esc_path(e, "proj/src/l-sec")), 0);
	assert_int_equal(symlink(esc_path(e, "proj/.git/hooks"), esc_path(e, "proj/src/l-hooks")),
			 0);
}

static void hard_secret(struct esc *e)
{
	assert_int_equal(link(esc_path(e, "proj/secret/key"), esc_path(e, "proj/src/innocent")), 0);
}

static void hard_hook(struct esc *e)
{
	assert_int_equal(
		link(esc_path(e, "proj/.git/hooks/pre-commit"), esc_path(e, "proj/src/pc")), 0);
}

/* A read deny whose glob is expanded (its static prefix is the project
 * root) beside second names of a fenced secret and of a matched file. */
static void hard_glob(struct esc *e)
{
	hard_secret(e);
	esc_put(e, "proj/src/k.pem", "PEM");
	assert_int_equal(link(esc_path(e, "proj/src/k.pem"), esc_path(e, "proj/src/pem.txt")), 0);
}

static void untouched(struct esc *e, const struct esc_result *r)
{
	(void)r;
	assert_true(esc_file_is(e, "proj/secret/key", "KEY"));
	assert_true(esc_file_is(e, "out/secret", "OUT"));
	assert_true(esc_file_is(e, "proj/docs/ro.txt", "RO"));
	assert_true(esc_file_is(e, "proj/.git/hooks/pre-commit", "#!/bin/sh\nexit 0\n"));
	assert_true(esc_file_is(e, "proj/.git/config", "[core]\n"));
	assert_true(esc_file_is(e, "home/.ssh/id_rsa", "PRIVATE"));
}

static void untouched_no_evil(struct esc *e, const struct esc_result *r)
{
	untouched(e, r);
	assert_false(esc_exists(e, "proj/.git/hooks/post-checkout"));
	assert_false(esc_exists(e, "proj/src/hooks"));
	assert_true(esc_exists(e, "proj/.git/hooks"));
	assert_true(esc_exists(e, "proj/secret/key"));
}

static void truncated_ro(struct esc *e, const struct esc_result *r)
{
	(void)r;
	/* The documented hole below ABI 3: truncate(2) worked. */
	assert_true(esc_file_is(e, "proj/docs/ro.txt", ""));
	assert_true(esc_file_is(e, "proj/secret/key", "KEY"));
}

static void nothing_ran(struct esc *e, const struct esc_result *r)
{
	(void)r;
	assert_false(esc_exists(e, "proj/src/ran"));
	untouched(e, r);
}

static void helper_alive(struct esc *e, const struct esc_result *r)
{
	(void)r;
	assert_true(e->helper > 0);
	assert_int_equal(kill(e->helper, 0), 0);
}

static void next_run_refused(struct esc *e, const struct esc_result *r)
{
	static const char *const run[] = { "run", "-C",	    "@P",	  "--",
					   "@E",  "create", "@P/src/ran", NULL };
	struct esc_result again;

	(void)r;
	esc_landfence(e, run, &again);
	if (again.exit != 2 || !strstr(again.err, "changed since you trusted it"))
		fail_msg("the widened policy was used: exit %d\n%s%s", again.exit, again.out,
			 again.err);
	assert_false(esc_exists(e, "proj/src/ran"));
}

/* Runs the project again as the user would; it must refuse, saying why. */
static void next_run_refused_with(struct esc *e, const char *why)
{
	static const char *const run[] = { "run", "-C",	    "@P",	  "--",
					   "@E",  "create", "@P/src/ran", NULL };
	struct esc_result again;

	esc_landfence(e, run, &again);
	if (again.exit != 2 || !strstr(again.err, why))
		fail_msg("the next run was not refused (want \"%s\"): exit %d\n%s%s", why,
			 again.exit, again.out, again.err);
	assert_false(esc_exists(e, "proj/src/ran"));
}

/* A second project whose wide policy the user trusted. */
static void other_trusted(struct esc *e)
{
	static const char *const trust[] = { "trust", "-C", "@B/other", NULL };
	struct esc_result r;

	esc_mkdir(e, "other/.landfence");
	esc_put(e, "other/.landfence/policy.json",
		"{\"version\":1,\"fallback\":\"allow\",\"rules\":[],"
		"\"host\":{\"write\":[\"/\"]}}");
	esc_landfence(e, trust, &r);
	if (r.exit != 0)
		fail_msg("trust of the other project failed: %s", r.err);
}

static void refused_symlink(struct esc *e, const struct esc_result *r)
{
	(void)r;
	next_run_refused_with(e, "not a symbolic link");
}

static void refused_gone(struct esc *e, const struct esc_result *r)
{
	(void)r;
	next_run_refused_with(e, "is gone");
}

/* ~/.gitconfig is a read-only host grant: readable, never writable (a
 * global alias or hook path would run in every repository). */
static void gitconfig_home(struct esc *e)
{
	esc_put(e, "home/.gitconfig", "[user]");
}

static void claude_home(struct esc *e)
{
	esc_mkdir(e, "home/.claude");
	esc_put(e, "home/.claude/settings.json", "{}");
}

/* ------------------------------------------------------------------------
 * Masks (kind 13)
 */

/* A deep fence: a mask two directories below the project root. */
static void deep_secret(struct esc *e)
{
	esc_mkdir(e, "proj/src/sub/deep");
	esc_put(e, "proj/src/sub/deep/k", "DEEP");
}

static void untouched_masks(struct esc *e, const struct esc_result *r)
{
	untouched(e, r);
	assert_true(esc_file_is(e, "proj/src/sub/deep/k", "DEEP"));
	assert_true(esc_exists(e, "proj/src/sub/deep"));
	assert_false(esc_exists(e, "proj/g2"));
	assert_false(esc_exists(e, "proj/src2"));
}

static void cwd_in_secret(struct esc *e)
{
	deep_secret(e);
	snprintf(e->cwd, sizeof(e->cwd), "%s", esc_path(e, "proj/secret"));
}

static void cwd_in_hooks(struct esc *e)
{
	deep_secret(e);
	snprintf(e->cwd, sizeof(e->cwd), "%s", esc_path(e, "proj/.git/hooks"));
}

static void mount_tmpfs(const char *path, const char *file)
{
	char p[PATH_MAX];

	if (mount("lf-esc", path, "tmpfs", 0, "size=64k") != 0)
		fail_msg("mount tmpfs on %s: %s", path, strerror(errno));
	snprintf(p, sizeof(p), "%s/%s", path, file);
	FILE *f = fopen(p, "we");
	assert_non_null(f);
	fputs("SUB", f);
	fclose(f);
}

/* Submounts below masked places, and one below a plain grant. */
static void submounts(struct esc *e)
{
	deep_secret(e);
	esc_mkdir(e, "proj/.git/hooks/sub");
	esc_mkdir(e, "proj/secret/m");
	esc_mkdir(e, "proj/src/mnt");
	mount_tmpfs(esc_path(e, "proj/.git/hooks/sub"), "x");
	mount_tmpfs(esc_path(e, "proj/secret/m"), "f");
	mount_tmpfs(esc_path(e, "proj/src/mnt"), "f");
}

static void submounts_gone(struct esc *e, const struct esc_result *r)
{
	(void)r;
	assert_true(esc_file_is(e, "proj/.git/hooks/sub/x", "SUB"));
	assert_false(esc_exists(e, "proj/.git/hooks/sub/y"));
	umount2(esc_path(e, "proj/.git/hooks/sub"), MNT_DETACH);
	umount2(esc_path(e, "proj/secret/m"), MNT_DETACH);
	umount2(esc_path(e, "proj/src/mnt"), MNT_DETACH);
}

/* What the project bound at @B/alias and not granted there gives: the
 * same refusals as the project, by Landlock alone or by the masks. */
#define ALIAS_UNGRANTED                                                                           \
	.probe = "readsome @B/alias/secret/key readsome @B/alias/src/sub/deep/k write "           \
		 "@B/alias/.git/hooks/pre-commit write @B/alias/.git/config readeq @P/src/a.txt " \
		 "A",                                                                             \
	.want = "EACCES EACCES EACCES EACCES EACCES",                                             \
	.want_ns = "ENOENT|EACCES ENOENT|EACCES EROFS EROFS ok"

/* The project bound a second time at @B/alias. */
static void alias_mount(struct esc *e)
{
	deep_secret(e);
	esc_mkdir(e, "alias");
	if (mount(e->proj, esc_path(e, "alias"), "none", MS_BIND, NULL) != 0)
		fail_msg("bind the project: %s", strerror(errno));
}

static void alias_gone(struct esc *e, const struct esc_result *r)
{
	untouched(e, r);
	umount2(esc_path(e, "alias"), MNT_DETACH);
}

/* The project bound a second time where /proc/self/mountinfo writes a
 * line longer than 4,095 bytes per field (each backslash of the path is
 * escaped as \134), and @B/alias a link to it. */
static const char *long_alias(void)
{
	static char rel[1300];

	if (!rel[0]) {
		size_t n = (size_t)snprintf(rel, sizeof(rel), "long");
		for (int c = 0; c < 6; c++) {
			rel[n++] = '/';
			memset(rel + n, '\\', 200);
			n += 200;
		}
		rel[n] = '\0';
	}
	return rel;
}

static void alias_mount_long(struct esc *e)
{
	char target[PATH_MAX];

	deep_secret(e);
	esc_mkdir(e, long_alias());
	snprintf(target, sizeof(target), "%s", esc_path(e, long_alias()));
	if (mount(e->proj, target, "none", MS_BIND, NULL) != 0)
		fail_msg("bind the project: %s", strerror(errno));
	if (symlink(target, esc_path(e, "alias")) != 0)
		fail_msg("link to the long path: %s", strerror(errno));
}

static void alias_long_gone(struct esc *e, const struct esc_result *r)
{
	untouched(e, r);
	umount2(esc_path(e, long_alias()), MNT_DETACH);
}

static void link_to_secret(struct esc *e)
{
	assert_int_equal(symlink("secret", esc_path(e, "proj/lnk")), 0);
}

static void late_dir(struct esc *e)
{
	deep_secret(e);
	esc_mkdir(e, "proj/src/late");
}

static void mount_late(struct esc *e)
{
	mount_tmpfs(esc_path(e, "proj/src/late"), "f");
}

/* Nothing of the sandbox's namespace reached ours, and ours did not
 * reach it. */
static void no_propagation(struct esc *e, const struct esc_result *r)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char line[4096];

	(void)r;
	assert_non_null(f);
	while (fgets(line, sizeof(line), f))
		if (strstr(line, e->proj) && !strstr(line, "/src/late"))
			fail_msg("a mount of the sandbox reached the host: %s", line);
	fclose(f);
	umount2(esc_path(e, "proj/src/late"), MNT_DETACH);
	untouched(e, r);
}

/* Git directories other than the project's own: a nested repository,
 * a submodule's, and the common directory of a linked worktree that
 * lives outside the project (granted by the policy). */
static void git_dirs(struct esc *e)
{
	esc_mkdir(e, "proj/src/nested/.git/hooks");
	esc_put(e, "proj/src/nested/.git/HEAD", "ref: refs/heads/main\n");
	esc_put(e, "proj/src/nested/.git/config", "[core]\n");
	esc_mkdir(e, "proj/.git/modules/sm/hooks");
	esc_put(e, "proj/.git/modules/sm/HEAD", "ref: refs/heads/main\n");
	esc_put(e, "proj/.git/modules/sm/config", "[core]\n");
	esc_mkdir(e, "main/.git/hooks");
	esc_mkdir(e, "main/.git/worktrees/wt");
	esc_put(e, "main/.git/HEAD", "ref: refs/heads/main\n");
	esc_put(e, "main/.git/config", "[core]\n");
	esc_put(e, "main/.git/worktrees/wt/HEAD", "ref: refs/heads/wt\n");
	esc_put(e, "main/.git/worktrees/wt/commondir", "../..\n");
	esc_mkdir(e, "proj/wt");
	char g[PATH_MAX + 16];
	snprintf(g, sizeof(g), "gitdir: %s\n", esc_path(e, "main/.git/worktrees/wt"));
	esc_put(e, "proj/wt/.git", g);
	/* core.hooksPath names a directory of the project. */
	esc_put(e, "proj/.git/config", "[core]\n\thooksPath = tools/hooks\n");
	esc_mkdir(e, "proj/tools/hooks");
}

static void git_dirs_untouched(struct esc *e, const struct esc_result *r)
{
	(void)r;
	assert_true(esc_file_is(e, "proj/src/nested/.git/config", "[core]\n"));
	assert_true(esc_file_is(e, "proj/.git/modules/sm/config", "[core]\n"));
	assert_true(esc_file_is(e, "main/.git/config", "[core]\n"));
	assert_false(esc_exists(e, "proj/.git/modules/sm/hooks/post-checkout"));
	assert_false(esc_exists(e, "main/.git/hooks/x"));
	assert_false(esc_exists(e, "proj/tools/hooks/pre-commit"));
}

static void keys_setup(struct esc *e)
{
	esc_mkdir(e, "proj/src/sub/keys");
	esc_put(e, "proj/src/sub/keys/k", "K");
}

/* The user runs landfence from the subdirectory in which the sandbox made
 * a .git: the nearest root would be that subdirectory, with no policy. */
static void nested_root_refused(struct esc *e, const struct esc_result *r)
{
	static const char *const run[] = { "run", "--", "@E", "read", "@P/src/sub/keys/k", NULL };
	struct esc_result again;

	(void)r;
	if (snprintf(e->cwd, sizeof(e->cwd), "%s/src/sub", e->proj) >= (int)sizeof(e->cwd))
		fail_msg("path too long");
	esc_landfence(e, run, &again);
	e->cwd[0] = '\0';
	if (again.exit != 2 || !strstr(again.err, "inside the trusted project"))
		fail_msg("a root planted below the trusted project was used: exit %d\n%s%s",
			 again.exit, again.out, again.err);
}

static void trust_store_untouched(struct esc *e, const struct esc_result *r)
{
	next_run_refused(e, r);
	untouched(e, r);
}

static void swap_granted_file(struct esc *e)
{
	assert_int_equal(rename(esc_path(e, "proj/notes.txt"), esc_path(e, "proj/notes.old")), 0);
	assert_int_equal(rename(esc_path(e, "proj/other.txt"), esc_path(e, "proj/notes.txt")), 0);
}

static void swap_granted_dir(struct esc *e)
{
	assert_int_equal(rename(esc_path(e, "proj/src"), esc_path(e, "proj/src.old")), 0);
	assert_int_equal(rename(esc_path(e, "proj/secret"), esc_path(e, "proj/src")), 0);
}

static void notes_setup(struct esc *e)
{
	esc_put(e, "proj/notes.txt", "N");
	esc_put(e, "proj/other.txt", "OTHER");
}

static void notes_check(struct esc *e, const struct esc_result *r)
{
	(void)r;
	assert_true(esc_file_is(e, "proj/notes.txt", "OTHER"));
	assert_true(esc_file_is(e, "proj/notes.old", "Nx"));
}

static void fifos(struct esc *e)
{
	assert_int_equal(mkfifo(esc_path(e, "proj/src/fifo"), 0666), 0);
	assert_int_equal(mkfifo(esc_path(e, "proj/docs/fifo"), 0666), 0);
	assert_int_equal(mkfifo(esc_path(e, "proj/secret/fifo"), 0666), 0);
	assert_int_equal(mkfifo(esc_path(e, "proj/pipe"), 0666), 0);
}

static void create_under_fence(struct esc *e)
{
	esc_mkdir(e, "proj/vault");
	esc_put(e, "proj/vault/new.key", "NEW");
	esc_mkdir(e, "proj/gen");
	esc_put(e, "proj/gen/out.c", "GEN");
}

static void device_nodes(struct esc *e)
{
	/* Placed by someone with CAP_MKNOD before launch: /dev/null's and
	 * /dev/full's numbers, harmless to read and write. */
	assert_int_equal(mknod(esc_path(e, "proj/src/null-node"), S_IFCHR | 0666, makedev(1, 3)),
			 0);
	assert_int_equal(mknod(esc_path(e, "proj/docs/full-node"), S_IFCHR | 0666, makedev(1, 7)),
			 0);
}

static void exe_outside(struct esc *e)
{
	esc_put(e, "out/prog", "#!/bin/sh\nexit 0\n");
	assert_int_equal(chmod(esc_path(e, "out/prog"), 0755), 0);
}

static void no_new_nodes(struct esc *e, const struct esc_result *r)
{
	(void)r;
	assert_false(esc_exists(e, "proj/src/null2"));
	assert_false(esc_exists(e, "proj/src/loop"));
}

/* ------------------------------------------------------------------------
 * The cases
 */

const struct esc_case esc_cases[] = {
	/* 1. Symbolic links --------------------------------------------- */
	{ .name = "symlink placed before launch to files outside the project",
	  .kind = 1,
	  .policy = STD,
	  .setup = sym_out,
	  .probe = "read @P/src/l-out read @P/src/l-key readeq @P/src/a.txt A",
	  .want = "EACCES EACCES ok" },
	{ .name = "symlink placed before launch to fenced directories",
	  .kind = 1,
	  .policy = STD,
	  .setup = sym_fenced_dir,
	  .probe = "read @P/src/l-sec/key ls @P/src/l-sec write @P/src/l-hooks/pre-commit "
		   "create @P/src/l-hooks/post-checkout readeq @P/src/sub/b.txt B",
	  .want = "EACCES EACCES EACCES EACCES ok",
	  .after = untouched_no_evil },
	{ .name = "symlink created by the sandbox after launch",
	  .kind = 1,
	  .policy = STD,
	  .probe = "symlink @O/secret @P/src/l2 read @P/src/l2 symlink ../../secret/key "
		   "@P/src/sub/l3 read @P/src/sub/l3 symlink ../.git/hooks/pre-commit @P/src/l4 "
		   "write @P/src/l4 symlink a.txt @P/src/l5 readeq @P/src/l5 A",
	  .want = "ok EACCES ok EACCES ok EACCES ok ok",
	  .after = untouched },
	{ .name = "project root named through a symlink",
	  .kind = 1,
	  .flags = ESC_VIA_LINK,
	  .policy = STD,
	  .probe = "read @R/secret/key read @P/secret/key write @R/.git/config write "
		   "@R/src/a.txt readeq @P/src/a.txt Ax",
	  .want = "EACCES EACCES EACCES ok ok",
	  .after = untouched },
	{ .name = "dot-dot paths",
	  .kind = 1,
	  .policy = STD,
	  .probe = "read @P/src/../secret/key read @P/src/sub/../../../out/secret write "
		   "@P/src/../docs/ro.txt readeq @P/src/sub/../a.txt A",
	  .want = "EACCES EACCES EACCES ok",
	  .after = untouched },
	{ .name = "/proc/self/root and /proc/self/cwd",
	  .kind = 1,
	  .policy = STD,
	  .probe = "read /proc/self/root@P/secret/key read /proc/self/root@O/secret read "
		   "/proc/self/cwd/secret/key write /proc/self/cwd/docs/ro.txt readeq "
		   "/proc/self/root@P/src/a.txt A readeq /proc/self/cwd/src/a.txt A",
	  .want = "EACCES EACCES EACCES EACCES ok ok",
	  .after = untouched },
	{ .name = "/proc/<parent>/cwd and /proc/<parent>/root",
	  .kind = 1,
	  .policy = STD,
	  /* The parent is landfence, outside the domain: even the honest
	   * file is refused through its /proc entries. */
	  .probe = "parent-path cwd/secret/key parent-path root@O/secret parent-path "
		   "cwd/src/a.txt readeq @P/src/a.txt A",
	  .want = "EACCES EACCES EACCES ok" },

	{ .name = "O_PATH descriptors reopened through /proc/self/fd",
	  .kind = 1,
	  .policy = STD,
	  /* O_PATH asks for no right (metadata stays visible); every real
	   * open made from it is checked again on the path. */
	  .probe = "opath-reopen @P/secret/key opath-reopen @O/secret opath-reopen @P/docs/ro.txt",
	  .want = "ok EACCES EACCES ok ok EACCES EACCES ok ok ok EACCES ok",
	  .after = untouched },
	{ .name = "open_by_handle_at: a file opened by its handle, not its path",
	  .kind = 1,
	  .policy = STD,
	  .probe = "handle-open @P/secret/key @P/src handle-open @O/secret @P/src handle-open "
		   "@P/src/a.txt @P/src",
	  .want = "ok EPERM|EACCES ok EPERM|EACCES ok EPERM|ok" },

	{ .name = "opens submitted through io_uring",
	  .kind = 1,
	  .policy = STD,
	  /* io_uring runs the open with the submitter's credentials and
	   * domain: the same checks as openat(2). */
	  .probe = "uring-read @P/secret/key uring-read @O/secret uring-write @P/docs/ro.txt "
		   "uring-create @P/.git/hooks/post-checkout uring-read @P/src/a.txt uring-create "
		   "@P/src/new",
	  .want = "EACCES|nouring EACCES|nouring EACCES|nouring EACCES|nouring ok|nouring "
		  "ok|nouring",
	  .after = untouched_no_evil },

	/* 2. Hard links placed before launch ------------------------------ */
	{ .name = "hard link into a grant: plan names it",
	  .kind = 2,
	  .mode = ESC_PLAN,
	  .policy = STD,
	  .setup = hard_secret,
	  .out_has = { "@P/src/innocent" } },
	{ .name = "hard link into a grant: run refused under fallback deny",
	  .kind = 2,
	  .flags = ESC_NO_NS,
	  .policy = STD,
	  .setup = hard_secret,
	  .probe = "create @P/src/ran read @P/src/innocent",
	  .want = "",
	  .want_exit = 125,
	  .err_has = { "@P/src/innocent" },
	  .after = nothing_ran },
	{ .name = "hard link to a hook in a writable directory: run refused",
	  .kind = 2,
	  .flags = ESC_NO_NS,
	  .policy = STD,
	  .setup = hard_hook,
	  .probe = "write @P/src/pc",
	  .want = "",
	  .want_exit = 125,
	  .err_has = { "@P/src/pc" },
	  .after = untouched },
	{ .name = "hard link under fallback ask: runs and says so (Landlock cannot tell)",
	  .kind = 2,
	  .flags = ESC_NO_NS,
	  .policy = STD_ASK,
	  .setup = hard_secret,
	  .probe = "readeq @P/src/innocent KEY read @P/secret/key",
	  .want = "ok EACCES",
	  .err_has = { "@P/src/innocent" } },
	/* With a mount namespace the second name is masked where it is:
	 * the run goes ahead, and the link shows nothing (root reads an
	 * empty file, a user gets EACCES) and cannot be written. */
	{ .name = "hard link to a secret: masked at its own name",
	  .kind = 2,
	  .flags = ESC_NS,
	  .policy = STD,
	  .setup = hard_secret,
	  .probe = "create @P/src/ran readeq @P/src/innocent KEY write @P/src/innocent readeq "
		   "@P/src/a.txt A",
	  .want = "ok DIFF|EACCES EROFS|EACCES ok",
	  .err_has = { "@P/src/innocent is a hard link to @P/secret/key" } },
	{ .name = "hard link to a hook: masked read-only at its own name",
	  .kind = 2,
	  .flags = ESC_NS,
	  .policy = STD,
	  .setup = hard_hook,
	  .probe = "write @P/src/pc truncate @P/src/pc unlink @P/src/pc rename @P/src/pc @P/src/x "
		   "create @P/src/ok",
	  .want = "EROFS EROFS EBUSY EBUSY ok",
	  .after = untouched },
	/* A glob expanded at launch (every .pem file) masks its matches,
	 * not its static prefix: the rest of the project stays readable, so
	 * a second name there must be masked too, whether the file it names
	 * is fenced by that glob or by another rule. Without a namespace
	 * the glob drops the project's read grant. */
	{
		.name = "hard links beside an expanded read glob: masked at their own names",
		.kind = 2,
		.policy =
			"{'version':1,'fallback':'deny','rules':["
			"{'effect':'allow','capability':'read','paths':['**']},"
			"{'effect':'deny','capability':'read','paths':['secret/**','**/*.pem']}]}",
		.setup = hard_glob,
		.probe = "readeq @P/src/innocent KEY readeq @P/src/pem.txt PEM readeq @P/src/k.pem "
			 "PEM "
			 "readeq @P/src/a.txt A",
		.want = "EACCES EACCES EACCES EACCES",
		.want_ns = "DIFF|EACCES DIFF|EACCES DIFF|EACCES ok",
	},
	/* 3. Rename and link -------------------------------------- */
	{ .name = "mv a new file into the fenced hooks directory",
	  .kind = 3,
	  .policy = STD,
	  .probe = "create @P/src/evil rename @P/src/evil @P/.git/hooks/post-checkout rename "
		   "@P/src/evil @P/.git/hooks/pre-commit rename @P/src/a.txt @P/src/sub/moved "
		   "readeq @P/src/sub/moved A",
	  .want = "ok EACCES|EXDEV EACCES|EXDEV ok ok",
	  .after = untouched_no_evil },
	{ .name = "renameat2 RENAME_EXCHANGE with a fenced file",
	  .kind = 3,
	  .policy = STD,
	  .probe = "create @P/src/evil exchange @P/src/evil @P/.git/hooks/pre-commit exchange "
		   "@P/src/evil @P/secret/key exchange @P/src/evil @P/docs/ro.txt exchange "
		   "@P/src/a.txt @P/src/sub/b.txt readeq @P/src/a.txt B",
	  /* EXDEV where a mount boundary (a grant root bound nodev, a
	   * mask) answers before Landlock. */
	  .want = "ok EACCES|EXDEV EACCES|EXDEV EACCES|EXDEV ok ok",
	  .after = untouched },
	{ .name = "replace a fenced directory by renaming its parent's entry",
	  .kind = 3,
	  .policy = STD,
	  .probe = "rename @P/.git @P/src/git rename @P/.git/hooks @P/src/hooks rename "
		   "@P/secret @P/src/s mkdir @P/src/newdir rename @P/src/newdir @P/.git/hooks "
		   "rename @P/src/newdir @P/secret rename @P/src @P/src2 exchange @P/src @P/.git",
	  .want = "EACCES|EXDEV EACCES|EXDEV EACCES|EXDEV ok EACCES|EXDEV EACCES|EXDEV "
		  "EACCES|EBUSY "
		  "EACCES|EBUSY",
	  .after = untouched_no_evil },
	{ .name = "move a fenced file out to a granted directory",
	  .kind = 3,
	  .policy = STD,
	  .probe = "rename @P/secret/key @P/src/key rename @P/.git/hooks/pre-commit @P/src/pc "
		   "rename @P/docs/ro.txt @P/src/ro",
	  .want = "EACCES|EXDEV EACCES|EXDEV EACCES|EXDEV",
	  .after = untouched },
	{ .name = "link() across directories",
	  .kind = 3,
	  .policy = STD,
	  .probe = "link @P/secret/key @P/src/k2 link @O/secret @P/src/o2 link "
		   "@P/.git/hooks/pre-commit @P/src/pc link @P/docs/ro.txt @P/src/ro link "
		   "@P/src/a.txt @P/.git/hooks/post-checkout link @P/src/a.txt @P/src/sub/a2 "
		   "readeq @P/src/sub/a2 A",
	  .want = "EXDEV EXDEV EXDEV EXDEV EACCES|EXDEV ok ok",
	  .after = untouched_no_evil },
	{ .name = "rename and link at ABI 1: across directories always refused, and said",
	  .kind = 3,
	  .policy = STD_ASK,
	  .abi_max = "1",
	  .probe = "rename @P/src/a.txt @P/src/sub/a link @P/src/a.txt @P/src/sub/a2 rename "
		   "@P/src/a.txt @P/src/a-renamed link @P/secret/key @P/src/k2 create @P/src/evil "
		   "rename @P/src/evil @P/.git/hooks/post-checkout",
	  .want = "EXDEV EXDEV ok EXDEV ok EACCES|EXDEV",
	  .err_has = { "ABI 1", "DEGRADED" },
	  .after = untouched_no_evil },
	{ .name = "rename and link at ABI 2",
	  .kind = 3,
	  .policy = STD_ASK,
	  .abi_max = "2",
	  .probe = "rename @P/src/a.txt @P/src/sub/a link @P/src/sub/a @P/src/a2 link "
		   "@P/secret/key @P/src/k2 create @P/src/evil rename @P/src/evil "
		   "@P/.git/hooks/post-checkout",
	  .want = "ok ok EXDEV ok EACCES|EXDEV",
	  .after = untouched_no_evil },

	/* 4. Truncation --------------------------------------------------- */
	{ .name = "truncate and O_TRUNC at the kernel's ABI",
	  .kind = 4,
	  .policy = STD,
	  .min_abi = 3,
	  .probe = "rdtrunc @P/docs/ro.txt truncate @P/docs/ro.txt truncate @P/secret/key "
		   "truncate @O/secret otrunc @P/docs/ro.txt rdtrunc @P/.git/config truncate "
		   "@H/.ssh/id_rsa otrunc @P/src/a.txt truncate @P/src/sub/b.txt ftruncate "
		   "@P/src/sub/b.txt",
	  .want = "EACCES EACCES EACCES EACCES EACCES EACCES EACCES ok ok ok",
	  .after = untouched },
	{ .name = "truncate and O_TRUNC with LANDFENCE_ABI_MAX=3",
	  .kind = 4,
	  .policy = STD,
	  .abi_max = "3",
	  /* No scopes below ABI 6: accepted, to reach the truncation. */
	  .args = "--allow-unscoped",
	  .probe = "rdtrunc @P/docs/ro.txt truncate @P/docs/ro.txt truncate @P/secret/key "
		   "truncate @O/secret otrunc @P/src/a.txt",
	  .want = "EACCES EACCES EACCES EACCES ok",
	  .after = untouched },
	{ .name = "ABI 2 under fallback deny: KernelTooOld, nothing runs",
	  .kind = 4,
	  .policy = STD,
	  .abi_max = "2",
	  .probe = "create @P/src/ran truncate @P/docs/ro.txt",
	  .want = "",
	  .want_exit = 125,
	  .err_has = { "KernelTooOld", "truncate" },
	  .after = nothing_ran },
	{ .name = "ABI 2 under fallback ask: DEGRADED is said, and truncate(2) is the hole",
	  .kind = 4,
	  .policy = STD_ASK,
	  .abi_max = "2",
	  .probe = "otrunc @P/docs/ro.txt read @P/secret/key truncate @P/docs/ro.txt",
	  .want = "EACCES EACCES ok",
	  .err_has = { "DEGRADED", "truncate" },
	  .after = truncated_ro },
	{ .name = "ABI 1 under fallback ask: DEGRADED is said",
	  .kind = 4,
	  .policy = STD_ASK,
	  .abi_max = "1",
	  .probe = "otrunc @P/docs/ro.txt rdtrunc @P/docs/ro.txt",
	  .want = "EACCES ok",
	  .err_has = { "DEGRADED", "truncate" },
	  .after = truncated_ro },
	{ .name = "plan at ABI 2 says Degraded",
	  .kind = 4,
	  .mode = ESC_PLAN,
	  .policy = STD_ASK,
	  .abi_max = "2",
	  .out_has = { "degraded", "truncate is not enforced below Landlock ABI 3" } },
	{ .name = "plan at ABI 2 under fallback deny says KernelTooOld",
	  .kind = 4,
	  .mode = ESC_PLAN,
	  .policy = STD,
	  .abi_max = "2",
	  .out_has = { "KernelTooOld", "refuses" } },

	{ .name = "doctor at ABI 1 says what is not enforceable",
	  .kind = 4,
	  .mode = ESC_DOCTOR,
	  .abi_max = "1",
	  .want_exit = 1, /* doctor: some protections are missing here */
	  .out_has = { "NO  refer", "NO  truncate", "NO  scopes", "below ABI 3 truncation" } },
	{ .name = "plan at ABI 5 says signals and abstract sockets are not scoped",
	  .kind = 7,
	  .mode = ESC_PLAN,
	  .policy = STD_ASK,
	  .abi_max = "5",
	  .out_has = { "scoped: none", "abstract UNIX sockets and signals are not scoped" } },
	{ .name = "plan at ABI 1 says rename and link across directories are refused",
	  .kind = 3,
	  .mode = ESC_PLAN,
	  .policy = STD_ASK,
	  .abi_max = "1",
	  .out_has = { "renaming or linking a file into another directory is always refused" } },

	/* 5. Terminal injection ------------------------------------------- */
	{ .name = "TIOCSTI on the controlling terminal",
	  .kind = 5,
	  .flags = ESC_PTY,
	  .policy = STD,
	  .probe = "tiocsti 0 tcgetattr",
	  .want = "EPERM ok" },
	{ .name = "TIOCSTI with the high 32 bits of the request set",
	  .kind = 5,
	  .flags = ESC_PTY,
	  .policy = STD,
	  .probe = "tiocsti 1 tiocsti 0xffffffff tiocsti 0x80000000 tiocsti 0xdead",
	  .want = "EPERM EPERM EPERM EPERM" },
	{ .name = "TIOCSTI through the i386 and x32 system call tables",
	  .kind = 5,
	  .flags = ESC_PTY,
	  .policy = STD,
	  /* ENOSYS where the kernel has no such table; never ok. */
	  .probe = "tiocsti-int80 tiocsti-x32",
	  .want = "EPERM|ENOSYS|n/a EPERM|ENOSYS|n/a" },
	{ .name = "TIOCLINUX, also with high bits",
	  .kind = 5,
	  .flags = ESC_PTY,
	  .policy = STD,
	  .probe = "tioclinux 0 tioclinux 1 tioclinux 0xffffffff",
	  .want = "EPERM EPERM EPERM" },
	{ .name = "TIOCSTI on a pseudo-terminal the sandbox opened",
	  .kind = 5,
	  .policy = STD,
	  .probe = "tiocsti-ptmx 0 tiocsti-ptmx 1",
	  .want = "EPERM EPERM" },
	{ .name = "TIOCSTI with Landlock capped to ABI 4 (seccomp does not depend on it)",
	  .kind = 5,
	  .flags = ESC_PTY,
	  .policy = STD_ASK,
	  .abi_max = "4",
	  .probe = "tiocsti 0 tiocsti 1 tioclinux 0",
	  .want = "EPERM EPERM EPERM" },

	/* 6. Inherited and passed descriptors ----------------------------- */
	{ .name = "descriptors the caller left open are closed",
	  .kind = 6,
	  .flags = ESC_INHERIT_FDS,
	  .policy = STD,
	  .probe = "fd 3 fd 7 fd 200 read @O/secret readeq @P/src/a.txt A",
	  .want = "EBADF EBADF EBADF EACCES ok" },
	{ .name = "no descriptor of landfence leaks into the program",
	  .kind = 6,
	  .flags = ESC_INHERIT_FDS,
	  .policy = STD,
	  .probe = "fds exec @E fds",
	  .want = "none none ok" },
	{ .name = "descriptors passed over a UNIX socket do not widen paths",
	  .kind = 6,
	  .flags = ESC_HELPER,
	  .policy = STD,
	  /* A descriptor is a capability: reading the passed file works (the
	   * outside process chose to share it). What it must not give is
	   * more: names below a passed directory, reopening through
	   * /proc/self/fd. */
	  .probe = "recvfd @P/src/helper.sock passed-openat inner passed-reopen-w "
		   "passed-reopen-r passed-read passed-fchdir-read inner",
	  .want = "ok EACCES EACCES EACCES ok EACCES" },

	/* 7. IPC out of the domain ---------------------------------------- */
	{ .name = "abstract UNIX socket of an unsandboxed process",
	  .kind = 7,
	  .flags = ESC_HELPER,
	  .policy = STD,
	  .min_abi = 6,
	  .probe = "abstract @N-abs abstract-self @N-self",
	  .want = "EPERM ok" },
	{ .name = "abstract socket at ABI 5: not scoped, and said",
	  .kind = 7,
	  .flags = ESC_HELPER,
	  .policy = STD_ASK,
	  .abi_max = "5",
	  .probe = "abstract @N-abs",
	  .want = "ok",
	  .err_has = { "abstract UNIX sockets and signals are not scoped" } },
	{ .name = "signals to processes outside the sandbox",
	  .kind = 7,
	  .flags = ESC_HELPER,
	  .policy = STD,
	  .min_abi = 6,
	  .probe = "kill @X 0 kill @X 15 kill-parent 0 kill-parent 15 kill-child",
	  .want = "EPERM EPERM EPERM EPERM ok",
	  .after = helper_alive },
	{ .name = "resource limits of processes outside the sandbox",
	  .kind = 7,
	  .flags = ESC_HELPER,
	  .policy = STD,
	  /* The launcher with one descriptor left could not list the
	   * program's processes to end them after the run (a red team
	   * lowered it so, and a daemon outlived the run). Its own limits
	   * it may set. */
	  .probe = "prlimit-parent prlimit @X prlimit 0",
	  .want = "EPERM EPERM ok",
	  .after = helper_alive },
	{ .name = "signals at ABI 5: not scoped, and said",
	  .kind = 7,
	  .flags = ESC_HELPER,
	  .policy = STD_ASK,
	  .abi_max = "5",
	  .probe = "kill @X 0",
	  .want = "ok",
	  .err_has = { "signals are not scoped" },
	  .after = helper_alive },
	{ .name = "ptrace of processes outside the sandbox",
	  .kind = 7,
	  .flags = ESC_HELPER,
	  .policy = STD,
	  .probe = "ptrace @X ptrace-parent ptrace-child",
	  .want = "EPERM EPERM ok",
	  .after = helper_alive },
	{ .name = "ptrace at ABI 1 is still refused",
	  .kind = 7,
	  .flags = ESC_HELPER,
	  .policy = STD_ASK,
	  .abi_max = "1",
	  .probe = "ptrace @X ptrace-parent",
	  .want = "EPERM EPERM",
	  .after = helper_alive },
	{ .name = "/proc/<pid>/mem, cwd and root of outside processes",
	  .kind = 7,
	  .flags = ESC_HELPER,
	  .policy = STD,
	  .probe = "read /proc/@X/mem read /proc/@X/cwd/.git/HEAD parent-path mem read "
		   "/proc/@X/root@O/secret read /proc/self/environ",
	  .want = "EACCES EACCES EACCES EACCES ok" },
	{ .name = "/proc/<pid>/environ of outside processes",
	  .kind = 7,
	  .flags = ESC_HELPER,
	  .policy = STD,
	  .probe = "read /proc/@X/environ parent-path environ parent-path maps",
	  .want = "EACCES EACCES EACCES" },
	{ .name = "/proc/<parent>/fd and /proc/<parent>/ns",
	  .kind = 7,
	  .policy = STD,
	  /* landfence's own descriptors and namespaces (setns would need
	   * them) are out of reach. */
	  .probe = "parent-path fd/0 parent-path fd/2 parent-path ns/mnt parent-path ns/user "
		   "read /proc/self/ns/mnt",
	  .want = "EACCES EACCES EACCES EACCES ok|EINVAL|ENXIO" },
	{ .name = "descriptors and memory of outside processes: pidfd_getfd, process_vm_readv",
	  .kind = 7,
	  .flags = ESC_HELPER,
	  .policy = STD,
	  /* pidfd_open itself is allowed; taking a descriptor or reading
	   * memory needs ptrace-attach rights, which Landlock refuses. */
	  .probe = "pidfd-getfd @X 0 vm-read @X pidfd-getfd 1 0",
	  .want = "ok EPERM EPERM ok EPERM",
	  .after = helper_alive },
	{ .name = "POSIX message queue of an outside process",
	  .kind = 7,
	  .flags = ESC_HELPER,
	  .policy = STD,
	  /* mq_open opens a file of the mqueue mount: Landlock checks it
	   * like any path, and no grant covers it. */
	  .probe = "mq @N-mq",
	  .want = "EACCES" },
	{ .name = "SysV shared memory of an outside process",
	  .kind = 7,
	  .flags = ESC_HELPER,
	  .policy = STD,
	  .probe = "sysv-shm @K",
	  .want = "EACCES" },
	{ .name = "connect to a named UNIX socket outside every grant",
	  .kind = 7,
	  .flags = ESC_HELPER,
	  .policy = STD,
	  .probe = "connect @O/helper.sock",
	  .want = "EACCES",
	  .hole = "a kernel limit: Landlock (ABI <= 7) does not restrict connect(2) to a "
		  "pathname UNIX socket (ssh-agent, D-Bus, docker.sock stay reachable by path); "
		  "doctor says so. This case flips when a Landlock right for it exists and "
		  "landfence uses it" },
	{ .name = "doctor says metadata and named sockets are not fenced",
	  .kind = 7,
	  .mode = ESC_DOCTOR,
	  .out_has = { "NO  unix-connect", "named UNIX sockets", "NO  metadata",
		       "yes setuid-modes" } },
	/* The window doc/launch.md describes ("A mask that falls"), said
	 * where users look before they run. */
	{ .name = "doctor says a masked file replaced outside can be read until the stop",
	  .kind = 13,
	  .mode = ESC_DOCTOR,
	  .out_has = { "a mask hides a file only while its name stays", "exit 137" } },
	{ .name = "plan says a masked file replaced outside can be read until the stop",
	  .kind = 13,
	  .mode = ESC_PLAN,
	  .policy = STD,
	  .out_has = { "a mask hides a file only while its name stays" } },
	/* 8. Mounts and namespaces (root) ------------------------- */
	/* The launcher drops CAP_SYS_ADMIN, so unshare(CLONE_NEWNS) alone may
	 * fail with EPERM; a user namespace gives the capabilities back inside
	 * it, and Landlock must refuse the mount there too. */
	{ .name = "mount after unshare(CLONE_NEWNS) as root",
	  .kind = 8,
	  .policy = STD,
	  .probe = "unshare mnt mount-tmpfs @P/src mount-bind @O @P/src/sub make-private read "
		   "@O/secret",
	  .want = "ok|EPERM EPERM EPERM EPERM EACCES" },
	{ .name = "mount without a new namespace",
	  .kind = 8,
	  .policy = STD,
	  .probe = "mount-tmpfs @P/src/sub mount-bind @O @P/src/sub",
	  .want = "EPERM EPERM" },
	{ .name = "mount in a new user and mount namespace (capabilities regained)",
	  .kind = 8,
	  .policy = STD,
	  .probe = "unshare user+mnt caps mount-tmpfs @P/src mount-bind @O @P/src/sub "
		   "make-private read @O/secret read @P/secret/key",
	  .want = "ok caps EPERM EPERM EPERM EACCES EACCES",
	  /* In the masks' mount namespace no user namespace can be made. */
	  .want_ns = "EPERM caps|nocaps EPERM EPERM EPERM EACCES EACCES" },
	{ .name = "the new mount API: fsopen/fsmount/move_mount and open_tree",
	  .kind = 8,
	  .policy = STD,
	  .probe = "newmount @P/src newbind @O @P/src/sub unshare user+mnt newmount @P/src newbind "
		   "@O @P/src/sub newbind @P/src @P/src/sub read @O/secret",
	  .want = "EPERM EPERM ok EPERM EPERM EPERM EACCES",
	  .want_ns = "EPERM EPERM EPERM EPERM EPERM EPERM EACCES" },
	{ .name = "kernel modules and kexec as root",
	  .kind = 8,
	  .policy = STD,
	  /* ENOSYS on a kernel built without modules or kexec. */
	  .probe = "init-module kexec",
	  .want = "EPERM|ENOSYS EPERM|ENOSYS" },
	{ .name = "/proc/sys and cgroup files are read-only",
	  .kind = 8,
	  .policy = STD,
	  /* The written byte is invalid for both files: nothing changes even
	   * where a write were allowed. */
	  .probe = "write /proc/sys/vm/drop_caches write /sys/fs/cgroup/cgroup.procs read "
		   "/proc/sys/kernel/ostype",
	  .want = "EACCES EACCES|ENOENT ok" },
	{ .name = "umount in a new user and mount namespace",
	  .kind = 8,
	  .policy = STD,
	  /* Mounts inherited into a user namespace are locked (EINVAL);
	   * Landlock refuses with EPERM where the kernel gets that far. */
	  .probe = "unshare user+mnt umount /proc umount /dev",
	  .want = "ok EPERM|EINVAL EPERM|EINVAL",
	  .want_ns = "EPERM EPERM|EINVAL EPERM|EINVAL" },
	{ .name = "pivot_root in a new user and mount namespace",
	  .kind = 8,
	  .policy = STD,
	  .probe = "unshare user+mnt pivot-root @P/src @P/src/sub unshare mnt",
	  .want = "ok EPERM ok",
	  .want_ns = "EPERM EPERM EPERM" },
	{ .name = "pivot_root as root without a user namespace",
	  .kind = 8,
	  .policy = STD,
	  .probe = "unshare mnt pivot-root @P/src @P/src/sub",
	  .want = "ok|EPERM EPERM" },
	{ .name = "chroot, then escape through the old working directory",
	  .kind = 8,
	  .flags = ESC_ROOT,
	  .policy = STD,
	  /* Landlock does not refuse chroot(2); it does not need to: access
	   * stays bound to the real inodes. */
	  .probe = "chroot @P/src read secret/key read ../out/secret readeq /a.txt A chdir / "
		   "read ../secret/key read /proc/1/root@P/secret/key",
	  .want = "ok EACCES EACCES ok ok ENOENT ENOENT" },
	{ .name = "root keeps no dangerous capability in the sandbox",
	  .kind = 8,
	  .flags = ESC_ROOT,
	  .policy = STD,
	  .probe = "reboot-bad caps-bound",
	  .want = "EPERM dropped" },
	/* 9. Device nodes and special files ----------------------- */
	{ .name = "mknod of char and block devices in a writable directory",
	  .kind = 9,
	  .policy = STD,
	  .probe = "mknod-c @P/src/null2 mknod-b @P/src/loop mkfifo @P/src/fifo mksock "
		   "@P/src/sock",
	  .want = "EACCES EACCES ok ok",
	  .after = no_new_nodes },
	{ .name = "special files in read-only and fenced directories",
	  .kind = 9,
	  .policy = STD,
	  .probe = "mkfifo @P/docs/f mkfifo @P/secret/f mksock @P/docs/s mknod-c @P/secret/n "
		   "mkfifo @O/f",
	  .want = "EACCES EACCES EACCES EACCES EACCES" },
	{ .name = "host device nodes outside the granted ones",
	  .kind = 9,
	  .policy = STD,
	  .probe = "read /dev/loop0 write /dev/kmsg read /dev/kmsg write /dev/null read "
		   "/dev/urandom",
	  .want = "EACCES EACCES EACCES ok ok" },
	{ .name = "device nodes placed in granted directories: Landlock cannot tell",
	  .kind = 9,
	  .flags = ESC_ROOT | ESC_NO_NS,
	  .policy = STD_ASK,
	  .setup = device_nodes,
	  /* Landlock checks the path, not the kind of file: a node placed
	   * by someone else below a grant opens like a file there (a block
	   * node with a disk's numbers would be the whole disk). */
	  .probe = "write @P/src/null-node read @P/docs/full-node write @P/docs/full-node",
	  .want = "ok ok EACCES" },
	{ .name = "device nodes placed in granted directories: plan names them",
	  .kind = 9,
	  .flags = ESC_ROOT | ESC_NO_NS,
	  .mode = ESC_PLAN,
	  .policy = STD,
	  .setup = device_nodes,
	  .out_has = { "@P/src/null-node", "@P/docs/full-node", "device node" } },
	{ .name = "device nodes placed in granted directories: run refused under fallback deny",
	  .kind = 9,
	  .flags = ESC_ROOT | ESC_NO_NS,
	  .policy = STD,
	  .setup = device_nodes,
	  .probe = "create @P/src/ran write @P/src/null-node",
	  .want = "",
	  .want_exit = 125,
	  .err_has = { "@P/src/null-node", "@P/docs/full-node" },
	  .after = nothing_ran },
	/* With a mount namespace every grant of the policy is bound nodev:
	 * a node planted there opens nowhere, and no walk is needed. */
	{ .name = "device nodes placed in granted directories: unusable on nodev grants",
	  .kind = 9,
	  .flags = ESC_ROOT | ESC_NS,
	  .policy = STD_ASK,
	  .setup = device_nodes,
	  .probe = "write @P/src/null-node read @P/docs/full-node read @P/src/a.txt",
	  .want = "EACCES EACCES ok",
	  .err_lacks = { "device node" } },
	{ .name = "/dev/shm",
	  .kind = 9,
	  .policy = STD,
	  .probe = "shm @N ls /dev/shm",
	  .want = "EACCES EACCES" },
	{ .name = "memfd + execveat: the program from no file stays in the sandbox",
	  .kind = 9,
	  .policy = STD,
	  .probe = "memfd-run read @P/secret/key read @O/secret readeq @P/src/a.txt A",
	  .want = "EACCES EACCES ok ok" },
	{ .name = "FIFOs in granted, read-only and fenced directories",
	  .kind = 9,
	  .policy = STD,
	  .setup = fifos,
	  .probe = "fifo-w @P/src/fifo fifo-r @P/src/fifo fifo-w @P/docs/fifo fifo-r "
		   "@P/docs/fifo fifo-r @P/secret/fifo fifo-w @P/secret/fifo",
	  .want = "ENXIO ok EACCES ok EACCES EACCES" },

	/* 10. Environment ------------------------------------------------- */
	{ .name = "the scrub list is gone",
	  .kind = 10,
	  .policy = STD,
	  .probe = "getenv SSH_AUTH_SOCK getenv DBUS_SESSION_BUS_ADDRESS getenv HOME getenv "
		   "LF_TEST_TOKEN",
	  .want = "unset unset set set" },
	{ .name = "a policy's env unset is gone",
	  .kind = 10,
	  .policy = "{'version':1,'fallback':'deny','rules':[" STD_RULES
		    "],'env':{'unset':['LF_TEST_TOKEN']}}",
	  .probe = "getenv LF_TEST_TOKEN getenv HOME",
	  .want = "unset set" },
	{ .name = "a wrapper cannot bring it back",
	  .kind = 10,
	  .flags = ESC_HELPER,
	  .policy = "{'version':1,'fallback':'deny','rules':[" STD_RULES
		    "],'env':{'unset':['LF_TEST_TOKEN']}}",
	  .probe = "exec /usr/bin/env @E getenv SSH_AUTH_SOCK getenv LF_TEST_TOKEN",
	  .want = "unset unset ok" },
	{ .name = "the scrubbed values cannot be read back from landfence's /proc entry",
	  .kind = 10,
	  .policy = STD,
	  .probe = "parent-path environ",
	  .want = "EACCES" },
	/* 11. Policy tampering and persistence -------------------- */
	{ .name = "an untrusted project policy: nothing runs",
	  .kind = 11,
	  .flags = ESC_PROJECT_POLICY,
	  .policy = STD,
	  .probe = "create @P/src/ran",
	  .want = "",
	  .want_exit = 2,
	  .err_has = { "@P/.landfence/policy.json", "landfence trust", "not trusted" },
	  .after = nothing_ran },
	{ .name = "a trusted project policy runs",
	  .kind = 11,
	  .flags = ESC_PROJECT_POLICY | ESC_TRUST,
	  .policy = STD,
	  .probe = "create @P/src/ran read @P/secret/key",
	  .want = "ok EACCES" },
	{ .name = "the sandbox widens its project policy: the next run refuses it",
	  .kind = 11,
	  .flags = ESC_PROJECT_POLICY | ESC_TRUST | ESC_NO_NS,
	  .policy = "{'version':1,'fallback':'allow','rules':[]}",
	  .probe = "write @P/.landfence/policy.json",
	  .want = "ok",
	  .after = next_run_refused },
	{ .name = "the sandbox cannot trust its own policy change",
	  .kind = 11,
	  .flags = ESC_PROJECT_POLICY | ESC_TRUST | ESC_NO_NS,
	  .policy = "{'version':1,'fallback':'allow','rules':[],'host':{'read':['@D']}}",
	  /* A valid, wider policy: the whole home directory writable. */
	  .probe = "put @P/.landfence/policy.json "
		   "{'version':1,'fallback':'allow','rules':[],'host':{'write':['@H']}} exec @L "
		   "trust -C @P",
	  .want = "ok exit125",
	  .after = trust_store_untouched },
	{ .name = "the sandbox points its project policy at another project's trusted policy",
	  .kind = 11,
	  .flags = ESC_PROJECT_POLICY | ESC_TRUST | ESC_NO_NS,
	  .policy = "{'version':1,'fallback':'allow','rules':[]}",
	  .setup = other_trusted,
	  .probe = "unlink @P/.landfence/policy.json symlink @B/other/.landfence/policy.json "
		   "@P/.landfence/policy.json",
	  .want = "ok ok",
	  .after = refused_symlink },
	{ .name = "the sandbox swaps .landfence for a link to another project's",
	  .kind = 11,
	  .flags = ESC_PROJECT_POLICY | ESC_TRUST | ESC_NO_NS,
	  .policy = "{'version':1,'fallback':'allow','rules':[]}",
	  .setup = other_trusted,
	  .probe = "rename @P/.landfence @P/lf-old symlink @B/other/.landfence @P/.landfence",
	  .want = "ok ok",
	  .after = refused_symlink },
	/* With a mount namespace .landfence/ is protected: read-only, and
	 * neither it nor the policy can be renamed, replaced or removed. */
	{ .name = "the sandbox cannot touch .landfence when it is protected",
	  .kind = 11,
	  .flags = ESC_PROJECT_POLICY | ESC_TRUST | ESC_NS,
	  .policy = "{'version':1,'fallback':'allow','rules':[]}",
	  .setup = other_trusted,
	  .probe =
		  "write @P/.landfence/policy.json unlink @P/.landfence/policy.json rename "
		  "@P/.landfence @P/lf-old create @P/.landfence/x rename @P/.landfence/policy.json "
		  "@P/p2 create @P/ran",
	  .want = "EROFS EROFS EBUSY EROFS EROFS|EXDEV ok" },
	{ .name = "the sandbox deletes its trusted project policy",
	  .kind = 11,
	  .flags = ESC_PROJECT_POLICY | ESC_TRUST | ESC_NO_NS,
	  .policy = "{'version':1,'fallback':'allow','rules':[]}",
	  /* Without the policy the embedded default would apply, which can
	   * be wider than the deleted policy. */
	  .probe = "unlink @P/.landfence/policy.json",
	  .want = "ok",
	  .after = refused_gone },
	{ .name = "the sandbox plants a .git below the project to move the next run's root",
	  .kind = 11,
	  .flags = ESC_PROJECT_POLICY | ESC_TRUST,
	  .policy = "{'version':1,'fallback':'deny','rules':["
		    "{'effect':'allow','capability':'write','paths':['src/**']},"
		    "{'effect':'allow','capability':'read','paths':['docs/**']},"
		    "{'effect':'deny','capability':'read','paths':['src/sub/keys/**']}]}",
	  .setup = keys_setup,
	  /* src is writable, not readable; a run rooted at src/sub would get
	   * the embedded default there: src/sub/keys readable. */
	  .probe = "read @P/src/sub/keys/k mkdir @P/src/sub/.git mkdir @P/src/sub/.landfence",
	  .want = "EACCES ok ok",
	  .after = nested_root_refused },
	{ .name = "a -p policy file in a writable place: plan says the next run is at stake",
	  .kind = 11,
	  .mode = ESC_PLAN,
	  .flags = ESC_POLICY_IN_SRC,
	  .policy = STD,
	  .out_has = { "@P/src/agent-policy.json stays writable" } },
	{ .name = "plan warns that an agent profile leaves the agent's hooks writable",
	  .kind = 11,
	  .flags = ESC_NO_NS,
	  .mode = ESC_PLAN,
	  .policy = STD,
	  .setup = claude_home,
	  .args = "--profile claude",
	  .out_has = { "@H/.claude/settings.json stays writable" } },
	{ .name = "an agent profile keeps the agent's hooks read-only",
	  .kind = 11,
	  .flags = ESC_NS,
	  .mode = ESC_PLAN,
	  .policy = STD,
	  .setup = claude_home,
	  .args = "--profile claude",
	  .out_has = { "protected persistence paths", "@H/.claude/settings.json  (~/" } },
	{ .name = "the trust store, the user policy and the keys are out of reach",
	  .kind = 11,
	  .flags = ESC_PROJECT_POLICY | ESC_TRUST,
	  .policy = "{'version':1,'fallback':'allow','rules':[]}",
	  .setup = gitconfig_home,
	  .probe = "write @C/landfence/trusted create @C/landfence/policy.json read "
		   "@H/.ssh/id_rsa create @H/.bashrc readeq @H/.gitconfig [user] write "
		   "@H/.gitconfig create @H/.config/git/config",
	  .want = "EACCES EACCES EACCES EACCES ok EACCES EACCES|ENOENT" },
	{ .name = "planting git hooks and config under a policy that fences .git",
	  .kind = 11,
	  .policy = STD,
	  .probe = "write @P/.git/hooks/pre-commit create @P/.git/hooks/post-checkout write "
		   "@P/.git/config unlink @P/.git/hooks/pre-commit",
	  .want = "EACCES EACCES EACCES EACCES",
	  .after = untouched_no_evil },
	{ .name = "plan warns when persistence paths stay writable",
	  .kind = 11,
	  .mode = ESC_PLAN,
	  .policy = "{'version':1,'fallback':'allow','rules':[]}",
	  .out_has = { "@P/.git/hooks", "writable" } },
	{ .name = "setuid bits and file capabilities planted outside every grant",
	  .kind = 11,
	  .policy = STD,
	  .setup = exe_outside,
	  /* A root program that may chmod u+s or setcap any binary leaves a
	   * way to root for every later user of the machine. */
	  /* setcap: the filter refuses every extended attribute first
	   * (EOPNOTSUPP); CAP_SETFCAP is dropped as well. */
	  .probe = "chmod @O/prog 4755 chmod @O/prog 2755 setcap @O/prog chmod @P/src/a.txt 4644 "
		   "mode @O/prog",
	  .want = "EPERM EPERM EOPNOTSUPP EPERM 0755" },
	{ .name = "others given write access by chmod or an access control list, every way",
	  .kind = 11,
	  .policy = STD,
	  /* A directory of the user's that others may write lets another
	   * local user swap in what a later launch reads (the user policy,
	   * the trust store), then the program sets the mode back. chmod,
	   * fchmod and fchmodat with the write bit for others fail with
	   * EPERM, in the project and outside; an ACL is an extended
	   * attribute, and setting one answers EOPNOTSUPP; other modes, the
	   * group's write bit included, still work. */
	  .probe = "chmod @P/src 0777 chmod @P/src/a.txt 0666 fchmod @P/src/a.txt 0646 fchmodat "
		   "@P/src/a.txt 0602 chmod @H 0757 xattr @P/src/a.txt xattrat @P/src/a.txt chmod "
		   "@P/src/a.txt 0664 mode @P/src/a.txt",
	  .want = "EPERM EPERM EPERM EPERM EPERM EOPNOTSUPP EOPNOTSUPP ok 0664" },
	{ .name = "set-user-ID files made or changed in a writable place, every way",
	  .kind = 11,
	  .policy = STD,
	  /* open(O_CREAT), fchmod, fchmodat, mknod and openat2 (whose mode
	   * seccomp cannot read, so it answers ENOSYS and libc falls back);
	   * a plain mode still works. */
	  .probe =
		  "create-mode @P/src/s1 4755 create-mode @P/src/s2 2755 create-mode @P/src/x 0755 "
		  "fchmod @P/src/x 4755 fchmodat @P/src/x 6755 chmod @P/src/x 0700 mknod-reg "
		  "@P/src/s3 4755 openat2-create @P/src/s4 4755 mode @P/src/x",
	  .want = "EPERM EPERM ok EPERM EPERM ok EPERM ENOSYS|EPERM 0700" },
	{ .name = "chmod, chown, utimes and xattrs of files outside every grant",
	  .kind = 11,
	  .policy = STD,
	  .setup = exe_outside,
	  .probe = "chmod @O/secret 0666 chown @O/secret 1000 utime @O/secret xattr @O/secret "
		   "chmod @H/.ssh/id_rsa 0644 chmod @P/secret/key 0666 chmod @P/src/a.txt 0600",
	  .want = "EACCES EACCES EACCES EACCES EACCES EACCES ok",
	  .hole = "a kernel limit: Landlock (ABI <= 7) has no right for chmod, chown, utimes or "
		  "xattrs; doctor says so (case 'doctor says metadata and named sockets are not "
		  "fenced'). This case flips when a Landlock right for metadata exists and "
		  "landfence uses it" },

	/* 12. Inode binding --------------------------------------- */
	{ .name = "a granted file replaced by rename while the program runs",
	  .kind = 12,
	  .policy = "{'version':1,'fallback':'deny','rules':["
		    "{'effect':'allow','capability':'read','paths':['docs/**','notes.txt']},"
		    "{'effect':'allow','capability':'write','paths':['notes.txt']}]}",
	  .setup = notes_setup,
	  .during = swap_granted_file,
	  /* The rule follows the inode, not the name: the new file at the
	   * granted name is not granted, the old one keeps its grant. */
	  .probe = "readeq @P/notes.txt N sync write @P/notes.txt read @P/notes.txt write "
		   "@P/notes.old",
	  .want = "ok EACCES EACCES ok",
	  .after = notes_check },
	{ .name = "a granted directory swapped with a fenced one while the program runs",
	  .kind = 12,
	  .policy = STD,
	  .during = swap_granted_dir,
	  /* The grant stays on the directory's inode: under its new name it
	   * is still granted, and the fenced directory moved to the granted
	   * name is still fenced. */
	  .probe = "readeq @P/src/a.txt A sync read @P/src/key create @P/src/x readeq "
		   "@P/src.old/a.txt A create @P/src.old/y",
	  .want = "ok EACCES EACCES ok ok" },
	{ .name = "a FIFO granted by name does not hang the launch",
	  .kind = 12,
	  .policy = "{'version':1,'fallback':'deny','rules':["
		    "{'effect':'allow','capability':'read','paths':['src/**','pipe']}]}",
	  .setup = fifos,
	  .probe = "fifo-r @P/pipe fifo-w @P/pipe",
	  .want = "ok EACCES" },
	{ .name = "paths created after launch under fences that matched nothing",
	  .kind = 12,
	  .policy = "{'version':1,'fallback':'deny','rules':["
		    "{'effect':'allow','capability':'read','paths':['src/**']},"
		    "{'effect':'allow','capability':'write','paths':['src/**']},"
		    "{'effect':'deny','capability':'write','paths':['gen/**']},"
		    "{'effect':'deny','capability':'read','paths':['vault/*.key']}]}",
	  .during = create_under_fence,
	  .probe = "mkdir @P/gen create @P/gen/x mkdir @P/vault sync read @P/vault/new.key "
		   "write @P/gen/out.c create @P/gen/y rename @P/src/a.txt @P/gen/a create "
		   "@P/src/ok",
	  .want = "EACCES ENOENT EACCES EACCES EACCES EACCES EACCES|EXDEV ok" },
	{ .name = "a fence with a wildcard first segment fences the whole project",
	  .kind = 12,
	  .policy = "{'version':1,'fallback':'deny','rules':["
		    "{'effect':'allow','capability':'read','paths':['src/**']},"
		    "{'effect':'deny','capability':'read','paths':['**/*.pem']}]}",
	  .probe = "read @P/src/a.txt",
	  .want = "EACCES",
	  /* With masks the glob is expanded at launch (no match here): src
	   * keeps its grant; `plan` says a match made later is not hidden. */
	  .want_ns = "ok" },

	/* 13. Masks: the private mount namespace ---------------------- */
	{ .name = "masks: denied paths refused, the project usable",
	  .kind = 13,
	  .flags = ESC_NS,
	  .policy = MASKP,
	  .setup = deep_secret,
	  .probe = "readeq @P/src/a.txt A ls @P create @P/newtop mkdir @P/newdir readsome "
		   "@P/secret/key readsome @P/src/sub/deep/k write @P/.git/hooks/pre-commit "
		   "write @P/.git/config create @P/.git/hooks/post-checkout readeq @P/.git/config "
		   "[core]",
	  .want = "ok ok ok ok ENOENT|EACCES ENOENT|EACCES EROFS EROFS EROFS DIFF",
	  .after = untouched_masks },
	{ .name = "masks: the same policy without a namespace drops the grants",
	  .kind = 13,
	  .flags = ESC_NO_NS,
	  .policy = MASKP,
	  .setup = deep_secret,
	  .probe = "read @P/src/a.txt create @P/newtop read @P/secret/key write "
		   "@P/.git/hooks/pre-commit",
	  .want = "EACCES EACCES EACCES EACCES",
	  .err_has = { "no private mount namespace here" },
	  .after = untouched_masks },
	{ .name = "masks: a parent of a mask cannot be renamed away and made again",
	  .kind = 13,
	  .flags = ESC_NS,
	  .policy = MASKP,
	  .setup = deep_secret,
	  .probe = "rename @P/.git @P/g2 rename @P/.git/hooks @P/src/h rename @P/src/sub "
		   "@P/src/s2 rename @P/src @P/src2 exchange @P/src @P/docs rename @P/secret "
		   "@P/s2 rmdir @P/src/sub/deep rename @P/src/a.txt @P/src/a2 readeq @P/src/a2 A",
	  .want = "EBUSY EBUSY|EROFS|EXDEV EBUSY EBUSY EBUSY EBUSY EBUSY ok ok",
	  .after = untouched_masks },
	{ .name = "masks: pins come first, the masks stay on their pinned parents",
	  .kind = 13,
	  .flags = ESC_NS,
	  .policy = MASKP,
	  .setup = deep_secret,
	  .probe = "exchange @P/src/sub @P/docs rename @P/src/sub/deep @P/docs/d count "
		   "@P/src/sub/deep readsome @P/src/sub/deep/k readeq @P/src/sub/b.txt B",
	  .want = "EBUSY|EXDEV EBUSY|EXDEV 0|EACCES ENOENT|EACCES ok",
	  .after = untouched_masks },
	{ .name = "masks: submounts below a mask are covered, elsewhere they work",
	  .kind = 13,
	  .flags = ESC_NS | ESC_ROOT,
	  .policy = MASKP,
	  .setup = submounts,
	  .probe = "write @P/.git/hooks/sub/x create @P/.git/hooks/sub/y readsome @P/secret/m/f "
		   "readeq @P/src/mnt/f SUB create @P/src/mnt/g",
	  .want = "EROFS EROFS ENOENT ok ok",
	  .after = submounts_gone },
	{ .name = "masks: flags cannot be cleared, nothing can be unmounted or cloned",
	  .kind = 13,
	  .flags = ESC_NS,
	  .policy = MASKP,
	  .setup = deep_secret,
	  .probe = "setattr-clear @P/.git/hooks remount-rw @P/.git/hooks umount @P/.git/hooks "
		   "umount @P/secret open-tree @P/secret unshare mnt readeq @P/src/a.txt A",
	  .want = "EPERM EPERM EPERM EPERM EPERM EPERM ok",
	  .after = untouched_masks },
	{ .name = "masks: a working directory inside a hidden one is entered again",
	  .kind = 13,
	  .flags = ESC_NS,
	  .policy = MASKP,
	  .setup = cwd_in_secret,
	  .probe = "readsome key count . readeq @P/src/a.txt A",
	  .want = "ENOENT|EACCES 0|EACCES ok",
	  .after = untouched },
	{ .name = "masks: a working directory inside a read-only one is entered again",
	  .kind = 13,
	  .flags = ESC_NS,
	  .policy = MASKP,
	  .setup = cwd_in_hooks,
	  .probe = "write pre-commit create evil create @P/src/ok",
	  .want = "EROFS EROFS ok",
	  .after = untouched_no_evil },
	{ .name = "masks: a directory on stdin that reaches around the masks is refused",
	  .kind = 13,
	  .flags = ESC_NS | ESC_STDIN_DIR,
	  .policy = MASKP,
	  .setup = deep_secret,
	  .probe = "create @P/src/ran",
	  .want = "",
	  .want_exit = 125,
	  .err_has = { "descriptor 0 is the directory" },
	  .after = nothing_ran },
	{ .name = "masks: inherited descriptors are closed before masking",
	  .kind = 13,
	  .flags = ESC_NS | ESC_INHERIT_FDS,
	  .policy = MASKP,
	  .setup = deep_secret,
	  .probe = "fds fd 3 readeq @P/src/a.txt A",
	  .want = "none EBADF ok" },
	{ .name = "masks: another mount path of the project is masked too",
	  .kind = 13,
	  .flags = ESC_NS | ESC_ROOT,
	  .policy = "{'version':1,'fallback':'deny','rules':[" MASK_RULES
		    "],'host':{'write':['@B/alias']}}",
	  .setup = alias_mount,
	  .probe = "readsome @B/alias/secret/key readsome @B/alias/src/sub/deep/k write "
		   "@B/alias/.git/hooks/pre-commit write @B/alias/.git/config readeq "
		   "@B/alias/src/a.txt A create @B/alias/src/new",
	  .want = "ENOENT|EACCES ENOENT|EACCES EROFS EROFS ok ok",
	  .after = alias_gone },
	/* Not granted at @B/alias, and reached all the same: Landlock's
	 * rule is on the project directory's inode, which the bind shows.
	 * The masks at the project's paths do not cover the other mount,
	 * so the secret was read and the config written through it. */
	{ .name = "masks: the project bound a second time elsewhere, not granted there",
	  .kind = 13,
	  .flags = ESC_ROOT,
	  .policy = MASKP,
	  .setup = alias_mount,
	  ALIAS_UNGRANTED,
	  .after = alias_gone },
	/* The same, at a path whose mountinfo fields are longer than the
	 * parser's 4,095-byte buffers once escaped: the mount was misread
	 * and no alias found (a red team's finding). */
	{ .name = "masks: the project bound a second time at a path longer than 4,095 bytes "
		  "in mountinfo",
	  .kind = 13,
	  .flags = ESC_ROOT,
	  .policy = MASKP,
	  .setup = alias_mount_long,
	  ALIAS_UNGRANTED,
	  .after = alias_long_gone },
	{ .name = "masks: a fence reached through a symbolic link is dropped, not masked",
	  .kind = 13,
	  .flags = ESC_NS,
	  .policy = "{'version':1,'fallback':'deny','rules':["
		    "{'effect':'allow','capability':'read','paths':['**','docs/**']},"
		    "{'effect':'deny','capability':'read','paths':['lnk/**']}]}",
	  .setup = link_to_secret,
	  .probe = "read @P/src/a.txt read @P/secret/key readeq @P/docs/ro.txt RO",
	  .want = "EACCES EACCES ok" },
	{ .name = "masks: plan says why a fence through a link is not masked",
	  .kind = 13,
	  .flags = ESC_NS,
	  .mode = ESC_PLAN,
	  .policy = "{'version':1,'fallback':'deny','rules':["
		    "{'effect':'allow','capability':'read','paths':['**']},"
		    "{'effect':'deny','capability':'read','paths':['lnk/**']}]}",
	  .setup = link_to_secret,
	  .out_has = { "the path goes through a symbolic link" } },
	{ .name = "masks: no user namespace inside, no capability left",
	  .kind = 13,
	  .flags = ESC_NS,
	  .policy = MASKP,
	  .setup = deep_secret,
	  .probe = "unshare user clone-newuser clone3-newuser fork exec /bin/true",
	  .want = "EPERM EPERM ENOSYS ok ok" },
	{ .name = "masks: an unprivileged program holds no capability at all",
	  .kind = 13,
	  .flags = ESC_NS | ESC_NOT_ROOT,
	  .policy = MASKP,
	  .setup = deep_secret,
	  .probe = "capsets readeq @P/src/a.txt A",
	  .want = "none ok" },
	{ .name = "masks: nothing propagates from the host in, or out to the host",
	  .kind = 13,
	  .flags = ESC_NS | ESC_ROOT,
	  .policy = MASKP,
	  .setup = late_dir,
	  .during = mount_late,
	  .probe = "sync readsome @P/src/late/f count @P/src/late readsome @P/secret/key",
	  .want = "ENOENT 0 ENOENT",
	  .after = no_propagation },
	{ .name = "masks: /proc/self/root and another process's root",
	  .kind = 13,
	  .flags = ESC_NS | ESC_HELPER,
	  .policy = MASKP,
	  .setup = deep_secret,
	  .probe = "readsome /proc/self/root@P/secret/key readsome /proc/@X/root@P/secret/key "
		   "readsome /proc/1/root@P/secret/key readeq /proc/self/root@P/src/a.txt A "
		   "mountinfo-has secret",
	  .want = "ENOENT|EACCES EACCES EACCES ok yes" },
	{ .name = "masks: the tmpfs stage cannot be reached or changed",
	  .kind = 13,
	  .flags = ESC_NS,
	  .policy = MASKP,
	  .setup = deep_secret,
	  .probe = "create @P/secret/x mkdir @P/secret/d chmod @P/secret 0700 open-tree "
		   "@P/secret readsome @P/secret/.. readeq @P/src/a.txt A",
	  .want = "EROFS|EACCES EROFS|EACCES EROFS EPERM EISDIR|EACCES ok",
	  .after = untouched },
	{ .name = "masks: the embedded default keeps git hooks and config read-only",
	  .kind = 13,
	  .flags = ESC_NS | ESC_NO_POLICY,
	  .probe = "write @P/.git/hooks/pre-commit write @P/.git/config create "
		   "@P/.git/hooks/post-merge rename @P/.git @P/g2 create @P/.landfence write "
		   "@P/.git/HEAD create @P/src/x",
	  .want = "EROFS EROFS EROFS EBUSY ok ok ok",
	  .after = untouched_no_evil },
	{ .name = "masks: every git directory's hooks and config, core.hooksPath",
	  .kind = 13,
	  .flags = ESC_NS,
	  .policy = "{'version':1,'fallback':'deny','rules':["
		    "{'effect':'allow','capability':'read','paths':['**']},"
		    "{'effect':'allow','capability':'write','paths':['**']}],"
		    "'host':{'write':['@B/main']}}",
	  .setup = git_dirs,
	  .probe = "write @P/src/nested/.git/config create @P/src/nested/.git/hooks/pre-commit "
		   "write @P/.git/modules/sm/config create @P/.git/modules/sm/hooks/post-checkout "
		   "write @B/main/.git/config create @B/main/.git/hooks/x create "
		   "@P/tools/hooks/pre-commit create @P/src/nested/f write @B/main/.git/HEAD "
		   "create @P/tools/other",
	  .want = "EROFS EROFS EROFS EROFS EROFS EROFS EROFS ok ok ok",
	  .after = git_dirs_untouched },
};

const size_t esc_ncases = sizeof(esc_cases) / sizeof(esc_cases[0]);
