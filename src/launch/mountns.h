/* SPDX-License-Identifier: MIT */
/*
 * The private mount namespace of a launch (doc/launch.md, "The mount
 * namespace"; doc/landlock.md, "Masks"): the probe that says whether one
 * can be made here, and the steps the child takes to apply the sandbox
 * value's masks before Landlock. Internal: not installed.
 *
 * Everything the child needs is prepared in the parent (struct
 * lf_ns_plan: the id maps as text, every mount step with its path and
 * the type the facts step saw); the child only makes system calls
 * (async-signal-safe, through syscall(2), never instrumented).
 */
#ifndef LF_LAUNCH_MOUNTNS_H
#define LF_LAUNCH_MOUNTNS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "landfence.h"

/* What the probe found: a private mount namespace can be made here (with
 * a user namespace when not root with CAP_SYS_ADMIN), or which step
 * failed and why. */
struct lf_ns_probe {
	bool available;
	bool user;
	bool others; /* /etc can be seen as others see it: an id-mapped
			clone of it can be made (root, no user namespace) */
	char failed[256];
	bool remembered; /* from an earlier launch (lf_ns_probe_run_memo) */
};

/* Whether LANDFENCE_NO_NAMESPACES asks for the path without namespaces
 * (set, not empty and not "0"). */
bool lf_ns_disabled_by_env(void);

/* Tries, in a child of its own (clone, then every step a launch takes:
 * unshare, the id maps, private propagation, a detached tmpfs, a
 * read-only recursive clone, a move_mount), whether masks can be applied
 * here. LANDFENCE_NO_NAMESPACES=1 answers no without trying. The child's
 * answer is remembered for the process. Returns 0 and *out, or a
 * negative errno when the child could not be started (then *out says
 * so and is not available). */
int lf_ns_probe_run(struct lf_ns_probe *out);

/* The same, with the answer of an earlier launch when config_dir's cache
 * holds one for this very host state (nsmemo.c says what decides it),
 * else probing and keeping a full "yes" there. config_dir: landfence's
 * configuration directory (absolute; NULL: no memo). mountinfo: the
 * text of /proc/self/mountinfo the caller has just read (mountinfo_len
 * bytes; borrowed), or NULL: read here. Returns as lf_ns_probe_run. */
int lf_ns_probe_run_memo(struct lf_ns_probe *out, const char *config_dir, const char *mountinfo,
			 size_t mountinfo_len);

/* After a launch failed placing its mounts: when this process's answer
 * was remembered, forgets it (the file too), so that the next probe of
 * this process, and the next launch, try every step again. Returns 1
 * (forgotten), 0 (it was not remembered), or the negative errno of the
 * file's removal (forgotten by this process only). */
int lf_ns_probe_forget(void);

/* nsmemo.c. Whether config_dir holds a "yes" for this host state, then
 * *out (remembered set). mountinfo as lf_ns_probe_run_memo's. */
bool lf_ns_memo_recall(const char *config_dir, bool user, const char *mountinfo,
		       size_t mountinfo_len, struct lf_ns_probe *out);
/* Keeps p when it is a full "yes" (best effort). */
void lf_ns_memo_keep(const char *config_dir, const struct lf_ns_probe *p, const char *mountinfo,
		     size_t mountinfo_len);
/* Removes the file this process's answer came from: 1, 0 (there was
 * none), or -errno of unlink. */
int lf_ns_memo_forget(void);
/* That file's path ("" none), until it is forgotten. */
const char *lf_ns_memo_used(void);
/* Up to size - 1 bytes (size > 0) of a small file (of /proc), read
 * whole, NUL-terminated: its length, or the negative errno of open or
 * read. */
ssize_t lf_proc_read(const char *path, char *buf, size_t size);

/* What a bind seen as others see it gets: id-mapped through
 * lf_ns_nobody_userns(), read-only (a file's metadata too: chmod, utimes
 * and xattrs, which Landlock does not mediate, fail with EROFS), nodev,
 * nosuid. The facts step uses this bind only where nothing grants a
 * write. */
#define LF_MOUNT_ATTRS_OTHERS \
	(MOUNT_ATTR_IDMAP | MOUNT_ATTR_RDONLY | MOUNT_ATTR_NODEV | MOUNT_ATTR_NOSUID)

