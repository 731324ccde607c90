/* SPDX-License-Identifier: MIT */
/*
 * The post-run report (landfence.h, lf_snapshot_take): what the program
 * changed where code runs later outside the sandbox. Before launch, every
 * persistence path the sandbox value leaves writable (every git
 * directory's hooks and config included) and everything below the
 * persistence directories among them (.git/hooks but git's samples,
 * .claude/hooks, .cursor, .devcontainer, ~/.config/systemd, ...; not below
 * the places the owning
 * tool writes as it runs): existence, type and mode, owner, links, size,
 * mtime, inode, the change time, and the content of regular files (a
 * SHA-256 of the first SNAP_HASH_MAX bytes). After the program, the same
 * again, compared. The change time cannot be set back by the program
 * (utimes sets mtime and atime only; the clock is not the program's to
 * set), so a rewrite at the same size with the mtime restored is seen.
 *
 * A JSON file its tool rewrites at every run (LF_PERSIST_JSON_KEYS:
 * Claude Code's ~/.claude.json) is compared by what can make something
 * run, not by its bytes, or every run would end with a warning that then
 * nobody reads: existence, type, mode and owner, and a SHA-256 over every
 * member, at any depth, whose name says it starts or allows something
 * (json_keys_digest). A file that does not parse as JSON is compared
 * whole.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "core/path.h"
#include "core/tables.h"
#include "fs/fs.h"
#include "fs/maskfacts.h"
#include "gate/gate.h"
#include "policy/policy.h"
#include "project/sha256.h"

/* How many entries below one persistence directory are looked at. */
#define SNAP_DIR_MAX 4096
/* How much of a file's content is compared (the change time covers the
 * rest). */
#define SNAP_HASH_MAX (1u << 20)

struct snap_item {
	char *path; /* owned */
	char *why;  /* what runs it, owned */
	bool exists;
	bool deep;   /* a base whose directory is looked at below */
	bool hashed; /* sha holds the content */
	bool keys;   /* sha holds json_keys_digest (LF_PERSIST_JSON_KEYS) */
	/* landfence's configuration directory: compared by what it is
	 * (device, inode, type and mode, owner), not by what landfence's
	 * caches do to its times and links; its files are items of their
	 * own. Made or removed is not news by itself: its files say. */
	bool ident;
	bool config; /* landfence's own: reported as such */
	/* landfence's cache directory or a file in it: compared by status
	 * alone (no content read), never reported (a concurrent launch
	 * writes there too); a file changed during the run is removed. */
	bool cache;
	struct stat st;
	uint8_t sha[LF_SHA256_LEN];
};

struct snap_list {
	struct snap_item *v;
	size_t n, cap;
};

struct lf_snapshot {
	struct snap_list bases; /* the persistence paths */
	struct snap_list items; /* bases plus hook files, as taken */
	char *incomplete;	/* a hook directory not looked at whole, or NULL */
	/* Git directories made by the program (lf_gitdirs_find after it):
	 * the project root when a grant writes it, NULL otherwise; the
	 * configuration directory for the cache of listings; the places
	 * known at launch (every protection); the writable grants. */
	char *root;
	char *config_dir;
	char *conf; /* landfence's configuration directory, for its caches */
	struct lf_strv known;
	struct lf_strv writable;
};

/* How much of a LF_PERSIST_JSON_KEYS file is read: Claude Code's keeps
 * every project's history and grows to megabytes. */
#define SNAP_JSON_MAX (64u << 20)
/* The longest path of names to a member that is compared (longer: the
 * file is compared whole). */
#define JSON_PATH_MAX 8192

/* Member names (lower-cased substrings) whose value can make something
 * run, or widen what runs without asking, when the tool starts again:
 * MCP servers and their lists, hooks, allowed tools and permission
 * modes, trust, commands, environment, helpers, plugins. */
static const char *const json_run_keys[] = {
	"mcp",	   "hook",  "allowedtools", "permission", "bypass", "trust",
	"command", "env",   "helper",	    "statusline", "plugin", "market",
	"script",  "shell", "exec",	    "server",	  NULL,
};

/* Subtrees of counters that merely share a word with the list above
 * (tipsHistory holds {"permissions": 36}, how often a tip was shown). */
