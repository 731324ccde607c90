/* SPDX-License-Identifier: MIT */
/*
 * The launcher (src/launch): starts a program in a forked child that
 * closes inherited descriptors, sets no-new-privs, loads a seccomp filter
 * against terminal injection, enters the Landlock domain and execs.
 * Internal: not installed; the public entry is lf_child_spawn() in landfence.h.
 *
 * Everything that can allocate happens in the parent before fork: the
 * program path search, the scrubbed environment, the seccomp BPF program
 * and the ruleset descriptor. The child makes only async-signal-safe
 * system calls, and reports any failure through a close-on-exec pipe
 * before it exits without running the program (doc/launch.md). When
 * there are masks to watch, the pipe is a socket pair instead, through
 * which it also hands the parent its mount table, opened before it
 * execs.
 */
#ifndef LF_LAUNCH_LAUNCH_H
#define LF_LAUNCH_LAUNCH_H

#include <linux/filter.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "landfence.h"
#include "launch/mountns.h"

/* The steps of the child, in the order it runs them; a failure names the
 * step it happened in. */
enum lf_launch_stage {
	LF_STAGE_NONE = 0,
	LF_STAGE_FDS = 1,	 /* moving the pipe and ruleset, close_range */
	LF_STAGE_SIGNALS = 2,	 /* restoring the signal mask */
	LF_STAGE_CWD = 3,	 /* chdir */
	LF_STAGE_NNP = 4,	 /* PR_SET_NO_NEW_PRIVS */
	LF_STAGE_SECCOMP = 5,	 /* PR_SET_SECCOMP */
	LF_STAGE_LANDLOCK = 6,	 /* landlock_restrict_self */
	LF_STAGE_EXEC = 7,	 /* execve */
	LF_STAGE_CAPS = 8,	 /* dropping capabilities (after NNP, before seccomp) */
	LF_STAGE_PARENT = 9,	 /* PR_SET_PDEATHSIG, first of all */
	LF_STAGE_NAMESPACE = 10, /* the mount namespace and its masks (mountns.h) */
	LF_STAGE_WATCH = 11,	 /* opening the namespace's mount table, to watch
				    the masks (maskwatch.c) */
};

const char *lf_launch_stage_name(enum lf_launch_stage stage);

/* The signals whose disposition is a handler, as the kernel reports them
 * on the "SigCgt:" line of /proc/PID/status (status: that file's text,
 * NUL-terminated; the kernel's collect_sigign_sigcatch() sets a bit for
 * each action that is neither SIG_DFL nor SIG_IGN): *set gets bit sig - 1
 * for signal sig. The child reads its own line to restore only those
 * signals before the exec. Returns 0, or -EINVAL when the line is missing
 * or is not 1 to 16 hexadecimal digits ended by a newline (*set is then
 * left as it was). Async-signal-safe: the child calls it. */
int lf_sigcgt_parse(const char *status, uint64_t *set);

/* Searches for the program name as execvp does, in the parent: a name with
 * a '/' is taken as is; otherwise each element of path_env (a
 * colon-separated list; NULL means "/usr/local/bin:/usr/bin:/bin"; an empty
 * element is the working directory) is tried in order. Writes the absolute
 * (not symlink-resolved) path into out.
 * Returns 0, -ENOENT (not found: exit 127), -EACCES (found but not an
 * executable regular file: exit 126), -ENAMETOOLONG, -EINVAL. */
int lf_launch_resolve(const char *name, const char *path_env, char *out, size_t size);

/* Builds the child's environment from envp: drops every variable the
 * sandbox value's scrub names (remove[0..n): a name, or "PREFIX*"), and
 * sets TMPDIR (and TMP, TEMP when present) to tmpdir when not NULL.
 * *out is a NULL-terminated malloc'ed vector of malloc'ed strings; free it
 * with lf_env_free(). Returns 0, -EINVAL, -ENOMEM. */
int lf_env_build(char *const *envp, const struct lf_sandbox_env *remove, size_t n,
		 const char *tmpdir, char ***out);
void lf_env_free(char **env);

/* Compiles the seccomp filter that makes ioctl(fd, TIOCSTI) and
 * ioctl(fd, TIOCLINUX) fail with EPERM, comparing only the low 32 bits of
 * the request (the kernel truncates it to an unsigned int) so that high
 * bits cannot smuggle it through. Native arch plus the 32-bit ABIs of this
 * machine. With no_userns, the variant that also refuses new user
 * namespaces (clone and unshare with CLONE_NEWUSER: EPERM; clone3, whose
 * flags a filter cannot read: ENOSYS), for a launch in a mount namespace.
 * The program was compiled at build time (seccomp-gen.c); this copies it.
 * out->filter is malloc'ed: free with lf_seccomp_free().
 * Returns 0, -ENOMEM. */
