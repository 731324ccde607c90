/* SPDX-License-Identifier: MIT */
/*
 * Grants found on the host rather than written anywhere (fs.h,
 * lf_discover): the toolchains in use and their places (the table of
 * core/toolchains.c), the package tree the command resolves into, and
 * landfence's own executable and library. Every one says what led to it,
 * none covers the home directory or a credential file, and none is
 * writable where code runs later outside the sandbox. doc/toolchains.md
 * describes the choices.
 */
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/model.h"
#include "core/path.h"
#include "core/sandbox.h"
#include "core/tables.h"
#include "core/toolchains.h"
#include "fs/fs.h"
#include "policy/policy.h"

#define RO LF_ACCESS_RO
#define RW LF_ACCESS_RW

/* What one discovery looks at, computed once. */
struct look {
	const struct lf_host *host;
	lf_getenv_fn get;
	void *ctx;
	char *home;		   /* canonical home, or NULL */
	struct lf_strv path;	   /* PATH entries as written (absolute ones) */
	struct lf_strv path_canon; /* their realpath, "" when they do not resolve */
	int *path_fd;		   /* each entry opened (O_PATH), -1 when it is not a directory */
	/* Built on the first grant to judge (refused()): */
	bool judged;
	struct lf_strv creds;	/* the credential files (realpath when they exist) */
	struct lf_strv persist; /* the home's persistence paths, likewise */
	char *command_canon;	/* realpath of the command, or NULL */
	/* The home's names, listed on the first look below it: most
	 * places asked for are missing there (lf_dirnames_absent). */
	struct lf_dirnames *home_names;
	/* The directories the realpaths of the look proved canonical: the
	 * same few (/usr, the home) come back for every place asked. */
	struct lf_realpath_memo memo;
	struct lf_discovery *out;
};

/* realpath(3) of path, through the look's memo. */
static char *canon_of(struct look *l, const char *path)
{
	return lf_realpath_memo(&l->memo, path, NULL);
}

/* stat(2) of a place, or -1 with ENOENT without looking when it is below
 * the home through a name the home does not hold. */
static int place_stat(const struct look *l, const char *path, struct stat *st, bool follow)
{
	if (lf_dirnames_absent(l->home_names, l->host->home, path)) {
		errno = ENOENT;
		return -1;
	}
	return follow ? stat(path, st) : lstat(path, st);
}

void lf_discovery_fini(struct lf_discovery *d)
{
	if (!d)
		return;
	free(d->v);
	lf_strv_fini(&d->strings);
	lf_strv_fini(&d->notes);
	memset(d, 0, sizeof(*d));
}

/* A string the discovery keeps (the entries borrow it). */
static const char *keep(struct lf_discovery *d, char *s)
{
	if (!s)
		return NULL;
	if (lf_strv_push(&d->strings, s) < 0) {
		free(s);
		return NULL;
	}
	free(s);
	return d->strings.v[d->strings.n - 1];
}

static char *xstrdup_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *xstrdup_printf(const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	return s;
}

