/* SPDX-License-Identifier: MIT */
/*
 * Room for a large policy, made in one step. A launch under a
 * 10,000-rule policy (755 KB of text) grows the heap by ~14 MB: jansson's
 * tree and the position tree, then the plan, the facts and the ruleset,
 * ~19 bytes per byte of text, ~3,500 pages each first touched by a page
 * fault. On the development VM such a fault costs ~13 µs, while
 * MADV_POPULATE_WRITE makes the same pages present at ~1 µs each
 * (bench/README.md, "Eighth round"). So, before a JSON document (a
 * policy, or Claude Code's settings that `import` reads) of
 * HEAP_ROOM_MIN_TEXT bytes or more is parsed, the heap's top is grown by
 * HEAP_ROOM_PER_BYTE bytes per byte of text (less than a launch uses, so
 * that little is made present for nothing; at most HEAP_ROOM_MAX) and
 * its pages made present; what is allocated next is carved from them.
 * Smaller documents are left alone: the embedded default's launch
 * measured the same with 256 or 512 KiB made present.
 *
 * The CLI's allocator is its own (the library never tunes its host's):
 * mmap's threshold is raised for the one allocation of the room, so that
 * it comes from the heap (setting it also ends glibc's adaptive
 * threshold, which only matters for blocks of 128 KiB to 32 MiB), and
 * trimming is held off until lf_cli_heap_release. An allocator the user
 * tuned (MALLOC_*_ variables, glibc.malloc tunables) is left alone.
 * Nothing here can fail a command: an allocator that refuses, or a
 * kernel without MADV_POPULATE_WRITE, leaves the pages to be faulted in
 * as before. With MALLOC_PERTURB_ set (a debugging aid), malloc writes
 * the room itself when it hands it out: the pages are faulted in then,
 * no fewer.
 */
#include <malloc.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cli/cli.h"
#include "policy/jpos.h"

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23 /* Linux 5.14 */
#endif

#define HEAP_ROOM_MIN_TEXT ((size_t)64 << 10)
#define HEAP_ROOM_PER_BYTE 16
#define HEAP_ROOM_MAX ((size_t)16 << 20)
#define HEAP_MMAP_RAISED (32 << 20)   /* above HEAP_ROOM_MAX */
#define HEAP_MMAP_DEFAULT (128 << 10) /* glibc's M_MMAP_THRESHOLD */
#define HEAP_TRIM_HELD (64 << 20)
#define HEAP_TRIM_DEFAULT (128 << 10) /* glibc's M_TRIM_THRESHOLD */

static bool heap_trim_held;

/* Whether the user tuned the allocator: then it is theirs. */
static bool allocator_tuned(void)
{
	const char *t = secure_getenv("GLIBC_TUNABLES");

	return secure_getenv("MALLOC_MMAP_THRESHOLD_") || secure_getenv("MALLOC_TRIM_THRESHOLD_") ||
	       secure_getenv("MALLOC_TOP_PAD_") || (t && strstr(t, "glibc.malloc."));
}

void lf_cli_heap_reserve(size_t bytes)
{
	long pagesize = sysconf(_SC_PAGESIZE);
	uintptr_t page, lo, hi;
	char *p = NULL;

	if (pagesize <= 0 || allocator_tuned())
		return;
	page = (uintptr_t)pagesize;
	if (bytes > HEAP_ROOM_MAX)
		bytes = HEAP_ROOM_MAX;
	if (mallopt(M_MMAP_THRESHOLD, HEAP_MMAP_RAISED) != 1)
		return;
	if (heap_trim_held || mallopt(M_TRIM_THRESHOLD, HEAP_TRIM_HELD) == 1) {
		heap_trim_held = true;
		p = malloc(bytes);
	}
	/* Back for every later allocation; nothing to undo if it fails. */
	(void)mallopt(M_MMAP_THRESHOLD, HEAP_MMAP_DEFAULT);
	if (!p)
		return;
	lo = ((uintptr_t)p + page - 1) & ~(page - 1);
	hi = ((uintptr_t)p + bytes) & ~(page - 1);
	/* Fails on kernels before 5.14 (EINVAL) or short of memory
	 * (ENOMEM): the pages are then faulted in as they are used. */
	if (hi > lo)
		(void)madvise((void *)lo, hi - lo, MADV_POPULATE_WRITE);
	free(p);
}

static void heap_room_for(size_t len)
{
	if (len >= HEAP_ROOM_MIN_TEXT)
		lf_cli_heap_reserve(len > HEAP_ROOM_MAX / HEAP_ROOM_PER_BYTE
					    ? HEAP_ROOM_MAX
					    : len * HEAP_ROOM_PER_BYTE);
}

void lf_cli_heap_room(void)
{
	lf_jdoc_set_reserve(heap_room_for);
}

void lf_cli_heap_release(void)
{
	if (!heap_trim_held)
		return;
	heap_trim_held = false;
	if (mallopt(M_TRIM_THRESHOLD, HEAP_TRIM_DEFAULT) == 1)
		(void)malloc_trim(0); /* 1 if memory was released, else 0 */
}
