/* SPDX-License-Identifier: MIT */
/*
 * The child's environment: the caller's, minus the variables the sandbox
 * value's scrub names (they point a program at an IPC endpoint outside
 * the sandbox: Landlock does not mediate connect() on a named UNIX socket
 * before its newest ABIs, so knowing the address is most of the way out),
 * plus a private TMPDIR. Which names go is decided in the core
 * (core/sandbox.c, sources_env); this only applies the list.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "launch/launch.h"

/* Whether the variable entry (name nlen bytes long) is one the list
 * removes: the same name, or a name matching an entry "PREFIX*". */
static bool removed(const char *entry, size_t nlen, const struct lf_sandbox_env *remove, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const char *name = remove[i].name;
		size_t len = strlen(name);

		if (len && name[len - 1] == '*' ? nlen >= len - 1 && !memcmp(name, entry, len - 1)
						: len == nlen && !memcmp(name, entry, nlen))
			return true;
	}
	return false;
}

void lf_env_free(char **env)
{
	if (!env)
		return;
	for (size_t i = 0; env[i]; i++)
		free(env[i]);
	free(env);
}

static bool is_tmp_name(const char *entry, size_t nlen)
{
	return (nlen == 6 && !memcmp(entry, "TMPDIR", 6)) ||
	       (nlen == 3 && !memcmp(entry, "TMP", 3)) || (nlen == 4 && !memcmp(entry, "TEMP", 4));
}

int lf_env_build(char *const *envp, const struct lf_sandbox_env *remove, size_t nremove,
		 const char *tmpdir, char ***out)
{
	size_t n = 0, k = 0;
	char **env;

	if (!out || (nremove && !remove))
		return -EINVAL;
	while (envp && envp[n])
		n++;
	env = calloc(n + 2, sizeof(*env));
	if (!env)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		const char *eq = strchr(envp[i], '=');
		size_t nlen = eq ? (size_t)(eq - envp[i]) : strlen(envp[i]);

		if (removed(envp[i], nlen, remove, nremove))
			continue;
		if (tmpdir && is_tmp_name(envp[i], nlen)) {
			/* TMP and TEMP follow TMPDIR when the caller has them. */
			if (nlen == 6)
				continue;
			if (asprintf(&env[k], "%.*s=%s", (int)nlen, envp[i], tmpdir) < 0)
				goto oom;
			k++;
			continue;
		}
		if (!(env[k] = strdup(envp[i])))
			goto oom;
		k++;
	}
	if (tmpdir) {
		if (asprintf(&env[k], "TMPDIR=%s", tmpdir) < 0)
			goto oom;
		k++;
	}
	env[k] = NULL;
	*out = env;
	return 0;
oom:
	env[k] = NULL;
	lf_env_free(env);
	return -ENOMEM;
}
