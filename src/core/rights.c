/* SPDX-License-Identifier: MIT */
/*
 * The Landlock rights mapping (SPEC §3) and the names of the sandbox
 * value's enumerations. Masking by ABI follows the kernel's
 * samples/landlock/sandboxer.c: start from every right we know and remove
 * what each older ABI lacks. Pure.
 */
#include "core/sandbox.h"
#include "landlock/compat.h"

#define LF_RIGHTS_RO \
	(LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR | LANDLOCK_ACCESS_FS_EXECUTE)

/* MAKE_CHAR and MAKE_BLOCK are deliberately absent: a root program could
 * otherwise mknod a disk's block node inside the project and read the raw
 * device around every rule. They stay handled, so they are refused. */
#define LF_RIGHTS_RW                                                                             \
	(LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_REMOVE_DIR |                         \
	 LANDLOCK_ACCESS_FS_REMOVE_FILE | LANDLOCK_ACCESS_FS_MAKE_DIR |                          \
	 LANDLOCK_ACCESS_FS_MAKE_REG | LANDLOCK_ACCESS_FS_MAKE_SOCK |                            \
	 LANDLOCK_ACCESS_FS_MAKE_FIFO | LANDLOCK_ACCESS_FS_MAKE_SYM | LANDLOCK_ACCESS_FS_REFER | \
	 LANDLOCK_ACCESS_FS_TRUNCATE)

uint64_t lf_landlock_handled_fs(int abi)
{
	uint64_t h = LF_RIGHTS_RO | LF_RIGHTS_RW | LANDLOCK_ACCESS_FS_MAKE_CHAR |
		     LANDLOCK_ACCESS_FS_MAKE_BLOCK | LANDLOCK_ACCESS_FS_IOCTL_DEV;

	if (abi <= 0)
		return 0;
	if (abi < 2)
		h &= ~LANDLOCK_ACCESS_FS_REFER;
	if (abi < 3)
		h &= ~LANDLOCK_ACCESS_FS_TRUNCATE;
	if (abi < 5)
		h &= ~LANDLOCK_ACCESS_FS_IOCTL_DEV;
	return h;
}

uint64_t lf_landlock_scoped(int abi)
{
	if (abi < 6)
		return 0;
	return LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET | LANDLOCK_SCOPE_SIGNAL;
}

uint64_t lf_landlock_rights(unsigned access, bool dir, bool ioctl_dev, int abi)
{
	uint64_t r = 0;

	if (access & LF_ACCESS_RO)
		r |= LF_RIGHTS_RO;
	if (access & LF_ACCESS_RW)
		r |= LF_RIGHTS_RW;
	if (ioctl_dev)
		r |= LANDLOCK_ACCESS_FS_IOCTL_DEV;
	r &= lf_landlock_handled_fs(abi);
	if (!dir)
		r &= LF_LANDLOCK_FILE_RIGHTS;
	return r;
}

uint64_t lf_landlock_device_rights(void)
{
	return LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR |
	       LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_TRUNCATE |
	       LANDLOCK_ACCESS_FS_IOCTL_DEV;
}

static const char *const right_names[] = {
	"execute",   "write_file", "read_file", "read_dir",  "remove_dir", "remove_file",
	"make_char", "make_dir",   "make_reg",	"make_sock", "make_fifo",  "make_block",
	"make_sym",  "refer",	   "truncate",	"ioctl_dev",
};

const char *lf_landlock_right_name(uint64_t bit)
{
	for (size_t i = 0; i < sizeof(right_names) / sizeof(right_names[0]); i++)
		if (bit == (1ULL << i))
			return right_names[i];
	return NULL;
}

const char *lf_origin_name(enum lf_origin origin)
{
	static const char *const names[] = {
		[LF_ORIGIN_POLICY] = "policy",
		[LF_ORIGIN_FALLBACK] = "fallback",
		[LF_ORIGIN_HOST] = "host",
		[LF_ORIGIN_HOST_POLICY] = "host-policy",
		[LF_ORIGIN_PROFILE] = "profile",
		[LF_ORIGIN_RUN_DIR] = "run-dir",
		[LF_ORIGIN_COMMAND] = "command",
		[LF_ORIGIN_DEVICE] = "device",
		[LF_ORIGIN_TOOLCHAIN] = "toolchain",
		[LF_ORIGIN_BUILTIN] = "builtin",
		[LF_ORIGIN_PROTECT] = "protect",
		[LF_ORIGIN_SELF] = "self",
		[LF_ORIGIN_GIT] = "git",
	};

	if ((unsigned)origin < sizeof(names) / sizeof(names[0]) && names[origin])
		return names[origin];
	return "unknown";
}

const char *lf_mechanism_name(enum lf_mechanism m)
{
	static const char *const names[] = {
		[LF_MECH_DROP] = "drop",
		[LF_MECH_MASK] = "mask",
		[LF_MECH_WATCHED] = "watched",
		[LF_MECH_UNREACHED] = "unreached",
	};

	if ((unsigned)m < sizeof(names) / sizeof(names[0]) && names[m])
		return names[m];
	return "unknown";
}
