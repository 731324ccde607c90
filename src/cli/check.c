/* SPDX-License-Identifier: MIT */
/*
 * `landfence check read|write|delete PATH…` and `landfence check bash --
 * LINE` (SPEC §4), and the advisory answer it shares with the hook
 * (advice.h). doc/hook.md explains the answer; doc/cli.md the exit codes.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/advice.h"
#include "cli/cli.h"
#include "core/model.h"
#include "core/shell.h"
#include "landlock/sandbox.h"

/* ------------------------------------------------------------------------
 * The advisory answer.
 */

void lf_text(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, size, fmt, ap);
	va_end(ap);
}

void lf_advisor_init(struct lf_advisor *a, struct lf_cli_state *st, const char *const *profiles,
		     size_t nprofiles)
{
	memset(a, 0, sizeof(*a));
	a->st = st;
	for (size_t i = 0; i < nprofiles && a->nprofiles < LF_CLI_MAX_PROFILES; i++)
		a->profiles[a->nprofiles++] = profiles[i];
}

void lf_advisor_fini(struct lf_advisor *a)
{
	lf_sandbox_free(a->sb);
	lf_plan_free(a->plan);
	a->sb = NULL;
	a->plan = NULL;
}

void lf_advice_rule(const struct lf_verdict *v, char *buf, size_t size)
{
	if (v->reason[0] && !v->source.line && !v->from_fallback)
		lf_text(buf, size, "%s", v->reason);
	else if (v->from_fallback)
		lf_text(buf, size, "fallback");
	else
		lf_text(buf, size, "%s %s:%u:%u", lf_layer_name(v->layer),
			v->source.file ? v->source.file : "<memory>", v->source.line,
			v->source.column);
}

static void source_text(const struct lf_source *s, char *buf, size_t size)
{
	lf_text(buf, size, "%s:%u:%u", s->file ? s->file : "<memory>", s->line, s->column);
}

/* The plan and the final rules, the same way `landfence plan` and `run`
 * build them (without the run directory and the command, which only
 * `run` knows). Built once, on the first file request. */
static void kernel_prepare(struct lf_advisor *a)
{
	struct lf_cli_state *st = a->st;
	const char *profiles[LF_CLI_MAX_PROFILES + 64];
	size_t n = 0;
	struct lf_diag diag = { 0 };

	if (a->kernel_ready)
		return;
	a->kernel_ready = true;
	struct lf_context ctx = { .project_root = st->project_root, .run_dir = NULL };
	int r = lf_plan_compile(st->eff, &ctx, &a->plan);
	if (r < 0 || !a->plan) {
		a->kernel_err = r < 0 ? r : -EINVAL;
		lf_text(a->kernel_msg, sizeof(a->kernel_msg), "cannot compile the plan: %s",
			strerror(-a->kernel_err));
		return;
	}
	for (size_t i = 0; i < a->nprofiles; i++)
		profiles[n++] = a->profiles[i];
	for (size_t i = 0; i < st->eff->nlayers; i++)
		for (size_t j = 0; j < st->eff->layers[i]->profiles.n; j++)
			if (n < sizeof(profiles) / sizeof(profiles[0]))
				profiles[n++] = st->eff->layers[i]->profiles.v[j];
	struct lf_sandbox_opts so = {
		.project_root = st->project_root,
		.profiles = profiles,
		.nprofiles = n,
		.abi_max = -1,
	};
	r = lf_sandbox_build(st->eff, a->plan, &so, &a->sb, &diag);
	if (r < 0) {
		a->kernel_err = r;
		lf_text(a->kernel_msg, sizeof(a->kernel_msg), "%s",
			diag.message[0] ? diag.message : strerror(-r));
	}
}

/* Lexical normalisation of an absolute path: "", "." and ".." components. */
static void path_clean(const char *in, char *out, size_t size)
{
	size_t n = 0;

	while (*in) {
		while (*in == '/')
			in++;
		const char *e = strchrnul(in, '/');
		size_t seg = (size_t)(e - in);
		if (seg == 0 || (seg == 1 && in[0] == '.')) {
			/* nothing */
		} else if (seg == 2 && in[0] == '.' && in[1] == '.') {
			while (n > 0 && out[n - 1] != '/')
				n--;
			if (n > 0)
				n--;
		} else if (n + 1 + seg + 1 <= size) {
			out[n++] = '/';
			memcpy(out + n, in, seg);
			n += seg;
		}
		in = e;
	}
	if (n == 0)
		out[n++] = '/';
	out[n] = '\0';
}

