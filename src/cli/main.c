/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "landlock/sandbox.h"

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *help;
} commands[] = {
	{ "run", lf_cmd_run, "run a command under the OS guard (Landlock)" },
	{ "plan", lf_cmd_plan, "show the compiled sandbox plan" },
	{ "check", lf_cmd_check, "the advisory verdict for a file request or a command line" },
	{ "hook", lf_cmd_hook, "a Claude Code PreToolUse hook" },
	{ "import", lf_cmd_import, "Claude Code settings to a policy" },
	{ "export", lf_cmd_export, "a policy to Claude Code settings" },
	{ "doctor", lf_cmd_doctor, "what this machine can enforce" },
	{ "init", lf_cmd_init, "write a starter policy" },
	{ "trust", lf_cmd_trust, "trust the project's policy file" },
};

static void usage(FILE *f)
{
	fputs("usage: landfence COMMAND [OPTIONS] [ARGS...]\n"
	      "       landfence --help | --version | --list-profiles\n"
	      "Runs a program and everything it starts under one permission policy, enforced\n"
	      "by the kernel (Landlock) and answered for the program's own permission prompts.\n"
	      "\ncommands:\n",
	      f);
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  %-8s  %s\n", commands[i].name, commands[i].help);
	fputs("\noptions:\n"
	      "      --list-profiles   print the agent profiles landfence knows, one per line\n"
	      "      --version         print the version\n" LF_HELP_HELP
	      "\nEach command's options: landfence COMMAND --help, and its manual page,\n"
	      "landfence-COMMAND(1). The policy file: landfence-policy(5); the model: "
	      "landfence(7).\n"
	      "exit status: see landfence(1).\n",
	      f);
}

int main(int argc, char **argv)
{
	/* Before anything is printed: nothing leaves raw. */
	if (lf_cli_output_escape() < 0) {
		fputs("landfence: out of memory\n", stderr);
		return LF_EXIT_OWN;
	}
	lf_cli_heap_room();
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
	if (!strcmp(argv[1], "--list-profiles")) {
		/* For shell completions and scripts: the names --profile and a
		 * policy's "profiles" take. */
		if (argc != 2) {
			fputs("landfence: --list-profiles takes no argument\n", stderr);
			return LF_EXIT_USAGE;
		}
		for (size_t i = 0; lf_profile_name(i); i++)
			puts(lf_profile_name(i));
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
