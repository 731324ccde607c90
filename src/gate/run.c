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

#include "core/path.h"
#include "core/tables.h"
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
	/* Orphans of the sandbox become our children (lf_orphans_kill). */
	(void)prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
	e = lf_child_start(r->child, diag);
	if (e < 0)
		diag_prefix(diag, "the program did not run: ");
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
