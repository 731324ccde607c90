/* SPDX-License-Identifier: MIT */
/*
 * landfence plan [-p POLICY]... [-C DIR] [--profile NAME]... [--json] [--tree]
 *
 * What `run` would enforce here: the sandbox value (lf_sandbox_new) with
 * every final rule, its access, origin and source (with the layer of a
 * policy's rule), every dropped allow with the fence that dropped it, the
 * handled rights, the ABI and the status, and the pre-launch findings.
 */
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "core/tables.h"
#include "core/model.h"

static const char *const scope_names[] = { "abstract_unix_socket", "signal" };

/* The text listing folds a run of rules that only differ by their path
 * below one top-level directory (/etc granted entry by entry) into one
 * line; --json and --tree keep every rule. */
#define RULE_RUN_MIN 8

static bool same_run(const struct lf_sandbox_rule *a, const struct lf_sandbox_rule *b)
{
	size_t top = strcspn(a->path + 1, "/") + 1;

	return a->origin == b->origin && a->access == b->access && a->ioctl_dev == b->ioctl_dev &&
	       a->why && b->why && strcmp(a->why, b->why) == 0 && top > 1 &&
	       strncmp(a->path, b->path, top) == 0 && b->path[top] == '/' && a->path[top] == '/';
}

/* How many rules from i on belong to i's run. */
static size_t rule_run(const struct lf_sandbox *sb, size_t i)
{
	const struct lf_sandbox_rule *first = lf_sandbox_rule(sb, i);
	size_t n = lf_sandbox_rule_count(sb), k = i + 1;

	while (k < n && same_run(first, lf_sandbox_rule(sb, k)))
		k++;
	return k - i;
}

static const char *status_str(enum lf_status_kind k)
{
	switch (k) {
	case LF_STATUS_ENFORCED:
		return "enforced";
	case LF_STATUS_DEGRADED:
		return "degraded";
	case LF_STATUS_UNSUPPORTED:
		return "unsupported";
	}
	return "unknown";
}

static void print_rights(FILE *f, uint64_t mask)
{
	bool first = true;

	for (unsigned b = 0; b < 64; b++) {
		uint64_t bit = 1ULL << b;
		const char *n;
		if (!(mask & bit))
			continue;
		n = lf_landlock_right_name(bit);
		fprintf(f, "%s%s", first ? "" : " ", n ? n : "?");
		first = false;
	}
	if (first)
		fputs("none", f);
}

static json_t *rights_json(uint64_t mask)
{
	json_t *a = json_array();

	for (unsigned b = 0; a && b < 64; b++) {
		uint64_t bit = 1ULL << b;
		const char *n;
		if (!(mask & bit))
			continue;
		n = lf_landlock_right_name(bit);
		json_array_append_new(a, json_string(n ? n : "unknown"));
	}
	return a;
}

static json_t *scopes_json(uint64_t mask)
{
	json_t *a = json_array();

	for (unsigned b = 0; a && b < 2; b++)
		if (mask & (1ULL << b))
			json_array_append_new(a, json_string(scope_names[b]));
	return a;
}

/* The layer of a policy's rule; NULL for a source no layer wrote (the
 * built-in configuration fence). */
static const char *layer_of(const struct lf_project *p, const struct lf_source *s)
{
	enum lf_layer l;

	return lf_effective_layer_of(lf_project_effective(p), s, &l) == 0 ? lf_layer_name(l) : NULL;
}

static json_t *source_json(const struct lf_project *p, const struct lf_source *s)
{
	return json_pack("{s:s?, s:s?, s:i, s:i}", "layer", layer_of(p, s), "file", s->file, "line",
			 (int)s->line, "column", (int)s->column);
}

/* "LAYER FILE:LINE:COLUMN": plan names the layer of every rule. */
static void source_text(char *buf, size_t size, const struct lf_project *p,
			const struct lf_source *s)
{
	const char *layer = layer_of(p, s);

	if (s->file && s->line)
		snprintf(buf, size, "%s%s%s:%u:%u", layer ? layer : "", layer ? " " : "", s->file,
			 s->line, s->column);
	else if (s->file)
		snprintf(buf, size, "%s%s%s", layer ? layer : "", layer ? " " : "", s->file);
	else
		snprintf(buf, size, "?");
}

/* What no Landlock ABI fences, and what the launcher does about it. */

struct plan_view {
	struct lf_findings *findings; /* hard links, device nodes, persistence paths */
	const struct lf_project *p;
	const struct lf_plan *plan;
	const struct lf_sandbox *sb; /* NULL: KernelTooOld */
	const char *too_old;	     /* the KernelTooOld reason */
	struct lf_abi_probe probe;
};

