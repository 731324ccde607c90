/* SPDX-License-Identifier: MIT */
/*
 * Hostile projects and hostile output (doc/escape.md, "Hostile projects"):
 * scans that cannot finish, system directories and foreign .git as
 * project roots, terminal escapes in names and policies, old ABIs without
 * scopes. Each attack beside its honest counterpart, on the harness and
 * the attacker (lf-probe) of cases.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cmocka.h>

#include "harness.h"

#define STD_RULES                                                                        \
	"{'effect':'allow','capability':'read','paths':['src/**','docs/**','.git/**']}," \
	"{'effect':'allow','capability':'write','paths':['src/**']},"                    \
	"{'effect':'allow','capability':'delete','paths':['src/**']},"                   \
	"{'effect':'deny','capability':'read','paths':['secret/**']},"                   \
	"{'effect':'deny','capability':'write','paths':['.git/**','secret/**','docs/**']}"
#define STD "{'version':1,'fallback':'deny','rules':[" STD_RULES "]}"
#define STD_ASK "{'version':1,'fallback':'ask','rules':[" STD_RULES "]}"
/* The embedded default's shape: the project readable and writable. */
#define ALL_RW                                                    \
	"{'version':1,'fallback':'deny','rules':["                \
	"{'effect':'allow','capability':'read','paths':['**']},"  \
	"{'effect':'allow','capability':'write','paths':['**']}," \
	"{'effect':'allow','capability':'delete','paths':['**']}]}"

/* ------------------------------------------------------------------------
 * Scans that cannot finish
 */

/* Directory levels below src/ and the length of each name: 120 levels of
 * 100 bytes, a path of some 12,000 bytes, three times PATH_MAX. */
#define DEEP_LEVELS 120
#define DEEP_NAME 100

