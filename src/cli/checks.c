/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/checks.h"
#include "landlock/hardlink.h"

void lf_cli_findings_fini(struct lf_cli_findings *f)
{
	if (!f)
		return;
	for (size_t i = 0; i < f->n; i++)
		free(f->lines[i]);
	free(f->lines);
	memset(f, 0, sizeof(*f));
}

static int rules_of(const struct lf_sandbox *sb, struct lf_path_access **out, size_t *n)
{
	size_t k = lf_sandbox_rule_count(sb);
	struct lf_path_access *v = calloc(k ? k : 1, sizeof(*v));

	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < k; i++) {
		const struct lf_final_rule *r = lf_sandbox_rule(sb, i);
		v[i].path = r->path;
		v[i].access = r->access;
	}
	*out = v;
	*n = k;
	return 0;
}

static int add_line(struct lf_cli_findings *f, const char *text)
{
	char **v = realloc(f->lines, (f->n + 1) * sizeof(*v));

	if (!v)
		return -ENOMEM;
	f->lines = v;
	if (!(v[f->n] = strdup(text)))
		return -ENOMEM;
	f->n++;
	return 0;
}

int lf_cli_hardlinks(const struct lf_plan *plan, const struct lf_sandbox *sb,
		     struct lf_cli_findings *out)
{
	size_t nf = lf_plan_fence_count(plan), k = 0, ng = 0;
	struct lf_path_access *fences = NULL, *grants = NULL;
	struct lf_hardlink_report rep = { 0 };
	struct lf_cli_findings f = { 0 };
	char **canon = NULL, line[PATH_MAX * 3];
	int r;

	if ((r = rules_of(sb, &grants, &ng)) < 0)
		return r;
	fences = calloc(nf ? nf : 1, sizeof(*fences));
	canon = calloc(nf ? nf : 1, sizeof(*canon));
	if (!fences || !canon) {
		r = -ENOMEM;
		goto out;
	}
	/* The scan compares canonical paths; a fence that does not exist
	 * has no file to link to. */
	for (size_t i = 0; i < nf; i++) {
		const struct lf_fence *fe = lf_plan_fence(plan, i);
		char *c = realpath(fe->abs_root, NULL);
		if (!c)
			continue;
		canon[k] = c;
		fences[k].path = c;
		fences[k].access = fe->access;
		k++;
	}
	if (k > 0 && ng > 0) {
		r = lf_hardlink_scan(fences, k, grants, ng, NULL, &rep);
		if (r < 0)
			goto out;
		for (size_t i = 0; i < rep.nhits && r == 0; i++) {
			lf_hardlink_hit_format(&rep.hits[i], line, sizeof(line));
			r = add_line(&f, line);
		}
		f.incomplete = rep.incomplete;
		snprintf(f.reason, sizeof(f.reason), "%s", rep.reason);
		lf_hardlink_report_fini(&rep);
		if (r < 0)
			goto out;
	}
	*out = f;
	memset(&f, 0, sizeof(f));
	r = 0;
out:
	lf_cli_findings_fini(&f);
	for (size_t i = 0; canon && i < k; i++)
		free(canon[i]);
	free(canon);
	free(fences);
	free(grants);
	return r;
}

int lf_cli_persistence(const char *project_root, const struct lf_sandbox *sb,
		       struct lf_cli_findings *out)
{
	struct lf_path_access *rules = NULL;
	struct lf_persist_report rep = { 0 };
	struct lf_cli_findings f = { 0 };
	const char *home = secure_getenv("HOME");
	char line[PATH_MAX * 2 + 256];
	size_t n = 0;
	int r;

	if ((r = rules_of(sb, &rules, &n)) < 0)
		return r;
	r = lf_persistence_check(project_root, home && home[0] == '/' ? home : NULL, rules, n,
				 &rep);
	for (size_t i = 0; r == 0 && i < rep.nhits; i++) {
		lf_persist_hit_format(&rep.hits[i], line, sizeof(line));
		r = add_line(&f, line);
	}
	lf_persist_report_fini(&rep);
	free(rules);
	if (r < 0) {
		lf_cli_findings_fini(&f);
		return r;
	}
	*out = f;
	return 0;
}

int lf_cli_devnodes(const struct lf_sandbox *sb, struct lf_cli_findings *out)
{
	size_t n = lf_sandbox_rule_count(sb), k = 0;
	struct lf_path_access *roots = calloc(n ? n : 1, sizeof(*roots));
	struct lf_devnode_report rep = { 0 };
	struct lf_cli_findings f = { 0 };
	char line[PATH_MAX * 2 + 256];
	int r;

	if (!roots)
		return -ENOMEM;
	/* The grants someone else could have filled before launch: the
	 * project, profiles, the policy's host section. Not the system
	 * directories or /dev (their nodes are the system's), not the
	 * fresh run directory. */
	for (size_t i = 0; i < n; i++) {
		const struct lf_final_rule *fr = lf_sandbox_rule(sb, i);
		if (fr->origin != LF_ORIGIN_POLICY && fr->origin != LF_ORIGIN_FALLBACK &&
		    fr->origin != LF_ORIGIN_HOST_POLICY && fr->origin != LF_ORIGIN_PROFILE)
			continue;
		roots[k].path = fr->path;
		roots[k].access = fr->access;
		k++;
	}
	r = k ? lf_devnode_scan(roots, k, NULL, &rep) : 0;
	for (size_t i = 0; r == 0 && i < rep.nhits; i++) {
		lf_devnode_hit_format(&rep.hits[i], line, sizeof(line));
		r = add_line(&f, line);
	}
	f.incomplete = rep.incomplete;
	snprintf(f.reason, sizeof(f.reason), "%s", rep.reason);
	if (k)
		lf_devnode_report_fini(&rep);
	free(roots);
	if (r < 0) {
		lf_cli_findings_fini(&f);
		return r;
	}
	*out = f;
	return 0;
}
