/* SPDX-License-Identifier: MIT */
/*
 * `landfence run`, `plan`, `doctor`, `init` end to end: the built tool
 * (LANDFENCE_BIN) runs real programs under real sandboxes on temp trees;
 * refusals are the kernel's (Permission denied), exit statuses are the
 * tool's.
 */
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <grp.h>
#include <linux/capability.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "landfence.h"
#include "../enforce.h"

static char tmp_root[256];
static char home[300];
static const char *bin;

static void sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void sh(const char *fmt, ...)
{
	char cmd[8192];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	if (system(cmd) != 0)
		fail_msg("setup failed: %s", cmd);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fputs(text, f) >= 0, 1);
	assert_int_equal(fclose(f), 0);
}

static bool exists(const char *path)
{
	struct stat st;
	return lstat(path, &st) == 0;
}

struct result {
	int code;
	char out[1 << 20];
	char err[16384];
};

static void slurp(int fd, char *buf, size_t size)
{
	size_t n = 0;
	ssize_t r;

	lseek(fd, 0, SEEK_SET);
	while (n + 1 < size && (r = read(fd, buf + n, size - 1 - n)) > 0)
		n += (size_t)r;
	buf[n] = '\0';
}

/* tool()'s flags. */
#define LEAK_FD 0x1u /* descriptor 9 left open without O_CLOEXEC */
#define NO_DAC \
	0x2u /* as root, without CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH:
			 file modes bind root too */

/* Runs the tool with argv (NULL-terminated) in cwd, a clean environment
 * plus extra ("K=V", NULL-terminated), as flags say. */
static void tool(struct result *res, const char *cwd, const char *const *extra, unsigned flags,
		 const char *const *argv)
{
	char path_env[] = "PATH=/usr/local/bin:/usr/bin:/bin";
	char home_env[400], *env[64], *args[64];
	size_t ne = 0, na = 0;
	int ofd, efd, st;
	pid_t pid;

	snprintf(home_env, sizeof(home_env), "HOME=%s", home);
	env[ne++] = path_env;
	env[ne++] = home_env;
	env[ne++] = "LC_ALL=C";
	/* The pass without namespaces (tools/run-tests) reaches the tool. */
	char nons[64];
	const char *v = getenv("LANDFENCE_NO_NAMESPACES");
	if (v) {
		snprintf(nons, sizeof(nons), "LANDFENCE_NO_NAMESPACES=%s", v);
		env[ne++] = nons;
	}
	for (size_t i = 0; extra && extra[i] && ne < 62; i++)
		env[ne++] = (char *)extra[i];
	env[ne] = NULL;
	args[na++] = (char *)bin;
	for (size_t i = 0; argv[i] && na < 62; i++)
		args[na++] = (char *)argv[i];
	args[na] = NULL;

	ofd = memfd_create("out", MFD_CLOEXEC);
	efd = memfd_create("err", MFD_CLOEXEC);
	assert_true(ofd >= 0 && efd >= 0);
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		if (chdir(cwd) < 0)
			_exit(121);
		int devnull = open("/dev/null", O_RDONLY);
		if (devnull < 0 || dup2(devnull, 0) < 0 || dup2(ofd, 1) < 0 || dup2(efd, 2) < 0)
			_exit(122);
		if ((flags & NO_DAC) && getuid() == 0 &&
		    (prctl(PR_CAPBSET_DROP, CAP_DAC_OVERRIDE, 0, 0, 0) != 0 ||
		     prctl(PR_CAPBSET_DROP, CAP_DAC_READ_SEARCH, 0, 0, 0) != 0))
			_exit(125);
		if (flags & LEAK_FD) {
			int fd = open("/etc/hostname", O_RDONLY);
			if (fd < 0 || dup2(fd, 9) < 0)
				_exit(123);
		}
		execve(bin, args, env);
		_exit(124);
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	res->code = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	slurp(ofd, res->out, sizeof(res->out));
	slurp(efd, res->err, sizeof(res->err));
	close(ofd);
	close(efd);
}

#define TOOL(res, cwd, extra, ...)                                 \
	do {                                                       \
		const char *const argv_[] = { __VA_ARGS__, NULL }; \
		tool(res, cwd, extra, 0, argv_);                   \
	} while (0)

static void expect_code(const struct result *r, int code, const char *what)
{
	if (r->code != code)
		fail_msg("%s: exit %d, want %d\nstdout: %s\nstderr: %s", what, r->code, code,
			 r->out, r->err);
}

/* Whether this machine makes the private mount namespace of the masks
 * (the tool's own probe; LANDFENCE_NO_NAMESPACES=1 says no, as in the
 * second pass of tools/run-tests). */
static bool ns_here(void)
{
	bool a = false;

	assert_true(lf_namespace_probe(&a, NULL, NULL, 0) >= 0);
	return a;
}

/* Whether run sees /etc as others see it (plan says so): root, a mount
 * namespace and file systems that allow an id-mapped mount. */
static bool etc_as_others(const char *proj)
{
	static struct result res;
	const char *const argv[] = { "plan", NULL };

	tool(&res, proj, NULL, 0, argv);
	return res.code == 0 && strstr(res.out, "/etc: seen as others see it");
}

/* The kernel's refusal: Landlock's or a mode's EACCES; with masks also
 * EROFS (a read-only mask) and ENOENT (a name in a hidden directory). */
static bool refused(const char *err)
{
	return strstr(err, "Permission denied") ||
	       (ns_here() &&
		(strstr(err, "Read-only file system") || strstr(err, "No such file or directory")));
}

/* Results live outside the tests: a failing assertion leaves a test
 * without running its cleanup. */
static struct result g_res, g_trust_res;

/* A fresh project (with .landfence/, so it is found as the root) and an
 * optional project policy. */
static void project(char *out, size_t size, const char *name, const char *policy)
{
	char p[PATH_MAX + 64];
	snprintf(out, size, "%s/%s", tmp_root, name);
	sh("rm -rf %s && mkdir -p %s/.landfence", out, out);
	if (policy) {
		snprintf(p, sizeof(p), "%s/.landfence/policy.json", out);
		write_file(p, policy);
		/* A project policy is used once the user trusts it. */
		struct result *r = &g_trust_res;
		TOOL(r, out, NULL, "trust");
		expect_code(r, 0, "trust");
	}
}

static int setup(void **state)
{
	char canon[PATH_MAX];
	(void)state;
	bin = getenv("LANDFENCE_BIN");
	if (!bin || access(bin, X_OK) < 0)
		return -1;
	strcpy(tmp_root, "/tmp/lf-cli-test.XXXXXX");
	if (!mkdtemp(tmp_root))
		return -1;
	if (!realpath(tmp_root, canon) || strlen(canon) >= sizeof(tmp_root))
		return -1;
	strcpy(tmp_root, canon);
	snprintf(home, sizeof(home), "%s/home", tmp_root);
	char cmd[1024];
	snprintf(cmd, sizeof(cmd),
		 "mkdir -p %s/.ssh && echo planted > %s/secret.txt && "
		 "echo key > %s/.ssh/id_test",
		 home, home, home);
	return system(cmd) == 0 ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[700];
	(void)state;
	snprintf(cmd, sizeof(cmd), "chmod -R u+rwX %s; rm -rf %s", tmp_root, tmp_root);
	return system(cmd) == 0 ? 0 : -1;
}

/* ---- a fresh user's run: root, configuration, persistence, profiles ---- */

static bool has(const char *hay, const char *needle)
{
	return strstr(hay, needle) != NULL;
}

/* Outside any project the working directory was taken as the root: from
 * the home directory or "/" that handed the program everything. Refused
 * also when named with -C, unless --unsafe-root says so, which warns
 * loudly (even with -q); landfence's
 * own configuration stays read-only whatever the root. */
static void test_run_root_too_wide(void **state)
{
	char cfg[PATH_MAX], p[PATH_MAX + 64];
	struct result *r = &g_res;
	(void)state;
	NEED_LANDLOCK();

	TOOL(r, home, NULL, "run", "--", "true");
	expect_code(r, 2, "run from the home directory");
	assert_true(has(r->err, "holds your home directory"));
	assert_true(has(r->err, "-C"));
	TOOL(r, "/", NULL, "run", "--", "true");
	expect_code(r, 2, "run from /");
	assert_true(has(r->err, "whole file system"));
	TOOL(r, tmp_root, NULL, "plan");
	expect_code(r, 2, "plan from an ancestor of the home directory");

	snprintf(cfg, sizeof(cfg), "%s/.config/landfence", home);
	sh("mkdir -p %s && echo 'kept' > %s/trusted.test", cfg, cfg);
	snprintf(p, sizeof(p), "%s/trusted.test", cfg);
	TOOL(r, home, NULL, "run", "-q", "-C", home, "--", "true");
	expect_code(r, 2, "-C home without --unsafe-root");
	assert_true(has(r->err, "named with -C"));
	TOOL(r, home, NULL, "run", "-q", "--unsafe-root", "-C", home, "--", "sh", "-c",
	     "cat .config/landfence/trusted.test && cat .ssh/id_test");
	expect_code(r, 0, "-C home: the project is readable, the configuration too");
	assert_true(has(r->err, "WARNING: the project root"));
	assert_true(has(r->out, "kept"));
	TOOL(r, home, NULL, "run", "-q", "--unsafe-root", "-C", home, "--", "sh", "-c",
	     "echo evil >> .config/landfence/trusted.test");
	assert_int_not_equal(r->code, 0);
	assert_true(refused(r->err));
	TOOL(r, home, NULL, "run", "-q", "--unsafe-root", "-C", home, "--", "sh", "-c",
	     "echo '[{}]' > .config/landfence/policy.json");
	assert_int_not_equal(r->code, 0);
	assert_true(refused(r->err));
	/* plan names the built-in fence that took write away. */
	TOOL(r, home, NULL, "plan", "--unsafe-root", "-C", home);
	expect_code(r, 0, "plan -C home");
	assert_true(has(r->out, "landfence's own configuration"));
	sh("rm -f %s/trusted.test %s/policy.json", cfg, cfg);
}

/* The Claude Code hook run inside the sandbox reads the user policy and
 * the trust store: an allowed Read is allowed. */
static void test_run_hook_inside(void **state)
{
	char proj[PATH_MAX], xdg[PATH_MAX], env_xdg[PATH_MAX + 32], p[PATH_MAX + 64];
	struct result *r = &g_res;
	(void)state;
	NEED_LANDLOCK();

	snprintf(proj, sizeof(proj), "%s/hookin", tmp_root);
	snprintf(xdg, sizeof(xdg), "%s/xdg-hook", tmp_root);
	snprintf(env_xdg, sizeof(env_xdg), "XDG_CONFIG_HOME=%s", xdg);
	sh("rm -rf %s %s && mkdir -p %s/.landfence %s/src %s/landfence && cp %s %s/lf", proj, xdg,
	   proj, proj, xdg, bin, proj);
	snprintf(p, sizeof(p), "%s/.landfence/policy.json", proj);
	write_file(p, "{\"version\": 1, \"fallback\": \"deny\", \"rules\": ["
		      "{\"effect\": \"allow\", \"capability\": \"read\", \"paths\": [\"**\"]},"
		      "{\"effect\": \"allow\", \"capability\": \"write\", \"paths\": [\"**\"]}]}");
	snprintf(p, sizeof(p), "%s/landfence/policy.json", xdg);
	write_file(p, "{\"version\": 1, \"rules\": []}");
	snprintf(p, sizeof(p), "%s/src/a.c", proj);
	write_file(p, "int a;\n");
	snprintf(p, sizeof(p), "%s/in.json", proj);
	char in[2 * PATH_MAX + 512];
	snprintf(in, sizeof(in),
		 "{\"session_id\": \"s\", \"transcript_path\": \"/tmp/t\", \"cwd\": \"%s\", "
		 "\"permission_mode\": \"default\", \"hook_event_name\": \"PreToolUse\", "
		 "\"tool_name\": \"Read\", \"tool_input\": {\"file_path\": \"%s/src/a.c\"}}",
		 proj, proj);
	write_file(p, in);
	const char *extra[] = { env_xdg, NULL };
	TOOL(r, proj, extra, "trust");
	expect_code(r, 0, "trust with XDG_CONFIG_HOME");
	TOOL(r, proj, extra, "run", "-q", "--", "sh", "-c", "./lf hook claude < in.json");
	expect_code(r, 0, "hook inside the sandbox");
	if (!has(r->out, "\"permissionDecision\":\"allow\""))
		fail_msg("hook inside the sandbox did not allow: %s / %s", r->out, r->err);
}