static const char *const json_quiet_keys[] = { "tipsHistory", NULL };

static bool json_key_runs(const char *key)
{
	char low[256];
	size_t n = strlen(key);

	if (n >= sizeof(low))
		return true; /* an odd name: compared */
	for (size_t i = 0; i <= n; i++)
		low[i] = (char)(key[i] >= 'A' && key[i] <= 'Z' ? key[i] - 'A' + 'a' : key[i]);
	for (size_t i = 0; json_run_keys[i]; i++)
		if (strstr(low, json_run_keys[i]))
			return true;
	return false;
}

static int cmp_key(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void digest_str(struct lf_sha256 *c, const char *s)
{
	lf_sha256_add(c, s, strlen(s) + 1); /* with its NUL: unambiguous */
}

/* Whether v can make nothing run: null, false, "", [] or {}. Such a
 * member is left out, so that the empty lists Claude Code writes for
 * each new project are no news. */
static bool json_empty(json_t *v)
{
	return json_is_null(v) || json_is_false(v) ||
	       (json_is_string(v) && !json_string_length(v)) ||
	       (json_is_array(v) && !json_array_size(v)) ||
	       (json_is_object(v) && !json_object_size(v));
}

/* Adds every member below v whose name runs something and whose value is
 * not empty: the names and indexes that lead to it, then its value,
 * objects in sorted key order (the tool's own order may change). What
 * leads nowhere adds nothing: a new history entry is no news. at is the
 * path so far (len bytes of a buffer of size). */
static int digest_runs(struct lf_sha256 *c, json_t *v, int depth, char *at, size_t len, size_t size)
{
	int r = 0;

	if (depth > 64)
		return -E2BIG;
	if (json_is_array(v)) {
		size_t i;
		json_t *e;

		json_array_foreach(v, i, e)
		{
			int n = snprintf(at + len, size - len, "\x1f[%zu]", i);

			if (n < 0 || (size_t)n >= size - len)
				return -E2BIG;
			if ((r = digest_runs(c, e, depth + 1, at, len + (size_t)n, size)) < 0)
				return r;
		}
		at[len] = '\0';
		return 0;
	}
	if (!json_is_object(v))
		return 0;
	size_t n = json_object_size(v), k = 0;
	const char **keys = calloc(n ? n : 1, sizeof(*keys));
	const char *key;
	json_t *e;

	if (!keys)
		return -ENOMEM;
	json_object_foreach(v, key, e) keys[k++] = key;
	if (k > 1)
		qsort(keys, k, sizeof(*keys), cmp_key);
	for (size_t i = 0; r == 0 && i < k; i++) {
		bool quiet = false;
		int m;

		e = json_object_get(v, keys[i]);
		for (size_t q = 0; json_quiet_keys[q] && depth == 0; q++)
			quiet |= strcmp(keys[i], json_quiet_keys[q]) == 0;
		m = snprintf(at + len, size - len, "\x1f%s", keys[i]);
		if (m < 0 || (size_t)m >= size - len) {
			r = -E2BIG;
			break;
		}
		if (quiet)
			continue;
		if (!json_key_runs(keys[i])) {
			r = digest_runs(c, e, depth + 1, at, len + (size_t)m, size);
			continue;
		}
		if (json_empty(e))
			continue;
		char *text = json_dumps(e, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);

		if (!text) {
			r = -ENOMEM;
			break;
		}
		digest_str(c, at);
		digest_str(c, text);
		free(text);
	}
	at[len] = '\0';
	free(keys);
	return r;
}

/* The digest of what in the JSON text can make something run; false
 * when it is not JSON (or too deep): compared whole then. */
static bool json_keys_digest(const char *text, size_t len, uint8_t sha[LF_SHA256_LEN])
{
	struct lf_sha256 c;
	json_error_t err;
	json_t *root = json_loadb(text, len, JSON_DECODE_ANY, &err);
	int r;

	if (!root)
		return false;
	char *at = malloc(JSON_PATH_MAX);

	if (!at) {
		json_decref(root);
		return false;
	}
	at[0] = '\0';
	lf_sha256_init(&c);
	digest_str(&c, "landfence json keys 1");
	r = digest_runs(&c, root, 0, at, 0, JSON_PATH_MAX);
	free(at);
	json_decref(root);
	if (r < 0)
		return false;
	lf_sha256_finish(&c, sha);
	return true;
}

/* The regular file name in dirfd, opened for reading when it is still
 * the file it->st describes, or -1. */
static int snap_open(const struct snap_item *it, int dirfd, const char *name)
{
	struct stat st;
	int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);

	if (fd >= 0 && (fstat(fd, &st) != 0 || st.st_ino != it->st.st_ino ||
			st.st_dev != it->st.st_dev || !S_ISREG(st.st_mode))) {
		close(fd);
		fd = -1;
	}
	return fd;
}

