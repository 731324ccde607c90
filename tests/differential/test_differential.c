/* SPDX-License-Identifier: MIT */
/*
 * The differential test of the advisory verdict against the real bash
 * (doc/shell.md, "The differential test"). The claim it checks: when
 * `landfence check bash` answers allow, running the line in bash executes
 * only commands the policy allows and writes only where the policy allows
 * writes.
 *
 * Lines: generated from a small grammar of the shell forms the analysis
 * must read exactly (fixed seed), and the hand-written hostile lines of
 * hostile.txt. Each line is
 *   1. answered by the built `landfence check bash` under three policies
 *      (an allow list, a deny list, the embedded default), on a fresh copy
 *      of a small project (a git repository with sources, a secret, a
 *      Makefile);
 *   2. run in bash 5.2 by lf-difftrace inside `landfence run` (so that a
 *      hostile line can do no harm), with stub programs and a few real
 *      ones on PATH: every program started and every file written is
 *      recorded by ptrace, every simple command bash ran (builtins too) by
 *      its xtrace;
 *   3. judged: each command bash ran against the command rules, each file
 *      written against the file rules. A line answered allow on which
 *      bash ran a command the policy does not allow, or wrote where it
 *      does not allow writes, fails the test.
 * Also counted: false refusals, harmless lines (bash ran only allowed
 * commands and wrote only where allowed) answered ask or deny.
 *
 * usage: test_differential [-n LINES] [-s SEED] [-k] [-v] [-o FILE]
 *   -n generated lines (default 2000), -s the seed (default fixed),
 *   -k keep the temporary directory, -v print every line and its result,
 *   -o also write the lines (one per record, escaped) to FILE.
 * Environment: LANDFENCE_BIN, LANDFENCE_SRCDIR, LANDFENCE_BUILDDIR (set by
 * meson), LF_DIFFTRACE and LF_STUB (the helper programs).
 * Exit status: 0 when no line is allowed but unsafe, 1 when one is, 2 when
 * the test could not run, 77 (skip) without bash or without Landlock (the
 * lines never run outside the sandbox; a failure instead when
 * LANDFENCE_TESTS_MUST_ENFORCE=1).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/model.h"
#include "core/shell.h"
#include "landfence.h"

extern char **environ;

/* ------------------------------------------------------------------------
 * Small helpers.
 */
static void fatal(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "test_differential: ");
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(2);
}

struct buf {
	char *p;
	size_t n, cap;
};

static void b_put(struct buf *b, const char *s, size_t n)
{
	if (b->n + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 256;
		while (cap < b->n + n + 1)
			cap *= 2;
		b->p = realloc(b->p, cap);
		if (!b->p)
			fatal("out of memory");
		b->cap = cap;
	}
	memcpy(b->p + b->n, s, n);
	b->n += n;
	b->p[b->n] = '\0';
}

static void b_str(struct buf *b, const char *s)
{
	b_put(b, s, strlen(s));
}

static void b_fmt(struct buf *b, const char *fmt, ...)
{
	char tmp[4096];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	b_put(b, tmp, n < 0 ? 0 : (size_t)n < sizeof(tmp) ? (size_t)n : sizeof(tmp) - 1);
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Starts argv with env additions; returns the pid (or -1). */
static pid_t start(const char *const *argv, const char *const *env_add, bool quiet)
{
	posix_spawn_file_actions_t fa;
	char *env[256];
	size_t n = 0;
	pid_t pid;

	for (size_t i = 0; env_add && env_add[i] && n < 200; i++)
		env[n++] = (char *)env_add[i];
	for (char **e = environ; *e && n < 254; e++) {
		bool dup = false;
		for (size_t i = 0; env_add && env_add[i]; i++) {
			const char *eq = strchr(env_add[i], '=');
			if (eq && !strncmp(*e, env_add[i], (size_t)(eq - env_add[i] + 1)))
				dup = true;
		}
		if (!dup)
			env[n++] = *e;
	}
	env[n] = NULL;
	posix_spawn_file_actions_init(&fa);
	if (quiet) {
		posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
		posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	}
	if (posix_spawn(&pid, argv[0], &fa, NULL, (char *const *)argv, env) != 0)
		pid = -1;
	posix_spawn_file_actions_destroy(&fa);
	return pid;
}

static int status_code(int st)
{
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* Runs argv with env additions; returns the exit status (or -1). */
static int run(const char *const *argv, const char *const *env_add, bool quiet)
{
	pid_t pid = start(argv, env_add, quiet);
	int st;

	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		return -1;
	return status_code(st);
}

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "we");
	if (!f || fputs(text, f) < 0 || fclose(f) != 0)
		fatal("cannot write %s", path);
}

/* ------------------------------------------------------------------------
 * The generator: lines from a small grammar of the forms the analysis
 * must read as bash does. Deterministic for a seed.
 */
static uint64_t rs;

static uint32_t rnd(uint32_t n)
{
	rs ^= rs << 13;
	rs ^= rs >> 7;
	rs ^= rs << 17;
	return n ? (uint32_t)(rs % n) : 0;
}

#define PICK(a) (a)[rnd(sizeof(a) / sizeof((a)[0]))]

/* Commands the allow list allows, with their words. */
static const char *const harmless[] = {
	"ls -la",
	"ls src",
	"cat README.md",
	"cat src/a.c",
	"echo hi",
	"printf '%s\\n' x",
	"grep -n hello README.md",
	"grep -r int src",
	"head -n1 README.md",
	"tail -n1 README.md",
	"wc -l src/a.c",
	"sort README.md",
	"uniq README.md",
	"cut -c1-3 README.md",
	"tr a b",
	"sed -n 1p README.md",
	"sed s/hello/bye/ README.md",
	"awk '{print $1}' README.md",
	"find src -name '*.c'",
	"git status",
	"git log --oneline -1",
	"git diff",
	"git show --stat",
	"make test",
	"test -f README.md",
	"[ -d src ]",
	"true",
	":",
	"pwd",
	"date",
	"basename src/a.c",
	"dirname src/a.c",
	"diff README.md README.md",
	"stat README.md",
	"command -v rm",
	"type rm",
	"seq 3",
	"expr 1 + 1",
};

/* Commands no policy here allows. */
static const char *const denied[] = {
	"rm y", "rm -f y", "curl http://example.invalid", "evil", "git push", "wget x", "frob y",
};

/* Writes: to where the policies allow it, and where they do not. */
static const char *const ok_targets[] = { "out/f", "src/new.c", "tmp/t", "out/d/../g" };
static const char *const bad_targets[] = {
	".env",	      ".git/hooks/pre-commit",
	"README.md",  "/tmp/lf-outside",
	"../escape",  "~/.bashrc",
	"secret/key", ".git/config",
};

static const char *target(bool bad)
{
	return bad ? PICK(bad_targets) : PICK(ok_targets);
}

