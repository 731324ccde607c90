/* SPDX-License-Identifier: MIT */
/*
 * Host facts that depend on no policy (hostfacts.h): the password
 * database's homes. (A thread gathering this and the look at /etc while
 * the policy was read was tried: on the 2-processor VM it saved 1 % of a
 * launch's wall time and cost 15 % more CPU, so facts are gathered where
 * they are needed; bench/README.md.)
 */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/model.h"
#include "fs/fs.h"
#include "fs/hostfacts.h"

void lf_homes_fini(struct lf_homes *h)
{
	for (size_t i = 0; i < h->n; i++) {
		free(h->v[i].dir);
		free(h->v[i].name);
	}
	free(h->v);
	memset(h, 0, sizeof(*h));
}

/* Whether the passwd line of /etc/nsswitch.conf names "files" first and
 * then at most "systemd", without an action, once. */
static bool nsswitch_files(bool *systemd)
{
	FILE *f = fopen("/etc/nsswitch.conf", "re");
	char *line = NULL;
	size_t cap = 0;
	int lines = 0;
	bool ok = false;

	*systemd = false;
	if (!f)
		return false;
	while (getline(&line, &cap, f) > 0) {
		char *p = line + strspn(line, " \t"), *save = NULL, *w;
		int n = 0;

		line[strcspn(line, "#\n")] = '\0';
		if (strncmp(p, "passwd:", 7) != 0)
			continue;
		lines++;
		ok = true;
		for (w = strtok_r(p + 7, " \t", &save); w; w = strtok_r(NULL, " \t", &save), n++) {
			if (n == 0 && !strcmp(w, "files"))
				continue;
			if (n == 1 && !strcmp(w, "systemd")) {
				*systemd = true;
				continue;
			}
			ok = false;
		}
		ok = ok && n > 0;
	}
	free(line);
	fclose(f);
	return ok && lines == 1;
}

/* Where systemd's NSS module finds users /etc/passwd does not hold:
 * the varlink services of userdb (homed, dynamic users, machines, the
 * multiplexer) and the drop-in records (nss-systemd(8), userdbd(8)). */
static const char *const userdb_places[] = {
	"/run/systemd/userdb",	 "/etc/userdb",	    "/run/userdb", "/run/host/userdb",
	"/usr/local/lib/userdb", "/usr/lib/userdb", NULL,
};

/* One line of /etc/passwd into its home and name; false for a line
 * the files module might read otherwise (compat "+"/"-", fields). */
static bool passwd_line(char *line, const char **name, const char **dir, uid_t *uid)
{
	char *f[7], *p = line, *end;
	int n = 0;

	line[strcspn(line, "\n")] = '\0';
	if (line[0] == '+' || line[0] == '-')
		return false;
	for (; n < 7; n++) {
		f[n] = p;
		p = strchr(p, ':');
		if (!p)
			break;
		*p++ = '\0';
	}
	if (n != 6 || !f[0][0])
		return false;
	errno = 0;
	unsigned long u = strtoul(f[2], &end, 10);
	if (errno || end == f[2] || *end || u >= (uid_t)-1)
		return false;
	*name = f[0];
	*dir = f[5];
	*uid = (uid_t)u;
	return true;
}

static int home_push(struct lf_homes *out, size_t *cap, struct lf_realpath_memo *memo,
		     const char *pw_dir, const char *pw_name, uid_t uid)
{
	char *dir;
	int r = 0;

	if (!pw_dir || pw_dir[0] != '/' || strcmp(pw_dir, "/") == 0)
		return 0;
	/* A home that cannot be resolved (not there yet, not ours to look
	 * into) is compared as written. */
	dir = lf_realpath_memo(memo, pw_dir, NULL);
	if (!dir && errno == ENOMEM)
		r = -ENOMEM;
	if (r == 0 && !dir && !(dir = strdup(pw_dir)))
		r = -ENOMEM;
	if (r == 0 && lf_grow((void **)&out->v, cap, out->n, sizeof(*out->v)) < 0)
		r = -ENOMEM;
	if (r < 0) {
		free(dir);
		return r;
	}
	/* The entry owns dir from here, whatever strdup gives. */
	struct lf_home *h = &out->v[out->n++];
	h->dir = dir;
	h->uid = uid;
	h->name = strdup(pw_name ? pw_name : "?");
	return h->name ? 0 : -ENOMEM;
}

/* /etc/passwd read directly, when it is the whole database: 1 when it
 * was, 0 when the NSS sources are needed (out untouched), -ENOMEM. */
