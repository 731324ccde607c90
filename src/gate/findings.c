/* SPDX-License-Identifier: MIT */
/*
 * The pre-launch checks as findings, and their fail-closed verdict
 * (landfence.h, lf_findings_scan). The scans themselves are in scan.c;
 * this decides how loud each finding is and whether the program may run.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/path.h"
#include "core/sandbox.h"
#include "core/text.h"
#include "core/toolchains.h"
#include "gate/gate.h"
#include "gate/scan.h"

void lf_findings_free(struct lf_findings *f)
{
	if (!f)
		return;
	for (size_t i = 0; i < f->n; i++) {
		free((char *)f->v[i].path);
		free((char *)f->v[i].text);
	}
	free(f->v);
	free(f);
}

size_t lf_findings_count(const struct lf_findings *f)
{
	return f ? f->n : 0;
}

const struct lf_finding *lf_findings_get(const struct lf_findings *f, size_t i)
{
	return f && i < f->n ? &f->v[i] : NULL;
}

int lf_findings_add(struct lf_findings *f, unsigned scan, bool incomplete,
		    enum lf_severity severity, const char *path, const char *fmt, ...)
{
	va_list ap;
	char *text = NULL, *p = NULL;
	int r;

	if (lf_grow((void **)&f->v, &f->cap, f->n, sizeof(*f->v)) < 0)
		return -ENOMEM;
	va_start(ap, fmt);
	r = vasprintf(&text, fmt, ap);
	va_end(ap);
	if (r < 0)
		return -ENOMEM;
	/* One line, whatever the names in it hold: a file name made in
	 * the sandbox must not forge a line or carry a terminal sequence
	 * (core/text.h). The path stays as it is, for JSON. */
	if (!lf_text_clean(text)) {
		char *esc = lf_text_escape(text);

		free(text);
		text = esc;
	}
	if (!text)
		return -ENOMEM;
	if (path && !(p = strdup(path))) {
		free(text);
		return -ENOMEM;
	}
	f->v[f->n++] = (struct lf_finding){
		.scan = scan,
		.incomplete = incomplete,
		.severity = severity,
		.path = p,
		.text = text,
	};
	return 0;
}

int lf_sandbox_paths(const struct lf_sandbox *sb, bool rules, struct lf_path_access **out,
		     size_t *n)
{
	size_t k = rules ? sb->nrules : sb->nfences + sb->nmasks, m = 0;
	struct lf_path_access *v = calloc(k ? k : 1, sizeof(*v));

	if (!v)
		return -ENOMEM;
	if (rules) {
		for (size_t i = 0; i < sb->nrules; i++)
			v[m++] = (struct lf_path_access){ sb->rules[i].path, sb->rules[i].access };
		goto out;
	}
	/* A masked fence is enforced by its masks, not by its static
	 * prefix: an expanded glob (every .pem file of the project) leaves
	 * the rest of its prefix granted, so a second name there of a
	 * fenced file is reachable and must not count as fenced
	 * (doc/escape.md, kind 2). Each mask is a fenced place. */
	for (size_t i = 0; i < sb->nfences; i++)
		if (sb->fences[i].mechanism != LF_MECH_MASK)
			v[m++] =
				(struct lf_path_access){ sb->fences[i].path, sb->fences[i].access };
	/* The entries of /etc hidden because others cannot read them are
	 * not fences: their second names were masked when the value was
	 * built where they could be found (mask_links, src/fs/facts.c). */
	for (size_t i = 0; i < sb->nmasks; i++)
		if (sb->masks[i].origin != LF_ORIGIN_HOST)
			v[m++] = (struct lf_path_access){ sb->masks[i].path, sb->masks[i].access };
out:
	*out = v;
	*n = m;
	return 0;
}

