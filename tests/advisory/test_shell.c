/* SPDX-License-Identifier: MIT */
/*
 * The shell analysis alone (src/core/shell_*.c): which parts a line
 * yields, in order, written as "cmd:WORDS", "cmd+:WORDS" (more arguments
 * at run time), "read:TARGET", "write:TARGET" (redirections), "fread:",
 * "fwrite:", "fdelete:", "ftree:", "tdelete:" (files the table of
 * programs says a command opens; "mread:" an operand that may be one, "~"
 * after a word the shell still expands), "opaque:TEXT", each followed by
 * "!" when the part is at best ask. Also the command matchers.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/shell.h"
#include "core/shell_table.h"

struct collect {
	char buf[8192];
	size_t n;
	size_t nparts;
	char reasons[2048];
};

static int collect_part(void *ctx, const struct lf_shell_part *p)
{
	struct collect *c = ctx;
	char text[256];
	const char *kind = "cmd";

	if (p->kind == LF_PART_FILE && p->conf)
		return 0; /* a program's own configuration: see test_bash */
	lf_shell_part_format(p, text, sizeof(text));
	if (p->kind == LF_PART_COMMAND) {
		kind = p->open_args ? "cmd+" : "cmd";
		/* a redirection's part text starts with its operator */
	} else if (p->kind == LF_PART_REDIRECT) {
		kind = p->cap == LF_CAP_READ ? "read" : "write";
		snprintf(text, sizeof(text), "%s", p->target->text);
	} else if (p->kind == LF_PART_FILE) {
		/* "fread", "fwrite", "fdelete"; "m" for a maybe-file, "t" for a
		 * tree the program writes below; "~" after a word the shell
		 * still expands */
		kind = p->cap == LF_CAP_READ	? (p->sure ? "fread" : "mread")
		       : p->cap == LF_CAP_WRITE ? (p->tree ? "ftree" : "fwrite")
						: (p->tree ? "tdelete" : "fdelete");
		snprintf(text, sizeof(text), "%s%s", p->target->text,
			 (p->target->flags & LF_WORD_NOT_LITERAL) ? "~" : "");
	} else if (p->kind == LF_PART_CWD) {
		/* "in:DIR" … "out:" around the parts that run after cd DIR && */
		kind = p->push ? "in" : "out";
		snprintf(text, sizeof(text), "%s", p->push ? p->target->text : "");
	} else {
		kind = "opaque";
	}
	if (c->n < sizeof(c->buf) - 1) {
		int w = snprintf(c->buf + c->n, sizeof(c->buf) - c->n, "%s%s:%s%s",
				 c->nparts ? " | " : "", kind, text, p->reason ? "!" : "");
		c->n += (size_t)w;
		if (c->n > sizeof(c->buf) - 1)
			c->n = sizeof(c->buf) - 1;
	}
	if (p->reason) {
		size_t rl = strlen(c->reasons);
		snprintf(c->reasons + rl, sizeof(c->reasons) - rl, "%s;", p->reason);
	}
	c->nparts++;
	return 0;
}

static void analyse(const char *line, struct collect *c)
{
	memset(c, 0, sizeof(*c));
	assert_int_equal(lf_shell_analyse(line, strlen(line), collect_part, c), 0);
}

