/* SPDX-License-Identifier: MIT */
/*
 * The reference seed's 16 plan tests (seed/sandbox.rs), same names, same
 * inputs, same expectations; /work/proj stands for the seed's project root.
 */
#include "helpers.h"

#define P(rel) ROOT "/" rel

/* The seed's eff(): one project set with a stated fallback, resolved. */
struct fixture {
	struct lf_policy *p;
	struct lf_effective *e;
	struct lf_plan *plan;
};

static struct fixture fx;

static int teardown(void **state)
{
	(void)state;
	lf_plan_free(fx.plan);
	lf_effective_free(fx.e);
	lf_policy_free(fx.p);
	memset(&fx, 0, sizeof(fx));
	return 0;
}

static struct lf_plan *compile(lf_posture fallback, const char *root)
{
	if (!fx.p)
		fx.p = h_policy_fallback(fallback);
	fx.e = h_resolve1(fx.p);
	fx.plan = h_plan(fx.e, root);
	assert_non_null(fx.plan);
	return fx.plan;
}

static struct lf_policy *policy(lf_posture fallback)
{
	fx.p = h_policy_fallback(fallback);
	return fx.p;
}

static void none_eff_yields_no_plan(void **state)
{
	(void)state;
	struct lf_plan *plan = (struct lf_plan *)1;
	struct lf_context ctx = { .project_root = ROOT, .run_dir = "/x" };
	assert_int_equal(lf_plan_compile(NULL, &ctx, &plan), 0);
	assert_null(plan);

	/* And resolve of no layer is no policy in the first place. */
	struct lf_effective *e = (struct lf_effective *)1;
	assert_int_equal(lf_resolve(NULL, 0, &e), 0);
	assert_null(e);
}

static void policy_with_no_allow_still_yields_some_plan(void **state)
{
	(void)state;
	policy(LF_DENY);
	struct lf_plan *plan = compile(LF_DENY, ROOT);
	assert_int_equal(lf_plan_grant_count(plan), 0);
	teardown(NULL);

	H_RULE(policy(LF_ASK), LF_CAP_WRITE, LF_DENY, 1, "secret/**");
	plan = compile(LF_ASK, ROOT);
	assert_int_equal(lf_plan_grant_count(plan), 0);
}

static void read_maps_to_ro(void **state)
{
	(void)state;
	H_RULE(policy(LF_ASK), LF_CAP_READ, LF_ALLOW, 1, "src/**");
	const struct lf_grant *g = h_grant(compile(LF_ASK, ROOT), P("src"));
	assert_non_null(g);
	assert_int_equal(g->access, LF_ACCESS_RO);
	assert_false(g->access & LF_ACCESS_RW);
}

static void write_and_delete_map_to_rw(void **state)
{
	(void)state;
	struct lf_policy *p = policy(LF_ASK);
	H_RULE(p, LF_CAP_WRITE, LF_ALLOW, 1, "out/**");
	H_RULE(p, LF_CAP_DELETE, LF_ALLOW, 2, "tmp/**");
	struct lf_plan *plan = compile(LF_ASK, ROOT);
	assert_non_null(h_grant(plan, P("out")));
	assert_int_equal(h_grant(plan, P("out"))->access, LF_ACCESS_RW);
	assert_non_null(h_grant(plan, P("tmp")));
	assert_int_equal(h_grant(plan, P("tmp"))->access, LF_ACCESS_RW);
}

static void bash_only_policy_produces_no_path_grant(void **state)
{
	(void)state;
	struct lf_policy *p = policy(LF_ALLOW);
	struct lf_source src = { 0 };
	assert_int_equal(lf_policy_add_bash_rule(p, LF_ALLOW, NULL, 0, src), 0);
	struct lf_cmd_rule *c = calloc(1, sizeof(*c));
	assert_non_null(c);
	assert_int_equal(lf_cmd_rule_init(c, LF_MATCH_PREFIX, "rm ", LF_DENY, src, NULL), 0);
	assert_int_equal(lf_policy_add_bash_rule(p, LF_DENY, c, 1, src), 0);
	struct lf_plan *plan = compile(LF_ALLOW, ROOT);
	assert_int_equal(lf_plan_grant_count(plan), 0);
}

static void root_glob_with_same_class_deny_drops_root_grant(void **state)
{
	(void)state;
	struct lf_policy *p = policy(LF_ASK);
	H_RULE(p, LF_CAP_READ, LF_ALLOW, 1, "**");
	H_RULE(p, LF_CAP_READ, LF_DENY, 2, "secret.txt");
	struct lf_plan *plan = compile(LF_ASK, ROOT);
	assert_int_equal(lf_plan_grant_count(plan), 0);
}

static void descendant_same_class_deny_drops_overlapping_allow(void **state)
{
	(void)state;
	struct lf_policy *p = policy(LF_ASK);
	H_RULE(p, LF_CAP_READ, LF_ALLOW, 1, "src/**");
	H_RULE(p, LF_CAP_READ, LF_DENY, 2, "src/secret/**");
	assert_null(h_grant(compile(LF_ASK, ROOT), P("src")));
}

static void other_class_deny_does_not_amputate_read_allow(void **state)
{
	(void)state;
	struct lf_policy *p = policy(LF_ASK);
	H_RULE(p, LF_CAP_READ, LF_ALLOW, 1, "src/**");
	H_RULE(p, LF_CAP_WRITE, LF_DENY, 2, "src/secret/**");
	const struct lf_grant *g = h_grant(compile(LF_ASK, ROOT), P("src"));
	assert_non_null(g);
	assert_int_equal(g->access, LF_ACCESS_RO);
}

