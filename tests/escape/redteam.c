/* SPDX-License-Identifier: MIT */
/*
 * Red team, round 2 (doc/escape.md): the attacks of the second round that
 * got through, as cases of the escape harness, run by their own attacker
 * (lf-redteam-probe, redteam_probe.c). The tree and the placeholders are
 * those of cases.c; @E is lf-redteam-probe here.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <linux/keyctl.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
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

/* ------------------------------------------------------------------------
 * Key rings: a key an outside process keeps in the user key ring.
 */

static void key_plant(struct esc *e)
{
	long id = syscall(SYS_add_key, "user", e->name, "TOKEN", 5, KEY_SPEC_USER_KEYRING);
	assert_true(id >= 0);
}

static void key_gone(struct esc *e, const struct esc_result *r)
{
	char planted[96];
	long id;

	(void)r;
	id = syscall(SYS_keyctl, KEYCTL_SEARCH, KEY_SPEC_USER_KEYRING, "user", e->name, 0);
	if (id >= 0)
		(void)syscall(SYS_keyctl, KEYCTL_UNLINK, id, KEY_SPEC_USER_KEYRING);
	snprintf(planted, sizeof(planted), "%s-planted", e->name);
	id = syscall(SYS_keyctl, KEYCTL_SEARCH, KEY_SPEC_USER_KEYRING, "user", planted, 0);
	if (id >= 0)
		(void)syscall(SYS_keyctl, KEYCTL_UNLINK, id, KEY_SPEC_USER_KEYRING);
	assert_true(id < 0);
}

/* ------------------------------------------------------------------------
 * Another terminal: an outside session's pseudo-terminal with a line typed
 * into it and not yet read.
 */

static int pty_master = -1;

static void pty_typed(struct esc *e)
{
	char *name;

	pty_master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
	assert_true(pty_master >= 0);
	assert_int_equal(grantpt(pty_master), 0);
	assert_int_equal(unlockpt(pty_master), 0);
	name = ptsname(pty_master);
	assert_non_null(name);
	esc_put(e, "proj/src/ptyname", name);
	assert_int_equal(write(pty_master, "sudo-password\n", 14), 14);
}

static void pty_close(struct esc *e, const struct esc_result *r)
{
	(void)e;
	(void)r;
	close(pty_master);
	pty_master = -1;
}

/* ------------------------------------------------------------------------
 * The next run's root: a .git above the home directory (a dotfiles
 * repository), and the program hides the project's own .git.
 */

static void git_above_home(struct esc *e)
{
	esc_mkdir(e, ".git");
}

static void next_run_not_home(struct esc *e, const struct esc_result *r)
{
	static const char *const run[] = {
		"run", "-q", "--", "@E", "read", "@H/.ssh/id_rsa", NULL
	};
	struct esc_result again;

	(void)r;
	assert_true(esc_exists(e, "proj/.git-moved"));
	esc_landfence(e, run, &again);
	if (again.exit != 2 || !strstr(again.err, "home directory")) {
		fprintf(stderr, "next run: exit %d\n%s%s", again.exit, again.out, again.err);
		fail_msg("the next run was rooted above the home directory");
	}
}

/* ------------------------------------------------------------------------
 * A process left behind by the program.
 */

static void no_survivor(struct esc *e, const struct esc_result *r)
{
	char buf[32] = "";
	FILE *f = fopen(esc_path(e, "proj/src/survivor"), "re");

	(void)r;
	assert_non_null(f);
	assert_non_null(fgets(buf, sizeof(buf), f));
	fclose(f);
	pid_t pid = (pid_t)atoi(buf);
	assert_true(pid > 1);
	if (kill(pid, 0) == 0) {
		kill(pid, SIGKILL);
		fail_msg("a process of the sandbox (%d) outlived landfence run", (int)pid);
	}
	assert_int_equal(errno, ESRCH);
}

/* ------------------------------------------------------------------------
 * The advisory verdict: a program that runs another command, allowed by
 * a glob, must not carry a denied command past the policy.
 */

static void runners_not_allowed(struct esc *e, const struct esc_result *r)
{
	static const char *const lines[] = {
		"flock /tmp/l rm -rf x", "flock /tmp/l -c 'rm -rf x'", "watch -n1 'rm -rf x'",
		"ionice -c3 rm -rf x",	 "taskset 1 rm -rf x",
	};

	(void)r;
	esc_put(e, "chk.json",
		"{\"version\":1,\"fallback\":\"ask\",\"rules\":[{\"effect\":\"ask\","
		"\"capability\":\"bash\",\"commands\":[{\"effect\":\"deny\",\"prefix\":"
		"\"rm\"},{\"effect\":\"allow\",\"glob\":\"flock *\"},{\"effect\":"
		"\"allow\",\"glob\":\"watch *\"},{\"effect\":\"allow\",\"glob\":"
		"\"ionice *\"},{\"effect\":\"allow\",\"glob\":\"taskset *\"}]}]}\n");
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		const char *const argv[] = { "check", "-p",	"@B/chk.json", "bash",
					     "--",    lines[i], NULL };
		struct esc_result v;

		esc_landfence(e, argv, &v);
		if (v.exit == 0 || strncmp(v.out, "allow", 5) == 0)
			fail_msg("check allows \"%s\": %s", lines[i], v.out);
	}
}

