/* SPDX-License-Identifier: MIT */
/*
 * Whether a git directory could have appeared in the project during a
 * run, from a fanotify group (dirwatch.c). Internal: not installed.
 */
#ifndef LF_FS_DIRWATCH_H
#define LF_FS_DIRWATCH_H

#include <stdbool.h>

struct lf_dirwatch;

/* Starts watching the file systems of the project at root (canonical
 * absolute) and of every mount below it, for entries made or moved in.
 * Start it before the search for git directories that plans the run.
 * Returns 1 and *out (free with lf_dirwatch_free), 0 and *out NULL when
 * no watch can be trusted here (not root, a file system not local to
 * this kernel, fanotify refused: the caller searches as before), or
 * -ENOMEM. */
int lf_dirwatch_start(const char *root, struct lf_dirwatch **out);

/* True when, since lf_dirwatch_start, no ".git" entry was made or moved
 * in, no directory was made or moved in, no event was lost, and the
 * mounts at, above and below root are the same ones: then no git
 * directory can have appeared in the project. False on any doubt. Reads
 * (consumes) the events: ask once. */
bool lf_dirwatch_quiet(const struct lf_dirwatch *w);

void lf_dirwatch_free(struct lf_dirwatch *w);

#endif /* LF_FS_DIRWATCH_H */
