/* SPDX-License-Identifier: MIT */
/*
 * A whole run (landfence.h, lf_run_*): every gate `landfence run` passes
 * a program through, in order, for the CLI and for any program that
 * embeds the library. What it would print goes to the caller's message
 * function; what refuses comes back as an error and a diagnostic.
 */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "core/path.h"
#include "core/tables.h"
#include "core/text.h"
#include "fs/fs.h"
#include "gate/gate.h"
#include "launch/launch.h"
#include "project/project.h"

struct lf_run {
	const struct lf_project *p;
	struct lf_child *child;
	struct lf_snapshot *snap;
	lf_message_fn message;
	void *ctx;
	const char **profiles;
	size_t nprofiles;
};

__attribute__((format(printf, 3, 4))) static void tell(const struct lf_run *r, enum lf_severity sev,
						       const char *fmt, ...)
{
	va_list ap;
	char *text = NULL;

	if (!r->message)
		return;
	va_start(ap, fmt);
	if (vasprintf(&text, fmt, ap) < 0)
		text = NULL;
	va_end(ap);
	/* Names from the tree or a policy, escaped (core/text.h): every
	 * message is one line. */
	if (text && !lf_text_clean(text)) {
		char *esc = lf_text_escape(text);

		free(text);
		text = esc;
	}
	/* Out of memory: the message still says something. */
	r->message(r->ctx, sev, text ? text : fmt);
	free(text);
}

/* Puts prefix in front of the diagnostic's message. */
static void diag_prefix(struct lf_diag *d, const char *prefix)
{
	char msg[sizeof(d->message)];

	if (!d)
		return;
	snprintf(msg, sizeof(msg), "%s%s", prefix, d->message[0] ? d->message : "failed");
	memcpy(d->message, msg, sizeof(msg));
}

/* The --profile names, plus the profile of a known agent's command, so
 * `landfence run -- claude` just works. */
static int profiles_pick(struct lf_run *r, const struct lf_run_opts *o, const char *cmd)
{
	const struct lf_profile *agent = lf_profile_for_command(cmd);

	r->profiles = calloc(o->nprofiles + 2, sizeof(*r->profiles));
	if (!r->profiles)
		return -ENOMEM;
	for (size_t i = 0; i < o->nprofiles; i++) {
		r->profiles[r->nprofiles++] = o->profiles[i];
		if (agent && !strcmp(o->profiles[i], agent->name))
			agent = NULL;
	}
	if (agent) {
		const char *base = strrchr(cmd, '/');

		r->profiles[r->nprofiles++] = agent->name;
		tell(r, LF_SEVERITY_NOTE,
		     "%s is a known agent: added --profile %s (its configuration and caches below "
		     "the home directory)",
		     base ? base + 1 : cmd, agent->name);
	}
	return 0;
}

static int child_prepare(struct lf_run *r, const struct lf_run_opts *o, char *const argv[],
			 struct lf_diag *diag)
{
	struct lf_child_opts co = {
		.size = sizeof(co),
		.project_root = r->p->project_root,
		.profiles = r->profiles,
		.nprofiles = r->nprofiles,
		.cwd = o->cwd,
		.abi_max = o->abi_max,
		.sandbox_flags = o->sandbox_flags,
	};
	int e = lf_child_new(r->p->eff, r->p->plan, &co, argv, &r->child, diag);

	switch (e) {
	case 0:
	case -ENOENT: /* "X: command not found" */
		break;
	case -EACCES:
		if (diag)
			snprintf(diag->message, sizeof(diag->message), "%s: cannot execute: %s",
				 argv[0], strerror(EACCES));
		break;
	case -EOPNOTSUPP:
		diag_prefix(diag, "kernel too old for this policy, nothing was run: ");
		break;
	case -EINVAL:
		diag_prefix(diag, "invalid policy: ");
		break;
	default:
		diag_prefix(diag, "cannot prepare the sandbox: ");
		break;
	}
	return e;
}

/* Which mechanism keeps the denies: without a mount namespace, and when
 * one would have masked something, why not (the probe's failing step);
 * a glob fence whose matches were masked, that a match made later is not
 * covered. Notes: -q hides them. */