/* ------------------------------------------------------------------------
 * The command line of a process outside, with a password in it.
 */

static pid_t outside_pid = -1;

static void outside_cmdline(struct esc *e)
{
	char target[64];

	outside_pid = fork();
	assert_true(outside_pid >= 0);
	if (outside_pid == 0) {
		execl("/bin/sh", "sh", "-c", "sleep 30; :", "sh", "--password=HUNTER2",
		      (char *)NULL);
		_exit(127);
	}
	snprintf(target, sizeof(target), "/proc/%d/cmdline", (int)outside_pid);
	esc_put(e, "proj/src/target", target);
}

static void outside_stop(struct esc *e, const struct esc_result *r)
{
	(void)e;
	(void)r;
	kill(outside_pid, SIGKILL);
	waitpid(outside_pid, NULL, 0);
	outside_pid = -1;
}

/* A line whose first command redefines what a later, allowed command
 * runs: only ls, env and the builtins used are allowed, rm is denied. */
static void redefinitions_not_allowed(struct esc *e, const struct esc_result *r)
{
	static const char *const lines[] = {
		"PATH=./bin ls",
		"LD_PRELOAD=./x.so ls",
		"env PATH=./bin ls",
		"env LD_PRELOAD=./x.so ls",
		"declare -x PATH=./bin; ls",
		"export BASH_ENV=./x; ls",
		"shopt -s expand_aliases\nalias ls=rm\nls x",
		"hash -p /bin/rm ls; ls x",
		"enable -f ./x.so ls; ls",
	};

	(void)r;
	esc_put(e, "chk.json",
		"{\"version\":1,\"fallback\":\"ask\",\"rules\":[{\"effect\":\"ask\","
		"\"capability\":\"bash\",\"commands\":[{\"effect\":\"deny\",\"prefix\":"
		"\"rm\"},{\"effect\":\"allow\",\"glob\":\"ls*\"},{\"effect\":\"allow\","
		"\"glob\":\"env *\"},{\"effect\":\"allow\",\"glob\":\"export *\"},"
		"{\"effect\":\"allow\",\"glob\":\"declare *\"},{\"effect\":\"allow\","
		"\"glob\":\"shopt *\"},{\"effect\":\"allow\",\"glob\":\"alias *\"},"
		"{\"effect\":\"allow\",\"glob\":\"hash *\"},{\"effect\":\"allow\","
		"\"glob\":\"enable *\"}]}]}\n");
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		char line[128];
		size_t k = 0;

		/* \n in the table is a newline in the line */
		for (const char *q = lines[i]; *q && k + 1 < sizeof(line); q++)
			line[k++] = (q[0] == '\\' && q[1] == 'n') ? (q++, '\n') : *q;
		line[k] = '\0';
		const char *const argv[] = {
			"check", "-p", "@B/chk.json", "bash", "--", line, NULL
		};
		struct esc_result v;

		esc_landfence(e, argv, &v);
		if (v.exit == 0 || strncmp(v.out, "allow", 5) == 0)
			fail_msg("check allows \"%s\": %s", lines[i], v.out);
	}
}

/* The advisory verdict on a path through a symbolic link the program made
 * in a writable directory: src/h -> ../.git/hooks, so src/h/../config is
 * .git/config (not src/config), and the dangling src/d ->
 * ../.git/hooks/post-checkout is where a write creates the hook. */
static void links_judged_where_they_go(struct esc *e, const struct esc_result *r)
{
	static const char *const paths[] = { "@P/src/h/../config", "@P/src/d", "src/h/../config",
					     "src/d" };

	(void)r;
	assert_int_equal(symlink("../.git/hooks", esc_path(e, "proj/src/h")), 0);
	assert_int_equal(symlink("../.git/hooks/post-checkout", esc_path(e, "proj/src/d")), 0);
	esc_put(e, "chk.json",
		"{\"version\":1,\"fallback\":\"ask\",\"rules\":[{\"effect\":\"allow\","
		"\"capability\":\"write\",\"paths\":[\"src/**\"]},{\"effect\":\"deny\","
		"\"capability\":\"write\",\"paths\":[\".git/**\"]}]}\n");
	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		const char *const argv[] = {
			"check", "-p", "@B/chk.json", "write", paths[i], NULL
		};
		struct esc_result v;

		esc_landfence(e, argv, &v);
		if (v.exit == 0 || strncmp(v.out, "allow", 5) == 0)
			fail_msg("check allows write %s: %s", paths[i], v.out);
	}
}

