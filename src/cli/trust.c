/* SPDX-License-Identifier: MIT */
/*
 * landfence trust [-C DIR] [--revoke | --status]: records, forgets or
 * reports the trust of DIR/.landfence/policy.json (doc/trust.md). The
 * store and its rules are the library's (lf_trust_*, src/project).
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

static const char usage_text[] =
	"usage: landfence trust [-C DIR] [--revoke | --status]\n"
	"Records the SHA-256 of DIR/.landfence/policy.json as trusted.\n"
	"\noptions:\n" LF_HELP_DIRECTORY "      --revoke          forget the trust instead\n"
	"      --status          say whether the policy is trusted (exit 0 yes, 1 "
	"no)\n" LF_HELP_HELP
	"\nexit status: 0, 1 not trusted (--status), 2 usage or policy error, 125\n"
	"landfence's own error. See landfence-trust(1).\n";

static void usage(FILE *f)
{
	fputs(usage_text, f);
}

enum trust_action {
	TRUST_ADD,
	TRUST_REVOKE,
	TRUST_STATUS,
};

/* Returns -1 after a good parse, else the exit status. */
static int trust_parse(int argc, char **argv, struct lf_cli_opts *o, enum trust_action *act)
{
	enum {
		OPT_REVOKE = 0x200,
		OPT_STATUS
	};
	static const struct option longopts[] = {
		LF_CLI_COMMON_LONG,
		{ "revoke", no_argument, NULL, OPT_REVOKE },
		{ "status", no_argument, NULL, OPT_STATUS },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, n = 0;

	optind = 1;
	while ((c = getopt_long(argc, argv, "+" LF_CLI_COMMON_SHORT "h", longopts, NULL)) != -1) {
		if (c == OPT_REVOKE || c == OPT_STATUS) {
			*act = c == OPT_REVOKE ? TRUST_REVOKE : TRUST_STATUS;
			n++;
			continue;
		}
		if (c == 'h') {
			usage(stdout);
			return LF_EXIT_OK;
		}
		int r = lf_cli_common_opt(o, c, optarg);
		if (r == 1 && c != 'p' && c != LF_OPT_PROFILE)
			continue;
		if (r == 1)
			fprintf(stderr, "landfence trust: -p and --profile do not apply: "
					"only the project policy needs trust\n");
		usage(stderr);
		return LF_EXIT_USAGE;
	}
	if (optind != argc || n > 1) {
		usage(stderr);
		return LF_EXIT_USAGE;
	}
	return -1;
}

/* Why the policy cannot be read or trusted, said as `landfence trust`. */
static int trust_error(const char *root, int r, const struct lf_diag *diag)
{
	char path[PATH_MAX + 32];

	snprintf(path, sizeof(path), "%s/.landfence/policy.json", root);
	if (diag && diag->file[0]) {
		/* The policy does not load: where it is wrong. */
		lf_cli_diag(diag);
		fputs("landfence trust: not trusted: fix the policy first\n", stderr);
	} else if (r == -EFBIG) {
		fprintf(stderr,
			"landfence trust: %s: larger than 4 MiB, expected a policy of at most 4 "
			"MiB; not trusted\n",
			path);
	} else if (r == -ELOOP) {
		fprintf(stderr,
			"landfence: %s: a project policy must be a regular file in the project's "
			"own .landfence directory, not a symbolic link; nothing ran\n",
			path);
	} else {
		fprintf(stderr, "landfence trust: %s: %s\n", path, strerror(-r));
	}
	return r == -ENOMEM ? LF_EXIT_OWN : LF_EXIT_USAGE;
}

static int trust_do(const char *root, enum trust_action act)
{
	char sha[65], store[PATH_MAX];
	struct lf_diag diag = { 0 };
	int r;

	switch (act) {
	case TRUST_REVOKE:
		r = lf_trust_remove(root);
		if (r == -ELOOP)
			return trust_error(root, r, NULL);
		if (r < 0) {
			fprintf(stderr, "landfence trust: cannot update the trust store: %s\n",
				strerror(-r));
			return LF_EXIT_OWN;
		}
		printf("revoked %s/.landfence/policy.json\n", root);
		return LF_EXIT_OK;
	case TRUST_STATUS:
		r = lf_trust_status(root);
		if (r == 0 || r == -EPERM || r == -ESTALE) {
			printf("%s %s/.landfence/policy.json\n",
			       r == 0	      ? "trusted"
			       : r == -ESTALE ? "changed"
					      : "untrusted",
			       root);
			return r == 0 ? LF_EXIT_OK : LF_EXIT_DENY;
		}
		return trust_error(root, r, NULL);
	case TRUST_ADD:
		break;
	}
	r = lf_trust_add(root, sha, &diag);
	if (r == -EINVAL || r == -EFBIG || r == -ELOOP || r == -ENOENT || r == -ENOTDIR)
		return trust_error(root, r, &diag);
	if (r < 0) {
		if (lf_trust_store_path(store, sizeof(store)) < 0)
			snprintf(store, sizeof(store), "(no $XDG_CONFIG_HOME or $HOME)");
		fprintf(stderr, "landfence trust: cannot record the trust in %s: %s\n", store,
			strerror(-r));
		return LF_EXIT_OWN;
	}
	printf("trusted %s/.landfence/policy.json\nsha256 %s\n", root, sha);
	return LF_EXIT_OK;
}

int lf_cmd_trust(int argc, char **argv)
{
	struct lf_cli_opts o = { 0 };
	enum trust_action act = TRUST_ADD;
	struct lf_project *p = NULL;
	int r;

	if ((r = trust_parse(argc, argv, &o, &act)) >= 0)
		return r;
	if ((r = lf_cli_open(&o, LF_PROJECT_ROOT_ONLY, &p)) != 0)
		return r;
	r = trust_do(lf_project_root(p), act);
	lf_project_free(p);
	return r;
}
