/* SPDX-License-Identifier: MIT */
/*
 * The seccomp filter against terminal injection: TIOCSTI pushes bytes into
 * a terminal's input queue (the shell that started the agent then runs
 * them, outside the sandbox), TIOCLINUX can do the same on a virtual
 * console through selection pasting. Landlock's ioctl-dev right cannot
 * tell one terminal ioctl from another, so seccomp refuses these two.
 * The same filter refuses what Landlock has no right for and that leaves
 * the sandbox: SysV IPC, and set-user-ID / set-group-ID modes.
 */
#include <errno.h>
#include <fcntl.h>
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

/* SysV IPC has no path and no Landlock scope: a segment, queue or
 * semaphore set made outside with the user's permissions would be
 * reachable by its id. Programs use POSIX IPC (/dev/shm, files) today. */
static int add_sysv_rules(scmp_filter_ctx ctx)
{
	static const char *const names[] = {
		"shmget", "shmat",  "shmctl", "shmdt",	    "msgget", "msgsnd", "msgrcv",
		"msgctl", "semget", "semop",  "semtimedop", "semctl", "ipc",
	};
	int r;

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		int nr = seccomp_syscall_resolve_name(names[i]);
		if (nr == __NR_SCMP_ERROR)
			continue;
		/* EACCES: what these calls return for a segment, queue or
		 * set the caller may not use. */
		r = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EACCES), nr, 0);
		if (r < 0)
			return r;
	}
	return 0;
}

/* Landlock has no right for metadata: a program may chmod any path it can
 * name. Setting the set-user-ID or set-group-ID bit (on an existing file,
 * or on a file it creates) would leave a way up for whoever runs the file
 * later, outside the sandbox, so those modes fail with EPERM. */
static int add_mode_rule(scmp_filter_ctx ctx, const char *name, unsigned mode_arg, int flags_arg,
			 uint64_t flags_mask)
{
	/* One bit per rule: "either bit set" in two masked comparisons. */
	static const uint64_t modes[] = { S_ISUID, S_ISGID };
	int nr = seccomp_syscall_resolve_name(name), r;

	if (nr == __NR_SCMP_ERROR)
		return 0;
	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		struct scmp_arg_cmp mode = {
			.arg = mode_arg,
			.op = SCMP_CMP_MASKED_EQ,
			.datum_a = modes[i],
			.datum_b = modes[i],
		};
		if (flags_arg < 0) {
			r = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), nr, 1, mode);
		} else {
			/* open's mode means something only when it creates. */
			struct scmp_arg_cmp flags = {
				.arg = (unsigned)flags_arg,
				.op = SCMP_CMP_MASKED_EQ,
				.datum_a = flags_mask,
				.datum_b = flags_mask,
			};
			r = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), nr, 2, flags, mode);
		}
		if (r < 0)
			return r;
	}
	return 0;
}

static int add_sugid_rules(scmp_filter_ctx ctx)
{
	int r = 0;

	if (!r)
		r = add_mode_rule(ctx, "chmod", 1, -1, 0);
	if (!r)
		r = add_mode_rule(ctx, "fchmod", 1, -1, 0);
	if (!r)
		r = add_mode_rule(ctx, "fchmodat", 2, -1, 0);
	if (!r)
		r = add_mode_rule(ctx, "fchmodat2", 2, -1, 0);
	if (!r)
		r = add_mode_rule(ctx, "creat", 1, -1, 0);
	if (!r)
		r = add_mode_rule(ctx, "mknod", 1, -1, 0);
	if (!r)
		r = add_mode_rule(ctx, "mknodat", 2, -1, 0);
	if (!r)
		r = add_mode_rule(ctx, "open", 2, 1, O_CREAT);
	if (!r)
		r = add_mode_rule(ctx, "open", 2, 1, __O_TMPFILE);
	if (!r)
		r = add_mode_rule(ctx, "openat", 3, 2, O_CREAT);
	if (!r)
		r = add_mode_rule(ctx, "openat", 3, 2, __O_TMPFILE);
	if (r)
		return r;
	/* openat2 passes its mode in a structure a filter cannot read: say
	 * it does not exist, and callers fall back to openat (as they do on
	 * kernels before 5.6). */
	int nr = seccomp_syscall_resolve_name("openat2");
	if (nr != __NR_SCMP_ERROR)
		r = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), nr, 0);
	return r;
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
	/* A binary tree over the system call numbers instead of a chain:
	 * shorter paths, and a cheaper attach (the kernel runs the filter
	 * for every system call number to build its cache). */
	(void)seccomp_attr_set(ctx, SCMP_FLTATR_CTL_OPTIMIZE, 2);
	if ((r = add_rules(ctx)) < 0 || (r = add_sysv_rules(ctx)) < 0 ||
	    (r = add_sugid_rules(ctx)) < 0)
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