/* The same links, written to by a bash line whose commands are allowed:
 * the lines of the table, each must not be allowed. */
static void bash_lines_not_allowed(struct esc *e, const char *const *lines, size_t n)
{
	assert_int_equal(symlink("../.git/hooks", esc_path(e, "proj/src/h")), 0);
	assert_int_equal(symlink("../.git/hooks/post-checkout", esc_path(e, "proj/src/d")), 0);
	esc_put(e, "chk.json",
		"{\"version\":1,\"fallback\":\"ask\",\"rules\":[{\"effect\":\"allow\","
		"\"capability\":\"write\",\"paths\":[\"src/**\"]},{\"effect\":\"deny\","
		"\"capability\":\"write\",\"paths\":[\".git/**\"]},{\"effect\":\"allow\","
		"\"capability\":\"bash\",\"commands\":[{\"effect\":\"allow\",\"glob\":"
		"\"echo *\"},{\"effect\":\"allow\",\"glob\":\"touch *\"},{\"effect\":"
		"\"allow\",\"glob\":\"tee *\"}]}]}\n");
	for (size_t i = 0; i < n; i++) {
		const char *const argv[] = { "check", "-p",	"@B/chk.json", "bash",
					     "--",    lines[i], NULL };
		struct esc_result v;

		esc_landfence(e, argv, &v);
		if (v.exit == 0 || strncmp(v.out, "allow", 5) == 0)
			fail_msg("check allows \"%s\": %s", lines[i], v.out);
	}
}

static void bash_redirects_through_links(struct esc *e, const struct esc_result *r)
{
	static const char *const lines[] = {
		"echo x > src/h/../config",
		"echo x > src/d",
		"echo x >> src/h/post-merge",
	};

	(void)r;
	bash_lines_not_allowed(e, lines, sizeof(lines) / sizeof(lines[0]));
}

static void bash_targets_through_links(struct esc *e, const struct esc_result *r)
{
	static const char *const lines[] = {
		"touch src/h/post-merge",
		"echo x | tee src/h/post-merge",
	};

	(void)r;
	bash_lines_not_allowed(e, lines, sizeof(lines) / sizeof(lines[0]));
}

/* A set-user-ID root file the user keeps in a writable place. */
static void suid_in_src(struct esc *e)
{
	esc_put(e, "proj/src/tool", "#!/bin/sh\n");
	assert_int_equal(chmod(esc_path(e, "proj/src/tool"), 04755), 0);
}

static void suid_bit_cleared(struct esc *e, const struct esc_result *r)
{
	struct stat st;

	(void)r;
	assert_int_equal(stat(esc_path(e, "proj/src/tool"), &st), 0);
	if (st.st_mode & S_ISUID)
		fail_msg("the sandbox wrote into a set-user-ID file and the bit stayed");
}

static void claude_json(struct esc *e)
{
	esc_put(e, "home/.claude.json", "{}\n");
}

