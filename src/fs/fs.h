/* SPDX-License-Identifier: MIT */
/*
 * The file-system side of the library (src/fs): the canonical form of a
 * path, the one directory walker, and the step that gathers, before a
 * sandbox value is compiled, every fact about the file system the pure
 * core needs (src/core/sandbox.h). Everything that looks at the tree goes
 * through here, so that the rules for what is followed, what is counted
 * and when a look is incomplete exist once. Internal: not installed.
 */
#ifndef LF_FS_FS_H
#define LF_FS_FS_H

#include <dirent.h>
#include <stdbool.h>
#include <stddef.h>
#include <pthread.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "core/model.h"

/* Where the kernel would really go for the absolute path in: realpath of
 * its longest existing ancestor, the rest appended and cleaned
 * (lf_path_clean). It starts from the path as written, not from its clean
 * form: with src/h a link to ../.git/hooks, "src/h/../config" is
 * .git/config, not src/config. A dangling symbolic link on the way is
 * followed to its target (at most 40 links), which is what an open with
 * O_CREAT creates. When the links loop or go deeper, the clean form of in
 * is the answer. *out is malloc'ed (caller frees).
 * Returns 0, -EINVAL (in not absolute), -ENOMEM. */
int lf_path_canon_lenient(const char *in, char **out);

/* realpath(3) for many paths that share their directories (the grants of
 * a policy: 10,000 below one project): the directories a call proved
 * canonical (every proper ancestor of a result, every directory found
 * so) are remembered in memo, and a clean absolute path whose parent is
 * one of them costs one lstat instead of a readlink per component: not a
 * symbolic link, it is its own canonical form. A parent not yet seen is
 * proved so from the deepest ancestor the memo knows ("/" at least), one
 * lstat a directory, each remembered; a link on the way is read once and
 * its target walked the same way. The rest is realpath's, errno and all:
 * a path with ".", ".." or "//" (given, or in a link's target), a file on
 * the way, more than 40 links, a path of PATH_MAX bytes or more.
 * Returns what realpath returns (malloc'ed, or NULL with errno), and in
 * *out (may be NULL) what stat(2) says of the result (st_mode 0 when it
 * could not be looked at); the memo is only as current as the tree was
 * when each entry was proved, like realpath's answer itself. Free the
 * memo with lf_realpath_memo_fini; a zeroed one is empty. */
struct lf_memo_parent;
struct lf_realpath_memo {
	char **v; /* open addressing on lf_fnv, NULL = free */
	size_t n, cap;
	/* The parents lf_realpath_memo_type was asked about (open
	 * addressing, dir NULL = free), with their listings. */
	struct lf_memo_parent *parents;
	size_t nparents, capparents;
};
struct stat;
char *lf_realpath_memo(struct lf_realpath_memo *m, const char *path, struct stat *out);
void lf_realpath_memo_fini(struct lf_realpath_memo *m);

/* lf_realpath_memo for a caller that needs only the result's type
 * (S_IFDIR, S_IFREG, ...: the S_IFMT bits of what stat(2) says, in
 * *type; 0 when it could not be looked at). A canonical directory asked
 * about for LF_MEMO_LIST_AFTER of its entries or more (the grants of a
 * large policy: thousands in a few directories) is listed once, and a
 * clean path below it whose listed type is not a link and not unknown is
 * its own canonical form, of that type, without a lstat. The listing is
 * taken only of a directory the caller may search, and abandoned (the
 * lstat of each path again) when it holds more than LF_MEMO_LIST_RATIO
 * names for each path asked so far; it is what the directory held when
 * it was taken, as each lstat would have been. Looked at as before
 * (lf_realpath_memo's): a name the listing does not hold (made since,
 * perhaps), a name something is mounted on (the mount table is read
 * with the listing: the listing gives the entry's own type, a lookup
 * reaches the mount), links, unknown types, and paths of PATH_MAX bytes
 * or more. Returns as lf_realpath_memo. */
#define LF_MEMO_LIST_AFTER 16
#define LF_MEMO_LIST_RATIO 32
char *lf_realpath_memo_type(struct lf_realpath_memo *m, const char *path, unsigned *type);

/* realpath(3) of the symbolic link name in dirfd, known as path, whose
 * parent directory is canonical (a walk's entry below a canonical root):
 * its target read once (readlinkat) and joined to that parent, then
 * lf_realpath_memo's, instead of a readlink per component of the link's
 * path and of each step of its target. Returns and fills *out as
 * lf_realpath_memo. */
char *lf_realpath_link_memo(struct lf_realpath_memo *m, int dirfd, const char *name,
			    const char *path, struct stat *out);
/* The same for the link at path whose target (as readlink gives it) is
 * known already: a listing kept with the link's inode (treecache.c). */
