/* SPDX-License-Identifier: MIT */
/*
 * A small program the launch and CLI tests run inside the sandbox to look
 * at it from within.
 *   probe tiocsti PATH  exit 0 when TIOCSTI and TIOCLINUX on the terminal
 *                       PATH fail with EPERM, also with high bits set in
 *                       the request, while an ordinary terminal ioctl works
 *   probe closed N      exit 0 when descriptor N is not open
 *   probe nnp           exit 0 when no-new-privs is set
 *   probe caps          exit 0 when CAP_SYS_ADMIN, CAP_SYS_PTRACE and
 *                       CAP_DAC_READ_SEARCH are in no capability set (the
 *                       bounding set: when running as root)
 *   probe parent-environ  exit 0 when /proc/<parent>/environ cannot be read
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

/* Reads a capability mask line ("CapBnd:\t000001ffffffffff") of
 * /proc/self/status. */
static unsigned long long cap_line(const char *name)
{
	char line[256];
	unsigned long long v = ~0ULL;
	size_t n = strlen(name);
	FILE *f = fopen("/proc/self/status", "re");

	if (!f)
		return v;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, name, n) && line[n] == ':')
			v = strtoull(line + n + 1, NULL, 16);
	fclose(f);
	return v;
}

static int caps(void)
{
	const unsigned long long bad = (1ULL << 21) | (1ULL << 19) | (1ULL << 2);
	unsigned long long bnd = cap_line("CapBnd"), eff = cap_line("CapEff"),
			   prm = cap_line("CapPrm"), inh = cap_line("CapInh"),
			   amb = cap_line("CapAmb");

	printf("CapBnd %llx CapEff %llx CapPrm %llx CapInh %llx CapAmb %llx\n", bnd, eff, prm, inh,
	       amb);
	/* The bounding set matters to root, who gets it on every exec; an
	 * unprivileged user cannot change it and gains nothing from it under
	 * no-new-privs. */
	if (getuid() == 0 && (bnd & bad))
		return 1;
	return (eff | prm | inh | amb) & bad ? 1 : 0;
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
	if (argc == 2 && !strcmp(argv[1], "caps"))
		return caps();
	if (argc == 2 && !strcmp(argv[1], "parent-environ")) {
		char path[64];
		snprintf(path, sizeof(path), "/proc/%d/environ", (int)getppid());
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			printf("%s: %s\n", path, strerror(errno));
			return errno == EACCES || errno == EPERM ? 0 : 2;
		}
		char buf[256];
		ssize_t n = read(fd, buf, sizeof(buf));
		printf("%s: read %zd bytes\n", path, n);
		close(fd);
		return n < 0 && (errno == EACCES || errno == EPERM) ? 0 : 1;
	}
	fprintf(stderr, "usage: probe tiocsti PATH | closed N | nnp | caps | parent-environ\n");
	return 2;
}