/* LANDFENCE_* is for landfence, not for the program (nor a nested run). */
static void test_run_env_control(void **state)
{
	char proj[PATH_MAX];
	struct result *r = &g_res;
	(void)state;
	NEED_LANDLOCK();

	project(proj, sizeof(proj), "envctl", NULL);
	const char *extra[] = { "LANDFENCE_ABI_MAX=3", "LANDFENCE_SOMETHING=1", NULL };
	TOOL(r, proj, extra, "run", "-q", "--allow-unscoped", "--", "sh", "-c",
	     "echo \"[${LANDFENCE_ABI_MAX-unset}][${LANDFENCE_SOMETHING-unset}]\"");
	expect_code(r, 0, "run with LANDFENCE_* set");
	assert_true(has(r->out, "[unset][unset]"));
}

/* A git hook planted by the program is named after it exits, even with
 * -q; a run that plants nothing says nothing. */
static void test_run_persistence_warning(void **state)
{
	char proj[PATH_MAX], want[PATH_MAX + 128];
	struct result *r = &g_res;
	(void)state;
	NEED_LANDLOCK();

	project(proj, sizeof(proj), "persist", NULL);
	TOOL(r, proj, NULL, "run", "-q", "--", "sh", "-c", "echo hi > notes.txt");
	expect_code(r, 0, "a run that plants nothing");
	assert_false(has(r->err, "WARNING"));
	assert_false(has(r->err, "note:"));
	TOOL(r, proj, NULL, "run", "-q", "--", "sh", "-c",
	     "mkdir -p .git/hooks && printf '#!/bin/sh\\necho owned\\n' > .git/hooks/pre-commit");
	expect_code(r, 0, "a run that plants a hook");
	snprintf(want, sizeof(want),
		 "landfence: WARNING: the program changed %s/.git/hooks/pre-commit, which runs "
		 "outside the sandbox later (",
		 proj);
	if (!has(r->err, want))
		fail_msg("no warning for the planted hook: %s", r->err);
	/* The directory is not named beside the file made in it. */
	snprintf(want, sizeof(want), "changed %s/.git/hooks,", proj);
	assert_false(has(r->err, want));
	/* Nothing changed the second time. */
	TOOL(r, proj, NULL, "run", "--", "sh", "-c", "cat .git/hooks/pre-commit >/dev/null");
	expect_code(r, 0, "a run that only reads the hook");
	assert_false(has(r->err, "WARNING"));
	/* Rewriting it is a change too; where a mount namespace keeps the
	 * hooks that exist at launch read-only, it is refused instead. */
	TOOL(r, proj, NULL, "run", "-q", "--", "sh", "-c", "echo more >> .git/hooks/pre-commit");
	if (ns_here()) {
		expect_code(r, 2, "a run that tries to rewrite a read-only hook");
		assert_true(has(r->err, "Read-only file system"));
		assert_false(has(r->err, "WARNING"));
		return;
	}
	expect_code(r, 0, "a run that rewrites the hook");
	assert_true(has(r->err, "/.git/hooks/pre-commit, which runs outside the sandbox later"));
}

/* `git init` inside the sandbox writes a dozen *.sample hooks, which git
 * never runs: they are not reported, the hooks directory is not reported
 * by itself, and a real hook made beside them is. */
static void test_run_git_init_samples(void **state)
{
	char proj[PATH_MAX], want[PATH_MAX + 128];
	struct result *r = &g_res;
	(void)state;
	NEED_LANDLOCK();

	project(proj, sizeof(proj), "gitinit", NULL);
	TOOL(r, proj, NULL, "run", "-q", "--", "git", "init", "-q", ".");
	expect_code(r, 0, "git init");
	snprintf(want, sizeof(want), "%s/.git/hooks/pre-commit.sample", proj);
	if (!exists(want))
		fail_msg("git init wrote no sample hook: the test proves nothing");
	assert_false(has(r->err, ".sample"));
	snprintf(want, sizeof(want), "changed %s/.git/hooks,", proj);
	assert_false(has(r->err, want));
	/* .git/config is real: it can name hooks and filters. */
	snprintf(want, sizeof(want), "changed %s/.git/config,", proj);
	assert_true(has(r->err, want));
	TOOL(r, proj, NULL, "run", "-q", "--", "sh", "-c",
	     "cp .git/hooks/pre-commit.sample .git/hooks/pre-commit && "
	     "echo '# more' >> .git/hooks/pre-push.sample");
	snprintf(want, sizeof(want), "changed %s/.git/hooks/pre-commit,", proj);
	if (ns_here()) {
		/* .git/hooks existed at launch: masked read-only. */
		assert_int_not_equal(r->code, 0);
		assert_true(has(r->err, "Read-only file system"));
		assert_false(has(r->err, want));
	} else {
		expect_code(r, 0, "a hook made from a sample");
		assert_true(has(r->err, want));
	}
	assert_false(has(r->err, ".sample"));
}

/* Run as root, /etc is granted entry by entry: the password hashes stay
 * out of reach while the rest of /etc works. */
static void test_run_etc_secrets(void **state)
{
	char proj[PATH_MAX];
	struct result *r = &g_res;
	(void)state;
	NEED_LANDLOCK();

	if (geteuid() != 0) {
		print_message("not root: /etc/shadow is refused by its mode anyway\n");
		skip();
	}
	project(proj, sizeof(proj), "etc", NULL);
	/* Without a namespace the entries are not granted (EACCES); with
	 * one /etc is one rule and they are hidden: root reads an empty
	 * file, lists an empty directory. Either way nothing leaks. */
	bool ns = ns_here(), others = etc_as_others(proj);
	TOOL(r, proj, NULL, "run", "-q", "--", "cat", "/etc/shadow");
	assert_int_equal(r->code != 0, !ns || others);
	assert_false(has(r->out, "root:"));
	if (!ns || others)
		assert_true(has(r->err, "Permission denied"));
	TOOL(r, proj, NULL, "run", "-q", "--", "sh", "-c",
	     "cat /etc/gshadow; ls -A /etc/sudoers.d; cat /etc/ssl/private/* 2>&1");
	assert_false(has(r->out, "root:"));
	assert_false(has(r->out, "README"));
	assert_false(has(r->out, "PRIVATE KEY"));
	TOOL(r, proj, NULL, "run", "-q", "--", "sh", "-c", "cat /etc/ssh/ssh_host_*_key");
	assert_false(has(r->out, "PRIVATE KEY"));
	TOOL(r, proj, NULL, "run", "-q", "--", "cat", "/etc/passwd");
	expect_code(r, 0, "cat /etc/passwd");
	assert_true(has(r->out, "root:"));

	/* Entries of our own: one others cannot read, one they can, one
	 * others could read in a directory of the built-in list (hidden
	 * whatever its mode), and one made unreadable while the program
	 * runs (seen as others see it, the kernel judges it at the read;
	 * the walk, once before the launch, could not). */
	char secret[64], open_[64], late[64], sudo[64], high[64], cmd[600];
	bool sudo_made = !exists("/etc/sudoers.d");
	snprintf(secret, sizeof(secret), "/etc/lf-test-secret-%d", (int)getpid());
	snprintf(open_, sizeof(open_), "/etc/lf-test-open-%d", (int)getpid());
	snprintf(late, sizeof(late), "/etc/lf-test-late-%d", (int)getpid());
	snprintf(sudo, sizeof(sudo), "/etc/sudoers.d/lf-test-%d", (int)getpid());
	snprintf(high, sizeof(high), "/etc/lf-test-high-%d", (int)getpid());
	sh("umask 022; printf lf-secret > %s && chmod 600 %s && printf lf-open > %s && "
	   "printf lf-late > %s && mkdir -p /etc/sudoers.d && printf lf-sudo > %s && "
	   "printf lf-high > %s && chmod 600 %s && chown 4294967294:4294967294 %s",
	   secret, secret, open_, late, sudo, high, high, high);
	/* By name: without a namespace /etc is granted entry by entry, and
	 * cannot be listed. Owned by an id of the upper half (where the
	 * mapped ids come from): refused, also to a program that takes that
	 * id (root keeps CAP_SETUID and CAP_SETGID). */
	snprintf(cmd, sizeof(cmd),
		 "cat %s; cat %s; cat %s; cat %s; cat %s; "
		 "setpriv --reuid=4294967294 --regid=4294967294 --clear-groups cat %s; true",
		 secret, open_, late, sudo, high, high);
	TOOL(r, proj, NULL, "run", "-q", "--", "sh", "-c", cmd);
	bool leak = has(r->out, "lf-secret") || has(r->out, "lf-sudo") || has(r->out, "lf-high");
	bool open_read = has(r->out, "lf-open") && has(r->out, "lf-late");
	bool late_leak = false, late_refused = true;
	if (others) {
		sh("cd %s && rm -f ready go && (i=0; while [ ! -e ready ] && [ $i -lt 600 ]; do "
		   "sleep 0.05; i=$((i+1)); done; chmod 600 %s; touch go) >/dev/null 2>&1 &",
		   proj, late);
		snprintf(cmd, sizeof(cmd),
			 "touch ready; i=0; while [ ! -e go ] && [ $i -lt 600 ]; do sleep 0.05; "
			 "i=$((i+1)); done; cat %s",
			 late);
		TOOL(r, proj, NULL, "run", "-q", "--", "sh", "-c", cmd);
		late_leak = has(r->out, "lf-late");
		late_refused = r->code != 0 && has(r->err, "Permission denied");
	}
	/* /etc cleaned before any assertion can end the test. */
	sh("rm -f %s %s %s %s %s", secret, open_, late, sudo, high);
	if (sudo_made)
		sh("rmdir /etc/sudoers.d");
	assert_false(leak);
	assert_true(open_read);
	assert_false(late_leak);
	assert_true(late_refused);
	TOOL(r, proj, NULL, "run", "-q", "--", "sh", "-c",
	     "git init -q g && cd g && echo x > f && git add f && "
	     "git -c user.name=t -c user.email=t@e commit -qm m && git log --oneline | wc -l");
	expect_code(r, 0, "git inside the sandbox");
	assert_true(has(r->out, "1"));
}

/* A project inside /etc, read only: /etc is walked (a read grant
 * strictly below it), so plan names each file others cannot read as
 * hidden, and the program reads what plan says, not a refusal plan
 * did not announce. */
static void test_run_project_in_etc(void **state)
{
	char proj[PATH_MAX], dir[64], policy[PATH_MAX + 16];
	/* A result is 1 MiB: not on the stack. */
	static struct result pl;
	struct result *r = &g_res;
	(void)state;
	NEED_LANDLOCK();

	project(proj, sizeof(proj), "etc-in", NULL);
	if (geteuid() != 0 || !etc_as_others(proj)) {
		print_message("/etc is not seen as others see it here\n");
		skip();
	}
	snprintf(dir, sizeof(dir), "/etc/lf-test-proj-%d", (int)getpid());
	snprintf(policy, sizeof(policy), "%s/read-only.json", tmp_root);
	write_file(policy, "{ \"version\": 1, \"fallback\": \"deny\", \"rules\": [\n"
			   "  { \"effect\": \"allow\", \"capability\": \"read\", "
			   "\"paths\": [\"**\"] } ] }\n");
	sh("umask 022; mkdir -p %s/.landfence && printf lf-key > %s/key && chmod 600 %s/key && "
	   "printf lf-open > %s/open",
	   dir, dir, dir, dir);
	TOOL(&pl, dir, NULL, "plan", "--unsafe-root", "-p", policy);
	TOOL(r, dir, NULL, "run", "-q", "--unsafe-root", "-p", policy, "--", "sh", "-c",
	     "cat key; cat open");
	char hidden[128];
	snprintf(hidden, sizeof(hidden), "hidden     %s/key", dir);
	bool walked = !has(pl.out, "/etc: seen as others see it"), listed = has(pl.out, hidden);
	bool leak = has(r->out, "lf-key"), open_read = has(r->out, "lf-open");
	sh("rm -rf %s", dir);
	expect_code(&pl, 0, "plan in a project inside /etc");
	assert_true(walked);
	assert_true(listed);
	assert_false(leak);
	assert_true(open_read);
}

/* Enters a mount namespace of this process's own (mounts private),
 * returning the descriptor of the one it left, or -1: mounts a test
 * makes there are not seen by the suites that run beside it. A launch
 * beside this one saw the bind below (an alias of a part of /etc),
 * planned a mask for it, and ran nothing (exit 125, as it should) when
 * the bind was gone before its child placed the mask. */
static int private_mounts_enter(void)
{
	int left = open("/proc/self/ns/mnt", O_RDONLY | O_CLOEXEC);

	if (left < 0)
		return -1;
	if (unshare(CLONE_NEWNS) != 0 ||
	    mount("none", "/", "none", MS_REC | MS_PRIVATE, NULL) != 0) {
		if (setns(left, CLONE_NEWNS) != 0)
			fail_msg("cannot return to the mount namespace: %s", strerror(errno));
		close(left);
		return -1;
	}
	return left;
}

static void private_mounts_leave(int left)
{
	if (setns(left, CLONE_NEWNS) != 0)
		fail_msg("cannot return to the mount namespace: %s", strerror(errno));
	close(left);
}

/* A bind of a directory below /etc inside the project shows that
 * directory, not /etc: what /etc hides there is hidden at the bind's
 * path below it (and nothing else is looked for there: the run starts).
 * The bind is made in a mount namespace of the test's own. */
