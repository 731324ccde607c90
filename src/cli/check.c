/* SPDX-License-Identifier: MIT */
/*
 * `landfence check read|write|delete PATH…` and `landfence check bash --
 * LINE` (SPEC §4): the advisory answer of the library (lf_advisor_*,
 * src/gate/advisor.c), printed. doc/hook.md explains the answer;
 * doc/cli.md the exit codes.
 */
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "core/model.h"

static const char usage_text[] =
	"usage: landfence check [-p FILE]... [-C DIR] [--profile NAME]... [--json] "
	"read|write|delete PATH...\n"
	"       landfence check [-p FILE]... [-C DIR] [--profile NAME]... [--json] bash -- LINE\n"
	"Prints the advisory verdict (allow, ask or deny) and the deciding rule.\n"
	"\noptions:\n" LF_HELP_POLICY LF_HELP_DIRECTORY LF_HELP_PROFILE
	"      --json            print one JSON object\n" LF_HELP_HELP
	"\nexit status: 0 allow, 1 deny, 3 ask, 2 usage or policy error.\n"
	"See landfence-check(1).\n";

static int exit_of(enum lf_effect e)
{
	return e == LF_ALLOW ? LF_EXIT_OK : e == LF_DENY ? LF_EXIT_DENY : LF_EXIT_ASK;
}

static json_t *verdict_json(const struct lf_verdict *v)
{
	json_t *o = json_object();
	if (!o)
		return NULL;
	json_object_set_new(o, "verdict", json_string(lf_effect_name(v->effect)));
	json_object_set_new(o, "fallback", json_boolean(v->from_fallback));
	if (!v->from_fallback && v->source.line) {
		json_t *rule = json_object();
		json_object_set_new(rule, "layer", json_string(lf_layer_name(v->layer)));
		json_object_set_new(rule, "file",
				    v->source.file ? json_string(v->source.file) : json_null());
		json_object_set_new(rule, "line", json_integer(v->source.line));
		json_object_set_new(rule, "column", json_integer(v->source.column));
		json_object_set_new(o, "rule", rule);
	} else {
		json_object_set_new(o, "rule", json_null());
	}
	if (v->part[0])
		json_object_set_new(o, "part", json_string(v->part));
	if (v->reason[0])
		json_object_set_new(o, "reason", json_string(v->reason));
	return o;
}

static json_t *advice_json(const char *cap, const struct lf_advice *ad)
{
	char rule[1200];
	json_t *o = json_object();

	if (!o)
		return NULL;
	lf_advice_rule(&ad->policy, rule, sizeof(rule));
	json_object_set_new(o, "capability", json_string(cap));
	if (ad->path[0])
		json_object_set_new(o, "path", json_string(ad->path));
	json_object_set_new(o, "verdict", json_string(lf_effect_name(ad->effect)));
	json_object_set_new(o, "rule", json_string(ad->downgraded ? ad->kernel : rule));
	json_object_set_new(o, "policy", verdict_json(&ad->policy));
	if (ad->path[0]) {
		json_t *k = json_object();
		json_object_set_new(k, "checked", json_boolean(ad->kernel_checked));
		json_object_set_new(k, "enforced", json_boolean(ad->kernel_enforced));
		json_object_set_new(k, "grants", json_boolean(ad->kernel_grants));
		json_object_set_new(k, "detail", json_string(ad->kernel));
		json_object_set_new(o, "kernel", k);
	}
	return o;
}

static void advice_print(const char *cap, const char *what, const struct lf_advice *ad)
{
	char rule[1200];

	lf_advice_rule(&ad->policy, rule, sizeof(rule));
	printf("  %s%s%s: %s by %s\n", cap, what[0] ? " " : "", what,
	       lf_effect_name(ad->policy.effect), rule);
	if (ad->policy.part[0])
		printf("    part: %s\n", ad->policy.part);
	if (ad->policy.reason[0] && strcmp(ad->policy.reason, rule) != 0)
		printf("    reason: %s\n", ad->policy.reason);
	if (ad->path[0])
		printf("    kernel: %s\n", ad->kernel);
	if (ad->downgraded)
		printf("    answer: %s, because the kernel would refuse what the policy %s\n",
		       lf_effect_name(ad->effect),
		       ad->policy.effect == LF_ALLOW ? "allows" : "would ask about");
}

