/* SPDX-License-Identifier: MIT */
/*
 * ABI probe and the rights mapping. Masking by ABI follows the kernel's
 * samples/landlock/sandboxer.c: start from every right we know and remove
 * what each older ABI lacks.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "landlock/sandbox.h"
#include "landlock/syscall.h"

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

/* Parses LANDFENCE_ABI_MAX: decimal digits only, so "7x", "-1" or " 3"
 * are refused rather than read as a cap the user did not mean. */
static int abi_cap_parse(const char *s, int *cap)
{
	long v = 0;

	if (!s[0])
		return -EINVAL;
	for (const char *c = s; *c; c++) {
		if (*c < '0' || *c > '9')
			return -EINVAL;
		v = v * 10 + (*c - '0');
		if (v > 1000000)
			return -EINVAL;
	}
	*cap = (int)v;
	return 0;
}

int lf_landlock_probe(int abi_max, struct lf_abi_probe *out)
{
	struct lf_abi_probe p = { .kernel = 0, .abi = 0, .cap = -1, .err = 0 };
	int r;

	if (!out)
		return -EINVAL;
	if (abi_max >= 0) {
		p.cap = abi_max;
	} else {
		const char *env = secure_getenv("LANDFENCE_ABI_MAX");

		/* Empty counts as unset: `LANDFENCE_ABI_MAX= cmd` clears it. */
		if (env && env[0]) {
			r = abi_cap_parse(env, &p.cap);
			if (r < 0)
				return r;
		}
	}

	r = lf_sys_landlock_create_ruleset(NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
	if (r < 0) {
		int e = errno;

		if (e != ENOSYS && e != EOPNOTSUPP)
			return -e;
		p.err = e;
		p.kernel = 0;
	} else {
		p.kernel = r;
	}
	p.abi = p.kernel;
	if (p.cap >= 0 && p.cap < p.abi)
		p.abi = p.cap;
	*out = p;
	return 0;
}

int lf_landlock_abi(int abi_max)
{
	struct lf_abi_probe p = { 0 };
	int r = lf_landlock_probe(abi_max, &p);

	return r < 0 ? r : p.abi;
}

const char *lf_landlock_hint(int err)
{
	if (err == ENOSYS)
		return "Hint: this kernel has no Landlock; build it with "
		       "CONFIG_SECURITY_LANDLOCK=y "
		       "(Linux 5.13 or later) and list landlock in CONFIG_LSM";
	if (err == EOPNOTSUPP)
		return "Hint: Landlock is built in but not enabled; add landlock to the lsm= boot "
		       "parameter (e.g. lsm=landlock,lockdown,yama,integrity,apparmor) and reboot";
	return NULL;
}

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
	switch (origin) {
	case LF_ORIGIN_POLICY:
		return "policy";
	case LF_ORIGIN_FALLBACK:
		return "fallback";
	case LF_ORIGIN_HOST:
		return "host";
	case LF_ORIGIN_HOST_POLICY:
		return "host-policy";
	case LF_ORIGIN_PROFILE:
		return "profile";
	case LF_ORIGIN_RUN_DIR:
		return "run-dir";
	case LF_ORIGIN_COMMAND:
		return "command";
	case LF_ORIGIN_DEVICE:
		return "device";
	}
	return "unknown";
}

int lf_landlock_restrict(int ruleset_fd)
{
	/* syscall(2) and errno only: safe between fork and exec. */
	if (lf_sys_landlock_restrict_self(ruleset_fd, 0) < 0)
		return -errno;
	return 0;
}
