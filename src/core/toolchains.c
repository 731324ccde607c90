/* SPDX-License-Identifier: MIT */
/*
 * The toolchain table (core/toolchains.h): where each toolchain lives as
 * its installer puts it, and its variables. Installation roots are
 * read+execute, never writable (a sandbox that could rewrite an
 * interpreter or a shim would run its code later outside); caches are
 * read+write (doc/toolchains.md says what that costs). Pure.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/model.h"
#include "core/path.h"
#include "core/toolchains.h"

#define RO LF_ACCESS_RO
#define RW (LF_ACCESS_RO | LF_ACCESS_RW)
#define ROOT LF_TOOL_ROOT
#define CACHE LF_TOOL_CACHE

#define XDG_CACHE "${XDG_CACHE_HOME:-~/.cache}"
#define XDG_DATA "${XDG_DATA_HOME:-~/.local/share}"
#define XDG_CONFIG "${XDG_CONFIG_HOME:-~/.config}"
#define XDG_STATE "${XDG_STATE_HOME:-~/.local/state}"
#define CARGO "${CARGO_HOME:-~/.cargo}"
#define GOPATH "${GOPATH:-~/go}"
#define GRADLE "${GRADLE_USER_HOME:-~/.gradle}"
#define NPM_PREFIX "${npm_config_prefix:-${NPM_CONFIG_PREFIX}}"

const struct lf_toolchain lf_toolchain_table[] = {
	/* Python */
	{ "pyenv",
	  { "PYENV_ROOT" },
	  { "pyenv" },
	  { { "${PYENV_ROOT:-~/.pyenv}", RO, ROOT, "Python versions, shims and plugins" } } },
	{ "pip",
	  { "PIP_CACHE_DIR" },
	  { "pip", "pip3" },
	  { { "${PIP_CACHE_DIR:-" XDG_CACHE "/pip}", RW, CACHE,
	      "the download and wheel cache" } } },
	{ "pipx",
	  { "PIPX_HOME", "PIPX_BIN_DIR" },
	  { "pipx" },
	  { { "${PIPX_HOME:-" XDG_DATA "/pipx}", RO, ROOT,
	      "the applications' virtual environments" },
	    { "~/.local/pipx", RO, ROOT, "the applications' virtual environments (pipx < 1.3)" },
	    { "${PIPX_BIN_DIR:-~/.local/bin}", RO, ROOT, "the applications' links" } } },
	{ "uv",
	  { "UV_CACHE_DIR", "UV_TOOL_DIR", "UV_PYTHON_INSTALL_DIR" },
	  { "uv", "uvx" },
	  { { "${UV_CACHE_DIR:-" XDG_CACHE "/uv}", RW, CACHE, "the package cache" },
	    { "${UV_TOOL_DIR:-" XDG_DATA "/uv/tools}", RO, ROOT, "installed tools" },
	    { "${UV_PYTHON_INSTALL_DIR:-" XDG_DATA "/uv/python}", RO, ROOT,
	      "managed Python versions" },
	    { XDG_CONFIG "/uv/uv.toml", RO, 0, "configuration" } } },
	{ "poetry",
	  { "POETRY_HOME", "POETRY_CACHE_DIR", "POETRY_VIRTUALENVS_PATH" },
	  { "poetry" },
	  { { "${POETRY_HOME:-" XDG_DATA "/pypoetry}", RO, ROOT, "poetry's own environment" },
	    { "${POETRY_CACHE_DIR:-" XDG_CACHE "/pypoetry}", RW, CACHE,
	      "the package cache and the projects' virtual environments" },
	    { "${POETRY_VIRTUALENVS_PATH}", RW, 0, "the projects' virtual environments" },
	    { "${POETRY_CONFIG_DIR:-" XDG_CONFIG "/pypoetry}/config.toml", RO, 0,
	      "configuration" } } },
	{ "conda",
	  { "CONDA_PREFIX", "CONDA_EXE" },
	  { "conda", "mamba" },
	  { { "~/miniconda3", RO, ROOT, "the installation and its environments" },
	    { "~/anaconda3", RO, ROOT, "the installation and its environments" },
	    { "~/miniforge3", RO, ROOT, "the installation and its environments" },
	    { "~/mambaforge", RO, ROOT, "the installation and its environments" },
	    { "${CONDA_PREFIX}", RO, ROOT, "the active environment" },
	    { "~/.conda/environments.txt", RO, 0, "the list of environments" } } },
	/* Rust */
	{ "rustup",
	  { "RUSTUP_HOME" },
	  { "rustup" },
	  { { "${RUSTUP_HOME:-~/.rustup}", RO, ROOT, "toolchains and settings" } } },
	{ "cargo",
	  { "CARGO_HOME", "CARGO_TARGET_DIR", "CARGO_INSTALL_ROOT" },
	  { "cargo" },
	  { { CARGO "/bin", RO, ROOT, "installed binaries and the rustup proxies" },
	    { CARGO "/registry", RW, CACHE, "the crate registry cache" },
	    { CARGO "/git", RW, CACHE, "git dependencies" },
	    { CARGO "/config.toml", RO, 0, "configuration" },
	    { CARGO "/config", RO, 0, "configuration (older name)" },
	    /* Locks and the last-use database, when cargo made them. */
	    { CARGO "/.package-cache", RW, 0, "the cache lock" },
	    { CARGO "/.package-cache-mutate", RW, 0, "the cache lock" },
	    { CARGO "/.global-cache", RW, 0, "the cache's last-use database" },
	    { "${CARGO_TARGET_DIR}", RW, CACHE, "the shared build directory" },
	    { "${CARGO_INSTALL_ROOT}/bin", RO, ROOT, "installed binaries" } } },
	/* JavaScript */
	{ "nvm",
	  { "NVM_DIR" },
	  { NULL },
	  { { "${NVM_DIR:-~/.nvm}", RO, ROOT, "Node.js versions" } } },
	{ "volta",
	  { "VOLTA_HOME" },
	  { "volta" },
	  { { "${VOLTA_HOME:-~/.volta}", RO, ROOT, "tools and shims" },
	    { "${VOLTA_HOME:-~/.volta}/tmp", RW, 0, "its scratch space" },
	    { "${VOLTA_HOME:-~/.volta}/log", RW, 0, "its logs" } } },
	{ "nodenv",
	  { "NODENV_ROOT" },
	  { "nodenv" },
	  { { "${NODENV_ROOT:-~/.nodenv}", RO, ROOT, "Node.js versions and shims" } } },
	{ "npm",
	  { "NPM_CONFIG_PREFIX", "npm_config_prefix", "NPM_CONFIG_CACHE", "npm_config_cache" },
	  { "npm", "npx" },
	  { { "${npm_config_cache:-${NPM_CONFIG_CACHE:-~/.npm}}", RW, CACHE,
	      "the package cache (and npx's packages)" },
	    /* Not the prefix itself: a prefix of ~/.local would be all of
	     * ~/.local/share. */
	    { NPM_PREFIX "/lib/node_modules", RO, ROOT, "globally installed packages" },
	    { NPM_PREFIX "/bin", RO, ROOT, "globally installed commands" } } },
	{ "yarn",
	  { "YARN_CACHE_FOLDER" },
	  { "yarn" },
	  { { "${YARN_CACHE_FOLDER:-" XDG_CACHE "/yarn}", RW, CACHE, "the package cache" },
	    { "~/.yarn/bin", RO, ROOT, "globally installed commands" },
	    { "~/.yarn/berry", RW, 0, "yarn 2+'s global cache" },
	    { XDG_CONFIG "/yarn/global", RO, ROOT, "globally installed packages" } } },
	{ "pnpm",
	  { "PNPM_HOME" },
	  { "pnpm" },
	  { { "${PNPM_HOME:-" XDG_DATA "/pnpm}", RO, ROOT, "pnpm and its global packages" },
	    { XDG_DATA "/pnpm/store", RW, CACHE, "the content-addressed store" },
	    { XDG_CACHE "/pnpm", RW, CACHE, "the metadata cache" } } },
	{ "bun",
	  { "BUN_INSTALL", "BUN_INSTALL_CACHE_DIR" },
	  { "bun", "bunx" },
	  { { "${BUN_INSTALL:-~/.bun}/bin", RO, ROOT, "bun and global commands" },
	    { "${BUN_INSTALL:-~/.bun}/install/global", RO, ROOT, "globally installed packages" },
	    { "${BUN_INSTALL_CACHE_DIR:-${BUN_INSTALL:-~/.bun}/install/cache}", RW, CACHE,
	      "the package cache" } } },
	{ "deno",
	  { "DENO_INSTALL", "DENO_DIR", "DENO_INSTALL_ROOT" },
	  { "deno" },
	  { { "${DENO_INSTALL:-~/.deno}", RO, ROOT, "deno and installed scripts" },
	    { "${DENO_INSTALL_ROOT}", RO, ROOT, "installed scripts" },
	    { "${DENO_DIR:-" XDG_CACHE "/deno}", RW, CACHE, "the module cache" } } },
	/* Go */
	{ "go",
	  { "GOROOT", "GOPATH", "GOMODCACHE", "GOCACHE", "GOBIN" },
	  { "go" },
	  { { "${GOROOT}", RO, ROOT, "the Go installation" },
	    { "~/sdk", RO, ROOT, "Go versions installed with golang.org/dl" },
	    { "${GOBIN:-" GOPATH "/bin}", RO, ROOT, "installed commands" },
	    { "${GOMODCACHE:-" GOPATH "/pkg/mod}", RW, CACHE,
	      "the module cache (and downloaded toolchains)" },
	    { "${GOCACHE:-" XDG_CACHE "/go-build}", RW, CACHE, "the build cache" },
	    { "${GOENV:-" XDG_CONFIG "/go/env}", RO, 0, "go env -w settings" } } },
	/* Version managers for several languages */
	{ "asdf",
	  { "ASDF_DATA_DIR", "ASDF_DIR" },
	  { "asdf" },
	  { { "${ASDF_DATA_DIR:-~/.asdf}", RO, ROOT, "plugins, versions and shims" },
	    { "${ASDF_DIR}", RO, ROOT, "asdf itself" },
	    { "~/.tool-versions", RO, 0, "the default versions" },
	    { "${ASDF_CONFIG_FILE:-~/.asdfrc}", RO, 0, "configuration" } } },
	{ "mise",
	  { "MISE_DATA_DIR", "MISE_CACHE_DIR", "MISE_CONFIG_DIR" },
	  { "mise" },
	  { { "${MISE_DATA_DIR:-" XDG_DATA "/mise}", RO, ROOT, "installed versions and shims" },
	    { "${MISE_CACHE_DIR:-" XDG_CACHE "/mise}", RW, CACHE, "its cache" },
	    { "${MISE_CONFIG_DIR:-" XDG_CONFIG "/mise}", RO, 0, "configuration" },
	    /* Trusting a configuration file lets it run code: read-only. */
	    { XDG_STATE "/mise", RO, 0, "trusted configuration files" } } },
	{ "sdkman",
	  { "SDKMAN_DIR" },
	  { "sdk" },
	  { { "${SDKMAN_DIR:-~/.sdkman}", RO, ROOT, "JDKs and JVM tools" },
	    { "${SDKMAN_DIR:-~/.sdkman}/tmp", RW, 0, "its scratch space" } } },
	/* Ruby */
	{ "rbenv",
	  { "RBENV_ROOT" },
	  { "rbenv" },
	  { { "${RBENV_ROOT:-~/.rbenv}", RO, ROOT, "Ruby versions and shims" } } },
	{ "gem",
	  { "GEM_HOME" },
	  { "gem", "bundle" },
	  /* Not ~/.gem itself: ~/.gem/credentials holds the API key. */
	  { { "${GEM_HOME}", RO, ROOT, "installed gems" },
	    { "~/.gem/ruby", RO, ROOT, "gems installed with --user-install" },
	    { XDG_DATA "/gem", RO, ROOT, "gems installed with --user-install" } } },
	/* JVM */
	{ "java", { "JAVA_HOME" }, { NULL }, { { "${JAVA_HOME}", RO, ROOT, "the JDK" } } },
	{ "gradle",
	  { "GRADLE_USER_HOME" },
	  { "gradle" },
	  { { GRADLE "/caches", RW, CACHE, "dependency and build caches" },
	    { GRADLE "/wrapper", RW, CACHE, "the Gradle distributions the wrapper downloads" },
	    { GRADLE "/native", RW, 0, "native libraries" },
	    { GRADLE "/daemon", RW, 0, "the daemons' registry and logs" },
	    { GRADLE "/jdks", RO, 0, "provisioned JDKs" },
	    { GRADLE "/init.d", RO, 0, "init scripts" } } },
	{ "maven",
	  { "M2_HOME", "MAVEN_HOME" },
	  { "mvn" },
	  { { "~/.m2/repository", RW, CACHE, "the local repository" },
	    { "${MAVEN_HOME:-${M2_HOME}}", RO, ROOT, "maven itself" } } },
	/* Commands the user keeps in the home directory: read-only, as any
	 * PATH entry (what they link to elsewhere is not granted). */
	{ "local-bin",
	  { NULL },
	  { NULL },
	  { { "~/.local/bin", RO, ROOT, "the user's commands" },
	    { "~/bin", RO, ROOT, "the user's commands" } } },
};
const size_t lf_toolchain_table_len = sizeof(lf_toolchain_table) / sizeof(lf_toolchain_table[0]);

