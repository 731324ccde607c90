/* SPDX-License-Identifier: MIT */
/*
 * The facts the masks need (core/sandbox.h; doc/landlock.md, "Masks"),
 * part of the I/O step: what each fence is at launch, the matches of a
 * glob that must be expanded, other mount paths that show a fenced or
 * protected place (mountinfo), the git directories of the project and
 * the places of every protection, and the entries of /etc others cannot
 * read. Symbolic links are never followed; every walk is the one walker,
 * and one that could not finish says why.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/path.h"
#include "core/sandbox.h"
#include "core/tables.h"
#include "fs/fs.h"
#include "fs/maskfacts.h"
#include "fs/hostfacts.h"
#include "fs/treecache.h"
#include "policy/policy.h"

static enum lf_ftype ftype_of(mode_t m)
{
	return S_ISDIR(m)   ? LF_FT_DIR
	       : S_ISREG(m) ? LF_FT_FILE
	       : S_ISLNK(m) ? LF_FT_LINK
			    : LF_FT_OTHER;
}

static enum lf_ftype ftype_at(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0 ? ftype_of(st.st_mode) : LF_FT_NONE;
}

static int typed_push(struct lf_typed_path **v, size_t *n, size_t *cap, const char *path,
		      enum lf_ftype type)
{
	if (lf_grow((void **)v, cap, *n, sizeof(**v)) < 0)
		return -ENOMEM;
	(*v)[*n].path = strdup(path);
	if (!(*v)[*n].path)
		return -ENOMEM;
	(*v)[(*n)++].type = type;
	return 0;
}

static enum lf_ftype dt_ftype(unsigned char t)
{
	return t == DT_DIR   ? LF_FT_DIR
	       : t == DT_REG ? LF_FT_FILE
	       : t == DT_LNK ? LF_FT_LINK
			     : LF_FT_OTHER;
}

/* ------------------------------------------------------------------------
 * Mount aliases
 */

struct mnt {
	char *root;  /* the place in its file system that the mount shows */
	char *point; /* where it is mounted */
	unsigned major, minor;
};

struct mnts {
	struct mnt *v;
	size_t n, cap;
};

static void mnts_fini(struct mnts *m)
{
	for (size_t i = 0; i < m->n; i++) {
		free(m->v[i].root);
		free(m->v[i].point);
	}
	free(m->v);
}

/* /proc/self/mountinfo: "ID PARENT MAJ:MIN ROOT POINT ...", as the host
 * read it (given, given_len bytes), else read here. Unreadable: no mounts
 * known (aliases cannot be looked for; said by the caller); a line not
 * understood likewise leaves *ok false. */
static int mnts_read(struct mnts *m, bool *ok, const char *given, size_t given_len)
{
	char *text = NULL;
	size_t len = 0;
	int r = given ? ((text = strndup(given, given_len)) ? 0 : -ENOMEM)
		      : lf_file_read("/proc/self/mountinfo", 16u << 20, &text, &len);

	*ok = r == 0;
	if (r < 0)
		return r == -ENOMEM ? r : 0;
	r = 0;
	for (char *line = text, *next; line && *line && r == 0; line = next) {
		char *f[5], *end = NULL;
		unsigned long maj = 0, min = 0;
		int nf = 0;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		/* "ID PARENT MAJ:MIN ROOT POINT ...", split in place: a field
		 * has no blank (mountinfo escapes them), and no bound but the
		 * line's (a path of PATH_MAX bytes is 4 times longer escaped). */
		for (char *p = line; nf < 5 && p && *p; nf++) {
			f[nf] = p;
			p = strchr(p, ' ');
			if (p)
				*p++ = '\0';
		}
		bool parsed = false;

		if (nf == 5) {
			maj = strtoul(f[2], &end, 10);
			if (*end == ':') {
				min = strtoul(end + 1, &end, 10);
				parsed = *end == '\0' && f[4][0] == '/';
			}
		}
		if (!parsed) {
			*ok = false; /* a line not understood: a mount not known */
			continue;
		}
		char *root = f[3], *point = f[4];

		lf_mountinfo_unescape(root);
		lf_mountinfo_unescape(point);
		if (lf_grow((void **)&m->v, &m->cap, m->n, sizeof(*m->v)) < 0) {
			r = -ENOMEM;
			break;
		}
		struct mnt *x = &m->v[m->n];
		x->root = strdup(root);
		x->point = strdup(point);
		x->major = (unsigned)maj;
		x->minor = (unsigned)min;
		if (!x->root || !x->point) {
			free(x->root);
			free(x->point);
			r = -ENOMEM;
			break;
		}
		m->n++;
	}
	free(text);
	return r;
}

/* base joined with the part of path below prefix ("" when equal). */
static char *rebase(const char *base, const char *prefix, const char *path)
{
	size_t pl = strcmp(prefix, "/") ? strlen(prefix) : 0;
	const char *rest = path + pl;
	char *s = NULL;

	if (!*rest)
		return strdup(base);
	if (asprintf(&s, "%s%s", strcmp(base, "/") ? base : "", rest) < 0)
		return NULL;
	return s;
}

