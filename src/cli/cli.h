/* SPDX-License-Identifier: MIT */
/*
 * The command-line tool: a thin shell over liblandfence. One file per
 * subcommand; each parses its options, calls the library and prints.
 * Option parsing is shared here so that tests can call it in-process.
 */
#ifndef LF_CLI_H
#define LF_CLI_H

#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "landfence.h"

/* Exit statuses (SPEC §4; doc/cli.md). */
enum {
	LF_EXIT_OK = 0,
	LF_EXIT_DENY = 1,  /* check: deny */
	LF_EXIT_USAGE = 2, /* usage or policy error, nothing ran */
	LF_EXIT_ASK = 3,   /* check: ask */
	LF_EXIT_OWN = 125, /* run: landfence's own error, nothing ran */
	LF_EXIT_NOEXEC = 126,
	LF_EXIT_NOTFOUND = 127,
};

#define LF_CLI_MAX_LAYERS 32
#define LF_CLI_MAX_PROFILES 16

/* Options shared by every subcommand. */
struct lf_cli_opts {
	const char *policies[LF_CLI_MAX_LAYERS]; /* -p FILE, in order */
	size_t npolicies;
	const char *project_dir;		   /* -C DIR */
	const char *profiles[LF_CLI_MAX_PROFILES]; /* --profile NAME */
	size_t nprofiles;
	bool json;	     /* --json */
	bool tree;	     /* --tree */
	bool quiet;	     /* -q: notes are not printed (warnings and errors are) */
	bool unsafe_root;    /* --unsafe-root: LF_PROJECT_UNSAFE_ROOT */
	bool allow_unscoped; /* --allow-unscoped: LF_SANDBOX_ALLOW_UNSCOPED */
};

/* getopt_long entries for the shared options; a subcommand appends its own
 * and passes unknown codes to lf_cli_common_opt. */
#define LF_OPT_PROFILE 0x100
#define LF_OPT_JSON 0x101
#define LF_OPT_TREE 0x102
#define LF_OPT_UNSAFE_ROOT 0x103
#define LF_OPT_ALLOW_UNSCOPED 0x104
#define LF_CLI_COMMON_SHORT "p:C:"
#define LF_CLI_COMMON_LONG                                                                         \
	{ "policy", required_argument, NULL, 'p' }, { "directory", required_argument, NULL, 'C' }, \
		{ "profile", required_argument, NULL, LF_OPT_PROFILE },                            \
		{ "json", no_argument, NULL, LF_OPT_JSON },                                        \
		{ "unsafe-root", no_argument, NULL, LF_OPT_UNSAFE_ROOT },                          \
		{ "allow-unscoped", no_argument, NULL, LF_OPT_ALLOW_UNSCOPED },                    \
	{                                                                                          \
		"tree", no_argument, NULL, LF_OPT_TREE                                             \
	}

/* --help lines of the shared options, so every command describes them in
 * the same words. Each command's --help lists every option it takes; its
 * man page (doc/man/landfence-COMMAND.1.scd) documents the same set, and
 * tests/dist/man-options.py fails when the two differ. */
#define LF_HELP_POLICY \
	"  -p, --policy FILE     add the policy in FILE as a layer (repeatable, in order)\n"
#define LF_HELP_DIRECTORY                                                                   \
	"  -C, --directory DIR   the project root (default: the nearest ancestor of the\n"  \
	"                        working directory holding .landfence/ or .git)\n"          \
	"      --unsafe-root     accept a root that is a system directory, a shared one,\n" \
	"                        or a home directory or above one (with a warning)\n"
#define LF_HELP_PROFILE                                                                   \
	"      --profile NAME    add an agent profile's grants (repeatable; the names:\n" \
	"                        landfence --list-profiles)\n"
#define LF_HELP_ALLOW_UNSCOPED                                                              \
	"      --allow-unscoped  below Landlock ABI 6, run although signals and abstract\n" \
	"                        UNIX sockets are not scoped (a notice, not Degraded)\n"
#define LF_HELP_HELP "  -h, --help            show this help\n"

/* Handles one shared option. Returns 1 when handled, 0 when c is not a
 * shared option, -1 after printing a usage error. */
int lf_cli_common_opt(struct lf_cli_opts *o, int c, const char *arg);

/* Parses the shared options and -h/--help for a subcommand that has none
 * of its own, into *o (zeroed by the caller). Prints usage to stdout for
 * -h and to stderr for an unknown option. Returns -1 when the operands
 * start at optind, else the exit status to return (LF_EXIT_OK after -h,
 * LF_EXIT_USAGE). */
int lf_cli_opts_parse(int argc, char **argv, const char *usage, struct lf_cli_opts *o);

/* Prints a diagnostic as landfence does (lf_diag_format) on stderr. */
void lf_cli_diag(const struct lf_diag *d);

/* An lf_message_fn: "landfence: SEVERITY: text" on stderr; ctx points at
 * the options (a note is left out under -q). */
void lf_cli_message(void *ctx, enum lf_severity severity, const char *text);

/* Opens the project of the options (lf_project_open with flags), printing
 * the refusal or the project's warnings. Returns 0 and *out, or the exit
 * status after printing why not. */
int lf_cli_open(const struct lf_cli_opts *o, unsigned flags, struct lf_project **out);

/* Makes room in the heap for large policies (src/cli/heap.c): from now
 * on, each JSON document of 64 KiB or more gets 16 bytes of heap per byte
 * of text (at most 16 MiB) grown and made present before it is parsed.
 * Called once by main. Cannot fail. */
void lf_cli_heap_room(void);

/* Grows the heap's top by `bytes` (at most 16 MiB) and makes its pages
 * present (MADV_POPULATE_WRITE), trimming held off: what is allocated
 * next is carved from pages that do not fault. Best effort: does nothing
 * when the allocator or the kernel refuses, or when the user tuned the
 * allocator (MALLOC_MMAP_THRESHOLD_, MALLOC_TRIM_THRESHOLD_,
 * MALLOC_TOP_PAD_, glibc.malloc tunables). */
void lf_cli_heap_reserve(size_t bytes);

/* Lets the heap be trimmed again and returns its free pages to the
 * kernel (malloc_trim): `run` calls it once the program has started, so
 * that a launcher that waits for hours does not hold the room a large
 * policy took. Does nothing when no room was made. */
void lf_cli_heap_release(void);

/* Makes stdout and stderr escape every control character but newline and
 * tab on the way out (core/text.h). Called first by main. Returns 0 or
 * -ENOMEM (the streams are then unchanged). */
int lf_cli_output_escape(void);

/* Subcommands: argv[0] is the subcommand name. Each returns the exit
 * status. */
int lf_cmd_run(int argc, char **argv);
int lf_cmd_plan(int argc, char **argv);
int lf_cmd_check(int argc, char **argv);
int lf_cmd_hook(int argc, char **argv);
int lf_cmd_import(int argc, char **argv);
int lf_cmd_export(int argc, char **argv);
int lf_cmd_doctor(int argc, char **argv);
int lf_cmd_init(int argc, char **argv);
int lf_cmd_trust(int argc, char **argv);

#endif /* LF_CLI_H */