static void test_run_etc_part_bound(void **state)
{
	char proj[PATH_MAX], dir[64], part[PATH_MAX + 8], hidden[PATH_MAX + 32];
	/* A result is 1 MiB: not on the stack. */
	static struct result pl;
	struct result *r = &g_res;
	(void)state;
	NEED_LANDLOCK();

	if (geteuid() != 0 || !ns_here()) {
		print_message("needs root (a bind mount) and a mount namespace\n");
		skip();
	}
	int ns_left = private_mounts_enter();

	if (ns_left < 0) {
		print_message("no mount namespace of the test's own\n");
		skip();
	}
	project(proj, sizeof(proj), "etc-part", NULL);
	snprintf(dir, sizeof(dir), "/etc/lf-test-part-%d", (int)getpid());
	snprintf(part, sizeof(part), "%s/part", proj);
	sh("umask 022; mkdir -p %s %s && printf lf-secret > %s/secret && chmod 600 %s/secret && "
	   "printf lf-open > %s/open && mount --bind %s %s",
	   dir, part, dir, dir, dir, dir, part);
	TOOL(&pl, proj, NULL, "plan");
	TOOL(r, proj, NULL, "run", "-q", "--", "sh", "-c", "cat part/secret; cat part/open");
	snprintf(hidden, sizeof(hidden), "hidden     %s/secret", part);
	bool listed = has(pl.out, hidden), leak = has(r->out, "lf-secret");
	bool open_read = has(r->out, "lf-open");
	sh("umount %s; rm -rf %s", part, dir);
	private_mounts_leave(ns_left);
	expect_code(&pl, 0, "plan with a part of /etc bound in the project");
	assert_true(listed);
	assert_false(leak);
	assert_true(open_read);
}

/* The search for git directories after the run sees what a watch of
 * the names made during the run would not (a watch tried and given up:
 * doc/landlock.md): a .git named on a file system mounted below the
 * project, a .git named after more events than the kernel keeps, and a
 * repository mounted into the project during the run, by someone
 * outside. Each run comes after one that made landfence's own places. */
static void test_run_gitdir_report(void **state)
{
	char proj[PATH_MAX], mnt[PATH_MAX + 8];
	/* A result is 1 MiB: not on the stack. */
	static struct result sub, flood, mounted;
	struct result *r = &g_res;
	(void)state;
	NEED_LANDLOCK();

	if (geteuid() != 0) {
		print_message("needs root (mounts)\n");
		skip();
	}
	project(proj, sizeof(proj), "watch", NULL);
	snprintf(mnt, sizeof(mnt), "%s/mnt", proj);
	/* In each: a file naming the git directory g, to be renamed .git. */
	sh("mkdir -p %s && mount -t tmpfs -o size=1m lf-test %s", mnt, mnt);
	sh("for d in %s %s; do printf 'gitdir: g\\n' > $d/gitfile && mkdir $d/g && "
	   "printf 'ref: x\\n' > $d/g/HEAD; done",
	   mnt, proj);
	TOOL(r, proj, NULL, "run", "-q", "--", "true");
	TOOL(&sub, proj, NULL, "run", "--", "mv", "mnt/gitfile", "mnt/.git");
	TOOL(r, proj, NULL, "run", "-q", "--", "true");
	TOOL(&flood, proj, NULL, "run", "--", "sh", "-c",
	     "i=0; while [ $i -lt 17000 ]; do : > f$i; i=$((i+1)); done; rm -f f*; "
	     "mv gitfile .git");
	/* A mount made below the project during the run, by someone
	 * outside, with a git directory in it: the mounts changed. */
	char late[PATH_MAX + 8];
	snprintf(late, sizeof(late), "%s/late", proj);
	sh("mkdir -p %s/late-src/.git %s && printf 'ref: x\\n' > %s/late-src/.git/HEAD", tmp_root,
	   late, tmp_root);
	sh("(sleep 0.3; mount --bind %s/late-src %s) >/dev/null 2>&1 &", tmp_root, late);
	TOOL(&mounted, proj, NULL, "run", "--", "sleep", "1.5");
	sh("umount %s; umount %s", late, mnt);
	expect_code(&mounted, 0, "a mount made during the run");
	assert_true(has(mounted.err, "the program made the git directory") &&
		    has(mounted.err, "/late/.git"));
	expect_code(&sub, 0, "mv in the tmpfs below the project");
	assert_true(has(sub.err, "the program made") && has(sub.err, "/mnt/.git"));
	expect_code(&flood, 0, "17,000 files made, then .git");
	/* The project's own .git is a protection known at launch; what it
	 * names is news. */
	assert_true(has(flood.err, "the program made the git directory") &&
		    has(flood.err, "/watch/g,"));
}

/* `landfence run -- claude` adds the claude profile by itself. */
static void test_run_auto_profile(void **state)
{
	char proj[PATH_MAX], agent[PATH_MAX + 32];
	struct result *r = &g_res;
	(void)state;
	NEED_LANDLOCK();

	project(proj, sizeof(proj), "auto", NULL);
	snprintf(agent, sizeof(agent), "%s/agentbin/claude", tmp_root);
	sh("mkdir -p %s/agentbin %s/.claude && echo claude-state > %s/.claude/x", tmp_root, home,
	   home);
	write_file(agent, "#!/bin/sh\ncat \"$HOME/.claude/x\" && echo ok >> \"$HOME/.claude/x\"\n");
	sh("chmod 755 %s", agent);
	TOOL(r, proj, NULL, "run", "--", agent);
	expect_code(r, 0, "a fake claude reads ~/.claude");
	assert_true(has(r->out, "claude-state"));
	assert_true(has(r->err, "added --profile claude"));
	/* -q hides the notice, not the profile. */
	TOOL(r, proj, NULL, "run", "-q", "--", agent);
	expect_code(r, 0, "the same with -q");
	assert_false(has(r->err, "added --profile"));
	/* Another name gets no profile. */
	snprintf(agent, sizeof(agent), "%s/agentbin/claudette", tmp_root);
	write_file(agent, "#!/bin/sh\ncat \"$HOME/.claude/x\"\n");
	sh("chmod 755 %s", agent);
	TOOL(r, proj, NULL, "run", "-q", "--", agent);
	assert_int_not_equal(r->code, 0);
}

/* Small usage errors say what to do. */
static void test_cli_usage_messages(void **state)
{
	char proj[PATH_MAX];
	struct result *r = &g_res;
	(void)state;

	project(proj, sizeof(proj), "usage", NULL);
	TOOL(r, proj, NULL, "run", "--profile", "clippy", "--", "true");
	expect_code(r, 2, "unknown profile");
	assert_true(has(r->err, "unknown profile \"clippy\", expected one of claude, codex, "
				"gemini, aider"));
	assert_false(has(r->err, "invalid policy"));
	TOOL(r, proj, NULL, "plan", "--json", "--tree");
	expect_code(r, 2, "plan --json --tree");
	TOOL(r, proj, NULL, "-C", ".", "plan");
	expect_code(r, 2, "options before the command");
	assert_true(has(r->err, "landfence plan -C ."));
	assert_false(has(r->err, "unknown command"));
	/* The tool, the library and the header agree on the version. */
	int major = -1, minor = -1, patch = -1;
	assert_string_equal(lf_version(&major, &minor, &patch), LANDFENCE_VERSION_STRING);
	assert_int_equal(major, LANDFENCE_VERSION_MAJOR);
	assert_int_equal(minor, LANDFENCE_VERSION_MINOR);
	assert_int_equal(patch, LANDFENCE_VERSION_PATCH);
	TOOL(r, proj, NULL, "--version");
	expect_code(r, 0, "--version");
	assert_string_equal(r->out, "landfence " LANDFENCE_VERSION_STRING "\n");
}

/* plan's dropped list: a default host path missing on this machine is not
 * news; a missing path the policy names is. */
static void test_plan_dropped_missing(void **state)
{
	char proj[PATH_MAX];
	struct result *r = &g_res;
	json_error_t e;
	(void)state;

	project(proj, sizeof(proj), "dropped",
		"{\"version\": 1, \"fallback\": \"ask\", \"rules\": [], "
		"\"host\": {\"read\": [\"/no-such-lf-dir\"]}}");
	TOOL(r, proj, NULL, "plan", "--json");
	expect_code(r, 0, "plan --json");
	json_t *j = json_loads(r->out, 0, &e);
	assert_non_null(j);
	json_t *dropped = json_object_get(j, "dropped");
	size_t i;
	json_t *d;
	bool policy_missing = false;
	json_array_foreach(dropped, i, d)
	{
		const char *origin = json_string_value(json_object_get(d, "origin"));
		const char *path = json_string_value(json_object_get(d, "path"));
		if (origin && !strcmp(origin, "host"))
			fail_msg("default host path listed as dropped: %s", path);
		if (path && !strcmp(path, "/no-such-lf-dir"))
			policy_missing = true;
	}
	assert_true(policy_missing);
	json_decref(j);
	/* The text view agrees. */
	TOOL(r, proj, NULL, "plan");
	assert_false(has(r->out, "/libx32"));
	assert_true(has(r->out, "/no-such-lf-dir"));
}

/* ---- run: exit statuses ---- */