int lf_seccomp_build(struct sock_fprog *out, bool no_userns);
void lf_seccomp_free(struct sock_fprog *prog);

/* A private temporary directory: created 0700 under $TMPDIR (secure_getenv,
 * absolute) when it is set; else on a tmpfs with 256 MiB free when there
 * is one (/dev/shm, sticky and owned by root; then $XDG_RUNTIME_DIR,
 * owned by us, 0700), else under /tmp; canonical path written into out.
 * Returns 0, or the negative errno of mkdtemp/realpath, -ENAMETOOLONG. */
int lf_rundir_create(char *out, size_t size);

/* Removes path and everything below it without following any symbolic
 * link (a link is removed, never its target). Returns 0 or the first
 * negative errno met (it keeps going past errors). */
int lf_rundir_remove(const char *path);

struct lf_launch_opts {
	const char *path;		 /* absolute program path (lf_launch_resolve) */
	char *const *argv;		 /* argv[0] as the program will see it */
	char *const *envp;		 /* the environment (lf_env_build) */
	int ruleset_fd;			 /* Landlock ruleset, -1: none (Unsupported) */
	const struct sock_fprog *filter; /* seccomp program, NULL: none */
	const char *cwd;		 /* chdir before exec, NULL: stay */
	const struct lf_ns_plan *ns;	 /* the mount namespace and its masks, NULL:
					    none (the plan re-enters the cwd) */
};

/* A started child. */
struct lf_launch {
	pid_t pid;
	sigset_t saved_mask; /* the caller's mask, restored by lf_launch_wait */
	bool waited;
	/* The masks, watched while the program runs (maskwatch.c): */
	int mnt_fd;		     /* the namespace's mount table, -1: not
					watched */
	const struct lf_ns_plan *ns; /* the plan whose masks are watched */
	int fell;		     /* the op whose mask fell (the program was
					killed), -1: none */
	int root_fd;		     /* the namespace's root, opened by the child
					with the table (O_PATH), -1: none */
	uint64_t *mnt_ids;	     /* per op of ns: the mount its path reached
					through root_fd when the watch started,
					0: not known (malloc'ed, or NULL) */
	int watch_err;		     /* why the masks could not be watched (the
					program was killed), 0 */
	ino_t ns_ino;		     /* the namespace (nsfs), 0: not known */
	dev_t ns_dev;
	/* Holds the namespace while its processes may be signalled by its
	 * inode (a duplicate of the table's descriptor, kept once the watch
	 * stops); -1: not held by this one. */
	int ns_fd;
	bool reap_others; /* a subreaper's wait: reap every other child that
			     ends (the program's orphans), not only the program */
};

/* maskwatch.c. Whether ns has a mask to watch (a hidden path or a
 * read-only bind): the child then opens its mount table before it execs
 * and hands it over. */
bool lf_mask_watch_needed(const struct lf_ns_plan *ns);
/* Starts watching the masks of ns (NULL: none) for the started child l
 * (l->pid, l->ns_ino and l->ns_dev set) through table_fd, the mount table
 * the child opened in its namespace before it exec'ed (-1: none; taken
 * over, closed by lf_mask_watch_stop), and checks it once. Opened there,
 * the table shows the namespace from the launcher's root whatever the
 * program does after its exec (a chroot). root_fd (-1: none; taken over
 * likewise) is the namespace's root, opened by the child at the same
 * moment: each mask's path is looked up through it once now, and again
 * at each check before the table is read (lf_mask_watch_check). A watch
 * that cannot start (no table where masks are to be watched, or one that
 * cannot be read) kills the program and sets l->watch_err (fail
 * closed). */
void lf_mask_watch_start(struct lf_launch *l, const struct lf_ns_plan *ns, int table_fd,
			 int root_fd);
/* Looks at each mask's path through the namespace's root, then reads the
 * mount table: when a path no longer reaches its mask's mount, or the
 * table misses a mask, sets l->fell and kills the program (SIGKILL), the
 * first at once. Returns 1 (a mask fell), 0, or a negative errno (the
 * table could not be read). */
int lf_mask_watch_check(struct lf_launch *l);
/* Gives up watching because of err (a positive errno): kills the program
 * and every process in its namespace (fail closed), sets l->watch_err,
 * closes the table. */
