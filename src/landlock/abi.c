/* SPDX-License-Identifier: MIT */
/*
 * The ABI probe and the one Landlock call the child makes. The rights
 * mapping is pure and lives in the core (src/core/rights.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "landlock/sandbox.h"
#include "landlock/syscall.h"

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

__attribute__((no_sanitize("address", "undefined"))) int lf_landlock_restrict(int ruleset_fd)
{
	/* syscall(2) and errno only: safe between fork and exec. */
	if (lf_sys_landlock_restrict_self(ruleset_fd, 0) < 0)
		return -errno;
	return 0;
}
