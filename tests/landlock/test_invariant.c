/* SPDX-License-Identifier: MIT */
/*
 * SPEC §2's invariant, extended to the final rules (issue 3): for every
 * project path p and class C, if a final rule gives C on p (on the path's
 * canonical location, as the kernel sees it), no deny or ask rule of class
 * C matches p. Random policies, host sections, profiles and commands over
 * a real tree with a symlink; fallback materialisation and host grants
 * included. LANDFENCE_TEST_SEED=N replays a run; the seed is printed.
 */
#include <sys/wait.h>

#include "core/path.h"
#include "core/sandbox.h"
#include "helpers.h"

#define NPOLICIES 400

static uint64_t rng_state;

static uint64_t rng(void)
{
	uint64_t x = rng_state;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	rng_state = x;
	return x;
}

static unsigned pick(unsigned n)
{
	return (unsigned)(rng() % n);
}

struct tree {
	char base[PATH_MAX];
	char proj[PATH_MAX];
	char *paths[128]; /* project-relative, "" = root */
	size_t npaths;
};

static void tree_add(struct tree *t, const char *rel)
{
	assert_true(t->npaths < sizeof(t->paths) / sizeof(t->paths[0]));
	t->paths[t->npaths] = strdup(rel);
	assert_non_null(t->paths[t->npaths]);
	t->npaths++;
}

static void tree_make(struct tree *t)
{
	static const char *const seg[] = { "a", "b", "c" };
	char p[PATH_MAX], rel[64];

	tmp_tree(t->base);
	tpath(t->proj, t->base, "proj");
	mkdir_p(t->proj);
	tree_add(t, "");
	for (int i = 0; i < 3; i++) {
		snprintf(rel, sizeof(rel), "%s", seg[i]);
		tree_add(t, rel);
		for (int j = 0; j < 3; j++) {
			snprintf(rel, sizeof(rel), "%s/%s", seg[i], seg[j]);
			tree_add(t, rel);
			for (int k = 0; k < 3; k++) {
				snprintf(rel, sizeof(rel), "%s/%s/%s", seg[i], seg[j], seg[k]);
				tree_add(t, rel);
				tpath(p, t->proj, rel);
				mkdir_p(p);
			}
		}
	}
	tree_add(t, "a/b/f.txt");
	tree_add(t, "c/f.txt");
	tpath(p, t->proj, "a/b/f.txt");
	put(p, "f\n");
	tpath(p, t->proj, "c/f.txt");
	put(p, "f\n");
	/* A symlink inside the project onto another part of it. */
	tpath(p, t->proj, "l");
	{
		char target[PATH_MAX];

		tpath(target, t->proj, "a/b");
		assert_int_equal(symlink(target, p), 0);
	}
	tree_add(t, "l");
	tree_add(t, "l/a");
	tree_add(t, "l/f.txt");
	tree_add(t, "l/c");
	/* Agent config beside the project, for profiles. */
	tpath(p, t->base, ".claude/x");
	put(p, "x\n");
	tpath(p, t->base, ".claude.json");
	put(p, "{}\n");
	tpath(p, t->base, "run");
	mkdir_p(p);
	/* The same project reached through a symlinked root. */
	tpath(p, t->base, "plink");
	assert_int_equal(symlink(t->proj, p), 0);
}

static void random_segment(char *out, size_t size)
{
	static const char *const segs[] = { "a", "b",	 "c",  "l",	"*",	 "**",
					    "?", "[ab]", "a*", "f.txt", "*.txt", "[!a]" };

	snprintf(out, size, "%s", segs[pick(sizeof(segs) / sizeof(segs[0]))]);
}

static void random_glob(char *out, size_t size)
{
	unsigned n = 1 + pick(3);
	size_t len = 0;

	out[0] = '\0';
	for (unsigned i = 0; i < n; i++) {
		char seg[16];

		random_segment(seg, sizeof(seg));
		len += (size_t)snprintf(out + len, size - len, "%s%s", i ? "/" : "", seg);
	}
}

static struct lf_policy *random_policy(const struct tree *t)
{
	struct lf_policy *p = NULL;
	unsigned nrules = pick(7);

