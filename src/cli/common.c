/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "landlock/sandbox.h"

int lf_cli_common_opt(struct lf_cli_opts *o, int c, const char *arg)
{
	switch (c) {
	case 'p':
		if (o->npolicies >= LF_CLI_MAX_LAYERS) {
			fprintf(stderr, "landfence: too many -p options (at most %d)\n",
				LF_CLI_MAX_LAYERS);
			return -1;
		}
		o->policies[o->npolicies++] = arg;
		return 1;
	case 'C':
		o->project_dir = arg;
		return 1;
	case LF_OPT_PROFILE:
		if (!lf_profile_known(arg)) {
			fprintf(stderr,
				"landfence: unknown profile \"%s\", expected one of claude, codex, "
				"gemini, aider\n",
				arg);
			return -1;
		}
		if (o->nprofiles >= LF_CLI_MAX_PROFILES) {
			fprintf(stderr, "landfence: too many --profile options (at most %d)\n",
				LF_CLI_MAX_PROFILES);
			return -1;
		}
		o->profiles[o->nprofiles++] = arg;
		return 1;
	case LF_OPT_JSON:
		o->json = true;
		return 1;
	case LF_OPT_TREE:
		o->tree = true;
		return 1;
	default:
		return 0;
	}
}

int lf_cli_opts_parse(int argc, char **argv, const char *usage, struct lf_cli_opts *o)
{
	static const struct option longopts[] = {
		LF_CLI_COMMON_LONG,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, r;

	optind = 1;
	while ((c = getopt_long(argc, argv, LF_CLI_COMMON_SHORT "h", longopts, NULL)) != -1) {
		r = lf_cli_common_opt(o, c, optarg);
		if (r == 1)
			continue;
		if (r < 0)
			return LF_EXIT_USAGE;
		if (c == 'h') {
			fputs(usage, stdout);
			return LF_EXIT_OK;
		}
		fputs(usage, stderr);
		return LF_EXIT_USAGE;
	}
	return -1;
}

int lf_cli_config_path(const char *name, char *out, size_t size)
{
	const char *xdg = secure_getenv("XDG_CONFIG_HOME");
	const char *home = secure_getenv("HOME");
	int n;

	if (xdg && xdg[0] == '/')
		n = snprintf(out, size, "%s/landfence/%s", xdg, name);
	else if (home && home[0] == '/')
		n = snprintf(out, size, "%s/.config/landfence/%s", home, name);
	else
		return -ENOENT;
	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

static bool is_dir_at(const char *dir, const char *name)
{
	char p[PATH_MAX];
	struct stat st;

	if (snprintf(p, sizeof(p), "%s/%s", dir, name) >= (int)sizeof(p))
		return false;
	return lstat(p, &st) == 0 && (S_ISDIR(st.st_mode) || S_ISREG(st.st_mode));
}

/* The nearest ancestor of cwd holding .landfence/ or .git, else cwd. */
static int find_project_root(char *out, size_t size)
{
	char cwd[PATH_MAX], cur[PATH_MAX];

	if (!getcwd(cwd, sizeof(cwd)))
		return -errno;
	memcpy(cur, cwd, sizeof(cur));
	for (;;) {
		if (is_dir_at(cur, ".landfence") || is_dir_at(cur, ".git")) {
			if (strlen(cur) >= size)
				return -ENAMETOOLONG;
			strcpy(out, cur);
			return 0;
		}
		char *slash = strrchr(cur, '/');
		if (!slash || slash == cur)
			break;
		*slash = '\0';
	}
	if (strlen(cwd) >= size)
		return -ENAMETOOLONG;
	strcpy(out, cwd);
	return 0;
}

static int exists_file(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0;
}

/* Appends the layer p that loading path gave, or, when that failed with r,
 * prints its diagnostic and returns the exit status. */
static int layer_push(struct lf_cli_state *st, const char *path, int r, struct lf_policy *p,
		      const struct lf_diag *diag)
{
	if (r < 0) {
		char msg[1200];
		lf_diag_format(diag, msg, sizeof(msg));
		fprintf(stderr, "%s\n", msg);
		return r == -ENOMEM ? LF_EXIT_OWN : LF_EXIT_USAGE;
	}
	st->layer_files[st->nlayers] = path;
	st->layers[st->nlayers++] = p;
	return 0;
}

/* Loads one layer; prints the diagnostic on failure. */
static int load_layer(struct lf_cli_state *st, const char *path, enum lf_layer layer)
{
	struct lf_diag diag = { 0 };
	struct lf_policy *p = NULL;
	int r = lf_policy_load(path, layer, &p, &diag);
	return layer_push(st, path, r, p, &diag);
}

/* A root found by walking up that lies inside a project whose policy the
 * user trusted, and has no trusted policy of its own, is refused: a
 * sandboxed program that can write the project can make a .git or a
 * .landfence/ in any writable directory, and the next run started there
 * would be rooted there, under the embedded default instead of the
 * trusted policy (doc/trust.md). */
static int check_nested_root(const char *root)
{
	char cur[PATH_MAX], pol[PATH_MAX + 32];

	if (snprintf(pol, sizeof(pol), "%s/.landfence/policy.json", root) >= (int)sizeof(pol) ||
	    lf_trust_known(pol))
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
		if (lf_trust_known(pol)) {
			fprintf(stderr,
				"landfence: %s was taken as the project root (it holds .git or "
				".landfence/), but it lies inside the trusted project %s "
				"and has no trusted policy of its own; nothing ran.\n"
				"landfence: run from %s, or name the root with -C\n",
				root, cur, cur);
			return LF_EXIT_USAGE;
		}
	}
	return 0;
}

/* Whether root is "/", the home directory or one of its ancestors: a
 * sandbox rooted there can read ~/.ssh and rewrite ~/.bashrc. Writes the
 * canonical home directory into home. */
static bool root_holds_home(const char *root, char *home)
{
	const char *h = secure_getenv("HOME");
	size_t n = strlen(root);

	if (strcmp(root, "/") == 0)
		return true;
	if (!h || !*h || !realpath(h, home))
		return false;
	return strcmp(root, home) == 0 || (strncmp(home, root, n) == 0 && home[n] == '/');
}

/* A root found by discovery (no -C) that is "/", the home directory or an
 * ancestor of it is refused: outside any project the working directory
 * would be taken, and `cd ~ && landfence run ...` would hand the program
 * the whole home directory read-write (keys, shell start-up files, the
 * trust store). A dotfiles repository in ~ is refused the same way: a
 * sandboxed program can rename its project's .git away, and the next run
 * started there would be rooted at that ancestor (doc/escape.md, "Red
 * team, round 2"). */
static int check_home_root(const char *root)
{
	char cwd[PATH_MAX], home[PATH_MAX] = "";

	if (!root_holds_home(root, home))
		return 0;
	if (!getcwd(cwd, sizeof(cwd)))
		snprintf(cwd, sizeof(cwd), "the working directory");
	fprintf(stderr,
		"landfence: the project root would be %s (%s), which %s; nothing ran.\n"
		"landfence: run inside a project (a directory holding .git or .landfence/), "
		"or name the project root with -C DIR\n",
		root,
		strcmp(root, cwd) == 0
			? "no .git or .landfence/ above the working directory"
			: "the nearest .git or .landfence/ above the working directory",
		strcmp(root, "/") == 0 ? "is the whole file system" : "holds your home directory");
	return LF_EXIT_USAGE;
}

int lf_cli_project_root(const struct lf_cli_opts *o, char *out, size_t size)
{
	char buf[PATH_MAX], canon[PATH_MAX];
	int r;

	if (o->project_dir) {
		if (!realpath(o->project_dir, canon)) {
			fprintf(stderr, "landfence: -C %s: %s\n", o->project_dir, strerror(errno));
			return LF_EXIT_USAGE;
		}
		char home[PATH_MAX] = "";
		/* Named on purpose: allowed, but never quietly (not hidden
		 * by -q). */
		if (root_holds_home(canon, home))
			fprintf(stderr,
				"landfence: WARNING: the project root %s %s: the program can "
				"read and change everything below it (keys, shell start-up "
				"files) unless the policy says otherwise\n",
				canon,
				strcmp(canon, "/") == 0 ? "is the whole file system"
							: "holds your home directory");
	} else {
		r = find_project_root(buf, sizeof(buf));
		if (r < 0 || !realpath(buf, canon)) {
			fprintf(stderr, "landfence: cannot determine the project root: %s\n",
				strerror(r < 0 ? -r : errno));
			return LF_EXIT_OWN;
		}
		r = check_nested_root(canon);
		if (!r)
			r = check_home_root(canon);
		if (r)
			return r;
	}
	if (strlen(canon) >= size) {
		fprintf(stderr, "landfence: project root too long\n");
		return LF_EXIT_OWN;
	}
	strcpy(out, canon);
	return 0;
}

/* The project layer is used only when the user trusted it (doc/trust.md):
 * the bytes are read once, their SHA-256 checked against the store outside
 * the project, and the same bytes parsed, so that the file cannot change
 * between the check and the parse. */
static int load_project_layer(struct lf_cli_state *st, const char *path)
{
	char canon[PATH_MAX];
	char *text = NULL;
	size_t len = 0;
	int r;

	/* Not realpath: the trust is for this project's own file, never for
	 * what a symbolic link in the project points at. */
	r = lf_trust_policy_path(st->project_root, canon, sizeof(canon));
	if (r == -ELOOP)
		return lf_trust_report(path, r);
	if (r < 0) {
		fprintf(stderr, "%s:0:0: %s\n", path, strerror(-r));
		return LF_EXIT_USAGE;
	}
	r = lf_trust_read_policy(canon, &text, &len);
	if (r < 0) {
		fprintf(stderr, "%s:0:0: %s\n", path, strerror(-r));
		return r == -ENOMEM ? LF_EXIT_OWN : LF_EXIT_USAGE;
	}
	r = lf_trust_check(canon, text, len);
	if (r < 0) {
		free(text);
		return lf_trust_report(path, r);
	}
	struct lf_diag diag = { 0 };
	struct lf_policy *p = NULL;
	r = lf_policy_parse(text, len, path, LF_LAYER_PROJECT, &p, &diag);
	free(text);
	return layer_push(st, path, r, p, &diag);
}

int lf_cli_plan_compile(const struct lf_cli_state *st, struct lf_plan **out)
{
	struct lf_context ctx = { .project_root = st->project_root, .run_dir = NULL };
	struct lf_plan *plan = NULL;
	int r = lf_plan_compile(st->eff, &ctx, &plan);

	if (r < 0 || !plan) {
		fprintf(stderr, "landfence: cannot compile the sandbox plan: %s\n",
			strerror(r < 0 ? -r : EINVAL));
		lf_plan_free(plan);
		return LF_EXIT_OWN;
	}
	*out = plan;
	return 0;
}

int lf_cli_load(const struct lf_cli_opts *o, struct lf_cli_state *st)
{
	static char user_path[PATH_MAX], project_path[PATH_MAX];
	int r;

	memset(st, 0, sizeof(*st));
	r = lf_cli_project_root(o, st->project_root, sizeof(st->project_root));
	if (r)
		return r;

	if (lf_cli_config_path("policy.json", user_path, sizeof(user_path)) < 0)
		user_path[0] = '\0';
	if (user_path[0] && exists_file(user_path) &&
	    (r = load_layer(st, user_path, LF_LAYER_USER)))
		goto fail;

	if (snprintf(project_path, sizeof(project_path), "%s/.landfence/policy.json",
		     st->project_root) >= (int)sizeof(project_path)) {
		fprintf(stderr, "landfence: %s: path too long\n", st->project_root);
		r = LF_EXIT_OWN;
		goto fail;
	}
	struct stat pst;
	if (lstat(project_path, &pst) == 0 || errno != ENOENT) {
		if ((r = load_project_layer(st, project_path)))
			goto fail;
	} else if (lf_trust_known(project_path)) {
		/* A trusted policy that disappeared: deleting it must not
		 * widen the next run to the embedded default. */
		r = lf_trust_report(project_path, -ENOENT);
		goto fail;
	}

	for (size_t i = 0; i < o->npolicies; i++)
		if ((r = load_layer(st, o->policies[i], LF_LAYER_LOCAL)))
			goto fail;

	if (st->nlayers == 0) {
		struct lf_policy *p = NULL;
		if (lf_policy_default(&p) < 0) {
			fprintf(stderr, "landfence: cannot build the embedded default policy\n");
			r = LF_EXIT_OWN;
			goto fail;
		}
		st->embedded_default = true;
		st->layer_files[0] = "<embedded>";
		st->layers[st->nlayers++] = p;
	}

	r = lf_resolve((const struct lf_policy *const *)st->layers, st->nlayers, &st->eff);
	if (r < 0) {
		fprintf(stderr, "landfence: cannot resolve the policy layers: %s\n", strerror(-r));
		r = LF_EXIT_OWN;
		goto fail;
	}
	return 0;
fail:
	lf_cli_state_fini(st);
	return r;
}

void lf_cli_state_fini(struct lf_cli_state *st)
{
	lf_effective_free(st->eff);
	st->eff = NULL;
	for (size_t i = 0; i < st->nlayers; i++)
		lf_policy_free(st->layers[i]);
	st->nlayers = 0;
}