static bool is_dir(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The canonical form of a credential or persistence path: realpath when
 * it exists; else the path as written below the canonical home (a missing
 * one needs no walk up the tree: most are missing, and this runs at every
 * launch). */
static int judge_path(struct look *l, const char *raw, struct lf_strv *into)
{
	struct stat st;
	char *canon = place_stat(l, raw, &st, false) == 0 ? canon_of(l, raw) : NULL;
	int r;

	if (!canon && errno == ENOMEM)
		return -ENOMEM;
	if (!canon && l->home && l->host->home &&
	    !strncmp(raw, l->host->home, strlen(l->host->home)))
		canon = xstrdup_printf("%s%s", l->home, raw + strlen(l->host->home));
	r = lf_strv_push(into, canon ? canon : raw);
	free(canon);
	return r;
}

static int judge_init(struct look *l)
{
	int r = 0;

	l->judged = true;
	for (size_t i = 0; r == 0 && i < lf_credential_table_len; i++) {
		char *raw = NULL;

		if (lf_tool_expand(lf_credential_table[i].path, l->host->home, l->get, l->ctx,
				   &raw) < 0)
			continue;
		r = judge_path(l, raw, &l->creds);
		free(raw);
	}
	for (size_t i = 0; r == 0 && l->host->home && i < lf_persist_home_len; i++) {
		char *raw = xstrdup_printf("%s/%s", l->host->home, lf_persist_home[i].rel), *clean;

		r = raw ? lf_path_clean_dup(raw, &clean) : -ENOMEM;
		free(raw);
		if (r == 0)
			r = judge_path(l, clean, &l->persist);
		if (r == 0)
			free(clean);
	}
	return r;
}

/* Whether canon is refused as a discovered grant; *why says why. A grant
 * may not be "/" or hold the home directory, may not hold or lie in a
 * credential file or directory, and a writable one may not hold or lie in
 * a persistence path of the home (code there runs later outside the
 * sandbox). */
static bool refused(const struct look *l, const char *canon, unsigned access, const char **why,
		    const char **what)
{
	*what = NULL;
	if (!strcmp(canon, "/") || (l->home && lf_path_covers(canon, l->home))) {
		*why = "it holds the home directory";
		return true;
	}
	for (size_t i = 0; i < l->creds.n; i++)
		if (lf_path_overlap(canon, l->creds.v[i])) {
			*why = "it overlaps a credential file";
			*what = l->creds.v[i];
			return true;
		}
	for (size_t i = 0; (access & RW) && i < l->persist.n; i++)
		if (lf_path_overlap(canon, l->persist.v[i])) {
			*why = "writable, it would overlap a place where code runs later outside "
			       "the sandbox";
			*what = l->persist.v[i];
			return true;
		}
	return false;
}

/* Whether place (absolute, lexically clean) reaches canon through a
 * symbolic link in a place the program can write: the project, or a
 * read-write place found before it. The program could have made that
 * link at an earlier run to point this launch's grant anywhere (a
 * node_modules in the project linked to ~/Documents). *link gets the
 * link (malloc'ed), for the note; NULL on -ENOMEM. Links above the
 * project (a home directory on another disk) are not the program's. */
static bool through_writable_link(struct look *l, const char *place, const char *canon, char **link)
{
	const struct lf_discovery *d = l->out;
	char buf[PATH_MAX];
	size_t len = strlen(place);

	*link = NULL;
	if (!strcmp(place, canon) || len >= sizeof(buf))
		return false;
	memcpy(buf, place, len + 1);
	/* Each component, shortest first: a link there is looked at where
	 * it sits (its directory, canonical). */
	for (char *slash = strchr(buf + 1, '/');; slash = strchr(slash + 1, '/')) {
		struct stat st;

		if (slash)
			*slash = '\0';
		if (lstat(buf, &st) == 0 && S_ISLNK(st.st_mode)) {
			char *name = strrchr(buf, '/'), *dir;
			bool writable = false;

			*name = '\0';
			dir = canon_of(l, buf[0] ? buf : "/");
			*name = '/';
			if (dir && l->host->project_root)
				writable = lf_path_covers(l->host->project_root, dir);
			for (size_t i = 0; dir && !writable && i < d->n; i++)
				writable =
					(d->v[i].access & RW) && lf_path_covers(d->v[i].path, dir);
			free(dir);
			if (writable) {
				*link = strdup(buf);
				return true;
			}
		}
		if (!slash)
			return false;
		*slash = '/';
	}
}

/* Adds a discovered grant of path (absolute; canonicalised here) unless it
 * is refused (a note says so) or already there. A missing path is added
 * only with LF_CAND_MAKE_DIR (a cache a launch makes). */
static int add(struct look *l, const char *path, unsigned access, enum lf_discovered_kind kind,
	       unsigned flags, char *why)
{
	struct lf_discovery *d = l->out;
	char *canon = canon_of(l, path);
	const char *reason, *what;
	int r = 0;

	if (!why)
		return -ENOMEM;
	if (!canon && errno == ENOMEM) {
		free(why);
		return -ENOMEM;
	}
	if (!canon && !(flags & LF_CAND_MAKE_DIR)) {
		free(why);
		return 0;
	}
	if (!canon && lf_path_canon_lenient(path, &canon) < 0) {
		free(why);
		return -ENOMEM;
	}
	for (size_t i = 0; i < d->n; i++)
		if (!strcmp(d->v[i].path, canon) && d->v[i].access == access) {
			free(canon);
			free(why);
			return 0;
		}
	/* landfence's own files are one executable and one library. */
	if (kind != LF_DISCOVERED_SELF && !l->judged && (r = judge_init(l)) < 0) {
		free(canon);
		free(why);
		return r;
	}
	if (kind != LF_DISCOVERED_SELF) {
		char *clean = NULL, *link = NULL;

		r = lf_path_clean_dup(path, &clean);
		if (r == 0 && through_writable_link(l, clean, canon, &link))
			r = lf_strv_pushf(&d->notes,
					  "not granted: %s (%s): reached through the symbolic link "
					  "%s, in a place the program can write",
					  canon, why, link ? link : "");
		else if (r == 0)
			r = 1;
		free(clean);
		free(link);
		if (r <= 0) {
			free(canon);
			free(why);
			return r == -EINVAL ? 0 : r;
		}
	}
	if (kind != LF_DISCOVERED_SELF && refused(l, canon, access, &reason, &what)) {
		r = lf_strv_pushf(&d->notes, "not granted: %s (%s): %s%s%s", canon, why, reason,
				  what ? ": " : "", what ? what : "");
		free(canon);
		free(why);
		return r;
	}
	if (lf_grow((void **)&d->v, &d->cap, d->n, sizeof(*d->v)) < 0) {
		free(canon);
		free(why);
		return -ENOMEM;
	}
	const char *p = keep(d, canon), *w = keep(d, why);
	if (!p || !w)
		return -ENOMEM;
	d->v[d->n++] = (struct lf_discovered){
		.path = p,
		.access = access,
		.why = w,
		.kind = kind,
		.flags = flags,
	};
	return 0;
}

/* ------------------------------------------------------------------------
 * Toolchains
 */

/* Whether the policy's layers let toolchains be discovered at all, and
 * whether it lets this one: "discover": false in any layer switches every
 * one off, "except" in any layer that one. */
static bool tool_allowed(const struct lf_effective *e, const char *name)
{
	for (size_t l = 0; e && l < e->nlayers; l++) {
		const struct lf_policy *p = e->layers[l];

		if (p->has_discover && !p->discover)
			return false;
		for (size_t i = 0; i < p->toolchains_except.n; i++)
			if (!strcmp(p->toolchains_except.v[i], name))
				return false;
	}
	return true;
}

static int expand(const struct look *l, const char *spec, char **out)
{
	return lf_tool_expand(spec, l->host->home, l->get, l->ctx, out);
}

/* One place of a toolchain, expanded, before it is known in use. */
struct place {
	const struct lf_tool_place *row;
	char *path;
	bool exists;
	unsigned flags; /* LF_CAND_MAKE_DIR: a missing cache to make */
};

/* A cache is made when missing only where its parent is there already:
 * ~/.npm for a user of npm, ~/go/pkg/mod once ~/go/pkg is, never a new
 * tree in the home directory for a toolchain merely installed. Looked
 * at as the places are (place_stat: a parent below a name the home does
 * not hold is not there, without a look). */
static bool parent_exists(const struct look *l, const char *path)
{
	char *p = strdup(path), *slash;
	struct stat st;
	bool yes;

	if (!p)
		return false;
	slash = strrchr(p, '/');
	if (slash && slash != p)
		*slash = '\0';
	yes = slash && slash != p && place_stat(l, p, &st, true) == 0 && S_ISDIR(st.st_mode);
	free(p);
	return yes;
}

/* The toolchain's places that exist, or that a launch would make, into
 * pl (n of them). */
static int tool_expand(const struct look *l, const struct lf_toolchain *t, struct place *pl,
		       size_t *n)
{
	*n = 0;
	for (size_t i = 0; i < LF_TOOL_PLACES_MAX && t->places[i].path; i++) {
		const struct lf_tool_place *row = &t->places[i];
		char *path = NULL;
		struct stat st;
		int r = expand(l, row->path, &path);

		if (r == -ENOENT || r == -EINVAL)
			continue;
		if (r < 0)
			return r;
		pl[*n] = (struct place){ .row = row, .path = path };
		if (place_stat(l, path, &st, true) == 0)
			pl[*n].exists = true;
		else if ((row->flags & LF_TOOL_CACHE) && errno == ENOENT && parent_exists(l, path))
			pl[*n].flags = LF_CAND_MAKE_DIR;
		if (!pl[*n].exists && !pl[*n].flags) {
			free(path);
			continue;
		}
		(*n)++;
	}
	return 0;
}

/* Whether the PATH entry at index k holds an executable called name. */
static bool path_has(const struct look *l, size_t k, const char *name)
{
	struct stat st;

	return l->path_fd[k] >= 0 && fstatat(l->path_fd[k], name, &st, 0) == 0 &&
	       S_ISREG(st.st_mode) && (st.st_mode & 0111);
}

/* What shows the toolchain in use, or NULL (*err on failure): a variable
 * of its own set, a PATH entry (or the command) below one of its
 * installation roots, one of its commands on PATH. */
static char *in_use(struct look *l, const struct lf_toolchain *t, const struct place *pl, size_t n,
		    int *err)
{
	*err = 0;
	for (size_t i = 0; i < sizeof(t->vars) / sizeof(t->vars[0]) && t->vars[i]; i++) {
		const char *v = l->get(l->ctx, t->vars[i]);

		if (v && v[0])
			return xstrdup_printf("%s=%s", t->vars[i], v);
	}
	for (size_t i = 0; i < n; i++) {
		char *canon;

		if (!(pl[i].row->flags & LF_TOOL_ROOT) || !pl[i].exists)
			continue;
		if (!(canon = canon_of(l, pl[i].path))) {
			if (errno == ENOMEM) {
				*err = -ENOMEM;
				return NULL;
			}
			continue;
		}
		for (size_t k = 0; k < l->path.n; k++)
			if (l->path_canon.v[k][0] && lf_path_covers(canon, l->path_canon.v[k])) {
				free(canon);
				return xstrdup_printf("PATH entry %s", l->path.v[k]);
			}
		if (l->command_canon && lf_path_covers(canon, l->command_canon)) {
			free(canon);
			return xstrdup_printf("the command %s", l->host->command);
		}
		free(canon);
	}
	for (size_t i = 0; i < sizeof(t->commands) / sizeof(t->commands[0]) && t->commands[i]; i++)
		for (size_t k = 0; k < l->path.n; k++)
			if (path_has(l, k, t->commands[i]))
				return xstrdup_printf("%s on PATH: %s/%s", t->commands[i],
						      l->path.v[k], t->commands[i]);
	return NULL;
}

/* Places found from PATH entries (lf_tool_path_table): an npm prefix whose
 * bin is on PATH, the .bin of an npm install. Marks the tool in use. */
static int path_rules(struct look *l, const struct lf_effective *e, bool *used)
{
	int r = 0;

	for (size_t i = 0; r == 0 && i < lf_tool_path_table_len; i++) {
		const struct lf_tool_path_rule *pr = &lf_tool_path_table[i];
		size_t sl = strlen(pr->suffix);

		if (!tool_allowed(e, pr->tool))
			continue;
		for (size_t k = 0; r == 0 && k < l->path.n; k++) {
			const char *entry = l->path.v[k];
			size_t el = strlen(entry);
			char *joined, *clean = NULL;

			if (el < sl || strcmp(entry + el - sl, pr->suffix) != 0)
				continue;
			joined = xstrdup_printf("%s/%s", entry, pr->rel);
			if (!joined || lf_path_clean_dup(joined, &clean) < 0) {
				free(joined);
				return -ENOMEM;
			}
			free(joined);
			if (is_dir(clean)) {
				for (size_t t = 0; t < lf_toolchain_table_len; t++)
					if (!strcmp(lf_toolchain_table[t].name, pr->tool))
						used[t] = true;
				r = add(l, clean, RO, LF_DISCOVERED_TOOLCHAIN, 0,
					xstrdup_printf("toolchain %s: %s (PATH entry %s)", pr->tool,
						       pr->what, entry));
			}
			free(clean);
		}
	}
	return r;
}

static int toolchains(struct look *l, const struct lf_effective *e)
{
	bool *used = calloc(lf_toolchain_table_len, sizeof(bool));
	int r = 0;

	if (!used)
		return -ENOMEM;
	r = path_rules(l, e, used);
	for (size_t i = 0; r == 0 && i < lf_toolchain_table_len; i++) {
		const struct lf_toolchain *t = &lf_toolchain_table[i];
		struct place pl[LF_TOOL_PLACES_MAX];
		size_t n = 0;
		char *cause = NULL;

		if (!tool_allowed(e, t->name))
			continue;
		/* Nothing of it here: whether it is in use does not matter. */
		r = tool_expand(l, t, pl, &n);
		if (r == 0 && n)
			cause = in_use(l, t, pl, n, &r);
		if (r == 0 && n && !cause && used[i])
			cause = xstrdup_printf("an npm prefix on PATH");
		for (size_t k = 0; k < n; k++) {
			const struct lf_tool_place *row = pl[k].row;

			if (r == 0 && cause)
				r = add(l, pl[k].path, row->access & RW ? RO | RW : RO,
					LF_DISCOVERED_TOOLCHAIN, pl[k].flags,
					xstrdup_printf("toolchain %s: %s (%s)", t->name, row->what,
						       cause));
			free(pl[k].path);
		}
		free(cause);
	}
	free(used);
	return r;
}

/* ------------------------------------------------------------------------
 * The command's package tree
 */

/* The outermost "node_modules" directory path lies in (a package, its
 * platform sub-packages and their dependencies all sit below it), into
 * *out. */
static int node_modules_of(const char *path, char **out)
{
	const char *p = strstr(path, "/node_modules/");

	*out = NULL;
	if (!p)
		return 0;
	*out = strndup(path, (size_t)(p - path) + strlen("/node_modules"));
	return *out ? 0 : -ENOMEM;
}

/* The prefix of a Python virtual environment whose bin/ holds path (the
 * path as found on PATH: bin/python is a link out of the environment),
 * into *out; *home its pyvenv.cfg's "home" (the base interpreter's
 * directory), when it names one. */
static int venv_of(const char *path, char **out, char **home)
{
	char *dir = strdup(path), *slash, *cfg = NULL, *text = NULL;
	size_t len;
	int r = 0;

	*out = *home = NULL;
	if (!dir)
		return -ENOMEM;
	/* DIR/bin/CMD */
	if ((slash = strrchr(dir, '/')))
		*slash = '\0';
	if (!slash || strcmp(strrchr(dir, '/') ? strrchr(dir, '/') + 1 : dir, "bin") != 0)
		goto out;
	*strrchr(dir, '/') = '\0';
	if (!dir[0] || !(cfg = xstrdup_printf("%s/pyvenv.cfg", dir))) {
		r = dir[0] ? -ENOMEM : 0;
		goto out;
	}
	r = lf_file_read(cfg, 65536, &text, &len);
	if (r < 0) {
		r = r == -ENOMEM ? r : 0;
		goto out;
	}
	*out = dir;
	dir = NULL;
	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		char *eq;

		while (*line == ' ' || *line == '\t')
			line++;
		if (strncmp(line, "home", 4) != 0 || !(eq = strchr(line, '=')))
			continue;
		for (char *k = line + 4; k < eq; k++)
			if (*k != ' ' && *k != '\t')
				goto next;
		eq++;
		while (*eq == ' ' || *eq == '\t')
			eq++;
		eq[strcspn(eq, " \t\r")] = '\0';
		if (eq[0] == '/' && !(*home = strdup(eq)))
			r = -ENOMEM;
		break;
	next:;
	}
out:
	free(dir);
	free(cfg);
	free(text);
	return r;
}

