/* SPDX-License-Identifier: MIT */
/*
 * File decisions (SPEC §1): deny > ask > allow > fallback over pooled
 * layers, the deciding rule with its layer and source, lexical paths, and
 * the index agreeing with a linear scan of every rule.
 */
#include <inttypes.h>
#include <stdio.h>

#include "helpers.h"

struct layers {
	struct lf_policy *user, *project, *local;
	struct lf_effective *e;
};

static struct layers L;

/* Three layers given out of order (local, project, user): the user layer
 * denies reading .ssh and asks before writing lock files, the project allows
 * reading everything and writing src and tests but not src/gen, the local
 * layer allows two exceptions (never stronger than a deny) and denies
 * writing C files directly in src. Fallbacks: project allow, local ask. */
static int setup(void **state)
{
	(void)state;
	L.user = h_policy(LF_LAYER_USER, "user.json");
	L.project = h_policy(LF_LAYER_PROJECT, "project.json");
	L.local = h_policy(LF_LAYER_LOCAL, "local.json");
	H_RULE(L.user, LF_CAP_READ, LF_DENY, 10, ".ssh/**");
	H_RULE(L.user, LF_CAP_WRITE, LF_ASK, 11, "**/*.lock");
	L.project->has_fallback = true;
	L.project->fallback = LF_ALLOW;
	H_RULE(L.project, LF_CAP_READ, LF_ALLOW, 20, "**");
	H_RULE(L.project, LF_CAP_WRITE, LF_ALLOW, 21, "src/**", "tests/**");
	H_RULE(L.project, LF_CAP_WRITE, LF_DENY, 22, "src/gen/**");
	H_RULE(L.project, LF_CAP_DELETE, LF_ASK, 23, ".git");
	L.local->has_fallback = true;
	L.local->fallback = LF_ASK;
	H_RULE(L.local, LF_CAP_READ, LF_ALLOW, 30, ".ssh/config");
	H_RULE(L.local, LF_CAP_WRITE, LF_ALLOW, 31, "src/gen/keep.c");
	H_RULE(L.local, LF_CAP_WRITE, LF_DENY, 32, "src/*.c");
	const struct lf_policy *layers[] = { L.local, L.project, L.user };
	assert_int_equal(lf_effective_resolve(layers, 3, &L.e), 0);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	lf_effective_free(L.e);
	lf_policy_free(L.user);
	lf_policy_free(L.project);
	lf_policy_free(L.local);
	memset(&L, 0, sizeof(L));
	return 0;
}

struct decide_case {
	enum lf_capability cap;
	const char *path;
	enum lf_effect effect;
	bool fallback;
	enum lf_layer layer;
	const char *file;
	unsigned line;
};

