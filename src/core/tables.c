/* SPDX-License-Identifier: MIT */
/*
 * The tables of tables.h. Pure: data, and lookups over it.
 */
#include <fnmatch.h>
#include <stdio.h>
#include <string.h>

#include "core/path.h"
#include "core/tables.h"

#define RO LF_ACCESS_RO
#define RW LF_ACCESS_RW

const struct lf_host_row lf_host_table[] = {
	{ "/usr", LF_HOST_SYSTEM, "host: system directory" },
	{ "/bin", LF_HOST_SYSTEM, "host: system directory" },
	{ "/sbin", LF_HOST_SYSTEM, "host: system directory" },
	{ "/lib", LF_HOST_SYSTEM, "host: system directory" },
	{ "/lib32", LF_HOST_SYSTEM, "host: system directory" },
	{ "/lib64", LF_HOST_SYSTEM, "host: system directory" },
	{ "/libx32", LF_HOST_SYSTEM, "host: system directory" },
	{ "/opt", LF_HOST_SYSTEM, "host: system directory" },
	{ "/proc", LF_HOST_SYSTEM, "host: system directory" },
	/* Resource limits and CPU topology: runtimes (Node, the JVM, Go)
	 * size their heaps and thread pools from them. */
	{ "/sys/fs/cgroup", LF_HOST_SYSTEM, "host: system directory" },
	{ "/sys/devices/system/cpu", LF_HOST_SYSTEM, "host: system directory" },
	{ "/etc", LF_HOST_ETC, "host: system configuration" },
	/* git's identity and settings: without them every git command warns
	 * and commits fail. */
	{ "~/.gitconfig", LF_HOST_HOME, "host: git configuration" },
	{ "~/.config/git", LF_HOST_HOME, "host: git configuration" },
	{ "/dev/null", LF_HOST_DEVICE, "host: device" },
	{ "/dev/zero", LF_HOST_DEVICE, "host: device" },
	{ "/dev/full", LF_HOST_DEVICE, "host: device" },
	{ "/dev/random", LF_HOST_DEVICE, "host: device" },
	{ "/dev/urandom", LF_HOST_DEVICE, "host: device" },
	{ "/dev/tty", LF_HOST_TERMINAL, "host: terminal" },
	{ "/dev/ptmx", LF_HOST_TERMINAL, "host: terminal" },
	{ "/dev/pts", LF_HOST_TERMINAL, "host: terminal" },
};
const size_t lf_host_table_len = sizeof(lf_host_table) / sizeof(lf_host_table[0]);

unsigned lf_host_access(enum lf_host_kind kind)
{
	return kind == LF_HOST_DEVICE || kind == LF_HOST_TERMINAL ? RO | RW : RO;
}

/* Each entry starts "/etc/s" or "/etc/g": lf_etc_is_hidden relies on it. */
const char *const lf_etc_hidden[] = {
	"/etc/shadow",
	"/etc/shadow-",
	"/etc/gshadow",
	"/etc/gshadow-",
	"/etc/sudoers",
	"/etc/sudoers.d",
	"/etc/ssl/private",
	"/etc/security/opasswd",
	"/etc/ssh/ssh_host_*_key",
	NULL,
};

const struct lf_open_limit lf_open_limits[] = {
	{ "unix-connect",
	  "named UNIX sockets: connect(2) to a socket by its path (ssh-agent, D-Bus, "
	  "docker.sock) works if the program knows the path; the environment scrub removes "
	  "the usual addresses" },
	{ "network",
	  "the network, unless a policy's \"network\" section fences TCP connect and bind "
	  "(Landlock ABI 4); UDP, DNS among it, stays open" },
	{ "proc-cmdline",
	  "/proc/<pid>/cmdline, stat and status of every process (an outside command line's "
	  "--password=...); only /proc mounted with hidepid hides them" },
	{ "metadata",
	  "metadata changes: chmod, chown and utimes on any path the program can name, as "
	  "its user (seccomp refuses set-user-ID and set-group-ID modes, the write bit for "
	  "others and extended attributes)" },
	{ "not-mediated",
	  "what Landlock does not mediate: stat(2) and inotify on any path the program can "
	  "name; /dev/pts is granted whole, so another terminal of the same user can be "
	  "opened" },
	{ "mask-fall",
	  "a mask hides a file only while its name stays: a masked file replaced or removed "
	  "outside the sandbox during the run (an editor's save, git config) can be read, "
	  "the old one or the new, until the watch stops the run a moment later (exit 137)" },
	{ NULL, NULL },
};

