/* SPDX-License-Identifier: MIT */
/*
 * `landfence hook claude`: a Claude Code PreToolUse hook (doc/hook.md).
 *
 * The tool call arrives as JSON on standard input; the answer is Claude
 * Code's documented hook output on standard output, exit status 0:
 *   {"hookSpecificOutput":{"hookEventName":"PreToolUse",
 *    "permissionDecision":"allow|ask|deny","permissionDecisionReason":"…"}}
 * A tool it does not judge gets no output. Anything it cannot read with
 * certainty (broken JSON, a missing or mistyped field it needs, another
 * hook event) is denied with a reason, never allowed. Fields it does not
 * know are ignored: the client adds fields between versions.
 */
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "core/model.h"
#include "core/text.h"
#include "policy/policy.h"

/* A payload of this size or more is refused (EFBIG). */
#define PAYLOAD_MAX (16u << 20)

static const char usage_text[] =
	"usage: landfence hook claude [-p FILE]... [-C DIR] [--profile NAME]...\n"
	"Reads a Claude Code PreToolUse payload on standard input and answers allow,\n"
	"ask or deny on standard output.\n"
	"\noptions:\n" LF_HELP_POLICY LF_HELP_DIRECTORY LF_HELP_PROFILE LF_HELP_HELP
	"\nexit status: 0 answered (deny included); 2 usage error, or the answer cannot be\n"
	"written: Claude Code blocks the call.\n"
	"See landfence-hook(1).\n";

/* Exit status 2 is Claude Code's "block the call, show stderr": the
 * fail-closed answer when the JSON one cannot be given. Any other
 * non-zero status would let the call proceed. */
#define HOOK_EXIT_BLOCK 2

/* Prints the decision; returns the exit status: 0, or HOOK_EXIT_BLOCK
 * (with the reason on stderr) when the answer cannot be written. */
static int answer(enum lf_effect effect, const char *reason)
{
	/* The reason carries names from the payload and the tree, cut to
	 * size: escaped, so that it is valid UTF-8 (a name cut inside a
	 * character would make it unencodable) and the client shows no
	 * control character as is. */
	char *clean = lf_text_clean(reason) ? NULL : lf_text_escape(reason);
	json_t *root = json_pack("{s:{s:s,s:s,s:s}}", "hookSpecificOutput", "hookEventName",
				 "PreToolUse", "permissionDecision", lf_effect_name(effect),
				 "permissionDecisionReason", clean ? clean : reason);
	char *text = root ? json_dumps(root, JSON_COMPACT) : NULL;
	json_decref(root);
	free(clean);
	int ok = text && puts(text) >= 0 && fflush(stdout) == 0;
	free(text);
	if (ok)
		return LF_EXIT_OK;
	fprintf(stderr, "landfence: cannot write the hook's answer; blocking the call (%s)\n",
		reason);
	return HOOK_EXIT_BLOCK;
}

/* Denies a payload that cannot be judged: what is pre, arg and post
 * joined (arg may be NULL). */
static int deny_malformed(const char *pre, const char *arg, const char *post)
{
	char reason[1600];

	lf_text(reason, sizeof(reason),
		"landfence: the hook payload cannot be judged (%s%.600s%s); denied to be safe", pre,
		arg ? arg : "", post);
	return answer(LF_DENY, reason);
}

enum tool_kind {
	TOOL_NONE,
	TOOL_BASH,
	TOOL_READ,
	TOOL_SEARCH, /* Glob, Grep: path optional, the cwd by default */
	TOOL_WRITE,
};

