/* SPDX-License-Identifier: MIT */
/*
 * lf_project_open (landfence.h): the project `landfence` uses from the
 * working directory, with every refusal, the managed layer, trust and the
 * layers (doc/policy.md, doc/trust.md).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/path.h"
#include "fs/fs.h"
#include "fs/hostfacts.h"
#include "policy/policy.h"
#include "project/project.h"

/* The managed layer's file; LANDFENCE_MANAGED_POLICY names another only
 * where this one does not exist (tests, machines that keep it elsewhere). */
#define MANAGED_POLICY "/etc/landfence/policy.json"

/* ------------------------------------------------------------------------
 * The root
 */

/* The entry name in dir, when it is a directory or a regular file: its
 * owner in *uid. */
static bool entry_at(const char *dir, const char *name, uid_t *uid)
{
	char *p = NULL;
	struct stat st;
	bool yes;

	if (asprintf(&p, "%s/%s", strcmp(dir, "/") ? dir : "", name) < 0)
		return false;
	yes = lstat(p, &st) == 0 && (S_ISDIR(st.st_mode) || S_ISREG(st.st_mode));
	free(p);
	if (yes)
		*uid = st.st_uid;
	return yes;
}

/* A directory anyone may create entries in (/tmp, /var/tmp, /dev/shm):
 * what is found there was not necessarily made by the user. */
static bool shared_dir(const char *dir)
{
	struct stat st;

	return stat(dir, &st) == 0 && S_ISDIR(st.st_mode) && (st.st_mode & S_ISVTX) &&
	       (st.st_mode & S_IWOTH);
}

/* The nearest ancestor of cwd holding .landfence/ or .git, else cwd. The
 * search stops, as git's safe.directory rule does, at a sticky directory
 * anyone may write (another user could have made the .git there), and at
 * a .git or .landfence/ owned by someone other than the user or root:
 * the working directory is then the root, and a warning names what was
 * passed over. */
static int root_discover(struct lf_project *p, char **out)
{
	char *cwd = getcwd(NULL, 0), *cur;
	uid_t me = geteuid();

	if (!cwd)
		return errno ? -errno : -EIO;
	cur = strdup(cwd);
	if (!cur) {
		free(cwd);
		return -ENOMEM;
	}
	for (;;) {
		static const char *const marks[] = { ".landfence", ".git" };
		bool found = false;
		uid_t uid;

		if (shared_dir(cur))
			break;
		for (size_t i = 0; i < 2 && !found; i++) {
			if (!entry_at(cur, marks[i], &uid))
				continue;
			if (uid != me && uid != 0) {
				int r = lf_strv_pushf(
					&p->warnings,
					"%s/%s belongs to user %u, not to you or root: it was "
					"passed over, and the project root is the working "
					"directory %s (name the root with -C DIR)",
					strcmp(cur, "/") ? cur : "", marks[i], (unsigned)uid, cwd);
				free(cur);
				if (r < 0) {
					free(cwd);
					return r;
				}
				*out = cwd;
				return 0;
			}
			found = true;
		}
		if (found) {
			free(cwd);
			*out = cur;
			return 0;
		}
		char *slash = strrchr(cur, '/');
		if (!slash || slash == cur)
			break;
		*slash = '\0';
	}
	free(cur);
	*out = cwd;
	return 0;
}

/* A root found by walking up that lies inside a project whose policy the
 * user trusted, and has no trusted policy of its own, is refused: a
 * sandboxed program that can write the project can make a .git or a
 * .landfence/ in any writable directory, and the next run started there
 * would be rooted there, under the embedded default instead of the
 * trusted policy (doc/trust.md). */
