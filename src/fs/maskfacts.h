/* SPDX-License-Identifier: MIT */
/*
 * The facts the masks need (maskfacts.c), part of the I/O step of the
 * sandbox value. Internal: not installed.
 */
#ifndef LF_FS_MASKFACTS_H
#define LF_FS_MASKFACTS_H

#include <stdbool.h>

struct lf_sandbox_input;
struct lf_strv;

/* Fills, in in: each fence's type at launch, its other mount paths and,
 * for a read fence at or above a read grant whose glob has a tail, its
 * matches (with a mount namespace); the git directories of the project
 * and the place and type of every protection (and their other mount
 * paths); with a mount namespace and /etc granted, the entries of /etc
 * others cannot read. *notice is a note for the user (malloc'ed) or NULL.
 * Returns 0 or -ENOMEM; what cannot be looked at is a fact, not an
 * error. */
int lf_facts_masks(struct lf_sandbox_input *in, char **notice);

/* The git directories of the project at root (canonical absolute): its
 * own, the one its .git file names, each one's common directory,
 * submodules' below modules/ and linked worktrees' below worktrees/,
 * and, with walk_tree, every nested repository's (from the cache of
 * directory listings below config_dir when it can answer, else a walk;
 * ahead: that search begun earlier, or NULL: searched now).
 * Appends each directory once (realpath) to dirs and each ".git" file
 * found to dotgit_files. *err, when NULL, gets a message (malloc'ed) for
 * a walk that could not finish. Returns 0 or -ENOMEM; what cannot be
 * looked at is left out. */
struct lf_search_ahead;
int lf_gitdirs_find(const char *root, const char *config_dir, bool walk_tree,
		    struct lf_search_ahead *ahead, struct lf_strv *dirs,
		    struct lf_strv *dotgit_files, char **err);

#endif /* LF_FS_MASKFACTS_H */