static void namespace_notes(const struct lf_run *r, const struct lf_sandbox *sb)
{
	const struct lf_namespace *ns = lf_sandbox_namespace(sb);
	bool lost = false;

	for (size_t i = 0; i < lf_sandbox_fence_count(sb); i++) {
		const struct lf_sandbox_fence *f = lf_sandbox_fence(sb, i);

		if (!ns->available && f->mechanism == LF_MECH_DROP)
			lost = true;
		if (f->mechanism == LF_MECH_MASK && f->mechanism_why)
			tell(r, LF_SEVERITY_NOTE, "the fence %s is masked: %s", f->path,
			     f->mechanism_why);
	}
	for (size_t i = 0; i < lf_sandbox_protect_count(sb) && !lost; i++)
		lost = !ns->available && !lf_sandbox_protect(sb, i)->lifted;
	/* The plan's drops that a mask would have given back. */
	lost = lost || (!ns->available && lf_plan_dropped_count(r->p->plan) > 0);
	if (lost)
		tell(r, LF_SEVERITY_NOTE,
		     "no private mount namespace here (%s): a deny or ask rule inside a grant "
		     "drops the grant, and protected paths are only watched (`landfence plan` "
		     "shows which)",
		     ns->failed ? ns->failed : "unknown");
}

static void place_text(char *buf, size_t size, const struct lf_source *s)
{
	if (s->file && s->line)
		snprintf(buf, size, "%s:%u:%u", s->file, s->line, s->column);
	else
		snprintf(buf, size, "%s", s->file ? s->file : "?");
}

static bool fence_builtin(const struct lf_sandbox *sb, const char *path)
{
	for (size_t i = 0; i < lf_sandbox_fence_count(sb); i++) {
		const struct lf_sandbox_fence *f = lf_sandbox_fence(sb, i);

		if (f->origin == LF_ORIGIN_BUILTIN && !strcmp(f->path, path))
			return true;
	}
	return false;
}

/* What was asked for and is not given, before the program starts: each
 * allow the plan dropped (the allow and the fence, with their places),
 * each grant a fence dropped, each place skipped (a profile's or a host
 * section's that does not exist). Otherwise all of it fails later as a
 * bare Permission denied. Notes: -q leaves them out; `plan` shows them
 * with every rule. The drop by the built-in configuration fence has its
 * own notice. */
static void tell_dropped(struct lf_run *r, const struct lf_sandbox *sb)
{
	const struct lf_plan *plan = r->p->plan;
	char allow[600], fence[600];

	for (size_t i = 0; plan && i < lf_plan_dropped_count(plan); i++) {
		const struct lf_dropped *d = lf_plan_dropped(plan, i);

		if (lf_sandbox_readmitted(sb, d))
			continue; /* masked: nothing lost */

		place_text(allow, sizeof(allow), &d->allow);
		place_text(fence, sizeof(fence), &d->fence);
		tell(r, LF_SEVERITY_NOTE,
		     "dropped %s on %s (allow at %s): it overlaps the %s of %s at %s, which "
		     "Landlock cannot carve out; see `landfence plan`",
		     lf_access_name(d->access), d->abs_root, allow, lf_effect_name(d->fence_effect),
		     d->fence_root, fence);
	}
	for (size_t i = 0; i < lf_sandbox_dropped_count(sb); i++) {
		const struct lf_sandbox_dropped *d = lf_sandbox_dropped(sb, i);

		if (d->fence && fence_builtin(sb, d->fence))
			continue;
		if (!d->fence) {
			tell(r, LF_SEVERITY_NOTE, "skipped %s %s (%s); see `landfence plan`",
			     lf_access_name(d->access), d->path, d->why);
			continue;
		}
		place_text(fence, sizeof(fence), &d->fence_source);
		tell(r, LF_SEVERITY_NOTE,
		     "dropped %s on %s (%s): it overlaps the fence %s at %s; see `landfence plan`",
		     lf_access_name(d->access), d->path, d->why, d->fence, fence);
	}
}

/* A policy file replaces the embedded default: one that grants nothing in
 * the project leaves the program unable to read it, which is rarely what
 * was meant. Said loudly (never hidden by -q). */