/* Whether prefix is a Python installation: its lib/pythonX.Y/os.py, the
 * landmark Python itself looks for to find its prefix. A pyvenv.cfg is
 * the program's to write when the environment is in the project: its
 * "home" grants only a place that already holds a Python. */
static bool python_prefix(const char *prefix)
{
	char *lib = xstrdup_printf("%s/lib", prefix);
	DIR *d = lib ? lf_dir_open(lib, 0) : NULL;
	struct dirent *e;
	bool found = false;

	while (d && !found && (e = readdir(d))) {
		struct stat st;

		if (strncmp(e->d_name, "python", 6) != 0 || strchr(e->d_name, '/'))
			continue;
		char *os = xstrdup_printf("%s/%s/os.py", lib, e->d_name);

		found = os && stat(os, &st) == 0 && S_ISREG(st.st_mode);
		free(os);
	}
	if (d)
		closedir(d);
	free(lib);
	return found;
}

/* The bin directory of a `cargo install` root (DIR/bin beside
 * DIR/.crates.toml) holding path, into *out. */
static int cargo_root_of(const char *path, char **out)
{
	char *dir = strdup(path), *slash, *marker;
	struct stat st;

	*out = NULL;
	if (!dir)
		return -ENOMEM;
	if (!(slash = strrchr(dir, '/')) || slash == dir) {
		free(dir);
		return 0;
	}
	*slash = '\0';
	marker = xstrdup_printf("%s/../.crates.toml", dir);
	if (!marker) {
		free(dir);
		return -ENOMEM;
	}
	if (stat(marker, &st) == 0 && strlen(dir) > 4 && !strcmp(dir + strlen(dir) - 4, "/bin"))
		*out = dir;
	else
		free(dir);
	free(marker);
	return 0;
}