/* Where the kernel would really go for the absolute path in: realpath of
 * the longest existing ancestor, the rest appended and cleaned. It starts
 * from the path as written, not from its path_clean() form: with src/h a
 * link to ../.git/hooks, "src/h/../config" is .git/config, not
 * src/config. A dangling symbolic link is followed to its target, which
 * is what an open with O_CREAT creates (red team round 2, doc/escape.md).
 */
static void path_canon_at(const char *in, char *out, size_t size, int depth)
{
	char tmp[PATH_MAX], real[PATH_MAX], link[PATH_MAX], joined[PATH_MAX * 3];
	size_t cut = strlen(in);

	path_clean(in, out, size);
	if (cut >= sizeof(tmp))
		return;
	memcpy(tmp, in, cut + 1);
	for (;;) {
		struct stat st;

		tmp[cut] = '\0';
		const char *rest = in + cut;
		if (realpath(cut ? tmp : "/", real)) {
			lf_text(joined, sizeof(joined), "%s%s", strcmp(real, "/") ? real : "",
				rest);
			path_clean(joined, out, size);
			return;
		}
		if (cut > 0 && depth < 40 && lstat(tmp, &st) == 0 && S_ISLNK(st.st_mode)) {
			ssize_t n = readlink(tmp, link, sizeof(link) - 1);
			if (n > 0) {
				link[n] = '\0';
				if (link[0] == '/') {
					lf_text(joined, sizeof(joined), "%s%s", link, rest);
				} else {
					*strrchr(tmp, '/') = '\0';
					lf_text(joined, sizeof(joined), "%s/%s%s", tmp, link, rest);
				}
				path_canon_at(joined, out, size, depth + 1);
				return;
			}
		}
		if (cut == 0)
			return;
		cut--;
		while (cut > 0 && tmp[cut] != '/')
			cut--;
	}
}

static void path_canon(const char *in, char *out, size_t size)
{
	path_canon_at(in, out, size, 0);
}

static bool same_source(const struct lf_source *a, const struct lf_source *b)
{
	return a->line == b->line && a->column == b->column &&
	       ((!a->file && !b->file) || (a->file && b->file && !strcmp(a->file, b->file)));
}

/* Why no final rule of the class covers target. */
static void kernel_why_not(struct lf_advisor *a, unsigned cls, const char *clean,
			   const char *target, const struct lf_verdict *pv, struct lf_advice *out)
{
	const struct lf_dropped *best = NULL;
	char s1[600], s2[600];

	for (size_t i = 0; i < lf_plan_dropped_count(a->plan); i++) {
		const struct lf_dropped *d = lf_plan_dropped(a->plan, i);
		if (!(d->access & cls) ||
		    !(lf_path_covers(d->abs_root, clean) || lf_path_covers(d->abs_root, target)))
			continue;
		if (!best || (!pv->from_fallback && same_source(&d->allow, &pv->source)))
			best = d;
	}
	if (best) {
		source_text(&best->allow, s1, sizeof(s1));
		source_text(&best->fence, s2, sizeof(s2));
		lf_text(out->kernel, sizeof(out->kernel),
			"refuses: the allow at %s (root %s) is dropped by the fence of the %s rule "
			"at %s (root %s)",
			s1, best->abs_root, lf_effect_name(best->fence_effect), s2,
			best->fence_root);
		return;
	}
	for (size_t i = 0; i < lf_sandbox_dropped_count(a->sb); i++) {
		const struct lf_final_dropped *d = lf_sandbox_dropped(a->sb, i);
		if (!d->fence || !(d->access & cls) || !lf_path_covers(d->path, target))
			continue;
		source_text(&d->fence_source, s2, sizeof(s2));
		lf_text(out->kernel, sizeof(out->kernel),
			"refuses: the grant on %s (%s) is dropped by the fence %s (rule at %s)",
			d->path, d->why ? d->why : "", d->fence, s2);
		return;
	}
	lf_text(out->kernel, sizeof(out->kernel), "refuses: no final rule grants %s on %s%s%s%s",
		cls == LF_ACCESS_RO ? "read" : "write", target, strcmp(target, clean) ? " (" : "",
		strcmp(target, clean)
			? "creating or removing a file needs the right on its directory"
			: "",
		strcmp(target, clean) ? ")" : "");
}

