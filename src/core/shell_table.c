/* SPDX-License-Identifier: MIT */
/*
 * The table of programs and builtins: what a command does beyond being
 * run. Every piece of knowledge about a particular program lives in the
 * table below (its option syntax, which options and operands name files
 * and what is done to them, which run other commands or code), read by
 * one option engine; a few programs whose arguments are a language of
 * their own (find expressions, sed scripts, awk programs, git
 * subcommands, tar, dd, make, the shells) have an entry with a reader of
 * that language. Pure: no I/O. doc/shell.md describes the table.
 *
 * Option specs are strings of space-separated entries:
 *
 *   NAMES[SEP ROLE]   NAMES: -x, --long, -long (one dash, a whole word),
 *                     -# (a dash and digits, as `nice -5`), separated by |;
 *                     a name ending in * matches by prefix
 *   SEP               '=' takes an argument (attached or the next word),
 *                     '?' takes an optional argument (attached only),
 *                     '!' takes none but has an effect; no SEP: a flag
 *
 * Operand specs are strings of roles in order; a role followed by '*'
 * repeats (for as many operands as the roles after it leave).
 *
 * Roles (of an option's argument, an operand, or a '!' option):
 *   -  nothing        r  a file read     w  a file written   d  deleted
 *   m  maybe a file read (only deny or ask file rules count)
 *   t  a directory the program writes files of its choosing into
 *   T  a target directory (cp -t): written; every operand is a source
 *   C  the directory later relative paths are in (git -C, make -C)
 *   s  a shell command string   p  a program command line (run by a shell
 *      or split into words)     c  code in another language: at best ask
 *   a  something not followed here: at best ask
 *   x  the rest is a command     X  the same, more arguments from stdin
 *   E  NAME=VALUE for the command's environment (repeats while they match)
 *   k  a script file: read, and the operands after it are its own
 *   L  a link made (ln's link name)   K  the files written are links (cp -s)
 *   N  no command follows (ionice -p PID, command -v)
 *   R  operands are only read   W  operands are written (sed -i)
 *   P  the pattern is given by an option: every operand is a file (grep -e)
 *   @  data that may name a file read: @FILE, NAME@FILE (no '=' before the
 *      '@'), NAME=@FILE or NAME=<FILE up to a ';' (curl -d, -F, -H, --json)
 *   B  a file read unless the value holds a '=' (curl -b NAME=VALUE)
 *   F  a file of patterns: read, and the pattern is given (grep -f)
 *   M  a commit or tag message: no editor opens   Q  the same, from a file
 *      read (-F FILE)   A  an editor opens unless a message is given
 *      (git tag -a)
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/shell_table.h"

/* Program flags. */
#define F_WRAP 0x01u	   /* runs the command in its operands: options stop there */
#define F_LONGANY 0x02u	   /* unknown long options are flags */
#define F_NOCLUSTER 0x04u  /* -abc is one option, not -a -b -c */
#define F_STDIN_CODE 0x08u /* without a script or code option it reads code from stdin */
#define F_ASK 0x10u	   /* at best ask (the entry's reason) */
#define F_NOPERMUTE 0x20u  /* options only before the first operand */
#define F_EQ1 0x40u	   /* Go-style flags: -name=value and --name are -name */
/* given an operand and no option naming its output, it writes files of
 * its choosing in the working directory (gcc's a.out, wget's download);
 * F_CWD_OUT_ANY: also without an operand (split) */
#define F_CWD_OUT 0x80u
#define F_CWD_OUT_ANY 0x100u

struct tc;
typedef int (*handler_fn)(struct tc *t);

struct prog {
	const char *name;
	const char *opts;
	const char *operands;
	unsigned flags;
	handler_fn handler;
	const char *reason; /* F_ASK; for wrappers: why having no command asks */
	/* files of its own configuration or build description the program
	 * reads from its directory and obeys (Makefile, package.json, .git/):
	 * space-separated, relative; one ending in / is a directory */
	const char *conf;
};

/* One run of the option engine. */
struct tc {
	struct sh_arena *a;
	const struct lf_shell_word *argv;
	size_t argc;
	struct sh_effs *out;
	const struct prog *p;
	const struct lf_shell_word *base;
	bool unsure;	    /* an unknown option: operands may not be files */
	bool no_cmd;	    /* N */
	bool read_only;	    /* R */
	bool write_ops;	    /* W */
	bool pattern_given; /* P */
	bool target_dir;    /* T */
	bool code;	    /* code was given (c, k) */
	bool ran_cmd;	    /* x or X reached */
	bool any_operand;
	bool links;   /* K: the files written are links */
	bool out_opt; /* an option naming a file or directory written */
	bool editor;  /* A: an editor opens unless a message is given (M, Q) */
};

/* The working directory, as a word: what a program writes files of its
 * choosing into when no option or operand names them. */
static const struct lf_shell_word word_here = { ".", 1, 0 };

static const char R_UNKNOWN_OPT[] = "an option of a wrapper this analysis does not know";
static const char R_CODE[] = "it runs code given in its arguments";
static const char R_UNKNOWN_CLUSTER[] =
	"an option this analysis does not know, written together with one that writes or runs";
static const char R_NOT_FOLLOWED[] = "an option whose effect this analysis does not follow";
static const char R_STDIN_CODE[] = "it reads code from standard input";
static const char R_WILD_OPT[] =
	"the shell expands a word that could become an option writing a file or running a command";
static const char R_AMBIGUOUS_OPT[] =
	"an abbreviated option that may be any of several, one of which writes or runs";
static const char R_NO_CMD_SHELL[] = "without a command it runs a shell reading standard input";

const char *sh_base_name(const char *p)
{
	const char *slash = strrchr(p, '/');
	return slash && slash[1] ? slash + 1 : p;
}

/* ------------------------------------------------------------------------
 * Effects.
 */
static struct sh_eff *eff_add(struct tc *t, enum sh_eff_kind kind)
{
	struct sh_effs *o = t->out;

	if (o->n == o->cap) {
		size_t cap = o->cap ? o->cap * 2 : 8;
		struct sh_eff *v = sh_alloc(t->a, cap * sizeof(*v));
		if (!v) {
			o->nomem = true;
			return NULL;
		}
		if (o->n)
			memcpy(v, o->v, o->n * sizeof(*v));
		o->v = v;
		o->cap = cap;
	}
	struct sh_eff *e = &o->v[o->n++];
	memset(e, 0, sizeof(*e));
	e->kind = kind;
	e->base = t->base;
	return e;
}

static void eff_file(struct tc *t, enum lf_capability cap, const struct lf_shell_word *w, bool sure,
		     bool tree)
{
	struct sh_eff *e;

	if (!w || (!w->len && !(w->flags & LF_WORD_NOT_LITERAL)))
		return;
	/* "-" is standard input or output for almost every program */
	if (w->len == 1 && w->text[0] == '-' && !(w->flags & LF_WORD_NOT_LITERAL))
		return;
	if ((e = eff_add(t, SH_EF_FILE))) {
		e->cap = cap;
		e->word = w;
		/* after an unknown option an operand may be its argument: a
		 * read stays a maybe, a write or delete is judged anyway */
		e->sure = sure && (!t->unsure || cap != LF_CAP_READ);
		e->tree = tree;
		e->link = t->links && cap == LF_CAP_WRITE;
	}
}

static void eff_reason(struct tc *t, const char *reason);

/* A file run as code (a script, source): a read; code from a pipe, from
 * standard input or from a word the shell computes is not known. */
static void eff_script(struct tc *t, const struct lf_shell_word *w)
{
	const char *s = w->text;

	if ((w->flags & LF_WORD_NOT_LITERAL) || !strcmp(s, "-") || !strcmp(s, "/dev/stdin") ||
	    !strncmp(s, "/dev/fd/", 8) || !strncmp(s, "/proc/self/fd/", 14) ||
	    !strncmp(s, "/dev/tcp/", 9) || !strncmp(s, "/dev/udp/", 9)) {
		eff_reason(t, "it runs code from standard input, a pipe or a file the shell "
			      "computes");
		return;
	}
	eff_file(t, LF_CAP_READ, w, true, false);
	if (t->out->n && t->out->v[t->out->n - 1].kind == SH_EF_FILE &&
	    t->out->v[t->out->n - 1].word == w)
		t->out->v[t->out->n - 1].code = true;
}

/* A configuration file (tree: a directory of them) the program obeys. */
static void eff_conf_word(struct tc *t, const struct lf_shell_word *w, bool tree)
{
	struct sh_eff *e = eff_add(t, SH_EF_FILE);
	if (e) {
		e->cap = LF_CAP_READ;
		e->word = w;
		e->code = true;
		e->conf = true;
		e->tree = tree;
	}
}

/* The files of conf (the entry's own configuration names) in the
 * program's directory: code it obeys. Only a write by the line itself
 * counts (decide_bash.c): the program would run what the line wrote. */
static void eff_conf(struct tc *t, const char *conf)
{
	while (conf && *conf) {
		while (*conf == ' ')
			conf++;
		size_t n = strcspn(conf, " ");
		if (!n)
			break;
		bool dir = conf[n - 1] == '/';
		struct lf_shell_word *w = sh_alloc(t->a, sizeof(*w));
		char *text = w ? sh_strndup(t->a, conf, dir ? n - 1 : n) : NULL;
		if (!text) {
			t->out->nomem = true;
			return;
		}
		w->text = text;
		w->len = dir ? n - 1 : n;
		eff_conf_word(t, w, dir);
		conf += n;
	}
}

static void eff_reason(struct tc *t, const char *reason)
{
	struct sh_eff *e = eff_add(t, SH_EF_REASON);
	if (e)
		e->reason = reason;
}

/* A reason that is about a word the shell expands. */
static void eff_wild(struct tc *t, const char *reason)
{
	struct sh_eff *e = eff_add(t, SH_EF_REASON);
	if (e) {
		e->reason = reason;
		e->weak = true;
	}
}

static void eff_cmd(struct tc *t, size_t from, size_t to, bool open)
{
	struct sh_eff *e;

	if (from >= to)
		return;
	if ((e = eff_add(t, SH_EF_CMD))) {
		e->from = from;
		e->to = to;
		e->open = open;
	}
	t->ran_cmd = true;
}

/* argv[from..to) as a command whose words holding mark (find's {}, the
 * -I string of xargs) are replaced at run time: those are unknown. */
static void eff_cmd_marked(struct tc *t, size_t from, size_t to, bool open, const char *mark)
{
	struct lf_shell_word *v;
	struct sh_eff *e;

	if (from >= to)
		return;
	v = sh_alloc(t->a, (to - from) * sizeof(*v));
	if (!v || !(e = eff_add(t, SH_EF_CMD))) {
		t->out->nomem = true;
		return;
	}
	for (size_t k = from; k < to; k++) {
		v[k - from] = t->argv[k];
		if (k > from && mark[0] && strstr(t->argv[k].text, mark))
			v[k - from].flags |= LF_WORD_EXPANSION;
	}
	e->words = v;
	e->nwords = to - from;
	e->open = open;
	t->ran_cmd = true;
}

/*
 * Without -I, xargs appends words read from standard input to the
 * command: any text, options too (`echo -oF | xargs sort` writes F,
 * `xargs env` runs whatever it reads). The last command effect gets one
 * more word the shell would expand, so the program's options, operands
 * and wrapped command are judged as for `CMD "$@"`.
 */
static void eff_cmd_stdin_args(struct tc *t)
{
	static const struct lf_shell_word in = { "${standard input}", 17, LF_WORD_EXPANSION };
	struct sh_eff *e = t->out->n ? &t->out->v[t->out->n - 1] : NULL;
	struct lf_shell_word *v;

	if (!e || e->kind != SH_EF_CMD || !e->words)
		return; /* out of memory: already reported */
	v = sh_alloc(t->a, (e->nwords + 1) * sizeof(*v));
	if (!v) {
		t->out->nomem = true;
		return;
	}
	memcpy(v, e->words, e->nwords * sizeof(*v));
	v[e->nwords] = in;
	e->words = v;
	e->nwords++;
}

/* A command of the program's own, as words (tar's compressor, the echo
 * of xargs without a command). */
static void eff_words(struct tc *t, enum sh_eff_kind kind, const char *const *words, size_t n)
{
	struct lf_shell_word *v = sh_alloc(t->a, n * sizeof(*v));
	struct sh_eff *e;

	if (!v || !(e = eff_add(t, kind))) {
		t->out->nomem = true;
		return;
	}
	for (size_t k = 0; k < n; k++)
		v[k] = (struct lf_shell_word){ words[k], strlen(words[k]), 0 };
	e->words = v;
	e->nwords = n;
}

static void eff_line(struct tc *t, const struct lf_shell_word *w, unsigned popts, const char *why)
{
	struct sh_eff *e = eff_add(t, SH_EF_LINE);
	if (e) {
		e->word = w;
		e->parse_opts = popts;
		e->reason = why;
	}
	t->ran_cmd = true;
}

static void eff_joined(struct tc *t, size_t from, size_t to, const char *why)
{
	struct sh_eff *e;

	if (from >= to)
		return;
	if ((e = eff_add(t, SH_EF_JOINED))) {
		e->from = from;
		e->to = to;
		e->reason = why;
	}
	t->ran_cmd = true;
}

/* ------------------------------------------------------------------------
 * Words.
 */
static bool literal(const struct lf_shell_word *w)
{
	return !(w->flags & LF_WORD_NOT_LITERAL);
}

static bool word_is(const struct lf_shell_word *w, const char *lit)
{
	return literal(w) && !strcmp(w->text, lit);
}

/* A word the shell expands that cannot start with '-' (its first
 * character is written literally, and is not '-'). */
static bool option_safe(const struct lf_shell_word *w)
{
	if (literal(w))
		return w->text[0] != '-';
	if (!w->len)
		return false;
	char c = w->text[0];
	return c != '-' && c != '$' && c != '`' && c != '*' && c != '?' && c != '[' && c != '{' &&
	       c != '~' && c != '<' && c != '>' && !(w->flags & LF_WORD_QUOTED && c == '\\');
}

/* A new word: text[from..] of w (the value of --opt=VALUE). */
static const struct lf_shell_word *word_tail(struct tc *t, const struct lf_shell_word *w,
					     size_t from)
{
	struct lf_shell_word *v = sh_alloc(t->a, sizeof(*v));
	if (!v) {
		t->out->nomem = true;
		return NULL;
	}
	v->text = w->text + from;
	v->len = w->len - from;
	v->flags = w->flags;
	return v;
}

static bool is_assignment_word(const struct lf_shell_word *w)
{
	const char *s = w->text;
	size_t k = 0;

	if (!w->len || (!((s[0] | 0x20) >= 'a' && (s[0] | 0x20) <= 'z') && s[0] != '_'))
		return false;
	while (k < w->len && (((s[k] | 0x20) >= 'a' && (s[k] | 0x20) <= 'z') || s[k] == '_' ||
			      (s[k] >= '0' && s[k] <= '9')))
		k++;
	return k < w->len && s[k] == '=';
}

/* ------------------------------------------------------------------------
 * Variables.
 */
static bool name_in(const char *name, size_t n, const char *const *list)
{
	for (size_t k = 0; list[k]; k++) {
		size_t l = strlen(list[k]);
		if (list[k][l - 1] == '*' ? n >= l - 1 && !memcmp(name, list[k], l - 1)
					  : l == n && !memcmp(name, list[k], n))
			return true;
	}
	return false;
}

/* Variables whose value only changes how programs format and label what
 * they print: the only ones allowed in a command's environment. */
static const char *const harmless_env[] = {
	"LANG",
	"LANGUAGE",
	"LC_*",
	"TZ",
	"TERM",
	"COLUMNS",
	"LINES",
	"NO_COLOR",
	"FORCE_COLOR",
	"CLICOLOR",
	"CLICOLOR_FORCE",
	"COLORTERM",
	"GREP_COLOR",
	"GREP_COLORS",
	"LS_COLORS",
	"TIMEFORMAT",
	"TIME_STYLE",
	"DEBIAN_FRONTEND",
	"CI",
	"RUST_BACKTRACE",
	"RUST_LOG",
	"CARGO_TERM_COLOR",
	"PYTHONUNBUFFERED",
	"PYTHONDONTWRITEBYTECODE",
	"PYTHONIOENCODING",
	"PYTHONHASHSEED",
	"PYTHONUTF8",
	"GIT_AUTHOR_NAME",
	"GIT_AUTHOR_EMAIL",
	"GIT_AUTHOR_DATE",
	"GIT_COMMITTER_NAME",
	"GIT_COMMITTER_EMAIL",
	"GIT_COMMITTER_DATE",
	"GIT_TERMINAL_PROMPT",
	"SOURCE_DATE_EPOCH",
	"NODE_ENV",
	"GOOS",
	"GOARCH",
	"CGO_ENABLED",
	"MANWIDTH",
	NULL,
};

/* Variables the shell or the programs it starts use to find programs,
 * code, configuration or where to write. */
static const char *const code_vars[] = {
	"PATH",
	"IFS",
	/* bash evaluates what is assigned to these as arithmetic, where
	 * a[$(cmd)] runs cmd (RANDOM='a[$(cmd)]') */
	"RANDOM",
	"SRANDOM",
	"OPTIND",
	"HISTCMD",
	"ENV",
	"BASH_ENV",
	"SHELLOPTS",
	"BASHOPTS",
	"PS4",
	"PROMPT_COMMAND",
	"HOME",
	"CDPATH",
	"TMPDIR",
	"SHELL",
	"POSIXLY_CORRECT",
	"BASH_COMPAT",
	"BASH_XTRACEFD",
	"BASH_LOADABLES_PATH",
	"EXECIGNORE",
	"HISTFILE",
	"TEXTDOMAIN",
	"TEXTDOMAINDIR",
	"EDITOR",
	"VISUAL",
	"PAGER",
	"MANPAGER",
	"LESS",
	"LESSOPEN",
	"LESSCLOSE",
	"BROWSER",
	"ZDOTDIR",
	"GCONV_PATH",
	"LOCPATH",
	"NLSPATH",
	"MAKEFLAGS",
	"GNUMAKEFLAGS",
	"MAKEFILES",
	"MAKELEVEL",
	"MFLAGS",
	"NODE_OPTIONS",
	"NODE_PATH",
	"JAVA_TOOL_OPTIONS",
	"_JAVA_OPTIONS",
	"JDK_JAVA_OPTIONS",
	"CLASSPATH",
	"PERLLIB",
	"PERL5*",
	"RUBY*",
	"PYTHONPATH",
	"PYTHONSTARTUP",
	"PYTHONHOME",
	"PYTHONWARNINGS",
	"PYTHONUSERBASE",
	"LD_*",
	"DYLD_*",
	"GIT_*",
	"BASH_FUNC_*",
	"XDG_*",
	"*_ASKPASS",
	NULL,
};

static bool var_is_code(const char *name, size_t n)
{
	if (name_in(name, n, code_vars))
		return true;
	/* *_ASKPASS */
	return n > 8 && !memcmp(name + n - 8, "_ASKPASS", 8);
}

const char *sh_env_reason(const char *name, size_t n)
{
	if (name_in(name, n, harmless_env) && !var_is_code(name, n))
		return NULL;
	if (var_is_code(name, n))
		return "an assignment to a variable that decides what the command runs (PATH, "
		       "LD_*, "
		       "MAKEFLAGS, ...)";
	return "an assignment in the command's environment to a variable not known to be harmless";
}

const char *sh_var_reason(const char *name, size_t n)
{
	if (var_is_code(name, n) && !name_in(name, n, harmless_env))
		return "an assignment to a variable that decides what later commands run (PATH, "
		       "IFS, "
		       "...)";
	return NULL;
}

const char *sh_assign_reason(const char *name, size_t n)
{
	const char *why = sh_var_reason(name, n);
	if (why || name_in(name, n, harmless_env))
		return why;
	/* an upper-case name may already be exported: the value then goes
	 * to every later program (CC, CFLAGS, npm_config_* …) */
	bool upper = n && ((name[0] >= 'A' && name[0] <= 'Z') || name[0] == '_');
	for (size_t k = 0; k < n && upper; k++)
		upper = (name[k] >= 'A' && name[k] <= 'Z') || (name[k] >= '0' && name[k] <= '9') ||
			name[k] == '_';
	if (upper || (n > 11 && !strncasecmp(name, "npm_config_", 11)))
		return "an assignment to a variable that may be in the environment of later "
		       "commands, not known to be harmless";
	return NULL;
}

/* ------------------------------------------------------------------------
 * Option specs.
 */
struct optdef {
	char sep;  /* '\0' flag, '=' argument, '?' optional argument, '!' effect */
	char role; /* '-' when none */
};

/*
 * Finds name[0..n) in spec. With abbrev, a long name (--x) that is no
 * entry's whole name also matches the entry it is a prefix of (GNU
 * getopt_long and git take any unambiguous abbreviation); a prefix of
 * several entries that differ is ambiguous: not found, and *ambiguous
 * (when given) says whether one of them has a role.
 */
static bool spec_find_in(const char *spec, const char *name, size_t n, struct optdef *d,
			 bool abbrev, bool *ambiguous)
{
	const char *s = spec;
	int found = 0;
	bool role = false;
	struct optdef pd = { 0 };

	if (ambiguous)
		*ambiguous = false;
	if (!spec)
		return false;
	while (*s) {
		while (*s == ' ')
			s++;
		if (!*s)
			break;
		const char *e = s;
		while (*e && *e != ' ')
			e++;
		/* the entry's separator and role */
		const char *sep = s;
		while (sep < e && *sep != '=' && *sep != '?' && *sep != '!')
			sep++;
		struct optdef od = { sep < e ? *sep : '\0', sep + 1 < e ? sep[1] : '-' };
		for (const char *nm = s; nm < sep;) {
			const char *ne = nm;
			while (ne < sep && *ne != '|')
				ne++;
			size_t l = (size_t)(ne - nm);
			if (l == n && !memcmp(nm, name, n)) {
				*d = od;
				return true;
			}
			if (l == 2 && nm[0] == '-' && nm[1] == '#' && n > 1 && name[0] == '-') {
				size_t k = 1;
				while (k < n && name[k] >= '0' && name[k] <= '9')
					k++;
				if (k == n) {
					*d = od;
					return true;
				}
			}
			if (l > 1 && nm[l - 1] == '*' && n >= l - 1 && !memcmp(nm, name, l - 1)) {
				*d = od;
				return true;
			}
			if (abbrev && n > 2 && name[0] == '-' && name[1] == '-' && l > n &&
			    !memcmp(nm, name, n)) {
				if (found && (pd.sep != od.sep || pd.role != od.role))
					found = 2;
				else if (!found)
					found = 1;
				role = role || od.role != '-';
				pd = od;
			}
			nm = ne < sep ? ne + 1 : ne;
		}
		s = e;
	}
	if (found == 1) {
		*d = pd;
		return true;
	}
	if (found == 2 && ambiguous)
		*ambiguous = role;
	return false;
}

static bool spec_find(const char *spec, const char *name, size_t n, struct optdef *d)
{
	return spec_find_in(spec, name, n, d, true, NULL);
}

/*
 * Whether the option word w (up to a '=') may be the GNU long option
 * full: the whole name or an abbreviation of it. For the readers below
 * that look for one option themselves: an abbreviation that is ambiguous
 * is an error to getopt_long, so counting it as full is only stricter;
 * a reader that would be less strict on finding an option matches it
 * whole instead.
 */
static bool long_may_be(const struct lf_shell_word *w, const char *full)
{
	const char *s = w->text;
	size_t n = strcspn(s, "=");

	return literal(w) && n > 2 && s[0] == '-' && s[1] == '-' && n <= strlen(full) &&
	       !memcmp(s, full, n);
}

/* Whether some option of spec writes, deletes, runs or asks. */
static bool spec_dangerous(const char *spec)
{
	for (const char *s = spec; s && *s; s++)
		if ((*s == '=' || *s == '?' || *s == '!') && s[1] && strchr("wdtTscpaxCW", s[1]))
			return true;
	return false;
}

static void apply_role(struct tc *t, char role, const struct lf_shell_word *w, size_t at);

/* The role of an option's argument: the option names it, so an unknown
 * option elsewhere (which makes operands unsure) does not make it unsure. */
static void opt_role(struct tc *t, char role, const struct lf_shell_word *w, size_t at)
{
	bool unsure = t->unsure;
	if (role == 'w' || role == 't' || role == 'T')
		t->out_opt = true;
	t->unsure = false;
	apply_role(t, role, w, at);
	t->unsure = unsure;
}

/* ------------------------------------------------------------------------
 * The engine.
 */
static size_t operand_count_roles(const char *ops, char *roles, size_t max)
{
	size_t n = 0;
	for (; ops && *ops && n < max; ops++)
		roles[n++] = *ops;
	return n;
}

/*
 * Runs the options and operands of argv[from..argc) through prog p:
 * effects are appended. Stops at a command (x, X).
 */
static int engine(struct tc *t, const struct prog *p, size_t from)
{
	const struct lf_shell_word *argv = t->argv;
	size_t argc = t->argc;
	bool options = true;
	bool dangerous = spec_dangerous(p->opts);
	char roles[32];
	size_t nroles = operand_count_roles(p->operands, roles, sizeof(roles));
	size_t ri = 0; /* the next operand role */
	size_t pending[256], npending = 0;
	bool deferred = false; /* a repeated role was met: operands wait */
	/* A program whose pattern may come from an option (grep -e, -f): its
	 * first operand is the pattern only without one, and GNU programs
	 * take options after operands too, so that word waits. */
	bool pat = p->opts && (strstr(p->opts, "=P") || strstr(p->opts, "=F"));
	size_t pattern_at = SIZE_MAX;

	t->p = p;
	for (size_t i = from; i < argc; i++) {
		const struct lf_shell_word *w = &argv[i];
		struct optdef d0;
		if (options && literal(w) && w->len == 1 && w->text[0] == '-' &&
		    spec_find(p->opts, "-", 1, &d0)) {
			/* a lone "-" that is an option (env -: -i) */
			if (d0.sep == '!')
				opt_role(t, d0.role, NULL, i);
			continue;
		}
		if (options && literal(w) && w->text[0] == '+' && w->len > 1 &&
		    spec_find(p->opts, w->text, w->len, &d0)) {
			/* +COMMAND (less, vim): +N alone is a line number */
			size_t k = 1;
			while (k < w->len && w->text[k] >= '0' && w->text[k] <= '9')
				k++;
			if (k < w->len)
				opt_role(t, d0.role, NULL, i);
			continue;
		}
		if (options && literal(w) && w->text[0] == '-' && w->len > 1) {
			struct optdef d;
			if (!strcmp(w->text, "--")) {
				options = false;
				continue;
			}
			if (w->text[1] == '-' || (p->flags & F_NOCLUSTER) ||
			    spec_find(p->opts, w->text, w->len, &d)) {
				/* a long option, or a whole word */
				const char *eq = w->text[1] == '-' || (p->flags & F_EQ1)
							 ? strchr(w->text, '=')
							 : NULL;
				size_t nl = eq ? (size_t)(eq - w->text) : w->len;
				/* Go-style flags take no abbreviation */
				bool abbrev = !(p->flags & F_EQ1), ambiguous;
				bool found =
					spec_find_in(p->opts, w->text, nl, &d, abbrev, &ambiguous);
				if (!found && (p->flags & F_EQ1) && w->text[1] == '-')
					found = spec_find_in(p->opts, w->text + 1, nl - 1, &d,
							     false, NULL);
				if (!found) {
					if (w->text[1] != '-' && !(p->flags & F_NOCLUSTER))
						goto cluster;
					if (ambiguous)
						eff_reason(t, R_AMBIGUOUS_OPT);
					t->unsure = true;
					if ((p->flags & F_WRAP) && !(p->flags & F_LONGANY)) {
						eff_reason(t, R_UNKNOWN_OPT);
						return 0;
					}
					continue;
				}
				if (d.sep == '=' && !eq) {
					if (i + 1 >= argc)
						continue;
					opt_role(t, d.role, &argv[i + 1], i + 1);
					i++;
				} else if ((d.sep == '=' || d.sep == '?') && eq) {
					opt_role(t, d.role, word_tail(t, w, nl + 1), i);
				} else if (d.sep == '!' || d.sep == '?') {
					/* an optional argument not given: the option's effect
					 * without it (sed -i) */
					opt_role(t, d.role, NULL, i);
				}
				if (d.role == 'x' && d.sep)
					return 0;
				continue;
			}
		cluster:
			for (size_t k = 1; k < w->len; k++) {
				char nm[3] = { '-', w->text[k], '\0' };
				if (!spec_find(p->opts, nm, 2, &d)) {
					t->unsure = true;
					if ((p->flags & F_WRAP)) {
						eff_reason(t, R_UNKNOWN_OPT);
						return 0;
					}
					/* the letters after it are options or its
					 * argument: -Wt DIR may be -W -t DIR */
					for (k++; k < w->len; k++) {
						nm[1] = w->text[k];
						if (spec_find(p->opts, nm, 2, &d) &&
						    d.role != '-') {
							eff_reason(t, R_UNKNOWN_CLUSTER);
							break;
						}
					}
					break;
				}
				if (d.sep == '!') {
					opt_role(t, d.role, NULL, i);
					continue;
				}
				if (d.sep == '=' || d.sep == '?') {
					if (k + 1 < w->len) {
						opt_role(t, d.role, word_tail(t, w, k + 1), i);
					} else if (d.sep == '=' && i + 1 < argc) {
						opt_role(t, d.role, &argv[i + 1], i + 1);
						i++;
					} else if (d.sep == '?') {
						opt_role(t, d.role, NULL, i);
					}
					break;
				}
			}
			continue;
		}
		if (options && !literal(w) && !option_safe(w)) {
			/* it may become any option, or several words */
			if (dangerous)
				eff_wild(t, R_WILD_OPT);
			if (p->flags & F_WRAP) {
				eff_reason(t, R_UNKNOWN_OPT);
				return 0;
			}
		}
		/* an operand */
		t->any_operand = true;
		if ((p->flags & (F_WRAP | F_NOPERMUTE)))
			options = false;
		if (deferred) {
			if (npending < sizeof(pending) / sizeof(pending[0]))
				pending[npending++] = i;
			else
				eff_reason(t, "too many operands");
			continue;
		}
		if (ri < nroles && ri + 1 < nroles && roles[ri + 1] == '*') {
			if (roles[ri] == 'E') {
				if (literal(w) && is_assignment_word(w)) {
					apply_role(t, 'E', w, i);
					continue;
				}
				if (!literal(w) && strchr(w->text, '=')) {
					apply_role(t, 'E', w, i);
					continue;
				}
				ri += 2;
			} else {
				deferred = true;
				pending[npending++] = i;
				continue;
			}
		}
		char role = ri < nroles ? roles[ri++] : 'm';
		if (role == '-' && pat && ri == 1 && nroles > 1 && roles[1] != '*') {
			pattern_at = i;
			continue;
		}
		if (role == 'x' || role == 'X') {
			if (!t->no_cmd)
				eff_cmd(t, i, argc, role == 'X');
			return 0;
		}
		apply_role(t, role, w, i);
		if (role == 'k') {
			/* The rest are the script's own arguments: one naming a
			 * file may be a file it reads, as an unknown program's
			 * operand may (only deny and ask file rules count). */
			for (size_t k = i + 1; k < argc; k++)
				apply_role(t, 'm', &argv[k], k);
			return 0;
		}
	}
	if (pattern_at != SIZE_MAX && t->pattern_given)
		apply_role(t, roles[1], &argv[pattern_at], pattern_at);
	if (deferred) {
		/* roles after the repeated one take the last operands */
		char rep = roles[ri];
		size_t after = nroles - ri - 2;
		for (size_t k = 0; k < npending; k++) {
			size_t left = npending - k;
			char role = left <= after ? roles[nroles - left] : rep;
			if (t->target_dir)
				role = rep;
			if (role == 'x' || role == 'X') {
				eff_cmd(t, pending[k], argc, role == 'X');
				return 0;
			}
			apply_role(t, role, &argv[pending[k]], pending[k]);
		}
	} else if (ri < nroles && roles[ri] == 'x' && !t->no_cmd && p->reason &&
		   !(p->flags & F_ASK)) {
		/* a wrapper with no command */
		eff_reason(t, p->reason);
	}
	return 0;
}