	assert_int_equal(lf_policy_new("random.json", LF_LAYER_PROJECT, &p), 0);
	p->has_fallback = true;
	p->fallback = (lf_posture)pick(3);
	for (unsigned i = 0; i < nrules; i++) {
		unsigned nglobs = 1 + pick(2);
		struct lf_glob *g = calloc(nglobs, sizeof(*g));
		struct lf_source src = { p->file, i + 1, 1 };
		struct lf_diag d;
		/* Allows a little more often, so there is something to fence. */
		static const enum lf_effect effects[] = { LF_ALLOW, LF_ALLOW, LF_ASK, LF_DENY };

		assert_non_null(g);
		for (unsigned k = 0; k < nglobs; k++) {
			char glob[128];

			do
				random_glob(glob, sizeof(glob));
			while (lf_glob_init(&g[k], glob, strlen(glob), &d) != 0);
		}
		assert_int_equal(lf_policy_add_file_rule(p, (enum lf_capability)pick(3),
							 effects[pick(4)], g, nglobs, src, &d),
				 0);
	}
	/* Host paths around and inside the project. */
	static const char *const host[] = { "~",	 "~/proj",	   "~/proj/a", "~/proj/a/b",
					    "~/proj/l",	 "~/proj/c/f.txt", "~/run",    "/usr",
					    "~/plink/a", "~/plink" };
	for (unsigned i = pick(3); i > 0; i--) {
		struct lf_strv *sv = pick(2) ? &p->host_write : &p->host_read;

		assert_int_equal(lf_strv_push(sv, host[pick(sizeof(host) / sizeof(host[0]))]), 0);
	}
	if (pick(3) == 0)
		assert_int_equal(lf_strv_push(&p->profiles, "claude"), 0);
	(void)t;
	return p;
}

/* Whether a final rule of class cls covers the canonical place of p. */
static bool final_gives(const struct lf_sandbox *sb, const char *canon, unsigned cls)
{
	for (size_t i = 0; i < lf_sandbox_rule_count(sb); i++) {
		const struct lf_sandbox_rule *r = lf_sandbox_rule(sb, i);
		size_t n = strlen(r->path);

		if (!(r->access & cls))
			continue;
		if (strcmp(r->path, "/") == 0 ||
		    (strncmp(r->path, canon, n) == 0 && (canon[n] == '\0' || canon[n] == '/')))
			return true;
	}
	return false;
}

/* A deny or ask rule of class cls matching p (project-relative). */
static const struct lf_rule *fence_match(const struct lf_policy *p, const char *rel, unsigned cls)
{
	for (size_t i = 0; i < p->nrules; i++) {
		const struct lf_rule *r = &p->rules[i];
		unsigned rc = r->cap == LF_CAP_READ ? LF_ACCESS_RO : LF_ACCESS_RW;

		if (r->effect == LF_ALLOW || r->cap == LF_CAP_BASH || rc != cls)
			continue;
		for (size_t g = 0; g < r->nglobs; g++)
			if (lf_glob_match(&r->globs[g], rel))
				return r;
	}
	return NULL;
}

