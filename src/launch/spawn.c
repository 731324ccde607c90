/* SPDX-License-Identifier: MIT */
/*
 * The public launch API (landfence.h): a struct lf_child holds everything
 * prepared before the child starts (the sandbox value, its ruleset, the
 * seccomp filter, the environment), so that the child only applies it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/path.h"
#include "core/sandbox.h"
#include "landlock/sandbox.h"
#include "launch/launch.h"
#include "launch/mountns.h"

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
	struct lf_ns_plan ns; /* built at start */
};

/* Whether the launch uses a mount namespace: one can be made here and
 * the value has something to mount. */
static bool uses_ns(const struct lf_sandbox *sb)
{
	return sb->ns.available && sb->ns.nmounts > 0;
}

void lf_child_free(struct lf_child *c)
{
	if (!c)
		return;
	lf_ns_nobody_reap(); /* a child never started */
	if (c->started && !c->launch.waited) {
		kill(c->launch.pid, SIGKILL);
		lf_launch_wait(&c->launch, NULL);
	}
	if (c->ruleset_fd >= 0)
		close(c->ruleset_fd);
	lf_seccomp_free(&c->filter);
	lf_ns_plan_fini(&c->ns);
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

/* The errors lf_child_new documents: the program's own (-ENOENT, -EACCES)
 * only for the program; a system call that failed on the way is -EIO, so
 * that the exit status says "landfence failed", not "not found". */
static int own_error(int r)
{
	return r == -ENOENT || r == -EACCES ? -EIO : r;
}

/* LANDFENCE_MASKED=1 tells `landfence check` and `hook` run inside that
 * the masks are in force around them (they cannot make a namespace of
 * their own to find out): their answers then agree with the kernel.
 * LANDFENCE_ALLOW_UNSCOPED=1, that the run accepted the missing scopes
 * below ABI 6 (--allow-unscoped): they answer for the sandbox they are
 * in instead of one that would not start. A program that forges either
 * changes only what it is advised. */
static int env_mark(char ***envp, const char *mark)
{
	size_t n = 0;
	char **v;

	while ((*envp)[n])
		n++;
	v = realloc(*envp, (n + 2) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	*envp = v;
	if (!(v[n] = strdup(mark)))
		return -ENOMEM;
	v[n + 1] = NULL;
	return 0;
}

/* A directory (or O_PATH) descriptor among stdin, stdout and stderr that
 * lies at, below or above a place the namespace mounts on would reach
 * what is under the mount, around the mask or the nodev bind: refused
 * (a regular file the caller hands over is the caller's choice, as a
 * descriptor passed later is). Returns 0 or -EBADF with diag. */
static int std_fds_check(const struct lf_sandbox *sb, struct lf_diag *diag)
{
	for (int fd = 0; fd <= 2; fd++) {
		char link[32], path[PATH_MAX];
		struct stat st;
		int fl = fcntl(fd, F_GETFL);
		ssize_t n;

		if (fl < 0 || fstat(fd, &st) < 0)
			continue;
		if (!S_ISDIR(st.st_mode) && !(fl & O_PATH))
			continue;
		snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
		n = readlink(link, path, sizeof(path) - 1);
		if (n <= 0) {
			lf_diag_set(diag, "", 0, 0,
				    "descriptor %d is a directory landfence cannot name: it could "
				    "reach below the masks; nothing was run",
				    fd);
			return -EBADF;
		}
		path[n] = '\0';
		for (size_t i = 0; i < sb->nmasks + sb->nbinds; i++) {
			const char *m =
				i < sb->nmasks ? sb->masks[i].path : sb->binds[i - sb->nmasks].path;

			if (!lf_path_overlap(m, path))
				continue;
			lf_diag_set(diag, "", 0, 0,
				    "descriptor %d is the directory %s, which would reach below "
				    "what the sandbox mounts at %s; nothing was run",
				    fd, path, m);
			return -EBADF;
		}
	}
	return 0;
}

/* After a failure placing the mounts that the namespace answer does not
 * survive (ns_step_voids_answer): an answer of the namespace probe
 * remembered from an earlier launch no longer holds; forgotten, so that
 * the next launch probes (src/launch/nsmemo.c). */
static void ns_forget(const struct lf_child *c, struct lf_diag *diag)
{
	char file[PATH_MAX];
	size_t n;
	int r;

	snprintf(file, sizeof(file), "%s", lf_ns_memo_used());
	if (!c->sb->ns.remembered || (r = lf_ns_probe_forget()) == 0 || !diag)
		return;
	n = strlen(diag->message);
	if (r > 0)
		snprintf(diag->message + n, sizeof(diag->message) - n,
			 " (mounts were planned on the namespace probe's answer remembered from "
			 "an earlier launch; it is forgotten, and the next launch probes again)");
	else
		snprintf(diag->message + n, sizeof(diag->message) - n,
			 " (mounts were planned on the namespace probe's answer remembered from "
			 "an earlier launch, in %s, which cannot be removed (%s): remove it)",
			 file, strerror(-r));
}

/* Whether a mount step that failed with err says the namespace answer no
 * longer holds. Checking a target's type and entering the working
 * directory again fail when the file system changed since the plan (a
 * target replaced, a working directory below a mask), and so does opening
 * a target with ENOENT, ENOTDIR, ELOOP, EXDEV or ESTALE (a target removed,
 * or a link put on its way): the namespace itself was made, so the answer
 * holds and is kept; the launch still runs nothing. Any other failure to
 * open (EPERM, EACCES, ENOSYS: what a new seccomp filter or LSM rule
 * says, which the probe's own openat2 would meet) and every other step
 * are the namespace's own. */
static bool ns_step_voids_answer(int step, int err)
{
	if (step == LF_NS_STEP_TYPE || step == LF_NS_STEP_CWD)
		return false;
	if (step == LF_NS_STEP_OPEN)
		return err != ENOENT && err != ENOTDIR && err != ELOOP && err != EXDEV &&
		       err != ESTALE;
	return true;
}

/* Says which mount step failed, for a child that stopped there. */
static void ns_failure(const struct lf_child *c, int err, struct lf_diag *diag)
{
	const struct lf_launch_failure *f = &c->failure;
	const char *path =
		f->ns_op >= 0 && (size_t)f->ns_op < c->ns.nops ? c->ns.ops[f->ns_op].path : NULL;

	lf_diag_set(diag, "", 0, 0, "%s: %s: %s%s%s: %s", c->argv[0],
		    lf_launch_stage_name(f->stage), lf_ns_step_name((enum lf_ns_step)f->ns_step),
		    path ? " " : "", path ? path : "", strerror(err));
}

int lf_child_new(const struct lf_effective *e, const struct lf_plan *plan,
		 const struct lf_child_opts *opts, char *const argv[], struct lf_child **out,
		 struct lf_diag *diag)
{
	struct lf_child_opts o;
	struct lf_child *c;
	int r;

	if (diag)
		memset(diag, 0, sizeof(*diag));
	if (!opts || lf_opts_copy(&o, sizeof(o), opts, opts->size) < 0 || !e || !plan ||
	    !o.project_root || !argv || !argv[0] || !out) {
		lf_diag_set(diag, "", 0, 0, "invalid arguments");
		return -EINVAL;
	}
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->ruleset_fd = -1;

	r = lf_launch_resolve(argv[0], secure_getenv("PATH"), c->path, sizeof(c->path));
	if (r < 0) {
		lf_diag_set(diag, "", 0, 0, "%s: %s", argv[0],
			    r == -ENOENT ? "command not found" : strerror(-r));
		if (r != -ENOENT && r != -EACCES)
			r = -EINVAL;
		goto fail;
	}
	if ((r = copy_argv(argv, &c->argv)) < 0)
		goto fail;
	if (o.cwd && !(c->cwd = strdup(o.cwd))) {
		r = -ENOMEM;
		goto fail;
	}

	r = lf_rundir_create(c->run_dir, sizeof(c->run_dir));
	if (r < 0) {
		lf_diag_set(diag, "", 0, 0, "cannot create the private TMPDIR: %s", strerror(-r));
		r = own_error(r);
		goto fail;
	}
	c->have_run_dir = true;

	struct lf_sandbox_opts so = {
		.size = sizeof(so),
		.project_root = o.project_root,
		.profiles = o.profiles,
		.nprofiles = o.nprofiles,
		.run_dir = c->run_dir,
		.command = c->path,
		.abi_max = o.abi_max,
		/* A launch: first runs of agents keep their state. */
		.flags = LF_SANDBOX_PREPARE | (o.sandbox_flags & LF_SANDBOX_ALLOW_UNSCOPED),
	};
	r = lf_sandbox_new(e, plan, &so, &c->sb, diag);
	if (r < 0) {
		r = own_error(r);
		goto fail;
	}
	/* The user namespace an id-mapped bind needs is made now, so that
	 * its member's exit overlaps the ruleset, the filter and the
	 * snapshot; its error, if any, is lf_ns_plan_build's to report. */
	if (uses_ns(c->sb) && c->sb->ns.others) /* its bind is id-mapped */
		(void)lf_ns_nobody_userns();
	r = lf_sandbox_ruleset_fd(c->sb, &c->ruleset_fd, diag);
	if (r < 0) {
		r = own_error(r);
		goto fail;
	}

	r = lf_seccomp_build(&c->filter, uses_ns(c->sb));
	if (r < 0) {
		lf_diag_set(diag, "", 0, 0, "cannot build the seccomp filter: %s", strerror(-r));
		goto fail;
	}
	r = lf_env_build(environ, c->sb->env, c->sb->nenv, c->run_dir, &c->envp);
	if (r == 0 && uses_ns(c->sb))
		r = env_mark(&c->envp, "LANDFENCE_MASKED=1");
	if (r == 0 && c->sb->allow_unscoped && c->sb->abi < 6)
		r = env_mark(&c->envp, "LANDFENCE_ALLOW_UNSCOPED=1");
	if (r < 0)
		goto fail;
	*out = c;
	return 0;
fail:
	if (r == -ENOMEM && diag && !diag->message[0])
		lf_diag_set(diag, "", 0, 0, "out of memory");
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
	if (uses_ns(c->sb)) {
		char here[PATH_MAX];
		const char *cwd = c->cwd;

		/* The program starts where it was asked to, reached again
		 * by its path once the masks are in place. */
		if (!cwd && !(cwd = getcwd(here, sizeof(here)))) {
			lf_diag_set(diag, "", 0, 0,
				    "the working directory cannot be named (%s): it cannot be "
				    "entered again below the masks; nothing was run",
				    strerror(errno));
			return -EIO;
		}
		if (std_fds_check(c->sb, diag) < 0)
			return -EIO;
		lf_ns_plan_fini(&c->ns);
		if ((r = lf_ns_plan_build(c->sb, cwd, &c->ns)) < 0) {
			if (r == -ENOMEM)
				lf_diag_set(diag, "", 0, 0, "out of memory");
			else
				lf_diag_set(diag, "", 0, 0,
					    "the user namespace that shows /etc as others see it "
					    "cannot be made (%s); nothing was run",
					    strerror(-r));
			if (r != -ENOMEM)
				ns_forget(c, diag);
			return r == -ENOMEM ? r : -EIO;
		}
		lo.ns = &c->ns;
	}
	/* The id-mapping namespace's only member has exited by now (it
	 * was made in lf_child_new): reaped before the program can look for
	 * it in /proc. */
	lf_ns_nobody_reap();
	r = lf_launch_spawn(&lo, &c->launch, &c->failure);
	if (r < 0) {
		if (c->failure.stage == LF_STAGE_NAMESPACE) {
			ns_failure(c, -r, diag);
			if (ns_step_voids_answer(c->failure.ns_step, -r))
				ns_forget(c, diag);
		} else
			lf_diag_set(diag, "", 0, 0, "%s: %s: %s", c->argv[0],
				    lf_launch_stage_name(c->failure.stage), strerror(-r));
		/* Only exec's own failure is the program's (127, 126). */
		if (c->failure.stage == LF_STAGE_EXEC)
			return c->failure.err == ENOENT ? -ENOENT : -EACCES;
		return c->failure.stage == LF_STAGE_NONE ? own_error(r) : -ECHILD;
	}
	c->started = true;
	/* The child holds its own copy; the parent no longer needs it. */
	close(c->ruleset_fd);
	c->ruleset_fd = -1;
	return 0;
}

const char *lf_child_mask_fell(const struct lf_child *c)
{
	if (!c || !c->started || c->launch.fell < 0 || !c->launch.ns ||
	    (size_t)c->launch.fell >= c->launch.ns->nops)
		return NULL;
	return c->launch.ns->ops[c->launch.fell].path;
}

void lf_child_reap_orphans(struct lf_child *c)
{
	if (c && c->started)
		c->launch.reap_others = true;
}

int lf_child_watch_error(const struct lf_child *c)
{
	return c && c->started ? c->launch.watch_err : 0;
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

int lf_child_spawn(const struct lf_effective *e, const struct lf_plan *plan,
		   const struct lf_child_opts *o, char *const argv[], struct lf_child **out,
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

const struct lf_sandbox *lf_child_sandbox(const struct lf_child *c)
{
	return c ? c->sb : NULL;
}

/* Internal accessors (launch.h). */
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

size_t lf_child_watch_looks(const struct lf_child *c)
{
	return c && c->started ? lf_mask_watch_looks(&c->launch) : 0;
}
