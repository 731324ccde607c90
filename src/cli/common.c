/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "core/text.h"
#include "policy/policy.h"

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
	case LF_OPT_UNSAFE_ROOT:
		o->unsafe_root = true;
		return 1;
	case LF_OPT_ALLOW_UNSCOPED:
		o->allow_unscoped = true;
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
		.flags = flags | (o->unsafe_root ? LF_PROJECT_UNSAFE_ROOT : 0),
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

/* ------------------------------------------------------------------------
 * Escaped output: every byte landfence prints goes through the escaper
 * (core/text.h), keeping only newlines and tabs, so no code path can
 * print a file name, a policy's string or a payload's text raw
 * (doc/cli.md, "Output"). JSON stays the same JSON: jansson escapes
 * every control character below 0x20 itself, and a C1 character becomes
 * \u0085-style, which is the same character in a JSON string.
 */

struct sink {
	int fd;
	struct lf_text_state st;
};

static ssize_t sink_write(void *cookie, const char *buf, size_t n)
{
	struct sink *s = cookie;
	char out[6 * 1024 + 18];

	for (size_t done = 0; done < n;) {
		size_t chunk = n - done < 1024 ? n - done : 1024;
		size_t k = lf_text_escape_step(&s->st, buf + done, chunk, out, true);

		if (lf_fd_write(s->fd, out, k) < 0)
			return done ? (ssize_t)done : -1;
		done += chunk;
	}
	return (ssize_t)n;
}

static int sink_close(void *cookie)
{
	struct sink *s = cookie;
	char out[32];
	size_t k = lf_text_escape_step(&s->st, NULL, 0, out, true);
	int r = lf_fd_write(s->fd, out, k);

	free(s);
	return r;
}

static FILE *sink_open(int fd, int mode)
{
	cookie_io_functions_t io = { .write = sink_write, .close = sink_close };
	struct sink *s = calloc(1, sizeof(*s));
	FILE *f;

	if (!s)
		return NULL;
	s->fd = fd;
	f = fopencookie(s, "w", io);
	if (!f) {
		free(s);
		return NULL;
	}
	setvbuf(f, NULL, mode, 0);
	return f;
}

static FILE *plain_out, *plain_err;

/* At exit: what is still buffered goes out, the escaping streams are
 * closed (and freed), and the plain ones are back for anything later. */
static void output_escape_end(void)
{
	FILE *out = stdout, *err = stderr;

	stdout = plain_out;
	stderr = plain_err;
	fclose(out);
	fclose(err);
}

int lf_cli_output_escape(void)
{
	FILE *out = sink_open(STDOUT_FILENO, isatty(STDOUT_FILENO) ? _IOLBF : _IOFBF);
	FILE *err = sink_open(STDERR_FILENO, _IONBF);

	if (!out || !err || atexit(output_escape_end) != 0) {
		if (out)
			fclose(out);
		if (err)
			fclose(err);
		return -ENOMEM;
	}
	fflush(stdout);
	fflush(stderr);
	plain_out = stdout;
	plain_err = stderr;
	stdout = out;
	stderr = err;
	return 0;
}