/* A LF_PERSIST_JSON_KEYS file: its digest when it parses, else the hash
 * of its content. Only when it is still the file st describes. */
static void snap_hash_json(struct snap_item *it, int dirfd, const char *name)
{
	char *text = NULL;
	size_t len = 0;
	struct lf_sha256 c;
	int fd = snap_open(it, dirfd, name);

	if (fd < 0)
		return;
	if (lf_fd_read(fd, (size_t)it->st.st_size, SNAP_JSON_MAX, &text, &len) < 0) {
		close(fd);
		return;
	}
	close(fd);
	if (!json_keys_digest(text, len, it->sha)) {
		lf_sha256_init(&c);
		lf_sha256_add(&c, text, len);
		lf_sha256_finish(&c, it->sha);
	}
	free(text);
	it->hashed = true;
}

/* The content of the regular file name in dirfd, when it is still the
 * file st describes. */
static void snap_hash(struct snap_item *it, int dirfd, const char *name)
{
	struct lf_sha256 c;
	char buf[16384];
	size_t left = SNAP_HASH_MAX;
	int fd = snap_open(it, dirfd, name);

	if (fd < 0)
		return;
	lf_sha256_init(&c);
	for (;;) {
		ssize_t n = read(fd, buf, left < sizeof(buf) ? left : sizeof(buf));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			close(fd);
			return;
		}
		if (n == 0 || (left -= (size_t)n) == 0) {
			lf_sha256_add(&c, buf, (size_t)n);
			break;
		}
		lf_sha256_add(&c, buf, (size_t)n);
	}
	close(fd);
	lf_sha256_finish(&c, it->sha);
	it->hashed = true;
}

/* A new item of l for path, not looked at yet. */
static struct snap_item *snap_item_add(struct snap_list *l, const char *path, const char *why,
				       bool keys)
{
	struct snap_item *it;

	if (lf_grow((void **)&l->v, &l->cap, l->n, sizeof(*l->v)) < 0)
		return NULL;
	it = &l->v[l->n];
	memset(it, 0, sizeof(*it));
	if (!(it->path = strdup(path)))
		return NULL;
	if (!(it->why = strdup(why))) {
		free(it->path);
		return NULL;
	}
	it->keys = keys;
	l->n++;
	return it;
}

/* Looks at name in dirfd (AT_FDCWD and the path for a base), known as
 * path. */
/* absent: known missing without a look (lf_dirnames_absent). */
static int snap_push_at(struct snap_list *l, int dirfd, const char *name, const char *path,
			const char *why, bool keys, bool absent, bool nohash)
{
	struct snap_item *it = snap_item_add(l, path, why, keys);

	if (!it)
		return -ENOMEM;
	it->exists = !absent && fstatat(dirfd, name, &it->st, AT_SYMLINK_NOFOLLOW) == 0;
	if (it->exists && S_ISREG(it->st.st_mode) && !nohash) {
		if (keys)
			snap_hash_json(it, dirfd, name);
		else
			snap_hash(it, dirfd, name);
	}
	return 0;
}

static void snap_list_fini(struct snap_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i].path);
		free(l->v[i].why);
	}
	free(l->v);
	memset(l, 0, sizeof(*l));
}

struct hook_walk {
	struct snap_list *l;
	const char *why;
	bool hooks; /* a hook directory: git's samples there are not news */
	bool cache; /* landfence's cache directory: status only */
};

/* git's own examples (pre-commit.sample, ...): git never runs a file
 * whose name ends in ".sample", and `git init` writes a dozen of them. */