static void test_final_rules_never_grant_a_fence(void **state)
{
	struct tree t = { 0 };
	const char *env = getenv("LANDFENCE_TEST_SEED");
	uint64_t seed = env ? strtoull(env, NULL, 10) : 20261130;
	char run[PATH_MAX], cmd_in[PATH_MAX], plink[PATH_MAX];
	const char *root;
	size_t cases = 0, granted = 0, fenced = 0, enforced = 0;
	bool have_ll = kernel_abi() > 0;

	(void)state;
	if (!seed)
		seed = 1;
	rng_state = seed;
	printf("landlock invariant: seed %llu (LANDFENCE_TEST_SEED to replay)\n",
	       (unsigned long long)seed);
	tree_make(&t);
	tpath(run, t.base, "run");
	tpath(cmd_in, t.proj, "a/b/f.txt");
	tpath(plink, t.base, "plink");
	unsetenv("LANDFENCE_ABI_MAX");

	for (int n = 0; n < NPOLICIES; n++) {
		struct world w = { 0 };
		struct lf_sandbox_opts o = { 0 };
		const char *cmds[] = { NULL, "/bin/true", cmd_in };

		w.pol = random_policy(&t);
		o.home = t.base;
		o.run_dir = run;
		o.abi_max = abi_opt(pick(4) == 0 ? (int)pick(8) : -1);
		o.command = cmds[pick(3)];
		/* Half the time the project root is a symlink. */
		root = pick(2) ? t.proj : plink;
		world_build(&w, root, &o);
		if (w.rc == -EOPNOTSUPP) {
			/* KernelTooOld: nothing runs, nothing to check. */
			world_fini(&w);
			continue;
		}
		if (w.rc != 0)
			fail_msg("seed %llu policy %d: build failed %d: %s",
				 (unsigned long long)seed, n, w.rc, w.diag.message);
		for (size_t i = 0; i < t.npaths; i++) {
			char abs[PATH_MAX];
			char *canon;

			if (t.paths[i][0])
				tpath(abs, root, t.paths[i]);
			else
				snprintf(abs, sizeof(abs), "%s", root);
			canon = realpath(abs, NULL);
			assert_non_null(canon);
			for (unsigned cls = LF_ACCESS_RO; cls <= LF_ACCESS_RW; cls <<= 1) {
				const struct lf_rule *m = fence_match(w.pol, t.paths[i], cls);
				bool gives = final_gives(w.sb, canon, cls);

				cases++;
				granted += gives;
				fenced += m != NULL;
				if (gives && m)
					fail_msg("seed %llu policy %d: final rules give %s on "
						 "\"%s\" "
						 "but a %s rule (line %u) matches it",
						 (unsigned long long)seed, n,
						 cls == LF_ACCESS_RO ? "read" : "write", t.paths[i],
						 lf_effect_name(m->effect), m->source.line);
				/* Now and then, the kernel's own answer. */
				if (m && cls == LF_ACCESS_RO && have_ll &&
				    lf_sandbox_abi(w.sb) > 0 && strstr(t.paths[i], "f.txt") &&
				    pick(8) == 0) {
					int fd = world_fd(&w);

					assert_int_equal(child_op(fd, OP_READ, abs), EACCES);
					close(fd);
					enforced++;
				}
			}
			free(canon);
		}
		world_fini(&w);
	}
	printf("landlock invariant: %zu cases (%zu granted, %zu fenced), %zu checked in the "
	       "kernel\n",
	       cases, granted, fenced, enforced);
	assert_true(cases >= 20000);
	assert_true(granted > 0 && fenced > 0);
	rm_rf(t.base);
	for (size_t i = 0; i < t.npaths; i++)
		free(t.paths[i]);
}

/* Whether a child under the value's sandbox, masks included, reads at
 * least one byte of path: the kernel's own answer. */