/* Orders paths component by component ('/' before every other byte), so
 * that a directory's descendants follow it directly. */
static int cmp_rule(const void *a, const void *b)
{
	const unsigned char *x =
		(const unsigned char *)(*(const struct lf_sandbox_rule *const *)a)->path;
	const unsigned char *y =
		(const unsigned char *)(*(const struct lf_sandbox_rule *const *)b)->path;

	for (; *x && *x == *y; x++, y++)
		;
	unsigned cx = *x == '/' ? 1 : *x, cy = *y == '/' ? 1 : *y;
	return (int)cx - (int)cy;
}

/* Splits a canonical path into its components (at most n). */
static size_t path_split(const char *p, const char **comp, size_t *len, size_t n)
{
	size_t k = 0;

	while (*p && k < n) {
		while (*p == '/')
			p++;
		if (!*p)
			break;
		const char *e = strchrnul(p, '/');
		comp[k] = p;
		len[k] = (size_t)(e - p);
		k++;
		p = e;
	}
	return k;
}

#define TREE_DEPTH 64

/* The final rules as a directory tree: each component once, a rule's
 * access and origin at its own node. */
static void print_tree(const struct lf_sandbox *sb)
{
	size_t n = lf_sandbox_rule_count(sb);
	const struct lf_sandbox_rule **v = calloc(n ? n : 1, sizeof(*v));
	const char *prev[TREE_DEPTH], *cur[TREE_DEPTH];
	size_t prevlen[TREE_DEPTH], curlen[TREE_DEPTH], np = 0;

	if (!v)
		return;
	for (size_t i = 0; i < n; i++)
		v[i] = lf_sandbox_rule(sb, i);
	if (n > 1)
		qsort(v, n, sizeof(*v), cmp_rule);
	printf("  /\n");
	for (size_t i = 0; i < n; i++) {
		size_t nc = path_split(v[i]->path, cur, curlen, TREE_DEPTH), k = 0;
		while (k < nc && k < np && curlen[k] == prevlen[k] &&
		       !memcmp(cur[k], prev[k], curlen[k]))
			k++;
		if (k == nc && nc > 0)
			k = nc - 1; /* the same path again: print its node */
		for (size_t j = k; j < nc; j++) {
			printf("  %*s%.*s", (int)(2 * (j + 1)), "", (int)curlen[j], cur[j]);
			if (j + 1 == nc)
				printf("  [%s%s, %s]", lf_access_name(v[i]->access),
				       v[i]->ioctl_dev ? "+ioctl" : "",
				       lf_origin_name(v[i]->origin));
			else
				printf("/");
			printf("\n");
		}
		memcpy(prev, cur, sizeof(cur[0]) * nc);
		memcpy(prevlen, curlen, sizeof(curlen[0]) * nc);
		np = nc;
	}
	printf("  %*s%s  [read+write, run-dir]\n", 2, "", "$TMPDIR (private, one per run)");
	free(v);
}

/* The network, said plainly either way. */
static void print_network(const struct lf_sandbox *sb)
{
	size_t n = lf_sandbox_port_count(sb);

	if (!lf_sandbox_network_restricted(sb)) {
		printf("network: NOT restricted: the program may connect to any host on any port "
		       "(a policy's \"network\" section restricts TCP)\n");
		return;
	}
	printf("network: TCP restricted%s; connect:",
	       lf_sandbox_handled_net(sb) ? "" : " by the policy, NOT enforced at this ABI");
	for (int bind = 0; bind < 2; bind++) {
		bool any = false;

		if (bind)
			printf("; bind:");
		for (size_t i = 0; i < n; i++) {
			const struct lf_sandbox_port *p = lf_sandbox_port(sb, i);
			if (bind ? p->bind : p->connect) {
				printf(" %u", p->port);
				any = true;
			}
		}
		if (!any)
			printf(" none");
	}
	printf(" (UDP and UNIX sockets are not restricted)\n");
}

