/* SPDX-License-Identifier: MIT */
/*
 * The escape suite's runner: one cmocka test per case of cases.c. A case
 * gets a fresh tree in a temporary directory, runs landfence as a user
 * would (its own HOME and XDG_CONFIG_HOME, the project as working
 * directory, a few secrets in the environment) and checks what happened.
 *
 * Usage: test_escape PROBE [--holes] [CASE-NAME-SUBSTRING]
 * Without --holes it runs the cases that must pass; with it, the cases
 * that document an open hole or a missing piece (esc_case.hole), each in
 * a child process, and passes while they still fail: a hole case that
 * starts to pass fails the run, so that it moves to the main suite. A
 * substring selects cases by name from both sets ("=NAME": exactly).
 * Environment: LANDFENCE_BIN (the tool), LANDFENCE_BUILDDIR,
 * LANDFENCE_TESTS_MUST_ENFORCE=1 (fail instead of skip without Landlock).
 */
#include <errno.h>
#include <fcntl.h>
#include <mqueue.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/shm.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "harness.h"

static const char *probe_path;
static const char *bin_path;
static bool ns_here; /* the machine makes the masks' mount namespace */
static char build_dir[PATH_MAX];
static char top[PATH_MAX / 8];
static int kernel_abi;
static unsigned case_counter;

const char *esc_path(const struct esc *e, const char *rel)
{
	static char bufs[8][PATH_MAX];
	static unsigned next;
	char *b = bufs[next++ % 8];

	if (rel[0] == '/' || rel[0] == '@')
		esc_subst(e, rel, b, PATH_MAX);
	else
		snprintf(b, PATH_MAX, "%s/%s", e->base, rel);
	return b;
}

void esc_subst(const struct esc *e, const char *in, char *out, size_t size)
{
	size_t o = 0;
	char pid[32];

	char key[32];

	snprintf(pid, sizeof(pid), "%d", (int)e->helper);
	snprintf(key, sizeof(key), "0x%x", 0x1f000000u | ((unsigned)e->helper & 0xffffffu));
	for (const char *s = in; *s && o + 1 < size; s++) {
		const char *rep = NULL;
		if (s[0] == '@') {
			switch (s[1]) {
			case 'B':
				rep = e->base;
				break;
			case 'P':
				rep = e->proj;
				break;
			case 'O':
				rep = e->out;
				break;
			case 'R':
				rep = e->link;
				break;
			case 'N':
				rep = e->name;
				break;
			case 'X':
				rep = pid;
				break;
			case 'H':
				rep = e->home;
				break;
			case 'C':
				rep = e->cfg;
				break;
			case 'L':
				rep = bin_path;
				break;
			case 'D':
				rep = build_dir;
				break;
			case 'E':
				rep = probe_path;
				break;
			case 'K':
				rep = key;
				break;
			default:
				break;
			}
		}
		if (rep) {
			size_t n = strlen(rep);
			if (o + n >= size)
				n = size - o - 1;
			memcpy(out + o, rep, n);
			o += n;
			s++;
		} else {
			out[o++] = *s;
		}
	}
	out[o] = '\0';
}

void esc_put(const struct esc *e, const char *rel, const char *text)
{
	const char *p = esc_path(e, rel);
	int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		fail_msg("cannot create %s: %s", p, strerror(errno));
	size_t n = strlen(text);
	assert_int_equal(write(fd, text, n), (ssize_t)n);
	close(fd);
}

void esc_mkdir(const struct esc *e, const char *rel)
{
	char p[PATH_MAX];

	snprintf(p, sizeof(p), "%s", esc_path(e, rel));
	for (char *s = p + strlen(e->base) + 1; *s; s++)
		if (*s == '/') {
			*s = '\0';
			mkdir(p, 0755);
			*s = '/';
		}
	if (mkdir(p, 0755) != 0 && errno != EEXIST)
		fail_msg("mkdir %s: %s", p, strerror(errno));
}

bool esc_file_is(const struct esc *e, const char *rel, const char *text)
{
	char buf[8192];
	int fd = open(esc_path(e, rel), O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < 0)
		return false;
	buf[n] = '\0';
	return strcmp(buf, text) == 0;
}

