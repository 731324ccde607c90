/* SPDX-License-Identifier: MIT */
/*
 * `landfence trust`: a project policy is used only once the user has
 * trusted it (doc/trust.md). A program sandboxed under a policy can write
 * the project tree; if it could widen the project policy for the next run
 * by editing .landfence/policy.json, the policy would guard nothing. So the
 * SHA-256 of each trusted policy is recorded outside the project, in the
 * user's configuration, and a changed file needs `landfence trust` again,
 * as direnv does for .envrc.
 *
 * The store is $XDG_CONFIG_HOME/landfence/trusted (else
 * ~/.config/landfence/trusted): lines of "<sha256 hex> <canonical path>".
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/sha256.h"
#include "policy/policy.h"

#define LF_TRUST_MAX_STORE (16u << 20)

int lf_trust_store_path(char *out, size_t size)
{
	return lf_cli_config_path("trusted", out, size);
}

/* Reads a whole regular file (NUL terminated) of fewer than max bytes
 * into *out. A policy or a store that is a symbolic link is refused
 * (ELOOP), see lf_trust_policy_path(). */
static int read_all(const char *path, size_t max, char **out, size_t *len)
{
	return lf_file_read_at(AT_FDCWD, path, LF_FILE_STRICT, max - 1, out, len);
}

static int store_find(const char *store, const char *path, char hex[LF_SHA256_HEX_LEN + 1]);

int lf_trust_policy_path(const char *project_root, char *out, size_t size)
{
	char dir[PATH_MAX];
	struct stat st;
	int n;

	if (!project_root || project_root[0] != '/')
		return -EINVAL;
	n = snprintf(dir, sizeof(dir), "%s/.landfence", project_root);
	if (n < 0 || (size_t)n >= sizeof(dir))
		return -ENAMETOOLONG;
	/* The trust is for this project's own file. A symbolic link, for
	 * .landfence or for the policy, could point at a policy trusted for
	 * another project (a wider one), and the trust check would pass. */
	if (lstat(dir, &st) != 0)
		return -errno;
	if (!S_ISDIR(st.st_mode))
		return S_ISLNK(st.st_mode) ? -ELOOP : -ENOTDIR;
	n = snprintf(out, size, "%s/policy.json", dir);
	if (n < 0 || (size_t)n >= size)
		return -ENAMETOOLONG;
	if (lstat(out, &st) != 0)
		return -errno;
	if (!S_ISREG(st.st_mode))
		return S_ISLNK(st.st_mode) ? -ELOOP : -EINVAL;
	return 0;
}

bool lf_trust_known(const char *path)
{
	char store_path[PATH_MAX], hex[LF_SHA256_HEX_LEN + 1];
	char *store = NULL;
	size_t slen;

	if (lf_trust_store_path(store_path, sizeof(store_path)) < 0 ||
	    read_all(store_path, LF_TRUST_MAX_STORE, &store, &slen) < 0)
		return false;
	bool known = store_find(store, path, hex) == 0;
	free(store);
	return known;
}

int lf_trust_read_policy(const char *path, char **text, size_t *len)
{
	/* The loader's limit (policy.h), so that trusting and loading
	 * agree on which files are policies at all. */
	return read_all(path, LF_POLICY_MAX_SIZE + 1, text, len);
}

/* Looks path up in the store text. Returns 0 and the recorded digest in
 * hex, or -ENOENT. */
static int store_find(const char *store, const char *path, char hex[LF_SHA256_HEX_LEN + 1])
{
	const char *line = store;
	size_t plen = strlen(path);

	while (*line) {
		const char *end = strchr(line, '\n');
		size_t ll = end ? (size_t)(end - line) : strlen(line);
		if (ll == LF_SHA256_HEX_LEN + 1 + plen && line[LF_SHA256_HEX_LEN] == ' ' &&
		    !memcmp(line + LF_SHA256_HEX_LEN + 1, path, plen)) {
			memcpy(hex, line, LF_SHA256_HEX_LEN);
			hex[LF_SHA256_HEX_LEN] = '\0';
			return 0;
		}
		if (!end)
			break;
		line = end + 1;
	}
	return -ENOENT;
}

int lf_trust_check(const char *canon_path, const void *text, size_t len)
{
	char store_path[PATH_MAX], want[LF_SHA256_HEX_LEN + 1], have[LF_SHA256_HEX_LEN + 1];
	char *store = NULL;
	size_t slen;
	int r;

	if (!canon_path || canon_path[0] != '/' || (!text && len))
		return -EINVAL;
	r = lf_trust_store_path(store_path, sizeof(store_path));
	if (r < 0)
		return r == -ENOENT ? -EPERM : r;
	r = read_all(store_path, LF_TRUST_MAX_STORE, &store, &slen);
	if (r == -ENOENT)
		return -EPERM;
	if (r < 0)
		return r;
	r = store_find(store, canon_path, want);
	free(store);
	if (r < 0)
		return -EPERM;
	lf_sha256_hex(text, len, have);
	return strcmp(want, have) == 0 ? 0 : -ESTALE;
}

