/* SPDX-License-Identifier: MIT */
/*
 * The enforcer port (the seed's SandboxEnforcer contract): the Landlock
 * enforcer restricts the calling process to the plan, in a forked child;
 * the no-op enforcer changes nothing and says Unsupported; a deny fallback
 * the kernel cannot fully enforce is KernelTooOld and changes nothing.
 */
#include "helpers.h"

/* Child outcomes, as exit codes. */
enum {
	C_OK = 0,
	C_ENFORCE_FAILED = 10,
	C_WRONG_STATUS = 11,
	C_ALLOWED_REFUSED = 12,
	C_DENIED_READABLE = 13,
	C_OUTSIDE_READABLE = 14,
	C_OUTSIDE_REFUSED = 15,
	C_WRONG_ERROR = 16,
};

static int readable(const char *path)
{
	char c;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	ssize_t n = read(fd, &c, 1);
	close(fd);
	return n < 0 ? -errno : 0;
}

static const struct spec_rule rules[] = {
	{ LF_CAP_READ, LF_ALLOW, "src/**" },
	{ LF_CAP_READ, LF_DENY, "other/**" },
};

struct fixture {
	char root[PATH_MAX], src[PATH_MAX], other[PATH_MAX], outside[PATH_MAX];
	char outside_dir[PATH_MAX];
};

static void fixture_make(struct fixture *f)
{
	tmp_tree(f->root);
	tpath(f->src, f->root, "src/a.txt");
	tpath(f->other, f->root, "other/b.txt");
	put(f->src, "a");
	put(f->other, "b");
	tmp_tree(f->outside_dir);
	tpath(f->outside, f->outside_dir, "c.txt");
	put(f->outside, "c");
}

static void fixture_fini(struct fixture *f)
{
	rm_rf(f->root);
	rm_rf(f->outside_dir);
}

static struct lf_plan *compile(struct lf_effective **eff, struct lf_policy **pol, const char *root,
			       lf_posture fb, const struct spec_rule *r, size_t n)
{
	struct lf_context ctx = { .project_root = root };
	struct lf_plan *plan = NULL;

	*pol = policy_make(fb, r, n);
	const struct lf_policy *layers[1] = { *pol };
	assert_int_equal(lf_effective_resolve(layers, 1, eff), 0);
	assert_int_equal(lf_plan_compile(*eff, &ctx, &plan), 0);
	assert_non_null(plan);
	return plan;
}

/* The sandbox value of a compiled policy, as lf_spawn builds it. */
static int value_of(const struct lf_effective *eff, const struct lf_plan *plan, const char *root,
		    struct lf_sandbox **sb)
{
	struct lf_sandbox_opts o = { .size = sizeof(o), .project_root = root };
	struct lf_diag d;

	return lf_sandbox_new(eff, plan, &o, sb, &d);
}

static int wait_child(pid_t pid)
{
	int st;

	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	return WEXITSTATUS(st);
}

static void test_landlock_enforcer_restricts_to_the_plan(void **state)
{
	struct fixture f;
	struct lf_policy *pol;
	struct lf_effective *eff;
	struct lf_plan *plan;
	(void)state;

	if (!need_landlock())
		return;
	/* LANDFENCE_ABI_MAX=0 makes the enforcer behave as if Landlock were
	 * absent, by design (the Unsupported path is the next test): there is
	 * nothing to enforce. A package build emulates a builder without
	 * Landlock that way. */
	if (lf_landlock_abi(-1) == 0)
		skip();
	assert_int_equal(lf_enforcer_landlock()->kind, LF_SANDBOX_LANDLOCK);
	fixture_make(&f);
	plan = compile(&eff, &pol, f.root, LF_ASK, rules, 2);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct lf_status st;
		struct lf_diag d = { 0 };
		struct lf_sandbox *sb = NULL;
		const struct lf_enforcer *en = lf_enforcer_landlock();
		if (value_of(eff, plan, f.root, &sb) != 0 || en->enforce(en, sb, &st, &d) != 0)
			_exit(C_ENFORCE_FAILED);
		if (st.kind != LF_STATUS_ENFORCED)
			_exit(C_WRONG_STATUS);
		if (readable(f.src) != 0)
			_exit(C_ALLOWED_REFUSED);
		if (readable(f.other) != -EACCES)
			_exit(C_DENIED_READABLE);
		if (readable(f.outside) != -EACCES)
			_exit(C_OUTSIDE_READABLE);
		_exit(C_OK);
	}
	assert_int_equal(wait_child(pid), C_OK);
	/* The parent was never restricted. */
	assert_int_equal(readable(f.outside), 0);
	lf_plan_free(plan);
	lf_effective_free(eff);
	lf_policy_free(pol);
	fixture_fini(&f);
}