static const struct {
	const char *line;
	const char *parts;
} cases[] = {
	/* words, quotes, escapes; a carriage return is a word character */
	{ "ls -la", "cmd:ls -la" },
	{ "  ls\t-la  ", "cmd:ls -la" },
	{ "echo 'a b' \"c d\" e f", "cmd:echo a b c d e f" },
	{ "echo 'it'\\''s'", "cmd:echo it's" },
	{ "echo \"a \"q\" $x \\ \n\"", "cmd:echo a q $x \\  " },
	{ "echo a\\\nb", "cmd:echo ab" },
	{ "ls \\\n  -la", "cmd:ls -la" },
	{ "'r''m' x", "cmd:rm x | fdelete:x" },
	{ "echo ''", "cmd:echo " },
	{ "echo $HOME ${X}", "cmd:echo $HOME ${X}" },
	/* operators split commands */
	{ "a;b", "cmd:a | cmd:b" },
	{ "a && b || c", "cmd:a | cmd:b | cmd:c" },
	{ "a | b |& c", "cmd:a | cmd:b | cmd:c" },
	{ "a & b", "cmd:a | cmd:b" },
	{ "a\nb\n\nc", "cmd:a | cmd:b | cmd:c" },
	{ "(a; b) && { c; }", "cmd:a | cmd:b | cmd:c" },
	{ "a&&b", "cmd:a | cmd:b" },
	{ "awk 'x && y' f", "cmd:awk x && y f | fread:f" },
	{ "echo \"a; b | c\"", "cmd:echo a; b | c" },
	{ "echo a;b", "cmd:echo a | cmd:b" },
	/* comments */
	{ "ls # rm -rf /", "cmd:ls" },
	{ "# only a comment", "" },
	{ "ls #c\nrm x", "cmd:ls | cmd:rm x | fdelete:x" },
	{ "echo a#b", "cmd:echo a#b" },
	{ "", "" },
	{ " \n\t\n", "" },
	/* assignments: before a command only harmless variables leave it allowed */
	{ "X=1 Y='a b' make all", "cmd:make all!" },
	{ "LC_ALL=C TZ=UTC make all", "cmd:make all" },
	{ "X=1", "" },
	{ "make X=1", "cmd:make X=1!" },
	{ "'X=1' make", "cmd:X=1 make | mread:make" },
	/* redirections */
	{ "echo x > out", "write:out | cmd:echo x" },
	{ "echo x>>out", "write:out | cmd:echo x" },
	{ "echo x >| out 2> err &> all &>> all2",
	  "write:out | write:err | write:all | write:all2 | cmd:echo x" },
	{ "cmd 2>&1 >&2 <&0 3>&-", "cmd:cmd" },
	{ "cmd >& file", "write:file | cmd:cmd" },
	{ "cat < in", "read:in | cmd:cat" },
	{ "cat <> rw", "read:rw | write:rw | cmd:cat" },
	{ "echo x > $F", "write:$F! | cmd:echo x" },
	{ "echo x > ~/f", "write:~/f! | cmd:echo x" },
	/* an argument that looks like an assignment: bash expands its tilde
	 * (unknown here: no home given); not in --name=~ nor after braces */
	{ "dd of=~/x", "cmd:dd of=~/x | fwrite:~/x~" },
	{ "dd of=a:~/x", "cmd:dd of=a:~/x | fwrite:a:~/x~" },
	{ "dd 'of=~/x'", "cmd:dd of=~/x | fwrite:~/x" },
	{ "sort --output=~/x a", "cmd:sort --output=~/x a | fwrite:~/x | fread:a" },
	{ "dd {of,if}=~/x", "cmd:dd of=~/x if=~/x | fwrite:~/x | fread:~/x" },
	{ "echo x > *.txt", "write:*.txt! | cmd:echo x" },
	{ "echo x > 'a b'", "write:a b | cmd:echo x" },
	{ "> empty", "write:empty" },
	{ "echo >", "opaque:echo >!" },
	{ "cat <<< 'word'", "cmd:cat" },
	/* here-documents: the body ends where bash ends it */
	{ "cat <<EOF > out\nhello $x\nEOF\nls", "write:out | cmd:cat | cmd:ls" },
	{ "cat <<-'E'\n\tbody $(rm)\n\tE\nls", "cmd:cat | cmd:ls" },
	{ "cat <<EOF\n$(rm x)\nEOF", "cmd:rm x | fdelete:x | cmd:cat" },
	{ "cat <<EOF\nno end", "opaque:EOF! | cmd:cat" },
	{ "cat <<A <<B\na\nA\nb\nB\necho done", "cmd:cat | cmd:echo done" },
	/* substitutions: their commands are analysed; only literal arithmetic is allowed */
	{ "echo $(rm x)", "cmd:rm x | fdelete:x | cmd:echo $(rm x)!" },
	{ "echo `rm x`", "cmd:rm x | fdelete:x | cmd:echo `rm x`!" },
	{ "diff <(a) >(b)", "cmd:a | cmd:b | cmd:diff <(a) >(b)! | fread:<(a)~ | fread:>(b)~" },
	{ "echo \"$(a \"$(b)\")\"", "cmd:b | cmd:a $(b)! | mread:$(b)~ | cmd:echo $(a \"$(b)\")!" },
	{ "X=$(a) b", "cmd:a | cmd:b!" },
	{ "echo $((1+2))", "cmd:echo $((1+2))" },
	{ "echo $((x))", "cmd:echo $((x))!" },
	{ "echo ${X:-`a`}", "cmd:a | cmd:echo ${X:-`a`}!" },
	{ "echo $(a", "opaque:echo $(a!" },
	{ "((x++))", "opaque:x++!" },
	{ "echo 'open", "opaque:echo 'open!" },
	{ "echo \"open", "opaque:echo \"open!" },
	/* what cannot be analysed */
	{ "$CMD x", "cmd:$CMD x!" },
	{ "\"$CMD\" x", "cmd:$CMD x!" },
	{ "eval ls", "cmd:eval ls! | cmd:ls" },
	{ "eval \"rm x;\" ls", "cmd:eval rm x; ls! | cmd:rm x | fdelete:x | cmd:ls" },
	{ "eval $X", "cmd:eval $X! | opaque:$X!" },
	{ "r* x", "cmd:r* x!" },
	{ "echo 'a $(b)'", "cmd:echo a $(b)" },
	{ "env -i A=1 B=2 rm x", "cmd:env -i A=1 B=2 rm x! | cmd:rm x | fdelete:x" },
	/* wrappers and the programs they run */
	{ "env -u X -- rm x", "cmd:env -u X -- rm x | cmd:rm x | fdelete:x" },
	{ "env -S 'rm -f x'", "cmd:env -S rm -f x | cmd:rm -f x | fdelete:x" },
	{ "timeout -k 1 --signal=KILL 5s rm x",
	  "cmd:timeout -k 1 --signal=KILL 5s rm x | cmd:rm x | fdelete:x" },
	{ "nice -n 5 rm x", "cmd:nice -n 5 rm x | cmd:rm x | fdelete:x" },
	{ "nice -5 rm x", "cmd:nice -5 rm x | cmd:rm x | fdelete:x" },
	{ "nohup rm x", "cmd:nohup rm x | cmd:rm x | fdelete:x" },
	{ "busybox rm x", "cmd:busybox rm x | cmd:rm x | fdelete:x" },
	{ "time -p rm x", "cmd:rm x | fdelete:x" },
	{ "command -p rm x", "cmd:command -p rm x | cmd:rm x | fdelete:x" },
	{ "command -v rm", "cmd:command -v rm" },
	{ "exec -a n rm x", "cmd:exec -a n rm x | cmd:rm x | fdelete:x" },
	{ "xargs -0 -n1 -I{} rm {}", "cmd:xargs -0 -n1 -I{} rm {} | cmd+:rm {} | fdelete:{}~" },
	{ "xargs", "cmd:xargs | cmd+:echo" },
	{ "sudo -u root -E rm x", "cmd:sudo -u root -E rm x | cmd:rm x | fdelete:x" },
	{ "sudo --weird rm x", "cmd:sudo --weird rm x!" },
	{ "/usr/bin/env rm x", "cmd:/usr/bin/env rm x | cmd:rm x | fdelete:x" },
	{ "sh -c 'rm x; ls'", "cmd:sh -c rm x; ls | cmd:rm x | fdelete:x | cmd:ls" },
	{ "bash -lc \"git push\"", "cmd:bash -lc git push | cmd:git push" },
	{ "bash -c \"$X\"", "cmd:bash -c $X | opaque:$X!" },
	{ "bash script.sh", "cmd:bash script.sh | fread:script.sh" },
	{ "curl x | sh", "cmd:curl x | cmd:sh!" },
	/* where ${…} ends and what its operands expand, as bash reads them */
	{ "echo ${x:-{};rm y #}", "cmd:echo ${x:-{} | cmd:rm y | fdelete:y" },
	{ "echo \"${y:-'$(rm y)'}\"", "cmd:rm y | fdelete:y | cmd:echo ${y:-'$(rm y)'}!" },
	{ "echo \"${y:-$'$(rm y)'}\"", "cmd:rm y | fdelete:y | cmd:echo ${y:-$'$(rm y)'}!" },
	{ "cat ${y:-<(rm y)}",
	  "cmd:rm y | fdelete:y | cmd:cat ${y:-<(rm y)}! | fread:${y:-<(rm y)}~" },
	{ "cat <<E\n${x:-'$(rm y)'}\nE", "cmd:rm y | fdelete:y | cmd:cat" },
	{ "[[ x == @(\"$(rm y)\") ]]", "cmd:rm y | fdelete:y" },
	{ "$'\\x{72}m' y", "cmd:rm y | fdelete:y" },
	/* assignments bash evaluates, appends to a variable that decides */
	{ "RANDOM=1 ls", "cmd:ls!" },
	{ "read OPTIND", "cmd:read OPTIND!" },
	{ "declare PS4+=x", "cmd:declare PS4+=x!" },
	{ "declare foo+=x", "cmd:declare foo+=x" },
	/* a pattern file; a script's own arguments may be files it reads */
	{ "grep -f pats x", "cmd:grep -f pats x | fread:pats | fread:x" },
	{ "grep -e p x", "cmd:grep -e p x | fread:x" },
	{ "grep x -e p", "cmd:grep x -e p | fread:x" },
	{ "grep x y", "cmd:grep x y | fread:y" },
	{ "python3 s.py a --b", "cmd:python3 s.py a --b | fread:s.py | mread:a | mread:--b" },
	{ "bash s.sh a", "cmd:bash s.sh a | fread:s.sh | mread:a" },
	/* curl reads the files its data, forms and headers name */
	{ "curl -d @.env u", "cmd:curl -d @.env u | fread:.env" },
	{ "curl --data-binary=@a u", "cmd:curl --data-binary=@a u | fread:a" },
	{ "curl --data-urlencode n@a u", "cmd:curl --data-urlencode n@a u | fread:a" },
	{ "curl -F 'f=@a;type=x' -F 'g=<b' u",
	  "cmd:curl -F f=@a;type=x -F g=<b u | fread:a | fread:b" },
	{ "curl --json @a -H @b u", "cmd:curl --json @a -H @b u | fread:a | fread:b" },
	{ "curl -b jar -b n=v u", "cmd:curl -b jar -b n=v u | fread:jar" },
	{ "curl -d n=v -d @- --data-raw @a u", "cmd:curl -d n=v -d @- --data-raw @a u" },
	{ "bash -c", "cmd:bash -c!" },
	{ "find . -exec rm {} \\; -exec ls {} +",
	  "cmd:find . -exec rm {} ; -exec ls {} + | cmd:rm {} | fdelete:{}~ | cmd+:ls {} | "
	  "mread:{}~ | fread:." },
	{ "git -C sub -c a=b push", "cmd:git -C sub -c a=b push | cmd:git push" },
	{ "timeout 5 env LC_ALL=C nice rm x",
	  "cmd:timeout 5 env LC_ALL=C nice rm x | cmd:env LC_ALL=C nice rm x | cmd:nice rm x | "
	  "cmd:rm x | fdelete:x" },
	{ "time -o log make", "cmd:-o log make | mread:log | mread:make" },
	/* compound commands */
	{ "if a; then b; elif c; then d; else e; fi", "cmd:a | cmd:b | cmd:c | cmd:d | cmd:e" },
	{ "while a; do b; done", "cmd:a | cmd:b" },
	{ "for f in x y; do rm $f; done", "cmd:rm $f | fdelete:$f~" },
	{ "for f in $(ls); do :; done", "cmd:ls | cmd::" },
	{ "case $x in a|b) rm y;; (*) ls;; esac", "cmd:rm y | fdelete:y | cmd:ls" },
	{ "f() { rm x; }; f", "cmd:rm x | fdelete:x | cmd:f" },
	{ "function g { rm x; }", "cmd:rm x | fdelete:x" },
	{ "! a", "cmd:a" },
	{ "[[ a && b ]] && c", "cmd:c" },
	{ "[ -f x ] && ls [ab]", "cmd:[ -f x ] | cmd:ls [ab] | mread:[ab]~" },
	{ "echo (", "opaque:echo (!" },
	{ "ls\r; rm y", "cmd:ls  | cmd:rm y | fdelete:y" },
	/* the classes of lines bash reads differently from a scanner */
	{ "cat <<EOF\nx\\\nEOF\nrm y\nEOF", "cmd:cat" },
	{ "cat <<EOF\nx\\\\\nEOF\nrm y", "cmd:cat | cmd:rm y | fdelete:y" },
	{ "echo $[1<<2]\nrm y", "cmd:echo $[1<<2] | cmd:rm y | fdelete:y" },
	{ "coproc NAME { rm y; }", "cmd:rm y | fdelete:y" },
	{ "coproc rm y", "cmd:rm y | fdelete:y" },
	{ "time { rm y; }", "cmd:rm y | fdelete:y" },
	{ "${x:-$'\\''}; rm y", "cmd:${x:-$'\\''}! | cmd:rm y | fdelete:y" },
	{ "a[1<<E]=1", "opaque:a[1<<E]=1!" },
	{ "c\\\nat README", "cmd:cat README | fread:README" },
	{ "g$''rep src", "cmd:grep src" },
	{ "echo {rm,} y#", "cmd:echo rm y#" },
	/* files named by options and operands (the table of programs) */
	{ "git log --output=.git/hooks/pre-commit",
	  "cmd:git log --output=.git/hooks/pre-commit | fwrite:.git/hooks/pre-commit" },
	{ "git log --outp=x", "cmd:git log --outp=x!" },
	{ "sort -o out in", "cmd:sort -o out in | fwrite:out | fread:in" },
	{ "tee a b", "cmd:tee a b | fwrite:a | fwrite:b" },
	{ "cp a b c", "cmd:cp a b c | fread:a | fread:b | fwrite:c" },
	{ "cp -t dir a b", "cmd:cp -t dir a b | ftree:dir | fread:a | fread:b" },
	{ "mv a b", "cmd:mv a b | fdelete:a | fwrite:b" },
	{ "dd if=a of=b", "cmd:dd if=a of=b | fread:a | fwrite:b" },
	{ "sed -i s/a/b/ f", "cmd:sed -i s/a/b/ f | fwrite:f" },
	{ "sed -n 'w out' in", "cmd:sed -n w out in | fwrite:out | fread:in" },
	{ "sed 'e rm y' in", "cmd:sed e rm y in! | fread:in" },
	{ "awk '{print > \"out\"}' in", "cmd:awk {print > \"out\"} in | fwrite:out | fread:in" },
	{ "awk 'BEGIN{system(\"rm y\")}'", "cmd:awk BEGIN{system(\"rm y\")}!" },
	{ "tar -xf a.tar -C dir", "cmd:tar -xf a.tar -C dir | fread:a.tar | ftree:dir" },
	{ "find . -delete", "cmd:find . -delete | tdelete:." },
	/* expansions that evaluate code or names at run time */
	{ "git commit -m \"$(cat <<'EOF'\nmsg\nEOF\n)\"", "cmd:cat | cmd:git commit -m msg" },
	{ "echo ${!x}", "cmd:echo ${!x}!" },
	{ "echo ${x@P}", "cmd:echo ${x@P}!" },
	{ "echo ${y:x}", "cmd:echo ${y:x}!" },
	{ "echo ${a[1]} ${a[i]}", "cmd:echo ${a[1]} ${a[i]}!" },
	{ "MAKEFLAGS=x make test", "cmd:make test!" },
	{ "make test CFLAGS='$(shell rm y)'", "cmd:make test CFLAGS=$(shell rm y)!" },
	{ "git -c alias.x='!rm y' x", "cmd:git -c alias.x=!rm y x! | cmd:git x" },
	/* words bash runs differently from how they were once read */
	{ "sed --expr='1e rm y' f", "cmd:sed --expr=1e rm y f! | fread:f" },
	{ "sed --fi - f", "cmd:sed --fi - f! | fread:f" },
	{ "tar -cf a.tar --checkpoint-act=exec='rm y' f",
	  "cmd:tar -cf a.tar --checkpoint-act=exec=rm y f | cmd:rm y | fdelete:y | fread:f | "
	  "fwrite:a.tar" },
	{ "tar -cf a.tar --checkpoint-action \"$x\" f",
	  "cmd:tar -cf a.tar --checkpoint-action $x f! | fread:f | fwrite:a.tar" },
	{ "tar -c --gz -f a.tar f",
	  "cmd:tar -c --gz -f a.tar f | fread:f | fwrite:a.tar | cmd:sh -c gzip | cmd:gzip" },
	{ "xargs --repla=ls sh -c ls",
	  "cmd:xargs --repla=ls sh -c ls | cmd+:sh -c ls | opaque:ls!" },
	{ "xargs -0I ls sh -c ls", "cmd:xargs -0I ls sh -c ls | cmd+:sh -c ls | opaque:ls!" },
	{ "xargs -d x -I ls sh -c ls",
	  "cmd:xargs -d x -I ls sh -c ls | cmd+:sh -c ls | opaque:ls!" },
	{ "awk --sou 'BEGIN{system(\"rm y\")}'", "cmd:awk --sou BEGIN{system(\"rm y\")}!" },
	{ "git config --ed", "cmd:git config --ed!" },
	{ "git config edit", "cmd:git config edit!" },
	{ "git reset --ha HEAD", "cmd:git reset --ha HEAD | mread:HEAD | ftree:." },
	{ "git restore --staged --work f", "cmd:git restore --staged --work f | fwrite:f" },
	{ "sudo --ed f", "cmd:sudo --ed f | fwrite:f" },
	{ "sort --outp=x f", "cmd:sort --outp=x f | fwrite:x | fread:f" },
	{ "xargs --process-slot-var=PATH ls", "cmd:xargs --process-slot-var=PATH ls! | cmd+:ls "
					      "${standard input} | mread:${standard input}~" },
	{ "strace -E LD_PRELOAD=x ls", "cmd:strace -E LD_PRELOAD=x ls! | cmd:ls" },
	{ "strace --env=LD_PRELOAD=x ls", "cmd:strace --env=LD_PRELOAD=x ls! | cmd:ls" },
	{ "make test CC='rm y; true'", "cmd:make test CC=rm y; true!" },
	{ "make test CC:=rm", "cmd:make test CC:=rm!" },
	{ "make -e test", "cmd:make -e test!" },
	{ "make --environment-overrides test", "cmd:make --environment-overrides test!" },
	{ "ln -st src ../.git/hooks",
	  "cmd:ln -st src ../.git/hooks | ftree:src | fwrite:src/hooks" },
	{ "ln -s --target-directory=src ../a b/c",
	  "cmd:ln -s --target-directory=src ../a b/c | ftree:src | fwrite:src/a | fwrite:src/c" },
	{ "find src -execdir touch f \\;",
	  "cmd:find src -execdir touch f ;! | cmd:touch f | fwrite:f | fread:src" },
	{ "find src -okdir cat f \\;",
	  "cmd:find src -okdir cat f ;! | cmd:cat f | fread:f | fread:src" },
	{ "find src -execdir sh -c 'echo x > y' \\;",
	  "cmd:find src -execdir sh -c echo x > y ;! | cmd:sh -c echo x > y | write:y | cmd:echo x "
	  "| fread:src" },
	{ "find src -execdir grep x {} +",
	  "cmd:find src -execdir grep x {} + | cmd+:grep x {} | fread:{}~ | fread:src" },
	{ "/proc/self/exe -c 'rm y'", "cmd:/proc/self/exe -c rm y! | mread:rm y" },
	{ "/proc/1/exe x", "cmd:/proc/1/exe x! | mread:x" },
	{ "/dev/fd/3 x", "cmd:/dev/fd/3 x! | mread:x" },
	{ "/proc/self/fd/3", "cmd:/proc/self/fd/3!" },
	{ "/dev/stdin", "cmd:/dev/stdin!" },
	{ "git commit --fixup=amend:HEAD", "cmd:git commit --fixup=amend:HEAD!" },
	{ "git commit --fixup reword:HEAD", "cmd:git commit --fixup reword:HEAD!" },
	{ "git commit --fixup=HEAD", "cmd:git commit --fixup=HEAD" },
	{ "git tag -a v1", "cmd:git tag -a v1!" },
	{ "git tag -s v1", "cmd:git tag -s v1!" },
	{ "git tag -a v1 -m x", "cmd:git tag -a v1 -m x" },
	{ "git tag v1", "cmd:git tag v1" },
};

