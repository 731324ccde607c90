/* SPDX-License-Identifier: MIT */
/*
 * Hostile projects and hostile output (doc/escape.md, "Hostile projects"):
 * scans that cannot finish, system directories and foreign .git as
 * project roots, terminal escapes in names and policies, old ABIs without
 * scopes. Each attack beside its honest counterpart, on the harness and
 * the attacker (lf-probe) of cases.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cmocka.h>

#include "harness.h"

#define STD_RULES                                                                        \
	"{'effect':'allow','capability':'read','paths':['src/**','docs/**','.git/**']}," \
	"{'effect':'allow','capability':'write','paths':['src/**']},"                    \
	"{'effect':'allow','capability':'delete','paths':['src/**']},"                   \
	"{'effect':'deny','capability':'read','paths':['secret/**']},"                   \
	"{'effect':'deny','capability':'write','paths':['.git/**','secret/**','docs/**']}"
#define STD "{'version':1,'fallback':'deny','rules':[" STD_RULES "]}"
#define STD_ASK "{'version':1,'fallback':'ask','rules':[" STD_RULES "]}"

/* ------------------------------------------------------------------------
 * Scans that cannot finish
 */

/* Directory levels below src/ and the length of each name: 120 levels of
 * 100 bytes, a path of some 12,000 bytes, three times PATH_MAX. */
#define DEEP_LEVELS 120
#define DEEP_NAME 100