static void print_header(const struct plan_view *pv)
{
	const struct lf_project *p = pv->p;
	const struct lf_sandbox *sb = pv->sb;

	printf("project: %s\n", lf_project_root(p));
	printf("policy:");
	for (size_t i = 0; i < lf_project_layer_count(p); i++)
		printf(" %s (%s)", lf_project_layer(p, i)->file,
		       lf_layer_name(lf_project_layer(p, i)->layer));
	bool base = false;
	for (size_t i = 0; i < lf_project_layer_count(p); i++)
		base = base || !strcmp(lf_project_layer(p, i)->file, "<embedded>");
	printf("%s\n", lf_project_embedded_default(p) ? " (the embedded default)"
		       : base			      ? " (\"extends\": \"default\")"
						      : "");
	printf("fallback: %s\n", lf_effect_name(lf_effective_fallback(lf_project_effective(p))));
	if (pv->probe.cap >= 0)
		printf("landlock ABI: %d (kernel %d, capped at %d)\n", pv->probe.abi,
		       pv->probe.kernel, pv->probe.cap);
	else
		printf("landlock ABI: %d (kernel %d)\n", pv->probe.abi, pv->probe.kernel);
	if (!sb) {
		printf("status: kernel-too-old: %s\n", pv->too_old);
		printf("        `landfence run` refuses to start anything with this policy "
		       "here.\n");
		return;
	}
	const struct lf_status *s = lf_sandbox_status(sb);
	printf("status: %s%s%s\n", status_str(s->kind), s->reason[0] ? ": " : "", s->reason);
	printf("handled: ");
	print_rights(stdout, lf_sandbox_handled(sb));
	printf("\nscoped:");
	uint64_t sc = lf_sandbox_scoped(sb);
	if (!sc)
		printf(" none");
	for (unsigned b = 0; b < 2; b++)
		if (sc & (1ULL << b))
			printf(" %s", scope_names[b]);
	printf("\n");
	print_network(sb);
}

static void print_rules(const struct plan_view *pv, bool tree)
{
	const struct lf_sandbox *sb = pv->sb;
	size_t n = sb ? lf_sandbox_rule_count(sb) : 0;

	if (!sb) {
		printf("\nplan grants (%zu):\n", lf_plan_grant_count(pv->plan));
		for (size_t i = 0; i < lf_plan_grant_count(pv->plan); i++) {
			const struct lf_grant *g = lf_plan_grant(pv->plan, i);
			printf("  %-10s %s\n", lf_access_name(g->access), g->abs_root);
		}
		return;
	}
	printf("\nrules (%zu):\n", n);
	if (tree) {
		print_tree(sb);
		return;
	}
	for (size_t i = 0; i < n;) {
		const struct lf_sandbox_rule *fr = lf_sandbox_rule(sb, i);
		size_t run = rule_run(sb, i);
		if (run >= RULE_RUN_MIN) {
			size_t top = strcspn(fr->path + 1, "/") + 1;
			printf("  %-10s %-12s %.*s/... (%zu rules)  (%s; --json and --tree list "
			       "each)\n",
			       lf_access_name(fr->access), lf_origin_name(fr->origin), (int)top,
			       fr->path, run, fr->why ? fr->why : "");
			i += run;
			continue;
		}
		printf("  %-10s %-12s %s%s  (%s)\n", lf_access_name(fr->access),
		       lf_origin_name(fr->origin), fr->path,
		       fr->ioctl_dev ? "  +terminal ioctls" : "", fr->why ? fr->why : "");
		i++;
	}
	printf("  %-10s %-12s %s\n", "read+write", "run-dir",
	       "<a private TMPDIR, created for each run and removed after it>");
}

/* How many of the plan's drops the value did not give back. */
static size_t plan_drops_left(const struct plan_view *pv)
{
	size_t n = 0;

	for (size_t i = 0; i < lf_plan_dropped_count(pv->plan); i++)
		n += !pv->sb || !lf_sandbox_readmitted(pv->sb, lf_plan_dropped(pv->plan, i));
	return n;
}

static void print_dropped(const struct plan_view *pv)
{
	const struct lf_sandbox *sb = pv->sb;
	size_t nd = lf_plan_dropped_count(pv->plan);
	size_t nad = sb ? lf_sandbox_dropped_count(sb) : 0;
	char src[600], fsrc[600];

	printf("\ndropped (%zu):\n", plan_drops_left(pv) + nad);
	for (size_t i = 0; i < nd; i++) {
		const struct lf_dropped *d = lf_plan_dropped(pv->plan, i);
		/* Back as a rule: every fence that dropped it is masked. */
		if (sb && lf_sandbox_readmitted(sb, d))
			continue;
		source_text(src, sizeof(src), pv->p, &d->allow);
		source_text(fsrc, sizeof(fsrc), pv->p, &d->fence);
		printf("  %-10s %s  (allow at %s) fenced by %s %s at %s\n",
		       lf_access_name(d->access), d->abs_root, src, lf_effect_name(d->fence_effect),
		       d->fence_root, fsrc);
	}
	for (size_t i = 0; i < nad; i++) {
		const struct lf_sandbox_dropped *d = lf_sandbox_dropped(sb, i);
		if (d->fence) {
			source_text(src, sizeof(src), pv->p, &d->fence_source);
			printf("  %-10s %s  (%s) fenced by %s at %s\n", lf_access_name(d->access),
			       d->path, d->why ? d->why : lf_origin_name(d->origin), d->fence, src);
		} else {
			printf("  %-10s %s  (%s) skipped\n", lf_access_name(d->access), d->path,
			       d->why ? d->why : lf_origin_name(d->origin));
		}
	}
}