static int check_nested_root(const char *root, struct lf_trust_store *ts, struct lf_diag *diag)
{
	char cur[PATH_MAX], pol[PATH_MAX + 32];

	if (snprintf(pol, sizeof(pol), "%s/.landfence/policy.json", root) >= (int)sizeof(pol) ||
	    lf_trust_store_known(ts, pol))
		return 0;
	if (strlen(root) >= sizeof(cur))
		return 0;
	strcpy(cur, root);
	while (strcmp(cur, "/") != 0) {
		char *slash = strrchr(cur, '/');
		if (!slash)
			break;
		if (slash == cur)
			slash[1] = '\0';
		else
			*slash = '\0';
		snprintf(pol, sizeof(pol), "%s/.landfence/policy.json",
			 strcmp(cur, "/") == 0 ? "" : cur);
		if (lf_trust_store_known(ts, pol)) {
			lf_diag_set(diag, "", 0, 0,
				    "%s was taken as the project root (it holds .git or "
				    ".landfence/), but "
				    "it lies inside the trusted project %s and has no trusted "
				    "policy of "
				    "its own; nothing ran.\nrun from %s, or name the root with -C",
				    root, cur, cur);
			return -EPERM;
		}
	}
	return 0;
}

/* Places that are never a project: the system's own directories, and
 * everything below those that hold only the system's state. */
static const char *const system_dirs[] = { "/usr", "/var", "/tmp", "/run" };
static const char *const system_trees[] = { "/etc", "/dev", "/proc", "/sys", "/boot" };

/* Whether root is a home directory (the user's, from $HOME; any user's,
 * from the password database, fs/hostfacts.h) or above one; *who says
 * whose. -ENOMEM. */
static int root_holds_home(const char *root, char *who, size_t size)
{
	const char *h = secure_getenv("HOME");
	struct lf_homes homes;
	char *home;
	bool holds = false;
	int r;

	if (h && *h && (home = realpath(h, NULL))) {
		holds = lf_path_covers(root, home);
		free(home);
		if (holds) {
			snprintf(who, size, "holds your home directory");
			return 1;
		}
	}
	if ((r = lf_homes_read(&homes)) < 0)
		return r;
	for (size_t i = 0; !holds && i < homes.n; i++) {
		holds = lf_path_covers(root, homes.v[i].dir);
		if (holds)
			snprintf(who, size, "holds the home directory of %s%s", homes.v[i].name,
				 homes.v[i].uid == geteuid() ? " (you)" : "");
	}
	lf_homes_fini(&homes);
	return holds;
}

/* Why root is no place for a project, in words, or NULL: "/", a system
 * directory, a sticky directory anyone may write, a home directory or an
 * ancestor of one. A sandbox rooted there under the embedded default
 * reads and rewrites all of it: `cd /etc && landfence run -- head
 * /etc/shadow` printed it (doc/escape.md, "Hostile projects"). */
static const char *unsafe_root(const char *root, char *buf, size_t size)
{
	if (strcmp(root, "/") == 0)
		return "is the whole file system";
	for (size_t i = 0; i < sizeof(system_dirs) / sizeof(system_dirs[0]); i++)
		if (strcmp(root, system_dirs[i]) == 0)
			return "is a system directory";
	for (size_t i = 0; i < sizeof(system_trees) / sizeof(system_trees[0]); i++)
		if (lf_path_covers(system_trees[i], root))
			return "is a system directory";
	if (shared_dir(root))
		return "is a shared directory (sticky, anyone may write to it)";
	int r = root_holds_home(root, buf, size);

	if (r < 0)
		snprintf(buf, size, "cannot be told apart from a home directory (%s)",
			 r == -EIO ? "`getent passwd` did not list the password database"
				   : strerror(-r));
	return r ? buf : NULL;
}

/* A root that unsafe_root() names is refused, whether found or given
 * with -C, unless the caller passed LF_PROJECT_UNSAFE_ROOT (--unsafe-root):
 * then it is a warning that -q does not hide. Outside any project the
 * working directory would be taken, and `cd ~ && landfence run ...` would
 * hand the program the whole home directory read-write (keys, shell
 * start-up files, the trust store). A dotfiles repository in ~ is refused
 * the same way: a sandboxed program can rename its project's .git away,
 * and the next run started there would be rooted at that ancestor
 * (doc/escape.md, "Red team, round 2"). */
