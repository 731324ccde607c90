/* SPDX-License-Identifier: MIT */
/*
 * Runs the built tool (LANDFENCE_BIN) as a subprocess for the advisory
 * tests: standard input given, standard output and error captured, the
 * exit status returned. Also a temporary project tree.
 */
#ifndef LF_TESTS_ADVISORY_RUN_H
#define LF_TESTS_ADVISORY_RUN_H

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "../enforce.h"

struct run {
	int status; /* exit status, or 128 + signal */
	char out[65536];
	char err[65536];
};

static inline const char *run_bin(void)
{
	const char *b = getenv("LANDFENCE_BIN");
	if (!b || !b[0])
		fail_msg("LANDFENCE_BIN is not set (run the tests through meson)");
	return b;
}

/* argv: NULL-terminated arguments after the program; env: NULL-terminated
 * "NAME=value" entries added to the environment (or NULL). */
static inline void run_tool(struct run *r, const char *input, const char *const *env,
			    const char *const *argv)
{
	int in[2], out[2], err[2];
	const char *bin = run_bin();
	char *args[64];
	size_t n = 0;

	args[n++] = (char *)bin;
	for (size_t i = 0; argv[i] && n < 63; i++)
		args[n++] = (char *)argv[i];
	args[n] = NULL;
	assert_int_equal(pipe2(in, O_CLOEXEC), 0);
	assert_int_equal(pipe2(out, O_CLOEXEC), 0);
	assert_int_equal(pipe2(err, O_CLOEXEC), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		dup2(in[0], 0);
		dup2(out[1], 1);
		dup2(err[1], 2);
		for (size_t i = 0; env && env[i]; i++)
			putenv((char *)env[i]);
		execv(bin, args);
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	close(err[1]);
	signal(SIGPIPE, SIG_IGN);
	size_t ilen = input ? strlen(input) : 0, ioff = 0, no = 0, ne = 0;
	if (ilen == 0) {
		close(in[1]);
		in[1] = -1;
	}
	bool oopen = true, eopen = true;
	while (oopen || eopen) {
		struct pollfd p[3] = { { out[0], POLLIN, 0 },
				       { err[0], POLLIN, 0 },
				       { in[1], POLLOUT, 0 } };
		if (!oopen)
			p[0].fd = -1;
		if (!eopen)
			p[1].fd = -1;
		assert_true(poll(p, 3, 30000) > 0);
		if (p[2].revents) {
			ssize_t w = write(in[1], input + ioff, ilen - ioff);
			if (w > 0)
				ioff += (size_t)w;
			if (w <= 0 || ioff == ilen) {
				close(in[1]);
				in[1] = -1;
			}
		}
		if (p[0].revents) {
			ssize_t k = read(out[0], r->out + no, sizeof(r->out) - 1 - no);
			if (k <= 0)
				oopen = false;
			else
				no += (size_t)k;
		}
		if (p[1].revents) {
			ssize_t k = read(err[0], r->err + ne, sizeof(r->err) - 1 - ne);
			if (k <= 0)
				eopen = false;
			else
				ne += (size_t)k;
		}
	}
	if (in[1] >= 0)
		close(in[1]);
	close(out[0]);
	close(err[0]);
	r->out[no] = '\0';
	r->err[ne] = '\0';
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	r->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static inline void write_file(const char *dir, const char *name, const char *text)
{
	char p[4096];
	snprintf(p, sizeof(p), "%s/%s", dir, name);
	FILE *f = fopen(p, "we");
	assert_non_null(f);
	assert_int_equal(fputs(text, f) >= 0, 1);
	assert_int_equal(fclose(f), 0);
}

static inline void make_dir(const char *dir, const char *name)
{
	char p[4096];
	snprintf(p, sizeof(p), "%s/%s", dir, name);
	mkdir(p, 0755);
}

/* A temporary project made from tmpl (mkdtemp): src/ and .git/, a secret
 * .env with src/envlink pointing at it, the policy text at .git/p.json
 * (its path in pol) and a broken policy at .git/bad.json (its path in
 * bad). 0 or -1, as cmocka's setups. */
static inline int project_make(char *proj, size_t nproj, const char *tmpl, char *pol, size_t npol,
			       const char *policy, char *bad, size_t nbad, const char *broken)
{
	char link[4200];

	snprintf(proj, nproj, "%s", tmpl);
	if (!mkdtemp(proj))
		return -1;
	make_dir(proj, "src");
	make_dir(proj, ".git");
	write_file(proj, ".env", "SECRET=1\n");
	snprintf(link, sizeof(link), "%s/src/envlink", proj);
	if (symlink("../.env", link) != 0)
		return -1;
	snprintf(pol, npol, "%s/.git/p.json", proj);
	write_file(proj, ".git/p.json", policy);
	snprintf(bad, nbad, "%s/.git/bad.json", proj);
	write_file(proj, ".git/bad.json", broken);
	return 0;
}

/* Removes the temporary project dir; 0 or -1, as cmocka's teardowns. */
static inline int tree_remove(const char *dir)
{
	char cmd[4200];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

#endif /* LF_TESTS_ADVISORY_RUN_H */
