/* SPDX-License-Identifier: MIT */
/*
 * The nested-repository search from a cache of directory listings
 * (src/fs/treecache.c). Internal to src/fs.
 */
#ifndef LF_FS_TREECACHE_H
#define LF_FS_TREECACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

/* A ".git" entry below the root: its path, its DT_* type, its depth (1
 * for the root's own entries), as the walk's entry gives them. */
struct lf_dotgit {
	char *path;
	unsigned char type;
	size_t depth;
};

/* Every ".git" entry below root (absolute, canonical; not "/"), without
 * descending into one, in the walk's order, using and refreshing the cache
 * below config_dir (landfence's configuration directory; NULL: none).
 * Returns 1 with *out (free with lf_dotgits_free) when the answer is
 * whole; 0 when the caller must walk the tree itself (no cache place, a
 * directory that cannot be read, the budget spent: the walk then says
 * what it could not see); -ENOMEM. */
int lf_treecache_dotgits(const char *config_dir, const char *root, struct lf_dotgit **out,
			 size_t *nout);
void lf_dotgits_free(struct lf_dotgit *v, size_t n);

/* lf_treecache_dotgits begun ahead, on a thread set aside
 * (lf_thread_aside), so that the search runs beside the work before
 * its answer is needed (lf_sandbox_new starts it before discovery and
 * the value's sources). Begun only when root's cache already holds about
 * 1,024 directories or more; else, or when the thread cannot be made,
 * NULL, and lf_treecache_dotgits_join searches then. The answer is what
 * the tree held when the thread looked, as any search's is when it
 * looks. Free with lf_treecache_ahead_free. */
struct lf_search_ahead;
struct lf_search_ahead *lf_treecache_dotgits_ahead(const char *config_dir, const char *root);

/* The answer of a (NULL: none begun), waited for, as lf_treecache_dotgits
 * returns it, when a was begun for the same config_dir and root and its
 * answer was not taken yet; else lf_treecache_dotgits(config_dir, root)
 * searched now. */
int lf_treecache_dotgits_join(struct lf_search_ahead *a, const char *config_dir, const char *root,
			      struct lf_dotgit **out, size_t *nout);

/* Stops a's search if it still runs (at its next directory), waits for
 * its thread, and frees what it found and a. NULL is nothing. */
void lf_treecache_ahead_free(struct lf_search_ahead *a);

/* A device node below a root: its path, number and kind. */
struct lf_tree_devnode {
	char *path;
	dev_t rdev;
	bool block;
};

/* Every character or block device node below root (absolute, canonical;
 * not "/"), ".git" directories included, in the walk's order, from a
 * cache of the same kind kept below config_dir (dev-HASH beside the
 * .git search's tree-HASH): what the device-node scan would find
 * (gate/scan.c). Returns as lf_treecache_dotgits: 1 whole, 0 walk, or
 * -ENOMEM. Free *out with lf_tree_devnodes_free. */
int lf_treecache_devnodes(const char *config_dir, const char *root, struct lf_tree_devnode **out,
			  size_t *nout);
void lf_tree_devnodes_free(struct lf_tree_devnode *v, size_t n);

/* The listing search's visitor: path (absolute) is an entry below the
 * root, st its lstat; target is NULL, or, for a symbolic link (with
 * LF_LIST_LINKS only), what it points to. Returns LF_WALK_NEXT (descend,
 * for a directory), LF_WALK_SKIP (do not), LF_WALK_STOP (the search
 * gives up: the caller walks), or -ENOMEM. */
typedef int (*lf_treecache_visit_fn)(void *ctx, const char *path, const struct stat *st,
				     const char *target);

/* lf_treecache_list's flags: symbolic links are visited too, each with
 * its target, which the cache keeps with the link's inode (a link's
 * target never changes). A cache of its own (links-HASH). */
#define LF_LIST_LINKS 1u

/* Every entry below root (absolute, canonical; not "/") but symbolic
 * links (but with LF_LIST_LINKS), given to visit with its lstat, depth
 * first in directory order, where each directory's listing comes from a
 * cache of listings kept below config_dir (list-HASH beside tree-HASH),
 * checked against the directory's device, inode and times as the .git
 * search's are: an entry is always looked at, its listing is not always
 * read. At most max_entries entries (then, as for any directory that
 * cannot be read or entry that cannot be looked at, the caller walks).
 * Returns 1 when every entry was visited; 0 when the caller must walk the
 * tree itself, having dropped what visit gathered; -ENOMEM. */
int lf_treecache_list(const char *config_dir, const char *root, size_t max_entries, unsigned flags,
		      lf_treecache_visit_fn visit, void *ctx);

#endif /* LF_FS_TREECACHE_H */