static int check_root(struct lf_project *p, bool named, unsigned flags, struct lf_diag *diag)
{
	const char *root = p->project_root;
	char who[256];
	const char *why = unsafe_root(root, who, sizeof(who));
	char *cwd;

	if (!why)
		return 0;
	if (flags & LF_PROJECT_UNSAFE_ROOT)
		return lf_strv_pushf(&p->warnings,
				     "the project root %s %s (--unsafe-root): the program can "
				     "read and change everything below it (keys, shell start-up "
				     "files, the system's configuration) unless the policy says "
				     "otherwise",
				     root, why);
	cwd = getcwd(NULL, 0);
	lf_diag_set(diag, "", 0, 0,
		    "the project root would be %s (%s), which %s; nothing ran.\n"
		    "run inside a project (a directory holding .git or .landfence/), name the "
		    "project root with -C DIR, or accept this root with --unsafe-root",
		    root,
		    named ? "named with -C"
		    : cwd && strcmp(root, cwd) == 0
			    ? "no .git or .landfence/ above the working directory"
			    : "the nearest .git or .landfence/ above the working directory",
		    why);
	free(cwd);
	return -EPERM;
}

static int root_open(struct lf_project *p, const char *directory, unsigned flags,
		     struct lf_trust_store *ts, struct lf_diag *diag)
{
	char *found = NULL;
	int r;

	if (directory) {
		p->project_root = realpath(directory, NULL);
		if (!p->project_root) {
			r = errno;
			lf_diag_set(diag, "", 0, 0, "-C %s: %s", directory, strerror(r));
			return r == ENOMEM ? -ENOMEM : -EINVAL;
		}
		return check_root(p, true, flags, diag);
	}
	r = root_discover(p, &found);
	if (r == 0 && !(p->project_root = realpath(found, NULL)))
		r = errno ? -errno : -EIO;
	free(found);
	if (r != 0 || !p->project_root) {
		lf_diag_set(diag, "", 0, 0, "cannot determine the project root: %s", strerror(-r));
		return r == -ENOMEM ? -ENOMEM : -EIO;
	}
	r = check_nested_root(p->project_root, ts, diag);
	return r ? r : check_root(p, false, flags, diag);
}

/* ------------------------------------------------------------------------
 * The layers
 */

static int layer_push(struct lf_project *p, const char *file, enum lf_layer layer,
		      struct lf_policy *pol)
{
	char *copy = NULL;

	if (p->nlayers == p->cap) {
		size_t ncap = p->cap ? p->cap * 2 : 8;
		struct lf_policy **l = reallocarray(p->layers, ncap, sizeof(*l));
		struct lf_project_layer *info;

		if (l)
			p->layers = l;
		info = l ? reallocarray(p->info, ncap, sizeof(*info)) : NULL;
		if (info) {
			p->info = info;
			p->cap = ncap;
		}
	}
	if (p->nlayers < p->cap)
		copy = strdup(file);
	if (!copy) {
		lf_policy_free(pol);
		return -ENOMEM;
	}
	p->layers[p->nlayers] = pol;
	p->info[p->nlayers] = (struct lf_project_layer){ layer, copy };
	p->nlayers++;
	return 0;
}

/* A policy error is bad input: the diagnostic names the file. */
static int load_error(int r, const char *path, struct lf_diag *diag)
{
	if (r == -ENOMEM)
		return r;
	if (diag && !diag->file[0])
		snprintf(diag->file, sizeof(diag->file), "%s", path);
	return -EINVAL;
}

static int load_file(struct lf_project *p, const char *path, enum lf_layer layer,
		     struct lf_diag *diag)
{
	struct lf_policy *pol = NULL;
	int r = lf_policy_load(path, layer, &pol, diag);

	return r < 0 ? load_error(r, path, diag) : layer_push(p, path, layer, pol);
}

/* Whether the managed file and every directory above it belong to root and
 * cannot be changed by anybody else (a world-writable directory is fine
 * when sticky: others cannot rename what root owns there). */