static void disjoint_same_class_deny_keeps_allow(void **state)
{
	(void)state;
	struct lf_policy *p = policy(LF_ASK);
	H_RULE(p, LF_CAP_READ, LF_ALLOW, 1, "src/**");
	H_RULE(p, LF_CAP_READ, LF_DENY, 2, "other/**");
	const struct lf_grant *g = h_grant(compile(LF_ASK, ROOT), P("src"));
	assert_non_null(g);
	assert_int_equal(g->access, LF_ACCESS_RO);
}

static void ancestor_same_class_deny_also_drops_allow(void **state)
{
	(void)state;
	struct lf_policy *p = policy(LF_ASK);
	H_RULE(p, LF_CAP_READ, LF_ALLOW, 1, "src/sub/**");
	H_RULE(p, LF_CAP_READ, LF_DENY, 2, "src/**");
	assert_null(h_grant(compile(LF_ASK, ROOT), P("src/sub")));
}

static void sibling_prefix_is_not_a_descendant(void **state)
{
	(void)state;
	struct lf_policy *p = policy(LF_ASK);
	H_RULE(p, LF_CAP_READ, LF_ALLOW, 1, "src2/**");
	H_RULE(p, LF_CAP_READ, LF_DENY, 2, "src/**");
	assert_non_null(h_grant(compile(LF_ASK, ROOT), P("src2")));
}

static void accesses_union_on_a_shared_root(void **state)
{
	(void)state;
	struct lf_policy *p = policy(LF_ASK);
	H_RULE(p, LF_CAP_READ, LF_ALLOW, 1, "src/**");
	H_RULE(p, LF_CAP_WRITE, LF_ALLOW, 2, "src/**");
	struct lf_plan *plan = compile(LF_ASK, ROOT);
	const struct lf_grant *g = h_grant(plan, P("src"));
	assert_non_null(g);
	assert_true(g->access & LF_ACCESS_RO);
	assert_true(g->access & LF_ACCESS_RW);
	size_t same = 0;
	for (size_t i = 0; i < lf_plan_grant_count(plan); i++)
		same += strcmp(lf_plan_grant(plan, i)->abs_root, P("src")) == 0;
	assert_int_equal(same, 1);
}

static void same_root_drops_rw_but_keeps_ro_under_a_write_deny(void **state)
{
	(void)state;
	struct lf_policy *p = policy(LF_ASK);
	H_RULE(p, LF_CAP_READ, LF_ALLOW, 1, "src/**");
	H_RULE(p, LF_CAP_WRITE, LF_ALLOW, 2, "src/**");
	H_RULE(p, LF_CAP_WRITE, LF_DENY, 3, "src/secret/**");
	const struct lf_grant *g = h_grant(compile(LF_ASK, ROOT), P("src"));
	assert_non_null(g);
	assert_int_equal(g->access, LF_ACCESS_RO);
	assert_false(g->access & LF_ACCESS_RW);
}

static void static_prefix_of_literal_file_is_the_file_itself(void **state)
{
	(void)state;
	H_RULE(policy(LF_ASK), LF_CAP_READ, LF_ALLOW, 1, "src/lib.rs");
	assert_non_null(h_grant(compile(LF_ASK, ROOT), P("src/lib.rs")));
}

static void default_posture_mirrors_resolved_fallback(void **state)
{
	(void)state;
	const lf_posture postures[] = { LF_ALLOW, LF_ASK, LF_DENY };
	for (size_t i = 0; i < 3; i++) {
		H_RULE(policy(postures[i]), LF_CAP_READ, LF_ALLOW, 1, "src/**");
		struct lf_plan *plan = compile(postures[i], ROOT);
		assert_int_equal(lf_plan_default_posture(plan), postures[i]);
		teardown(NULL);
	}
}

static void trailing_slash_on_project_root_is_normalised(void **state)
{
	(void)state;
	H_RULE(policy(LF_ASK), LF_CAP_READ, LF_ALLOW, 1, "src/**");
	struct lf_plan *plan = compile(LF_ASK, ROOT "/");
	assert_non_null(h_grant(plan, P("src")));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(none_eff_yields_no_plan, teardown),
		cmocka_unit_test_teardown(policy_with_no_allow_still_yields_some_plan, teardown),
		cmocka_unit_test_teardown(read_maps_to_ro, teardown),
		cmocka_unit_test_teardown(write_and_delete_map_to_rw, teardown),
		cmocka_unit_test_teardown(bash_only_policy_produces_no_path_grant, teardown),
		cmocka_unit_test_teardown(root_glob_with_same_class_deny_drops_root_grant,
					  teardown),
		cmocka_unit_test_teardown(descendant_same_class_deny_drops_overlapping_allow,
					  teardown),
		cmocka_unit_test_teardown(other_class_deny_does_not_amputate_read_allow, teardown),
		cmocka_unit_test_teardown(disjoint_same_class_deny_keeps_allow, teardown),
		cmocka_unit_test_teardown(ancestor_same_class_deny_also_drops_allow, teardown),
		cmocka_unit_test_teardown(sibling_prefix_is_not_a_descendant, teardown),
		cmocka_unit_test_teardown(accesses_union_on_a_shared_root, teardown),
		cmocka_unit_test_teardown(same_root_drops_rw_but_keeps_ro_under_a_write_deny,
					  teardown),
		cmocka_unit_test_teardown(static_prefix_of_literal_file_is_the_file_itself,
					  teardown),
		cmocka_unit_test_teardown(default_posture_mirrors_resolved_fallback, teardown),
		cmocka_unit_test_teardown(trailing_slash_on_project_root_is_normalised, teardown),
	};
	return cmocka_run_group_tests_name("seed", tests, NULL, NULL);
}
