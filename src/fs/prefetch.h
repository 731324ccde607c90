/* SPDX-License-Identifier: MIT */
/*
 * Host facts that depend on no policy, gathered on threads of their own
 * while the policy is read and the project opened (prefetch.c; doc/
 * launch.md, "Launch cost"): the entries of /etc others cannot read (what
 * the mount namespace hides, maskfacts.c) and the home directories of the
 * password database (the safe-roots check, project.c). Each consumer asks
 * for its fact the same way whether a thread gathered it or not: without
 * lf_prefetch_start, or when a thread could not be started, the fact is
 * gathered then and there by the very same function, so the answers never
 * depend on the prefetch, only the time they take. Internal: not
 * installed.
 */
#ifndef LF_FS_PREFETCH_H
#define LF_FS_PREFETCH_H

#include <stddef.h>
#include <sys/types.h>

struct lf_typed_path;

/* What a look at /etc found: the entries others cannot read, and the
 * rows of lf_etc_hidden, each with its type (a directory's contents are
 * not listed below it); err says why the look could not finish, NULL
 * when it did. */
struct lf_etc_scan {
	struct lf_typed_path *v;
	size_t n, cap;
	char *err;
};

/* Walks root (the one walker, symbolic links never followed, a budget of
 * 50,000 entries and 2 s) and fills *out. Returns 0 (see out->err) or
 * -ENOMEM (out is then empty). maskfacts.c. */
int lf_etc_scan(const char *root, struct lf_etc_scan *out);
void lf_etc_scan_fini(struct lf_etc_scan *s);

/* One user of the password database: the home directory (its realpath,
 * or as written when it cannot be resolved), the name and the uid. */
struct lf_home {
	char *dir;
	char *name;
	uid_t uid;
};

struct lf_homes {
	struct lf_home *v;
	size_t n;
};

/* Every entry of the password database (setpwent/getpwent, every NSS
 * source) whose home is absolute and not "/". Returns 0 or -ENOMEM (out
 * is then empty). */
int lf_homes_read(struct lf_homes *out);
void lf_homes_fini(struct lf_homes *h);

/* What lf_prefetch_start gathers. The caller asks for the /etc look only
 * when a mount namespace may be used (the fact is for the namespace path:
 * not with LANDFENCE_NO_NAMESPACES). */
#define LF_PREFETCH_ETC 1u
#define LF_PREFETCH_HOMES 2u
/* A thread for each fact, or one for both, whatever the number of
 * processors (tests). */
#define LF_PREFETCH_THREAD_EACH 4u
#define LF_PREFETCH_THREAD_ONE 8u

/* Starts gathering the facts of what, once per process (later calls do
 * nothing): a thread for each with three or more processors online, else
 * one thread for both, the homes first, so that the caller keeps a
 * processor. Every signal is blocked in them, so that the process's
 * handlers run on the calling thread. A thread that cannot be started is
 * no error: its facts are gathered when asked for. */
void lf_prefetch_start(unsigned what);

/* The look at /etc under root: the thread's result when one was started
 * (root must be "/etc" itself; waited for, then handed over once), else a
 * walk now. Returns as lf_etc_scan, or -EIO when the thread could not be
 * waited for (never seen; the fact is then not known). */
int lf_prefetch_etc(const char *root, struct lf_etc_scan *out);

/* The password database's homes: the thread's (waited for, handed over
 * once), else read now. Returns as lf_homes_read, or -EIO as above. */
int lf_prefetch_homes(struct lf_homes *out);

/* Waits for whatever thread still runs and frees what nobody took. Called
 * before anything is launched; idempotent. */
void lf_prefetch_end(void);

#endif /* LF_FS_PREFETCH_H */
