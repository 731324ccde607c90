/* SPDX-License-Identifier: MIT */
/*
 * Build-time generator of the seccomp filter (src/launch/seccomp.c loads
 * what this prints). Compiling the filter with libseccomp at every launch
 * cost about a fifth of landfence's own launch time, and linking
 * libseccomp cost the dynamic loader as much again; the rules never depend
 * on the running kernel, so they are compiled once, here, and the launcher
 * only hands the BPF program to the kernel.
 *   lf-seccomp-gen CPU_FAMILY OUTPUT.h
 * CPU_FAMILY is meson's host_machine.cpu_family(): the filter is built for
 * that machine's system call tables (and its 32-bit ABIs), which may differ
 * from the machine running this generator in a cross build.
 *
 * The filter refuses terminal injection: TIOCSTI pushes bytes into a
 * terminal's input queue (the shell that started the agent then runs
 * them, outside the sandbox), TIOCLINUX can do the same on a virtual
 * console through selection pasting. Landlock's ioctl-dev right cannot
 * tell one terminal ioctl from another, so seccomp refuses these two.
 * The same filter refuses what Landlock has no right for and that leaves
 * the sandbox: SysV IPC, and set-user-ID / set-group-ID modes.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdbool.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <seccomp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef CLONE_NEWUSER
#define CLONE_NEWUSER 0x10000000
#endif
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

/* Every call of names that this libseccomp and architecture know fails
 * with err; a name unknown here has nothing to refuse. */
static int add_errno_rules(scmp_filter_ctx ctx, const char *const *names, size_t n, int err)
{
	for (size_t i = 0; i < n; i++) {
		int nr = seccomp_syscall_resolve_name(names[i]);
		if (nr == __NR_SCMP_ERROR)
			continue;
		int r = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(err), nr, 0);
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

	/* EACCES: what these calls return for a segment, queue or set the
	 * caller may not use. */
	return add_errno_rules(ctx, names, sizeof(names) / sizeof(names[0]), EACCES);
}

/* The kernel key rings have no path and no Landlock scope either: the
 * user key ring (@u) is shared by every process of the user, so a key an
 * outside process keeps there (a Kerberos ticket, a file system key, a
 * token) could be read with keyctl(KEYCTL_READ), and keys could be left
 * there for later. ENOSYS: what a kernel built without key rings answers,
 * which programs already handle. */
static int add_keyring_rules(scmp_filter_ctx ctx)
{
	static const char *const names[] = { "add_key", "request_key", "keyctl" };

	return add_errno_rules(ctx, names, sizeof(names) / sizeof(names[0]), ENOSYS);
}

/* io_uring runs its operations inside the kernel, where this filter never
 * sees them: IORING_OP_OPENAT with O_CREAT and a set-user-ID mode made a
 * set-user-ID file that the rules on open and openat refuse (red team
 * round 2, doc/escape.md). Landlock still checks every path io_uring
 * opens, so only the filter's rules were bypassed; refusing io_uring
 * keeps them whole. ENOSYS: what a kernel without io_uring answers, and
 * libuv, Node and liburing users fall back to plain system calls. */
static int add_uring_rules(scmp_filter_ctx ctx)
{
	static const char *const names[] = { "io_uring_setup", "io_uring_enter",
					     "io_uring_register" };

	return add_errno_rules(ctx, names, sizeof(names) / sizeof(names[0]), ENOSYS);
}

/* Whether name changes the mode of a file that exists (the chmod calls). */
static bool others_write(const char *name)
{
	return !strncmp(name, "chmod", 5) || !strncmp(name, "fchmod", 6);
}

/* Landlock has no right for metadata: a program may chmod any path it can
 * name. Setting the set-user-ID or set-group-ID bit (on an existing file,
 * or on a file it creates) would leave a way up for whoever runs the file
 * later, outside the sandbox, so those modes fail with EPERM. So does
 * giving others write access by chmod (0777, o+w): a directory of the
 * user's made writable by others lets another local user swap in what a
 * later launch reads there (the user's policy, the trust store), or a
 * file the program wrote, then the program sets the mode back
 * (doc/escape.md, "Metadata"). */
