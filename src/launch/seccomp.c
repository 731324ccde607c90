/* SPDX-License-Identifier: MIT */
/*
 * The seccomp filter against terminal injection: TIOCSTI pushes bytes into
 * a terminal's input queue (the shell that started the agent then runs
 * them, outside the sandbox), TIOCLINUX can do the same on a virtual
 * console through selection pasting. Landlock's ioctl-dev right cannot
 * tell one terminal ioctl from another, so seccomp refuses these two.
 */
#include <errno.h>
#include <seccomp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "launch/launch.h"

#ifndef TIOCLINUX
#define TIOCLINUX 0x541C
#endif

/* The request argument of ioctl is an unsigned int to the kernel; a
 * filter comparing all 64 bits could be bypassed by setting high bits
 * the kernel then drops. Compare the low 32 bits only. */
#define REQ_MASK 0xffffffffULL

static int add_rules(scmp_filter_ctx ctx)
{
	static const unsigned long reqs[] = { TIOCSTI, TIOCLINUX };
	int r;

	for (size_t i = 0; i < sizeof(reqs) / sizeof(reqs[0]); i++) {
		r = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(ioctl), 1,
				     SCMP_A1(SCMP_CMP_MASKED_EQ, REQ_MASK, (uint64_t)reqs[i]));
		if (r < 0)
			return r;
	}
	return 0;
}

int lf_seccomp_build(struct sock_fprog *out)
{
	scmp_filter_ctx ctx;
	struct stat st;
	void *buf = NULL;
	int fd = -1, r;

	if (!out)
		return -EINVAL;
	ctx = seccomp_init(SCMP_ACT_ALLOW);
	if (!ctx)
		return -ENOMEM;
		/* 32-bit programs on a 64-bit kernel enter through another syscall
	 * table; cover them rather than let the bad-arch action kill them. */
#if defined(__x86_64__)
	r = seccomp_arch_add(ctx, SCMP_ARCH_X86);
	if (r < 0 && r != -EEXIST)
		goto out;
	r = seccomp_arch_add(ctx, SCMP_ARCH_X32);
	if (r < 0 && r != -EEXIST)
		goto out;
#elif defined(__aarch64__)
	r = seccomp_arch_add(ctx, SCMP_ARCH_ARM);
	if (r < 0 && r != -EEXIST)
		goto out;
#endif
	/* The launcher sets no-new-privs itself, before the filter. */
	r = seccomp_attr_set(ctx, SCMP_FLTATR_CTL_NNP, 0);
	if (r < 0)
		goto out;
	if ((r = add_rules(ctx)) < 0)
		goto out;

	fd = memfd_create("landfence-seccomp", MFD_CLOEXEC);
	if (fd < 0) {
		r = -errno;
		goto out;
	}
	if ((r = seccomp_export_bpf(ctx, fd)) < 0)
		goto out;
	if (fstat(fd, &st) < 0) {
		r = -errno;
		goto out;
	}
	if (st.st_size <= 0 || st.st_size % sizeof(struct sock_filter) ||
	    st.st_size / sizeof(struct sock_filter) > 0xffff) {
		r = -EPROTO;
		goto out;
	}
	buf = malloc((size_t)st.st_size);
	if (!buf) {
		r = -ENOMEM;
		goto out;
	}
	for (size_t got = 0; got < (size_t)st.st_size;) {
		ssize_t n = pread(fd, (char *)buf + got, (size_t)st.st_size - got, (off_t)got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			r = n < 0 ? -errno : -EPROTO;
			goto out;
		}
		got += (size_t)n;
	}
	out->len = (unsigned short)(st.st_size / sizeof(struct sock_filter));
	out->filter = buf;
	buf = NULL;
	r = 0;
out:
	free(buf);
	if (fd >= 0)
		close(fd);
	seccomp_release(ctx);
	return r;
}

void lf_seccomp_free(struct sock_fprog *prog)
{
	if (!prog)
		return;
	free(prog->filter);
	prog->filter = NULL;
	prog->len = 0;
}