static int managed_safe(const char *canon, const struct stat *st, struct lf_diag *diag)
{
	char dir[PATH_MAX];

	if (!S_ISREG(st->st_mode)) {
		lf_diag_set(diag, "", 0, 0,
			    "the managed policy %s is not a regular file; nothing ran", canon);
		return -EPERM;
	}
	if (st->st_uid != 0 || (st->st_mode & 022)) {
		lf_diag_set(
			diag, "", 0, 0,
			"the managed policy %s is %s (owner uid %u, mode %04o), expected a file "
			"owned by root and writable by root only; nothing ran",
			canon,
			st->st_uid != 0 ? "not owned by root" : "writable by group or others",
			(unsigned)st->st_uid, (unsigned)(st->st_mode & 07777));
		return -EPERM;
	}
	snprintf(dir, sizeof(dir), "%s", canon);
	for (char *slash = strrchr(dir, '/'); slash; slash = strrchr(dir, '/')) {
		struct stat ds;

		slash[slash == dir] = '\0';
		if (stat(dir, &ds) != 0 || ds.st_uid != 0 ||
		    ((ds.st_mode & 022) && !(ds.st_mode & S_ISVTX))) {
			lf_diag_set(diag, "", 0, 0,
				    "the managed policy %s lies in %s, which is not owned by root "
				    "or is "
				    "writable by others; nothing ran",
				    canon, dir);
			return -EPERM;
		}
		if (slash == dir)
			break;
	}
	return 0;
}

/* Whether the user's policy (st: the file, its links followed) is the
 * user's or root's, that nobody else may write, in directories nobody
 * else may change. A sandboxed program can chmod the configuration
 * directory (Landlock does not mediate chmod); another local user could
 * then put a policy there, or a link to one the program wrote, and it
 * would replace the embedded default at the next launch. Refused loudly,
 * as the managed layer is: skipping it could widen the run. */
static int user_safe(const char *path, const struct stat *st, struct lf_diag *diag)
{
	char bad[PATH_MAX + 64];
	int r = lf_path_guarded(path, bad, sizeof(bad));

	if (r == -EACCES) {
		lf_diag_set(diag, "", 0, 0,
			    "the user policy %s lies in %s, which somebody other than you or root "
			    "may change; nothing ran (review the policy, then `chmod go-w` that "
			    "directory)",
			    path, bad);
		return -EPERM;
	}
	if (r < 0) {
		lf_diag_set(diag, "", 0, 0, "cannot check the user policy %s: %s; nothing ran",
			    path, strerror(-r));
		return r == -ENOMEM ? r : -EPERM;
	}
	if (!S_ISREG(st->st_mode) || (st->st_uid != geteuid() && st->st_uid != 0) ||
	    (st->st_mode & 022)) {
		lf_diag_set(diag, "", 0, 0,
			    "the user policy %s is %s (owner uid %u, mode %04o), expected a "
			    "regular file of yours that nobody else may write; nothing ran "
			    "(review it, then `chmod go-w` it)",
			    path,
			    !S_ISREG(st->st_mode) ? "not a regular file"
			    : st->st_mode & 022	  ? "writable by group or others"
						  : "owned by somebody else",
			    (unsigned)st->st_uid, (unsigned)(st->st_mode & 07777));
		return -EPERM;
	}
	return 0;
}

/* The managed layer: honoured only when root's and unchangeable by anybody
 * else; refused loudly otherwise. Absent is fine. */
static int load_managed(struct lf_project *p, struct lf_diag *diag)
{
	const char *path = secure_getenv("LANDFENCE_MANAGED_POLICY");
	struct lf_policy *pol = NULL;
	char *canon, *text = NULL;
	size_t len = 0;
	struct stat st;
	int fd, r;

	/* The variable may not replace a fleet file that is there: a user
	 * would otherwise shed the machine's policy for a root-owned file of
	 * their choosing. */
	if (!path || !path[0] || access(MANAGED_POLICY, F_OK) == 0 || errno != ENOENT)
		path = MANAGED_POLICY;
	canon = realpath(path, NULL);
	if (!canon && errno == ENOENT)
		return 0;
	fd = canon ? open(canon, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK) : -1;
	if (fd < 0 || fstat(fd, &st) != 0) {
		r = errno;
		lf_diag_set(diag, "", 0, 0, "cannot read the managed policy %s: %s; nothing ran",
			    path, strerror(r));
		free(canon);
		if (fd >= 0)
			close(fd);
		return r == ENOMEM ? -ENOMEM : -EPERM;
	}
	r = managed_safe(canon, &st, diag);
	free(canon);
	if (r == 0)
		r = lf_fd_read(fd, (size_t)st.st_size, LF_POLICY_MAX_SIZE, &text, &len);
	close(fd);
	if (r < 0 && r != -EPERM) {
		lf_diag_set(diag, "", 0, 0, "cannot read the managed policy %s: %s; nothing ran",
			    path,
			    r == -EFBIG ? "larger than " LF_POLICY_MAX_SIZE_TEXT : strerror(-r));
		return r == -ENOMEM ? r : -EPERM;
	}
	if (r == 0)
		r = lf_policy_parse(text, len, path, LF_LAYER_MANAGED, &pol, diag);
	free(text);
	if (r < 0)
		return r == -EPERM ? r : load_error(r, path, diag);
	return layer_push(p, path, LF_LAYER_MANAGED, pol);
}

