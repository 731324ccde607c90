/* SPDX-License-Identifier: MIT */
/*
 * The command-line tool's room for large policies (src/cli/heap.c). What
 * it promises is counted, not timed: the pages of the room are present
 * before they are used (the page faults the process takes), a large
 * document gets a room and a small one none (the anonymous resident set,
 * exactly, from /proc/self/smaps_rollup), the room is capped, an allocator the
 * user tuned is left alone, and lf_cli_heap_release gives the room back.
 * Each case runs in a child of its own, so that its allocator starts as a
 * launch's does, and reports its counts to the parent, which asserts.
 *
 * The room is glibc's allocator's and MADV_POPULATE_WRITE's (Linux 5.14):
 * under valgrind or AddressSanitizer, which bring their own allocators,
 * or on an older kernel, the cases skip. The faults a parse takes are
 * counted by a perf software counter (getrusage's would count the pages
 * the room makes present too); where perf events are closed to the user,
 * that one case skips. The program runs without MALLOC_*_ variables and
 * glibc.malloc tunables (main execs itself again without them): with
 * MALLOC_PERTURB_, which meson sets, malloc writes every block it hands
 * out, the room included.
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <malloc.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
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

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

#define MIB ((size_t)1 << 20)
#define NCOUNTS 4

static long page_size;
static bool no_populate;

static void skip_without_room(void)
{
	if (OWN_ALLOCATOR || RUNNING_ON_VALGRIND || no_populate)
		skip();
}

/* Pages in `bytes`: the thresholds below hold for any page size. */
static long pages(size_t bytes)
{
	return (long)(bytes / (size_t)page_size);
}

static long minor_faults(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru) < 0)
		_exit(3);
	return ru.ru_minflt;
}

/* A counter of the page faults this process takes from user space from
 * now on, or -1 when perf events are not open to it. */
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

static long counted(int fd)
{
	long long n;

	if (read(fd, &n, sizeof(n)) != (ssize_t)sizeof(n))
		_exit(3);
	return (long)n;
}

/* The anonymous resident set in KiB, exactly (smaps_rollup walks the
 * pages; statm's count may lag on kernels with per-CPU counters). The
 * heap's pages only: the code a first parse runs is faulted in too, and
 * differs from one build to another (a package build counted 512 KiB of
 * it). */