static void gen_write(struct buf *b, bool bad)
{
	const char *t = target(bad);
	switch (rnd(14)) {
	case 0:
		b_fmt(b, "echo x > %s", t);
		break;
	case 1:
		b_fmt(b, "echo x >> %s", t);
		break;
	case 2:
		b_fmt(b, "echo x | tee %s", t);
		break;
	case 3:
		b_fmt(b, "cp README.md %s", t);
		break;
	case 4:
		b_fmt(b, "touch %s", t);
		break;
	case 5:
		b_fmt(b, "sort -o %s README.md", t);
		break;
	case 6:
		b_fmt(b, "git log --output=%s", t);
		break;
	case 7:
		b_fmt(b, "dd if=README.md of=%s", t);
		break;
	case 8:
		b_fmt(b, "printf x >| %s", t);
		break;
	case 9:
		b_fmt(b, "cat README.md &> %s", t);
		break;
	case 10:
		b_fmt(b, "git diff --outp=%s", t);
		break;
	case 11:
		b_fmt(b, "sed -n 'w %s' README.md", t);
		break;
	case 12:
		b_fmt(b, "ln -s x %s", t);
		break;
	default:
		b_fmt(b, "awk '{print > \"%s\"}' README.md", t);
		break;
	}
}

/* One word written in one of the ways bash reads as the same word. */
static void obfuscate(struct buf *b, const char *w)
{
	size_t n = strlen(w);
	size_t cut = n > 1 ? 1 + rnd((uint32_t)n - 1) : 0;

	switch (rnd(12)) {
	case 0:
		b_fmt(b, "'%.*s''%s'", (int)cut, w, w + cut);
		break;
	case 1:
		b_fmt(b, "%.*s\\%s", (int)cut, w, w + cut);
		break;
	case 2:
		b_fmt(b, "%.*s\"\"%s", (int)cut, w, w + cut);
		break;
	case 3:
		b_fmt(b, "%.*s$''%s", (int)cut, w, w + cut);
		break;
	case 4:
		b_fmt(b, "%.*s\\\n%s", (int)cut, w, w + cut);
		break;
	case 5:
		b_str(b, "$'");
		for (size_t k = 0; k < n; k++)
			b_fmt(b, "\\x%02x", (unsigned char)w[k]);
		b_str(b, "'");
		break;
	case 6:
		b_fmt(b, "${u:-%s}", w);
		break;
	case 7:
		b_fmt(b, "%.*s{,}%s", (int)cut, w, w + cut);
		break;
	case 8:
		b_fmt(b, "\"%s\"", w);
		break;
	default:
		b_str(b, w);
		break;
	}
}

/* A command with its first word obfuscated. */
static void gen_cmd(struct buf *b, const char *cmd)
{
	const char *sp = strchr(cmd, ' ');
	char first[64];
	size_t n = sp ? (size_t)(sp - cmd) : strlen(cmd);

	if (n >= sizeof(first) || rnd(3)) {
		b_str(b, cmd);
		return;
	}
	memcpy(first, cmd, n);
	first[n] = '\0';
	obfuscate(b, first);
	b_str(b, cmd + n);
}

static void gen_unit(struct buf *b, unsigned depth);

static void gen_simple(struct buf *b)
{
	static const char *const prefixes[] = { "LC_ALL=C ",   "X=1 ",	  "MAKEFLAGS=-s ",
						"PATH=./bin ", "TZ=UTC ", "GIT_DIR=x ",
						"BASH_ENV=x ", "IFS=: " };
	static const char *const wrappers[] = {
		"env ",	       "timeout 5 ", "nice ",	 "nohup ",	  "command ",
		"time ",       "nice -n 3 ", "env -i ",	 "env LC_ALL=C ", "timeout -s KILL 5 ",
		"stdbuf -o0 ", "setsid ",    "builtin ", "exec ",	  "sudo ",
	};
	uint32_t k = rnd(20);

	if (rnd(8) == 0)
		b_str(b, PICK(prefixes));
	if (rnd(6) == 0)
		b_str(b, PICK(wrappers));
	if (k < 9)
		gen_cmd(b, PICK(harmless));
	else if (k < 13)
		gen_cmd(b, PICK(denied));
	else if (k < 18)
		gen_write(b, rnd(2));
	else
		switch (rnd(8)) {
		case 0:
			b_str(b, "echo y | xargs rm");
			break;
		case 1:
			b_str(b, "find . -name y -exec rm {} \\;");
			break;
		case 2:
			b_str(b, "echo y | xargs ls");
			break;
		case 3:
			b_str(b, "find src -name '*.c' -exec cat {} +");
			break;
		case 4:
			b_str(b, "git -c alias.st='!rm y' st");
			break;
		case 5:
			b_str(b, "awk 'BEGIN{system(\"rm y\")}'");
			break;
		case 6:
			b_str(b, "sed -n '1e rm y' README.md");
			break;
		default:
			b_str(b, "tar -cf out/a.tar src");
			break;
		}
	if (rnd(10) == 0)
		b_fmt(b, " > %s", target(rnd(2)));
	if (rnd(12) == 0)
		b_str(b, " 2>/dev/null");
}

static void gen_expansion(struct buf *b)
{
	switch (rnd(16)) {
	case 0:
		b_str(b, "echo $x");
		break;
	case 1:
		b_str(b, "$x y");
		break;
	case 2:
		b_str(b, "echo ${x:-rm}");
		break;
	case 3:
		b_str(b, "echo $(echo rm)");
		break;
	case 4:
		b_str(b, "echo `rm y`");
		break;
	case 5:
		b_str(b, "echo $((1+2))");
		break;
	case 6:
		b_str(b, "echo $[1<<2]");
		break;
	case 7:
		b_str(b, "echo $((x))");
		break;
	case 8:
		b_str(b, "echo ${!x}");
		break;
	case 9:
		b_str(b, "echo ${x@P}");
		break;
	case 10:
		b_str(b, "a[x]=1");
		break;
	case 11:
		b_str(b, "[[ $x -eq 0 ]]");
		break;
	case 12:
		b_str(b, "echo ${x:1:2}");
		break;
	case 13:
		b_str(b, "echo ${x:y}");
		break;
	case 14:
		b_str(b, "$(echo rm) y");
		break;
	default:
		b_str(b, "echo \"$(rm y)\"");
		break;
	}
}

static void gen_heredoc(struct buf *b)
{
	static const char *const delims[] = { "EOF", "'EOF'", "\"EOF\"", "E\\OF", "-EOF" };
	const char *d = PICK(delims);
	bool strip = d[0] == '-';
	const char *word = strip ? "EOF" : d;
	const char *body_end = "EOF";

	b_fmt(b, "cat <<%s%s\n", strip ? "-" : "", word);
	switch (rnd(6)) {
	case 0:
		b_str(b, "hello\n");
		break;
	case 1:
		/* a backslash-newline joins the next line in an unquoted body */
		b_str(b, "x\\\nEOF\nrm y\n");
		break;
	case 2:
		b_str(b, "EOF\r\nrm y\n");
		break;
	case 3:
		b_str(b, "$(rm y)\n");
		break;
	case 4:
		b_str(b, "\tEOF\nrm y\n");
		break;
	default:
		b_str(b, "a $x `echo b`\n");
		break;
	}
	b_fmt(b, "%s%s\n", strip ? "\t" : "", body_end);
	gen_unit(b, 3);
}