static enum tool_kind tool_kind(const char *name, const char **path_key)
{
	static const struct {
		const char *name;
		enum tool_kind kind;
		const char *path_key;
	} tools[] = {
		{ "Bash", TOOL_BASH, "command" },
		{ "Read", TOOL_READ, "file_path" },
		{ "Glob", TOOL_SEARCH, "path" },
		{ "Grep", TOOL_SEARCH, "path" },
		{ "Edit", TOOL_WRITE, "file_path" },
		{ "MultiEdit", TOOL_WRITE, "file_path" },
		{ "Write", TOOL_WRITE, "file_path" },
		{ "NotebookEdit", TOOL_WRITE, "notebook_path" },
	};
	for (size_t i = 0; i < sizeof(tools) / sizeof(tools[0]); i++) {
		if (!strcmp(name, tools[i].name)) {
			*path_key = tools[i].path_key;
			return tools[i].kind;
		}
	}
	return TOOL_NONE;
}

static void reason_text(const struct lf_advice *ad, const char *what, char *buf, size_t size)
{
	char rule[1200];

	lf_advice_rule(&ad->policy, rule, sizeof(rule));
	if (ad->downgraded)
		lf_text(buf, size,
			"landfence: %s %s: the policy %s it (%s) but the kernel sandbox %s",
			lf_effect_name(ad->effect), what,
			ad->policy.effect == LF_ALLOW ? "allows" : "would ask about", rule,
			ad->kernel);
	else if (ad->policy.part[0])
		lf_text(buf, size, "landfence: %s by %s (part: %s)", lf_effect_name(ad->effect),
			rule, ad->policy.part);
	else
		lf_text(buf, size, "landfence: %s %s by %s", lf_effect_name(ad->effect), what,
			rule);
}

/* Answers one request of a well-formed payload under the project's
 * policy and the kernel's rules. */
static int judge_request(const struct lf_cli_opts *o, enum tool_kind kind, const char *arg,
			 const char *cwd)
{
	struct lf_project *p = NULL;
	struct lf_advisor *adv = NULL;
	struct lf_advice ad = { 0 };
	char what[4200], reason[6000];
	int r;

	if (lf_cli_open(o, 0, &p) != 0)
		return answer(LF_DENY,
			      "landfence: the policy cannot be loaded (the error is on the "
			      "hook's standard error); denied to be safe");
	/* The agent runs under its own profile: the kernel's answer counts it. */
	const char *profiles[LF_CLI_MAX_PROFILES + 1];
	size_t np = 0;
	bool have_claude = false;
	for (size_t i = 0; i < o->nprofiles; i++) {
		profiles[np++] = o->profiles[i];
		have_claude = have_claude || !strcmp(o->profiles[i], "claude");
	}
	if (!have_claude)
		profiles[np++] = "claude";
	r = lf_advisor_new(p, profiles, np, &adv);
	if (r == 0 && kind == TOOL_BASH) {
		r = lf_advisor_bash(adv, arg, cwd, &ad);
		lf_text(what, sizeof(what), "bash");
	} else if (r == 0) {
		enum lf_capability cap = kind == TOOL_WRITE ? LF_CAP_WRITE : LF_CAP_READ;
		r = lf_advisor_file(adv, cap, arg ? arg : ".", cwd, &ad);
		/* "~" and "~/…": the client may take them for the home
		 * directory, or for a name in the working directory; both
		 * are judged, the stricter answer kept. */
		if (r == 0 && arg && arg[0] == '~' && (!arg[1] || arg[1] == '/')) {
			const char *home = secure_getenv("HOME");
			char *expanded = NULL;
			struct lf_advice other = { 0 };

			if (!home || home[0] != '/' ||
			    asprintf(&expanded, "%s%s", home, arg + 1) < 0)
				r = -EINVAL; /* which file it is cannot be told: denied */
			else
				r = lf_advisor_file(adv, cap, expanded, cwd, &other);
			if (r == 0 && other.effect > ad.effect)
				ad = other;
			free(expanded);
		}
		if (r == 0)
			lf_text(what, sizeof(what), "%s %s", lf_capability_name(cap), ad.path);
	}
	if (r == 0)
		reason_text(&ad, what, reason, sizeof(reason));
	lf_advisor_free(adv);
	lf_project_free(p);
	if (r < 0)
		return answer(LF_DENY,
			      "landfence: the request cannot be decided; denied to be safe");
	return answer(ad.effect, reason);
}

