/* SPDX-License-Identifier: MIT */
/*
 * Peak memory of a command: runs it RUNS times, each a fork and exec from
 * this small process, and prints the median of wait4's ru_maxrss in KiB
 * (the largest resident set among the command and the processes it
 * waited for). A Python or shell parent would not do: the resident set a
 * child shares or copies before exec counts in its peak.
 *   peak-rss RUNS CMD ARGS...
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

static int cmp(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	int runs = argc > 2 ? atoi(argv[1]) : 0;
	long *v;

	if (runs <= 0 || !(v = calloc((size_t)runs, sizeof(*v))))
		return 2;
	for (int i = 0; i < runs; i++) {
		struct rusage ru;
		int status, fd;
		pid_t pid = fork();

		if (pid < 0)
			return perror("fork"), 1;
		if (pid == 0) {
			fd = open("/dev/null", O_RDWR | O_CLOEXEC);
			if (fd < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
				_exit(126);
			execvp(argv[2], argv + 2);
			_exit(127);
		}
		if (wait4(pid, &status, 0, &ru) < 0)
			return perror("wait4"), 1;
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			return fprintf(stderr, "%s: exit status %d\n", argv[2], status), 1;
		v[i] = ru.ru_maxrss;
	}
	qsort(v, (size_t)runs, sizeof(*v), cmp);
	printf("%ld\n", v[runs / 2]);
	free(v);
	return 0;
}
