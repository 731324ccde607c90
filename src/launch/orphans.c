/* SPDX-License-Identifier: MIT */
/*
 * Ending what a sandbox left running (landfence.h, lf_orphans_kill). A
 * caller that is a child subreaper inherits the sandbox's orphans, so
 * they are its children and /proc lists them. A leftover in the
 * terminal's session could ignore SIGTTOU, make itself the terminal's
 * foreground process group with tcsetpgrp() and read what the user types
 * into the shell next (doc/escape.md, "Red team, round 2"); it would also
 * outlive the private TMPDIR. Only the caller's own children are
 * signalled: their pids cannot be reused before they are reaped.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "launch/launch.h"

/* Kills every child /proc lists, the whole list however long; returns
 * how many. */
static int kill_listed(const char *path, bool *listed)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), killed = 0;
	char *buf;

	*listed = fd >= 0;
	if (fd < 0)
		return 0;
	buf = lf_read_whole(fd);
	close(fd);
	if (!buf)
		return 0; /* the caller walks again */
	for (char *q = buf, *end;; q = end) {
		long pid = strtol(q, &end, 10);
		if (end == q)
			break;
		if (pid > 0 && kill((pid_t)pid, SIGKILL) == 0)
			killed++;
	}
	free(buf);
	return killed;
}

int lf_orphans_kill(void)
{
	char path[64];
	int idle = 0, total = 0;

	snprintf(path, sizeof(path), "/proc/self/task/%d/children", (int)getpid());
	for (;;) {
		bool listed;
		int any = kill_listed(path, &listed);
		pid_t w;

		total += any;
		w = waitpid(-1, NULL, any ? 0 : WNOHANG);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			break; /* ECHILD: none left */
		/* and every other one that has ended: a process that forks
		 * and exits in a loop leaves one a generation */
		while (waitpid(-1, NULL, WNOHANG) > 0)
			;
		/* A child /proc did not list (no CONFIG_PROC_CHILDREN, or one
		 * being reparented): try again a bounded number of times. */
		if (w == 0 && !any && (!listed || ++idle > 1000))
			break;
	}
	return total;
}