/* What the kernel does with cap on the absolute path clean, whose
 * path_canon() form is canon. */
static void kernel_check(struct lf_advisor *a, enum lf_capability cap, const char *clean,
			 const char *canon, const struct lf_verdict *pv, struct lf_advice *out)
{
	unsigned cls = cap == LF_CAP_READ ? LF_ACCESS_RO : LF_ACCESS_RW;
	char target[PATH_MAX];
	struct stat stbuf;

	kernel_prepare(a);
	out->kernel_checked = true;
	if (a->kernel_err == -EOPNOTSUPP) {
		out->kernel_enforced = true;
		out->kernel_grants = false;
		lf_text(out->kernel, sizeof(out->kernel),
			"refuses: the sandbox would not start (%s)", a->kernel_msg);
		return;
	}
	if (a->kernel_err < 0) {
		out->kernel_checked = false;
		lf_text(out->kernel, sizeof(out->kernel), "unknown: %s", a->kernel_msg);
		return;
	}
	const struct lf_status *status = lf_sandbox_status(a->sb);
	if (status->kind == LF_STATUS_UNSUPPORTED) {
		out->kernel_enforced = false;
		out->kernel_grants = true;
		lf_text(out->kernel, sizeof(out->kernel),
			"not enforced: Landlock is not available here%s%s",
			status->reason[0] ? ": " : "", status->reason);
		return;
	}
	out->kernel_enforced = true;

	/* Landlock checks a new file's creation and any removal on the
	 * directory that holds it. */
	lf_text(target, sizeof(target), "%s", canon);
	if (cap == LF_CAP_DELETE || (cap == LF_CAP_WRITE && stat(canon, &stbuf) != 0)) {
		char *slash = strrchr(target, '/');
		if (slash && slash != target)
			*slash = '\0';
		else if (slash)
			slash[1] = '\0';
	}
	for (size_t i = 0; i < lf_sandbox_rule_count(a->sb); i++) {
		const struct lf_final_rule *r = lf_sandbox_rule(a->sb, i);
		if ((r->access & cls) && lf_path_covers(r->path, target)) {
			out->kernel_grants = true;
			lf_text(out->kernel, sizeof(out->kernel), "grants %s: final rule %s (%s)",
				cls == LF_ACCESS_RO ? "read" : "write", r->path,
				r->why ? r->why : "");
			return;
		}
	}
	out->kernel_grants = false;
	kernel_why_not(a, cls, clean, target, pv, out);
}

int lf_advise_file(struct lf_advisor *a, enum lf_capability cap, const char *path, const char *cwd,
		   struct lf_advice *out)
{
	struct lf_advice ad;
	char joined[PATH_MAX * 2], clean[PATH_MAX], canon[PATH_MAX];
	struct lf_verdict v2;
	int r;

	if (!path || !path[0] ||
	    (cap != LF_CAP_READ && cap != LF_CAP_WRITE && cap != LF_CAP_DELETE))
		return -EINVAL;
	memset(&ad, 0, sizeof(ad));
	if (path[0] == '/')
		lf_text(joined, sizeof(joined), "%s", path);
	else
		lf_text(joined, sizeof(joined), "%s/%s", cwd ? cwd : a->st->project_root, path);
	path_clean(joined, clean, sizeof(clean));
	lf_text(ad.path, sizeof(ad.path), "%s", clean);

