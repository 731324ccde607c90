/* SPDX-License-Identifier: MIT */
/*
 * From the sandbox value to a Landlock ruleset (SPEC §3). The value holds
 * every decision; this only opens each rule's path and adds it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/path.h"
#include "landlock/sandbox.h"
#include "landlock/syscall.h"

/* A rule adds nothing when a directory rule above it already carries all
 * its rights (Landlock unions the rules of every ancestor). */
static bool rule_redundant(const struct lf_sandbox *sb, size_t i)
{
	const struct lf_sandbox_rule *fr = &sb->rules[i];

	for (size_t j = 0; j < sb->nrules; j++) {
		const struct lf_sandbox_rule *a = &sb->rules[j];

		if (j == i || !sb->rule_dir[j] || (a->landlock & fr->landlock) != fr->landlock)
			continue;
		if (sb->rule_key[j].len < sb->rule_key[i].len &&
		    lf_path_covers_n(a->path, sb->rule_key[j].len, fr->path, sb->rule_key[i].len))
			return true;
	}
	return false;
}

/* Adds rule i; returns 0 (added or rightly left out) or a negative errno. */
static int rule_add(const struct lf_sandbox *sb, size_t i, int rfd, struct lf_diag *diag)
{
	const struct lf_sandbox_rule *fr = &sb->rules[i];
	struct landlock_path_beneath_attr pb;
	struct stat st;
	uint64_t rights = fr->landlock;
	int pfd, r = 0;

	if (!rights || rule_redundant(sb, i))
		return 0;
	pfd = open(fr->path, O_PATH | O_CLOEXEC | O_NOFOLLOW);
	if (pfd < 0) {
		int e = errno;

		/* Gone since the value was compiled: losing an allow is safe. */
		if (e == ENOENT)
			return 0;
		lf_diag_set(diag, "", 0, 0, "%s: %s", fr->path, strerror(e));
		return -e;
	}
	/* Replaced by a symlink since: left out. What the path is now
	 * decides its rights, not what it was. */
	if (fstat(pfd, &st) == 0 && !S_ISLNK(st.st_mode)) {
		if (!S_ISDIR(st.st_mode))
			rights &= LF_LANDLOCK_FILE_RIGHTS;
		pb.allowed_access = rights;
		pb.parent_fd = pfd;
		if (rights &&
		    lf_sys_landlock_add_rule(rfd, LANDLOCK_RULE_PATH_BENEATH, &pb, 0) < 0) {
			r = -errno;
			lf_diag_set(diag, "", 0, 0, "landlock_add_rule %s: %s", fr->path,
				    strerror(-r));
		}
	}
	close(pfd);
	return r;
}

int lf_sandbox_ruleset_fd(const struct lf_sandbox *sb, int *fd, struct lf_diag *diag)
{
	struct lf_ruleset_attr attr = { 0 };
	size_t size;
	int rfd;

	if (!sb || !fd) {
		lf_diag_set(diag, "", 0, 0, "sandbox: no sandbox");
		return -EINVAL;
	}
	if (sb->abi == 0) {
		*fd = -1;
		return 0;
	}
	attr.handled_access_fs = sb->handled;
	/* Open unless a policy restricts it (doc/landlock.md, "Network"). */
	attr.handled_access_net = sb->handled_net;
	attr.scoped = sb->scoped;
	/* Pass only the fields the ABI knows, as an older kernel expects. */
	size = sb->abi < 4 ? sizeof(uint64_t) : sb->abi < 6 ? 2 * sizeof(uint64_t) : sizeof(attr);
	rfd = lf_sys_landlock_create_ruleset(&attr, size, 0);
	if (rfd < 0) {
		int e = errno;

		lf_diag_set(diag, "", 0, 0, "landlock_create_ruleset: %s", strerror(e));
		return -e;
	}
	for (size_t i = 0; i < sb->nrules; i++) {
		int r = rule_add(sb, i, rfd, diag);

		if (r < 0) {
			close(rfd);
			return r;
		}
	}
	for (size_t i = 0; sb->handled_net && i < sb->nports; i++) {
		struct landlock_net_port_attr np = {
			.allowed_access =
				(sb->ports[i].connect ? LANDLOCK_ACCESS_NET_CONNECT_TCP : 0) |
				(sb->ports[i].bind ? LANDLOCK_ACCESS_NET_BIND_TCP : 0),
			.port = sb->ports[i].port,
		};

		if (lf_sys_landlock_add_rule(rfd, LANDLOCK_RULE_NET_PORT, &np, 0) < 0) {
			int e = errno;

			lf_diag_set(diag, "", 0, 0, "landlock_add_rule TCP port %u: %s",
				    sb->ports[i].port, strerror(e));
			close(rfd);
			return -e;
		}
	}
	*fd = rfd;
	return 0;
}