static int command_tree(struct look *l)
{
	const char *forms[2] = { l->host->command, l->command_canon };
	int r = 0;

	for (int f = 0; f < 2 && r == 0; f++) {
		char *tree = NULL, *home = NULL;

		if (!forms[f] || (f == 1 && forms[0] && !strcmp(forms[0], forms[1])))
			continue;
		r = node_modules_of(forms[f], &tree);
		if (r == 0 && tree)
			r = add(l, tree, RO, LF_DISCOVERED_COMMAND, 0,
				xstrdup_printf("the npm packages the command %s belongs to",
					       l->host->command));
		free(tree);
		tree = NULL;
		if (r == 0)
			r = venv_of(forms[f], &tree, &home);
		if (r == 0 && tree)
			r = add(l, tree, RO, LF_DISCOVERED_COMMAND, 0,
				xstrdup_printf("the Python virtual environment of the command %s",
					       l->host->command));
		/* The base interpreter's installation (home = PREFIX/bin). */
		if (r == 0 && home) {
			char *prefix = NULL;

			r = lf_path_clean_dup(home, &prefix);
			char *slash = r == 0 ? strrchr(prefix, '/') : NULL;
			if (slash && slash != prefix && !strcmp(slash, "/bin")) {
				*slash = '\0';
				if (!python_prefix(prefix))
					r = lf_strv_pushf(
						&l->out->notes,
						"not granted: %s (the virtual environment's "
						"home, command %s): no Python there "
						"(lib/python*/os.py)",
						prefix, l->host->command);
				else
					r = add(l, prefix, RO, LF_DISCOVERED_COMMAND, 0,
						xstrdup_printf(
							"the Python installation of the virtual "
							"environment of the command %s",
							l->host->command));
			}
			free(prefix);
		}
		free(tree);
		free(home);
		tree = NULL;
		if (r == 0)
			r = cargo_root_of(forms[f], &tree);
		if (r == 0 && tree)
			r = add(l, tree, RO, LF_DISCOVERED_COMMAND, 0,
				xstrdup_printf("the cargo install root of the command %s",
					       l->host->command));
		free(tree);
	}
	return r;
}