	r = lf_decide_file(a->st->eff, a->st->project_root, cap, clean, &ad.policy);
	if (r < 0)
		return r;
	/* The same file through its symlinks: the stricter verdict. */
	path_canon(joined, canon, sizeof(canon));
	if (strcmp(canon, clean) != 0) {
		r = lf_decide_file(a->st->eff, a->st->project_root, cap, canon, &v2);
		if (r < 0)
			return r;
		if (v2.effect > ad.policy.effect)
			ad.policy = v2;
	}
	ad.effect = ad.policy.effect;

	kernel_check(a, cap, clean, canon, &ad.policy, &ad);
	if (ad.effect == LF_ALLOW && !ad.kernel_checked) {
		/* the kernel's answer is unknown: do not promise */
		ad.effect = LF_ASK;
		ad.downgraded = true;
	} else if (ad.effect != LF_DENY && ad.kernel_enforced && !ad.kernel_grants) {
		/* the kernel will refuse: asking a person cannot change that,
		 * so neither an allow nor an ask is an honest answer */
		ad.effect = LF_DENY;
		ad.downgraded = true;
	}
	*out = ad;
	return 0;
}

/* The pure core judges a redirection target as written. Where a link on
 * the way sends it elsewhere (src/h -> ../.git/hooks: `echo x >
 * src/h/../config`, `echo x > src/h/post-merge`, or a dangling src/d),
 * the target is judged again where the kernel would go, and the stricter
 * verdict is kept (red team round 2, doc/escape.md). */
struct redirect_recheck {
	struct lf_advisor *a;
	const char *cwd;
	struct lf_verdict *v;
};

static int redirect_recheck_part(void *ctx, const struct lf_shell_part *p)
{
	struct redirect_recheck *rc = ctx;
	char joined[PATH_MAX * 2], clean[PATH_MAX], canon[PATH_MAX];
	struct lf_verdict v2;
	const char *t;

	if (p->kind != LF_PART_REDIRECT || p->reason || !p->target || !p->target->len ||
	    (p->target->flags & LF_WORD_NOT_LITERAL))
		return 0;
	t = p->target->text;
	if (t[0] == '/')
		lf_text(joined, sizeof(joined), "%s", t);
	else
		lf_text(joined, sizeof(joined), "%s/%s", rc->cwd, t);
	path_clean(joined, clean, sizeof(clean));
	path_canon(joined, canon, sizeof(canon));
	if (!strcmp(clean, canon))
		return 0;
	int r = lf_decide_file(rc->a->st->eff, rc->a->st->project_root, p->cap, canon, &v2);
	if (r < 0)
		return r;
	if (v2.effect > rc->v->effect) {
		*rc->v = v2;
		lf_shell_part_format(p, rc->v->part, sizeof(rc->v->part));
	}
	return 0;
}

/* File words of a command line and the canonical paths they name. */
#define ALIASES_MAX 256

struct alias_scan {
	const char *cwd;
	struct lf_path_alias v[ALIASES_MAX];
	size_t n;
	int err;
};

static void alias_add(struct alias_scan *sc, const struct lf_shell_word *w)
{
	char joined[PATH_MAX * 2], clean[PATH_MAX], canon[PATH_MAX];

	if (!w->len || (w->flags & LF_WORD_NOT_LITERAL) || memchr(w->text, '\n', w->len) ||
	    w->len >= PATH_MAX || sc->n >= ALIASES_MAX)
		return;
	for (size_t k = 0; k < sc->n; k++)
		if (!strcmp(sc->v[k].word, w->text))
			return;
	if (w->text[0] == '/')
		lf_text(joined, sizeof(joined), "%s", w->text);
	else
		lf_text(joined, sizeof(joined), "%s/%s", sc->cwd, w->text);
	path_clean(joined, clean, sizeof(clean));
	/* ".." after a link leaves the link's target, as the kernel does */
	path_canon(joined, canon, sizeof(canon));
	if (!strcmp(canon, clean))
		return;
	char *word = strdup(w->text), *c = strdup(canon);
	if (!word || !c) {
		free(word);
		free(c);
		sc->err = -ENOMEM;
		return;
	}
	sc->v[sc->n].word = word;
	sc->v[sc->n].canon = c;
	sc->n++;
}

