/* SPDX-License-Identifier: MIT */
/*
 * landfence run [-p POLICY]... [-C DIR] [--profile NAME]... [-q] -- CMD ARGS...
 *
 * Exit status: CMD's own; 128+N when CMD was killed by signal N; 125 when
 * landfence itself failed and nothing ran (KernelTooOld included); 126 CMD
 * cannot be executed; 127 CMD not found; 2 usage or policy error.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/checks.h"
#include "cli/cli.h"
#include "landlock/sandbox.h"
#include "launch/launch.h"

static const char usage_text[] =
	"usage: landfence run [-p FILE]... [-C DIR] [--profile NAME]... [-q] [--] CMD [ARGS...]\n"
	"Runs CMD under the OS guard: the policy's plan, host grants and agent profiles,\n"
	"applied with Landlock in the child before exec.\n"
	"\noptions (they end at CMD or at --):\n" LF_HELP_POLICY LF_HELP_DIRECTORY LF_HELP_PROFILE
	"  -q, --quiet           do not print notices (warnings are always printed)\n" LF_HELP_HELP
	"\nexit status: CMD's own; 128+N CMD killed by signal N; 125 landfence's own\n"
	"error, nothing ran; 126 CMD cannot be executed; 127 CMD not found; 2 usage or\n"
	"policy error. See landfence-run(1).\n";

static void run_usage(FILE *f)
{
	fputs(usage_text, f);
}

static void print_diag(const char *what, const struct lf_diag *d)
{
	if (d->file[0]) {
		char buf[1200];
		lf_diag_format(d, buf, sizeof(buf));
		fprintf(stderr, "landfence: %s: %s\n", what, buf);
	} else {
		fprintf(stderr, "landfence: %s: %s\n", what, d->message[0] ? d->message : "failed");
	}
}

/* The notice for a sandbox weaker than the plan: loud, on stderr, before
 * anything runs. */
static void print_status(const struct lf_status *s)
{
	if (!s || s->kind == LF_STATUS_ENFORCED)
		return;
	if (s->kind == LF_STATUS_UNSUPPORTED)
		fprintf(stderr,
			"landfence: WARNING: Landlock is not available: the program runs WITHOUT "
			"the "
			"file-system sandbox%s%s\n",
			s->reason[0] ? ": " : "", s->reason);
	else
		fprintf(stderr, "landfence: WARNING: the sandbox is DEGRADED on this kernel: %s\n",
			s->reason[0] ? s->reason : "a right the plan needs is missing");
}

/* Hard links from fenced files into grants: Landlock cannot tell them
 * from any other file of the grant, so under fallback deny (fail-closed)
 * nothing runs; under another posture they are a warning. Persistence
 * paths left writable are a note. Returns 0 or the exit status. */
static int check_before_run(const struct lf_cli_state *st, const struct lf_plan *plan,
			    const struct lf_sandbox *sb, bool quiet)
{
	struct lf_cli_findings f = { 0 };
	bool deny = lf_effective_fallback(st->eff) == LF_DENY;
	int r;

	r = lf_cli_hardlinks(plan, sb, &f);
	if (r < 0) {
		fprintf(stderr, "landfence: cannot scan for hard links: %s\n", strerror(-r));
		return LF_EXIT_OWN;
	}
	for (size_t i = 0; i < f.n; i++)
		fprintf(stderr, "landfence: %s: %s\n", deny ? "error" : "WARNING", f.lines[i]);
	if (f.incomplete)
		fprintf(stderr, "landfence: %s: the hard-link scan is incomplete: %s\n",
			deny ? "error" : "note", f.reason);
	/* Fail closed: under fallback deny a scan that could not finish may
	 * have missed a link, so nothing runs (doc/escape.md, kind 2). */
	if (f.incomplete && deny) {
		fprintf(stderr, "landfence: fenced files may be reachable through a grant under "
				"another name and the scan could not rule it out; nothing was run "
				"(narrow the fences or the grants)\n");
		lf_cli_findings_fini(&f);
		return LF_EXIT_OWN;
	}
	if (f.n && deny) {
		fprintf(stderr,
			"landfence: a fenced file is reachable through a grant under another "
			"name; nothing was run (remove the link, or fence its directory)\n");
		lf_cli_findings_fini(&f);
		return LF_EXIT_OWN;
	}
	lf_cli_findings_fini(&f);

	/* A device node below a grant opens like a file there; the sandbox
	 * cannot make one, but one planted before launch is the device. */
	r = lf_cli_devnodes_fast(sb, &f);
	if (r < 0) {
		fprintf(stderr, "landfence: cannot scan for device nodes: %s\n", strerror(-r));
		return LF_EXIT_OWN;
	}
	for (size_t i = 0; i < f.n; i++)
		fprintf(stderr, "landfence: %s: %s\n", deny ? "error" : "WARNING", f.lines[i]);
	if (f.incomplete)
		fprintf(stderr, "landfence: note: the device-node scan is incomplete: %s\n",
			f.reason);
	if (f.n && deny) {
		fprintf(stderr, "landfence: a device node lies below a grant and would open like a "
				"file there; nothing was run (remove it)\n");
		lf_cli_findings_fini(&f);
		return LF_EXIT_OWN;
	}
	lf_cli_findings_fini(&f);
	(void)quiet;
	return 0;
}