static void tell_project_ungranted(struct lf_run *r, const struct lf_sandbox *sb)
{
	const char *root = lf_sandbox_project_root(sb);

	for (size_t i = 0; i < lf_sandbox_rule_count(sb); i++) {
		const char *path = lf_sandbox_rule(sb, i)->path;

		if (lf_path_covers(path, root) || lf_path_covers(root, path))
			return;
	}
	tell(r, LF_SEVERITY_WARNING,
	     "the policy grants nothing in the project %s: the program can neither read nor "
	     "change it. A policy file replaces the embedded default; \"extends\": \"default\" "
	     "builds on it instead (landfence-policy(5))",
	     root);
}

/* git's global options that take a value as the next word. */
static bool git_opt_arg(const char *o)
{
	return !strcmp(o, "-C") || !strcmp(o, "-c") || !strcmp(o, "--git-dir") ||
	       !strcmp(o, "--work-tree") || !strcmp(o, "--namespace") || !strcmp(o, "--config-env");
}

/* Where `git [global options] SUB ...` has SUB, with -C applied to *dir
 * (malloc'ed, replaced); 0 unless argv is git. */
static size_t git_words(char *const argv[], char **dir)
{
	const char *base = strrchr(argv[0], '/');
	size_t i = 1;

	if (strcmp(base ? base + 1 : argv[0], "git") != 0)
		return 0;
	for (; argv[i] && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "-C") && argv[i + 1]) {
			char *d = NULL;

			if (argv[i + 1][0] == '/')
				d = strdup(argv[i + 1]);
			else if (asprintf(&d, "%s/%s", *dir, argv[i + 1]) < 0)
				d = NULL;
			if (!d)
				return 0;
			free(*dir);
			*dir = d;
		}
		if (git_opt_arg(argv[i]) && argv[i + 1])
			i++;
	}
	return argv[i] ? i : 0;
}

/* The words after SUB1 SUB2 (options between them skipped: `git
 * submodule --quiet add`), or NULL. */
static char *const *git_sub(char *const argv[], size_t i, const char *sub1, const char *sub2)
{
	if (!i || strcmp(argv[i], sub1) != 0)
		return NULL;
	for (i++; argv[i] && argv[i][0] == '-'; i++)
		;
	return argv[i] && !strcmp(argv[i], sub2) ? &argv[i + 1] : NULL;
}

/* The operands of a subcommand's words: options and the values of those
 * that take one (opts_arg) skipped. */
static size_t git_operands(char *const *w, const char *const *opts_arg, const char **out,
			   size_t max)
{
	size_t n = 0;
	bool dashdash = false;

	for (size_t i = 0; w[i] && n < max; i++) {
		bool takes = false;

		if (!dashdash && !strcmp(w[i], "--")) {
			dashdash = true;
			continue;
		}
		if (!dashdash && w[i][0] == '-') {
			for (size_t k = 0; opts_arg[k]; k++)
				takes = takes || !strcmp(w[i], opts_arg[k]);
			i += takes && w[i + 1];
			continue;
		}
		out[n++] = w[i];
	}
	return n;
}

/* Whether a final rule grants access on path (made absolute from dir). */
static bool git_path_granted(const struct lf_sandbox *sb, const char *dir, const char *path,
			     unsigned access, char **abs)
{
	char *joined = NULL;

	*abs = NULL;
	if (path[0] == '/')
		joined = strdup(path);
	else if (asprintf(&joined, "%s/%s", dir, path) < 0)
		joined = NULL;
	if (joined && joined[0] != '/') {
		free(joined);
		return true; /* a relative working directory: cannot tell */
	}
	if (!joined || lf_path_canon_lenient(joined, abs) < 0) {
		free(joined);
		return true; /* out of memory: say nothing */
	}
	free(joined);
	for (size_t i = 0; i < lf_sandbox_rule_count(sb); i++) {
		const struct lf_sandbox_rule *rule = lf_sandbox_rule(sb, i);

		if ((rule->access & access) == access && lf_path_covers(rule->path, *abs))
			return true;
	}
	return false;
}

/* `git worktree add PATH` and `git submodule add REPO [PATH]` run as the
 * program, with PATH or a local REPO outside the sandbox's grants: git
 * fails with a bare "Permission denied", or claims the repository does
 * not exist. Said before it happens, with what to do instead. */
