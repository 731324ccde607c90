/* SPDX-License-Identifier: MIT */
/*
 * Replays corpus files through a harness's LLVMFuzzerTestOneInput, so that
 * every input the fuzzer ever kept (and every crash it ever found) is
 * checked in the ordinary build with gcc, under ASan/UBSan and valgrind
 * too. Usage: fuzz-replay-NAME PATH...; a PATH is a file or a directory
 * whose regular files are replayed in name order. An empty or missing
 * corpus fails: a replay that checks nothing must not pass.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"
#include "policy/policy.h"

/* Harnesses that need one-time setup define LLVMFuzzerInitialize. */
__attribute__((weak)) int LLVMFuzzerInitialize(int *argc, char ***argv);

/* Far above any input a harness takes (libFuzzer keeps inputs of a few KiB). */
#define REPLAY_MAX_INPUT (64u << 20)

static int replay_one(int dirfd, const char *path, const char *shown)
{
	char *buf = NULL;
	size_t len = 0;
	int r = lf_file_read_at(dirfd, path, 0, REPLAY_MAX_INPUT, &buf, &len);
	if (r < 0) {
		fprintf(stderr, "replay: %s: %s\n", shown, strerror(-r));
		return r;
	}
	/* libFuzzer hands the harness a buffer of exactly len bytes; a copy of
	 * exactly that size keeps ASan's overflow checks as sharp. */
	uint8_t *exact = malloc(len ? len : 1);
	if (!exact) {
		free(buf);
		return -ENOMEM;
	}
	memcpy(exact, buf, len);
	free(buf);
	fprintf(stderr, "replay: %s (%zu bytes)\n", shown, len);
	LLVMFuzzerTestOneInput(exact, len);
	free(exact);
	return 0;
}

static int dirent_regular(const struct dirent *d)
{
	return d->d_name[0] != '.';
}

/* Returns the number of inputs replayed, or a negative errno. */
static int replay_path(const char *path)
{
	struct stat st;
	if (stat(path, &st) < 0) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		return -errno;
	}
	if (!S_ISDIR(st.st_mode)) {
		int r = replay_one(AT_FDCWD, path, path);
		return r < 0 ? r : 1;
	}
	int dirfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		return -errno;
	}
	struct dirent **names;
	int n = scandir(path, &names, dirent_regular, alphasort);
	if (n < 0) {
		int e = -errno;
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		close(dirfd);
		return e;
	}
	int count = 0, r = 0;
	for (int i = 0; i < n; i++) {
		if (r == 0) {
			struct stat est;
			if (fstatat(dirfd, names[i]->d_name, &est, 0) == 0 &&
			    S_ISREG(est.st_mode)) {
				char shown[4096];
				snprintf(shown, sizeof(shown), "%s/%s", path, names[i]->d_name);
				r = replay_one(dirfd, names[i]->d_name, shown);
				if (r == 0)
					count++;
			}
		}
		free(names[i]);
	}
	free(names);
	close(dirfd);
	return r < 0 ? r : count;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: %s CORPUS_DIR_OR_FILE...\n", argv[0]);
		return 2;
	}
	if (LLVMFuzzerInitialize)
		LLVMFuzzerInitialize(&argc, &argv);
	int total = 0;
	for (int i = 1; i < argc; i++) {
		int n = replay_path(argv[i]);
		if (n < 0)
			return 1;
		total += n;
	}
	if (total == 0) {
		fprintf(stderr, "replay: no input found in the corpus\n");
		return 1;
	}
	printf("replay: %d inputs, no property broken\n", total);
	return 0;
}