bool lf_etc_is_hidden(const char *path)
{
	/* Every entry is "/etc/" then 's' or 'g' (literal up to its '*'), and
	 * a path matches or sits below one only if it starts with the same
	 * bytes: most of /etc needs no fnmatch. */
	if (strncmp(path, "/etc/", 5) != 0 || (path[5] != 's' && path[5] != 'g'))
		return false;
	for (size_t i = 0; lf_etc_hidden[i]; i++) {
		const char *h = lf_etc_hidden[i];
		size_t lit = strcspn(h, "*?[\\");

		/* Both tests need path to start with h's literal part; without
		 * a wildcard, fnmatch is strcmp, which lf_path_covers holds. */
		if (strncmp(h, path, lit) != 0)
			continue;
		if (lf_path_covers(h, path) || (h[lit] && fnmatch(h, path, FNM_PATHNAME) == 0))
			return true;
	}
	return false;
}

bool lf_host_terminal(const char *canon)
{
	/* Terminal ioctls only where the terminal really is, whatever a
	 * symlink in /dev says. */
	return strcmp(canon, "/dev/tty") == 0 || strcmp(canon, "/dev/ptmx") == 0 ||
	       lf_path_covers("/dev/pts", canon);
}

#define PDIR LF_PROFILE_DIR
#define PFILE LF_PROFILE_FILE
#define POPT LF_PROFILE_OPTIONAL

/* Config and cache places each agent writes (their documentation and
 * observed behaviour: doc/landlock.md, "Agent profiles"). Programs' own
 * binaries stay read-only. The read-write places are made before a first
 * run; the read-only ones the user writes (configuration) and the files
 * an agent only makes beside another are optional. */
const struct lf_profile lf_profile_table[] = {
	{ "claude",
	  "claude",
	  { { "~/.claude", RO | RW, PDIR, NULL },
	    /* Saved in place: see doc/landlock.md, "The claude profile". An
	     * empty file is "corrupted" to Claude Code: it must hold JSON. */
	    { "~/.claude.json", RO | RW, PFILE, "{}\n" },
	    { "~/.claude.json.backup", RO | RW, PFILE | POPT, NULL },
	    { "~/.cache/claude", RO | RW, PDIR, NULL },
	    { "~/.cache/claude-cli-nodejs", RO | RW, PDIR, NULL },
	    { "~/.local/state/claude", RO | RW, PDIR, NULL },
	    { "~/.local/share/claude", RO, PDIR | POPT, NULL },
	    { NULL, 0, 0, NULL } } },
	{ "codex",
	  "codex",
	  { { "~/.codex", RO | RW, PDIR, NULL },
	    { "~/.cache/codex", RO | RW, PDIR, NULL },
	    { NULL, 0, 0, NULL } } },
	{ "gemini",
	  "gemini",
	  { { "~/.gemini", RO | RW, PDIR, NULL },
	    { "~/.cache/gemini", RO | RW, PDIR, NULL },
	    { NULL, 0, 0, NULL } } },
	{ "aider",
	  "aider",
	  { { "~/.aider", RO | RW, PDIR, NULL },
	    { "~/.aider.conf.yml", RO, PFILE | POPT, NULL },
	    { "~/.aider.model.settings.yml", RO, PFILE | POPT, NULL },
	    { "~/.aider.model.metadata.json", RO, PFILE | POPT, NULL },
	    { NULL, 0, 0, NULL } } },
	/* opencode (XDG base directories at their defaults): its data (logs,
	 * sessions, its login), state and cache (the tools it downloads)
	 * read-write; its configuration (opencode.json names the MCP servers
	 * and plugins it starts) read-only, made so that its start-up mkdir
	 * finds it. */
	{ "opencode",
	  "opencode",
	  { { "~/.local/share/opencode", RO | RW, PDIR, NULL },
	    { "~/.local/state/opencode", RO | RW, PDIR, NULL },
	    { "~/.cache/opencode", RO | RW, PDIR, NULL },
	    { "~/.config/opencode", RO, PDIR, NULL },
	    { NULL, 0, 0, NULL } } },
};
const size_t lf_profile_table_len = sizeof(lf_profile_table) / sizeof(lf_profile_table[0]);

const struct lf_profile *lf_profile_find(const char *name)
{
	for (size_t i = 0; name && i < lf_profile_table_len; i++)
		if (strcmp(lf_profile_table[i].name, name) == 0)
			return &lf_profile_table[i];
	return NULL;
}