static int scan_hardlinks(const struct lf_sandbox *sb, const struct lf_path_access *rules,
			  size_t nrules, struct lf_findings *f)
{
	struct lf_path_access *fences = NULL;
	struct lf_hardlink_report rep = { 0 };
	bool deny = sb->posture == LF_DENY;
	size_t nfences = 0;
	int r;

	if ((r = lf_sandbox_paths(sb, false, &fences, &nfences)) < 0)
		return r;
	r = nfences && nrules ? lf_hardlink_scan(fences, nfences, rules, nrules, NULL, &rep) : 0;
	for (size_t i = 0; r == 0 && i < rep.nhits; i++) {
		/* Masked at its own name (lf_sandbox_mask_links): the
		 * program sees the mask there, not the file. */
		if (lf_sandbox_masked(sb, rep.hits[i].granted_path,
				      rep.hits[i].access & LF_ACCESS_RO ? LF_ACCESS_RO
									: LF_ACCESS_RW))
			continue;
		/* Sized to the paths, which may be longer than PATH_MAX. */
		char one[1];
		size_t len = (size_t)lf_hardlink_hit_format(&rep.hits[i], one, sizeof(one)) + 1;
		char *line = malloc(len);

		if (!line) {
			r = -ENOMEM;
			break;
		}
		lf_hardlink_hit_format(&rep.hits[i], line, len);
		r = lf_findings_add(f, LF_SCAN_HARDLINKS, false,
				    deny ? LF_SEVERITY_ERROR : LF_SEVERITY_WARNING,
				    rep.hits[i].granted_path, "%s", line);
		free(line);
	}
	/* Fail closed: under fallback deny a scan that could not finish may
	 * have missed a link (doc/escape.md, kind 2). */
	if (r == 0 && rep.incomplete)
		r = lf_findings_add(f, LF_SCAN_HARDLINKS, true,
				    deny ? LF_SEVERITY_ERROR : LF_SEVERITY_WARNING, NULL,
				    "the hard-link scan is incomplete: %s", rep.reason);
	lf_hardlink_report_fini(&rep);
	free(fences);
	return r;
}

/* The grants someone else could have filled before launch: the project,
 * profiles, the policies' host sections. Not the system directories or
 * /dev (their nodes are the system's), not the fresh run directory. */
static bool filled_by_others(enum lf_origin o)
{
	return o == LF_ORIGIN_POLICY || o == LF_ORIGIN_FALLBACK || o == LF_ORIGIN_HOST_POLICY ||
	       o == LF_ORIGIN_PROFILE || o == LF_ORIGIN_TOOLCHAIN;
}

static int scan_devices(const struct lf_sandbox *sb, struct lf_findings *f)
{
	struct lf_path_access *roots = calloc(sb->nrules ? sb->nrules : 1, sizeof(*roots));
	struct lf_devnode_report rep = { 0 };
	bool deny = sb->posture == LF_DENY;
	size_t k = 0;
	int r;

	if (!roots)
		return -ENOMEM;
	/* A grant the launcher binds nodev,nosuid in its mount namespace
	 * opens no device node: no walk (doc/launch.md). */
	for (size_t i = 0; i < sb->nrules; i++)
		if (filled_by_others(sb->rules[i].origin) && !lf_sandbox_rule_nodev(sb, i)) {
			roots[k].path = sb->rules[i].path;
			roots[k++].access = sb->rules[i].access;
		}
	/* From the cache of directory listings where it answers whole. */
	r = k ? lf_devnode_scan_cached(sb->config_dir, roots, k, NULL, &rep) : 0;
	for (size_t i = 0; r == 0 && i < rep.nhits; i++) {
		char one[1];
		size_t len = (size_t)lf_devnode_hit_format(&rep.hits[i], one, sizeof(one)) + 1;
		char *line = malloc(len);

		if (!line) {
			r = -ENOMEM;
			break;
		}
		lf_devnode_hit_format(&rep.hits[i], line, len);
		r = lf_findings_add(f, LF_SCAN_DEVICES, false,
				    deny ? LF_SEVERITY_ERROR : LF_SEVERITY_WARNING,
				    rep.hits[i].path, "%s", line);
		free(line);
	}
	/* Fail closed: under fallback deny a node the walk did not reach
	 * (past the budget, behind a directory it could not read) would
	 * open like a file (doc/escape.md, kind 9). */
	if (r == 0 && rep.incomplete)
		r = lf_findings_add(f, LF_SCAN_DEVICES, true,
				    deny ? LF_SEVERITY_ERROR : LF_SEVERITY_WARNING, NULL,
				    "the device-node scan is incomplete: %s", rep.reason);
	lf_devnode_report_fini(&rep);
	free(roots);
	return r;
}