/* ------------------------------------------------------------------------
 * landfence itself
 */

/* The running executable and the object that holds this library (the
 * shared liblandfence, or the executable when linked statically), so that
 * `landfence hook claude` and `landfence check` work inside the sandbox
 * wherever landfence is installed (a build folder, ~/.local/bin). Both
 * read-only, without a note: they are landfence. */
static int self(struct look *l)
{
	Dl_info info;
	char *exe = canon_of(l, "/proc/self/exe");
	int r = 0;

	if (exe)
		r = add(l, exe, RO, LF_DISCOVERED_SELF, 0,
			xstrdup_printf("landfence itself: the running executable"));
	free(exe);
	if (r == 0 && dladdr((void *)lf_discover, &info) && info.dli_fname &&
	    info.dli_fname[0] == '/')
		r = add(l, info.dli_fname, RO, LF_DISCOVERED_SELF, 0,
			xstrdup_printf("landfence itself: its library"));
	return r;
}

/* ------------------------------------------------------------------------
 * git directories outside the project
 */

/* The directory the "gitdir: DIR" line of the file dotgit names
 * (relative to base), canonical, or NULL. */
static char *gitdir_read(const char *file, const char *base, const char *prefix)
{
	char *text = NULL, *dir = NULL, *canon = NULL;
	size_t len, pl = strlen(prefix);

	if (lf_file_read(file, 4096, &text, &len) < 0)
		return NULL;
	if (!strncmp(text, prefix, pl)) {
		char *v = text + pl;

		v[strcspn(v, "\r\n")] = '\0';
		if (v[0] == '/')
			dir = strdup(v);
		else if (v[0])
			dir = xstrdup_printf("%s/%s", base, v);
	}
	if (dir)
		canon = realpath(dir, NULL);
	free(dir);
	free(text);
	return canon;
}

