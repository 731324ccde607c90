/* SPDX-License-Identifier: MIT */
/*
 * doctor's user-namespace line (src/cli/apparmor.c) on every state the
 * kernel can be in: the sysctl absent, 0 or 1, and landfence unconfined,
 * under its own profile, under another one, or root. The files stand in
 * for /proc/sys/kernel/apparmor_restrict_unprivileged_userns and
 * /proc/self/attr/apparmor/current, which this machine may not have; the
 * end-to-end test of doctor (tests/cli/test_cli.c) reads the real ones.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "cli/apparmor.h"

static char dir[64], sysctl[128], label[128];

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	assert_true(fputs(text, f) >= 0);
	assert_int_equal(fclose(f), 0);
}

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/lf-apparmor-XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	snprintf(sysctl, sizeof(sysctl), "%s/restrict", dir);
	snprintf(label, sizeof(label), "%s/current", dir);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	unlink(sysctl);
	unlink(label);
	return rmdir(dir);
}

/* The line for a sysctl text (NULL: absent) and a label text (NULL:
 * unreadable), unprivileged or not. */
static const char *line_for(const char *restrict_text, const char *label_text, bool root,
			    struct lf_apparmor_userns *a)
{
	static char buf[512];

	unlink(sysctl);
	unlink(label);
	if (restrict_text)
		put(sysctl, restrict_text);
	if (label_text)
		put(label, label_text);
	assert_int_equal(lf_apparmor_userns_read(sysctl, label, a), 0);
	return lf_apparmor_userns_text(a, root, buf, sizeof(buf));
}

static void test_no_sysctl(void **state)
{
	struct lf_apparmor_userns a;
	(void)state;

	const char *t = line_for(NULL, NULL, false, &a);
	assert_int_equal(a.restrict_userns, -1);
	assert_string_equal(a.label, "");
	assert_non_null(strstr(t, "not restricted by AppArmor"));
	assert_non_null(strstr(t, "no kernel.apparmor_restrict_unprivileged_userns"));
}

static void test_sysctl_off(void **state)
{
	struct lf_apparmor_userns a;
	(void)state;

	const char *t = line_for("0\n", "unconfined\n", false, &a);
	assert_int_equal(a.restrict_userns, 0);
	assert_string_equal(a.label, "unconfined");
	assert_non_null(strstr(t, "not restricted by AppArmor"));
	assert_non_null(strstr(t, "= 0"));
}

static void test_restricted_unconfined(void **state)
{
	struct lf_apparmor_userns a;
	(void)state;

	/* Ubuntu 24.04, landfence from a build directory: no profile. */
	const char *t = line_for("1\n", "unconfined\n", false, &a);
	assert_int_equal(a.restrict_userns, 1);
	assert_non_null(strstr(t, "restricts unprivileged ones"));
	assert_non_null(strstr(t, "cannot create one"));
	assert_non_null(strstr(t, "/etc/apparmor.d/landfence"));
	/* An unreadable label is taken as no profile. */
	t = line_for("1\n", NULL, false, &a);
	assert_non_null(strstr(t, "cannot create one"));
}

static void test_restricted_own_profile(void **state)
{
	struct lf_apparmor_userns a;
	(void)state;

	const char *t = line_for("1\n", "landfence (unconfined)\n", false, &a);
	assert_string_equal(a.label, "landfence (unconfined)");
	assert_non_null(strstr(t, "runs under its AppArmor profile (landfence (unconfined))"));
	assert_null(strstr(t, "cannot"));
	/* A profile whose name only starts with landfence is another one. */
	t = line_for("1\n", "landfenced (enforce)\n", false, &a);
	assert_non_null(strstr(t, "the AppArmor profile landfenced (enforce), whose rules decide"));
}

static void test_restricted_root(void **state)
{
	struct lf_apparmor_userns a;
	(void)state;

	const char *t = line_for("1\n", "unconfined\n", true, &a);
	assert_non_null(strstr(t, "runs as root here, which the restriction does not cover"));
	assert_null(strstr(t, "cannot"));
}

static void test_label_control_characters(void **state)
{
	struct lf_apparmor_userns a;
	(void)state;

	line_for("1\n", "evil\x1b[2Jprofile\n", false, &a);
	assert_string_equal(a.label, "evil?[2Jprofile");
}

static void test_bad_sysctl(void **state)
{
	struct lf_apparmor_userns a;
	(void)state;

	unlink(sysctl);
	put(sysctl, "yes\n");
	assert_int_equal(lf_apparmor_userns_read(sysctl, label, &a), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_sysctl),
		cmocka_unit_test(test_sysctl_off),
		cmocka_unit_test(test_restricted_unconfined),
		cmocka_unit_test(test_restricted_own_profile),
		cmocka_unit_test(test_restricted_root),
		cmocka_unit_test(test_label_control_characters),
		cmocka_unit_test(test_bad_sysctl),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
