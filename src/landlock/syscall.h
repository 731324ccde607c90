/* SPDX-License-Identifier: MIT */
/*
 * Raw Landlock system calls (libc has no wrappers). Each returns what the
 * system call returns: a descriptor or 0, or -1 with errno set. Internal to
 * src/landlock.
 */
#ifndef LF_LANDLOCK_SYSCALL_H
#define LF_LANDLOCK_SYSCALL_H

#include <stddef.h>
#include <stdint.h>

#include "landlock/compat.h"

int lf_sys_landlock_create_ruleset(const struct lf_ruleset_attr *attr, size_t size, uint32_t flags);
int lf_sys_landlock_add_rule(int ruleset_fd, int rule_type, const void *rule_attr, uint32_t flags);
int lf_sys_landlock_restrict_self(int ruleset_fd, uint32_t flags);

#endif /* LF_LANDLOCK_SYSCALL_H */