/* Whether a finding is listed: a persistence path is, when it exists
 * (one that does not is only counted: run reports it if the program makes
 * it); every other finding is. */
static bool finding_listed(const struct lf_finding *f)
{
	struct stat st;

	return f->scan != LF_SCAN_PERSISTENCE || !f->path || lstat(f->path, &st) == 0;
}

/* The findings of one scan: a heading, the lines, an incomplete scan. */
static void print_findings(const struct plan_view *pv, unsigned scan, const char *heading)
{
	size_t n = 0, absent = 0;
	bool incomplete = false, deny = lf_sandbox_fallback(pv->sb) == LF_DENY;

	for (size_t i = 0; i < lf_findings_count(pv->findings); i++) {
		const struct lf_finding *f = lf_findings_get(pv->findings, i);
		if (f->scan != scan)
			continue;
		incomplete = incomplete || f->incomplete;
		if (f->incomplete)
			continue;
		if (finding_listed(f))
			n++;
		else
			absent++;
	}
	if (!n && !absent && !incomplete)
		return;
	if (scan == LF_SCAN_PERSISTENCE)
		printf("\n%s (%zu): code planted there runs later outside the sandbox\n", heading,
		       n);
	else if (scan == LF_SCAN_CREDENTIALS)
		printf("\n%s (%zu): granted by the policy, never by discovery\n", heading, n);
	else
		printf("\n%s (%zu): %s\n", heading, n,
		       deny ? "run refuses to start" : "run warns and starts");
	for (size_t i = 0; i < lf_findings_count(pv->findings); i++) {
		const struct lf_finding *f = lf_findings_get(pv->findings, i);
		if (f->scan == scan && (f->incomplete || finding_listed(f)))
			printf(f->incomplete ? "  (%s)\n" : "  %s\n", f->text);
	}
	if (absent)
		printf("  (and %zu more that do not exist yet: `landfence run` reports each one "
		       "the "
		       "program makes)\n",
		       absent);
}

static const char *mask_words(enum lf_mask_kind k)
{
	return k == LF_MASK_READ_ONLY ? "read-only" : "hidden";
}

/* The mount namespace: whether masks are in force, and their cost. */
static void print_namespace(const struct plan_view *pv)
{
	const struct lf_namespace *ns = lf_sandbox_namespace(pv->sb);

	if (!ns->available) {
		printf("mount namespace: no (%s): a deny or ask rule inside a grant drops the "
		       "grant, protected paths are only watched\n",
		       ns->failed ? ns->failed : "unknown");
		return;
	}
	printf("mount namespace: yes (%s%s): %zu mount%s per launch (%zu mask%s, %zu pin%s, "
	       "%zu nodev,nosuid grant root%s)\n",
	       ns->user ? "in a user namespace" : "as root",
	       ns->remembered ? "; an earlier launch's probe, remembered" : "", ns->nmounts,
	       ns->nmounts == 1 ? "" : "s", ns->nmasks, ns->nmasks == 1 ? "" : "s", ns->npins,
	       ns->npins == 1 ? "" : "s", ns->nnodev, ns->nnodev == 1 ? "" : "s");
	if (ns->others)
		printf("  %s: seen as others see it (an id-mapped mount): each entry grants what "
		       "its mode grants others, root included\n",
		       ns->others);
}

