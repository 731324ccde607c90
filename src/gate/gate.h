/* SPDX-License-Identifier: MIT */
/*
 * The security gates around a launch (src/gate): the pre-launch checks
 * and their verdict (findings.c, over scan.c), the post-run report
 * (snapshot.c), the advisory answer (advisor.c) and a whole run (run.c).
 * Their public API is in landfence.h; this is what they share. Internal:
 * not installed.
 */
#ifndef LF_GATE_GATE_H
#define LF_GATE_GATE_H

#include <stdbool.h>
#include <stddef.h>

#include "core/sandbox.h"
#include "gate/scan.h"
#include "landfence.h"

struct lf_findings {
	struct lf_finding *v;
	size_t n, cap;
};

/* Appends a finding (text formatted; path copied when not NULL).
 * Returns 0 or -ENOMEM. */
int lf_findings_add(struct lf_findings *f, unsigned scan, bool incomplete,
		    enum lf_severity severity, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

/* The value's final rules (rules true), or the places it keeps from them
 * (rules false: every fence not enforced by masks, and every mask but
 * those of /etc's listing), as
 * (path, access) pairs, borrowing its strings; free the array with
 * free(). Returns 0, -ENOMEM. */
int lf_sandbox_paths(const struct lf_sandbox *sb, bool rules, struct lf_path_access **out,
		     size_t *n);

/* What answers: the open project and, built on first need, the sandbox
 * value (src/gate/advisor.c). st is named as the CLI state it replaced. */
struct lf_advisor {
	const struct lf_project *st;
	const char **profiles;
	size_t nprofiles;
	bool kernel_ready; /* the sandbox value tried */
	int kernel_err;	   /* < 0: building it failed (-EOPNOTSUPP: KernelTooOld) */
	char kernel_msg[600];
	const struct lf_plan *plan; /* the project's */
	struct lf_sandbox *sb;
};

#endif /* LF_GATE_GATE_H */
