/* SPDX-License-Identifier: MIT */
/*
 * The I/O step of the sandbox value (core/sandbox.h): every fact about
 * the host and the file system the pure stages need, gathered in one
 * place, then lf_sandbox_new runs the three stages in order.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/path.h"
#include "core/sandbox.h"
#include "fs/fs.h"
#include "fs/treecache.h"
#include "fs/maskfacts.h"
#include "gate/scan.h"
#include "landlock/sandbox.h"
#include "launch/mountns.h"
#include "policy/policy.h"

/* Makes the missing place path, which lies below home: each missing
 * directory on the way 0700, then the place itself, a directory (0700) or
 * a file (0600) holding content. Only in a directory this user owns (root
 * running with another user's HOME makes nothing there), never through a
 * symbolic link at the place itself (O_EXCL, O_NOFOLLOW: a link planted
 * there is not followed to make its target). Returns 0 or a negative
 * errno. */
static int make_place(const char *path, const char *home, bool dir, const char *content)
{
	size_t hl = strlen(home);
	char *p = strdup(path);
	int r = 0;

	while (hl > 1 && home[hl - 1] == '/')
		hl--;
	if (!p)
		return -ENOMEM;
	if (strncmp(path, home, hl) != 0 || path[hl] != '/' || !path[hl + 1]) {
		free(p);
		return -EPERM;
	}
	for (char *s = p + hl + 1; r == 0; s++) {
		struct stat st;
		bool last = !(s = strchr(s, '/'));

		if (!last)
			*s = '\0';
		/* The directory that will hold it must be this user's. */
		char *slash = strrchr(p, '/');
		*slash = '\0';
		r = stat(slash == p ? "/" : p, &st) < 0 ? -errno
		    : st.st_uid != geteuid() ? -EPERM
					     : 0;
		*slash = '/';
		if (r < 0)
			break;
		if (!last) {
			if (mkdir(p, 0700) < 0 && errno != EEXIST)
				r = -errno;
			*s = '/';
			continue;
		}
		if (dir) {
			r = mkdir(p, 0700) < 0 ? -errno : 0;
			break;
		}
		int fd = open(p, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		size_t len = content ? strlen(content) : 0, done = 0;

		if (fd < 0) {
			r = -errno;
			break;
		}
		while (r == 0 && done < len) {
			ssize_t w = write(fd, content + done, len - done);
			if (w < 0 && errno != EINTR)
				r = -errno;
			else if (w > 0)
				done += (size_t)w;
		}
		if (close(fd) < 0 && r == 0)
			r = -errno;
		if (r < 0)
			unlink(p);
		break;
	}
	free(p);
	return r;
}

/* The canonical path, type and existence of one candidate; a missing
 * place that says so is made first when the host prepares a launch. */
static int fact_path(const struct lf_host *host, struct lf_realpath_memo *memo, struct lf_cand *c)
{
	unsigned type = 0;
	struct stat st;

	if (c->raw[0] != '/')
		return 0; /* "~/..." without a home: stage 3 reports it */
	c->canon = lf_realpath_memo_type(memo, c->raw, &type);
	if (!c->canon && errno == ENOENT && host->prepare && host->home &&
	    (c->flags & (LF_CAND_MAKE_DIR | LF_CAND_MAKE_FILE)) && lstat(c->raw, &st) < 0) {
		int r = make_place(c->raw, host->home, c->flags & LF_CAND_MAKE_DIR,
				   c->make_content);

		if (r == -ENOMEM)
			return r;
		c->make_err = -r;
		c->made = r == 0;
		c->canon = r == 0 ? realpath(c->raw, NULL) : NULL;
		if (r < 0)
			errno = ENOENT;
	}
	if (!c->canon) {
		if (errno == ENOMEM)
			return -ENOMEM;
		c->err = errno;
		return 0;
	}
	/* made: looked at by realpath alone, above. */
	if (c->made && stat(c->canon, &st) == 0)
		type = st.st_mode & S_IFMT;
	if (type != 0)
		c->dir = S_ISDIR(type);
	return 0;
}

struct listing {
	struct lf_cand *c;
	size_t cap;
	char *err; /* an entry that could not be looked at, or NULL */
	/* Where the links lead: /etc/alternatives and /etc/ssl/certs
	 * hold hundreds, most into a few directories. */
	struct lf_realpath_memo memo;
};

/* Whether others may read what st describes: a file readable, a
 * directory readable and searchable. */
static bool others_read(const struct stat *st)
{
	if (S_ISDIR(st->st_mode))
		return (st->st_mode & (S_IROTH | S_IXOTH)) == (S_IROTH | S_IXOTH);
	return st->st_mode & S_IROTH;
}

/* One entry of /etc at path, of lstat lst, into the listing, with
 * whether others may read it (doc/landlock.md, "/etc"): a link by where
 * it leads (canon, NULL when dangling, and tst, its status), which takes
 * canon. A hidden directory is not entered (nothing below it is
 * granted). */
static int listing_add(struct listing *l, const char *path, const struct stat *lst, char *canon,
		       const struct stat *tst)
{
	struct lf_cand *c = l->c;
	bool link = S_ISLNK(lst->st_mode), hidden;
	unsigned char type;
	char *dup = strdup(path);

	if (!link && !canon)
		canon = strdup(path);
	if (!dup || (!link && !canon)) {
		free(dup);
		free(canon);
		return -ENOMEM;
	}
	if (!link) {
		type = IFTODT(lst->st_mode);
		hidden = !others_read(lst);
	} else if (canon && tst->st_mode != 0) {
		/* Where a link leads decides its rights (a file or a
		 * directory), and whether others may read it. */
		type = IFTODT(tst->st_mode);
		hidden = !others_read(tst);
	} else {
		type = DT_UNKNOWN;
		hidden = false; /* dangling: never granted anyway */
	}
	hidden = hidden || lf_etc_is_hidden(path);
	if (lf_grow((void **)&c->list, &l->cap, c->nlist, sizeof(*c->list)) < 0) {
		free(dup);
		free(canon);
		return -ENOMEM;
	}
	struct lf_listing_entry *le = &c->list[c->nlist++];

	*le = (struct lf_listing_entry){
		.path = dup, .canon = canon, .type = type, .hidden = hidden
	};
	le->descended = !link && S_ISDIR(lst->st_mode) && !hidden;
	return le->descended ? LF_WALK_NEXT : LF_WALK_SKIP;
}

/* The walk's entry. */
static int list_visit(void *ctx, const struct lf_walk_entry *e)
{
	struct listing *l = ctx;
	struct stat st, tst = { 0 };
	char *canon = NULL;

	if (fstatat(e->dirfd, e->name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
		if (errno == ENOENT)
			return LF_WALK_SKIP; /* gone */
		if (asprintf(&l->err, "cannot look at %s: %s", e->path, strerror(errno)) < 0)
			return -ENOMEM;
		return LF_WALK_STOP;
	}
	if (S_ISLNK(st.st_mode)) {
		/* The walk's root is canonical (fact_listing), and it
		 * enters no link: the link's directory is canonical. */
		canon = lf_realpath_link_memo(&l->memo, e->dirfd, e->name, e->path, &tst);
		if (!canon && errno == ENOMEM)
			return -ENOMEM;
	}
	return listing_add(l, e->path, &st, canon, &tst);
}

/* The cached listing's entry (lf_treecache_list): the same, with a
 * link's target as the cache kept it for that very link. */
static int list_judge(void *ctx, const char *path, const struct stat *st, const char *target)
{
	struct listing *l = ctx;
	struct stat tst = { 0 };
	char *canon = NULL;

	if (target) {
		canon = lf_realpath_link_target(&l->memo, target, path, &tst);
		if (!canon && errno == ENOMEM)
			return -ENOMEM;
	}
	return listing_add(l, path, st, canon, &tst);
}

/* Budget of the listing of /etc: a Debian system has ~1,500 entries. Its
 * time is the walker's (LF_WALK_MAX_MILLIS). */
#define LIST_MAX_ENTRIES 50000u

/* The listing of a directory granted by permission (/etc) without a mount
 * namespace. Only a canonical directory is listed; a listing that cannot
 * finish (the bound, an entry that cannot be looked at) says why in
 * c->list_err, and nothing of it is granted. */
static int fact_listing(struct lf_cand *c, const char *config_dir)
{
	struct listing l = { .c = c };
	struct lf_walk w = { .visit = list_visit, .ctx = &l };
	int r;

	if (!c->canon || strcmp(c->canon, c->raw) != 0)
		return 0;
	/* Each entry looked at as the walk would, most listings (and the
	 * links' targets) from the cache: whole, or nothing and the walk. */
	r = config_dir ? lf_treecache_list(config_dir, c->canon, LIST_MAX_ENTRIES, LF_LIST_LINKS,
					   list_judge, &l)
		       : 0;
	if (r == 1) {
		lf_realpath_memo_fini(&l.memo);
		return 0;
	}
	for (size_t i = 0; i < c->nlist; i++) {
		free(c->list[i].path);
		free(c->list[i].canon);
	}
	c->nlist = 0;
	if (r < 0) {
		lf_realpath_memo_fini(&l.memo);
		return r;
	}
	w.budget.max_entries = LIST_MAX_ENTRIES;
	lf_walk_begin(&w);
	r = lf_walk_run(&w, c->canon);
	if (r == 0 && (l.err || w.incomplete)) {
		c->list_err =
			l.err ? l.err
			      : strdup(w.reason ? w.reason : "an entry could not be looked at");
		l.err = NULL;
		if (!c->list_err)
			r = -ENOMEM;
	}
	free(l.err);
	lf_realpath_memo_fini(&l.memo);
	lf_walk_end(&w);
	return r;
}

/* The interpreter of a "#!" script at path, or NULL. */
static char *script_interpreter(const char *path)
{
	char buf[256];
	ssize_t n;
	char *s, *e;
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

static int fact_command(struct lf_sandbox_input *in)
{
	char *interp;

	if (!in->host.command)
		return 0;
	in->command_canon = realpath(in->host.command, NULL);
	if (!in->command_canon)
		return errno == ENOMEM ? -ENOMEM : 0;
	interp = script_interpreter(in->command_canon);
	if (!interp)
		return 0;
	/* "#!/bin/sh" is /usr/bin/dash where /bin is folded into /usr. */
	in->interp_canon = realpath(interp, NULL);
	if (!in->interp_canon && errno == ENOMEM) {
		free(interp);
		return -ENOMEM;
	}
	if (!in->interp_canon)
		in->interp_canon = interp;
	else
		free(interp);
	return 0;
}

/* A value of at least this many candidates has the second half's paths
 * looked at by a thread set aside (lf_thread_aside) with a memo of its
 * own, while this one looks at the first half: a large policy's grants,
 * one look or a parent's listing each. The places a launch makes are
 * made first, by this thread, so that no path is looked at aside while
 * a place it lies in may still be made. */
#define CANDS_SPLIT_MIN 512

/* A candidate whose place a launch makes when missing. */
static bool cand_makes(const struct lf_cand *c)
{
	return c->flags & (LF_CAND_MAKE_DIR | LF_CAND_MAKE_FILE);
}

struct cands_part {
	const struct lf_host *host;
	struct lf_cand *cands;
	size_t from, to;
	int r;
};

/* The part's candidates but the directories granted entry by entry,
 * which the launching thread looks at with their listings. */
static void *cands_part_run(void *arg)
{
	struct cands_part *p = arg;
	struct lf_realpath_memo memo = { 0 };

	p->r = 0;
	for (size_t i = p->from; p->r == 0 && i < p->to; i++)
		if (!(p->cands[i].flags & LF_CAND_LIST) && !cand_makes(&p->cands[i]))
			p->r = fact_path(p->host, &memo, &p->cands[i]);
	lf_realpath_memo_fini(&memo);
	return NULL;
}

/* Starts other (the second half of the candidates) on a thread set
 * aside; false: not started, and other takes none. */
static bool cands_split(struct cands_part *other, pthread_t *t)
{
	other->from = other->to / 2;
	if (lf_thread_aside(t, 256u << 10, cands_part_run, other) == 0)
		return true;
	other->from = other->to;
	return false;
}

int lf_facts_gather(struct lf_sandbox_input *in)
{
	struct lf_realpath_memo memo = { 0 };
	struct cands_part other = {
		.host = &in->host, .cands = in->cands, .from = in->ncands, .to = in->ncands
	};
	pthread_t t;
	bool first, split;
	int r = 0;

	for (size_t i = 0; i < in->nfences && r == 0; i++) {
		struct lf_fence_in *f = &in->fences[i];
		struct stat st;

		r = lf_path_canon_lenient(f->raw, &f->canon);
		if (r == 0 && lstat(f->canon, &st) == 0 && S_ISREG(st.st_mode))
			f->nlink = (unsigned long)st.st_nlink;
	}
	/* A large value's places are made first, then its paths shared. */
	first = r == 0 && in->ncands >= CANDS_SPLIT_MIN;
	for (size_t i = 0; first && i < in->ncands && r == 0; i++)
		if (cand_makes(&in->cands[i]))
			r = fact_path(&in->host, &memo, &in->cands[i]);
	split = first && r == 0 && cands_split(&other, &t);
	for (size_t i = 0; i < in->ncands && r == 0; i++) {
		bool list = in->cands[i].flags & LF_CAND_LIST;

		/* From other.from on, only what the thread leaves. */
		if (!(first && cand_makes(&in->cands[i])) && (i < other.from || list))
			r = fact_path(&in->host, &memo, &in->cands[i]);
		/* With a mount namespace /etc is one rule: the masks' facts
		 * look at it instead. */
		if (r == 0 && list && !in->host.ns)
			r = fact_listing(&in->cands[i], in->host.config_dir);
	}
	if (split && pthread_join(t, NULL) != 0)
		abort(); /* never: the thread would still write */
	if (split && r == 0)
		r = other.r;
	lf_realpath_memo_fini(&memo);
	if (r == 0)
		r = fact_command(in);
	if (r == 0) {
		char *note = NULL;

		r = lf_facts_masks(in, &note);
		if (r == 0 && note)
			r = lf_strv_push(&in->fact_notes, note);
		free(note);
	}
	return r;
}

/* Whether, and how, a mount namespace can be made for this value. */
static int host_namespace(struct lf_host *host, int mode, struct lf_ns_probe *probe)
{
	int r;

	memset(probe, 0, sizeof(*probe));
	if (mode == LF_NS_NEVER) {
		snprintf(probe->failed, sizeof(probe->failed),
			 "turned off by the caller (namespaces = LF_NS_NEVER)");
	} else if (mode == LF_NS_ASSUME) {
		probe->available = true;
		probe->user = geteuid() != 0;
	} else if ((r = lf_ns_probe_run_memo(probe, host->config_dir, host->mountinfo,
					     host->mountinfo_len)) < 0 &&
		   r == -ENOMEM) {
		return r;
	}
	host->ns = probe->available;
	host->ns_user = probe->user;
	host->ns_others = probe->available && probe->others;
	host->ns_failed = probe->available ? NULL : probe->failed;
	host->ns_remembered = probe->available && probe->remembered;
	return 0;
}

/* With a mount namespace, the second names of fenced, hidden or
 * read-only files below the grants are masked at their own name, so the
 * run need not be refused (doc/escape.md, kind 2). A scan that cannot
 * finish changes nothing here: the pre-launch checks scan again and
 * refuse under fallback deny. */
static int mask_links(struct lf_sandbox *sb)
{
	struct lf_path_access *fences, *rules;
	struct lf_hardlink_report rep = { 0 };
	struct lf_link_fact *facts;
	size_t nf = 0, nr = sb->nrules;
	int r;

	if (!sb->ns.available)
		return 0;
	fences = calloc(sb->nfences + sb->nmasks + 1, sizeof(*fences));
	rules = calloc(nr + 1, sizeof(*rules));
	if (!fences || !rules) {
		free(fences);
		free(rules);
		return -ENOMEM;
	}
	/* A masked fence counts by its masks: an expanded glob leaves the
	 * rest of its static prefix granted (lf_sandbox_paths). */
	for (size_t i = 0; i < sb->nfences; i++)
		if (sb->fences[i].mechanism != LF_MECH_MASK)
			fences[nf++] =
				(struct lf_path_access){ sb->fences[i].path, sb->fences[i].access };
	for (size_t i = 0; i < sb->nmasks; i++)
		fences[nf++] = (struct lf_path_access){ sb->masks[i].path, sb->masks[i].access };
	for (size_t i = 0; i < nr; i++)
		rules[i] = (struct lf_path_access){ sb->rules[i].path, sb->rules[i].access };
	r = nf && nr ? lf_hardlink_scan(fences, nf, rules, nr, NULL, &rep) : 0;
	facts = r == 0 ? calloc(rep.nhits + 1, sizeof(*facts)) : NULL;
	if (r == 0 && !facts)
		r = -ENOMEM;
	for (size_t i = 0; r == 0 && i < rep.nhits; i++)
		facts[i] = (struct lf_link_fact){ rep.hits[i].granted_path, rep.hits[i].fenced_path,
						  rep.hits[i].access };
	if (r == 0)
		r = lf_sandbox_mask_links(sb, facts, rep.nhits);
	free(facts);
	lf_hardlink_report_fini(&rep);
	free(fences);
	free(rules);
	return r < 0 ? r : 0;
}

/* landfence's configuration directory: $XDG_CONFIG_HOME/landfence, else
 * ~/.config/landfence (the user policy and the trust store live there). */
static char *config_dir(const char *home)
{
	const char *xdg = secure_getenv("XDG_CONFIG_HOME");
	char *s = NULL;

	if (xdg && xdg[0] == '/')
		return asprintf(&s, "%s/landfence", xdg) < 0 ? NULL : s;
	if (home)
		return asprintf(&s, "%s/.config/landfence", home) < 0 ? NULL : s;
	return NULL;
}

/* The environment as discovery sees it: secure_getenv, and npm's prefix
 * from ~/.npmrc when no variable names it (`npm config set prefix` writes
 * it there). Only that line is taken: the file may hold tokens, and the
 * sandbox never gets to read it. */
struct env_view {
	const char *home;
	bool npmrc_read;
	char *npm_prefix;
};

static char *npmrc_prefix(const char *home)
{
	char *path = NULL, *text = NULL, *found = NULL;
	size_t len;

	if (!home || asprintf(&path, "%s/.npmrc", home) < 0)
		return NULL;
	if (lf_file_read(path, 1 << 16, &text, &len) < 0) {
		free(path);
		return NULL;
	}
	for (char *line = strtok(text, "\n"); line && !found; line = strtok(NULL, "\n")) {
		char *v;

		while (*line == ' ' || *line == '\t')
			line++;
		if (strncmp(line, "prefix", 6) != 0)
			continue;
		v = line + 6;
		while (*v == ' ' || *v == '\t')
			v++;
		if (*v++ != '=')
			continue;
		while (*v == ' ' || *v == '\t')
			v++;
		v[strcspn(v, " \t\r")] = '\0';
		/* npm expands ~/ and ${HOME} in paths. */
		const char *rest = v[0] == '/'			? v
				   : v[0] == '~' && v[1] == '/' ? v + 1
				   : !strncmp(v, "${HOME}/", 8) ? v + 7
								: NULL;
		if (rest && asprintf(&found, "%s%s", rest == v ? "" : home, rest) < 0)
			found = NULL;
	}
	free(text);
	free(path);
	return found;
}

static const char *env_lookup(void *ctx, const char *name)
{
	struct env_view *v = ctx;
	const char *s = secure_getenv(name);

	if ((!s || !s[0]) && !strcmp(name, "npm_config_prefix") &&
	    !secure_getenv("NPM_CONFIG_PREFIX")) {
		if (!v->npmrc_read)
			v->npm_prefix = npmrc_prefix(v->home);
		v->npmrc_read = true;
		return v->npm_prefix;
	}
	return s;
}

int lf_sandbox_new(const struct lf_effective *e, const struct lf_plan *plan,
		   const struct lf_sandbox_opts *opts, struct lf_sandbox **out,
		   struct lf_diag *diag)
{
	struct lf_sandbox_opts o;
	struct lf_sandbox_input *in = NULL;
	struct lf_host host = { 0 };
	struct lf_ns_probe probe;
	char *config = NULL, *mountinfo = NULL;
	int r;

	if (diag)
		memset(diag, 0, sizeof(*diag));
	if (!opts || lf_opts_copy(&o, sizeof(o), opts, opts->size) < 0 || !plan || !out ||
	    !o.project_root || o.project_root[0] != '/') {
		if (diag)
			snprintf(diag->message, sizeof(diag->message),
				 "sandbox: a plan and an absolute project root are required");
		return -EINVAL;
	}
	host.project_root = o.project_root;
	host.home = o.home ? o.home : secure_getenv("HOME");
	if (host.home && host.home[0] != '/')
		host.home = NULL;
	host.run_dir = o.run_dir;
	host.command = o.command;
	host.prepare = o.flags & LF_SANDBOX_PREPARE;
	host.allow_unscoped = o.flags & LF_SANDBOX_ALLOW_UNSCOPED;
	/* The options' zero is "the environment decides" (landfence.h). */
	r = lf_landlock_probe(o.abi_max > 0 ? o.abi_max : o.abi_max == 0 ? -1 : 0, &host.probe);
	if (r < 0) {
		if (diag)
			snprintf(diag->message, sizeof(diag->message), "%s",
				 r == -EINVAL ? "LANDFENCE_ABI_MAX must be a number >= 0"
					      : "Landlock ABI probe failed");
		return r;
	}
	config = config_dir(host.home);
	host.config_dir = config;
	/* The nested-repository search (lf_facts_masks) begun now, beside
	 * discovery and the value's sources: on a large project it is most
	 * of the facts' time. Stopped at the end when it was not needed. */
	host.dotgits_ahead = lf_treecache_dotgits_ahead(config, host.project_root);
	/* The mount table, read once for the namespace answer's key and the
	 * mount aliases (each reads it itself when it cannot be read here,
	 * and says so as before). */
	if (lf_file_read("/proc/self/mountinfo", 16u << 20, &mountinfo, &host.mountinfo_len) == 0)
		host.mountinfo = mountinfo;
	/* First: what discovery grants depends on it (a separated git
	 * directory is writable only where its hooks can be masked). */
	r = host_namespace(&host, o.namespaces, &probe);
	if (r < 0) {
		lf_treecache_ahead_free(host.dotgits_ahead);
		free(mountinfo);
		free(config);
		return r;
	}
	struct env_view view = { .home = host.home };
	struct lf_discovery found = { 0 };
	r = lf_discover(e, &host, env_lookup, &view, &found);
	free(view.npm_prefix);
	if (r < 0) {
		lf_treecache_ahead_free(host.dotgits_ahead);
		free(mountinfo);
		free(config);
		return r;
	}
	host.discovered = found.v;
	host.ndiscovered = found.n;
	host.notes = (const char *const *)found.notes.v;
	host.nnotes = found.notes.n;
	r = lf_sandbox_sources(e, plan, &host, o.profiles, o.nprofiles, &in, diag);
	if (r == 0)
		r = lf_facts_gather(in);
	if (r == 0)
		r = lf_sandbox_compile(in, out, diag);
	if (r == 0 && (r = mask_links(*out)) < 0) {
		lf_sandbox_free(*out);
		*out = NULL;
	}
	if (r == -ENOMEM && diag && !diag->message[0])
		snprintf(diag->message, sizeof(diag->message), "out of memory");
	lf_sandbox_input_free(in);
	lf_treecache_ahead_free(host.dotgits_ahead);
	lf_discovery_fini(&found);
	free(mountinfo);
	free(config);
	return r;
}
