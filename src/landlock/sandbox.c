/* SPDX-License-Identifier: MIT */
/*
 * From plan to final rules (SPEC §3): every grant source is collected,
 * canonicalised, then fenced as a whole, so no source can reopen a fence.
 * Design choices are in doc/landlock.md.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/model.h"
#include "landlock/sandbox.h"
#include "landlock/syscall.h"

#define RO LF_ACCESS_RO
#define RW LF_ACCESS_RW

/* A grant before fencing: canonical path, classes, where it comes from. */
struct cand {
	char *path;
	unsigned access;
	bool ioctl_dev;	 /* terminal ioctls: only the three terminal paths */
	bool device;	 /* a /dev node: read and write, no make/remove/execute */
	signed char dir; /* a directory: 1 or 0 when readdir said so, -1 unknown */
	enum lf_origin origin;
	char *why;
};

/* The source shown for the built-in fence (plan: "fenced by ... at ..."). */
static const char config_fence_source[] = "landfence's own configuration (built in)";

/* A fence, lexical or canonical form of a plan fence. */
struct fence {
	char *path;
	size_t len; /* strlen(path): every candidate is compared with it */
	unsigned access;
	struct lf_source source;
};

/* A rule's path in short: every rule is compared with every other. */
struct rule_key {
	size_t len;
	uint32_t hash;
};

struct lf_sandbox {
	struct lf_abi_probe probe;
	int abi;
	struct lf_status status;
	uint64_t handled;
	uint64_t scoped;
	struct lf_final_rule *rules;
	bool *rule_dir;
	bool *rule_device;
	struct rule_key *rule_key;
	size_t nrules;
	size_t rules_cap;
	struct lf_final_dropped *dropped;
	size_t ndropped;
	size_t dropped_cap;
	char **notices;
	size_t nnotices;
	size_t notices_cap;
};

/* Build-time state, freed at the end of lf_sandbox_build. */
struct build {
	struct lf_sandbox *sb;
	const char *home; /* NULL: none known */
	char *config_dir; /* landfence's configuration directory, NULL: none */
	struct cand *cands;
	size_t ncands;
	size_t cands_cap;
	struct fence *fences;
	size_t nfences;
	size_t fences_cap;
	struct lf_diag *diag;
};

static int grow(void **v, size_t *cap, size_t n, size_t size)
{
	size_t ncap;
	void *nv;

	if (n < *cap)
		return 0;
	ncap = *cap ? *cap * 2 : 16;
	nv = reallocarray(*v, ncap, size);
	if (!nv)
		return -ENOMEM;
	*v = nv;
	*cap = ncap;
	return 0;
}

__attribute__((format(printf, 2, 3))) static void diag_set(struct lf_diag *d, const char *fmt, ...)
{
	va_list ap;

	if (!d)
		return;
	memset(d, 0, sizeof(*d));
	va_start(ap, fmt);
	vsnprintf(d->message, sizeof(d->message), fmt, ap);
	va_end(ap);
}

__attribute__((format(printf, 1, 2))) static char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;
	int r;

	va_start(ap, fmt);
	r = vasprintf(&s, fmt, ap);
	va_end(ap);
	return r < 0 ? NULL : s;
}

__attribute__((format(printf, 2, 3))) static int notice_add(struct lf_sandbox *sb, const char *fmt,
							    ...)
{
	va_list ap;
	char *s = NULL;
	int r;

	if (grow((void **)&sb->notices, &sb->notices_cap, sb->nnotices, sizeof(char *)) < 0)
		return -ENOMEM;
	va_start(ap, fmt);
	r = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (r < 0)
		return -ENOMEM;
	sb->notices[sb->nnotices++] = s;
	return 0;
}

/* Component-aware: a equals b, or one is a directory ancestor of the
 * other. Both absolute and canonical (no trailing '/' except "/").
 * Lengths given, as every candidate meets every fence: only the shorter
 * path can cover the longer, so one comparison decides (lf_path_covers
 * either way round, without the strlen). */
static bool path_overlap_n(const char *a, size_t alen, const char *b, size_t blen)
{
	if (alen > blen) {
		const char *t = a;
		size_t tl = alen;

		a = b;
		alen = blen;
		b = t;
		blen = tl;
	}
	if (alen == 1 && a[0] == '/')
		return b[0] == '/';
	return memcmp(a, b, alen) == 0 && (alen == blen || b[alen] == '/');
}

/* realpath of a path that may not exist: the longest existing ancestor is
 * resolved and the rest appended, so a fence on a place that does not exist
 * yet still lands where it would be created. */
static char *canon_lenient(const char *path)
{
	char *copy = strdup(path);
	size_t cut;
	char *out = NULL;

	if (!copy)
		return NULL;
	cut = strlen(copy);
	for (;;) {
		char saved = copy[cut];
		char *real;

		copy[cut] = '\0';
		real = realpath(cut ? copy : "/", NULL);
		copy[cut] = saved;
		if (real) {
			const char *rest = path + cut;

			if (!rest[0])
				out = real;
			else if (strcmp(real, "/") == 0)
				out = strdup(rest);
			else
				out = xasprintf("%s%s", real, rest);
			if (out != real)
				free(real);
			break;
		}
		if (errno == ENOMEM || cut == 0)
			break;
		/* Back to the '/' that ends the parent. */
		cut--;
		while (cut > 0 && copy[cut] != '/')
			cut--;
	}
	free(copy);
	return out;
}

/* Lexical clean-up of an absolute path: no "//", no trailing '/', so the
 * component-aware comparisons hold. */
