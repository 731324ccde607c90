/* SPDX-License-Identifier: MIT */
/*
 * The enforcer port of the seed (SandboxEnforcer) over the adapter: it
 * applies a sandbox value, the same one `landfence run` applies, in the
 * calling process. The launcher does not use it: it splits the same steps
 * around fork so that the child never allocates (doc/launch.md).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "landlock/sandbox.h"

static int landlock_enforce(const struct lf_enforcer *self, const struct lf_sandbox *sb,
			    struct lf_status *status, struct lf_diag *diag)
{
	int fd = -1, r;

	(void)self;
	if (!sb || !status)
		return -EINVAL;
	r = lf_sandbox_ruleset_fd(sb, &fd, diag);
	if (r < 0)
		return r;
	if (fd >= 0) {
		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0) {
			r = -errno;
			if (diag)
				snprintf(diag->message, sizeof(diag->message),
					 "cannot set no-new-privs: %s", strerror(errno));
			goto out;
		}
		r = lf_landlock_restrict(fd);
		if (r < 0) {
			if (diag)
				snprintf(diag->message, sizeof(diag->message),
					 "landlock_restrict_self: %s", strerror(-r));
			goto out;
		}
	}
	*status = *lf_sandbox_status(sb);
out:
	if (fd >= 0)
		close(fd);
	return r;
}

static int unsupported_enforce(const struct lf_enforcer *self, const struct lf_sandbox *sb,
			       struct lf_status *status, struct lf_diag *diag)
{
	(void)self;
	(void)diag;
	if (!sb || !status)
		return -EINVAL;
	memset(status, 0, sizeof(*status));
	status->kind = LF_STATUS_UNSUPPORTED;
	snprintf(status->reason, sizeof(status->reason), "no OS sandbox in this enforcer");
	return 0;
}

static const struct lf_enforcer landlock_enforcer = {
	.kind = LF_SANDBOX_LANDLOCK,
	.enforce = landlock_enforce,
};

static const struct lf_enforcer unsupported_enforcer = {
	.kind = LF_SANDBOX_UNSUPPORTED,
	.enforce = unsupported_enforce,
};

const struct lf_enforcer *lf_enforcer_landlock(void)
{
	return &landlock_enforcer;
}

const struct lf_enforcer *lf_enforcer_unsupported(void)
{
	return &unsupported_enforcer;
}