/* The file named by the bytes [off, off + len) of the literal word w, as
 * a word of its own: a read (roles '@' and 'B'). */
static void eff_read_part(struct tc *t, const struct lf_shell_word *w, size_t off, size_t len)
{
	struct lf_shell_word *j = sh_alloc(t->a, sizeof(*j));
	char *s = j ? sh_alloc(t->a, len + 1) : NULL;

	if (!s) {
		t->out->nomem = true;
		return;
	}
	memcpy(s, w->text + off, len);
	s[len] = '\0';
	*j = *w;
	j->text = s;
	j->len = len;
	eff_file(t, LF_CAP_READ, j, true, false);
}

/* Role '@': curl's ways of reading a file into data, a form or headers
 * (curl(1): -d, --data-urlencode, -F, -H, --json, --variable). A word the
 * shell computes may hold any of them: it is judged whole. */
static void data_files(struct tc *t, const struct lf_shell_word *w)
{
	const char *s = w->text, *at, *eq;

	if (!literal(w)) {
		eff_file(t, LF_CAP_READ, w, false, false);
		return;
	}
	at = strchr(s, '@');
	eq = strchr(s, '=');
	/* @FILE, NAME@FILE */
	if (at && (!eq || at < eq))
		eff_read_part(t, w, (size_t)(at + 1 - s), strlen(at + 1));
	/* NAME=@FILE;type=..., NAME=<FILE */
	if (eq && (eq[1] == '@' || eq[1] == '<'))
		eff_read_part(t, w, (size_t)(eq + 2 - s), strcspn(eq + 2, ";"));
}

static void apply_role(struct tc *t, char role, const struct lf_shell_word *w, size_t at)
{
	enum lf_capability cap = LF_CAP_READ;

	if (t->out->nomem)
		return;
	switch (role) {
	case 'r':
	case 'm':
		if (w && (t->write_ops || role == 'r'))
			cap = t->write_ops ? LF_CAP_WRITE : LF_CAP_READ;
		if (w && t->write_ops && role == 'm')
			cap = LF_CAP_WRITE;
		if (w)
			eff_file(t, cap, w, role == 'r' || t->write_ops, false);
		break;
	case 'w':
	case 'd':
		if (w)
			eff_file(t,
				 t->read_only  ? LF_CAP_READ
				 : role == 'w' ? LF_CAP_WRITE
					       : LF_CAP_DELETE,
				 w, true, false);
		break;
	case 't':
	case 'T':
		if (w)
			eff_file(t, LF_CAP_WRITE, w, true, true);
		if (role == 'T')
			t->target_dir = true;
		break;
	case 'C':
		/* -C a -C b is a/b */
		if (w && t->base && w->len && w->text[0] != '/' && w->text[0] != '~') {
			size_t n = t->base->len + 1 + w->len;
			struct lf_shell_word *j = sh_alloc(t->a, sizeof(*j));
			char *s = j ? sh_alloc(t->a, n + 1) : NULL;
			if (!s) {
				t->out->nomem = true;
				break;
			}
			memcpy(s, t->base->text, t->base->len);
			s[t->base->len] = '/';
			memcpy(s + t->base->len + 1, w->text, w->len + 1);
			j->text = s;
			j->len = n;
			j->flags = t->base->flags | w->flags;
			t->base = j;
		} else if (w) {
			t->base = w;
		}
		break;
	case 's':
	case 'p':
		if (w)
			eff_line(t, w, 0, "the command string is not a literal");
		else
			eff_reason(t, R_CODE);
		break;
	case 'c':
		t->code = true;
		eff_reason(t, R_CODE);
		break;
	case 'a':
		eff_reason(t, R_NOT_FOLLOWED);
		break;
	case '@':
		if (w)
			data_files(t, w);
		break;
	case 'B':
		if (w && (!literal(w) || !strchr(w->text, '=')))
			eff_file(t, LF_CAP_READ, w, literal(w), false);
		break;
	case 'N':
		t->no_cmd = true;
		break;
	case 'R':
		t->read_only = true;
		break;
	case 'W':
		t->write_ops = true;
		break;
	case 'P':
		t->pattern_given = true;
		break;
	case 'F':
		t->pattern_given = true;
		if (w)
			eff_file(t, LF_CAP_READ, w, true, false);
		break;
	case 'E':
		if (w) {
			const char *eq = memchr(w->text, '=', w->len);
			size_t n = eq ? (size_t)(eq - w->text) : w->len;
			const char *why = sh_env_reason(w->text, n);
			if (!literal(w) && (!eq || !memchr(w->text, '$', n)))
				why = why ? why : NULL;
			if (why)
				eff_reason(t, why);
		}
		break;
	case 'k':
		t->code = true;
		if (w)
			eff_script(t, w);
		break;
	case 'L':
		if (w) {
			bool save = t->links;
			t->links = true;
			eff_file(t, LF_CAP_WRITE, w, true, false);
			t->links = save;
		}
		break;
	case 'K':
		t->links = true;
		break;
	case 'x':
		/* an option after which a command starts (gdb --args) */
		if (at + 1 < t->argc)
			eff_cmd(t, at + 1, t->argc, false);
		break;
	case 'Q':
		if (w)
			eff_file(t, LF_CAP_READ, w, true, false);
		/* fall through */
	case 'M':
		/* a commit or tag message (or its file): no editor */
		t->no_cmd = true;
		break;
	case 'A':
		t->editor = true;
		break;
	default:
		break;
	}
	(void)at;
}

/* Runs the engine and the entry's after-effects. */
/*
 * F_CWD_OUT: without an option or operand naming what it writes, the
 * program writes files named after its input or the URL (a.out, x.o,
 * xaa, index.html) in the working directory: a write below it.
 */
static void cwd_out(struct tc *t, const struct prog *p, size_t before)
{
	static const char *const to_stdout[] = { "-E",	     "-M",	 "-MM", "-fsyntax-only",
						 "--spider", "--stdout", NULL };

	if (t->out_opt || t->no_cmd || (!t->any_operand && !(p->flags & F_CWD_OUT_ANY)))
		return;
	for (size_t k = before; k < t->out->n; k++)
		if (t->out->v[k].kind == SH_EF_FILE && t->out->v[k].cap == LF_CAP_WRITE)
			return;
	for (size_t i = 1; i < t->argc; i++)
		for (size_t k = 0; to_stdout[k]; k++)
			if (word_is(&t->argv[i], to_stdout[k]))
				return;
	eff_file(t, LF_CAP_WRITE, &word_here, true, true);
}

static int run_prog(struct tc *t, const struct prog *p, size_t from)
{
	if (p->flags & F_ASK)
		eff_reason(t, p->reason ? p->reason : R_NOT_FOLLOWED);
	size_t before = t->out->n;
	int r = engine(t, p, from);
	if ((p->flags & F_STDIN_CODE) && !t->code && !t->no_cmd)
		eff_reason(t, R_STDIN_CODE);
	if (r >= 0 && (p->flags & (F_CWD_OUT | F_CWD_OUT_ANY)))
		cwd_out(t, p, before);
	return r;
}

/* ------------------------------------------------------------------------
 * Readers of argument languages.
 */

/* sh, bash, …: options, then -c STRING or a script. */
static int h_shell(struct tc *t)
{
	const char *b = sh_base_name(t->argv[0].text);
	bool bash = !strcmp(b, "bash") || !strcmp(b, "rbash");
	bool posix =
		!strcmp(b, "sh") || !strcmp(b, "dash") || !strcmp(b, "ash") || !strcmp(b, "posh");
	size_t i = 1;
	bool c_flag = false, s_flag = false;
	const char *other =
		bash || posix ? NULL : "a shell whose syntax this analysis does not model";

	for (; i < t->argc; i++) {
		const struct lf_shell_word *w = &t->argv[i];
		if (!literal(w)) {
			/* after -c the first operand is the command string */
			if (!option_safe(w) && !c_flag) {
				eff_reason(t, "a shell option is not a literal word");
				return 0;
			}
			break;
		}
		if ((w->text[0] != '-' && w->text[0] != '+') || !w->text[1])
			break;
		if (!strcmp(w->text, "--") || !strcmp(w->text, "-")) {
			i++;
			break;
		}
		if (w->text[1] == '-') {
			if (!strcmp(w->text, "--version") || !strcmp(w->text, "--help"))
				return 0;
			if (!strcmp(w->text, "--rcfile") || !strcmp(w->text, "--init-file")) {
				i++;
				eff_reason(t, "the shell reads start-up code from a file");
			}
			continue;
		}
		for (size_t k = 1; w->text[k]; k++) {
			char c = w->text[k];
			if (c == 'c' && w->text[0] == '-') {
				c_flag = true;
			} else if (c == 's') {
				s_flag = true;
			} else if (c == 'o' || c == 'O') {
				/* -o NAME, -O NAME: options that change how text is read */
				static const char *const safe[] = {
					"errexit",  "nounset",	 "pipefail", "xtrace",	"verbose",
					"noglob",   "noclobber", "nullglob", "dotglob", "globstar",
					"failglob", "noexec",	 NULL
				};
				if (i + 1 < t->argc) {
					bool ok = false;
					for (size_t s = 0; safe[s]; s++)
						ok = ok || word_is(&t->argv[i + 1], safe[s]);
					if (!ok)
						eff_reason(
							t,
							"a shell option that changes how commands "
							"are read");
					i++;
				}
				break;
			} else if (c == 'i' || c == 'l') {
				/* start-up files: the user's own */
			}
		}
	}
	if (c_flag) {
		if (i >= t->argc) {
			eff_reason(t, "a shell -c without a command string");
			return 0;
		}
		if (other)
			eff_reason(t, other);
		eff_line(t, &t->argv[i], posix ? SH_PARSE_POSIX : 0,
			 "the shell -c command string is not a literal");
		return 0;
	}
	if (i >= t->argc || s_flag) {
		eff_reason(t, "the shell reads its commands from standard input");
		return 0;
	}
	/* a script: code from a file, and the rest its arguments (maybe
	 * files it reads, as in the engine) */
	t->code = true;
	eff_script(t, &t->argv[i]);
	for (size_t k = i + 1; k < t->argc; k++)
		apply_role(t, 'm', &t->argv[k], k);
	return 0;
}

/* eval WORDS: joined and parsed; eval itself stays at best ask. */
static int h_eval(struct tc *t)
{
	size_t i = 1;

	if (i < t->argc && word_is(&t->argv[i], "--"))
		i++;
	eff_reason(t, "eval runs a command built at run time");
	eff_joined(t, i, t->argc, "eval runs a word that is not a literal");
	return 0;
}

/* trap [-lp] [[ACTION] SIGNAL…] */
static int h_trap(struct tc *t)
{
	size_t i = 1;

	while (i < t->argc && literal(&t->argv[i]) && t->argv[i].text[0] == '-' &&
	       t->argv[i].len > 1) {
		if (word_is(&t->argv[i], "--")) {
			i++;
			break;
		}
		if (strchr(t->argv[i].text, 'l') || strchr(t->argv[i].text, 'p'))
			return 0;
		i++;
	}
	if (i + 1 >= t->argc)
		return 0;
	eff_reason(t, "trap runs a command string later");
	eff_line(t, &t->argv[i], 0, "the trap action is not a literal");
	return 0;
}

/* Builtins that take variable names: a subscript there is arithmetic. */
static void check_var_name(struct tc *t, const struct lf_shell_word *w, bool assign_ok)
{
	const char *s = w->text;
	size_t n = w->len;
	const char *eq = memchr(s, '=', n);
	size_t nl = eq && assign_ok ? (size_t)(eq - s) : n;

	/* NAME+=VALUE appends to NAME (declare PS4+='$(cmd)') */
	if (eq && assign_ok && nl && s[nl - 1] == '+')
		nl--;
	if (!literal(w) || w->flags & LF_WORD_SUBST) {
		/* the name itself is computed */
		const char *br = memchr(s, '[', nl);
		if (!eq || br || memchr(s, '$', nl) || memchr(s, '`', nl)) {
			eff_reason(t, "a variable name computed at run time");
			return;
		}
	}
	const char *br = memchr(s, '[', nl);
	if (br) {
		/* a literal subscript of digits is harmless */
		for (const char *k = br + 1; k < s + nl && *k != ']'; k++) {
			if (!((*k >= '0' && *k <= '9') || *k == ' ' || *k == '@' || *k == '*')) {
				eff_reason(t, "an array subscript evaluated as arithmetic");
				return;
			}
		}
		nl = (size_t)(br - s);
	}
	const char *why = sh_var_reason(s, nl);
	if (why)
		eff_reason(t, why);
}

/* declare, typeset, local, export, readonly */
static int h_declare(struct tc *t)
{
	const char *b = t->argv[0].text;
	bool exported = !strcmp(b, "export");

	for (size_t i = 1; i < t->argc; i++) {
		const struct lf_shell_word *w = &t->argv[i];
		if (literal(w) && (w->text[0] == '-' || w->text[0] == '+') && w->len > 1) {
			if (w->text[0] == '-' && (strchr(w->text, 'n') || strchr(w->text, 'i')))
				eff_reason(t,
					   "a nameref or integer variable: later assignments are "
					   "evaluated");
			if (w->text[0] == '-' && strchr(w->text, 'x'))
				exported = true;
			if (strchr(w->text, 'f') || strchr(w->text, 'F') || strchr(w->text, 'p'))
				return 0;
			continue;
		}
		check_var_name(t, w, true);
		if (exported) {
			const char *eq = memchr(w->text, '=', w->len);
			size_t n = eq ? (size_t)(eq - w->text) : w->len;
			if (eq && n && w->text[n - 1] == '+')
				n--; /* NAME+=VALUE */
			const char *why = sh_env_reason(w->text, n);
			if (why)
				eff_reason(t, why);
		}
		if (!literal(w) && !memchr(w->text, '=', w->len))
			eff_reason(t, "a declaration that is not a literal word");
	}
	return 0;
}

/* read, mapfile, printf -v, getopts, wait -p, unset: variable names. */
static int h_varnames(struct tc *t)
{
	const char *b = t->argv[0].text;
	bool is_read = !strcmp(b, "read"),
	     is_map = !strcmp(b, "mapfile") || !strcmp(b, "readarray");
	bool is_printf = !strcmp(b, "printf"), is_getopts = !strcmp(b, "getopts");
	bool is_wait = !strcmp(b, "wait"), is_unset = !strcmp(b, "unset");
	const char *argopts = is_read ? "adinNptu" : is_map ? "dnOsuCc" : is_wait ? "p" : "v";
	size_t i = 1, operand = 0;

	for (; i < t->argc; i++) {
		const struct lf_shell_word *w = &t->argv[i];
		if (literal(w) && w->text[0] == '-' && w->len > 1 && !operand && !is_getopts) {
			if (!strcmp(w->text, "--")) {
				i++;
				break;
			}
			for (size_t k = 1; k < w->len; k++) {
				char c = w->text[k];
				if (!strchr(argopts, c) || (is_unset))
					continue;
				const struct lf_shell_word *v =
					k + 1 < w->len ? word_tail(t, w, k + 1)
						       : (i + 1 < t->argc ? &t->argv[++i] : NULL);
				if (v && ((is_printf && c == 'v') || (is_wait && c == 'p') ||
					  (is_read && c == 'a')))
					check_var_name(t, v, false);
				if (v && is_map && c == 'C')
					eff_reason(t, "mapfile -C runs a callback string");
				break;
			}
			continue;
		}
		break;
	}
	if (is_printf)
		return 0;
	for (; i < t->argc; i++, operand++) {
		if (is_getopts && operand == 0)
			continue;
		if (is_getopts && operand > 1)
			break;
		check_var_name(t, &t->argv[i], false);
	}
	return 0;
}

/* let EXPR…: arithmetic on each word. */
bool sh_arith_literal(const char *s, size_t n)
{
	for (size_t k = 0; k < n; k++) {
		char c = s[k];
		if ((c >= '0' && c <= '9') || strchr(" \t\n+-*/%<>=!&|^~?:,()", c))
			continue;
		/* 0x1F and 16#ff: letters after a digit start */
		if (((c | 0x20) >= 'a' && (c | 0x20) <= 'z') || c == '#' || c == '@' || c == '_') {
			size_t j = k;
			while (j > 0 && s[j - 1] != ' ' && !strchr("+-*/%<>=!&|^~?:,()", s[j - 1]))
				j--;
			if (j < k && s[j] >= '0' && s[j] <= '9')
				continue;
		}
		return false;
	}
	return true;
}

static int h_let(struct tc *t)
{
	for (size_t i = 1; i < t->argc; i++)
		if (!literal(&t->argv[i]) || !sh_arith_literal(t->argv[i].text, t->argv[i].len)) {
			eff_reason(t,
				   "arithmetic on values not written in the line can run commands");
			break;
		}
	return 0;
}

/* test, [: -v NAME evaluates a subscript. */
static int h_test(struct tc *t)
{
	for (size_t i = 1; i + 1 < t->argc; i++)
		if (word_is(&t->argv[i], "-v") || word_is(&t->argv[i], "-R"))
			check_var_name(t, &t->argv[i + 1], false);
	return 0;
}

/* set: options that change how later text is read or what is exported. */
static int h_set(struct tc *t)
{
	for (size_t i = 1; i < t->argc; i++) {
		const struct lf_shell_word *w = &t->argv[i];
		if (!literal(w)) {
			eff_reason(t, "a set option that is not a literal word");
			return 0;
		}
		if (!strcmp(w->text, "--") || !strcmp(w->text, "-"))
			return 0;
		if ((w->text[0] != '-' && w->text[0] != '+') || w->len < 2)
			return 0;
		for (size_t k = 1; k < w->len; k++) {
			char c = w->text[k];
			if (c == 'o') {
				static const char *const safe[] = {
					"errexit", "nounset", "pipefail",  "xtrace",
					"verbose", "noglob",  "noclobber", "noexec",
					"notify",  "monitor", NULL
				};
				bool ok = i + 1 >= t->argc;
				for (size_t s = 0; !ok && safe[s]; s++)
					ok = word_is(&t->argv[i + 1], safe[s]);
				if (!ok)
					eff_reason(
						t,
						"a set -o option that changes how later commands "
						"are read or run");
				i++;
				break;
			}
			if (!strchr("euxvfnCmbhT", c) || c == 'T')
				eff_reason(t,
					   "a set option that changes how later commands are read "
					   "or run (-a, -k, -B, -H, -P, -E, -T)");
		}
	}
	return 0;
}

/* shopt: options that change how later text is read. */
static int h_shopt(struct tc *t)
{
	static const char *const safe[] = { "nullglob",	       "dotglob",    "globstar",
					    "failglob",	       "nocaseglob", "nocasematch",
					    "checkwinsize",    "histappend", "cmdhist",
					    "lithist",	       "xpg_echo",   "inherit_errexit",
					    "lastpipe",	       "huponexit",  "checkjobs",
					    "globasciiranges", NULL };
	bool setting = false;

	for (size_t i = 1; i < t->argc; i++) {
		const struct lf_shell_word *w = &t->argv[i];
		if (!literal(w)) {
			eff_reason(t, "a shopt option that is not a literal word");
			return 0;
		}
		if (w->text[0] == '-') {
			setting = setting || strchr(w->text, 's') || strchr(w->text, 'u');
			continue;
		}
		bool ok = !setting;
		for (size_t s = 0; !ok && safe[s]; s++)
			ok = !strcmp(w->text, safe[s]);
		if (!ok) {
			eff_reason(t, "a shopt option that changes how later commands are read");
			return 0;
		}
	}
	return 0;
}

/* alias NAME=VALUE changes what later commands run. */
static int h_alias(struct tc *t)
{
	for (size_t i = 1; i < t->argc; i++)
		if (!literal(&t->argv[i]) || memchr(t->argv[i].text, '=', t->argv[i].len)) {
			eff_reason(t, "an alias changes what later commands run");
			break;
		}
	return 0;
}

/* source FILE ARGS…, . FILE ARGS… */
static int h_source(struct tc *t)
{
	size_t i = 1;
	if (i < t->argc && word_is(&t->argv[i], "--"))
		i++;
	if (i < t->argc)
		eff_script(t, &t->argv[i]);
	return 0;
}

/* su, runuser, script: options anywhere (GNU getopt permutes); -c STRING,
 * --command=STRING, --session-command; runuser -u USER COMMAND…. */
static int h_su(struct tc *t)
{
	const char *b = sh_base_name(t->argv[0].text);
	bool is_script = !strcmp(b, "script"), is_runuser = !strcmp(b, "runuser");
	const char *sflag = is_script ? "aefqhVtE" : "lmpfhVPT";
	const char *sarg = is_script ? "BcIOomT" : "cCgGsuw";
	const struct lf_shell_word *payload = NULL;
	bool user_opt = false;
	size_t operands[8], nops = 0, rest = SIZE_MAX;

	for (size_t i = 1; i < t->argc; i++) {
		const struct lf_shell_word *w = &t->argv[i];
		const char *s = w->text;
		if (!literal(w)) {
			if (!option_safe(w)) {
				eff_reason(t, R_UNKNOWN_OPT);
				return 0;
			}
		} else if (!strcmp(s, "--")) {
			rest = i + 1;
			break;
		} else if (s[0] == '-' && s[1] == '-') {
			const char *eq = strchr(s, '=');
			size_t n = eq ? (size_t)(eq - s) : strlen(s);
			bool cmd =
				long_may_be(w, "--command") || long_may_be(w, "--session-command");
			bool takes = cmd || (n == 6 && !memcmp(s, "--user", 6)) ||
				     (n == 7 && !memcmp(s, "--shell", 7)) ||
				     (n == 7 && !memcmp(s, "--group", 7)) ||
				     (n == 12 && !memcmp(s, "--supp-group", 12)) ||
				     !strncmp(s, "--log-", 6) ||
				     !strncmp(s, "--output-limit", 14) ||
				     !strncmp(s, "--logging-format", 16) ||
				     !strncmp(s, "--whitelist-environment", 23) ||
				     (n == 6 && !memcmp(s, "--echo", 6));
			if (n == 6 && !memcmp(s, "--user", 6))
				user_opt = true;
			if (is_script && !strncmp(s, "--log-", 6)) {
				if (eq)
					eff_file(t, LF_CAP_WRITE, word_tail(t, w, n + 1), true,
						 false);
				else if (i + 1 < t->argc)
					eff_file(t, LF_CAP_WRITE, &t->argv[i + 1], true, false);
			}
			if (takes && !eq) {
				if (i + 1 >= t->argc) {
					eff_reason(t, R_UNKNOWN_OPT);
					return 0;
				}
				if (cmd)
					payload = &t->argv[i + 1];
				i++;
			} else if (cmd) {
				payload = word_tail(t, w, n + 1);
			}
		} else if (s[0] == '-' && s[1]) {
			for (size_t k = 1; s[k]; k++) {
				if (strchr(sflag, s[k]))
					continue;
				if (!strchr(sarg, s[k])) {
					eff_reason(t, R_UNKNOWN_OPT);
					return 0;
				}
				if (s[k] == 'u' && !is_script)
					user_opt = true;
				const struct lf_shell_word *v = NULL;
				if (s[k + 1])
					v = word_tail(t, w, k + 1);
				else if (i + 1 < t->argc)
					v = &t->argv[++i];
				else {
					eff_reason(t, R_UNKNOWN_OPT);
					return 0;
				}
				if (s[k] == 'c' || (s[k] == 'C' && !is_script))
					payload = v;
				if (is_script &&
				    (s[k] == 'B' || s[k] == 'I' || s[k] == 'O' || s[k] == 'T'))
					eff_file(t, LF_CAP_WRITE, v, true, false);
				break;
			}
		} else if (is_runuser && user_opt) {
			rest = i;
			break;
		} else if (s[0] != '-' || s[1]) {
			if (nops < sizeof(operands) / sizeof(operands[0]))
				operands[nops] = i;
			nops++;
		}
	}
	if (payload)
		eff_line(t, payload, 0, "the command string is not a literal");
	if (is_runuser && user_opt) {
		if (rest < t->argc)
			eff_cmd(t, rest, t->argc, false);
		else if (!payload)
			eff_reason(t, R_NO_CMD_SHELL);
		return 0;
	}
	if (rest < t->argc) {
		eff_reason(t, "arguments given to the user's shell");
		return 0;
	}
	if (is_script) {
		/* the typescript file */
		if (nops)
			eff_file(t, LF_CAP_WRITE, &t->argv[operands[0]], true, false);
		if (!payload)
			eff_reason(t, R_NO_CMD_SHELL);
		return 0;
	}
	if (nops > 1)
		eff_reason(t, "arguments given to the user's shell");
	else if (!payload)
		eff_reason(t, R_NO_CMD_SHELL);
	return 0;
}

/* flock [options] FILE COMMAND… | FILE -c STRING | FD */
static int h_flock(struct tc *t)
{
	static const struct prog opts = { "flock",
					  "-s -x -e -u -n -o -F -v -h -V -E=- -w=- "
					  "--shared --exclusive --unlock --nonblock "
					  "--close --no-fork --verbose --conflict-exit-code=- "
					  "--timeout=-",
					  NULL,
					  F_WRAP,
					  NULL,
					  NULL };
	size_t i = 1;

	t->p = &opts;
	for (; i < t->argc; i++) {
		const struct lf_shell_word *w = &t->argv[i];
		struct optdef d;
		if (!literal(w) || w->text[0] != '-' || w->len < 2)
			break;
		if (!strcmp(w->text, "--")) {
			i++;
			break;
		}
		if (!spec_find(opts.opts, w->text, w->len, &d) &&
		    !(w->text[1] != '-' &&
		      spec_find(opts.opts, (char[]){ '-', w->text[1], 0 }, 2, &d))) {
			eff_reason(t, R_UNKNOWN_OPT);
			return 0;
		}
		if (d.sep == '=' && !strchr(w->text, '=') && w->len == 2)
			i++;
	}
	if (i >= t->argc)
		return 0;
	/* a lock file is created if it does not exist */
	eff_file(t, LF_CAP_WRITE, &t->argv[i], true, false);
	if (i + 1 >= t->argc)
		return 0;
	if (word_is(&t->argv[i + 1], "-c") || word_is(&t->argv[i + 1], "--command")) {
		if (i + 2 < t->argc)
			eff_line(t, &t->argv[i + 2], 0, "the command string is not a literal");
		return 0;
	}
	eff_cmd(t, i + 1, t->argc, false);
	return 0;
}

/* watch [options] COMMAND…: joined and run by sh -c, or with -x as is. */
static int h_watch(struct tc *t)
{
	static const struct prog watch = {
		"watch",
		"-b -c -C -d?- -e -g -h!N -p -r -t -w -x -v!N -n=- -q=- --beep --color --no-color "
		"--differences?- --errexit --chgexit --help!N --precise --no-rerun --no-title "
		"--no-wrap --exec --version!N --interval=- --equexit=-",
		"x",
		F_WRAP,
		NULL,
		NULL,
	};
	bool exec = false;

	for (size_t i = 1; i < t->argc; i++) {
		const struct lf_shell_word *w = &t->argv[i];
		if (!literal(w) || w->text[0] != '-' || !strcmp(w->text, "--"))
			break;
		if (!strcmp(w->text, "--exec"))
			exec = true;
		else if (w->text[1] != '-')
			for (size_t k = 1; k < w->len && !strchr("nqd", w->text[k]); k++)
				exec = exec || w->text[k] == 'x';
	}
	size_t before = t->out->n;
	int r = engine(t, &watch, 1);
	if (!exec)
		for (size_t k = before; k < t->out->n; k++)
			if (t->out->v[k].kind == SH_EF_CMD) {
				t->out->v[k].kind = SH_EF_JOINED;
				t->out->v[k].reason = "the watched command is not a literal";
			}
	return r;
}

/* ssh [options] HOST [COMMAND…]: the remote shell runs the words joined by
 * spaces. Options that run local commands are not followed. */
static int h_ssh(struct tc *t)
{
	const char *sflag = "46AaCfGgKkMNnqsTtVvXxYy", *sarg = "BbcDEeFIiJLlmOoPpQRSWw";
	size_t i = 1;
	bool host = false, no_cmd = false;

	while (i < t->argc) {
		const struct lf_shell_word *w = &t->argv[i];
		const char *s = w->text;
		if (!literal(w)) {
			if (!option_safe(w) || !host) {
				eff_reason(t, R_UNKNOWN_OPT);
				return 0;
			}
			break;
		}
		if (!strcmp(s, "--") && !host) {
			i++;
			continue;
		}
		if (s[0] != '-' || !s[1]) {
			if (host)
				break;
			host = true;
			i++;
			continue;
		}
		size_t next = i + 1;
		for (size_t k = 1; s[k]; k++) {
			if (s[k] == 'N')
				no_cmd = true;
			if (strchr(sflag, s[k]))
				continue;
			if (!strchr(sarg, s[k])) {
				eff_reason(t, R_UNKNOWN_OPT);
				return 0;
			}
			const struct lf_shell_word *v =
				s[k + 1] ? word_tail(t, w, k + 1)
					 : (i + 1 < t->argc ? &t->argv[i + 1] : NULL);
			const char *val = v ? v->text : "";
			if (s[k] == 'F' || s[k] == 'I' ||
			    (s[k] == 'o' &&
			     (strcasestr(val, "command") || strcasestr(val, "include") ||
			      strcasestr(val, "pkcs11") || strcasestr(val, "provider") ||
			      (v && !literal(v))))) {
				eff_reason(t, "an ssh option that runs local commands or reads a "
					      "configuration");
				return 0;
			}
			if (s[k] == 'E' && v)
				eff_file(t, LF_CAP_WRITE, v, true, false);
			next = s[k + 1] ? i + 1 : i + 2;
			break;
		}
		i = next;
	}
	if (!host)
		return 0;
	if (i >= t->argc) {
		if (!no_cmd)
			eff_reason(t, "without a command ssh runs a remote shell reading standard "
				      "input");
		return 0;
	}
	eff_joined(t, i, t->argc, "the remote command is not a literal");
	return 0;
}

