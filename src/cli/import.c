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

static bool has_entry(const char *dir, const char *name)
{
	char p[PATH_MAX];
	struct stat st;

	if (snprintf(p, sizeof(p), "%s/%s", dir, name) >= (int)sizeof(p))
		return false;
	return lstat(p, &st) == 0;
}

/* -C DIR, else the nearest ancestor of the working directory holding
 * .landfence/ or .git, else the working directory (SPEC §4). */
static int project_root(const char *dir, char *out)
{
	char cur[PATH_MAX];

	if (dir)
		return realpath(dir, out) ? 0 : -errno;
	if (!getcwd(cur, sizeof(cur)))
		return -errno;
	char *end = cur + strlen(cur);
	for (;;) {
		if (has_entry(cur, ".landfence") || has_entry(cur, ".git"))
			return realpath(cur, out) ? 0 : -errno;
		char *slash = strrchr(cur, '/');
		if (!slash || slash == cur)
			break;
		*slash = '\0';
	}
	/* Nothing found: the working directory itself. */
	for (char *p = cur; p < end; p++)
		if (*p == '\0')
			*p = '/';
	return realpath(cur, out) ? 0 : -errno;
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
	struct lf_claude_file *files = NULL;
	struct lf_strv notes = { 0 };
	struct lf_policy *p = NULL;
	struct lf_diag diag;
	char root[PATH_MAX], home_buf[PATH_MAX], *out = NULL;
	const char *home = NULL;
	size_t n = 0;
	int status = LF_EXIT_USAGE, r;

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
	i++;
	if (i >= argc) {
		fprintf(stderr, "landfence: import claude: no settings file given\n%s", usage);
		return LF_EXIT_USAGE;
	}
	if ((r = project_root(o.project_dir, root)) < 0) {
		fprintf(stderr, "landfence: import: cannot find the project root: %s\n",
			strerror(-r));
		return LF_EXIT_USAGE;
	}
	const char *h = secure_getenv("HOME");
	if (h && h[0] == '/')
		home = realpath(h, home_buf) ? home_buf : h;

	files = calloc((size_t)(argc - i), sizeof(*files));
	if (!files) {
		fprintf(stderr, "landfence: import: out of memory\n");
		return LF_EXIT_OWN;
	}
	for (; i < argc; i++, n++) {
		char *text;
		size_t len;
		r = lf_file_read(argv[i], LF_SETTINGS_MAX_SIZE, &text, &len);
		if (r < 0) {
			fprintf(stderr, "%s:0:0: cannot read the settings file: %s\n", argv[i],
				r == -EFBIG ? "larger than 16 MiB" : strerror(-r));
			goto out;
		}
		files[n].name = argv[i];
		files[n].text = text;
		files[n].len = len;
		files[n].project_root = settings_project(argv[i], home);
	}

	struct lf_claude_opts co = { .project_root = root, .home = home };
	r = lf_claude_import(files, n, &co, &p, &notes, &diag);
	if (r < 0) {
		char msg[1200];
		if (r == -ENOMEM) {
			fprintf(stderr, "landfence: import: out of memory\n");
			status = LF_EXIT_OWN;
			goto out;
		}
		lf_diag_format(&diag, msg, sizeof(msg));
		fprintf(stderr, "%s\n", msg);
		goto out;
	}
	if (lf_policy_save(p, &out) < 0) {
		fprintf(stderr, "landfence: import: out of memory\n");
		status = LF_EXIT_OWN;
		goto out;
	}
	print_notes(&notes);
	if (fputs(out, stdout) == EOF || fflush(stdout) != 0) {
		fprintf(stderr, "landfence: import: cannot write the policy: %s\n",
			strerror(errno));
		status = LF_EXIT_OWN;
		goto out;
	}
	status = LF_EXIT_OK;
out:
	for (size_t k = 0; k < n; k++) {
		free((char *)files[k].text);
		free((char *)files[k].project_root);
	}
	free(files);
	free(out);
	lf_policy_free(p);
	lf_strv_fini(&notes);
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
	struct lf_cli_state st;
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
	if ((status = lf_cli_load(&o, &st)) != 0)
		return status;
	/* Against the plan the kernel would enforce: an allow it drops must
	 * not be exported as an allow. */
	struct lf_context ctx = { st.project_root, st.project_root };
	struct lf_plan *plan = NULL;
	r = lf_plan_compile(st.eff, &ctx, &plan);
	if (r == 0)
		r = lf_claude_export_plan(st.eff, plan, &out, &notes);
	lf_plan_free(plan);
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
	lf_cli_state_fini(&st);
	return status;
}
