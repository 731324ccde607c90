/* SPDX-License-Identifier: MIT */
/*
 * The child's environment: the caller's, minus the variables that point a
 * program at an IPC endpoint outside the sandbox (Landlock does not mediate
 * connect() on a named UNIX socket before its newest ABIs, so knowing the
 * address is most of the way out), plus a private TMPDIR.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/model.h"
#include "launch/launch.h"

const char *const lf_env_default_scrub[] = {
	"SSH_AUTH_SOCK", /* ssh-agent: sign as the user anywhere */
	"SSH_AGENT_PID",
	"GPG_AGENT_INFO",	    /* gpg-agent: sign, decrypt */
	"DBUS_SESSION_BUS_ADDRESS", /* session bus: keyrings, portals, systemd --user */
	"DBUS_SYSTEM_BUS_ADDRESS",
	"KRB5CCNAME",	   /* Kerberos ticket cache */
	"XDG_RUNTIME_DIR", /* the directory of the user's sockets */
	"DISPLAY",	   /* X11: keystroke injection into other windows */
	"XAUTHORITY",
	"WAYLAND_DISPLAY",
	"TMUX", /* terminal multiplexers accept commands */
	"TMUX_PANE",
	"STY",
	"KITTY_LISTEN_ON",
	"SWAYSOCK",
	"I3SOCK",
	/* landfence's own controls: a nested run must not inherit a weaker
	 * ABI cap. Every other LANDFENCE_* name goes too (is_control_name). */
	"LANDFENCE_ABI_MAX",
	NULL,
};

/* LANDFENCE_*: settings for landfence itself, never for the program. A
 * nested `landfence run` inside the sandbox starts from its own defaults,
 * whatever the outer caller set; `keep` cannot lift them. */
static bool is_control_name(const char *entry, size_t nlen)
{
	return nlen > 10 && !memcmp(entry, "LANDFENCE_", 10);
}

static bool name_in(const char *entry, size_t nlen, const char *const *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (list[i] && strlen(list[i]) == nlen && !memcmp(list[i], entry, nlen))
			return true;
	return false;
}

static bool name_in_default(const char *entry, size_t nlen)
{
	for (size_t i = 0; lf_env_default_scrub[i]; i++)
		if (strlen(lf_env_default_scrub[i]) == nlen &&
		    !memcmp(lf_env_default_scrub[i], entry, nlen))
			return true;
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

int lf_env_build(char *const *envp, const char *const *unset, size_t nunset,
		 const char *const *keep, size_t nkeep, const char *tmpdir, char ***out)
{
	size_t n = 0, k = 0;
	char **env;

	if (!out || (nunset && !unset) || (nkeep && !keep))
		return -EINVAL;
	while (envp && envp[n])
		n++;
	env = calloc(n + 2, sizeof(*env));
	if (!env)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		const char *eq = strchr(envp[i], '=');
		size_t nlen = eq ? (size_t)(eq - envp[i]) : strlen(envp[i]);

		if (name_in(envp[i], nlen, unset, nunset) || is_control_name(envp[i], nlen))
			continue;
		if (name_in_default(envp[i], nlen) && !name_in(envp[i], nlen, keep, nkeep))
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

int lf_env_lists(const struct lf_effective *e, const char ***unset, size_t *nunset,
		 const char ***keep, size_t *nkeep)
{
	size_t nu = 0, nk = 0;
	const char **u, **kp;

	if (!unset || !nunset || !keep || !nkeep)
		return -EINVAL;
	for (size_t i = 0; e && i < e->nlayers; i++) {
		nu += e->layers[i]->env_unset.n;
		nk += e->layers[i]->env_keep.n;
	}
	u = calloc(nu + 1, sizeof(*u));
	kp = calloc(nk + 1, sizeof(*kp));
	if (!u || !kp) {
		free(u);
		free(kp);
		return -ENOMEM;
	}
	nu = nk = 0;
	for (size_t i = 0; e && i < e->nlayers; i++) {
		const struct lf_policy *p = e->layers[i];
		for (size_t j = 0; j < p->env_unset.n; j++)
			u[nu++] = p->env_unset.v[j];
		for (size_t j = 0; j < p->env_keep.n; j++)
			kp[nk++] = p->env_keep.v[j];
	}
	*unset = u;
	*nunset = nu;
	*keep = kp;
	*nkeep = nk;
	return 0;
}
