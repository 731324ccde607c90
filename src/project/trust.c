/* SPDX-License-Identifier: MIT */
/*
 * Trust: a project policy is used only once the user has trusted it
 * (doc/trust.md). A program sandboxed under a policy can write
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
#include <stdarg.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fs/fs.h"
#include "policy/policy.h"
#include "project/project.h"
#include "project/sha256.h"

#define LF_TRUST_MAX_STORE (16u << 20)

int lf_config_path(const char *name, char *out, size_t size)
{
	const char *xdg = secure_getenv("XDG_CONFIG_HOME");
	const char *home = secure_getenv("HOME");
	int n;

	if (xdg && xdg[0] == '/')
		n = snprintf(out, size, "%s/landfence/%s", xdg, name);
	else if (home && home[0] == '/')
		n = snprintf(out, size, "%s/.config/landfence/%s", home, name);
	else
		return -ENOENT;
	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

int lf_trust_store_path(char *out, size_t size)
{
	return lf_config_path("trusted", out, size);
}

/* Reads a whole regular file (NUL terminated) of fewer than max bytes
 * into *out. A policy or a store that is a symbolic link is refused
 * (ELOOP), see lf_trust_policy_path(). */
static int read_all(const char *path, size_t max, char **out, size_t *len)
{
	return lf_file_read_at(AT_FDCWD, path, LF_FILE_STRICT, max - 1, out, len);
}

/* The store, read as read_all does, and only when it is the user's own
 * that nobody else may write, with no other name (lf_cache_file_ours),
 * in directories nobody else may change (lf_path_guarded):
 * a sandboxed program cannot write it, but it can chmod it (Landlock
 * does not mediate chmod), and another local user could then record
 * any digest. Else -EACCES: nothing is trusted, and `landfence trust`
 * does not carry its lines over. */