static bool hook_sample(const char *name)
{
	size_t n = strlen(name);

	return n > 7 && !strcmp(name + n - 7, ".sample");
}

static int hook_visit(void *ctx, const struct lf_walk_entry *e)
{
	struct hook_walk *h = ctx;
	int r;

	if (h->hooks && e->depth == 1 && hook_sample(e->name))
		return LF_WALK_SKIP;
	r = snap_push_at(h->l, e->dirfd, e->name, e->path, h->why, false, false, h->cache);
	if (r == 0)
		h->l->v[h->l->n - 1].cache = h->cache;

	/* Everything below counts: a script a hook or a setting names may
	 * live in a subdirectory (.claude/hooks/lib/run.sh). */
	return r < 0 ? r : LF_WALK_NEXT;
}

/* lstat of every base, and of the files directly inside the hook
 * directories among them. */
static int snap_take(const struct lf_snapshot *s, struct snap_list *out, char **incomplete)
{
	/* The project's names, listed as they are now: most watched
	 * places there are missing. */
	struct lf_dirnames names = { 0 };
	int r = 0;

	for (size_t i = 0; r == 0 && i < s->bases.n; i++) {
		const struct snap_item *b = &s->bases.v[i];
		struct hook_walk h = { out, b->why, lf_persist_hook_dir(b->path), b->cache };
		struct lf_walk w = { .visit = hook_visit, .ctx = &h };

		r = snap_push_at(out, AT_FDCWD, b->path, b->path, b->why, b->keys,
				 lf_dirnames_absent(&names, s->root, b->path), b->cache);
		if (r < 0)
			break;
		/* As the directory is now: the program may have made it. */
		struct snap_item *now = &out->v[out->n - 1];
		now->ident = b->ident;
		now->config = b->config;
		now->cache = b->cache;
		if (!(h.hooks || b->deep) || !now->exists || !S_ISDIR(now->st.st_mode))
			continue;
		w.budget.max_entries = SNAP_DIR_MAX;
		lf_walk_begin(&w);
		r = lf_walk_run(&w, b->path);
		if (r == 0 && w.incomplete && incomplete && !*incomplete &&
		    asprintf(incomplete, "%s (%s)", b->path, w.reason ? w.reason : "") < 0)
			r = -ENOMEM;
		lf_walk_end(&w);
	}
	lf_dirnames_fini(&names);
	return r;
}

void lf_snapshot_free(struct lf_snapshot *s)
{
	if (!s)
		return;
	snap_list_fini(&s->bases);
	snap_list_fini(&s->items);
	free(s->incomplete);
	free(s->root);
	free(s->config_dir);
	free(s->conf);
	lf_strv_fini(&s->known);
	lf_strv_fini(&s->writable);
	free(s);
}

/* What the search for git directories made during the run needs: a git
 * directory (its hooks, its config and the fsmonitor or filters it
 * names) made anywhere in a writable project runs outside the sandbox
 * later, when git is used there or when the project's own git goes
 * through it as a submodule (git status does), and none of it existed
 * at launch to be masked or watched. */
static int gitdirs_take(struct lf_snapshot *s, const struct lf_sandbox *sb)
{
	bool project = false;
	int r = 0;

	for (size_t i = 0; r == 0 && i < sb->nrules; i++) {
		if (!(sb->rules[i].access & LF_ACCESS_RW))
			continue;
		project = project || lf_path_overlap(sb->rules[i].path, sb->project_root);
		r = lf_strv_push(&s->writable, sb->rules[i].path);
	}
	for (size_t i = 0; r == 0 && i < sb->nprotects; i++)
		r = lf_strv_push(&s->known, sb->protects[i].path);
	if (r == 0 && project && !(s->root = strdup(sb->project_root)))
		r = -ENOMEM;
	if (r == 0 && project && sb->config_dir && !(s->config_dir = strdup(sb->config_dir)))
		r = -ENOMEM;
	return r;
}

static bool in_list(const struct lf_strv *l, const char *path, bool below)
{
	for (size_t i = 0; i < l->n; i++)
		if (below ? lf_path_covers(path, l->v[i]) : lf_path_covers(l->v[i], path))
			return true;
	return false;
}

