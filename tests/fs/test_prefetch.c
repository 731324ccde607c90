/* SPDX-License-Identifier: MIT */
/*
 * The host facts gathered on threads (src/fs/prefetch.h): the look at a
 * directory for entries others cannot read, on a real tree; and the
 * prefetch handing over exactly what the same function finds when called
 * directly (the /etc look and the password database's homes), once, then
 * falling back to a look of its own; a root other than /etc never taken
 * from the thread. The threads are started once per process, so the
 * tests run in order in one process.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/sandbox.h"
#include "fs/prefetch.h"
#include "launch/launch.h"

static char base[64];

static int setup(void **state)
{
	(void)state;
	snprintf(base, sizeof(base), "/tmp/lf-prefetch-test.XXXXXX");
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

static int cmp_typed(const void *a, const void *b)
{
	return strcmp(((const struct lf_typed_path *)a)->path,
		      ((const struct lf_typed_path *)b)->path);
}

static void assert_same_scan(struct lf_etc_scan *a, struct lf_etc_scan *b)
{
	assert_int_equal(a->n, b->n);
	assert_int_equal(!a->err, !b->err);
	if (a->n) {
		qsort(a->v, a->n, sizeof(*a->v), cmp_typed);
		qsort(b->v, b->n, sizeof(*b->v), cmp_typed);
	}
	for (size_t i = 0; i < a->n; i++) {
		assert_string_equal(a->v[i].path, b->v[i].path);
		assert_int_equal(a->v[i].type, b->v[i].type);
	}
}

/* The threads' answers are the direct ones; each is handed over once.
 * Once with one thread for both facts (in a child: the threads start once
 * per process), then with a thread for each. */
static void same_answers(unsigned how)
{
	struct lf_etc_scan direct, got, again, other;
	struct lf_homes hd, hp, hagain;

	assert_int_equal(lf_etc_scan("/etc", &direct), 0);
	assert_int_equal(lf_homes_read(&hd), 0);

	lf_prefetch_start(LF_PREFETCH_ETC | LF_PREFETCH_HOMES | how);
	lf_prefetch_start(LF_PREFETCH_ETC | LF_PREFETCH_HOMES | how); /* once only */

	/* Another root is looked at now, never answered by the /etc thread. */
	assert_int_equal(lf_prefetch_etc(base, &other), 0);
	assert_non_null(found(&other, "secret"));
	lf_etc_scan_fini(&other);

	assert_int_equal(lf_prefetch_etc("/etc", &got), 0);
	assert_same_scan(&direct, &got);
	/* /etc/shadow is in the list on any system that has one. */
	if (access("/etc/shadow", F_OK) == 0) {
		bool shadow = false;

		for (size_t i = 0; i < got.n; i++)
			shadow |= strcmp(got.v[i].path, "/etc/shadow") == 0;
		assert_true(shadow);
	}
	assert_int_equal(lf_prefetch_etc("/etc", &again), 0); /* a look of its own */
	assert_same_scan(&direct, &again);

	assert_int_equal(lf_prefetch_homes(&hp), 0);
	assert_int_equal(hp.n, hd.n);
	for (size_t i = 0; i < hd.n; i++) {
		assert_string_equal(hp.v[i].dir, hd.v[i].dir);
		assert_string_equal(hp.v[i].name, hd.v[i].name);
		assert_int_equal(hp.v[i].uid, hd.v[i].uid);
	}
	assert_int_equal(lf_prefetch_homes(&hagain), 0);
	assert_int_equal(hagain.n, hd.n);
	lf_prefetch_end();
	lf_prefetch_end(); /* idempotent */

	lf_etc_scan_fini(&direct);
	lf_etc_scan_fini(&got);
	lf_etc_scan_fini(&again);
	lf_homes_fini(&hd);
	lf_homes_fini(&hp);
	lf_homes_fini(&hagain);
}

static void one_thread(void **state)
{
	(void)state;
	same_answers(LF_PREFETCH_THREAD_ONE);
}

static void test_prefetch_same_answers(void **state)
{
	int status = 0;
	pid_t pid;

	(void)state;
	/* One thread for both (the default below three processors), in a
	 * child whose failed assertion is its exit status; then a thread for
	 * each. */
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		const struct CMUnitTest one[] = { cmocka_unit_test(one_thread) };

		_exit(cmocka_run_group_tests_name("one thread", one, NULL, NULL) ? 1 : 0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	same_answers(LF_PREFETCH_THREAD_EACH);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_etc_scan_tree),
		cmocka_unit_test(test_prefetch_same_answers),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
