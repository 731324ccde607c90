/* SPDX-License-Identifier: MIT */
/*
 * The host facts (src/fs/hostfacts.h): the look at a directory for
 * entries others cannot read, on a real tree and on /etc itself; the
 * password database's homes, resolved through the realpath memo, against
 * getpwent and realpath(3) directly.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/sandbox.h"
#include "core/tables.h"
#include "fs/hostfacts.h"
#include "launch/launch.h"

static char base[64];

static int setup(void **state)
{
	(void)state;
	snprintf(base, sizeof(base), "/tmp/lf-hostfacts-test.XXXXXX");
	return mkdtemp(base) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	return lf_rundir_remove(base) == 0 ? 0 : -1;
}

static void make(const char *rel, mode_t mode, bool dir)
{
	char p[256];

	snprintf(p, sizeof(p), "%s/%s", base, rel);
	if (dir) {
		assert_int_equal(mkdir(p, 0700), 0);
	} else {
		int fd = open(p, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);

		assert_true(fd >= 0);
		assert_int_equal(close(fd), 0);
	}
	assert_int_equal(chmod(p, mode), 0); /* not the umask's */
}

static const struct lf_typed_path *found(const struct lf_etc_scan *s, const char *rel)
{
	char p[256];

	snprintf(p, sizeof(p), "%s/%s", base, rel);
	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->v[i].path, p) == 0)
			return &s->v[i];
	return NULL;
}

/* What others cannot read is found, with its type; what they can is not;
 * a hidden directory is not entered; links are not judged here. */
static void test_etc_scan_tree(void **state)
{
	struct lf_etc_scan s;
	char p[256], q[256];

	(void)state;
	make("public", 0644, false);
	make("secret", 0600, false);
	make("group-only", 0640, false);
	make("locked", 0700, true);
	make("locked/inside", 0644, false);
	make("listed-only", 0751, true); /* others may enter, not list */
	make("open", 0755, true);
	make("open/key", 0400, false);
	make("open/readme", 0444, false);
	snprintf(p, sizeof(p), "%s/secret", base);
	snprintf(q, sizeof(q), "%s/open/link", base);
	assert_int_equal(symlink(p, q), 0);

	assert_int_equal(lf_etc_scan(base, &s), 0);
	assert_null(s.err);
	assert_int_equal(s.n, 5);
	assert_int_equal(found(&s, "secret")->type, LF_FT_FILE);
	assert_int_equal(found(&s, "group-only")->type, LF_FT_FILE);
	assert_int_equal(found(&s, "locked")->type, LF_FT_DIR);
	assert_int_equal(found(&s, "listed-only")->type, LF_FT_DIR);
	assert_int_equal(found(&s, "open/key")->type, LF_FT_FILE);
	assert_null(found(&s, "public"));
	assert_null(found(&s, "locked/inside"));
	assert_null(found(&s, "open/readme"));
	assert_null(found(&s, "open/link"));
	lf_etc_scan_fini(&s);
}

/* /etc: the shadow file is in the list on any system that has one, with
 * every row of the built-in list present; nothing others can read is. */
static void test_etc_scan_etc(void **state)
{
	struct lf_etc_scan s;
	bool shadow = false;

	(void)state;
	assert_int_equal(lf_etc_scan("/etc", &s), 0);
	for (size_t i = 0; i < s.n; i++) {
		struct stat st;

		shadow |= strcmp(s.v[i].path, "/etc/shadow") == 0;
		assert_int_equal(lstat(s.v[i].path, &st), 0);
		if (S_ISREG(st.st_mode) && (st.st_mode & S_IROTH) && !lf_etc_is_hidden(s.v[i].path))
			fail_msg("%s is readable by others but listed", s.v[i].path);
	}
	assert_true(shadow || access("/etc/shadow", F_OK) != 0);
	lf_etc_scan_fini(&s);
}

/* The built-in list for /etc seen as others see it: exactly its literal
 * rows that exist and that others could read (every directory above them
 * searchable by others); the id-mapped mount refuses the others. */
static void test_etc_builtin_scan(void **state)
{
	struct lf_etc_scan s;

	(void)state;
	assert_int_equal(lf_etc_builtin_scan(&s), 0);
	assert_null(s.err);
	for (size_t i = 0; lf_etc_hidden[i]; i++) {
		const char *h = lf_etc_hidden[i];
		struct stat st;
		bool want = false, listed = false;

		if (strpbrk(h, "*?[\\"))
			continue;
		if (lstat(h, &st) == 0 && !S_ISLNK(st.st_mode)) {
			want = S_ISDIR(st.st_mode) ? (st.st_mode & (S_IROTH | S_IXOTH)) != 0
						   : (st.st_mode & S_IROTH) != 0;
			char up[PATH_MAX];
			snprintf(up, sizeof(up), "%s", h);
			for (char *sl; want && (sl = strrchr(up, '/')) && sl - up > 4;) {
				*sl = '\0';
				want = stat(up, &st) == 0 && (st.st_mode & S_IXOTH);
			}
		}
		for (size_t k = 0; k < s.n; k++)
			listed |= strcmp(s.v[k].path, h) == 0;
		if (want != listed)
			fail_msg("%s: %s", h, want ? "others can read it, not listed" : "listed");
	}
	for (size_t k = 0; k < s.n; k++)
		assert_true(lf_etc_is_hidden(s.v[k].path));
	lf_etc_scan_fini(&s);
}

/* The homes are getpwent's, each resolved as realpath(3) resolves it (or
 * as written when it cannot be), in the database's order. */
static void test_homes_read(void **state)
{
	struct lf_homes h;
	size_t k = 0;

	(void)state;
	assert_int_equal(lf_homes_read(&h), 0);
	setpwent();
	for (struct passwd *pw; (pw = getpwent());) {
		if (!pw->pw_dir || pw->pw_dir[0] != '/' || strcmp(pw->pw_dir, "/") == 0)
			continue;
		char *real = realpath(pw->pw_dir, NULL);

		assert_true(k < h.n);
		assert_string_equal(h.v[k].dir, real ? real : pw->pw_dir);
		assert_string_equal(h.v[k].name, pw->pw_name);
		assert_int_equal(h.v[k].uid, pw->pw_uid);
		free(real);
		k++;
	}
	endpwent();
	assert_int_equal(k, h.n);
	assert_true(h.n > 0); /* root, at least */
	lf_homes_fini(&h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_etc_scan_tree),
		cmocka_unit_test(test_etc_scan_etc),
		cmocka_unit_test(test_etc_builtin_scan),
		cmocka_unit_test(test_homes_read),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