bool esc_exists(const struct esc *e, const char *rel)
{
	struct stat st;
	return lstat(esc_path(e, rel), &st) == 0;
}

/* dst = a + b, or a failed test when it does not fit. */
static void join(char *dst, size_t size, const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);

	if (la + lb >= size)
		fail_msg("path too long: %s%s", a, b);
	memcpy(dst, a, la);
	memcpy(dst + la, b, lb + 1);
}

static int rm_tree(const char *path)
{
	char cmd[PATH_MAX + 32];

	/* The trees are ours and hold no quote. */
	if (strchr(path, '\'') || strlen(path) > PATH_MAX)
		return -1;
	join(cmd, sizeof(cmd), "rm -rf '", path);
	join(cmd + strlen(cmd), sizeof(cmd) - strlen(cmd), "", "'");
	return system(cmd);
}

/* The standard tree every case starts from. */
static void tree(struct esc *e)
{
	esc_mkdir(e, "proj/.git/hooks");
	esc_mkdir(e, "proj/src/sub");
	esc_mkdir(e, "proj/docs");
	esc_mkdir(e, "proj/secret");
	esc_mkdir(e, "out/dir");
	esc_mkdir(e, "cfg");
	esc_mkdir(e, "home/.ssh");
	esc_put(e, "proj/.git/hooks/pre-commit", "#!/bin/sh\nexit 0\n");
	chmod(esc_path(e, "proj/.git/hooks/pre-commit"), 0755);
	esc_put(e, "proj/.git/config", "[core]\n");
	esc_put(e, "proj/.git/HEAD", "ref: refs/heads/main\n");
	esc_put(e, "proj/src/a.txt", "A");
	esc_put(e, "proj/src/sub/b.txt", "B");
	esc_put(e, "proj/docs/ro.txt", "RO");
	esc_put(e, "proj/secret/key", "KEY");
	esc_put(e, "out/secret", "OUT");
	esc_put(e, "out/dir/inner", "IN");
	esc_put(e, "home/.ssh/id_rsa", "PRIVATE");
	assert_int_equal(symlink(e->proj, e->link), 0);
}

/* ------------------------------------------------------------------------
 * The outside helper: an unsandboxed process that listens on an abstract
 * socket and on pathname sockets, and hands every client a directory and
 * a file descriptor it opened itself (@O/dir and @O/secret).
 */

static int listen_on(struct sockaddr_un *a, socklen_t len)
{
	int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (s < 0 || bind(s, (struct sockaddr *)a, len) != 0 || listen(s, 8) != 0)
		return -1;
	return s;
}

