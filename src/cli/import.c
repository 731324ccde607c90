/* SPDX-License-Identifier: MIT */
/*
 * landfence import claude FILE... / landfence export claude: Claude Code
 * settings to and from a policy (doc/claude-settings.md). The translation
 * is library code (src/policy/claude.c); this file reads files, finds the
 * project and prints.
 */
#include <errno.h>
#include <getopt.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "core/model.h"
#include "policy/policy.h"

/* Settings files larger than this are not settings files. */
#define LF_SETTINGS_MAX_SIZE (16u << 20)

static void print_notes(const struct lf_strv *notes)
{
	for (size_t i = 0; i < notes->n; i++)
		fprintf(stderr, "%s\n", notes->v[i]);
}

/* Options shared by import and export; returns optind, or -1 after a
 * usage error, -2 after --help. */
static int parse_opts(int argc, char **argv, struct lf_cli_opts *o, const char *usage)
{
	static const struct option longopts[] = { LF_CLI_COMMON_LONG,
						  { "help", no_argument, NULL, 'h' },
						  { NULL, 0, NULL, 0 } };
	int c;

	memset(o, 0, sizeof(*o));
	optind = 0;
	while ((c = getopt_long(argc, argv, LF_CLI_COMMON_SHORT "h", longopts, NULL)) != -1) {
		if (c == 'h') {
			fputs(usage, stdout);
			return -2;
		}
		int r = lf_cli_common_opt(o, c, optarg);
		if (r < 0)
			return -1;
		if (r == 0) {
			fputs(usage, stderr);
			return -1;
		}
	}
	return optind;
}

/* The project a settings file belongs to: the parent of its .claude
 * directory, unless that is the home directory (user settings, whose "/x"
 * patterns then mean the project being imported for). */
static char *settings_project(const char *file, const char *home)
{
	char real[PATH_MAX], *dir, *parent;

	if (!realpath(file, real))
		return NULL;
	dir = dirname(real);
	if (strcmp(basename(dir), ".claude") != 0)
		return NULL;
	parent = dirname(dir);
	if (home && strcmp(parent, home) == 0)
		return NULL;
	return strdup(parent);
}

/* Reads the settings files argv[0..n) into files (each with the project
 * it belongs to), counting them in *nread. Returns 0, or -1 after printing
 * why one could not be read (the ones read are in files, for the caller
 * to free). */
static int settings_read(char **argv, int n, const char *home, struct lf_claude_file *files,
			 size_t *nread)
{
	for (int i = 0; i < n; i++) {
		char *text;
		size_t len;
		int r = lf_file_read(argv[i], LF_SETTINGS_MAX_SIZE, &text, &len);
		if (r < 0) {
			fprintf(stderr, "%s:0:0: cannot read the settings file: %s\n", argv[i],
				r == -EFBIG ? "larger than 16 MiB" : strerror(-r));
			return -1;
		}
		files[*nread].name = argv[i];
		files[*nread].text = text;
		files[*nread].len = len;
		files[*nread].project_root = settings_project(argv[i], home);
		(*nread)++;
	}
	return 0;
}

/* Translates the settings and prints the policy. Returns the exit status. */
static int import_print(const struct lf_claude_file *files, size_t n, const char *root,
			const char *home)
{
	struct lf_claude_opts co = { .project_root = root, .home = home };
	struct lf_strv notes = { 0 };
	struct lf_policy *p = NULL;
	struct lf_diag diag;
	char *out = NULL;
	int status = LF_EXIT_OWN, r;

	r = lf_claude_import(files, n, &co, &p, &notes, &diag);
	if (r == -ENOMEM || (r == 0 && lf_policy_save(p, &out) < 0)) {
		fprintf(stderr, "landfence: import: out of memory\n");
	} else if (r < 0) {
		lf_cli_diag(&diag);
		status = LF_EXIT_USAGE;
	} else {
		print_notes(&notes);
		if (fputs(out, stdout) == EOF || fflush(stdout) != 0)
			fprintf(stderr, "landfence: import: cannot write the policy: %s\n",
				strerror(errno));
		else
			status = LF_EXIT_OK;
	}
	free(out);
	lf_policy_free(p);
	lf_strv_fini(&notes);
	return status;
}