/* Sets (*v)[i] to a copy of s, i being the array's length (the length
 * is the caller's: a parallel array of strs_push's). */
static int strs_append(char ***v, size_t i, const char *s)
{
	char **nv = reallocarray(*v, i + 1, sizeof(*nv));

	if (!nv)
		return -ENOMEM;
	*v = nv;
	return (nv[i] = strdup(s)) ? 0 : -ENOMEM;
}

static int strs_push(char ***v, size_t *n, const char *s)
{
	char **nv;

	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*v)[i], s))
			return 0;
	nv = reallocarray(*v, *n + 1, sizeof(*nv));
	if (!nv)
		return -ENOMEM;
	*v = nv;
	if (!(nv[*n] = strdup(s)))
		return -ENOMEM;
	(*n)++;
	return 0;
}

/* Other mount paths that show path's place: a mount of the same file
 * system whose root holds it (path seen again below it), or whose root
 * lies below it (a part of it seen there). With shown, also which part of
 * path each alias shows: path itself, or the place below it that is the
 * mount's root (a bind of /etc/ssl shows /etc/ssl, not /etc). */
static int aliases_of(const struct mnts *m, const char *path, char ***out, char ***shown,
		      size_t *nout)
{
	const struct mnt *home = NULL;
	size_t hl = 0;
	char *where;
	int r = 0;

	for (size_t i = 0; i < m->n; i++) {
		size_t l = strlen(m->v[i].point);

		/* The last mount on the longest point: the one on top. */
		if (lf_path_covers(m->v[i].point, path) && (!home || l >= hl)) {
			home = &m->v[i];
			hl = l;
		}
	}
	if (!home)
		return 0;
	where = rebase(home->root, home->point, path);
	if (!where)
		return -ENOMEM;
	for (size_t i = 0; i < m->n && r == 0; i++) {
		const struct mnt *x = &m->v[i];
		char *alias = NULL, *part = NULL;

		if (x == home || x->major != home->major || x->minor != home->minor)
			continue;
		if (lf_path_covers(x->root, where)) {
			alias = rebase(x->point, x->root, where);
			part = strdup(path);
		} else if (lf_path_covers(where, x->root)) {
			alias = strdup(x->point);
			part = rebase(path, where, x->root);
		} else {
			continue;
		}
		if (!alias || !part) {
			r = -ENOMEM;
		} else if (strcmp(alias, path) != 0) {
			size_t n = *nout;

			/* The part first: every alias pushed has one. */
			r = shown ? strs_append(shown, n, part) : 0;
			if (r == 0) {
				r = strs_push(out, nout, alias);
				/* Failed, or an alias seen already. */
				if (shown && (r < 0 || *nout == n)) {
					free((*shown)[n]);
					(*shown)[n] = NULL;
				}
			}
		}
		free(alias);
		free(part);
	}
	free(where);
	return r;
}

/* ------------------------------------------------------------------------
 * Fences: types, expansion, aliases
 */

/* Whether glob g has more than its static prefix to match: "**" alone,
 * or the prefix then "/" and "**", cover the prefix whole. */
static bool glob_has_tail(const struct lf_glob *g)
{
	const char *tail = g->pattern + g->prefix_len;

	if (!*tail)
		return false;
	if (g->prefix_len == 0)
		return strcmp(tail, "**") != 0;
	return strcmp(tail, "/**") != 0;
}

/* Whether a read candidate lies at or below path (the fence covers a
 * grant, so masking its prefix would hide the grant itself). */
static bool covers_read_cand(const struct lf_sandbox_input *in, const char *path)
{
	for (size_t i = 0; i < in->ncands; i++) {
		const struct lf_cand *c = &in->cands[i];

		if ((c->access & LF_ACCESS_RO) && c->raw[0] == '/' &&
		    (lf_path_covers(path, c->raw) || (c->canon && lf_path_covers(path, c->canon))))
			return true;
	}
	return false;
}

struct expand {
	struct lf_fence_in *f;
	size_t rlen; /* the project root's length: matched paths are relative to it */
};

/* Whether the pattern's segments can consume rel's (project-relative,
 * "/"-separated): the glob may then match rel, cover it, or match below
 * it. Segments compare as the glob grammar does (doc/globs.md): "*", "?"
 * and classes within a segment, "**" any number of segments. */
static bool glob_reaches(const char *pat, const char *rel)
{
	size_t pl = strcspn(pat, "/"), rl = strcspn(rel, "/");
	char ps[256], rs[256];

	if (!*rel)
		return true; /* every segment of the path consumed */
	if (!*pat)
		return true; /* the pattern matched above: it covers what is below */
	if (pl >= sizeof(ps) || rl >= sizeof(rs))
		return true; /* cannot tell: as if it could */
	memcpy(ps, pat, pl);
	ps[pl] = '\0';
	memcpy(rs, rel, rl);
	rs[rl] = '\0';
	const char *pn = pat + pl + (pat[pl] == '/'), *rn = rel + rl + (rel[rl] == '/');
	if (!strcmp(ps, "**"))
		return glob_reaches(pn, rel) || glob_reaches(pat, rn);
	return fnmatch(ps, rs, 0) == 0 && glob_reaches(pn, rn);
}