static int mkdir_parents(const char *file)
{
	char p[PATH_MAX];

	if (strlen(file) >= sizeof(p))
		return -ENAMETOOLONG;
	strcpy(p, file);
	for (char *s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, 0700) != 0 && errno != EEXIST)
			return -errno;
		*s = '/';
	}
	return 0;
}

/* Rewrites the store without path's line, plus "hex path" when hex is not
 * NULL. Written to a temporary file and renamed over, so that a crash
 * never leaves half a store. */
static int store_update(const char *path, const char *hex)
{
	char store_path[PATH_MAX], tmp[PATH_MAX + 16];
	char *store = NULL;
	size_t slen = 0;
	int r;

	if (strchr(path, '\n'))
		return -EINVAL;
	r = lf_trust_store_path(store_path, sizeof(store_path));
	if (r < 0)
		return r;
	r = read_all(store_path, LF_TRUST_MAX_STORE, &store, &slen);
	if (r == -ENOENT) {
		store = NULL;
		slen = 0;
	} else if (r < 0) {
		return r;
	}
	r = mkdir_parents(store_path);
	if (r < 0)
		goto out;
	snprintf(tmp, sizeof(tmp), "%s.XXXXXX", store_path);
	int fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		r = -errno;
		goto out;
	}
	FILE *f = fdopen(fd, "w");
	if (!f) {
		r = -errno;
		close(fd);
		unlink(tmp);
		goto out;
	}
	size_t plen = strlen(path);
	for (const char *line = store; line && *line;) {
		const char *end = strchr(line, '\n');
		size_t ll = end ? (size_t)(end - line) : strlen(line);
		bool same = ll == LF_SHA256_HEX_LEN + 1 + plen && line[LF_SHA256_HEX_LEN] == ' ' &&
			    !memcmp(line + LF_SHA256_HEX_LEN + 1, path, plen);
		if (!same && ll)
			fprintf(f, "%.*s\n", (int)ll, line);
		line = end ? end + 1 : NULL;
	}
	if (hex)
		fprintf(f, "%s %s\n", hex, path);
	if (fflush(f) != 0 || fsync(fileno(f)) != 0) {
		r = -errno;
		fclose(f);
		unlink(tmp);
		goto out;
	}
	if (fclose(f) != 0) {
		r = -errno;
		unlink(tmp);
		goto out;
	}
	if (rename(tmp, store_path) != 0) {
		r = -errno;
		unlink(tmp);
		goto out;
	}
	r = 0;
out:
	free(store);
	return r;
}

int lf_trust_record(const char *canon_path, const void *text, size_t len)
{
	char hex[LF_SHA256_HEX_LEN + 1];

	if (!canon_path || canon_path[0] != '/' || (!text && len))
		return -EINVAL;
	lf_sha256_hex(text, len, hex);
	return store_update(canon_path, hex);
}

int lf_trust_report(const char *shown_path, int err)
{
	char store[PATH_MAX];

	if (lf_trust_store_path(store, sizeof(store)) < 0)
		snprintf(store, sizeof(store), "~/.config/landfence/trusted");
	switch (err) {
	case -EPERM:
		fprintf(stderr,
			"landfence: %s: this project policy is not trusted; nothing ran.\n"
			"landfence: review it, then run `landfence trust` in the project to use it "
			"(trusted policies are recorded in %s)\n",
			shown_path, store);
		break;
	case -ELOOP:
		fprintf(stderr,
			"landfence: %s: a project policy must be a regular file in the project's "
			"own "
			".landfence directory, not a symbolic link; nothing ran\n",
			shown_path);
		break;
	case -ENOENT:
		fprintf(stderr,
			"landfence: %s: this trusted project policy is gone; nothing ran.\n"
			"landfence: restore it, or run `landfence trust --revoke` in the project "
			"to "
			"run without it\n",
			shown_path);
		break;
	case -ESTALE:
		fprintf(stderr,
			"landfence: %s: this project policy changed since you trusted it; nothing "
			"ran.\n"
			"landfence: review the change, then run `landfence trust` in the project "
			"again\n",
			shown_path);
		break;
	default:
		fprintf(stderr, "landfence: %s: cannot check whether it is trusted: %s\n",
			shown_path, strerror(-err));
		break;
	}
	return LF_EXIT_USAGE;
}

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

