/* SPDX-License-Identifier: MIT */
/*
 * The launcher library: path search, environment scrub, seccomp filter,
 * private run directory, the child sequence and its error pipe, signal
 * forwarding, and lf_spawn under a real Landlock sandbox (forked children,
 * real temp trees, real EACCES).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/shm.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/seccomp.h>

#include <cmocka.h>

#include "landfence.h"
#include "../enforce.h"
#include "core/sandbox.h"
#include "core/tables.h"
#include "launch/launch.h"

extern char **environ;

static char tmp_root[256];

static void sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void sh(const char *fmt, ...)
{
	char cmd[4096];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	assert_int_equal(system(cmd), 0);
}

static void probe_path(char *out, size_t size)
{
	const char *b = getenv("LANDFENCE_BUILDDIR");
	assert_non_null(b);
	snprintf(out, size, "%s/tests/launch/launch-probe", b);
	assert_int_equal(access(out, X_OK), 0);
}

static int setup_tmp(void **state)
{
	(void)state;
	strcpy(tmp_root, "/tmp/lf-launch-test.XXXXXX");
	if (!mkdtemp(tmp_root))
		return -1;
	return 0;
}

static int teardown_tmp(void **state)
{
	(void)state;
	return lf_rundir_remove(tmp_root) == 0 ? 0 : -1;
}

/* ---- path search ---- */

static void test_resolve(void **state)
{
	char bin[PATH_MAX], noexec[PATH_MAX], path[PATH_MAX * 2], out[PATH_MAX];
	(void)state;

	snprintf(bin, sizeof(bin), "%s/bin", tmp_root);
	sh("mkdir -p %s/bin %s/other && printf '#!/bin/sh\\nexit 0\\n' > %s/bin/tool && "
	   "chmod 755 %s/bin/tool && : > %s/other/tool && chmod 644 %s/other/tool && "
	   "mkdir -p %s/bin/adir",
	   tmp_root, tmp_root, tmp_root, tmp_root, tmp_root, tmp_root, tmp_root);
	snprintf(noexec, sizeof(noexec), "%s/other/tool", tmp_root);

	static const struct {
		const char *name;
		const char *path; /* @ = tmp_root */
		int ret;
		const char *expect; /* suffix of the result */
	} cases[] = {
		{ "sh", "/usr/bin:/bin", 0, "/sh" },
		{ "tool", "@/other:@/bin", 0, "/bin/tool" }, /* EACCES then found */
		{ "tool", "@/other:@/none", -EACCES, NULL }, /* only a non-executable */
		{ "adir", "@/bin:@/bin", -EACCES, NULL },    /* a directory */
		{ "nosuchprogram-lf", "/usr/bin:/bin", -ENOENT, NULL },
		{ "/bin/sh", "", 0, "/bin/sh" },
		{ "/nonexistent/prog", "/usr/bin", -ENOENT, NULL },
		{ "", "/usr/bin", -ENOENT, NULL },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t k = 0;
		for (const char *q = cases[i].path; *q && k + sizeof(tmp_root) < sizeof(path);
		     q++) {
			if (*q == '@') {
				strcpy(path + k, tmp_root);
				k += strlen(tmp_root);
			} else {
				path[k++] = *q;
			}
		}
		path[k] = '\0';
		memset(out, 0, sizeof(out));
		int r = lf_launch_resolve(cases[i].name, path, out, sizeof(out));
		if (r != cases[i].ret)
			fail_msg("case %zu (%s in %s): got %d, want %d", i, cases[i].name, path, r,
				 cases[i].ret);
		if (cases[i].expect) {
			size_t n = strlen(out), m = strlen(cases[i].expect);
			assert_true(out[0] == '/');
			assert_true(n >= m && !strcmp(out + n - m, cases[i].expect));
		}
	}

	/* A relative name with a slash, and an empty PATH element, resolve
	 * against the working directory. */
	char cwd[PATH_MAX];
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	assert_int_equal(chdir(bin), 0);
	assert_int_equal(lf_launch_resolve("./tool", "/usr/bin", out, sizeof(out)), 0);
	assert_string_equal(out + strlen(out) - strlen("/bin/./tool"), "/bin/./tool");
	assert_int_equal(lf_launch_resolve("tool", "/nonexistent:", out, sizeof(out)), 0);
	assert_int_equal(out[0], '/');
	assert_int_equal(lf_launch_resolve(noexec, NULL, out, sizeof(out)), -EACCES);
	assert_int_equal(chdir(cwd), 0);
}

/* ---- environment ---- */

static bool env_has(char **env, const char *entry)
{
	for (size_t i = 0; env[i]; i++)
		if (!strcmp(env[i], entry))
			return true;
	return false;
}

static bool env_has_name(char **env, const char *name)
{
	size_t n = strlen(name);
	for (size_t i = 0; env[i]; i++)
		if (!strncmp(env[i], name, n) && env[i][n] == '=')
			return true;
	return false;
}

/* The scrub list of a sandbox value compiled from a policy with the given
 * "env" section (a JSON fragment, or "" for none). */
static struct lf_sandbox *scrub_value(const char *env_json)
{
	char text[1024];
	struct lf_policy *p = NULL;
	struct lf_effective *e = NULL;
	struct lf_plan *plan = NULL;
	struct lf_sandbox *sb = NULL;
	struct lf_diag d;