/* Every fence with its mechanism, then the masks. */
static void print_fences(const struct plan_view *pv)
{
	const struct lf_sandbox *sb = pv->sb;
	size_t n = lf_sandbox_fence_count(sb), nm = lf_sandbox_mask_count(sb);
	char src[600];

	printf("\nfences (%zu):\n", n);
	for (size_t i = 0; i < n; i++) {
		const struct lf_sandbox_fence *f = lf_sandbox_fence(sb, i);

		source_text(src, sizeof(src), pv->p, &f->source);
		printf("  %-6s %-9s %s  (%s %s)%s%s\n",
		       f->access == LF_ACCESS_RO ? "read" : "write",
		       lf_mechanism_name(f->mechanism), f->path,
		       f->origin == LF_ORIGIN_BUILTIN ? "built in:" : lf_effect_name(f->effect),
		       src, f->mechanism_why ? ": " : "", f->mechanism_why ? f->mechanism_why : "");
	}
	if (!nm)
		return;
	printf("\nmasks (%zu): in the private mount namespace, before Landlock\n", nm);
	for (size_t i = 0; i < nm; i++) {
		const struct lf_sandbox_mask *m = lf_sandbox_mask(sb, i);

		printf("  %-10s %s  (%s)\n", mask_words(m->kind), m->path, m->why ? m->why : "");
	}
}

/* The protections a grant leaves writable that a mask keeps read-only;
 * the watched ones are the findings' persistence paths. */
static void print_protections(const struct plan_view *pv)
{
	const struct lf_sandbox *sb = pv->sb;
	size_t n = 0;

	for (size_t i = 0; i < lf_sandbox_protect_count(sb); i++)
		n += lf_sandbox_protect(sb, i)->mechanism == LF_MECH_MASK;
	if (!n)
		return;
	printf("\nprotected persistence paths (%zu): read-only in the mount namespace\n", n);
	for (size_t i = 0; i < lf_sandbox_protect_count(sb); i++) {
		const struct lf_sandbox_protect *pr = lf_sandbox_protect(sb, i);

		if (pr->mechanism == LF_MECH_MASK)
			printf("  %s  (%s: %s)\n", pr->path, pr->entry, pr->why);
	}
}

static void print_text(const struct plan_view *pv, bool tree)
{
	const struct lf_sandbox *sb = pv->sb;

	print_header(pv);
	if (sb)
		print_namespace(pv);
	print_rules(pv, tree);
	if (sb)
		print_fences(pv);
	print_dropped(pv);
	if (sb) {
		print_protections(pv);
		print_findings(pv, LF_SCAN_HARDLINKS, "hard links into grants");
		print_findings(pv, LF_SCAN_DEVICES, "device nodes below grants");
		print_findings(pv, LF_SCAN_PERSISTENCE, "writable persistence paths");
		print_findings(pv, LF_SCAN_CREDENTIALS, "readable credential files");
	}
	printf("\nopen on every kernel (Landlock up to ABI 7):\n");
	for (size_t i = 0; lf_open_limits[i].name; i++)
		printf("  %s\n", lf_open_limits[i].text);
	printf("refused by the seccomp filter instead: TIOCSTI and TIOCLINUX, SysV IPC, "
	       "set-user-ID and set-group-ID modes, the write bit for others (chmod), extended "
	       "attributes, other processes' resource limits\n");
	if (sb && lf_sandbox_notice_count(sb)) {
		printf("\nnotices:\n");
		for (size_t i = 0; i < lf_sandbox_notice_count(sb); i++)
			printf("  %s\n", lf_sandbox_notice(sb, i));
	}
}

static json_t *access_json(unsigned a)
{
	json_t *arr = json_array();
	if (a & LF_ACCESS_RO)
		json_array_append_new(arr, json_string("read"));
	if (a & LF_ACCESS_RW)
		json_array_append_new(arr, json_string("write"));
	return arr;
}

static json_t *rule_json(const struct plan_view *pv, const struct lf_sandbox_rule *fr)
{
	return json_pack("{s:s, s:o, s:o, s:I, s:b, s:s, s:s?, s:o}", "path", fr->path, "access",
			 access_json(fr->access), "landlock", rights_json(fr->landlock),
			 "landlock_mask", (json_int_t)fr->landlock, "ioctl_dev", fr->ioctl_dev,
			 "origin", lf_origin_name(fr->origin), "why", fr->why, "source",
			 source_json(pv->p, &fr->source));
}

/* The namespace, every fence with its mechanism, the masks and the
 * protections. */