static int store_read(const char *path, char **out, size_t *len)
{
	char bad[PATH_MAX + 64];
	struct stat st;
	int r = lf_path_guarded(path, bad, sizeof(bad)), fd;

	*out = NULL;
	if (r < 0)
		return r;
	fd = lf_cache_file_open(path, LF_TRUST_MAX_STORE - 1, &st);
	if (fd < 0)
		return fd;
	r = lf_fd_read(fd, (size_t)st.st_size + 1, LF_TRUST_MAX_STORE - 1, out, len);
	close(fd);
	return r == 0 && !*out ? -EIO : r;
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

/* Reads the store the first time it is asked about. A store that does
 * not exist (or has no place: no HOME) trusts nothing: -EPERM. */
static void store_load(struct lf_trust_store *s)
{
	char store_path[PATH_MAX];
	size_t slen;
	int r;

	if (s->loaded)
		return;
	s->loaded = true;
	s->text = NULL;
	r = lf_trust_store_path(store_path, sizeof(store_path));
	if (r == 0)
		r = store_read(store_path, &s->text, &slen);
	s->err = r == -ENOENT ? -EPERM : r < 0 ? r : s->text ? 0 : -EIO;
}

void lf_trust_store_fini(struct lf_trust_store *s)
{
	if (!s)
		return;
	free(s->text);
	*s = (struct lf_trust_store){ 0 };
}

bool lf_trust_store_known(struct lf_trust_store *s, const char *path)
{
	char hex[LF_SHA256_HEX_LEN + 1];

	store_load(s);
	return s->err == 0 && store_find(s->text, path, hex) == 0;
}

bool lf_trust_known(const char *path)
{
	struct lf_trust_store s = { 0 };
	bool known = lf_trust_store_known(&s, path);

	lf_trust_store_fini(&s);
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

int lf_trust_store_check(struct lf_trust_store *s, const char *canon_path, const void *text,
			 size_t len, char *digest)
{
	char want[LF_SHA256_HEX_LEN + 1], have[LF_SHA256_HEX_LEN + 1];

	if (!canon_path || canon_path[0] != '/' || (!text && len))
		return -EINVAL;
	store_load(s);
	if (s->err < 0)
		return s->err;
	if (store_find(s->text, canon_path, want) < 0)
		return -EPERM;
	lf_sha256_hex(text, len, have);
	if (strcmp(want, have) != 0)
		return -ESTALE;
	if (digest)
		memcpy(digest, have, sizeof(have));
	return 0;
}

int lf_trust_check(const char *canon_path, const void *text, size_t len)
{
	struct lf_trust_store s = { 0 };
	int r = lf_trust_store_check(&s, canon_path, text, len, NULL);

	lf_trust_store_fini(&s);
	return r;
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
	r = store_read(store_path, &store, &slen);
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

void lf_trust_refusal(const char *shown_path, int err, struct lf_diag *diag)
{
	char store[PATH_MAX];

	if (lf_trust_store_path(store, sizeof(store)) < 0)
		snprintf(store, sizeof(store), "~/.config/landfence/trusted");
	switch (err) {
	case -EPERM:
		lf_diag_set(diag, "", 0, 0,
			    "%s: this project policy is not trusted; nothing ran.\n"
			    "review it, then run `landfence trust` in the project to use it "
			    "(trusted policies are recorded in %s)",
			    shown_path, store);
		break;
	case -ELOOP:
		lf_diag_set(diag, "", 0, 0,
			    "%s: a project policy must be a regular file in the project's own "
			    ".landfence directory, not a symbolic link; nothing ran",
			    shown_path);
		break;
	case -ENOENT:
		lf_diag_set(diag, "", 0, 0,
			    "%s: this trusted project policy is gone; nothing ran.\n"
			    "restore it, or run `landfence trust --revoke` in the project to run "
			    "without it",
			    shown_path);
		break;
	case -ESTALE:
		lf_diag_set(diag, "", 0, 0,
			    "%s: this project policy changed since you trusted it; nothing ran.\n"
			    "review the change, then run `landfence trust` in the project again",
			    shown_path);
		break;
	case -EACCES: {
		char bad[PATH_MAX + 64];

		if (lf_path_guarded(store, bad, sizeof(bad)) == -EACCES)
			lf_diag_set(diag, "", 0, 0,
				    "%s: cannot check whether it is trusted: the trust store %s "
				    "lies in %s, which somebody other than you or root may change; "
				    "nothing ran.\n"
				    "review what it holds, then `chmod go-w` that directory",
				    shown_path, store, bad);
		else
			lf_diag_set(diag, "", 0, 0,
				    "%s: cannot check whether it is trusted: the trust store %s is "
				    "not yours alone (it must be owned by you, writable by nobody "
				    "else, with no other name); nothing ran.\n"
				    "review it, then `chmod 600` it",
				    shown_path, store);
		break;
	}
	default:
		lf_diag_set(diag, "", 0, 0, "%s: cannot check whether it is trusted: %s",
			    shown_path, strerror(-err));
		break;
	}
}

/* The policy's canonical name in the store: the file itself when it
 * exists, else (to forget it) the name it had. */
static int policy_name(const char *project_root, char *out, size_t size, bool gone_ok)
{
	int r = lf_trust_policy_path(project_root, out, size);

	if (r == -ENOENT && gone_ok &&
	    snprintf(out, size, "%s/.landfence/policy.json", project_root) < (int)size)
		return 0;
	return r;
}

int lf_trust_status(const char *project_root)
{
	char canon[PATH_MAX] = "";
	char *text = NULL;
	size_t len = 0;
	int r;

	if (!project_root || project_root[0] != '/')
		return -EINVAL;
	r = lf_trust_policy_path(project_root, canon, sizeof(canon));
	if (r == 0)
		r = lf_trust_read_policy(canon, &text, &len);
	if (r == 0)
		r = lf_trust_check(canon, text, len);
	free(text);
	return r;
}

int lf_trust_add(const char *project_root, char sha256[65], struct lf_diag *diag)
{
	char canon[PATH_MAX] = "", hex[LF_SHA256_HEX_LEN + 1];
	struct lf_policy *p = NULL;
	char *text = NULL;
	size_t len = 0;
	int r;

	if (diag)
		memset(diag, 0, sizeof(*diag));
	if (!project_root || project_root[0] != '/')
		return -EINVAL;
	r = lf_trust_policy_path(project_root, canon, sizeof(canon));
	if (r == 0)
		r = lf_trust_read_policy(canon, &text, &len);
	if (r < 0)
		return r;
	/* Trusting a policy that does not load would record a hash nobody
	 * can use: the user sees where it is wrong instead. */
	r = lf_policy_parse(text, len, canon, LF_LAYER_PROJECT, &p, diag);
	lf_policy_free(p);
	if (r == 0) {
		lf_sha256_hex(text, len, hex);
		r = lf_trust_record(canon, text, len);
	}
	free(text);
	if (r == 0 && sha256)
		memcpy(sha256, hex, sizeof(hex));
	return r;
}

int lf_trust_remove(const char *project_root)
{
	char canon[PATH_MAX] = "";
	int r;

	if (!project_root || project_root[0] != '/')
		return -EINVAL;
	r = policy_name(project_root, canon, sizeof(canon), true);
	return r < 0 ? r : store_update(canon, NULL);
}
