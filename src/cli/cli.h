/* SPDX-License-Identifier: MIT */
/*
 * The command-line tool: a thin shell over liblandfence. One file per
 * subcommand; option parsing and policy discovery are shared here so that
 * tests can call them in-process.
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
	bool json; /* --json */
	bool tree; /* --tree */
};

/* getopt_long entries for the shared options; a subcommand appends its own
 * and passes unknown codes to lf_cli_common_opt. */
#define LF_OPT_PROFILE 0x100
#define LF_OPT_JSON 0x101
#define LF_OPT_TREE 0x102
#define LF_CLI_COMMON_SHORT "p:C:"
#define LF_CLI_COMMON_LONG                                                                         \
	{ "policy", required_argument, NULL, 'p' }, { "directory", required_argument, NULL, 'C' }, \
		{ "profile", required_argument, NULL, LF_OPT_PROFILE },                            \
		{ "json", no_argument, NULL, LF_OPT_JSON },                                        \
	{                                                                                          \
		"tree", no_argument, NULL, LF_OPT_TREE                                             \
	}

/* --help lines of the shared options, so every command describes them in
 * the same words. Each command's --help lists every option it takes; its
 * man page (doc/man/landfence-COMMAND.1.scd) documents the same set, and
 * tests/dist/man-options.py fails when the two differ. */
#define LF_HELP_POLICY \
	"  -p, --policy FILE     add the policy in FILE as a layer (repeatable, in order)\n"
#define LF_HELP_DIRECTORY                                                                  \
	"  -C, --directory DIR   the project root (default: the nearest ancestor of the\n" \
	"                        working directory holding .landfence/ or .git)\n"
#define LF_HELP_PROFILE                                                                   \
	"      --profile NAME    add an agent profile's grants (repeatable; the names:\n" \
	"                        landfence --list-profiles)\n"
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

/* The path of name in landfence's configuration directory
 * ($XDG_CONFIG_HOME/landfence when absolute, else ~/.config/landfence):
 * the user policy and the trust store live there, and the sandbox fences
 * the same directory (src/landlock/sandbox.c). Returns 0, -ENOENT when
 * neither variable is an absolute path, -ENAMETOOLONG. */
int lf_cli_config_path(const char *name, char *out, size_t size);

/* The loaded policy of one invocation. */
struct lf_cli_state {
	char project_root[PATH_MAX]; /* canonical absolute project root */
	struct lf_policy *layers[LF_CLI_MAX_LAYERS + 3];
	const char *layer_files[LF_CLI_MAX_LAYERS + 3];
	size_t nlayers;
	bool embedded_default; /* no policy file found: the embedded default */
	struct lf_effective *eff;
};

/* Finds the project root (-C, else the nearest ancestor of the working
 * directory holding .landfence/ or .git, else the working directory), and
 * loads the layers: user ($XDG_CONFIG_HOME/landfence/policy.json), project
 * (.landfence/policy.json), then each -p FILE; the embedded default when
 * there is none. On a policy error prints FILE:LINE:COLUMN: message to
 * stderr and returns LF_EXIT_USAGE; on another error prints it and returns
 * LF_EXIT_OWN. Returns 0 on success. */
int lf_cli_load(const struct lf_cli_opts *o, struct lf_cli_state *st);
void lf_cli_state_fini(struct lf_cli_state *st);

/* The sandbox plan of the loaded policy for the project (no run
 * directory), as run launches it and plan shows it, into *out. Returns 0,
 * or LF_EXIT_OWN after printing why it could not be compiled. */
int lf_cli_plan_compile(const struct lf_cli_state *st, struct lf_plan **out);

/* The project root of -C DIR or of the working directory (as
 * lf_cli_load), canonical, into out. Returns 0, or an exit status after
 * printing the error. */
int lf_cli_project_root(const struct lf_cli_opts *o, char *out, size_t size);

/* Policy trust (src/cli/trust.c, doc/trust.md). The store path
 * ($XDG_CONFIG_HOME/landfence/trusted or ~/.config/landfence/trusted);
 * reading a policy file whole (bounded); whether canon_path with content
 * text[0..len) is trusted: 0 yes, -EPERM never trusted, -ESTALE changed
 * since trusted, another negative errno when the store is unreadable;
 * recording a trust (for `landfence init`, which writes a policy the user
 * asked for); and printing the refusal for -EPERM, -ESTALE, -ELOOP and
 * -ENOENT (a trusted policy that is gone) (returns LF_EXIT_USAGE). */
int lf_trust_store_path(char *out, size_t size);
/* The project policy's path, root/.landfence/policy.json, into out: 0, or
 * -ELOOP when .landfence or the policy is a symbolic link, -ENOENT, ... */
int lf_trust_policy_path(const char *project_root, char *out, size_t size);
/* Whether the store has a line for path (a policy that was trusted). */
bool lf_trust_known(const char *path);
int lf_trust_read_policy(const char *path, char **text, size_t *len);
int lf_trust_check(const char *canon_path, const void *text, size_t len);
int lf_trust_record(const char *canon_path, const void *text, size_t len);
int lf_trust_report(const char *shown_path, int err);

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