static int expand_visit(void *ctx, const struct lf_walk_entry *e)
{
	struct expand *x = ctx;
	const char *rel = e->path + x->rlen;

	if (*rel == '/')
		rel++;
	/* A link the glob may match through names, under its name, what
	 * lies where it leads: kept as a match, which no mask can cover. */
	if (e->type == DT_LNK && glob_reaches(x->f->glob->pattern, rel)) {
		if (typed_push(&x->f->matches, &x->f->nmatches, &x->f->matches_cap, e->path,
			       LF_FT_LINK) < 0)
			return -ENOMEM;
		return LF_WALK_NEXT;
	}
	if (!lf_glob_match(x->f->glob, rel))
		return LF_WALK_NEXT;
	if (typed_push(&x->f->matches, &x->f->nmatches, &x->f->matches_cap, e->path,
		       dt_ftype(e->type)) < 0)
		return -ENOMEM;
	/* A matching directory is masked whole. */
	return LF_WALK_SKIP;
}

/* Every path below f's prefix that f's glob matches at launch. */
static int fence_expand(const struct lf_sandbox_input *in, struct lf_fence_in *f)
{
	const char *root = in->host.project_root;
	struct expand x = { f, strcmp(root, "/") ? strlen(root) : 0 };
	struct lf_walk w = { .visit = expand_visit, .ctx = &x };
	int r;

	f->expanded = true;
	if (!lf_path_covers(root, f->canon)) {
		f->expand_err = strdup("its prefix lies outside the project");
		return f->expand_err ? 0 : -ENOMEM;
	}
	/* The glob names paths through the link; the walk sees where it
	 * leads: matching one against the other would miss. */
	char *clean = NULL;
	if (lf_path_clean_dup(f->raw, &clean) < 0)
		return -ENOMEM;
	bool linked = strcmp(clean, f->canon) != 0;
	free(clean);
	if (linked) {
		f->expand_err = strdup("its prefix goes through a symbolic link");
		return f->expand_err ? 0 : -ENOMEM;
	}
	lf_walk_begin(&w);
	r = lf_walk_run(&w, f->canon);
	if (r == 0 && w.incomplete && !(f->expand_err = strdup(w.reason ? w.reason : "incomplete")))
		r = -ENOMEM;
	lf_walk_end(&w);
	return r;
}

static int facts_fences(struct lf_sandbox_input *in, const struct mnts *m)
{
	int r = 0;

	for (size_t i = 0; i < in->nfences && r == 0; i++) {
		struct lf_fence_in *f = &in->fences[i];

		if (!f->canon)
			continue;
		f->type = ftype_at(f->canon);
		if (f->type != LF_FT_NONE)
			r = aliases_of(m, f->canon, &f->aliases, NULL, &f->naliases);
		if (r == 0 && in->host.ns && f->glob && f->access == LF_ACCESS_RO &&
		    f->type == LF_FT_DIR && glob_has_tail(f->glob) &&
		    covers_read_cand(in, f->canon))
			r = fence_expand(in, f);
	}
	return r;
}

/* ------------------------------------------------------------------------
 * Git directories
 */

/* The git directory a ".git" entry names: itself when a directory, the
 * "gitdir: X" of a file (relative to the file's directory). */
static char *gitdir_of(const char *dotgit)
{
	struct stat st;
	char *text = NULL, *dir = NULL, *out = NULL;
	size_t len;

	if (lstat(dotgit, &st) != 0)
		return NULL;
	if (S_ISDIR(st.st_mode))
		return realpath(dotgit, NULL);
	if (!S_ISREG(st.st_mode) ||
	    lf_file_read_at(AT_FDCWD, dotgit, LF_FILE_STRICT, 4096, &text, &len) < 0)
		return NULL;
	if (strncmp(text, "gitdir: ", 8) == 0) {
		char *g = text + 8;

		g[strcspn(g, "\r\n")] = '\0';
		if (g[0] == '/')
			dir = strdup(g);
		else {
			const char *slash = strrchr(dotgit, '/');

			if (asprintf(&dir, "%.*s/%s", (int)(slash - dotgit), dotgit, g) < 0)
				dir = NULL;
		}
		out = dir ? realpath(dir, NULL) : NULL;
	}
	free(dir);
	free(text);
	return out;
}

static int gitdir_add(struct lf_strv *dirs, char *dir)
{
	int r = 0;

	if (!dir)
		return 0;
	for (size_t i = 0; i < dirs->n; i++)
		if (!strcmp(dirs->v[i], dir)) {
			free(dir);
			return 0;
		}
	r = lf_strv_push(dirs, dir);
	free(dir);
	return r;
}