static int alias_part(void *ctx, const struct lf_shell_part *part)
{
	struct alias_scan *sc = ctx;

	if (part->kind == LF_PART_COMMAND) {
		for (size_t i = 1; i < part->argc; i++)
			if (part->argv[i].text[0] != '-')
				alias_add(sc, &part->argv[i]);
	} else if (part->kind == LF_PART_REDIRECT && !part->reason) {
		alias_add(sc, part->target);
	}
	return sc->err;
}

/* A file a command line surely opens (a redirection target, or a file the
 * table of programs names), judged as `check read|write|delete` judges it:
 * where the kernel refuses what the policy would let through, the line is
 * answered deny with the kernel's reason. */
static int bash_file_check(void *ctx, enum lf_capability cap, const char *path,
			   struct lf_verdict *v)
{
	struct lf_advice ad;
	int r = lf_advise_file(ctx, cap, path, NULL, &ad);

	if (r < 0)
		return r;
	if (ad.effect > v->effect) {
		*v = ad.policy;
		v->effect = ad.effect;
		if (ad.downgraded) {
			v->source = (struct lf_source){ 0 };
			v->from_fallback = false;
			lf_text(v->reason, sizeof(v->reason), "%s %s: kernel %s",
				lf_capability_name(cap), ad.path, ad.kernel);
		}
	}
	return 0;
}

int lf_advise_bash(struct lf_advisor *a, const char *line, const char *cwd, struct lf_advice *out)
{
	struct lf_advice ad;
	struct alias_scan *sc;
	int r;

	memset(&ad, 0, sizeof(ad));
	/* The core cannot look at the file system: the words that name
	 * existing files through symlinks are resolved here and judged by
	 * their canonical paths too, as a Read of the same file would be. */
	sc = calloc(1, sizeof(*sc));
	if (!sc)
		return -ENOMEM;
	sc->cwd = cwd ? cwd : a->st->project_root;
	r = lf_shell_analyse(line, strlen(line), alias_part, sc);
	if (r >= 0) {
		struct lf_bash_env env = {
			.home = secure_getenv("HOME"),
			.aliases = sc->v,
			.naliases = sc->n,
			.file_check = bash_file_check,
			.file_ctx = a,
		};
		r = lf_bash_decide_env(a->st->eff, a->st->project_root, cwd, line, &env,
				       &ad.policy);
	}
	for (size_t k = 0; k < sc->n; k++) {
		free((char *)sc->v[k].word);
		free((char *)sc->v[k].canon);
	}
	free(sc);
	if (r < 0)
		return r;
	if (ad.policy.effect != LF_DENY) {
		struct redirect_recheck rc = { a, cwd ? cwd : a->st->project_root, &ad.policy };
		r = lf_shell_analyse(line, strlen(line), redirect_recheck_part, &rc);
		if (r < 0)
			return r;
	}
	ad.effect = ad.policy.effect;
	*out = ad;
	return 0;
}

/* ------------------------------------------------------------------------
 * The subcommand.
 */

static const char usage_text[] =
	"usage: landfence check [-p POLICY]... [-C DIR] [--profile NAME]... [--json] "
	"read|write|delete PATH...\n"
	"       landfence check [-p POLICY]... [-C DIR] [--json] bash -- LINE\n"
	"exit status: 0 allow, 1 deny, 3 ask, 2 usage or policy error\n";

static int exit_of(enum lf_effect e)
{
	return e == LF_ALLOW ? LF_EXIT_OK : e == LF_DENY ? LF_EXIT_DENY : LF_EXIT_ASK;
}

static json_t *verdict_json(const struct lf_verdict *v)
{
	json_t *o = json_object();
	if (!o)
		return NULL;
	json_object_set_new(o, "verdict", json_string(lf_effect_name(v->effect)));
	json_object_set_new(o, "fallback", json_boolean(v->from_fallback));
	if (!v->from_fallback && v->source.line) {
		json_t *rule = json_object();
		json_object_set_new(rule, "layer", json_string(lf_layer_name(v->layer)));
		json_object_set_new(rule, "file",
				    v->source.file ? json_string(v->source.file) : json_null());
		json_object_set_new(rule, "line", json_integer(v->source.line));
		json_object_set_new(rule, "column", json_integer(v->source.column));
		json_object_set_new(o, "rule", rule);
	} else {
		json_object_set_new(o, "rule", json_null());
	}
	if (v->part[0])
		json_object_set_new(o, "part", json_string(v->part));
	if (v->reason[0])
		json_object_set_new(o, "reason", json_string(v->reason));
	return o;
}

