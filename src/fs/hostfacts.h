/* SPDX-License-Identifier: MIT */
/*
 * Host facts that depend on no policy: the entries of /etc others cannot
 * read (what the mount namespace hides, maskfacts.c) and the home
 * directories of the password database (the safe-roots check, project.c).
 * Internal: not installed.
 */
#ifndef LF_FS_HOSTFACTS_H
#define LF_FS_HOSTFACTS_H

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
 * 50,000 entries and the walker's time) and fills *out. With config_dir
 * (landfence's configuration directory; NULL: none), each entry is still
 * looked at (lstat), but a directory unchanged since a launch listed it
 * (device, inode, change and modification times) is not read again: its
 * listing comes from the cache kept there (lf_treecache_list); anything
 * the cache cannot answer is walked. Returns 0 (see out->err) or -ENOMEM
 * (out is then empty). maskfacts.c. */
int lf_etc_scan(const char *root, const char *config_dir, struct lf_etc_scan *out);
/* For /etc seen as others see it: the entries of lf_etc_hidden that exist
 * and that others could reach and read (the others' mode bits of the
 * entry and of every directory above it up to /etc), each looked at
 * once, a pattern's directory listed once. Returns 0 (out->err set when
 * an entry could not be looked at for a reason other than ENOENT or
 * ENOTDIR: then /etc is not granted) or -ENOMEM (out is then empty).
 * maskfacts.c. */
int lf_etc_builtin_scan(struct lf_etc_scan *out);
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

/* Every entry of the password database whose home is absolute and not
 * "/", each home resolved with the realpath memo (fs.h). /etc/passwd is
 * read directly when /etc/nsswitch.conf's one passwd line is "files" or
 * "files systemd", systemd's module has no other source here (none of
 * userdb's sockets and drop-in directories exists, /etc/passwd holds
 * uid 0) and every line is plain (no "+"/"-", seven fields); otherwise
 * every NSS source is asked through `getent passwd` (/usr/bin or /bin),
 * run with an empty environment but PATH and LC_ALL=C, its output read
 * from a pipe: the sources' modules never load into this process (nor
 * into a static tool, which cannot load them safely). The child is
 * waited for by its pid: a caller whose SIGCHLD is ignored gets -EIO.
 * Returns 0; -ENOMEM; -EMFILE; -EIO when getent is missing, cannot be
 * run, is killed, exits other than 0 or 3 (3: a source that cannot list
 * its users) or prints a line that is not a password entry. Out is empty
 * on error. */
int lf_homes_read(struct lf_homes *out);
void lf_homes_fini(struct lf_homes *h);

#endif /* LF_FS_HOSTFACTS_H */
