/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/apparmor.h"

/* Reads at most size - 1 bytes of path into buf, NUL-terminated, without
 * the trailing newline. Returns 0 or a negative errno. */
static int read_small(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	ssize_t n;

	if (fd < 0)
		return -errno;
	do
		n = read(fd, buf, size - 1);
	while (n < 0 && errno == EINTR);
	int err = n < 0 ? -errno : 0;
	close(fd);
	if (err)
		return err;
	buf[n] = '\0';
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == '\0'))
		buf[--n] = '\0';
	return 0;
}

int lf_apparmor_userns_read(const char *sysctl_path, const char *label_path,
			    struct lf_apparmor_userns *out)
{
	char text[32];
	char *end;
	long v;

	out->restrict_userns = -1;
	out->label[0] = '\0';
	if (read_small(label_path, out->label, sizeof(out->label)) < 0)
		out->label[0] = '\0';
	/* The label comes from the kernel, but it is printed: no control
	 * characters reach the terminal. */
	for (char *c = out->label; *c; c++)
		if ((unsigned char)*c < 0x20 || (unsigned char)*c == 0x7f)
			*c = '?';
	if (read_small(sysctl_path, text, sizeof(text)) < 0)
		return 0; /* no such sysctl: no restriction */
	errno = 0;
	v = strtol(text, &end, 10);
	if (errno || end == text || *end || v < 0 || v > 0xffff)
		return -EINVAL;
	out->restrict_userns = (int)v;
	return 0;
}

const char *lf_apparmor_userns_text(const struct lf_apparmor_userns *a, bool privileged, char *buf,
				    size_t size)
{
	const char *l = a->label;
	size_t n = strlen("landfence");

	if (a->restrict_userns < 0) {
		snprintf(buf, size,
			 "user namespaces: not restricted by AppArmor (this kernel has no "
			 "kernel.apparmor_restrict_unprivileged_userns).");
	} else if (a->restrict_userns == 0) {
		snprintf(buf, size,
			 "user namespaces: not restricted by AppArmor "
			 "(kernel.apparmor_restrict_unprivileged_userns = 0).");
	} else if (privileged) {
		snprintf(buf, size,
			 "user namespaces: AppArmor restricts unprivileged ones "
			 "(kernel.apparmor_restrict_unprivileged_userns = %d); landfence runs as "
			 "root here, which the restriction does not cover.",
			 a->restrict_userns);
	} else if (strncmp(l, "landfence", n) == 0 && (l[n] == '\0' || l[n] == ' ')) {
		snprintf(
			buf, size,
			"user namespaces: AppArmor restricts unprivileged ones "
			"(kernel.apparmor_restrict_unprivileged_userns = %d); landfence runs under "
			"its AppArmor profile (%s), whose userns rule allows them.",
			a->restrict_userns, l);
	} else if (l[0] == '\0' || strcmp(l, "unconfined") == 0) {
		snprintf(buf, size,
			 "user namespaces: AppArmor restricts unprivileged ones "
			 "(kernel.apparmor_restrict_unprivileged_userns = %d) and this landfence "
			 "runs without an AppArmor profile, so it cannot create one. The profile "
			 "/etc/apparmor.d/landfence, shipped with landfence, allows them for "
			 "/usr/bin/landfence (landfence(1), APPARMOR).",
			 a->restrict_userns);
	} else {
		snprintf(
			buf, size,
			"user namespaces: AppArmor restricts unprivileged ones "
			"(kernel.apparmor_restrict_unprivileged_userns = %d); landfence runs under "
			"the AppArmor profile %s, whose rules decide.",
			a->restrict_userns, l);
	}
	return buf;
}
