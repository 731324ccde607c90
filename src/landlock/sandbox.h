/* SPDX-License-Identifier: MIT */
/*
 * The Landlock adapter (src/landlock): it probes the ABI, turns a sandbox
 * value (core/sandbox.h) into a ruleset, and restricts the calling
 * process. It reads the value and nothing else: no policy layer, no
 * plan. Internal: not installed.
 */
#ifndef LF_LANDLOCK_SANDBOX_H
#define LF_LANDLOCK_SANDBOX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/sandbox.h"
#include "landfence.h"

/* Creates the Landlock ruleset (O_CLOEXEC) holding every final rule of
 * sb, each opened O_PATH without following a symbolic link anywhere on
 * its path and judged by what it is now (a rule whose path is gone, became
 * a symbolic link or goes through one is left out: losing an allow is
 * safe; the paths are canonical, so such a link is new). Returns 0 and
 * *fd (-1 when the status is Unsupported), or a negative errno (diag
 * filled). Call before fork. */
int lf_sandbox_ruleset_fd(const struct lf_sandbox *sb, int *fd, struct lf_diag *diag);

/* In the child, after no-new-privs: landlock_restrict_self(fd, 0). Raw
 * system calls only, safe in a vfork-style child, never instrumented by a
 * sanitizer. Returns 0 or a negative errno. */
int lf_landlock_restrict(int ruleset_fd);

#endif /* LF_LANDLOCK_SANDBOX_H */