/* Every git directory and .git file in a writable place that no
 * protection of the launch knew is news. */
static int report_gitdirs(const struct lf_snapshot *s, struct lf_findings *f)
{
	struct lf_strv dirs = { 0 }, files = { 0 };
	char *err = NULL;
	int r;

	if (!s->root)
		return 0;
	/* Searched now: what the program left. */
	r = lf_gitdirs_find(s->root, s->config_dir, true, NULL, &dirs, &files, &err);
	for (size_t i = 0; r == 0 && i < dirs.n; i++)
		if (in_list(&s->writable, dirs.v[i], false) && !in_list(&s->known, dirs.v[i], true))
			r = lf_findings_add(
				f, LF_SCAN_CHANGES, false, LF_SEVERITY_WARNING, dirs.v[i],
				"the program made the git directory %s, whose hooks and "
				"config run outside the sandbox later (git used there, "
				"or through it as a submodule)",
				dirs.v[i]);
	/* A .git file is known only as itself (a protection at its path, or
	 * below one): the protections a git directory at the same name
	 * would have (.git/hooks, .git/config) are not it. */
	for (size_t i = 0; r == 0 && i < files.n; i++)
		if (in_list(&s->writable, files.v[i], false) &&
		    !in_list(&s->known, files.v[i], false))
			r = lf_findings_add(
				f, LF_SCAN_CHANGES, false, LF_SEVERITY_WARNING, files.v[i],
				"the program made %s, which names the git directory, and "
				"so the hooks, git uses there",
				files.v[i]);
	if (r == 0 && err)
		r = lf_findings_add(f, LF_SCAN_CHANGES, true, LF_SEVERITY_WARNING, NULL,
				    "the search for git directories the program made is "
				    "incomplete: %s",
				    err);
	free(err);
	lf_strv_fini(&dirs);
	lf_strv_fini(&files);
	return r;
}

/* landfence's configuration directory, its trust store and its user
 * policy. The program cannot write them, but it can chmod the directory
 * (Landlock does not mediate chmod; the filter lets the group's write
 * bit through) and set it back before it exits: another user of that
 * group could move a store or a policy the program wrote in meanwhile,
 * and every check at the next launch would pass (doc/escape.md,
 * "Metadata"). Whatever changed them during the run is reported. */
static int config_take(struct lf_snapshot *s, const char *config_dir)
{
	static const struct {
		const char *name, *why;
	} files[] = {
		{ "", "landfence's configuration directory" },
		{ "trusted", "the trust store: project policies a later launch uses" },
		{ "policy.json", "the user policy, which replaces the embedded default" },
	};
	char path[PATH_MAX];

	if (!config_dir || config_dir[0] != '/')
		return 0;
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		int n = snprintf(path, sizeof(path), "%s%s%s", config_dir,
				 files[i].name[0] ? "/" : "", files[i].name);
		if (n < 0 || (size_t)n >= sizeof(path))
			return 0; /* not looked at: no report, as without a HOME */
		struct snap_item *b = snap_item_add(&s->bases, path, files[i].why, false);
		if (!b)
			return -ENOMEM;
		b->ident = !files[i].name[0];
		b->config = true;
	}
	/* Its caches: the namespace answer, the searches' listings, the
	 * compiled policies, each believed by a later launch once it passes
	 * the checks on a file, which one the program wrote would. */
	int n = snprintf(path, sizeof(path), "%s/cache", config_dir);
	if (n < 0 || (size_t)n >= sizeof(path))
		return 0;
	struct snap_item *c = snap_item_add(&s->bases, path, "landfence's caches", false);
	if (!c || !(s->conf = strdup(config_dir)))
		return -ENOMEM;
	c->deep = true;
	c->cache = true;
	return 0;
}