static char *path_clean(const char *path)
{
	char *out = malloc(strlen(path) + 2);
	size_t n = 0;

	if (!out)
		return NULL;
	for (const char *c = path; *c; c++)
		if (*c != '/' || n == 0 || out[n - 1] != '/')
			out[n++] = *c;
	while (n > 1 && out[n - 1] == '/')
		n--;
	if (n == 0)
		out[n++] = '/';
	out[n] = '\0';
	return out;
}

static int fence_add(struct build *b, const char *raw, unsigned access, struct lf_source src)
{
	char *path = path_clean(raw);

	if (!path)
		return -ENOMEM;
	for (size_t i = 0; i < b->nfences; i++)
		if (b->fences[i].access == access && strcmp(b->fences[i].path, path) == 0) {
			free(path);
			return 0;
		}
	if (grow((void **)&b->fences, &b->fences_cap, b->nfences, sizeof(*b->fences)) < 0) {
		free(path);
		return -ENOMEM;
	}
	b->fences[b->nfences].path = path;
	b->fences[b->nfences].len = strlen(path);
	b->fences[b->nfences].access = access;
	b->fences[b->nfences].source = src;
	b->nfences++;
	return 0;
}

static int dropped_add(struct lf_sandbox *sb, const char *path, unsigned access,
		       enum lf_origin origin, const char *why, const struct fence *f,
		       const char *reason)
{
	struct lf_final_dropped *d;

	if (grow((void **)&sb->dropped, &sb->dropped_cap, sb->ndropped, sizeof(*sb->dropped)) < 0)
		return -ENOMEM;
	d = &sb->dropped[sb->ndropped];
	memset(d, 0, sizeof(*d));
	d->path = strdup(path);
	d->access = access;
	d->origin = origin;
	d->why = reason ? xasprintf("%s: %s", why, reason) : strdup(why);
	if (f) {
		d->fence = strdup(f->path);
		d->fence_source = f->source;
	}
	if (!d->path || !d->why || (f && !d->fence)) {
		free(d->path);
		free(d->why);
		free(d->fence);
		return -ENOMEM;
	}
	sb->ndropped++;
	return 0;
}

/* Adds a grant whose canonical path real (owned, freed on failure) is
 * known. */
static int cand_push(struct build *b, char *real, unsigned access, enum lf_origin origin,
		     const char *why, bool device, bool ioctl_dev)
{
	struct cand *c;

	if (grow((void **)&b->cands, &b->cands_cap, b->ncands, sizeof(*b->cands)) < 0) {
		free(real);
		return -ENOMEM;
	}
	c = &b->cands[b->ncands];
	c->path = real;
	c->access = access;
	c->device = device;
	c->dir = -1;
	/* Terminal ioctls only where the terminal really is, whatever a
	 * symlink in /dev says. */
	c->ioctl_dev =
		ioctl_dev && (strcmp(real, "/dev/tty") == 0 || strcmp(real, "/dev/ptmx") == 0 ||
			      lf_path_covers("/dev/pts", real));
	c->origin = origin;
	c->why = strdup(why);
	if (!c->why) {
		free(real);
		return -ENOMEM;
	}
	b->ncands++;
	return 0;
}

/* Adds a grant source. A path that does not resolve is skipped and
 * reported, never replaced by its parent. */
static int cand_add(struct build *b, const char *path, unsigned access, enum lf_origin origin,
		    const char *why, bool device, bool ioctl_dev)
{
	char *real = realpath(path, NULL);

	if (!real) {
		int e = errno;

		if (e == ENOMEM)
			return -ENOMEM;
		return dropped_add(b->sb, path, access, origin, why, NULL, strerror(e));
	}
	return cand_push(b, real, access, origin, why, device, ioctl_dev);
}

/* "~" and "~/x" from the home directory; other paths must be absolute. */
static int home_expand(struct build *b, const char *in, char **out)
{
	if (in[0] == '~' && (in[1] == '\0' || in[1] == '/')) {
		if (!b->home)
			return -ENOENT;
		*out = xasprintf("%s%s", b->home, in + 1);
		return *out ? 0 : -ENOMEM;
	}
	if (in[0] != '/')
		return -EINVAL;
	*out = strdup(in);
	return *out ? 0 : -ENOMEM;
}

/* ------------------------------------------------------------------------
 * Grant sources
 */

static const char *const host_ro[] = {
	"/usr",
	"/bin",
	"/sbin",
	"/lib",
	"/lib32",
	"/lib64",
	"/libx32",
	/* /etc is granted entry by entry (add_host_etc). */
	"/opt",
	"/proc",
	/* Resource limits and CPU topology: runtimes (Node, the JVM, Go)
	 * size their heaps and thread pools from them. */
	"/sys/fs/cgroup",
	"/sys/devices/system/cpu",
};

/* Read-only user files programs need to behave as outside: git's identity
 * and settings (without them every git command warns and commits fail). */
static const char *const host_home_ro[] = {
	"~/.gitconfig",
	"~/.config/git",
};

/* What /etc must not show the program, even run as root: password
 * hashes, sudo rules, TLS and SSH host private keys, old passwords. A
 * directory holding one of them is granted entry by entry (etc_split).
 * Each entry starts "/etc/s" or "/etc/g": etc_is_hidden relies on it. */
static const char *const etc_hidden[] = {
	"/etc/shadow",	    "/etc/shadow-",	     "/etc/gshadow",
	"/etc/gshadow-",    "/etc/sudoers",	     "/etc/sudoers.d",
	"/etc/ssl/private", "/etc/security/opasswd", "/etc/ssh/ssh_host_*_key",
};

static const char *const etc_split[] = {
	"/etc",
	"/etc/ssl",
	"/etc/ssh",
	"/etc/security",
};

