/* SPDX-License-Identifier: MIT */
/*
 * Bash requests (SPEC §1) end to end in the library: a policy file parsed
 * by lf_policy_parse, command lines decided by lf_decide_bash, verdicts
 * and the deciding rule (layer, file, line) checked against a table.
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

#include "core/model.h"
#include "core/shell.h"
#include "landfence.h"

#define ROOT "/work/proj"

/* One rule per line: the table names rules by their line. */
static const char policy_text[] =
	"{\n"										  /* 1 */
	"  \"version\": 1,\n"								  /* 2 */
	"  \"fallback\": \"ask\",\n"							  /* 3 */
	"  \"rules\": [\n"								  /* 4 */
	"    { \"effect\": \"allow\", \"capability\": \"read\", \"paths\": [\"**\"] },\n" /* 5 */
	"    { \"effect\": \"deny\", \"capability\": \"read\", \"paths\": [\".env\", "
	"\"secrets/**\"] },\n" /* 6 */
	"    { \"effect\": \"allow\", \"capability\": \"write\", \"paths\": [\"src/**\", "
	"\"sub/**\", \"out\"] },\n" /* 7 */
	"    { \"effect\": \"deny\", \"capability\": \"write\", \"paths\": [\".env\", \".git/**\", "
	"\"sub/secret\"] },\n"							 /* 8 */
	"    { \"effect\": \"ask\", \"capability\": \"bash\", \"commands\": [\n" /* 9 */
	"        { \"effect\": \"deny\", \"prefix\": \"rm\" },\n"		 /* 10 */
	"        { \"effect\": \"deny\", \"prefix\": \"git push\" },\n"		 /* 11 */
	"        { \"effect\": \"allow\", \"prefix\": \"git commit\" },\n"	 /* 12 */
	"        { \"effect\": \"allow\", \"prefix\": \"git status\" },\n"	 /* 13 */
	"        { \"effect\": \"ask\", \"glob\": \"npm run *\" },\n"		 /* 14 */
	"        { \"effect\": \"allow\", \"exact\": \"npm test\" },\n"		 /* 15 */
	"        { \"effect\": \"allow\", \"prefix\": \"ls\" },\n"		 /* 16 */
	"        { \"effect\": \"allow\", \"prefix\": \"echo\" },\n"		 /* 17 */
	"        { \"effect\": \"allow\", \"prefix\": \"cat\" },\n"		 /* 18 */
	"        { \"effect\": \"allow\", \"prefix\": \"awk\" },\n"		 /* 19 */
	"        { \"effect\": \"allow\", \"prefix\": \"sort\" },\n"		 /* 20 */
	"        { \"effect\": \"allow\", \"prefix\": \"make\" },\n"		 /* 21 */
	"        { \"effect\": \"allow\", \"prefix\": \"env\" },\n"		 /* 22 */
	"        { \"effect\": \"allow\", \"prefix\": \"timeout\" },\n"		 /* 23 */
	"        { \"effect\": \"allow\", \"prefix\": \"nice\" },\n"		 /* 24 */
	"        { \"effect\": \"allow\", \"prefix\": \"nohup\" },\n"		 /* 25 */
	"        { \"effect\": \"allow\", \"prefix\": \"xargs\" },\n"		 /* 26 */
	"        { \"effect\": \"allow\", \"prefix\": \"find\" },\n"		 /* 27 */
	"        { \"effect\": \"allow\", \"prefix\": \"sh -c\" },\n"		 /* 28 */
	"        { \"effect\": \"allow\", \"prefix\": \"bash -c\" },\n"		 /* 29 */
	"        { \"effect\": \"allow\", \"prefix\": \"cd\" },\n"		 /* 30 */
	"        { \"effect\": \"allow\", \"glob\": \"git -C *\" },\n"		 /* 31 */
	"        { \"effect\": \"deny\", \"glob\": \"* --force*\" }\n"		 /* 32 */
	"    ] }\n"								 /* 33 */
	"  ]\n"									 /* 34 */
	"}\n";

static struct lf_policy *policy;
static struct lf_effective *eff;

static int setup(void **state)
{
	struct lf_diag d = { 0 };
	if (lf_policy_parse(policy_text, strlen(policy_text), "test.json", LF_LAYER_PROJECT,
			    &policy, &d) != 0) {
		char msg[1200];
		lf_diag_format(&d, msg, sizeof(msg));
		print_error("%s\n", msg);
		return -1;
	}
	const struct lf_policy *layers[] = { policy };
	return lf_effective_resolve(layers, 1, &eff) == 0 ? 0 : -1;
}

static int teardown(void **state)
{
	lf_effective_free(eff);
	lf_policy_free(policy);
	return 0;
}

#define A LF_ALLOW
#define Q LF_ASK
#define D LF_DENY

/* line: the deciding rule's line in policy_text; 0 = no rule (the reason
 * or the fallback decided); -1 = not checked. part: a substring of the
 * deciding part, or NULL. */