/* The value of core.worktree in the git config file at path (the last
 * one, as git reads it), or NULL when there is none or the file cannot be
 * read. Only the plain forms git itself writes are understood: a value
 * holding an escape is no answer, so the git directory is not trusted
 * (fail closed). */
static char *core_worktree(const char *path)
{
	char *text = NULL, *value = NULL;
	bool core = false;
	size_t len;

	if (lf_file_read(path, 65536, &text, &len) < 0)
		return NULL;
	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		char *v;

		line += strspn(line, " \t");
		if (line[0] == '[') {
			line[strcspn(line, "\r")] = '\0';
			core = !strcasecmp(line, "[core]");
			continue;
		}
		if (!core || !(v = lf_git_config_value(line, "worktree")))
			continue;
		free(value);
		value = strpbrk(v, "\"\\") ? NULL : strdup(v);
	}
	free(text);
	return value;
}

/* Whether the git directory gitdir (canonical), outside the project and
 * named by the project's .git file dotgit, names the project back, as git
 * itself leaves it: a linked worktree's entry (COMMON/worktrees/NAME) by
 * its "gitdir" file naming dotgit, with *common its grandparent; another
 * git directory (a submodule's, .git/modules/NAME) by its core.worktree
 * naming the project root, with *common itself. The program can write
 * the project's .git file (where there is none, or without a namespace
 * by renaming the directory away), but not a git directory outside its
 * grants: without this check a planted "gitdir: DIR" would grant DIR at
 * the next launch. *why says what is missing. Returns 0 or -ENOMEM. */