static bool child_reads(struct world *w, const char *root, const char *path)
{
	char script[PATH_MAX + 64];
	struct lf_child *c = NULL;
	struct lf_diag d = { 0 };
	int st = -1;

	snprintf(script, sizeof(script), "head -c1 '%s' 2>/dev/null | grep -q .", path);
	char *argv[] = { "sh", "-c", script, NULL };
	struct lf_child_opts o = { .size = sizeof(o), .project_root = root, .cwd = root };
	if (lf_child_spawn(w->eff, w->plan, &o, argv, &c, &d) < 0)
		fail_msg("spawn: %s", d.message);
	assert_int_equal(lf_child_wait(c, &st), 0);
	lf_child_free(c);
	return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

/* The same over rules and masks: the value compiled with a mount
 * namespace, from the real facts of the tree (types, glob matches,
 * links); for every path of the tree and class C, if a final rule gives
 * C on the path's canonical place and no mask keeps C from it, no deny
 * or ask rule of C matches the path. Some fenced files are read by a
 * real child in the real namespace. */
static void test_rules_and_masks_never_grant_a_fence(void **state)
{
	struct tree t = { 0 };
	const char *env = getenv("LANDFENCE_TEST_SEED");
	uint64_t seed = env ? strtoull(env, NULL, 10) : 20261201;
	char run[PATH_MAX];
	size_t cases = 0, kept = 0, launched = 0;
	bool ns = false;

	(void)state;
	rng_state = seed ? seed : 1;
	printf("landlock invariant with masks: seed %llu\n", (unsigned long long)seed);
	tree_make(&t);
	tpath(run, t.base, "run");
	unsetenv("LANDFENCE_ABI_MAX");
	assert_true(lf_namespace_probe(&ns, NULL, NULL, 0) >= 0);

	for (int n = 0; n < NPOLICIES / 2; n++) {
		struct world w = { 0 };
		struct lf_sandbox_opts o = { 0 };

		w.pol = random_policy(&t);
		o.home = t.base;
		o.run_dir = run;
		o.namespaces = LF_NS_ASSUME;
		world_build(&w, t.proj, &o);
		if (w.rc == -EOPNOTSUPP) {
			world_fini(&w);
			continue;
		}
		if (w.rc != 0)
			fail_msg("seed %llu policy %d: build failed %d: %s",
				 (unsigned long long)seed, n, w.rc, w.diag.message);
		for (size_t k = 0; k < lf_sandbox_mask_count(w.sb); k++)
			if (lf_path_covers(t.proj, lf_sandbox_mask(w.sb, k)->path)) {
				kept++;
				break;
			}
		for (size_t i = 0; i < t.npaths; i++) {
			char abs[PATH_MAX];
			char *canon;

			if (t.paths[i][0])
				tpath(abs, t.proj, t.paths[i]);
			else
				snprintf(abs, sizeof(abs), "%s", t.proj);
			canon = realpath(abs, NULL);
			assert_non_null(canon);
			for (unsigned cls = LF_ACCESS_RO; cls <= LF_ACCESS_RW; cls <<= 1) {
				const struct lf_rule *m = fence_match(w.pol, t.paths[i], cls);
				bool gives = final_gives(w.sb, canon, cls) &&
					     !lf_sandbox_masked(w.sb, canon, cls) &&
					     !lf_sandbox_masked(w.sb, abs, cls);

				cases++;
				if (gives && m) {
					char *desc = NULL;
					for (size_t k = 0; k < w.pol->nrules; k++)
						for (size_t g = 0; g < w.pol->rules[k].nglobs; g++)
							printf("rule %zu: %s %s %s\n", k + 1,
							       lf_effect_name(
								       w.pol->rules[k].effect),
							       lf_capability_name(
								       w.pol->rules[k].cap),
							       w.pol->rules[k].globs[g].pattern);
					for (size_t k = 0; k < w.pol->host_read.n; k++)
						printf("host.read %s\n", w.pol->host_read.v[k]);
					for (size_t k = 0; k < w.pol->host_write.n; k++)
						printf("host.write %s\n", w.pol->host_write.v[k]);
					if (lf_sandbox_describe(w.sb, &desc) == 0)
						printf("%s", desc);
					free(desc);
				}
				if (gives && m)
					fail_msg("seed %llu policy %d: rules and masks give %s on "
						 "\"%s\" but a %s rule (line %u) matches it",
						 (unsigned long long)seed, n,
						 cls == LF_ACCESS_RO ? "read" : "write", t.paths[i],
						 lf_effect_name(m->effect), m->source.line);
				/* Now and then, the kernel's own answer, masks and all. */
				if (m && cls == LF_ACCESS_RO && ns && lf_sandbox_abi(w.sb) > 0 &&
				    lf_sandbox_mask_count(w.sb) > 0 &&
				    strstr(t.paths[i], "f.txt") && pick(4) == 0) {
					assert_false(child_reads(&w, t.proj, abs));
					launched++;
				}
			}
			free(canon);
		}
		world_fini(&w);
	}
	printf("landlock invariant with masks: %zu cases, %zu values with masks in the project, "
	       "%zu read in a child\n",
	       cases, kept, launched);
	assert_true(cases >= 10000);
	assert_true(kept > 0);
	if (ns)
		assert_true(launched > 0);
	rm_rf(t.base);
	for (size_t i = 0; i < t.npaths; i++)
		free(t.paths[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_final_rules_never_grant_a_fence),
		cmocka_unit_test(test_rules_and_masks_never_grant_a_fence),
	};

	return cmocka_run_group_tests_name("landlock-invariant", tests, NULL, NULL);
}