static void json_masks(const struct plan_view *pv, json_t *root)
{
	const struct lf_sandbox *sb = pv->sb;
	const struct lf_namespace *ns = lf_sandbox_namespace(sb);
	json_t *fences = json_array(), *masks = json_array(), *prot = json_array();

	json_object_set_new(root, "namespace",
			    json_pack("{s:b, s:b, s:b, s:s?, s:I, s:I, s:I, s:I}", "available",
				      ns->available, "user", ns->user, "remembered", ns->remembered,
				      "failed", ns->failed, "masks", (json_int_t)ns->nmasks, "pins",
				      (json_int_t)ns->npins, "nodev", (json_int_t)ns->nnodev,
				      "mounts", (json_int_t)ns->nmounts));
	for (size_t i = 0; fences && i < lf_sandbox_fence_count(sb); i++) {
		const struct lf_sandbox_fence *f = lf_sandbox_fence(sb, i);
		json_array_append_new(
			fences,
			json_pack("{s:s, s:o, s:s, s:s, s:s, s:s?, s:o}", "path", f->path, "access",
				  access_json(f->access), "effect", lf_effect_name(f->effect),
				  "origin", lf_origin_name(f->origin), "mechanism",
				  lf_mechanism_name(f->mechanism), "why", f->mechanism_why,
				  "source", source_json(pv->p, &f->source)));
	}
	for (size_t i = 0; masks && i < lf_sandbox_mask_count(sb); i++) {
		const struct lf_sandbox_mask *m = lf_sandbox_mask(sb, i);
		json_array_append_new(
			masks, json_pack("{s:s, s:s, s:s, s:s?}", "path", m->path, "kind",
					 m->kind == LF_MASK_HIDE_DIR	? "hidden-directory"
					 : m->kind == LF_MASK_HIDE_FILE ? "hidden-file"
									: "read-only",
					 "origin", lf_origin_name(m->origin), "why", m->why));
	}
	for (size_t i = 0; prot && i < lf_sandbox_protect_count(sb); i++) {
		const struct lf_sandbox_protect *pr = lf_sandbox_protect(sb, i);
		json_array_append_new(prot,
				      json_pack("{s:s, s:s, s:s, s:s, s:s?, s:b}", "path", pr->path,
						"entry", pr->entry, "why", pr->why, "mechanism",
						lf_mechanism_name(pr->mechanism), "mechanism_why",
						pr->mechanism_why, "lifted", pr->lifted));
	}
	json_object_set_new(root, "fences", fences);
	json_object_set_new(root, "masks", masks);
	json_object_set_new(root, "protections", prot);
}

/* The value's part of the JSON view: status, rights, rules, the adapter's
 * drops, notices; or the plan's grants when the kernel is too old. */
static void json_sandbox(const struct plan_view *pv, json_t *root, json_t *rules, json_t *dropped,
			 json_t *notices)
{
	const struct lf_sandbox *sb = pv->sb;
	json_t *status;

	if (!sb) {
		status = json_pack("{s:s, s:s}", "kind", "kernel-too-old", "reason", pv->too_old);
		for (size_t i = 0; i < lf_plan_grant_count(pv->plan); i++) {
			const struct lf_grant *g = lf_plan_grant(pv->plan, i);
			json_array_append_new(
				rules, json_pack("{s:s, s:o, s:s}", "path", g->abs_root, "access",
						 access_json(g->access), "origin", "policy"));
		}
		json_object_set_new(root, "status", status);
		return;
	}
	const struct lf_status *s = lf_sandbox_status(sb);
	status = json_pack("{s:s, s:s}", "kind", status_str(s->kind), "reason", s->reason);
	json_object_set_new(root, "handled", rights_json(lf_sandbox_handled(sb)));
	json_object_set_new(root, "handled_mask", json_integer((json_int_t)lf_sandbox_handled(sb)));
	json_object_set_new(root, "scoped", scopes_json(lf_sandbox_scoped(sb)));
	json_object_set_new(root, "scoped_mask", json_integer((json_int_t)lf_sandbox_scoped(sb)));
	json_t *net = json_object(), *conn = json_array(), *bind = json_array();
	for (size_t i = 0; i < lf_sandbox_port_count(sb); i++) {
		const struct lf_sandbox_port *port = lf_sandbox_port(sb, i);
		if (port->connect)
			json_array_append_new(conn, json_integer(port->port));
		if (port->bind)
			json_array_append_new(bind, json_integer(port->port));
	}
	json_object_set_new(net, "restricted", json_boolean(lf_sandbox_network_restricted(sb)));
	json_object_set_new(net, "enforced", json_boolean(lf_sandbox_handled_net(sb) != 0));
	json_object_set_new(net, "connect", conn);
	json_object_set_new(net, "bind", bind);
	json_object_set_new(root, "network", net);
	for (size_t i = 0; i < lf_sandbox_rule_count(sb); i++)
		json_array_append_new(rules, rule_json(pv, lf_sandbox_rule(sb, i)));
	for (size_t i = 0; i < lf_sandbox_dropped_count(sb); i++) {
		const struct lf_sandbox_dropped *d = lf_sandbox_dropped(sb, i);
		json_array_append_new(
			dropped,
			json_pack("{s:s, s:s, s:o, s:s, s:s?, s:s?, s:o, s:s}", "stage", "adapter",
				  "path", d->path, "access", access_json(d->access), "origin",
				  lf_origin_name(d->origin), "why", d->why, "fence", d->fence,
				  "fence_source", source_json(pv->p, &d->fence_source), "reason",
				  d->fence ? "fenced" : "missing"));
	}
	for (size_t i = 0; i < lf_sandbox_notice_count(sb); i++)
		json_array_append_new(notices, json_string(lf_sandbox_notice(sb, i)));
	json_object_set_new(root, "status", status);
	json_masks(pv, root);
}

