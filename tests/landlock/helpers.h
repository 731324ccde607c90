/* SPDX-License-Identifier: MIT */
/*
 * Shared by the adapter's tests: temporary trees, policies built with the
 * model API, and children that restrict themselves and try one operation.
 */
#ifndef LF_TESTS_LANDLOCK_HELPERS_H
#define LF_TESTS_LANDLOCK_HELPERS_H

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/model.h"
#include "core/tables.h"
#include "landlock/sandbox.h"

struct spec_rule {
	enum lf_capability cap;
	enum lf_effect effect;
	const char *glob;
};

/* The cap of the tests' old convention (< 0: the environment; 0: no
 * Landlock; N: at most N) in the options' (0: the environment). */
static inline int abi_opt(int abi)
{
	return abi < 0 ? 0 : abi == 0 ? LF_ABI_NONE : abi;
}

/* One policy, resolved, compiled and turned into final rules. */
struct world {
	struct lf_policy *pol;
	struct lf_effective *eff;
	struct lf_plan *plan;
	struct lf_sandbox *sb;
	struct lf_diag diag;
	int rc; /* lf_sandbox_build's return */
};

static inline void tpath(char *out, const char *a, const char *b)
{
	int n = snprintf(out, PATH_MAX, "%s/%s", a, b);

	assert_true(n > 0 && n < PATH_MAX);
}

static inline void mkdir_p(const char *path)
{
	char buf[PATH_MAX];

	snprintf(buf, sizeof(buf), "%s", path);
	for (char *c = buf + 1; *c; c++) {
		if (*c != '/')
			continue;
		*c = '\0';
		if (mkdir(buf, 0755) < 0)
			assert_int_equal(errno, EEXIST);
		*c = '/';
	}
	if (mkdir(buf, 0755) < 0)
		assert_int_equal(errno, EEXIST);
}

static inline void put(const char *path, const char *content)
{
	char dir[PATH_MAX];
	char *slash;
	int fd;

	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (slash && slash != dir) {
		*slash = '\0';
		mkdir_p(dir);
	}
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0755);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, content, strlen(content)), (ssize_t)strlen(content));
	close(fd);
}

static inline void rm_rf(const char *path)
{
	char cmd[PATH_MAX + 32];

	if (!path[0] || strncmp(path, "/tmp/", 5) != 0)
		return;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", path);
	assert_int_equal(system(cmd), 0);
}

/* A fresh directory under /tmp, canonical. */
static inline void tmp_tree(char *out)
{
	char tmpl[] = "/tmp/lf-landlock-XXXXXX";
	char *d = mkdtemp(tmpl);
	char *real;

	assert_non_null(d);
	real = realpath(d, NULL);
	assert_non_null(real);
	snprintf(out, PATH_MAX, "%s", real);
	free(real);
}

static inline void policy_rule(struct lf_policy *p, const struct spec_rule *r)
{
	struct lf_glob *g = calloc(1, sizeof(*g));
	struct lf_diag d;
	struct lf_source src = { p->file, 1, 1 };

	assert_non_null(g);
	assert_int_equal(lf_glob_init(g, r->glob, strlen(r->glob), &d), 0);
	assert_int_equal(lf_policy_add_file_rule(p, r->cap, r->effect, g, 1, src, &d), 0);
}

static inline struct lf_policy *policy_make(lf_posture fb, const struct spec_rule *rules, size_t n)
{
	struct lf_policy *p = NULL;

	assert_int_equal(lf_policy_new("test.json", LF_LAYER_PROJECT, &p), 0);
	p->has_fallback = true;
	p->fallback = fb;
	for (size_t i = 0; i < n; i++)
		policy_rule(p, &rules[i]);
	return p;
}

/* Resolves, compiles against root, builds with o (project_root set to
 * root when NULL). The sandbox may be NULL when rc < 0. These tests
 * apply the rules alone in a forked child (child_op), so they build the
 * value without a mount namespace unless o->namespaces asks for one
 * (LF_NS_ASSUME: masks, checked on paper or by the launcher). */