/* A user namespace that maps one user id and one group id, each onto
 * itself, drawn at random per process in [2^31, 2^32 - 2], and nothing
 * else: a mount id-mapped through it leaves every other file unmapped, so
 * that the kernel grants on each what its mode grants others, root
 * included (a capability overrides file permissions only for ids the
 * mount maps).
 * Made on first call, by a short-lived child, and kept open
 * (close-on-exec) for the process; needs CAP_SETUID and CAP_SETGID.
 * Returns the descriptor (not the caller's to close), or a negative
 * errno (the same on every later call): those of pipe2, mmap, clone,
 * getrandom, writing /proc/PID/uid_map and gid_map, opening
 * /proc/PID/ns/user. */
int lf_ns_nobody_userns(void);
/* Reaps the short-lived child of lf_ns_nobody_userns() if it is not yet
 * (it is not waited for when it is made, so that its exit overlaps the
 * caller's work): blocks until it has exited, which it does once made.
 * Through its pidfd: a child someone else reaped (waitpid(-1)) is not
 * mistaken for another process of the same pid. Callers: the launch,
 * before it makes the program's process (no program ever sees the
 * member, even as a zombie, whose /proc/PID/uid_map names the id), the
 * namespace probe, and lf_child_free. */
void lf_ns_nobody_reap(void);

/* One mount step. */
enum lf_mount_kind {
	LF_MOUNT_BIND = 0,	/* the target bound onto itself, recursively, with attrs */
	LF_MOUNT_HIDE_DIR = 1,	/* the stage's empty directory over the target */
	LF_MOUNT_HIDE_FILE = 2, /* the stage's empty file over the target */
};

#define LF_WANT_ANY 0 /* anything but a symbolic link */
#define LF_WANT_DIR 1
#define LF_WANT_NONDIR 2

struct lf_mount_op {
	enum lf_mount_kind kind;
	const char *anchor; /* canonical absolute: opened without following a link */
	const char *rel;    /* below the anchor ("" the anchor itself), opened
			       with RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS */
	uint64_t attrs;	    /* MOUNT_ATTR_* set recursively on a bind */
	int want;	    /* the target's type: LF_WANT_* */
	const char *path;   /* anchor + rel, for messages */
};

struct lf_ns_plan {
	bool user;	  /* make a user namespace first */
	int userns_fd;	  /* lf_ns_nobody_userns() when a bind is id-mapped,
			     else -1 (not owned) */
	char uid_map[64]; /* "UID UID 1\n" */
	char gid_map[64];
	size_t uid_map_len, gid_map_len;
	const char *cwd; /* re-entered after the mounts (absolute) */
	bool stage;	 /* a tmpfs stage is needed (hidden paths) */
	struct lf_mount_op *ops;
	size_t nops;
	char *cwd_copy; /* owned */
};

/* Builds the plan of sb (a value with a namespace and something to
 * mount) for a launch whose working directory is cwd (absolute; the
 * program starts there). Returns 0, -ENOMEM, or lf_ns_nobody_userns()'s
 * error when a bind is seen as others see it. The plan borrows sb's
 * strings: sb must outlive it. */
int lf_ns_plan_build(const struct lf_sandbox *sb, const char *cwd, struct lf_ns_plan *out);
void lf_ns_plan_fini(struct lf_ns_plan *p);

/* Where a child step failed. */
enum lf_ns_step {
	LF_NS_STEP_USERNS = 1,	/* unshare(CLONE_NEWUSER) */
	LF_NS_STEP_IDMAP = 2,	/* setgroups, uid_map, gid_map */
	LF_NS_STEP_MNTNS = 3,	/* unshare(CLONE_NEWNS) */
	LF_NS_STEP_PRIVATE = 4, /* mount --make-rprivate / */
	LF_NS_STEP_STAGE = 5,	/* the detached tmpfs */
	LF_NS_STEP_OPEN = 6,	/* opening a target */
	LF_NS_STEP_TYPE = 7,	/* the target is not what the facts step saw */
	LF_NS_STEP_CLONE = 8,	/* open_tree, mount_setattr */
	LF_NS_STEP_MOVE = 9,	/* move_mount */
	LF_NS_STEP_CWD = 10,	/* re-entering the working directory */
};

/* A step's name, for messages. Static string. */
const char *lf_ns_step_name(enum lf_ns_step step);

/* In the child (async-signal-safe): makes the namespaces, applies every
 * step of p in order, re-enters the working directory. userns: the
 * child's descriptor of p->userns_fd (or -1 when p has none). Returns 0,
 * or a negative errno with *step and *op (the index of the failing step,
 * -1 before the mount steps) set. */
int lf_ns_enter(const struct lf_ns_plan *p, int userns, int *step, int *op);

#endif /* LF_LAUNCH_MOUNTNS_H */