const struct esc_case esc_cases[] = {
	{ .name = "key ring: a key the user keeps is not readable, none can be left",
	  .kind = 7,
	  .policy = STD,
	  .probe = "keyread @N keyadd @N-planted",
	  .want = "ENOSYS ENOSYS",
	  .setup = key_plant,
	  .after = key_gone },
	{ .name = "terminal: what is typed into another session's terminal cannot be read",
	  .kind = 5,
	  .policy = STD,
	  .probe = "ptyread @P/src/ptyname",
	  .want = "EACCES",
	  .hole = "src/landlock/sandbox.c (dev_tty): /dev/pts is granted whole, so every "
		  "terminal of the user opens; grant the program's own terminal only, which "
		  "needs a way for ptys made in the sandbox (TIOCGPTPEER) to stay usable",
	  .setup = pty_typed,
	  .after = pty_close },
	{ .name = "root: /etc/shadow is not readable through the /etc host grant",
	  .kind = 10,
	  .flags = ESC_ROOT,
	  .policy = STD,
	  .probe = "readsome /etc/shadow",
	  .want = "EACCES",
	  /* With a mount namespace /etc is one rule: seen as others see
	   * it (an id-mapped mount) /etc/shadow is refused by its mode;
	   * where /etc cannot be id-mapped it is hidden and root opens an
	   * empty stand-in. */
	  .want_ns = "EACCES|EMPTY",
	  /* Closed in 9c02f8a: /etc is granted entry by entry, minus
	   * its secrets (src/landlock/sandbox.c). */ },
	{ .name = "root move: hiding .git does not root the next run above the home directory",
	  .kind = 11,
	  .flags = ESC_NO_POLICY | ESC_NO_NS,
	  .probe = "rename @P/.git @P/.git-moved",
	  .want = "ok",
	  .setup = git_above_home,
	  .after = next_run_not_home },
	/* With a mount namespace .git holds protected paths, so it is
	 * pinned: it cannot be renamed at all. */
	{ .name = "root move: .git cannot be renamed away when its hooks are protected",
	  .kind = 11,
	  .flags = ESC_NO_POLICY | ESC_NS,
	  .probe = "rename @P/.git @P/.git-moved",
	  .want = "EBUSY",
	  .setup = git_above_home },
	{ .name = "leftover: no process of the sandbox outlives landfence run",
	  .kind = 5,
	  .policy = STD,
	  .probe = "survive @P/src/survivor",
	  .want = "ok",
	  .after = no_survivor },
	{ .name = "advisory: flock, watch, ionice, taskset allowed by a glob do not carry rm",
	  .kind = 11,
	  .policy = STD,
	  .probe = "read @P/src/a.txt",
	  .want = "ok",
	  .after = runners_not_allowed },
	{ .name = "proc: the command line of a process outside is not readable",
	  .kind = 7,
	  .policy = STD,
	  .probe = "readat @P/src/target",
	  .want = "EACCES",
	  .hole = "a kernel limit: /proc is granted read-only as a whole (programs need "
		  "/proc/self), and /proc/<pid>/cmdline, stat and status of every process "
		  "need no ptrace check; only a hidepid mount of /proc, which Landlock "
		  "cannot make, hides them",
	  .setup = outside_cmdline,
	  .after = outside_stop },
	{ .name = "advisory: PATH=, LD_PRELOAD=, alias, hash -p before an allowed command",
	  .kind = 11,
	  .policy = STD,
	  .probe = "read @P/src/a.txt",
	  .want = "ok",
	  .after = redefinitions_not_allowed },
	{ .name = "advisory: a write through a link made in src is judged where it lands",
	  .kind = 1,
	  .policy = STD,
	  .probe = "read @P/src/a.txt",
	  .want = "ok",
	  .after = links_judged_where_they_go },
	{ .name = "advisory: a bash redirection through a link made in src",
	  .kind = 1,
	  .policy = STD,
	  .probe = "read @P/src/a.txt",
	  .want = "ok",
	  .after = bash_redirects_through_links },
	{ .name = "advisory: a bash command's write target through a link made in src",
	  .kind = 1,
	  .policy = STD,
	  .probe = "read @P/src/a.txt",
	  .want = "ok",
	  .after = bash_targets_through_links },
	{ .name = "io_uring: no set-user-ID file through IORING_OP_OPENAT",
	  .kind = 11,
	  .flags = ESC_ROOT,
	  .policy = STD,
	  .probe = "uring-suid @P/src/suid",
	  .want = "ENOSYS|EPERM" },
	{ .name = "root: no packet socket (every frame of the host's network)",
	  .kind = 8,
	  .flags = ESC_ROOT,
	  .policy = STD,
	  .probe = "packet",
	  .want = "EPERM" },
	{ .name = "root: a write into a set-user-ID file clears the bit",
	  .kind = 11,
	  .flags = ESC_ROOT,
	  .policy = STD,
	  .probe = "append @P/src/tool",
	  .want = "ok",
	  .setup = suid_in_src,
	  .after = suid_bit_cleared },
	{ .name = "persistence: ~/.claude.json (MCP server commands) is listed under --profile claude",
	  .kind = 11,
	  .mode = ESC_PLAN,
	  .policy = STD,
	  .args = "--profile claude",
	  .out_has = { "/.claude.json stays writable" },
	  .setup = claude_json },
	{ .name = "inotify: a directory outside the grants cannot be watched",
	  .kind = 1,
	  .policy = STD,
	  .probe = "watch @H/.ssh watch @P/secret",
	  .want = "EACCES EACCES",
	  .hole = "a kernel limit: Landlock (ABI <= 7) does not mediate inotify_add_watch, so the "
		  "names and access times of files anywhere the user may read are seen; seccomp "
		  "cannot tell the path, and refusing inotify would break every file watcher" },
	{ .name = "stat: the size and times of a file outside the grants are hidden",
	  .kind = 1,
	  .policy = STD,
	  .probe = "stat @H/.ssh/id_rsa stat @P/secret/key",
	  .want = "EACCES EACCES",
	  .hole = "a kernel limit: Landlock (ABI <= 7) has no right for stat(2); existence, "
		  "size, owner and times of any nameable file are visible" },
};

const size_t esc_ncases = sizeof(esc_cases) / sizeof(esc_cases[0]);