	snprintf(text, sizeof(text), "{\"version\": 1%s%s}", env_json[0] ? ", " : "", env_json);
	assert_int_equal(lf_policy_parse(text, strlen(text), "env.json", LF_LAYER_LOCAL, &p, &d),
			 0);
	const struct lf_policy *layers[] = { p };
	assert_int_equal(lf_effective_resolve(layers, 1, &e), 0);
	struct lf_context ctx = { .project_root = tmp_root };
	assert_int_equal(lf_plan_compile(e, &ctx, &plan), 0);
	struct lf_sandbox_opts o = { .size = sizeof(o), .project_root = tmp_root };
	assert_int_equal(lf_sandbox_new(e, plan, &o, &sb, &d), 0);
	lf_plan_free(plan);
	lf_effective_free(e);
	lf_policy_free(p);
	return sb;
}

static int scrub(char *const *in, const struct lf_sandbox *sb, const char *tmpdir, char ***env)
{
	return lf_env_build(in, sb->env, sb->nenv, tmpdir, env);
}

static void test_env_scrub(void **state)
{
	char *in[] = {
		"PATH=/usr/bin",
		"SSH_AUTH_SOCK=/run/user/0/ssh",
		"DBUS_SESSION_BUS_ADDRESS=unix:path=/run/bus",
		"DISPLAY=:0",
		"XDG_RUNTIME_DIR=/run/user/0",
		"KRB5CCNAME=FILE:/tmp/krb",
		"TMPDIR=/var/tmp",
		"TMP=/var/tmp",
		"SECRET_TOKEN=abc",
		"HOME=/home/u",
		"LANDFENCE_MANAGED_POLICY=/x",
		"NOEQUALS",
		NULL,
	};
	char **env = NULL;
	struct lf_sandbox *sb;
	(void)state;

	sb = scrub_value(
		"\"env\": {\"unset\": [\"SECRET_TOKEN\"], "
		"\"keep\": [\"DISPLAY\", \"SECRET_TOKEN\", \"LANDFENCE_MANAGED_POLICY\"]}");
	assert_int_equal(scrub(in, sb, "/tmp/lf.x", &env), 0);
	assert_true(env_has(env, "PATH=/usr/bin"));
	assert_true(env_has(env, "HOME=/home/u"));
	assert_true(env_has(env, "NOEQUALS"));
	assert_false(env_has_name(env, "SSH_AUTH_SOCK"));
	assert_false(env_has_name(env, "DBUS_SESSION_BUS_ADDRESS"));
	assert_false(env_has_name(env, "XDG_RUNTIME_DIR"));
	assert_false(env_has_name(env, "KRB5CCNAME"));
	/* keep lifts a default scrub, never an explicit unset, never one of
	 * landfence's own controls */
	assert_true(env_has(env, "DISPLAY=:0"));
	assert_false(env_has_name(env, "SECRET_TOKEN"));
	assert_false(env_has_name(env, "LANDFENCE_MANAGED_POLICY"));
	assert_true(env_has(env, "TMPDIR=/tmp/lf.x"));
	assert_true(env_has(env, "TMP=/tmp/lf.x"));
	assert_false(env_has(env, "TMPDIR=/var/tmp"));
	size_t n = 0;
	for (size_t i = 0; env[i]; i++)
		n += !strncmp(env[i], "TMPDIR=", 7);
	assert_int_equal(n, 1);
	lf_env_free(env);
	lf_sandbox_free(sb);

	/* No tmpdir: TMPDIR passes through untouched. */
	sb = scrub_value("");
	assert_int_equal(scrub(in, sb, NULL, &env), 0);
	assert_true(env_has(env, "TMPDIR=/var/tmp"));
	assert_false(env_has_name(env, "DISPLAY"));
	lf_env_free(env);

	/* Every default name is scrubbed. */
	for (size_t i = 0; lf_env_default_scrub[i]; i++) {
		char entry[128];
		char *one[] = { entry, NULL };
		snprintf(entry, sizeof(entry), "%s=x", lf_env_default_scrub[i]);
		assert_int_equal(scrub(one, sb, NULL, &env), 0);
		assert_null(env[0]);
		lf_env_free(env);
	}
	lf_sandbox_free(sb);
}

/* ---- seccomp ---- */

/* Applies the filter in a forked child: TIOCSTI on a fresh pty, with and
 * without high bits in the request; SysV IPC; set-user-ID modes. */