struct gitwalk {
	struct lf_strv *dirs;
	struct lf_strv *dotgit_files; /* ".git" files found: gitdir pointers */
};

/* Nested repositories: a ".git" anywhere below the project root. */
static int nested_visit(void *ctx, const struct lf_walk_entry *e)
{
	struct gitwalk *g = ctx;

	if (strcmp(e->name, ".git") != 0)
		return LF_WALK_NEXT;
	/* A .git file names the git directory git uses there: pointed
	 * elsewhere, at hooks made for it, it plants them. */
	if (e->type == DT_REG && lf_strv_push(g->dotgit_files, e->path) < 0)
		return -ENOMEM;
	if (e->depth > 1) {
		int r = gitdir_add(g->dirs, gitdir_of(e->path));

		if (r < 0)
			return r;
	}
	return LF_WALK_SKIP;
}

/* Submodules: every directory below modules/ that holds a HEAD; linked
 * worktrees' git directories below worktrees/ the same way. */
static int modules_visit(void *ctx, const struct lf_walk_entry *e)
{
	struct gitwalk *g = ctx;
	struct stat st;

	if (e->type != DT_DIR)
		return LF_WALK_SKIP;
	char head[4096];
	if (snprintf(head, sizeof(head), "%s/HEAD", e->name) >= (int)sizeof(head) ||
	    fstatat(e->dirfd, head, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode))
		return LF_WALK_NEXT;
	int r = gitdir_add(g->dirs, realpath(e->path, NULL));
	/* Its own modules/ is looked at when its turn comes. */
	return r < 0 ? r : LF_WALK_SKIP;
}

/* A linked worktree's git directory names the common one. */
static char *commondir_of(const char *gitdir)
{
	char *p = NULL, *text = NULL, *dir = NULL, *out = NULL;
	size_t len;

	if (asprintf(&p, "%s/commondir", gitdir) < 0)
		return NULL;
	if (lf_file_read_at(AT_FDCWD, p, LF_FILE_STRICT, 4096, &text, &len) == 0) {
		text[strcspn(text, "\r\n")] = '\0';
		if (text[0] == '/')
			dir = strdup(text);
		else if (asprintf(&dir, "%s/%s", gitdir, text) < 0)
			dir = NULL;
		out = dir ? realpath(dir, NULL) : NULL;
	}
	free(p);
	free(text);
	free(dir);
	return out;
}

static int walk_collect(const char *root, lf_walk_fn visit, struct gitwalk *g, char **err)
{
	struct lf_walk w = { .visit = visit, .ctx = g };
	int r;

	lf_walk_begin(&w);
	r = lf_walk_run(&w, root);
	if (r == 0 && w.incomplete && !*err &&
	    asprintf(err, "%s: %s", root, w.reason ? w.reason : "incomplete") < 0)
		r = -ENOMEM;
	lf_walk_end(&w);
	return r;
}

/* The project's git directories: its own (a directory, or the one its
 * .git file names, and that one's common directory), the submodules'
 * below modules/ of each, and nested repositories anywhere in the tree
 * when the project is writable (a place the program cannot write cannot
 * get a hook planted). */
static int protect_extra(struct lf_sandbox_input *in, const char *name, const char *why,
			 const char *path);

int lf_gitdirs_find(const char *root, const char *config_dir, bool walk_tree,
		    struct lf_search_ahead *ahead, struct lf_strv *dirs,
		    struct lf_strv *dotgit_files, char **err)
{
	struct gitwalk g = { .dirs = dirs, .dotgit_files = dotgit_files };
	char *main = NULL;
	struct stat st;
	int r;

	if (asprintf(&main, "%s/.git", strcmp(root, "/") ? root : "") < 0)
		return -ENOMEM;
	r = gitdir_add(dirs, gitdir_of(main));
	if (r == 0 && lstat(main, &st) == 0 && S_ISREG(st.st_mode))
		r = lf_strv_push(dotgit_files, main);
	free(main);
	if (r == 0 && walk_tree) {
		/* The cache of directory listings when it can answer whole
		 * (treecache.c), else the walk. */
		struct lf_dotgit *dg = NULL;
		size_t ndg = 0;
		int c = lf_treecache_dotgits_join(ahead, config_dir, root, &dg, &ndg);

		if (c < 0)
			r = c;
		else if (c == 0)
			r = walk_collect(root, nested_visit, &g, err);
		for (size_t i = 0; c == 1 && r == 0 && i < ndg; i++) {
			struct lf_walk_entry e = {
				.dirfd = -1,
				.name = ".git",
				.path = dg[i].path,
				.path_len = strlen(dg[i].path),
				.type = dg[i].type,
				.depth = dg[i].depth,
			};

			r = nested_visit(&g, &e);
			r = r < 0 ? r : 0;
		}
		lf_dotgits_free(dg, ndg);
	}
	/* The list grows while it is read: each directory's own. A linked
	 * worktree's git directory below worktrees/ holds its commondir and
	 * config.worktree, which git in that worktree (outside the project,
	 * perhaps) reads: a git directory too. */
	for (size_t i = 0; r == 0 && i < dirs->n; i++) {
		char *mods = NULL, *wts = NULL;
		r = gitdir_add(dirs, commondir_of(dirs->v[i]));
		if (r == 0 && (asprintf(&mods, "%s/modules", dirs->v[i]) < 0 ||
			       asprintf(&wts, "%s/worktrees", dirs->v[i]) < 0))
			r = -ENOMEM;
		if (r == 0)
			r = walk_collect(mods, modules_visit, &g, err);
		if (r == 0)
			r = walk_collect(wts, modules_visit, &g, err);
		free(mods);
		free(wts);
	}
	return r;
}

