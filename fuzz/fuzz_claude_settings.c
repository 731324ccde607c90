/* SPDX-License-Identifier: MIT */
/*
 * The Claude Code settings importer (lf_claude_import, src/policy/claude.c).
 * Input: one settings.json.
 *
 * Properties:
 * - it returns 0, -EINVAL with a diagnostic, or -ENOMEM; *out is written
 *   only on success; every note is a non-empty line;
 * - an imported policy saves to canonical JSON that loads again;
 * - the settings exported from it import again without error.
 */
#include <errno.h>
#include <string.h>

#include "core/model.h"
#include "fuzz.h"
#include "policy/policy.h"

static void notes_check(const struct lf_strv *notes)
{
	for (size_t i = 0; i < notes->n; i++) {
		FUZZ_ASSERT(notes->v[i] && notes->v[i][0] != '\0');
		FUZZ_ASSERT(strchr(notes->v[i], '\n') == NULL);
	}
}

static int import(const char *text, size_t len, const char *name, struct lf_policy **out,
		  struct lf_strv *notes, struct lf_diag *diag)
{
	struct lf_claude_file f = { .name = name, .text = text, .len = len, .project_root = NULL };
	struct lf_claude_opts o = { .project_root = "/p", .home = "/home/u" };
	return lf_claude_import(&f, 1, &o, out, notes, diag);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > FUZZ_MAX_INPUT)
		return 0;
	struct lf_policy *const sentinel = (struct lf_policy *)&sentinel;
	struct lf_policy *p = sentinel;
	struct lf_strv notes = { 0 };
	struct lf_diag diag;
	memset(&diag, 0, sizeof(diag));
	int r = import((const char *)data, size, "settings.json", &p, &notes, &diag);
	if (r != 0) {
		FUZZ_ASSERT(r == -EINVAL || r == -ENOMEM);
		FUZZ_ASSERT(p == sentinel);
		if (r == -EINVAL) {
			FUZZ_ASSERT(memchr(diag.message, '\0', sizeof(diag.message)) != NULL);
			FUZZ_ASSERT(diag.message[0] != '\0');
		}
		lf_strv_fini(&notes);
		return 0;
	}
	FUZZ_ASSERT(p && p != sentinel);
	notes_check(&notes);
	lf_strv_fini(&notes);

	/* The imported policy is a policy the loader accepts. */
	char *text = NULL;
	r = lf_policy_save(p, &text);
	FUZZ_ASSERT(r == 0 || r == -ENOMEM);
	if (r == 0) {
		struct lf_policy *q = NULL;
		r = lf_policy_parse(text, strlen(text), "imported.json", LF_LAYER_AGENT, &q, &diag);
		if (r != 0) {
			char buf[1200];
			lf_diag_format(&diag, buf, sizeof(buf));
			fprintf(stderr, "imported policy does not load: %s\n%s", buf, text);
			abort();
		}
		lf_policy_free(q);
		free(text);
	}

	/* What is exported imports again. */
	const struct lf_policy *layers[] = { p };
	struct lf_effective *e = NULL;
	if (lf_effective_resolve(layers, 1, &e) == 0) {
		char *settings = NULL;
		struct lf_strv enotes = { 0 };
		r = lf_claude_export(e, &settings, &enotes);
		FUZZ_ASSERT(r == 0 || r == -ENOMEM);
		if (r == 0) {
			notes_check(&enotes);
			struct lf_policy *q = NULL;
			struct lf_strv inotes = { 0 };
			r = import(settings, strlen(settings), "exported.json", &q, &inotes, &diag);
			if (r == -EINVAL) {
				char buf[1200];
				lf_diag_format(&diag, buf, sizeof(buf));
				fprintf(stderr, "exported settings do not import: %s\n%s", buf,
					settings);
				abort();
			}
			lf_policy_free(q);
			lf_strv_fini(&inotes);
			free(settings);
		}
		lf_strv_fini(&enotes);
		lf_effective_free(e);
	}
	lf_policy_free(p);
	return 0;
}