static const struct decide_case decide_cases[] = {
	/* deny anywhere wins over an allow in a later layer */
	{ LF_CAP_READ, ".ssh/config", LF_DENY, false, LF_LAYER_USER, "user.json", 10 },
	{ LF_CAP_READ, ".ssh", LF_DENY, false, LF_LAYER_USER, "user.json", 10 },
	{ LF_CAP_READ, "/work/proj/.ssh/id_rsa", LF_DENY, false, LF_LAYER_USER, "user.json", 10 },
	{ LF_CAP_READ, "src/main.c", LF_ALLOW, false, LF_LAYER_PROJECT, "project.json", 20 },
	{ LF_CAP_READ, "", LF_ALLOW, false, LF_LAYER_PROJECT, "project.json", 20 },
	{ LF_CAP_READ, ".ssh2/x", LF_ALLOW, false, LF_LAYER_PROJECT, "project.json", 20 },
	/* ask beats allow, deny beats ask */
	{ LF_CAP_WRITE, "src/Cargo.lock", LF_ASK, false, LF_LAYER_USER, "user.json", 11 },
	{ LF_CAP_WRITE, "src/gen/x.lock", LF_DENY, false, LF_LAYER_PROJECT, "project.json", 22 },
	{ LF_CAP_WRITE, "src/gen/keep.c", LF_DENY, false, LF_LAYER_PROJECT, "project.json", 22 },
	{ LF_CAP_WRITE, "src/a.c", LF_DENY, false, LF_LAYER_LOCAL, "local.json", 32 },
	{ LF_CAP_WRITE, "src/a.h", LF_ALLOW, false, LF_LAYER_PROJECT, "project.json", 21 },
	{ LF_CAP_WRITE, "tests/t.c", LF_ALLOW, false, LF_LAYER_PROJECT, "project.json", 21 },
	{ LF_CAP_WRITE, "src2/a.h", LF_ASK, true, 0, NULL, 0 },
	{ LF_CAP_WRITE, "README", LF_ASK, true, 0, NULL, 0 },
	/* capabilities are separate */
	{ LF_CAP_DELETE, "src/a.h", LF_ASK, true, 0, NULL, 0 },
	{ LF_CAP_DELETE, ".git/HEAD", LF_ASK, false, LF_LAYER_PROJECT, "project.json", 23 },
	{ LF_CAP_DELETE, ".github/x", LF_ASK, true, 0, NULL, 0 },
	/* lexical normalisation */
	{ LF_CAP_READ, "src/../.ssh/key", LF_DENY, false, LF_LAYER_USER, "user.json", 10 },
	{ LF_CAP_READ, "./.ssh//key", LF_DENY, false, LF_LAYER_USER, "user.json", 10 },
	{ LF_CAP_READ, "/work/proj/src/../../proj/.ssh", LF_DENY, false, LF_LAYER_USER, "user.json",
	  10 },
	{ LF_CAP_WRITE, "/work/proj/tests/../src/gen/a", LF_DENY, false, LF_LAYER_PROJECT,
	  "project.json", 22 },
	/* outside the project: the fallback, whatever the rules say */
	{ LF_CAP_READ, "/etc/passwd", LF_ASK, true, 0, NULL, 0 },
	{ LF_CAP_READ, "../other/.ssh/x", LF_ASK, true, 0, NULL, 0 },
	{ LF_CAP_READ, "/work/proj/../proj2/a", LF_ASK, true, 0, NULL, 0 },
	{ LF_CAP_READ, "/work/projx", LF_ASK, true, 0, NULL, 0 },
};

static void decide_file_table(void **state)
{
	(void)state;
	assert_int_equal(lf_effective_fallback(L.e), LF_ASK);
	for (size_t i = 0; i < sizeof(decide_cases) / sizeof(decide_cases[0]); i++) {
		const struct decide_case *c = &decide_cases[i];
		struct lf_verdict v;
		assert_int_equal(lf_effective_decide_file(L.e, ROOT, c->cap, c->path, &v), 0);
		if (v.effect != c->effect || v.from_fallback != c->fallback)
			print_error("case %zu: %s %s -> %s (fallback %d)\n", i,
				    lf_capability_name(c->cap), c->path, lf_effect_name(v.effect),
				    v.from_fallback);
		assert_int_equal(v.effect, c->effect);
		assert_int_equal(v.from_fallback, c->fallback);
		if (c->fallback) {
			assert_null(v.source.file);
			continue;
		}
		assert_int_equal(v.layer, c->layer);
		assert_string_equal(v.source.file, c->file);
		assert_int_equal(v.source.line, c->line);
		assert_string_equal(v.part, "");
	}
}