static void test_run_exit_statuses(void **state)
{
	char proj[PATH_MAX];
	struct result *r = &g_res;
	(void)state;
	NEED_LANDLOCK();

	project(proj, sizeof(proj), "exits", NULL);
	sh("printf 'echo hi\\n' > %s/noexec.sh && chmod 644 %s/noexec.sh && mkdir %s/adir", proj,
	   proj, proj);
	static const struct {
		const char *argv[4];
		int code;
	} cases[] = {
		{ { "sh", "-c", "exit 0" }, 0 },
		{ { "sh", "-c", "exit 1" }, 1 },
		{ { "sh", "-c", "exit 77" }, 77 },
		{ { "sh", "-c", "kill -TERM $$" }, 128 + 15 },
		{ { "sh", "-c", "kill -KILL $$" }, 128 + 9 },
		{ { "sh", "-c", "kill -INT $$" }, 128 + 2 },
		{ { "./noexec.sh" }, 126 },
		{ { "./adir" }, 126 },
		{ { "no-such-program-lf" }, 127 },
		{ { "./no-such-file" }, 127 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *argv[8] = { "run", "--" };
		size_t n = 2;
		for (size_t j = 0; j < 4 && cases[i].argv[j]; j++)
			argv[n++] = cases[i].argv[j];
		argv[n] = NULL;
		tool(r, proj, NULL, 0, argv);
		char what[128];
		snprintf(what, sizeof(what), "case %zu (%s)", i, cases[i].argv[0]);
		expect_code(r, cases[i].code, what);
	}
	/* Without "--" too; the command's own options stay its own. */
	TOOL(r, proj, NULL, "run", "sh", "-c", "exit 5");
	expect_code(r, 5, "run without --");
	/* Usage errors. */
	TOOL(r, proj, NULL, "run");
	expect_code(r, 2, "run with no command");
	TOOL(r, proj, NULL, "run", "--no-such-option", "--", "true");
	expect_code(r, 2, "run with a bad option");
}

/* ---- run: the embedded default ---- */

static void test_run_embedded_default(void **state)
{
	char proj[PATH_MAX], script[4096];
	struct result *r = &g_res;
	(void)state;
	NEED_LANDLOCK();

	project(proj, sizeof(proj), "default", NULL);
	static const struct {
		const char *script; /* @H@ = home */
		int code;
		const char *err;
	} cases[] = {
		{ "echo inside > written.txt && cat written.txt", 0, NULL },
		{ "mkdir -p a/b && echo x > a/b/c && rm -r a", 0, NULL },
		{ "cat @H@/secret.txt", 1, "Permission denied" },
		{ "cat @H@/.ssh/id_test", 1, "Permission denied" },
		{ "ls @H@", 2, "Permission denied" },
		{ "echo x > @H@/new", 2, "Permission denied" },
		{ "cat /etc/hostname > /dev/null", 0, NULL },
		/* Seen as others see it, /etc is a read-only mount: EROFS. */
		{ "echo x > /etc/lf-test-should-not-exist", 2, "@REFUSED@" },
		{ "echo x > /tmp/lf-test-escape-$$", 2, "Permission denied" },
		{ "echo x > \"$TMPDIR/t\" && cat \"$TMPDIR/t\"", 0, NULL },
		{ "ls /root > /dev/null", 2, "Permission denied" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *s = cases[i].script, *at = strstr(s, "@H@");
		if (at)
			snprintf(script, sizeof(script), "%.*s%s%s", (int)(at - s), s, home,
				 at + 3);
		else
			snprintf(script, sizeof(script), "%s", s);
		TOOL(r, proj, NULL, "run", "--", "sh", "-c", script);
		char what[4200];
		snprintf(what, sizeof(what), "`%s`", script);
		expect_code(r, cases[i].code, what);
		if (cases[i].err && !strcmp(cases[i].err, "@REFUSED@")) {
			if (!refused(r->err))
				fail_msg("%s: not refused by the kernel: %s", what, r->err);
		} else if (cases[i].err && !strstr(r->err, cases[i].err)) {
			fail_msg("%s: stderr lacks '%s': %s", what, cases[i].err, r->err);
		}
	}
	assert_false(exists("/etc/lf-test-should-not-exist"));
}

/* ---- run: policies, fences and symlinks ---- */

static void test_run_policies(void **state)
{
	char proj[PATH_MAX];
	struct result *r = &g_res;
	(void)state;
	NEED_LANDLOCK();

	static const struct {
		const char *policy;
		const char *script;
		int code;
	} cases[] = {
	/* Reads and writes granted and refused as planned. */
#define P1                                                                             \
	"{\"version\": 1, \"fallback\": \"deny\", \"rules\": ["                        \
	"{\"effect\": \"allow\", \"capability\": \"read\", \"paths\": [\"docs/**\"]}," \
	"{\"effect\": \"allow\", \"capability\": \"write\", \"paths\": [\"out/**\"]}]}"
		{ P1, "cat docs/a", 0 },
		{ P1, "echo x > out/new", 0 },
		{ P1, "echo x > docs/new", 2 },
		{ P1, "cat out/o", 1 }, /* write does not imply read */
		{ P1, "cat src/a", 1 },
		{ P1, "ls .", 2 },
	/* Seed: an allow read of src with a deny read of src/secret
		 * leaves src unreadable. */
#define P2                                                                                         \
	"{\"version\": 1, \"fallback\": \"deny\", \"rules\": ["                                    \
	"{\"effect\": \"allow\", \"capability\": \"read\", \"paths\": [\"src/**\", \"docs/**\"]}," \
	"{\"effect\": \"deny\", \"capability\": \"read\", \"paths\": [\"src/secret/**\"]}]}"
		{ P2, "cat src/a", 1 }, /* 0 with a mount namespace: see below */
		{ P2, "cat src/secret/k", 1 },
		{ P2, "cat docs/a", 0 },
		/* A symlink inside a granted tree to the fenced place reads
		 * nothing. */
		{ P2, "cat docs/to-secret/k", 1 },
		{ P2, "cat docs/to-home/secret.txt", 1 },
	/* Seed: a deny write never blocks a read. */
#define P3                                                                             \
	"{\"version\": 1, \"fallback\": \"deny\", \"rules\": ["                        \
	"{\"effect\": \"allow\", \"capability\": \"read\", \"paths\": [\"**\"]},"      \
	"{\"effect\": \"allow\", \"capability\": \"write\", \"paths\": [\"out/**\"]}," \
	"{\"effect\": \"deny\", \"capability\": \"write\", \"paths\": [\"docs/**\"]}]}"
		{ P3, "cat docs/a", 0 },
		{ P3, "echo x > docs/a", 2 },
		{ P3, "echo x > out/new && cat out/new", 0 },
	/* A symlinked allow root is resolved before fencing: "alias"
		 * points into the fenced src/secret. */
#define P4                                                                             \
	"{\"version\": 1, \"fallback\": \"deny\", \"rules\": ["                        \
	"{\"effect\": \"allow\", \"capability\": \"read\", \"paths\": [\"alias/**\", " \
	"\"docs/**\"]},"                                                               \
	"{\"effect\": \"deny\", \"capability\": \"read\", \"paths\": [\"src/secret/**\"]}]}"
		{ P4, "cat alias/k", 1 },
		{ P4, "cat docs/a", 0 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		project(proj, sizeof(proj), "pol", cases[i].policy);
		sh("cd %s && mkdir -p docs out src/secret && echo d > docs/a && echo o > out/o && "
		   "echo s > src/a && echo k > src/secret/k && ln -s ../src/secret docs/to-secret "
		   "&& "
		   "ln -s %s docs/to-home && ln -s src/secret alias",
		   proj, home);
		TOOL(r, proj, NULL, "run", "--", "sh", "-c", cases[i].script);
		char what[256];
		snprintf(what, sizeof(what), "case %zu `%s`", i, cases[i].script);
		/* With masks src/secret is hidden and src keeps its grant. */
		int want = cases[i].code;
		if (!strcmp(cases[i].policy, P2) && !strcmp(cases[i].script, "cat src/a") &&
		    ns_here())
			want = 0;
		expect_code(r, want, what);
		if (want && !refused(r->err))
			fail_msg("%s: not refused by the kernel: %s", what, r->err);
		if (strstr(cases[i].script, "/k"))
			assert_false(has(r->out, "k\n"));
	}
}

/* ---- run: sh, python3, git ---- */

static void test_run_programs(void **state)
{
	char proj[PATH_MAX], p[PATH_MAX + 32];
	struct result *r = &g_res;
	(void)state;
	NEED_LANDLOCK();

	snprintf(proj, sizeof(proj), "%s/gitproj", tmp_root);
	sh("rm -rf %s && mkdir -p %s", proj, proj);
	const char *extra[] = { "GIT_CONFIG_NOSYSTEM=1", NULL };
	tool(r, proj, extra, 0,
	     (const char *const[]){ "run", "-C", proj, "--", "sh", "-c",
				    "git init -q . && echo hello > a.txt && git add a.txt && "
				    "git -c user.name=Test -c user.email=test@example.com "
				    "commit -q -m first && git log --oneline | grep -q first && "
				    "git status --short",
				    NULL });
	expect_code(r, 0, "git init/add/commit");
	snprintf(p, sizeof(p), "%s/.git/HEAD", proj);
	assert_true(exists(p));

	tool(r, proj, NULL, 0,
	     (const char *const[]){ "run", "-C", proj, "--", "python3", "-c",
				    "import os, tempfile\n"
				    "open('py.txt', 'w').write('ok')\n"
				    "with tempfile.NamedTemporaryFile() as f: f.write(b'x')\n"
				    "try:\n"
				    "    open(os.environ['HOME'] + '/secret.txt').read()\n"
				    "    raise SystemExit(3)\n"
				    "except PermissionError:\n"
				    "    pass\n",
				    NULL });
	expect_code(r, 0, "python3");
	snprintf(p, sizeof(p), "%s/py.txt", proj);
	assert_true(exists(p));

	tool(r, proj, NULL, 0,
	     (const char *const[]){ "run", "-C", proj, "--", "sh", "-c",
				    "for i in 1 2 3; do echo $i; done | wc -l | grep -q 3", NULL });
	expect_code(r, 0, "sh pipeline");
}

/* ---- run: Landlock ABI caps ---- */

#define WRITE_FENCE(fallback)                                                          \
	"{\"version\": 1, \"fallback\": \"" fallback "\", \"rules\": ["                \
	"{\"effect\": \"allow\", \"capability\": \"read\", \"paths\": [\"**\"]},"      \
	"{\"effect\": \"allow\", \"capability\": \"write\", \"paths\": [\"out/**\"]}," \
	"{\"effect\": \"deny\", \"capability\": \"write\", \"paths\": [\"locked/**\"]}]}"

static void test_run_abi_cap(void **state)
{
	char proj[PATH_MAX], marker[PATH_MAX + 32];
	struct result *r = &g_res;
	(void)state;
	NEED_LANDLOCK();

	/* ABI 2 lacks truncate: Degraded under fallback ask, and it runs. */
	project(proj, sizeof(proj), "abi-ask", WRITE_FENCE("ask"));
	sh("mkdir -p %s/out %s/locked", proj, proj);
	snprintf(marker, sizeof(marker), "%s/out/marker", proj);
	const char *cap2[] = { "LANDFENCE_ABI_MAX=2", NULL };
	TOOL(r, proj, cap2, "run", "--", "sh", "-c", "touch out/marker");
	expect_code(r, 0, "ABI 2, fallback ask");
	assert_non_null(strstr(r->err, "DEGRADED"));
	assert_non_null(strstr(r->err, "truncate"));
	assert_true(exists(marker));

	/* Under fallback deny: KernelTooOld, 125, and nothing runs. */
	project(proj, sizeof(proj), "abi-deny", WRITE_FENCE("deny"));
	sh("mkdir -p %s/out %s/locked", proj, proj);
	snprintf(marker, sizeof(marker), "%s/out/marker", proj);
	TOOL(r, proj, cap2, "run", "--", "sh", "-c", "touch out/marker");
	expect_code(r, 125, "ABI 2, fallback deny");
	assert_non_null(strstr(r->err, "kernel too old"));
	assert_false(exists(marker));
	TOOL(r, proj, cap2, "plan");
	expect_code(r, 0, "plan at ABI 2, fallback deny");
	assert_non_null(strstr(r->out, "kernel-too-old"));

	/* No Landlock at all: Unsupported, loud, and it runs (fallback ask). */
	project(proj, sizeof(proj), "abi-none", WRITE_FENCE("ask"));
	sh("mkdir -p %s/out %s/locked", proj, proj);
	snprintf(marker, sizeof(marker), "%s/out/marker", proj);
	const char *cap0[] = { "LANDFENCE_ABI_MAX=0", NULL };
	TOOL(r, proj, cap0, "run", "--", "sh", "-c", "touch out/marker");
	expect_code(r, 0, "ABI 0, fallback ask");
	assert_non_null(strstr(r->err, "WITHOUT"));
	assert_true(exists(marker));
	TOOL(r, proj, cap0, "plan", "--json");
	expect_code(r, 0, "plan --json at ABI 0");
	assert_non_null(strstr(r->out, "\"unsupported\""));

	/* ... and under fallback deny (the embedded default) it refuses. */
	project(proj, sizeof(proj), "abi-none-deny", NULL);
	snprintf(marker, sizeof(marker), "%s/marker", proj);
	TOOL(r, proj, cap0, "run", "--", "sh", "-c", "touch marker");
	expect_code(r, 125, "ABI 0, fallback deny");
	assert_false(exists(marker));
}

/* ---- run: hardening ---- */

static void test_run_tiocsti(void **state)
{
	char proj[PATH_MAX], probe[PATH_MAX];
	struct result *r = &g_res;
	const char *bd = getenv("LANDFENCE_BUILDDIR");
	(void)state;
	NEED_LANDLOCK();

	assert_non_null(bd);
	snprintf(probe, sizeof(probe), "%s/tests/launch/launch-probe", bd);
	project(proj, sizeof(proj), "tty", NULL);
	int master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
	assert_true(master >= 0);
	assert_int_equal(grantpt(master), 0);
	assert_int_equal(unlockpt(master), 0);
	const char *pts = ptsname(master);
	assert_non_null(pts);
	TOOL(r, proj, NULL, "run", "--", probe, "tiocsti", pts);
	expect_code(r, 0, "TIOCSTI refused in the sandbox");
	close(master);
}

static void test_run_fds_closed(void **state)
{
	char proj[PATH_MAX], probe[PATH_MAX];
	struct result *r = &g_res;
	const char *bd = getenv("LANDFENCE_BUILDDIR");
	(void)state;
	NEED_LANDLOCK();

	snprintf(probe, sizeof(probe), "%s/tests/launch/launch-probe", bd);
	project(proj, sizeof(proj), "fds", NULL);
	tool(r, proj, NULL, LEAK_FD,
	     (const char *const[]){ "run", "--", probe, "closed", "9", NULL });
	expect_code(r, 0, "descriptor 9 closed in the child");
	/* The control: the same probe outside the sandbox sees it open. */
	char cmd[PATH_MAX + 64];
	snprintf(cmd, sizeof(cmd), "%s closed 9 9</etc/hostname >/dev/null", probe);
	assert_int_not_equal(system(cmd), 0);
	tool(r, proj, NULL, LEAK_FD,
	     (const char *const[]){ "run", "--", "sh", "-c",
				    "ls /proc/self/fd | sort -n | tr '\\n' ' '", NULL });
	expect_code(r, 0, "ls /proc/self/fd");
	/* ls sees 0, 1, 2 and the directory it reads: nothing inherited. */
	assert_null(strstr(r->out, " 9 "));
}

static void test_run_env_scrub(void **state)
{
	char proj[PATH_MAX];
	struct result *r = &g_res;
	(void)state;
	NEED_LANDLOCK();

	project(proj, sizeof(proj), "env",
		"{\"version\": 1, \"fallback\": \"deny\", \"rules\": ["
		"{\"effect\": \"allow\", \"capability\": \"read\", \"paths\": [\"**\"]},"
		"{\"effect\": \"allow\", \"capability\": \"write\", \"paths\": [\"**\"]}],"
		"\"env\": {\"unset\": [\"API_TOKEN\"], \"keep\": [\"DISPLAY\"]}}");
	const char *extra[] = { "SSH_AUTH_SOCK=/run/user/0/agent",
				"DBUS_SESSION_BUS_ADDRESS=x",
				"GPG_AGENT_INFO=y",
				"XDG_RUNTIME_DIR=/run/user/0",
				"DISPLAY=:7",
				"API_TOKEN=s3cr3t",
				"OTHER=kept",
				NULL };
	TOOL(r, proj, extra, "run", "--", "sh", "-c",
	     "test -z \"${SSH_AUTH_SOCK+x}\" && test -z \"${DBUS_SESSION_BUS_ADDRESS+x}\" && "
	     "test -z \"${GPG_AGENT_INFO+x}\" && test -z \"${XDG_RUNTIME_DIR+x}\" && "
	     "test -z \"${API_TOKEN+x}\" && test \"$DISPLAY\" = :7 && test \"$OTHER\" = kept");
	expect_code(r, 0, "environment scrub");
}

static void test_run_tmpdir(void **state)
{
	char proj[PATH_MAX], p[PATH_MAX + 32];
	struct result *r = &g_res;
	(void)state;
	NEED_LANDLOCK();

	project(proj, sizeof(proj), "tmpdir", NULL);
	TOOL(r, proj, NULL, "run", "--", "sh", "-c",
	     "test -d \"$TMPDIR\" && test \"$(stat -c %a \"$TMPDIR\")\" = 700 && "
	     "mkdir -p \"$TMPDIR/a/b\" && echo x > \"$TMPDIR/a/b/f\" && "
	     "ln -s \"$PWD\" \"$TMPDIR/link\" && printf %s \"$TMPDIR\" > tmpdir.txt");
	expect_code(r, 0, "TMPDIR during the run");
	snprintf(p, sizeof(p), "%s/tmpdir.txt", proj);
	FILE *f = fopen(p, "r");
	assert_non_null(f);
	char dir[PATH_MAX] = "";
	assert_non_null(fgets(dir, sizeof(dir), f));
	fclose(f);
	assert_true(dir[0] == '/');
	assert_false(exists(dir));
	/* The symlink was removed, not followed. */
	assert_true(exists(p));
}

/* Root keeps no capability that reaches past the file system, and the
 * program cannot read landfence's own /proc entries. */
static void test_run_caps_and_parent(void **state)
{
	char proj[PATH_MAX], probe[PATH_MAX];
	struct result *r = &g_res;
	const char *bd = getenv("LANDFENCE_BUILDDIR");
	(void)state;
	NEED_LANDLOCK();

	snprintf(probe, sizeof(probe), "%s/tests/launch/launch-probe", bd);
	project(proj, sizeof(proj), "caps", NULL);
	TOOL(r, proj, NULL, "run", "--", probe, "caps");
	expect_code(r, 0, "dangerous capabilities dropped");
	const char *extra[] = { "SSH_AUTH_SOCK=/run/user/0/keyring/ssh", NULL };
	TOOL(r, proj, extra, "run", "--", probe, "parent-environ");
	expect_code(r, 0, "landfence's /proc/PID/environ is out of reach");
}

/* A SIGTERM sent to landfence by another process reaches the program. */
static void test_run_signal_forwarding(void **state)
{
	char proj[PATH_MAX], marker[PATH_MAX + 16];
	(void)state;
	NEED_LANDLOCK();

	project(proj, sizeof(proj), "signals", NULL);
	snprintf(marker, sizeof(marker), "%s/started", proj);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		char home_env[400];
		snprintf(home_env, sizeof(home_env), "HOME=%s", home);
		char *env[] = { "PATH=/usr/local/bin:/usr/bin:/bin", home_env, NULL };
		if (chdir(proj) < 0)
			_exit(121);
		execve(bin,
		       (char *[]){ (char *)bin, "run", "--", "sh", "-c",
				   "trap 'exit 7' TERM; : > started; while :; do sleep 0.05; done",
				   NULL },
		       env);
		_exit(124);
	}
	/* Wait until the program runs (bounded: 60 s). */
	for (int i = 0; i < 6000 && !exists(marker); i++)
		usleep(10000);
	assert_true(exists(marker));
	assert_int_equal(kill(pid, SIGTERM), 0);
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	/* The program's TERM trap ran: the signal was forwarded to it. */
	assert_int_equal(WEXITSTATUS(st), 7);
}

static void test_run_bad_profile(void **state)
{
	char proj[PATH_MAX];
	struct result *r = &g_res;
	(void)state;

	project(proj, sizeof(proj), "profile", NULL);
	TOOL(r, proj, NULL, "run", "--profile", "no-such-agent", "--", "true");
	expect_code(r, 2, "unknown profile");
}

/* A second name of a fenced file inside a grant: Landlock cannot tell it
 * apart, so run refuses under fallback deny and warns otherwise; plan
 * names it. */
#define HARDLINK_POLICY(fallback)                                                     \
	"{\"version\": 1, \"fallback\": \"" fallback "\", \"rules\": ["               \
	"{\"effect\": \"allow\", \"capability\": \"read\", \"paths\": [\"src/**\"]}," \
	"{\"effect\": \"deny\", \"capability\": \"read\", \"paths\": [\"secret/**\"]}]}"

static void test_run_hardlink(void **state)
{
	char proj[PATH_MAX], marker[PATH_MAX + 16], link[PATH_MAX + 16];
	struct result *r = &g_res;
	(void)state;
	NEED_LANDLOCK();

	project(proj, sizeof(proj), "hardlink-deny", HARDLINK_POLICY("deny"));
	sh("mkdir -p %s/src %s/secret && echo KEY > %s/secret/key && ln %s/secret/key "
	   "%s/src/innocent",
	   proj, proj, proj, proj, proj);
	snprintf(marker, sizeof(marker), "%s/ran", proj);
	snprintf(link, sizeof(link), "%s/src/innocent", proj);
	TOOL(r, proj, NULL, "run", "--", "sh", "-c", "touch ran; cat src/innocent");
	if (ns_here()) {
		/* Masked at the link's own name: the run goes ahead, the
		 * link shows nothing. */
		assert_int_not_equal(r->code, 125);
		assert_null(strstr(r->out, "KEY"));
	} else {
		expect_code(r, 125, "hard link under fallback deny");
		assert_non_null(strstr(r->err, link));
		assert_false(exists(marker));
	}
	TOOL(r, proj, NULL, "plan");
	expect_code(r, 0, "plan with a hard link");
	assert_non_null(strstr(r->out, link));
	if (ns_here())
		return;

	project(proj, sizeof(proj), "hardlink-ask", HARDLINK_POLICY("ask"));
	sh("mkdir -p %s/src %s/secret && echo KEY > %s/secret/key && ln %s/secret/key "
	   "%s/src/innocent",
	   proj, proj, proj, proj, proj);
	snprintf(link, sizeof(link), "%s/src/innocent", proj);
	TOOL(r, proj, NULL, "run", "--", "sh", "-c", "cat src/innocent; cat secret/key");
	/* It runs; Landlock cannot refuse the second name, the fence holds. */
	expect_code(r, 1, "hard link under fallback ask");
	assert_non_null(strstr(r->err, "WARNING"));
	assert_non_null(strstr(r->err, link));
	assert_non_null(strstr(r->out, "KEY"));
	assert_non_null(strstr(r->err, "Permission denied"));
}

/* A hard-link scan that cannot finish (here: a fenced tree deeper than the
 * walk's 64-level bound) may have missed a link: under fallback deny
 * nothing runs; under ask it is a note and the program runs. */
static void test_run_hardlink_scan_incomplete(void **state)
{
	char proj[PATH_MAX], marker[PATH_MAX + 16];
	struct result *r = &g_res;
	(void)state;
	NEED_LANDLOCK();

	/* A directory below the fence that the scan cannot open (file modes
	 * bind root too without CAP_DAC_OVERRIDE): a link could hide there,
	 * so under fallback deny nothing runs. */
	project(proj, sizeof(proj), "hardlink-unreadable-deny", HARDLINK_POLICY("deny"));
	sh("mkdir -p %s/src %s/secret/hidden && echo KEY > %s/secret/hidden/key && "
	   "chmod 000 %s/secret/hidden",
	   proj, proj, proj, proj);
	snprintf(marker, sizeof(marker), "%s/ran", proj);
	tool(r, proj, NULL, NO_DAC,
	     (const char *const[]){ "run", "--", "sh", "-c", "touch ran", NULL });
	expect_code(r, 125, "incomplete hard-link scan under fallback deny");
	assert_non_null(strstr(r->err, "incomplete"));
	assert_non_null(strstr(r->err, "secret/hidden"));
	assert_false(exists(marker));

	project(proj, sizeof(proj), "hardlink-unreadable-ask", HARDLINK_POLICY("ask"));
	sh("mkdir -p %s/src %s/secret/hidden && chmod 000 %s/secret/hidden", proj, proj, proj);
	/* Nothing is writable under this policy: the program proves it ran
	 * by its exit status. */
	tool(r, proj, NULL, NO_DAC,
	     (const char *const[]){ "run", "--", "sh", "-c", "exit 7", NULL });
	expect_code(r, 7, "incomplete hard-link scan under fallback ask");
	assert_non_null(strstr(r->err, "incomplete"));

	/* Depth is no limit: a fence 70 levels deep (the old walk stopped at
	 * 64) is scanned whole, and the run goes ahead. */
	project(proj, sizeof(proj), "hardlink-deep-deny", HARDLINK_POLICY("deny"));
	sh("mkdir -p %s/src && cd %s && mkdir secret && cd secret && "
	   "for i in $(seq 70); do mkdir d && cd d || exit 1; done && echo KEY > key",
	   proj, proj);
	TOOL(r, proj, NULL, "run", "--", "sh", "-c", "exit 7");
	expect_code(r, 7, "a deep fence, scanned whole");
	assert_null(strstr(r->err, "incomplete"));
}

/* ---- policy errors ---- */

static void test_run_malformed_policy(void **state)
{
	char proj[PATH_MAX], bad[PATH_MAX + 32], marker[PATH_MAX + 32];
	struct result *r = &g_res;
	(void)state;

	project(proj, sizeof(proj), "bad", NULL);
	snprintf(bad, sizeof(bad), "%s/bad.json", proj);
	snprintf(marker, sizeof(marker), "%s/marker", proj);
	static const char *const docs[] = {
		"{\n  \"version\": 1,\n  \"fallback\": \"sometimes\"\n}\n",
		"{\n  \"version\": 1,\n  \"rules\": [ { \"effect\": \"allow\", \"capability\": "
		"\"read\", \"pathz\": [\"**\"] } ]\n}\n",
		"{\n  \"version\": 1,\n  \"rules\": [\n",
	};
	for (size_t i = 0; i < sizeof(docs) / sizeof(docs[0]); i++) {
		write_file(bad, docs[i]);
		TOOL(r, proj, NULL, "run", "-p", bad, "--", "sh", "-c", "touch marker");
		expect_code(r, 2, "malformed policy");
		assert_false(exists(marker));
		/* FILE:LINE:COLUMN: message */
		char *at = strstr(r->err, "bad.json:");
		if (!at)
			fail_msg("no FILE:LINE:COLUMN in: %s", r->err);
		unsigned line = 0, col = 0;
		if (sscanf(at, "bad.json:%u:%u:", &line, &col) != 2 || line == 0)
			fail_msg("no FILE:LINE:COLUMN in: %s", r->err);
		TOOL(r, proj, NULL, "plan", "-p", bad);
		expect_code(r, 2, "plan with a malformed policy");
	}
}

/* ---- precise denies (doc/landlock.md, "Masks") ---- */

#define PRECISE_POLICY                                                                             \
	"{\"version\": 1, \"fallback\": \"deny\", \"rules\": ["                                    \
	"{\"effect\": \"allow\", \"capability\": \"read\", \"paths\": [\"**\"]},"                  \
	"{\"effect\": \"allow\", \"capability\": \"write\", \"paths\": [\"**\"]},"                 \
	"{\"effect\": \"allow\", \"capability\": \"delete\", \"paths\": [\"**\"]},"                \
	"{\"effect\": \"deny\", \"capability\": \"read\", \"paths\": [\".env\", \"secrets/**\"]}," \
	"{\"effect\": \"deny\", \"capability\": \"write\", \"paths\": [\".git/hooks/**\", "        \
	"\".git/config\"]}]}"

#define GIT_ID "-c user.name=t -c user.email=t@example.com"
#define TMP_ROOT_MARK "@SUBREPO@"

/* The issue's scenario, at the kernel's ABI and capped at 3: with a mount
 * namespace the project is read, listed, grown and committed to while
 * every denied thing is refused; without one (LANDFENCE_NO_NAMESPACES=1)
 * the seed's drop holds and nothing denied leaks either. */
static void test_precise_denies(void **state)
{
	static const char *const abis[] = { NULL, "LANDFENCE_ABI_MAX=3" };
	static const struct {
		const char *script;
		const char *leak; /* must not be in stdout */
	} denied[] = {
		{ "cat .env", "SECRET" },
		{ "cat secrets/k", "KEYDATA" },
		{ "cp .env x && cat x", "SECRET" },
		{ "cat secrets/* .env 2>/dev/null; ls -A secrets", "KEYDATA" },
		{ "echo evil >> .git/config", NULL },
		{ "echo evil > .git/hooks/pre-commit", NULL },
		{ "rm .git/hooks/post-update", NULL },
		{ "mv .git .gitx && mkdir -p .git/hooks && echo evil > .git/hooks/pre-commit",
		  NULL },
		{ "mv .git/hooks .git/h2 && mkdir .git/hooks", NULL },
	};
	char proj[PATH_MAX], p[PATH_MAX + 64];
	struct result *r = &g_res;
	(void)state;
	NEED_LANDLOCK();

	bool ns = ns_here();
	for (size_t a = 0; a < sizeof(abis) / sizeof(abis[0]); a++) {
		/* check answers for a run that accepted the missing scopes. */
		const char *extra[] = { abis[a], "LANDFENCE_ALLOW_UNSCOPED=1", NULL };

		project(proj, sizeof(proj), "precise", PRECISE_POLICY);
		sh("cd %s && mkdir -p src secrets && echo 'int a;' > src/a.c && echo SECRET=1 > "
		   ".env "
		   "&& echo KEYDATA > secrets/k && echo readme > README && git init -q . && "
		   "echo '#!/bin/sh' > .git/hooks/post-update && git add src README && git " GIT_ID
		   " commit -qm first",
		   proj);
		/* The project works. */
		TOOL(r, proj, extra, "run", "-q", "--allow-unscoped", "--", "sh", "-c",
		     "cat README && ls >/dev/null && echo top > newtop && mkdir newdir && "
		     "echo x > newdir/f && git add newtop newdir && git " GIT_ID
		     " commit -qm second && git log --oneline | wc -l");
		if (ns) {
			expect_code(r, 0, "read, list, create and commit in the project");
			assert_true(has(r->out, "readme"));
			assert_true(has(r->out, "2"));
		} else {
			assert_int_not_equal(r->code, 0);
			assert_true(refused(r->err));
		}
		/* Everything denied is refused, and nothing of it shows. */
		for (size_t i = 0; i < sizeof(denied) / sizeof(denied[0]); i++) {
			TOOL(r, proj, extra, "run", "-q", "--allow-unscoped", "--", "sh", "-c",
			     denied[i].script);
			if (denied[i].leak && has(r->out, denied[i].leak))
				fail_msg("`%s` leaked: %s", denied[i].script, r->out);
			if (!denied[i].leak && r->code == 0)
				fail_msg("`%s` was not refused", denied[i].script);
		}
		snprintf(p, sizeof(p), "%s/.git/config", proj);
		FILE *f = fopen(p, "re");
		char cfg[4096] = "";
		assert_non_null(f);
		assert_true(fread(cfg, 1, sizeof(cfg) - 1, f) > 0);
		fclose(f);
		assert_false(has(cfg, "evil"));
		snprintf(p, sizeof(p), "%s/.git/hooks/pre-commit", proj);
		assert_false(exists(p));
		snprintf(p, sizeof(p), "%s/.git/hooks/post-update", proj);
		assert_true(exists(p));
		snprintf(p, sizeof(p), "%s/.gitx", proj);
		assert_false(exists(p));

		/* A hard link to .env planted before launch: masked at its own
		 * name, or (without a namespace) the run is refused. */
		sh("cd %s && ln .env innocent", proj);
		TOOL(r, proj, extra, "run", "-q", "--allow-unscoped", "--", "sh", "-c",
		     "cat innocent; echo ran");
		assert_false(has(r->out, "SECRET"));
		if (ns)
			assert_true(has(r->out, "ran"));
		else /* no grant reaches it here: refused by the kernel */
			assert_true(r->code == 125 || refused(r->err));
		sh("rm %s/innocent", proj);

		/* The advisory side agrees with the kernel. */
		TOOL(r, proj, extra, "check", "read", "src/a.c");
		expect_code(r, ns ? 0 : 1, "check read src/a.c");
		TOOL(r, proj, extra, "check", "read", ".env");
		expect_code(r, 1, "check read .env");
		TOOL(r, proj, extra, "check", "write", ".git/hooks/pre-commit");
		expect_code(r, 1, "check write .git/hooks/pre-commit");
		TOOL(r, proj, extra, "plan", "--allow-unscoped");
		expect_code(r, 0, "plan");
		assert_true(has(r->out, ns ? "mount namespace: yes" : "mount namespace: no"));
	}
}

/* git as an agent uses it, under the embedded default: init, commit,
 * stash, rebase, a worktree inside the project, work in a submodule;
 * with a mount namespace every git directory's hooks and config stay
 * read-only meanwhile (git needs neither to do this work), and adding a
 * submodule, which writes .git/config, needs the protection lifted. */
static void test_git_workflows_default(void **state)
{
	char proj[PATH_MAX], subrepo[PATH_MAX], lift[PATH_MAX + 32], env_git[PATH_MAX + 64];
	struct result *r = &g_res;
	(void)state;
	NEED_LANDLOCK();

	bool ns = ns_here();
	/* git config of its own for the run: no ~/.gitconfig to rely on. */
	snprintf(env_git, sizeof(env_git), "GIT_CONFIG_GLOBAL=/dev/null");
	const char *extra[] = { env_git,
				"GIT_AUTHOR_NAME=t",
				"GIT_AUTHOR_EMAIL=t@example.com",
				"GIT_COMMITTER_NAME=t",
				"GIT_COMMITTER_EMAIL=t@example.com",
				NULL };
	project(proj, sizeof(proj), "gitflow", NULL);
	TOOL(r, proj, extra, "run", "-q", "--", "sh", "-c",
	     "git init -q -b main . && echo a > a && git add a && git commit -qm a");
	expect_code(r, 0, "git init and a first commit");

	/* A submodule, made outside the sandbox. */
	snprintf(subrepo, sizeof(subrepo), "%s/subrepo", tmp_root);
	sh("rm -rf %s && git init -q -b main %s && cd %s && echo s > s && git add s && "
	   "git " GIT_ID " commit -qm s && cd %s && git -c protocol.file.allow=always submodule "
	   "add -q %s sub && git " GIT_ID " commit -qm sub",
	   subrepo, subrepo, subrepo, proj, subrepo);

	TOOL(r, proj, extra, "run", "-q", "--", "sh", "-c",
	     "set -e; echo b > b && git add b && git commit -qm b; "
	     "echo c >> a && git stash -q && git stash pop -q && git checkout -q a; "
	     "git checkout -qb feature && echo f > f && git add f && git commit -qm f; "
	     "git checkout -q main && echo m > m && git add m && git commit -qm m; "
	     "git checkout -q feature && git rebase -q main; "
	     "git worktree add -q wt main 2>/dev/null || git worktree add -q wt HEAD; "
	     "git -C wt status --short; "
	     "git submodule status >/dev/null; "
	     "cd sub && echo x > x && git add x && git commit -qm x && cd .. && "
	     "git add sub && git commit -qm bump; "
	     "echo commits=$(git log --oneline | wc -l)");
	expect_code(r, 0, "commit, stash, rebase, worktree, submodule");
	/* a, sub, b, m, f (rebased onto m), bump */
	if (!has(r->out, "commits=6"))
		fail_msg("git history: %s\n%s", r->out, r->err);

	/* Meanwhile the hooks and config of each git directory. */
	TOOL(r, proj, extra, "run", "-q", "--", "sh", "-c",
	     "echo evil > .git/hooks/pre-commit; echo evil >> .git/config; "
	     "echo evil > .git/modules/sub/hooks/pre-commit; echo evil >> .git/modules/sub/config; "
	     "echo evil >> wt/.git");
	char p[PATH_MAX + 64];
	snprintf(p, sizeof(p), "%s/.git/hooks/pre-commit", proj);
	assert_true(exists(p) == !ns);
	snprintf(p, sizeof(p), "%s/.git/modules/sub/hooks/pre-commit", proj);
	assert_true(exists(p) == !ns);
	if (ns) {
		assert_int_not_equal(r->code, 0);
		assert_true(has(r->err, "Read-only file system"));
	} else {
		/* Watched instead: the post-run report names them. */
		assert_true(has(r->err, "WARNING: the program changed"));
		assert_true(has(r->err, ".git/modules/sub/hooks/pre-commit"));
	}

	/* Adding a submodule writes .git/config: refused while it is
	 * protected, done once a policy lifts the protection. */
	sh("cd %s && git checkout -q .", proj);
	TOOL(r, proj, extra, "run", "-q", "--", "sh", "-c",
	     "git -c protocol.file.allow=always submodule add -q ../subrepo sub2");
	if (ns)
		assert_int_not_equal(r->code, 0);
	snprintf(lift, sizeof(lift), "%s/lift.json", tmp_root);
	write_file(lift,
		   "{\"version\": 1, \"fallback\": \"deny\", \"rules\": ["
		   "{\"effect\": \"allow\", \"capability\": \"read\", \"paths\": [\"**\"]},"
		   "{\"effect\": \"allow\", \"capability\": \"write\", \"paths\": [\"**\"]},"
		   "{\"effect\": \"allow\", \"capability\": \"delete\", \"paths\": [\"**\"]}],"
		   "\"host\": {\"read\": [\"" TMP_ROOT_MARK "\"]},"
		   "\"protect\": {\"lift\": [\".git/config\"]}}");
	sh("sed -i 's|" TMP_ROOT_MARK "|%s/subrepo|' %s", tmp_root, lift);
	sh("cd %s && rm -rf sub2 .git/modules/sub2 && git checkout -q . && git reset -q", proj);
	TOOL(r, proj, extra, "run", "-q", "-p", lift, "--", "sh", "-c",
	     "git -c protocol.file.allow=always submodule add -q ../subrepo sub2 && "
	     "git commit -qm sub2 && git submodule status | wc -l");
	expect_code(r, 0, "submodule add with .git/config lifted");
	assert_true(has(r->out, "2"));
	TOOL(r, proj, NULL, "plan", "-p", lift);
	expect_code(r, 0, "plan with a lifted protection");
	assert_true(has(r->out, "lifted by a policy (protect.lift)"));
}

/* Masks on a mount whose flags a user namespace locks: as an unprivileged
 * user, on a tmpfs mounted nosuid, nodev, noexec (made by root in a mount
 * namespace of this test's own), landfence makes its user namespace, where
 * those flags are locked; mount_setattr only adds flags, so the masks go
 * on, where a remount would fail. Root only, to make the mount. */
static void test_masks_on_locked_mount(void **state)
{
	char dir[PATH_MAX], proj[PATH_MAX + 16], pol[PATH_MAX + 16];
	int out[2], st;
	(void)state;
	NEED_LANDLOCK();

	if (geteuid() != 0) {
		print_message("not root: cannot make the mount (the unprivileged pass runs the "
			      "masks on /tmp)\n");
		skip();
	}
	if (!ns_here()) {
		print_message("no mount namespace here: nothing is masked\n");
		skip();
	}
	snprintf(dir, sizeof(dir), "%s/locked", tmp_root);
	snprintf(proj, sizeof(proj), "%s/proj", dir);
	snprintf(pol, sizeof(pol), "%s/pol.json", dir);
	sh("mkdir -p %s && chmod 755 %s %s", dir, dir, tmp_root);
	assert_int_equal(pipe2(out, O_CLOEXEC), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		if (unshare(CLONE_NEWNS) != 0 ||
		    mount("none", "/", "none", MS_REC | MS_PRIVATE, NULL) != 0 ||
		    mount("lf-locked", dir, "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC,
			  "size=1m,mode=755") != 0)
			_exit(120);
		char cmd[8 * PATH_MAX];
		snprintf(cmd, sizeof(cmd),
			 "mkdir -p %s/secrets %s/.git/hooks && echo KEYDATA > %s/secrets/k && "
			 "echo hi > %s/a && echo SECRET > %s/.env && echo '[core]' > "
			 "%s/.git/config && chown -R 20000:20000 %s",
			 proj, proj, proj, proj, proj, proj, dir);
		if (system(cmd) != 0)
			_exit(121);
		FILE *f = fopen(pol, "we");
		if (!f || fputs(PRECISE_POLICY, f) < 0 || fclose(f) != 0)
			_exit(122);
		if (dup2(out[1], 1) < 0 || dup2(out[1], 2) < 0 || chdir(proj) != 0 ||
		    setgroups(0, NULL) != 0 || setresgid(20000, 20000, 20000) != 0 ||
		    setresuid(20000, 20000, 20000) != 0)
			_exit(123);
		char home_env[PATH_MAX + 8];
		snprintf(home_env, sizeof(home_env), "HOME=%s", dir);
		char *const env[] = { home_env, "PATH=/usr/bin:/bin", "LC_ALL=C", NULL };
		char *const argv[] = { (char *)bin,
				       "run",
				       "-q",
				       "-p",
				       pol,
				       "--",
				       "sh",
				       "-c",
				       "cat a; cat .env secrets/k; echo x >> .git/config; "
				       "touch .git/hooks/x; echo new > b && cat b",
				       NULL };
		execve(bin, argv, env);
		_exit(124);
	}
	close(out[1]);
	char buf[8192] = "";
	size_t n = 0;
	for (ssize_t k;
	     n + 1 < sizeof(buf) && (k = read(out[0], buf + n, sizeof(buf) - 1 - n)) > 0;)
		n += (size_t)k;
	buf[n] = '\0';
	close(out[0]);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	if (!WIFEXITED(st) || WEXITSTATUS(st) >= 120)
		fail_msg("the locked mount run failed (%d): %s", st, buf);
	assert_true(has(buf, "hi\n"));
	assert_true(has(buf, "new\n"));
	assert_false(has(buf, "KEYDATA"));
	assert_false(has(buf, "SECRET"));
	assert_true(has(buf, "Read-only file system"));
}

/* ---- plan ---- */

static void test_plan(void **state)
{
	char proj[PATH_MAX];
	struct result *r = &g_res;
	json_error_t jerr;
	(void)state;
	NEED_LANDLOCK();

	project(proj, sizeof(proj), "plan", P2);
	sh("mkdir -p %s/src/secret %s/docs", proj, proj);
	TOOL(r, proj, NULL, "plan");
	expect_code(r, 0, "plan");
	assert_non_null(strstr(r->out, proj));
	assert_non_null(strstr(r->out, "status: enforced"));
	assert_non_null(strstr(r->out, "handled:"));
	assert_non_null(strstr(r->out, "dropped"));
	/* Without a mount namespace /etc is granted entry by entry: the
	 * text folds the run into one line that says how many rules it
	 * stands for; --tree and --json keep every one. With one, /etc is
	 * one rule and what others cannot read is hidden. */
	bool ns = ns_here();
	if (ns) {
		assert_non_null(strstr(r->out, "/etc  (host: system configuration)"));
		/* Root: seen as others see it; else walked, each hidden. */
		if (geteuid() == 0 && strstr(r->out, "/etc: seen as others see it"))
			assert_null(strstr(r->out, "hidden     /etc/shadow"));
		else
			assert_non_null(strstr(r->out, "hidden     /etc/shadow"));
	} else {
		assert_non_null(strstr(r->out, "/etc/... ("));
	}
	assert_null(strstr(r->out, "/etc/passwd"));
	assert_non_null(strstr(r->out, "/dev/null"));

	TOOL(r, proj, NULL, "plan", "--tree");
	expect_code(r, 0, "plan --tree");
	if (!ns)
		assert_non_null(strstr(r->out, "passwd"));

	TOOL(r, proj, NULL, "plan", "--json");
	expect_code(r, 0, "plan --json");
	json_t *j = json_loads(r->out, 0, &jerr);
	if (!j)
		fail_msg("plan --json is not JSON: %s\n%s", jerr.text, r->out);
	assert_int_equal(json_integer_value(json_object_get(j, "abi")), lf_landlock_abi(-1));
	assert_string_equal(
		json_string_value(json_object_get(json_object_get(j, "status"), "kind")),
		"enforced");
	assert_true(json_array_size(json_object_get(j, "handled")) > 0);
	/* docs is granted from the policy; src was dropped by the fence. */
	char docs[PATH_MAX + 8], src[PATH_MAX + 8];
	snprintf(docs, sizeof(docs), "%s/docs", proj);
	snprintf(src, sizeof(src), "%s/src", proj);
	bool found_docs = false, found_src_rule = false, found_drop = false, found_host = false;
	size_t i;
	json_t *v;
	json_array_foreach(json_object_get(j, "rules"), i, v)
	{
		const char *path = json_string_value(json_object_get(v, "path"));
		const char *origin = json_string_value(json_object_get(v, "origin"));
		assert_non_null(path);
		assert_non_null(origin);
		if (!strcmp(path, docs) && !strcmp(origin, "policy"))
			found_docs = true;
		if (!strcmp(path, src))
			found_src_rule = true;
		if (!strcmp(origin, "host"))
			found_host = true;
	}
	json_array_foreach(json_object_get(j, "dropped"), i, v)
	{
		const char *path = json_string_value(json_object_get(v, "path"));
		const char *fence = json_string_value(json_object_get(v, "fence"));
		if (path && fence && !strcmp(path, src) && strstr(fence, "src/secret"))
			found_drop = true;
	}
	assert_true(found_docs);
	/* With masks the allow of src comes back (src/secret is hidden): no
	 * longer a drop, but a fence whose mechanism is a mask. */
	assert_true(found_src_rule == ns);
	assert_true(found_drop == !ns);
	bool found_mask = false;
	json_array_foreach(json_object_get(j, "fences"), i, v)
	{
		const char *path = json_string_value(json_object_get(v, "path"));
		const char *mech = json_string_value(json_object_get(v, "mechanism"));
		if (path && mech && strstr(path, "src/secret") && !strcmp(mech, "mask"))
			found_mask = true;
	}
	assert_true(found_mask == ns);
	assert_true(json_is_boolean(json_object_get(json_object_get(j, "namespace"), "available")));
	assert_true(found_host);
	json_decref(j);
}

/* ---- doctor ---- */

static void test_doctor(void **state)
{
	struct result *r = &g_res;
	(void)state;
	NEED_LANDLOCK();

	TOOL(r, tmp_root, NULL, "doctor");
	if (lf_landlock_abi(-1) >= 6)
		expect_code(r, 0, "doctor");
	assert_non_null(strstr(r->out, "kernel:"));
	assert_non_null(strstr(r->out, "landlock: ABI"));
	assert_non_null(strstr(r->out, "seccomp"));
	assert_non_null(strstr(r->out, "no-new-privs"));
	/* What no Landlock ABI fences is said, not hidden (doc/escape.md). */
	assert_non_null(strstr(r->out, "named UNIX sockets"));
	assert_non_null(strstr(r->out, "stat(2) and inotify"));
	assert_non_null(strstr(r->out, "command line"));
	assert_non_null(strstr(r->out, "/dev/pts is granted whole"));
	/* Whether AppArmor restricts user namespaces is said either way. */
	assert_non_null(strstr(r->out, "user namespaces: "));

	const char *cap0[] = { "LANDFENCE_ABI_MAX=0", NULL };
	TOOL(r, tmp_root, cap0, "doctor", "--json");
	expect_code(r, 1, "doctor at ABI 0");
	json_t *j = json_loads(r->out, 0, NULL);
	assert_non_null(j);
	assert_int_equal(json_integer_value(json_object_get(j, "landlock_abi")), 0);
	assert_false(json_is_true(json_object_get(j, "complete")));
	/* The sysctl's value as the kernel has it, null where it has none. */
	json_t *aa = json_object_get(j, "apparmor_restrict_unprivileged_userns");
	assert_non_null(aa);
	FILE *f = fopen("/proc/sys/kernel/apparmor_restrict_unprivileged_userns", "re");
	if (f) {
		int v = -1;
		assert_int_equal(fscanf(f, "%d", &v), 1);
		fclose(f);
		assert_true(json_is_integer(aa));
		assert_int_equal(json_integer_value(aa), v);
	} else {
		assert_true(json_is_null(aa));
	}
	assert_non_null(json_object_get(j, "apparmor_label"));
	json_decref(j);
}

/* ---- init ---- */

static void test_init(void **state)
{
	char proj[PATH_MAX], p[PATH_MAX + 32];
	struct result *r = &g_res;
	(void)state;

	snprintf(proj, sizeof(proj), "%s/initproj", tmp_root);
	sh("rm -rf %s && mkdir -p %s/.git %s/sub", proj, proj, proj);
	snprintf(p, sizeof(p), "%s/.landfence/policy.json", proj);
	char sub[PATH_MAX + 8];
	snprintf(sub, sizeof(sub), "%s/sub", proj);
	/* From a subdirectory: the policy lands at the project root. */
	TOOL(r, sub, NULL, "init");
	expect_code(r, 0, "init");
	assert_true(exists(p));
	TOOL(r, proj, NULL, "init");
	expect_code(r, 2, "init over an existing policy");
	assert_non_null(strstr(r->err, "already exists"));
	/* The starter policy loads. */
	TOOL(r, proj, NULL, "plan");
	expect_code(r, 0, "plan of the starter policy");
	assert_non_null(strstr(r->out, ".landfence/policy.json"));
}

/* ---- the program never outlives landfence ---- */

/* Starts `landfence run -- sh -c script` in proj (output discarded) with
 * extra in the environment; returns its pid. */
static pid_t run_async(const char *proj, const char *extra, const char *script)
{
	char home_env[400];
	pid_t pid;

	snprintf(home_env, sizeof(home_env), "HOME=%s", home);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		char *env[] = { "PATH=/usr/local/bin:/usr/bin:/bin", home_env, "LC_ALL=C",
				(char *)extra, NULL };
		/* Unscoped signals below ABI 6 accepted: the case is what
		 * happens then. */
		char *argv[] = { (char *)bin, "run",	      "-q", "--allow-unscoped", "--", "sh",
				 "-c",	      (char *)script, NULL };
		int devnull = open("/dev/null", O_RDWR);
		if (chdir(proj) < 0 || devnull < 0 || dup2(devnull, 0) < 0 ||
		    dup2(devnull, 1) < 0 || dup2(devnull, 2) < 0)
			_exit(121);
		execve(bin, argv, env);
		_exit(124);
	}
	return pid;
}

/* The pid the program wrote to file, waiting for it (a generous bound:
 * the test asserts what happens, never how fast). */
static pid_t pid_from(const char *file)
{
	for (int i = 0; i < 1000; i++) {
		FILE *f = fopen(file, "r");
		long pid = 0;
		if (f && fscanf(f, "%ld", &pid) == 1 && pid > 0) {
			fclose(f);
			return (pid_t)pid;
		}
		if (f)
			fclose(f);
		usleep(10000);
	}
	fail_msg("the program never wrote %s", file);
	return -1;
}

/* Reaps want (a child of this subreaper), waiting at most 10 s; returns
 * its wait status. */
static int reap(pid_t want)
{
	for (int i = 0; i < 1000; i++) {
		int st;
		pid_t w = waitpid(want, &st, WNOHANG);
		if (w == want)
			return st;
		usleep(10000);
	}
	fail_msg("process %d is still running", (int)want);
	return -1;
}

/* landfence run killed with SIGKILL, from outside or by the program where
 * signals are not scoped (ABI 5): the program gets SIGKILL too (its
 * parent-death signal). Where they are scoped (ABI 6 and later) the
 * program cannot signal landfence at all. */
static void test_run_killed(void **state)
{
	char proj[PATH_MAX], pidfile[PATH_MAX + 16], refused[PATH_MAX + 16];
	static const struct {
		const char *name;
		const char *extra;
		const char *script;
		bool outside;
	} cases[] = {
		{ "killed from outside", "LC_CTYPE=C",
		  "echo $$ > pid.tmp && mv pid.tmp pid && exec sleep 100", true },
		{ "killed by the program (ABI 5: no signal scope)", "LANDFENCE_ABI_MAX=5",
		  "echo $$ > pid.tmp && mv pid.tmp pid && kill -KILL $PPID; exec sleep 100",
		  false },
	};
	(void)state;
	NEED_LANDLOCK();

	project(proj, sizeof(proj), "killed", NULL);
	snprintf(pidfile, sizeof(pidfile), "%s/pid", proj);
	snprintf(refused, sizeof(refused), "%s/refused", proj);
	/* The program's new parent: we reap it and see how it ended. */
	assert_int_equal(prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0), 0);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		remove(pidfile);
		pid_t lf = run_async(proj, cases[i].extra, cases[i].script);
		pid_t prog = pid_from(pidfile);
		if (cases[i].outside)
			assert_int_equal(kill(lf, SIGKILL), 0);
		int st = reap(lf);
		if (!WIFSIGNALED(st) || WTERMSIG(st) != SIGKILL)
			fail_msg("%s: landfence was not killed (status %#x)", cases[i].name, st);
		st = reap(prog);
		if (!WIFSIGNALED(st) || WTERMSIG(st) != SIGKILL)
			fail_msg("%s: the program was not killed with landfence (status %#x)",
				 cases[i].name, st);
	}
	/* Scoped signals: the program's kill is refused, landfence finishes
	 * the run and reports the program's own exit status. */
	if (lf_landlock_abi(-1) >= 6) {
		remove(pidfile);
		pid_t lf = run_async(proj, "LC_CTYPE=C",
				     "echo $$ > pid; kill -KILL $PPID || : > refused; exit 3");
		int st = reap(lf);
		assert_true(WIFEXITED(st));
		assert_int_equal(WEXITSTATUS(st), 3);
		assert_true(exists(refused));
	}
	assert_int_equal(prctl(PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0), 0);
}

