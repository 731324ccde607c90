/* SPDX-License-Identifier: MIT */
/*
 * The public launch API (landfence.h): a struct lf_child holds everything
 * prepared before fork, so that the fork itself only copies it.
 */
#include <errno.h>
#include <stdarg.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/model.h"
#include "landlock/sandbox.h"
#include "launch/launch.h"

struct lf_child {
	char path[PATH_MAX];
	char run_dir[PATH_MAX];
	bool have_run_dir;
	char **argv;
	char **envp;
	char *cwd;
	struct lf_sandbox *sb;
	int ruleset_fd;
	struct sock_fprog filter;
	struct lf_launch launch;
	bool started;
	struct lf_launch_failure failure;
};

static void diag_set(struct lf_diag *diag, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void diag_set(struct lf_diag *diag, const char *fmt, ...)
{
	va_list ap;

	if (!diag)
		return;
	memset(diag, 0, sizeof(*diag));
	va_start(ap, fmt);
	vsnprintf(diag->message, sizeof(diag->message), fmt, ap);
	va_end(ap);
}

void lf_child_free(struct lf_child *c)
{
	if (!c)
		return;
	if (c->started && !c->launch.waited) {
		kill(c->launch.pid, SIGKILL);
		lf_launch_wait(&c->launch, NULL);
	}
	if (c->ruleset_fd >= 0)
		close(c->ruleset_fd);
	lf_seccomp_free(&c->filter);
	lf_sandbox_free(c->sb);
	if (c->have_run_dir)
		lf_rundir_remove(c->run_dir);
	lf_env_free(c->envp);
	lf_env_free(c->argv);
	free(c->cwd);
	free(c);
}

static int copy_argv(char *const argv[], char ***out)
{
	size_t n = 0;
	char **v;

	while (argv[n])
		n++;
	v = calloc(n + 1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		if (!(v[i] = strdup(argv[i]))) {
			lf_env_free(v);
			return -ENOMEM;
		}
	}
	*out = v;
	return 0;
}

/* Profiles named by the options and by every layer of the policy. */
static int pool_profiles(const struct lf_effective *e, const struct lf_spawn_opts *o,
			 const char ***out, size_t *n)
{
	size_t k = o->nprofiles;
	const char **v;

	for (size_t i = 0; i < e->nlayers; i++)
		k += e->layers[i]->profiles.n;
	v = calloc(k + 1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	k = 0;
	for (size_t i = 0; i < o->nprofiles; i++)
		v[k++] = o->profiles[i];
	for (size_t i = 0; i < e->nlayers; i++)
		for (size_t j = 0; j < e->layers[i]->profiles.n; j++)
			v[k++] = e->layers[i]->profiles.v[j];
	*out = v;
	*n = k;
	return 0;
}

int lf_child_new(const struct lf_effective *e, const struct lf_plan *plan,
		 const struct lf_spawn_opts *o, char *const argv[], struct lf_child **out,
		 struct lf_diag *diag)
{
	const char **unset = NULL, **keep = NULL, **profiles = NULL;
	size_t nunset = 0, nkeep = 0, nprofiles = 0;
	struct lf_child *c;
	int r;

	if (!e || !plan || !o || !o->project_root || !argv || !argv[0] || !out) {
		diag_set(diag, "invalid arguments");
		return -EINVAL;
	}
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->ruleset_fd = -1;

	r = lf_launch_resolve(argv[0], secure_getenv("PATH"), c->path, sizeof(c->path));
	if (r < 0) {
		diag_set(diag, "%s: %s", argv[0],
			 r == -ENOENT ? "command not found" : strerror(-r));
		goto fail;
	}
	if ((r = copy_argv(argv, &c->argv)) < 0)
		goto fail;
	if (o->cwd && !(c->cwd = strdup(o->cwd))) {
		r = -ENOMEM;
		goto fail;
	}

	r = lf_rundir_create(c->run_dir, sizeof(c->run_dir));
	if (r < 0) {
		diag_set(diag, "cannot create the private TMPDIR: %s", strerror(-r));
		goto fail;
	}
	c->have_run_dir = true;

	if ((r = pool_profiles(e, o, &profiles, &nprofiles)) < 0)
		goto fail;
	struct lf_sandbox_opts so = {
		.project_root = o->project_root,
		.run_dir = c->run_dir,
		.home = NULL,
		.profiles = profiles,
		.nprofiles = nprofiles,
		.command = c->path,
		.abi_max = o->abi_max,
	};
	r = lf_sandbox_build(e, plan, &so, &c->sb, diag);
	if (r < 0)
		goto fail;
	r = lf_sandbox_ruleset_fd(c->sb, &c->ruleset_fd, diag);
	if (r < 0)
		goto fail;

	r = lf_seccomp_build(&c->filter);
	if (r < 0) {
		diag_set(diag, "cannot build the seccomp filter: %s", strerror(-r));
		goto fail;
	}

	if ((r = lf_env_lists(e, &unset, &nunset, &keep, &nkeep)) < 0)
		goto fail;
	r = lf_env_build(environ, unset, nunset, keep, nkeep, c->run_dir, &c->envp);
	if (r < 0)
		goto fail;
	free(unset);
	free(keep);
	free(profiles);
	*out = c;
	return 0;
fail:
	if (r == -ENOMEM && diag && !diag->message[0])
		diag_set(diag, "out of memory");
	free(unset);
	free(keep);
	free(profiles);
	lf_child_free(c);
	return r;
}

const struct lf_status *lf_child_status(const struct lf_child *c)
{
	return c && c->sb ? lf_sandbox_status(c->sb) : NULL;
}

int lf_child_start(struct lf_child *c, struct lf_diag *diag)
{
	struct lf_launch_opts lo;
	int r;

	if (!c)
		return -EINVAL;
	if (c->started)
		return -EALREADY;
	lo = (struct lf_launch_opts){
		.path = c->path,
		.argv = c->argv,
		.envp = c->envp,
		.ruleset_fd = c->ruleset_fd,
		.filter = &c->filter,
		.cwd = c->cwd,
	};
	r = lf_launch_spawn(&lo, &c->launch, &c->failure);
	if (r < 0) {
		diag_set(diag, "%s: %s: %s", c->argv[0], lf_launch_stage_name(c->failure.stage),
			 strerror(-r));
		return r;
	}
	c->started = true;
	/* The child holds its own copy; the parent no longer needs it. */
	close(c->ruleset_fd);
	c->ruleset_fd = -1;
	return 0;
}

pid_t lf_child_pid(const struct lf_child *c)
{
	return c && c->started ? c->launch.pid : -1;
}

int lf_child_wait(struct lf_child *c, int *status)
{
	if (!c || !c->started || c->launch.waited)
		return -EINVAL;
	return lf_launch_wait(&c->launch, status);
}

int lf_spawn(const struct lf_effective *e, const struct lf_plan *plan,
	     const struct lf_spawn_opts *o, char *const argv[], struct lf_child **out,
	     struct lf_diag *diag)
{
	struct lf_child *c = NULL;
	int r = lf_child_new(e, plan, o, argv, &c, diag);

	if (r < 0)
		return r;
	if ((r = lf_child_start(c, diag)) < 0) {
		lf_child_free(c);
		return r;
	}
	*out = c;
	return 0;
}

/* Internal accessors for the CLI (launch.h). */
const struct lf_sandbox *lf_child_sandbox(const struct lf_child *c)
{
	return c ? c->sb : NULL;
}

const struct lf_launch_failure *lf_child_failure(const struct lf_child *c)
{
	return c ? &c->failure : NULL;
}

const char *lf_child_path(const struct lf_child *c)
{
	return c ? c->path : NULL;
}

const char *lf_child_run_dir(const struct lf_child *c)
{
	return c && c->have_run_dir ? c->run_dir : NULL;
}