/* The rule that leaves path writable, for the message. */
static const char *writable_rule(const struct lf_sandbox *sb, const char *path)
{
	for (size_t i = 0; i < sb->nrules; i++)
		if ((sb->rules[i].access & LF_ACCESS_RW) &&
		    lf_path_overlap(sb->rules[i].path, path))
			return sb->rules[i].path;
	return "?";
}

static int scan_persistence(const struct lf_sandbox *sb, const struct lf_project *p,
			    const struct lf_path_access *rules, size_t nrules,
			    struct lf_findings *f)
{
	struct lf_persist_report rep = { 0 };
	const char **files = NULL;
	size_t nfiles = p ? lf_project_layer_count(p) : 0;
	char line[8192];
	int r = 0;

	/* The protections the value only watches (the masked ones cannot
	 * change), then the policy files of the run. */
	for (size_t i = 0; r == 0 && i < sb->nprotects; i++) {
		const struct lf_sandbox_protect *pr = &sb->protects[i];

		if (pr->mechanism != LF_MECH_WATCHED)
			continue;
		r = lf_findings_add(f, LF_SCAN_PERSISTENCE, false, LF_SEVERITY_NOTE, pr->path,
				    "%s stays writable (rule %s): %s (watched: %s)", pr->path,
				    writable_rule(sb, pr->path), pr->why,
				    pr->mechanism_why ? pr->mechanism_why : "not masked");
	}
	if (r == 0 && nfiles) {
		files = calloc(nfiles, sizeof(*files));
		if (!files)
			r = -ENOMEM;
		for (size_t i = 0; r == 0 && i < nfiles; i++)
			files[i] = lf_project_layer(p, i)->file;
		if (r == 0)
			r = lf_persistence_add_files(&rep, sb->project_root, files, nfiles, rules,
						     nrules);
	}
	for (size_t i = 0; r == 0 && i < rep.nhits; i++) {
		lf_persist_hit_format(&rep.hits[i], line, sizeof(line));
		r = lf_findings_add(f, LF_SCAN_PERSISTENCE, false, LF_SEVERITY_NOTE,
				    rep.hits[i].path, "%s", line);
	}
	lf_persist_report_fini(&rep);
	free(files);
	return r;
}

static const char *scan_getenv(void *ctx, const char *name)
{
	(void)ctx;
	return secure_getenv(name);
}

/* Credential files a final rule lets the program read: no discovered
 * grant covers one, so a policy granted it (a host section, a profile, a
 * project that holds it). Said, so that granting one is a choice. */
static int scan_credentials(const struct lf_sandbox *sb, struct lf_findings *f)
{
	int r = 0;

	for (size_t i = 0; r == 0 && i < lf_credential_table_len; i++) {
		char *raw = NULL, *canon = NULL;
		struct stat st;

		if (lf_tool_expand(lf_credential_table[i].path, sb->home, scan_getenv, NULL, &raw) <
		    0)
			continue;
		canon = realpath(raw, NULL);
		free(raw);
		if (!canon || stat(canon, &st) < 0) {
			free(canon);
			continue;
		}
		for (size_t k = 0; k < sb->nrules; k++) {
			const struct lf_sandbox_rule *rule = &sb->rules[k];

			if (!(rule->access & LF_ACCESS_RO) || !lf_path_covers(rule->path, canon))
				continue;
			r = lf_findings_add(f, LF_SCAN_CREDENTIALS, false, LF_SEVERITY_NOTE, canon,
					    "%s is readable (rule %s: %s): it may hold %s", canon,
					    rule->path, rule->why, lf_credential_table[i].what);
			break;
		}
		free(canon);
	}
	return r;
}