/* sudo [options] [NAME=value…] COMMAND…; -s and -i run the words through
 * the target user's shell; -e edits files. */
static int h_sudo(struct tc *t)
{
	static const struct prog opts = {
		"sudo",
		"-A -B -b -E -H -K -k -l -n -P -S -V!N -v!N -h!N -u=- -g=- -p=- -C=- -D=C "
		"-R=a -r=- -t=- -T=- -U=- --askpass --bell --background --preserve-env?- "
		"--set-home --reset-timestamp --remove-timestamp --list --non-interactive "
		"--preserve-groups --stdin --version!N --validate!N --help!N --user=- --group=- "
		"--prompt=- --close-from=- --chdir=C --chroot=a --role=- --type=- "
		"--command-timeout=- --other-user=- --host=- -s!- -i!- --shell!- --login!- "
		"-e!W --edit!W",
		"E*x",
		F_WRAP,
		NULL,
		NULL,
	};
	bool shell = false, edit = false;

	for (size_t i = 1; i < t->argc; i++) {
		const struct lf_shell_word *w = &t->argv[i];
		if (!literal(w) || w->text[0] != '-' || !strcmp(w->text, "--"))
			break;
		if (w->text[1] == '-') {
			shell = shell || long_may_be(w, "--shell") || long_may_be(w, "--login");
			edit = edit || long_may_be(w, "--edit");
		} else {
			for (size_t k = 1; k < w->len; k++) {
				if (strchr("ugpCDRrtTU", w->text[k]))
					break;
				shell = shell || w->text[k] == 's' || w->text[k] == 'i';
				edit = edit || w->text[k] == 'e';
			}
		}
	}
	if (edit) {
		struct prog e = opts;
		e.operands = "w*";
		e.flags = 0;
		return engine(t, &e, 1);
	}
	if (shell) {
		/* the words are joined into one string for the shell */
		struct sh_effs *o = t->out;
		size_t before = o->n;
		int r = engine(t, &opts, 1);
		for (size_t k = before; k < o->n; k++) {
			if (o->v[k].kind == SH_EF_CMD) {
				o->v[k].kind = SH_EF_JOINED;
				o->v[k].reason = "the command for the shell is not a literal";
			}
		}
		if (!t->ran_cmd)
			eff_reason(t, R_NO_CMD_SHELL);
		return r;
	}
	return engine(t, &opts, 1);
}

/* xargs [options] [COMMAND…]: the command with arguments from standard
 * input (echo without one); with -I R, the words holding R are replaced. */
static int h_xargs(struct tc *t)
{
	static const struct prog xargs = {
		"xargs",
		"-0 -a=r --arg-file=r -d=- --delimiter=- -E=- -e?- --eof?- -I=- -i?- --replace?- "
		"-L=- -l?- --max-lines?- -n=- --max-args=- -P=- --max-procs=- -p -r -s=- "
		"--max-chars=- -t -x -o --interactive --no-run-if-empty --verbose --exit "
		"--open-tty --null --process-slot-var=E --show-limits --help!N --version!N",
		"X",
		F_WRAP,
		NULL,
		NULL,
	};
	const char *mark = "";
	size_t before = t->out->n;

	/* the replace string: -I R, -IR, -i[R], --replace[=R] (or an
	 * abbreviation), also inside a cluster (-0I R); the arguments of
	 * other options are skipped */
	for (size_t i = 1; i < t->argc; i++) {
		const struct lf_shell_word *w = &t->argv[i];
		struct optdef d;
		if (!literal(w) || w->text[0] != '-' || w->len < 2 || !strcmp(w->text, "--"))
			break;
		if (w->text[1] == '-') {
			const char *eq = strchr(w->text, '=');
			if (long_may_be(w, "--replace"))
				mark = eq ? eq + 1 : "{}";
			else if (!eq && spec_find(xargs.opts, w->text, strlen(w->text), &d) &&
				 d.sep == '=')
				i++;
			continue;
		}
		for (size_t k = 1; k < w->len; k++) {
			char c = w->text[k];
			if (c == 'I' || c == 'i') {
				if (k + 1 < w->len)
					mark = w->text + k + 1;
				else if (c == 'i')
					mark = "{}";
				else if (i + 1 < t->argc)
					mark = t->argv[++i].text;
				break;
			}
			char nm[3] = { '-', c, '\0' };
			if (spec_find(xargs.opts, nm, 2, &d) && (d.sep == '=' || d.sep == '?')) {
				if (k + 1 == w->len && d.sep == '=')
					i++;
				break;
			}
		}
	}
	int r = engine(t, &xargs, 1);
	for (size_t k = before; k < t->out->n; k++) {
		struct sh_eff e = t->out->v[k];
		if (e.kind != SH_EF_CMD || e.words)
			continue;
		/* replaced words are unknown */
		t->out->v[k] = t->out->v[--t->out->n];
		eff_cmd_marked(t, e.from, e.to, e.open, mark);
		if (!mark[0])
			eff_cmd_stdin_args(t);
		break;
	}
	if (!t->ran_cmd && !t->no_cmd) {
		static const char *const echo[] = { "echo" };
		eff_words(t, SH_EF_CMD, echo, 1);
		t->out->v[t->out->n - 1].open = true;
	}
	return r;
}

/* The link ln makes in directory dir (NULL: the working directory) for
 * the target w: named as its last component (dir/a.c for src/a.c). */
static void ln_link_in(struct tc *t, const struct lf_shell_word *dir, const struct lf_shell_word *w)
{
	size_t e = w->len, b, dl = dir ? dir->len : 0;

	while (e > 1 && w->text[e - 1] == '/')
		e--;
	for (b = e; b > 0 && w->text[b - 1] != '/'; b--)
		;
	if (!literal(w) && !dir)
		return; /* the operand itself: the engine judged it */
	if (!literal(w))
		b = 0; /* its last component is not known: the whole word */
	else if (b == e && !dir)
		return; /* the operand itself: the engine judged it */
	struct lf_shell_word *v = sh_alloc(t->a, sizeof(*v));
	char *text = v ? sh_alloc(t->a, dl + 1 + e - b + 1) : NULL;
	if (!text) {
		t->out->nomem = true;
		return;
	}
	if (dir) {
		memcpy(text, dir->text, dl);
		text[dl++] = '/';
	}
	memcpy(text + dl, w->text + b, e - b);
	text[dl + e - b] = '\0';
	v->text = text;
	v->len = dl + e - b;
	v->flags = w->flags | (dir ? dir->flags : 0);
	apply_role(t, 'L', v, 0);
}

/*
 * ln with a single operand (and no -t) makes the link in the working
 * directory, named as the target's last component: `ln -s src/a.c`
 * writes ./a.c; with -t DIR each operand's link is DIR/its last
 * component. The engine judges the operand (or DIR) as written; the
 * links really made are judged too.
 */
static int h_ln(struct tc *t)
{
	const struct lf_shell_word *only = NULL, *dir = NULL;
	size_t ops = 0, opv[64], nopv = 0;
	bool target_dir = false, options = true;

	for (size_t i = 1; i < t->argc; i++) {
		const struct lf_shell_word *w = &t->argv[i];
		if (options && literal(w) && w->len > 1 && w->text[0] == '-') {
			if (word_is(w, "--")) {
				options = false;
			} else if (w->text[1] == '-') {
				const char *eq = strchr(w->text, '=');
				size_t nl = eq ? (size_t)(eq - w->text) : w->len;
				bool td = nl >= 3 && !strncmp("--target-directory", w->text, nl);
				bool suffix = nl >= 4 && !strncmp("--suffix", w->text, nl);
				if (td)
					dir = eq ? word_tail(t, w, nl + 1)
						 : (i + 1 < t->argc ? &t->argv[i + 1] : NULL);
				target_dir |= td;
				if ((td || suffix) && !eq)
					i++;
			} else {
				for (size_t k = 1; k < w->len; k++) {
					if (w->text[k] == 't' || w->text[k] == 'S') {
						bool td = w->text[k] == 't';
						target_dir |= td;
						if (k + 1 == w->len) {
							if (td && i + 1 < t->argc)
								dir = &t->argv[i + 1];
							i++;
						} else if (td) {
							dir = word_tail(t, w, k + 1);
						}
						break;
					}
				}
			}
			continue;
		}
		ops++;
		only = w;
		if (nopv < sizeof(opv) / sizeof(opv[0]))
			opv[nopv++] = i;
	}
	int r = engine(t, t->p, 1);
	if (r < 0 || t->out->nomem)
		return r < 0 ? r : -ENOMEM;
	if (target_dir && dir) {
		if (nopv < ops)
			eff_reason(t, "too many operands");
		for (size_t k = 0; k < nopv; k++)
			ln_link_in(t, dir, &t->argv[opv[k]]);
	} else if (ops == 1 && !target_dir) {
		ln_link_in(t, NULL, only);
	}
	return t->out->nomem ? -ENOMEM : r;
}

/* xargs-like and find: -exec COMMAND… ; or + */
static const char find_primaries_arg[] =
	"-name=- -iname=- -path=- -ipath=- -wholename=- -iwholename=- -regex=- -iregex=- "
	"-lname=- -ilname=- -type=- -xtype=- -user=- -group=- -uid=- -gid=- -perm=- -size=- "
	"-mtime=- -atime=- -ctime=- -mmin=- -amin=- -cmin=- -newer=r -anewer=r -cnewer=r "
	"-newer*=r -samefile=r -inum=- -links=- -maxdepth=- -mindepth=- -fstype=- -printf=- "
	"-context=- -used=- -regextype=- -files0-from=r -fprint=w -fprint0=w -fls=w "
	"-print -print0 -ls -prune -quit -depth -d -xdev -mount -follow -noleaf -true "
	"-false -empty -readable -writable -executable -nouser -nogroup -daystart "
	"-ignore_readdir_race -noignore_readdir_race -warn -nowarn -a -and -o -or -not "
	"-help -version";

/*
 * find -execdir, -okdir: the command runs in the directory of each file
 * found, so a relative path it opens is not in the working directory,
 * and the commands it runs in turn would open theirs there too: at best
 * ask. Its words holding {} (./NAME there, the file found) are unknown
 * words, as with -exec.
 */
static void find_execdir(struct tc *t)
{
	static const char why[] = "-execdir runs the command in directories found at run time";
	const struct sh_eff *c = t->out->n ? &t->out->v[t->out->n - 1] : NULL;
	struct sh_effs sub = { 0 };

	if (!c || c->kind != SH_EF_CMD || !c->words || !literal(&c->words[0]))
		return; /* out of memory, or a command the analysis asks for */
	if (sh_table_effects(t->a, c->words, c->nwords, &sub) < 0) {
		t->out->nomem = true;
		return;
	}
	for (size_t k = 0; k < sub.n; k++) {
		const struct sh_eff *e = &sub.v[k];
		const struct lf_shell_word *w = e->word;
		if (e->kind == SH_EF_CMD || e->kind == SH_EF_LINE || e->kind == SH_EF_JOINED ||
		    (e->kind == SH_EF_FILE &&
		     ((literal(w) && w->text[0] != '/' && w->text[0] != '~') ||
		      (e->base && e->base->text[0] != '/')))) {
			eff_reason(t, why);
			return;
		}
	}
}

static int h_find(struct tc *t)
{
	static const struct prog lead = { "find", "-H -L -P -D=- -O*", NULL, 0, NULL, NULL };
	size_t i = 1, first_path = 0, npaths = 0;
	bool delete = false;

	/* leading options */
	for (; i < t->argc; i++) {
		const struct lf_shell_word *w = &t->argv[i];
		struct optdef d;
		if (!literal(w) || w->text[0] != '-' || w->len < 2)
			break;
		if (!spec_find(lead.opts, w->text, w->len, &d))
			break;
		if (d.sep == '=')
			i++;
	}
	/* start points */
	first_path = i;
	for (; i < t->argc; i++) {
		const struct lf_shell_word *w = &t->argv[i];
		if (literal(w) &&
		    (w->text[0] == '-' || !strcmp(w->text, "(") || !strcmp(w->text, "!") ||
		     !strcmp(w->text, ")") || !strcmp(w->text, ",")))
			break;
		if (!literal(w) && !option_safe(w)) {
			eff_reason(t, "a find start point or test the shell expands");
			return 0;
		}
		npaths++;
	}
	/* the expression */
	for (; i < t->argc; i++) {
		const struct lf_shell_word *w = &t->argv[i];
		struct optdef d;
		if (!literal(w)) {
			eff_reason(t, "a find expression word the shell expands");
			return 0;
		}
		if (!strcmp(w->text, "(") || !strcmp(w->text, ")") || !strcmp(w->text, "!") ||
		    !strcmp(w->text, ","))
			continue;
		if (!strcmp(w->text, "-exec") || !strcmp(w->text, "-execdir") ||
		    !strcmp(w->text, "-ok") || !strcmp(w->text, "-okdir")) {
			size_t k = i + 1;
			while (k < t->argc && !word_is(&t->argv[k], ";") &&
			       !word_is(&t->argv[k], "+"))
				k++;
			if (k >= t->argc) {
				eff_reason(t, "a find -exec without its ';' or '+'");
				return 0;
			}
			eff_cmd_marked(t, i + 1, k, word_is(&t->argv[k], "+"), "{}");
			if (!strcmp(w->text, "-execdir") || !strcmp(w->text, "-okdir"))
				find_execdir(t);
			i = k;
			continue;
		}
		if (!strcmp(w->text, "-delete")) {
			delete = true;
			continue;
		}
		if (!spec_find(find_primaries_arg, w->text, w->len, &d)) {
			eff_reason(t, "a find primary this analysis does not know");
			return 0;
		}
		if (d.sep == '=') {
			if (i + 1 < t->argc)
				opt_role(t, d.role, &t->argv[i + 1], i + 1);
			i++;
		}
	}
	/* what it walks: read; with -delete, deleted */
	for (size_t k = first_path; k < first_path + npaths; k++)
		eff_file(t, delete ? LF_CAP_DELETE : LF_CAP_READ, &t->argv[k], true, delete);
	if (npaths == 0 && delete)
		eff_file(t, LF_CAP_DELETE, &word_here, true, true);
	return 0;
}

/* dd if=FILE of=FILE … */
static int h_dd(struct tc *t)
{
	for (size_t i = 1; i < t->argc; i++) {
		const struct lf_shell_word *w = &t->argv[i];
		if (!strncmp(w->text, "if=", 3))
			eff_file(t, LF_CAP_READ, word_tail(t, w, 3), true, false);
		else if (!strncmp(w->text, "of=", 3))
			eff_file(t, LF_CAP_WRITE, word_tail(t, w, 3), true, false);
		else if (!literal(w) && !memchr(w->text, '=', w->len))
			eff_reason(t, "a dd operand the shell expands");
	}
	return 0;
}

/*
 * A sed script: the commands that write (w, W, s///w), read (r, R) or
 * run (e, s///e) are found; anything this reader does not understand
 * asks.
 */
static const char *sed_script(struct tc *t, const char *s, size_t n)
{
	size_t i = 0;
	unsigned braces = 0;

#define SKIP_BLANKS()                                  \
	while (i < n && (s[i] == ' ' || s[i] == '\t')) \
	i++
	while (i < n) {
		SKIP_BLANKS();
		if (i >= n)
			break;
		if (s[i] == ';' || s[i] == '\n') {
			i++;
			continue;
		}
		/* addresses */
		for (int a = 0; a < 2; a++) {
			if (i < n && s[i] >= '0' && s[i] <= '9') {
				while (i < n && ((s[i] >= '0' && s[i] <= '9') || s[i] == '~'))
					i++;
			} else if (i < n && s[i] == '$') {
				i++;
			} else if (i < n && (s[i] == '/' || s[i] == '\\')) {
				char dl = s[i] == '\\' ? (i + 1 < n ? s[i + 1] : '/') : '/';
				i += s[i] == '\\' ? 2 : 1;
				while (i < n && s[i] != dl) {
					if (s[i] == '\\')
						i++;
					else if (s[i] == '\n')
						return "a sed script this analysis cannot read";
					i++;
				}
				if (i >= n)
					return "a sed script this analysis cannot read";
				i++;
				while (i < n && (s[i] == 'I' || s[i] == 'M'))
					i++;
			} else if (a == 1 && i < n && (s[i] == '+' || s[i] == '~')) {
				i++;
				while (i < n && s[i] >= '0' && s[i] <= '9')
					i++;
			}
			SKIP_BLANKS();
			if (a == 0 && i < n && s[i] == ',') {
				i++;
				SKIP_BLANKS();
				continue;
			}
			break;
		}
		SKIP_BLANKS();
		while (i < n && s[i] == '!') {
			i++;
			SKIP_BLANKS();
		}
		if (i >= n)
			return "a sed script this analysis cannot read";
		char c = s[i++];
		switch (c) {
		case '{':
			braces++;
			break;
		case '}':
			if (!braces)
				return "a sed script this analysis cannot read";
			braces--;
			break;
		case '#':
			while (i < n && s[i] != '\n')
				i++;
			break;
		case ':':
		case 'b':
		case 't':
		case 'T':
		case 'v':
			/* a label (and v's version) ends at a blank, ';' or a
			 * newline, as GNU sed reads it: in `:a w F`, `b x w F`
			 * and `v 4.2 w F`, w F is a command */
			SKIP_BLANKS();
			while (i < n && s[i] != ';' && !strchr(" \t\n\v\f\r", s[i]))
				i++;
			break;
		case 'a':
		case 'i':
		case 'c':
			/* text to the end of the line, with backslash continuation */
			while (i < n && s[i] != '\n') {
				if (s[i] == '\\')
					i++;
				i++;
			}
			break;
		case 'r':
		case 'R':
		case 'w':
		case 'W': {
			SKIP_BLANKS();
			size_t from = i;
			while (i < n && s[i] != '\n')
				i++;
			struct lf_shell_word *f = sh_alloc(t->a, sizeof(*f));
			char *name = f ? sh_strndup(t->a, s + from, i - from) : NULL;
			if (!name)
				return NULL;
			f->text = name;
			f->len = i - from;
			if (!strcmp(name, "/dev/stdout") || !strcmp(name, "/dev/stderr"))
				break;
			eff_file(t, c == 'r' || c == 'R' ? LF_CAP_READ : LF_CAP_WRITE, f, true,
				 false);
			break;
		}
		case 'e':
			return "sed runs a command (the e command)";
		case 's':
		case 'y': {
			if (i >= n || s[i] == '\n' || s[i] == '\\')
				return "a sed script this analysis cannot read";
			char dl = s[i++];
			for (int part = 0; part < 2; part++) {
				while (i < n && s[i] != dl) {
					if (s[i] == '\\')
						i++;
					i++;
				}
				if (i >= n)
					return "a sed script this analysis cannot read";
				i++;
			}
			if (c == 'y')
				break;
			while (i < n && strchr("gpiImM0123456789e", s[i])) {
				if (s[i] == 'e')
					return "sed runs a command (the e flag of s)";
				i++;
			}
			if (i < n && s[i] == 'w') {
				i++;
				SKIP_BLANKS();
				size_t from = i;
				while (i < n && s[i] != '\n')
					i++;
				struct lf_shell_word *f = sh_alloc(t->a, sizeof(*f));
				char *name = f ? sh_strndup(t->a, s + from, i - from) : NULL;
				if (!name)
					return NULL;
				f->text = name;
				f->len = i - from;
				if (strcmp(name, "/dev/stdout") != 0 &&
				    strcmp(name, "/dev/stderr") != 0)
					eff_file(t, LF_CAP_WRITE, f, true, false);
			}
			break;
		}
		case 'q':
		case 'Q':
		case 'l':
		case 'L':
			while (i < n && s[i] >= '0' && s[i] <= '9')
				i++;
			break;
		case '=':
		case 'd':
		case 'D':
		case 'g':
		case 'G':
		case 'h':
		case 'H':
		case 'n':
		case 'N':
		case 'p':
		case 'P':
		case 'x':
		case 'z':
		case 'F':
			break;
		default:
			return "a sed script this analysis cannot read";
		}
	}
#undef SKIP_BLANKS
	return NULL;
}

static int h_sed(struct tc *t)
{
	static const struct prog sed = {
		"sed",
		"-n -r -E -s -u -z -b --binary --quiet --silent --regexp-extended --separate "
		"--unbuffered "
		"--null-data --posix --debug --follow-symlinks --sandbox -l=- --line-length=- "
		"-i?W --in-place?W -e=- --expression=- -f=- --file=- --help!N --version!N",
		"r*",
		0,
		NULL,
		NULL,
	};
	bool sandbox = false, script_given = false;
	size_t i;

	/* the scripts: -e TEXT, -f FILE, or the first operand */
	for (i = 1; i < t->argc; i++) {
		const struct lf_shell_word *w = &t->argv[i];
		if (word_is(w, "--"))
			break;
		if (!literal(w) || w->text[0] != '-' || w->len < 2)
			continue;
		if (!strcmp(w->text, "--sandbox"))
			sandbox = true;
	}
	for (i = 1; i < t->argc; i++) {
		const struct lf_shell_word *w = &t->argv[i];
		const struct lf_shell_word *v = NULL;
		bool file = false;
		if (word_is(w, "--"))
			break;
		if (!literal(w) || w->text[0] != '-' || w->len < 2)
			continue;
		if (long_may_be(w, "--expression") || long_may_be(w, "--file")) {
			file = long_may_be(w, "--file");
			const char *eq = strchr(w->text, '=');
			v = eq ? word_tail(t, w, (size_t)(eq - w->text) + 1)
			       : (i + 1 < t->argc ? &t->argv[++i] : NULL);
		} else if (w->text[1] != '-') {
			for (size_t k = 1; k < w->len; k++) {
				if (w->text[k] == 'e' || w->text[k] == 'f') {
					file = w->text[k] == 'f';
					v = k + 1 < w->len
						    ? word_tail(t, w, k + 1)
						    : (i + 1 < t->argc ? &t->argv[++i] : NULL);
					break;
				}
				if (w->text[k] == 'l' || w->text[k] == 'i')
					break;
			}
		}
		if (!v)
			continue;
		script_given = true;
		if (file) {
			eff_file(t, LF_CAP_READ, v, true, false);
			if (!sandbox)
				eff_reason(t, "a sed script read from a file can run commands");
		} else if (!literal(v)) {
			if (!sandbox)
				eff_reason(t, "a sed script the shell expands");
		} else if (!sandbox) {
			const char *why = sed_script(t, v->text, v->len);
			if (why)
				eff_reason(t, why);
		}
	}
	/* the engine for -i and the file operands; the first operand is the
	 * script when no -e or -f gave one */
	struct tc sub = *t;
	sub.argv = t->argv;
	int r = 0;
	if (!script_given) {
		/* find the first operand */
		size_t k = 1;
		for (; k < t->argc; k++) {
			const struct lf_shell_word *w = &t->argv[k];
			struct optdef d;
			if (word_is(w, "--")) {
				k++;
				break;
			}
			if (!literal(w) || w->text[0] != '-' || w->len < 2)
				break;
			const char *eq = strchr(w->text, '=');
			size_t nl = eq ? (size_t)(eq - w->text) : w->len;
			/* an option whose argument is the next word */
			bool next_arg = w->text[1] == '-'
						? spec_find(sed.opts, w->text, nl, &d) &&
							  d.sep == '=' && !eq
						: w->len == 2 &&
							  spec_find(sed.opts, w->text, 2, &d) &&
							  d.sep == '=';
			if (next_arg)
				k++;
		}
		if (k < t->argc) {
			const struct lf_shell_word *v = &t->argv[k];
			if (!literal(v)) {
				if (!sandbox)
					eff_reason(t, "a sed script the shell expands");
			} else if (!sandbox) {
				const char *why = sed_script(t, v->text, v->len);
				if (why)
					eff_reason(t, why);
			}
			/* the rest without the script */
			struct lf_shell_word *copy = sh_alloc(t->a, t->argc * sizeof(*copy));
			if (!copy)
				return -ENOMEM;
			size_t n = 0;
			for (size_t j = 0; j < t->argc; j++)
				if (j != k)
					copy[n++] = t->argv[j];
			sub.argv = copy;
			sub.argc = n;
		}
	}
	r = engine(&sub, &sed, 1);
	t->unsure = sub.unsure;
	return r;
}

/*
 * An awk program: system(), pipes (| "cmd", "cmd" | getline), output
 * redirections in print and printf (a literal file name is a write), and
 * gawk's @load / @include and indirect calls.
 *
 * A '/' starts a regular expression where an operand may start and is a
 * division after one: after a name, a number, a string, a regular
 * expression, ')', ']', ++ or --, as mawk and gawk read it. Where they
 * differ (after the ')' of an if, while or for condition, after a bare
 * length, a '/' inside a bracket expression) the program asks: a quote
 * or a '>' inside what one awk takes for a regular expression is code
 * for the other.
 */
static bool awk_regex_keyword(const char *s, size_t l)
{
	static const char *const kw[] = { "print", "printf", "return",	 "case",   "do",
					  "else",  "in",     "exit",	 "delete", "BEGIN",
					  "END",   "func",   "function", NULL };
	for (size_t k = 0; kw[k]; k++)
		if (strlen(kw[k]) == l && !memcmp(s, kw[k], l))
			return true;
	return false;
}

/* The end of the regular expression opening at s[i] ('/'), or n. */
static size_t awk_regex_end(const char *s, size_t n, size_t i, bool brackets)
{
	for (i++; i < n && s[i] != '/'; i++) {
		if (s[i] == '\\') {
			i++;
		} else if (brackets && s[i] == '[') {
			size_t j = i + 1;
			if (j < n && s[j] == '^')
				j++;
			if (j < n && s[j] == ']')
				j++;
			while (j < n && s[j] != ']' && s[j] != '\n') {
				if (s[j] == '[' && j + 1 < n && strchr(":.=", s[j + 1])) {
					char close = s[j + 1];
					for (j += 2;
					     j + 1 < n && !(s[j] == close && s[j + 1] == ']'); j++)
						;
					j++;
				}
				j++;
			}
			if (j >= n)
				return n;
			i = j;
		}
	}
	return i;
}

static const char *awk_program(struct tc *t, const char *s, size_t n)
{
	enum {
		A_START,
		A_OPERAND,
		A_AMBIGUOUS
	} prev = A_START;
	bool in_print = false, cond_next = false;
	unsigned parens = 0, depth = 0;
	uint64_t cond = 0; /* bit d: the paren at depth d is a condition's */

	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		/* blanks, and a backslash-newline, separate tokens */
		if (c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f')
			continue;
		if (c == '\\' && i + 1 < n && s[i + 1] == '\n') {
			i++;
			continue;
		}
		if (c == '"') {
			for (i++; i < n && s[i] != '"'; i++)
				if (s[i] == '\\')
					i++;
			prev = A_OPERAND;
			cond_next = false;
			continue;
		}
		if (c == '#') {
			while (i < n && s[i] != '\n')
				i++;
			prev = A_START;
			continue;
		}
		if (c == '/' && prev != A_OPERAND) {
			if (prev == A_AMBIGUOUS)
				return "an awk program this analysis cannot read ('/' after a "
				       "condition or length)";
			size_t e = awk_regex_end(s, n, i, false);
			if (e != awk_regex_end(s, n, i, true))
				return "an awk program this analysis cannot read ('/' in a bracket "
				       "expression)";
			i = e;
			prev = A_OPERAND;
			cond_next = false;
			continue;
		}
		if (c == '@')
			return "awk runs a command or loads code (@load, @include, an indirect "
			       "call)";
		if (((c | 0x20) >= 'a' && (c | 0x20) <= 'z') || c == '_' ||
		    (c >= '0' && c <= '9') || c == '.') {
			size_t j = i;
			while (j < n &&
			       (((s[j] | 0x20) >= 'a' && (s[j] | 0x20) <= 'z') || s[j] == '_' ||
				(s[j] >= '0' && s[j] <= '9') || s[j] == '.'))
				j++;
			size_t l = j - i;
			if (l == 6 && !memcmp(s + i, "system", 6))
				return "awk runs a command or loads code (system, @load, @include)";
			if ((l == 5 && !memcmp(s + i, "print", 5)) ||
			    (l == 6 && !memcmp(s + i, "printf", 6))) {
				in_print = true;
				parens = 0;
			}
			cond_next = (l == 2 && !memcmp(s + i, "if", 2)) ||
				    (l == 5 && !memcmp(s + i, "while", 5)) ||
				    (l == 3 && !memcmp(s + i, "for", 3));
			if (l == 6 && !memcmp(s + i, "length", 6))
				prev = A_AMBIGUOUS;
			else
				prev = awk_regex_keyword(s + i, l) ? A_START : A_OPERAND;
			i = j - 1;
			continue;
		}
		if (c == '|') {
			if (i + 1 < n && s[i + 1] == '|') {
				i++;
				prev = A_START;
				cond_next = false;
				continue;
			}
			return "awk runs a command through a pipe";
		}
		if ((c == '+' || c == '-') && i + 1 < n && s[i + 1] == c) {
			i++;
			prev = A_OPERAND;
			cond_next = false;
			continue;
		}
		if (c == '(') {
			parens++;
			if (depth >= 64)
				return "an awk program this analysis cannot read (nesting)";
			cond = cond_next ? cond | (UINT64_C(1) << depth)
					 : cond & ~(UINT64_C(1) << depth);
			depth++;
			cond_next = false;
			prev = A_START;
			continue;
		}
		cond_next = false;
		if (c == ')') {
			if (parens)
				parens--;
			if (depth)
				depth--;
			prev = (cond & (UINT64_C(1) << depth)) ? A_AMBIGUOUS : A_OPERAND;
			continue;
		}
		if (c == ']') {
			prev = A_OPERAND;
			continue;
		}
		prev = A_START;
		if (c == ';' || c == '\n' || c == '}' || c == '{')
			in_print = false;
		if (c == '>' && in_print && parens == 0) {
			size_t j = i + 1;
			if (j < n && s[j] == '>')
				j++;
			while (j < n && (s[j] == ' ' || s[j] == '\t'))
				j++;
			if (j < n && s[j] == '"') {
				size_t e = j + 1;
				while (e < n && s[e] != '"' && s[e] != '\\')
					e++;
				size_t after = e + 1;
				while (after < n && (s[after] == ' ' || s[after] == '\t'))
					after++;
				/* the name is the whole expression after '>':
				 * print > "a" "b" writes ab */
				if (e < n && s[e] == '"' &&
				    (after >= n || strchr(";\n}#", s[after]))) {
					struct lf_shell_word *f = sh_alloc(t->a, sizeof(*f));
					char *name =
						f ? sh_strndup(t->a, s + j + 1, e - j - 1) : NULL;
					if (!name)
						return NULL;
					f->text = name;
					f->len = e - j - 1;
					if (strcmp(name, "/dev/stdout") != 0 &&
					    strcmp(name, "/dev/stderr") != 0)
						eff_file(t, LF_CAP_WRITE, f, true, false);
					i = e;
					prev = A_OPERAND;
					continue;
				}
			}
			return "awk writes to a file named at run time";
		}
	}
	return NULL;
}