static int facts_gitdirs(struct lf_sandbox_input *in, bool walk_tree, char **err)
{
	struct lf_strv dotgit_files = { 0 };
	int r;

	r = lf_gitdirs_find(in->host.project_root, in->host.config_dir, walk_tree,
			    in->host.dotgits_ahead, &in->gitdirs, &dotgit_files, err);
	for (size_t i = 0; r == 0 && i < dotgit_files.n; i++)
		r = protect_extra(in, ".git (a file)",
				  "names the git directory, and so the hooks, git uses there",
				  dotgit_files.v[i]);
	lf_strv_fini(&dotgit_files);
	return r;
}

/* ------------------------------------------------------------------------
 * Protections
 */

/* names: base's, listed once for all its rows (most are missing), or
 * NULL. */
static int protect_place(struct lf_sandbox_input *in, const char *base, const char *rel,
			 size_t entry, struct lf_dirnames *names)
{
	char *joined = NULL, *parent, *canon = NULL, *path = NULL;
	const char *name;
	int r = 0;

	if (asprintf(&joined, "%s/%s", strcmp(base, "/") ? base : "", rel) < 0 || !joined)
		return -ENOMEM;
	enum lf_ftype type =
		names && lf_dirnames_absent(names, base, joined) ? LF_FT_NONE : ftype_at(joined);
	if (type == LF_FT_NONE) {
		/* Not there: watched by its name, whatever the parents are
		 * (most rows; no realpath for them). */
		path = joined;
		joined = NULL;
	} else {
		/* The parent as it really is, the last name as written: a
		 * link there is the persistence path itself (it cannot be
		 * masked). */
		name = strrchr(joined, '/') + 1;
		parent = strndup(joined, (size_t)(name - joined - 1));
		r = parent ? lf_path_canon_lenient(parent[0] ? parent : "/", &canon) : -ENOMEM;
		if (r == 0 && asprintf(&path, "%s/%s", strcmp(canon, "/") ? canon : "", name) < 0)
			r = -ENOMEM;
		free(parent);
		free(canon);
	}
	free(joined);
	if (r < 0)
		return r;
	if (!path)
		return -ENOMEM;
	for (size_t i = 0; i < in->nprotect_paths; i++)
		if (!strcmp(in->protect_paths[i].path, path)) {
			free(path);
			return 0;
		}
	if (lf_grow((void **)&in->protect_paths, &in->protect_paths_cap, in->nprotect_paths,
		    sizeof(*in->protect_paths)) < 0) {
		free(path);
		return -ENOMEM;
	}
	in->protect_paths[in->nprotect_paths++] =
		(struct lf_protect_path){ path, entry, type == LF_FT_NONE ? type : ftype_at(path) };
	return 0;
}

/* A protection only a fact can name: core.hooksPath and the files a
 * git config includes. */
static int protect_extra(struct lf_sandbox_input *in, const char *name, const char *why,
			 const char *path)
{
	char *n = strdup(name);

	if (!n || lf_grow((void **)&in->protects, &in->protects_cap, in->nprotects,
			  sizeof(*in->protects)) < 0) {
		free(n);
		return -ENOMEM;
	}
	in->protects[in->nprotects++] = (struct lf_protect_in){
		.base = LF_PROTECT_PROJECT,
		.rel = NULL,
		.name = n,
		.why = why,
	};
	const char *slash = strrchr(path, '/');
	char *dir = strndup(path, (size_t)(slash - path));
	int r = dir ? protect_place(in, dir[0] ? dir : "/", slash + 1, in->nprotects - 1, NULL)
		    : -ENOMEM;
	free(dir);
	return r;
}

/* A value of a git config line "key = value", trimmed, quotes removed;
 * NULL when the line is not key. */
char *lf_git_config_value(char *line, const char *key)
{
	size_t kl = strlen(key);
	char *v;

	while (*line == ' ' || *line == '\t')
		line++;
	if (strncasecmp(line, key, kl) != 0)
		return NULL;
	v = line + kl;
	while (*v == ' ' || *v == '\t')
		v++;
	if (*v != '=')
		return NULL;
	v++;
	while (*v == ' ' || *v == '\t')
		v++;
	size_t n = strcspn(v, "\r\n;#");
	while (n && (v[n - 1] == ' ' || v[n - 1] == '\t'))
		n--;
	if (n >= 2 && v[0] == '"' && v[n - 1] == '"') {
		v++;
		n -= 2;
	}
	v[n] = '\0';
	return v;
}