static void test_unsupported_enforcer_is_a_no_op(void **state)
{
	struct fixture f;
	struct lf_policy *pol;
	struct lf_effective *eff;
	struct lf_plan *plan;
	(void)state;

	assert_int_equal(lf_enforcer_unsupported()->kind, LF_SANDBOX_UNSUPPORTED);
	fixture_make(&f);
	plan = compile(&eff, &pol, f.root, LF_ASK, rules, 2);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct lf_status st;
		struct lf_sandbox *sb = NULL;
		const struct lf_enforcer *en = lf_enforcer_unsupported();
		if (value_of(eff, plan, f.root, &sb) != 0 || en->enforce(en, sb, &st, NULL) != 0)
			_exit(C_ENFORCE_FAILED);
		if (st.kind != LF_STATUS_UNSUPPORTED)
			_exit(C_WRONG_STATUS);
		if (readable(f.other) != 0 || readable(f.outside) != 0)
			_exit(C_OUTSIDE_REFUSED);
		_exit(C_OK);
	}
	assert_int_equal(wait_child(pid), C_OK);
	lf_plan_free(plan);
	lf_effective_free(eff);
	lf_policy_free(pol);
	fixture_fini(&f);
}

/* Fallback deny with a write fence at ABI 2 (no truncate right): there is
 * no value to enforce (KernelTooOld) and the process stays unrestricted. */
static void test_landlock_enforcer_kernel_too_old(void **state)
{
	static const struct spec_rule wrules[] = {
		{ LF_CAP_READ, LF_ALLOW, "src/**" },
		{ LF_CAP_WRITE, LF_DENY, "other/**" },
	};
	struct fixture f;
	struct lf_policy *pol;
	struct lf_effective *eff;
	struct lf_plan *plan;
	(void)state;

	if (!need_landlock())
		return;
	fixture_make(&f);
	plan = compile(&eff, &pol, f.root, LF_DENY, wrules, 2);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct lf_sandbox *sb = NULL;
		if (setenv("LANDFENCE_ABI_MAX", "2", 1) != 0)
			_exit(C_ENFORCE_FAILED);
		if (value_of(eff, plan, f.root, &sb) != -EOPNOTSUPP || sb)
			_exit(C_WRONG_ERROR);
		if (readable(f.outside) != 0)
			_exit(C_OUTSIDE_REFUSED);
		_exit(C_OK);
	}
	assert_int_equal(wait_child(pid), C_OK);
	lf_plan_free(plan);
	lf_effective_free(eff);
	lf_policy_free(pol);
	fixture_fini(&f);
}

static void test_enforcer_rejects_bad_arguments(void **state)
{
	struct lf_status st;
	(void)state;

	const struct lf_enforcer *en = lf_enforcer_landlock();
	assert_int_equal(en->enforce(en, NULL, &st, NULL), -EINVAL);
	en = lf_enforcer_unsupported();
	assert_int_equal(en->enforce(en, NULL, &st, NULL), -EINVAL);
}

/* The enforcer applies the whole value: a policy's "host" section grants
 * outside the project as `landfence run` does (it was dropped when the
 * enforcer built its rules from the plan alone). */
static void test_landlock_enforcer_applies_host_grants(void **state)
{
	struct fixture f;
	struct lf_policy *pol = NULL;
	struct lf_effective *eff = NULL;
	struct lf_plan *plan = NULL;
	struct lf_diag d;
	char text[2 * PATH_MAX];
	(void)state;

	if (!need_landlock())
		return;
	/* LANDFENCE_ABI_MAX=0 hides Landlock: a deny fallback is then
	 * KernelTooOld, which test_landlock_enforcer_kernel_too_old checks. */
	if (lf_landlock_abi(-1) == 0)
		skip();
	fixture_make(&f);
	snprintf(text, sizeof(text),
		 "{\"version\": 1, \"fallback\": \"deny\", \"rules\": ["
		 "{\"effect\": \"allow\", \"capability\": \"read\", \"paths\": [\"src/**\"]}],"
		 " \"host\": {\"read\": [\"%s\"]}}",
		 f.outside_dir);
	assert_int_equal(lf_policy_parse(text, strlen(text), "host.json", LF_LAYER_LOCAL, &pol, &d),
			 0);
	const struct lf_policy *layers[1] = { pol };
	struct lf_context ctx = { .project_root = f.root };
	assert_int_equal(lf_effective_resolve(layers, 1, &eff), 0);
	assert_int_equal(lf_plan_compile(eff, &ctx, &plan), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct lf_status st;
		struct lf_sandbox *sb = NULL;
		const struct lf_enforcer *en = lf_enforcer_landlock();
		if (value_of(eff, plan, f.root, &sb) != 0 || en->enforce(en, sb, &st, &d) != 0)
			_exit(C_ENFORCE_FAILED);
		if (readable(f.outside) != 0)
			_exit(C_ALLOWED_REFUSED);
		if (readable(f.other) != -EACCES)
			_exit(C_DENIED_READABLE);
		_exit(C_OK);
	}
	assert_int_equal(wait_child(pid), C_OK);
	lf_plan_free(plan);
	lf_effective_free(eff);
	lf_policy_free(pol);
	fixture_fini(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_landlock_enforcer_restricts_to_the_plan),
		cmocka_unit_test(test_unsupported_enforcer_is_a_no_op),
		cmocka_unit_test(test_landlock_enforcer_kernel_too_old),
		cmocka_unit_test(test_enforcer_rejects_bad_arguments),
		cmocka_unit_test(test_landlock_enforcer_applies_host_grants),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