/* The findings of one scan as an array of lines; absent (may be NULL)
 * counts the persistence paths left out because they do not exist. */
static json_t *findings_json(const struct plan_view *pv, unsigned scan, bool *incomplete,
			     size_t *absent)
{
	json_t *a = json_array();

	for (size_t i = 0; a && i < lf_findings_count(pv->findings); i++) {
		const struct lf_finding *f = lf_findings_get(pv->findings, i);
		if (f->scan != scan)
			continue;
		if (f->incomplete && incomplete)
			*incomplete = true;
		else if (!f->incomplete && !finding_listed(f) && absent)
			(*absent)++;
		else if (!f->incomplete)
			json_array_append_new(a, json_string(f->text));
	}
	return a;
}

static json_t *json_view(const struct plan_view *pv)
{
	const struct lf_project *p = pv->p;
	json_t *root = json_object(), *files = json_array(), *rules = json_array(),
	       *dropped = json_array(), *notices = json_array(), *lim = json_array();
	bool links_incomplete = false;

	if (!root || !files || !rules || !dropped || !notices || !lim) {
		json_decref(root);
		json_decref(files);
		json_decref(rules);
		json_decref(dropped);
		json_decref(notices);
		json_decref(lim);
		return NULL;
	}
	json_t *layers = json_array();
	for (size_t i = 0; i < lf_project_layer_count(p); i++) {
		const struct lf_project_layer *l = lf_project_layer(p, i);
		json_array_append_new(files, json_string(l->file));
		json_array_append_new(layers, json_pack("{s:s, s:s}", "layer",
							lf_layer_name(l->layer), "file", l->file));
	}
	json_object_set_new(root, "project_root", json_string(lf_project_root(p)));
	json_object_set_new(root, "policy_files", files);
	json_object_set_new(root, "policy_layers", layers);
	json_object_set_new(root, "embedded_default", json_boolean(lf_project_embedded_default(p)));
	json_object_set_new(
		root, "fallback",
		json_string(lf_effect_name(lf_effective_fallback(lf_project_effective(p)))));
	json_object_set_new(root, "abi", json_integer(pv->probe.abi));
	json_object_set_new(root, "kernel_abi", json_integer(pv->probe.kernel));
	json_object_set_new(root, "abi_cap",
			    pv->probe.cap >= 0 ? json_integer(pv->probe.cap) : json_null());
	json_sandbox(pv, root, rules, dropped, notices);
	for (size_t i = 0; i < lf_plan_dropped_count(pv->plan); i++) {
		const struct lf_dropped *d = lf_plan_dropped(pv->plan, i);
		if (pv->sb && lf_sandbox_readmitted(pv->sb, d))
			continue;
		json_array_append_new(
			dropped,
			json_pack("{s:s, s:s, s:o, s:o, s:s, s:s, s:o, s:s}", "stage", "plan",
				  "path", d->abs_root, "access", access_json(d->access),
				  "allow_source", source_json(p, &d->allow), "fence", d->fence_root,
				  "fence_effect", lf_effect_name(d->fence_effect), "fence_source",
				  source_json(p, &d->fence), "reason", "fenced"));
	}
	size_t absent = 0;
	json_object_set_new(root, "hardlinks",
			    findings_json(pv, LF_SCAN_HARDLINKS, &links_incomplete, NULL));
	json_object_set_new(root, "hardlinks_incomplete", json_boolean(links_incomplete));
	json_object_set_new(root, "persistence",
			    findings_json(pv, LF_SCAN_PERSISTENCE, NULL, &absent));
	json_object_set_new(root, "persistence_absent", json_integer((json_int_t)absent));
	json_object_set_new(root, "device_nodes", findings_json(pv, LF_SCAN_DEVICES, NULL, NULL));
	json_object_set_new(root, "credentials",
			    findings_json(pv, LF_SCAN_CREDENTIALS, NULL, NULL));
	for (size_t i = 0; lf_open_limits[i].name; i++)
		json_array_append_new(lim, json_string(lf_open_limits[i].text));
	json_object_set_new(root, "limits", lim);
	json_object_set_new(root, "rules", rules);
	json_object_set_new(root, "dropped", dropped);
	json_object_set_new(root, "notices", notices);
	json_object_set_new(root, "run_dir",
			    json_string("a private TMPDIR, created for each run (read+write)"));
	return root;
}

