/* SPDX-License-Identifier: MIT */
/*
 * What AppArmor says about unprivileged user namespaces on this machine,
 * for `landfence doctor`. Ubuntu 23.10 and later refuse them to processes
 * whose AppArmor profile lacks the userns rule, when the sysctl
 * kernel.apparmor_restrict_unprivileged_userns is 1; landfence ships a
 * profile with that rule (dist/apparmor/landfence.in).
 */
#ifndef LF_CLI_APPARMOR_H
#define LF_CLI_APPARMOR_H

#include <stdbool.h>
#include <stddef.h>

#define LF_APPARMOR_USERNS_SYSCTL "/proc/sys/kernel/apparmor_restrict_unprivileged_userns"
#define LF_APPARMOR_LABEL "/proc/self/attr/apparmor/current"

struct lf_apparmor_userns {
	int restrict_userns; /* the sysctl's value; -1: the kernel has no such sysctl */
	char label[256];     /* this process's AppArmor label, control characters
				replaced by '?'; "" when unknown */
};

/* Reads the sysctl at sysctl_path and the label at label_path (the two
 * defines above, or test files) into *out. A missing sysctl is
 * restrict_userns -1, an unreadable label "". Returns 0, or -EINVAL when
 * the sysctl holds something other than a number. */
int lf_apparmor_userns_read(const char *sysctl_path, const char *label_path,
			    struct lf_apparmor_userns *out);

/* One line for doctor: whether unprivileged user namespaces are
 * restricted, and what that means for this landfence (privileged: running
 * with the rights that bypass the restriction, i.e. as root). Writes at
 * most size bytes into buf and returns buf. */
const char *lf_apparmor_userns_text(const struct lf_apparmor_userns *a, bool privileged, char *buf,
				    size_t size);

#endif /* LF_CLI_APPARMOR_H */