static void test_parts_table(void **state)
{
	struct collect c;
	int bad = 0;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		analyse(cases[i].line, &c);
		if (strcmp(c.buf, cases[i].parts) != 0) {
			print_error("line %zu [%s]\n  got      [%s]\n  expected [%s]\n", i,
				    cases[i].line, c.buf, cases[i].parts);
			bad++;
		}
	}
	assert_int_equal(bad, 0);
}

static void test_reasons(void **state)
{
	static const struct {
		const char *line, *reason;
	} r[] = {
		{ "echo $(x)", "command substitution" },
		{ "echo `x`", "backquotes" },
		{ "cat <(x)", "process substitution" },
		{ "echo {Z..a}'$(x)'", "brace sequence" },
		{ "echo 'x", "unterminated single quote" },
		{ "echo \"x", "unterminated double quote" },
		{ "echo `x", "unterminated backquote" },
		{ "eval x", "eval" },
		{ "$X", "command name is not a literal" },
		{ "sh -c \"$X\"", "not a literal" },
		{ "cat <<E\nx", "unterminated here-document" },
		{ "echo > $X", "not a literal" },
		{ "echo $((x))", "arithmetic" },
		{ "echo $[x]", "arithmetic" },
		{ "echo ${!x}", "indirect" },
		{ "echo ${x@P}", "transformation" },
		{ "echo ${x:y}", "offset" },
		{ "echo ${a[i]}", "subscript" },
		{ "MAKEFLAGS=x make", "decides what the command runs" },
		{ "X=1 ls", "not known to be harmless" },
		{ "PATH=/x", "later commands" },
		{ "git -c alias.p=push p", "git -c" },
		{ "awk 'BEGIN{system(\"x\")}'", "awk runs a command" },
		{ "sed 'e x' f", "sed runs a command" },
		{ "echo (", "syntax error" },
		{ "[[ $x -eq 1 ]]", "arithmetic comparison" },
		{ "printf -v 'a[$x]' y", "subscript" },
	};
	struct collect c;

	for (size_t i = 0; i < sizeof(r) / sizeof(r[0]); i++) {
		analyse(r[i].line, &c);
		if (!strstr(c.reasons, r[i].reason))
			fail_msg("[%s]: reasons [%s] lack [%s]", r[i].line, c.reasons, r[i].reason);
	}
}

