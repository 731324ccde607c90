/* SPDX-License-Identifier: MIT */
#include <unistd.h>

#include "landlock/syscall.h"

int lf_sys_landlock_create_ruleset(const struct lf_ruleset_attr *attr, size_t size, uint32_t flags)
{
	return (int)syscall(__NR_landlock_create_ruleset, attr, size, flags);
}

int lf_sys_landlock_add_rule(int ruleset_fd, int rule_type, const void *rule_attr, uint32_t flags)
{
	return (int)syscall(__NR_landlock_add_rule, ruleset_fd, rule_type, rule_attr, flags);
}

/* Called in the launcher's child, which shares the caller's memory: never
 * instrumented (src/launch/launch.c). */
__attribute__((no_sanitize("address", "undefined"))) int
lf_sys_landlock_restrict_self(int ruleset_fd, uint32_t flags)
{
	return (int)syscall(__NR_landlock_restrict_self, ruleset_fd, flags);
}
