/* SPDX-License-Identifier: MIT */
/*
 * The minimal reference launcher `landfence run` is measured against: it
 * applies a given Landlock ruleset and execs, nothing else (no policy, no
 * seccomp, no descriptor closing, no TMPDIR).
 *   ref-launcher HANDLED_FS SCOPED [PATH RIGHTS]... -- CMD ARGS...
 *   ref-launcher HANDLED_FS SCOPED -f FILE -- CMD ARGS...
 * The run script takes the handled rights, scopes and rules from
 * `landfence plan --json`, so both launchers enforce the same ruleset.
 * With -f the rules are lines "RIGHTS PATH" of FILE (10,000 rules do not
 * fit a command line).
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

struct ruleset_attr {
	uint64_t handled_access_fs;
	uint64_t handled_access_net;
	uint64_t scoped;
};

struct path_beneath {
	uint64_t allowed_access;
	int32_t parent_fd;
} __attribute__((packed));

static int rule_add(int rfd, const char *path, uint64_t rights)
{
	struct path_beneath pb = { .allowed_access = rights };

	pb.parent_fd = open(path, O_PATH | O_CLOEXEC);
	if (pb.parent_fd < 0)
		return 0;
	if (syscall(SYS_landlock_add_rule, rfd, 1 /* PATH_BENEATH */, &pb, 0) < 0)
		return perror(path), -1;
	close(pb.parent_fd);
	return 0;
}

static int rules_file(int rfd, const char *file)
{
	char line[4096], *sp;
	FILE *f = fopen(file, "re");

	if (!f)
		return perror(file), -1;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		sp = strchr(line, ' ');
		if (!sp || rule_add(rfd, sp + 1, strtoull(line, NULL, 0)) < 0)
			return fclose(f), -1;
	}
	fclose(f);
	return 0;
}

int main(int argc, char **argv)
{
	struct ruleset_attr attr = { 0 };
	int i, rfd;

	if (argc < 4)
		return 125;
	attr.handled_access_fs = strtoull(argv[1], NULL, 0);
	attr.scoped = strtoull(argv[2], NULL, 0);
	rfd = (int)syscall(SYS_landlock_create_ruleset, &attr,
			   attr.scoped ? sizeof(attr) : sizeof(uint64_t), 0);
	if (rfd < 0)
		return perror("landlock_create_ruleset"), 125;
	i = 3;
	if (argc > 5 && !strcmp(argv[3], "-f")) {
		if (rules_file(rfd, argv[4]) < 0)
			return 125;
		i = 5;
	}
	for (; i + 1 < argc && strcmp(argv[i], "--"); i += 2)
		if (rule_add(rfd, argv[i], strtoull(argv[i + 1], NULL, 0)) < 0)
			return 125;
	if (i >= argc || strcmp(argv[i], "--") || i + 1 >= argc)
		return 125;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
	    syscall(SYS_landlock_restrict_self, rfd, 0) < 0)
		return perror("restrict"), 125;
	close(rfd);
	execvp(argv[i + 1], argv + i + 1);
	return perror(argv[i + 1]), 127;
}
