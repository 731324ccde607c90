/* SPDX-License-Identifier: MIT */
/*
 * A small program the launch and CLI tests run inside the sandbox to look
 * at it from within.
 *   probe tiocsti PATH  exit 0 when TIOCSTI and TIOCLINUX on the terminal
 *                       PATH fail with EPERM, also with high bits set in
 *                       the request, while an ordinary terminal ioctl works
 *   probe closed N      exit 0 when descriptor N is not open
 *   probe nnp           exit 0 when no-new-privs is set
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <termios.h>
#include <unistd.h>

#ifndef TIOCLINUX
#define TIOCLINUX 0x541C
#endif

static int try_ioctl(int fd, unsigned long req, void *arg, const char *what)
{
	long r = syscall(SYS_ioctl, fd, req, arg);
	int e = errno;

	printf("%s: %ld (%s)\n", what, r, r < 0 ? strerror(e) : "ok");
	return r < 0 && e == EPERM ? 0 : 1;
}

static int tiocsti(const char *path)
{
	struct winsize ws;
	char c = '#', lin[2] = { 2, 0 }; /* TIOCL_SETSEL-like subcode */
	int fd = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC), bad = 0;

	if (fd < 0) {
		printf("open %s: %s\n", path, strerror(errno));
		return 2;
	}
	bad |= try_ioctl(fd, TIOCSTI, &c, "TIOCSTI");
	bad |= try_ioctl(fd, (unsigned long)TIOCSTI | 0x100000000UL, &c, "TIOCSTI|1<<32");
	bad |= try_ioctl(fd, (unsigned long)TIOCSTI | 0xffffffff00000000UL, &c, "TIOCSTI|high");
	bad |= try_ioctl(fd, TIOCLINUX, lin, "TIOCLINUX");
	bad |= try_ioctl(fd, (unsigned long)TIOCLINUX | 0x700000000UL, lin, "TIOCLINUX|high");
	if (ioctl(fd, TIOCGWINSZ, &ws) < 0) {
		printf("TIOCGWINSZ: %s\n", strerror(errno));
		bad = 1;
	} else {
		printf("TIOCGWINSZ: ok\n");
	}
	close(fd);
	return bad;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "tiocsti"))
		return tiocsti(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "closed")) {
		int fd = atoi(argv[2]);
		if (fcntl(fd, F_GETFD) < 0 && errno == EBADF)
			return 0;
		printf("descriptor %d is open\n", fd);
		return 1;
	}
	if (argc == 2 && !strcmp(argv[1], "nnp"))
		return prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) == 1 ? 0 : 1;
	fprintf(stderr, "usage: probe tiocsti PATH | closed N | nnp\n");
	return 2;
}