static void tell_git_outside(struct lf_run *r, const struct lf_sandbox *sb, char *const argv[],
			     const char *cwd)
{
	static const char *const wt_opts[] = { "-b", "-B", "--reason", NULL };
	static const char *const sm_opts[] = { "-b",	      "--branch", "--name",
					       "--reference", "--depth",  NULL };
	const char *ops[2];
	char *const *w;
	char *abs = NULL, *dir = cwd ? strdup(cwd) : getcwd(NULL, 0);
	size_t sub;

	if (!dir)
		return;
	sub = git_words(argv, &dir);
	if ((w = git_sub(argv, sub, "worktree", "add")) && git_operands(w, wt_opts, ops, 1) == 1 &&
	    !git_path_granted(sb, dir, ops[0], LF_ACCESS_RW, &abs))
		tell(r, LF_SEVERITY_NOTE,
		     "git worktree add %s: %s lies outside what the sandbox may write, so git will "
		     "fail with Permission denied; make the worktree outside landfence (a linked "
		     "worktree then runs under landfence as a project of its own: doc/landlock.md, "
		     "\"git\"), or grant its parent with host.write",
		     ops[0], abs);
	else if ((w = git_sub(argv, sub, "submodule", "add"))) {
		size_t n = git_operands(w, sm_opts, ops, 2);
		const char *repo = n ? ops[0] : NULL;

		if (repo && !strncmp(repo, "file://", 7))
			repo += 7;
		if (repo && repo[0] == '/' && !git_path_granted(sb, dir, repo, LF_ACCESS_RO, &abs))
			tell(r, LF_SEVERITY_NOTE,
			     "git submodule add %s: the repository %s lies outside what the "
			     "sandbox "
			     "may read, so git will say it does not exist (the cause is Permission "
			     "denied); add it to host.read, or add the submodule outside landfence",
			     ops[0], abs);
		free(abs);
		abs = NULL;
		if (n == 2 && !git_path_granted(sb, dir, ops[1], LF_ACCESS_RW, &abs))
			tell(r, LF_SEVERITY_NOTE,
			     "git submodule add: %s lies outside what the sandbox may write, so "
			     "git "
			     "will fail with Permission denied",
			     abs);
	}
	free(abs);
	free(dir);
}

/* The sandbox's status and notices, then the pre-launch checks and their
 * verdict. */
static int checks_before(struct lf_run *r, struct lf_diag *diag)
{
	const struct lf_sandbox *sb = lf_child_sandbox(r->child);
	const struct lf_status *s = lf_sandbox_status(sb);
	struct lf_findings *f = NULL;
	int e;

	/* Loud, before anything runs. */
	if (s->kind == LF_STATUS_UNSUPPORTED)
		tell(r, LF_SEVERITY_WARNING,
		     "Landlock is not available: the program runs WITHOUT the file-system "
		     "sandbox%s%s",
		     s->reason[0] ? ": " : "", s->reason);
	else if (s->kind == LF_STATUS_DEGRADED)
		tell(r, LF_SEVERITY_WARNING, "the sandbox is DEGRADED on this kernel: %s",
		     s->reason[0] ? s->reason : "a right the plan needs is missing");
	for (size_t i = 0; i < lf_sandbox_notice_count(sb); i++)
		tell(r, LF_SEVERITY_NOTE, "%s", lf_sandbox_notice(sb, i));
	namespace_notes(r, sb);
	tell_dropped(r, sb);
	if (s->kind != LF_STATUS_UNSUPPORTED)
		tell_project_ungranted(r, sb);
	e = lf_findings_scan(sb, r->p, LF_SCAN_HARDLINKS | LF_SCAN_DEVICES, &f);
	if (e < 0) {
		if (diag)
			snprintf(diag->message, sizeof(diag->message),
				 "cannot scan for hard links and device nodes: %s", strerror(-e));
		return e;
	}
	for (size_t i = 0; i < f->n; i++)
		tell(r, f->v[i].severity, "%s", f->v[i].text);
	e = lf_findings_verdict(f, diag);
	lf_findings_free(f);
	return e;
}

int lf_run_new(const struct lf_project *p, const struct lf_run_opts *opts, char *const argv[],
	       struct lf_run **out, struct lf_diag *diag)
{
	struct lf_run_opts o;
	struct lf_run *r;
	int e;