static int h_awk(struct tc *t)
{
	static const char opts[] =
		"-F=- -v=- -f=k -e=- --source=- --file=k -E=k --exec=k -i=c --include=c -l=c "
		"--load=c -o?w --pretty-print?w -p?w --profile?w -d?w --dump-variables?w -D?a "
		"--debug?a -W=a -b -c -C -g -h -L?- -M -n -N -O -P -r -s -S -t -V "
		"--characters-as-bytes --traditional --copyright --gen-pot --help --lint?- "
		"--bignum --use-lc-numeric --non-decimal-data --optimize --posix --re-interval "
		"--no-optimize --sandbox --lint-old --version --field-separator=- --assign=-";
	static const struct prog awk = { "awk", opts, "m*", 0, NULL, NULL };
	bool program_given = false;
	size_t i = 1;

	for (; i < t->argc; i++) {
		const struct lf_shell_word *w = &t->argv[i];
		struct optdef d;
		if (!literal(w)) {
			if (!option_safe(w)) {
				eff_reason(t, R_WILD_OPT);
				return 0;
			}
			break;
		}
		if (w->text[0] != '-' || w->len < 2)
			break;
		if (!strcmp(w->text, "--")) {
			i++;
			break;
		}
		const char *eq = w->text[1] == '-' ? strchr(w->text, '=') : NULL;
		size_t nl = eq ? (size_t)(eq - w->text) : w->text[1] == '-' ? w->len : 2;
		if (!spec_find(opts, w->text, nl, &d)) {
			t->unsure = true;
			continue;
		}
		const struct lf_shell_word *v = NULL;
		if (d.sep == '=' || d.sep == '?') {
			if (eq)
				v = word_tail(t, w, nl + 1);
			else if (w->text[1] != '-' && w->len > 2)
				v = word_tail(t, w, 2);
			else if (d.sep == '=' && i + 1 < t->argc)
				v = &t->argv[++i];
		}
		if (!strcmp(w->text, "-e") || long_may_be(w, "--source") ||
		    (w->text[1] == 'e' && w->text[0] == '-' && w->len > 2)) {
			program_given = true;
			if (v && !literal(v))
				eff_reason(t, "an awk program the shell expands");
			else if (v) {
				const char *why = awk_program(t, v->text, v->len);
				if (why)
					eff_reason(t, why);
			}
			continue;
		}
		if (d.role == 'k')
			program_given = true;
		if (v || d.sep == '!' || d.sep == '?')
			opt_role(t, d.role, v, i);
	}
	if (!program_given) {
		if (i >= t->argc) {
			return 0;
		}
		const struct lf_shell_word *v = &t->argv[i++];
		if (!literal(v))
			eff_reason(t, "an awk program the shell expands");
		else {
			const char *why = awk_program(t, v->text, v->len);
			if (why)
				eff_reason(t, why);
		}
	}
	/* operands: files read, or VAR=value assignments */
	for (; i < t->argc; i++) {
		const struct lf_shell_word *w = &t->argv[i];
		if (literal(w) && is_assignment_word(w))
			continue;
		eff_file(t, LF_CAP_READ, w, !t->unsure, false);
	}
	(void)awk;
	return 0;
}

/* tar: the mode decides what -f and the operands are. */
static int h_tar(struct tc *t)
{
	static const char opts[] =
		"-A!- -c!- -d!- -r!- -t!- -u!- -x!- --catenate --concatenate --create --diff "
		"--compare --delete --append --list --test-label --update --extract --get "
		"-f=- --file=- -C=- --directory=- -T=r --files-from=r -X=r --exclude-from=r "
		"-g=w --listed-incremental=w --index-file=w -I=p --use-compress-program=p "
		"--to-command=s -F=s --info-script=s --new-volume-script=s --rsh-command=p "
		"--rmt-command=a --checkpoint-action=- -P!a --absolute-names!a --remove-files "
		"-b=- --blocking-factor=- -H=- --format=- -K=- --starting-file=- -L=- "
		"--tape-length=- -N=- --newer=- --after-date=- --newer-mtime=- -V=- --label=- "
		"--exclude=- --transform=- --xform=- --strip-components=- --owner=- --group=- "
		"--mode=- --mtime=- --suffix=- --backup?- --checkpoint?- --sort=- --occurrence?- "
		"--record-size=- --volno-file=w --quoting-style=- --hole-detection=- "
		"--exclude-tag=- --exclude-tag-all=- --exclude-tag-under=- --owner-map=- "
		"--group-map=- --pax-option=- --warning=- --xattrs-include=- --xattrs-exclude=- "
		"-a -j -J -z -Z -v -k -m -o -O -p -s -S -U -W -h -i -l -M -n -R -w -B -G --zstd "
		"--lzip --lzma --lzop --gzip --gunzip --ungzip --bzip2 --xz --compress "
		"--uncompress --auto-compress --verbose --keep-old-files --overwrite "
		"--overwrite-dir --unlink-first --recursive-unlink --touch --preserve-permissions "
		"--same-permissions --same-owner --no-same-owner --numeric-owner "
		"--no-same-permissions --sparse --to-stdout --dereference --hard-dereference "
		"--ignore-zeros --one-file-system --wildcards --no-wildcards --anchored "
		"--no-anchored --ignore-case --no-recursion --recursion --null --no-null "
		"--totals?- --show-transformed-names --utc --xattrs --no-xattrs --acls --selinux "
		"--interactive --verify --multi-volume --force-local --keep-newer-files "
		"--keep-directory-symlink --delay-directory-restore --seek --no-seek --help "
		"--version --usage --show-defaults --full-time --check-links --block-number "
		"--ignore-failed-read --ignore-command-error --no-ignore-command-error "
		"--exclude-backups --exclude-caches --exclude-caches-all --exclude-caches-under "
		"--exclude-vcs --exclude-vcs-ignores --remove-files --restrict --no-auto-compress";
	char mode = '\0';
	const struct lf_shell_word *archive = NULL, *dir = NULL;
	bool stdout_only = false, remove = false;
	struct lf_shell_word *copy = sh_alloc(t->a, (t->argc + 64) * sizeof(*copy));
	size_t n = 0, i = 1;

	if (!copy)
		return -ENOMEM;
	copy[n++] = t->argv[0];
	/* old style: "tar xzf ARCHIVE": letters without a dash, and the words
	 * after them are the arguments of the letters that take one */
	if (i < t->argc && literal(&t->argv[i]) && t->argv[i].text[0] != '-' && t->argv[i].len) {
		const struct lf_shell_word *w = &t->argv[i++];
		for (size_t k = 0; k < w->len && n < t->argc + 60; k++) {
			struct lf_shell_word *o = sh_alloc(t->a, sizeof(*o));
			char *txt = sh_alloc(t->a, 3);
			if (!o || !txt)
				return -ENOMEM;
			txt[0] = '-';
			txt[1] = w->text[k];
			o->text = txt;
			o->len = 2;
			copy[n++] = *o;
			struct optdef d;
			if (spec_find(opts, txt, 2, &d) && d.sep == '=' && i < t->argc)
				copy[n++] = t->argv[i++];
		}
	}
	for (; i < t->argc; i++)
		copy[n++] = t->argv[i];
	/* the mode, -f, -C, -O */
	for (i = 1; i < n; i++) {
		const struct lf_shell_word *w = &copy[i];
		if (word_is(w, "--"))
			break;
		if (!literal(w) || w->text[0] != '-' || w->len < 2)
			continue;
		const char *s = w->text;
		if (s[1] == '-') {
			const char *eq = strchr(s, '=');
			size_t nl = eq ? (size_t)(eq - s) : strlen(s);
			const struct lf_shell_word *v =
				eq ? word_tail(t, w, nl + 1) : (i + 1 < n ? &copy[i + 1] : NULL);
			if (nl > 3 && !strncmp(s, "--file", nl)) {
				archive = v;
				i += eq ? 0 : 1;
			} else if (nl > 3 && !strncmp(s, "--directory", nl)) {
				dir = v;
				i += eq ? 0 : 1;
			} else if (!strncmp(s, "--create", nl) || !strncmp(s, "--append", nl) ||
				   !strncmp(s, "--update", nl) || !strncmp(s, "--catenate", nl) ||
				   !strncmp(s, "--concatenate", nl) ||
				   !strncmp(s, "--delete", nl)) {
				mode = 'c';
			} else if (!strncmp(s, "--extract", nl) || !strncmp(s, "--get", nl)) {
				mode = mode ? mode : 'x';
			} else if (!strncmp(s, "--list", nl) || !strncmp(s, "--diff", nl) ||
				   !strncmp(s, "--compare", nl)) {
				mode = mode ? mode : 't';
			} else if (!strncmp(s, "--to-stdout", nl)) {
				stdout_only = true;
			} else if (!strncmp(s, "--remove-files", nl)) {
				remove = true;
			}
			continue;
		}
		for (size_t k = 1; k < w->len; k++) {
			char c = s[k];
			if (c == 'c' || c == 'r' || c == 'u' || c == 'A')
				mode = 'c';
			else if (c == 'x')
				mode = mode ? mode : 'x';
			else if (c == 't' || c == 'd')
				mode = mode ? mode : 't';
			else if (c == 'O')
				stdout_only = true;
			struct optdef d;
			char nm[3] = { '-', c, 0 };
			if (spec_find(opts, nm, 2, &d) && d.sep == '=') {
				const struct lf_shell_word *v =
					k + 1 < w->len ? word_tail(t, w, k + 1)
						       : (i + 1 < n ? &copy[i + 1] : NULL);
				if (c == 'f')
					archive = v;
				if (c == 'C')
					dir = v;
				if (k + 1 >= w->len)
					i++;
				break;
			}
		}
	}
	/* --checkpoint-action=exec=COMMAND runs COMMAND through a shell */
	for (i = 1; i < n; i++) {
		const struct lf_shell_word *w = &copy[i];
		const struct lf_shell_word *v = NULL;
		/* the option or an abbreviation (--checkpoint alone is another) */
		size_t nl = strcspn(w->text, "=");
		if (nl <= 12 || nl > 19 || memcmp(w->text, "--checkpoint-action", nl) != 0)
			continue;
		if (!literal(w)) {
			eff_reason(t, "a tar checkpoint action the shell expands");
			continue;
		}
		if (w->text[nl] == '=')
			v = word_tail(t, w, nl + 1);
		else if (i + 1 < n)
			v = &copy[i + 1];
		if (v && !literal(v))
			eff_reason(t, "a tar checkpoint action the shell expands");
		else if (v && !strncmp(v->text, "exec=", 5))
			eff_line(t, word_tail(t, v, 5), 0,
				 "the checkpoint command is not a literal");
	}
	struct tc sub = *t;
	sub.argv = copy;
	sub.argc = n;
	struct prog tp = { "tar", opts, mode == 'c' ? "r*" : "-*", 0, NULL, NULL };
	if (mode == 'c' && dir)
		sub.base = dir;
	if (remove)
		tp.operands = "d*";
	int r = engine(&sub, &tp, 1);
	t->unsure = sub.unsure;
	if (archive)
		eff_file(t, mode == 'c' ? LF_CAP_WRITE : LF_CAP_READ, archive, true, false);
	/* a compression option: tar runs the compressor through sh -c */
	static const struct {
		char letter;
		const char *lng, *prog;
	} comp[] = {
		{ 'z', "--gzip", "gzip" },
		{ 'z', "--gunzip", "gzip" },
		{ 'z', "--ungzip", "gzip" },
		{ 'j', "--bzip2", "bzip2" },
		{ 'J', "--xz", "xz" },
		{ 'Z', "--compress", "compress" },
		{ 0, "--zstd", "zstd" },
		{ 0, "--lzip", "lzip" },
		{ 0, "--lzma", "lzma" },
		{ 0, "--lzop", "lzop" },
		{ 'a', "--auto-compress", "gzip" },
	};
	const char *prog = NULL;
	for (i = 1; i < n && !prog; i++) {
		const struct lf_shell_word *w = &copy[i];
		if (!literal(w) || w->text[0] != '-')
			continue;
		for (size_t c = 0; c < sizeof(comp) / sizeof(comp[0]) && !prog; c++) {
			if (w->text[1] == '-'
				    ? long_may_be(w, comp[c].lng)
				    : comp[c].letter && strchr(w->text + 1, comp[c].letter) &&
					      strcspn(w->text + 1, "fCTXgbHKLNV") >
						      (size_t)(strchr(w->text + 1, comp[c].letter) -
							       (w->text + 1)))
				prog = comp[c].prog;
		}
	}
	if (prog) {
		const char *const sh[] = { "sh", "-c", prog };
		eff_words(t, SH_EF_ARGV, sh, 3);
		eff_words(t, SH_EF_CMD, &prog, 1);
	}
	if (mode == 'x' && !stdout_only) {
		/* members of its choosing, symbolic links among them */
		bool save = t->links;
		t->links = true;
		eff_file(t, LF_CAP_WRITE, dir ? dir : &word_here, true, true);
		t->links = save;
	}
	return r;
}

/* unzip ARCHIVE [MEMBER…] [-d DIR]: extracts into DIR or the working
 * directory, unless it only lists, tests or prints. */
static int h_unzip(struct tc *t)
{
	static const struct prog unzip = { "unzip",
					   "-d=- -p!R -l!R -t!R -v!R -Z!R -c!R -x=- -o -n -q -j -a "
					   "-b -C -L -X -K -M -U -V -W -D -f -u -z -P=-",
					   "r-*",
					   0,
					   NULL,
					   NULL };
	const struct lf_shell_word *dir = NULL;

	for (size_t i = 1; i + 1 < t->argc; i++)
		if (word_is(&t->argv[i], "-d"))
			dir = &t->argv[i + 1];
	int r = engine(t, &unzip, 1);
	if (!t->read_only) {
		t->links = true;
		eff_file(t, LF_CAP_WRITE, dir ? dir : &word_here, true, true);
		t->links = false;
	}
	return r;
}

/* mktemp [TEMPLATE]: writes the template's file (its X's replaced), or
 * one in $TMPDIR, which is not known here. */
static int h_mktemp(struct tc *t)
{
	static const struct prog mktemp = { "mktemp",
					    "-d -q -u!R --dry-run!R -p=t --tmpdir?t -t "
					    "--suffix=- --directory --quiet --help!N --version!N",
					    "w",
					    0,
					    NULL,
					    NULL };
	bool dir_given = false;

	for (size_t i = 1; i < t->argc; i++)
		if (literal(&t->argv[i]) && (!strncmp(t->argv[i].text, "-p", 2) ||
					     !strncmp(t->argv[i].text, "--tmpdir=", 9)))
			dir_given = true;
	int r = engine(t, &mktemp, 1);
	if (!t->any_operand && !dir_given && !t->read_only && !t->no_cmd)
		eff_reason(t, "mktemp writes a file in $TMPDIR, which is not known here");
	return r;
}

/* make: a VAR=VALUE operand (also :=, ::=, +=, ?=, !=) overrides the
 * makefile's variable, and recipes run what the variables say (CC, RM,
 * SHELL …): at best ask, as CC=x make is; so is -e, which lets the
 * environment override them. */
static int h_make(struct tc *t)
{
	static const struct prog make = {
		"make",
		"-b -m -B -d -e!a -i -k -n -p -q -r -R -s -S -t -v -w -L -O?- -j?- -l?- "
		"--always-make --debug?- --environment-overrides!a --ignore-errors --keep-going "
		"--just-print --dry-run --recon --print-data-base --question --no-builtin-rules "
		"--no-builtin-variables --silent --quiet --no-silent --stop --touch --trace "
		"--version!N --print-directory --no-print-directory --warn-undefined-variables "
		"--check-symlink-times --jobs?- --load-average?- --output-sync?- --help!N "
		"-C=C --directory=C -f=k --file=k --makefile=k -I=- --include-dir=- "
		"-o=- --old-file=- --assume-old=- -W=- --what-if=- --new-file=- --assume-new=- "
		"--eval=c -E=c --jobserver-auth=- --jobserver-style=- --shuffle?-",
		"-*",
		0,
		NULL,
		NULL,
	};
	for (size_t i = 1; i < t->argc; i++) {
		const struct lf_shell_word *w = &t->argv[i];
		if (!literal(w) && w->text[0] != '-') {
			if (memchr(w->text, '=', w->len) || !option_safe(w))
				eff_wild(t,
					 "a make argument the shell expands could set a variable");
			continue;
		}
		const char *eq = memchr(w->text, '=', w->len);
		if (w->text[0] == '-' || !eq)
			continue;
		eff_reason(t, "a make variable set on the command line changes what its recipes "
			      "run");
		break;
	}
	return engine(t, &make, 1);
}

/* ------------------------------------------------------------------------
 * git.
 */
/* Config keys that make git run another command than the one written, or
 * any program (core.pager, alias.*, a filter, a credential helper, …). */
static bool git_key_runs(const struct lf_shell_word *w)
{
	static const char *const sections[] = {
		"alias.",	"core.",       "credential.",  "diff.",		 "difftool.",
		"filter.",	"gpg.",	       "merge.",       "mergetool.",	 "pager.",
		"protocol.",	"remote.",     "sequence.",    "ssh.",		 "uploadpack.",
		"receivepack.", "url.",	       "include.",     "includeif.",	 "sendemail.",
		"http.",	"man.",	       "web.",	       "hook.",		 "submodule.",
		"gc.",		"browser.",    "instaweb.",    "interactive.",	 "pull.",
		"rebase.",	"fetch.",      "push.",	       "tag.",		 "commit.",
		"log.",		"safe.",       "init.",	       "uploadarchive.", "transfer.",
		"fsmonitor.",	"splitindex.", "format.",      "notes.",	 "trailer.",
		"clone.",	"worktree.",   "maintenance.", "blame.",	 "grep.",
	};

	if (!literal(w))
		return true;
	for (size_t k = 0; k < sizeof(sections) / sizeof(sections[0]); k++)
		if (!strncasecmp(w->text, sections[k], strlen(sections[k])))
			return true;
	return false;
}

struct git_sub {
	const char *name;
	const char *opts;
	const char *operands;
	unsigned flags;
};

#define GIT_EDITOR 0x100u /* opens an editor unless a message is given */
#define GIT_WT 0x200u	  /* pathspec operands are written (checkout -- FILE) */
/* rewrites files of the work tree wherever the commits or patches say
 * (merge, pull, switch, rebase, …): judged as a write below the directory
 * it runs in (git_tree) */
#define GIT_TREE 0x400u

/* Diff-family options common to log, show, diff, format-patch, … */
#define GIT_DIFF_OPTS                                                                             \
	"--output=w --output-directory=t --ext-diff!a --textconv!a -O=r --open-files-in-pager?a " \
	"--exec=a --upload-pack=a --receive-pack=a -u=a --template=a --config=a --config-env=a "

static const struct git_sub git_subs[] = {
	{ "add", "-e!a --edit!a --pathspec-from-file=r " GIT_DIFF_OPTS, "m*", 0 },
	{ "am", "--directory=t " GIT_DIFF_OPTS, "r*", GIT_TREE },
	{ "annotate", GIT_DIFF_OPTS, "m*", 0 },
	{ "apply", "--directory=t --unsafe-paths!a --output=w " GIT_DIFF_OPTS, "r*", GIT_TREE },
	{ "archive", "-o=w --output=w --remote=a --exec=a", "-*", 0 },
	{ "bisect", "", "-*", 0 },
	{ "blame", "--contents=r -S=r " GIT_DIFF_OPTS, "m*", 0 },
	{ "branch", "-m -M -c -C -d -D --edit-description!a " GIT_DIFF_OPTS, "-*", 0 },
	{ "bundle", "", "-*", 0 },
	{ "cat-file", "--filters --textconv!a", "-*", 0 },
	{ "check-attr", "", "-*", 0 },
	{ "check-ignore", "", "m*", 0 },
	{ "checkout", "-b=- -B=- --orphan=- --pathspec-from-file=r " GIT_DIFF_OPTS, "m*", GIT_WT },
	{ "cherry", "", "-*", 0 },
	{ "cherry-pick", "-e!a --edit!a -x " GIT_DIFF_OPTS, "-*", GIT_TREE },
	{ "clean",
	  "-d -f -x -X -n -q -i!a --interactive!a -e=- --exclude=- --dry-run --force "
	  "--quiet",
	  "d*", 0 },
	{ "clone",
	  "--template=a -u=a --upload-pack=a --config=a -c=a --separate-git-dir=t "
	  "--reference=r --reference-if-able=r -o=- --origin=- -b=- --branch=- "
	  "--depth=- --shallow-since=- --shallow-exclude=- -j=- --jobs=- --filter=- "
	  "--server-option=- --bundle-uri=a",
	  "-t", 0 },
	{ "commit",
	  "-m=M --message=M -F=Q --file=Q -C=M --reuse-message=M --no-edit!M "
	  "--fixup=M --squash=- -c=- --reedit-message=- -e!a --edit!a -t=a --template=a "
	  "--pathspec-from-file=r --author=- --date=- --trailer=- --cleanup=- -S?- "
	  "--gpg-sign?- --dry-run!M " GIT_DIFF_OPTS,
	  "m*", GIT_EDITOR },
	{ "config", "", "-*", 0 },
	{ "count-objects", "", "-*", 0 },
	{ "describe", "", "-*", 0 },
	{ "diff", GIT_DIFF_OPTS, "m*", 0 },
	{ "diff-files", GIT_DIFF_OPTS, "m*", 0 },
	{ "diff-index", GIT_DIFF_OPTS, "m*", 0 },
	{ "diff-tree", GIT_DIFF_OPTS, "m*", 0 },
	{ "difftool", "", "-*", 0 },
	{ "fetch",
	  "--upload-pack=a -u=a --recurse-submodules?- --negotiation-tip=- "
	  "--server-option=- -o=- --depth=- --deepen=- --shallow-since=- "
	  "--shallow-exclude=- --refmap=- -j=- --jobs=-",
	  "-*", 0 },
	{ "for-each-ref",
	  "--format=- --sort=- --points-at=- --merged?- --no-merged?- "
	  "--contains?- --no-contains?- --count=-",
	  "-*", 0 },
	{ "format-patch", "-o=t --output-directory=t " GIT_DIFF_OPTS, "-*", 0 },
	{ "fsck", "", "-*", 0 },
	{ "gc", "", "-*", 0 },
	{ "grep", "-O?a --open-files-in-pager?a -f=r -e=- " GIT_DIFF_OPTS, "-m*", 0 },
	{ "hash-object", "-w --path=- --stdin --stdin-paths", "m*", 0 },
	{ "help", "", "-*", 0 },
	{ "init",
	  "--template=a --separate-git-dir=t -b=- --initial-branch=- --shared?- "
	  "--object-format=-",
	  "t", 0 },
	{ "log", GIT_DIFF_OPTS, "-*", 0 },
	{ "ls-files",
	  "-x=- --exclude=- -X=r --exclude-from=r --exclude-per-directory=- "
	  "--format=- --with-tree=-",
	  "m*", 0 },
	{ "ls-remote", "--upload-pack=a --exec=a -o=- --server-option=- --sort=-", "-*", 0 },
	{ "ls-tree", "--format=- --abbrev?-", "-*", 0 },
	{ "merge",
	  "-e!a --edit!a -m=- -F=r --file=r -X=- -s=- --strategy=- "
	  "--strategy-option=- --into-name=- " GIT_DIFF_OPTS,
	  "-*", GIT_TREE },
	{ "merge-base", "", "-*", 0 },
	{ "mergetool", "", "-*", 0 },
	{ "mv", "", "d*w", 0 },
	{ "notes", "", "-*", 0 },
	{ "pull",
	  "--upload-pack=a -u=a -e!a --edit!a -X=- -s=- --strategy=- "
	  "--strategy-option=- --depth=- -j=- --jobs=- -o=-",
	  "-*", GIT_TREE },
	{ "push",
	  "--receive-pack=a --exec=a --repo=- -o=- --push-option=- "
	  "--force-with-lease?- --recurse-submodules=-",
	  "-*", 0 },
	{ "range-diff", GIT_DIFF_OPTS, "-*", 0 },
	{ "rebase",
	  "-x=s --exec=s -i!a --interactive!a -e!a --edit-todo!a -s=- --strategy=- "
	  "-X=- --strategy-option=- --onto=- -S?- --gpg-sign?- --empty=- --whitespace=- "
	  "-C=- --rebase-merges?- --autosquash --no-autosquash",
	  "-*", GIT_TREE },
	{ "reflog", "", "-*", 0 },
	{ "remote", "", "-*", 0 },
	{ "reset", "--pathspec-from-file=r", "m*", GIT_WT | GIT_TREE },
	{ "restore", "-s=- --source=- --pathspec-from-file=r", "m*", GIT_WT },
	{ "rev-list", "", "-*", 0 },
	{ "rev-parse", "", "-*", 0 },
	{ "revert",
	  "-e!a --edit!a -m=- --mainline=- -X=- -s=- --strategy=- "
	  "--strategy-option=- -S?- --gpg-sign?-",
	  "-*", GIT_TREE },
	{ "rm", "--pathspec-from-file=r", "d*", 0 },
	{ "shortlog", "--format=- -w?- -c --group=-", "-*", 0 },
	{ "show", GIT_DIFF_OPTS, "-*", 0 },
	{ "show-branch", "", "-*", 0 },
	{ "show-ref", "", "-*", 0 },
	{ "sparse-checkout", "", "-*", GIT_TREE },
	{ "stash", "-m=- --message=- --pathspec-from-file=r", "-*", GIT_TREE },
	{ "status",
	  "--porcelain?- --untracked-files?- -u?- --ignore-submodules?- "
	  "--ignored?- --column?- --find-renames?- -M?-",
	  "m*", 0 },
	{ "submodule", "", "-*", 0 },
	{ "switch",
	  "-c=- -C=- --create=- --force-create=- --orphan=- --conflict=- -t?- "
	  "--track?-",
	  "-*", GIT_TREE },
	{ "symbolic-ref", "-m=-", "-*", 0 },
	{ "tag",
	  "-m=M --message=M -F=Q --file=Q -e!a --edit!a -a!A --annotate!A -s!A --sign!A "
	  "-u=A --local-user=A --cleanup=- --sort=- --format=- "
	  "--contains?- --no-contains?- --merged?- --no-merged?- --points-at=- -n?- "
	  "--column?- --trailer=-",
	  "-*", 0 },
	{ "update-index", "--index-info --stdin --cacheinfo=-", "m*", 0 },
	{ "update-ref", "-m=-", "-*", 0 },
	{ "verify-commit", "", "-*", 0 },
	{ "verify-tag", "", "-*", 0 },
	{ "version", "", "-*", 0 },
	{ "whatchanged", GIT_DIFF_OPTS, "-*", 0 },
	{ "worktree", "", "-*", 0 },
	{ "write-tree", "", "-*", 0 },
};

/* Whether a GIT_TREE subcommand, with these words, leaves the work tree
 * alone: reset without --hard, --merge or --keep moves HEAD and the
 * index only; apply --cached/--check/--stat… touches no file; stash list,
 * show, drop, clear and create read or drop stashes. */
static bool git_tree_untouched(const char *sub, const struct lf_shell_word *argv, size_t from,
			       size_t argc)
{
	static const char *const apply_no_tree[] = { "--cached",  "--check",   "--stat",
						     "--numstat", "--summary", NULL };
	static const char *const stash_no_tree[] = { "list",   "show",	"drop", "clear",
						     "create", "store", NULL };
	bool reset = !strcmp(sub, "reset"), apply = !strcmp(sub, "apply");

	for (size_t k = from; k < argc; k++) {
		const struct lf_shell_word *w = &argv[k];

		if (!literal(w))
			return false; /* an option the shell makes: it may be --hard */
		if (reset && (long_may_be(w, "--hard") || long_may_be(w, "--merge") ||
			      long_may_be(w, "--keep")))
			return false;
		for (size_t i = 0; apply && apply_no_tree[i]; i++)
			if (word_is(w, apply_no_tree[i]))
				return true;
		if (!strcmp(sub, "stash") && k == from)
			for (size_t i = 0; stash_no_tree[i]; i++)
				if (word_is(w, stash_no_tree[i]))
					return true;
	}
	return reset;
}

/* git config: setting a key that runs commands asks; a set writes the
 * configuration file. */
