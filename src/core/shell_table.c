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

/*
 * Tables without pointers. The four large tables (progs, py_modules, subs,
 * git_subs: ~34 KB) are written in .def files as one macro call an entry
 * (STR("text") a string, NIL none) and included three times: as the
 * members of a struct of char arrays (one a string, named by its field and
 * its line in the .def file), as that struct's initializer, and as rows of
 * offsets into it (plus one; 0 is NIL). A table of pointers is relocated
 * at every start of the position-independent tool: the start writes each
 * of its pages (9 of them, ~0.13 ms a launch and a hook call on the
 * development VM: bench/README.md, "Fifteenth round"). These stay in the
 * read-only image, read from the page cache when a line is analysed.
 * Lookups hand out a struct prog (or sub, git_sub) filled from a row.
 */
#define SH_CAT2(a, b) a##b
#define SH_CAT(a, b) SH_CAT2(a, b)
#define STR(x) (1, x)
#define NIL (0, "")
#define SH_ARGS(present, x) present, x
#define SH_DECL(k, v) SH_DECL2(k, SH_ARGS v)
#define SH_DECL2(k, ...) SH_DECL3(k, __VA_ARGS__)
#define SH_DECL3(k, present, x) char SH_CAT(k, __LINE__)[sizeof(x)];
#define SH_INIT(v) SH_INIT2(SH_ARGS v)
#define SH_INIT2(...) SH_INIT3(__VA_ARGS__)
#define SH_INIT3(present, x) x,
#define SH_OFF(blob, k, v) SH_OFF2(blob, k, SH_ARGS v)
#define SH_OFF2(blob, k, ...) SH_OFF3(blob, k, __VA_ARGS__)
#define SH_OFF3(blob, k, present, x) \
	((present) ? 1 + (uint32_t)offsetof(struct blob, SH_CAT(k, __LINE__)) : 0)

/* The string at off (SH_OFF) of a table's strings, NULL for NIL. */
static const char *sh_str(const void *blob, uint32_t off)
{
	return off ? (const char *)blob + off - 1 : NULL;
}

/* The handlers the tables name, by number (HX_h_sed ...; HX_NULL none),
 * listed in shell_handlers.def. */
enum sh_handler {
	HX_NULL,
#define HX(h) HX_##h,
#include "shell_handlers.def"
#undef HX
};

struct prog_row {
	uint32_t name, opts, operands, reason, conf; /* SH_OFF */
	unsigned flags;
	uint8_t handler; /* enum sh_handler */
};

struct sub_row {
	uint32_t prog, name, opts, operands, reason; /* SH_OFF */
	unsigned flags;
};

