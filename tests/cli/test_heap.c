/* SPDX-License-Identifier: MIT */
/*
 * The command-line tool's room for large policies (src/cli/heap.c). What
 * it promises is counted, not timed: the pages of the room are present
 * before they are used (the page faults the process takes, counted by a
 * perf software counter: getrusage's ru_minflt would count the pages
 * MADV_POPULATE_WRITE makes present as faults too), a small
 * document gets none, the room is capped, and lf_cli_heap_release gives
 * it back (the resident set, /proc/self/statm). Each case runs in a child
 * of its own, so that its allocator starts as a launch's does, and
 * reports its counts to the parent, which asserts. The room is glibc's
 * allocator's: under valgrind or AddressSanitizer, which bring their own,
 * the cases skip.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "cli/cli.h"
#include "landfence.h"

#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#else
#define RUNNING_ON_VALGRIND 0
#endif
#if defined(__SANITIZE_ADDRESS__)
#define OWN_ALLOCATOR 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define OWN_ALLOCATOR 1
#endif
#endif
#ifndef OWN_ALLOCATOR
#define OWN_ALLOCATOR 0
#endif

#define MIB ((size_t)1 << 20)
#define NCOUNTS 4

static void skip_without_glibc_malloc(void)
{
	if (OWN_ALLOCATOR || RUNNING_ON_VALGRIND)
		skip();
}

/* A counter of the page faults this process takes from now on, or -1
 * when perf events are not open to it (perf_event_paranoid). */
static int fault_counter(void)
{
	struct perf_event_attr a = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(a),
		.config = PERF_COUNT_SW_PAGE_FAULTS,
		.exclude_kernel = 1,
		.exclude_hv = 1,
	};

	return (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
}

static long faults(int fd)
{
	long long n;

	if (read(fd, &n, sizeof(n)) != (ssize_t)sizeof(n))
		_exit(3);
	return (long)n;
}

/* The parent's side: a child without a counter reported -1. */
static void skip_without_counter(const long *counts)
{
	if (counts[0] < 0) {
		print_message("perf events are closed to this user: skipped\n");
		skip();
	}
}

static long resident_kib(void)
{
	long size, resident;
	FILE *f = fopen("/proc/self/statm", "re");

	if (!f)
		return -1;
	if (fscanf(f, "%ld %ld", &size, &resident) != 2)
		resident = -1;
	fclose(f);
	return resident < 0 ? -1 : resident * (sysconf(_SC_PAGESIZE) / 1024);
}