static json_t *advice_json(const char *cap, const struct lf_advice *ad)
{
	char rule[1200];
	json_t *o = json_object();

	if (!o)
		return NULL;
	lf_advice_rule(&ad->policy, rule, sizeof(rule));
	json_object_set_new(o, "capability", json_string(cap));
	if (ad->path[0])
		json_object_set_new(o, "path", json_string(ad->path));
	json_object_set_new(o, "verdict", json_string(lf_effect_name(ad->effect)));
	json_object_set_new(o, "rule", json_string(ad->downgraded ? ad->kernel : rule));
	json_object_set_new(o, "policy", verdict_json(&ad->policy));
	if (ad->path[0]) {
		json_t *k = json_object();
		json_object_set_new(k, "checked", json_boolean(ad->kernel_checked));
		json_object_set_new(k, "enforced", json_boolean(ad->kernel_enforced));
		json_object_set_new(k, "grants", json_boolean(ad->kernel_grants));
		json_object_set_new(k, "detail", json_string(ad->kernel));
		json_object_set_new(o, "kernel", k);
	}
	return o;
}

static void advice_print(const char *cap, const char *what, const struct lf_advice *ad)
{
	char rule[1200];

	lf_advice_rule(&ad->policy, rule, sizeof(rule));
	printf("  %s%s%s: %s by %s\n", cap, what[0] ? " " : "", what,
	       lf_effect_name(ad->policy.effect), rule);
	if (ad->policy.part[0])
		printf("    part: %s\n", ad->policy.part);
	if (ad->policy.reason[0] && strcmp(ad->policy.reason, rule) != 0)
		printf("    reason: %s\n", ad->policy.reason);
	if (ad->path[0])
		printf("    kernel: %s\n", ad->kernel);
	if (ad->downgraded)
		printf("    answer: %s, because the kernel would refuse what the policy %s\n",
		       lf_effect_name(ad->effect),
		       ad->policy.effect == LF_ALLOW ? "allows" : "would ask about");
}

static int parse_cap(const char *s, enum lf_capability *cap)
{
	static const struct {
		const char *name;
		enum lf_capability cap;
	} caps[] = {
		{ "read", LF_CAP_READ },
		{ "write", LF_CAP_WRITE },
		{ "delete", LF_CAP_DELETE },
		{ "bash", LF_CAP_BASH },
	};
	for (size_t i = 0; i < sizeof(caps) / sizeof(caps[0]); i++) {
		if (!strcmp(s, caps[i].name)) {
			*cap = caps[i].cap;
			return 0;
		}
	}
	return -EINVAL;
}

