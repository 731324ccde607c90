/* SPDX-License-Identifier: MIT */
/*
 * Large trusted policies kept compiled (doc/policy.md, "Compiled
 * policies"). Parsing a policy builds jansson's tree of the whole file:
 * ~45 ms a launch for 10,000 rules. Once a project policy of at least
 * LF_POLICY_FORM_MIN bytes has been parsed, its compiled form
 * (policy/compiled.h) is written to the cache directory beyond the
 * program's reach (lf_cache_dir), one file per policy path, and the next
 * launches read that instead, when it was made:
 *   - from these very bytes: the SHA-256 of the text, which the trust
 *     check has just computed and matched against the store, is in the
 *     file;
 *   - by this build (its GNU build ID): another build may parse
 *     differently;
 *   - whole: its length and an FNV-1a digest of the form are in the file.
 * Anything else (no file, another digest, a form that does not read back
 * through the model's constructors) is a parse, as before, and the file
 * is written again. Nothing is checked less: the trust check runs on the
 * bytes at every launch, and the form is the parse's own result.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/fnv.h"
#include "fs/fs.h"
#include "policy/compiled.h"
#include "policy/policy.h"
#include "project/project.h"

#define FORM_MAGIC "landfence-policy-form 1"

/* The cache directory and the file for canon ("pol-" and 16 hex digits of
 * its path); make: the directory is made when missing. */
static bool form_path(const char *canon, bool make, char *dir, size_t dsize, char *file,
		      size_t fsize)
{
	char config[PATH_MAX];
	size_t n;

	if (lf_config_path("", config, sizeof(config)) < 0)
		return false;
	n = strlen(config);
	if (n > 1 && config[n - 1] == '/')
		config[n - 1] = '\0';
	if (lf_cache_dir(config, make, dir, dsize) < 0)
		return false;
	int w = snprintf(file, fsize, "%s/pol-%016" PRIx64, dir, lf_fnv(canon, strlen(canon)));
	return w > 0 && (size_t)w < fsize;
}

/* The head a writer puts before form (flen bytes) of text (digest), by
 * this build: its length, or -1 when it does not fit in size. A reader
 * compares the whole head with the one it would write. */
static int form_head(char *head, size_t size, const char *build, const char *digest,
		     const char *form, size_t flen)
{
	int n = snprintf(head, size, "%s\nbuild %s\nsha256 %s\nform %zu %016" PRIx64 "\n",
			 FORM_MAGIC, build, digest, flen, lf_fnv(form, flen));

	return n < 0 || (size_t)n >= size ? -1 : n;
}

/* The form kept for text (digest), when there is one of this build. */
static int form_read(const char *file, const char *build, const char *digest, const char *path,
		     struct lf_policy **out)
{
	char *buf = NULL, want[512];
	size_t len = 0, flen;
	int r;

	struct stat st;
	/* Of the user's own, that nobody else may write (the sandboxed
	 * program can chmod it, not write it). */
	int fd = lf_cache_file_open(file, 4 * (uint64_t)LF_POLICY_MAX_SIZE, &st);

	if (fd < 0)
		return fd;
	r = lf_fd_read(fd, (size_t)st.st_size + 1, 4 * LF_POLICY_MAX_SIZE, &buf, &len);
	close(fd);
	if (r < 0)
		return r;
	/* The head, four lines: magic, build, digest, then the form's
	 * length and digest, which must be those of what follows the head:
	 * the head a writer of that form would write, byte for byte. */
	r = -EINVAL;
	const char *nl = buf;
	for (int lines = 0; lines < 4 && nl; lines++) {
		const char *e = memchr(nl, '\n', len - (size_t)(nl - buf));
		nl = e ? e + 1 : NULL;
	}
	if (!nl)
		goto out;
	flen = len - (size_t)(nl - buf);
	int wl = form_head(want, sizeof(want), build, digest, nl, flen);
	if (wl < 0 || (size_t)wl != (size_t)(nl - buf) || memcmp(buf, want, (size_t)wl) != 0)
		goto out;
	r = lf_policy_from_form(nl, flen, path, LF_LAYER_PROJECT, out);
out:
	free(buf);
	return r;
}

/* Writes p's form for text (digest): a temporary file renamed over, so
 * that a reader never sees half of one. Best effort. */
static void form_write(const char *dir, const char *file, const char *build, const char *digest,
		       const struct lf_policy *p)
{
	char tmp[PATH_MAX + 8], head[512];
	char *form = NULL;
	size_t flen = 0;
	struct stat st;
	bool fresh = lstat(file, &st) != 0;
	int fd, hl;

	if (lf_policy_compile_form(p, &form, &flen) < 0)
		return;
	hl = form_head(head, sizeof(head), build, digest, form, flen);
	if (hl < 0 || snprintf(tmp, sizeof(tmp), "%s.XXXXXX", file) >= (int)sizeof(tmp) ||
	    (fd = mkostemp(tmp, O_CLOEXEC)) < 0) {
		free(form);
		return;
	}
	bool ok = lf_fd_write(fd, head, (size_t)hl) == 0 && lf_fd_write(fd, form, flen) == 0;
	ok = close(fd) == 0 && ok;
	if (!ok || rename(tmp, file) != 0)
		(void)unlink(tmp);
	else if (fresh)
		lf_cache_prune(dir);
	free(form);
}

int lf_policy_parse_trusted(const char *canon, const char *digest, const char *text, size_t len,
			    const char *path, struct lf_policy **out, struct lf_diag *diag)
{
	char dir[PATH_MAX], file[PATH_MAX], build[LF_BUILD_ID_HEX];
	int r;

	if (len < LF_POLICY_FORM_MIN || !digest || lf_build_id(build) < 0)
		return lf_policy_parse(text, len, path, LF_LAYER_PROJECT, out, diag);
	if (form_path(canon, false, dir, sizeof(dir), file, sizeof(file))) {
		r = form_read(file, build, digest, path, out);
		if (r == 0 || r == -ENOMEM)
			return r;
	}
	r = lf_policy_parse(text, len, path, LF_LAYER_PROJECT, out, diag);
	if (r == 0 && form_path(canon, true, dir, sizeof(dir), file, sizeof(file)))
		form_write(dir, file, build, digest, *out);
	return r;
}