static const struct {
	const char *line;
	enum lf_effect effect;
	int rule_line;
	const char *part;
} table[] = {
	/* chaining after an allowed prefix */
	{ "ls", A, 16, "ls" },
	{ "ls && rm -rf x", D, 10, "rm -rf x" },
	{ "ls || rm x", D, 10, "rm x" },
	{ "ls; rm x", D, 10, "rm x" },
	{ "ls | rm x", D, 10, "rm x" },
	{ "ls & rm x", D, 10, "rm x" },
	{ "ls |& rm x", D, 10, "rm x" },
	{ "ls\nrm x", D, 10, "rm x" },
	{ "ls\n\n\nrm x", D, 10, "rm x" },
	{ "ls;rm x", D, 10, "rm x" },
	{ "ls&&rm x", D, 10, "rm x" },
	{ "(ls; rm x)", D, 10, "rm x" },
	{ "{ ls; rm x; }", D, 10, "rm x" },
	{ "git status && git push origin", D, 11, "git push origin" },
	{ "git commit -m x && git push", D, 11, "git push" },
	{ "ls && echo ok", A, 16, "ls" },
	{ "ls | sort | cat", A, 16, "ls" },
	{ "ls && frobnicate", Q, 9, "frobnicate" },
	/* quoted operators are not operators */
	{ "awk 'a && b' file", A, 19, NULL },
	{ "echo 'a; rm x'", A, 17, NULL },
	{ "echo \"a | rm x\"", A, 17, NULL },
	{ "echo a\\;rm x", A, 17, NULL },
	{ "echo '&&' '||' ';' '|' '&'", A, 17, NULL },
	{ "awk '{print $1}' f | sort", A, 19, NULL },
	{ "echo \"rm -rf / && git push\"", A, 17, NULL },
	/* wrappers around a denied command */
	{ "env X=1 rm -rf x", D, 10, "rm -rf x" },
	{ "env -i PATH=/bin rm x", D, 10, "rm x" },
	{ "timeout 5 rm x", D, 10, "rm x" },
	{ "timeout -s KILL 5 rm x", D, 10, "rm x" },
	{ "nice rm x", D, 10, "rm x" },
	{ "nice -n 5 rm x", D, 10, "rm x" },
	{ "nohup rm x &", D, 10, "rm x" },
	{ "time rm x", D, 10, "rm x" },
	{ "command rm x", D, 10, "rm x" },
	{ "exec rm x", D, 10, "rm x" },
	{ "sudo rm x", D, 10, "rm x" },
	{ "sudo -u root rm x", D, 10, "rm x" },
	{ "xargs rm", D, 10, "rm" },
	{ "find . -name '*.o' -print0 | xargs -0 rm -f", D, 10, "rm -f" },
	{ "sh -c 'rm -rf x'", D, 10, "rm -rf x" },
	{ "bash -c \"git push origin main\"", D, 11, "git push" },
	{ "bash -lc 'ls; rm x'", D, 10, "rm x" },
	{ "sh -c \"sh -c 'rm x'\"", D, 10, "rm x" },
	{ "env X=1 timeout 5 nice nohup rm x", D, 10, "rm x" },
	{ "find . -exec rm {} \\;", D, 10, "rm {}" },
	{ "git -C . push", D, 11, "git push" },
	{ "timeout 5 ls", A, 23, NULL },
	/* an assignment in the environment of a command: only harmless
	 * variables (locale, time zone, colour) leave it allowed */
	{ "env X=1 ls", Q, 0, NULL },
	{ "env LC_ALL=C TZ=UTC ls", A, 22, NULL },
	{ "bash -c 'ls'", A, 29, NULL },
	{ "xargs -I{} ls {}", Q, 32, "ls {}" },
	{ "xargs -0 git push", D, 11, NULL },
	{ "sh -c \"$CMD\"", Q, 32, "sh -c $CMD" }, /* $CMD could be --force */
	{ "echo rm | sh", Q, -1, "sh" },
	/* absolute or disguised paths to the denied program */
	{ "/bin/rm -rf x", D, 10, "/bin/rm -rf x" },
	{ "/usr/bin/git push", D, 11, NULL },
	{ "./rm x", D, 10, NULL },
	{ "'/bin/rm' x", D, 10, NULL },
	{ "r\\m x", D, 10, NULL },
	{ "\"rm\" x", D, 10, NULL },
	{ "/usr/bin/env /bin/rm x", D, 10, NULL },
	/* redirections into denied files */
	{ "echo x > .env", D, 8, "> .env" },
	{ "cat a >> .git/config", D, 8, ">> .git/config" },
	{ "echo x >.env", D, 8, NULL },
	{ "echo x>.env", D, 8, NULL },
	{ "echo x 1> .env", D, 8, NULL },
	{ "echo x &> .env", D, 8, NULL },
	{ "echo x >| .env", D, 8, NULL },
	{ "echo x > ./sub/../.env", D, 8, NULL },
	{ "echo x > /work/proj/.env", D, 8, NULL },
	{ "echo x >> .git/hooks/pre-commit", D, 8, NULL },
	{ "cat < .env", D, 6, "< .env" },
	{ "cat <<EOF > .env\nx\nEOF", D, 8, NULL },
	{ "echo x > src/a.c", A, 7, NULL },
	{ "echo x > /dev/null", A, 17, NULL },
	{ "ls 2>/dev/null", A, 16, NULL },
	{ "ls 2>&1 >&2", A, 16, NULL },
	{ "echo x > README", Q, 0, "> README" },
	{ "echo x > /tmp/outside", Q, 0, NULL },
	{ "echo x > $F", Q, 0, NULL },
	{ "echo x > ~/.bashrc", Q, 0, NULL },
	{ "cd sub && echo x > secret", D, 8, "> secret" },
	/* after cd DIR &&, the line is in DIR; after cd DIR; it may not be */
	{ "cd sub && echo x > ok", A, -1, NULL },
	{ "cd sub; echo x > ok", Q, 0, NULL },
	{ "cd sub && echo x > ok; echo x > ok", Q, 0, NULL },
	{ "(cd sub && echo x > ok) && echo x > ok", Q, 0, NULL },
	{ "cd /work/proj/sub && echo x > secret", D, 8, NULL },
	{ "cd $D && echo x > ok", Q, 32, "cd $D" }, /* likewise $D */
	/* arguments that name denied files */
	{ "cat .env", D, 6, "cat .env" },
	{ "ls && cat ./.env", D, 6, NULL },
	{ "ls x && cat .env", D, 6, NULL },
	{ "cat a; cat .env", D, 6, NULL },
	{ "awk 1 secrets/key", D, 6, NULL },
	{ "echo x | tee .git/config", D, 8, NULL },
	{ "cat src/a.c", A, 18, NULL },
	{ "cat -n README", A, 18, NULL },
	/* substitutions */
	{ "echo $(ls)", Q, 0, "echo $(ls)" },
	{ "echo `ls`", Q, 0, NULL },
	{ "cat <(ls)", Q, 0, NULL },
	{ "echo $(rm -rf x)", D, 10, "rm -rf x" },
	{ "ls `git push`", D, 11, "git push" },
	{ "cat <(rm x)", D, 10, NULL },
	{ "echo \"$(cat .env)\"", D, 6, "cat .env" },
	{ "echo \"$(cat README)\"", Q, 0, NULL },
	{ "X=$(id) ls", Q, -1, NULL },
	/* the default of ${X:-…} is parsed: a denied command in it decides */
	{ "echo ${X:-$(rm x)}", D, 10, "rm x" },
	{ "echo ${X:-$(ls)}", Q, 0, NULL },
	/* quoted text is data: only a program that runs it makes it code */
	{ "echo 'a $(b)'", A, 17, NULL },
	{ "$CMD", Q, 0, NULL },
	{ "eval ls", Q, 0, NULL },
	{ "eval rm x", D, 10, NULL },
	{ "echo 'unterminated", Q, 0, NULL },
	{ "echo \"unterminated", Q, 0, NULL },
	/* an unquoted here-document body is expanded: its substitutions run */
	{ "cat <<EOF\n$(rm x)\nEOF", D, 10, "rm x" },
	{ "cat <<'EOF'\n$(rm x)\nEOF", A, 18, NULL },
	/* a message from a quoted here-document is known text */
	{ "git commit -m \"$(cat <<'EOF'\nmsg\nEOF\n)\"", A, -1, NULL },
	{ "git commit -m \"$(cat <<EOF\n$x\nEOF\n)\"", Q, 0, NULL },
	/* git commit vs git commitx; exact, prefix and glob */
	/* without a message git commit starts an editor, a program the line
	 * does not name */
	{ "git commit", Q, 0, NULL },
	{ "git commit -m msg", A, 12, NULL },
	{ "git commit -m 'x y'", A, 12, NULL },
	/* not a git subcommand: git runs an alias or a git-* program */
	{ "git commitx", Q, 0, NULL },
	{ "git", Q, 9, NULL },
	{ "git push", D, 11, NULL },
	{ "git pushx", Q, 0, NULL },
	{ "npm test", A, 15, NULL },
	{ "npm test --watch", Q, 9, NULL },
	{ "npm run build", Q, 14, NULL },
	{ "npm run", Q, 9, NULL },
	{ "git commit --force-with-lease", D, 32, NULL },
	/* leading assignments */
	{ "X=1 rm x", D, 10, "rm x" },
	{ "X=1 Y='a b' ls", Q, 0, "ls" },
	{ "LANG=C LC_ALL=C ls", A, 16, "ls" },
	{ "FOO=bar /bin/rm x", D, 10, NULL },
	{ "A=1 B=2", Q, 9, NULL },
	/* comments */
	{ "ls # && rm x", A, 16, NULL },
	{ "# rm x", Q, 9, NULL },
	{ "ls #c\nrm x", D, 10, NULL },
	{ "echo a#b", A, 17, NULL },
	/* empty lines */
	{ "", Q, 9, NULL },
	{ "   ", Q, 9, NULL },
	{ "\n\n", Q, 9, NULL },
	{ "\n\nls\n\n", A, 16, NULL },
	{ "ls \\\n -la", A, 16, NULL },
	/* compound commands */
	{ "if ls; then rm x; fi", D, 10, NULL },
	{ "for f in a b; do rm $f; done", D, 10, NULL },
	{ "case x in a) rm y;; esac", D, 10, NULL },
	{ "f() { rm x; }", D, 10, NULL },
	{ "while ls; do echo; done", A, 16, NULL },
};