/* Nesting beyond the limits is reported, never followed without bound. */
static void test_depth_limits(void **state)
{
	struct collect c;
	char line[4096] = "";

	for (int i = 0; i < 20; i++)
		strcat(line, "sh -c '");
	analyse("sh -c \"sh -c 'sh -c \\\"rm x\\\"'\"", &c);
	assert_non_null(strstr(c.buf, "cmd:rm x"));

	/* 200 nested "$(" */
	line[0] = '\0';
	for (int i = 0; i < 200; i++)
		strcat(line, "\"$(");
	analyse(line, &c);
	assert_true(c.nparts > 0);
	assert_non_null(strstr(c.buf, "!"));

	/* a long chain of wrappers */
	line[0] = '\0';
	for (int i = 0; i < 300; i++)
		strcat(line, "nice ");
	strcat(line, "rm x");
	analyse(line, &c);
	assert_non_null(strstr(c.reasons, "nested too deeply"));
}

static int stop_after_first(void *ctx, const struct lf_shell_part *p)
{
	(*(int *)ctx)++;
	return 7;
}

static void test_callback_stops(void **state)
{
	int n = 0;
	assert_int_equal(lf_shell_analyse("a; b; c", 7, stop_after_first, &n), 7);
	assert_int_equal(n, 1);
	assert_int_equal(lf_shell_analyse(NULL, 0, stop_after_first, &n), -EINVAL);
}