static bool etc_is_hidden(const char *path)
{
	/* Every entry of etc_hidden is "/etc/" then 's' or 'g' (literal up to
	 * its '*'), and a path matches or sits below one only if it starts
	 * with the same bytes: most of /etc needs no fnmatch. */
	if (strncmp(path, "/etc/", 5) != 0 || (path[5] != 's' && path[5] != 'g'))
		return false;
	for (size_t i = 0; i < sizeof(etc_hidden) / sizeof(etc_hidden[0]); i++) {
		const char *h = etc_hidden[i];
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

/* Whether path is, or holds, a directory that must be split. */
static bool etc_holds_hidden(const char *path)
{
	for (size_t i = 0; i < sizeof(etc_split) / sizeof(etc_split[0]); i++)
		if (lf_path_covers(path, etc_split[i]))
			return true;
	return false;
}

/* Grants dir's entries read-only one by one, leaving out the hidden ones
 * and going down into the directories that hold one. An entry is judged
 * by its name and by where it leads (a symlink to /etc/shadow is
 * /etc/shadow). Entries created after this walk are not granted. */
static int add_host_etc(struct build *b, const char *dir, unsigned depth)
{
	DIR *d;
	struct dirent *e;
	int r = 0;

	if (depth == 0) {
		/* Entries of a canonical /etc that are not links need no
		 * realpath (a launch walks ~200 of them). */
		char *real = realpath(dir, NULL);

		if (!real || strcmp(real, dir) != 0) {
			free(real);
			return errno == ENOMEM ? -ENOMEM : 0;
		}
		free(real);
	}
	d = opendir(dir);
	if (!d)
		return errno == ENOMEM ? -ENOMEM : 0;
	size_t dlen = strlen(dir);

	while (r == 0 && (e = readdir(d))) {
		char *path, *real;
		size_t nlen;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		/* dir "/" name, without a printf per entry. */
		nlen = strlen(e->d_name);
		path = malloc(dlen + nlen + 2);
		if (!path) {
			r = -ENOMEM;
			break;
		}
		memcpy(path, dir, dlen);
		path[dlen] = '/';
		memcpy(path + dlen + 1, e->d_name, nlen + 1);
		if (e->d_type == DT_REG || e->d_type == DT_DIR)
			real = strdup(path);
		else
			real = realpath(path, NULL);
		if (!real) {
			/* A dangling link grants nothing. */
			r = errno == ENOMEM ? -ENOMEM : 0;
			free(path);
			continue;
		}
		if (etc_is_hidden(path) || etc_is_hidden(real)) {
			/* left out */
		} else if (etc_holds_hidden(path) || etc_holds_hidden(real)) {
			/* Only a real directory at its own name is split; a
			 * link to one holding secrets is left out. */
			if (!strcmp(path, real) && depth < 2)
				r = add_host_etc(b, path, depth + 1);
		} else {
			r = cand_push(b, real, RO, LF_ORIGIN_HOST, "host: system configuration",
				      false, false);
			real = NULL;
			/* d_type saves rule_push a stat per entry. */
			if (r == 0 && (e->d_type == DT_REG || e->d_type == DT_DIR))
				b->cands[b->ncands - 1].dir = e->d_type == DT_DIR;
		}
		free(real);
		free(path);
	}
	closedir(d);
	return r;
}

static const char *const dev_rw[] = {
	"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom",
};

static const char *const dev_tty[] = {
	"/dev/tty",
	"/dev/ptmx",
	"/dev/pts",
};

struct profile_path {
	const char *path;
	unsigned access;
};

struct profile {
	const char *name;
	struct profile_path paths[10];
};

/* Config and cache places each agent writes (their documentation and
 * observed behaviour). Programs' own binaries stay read-only. */
static const struct profile profiles[] = {
	{ "claude",
	  { { "~/.claude", RO | RW },
	    /* Saved in place: see doc/landlock.md, "The claude profile". */
	    { "~/.claude.json", RO | RW },
	    { "~/.claude.json.backup", RO | RW },
	    { "~/.cache/claude", RO | RW },
	    { "~/.cache/claude-cli-nodejs", RO | RW },
	    { "~/.local/state/claude", RO | RW },
	    { "~/.local/share/claude", RO },
	    { NULL, 0 } } },
	{ "codex", { { "~/.codex", RO | RW }, { "~/.cache/codex", RO | RW }, { NULL, 0 } } },
	{ "gemini", { { "~/.gemini", RO | RW }, { "~/.cache/gemini", RO | RW }, { NULL, 0 } } },
	{ "aider",
	  { { "~/.aider", RO | RW },
	    { "~/.aider.conf.yml", RO },
	    { "~/.aider.model.settings.yml", RO },
	    { "~/.aider.model.metadata.json", RO },
	    { NULL, 0 } } },
};

bool lf_profile_known(const char *name)
{
	if (!name)
		return false;
	for (size_t i = 0; i < sizeof(profiles) / sizeof(profiles[0]); i++)
		if (strcmp(profiles[i].name, name) == 0)
			return true;
	return false;
}

const char *lf_profile_name(size_t i)
{
	return i < sizeof(profiles) / sizeof(profiles[0]) ? profiles[i].name : NULL;
}

static int add_profile(struct build *b, const char *name)
{
	const struct profile *p = NULL;
	char why[128];

	for (size_t i = 0; i < sizeof(profiles) / sizeof(profiles[0]); i++)
		if (strcmp(profiles[i].name, name) == 0)
			p = &profiles[i];
	if (!p) {
		diag_set(b->diag,
			 "unknown profile \"%s\", expected one of claude, codex, gemini, aider",
			 name);
		return -EINVAL;
	}
	snprintf(why, sizeof(why), "profile %s", name);
	for (const struct profile_path *pp = p->paths; pp->path; pp++) {
		char *path = NULL;
		int r = home_expand(b, pp->path, &path);

		if (r == -ENOENT) {
			r = dropped_add(b->sb, pp->path, pp->access, LF_ORIGIN_PROFILE, why, NULL,
					"no home directory");
			if (r < 0)
				return r;
			continue;
		}
		if (r < 0)
			return r;
		r = cand_add(b, path, pp->access, LF_ORIGIN_PROFILE, why, false, false);
		free(path);
		if (r < 0)
			return r;
	}
	return 0;
}

static int add_profiles(struct build *b, const struct lf_effective *eff,
			const struct lf_sandbox_opts *o)
{
	const char *seen[64];
	size_t nseen = 0;
	size_t nlayers = eff ? eff->nlayers : 0;
	int r;

	for (size_t pass = 0; pass <= nlayers; pass++) {
		const char *const *names;
		size_t n;

		if (pass == 0) {
			names = o->profiles;
			n = o->profiles ? o->nprofiles : 0;
		} else {
			const struct lf_policy *pol = eff->layers[pass - 1];

			names = (const char *const *)pol->profiles.v;
			n = pol->profiles.n;
		}
		for (size_t i = 0; i < n; i++) {
			bool dup = false;

			if (!names[i]) {
				diag_set(b->diag, "profile name is NULL");
				return -EINVAL;
			}
			for (size_t j = 0; j < nseen; j++)
				dup = dup || strcmp(seen[j], names[i]) == 0;
			if (dup)
				continue;
			if (nseen < sizeof(seen) / sizeof(seen[0]))
				seen[nseen++] = names[i];
			r = add_profile(b, names[i]);
			if (r < 0)
				return r;
		}
	}
	return 0;
}

static int add_host_policy(struct build *b, const struct lf_effective *eff)
{
	if (!eff)
		return 0;
	for (size_t l = 0; l < eff->nlayers; l++) {
		const struct lf_policy *pol = eff->layers[l];

		for (int w = 0; w < 2; w++) {
			const struct lf_strv *sv = w ? &pol->host_write : &pol->host_read;
			/* Writing a place one cannot read is no use: host.write
			 * grants both. */
			unsigned access = w ? RO | RW : RO;

			for (size_t i = 0; i < sv->n; i++) {
				char *path = NULL;
				char *why;
				int r = home_expand(b, sv->v[i], &path);

				if (r == -EINVAL || r == -ENOENT) {
					diag_set(b->diag, "%s: host.%s \"%s\": %s",
						 pol->file ? pol->file : "", w ? "write" : "read",
						 sv->v[i],
						 r == -EINVAL ? "must be absolute or start with ~/"
							      : "no home directory to expand ~");
					return -EINVAL;
				}
				if (r < 0)
					return r;
				why = xasprintf("host.%s %s (%s)", w ? "write" : "read", sv->v[i],
						pol->file ? pol->file : "policy");
				if (!why) {
					free(path);
					return -ENOMEM;
				}
				r = cand_add(b, path, access, LF_ORIGIN_HOST_POLICY, why, false,
					     false);
				free(path);
				free(why);
				if (r < 0)
					return r;
			}
		}
	}
	return 0;
}

static int add_host_defaults(struct build *b, const struct lf_sandbox_opts *o)
{
	int r;

	for (size_t i = 0; i < sizeof(host_ro) / sizeof(host_ro[0]); i++) {
		/* A default that does not exist on this machine (/libx32) is
		 * not news: left out of the dropped list. */
		if (access(host_ro[i], F_OK) < 0 && errno == ENOENT)
			continue;
		r = cand_add(b, host_ro[i], RO, LF_ORIGIN_HOST, "host: system directory", false,
			     false);
		if (r < 0)
			return r;
	}
	r = add_host_etc(b, "/etc", 0);
	if (r < 0)
		return r;
	/* landfence's own configuration (user policy, trust store): readable
	 * so that `landfence hook` and `check` work inside the sandbox;
	 * never writable (fence_config). */
	if (b->config_dir && access(b->config_dir, F_OK) == 0) {
		r = cand_add(b, b->config_dir, RO, LF_ORIGIN_HOST,
			     "host: landfence configuration (read-only)", false, false);
		if (r < 0)
			return r;
	}
	for (size_t i = 0; i < sizeof(host_home_ro) / sizeof(host_home_ro[0]); i++) {
		char *path = NULL;

		r = home_expand(b, host_home_ro[i], &path);
		if (r == -ENOENT)
			continue;
		if (r < 0)
			return r;
		if (access(path, F_OK) < 0 && errno == ENOENT) {
			free(path);
			continue;
		}
		r = cand_add(b, path, RO, LF_ORIGIN_HOST, "host: git configuration", false, false);
		free(path);
		if (r < 0)
			return r;
	}
	for (size_t i = 0; i < sizeof(dev_rw) / sizeof(dev_rw[0]); i++) {
		if (access(dev_rw[i], F_OK) < 0 && errno == ENOENT)
			continue;
		r = cand_add(b, dev_rw[i], RO | RW, LF_ORIGIN_DEVICE, "host: device", true, false);
		if (r < 0)
			return r;
	}
	for (size_t i = 0; i < sizeof(dev_tty) / sizeof(dev_tty[0]); i++) {
		if (access(dev_tty[i], F_OK) < 0 && errno == ENOENT)
			continue;
		r = cand_add(b, dev_tty[i], RO | RW, LF_ORIGIN_DEVICE, "host: terminal", true,
			     true);
		if (r < 0)
			return r;
	}
	if (o->run_dir) {
		r = cand_add(b, o->run_dir, RO | RW, LF_ORIGIN_RUN_DIR, "run directory (TMPDIR)",
			     false, false);
		if (r < 0)
			return r;
	}
	return 0;
}

/* ------------------------------------------------------------------------
 * Fencing and merging
 */

static struct rule_key rule_key_of(const char *path)
{
	/* FNV-1a: only a cheap filter before the full comparison. */
	struct rule_key k = { 0, 2166136261u };

	for (; path[k.len]; k.len++)
		k.hash = (k.hash ^ (unsigned char)path[k.len]) * 16777619u;
	return k;
}

/* Whether rule a's path is a strict ancestor of rule f's. */
static bool rule_above(const struct lf_sandbox *sb, size_t a, size_t f)
{
	size_t al = sb->rule_key[a].len, fl = sb->rule_key[f].len;
	const char *ap = sb->rules[a].path, *fp = sb->rules[f].path;

	/* As strcmp(ap, fp) != 0 && lf_path_covers(ap, fp): only a shorter
	 * path can cover another one strictly. */
	if (al >= fl)
		return false;
	if (al == 1 && ap[0] == '/')
		return fp[0] == '/';
	return fp[al] == '/' && memcmp(ap, fp, al) == 0;
}

static int rule_push(struct lf_sandbox *sb, const struct cand *c, unsigned access)
{
	struct lf_final_rule *fr;
	struct stat st;
	struct rule_key key = rule_key_of(c->path);

	for (size_t i = 0; i < sb->nrules; i++) {
		fr = &sb->rules[i];
		if (sb->rule_key[i].hash != key.hash || sb->rule_key[i].len != key.len ||
		    memcmp(fr->path, c->path, key.len) != 0)
			continue;
		/* Same place from several sources: union, remember each. */
		fr->access |= access;
		fr->ioctl_dev = fr->ioctl_dev || c->ioctl_dev;
		sb->rule_device[i] = sb->rule_device[i] && c->device;
		if (!strstr(fr->why, c->why)) {
			char *why = xasprintf("%s; %s", fr->why, c->why);

			if (!why)
				return -ENOMEM;
			free(fr->why);
			fr->why = why;
		}
		return 0;
	}
	size_t old_cap = sb->rules_cap;

	if (grow((void **)&sb->rules, &sb->rules_cap, sb->nrules, sizeof(*sb->rules)) < 0)
		return -ENOMEM;
	if (sb->rules_cap != old_cap) {
		bool *d = reallocarray(sb->rule_dir, sb->rules_cap, sizeof(bool));

		if (!d)
			return -ENOMEM;
		sb->rule_dir = d;
		d = reallocarray(sb->rule_device, sb->rules_cap, sizeof(bool));
		if (!d)
			return -ENOMEM;
		sb->rule_device = d;

		struct rule_key *k = reallocarray(sb->rule_key, sb->rules_cap, sizeof(*k));

		if (!k)
			return -ENOMEM;
		sb->rule_key = k;
	}
	fr = &sb->rules[sb->nrules];
	memset(fr, 0, sizeof(*fr));
	fr->path = strdup(c->path);
	fr->why = strdup(c->why);
	if (!fr->path || !fr->why) {
		free(fr->path);
		free(fr->why);
		return -ENOMEM;
	}
	fr->access = access;
	fr->ioctl_dev = c->ioctl_dev;
	fr->origin = c->origin;
	/* A type that changes before the ruleset is made is caught there:
	 * lf_sandbox_ruleset_fd judges the path as it is then. */
	if (c->dir >= 0)
		sb->rule_dir[sb->nrules] = c->dir;
	else
		sb->rule_dir[sb->nrules] = stat(c->path, &st) == 0 && S_ISDIR(st.st_mode);
	sb->rule_device[sb->nrules] = c->device;
	sb->rule_key[sb->nrules] = key;
	sb->nrules++;
	return 0;
}

/* Removes from c every class a fence of that class overlaps, reporting
 * each; pushes what remains. */
static int cand_fence(struct build *b, const struct cand *c)
{
	unsigned keep = c->access;
	size_t clen = strlen(c->path);
	int r;

	for (unsigned cls = RO; cls <= RW; cls <<= 1) {
		if (!(c->access & cls))
			continue;
		for (size_t i = 0; i < b->nfences; i++) {
			const struct fence *f = &b->fences[i];

			if (f->access != cls || !path_overlap_n(c->path, clen, f->path, f->len))
				continue;
			keep &= ~cls;
			r = dropped_add(b->sb, c->path, cls, c->origin, c->why, f, NULL);
			if (r == 0 && f->source.file == config_fence_source)
				r = notice_add(
					b->sb,
					"write access to %s (%s) dropped: it covers "
					"landfence's configuration %s, which stays read-only",
					c->path, c->why, f->path);
			if (r < 0)
				return r;
			break;
		}
	}
	if (!keep)
		return 0;
	return rule_push(b->sb, c, keep);
}

/* Default host grants that resolve below another one carrying the same
 * classes ("/bin" is "/usr/bin" on merged-/usr systems) add nothing: fold
 * them so the listing shows what the kernel gets. Only default host grants
 * are folded, so every other source stays visible. */
static int rules_fold_host(struct lf_sandbox *sb)
{
	bool *fold = calloc(sb->nrules ? sb->nrules : 1, sizeof(bool));
	size_t out = 0;

	if (!fold)
		return -ENOMEM;
	/* Decide on the whole list first, then compact. */
	for (size_t i = 0; i < sb->nrules; i++) {
		const struct lf_final_rule *fr = &sb->rules[i];

		for (size_t j = 0; j < sb->nrules && fr->origin == LF_ORIGIN_HOST && !fold[i];
		     j++) {
			const struct lf_final_rule *a = &sb->rules[j];

			fold[i] = j != i && a->origin == LF_ORIGIN_HOST && sb->rule_dir[j] &&
				  (a->access & fr->access) == fr->access && rule_above(sb, j, i);
		}
	}
	for (size_t i = 0; i < sb->nrules; i++) {
		if (fold[i]) {
			free(sb->rules[i].path);
			free(sb->rules[i].why);
			continue;
		}
		sb->rules[out] = sb->rules[i];
		sb->rule_dir[out] = sb->rule_dir[i];
		sb->rule_device[out] = sb->rule_device[i];
		sb->rule_key[out] = sb->rule_key[i];
		out++;
	}
	sb->nrules = out;
	free(fold);
	return 0;
}

static bool rules_cover(const struct lf_sandbox *sb, const char *path, unsigned access)
{
	for (size_t i = 0; i < sb->nrules; i++)
		if ((sb->rules[i].access & access) == access &&
		    lf_path_covers(sb->rules[i].path, path))
			return true;
	return false;
}

/* The interpreter of a "#!" script, or NULL. */
static char *script_interpreter(const char *path)
{
	char buf[256];
	ssize_t n;
	char *s;
	char *e;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);

	if (fd < 0)
		return NULL;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < 3 || buf[0] != '#' || buf[1] != '!')
		return NULL;
	buf[n] = '\0';
	s = buf + 2;
	while (*s == ' ' || *s == '\t')
		s++;
	e = s;
	while (*e && *e != ' ' && *e != '\t' && *e != '\n')
		e++;
	*e = '\0';
	if (s[0] != '/')
		return NULL;
	return strdup(s);
}