static void test_table(void **state)
{
	int bad = 0;

	assert_true(sizeof(table) / sizeof(table[0]) >= 80);
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		struct lf_verdict v;
		int r = lf_effective_decide_bash(eff, ROOT, table[i].line, &v);
		bool ok = r == 0 && v.effect == table[i].effect;
		if (ok && table[i].rule_line > 0)
			ok = !v.from_fallback && v.source.line == (unsigned)table[i].rule_line &&
			     v.source.file && !strcmp(v.source.file, "test.json") &&
			     v.layer == LF_LAYER_PROJECT;
		if (ok && table[i].rule_line == 0)
			ok = v.source.line == 0 && (v.from_fallback || v.reason[0]);
		if (ok && table[i].part)
			ok = strstr(v.part, table[i].part) != NULL;
		if (!ok) {
			print_error("[%s]: r=%d %s (line %u, fallback %d) part [%s] reason [%s]; "
				    "expected %s line %d part [%s]\n",
				    table[i].line, r, lf_effect_name(v.effect), v.source.line,
				    v.from_fallback, v.part, v.reason,
				    lf_effect_name(table[i].effect), table[i].rule_line,
				    table[i].part ? table[i].part : "");
			bad++;
		}
	}
	assert_int_equal(bad, 0);
}

/* What could not be analysed says why. */
static void test_reason(void **state)
{
	struct lf_verdict v;

	assert_int_equal(lf_effective_decide_bash(eff, ROOT, "echo $(ls)", &v), 0);
	assert_int_equal(v.effect, LF_ASK);
	assert_non_null(strstr(v.reason, "command substitution"));
	assert_int_equal(lf_effective_decide_bash(eff, ROOT, "echo 'x", &v), 0);
	assert_non_null(strstr(v.reason, "unterminated"));
	assert_int_equal(lf_effective_decide_bash(eff, ROOT, "ls", &v), 0);
	assert_string_equal(v.reason, "");
}

static void test_long_lines(void **state)
{
	size_t n = 100 * 1024;
	char *line = malloc(n + 64);
	struct lf_verdict v;

	assert_non_null(line);
	/* one 100 KB command of allowed words */
	memcpy(line, "ls", 2);
	for (size_t i = 2; i < n; i++)
		line[i] = i % 2 ? 'a' : ' ';
	line[n] = '\0';
	assert_int_equal(lf_effective_decide_bash(eff, ROOT, line, &v), 0);
	assert_int_equal(v.effect, LF_ALLOW);
	assert_true(strlen(v.part) < sizeof(v.part));

	/* 100 KB of "ls && " and a denied command at the very end */
	size_t k = 0;
	while (k + 6 < n) {
		memcpy(line + k, "ls && ", 6);
		k += 6;
	}
	strcpy(line + k, "rm x");
	assert_int_equal(lf_effective_decide_bash(eff, ROOT, line, &v), 0);
	assert_int_equal(v.effect, LF_DENY);
	assert_string_equal(v.part, "rm x");

	/* one 100 KB word, redirected into a denied file */
	memcpy(line, "echo ", 5);
	memset(line + 5, 'x', n - 5);
	strcpy(line + n, " > .env");
	assert_int_equal(lf_effective_decide_bash(eff, ROOT, line, &v), 0);
	assert_int_equal(v.effect, LF_DENY);
	free(line);
}

/* The hook's entry point: relative targets land in the shell's cwd. */
static void test_cwd(void **state)
{
	struct lf_verdict v;

	assert_int_equal(lf_bash_decide(eff, ROOT, ROOT "/sub", "echo x > secret", &v), 0);
	assert_int_equal(v.effect, LF_DENY);
	assert_int_equal(lf_bash_decide(eff, ROOT, ROOT, "echo x > secret", &v), 0);
	assert_int_equal(v.effect, LF_ASK);
	assert_int_equal(lf_bash_decide(eff, ROOT, ROOT "/sub", "echo x > ../.env", &v), 0);
	assert_int_equal(v.effect, LF_DENY);
	assert_int_equal(lf_bash_decide(eff, ROOT, "relative", "ls", &v), -EINVAL);
	assert_int_equal(lf_effective_decide_bash(eff, "relative", "ls", &v), -EINVAL);
	assert_int_equal(lf_effective_decide_bash(NULL, ROOT, "ls", &v), -EINVAL);
	assert_int_equal(lf_effective_decide_bash(eff, ROOT, NULL, &v), -EINVAL);
}

/* Without bash rules a command no rule names gets the fallback; layers
 * pool their command rules and a deny anywhere wins. */
static void test_fallback_and_layers(void **state)
{
	static const char user[] = "{\"version\":1,\"fallback\":\"allow\",\"rules\":[]}";
	static const char local[] =
		"{\"version\":1,\"rules\":[{\"effect\":\"allow\",\"capability\":\"bash\","
		"\"commands\":[{\"effect\":\"allow\",\"prefix\":\"rm\"}]}]}";
	struct lf_policy *u = NULL, *l = NULL;
	struct lf_effective *e = NULL;
	struct lf_diag d;
	struct lf_verdict v;

	assert_int_equal(lf_policy_parse(user, strlen(user), "user.json", LF_LAYER_USER, &u, &d),
			 0);
	const struct lf_policy *one[] = { u };
	assert_int_equal(lf_effective_resolve(one, 1, &e), 0);
	assert_int_equal(lf_effective_decide_bash(e, ROOT, "anything", &v), 0);
	assert_int_equal(v.effect, LF_ALLOW);
	assert_true(v.from_fallback);
	lf_effective_free(e);

	assert_int_equal(
		lf_policy_parse(local, strlen(local), "local.json", LF_LAYER_LOCAL, &l, &d), 0);
	const struct lf_policy *three[] = { u, policy, l };
	assert_int_equal(lf_effective_resolve(three, 3, &e), 0);
	/* the project's deny rm beats the local allow rm */
	assert_int_equal(lf_effective_decide_bash(e, ROOT, "rm x", &v), 0);
	assert_int_equal(v.effect, LF_DENY);
	assert_string_equal(v.source.file, "test.json");
	assert_int_equal(v.layer, LF_LAYER_PROJECT);
	/* an unmatched command: the strictest bash rule's effect (ask) */
	assert_int_equal(lf_effective_decide_bash(e, ROOT, "frobnicate", &v), 0);
	assert_int_equal(v.effect, LF_ASK);
	lf_effective_free(e);
	lf_policy_free(u);
	lf_policy_free(l);
}

/* Arguments are checked against deny and ask rules that name files; a
 * rule matching every path ("ask read **") does not make every word a
 * file. */
static void test_argument_rules(void **state)
{
	static const char text[] =
		"{\"version\":1,\"fallback\":\"allow\",\"rules\":["
		"{\"effect\":\"ask\",\"capability\":\"read\",\"paths\":[\"**\"]},"
		"{\"effect\":\"deny\",\"capability\":\"read\",\"paths\":[\"**/.env\"]},"
		"{\"effect\":\"deny\",\"capability\":\"delete\",\"paths\":[\"keep/**\"]},"
		"{\"effect\":\"allow\",\"capability\":\"bash\",\"commands\":["
		"{\"effect\":\"allow\",\"prefix\":\"git\"},{\"effect\":\"allow\",\"prefix\":"
		"\"cat\"},"
		"{\"effect\":\"allow\",\"prefix\":\"rm\"}]}]}";
	static const struct {
		const char *line;
		enum lf_effect effect;
	} t[] = {
		/* cat surely reads README: a read request, which "ask read **"
		 * asks about (a program the table does not know only counts
		 * through a rule naming the file) */
		{ "git status", LF_ALLOW },	 { "cat README", LF_ASK },
		{ "frob README", LF_ALLOW },	 { "frob sub/.env", LF_DENY },
		{ "cat sub/.env", LF_DENY },	 { "cat .env", LF_DENY },
		{ "rm keep/a", LF_DENY },	 { "rm other", LF_ALLOW },
		{ "cat /etc/passwd", LF_ALLOW }, { "cd sub && cat .env", LF_DENY },
	};
	struct lf_policy *p = NULL;
	struct lf_effective *e = NULL;
	struct lf_diag d;
	struct lf_verdict v;

	assert_int_equal(lf_policy_parse(text, strlen(text), "args.json", LF_LAYER_PROJECT, &p, &d),
			 0);
	const struct lf_policy *one[] = { p };
	assert_int_equal(lf_effective_resolve(one, 1, &e), 0);
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		assert_int_equal(lf_effective_decide_bash(e, ROOT, t[i].line, &v), 0);
		if (v.effect != t[i].effect)
			fail_msg("[%s]: %s, expected %s (reason %s)", t[i].line,
				 lf_effect_name(v.effect), lf_effect_name(t[i].effect), v.reason);
	}
	lf_effective_free(e);
	lf_policy_free(p);
}