/* After the program: a change where code runs later outside the sandbox
 * (a git hook planted, agent settings rewritten) is a WARNING, never
 * hidden by -q. Landlock cannot carve these out of a writable project
 * without losing the grant, so the user is told when it happened. */
static void persistence_report(const struct lf_cli_snapshot *snap)
{
	struct lf_cli_findings f = { 0 };
	int r = lf_cli_snapshot_compare(snap, &f);

	if (r < 0) {
		fprintf(stderr,
			"landfence: WARNING: cannot tell whether the program changed git hooks "
			"or other places that run outside the sandbox: %s\n",
			strerror(-r));
		return;
	}
	for (size_t i = 0; i < f.n; i++)
		fprintf(stderr, "landfence: WARNING: %s\n", f.lines[i]);
	lf_cli_findings_fini(&f);
}

/* The agent profiles `run -- NAME` adds by itself. */
static const char *const agent_names[] = { "claude", "codex", "gemini", "aider" };

/* When the command is a known agent (by its basename) and its profile is
 * not asked for yet, adds it, so `landfence run -- claude` just works. */
static void profile_auto(struct lf_cli_opts *o, const char *cmd, bool quiet)
{
	const char *base = strrchr(cmd, '/');

	base = base ? base + 1 : cmd;
	for (size_t i = 0; i < sizeof(agent_names) / sizeof(agent_names[0]); i++) {
		if (strcmp(base, agent_names[i]) != 0)
			continue;
		for (size_t j = 0; j < o->nprofiles; j++)
			if (!strcmp(o->profiles[j], agent_names[i]))
				return;
		if (o->nprofiles >= LF_CLI_MAX_PROFILES)
			return;
		o->profiles[o->nprofiles++] = agent_names[i];
		if (!quiet)
			fprintf(stderr,
				"landfence: note: %s is a known agent: added --profile %s (its "
				"configuration and caches below the home directory)\n",
				base, agent_names[i]);
		return;
	}
}

/* Ends every process of the sandbox still alive once the program has
 * exited. landfence is their subreaper, so orphans are its children and
 * /proc lists them. A leftover in the terminal's session could ignore
 * SIGTTOU, make itself the terminal's foreground process group with
 * tcsetpgrp() and read what the user types into the shell next (doc/
 * escape.md, "Red team, round 2"); it would also outlive the private
 * TMPDIR. Only our own children are signalled: their pids cannot be
 * reused before we reap them. */
static void survivors_kill(void)
{
	char path[64], buf[4096];
	int idle = 0;

	snprintf(path, sizeof(path), "/proc/self/task/%d/children", (int)getpid());
	for (;;) {
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		ssize_t n = -1;
		bool any = false;

		if (fd >= 0) {
			n = read(fd, buf, sizeof(buf) - 1);
			close(fd);
		}
		if (n > 0) {
			buf[n] = '\0';
			for (char *q = buf, *end;; q = end) {
				long pid = strtol(q, &end, 10);
				if (end == q)
					break;
				if (pid > 0 && kill((pid_t)pid, SIGKILL) == 0)
					any = true;
			}
		}
		pid_t w = waitpid(-1, NULL, any ? 0 : WNOHANG);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			break; /* ECHILD: none left */
		/* A child /proc did not list (no CONFIG_PROC_CHILDREN, or one
		 * being reparented): try again a bounded number of times. */
		if (w == 0 && !any && (fd < 0 || ++idle > 1000))
			break;
	}
}

