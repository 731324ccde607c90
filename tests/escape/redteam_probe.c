/* SPDX-License-Identifier: MIT */
/*
 * The red team's attacker (doc/escape.md, "Red team, round 2"): the
 * operations lf-probe lacks, with the same output, one token per
 * operation: ok, or the errno name.
 *
 *   read PATH          open and read PATH
 *   readat FILE        read the path named in FILE
 *   watch DIR          inotify_add_watch on DIR
 *   stat PATH          stat(2)
 *   uring-suid PATH    create PATH with mode 04755 through io_uring's openat;
 *                      ok only when the file really is set-user-ID
 *   packet             a packet socket (AF_PACKET, SOCK_RAW): every frame of the host
 *   append PATH        open PATH O_WRONLY|O_APPEND and write a line
 *   keyread NAME       find a "user" key NAME in the user key ring, read it
 *   keyadd NAME        leave a "user" key NAME in the user key ring
 *   ptyread FILE       open the terminal named in FILE and read from it
 *   rename FROM TO     rename(2)
 *   survive FILE       leave a process behind that writes its pid to FILE and
 *                      waits, as one that steals the terminal later would
 *   abi                the kernel's Landlock ABI (for the harness)
 */
#include <errno.h>
#include <fcntl.h>
#include <arpa/inet.h>
#include <linux/if_ether.h>
#include <linux/io_uring.h>
#include <linux/keyctl.h>
#include <linux/landlock.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "probe.h"