/*
 * Words the analyser has not expanded (SPEC §1: a part is allow only if
 * every expansion of its words is): a parameter expansion may become
 * anything, so a deny or ask command rule that could match one makes the
 * part at best ask; ANSI-C quoting and brace expansion are expanded and
 * judged; a pathname pattern may name any file a deny or ask file rule
 * guards. Also the wrappers whose wrapped command is determinable.
 */
static const char expand_policy[] =
	"{\n"			       /* 1 */
	"  \"version\": 1,\n"	       /* 2 */
	"  \"fallback\": \"allow\",\n" /* 3 */
	"  \"rules\": [\n"	       /* 4 */
	"    { \"effect\": \"deny\", \"capability\": \"read\", \"paths\": [\".env\", "
	"\"secrets/**\"] },\n"							    /* 5 */
	"    { \"effect\": \"allow\", \"capability\": \"bash\", \"commands\": [\n"  /* 6 */
	"        { \"effect\": \"deny\", \"prefix\": \"git push\" },\n"		    /* 7 */
	"        { \"effect\": \"ask\", \"exact\": \"make deploy\" },\n"	    /* 8 */
	"        { \"effect\": \"deny\", \"glob\": \"docker * --privileged*\" },\n" /* 9 */
	"        { \"effect\": \"deny\", \"prefix\": \"rm\" }\n"		    /* 10 */
	"    ] }\n"								    /* 11 */
	"  ]\n"									    /* 12 */
	"}\n";

static const struct {
	const char *line;
	enum lf_effect effect;
	int rule_line;
	const char *reason; /* a substring of the reason, or NULL */
} expand_table[] = {
	/* parameter expansions: wildcards */
	{ "x=push; git \"$x\"", Q, 7, "could make it match the deny rule prefix \"git push\"" },
	{ "git $x", Q, 7, NULL },
	{ "git \"${x:-push}\"", Q, 7, "${x:-push}" },
	{ "git ${@}", Q, 7, NULL },
	{ "git $1 origin", Q, 7, NULL },
	{ "/usr/bin/git $x", Q, 7, NULL },
	{ "git -C . $x", Q, -1, NULL },
	{ "git $x push", Q, 7, NULL },
	{ "make $t", Q, 8, NULL },
	{ "docker ps $opts", Q, 9, NULL },
	{ "docker run $opts img", Q, 0, "containers" },
	{ "git status $x", A, -1, NULL },
	/* a word the shell expands could be a VAR=VALUE that runs make code */
	{ "make test $t", Q, -1, NULL },
	{ "make test", A, -1, NULL },
	{ "echo $HOME", A, -1, NULL },
	{ "echo \"$HOME/x\" ${PATH}", A, -1, NULL },
	/* no git subcommand has these names: an alias or a git-* program */
	{ "git '$x'", Q, -1, NULL },
	{ "git push $x", D, 7, NULL },
	/* ANSI-C quoting, decoded */
	{ "git $'push'", D, 7, NULL },
	{ "git $'\\x70ush'", D, 7, NULL },
	{ "git $'pu\\163h'", D, 7, NULL },
	{ "git $'pu\\u0073h' origin", D, 7, NULL },
	{ "$'r\\x6d' x", D, 10, NULL },
	{ "git $'push\\n'", Q, -1, NULL },
	{ "echo $'a\\tb'", A, -1, NULL },
	/* brace expansion, expanded */
	{ "git {push,origin}", D, 7, NULL },
	{ "git pu{s,}h", D, 7, NULL },
	{ "git {push,pull}", D, 7, NULL },
	{ "{git,push}", D, 7, NULL },
	{ "git p{u,x}sh", D, 7, NULL },
	{ "git pu{s..s}h", D, 7, NULL },
	{ "r{m..n} x", D, 10, NULL },
	{ "git {{push,a},b}", D, 7, NULL },
	{ "git '{push,x}'", Q, -1, NULL },
	{ "echo {1..3} {a,b}c", A, -1, NULL },
	{ "git {1..1000}", Q, 7, NULL }, /* too many: unknown */
	{ "git {pull,fetch}", A, -1, NULL },
	{ "git {1..1000}push", Q, 7, NULL },
	/* pathname patterns against file rules */
	{ "cat .e*", Q, 5, ".e*" },
	{ "cat ./.e?v", Q, 5, NULL },
	{ "cat secrets/*", Q, 5, NULL },
	{ "cat sec*/key", Q, 5, NULL },
	{ "cat s*/../.e*", Q, 5, NULL },
	{ "ls -d .[a-z]*", Q, 5, NULL },
	{ "cat /work/proj/.e*", Q, 5, NULL },
	{ "cat *.md", A, -1, NULL },
	{ "cat src/*.c", A, -1, NULL },
	{ "cat '.e*'", A, -1, NULL },
	{ "cat .env", D, 5, NULL },
	/* wrappers whose wrapped command is determinable: both judged */
	{ "ionice -c3 rm x", D, 10, NULL },
	{ "ionice -c 3 -n 7 rm x", D, 10, NULL },
	{ "taskset 0x3 rm x", D, 10, NULL },
	{ "taskset -c 0,1 rm x", D, 10, NULL },
	{ "chrt -f 10 rm x", D, 10, NULL },
	{ "chrt 10 rm x", D, 10, NULL },
	{ "strace -f rm x", D, 10, NULL },
	{ "strace -f -o /tmp/t rm x", D, 10, NULL },
	{ "ltrace -f rm x", D, 10, NULL },
	{ "flock /tmp/l rm x", D, 10, NULL },
	{ "flock -w 5 /tmp/l rm x", D, 10, NULL },
	{ "flock /tmp/l -c 'rm x'", D, 10, NULL },
	{ "unshare -r rm x", D, 10, NULL },
	{ "setpriv --reuid 1000 rm x", D, 10, NULL },
	{ "runuser -u bob -- rm x", D, 10, NULL },
	{ "su -c \"rm x\"", D, 10, NULL },
	{ "su bob -c 'rm x'", D, 10, NULL },
	{ "su --command='rm x' bob", D, 10, NULL },
	{ "script -qc \"rm x\" /dev/null", D, 10, NULL },
	{ "watch -n1 rm x", D, 10, NULL },
	{ "watch 'rm x'", D, 10, NULL },
	{ "watch -x rm x", D, 10, NULL },
	{ "nsenter -t 1 -m rm x", D, 10, NULL },
	{ "chroot /srv rm x", D, 10, NULL },
	{ "firejail --noprofile rm x", D, 10, NULL },
	{ "systemd-run --user rm x", D, 10, NULL },
	{ "systemd-run -p Nice=5 rm x", D, 10, NULL },
	{ "dbus-launch rm x", D, 10, NULL },
	{ "xvfb-run -a rm x", D, 10, NULL },
	{ "catchsegv rm x", D, 10, NULL },
	{ "valgrind --leak-check=full rm x", D, 10, NULL },
	{ "gdb --args rm x", D, 10, NULL },
	{ "fakeroot rm x", D, 10, NULL },
	{ "proot -r /srv rm x", D, 10, NULL },
	{ "ssh host \"rm x\"", D, 10, NULL },
	{ "ssh -p 22 host rm x", D, 10, NULL },
	{ "pkexec rm x", D, 10, NULL },
	{ "nice ionice -c3 flock /tmp/l rm x", D, 10, NULL },
	{ "ssh host git push", D, 7, NULL },
	{ "su - bob -c 'git push'", D, 7, NULL },
	{ "git -c alias.p=push p", Q, -1, NULL },
	{ "git -c core.sshCommand=x fetch", Q, -1, NULL },
	{ "git -c color.ui=always log", A, -1, NULL },
	/* programs that run commands in a syntax not modelled: at best ask */
	{ "parallel rm ::: a b", Q, -1, NULL },
	{ "gdb ./a.out", Q, -1, NULL },
	{ "su", Q, -1, NULL },
	{ "su bob", Q, -1, NULL },
	{ "ssh host", Q, -1, NULL },
	{ "ssh -o ProxyCommand=x host ls", Q, -1, NULL },
	{ "watch \"$CMD\"", Q, -1, NULL },
	{ "tmux new -d x", Q, -1, NULL },
	{ "unshare -r", Q, -1, NULL },
	{ "ionice -Z rm x", Q, -1, NULL },
	{ "su bob extra", Q, -1, NULL },
	{ "ionice -c3 ls", A, -1, NULL },
	{ "ionice -p 123", A, -1, NULL },
	{ "flock /tmp/l make", A, -1, NULL },
	{ "ssh host ls", A, -1, NULL },
	{ "watch -n1 ls", A, -1, NULL },
	{ "su -c ls", A, -1, NULL },
	{ "taskset -p 3 1234", A, -1, NULL },
	{ "strace -p 1234", A, -1, NULL },
};