static void helper_serve(const struct esc *e, int ready)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	int ls[3];
	char name[96];

	snprintf(name, sizeof(name), "%s-abs", e->name);
	memcpy(a.sun_path + 1, name, strlen(name));
	ls[0] = listen_on(&a,
			  (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + strlen(name)));
	memset(&a, 0, sizeof(a));
	a.sun_family = AF_UNIX;
	if (strlen(e->out) + 32 > sizeof(a.sun_path))
		_exit(1); /* a socket path must fit in 108 bytes: use a short TMPDIR */
	join(a.sun_path, sizeof(a.sun_path), e->out, "/helper.sock");
	ls[1] = listen_on(&a, sizeof(a));
	join(a.sun_path, sizeof(a.sun_path), e->proj, "/src/helper.sock");
	ls[2] = listen_on(&a, sizeof(a));
	if (ls[0] < 0 || ls[1] < 0 || ls[2] < 0)
		_exit(1);
	/* SysV shared memory and a POSIX message queue, made outside: the
	 * IPC that neither Landlock scope covers. */
	int shm = shmget((key_t)(0x1f000000 | (getpid() & 0xffffff)), 4096, IPC_CREAT | 0600);
	if (shm >= 0) {
		char *m = shmat(shm, NULL, 0);
		if (m != (void *)-1)
			memcpy(m, "SECRET", 7);
	}
	snprintf(name, sizeof(name), "/%s-mq", e->name);
	struct mq_attr qa = { .mq_maxmsg = 4, .mq_msgsize = 64 };
	mqd_t q = mq_open(name, O_CREAT | O_RDWR | O_CLOEXEC, 0600, &qa);
	(void)q;
	if (write(ready, "r", 1) != 1)
		_exit(1);
	close(ready);
	for (;;) {
		struct pollfd p[3] = { { ls[0], POLLIN, 0 },
				       { ls[1], POLLIN, 0 },
				       { ls[2], POLLIN, 0 } };
		if (poll(p, 3, -1) < 0)
			continue;
		for (int i = 0; i < 3; i++) {
			if (!(p[i].revents & POLLIN))
				continue;
			int c = accept4(ls[i], NULL, NULL, SOCK_CLOEXEC);
			if (c < 0)
				continue;
			int fds[2] = {
				open(esc_path(e, "out/dir"), O_RDONLY | O_DIRECTORY | O_CLOEXEC),
				open(esc_path(e, "out/secret"), O_RDWR | O_CLOEXEC),
			};
			char byte = 'f';
			struct iovec iov = { &byte, 1 };
			union {
				char buf[CMSG_SPACE(sizeof(fds))];
				struct cmsghdr align;
			} u;
			memset(&u, 0, sizeof(u));
			struct msghdr m = { .msg_iov = &iov,
					    .msg_iovlen = 1,
					    .msg_control = u.buf,
					    .msg_controllen = sizeof(u.buf) };
			struct cmsghdr *cm = CMSG_FIRSTHDR(&m);
			cm->cmsg_level = SOL_SOCKET;
			cm->cmsg_type = SCM_RIGHTS;
			cm->cmsg_len = CMSG_LEN(sizeof(fds));
			memcpy(CMSG_DATA(cm), fds, sizeof(fds));
			if (fds[0] >= 0 && fds[1] >= 0 && sendmsg(c, &m, MSG_NOSIGNAL) < 0) {
				/* The client went away: nothing to do. */
			}
			close(fds[0]);
			close(fds[1]);
			close(c);
		}
	}
}

static void helper_start(struct esc *e)
{
	int p[2];
	char c;

	assert_int_equal(pipe2(p, O_CLOEXEC), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(p[0]);
		helper_serve(e, p[1]);
		_exit(0);
	}
	close(p[1]);
	assert_int_equal(read(p[0], &c, 1), 1);
	close(p[0]);
	e->helper = pid;
}

static void helper_stop(struct esc *e)
{
	if (e->helper > 0) {
		char name[96];
		int shm = shmget((key_t)(0x1f000000 | (e->helper & 0xffffff)), 0, 0);
		if (shm >= 0)
			shmctl(shm, IPC_RMID, NULL);
		snprintf(name, sizeof(name), "/%s-mq", e->name);
		mq_unlink(name);
		kill(e->helper, SIGKILL);
		waitpid(e->helper, NULL, 0);
		e->helper = 0;
	}
}

/* ------------------------------------------------------------------------
 * Running landfence
 */

static void append(char *buf, size_t size, const char *data, size_t n)
{
	size_t have = strlen(buf);
	if (have + n >= size)
		n = size - have - 1;
	memcpy(buf + have, data, n);
	buf[have + n] = '\0';
}

/* Splits s on spaces into argv (at most max - 1 words, NULL-terminated). */
static size_t split(char *s, char **argv, size_t max)
{
	size_t n = 0;
	for (char *t = strtok(s, " "); t && n + 1 < max; t = strtok(NULL, " "))
		argv[n++] = t;
	argv[n] = NULL;
	return n;
}

static void child_env(const struct esc *e)
{
	char v[PATH_MAX];

	setenv("HOME", e->home, 1);
	setenv("XDG_CONFIG_HOME", e->cfg, 1);
	snprintf(v, sizeof(v), "%s/agent.sock", e->out);
	setenv("SSH_AUTH_SOCK", v, 1);
	setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=/run/user/0/bus", 1);
	setenv("LF_TEST_TOKEN", "hunter2", 1);
	unsetenv("LANDFENCE_ABI_MAX");
	if (e->c && e->c->abi_max)
		setenv("LANDFENCE_ABI_MAX", e->c->abi_max, 1);
	if (e->c && (e->c->flags & ESC_NO_NS))
		setenv("LANDFENCE_NO_NAMESPACES", "1", 1);
	if (e->c && e->c->env) {
		esc_subst(e, e->c->env, v, sizeof(v));
		char *eq = strchr(v, '=');
		if (eq) {
			*eq = '\0';
			setenv(v, eq + 1, 1);
		}
	}
}