void lf_mask_watch_fail(struct lf_launch *l, int err);
/* How many watched masks have a mount noted for the quick look of
 * lf_mask_watch_check (their path looked up through the namespace's root
 * when the watch started); 0 when the watch has stopped or has no root. */
size_t lf_mask_watch_looks(const struct lf_launch *l);
/* Stops watching: closes the table. The namespace stays held. */
void lf_mask_watch_stop(struct lf_launch *l);
/* Stops watching and lets the namespace go (lf_launch_wait, at its end):
 * no process is signalled by the namespace's inode afterwards. */
void lf_mask_watch_end(struct lf_launch *l);
/* maskwatch.c. What fd holds, read whole from its start (a mount table,
 * a /proc list of any length) into a malloc'ed NUL-terminated string
 * (up to 64 MiB); NULL with errno. */
char *lf_read_whole(int fd);
/* Sends sig to every process in the program's mount namespace but the
 * caller (a /proc walk, /proc/N/ns/mnt against the namespace's inode):
 * how many, or a negative errno. Only while l->ns_fd or the watched
 * table (l->mnt_fd) holds the namespace (else 0, nothing sent): the
 * kernel gives a freed namespace's inode number to the next one made,
 * and a walk by a number no longer held would signal another launch's
 * processes, or a service's. */
int lf_mask_watch_signal(const struct lf_launch *l, int sig);

/* spawn.c. For a caller that is a child subreaper (lf_run_start): while
 * lf_child_wait waits, every other child of the process that ends (an
 * orphan of the program, reparented to it) is reaped at once, so that a
 * long run does not keep them as zombies until its end. */
void lf_child_reap_orphans(struct lf_child *c);

/* Why a child did not exec. */
struct lf_launch_failure {
	enum lf_launch_stage stage;
	int err;     /* positive errno */
	int ns_step; /* LF_STAGE_NAMESPACE: the step (enum lf_ns_step) */
	int ns_op;   /* ... and the mount step's index, -1 before them */
};

/* Starts the child sequence (a CLONE_VM | CLONE_VFORK child on its own
 * stack, with a guard page). Blocks SIGINT, SIGTERM, SIGHUP, SIGQUIT,
 * SIGWINCH and SIGCHLD in the calling thread (pthread_sigmask) until
 * lf_launch_wait, so none is lost; the child gets the caller's mask back
 * before exec. Marks the caller non-dumpable (PR_SET_DUMPABLE 0) so that
 * the program cannot read the caller's /proc entries; sets SIGCHLD back
 * to its default when the caller ignores it. The child asks for SIGKILL
 * when the calling thread ends (PR_SET_PDEATHSIG), and exits at once when
 * the caller is already gone; it drops every capability but a small kept
 * set (doc/launch.md) after no-new-privs.
 * Returns 0 once the program has been exec'ed (the error channel saw EOF),
 * with *out filled; or a negative errno: -ECHILD-style failures of the
 * child carry the child's errno (negated) with *fail filled (the child
 * has been reaped and the caller's mask restored), other values are the
 * parent's own socketpair/clone errors (fail->stage == LF_STAGE_NONE). */
int lf_launch_spawn(const struct lf_launch_opts *o, struct lf_launch *out,
		    struct lf_launch_failure *fail);

/* Waits for the child, forwarding SIGINT, SIGTERM, SIGHUP, SIGQUIT and
 * SIGWINCH sent to this process by another process (kill); the ones the
 * terminal sends to the whole foreground process group already reach the
 * child and are not sent twice. When the child stops (job control) and
 * this process does not, this process stops itself (SIGSTOP) and sends
 * the child SIGCONT once continued. Restores the caller's signal mask.
 * Writes the raw wait status. Returns 0 or a negative errno. */
int lf_launch_wait(struct lf_launch *l, int *status);

/* Internal accessors of the public struct lf_child (spawn.c), for the
 * run (src/gate/run.c) and tests: why the last start failed, the resolved
 * program path and the private TMPDIR; how many watched masks the quick
 * look reaches (lf_mask_watch_looks: 0 once the watch stopped). */
const struct lf_launch_failure *lf_child_failure(const struct lf_child *c);
const char *lf_child_path(const struct lf_child *c);
const char *lf_child_run_dir(const struct lf_child *c);
size_t lf_child_watch_looks(const struct lf_child *c);

#endif /* LF_LAUNCH_LAUNCH_H */