int lf_snapshot_take(const struct lf_sandbox *sb, struct lf_snapshot **out)
{
	struct lf_snapshot *s;
	int r = 0;

	if (!sb || !out)
		return -EINVAL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	/* The protections a grant leaves writable and no mask keeps
	 * read-only (the value's list: every git directory's hooks and
	 * config, core.hooksPath, agent and editor settings...): the others
	 * cannot change. */
	for (size_t i = 0; r == 0 && i < sb->nprotects; i++) {
		const struct lf_sandbox_protect *pr = &sb->protects[i];

		if (pr->mechanism != LF_MECH_WATCHED)
			continue;
		/* Named only: snap_take looks at each, before and after. */
		struct snap_item *b = snap_item_add(&s->bases, pr->path, pr->why,
						    lf_protect_row_json_keys(pr->entry));

		if (!b) {
			r = -ENOMEM;
			break;
		}
		/* Below a place its tool writes as it runs, every run would
		 * be news: the place itself is compared. */
		b->deep = !lf_protect_row_watch_only(pr->entry);
	}
	/* The project root first: snap_take answers the watched places
	 * missing from its listing without a look at each. */
	if (r == 0)
		r = gitdirs_take(s, sb);
	if (r == 0)
		r = config_take(s, sb->config_dir);
	if (r == 0)
		r = snap_take(s, &s->items, &s->incomplete);
	if (r < 0) {
		lf_snapshot_free(s);
		return r;
	}
	*out = s;
	return 0;
}

static bool snap_same(const struct snap_item *a, const struct snap_item *b)
{
	if (a->ident)
		return !a->exists || !b->exists ||
		       (a->st.st_dev == b->st.st_dev && a->st.st_ino == b->st.st_ino &&
			a->st.st_mode == b->st.st_mode && a->st.st_uid == b->st.st_uid &&
			a->st.st_gid == b->st.st_gid);
	if (a->exists != b->exists)
		return false;
	if (!a->exists)
		return true;
	/* Rewritten at every run (a new inode, size and times): what it
	 * says is compared, and who may change it. */
	if (a->keys && b->keys && S_ISREG(a->st.st_mode) && S_ISREG(b->st.st_mode))
		return a->st.st_mode == b->st.st_mode && a->st.st_uid == b->st.st_uid &&
		       a->st.st_gid == b->st.st_gid && a->hashed == b->hashed &&
		       (!a->hashed || memcmp(a->sha, b->sha, sizeof(a->sha)) == 0);
	return a->st.st_dev == b->st.st_dev && a->st.st_ino == b->st.st_ino &&
	       a->st.st_mode == b->st.st_mode && a->st.st_size == b->st.st_size &&
	       a->st.st_uid == b->st.st_uid && a->st.st_gid == b->st.st_gid &&
	       a->st.st_nlink == b->st.st_nlink && a->st.st_mtim.tv_sec == b->st.st_mtim.tv_sec &&
	       a->st.st_mtim.tv_nsec == b->st.st_mtim.tv_nsec &&
	       a->st.st_ctim.tv_sec == b->st.st_ctim.tv_sec &&
	       a->st.st_ctim.tv_nsec == b->st.st_ctim.tv_nsec && a->hashed == b->hashed &&
	       (!a->hashed || memcmp(a->sha, b->sha, sizeof(a->sha)) == 0);
}

/* A hook directory that is a directory before and after (or only after:
 * made by the program) is not news by itself: the files it holds are
 * compared one by one, so a hook the program planted is reported by its
 * name, and git's samples, which never run, are not. One that is removed,
 * or replaced by something else (a symbolic link elsewhere), is. */
static bool snap_hook_dir_kept(const struct snap_item *was, const struct snap_item *now)
{
	return lf_persist_hook_dir(now->path) && now->exists && S_ISDIR(now->st.st_mode) &&
	       (!was || !was->exists || S_ISDIR(was->st.st_mode));
}

static const struct snap_item *snap_find(const struct snap_list *l, const char *path)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i].path, path))
			return &l->v[i];
	return NULL;
}