static int git_config(struct tc *t, size_t i, const struct lf_shell_word *gitdir)
{
	bool read_only = false, file_given = false, subcmd = false, writes = false;
	size_t nops = 0;
	const struct lf_shell_word *key = NULL;

	for (; i < t->argc; i++) {
		const struct lf_shell_word *w = &t->argv[i];
		const char *s = w->text;
		if (!literal(w)) {
			if (!option_safe(w) || !key) {
				eff_reason(t, "a git config word the shell expands");
				return 0;
			}
			nops++;
			continue;
		}
		if (s[0] == '-') {
			static const char *const ro[] = {
				"--get",       "--get-all",   "--get-regexp",	 "--get-urlmatch",
				"-l",	       "--list",      "--show-origin",	 "--show-scope",
				"--name-only", "--get-color", "--get-colorbool", "-z",
				"--null",      NULL
			};
			for (size_t k = 0; ro[k]; k++)
				if (!strcmp(s, ro[k]))
					read_only = true;
			/* git takes abbreviations of long options */
			const char *eq = strchr(s, '=');
			if (!strcmp(s, "-f") ||
			    (!eq && (long_may_be(w, "--file") || long_may_be(w, "--blob")))) {
				if (i + 1 < t->argc) {
					eff_file(t, LF_CAP_WRITE, &t->argv[i + 1], true, false);
					file_given = true;
				}
				i++;
			} else if (eq && (long_may_be(w, "--file") || long_may_be(w, "--blob"))) {
				eff_file(t, LF_CAP_WRITE, word_tail(t, w, (size_t)(eq - s) + 1),
					 true, false);
				file_given = true;
			} else if (!strcmp(s, "-e") || long_may_be(w, "--edit")) {
				eff_reason(t, "git config --edit opens an editor");
			} else if (long_may_be(w, "--unset") || long_may_be(w, "--unset-all") ||
				   long_may_be(w, "--rename-section") ||
				   long_may_be(w, "--remove-section")) {
				writes = true;
			} else if (long_may_be(w, "--global") || long_may_be(w, "--system")) {
				eff_reason(t, "git config outside the repository");
				file_given = true;
			} else if (!strcmp(s, "--type") || !strcmp(s, "--default") ||
				   !strcmp(s, "--comment")) {
				i++;
			}
			continue;
		}
		if (!key && !nops && !subcmd) {
			/* git config SUBCOMMAND (git 2.46) */
			static const char *const config_subs[] = { "set", "unset", "rename-section",
								   "remove-section", NULL };
			if (!strcmp(s, "edit")) {
				eff_reason(t, "git config --edit opens an editor");
				continue;
			}
			if (!strcmp(s, "list") || !strcmp(s, "get")) {
				read_only = subcmd = true;
				continue;
			}
			for (size_t k = 0; config_subs[k]; k++)
				if (!strcmp(s, config_subs[k]))
					subcmd = writes = true;
			if (subcmd)
				continue;
		}
		if (!key)
			key = w;
		nops++;
	}
	if (key && git_key_runs(key) && !read_only && (nops > 1 || writes))
		eff_reason(t, "git config sets a key that makes git run a command");
	if (!read_only && (nops > 1 || writes) && !file_given) {
		/* writes the repository's configuration */
		struct lf_shell_word *f = sh_alloc(t->a, sizeof(*f));
		if (!f)
			return -ENOMEM;
		if (gitdir && literal(gitdir)) {
			size_t n = gitdir->len + 8;
			char *txt = sh_alloc(t->a, n);
			if (!txt)
				return -ENOMEM;
			memcpy(txt, gitdir->text, gitdir->len);
			memcpy(txt + gitdir->len, "/config", 8);
			f->text = txt;
			f->len = gitdir->len + 7;
		} else {
			f->text = ".git/config";
			f->len = 11;
		}
		eff_file(t, LF_CAP_WRITE, f, true, false);
	}
	return 0;
}

/* Whether git commit's words hold --fixup=amend:REF or reword:REF (or
 * a value the shell computes), which open an editor for the message. */
static bool git_fixup_edits(const struct lf_shell_word *argv, size_t from, size_t argc)
{
	for (size_t k = from; k < argc; k++) {
		const struct lf_shell_word *w = &argv[k], *v;
		if (word_is(w, "--"))
			break;
		if (!long_may_be(w, "--fixup"))
			continue;
		const char *eq = strchr(w->text, '=');
		struct lf_shell_word tail;
		if (eq) {
			tail = *w;
			tail.text = eq + 1;
			tail.len = w->len - (size_t)(eq + 1 - w->text);
			v = &tail;
		} else if (k + 1 < argc) {
			v = &argv[++k];
		} else {
			break;
		}
		if (!literal(v) || !strncmp(v->text, "amend:", 6) ||
		    !strncmp(v->text, "reword:", 7))
			return true;
	}
	return false;
}

