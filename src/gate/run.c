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