static inline void world_build(struct world *w, const char *root, struct lf_sandbox_opts *o)
{
	if (o->namespaces == LF_NS_PROBE)
		o->namespaces = LF_NS_NEVER;
	const struct lf_policy *layers[1] = { w->pol };
	struct lf_context ctx = { .project_root = root, .run_dir = NULL };

	assert_int_equal(lf_effective_resolve(layers, 1, &w->eff), 0);
	assert_int_equal(lf_plan_compile(w->eff, &ctx, &w->plan), 0);
	assert_non_null(w->plan);
	if (!o->project_root)
		o->project_root = root;
	o->size = sizeof(*o);
	memset(&w->diag, 0, sizeof(w->diag));
	w->rc = lf_sandbox_new(w->eff, w->plan, o, &w->sb, &w->diag);
}

static inline void world_fini(struct world *w)
{
	lf_sandbox_free(w->sb);
	lf_plan_free(w->plan);
	lf_effective_free(w->eff);
	lf_policy_free(w->pol);
	memset(w, 0, sizeof(*w));
}

static inline const struct lf_sandbox_rule *rule_at(const struct lf_sandbox *sb, const char *path)
{
	for (size_t i = 0; i < lf_sandbox_rule_count(sb); i++)
		if (strcmp(lf_sandbox_rule(sb, i)->path, path) == 0)
			return lf_sandbox_rule(sb, i);
	return NULL;
}

/* The kernel's own ABI, ignoring any cap in the environment. */
static inline int kernel_abi(void)
{
	struct lf_abi_probe p;

	assert_int_equal(lf_landlock_probe(99, &p), 0);
	return p.kernel;
}

/* Skips the calling test when Landlock is absent, unless enforcement is
 * required (CI), in which case it fails. */
static inline bool need_landlock(void)
{
	const char *must = getenv("LANDFENCE_TESTS_MUST_ENFORCE");

	if (kernel_abi() > 0)
		return true;
	if (must && strcmp(must, "1") == 0)
		fail_msg("Landlock is absent but LANDFENCE_TESTS_MUST_ENFORCE=1");
	skip();
	return false;
}

enum op {
	OP_READ,   /* open O_RDONLY and read a byte */
	OP_LIST,   /* open a directory O_RDONLY|O_DIRECTORY */
	OP_WRITE,  /* open O_WRONLY an existing file */
	OP_CREATE, /* open O_CREAT|O_EXCL a new file */
	OP_UNLINK,
	OP_MKDIR,
	OP_TRUNCATE, /* truncate(2) to 0 */
	OP_MKNOD_CHAR,
	OP_EXEC, /* execve path with no argument; exit status 0 = ran */
};

static inline int op_do(enum op op, const char *path)
{
	char c;
	int fd;

	switch (op) {
	case OP_READ:
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return errno;
		if (read(fd, &c, 1) < 0)
			return errno;
		close(fd);
		return 0;
	case OP_LIST:
		fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0)
			return errno;
		close(fd);
		return 0;
	case OP_WRITE:
		fd = open(path, O_WRONLY | O_CLOEXEC);
		if (fd < 0)
			return errno;
		close(fd);
		return 0;
	case OP_CREATE:
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
		if (fd < 0)
			return errno;
		close(fd);
		return 0;
	case OP_UNLINK:
		return unlink(path) < 0 ? errno : 0;
	case OP_MKDIR:
		return mkdir(path, 0755) < 0 ? errno : 0;
	case OP_TRUNCATE:
		return truncate(path, 0) < 0 ? errno : 0;
	case OP_MKNOD_CHAR:
		/* /dev/null's numbers: harmless if it ever succeeded. */
		return mknod(path, S_IFCHR | 0600, makedev(1, 3)) < 0 ? errno : 0;
	case OP_EXEC: {
		char *argv[] = { (char *)path, NULL };
		char *envp[] = { NULL };

		execve(path, argv, envp);
		return errno;
	}
	}
	return EINVAL;
}

/* Runs op in a child restricted by rfd (-1: not restricted). Returns 0 on
 * success or the errno the child saw; 250+ for a setup failure. */
static inline int child_op(int rfd, enum op op, const char *path)
{
	int status;
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (pid == 0) {
		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
			_exit(251);
		if (rfd >= 0 && lf_landlock_restrict(rfd) < 0)
			_exit(252);
		_exit(op_do(op, path) & 0xff);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	return WEXITSTATUS(status);
}

static inline int world_fd(struct world *w)
{
	int fd = -1;
	struct lf_diag d;

	assert_int_equal(w->rc, 0);
	assert_int_equal(lf_sandbox_ruleset_fd(w->sb, &fd, &d), 0);
	return fd;
}

#endif /* LF_TESTS_LANDLOCK_HELPERS_H */