/* The project layer is used only when the user trusted it (doc/trust.md):
 * the bytes are read once, their SHA-256 checked against the store outside
 * the project, and the same bytes parsed, so that the file cannot change
 * between the check and the parse. */
static int load_project(struct lf_project *p, const char *path, struct lf_trust_store *ts,
			struct lf_diag *diag)
{
	char canon[PATH_MAX], digest[65];
	struct lf_policy *pol = NULL;
	char *text = NULL;
	size_t len = 0;
	int r;

	/* Not realpath: the trust is for this project's own file, never for
	 * what a symbolic link in the project points at. */
	r = lf_trust_policy_path(p->project_root, canon, sizeof(canon));
	if (r == -ELOOP) {
		lf_trust_refusal(path, r, diag);
		return -EPERM;
	}
	if (r == 0)
		r = lf_trust_read_policy(canon, &text, &len);
	if (r < 0) {
		lf_diag_set(diag, "", 0, 0, "%s", strerror(-r));
		return load_error(r, path, diag);
	}
	r = lf_trust_store_check(ts, canon, text, len, digest);
	if (r < 0) {
		free(text);
		lf_trust_refusal(path, r, diag);
		return -EPERM;
	}
	r = lf_policy_parse_trusted(canon, digest, text, len, path, &pol, diag);
	free(text);
	return r < 0 ? load_error(r, path, diag) : layer_push(p, path, LF_LAYER_PROJECT, pol);
}

/* A layer that says "extends": "default" builds on the embedded default:
 * the default becomes a layer of its own, once, first after the managed
 * layer, so that its grants, profiles and protections pool with the
 * layers that extend it (a deny of theirs still wins, and the strictest
 * fallback). */
static int extend_default(struct lf_project *p, size_t at)
{
	struct lf_policy *pol = NULL;
	bool wanted = false;
	int r;

	for (size_t i = 0; i < p->nlayers; i++)
		wanted = wanted || (p->layers[i] && p->layers[i]->extends_default);
	if (!wanted)
		return 0;
	r = lf_policy_default(&pol);
	if (r == 0)
		r = layer_push(p, LF_POLICY_DEFAULT_FILE, LF_LAYER_PROJECT, pol);
	if (r < 0)
		return r;
	/* Move it from the end to position at. */
	struct lf_policy *l = p->layers[p->nlayers - 1];
	struct lf_project_layer info = p->info[p->nlayers - 1];
	memmove(&p->layers[at + 1], &p->layers[at], (p->nlayers - 1 - at) * sizeof(*p->layers));
	memmove(&p->info[at + 1], &p->info[at], (p->nlayers - 1 - at) * sizeof(*p->info));
	p->layers[at] = l;
	p->info[at] = info;
	return 0;
}

static int load_layers(struct lf_project *p, const struct lf_project_opts *o,
		       struct lf_trust_store *ts, struct lf_diag *diag)
{
	char user[PATH_MAX], *proj = NULL;
	struct stat st;
	size_t before;
	int r;

