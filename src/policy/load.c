/* SPDX-License-Identifier: MIT */
/*
 * Policy files, version 1 (SPEC §4). Every problem is an error with the
 * place it was written: a typo must never silently weaken a policy.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/model.h"
#include "core/tables.h"
#include "core/toolchains.h"
#include "policy/jpos.h"
#include "policy/policy.h"

struct ctx {
	const char *file;
	struct lf_policy *p;
	struct lf_diag *diag;
};

#define AT(pos) (pos)->line, (pos)->column

static int err_at(struct ctx *c, unsigned line, unsigned column, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int err_at(struct ctx *c, unsigned line, unsigned column, const char *fmt, ...)
{
	char msg[sizeof(c->diag->message)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return lf_diag_set(c->diag, c->file, line, column, "%s", msg);
}

/* A string value without NUL bytes. name says what it is in messages. */
static int get_string(struct ctx *c, const json_t *v, const struct lf_jpos *pos, const char *name,
		      const char **s, size_t *len)
{
	*s = "";
	*len = 0;
	if (!json_is_string(v))
		return err_at(c, AT(pos), "%s is %s, expected a string", name,
			      lf_json_type_name(v));
	*s = json_string_value(v);
	*len = json_string_length(v);
	if (strlen(*s) != *len) {
		char q[96];
		lf_quote(q, sizeof(q), *s, *len);
		return err_at(c, AT(pos),
			      "%s %s contains a NUL byte, expected text without \\u0000", name, q);
	}
	return 0;
}

int lf_effect_parse(const char *s, enum lf_effect *out)
{
	static const char *const names[] = { "allow", "ask", "deny" };

	for (unsigned i = 0; i < 3; i++)
		if (strcmp(s, names[i]) == 0) {
			*out = (enum lf_effect)i;
			return 0;
		}
	return -EINVAL;
}

int lf_capability_parse(const char *s, enum lf_capability *out)
{
	static const char *const names[] = { "read", "write", "delete", "bash" };

	for (unsigned i = 0; i < LF_CAP_COUNT; i++)
		if (strcmp(s, names[i]) == 0) {
			*out = (enum lf_capability)i;
			return 0;
		}
	return -EINVAL;
}

/* "effect" or "fallback": allow, ask or deny. */
static int get_effect(struct ctx *c, const json_t *v, const struct lf_jpos *pos, const char *key,
		      enum lf_effect *out)
{
	const char *s;
	size_t len;
	char q[96], name[32];
	int r;

	snprintf(name, sizeof(name), "\"%s\"", key);
	if (!json_is_string(v))
		return err_at(c, AT(pos),
			      "%s is %s, expected the string \"allow\", \"ask\" or \"deny\"", name,
			      lf_json_type_name(v));
	if ((r = get_string(c, v, pos, name, &s, &len)) < 0)
		return r;
	if (lf_effect_parse(s, out) < 0) {
		lf_quote(q, sizeof(q), s, len);
		return err_at(c, AT(pos), "unknown %s %s, expected allow, ask or deny", key, q);
	}
	return 0;
}

/* Checks that v is an array; the caller walks it. */
static int get_array(struct ctx *c, const json_t *v, const struct lf_jpos *pos, const char *key)
{
	if (!json_is_array(v))
		return err_at(c, AT(pos), "\"%s\" is %s, expected an array", key,
			      lf_json_type_name(v));
	return 0;
}

static int get_object(struct ctx *c, const json_t *v, const struct lf_jpos *pos, const char *what)
{
	if (!json_is_object(v))
		return err_at(c, AT(pos), "%s is %s, expected an object", what,
			      lf_json_type_name(v));
	return 0;
}

/* One member of an object being walked: its key, value and positions. */
struct member {
	const char *key;
	json_t *value;
	const struct lf_jpos_kid *kid;
};

/* Collects the members of obj into m[] by name (names[] ends with NULL);
 * an unknown key is an error that lists the expected ones. */