static int parse_cap(const char *s, enum lf_capability *cap)
{
	static const struct {
		const char *name;
		enum lf_capability cap;
	} caps[] = {
		{ "read", LF_CAP_READ },
		{ "write", LF_CAP_WRITE },
		{ "delete", LF_CAP_DELETE },
		{ "bash", LF_CAP_BASH },
	};
	for (size_t i = 0; i < sizeof(caps) / sizeof(caps[0]); i++) {
		if (!strcmp(s, caps[i].name)) {
			*cap = caps[i].cap;
			return 0;
		}
	}
	return -EINVAL;
}

/* A request: what comes after the shared options. */
struct request {
	enum lf_capability cap;
	int first; /* argv index of the first path, or of the line */
	char *line;
};

/* Parses argv after the shared options. Returns -1 on success, else the
 * exit status after printing why. */
static int request_parse(int argc, char **argv, struct request *q)
{
	bool dashdash = false;

	/* getopt moved "--" before the operands; was it there? */
	for (int i = 1; i < optind; i++)
		if (!strcmp(argv[i], "--"))
			dashdash = true;
	if (optind >= argc || parse_cap(argv[optind], &q->cap) < 0) {
		if (optind < argc)
			fprintf(stderr, "landfence check: unknown request '%s'\n", argv[optind]);
		fputs(usage_text, stderr);
		return LF_EXIT_USAGE;
	}
	q->first = optind + 1;
	if (q->first < argc && !strcmp(argv[q->first], "--")) {
		dashdash = true;
		q->first++;
	}
	if (q->first >= argc) {
		fprintf(stderr, "landfence check %s: %s\n", argv[optind],
			q->cap == LF_CAP_BASH ? "a command line is required after --"
					      : "at least one PATH is required");
		fputs(usage_text, stderr);
		return LF_EXIT_USAGE;
	}
	if (q->cap == LF_CAP_BASH && !dashdash) {
		fputs("landfence check bash: write the command line after --, "
		      "e.g. landfence check bash -- 'git push'\n",
		      stderr);
		return LF_EXIT_USAGE;
	}
	return -1;
}

/* Several words after -- are one line, joined by spaces. */
static char *line_join(int argc, char **argv, int first)
{
	size_t len = 1;
	char *line;

	for (int i = first; i < argc; i++)
		len += strlen(argv[i]) + 1;
	line = malloc(len);
	if (!line)
		return NULL;
	line[0] = '\0';
	for (int i = first; i < argc; i++) {
		if (i > first)
			strcat(line, " ");
		strcat(line, argv[i]);
	}
	return line;
}

/* Answers every request into ads[0..n). Returns 0 or the exit status. */
static int answer_all(struct lf_advisor *adv, int argc, char **argv, struct request *q,
		      struct lf_advice *ads, size_t n)
{
	const char *why = NULL;
	int r = 0;

	if (q->cap == LF_CAP_BASH) {
		if (!(q->line = line_join(argc, argv, q->first)))
			return LF_EXIT_OWN;
		r = lf_advisor_bash(adv, q->line, NULL, &ads[0]);
	}
	for (size_t i = 0; q->cap != LF_CAP_BASH && i < n && r == 0; i++)
		r = lf_advisor_file(adv, q->cap, argv[q->first + (int)i], NULL, &ads[i]);
	if (r < 0) {
		fprintf(stderr, "landfence check: %s\n", strerror(-r));
		return r == -EINVAL ? LF_EXIT_USAGE : LF_EXIT_OWN;
	}
	if (lf_advisor_error(adv, &why) == -EINVAL) {
		/* e.g. an unknown --profile: a usage error, as for plan and run */
		fprintf(stderr, "landfence check: %s\n", why);
		return LF_EXIT_USAGE;
	}
	return 0;
}