static void decide_file_rejects_bad_arguments(void **state)
{
	(void)state;
	struct lf_verdict v = { .effect = LF_ALLOW };
	assert_int_equal(lf_effective_decide_file(L.e, ROOT, LF_CAP_BASH, "x", &v), -EINVAL);
	assert_int_equal(lf_effective_decide_file(NULL, ROOT, LF_CAP_READ, "x", &v), -EINVAL);
	assert_int_equal(lf_effective_decide_file(L.e, NULL, LF_CAP_READ, "x", &v), -EINVAL);
	assert_int_equal(lf_effective_decide_file(L.e, ROOT, LF_CAP_READ, NULL, &v), -EINVAL);
	assert_int_equal(lf_effective_decide_file(L.e, ROOT, LF_CAP_READ, "x", NULL), -EINVAL);
	assert_int_equal(v.effect, LF_ALLOW); /* untouched */
}

static void decide_file_long_path(void **state)
{
	(void)state;
	/* Longer than the stack buffer: the heap takes over. */
	size_t n = 10000;
	char *p = malloc(n + 1);
	assert_non_null(p);
	strcpy(p, ".ssh/");
	for (size_t i = 5; i < n; i++)
		p[i] = (i % 10 == 9) ? '/' : 'x';
	p[n] = '\0';
	struct lf_verdict v;
	assert_int_equal(lf_effective_decide_file(L.e, ROOT, LF_CAP_READ, p, &v), 0);
	assert_int_equal(v.effect, LF_DENY);
	free(p);
}

/* The index must agree with a plain scan of every rule: same verdict and
 * same deciding rule, on random policies with frequent overlaps. */
static void decide_index_matches_linear_scan(void **state)
{
	(void)state;
	uint64_t seed = h_seed();
	print_message("decide_index_matches_linear_scan: LANDFENCE_SEED=%" PRIu64 "\n", seed);
	uint64_t s = seed;
	size_t checked = 0;
	for (int round = 0; round < 200; round++) {
		struct lf_policy *p = h_policy_fallback((lf_posture)h_below(&s, 3));
		size_t nrules = 1 + h_below(&s, 30);
		for (size_t i = 0; i < nrules; i++) {
			char g1[64], g2[64];
			h_random_glob(&s, g1);
			h_random_glob(&s, g2);
			if (h_below(&s, 3) == 0)
				H_RULE(p, (enum lf_capability)h_below(&s, 3),
				       (enum lf_effect)h_below(&s, 3), (unsigned)i + 1, g1, g2);
			else
				H_RULE(p, (enum lf_capability)h_below(&s, 3),
				       (enum lf_effect)h_below(&s, 3), (unsigned)i + 1, g1);
		}
		struct lf_effective *e = h_resolve1(p);
		struct lf_effective linear = *e;
		linear.index = NULL; /* lf_decide_file then scans every rule */
		linear.scan_only = true;
		for (int k = 0; k < 200; k++) {
			char path[64];
			h_random_path(&s, path);
			enum lf_capability cap = (enum lf_capability)h_below(&s, 3);
			struct lf_verdict a, b;
			assert_int_equal(lf_effective_decide_file(e, ROOT, cap, path, &a), 0);
			assert_int_equal(lf_effective_decide_file(&linear, ROOT, cap, path, &b), 0);
			if (a.effect != b.effect || a.source.line != b.source.line) {
				print_error("seed %" PRIu64 " round %d: %s %s: index %s line %u, "
					    "scan %s line %u\n",
					    seed, round, lf_capability_name(cap), path,
					    lf_effect_name(a.effect), a.source.line,
					    lf_effect_name(b.effect), b.source.line);
				fail();
			}
			assert_int_equal(a.from_fallback, b.from_fallback);
			checked++;
		}
		lf_effective_free(e);
		lf_policy_free(p);
	}
	assert_int_equal(checked, 40000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(decide_file_table, setup, teardown),
		cmocka_unit_test_setup_teardown(decide_file_rejects_bad_arguments, setup, teardown),
		cmocka_unit_test_setup_teardown(decide_file_long_path, setup, teardown),
		cmocka_unit_test(decide_index_matches_linear_scan),
	};
	return cmocka_run_group_tests_name("decide", tests, NULL, NULL);
}