static int report_changes(const struct snap_item **changed, size_t n, struct lf_findings *f)
{
	int r = 0;

	for (size_t i = 0; r == 0 && i < n; i++) {
		bool parent = false;

		/* A hook directory changes with each file made in it: name
		 * the file. */
		for (size_t j = 0; j < n && !parent; j++)
			parent = j != i && strcmp(changed[i]->path, changed[j]->path) != 0 &&
				 lf_path_covers(changed[i]->path, changed[j]->path);
		if (parent)
			continue;
		if (changed[i]->cache)
			r = lf_findings_add(
				f, LF_SCAN_CHANGES, false, LF_SEVERITY_WARNING, changed[i]->path,
				"%s changed while the program ran (%s) and could not be removed: "
				"remove it before the next launch, which may believe it",
				changed[i]->path, changed[i]->why);
		else if (changed[i]->config)
			r = lf_findings_add(
				f, LF_SCAN_CHANGES, false, LF_SEVERITY_WARNING, changed[i]->path,
				"%s changed while the program ran (%s): unless you changed "
				"it, review it before the next launch, which believes it",
				changed[i]->path, changed[i]->why);
		else
			r = lf_findings_add(
				f, LF_SCAN_CHANGES, false, LF_SEVERITY_WARNING, changed[i]->path,
				"the program changed %s, which runs outside the sandbox later (%s)",
				changed[i]->path, changed[i]->why);
	}
	return r;
}

/* Removes the cache files that changed during the run, so that a later
 * launch does not believe them (lf_cache_forget), and takes them out of
 * changed (returning how many items are left): what was removed is not
 * news, a concurrent launch writes there too. One that could not be
 * removed stays, to be reported. Before the search after the program,
 * which may write its own. */
static size_t caches_forget(const struct lf_snapshot *s, const struct snap_item **changed, size_t n)
{
	const char **names = calloc(n + 1, sizeof(*names));
	const struct snap_item **items = calloc(n + 1, sizeof(*items));
	bool *left = calloc(n + 1, sizeof(*left));
	size_t kept = 0, nnames = 0;

	for (size_t i = 0; i < n; i++) {
		const char *slash = strrchr(changed[i]->path, '/');

		/* A file there now, or one there before that is gone (its
		 * removal then finds nothing). What is not there now, and the
		 * directory itself (compared by its files), need nothing.
		 * Without memory for the list, each file stays, reported. */
		if (changed[i]->cache && slash && names && items && left && changed[i]->exists &&
		    !S_ISDIR(changed[i]->st.st_mode)) {
			items[nnames] = changed[i];
			names[nnames++] = slash + 1;
		} else if (!changed[i]->cache || !(names && items && left)) {
			changed[kept++] = changed[i];
		}
	}
	if (nnames)
		(void)lf_cache_forget(s->conf, names, nnames, left);
	for (size_t i = 0; i < nnames; i++)
		if (left[i])
			changed[kept++] = items[i];
	free(names);
	free(items);
	free(left);
	return kept;
}

int lf_snapshot_compare(const struct lf_snapshot *before, struct lf_findings **out)
{
	struct lf_findings *f;
	struct snap_list now = { 0 };
	const struct snap_item **changed = NULL;
	size_t nchanged = 0;
	int r;

	if (!before || !out)
		return -EINVAL;
	f = calloc(1, sizeof(*f));
	if (!f)
		return -ENOMEM;
	r = snap_take(before, &now, NULL);
	if (r == 0 && !(changed = calloc(now.n + before->items.n + 1, sizeof(*changed))))
		r = -ENOMEM;
	for (size_t i = 0; r == 0 && i < now.n; i++) {
		const struct snap_item *was = snap_find(&before->items, now.v[i].path);

		if (snap_hook_dir_kept(was, &now.v[i]))
			continue;
		if (was ? !snap_same(was, &now.v[i]) : now.v[i].exists)
			changed[nchanged++] = &now.v[i];
	}
	for (size_t i = 0; r == 0 && i < before->items.n; i++)
		if (before->items.v[i].exists && !snap_find(&now, before->items.v[i].path))
			changed[nchanged++] = &before->items.v[i];
	if (r == 0) {
		nchanged = caches_forget(before, changed, nchanged);
		r = report_changes(changed, nchanged, f);
	}
	if (r == 0)
		r = report_gitdirs(before, f);
	if (r == 0 && before->incomplete)
		r = lf_findings_add(f, LF_SCAN_CHANGES, true, LF_SEVERITY_WARNING, NULL,
				    "only the first %d entries of %s were looked at: a change to "
				    "the others is not reported",
				    SNAP_DIR_MAX, before->incomplete);
	free(changed);
	snap_list_fini(&now);
	if (r < 0) {
		lf_findings_free(f);
		return r;
	}
	*out = f;
	return 0;
}