static void test_long_line(void **state)
{
	size_t n = 100 * 1024;
	char *line = malloc(n + 1);
	struct collect c;
	assert_non_null(line);
	for (size_t i = 0; i < n; i++)
		line[i] = i % 2 ? ' ' : 'a';
	/* echo: its operands are no files, so one part */
	memcpy(line, "echo ", 5);
	line[n] = '\0';
	memset(&c, 0, sizeof(c));
	assert_int_equal(lf_shell_analyse(line, n, collect_part, &c), 0);
	assert_int_equal(c.nparts, 1);
	/* the shown part is truncated, never overflowing */
	assert_true(strlen(c.buf) < 300);

	/* 100 KB of "a;" gives one part per command */
	for (size_t i = 0; i + 1 < n; i += 2) {
		line[i] = 'a';
		line[i + 1] = ';';
	}
	memset(&c, 0, sizeof(c));
	assert_int_equal(lf_shell_analyse(line, n, collect_part, &c), 0);
	assert_int_equal(c.nparts, n / 2);
	free(line);
}

static void test_format_truncates(void **state)
{
	struct lf_shell_word w[2] = { { "echo", 4, 0 }, { "0123456789abcdef", 16, 0 } };
	struct lf_shell_part p = { .kind = LF_PART_COMMAND, .argv = w, .argc = 2 };
	char buf[12];

	lf_shell_part_format(&p, buf, sizeof(buf));
	assert_string_equal(buf, "echo 012\xe2\x80\xa6");
	lf_shell_part_format(&p, buf, 3);
	assert_string_equal(buf, "");
}