static void test_seccomp_filter(void **state)
{
	struct sock_fprog prog = { 0 };
	int master;
	(void)state;

	assert_int_equal(lf_seccomp_build(&prog, false), 0);
	assert_true(prog.len > 0);
	master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
	assert_true(master >= 0);
	assert_int_equal(grantpt(master), 0);
	assert_int_equal(unlockpt(master), 0);
	char *slave = ptsname(master);
	assert_non_null(slave);

	char file[PATH_MAX], created[PATH_MAX];
	snprintf(file, sizeof(file), "%s/modes", tmp_root);
	snprintf(created, sizeof(created), "%s/created", tmp_root);
	int fd_file = open(file, O_CREAT | O_WRONLY | O_CLOEXEC, 0600);
	assert_true(fd_file >= 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		char c = 'x';
		struct winsize ws;
		int fd = open(slave, O_RDWR | O_NOCTTY | O_CLOEXEC);
		if (fd < 0)
			_exit(10);
		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
			_exit(11);
		if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0) < 0)
			_exit(12);
		if (ioctl(fd, TIOCSTI, &c) != -1 || errno != EPERM)
			_exit(13);
		if (syscall(SYS_ioctl, fd, (unsigned long)TIOCSTI | (1UL << 32), &c) != -1 ||
		    errno != EPERM)
			_exit(14);
		if (syscall(SYS_ioctl, fd, (unsigned long)TIOCSTI | 0xffffffff00000000UL, &c) !=
			    -1 ||
		    errno != EPERM)
			_exit(15);
		if (ioctl(fd, 0x541C /* TIOCLINUX */, &c) != -1 || errno != EPERM)
			_exit(16);
		/* Other terminal ioctls are untouched. */
		if (ioctl(fd, TIOCGWINSZ, &ws) != 0)
			_exit(17);
		/* SysV IPC is refused. */
		if (shmget(IPC_PRIVATE, 4096, IPC_CREAT | 0600) != -1 || errno != EACCES)
			_exit(18);
		if (msgget(IPC_PRIVATE, IPC_CREAT | 0600) != -1 || errno != EACCES)
			_exit(19);
		/* No set-user-ID or set-group-ID mode, by chmod or at creation;
		 * other modes work. */
		if (chmod(file, 04755) != -1 || errno != EPERM)
			_exit(20);
		if (fchmodat(AT_FDCWD, file, 02755, 0) != -1 || errno != EPERM)
			_exit(21);
		if (syscall(SYS_fchmod, fd_file, (unsigned long)06755 | (1UL << 40)) != -1 ||
		    errno != EPERM)
			_exit(22);
		if (chmod(file, 0700) != 0)
			_exit(23);
		if (open(created, O_CREAT | O_WRONLY | O_CLOEXEC, 04755) != -1 || errno != EPERM)
			_exit(24);
		int cfd = open(created, O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
		if (cfd < 0)
			_exit(25);
		close(cfd);
		/* openat2 looks absent, so callers use openat. */
		if (syscall(437 /* openat2 */, AT_FDCWD, file, NULL, 0) != -1 || errno != ENOSYS)
			_exit(26);
		_exit(0);
	}
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
	close(master);
	close(fd_file);
	struct stat fst;
	assert_int_equal(stat(file, &fst), 0);
	assert_int_equal(fst.st_mode & 07777, 0700);
	lf_seccomp_free(&prog);
	assert_null(prog.filter);
}

/* ---- run directory ---- */