int lf_cmd_run(int argc, char **argv)
{
	static const struct option longopts[] = {
		LF_CLI_COMMON_LONG,
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct lf_cli_opts o = { 0 };
	struct lf_cli_state st;
	struct lf_cli_snapshot snap = { 0 };
	struct lf_plan *plan = NULL;
	struct lf_child *child = NULL;
	struct lf_diag diag = { 0 };
	bool quiet = false;
	int c, r, status, code;

	optind = 1;
	opterr = 1;
	/* '+': stop at the command, so its own options are left alone. */
	while ((c = getopt_long(argc, argv, "+" LF_CLI_COMMON_SHORT "qh", longopts, NULL)) != -1) {
		r = lf_cli_common_opt(&o, c, optarg);
		if (r == 1)
			continue;
		if (r < 0)
			return LF_EXIT_USAGE;
		switch (c) {
		case 'q':
			quiet = true;
			break;
		case 'h':
			run_usage(stdout);
			return LF_EXIT_OK;
		default:
			run_usage(stderr);
			return LF_EXIT_USAGE;
		}
	}
	if (optind >= argc) {
		fputs("landfence run: no command given\n", stderr);
		run_usage(stderr);
		return LF_EXIT_USAGE;
	}
	if (o.json || o.tree) {
		fputs("landfence run: --json and --tree belong to plan\n", stderr);
		return LF_EXIT_USAGE;
	}
	profile_auto(&o, argv[optind], quiet);

	/* Whoever started us may ignore SIGCHLD, which would reap the
	 * program behind our back and lose its status. */
	signal(SIGCHLD, SIG_DFL);

	r = lf_cli_load(&o, &st);
	if (r)
		return r;

	code = lf_cli_plan_compile(&st, &plan);
	if (code)
		goto out;

	struct lf_spawn_opts so = {
		.project_root = st.project_root,
		.profiles = o.profiles,
		.nprofiles = o.nprofiles,
		.cwd = NULL,
		.abi_max = -1,
	};
	r = lf_child_new(st.eff, plan, &so, argv + optind, &child, &diag);
	if (r < 0) {
		switch (r) {
		case -ENOENT:
			fprintf(stderr, "landfence: %s: command not found\n", argv[optind]);
			code = LF_EXIT_NOTFOUND;
			break;
		case -EACCES:
			fprintf(stderr, "landfence: %s: cannot execute: %s\n", argv[optind],
				strerror(EACCES));
			code = LF_EXIT_NOEXEC;
			break;
		case -EOPNOTSUPP:
			print_diag("kernel too old for this policy, nothing was run", &diag);
			code = LF_EXIT_OWN;
			break;
		case -EINVAL:
			print_diag("invalid policy", &diag);
			code = LF_EXIT_USAGE;
			break;
		default:
			print_diag("cannot prepare the sandbox", &diag);
			code = LF_EXIT_OWN;
			break;
		}
		goto out;
	}

	const struct lf_sandbox *sb = lf_child_sandbox(child);
	const struct lf_status *status_p = lf_child_status(child);
	print_status(status_p);
	if (!quiet)
		for (size_t i = 0; i < lf_sandbox_notice_count(sb); i++)
			fprintf(stderr, "landfence: note: %s\n", lf_sandbox_notice(sb, i));

	if (status_p->kind != LF_STATUS_UNSUPPORTED) {
		code = check_before_run(&st, plan, sb, quiet);
		if (code)
			goto out;
	}

	/* Where code planted now would run later outside the sandbox. */
	r = lf_cli_snapshot_take(st.project_root, sb, &snap);
	if (r < 0) {
		fprintf(stderr, "landfence: cannot look at the persistence paths: %s\n",
			strerror(-r));
		code = LF_EXIT_OWN;
		goto out;
	}

	/* Orphans of the sandbox become our children (survivors_kill). */
	(void)prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
	r = lf_child_start(child, &diag);
	if (r < 0) {
		const struct lf_launch_failure *f = lf_child_failure(child);
		print_diag("the program did not run", &diag);
		if (f->stage == LF_STAGE_EXEC)
			code = f->err == ENOENT ? LF_EXIT_NOTFOUND : LF_EXIT_NOEXEC;
		else
			code = LF_EXIT_OWN;
		goto out;
	}
	r = lf_child_wait(child, &status);
	if (r < 0) {
		fprintf(stderr, "landfence: waiting for the program: %s\n", strerror(-r));
		code = LF_EXIT_OWN;
		goto out;
	}
	code = lf_launch_exit_code(status);
	survivors_kill();
	persistence_report(&snap);
out:
	lf_cli_snapshot_fini(&snap);
	/* Removes the private TMPDIR. */
	lf_child_free(child);
	lf_plan_free(plan);
	lf_cli_state_fini(&st);
	return code;
}