/* Makes the deep chain below rel and returns a descriptor of its bottom. */
static int deep_chain(struct esc *e, const char *rel)
{
	char name[DEEP_NAME + 1];
	int fd = open(esc_path(e, rel), O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	assert_true(fd >= 0);
	memset(name, 'd', DEEP_NAME);
	name[DEEP_NAME] = '\0';
	for (int i = 0; i < DEEP_LEVELS; i++) {
		assert_int_equal(mkdirat(fd, name, 0755), 0);
		int next = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		assert_true(next >= 0);
		close(fd);
		fd = next;
	}
	return fd;
}

static void deep_plain(struct esc *e)
{
	int fd = deep_chain(e, "proj/src");
	int f = openat(fd, "plain", O_WRONLY | O_CREAT | O_CLOEXEC, 0644);

	assert_true(f >= 0);
	close(f);
	close(fd);
}

/* A device node (/dev/null's numbers) at the bottom of the chain. */
static void deep_node(struct esc *e)
{
	int fd = deep_chain(e, "proj/src");

	assert_int_equal(mknodat(fd, "null-node", S_IFCHR | 0666, makedev(1, 3)), 0);
	close(fd);
}

/* A hard link to the fenced secret at the bottom of the chain. */
static void deep_link(struct esc *e)
{
	int fd = deep_chain(e, "proj/src");

	assert_int_equal(linkat(AT_FDCWD, esc_path(e, "proj/secret/key"), fd, "innocent", 0), 0);
	close(fd);
}

/* A directory below a grant the user cannot open (a program can chmod
 * one between runs: metadata changes are not mediated). */
static void locked_src(struct esc *e)
{
	esc_mkdir(e, "proj/src/locked");
	esc_put(e, "proj/src/locked/f", "F");
	assert_int_equal(chmod(esc_path(e, "proj/src/locked"), 0), 0);
}

/* The same below the fence, hiding a link from the hard-link scan. */
static void locked_secret(struct esc *e)
{
	esc_mkdir(e, "proj/secret/locked");
	assert_int_equal(link(esc_path(e, "proj/secret/key"), esc_path(e, "proj/src/innocent")), 0);
	assert_int_equal(
		rename(esc_path(e, "proj/secret/key"), esc_path(e, "proj/secret/locked/key")), 0);
	assert_int_equal(chmod(esc_path(e, "proj/secret/locked"), 0), 0);
}

static void unlock(struct esc *e, const struct esc_result *r)
{
	(void)r;
	chmod(esc_path(e, "proj/src/locked"), 0755);
	chmod(esc_path(e, "proj/secret/locked"), 0755);
}

static void nothing_ran(struct esc *e, const struct esc_result *r)
{
	unlock(e, r);
	assert_false(esc_exists(e, "proj/src/ran"));
}

static void ran(struct esc *e, const struct esc_result *r)
{
	unlock(e, r);
	assert_true(esc_exists(e, "proj/src/ran"));
}

/* ------------------------------------------------------------------------
 * Project roots
 */

static void cwd_at(struct esc *e, const char *path)
{
	snprintf(e->cwd, sizeof(e->cwd), "%s", path);
}

static void in_etc(struct esc *e)
{
	cwd_at(e, "/etc");
}

static void in_tmp(struct esc *e)
{
	cwd_at(e, "/tmp");
}

static void in_home(struct esc *e)
{
	cwd_at(e, e->home);
}

/* A directory like /tmp (sticky, anyone may write) above the victim's
 * work, holding a .git (git's CVE-2022-24765 shape) and another user's
 * file. */
static void shared_parent(struct esc *e)
{
	esc_mkdir(e, "shared/victimwork");
	esc_mkdir(e, "shared/.git");
	esc_put(e, "shared/theirs", "THEIRS");
	assert_int_equal(chmod(esc_path(e, "shared"), 01777), 0);
	cwd_at(e, esc_path(e, "shared/victimwork"));
}

static void shared_dir_itself(struct esc *e)
{
	esc_mkdir(e, "shared");
	assert_int_equal(chmod(esc_path(e, "shared"), 01777), 0);
	cwd_at(e, esc_path(e, "shared"));
}

/* A parent whose .git belongs to another user (uid 12345). */
static void foreign_git(struct esc *e)
{
	esc_mkdir(e, "parent/work");
	esc_mkdir(e, "parent/.git");
	esc_put(e, "parent/theirs", "THEIRS");
	assert_int_equal(chown(esc_path(e, "parent/.git"), 12345, 12345), 0);
	cwd_at(e, esc_path(e, "parent/work"));
}

/* The honest counterpart: the user's own .git in the parent. */
static void own_git(struct esc *e)
{
	esc_mkdir(e, "parent/work");
	esc_mkdir(e, "parent/.git");
	esc_put(e, "parent/mine", "MINE");
	cwd_at(e, esc_path(e, "parent/work"));
}

static void shared_untouched(struct esc *e, const struct esc_result *r)
{
	(void)r;
	assert_true(esc_exists(e, "shared/victimwork/ok"));
	assert_false(esc_exists(e, "shared/evil"));
}

/* ------------------------------------------------------------------------
 * Old ABIs: no scopes below 6
 */

/* The program kills its parent, landfence: where signals are not scoped
 * it dies, and its checks after the run with it. */
static void landfence_alive(struct esc *e, const struct esc_result *r)
{
	(void)e;
	assert_true(r->exit != 128 + 9);
}

/* ------------------------------------------------------------------------
 * /etc by permission. The harness runs as root in a mount namespace of
 * its own: a tmpfs over /etc/opt (empty on Debian) holds the entries, and
 * is gone when the harness exits.
 */

static void etc_put(const char *path, const char *text, mode_t mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	assert_int_equal(fchmod(fd, mode), 0);
	close(fd);
}

static void etc_mount(void)
{
	assert_int_equal(
		mount("lf-hostile", "/etc/opt", "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755"), 0);
}

/* /etc/xpra/key.pem's shape: a private key only root may read, beside
 * files anyone may read. */
static void etc_secret(struct esc *e)
{
	(void)e;
	etc_mount();
	assert_int_equal(mkdir("/etc/opt/xpra", 0755), 0);
	assert_int_equal(mkdir("/etc/opt/open", 0755), 0);
	etc_put("/etc/opt/xpra/key.pem", "-----BEGIN PRIVATE KEY-----", 0600);
	etc_put("/etc/opt/xpra/pub.txt", "PUB", 0644);
	etc_put("/etc/opt/open/readme", "README", 0644);
	assert_int_equal(symlink("/etc/opt/xpra/key.pem", "/etc/opt/open/key-link"), 0);
}

/* More entries than the look at /etc may visit. */
static void etc_huge(struct esc *e)
{
	char name[32];

	(void)e;
	etc_mount();
	int dir = open("/etc/opt", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(dir >= 0);
	for (int i = 0; i < 50001; i++) {
		snprintf(name, sizeof(name), "f%d", i);
		int fd = openat(dir, name, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
		assert_true(fd >= 0);
		close(fd);
	}
	close(dir);
}

static void etc_huge_secret(struct esc *e)
{
	etc_huge(e);
	assert_int_equal(mkdir("/etc/opt/xpra", 0755), 0);
	etc_put("/etc/opt/xpra/key.pem", "-----BEGIN PRIVATE KEY-----", 0600);
}

static void etc_unmount(struct esc *e, const struct esc_result *r)
{
	(void)e;
	(void)r;
	assert_int_equal(umount2("/etc/opt", MNT_DETACH), 0);
}

/* ------------------------------------------------------------------------
 * The post-run report without a mount namespace
 */

static void persist_places(struct esc *e)
{
	esc_mkdir(e, "proj/.vscode");
	esc_put(e, "proj/.vscode/tasks.json", "{\"x\":1}");
	esc_mkdir(e, "proj/.git/modules/sm/hooks");
	esc_put(e, "proj/.git/modules/sm/HEAD", "ref: refs/heads/main\n");
	esc_put(e, "proj/.git/modules/sm/config", "[core]\n");
	esc_mkdir(e, "proj/.git/worktrees/wt");
	esc_put(e, "proj/.git/worktrees/wt/HEAD", "ref: refs/heads/wt\n");
	esc_put(e, "proj/.git/worktrees/wt/commondir", "../..\n");
	esc_mkdir(e, "proj/src/nested/.git/hooks");
	esc_put(e, "proj/src/nested/.git/HEAD", "ref: refs/heads/main\n");
	esc_mkdir(e, "proj/.claude/hooks/deep");
	esc_put(e, "proj/.claude/hooks/deep/run.sh", "#!/bin/sh\n");
	esc_mkdir(e, "proj/.devcontainer");
	esc_put(e, "proj/.devcontainer/devcontainer.json", "{\"image\":\"a\"}");
}

/* Names ready to become git directories without a directory made: a
 * directory and a file the program renames to .git, a file it links as
 * .git, a repository (src/r) it moves; a directory below .git/modules
 * that lacks only its HEAD; a .git file naming a place (src/t/L) that
 * does not exist yet, and a git directory (src/t/D) for it. */
static void prepared_repos(struct esc *e)
{
	esc_mkdir(e, "proj/src/r/.git");
	esc_put(e, "proj/src/r/.git/HEAD", "ref: refs/heads/main\n");
	esc_mkdir(e, "proj/src/z/notyet");
	esc_put(e, "proj/src/z/notyet/HEAD", "ref: refs/heads/main\n");
	esc_put(e, "proj/src/z/notyet/config", "[core]\n\tfsmonitor = /bin/false\n");
	esc_mkdir(e, "proj/src/w");
	esc_put(e, "proj/src/w/gitfile", "gitdir: ../z/notyet\n");
	esc_mkdir(e, "proj/src/v");
	esc_put(e, "proj/src/v/pointer", "gitdir: ../z/notyet\n");
	esc_mkdir(e, "proj/.git/modules/libs/objects");
	esc_put(e, "proj/.git/modules/libs/config", "[core]\n\tfsmonitor = /bin/false\n");
	esc_mkdir(e, "proj/src/t/sub");
	esc_put(e, "proj/src/t/sub/.git", "gitdir: ../L\n");
	esc_mkdir(e, "proj/src/t/D");
	esc_put(e, "proj/src/t/D/HEAD", "ref: refs/heads/main\n");
}

/* ------------------------------------------------------------------------
 * The cases
 */

const struct esc_case esc_cases[] = {
	/* Scans that cannot finish refuse under fallback deny ----------- */
	{ .name = "a device node 120 levels down, past PATH_MAX: found, run refused",
	  .kind = 9,
	  .flags = ESC_ROOT | ESC_NO_NS,
	  .policy = STD,
	  .setup = deep_node,
	  .probe = "create @P/src/ran",
	  .want = "",
	  .want_exit = 125,
	  .err_has = { "null-node is a character device node (1:3)", "dddddddddd/dddddddddd" },
	  .after = nothing_ran },
	{ .name = "honest: a tree 120 levels deep, past PATH_MAX, is walked and runs",
	  .kind = 9,
	  .flags = ESC_NO_NS,
	  .policy = STD,
	  .setup = deep_plain,
	  .probe = "readeq @P/src/a.txt A create @P/src/ran",
	  .want = "ok ok",
	  .err_lacks = { "incomplete" },
	  .after = ran },
	{ .name = "a hard link to the secret 120 levels down, past PATH_MAX: found, run refused",
	  .kind = 2,
	  .flags = ESC_NO_NS,
	  .policy = STD,
	  .setup = deep_link,
	  .probe = "create @P/src/ran",
	  .want = "",
	  .want_exit = 125,
	  .err_has = { "is also reachable as", "dddddddddd/innocent" },
	  .after = nothing_ran },
	{ .name = "a directory below a grant the device-node scan cannot open: run refused",
	  .kind = 9,
	  .flags = ESC_NOT_ROOT | ESC_NO_NS,
	  .policy = STD,
	  .setup = locked_src,
	  .probe = "create @P/src/ran",
	  .want = "",
	  .want_exit = 125,
	  .err_has = { "the device-node scan is incomplete: cannot open @P/src/locked",
		       "nothing was run" },
	  .after = nothing_ran },
	{ .name = "honest: the same unreadable directory under fallback ask runs, with a warning",
	  .kind = 9,
	  .flags = ESC_NOT_ROOT | ESC_NO_NS,
	  .policy = STD_ASK,
	  .setup = locked_src,
	  .probe = "readeq @P/src/a.txt A create @P/src/ran",
	  .want = "ok ok",
	  .err_has = { "WARNING: the device-node scan is incomplete: cannot open @P/src/locked" },
	  .after = ran },
	{ .name = "honest: the same unreadable directory with masks: grants are nodev, no walk",
	  .kind = 9,
	  .flags = ESC_NOT_ROOT | ESC_NS,
	  .policy = STD,
	  .setup = locked_src,
	  .probe = "readeq @P/src/a.txt A create @P/src/ran read @P/src/locked/f",
	  .want = "ok ok EACCES",
	  /* The search for git directories still says it could not look
	   * below src/locked, before and after the run. */
	  .err_lacks = { "device-node scan is incomplete" },
	  .after = ran },
	{ .name = "a link hidden behind a chmod 000 directory below the fence: run refused",
	  .kind = 2,
	  .flags = ESC_NOT_ROOT,
	  .policy = STD,
	  .setup = locked_secret,
	  .probe = "create @P/src/ran read @P/src/innocent",
	  .want = "",
	  .want_exit = 125,
	  .err_has = { "the hard-link scan is incomplete: cannot open @P/secret/locked",
		       "nothing was run" },
	  .after = nothing_ran },
	{ .name = "the scan budget spent (LANDFENCE_SCAN_MAX_ENTRIES=3): run refused",
	  .kind = 9,
	  .flags = ESC_NO_NS,
	  .policy = STD,
	  .env = "LANDFENCE_SCAN_MAX_ENTRIES=3",
	  .probe = "create @P/src/ran",
	  .want = "",
	  .want_exit = 125,
	  .err_has = { "scan is incomplete: stopped after 3 entries (limit)",
		       "LANDFENCE_SCAN_MAX_ENTRIES" },
	  .after = nothing_ran },
	{ .name = "a scan budget that is not a number: run refused",
	  .kind = 9,
	  .policy = STD,
	  .env = "LANDFENCE_SCAN_MAX_ENTRIES=1e6",
	  .probe = "create @P/src/ran",
	  .want = "",
	  .want_exit = 125,
	  .err_has = { "LANDFENCE_SCAN_MAX_ENTRIES must be a number > 0" },
	  .after = nothing_ran },
	{ .name = "honest: a larger scan budget runs",
	  .kind = 9,
	  .flags = ESC_NO_NS,
	  .policy = STD,
	  .env = "LANDFENCE_SCAN_MAX_ENTRIES=1000000",
	  .probe = "readeq @P/src/a.txt A create @P/src/ran",
	  .want = "ok ok",
	  .err_lacks = { "incomplete" },
	  .after = ran },
	/* Escaped output ----------------------------------------------- */
	{ .name = "a hook named to erase the lines above: the after-run warning escapes it",
	  .kind = 5,
	  .flags = ESC_NO_NS,
	  .policy = "{'version':1,'fallback':'deny','rules':["
		    "{'effect':'allow','capability':'read','paths':['**']},"
		    "{'effect':'allow','capability':'write','paths':['**']}]}",
	  .probe = "create @P/.git/hooks/z\x1b[1A\x1b[2Kx create @P/.git/hooks/n\nlandfence:fine",
	  .want = "ok ok",
	  .err_has = { "hooks/z\\x1b[1A\\x1b[2Kx, which runs outside the sandbox later",
		       "hooks/n\\nlandfence:fine, which runs" },
	  .err_lacks = { "\x1b", "\nlandfence:fine" } },
	{ .name = "honest: with the masks the same hook is refused",
	  .kind = 5,
	  .flags = ESC_NS,
	  .policy = "{'version':1,'fallback':'deny','rules':["
		    "{'effect':'allow','capability':'read','paths':['**']},"
		    "{'effect':'allow','capability':'write','paths':['**']}]}",
	  .probe = "create @P/.git/hooks/z\x1b[1A\x1b[2Kx create @P/src/ok",
	  .want = "EROFS ok",
	  .err_lacks = { "\x1b" } },
	/* Old ABIs: missing scopes are Degraded -------------------------- */
	{ .name = "ABI 5 under fallback deny: KernelTooOld, nothing runs to kill landfence",
	  .kind = 7,
	  .policy = STD,
	  .abi_max = "5",
	  .probe = "kill-parent 9 create @P/src/ran",
	  .want = "",
	  .want_exit = 125,
	  .err_has = { "KernelTooOld", "abstract UNIX sockets and signals are not scoped",
		       "--allow-unscoped" },
	  .after = nothing_ran },
	{ .name = "ABI 4 under fallback deny: KernelTooOld too",
	  .kind = 7,
	  .policy = STD,
	  .abi_max = "4",
	  .probe = "create @P/src/ran",
	  .want = "",
	  .want_exit = 125,
	  .err_has = { "KernelTooOld", "(ABI 4)" },
	  .after = nothing_ran },
	{ .name = "ABI 5 under fallback ask: DEGRADED is said, and the signal is the hole",
	  .kind = 7,
	  .flags = ESC_HELPER,
	  .policy = STD_ASK,
	  .abi_max = "5",
	  .probe = "abstract @N-abs readeq @P/src/a.txt A",
	  .want = "ok ok",
	  .err_has = { "WARNING: the sandbox is DEGRADED",
		       "abstract UNIX sockets and signals are not scoped" } },
	{ .name = "honest: ABI 5 with --allow-unscoped runs, and says so",
	  .kind = 7,
	  .policy = STD,
	  .abi_max = "5",
	  .args = "--allow-unscoped",
	  .probe = "readeq @P/src/a.txt A create @P/src/ran",
	  .want = "ok ok",
	  .err_has = { "note: Landlock ABI 5: abstract UNIX sockets and signals are not "
		       "scoped" },
	  .err_lacks = { "DEGRADED" },
	  .after = ran },
	{ .name = "plan at ABI 5 under fallback deny says KernelTooOld and the way out",
	  .kind = 7,
	  .mode = ESC_PLAN,
	  .policy = STD,
	  .abi_max = "5",
	  .out_has = { "kernel-too-old", "not scoped", "--allow-unscoped" } },
	{ .name = "honest: at ABI 6 and later the program cannot kill landfence",
	  .kind = 7,
	  .policy = STD,
	  .min_abi = 6,
	  .probe = "kill-parent 9 readeq @P/src/a.txt A",
	  .want = "EPERM ok",
	  .after = landfence_alive },
	/* /etc by permission ------------------------------------------- */
	{ .name = "a root-only key in /etc (/etc/xpra/key.pem): not readable, even as root",
	  .kind = 1,
	  .flags = ESC_ROOT,
	  .policy = STD,
	  .setup = etc_secret,
	  .probe = "readeq /etc/opt/xpra/key.pem -----BEGIN readeq /etc/opt/open/key-link "
		   "-----BEGIN readeq /etc/opt/xpra/pub.txt PUB readeq /etc/opt/open/readme "
		   "README readsome /etc/hostname",
	  .want = "EACCES EACCES ok ok ok",
	  .want_ns = "DIFF|EACCES DIFF|EACCES ok ok ok",
	  .after = etc_unmount },
	/* Walked without a namespace (as root with one, /etc is seen as
	 * others see it: the next case). */
	{ .name = "/etc that cannot be looked at whole (50,001 entries): not granted at all",
	  .kind = 1,
	  .flags = ESC_ROOT | ESC_NO_NS,
	  .policy = STD,
	  .setup = etc_huge,
	  .probe = "readsome /etc/hostname readeq @P/src/a.txt A",
	  .want = "EACCES ok",
	  .err_has = { "/etc is not granted: its entries could not all be checked" },
	  .after = etc_unmount },
	{ .name = "/etc of 50,001 entries seen as others see it: granted, nothing walked, "
		  "a root-only file beside them refused",
	  .kind = 1,
	  .flags = ESC_ROOT | ESC_NS,
	  .policy = STD,
	  .setup = etc_huge_secret,
	  .probe = "readsome /etc/hostname readeq @P/src/a.txt A "
		   "readeq /etc/opt/xpra/key.pem -----BEGIN",
	  .want = "ok ok EACCES",
	  .err_lacks = { "/etc is not granted" },
	  .after = etc_unmount },
	/* The post-run report without a mount namespace ----------------- */
	{ .name = "report: .git/config rewritten at the same size, times set back",
	  .kind = 11,
	  .flags = ESC_NO_NS,
	  .policy = ALL_RW,
	  .setup = persist_places,
	  .probe = "put-same-time @P/.git/config [evil]\n",
	  .want = "ok",
	  .err_has = { "the program changed @P/.git/config, which runs outside the sandbox "
		       "later" } },
	{ .name = "report: .vscode/tasks.json edited in place, times set back",
	  .kind = 11,
	  .flags = ESC_NO_NS,
	  .policy = ALL_RW,
	  .setup = persist_places,
	  .probe = "put-same-time @P/.vscode/tasks.json {'x':2}",
	  .want = "ok",
	  .err_has = { "the program changed @P/.vscode/tasks.json" } },
	{ .name = "report: a submodule's config and a linked worktree's commondir",
	  .kind = 11,
	  .flags = ESC_NO_NS,
	  .policy = ALL_RW,
	  .setup = persist_places,
	  .probe = "put-same-time @P/.git/modules/sm/config [evil]\n put "
		   "@P/.git/worktrees/wt/commondir /tmp/evil",
	  .want = "ok ok",
	  .err_has = { "the program changed @P/.git/modules/sm/config",
		       "the program changed @P/.git/worktrees/wt/commondir" } },
	{ .name = "report: a nested repository's hook, files deep in persistence directories",
	  .kind = 11,
	  .flags = ESC_NO_NS,
	  .policy = ALL_RW,
	  .setup = persist_places,
	  .probe = "create @P/src/nested/.git/hooks/pre-commit put-same-time "
		   "@P/.claude/hooks/deep/run.sh #!/bin/x\n put-same-time "
		   "@P/.devcontainer/devcontainer.json {'image':'b'} mkdir @P/.cursor create "
		   "@P/.cursor/mcp.json",
	  .want = "ok ok ok ok ok",
	  .err_has = { "the program changed @P/src/nested/.git/hooks/pre-commit",
		       "the program changed @P/.claude/hooks/deep/run.sh",
		       "the program changed @P/.devcontainer/devcontainer.json",
		       "the program changed @P/.cursor/mcp.json" } },
	/* A git directory that did not exist at launch can be neither
	 * masked nor watched by name: the program made a repository with
	 * its own config and gave it to the index as a gitlink, and the
	 * user's next git status in the project ran its core.fsmonitor,
	 * with no word after the run. The search for git directories runs
	 * again after the program, with and without the masks. */
	{ .name = "report: a git repository, a submodule's git directory and a .git file made "
		  "during the run",
	  .kind = 11,
	  .policy = ALL_RW,
	  .probe = "mkdir @P/src/x mkdir @P/src/x/.git put @P/src/x/.git/HEAD ref put "
		   "@P/src/x/.git/config [core] mkdir @P/.git/modules mkdir @P/.git/modules/m put "
		   "@P/.git/modules/m/HEAD ref mkdir @P/src/y put @P/src/y/.git gitdir:x",
	  .want = "ok ok ok ok ok ok ok ok ok",
	  .err_has = { "the program made the git directory @P/src/x/.git",
		       "the program made the git directory @P/.git/modules/m",
		       "the program made @P/src/y/.git" } },
	/* Made without a directory made: a name moved in or linked, a
	 * HEAD written, a link that completes a .git file's path, one case
	 * each (a red team's answer to a watch of names made during the
	 * run, given up: doc/landlock.md). landfence ran once before, so
	 * that the case's run makes no directory of its own. */
	{ .name = "report: a directory renamed to .git during the run",
	  .kind = 11,
	  .flags = ESC_WARM,
	  .policy = ALL_RW,
	  .setup = prepared_repos,
	  .probe = "rename @P/src/z/notyet @P/src/z/.git",
	  .want = "ok",
	  .err_has = { "the program made the git directory @P/src/z/.git" } },
	{ .name = "report: a file renamed to .git during the run",
	  .kind = 11,
	  .flags = ESC_WARM,
	  .policy = ALL_RW,
	  .setup = prepared_repos,
	  .probe = "rename @P/src/w/gitfile @P/src/w/.git",
	  .want = "ok",
	  .err_has = { "the program made @P/src/w/.git" } },
	{ .name = "report: a file linked as .git during the run",
	  .kind = 11,
	  .flags = ESC_WARM,
	  .policy = ALL_RW,
	  .setup = prepared_repos,
	  .probe = "link @P/src/v/pointer @P/src/v/.git",
	  .want = "ok",
	  .err_has = { "the program made @P/src/v/.git" } },
	{ .name = "report: HEAD written into a directory below .git/modules during the run",
	  .kind = 11,
	  .flags = ESC_WARM,
	  .policy = ALL_RW,
	  .setup = prepared_repos,
	  .probe = "put @P/.git/modules/libs/HEAD ref",
	  .want = "ok",
	  .err_has = { "the program made the git directory @P/.git/modules/libs" } },
	{ .name = "report: a link that completes the path a .git file names, during the run",
	  .kind = 11,
	  .flags = ESC_WARM,
	  .policy = ALL_RW,
	  .setup = prepared_repos,
	  .probe = "symlink D @P/src/t/L",
	  .want = "ok",
	  .err_has = { "the program made the git directory @P/src/t/D" } },
	{ .name = "report: a submodule's git directory made during the run (no .git named)",
	  .kind = 11,
	  .flags = ESC_WARM,
	  .policy = ALL_RW,
	  .probe = "mkdir @P/.git/modules mkdir @P/.git/modules/m put @P/.git/modules/m/HEAD ref",
	  .want = "ok ok ok",
	  .err_has = { "the program made the git directory @P/.git/modules/m" } },
	{ .name = "report: a repository moved within the project during the run",
	  .kind = 11,
	  .flags = ESC_WARM,
	  .policy = ALL_RW,
	  .setup = prepared_repos,
	  .probe = "rename @P/src/r @P/src/moved",
	  .want = "ok",
	  .err_has = { "the program made the git directory @P/src/moved/.git" } },
	{ .name = "honest: ordinary writes, and git's own files, are not reported",
	  .kind = 11,
	  .flags = ESC_NO_NS,
	  .policy = ALL_RW,
	  .setup = persist_places,
	  .probe = "put @P/src/a.txt B put @P/.git/HEAD ref create @P/src/new readsome "
		   "@P/.git/config readsome @P/.vscode/tasks.json",
	  .want = "ok ok ok ok ok",
	  .err_lacks = { "the program changed", "the program made" } },
	{ .name = "with the masks the same places are read-only",
	  .kind = 13,
	  .flags = ESC_NS,
	  .policy = ALL_RW,
	  .setup = persist_places,
	  .probe = "put-same-time @P/.git/config [evil]\n put-same-time "
		   "@P/.git/modules/sm/config [evil]\n put @P/.git/worktrees/wt/commondir /x "
		   "create @P/src/nested/.git/hooks/pre-commit put @P/src/a.txt B",
	  .want = "EROFS EROFS EROFS EROFS ok" },
	/* What stays open, said ------------------------------------------ */
	{ .name = "doctor lists what Landlock up to ABI 7 leaves open",
	  .kind = 7,
	  .mode = ESC_DOCTOR,
	  .out_has = { "named UNIX sockets: connect(2)", "the network, unless a policy",
		       "/proc/<pid>/cmdline", "metadata changes: chmod" } },
	{ .name = "plan lists the same",
	  .kind = 7,
	  .mode = ESC_PLAN,
	  .policy = STD,
	  .out_has = { "named UNIX sockets: connect(2)", "the network, unless a policy",
		       "/proc/<pid>/cmdline", "metadata changes: chmod" } },
	/* Project roots ------------------------------------------------ */
	{ .name = "cd /etc && run: /etc refused as a project root",
	  .kind = 11,
	  .flags = ESC_DISCOVER | ESC_NO_POLICY,
	  .setup = in_etc,
	  .probe = "read /etc/shadow",
	  .want = "",
	  .want_exit = 2,
	  .err_has = { "the project root would be /etc", "is a system directory",
		       "--unsafe-root" } },
	{ .name = "-C /etc: refused as well",
	  .kind = 11,
	  .flags = ESC_DISCOVER | ESC_NO_POLICY,
	  .args = "-C /etc",
	  .probe = "read /etc/shadow",
	  .want = "",
	  .want_exit = 2,
	  .err_has = { "/etc (named with -C), which is a system directory" } },
	{ .name = "-C /etc/ssl, below /etc: refused",
	  .kind = 11,
	  .flags = ESC_DISCOVER | ESC_NO_POLICY,
	  .args = "-C /etc/ssl",
	  .probe = "read /etc/shadow",
	  .want = "",
	  .want_exit = 2,
	  .err_has = { "is a system directory" } },
	/* As root: unprivileged, without masks, the device-node scan of
	 * /etc cannot open /etc/polkit-1/rules.d and refuses, as it should. */
	{ .name = "honest: -C /etc --unsafe-root runs, with a warning",
	  .kind = 11,
	  .flags = ESC_ROOT | ESC_DISCOVER | ESC_NO_POLICY,
	  .args = "-C /etc --unsafe-root",
	  .probe = "readsome /etc/hostname",
	  .want = "ok",
	  .err_has = { "WARNING: the project root /etc is a system directory (--unsafe-root)" } },
	{ .name = "cd /tmp && run: /tmp refused as a project root",
	  .kind = 11,
	  .flags = ESC_DISCOVER | ESC_NO_POLICY,
	  .setup = in_tmp,
	  .probe = "create /tmp/lf-hostile-planted",
	  .want = "",
	  .want_exit = 2,
	  .err_has = { "the project root would be /tmp", "is a system directory" } },
	{ .name = "a sticky directory anyone may write: refused as a project root",
	  .kind = 11,
	  .flags = ESC_DISCOVER | ESC_NO_POLICY,
	  .setup = shared_dir_itself,
	  .probe = "create @B/shared/x",
	  .want = "",
	  .want_exit = 2,
	  .err_has = { "is a shared directory (sticky, anyone may write to it)" } },
	{ .name = "cd ~ && run, -C ~: the home directory refused as a project root",
	  .kind = 11,
	  .flags = ESC_DISCOVER | ESC_NO_POLICY,
	  .setup = in_home,
	  .probe = "read @B/home/.ssh/id_rsa",
	  .want = "",
	  .want_exit = 2,
	  .err_has = { "holds your home directory" } },
	{ .name = "-C @B (above the home directory): refused",
	  .kind = 11,
	  .flags = ESC_DISCOVER | ESC_NO_POLICY,
	  .args = "-C @B",
	  .probe = "read @B/home/.ssh/id_rsa",
	  .want = "",
	  .want_exit = 2,
	  .err_has = { "holds your home directory" } },
	{ .name = "-C /root: another user's (or root's own) home refused",
	  .kind = 11,
	  .flags = ESC_DISCOVER | ESC_NO_POLICY,
	  .args = "-C /root",
	  .probe = "ls /root",
	  .want = "",
	  .want_exit = 2,
	  .err_has = { "holds the home directory of root" } },
	{ .name = "a .git in a shared parent: discovery stops, the work directory is the root",
	  .kind = 11,
	  .flags = ESC_DISCOVER | ESC_NO_POLICY,
	  .setup = shared_parent,
	  .probe = "create @B/shared/victimwork/ok create @B/shared/evil read @B/shared/theirs",
	  .want = "ok EACCES EACCES",
	  .after = shared_untouched },
	{ .name = "a .git of another user in the parent: passed over, with a warning",
	  .kind = 11,
	  .flags = ESC_ROOT | ESC_DISCOVER | ESC_NO_POLICY,
	  .setup = foreign_git,
	  .probe = "create @B/parent/work/ok create @B/parent/evil read @B/parent/theirs",
	  .want = "ok EACCES EACCES",
	  .err_has = { "@B/parent/.git belongs to user 12345, not to you or root",
		       "the project root is the working directory @B/parent/work" } },
	{ .name = "honest: the user's own .git in the parent roots the project there",
	  .kind = 11,
	  .flags = ESC_DISCOVER | ESC_NO_POLICY,
	  .setup = own_git,
	  .probe = "readeq @B/parent/mine MINE create @B/parent/new create @B/parent/work/ok",
	  .want = "ok ok ok",
	  .err_lacks = { "passed over" } },
};

const size_t esc_ncases = sizeof(esc_cases) / sizeof(esc_cases[0]);