static int print_json(const struct plan_view *pv)
{
	json_t *root = json_view(pv);
	char *text = root ? json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER) : NULL;

	json_decref(root);
	if (!text)
		return -ENOMEM;
	puts(text);
	free(text);
	return 0;
}

static const char usage_text[] =
	"usage: landfence plan [-p FILE]... [-C DIR] [--profile NAME]... [--json | --tree]\n"
	"Shows what `landfence run` would enforce here, without running anything.\n"
	"\noptions:\n" LF_HELP_POLICY LF_HELP_DIRECTORY LF_HELP_PROFILE LF_HELP_ALLOW_UNSCOPED
	"      --json            print one JSON object\n"
	"      --tree            print the rules as a directory tree\n" LF_HELP_HELP
	"\nexit status: 0, 2 usage or policy error, 125 landfence's own error.\n"
	"See landfence-plan(1).\n";

/* Builds the sandbox value and runs the checks into pv. Returns 0 or the
 * exit status after printing why. */
static int plan_build(const struct lf_cli_opts *o, struct plan_view *pv, struct lf_sandbox **sb)
{
	const struct lf_project *p = pv->p;
	struct lf_diag diag = { 0 };
	int r = lf_landlock_probe(-1, &pv->probe);

	if (r < 0) {
		fprintf(stderr, "landfence: cannot probe Landlock: %s\n", strerror(-r));
		return r == -EINVAL ? LF_EXIT_USAGE : LF_EXIT_OWN;
	}
	pv->plan = lf_project_plan(p);
	/* --profile names plus every layer's "profiles", as run does. */
	struct lf_sandbox_opts so = {
		.size = sizeof(so),
		.project_root = lf_project_root(p),
		.profiles = o->profiles,
		.nprofiles = o->nprofiles,
		.flags = o->allow_unscoped ? LF_SANDBOX_ALLOW_UNSCOPED : 0,
	};
	r = lf_sandbox_new(lf_project_effective(p), pv->plan, &so, sb, &diag);
	if (r == -EOPNOTSUPP) {
		static char too_old[sizeof(diag.message)];
		memcpy(too_old, diag.message, sizeof(too_old));
		pv->too_old = too_old;
		return 0;
	}
	if (r < 0) {
		lf_cli_diag(&diag);
		return r == -EINVAL ? LF_EXIT_USAGE : LF_EXIT_OWN;
	}
	pv->sb = *sb;
	r = lf_findings_scan(*sb, p, LF_SCAN_PRELAUNCH, &pv->findings);
	if (r < 0) {
		fprintf(stderr, "landfence: checking the rules: %s\n", strerror(-r));
		return LF_EXIT_OWN;
	}
	return 0;
}

int lf_cmd_plan(int argc, char **argv)
{
	struct lf_cli_opts o = { 0 };
	struct lf_project *p = NULL;
	struct lf_sandbox *sb = NULL;
	struct plan_view pv = { 0 };
	int r, code;

	r = lf_cli_opts_parse(argc, argv, usage_text, &o);
	if (r >= 0)
		return r;
	if (optind < argc) {
		fprintf(stderr, "landfence plan: unexpected argument '%s'\n", argv[optind]);
		return LF_EXIT_USAGE;
	}
	if (o.json && o.tree) {
		/* The tree is a text view; JSON already carries every rule. */
		fputs("landfence plan: --json and --tree cannot be used together\n", stderr);
		fputs(usage_text, stderr);
		return LF_EXIT_USAGE;
	}
	if ((code = lf_cli_open(&o, 0, &p)) != 0)
		return code;
	pv.p = p;
	code = plan_build(&o, &pv, &sb);
	if (code == 0 && o.json && print_json(&pv) < 0) {
		fputs("landfence: out of memory\n", stderr);
		code = LF_EXIT_OWN;
	} else if (code == 0 && !o.json) {
		print_text(&pv, o.tree);
	}
	if (code == 0 && fflush(stdout) != 0)
		code = LF_EXIT_OWN;
	lf_findings_free(pv.findings);
	lf_sandbox_free(sb);
	lf_project_free(p);
	return code;
}
