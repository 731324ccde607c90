/* SPDX-License-Identifier: MIT */
/*
 * The seccomp filter of the launcher: TIOCSTI and TIOCLINUX (terminal
 * injection), SysV IPC, set-user-ID / set-group-ID modes, the write bit
 * for others in chmod, and extended attributes are refused (the rules and
 * why: src/launch/seccomp-gen.c, doc/launch.md).
 *
 * The rules never depend on the running kernel, so the BPF program is
 * compiled by libseccomp once, at build time, by seccomp-gen.c; here it is
 * only copied out. Compiling it at every launch (and linking libseccomp,
 * whose relocations the dynamic loader processed at every start) was
 * about a third of landfence's own launch time.
 */
#include <errno.h>
#include <linux/filter.h>
#include <stdlib.h>
#include <string.h>

#include "launch/launch.h"
#include "launch/seccomp-bpf.h"

int lf_seccomp_build(struct sock_fprog *out, bool no_userns)
{
	const struct sock_filter *prog =
		no_userns ? lf_seccomp_program_no_userns : lf_seccomp_program;
	size_t size = no_userns ? sizeof(lf_seccomp_program_no_userns) : sizeof(lf_seccomp_program);
	size_t n = size / sizeof(prog[0]);
	struct sock_filter *buf;

	if (!out)
		return -EINVAL;
	buf = malloc(size);
	if (!buf)
		return -ENOMEM;
	memcpy(buf, prog, size);
	out->len = (unsigned short)n;
	out->filter = buf;
	return 0;
}

void lf_seccomp_free(struct sock_fprog *prog)
{
	if (!prog)
		return;
	free(prog->filter);
	prog->filter = NULL;
	prog->len = 0;
}