char *lf_realpath_link_target(struct lf_realpath_memo *m, const char *target, const char *path,
			      struct stat *out);

/* maskfacts.c. The value of a git config line "key = value" (key
 * compared without case), trimmed, surrounding quotes removed, cut at a
 * comment, in place in line; NULL when the line is not key. */
char *lf_git_config_value(char *line, const char *key);

/* opendir(3) of path opened with O_RDONLY | O_DIRECTORY | O_CLOEXEC and
 * flags (O_NOFOLLOW, ...): the stream, or NULL with errno. */
DIR *lf_dir_open(const char *path, int flags);

/* The name of the namespace probe's remembered answer in the cache
 * directory (launch/nsmemo.c); its temporary files are this name, a dot
 * and six characters. */
#define LF_CACHE_NS_PROBE "ns-probe"

/* The cache directory, config_dir/cache, into out (size bytes), when it
 * can be trusted with what decides a launch's protections: a directory,
 * not a symbolic link, owned by the user, writable by nobody else, and
 * writable by the user (what is kept there can be removed). make: create
 * it, and config_dir, 0700 when missing, unless the deepest part of the
 * way that exists fails lf_path_guarded (nothing is made there). Returns 0; -EINVAL (config_dir
 * not absolute, or too long), -ENOTDIR, -EPERM (not the user's own, or
 * writable by others), or the errno of mkdir, lstat or access (src/fs/
 * cachedir.c). */
int lf_cache_dir(const char *config_dir, bool make, char *out, size_t size);

/* The GNU build ID of the object this code is linked into (landfence or
 * the library), in hex, for the keys of what is kept in the cache
 * directory: another build, whose answers may differ, does not take this
 * one's. Returns 0, or -ENOENT (built without one: nothing is kept). */
#define LF_BUILD_ID_HEX (2 * 64 + 1)
int lf_build_id(char hex[LF_BUILD_ID_HEX]);

/* Whether fd, open on a file of the cache directory (or the trust store
 * beside it), may be believed: a regular file owned by the user, that
 * nobody else may write, with no other name. The sandboxed program can
 * chmod what it cannot write (Landlock does not mediate chmod): a file
 * made writable by others, or linked elsewhere, could be changed by
 * another local user. *st is filled (cachedir.c). */
bool lf_cache_file_ours(int fd, struct stat *st);

/* Whether every directory the kernel walks through to reach path (an
 * absolute path; each link on the way followed, at most 40), path itself
 * too when it is a directory, belongs to root or to the user (or to the
 * id unmapped owners show as, in a user namespace that does not map root:
 * root's directories, seen from an unprivileged user's sandbox), and
 * nobody else may change it: not writable by group or others, unless it
 * is like /tmp: root's, sticky and writable by everybody (others cannot
 * rename what is not theirs there; the sandboxed program cannot set that
 * mode, and a sticky directory it made group-writable would still take
 * a new file). A sandboxed
 * program can chmod the user's directories (Landlock does not mediate
 * chmod); another local user could then replace what the configuration
 * directory holds, or the directory itself, with a link to files the
 * program wrote. Returns 0; -EACCES with bad (badsize bytes) naming the
 * first directory that fails, its owner and mode; or -errno of the walk
 * (-ENOENT: a component is missing, -ENOTDIR, -ELOOP, -ENAMETOOLONG,
 * -EINVAL for a relative path) (cachedir.c). */
int lf_path_guarded(const char *path, char *bad, size_t badsize);

/* Opens file for reading (O_CLOEXEC, no link followed, no terminal, no
 * wait) when lf_cache_file_ours holds for it and it holds at most max
 * bytes; *st is filled. Returns the descriptor, which the caller closes,
 * or -errno of open(2) (-ENOENT: none), -EACCES for a regular file that
 * is not the user's alone, -EINVAL for anything not a regular file, or
 * -EFBIG for one larger than max (cachedir.c). */
int lf_cache_file_open(const char *file, uint64_t max, struct stat *st);

/* Removes the cache files names (n base names: tree-, list-, dev-, pol- or
 * LF_CACHE_NS_PROBE; any other name is left) from config_dir's cache
 * directory, reached as lf_cache_dir reaches it, through a descriptor:
 * never through a link. For what changed there while a program ran
 * (gate/snapshot.c): the program cannot write these files, but it can
 * chmod them and their directory and set them back before it exits,
 * while another local user moves in or rewrites a file it made (a
 * compiled policy needs no secret: the trusted text's digest is in the
 * store it may read). left (n entries, may be NULL) says, per name,
 * whether a file may still be there: not removed, for another reason
 * than being gone already. Returns how many were removed, or -errno
 * when the directory cannot be reached (lf_cache_dir's errors, or
 * open's), every entry of left then true, but for -ENOENT (no such
 * directory, so no such file) (treecache.c). */