static void test_expansions(void **state)
{
	struct lf_policy *p = NULL;
	struct lf_effective *e = NULL;
	struct lf_diag d;
	int bad = 0;

	assert_int_equal(lf_policy_parse(expand_policy, strlen(expand_policy), "exp.json",
					 LF_LAYER_PROJECT, &p, &d),
			 0);
	const struct lf_policy *one[] = { p };
	assert_int_equal(lf_effective_resolve(one, 1, &e), 0);
	for (size_t i = 0; i < sizeof(expand_table) / sizeof(expand_table[0]); i++) {
		struct lf_verdict v;
		int r = lf_effective_decide_bash(e, ROOT, expand_table[i].line, &v);
		bool ok = r == 0 && v.effect == expand_table[i].effect;
		if (ok && expand_table[i].rule_line > 0)
			ok = !v.from_fallback &&
			     v.source.line == (unsigned)expand_table[i].rule_line;
		if (ok && expand_table[i].reason)
			ok = strstr(v.reason, expand_table[i].reason) != NULL;
		if (!ok) {
			print_error("[%s]: r=%d %s (line %u) part [%s] reason [%s]; expected %s "
				    "line %d\n",
				    expand_table[i].line, r, lf_effect_name(v.effect),
				    v.source.line, v.part, v.reason,
				    lf_effect_name(expand_table[i].effect),
				    expand_table[i].rule_line);
			bad++;
		}
	}
	lf_effective_free(e);
	lf_policy_free(p);
	assert_int_equal(bad, 0);
}

/*
 * The classes of lines a differential run against bash 5.2 found answered
 * allow while bash ran a denied command or wrote a denied file, and the
 * unusual lines that must stay allowed (doc/shell.md). One policy: files
 * of the project readable, src/ writable, .git/ and .env guarded; rm and
 * git push denied; everything else allowed.
 */
static const char class_policy[] =
	"{\n"			     /* 1 */
	"  \"version\": 1,\n"	     /* 2 */
	"  \"fallback\": \"ask\",\n" /* 3 */
	"  \"rules\": [\n"	     /* 4 */
	"    { \"effect\": \"allow\", \"capability\": \"read\", \"paths\": [\"src/**\", "
	"\"README\"] },\n" /* 5 */
	"    { \"effect\": \"allow\", \"capability\": \"write\", \"paths\": [\"src/**\"] "
	"},\n" /* 6 */
	"    { \"effect\": \"deny\", \"capability\": \"write\", \"paths\": [\".git/**\", "
	"\".env\"] "
	"},\n"									   /* 7 */
	"    { \"effect\": \"allow\", \"capability\": \"bash\", \"commands\": [\n" /* 8 */
	"        { \"effect\": \"deny\", \"prefix\": \"rm\" },\n"		   /* 9 */
	"        { \"effect\": \"deny\", \"prefix\": \"git push\" }\n"		   /* 10 */
	"    ] }\n"								   /* 11 */
	"  ]\n"									   /* 12 */
	"}\n";