static int add_mode_rule(scmp_filter_ctx ctx, const char *name, unsigned mode_arg, int flags_arg,
			 uint64_t flags_mask)
{
	/* One bit per rule: "any bit set" in masked comparisons. The write
	 * bit for others only where a mode is changed, not where a file is
	 * made (open's 0666 is the usual request, and the umask applies). */
	static const uint64_t modes[] = { S_ISUID, S_ISGID, S_IWOTH };
	size_t nmodes = sizeof(modes) / sizeof(modes[0]) - (flags_arg >= 0 || !others_write(name));
	int nr = seccomp_syscall_resolve_name(name), r;

	if (nr == __NR_SCMP_ERROR)
		return 0;
	for (size_t i = 0; i < nmodes; i++) {
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

/* An access control list gives others write access as a mode does; it is
 * an extended attribute, whose name sits in memory a filter cannot read.
 * Setting any extended attribute answers EOPNOTSUPP, what a file system
 * without them answers: cp -a and Python's copy2 go on without them.
 * setxattrat (Linux 6.13) by name where this libseccomp knows it, else
 * by number (emit_setxattrat). */
static int add_xattr_rules(scmp_filter_ctx ctx)
{
	static const char *const names[] = { "setxattr", "lsetxattr", "fsetxattr", "setxattrat" };

	return add_errno_rules(ctx, names, sizeof(names) / sizeof(names[0]), EOPNOTSUPP);
}

/* prlimit64 sets another process's limits with the same rights as a
 * signal (same user), which Landlock's scopes do not mediate: a program
 * that lowered the launcher's open-files limit kept it from listing the
 * program's processes to end them after the run, and a daemon outlived
 * the run (red team, doc/escape.md). Setting limits fails with EPERM
 * unless pid is 0 (the caller, as glibc's setrlimit asks); reading
 * them (no new limit) still works. */
static int add_prlimit_rule(scmp_filter_ctx ctx)
{
	int nr = seccomp_syscall_resolve_name("prlimit64");

	if (nr == __NR_SCMP_ERROR)
		return 0;
	return seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), nr, 2, SCMP_A0(SCMP_CMP_NE, 0),
				SCMP_A2(SCMP_CMP_NE, 0));
}

static int add_sugid_rules(scmp_filter_ctx ctx)
{
	int r = add_mode_rule(ctx, "chmod", 1, -1, 0);

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

/* In a mount namespace the program must not make a user namespace of
 * its own: it would hold every capability there, and a fresh namespace
 * is kernel attack surface the masks do not need (Landlock already
 * refuses every mount change; doc/launch.md). clone and unshare with
 * CLONE_NEWUSER fail with EPERM, as where user namespaces are turned
 * off; clone3 passes its flags in a structure a filter cannot read, so
 * it fails with ENOSYS and libc falls back to clone. flags_arg is the
 * flags argument of clone (the first, but the second on s390). */
static int add_userns_rules(scmp_filter_ctx ctx, unsigned clone_flags_arg)
{
	const struct scmp_arg_cmp newuser_clone = {
		.arg = clone_flags_arg,
		.op = SCMP_CMP_MASKED_EQ,
		.datum_a = CLONE_NEWUSER,
		.datum_b = CLONE_NEWUSER,
	};
	const struct scmp_arg_cmp newuser_unshare = {
		.arg = 0,
		.op = SCMP_CMP_MASKED_EQ,
		.datum_a = CLONE_NEWUSER,
		.datum_b = CLONE_NEWUSER,
	};
	int r, nr;

	r = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(clone), 1, newuser_clone);
	if (r == 0)
		r = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(unshare), 1,
				     newuser_unshare);
	nr = seccomp_syscall_resolve_name("clone3");
	if (r == 0 && nr != __NR_SCMP_ERROR)
		r = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), nr, 0);
	return r;
}

/* The system call tables of a meson cpu family: the native one first,
 * then the 32-bit ABIs the kernel also accepts, so that a 32-bit program
 * is filtered rather than killed by the bad-arch action. */
struct family {
	const char *name;
	uint32_t arch[3];
};

static const struct family families[] = {
	{ "x86_64", { SCMP_ARCH_X86_64, SCMP_ARCH_X86, SCMP_ARCH_X32 } },
	{ "x86", { SCMP_ARCH_X86 } },
	{ "aarch64", { SCMP_ARCH_AARCH64, SCMP_ARCH_ARM } },
	{ "arm", { SCMP_ARCH_ARM } },
#ifdef SCMP_ARCH_RISCV64
	{ "riscv64", { SCMP_ARCH_RISCV64 } },
#endif
	{ "s390x", { SCMP_ARCH_S390X } },
};

static int set_arches(scmp_filter_ctx ctx, const char *family)
{
	const struct family *f = NULL;
	int r;

	for (size_t i = 0; i < sizeof(families) / sizeof(families[0]); i++)
		if (!strcmp(families[i].name, family))
			f = &families[i];
	if (!f)
		return -EAFNOSUPPORT;
	/* seccomp_init holds the generator's own arch; the filter is for
	 * the host machine's. */
	r = seccomp_arch_remove(ctx, SCMP_ARCH_NATIVE);
	if (r < 0)
		return r;
	for (size_t i = 0; i < 3 && f->arch[i]; i++) {
		r = seccomp_arch_add(ctx, f->arch[i]);
		if (r < 0 && r != -EEXIST)
			return r;
	}
	return 0;
}