/* Makes the deep chain below rel and returns a descriptor of its bottom. */
static int deep_chain(struct esc *e, const char *rel)
{
	char name[DEEP_NAME + 1];
	int fd = open(esc_path(e, rel), O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	assert_true(fd >= 0);
	memset(name, 'd', DEEP_NAME);
	name[DEEP_NAME] = '\0';
	for (int i = 0; i < DEEP_LEVELS; i++) {
		assert_int_equal(mkdirat(fd, name, 0755), 0);
		int next = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		assert_true(next >= 0);
		close(fd);
		fd = next;
	}
	return fd;
}

static void deep_plain(struct esc *e)
{
	int fd = deep_chain(e, "proj/src");
	int f = openat(fd, "plain", O_WRONLY | O_CREAT | O_CLOEXEC, 0644);

	assert_true(f >= 0);
	close(f);
	close(fd);
}

/* A device node (/dev/null's numbers) at the bottom of the chain. */
static void deep_node(struct esc *e)
{
	int fd = deep_chain(e, "proj/src");

	assert_int_equal(mknodat(fd, "null-node", S_IFCHR | 0666, makedev(1, 3)), 0);
	close(fd);
}

/* A hard link to the fenced secret at the bottom of the chain. */
static void deep_link(struct esc *e)
{
	int fd = deep_chain(e, "proj/src");

	assert_int_equal(linkat(AT_FDCWD, esc_path(e, "proj/secret/key"), fd, "innocent", 0), 0);
	close(fd);
}

/* A directory below a grant the user cannot open (a program can chmod
 * one between runs: metadata changes are not mediated). */
static void locked_src(struct esc *e)
{
	esc_mkdir(e, "proj/src/locked");
	esc_put(e, "proj/src/locked/f", "F");
	assert_int_equal(chmod(esc_path(e, "proj/src/locked"), 0), 0);
}

/* The same below the fence, hiding a link from the hard-link scan. */
static void locked_secret(struct esc *e)
{
	esc_mkdir(e, "proj/secret/locked");
	assert_int_equal(link(esc_path(e, "proj/secret/key"), esc_path(e, "proj/src/innocent")),
			 0);
	assert_int_equal(rename(esc_path(e, "proj/secret/key"),
				esc_path(e, "proj/secret/locked/key")),
			 0);
	assert_int_equal(chmod(esc_path(e, "proj/secret/locked"), 0), 0);
}

static void unlock(struct esc *e, const struct esc_result *r)
{
	(void)r;
	chmod(esc_path(e, "proj/src/locked"), 0755);
	chmod(esc_path(e, "proj/secret/locked"), 0755);
}

static void nothing_ran(struct esc *e, const struct esc_result *r)
{
	unlock(e, r);
	assert_false(esc_exists(e, "proj/src/ran"));
}

static void ran(struct esc *e, const struct esc_result *r)
{
	unlock(e, r);
	assert_true(esc_exists(e, "proj/src/ran"));
}

/* ------------------------------------------------------------------------
 * The cases
 */

const struct esc_case esc_cases[] = {
	/* Scans that cannot finish refuse under fallback deny ----------- */
	{ .name = "a device node 120 levels down, past PATH_MAX: found, run refused",
	  .kind = 9,
	  .flags = ESC_ROOT | ESC_NO_NS,
	  .policy = STD,
	  .setup = deep_node,
	  .probe = "create @P/src/ran",
	  .want = "",
	  .want_exit = 125,
	  .err_has = { "null-node is a character device node (1:3)",
		       "dddddddddd/dddddddddd" },
	  .after = nothing_ran },
	{ .name = "honest: a tree 120 levels deep, past PATH_MAX, is walked and runs",
	  .kind = 9,
	  .flags = ESC_NO_NS,
	  .policy = STD,
	  .setup = deep_plain,
	  .probe = "readeq @P/src/a.txt A create @P/src/ran",
	  .want = "ok ok",
	  .err_lacks = { "incomplete" },
	  .after = ran },
	{ .name = "a hard link to the secret 120 levels down, past PATH_MAX: found, run refused",
	  .kind = 2,
	  .flags = ESC_NO_NS,
	  .policy = STD,
	  .setup = deep_link,
	  .probe = "create @P/src/ran",
	  .want = "",
	  .want_exit = 125,
	  .err_has = { "is also reachable as", "dddddddddd/innocent" },
	  .after = nothing_ran },
	{ .name = "a directory below a grant the device-node scan cannot open: run refused",
	  .kind = 9,
	  .flags = ESC_NOT_ROOT | ESC_NO_NS,
	  .policy = STD,
	  .setup = locked_src,
	  .probe = "create @P/src/ran",
	  .want = "",
	  .want_exit = 125,
	  .err_has = { "the device-node scan is incomplete: cannot open @P/src/locked",
		       "nothing was run" },
	  .after = nothing_ran },
	{ .name = "honest: the same unreadable directory under fallback ask runs, with a warning",
	  .kind = 9,
	  .flags = ESC_NOT_ROOT | ESC_NO_NS,
	  .policy = STD_ASK,
	  .setup = locked_src,
	  .probe = "readeq @P/src/a.txt A create @P/src/ran",
	  .want = "ok ok",
	  .err_has = { "WARNING: the device-node scan is incomplete: cannot open @P/src/locked" },
	  .after = ran },
	{ .name = "honest: the same unreadable directory with masks: grants are nodev, no walk",
	  .kind = 9,
	  .flags = ESC_NOT_ROOT | ESC_NS,
	  .policy = STD,
	  .setup = locked_src,
	  .probe = "readeq @P/src/a.txt A create @P/src/ran read @P/src/locked/f",
	  .want = "ok ok EACCES",
	  .err_lacks = { "incomplete" },
	  .after = ran },
	{ .name = "a link hidden behind a chmod 000 directory below the fence: run refused",
	  .kind = 2,
	  .flags = ESC_NOT_ROOT,
	  .policy = STD,
	  .setup = locked_secret,
	  .probe = "create @P/src/ran read @P/src/innocent",
	  .want = "",
	  .want_exit = 125,
	  .err_has = { "the hard-link scan is incomplete: cannot open @P/secret/locked",
		       "nothing was run" },
	  .after = nothing_ran },
	{ .name = "the scan budget spent (LANDFENCE_SCAN_MAX_ENTRIES=3): run refused",
	  .kind = 9,
	  .flags = ESC_NO_NS,
	  .policy = STD,
	  .env = "LANDFENCE_SCAN_MAX_ENTRIES=3",
	  .probe = "create @P/src/ran",
	  .want = "",
	  .want_exit = 125,
	  .err_has = { "scan is incomplete: stopped after 3 entries (limit)",
		       "LANDFENCE_SCAN_MAX_ENTRIES" },
	  .after = nothing_ran },
	{ .name = "a scan budget that is not a number: run refused",
	  .kind = 9,
	  .policy = STD,
	  .env = "LANDFENCE_SCAN_MAX_ENTRIES=1e6",
	  .probe = "create @P/src/ran",
	  .want = "",
	  .want_exit = 125,
	  .err_has = { "LANDFENCE_SCAN_MAX_ENTRIES must be a number > 0" },
	  .after = nothing_ran },
	{ .name = "honest: a larger scan budget runs",
	  .kind = 9,
	  .flags = ESC_NO_NS,
	  .policy = STD,
	  .env = "LANDFENCE_SCAN_MAX_ENTRIES=1000000",
	  .probe = "readeq @P/src/a.txt A create @P/src/ran",
	  .want = "ok ok",
	  .err_lacks = { "incomplete" },
	  .after = ran },
};

const size_t esc_ncases = sizeof(esc_cases) / sizeof(esc_cases[0]);
