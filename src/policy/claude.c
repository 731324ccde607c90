/* SPDX-License-Identifier: MIT */
/*
 * Claude Code settings to and from a policy (doc/claude-settings.md).
 *
 * Claude Code's permission rules are strings "Tool" or "Tool(specifier)" in
 * permissions.allow, .ask and .deny; deny beats ask beats allow, and
 * defaultMode decides what no rule matches. Read and Edit specifiers are
 * gitignore-style patterns with four anchors: "//x" absolute, "~/x" the
 * home directory, "/x" the settings file's project root, "x" or "./x" the
 * working directory (a name without a slash matches at any depth). Bash
 * specifiers are exact commands, "cmd:*" or "cmd *" prefixes, or patterns
 * where "*" matches anything.
 *
 * Nothing is dropped silently: every rule without an exact equivalent is
 * described in the notes, with the place it was written.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/model.h"
#include "core/path.h"
#include "core/tables.h"
#include "policy/jpos.h"
#include "policy/policy.h"

#define LF_CLAUDE_IMPORT_FILE "<claude import>"

/* defaultMode values (Claude Code documentation, "Permission modes"). */
enum mode {
	MODE_DEFAULT,
	MODE_ACCEPT_EDITS,
	MODE_PLAN,
	MODE_AUTO,
	MODE_DONT_ASK,
	MODE_BYPASS,
};

static const char *const mode_names[] = {
	[MODE_DEFAULT] = "default",  [MODE_ACCEPT_EDITS] = "acceptEdits",
	[MODE_PLAN] = "plan",	     [MODE_AUTO] = "auto",
	[MODE_DONT_ASK] = "dontAsk", [MODE_BYPASS] = "bypassPermissions",
};

/* What a mode does with a request no rule matches: the fallback. */
static enum lf_effect mode_posture(enum mode m)
{
	switch (m) {
	case MODE_BYPASS:
		return LF_ALLOW;
	case MODE_DONT_ASK:
		return LF_DENY;
	default:
		return LF_ASK;
	}
}