/* core.hooksPath (git runs the hooks it names) and include.path (the
 * included file is config too) of a git directory's config. */
static int config_protects(struct lf_sandbox_input *in, const char *gitdir, bool main)
{
	char *p = NULL, *text = NULL;
	size_t len;
	char section[64] = "";
	int r = 0;

	if (asprintf(&p, "%s/config", gitdir) < 0)
		return -ENOMEM;
	if (lf_file_read_at(AT_FDCWD, p, LF_FILE_STRICT, 1u << 20, &text, &len) < 0) {
		free(p);
		return 0;
	}
	free(p);
	for (char *line = text, *next; line && *line && r == 0; line = next) {
		char *v, *path = NULL;
		const char *base;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		char *s = line + strspn(line, " \t");
		if (*s == '[') {
			size_t n = strcspn(s + 1, " \t]\"");
			snprintf(section, sizeof(section), "%.*s", (int)n, s + 1);
			continue;
		}
		bool hooks =
			!strcasecmp(section, "core") && (v = lf_git_config_value(s, "hookspath"));
		bool incl =
			!hooks &&
			(!strcasecmp(section, "include") || !strcasecmp(section, "includeIf")) &&
			(v = lf_git_config_value(s, "path"));
		if (!hooks && !incl)
			continue;
		if (v[0] == '/')
			base = "";
		else if (v[0] == '~' && v[1] == '/' && in->host.home)
			base = in->host.home, v++;
		else if (incl)
			base = gitdir;
		else if (main)
			base = in->host.project_root;
		else
			continue;
		if (asprintf(&path, "%s%s%s", base, v[0] == '/' || !base[0] ? "" : "/", v) < 0)
			r = -ENOMEM;
		char *clean = NULL;
		if (r == 0 && (r = lf_path_clean_dup(path, &clean)) == 0)
			r = protect_extra(in, hooks ? "core.hooksPath" : "include.path",
					  hooks ? "git runs the hooks core.hooksPath names"
						: "a file a git config includes: more git config",
					  clean);
		free(clean);
		free(path);
	}
	free(text);
	return r;
}

/* Whether a read-write candidate overlaps the project: then something
 * there can be planted. */
static bool project_writable(const struct lf_sandbox_input *in)
{
	for (size_t i = 0; i < in->ncands; i++)
		if ((in->cands[i].access & LF_ACCESS_RW) && in->cands[i].raw[0] == '/' &&
		    lf_path_overlap(in->cands[i].raw, in->host.project_root))
			return true;
	return false;
}

static int facts_protects(struct lf_sandbox_input *in, const struct mnts *m, char **git_err)
{
	struct lf_dirnames proj_names = { 0 }, home_names = { 0 };
	size_t nrows = in->nprotects;
	int r;

	r = facts_gitdirs(in, project_writable(in), git_err);
	for (size_t i = 0; r == 0 && i < nrows; i++) {
		const struct lf_protect_in *e = &in->protects[i];

		if (e->base == LF_PROTECT_PROJECT)
			r = protect_place(in, in->host.project_root, e->rel, i, &proj_names);
		else if (e->base == LF_PROTECT_HOME && in->host.home)
			r = protect_place(in, in->host.home, e->rel, i, &home_names);
		for (size_t g = 0; r == 0 && e->base == LF_PROTECT_GITDIR && g < in->gitdirs.n; g++)
			r = protect_place(in, in->gitdirs.v[g], e->rel, i, NULL);
	}
	lf_dirnames_fini(&proj_names);
	lf_dirnames_fini(&home_names);
	for (size_t g = 0; r == 0 && g < in->gitdirs.n; g++)
		r = config_protects(in, in->gitdirs.v[g], g == 0);
	/* The same places through another mount path. */
	for (size_t i = 0, n = in->nprotect_paths; r == 0 && i < n; i++) {
		char **al = NULL;
		size_t nal = 0;

		if (in->protect_paths[i].type == LF_FT_NONE)
			continue;
		r = aliases_of(m, in->protect_paths[i].path, &al, NULL, &nal);
		for (size_t k = 0; r == 0 && k < nal; k++) {
			if (lf_grow((void **)&in->protect_paths, &in->protect_paths_cap,
				    in->nprotect_paths, sizeof(*in->protect_paths)) < 0) {
				r = -ENOMEM;
				break;
			}
			in->protect_paths[in->nprotect_paths++] =
				(struct lf_protect_path){ al[k], in->protect_paths[i].entry,
							  in->protect_paths[i].type, true };
			al[k] = NULL;
		}
		for (size_t k = 0; k < nal; k++)
			free(al[k]);
		free(al);
	}
	return r;
}