	r = load_managed(p, diag);
	before = p->nlayers;
	if (r == 0 && lf_config_path("policy.json", user, sizeof(user)) == 0 &&
	    stat(user, &st) == 0) {
		r = user_safe(user, &st, diag);
		if (r == 0)
			r = load_file(p, user, LF_LAYER_USER, diag);
	}
	if (r == 0 && asprintf(&proj, "%s/.landfence/policy.json",
			       strcmp(p->project_root, "/") ? p->project_root : "") < 0)
		r = -ENOMEM;
	if (r == 0 && (lstat(proj, &st) == 0 || errno != ENOENT)) {
		r = load_project(p, proj, ts, diag);
	} else if (r == 0 && lf_trust_store_known(ts, proj)) {
		/* A trusted policy that disappeared: deleting it must not
		 * widen the next run to the embedded default. */
		lf_trust_refusal(proj, -ENOENT, diag);
		r = -EPERM;
	}
	free(proj);
	for (size_t i = 0; r == 0 && i < o->npolicy_files; i++)
		r = o->policy_files[i] ? load_file(p, o->policy_files[i], LF_LAYER_LOCAL, diag)
				       : -EINVAL;
	/* No policy of the user's own: the embedded default, with the managed
	 * layer (if any) beside it. */
	if (r == 0 && p->nlayers == before) {
		struct lf_policy *pol = NULL;

		r = lf_policy_default(&pol);
		if (r == 0)
			r = layer_push(p, LF_POLICY_DEFAULT_FILE, LF_LAYER_PROJECT, pol);
		p->embedded_default = r == 0;
		return r;
	}
	return r == 0 ? extend_default(p, before) : r;
}

int lf_project_open(const struct lf_project_opts *opts, struct lf_project **out,
		    struct lf_diag *diag)
{
	struct lf_project_opts o;
	struct lf_trust_store ts = { 0 };
	struct lf_project *p;
	int r;

	if (diag)
		memset(diag, 0, sizeof(*diag));
	if (!opts || !out || lf_opts_copy(&o, sizeof(o), opts, opts->size) < 0 ||
	    (o.npolicy_files && !o.policy_files)) {
		lf_diag_set(diag, "", 0, 0, "lf_project_open: invalid options");
		return -EINVAL;
	}
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	/* The trust store is read at most once for the whole open. */
	r = root_open(p, o.directory, o.flags, &ts, diag);
	if (r == 0 && !(o.flags & LF_PROJECT_ROOT_ONLY)) {
		r = load_layers(p, &o, &ts, diag);
		if (r == 0)
			r = lf_effective_resolve((const struct lf_policy *const *)p->layers,
						 p->nlayers, &p->eff);
		struct lf_context ctx = { .project_root = p->project_root };
		if (r == 0)
			r = lf_plan_compile(p->eff, &ctx, &p->plan);
	}
	lf_trust_store_fini(&ts);
	if (r < 0) {
		if (r == -ENOMEM && diag && !diag->message[0])
			lf_diag_set(diag, "", 0, 0, "out of memory");
		lf_project_free(p);
		return r;
	}
	*out = p;
	return 0;
}

void lf_project_free(struct lf_project *p)
{
	if (!p)
		return;
	lf_plan_free(p->plan);
	lf_effective_free(p->eff);
	for (size_t i = 0; i < p->nlayers; i++) {
		lf_policy_free(p->layers[i]);
		free((char *)p->info[i].file);
	}
	free(p->layers);
	free(p->info);
	lf_strv_fini(&p->warnings);
	free(p->project_root);
	free(p);
}

const char *lf_project_root(const struct lf_project *p)
{
	return p->project_root;
}

size_t lf_project_layer_count(const struct lf_project *p)
{
	return p->nlayers;
}

const struct lf_project_layer *lf_project_layer(const struct lf_project *p, size_t i)
{
	return i < p->nlayers ? &p->info[i] : NULL;
}

bool lf_project_embedded_default(const struct lf_project *p)
{
	return p->embedded_default;
}

const struct lf_effective *lf_project_effective(const struct lf_project *p)
{
	return p->eff;
}

const struct lf_plan *lf_project_plan(const struct lf_project *p)
{
	return p->plan;
}

size_t lf_project_warning_count(const struct lf_project *p)
{
	return p->warnings.n;
}

const char *lf_project_warning(const struct lf_project *p, size_t i)
{
	return i < p->warnings.n ? p->warnings.v[i] : NULL;
}