static int gitdir_trusted(const char *root, const char *dotgit, const char *gitdir, char **common,
			  const char **why)
{
	char *file = xstrdup_printf("%s/commondir", gitdir), *named = NULL, *dotgit_canon = NULL;
	struct stat st;
	int r = 0;

	*common = NULL;
	if (!file)
		return -ENOMEM;
	if (lstat(file, &st) == 0) {
		/* A linked worktree's entry: its "gitdir" file names the
		 * worktree's .git file (absolute, or relative to the entry),
		 * and the entry sits in its repository's worktrees/. */
		char *parent = strdup(gitdir), *slash;

		free(file);
		file = xstrdup_printf("%s/gitdir", gitdir);
		if (!file || !parent) {
			free(parent);
			r = -ENOMEM;
			goto out;
		}
		named = gitdir_read(file, gitdir, "");
		dotgit_canon = realpath(dotgit, NULL);
		slash = strrchr(parent, '/');
		if (slash && slash != parent) {
			*slash = '\0';
			slash = strrchr(parent, '/');
		}
		if (!named || !dotgit_canon || strcmp(named, dotgit_canon) != 0)
			*why = "its gitdir file does not name this project's .git";
		else if (!slash || slash == parent || strcmp(slash + 1, "worktrees") != 0)
			*why = "it is not in a repository's worktrees directory";
		else {
			*slash = '\0';
			*common = parent;
			parent = NULL;
			/* git follows the commondir file: one naming another
			 * place leaves git without its repository, not the
			 * program with more. */
			free(file);
			file = xstrdup_printf("%s/commondir", gitdir);
			char *said = file ? gitdir_read(file, gitdir, "") : NULL;

			if (!file)
				r = -ENOMEM;
			else if (!said || strcmp(said, *common) != 0) {
				*why = "its commondir file does not name the repository it sits in";
				free(*common);
				*common = NULL;
			}
			free(said);
		}
		free(parent);
		goto out;
	}
	free(file);
	file = xstrdup_printf("%s/config", gitdir);
	if (!file) {
		r = -ENOMEM;
		goto out;
	}
	char *wt = core_worktree(file), *joined = NULL;

	if (wt)
		joined = wt[0] == '/' ? strdup(wt) : xstrdup_printf("%s/%s", gitdir, wt);
	named = joined ? realpath(joined, NULL) : NULL;
	if (named && !strcmp(named, root))
		*common = strdup(gitdir);
	else
		*why = "its core.worktree does not name this project";
	if (wt && !joined)
		r = -ENOMEM;
	if (named && !strcmp(named, root) && !*common)
		r = -ENOMEM;
	free(wt);
	free(joined);
out:
	free(file);
	free(named);
	free(dotgit_canon);
	return r;
}

/* A project whose .git is a file naming a git directory outside it (a
 * linked worktree, a separated git directory, a submodule's checkout):
 * what git needs there. Read-only: the git directory and its common
 * directory (configuration, hooks, packed refs: read and run, never
 * written). Read-write: the common directory's objects, refs and logs,
 * and a linked worktree's own entry (its index, HEAD and logs, which
 * hold no hooks and no configuration git reads unless
 * extensions.worktreeConfig is set). A separated git directory or a
 * submodule's keeps index and HEAD beside its hooks and config: with a
 * mount namespace it is read-write, its hooks, config and the other
 * protections of a git directory masked read-only as the project's own
 * .git's are (maskfacts.c finds it through the .git file); without one it
 * stays read-only, and a note says what fails. */