static long op_readat(const char *file)
{
	char name[256];
	int fd = open(file, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t n = read(fd, name, sizeof(name) - 1);
	close(fd);
	if (n <= 0) {
		errno = EIO;
		return -1;
	}
	name[n] = '\0';
	name[strcspn(name, "\n")] = '\0';
	return op_read(name);
}

static long op_keyread(const char *name)
{
	char buf[128];
	long id = syscall(SYS_keyctl, KEYCTL_SEARCH, KEY_SPEC_USER_KEYRING, "user", name, 0);
	if (id < 0)
		return -1;
	return syscall(SYS_keyctl, KEYCTL_READ, id, buf, sizeof(buf));
}

static long op_keyadd(const char *name)
{
	return syscall(SYS_add_key, "user", name, "planted", 7, KEY_SPEC_USER_KEYRING);
}

/* Reads what someone typed into another terminal: the input queue of
 * that terminal gives its bytes to whoever reads first. */
static long op_ptyread(const char *file)
{
	char name[256], buf[64];
	int fd = open(file, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t n = read(fd, name, sizeof(name) - 1);
	close(fd);
	if (n <= 0) {
		errno = EIO;
		return -1;
	}
	name[n] = '\0';
	name[strcspn(name, "\n")] = '\0';
	fd = open(name, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -1;
	struct pollfd p = { .fd = fd, .events = POLLIN };
	if (poll(&p, 1, 2000) != 1) {
		close(fd);
		errno = ETIMEDOUT;
		return -1;
	}
	n = read(fd, buf, sizeof(buf));
	int e = errno;
	close(fd);
	errno = e;
	return n < 0 ? -1 : 0;
}

/* A process that outlives the program: once landfence has exited it
 * could take the terminal (tcsetpgrp with SIGTTOU ignored) and read what
 * the user types into the shell next. */
static long op_survive(const char *file)
{
	int p[2];
	char c;

	if (pipe2(p, O_CLOEXEC) < 0)
		return -1;
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		char buf[32];
		int fd = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		int len = snprintf(buf, sizeof(buf), "%d", (int)getpid());

		signal(SIGTTOU, SIG_IGN);
		signal(SIGHUP, SIG_IGN);
		if (fd < 0 || write(fd, buf, (size_t)len) != len)
			_exit(1);
		close(fd);
		close(p[0]);
		close(p[1]); /* tells the parent the pid is written */
		for (int i = 0; i < 60; i++)
			sleep(1);
		_exit(0);
	}
	close(p[1]);
	ssize_t n = read(p[0], &c, 1);
	close(p[0]);
	return n < 0 ? -1 : 0;
}

/* IORING_OP_OPENAT with O_CREAT and a set-user-ID mode: the seccomp
 * filter sees io_uring_enter, never the open. */
static long op_uring_suid(const char *path)
{
	struct io_uring_params p;

	memset(&p, 0, sizeof(p));
	int fd = (int)syscall(SYS_io_uring_setup, 4, &p);
	if (fd < 0)
		return -1;
	size_t sq_sz = p.sq_off.array + p.sq_entries * sizeof(unsigned);
	size_t cq_sz = p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe);
	if (!(p.features & IORING_FEAT_SINGLE_MMAP)) {
		close(fd);
		errno = ENOTSUP;
		return -1;
	}
	if (cq_sz > sq_sz)
		sq_sz = cq_sz;
	char *ring = mmap(NULL, sq_sz, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd,
			  IORING_OFF_SQ_RING);
	struct io_uring_sqe *sqes =
		mmap(NULL, p.sq_entries * sizeof(struct io_uring_sqe), PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_POPULATE, fd, IORING_OFF_SQES);
	if (ring == MAP_FAILED || sqes == MAP_FAILED) {
		close(fd);
		return -1;
	}
	unsigned *tail = (unsigned *)(ring + p.sq_off.tail);
	unsigned mask = *(unsigned *)(ring + p.sq_off.ring_mask);
	unsigned *array = (unsigned *)(ring + p.sq_off.array);
	unsigned t = *tail, idx = t & mask;
	struct io_uring_sqe *e = &sqes[idx];

	memset(e, 0, sizeof(*e));
	e->opcode = IORING_OP_OPENAT;
	e->fd = AT_FDCWD;
	e->addr = (unsigned long)path;
	e->open_flags = O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC;
	e->len = 04755;
	array[idx] = idx;
	__atomic_store_n(tail, t + 1, __ATOMIC_RELEASE);
	if (syscall(SYS_io_uring_enter, fd, 1, 1, IORING_ENTER_GETEVENTS, NULL, 0) < 0) {
		int err = errno;
		close(fd);
		errno = err;
		return -1;
	}
	unsigned *chead = (unsigned *)(ring + p.cq_off.head);
	unsigned cmask = *(unsigned *)(ring + p.cq_off.ring_mask);
	struct io_uring_cqe *cqes = (struct io_uring_cqe *)(ring + p.cq_off.cqes);
	int res = cqes[*chead & cmask].res;
	close(fd);
	if (res < 0) {
		errno = -res;
		return -1;
	}
	close(res);
	struct stat st;
	if (stat(path, &st) < 0)
		return -1;
	if (!(st.st_mode & S_ISUID)) {
		errno = EPERM; /* made, but the kernel dropped the bit */
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "abi")) {
		long abi = syscall(SYS_landlock_create_ruleset, NULL, 0,
				   LANDLOCK_CREATE_RULESET_VERSION);
		printf("%ld\n", abi < 0 ? 0 : abi);
		return 0;
	}
	for (int i = 1; i < argc; i++) {
		const char *op = argv[i];

		if (!strcmp(op, "packet")) {
			int fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, htons(ETH_P_ALL));
			result(fd);
			if (fd >= 0)
				close(fd);
			continue;
		}
		int need = !strcmp(op, "rename") ? 2 : 1;

		if (i + need >= argc) {
			fprintf(stderr, "lf-redteam-probe: %s needs %d arguments\n", op, need);
			return 2;
		}
		if (!strcmp(op, "read"))
			result(op_read(argv[i + 1]));
		else if (!strcmp(op, "readsome"))
			op_readsome(argv[i + 1]);
		else if (!strcmp(op, "readat"))
			result(op_readat(argv[i + 1]));
		else if (!strcmp(op, "watch")) {
			int fd = inotify_init1(IN_CLOEXEC);
			result(fd < 0 ? -1 : inotify_add_watch(fd, argv[i + 1], IN_ALL_EVENTS));
			if (fd >= 0)
				close(fd);
		} else if (!strcmp(op, "stat")) {
			struct stat st;
			result(stat(argv[i + 1], &st));
		} else if (!strcmp(op, "uring-suid")) {
			umask(0);
			result(op_uring_suid(argv[i + 1]));
		} else if (!strcmp(op, "append")) {
			int fd = open(argv[i + 1], O_WRONLY | O_APPEND | O_CLOEXEC);
			result(fd < 0 ? -1 : write(fd, "echo planted\n", 13));
			if (fd >= 0)
				close(fd);
		} else if (!strcmp(op, "keyread"))
			result(op_keyread(argv[i + 1]));
		else if (!strcmp(op, "keyadd"))
			result(op_keyadd(argv[i + 1]));
		else if (!strcmp(op, "ptyread"))
			result(op_ptyread(argv[i + 1]));
		else if (!strcmp(op, "survive"))
			result(op_survive(argv[i + 1]));
		else if (!strcmp(op, "rename"))
			result(rename(argv[i + 1], argv[i + 2]));
		else {
			fprintf(stderr, "lf-redteam-probe: unknown operation %s\n", op);
			return 2;
		}
		i += need;
	}
	return 0;
}
