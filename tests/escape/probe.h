/* SPDX-License-Identifier: MIT */
/*
 * What both attackers of the escape suite (lf-probe, lf-redteam-probe)
 * print and do alike: one result token a line on stdout, "ok" or the
 * errno name, so that the harness reads them the same way; and the plain
 * read of a path.
 */
#ifndef LF_TESTS_ESCAPE_PROBE_H
#define LF_TESTS_ESCAPE_PROBE_H

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static inline void out(const char *tok)
{
	printf("%s\n", tok);
	fflush(stdout);
}

static inline void out_err(int e)
{
	const char *n = strerrorname_np(e);
	if (n)
		out(n);
	else
		printf("E%d\n", e), fflush(stdout);
}

/* Prints ok for r >= 0, else the errno name. */
static inline void result(long r)
{
	if (r >= 0)
		out("ok");
	else
		out_err(errno);
}

/* Opens and reads p: 0, or -1 with errno set. */
static inline int op_read(const char *p)
{
	char buf[64];
	int fd = open(p, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return -1;
	ssize_t n = read(fd, buf, sizeof(buf));
	int e = errno;
	close(fd);
	errno = e;
	return n < 0 ? -1 : 0;
}

/* Opens and reads p, and says whether anything came back: "ok" for
 * bytes, "EMPTY" for none (what a hidden file gives root, who may open
 * its mode-000 stand-in), else the errno name. */
static inline void op_readsome(const char *p)
{
	char buf[64];
	int fd = open(p, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		out_err(errno);
		return;
	}
	ssize_t n = read(fd, buf, sizeof(buf));
	int e = errno;
	close(fd);
	if (n < 0)
		out_err(e);
	else
		out(n ? "ok" : "EMPTY");
}

#endif /* LF_TESTS_ESCAPE_PROBE_H */
