/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

static bool profile_known(const char *name)
{
	for (size_t i = 0; i < lf_profile_count(); i++)
		if (!strcmp(lf_profile_name(i), name))
			return true;
	return false;
}

static void profile_usage(const char *arg)
{
	fprintf(stderr, "landfence: unknown profile \"%s\", expected one of", arg);
	for (size_t i = 0; i < lf_profile_count(); i++)
		fprintf(stderr, "%s %s", i ? "," : "", lf_profile_name(i));
	fputs("\n", stderr);
}

int lf_cli_common_opt(struct lf_cli_opts *o, int c, const char *arg)
{
	switch (c) {
	case 'p':
		if (o->npolicies >= LF_CLI_MAX_LAYERS) {
			fprintf(stderr, "landfence: too many -p options (at most %d)\n",
				LF_CLI_MAX_LAYERS);
			return -1;
		}
		o->policies[o->npolicies++] = arg;
		return 1;
	case 'C':
		o->project_dir = arg;
		return 1;
	case LF_OPT_PROFILE:
		if (!profile_known(arg)) {
			profile_usage(arg);
			return -1;
		}
		if (o->nprofiles >= LF_CLI_MAX_PROFILES) {
			fprintf(stderr, "landfence: too many --profile options (at most %d)\n",
				LF_CLI_MAX_PROFILES);
			return -1;
		}
		o->profiles[o->nprofiles++] = arg;
		return 1;
	case LF_OPT_JSON:
		o->json = true;
		return 1;
	case LF_OPT_TREE:
		o->tree = true;
		return 1;
	default:
		return 0;
	}
}

int lf_cli_opts_parse(int argc, char **argv, const char *usage, struct lf_cli_opts *o)
{
	static const struct option longopts[] = {
		LF_CLI_COMMON_LONG,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, r;

	optind = 1;
	while ((c = getopt_long(argc, argv, LF_CLI_COMMON_SHORT "h", longopts, NULL)) != -1) {
		r = lf_cli_common_opt(o, c, optarg);
		if (r == 1)
			continue;
		if (r < 0)
			return LF_EXIT_USAGE;
		if (c == 'h') {
			fputs(usage, stdout);
			return LF_EXIT_OK;
		}
		fputs(usage, stderr);
		return LF_EXIT_USAGE;
	}
	return -1;
}

void lf_cli_diag(const struct lf_diag *d)
{
	char buf[4096];

	lf_diag_format(d, buf, sizeof(buf));
	fprintf(stderr, "%s\n", buf);
}

void lf_cli_message(void *ctx, enum lf_severity severity, const char *text)
{
	const struct lf_cli_opts *o = ctx;

	if (severity == LF_SEVERITY_NOTE && o && o->quiet)
		return;
	fprintf(stderr, "landfence: %s: %s\n", lf_severity_name(severity), text);
}

int lf_cli_open(const struct lf_cli_opts *o, unsigned flags, struct lf_project **out)
{
	struct lf_project_opts po = {
		.size = sizeof(po),
		.directory = o->project_dir,
		.policy_files = o->policies,
		.npolicy_files = o->npolicies,
		.flags = flags,
	};
	struct lf_diag diag;
	int r = lf_project_open(&po, out, &diag);

	if (r < 0) {
		lf_cli_diag(&diag);
		return lf_exit_status(r);
	}
	/* Named on purpose, but never quietly (not hidden by -q). */
	for (size_t i = 0; i < lf_project_warning_count(*out); i++)
		lf_cli_message(NULL, LF_SEVERITY_WARNING, lf_project_warning(*out, i));
	return 0;
}