int lf_cmd_check(int argc, char **argv)
{
	struct lf_cli_opts o = { 0 };
	struct lf_cli_state st;
	struct lf_advisor adv;
	enum lf_capability cap;
	int r;
	bool dashdash = false;

	r = lf_cli_opts_parse(argc, argv, usage_text, &o);
	if (r >= 0)
		return r;
	/* getopt moved "--" before the operands; was it there? */
	for (int i = 1; i < optind; i++)
		if (!strcmp(argv[i], "--"))
			dashdash = true;
	if (optind >= argc || parse_cap(argv[optind], &cap) < 0) {
		if (optind < argc)
			fprintf(stderr, "landfence check: unknown request '%s'\n", argv[optind]);
		fputs(usage_text, stderr);
		return LF_EXIT_USAGE;
	}
	int first = optind + 1;
	if (first < argc && !strcmp(argv[first], "--")) {
		dashdash = true;
		first++;
	}
	if (first >= argc) {
		fprintf(stderr, "landfence check %s: %s\n", argv[optind],
			cap == LF_CAP_BASH ? "a command line is required after --"
					   : "at least one PATH is required");
		fputs(usage_text, stderr);
		return LF_EXIT_USAGE;
	}
	if (cap == LF_CAP_BASH && !dashdash) {
		fputs("landfence check bash: write the command line after --, "
		      "e.g. landfence check bash -- 'git push'\n",
		      stderr);
		return LF_EXIT_USAGE;
	}

	r = lf_cli_load(&o, &st);
	if (r)
		return r;
	lf_advisor_init(&adv, &st, o.profiles, o.nprofiles);

	size_t n = cap == LF_CAP_BASH ? 1 : (size_t)(argc - first);
	struct lf_advice *ads = calloc(n, sizeof(*ads));
	char *line = NULL;
	int code = LF_EXIT_OK;
	if (!ads) {
		code = LF_EXIT_OWN;
		goto out;
	}
	if (cap == LF_CAP_BASH) {
		/* several words after -- are one line, joined by spaces */
		size_t len = 1;
		for (int i = first; i < argc; i++)
			len += strlen(argv[i]) + 1;
		line = malloc(len);
		if (!line) {
			code = LF_EXIT_OWN;
			goto out;
		}
		line[0] = '\0';
		for (int i = first; i < argc; i++) {
			if (i > first)
				strcat(line, " ");
			strcat(line, argv[i]);
		}
		r = lf_advise_bash(&adv, line, NULL, &ads[0]);
	} else {
		r = 0;
		for (size_t i = 0; i < n && r == 0; i++)
			r = lf_advise_file(&adv, cap, argv[first + (int)i], NULL, &ads[i]);
	}
	if (r < 0) {
		fprintf(stderr, "landfence check: %s\n", strerror(-r));
		code = r == -EINVAL ? LF_EXIT_USAGE : LF_EXIT_OWN;
		goto out;
	}
	if (adv.kernel_err == -EINVAL) {
		/* e.g. an unknown --profile: a usage error, as for plan and run */
		fprintf(stderr, "landfence check: %s\n", adv.kernel_msg);
		code = LF_EXIT_USAGE;
		goto out;
	}

	/* several requests: the strictest decides; the first on a tie */
	size_t worst = 0;
	for (size_t i = 1; i < n; i++)
		if (ads[i].effect > ads[worst].effect)
			worst = i;
	code = exit_of(ads[worst].effect);
	const char *capname = lf_capability_name(cap);

	if (o.json) {
		json_t *root = json_object(), *reqs = json_array();
		char rule[1200];
		if (!root || !reqs) {
			json_decref(root);
			json_decref(reqs);
			code = LF_EXIT_OWN;
			goto out;
		}
		lf_advice_rule(&ads[worst].policy, rule, sizeof(rule));
		json_object_set_new(root, "verdict",
				    json_string(lf_effect_name(ads[worst].effect)));
		if (ads[worst].downgraded)
			lf_text(rule, sizeof(rule), "kernel %s", ads[worst].kernel);
		json_object_set_new(root, "rule", json_string(rule));
		json_object_set_new(root, "exit", json_integer(code));
		json_object_set_new(root, "project_root", json_string(st.project_root));
		for (size_t i = 0; i < n; i++) {
			json_t *a = advice_json(capname, &ads[i]);
			if (cap == LF_CAP_BASH && a)
				json_object_set_new(a, "line", json_string(line));
			json_array_append_new(reqs, a);
		}
		json_object_set_new(root, "requests", reqs);
		char *text = json_dumps(root, JSON_INDENT(2));
		json_decref(root);
		if (!text) {
			code = LF_EXIT_OWN;
			goto out;
		}
		puts(text);
		free(text);
	} else {
		char rule[1200];
		lf_advice_rule(&ads[worst].policy, rule, sizeof(rule));
		if (ads[worst].downgraded)
			lf_text(rule, sizeof(rule), "kernel %s", ads[worst].kernel);
		printf("%s %s\n", lf_effect_name(ads[worst].effect), rule);
		for (size_t i = 0; i < n; i++)
			advice_print(capname, cap == LF_CAP_BASH ? "" : ads[i].path, &ads[i]);
	}
	if (fflush(stdout) != 0)
		code = LF_EXIT_OWN;
out:
	free(line);
	free(ads);
	lf_advisor_fini(&adv);
	lf_cli_state_fini(&st);
	return code;
}