/* ------------------------------------------------------------------------
 * /etc, as one rule
 */

/* One entry at path, of status st (not a link): kept when others cannot
 * read it, or it is in the built-in list, and then not entered. */
static int etc_judge(void *ctx, const char *path, const struct stat *st, const char *target)
{
	struct lf_etc_scan *out = ctx;
	bool dir = S_ISDIR(st->st_mode);

	(void)target; /* no links: LF_LIST_LINKS is not asked for */
	bool hidden = dir ? (st->st_mode & (S_IROTH | S_IXOTH)) != (S_IROTH | S_IXOTH)
			  : !(st->st_mode & S_IROTH);

	/* The built-in list too, whatever its mode says. */
	if (!hidden && !lf_etc_is_hidden(path))
		return LF_WALK_NEXT;
	if (typed_push(&out->v, &out->n, &out->cap, path, ftype_of(st->st_mode)) < 0)
		return -ENOMEM;
	return LF_WALK_SKIP;
}

static int etc_visit(void *ctx, const struct lf_walk_entry *e)
{
	struct stat st;

	if (e->type == DT_LNK)
		return LF_WALK_NEXT; /* judged where it leads */
	if (fstatat(e->dirfd, e->name, &st, AT_SYMLINK_NOFOLLOW) != 0)
		return errno == ENOENT ? LF_WALK_NEXT : LF_WALK_STOP;
	if (S_ISLNK(st.st_mode))
		return LF_WALK_NEXT; /* the listing did not say: as above */
	return etc_judge(ctx, e->path, &st, NULL);
}

/* Budget of the look at /etc: a Debian system has ~1,500 entries. Its
 * time is the walker's (LF_WALK_MAX_MILLIS). */
#define ETC_MAX_ENTRIES 50000u

void lf_etc_scan_fini(struct lf_etc_scan *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i].path);
	free(s->v);
	free(s->err);
	memset(s, 0, sizeof(*s));
}

int lf_etc_scan(const char *root, const char *config_dir, struct lf_etc_scan *out)
{
	struct lf_walk w = { .visit = etc_visit, .ctx = out };
	int r;

	memset(out, 0, sizeof(*out));
	/* Each entry looked at as the walk would, most listings from the
	 * cache: whole, or nothing and the walk. */
	r = config_dir ? lf_treecache_list(config_dir, root, ETC_MAX_ENTRIES, 0, etc_judge, out)
		       : 0;
	if (r == 1)
		return 0;
	lf_etc_scan_fini(out); /* what it gathered before it gave up */
	if (r < 0)
		return r;
	w.budget.max_entries = ETC_MAX_ENTRIES;
	lf_walk_begin(&w);
	r = lf_walk_run(&w, root);
	if (r == 0 && (w.incomplete || w.stopped) &&
	    !(out->err = strdup(w.reason ? w.reason : "an entry could not be looked at")))
		r = -ENOMEM;
	lf_walk_end(&w);
	if (r < 0)
		lf_etc_scan_fini(out);
	return r;
}

/* Whether the program may reach path with others' permissions: every
 * directory from /etc down to path's parent searchable by others. */
static int others_reach(const char *path, bool *reach)
{
	char *d = strdup(path), *s;
	struct stat st;

	if (!d)
		return -ENOMEM;
	*reach = true;
	while (*reach && (s = strrchr(d, '/')) && s - d > 4) {
		*s = '\0';
		if (fstatat(AT_FDCWD, d, &st, AT_SYMLINK_NOFOLLOW) != 0) {
			int e = errno;
			free(d);
			return e == ENOENT ? (*reach = false, 0) : -e;
		}
		*reach = S_ISDIR(st.st_mode) && (st.st_mode & S_IXOTH);
	}
	free(d);
	return 0;
}

/* One entry of the built-in list at path: kept when others could read
 * it (the id-mapped mount leaves it readable, hence a mask). */
static int builtin_one(struct lf_etc_scan *out, const char *path)
{
	struct stat st;
	bool reach;
	int r;

	if (fstatat(AT_FDCWD, path, &st, AT_SYMLINK_NOFOLLOW) != 0)
		return errno == ENOENT || errno == ENOTDIR ? 0 : -errno;
	if (S_ISLNK(st.st_mode)) /* judged where it leads */
		return 0;
	bool open = S_ISDIR(st.st_mode) ? (st.st_mode & (S_IROTH | S_IXOTH)) != 0
					: (st.st_mode & S_IROTH) != 0;
	if (!open)
		return 0;
	if ((r = others_reach(path, &reach)) < 0 || !reach)
		return r;
	return typed_push(&out->v, &out->n, &out->cap, path, ftype_of(st.st_mode));
}

/* The entries of lf_etc_hidden others could read, for /etc seen as
 * others see it: a look at each literal entry and one listing per
 * pattern's directory instead of a walk of /etc. */