static int h_git(struct tc *t)
{
	static const char global[] =
		"-C=C -c=- --config-env=a --exec-path?a --git-dir=- --work-tree=C --namespace=- "
		"--super-prefix=a --bare -p --paginate -P --no-pager --no-replace-objects "
		"--literal-pathspecs --glob-pathspecs --noglob-pathspecs --icase-pathspecs "
		"--no-optional-locks --list-cmds=- --attr-source=- --html-path --man-path "
		"--info-path -v --version -h --help";
	const struct lf_shell_word *gitdir = NULL, *cdir = t->base;
	size_t i = 1;

	for (; i < t->argc; i++) {
		const struct lf_shell_word *w = &t->argv[i];
		struct optdef d;
		if (!literal(w)) {
			eff_wild(t, "a git argument the shell expands could be a subcommand or an "
				    "option");
			break;
		}
		if (w->text[0] != '-')
			break;
		const char *eq = strchr(w->text, '=');
		size_t nl = eq ? (size_t)(eq - w->text) : w->len;
		if (!spec_find(global, w->text, nl, &d)) {
			eff_reason(t, "a git option this analysis does not know");
			return 0;
		}
		const struct lf_shell_word *v = NULL;
		if (d.sep == '=')
			v = eq ? word_tail(t, w, nl + 1) : (i + 1 < t->argc ? &t->argv[++i] : NULL);
		else if (d.sep == '?' && eq)
			v = word_tail(t, w, nl + 1);
		if (!strcmp(w->text, "-c") && v && git_key_runs(v))
			eff_reason(t, "git -c sets a key that makes git run a command");
		if (!strncmp(w->text, "--git-dir", 9))
			gitdir = v;
		if (!strcmp(w->text, "--version") || !strcmp(w->text, "--help") ||
		    !strcmp(w->text, "-h") || !strcmp(w->text, "-v"))
			return 0;
		if (v || d.sep == '!')
			opt_role(t, d.role, v, i);
		if (!strcmp(w->text, "-C"))
			cdir = t->base;
	}
	/* the repository's configuration, found from the -C directory (not
	 * from --work-tree), or named by --git-dir */
	const struct lf_shell_word *wt = t->base;
	t->base = cdir;
	if (gitdir)
		eff_conf_word(t, gitdir, true);
	else
		/* and the directory itself, which git takes for a bare
		 * repository when it holds HEAD, objects/ and refs/ (its
		 * config then decides diff.external, core.pager …) */
		eff_conf(t, ".git/ .gitattributes .gitmodules HEAD config objects/ refs/");
	t->base = wt;
	if (i >= t->argc)
		return 0;
	if (i > 1) {
		/* the command as a rule naming its subcommand sees it: git -C x
		 * push is also judged as git push */
		struct lf_shell_word *v = sh_alloc(t->a, (t->argc - i + 1) * sizeof(*v));
		struct sh_eff *e = v ? eff_add(t, SH_EF_ARGV) : NULL;
		if (!e)
			return -ENOMEM;
		v[0] = t->argv[0];
		memcpy(v + 1, t->argv + i, (t->argc - i) * sizeof(*v));
		e->words = v;
		e->nwords = t->argc - i + 1;
	}
	const struct lf_shell_word *sub = &t->argv[i];
	if (!literal(sub))
		return 0;
	const struct git_sub *gs = NULL;
	size_t lo = 0, hi = sizeof(git_subs) / sizeof(git_subs[0]);
	while (lo < hi && !gs) { /* git_subs is sorted (sh_table_sorted) */
		size_t mid = (lo + hi) / 2;
		int c = strcmp(sub->text, git_subs[mid].name);
		if (c == 0)
			gs = &git_subs[mid];
		else if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	if (!gs) {
		eff_reason(t, "git runs an alias or an external git-* program for a subcommand it "
			      "does not have");
		return 0;
	}
	if (!strcmp(gs->name, "config"))
		return git_config(t, i + 1, gitdir);
	if (!strcmp(gs->name, "difftool") || !strcmp(gs->name, "mergetool") ||
	    !strcmp(gs->name, "help") || !strcmp(gs->name, "submodule") ||
	    !strcmp(gs->name, "notes") || !strcmp(gs->name, "worktree") ||
	    !strcmp(gs->name, "bundle") || !strcmp(gs->name, "remote")) {
		/* subcommands of their own: foreach, add, run a tool or a viewer */
		if (!strcmp(gs->name, "remote") && i + 1 < t->argc &&
		    (word_is(&t->argv[i + 1], "-v") || word_is(&t->argv[i + 1], "show") ||
		     word_is(&t->argv[i + 1], "get-url")))
			return 0;
		if (!strcmp(gs->name, "remote") && i + 1 >= t->argc)
			return 0;
		eff_reason(t, "a git subcommand that runs tools, editors or commands, or writes "
			      "where its arguments say");
		return 0;
	}
	if (!strcmp(gs->name, "bisect")) {
		if (i + 1 < t->argc && word_is(&t->argv[i + 1], "run"))
			eff_cmd(t, i + 2, t->argc, false);
		return 0;
	}
	struct tc st = *t;
	struct prog sp = { gs->name, gs->opts, gs->operands, 0, NULL, NULL };
	size_t before = t->out->n;
	bool message = false;
	if (gs->flags & GIT_WT) {
		/* paths after "--" are written back from the index or a commit */
		bool dashdash = false, staged = false, worktree = false;
		size_t ops = 0;
		for (size_t k = i + 1; k < t->argc; k++) {
			const struct lf_shell_word *w = &t->argv[k];
			if (word_is(w, "--")) {
				dashdash = true;
				break;
			}
			if (!literal(w) || w->text[0] != '-') {
				ops++;
				continue;
			}
			if (word_is(w, "--staged") || (w->text[1] != '-' && strchr(w->text, 'S')))
				staged = true;
			if (long_may_be(w, "--worktree") ||
			    (w->text[1] != '-' && strchr(w->text, 'W')))
				worktree = true;
			if ((word_is(w, "-b") || word_is(w, "-B") || word_is(w, "--orphan") ||
			     word_is(w, "-s") || word_is(w, "--source")) &&
			    k + 1 < t->argc)
				k++;
		}
		/* after "--", and every operand of restore (a path; the work
		 * tree is restored unless only --staged is given) */
		if (dashdash || (!strcmp(gs->name, "restore") && (!staged || worktree)))
			sp.operands = "w*";
		else if (!strcmp(gs->name, "checkout")) {
			/* checkout TREE-ISH PATH…: the paths are written;
			 * checkout NAME: a branch or a path, either rewrites
			 * files of the work tree */
			sp.operands = "-w*";
			if (ops == 1)
				eff_reason(t,
					   "git checkout NAME rewrites files of the work tree (a "
					   "branch or a path)");
		}
	}
	int r = engine(&st, &sp, i + 1);
	t->base = st.base;
	message = st.no_cmd;
	if (r >= 0 && !strcmp(gs->name, "format-patch")) {
		/* without -o or --stdout the patches are written here */
		sp.flags = F_CWD_OUT_ANY;
		cwd_out(&st, &sp, before);
	}
	if (r >= 0 && !strcmp(gs->name, "clean") && !st.no_cmd) {
		/* without a path: every untracked file below here */
		bool paths = false, dry = false;

		for (size_t k = i + 1; k < t->argc; k++) {
			const struct lf_shell_word *w = &t->argv[k];

			if (!literal(w) || w->text[0] != '-')
				paths = true;
			else if (word_is(w, "-n") || word_is(w, "--dry-run"))
				dry = true;
		}
		if (!paths && !dry)
			eff_file(&st, LF_CAP_DELETE, &word_here, true, true);
	}
	if (r >= 0 && (gs->flags & GIT_TREE) && !st.no_cmd &&
	    !git_tree_untouched(gs->name, t->argv, i + 1, t->argc)) {
		/* the files the commits or patches name, anywhere below the
		 * work tree: a write below the directory git runs in (doc/
		 * shell.md says what is left: run from a subdirectory, the
		 * files above it) */
		eff_file(&st, LF_CAP_WRITE, &word_here, true, true);
	}
	if ((gs->flags & GIT_EDITOR) && !message)
		eff_reason(t, "git commit without a message opens an editor");
	if (st.editor && !message)
		eff_reason(t, "git tag -a, -s or -u without a message opens an editor");
	if (!strcmp(gs->name, "commit") && git_fixup_edits(t->argv, i + 1, t->argc))
		eff_reason(t, "git commit --fixup=amend: or reword: opens an editor");
	return r;
}

/* ------------------------------------------------------------------------
 * Programs with subcommands (go, cargo, npm, docker, …): the program's own
 * options (its entry's spec), then a subcommand with a spec of its own in
 * the table below, sorted by program and subcommand.
 */
struct sub {
	const char *prog;
	const char *name;
	const char *opts;
	const char *operands;
	unsigned flags;
	const char *reason; /* F_ASK */
};

/* Options every npm command takes that name programs or files. */
#define NPM_OPTS                                                                                \
	"--prefix=t --cache=t --userconfig=a --globalconfig=a --script-shell=a --shell=a "      \
	"--editor=a --browser=a --viewer=a --git=a --node-options=a --onload-script=a "         \
	"--init-module=a --node-gyp=a --python=a --call=s -c=s -g!a --global!a --location=a "   \
	"--workspace=- -w=- --registry=- --tag=- --omit=- --include=- --loglevel=- --access=- " \
	"--otp=- --depth=- --before=- --cpu=- --os=- --libc=- --install-strategy=- "            \
	"--lockfile-version=- --pack-destination=t -D -S -E -O -P -B -y -f -s -q -d -l -a "     \
	"-h!N --help!N -v!N --version!N"
/* Build flags of the go command. */
#define GO_BUILD                                                                                   \
	"-C=C -o=w -a -n -p=- -race -msan -asan -cover -covermode=- -coverpkg=- -v -work -x "      \
	"-asmflags=- -buildmode=- -buildvcs=- -compiler=a -gccgoflags=a -gcflags=- "               \
	"-installsuffix=- -ldflags=- -linkshared -mod=- -modcacherw -modfile=r -overlay=r -pgo=r " \
	"-pkgdir=t -tags=- -trimpath -toolexec=p -json -debug-actiongraph=w "                      \
	"-debug-runtime-trace=w -debug-trace=w -h!N -help!N"
#define GO_TEST                                                                            \
	"-exec=p -c -args!a -coverprofile=w -cpuprofile=w -memprofile=w -blockprofile=w "  \
	"-mutexprofile=w -trace=w -outputdir=t -fuzzcachedir=t -test.*!a -run=- -bench=- " \
	"-benchtime=- -benchmem -count=- -cpu=- -failfast -fullpath -fuzz=- -fuzztime=- "  \
	"-fuzzminimizetime=- -list=- -parallel=- -short -shuffle=- -skip=- -timeout=- -vet=-"
/* Options of cargo's build commands. */
#define CARGO_BUILD                                                                              \
	"--target-dir=t --artifact-dir=t --out-dir=t --manifest-path=r --lockfile-path=r "       \
	"--config=a -Z=a --timings?- --message-format=- -p=- --package=- -j=- --jobs=- "         \
	"--features=- -F=- --target=- --profile=- --bin=- --example=- --test=- --bench=- "       \
	"--exclude=- --color=- --open!a -q -v -vv --quiet --verbose --release -r --all-targets " \
	"--workspace --all-features --no-default-features --locked --frozen --offline --lib "    \
	"--bins --examples --tests --benches --keep-going --future-incompat-report --doc "       \
	"--no-run --no-fail-fast --ignored -h!N --help!N"
#define CARGO_OPTS "--manifest-path=r --config=a -Z=a --color=- -q -v --locked --frozen --offline"
/* Options of docker that name programs or files. */
#define DOCKER_OPTS                                                                       \
	"-H=- --host=- --context=- -c=- -l=- --log-level=- -D --debug --tls --tlsverify " \
	"--tlscacert=r --tlscert=r --tlskey=r --config=a -v!N --version!N -h!N --help!N"
#define R_CONTAINERS "it runs commands in containers, which may write the host through mounts"
#define R_TERMINAL "a terminal emulator runs a command in a new terminal"
#define R_MAIL "mail runs ~! escapes and its sendmail program"
#define NPM_CONF "package.json .npmrc .yarnrc .yarnrc.yml .pnpmfile.cjs bunfig.toml"

static const struct sub subs[] = {
	{ "bun", "build", "--outfile=w --outdir=t --sourcemap?- --target=- --define=-", "m*",
	  F_LONGANY, NULL },
	{ "bun", "exec", "", "", F_ASK, "bun exec runs a string in bun's own shell" },
	{ "bun", "x", "--bun -p=- --package=- --silent --verbose", "x", F_WRAP, NULL },
	{ "bundle", "exec", "--gemfile=r --keep-file-descriptors", "x", F_WRAP, NULL },
	{ "cargo", "add", CARGO_OPTS, "-*", F_LONGANY, NULL },
	{ "cargo", "b", CARGO_BUILD, "-*", F_LONGANY, NULL },
	{ "cargo", "bench", CARGO_BUILD, "-*", F_LONGANY, NULL },
	{ "cargo", "build", CARGO_BUILD, "-*", F_LONGANY, NULL },
	{ "cargo", "c", CARGO_BUILD, "-*", F_LONGANY, NULL },
	{ "cargo", "check", CARGO_BUILD, "-*", F_LONGANY, NULL },
	{ "cargo", "clean", CARGO_BUILD, "-*", F_LONGANY, NULL },
	{ "cargo", "clippy", CARGO_BUILD " --fix --allow-dirty --allow-staged", "-*", F_LONGANY,
	  NULL },
	{ "cargo", "d", CARGO_BUILD, "-*", F_LONGANY, NULL },
	{ "cargo", "doc", CARGO_BUILD, "-*", F_LONGANY, NULL },
	{ "cargo", "fetch", CARGO_OPTS, "-*", F_LONGANY, NULL },
	{ "cargo", "fix", CARGO_BUILD " --allow-dirty --allow-staged --allow-no-vcs --edition",
	  "-*", F_LONGANY, NULL },
	{ "cargo", "fmt", CARGO_OPTS " --all --check -p=- --package=-", "-*", F_LONGANY, NULL },
	{ "cargo", "generate-lockfile", CARGO_OPTS, "-*", F_LONGANY, NULL },
	{ "cargo", "help", "", "-*", F_LONGANY, NULL },
	{ "cargo", "info", CARGO_OPTS, "-*", F_LONGANY, NULL },
	{ "cargo", "init", CARGO_OPTS " --name=- --edition=- --vcs=- --bin --lib", "t", F_LONGANY,
	  NULL },
	{ "cargo", "install", "", "", F_ASK, "cargo install writes into ~/.cargo or --root" },
	{ "cargo", "locate-project", CARGO_OPTS, "-*", F_LONGANY, NULL },
	{ "cargo", "login", "", "", F_ASK, "cargo login writes credentials into ~/.cargo" },
	{ "cargo", "logout", "", "", F_ASK, "cargo logout writes credentials into ~/.cargo" },
	{ "cargo", "metadata", CARGO_OPTS, "-*", F_LONGANY, NULL },
	{ "cargo", "new", CARGO_OPTS " --name=- --edition=- --vcs=- --bin --lib", "t", F_LONGANY,
	  NULL },
	{ "cargo", "package", CARGO_BUILD, "-*", F_LONGANY, NULL },
	{ "cargo", "pkgid", CARGO_OPTS, "-*", F_LONGANY, NULL },
	{ "cargo", "publish", CARGO_BUILD, "-*", F_LONGANY, NULL },
	{ "cargo", "r", CARGO_BUILD, "-*", F_LONGANY, NULL },
	{ "cargo", "read-manifest", CARGO_OPTS, "-*", F_LONGANY, NULL },
	{ "cargo", "remove", CARGO_OPTS, "-*", F_LONGANY, NULL },
	{ "cargo", "report", CARGO_OPTS, "-*", F_LONGANY, NULL },
	{ "cargo", "rm", CARGO_OPTS, "-*", F_LONGANY, NULL },
	{ "cargo", "run", CARGO_BUILD, "-*", F_LONGANY, NULL },
	{ "cargo", "rustc", CARGO_BUILD, "a*", F_LONGANY, NULL },
	{ "cargo", "rustdoc", CARGO_BUILD, "a*", F_LONGANY, NULL },
	{ "cargo", "search", CARGO_OPTS, "-*", F_LONGANY, NULL },
	{ "cargo", "t", CARGO_BUILD, "-*", F_LONGANY, NULL },
	{ "cargo", "test", CARGO_BUILD, "-*", F_LONGANY, NULL },
	{ "cargo", "tree", CARGO_OPTS, "-*", F_LONGANY, NULL },
	{ "cargo", "uninstall", "", "", F_ASK, "cargo uninstall writes into ~/.cargo or --root" },
	{ "cargo", "update", CARGO_OPTS, "-*", F_LONGANY, NULL },
	{ "cargo", "vendor", CARGO_OPTS " --sync=r --versioned-dirs --respect-source-config", "t",
	  F_LONGANY, NULL },
	{ "cargo", "verify-project", CARGO_OPTS, "-*", F_LONGANY, NULL },
	{ "cargo", "version", "", "-*", F_LONGANY, NULL },
	{ "cargo", "yank", CARGO_OPTS, "-*", F_LONGANY, NULL },
	{ "conda", "run",
	  "-n=- --name=- -p=- --prefix=- --cwd=C --no-capture-output --live-stream -v "
	  "--debug-wrapper-scripts --dev",
	  "x", F_WRAP, NULL },
	{ "deno", "compile", "-o=w --output=w -A!a --allow-all!a --allow-run?a --allow-write?a",
	  "k", F_LONGANY, NULL },
	{ "deno", "eval", "", "", F_ASK, "deno eval runs code given in its arguments" },
	{ "deno", "install", "-g!a --global!a --root=t -A!a --allow-all!a", "-*", F_LONGANY, NULL },
	{ "deno", "jupyter", "", "", F_ASK, "deno jupyter installs a kernel outside the project" },
	{ "deno", "repl", "", "", F_ASK, "it reads code from standard input" },
	{ "deno", "run",
	  "-A!a --allow-all!a --allow-run?a --allow-write?a --allow-ffi?a --config=r -c=r "
	  "--import-map=r --env-file?r --lock?w",
	  "k", F_LONGANY | F_NOPERMUTE, NULL },
	{ "deno", "serve", "-A!a --allow-all!a --allow-run?a --allow-write?a --allow-ffi?a", "k",
	  F_LONGANY | F_NOPERMUTE, NULL },
	{ "deno", "test", "-A!a --allow-all!a --allow-run?a --allow-write?a --allow-ffi?a", "m*",
	  F_LONGANY, NULL },
	{ "deno", "upgrade", "", "", F_ASK, "deno upgrade replaces the deno program" },
	{ "devbox", "run", "-c=C --config=C -e=- --env=- --env-file=r -q --quiet --pure", "x",
	  F_WRAP, NULL },
	{ "devbox", "shell", "", "", F_ASK, "it starts a shell reading standard input" },
	{ "direnv", "exec", "", "-x", F_WRAP, NULL },
	{ "docker", "events", DOCKER_OPTS, "-*", F_LONGANY, NULL },
	{ "docker", "history", DOCKER_OPTS, "-*", F_LONGANY, NULL },
	{ "docker", "images", DOCKER_OPTS, "-*", F_LONGANY, NULL },
	{ "docker", "info", DOCKER_OPTS, "-*", F_LONGANY, NULL },
	{ "docker", "inspect", DOCKER_OPTS, "-*", F_LONGANY, NULL },
	{ "docker", "kill", DOCKER_OPTS, "-*", F_LONGANY, NULL },
	{ "docker", "logs", DOCKER_OPTS, "-*", F_LONGANY, NULL },
	{ "docker", "pause", DOCKER_OPTS, "-*", F_LONGANY, NULL },
	{ "docker", "port", DOCKER_OPTS, "-*", F_LONGANY, NULL },
	{ "docker", "ps", DOCKER_OPTS, "-*", F_LONGANY, NULL },
	{ "docker", "pull", DOCKER_OPTS, "-*", F_LONGANY, NULL },
	{ "docker", "rm", DOCKER_OPTS, "-*", F_LONGANY, NULL },
	{ "docker", "rmi", DOCKER_OPTS, "-*", F_LONGANY, NULL },
	{ "docker", "search", DOCKER_OPTS, "-*", F_LONGANY, NULL },
	{ "docker", "stats", DOCKER_OPTS, "-*", F_LONGANY, NULL },
	{ "docker", "stop", DOCKER_OPTS, "-*", F_LONGANY, NULL },
	{ "docker", "tag", DOCKER_OPTS, "-*", F_LONGANY, NULL },
	{ "docker", "top", DOCKER_OPTS, "-*", F_LONGANY, NULL },
	{ "docker", "unpause", DOCKER_OPTS, "-*", F_LONGANY, NULL },
	{ "docker", "version", DOCKER_OPTS, "-*", F_LONGANY, NULL },
	{ "docker", "wait", DOCKER_OPTS, "-*", F_LONGANY, NULL },
	{ "go", "bug", "", "", F_ASK, "go bug opens a browser" },
	{ "go", "build", GO_BUILD, "-*", F_NOCLUSTER | F_EQ1, NULL },
	{ "go", "clean", "-i!a -r -cache -testcache -modcache -fuzzcache -n -x", "-*",
	  F_NOCLUSTER | F_EQ1, NULL },
	{ "go", "env", "-w!a -u!a -json -changed", "-*", F_NOCLUSTER | F_EQ1, NULL },
	{ "go", "generate", GO_BUILD " -run=- -skip=-", "-*", F_NOCLUSTER | F_EQ1, NULL },
	{ "go", "get", GO_BUILD " -t -u?- -tool", "-*", F_NOCLUSTER | F_EQ1, NULL },
	{ "go", "install", "", "", F_ASK, "go install writes into GOBIN or GOPATH/bin" },
	{ "go", "list",
	  GO_BUILD " -f=- -m -u -versions -retracted -e -deps -test -export -find -compiled "
		   "-reuse=r",
	  "-*", F_NOCLUSTER | F_EQ1, NULL },
	{ "go", "mod",
	  "-o=t -modfile=r -json -e -x -v -go=- -compat=- -fmt -print -replace=- "
	  "-dropreplace=- -require=- -droprequire=- -exclude=- -dropexclude=- -retract=- "
	  "-dropretract=- -module=- -toolchain=- -tool=- -droptool=- -godebug=- "
	  "-dropgodebug=- -ignore=- -dropignore=-",
	  "-m*", F_NOCLUSTER | F_EQ1, NULL },
	{ "go", "run", GO_BUILD " -exec=p", "-*", F_NOCLUSTER | F_EQ1, NULL },
	{ "go", "test", GO_BUILD " " GO_TEST, "-*", F_NOCLUSTER | F_EQ1, NULL },
	{ "go", "tool", "", "", F_ASK, "go tool runs a tool with options of its own" },
	{ "go", "vet", GO_BUILD " -vettool=p", "-*", F_NOCLUSTER | F_EQ1, NULL },
	{ "hatch", "run", "", "x", F_WRAP, NULL },
	{ "mamba", "run",
	  "-n=- --name=- -p=- --prefix=- --cwd=C --no-capture-output --live-stream -v", "x", F_WRAP,
	  NULL },
	{ "micromamba", "run",
	  "-n=- --name=- -p=- --prefix=- --cwd=C --no-capture-output --live-stream -v -a=- "
	  "--attach=-",
	  "x", F_WRAP, NULL },
	{ "nix", "develop", "", "", F_ASK,
	  "nix runs shells, hooks and programs from Nix expressions" },
	{ "nix", "env", "", "", F_ASK, "nix runs shells, hooks and programs from Nix expressions" },
	{ "nix", "fmt", "", "", F_ASK, "nix runs shells, hooks and programs from Nix expressions" },
	{ "nix", "profile", "", "", F_ASK, "nix profile installs into the user's profile" },
	{ "nix", "repl", "", "", F_ASK, "it reads code from standard input" },
	{ "nix", "run", "", "", F_ASK, "nix runs shells, hooks and programs from Nix expressions" },
	{ "nix", "shell", "", "", F_ASK,
	  "nix runs shells, hooks and programs from Nix expressions" },
	{ "npm", "bugs", "", "", F_ASK, "it opens a browser" },
	{ "npm", "c", "", "", F_ASK, "npm config sets options of later npm commands" },
	{ "npm", "config", "", "", F_ASK, "npm config sets options of later npm commands" },
	{ "npm", "create", "", "", F_ASK, "npm init runs a create-* package" },
	{ "npm", "docs", "", "", F_ASK, "it opens a browser" },
	{ "npm", "edit", "", "", F_ASK, "npm edit runs an editor" },
	{ "npm", "exec", NPM_OPTS " --package=-", "x", F_WRAP, NULL },
	{ "npm", "explore", "", "", F_ASK, "npm explore runs a shell" },
	{ "npm", "home", "", "", F_ASK, "it opens a browser" },
	{ "npm", "init", NPM_OPTS " --scope=- --init-*=-", "a*", F_LONGANY, NULL },
	{ "npm", "innit", NPM_OPTS " --scope=- --init-*=-", "a*", F_LONGANY, NULL },
	{ "npm", "link", "", "", F_ASK, "npm link writes into the global prefix" },
	{ "npm", "ln", "", "", F_ASK, "npm link writes into the global prefix" },
	{ "npm", "repo", "", "", F_ASK, "it opens a browser" },
	{ "npm", "set", "", "", F_ASK, "npm config sets options of later npm commands" },
	{ "npm", "x", NPM_OPTS " --package=-", "x", F_WRAP, NULL },
	{ "pdm", "run", "-s!a --site-packages -l!N --list!N --json", "x", F_WRAP, NULL },
	{ "perf", "annotate", "--objdump=p --addr2line=p -i=r --input=r", "-*", F_LONGANY, NULL },
	{ "perf", "bench", "", "", F_ASK, R_NOT_FOLLOWED },
	{ "perf", "c2c", "", "", F_ASK,
	  "perf runs a command or script with options not modelled here" },
	{ "perf", "config", "", "", F_ASK,
	  "perf config writes the configuration of later perf commands" },
	{ "perf", "daemon", "", "", F_ASK,
	  "perf runs a command or script with options not modelled here" },
	{ "perf", "ftrace", "", "", F_ASK,
	  "perf runs a command or script with options not modelled here" },
	{ "perf", "inject", "", "", F_ASK, R_NOT_FOLLOWED },
	{ "perf", "kmem", "", "", F_ASK,
	  "perf runs a command or script with options not modelled here" },
	{ "perf", "kvm", "", "", F_ASK,
	  "perf runs a command or script with options not modelled here" },
	{ "perf", "kwork", "", "", F_ASK,
	  "perf runs a command or script with options not modelled here" },
	{ "perf", "lock", "", "", F_ASK,
	  "perf runs a command or script with options not modelled here" },
	{ "perf", "mem", "", "", F_ASK,
	  "perf runs a command or script with options not modelled here" },
	{ "perf", "probe", "", "", F_ASK, R_NOT_FOLLOWED },
	{ "perf", "record",
	  "-o=w --output=w -e=- --event=- -a --all-cpus -p=- --pid=- -t=- --tid=- -F=- --freq=- "
	  "-c=- --count=- -g --call-graph=- -q --quiet -v --verbose -s --stat -d --data -T "
	  "--timestamp -P --period -C=- --cpu=- -N --no-buildid-cache -B --no-buildid -G=- "
	  "--cgroup=- -u=- --uid=- -m=- --mmap-pages=- --overwrite --no-inherit -i",
	  "x", F_WRAP, NULL },
	{ "perf", "report", "--objdump=p --addr2line=p -i=r --input=r", "-*", F_LONGANY, NULL },
	{ "perf", "sched", "", "", F_ASK,
	  "perf runs a command or script with options not modelled here" },
	{ "perf", "script", "", "", F_ASK,
	  "perf runs a command or script with options not modelled here" },
	{ "perf", "stat",
	  "-o=w --output=w -e=- --event=- -a --all-cpus -p=- --pid=- -t=- --tid=- -r=- "
	  "--repeat=- -x=- --field-separator=- -I=- --interval-print=- -C=- --cpu=- -A "
	  "--no-aggr -d --detailed -v --verbose -n --null -S --sync -G=- --cgroup=- -M=- "
	  "--metrics=- --per-core --per-socket --per-thread --per-node -T --transaction "
	  "--topdown --append -j --json --no-big-num -B --big-num --pre=p --post=p",
	  "x", F_WRAP, NULL },
	{ "perf", "test", "", "", F_ASK, R_NOT_FOLLOWED },
	{ "perf", "timechart", "", "", F_ASK,
	  "perf runs a command or script with options not modelled here" },
	{ "perf", "top", "--objdump=p --addr2line=p", "-*", F_LONGANY, NULL },
	{ "perf", "trace",
	  "-o=w --output=w -e=- --event=- -p=- --pid=- -t=- --tid=- -a --all-cpus -s "
	  "--summary -S --with-summary -v --verbose -T --time -f --failure",
	  "x", F_WRAP, NULL },
	{ "pipenv", "run", "", "x", F_WRAP, NULL },
	{ "pipenv", "shell", "", "", F_ASK, "it starts a shell reading standard input" },
	{ "pipx", "environment", "", "-*", 0, NULL },
	{ "pipx", "list", "--json --short --include-injected", "-*", 0, NULL },
	{ "pipx", "run",
	  "--spec=- --python=- --pip-args=- --no-cache --index-url=- -i=- --editable -e "
	  "--system-site-packages --path -q --quiet -v --verbose",
	  "x", F_WRAP, NULL },
	{ "pixi", "run", "-e=- --environment=- --manifest-path=r --frozen --locked -v -q", "x",
	  F_WRAP, NULL },
	{ "pixi", "shell", "", "", F_ASK, "it starts a shell reading standard input" },
	{ "pnpm", "config", "", "", F_ASK, "pnpm config sets options of later pnpm commands" },
	{ "pnpm", "create", "", "", F_ASK, "pnpm create runs a create-* package" },
	{ "pnpm", "dlx", "--package=- -c!a --shell-mode!a -s --silent --allow-build=- --reporter=-",
	  "x", F_WRAP, NULL },
	{ "pnpm", "exec",
	  "-c!a --shell-mode!a -r --recursive --parallel --filter=- -F=- --no-bail "
	  "--report-summary --resume-from=- -s --silent --reporter=-",
	  "x", F_WRAP, NULL },
	{ "pnpm", "link", "", "", F_ASK, "pnpm link writes into the global directory" },
	{ "pnpm", "set", "", "", F_ASK, "pnpm config sets options of later pnpm commands" },
	{ "pnpm", "x", "--package=- -c!a --shell-mode!a -s --silent", "x", F_WRAP, NULL },
	{ "podman", "events", DOCKER_OPTS, "-*", F_LONGANY, NULL },
	{ "podman", "history", DOCKER_OPTS, "-*", F_LONGANY, NULL },
	{ "podman", "images", DOCKER_OPTS, "-*", F_LONGANY, NULL },
	{ "podman", "info", DOCKER_OPTS, "-*", F_LONGANY, NULL },
	{ "podman", "inspect", DOCKER_OPTS, "-*", F_LONGANY, NULL },
	{ "podman", "logs", DOCKER_OPTS, "-*", F_LONGANY, NULL },
	{ "podman", "ps", DOCKER_OPTS, "-*", F_LONGANY, NULL },
	{ "podman", "pull", DOCKER_OPTS, "-*", F_LONGANY, NULL },
	{ "podman", "version", DOCKER_OPTS, "-*", F_LONGANY, NULL },
	{ "poetry", "run", "-C=C --directory=C -P=C --project=C -q -v -n --no-interaction", "x",
	  F_WRAP, NULL },
	{ "poetry", "self", "", "", F_ASK, "poetry self changes poetry's own installation" },
	{ "poetry", "shell", "", "", F_ASK, "it starts a shell reading standard input" },
	{ "rr", "record",
	  "-o=t --output-trace-dir=t -n --no-syscall-buffer -h --chaos -w --wait -p=- -c=- "
	  "--num-cpu-ticks=- --bind-to-cpu=- --disable-cpuid-faulting --asan --nested=- -b "
	  "--force-syscall-buffer --syscall-buffer-size=- --ignore-nested -v=a --env=a",
	  "x", F_WRAP, NULL },
	{ "rr", "replay", "", "", F_ASK, "rr replay runs debugger commands" },
	{ "rye", "run", "", "x", F_WRAP, NULL },
	{ "uv", "build", "-o=t --out-dir=t", "t", F_LONGANY, NULL },
	{ "uv", "cache", "", "-*", F_LONGANY, NULL },
	{ "uv", "export", "-o=w --output-file=w", "-*", F_LONGANY, NULL },
	{ "uv", "pip",
	  "--target=t -t=t --prefix=t --root=t -o=w --output-file=w -r=r --requirement=r "
	  "-c=r --constraint=r --system!a --break-system-packages!a -e=- --editable=-",
	  "-*", F_LONGANY, NULL },
	{ "uv", "python", "", "", F_ASK, "uv python installs interpreters outside the project" },
	{ "uv", "run",
	  "--with=- -w=- --with-editable=- --with-requirements=r --isolated --no-project "
	  "--no-sync --locked --frozen --active --all-extras --extra=- --no-dev --group=- "
	  "--only-group=- --package=- --python=- -p=- -m!a --module!a --script -s --env-file=r "
	  "--no-env-file --directory=C --project=C -q --quiet -v --verbose --offline --no-cache "
	  "--all-packages --no-editable --exact --inexact",
	  "x", F_WRAP, NULL },
	{ "uv", "self", "", "", F_ASK, "uv self replaces the uv program" },
	{ "uv", "tool", "", "", F_ASK, "uv tool installs or runs tools outside the project" },
	{ "uv", "venv", "--python=- -p=- --seed --prompt=- --system-site-packages -q -v", "t",
	  F_LONGANY, NULL },
	{ "yarn", "config", "", "", F_ASK, "yarn config sets options of later yarn commands" },
	{ "yarn", "create", "", "", F_ASK, "yarn create runs a create-* package" },
	{ "yarn", "dlx", "-p=- --package=- -q --quiet", "x", F_WRAP, NULL },
	{ "yarn", "exec", "", "", F_ASK, "yarn exec runs a command in yarn's own shell" },
	{ "yarn", "global", "", "", F_ASK, "yarn global writes outside the project" },
	{ "yarn", "link", "", "", F_ASK, "yarn link writes outside the project" },
	{ "yarn", "node", "", "", F_ASK, "it runs code given in its arguments" },
};

static int sub_cmp(const struct sub *a, const char *prog, const char *name)
{
	int c = strcmp(prog, a->prog);
	return c ? c : strcmp(name, a->name);
}

static const struct sub *sub_find(const char *prog, const char *name)
{
	size_t lo = 0, hi = sizeof(subs) / sizeof(subs[0]);

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = sub_cmp(&subs[mid], prog, name);
		if (c == 0)
			return &subs[mid];
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

/* The program's options before its subcommand (an unknown one asks: where
 * the subcommand starts is not known), then the subcommand's row; one the
 * table has no row for: the entry's reason when it has one (docker: every
 * other subcommand asks), else its operands may be files. */
static int h_sub(struct tc *t)
{
	const struct prog *p = t->p;
	size_t i = 1;

	for (; i < t->argc; i++) {
		const struct lf_shell_word *w = &t->argv[i];
		if (!literal(w)) {
			eff_reason(t,
				   "the subcommand, or an option before it, is not a literal word");
			return 0;
		}
		if ((w->text[0] != '-' && w->text[0] != '+') || w->len == 1)
			break;
		if (word_is(w, "--")) {
			i++;
			break;
		}
		struct optdef d;
		const char *eq = strchr(w->text, '=');
		size_t nl = eq ? (size_t)(eq - w->text) : w->len;
		if (!spec_find(p->opts, w->text, nl, &d)) {
			eff_reason(t,
				   "an option before the subcommand this analysis does not know");
			return 0;
		}
		if (d.role == 'N')
			return 0;
		if (d.sep == '=' && !eq) {
			if (i + 1 < t->argc)
				opt_role(t, d.role, &t->argv[i + 1], i + 1);
			i++;
		} else if ((d.sep == '=' || d.sep == '?') && eq) {
			opt_role(t, d.role, word_tail(t, w, nl + 1), i);
		} else if (d.sep == '!' || d.sep == '?') {
			opt_role(t, d.role, NULL, i);
		}
	}
	if (i >= t->argc)
		return 0;
	const struct sub *sb = sub_find(p->name, t->argv[i].text);
	if (!sb) {
		if (p->reason) {
			eff_reason(t, p->reason);
			return 0;
		}
		const struct prog any = { t->argv[i].text, NULL, "m*", 0, NULL, NULL, NULL };
		return engine(t, &any, i + 1);
	}
	if (sb->flags & F_ASK) {
		eff_reason(t, sb->reason ? sb->reason : R_NOT_FOLLOWED);
		return 0;
	}
	const struct prog sp = { sb->name, sb->opts, sb->operands, sb->flags, NULL, NULL, NULL };
	return engine(t, &sp, i + 1);
}

/* go: a linker the go command runs (-ldflags=-extld=…) asks. */
static int h_go(struct tc *t)
{
	for (size_t i = 1; i < t->argc; i++) {
		const struct lf_shell_word *w = &t->argv[i];
		const char *s = w->text;
		if (s[0] == '-' && s[1] == '-')
			s++;
		if (strncmp(s, "-ldflags", 8) != 0 || (s[8] && s[8] != '='))
			continue;
		const struct lf_shell_word *v = s[8] ? w : i + 1 < t->argc ? &t->argv[i + 1] : NULL;
		if (v && (!literal(v) || strstr(v->text, "extld")))
			eff_reason(t, "a linker the go command runs (-ldflags -extld)");
	}
	return h_sub(t);
}

/* cmake -E COMMAND: a few read-only commands; the others write, delete or
 * run commands. */
static int h_cmake(struct tc *t)
{
	static const char *const harmless[] = {
		"capabilities", "cat",	       "compare_files", "echo",
		"echo_append",	"environment", "false",		"md5sum",
		"sha1sum",	"sha224sum",   "sha256sum",	"sha384sum",
		"sha512sum",	"sleep",       "true",		NULL
	};
	if (t->argc > 1 && word_is(&t->argv[1], "-E")) {
		const struct lf_shell_word *c = t->argc > 2 ? &t->argv[2] : NULL;
		if (c && literal(c) && name_in(c->text, c->len, harmless)) {
			bool reads = !strcmp(c->text, "cat") || !strcmp(c->text, "compare_files") ||
				     !strncmp(c->text, "md5", 3) || !strncmp(c->text, "sha", 3);
			for (size_t i = 3; reads && i < t->argc; i++)
				eff_file(t, LF_CAP_READ, &t->argv[i], true, false);
			return 0;
		}
		eff_reason(t, "cmake -E writes, deletes or runs commands");
		return 0;
	}
	static const struct prog cmake = {
		"cmake",
		"-E!a -P=k -B=t -S=- --build=- --install=- --prefix=t -G=- -T=- -A=- -D=- -U=- "
		"-C=r -N --preset=- --list-presets?N --fresh --trace-redirect=w --graphviz=w "
		"--system-information?w --log-level=- --debug-output --trace --trace-expand "
		"--warn-uninitialized --toolchain=r --install-prefix=- --workflow!a "
		"--find-package!a -L?- -LA?- -LH?- -LAH?- --config=- -j=- --parallel?- -t=- "
		"--target=- --clean-first --component=- --strip -v --verbose --version!N "
		"--help!N -h!N",
		"-*",
		F_LONGANY,
		NULL,
		NULL,
		NULL,
	};
	return engine(t, &cmake, 1);
}

static const struct prog *prog_lookup(const char *b);

/* ------------------------------------------------------------------------
 * python -m MODULE.
 */
/* The effects of words[0..n) as a command of its own (a module run as a
 * program), appended to t's: commands it runs are given by their words,
 * since its indices are not t's. */
static int sub_effects(struct tc *t, const struct lf_shell_word *words, size_t n)
{
	size_t before = t->out->n;
	int r = sh_table_effects(t->a, words, n, t->out);
	if (r < 0)
		return r;
	for (size_t k = before; k < t->out->n; k++) {
		struct sh_eff *e = &t->out->v[k];
		if (e->kind == SH_EF_CMD && !e->words) {
			e->words = words + e->from;
			e->nwords = e->to - e->from;
		} else if (e->kind == SH_EF_JOINED) {
			e->kind = SH_EF_REASON;
			e->reason = R_NOT_FOLLOWED;
		}
	}
	return 0;
}

/* Modules whose arguments are known (the others run code with arguments
 * of their own: timeit, pdb, cProfile, …); a module named as a program of
 * the table (pip, pytest) is judged as that program. */
static const struct prog py_modules[] = {
	{ "black", "", "m*", F_LONGANY, NULL, NULL, NULL },
	{ "build", "-o=t --outdir=t", "-", F_LONGANY, NULL, NULL, NULL },
	{ "calendar", "", "-*", 0, NULL, NULL, NULL },
	{ "ensurepip", "", "-*", F_LONGANY, NULL, NULL, NULL },
	{ "flake8", "--output-file=w", "m*", F_LONGANY, NULL, NULL, NULL },
	{ "http.server", "-b=- --bind=- -d=r --directory=r --cgi!a -p=- --protocol=-", "-", 0, NULL,
	  NULL, NULL },
	{ "isort", "", "m*", F_LONGANY, NULL, NULL, NULL },
	{ "json.tool",
	  "--sort-keys --indent=- --tab --no-indent --compact --json-lines --no-ensure-ascii", "rw",
	  F_LONGANY, NULL, NULL, NULL },
	{ "mypy", "--cache-dir=t --junit-xml=w --html-report=t --txt-report=t", "m*", F_LONGANY,
	  NULL, NULL, NULL },
	{ "platform", "", "-*", 0, NULL, NULL, NULL },
	{ "pycodestyle", "", "m*", F_LONGANY, NULL, NULL, NULL },
	{ "pyflakes", "", "m*", F_LONGANY, NULL, NULL, NULL },
	{ "pylint", "--output=w --rcfile=r --load-plugins=c --init-hook=c", "m*", F_LONGANY, NULL,
	  NULL, NULL },
	{ "ruff", "--cache-dir=t -o=w --output-file=w --config=a", "m*", F_LONGANY, NULL, NULL,
	  NULL },
	{ "site", "", "-*", F_LONGANY, NULL, NULL, NULL },
	{ "sysconfig", "", "-*", 0, NULL, NULL, NULL },
	{ "this", "", "", 0, NULL, NULL, NULL },
	{ "unittest", "-v -q -f -c -b -k=- -s=- -t=- -p=- --locals --durations=-", "m*", 0, NULL,
	  NULL, NULL },
	{ "uuid", "", "-*", F_LONGANY, NULL, NULL, NULL },
	{ "venv",
	  "--system-site-packages --symlinks --copies --clear --upgrade --without-pip "
	  "--prompt=- --upgrade-deps --without-scm-ignore-files",
	  "t*", F_LONGANY, NULL, NULL, NULL },
};

static int h_python(struct tc *t)
{
	const struct lf_shell_word *mod = NULL;
	size_t i = 1, args = 0;
	bool stdin_code = false;

	/* python's options: single letters, clustered; -c, -m, -W and -X
	 * take the rest of the word or the next one */
	for (; i < t->argc && !mod; i++) {
		const struct lf_shell_word *w = &t->argv[i];
		if (!literal(w) || w->text[0] != '-' || w->len == 1 || w->text[1] == '-')
			break;
		bool stop = false;
		for (size_t k = 1; k < w->len && !stop; k++) {
			char c = w->text[k];
			if (c == 'i')
				stdin_code = true;
			if (c == 'c')
				return run_prog(t, t->p, 1);
			if (c == 'm') {
				if (k + 1 < w->len) {
					mod = word_tail(t, w, k + 1);
					args = i + 1;
				} else if (i + 1 < t->argc) {
					mod = &t->argv[i + 1];
					args = i + 2;
				}
				stop = true;
			} else if (c == 'W' || c == 'X') {
				if (k + 1 == w->len)
					i++;
				stop = true;
			}
		}
	}
	if (!mod)
		return run_prog(t, t->p, 1);
	if (!literal(mod)) {
		eff_reason(t, "the python module is not a literal word");
		return 0;
	}
	if (stdin_code)
		eff_reason(t, R_STDIN_CODE);
	t->code = true;
	/* -m puts the working directory first on sys.path: a module of
	 * that name the line wrote there is what runs (json.py beside
	 * python3 -m json.tool) */
	{
		size_t ml = strcspn(mod->text, ".");
		char *conf = sh_alloc(t->a, 2 * ml + 8);
		if (!conf)
			return -ENOMEM;
		memcpy(conf, mod->text, ml);
		memcpy(conf + ml, ".py ", 4);
		memcpy(conf + ml + 4, mod->text, ml);
		memcpy(conf + 2 * ml + 4, "/", 2);
		eff_conf(t, conf);
	}
	size_t n = 1 + (args < t->argc ? t->argc - args : 0);
	struct lf_shell_word *words = sh_alloc(t->a, n * sizeof(*words));
	if (!words)
		return -ENOMEM;
	words[0] = *mod;
	if (n > 1)
		memcpy(words + 1, t->argv + args, (n - 1) * sizeof(*words));
	for (size_t k = 0; k < sizeof(py_modules) / sizeof(py_modules[0]); k++)
		if (!strcmp(py_modules[k].name, mod->text)) {
			struct tc sub = *t;
			sub.argv = words;
			sub.argc = n;
			return engine(&sub, &py_modules[k], 1);
		}
	if (prog_lookup(mod->text))
		return sub_effects(t, words, n);
	eff_reason(t, "python -m runs a module whose arguments this analysis does not follow");
	return 0;
}

/* ------------------------------------------------------------------------
 * The table. Sorted by name (strcmp order): looked up for every command.
 */
#define CP_OPTS                                                                             \
	"-s!K --symbolic-link!K -l!K --link!K -t=T --target-directory=T -S=- --suffix=- "   \
	"--backup?- --reflink?- --sparse=- "                                                \
	"--preserve?- --no-preserve=- --context?- -Z --strip-trailing-slashes -T -a -b -d " \
	"-f -i -H -L -n -P -p -R -r -u -v -x --archive --attributes-only --force "          \
	"--interactive --dereference --no-clobber --no-dereference --parents "              \
	"--recursive --remove-destination --update?- --verbose "                            \
	"--one-file-system --copy-contents --debug --no-target-directory --help!N "         \
	"--version!N"
#define INTERP_INFO "-V!N --version!N -h!N --help!N"
#define CC_OPTS                                                                                  \
	"-o=w -MF=w -MT=- -MQ=- -I=- -L=- -l=- -D=- -U=- -x=- -include=r -imacros=r -isystem=- " \
	"-iquote=- -idirafter=- -B=c -wrapper=c -fplugin*!c -specs=c --specs=c -Xlinker=a "      \
	"-Wl*!a -Wa*!a -Wp*!a -save-temps*!a -dumpdir=t -dumpbase=-"

static const struct prog progs[] = {
	{ ".", "", "k", 0, h_source, NULL },
	{ "7z", "", "", F_ASK, NULL, "7z writes and extracts where its arguments say" },
	{ "7za", "", "", F_ASK, NULL, "7z writes and extracts where its arguments say" },
	{ ":", "", "-*", 0, NULL, NULL },
	{ "R",
	  "-e=c -f=k --file=k --args!N --vanilla --no-save --save --no-restore "
	  "--no-restore-data --no-environ --no-site-file --no-init-file --quiet -q --silent -s "
	  "--slave --no-echo --interactive!c --version!N -h!N --help!N -g=- --gui=- -d=a "
	  "--debugger=a --min-vsize=- --max-vsize=- --max-ppsize=- --encoding=-",
	  "a*", F_STDIN_CODE | F_NOPERMUTE, NULL, NULL },
	{ "Rscript",
	  "-e=c --default-packages=- --verbose --vanilla --no-environ --no-site-file "
	  "--no-init-file --restore --save --no-save --no-restore --version!N --help!N",
	  "k", F_NOPERMUTE, NULL, NULL },
	{ "[", "", "-*", 0, h_test, NULL },
	{ "ag",
	  "--pager=p -G=- --ignore=- -p=r --path-to-ignore=r -A=- -B=- -C?- -g=- "
	  "-m=- --depth=- --color-line-number=- --color-match=- --color-path=-",
	  "-m*", 0, NULL, NULL },
	{ "alacritty", "", "", F_ASK, NULL, R_TERMINAL },
	{ "alias", "", "-*", 0, h_alias, NULL },
	{ "ar", "", "", F_ASK, NULL, "ar writes or extracts members where its key letters say" },
	{ "ash", "", "", 0, h_shell, NULL },
	{ "at", "", "", F_ASK, NULL, "at runs commands later" },
	{ "awk", "", "", 0, h_awk, NULL },
	{ "bash", "", "", 0, h_shell, NULL },
	{ "batch", "", "", F_ASK, NULL, "batch runs commands later" },
	{ "bind", "-x=a -f=r", "-*", 0, NULL, NULL },
	{ "bsd-mailx", "", "", F_ASK, NULL, R_MAIL },
	{ "builtin", "", "x", F_WRAP, NULL, NULL },
	{ "bun",
	  "-e=c --eval=c -p=c --print=c -r=c --preload=c --cwd=C --config=a -c=a --env-file=r "
	  "--silent --smol --bun -b --watch --hot --no-install -i --inspect?- -v!N --version!N "
	  "-h!N --help!N --revision!N",
	  "", 0, h_sub, NULL, NPM_CONF },
	{ "bundle",
	  "--gemfile=r -V --verbose --no-color -r=- --retry=- -h!N --help!N -v!N --version!N", "",
	  0, h_sub, NULL, "Gemfile gems.rb" },
	{ "bunx", "--bun -p=- --package=- --silent --verbose", "x", F_WRAP, NULL, NULL, NPM_CONF },
	{ "bunzip2", "-c!R --stdout!R -k!R --keep!R -t!R --test!R", "d*", 0, NULL, NULL },
	{ "busybox", "", "x", F_WRAP, NULL, NULL },
	{ "bwrap", "", "", F_ASK, NULL, "bwrap runs a command in a syntax not modelled here" },
	{ "bzip2", "-c!R --stdout!R -k!R --keep!R -t!R --test!R", "d*", 0, NULL, NULL },
	{ "c++", CC_OPTS, "r*", F_NOCLUSTER | F_LONGANY | F_CWD_OUT, NULL, NULL },
	{ "cargo",
	  "+*!- -C=C --config=a -Z=a --manifest-path=r --target-dir=t --locked --frozen "
	  "--offline -q --quiet -v -vv --verbose --color=- --explain=- --list!N -V!N "
	  "--version!N -h!N --help!N",
	  "", 0, h_sub,
	  "cargo runs an alias or an external cargo-* program for a subcommand it does not have",
	  "Cargo.toml build.rs .cargo/" },
	{ "cat", "", "r*", 0, NULL, NULL },
	{ "catchsegv", "", "x", F_WRAP, NULL, NULL },
	{ "cc", CC_OPTS, "r*", F_NOCLUSTER | F_LONGANY | F_CWD_OUT, NULL, NULL },
	{ "cd", "-L -P -e -@", "-", 0, NULL, NULL },
	{ "cgexec", "", "", F_ASK, NULL, "cgexec runs a command in a syntax not modelled here" },
	{ "chgrp",
	  "--reference=r -R -h -v -c -f -H -L -P --dereference --no-dereference "
	  "--recursive --verbose --changes --silent --quiet --from=-",
	  "-w*", 0, NULL, NULL },
	{ "chmod",
	  "--reference=r -R -v -c -f --recursive --verbose --changes --silent --quiet "
	  "--preserve-root --no-preserve-root",
	  "-w*", 0, NULL, NULL },
	{ "chown",
	  "--reference=r -R -h -v -c -f -H -L -P --dereference --no-dereference "
	  "--recursive --verbose --changes --silent --quiet --from=-",
	  "-w*", 0, NULL, NULL },
	{ "chpst", "", "", F_ASK, NULL, "chpst runs a command in a syntax not modelled here" },
	{ "chronic", "-e -v", "x", F_WRAP, NULL, NULL },
	{ "chroot", "--userspec=- --groups=- --skip-chdir", "-x", F_WRAP, NULL, R_NO_CMD_SHELL },
	{ "chrt",
	  "-a -b -d -e -f -i -o -r -R -v -m!N -p!N -T=- -P=- -D=- --all-tasks --batch "
	  "--deadline --fifo --idle --other --rr --reset-on-fork --verbose --max!N "
	  "--pid!N --sched-runtime=- --sched-period=- --sched-deadline=- -h!N --help!N "
	  "-V!N --version!N",
	  "-x", F_WRAP, NULL, NULL },
	{ "clang", CC_OPTS, "r*", F_NOCLUSTER | F_LONGANY | F_CWD_OUT, NULL, NULL },
	{ "cmake", "", "", 0, h_cmake, NULL, "CMakeLists.txt" },
	{ "cmp",
	  "-i=- --ignore-initial=- -n=- --bytes=- -b -l -s --print-bytes --verbose "
	  "--quiet --silent",
	  "r*", 0, NULL, NULL },
	{ "comm",
	  "--output-delimiter=- -1 -2 -3 -i -z --check-order --nocheck-order --total "
	  "--zero-terminated",
	  "r*", 0, NULL, NULL },
	{ "command", "-p -v!N -V!N", "x", F_WRAP, NULL, NULL },
	{ "compgen", "-C=s -F=a -W=a -A=- -G=- -o=- -P=- -S=- -X=-", "-*", 0, NULL, NULL },
	{ "complete", "-C=a -F=- -W=a -A=- -G=- -o=- -P=- -S=- -X=-", "-*", 0, NULL, NULL },
	{ "conda", "-h!N --help!N -V!N --version!N --json -v -q --no-plugins", "", 0, h_sub, NULL },
	{ "cp", CP_OPTS, "r*w", 0, NULL, NULL },
	{ "cpio", "", "", F_ASK, NULL,
	  "cpio writes where its archive says, or runs --rsh-command" },
	{ "cpulimit",
	  "-l=- --limit=- -p=- --pid=- -e=- --exe=- -P=- --path=- -z --lazy -i "
	  "--include-children -v --verbose -q --quiet -b --background -c=- --cpu=- -k --kill "
	  "-r --restore -s=- --signal=- -m --monitor-forks -h!N --help!N",
	  "x", F_WRAP, NULL, NULL },
	{ "crontab", "", "", F_ASK, NULL, "crontab installs commands that run later" },
	{ "csh", "", "", 0, h_shell, NULL },
	{ "csplit",
	  "-f=w --prefix=w -b=- --suffix-format=- -n=- --digits=- -k -s -z -q "
	  "--keep-files --quiet --silent --elide-empty-files --suppress-matched",
	  "r-*", F_CWD_OUT_ANY, NULL, NULL },
	{ "curl",
	  "-o=w --output=w -D=w --dump-header=w -c=w --cookie-jar=w --trace=w "
	  "--trace-ascii=w --stderr=w --libcurl=w --etag-save=w --hsts=w --alt-svc=w "
	  "--output-dir=C -O!a --remote-name!a --remote-name-all!a -J --remote-header-name "
	  "-K=a --config=a -T=r --upload-file=r --cacert=r --capath=r --cert=r --key=r "
	  "-E=r --netrc-file=r -b=B --cookie=B -d=@ --data=@ --data-binary=@ --data-ascii=@ "
	  "--data-raw=- --data-urlencode=@ --json=@ -F=@ --form=@ -H=@ --header=@ "
	  "--proxy-header=@ --url-query=@ --form-string=- "
	  "-X=- --request=- -u=- --user=- -A=- --user-agent=- -e=- --referer=- "
	  "-x=- --proxy=- -U=- --proxy-user=- -m=- --max-time=- --connect-timeout=- "
	  "--retry=- --retry-delay=- --retry-max-time=- -w=- --write-out=- -r=- "
	  "--range=- -C=- --continue-at=- -y=- -Y=- --limit-rate=- --resolve=- "
	  "--connect-to=- --interface=- --dns-servers=- -z=- --time-cond=- -Q=- "
	  "--quote=- --url=- --variable=@ --expand-data=- --expand-url=- -h!N "
	  "--help?N -V!N --version!N",
	  "-*", F_LONGANY, NULL, NULL },
	{ "cut",
	  "-b=- -c=- -d=- -f=- --bytes=- --characters=- --delimiter=- --fields=- "
	  "--output-delimiter=- -n -s -z --complement --only-delimited --zero-terminated",
	  "r*", 0, NULL, NULL },
	{ "daemonize", "", "", F_ASK, NULL,
	  "daemonize runs a command in a syntax not modelled here" },
	{ "dash", "", "", 0, h_shell, NULL },
	{ "dbus-launch", "", "x", F_WRAP | F_LONGANY, NULL, NULL },
	{ "dbus-run-session", "--config-file=r --dbus-daemon=a", "x", F_WRAP, NULL, NULL },
	{ "dc", "-e=c --expression=c -f=c --file=c", "c*", 0, NULL, NULL },
	{ "dd", "", "", 0, h_dd, NULL },
	{ "declare", "", "", 0, h_declare, NULL },
	{ "deno", "-h!N --help!N -V!N --version!N -q --quiet --log-level=- --unstable", "", 0,
	  h_sub, NULL, "deno.json deno.jsonc package.json" },
	{ "devbox", "-h!N --help!N -q --quiet", "", 0, h_sub, NULL, "devbox.json" },
	{ "diff",
	  "-C?- -U?- -x=- --exclude=- -X=r --exclude-from=r -I=- "
	  "--ignore-matching-lines=- -F=- --show-function-line=- -L=- --label=- "
	  "--from-file=r --to-file=r --line-format=- --old-line-format=- "
	  "--new-line-format=- --unchanged-line-format=- --old-group-format=- "
	  "--new-group-format=- --changed-group-format=- --unchanged-group-format=- "
	  "--horizon-lines=- --tabsize=- -W=- --width=- --color?- --palette=- "
	  "--unified?- --context?- -D=- --ifdef=- -S=- --starting-file=-",
	  "r*", F_LONGANY, NULL, NULL },
	{ "diff3",
	  "--diff-program=p -m --merge -A -e -E -x -X -3 -i -T -a --text -L=- --label=- "
	  "--strip-trailing-cr --help!N --version!N",
	  "rrr", F_LONGANY, NULL, NULL },
	{ "direnv", "", "", 0, h_sub, NULL, ".envrc .env" },
	{ "doas", "-u=- -C=r -n -s!- -L", "x", F_WRAP, NULL, NULL },
	{ "docker", DOCKER_OPTS, "", 0, h_sub, R_CONTAINERS },
	{ "docker-compose", "", "", F_ASK, NULL, R_CONTAINERS },
	{ "dtach", "", "", F_ASK, NULL, "dtach runs a command in a syntax not modelled here" },
	{ "dumb-init",
	  "-c --single-child -r=- --rewrite=- -v --verbose -V!N --version!N -h!N --help!N", "x",
	  F_WRAP, NULL, NULL },
	{ "eatmydata", "", "x", F_WRAP, NULL, NULL },
	{ "echo", "", "-*", 0, NULL, NULL },
	{ "ed", "", "", F_ASK, NULL, "ed runs commands from standard input, ! runs a shell" },
	{ "editor", "", "w*", 0, NULL, NULL },
	{ "elvish", "", "", F_ASK, NULL, "a shell whose syntax this analysis does not model" },
	{ "emacs",
	  "--eval=c -l=c --load=c -f=c --funcall=c --script=c -x=c -L=- --directory=- "
	  "--batch -Q -nw -q --no-init-file --no-site-file --debug-init --chdir=C "
	  "--insert=r --file=w --find-file=w --visit=w",
	  "w*", F_LONGANY, NULL, NULL },
	{ "enable", "-f=a -d -n -a -p -s", "-*", 0, NULL, NULL },
	{ "entr", "", "", F_ASK, NULL, "entr runs a command in a syntax not modelled here" },
	{ "env",
	  "- -i -0 -v -u=- -C=C -S=s -P=a --ignore-environment --null --debug --unset=- "
	  "--chdir=C --split-string=s --block-signal?- --default-signal?- "
	  "--ignore-signal?- --list-signal-handling --help!N --version!N",
	  "E*x", F_WRAP, NULL, NULL },
	{ "envdir", "", "", F_ASK, NULL,
	  "envdir sets the command's environment from the files of a directory" },
	{ "envuidgid", "", "-x", F_WRAP, NULL, NULL },
	{ "erb", "-r=c -T=- -S=- -E=- -U -P -x -n -v -d --version!N -h!N --help!N", "k",
	  F_STDIN_CODE | F_NOPERMUTE, NULL, NULL },
	{ "esbuild", "--outfile=w --outdir=t --metafile=w --mangle-cache=w --tsconfig=r", "m*",
	  F_LONGANY, NULL, NULL },
	{ "eval", "", "", 0, h_eval, NULL },
	{ "ex", "-c=c --cmd=c -S=c -s!c -u=c -i=- -w=w -W=w", "w*", 0, NULL, NULL },
	{ "exec", "-c -l -a=-", "x", F_WRAP, NULL, NULL },
	{ "expect", "", "", F_ASK, NULL, "expect runs scripts of its own language" },
	{ "export", "", "", 0, h_declare, NULL },
	{ "fakechroot",
	  "-s --use-system-libs -e=a --environment=a -c=a --config-dir=a -b=a --bindir=a -l=a "
	  "--lib=a -d=a --elfloader=a -h!N --help!N -v!N --version!N",
	  "x", F_WRAP, NULL, R_NO_CMD_SHELL },
	{ "fakeroot", "-l=a --lib=a --faked=a -s=w -i=r -u -b=- -h!N -v!N", "x", F_WRAP, NULL,
	  R_NO_CMD_SHELL },
	{ "faketime", "", "", F_ASK, NULL,
	  "faketime runs a command in a syntax not modelled here" },
	{ "false", "", "-*", 0, NULL, NULL },
	{ "fc", "", "", F_ASK, NULL, "fc edits and runs commands from the history" },
	{ "file",
	  "-f=r --files-from=r -m=r --magic-file=r -F=- --separator=- -P=- -e=- "
	  "--exclude=- --exclude-quiet=- --parameter=-",
	  "r*", F_LONGANY, NULL, NULL },
	{ "find", "", "", 0, h_find, NULL },
	{ "firejail", "", "x", F_WRAP | F_LONGANY, NULL, R_NO_CMD_SHELL },
	{ "fish", "", "", 0, h_shell, NULL },
	{ "flatpak-spawn", "", "", F_ASK, NULL, "flatpak-spawn runs a command on the host" },
	{ "flock", "", "", 0, h_flock, NULL },
	{ "foot", "", "", F_ASK, NULL, R_TERMINAL },
	{ "ftp", "", "", F_ASK, NULL, "it runs ! shell commands read from standard input" },
	{ "g++", CC_OPTS, "r*", F_NOCLUSTER | F_LONGANY | F_CWD_OUT, NULL, NULL },
	{ "gawk", "", "", 0, h_awk, NULL },
	{ "gcc", CC_OPTS, "r*", F_NOCLUSTER | F_LONGANY | F_CWD_OUT, NULL, NULL },
	{ "gdb",
	  "--args!x -ex=c -x=c -ix=c -iex=c --command=c --eval-command=c -p=- --pid=- "
	  "-batch -q -nx -n --batch --quiet",
	  "", F_NOCLUSTER | F_ASK, NULL, "gdb runs commands from -ex, -x or standard input" },
	{ "getopts", "", "", 0, h_varnames, NULL },
	{ "ghc",
	  "-o=w -odir=t -hidir=t -outputdir=t -stubdir=t -dumpdir=t -hiedir=t -e=c -F!a -pgm*!a "
	  "--interactive!c --run!c --make -c -x=- --version!N --help!N",
	  "r*", F_NOCLUSTER | F_LONGANY, NULL, NULL },
	{ "ghci", "", "", F_ASK, NULL, "it reads code from standard input" },
	{ "git", "", "", 0, h_git, NULL },
	{ "gnome-terminal", "", "", F_ASK, NULL, R_TERMINAL },
	{ "go", "-h!N --help!N", "", 0, h_go, NULL, "go.mod go.work" },
	{ "gosu", "", "-x", F_WRAP, NULL, NULL },
	{ "gpg",
	  "-o=w --output=w --homedir=t --options=a --load-extension=a --exec-path=a "
	  "--photo-viewer=a --list-options=- -r=- --recipient=- -u=- --local-user=- "
	  "--default-key=- --keyserver=- --trust-model=- --passphrase=- "
	  "--passphrase-file=r --import-options=- --export-options=-",
	  "r*", F_LONGANY, NULL, NULL },
	{ "gradle",
	  "-I=k --init-script=k -b=k --build-file=k -c=k --settings-file=k -p=C "
	  "--project-dir=C -g=t --gradle-user-home=t -D*!- -P*!- -q --quiet -i --info "
	  "--offline --daemon --no-daemon --stacktrace -S --scan --console=- -x=- "
	  "--exclude-task=- --parallel --continue -v!N --version!N -h!N --help!N",
	  "-*", F_NOCLUSTER | F_LONGANY, NULL, NULL,
	  "build.gradle build.gradle.kts settings.gradle settings.gradle.kts gradle/" },
	{ "grep",
	  "-e=P --regexp=P -f=F --file=F -m=- --max-count=- -A=- -B=- -C=- "
	  "--after-context=- --before-context=- --context=- --color?- --colour?- "
	  "--include=- --exclude=- --exclude-from=r --exclude-dir=- --label=- -d=- "
	  "--directories=- -D=- --devices=- --binary-files=- --group-separator=- "
	  "--line-buffered -i -v -n -r -R -l -L -c -o -w -x -E -F -G -P -H -h -s -q -z -Z "
	  "-a -I -U -b -T",
	  "-r*", F_LONGANY, NULL, NULL },
	{ "groovy",
	  "-e=c -c=- --encoding=- -cp=- -classpath=- --classpath=- -D=- -l?- -n -p -i?W -a?- "
	  "-v!N --version!N -h!N --help!N -d --debug",
	  "k", F_NOCLUSTER | F_NOPERMUTE, NULL, NULL },
	{ "gunzip", "-c!R --stdout!R -k!R --keep!R -t!R --test!R -l!R --list!R -S=- --suffix=-",
	  "d*", 0, NULL, NULL },
	{ "gzip", "-c!R --stdout!R -k!R --keep!R -t!R --test!R -l!R --list!R -S=- --suffix=-", "d*",
	  0, NULL, NULL },
	{ "hash", "-p=a -d -r -t -l", "-*", 0, NULL, NULL },
	{ "hatch", "-e=- --env=- -p=C --project=C -v -q --verbose --quiet --no-color --color", "",
	  0, h_sub, NULL, "pyproject.toml hatch.toml" },
	{ "head",
	  "-n=- -c=- --lines=- --bytes=- -q -v -z --quiet --silent --verbose "
	  "--zero-terminated",
	  "r*", 0, NULL, NULL },
	{ "heaptrack",
	  "-o=w --output=w -r --record-only -d --debug -p=- --pid=- -a!N --analyze!N --raw "
	  "--use-inject --use-preload -q --quiet -h!N --help!N -v!N --version!N",
	  "x", F_WRAP, NULL, NULL },
	{ "history", "-c -d=- -a -n -r -w -p -s", "a*", 0, NULL, NULL },
	{ "hyperfine",
	  "-p=s --prepare=s -s=s --setup=s -c=s --cleanup=s --conclude=s -S=a "
	  "--shell=a -P=a --parameter-scan=a -L=a --parameter-list=a "
	  "-D=a --parameter-step-size=a --export-json=w --export-csv=w "
	  "--export-markdown=w --export-asciidoc=w --export-orgmode=w --output=w "
	  "-w=- --warmup=- -m=- --min-runs=- -M=- --max-runs=- -r=- --runs=- "
	  "-n=- --command-name=- -u=- --time-unit=- --style=- --sort=- "
	  "-i --ignore-failure -N --show-output --input=r",
	  "s*", 0, NULL, NULL },
	{ "iconv",
	  "-f=- --from-code=- -t=- --to-code=- -o=w --output=w -c -s --silent -l!N --list!N "
	  "--verbose --help!N --version!N",
	  "r*", F_LONGANY, NULL, NULL },
	{ "ifne", "-n", "x", F_WRAP, NULL, NULL },
	{ "install",
	  "-t=T --target-directory=T -m=- --mode=- -o=- --owner=- -g=- --group=- "
	  "-S=- --suffix=- --backup?- -b -c -C -D -d -p -s -T -v -Z --compare "
	  "--directory --preserve-timestamps --strip --strip-program=p "
	  "--no-target-directory --verbose --context?-",
	  "r*w", 0, NULL, NULL },
	{ "ionice",
	  "-c=- -n=- -p!N -P!N -u!N -t --class=- --classdata=- --pid!N --pgid!N "
	  "--uid!N --ignore -h!N -V!N",
	  "x", F_WRAP, NULL, NULL },
	{ "irb", "", "", F_ASK, NULL, "it reads code from standard input" },
	{ "java",
	  "-jar=k -cp=- -classpath=- --class-path=- -p=- --module-path=- -m=- --module=- -D*!- "
	  "-X*!- -ea -da -esa -dsa -enableassertions -disableassertions -javaagent*!a "
	  "-agentlib*!a -agentpath*!a -version!N --version!N -showversion --show-version "
	  "-verbose*!- --add-opens=- --add-exports=- --add-modules=- --add-reads=- "
	  "--enable-preview -server -client --source=- --enable-native-access=- -h!N -help!N "
	  "--help!N",
	  "-*", F_NOCLUSTER | F_NOPERMUTE, NULL, NULL },
	{ "javac",
	  "-d=t -s=t -h=t -sourcepath=- --source-path=- -cp=- -classpath=- --class-path=- "
	  "-processorpath=- --processor-path=- -processor=- -Xplugin*!a -J*!a -encoding=- "
	  "-source=- -target=- --release=- -g*!- -nowarn -verbose -deprecation -Xlint*!- "
	  "-Werror -implicit*!- -parameters -proc*!- -A*!- --module-path=- -p=- -m=- "
	  "--module=- --add-modules=- -version!N --version!N -help!N --help!N",
	  "r*", F_NOCLUSTER, NULL, NULL },
	{ "jobs", "-l -n -p -r -s -x!x", "-*", 0, NULL, NULL },
	{ "julia",
	  "-e=c --eval=c -E=c --print=c -L=c --load=c -i!c -q --quiet --project?- -t=- "
	  "--threads=- -O?- -g?- --startup-file=- --history-file=- --banner=- --color=- "
	  "--compile=- --check-bounds=- --math-mode=- --code-coverage?w --track-allocation?- "
	  "--bug-report=a -v!N --version!N -h!N --help!N -J=r --sysimage=r -H=- --home=- -p=- "
	  "--procs=- --machine-file=r",
	  "k", F_STDIN_CODE | F_NOPERMUTE | F_LONGANY, NULL, NULL },
	{ "just",
	  "-f=k --justfile=k -d=C --working-directory=C --shell=a --shell-arg=a --command!a "
	  "-c!a -E=r --dotenv-path=r --dotenv-filename=- --set=- -n --dry-run -q --quiet -v "
	  "--verbose -l!N --list!N --summary!N --show=- -s=- --dump!N --evaluate!N -h!N "
	  "--help!N -V!N --version!N",
	  "-*", F_LONGANY, NULL, NULL, "justfile Justfile .justfile" },
	{ "kill", "-s=- -n=- -l -L", "-*", F_LONGANY, NULL, NULL },
	{ "kitty", "", "", F_ASK, NULL, R_TERMINAL },
	{ "konsole", "", "", F_ASK, NULL, R_TERMINAL },
	{ "kotlin",
	  "-e=c -expression=c -cp=- -classpath=- -howtorun=- -J*!a -D*!- -version!N -h!N "
	  "-help!N",
	  "k", F_NOCLUSTER | F_NOPERMUTE, NULL, NULL },
	{ "kotlinc",
	  "-d=t -include-runtime -script!c -e=c -expression=c -cp=- -classpath=- -jdk-home=- "
	  "-kotlin-home=- -P=a -Xplugin*!a -J*!a -version!N -help!N -h!N",
	  "r*", F_NOCLUSTER, NULL, NULL },
	{ "ksh", "", "", 0, h_shell, NULL },
	{ "lckdo", "-w -W=- -q", "wx", F_WRAP, NULL, NULL },
	{ "less",
	  "+*!c -o=w --log-file=w -O=w --LOG-FILE=w -k=c --lesskey-file=c "
	  "--lesskey-src=c -b=- -h=- -j=- -p=- -P=- -t=- -T=- -x=- -y=- -z=- -#=- "
	  "--shift=- --tabs=- --pattern=- --prompt=- --tag=- --tag-file=- --max-back-scroll=- "
	  "--max-forw-scroll=- --window=- --buffers=- --use-color --color=-",
	  "r*", F_LONGANY, NULL, NULL },
	{ "let", "", "", 0, h_let, NULL },
	{ "lftp", "", "", F_ASK, NULL, "it runs ! shell commands of its own language" },
	{ "linux32", "", "", F_ASK, NULL, "linux32 runs a command in a syntax not modelled here" },
	{ "linux64", "", "", F_ASK, NULL, "linux64 runs a command in a syntax not modelled here" },
	{ "lldb", "", "", F_ASK, NULL,
	  "lldb runs debugger commands, which include shell commands" },
	{ "ln",
	  "-t=T --target-directory=T -S=- --suffix=- --backup?- -b -d -F -f -i -L -n -P "
	  "-r -s -T -v --force --interactive --logical --no-dereference --physical "
	  "--relative --symbolic --no-target-directory --verbose --directory",
	  "-*L", 0, h_ln, NULL },
	{ "local", "", "", 0, h_declare, NULL },
	{ "ltrace",
	  "-o=w --output=w -p!N -a=- -A=- -D=- -e=- -E=- -F=r -l=- -n=- -s=- -u=- "
	  "-w=- -x=- -b -c -C -f -h -i -L -r -S -t -T -V --align=- --indent=- "
	  "--library=- --config=r --demangle --help --version",
	  "x", F_WRAP, NULL, NULL },
	{ "lua", "-e=c -l=c -i!c -v!N -E -W", "k", F_STDIN_CODE | F_NOPERMUTE, NULL, NULL },
	{ "luajit", "-e=c -l=c -i!c -v!N -E -b!a -j=c -O?-", "k", F_STDIN_CODE | F_NOPERMUTE, NULL,
	  NULL },
	{ "lxterminal", "", "", F_ASK, NULL, R_TERMINAL },
	{ "m4", "", "", F_ASK, NULL, "m4 macros run shell commands (syscmd, esyscmd)" },
	{ "mail", "", "", F_ASK, NULL, R_MAIL },
	{ "mailx", "", "", F_ASK, NULL, R_MAIL },
	{ "make", "", "", 0, h_make, NULL, "Makefile makefile GNUmakefile" },
	{ "mamba", "-h!N --help!N -V!N --version!N --json -v -q --no-plugins", "", 0, h_sub, NULL },
	{ "man",
	  "-P=p --pager=p -H?p --html?p -l=r --local-file=r -C=r --config-file=r -M=- "
	  "--manpath=- -S=- -s=- --sections=- -L=- --locale=- -m=- --systems=- -p=- "
	  "--preprocessor=- -R=- --recode=- -T?a --troff-device?a -E=- --encoding=- "
	  "-e=- --extension=- -X?a --gxditview?a -Z --ditroff",
	  "-*", F_LONGANY, NULL, NULL },
	{ "mapfile", "", "", 0, h_varnames, NULL },
	{ "mariadb", "", "", F_ASK, NULL, "a database client runs \\! shell commands" },
	{ "mate-terminal", "", "", F_ASK, NULL, R_TERMINAL },
	{ "mawk", "", "", 0, h_awk, NULL },
	{ "memusage",
	  "-n=- --progname=- -p=w --png=w -d=w --data=w -u --unbuffered -b=- --buffer=- "
	  "--no-timer -t --time-based -T --total -x=- --x-size=- -y=- --y-size=- --help!N "
	  "--usage!N -V!N --version!N",
	  "x", F_WRAP, NULL, NULL },
	{ "meson", "--wrapper=p --gdb!a", "-*", F_LONGANY, NULL, NULL,
	  "meson.build meson_options.txt meson.options" },
	{ "micromamba", "-h!N --help!N -V!N --version!N --json -v -q --no-plugins", "", 0, h_sub,
	  NULL },
	{ "mispipe", "", "ss", 0, NULL, NULL },
	{ "mkdir", "-m=- --mode=- -p -v -Z --parents --verbose --context?-", "w*", 0, NULL, NULL },
	{ "mksh", "", "", 0, h_shell, NULL },
	{ "mktemp", "", "", 0, h_mktemp, NULL },
	{ "more", "-n=- --lines=-", "r*", 0, NULL, NULL },
	{ "mv", CP_OPTS, "d*w", 0, NULL, NULL },
	{ "mvn",
	  "-f=r --file=r -s=a --settings=a -gs=a --global-settings=a -Dexec*!a -D*!- -P=- "
	  "-pl=- -am -amd -o -q -X -e -B -U -T=- -v!N --version!N -h!N --help!N",
	  "-*", F_NOCLUSTER | F_LONGANY, NULL, NULL, "pom.xml .mvn/" },
	{ "mysql", "", "", F_ASK, NULL, "a database client runs \\! shell commands" },
	{ "nano",
	  "-Y=- --syntax=- -T=- --tabsize=- -o=C --operatingdir=C -r=- --fill=- "
	  "-Q=- --quotestr=- -X=- --wordchars=- -J=- --guidestripe=- -s=p --speller=p",
	  "w*", F_LONGANY, NULL, NULL },
	{ "nawk", "", "", 0, h_awk, NULL },
	{ "nc", "-e=p -c=s", "-*", 0, NULL, NULL },
	{ "ncat", "-e=p --exec=p -c=s --sh-exec=s --lua-exec=c -o=w --output=w", "-*", F_LONGANY,
	  NULL, NULL },
	{ "nerdctl", DOCKER_OPTS, "", 0, h_sub, R_CONTAINERS },
	{ "netcat", "-e=p -c=s", "-*", 0, NULL, NULL },
	{ "nice", "-n=- --adjustment=- -#", "x", F_WRAP, NULL, NULL },
	{ "ninja",
	  "-C=C -f=r -t=a -j=- -k=- -l=- -n -v --verbose --quiet -d=- -w=- --version!N -h!N", "-*",
	  0, NULL, NULL, "build.ninja" },
	{ "nix",
	  "--option=a --extra-experimental-features=- --experimental-features=- -L "
	  "--print-build-logs -v --verbose -q --quiet --impure --offline --refresh --version!N "
	  "--help!N",
	  "", 0, h_sub, NULL },
	{ "nix-env", "", "", F_ASK, NULL, "nix-env installs into the user's profile" },
	{ "nix-shell", "", "", F_ASK, NULL, "nix-shell runs shell hooks from Nix expressions" },
	{ "nl", "-b=- -d=- -f=- -h=- -i=- -l=- -n=- -s=- -v=- -w=- -p", "r*", F_LONGANY, NULL,
	  NULL },
	{ "nmap",
	  "--script=c --script-args-file=r --script-args=- -oN=w -oX=w -oG=w -oS=w -oM=w -oA=a "
	  "-iL=r --excludefile=r --resume=r --datadir=a --servicedb=r --versiondb=r "
	  "--stylesheet=- --append-output",
	  "-*", F_NOCLUSTER | F_LONGANY, NULL, NULL },
	{ "nocache", "-n=-", "x", F_WRAP, NULL, NULL },
	{ "node",
	  "-e=c --eval=c -p=c --print=c -r=c --require=c --import=c --loader=c "
	  "--experimental-loader=c -c!N --check!N -v!N --version!N -h!N --help!N -i!c "
	  "--interactive!c --input-type=- --title=- --env-file=r",
	  "k", F_STDIN_CODE | F_LONGANY | F_NOPERMUTE, NULL, NULL },
	{ "nodejs",
	  "-e=c --eval=c -p=c --print=c -r=c --require=c --import=c --loader=c "
	  "-c!N --check!N -v!N --version!N -h!N --help!N -i!c --interactive!c",
	  "k", F_STDIN_CODE | F_LONGANY | F_NOPERMUTE, NULL, NULL },
	{ "nohup", "", "x", F_WRAP, NULL, NULL },
	{ "nox", "-f=k --noxfile=k -s=- --session=- -r -R --envdir=t", "-*", F_LONGANY, NULL, NULL,
	  "noxfile.py" },
	{ "npm", NPM_OPTS, "", 0, h_sub, NULL, NPM_CONF },
	{ "npx",
	  "--package=- -p=- -c=s --call=s -y --yes --no -q --quiet --ignore-existing "
	  "--prefer-offline --prefer-online --offline --registry=- --cache=t --userconfig=a "
	  "--script-shell=a --node-options=a -h!N --help!N -v!N --version!N",
	  "x", F_WRAP, NULL, NULL, NPM_CONF },
	{ "nsenter",
	  "-m?- -u?- -i?- -n?- -p?- -U?- -C?- -T?- -r?- -w?- -a -F -Z -e -h -V "
	  "-t=- -S=- -G=- --target=- --setuid=- --setgid=- --mount?- --uts?- "
	  "--ipc?- --net?- --pid?- --user?- --cgroup?- --time?- --root?- --wd?- "
	  "--all --no-fork --follow-context --env --preserve-credentials",
	  "x", F_WRAP, NULL, R_NO_CMD_SHELL },
	{ "nsjail", "", "", F_ASK, NULL, "nsjail runs a command in a syntax not modelled here" },
	{ "nu", "", "", F_ASK, NULL, "a shell whose syntax this analysis does not model" },
	{ "numactl", "", "", F_ASK, NULL, "numactl runs a command in a syntax not modelled here" },
	{ "nvim",
	  "-c=c --cmd=c -S=c -s=c -u=c -i=- -w=w -W=w +*!c -e!c -E!c -es!c -Es!c -l=c "
	  "--clean -R -Z -d -b -n -N -M -m -r -L -o?- -O?- -p?- -V?- -D -h!N -v!N "
	  "--headless --listen=- --startuptime=w",
	  "w*", F_NOCLUSTER, NULL, NULL },
	{ "octave",
	  "--eval=c -q --quiet --no-gui --norc -f --no-init-file --no-site-file --no-history -H "
	  "--persist -p=- --path=- --exec-path=a --image-path=- --info-file=r --info-program=p "
	  "--doc-cache-file=r --texi-macros-file=r -v!N --version!N -h!N --help!N -W "
	  "--no-window-system --traditional --braindead --silent -V --verbose -x "
	  "--echo-commands -i!c --interactive!c --line-editing --no-line-editing --gui",
	  "k", F_STDIN_CODE | F_NOPERMUTE | F_LONGANY, NULL, NULL },
	{ "open", "", "", F_ASK, NULL, "it opens files with programs of the desktop's choosing" },
	{ "openssl",
	  "-out=w -keyout=w -certout=w -in=r -key=r -inkey=r -signkey=r -CAfile=r "
	  "-config=a -engine=a -provider=a -provider-path=a -passin=- -passout=- "
	  "-pass=- -subj=- -days=- -newkey=- -name=- -digest=- -md=-",
	  "-*", F_NOCLUSTER | F_LONGANY, NULL, NULL },
	{ "pager", "", "r*", 0, NULL, NULL },
	{ "parallel", "", "", F_ASK, NULL, "parallel runs commands in a syntax not modelled here" },
	{ "paste", "-d=- --delimiters=- -s -z --serial --zero-terminated", "r*", 0, NULL, NULL },
	{ "patch",
	  "-o=w --output=w -i=r --input=r -d=C --directory=C -r=w --reject-file=w "
	  "-B=- --prefix=- -Y=- --basename-prefix=- -z=- --suffix=- -D=- --ifdef=- "
	  "-F=- --fuzz=- -p=- --strip=- -V=- --version-control=- --quoting-style=- "
	  "-g=- --get=- -b -c -e -E -f -l -n -N -R -s -t -T -u -Z --dry-run --binary "
	  "--batch --forward --ignore-whitespace --reverse --silent --quiet --posix "
	  "--merge?- --backup --follow-symlinks --remove-empty-files --set-utc --set-time",
	  "wr", F_CWD_OUT_ANY, NULL, NULL },
	{ "pdm", "-v -q --verbose --quiet -p=C --project=C -g!a --global!a -I --ignore-python", "",
	  0, h_sub, NULL, "pyproject.toml" },
	{ "pee", "", "s*", 0, NULL, NULL },
	{ "perf",
	  "-v!N --version!N -h!N --help!N --exec-path?a --html-path!N --paginate --no-pager -p "
	  "-P --debugfs-dir=- --buildid-dir=t --list-cmds!N --list-opts!N",
	  "", 0, h_sub, NULL },
	{ "perl",
	  "-e=c -E=c -M=c -m=c -I=- -i?W -x?- -l?- -0?- -F=- -C?- -d?c -D?- -n -p -a "
	  "-s -S -t -T -u -U -w -W -X -c!N -v!N -V!N -h!N",
	  "k", F_STDIN_CODE | F_NOPERMUTE, NULL, NULL },
	{ "php",
	  "-r=c -B=c -R=c -F=c -E=c -f=k -d=c -c=c -a!c -S=a -t=- -z=c -n -l!N -v!N "
	  "-m!N -i!N -h!N -s -q -H -e -w",
	  "k", F_STDIN_CODE | F_NOPERMUTE, NULL, NULL },
	{ "pip",
	  "--target=t -t=t --prefix=t --root=t -d=t --dest=t -w=t --wheel-dir=t --src=t "
	  "--log=w --report=w -r=r --requirement=r -c=r --constraint=r --cache-dir=t "
	  "--no-cache-dir -e=- --editable=- --user!a --break-system-packages -U --upgrade -q -v "
	  "-I --ignore-installed --no-deps --pre --index-url=- -i=- --extra-index-url=- "
	  "--trusted-host=- -f=- --find-links=- --no-build-isolation --dry-run "
	  "--force-reinstall --no-binary=- --only-binary=- --python=- --config-settings=- -C=- "
	  "--isolated --disable-pip-version-check --no-input --no-color --progress-bar=- "
	  "--timeout=- --retries=- --proxy=- --exists-action=- -h!N --help!N -V!N --version!N",
	  "-*", F_LONGANY, NULL, NULL, "setup.py setup.cfg pyproject.toml" },
	{ "pipenv",
	  "--python=- --site-packages --clear -v -q --verbose --quiet --venv!N --where!N --py!N "
	  "--envs!N --rm -h!N --help!N --version!N",
	  "", 0, h_sub, NULL, "Pipfile" },
	{ "pipx", "-h!N --help!N --version!N -v -q --quiet --verbose", "", 0, h_sub,
	  "pipx installs into ~/.local, or runs packages" },
	{ "pixi",
	  "-v -q --verbose --quiet --manifest-path=r --color=- -h!N --help!N -V!N --version!N", "",
	  0, h_sub, NULL, "pixi.toml pyproject.toml" },
	{ "pkexec", "--user=- --keep-cwd --disable-internal-agent --help!N --version!N", "x",
	  F_WRAP, NULL, R_NO_CMD_SHELL },
	{ "pnpm",
	  "-C=C --dir=C -w --workspace-root -r --recursive --filter=- -F=- --silent -s "
	  "--reporter=- --loglevel=- --stream --aggregate-output --color --no-color --parallel "
	  "--workspace-concurrency=- --config.*!a -g!a --global!a -v!N --version!N -h!N --help!N",
	  "", 0, h_sub, NULL, NPM_CONF },
	{ "podman", DOCKER_OPTS, "", 0, h_sub, R_CONTAINERS },
	{ "poetry",
	  "-C=C --directory=C -P=C --project=C -q --quiet -v -vv -vvv --verbose -n "
	  "--no-interaction --ansi --no-ansi --no-plugins --no-cache -V!N --version!N -h!N "
	  "--help!N",
	  "", 0, h_sub, NULL, "pyproject.toml poetry.toml" },
	{ "popd", "", "-*", 0, NULL, NULL },
	{ "posh", "", "", 0, h_shell, NULL },
	{ "powershell", "", "", F_ASK, NULL, "PowerShell runs code of its own language" },
	{ "printf", "", "", 0, h_varnames, NULL },
	{ "prlimit", "", "", F_ASK, NULL, "prlimit runs a command in a syntax not modelled here" },
	{ "proot",
	  "-r=- --rootfs=- -b=- --bind=- -m=- --mount=- -q=a --qemu=a -w=C --cwd=C "
	  "--pwd=C -k=- --kernel-release=- -i=- --change-id=- -v=- --verbose=- -0 -R "
	  "-S -l -V -h",
	  "x", F_WRAP, NULL, R_NO_CMD_SHELL },
	{ "proxychains", "", "", F_ASK, NULL,
	  "proxychains runs a command in a syntax not modelled here" },
	{ "proxychains4", "", "", F_ASK, NULL,
	  "proxychains runs a command in a syntax not modelled here" },
	{ "psql", "", "", F_ASK, NULL, "a database client runs \\! shell commands" },
	{ "pushd", "", "-*", 0, NULL, NULL },
	{ "pwd", "-L -P", "-*", 0, NULL, NULL },
	{ "pwsh", "", "", F_ASK, NULL, "PowerShell runs code of its own language" },
	{ "pytest",
	  "-c=r --rootdir=- -p=- --basetemp=t --junit-xml=w --junitxml=w --result-log=w "
	  "--resultlog=w --log-file=w --cov-report=- -o=- --override-ini=- --confcutdir=- -k=- "
	  "-m=- --deselect=- --ignore=- --ignore-glob=- --tb=- --maxfail=- -n=- --durations=-",
	  "m*", F_LONGANY, NULL, NULL, "conftest.py pytest.ini pyproject.toml setup.cfg tox.ini" },
	{ "python",
	  "-c=c -m=- -W=- -X=- -O -OO -B -u -E -I -s -S -q -v -b -d -R -x -P -i!c " INTERP_INFO,
	  "k", F_STDIN_CODE | F_NOPERMUTE, h_python, NULL },
	{ "python3",
	  "-c=c -m=- -W=- -X=- -O -OO -B -u -E -I -s -S -q -v -b -d -R -x -P -i!c " INTERP_INFO,
	  "k", F_STDIN_CODE | F_NOPERMUTE, h_python, NULL },
	{ "qterminal", "", "", F_ASK, NULL, R_TERMINAL },
	{ "rake",
	  "-f=k --rakefile=k -C=C --directory=C -e=c --execute=c -p=c --execute-print=c -E=c "
	  "--execute-continue=c -r=c --require=c -I=- --libdir=- -R=- --rakelibdir=- -g!a "
	  "--system!a",
	  "-*", F_LONGANY, NULL, NULL, "Rakefile rakefile Rakefile.rb rakefile.rb" },
	{ "rbash", "", "", 0, h_shell, NULL },
	{ "read", "", "", 0, h_varnames, NULL },
	{ "readarray", "", "", 0, h_varnames, NULL },
	{ "readonly", "", "", 0, h_declare, NULL },
	{ "red", "", "", F_ASK, NULL, "ed runs commands from standard input" },
	{ "rename", "", "", F_ASK, NULL, "rename evaluates its first argument as code" },
	{ "rg",
	  "--pre=p --pre-glob=- -e=P --regexp=P -f=F --file=F -g=- --glob=- --iglob=- "
	  "-t=- --type=- -T=- --type-not=- --type-add=- --type-clear=- -M=- "
	  "--max-columns=- -m=- --max-count=- -A=- -B=- -C=- --after-context=- "
	  "--before-context=- --context=- -j=- --threads=- -E=- --encoding=- "
	  "--engine=- --ignore-file=r --path-separator=- -r=- --replace=- --color=- "
	  "--colors=- --sort=- --sortr=- --max-depth=- -d=- --max-filesize=- "
	  "--dfa-size-limit=- --regex-size-limit=- --context-separator=- "
	  "--field-context-separator=- --field-match-separator=- --hostname-bin=p "
	  "--hyperlink-format=-",
	  "-r*", F_LONGANY, NULL, NULL },
	{ "rlwrap", "", "", F_ASK, NULL, "rlwrap runs a command in a syntax not modelled here" },
	{ "rm",
	  "-f -i -I -r -R -d -v --force --interactive?- --one-file-system --recursive "
	  "--dir --verbose --no-preserve-root --preserve-root?- --help!N --version!N",
	  "d*", 0, NULL, NULL },
	{ "rmdir", "-p -v --ignore-fail-on-non-empty --parents --verbose", "d*", 0, NULL, NULL },
	{ "rr", "-h!N --help!N -V!N --version!N", "", 0, h_sub, NULL },
	{ "rsync",
	  "-e=p --rsh=p --rsync-path=a --log-file=w --write-batch=w "
	  "--only-write-batch=w --read-batch=r --password-file=r --files-from=r "
	  "--exclude-from=r --include-from=r -T=t --temp-dir=t --backup-dir=t "
	  "--compare-dest=r --link-dest=r --copy-dest=r --partial-dir=t -M=a "
	  "--remote-option=a --remove-source-files!a --chmod=- --chown=- -f=- "
	  "--filter=- --info=- --debug=- --bwlimit=- --timeout=- --contimeout=- "
	  "--port=- --sockopts=- --address=- --max-size=- --min-size=- --max-delete=- "
	  "-B=- --block-size=- --modify-window=- --suffix=- --exclude=- --include=- "
	  "--out-format=- --log-file-format=- --usermap=- --groupmap=- --iconv=- "
	  "--checksum-choice=- --compress-choice=- --compress-level=- "
	  "--skip-compress=- --stop-after=- --stop-at=- --outbuf=- --protocol=-",
	  "r*w", F_LONGANY, NULL, NULL },
	{ "ruby",
	  "-e=c -r=c -I=- -i?W -F=- -l -0?- -s -S -w -W?- -x?- -C=C -E=- -n -p -a -c!N "
	  "-d -y -U -K?- -T?- --enable=- --disable=- -v!N --version!N -h!N --help!N",
	  "k", F_STDIN_CODE | F_NOPERMUTE, NULL, NULL },
	{ "run-parts", "", "", F_ASK, NULL, "run-parts runs every program in a directory" },
	{ "runghc", "-f=p --ghc-arg=a", "k", F_STDIN_CODE | F_NOPERMUTE, NULL, NULL },
	{ "runhaskell", "-f=p --ghc-arg=a", "k", F_STDIN_CODE | F_NOPERMUTE, NULL, NULL },
	{ "runuser", "", "", 0, h_su, NULL },
	{ "rustc",
	  "-o=w --out-dir=t --emit=a -C=a --codegen=a -Z=a --extern=- -L=- -l=- --crate-type=- "
	  "--crate-name=- --edition=- -g -O --target=- --cfg=- --check-cfg=- --sysroot=- --test "
	  "-W=- -A=- -D=- -F=- --cap-lints=- --explain=- --print=- -V!N --version!N -h!N "
	  "--help!N -v",
	  "r*", F_LONGANY, NULL, NULL },
	{ "rye", "", "", 0, h_sub, NULL, "pyproject.toml" },
	{ "s-nail", "", "", F_ASK, NULL, R_MAIL },
	{ "scala", "-e=c -i=c -I=c -cp=- -classpath=- -nc -save -J*!a -D*!- -version!N -help!N",
	  "k", F_NOCLUSTER | F_STDIN_CODE | F_NOPERMUTE, NULL, NULL },
	{ "scp",
	  "-S=a -F=a -o=a -i=r -P=- -l=- -c=- -J=- -D=a -X=- -3 -4 -6 -A -B -C -O -p -q "
	  "-R -r -s -T -v",
	  "r*w", 0, NULL, NULL },
	{ "screen", "", "", F_ASK, NULL, "screen runs commands in a syntax not modelled here" },
	{ "script", "", "", 0, h_su, NULL },
	{ "sdiff",
	  "-o=w --output=w --diff-program=p -a -b -B -d -E -H -i -I=- -l -s -S -t -W -w=- "
	  "--width=- --tabsize=- --strip-trailing-cr --text --ignore-case --help!N --version!N",
	  "rr", F_LONGANY, NULL, NULL },
	{ "sed", "", "", 0, h_sed, NULL },
	{ "sem", "", "", F_ASK, NULL, "sem runs commands in a syntax not modelled here" },
	{ "sensible-browser", "", "", F_ASK, NULL, "it opens a browser" },
	{ "sensible-editor", "", "w*", 0, NULL, NULL },
	{ "sensible-pager", "", "r*", 0, NULL, NULL },
	{ "set", "", "", 0, h_set, NULL },
	{ "setarch", "", "", F_ASK, NULL, "setarch runs a command in a syntax not modelled here" },
	{ "setlock", "-n -N -x -X", "wx", F_WRAP, NULL, NULL },
	{ "setpriv",
	  "--reuid=- --regid=- --ruid=- --rgid=- --euid=- --egid=- --groups=- "
	  "--inh-caps=- --ambient-caps=- --bounding-set=- --securebits=- "
	  "--pdeathsig=- --selinux-label=- --apparmor-profile=- --landlock-access=- "
	  "--landlock-rule=- --seccomp-filter=r --keep-groups --clear-groups "
	  "--init-groups --nnp --no-new-privs --reset-env -d --dump -h -V",
	  "x", F_WRAP, NULL, NULL },
	{ "setsid", "-c -f -w --ctty --fork --wait", "x", F_WRAP, NULL, NULL },
	{ "setuidgid", "", "-x", F_WRAP, NULL, NULL },
	{ "sftp", "", "", F_ASK, NULL, "sftp runs batch commands, local ones too" },
	{ "sg", "", "", F_ASK, NULL, "sg runs a command string in a shell" },
	{ "sh", "", "", 0, h_shell, NULL },
	{ "shopt", "", "", 0, h_shopt, NULL },
	{ "shred",
	  "-n=- --iterations=- -s=- --size=- --random-source=r -f -u -v -x -z "
	  "--force --remove?- --verbose --exact --zero",
	  "d*", 0, NULL, NULL },
	{ "shuf",
	  "-o=w --output=w --random-source=r -e --echo -i=- --input-range=- -n=- --head-count=- "
	  "-r --repeat -z --zero-terminated --help!N --version!N",
	  "m*", F_LONGANY, NULL, NULL },
	{ "socat", "", "", F_ASK, NULL, "socat runs programs named in its addresses" },
	{ "softlimit", "-m=- -d=- -o=- -p=- -f=- -c=- -r=- -t=- -a=- -s=- -l=-", "x", F_WRAP, NULL,
	  NULL },
	{ "sort",
	  "-o=w --output=w -T=t --temporary-directory=t --compress-program=p "
	  "--files0-from=r -k=- --key=- -t=- --field-separator=- -S=- "
	  "--buffer-size=- --parallel=- --batch-size=- --sort=- --random-source=r "
	  "-b -c -C -d -f -g -h -i -m -M -n -R -r -s -u -V -z --check?- "
	  "--debug --reverse --unique --stable --merge",
	  "r*", F_LONGANY, NULL, NULL },
	{ "source", "", "k", 0, h_source, NULL },
	{ "split",
	  "-a=- -b=- -C=- -d?- -x?- -e -l=- -n=- -t=- -u --additional-suffix=- "
	  "--filter=s --suffix-length=- --bytes=- --line-bytes=- --lines=- "
	  "--number=- --separator=- --numeric-suffixes?- --hex-suffixes?- "
	  "--elide-empty-files --unbuffered --verbose",
	  "rw", F_CWD_OUT_ANY, NULL, NULL },
	{ "sponge", "-a", "w", 0, NULL, NULL },
	{ "sqlite3", "", "", F_ASK, NULL,
	  "sqlite3 dot-commands run shell commands and write files" },
	{ "ssh", "", "", 0, h_ssh, NULL },
	{ "ssh-agent", "-a=- -E=- -P=- -t=- -c -D -d -k -s -x", "x", F_WRAP, NULL, NULL },
	{ "ssh-keygen",
	  "-f=w -t=- -b=- -C=- -N=- -P=- -F=- -R=- -E=- -a=- -Z=- -O=- -s=r "
	  "-I=- -n=- -V=- -z=- -D=a -w=a -q -y -l -H -o -h -K -L -v -c -p -e -i -m=- "
	  "-B -A -Y=- -r=- -G=w -M=- -T=-",
	  "-*", 0, NULL, NULL },
	{ "start-stop-daemon", "", "", F_ASK, NULL,
	  "start-stop-daemon runs a command in a syntax not modelled here" },
	{ "stdbuf", "-i=- -o=- -e=- --input=- --output=- --error=-", "x", F_WRAP, NULL, NULL },
	{ "strace",
	  "-o=w --output=w -p!N --attach!N -e=- --expr=- -P=- --trace-path=- -s=- "
	  "--string-limit=- -u=- --user=- -E=E --env=E -a=- --columns=- -b=- "
	  "--detach-on=- -I=- --interruptible=- -O=- --summary-sort-by=- -S=- "
	  "-X=- --const-print-style=- -U=- --summary-columns=- --trace=- "
	  "--signal=- --status=- --decode-fds?- --absolute-timestamps?- --quiet?- "
	  "-A -c -C -d -D -f -F -h -i -k -n -q -r -t -T -v -V -w -x -y -Y -z -Z "
	  "--follow-forks --output-separately --summary-only --summary --syscall-times?- "
	  "--instruction-pointer --stack-trace --seccomp-bpf --no-abbrev --verbose",
	  "x", F_WRAP, NULL, NULL },
	{ "su", "", "", 0, h_su, NULL },
	{ "su-exec", "", "-x", F_WRAP, NULL, NULL },
	{ "sudo", "", "", 0, h_sudo, NULL },
	{ "systemd-run",
	  "-t -P -G -q -r -d -S!a --shell!a -u=- --unit=- -p=- --property=- "
	  "-E=- --setenv=- -H=- --host=- -M=- --machine=- --description=- "
	  "--slice=- --uid=- --gid=- --nice=- --working-directory=C --service-type=- "
	  "--on-active=- --on-boot=- --on-startup=- --on-unit-active=- "
	  "--on-unit-inactive=- --on-calendar=- --path-property=- "
	  "--socket-property=- --timer-property=- --background=- --json=- "
	  "--capsule=- --user --system --scope --wait --pipe --pty --collect "
	  "--quiet --remain-after-exit --same-dir --no-block --expand-environment=-",
	  "x", F_WRAP, NULL, NULL },
	{ "tac", "-b -r -s=- --before --regex --separator=-", "r*", 0, NULL, NULL },
	{ "tail",
	  "-n=- -c=- --lines=- --bytes=- -f -F -q -v -z -s=- --sleep-interval=- "
	  "--pid=- --max-unchanged-stats=- --follow?- --retry --quiet --silent "
	  "--verbose --zero-terminated",
	  "r*", 0, NULL, NULL },
	{ "tar", "", "", 0, h_tar, NULL },
	{ "taskset", "-a -c -p!N --all-tasks --cpu-list --pid!N -h!N -V!N", "-x", F_WRAP, NULL,
	  NULL },
	{ "tclsh", "-encoding=-", "k", F_STDIN_CODE | F_NOPERMUTE | F_NOCLUSTER, NULL, NULL },
	{ "tcsh", "", "", 0, h_shell, NULL },
	{ "tee", "-a -i -p --append --ignore-interrupts --output-error?-", "w*", 0, NULL, NULL },
	{ "terminator", "", "", F_ASK, NULL, R_TERMINAL },
	{ "test", "", "-*", 0, h_test, NULL },
	{ "tilix", "", "", F_ASK, NULL, R_TERMINAL },
	{ "time",
	  "-o=w --output=w -f=- --format=- -a -p -q -v --append --portability --quiet "
	  "--verbose --help!N -V!N --version!N",
	  "x", F_WRAP, NULL, NULL },
	{ "timelimit", "-t=- -T=- -s=- -S=- -p -q", "x", F_WRAP, NULL, NULL },
	{ "timeout",
	  "-s=- -k=- --signal=- --kill-after=- -v --preserve-status --foreground "
	  "--verbose --help!N --version!N",
	  "-x", F_WRAP, NULL, NULL },
	{ "tini", "-s -v -vv -vvv -w -g -p=- -e=- -l!N -h!N --version!N", "x", F_WRAP, NULL, NULL },
	{ "tmux", "", "", F_ASK, NULL, "tmux runs commands in a syntax not modelled here" },
	{ "torify", "", "x", F_WRAP, NULL, NULL },
	{ "torsocks", "", "", F_ASK, NULL,
	  "torsocks runs a command in a syntax not modelled here" },
	{ "touch",
	  "-d=- --date=- -t=- -r=r --reference=r --time=- -a -c -f -h -m "
	  "--no-create --no-dereference",
	  "w*", 0, NULL, NULL },
	{ "tox", "-c=r -e=- -r -p?- --parallel?- -q -v --workdir=t", "-*", F_LONGANY, NULL, NULL,
	  "tox.ini pyproject.toml setup.cfg" },
	{ "toybox", "", "x", F_WRAP, NULL, NULL },
	{ "trap", "", "", 0, h_trap, NULL },
	{ "tree",
	  "-o=w -L=- -P=- -I=- -H=- -T=- --filelimit=- --charset=- --timefmt=- "
	  "--fromfile?- --sort=- --gitfile=r --infofile=r",
	  "r*", F_LONGANY, NULL, NULL },
	{ "true", "", "-*", 0, NULL, NULL },
	{ "truncate", "-s=- --size=- -r=r --reference=r -c -o --no-create --io-blocks", "w*", 0,
	  NULL, NULL },
	{ "ts-node",
	  "-e=c --eval=c -p=c --print=c -r=c --require=c -i!c --interactive!c -P=r --project=r "
	  "-v!N --version!N -h!N --help!N",
	  "k", F_STDIN_CODE | F_LONGANY | F_NOPERMUTE, NULL, NULL },
	{ "tsc",
	  "--outDir=t --outFile=w --out=w --declarationDir=t --tsBuildInfoFile=w -p=r "
	  "--project=r --generateTrace=t --plugins=a -v!N --version!N -h!N --help!N",
	  "m*", F_LONGANY, NULL, NULL },
	{ "tsocks", "", "x", F_WRAP, NULL, NULL },
	{ "tsx",
	  "-e=c --eval=c -p=c --print=c -r=c --require=c --import=c -i!c --interactive!c "
	  "--tsconfig=r -v!N --version!N -h!N --help!N",
	  "k", F_STDIN_CODE | F_LONGANY | F_NOPERMUTE, NULL, NULL },
	{ "type", "-a -f -p -P -t", "-*", 0, NULL, NULL },
	{ "typeset", "", "", 0, h_declare, NULL },
	{ "umask", "-p -S", "-*", 0, NULL, NULL },
	{ "unalias", "-a", "-*", 0, NULL, NULL },
	{ "unbuffer", "-p", "x", F_WRAP, NULL, NULL },
	{ "uniq",
	  "-f=- -s=- -w=- --skip-fields=- --skip-chars=- --check-chars=- "
	  "--all-repeated?- --group?- -c -d -D -i -u -z --count --repeated --ignore-case "
	  "--unique --zero-terminated",
	  "rw", 0, NULL, NULL },
	{ "unlink", "", "d", 0, NULL, NULL },
	{ "unset", "", "", 0, h_varnames, NULL },
	{ "unshare",
	  "-m?- -u?- -i?- -n?- -p?- -U?- -C?- -T?- -f -r -c -F -S=- -G=- -R=- -w=- "
	  "--mount?- --uts?- --ipc?- --net?- --pid?- --user?- --cgroup?- --time?- "
	  "--fork --map-root-user --map-current-user --kill-child?- --mount-proc?- "
	  "--propagation=- --setgroups=- --setuid=- --setgid=- --root=- --wd=- "
	  "--map-user=- --map-group=- --map-users=- --map-groups=- --load-interp=- "
	  "--keep-caps --monotonic=- --boottime=-",
	  "x", F_WRAP, NULL, R_NO_CMD_SHELL },
	{ "unxz", "-c!R --stdout!R -k!R --keep!R -t!R --test!R -l!R --list!R", "d*", 0, NULL,
	  NULL },
	{ "unzip", "", "", 0, h_unzip, NULL },
	{ "unzstd", "-c!R --stdout!R -k!R --keep!R -t!R --test!R -l!R --list!R -o=w", "d*", 0, NULL,
	  NULL },
	{ "urxvt", "", "", F_ASK, NULL, R_TERMINAL },
	{ "uudecode", "", "", F_ASK, NULL, "uudecode writes the file its input names" },
	{ "uv",
	  "--directory=C --project=C -q --quiet -v --verbose --offline --no-cache -n "
	  "--cache-dir=t --color=- --native-tls --config-file=a --no-config --python=- -p=- "
	  "--managed-python --no-managed-python -V!N --version!N -h!N --help!N",
	  "", 0, h_sub, NULL, "pyproject.toml uv.toml" },
	{ "uvx",
	  "--from=- --with=- -w=- --python=- -p=- --isolated --offline -q --quiet -v --verbose "
	  "--no-cache --with-editable=- --with-requirements=r",
	  "x", F_WRAP, NULL, NULL },
	{ "uxterm", "", "", F_ASK, NULL, R_TERMINAL },
	{ "valgrind",
	  "--log-file=w --xml-file=w --log-socket=- --xml-socket=- "
	  "--suppressions=r --vgdb?- --vgdb-prefix=- --db-command=a "
	  "--input-fd=- -q -v -d -s -h --help --version --quiet --verbose",
	  "x", F_WRAP | F_LONGANY, NULL, NULL },
	{ "vi",
	  "-c=c --cmd=c -S=c -s=c -u=c -U=c -i=- -w=w -W=w +*!c -e!c -E!c -es!c -Es!c "
	  "-T=- -R -Z -d -b -n -N -M -m -r -L -o?- -O?- -p?- -V?- -D -h!N --version!N "
	  "--clean --noplugin",
	  "w*", F_NOCLUSTER, NULL, NULL },
	{ "view", "-c=c --cmd=c -S=c -s=c -u=c -i=- -w=w -W=w +*!c -e!c -E!c", "r*", F_NOCLUSTER,
	  NULL, NULL },
	{ "vim",
	  "-c=c --cmd=c -S=c -s=c -u=c -U=c -i=- -w=w -W=w +*!c -e!c -E!c -es!c -Es!c "
	  "-T=- -R -Z -d -b -n -N -M -m -r -L -o?- -O?- -p?- -V?- -D -h!N --version!N "
	  "--clean --noplugin --not-a-term --ttyfail --remote*!a --servername=- "
	  "--startuptime=w",
	  "w*", F_NOCLUSTER, NULL, NULL },
	{ "vimdiff", "-c=c --cmd=c -S=c -s=c -u=c +*!c", "w*", F_NOCLUSTER, NULL, NULL },
	{ "vipe", "", "", F_ASK, NULL, "vipe runs an editor" },
	{ "wait", "", "", 0, h_varnames, NULL },
	{ "watch", "", "", 0, h_watch, NULL },
	{ "wc",
	  "--files0-from=r -c -m -l -L -w --bytes --chars --lines --words "
	  "--max-line-length --total=-",
	  "r*", 0, NULL, NULL },
	{ "wezterm", "", "", F_ASK, NULL, R_TERMINAL },
	{ "wget",
	  "-O=w --output-document=w -o=w --output-file=w -a=w --append-output=w "
	  "-P=t --directory-prefix=t -i=r --input-file=r --post-file=r --body-file=r "
	  "-e=a --execute=a --config=a --load-cookies=r --save-cookies=w "
	  "--ca-certificate=r --certificate=r --private-key=r --warc-file=w "
	  "--rejected-log=w -U=- --user-agent=- --header=- --post-data=- --method=- "
	  "--body-data=- -t=- --tries=- -T=- --timeout=- -w=- --wait=- -Q=- "
	  "--quota=- -l=- --level=- -A=- --accept=- -R=- --reject=- -D=- "
	  "--domains=- --user=- --password=- -B=- --base=- --limit-rate=- "
	  "-h!N --help!N -V!N --version!N -q -v -n=- -c -N -S -r -k -K -p -x --spider",
	  "-*", F_LONGANY | F_CWD_OUT, NULL, NULL },
	{ "which", "-a -s", "-*", 0, NULL, NULL },
	{ "wish", "-encoding=-", "k", F_STDIN_CODE | F_NOPERMUTE | F_NOCLUSTER, NULL, NULL },
	{ "www-browser", "", "", F_ASK, NULL, "it opens a browser" },
	{ "x-terminal-emulator", "", "", F_ASK, NULL, R_TERMINAL },
	{ "x-www-browser", "", "", F_ASK, NULL, "it opens a browser" },
	{ "xargs", "", "", 0, h_xargs, NULL },
	{ "xdg-open", "", "", F_ASK, NULL,
	  "it opens files with programs of the desktop's choosing" },
	{ "xfce4-terminal", "", "", F_ASK, NULL, R_TERMINAL },
	{ "xonsh", "", "", F_ASK, NULL, "a shell whose syntax this analysis does not model" },
	{ "xterm", "", "", F_ASK, NULL, R_TERMINAL },
	{ "xvfb-run",
	  "-a -d -l -h -e=w --error-file=w -f=- --auth-file=- -n=- --server-num=- "
	  "-p=- --xauth-protocol=- -s=- --server-args=- -w=- --wait=- "
	  "--auto-servernum --listen-tcp --help",
	  "x", F_WRAP, NULL, NULL },
	{ "xxd",
	  "-l=- -s=- -c=- -g=- -o=- -n=- -C -E -e -i -p -ps -postscript -plain -u -b "
	  "-bits -r -revert -d -R=-",
	  "rw", F_NOCLUSTER, NULL, NULL },
	{ "xz",
	  "-c!R --stdout!R -k!R --keep!R -t!R --test!R -l!R --list!R -S=- --suffix=- "
	  "-T=- --threads=- -F=- --format=- -C=- --check=- --files=r --files0=r",
	  "d*", 0, NULL, NULL },
	{ "yarn",
	  "--cwd=C -s --silent --verbose --offline --frozen-lockfile --immutable -v!N "
	  "--version!N -h!N --help!N",
	  "", 0, h_sub, NULL, NPM_CONF },
	{ "yash", "", "", 0, h_shell, NULL },
	{ "yq",
	  "-i!W --inplace!W -s!a --split-exp=a --from-file=r -I=- --indent=- -o=- "
	  "--output-format=- -p=- --input-format=- -e --exit-status -n --null-input -r "
	  "--unwrapScalar -P --prettyPrint -C -M --colors --no-colors -N --no-doc -0 "
	  "--nul-output --header-preprocess --front-matter=- --expression=-",
	  "-m*", F_LONGANY, NULL, NULL },
	{ "zip",
	  "-T!- --test!- -TT=s --unzip-command=s -m!a --move!a -d!a --delete!a -x=- "
	  "-i=- -b=t -n=- -P=- -O=w --output-file=w -@ -r -j -q -v -9 -0 -1 -u -f -y",
	  "wr*", F_NOCLUSTER, NULL, NULL },
	{ "zsh", "", "", 0, h_shell, NULL },
	{ "zstd",
	  "-c!R --stdout!R -k!R --keep!R -t!R --test!R -l!R --list!R -o=w --rm!a "
	  "-T?- -D=r --patch-from=r --format=-",
	  "r*", F_LONGANY, NULL, NULL },
};

bool sh_table_sorted(void)
{
	for (size_t k = 1; k < sizeof(progs) / sizeof(progs[0]); k++)
		if (strcmp(progs[k - 1].name, progs[k].name) >= 0)
			return false;
	for (size_t k = 1; k < sizeof(git_subs) / sizeof(git_subs[0]); k++)
		if (strcmp(git_subs[k - 1].name, git_subs[k].name) >= 0)
			return false;
	for (size_t k = 1; k < sizeof(subs) / sizeof(subs[0]); k++)
		if (sub_cmp(&subs[k], subs[k - 1].prog, subs[k - 1].name) >= 0)
			return false;
	return true;
}

static const struct prog *prog_find(const char *name)
{
	size_t lo = 0, hi = sizeof(progs) / sizeof(progs[0]);

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strcmp(name, progs[mid].name);
		if (c == 0)
			return &progs[mid];
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

/* Aliases: versioned interpreters and compilers share an entry. */
static const struct prog *prog_lookup(const char *b)
{
	const struct prog *p = prog_find(b);
	if (p)
		return p;
	/* python3.11, perl5.36, pip3 … */
	size_t n = strlen(b);
	while (n && ((b[n - 1] >= '0' && b[n - 1] <= '9') || b[n - 1] == '.'))
		n--;
	if (n && n < strlen(b) && n < 32) {
		char base[32];
		memcpy(base, b, n);
		base[n] = '\0';
		return prog_find(base);
	}
	return NULL;
}

/*
 * Whether the command word names its program by something else than a
 * name: a file under /proc (/proc/self/exe is the shell itself,
 * /proc/PID/fd/N, /proc/self/root/… any file), or an open descriptor
 * (/dev/fd/N, /dev/stdin): the program is not known from the word.
 */
static bool prog_by_descriptor(const char *s)
{
	bool dev = false;

	while (*s) {
		while (*s == '/')
			s++;
		size_t n = strcspn(s, "/");
		if (n == 4 && !memcmp(s, "proc", 4))
			return true;
		if (dev &&
		    ((n == 2 && !memcmp(s, "fd", 2)) || (n == 5 && !memcmp(s, "stdin", 5)) ||
		     (n == 6 && !memcmp(s, "stdout", 6)) || (n == 6 && !memcmp(s, "stderr", 6))))
			return true;
		dev = n == 3 && !memcmp(s, "dev", 3);
		s += n;
	}
	return false;
}

int sh_table_effects(struct sh_arena *a, const struct lf_shell_word *argv, size_t argc,
		     struct sh_effs *out)
{
	struct tc t = { .a = a, .argv = argv, .argc = argc, .out = out };
	const char *b = sh_base_name(argv[0].text);
	const struct prog *p = prog_lookup(b);

	if (strchr(argv[0].text, '/') && prog_by_descriptor(argv[0].text))
		eff_reason(&t, "a program named by a file of /proc or a descriptor, not known from "
			       "its name");

	if (!p) {
		/* a program not in the table: each literal operand may be a
		 * file it reads */
		for (size_t i = 1; i < argc; i++) {
			const struct lf_shell_word *w = &argv[i];
			if (w->len && w->text[0] != '-')
				eff_file(&t, LF_CAP_READ, w, false, false);
		}
		return out->nomem ? -ENOMEM : 0;
	}
	t.p = p;
	int r = p->handler ? p->handler(&t) : run_prog(&t, p, 1);
	if (p->handler && (p->flags & F_ASK))
		eff_reason(&t, p->reason);
	if (r >= 0 && p->conf)
		eff_conf(&t, p->conf);
	if (r < 0 || out->nomem)
		return -ENOMEM;
	return 0;
}