	if (diag)
		memset(diag, 0, sizeof(*diag));
	if (!opts || lf_opts_copy(&o, sizeof(o), opts, opts->size) < 0 || !p || !p->eff || !argv ||
	    !argv[0] || !out || (o.nprofiles && !o.profiles)) {
		if (diag)
			snprintf(diag->message, sizeof(diag->message),
				 "lf_run_new: invalid arguments");
		return -EINVAL;
	}
	r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	r->p = p;
	r->message = o.message;
	r->ctx = o.message_ctx;
	e = profiles_pick(r, &o, argv[0]);
	if (e == 0)
		e = child_prepare(r, &o, argv, diag);
	if (e == 0)
		e = checks_before(r, diag);
	if (e == 0)
		tell_git_outside(r, lf_child_sandbox(r->child), argv, o.cwd);
	/* Where code planted now would run later outside the sandbox. */
	if (e == 0 && (e = lf_snapshot_take(lf_child_sandbox(r->child), &r->snap)) < 0 && diag)
		snprintf(diag->message, sizeof(diag->message),
			 "cannot look at the persistence paths: %s", strerror(-e));
	if (e < 0) {
		lf_run_free(r);
		return e == -ENOENT || e == -EACCES || e == -EINVAL || e == -EPERM ||
				       e == -ENOMEM || e == -ECANCELED || e == -EOPNOTSUPP
			       ? e
			       : -EIO;
	}
	*out = r;
	return 0;
}

int lf_run_start(struct lf_run *r, struct lf_diag *diag)
{
	int e;

	if (!r)
		return -EINVAL;
	/* Orphans of the sandbox become our children: reaped as they end
	 * (lf_child_reap_orphans), the rest ended with the program
	 * (lf_orphans_kill). Without it they would outlive the run
	 * unseen: nothing runs. */
	if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) < 0) {
		e = -errno;
		lf_diag_set(diag, "", 0, 0,
			    "the program did not run: cannot become the subreaper of its "
			    "processes (PR_SET_CHILD_SUBREAPER): %s",
			    strerror(-e));
		return e;
	}
	e = lf_child_start(r->child, diag);
	if (e < 0)
		diag_prefix(diag, "the program did not run: ");
	else
		lf_child_reap_orphans(r->child);
	return e;
}

int lf_run_wait(struct lf_run *r, int *status)
{
	struct lf_findings *f = NULL;
	int e;

	if (!r)
		return -EINVAL;
	e = lf_child_wait(r->child, status);
	if (e < 0)
		return e;
	lf_orphans_kill();
	const char *fell = lf_child_mask_fell(r->child);
	int watch_err = lf_child_watch_error(r->child);

	if (fell)
		tell(r, LF_SEVERITY_ERROR,
		     "the program was stopped: the mask on %s fell while it ran. It was replaced "
		     "or removed outside the sandbox (an editor's save, sed -i, git config), "
		     "and the kernel then takes the mount off it everywhere, so the program "
		     "could have reached the new file (doc/launch.md, \"A mask that falls\")",
		     fell);
	else if (watch_err)
		tell(r, LF_SEVERITY_ERROR,
		     "the program was stopped: its masks could not be watched (%s), so a file "
		     "replaced outside the sandbox would not have been covered by its mask "
		     "(doc/launch.md, \"A mask that falls\")",
		     strerror(watch_err));
	/* A change where code runs later outside the sandbox (a git hook
	 * planted, agent settings rewritten) is a warning, never hidden:
	 * Landlock cannot carve these out of a writable project without
	 * losing the grant, so the user is told when it happened. */
	e = lf_snapshot_compare(r->snap, &f);
	if (e < 0) {
		tell(r, LF_SEVERITY_WARNING,
		     "cannot tell whether the program changed git hooks or other places that run "
		     "outside the sandbox: %s",
		     strerror(-e));
		return 0;
	}
	for (size_t i = 0; i < f->n; i++)
		tell(r, f->v[i].severity, "%s", f->v[i].text);
	lf_findings_free(f);
	return 0;
}

const struct lf_sandbox *lf_run_sandbox(const struct lf_run *r)
{
	return r ? lf_child_sandbox(r->child) : NULL;
}

pid_t lf_run_pid(const struct lf_run *r)
{
	return r ? lf_child_pid(r->child) : -1;
}

void lf_run_free(struct lf_run *r)
{
	if (!r)
		return;
	lf_snapshot_free(r->snap);
	/* Removes the private TMPDIR. */
	lf_child_free(r->child);
	free(r->profiles);
	free(r);
}
