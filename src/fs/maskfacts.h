/* SPDX-License-Identifier: MIT */
/*
 * The facts the masks need (maskfacts.c), part of the I/O step of the
 * sandbox value. Internal: not installed.
 */
#ifndef LF_FS_MASKFACTS_H
#define LF_FS_MASKFACTS_H

struct lf_sandbox_input;

/* Fills, in in: each fence's type at launch, its other mount paths and,
 * for a read fence at or above a read grant whose glob has a tail, its
 * matches (with a mount namespace); the git directories of the project
 * and the place and type of every protection (and their other mount
 * paths); with a mount namespace and /etc granted, the entries of /etc
 * others cannot read. *notice is a note for the user (malloc'ed) or NULL.
 * Returns 0 or -ENOMEM; what cannot be looked at is a fact, not an
 * error. */
int lf_facts_masks(struct lf_sandbox_input *in, char **notice);

#endif /* LF_FS_MASKFACTS_H */
