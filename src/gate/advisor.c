/* SPDX-License-Identifier: MIT */
/*
 * The advisory answer (landfence.h, lf_advisor_*): the policy's verdict,
 * and for a file request what the kernel will do with it under the
 * sandbox value. An agent is never told allow for what the kernel refuses
 * (doc/hook.md). `landfence check` and `landfence hook` print it.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/path.h"
#include "core/shell.h"
#include "fs/fs.h"
#include "gate/gate.h"
#include "project/project.h"

int lf_advisor_new(const struct lf_project *p, const char *const *profiles, size_t nprofiles,
		   struct lf_advisor **out)
{
	struct lf_advisor *a;

	if (!p || !out || !p->eff || !p->plan || (nprofiles && !profiles))
		return -EINVAL;
	a = calloc(1, sizeof(*a));
	if (!a)
		return -ENOMEM;
	a->profiles = calloc(nprofiles + 1, sizeof(*a->profiles));
	if (!a->profiles) {
		free(a);
		return -ENOMEM;
	}
	a->st = p;
	for (size_t i = 0; i < nprofiles; i++)
		a->profiles[a->nprofiles++] = profiles[i];
	*out = a;
	return 0;
}

void lf_advisor_free(struct lf_advisor *a)
{
	if (!a)
		return;
	lf_sandbox_free(a->sb);
	free(a->profiles);
	free(a);
}

int lf_advisor_error(const struct lf_advisor *a, const char **message)
{
	if (message)
		*message = a && a->kernel_err ? a->kernel_msg : NULL;
	return a ? a->kernel_err : -EINVAL;
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

/* The sandbox value, the same way `landfence plan` and `run` build it
 * (without the run directory and the command, which only `run` knows).
 * Built once, on the first file request. */
static void kernel_prepare(struct lf_advisor *a)
{
	const struct lf_project *st = a->st;
	struct lf_diag diag = { 0 };

	if (a->kernel_ready)
		return;
	a->kernel_ready = true;
	a->plan = st->plan;
	/* Inside a launch that masks (the launcher sets LANDFENCE_MASKED),
	 * no namespace can be made to find out: the masks are in force
	 * around us, so the answer is the one they give. */
	const char *marked = secure_getenv("LANDFENCE_MASKED");
	const char *unscoped = secure_getenv("LANDFENCE_ALLOW_UNSCOPED");
	struct lf_sandbox_opts so = {
		.size = sizeof(so),
		.project_root = st->project_root,
		.profiles = a->profiles,
		.nprofiles = a->nprofiles,
		.namespaces = marked && !strcmp(marked, "1") ? LF_NS_ASSUME : LF_NS_PROBE,
		/* Inside a run that accepted the missing scopes (the
		 * launcher sets it), or asked for by the user. */
		.flags = unscoped && !strcmp(unscoped, "1") ? LF_SANDBOX_ALLOW_UNSCOPED : 0,
	};
	int r = lf_sandbox_new(st->eff, a->plan, &so, &a->sb, &diag);
	if (r < 0) {
		a->kernel_err = r;
		lf_text(a->kernel_msg, sizeof(a->kernel_msg), "%s",
			diag.message[0] ? diag.message : strerror(-r));
	}
}

/* The path module's two forms of an absolute path, into the fixed buffers
 * the requests use: lexical (lf_path_clean), and where the kernel would
 * really go (lf_path_canon_lenient, doc/escape.md red team round 2). A
 * form that does not fit is empty. */
static void path_clean(const char *in, char *out, size_t size)
{
	if (lf_path_clean(in, out, size) < 0 && size)
		out[0] = '\0';
}

static void path_canon(const char *in, char *out, size_t size)
{
	char *canon = NULL;

	if (lf_path_canon_lenient(in, &canon) == 0 && strlen(canon) < size)
		memcpy(out, canon, strlen(canon) + 1);
	else
		path_clean(in, out, size);
	free(canon);
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
		const struct lf_sandbox_dropped *d = lf_sandbox_dropped(a->sb, i);
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
	/* A mask refuses whatever the rules grant around it. */
	for (size_t i = 0; i < lf_sandbox_mask_count(a->sb); i++) {
		const struct lf_sandbox_mask *m = lf_sandbox_mask(a->sb, i);
		if ((m->kind != LF_MASK_READ_ONLY || cls == LF_ACCESS_RW) &&
		    (lf_path_covers(m->path, canon) || lf_path_covers(m->path, target))) {
			out->kernel_grants = false;
			lf_text(out->kernel, sizeof(out->kernel),
				"refuses: %s is %s in the sandbox's mount namespace (%s)", m->path,
				m->kind == LF_MASK_READ_ONLY ? "read-only" : "hidden",
				m->why ? m->why : "a mask");
			return;
		}
	}
	for (size_t i = 0; i < lf_sandbox_rule_count(a->sb); i++) {
		const struct lf_sandbox_rule *r = lf_sandbox_rule(a->sb, i);
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

int lf_advisor_file(struct lf_advisor *a, enum lf_capability cap, const char *path, const char *cwd,
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
	if (strlen(joined) >= sizeof(clean) - 1)
		return -ENAMETOOLONG;
	path_clean(joined, clean, sizeof(clean));
	lf_text(ad.path, sizeof(ad.path), "%s", clean);

	r = lf_effective_decide_file(a->st->eff, a->st->project_root, cap, clean, &ad.policy);
	if (r < 0)
		return r;
	/* The same file through its symlinks: the stricter verdict. */
	path_canon(joined, canon, sizeof(canon));
	if (strcmp(canon, clean) != 0) {
		r = lf_effective_decide_file(a->st->eff, a->st->project_root, cap, canon, &v2);
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
	int r = lf_effective_decide_file(rc->a->st->eff, rc->a->st->project_root, p->cap, canon,
					 &v2);
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
 * table of programs names), judged as lf_advisor_file judges it: where the
 * kernel refuses what the policy would let through, the line is answered
 * deny with the kernel's reason. */
static int bash_file_check(void *ctx, enum lf_capability cap, const char *path,
			   struct lf_verdict *v)
{
	struct lf_advice ad;
	int r = lf_advisor_file(ctx, cap, path, NULL, &ad);

	if (r == -ENAMETOOLONG) {
		/* no answer for it: not a promise either */
		if (v->effect < LF_ASK) {
			v->effect = LF_ASK;
			v->source = (struct lf_source){ 0 };
			v->from_fallback = false;
			lf_text(v->reason, sizeof(v->reason), "not analysable: %s a file: %s",
				lf_capability_name(cap), "the path is too long to judge");
		}
		return 0;
	}
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

int lf_advisor_bash(struct lf_advisor *a, const char *line, const char *cwd, struct lf_advice *out)
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