static void gen_unit(struct buf *b, unsigned depth)
{
	uint32_t k = rnd(depth > 2 ? 10 : 30);

	if (k < 10) {
		gen_simple(b);
		return;
	}
	if (k < 13) {
		gen_expansion(b);
		return;
	}
	if (k == 13) {
		gen_heredoc(b);
		return;
	}
	switch (rnd(18)) {
	case 0:
		b_str(b, "{ ");
		gen_unit(b, depth + 1);
		b_str(b, "; }");
		break;
	case 1:
		b_str(b, "( ");
		gen_unit(b, depth + 1);
		b_str(b, " )");
		break;
	case 2:
		b_str(b, "if true; then ");
		gen_unit(b, depth + 1);
		b_str(b, "; fi");
		break;
	case 3:
		b_str(b, "for i in 1; do ");
		gen_unit(b, depth + 1);
		b_str(b, "; done");
		break;
	case 4:
		b_str(b, "case a in a) ");
		gen_unit(b, depth + 1);
		b_str(b, ";; esac");
		break;
	case 5:
		b_str(b, "f() { ");
		gen_unit(b, depth + 1);
		b_str(b, "; }; f");
		break;
	case 6:
		b_str(b, "coproc { ");
		gen_unit(b, depth + 1);
		b_str(b, "; }");
		break;
	case 7:
		b_str(b, "coproc NAME { ");
		gen_unit(b, depth + 1);
		b_str(b, "; }");
		break;
	case 8:
		b_str(b, "time ");
		gen_unit(b, depth + 1);
		break;
	case 9:
		b_str(b, "! ");
		gen_unit(b, depth + 1);
		break;
	case 10:
		b_str(b, "[[ -n a ]] && ");
		gen_unit(b, depth + 1);
		break;
	case 11:
		b_str(b, "sh -c '");
		gen_simple(b);
		b_str(b, "'");
		break;
	case 12:
		b_str(b, "bash -c \"");
		gen_cmd(b, rnd(2) ? PICK(harmless) : PICK(denied));
		b_str(b, "\"");
		break;
	case 13:
		b_str(b, "eval '");
		gen_cmd(b, rnd(2) ? PICK(harmless) : PICK(denied));
		b_str(b, "'");
		break;
	case 14:
		b_str(b, "while false; do :; done; ");
		gen_unit(b, depth + 1);
		break;
	case 15:
		gen_unit(b, depth + 1);
		b_str(b, " # rm y");
		break;
	case 16:
		gen_unit(b, depth + 1);
		b_str(b, "\r");
		break;
	default:
		b_str(b, "x=rm; ");
		gen_unit(b, depth + 1);
		break;
	}
}

static void gen_line(struct buf *b)
{
	static const char *const seps[] = { "; ", " && ", " || ", " | ",  " & ",
					    "\n", ";",	  "&&",	  " |& ", "\r\n" };
	unsigned n = 1 + rnd(3);

	b->n = 0;
	if (b->p)
		b->p[0] = '\0';
	for (unsigned k = 0; k < n; k++) {
		if (k) {
			if (b->n && b->p[b->n - 1] == '\n')
				;
			else
				b_str(b, PICK(seps));
		}
		gen_unit(b, 0);
	}
}

/* ------------------------------------------------------------------------
 * Hand-written lines: one per line of hostile.txt, with C escapes (\n,
 * \r, \t, \\, \xHH); '#' at the start of a line is a comment.
 */
static char *unescape(const char *s, size_t *len)
{
	char *o = malloc(strlen(s) + 1), *d = o;
	if (!o)
		fatal("out of memory");
	for (; *s; s++) {
		if (*s != '\\' || !s[1]) {
			*d++ = *s;
			continue;
		}
		s++;
		switch (*s) {
		case 'n':
			*d++ = '\n';
			break;
		case 'r':
			*d++ = '\r';
			break;
		case 't':
			*d++ = '\t';
			break;
		case 'x': {
			unsigned v = 0;
			for (int k = 0; k < 2 && s[1]; k++) {
				char c = s[1];
				int h = c >= '0' && c <= '9'   ? c - '0'
					: c >= 'a' && c <= 'f' ? c - 'a' + 10
					: c >= 'A' && c <= 'F' ? c - 'A' + 10
							       : -1;
				if (h < 0)
					break;
				v = v * 16 + (unsigned)h;
				s++;
			}
			*d++ = (char)v;
			break;
		}
		default:
			*d++ = *s;
			break;
		}
	}
	*d = '\0';
	*len = (size_t)(d - o);
	return o;
}

/* ------------------------------------------------------------------------
 * The setup.
 */
static char dir[256], proj[300], tmpl[300], home[300];

static const char *const real_progs[] = {
	"bash",	   "sh",       "dash",	   "env",   "timeout", "nice",	 "nohup",    "xargs",
	"find",	   "sed",      "awk",	   "mawk",  "tee",     "cp",	 "mv",	     "touch",
	"cat",	   "ls",       "head",	   "tail",  "wc",      "sort",	 "uniq",     "cut",
	"tr",	   "grep",     "mkdir",	   "ln",    "chmod",   "dd",	 "git",	     "tar",
	"gzip",	   "stdbuf",   "setsid",   "true",  "false",   "printf", "test",     "[",
	"expr",	   "basename", "dirname",  "date",  "seq",     "rm",	 "rmdir",    "make",
	"diff",	   "stat",     "readlink", "id",    "uname",   "cmp",	 "comm",     "od",
	"base64",  "md5sum",   "tac",	   "nl",    "paste",   "join",	 "split",    "truncate",
	"install", "flock",    "patch",	   "which", "pwd",     "echo",	 "realpath", "mktemp",
};

static const char *const stub_progs[] = {
	"curl",	    "wget",	   "evil",     "frob",	    "python3",	"python",    "node",
	"perl",	    "ruby",	   "npm",      "npx",	    "pip",	"cargo",     "go",
	"docker",   "kubectl",	   "ssh",      "scp",	    "rsync",	"sudo",	     "su",
	"doas",	    "vi",	   "vim",      "nano",	    "emacs",	"less",	     "more",
	"man",	    "sleep",	   "yes",      "watch",	    "tmux",	"screen",    "at",
	"parallel", "pkexec",	   "chroot",   "unshare",   "nsenter",	"strace",    "gdb",
	"valgrind", "systemd-run", "firejail", "ionice",    "taskset",	"chrt",	     "xvfb-run",
	"fakeroot", "script",	   "entr",     "hyperfine", "jq",	"editor",    "pager",
	"mail",	    "nc",	   "telnet",   "shutdown",  "reboot",	"pkill",     "killall",
	"kill",	    "zip",	   "unzip",    "7z",	    "xdg-open", "open",	     "bun",
	"deno",	    "php",	   "lua",      "busybox",   "time",	"ssh-agent", "dbus-launch",
	"nvim",	    "wall",	   "crontab",
};

static bool find_prog(const char *name, char *out, size_t size)
{
	static const char *const dirs[] = { "/usr/bin", "/bin", "/usr/sbin", "/sbin",
					    "/usr/local/bin" };
	for (size_t k = 0; k < sizeof(dirs) / sizeof(dirs[0]); k++) {
		snprintf(out, size, "%s/%s", dirs[k], name);
		if (access(out, X_OK) == 0)
			return true;
	}
	return false;
}

static void copy_file(const char *from, const char *to, mode_t mode)
{
	FILE *in = fopen(from, "rbe"), *o = fopen(to, "wbe");
	char b[65536];
	size_t n;
	if (!in || !o)
		fatal("cannot copy %s", from);
	while ((n = fread(b, 1, sizeof(b), in)) > 0)
		if (fwrite(b, 1, n, o) != n)
			fatal("cannot copy %s", from);
	fclose(in);
	if (fclose(o) != 0 || chmod(to, mode) != 0)
		fatal("cannot copy %s", from);
}