static const struct {
	const char *line;
	enum lf_effect effect;
	int rule_line;
	const char *reason; /* a substring of the reason, or NULL */
} class_table[] = {
	/* 1. code assembled at run time inside arguments */
	{ "x='a[$(rm y)]'; echo $((x))", Q, 0, "arithmetic" },
	{ "x='a[$(rm y)]'; echo $[x]", Q, 0, "arithmetic" },
	{ "x='a[$(rm y)]'; echo ${a[x]}", Q, 0, "subscript" },
	{ "x='a[$(rm y)]'; echo ${s:x}", Q, 0, "offset" },
	{ "x='a[$(rm y)]'; echo ${s:0:x}", Q, 0, "offset" },
	{ "x='a[$(rm y)]'; echo ${!x}", Q, 0, "indirect" },
	{ "x='$(rm y)'; echo ${x@P}", Q, 0, "transformation" },
	{ "x='a[$(rm y)]'; [[ $x -eq 0 ]]", Q, 0, "arithmetic comparison" },
	{ "x='a[$(rm y)]'; [[ -v $x ]]", Q, 0, "-v" },
	{ "x='a[$(rm y)]'; let x", Q, 0, "arithmetic" },
	{ "x='a[$(rm y)]'; (( x ))", Q, 0, "arithmetic" },
	{ "declare -n r=x", Q, 0, "nameref" },
	{ "printf -v 'a[$x]' hi", Q, 0, "subscript" },
	{ "read 'a[$x]' <<< y", Q, 0, "subscript" },
	{ "mapfile -C 'rm y' -c 1 a", Q, 0, "callback" },
	{ "echo $\"hello\"", Q, 0, "translated" },
	{ "echo '$''(' rm y", A, -1, NULL },
	{ "echo $'\\x24(' rm y ')'", A, -1, NULL },
	{ "echo \\$\\(rm y\\)", A, -1, NULL },
	{ "echo $((1 + 2 * 0x10))", A, -1, NULL },
	{ "echo $[1<<2]", A, -1, NULL },
	{ "a[1<<$(rm y)]=1", D, 9, NULL },
	{ "echo $(( $(rm y) ))", D, 9, NULL },
	/* 2. here-document bodies end where bash ends them */
	{ "cat <<EOF\nx\\\nEOF\nrm y\nEOF", A, -1, NULL },
	{ "cat <<EOF\nx\\\\\nEOF\nrm y", D, 9, NULL },
	/* a joined line equal to the delimiter ends the body: rm y runs */
	{ "cat <<EOF\n\\\nEOF\nrm y\nEOF", D, 9, NULL },
	{ "cat <<-EOF\n\tx\n\t\\\n\tEOF\nrm y\nEOF", D, 9, NULL },
	{ "cat <<'EOF'\nx\\\nEOF\nrm y", D, 9, NULL },
	{ "cat <<E\\\nOF\nEOF\nrm y", D, 9, NULL },
	{ "cat <<EOF\n$(rm y)\nEOF", D, 9, NULL },
	{ "cat <<'EOF'\n$(rm y)\nEOF", A, -1, NULL },
	/* 3. a carriage return is a word character */
	{ "ls\r; rm y", D, 9, NULL },
	{ "ls\r\nrm y", D, 9, NULL },
	{ "cat <<EOF\nx\nEOF\r\nrm y\nEOF", A, -1, NULL },
	{ "echo a # c\r\nrm y", D, 9, NULL },
	{ "rm\r y", A, -1, NULL },
	/* 4. $[ ] is arithmetic, not a here-document */
	{ "echo $[1<<2]\nrm y", D, 9, NULL },
	{ "echo $[1<<EOF]\nrm y\nEOF", D, 9, NULL },
	/* 5. coproc NAME { … } */
	{ "coproc NAME { rm y; }", D, 9, NULL },
	{ "coproc { rm y; }", D, 9, NULL },
	{ "coproc rm y", D, 9, NULL },
	/* 6. the environment of a command */
	{ "MAKEFLAGS='--eval=$(shell rm y)' make test", Q, 0, "MAKEFLAGS" },
	{ "GNUMAKEFLAGS=x make test", Q, 0, "decides what the command runs" },
	{ "MAKEFILES=x make test", Q, 0, "decides what the command runs" },
	{ "FOO=1 make test", Q, 0, "not known to be harmless" },
	{ "env FOO=1 make test", Q, 0, "not known to be harmless" },
	{ "export FOO=1; make test", Q, 0, "not known to be harmless" },
	{ "LC_ALL=C TZ=UTC make test", A, -1, NULL },
	{ "make test CFLAGS='$(shell rm y)'", Q, 0, "make variable" },
	{ "PATH=./bin; ls", Q, 0, "later commands" },
	/* an upper-case variable may already be exported to later programs */
	{ "CC='rm y'; make test", Q, 0, "environment of later commands" },
	{ "npm_config_script_shell=/bin/rm; make test", Q, 0, "environment of later" },
	{ "x=1; make test", A, -1, NULL },
	{ "FOO=1", A, 8, NULL },
	{ "FOO=1; rm y", D, 9, NULL },
	/* 7. writes through a program's own options and operands */
	{ "git log --output=.git/hooks/pre-commit", D, 7, NULL },
	{ "git -C .git/hooks log --output=pre-commit", D, 7, NULL },
	{ "git -C .git -C hooks log --output=pre-commit", D, 7, NULL },
	{ "make -C .git -C hooks -f /dev/null x", A, -1, NULL },
	{ "sort -o .env src/a", D, 7, NULL },
	{ "tee .git/config < src/a", D, 7, NULL },
	{ "cp src/a .git/hooks/x", D, 7, NULL },
	{ "cp -t .git/hooks src/a", D, 7, NULL },
	{ "dd if=src/a of=.env", D, 7, NULL },
	{ "sed -n 'w .env' src/a", D, 7, NULL },
	{ "sed -i s/a/b/ .env", D, 7, NULL },
	{ "awk '{print > \".env\"}' src/a", D, 7, NULL },
	{ "touch .env", D, 7, NULL },
	{ "git log --output=src/log", A, -1, NULL },
	/* an unknown option does not make a written file a maybe */
	{ "git log -1 --frobnicate --output=other/x", Q, 0, NULL },
	{ "tee --frobnicate other/x < src/a", Q, 0, NULL },
	{ "sort -o src/s src/a", A, -1, NULL },
	{ "cp \"$x\" .", Q, 0, "could become an option" },
	{ "cp src/a \"./$x\"", Q, 0, "not a literal" },
	/* plainly written denied commands are denied, not asked */
	{ "time { rm y; }", D, 9, NULL },
	{ "${x:-$'\\''}; rm y", D, 9, NULL },
	{ "a[1<<E]=1; rm y", D, 9, NULL },
	{ "! rm y", D, 9, NULL },
	{ "f() { rm y; }; f", D, 9, NULL },
	{ "eval rm y", D, 9, NULL },
	{ "find . -exec rm {} \\;", D, 9, NULL },
	{ "git -C . push", D, 10, NULL },
	/* lookups run nothing */
	{ "command -v rm", A, -1, NULL },
	{ "command -V rm", A, -1, NULL },
	{ "type rm", A, -1, NULL },
	{ "command rm y", D, 9, NULL },
	/* unusual but harmless: allowed */
	{ "c\\\nat README", A, -1, NULL },
	{ "g$''rep src", A, -1, NULL },
	{ "echo {rm,} y#", A, -1, NULL },
	{ "echo x >src/../src/ok", A, -1, NULL },
	{ "git commit -m \"$(cat <<'EOF'\nmsg\nEOF\n)\"", A, -1, NULL },
	/* what the line itself makes */
	{ "ln -s .git/hooks src/h && echo x > src/h/pre-commit", Q, 0, "link" },
	{ "echo 'rm y' > src/x.sh; bash src/x.sh", Q, 0, "writes" },
	{ "bash <(echo rm y)", Q, 0, NULL },
	/* programs that run commands from their own arguments */
	{ "tar -cf src/t.tar --checkpoint-action=exec='rm y' src", D, 9, NULL },
	{ "tar -cf src/t.tar --checkpoint-action exec=\"$c\" src", Q, 0, NULL },
	{ "less +!rm\\ y src/a", Q, 0, NULL },
	{ "less +10 src/a", A, -1, NULL },
	{ "pee 'rm y' cat < src/a", D, 9, NULL },
	{ "ifne rm y < src/a", D, 9, NULL },
	{ "chronic rm y", D, 9, NULL },
	{ "ncat -e 'rm y' localhost 1", D, 9, NULL },
	{ "nc -c 'rm y' localhost 1", D, 9, NULL },
	{ "src/a | sponge .env", D, 7, NULL },
	{ "psql -c x", Q, 0, "shell" },
	{ "socat - EXEC:'rm y'", Q, 0, NULL },
	/* wrappers and runners: the command they run is judged */
	{ "perf stat rm y", D, 9, NULL },
	{ "eatmydata rm y", D, 9, NULL },
	{ "gosu me rm y", D, 9, NULL },
	{ "npx -c 'rm y'", D, 9, NULL },
	{ "npm exec -- rm y", D, 9, NULL },
	{ "uv run rm y", D, 9, NULL },
	{ "poetry run rm y", D, 9, NULL },
	{ "bundle exec rm y", D, 9, NULL },
	{ "fish -c 'rm y'", D, 9, NULL },
	{ "go test -exec 'rm y' .", D, 9, NULL },
	{ "docker run -v /:/h alpine rm /h/y", Q, 0, "containers" },
	{ "xterm -e rm y", Q, 0, "terminal" },
	{ "cmake -E rm -f y", Q, 0, "cmake -E" },
	{ "m4 src/a", Q, 0, "m4" },
	{ "julia -e 'rm(\"y\")'", Q, 0, "code" },
	{ "python3 -m timeit 'x'", Q, 0, "module" },
	{ "go build -ldflags=-extld=rm .", Q, 0, "linker" },
	{ "cargo install x", Q, 0, "cargo" },
	/* files named by the options of build tools and package managers */
	{ "go build -o .git/hooks/pre-commit .", D, 7, NULL },
	{ "go build -o=.git/hooks/pre-commit .", D, 7, NULL },
	{ "go build --o=.git/hooks/pre-commit .", D, 7, NULL },
	{ "cargo build --target-dir .git/hooks", D, 7, NULL },
	{ "pip install --target .git/hooks x", D, 7, NULL },
	{ "python3 -m pip install --target .git/hooks x", D, 7, NULL },
	{ "python3 -Im venv .git/hooks", D, 7, NULL },
	{ "rustc -o .git/hooks/pre-commit src/m.rs", D, 7, NULL },
	{ "git apply --directory=.git/hooks src/p", D, 7, NULL },
	{ "go build ./...", A, -1, NULL },
	{ "go build -o src/x ./cmd/x", A, -1, NULL },
	{ "cargo build --release", A, -1, NULL },
	{ "npm test", A, -1, NULL },
	{ "python3 -m pytest src", A, -1, NULL },
	/* a configuration the program obeys, written by the line itself */
	{ "echo 'all:; rm y' > src/Makefile && make -C src", Q, 0, "configuration" },
	{ "echo x > src/r/.git/config; git -C src/r status", Q, 0, "configuration" },
	{ "echo x > src/r.git/config; git --git-dir=src/r.git log", Q, 0, "configuration" },
	{ "echo x > src/r.git/config; git --git-dir=src/r.git --work-tree=src log", Q, 0,
	  "configuration" },
	{ "echo x > src/package.json; cd src && npm test", Q, 0, "configuration" },
	{ "echo x > src/new.c && make -C src", A, -1, NULL },
	{ "cd src && echo 'import os' > json.py && python3 -m json.tool", Q, 0, "configuration" },
	{ "echo x > src/r/config && cd src/r && git diff", Q, 0, "configuration" },
	{ "python3 -m json.tool", A, -1, NULL },
	/* xargs appends words read from standard input, options too */
	{ "echo -o.env | xargs sort src/a", Q, 0, "option" },
	{ "xargs sed -i s/a/b/", Q, 0, "option" },
	{ "xargs tee", Q, 0, "literal" },
	{ "xargs cp src/a", Q, 0, NULL },
	{ "xargs env", Q, 0, NULL },
	{ "xargs nice", Q, 0, NULL },
	{ "xargs timeout 1", Q, 0, NULL },
	{ "xargs git log", Q, 0, "option" },
	{ "xargs find src", Q, 0, NULL },
	{ "xargs dd", Q, 0, NULL },
	{ "xargs -0 grep -n x", A, -1, NULL },
	{ "xargs -r ls -la", A, -1, NULL },
	{ "xargs -n1 cat", A, -1, NULL },
	{ "xargs -I % cat %", A, -1, NULL },
	{ "xargs", A, -1, NULL },
	/* a sed label ends at a blank or ';': what follows is a command */
	{ "sed ':a;w .env' src/a", D, 7, NULL },
	{ "sed ':a w .env' src/a", D, 7, NULL },
	{ "sed -n 'b end w .env' src/a", D, 7, NULL },
	{ "sed -n 't x;w .env' src/a", D, 7, NULL },
	{ "sed -n 'T x w .env' src/a", D, 7, NULL },
	{ "sed -n 'v 4.2 w .env' src/a", D, 7, NULL },
	{ "sed ':a e rm y' src/a", Q, 0, "sed runs" },
	{ "sed ':a;N;$!ba;s/\\n/ /g' src/a", A, -1, NULL },
	{ "sed -e :a -e '$!N;s/\\n//;ta' src/a", A, -1, NULL },
	/* awk: where '/' starts a regular expression, and the whole name
	 * after '>' */
	{ "awk '{ print /\"/ > \".env\" }' src/a", D, 7, NULL },
	{ "awk 'BEGIN { x = 1 + /\"/; print > \".env\" }'", D, 7, NULL },
	{ "awk '{ x = a \\\n/ 2; print > \".env\"; y = 1 / 3 }' src/a", D, 7, NULL },
	{ "awk '{ if (1) /\"/; print > \".env\" }' src/a", Q, 0, "cannot read" },
	{ "awk '{ print length /\"/ > \".env\" }' src/a", Q, 0, "cannot read" },
	{ "awk '/[/\"]/ { print > \".env\" }' src/a", Q, 0, "bracket" },
	{ "awk 'BEGIN { print > \"src/\" \"../.env\" }'", Q, 0, "run time" },
	{ "awk 'BEGIN { f = \"system\"; @f(\"rm y\") }'", Q, 0, "indirect" },
	{ "awk '{ print ($1 + $2) / 2 }' src/a", A, -1, NULL },
	{ "awk '{ s += $1 } END { print s / NR }' src/a", A, -1, NULL },
	{ "awk '{ if ($1 ~ /^#/) next; print }' src/a", A, -1, NULL },
	{ "awk '{ gsub(/\\//, \"-\"); print }' src/a", A, -1, NULL },
	{ "awk '/[[:space:]]+x/ { print > \"src/o\" }' src/a", A, -1, NULL },
	{ "awk 'length > 72' src/a", A, -1, NULL },
	/* ${NAME:=word} and ${NAME=word} assign NAME */
	{ ": ${CDPATH:=/usr}; cd src && touch x", Q, 0, "later commands" },
	{ ": ${CDPATH=/usr}; cd src && touch x", Q, 0, "later commands" },
	{ "x=${PATH:=/tmp}; ls", Q, 0, "later commands" },
	{ "echo \"${CC:=rm}\"; make test", Q, 0, "environment of later" },
	{ ": ${x:=1}; ls", A, -1, NULL },
	{ "echo ${HOME:-/tmp} ${X:+y} ${Y-z}", A, -1, NULL },
	/* coproc NAME and {NAME}> assign NAME */
	{ "coproc PATH { :; }; ls", Q, 0, "later commands" },
	{ "exec {PATH}>/dev/null; ls", Q, 0, "later commands" },
	{ "exec {CDPATH}>/dev/null; cd src && touch x", Q, 0, "later commands" },
	{ "coproc x { :; }; ls", A, -1, NULL },
	{ "coproc NAME { ls; }; ls", A, -1, NULL },
	{ "exec {fd}>src/x; ls", A, -1, NULL },
	/* ln with one operand makes the link in the working directory */
	{ "ln -s src/.env", D, 7, NULL },
	{ "ln src/x/.env", D, 7, NULL },
	{ "ln -s -- src/.env", D, 7, NULL },
	{ "ln -s src/a src/b", A, -1, NULL },
	{ "ln -st src README", A, -1, NULL },
	/* git restore PATH and git checkout [TREE-ISH] PATH write PATH */
	{ "git restore .env", D, 7, NULL },
	{ "git restore --source=HEAD .env", D, 7, NULL },
	{ "git restore -SW .env", D, 7, NULL },
	{ "git checkout HEAD .env", D, 7, NULL },
	{ "git checkout .env", Q, 0, "work tree" },
	{ "git checkout main", Q, 0, "work tree" },
	{ "git restore --staged .env", A, -1, NULL },
	{ "git restore src/a", A, -1, NULL },
	{ "git checkout -b topic", A, -1, NULL },
	{ "git checkout HEAD src/a", A, -1, NULL },
	/* an unknown letter in a cluster: the letters after it may be
	 * options */
	{ "sort -WoREADME src/a", Q, 0, "together" },
	{ "cp -Wt .git src/a", Q, 0, "together" },
	{ "sort -rn src/a", A, -1, NULL },
	{ "cp -av src/a src/b", A, -1, NULL },
	{ "sed -bi s/a/b/ .env", D, 7, NULL },
	{ "sed -bn p src/a", A, -1, NULL },
	/* programs that write files of their choosing in the working
	 * directory when no option names them */
	{ "gcc src/a.c", Q, -1, NULL },
	{ "gcc -c src/a.c", Q, -1, NULL },
	{ "split src/a", Q, -1, NULL },
	{ "csplit src/a 1", Q, -1, NULL },
	{ "wget http://x/y", Q, -1, NULL },
	{ "git format-patch -1", Q, -1, NULL },
	{ "gcc -c src/a.c -o src/a.o", A, -1, NULL },
	{ "gcc -E src/a.c", A, -1, NULL },
	{ "gcc --version", A, -1, NULL },
	{ "cd src && gcc a.c", A, -1, NULL },
	{ "split -l 1 src/a src/p", A, -1, NULL },
	{ "git format-patch -1 -o src", A, -1, NULL },
	{ "git format-patch -1 --stdout", A, -1, NULL },
	{ "patch -p1 < src/p", Q, -1, NULL },
	{ "patch -d src -p1 < src/p", A, -1, NULL },
	{ "patch src/a src/p", A, -1, NULL },
	/* git subcommands that rewrite the work tree wherever the commits
	 * or patches say: a write below the directory git runs in */
	{ "git merge topic", Q, -1, NULL },
	{ "git pull", Q, -1, NULL },
	{ "git switch main", Q, -1, NULL },
	{ "git rebase main", Q, -1, NULL },
	{ "git cherry-pick abc123", Q, -1, NULL },
	{ "git revert HEAD", Q, -1, NULL },
	{ "git stash", Q, -1, NULL },
	{ "git stash pop", Q, -1, NULL },
	{ "git reset --hard HEAD~1", Q, -1, NULL },
	{ "git am src/p.patch", Q, -1, NULL },
	{ "git apply src/p.patch", Q, -1, NULL },
	{ "git clean -fd", Q, -1, NULL },
	{ "git -C src merge topic", A, -1, NULL },
	{ "cd src && git stash pop", A, -1, NULL },
	{ "git reset HEAD~1", A, -1, NULL },
	{ "git reset --soft HEAD~1", A, -1, NULL },
	{ "git stash list", A, -1, NULL },
	{ "git stash show -p", A, -1, NULL },
	{ "git apply --check src/p.patch", A, -1, NULL },
	{ "git apply --cached src/p.patch", A, -1, NULL },
	{ "git clean -n", A, -1, NULL },
	/* wget clusters its letters */
	{ "wget -qO.env http://x", D, 7, NULL },
	{ "wget -qO- http://x", A, -1, NULL },
	{ "wget -nv -P src http://x", A, -1, NULL },
	/* words bash runs differently from how they were once read */
	{ "ln -st src ../.git/hooks && echo x > src/hooks/pre-commit", Q, 0, "link" },
	{ "ln -s --target=src .git/hooks && echo x > src/hooks/pre-commit", Q, 0, "link" },
	{ "ln -s -t src .git/hooks .git/x && echo x > src/x/y", Q, 0, "link" },
	{ "sed --expr='1e rm -f src/a' src/a", Q, 0, "e command" },
	{ "xargs --repla=ls sh -c ls", Q, 0, NULL },
	{ "make test CC='rm -f src/a; true'", Q, 0, "make variable" },
	{ "find src -execdir touch a \\;", Q, 0, "-execdir" },
	{ "/proc/self/exe -c ls", Q, 0, "/proc" },
	{ "git tag -a v1", Q, 0, "editor" },
	{ "git commit --fixup=amend:HEAD", Q, 0, "editor" },
	{ "git config --ed", Q, 0, "editor" },
};