struct git_sub_row {
	uint32_t name, opts, operands; /* SH_OFF */
	unsigned flags;
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
#define R_NOT_FOLLOWED "an option whose effect this analysis does not follow"
static const char R_STDIN_CODE[] = "it reads code from standard input";
static const char R_WILD_OPT[] =
	"the shell expands a word that could become an option writing a file or running a command";
static const char R_AMBIGUOUS_OPT[] =
	"an abbreviated option that may be any of several, one of which writes or runs";
#define R_NO_CMD_SHELL "without a command it runs a shell reading standard input"

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

#define GIT(n, o, ops, f) SH_DECL(name_, n) SH_DECL(opts_, o) SH_DECL(ops_, ops)
struct git_subs_blob {
#include "shell_git_subs.def"
};
#undef GIT
#define GIT(n, o, ops, f) SH_INIT(n) SH_INIT(o) SH_INIT(ops)
static const struct git_subs_blob git_subs_str = {
#include "shell_git_subs.def"
};
#undef GIT
#define GIT(n, o, ops, f)                                                   \
	{ SH_OFF(git_subs_blob, name_, n), SH_OFF(git_subs_blob, opts_, o), \
	  SH_OFF(git_subs_blob, ops_, ops), f },
static const struct git_sub_row git_subs[] = {
#include "shell_git_subs.def"
};
#undef GIT

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
	struct git_sub found;
	size_t lo = 0, hi = sizeof(git_subs) / sizeof(git_subs[0]);
	while (lo < hi && !gs) { /* git_subs is sorted (sh_table_sorted) */
		size_t mid = (lo + hi) / 2;
		int c = strcmp(sub->text, sh_str(&git_subs_str, git_subs[mid].name));
		if (c == 0) {
			found = (struct git_sub){
				.name = sh_str(&git_subs_str, git_subs[mid].name),
				.opts = sh_str(&git_subs_str, git_subs[mid].opts),
				.operands = sh_str(&git_subs_str, git_subs[mid].operands),
				.flags = git_subs[mid].flags,
			};
			gs = &found;
		} else if (c < 0)
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

#define SUB(pr, n, o, ops, f, r) \
	SH_DECL(prog_, pr)       \
	SH_DECL(name_, n) SH_DECL(opts_, o) SH_DECL(ops_, ops) SH_DECL(reason_, r)
struct subs_blob {
#include "shell_subs.def"
};
#undef SUB
#define SUB(pr, n, o, ops, f, r) SH_INIT(pr) SH_INIT(n) SH_INIT(o) SH_INIT(ops) SH_INIT(r)
static const struct subs_blob subs_str = {
#include "shell_subs.def"
};
#undef SUB
#define SUB(pr, n, o, ops, f, r)                                             \
	{                                                                    \
		SH_OFF(subs_blob, prog_, pr),  SH_OFF(subs_blob, name_, n),  \
		SH_OFF(subs_blob, opts_, o),   SH_OFF(subs_blob, ops_, ops), \
		SH_OFF(subs_blob, reason_, r), f                             \
	},
static const struct sub_row subs[] = {
#include "shell_subs.def"
};
#undef SUB

static int sub_cmp(const struct sub_row *a, const char *prog, const char *name)
{
	int c = strcmp(prog, sh_str(&subs_str, a->prog));
	return c ? c : strcmp(name, sh_str(&subs_str, a->name));
}

/* The row of prog's subcommand name, into *out; NULL when there is none. */
static const struct sub *sub_find(const char *prog, const char *name, struct sub *out)
{
	size_t lo = 0, hi = sizeof(subs) / sizeof(subs[0]);

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = sub_cmp(&subs[mid], prog, name);
		if (c == 0) {
			const struct sub_row *r = &subs[mid];

			*out = (struct sub){
				.prog = sh_str(&subs_str, r->prog),
				.name = sh_str(&subs_str, r->name),
				.opts = sh_str(&subs_str, r->opts),
				.operands = sh_str(&subs_str, r->operands),
				.flags = r->flags,
				.reason = sh_str(&subs_str, r->reason),
			};
			return out;
		}
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
	struct sub row;
	const struct sub *sb = sub_find(p->name, t->argv[i].text, &row);
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

static const struct prog *prog_lookup(const char *b, struct prog *out);
static void prog_of_row(const struct prog_row *r, const void *blob, struct prog *out);

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
#define SH_PT_DEF "shell_py_modules.def"
#define SH_PT_NAME py_modules
#include "shell_prog_rows.h"

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
		if (!strcmp(sh_str(&py_modules_str, py_modules[k].name), mod->text)) {
			struct tc sub = *t;
			struct prog m;
			sub.argv = words;
			sub.argc = n;
			prog_of_row(&py_modules[k], &py_modules_str, &m);
			return engine(&sub, &m, 1);
		}
	struct prog named;
	if (prog_lookup(mod->text, &named))
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

#define SH_PT_DEF "shell_progs.def"
#define SH_PT_NAME progs
#include "shell_prog_rows.h"

static const handler_fn sh_handlers[] = {
	NULL,
#define HX(h) h,
#include "shell_handlers.def"
#undef HX
};

static void prog_of_row(const struct prog_row *r, const void *blob, struct prog *out)
{
	*out = (struct prog){
		.name = sh_str(blob, r->name),
		.opts = sh_str(blob, r->opts),
		.operands = sh_str(blob, r->operands),
		.flags = r->flags,
		.handler = r->handler < sizeof(sh_handlers) / sizeof(sh_handlers[0])
				   ? sh_handlers[r->handler]
				   : NULL,
		.reason = sh_str(blob, r->reason),
		.conf = sh_str(blob, r->conf),
	};
}

bool sh_table_sorted(void)
{
	for (size_t k = 1; k < sizeof(progs) / sizeof(progs[0]); k++)
		if (strcmp(sh_str(&progs_str, progs[k - 1].name),
			   sh_str(&progs_str, progs[k].name)) >= 0)
			return false;
	for (size_t k = 1; k < sizeof(git_subs) / sizeof(git_subs[0]); k++)
		if (strcmp(sh_str(&git_subs_str, git_subs[k - 1].name),
			   sh_str(&git_subs_str, git_subs[k].name)) >= 0)
			return false;
	for (size_t k = 1; k < sizeof(subs) / sizeof(subs[0]); k++)
		if (sub_cmp(&subs[k], sh_str(&subs_str, subs[k - 1].prog),
			    sh_str(&subs_str, subs[k - 1].name)) >= 0)
			return false;
	return true;
}

/* The entry of the program name, into *out; NULL when there is none. */
static const struct prog *prog_find(const char *name, struct prog *out)
{
	size_t lo = 0, hi = sizeof(progs) / sizeof(progs[0]);

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strcmp(name, sh_str(&progs_str, progs[mid].name));
		if (c == 0) {
			prog_of_row(&progs[mid], &progs_str, out);
			return out;
		}
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

/* Aliases: versioned interpreters and compilers share an entry. */
static const struct prog *prog_lookup(const char *b, struct prog *out)
{
	const struct prog *p = prog_find(b, out);
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
		return prog_find(base, out);
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
	struct prog entry;
	const struct prog *p = prog_lookup(b, &entry);

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