static void mk(const char *fmt, ...)
{
	char p[PATH_MAX];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(p, sizeof(p), fmt, ap);
	va_end(ap);
	if (mkdir(p, 0755) != 0 && errno != EEXIST)
		fatal("mkdir %s: %s", p, strerror(errno));
}

static void put(const char *rel, const char *text)
{
	char p[PATH_MAX];
	snprintf(p, sizeof(p), "%s/%s", tmpl, rel);
	write_text(p, text);
}

/* What git writes in its own directory when it does the work the
 * policies allow (status refreshes the index, commit writes objects). */
#define GIT_OWN                                                                                    \
	"\".git/objects/**\", \".git/refs/**\", \".git/logs/**\", \".git/index\", "                \
	"\".git/index.lock\", \".git/COMMIT_EDITMSG\", \".git/HEAD\", \".git/HEAD.lock\", "        \
	"\".git/ORIG_HEAD\", \".git/ORIG_HEAD.lock\", \".git/packed-refs\", \".git/FETCH_HEAD\", " \
	"\".git/AUTO_MERGE\", \".git/MERGE_HEAD\", \".git/MERGE_MSG\", \".git/MERGE_MODE\", "      \
	"\".git/info/**\", \".git/rebase-merge/**\", \".git/rebase-apply/**\", "                   \
	"\".git/sequencer/**\", \".git/gc.pid\", \".git/config.lock\", \".git/*_MSG\", "           \
	"\".git/*_HEAD\", \".git/*.lock\", \".git/MERGE_RR\", \".git/rr-cache/**\""

static const char policy_allow[] =
	"{\n"
	"  \"version\": 1,\n"
	"  \"fallback\": \"ask\",\n"
	"  \"rules\": [\n"
	"    { \"effect\": \"allow\", \"capability\": \"read\", \"paths\": [\"src/**\", "
	"\"docs/**\", \"README.md\", \"Makefile\", \"out/**\", \"tmp/**\", \".git/**\", \"y\"] },\n"
	"    { \"effect\": \"deny\", \"capability\": \"read\", \"paths\": [\".env\", "
	"\"secret/**\"] },\n"
	"    { \"effect\": \"allow\", \"capability\": \"write\", \"paths\": [\"src/**\", "
	"\"out/**\", \"tmp/**\", " GIT_OWN "] },\n"
	"    { \"effect\": \"deny\", \"capability\": \"write\", \"paths\": [\".env\", "
	"\".git/hooks/**\", \"secret/**\"] },\n"
	"    { \"effect\": \"allow\", \"capability\": \"delete\", \"paths\": [\"src/**\", "
	"\"out/**\", \"tmp/**\", " GIT_OWN "] },\n"
	"    { \"effect\": \"ask\", \"capability\": \"bash\", \"commands\": [\n"
	"        { \"effect\": \"deny\", \"prefix\": \"rm\" },\n"
	"        { \"effect\": \"deny\", \"prefix\": \"git push\" },\n"
	"        { \"effect\": \"deny\", \"prefix\": \"curl\" },\n"
	"        { \"effect\": \"deny\", \"prefix\": \"evil\" },\n"
	"        { \"effect\": \"allow\", \"prefix\": \"ls\" },\n"
	"        { \"effect\": \"allow\", \"prefix\": \"cat\" },\n"
	"        { \"effect\": \"allow\", \"prefix\": \"echo\" },\n"
	"        { \"effect\": \"allow\", \"prefix\": \"printf\" },\n"
	"        { \"effect\": \"allow\", \"prefix\": \"grep\" },\n"
	"        { \"effect\": \"allow\", \"prefix\": \"head\" },\n"
	"        { \"effect\": \"allow\", \"prefix\": \"tail\" },\n"
	"        { \"effect\": \"allow\", \"prefix\": \"wc\" },\n"
	"        { \"effect\": \"allow\", \"prefix\": \"sort\" },\n"
	"        { \"effect\": \"allow\", \"prefix\": \"uniq\" },\n"
	"        { \"effect\": \"allow\", \"prefix\": \"cut\" },\n"
	"        { \"effect\": \"allow\", \"prefix\": \"tr\" },\n"
	"        { \"effect\": \"allow\", \"prefix\": \"sed\" },\n"
	"        { \"effect\": \"allow\", \"prefix\": \"awk\" },\n"
	"        { \"effect\": \"allow\", \"prefix\": \"find\" },\n"
	"        { \"effect\": \"allow\", \"prefix\": \"xargs\" },\n"
	"        { \"effect\": \"allow\", \"prefix\": \"git status\" },\n"
	"        { \"effect\": \"allow\", \"prefix\": \"git log\" },\n"
	"        { \"effect\": \"allow\", \"prefix\": \"git diff\" },\n"
	"        { \"effect\": \"allow\", \"prefix\": \"git show\" },\n"
	"        { \"effect\": \"allow\", \"exact\": \"make test\" },\n"
	"        { \"effect\": \"allow\", \"prefix\": \"test\" },\n"
	"        { \"effect\": \"allow\", \"prefix\": \"[\" },\n"
	"        { \"effect\": \"allow\", \"prefix\": \"true\" },\n"
	"        { \"effect\": \"allow\", \"prefix\": \":\" },\n"
	"        { \"effect\": \"allow\", \"prefix\": \"pwd\" },\n"
	"        { \"effect\": \"allow\", \"prefix\": \"date\" },\n"
	"        { \"effect\": \"allow\", \"prefix\": \"basename\" },\n"
	"        { \"effect\": \"allow\", \"prefix\": \"dirname\" },\n"
	"        { \"effect\": \"allow\", \"prefix\": \"diff\" },\n"
	"        { \"effect\": \"allow\", \"prefix\": \"stat\" },\n"
	"        { \"effect\": \"allow\", \"prefix\": \"seq\" },\n"
	"        { \"effect\": \"allow\", \"prefix\": \"expr\" },\n"
	"        { \"effect\": \"allow\", \"prefix\": \"command -v\" },\n"
	"        { \"effect\": \"allow\", \"prefix\": \"type\" },\n"
	"        { \"effect\": \"allow\", \"prefix\": \"env\" },\n"
	"        { \"effect\": \"allow\", \"prefix\": \"timeout\" },\n"
	"        { \"effect\": \"allow\", \"prefix\": \"nice\" },\n"
	"        { \"effect\": \"allow\", \"prefix\": \"tee\" },\n"
	"        { \"effect\": \"allow\", \"prefix\": \"cp\" },\n"
	"        { \"effect\": \"allow\", \"prefix\": \"touch\" },\n"
	"        { \"effect\": \"allow\", \"prefix\": \"dd\" },\n"
	"        { \"effect\": \"allow\", \"prefix\": \"ln\" },\n"
	"        { \"effect\": \"allow\", \"prefix\": \"tar\" },\n"
	"        { \"effect\": \"allow\", \"prefix\": \"cd\" } ] }\n"
	"  ]\n"
	"}\n";

