/* SPDX-License-Identifier: MIT */
/*
 * landfence run [-p POLICY]... [-C DIR] [--profile NAME]... [-q] -- CMD ARGS...
 *
 * Exit status: CMD's own; killed by signal N when CMD was (the shell says
 * 128+N); 125 when
 * landfence itself failed and nothing ran (KernelTooOld included); 126 CMD
 * cannot be executed; 127 CMD not found; 2 usage or policy error. Every
 * gate is the library's (lf_run_*, src/gate/run.c): this parses and prints.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include "cli/cli.h"

static const char usage_text[] =
	"usage: landfence run [-p FILE]... [-C DIR] [--profile NAME]... [-q] [--] CMD [ARGS...]\n"
	"Runs CMD under the OS guard: the policy's plan, host grants and agent profiles,\n"
	"applied with Landlock in the child before exec.\n"
	"\noptions (they end at CMD or at --):\n" LF_HELP_POLICY LF_HELP_DIRECTORY LF_HELP_PROFILE
		LF_HELP_ALLOW_UNSCOPED
	"  -q, --quiet           do not print notices (warnings are always printed)\n" LF_HELP_HELP
	"\nexit status: CMD's own; when CMD is killed by signal N, landfence ends by the\n"
	"same signal (128+N in the shell); 125 landfence's own error, nothing ran; 126\n"
	"CMD cannot be executed; 127 CMD not found; 2 usage or policy error.\n"
	"See landfence-run(1).\n";

static void run_usage(FILE *f)
{
	fputs(usage_text, f);
}

/* Parses the options; returns -1 when the command starts at optind, else
 * the exit status. */
static int run_parse(int argc, char **argv, struct lf_cli_opts *o)
{
	static const struct option longopts[] = {
		LF_CLI_COMMON_LONG,
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, r;

	optind = 1;
	opterr = 1;
	/* '+': stop at the command, so its own options are left alone. */
	while ((c = getopt_long(argc, argv, "+" LF_CLI_COMMON_SHORT "qh", longopts, NULL)) != -1) {
		r = lf_cli_common_opt(o, c, optarg);
		if (r == 1)
			continue;
		if (r < 0)
			return LF_EXIT_USAGE;
		if (c == 'q') {
			o->quiet = true;
			continue;
		}
		run_usage(c == 'h' ? stdout : stderr);
		return c == 'h' ? LF_EXIT_OK : LF_EXIT_USAGE;
	}
	if (optind >= argc) {
		fputs("landfence run: no command given\n", stderr);
		run_usage(stderr);
		return LF_EXIT_USAGE;
	}
	if (o->json || o->tree) {
		fputs("landfence run: --json and --tree belong to plan\n", stderr);
		return LF_EXIT_USAGE;
	}
	return -1;
}

/* Ends landfence by the signal that ended the program, once everything
 * is cleaned up: a shell stops a loop on Ctrl-C only when its job died by
 * SIGINT (an exit status of 130 is not the same), and `wait` reports it
 * as the program's. No core file, whatever the signal (the process is
 * not dumpable already; the limit says it twice). Returns when the
 * signal does not end a process. */
static void die_by_signal(int sig)
{
	struct rlimit none = { 0, 0 };
	struct sigaction dfl = { .sa_handler = SIG_DFL };
	sigset_t set;

	fflush(NULL);
	(void)setrlimit(RLIMIT_CORE, &none);
	sigemptyset(&dfl.sa_mask);
	if (sigaction(sig, &dfl, NULL) < 0)
		return;
	sigemptyset(&set);
	sigaddset(&set, sig);
	(void)sigprocmask(SIG_UNBLOCK, &set, NULL);
	(void)raise(sig);
}

int lf_cmd_run(int argc, char **argv)
{
	struct lf_cli_opts o = { 0 };
	struct lf_project *p = NULL;
	struct lf_run *run = NULL;
	struct lf_diag diag;
	int r, status, code;

	if ((code = run_parse(argc, argv, &o)) >= 0)
		return code;
	if ((code = lf_cli_open(&o, 0, &p)) != 0)
		return code;
	struct lf_run_opts ro = {
		.size = sizeof(ro),
		.profiles = o.profiles,
		.nprofiles = o.nprofiles,
		.message = lf_cli_message,
		.message_ctx = &o,
		.sandbox_flags = o.allow_unscoped ? LF_SANDBOX_ALLOW_UNSCOPED : 0,
	};
	r = lf_run_new(p, &ro, argv + optind, &run, &diag);
	if (r == 0)
		r = lf_run_start(run, &diag);
	lf_cli_heap_release();
	if (r < 0) {
		lf_cli_diag(&diag);
		code = lf_exit_status(r);
	} else if ((r = lf_run_wait(run, &status)) < 0) {
		fprintf(stderr, "landfence: waiting for the program: %s\n", strerror(-r));
		code = LF_EXIT_OWN;
	} else {
		code = lf_exit_status_wait(status);
	}
	lf_run_free(run);
	lf_project_free(p);
	if (r == 0 && WIFSIGNALED(status))
		die_by_signal(WTERMSIG(status));
	return code;
}