/* The command, then its interpreter, granted read+execute when no
 * surviving rule lets them be read. Fenced like every grant. */
static int add_command(struct build *b, const char *command)
{
	const char *what[2] = { "the command", "interpreter of the command" };
	char *paths[2] = { NULL, NULL };
	int r = 0;

	if (!command)
		return 0;
	paths[0] = realpath(command, NULL);
	if (!paths[0])
		return errno == ENOMEM ? -ENOMEM : 0;
	paths[1] = script_interpreter(paths[0]);
	if (paths[1]) {
		/* "#!/bin/sh" is /usr/bin/dash where /bin is folded into /usr. */
		char *real = realpath(paths[1], NULL);

		if (real) {
			free(paths[1]);
			paths[1] = real;
		}
	}
	for (int i = 0; i < 2 && r == 0; i++) {
		size_t before;

		if (!paths[i] || rules_cover(b->sb, paths[i], RO))
			continue;
		before = b->ncands;
		r = cand_add(b, paths[i], RO, LF_ORIGIN_COMMAND, what[i], false, false);
		if (r < 0 || b->ncands == before)
			continue;
		r = cand_fence(b, &b->cands[b->ncands - 1]);
		if (r == 0 && rules_cover(b->sb, b->cands[b->ncands - 1].path, RO))
			r = notice_add(b->sb,
				       "granted read+execute on %s (%s), outside the host grants",
				       b->cands[b->ncands - 1].path, what[i]);
	}
	free(paths[0]);
	free(paths[1]);
	return r;
}