bool esc_ns(const struct esc *e)
{
	return ns_here && !(e->c && (e->c->flags & ESC_NO_NS));
}

/* Runs argv; feeds "ready" lines to the case's during() callback. */
static void run_argv(struct esc *e, char **argv, bool pty, bool inherit, struct esc_result *r)
{
	bool stdin_dir = e->c && (e->c->flags & ESC_STDIN_DIR);
	int outp[2], errp[2], inp[2] = { -1, -1 }, master = -1;

	memset(r, 0, sizeof(*r));
	assert_int_equal(pipe2(outp, O_CLOEXEC), 0);
	assert_int_equal(pipe2(errp, O_CLOEXEC), 0);
	if (pty) {
		master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
		assert_true(master >= 0);
		assert_int_equal(grantpt(master), 0);
		assert_int_equal(unlockpt(master), 0);
	} else {
		assert_int_equal(pipe2(inp, O_CLOEXEC), 0);
	}
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int in = pty	     ? open(ptsname(master), O_RDWR | O_NOCTTY)
			 : stdin_dir ? open(e->proj, O_RDONLY | O_DIRECTORY)
				     : inp[0];
		if (in < 0 || dup2(in, 0) < 0 || dup2(outp[1], 1) < 0 || dup2(errp[1], 2) < 0)
			_exit(124);
		if (inherit) {
			/* Descriptors the caller forgot to close, on a file the
			 * policy never grants. */
			int fd = open(esc_path(e, "out/secret"), O_RDWR);
			if (fd < 0 || dup2(fd, 3) < 0 || dup2(fd, 7) < 0 || dup2(fd, 200) < 0)
				_exit(124);
			if (fd != 3 && fd != 7 && fd != 200)
				close(fd);
		}
		child_env(e);
		if (chdir(e->cwd[0] ? e->cwd : e->proj) != 0)
			_exit(124);
		execv(argv[0], argv);
		_exit(127);
	}
	close(outp[1]);
	close(errp[1]);
	if (!pty)
		close(inp[0]);

	struct pollfd p[2] = { { outp[0], POLLIN, 0 }, { errp[0], POLLIN, 0 } };
	int open_fds = 2, waited_ms = 0;
	char line[4096];
	size_t ll = 0;
	while (open_fds > 0) {
		int n = poll(p, 2, 1000);
		if (n == 0) {
			/* A safety net against a hung case, not a timing check. */
			waited_ms += 1000;
			if (waited_ms > 240000) {
				kill(pid, SIGKILL);
				append(r->err, sizeof(r->err), "\n[harness: killed after a hang]\n",
				       32);
			}
			continue;
		}
		for (int i = 0; i < 2; i++) {
			char buf[4096];
			if (p[i].fd < 0 || !(p[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			ssize_t k = read(p[i].fd, buf, sizeof(buf));
			if (k <= 0) {
				close(p[i].fd);
				p[i].fd = -1;
				open_fds--;
				continue;
			}
			if (i == 1) {
				append(r->err, sizeof(r->err), buf, (size_t)k);
				continue;
			}
			append(r->out, sizeof(r->out), buf, (size_t)k);
			for (ssize_t j = 0; j < k; j++) {
				if (buf[j] != '\n') {
					if (ll + 1 < sizeof(line))
						line[ll++] = buf[j];
					continue;
				}
				line[ll] = '\0';
				ll = 0;
				if (strcmp(line, "ready") == 0) {
					if (e->c && e->c->during)
						e->c->during(e);
					if (inp[1] >= 0 && write(inp[1], "\n", 1) != 1)
						fail_msg("cannot wake the probe");
				}
			}
		}
	}
	if (inp[1] >= 0)
		close(inp[1]);
	int st = 0;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	if (master >= 0)
		close(master);
	r->exit = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

void esc_landfence(struct esc *e, const char *const *argv, struct esc_result *r)
{
	char words[64][PATH_MAX / 4];
	char *av[66];
	size_t n = 0;

	av[n++] = (char *)bin_path;
	for (size_t i = 0; argv[i] && n < 65; i++, n++) {
		esc_subst(e, argv[i], words[n], sizeof(words[n]));
		av[n] = words[n];
	}
	av[n] = NULL;
	run_argv(e, av, false, false, r);
}

static void write_policy(struct esc *e, const char *path)
{
	char text[16384];
	esc_subst(e, e->c->policy, text, sizeof(text));
	/* Policies are written with ' for " in cases.c, for legibility. */
	for (char *t = text; *t; t++)
		if (*t == '\'')
			*t = '"';
	esc_put(e, path, text);
}

static void dump(const struct esc_case *c, const struct esc_result *r)
{
	print_message("--- case: %s (kind %d)\n--- exit %d\n--- stdout:\n%s--- stderr:\n%s---\n",
		      c->name, c->kind, r->exit, r->out, r->err);
	if (c->hole)
		print_message("--- open: %s\n", c->hole);
}

/* A wanted token is a word or alternatives "A|B": where the answer
 * depends on what the kernel checks first (a capability, a locked mount),
 * both being refusals. */
static bool token_matches(const char *want, const char *got)
{
	size_t n = strlen(got);

	for (const char *w = want;;) {
		const char *bar = strchr(w, '|');
		size_t len = bar ? (size_t)(bar - w) : strlen(w);
		if (len == n && !memcmp(w, got, n))
			return true;
		if (!bar)
			return false;
		w = bar + 1;
	}
}

static void check_tokens(const struct esc_case *c, const char *expect, const struct esc_result *r)
{
	char got[16384], want[1024];
	char *g[256], *w[256];
	size_t ng = 0, nw;

	snprintf(got, sizeof(got), "%s", r->out);
	for (char *t = strtok(got, "\n"); t && ng < 255; t = strtok(NULL, "\n"))
		if (strcmp(t, "ready") != 0)
			g[ng++] = t;
	snprintf(want, sizeof(want), "%s", expect);
	nw = split(want, w, 256);
	bool same = ng == nw;
	for (size_t i = 0; same && i < nw; i++)
		same = token_matches(w[i], g[i]);
	if (!same) {
		dump(c, r);
		fail_msg("case '%s': the probe said something else than: %s", c->name, expect);
	}
}

/* The case being run: a failing assertion jumps out of run_case, and the
 * teardown still stops its helper and frees its result. */
static struct esc cur;
static struct esc_result *cur_result;

static int case_teardown(void **state)
{
	(void)state;
	helper_stop(&cur);
	free(cur_result);
	cur_result = NULL;
	return 0;
}

static void run_case(void **state)
{
	const struct esc_case *c = *state;
	struct esc *ep = &cur;
	struct esc_result *r = calloc(1, sizeof(*r));

	memset(ep, 0, sizeof(*ep));
	ep->c = c;
	cur_result = r;
#define e (*ep)
	char probe_ops[4096], *ops[128];
	char *av[160];
	size_t n = 0;

	assert_non_null(r);
	if ((c->flags & ESC_ROOT) && geteuid() != 0) {
		print_message("case needs root\n");
		skip();
	}
	if ((c->flags & ESC_NOT_ROOT) && geteuid() == 0) {
		print_message("case for a user other than root\n");
		skip();
	}
	if ((c->flags & ESC_NS) && !ns_here) {
		print_message("no mount namespace here: the case is about masks\n");
		skip();
	}
	if (c->min_abi && kernel_abi < c->min_abi) {
		print_message("kernel Landlock ABI %d < %d: case needs a newer kernel\n",
			      kernel_abi, c->min_abi);
		skip();
	}
	snprintf(e.base, sizeof(e.base), "%s/c%03u", top, ++case_counter);
	assert_int_equal(mkdir(e.base, 0755), 0);
	join(e.proj, sizeof(e.proj), e.base, "/proj");
	join(e.out, sizeof(e.out), e.base, "/out");
	join(e.cfg, sizeof(e.cfg), e.base, "/cfg");
	join(e.home, sizeof(e.home), e.base, "/home");
	join(e.link, sizeof(e.link), e.base, "/proj-link");
	join(e.policy, sizeof(e.policy), e.base, "/policy.json");
	snprintf(e.name, sizeof(e.name), "lf-esc-%d-%u", (int)getpid(), case_counter);
	tree(&e);
	if (c->setup)
		c->setup(&e);
	if (c->flags & ESC_HELPER)
		helper_start(&e);

	av[n++] = (char *)bin_path;
	av[n++] = (char *)(c->mode == ESC_PLAN ? "plan" : c->mode == ESC_DOCTOR ? "doctor" : "run");
	if (c->mode != ESC_DOCTOR) {
		if (c->flags & ESC_PROJECT_POLICY) {
			esc_mkdir(&e, "proj/.landfence");
			write_policy(&e, "proj/.landfence/policy.json");
			if (c->flags & ESC_TRUST) {
				static const char *const trust[] = { "trust", "-C", "@P", NULL };
				esc_landfence(&e, trust, r);
				if (r->exit != 0) {
					dump(c, r);
					fail_msg("landfence trust failed");
				}
			}
		} else if (c->policy && (c->flags & ESC_POLICY_IN_SRC)) {
			write_policy(&e, "proj/src/agent-policy.json");
			join(e.policy, sizeof(e.policy), e.proj, "/src/agent-policy.json");
			av[n++] = (char *)"-p";
			av[n++] = e.policy;
		} else if (c->policy && !(c->flags & ESC_NO_POLICY)) {
			write_policy(&e, "policy.json");
			av[n++] = (char *)"-p";
			av[n++] = e.policy;
		}
		if (!(c->flags & ESC_DISCOVER)) {
			av[n++] = (char *)"-C";
			av[n++] = (c->flags & ESC_VIA_LINK) ? e.link : e.proj;
		}
	}
	static char extra[1024];
	if (c->args) {
		esc_subst(&e, c->args, extra, sizeof(extra));
		char *more[16];
		size_t k = split(extra, more, 16);
		for (size_t i = 0; i < k; i++)
			av[n++] = more[i];
	}
	size_t warm_n = 0;
	if (c->mode == ESC_RUN) {
		av[n++] = (char *)"--";
		av[n++] = (char *)probe_path;
		warm_n = n;
		esc_subst(&e, c->probe ? c->probe : "", probe_ops, sizeof(probe_ops));
		for (char *t = probe_ops; *t; t++)
			if (*t == '\'')
				*t = '"'; /* as in policies: JSON arguments */
		size_t k = split(probe_ops, ops, 128);
		for (size_t i = 0; i < k && n < 159; i++)
			av[n++] = ops[i];
	}
	av[n] = NULL;

	if ((c->flags & ESC_WARM) && warm_n) {
		char *keep = av[warm_n];

		av[warm_n] = NULL;
		run_argv(&e, av, false, false, r);
		av[warm_n] = keep;
		if (r->exit != 0) {
			dump(c, r);
			fail_msg("case '%s': the run before the case failed (%d)", c->name,
				 r->exit);
		}
	}
	run_argv(&e, av, c->flags & ESC_PTY, c->flags & ESC_INHERIT_FDS, r);

	int want_exit = esc_ns(&e) && (c->flags & ESC_NS_EXIT) ? c->want_exit_ns : c->want_exit;
	if (r->exit != want_exit) {
		dump(c, r);
		fail_msg("case '%s': exit status %d, want %d", c->name, r->exit, want_exit);
	}
	if (esc_ns(&e) && c->want_ns)
		check_tokens(c, c->want_ns, r);
	else if (c->want)
		check_tokens(c, c->want, r);
	for (size_t i = 0; i < 4 && c->out_has[i]; i++) {
		char s[PATH_MAX];
		esc_subst(&e, c->out_has[i], s, sizeof(s));
		if (!strstr(r->out, s) && !strstr(r->err, s)) {
			dump(c, r);
			fail_msg("case '%s': the output lacks \"%s\"", c->name, s);
		}
	}
	for (size_t i = 0; i < 4 && c->err_has[i]; i++) {
		char s[PATH_MAX];
		esc_subst(&e, c->err_has[i], s, sizeof(s));
		if (!strstr(r->err, s)) {
			dump(c, r);
			fail_msg("case '%s': stderr lacks \"%s\"", c->name, s);
		}
	}
	for (size_t i = 0; i < 2 && c->err_lacks[i]; i++) {
		char s[PATH_MAX];
		esc_subst(&e, c->err_lacks[i], s, sizeof(s));
		if (strstr(r->err, s)) {
			dump(c, r);
			fail_msg("case '%s': stderr says \"%s\"", c->name, s);
		}
	}
	if (c->after)
		c->after(&e, r);
	helper_stop(&e);
	if (rm_tree(e.base) != 0)
		fail_msg("cannot remove %s", e.base);
#undef e
}

static const char *self_exe;

/* A hole case passes while the hole is open (the case fails, run in a
 * child process of its own), and fails once the hole is closed, so that
 * it gets moved to the main suite. */
static void run_hole_case(void **state)
{
	const struct esc_case *c = *state;
	char sel[200];
	int st;

	snprintf(sel, sizeof(sel), "=%s", c->name);
	fflush(NULL);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
		if (null < 0 || dup2(null, 1) < 0 || dup2(null, 2) < 0)
			_exit(125);
		/* The case is expected to fail: its tree is not worth keeping. */
		setenv("LANDFENCE_ESCAPE_CLEAN", "1", 1);
		execl(self_exe, self_exe, probe_path, sel, (char *)NULL);
		_exit(126);
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
		fail_msg("case '%s' passes now: the hole is closed, move it to the main suite "
			 "(remove its .hole)",
			 c->name);
	/* The runner exits with the number of failed cases: exactly 1 is
	 * the hole case failing; anything else is a case that did not run. */
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 1)
		fail_msg("case '%s' could not run (status %d)", c->name, st);
	print_message("still open: %s\n", c->hole);
}

/* The kernel's Landlock ABI, asked by the probe (outside any sandbox):
 * the harness itself may run under valgrind, which does not know the
 * Landlock system calls. */
static int probe_abi(void)
{
	int p[2], st, abi = 0;
	char buf[32] = "";

	if (pipe2(p, O_CLOEXEC) != 0)
		return 0;
	pid_t pid = fork();
	if (pid < 0)
		return 0;
	if (pid == 0) {
		if (dup2(p[1], 1) < 0)
			_exit(127);
		execl(probe_path, probe_path, "abi", (char *)NULL);
		_exit(127);
	}
	close(p[1]);
	ssize_t n = read(p[0], buf, sizeof(buf) - 1);
	close(p[0]);
	waitpid(pid, &st, 0);
	if (n > 0) {
		buf[n] = '\0';
		abi = atoi(buf);
	}
	return abi;
}

/* Whether landfence makes its mount namespace here: `doctor --json`, in
 * this environment (LANDFENCE_NO_NAMESPACES=1 says no). */
static bool probe_ns(void)
{
	int p[2], st;
	char buf[16384];
	size_t n = 0;

	if (pipe2(p, O_CLOEXEC) != 0)
		return false;
	pid_t pid = fork();
	if (pid < 0)
		return false;
	if (pid == 0) {
		if (dup2(p[1], 1) < 0)
			_exit(127);
		execl(bin_path, bin_path, "doctor", "--json", (char *)NULL);
		_exit(127);
	}
	close(p[1]);
	for (ssize_t k; n + 1 < sizeof(buf) && (k = read(p[0], buf + n, sizeof(buf) - 1 - n)) > 0;)
		n += (size_t)k;
	buf[n] = '\0';
	close(p[0]);
	waitpid(pid, &st, 0);
	const char *m = strstr(buf, "\"mount_namespace\"");
	const char *a = m ? strstr(m, "\"available\":") : NULL;
	return a && !strncmp(a + strlen("\"available\":"), " true", 5);
}

int main(int argc, char **argv)
{
	bool holes = argc > 2 && !strcmp(argv[2], "--holes");
	const char *filter = argc > 2 + holes ? argv[2 + holes] : NULL;
	const char *must = getenv("LANDFENCE_TESTS_MUST_ENFORCE");
	const char *tmp = getenv("TMPDIR");
	char tpl[PATH_MAX / 8];

	if (argc < 2) {
		fprintf(stderr, "usage: test_escape PROBE [--holes] [CASE-SUBSTRING]\n");
		return 2;
	}
	if (!realpath(argv[1], build_dir)) {
		fprintf(stderr, "test_escape: %s: %s\n", argv[1], strerror(errno));
		return 2;
	}
	probe_path = strdup(build_dir);
	/* argv[0], not /proc/self/exe: under valgrind the latter is the
	 * tool. */
	self_exe = realpath(argv[0], NULL);
	bin_path = getenv("LANDFENCE_BIN");
	if (!bin_path || !probe_path) {
		fprintf(stderr, "test_escape: LANDFENCE_BIN is not set\n");
		return 2;
	}
	const char *bd = getenv("LANDFENCE_BUILDDIR");
	if (!bd || !realpath(bd, build_dir))
		snprintf(build_dir, sizeof(build_dir), "%s", "/nonexistent");
	kernel_abi = probe_abi();
	ns_here = probe_ns();
	/* Mounts a case makes (a submount, an alias of the project) stay in
	 * a mount namespace of the harness's own, gone when it exits. */
	if (geteuid() == 0 && (unshare(CLONE_NEWNS) != 0 ||
			       mount("none", "/", "none", MS_REC | MS_PRIVATE, NULL) != 0)) {
		fprintf(stderr, "test_escape: a mount namespace of its own: %s\n", strerror(errno));
		return 1;
	}
	if (kernel_abi < 1) {
		if (must && !strcmp(must, "1")) {
			fprintf(stderr,
				"test_escape: no Landlock, and LANDFENCE_TESTS_MUST_ENFORCE=1\n");
			return 1;
		}
		printf("1..0 # SKIP no Landlock on this kernel\n");
		return 77;
	}

	snprintf(tpl, sizeof(tpl), "%s/lf-escape-XXXXXX", tmp && tmp[0] == '/' ? tmp : "/tmp");
	/* realpath(3) writes up to PATH_MAX bytes: resolve into a buffer that
	 * large (glibc's _FORTIFY_SOURCE aborts otherwise), then keep it in
	 * top only when it fits. */
	char canon[PATH_MAX];
	if (!mkdtemp(tpl) || !realpath(tpl, canon)) {
		fprintf(stderr, "test_escape: mkdtemp: %s\n", strerror(errno));
		return 1;
	}
	if (strlen(canon) >= sizeof(top)) {
		fprintf(stderr, "test_escape: %s: path too long\n", canon);
		return 1;
	}
	strcpy(top, canon);
	/* The tree must be reachable by the probe only through grants: a
	 * world-readable temporary directory is fine, Landlock decides. */
	chmod(top, 0755);

	struct CMUnitTest *tests = calloc(esc_ncases, sizeof(*tests));
	char(*names)[160] = calloc(esc_ncases, sizeof(*names));
	size_t n = 0;
	if (!tests || !names)
		return 1;
	for (size_t i = 0; i < esc_ncases; i++) {
		if (filter && filter[0] == '=' ? strcmp(esc_cases[i].name, filter + 1) != 0
					       : filter && !strstr(esc_cases[i].name, filter))
			continue;
		if (!filter && holes != (esc_cases[i].hole != NULL))
			continue;
		snprintf(names[n], sizeof(names[n]), "kind %02d: %s", esc_cases[i].kind,
			 esc_cases[i].name);
		tests[n].name = names[n];
		tests[n].test_func = holes && !filter ? run_hole_case : run_case;
		tests[n].teardown_func = case_teardown;
		tests[n].initial_state = (void *)&esc_cases[i];
		n++;
	}
	int failed = _cmocka_run_group_tests("escape", tests, n, NULL, NULL);
	free(tests);
	free(names);
	const char *clean = getenv("LANDFENCE_ESCAPE_CLEAN");
	if (failed == 0 || (clean && !strcmp(clean, "1")))
		rm_tree(top);
	else
		fprintf(stderr, "test_escape: trees of failed cases kept in %s\n", top);
	return failed;
}