static int homes_from_files(struct lf_homes *out, size_t *cap, struct lf_realpath_memo *memo)
{
	bool systemd, root = false;
	struct stat st;
	char *line = NULL;
	size_t lcap = 0;
	int r = 1;

	if (!nsswitch_files(&systemd))
		return 0;
	for (size_t i = 0; systemd && userdb_places[i]; i++)
		if (lstat(userdb_places[i], &st) == 0 || errno != ENOENT)
			return 0;
	FILE *f = fopen("/etc/passwd", "re");
	if (!f)
		return 0;
	while (r == 1 && getline(&line, &lcap, f) > 0) {
		const char *name, *dir;
		uid_t uid;

		if (line[0] == '\n' || line[0] == '#')
			continue;
		if (!passwd_line(line, &name, &dir, &uid)) {
			r = 0;
			break;
		}
		root = root || uid == 0;
		if (home_push(out, cap, memo, dir, name, uid) < 0)
			r = -ENOMEM;
	}
	if (r == 1 && ferror(f))
		r = 0;
	free(line);
	fclose(f);
	/* systemd's module makes up root when the file lacks it. */
	if (r == 1 && systemd && !root)
		r = 0;
	if (r == 0)
		lf_homes_fini(out);
	return r;
}

/* Where getent(1) is: libc's own program (Debian's libc-bin). */
static const char *const getent_places[] = { "/usr/bin/getent", "/bin/getent", NULL };

/* The waited-for exit of pid: its status, or -errno. */
static int wait_exit(pid_t pid)
{
	int st;

	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return st;
}

/* Every user `getent passwd` lists, read from a pipe: the NSS sources'
 * modules (LDAP, sssd, ...) run in that process, never in ours, and a
 * static tool cannot load them safely anyway. Standard input is
 * /dev/null, standard error is ours. Returns 0; -ENOMEM; -EIO when getent
 * cannot be run, is killed, exits with a status other than 0 or 3 (3: a
 * source that cannot list its users, which lists none) or prints a line
 * that is not a password entry: whoever asks for the homes must not go on
 * with a list that may miss some (lf_homes_read). */
static int homes_from_getent(struct lf_homes *out, size_t *cap, struct lf_realpath_memo *memo)
{
	char *const argv[] = { (char *)"getent", (char *)"passwd", NULL };
	char *const envp[] = { (char *)"PATH=/usr/bin:/bin", (char *)"LC_ALL=C", NULL };
	posix_spawn_file_actions_t fa;
	const char *path = NULL;
	char *line = NULL;
	size_t lcap = 0;
	bool spawned = false;
	int fds[2], r = 0, st;
	pid_t pid = -1;

	for (size_t i = 0; !path && getent_places[i]; i++)
		if (access(getent_places[i], X_OK) == 0)
			path = getent_places[i];
	if (!path)
		return -EIO;
	if (pipe2(fds, O_CLOEXEC) < 0)
		return -errno;
	if ((r = -posix_spawn_file_actions_init(&fa)) == 0) {
		r = -posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
		if (r == 0)
			r = -posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
		if (r == 0)
			r = -posix_spawn(&pid, path, &fa, NULL, argv, envp);
		spawned = r == 0;
		posix_spawn_file_actions_destroy(&fa);
	}
	close(fds[1]);
	FILE *f = r == 0 ? fdopen(fds[0], "re") : NULL;

	if (!f) {
		r = r ?: -errno;
		close(fds[0]);
		if (r != -ENOMEM && r != -EMFILE)
			r = -EIO;
		if (spawned)
			(void)wait_exit(pid); /* it ends on the closed pipe */
		return r;
	}
	while (r == 0 && getline(&line, &lcap, f) > 0) {
		const char *name, *dir;
		uid_t uid;

		if (!passwd_line(line, &name, &dir, &uid))
			r = -EIO;
		else
			r = home_push(out, cap, memo, dir, name, uid);
	}
	if (r == 0 && ferror(f))
		r = -EIO;
	free(line);
	fclose(f); /* a getent still writing gets SIGPIPE */
	st = wait_exit(pid);
	if (r == 0 && (st < 0 || !WIFEXITED(st) || (WEXITSTATUS(st) != 0 && WEXITSTATUS(st) != 3)))
		r = -EIO;
	return r;
}

int lf_homes_read(struct lf_homes *out)
{
	struct lf_realpath_memo memo = { 0 };
	size_t cap = 0;
	int r = 0;

	memset(out, 0, sizeof(*out));
	/* The NSS modules (libnss_systemd and what it loads) cost a launch
	 * more than the file: asked only when something else than the file
	 * may hold a user. */
	r = homes_from_files(out, &cap, &memo);
	if (r != 0) {
		lf_realpath_memo_fini(&memo);
		return r < 0 ? r : 0;
	}
	cap = 0;
	r = homes_from_getent(out, &cap, &memo);
	lf_realpath_memo_fini(&memo);
	if (r < 0)
		lf_homes_fini(out);
	return r;
}
