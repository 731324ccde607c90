/* SPDX-License-Identifier: MIT */
/*
 * landfence init [-C DIR]: writes a starter
 * .landfence/policy.json in the project root. Never overwrites one.
 *
 * Exit status: 0 written; 2 a policy already exists or bad usage; 125 the
 * file could not be written.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "project/project.h"

/* The starter builds on the embedded default ("extends": "default": the
 * project readable and writable, fallback deny, the host grants, the
 * discovered toolchains) and shows the syntax of what users add: shell
 * rules (advisory only), host grants, profiles. Fences drop every allow
 * they overlap (SPEC §2), so a deny inside the project would drop the
 * default's broad "**" allow of its class entirely: none is suggested.
 * "rm" is asked about as a whole: a prefix "rm -rf" would miss "rm -fr",
 * "rm -r -f" and "rm --recursive". */
static const char starter[] =
	"{\n"
	"  \"version\": 1,\n"
	"  \"extends\": \"default\",\n"
	"  \"rules\": [\n"
	"    { \"effect\": \"allow\", \"capability\": \"bash\", \"commands\": [\n"
	"        { \"effect\": \"deny\",  \"prefix\": \"git push\" },\n"
	"        { \"effect\": \"ask\",   \"prefix\": \"rm\" } ] }\n"
	"  ],\n"
	"  \"host\": { \"read\": [], \"write\": [] },\n"
	"  \"profiles\": []\n"
	"}\n";

static const char usage_text[] =
	"usage: landfence init [-C DIR]\n"
	"Writes a starter .landfence/policy.json at the project root and trusts it.\n"
	"\noptions:\n" LF_HELP_DIRECTORY LF_HELP_HELP
	"\nexit status: 0 written, 2 a policy exists already or usage error, 125 cannot\n"
	"write. See landfence-init(1).\n";

int lf_cmd_init(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "directory", required_argument, NULL, 'C' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *dir = NULL;
	char root[PATH_MAX], ldir[PATH_MAX + 16], file[PATH_MAX + 32];
	int c, fd, r;

	optind = 1;
	while ((c = getopt_long(argc, argv, "C:h", longopts, NULL)) != -1) {
		if (c == 'C') {
			dir = optarg;
		} else if (c == 'h') {
			fputs(usage_text, stdout);
			return LF_EXIT_OK;
		} else {
			fputs(usage_text, stderr);
			return LF_EXIT_USAGE;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "landfence init: unexpected argument '%s'\n", argv[optind]);
		return LF_EXIT_USAGE;
	}
	struct lf_cli_opts o = { .project_dir = dir };
	struct lf_project *p = NULL;
	if ((r = lf_cli_open(&o, LF_PROJECT_ROOT_ONLY, &p)) != 0)
		return r;
	snprintf(root, sizeof(root), "%s", lf_project_root(p));
	lf_project_free(p);
	snprintf(ldir, sizeof(ldir), "%s/.landfence", root);
	snprintf(file, sizeof(file), "%s/policy.json", ldir);
	if (mkdir(ldir, 0755) < 0 && errno != EEXIST) {
		fprintf(stderr, "landfence init: %s: %s\n", ldir, strerror(errno));
		return LF_EXIT_OWN;
	}
	/* A .landfence that is a symlink would put the policy (and its
	 * trust) somewhere else than where the commands look for it. */
	struct stat lst;
	if (lstat(ldir, &lst) < 0 || !S_ISDIR(lst.st_mode)) {
		fprintf(stderr, "landfence init: %s is not a directory\n", ldir);
		return LF_EXIT_USAGE;
	}
	/* O_EXCL: an existing policy (or a symlink in its place) is never
	 * replaced. */
	fd = open(file, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0) {
		if (errno == EEXIST) {
			fprintf(stderr,
				"landfence init: %s already exists; not overwriting it (edit it, "
				"or "
				"remove it first)\n",
				file);
			return LF_EXIT_USAGE;
		}
		fprintf(stderr, "landfence init: %s: %s\n", file, strerror(errno));
		return LF_EXIT_OWN;
	}
	size_t len = sizeof(starter) - 1, done = 0;
	while (done < len) {
		ssize_t n = write(fd, starter + done, len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			fprintf(stderr, "landfence init: %s: %s\n", file,
				strerror(n < 0 ? errno : EIO));
			close(fd);
			unlink(file);
			return LF_EXIT_OWN;
		}
		done += (size_t)n;
	}
	if (close(fd) < 0) {
		fprintf(stderr, "landfence init: %s: %s\n", file, strerror(errno));
		unlink(file);
		return LF_EXIT_OWN;
	}
	printf("wrote %s\n", file);
	/* The user wrote it just now, with known content: trust it, so that
	 * plan and run use it at once (doc/trust.md). */
	r = lf_trust_record(file, starter, len);
	if (r < 0)
		printf("Could not record it as trusted (%s): run `landfence trust` to use it.\n",
		       strerror(-r));
	else
		printf("Trusted it (a change to it needs `landfence trust` again).\n");
	printf("See it with `landfence plan`; run a program under it with `landfence run -- "
	       "CMD`.\n");
	return LF_EXIT_OK;
}