int lf_cache_forget(const char *config_dir, const char *const *names, size_t n, bool *left);

/* Removes the least recently used cache files (tree-, list-, dev- and pol-)
 * of the cache directory dir beyond the 128 kept, after a new one was
 * made. Best effort (treecache.c). */
void lf_cache_prune(const char *dir);

/* Removes, from the cache directory dir, the temporary files of writes
 * that did not finish (NAME.XXXXXX of a cache file, a minute old). Best
 * effort. */
void lf_cache_sweep(const char *dir);

/* The names in one directory, listed once, so that many paths below it
 * whose first component is not there are answered "no such file" without
 * a look each (discovery asks for ~150 places in the home at every
 * launch, most of them missing). Only that absence is answered: a path
 * whose first component is listed is looked at as before, links
 * included. The listing is what the directory held when it was taken,
 * as each look would have been; one that cannot be taken whole (or with
 * more than LF_DIRNAMES_MAX names) answers nothing. A zeroed value is
 * empty; free with lf_dirnames_fini. */
#define LF_DIRNAMES_MAX 65536
struct lf_dirname {
	char *name;	    /* owned */
	unsigned char type; /* DT_*, as the listing gave it */
};
struct lf_dirnames {
	char *dir;	      /* the directory as given, owned */
	struct lf_dirname *v; /* its names, sorted by name */
	size_t n;
	int state; /* 0 not listed yet, 1 listed, -1 not usable */
};

/* Whether path is below dir (absolute, as given; listed on the first
 * call, one directory per value) through a first component dir does not
 * hold. false when that cannot be said. */
bool lf_dirnames_absent(struct lf_dirnames *d, const char *dir, const char *path);
void lf_dirnames_fini(struct lf_dirnames *d);

/* Undoes /proc/self/mountinfo's escapes (\ooo, for blanks and
 * backslashes) of one field, in place. */
void lf_mountinfo_unescape(char *s);

/*
 * The directory walker. Every scan of a tree (hard links, device nodes,
 * the persistence snapshot, the /etc listing, removing the run directory)
 * walks with it:
 *
 * - directory descriptors only: each directory is opened with openat(2)
 *   relative to its parent, O_DIRECTORY | O_NOFOLLOW, so a symbolic link
 *   is never followed and a name is never resolved twice;
 * - no depth cut-off and no PATH_MAX cut-off: paths are built on the heap,
 *   and at most LF_WALK_OPEN_MAX directories are held open; a deeper
 *   ancestor is closed and opened again through ".." from its child when
 *   the walk comes back to it, checked against its device and inode
 *   (read from its descriptor just before that descriptor is closed; a
 *   directory whose identity cannot be read is not reopened: the walk is
 *   incomplete);
 * - a budget (struct lf_walk_budget): entries visited and wall time;
 * - whatever it could not look at (the budget ran out, a directory it
 *   could not open or read, the tree changed under it) makes the walk
 *   incomplete, with the reason and the place, and never silently smaller.
 *   A name that vanished while the walk ran is not a failure: it is gone.
 *
 * Memory: the names of the directories on the current path, each read
 * whole before its first entry is visited.
 */
#define LF_WALK_OPEN_MAX 32

/* How far a walk may go. Zero fields take the defaults: max_entries
 * LANDFENCE_SCAN_MAX_ENTRIES from the environment when set (decimal
 * digits, > 0; any other value makes every walk incomplete at once, with
 * the reason), else LF_WALK_MAX_ENTRIES. */
struct lf_walk_budget {
	size_t max_entries;  /* entries visited, all roots of one scan together */
	unsigned max_millis; /* wall time since lf_walk_begin */
};

#define LF_WALK_MAX_ENTRIES 200000u
/* The entry budget bounds a walk's size; the time only stops a walk on a
 * file system that answers, but so slowly that the launch would seem to
 * hang. It is no bound on size: the first walk after a boot reads every
 * directory from the disk. A launch with a 125,000-entry toolchain on
 * PATH (pyenv's) took 2.0-3.6 s here from a cold cache (0.3 s warm), and
 * with a bound of 3 s a fresh CI machine refused its first three such
 * launches, which the next ones, from the page cache, allowed. */
#define LF_WALK_MAX_MILLIS 300000u

/* The entry budget of a walk that sets none: LANDFENCE_SCAN_MAX_ENTRIES
 * when set (decimal digits, > 0), else LF_WALK_MAX_ENTRIES. Returns 0, or
 * -EINVAL (the value is malformed: a walk begun so is incomplete). */
int lf_walk_budget_entries(size_t *out);
/* For walks that must finish whatever the size (removing the run
 * directory): no budget at all. */
#define LF_WALK_UNLIMITED ((size_t)-1)