static int git_dirs(struct look *l)
{
	const char *root = l->host->project_root;
	char *dotgit = xstrdup_printf("%s/.git", strcmp(root, "/") ? root : "");
	char *gitdir = NULL, *common = NULL;
	struct stat st;
	int r = 0;

	if (!dotgit)
		return -ENOMEM;
	if (lstat(dotgit, &st) < 0 || !S_ISREG(st.st_mode) ||
	    !(gitdir = gitdir_read(dotgit, root, "gitdir: ")) || lf_path_covers(root, gitdir))
		goto out;
	const char *why = NULL;

	r = gitdir_trusted(root, dotgit, gitdir, &common, &why);
	if (r == 0 && !common)
		r = lf_strv_pushf(&l->out->notes,
				  "not granted: the git directory %s, which %s names: %s (git "
				  "leaves that link for a linked worktree and a submodule; a "
				  "program in the sandbox could have written %s); grant it with "
				  "host.read or host.write if it is yours",
				  gitdir, dotgit, why, dotgit);
	if (r < 0 || !common)
		goto out;
	bool linked = strcmp(common, gitdir) != 0;
	r = add(l, common, RO, LF_DISCOVERED_GIT, 0,
		xstrdup_printf("git: the repository of %s, read-only (.git names %s)", dotgit,
			       gitdir));
	for (size_t i = 0; r == 0 && i < 3; i++) {
		static const char *const rw[] = { "objects", "refs", "logs" };
		char *sub = xstrdup_printf("%s/%s", common, rw[i]);

		r = sub ? add(l, sub, RO | RW, LF_DISCOVERED_GIT, 0,
			      xstrdup_printf("git: the repository's %s (.git names %s)", rw[i],
					     gitdir))
			: -ENOMEM;
		free(sub);
	}
	if (r == 0 && linked)
		r = add(l, gitdir, RO | RW, LF_DISCOVERED_GIT, 0,
			xstrdup_printf("git: this worktree's entry (index, HEAD, its logs) in %s",
				       common));
	if (r == 0 && !linked && l->host->ns)
		r = add(l, gitdir, RO | RW, LF_DISCOVERED_GIT, 0,
			xstrdup_printf("git: the git directory %s names (index, HEAD); its hooks "
				       "and config are masked read-only",
				       dotgit));
	if (r == 0 && !linked && !l->host->ns)
		r = lf_strv_pushf(&l->out->notes,
				  "%s names the git directory %s outside the project: git reads it "
				  "and writes its objects, refs and logs, but its index and HEAD "
				  "sit beside its hooks and config, which stay read-only without a "
				  "mount namespace, so git add and git commit fail there; grant it "
				  "with host.write to allow them (its hooks and config then become "
				  "writable too)",
				  dotgit, gitdir);
out:
	free(dotgit);
	free(gitdir);
	free(common);
	return r;
}

/* ------------------------------------------------------------------------
 * The look at the host
 */

static void look_fini(struct look *l)
{
	free(l->home);
	lf_strv_fini(&l->path);
	lf_strv_fini(&l->path_canon);
	lf_strv_fini(&l->creds);
	lf_strv_fini(&l->persist);
	for (size_t i = 0; l->path_fd && i < l->path.n; i++)
		if (l->path_fd[i] >= 0)
			close(l->path_fd[i]);
	free(l->path_fd);
	free(l->command_canon);
	lf_realpath_memo_fini(&l->memo);
}

static int look_init(struct look *l)
{
	const char *path = l->get(l->ctx, "PATH");
	size_t n = 1;
	int r = 0;

	if (l->host->home && !(l->home = canon_of(l, l->host->home)) && errno == ENOMEM)
		return -ENOMEM;
	if (l->host->command && !(l->command_canon = canon_of(l, l->host->command)) &&
	    errno == ENOMEM)
		return -ENOMEM;
	for (const char *p = path; p && *p; p++)
		n += *p == ':';
	if (!(l->path_fd = malloc(n * sizeof(int))))
		return -ENOMEM;
	for (const char *p = path; p && r == 0;) {
		const char *end = strchrnul(p, ':');
		char *entry = strndup(p, (size_t)(end - p)), *clean = NULL, *canon = NULL;
		int fd;

		if (!entry)
			return -ENOMEM;
		/* Relative entries (".", "") depend on the working directory:
		 * they find things in the project, which is granted anyway.
		 * An entry that is not a directory finds nothing. */
		if (entry[0] == '/' && (r = lf_path_clean_dup(entry, &clean)) == 0) {
			fd = open(clean, O_PATH | O_DIRECTORY | O_CLOEXEC);
			if (fd >= 0 && !(canon = canon_of(l, clean)) && errno == ENOMEM)
				r = -ENOMEM;
			if (r == 0)
				r = lf_strv_push(&l->path, clean);
			if (r == 0)
				r = lf_strv_push(&l->path_canon, canon ? canon : "");
			if (r == 0)
				l->path_fd[l->path.n - 1] = fd;
			else if (fd >= 0)
				close(fd);
			free(canon);
		}
		free(clean);
		free(entry);
		p = *end ? end + 1 : NULL;
	}
	return r;
}

int lf_discover(const struct lf_effective *e, const struct lf_host *host, lf_discover_getenv get,
		void *ctx, struct lf_discovery *out)
{
	struct lf_dirnames home_names = { 0 };
	struct look l = {
		.host = host, .get = get, .ctx = ctx, .home_names = &home_names, .out = out
	};
	int r;

	if (!host || !get || !out)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	r = look_init(&l);
	if (r == 0)
		r = self(&l);
	if (r == 0)
		r = command_tree(&l);
	if (r == 0)
		r = toolchains(&l, e);
	if (r == 0 && host->project_root)
		r = git_dirs(&l);
	look_fini(&l);
	lf_dirnames_fini(&home_names);
	if (r < 0)
		lf_discovery_fini(out);
	return r;
}