static int judge(json_t *root, const struct lf_cli_opts *opts)
{
	json_t *ev = json_object_get(root, "hook_event_name");
	if (!json_is_string(ev))
		return deny_malformed("hook_event_name is missing or not a string", NULL, "");
	if (strcmp(json_string_value(ev), "PreToolUse") != 0)
		return deny_malformed("hook_event_name is \"", json_string_value(ev),
				      "\", expected PreToolUse");
	json_t *tn = json_object_get(root, "tool_name");
	if (!json_is_string(tn))
		return deny_malformed("tool_name is missing or not a string", NULL, "");
	const char *key = NULL;
	enum tool_kind kind = tool_kind(json_string_value(tn), &key);
	if (kind == TOOL_NONE)
		return LF_EXIT_OK; /* no opinion */

	json_t *in = json_object_get(root, "tool_input");
	if (!json_is_object(in))
		return deny_malformed("tool_input is missing or not an object", NULL, "");
	json_t *cwdj = json_object_get(root, "cwd");
	const char *cwd = NULL;
	if (cwdj && !json_is_null(cwdj)) {
		if (!json_is_string(cwdj))
			return deny_malformed("cwd is not a string", NULL, "");
		cwd = json_string_value(cwdj);
		if (cwd[0] != '/')
			return deny_malformed("cwd \"", cwd, "\" is not an absolute path");
	}
	json_t *val = json_object_get(in, key);
	const char *arg = NULL;
	if (val && !(kind == TOOL_SEARCH && json_is_null(val))) {
		if (!json_is_string(val))
			return deny_malformed("tool_input.", key, " is not a string");
		arg = json_string_value(val);
		if (json_string_length(val) != strlen(arg))
			return deny_malformed("tool_input.", key, " holds a NUL byte");
	}
	if (!arg && kind != TOOL_SEARCH)
		return deny_malformed("tool_input.", key, " is missing");
	if (kind != TOOL_BASH && arg && !arg[0])
		return deny_malformed("tool_input.", key, " is empty");
	if (!cwd && (kind == TOOL_BASH || !arg || arg[0] != '/'))
		return deny_malformed("cwd is missing, and the request needs it", NULL, "");

	/* The project: -C, else found from the session's directory. */
	struct lf_cli_opts o = *opts;
	if (!o.project_dir && cwd && chdir(cwd) != 0)
		return deny_malformed("cannot enter cwd \"", cwd, "\"");
	return judge_request(&o, kind, arg, cwd);
}

int lf_cmd_hook(int argc, char **argv)
{
	struct lf_cli_opts o = { 0 };
	int r;

	r = lf_cli_opts_parse(argc, argv, usage_text, &o);
	if (r >= 0)
		return r;
	if (optind + 1 != argc || strcmp(argv[optind], "claude") != 0) {
		if (optind < argc && strcmp(argv[optind], "claude") != 0)
			fprintf(stderr, "landfence hook: unknown agent '%s' (known: claude)\n",
				argv[optind]);
		fputs(usage_text, stderr);
		return LF_EXIT_USAGE;
	}

	char *buf = NULL;
	size_t len = 0;
	r = lf_fd_read(STDIN_FILENO, 65536, PAYLOAD_MAX - 1, &buf, &len);
	if (r < 0)
		return deny_malformed("cannot read standard input: ", strerror(-r), "");
	json_error_t err;
	json_t *root = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &err);
	free(buf);
	if (!root) {
		char what[400];
		lf_text(what, sizeof(what), "broken JSON at line %d, column %d: %s", err.line,
			err.column, err.text);
		return deny_malformed(what, NULL, "");
	}
	if (!json_is_object(root)) {
		json_decref(root);
		return deny_malformed("the payload is not a JSON object", NULL, "");
	}
	r = judge(root, &o);
	json_decref(root);
	return r;
}