static long resident_kib(void)
{
	char line[256];
	long kib = -1;
	FILE *f = fopen("/proc/self/smaps_rollup", "re");

	if (!f)
		_exit(3);
	while (kib < 0 && fgets(line, sizeof(line), f))
		if (sscanf(line, "Anonymous: %ld kB", &kib) != 1)
			kib = -1;
	fclose(f);
	if (kib < 0)
		_exit(3);
	return kib;
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

/* ~6 MiB in 4,000 blocks, each written, as a policy's tree is: the
 * faults they take, counted after the room (if any) was made. */
static void use_blocks(long reserve, long *counts)
{
	enum {
		N = 4000,
		SIZE = 1500
	};
	static char *blocks[N];
	long before;

	if (reserve)
		lf_cli_heap_reserve((size_t)reserve);
	before = minor_faults();
	for (int i = 0; i < N; i++) {
		blocks[i] = malloc(SIZE);
		if (!blocks[i])
			_exit(2);
		memset(blocks[i], i & 0xff, SIZE);
	}
	counts[0] = minor_faults() - before;
	for (int i = 0; i < N; i++)
		free(blocks[i]);
}

static void test_reserve_makes_pages_present(void **state)
{
	long with[NCOUNTS], without[NCOUNTS];
	(void)state;
	skip_without_room();

	in_child(use_blocks, 0, without);
	in_child(use_blocks, (long)(8 * MIB), with);
	/* 6 MB of blocks: without the room, one fault a page. */
	assert_true(without[0] > pages(6 * MIB) / 2);
	assert_true(with[0] * 10 < without[0]);
}

/* A policy of n rules, as the launch benchmark writes one, followed by
 * `pad` blank bytes (text the tree does not hold). */
static char *policy_text(int n, size_t pad, size_t *len)
{
	size_t size = 64 + (size_t)n * 96 + pad, k;
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
	memset(text + k, ' ', pad);
	*len = k + pad;
	return text;
}

/* arg: rules << 21 | blank KiB << 1 | room. counts: the parse's page
 * faults (perf; -1 when closed), its result, the resident growth (KiB),
 * the text's length. */
static void parse_policy(long arg, long *counts)
{
	struct lf_policy *p = NULL;
	struct lf_diag diag;
	size_t len = 0;
	char *text = policy_text((int)(arg >> 21), (size_t)((arg >> 1) & 0xfffff) << 10, &len);
	int fd = fault_counter();
	long before, kib;

	if (!text)
		_exit(2);
	if (arg & 1)
		lf_cli_heap_room();
	kib = resident_kib();
	before = fd < 0 ? 0 : counted(fd);
	counts[1] = lf_policy_parse(text, len, "policy.json", LF_LAYER_PROJECT, &p, &diag);
	counts[0] = fd < 0 ? -1 : counted(fd) - before;
	counts[2] = resident_kib() - kib;
	counts[3] = (long)len;
	if (fd >= 0)
		close(fd);
	lf_policy_free(p);
	free(text);
}

/* Parses a policy of `rules` rules and `blank_kib` KiB of blanks, after
 * a room if `room`, in a child: its counts, the parse's result checked. */
static void parsed_in_child(int rules, int blank_kib, bool room, long *counts)
{
	in_child(parse_policy, ((long)rules << 21) | ((long)blank_kib << 1) | room, counts);
	assert_int_equal(counts[1], 0);
}

static void test_room_spares_a_large_policy_its_faults(void **state)
{
	long with[NCOUNTS], without[NCOUNTS];
	(void)state;
	skip_without_room();

	parsed_in_child(5000, 0, false, without);
	parsed_in_child(5000, 0, true, with);
	assert_true(with[3] >= 64 * 1024);
	if (without[0] < 0) {
		print_message("perf events are closed to this user: skipped\n");
		skip();
	}
	/* ~357 KB of text, a tree of ~6 MB: one fault a page without the
	 * room. */
	assert_true(without[0] > pages(6 * MIB) / 4);
	assert_true(with[0] * 4 < without[0]);
}

static void test_room_for_a_large_document(void **state)
{
	long with[NCOUNTS], without[NCOUNTS];
	(void)state;
	skip_without_room();

	/* A small policy and 512 KiB of blanks: a tree of almost nothing,
	 * a room of 16 bytes per byte of text. */
	parsed_in_child(10, 512, false, without);
	parsed_in_child(10, 512, true, with);
	assert_true(with[3] >= 512 * 1024);
	assert_true(without[2] < 1024);
	assert_true(with[2] >= with[3] * 16 / 1024 - 1024);
	assert_true(with[2] <= with[3] * 16 / 1024 + 1024);
}

static void test_no_room_for_a_small_document(void **state)
{
	long with[NCOUNTS];
	(void)state;
	skip_without_room();

	/* 60 KiB of blanks: below the 64 KiB a room needs, whose ~1 MiB
	 * would show whole. */
	parsed_in_child(10, 60, true, with);
	assert_true(with[3] < 64 * 1024);
	assert_true(with[2] < 512);
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
	skip_without_room();

	in_child(reserve_release, (long)(12 * MIB), c);
	assert_true(c[0] >= 11 * 1024);
	assert_true(c[1] < 1024);
}

static void test_reserve_is_capped(void **state)
{
	long c[NCOUNTS];
	(void)state;
	skip_without_room();

	/* Asked for 1 GiB: the room is at most 16 MiB. */
	in_child(reserve_release, (long)(1024 * MIB), c);
	assert_true(c[0] >= 15 * 1024);
	assert_true(c[0] <= 17 * 1024);
}

static void tuned_reserve(long arg, long *counts)
{
	/* The allocator a user tuned is theirs: no room. */
	if (setenv("MALLOC_TOP_PAD_", "131072", 1) < 0)
		_exit(2);
	reserve_release(arg, counts);
}

static void test_tuned_allocator_left_alone(void **state)
{
	long c[NCOUNTS];
	(void)state;
	skip_without_room();

	in_child(tuned_reserve, (long)(12 * MIB), c);
	assert_true(c[0] < 1024);
}

/* The variables and tunables that tune glibc's allocator, which decide
 * what the cases count: main runs without them. */
static bool allocator_env(void)
{
	static const char *const vars[] = { "MALLOC_MMAP_THRESHOLD_", "MALLOC_TRIM_THRESHOLD_",
					    "MALLOC_TOP_PAD_",	      "MALLOC_ARENA_MAX",
					    "MALLOC_PERTURB_",	      "GLIBC_TUNABLES" };
	bool any = false;

	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++)
		if (getenv(vars[i])) {
			any = true;
			if (unsetenv(vars[i]) < 0)
				return false;
		}
	return any;
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reserve_makes_pages_present),
		cmocka_unit_test(test_room_spares_a_large_policy_its_faults),
		cmocka_unit_test(test_room_for_a_large_document),
		cmocka_unit_test(test_no_room_for_a_small_document),
		cmocka_unit_test(test_release_gives_the_room_back),
		cmocka_unit_test(test_reserve_is_capped),
		cmocka_unit_test(test_tuned_allocator_left_alone),
	};
	void *probe;

	(void)argc;
	/* Under valgrind /proc/self/exe is valgrind's own tool, and every
	 * case skips there anyway. */
	if (!OWN_ALLOCATOR && !RUNNING_ON_VALGRIND && allocator_env()) {
		execv("/proc/self/exe", argv);
		perror("test_heap: exec without the allocator's variables");
		return 1;
	}
	page_size = sysconf(_SC_PAGESIZE);
	if (page_size <= 0)
		return 1;
	probe = mmap(NULL, (size_t)page_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		     -1, 0);
	if (probe == MAP_FAILED)
		return 1;
	no_populate = madvise(probe, (size_t)page_size, MADV_POPULATE_WRITE) < 0;
	munmap(probe, (size_t)page_size);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