static void test_classes(void **state)
{
	struct lf_policy *p = NULL;
	struct lf_effective *e = NULL;
	struct lf_diag d;
	int bad = 0;

	assert_int_equal(lf_policy_parse(class_policy, strlen(class_policy), "cls.json",
					 LF_LAYER_PROJECT, &p, &d),
			 0);
	const struct lf_policy *one[] = { p };
	assert_int_equal(lf_effective_resolve(one, 1, &e), 0);
	for (size_t i = 0; i < sizeof(class_table) / sizeof(class_table[0]); i++) {
		struct lf_verdict v;
		int r = lf_effective_decide_bash(e, ROOT, class_table[i].line, &v);
		bool ok = r == 0 && v.effect == class_table[i].effect;
		if (ok && class_table[i].rule_line > 0)
			ok = !v.from_fallback &&
			     v.source.line == (unsigned)class_table[i].rule_line;
		if (ok && class_table[i].rule_line == 0)
			ok = v.source.line == 0 && v.reason[0];
		if (ok && class_table[i].reason)
			ok = strstr(v.reason, class_table[i].reason) != NULL;
		if (!ok) {
			print_error("[%s]: r=%d %s (line %u) part [%s] reason [%s]; expected %s "
				    "line %d [%s]\n",
				    class_table[i].line, r, lf_effect_name(v.effect), v.source.line,
				    v.part, v.reason, lf_effect_name(class_table[i].effect),
				    class_table[i].rule_line,
				    class_table[i].reason ? class_table[i].reason : "");
			bad++;
		}
	}
	lf_effective_free(e);
	lf_policy_free(p);
	assert_int_equal(bad, 0);
}