const struct lf_profile *lf_profile_for_command(const char *cmd)
{
	const char *base = cmd ? strrchr(cmd, '/') : NULL;

	base = base ? base + 1 : cmd;
	for (size_t i = 0; base && i < lf_profile_table_len; i++)
		if (strcmp(lf_profile_table[i].command, base) == 0)
			return &lf_profile_table[i];
	return NULL;
}

bool lf_profile_known(const char *name)
{
	return lf_profile_find(name) != NULL;
}

void lf_profile_list(char *buf, size_t size, bool quoted)
{
	size_t n = 0;

	if (!size)
		return;
	buf[0] = '\0';
	for (size_t i = 0; i < lf_profile_table_len && n < size; i++) {
		const char *sep = i == 0			  ? ""
				  : !quoted			  ? ", "
				  : i + 1 == lf_profile_table_len ? " or "
								  : ", ";
		int w = snprintf(buf + n, size - n, quoted ? "%s\"%s\"" : "%s%s", sep,
				 lf_profile_table[i].name);
		if (w < 0)
			break;
		n += (size_t)w;
	}
}

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
	 * ABI cap. Every other LANDFENCE_* name goes too, and no policy can
	 * keep them (core/sandbox.c, sources_env). */
	"LANDFENCE_ABI_MAX",
	NULL,
};

#define WATCH LF_PERSIST_WATCH

const struct lf_persist_row lf_persist_project[] = {
	{ ".landfence", "the project policy (used again only after `landfence trust`)" },
	{ ".git/hooks", "git runs hooks outside the sandbox on commit, checkout, push" },
	{ ".git/config", "git config can name hooks, filters, fsmonitor and aliases that run" },
	{ ".git/info/attributes", "with .git/config, names filter drivers that run" },
	{ ".husky", "husky git hooks run on commit" },
	{ ".pre-commit-config.yaml", "pre-commit runs the hooks it names" },
	{ ".claude/settings.json", "Claude Code hooks and permissions" },
	{ ".claude/settings.local.json", "Claude Code hooks and permissions" },
	{ ".mcp.json", "MCP servers an agent starts" },
	{ ".vscode", "editor tasks, settings and launch configurations", WATCH },
	{ ".idea", "IDE run configurations", WATCH },
	{ ".envrc", "direnv runs it in the user's shell" },
	{ ".env", "read by tools and shells outside the sandbox", WATCH },
	{ ".npmrc", "npm configuration (script shell, registries)" },
	{ ".gemini/settings.json", "Gemini CLI settings" },
	{ ".codex", "Codex CLI configuration", WATCH },
	{ ".aider.conf.yml", "aider configuration" },
	{ ".devcontainer", "container definitions an editor builds and runs" },
	/* Agent and editor settings that run commands. */
	{ ".claude/hooks", "scripts Claude Code hooks run" },
	{ ".cursor", "Cursor rules, MCP servers and settings" },
	{ ".vscode/tasks.json", "editor tasks run commands" },
	{ ".vscode/settings.json", "editor settings name programs (terminal, linters) that run" },
	{ ".vscode/launch.json", "launch configurations run programs" },
	/* Tool configuration that names a program to run. */
	{ ".cargo/config.toml", "cargo runs the runners, linkers and aliases it names" },
	{ ".cargo/config", "cargo runs the runners, linkers and aliases it names" },
	{ ".yarnrc.yml", "yarn loads the plugins and runs the yarnPath it names" },
	{ ".yarnrc", "yarn runs the yarn-path it names" },
	{ "lefthook.yml", "lefthook git hooks run on commit" },
	{ ".lefthook.yml", "lefthook git hooks run on commit" },
	{ "lefthook-local.yml", "lefthook git hooks run on commit" },
	{ ".githooks", "git runs the hooks core.hooksPath names outside the sandbox" },
};
const size_t lf_persist_project_len = sizeof(lf_persist_project) / sizeof(lf_persist_project[0]);

