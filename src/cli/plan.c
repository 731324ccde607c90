/* SPDX-License-Identifier: MIT */
/*
 * landfence plan [-p POLICY]... [-C DIR] [--profile NAME]... [--json] [--tree]
 *
 * What `run` would enforce here: every final rule with its access and
 * origin, every dropped allow with the fence that dropped it (the core's
 * and the adapter's), the handled rights, the ABI and the status.
 */
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/checks.h"
#include "cli/cli.h"
#include "core/model.h"
#include "landlock/sandbox.h"

static const char *const scope_names[] = { "abstract_unix_socket", "signal" };

/* The text listing folds a run of rules that only differ by their path
 * below one top-level directory (/etc granted entry by entry) into one
 * line; --json and --tree keep every rule. */
#define RULE_RUN_MIN 8

static bool same_run(const struct lf_final_rule *a, const struct lf_final_rule *b)
{
	size_t top = strcspn(a->path + 1, "/") + 1;

	return a->origin == b->origin && a->access == b->access && a->ioctl_dev == b->ioctl_dev &&
	       a->why && b->why && strcmp(a->why, b->why) == 0 && top > 1 &&
	       strncmp(a->path, b->path, top) == 0 && b->path[top] == '/' && a->path[top] == '/';
}

/* How many rules from i on belong to i's run. */
static size_t rule_run(const struct lf_sandbox *sb, size_t i)
{
	const struct lf_final_rule *first = lf_sandbox_rule(sb, i);
	size_t n = lf_sandbox_rule_count(sb), k = i + 1;

	while (k < n && same_run(first, lf_sandbox_rule(sb, k)))
		k++;
	return k - i;
}