int lf_findings_scan(const struct lf_sandbox *sb, const struct lf_project *p, unsigned what,
		     struct lf_findings **out)
{
	struct lf_findings *f;
	struct lf_path_access *rules = NULL;
	size_t nrules = 0;
	int r = 0;

	if (!sb || !out || (what & ~LF_SCAN_PRELAUNCH))
		return -EINVAL;
	f = calloc(1, sizeof(*f));
	if (!f)
		return -ENOMEM;
	/* Nothing is enforced: there is nothing a check could keep. */
	if (sb->status.kind == LF_STATUS_UNSUPPORTED) {
		*out = f;
		return 0;
	}
	r = lf_sandbox_paths(sb, true, &rules, &nrules);
	if (r == 0 && (what & LF_SCAN_HARDLINKS))
		r = scan_hardlinks(sb, rules, nrules, f);
	if (r == 0 && (what & LF_SCAN_DEVICES))
		r = scan_devices(sb, f);
	if (r == 0 && (what & LF_SCAN_PERSISTENCE))
		r = scan_persistence(sb, p, rules, nrules, f);
	if (r == 0 && (what & LF_SCAN_CREDENTIALS))
		r = scan_credentials(sb, f);
	free(rules);
	if (r < 0) {
		lf_findings_free(f);
		return r;
	}
	*out = f;
	return 0;
}

int lf_findings_verdict(const struct lf_findings *f, struct lf_diag *diag)
{
	static const struct {
		unsigned scan;
		bool incomplete;
		const char *why;
	} refusals[] = {
		{ LF_SCAN_HARDLINKS, true,
		  "fenced files may be reachable through a grant under another name and the "
		  "scan could not rule it out; nothing was run (make the place readable, "
		  "narrow the fences or the grants, or raise LANDFENCE_SCAN_MAX_ENTRIES)" },
		{ LF_SCAN_HARDLINKS, false,
		  "a fenced file is reachable through a grant under another name; nothing was "
		  "run (remove the link, or fence its directory)" },
		{ LF_SCAN_DEVICES, true,
		  "a device node may lie below a grant where the scan could not look; nothing "
		  "was run (make the place readable, remove it, or raise "
		  "LANDFENCE_SCAN_MAX_ENTRIES)" },
		{ LF_SCAN_DEVICES, false,
		  "a device node lies below a grant and would open like a file there; nothing "
		  "was run (remove it)" },
	};

	if (!f)
		return -EINVAL;
	for (size_t k = 0; k < sizeof(refusals) / sizeof(refusals[0]); k++)
		for (size_t i = 0; i < f->n; i++) {
			const struct lf_finding *x = &f->v[i];

			if (x->severity != LF_SEVERITY_ERROR || x->scan != refusals[k].scan ||
			    x->incomplete != refusals[k].incomplete)
				continue;
			if (diag) {
				memset(diag, 0, sizeof(*diag));
				snprintf(diag->message, sizeof(diag->message), "%s",
					 refusals[k].why);
			}
			return -ECANCELED;
		}
	/* An error no row names still refuses: fail closed. */
	for (size_t i = 0; i < f->n; i++)
		if (f->v[i].severity == LF_SEVERITY_ERROR) {
			if (diag) {
				memset(diag, 0, sizeof(*diag));
				snprintf(diag->message, sizeof(diag->message),
					 "%s; nothing was run", f->v[i].text);
			}
			return -ECANCELED;
		}
	return 0;
}
