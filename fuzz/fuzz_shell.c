/* SPDX-License-Identifier: MIT */
/*
 * The shell command-line analyser (src/core/shell.c, lf_decide_bash).
 * Input: a command line (cut at its first NUL byte, as a C string is).
 * The policy is fixed and built in memory, so that this harness depends on
 * the model and the analyser only, not on the policy parser.
 *
 * Properties:
 * - lf_decide_bash returns 0 (or -ENOMEM) and a well-formed verdict;
 * - a command part whose words hold a command substitution is at best
 *   ask (it carries a reason): what the substitution prints becomes words
 *   of the command (decided on the syntax tree: quoted "$(" is text);
 * - a deny is never overridden: "git push" (a denied command), or a
 *   redirection into .git/ (a denied write), followed by a newline and
 *   anything at all is denied, because a shell runs the first line before
 *   it even reads the rest;
 * - wrapping never turns a refusal into an allow: when the line is not
 *   allowed, neither is `sh -c 'LINE'` (the payload quoted exactly);
 * - the cwd-aware entry point with cwd = the project root agrees;
 * - every part the analyser reports is well formed.
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "core/model.h"
#include "core/shell.h"
#include "fuzz.h"

#define ROOT "/p"

static struct lf_policy *policy;
static struct lf_effective *effective;

static void file_rule(enum lf_capability cap, enum lf_effect effect, const char *pattern)
{
	struct lf_glob *g = calloc(1, sizeof(*g));
	struct lf_diag d;
	FUZZ_ASSERT(g && lf_glob_init(g, pattern, strlen(pattern), &d) == 0);
	struct lf_source src = { policy->file, 1, 1 };
	FUZZ_ASSERT(lf_policy_add_file_rule(policy, cap, effect, g, 1, src, &d) == 0);
}

static void policy_build(void)
{
	static const struct {
		enum lf_matcher m;
		const char *text;
		enum lf_effect effect;
	} cmds[] = {
		{ LF_MATCH_PREFIX, "git push", LF_DENY }, { LF_MATCH_PREFIX, "rm -rf", LF_DENY },
		{ LF_MATCH_GLOB, "npm run *", LF_ASK },	  { LF_MATCH_EXACT, "make test", LF_ALLOW },
		{ LF_MATCH_PREFIX, "curl", LF_ASK },
	};
	struct lf_diag d;
	FUZZ_ASSERT(lf_policy_new("fuzz-shell.json", LF_LAYER_PROJECT, &policy) == 0);
	policy->has_fallback = true;
	policy->fallback = LF_ALLOW;
	file_rule(LF_CAP_READ, LF_ALLOW, "**");
	file_rule(LF_CAP_WRITE, LF_ALLOW, "**");
	file_rule(LF_CAP_WRITE, LF_DENY, ".git/**");
	file_rule(LF_CAP_READ, LF_DENY, ".env");
	size_t n = sizeof(cmds) / sizeof(cmds[0]);
	struct lf_cmd_rule *c = calloc(n, sizeof(*c));
	FUZZ_ASSERT(c);
	for (size_t i = 0; i < n; i++) {
		struct lf_source src = { policy->file, 2, (unsigned)i + 1 };
		FUZZ_ASSERT(lf_cmd_rule_init(&c[i], cmds[i].m, cmds[i].text, cmds[i].effect, src,
					     &d) == 0);
	}
	struct lf_source src = { policy->file, 2, 1 };
	FUZZ_ASSERT(lf_policy_add_bash_rule(policy, LF_ALLOW, c, n, src) == 0);
	const struct lf_policy *layers[] = { policy };
	FUZZ_ASSERT(lf_effective_resolve(layers, 1, &effective) == 0);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	policy_build();
	return 0;
}

static void verdict_check(const struct lf_verdict *v)
{
	FUZZ_ASSERT(v->effect == LF_ALLOW || v->effect == LF_ASK || v->effect == LF_DENY);
	FUZZ_ASSERT(memchr(v->part, '\0', sizeof(v->part)) != NULL);
	FUZZ_ASSERT(memchr(v->reason, '\0', sizeof(v->reason)) != NULL);
}

static int part_check(void *ctx, const struct lf_shell_part *part)
{
	char buf[256];
	switch (part->kind) {
	case LF_PART_COMMAND:
		FUZZ_ASSERT(part->argc == 0 || part->argv);
		for (size_t i = 0; i < part->argc; i++) {
			FUZZ_ASSERT(part->argv[i].text);
			FUZZ_ASSERT(strlen(part->argv[i].text) <= part->argv[i].len);
			if ((part->argv[i].flags & LF_WORD_SUBST) && !part->reason) {
				fprintf(stderr, "a command substitution without a reason: [%s]\n",
					part->argv[i].text);
				abort();
			}
		}
		break;
	case LF_PART_FILE:
		FUZZ_ASSERT(part->target && part->target->text && part->argv && part->argc);
		FUZZ_ASSERT(part->cap == LF_CAP_READ || part->cap == LF_CAP_WRITE ||
			    part->cap == LF_CAP_DELETE);
		FUZZ_ASSERT(strlen(part->target->text) <= part->target->len);
		break;
	case LF_PART_REDIRECT:
		FUZZ_ASSERT(part->target && part->target->text && part->op);
		FUZZ_ASSERT(part->cap == LF_CAP_READ || part->cap == LF_CAP_WRITE);
		break;
	case LF_PART_OPAQUE:
		FUZZ_ASSERT(part->text || part->text_len == 0);
		FUZZ_ASSERT(part->reason);
		break;
	case LF_PART_CWD:
		FUZZ_ASSERT(!part->push || (part->target && part->target->text));
		break;
	default:
		FUZZ_ASSERT(!"unknown part kind");
	}
	lf_shell_part_format(part, buf, sizeof(buf));
	FUZZ_ASSERT(memchr(buf, '\0', sizeof(buf)) != NULL);
	(*(size_t *)ctx)++;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > FUZZ_MAX_INPUT)
		return 0;
	if (!effective)
		policy_build();
	static char line[FUZZ_MAX_INPUT + 16];
	memcpy(line, data, size);
	line[size] = '\0';
	size_t len = strlen(line);

	size_t nparts = 0;
	int r = lf_shell_analyse(line, len, part_check, &nparts);
	FUZZ_ASSERT(r == 0 || r == -ENOMEM);

	struct lf_verdict v;
	r = lf_effective_decide_bash(effective, ROOT, line, &v);
	if (r == -ENOMEM)
		return 0;
	FUZZ_ASSERT(r == 0);
	verdict_check(&v);

	struct lf_verdict w;
	r = lf_bash_decide(effective, ROOT, ROOT, line, &w);
	FUZZ_ASSERT(r == 0 || r == -ENOMEM);
	if (r == 0 && w.effect != v.effect) {
		fprintf(stderr, "cwd = project root changes the verdict of [%s]: %s vs %s\n", line,
			lf_effect_name(v.effect), lf_effect_name(w.effect));
		abort();
	}

	/* sh -c with the line single-quoted: the payload is the line itself. */
	static char wrapped[4 * FUZZ_MAX_INPUT + 16];
	size_t o = 0;
	memcpy(wrapped, "sh -c '", 7);
	o = 7;
	for (const char *c = line; *c; c++) {
		if (*c == '\'') {
			memcpy(wrapped + o, "'\\''", 4);
			o += 4;
		} else {
			wrapped[o++] = *c;
		}
	}
	wrapped[o++] = '\'';
	wrapped[o] = '\0';
	r = lf_effective_decide_bash(effective, ROOT, wrapped, &w);
	FUZZ_ASSERT(r == 0 || r == -ENOMEM);
	if (r == 0 && v.effect != LF_ALLOW && w.effect == LF_ALLOW) {
		fprintf(stderr, "[%s] is %s but [%s] is allowed\n", line, lf_effect_name(v.effect),
			wrapped);
		abort();
	}

	static const char *const denied_first[] = { "git push\n", "echo x > .git/config\n" };
	static char prefixed[FUZZ_MAX_INPUT + 64];
	for (size_t i = 0; i < sizeof(denied_first) / sizeof(denied_first[0]); i++) {
		snprintf(prefixed, sizeof(prefixed), "%s%s", denied_first[i], line);
		r = lf_effective_decide_bash(effective, ROOT, prefixed, &w);
		FUZZ_ASSERT(r == 0 || r == -ENOMEM);
		if (r == 0 && w.effect != LF_DENY) {
			fprintf(stderr,
				"a denied first line is not denied: [%s] -> %s (part [%s], %s)\n",
				prefixed, lf_effect_name(w.effect), w.part, w.reason);
			abort();
		}
	}
	return 0;
}