/* A small deterministic generator: the same lines on every run. */
static uint32_t rnd_state = 0x2545f491u;
static uint32_t rnd(uint32_t n)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 17;
	rnd_state ^= rnd_state << 5;
	return rnd_state % n;
}

/*
 * Random chains of allowed commands joined by every operator: allowed as a
 * whole; with one denied command slipped in anywhere — bare, by absolute
 * path, behind wrappers, in a subshell, a group, a sh -c payload or a
 * command substitution — denied.
 */
static void test_random_chains(void **state)
{
	static const char *const allowed[] = {
		"ls -la",      "echo 'a && b; c | d'", "awk '{print $1}' f",
		"cat src/a.c", "git status",	       "git commit -m \"x || y\"",
		"make",	       "echo a\\;b",	       "ls -l # rm x\n",
		"LC_ALL=C ls", "timeout 5 ls",	       "env TZ=UTC echo hi",
	};
	static const char *const ops[] = { " && ", " || ", "; ", " | ", " & ",
					   "\n",   " |& ", ";",	 "&&" };
	static const char *const denied[] = { "rm -rf x", "/bin/rm x", "git push origin",
					      "\\rm x",	  "'rm' -f y", "/usr/bin/git push" };
	/* wrappers of a simple command, and of anything */
	static const char *const wraps[][2] = {
		{ "env X=1 ", "" },	 { "timeout 5 ", "" }, { "nice -n 3 ", "" },
		{ "nohup ", "" },	 { "sudo ", "" },      { "command ", "" },
		{ "time ", "" },	 { "xargs ", "" },     { "A=1 B=2 ", "" },
		{ "( ", " )" },		 { "{ ", "; }" },      { "sh -c '", "'" },
		{ "bash -lc \"", "\"" }, { "echo $( ", " )" },
	};
	char line[4096], seg[512], tmp[512];
	int bad = 0;

	for (int iter = 0; iter < 3000; iter++) {
		bool inject = iter % 2;
		size_t nseg = 1 + rnd(5), at = rnd((uint32_t)nseg + 1);
		line[0] = '\0';
		for (size_t k = 0; k <= nseg; k++) {
			if (inject && k == at) {
				snprintf(tmp, sizeof(tmp), "%s", denied[rnd(6)]);
				/* up to two wrappers around it */
				bool simple = true;
				for (int w = rnd(3); w > 0; w--) {
					/* command wrappers only around a simple command
					 * (an assignment ends that); a quoting wrapper
					 * only around text without its quote */
					size_t c = simple ? rnd(14) : 9 + rnd(5);
					char q = wraps[c][1][0] == '\'' || wraps[c][1][0] == '"'
							 ? wraps[c][1][0]
							 : '\0';
					if (q && strchr(tmp, q))
						continue;
					snprintf(seg, sizeof(seg), "%s%s%s", wraps[c][0], tmp,
						 wraps[c][1]);
					snprintf(tmp, sizeof(tmp), "%s", seg);
					simple = c < 8;
				}
			} else if (k < nseg) {
				snprintf(tmp, sizeof(tmp), "%s", allowed[rnd(12)]);
			} else {
				continue;
			}
			/* after a line that ends in a newline an operator would
			 * be a syntax error; the newline separates */
			if (line[0] && line[strlen(line) - 1] != '\n')
				strcat(line, ops[rnd(9)]);
			strcat(line, tmp);
		}
		struct lf_verdict v;
		assert_int_equal(lf_effective_decide_bash(eff, ROOT, line, &v), 0);
		/* a denied command anywhere: deny; else allowed, unless a
		 * trailing background '&' left nothing odd (it never does) */
		enum lf_effect want = inject ? LF_DENY : LF_ALLOW;
		if (v.effect != want) {
			if (bad < 10)
				print_error("[%s]: %s (part [%s], reason [%s]), expected %s\n",
					    line, lf_effect_name(v.effect), v.part, v.reason,
					    lf_effect_name(want));
			bad++;
		}
	}
	assert_int_equal(bad, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_reason),
		cmocka_unit_test(test_long_lines),
		cmocka_unit_test(test_cwd),
		cmocka_unit_test(test_fallback_and_layers),
		cmocka_unit_test(test_random_chains),
		cmocka_unit_test(test_argument_rules),
		cmocka_unit_test(test_expansions),
		cmocka_unit_test(test_classes),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