const struct lf_persist_row lf_persist_home[] = {
	{ ".config/landfence", "landfence's trusted policies and user policy" },
	{ ".bashrc", "run by every interactive shell" },
	{ ".bash_profile", "run by login shells" },
	{ ".profile", "run by login shells" },
	{ ".zshrc", "run by every interactive zsh" },
	{ ".zshenv", "run by every zsh" },
	{ ".config/fish", "run by fish" },
	{ ".gitconfig", "git configuration for every repository" },
	{ ".config/git", "git configuration for every repository" },
	{ ".ssh", "SSH keys, authorized_keys and client configuration" },
	{ ".claude/settings.json", "Claude Code hooks for every project" },
	{ ".claude/settings.local.json", "Claude Code hooks for every project" },
	/* The claude, codex and gemini profiles grant these read-write, and
	 * the agents write them as they run: watched, not masked. */
	{ ".claude.json", "Claude Code's MCP servers (commands it starts) for every project",
	  WATCH | LF_PERSIST_JSON_KEYS },
	/* Codex writes sessions, logs and history below ~/.codex at every
	 * run; what it obeys later is config.toml (masked, below) and the
	 * approval rules it saves when told "don't ask again". */
	{ ".codex/rules", "Codex CLI's saved approvals: commands it then runs without asking",
	  WATCH },
	{ ".gemini/settings.json", "Gemini CLI settings and the MCP servers it starts" },
	{ ".config/autostart", "programs the desktop starts" },
	{ ".config/systemd", "user services systemd starts" },
	{ ".local/bin", "programs found first on PATH" },
	/* The agents' own settings and the scripts their hooks run. */
	{ ".claude/hooks", "scripts Claude Code hooks run for every project" },
	{ ".codex/config.toml", "Codex CLI runs the notify program and MCP servers it names" },
	{ ".aider.conf.yml", "aider configuration (commands it runs)" },
};
const size_t lf_persist_home_len = sizeof(lf_persist_home) / sizeof(lf_persist_home[0]);

const struct lf_persist_row lf_persist_gitdir[] = {
	{ "hooks", "git runs hooks outside the sandbox on commit, checkout, push" },
	{ "config", "git config can name hooks, filters, fsmonitor and aliases that run" },
	{ "info/attributes", "with the git config, names filter drivers that run" },
	/* A linked worktree's own configuration (git reads it once
	 * extensions.worktreeConfig is set, as `git sparse-checkout` sets it). */
	{ "config.worktree",
	  "a worktree's git config can name hooks, filters and aliases that run" },
	{ "commondir", "names the git directory whose hooks and config a worktree uses" },
};
const size_t lf_persist_gitdir_len = sizeof(lf_persist_gitdir) / sizeof(lf_persist_gitdir[0]);

#undef WATCH

void lf_protect_row_name(enum lf_protect_base base, const struct lf_persist_row *row, char *buf,
			 size_t size)
{
	static const char *const prefix[] = { "", "~/", ".git/" };

	if (size)
		snprintf(buf, size, "%s%s", prefix[base], row->rel);
}

const struct lf_persist_row *lf_protect_rows(enum lf_protect_base base, size_t *n)
{
	switch (base) {
	case LF_PROTECT_PROJECT:
		*n = lf_persist_project_len;
		return lf_persist_project;
	case LF_PROTECT_HOME:
		*n = lf_persist_home_len;
		return lf_persist_home;
	case LF_PROTECT_GITDIR:
		*n = lf_persist_gitdir_len;
		return lf_persist_gitdir;
	}
	*n = 0;
	return NULL;
}

/* The row of that name in any base, or NULL. */
static const struct lf_persist_row *row_named(const char *name)
{
	char buf[256];

	for (int b = LF_PROTECT_PROJECT; b <= LF_PROTECT_GITDIR; b++) {
		size_t n;
		const struct lf_persist_row *rows = lf_protect_rows(b, &n);

		for (size_t i = 0; i < n; i++) {
			lf_protect_row_name(b, &rows[i], buf, sizeof(buf));
			if (!strcmp(buf, name))
				return &rows[i];
		}
	}
	return NULL;
}

bool lf_protect_row_known(const char *name)
{
	return row_named(name) != NULL;
}

bool lf_protect_row_watch_only(const char *name)
{
	const struct lf_persist_row *row = name ? row_named(name) : NULL;

	return row && (row->flags & LF_PERSIST_WATCH);
}

bool lf_protect_row_json_keys(const char *name)
{
	const struct lf_persist_row *row = name ? row_named(name) : NULL;

	return row && (row->flags & LF_PERSIST_JSON_KEYS);
}

bool lf_persist_hook_dir(const char *path)
{
	const char *base = strrchr(path, '/');

	base = base ? base + 1 : path;
	return !strcmp(base, "hooks") || !strcmp(base, ".husky") || !strcmp(base, ".githooks");
}

size_t lf_profile_count(void)
{
	return lf_profile_table_len;
}

const char *lf_profile_name(size_t i)
{
	return i < lf_profile_table_len ? lf_profile_table[i].name : NULL;
}