/* Runs fn(arg, counts) in a child; its counts come back through a pipe. */
static void in_child(void (*fn)(long arg, long *counts), long arg, long *counts)
{
	int fds[2], status;
	pid_t pid;

	assert_int_equal(pipe(fds), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		long c[NCOUNTS] = { 0 };

		close(fds[0]);
		fn(arg, c);
		_exit(write(fds[1], c, sizeof(c)) == (ssize_t)sizeof(c) ? 0 : 1);
	}
	close(fds[1]);
	assert_int_equal(read(fds[0], counts, NCOUNTS * sizeof(long)),
			 (ssize_t)(NCOUNTS * sizeof(long)));
	close(fds[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

/* ~6 MiB in 4,000 blocks, each written: a policy's tree is such blocks. */
static void use_blocks(long reserve, long *counts)
{
	enum {
		N = 4000,
		SIZE = 1500
	};
	static char *blocks[N];
	int fd = fault_counter();
	long before;

	if (fd < 0) {
		counts[0] = -1;
		return;
	}
	if (reserve)
		lf_cli_heap_reserve((size_t)reserve);
	before = faults(fd);
	for (int i = 0; i < N; i++) {
		blocks[i] = malloc(SIZE);
		if (!blocks[i])
			_exit(2);
		memset(blocks[i], i & 0xff, SIZE);
	}
	counts[0] = faults(fd) - before;
	close(fd);
	for (int i = 0; i < N; i++)
		free(blocks[i]);
}

static void test_reserve_makes_pages_present(void **state)
{
	long with[NCOUNTS], without[NCOUNTS];
	(void)state;
	skip_without_glibc_malloc();

	in_child(use_blocks, 0, without);
	skip_without_counter(without);
	in_child(use_blocks, (long)(8 * MIB), with);
	/* ~1,500 pages: each is a fault without the room. */
	assert_true(without[0] > 1000);
	assert_true(with[0] * 10 < without[0]);
}

/* A policy of n rules, as the launch benchmark writes one. */
static char *policy_text(int n, size_t *len)
{
	size_t size = 64 + (size_t)n * 96, k;
	char *text = malloc(size);

	if (!text)
		return NULL;
	k = (size_t)snprintf(text, size, "{\"version\": 1, \"fallback\": \"deny\", \"rules\": [");
	for (int i = 0; i < n; i++)
		k += (size_t)snprintf(text + k, size - k,
				      "%s\n{\"effect\": \"allow\", \"capability\": \"%s\", "
				      "\"paths\": [\"p%02d/d%05d/**\"]}",
				      i ? "," : "", i % 2 ? "write" : "read", i / 1000, i);
	k += (size_t)snprintf(text + k, size - k, "]}\n");
	*len = k;
	return text;
}

/* Parses a policy of `rules` rules; room for it when counts[3] asks. */
static void parse_policy(long arg, long *counts)
{
	int rules = (int)(arg >> 1);
	struct lf_policy *p = NULL;
	struct lf_diag diag;
	size_t len = 0;
	char *text = policy_text(rules, &len);
	int fd = fault_counter();
	long before, kib;

	if (!text)
		_exit(2);
	if (arg & 1)
		lf_cli_heap_room();
	kib = resident_kib();
	before = fd < 0 ? 0 : faults(fd);
	counts[1] = lf_policy_parse(text, len, "policy.json", LF_LAYER_PROJECT, &p, &diag);
	counts[0] = fd < 0 ? -1 : faults(fd) - before;
	counts[2] = resident_kib() - kib;
	if (fd >= 0)
		close(fd);
	counts[3] = (long)len;
	lf_policy_free(p);
	free(text);
}

static void test_room_for_a_large_policy(void **state)
{
	long with[NCOUNTS], without[NCOUNTS];
	(void)state;
	skip_without_glibc_malloc();

	in_child(parse_policy, 5000L << 1, without);
	in_child(parse_policy, (5000L << 1) | 1, with);
	assert_int_equal(without[1], 0);
	assert_int_equal(with[1], 0);
	assert_true(with[3] >= 64 * 1024);
	skip_without_counter(without);
	/* ~357 KB of text: ~1,500 pages, each a fault without the room. */
	assert_true(without[0] > 500);
	assert_true(with[0] * 4 < without[0]);
}

static void test_no_room_for_a_small_policy(void **state)
{
	long with[NCOUNTS], without[NCOUNTS];
	(void)state;
	skip_without_glibc_malloc();

	/* 500 rules: ~36 KB of text, below the 64 KiB the room needs. */
	in_child(parse_policy, 500L << 1, without);
	in_child(parse_policy, (500L << 1) | 1, with);
	assert_int_equal(with[1], 0);
	assert_true(with[3] < 64 * 1024);
	skip_without_counter(without);
	/* ~150 pages, faulted in as they are used, with the room asked for
	 * as without it (a room would leave a tenth). */
	assert_true(without[0] > 100);
	assert_true(with[0] * 2 > without[0]);
}

/* counts: resident growth after the room, then after the release. */
static void reserve_release(long reserve, long *counts)
{
	long base = resident_kib(), held;

	lf_cli_heap_reserve((size_t)reserve);
	held = resident_kib();
	lf_cli_heap_release();
	counts[0] = held - base;
	counts[1] = resident_kib() - base;
}

static void test_release_gives_the_room_back(void **state)
{
	long c[NCOUNTS];
	(void)state;
	skip_without_glibc_malloc();

	in_child(reserve_release, (long)(16 * MIB), c);
	assert_true(c[0] >= 15 * 1024);
	assert_true(c[1] < 1024);
}

static void test_reserve_is_capped(void **state)
{
	long c[NCOUNTS];
	(void)state;
	skip_without_glibc_malloc();

	/* Asked for 1 GiB: the room is at most 24 MiB. */
	in_child(reserve_release, (long)(1024 * MIB), c);
	assert_true(c[0] >= 23 * 1024);
	assert_true(c[0] <= 25 * 1024);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reserve_makes_pages_present),
		cmocka_unit_test(test_room_for_a_large_policy),
		cmocka_unit_test(test_no_room_for_a_small_policy),
		cmocka_unit_test(test_release_gives_the_room_back),
		cmocka_unit_test(test_reserve_is_capped),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