static int get_members(struct ctx *c, json_t *obj, const struct lf_jpos *pos,
		       const char *const *names, struct member *m, const char *where,
		       const char *expected)
{
	const char *key;
	json_t *value;
	size_t i = 0;

	json_object_foreach(obj, key, value)
	{
		const struct lf_jpos_kid *kid = lf_jpos_kid(pos, i++);
		size_t j;

		if (!kid)
			return err_at(c, AT(pos), "internal error: cannot locate key");
		for (j = 0; names[j]; j++)
			if (strcmp(key, names[j]) == 0)
				break;
		if (!names[j]) {
			char q[96];
			lf_quote(q, sizeof(q), key, strlen(key));
			return err_at(c, kid->key_line, kid->key_column,
				      "unknown key %s %s, expected %s", q, where, expected);
		}
		m[j].key = names[j];
		m[j].value = value;
		m[j].kid = kid;
	}
	return 0;
}

static const struct lf_jpos *kid_pos(const struct lf_jpos *pos, size_t i)
{
	const struct lf_jpos_kid *k = lf_jpos_kid(pos, i);
	return k ? &k->value : pos;
}

static int check_profile(struct ctx *c, const char *s, size_t len, const struct lf_jpos *pos);

/* A list of strings into sv; check() validates each (NULL: any). */
static int get_strv(struct ctx *c, const struct member *m, const char *key, struct lf_strv *sv,
		    int (*check)(struct ctx *, const char *, size_t, const struct lf_jpos *))
{
	const struct lf_jpos *apos = &m->kid->value;
	json_t *e;
	size_t i;
	int r;

	if ((r = get_array(c, m->value, apos, key)) < 0)
		return r;
	json_array_foreach(m->value, i, e)
	{
		const struct lf_jpos *epos = kid_pos(apos, i);
		const char *s;
		size_t len;
		char name[64], names[128];

		snprintf(name, sizeof(name), "%s[%zu]", key, i);
		if (!json_is_string(e) && check == check_profile) {
			/* An enum-valued list: say the values it takes. */
			lf_profile_list(names, sizeof(names), true);
			return err_at(c, AT(epos), "%s is %s, expected the string %s", name,
				      lf_json_type_name(e), names);
		}
		if ((r = get_string(c, e, epos, name, &s, &len)) < 0)
			return r;
		if (check && (r = check(c, s, len, epos)) < 0)
			return r;
		if ((r = lf_strv_push(sv, s)) < 0)
			return r;
	}
	return 0;
}

static int check_host_path(struct ctx *c, const char *s, size_t len, const struct lf_jpos *pos)
{
	char q[96];

	if (s[0] == '/' || strncmp(s, "~/", 2) == 0)
		return 0;
	lf_quote(q, sizeof(q), s, len);
	return err_at(c, AT(pos),
		      "host path %s is relative, expected an absolute path or one "
		      "starting with ~/",
		      q);
}

static int check_profile(struct ctx *c, const char *s, size_t len, const struct lf_jpos *pos)
{
	char q[96], names[128];

	if (lf_profile_known(s))
		return 0;
	lf_quote(q, sizeof(q), s, len);
	lf_profile_list(names, sizeof(names), false);
	return err_at(c, AT(pos),
		      "unknown profile %s, expected an agent profile landfence knows (%s)", q,
		      names);
}

