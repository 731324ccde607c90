/* SPDX-License-Identifier: MIT */
/*
 * The minimal reference launcher `landfence run` is measured against: it
 * applies a given Landlock ruleset and execs, nothing else (no policy, no
 * seccomp, no descriptor closing, no TMPDIR).
 *   ref-launcher HANDLED_FS SCOPED [PATH RIGHTS]... -- CMD ARGS...
 * The run script takes the handled rights, scopes and rules from
 * `landfence plan --json`, so both launchers enforce the same ruleset.
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
	for (i = 3; i + 1 < argc && strcmp(argv[i], "--"); i += 2) {
		struct path_beneath pb = { .allowed_access = strtoull(argv[i + 1], NULL, 0) };
		pb.parent_fd = open(argv[i], O_PATH | O_CLOEXEC);
		if (pb.parent_fd < 0)
			continue;
		if (syscall(SYS_landlock_add_rule, rfd, 1 /* PATH_BENEATH */, &pb, 0) < 0)
			return perror(argv[i]), 125;
		close(pb.parent_fd);
	}
	if (i >= argc || strcmp(argv[i], "--") || i + 1 >= argc)
		return 125;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
	    syscall(SYS_landlock_restrict_self, rfd, 0) < 0)
		return perror("restrict"), 125;
	close(rfd);
	execvp(argv[i + 1], argv + i + 1);
	return perror(argv[i + 1]), 127;
}