static const char policy_deny[] =
	"{\n"
	"  \"version\": 1,\n"
	"  \"fallback\": \"ask\",\n"
	"  \"rules\": [\n"
	"    { \"effect\": \"allow\", \"capability\": \"read\", \"paths\": [\"**\"] },\n"
	"    { \"effect\": \"allow\", \"capability\": \"write\", \"paths\": [\"src/**\", "
	"\"out/**\", \"tmp/**\", \"y\", " GIT_OWN "] },\n"
	"    { \"effect\": \"allow\", \"capability\": \"delete\", \"paths\": [\"src/**\", "
	"\"out/**\", \"tmp/**\", \"y\", " GIT_OWN "] },\n"
	"    { \"effect\": \"allow\", \"capability\": \"bash\", \"commands\": [\n"
	"        { \"effect\": \"deny\", \"prefix\": \"rm\" },\n"
	"        { \"effect\": \"deny\", \"prefix\": \"git push\" },\n"
	"        { \"effect\": \"deny\", \"prefix\": \"curl\" },\n"
	"        { \"effect\": \"deny\", \"prefix\": \"wget\" },\n"
	"        { \"effect\": \"deny\", \"prefix\": \"evil\" },\n"
	"        { \"effect\": \"deny\", \"prefix\": \"frob\" },\n"
	"        { \"effect\": \"deny\", \"prefix\": \"sudo\" } ] }\n"
	"  ]\n"
	"}\n";

/* The sandbox the traced runs live in: the project and its home are
 * writable, nothing else. The project's git directory stays writable
 * too (no read-only mask on its hooks and configuration): the tracer
 * copies the project back after every line that changed it, and what a
 * line writes there is recorded and judged like any other write. */
static const char policy_sandbox[] =
	"{ \"version\": 1, \"fallback\": \"deny\", \"rules\": [\n"
	"  { \"effect\": \"allow\", \"capability\": \"read\", \"paths\": [\"**\"] },\n"
	"  { \"effect\": \"allow\", \"capability\": \"write\", \"paths\": [\"w/**\", \"home/**\", "
	"\"o/**\"] },\n"
	"  { \"effect\": \"allow\", \"capability\": \"delete\", \"paths\": [\"w/**\", "
	"\"home/**\"] },\n"
	"  { \"effect\": \"allow\", \"capability\": \"bash\" } ],\n"
	"  \"protect\": { \"lift\": [\".git/config\", \".git/hooks\"] } }\n";

static void setup(const char *bin, const char *difftrace, const char *stub)
{
	char p[PATH_MAX], q[PATH_MAX];

	/* Not below /dev/shm, although the project is copied back after
	 * every line that changed it: landfence refuses a project root
	 * below /dev (a system directory). */
	snprintf(dir, sizeof(dir), "/tmp/lf-diff-XXXXXX");
	if (!mkdtemp(dir))
		fatal("mkdtemp: %s", strerror(errno));
	snprintf(tmpl, sizeof(tmpl), "%s/t", dir);
	snprintf(proj, sizeof(proj), "%s/w", dir);
	snprintf(home, sizeof(home), "%s/home", dir);
	mk("%s", tmpl);
	mk("%s", proj);
	mk("%s", home);
	mk("%s/stubs", dir);
	mk("%s/real", dir);
	mk("%s/bin", dir);
	mk("%s/o", dir);
	mk("%s/src", tmpl);
	mk("%s/docs", tmpl);
	mk("%s/out", tmpl);
	mk("%s/tmp", tmpl);
	mk("%s/secret", tmpl);
	put("README.md", "hello\nworld\n");
	put("src/a.c", "int a;\n");
	put("src/b.c", "int b;\n");
	put("docs/guide.md", "guide\n");
	put("Makefile", "test:\n\ttrue\n");
	put(".env", "SECRET=1\n");
	put("secret/key", "key\n");
	put("y", "y\n");
	put("out/.keep", "");
	put("tmp/.keep", "");
	/* a git repository: git itself is one of the real programs */
	const char *gitenv[] = { "GIT_CONFIG_NOSYSTEM=1", NULL };
	char gitp[PATH_MAX];
	if (!find_prog("git", gitp, sizeof(gitp)))
		fatal("git is needed");
	/* no template: no sample hooks to copy again and again */
	const char *const g1[] = { gitp, "-C", tmpl, "init", "-q", "--template=", NULL };
	const char *const g2[] = { gitp,  "-C", tmpl, "-c", "user.name=t", "-c", "user.email=t@t",
				   "add", "-A", NULL };
	const char *const g3[] = {
		gitp,	  "-C",	 tmpl,	 "-c", "user.name=t", "-c", "user.email=t@t",
		"commit", "-qm", "init", NULL
	};
	/* objects packed: a small tree is quick to copy back after each line */
	const char *const g4[] = { gitp, "-C", tmpl, "gc", "-q", NULL };
	if (run(g1, gitenv, true) || run(g2, gitenv, true) || run(g3, gitenv, true) ||
	    run(g4, gitenv, true))
		fatal("git init failed");
	mk("%s/.git/hooks", tmpl);
	snprintf(p, sizeof(p), "%s/.git/config", tmpl);
	FILE *gc = fopen(p, "ae");
	if (!gc ||
	    fputs("[user]\n\tname = t\n\temail = t@t\n[maintenance]\n\tauto = false\n"
		  "[gc]\n\tauto = 0\n",
		  gc) < 0 ||
	    fclose(gc) != 0)
		fatal("git config");
	/* the helpers, copied so that the sandbox needs no grant outside */
	snprintf(p, sizeof(p), "%s/bin/lf-difftrace", dir);
	copy_file(difftrace, p, 0755);
	snprintf(p, sizeof(p), "%s/bin/lf-stub", dir);
	copy_file(stub, p, 0755);
	for (size_t k = 0; k < sizeof(stub_progs) / sizeof(stub_progs[0]); k++) {
		snprintf(q, sizeof(q), "%s/stubs/%s", dir, stub_progs[k]);
		if (symlink(p, q) != 0)
			fatal("symlink %s", q);
	}
	for (size_t k = 0; k < sizeof(real_progs) / sizeof(real_progs[0]); k++) {
		char real[PATH_MAX];
		if (!find_prog(real_progs[k], real, sizeof(real)))
			continue;
		snprintf(q, sizeof(q), "%s/real/%s", dir, real_progs[k]);
		if (symlink(real, q) != 0)
			fatal("symlink %s", q);
	}
	snprintf(p, sizeof(p), "%s/p-allow.json", dir);
	write_text(p, policy_allow);
	snprintf(p, sizeof(p), "%s/p-deny.json", dir);
	write_text(p, policy_deny);
	snprintf(p, sizeof(p), "%s/sandbox.json", dir);
	write_text(p, policy_sandbox);
	(void)bin;
}

/* ------------------------------------------------------------------------
 * The judge.
 */
#define NPOL 3
static const char *const pol_names[NPOL] = { "allow-list", "deny-list", "default" };
static struct lf_effective *effs[NPOL];
static struct lf_policy *pols[NPOL];

static void policies_load(void)
{
	const char *texts[2] = { policy_allow, policy_deny };
	struct lf_diag d;

	for (int k = 0; k < 2; k++)
		if (lf_policy_parse(texts[k], strlen(texts[k]), "p.json", LF_LAYER_LOCAL, &pols[k],
				    &d) != 0)
			fatal("policy %d: %s", k, d.message);
	if (lf_policy_default(&pols[2]) != 0)
		fatal("the default policy");
	for (int k = 0; k < NPOL; k++) {
		const struct lf_policy *one[] = { pols[k] };
		if (lf_effective_resolve(one, 1, &effs[k]) != 0)
			fatal("resolve");
	}
}

struct rd {
	const unsigned char *p, *end;
	bool bad;
};