static int fences_collect(struct build *b, const struct lf_plan *plan)
{
	size_t n = lf_plan_fence_count(plan);
	int r;

	for (size_t i = 0; i < n; i++) {
		const struct lf_fence *f = lf_plan_fence(plan, i);
		char *canon;
		struct stat st;

		if (!f || !f->abs_root)
			continue;
		/* Both forms: the written place and where it really is. */
		r = fence_add(b, f->abs_root, f->access, f->source);
		if (r < 0)
			return r;
		canon = canon_lenient(f->abs_root);
		if (!canon)
			return -ENOMEM;
		r = fence_add(b, canon, f->access, f->source);
		if (r == 0 && lstat(canon, &st) == 0 && S_ISREG(st.st_mode) && st.st_nlink > 1)
			r = notice_add(
				b->sb,
				"fenced file %s has %lu hard links: Landlock fences the "
				"file's names below granted directories, not its other links",
				canon, (unsigned long)st.st_nlink);
		free(canon);
		if (r < 0)
			return r;
	}
	return 0;
}

/* landfence's configuration directory ($XDG_CONFIG_HOME/landfence, else
 * ~/.config/landfence) holds the user policy and the trust store: a
 * program that could write it would approve any policy for the next run.
 * It is a write fence like a policy's, so every grant that covers it (a
 * project rooted at $HOME, host.write ~/.config) loses write, and
 * plan reports it. */