int lf_etc_builtin_scan(struct lf_etc_scan *out)
{
	int r = 0;

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; r == 0 && lf_etc_hidden[i]; i++) {
		const char *h = lf_etc_hidden[i];
		const char *wild = h + strcspn(h, "*?[\\");

		if (!*wild) {
			r = builtin_one(out, h);
			continue;
		}
		/* A pattern in its last component: its directory listed. */
		const char *slash = strrchr(h, '/');
		char *dir = strndup(h, (size_t)(slash - h));
		int fd = dir ? open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) : -1;
		DIR *dp = fd >= 0 ? fdopendir(fd) : NULL;

		if (!dir) {
			r = -ENOMEM;
		} else if (!dp) {
			r = errno == ENOENT || errno == ENOTDIR ? 0 : -errno;
			if (fd >= 0)
				close(fd);
		} else {
			struct dirent *de;
			char *p;

			while (r == 0 && (errno = 0, de = readdir(dp))) {
				if (asprintf(&p, "%s/%s", dir, de->d_name) < 0) {
					r = -ENOMEM;
					break;
				}
				if (fnmatch(h, p, FNM_PATHNAME) == 0)
					r = builtin_one(out, p);
				free(p);
			}
			if (r == 0 && errno)
				r = -errno;
			closedir(dp);
		}
		free(dir);
	}
	if (r < 0 && r != -ENOMEM) {
		char *why = NULL;

		/* Fail closed: /etc is then not granted, and plan says why. */
		lf_etc_scan_fini(out);
		if (asprintf(&why, "the built-in list of its secrets: %s", strerror(-r)) < 0)
			return -ENOMEM;
		out->err = why;
		return 0;
	}
	if (r < 0)
		lf_etc_scan_fini(out);
	return r;
}

/* Whether a candidate grants near /etc what the id-mapped mount would
 * not give as planned: a write at, below or above it (through the mount
 * root may write only what others may), or a read strictly below it (a
 * project or a grant inside /etc: its files others cannot read would be
 * refused where the plan says granted). Then /etc is walked. */
static bool etc_grant_near(const struct lf_sandbox_input *in, const char *etc)
{
	for (size_t i = 0; i < in->ncands; i++) {
		const struct lf_cand *c = &in->cands[i];
		const char *p = c->canon ? c->canon : c->raw;

		if (!p)
			continue;
		if ((c->access & LF_ACCESS_RW) &&
		    (lf_path_covers(p, etc) || lf_path_covers(etc, p)))
			return true;
		if (c->access && strcmp(p, etc) != 0 && lf_path_covers(etc, p))
			return true;
	}
	return false;
}

static int facts_etc(struct lf_sandbox_input *in, const struct lf_cand *c, const struct mnts *m)
{
	struct lf_etc_scan scan;
	int r;

	if (in->etc_checked) /* one /etc row: looked at once */
		return 0;
	in->etc_checked = true;
	r = aliases_of(m, c->canon, &in->etc_aliases, &in->etc_alias_shown, &in->netc_aliases);
	if (r < 0)
		return r;
	/* Root, with a file system that allows it, no other mount path
	 * showing /etc and no grant near it: the kernel judges each entry
	 * by its mode for others, at each access (and an entry made
	 * unreadable during the run too), where the walk looked once. */
	in->etc_others = in->host.ns_others && !strcmp(c->canon, "/etc") && !in->netc_aliases &&
			 !etc_grant_near(in, c->canon);
	r = in->etc_others ? lf_etc_builtin_scan(&scan)
			   : lf_etc_scan(c->canon, in->host.config_dir, &scan);
	if (r < 0)
		return r;
	/* Handed over whole: in owns the entries and the reason now. */
	in->etc_hidden = scan.v;
	in->netc_hidden = scan.n;
	in->etc_hidden_cap = scan.cap;
	in->etc_err = scan.err;
	return 0;
}

int lf_facts_masks(struct lf_sandbox_input *in, char **notice)
{
	struct mnts m = { 0 };
	bool mounts_ok = false;
	char *git_err = NULL;
	int r;

	*notice = NULL;
	r = mnts_read(&m, &mounts_ok, in->host.mountinfo, in->host.mountinfo_len);
	if (r == 0)
		r = facts_fences(in, &m);
	if (r == 0)
		r = facts_protects(in, &m, &git_err);
	for (size_t i = 0; r == 0 && in->host.ns && i < in->ncands; i++) {
		struct lf_cand *c = &in->cands[i];

		if ((c->flags & LF_CAND_LIST) && c->canon && !strcmp(c->canon, c->raw))
			r = facts_etc(in, c, &m);
	}
	if (r == 0 && git_err &&
	    asprintf(notice,
		     "git directories were not all found (their hooks and config may "
		     "stay writable): %s",
		     git_err) < 0)
		r = -ENOMEM;
	if (r == 0 && !mounts_ok && !*notice &&
	    !(*notice = strdup("/proc/self/mountinfo cannot be read: another mount path that "
			       "shows a fenced place cannot be looked for")))
		r = -ENOMEM;
	free(git_err);
	mnts_fini(&m);
	return r;
}