static uint32_t rd_u32(struct rd *r)
{
	uint32_t v = 0;
	if (r->end - r->p < 4) {
		r->bad = true;
		r->p = r->end;
		return 0;
	}
	memcpy(&v, r->p, 4);
	r->p += 4;
	return v;
}

static char *rd_str(struct rd *r, size_t *len)
{
	uint32_t n = rd_u32(r);
	if ((size_t)(r->end - r->p) < n) {
		r->bad = true;
		r->p = r->end;
		return NULL;
	}
	char *s = malloc((size_t)n + 1);
	if (!s)
		fatal("out of memory");
	memcpy(s, r->p, n);
	s[n] = '\0';
	r->p += n;
	if (len)
		*len = n;
	return s;
}

struct line_result {
	int check[NPOL];
	bool traced;
	bool timeout;
	int exit_code;
	bool ran;	     /* bash ran at least one command */
	bool unsafe[NPOL];   /* bash ran or wrote what the policy does not allow */
	char why[NPOL][512]; /* the first thing that was not allowed */
};

static void why_set(struct line_result *lr, int k, const char *fmt, ...)
{
	if (lr->why[k][0])
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(lr->why[k], sizeof(lr->why[k]), fmt, ap);
	va_end(ap);
}

/* The words of one xtrace record (bash quotes them for reuse as input). */
static size_t xtrace_words(const char *s, size_t n, size_t *i, char **words, size_t max)
{
	size_t nw = 0;
	struct buf w = { 0 };
	bool in_word = false;

	while (*i < n) {
		char c = s[*i];
		if (c == '\n') {
			(*i)++;
			break;
		}
		if (c == ' ' || c == '\t') {
			if (in_word && nw < max)
				words[nw++] = strdup(w.p ? w.p : "");
			in_word = false;
			w.n = 0;
			if (w.p)
				w.p[0] = '\0';
			(*i)++;
			continue;
		}
		in_word = true;
		if (c == '\'') {
			size_t e = *i + 1;
			while (e < n && s[e] != '\'')
				e++;
			b_put(&w, s + *i + 1, e - *i - 1);
			*i = e + 1;
		} else if (c == '$' && *i + 1 < n && s[*i + 1] == '\'') {
			size_t e = *i + 2;
			while (e < n && s[e] != '\'') {
				if (s[e] == '\\' && e + 1 < n) {
					char x = s[e + 1], o = x;
					if (x == 'n')
						o = '\n';
					else if (x == 't')
						o = '\t';
					else if (x == 'r')
						o = '\r';
					else if (x == 'e' || x == 'E')
						o = 033;
					else if (x == 'a')
						o = '\a';
					else if (x == 'b')
						o = '\b';
					else if (x == 'f')
						o = '\f';
					else if (x == 'v')
						o = '\v';
					else if (x >= '0' && x <= '7') {
						unsigned v = 0;
						size_t k = e + 1;
						for (int d = 0;
						     d < 3 && k < n && s[k] >= '0' && s[k] <= '7';
						     d++, k++)
							v = v * 8 + (unsigned)(s[k] - '0');
						o = (char)v;
						b_put(&w, &o, 1);
						e = k;
						continue;
					}
					b_put(&w, &o, 1);
					e += 2;
					continue;
				}
				b_put(&w, s + e, 1);
				e++;
			}
			*i = e + 1;
		} else if (c == '\\' && *i + 1 < n) {
			b_put(&w, s + *i + 1, 1);
			*i += 2;
		} else {
			b_put(&w, &c, 1);
			(*i)++;
		}
	}
	if (in_word && nw < max)
		words[nw++] = strdup(w.p ? w.p : "");
	free(w.p);
	return nw;
}

static bool is_assignment(const char *w)
{
	size_t k = 0;
	if (!((w[0] >= 'a' && w[0] <= 'z') || (w[0] >= 'A' && w[0] <= 'Z') || w[0] == '_'))
		return false;
	while ((w[k] >= 'a' && w[k] <= 'z') || (w[k] >= 'A' && w[k] <= 'Z') || w[k] == '_' ||
	       (w[k] >= '0' && w[k] <= '9'))
		k++;
	if (w[k] == '[') {
		while (w[k] && w[k] != ']')
			k++;
		if (w[k])
			k++;
	}
	if (w[k] == '+')
		k++;
	return w[k] == '=';
}

static void judge_command(struct line_result *lr, char **argv, size_t argc, const char *how)
{
	const char *args[256];
	size_t n = argc < 256 ? argc : 256;

	for (size_t k = 0; k < n; k++)
		args[k] = argv[k];
	for (int p = 0; p < NPOL; p++) {
		struct lf_verdict v;
		if (lf_bash_command_verdict(effs[p], args, n, &v) != 0 || v.effect != LF_ALLOW) {
			lr->unsafe[p] = true;
			why_set(lr, p, "%s `%.200s` (%s)", how, v.part, lf_effect_name(v.effect));
		}
	}
}

static void judge_write(struct line_result *lr, const char *path, bool del)
{
	static const char *const dev[] = { "/dev/null",	  "/dev/tty",	"/dev/stdout",
					   "/dev/stderr", "/dev/stdin", NULL };
	for (size_t k = 0; dev[k]; k++)
		if (!strcmp(path, dev[k]))
			return;
	if (!strncmp(path, "/dev/pts/", 9) || !strncmp(path, "/dev/fd/", 8) ||
	    !strncmp(path, "/proc/self/fd/", 14))
		return;
	/* bash's own temporary files for here-documents */
	const char *base = strrchr(path, '/');
	if (base && !strncmp(base + 1, "sh-thd", 6))
		return;
	for (int p = 0; p < NPOL; p++) {
		struct lf_verdict v;
		if (lf_effective_decide_file(effs[p], proj, del ? LF_CAP_DELETE : LF_CAP_WRITE,
					     path, &v) != 0 ||
		    v.effect != LF_ALLOW) {
			lr->unsafe[p] = true;
			why_set(lr, p, "%s %s", del ? "deleted" : "wrote", path);
		}
	}
}

static void judge_trace(struct rd *r, struct line_result *lr)
{
	bool first_exec = true;

	while (r->p < r->end && *r->p != 'L') {
		char type = (char)*r->p++;
		if (type == 'E') {
			char *file = rd_str(r, NULL);
			uint32_t argc = rd_u32(r);
			char **argv = calloc((size_t)argc + 1, sizeof(*argv));
			if (!argv)
				fatal("out of memory");
			for (uint32_t k = 0; k < argc && !r->bad; k++)
				argv[k] = rd_str(r, NULL);
			if (!first_exec && file && argc) {
				/* judged by the program really run, as rules name it */
				const char *b = strrchr(file, '/');
				char *save = argv[0];
				argv[0] = (char *)(b ? b + 1 : file);
				judge_command(lr, argv, argc, "ran");
				argv[0] = save;
				lr->ran = true;
			}
			first_exec = false;
			for (uint32_t k = 0; k < argc; k++)
				free(argv[k]);
			free(argv);
			free(file);
		} else if (type == 'W' || type == 'D') {
			char *path = rd_str(r, NULL);
			if (path)
				judge_write(lr, path, type == 'D');
			free(path);
		} else if (type == 'X') {
			size_t n = 0;
			char *x = rd_str(r, &n);
			size_t i = 0;
			while (x && i < n) {
				char *words[256];
				size_t k = 0;
				if (x[i] != '+') {
					/* not a record start (a word's own newline) */
					while (i < n && x[i] != '\n')
						i++;
					i++;
					continue;
				}
				while (i < n && x[i] == '+')
					i++;
				if (i < n && x[i] == ' ')
					i++;
				size_t nw = xtrace_words(x, n, &i, words, 256);
				while (k < nw && is_assignment(words[k]))
					k++;
				if (k < nw && strcmp(words[k], "[[") && strcmp(words[k], "((") &&
				    strcmp(words[k], "for") && strcmp(words[k], "case") &&
				    strcmp(words[k], "select")) {
					judge_command(lr, words + k, nw - k, "bash ran");
					lr->ran = true;
				}
				for (size_t j = 0; j < nw; j++)
					free(words[j]);
			}
			free(x);
		} else if (type == 'S') {
			lr->exit_code = (int)rd_u32(r);
			lr->timeout = rd_u32(r) != 0;
			lr->traced = lr->exit_code != -2;
		} else {
			r->bad = true;
			break;
		}
		if (r->bad)
			break;
	}
}