static int fence_config(struct build *b)
{
	const char *xdg = secure_getenv("XDG_CONFIG_HOME");
	struct lf_source src = { .file = config_fence_source };
	char *canon;
	int r;

	if (xdg && xdg[0] == '/')
		b->config_dir = xasprintf("%s/landfence", xdg);
	else if (b->home)
		b->config_dir = xasprintf("%s/.config/landfence", b->home);
	else
		return 0;
	if (!b->config_dir)
		return -ENOMEM;
	r = fence_add(b, b->config_dir, RW, src);
	if (r < 0)
		return r;
	canon = canon_lenient(b->config_dir);
	if (!canon)
		return -ENOMEM;
	r = fence_add(b, canon, RW, src);
	free(canon);
	return r;
}

static void status_set(struct lf_sandbox *sb, enum lf_status_kind kind, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void status_set(struct lf_sandbox *sb, enum lf_status_kind kind, const char *fmt, ...)
{
	va_list ap;

	sb->status.kind = kind;
	sb->status.reason[0] = '\0';
	if (!fmt)
		return;
	va_start(ap, fmt);
	vsnprintf(sb->status.reason, sizeof(sb->status.reason), fmt, ap);
	va_end(ap);
}

static int status_compute(struct lf_sandbox *sb)
{
	bool all_writable = false;
	int r = 0;

	for (size_t i = 0; i < sb->nrules; i++)
		if (strcmp(sb->rules[i].path, "/") == 0 && (sb->rules[i].access & RW))
			all_writable = true;

	if (sb->abi == 0) {
		if (sb->probe.kernel > 0)
			status_set(sb, LF_STATUS_UNSUPPORTED,
				   "Landlock turned off by the ABI cap (LANDFENCE_ABI_MAX=0)");
		else if (sb->probe.err == EOPNOTSUPP)
			status_set(sb, LF_STATUS_UNSUPPORTED,
				   "Landlock is built into this kernel but not enabled");
		else
			status_set(sb, LF_STATUS_UNSUPPORTED, "this kernel has no Landlock");
		if (lf_landlock_hint(sb->probe.err))
			r = notice_add(sb, "%s", lf_landlock_hint(sb->probe.err));
		return r;
	}
	if (sb->abi < 3 && !all_writable)
		status_set(sb, LF_STATUS_DEGRADED,
			   "truncate is not enforced below Landlock ABI 3 (ABI %d): truncate(2) "
			   "and O_TRUNC work on any file the program can reach",
			   sb->abi);
	else
		status_set(sb, LF_STATUS_ENFORCED, NULL);

	if (sb->probe.kernel > LF_LANDLOCK_ABI_KNOWN && sb->abi == sb->probe.kernel)
		r = r
			    ?: notice_add(sb,
					  "kernel Landlock ABI %d is newer than %d: used as ABI %d",
					  sb->abi, LF_LANDLOCK_ABI_KNOWN, LF_LANDLOCK_ABI_KNOWN);
	if (sb->abi < 2)
		r = r
			    ?: notice_add(sb,
					  "Landlock ABI 1: renaming or linking a file into another "
					  "directory is always refused (no REFER right)");
	if (sb->abi < 5)
		r = r
			    ?: notice_add(sb,
					  "Landlock ABI %d: ioctls on devices are not restricted "
					  "(IOCTL_DEV needs ABI 5)",
					  sb->abi);
	if (sb->abi < 6)
		r = r
			    ?: notice_add(
				       sb,
				       "Landlock ABI %d: abstract UNIX sockets and signals are not "
				       "scoped to the sandbox (needs ABI 6)",
				       sb->abi);
	return r;
}

static void build_fini(struct build *b)
{
	for (size_t i = 0; i < b->ncands; i++) {
		free(b->cands[i].path);
		free(b->cands[i].why);
	}
	free(b->cands);
	for (size_t i = 0; i < b->nfences; i++)
		free(b->fences[i].path);
	free(b->fences);
	free(b->config_dir);
}

int lf_sandbox_build(const struct lf_effective *eff, const struct lf_plan *plan,
		     const struct lf_sandbox_opts *o, struct lf_sandbox **out, struct lf_diag *diag)
{
	struct build b = { .diag = diag };
	struct lf_sandbox *sb;
	lf_posture posture;
	int r;

	if (!plan || !o || !out || !o->project_root || o->project_root[0] != '/') {
		diag_set(diag, "sandbox: a plan and an absolute project root are required");
		return -EINVAL;
	}
	sb = calloc(1, sizeof(*sb));
	if (!sb)
		return -ENOMEM;
	b.sb = sb;
	r = lf_landlock_probe(o->abi_max, &sb->probe);
	if (r == -EINVAL) {
		diag_set(diag, "LANDFENCE_ABI_MAX must be a number >= 0");
		goto fail;
	}
	if (r < 0) {
		diag_set(diag, "Landlock ABI probe failed: %s", strerror(-r));
		goto fail;
	}
	sb->abi = sb->probe.abi;
	sb->handled = lf_landlock_handled_fs(sb->abi);
	sb->scoped = lf_landlock_scoped(sb->abi);

	b.home = o->home ? o->home : secure_getenv("HOME");
	if (b.home && b.home[0] != '/')
		b.home = NULL;

	r = fences_collect(&b, plan);
	if (r < 0)
		goto fail;
	r = fence_config(&b);
	if (r < 0)
		goto fail;

	/* Every source first; fences after, on canonical paths. */
	for (size_t i = 0; i < lf_plan_grant_count(plan); i++) {
		const struct lf_grant *g = lf_plan_grant(plan, i);

		if (!g || !g->abs_root || !(g->access & (RO | RW)))
			continue;
		r = cand_add(&b, g->abs_root, g->access & (RO | RW), LF_ORIGIN_POLICY,
			     "policy allow", false, false);
		if (r < 0)
			goto fail;
	}
	posture = lf_plan_default_posture(plan);
	if (posture == LF_ALLOW) {
		r = cand_add(&b, o->project_root, RO | RW, LF_ORIGIN_FALLBACK,
			     "fallback allow (an implicit allow ** for each class)", false, false);
		if (r < 0)
			goto fail;
	}
	r = add_host_defaults(&b, o);
	if (r < 0)
		goto fail;
	r = add_host_policy(&b, eff);
	if (r < 0)
		goto fail;
	r = add_profiles(&b, eff, o);
	if (r < 0)
		goto fail;
	for (size_t i = 0; i < b.ncands; i++) {
		r = cand_fence(&b, &b.cands[i]);
		if (r < 0)
			goto fail;
	}
	r = rules_fold_host(sb);
	if (r < 0)
		goto fail;
	r = add_command(&b, o->command);
	if (r < 0)
		goto fail;

	for (size_t i = 0; i < sb->nrules; i++) {
		struct lf_final_rule *fr = &sb->rules[i];

		fr->landlock =
			lf_landlock_rights(fr->access, sb->rule_dir[i], fr->ioctl_dev, sb->abi);
		if (sb->rule_device[i])
			fr->landlock &= LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR |
					LANDLOCK_ACCESS_FS_WRITE_FILE |
					LANDLOCK_ACCESS_FS_TRUNCATE | LANDLOCK_ACCESS_FS_IOCTL_DEV;
	}

	r = status_compute(sb);
	if (r < 0)
		goto fail;
	if (posture == LF_DENY && sb->status.kind != LF_STATUS_ENFORCED) {
		diag_set(diag, "KernelTooOld: fallback deny cannot be fully enforced: %s",
			 sb->status.reason);
		r = -EOPNOTSUPP;
		goto fail;
	}
	build_fini(&b);
	*out = sb;
	return 0;
fail:
	build_fini(&b);
	lf_sandbox_free(sb);
	return r;
}

void lf_sandbox_free(struct lf_sandbox *sb)
{
	if (!sb)
		return;
	for (size_t i = 0; i < sb->nrules; i++) {
		free(sb->rules[i].path);
		free(sb->rules[i].why);
	}
	free(sb->rules);
	free(sb->rule_dir);
	free(sb->rule_device);
	free(sb->rule_key);
	for (size_t i = 0; i < sb->ndropped; i++) {
		free(sb->dropped[i].path);
		free(sb->dropped[i].why);
		free(sb->dropped[i].fence);
	}
	free(sb->dropped);
	for (size_t i = 0; i < sb->nnotices; i++)
		free(sb->notices[i]);
	free(sb->notices);
	free(sb);
}

int lf_sandbox_abi(const struct lf_sandbox *sb)
{
	return sb->abi;
}

const struct lf_status *lf_sandbox_status(const struct lf_sandbox *sb)
{
	return &sb->status;
}

uint64_t lf_sandbox_handled(const struct lf_sandbox *sb)
{
	return sb->handled;
}

uint64_t lf_sandbox_scoped(const struct lf_sandbox *sb)
{
	return sb->scoped;
}

size_t lf_sandbox_rule_count(const struct lf_sandbox *sb)
{
	return sb->nrules;
}

const struct lf_final_rule *lf_sandbox_rule(const struct lf_sandbox *sb, size_t i)
{
	return i < sb->nrules ? &sb->rules[i] : NULL;
}

size_t lf_sandbox_dropped_count(const struct lf_sandbox *sb)
{
	return sb->ndropped;
}

const struct lf_final_dropped *lf_sandbox_dropped(const struct lf_sandbox *sb, size_t i)
{
	return i < sb->ndropped ? &sb->dropped[i] : NULL;
}

size_t lf_sandbox_notice_count(const struct lf_sandbox *sb)
{
	return sb->nnotices;
}

const char *lf_sandbox_notice(const struct lf_sandbox *sb, size_t i)
{
	return i < sb->nnotices ? sb->notices[i] : NULL;
}

/* A rule adds nothing when a directory rule above it already carries all
 * its rights (Landlock unions the rules of every ancestor). */
static bool rule_redundant(const struct lf_sandbox *sb, size_t i)
{
	const struct lf_final_rule *fr = &sb->rules[i];

	for (size_t j = 0; j < sb->nrules; j++) {
		const struct lf_final_rule *a = &sb->rules[j];

		if (j == i || !sb->rule_dir[j] || (a->landlock & fr->landlock) != fr->landlock)
			continue;
		if (rule_above(sb, j, i))
			return true;
	}
	return false;
}

int lf_sandbox_ruleset_fd(const struct lf_sandbox *sb, int *fd, struct lf_diag *diag)
{
	struct lf_ruleset_attr attr = { 0 };
	size_t size;
	int rfd;

	if (!sb || !fd) {
		diag_set(diag, "sandbox: no sandbox");
		return -EINVAL;
	}
	if (sb->abi == 0) {
		*fd = -1;
		return 0;
	}
	attr.handled_access_fs = sb->handled;
	attr.handled_access_net = 0; /* the network stays open: doc/landlock.md */
	attr.scoped = sb->scoped;
	/* Pass only the fields the ABI knows, as an older kernel expects. */
	size = sb->abi < 4 ? sizeof(uint64_t) : sb->abi < 6 ? 2 * sizeof(uint64_t) : sizeof(attr);
	rfd = lf_sys_landlock_create_ruleset(&attr, size, 0);
	if (rfd < 0) {
		int e = errno;

		diag_set(diag, "landlock_create_ruleset: %s", strerror(e));
		return -e;
	}
	for (size_t i = 0; i < sb->nrules; i++) {
		const struct lf_final_rule *fr = &sb->rules[i];
		struct landlock_path_beneath_attr pb;
		struct stat st;
		uint64_t rights = fr->landlock;
		int pfd;

		if (!rights || rule_redundant(sb, i))
			continue;
		pfd = open(fr->path, O_PATH | O_CLOEXEC | O_NOFOLLOW);
		if (pfd < 0) {
			int e = errno;

			/* Gone since the build: losing an allow is safe. */
			if (e == ENOENT)
				continue;
			diag_set(diag, "%s: %s", fr->path, strerror(e));
			close(rfd);
			return -e;
		}
		if (fstat(pfd, &st) < 0 || S_ISLNK(st.st_mode)) {
			/* Replaced by a symlink since the build: skip it. */
			close(pfd);
			continue;
		}
		/* What the path is now decides, not what it was. */
		if (!S_ISDIR(st.st_mode))
			rights &= LF_LANDLOCK_FILE_RIGHTS;
		if (!rights) {
			close(pfd);
			continue;
		}
		pb.allowed_access = rights;
		pb.parent_fd = pfd;
		if (lf_sys_landlock_add_rule(rfd, LANDLOCK_RULE_PATH_BENEATH, &pb, 0) < 0) {
			int e = errno;

			diag_set(diag, "landlock_add_rule %s: %s", fr->path, strerror(e));
			close(pfd);
			close(rfd);
			return -e;
		}
		close(pfd);
	}
	*fd = rfd;
	return 0;
}