int lf_cmd_trust(int argc, char **argv)
{
	enum {
		OPT_REVOKE = 0x200,
		OPT_STATUS,
		OPT_HELP
	};
	static const struct option longopts[] = {
		LF_CLI_COMMON_LONG,
		{ "revoke", no_argument, NULL, OPT_REVOKE },
		{ "status", no_argument, NULL, OPT_STATUS },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct lf_cli_opts o = { 0 };
	bool revoke = false, status = false;
	char root[PATH_MAX], path[PATH_MAX + 32], canon[PATH_MAX] = "";
	int c, r;

	optind = 1;
	while ((c = getopt_long(argc, argv, "+" LF_CLI_COMMON_SHORT "h", longopts, NULL)) != -1) {
		if (c == OPT_REVOKE) {
			revoke = true;
		} else if (c == OPT_STATUS) {
			status = true;
		} else if (c == 'h') {
			usage(stdout);
			return LF_EXIT_OK;
		} else {
			r = lf_cli_common_opt(&o, c, optarg);
			if (r == 1 && c != 'p' && c != LF_OPT_PROFILE)
				continue;
			if (r == 1)
				fprintf(stderr, "landfence trust: -p and --profile do not apply: "
						"only the project policy needs trust\n");
			usage(stderr);
			return LF_EXIT_USAGE;
		}
	}
	if (optind != argc || (revoke && status)) {
		usage(stderr);
		return LF_EXIT_USAGE;
	}
	r = lf_cli_project_root(&o, root, sizeof(root));
	if (r)
		return r;
	r = lf_trust_policy_path(root, canon, sizeof(canon));
	if (r == -ENOENT && revoke) {
		/* The file is gone: forget the name it had. */
		snprintf(path, sizeof(path), "%s/.landfence/policy.json", root);
		if (strlen(path) >= sizeof(canon))
			return LF_EXIT_USAGE;
		strcpy(canon, path);
	} else if (r < 0) {
		snprintf(path, sizeof(path), "%s/.landfence/policy.json", root);
		if (r == -ELOOP)
			return lf_trust_report(path, r);
		fprintf(stderr, "landfence trust: %s: %s\n", path, strerror(-r));
		return LF_EXIT_USAGE;
	}
	if (revoke) {
		r = store_update(canon, NULL);
		if (r < 0) {
			fprintf(stderr, "landfence trust: cannot update the trust store: %s\n",
				strerror(-r));
			return LF_EXIT_OWN;
		}
		printf("revoked %s\n", canon);
		return LF_EXIT_OK;
	}

	char *text = NULL;
	size_t len = 0;
	r = lf_trust_read_policy(canon, &text, &len);
	if (r == -EFBIG) {
		fprintf(stderr,
			"landfence trust: %s: larger than %s, expected a policy of at most %s; "
			"not trusted\n",
			canon, LF_POLICY_MAX_SIZE_TEXT, LF_POLICY_MAX_SIZE_TEXT);
		return LF_EXIT_USAGE;
	}
	if (r < 0) {
		fprintf(stderr, "landfence trust: %s: %s\n", canon, strerror(-r));
		return LF_EXIT_USAGE;
	}
	if (status) {
		r = lf_trust_check(canon, text, len);
		free(text);
		if (r == 0) {
			printf("trusted %s\n", canon);
			return LF_EXIT_OK;
		}
		printf("%s %s\n", r == -ESTALE ? "changed" : "untrusted", canon);
		return LF_EXIT_DENY;
	}

	/* Trusting a policy that does not load would record a hash nobody
	 * can use: check it first, and show the user where it is wrong. */
	struct lf_policy *p = NULL;
	struct lf_diag diag = { 0 };
	r = lf_policy_parse(text, len, canon, LF_LAYER_PROJECT, &p, &diag);
	if (r < 0) {
		char msg[1200];
		lf_diag_format(&diag, msg, sizeof(msg));
		fprintf(stderr, "%s\nlandfence trust: not trusted: fix the policy first\n", msg);
		free(text);
		return r == -ENOMEM ? LF_EXIT_OWN : LF_EXIT_USAGE;
	}
	lf_policy_free(p);

	char hex[LF_SHA256_HEX_LEN + 1];
	lf_sha256_hex(text, len, hex);
	r = lf_trust_record(canon, text, len);
	free(text);
	if (r < 0) {
		char store[PATH_MAX];
		if (lf_trust_store_path(store, sizeof(store)) < 0)
			snprintf(store, sizeof(store), "(no $XDG_CONFIG_HOME or $HOME)");
		fprintf(stderr, "landfence trust: cannot record the trust in %s: %s\n", store,
			strerror(-r));
		return LF_EXIT_OWN;
	}
	printf("trusted %s\nsha256 %s\n", canon, hex);
	return LF_EXIT_OK;
}
