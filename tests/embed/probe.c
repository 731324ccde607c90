/* SPDX-License-Identifier: MIT */
/*
 * The probe the embedding test runs under `landfence run` and under
 * examples/embed.c: each argument is OP:PATH, and one line per argument
 * says what the kernel let it do ("ok" or the errno's name), so that two
 * sandboxes compare by what they allow.
 *
 *   r  read a file          l  list a directory
 *   w  append to a file (creating it)
 *   c  create and remove a file in a directory
 *   x  execute a file
 *
 * PATH may start with $NAME, replaced by that variable ($TMPDIR, $HOME,
 * $PWD, ...); the line shows it as written, so that it does not depend on
 * the run.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int do_read(const char *p)
{
	char buf[256];
	int fd = open(p, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return errno;
	int e = read(fd, buf, sizeof(buf)) < 0 ? errno : 0;
	close(fd);
	return e;
}

static int do_list(const char *p)
{
	DIR *d = opendir(p);

	if (!d)
		return errno;
	while (readdir(d))
		;
	closedir(d);
	return 0;
}

static int do_write(const char *p)
{
	int fd = open(p, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);

	if (fd < 0)
		return errno;
	int e = write(fd, "x\n", 2) < 0 ? errno : 0;
	close(fd);
	return e;
}

static int do_create(const char *dir)
{
	char p[4200];
	int fd;

	snprintf(p, sizeof(p), "%.4000s/.probe-%d", dir, (int)getpid());
	fd = open(p, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0)
		return errno;
	close(fd);
	return unlink(p) < 0 ? errno : 0;
}

/* The errno of execv, through a close-on-exec pipe; 0 once it ran. */
static int do_exec(const char *p)
{
	int pfd[2], e = 0, st;
	pid_t pid;

	if (pipe2(pfd, O_CLOEXEC) < 0)
		return errno;
	pid = fork();
	if (pid < 0)
		return errno;
	if (pid == 0) {
		char *argv[] = { (char *)p, NULL };
		int devnull = open("/dev/null", O_RDWR);
		if (devnull >= 0) {
			dup2(devnull, 1);
			dup2(devnull, 2);
		}
		execv(p, argv);
		e = errno;
		(void)!write(pfd[1], &e, sizeof(e));
		_exit(127);
	}
	close(pfd[1]);
	if (read(pfd[0], &e, sizeof(e)) != sizeof(e))
		e = 0;
	close(pfd[0]);
	waitpid(pid, &st, 0);
	return e;
}

/* $NAME/rest with NAME's value; the argument itself otherwise. */
static const char *expand(const char *p, char *buf, size_t size)
{
	size_t n;

	if (p[0] != '$')
		return p;
	n = strcspn(p + 1, "/");
	char name[128];
	snprintf(name, sizeof(name), "%.*s", (int)n, p + 1);
	const char *v = getenv(name);
	snprintf(buf, size, "%s%s", v ? v : "", p + 1 + n);
	return buf;
}

int main(int argc, char **argv)
{
	char buf[4096];

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *p;
		int e;

		if (strlen(a) < 3 || a[1] != ':') {
			printf("%s bad-argument\n", a);
			continue;
		}
		p = expand(a + 2, buf, sizeof(buf));
		switch (a[0]) {
		case 'r':
			e = do_read(p);
			break;
		case 'l':
			e = do_list(p);
			break;
		case 'w':
			e = do_write(p);
			break;
		case 'c':
			e = do_create(p);
			break;
		case 'x':
			e = do_exec(p);
			break;
		default:
			printf("%s bad-op\n", a);
			continue;
		}
		printf("%s %s\n", a, e ? strerrorname_np(e) : "ok");
	}
	return 0;
}