/* ---- the managed layer ---- */

#define MANAGED_POLICY                                                                  \
	"{\"version\": 1, \"rules\": ["                                                 \
	"{\"effect\": \"deny\", \"capability\": \"read\", \"paths\": [\"secret/**\"]}," \
	"{\"effect\": \"ask\", \"capability\": \"write\", \"paths\": [\"src/gen/**\"]}]}"

/* A local policy that tries to lift the managed layer's deny and ask. */
#define LIFTING_POLICY                                                                           \
	"{\"version\": 1, \"fallback\": \"allow\", \"rules\": ["                                 \
	"{\"effect\": \"allow\", \"capability\": \"read\", \"paths\": [\"**\", \"secret/**\"]}," \
	"{\"effect\": \"allow\", \"capability\": \"write\", \"paths\": [\"src/gen/**\"]}]}"

/* /etc/landfence/policy.json (here LANDFENCE_MANAGED_POLICY) is honoured
 * only when root owns it and nobody else can change it; its denies and
 * asks hold whatever another layer says; plan names its layer. */
static void test_managed_layer(void **state)
{
	char proj[PATH_MAX], dir[PATH_MAX], file[PATH_MAX + 32], local[PATH_MAX + 32];
	char env[3 * PATH_MAX], marker[PATH_MAX + 32];
	struct result *r = &g_res;
	(void)state;
	NEED_LANDLOCK();

	project(proj, sizeof(proj), "managed", NULL);
	sh("mkdir -p %s/secret %s/src/gen && echo KEY > %s/secret/k", proj, proj, proj);
	snprintf(local, sizeof(local), "%s/local.json", tmp_root);
	write_file(local, LIFTING_POLICY);
	snprintf(dir, sizeof(dir), "%s/etc-landfence", tmp_root);
	snprintf(file, sizeof(file), "%s/policy.json", dir);
	snprintf(marker, sizeof(marker), "%s/ran", proj);
	sh("mkdir -p %s && chmod 755 %s %s", dir, dir, tmp_root);
	write_file(file, MANAGED_POLICY);
	sh("chmod 644 %s", file);
	snprintf(env, sizeof(env), "LANDFENCE_MANAGED_POLICY=%s", file);
	const char *extra[] = { env, NULL };

	if (getuid() == 0) {
		/* Honoured: the deny and the ask hold against the local allows. */
		TOOL(r, proj, extra, "check", "-p", local, "read", "secret/k");
		expect_code(r, 1, "a managed deny under a local allow");
		assert_true(has(r->out, "managed"));
		TOOL(r, proj, extra, "check", "-p", local, "--json", "write", "src/gen/x");
		json_error_t e;
		json_t *j = json_loads(r->out, 0, &e);
		assert_non_null(j);
		json_t *req = json_array_get(json_object_get(j, "requests"), 0);
		assert_string_equal(json_string_value(json_object_get(
					    json_object_get(req, "policy"), "verdict")),
				    "ask");
		json_decref(j);
		TOOL(r, proj, extra, "run", "-p", local, "--", "sh", "-c",
		     "cat secret/k; echo done");
		expect_code(r, 0, "a run under the managed layer");
		assert_true(has(r->out, "done"));
		assert_false(has(r->out, "KEY"));
		assert_true(refused(r->err));
		TOOL(r, proj, extra, "plan", "-p", local);
		expect_code(r, 0, "plan");
		assert_true(has(r->out, "(managed)"));
		snprintf(env, sizeof(env), "fenced by deny %s/secret at managed %s:", proj, file);
		if (!has(r->out, env))
			fail_msg("plan does not name the managed layer: %s", r->out);
		snprintf(env, sizeof(env), "LANDFENCE_MANAGED_POLICY=%s", file);
	}
	remove(marker);

	/* Refused, loudly, with nothing run: not root's file (as any user:
	 * nobody's), writable by group or others, or in a directory others
	 * can change. */
	static const struct {
		const char *setup;
		const char *says;
	} bad[] = {
		{ "chown 65534 @F", "not owned by root" },
		{ "chmod 666 @F", "writable by group or others" },
		{ "chmod 664 @F", "writable by group or others" },
		{ "chmod 777 @D", "which is not owned by root or is writable by others" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (getuid() != 0 && i > 0)
			break; /* not root: the file is not root's already */
		sh("chown 0 %s 2>/dev/null; chmod 644 %s; chmod 755 %s", file, file, dir);
		char cmd[PATH_MAX * 2];
		const char *at = strchr(bad[i].setup, '@');
		snprintf(cmd, sizeof(cmd), "%.*s%s", (int)(at - bad[i].setup), bad[i].setup,
			 at[1] == 'F' ? file : dir);
		if (getuid() == 0)
			sh("%s", cmd);
		TOOL(r, proj, extra, "run", "--", "sh", "-c", "touch ran");
		expect_code(r, 2, "a managed policy that is not safe");
		if (!has(r->err, getuid() == 0 ? bad[i].says : "not owned by root"))
			fail_msg("case %zu: %s", i, r->err);
		assert_true(has(r->err, "nothing ran"));
		assert_false(exists(marker));
		TOOL(r, proj, extra, "check", "read", "x");
		expect_code(r, 2, "check under an unsafe managed policy");
	}
	sh("chmod 755 %s; chown 0 %s 2>/dev/null; chmod 644 %s", dir, file, file);
}

/* The user policy is read only where nobody but the user (or root) could
 * have put it: a sandboxed program can chmod the configuration directory
 * (Landlock does not mediate chmod), and another local user could then
 * put a policy there that replaces the embedded default at the next
 * launch. Refused loudly, with nothing run; a policy reached through a
 * link (dotfiles) in places nobody else may change is read. */
static void test_user_policy_guarded(void **state)
{
	char proj[PATH_MAX], xdg[PATH_MAX], file[PATH_MAX + 32], env[PATH_MAX + 32];
	char marker[PATH_MAX + 32];
	struct result *r = &g_res;
	(void)state;
	NEED_LANDLOCK();

	project(proj, sizeof(proj), "userpol", NULL);
	snprintf(xdg, sizeof(xdg), "%s/xdg-userpol", tmp_root);
	snprintf(file, sizeof(file), "%s/landfence/policy.json", xdg);
	snprintf(marker, sizeof(marker), "%s/ran", proj);
	snprintf(env, sizeof(env), "XDG_CONFIG_HOME=%s", xdg);
	const char *extra[] = { env, NULL };
	sh("rm -rf %s && mkdir -p %s/landfence %s/dots && chmod 755 %s %s/landfence", xdg, xdg, xdg,
	   xdg, xdg);
	write_file(file, "{\"version\": 1, \"extends\": \"default\"}");
	sh("chmod 644 %s", file);
	TOOL(r, proj, extra, "run", "--", "sh", "-c", "touch ran");
	expect_code(r, 0, "a run under a user policy of the user's own");
	assert_true(exists(marker));
	remove(marker);

	static const struct {
		const char *setup, *undo, *says;
	} bad[] = {
		{ "chmod 777 @X/landfence", "chmod 755 @X/landfence", "lies in" },
		{ "chmod 757 @X", "chmod 755 @X", "lies in" },
		{ "chmod 666 @X/landfence/policy.json", "chmod 644 @X/landfence/policy.json",
		  "writable by group or others" },
		{ "chown 65534 @X/landfence/policy.json", "chown 0 @X/landfence/policy.json",
		  "owned by somebody else" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char cmd[4 * PATH_MAX] = "", undo[4 * PATH_MAX] = "";
		if (getuid() != 0 && !strncmp(bad[i].setup, "chown", 5))
			continue; /* only root gives files away */
		for (int k = 0; k < 2; k++) {
			const char *t = k ? bad[i].undo : bad[i].setup, *at = strchr(t, '@');
			snprintf(k ? undo : cmd, sizeof(cmd), "%.*s%s%s", (int)(at - t), t, xdg,
				 at + 2);
		}
		sh("%s", cmd);
		TOOL(r, proj, extra, "run", "--", "sh", "-c", "touch ran");
		expect_code(r, 2, "a user policy others could have put there");
		if (!has(r->err, bad[i].says) || !has(r->err, "nothing ran"))
			fail_msg("case %zu: %s", i, r->err);
		assert_false(exists(marker));
		TOOL(r, proj, extra, "check", "read", "x");
		expect_code(r, 2, "check under a user policy others could have put there");
		sh("%s", undo);
	}

	/* Through a link, in places nobody else may change: read. */
	sh("mv %s %s/dots/policy.json && ln -s ../dots/policy.json %s", file, xdg, file);
	TOOL(r, proj, extra, "run", "--", "sh", "-c", "touch ran");
	expect_code(r, 0, "a user policy reached through links");
	assert_true(exists(marker));
	remove(marker);
	/* The same link into a directory others may write: refused. */
	sh("chmod 777 %s/dots", xdg);
	TOOL(r, proj, extra, "run", "--", "sh", "-c", "touch ran");
	expect_code(r, 2, "a user policy reached through a directory others may write");
	assert_true(has(r->err, "lies in"));
	assert_false(exists(marker));
	sh("chmod 755 %s/dots", xdg);
}

/* Where the fleet's /etc/landfence/policy.json exists, the variable
 * cannot swap it for another root-owned file. The fleet file is made in a
 * private mount namespace (an overlay on /etc), never on the host. */
static void test_managed_variable_cannot_replace(void **state)
{
	char proj[PATH_MAX], fleet[PATH_MAX + 32], other[PATH_MAX + 32], out[PATH_MAX + 32];
	char text[4096] = "";
	(void)state;

	if (getuid() != 0)
		skip(); /* an overlay on /etc needs root */
	project(proj, sizeof(proj), "managed-var", NULL);
	sh("mkdir -p %s/secret && echo KEY > %s/secret/k", proj, proj);
	snprintf(fleet, sizeof(fleet), "%s/fleet.json", tmp_root);
	snprintf(other, sizeof(other), "%s/other.json", tmp_root);
	snprintf(out, sizeof(out), "%s/managed-var.out", tmp_root);
	write_file(fleet, MANAGED_POLICY);
	write_file(other, "{\"version\": 1}");
	sh("chmod 644 %s %s", fleet, other);
	sh("mkdir -p %s/ovl && unshare -m --propagation private sh -c '"
	   "mount -t tmpfs tmpfs %s/ovl && mkdir %s/ovl/u %s/ovl/w && "
	   "mount -t overlay overlay -o lowerdir=/etc,upperdir=%s/ovl/u,workdir=%s/ovl/w /etc && "
	   "mkdir -p /etc/landfence && cp %s /etc/landfence/policy.json && "
	   "chmod 755 /etc/landfence && chmod 644 /etc/landfence/policy.json && "
	   "cd %s && LANDFENCE_MANAGED_POLICY=%s %s check read secret/k >%s 2>&1; "
	   "echo \"exit $?\" >>%s'",
	   tmp_root, tmp_root, tmp_root, tmp_root, tmp_root, tmp_root, fleet, proj, other, bin, out,
	   out);
	FILE *f = fopen(out, "r");
	assert_non_null(f);
	size_t n = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[n] = '\0';
	if (!strstr(text, "deny") || !strstr(text, "/etc/landfence/policy.json") ||
	    !strstr(text, "exit 1"))
		fail_msg("the variable replaced the fleet's managed policy:\n%s", text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_precise_denies),
		cmocka_unit_test(test_user_policy_guarded),
		cmocka_unit_test(test_git_workflows_default),
		cmocka_unit_test(test_masks_on_locked_mount),
		cmocka_unit_test(test_run_exit_statuses),
		cmocka_unit_test(test_run_embedded_default),
		cmocka_unit_test(test_run_policies),
		cmocka_unit_test(test_run_programs),
		cmocka_unit_test(test_run_abi_cap),
		cmocka_unit_test(test_run_tiocsti),
		cmocka_unit_test(test_run_fds_closed),
		cmocka_unit_test(test_run_env_scrub),
		cmocka_unit_test(test_run_tmpdir),
		cmocka_unit_test(test_run_caps_and_parent),
		cmocka_unit_test(test_run_signal_forwarding),
		cmocka_unit_test(test_run_bad_profile),
		cmocka_unit_test(test_run_hardlink),
		cmocka_unit_test(test_run_hardlink_scan_incomplete),
		cmocka_unit_test(test_run_malformed_policy),
		cmocka_unit_test(test_plan),
		cmocka_unit_test(test_doctor),
		cmocka_unit_test(test_init),
		cmocka_unit_test(test_run_root_too_wide),
		cmocka_unit_test(test_run_hook_inside),
		cmocka_unit_test(test_run_env_control),
		cmocka_unit_test(test_run_persistence_warning),
		cmocka_unit_test(test_run_git_init_samples),
		cmocka_unit_test(test_run_etc_secrets),
		cmocka_unit_test(test_run_project_in_etc),
		cmocka_unit_test(test_run_etc_part_bound),
		cmocka_unit_test(test_run_gitdir_report),
		cmocka_unit_test(test_run_auto_profile),
		cmocka_unit_test(test_cli_usage_messages),
		cmocka_unit_test(test_plan_dropped_missing),
		cmocka_unit_test(test_managed_layer),
		cmocka_unit_test(test_managed_variable_cannot_replace),
		cmocka_unit_test(test_run_killed),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