static int build(const char *family, int fd, bool no_userns)
{
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
	int r;

	if (!ctx)
		return -ENOMEM;
	if ((r = set_arches(ctx, family)) < 0)
		goto out;
	/* The launcher sets no-new-privs itself, before the filter. */
	if ((r = seccomp_attr_set(ctx, SCMP_FLTATR_CTL_NNP, 0)) < 0)
		goto out;
	/* A binary tree over the system call numbers instead of a chain:
	 * shorter paths, and a cheaper attach (the kernel runs the filter
	 * for every system call number to build its cache). */
	(void)seccomp_attr_set(ctx, SCMP_FLTATR_CTL_OPTIMIZE, 2);
	if ((r = add_rules(ctx)) < 0 || (r = add_sysv_rules(ctx)) < 0 ||
	    (r = add_keyring_rules(ctx)) < 0 || (r = add_uring_rules(ctx)) < 0 ||
	    (r = add_sugid_rules(ctx)) < 0 || (r = add_xattr_rules(ctx)) < 0 ||
	    (r = add_prlimit_rule(ctx)) < 0)
		goto out;
	if (no_userns && (r = add_userns_rules(ctx, strncmp(family, "s390", 4) ? 0 : 1)) < 0)
		goto out;
	r = seccomp_export_bpf(ctx, fd);
out:
	seccomp_release(ctx);
	return r;
}

/* setxattrat (Linux 6.13) has the number 463 on every family above (a
 * number shared by all of them since Linux 5.1; x32 adds its bit). */
#define SETXATTRAT_NR 463u
#define X32_SYSCALL_BIT 0x40000000u

/* Where this libseccomp does not know setxattrat (Debian 12's 2.5.4 does
 * not, and it takes no raw number for the 32-bit tables), the program
 * starts with instructions of its own that refuse it by number, as
 * add_xattr_rules refuses the others: 463 is setxattrat on every
 * supported family, and on another the arch check that follows would
 * refuse the call anyway. Jumps are relative, so what follows is
 * unchanged. Returns the instructions written. */
static size_t emit_setxattrat(FILE *out)
{
	const struct sock_filter pre[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SETXATTRAT_NR, 2, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SETXATTRAT_NR | X32_SYSCALL_BIT, 1, 0),
		BPF_JUMP(BPF_JMP | BPF_JA | BPF_K, 1, 0, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EOPNOTSUPP & SECCOMP_RET_DATA)),
	};

	if (seccomp_syscall_resolve_name("setxattrat") != __NR_SCMP_ERROR)
		return 0;
	for (size_t i = 0; i < sizeof(pre) / sizeof(pre[0]); i++)
		fprintf(out, "\t{ 0x%04x, %u, %u, 0x%08xU },\n", pre[i].code, pre[i].jt, pre[i].jf,
			pre[i].k);
	return sizeof(pre) / sizeof(pre[0]);
}

/* Writes one program as a C array named name; returns 0, or 1 after
 * printing why. */
static int emit(FILE *out, const char *family, const char *name, bool no_userns)
{
	struct sock_filter insn;
	size_t n = 0;
	int fd, r;

	fd = (int)syscall(SYS_memfd_create, "landfence-seccomp", 1U /* MFD_CLOEXEC */);
	if (fd < 0) {
		perror("memfd_create");
		return 1;
	}
	if ((r = build(family, fd, no_userns)) < 0) {
		fprintf(stderr, "lf-seccomp-gen: %s: %s\n", family, strerror(-r));
		close(fd);
		return 1;
	}
	if (lseek(fd, 0, SEEK_SET) != 0) {
		perror("lseek");
		close(fd);
		return 1;
	}
	fprintf(out, "static const struct sock_filter %s[] = {\n", name);
	n = emit_setxattrat(out);
	for (;;) {
		ssize_t got = read(fd, &insn, sizeof(insn));
		if (got == 0)
			break;
		if (got != (ssize_t)sizeof(insn)) {
			fprintf(stderr, "lf-seccomp-gen: short read of the BPF program\n");
			close(fd);
			return 1;
		}
		fprintf(out, "\t{ 0x%04x, %u, %u, 0x%08xU },\n", insn.code, insn.jt, insn.jf,
			insn.k);
		n++;
	}
	fprintf(out, "};\n");
	close(fd);
	if (n == 0 || n > 0xffff) {
		fprintf(stderr, "lf-seccomp-gen: a program of %zu instructions\n", n);
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	FILE *out;

	if (argc != 3) {
		fputs("usage: lf-seccomp-gen CPU_FAMILY OUTPUT.h\n", stderr);
		return 2;
	}
	if (!(out = fopen(argv[2], "we"))) {
		perror(argv[2]);
		return 1;
	}
	fprintf(out,
		"/* SPDX-License-Identifier: MIT */\n"
		"/* Generated by lf-seccomp-gen %s (src/launch/seccomp-gen.c): the\n"
		" * seccomp filters of the launcher, for this machine (the second also\n"
		" * refuses new user namespaces). Do not edit. */\n",
		argv[1]);
	if (emit(out, argv[1], "lf_seccomp_program", false) ||
	    emit(out, argv[1], "lf_seccomp_program_no_userns", true))
		return 1;
	if (fclose(out) != 0) {
		perror(argv[2]);
		return 1;
	}
	return 0;
}