static struct lf_cmd_rule rule(enum lf_matcher m, const char *text, enum lf_effect eff)
{
	struct lf_cmd_rule c = { 0 };
	struct lf_diag d;
	struct lf_source src = { "t", 1, 1 };
	assert_int_equal(lf_cmd_rule_init(&c, m, text, eff, src, &d), 0);
	return c;
}

/* Matches rule text against a command given as words separated by ' '. */
static bool match(enum lf_matcher m, const char *rtext, enum lf_effect eff, const char *cmd,
		  bool open)
{
	struct lf_cmd_rule c = rule(m, rtext, eff);
	struct lf_shell_word w[16];
	char copy[256], *save = NULL;
	size_t n = 0;

	snprintf(copy, sizeof(copy), "%s", cmd);
	for (char *t = strtok_r(copy, " ", &save); t; t = strtok_r(NULL, " ", &save))
		w[n++] = (struct lf_shell_word){ t, strlen(t), 0 };
	struct lf_cmd_view v = {
		.argv = w,
		.argc = n,
		.prog = n ? w[0].text : "",
		.text = cmd,
		.len = strlen(cmd),
		.open_args = open,
	};
	bool r = lf_cmd_rule_match(&c, &v);
	lf_cmd_rule_fini(&c);
	return r;
}