const struct lf_tool_path_rule lf_tool_path_table[] = {
	{ "npm", "/bin", "../lib/node_modules",
	  "the packages of the npm prefix whose bin is on PATH" },
	{ "npm", "/node_modules/.bin", "..",
	  "the packages of the npm install whose .bin is on PATH" },
};
const size_t lf_tool_path_table_len = sizeof(lf_tool_path_table) / sizeof(lf_tool_path_table[0]);

const struct lf_credential lf_credential_table[] = {
	{ "~/.ssh", "SSH keys" },
	{ "~/.gnupg", "GnuPG keys" },
	{ "~/.netrc", "logins for any host (curl, git, pip)" },
	{ "~/.git-credentials", "git's stored passwords and tokens" },
	{ XDG_CONFIG "/git/credentials", "git's stored passwords and tokens" },
	{ XDG_CONFIG "/gh/hosts.yml", "the GitHub CLI's token" },
	{ XDG_CONFIG "/hub", "hub's GitHub token" },
	{ "~/.aws", "AWS keys" },
	{ "~/.azure", "Azure tokens" },
	{ XDG_CONFIG "/gcloud", "Google Cloud credentials" },
	{ "~/.kube/config", "Kubernetes credentials" },
	{ "~/.docker/config.json", "container registry logins" },
	{ "~/.npmrc", "npm registry tokens" },
	{ "~/.yarnrc", "npm registry tokens (yarn)" },
	{ "~/.yarnrc.yml", "npm registry tokens (yarn 2+)" },
	{ "~/.bunfig.toml", "npm registry tokens (bun)" },
	{ "~/.pypirc", "PyPI upload tokens" },
	{ XDG_CONFIG "/pip/pip.conf", "index URLs with passwords (pip)" },
	{ "~/.pip/pip.conf", "index URLs with passwords (pip)" },
	{ "${POETRY_CONFIG_DIR:-" XDG_CONFIG "/pypoetry}/auth.toml",
	  "repository passwords (poetry)" },
	{ XDG_DATA "/uv/credentials", "index credentials (uv)" },
	{ CARGO "/credentials.toml", "crates.io tokens" },
	{ CARGO "/credentials", "crates.io tokens (older name)" },
	{ GRADLE "/gradle.properties", "repository and signing credentials (Gradle)" },
	{ "~/.m2/settings.xml", "repository passwords (Maven)" },
	{ "~/.m2/settings-security.xml", "the master password (Maven)" },
	{ "~/.gem/credentials", "the RubyGems API key" },
	{ "~/.terraform.d/credentials.tfrc.json", "Terraform Cloud tokens" },
	{ "~/.vault-token", "a Vault token" },
	{ XDG_DATA "/keyrings", "the desktop keyring" },
};
const size_t lf_credential_table_len = sizeof(lf_credential_table) / sizeof(lf_credential_table[0]);