static const char *access_str(unsigned a)
{
	switch (a & (LF_ACCESS_RO | LF_ACCESS_RW)) {
	case LF_ACCESS_RO:
		return "read";
	case LF_ACCESS_RW:
		return "write";
	case LF_ACCESS_RO | LF_ACCESS_RW:
		return "read+write";
	}
	return "none";
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

static json_t *source_json(const struct lf_source *s)
{
	return json_pack("{s:s?, s:i, s:i}", "file", s->file, "line", (int)s->line, "column",
			 (int)s->column);
}

static void source_text(char *buf, size_t size, const struct lf_source *s)
{
	if (s->file && s->line)
		snprintf(buf, size, "%s:%u:%u", s->file, s->line, s->column);
	else if (s->file)
		snprintf(buf, size, "%s", s->file);
	else
		snprintf(buf, size, "?");
}

/* What no Landlock ABI fences, and what the launcher does about it. */
static const char *const limits[] = {
	"not fenced: connect(2) to named UNIX sockets outside the grants (the environment "
	"scrub hides the usual addresses)",
	"not fenced: metadata changes (chmod, chown, utimes, xattrs) on any path the program "
	"can name, as its own user",
	"refused by the seccomp filter instead: TIOCSTI and TIOCLINUX, SysV IPC, "
	"set-user-ID and set-group-ID modes",
};

struct plan_view {
	struct lf_cli_findings links;	/* hard links from fences into grants */
	struct lf_cli_findings persist; /* persistence paths left writable */
	struct lf_cli_findings devices; /* device nodes below grants */
	const struct lf_cli_state *st;
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
		(const unsigned char *)(*(const struct lf_final_rule *const *)a)->path;
	const unsigned char *y =
		(const unsigned char *)(*(const struct lf_final_rule *const *)b)->path;

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
	const struct lf_final_rule **v = calloc(n ? n : 1, sizeof(*v));
	const char *prev[TREE_DEPTH], *cur[TREE_DEPTH];
	size_t prevlen[TREE_DEPTH], curlen[TREE_DEPTH], np = 0;

	if (!v)
		return;
	for (size_t i = 0; i < n; i++)
		v[i] = lf_sandbox_rule(sb, i);
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
				printf("  [%s%s, %s]", access_str(v[i]->access),
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

static void print_text(const struct plan_view *pv, bool tree)
{
	const struct lf_cli_state *st = pv->st;
	const struct lf_sandbox *sb = pv->sb;
	char src[600];

	printf("project: %s\n", st->project_root);
	printf("policy:");
	for (size_t i = 0; i < st->nlayers; i++)
		printf(" %s", st->layer_files[i]);
	printf("%s\n", st->embedded_default ? " (the embedded default)" : "");
	printf("fallback: %s\n", lf_effect_name(lf_effective_fallback(st->eff)));
	if (pv->probe.cap >= 0)
		printf("landlock ABI: %d (kernel %d, capped at %d)\n", pv->probe.abi,
		       pv->probe.kernel, pv->probe.cap);
	else
		printf("landlock ABI: %d (kernel %d)\n", pv->probe.abi, pv->probe.kernel);
	if (!sb) {
		printf("status: kernel-too-old: %s\n", pv->too_old);
		printf("        `landfence run` refuses to start anything with this policy "
		       "here.\n");
	} else {
		const struct lf_status *s = lf_sandbox_status(sb);
		printf("status: %s%s%s\n", status_str(s->kind), s->reason[0] ? ": " : "",
		       s->reason);
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
	}

	if (sb) {
		printf("\nrules (%zu):\n", lf_sandbox_rule_count(sb));
		if (tree) {
			print_tree(sb);
		} else {
			size_t n = lf_sandbox_rule_count(sb);
			for (size_t i = 0; i < n;) {
				const struct lf_final_rule *fr = lf_sandbox_rule(sb, i);
				size_t run = rule_run(sb, i);
				if (run >= RULE_RUN_MIN) {
					size_t top = strcspn(fr->path + 1, "/") + 1;
					printf("  %-10s %-12s %.*s/... (%zu rules)  (%s; --json "
					       "and "
					       "--tree list each)\n",
					       access_str(fr->access), lf_origin_name(fr->origin),
					       (int)top, fr->path, run, fr->why ? fr->why : "");
					i += run;
					continue;
				}
				printf("  %-10s %-12s %s%s  (%s)\n", access_str(fr->access),
				       lf_origin_name(fr->origin), fr->path,
				       fr->ioctl_dev ? "  +terminal ioctls" : "",
				       fr->why ? fr->why : "");
				i++;
			}
		}
		if (!tree)
			printf("  %-10s %-12s %s\n", "read+write", "run-dir",
			       "<a private TMPDIR, created for each run and removed after it>");
	} else {
		printf("\nplan grants (%zu):\n", lf_plan_grant_count(pv->plan));
		for (size_t i = 0; i < lf_plan_grant_count(pv->plan); i++) {
			const struct lf_grant *g = lf_plan_grant(pv->plan, i);
			printf("  %-10s %s\n", access_str(g->access), g->abs_root);
		}
	}

	size_t nd = lf_plan_dropped_count(pv->plan);
	size_t nad = sb ? lf_sandbox_dropped_count(sb) : 0;
	printf("\ndropped (%zu):\n", nd + nad);
	for (size_t i = 0; i < nd; i++) {
		const struct lf_dropped *d = lf_plan_dropped(pv->plan, i);
		char fsrc[600];
		source_text(src, sizeof(src), &d->allow);
		source_text(fsrc, sizeof(fsrc), &d->fence);
		printf("  %-10s %s  (allow at %s) fenced by %s %s at %s\n", access_str(d->access),
		       d->abs_root, src, lf_effect_name(d->fence_effect), d->fence_root, fsrc);
	}
	for (size_t i = 0; i < nad; i++) {
		const struct lf_final_dropped *d = lf_sandbox_dropped(sb, i);
		if (d->fence) {
			source_text(src, sizeof(src), &d->fence_source);
			printf("  %-10s %s  (%s) fenced by %s at %s\n", access_str(d->access),
			       d->path, d->why ? d->why : lf_origin_name(d->origin), d->fence, src);
		} else {
			printf("  %-10s %s  (%s) skipped\n", access_str(d->access), d->path,
			       d->why ? d->why : lf_origin_name(d->origin));
		}
	}
	if (pv->links.n || pv->links.incomplete) {
		printf("\nhard links into grants (%zu): %s\n", pv->links.n,
		       lf_effective_fallback(st->eff) == LF_DENY ? "run refuses to start"
								 : "run warns and starts");
		for (size_t i = 0; i < pv->links.n; i++)
			printf("  %s\n", pv->links.lines[i]);
		if (pv->links.incomplete)
			printf("  (incomplete scan: %s)\n", pv->links.reason);
	}
	if (pv->devices.n || pv->devices.incomplete) {
		printf("\ndevice nodes below grants (%zu): %s\n", pv->devices.n,
		       lf_effective_fallback(st->eff) == LF_DENY ? "run refuses to start"
								 : "run warns and starts");
		for (size_t i = 0; i < pv->devices.n; i++)
			printf("  %s\n", pv->devices.lines[i]);
		if (pv->devices.incomplete)
			printf("  (incomplete scan: %s)\n", pv->devices.reason);
	}
	if (pv->persist.n) {
		printf("\nwritable persistence paths (%zu): code planted there runs later outside "
		       "the sandbox\n",
		       pv->persist.n);
		for (size_t i = 0; i < pv->persist.n; i++)
			printf("  %s\n", pv->persist.lines[i]);
	}
	printf("\nlimits (any Landlock ABI):\n");
	for (size_t i = 0; i < sizeof(limits) / sizeof(limits[0]); i++)
		printf("  %s\n", limits[i]);
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

static int print_json(const struct plan_view *pv)
{
	const struct lf_cli_state *st = pv->st;
	const struct lf_sandbox *sb = pv->sb;
	json_t *root = json_object(), *files = json_array(), *rules = json_array(),
	       *dropped = json_array(), *notices = json_array(), *status;
	char *text;

	if (!root || !files || !rules || !dropped || !notices)
		goto oom;
	for (size_t i = 0; i < st->nlayers; i++)
		json_array_append_new(files, json_string(st->layer_files[i]));
	json_object_set_new(root, "project_root", json_string(st->project_root));
	json_object_set_new(root, "policy_files", files);
	json_object_set_new(root, "embedded_default", json_boolean(st->embedded_default));
	json_object_set_new(root, "fallback",
			    json_string(lf_effect_name(lf_effective_fallback(st->eff))));
	json_object_set_new(root, "abi", json_integer(pv->probe.abi));
	json_object_set_new(root, "kernel_abi", json_integer(pv->probe.kernel));
	json_object_set_new(root, "abi_cap",
			    pv->probe.cap >= 0 ? json_integer(pv->probe.cap) : json_null());
	if (sb) {
		const struct lf_status *s = lf_sandbox_status(sb);
		status = json_pack("{s:s, s:s}", "kind", status_str(s->kind), "reason", s->reason);
		json_object_set_new(root, "handled", rights_json(lf_sandbox_handled(sb)));
		json_object_set_new(root, "handled_mask",
				    json_integer((json_int_t)lf_sandbox_handled(sb)));
		json_object_set_new(root, "scoped", scopes_json(lf_sandbox_scoped(sb)));
		json_object_set_new(root, "scoped_mask",
				    json_integer((json_int_t)lf_sandbox_scoped(sb)));
		for (size_t i = 0; i < lf_sandbox_rule_count(sb); i++) {
			const struct lf_final_rule *fr = lf_sandbox_rule(sb, i);
			json_array_append_new(
				rules,
				json_pack("{s:s, s:o, s:o, s:I, s:b, s:s, s:s?}", "path", fr->path,
					  "access", access_json(fr->access), "landlock",
					  rights_json(fr->landlock), "landlock_mask",
					  (json_int_t)fr->landlock, "ioctl_dev", fr->ioctl_dev,
					  "origin", lf_origin_name(fr->origin), "why", fr->why));
		}
		for (size_t i = 0; i < lf_sandbox_dropped_count(sb); i++) {
			const struct lf_final_dropped *d = lf_sandbox_dropped(sb, i);
			json_array_append_new(
				dropped,
				json_pack("{s:s, s:s, s:o, s:s, s:s?, s:s?, s:o, s:s}", "stage",
					  "adapter", "path", d->path, "access",
					  access_json(d->access), "origin",
					  lf_origin_name(d->origin), "why", d->why, "fence",
					  d->fence, "fence_source", source_json(&d->fence_source),
					  "reason", d->fence ? "fenced" : "missing"));
		}
		for (size_t i = 0; i < lf_sandbox_notice_count(sb); i++)
			json_array_append_new(notices, json_string(lf_sandbox_notice(sb, i)));
	} else {
		status = json_pack("{s:s, s:s}", "kind", "kernel-too-old", "reason", pv->too_old);
		for (size_t i = 0; i < lf_plan_grant_count(pv->plan); i++) {
			const struct lf_grant *g = lf_plan_grant(pv->plan, i);
			json_array_append_new(
				rules, json_pack("{s:s, s:o, s:s}", "path", g->abs_root, "access",
						 access_json(g->access), "origin", "policy"));
		}
	}
	json_object_set_new(root, "status", status);
	for (size_t i = 0; i < lf_plan_dropped_count(pv->plan); i++) {
		const struct lf_dropped *d = lf_plan_dropped(pv->plan, i);
		json_array_append_new(
			dropped,
			json_pack("{s:s, s:s, s:o, s:o, s:s, s:s, s:o, s:s}", "stage", "plan",
				  "path", d->abs_root, "access", access_json(d->access),
				  "allow_source", source_json(&d->allow), "fence", d->fence_root,
				  "fence_effect", lf_effect_name(d->fence_effect), "fence_source",
				  source_json(&d->fence), "reason", "fenced"));
	}
	json_t *links = json_array(), *persist = json_array();
	for (size_t i = 0; links && i < pv->links.n; i++)
		json_array_append_new(links, json_string(pv->links.lines[i]));
	for (size_t i = 0; persist && i < pv->persist.n; i++)
		json_array_append_new(persist, json_string(pv->persist.lines[i]));
	json_object_set_new(root, "hardlinks", links);
	json_object_set_new(root, "hardlinks_incomplete", json_boolean(pv->links.incomplete));
	json_object_set_new(root, "persistence", persist);
	json_t *devs = json_array();
	for (size_t i = 0; devs && i < pv->devices.n; i++)
		json_array_append_new(devs, json_string(pv->devices.lines[i]));
	json_object_set_new(root, "device_nodes", devs);
	json_t *lim = json_array();
	for (size_t i = 0; lim && i < sizeof(limits) / sizeof(limits[0]); i++)
		json_array_append_new(lim, json_string(limits[i]));
	json_object_set_new(root, "limits", lim);
	json_object_set_new(root, "rules", rules);
	json_object_set_new(root, "dropped", dropped);
	json_object_set_new(root, "notices", notices);
	json_object_set_new(root, "run_dir",
			    json_string("a private TMPDIR, created for each run (read+write)"));
	text = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	json_decref(root);
	if (!text)
		return -ENOMEM;
	puts(text);
	free(text);
	return 0;
oom:
	json_decref(root);
	json_decref(files);
	json_decref(rules);
	json_decref(dropped);
	json_decref(notices);
	return -ENOMEM;
}

static const char usage_text[] =
	"usage: landfence plan [-p FILE]... [-C DIR] [--profile NAME]... [--json | --tree]\n"
	"Shows what `landfence run` would enforce here, without running anything.\n"
	"\noptions:\n" LF_HELP_POLICY LF_HELP_DIRECTORY LF_HELP_PROFILE
	"      --json            print one JSON object\n"
	"      --tree            print the rules as a directory tree\n" LF_HELP_HELP
	"\nexit status: 0, 2 usage or policy error, 125 landfence's own error.\n"
	"See landfence-plan(1).\n";

int lf_cmd_plan(int argc, char **argv)
{
	struct lf_cli_opts o = { 0 };
	struct lf_cli_state st;
	struct lf_plan *plan = NULL;
	struct lf_sandbox *sb = NULL;
	struct lf_diag diag = { 0 };
	struct plan_view pv = { 0 };
	const char **profiles = NULL;
	size_t nprofiles = 0;
	int r, code = LF_EXIT_OK;

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
	r = lf_cli_load(&o, &st);
	if (r)
		return r;

	pv.st = &st;
	r = lf_landlock_probe(-1, &pv.probe);
	if (r < 0) {
		fprintf(stderr, "landfence: cannot probe Landlock: %s\n", strerror(-r));
		code = r == -EINVAL ? LF_EXIT_USAGE : LF_EXIT_OWN;
		goto out;
	}
	code = lf_cli_plan_compile(&st, &plan);
	if (code)
		goto out;
	pv.plan = plan;

	/* --profile names plus every layer's "profiles", as run does. */
	nprofiles = o.nprofiles;
	for (size_t i = 0; i < st.eff->nlayers; i++)
		nprofiles += st.eff->layers[i]->profiles.n;
	profiles = calloc(nprofiles + 1, sizeof(*profiles));
	if (!profiles) {
		code = LF_EXIT_OWN;
		goto out;
	}
	nprofiles = 0;
	for (size_t i = 0; i < o.nprofiles; i++)
		profiles[nprofiles++] = o.profiles[i];
	for (size_t i = 0; i < st.eff->nlayers; i++)
		for (size_t j = 0; j < st.eff->layers[i]->profiles.n; j++)
			profiles[nprofiles++] = st.eff->layers[i]->profiles.v[j];

	struct lf_sandbox_opts so = {
		.project_root = st.project_root,
		.run_dir = NULL,
		.home = NULL,
		.profiles = profiles,
		.nprofiles = nprofiles,
		.command = NULL,
		.abi_max = -1,
	};
	r = lf_sandbox_build(st.eff, plan, &so, &sb, &diag);
	if (r == -EOPNOTSUPP) {
		pv.too_old = diag.message;
	} else if (r < 0) {
		char buf[1200];
		if (diag.file[0])
			lf_diag_format(&diag, buf, sizeof(buf));
		else
			snprintf(buf, sizeof(buf), "%s",
				 diag.message[0] ? diag.message : strerror(-r));
		fprintf(stderr, "landfence: %s\n", buf);
		code = r == -EINVAL ? LF_EXIT_USAGE : LF_EXIT_OWN;
		goto out;
	}
	pv.sb = sb;
	if (sb && lf_sandbox_status(sb)->kind != LF_STATUS_UNSUPPORTED) {
		r = lf_cli_hardlinks(plan, sb, &pv.links);
		if (r == 0)
			r = lf_cli_persistence(st.project_root, sb, st.layer_files, st.nlayers,
					       &pv.persist);
		if (r == 0)
			r = lf_cli_devnodes(sb, &pv.devices);
		if (r < 0) {
			fprintf(stderr, "landfence: checking the rules: %s\n", strerror(-r));
			code = LF_EXIT_OWN;
			goto out;
		}
	}

	if (o.json) {
		if (print_json(&pv) < 0) {
			fputs("landfence: out of memory\n", stderr);
			code = LF_EXIT_OWN;
		}
	} else {
		print_text(&pv, o.tree);
	}
	if (fflush(stdout) != 0)
		code = LF_EXIT_OWN;
out:
	lf_cli_findings_fini(&pv.links);
	lf_cli_findings_fini(&pv.persist);
	lf_cli_findings_fini(&pv.devices);
	free(profiles);
	lf_sandbox_free(sb);
	lf_plan_free(plan);
	lf_cli_state_fini(&st);
	return code;
}
