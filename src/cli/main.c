/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *help;
} commands[] = {
	{ "run", lf_cmd_run,
	  "run [-p POLICY]... [--profile NAME] -- CMD ARGS...   run CMD under the OS guard" },
	{ "plan", lf_cmd_plan,
	  "plan [--json] [--tree]                            show the compiled sandbox plan" },
	{ "check", lf_cmd_check,
	  "check read|write|delete PATH... | check bash -- LINE   the advisory verdict" },
	{ "hook", lf_cmd_hook,
	  "hook claude                                       a Claude Code PreToolUse hook" },
	{ "import", lf_cmd_import,
	  "import claude FILE...                             Claude Code settings to a policy" },
	{ "export", lf_cmd_export,
	  "export claude                                     a policy to Claude Code settings" },
	{ "doctor", lf_cmd_doctor,
	  "doctor                                            what this kernel can enforce" },
	{ "init", lf_cmd_init,
	  "init                                              write a starter policy" },
	{ "trust", lf_cmd_trust,
	  "trust                                             trust the project's policy file" },
};

static void usage(FILE *f)
{
	fputs("usage: landfence COMMAND [-C DIR] [-p POLICY]... [--profile NAME]... "
	      "ARGS...\n\ncommands:\n",
	      f);
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  %s\n", commands[i].help);
	fputs("\nexit status: see doc/cli.md\n", f);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return LF_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return LF_EXIT_OK;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("landfence %s\n", lf_version(NULL, NULL, NULL));
		return LF_EXIT_OK;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].fn(argc - 1, argv + 1);
	if (argv[1][0] == '-') {
		/* `landfence -C . plan`: say where the options go, with the
		 * command line rearranged when a command follows. */
		int cmd = 0;

		for (int i = 2; i < argc && !cmd; i++)
			for (size_t j = 0; j < sizeof(commands) / sizeof(commands[0]); j++)
				if (!strcmp(argv[i], commands[j].name))
					cmd = i;
		fprintf(stderr, "landfence: options go after the command: landfence COMMAND "
				"[OPTIONS]");
		if (cmd) {
			fprintf(stderr, ", e.g. `landfence %s", argv[cmd]);
			for (int i = 1; i < argc; i++)
				if (i != cmd)
					fprintf(stderr, " %s", argv[i]);
			fputs("`", stderr);
		} else {
			fputs(", e.g. `landfence plan -C .`", stderr);
		}
		fputs("\n", stderr);
		return LF_EXIT_USAGE;
	}
	fprintf(stderr,
		"landfence: unknown command '%s', expected one of run, plan, check, hook, import, "
		"export, doctor, init, trust\n",
		argv[1]);
	return LF_EXIT_USAGE;
}
