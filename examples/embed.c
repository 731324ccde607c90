/* SPDX-License-Identifier: MIT */
/*
 * embed [-C DIR] [-p FILE]... -- CMD [ARGS...]
 *
 * Runs CMD exactly as `landfence run` would: the same project root and
 * refusals, the same layers and trust, the same sandbox value, the same
 * pre-launch checks and post-run report, the same messages and exit
 * statuses. It uses the installed header alone:
 *
 *   cc embed.c $(pkg-config --cflags --libs landfence) -o embed
 *
 * and is the smallest complete program on liblandfence (doc/api.md).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <landfence.h>

#define MAX_POLICIES 32

static void usage(void)
{
	fputs("usage: embed [-C DIR] [-p FILE]... -- CMD [ARGS...]\n", stderr);
}

/* What landfence says, said the same way. */
static void say(void *ctx, enum lf_severity severity, const char *text)
{
	(void)ctx;
	fprintf(stderr, "landfence: %s: %s\n", lf_severity_name(severity), text);
}

/* A refusal or an error: the diagnostic, and the exit status landfence
 * gives it. */
static int refuse(const struct lf_diag *diag, int err)
{
	char text[4096];

	lf_diag_format(diag, text, sizeof(text));
	fprintf(stderr, "%s\n", text);
	return lf_exit_status(err);
}

/* Parses the options; returns the index of CMD, or 0 after a usage error. */
static int parse(int argc, char **argv, struct lf_project_opts *po, const char **files)
{
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
		if (i + 1 >= argc) {
			usage();
			return 0;
		}
		if (!strcmp(argv[i], "-C")) {
			po->directory = argv[++i];
		} else if (!strcmp(argv[i], "-p") && po->npolicy_files < MAX_POLICIES) {
			files[po->npolicy_files++] = argv[++i];
		} else {
			usage();
			return 0;
		}
	}
	if (i + 1 >= argc) {
		usage();
		return 0;
	}
	po->policy_files = files;
	return i + 1;
}

int main(int argc, char **argv)
{
	struct lf_project_opts po = LF_PROJECT_OPTS_INIT;
	struct lf_run_opts ro = LF_RUN_OPTS_INIT;
	const char *files[MAX_POLICIES];
	struct lf_project *project = NULL;
	struct lf_run *run = NULL;
	struct lf_diag diag;
	int cmd, r, status, code;

	cmd = parse(argc, argv, &po, files);
	if (!cmd)
		return 2;

	/* The project: its root (with every refusal), layers and trust. */
	r = lf_project_open(&po, &project, &diag);
	if (r < 0)
		return refuse(&diag, r);
	for (size_t i = 0; i < lf_project_warning_count(project); i++)
		say(NULL, LF_SEVERITY_WARNING, lf_project_warning(project, i));

	/* The run: the sandbox value, the checks, the program, the report. */
	ro.message = say;
	r = lf_run_new(project, &ro, argv + cmd, &run, &diag);
	if (r == 0)
		r = lf_run_start(run, &diag);
	if (r < 0) {
		code = refuse(&diag, r);
	} else if ((r = lf_run_wait(run, &status)) < 0) {
		fprintf(stderr, "landfence: waiting for the program: %s\n", strerror(-r));
		code = 125;
	} else {
		code = lf_exit_status_wait(status);
	}
	lf_run_free(run);
	lf_project_free(project);
	return code;
}