const struct lf_toolchain *lf_toolchain_find(const char *name)
{
	for (size_t i = 0; name && i < lf_toolchain_table_len; i++)
		if (!strcmp(lf_toolchain_table[i].name, name))
			return &lf_toolchain_table[i];
	return NULL;
}

void lf_toolchain_list(char *buf, size_t size)
{
	size_t n = 0;

	if (!size)
		return;
	buf[0] = '\0';
	for (size_t i = 0; i < lf_toolchain_table_len && n < size; i++) {
		int w = snprintf(buf + n, size - n, "%s%s", i ? ", " : "",
				 lf_toolchain_table[i].name);
		if (w < 0)
			break;
		n += (size_t)w;
	}
}

/* The end of the "${...}" that starts at s (s[0] == '$'), braces nested:
 * the index of its '}', or 0 when it is not closed. */
static size_t brace_end(const char *s)
{
	size_t depth = 0;

	for (size_t i = 1; s[i]; i++) {
		if (s[i] == '{')
			depth++;
		else if (s[i] == '}' && --depth == 0)
			return i;
	}
	return 0;
}

/* A variable's value that counts: set, absolute, its first element. */
static char *var_value(const char *name, size_t len, lf_getenv_fn get, void *ctx)
{
	char buf[64];
	const char *v;

	if (len == 0 || len >= sizeof(buf) || !get)
		return NULL;
	memcpy(buf, name, len);
	buf[len] = '\0';
	v = get(ctx, buf);
	if (!v || v[0] != '/')
		return NULL;
	return strndup(v, strcspn(v, ":"));
}