static int note_add(struct lf_strv *notes, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int note_add(struct lf_strv *notes, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	if (!notes)
		return 0;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	/* A note quotes what a settings file wrote: a newline there must not
	 * forge another note line, nor an escape sequence reach the terminal
	 * (fuzz F2). Control bytes are shown as \xHH. */
	char safe[sizeof(buf) * 4];
	size_t n = 0;
	for (const unsigned char *c = (const unsigned char *)buf; *c; c++) {
		if (*c < 0x20 || *c == 0x7f)
			n += (size_t)snprintf(safe + n, sizeof(safe) - n, "\\x%02x", *c);
		else
			safe[n++] = (char)*c;
	}
	safe[n] = '\0';
	return lf_strv_push(notes, safe);
}

/*
 * Allows the kernel drops. Landlock grants whole trees and cannot carve a
 * hole in one: the plan drops an allow whose tree overlaps a deny or ask
 * of its class (doc/model.md). Both directions must say so: an import
 * whose "Read" allow meets a "Read(.env)" deny, and an export that would
 * otherwise promise Claude Code what the kernel refuses.
 */

static bool source_eq(const struct lf_source *a, const struct lf_source *b)
{
	if (a->line != b->line || a->column != b->column)
		return false;
	if (!a->file || !b->file)
		return a->file == b->file;
	return strcmp(a->file, b->file) == 0;
}

/* The access class of a file capability (0 for bash). */
static unsigned cap_class(enum lf_capability cap)
{
	return cap == LF_CAP_READ ? LF_ACCESS_RO : cap == LF_CAP_BASH ? 0 : LF_ACCESS_RW;
}

/* For every glob of every rule of eff, in pool order (rule i's globs from
 * the sum of the earlier rules' nglobs), the plan's record of its drop, or
 * NULL when the kernel keeps it. The plan records drops in that same order,
 * so one pass pairs them; the source, class and root confirm each pair.
 * *out is malloc'ed (NULL when eff has no glob). Returns 0 or -ENOMEM. */
static int plan_drops(const struct lf_effective *eff, const struct lf_plan *plan,
		      const struct lf_dropped ***out)
{
	const struct lf_dropped **v;
	size_t total = 0, at = 0, k = 0, nd = lf_plan_dropped_count(plan);

	*out = NULL;
	for (size_t i = 0; i < eff->nrules; i++)
		total += eff->rules[i]->nglobs;
	if (!total)
		return 0;
	v = calloc(total, sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < eff->nrules; i++) {
		const struct lf_rule *r = eff->rules[i];
		unsigned cls = cap_class(r->cap);
		for (size_t j = 0; j < r->nglobs; j++, at++) {
			const struct lf_dropped *d = k < nd ? lf_plan_dropped(plan, k) : NULL;
			const struct lf_glob *g = &r->globs[j];
			if (!cls || r->effect != LF_ALLOW || !d || d->access != cls ||
			    !source_eq(&d->allow, &r->source))
				continue;
			size_t al = strlen(d->abs_root);
			if (g->prefix_len && (al < g->prefix_len + 1 ||
					      memcmp(d->abs_root + al - g->prefix_len, g->pattern,
						     g->prefix_len) != 0 ||
					      d->abs_root[al - g->prefix_len - 1] != '/'))
				continue;
			v[at] = d;
			k++;
		}
	}
	*out = v;
	return 0;
}

/* Whether glob j of rule i is dropped, per plan_drops' array. */
static bool dropped_at(const struct lf_effective *eff, const struct lf_dropped *const *drops,
		       size_t i, size_t j)
{
	size_t at = 0;

	if (!drops)
		return false;
	for (size_t k = 0; k < i; k++)
		at += eff->rules[k]->nglobs;
	return drops[at + j] != NULL;
}

/* The pattern behind a drop's fence, as the policy wrote it: the first
 * glob of the fencing rule whose static prefix is the fence's root. */
static const char *fence_name(const struct lf_effective *eff, const struct lf_plan *plan,
			      const struct lf_dropped *d)
{
	for (size_t i = 0; i < lf_plan_fence_count(plan); i++) {
		const struct lf_fence *f = lf_plan_fence(plan, i);
		if (strcmp(f->abs_root, d->fence_root) != 0)
			continue;
		size_t rl = strlen(f->rel_root);
		for (size_t k = 0; k < eff->nrules; k++) {
			const struct lf_rule *r = eff->rules[k];
			if (r->effect != d->fence_effect || cap_class(r->cap) != d->access ||
			    !source_eq(&r->source, &d->fence))
				continue;
			for (size_t j = 0; j < r->nglobs; j++)
				if (r->globs[j].prefix_len == rl &&
				    memcmp(r->globs[j].pattern, f->rel_root, rl) == 0)
					return r->globs[j].pattern;
		}
		return f->rel_root[0] ? f->rel_root : "**";
	}
	return d->fence_root;
}

/*
 * Import.
 */

/* A command rule being collected. */
struct cmd_item {
	enum lf_matcher matcher;
	char *text;
	enum lf_effect effect;
};

struct imp {
	const struct lf_claude_opts *o;
	struct lf_strv *notes;
	struct lf_diag *diag;
	/* Patterns per capability (read, write, delete) and effect. */
	struct lf_strv pats[3][3];
	struct cmd_item *cmds;
	size_t ncmds;
	bool any_bash;
	bool bash_all_allow;  /* a bare "Bash" allow */
	bool bash_all_strict; /* a bare "Bash" ask or deny */
	enum lf_effect bash_all_effect;
	enum lf_effect bash_effect;
	enum mode mode;
};

static bool strv_has(const struct lf_strv *sv, const char *s)
{
	for (size_t i = 0; i < sv->n; i++)
		if (strcmp(sv->v[i], s) == 0)
			return true;
	return false;
}

static int pat_add(struct imp *c, enum lf_capability cap, enum lf_effect e, const char *pat)
{
	if (strv_has(&c->pats[cap][e], pat))
		return 0;
	return lf_strv_push(&c->pats[cap][e], pat);
}

static int cmd_add(struct imp *c, enum lf_matcher m, const char *text, enum lf_effect e)
{
	for (size_t i = 0; i < c->ncmds; i++)
		if (c->cmds[i].matcher == m && c->cmds[i].effect == e &&
		    strcmp(c->cmds[i].text, text) == 0)
			return 0;
	struct cmd_item *v = realloc(c->cmds, (c->ncmds + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	c->cmds = v;
	v[c->ncmds].text = strdup(text);
	if (!v[c->ncmds].text)
		return -ENOMEM;
	v[c->ncmds].matcher = m;
	v[c->ncmds].effect = e;
	c->ncmds++;
	return 0;
}

/* The place a rule was written, for notes. */
struct where {
	const char *file;
	unsigned line, column;
	const char *rule;
};

#define WHERE_FMT "%s:%u:%u: \"%s\": "
#define WHERE_ARGS(w) (w)->file, (w)->line, (w)->column, (w)->rule

/* An absolute pattern made relative to the project root, or 1 when it
 * lies outside. */
static int abs_to_rel(const char *root, const char *abs, char *out, size_t size)
{
	size_t rl = strlen(root);

	while (rl > 1 && root[rl - 1] == '/')
		rl--;
	if (rl == 1 && root[0] == '/')
		rl = 0; /* the project is "/": everything lies inside */
	if (strncmp(abs, root, rl) != 0 || (abs[rl] != '/' && abs[rl] != '\0'))
		return 1;
	const char *rest = abs + rl;
	while (*rest == '/')
		rest++;
	if (snprintf(out, size, "%s", *rest ? rest : "**") >= (int)size)
		return -ENAMETOOLONG;
	return 0;
}

/* Translates a Read or Edit specifier into a project-relative pattern.
 * Returns 0, 1 when it cannot be represented (why filled), or -errno. */
static int claude_path(const struct imp *c, const struct lf_claude_file *f, const char *spec,
		       char *out, size_t size, char *why, size_t whysz)
{
	char abs[4096];
	const char *root = c->o->project_root;

	if (spec[0] == '\0' || strcmp(spec, "**") == 0 || strcmp(spec, "*") == 0 ||
	    strcmp(spec, "./**") == 0) {
		/* Every path: the project part is "**"; outside the project
		 * landfence answers with the fallback. */
		snprintf(out, size, "**");
		return 0;
	}
	if (strncmp(spec, "//", 2) == 0) {
		snprintf(abs, sizeof(abs), "%s", spec + 1);
	} else if (strcmp(spec, "~") == 0 || strncmp(spec, "~/", 2) == 0) {
		if (!c->o->home) {
			snprintf(why, whysz, "no home directory is known to anchor \"~\"");
			return 1;
		}
		snprintf(abs, sizeof(abs), "%s%s", c->o->home, spec + 1);
	} else if (spec[0] == '/') {
		snprintf(abs, sizeof(abs), "%s%s", f->project_root ? f->project_root : root, spec);
	} else {
		/* Relative to the working directory, taken to be the project
		 * root. gitignore: a pattern with no slash but at its end
		 * matches at any depth. */
		const char *s = spec;
		while (strncmp(s, "./", 2) == 0)
			s += 2;
		const char *slash = strchr(s, '/');
		bool anchored = s != spec || (slash && slash[1] != '\0');
		bool starts_any = strncmp(s, "**", 2) == 0;
		if (snprintf(out, size, "%s%s", anchored || starts_any ? "" : "**/", s) >=
		    (int)size)
			return -ENAMETOOLONG;
		return 0;
	}
	/* An absolute tree above the project (every path, or the home
	 * directory of a project inside it, followed by a double star)
	 * covers the whole project: its project part is the whole project,
	 * the rest lies outside like any other absolute pattern. */
	size_t al = strlen(abs);
	if (al >= 3 && strcmp(abs + al - 3, "/**") == 0 && !strpbrk(abs, "?[") &&
	    !memchr(abs, '*', al - 3)) {
		char parent[4096];
		snprintf(parent, sizeof(parent), "%.*s", (int)(al - 3), abs);
		size_t pl = strlen(parent);
		if (pl == 0 ||
		    (strncmp(root, parent, pl) == 0 && (root[pl] == '/' || root[pl] == '\0'))) {
			snprintf(out, size, "**");
			return 0;
		}
	}
	int r = abs_to_rel(root, abs, out, size);
	if (r == 1) {
		snprintf(why, whysz,
			 "%s lies outside the project %s; landfence decides paths outside the "
			 "project by the fallback (%s)",
			 abs, root, lf_effect_name(mode_posture(c->mode)));
		/* The caller's note says what the sandbox does there. */
		snprintf(out, size, "%s", abs);
	}
	return r;
}

/* The literal directory part of an absolute pattern: up to the last '/'
 * before its first metacharacter, or all of it when it has none. */
static void abs_static_prefix(const char *abs, char *out, size_t size)
{
	size_t n = strcspn(abs, "*?[\\");

	if (abs[n]) {
		while (n > 0 && abs[n - 1] != '/')
			n--;
	}
	while (n > 1 && abs[n - 1] == '/')
		n--;
	snprintf(out, size, "%.*s", (int)n, abs);
}

/* What the sandbox does, by default, with the absolute pattern abs that a
 * deny or ask outside the project names: a sentence for the note. The
 * read-only rows of the host-grant table (core/tables.c) are what every
 * sandbox grants outside the project; /etc leaves its secrets out. */
static void outside_consequence(const struct imp *c, bool read, const char *abs, char *buf,
				size_t size)
{
	char prefix[4096], grant[4096], below[512] = "";
	size_t nbelow = 0;

	abs_static_prefix(abs, prefix, sizeof(prefix));
	for (size_t i = 0; i < lf_host_table_len; i++) {
		const struct lf_host_row *row = &lf_host_table[i];
		const char *g = row->path;
		if (lf_host_access(row->kind) != LF_ACCESS_RO)
			continue;
		if (g[0] == '~') {
			if (!c->o->home)
				continue;
			snprintf(grant, sizeof(grant), "%s%s", c->o->home, g + 1);
		} else {
			snprintf(grant, sizeof(grant), "%s", g);
		}
		if (lf_path_covers(grant, prefix)) {
			if (row->kind == LF_HOST_ETC && lf_etc_is_hidden(prefix)) {
				snprintf(buf, size,
					 "the sandbox's default host grant %s leaves %s "
					 "out (landfence hides %s's secrets), so the kernel "
					 "refuses it anyway",
					 grant, abs, grant);
				return;
			}
			if (read)
				snprintf(buf, size,
					 "the sandbox's default host grant %s makes %s readable: "
					 "the sandboxed program can read it (file permissions "
					 "permitting)",
					 grant, abs);
			else
				snprintf(buf, size,
					 "the sandbox's default host grant %s is read-only: the "
					 "kernel refuses writes to %s anyway",
					 grant, abs);
			return;
		}
		size_t l = strlen(below), gl = strlen(grant);
		if (lf_path_covers(prefix, grant) && nbelow < 4 && l + gl + 3 < sizeof(below)) {
			if (nbelow)
				memcpy(below + l, ", ", 2), l += 2;
			memcpy(below + l, grant, gl + 1);
			nbelow++;
		}
	}
	if (nbelow && read)
		snprintf(buf, size,
			 "it covers default host grants (%s...), which stay readable in the "
			 "sandbox; elsewhere no default grant reaches, so the kernel refuses it "
			 "unless a \"host\" entry or an agent profile of the policy grants it",
			 below);
	else
		snprintf(buf, size,
			 "no default host grant covers %s, so the kernel refuses it anyway, "
			 "unless a \"host\" entry or an agent profile of the policy (such as "
			 "claude's ~/.claude) grants it",
			 abs);
}

enum bash_kind {
	BASH_ALL,
	BASH_RULE,
	BASH_NONE,
};

/* Translates a Bash specifier. */
static enum bash_kind claude_bash(const char *spec, enum lf_matcher *m, char *text, size_t size)
{
	size_t n = strlen(spec);
	const char *star = strchr(spec, '*');

	if (n == 0 || strcmp(spec, "*") == 0)
		return BASH_ALL;
	if (n >= 2 && strcmp(spec + n - 2, ":*") == 0 && star == spec + n - 1) {
		/* The legacy prefix form "cmd:*". */
		*m = LF_MATCH_PREFIX;
		snprintf(text, size, "%.*s", (int)(n - 2), spec);
		return BASH_RULE;
	}
	if (n >= 2 && strcmp(spec + n - 2, " *") == 0 && star == spec + n - 1) {
		/* "cmd *": the command with or without arguments, at a word
		 * boundary, which is what a token-wise prefix means. */
		*m = LF_MATCH_PREFIX;
		snprintf(text, size, "%.*s", (int)(n - 2), spec);
		return BASH_RULE;
	}
	*m = star ? LF_MATCH_GLOB : LF_MATCH_EXACT;
	snprintf(text, size, "%s", spec);
	return BASH_RULE;
}

enum tool {
	TOOL_READ,
	TOOL_EDIT,
	TOOL_BASH,
	TOOL_OTHER,
};

static enum tool tool_kind(const char *name)
{
	static const char *const readers[] = { "Read", "Glob", "Grep", "LS", "NotebookRead", NULL };
	static const char *const editors[] = { "Edit", "Write", "MultiEdit", "NotebookEdit", NULL };

	for (size_t i = 0; readers[i]; i++)
		if (strcmp(name, readers[i]) == 0)
			return TOOL_READ;
	for (size_t i = 0; editors[i]; i++)
		if (strcmp(name, editors[i]) == 0)
			return TOOL_EDIT;
	return strcmp(name, "Bash") == 0 ? TOOL_BASH : TOOL_OTHER;
}

static int import_rule(struct imp *c, const struct lf_claude_file *f, const struct where *w,
		       enum lf_effect effect)
{
	char tool[128], spec[4096], pat[4096], why[8400];
	const char *rule = w->rule, *open = strchr(rule, '(');
	size_t tl = open ? (size_t)(open - rule) : strlen(rule);
	bool has_spec = open != NULL;
	int r;

	if (has_spec && (rule[strlen(rule) - 1] != ')' || strlen(rule) < tl + 2)) {
		return note_add(c->notes,
				WHERE_FMT "not a rule Claude Code reads (no closing "
					  "parenthesis); not imported",
				WHERE_ARGS(w));
	}
	if (tl == 0 || tl >= sizeof(tool))
		return note_add(c->notes, WHERE_FMT "no tool name; not imported", WHERE_ARGS(w));
	memcpy(tool, rule, tl);
	tool[tl] = '\0';
	if (has_spec)
		snprintf(spec, sizeof(spec), "%.*s", (int)(strlen(open + 1) - 1), open + 1);
	else
		spec[0] = '\0';

	switch (tool_kind(tool)) {
	case TOOL_OTHER:
		return note_add(c->notes,
				WHERE_FMT
				"the %s tool has no landfence equivalent (landfence knows "
				"file reads, writes, deletions and shell commands); not "
				"imported",
				WHERE_ARGS(w), tool);
	case TOOL_BASH: {
		enum lf_matcher m;
		enum bash_kind k = claude_bash(spec, &m, pat, sizeof(pat));
		struct lf_cmd_rule probe;
		struct lf_diag d;
		if (k == BASH_ALL) {
			c->any_bash = true;
			/* Every command. An allow is what unmatched commands
			 * get; an ask or deny must also beat every allow, as
			 * in Claude, so it becomes a command rule matching
			 * everything too. */
			if (effect == LF_ALLOW) {
				c->bash_all_allow = true;
				return 0;
			}
			if (!c->bash_all_strict || effect > c->bash_all_effect)
				c->bash_all_effect = effect;
			c->bash_all_strict = true;
			return cmd_add(c, LF_MATCH_GLOB, "*", effect);
		}
		if (lf_cmd_rule_init(&probe, m, pat, effect, (struct lf_source){ 0 }, &d) < 0)
			return note_add(c->notes, WHERE_FMT "%s; not imported", WHERE_ARGS(w),
					d.message);
		lf_cmd_rule_fini(&probe);
		c->any_bash = true;
		if (m == LF_MATCH_GLOB && strpbrk(pat, "?[\\")) {
			r = note_add(c->notes,
				     WHERE_FMT
				     "\"?\", \"[\" and \"\\\" are literal in Claude Code but "
				     "pattern characters in a landfence glob",
				     WHERE_ARGS(w));
			if (r < 0)
				return r;
		}
		return cmd_add(c, m, pat, effect);
	}
	case TOOL_READ:
	case TOOL_EDIT:
		break;
	}

	pat[0] = '\0';
	r = claude_path(c, f, spec, pat, sizeof(pat), why, sizeof(why));
	if (r < 0)
		return r;
	if (r == 1 && effect != LF_ALLOW && pat[0] == '/') {
		/* A deny or ask the import drops: the user must not believe it
		 * still holds. Say what the sandbox does there instead. */
		char what[4600];
		outside_consequence(c, tool_kind(tool) == TOOL_READ, pat, what, sizeof(what));
		return note_add(c->notes,
				WHERE_FMT "not imported: %s lies outside the project %s, and "
					  "landfence's rules reach only the project; this %s is "
					  "not enforced by landfence: %s",
				WHERE_ARGS(w), pat, c->o->project_root, lf_effect_name(effect),
				what);
	}
	if (r == 1)
		return note_add(c->notes, WHERE_FMT "%s; not imported", WHERE_ARGS(w), why);
	struct lf_glob g;
	struct lf_diag d;
	if (lf_glob_init(&g, pat, strlen(pat), &d) < 0)
		return note_add(c->notes, WHERE_FMT "%s; not imported", WHERE_ARGS(w), d.message);
	lf_glob_fini(&g);
	if (!has_spec || strcmp(pat, "**") == 0) {
		r = note_add(c->notes,
			     WHERE_FMT "imported for the project only (\"**\"); outside the "
				       "project landfence answers with the fallback (%s)",
			     WHERE_ARGS(w), lf_effect_name(mode_posture(c->mode)));
		if (r < 0)
			return r;
	}
	if (tool_kind(tool) == TOOL_READ)
		return pat_add(c, LF_CAP_READ, effect, pat);
	if ((r = pat_add(c, LF_CAP_WRITE, effect, pat)) < 0)
		return r;
	return pat_add(c, LF_CAP_DELETE, effect, pat);
}

static int settings_error(struct lf_diag *diag, const char *file, const struct lf_jpos *pos,
			  const char *what, const json_t *v, const char *expected)
{
	return lf_diag_set(diag, file, pos->line, pos->column, "%s is %s, expected %s", what,
			   lf_json_type_name(v), expected);
}

/* The permissions object of a settings file, or NULL. Checks its shape. */
static int settings_permissions(struct imp *c, const struct lf_claude_file *f,
				const struct lf_jdoc *doc, json_t **perm,
				const struct lf_jpos **ppos)
{
	const char *key;
	json_t *v;
	size_t i = 0;

	*perm = NULL;
	if (!json_is_object(doc->root))
		return settings_error(c->diag, f->name, &doc->pos, "the settings file", doc->root,
				      "an object");
	json_object_foreach(doc->root, key, v)
	{
		const struct lf_jpos_kid *kid = lf_jpos_kid(&doc->pos, i++);
		if (strcmp(key, "permissions") != 0 || !kid)
			continue;
		if (!json_is_object(v))
			return settings_error(c->diag, f->name, &kid->value, "\"permissions\"", v,
					      "an object");
		*perm = v;
		*ppos = &kid->value;
	}
	return 0;
}

static int import_file_mode(struct imp *c, const struct lf_claude_file *f, json_t *perm,
			    const struct lf_jpos *ppos)
{
	const char *key;
	json_t *v;
	size_t i = 0;
	int r;

	json_object_foreach(perm, key, v)
	{
		const struct lf_jpos_kid *kid = lf_jpos_kid(ppos, i++);
		if (!kid)
			continue;
		if (strcmp(key, "allow") == 0 || strcmp(key, "ask") == 0 ||
		    strcmp(key, "deny") == 0) {
			char what[64];
			size_t j;
			json_t *e;
			snprintf(what, sizeof(what), "\"permissions.%s\"", key);
			if (!json_is_array(v))
				return settings_error(c->diag, f->name, &kid->value, what, v,
						      "an array of rule strings");
			json_array_foreach(v, j, e)
			{
				const struct lf_jpos_kid *ek = lf_jpos_kid(&kid->value, j);
				const struct lf_jpos *ep = ek ? &ek->value : &kid->value;
				snprintf(what, sizeof(what), "permissions.%s[%zu]", key, j);
				if (!json_is_string(e))
					return settings_error(c->diag, f->name, ep, what, e,
							      "a rule string such as "
							      "\"Bash(npm test)\"");
				if (strlen(json_string_value(e)) != json_string_length(e))
					return lf_diag_set(c->diag, f->name, ep->line, ep->column,
							   "%s contains a NUL byte, expected a "
							   "rule string",
							   what);
			}
		} else if (strcmp(key, "defaultMode") == 0) {
			size_t m;
			if (!json_is_string(v))
				return settings_error(c->diag, f->name, &kid->value,
						      "\"permissions.defaultMode\"", v,
						      "the string \"default\", \"acceptEdits\", "
						      "\"plan\", \"auto\", \"dontAsk\" or "
						      "\"bypassPermissions\"");
			for (m = 0; m < sizeof(mode_names) / sizeof(mode_names[0]); m++)
				if (strcmp(json_string_value(v), mode_names[m]) == 0)
					break;
			if (m == sizeof(mode_names) / sizeof(mode_names[0])) {
				char q[96];
				lf_quote(q, sizeof(q), json_string_value(v), json_string_length(v));
				return lf_diag_set(c->diag, f->name, kid->value.line,
						   kid->value.column,
						   "unknown defaultMode %s, expected default, "
						   "acceptEdits, plan, auto, dontAsk or "
						   "bypassPermissions",
						   q);
			}
			/* Later files take precedence. */
			c->mode = (enum mode)m;
		} else {
			r = note_add(
				c->notes,
				"%s:%u:%u: \"permissions.%s\" has no landfence equivalent; not "
				"imported",
				f->name, kid->key_line, kid->key_column, key);
			if (r < 0)
				return r;
		}
	}
	return 0;
}

static int import_file_rules(struct imp *c, const struct lf_claude_file *f, json_t *perm,
			     const struct lf_jpos *ppos)
{
	/* Deny first, as Claude Code evaluates them; the order only shows
	 * in the output. */
	static const char *const lists[] = { "deny", "ask", "allow" };
	static const enum lf_effect effects[] = { LF_DENY, LF_ASK, LF_ALLOW };
	int r;

	for (size_t l = 0; l < 3; l++) {
		const char *key;
		json_t *v;
		size_t i = 0;
		json_object_foreach(perm, key, v)
		{
			const struct lf_jpos_kid *kid = lf_jpos_kid(ppos, i++);
			size_t j;
			json_t *e;
			if (!kid || strcmp(key, lists[l]) != 0)
				continue;
			json_array_foreach(v, j, e)
			{
				const struct lf_jpos_kid *ek = lf_jpos_kid(&kid->value, j);
				struct where w = { f->name, ek ? ek->value.line : 0,
						   ek ? ek->value.column : 0,
						   json_string_value(e) };
				if ((r = import_rule(c, f, &w, effects[l])) < 0)
					return r;
			}
		}
	}
	return 0;
}

static int build_policy(struct imp *c, struct lf_policy **out)
{
	struct lf_policy *p = NULL;
	struct lf_diag d;
	int r;

	if ((r = lf_policy_new(LF_CLAUDE_IMPORT_FILE, LF_LAYER_PROJECT, &p)) < 0)
		return r;
	p->has_fallback = true;
	p->fallback = mode_posture(c->mode);
	for (int cap = LF_CAP_READ; cap <= LF_CAP_DELETE; cap++)
		for (int e = LF_DENY; e >= LF_ALLOW; e--) {
			const struct lf_strv *sv = &c->pats[cap][e];
			if (!sv->n)
				continue;
			struct lf_glob *globs = calloc(sv->n, sizeof(*globs));
			size_t n = 0;
			if (!globs) {
				r = -ENOMEM;
				goto fail;
			}
			for (; n < sv->n; n++)
				if ((r = lf_glob_init(&globs[n], sv->v[n], strlen(sv->v[n]), &d)) <
				    0)
					break;
			if (r < 0) {
				while (n--)
					lf_glob_fini(&globs[n]);
				free(globs);
				goto fail;
			}
			r = lf_policy_add_file_rule(p, (enum lf_capability)cap, (enum lf_effect)e,
						    globs, n, (struct lf_source){ 0 }, &d);
			if (r < 0)
				goto fail;
		}
	if (c->any_bash) {
		struct lf_cmd_rule *cmds = calloc(c->ncmds + 1, sizeof(*cmds));
		size_t n = 0;
		if (!cmds) {
			r = -ENOMEM;
			goto fail;
		}
		/* Strictest first, as Claude Code evaluates them. */
		for (int e = LF_DENY; e >= LF_ALLOW; e--)
			for (size_t i = 0; i < c->ncmds; i++) {
				if (c->cmds[i].effect != (enum lf_effect)e)
					continue;
				r = lf_cmd_rule_init(&cmds[n], c->cmds[i].matcher, c->cmds[i].text,
						     c->cmds[i].effect, (struct lf_source){ 0 },
						     &d);
				if (r < 0) {
					while (n--)
						lf_cmd_rule_fini(&cmds[n]);
					free(cmds);
					goto fail;
				}
				n++;
			}
		if ((r = lf_policy_add_bash_rule(p, c->bash_effect, cmds, n,
						 (struct lf_source){ 0 })) < 0)
			goto fail;
	}
	*out = p;
	return 0;
fail:
	lf_policy_free(p);
	return r;
}

/* Notes for the allows of the imported policy that the kernel will drop:
 * "Read" allows every project read, and one "Read(.env)" deny takes the
 * whole allow away in the sandbox. The user must hear it at import. */
static int import_drop_notes(struct imp *c, const struct lf_policy *p)
{
	const struct lf_policy *layers[] = { p };
	struct lf_context ctx = { c->o->project_root, c->o->project_root };
	struct lf_effective *eff = NULL;
	struct lf_plan *plan = NULL;
	const struct lf_dropped **drops = NULL;
	int r;

	if (!c->notes)
		return 0;
	if ((r = lf_effective_resolve(layers, 1, &eff)) < 0 ||
	    (r = lf_plan_compile(eff, &ctx, &plan)) < 0 || (r = plan_drops(eff, plan, &drops)) < 0)
		goto out;
	for (size_t i = 0, at = 0; i < eff->nrules; i++) {
		const struct lf_rule *rule = eff->rules[i];
		for (size_t j = 0; j < rule->nglobs; j++, at++) {
			const struct lf_dropped *d = drops ? drops[at] : NULL;
			const struct lf_glob *g = &rule->globs[j];
			const char *cls = d && d->access == LF_ACCESS_RO ? "read" : "write";
			const char *able = d && d->access == LF_ACCESS_RO ? "readable" : "writable";
			char buf[1024], what[600];
			if (!d)
				continue;
			if (g->prefix_len)
				snprintf(what, sizeof(what), "%.*s will not be %s",
					 (int)g->prefix_len, g->pattern, able);
			else
				snprintf(what, sizeof(what), "the project will not be %s", able);
			/* A delete allow beside its write twin says nothing new:
			 * the note names the write. */
			for (int k = rule->cap == LF_CAP_DELETE ? 0 : 1; k < 2; k++) {
				snprintf(buf, sizeof(buf),
					 "note: allow %s \"%s\" is dropped by the fence %s %s "
					 "\"%s\" (Landlock cannot carve a hole in a granted tree): "
					 "%s in the sandbox; list the %s directories instead",
					 k ? lf_capability_name(rule->cap) : "write", g->pattern,
					 lf_effect_name(d->fence_effect), cls,
					 fence_name(eff, plan, d), what, able);
				if (strv_has(c->notes, buf))
					break;
			}
			if (!strv_has(c->notes, buf) && (r = lf_strv_push(c->notes, buf)) < 0)
				goto out;
		}
	}
	r = 0;
out:
	free(drops);
	lf_plan_free(plan);
	lf_effective_free(eff);
	return r;
}

int lf_claude_import(const struct lf_claude_file *files, size_t n, const struct lf_claude_opts *o,
		     struct lf_policy **out, struct lf_strv *notes, struct lf_diag *diag)
{
	struct lf_diag scratch;
	struct imp c = { .o = o, .notes = notes, .mode = MODE_DEFAULT };
	struct lf_jdoc *docs;
	json_t **perms;
	const struct lf_jpos **ppos;
	int r = 0;

	if (!diag)
		diag = &scratch;
	memset(diag, 0, sizeof(*diag));
	if ((n && !files) || !o || !o->project_root || o->project_root[0] != '/' || !out)
		return lf_diag_set(diag, "", 0, 0, "invalid arguments");
	c.diag = diag;
	docs = calloc(n + 1, sizeof(*docs));
	perms = calloc(n + 1, sizeof(*perms));
	ppos = calloc(n + 1, sizeof(*ppos));
	if (!docs || !perms || !ppos) {
		r = -ENOMEM;
		goto out;
	}
	/* First every file's shape and the mode (the last one wins), since
	 * notes about rules name the fallback the mode gives. */
	for (size_t i = 0; i < n; i++) {
		if ((r = lf_jdoc_parse(&docs[i], files[i].text, files[i].len, files[i].name,
				       diag)) < 0)
			goto out;
		if ((r = settings_permissions(&c, &files[i], &docs[i], &perms[i], &ppos[i])) < 0)
			goto out;
		if (perms[i] && (r = import_file_mode(&c, &files[i], perms[i], ppos[i])) < 0)
			goto out;
	}
	/* What the mode itself lets through without asking. */
	switch (c.mode) {
	case MODE_ACCEPT_EDITS:
		if ((r = pat_add(&c, LF_CAP_WRITE, LF_ALLOW, "**")) < 0 ||
		    (r = pat_add(&c, LF_CAP_DELETE, LF_ALLOW, "**")) < 0)
			goto out;
		/* fall through */
	case MODE_DEFAULT:
	case MODE_PLAN:
	case MODE_AUTO:
		if ((r = pat_add(&c, LF_CAP_READ, LF_ALLOW, "**")) < 0)
			goto out;
		break;
	case MODE_DONT_ASK:
	case MODE_BYPASS:
		break;
	}
	for (size_t i = 0; i < n; i++)
		if (perms[i] && (r = import_file_rules(&c, &files[i], perms[i], ppos[i])) < 0)
			goto out;
	/* What commands no command rule matches get. */
	c.bash_effect = c.bash_all_strict  ? c.bash_all_effect
			: c.bash_all_allow ? LF_ALLOW
					   : mode_posture(c.mode);
	r = build_policy(&c, out);
	if (r == 0 && (r = import_drop_notes(&c, *out)) < 0) {
		lf_policy_free(*out);
		*out = NULL;
	}
out:
	for (size_t i = 0; docs && i < n; i++)
		lf_jdoc_fini(&docs[i]);
	free(docs);
	free(perms);
	free(ppos);
	for (int cap = 0; cap < 3; cap++)
		for (int e = 0; e < 3; e++)
			lf_strv_fini(&c.pats[cap][e]);
	for (size_t i = 0; i < c.ncmds; i++)
		free(c.cmds[i].text);
	free(c.cmds);
	return r;
}

/*
 * Export.
 */

struct exp {
	json_t *lists[3]; /* allow, ask, deny */
	struct lf_strv *notes;
};

static int list_add(struct exp *x, enum lf_effect e, const char *rule)
{
	json_t *a = x->lists[e], *v;
	size_t i;

	json_array_foreach(a, i, v)
	{
		if (strcmp(json_string_value(v), rule) == 0)
			return 0;
	}
	v = json_string(rule);
	if (!v || json_array_append_new(a, v) < 0)
		return -ENOMEM;
	return 0;
}

/* "Tool(/pattern)", plus the same with "/" and "**" appended unless the
 * pattern already reaches below itself: a landfence pattern that matches a directory
 * covers its subtree, and the second form says so in Claude's terms. */
static int export_pattern(struct exp *x, const char *tool, enum lf_effect e, const char *pat)
{
	char buf[4200];
	size_t n = strlen(pat);
	int r;

	if (strcmp(pat, "**") == 0) {
		snprintf(buf, sizeof(buf), "%s(/**)", tool);
		return list_add(x, e, buf);
	}
	snprintf(buf, sizeof(buf), "%s(/%s)", tool, pat);
	if ((r = list_add(x, e, buf)) < 0)
		return r;
	if (n >= 3 && strcmp(pat + n - 3, "/**") == 0)
		return 0;
	snprintf(buf, sizeof(buf), "%s(/%s/**)", tool, pat);
	return list_add(x, e, buf);
}

/* Whether the effective policy has a write rule of this effect holding
 * this pattern (a delete rule then folds into the same Edit rule). */
static bool has_write_twin(const struct lf_effective *eff, enum lf_effect e, const char *pat)
{
	for (size_t i = 0; i < eff->nrules; i++) {
		const struct lf_rule *r = eff->rules[i];
		if (r->cap != LF_CAP_WRITE || r->effect != e)
			continue;
		for (size_t j = 0; j < r->nglobs; j++)
			if (strcmp(r->globs[j].pattern, pat) == 0)
				return true;
	}
	return false;
}

static const char *src_file(const struct lf_source *s)
{
	return s->file ? s->file : "<memory>";
}

/* An allow the kernel drops becomes an ask: Claude Code must not say yes
 * where the kernel will refuse, and asking is the nearest it can say (an
 * ask also beats Claude's allows below it, which only asks more). */
static int export_dropped(struct exp *x, const struct lf_effective *eff, const struct lf_plan *plan,
			  const struct lf_rule *r, const char *pat, const struct lf_dropped *d)
{
	const char *tool = r->cap == LF_CAP_READ ? "Read" : "Edit";
	int ret;

	ret = note_add(x->notes,
		       "%s:%u:%u: allow %s \"%s\": the kernel drops this allow, fenced by %s %s "
		       "\"%s\" at %s:%u:%u (Landlock cannot carve a hole in a granted tree); "
		       "exported under \"ask\", not \"allow\", so that Claude Code does not "
		       "promise what the kernel refuses",
		       src_file(&r->source), r->source.line, r->source.column,
		       lf_capability_name(r->cap), pat, lf_effect_name(d->fence_effect),
		       d->access == LF_ACCESS_RO ? "read" : "write", fence_name(eff, plan, d),
		       src_file(&d->fence), d->fence.line, d->fence.column);
	if (ret < 0)
		return ret;
	return export_pattern(x, tool, LF_ASK, pat);
}

static int export_file_rule(struct exp *x, const struct lf_effective *eff, const struct lf_rule *r,
			    const struct lf_plan *plan, const struct lf_dropped *const *drops)
{
	int ret;

	for (size_t j = 0; j < r->nglobs; j++) {
		const char *pat = r->globs[j].pattern;
		if (drops && drops[j] && r->cap != LF_CAP_DELETE) {
			ret = export_dropped(x, eff, plan, r, pat, drops[j]);
		} else if (r->cap == LF_CAP_READ) {
			ret = export_pattern(x, "Read", r->effect, pat);
		} else if (r->cap == LF_CAP_WRITE) {
			ret = export_pattern(x, "Edit", r->effect, pat);
		} else if (has_write_twin(eff, r->effect, pat)) {
			continue;
		} else if (r->effect == LF_ALLOW) {
			/* Claude deletes through Bash; an Edit allow would
			 * also allow writing. Leaving it out only makes
			 * Claude ask more than the kernel requires. */
			ret = note_add(x->notes,
				       "%s:%u:%u: allow delete \"%s\": Claude Code has no deletion "
				       "rule and Edit would also allow writes; not exported",
				       src_file(&r->source), r->source.line, r->source.column, pat);
		} else {
			ret = note_add(x->notes,
				       "%s:%u:%u: %s delete \"%s\": exported as an Edit %s rule, "
				       "which in Claude Code also covers writes",
				       src_file(&r->source), r->source.line, r->source.column,
				       lf_effect_name(r->effect), pat, lf_effect_name(r->effect));
			if (ret == 0)
				ret = export_pattern(x, "Edit", r->effect, pat);
		}
		if (ret < 0)
			return ret;
	}
	return 0;
}

static int export_cmd(struct exp *x, const struct lf_cmd_rule *c)
{
	char buf[4200];
	const char *why = NULL;

	switch (c->matcher) {
	case LF_MATCH_EXACT:
		if (strchr(c->text, '*'))
			why = "a \"*\" in an exact command is a wildcard in Claude Code";
		snprintf(buf, sizeof(buf), "Bash(%s)", c->text);
		break;
	case LF_MATCH_PREFIX:
		if (strchr(c->text, '*'))
			why = "a \"*\" in a prefix is a wildcard in Claude Code";
		snprintf(buf, sizeof(buf), "Bash(%s *)", c->text);
		break;
	case LF_MATCH_GLOB:
	default:
		if (!strchr(c->text, '*'))
			why = "a glob without \"*\" is an exact command in Claude Code";
		else if (strpbrk(c->text, "?[\\"))
			why = "\"?\", \"[\" and \"\\\" are literal in Claude Code";
		snprintf(buf, sizeof(buf), "Bash(%s)", c->text);
		break;
	}
	if (why && c->effect == LF_ALLOW)
		return note_add(x->notes, "%s:%u:%u: allow \"%s\": %s; not exported",
				src_file(&c->source), c->source.line, c->source.column, c->text,
				why);
	if (why) {
		/* A wider deny or ask only makes Claude stricter. */
		int r = note_add(x->notes, "%s:%u:%u: %s \"%s\": %s; exported as %s",
				 src_file(&c->source), c->source.line, c->source.column,
				 lf_effect_name(c->effect), c->text, why, buf);
		if (r < 0)
			return r;
	}
	return list_add(x, c->effect, buf);
}

int lf_claude_export(const struct lf_effective *eff, char **out, struct lf_strv *notes)
{
	return lf_claude_export_plan(eff, NULL, out, notes);
}

int lf_claude_export_plan(const struct lf_effective *eff, const struct lf_plan *plan, char **out,
			  struct lf_strv *notes)
{
	struct exp x = { .notes = notes };
	json_t *root = NULL, *perm = NULL;
	const struct lf_dropped **drops = NULL;
	enum lf_effect bash = LF_ALLOW;
	bool any_bash = false, bash_lets_through = false;
	int r;

	if (!eff || !out)
		return -EINVAL;
	if (plan && (r = plan_drops(eff, plan, &drops)) < 0)
		return r;
	r = -ENOMEM;
	for (int e = 0; e < 3; e++)
		if (!(x.lists[e] = json_array()))
			goto out;
	for (size_t i = 0, at = 0; i < eff->nrules; at += eff->rules[i]->nglobs, i++) {
		const struct lf_rule *rule = eff->rules[i];
		if (rule->cap != LF_CAP_BASH) {
			if ((r = export_file_rule(&x, eff, rule, plan, drops ? drops + at : NULL)) <
			    0)
				goto out;
			continue;
		}
		if (!any_bash || rule->effect > bash)
			bash = rule->effect;
		any_bash = true;
		for (size_t j = 0; j < rule->ncmds; j++) {
			if (rule->cmds[j].effect != LF_DENY)
				bash_lets_through = true;
			if ((r = export_cmd(&x, &rule->cmds[j])) < 0)
				goto out;
		}
	}
	r = -ENOMEM;

	lf_posture fb = eff->fallback;
	if (any_bash && bash != fb) {
		/* What unmatched commands get. Claude gives them the mode's
		 * answer unless a bare "Bash" rule says otherwise, and a bare
		 * ask or deny there beats every command allow. */
		if (bash == LF_ALLOW) {
			if (list_add(&x, LF_ALLOW, "Bash") < 0)
				goto out;
		} else if (!bash_lets_through) {
			if (list_add(&x, bash, "Bash") < 0)
				goto out;
		} else if (note_add(notes,
				    "bash rules: unmatched commands get %s, but Claude Code cannot "
				    "say so without overriding the command allows; it answers them "
				    "with its mode instead (%s)",
				    lf_effect_name(bash), lf_effect_name(fb)) < 0) {
			goto out;
		}
	}
	if (fb == LF_ASK) {
		bool reads_all = false;
		for (size_t i = 0; i < eff->nrules; i++) {
			const struct lf_rule *rule = eff->rules[i];
			for (size_t j = 0; rule->cap == LF_CAP_READ && rule->effect == LF_ALLOW &&
					   j < rule->nglobs;
			     j++)
				if (strcmp(rule->globs[j].pattern, "**") == 0 &&
				    !dropped_at(eff, drops, i, j))
					reads_all = true;
		}
		if (!reads_all &&
		    note_add(notes, "fallback ask: Claude Code's default mode reads project files "
				    "without asking, while this policy asks for reads no rule "
				    "allows") < 0)
			goto out;
	}
	for (size_t i = 0; i < eff->nlayers; i++) {
		const struct lf_policy *p = eff->layers[i];
		if ((p->host_read.n || p->host_write.n || p->profiles.n || p->env_unset.n ||
		     p->env_keep.n) &&
		    note_add(notes,
			     "%s: host grants, profiles and the environment scrub are kernel-side "
			     "only; Claude Code settings have no place for them",
			     p->file) < 0)
			goto out;
	}

	const char *mode = fb == LF_ALLOW  ? "bypassPermissions"
			   : fb == LF_DENY ? "dontAsk"
					   : "default";
	root = json_object();
	perm = json_object();
	if (!root || !perm)
		goto out;
	if (json_object_set(perm, "allow", x.lists[LF_ALLOW]) < 0 ||
	    json_object_set(perm, "ask", x.lists[LF_ASK]) < 0 ||
	    json_object_set(perm, "deny", x.lists[LF_DENY]) < 0 ||
	    json_object_set_new(perm, "defaultMode", json_string(mode)) < 0)
		goto out;
	if (json_object_set(root, "permissions", perm) < 0)
		goto out;
	r = lf_json_dump(root, out);
out:
	json_decref(perm);
	json_decref(root);
	for (int e = 0; e < 3; e++)
		json_decref(x.lists[e]);
	free(drops);
	return r;
}