bool lf_env_name_valid(const char *s)
{
	if (!s[0] || (s[0] >= '0' && s[0] <= '9'))
		return false;
	for (const char *p = s; *p; p++)
		if (!((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') ||
		      (*p >= '0' && *p <= '9') || *p == '_'))
			return false;
	return true;
}

static int check_env_name(struct ctx *c, const char *s, size_t len, const struct lf_jpos *pos)
{
	char q[96];

	if (lf_env_name_valid(s))
		return 0;
	lf_quote(q, sizeof(q), s, len);
	return err_at(c, AT(pos),
		      "invalid environment variable name %s, expected letters, digits "
		      "and _, not starting with a digit",
		      q);
}

/* "protect": {"add": [...]}: a literal place, project-relative or below
 * the home directory; no glob (a protection is a place that exists or
 * will, not a pattern), no "..", nothing absolute. */
static int check_protect_add(struct ctx *c, const char *s, size_t len, const struct lf_jpos *pos)
{
	const char *rel = strncmp(s, "~/", 2) == 0 ? s + 2 : s;
	char q[96];
	bool bad = !rel[0] || rel[0] == '/' || strpbrk(rel, "*?[\\") != NULL;

	for (const char *p = rel; !bad && *p;) {
		size_t n = strcspn(p, "/");
		bad = (n == 2 && p[0] == '.' && p[1] == '.') || (n == 1 && p[0] == '.');
		p += n + (p[n] == '/');
	}
	if (!bad)
		return 0;
	lf_quote(q, sizeof(q), s, len);
	return err_at(c, AT(pos),
		      "protection %s is not a plain path, expected a project-relative path "
		      "or one starting with ~/, without globs, \".\" or \"..\" "
		      "(e.g. \".tool/hooks\")",
		      q);
}

/* "protect": {"lift": [...]}: a row of the built-in table, by the name
 * `landfence plan` shows, so that a typo never lifts nothing silently. */
static int check_protect_lift(struct ctx *c, const char *s, size_t len, const struct lf_jpos *pos)
{
	char q[96];

	if (lf_protect_row_known(s))
		return 0;
	lf_quote(q, sizeof(q), s, len);
	return err_at(c, AT(pos),
		      "unknown protection %s, expected a built-in protection as `landfence plan` "
		      "names it (e.g. \".git/config\", \".vscode/settings.json\", "
		      "\"~/.codex/config.toml\")",
		      q);
}

static int parse_commands(struct ctx *c, const struct member *m, enum lf_effect effect,
			  struct lf_source src)
{
	static const char *const names[] = { "effect", "exact", "prefix", "glob", NULL };
	const struct lf_jpos *apos;
	struct lf_cmd_rule *cmds = NULL;
	size_t n = 0, i;
	json_t *e;
	int r = 0;

	if (m->value) {
		apos = &m->kid->value;
		if ((r = get_array(c, m->value, apos, "commands")) < 0)
			return r;
		cmds = calloc(json_array_size(m->value) + 1, sizeof(*cmds));
		if (!cmds)
			return -ENOMEM;
		json_array_foreach(m->value, i, e)
		{
			const struct lf_jpos *epos = kid_pos(apos, i);
			struct member cm[5] = { 0 };
			const struct member *matcher = NULL;
			enum lf_matcher kind = LF_MATCH_EXACT;
			enum lf_effect ce;
			char what[64];
			const char *text;
			size_t len;

			snprintf(what, sizeof(what), "commands[%zu]", i);
			if ((r = get_object(c, e, epos, what)) < 0 ||
			    (r = get_members(c, e, epos, names, cm, "in a command rule",
					     "effect and one of exact, prefix, glob")) < 0)
				goto fail;
			for (unsigned k = 1; k <= 3; k++) {
				if (!cm[k].value)
					continue;
				if (matcher) {
					/* Point at whichever comes second. */
					const struct member *second = &cm[k];
					if (matcher->kid->key_line > second->kid->key_line ||
					    (matcher->kid->key_line == second->kid->key_line &&
					     matcher->kid->key_column > second->kid->key_column))
						second = matcher;
					r = err_at(
						c, second->kid->key_line, second->kid->key_column,
						"command rule has both \"%s\" and \"%s\", expected "
						"exactly one of exact, prefix, glob",
						matcher->key, cm[k].key);
					goto fail;
				}
				matcher = &cm[k];
				kind = (enum lf_matcher)(k - 1);
			}
			if (!cm[0].value) {
				r = err_at(c, AT(epos),
					   "command rule has no \"effect\", expected "
					   "allow, ask or deny");
				goto fail;
			}
			if ((r = get_effect(c, cm[0].value, &cm[0].kid->value, "effect", &ce)) < 0)
				goto fail;
			if (!matcher) {
				r = err_at(c, AT(epos),
					   "command rule has no matcher, expected one "
					   "of exact, prefix, glob");
				goto fail;
			}
			snprintf(what, sizeof(what), "\"%s\"", matcher->key);
			if (!json_is_string(matcher->value)) {
				r = err_at(c, AT(&matcher->kid->value),
					   "%s is %s, expected a command in a string, such as "
					   "\"git status\"",
					   what, lf_json_type_name(matcher->value));
				goto fail;
			}
			if ((r = get_string(c, matcher->value, &matcher->kid->value, what, &text,
					    &len)) < 0)
				goto fail;
			struct lf_source csrc = { c->p->file, epos->line, epos->column };
			r = lf_cmd_rule_init(&cmds[n], kind, text, ce, csrc, c->diag);
			if (r < 0) {
				if (r == -EINVAL) {
					char msg[sizeof(c->diag->message)];
					memcpy(msg, c->diag->message, sizeof(msg));
					r = err_at(c, AT(&matcher->kid->value), "%s", msg);
				}
				goto fail;
			}
			n++;
		}
	}
	/* The array itself passes to the policy, on failure too. */
	return lf_policy_add_bash_rule(c->p, effect, cmds, n, src);
fail:
	for (i = 0; i < n; i++)
		lf_cmd_rule_fini(&cmds[i]);
	free(cmds);
	return r;
}

static int parse_paths(struct ctx *c, const struct member *m, enum lf_capability cap,
		       enum lf_effect effect, struct lf_source src)
{
	const struct lf_jpos *apos = &m->kid->value;
	struct lf_glob *globs;
	size_t n = 0, i;
	json_t *e;
	int r;

	if ((r = get_array(c, m->value, apos, "paths")) < 0)
		return r;
	if (json_array_size(m->value) == 0)
		return err_at(c, AT(apos), "\"paths\" is empty, expected at least one pattern");
	globs = calloc(json_array_size(m->value), sizeof(*globs));
	if (!globs)
		return -ENOMEM;
	json_array_foreach(m->value, i, e)
	{
		const struct lf_jpos *epos = kid_pos(apos, i);
		const char *s;
		size_t len;
		char name[64];

		snprintf(name, sizeof(name), "paths[%zu]", i);
		if (!json_is_string(e)) {
			r = err_at(c, AT(epos), "%s is %s, expected a string", name,
				   lf_json_type_name(e));
			goto fail;
		}
		s = json_string_value(e);
		len = json_string_length(e);
		r = lf_glob_init(&globs[n], s, len, c->diag);
		if (r < 0) {
			if (r == -EINVAL) {
				char msg[sizeof(c->diag->message)];
				memcpy(msg, c->diag->message, sizeof(msg));
				r = err_at(c, AT(epos), "%s", msg);
			}
			goto fail;
		}
		globs[n].line = epos->line;
		globs[n].column = epos->column;
		n++;
	}
	/* The array and its globs pass to the policy, on failure too. */
	r = lf_policy_add_file_rule(c->p, cap, effect, globs, n, src, c->diag);
	if (r == -EINVAL) {
		char msg[sizeof(c->diag->message)];
		memcpy(msg, c->diag->message, sizeof(msg));
		r = err_at(c, src.line, src.column, "%s", msg);
	}
	return r;
fail:
	for (i = 0; i < n; i++)
		lf_glob_fini(&globs[i]);
	free(globs);
	return r;
}

static int parse_rule(struct ctx *c, json_t *v, const struct lf_jpos *pos, size_t index)
{
	static const char *const names[] = { "effect", "capability", "paths", "commands", NULL };
	struct member m[5] = { 0 };
	enum lf_effect effect;
	enum lf_capability cap;
	const char *s;
	size_t len;
	char what[64], q[96];
	int r;

	snprintf(what, sizeof(what), "rules[%zu]", index);
	if ((r = get_object(c, v, pos, what)) < 0 ||
	    (r = get_members(c, v, pos, names, m, "in a rule",
			     "effect, capability, and paths or commands")) < 0)
		return r;
	if (!m[0].value)
		return err_at(c, AT(pos), "rule has no \"effect\", expected allow, ask or deny");
	if ((r = get_effect(c, m[0].value, &m[0].kid->value, "effect", &effect)) < 0)
		return r;
	if (!m[1].value)
		return err_at(c, AT(pos),
			      "rule has no \"capability\", expected read, write, "
			      "delete or bash");
	if (!json_is_string(m[1].value))
		return err_at(c, AT(&m[1].kid->value),
			      "\"capability\" is %s, expected the string \"read\", \"write\", "
			      "\"delete\" or \"bash\"",
			      lf_json_type_name(m[1].value));
	if ((r = get_string(c, m[1].value, &m[1].kid->value, "\"capability\"", &s, &len)) < 0)
		return r;
	if (lf_capability_parse(s, &cap) < 0) {
		lf_quote(q, sizeof(q), s, len);
		return err_at(c, AT(&m[1].kid->value),
			      "unknown capability %s, expected read, "
			      "write, delete or bash",
			      q);
	}

	struct lf_source src = { c->p->file, pos->line, pos->column };
	/* m[i].kid is set whenever m[i].value is (the position scanner
	 * records every key it meets); the analyser cannot follow that. */
	/* NOLINTBEGIN(clang-analyzer-core.CallAndMessage) */
	if (cap == LF_CAP_BASH) {
		if (m[2].value)
			return err_at(
				c, m[2].kid->key_line, m[2].kid->key_column,
				"a bash rule has \"paths\", expected \"commands\" (or neither)");
		return parse_commands(c, &m[3], effect, src);
	}
	if (m[3].value)
		return err_at(c, m[3].kid->key_line, m[3].kid->key_column,
			      "a %s rule has \"commands\", expected \"paths\"",
			      lf_capability_name(cap));
	if (!m[2].value)
		return err_at(c, AT(pos), "a %s rule has no \"paths\", expected a list of patterns",
			      lf_capability_name(cap));
	return parse_paths(c, &m[2], cap, effect, src);
	/* NOLINTEND(clang-analyzer-core.CallAndMessage) */
}

static int parse_extends(struct ctx *c, const struct member *m)
{
	const char *s;
	size_t len;
	char q[96];
	int r;

	if (!json_is_string(m->value))
		return err_at(c, AT(&m->kid->value),
			      "\"extends\" is %s, expected the string \"default\"",
			      lf_json_type_name(m->value));
	if ((r = get_string(c, m->value, &m->kid->value, "\"extends\"", &s, &len)) < 0)
		return r;
	if (strcmp(s, "default") != 0) {
		lf_quote(q, sizeof(q), s, len);
		return err_at(c, AT(&m->kid->value),
			      "unknown base %s for \"extends\", expected \"default\" (the embedded "
			      "default policy)",
			      q);
	}
	c->p->extends_default = true;
	return 0;
}

static int check_toolchain(struct ctx *c, const char *s, size_t len, const struct lf_jpos *pos)
{
	char q[96], names[512];

	if (lf_toolchain_find(s))
		return 0;
	lf_quote(q, sizeof(q), s, len);
	lf_toolchain_list(names, sizeof(names));
	return err_at(c, AT(pos), "unknown toolchain %s, expected one landfence knows (%s)", q,
		      names);
}

/* "toolchains": {"discover": true|false, "except": [names]}. */
static int parse_toolchains(struct ctx *c, const struct member *m)
{
	static const char *const names[] = { "discover", "except", NULL };
	struct member tm[3] = { 0 };
	const struct lf_jpos *pos = &m->kid->value;
	int r;

	if ((r = get_object(c, m->value, pos, "\"toolchains\"")) < 0 ||
	    (r = get_members(c, m->value, pos, names, tm, "in toolchains", "discover or except")) <
		    0)
		return r;
	if (tm[0].value) {
		if (!json_is_boolean(tm[0].value))
			return err_at(c, AT(&tm[0].kid->value),
				      "\"discover\" is %s, expected true or false",
				      lf_json_type_name(tm[0].value));
		c->p->has_discover = true;
		c->p->discover = json_is_true(tm[0].value);
	}
	if (tm[1].value &&
	    (r = get_strv(c, &tm[1], "except", &c->p->toolchains_except, check_toolchain)) < 0)
		return r;
	return 0;
}

/* One list of ports of "network". */
static int get_ports(struct ctx *c, const struct member *m, const char *key, unsigned lowest,
		     struct lf_ports *out)
{
	const struct lf_jpos *apos = &m->kid->value;
	json_t *e;
	size_t i;
	int r;

	if ((r = get_array(c, m->value, apos, key)) < 0)
		return r;
	json_array_foreach(m->value, i, e)
	{
		const struct lf_jpos *epos = kid_pos(apos, i);

		if (!json_is_integer(e))
			return err_at(c, AT(epos), "%s[%zu] is %s, expected a TCP port number", key,
				      i, lf_json_type_name(e));
		json_int_t v = json_integer_value(e);
		if (v < (json_int_t)lowest || v > 65535)
			return err_at(c, AT(epos),
				      "%s[%zu] is %lld, expected a TCP port from %u to 65535", key,
				      i, (long long)v, lowest);
		if ((r = lf_ports_add(out, (unsigned short)v)) < 0)
			return r;
	}
	return 0;
}

/* "network": {"connect": [ports], "bind": [ports]}: TCP restricted. */
static int parse_network(struct ctx *c, const struct member *m)
{
	static const char *const names[] = { "connect", "bind", NULL };
	struct member nm[3] = { 0 };
	const struct lf_jpos *pos = &m->kid->value;
	int r;

	if ((r = get_object(c, m->value, pos, "\"network\"")) < 0 ||
	    (r = get_members(c, m->value, pos, names, nm, "in network", "connect or bind")) < 0)
		return r;
	c->p->has_network = true;
	/* Port 0 only makes sense for bind: the kernel picks a free port. */
	if (nm[0].value && (r = get_ports(c, &nm[0], "connect", 1, &c->p->net_connect)) < 0)
		return r;
	if (nm[1].value && (r = get_ports(c, &nm[1], "bind", 0, &c->p->net_bind)) < 0)
		return r;
	return 0;
}

/* The top-level keys, in the order of the format's documentation. */
enum {
	TOP_VERSION,
	TOP_EXTENDS,
	TOP_FALLBACK,
	TOP_RULES,
	TOP_HOST,
	TOP_PROFILES,
	TOP_TOOLCHAINS,
	TOP_NETWORK,
	TOP_ENV,
	TOP_PROTECT,
	TOP_COUNT,
};

static int parse_top(struct ctx *c, json_t *root, const struct lf_jpos *pos)
{
	static const char *const names[TOP_COUNT + 1] = {
		[TOP_VERSION] = "version",
		[TOP_EXTENDS] = "extends",
		[TOP_FALLBACK] = "fallback",
		[TOP_RULES] = "rules",
		[TOP_HOST] = "host",
		[TOP_PROFILES] = "profiles",
		[TOP_TOOLCHAINS] = "toolchains",
		[TOP_NETWORK] = "network",
		[TOP_ENV] = "env",
		[TOP_PROTECT] = "protect",
		[TOP_COUNT] = NULL,
	};
	struct member m[TOP_COUNT] = { 0 };
	json_t *e;
	size_t i;
	int r;

	if ((r = get_object(c, root, pos, "the document")) < 0 ||
	    (r = get_members(c, root, pos, names, m, "at the top level",
			     "version, extends, fallback, rules, host, profiles, toolchains, "
			     "network, env or protect")) < 0)
		return r;

	/* The version says how to read everything else: check it first. */
	const struct member *v = &m[TOP_VERSION];
	if (!v->value)
		return err_at(c, AT(pos), "no \"version\", expected \"version\": 1");
	if (!json_is_integer(v->value))
		return err_at(c, AT(&v->kid->value), "\"version\" is %s, expected the integer 1",
			      lf_json_type_name(v->value));
	if (json_integer_value(v->value) != 1)
		return err_at(c, AT(&v->kid->value), "unsupported version %lld, expected 1",
			      (long long)json_integer_value(v->value));

	if (m[TOP_EXTENDS].value && (r = parse_extends(c, &m[TOP_EXTENDS])) < 0)
		return r;
	const struct member *fb = &m[TOP_FALLBACK];
	if (fb->value) {
		if ((r = get_effect(c, fb->value, &fb->kid->value, "fallback", &c->p->fallback)) <
		    0)
			return r;
		c->p->has_fallback = true;
	}
	const struct member *ru = &m[TOP_RULES];
	if (ru->value) {
		const struct lf_jpos *apos = &ru->kid->value;
		if ((r = get_array(c, ru->value, apos, "rules")) < 0)
			return r;
		json_array_foreach(ru->value, i, e)
		{
			if ((r = parse_rule(c, e, kid_pos(apos, i), i)) < 0)
				return r;
		}
	}
	const struct member *ho = &m[TOP_HOST];
	if (ho->value) {
		static const char *const hn[] = { "read", "write", NULL };
		struct member hm[3] = { 0 };
		const struct lf_jpos *hpos = &ho->kid->value;
		if ((r = get_object(c, ho->value, hpos, "\"host\"")) < 0 ||
		    (r = get_members(c, ho->value, hpos, hn, hm, "in host", "read or write")) < 0)
			return r;
		if (hm[0].value &&
		    (r = get_strv(c, &hm[0], "read", &c->p->host_read, check_host_path)) < 0)
			return r;
		if (hm[1].value &&
		    (r = get_strv(c, &hm[1], "write", &c->p->host_write, check_host_path)) < 0)
			return r;
	}
	if (m[TOP_PROFILES].value &&
	    (r = get_strv(c, &m[TOP_PROFILES], "profiles", &c->p->profiles, check_profile)) < 0)
		return r;
	if (m[TOP_TOOLCHAINS].value && (r = parse_toolchains(c, &m[TOP_TOOLCHAINS])) < 0)
		return r;
	if (m[TOP_NETWORK].value && (r = parse_network(c, &m[TOP_NETWORK])) < 0)
		return r;
	const struct member *en = &m[TOP_ENV];
	if (en->value) {
		static const char *const enames[] = { "unset", "keep", NULL };
		struct member em[3] = { 0 };
		const struct lf_jpos *epos = &en->kid->value;
		if ((r = get_object(c, en->value, epos, "\"env\"")) < 0 ||
		    (r = get_members(c, en->value, epos, enames, em, "in env", "unset or keep")) <
			    0)
			return r;
		if (em[0].value &&
		    (r = get_strv(c, &em[0], "unset", &c->p->env_unset, check_env_name)) < 0)
			return r;
		if (em[1].value &&
		    (r = get_strv(c, &em[1], "keep", &c->p->env_keep, check_env_name)) < 0)
			return r;
	}
	if (m[TOP_PROTECT].value) {
		static const char *const pn[] = { "add", "lift", NULL };
		struct member pm[3] = { 0 };
		const struct lf_jpos *ppos = &m[TOP_PROTECT].kid->value;
		if ((r = get_object(c, m[TOP_PROTECT].value, ppos, "\"protect\"")) < 0 ||
		    (r = get_members(c, m[TOP_PROTECT].value, ppos, pn, pm, "in protect",
				     "add or lift")) < 0)
			return r;
		if (pm[0].value &&
		    (r = get_strv(c, &pm[0], "add", &c->p->protect_add, check_protect_add)) < 0)
			return r;
		if (pm[1].value &&
		    (r = get_strv(c, &pm[1], "lift", &c->p->protect_lift, check_protect_lift)) < 0)
			return r;
	}
	return 0;
}

int lf_policy_parse(const char *text, size_t len, const char *filename, enum lf_layer layer,
		    struct lf_policy **out, struct lf_diag *diag)
{
	struct lf_diag scratch;
	struct lf_jdoc doc = { 0 };
	struct lf_policy *p = NULL;
	int r;

	if (!diag)
		diag = &scratch;
	memset(diag, 0, sizeof(*diag));
	if (!text || !filename || !out)
		return lf_diag_set(diag, filename ? filename : "", 0, 0, "invalid arguments");
	if ((r = lf_jdoc_parse(&doc, text, len, filename, diag)) < 0)
		return r;
	if ((r = lf_policy_new(filename, layer, &p)) < 0)
		goto out;
	struct ctx c = { p->file, p, diag };
	r = parse_top(&c, doc.root, &doc.pos);
	if (r < 0) {
		lf_policy_free(p);
		goto out;
	}
	*out = p;
out:
	lf_jdoc_fini(&doc);
	return r;
}

int lf_fd_read(int fd, size_t hint, size_t max, char **text, size_t *len)
{
	size_t n = 0, cap = hint ? hint : 4096;
	char *buf;

	if (cap > max + 1)
		cap = max + 1;
	buf = malloc(cap + 1);
	if (!buf)
		return -ENOMEM;
	for (;;) {
		if (n == cap) {
			if (cap > max) {
				free(buf);
				return -EFBIG;
			}
			size_t ncap = cap * 2 > max + 1 ? max + 1 : cap * 2;
			char *nb = realloc(buf, ncap + 1);
			if (!nb) {
				free(buf);
				return -ENOMEM;
			}
			buf = nb;
			cap = ncap;
		}
		ssize_t got = read(fd, buf + n, cap - n);
		if (got < 0) {
			if (errno == EINTR)
				continue;
			int e = errno;
			free(buf);
			return -e;
		}
		if (got == 0)
			break;
		n += (size_t)got;
	}
	if (n > max) {
		free(buf);
		return -EFBIG;
	}
	buf[n] = '\0';
	*text = buf;
	*len = n;
	return 0;
}

int lf_fd_write(int fd, const void *buf, size_t n)
{
	const char *p = buf;

	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			if (w == 0)
				errno = EIO;
			return -1;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

int lf_file_read_at(int dirfd, const char *path, unsigned flags, size_t max, char **text,
		    size_t *len)
{
	bool strict = flags & LF_FILE_STRICT;
	struct stat st;
	int fd, r;

	fd = openat(dirfd, path,
		    O_RDONLY | O_CLOEXEC | O_NOCTTY | (strict ? O_NOFOLLOW | O_NONBLOCK : 0));
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0)
		r = -errno;
	else if (strict && !S_ISREG(st.st_mode))
		r = -EINVAL;
	else if (S_ISDIR(st.st_mode))
		r = -EISDIR;
	else
		r = lf_fd_read(fd,
			       S_ISREG(st.st_mode) && st.st_size > 0 ? (size_t)st.st_size + 1 : 0,
			       max, text, len);
	close(fd);
	return r;
}

int lf_file_read(const char *path, size_t max, char **text, size_t *len)
{
	return lf_file_read_at(AT_FDCWD, path, 0, max, text, len);
}

int lf_policy_load(const char *path, enum lf_layer layer, struct lf_policy **out,
		   struct lf_diag *diag)
{
	struct lf_diag scratch;
	char *text = NULL;
	size_t len = 0;
	int r;

	if (!diag)
		diag = &scratch;
	memset(diag, 0, sizeof(*diag));
	if (!path || !out)
		return lf_diag_set(diag, path ? path : "", 0, 0, "invalid arguments");
	r = lf_file_read(path, LF_POLICY_MAX_SIZE, &text, &len);
	if (r < 0) {
		lf_diag_set(diag, path, 0, 0, "cannot read the policy: %s",
			    r == -EFBIG ? "larger than " LF_POLICY_MAX_SIZE_TEXT
					  ", expected a policy of at most " LF_POLICY_MAX_SIZE_TEXT
					: strerror(-r));
		return r;
	}
	r = lf_policy_parse(text, len, path, layer, out, diag);
	free(text);
	return r;
}