int lf_tool_expand(const char *spec, const char *home, lf_getenv_fn get, void *ctx, char **out)
{
	char *head = NULL, *joined = NULL;
	const char *rest;
	int r;

	if (!spec || !out)
		return -EINVAL;
	if (spec[0] == '~') {
		if (spec[1] && spec[1] != '/')
			return -EINVAL; /* ~user is not supported */
		if (!home || home[0] != '/')
			return -ENOENT;
		head = strdup(home);
		rest = spec + 1;
	} else if (spec[0] == '$' && spec[1] == '{') {
		size_t end = brace_end(spec);
		const char *body = spec + 2, *dflt;
		size_t nlen;

		if (!end)
			return -EINVAL;
		dflt = strstr(body, ":-");
		nlen = dflt && dflt < spec + end ? (size_t)(dflt - body)
						 : (size_t)(spec + end - body);
		head = var_value(body, nlen, get, ctx);
		if (!head && dflt && dflt < spec + end) {
			char *fb = strndup(dflt + 2, (size_t)(spec + end - dflt - 2));

			if (!fb)
				return -ENOMEM;
			r = lf_tool_expand(fb, home, get, ctx, &head);
			free(fb);
			if (r < 0)
				return r;
		} else if (!head) {
			return -ENOENT;
		}
		rest = spec + end + 1;
	} else if (spec[0] == '/') {
		head = strdup("");
		rest = spec;
	} else {
		return -EINVAL;
	}
	if (!head)
		return -ENOMEM;
	if (rest[0] && rest[0] != '/') {
		free(head);
		return -EINVAL;
	}
	if (asprintf(&joined, "%s%s", head, rest) < 0)
		joined = NULL;
	free(head);
	if (!joined)
		return -ENOMEM;
	if (joined[0] != '/') {
		free(joined);
		return -EINVAL;
	}
	r = lf_path_clean_dup(joined, out);
	free(joined);
	return r;
}
