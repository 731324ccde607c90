/* SPDX-License-Identifier: MIT */
/*
 * The policy parser (lf_policy_parse, src/policy). Input: a policy document.
 *
 * Properties:
 * - it returns 0, -EINVAL with a diagnostic, or -ENOMEM; *out is written
 *   only on success;
 * - a parsed policy saves to canonical JSON that parses again, and saving
 *   that gives the same bytes (canonical form is a fixed point);
 * - the reloaded policy decides like the original, for paths taken from the
 *   policy's own patterns (SPEC §4: "decides exactly like p");
 * - the OS guard never grants what a rule denies or asks (SPEC §2
 *   invariant): no grant of a class covers a path that a deny or ask rule
 *   of that class matches;
 * - a deny is never overridden (SPEC §1 layers): pooled with a layer that
 *   allows everything, before or after it, a rule's deny stays deny and a
 *   rule's ask stays at least ask;
 * - compiled forms (src/policy/compiled.c): a parsed policy's form reads
 *   back into a model whose form is the same bytes; and the input itself,
 *   read as a form, is refused (-EINVAL) or reads into a model whose form
 *   is exactly the input (the reader takes nothing a writer would not
 *   write).
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "core/model.h"
#include "fuzz.h"
#include "policy/compiled.h"

#define ROOT "/p"

static const char *const fixed_paths[] = {
	"", "src", "src/main.c", ".git", ".git/hooks/pre-commit", ".env", "a/b/c", "x",
};

static void diag_check(const struct lf_diag *d)
{
	FUZZ_ASSERT(memchr(d->file, '\0', sizeof(d->file)) != NULL);
	FUZZ_ASSERT(memchr(d->message, '\0', sizeof(d->message)) != NULL);
	FUZZ_ASSERT(d->message[0] != '\0');
	char buf[1200];
	FUZZ_ASSERT(lf_diag_format(d, buf, sizeof(buf)) > 0);
}

/* Whether absolute root covers absolute path, component-wise. */
static bool root_covers(const char *root, const char *path)
{
	size_t n = strlen(root);
	while (n > 1 && root[n - 1] == '/')
		n--;
	if (n == 1 && root[0] == '/')
		return path[0] == '/';
	return strncmp(root, path, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

static unsigned cap_class(enum lf_capability cap)
{
	return cap == LF_CAP_READ ? LF_ACCESS_RO : LF_ACCESS_RW;
}

/* Paths worth asking about: the fixed ones, each glob's static prefix and
 * the pattern with its metacharacters replaced by plain letters. */
static size_t paths_collect(const struct lf_policy *p, char paths[][256], size_t max)
{
	size_t n = 0;
	for (size_t i = 0; i < sizeof(fixed_paths) / sizeof(fixed_paths[0]) && n < max; i++)
		snprintf(paths[n++], 256, "%s", fixed_paths[i]);
	for (size_t r = 0; r < p->nrules; r++) {
		const struct lf_rule *rule = &p->rules[r];
		for (size_t g = 0; g < rule->nglobs && n + 2 <= max; g++) {
			const struct lf_glob *gl = &rule->globs[g];
			snprintf(paths[n++], 256, "%.*s", (int)gl->prefix_len, gl->pattern);
			char *s = paths[n++];
			snprintf(s, 256, "%s", gl->pattern);
			for (char *q = s; *q; q++)
				if (*q == '*' || *q == '?' || *q == '[' || *q == ']' || *q == '!')
					*q = 'a';
		}
	}
	return n;
}

static void decide_all(const struct lf_effective *e, char paths[][256], size_t n,
		       enum lf_effect out[][3])
{
	for (size_t i = 0; i < n; i++)
		for (int cap = LF_CAP_READ; cap <= LF_CAP_DELETE; cap++) {
			struct lf_verdict v;
			int r = lf_effective_decide_file(e, ROOT, (enum lf_capability)cap, paths[i],
							 &v);
			FUZZ_ASSERT(r == 0);
			FUZZ_ASSERT(v.effect <= LF_DENY);
			out[i][cap] = v.effect;
		}
}

/* A layer that allows every file request, fallback allow. */
static struct lf_policy *allow_all(void)
{
	static struct lf_policy *p;
	if (p)
		return p;
	FUZZ_ASSERT(lf_policy_new("allow-all.json", LF_LAYER_LOCAL, &p) == 0);
	p->has_fallback = true;
	p->fallback = LF_ALLOW;
	for (int cap = LF_CAP_READ; cap <= LF_CAP_DELETE; cap++) {
		struct lf_glob *g = calloc(1, sizeof(*g));
		struct lf_diag d;
		FUZZ_ASSERT(g && lf_glob_init(g, "**", 2, &d) == 0);
		struct lf_source src = { p->file, 1, 1 };
		FUZZ_ASSERT(lf_policy_add_file_rule(p, (enum lf_capability)cap, LF_ALLOW, g, 1, src,
						    &d) == 0);
	}
	return p;
}

static void layers_check(const struct lf_policy *p, char paths[][256], size_t n)
{
	const struct lf_policy *alone[] = { p };
	const struct lf_policy *orders[2][2] = { { p, allow_all() }, { allow_all(), p } };
	struct lf_effective *e = NULL;
	if (lf_effective_resolve(alone, 1, &e) != 0)
		return;
	for (int o = 0; o < 2; o++) {
		struct lf_effective *both = NULL;
		if (lf_effective_resolve(orders[o], 2, &both) != 0)
			continue;
		for (size_t i = 0; i < n; i++)
			for (int cap = LF_CAP_READ; cap <= LF_CAP_DELETE; cap++) {
				struct lf_verdict v1, v2;
				FUZZ_ASSERT(lf_effective_decide_file(e, ROOT,
								     (enum lf_capability)cap,
								     paths[i], &v1) == 0);
				FUZZ_ASSERT(lf_effective_decide_file(both, ROOT,
								     (enum lf_capability)cap,
								     paths[i], &v2) == 0);
				if (!v1.from_fallback && v2.effect < v1.effect) {
					fprintf(stderr,
						"%s %s: %s by a rule alone, %s with an allow-all "
						"layer %s it\n",
						lf_capability_name((enum lf_capability)cap),
						paths[i], lf_effect_name(v1.effect),
						lf_effect_name(v2.effect), o ? "before" : "after");
					abort();
				}
			}
		lf_effective_free(both);
	}
	lf_effective_free(e);
}

static void plan_check(const struct lf_policy *p, const struct lf_effective *e, char paths[][256],
		       size_t n)
{
	struct lf_context ctx = { .project_root = ROOT, .run_dir = "/run/lf" };
	struct lf_plan *plan = NULL;
	int r = lf_plan_compile(e, &ctx, &plan);
	if (r == -ENOMEM)
		return;
	FUZZ_ASSERT(r == 0 && plan);
	for (size_t i = 0; i < n; i++) {
		char abs[300];
		if (snprintf(abs, sizeof(abs), ROOT "/%s", paths[i]) >= (int)sizeof(abs))
			continue;
		if (!paths[i][0])
			abs[strlen(ROOT)] = '\0';
		for (size_t ri = 0; ri < p->nrules; ri++) {
			const struct lf_rule *rule = &p->rules[ri];
			if (rule->cap == LF_CAP_BASH || rule->effect == LF_ALLOW)
				continue;
			bool hit = false;
			for (size_t g = 0; g < rule->nglobs && !hit; g++)
				hit = lf_glob_match(&rule->globs[g], paths[i]);
			if (!hit)
				continue;
			unsigned cls = cap_class(rule->cap);
			for (size_t gi = 0; gi < lf_plan_grant_count(plan); gi++) {
				const struct lf_grant *gr = lf_plan_grant(plan, gi);
				if ((gr->access & cls) && root_covers(gr->abs_root, abs)) {
					fprintf(stderr,
						"grant %s (%#x) covers %s, which %s rule at %u:%u "
						"%s\n",
						gr->abs_root, gr->access, abs,
						lf_effect_name(rule->effect), rule->source.line,
						rule->source.column, "matches");
					abort();
				}
			}
		}
	}
	lf_plan_free(plan);
}

/* p's form, read back, written again: the same bytes. When want is not
 * NULL, those bytes must also be want[0..n). */
static void form_check(const struct lf_policy *p, const void *want, size_t n)
{
	char *f1 = NULL, *f2 = NULL;
	size_t n1 = 0, n2 = 0;
	struct lf_policy *q = NULL;
	int r = lf_policy_compile_form(p, &f1, &n1);

	if (r == -ENOMEM)
		return;
	FUZZ_ASSERT(r == 0);
	FUZZ_ASSERT(!want || (n1 == n && memcmp(f1, want, n) == 0));
	r = lf_policy_from_form(f1, n1, "fuzz.form", LF_LAYER_PROJECT, &q);
	if (r == 0) {
		FUZZ_ASSERT(lf_policy_compile_form(q, &f2, &n2) == 0 || !f2);
		FUZZ_ASSERT(!f2 || (n2 == n1 && memcmp(f1, f2, n1) == 0));
		lf_policy_free(q);
	} else {
		FUZZ_ASSERT(r == -ENOMEM);
	}
	free(f1);
	free(f2);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > FUZZ_MAX_INPUT)
		return 0;
	/* The input as a compiled form. */
	struct lf_policy *form = NULL;
	int fr = lf_policy_from_form(data, size, "fuzz.form", LF_LAYER_PROJECT, &form);
	FUZZ_ASSERT(fr == 0 || fr == -EINVAL || fr == -ENOMEM);
	FUZZ_ASSERT(fr == 0 || !form);
	if (fr == 0) {
		form_check(form, data, size);
		lf_policy_free(form);
	}
	struct lf_policy *const sentinel = (struct lf_policy *)&sentinel;
	struct lf_policy *p = sentinel;
	struct lf_diag diag;
	int r = lf_policy_parse((const char *)data, size, "fuzz.json", LF_LAYER_PROJECT, &p, &diag);
	if (r != 0) {
		FUZZ_ASSERT(r == -EINVAL || r == -ENOMEM);
		FUZZ_ASSERT(p == sentinel);
		if (r == -EINVAL)
			diag_check(&diag);
		return 0;
	}
	FUZZ_ASSERT(p && p != sentinel);
	form_check(p, NULL, 0);

	/* Canonical form: save, reload, save again, same bytes. */
	char *text = NULL, *text2 = NULL;
	struct lf_policy *p2 = NULL;
	r = lf_policy_save(p, &text);
	if (r == -ENOMEM) {
		lf_policy_free(p);
		return 0;
	}
	FUZZ_ASSERT(r == 0 && text);
	r = lf_policy_parse(text, strlen(text), "saved.json", LF_LAYER_PROJECT, &p2, &diag);
	if (r != 0) {
		char buf[1200];
		lf_diag_format(&diag, buf, sizeof(buf));
		fprintf(stderr, "saved policy does not load: %s\n%s", buf, text);
		abort();
	}
	FUZZ_ASSERT(lf_policy_save(p2, &text2) == 0);
	if (strcmp(text, text2) != 0) {
		fprintf(stderr, "canonical form is not a fixed point:\n%s---\n%s", text, text2);
		abort();
	}

	/* The reloaded policy decides like the original. */
	static char paths[64][256];
	size_t n = paths_collect(p, paths, 64);
	const struct lf_policy *l1[] = { p }, *l2[] = { p2 };
	struct lf_effective *e1 = NULL, *e2 = NULL;
	if (lf_effective_resolve(l1, 1, &e1) == 0 && lf_effective_resolve(l2, 1, &e2) == 0) {
		static enum lf_effect v1[64][3], v2[64][3];
		decide_all(e1, paths, n, v1);
		decide_all(e2, paths, n, v2);
		for (size_t i = 0; i < n; i++)
			for (int c = 0; c < 3; c++)
				if (v1[i][c] != v2[i][c]) {
					fprintf(stderr, "%s %s: %s before saving, %s after\n",
						lf_capability_name((enum lf_capability)c), paths[i],
						lf_effect_name(v1[i][c]), lf_effect_name(v2[i][c]));
					abort();
				}
		plan_check(p, e1, paths, n);
		layers_check(p, paths, n);
	}
	lf_effective_free(e1);
	lf_effective_free(e2);
	free(text);
	free(text2);
	lf_policy_free(p2);
	lf_policy_free(p);
	return 0;
}