int lf_cmd_import(int argc, char **argv)
{
	static const char usage[] =
		"usage: landfence import claude [-C DIR] FILE...\n"
		"Translates Claude Code settings files (lowest precedence first: user, project,\n"
		"local, managed) into a landfence policy on stdout. Rules landfence cannot\n"
		"represent are listed on stderr.\n"
		"\noptions:\n" LF_HELP_DIRECTORY LF_HELP_HELP
		"\nexit status: 0, 2 usage error or a malformed settings file, 125 landfence's\n"
		"own error. See landfence-import(1).\n";
	struct lf_cli_opts o;
	struct lf_project *proj = NULL;
	struct lf_claude_file *files = NULL;
	char home_buf[PATH_MAX];
	const char *home = NULL;
	size_t n = 0;
	int status;

	int i = parse_opts(argc, argv, &o, usage);
	if (i == -2)
		return LF_EXIT_OK;
	if (i < 0)
		return LF_EXIT_USAGE;
	if (i >= argc || strcmp(argv[i], "claude") != 0) {
		fprintf(stderr, "landfence: import: expected \"claude\" and settings files\n%s",
			usage);
		return LF_EXIT_USAGE;
	}
	if (++i >= argc) {
		fprintf(stderr, "landfence: import claude: no settings file given\n%s", usage);
		return LF_EXIT_USAGE;
	}
	/* The same root, and the same refusals, as every other command. */
	if ((status = lf_cli_open(&o, LF_PROJECT_ROOT_ONLY, &proj)) != 0)
		return status;
	const char *h = secure_getenv("HOME");
	if (h && h[0] == '/')
		home = realpath(h, home_buf) ? home_buf : h;
	files = calloc((size_t)(argc - i), sizeof(*files));
	if (!files) {
		fprintf(stderr, "landfence: import: out of memory\n");
		status = LF_EXIT_OWN;
	} else if (settings_read(argv + i, argc - i, home, files, &n) < 0)
		status = LF_EXIT_USAGE;
	else
		status = import_print(files, n, lf_project_root(proj), home);
	for (size_t k = 0; k < n; k++) {
		free((char *)files[k].text);
		free((char *)files[k].project_root);
	}
	free(files);
	lf_project_free(proj);
	return status;
}

int lf_cmd_export(int argc, char **argv)
{
	static const char usage[] =
		"usage: landfence export claude [-C DIR] [-p FILE]...\n"
		"Writes the effective policy as a Claude Code settings.json (a permissions\n"
		"block) on stdout, so the agent's prompts agree with the kernel. What Claude\n"
		"Code cannot express is listed on stderr.\n"
		"\noptions:\n" LF_HELP_POLICY LF_HELP_DIRECTORY LF_HELP_HELP
		"\nexit status: 0, 2 usage or policy error, 125 landfence's own error.\n"
		"See landfence-export(1).\n";
	struct lf_cli_opts o;
	struct lf_project *proj = NULL;
	struct lf_strv notes = { 0 };
	char *out = NULL;
	int status, r;

	int i = parse_opts(argc, argv, &o, usage);
	if (i == -2)
		return LF_EXIT_OK;
	if (i < 0)
		return LF_EXIT_USAGE;
	if (i >= argc || strcmp(argv[i], "claude") != 0 || i + 1 != argc) {
		fprintf(stderr, "landfence: export: expected \"claude\"\n%s", usage);
		return LF_EXIT_USAGE;
	}
	if ((status = lf_cli_open(&o, 0, &proj)) != 0)
		return status;
	/* Against the plan the kernel would enforce: an allow it drops must
	 * not be exported as an allow. */
	r = lf_claude_export_plan(lf_project_effective(proj), lf_project_plan(proj), &out, &notes);
	if (r < 0) {
		fprintf(stderr, "landfence: export: %s\n", strerror(-r));
		status = LF_EXIT_OWN;
		goto out;
	}
	print_notes(&notes);
	if (fputs(out, stdout) == EOF || fflush(stdout) != 0) {
		fprintf(stderr, "landfence: export: cannot write the settings: %s\n",
			strerror(errno));
		status = LF_EXIT_OWN;
		goto out;
	}
	status = LF_EXIT_OK;
out:
	free(out);
	lf_strv_fini(&notes);
	lf_project_free(proj);
	return status;
}