/* One directory entry. */
struct lf_walk_entry {
	int dirfd;	    /* the directory holding it, for the *at() calls */
	const char *name;   /* its name in dirfd */
	const char *path;   /* root "/" ... "/" name: valid during the call */
	size_t path_len;    /* strlen(path), which may exceed PATH_MAX */
	unsigned char type; /* DT_* from the directory (DT_UNKNOWN resolved by lstat) */
	ino_t ino;	    /* the inode number the directory gives */
	size_t depth;	    /* 1 for the root's own entries */
};

/* What a visitor answers: go on (and into a directory), do not descend
 * into this directory, or end the walk (complete: the visitor has what it
 * needs). A negative errno ends the walk and is returned by lf_walk. */
enum {
	LF_WALK_NEXT = 0,
	LF_WALK_SKIP = 1,
	LF_WALK_STOP = 2,
};
typedef int (*lf_walk_fn)(void *ctx, const struct lf_walk_entry *e);

struct lf_walk {
	lf_walk_fn visit; /* each entry, a directory before what it holds */
	lf_walk_fn leave; /* each directory after what it holds (may be NULL) */
	void *ctx;
	struct lf_walk_budget budget;
	/* Set by lf_walk_begin, carried across the roots of one scan. */
	size_t entries;
	long long start_ns;
	bool stopped;	 /* a visitor said LF_WALK_STOP */
	bool exhausted;	 /* the budget is spent */
	bool incomplete; /* something was not looked at */
	char *reason;	 /* why, naming the place (malloc'ed), NULL when complete */
};

/* Starts a scan: the budget's clock runs from here. */
void lf_walk_begin(struct lf_walk *w);

/* Walks below root (absolute). A root that is not a directory is visited
 * itself (depth 0, dirfd AT_FDCWD, name == path); a root that is a
 * symbolic link or does not exist is nothing to walk. Returns 0 (see
 * w->incomplete), or the negative errno a visitor returned, or -ENOMEM.
 * Once the budget is spent or a visitor stopped, further calls return 0
 * at once. */
int lf_walk_run(struct lf_walk *w, const char *root);

/* Frees the reason. */
void lf_walk_end(struct lf_walk *w);

/* Grants found on the host rather than written anywhere (discover.c;
 * doc/toolchains.md): the places of the toolchains in use (the table of
 * core/toolchains.h, unless the policy's "toolchains" switches them off),
 * the package tree the command resolves into (an npm node_modules, a
 * Python virtual environment and its base installation, a cargo install
 * root), landfence's own executable and library. Each entry says what led
 * to it; none is "/", holds the home directory or covers a credential
 * file, and none that is writable covers a persistence path of the home
 * (each refusal is a note). A missing cache of a toolchain in use, whose
 * parent exists, is an entry with LF_CAND_MAKE_DIR. get looks variables
 * up (PATH, the toolchains'). Returns 0 and *out (free with
 * lf_discovery_fini), -EINVAL, -ENOMEM. */
struct lf_host;
struct lf_effective;
struct lf_discovered;
struct lf_discovery {
	struct lf_discovered *v;
	size_t n, cap;
	struct lf_strv strings; /* what the entries point at */
	struct lf_strv notes;
};
typedef const char *(*lf_discover_getenv)(void *ctx, const char *name);
int lf_discover(const struct lf_effective *e, const struct lf_host *host, lf_discover_getenv get,
		void *ctx, struct lf_discovery *out);
void lf_discovery_fini(struct lf_discovery *d);

/* Starts fn(arg) on a second thread that blocks every signal, has a
 * stack of stack bytes, and may run on any processor this process may but
 * the one the caller is on (a scheduler that packs a process's threads
 * onto one processor, as virtual machines' do to spare the host, would
 * otherwise run the two one after the other); the caller's own affinity
 * is not touched. "This process may" is what its first thread may: a
 * thread set aside may set another aside, on the processor it left. For
 * work shared out between the two, which the caller does too and then
 * joins (pthread_join). Returns 0, or a positive error number: EAGAIN
 * when this process may run on one processor only, else pthread_create's
 * (treecache.c). */
int lf_thread_aside(pthread_t *t, size_t stack, void *(*fn)(void *), void *arg);

/* The I/O step of the sandbox value (core/sandbox.h): fills the facts of
 * in: each fence's canonical form (lf_path_canon_lenient) and link count,
 * each candidate's realpath, type and errno, the listing of a directory
 * granted entry by entry (/etc: its entries and those of the split
 * directories, each link resolved), the command's realpath and its "#!"
 * interpreter. Returns 0 or -ENOMEM; a path that cannot be resolved is a
 * fact (its errno), not an error. */
struct lf_sandbox_input;
int lf_facts_gather(struct lf_sandbox_input *in);

#endif /* LF_FS_FS_H */