/* ------------------------------------------------------------------------
 * Main.
 */
static void print_escaped(FILE *f, const char *s, size_t n)
{
	for (size_t k = 0; k < n; k++) {
		unsigned char c = (unsigned char)s[k];
		if (c == '\n')
			fputs("\\n", f);
		else if (c == '\r')
			fputs("\\r", f);
		else if (c == '\t')
			fputs("\\t", f);
		else if (c == '\\')
			fputs("\\\\", f);
		else if (c < 0x20 || c == 0x7f)
			fprintf(f, "\\x%02x", c);
		else
			fputc(c, f);
	}
}

int main(int argc, char **argv)
{
	unsigned long nlines = 2000;
	uint64_t seed = 0x5eed2026u;
	bool keep = false, verbose = false;
	const char *dump = NULL;
	int opt;

	while ((opt = getopt(argc, argv, "n:s:kvo:")) != -1) {
		switch (opt) {
		case 'n':
			nlines = strtoul(optarg, NULL, 10);
			break;
		case 's':
			seed = strtoull(optarg, NULL, 0);
			break;
		case 'k':
			keep = true;
			break;
		case 'v':
			verbose = true;
			break;
		case 'o':
			dump = optarg;
			break;
		default:
			return 2;
		}
	}
	const char *bin = getenv("LANDFENCE_BIN"), *src = getenv("LANDFENCE_SRCDIR");
	const char *difftrace = getenv("LF_DIFFTRACE"), *stub = getenv("LF_STUB");
	if (!bin || !src || !difftrace || !stub)
		fatal("LANDFENCE_BIN, LANDFENCE_SRCDIR, LF_DIFFTRACE and LF_STUB must be set");
	char bashp[PATH_MAX];
	if (!find_prog("bash", bashp, sizeof(bashp))) {
		printf("SKIP: no bash\n");
		return 77;
	}
	/* hostile lines only ever run inside the sandbox */
	if (lf_landlock_abi(-1) <= 0) {
		const char *m = getenv("LANDFENCE_TESTS_MUST_ENFORCE");
		if (m && !strcmp(m, "1"))
			fatal("Landlock is not available and LANDFENCE_TESTS_MUST_ENFORCE=1");
		printf("SKIP: no Landlock here: the lines would run outside a sandbox\n");
		return 77;
	}
	rs = seed ? seed : 1;
	policies_load();
	setup(bin, difftrace, stub);

	/* the lines: hand-written (hostile, then everyday), then generated */
	char **lines = NULL;
	size_t *lens = NULL, n = 0, cap = 0, nhand = 0, nhostile = 0;
	static const char *const files[] = { "hostile.txt", "everyday.txt" };
	for (size_t fi = 0; fi < 2; fi++) {
		char hp[PATH_MAX];
		snprintf(hp, sizeof(hp), "%s/tests/differential/%s", src, files[fi]);
		FILE *hf = fopen(hp, "re");
		if (!hf)
			fatal("cannot read %s", hp);
		char *raw = NULL;
		size_t rawcap = 0;
		ssize_t got;
		while ((got = getline(&raw, &rawcap, hf)) > 0) {
			if (raw[got - 1] == '\n')
				raw[--got] = '\0';
			if (!got || raw[0] == '#')
				continue;
			if (n == cap) {
				cap = cap ? cap * 2 : 1024;
				lines = realloc(lines, cap * sizeof(*lines));
				lens = realloc(lens, cap * sizeof(*lens));
				if (!lines || !lens)
					fatal("out of memory");
			}
			lines[n] = unescape(raw, &lens[n]);
			n++;
		}
		free(raw);
		fclose(hf);
		if (fi == 0)
			nhostile = n;
	}
	nhand = n;
	struct buf b = { 0 };
	for (unsigned long k = 0; k < nlines; k++) {
		gen_line(&b);
		if (n == cap) {
			cap = cap ? cap * 2 : 1024;
			lines = realloc(lines, cap * sizeof(*lines));
			lens = realloc(lens, cap * sizeof(*lens));
			if (!lines || !lens)
				fatal("out of memory");
		}
		lines[n] = strdup(b.p ? b.p : "");
		lens[n] = b.n;
		n++;
	}
	free(b.p);
	if (dump) {
		FILE *df = fopen(dump, "we");
		for (size_t k = 0; df && k < n; k++) {
			print_escaped(df, lines[k], lens[k]);
			fputc('\n', df);
		}
		if (df)
			fclose(df);
	}

	/* 1. the answers, on the project as it is before the line */
	char cmd[2048];
	snprintf(cmd, sizeof(cmd), "cp -a '%s/.' '%s/'", tmpl, proj);
	if (system(cmd) != 0)
		fatal("cannot copy the template");
	struct line_result *res = calloc(n, sizeof(*res));
	if (!res)
		fatal("out of memory");
	char envhome[320];
	snprintf(envhome, sizeof(envhome), "HOME=%s", home);
	const char *const cenv[] = { envhome, "XDG_CONFIG_HOME=", NULL };
	char pa[320], pd[320];
	snprintf(pa, sizeof(pa), "%s/p-allow.json", dir);
	snprintf(pd, sizeof(pd), "%s/p-deny.json", dir);
	double t0 = now();
	/* a few at a time: each is a process of its own */
	long jobs = sysconf(_SC_NPROCESSORS_ONLN) * 2;
	struct {
		pid_t pid;
		size_t line;
		int pol;
	} busy[64];
	size_t nbusy = 0, next = 0;
	if (jobs < 1)
		jobs = 1;
	if (jobs > 64)
		jobs = 64;
	while (next < n * NPOL || nbusy) {
		while (next < n * NPOL && nbusy < (size_t)jobs) {
			size_t k = next / NPOL;
			int p = (int)(next % NPOL);
			const char *a[] = { bin,    "check", "-C",     proj, "-p", p == 0 ? pa : pd,
					    "bash", "--",    lines[k], NULL };
			const char *ad[] = {
				bin, "check", "-C", proj, "bash", "--", lines[k], NULL
			};
			pid_t pid = start(p == 2 ? ad : a, cenv, true);
			if (pid < 0)
				fatal("cannot run %s", bin);
			busy[nbusy].pid = pid;
			busy[nbusy].line = k;
			busy[nbusy].pol = p;
			nbusy++;
			next++;
		}
		int st;
		pid_t done = waitpid(-1, &st, 0);
		if (done < 0)
			fatal("waitpid: %s", strerror(errno));
		for (size_t j = 0; j < nbusy; j++) {
			if (busy[j].pid != done)
				continue;
			res[busy[j].line].check[busy[j].pol] = status_code(st);
			busy[j] = busy[--nbusy];
			break;
		}
	}

	double t1 = now();
	/* 2. the runs, inside the sandbox */
	char lf[320], of[320], dt[320], sb[320], path[640], bashcopy[PATH_MAX];
	snprintf(lf, sizeof(lf), "%s/lines.bin", dir);
	snprintf(of, sizeof(of), "%s/o/out", dir);
	snprintf(dt, sizeof(dt), "%s/bin/lf-difftrace", dir);
	snprintf(sb, sizeof(sb), "%s/sandbox.json", dir);
	snprintf(path, sizeof(path), "%s/stubs:%s/real", dir, dir);
	snprintf(bashcopy, sizeof(bashcopy), "%s", bashp);
	FILE *lfh = fopen(lf, "wbe");
	if (!lfh)
		fatal("cannot write %s", lf);
	for (size_t k = 0; k < n; k++) {
		uint32_t l = (uint32_t)lens[k];
		fwrite(&l, sizeof(l), 1, lfh);
		fwrite(lines[k], 1, lens[k], lfh);
	}
	if (fclose(lfh) != 0)
		fatal("cannot write %s", lf);
	const char *const ra[] = { bin, "run", "-q", "-C", dir,	     "-p", sb,	 "--", dt,
				   lf,	tmpl,  proj, of,   bashcopy, path, home, NULL };
	int rr = run(ra, NULL, false);
	if (rr != 0)
		fatal("the traced run failed (exit %d)", rr);

	double t2 = now();
	/* 3. the judgement */
	FILE *ofh = fopen(of, "rbe");
	if (!ofh)
		fatal("no trace");
	struct buf tr = { 0 };
	char chunk[65536];
	size_t cn;
	while ((cn = fread(chunk, 1, sizeof(chunk), ofh)) > 0)
		b_put(&tr, chunk, cn);
	fclose(ofh);
	struct rd r = { (const unsigned char *)tr.p, (const unsigned char *)tr.p + tr.n, false };
	while (r.p < r.end && !r.bad) {
		if (*r.p++ != 'L') {
			r.bad = true;
			break;
		}
		uint32_t idx = rd_u32(&r);
		if (idx >= n) {
			r.bad = true;
			break;
		}
		judge_trace(&r, &res[idx]);
	}
	if (r.bad)
		fatal("the trace is malformed");

	unsigned long unsafe_allowed = 0, untraced = 0, timeouts = 0;
	unsigned long allowed[NPOL] = { 0 }, refused_harmless[NPOL] = { 0 },
		      nharmless[NPOL] = { 0 }, errors[NPOL] = { 0 }, unsafe[NPOL] = { 0 };
	/* per source: 0 hostile, 1 everyday, 2 generated */
	unsigned long src_harmless[3][NPOL] = { { 0 } }, src_refused[3][NPOL] = { { 0 } },
		      src_lines[3] = { 0 };
	for (size_t k = 0; k < n; k++) {
		struct line_result *lr = &res[k];
		if (!lr->traced) {
			untraced++;
			continue;
		}
		timeouts += lr->timeout;
		int srcno = k < nhostile ? 0 : k < nhand ? 1 : 2;
		src_lines[srcno]++;
		for (int p = 0; p < NPOL; p++) {
			int c = lr->check[p];
			if (c != 0 && c != 1 && c != 3) {
				errors[p]++;
				fprintf(stderr, "check error %d on line %zu\n", c, k);
			}
			allowed[p] += c == 0;
			unsafe[p] += lr->unsafe[p];
			if (c == 0 && lr->unsafe[p]) {
				unsafe_allowed++;
				printf("ALLOWED BUT UNSAFE (%s policy, %s line %zu): ",
				       pol_names[p],
				       k < nhostile ? "hostile"
				       : k < nhand  ? "everyday"
						    : "generated",
				       k);
				print_escaped(stdout, lines[k], lens[k]);
				printf("\n    %s\n", lr->why[p]);
			}
			if (!lr->unsafe[p] && lr->ran && !lr->timeout) {
				nharmless[p]++;
				src_harmless[srcno][p]++;
				if (c == 1 || c == 3) {
					refused_harmless[p]++;
					src_refused[srcno][p]++;
				}
				if (verbose && (c == 1 || c == 3)) {
					printf("refused harmless (%s, %s): ", pol_names[p],
					       c == 1 ? "deny" : "ask");
					print_escaped(stdout, lines[k], lens[k]);
					printf("\n");
				}
			}
		}
		if (verbose) {
			printf("%zu [%d %d %d]%s ", k, lr->check[0], lr->check[1], lr->check[2],
			       lr->unsafe[0] || lr->unsafe[1] || lr->unsafe[2] ? " unsafe" : "");
			print_escaped(stdout, lines[k], lens[k]);
			printf("\n");
		}
	}
	printf("lines: %zu (hand-written hostile %zu, everyday %zu, generated %lu, seed 0x%llx); "
	       "not traced %lu, stopped by the time limit %lu\n",
	       n, nhostile, nhand - nhostile, nlines, (unsigned long long)seed, untraced, timeouts);
	for (int p = 0; p < NPOL; p++)
		printf("%-10s policy: allowed %lu, unsafe runs %lu, harmless runs %lu, of which "
		       "refused %lu (%.1f%%), check errors %lu\n",
		       pol_names[p], allowed[p], unsafe[p], nharmless[p], refused_harmless[p],
		       nharmless[p] ? 100.0 * (double)refused_harmless[p] / (double)nharmless[p]
				    : 0.0,
		       errors[p]);
	static const char *const src_names[3] = { "hostile", "everyday", "generated" };
	for (int sn = 0; sn < 3; sn++) {
		printf("%-9s lines %lu: harmless refused", src_names[sn], src_lines[sn]);
		for (int p = 0; p < NPOL; p++)
			printf("%s %s %lu/%lu", p ? "," : "", pol_names[p], src_refused[sn][p],
			       src_harmless[sn][p]);
		printf("\n");
	}
	printf("allowed but unsafe: %lu\n", unsafe_allowed);
	printf("time: answers %.1f s, runs %.1f s\n", t1 - t0, t2 - t1);

	if (!keep) {
		snprintf(cmd, sizeof(cmd), "chmod -R u+rwx '%s' 2>/dev/null; rm -rf '%s'", dir,
			 dir);
		if (system(cmd) != 0)
			fprintf(stderr, "could not remove %s\n", dir);
	} else {
		printf("kept %s\n", dir);
	}
	for (size_t k = 0; k < n; k++)
		free(lines[k]);
	free(lines);
	free(lens);
	free(res);
	free(tr.p);
	for (int p = 0; p < NPOL; p++) {
		lf_effective_free(effs[p]);
		lf_policy_free(pols[p]);
	}
	bool errs = untraced > 0;
	for (int p = 0; p < NPOL; p++)
		errs = errs || errors[p];
	/* a line bash did not run under the tracer proves nothing */
	if (untraced)
		printf("FAIL: %lu lines were not traced (the project could not be copied back)\n",
		       untraced);
	return unsafe_allowed ? 1 : errs ? 2 : 0;
}