static int print_json(const struct lf_project *p, const struct request *q,
		      const struct lf_advice *ads, size_t n, size_t worst, int code)
{
	json_t *root = json_object(), *reqs = json_array();
	const char *capname = lf_capability_name(q->cap);
	char rule[1200], *text;

	if (!root || !reqs) {
		json_decref(root);
		json_decref(reqs);
		return LF_EXIT_OWN;
	}
	lf_advice_rule(&ads[worst].policy, rule, sizeof(rule));
	json_object_set_new(root, "verdict", json_string(lf_effect_name(ads[worst].effect)));
	if (ads[worst].downgraded)
		lf_text(rule, sizeof(rule), "kernel %s", ads[worst].kernel);
	json_object_set_new(root, "rule", json_string(rule));
	json_object_set_new(root, "exit", json_integer(code));
	json_object_set_new(root, "project_root", json_string(lf_project_root(p)));
	for (size_t i = 0; i < n; i++) {
		json_t *a = advice_json(capname, &ads[i]);
		if (q->cap == LF_CAP_BASH && a)
			json_object_set_new(a, "line", json_string(q->line));
		json_array_append_new(reqs, a);
	}
	json_object_set_new(root, "requests", reqs);
	text = json_dumps(root, JSON_INDENT(2));
	json_decref(root);
	if (!text)
		return LF_EXIT_OWN;
	puts(text);
	free(text);
	return code;
}

static int print_text(const struct request *q, const struct lf_advice *ads, size_t n, size_t worst,
		      int code)
{
	char rule[1200];

	lf_advice_rule(&ads[worst].policy, rule, sizeof(rule));
	if (ads[worst].downgraded)
		lf_text(rule, sizeof(rule), "kernel %s", ads[worst].kernel);
	printf("%s %s\n", lf_effect_name(ads[worst].effect), rule);
	for (size_t i = 0; i < n; i++)
		advice_print(lf_capability_name(q->cap), q->cap == LF_CAP_BASH ? "" : ads[i].path,
			     &ads[i]);
	return code;
}

int lf_cmd_check(int argc, char **argv)
{
	struct lf_cli_opts o = { 0 };
	struct request q = { 0 };
	struct lf_project *p = NULL;
	struct lf_advisor *adv = NULL;
	struct lf_advice *ads = NULL;
	int r, code;

	r = lf_cli_opts_parse(argc, argv, usage_text, &o);
	if (r >= 0)
		return r;
	if ((r = request_parse(argc, argv, &q)) >= 0)
		return r;
	if ((code = lf_cli_open(&o, 0, &p)) != 0)
		return code;
	size_t n = q.cap == LF_CAP_BASH ? 1 : (size_t)(argc - q.first);
	ads = calloc(n, sizeof(*ads));
	if (!ads || lf_advisor_new(p, o.profiles, o.nprofiles, &adv) < 0)
		code = LF_EXIT_OWN;
	else
		code = answer_all(adv, argc, argv, &q, ads, n);
	if (code == 0) {
		/* several requests: the strictest decides; the first on a tie */
		size_t worst = 0;
		for (size_t i = 1; i < n; i++)
			if (ads[i].effect > ads[worst].effect)
				worst = i;
		code = exit_of(ads[worst].effect);
		code = o.json ? print_json(p, &q, ads, n, worst, code)
			      : print_text(&q, ads, n, worst, code);
		if (fflush(stdout) != 0)
			code = LF_EXIT_OWN;
	}
	free(q.line);
	free(ads);
	lf_advisor_free(adv);
	lf_project_free(p);
	return code;
}