static void test_rundir(void **state)
{
	char dir[PATH_MAX + 16], outside[PATH_MAX];
	struct stat st;
	(void)state;

	snprintf(outside, sizeof(outside), "%s/outside", tmp_root);
	sh("mkdir -p %s && echo keep > %s/file", outside, outside);
	assert_int_equal(lf_rundir_create(dir, sizeof(dir)), 0);
	assert_int_equal(lstat(dir, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	assert_int_equal(st.st_mode & 07777, 0700);
	/* Symlinks to the outside, nested and locked directories. */
	sh("mkdir -p %s/a/b/c && echo x > %s/a/b/c/f && ln -s %s %s/a/link-dir && "
	   "ln -s %s/file %s/a/b/link-file && mkdir %s/locked && echo y > %s/locked/g && "
	   "chmod 0500 %s/locked && mkfifo %s/fifo",
	   dir, dir, outside, dir, outside, dir, dir, dir, dir, dir);
	assert_int_equal(lf_rundir_remove(dir), 0);
	assert_int_equal(lstat(dir, &st), -1);
	assert_int_equal(errno, ENOENT);
	/* The targets of the links are intact. */
	assert_int_equal(stat(outside, &st), 0);
	snprintf(dir, sizeof(dir), "%s/file", outside);
	assert_int_equal(stat(dir, &st), 0);
	/* Removing what does not exist is fine; relative paths are not. */
	assert_int_equal(lf_rundir_remove("/tmp/lf-does-not-exist-xyz"), 0);
	assert_int_equal(lf_rundir_remove("relative"), -EINVAL);
}

/* ---- the child sequence ---- */

static int spawn_wait(const char *path, char *const argv[], int ruleset_fd, const char *cwd,
		      struct lf_launch_failure *fail, int *status)
{
	struct sock_fprog prog = { 0 };
	struct lf_launch l;
	int r;

	assert_int_equal(lf_seccomp_build(&prog, false), 0);
	struct lf_launch_opts o = {
		.path = path,
		.argv = argv,
		.envp = environ,
		.ruleset_fd = ruleset_fd,
		.filter = &prog,
		.cwd = cwd,
	};
	r = lf_launch_spawn(&o, &l, fail);
	if (r == 0)
		assert_int_equal(lf_launch_wait(&l, status), 0);
	lf_seccomp_free(&prog);
	return r;
}

static void test_spawn_status(void **state)
{
	static const struct {
		const char *script;
		int code;
	} cases[] = {
		{ "exit 0", 0 },
		{ "exit 1", 1 },
		{ "exit 42", 42 },
		{ "kill -TERM $$", 128 + SIGTERM },
		{ "kill -KILL $$", 128 + SIGKILL },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *argv[] = { "sh", "-c", (char *)cases[i].script, NULL };
		struct lf_launch_failure f;
		int st;
		assert_int_equal(spawn_wait("/bin/sh", argv, -1, NULL, &f, &st), 0);
		assert_int_equal(lf_exit_status_wait(st), cases[i].code);
	}
}

static void test_spawn_hardening(void **state)
{
	char probe[PATH_MAX], num[16];
	struct lf_launch_failure f;
	int st, fd;
	(void)state;

	probe_path(probe, sizeof(probe));
	/* An inherited descriptor without O_CLOEXEC, high and low. */
	fd = open("/etc/hostname", O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(dup2(fd, 9), 9);
	assert_int_equal(dup2(fd, 200), 200);
	for (int n = 0; n < 3; n++) {
		int which[] = { fd, 9, 200 };
		snprintf(num, sizeof(num), "%d", which[n]);
		char *argv[] = { "probe", "closed", num, NULL };
		assert_int_equal(spawn_wait(probe, argv, -1, NULL, &f, &st), 0);
		assert_int_equal(lf_exit_status_wait(st), 0);
	}
	close(fd);
	close(9);
	close(200);

	char *argv[] = { "probe", "nnp", NULL };
	assert_int_equal(spawn_wait(probe, argv, -1, NULL, &f, &st), 0);
	assert_int_equal(lf_exit_status_wait(st), 0);
}

static void on_signal(int sig)
{
	(void)sig;
}

/* The child restores only the signals the kernel reports as caught
 * (SigCgt): the line is read as the kernel writes it, malformed lines
 * are refused (the child then asks about every signal), and the report
 * names exactly the handlers installed here, ignored signals not. */
static void test_sigcgt(void **state)
{
	static const struct {
		const char *text;
		int r;
		uint64_t set;
	} cases[] = {
		{ "Name:\tsh\nSigIgn:\t0000000000000004\nSigCgt:\t0000000000010002\n", 0, 0x10002 },
		{ "Name:\tx\nSigCgt:\tffffffffffffffff\nCapInh:\t0\n", 0, ~(uint64_t)0 },
		{ "Name:\tx\nSigCgt: 1\n", 0, 1 },
		{ "Name:\tx\nSigCgt:\t0\n", 0, 0 },
		{ "Name:\tx\nSigCgt:\t00000000000000000\n", -EINVAL, 0 }, /* 17 digits */
		{ "Name:\tx\nSigCgt:\t\n", -EINVAL, 0 },
		{ "Name:\tx\nSigCgt:\t12g4\n", -EINVAL, 0 },
		{ "Name:\tx\nSigCgt:\t1234", -EINVAL, 0 }, /* cut short */
		{ "Name:\tx\nSigBlk:\t0000000000000002\n", -EINVAL, 0 },
		{ "SigCgt:\t1\n", -EINVAL, 0 }, /* not at a line's start */
		{ "", -EINVAL, 0 },
	};
	struct sigaction sa = { .sa_handler = on_signal }, ign = { .sa_handler = SIG_IGN }, old[3];
	char buf[8192];
	uint64_t set = 7;
	(void)state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t got = 0x5a;

		assert_int_equal(lf_sigcgt_parse(cases[i].text, &got), cases[i].r);
		assert_true(got == (cases[i].r == 0 ? cases[i].set : 0x5a));
	}

	sigemptyset(&sa.sa_mask);
	sigemptyset(&ign.sa_mask);
	assert_int_equal(sigaction(SIGUSR1, &sa, &old[0]), 0);
	assert_int_equal(sigaction(SIGRTMIN + 3, &sa, &old[1]), 0);
	assert_int_equal(sigaction(SIGUSR2, &ign, &old[2]), 0);
	assert_true(lf_proc_read("/proc/self/status", buf, sizeof(buf)) > 0);
	assert_int_equal(lf_sigcgt_parse(buf, &set), 0);
	assert_int_equal(sigaction(SIGUSR1, &old[0], NULL), 0);
	assert_int_equal(sigaction(SIGRTMIN + 3, &old[1], NULL), 0);
	assert_int_equal(sigaction(SIGUSR2, &old[2], NULL), 0);
	assert_true(set >> (SIGUSR1 - 1) & 1);
	assert_true(set >> (SIGRTMIN + 3 - 1) & 1);
	/* An ignored signal is not caught. (A signal left at its default
	 * is not asserted: under valgrind the kernel reports valgrind's own
	 * handlers, which catch those.) */
	assert_false(set >> (SIGUSR2 - 1) & 1);
}

/* A failure before exec is reported with its step through the pipe, and
 * the program never runs. */
static void test_spawn_failures(void **state)
{
	char marker[PATH_MAX], script[PATH_MAX + 64];
	struct lf_launch_failure f;
	struct stat sb;
	int st = -1, pfd[2];
	(void)state;

	snprintf(marker, sizeof(marker), "%s/marker", tmp_root);
	snprintf(script, sizeof(script), "touch %s", marker);
	char *argv[] = { "sh", "-c", script, NULL };

	/* Not a Landlock ruleset: landlock_restrict_self refuses it. */
	assert_int_equal(pipe2(pfd, O_CLOEXEC), 0);
	int r = spawn_wait("/bin/sh", argv, pfd[0], NULL, &f, &st);
	assert_true(r < 0);
	assert_int_equal(f.stage, LF_STAGE_LANDLOCK);
	assert_int_equal(-r, f.err);
	assert_int_equal(stat(marker, &sb), -1);
	close(pfd[0]);
	close(pfd[1]);

	/* A working directory that does not exist. */
	r = spawn_wait("/bin/sh", argv, -1, "/nonexistent-lf-dir", &f, &st);
	assert_int_equal(r, -ENOENT);
	assert_int_equal(f.stage, LF_STAGE_CWD);
	assert_int_equal(stat(marker, &sb), -1);

	/* exec of something that is not a program. */
	r = spawn_wait("/etc/hostname", argv, -1, NULL, &f, &st);
	assert_true(r == -EACCES || r == -ENOEXEC);
	assert_int_equal(f.stage, LF_STAGE_EXEC);
	r = spawn_wait("/nonexistent-lf-prog", argv, -1, NULL, &f, &st);
	assert_int_equal(r, -ENOENT);
	assert_int_equal(f.stage, LF_STAGE_EXEC);
	assert_non_null(lf_launch_stage_name(f.stage));
}

/* A SIGTERM sent to the launcher by another process reaches the child. */
static void test_spawn_forward(void **state)
{
	struct sock_fprog prog = { 0 };
	struct lf_launch l;
	struct lf_launch_failure f;
	char *argv[] = { "sleep", "60", NULL };
	int st;
	(void)state;

	assert_int_equal(lf_seccomp_build(&prog, false), 0);
	struct lf_launch_opts o = {
		.path = "/bin/sleep",
		.argv = argv,
		.envp = environ,
		.ruleset_fd = -1,
		.filter = &prog,
	};
	assert_int_equal(lf_launch_spawn(&o, &l, &f), 0);
	pid_t parent = getpid();
	pid_t k = fork();
	assert_true(k >= 0);
	if (k == 0) {
		kill(parent, SIGTERM);
		_exit(0);
	}
	assert_int_equal(lf_launch_wait(&l, &st), 0);
	assert_true(WIFSIGNALED(st));
	assert_int_equal(WTERMSIG(st), SIGTERM);
	waitpid(k, NULL, 0);
	/* The caller's mask is back: SIGTERM is no longer blocked. */
	sigset_t cur;
	sigprocmask(SIG_SETMASK, NULL, &cur);
	assert_false(sigismember(&cur, SIGTERM));
	lf_seccomp_free(&prog);
}

/* ---- lf_spawn under a real sandbox ---- */

static int spawn_policy(const char *policy, const char *proj, const char *script)
{
	struct lf_policy *p = NULL;
	struct lf_effective *e = NULL;
	struct lf_plan *plan = NULL;
	struct lf_child *c = NULL;
	struct lf_diag d = { 0 };
	int st = -1, r;

	r = lf_policy_parse(policy, strlen(policy), "test.json", LF_LAYER_PROJECT, &p, &d);
	if (r < 0)
		fail_msg("policy: %s", d.message);
	const struct lf_policy *layers[] = { p };
	assert_int_equal(lf_effective_resolve(layers, 1, &e), 0);
	struct lf_context ctx = { .project_root = proj };
	assert_int_equal(lf_plan_compile(e, &ctx, &plan), 0);
	struct lf_child_opts o = { .size = sizeof(o), .project_root = proj, .cwd = proj };
	char *argv[] = { "sh", "-c", (char *)script, NULL };
	r = lf_child_spawn(e, plan, &o, argv, &c, &d);
	if (r < 0)
		fail_msg("lf_spawn: %d %s", r, d.message);
	assert_true(lf_child_pid(c) > 0);
	assert_int_equal(lf_child_status(c)->kind, LF_STATUS_ENFORCED);
	assert_int_equal(lf_child_wait(c, &st), 0);
	assert_int_equal(lf_child_wait(c, &st), -EINVAL);
	lf_child_free(c);
	lf_plan_free(plan);
	lf_effective_free(e);
	lf_policy_free(p);
	return lf_exit_status_wait(st);
}

static void test_spawn_sandbox(void **state)
{
	static const char policy[] =
		"{\"version\": 1, \"fallback\": \"deny\", \"rules\": ["
		"{\"effect\": \"allow\", \"capability\": \"read\", \"paths\": [\"docs/**\"]},"
		"{\"effect\": \"allow\", \"capability\": \"write\", \"paths\": [\"out/**\"]},"
		"{\"effect\": \"allow\", \"capability\": \"read\", \"paths\": [\"src/**\"]},"
		"{\"effect\": \"deny\", \"capability\": \"read\", \"paths\": [\"src/secret/**\"]}"
		"]}";
	char proj[PATH_MAX], canon[PATH_MAX], outside[PATH_MAX];
	(void)state;
	NEED_LANDLOCK();

	snprintf(proj, sizeof(proj), "%s/proj", tmp_root);
	snprintf(outside, sizeof(outside), "%s/outside", tmp_root);
	sh("mkdir -p %s/docs %s/out %s/src/secret %s && echo d > %s/docs/a && "
	   "echo s > %s/src/a && echo k > %s/src/secret/k && echo o > %s/o",
	   proj, proj, proj, outside, proj, proj, proj, outside);
	assert_non_null(realpath(proj, canon));

	bool ns = false;
	assert_true(lf_namespace_probe(&ns, NULL, NULL, 0) >= 0);
	const struct {
		const char *script;
		int code;
	} cases[] = {
		{ "cat docs/a", 0 },
		{ "echo x > out/x", 0 },
		{ "echo x > docs/b", 2 }, /* sh: cannot create: Permission denied */
		{ "cat out/x", 1 },	  /* write does not imply read */
		/* With a mount namespace src/secret is hidden and src kept;
		 * without one the seed's rule: the fence drops src. */
		{ "cat src/a", ns ? 0 : 1 },
		{ "cat src/secret/k", 1 },
		{ "ls -A src/secret 2>/dev/null | grep -q k", 1 }, /* nothing listed */
		{ "cat @OUT@/o", 1 },				   /* outside the project */
		{ "echo x > \"$TMPDIR/t\" && cat \"$TMPDIR/t\"", 0 },
		{ "echo x > /tmp/lf-escape-$$", 2 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char script[PATH_MAX * 2];
		const char *at = strstr(cases[i].script, "@OUT@");
		if (at)
			snprintf(script, sizeof(script), "%.*s%s%s", (int)(at - cases[i].script),
				 cases[i].script, outside, at + 5);
		else
			snprintf(script, sizeof(script), "%s", cases[i].script);
		int code = spawn_policy(policy, canon, script);
		if (code != cases[i].code)
			fail_msg("case %zu `%s`: exit %d, want %d", i, script, code, cases[i].code);
	}
}

/* Fails the test where no mount namespace can be made (the masks need
 * one), skips it where the user turned them off. */
static void need_namespace(void)
{
	bool ns = false;

	assert_true(lf_namespace_probe(&ns, NULL, NULL, 0) >= 0);
	if (!ns) {
		if (getenv("LANDFENCE_NO_NAMESPACES")) {
			print_message("no mount namespace (LANDFENCE_NO_NAMESPACES): no masks\n");
			skip();
		}
		fail_msg("no mount namespace on this machine: the masks cannot be tested");
	}
}

/* A child of argv prepared under the policy text in the project dir
 * (canonical), which is its working directory too; the caller frees
 * the four values. */
static void child_in(const char *policy, const char *dir, char **argv, struct lf_policy **p,
		     struct lf_effective **e, struct lf_plan **plan, struct lf_child **c)
{
	struct lf_diag d = { 0 };

	assert_int_equal(
		lf_policy_parse(policy, strlen(policy), "policy.json", LF_LAYER_PROJECT, p, &d), 0);
	const struct lf_policy *layers[] = { *p };
	assert_int_equal(lf_effective_resolve(layers, 1, e), 0);
	struct lf_context ctx = { .project_root = dir };
	assert_int_equal(lf_plan_compile(*e, &ctx, plan), 0);
	struct lf_child_opts o = { .size = sizeof(o), .project_root = dir, .cwd = dir };
	if (lf_child_new(*e, *plan, &o, argv, c, &d) != 0)
		fail_msg("lf_child_new: %s", d.message);
}

/* The masks' targets are looked at twice: by the facts step when the
 * value is compiled, and by the child, on descriptors, just before it
 * mounts. Whatever changed in between — a masked directory or a parent
 * of it swapped for a symbolic link, a file for a directory, a target
 * gone — the child refuses to go on (the namespace stage) and nothing
 * runs: it never masks a path other than the one the value names, and
 * never runs with a mask missing. */
static void test_mask_targets_changed_before_mount(void **state)
{
	static const char policy[] =
		"{\"version\": 1, \"fallback\": \"deny\", \"rules\": ["
		"{\"effect\": \"allow\", \"capability\": \"read\", \"paths\": [\"**\"]},"
		"{\"effect\": \"allow\", \"capability\": \"write\", \"paths\": [\"**\"]},"
		"{\"effect\": \"deny\", \"capability\": \"read\", \"paths\": "
		"[\"secret/**\", \".env\", \"a/b/deep/**\"]}]}";
	static const struct {
		const char *change; /* run in the project between the two looks */
		int err;	    /* what the child meets */
	} cases[] = {
		{ "mv secret secret.old && ln -s /etc secret", ELOOP },
		{ "mv a a.old && ln -s a.old a", ELOOP },
		{ "rm .env && mkdir .env", ESTALE },
		{ "rm -r secret", ENOENT },
		{ "mv .env env.old && ln -s env.old .env", ELOOP },
	};
	char proj[PATH_MAX], canon[PATH_MAX], ran[PATH_MAX + 8];
	(void)state;
	NEED_LANDLOCK();

	need_namespace();
	snprintf(proj, sizeof(proj), "%s/race", tmp_root);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct lf_policy *p = NULL;
		struct lf_effective *e = NULL;
		struct lf_plan *plan = NULL;
		struct lf_child *c = NULL;
		struct lf_diag d = { 0 };

		sh("rm -rf %s && mkdir -p %s/secret %s/a/b/deep && echo k > %s/secret/k && "
		   "echo e > %s/.env && echo d > %s/a/b/deep/k",
		   proj, proj, proj, proj, proj, proj);
		assert_non_null(realpath(proj, canon));
		snprintf(ran, sizeof(ran), "%s/ran", canon);
		char *argv[] = { "sh", "-c", "touch ran", NULL };
		child_in(policy, canon, argv, &p, &e, &plan, &c);
		assert_true(lf_sandbox_mask_count(lf_child_sandbox(c)) >= 3);
		sh("cd %s && %s", canon, cases[i].change);
		int r = lf_child_start(c, &d);
		if (r != -ECHILD || lf_child_failure(c)->stage != LF_STAGE_NAMESPACE ||
		    lf_child_failure(c)->err != cases[i].err)
			fail_msg("`%s`: start %d (stage %d, errno %d), want the namespace stage "
				 "and errno %d: %s",
				 cases[i].change, r, lf_child_failure(c)->stage,
				 lf_child_failure(c)->err, cases[i].err, d.message);
		assert_non_null(strstr(d.message, "masking in a mount namespace"));
		assert_int_equal(access(ran, F_OK), -1);
		lf_child_free(c);
		lf_plan_free(plan);
		lf_effective_free(e);
		lf_policy_free(p);
	}
}

/* A mask that falls while the program runs: its name renamed over
 * outside the sandbox (an editor's save) takes the mount off in every
 * namespace, and the library kills the program at once and says which
 * mask fell (lf_child_mask_fell), not only run. As root the program
 * first changes its root to the project: the table the watch reads was
 * opened by the child before its exec, from the launcher's root, so a
 * chroot does not blind it (a table opened after the exec would show
 * only the program's part: every mask missing, or none watched). The
 * watch runs in lf_child_wait, which this test enters after the rename.
 * The program is killed within one of its 50 ms rounds: it reads .env
 * past its mask at most once. Once is the open window of doc/launch.md
 * ("A mask that falls"): between the mount's removal and the name's move
 * the old file is reached at the old name, and between the move and the
 * kill the new one, each for up to a few milliseconds here; the test prints
 * what such a read got and does not fail on it. Two reads would mean a
 * kill that came a whole round late. */
static void test_mask_watch(void **state)
{
	static const char policy[] =
		"{\"version\": 1, \"fallback\": \"deny\", \"rules\": ["
		"{\"effect\": \"allow\", \"capability\": \"read\", \"paths\": [\"**\"]},"
		"{\"effect\": \"allow\", \"capability\": \"write\", \"paths\": [\"**\"]},"
		"{\"effect\": \"deny\", \"capability\": \"read\", \"paths\": [\".env\"]}]}";
	static const char script[] = "import os, time\n"
				     "root = ''\n"
				     "if os.geteuid() == 0:\n"
				     "    os.chroot('.')\n"
				     "    root = ' '.join(sorted(os.listdir('/')))\n"
				     "with open('started.new', 'w') as f:\n"
				     "    f.write(root)\n"
				     "os.rename('started.new', 'started')\n"
				     "for _ in range(600):\n"
				     "    time.sleep(0.05)\n"
				     "    try:\n"
				     "        with open('.env') as f:\n"
				     "            open('seen', 'a').write(f.read())\n"
				     "    except PermissionError:\n"
				     "        open('refused', 'a').write('.env\\n')\n"
				     "open('after', 'w').close()\n";
	char proj[PATH_MAX], canon[PATH_MAX], path[PATH_MAX + 16], want[PATH_MAX + 8];
	struct lf_policy *p = NULL;
	struct lf_effective *e = NULL;
	struct lf_plan *plan = NULL;
	struct lf_child *c = NULL;
	struct lf_diag d = { 0 };
	int status = 0;
	(void)state;
	NEED_LANDLOCK();

	need_namespace();
	snprintf(proj, sizeof(proj), "%s/watch", tmp_root);
	sh("rm -rf %s && mkdir -p %s && echo SECRET=1 > %s/.env", proj, proj, proj);
	assert_non_null(realpath(proj, canon));
	char *argv[] = { "python3", "-c", (char *)script, NULL };
	child_in(policy, canon, argv, &p, &e, &plan, &c);
	assert_true(lf_sandbox_mask_count(lf_child_sandbox(c)) >= 1);
	if (lf_child_start(c, &d) != 0)
		fail_msg("start: %s", d.message);
	/* The quick look is armed: the child handed over the namespace's
	 * root, and the mask on .env was found through it. */
	assert_true(lf_child_watch_looks(c) >= 1);
	snprintf(path, sizeof(path), "%s/started", canon);
	for (int i = 0; i < 600 && access(path, F_OK) < 0; i++)
		usleep(50000);
	assert_int_equal(access(path, F_OK), 0);
	if (geteuid() == 0) {
		/* The program's root is the project now: "/" lists .env. */
		char seen[4096] = "";
		FILE *f = fopen(path, "re");
		assert_non_null(f);
		size_t n = fread(seen, 1, sizeof(seen) - 1, f);
		seen[n] = '\0';
		fclose(f);
		if (!strstr(seen, ".env"))
			fail_msg("the program did not change its root: / holds %s", seen);
	}
	sh("cd %s && echo SECRET=2 > .env.new && mv .env.new .env", canon);
	assert_int_equal(lf_child_wait(c, &status), 0);
	if (!WIFSIGNALED(status) || WTERMSIG(status) != SIGKILL)
		fail_msg("the program was not killed after its mask fell: status %#x", status);
	snprintf(want, sizeof(want), "%s/.env", canon);
	assert_non_null(lf_child_mask_fell(c));
	assert_string_equal(lf_child_mask_fell(c), want);
	assert_int_equal(lf_child_watch_error(c), 0);
	assert_int_equal(lf_child_watch_looks(c), 0); /* stopped with the watch */
	snprintf(path, sizeof(path), "%s/after", canon);
	assert_int_equal(access(path, F_OK), -1);
	/* What the program read of .env past its mask: nothing, or one read
	 * in the window the kill closes (the old file or the new one). */
	snprintf(path, sizeof(path), "%s/seen", canon);
	FILE *seen = fopen(path, "re");
	if (seen) {
		char buf[4096];
		size_t n = fread(buf, 1, sizeof(buf) - 1, seen);
		int reads = 0;
		buf[n] = '\0';
		fclose(seen);
		for (const char *s = buf; (s = strstr(s, "SECRET")); s++)
			reads++;
		if (reads > 1)
			fail_msg("the program read .env %d times past its mask: %s", reads, buf);
		if (reads == 1)
			print_message("the program read .env once as its mask fell (the open "
				      "window, doc/launch.md): %s",
				      buf);
	}
	lf_child_free(c);
	lf_plan_free(plan);
	lf_effective_free(e);
	lf_policy_free(p);
}

/* A process in a mount namespace of its own (a user namespace too when
 * not root), waiting; its namespace's inode into *st. */
static pid_t ns_member(struct stat *st)
{
	char path[64];
	int p[2];
	char c;

	assert_int_equal(pipe2(p, O_CLOEXEC), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		/* This process may have been made non-dumpable by a launch
		 * of an earlier test; another user's /proc/PID/ns/mnt of a
		 * non-dumpable process is out of reach. */
		if (prctl(PR_SET_DUMPABLE, 1) != 0 ||
		    unshare(geteuid() == 0 ? CLONE_NEWNS : CLONE_NEWUSER | CLONE_NEWNS) != 0)
			_exit(1);
		if (write(p[1], "x", 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	close(p[1]);
	ssize_t n = read(p[0], &c, 1);
	close(p[0]);
	if (n != 1) {
		waitpid(pid, NULL, 0);
		fail_msg("no mount namespace of its own for a child");
	}
	snprintf(path, sizeof(path), "/proc/%d/ns/mnt", (int)pid);
	if (stat(path, st) != 0) {
		int e = errno;
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		fail_msg("%s: %s", path, strerror(e));
	}
	return pid;
}

/* The walks that stop and kill a namespace's processes know it by its
 * inode number, which the kernel gives to the next namespace made once
 * this one is freed (`unshare -m` five times in a row gets one number
 * five times). They walk only while the launch holds the namespace: a
 * walk by a number no longer held would signal another launch's
 * processes, or a service's. */
static void test_walk_only_a_held_namespace(void **state)
{
	struct stat a, b;
	int st;
	char path[64];
	(void)state;
	/* As the masks' tests: under valgrind, which knows neither Landlock's
	 * calls nor the namespace probe's, it skips. */
	NEED_LANDLOCK();

	need_namespace();
	pid_t pa = ns_member(&a);
	struct lf_launch l = {
		.pid = -1, .ns_ino = a.st_ino, .ns_dev = a.st_dev, .ns_fd = -1, .mnt_fd = -1
	};
	/* Held: its process is found and killed. */
	snprintf(path, sizeof(path), "/proc/%d/ns/mnt", (int)pa);
	l.ns_fd = open(path, O_RDONLY | O_CLOEXEC);
	int sent = l.ns_fd >= 0 ? lf_mask_watch_signal(&l, SIGKILL) : -1;
	kill(pa, SIGKILL); /* whatever the walk did: none left behind */
	assert_int_equal(waitpid(pa, &st, 0), pa);
	assert_true(sent >= 1); /* again while it was dying: more */
	/* Let go: the number may name the next namespace, which is left
	 * alone. */
	close(l.ns_fd);
	l.ns_fd = -1;
	pid_t pb = ns_member(&b);
	if (b.st_ino != a.st_ino)
		print_message("the namespace's number was not reused this time\n");
	sent = lf_mask_watch_signal(&l, SIGKILL);
	pid_t alive = waitpid(pb, &st, WNOHANG); /* 0: still there */
	if (alive == 0) {
		kill(pb, SIGKILL);
		waitpid(pb, &st, 0);
	}
	assert_int_equal(sent, 0);
	assert_int_equal(alive, 0);
	/* Held by the mount table alone (the watch's duplicate could not be
	 * made): walked, its process killed. */
	pid_t pc = ns_member(&a);
	l.ns_ino = a.st_ino;
	l.ns_dev = a.st_dev;
	snprintf(path, sizeof(path), "/proc/%d/mountinfo", (int)pc);
	l.mnt_fd = open(path, O_RDONLY | O_CLOEXEC);
	sent = l.mnt_fd >= 0 ? lf_mask_watch_signal(&l, SIGKILL) : -1;
	kill(pc, SIGKILL);
	assert_int_equal(waitpid(pc, &st, 0), pc);
	if (l.mnt_fd >= 0)
		close(l.mnt_fd);
	assert_true(sent >= 1); /* again while it was dying: more */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mask_targets_changed_before_mount),
		cmocka_unit_test(test_mask_watch),
		cmocka_unit_test(test_walk_only_a_held_namespace),
		cmocka_unit_test(test_resolve),
		cmocka_unit_test(test_env_scrub),
		cmocka_unit_test(test_seccomp_filter),
		cmocka_unit_test(test_rundir),
		cmocka_unit_test(test_spawn_status),
		cmocka_unit_test(test_spawn_hardening),
		cmocka_unit_test(test_sigcgt),
		cmocka_unit_test(test_spawn_failures),
		cmocka_unit_test(test_spawn_forward),
		cmocka_unit_test(test_spawn_sandbox),
	};
	return cmocka_run_group_tests(tests, setup_tmp, teardown_tmp);
}