static void test_matchers(void **state)
{
	/* prefix is token-wise */
	assert_true(match(LF_MATCH_PREFIX, "git commit", LF_ALLOW, "git commit -m x", false));
	assert_true(match(LF_MATCH_PREFIX, "git commit", LF_ALLOW, "git commit", false));
	assert_false(match(LF_MATCH_PREFIX, "git commit", LF_ALLOW, "git commitx", false));
	assert_false(match(LF_MATCH_PREFIX, "git commit", LF_ALLOW, "git", false));
	assert_true(match(LF_MATCH_PREFIX, "  git   commit ", LF_DENY, "git commit", false));
	/* exact is the whole token list */
	assert_true(match(LF_MATCH_EXACT, "make test", LF_ALLOW, "make test", false));
	assert_false(match(LF_MATCH_EXACT, "make test", LF_ALLOW, "make test x", false));
	assert_false(match(LF_MATCH_EXACT, "make test", LF_ALLOW, "make", false));
	/* glob: '*' crosses spaces and '/' */
	assert_true(match(LF_MATCH_GLOB, "npm run *", LF_ASK, "npm run build --x=/a", false));
	assert_false(match(LF_MATCH_GLOB, "npm run *", LF_ASK, "npm run", false));
	assert_true(match(LF_MATCH_GLOB, "*rm*", LF_DENY, "/bin/rm -rf /", false));
	assert_true(match(LF_MATCH_GLOB, "git [cp]*", LF_DENY, "git push", false));
	assert_false(match(LF_MATCH_GLOB, "git [!cp]*", LF_DENY, "git push", false));
	assert_true(match(LF_MATCH_GLOB, "l?", LF_ALLOW, "ls", false));
	assert_false(match(LF_MATCH_GLOB, "l?", LF_ALLOW, "lsx", false));
	assert_true(match(LF_MATCH_GLOB, "a\\*", LF_ALLOW, "a*", false));
	assert_false(match(LF_MATCH_GLOB, "a\\*", LF_ALLOW, "ab", false));
	assert_true(match(LF_MATCH_GLOB, "echo  *", LF_ALLOW, "echo x", false));
	assert_true(match(LF_MATCH_GLOB, "[a-c]at x", LF_ALLOW, "bat x", false));
	/* open argument lists (xargs): deny when it could match, allow only
	 * when every completion matches */
	assert_true(match(LF_MATCH_PREFIX, "rm -rf", LF_DENY, "rm", true));
	assert_false(match(LF_MATCH_PREFIX, "rm -rf", LF_ALLOW, "rm", true));
	assert_true(match(LF_MATCH_PREFIX, "rm", LF_ALLOW, "rm", true));
	assert_true(match(LF_MATCH_EXACT, "ls -l", LF_DENY, "ls", true));
	assert_false(match(LF_MATCH_EXACT, "ls", LF_ALLOW, "ls", true));
	assert_true(match(LF_MATCH_GLOB, "rm *", LF_ALLOW, "rm", true));
	assert_false(match(LF_MATCH_GLOB, "rm *.o", LF_ALLOW, "rm", true));
	assert_true(match(LF_MATCH_GLOB, "rm *.o", LF_DENY, "rm", true));
	assert_true(match(LF_MATCH_GLOB, "*", LF_ALLOW, "anything", true));
	/* glob matching stays linear on hostile patterns */
	char text[4096];
	memset(text, 'a', sizeof(text) - 1);
	text[sizeof(text) - 1] = '\0';
	assert_false(lf_cmd_glob_match("*a*a*a*a*a*a*a*a*a*b", text, strlen(text), false));
}

/* The table of programs is searched by bisection: it must stay sorted. */
static void test_table_sorted(void **state)
{
	assert_true(sh_table_sorted());
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parts_table),  cmocka_unit_test(test_reasons),
		cmocka_unit_test(test_depth_limits), cmocka_unit_test(test_callback_stops),
		cmocka_unit_test(test_long_line),    cmocka_unit_test(test_format_truncates),
		cmocka_unit_test(test_matchers),     cmocka_unit_test(test_table_sorted),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
