/* SPDX-License-Identifier: MIT */
/*
 * The advisory guard's cost (a benchmark, never a test).
 *
 * In process, on a 200-rule policy, each rate over about a second of
 * process CPU time:
 *   bash_decisions_per_sec          lf_effective_decide_bash over eight
 *                                   everyday agent lines
 *   bash_trivial_decisions_per_sec  the same for the line `ls`: the
 *                                   baseline (lexer, parser, one part)
 *   bash_grammar_decisions_per_sec  lines that use the grammar: here-
 *                                   documents, case, loops, [[ ]],
 *                                   functions, ANSI-C quoting, coproc
 *   bash_everyday_over_trivial      cost of an everyday line in trivial
 *                                   lines (the trivial rate / the rate)
 *   advisor_bash_per_sec            lf_advisor_bash over the everyday
 *                                   lines in a real project directory:
 *                                   what the hook computes, the file
 *                                   words resolved through symlinks and
 *                                   the files the line opens asked of the
 *                                   kernel's final rules (the sandbox
 *                                   value built once, before timing)
 * One process per decision, as an agent's hook runs it (medians of
 * interleaved spawns):
 *   check_process_ms           `landfence check bash -- LINE` with SPEC
 *                              §4's example policy, a line that names no
 *                              file
 *   check_process_file_ms      the same for `cat src/main.c | grep x`,
 *                              whose file the kernel's final rules judge
 *                              (the sandbox value is built in the process)
 *   check_process_200_rules_ms the first with the 200-rule policy
 *   true_process_ms            /bin/true spawned the same way: the
 *                              baseline
 *   check_over_true, check_file_over_true  the ratios
 *   check_process_cpu_ms, check_process_file_cpu_ms, true_process_cpu_ms
 *                              the medians of the child's CPU time (user +
 *                              system), less moved by other load
 * The policy: 100 file rules (two globs each, one in ten unanchored) and
 * 100 bash rules (two command rules each: prefix, exact or glob, over 25
 * real program names). XDG_CONFIG_HOME points at an empty directory, so
 * that no user policy of the machine joins in.
 * The tool is $LANDFENCE_BIN, else the landfence beside the build's bench/.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/model.h"
#include "landfence.h"

extern char **environ;

#define NRULES 200

static double clock_s(clockid_t id)
{
	struct timespec ts;
	clock_gettime(id, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double now(void)
{
	return clock_s(CLOCK_MONOTONIC);
}

static double cpu_now(void)
{
	return clock_s(CLOCK_PROCESS_CPUTIME_ID);
}

/* 100 file rules and 100 bash rules of two command rules each. */
static char *policy_json(void)
{
	static const char *const caps[] = { "read", "write", "delete" };
	static const char *const effects[] = { "allow", "ask", "deny" };
	static const char *const progs[] = {
		"git",	  "npm",   "cargo",	"docker", "kubectl", "make",  "python3",
		"pip",	  "go",	   "node",	"yarn",	  "pnpm",    "rm",    "curl",
		"wget",	  "ssh",   "terraform", "helm",	  "gcc",     "clang", "cmake",
		"pytest", "rsync", "tar",	"chmod",
	};
	static const char *const subs[] = { "push", "run", "install", "build" };
	size_t cap = 1 << 16, n = 0;
	char *s = malloc(cap);

	if (!s)
		return NULL;
	n += (size_t)snprintf(s + n, cap - n, "{\"version\":1,\"fallback\":\"ask\",\"rules\":[\n");
	/* mostly anchored globs, as policies are written; one in ten
	 * matches at any depth */
	for (int i = 0; i < NRULES / 2; i++)
		n += (size_t)snprintf(s + n, cap - n,
				      "{\"effect\":\"%s\",\"capability\":\"%s\",\"paths\":"
				      "[\"dir%d/**\",\"%sd%d/*.x%d\"]},\n",
				      effects[i % 3], caps[i % 3], i, i % 10 ? "src/" : "**/", i,
				      i);
	/* command rules over real program names: several share a program
	 * (git push, git run, ...), as policies do */
	for (int i = 0; i < NRULES / 2; i++)
		n += (size_t)snprintf(s + n, cap - n,
				      "{\"effect\":\"allow\",\"capability\":\"bash\",\"commands\":["
				      "{\"effect\":\"%s\",\"prefix\":\"%s %s\"},"
				      "{\"effect\":\"%s\",\"%s\":\"%s %s%d%s\"}]}%s\n",
				      effects[i % 3], progs[i % 25], subs[i / 25],
				      effects[(i + 1) % 3], i % 2 ? "glob" : "exact",
				      progs[(i + 7) % 25], subs[i / 25], i, i % 2 ? " *" : "",
				      i + 1 < NRULES / 2 ? "," : "");
	snprintf(s + n, cap - n, "]}\n");
	return s;
}

/* The policy of SPEC §4's example: what a project typically writes. */
static const char small_policy[] =
	"{\"version\":1,\"fallback\":\"ask\",\"rules\":["
	"{\"effect\":\"allow\",\"capability\":\"read\",\"paths\":[\"**\"]},"
	"{\"effect\":\"allow\",\"capability\":\"write\",\"paths\":[\"src/**\",\"tests/**\"]},"
	"{\"effect\":\"deny\",\"capability\":\"write\",\"paths\":[\".git/hooks/**\"]},"
	"{\"effect\":\"deny\",\"capability\":\"delete\",\"paths\":[\".git/**\"]},"
	"{\"effect\":\"allow\",\"capability\":\"bash\",\"commands\":["
	"{\"effect\":\"deny\",\"prefix\":\"git push\"},"
	"{\"effect\":\"ask\",\"glob\":\"npm run *\"},"
	"{\"effect\":\"allow\",\"exact\":\"make test\"}]}]}\n";

static const char *const lines[] = {
	"git status && git diff --stat",
	"npm run build > build.log 2>&1",
	"ls -la src | grep main",
	"cat src/main.c",
	"sh -c 'make test'",
	"git push origin main && docker build -t x .",
	"find . -name '*.o' | xargs rm -f",
	"cd sub && FOO=1 timeout 30 make -j8 check",
};

static const char *const trivial[] = { "ls" };

/* The grammar the parser covers, as agents write it. */
static const char *const grammar[] = {
	"cat > src/notes.txt <<'EOF'\nline one\n$HOME stays\nEOF\ngit add src/notes.txt",
	"for f in src/*.c; do gcc -c \"$f\" -o \"${f%.c}.o\"; done",
	"case \"$1\" in build) make ;; test|check) make test ;; *) echo usage >&2 ;; esac",
	"if [[ -f Makefile && $(uname) == Linux ]]; then make -j4; else cmake -B out; fi",
	"f() { grep -rn \"$1\" src | head -20; }; f TODO",
	"printf $'%s\\t%s\\n' a b | sort -u | tee src/out.tsv",
	"while read -r l; do echo \"${l,,}\"; done < src/in.txt",
	"coproc W { sleep 1; }; time { git log --oneline -n 5; }",
};

/* Calls of lf_effective_decide_bash per second of process CPU time,
 * over the lines in turn, for about a second. < 0 on failure. */
static double decide_rate(const struct lf_effective *eff, const char *const *set, size_t n)
{
	struct lf_verdict v;
	size_t count = 0;
	double t0 = cpu_now(), t;

	do {
		for (int k = 0; k < 1000; k++, count++)
			if (lf_effective_decide_bash(eff, "/work/proj", set[count % n], &v) != 0)
				return -1;
		t = cpu_now();
	} while (t - t0 < 1.0);
	return (double)count / (t - t0);
}

/* lf_advisor_bash per second of process CPU time in the project at dir
 * (the small policy as a local layer), the sandbox value built before
 * timing. < 0 on failure. */
static double advisor_rate(const char *dir, const char *policy)
{
	const char *files[] = { policy };
	struct lf_project_opts o = LF_PROJECT_OPTS_INIT;
	struct lf_project *p = NULL;
	struct lf_advisor *a = NULL;
	struct lf_advice ad;
	struct lf_diag d;
	size_t nl = sizeof(lines) / sizeof(lines[0]), count = 0;
	double rate = -1, t0, t;

	o.directory = dir;
	o.policy_files = files;
	o.npolicy_files = 1;
	if (lf_project_open(&o, &p, &d) != 0 || lf_advisor_new(p, NULL, 0, &a) != 0 ||
	    lf_advisor_file(a, LF_CAP_READ, "src/main.c", NULL, &ad) != 0)
		goto out;
	t0 = cpu_now();
	do {
		for (int k = 0; k < 100; k++, count++)
			if (lf_advisor_bash(a, lines[count % nl], NULL, &ad) != 0)
				goto out;
		t = cpu_now();
	} while (t - t0 < 1.0);
	rate = (double)count / (t - t0);
out:
	lf_advisor_free(a);
	lf_project_free(p);
	return rate;
}

/* One spawn and wait: wall time and the child's CPU time (user +
 * system), in milliseconds; < 0 on failure. */
static double spawn_once(char *const argv[], double *cpu_ms)
{
	posix_spawn_file_actions_t fa;
	struct rusage ru;
	pid_t pid;
	int st, r;

	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	double t = now();
	r = posix_spawn(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (r != 0 || wait4(pid, &st, 0, &ru) != pid)
		return -1;
	double wall = (now() - t) * 1000.0;
	*cpu_ms = (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000.0 +
		  (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1000.0;
	return wall;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

#define RUNS 301

/* The medians of RUNS spawns of each command (wall into out, CPU into
 * cpu), interleaved so that a change in machine load hits them alike. */
static int spawn_medians(char *const *const argvs[], size_t n, double *out, double *cpu)
{
	static double t[4][RUNS], c[4][RUNS];

	if (n > 4)
		return -1;
	for (int i = 0; i < RUNS; i++)
		for (size_t k = 0; k < n; k++)
			if ((t[k][i] = spawn_once(argvs[k], &c[k][i])) < 0)
				return -1;
	for (size_t k = 0; k < n; k++) {
		qsort(t[k], RUNS, sizeof(double), cmp_double);
		qsort(c[k], RUNS, sizeof(double), cmp_double);
		out[k] = t[k][RUNS / 2];
		cpu[k] = c[k][RUNS / 2];
	}
	return 0;
}

static char *path_in(char *buf, const char *dir, const char *name)
{
	snprintf(buf, PATH_MAX, "%s/%s", dir, name);
	return buf;
}

static int file_write(const char *path, const char *text)
{
	FILE *f = fopen(path, "we");

	if (!f)
		return -1;
	int r = fputs(text, f) < 0;
	return fclose(f) != 0 || r ? -1 : 0;
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path) != 0 && errno != ENOENT ? -1 : 0;
}

int main(int argc, char **argv)
{
	char bin[PATH_MAX], dir[] = "/tmp/lf-bench-check-XXXXXX", pol[PATH_MAX], small[PATH_MAX],
			    cfg[PATH_MAX], tmp[PATH_MAX], file_line[] = "cat src/main.c | grep x";
	const char *env = getenv("LANDFENCE_BIN");

	if (argc > 1)
		env = argv[1];
	if (env && env[0]) {
		snprintf(bin, sizeof(bin), "%s", env);
	} else {
		ssize_t n = readlink("/proc/self/exe", bin, sizeof(bin) - 1);
		if (n < 0)
			return 1;
		bin[n] = '\0';
		char *slash = strrchr(bin, '/');
		if (slash)
			*slash = '\0';
		strncat(bin, "/../../landfence", sizeof(bin) - strlen(bin) - 1);
	}

	char *text = policy_json();
	struct lf_policy *p = NULL;
	struct lf_effective *eff = NULL;
	struct lf_diag d;
	if (!text || lf_policy_parse(text, strlen(text), "bench.json", LF_LAYER_PROJECT, &p, &d)) {
		fprintf(stderr, "bench-check: cannot build the policy: %s\n", d.message);
		return 1;
	}
	const struct lf_policy *layers[] = { p };
	if (lf_effective_resolve(layers, 1, &eff) != 0)
		return 1;

	double per_sec = decide_rate(eff, lines, sizeof(lines) / sizeof(lines[0]));
	double trivial_per_sec = decide_rate(eff, trivial, 1);
	double grammar_per_sec = decide_rate(eff, grammar, sizeof(grammar) / sizeof(grammar[0]));
	if (per_sec < 0 || trivial_per_sec < 0 || grammar_per_sec < 0)
		return 1;

	/* a project: a git directory, sources, an empty configuration home */
	if (!mkdtemp(dir) || setenv("XDG_CONFIG_HOME", path_in(cfg, dir, "config"), 1) != 0 ||
	    mkdir(cfg, 0700) != 0 || mkdir(path_in(tmp, dir, ".git"), 0700) != 0 ||
	    mkdir(path_in(tmp, dir, "src"), 0700) != 0 ||
	    file_write(path_in(tmp, dir, "src/main.c"), "int main(void) { return 0; }\n") ||
	    file_write(path_in(pol, dir, "policy.json"), text) ||
	    file_write(path_in(small, dir, "small.json"), small_policy)) {
		fprintf(stderr, "bench-check: cannot make the project in %s\n", dir);
		return 1;
	}
	double advisor_per_sec = advisor_rate(dir, small);

	/* one process per decision, as an agent's hook runs it */
	char *check_argv[] = { bin,  "check",	       "-C", dir, "-p", small, "bash",
			       "--", (char *)lines[0], NULL };
	char *check_file_argv[] = { bin,   "check", "-C", dir,	     "-p",
				    small, "bash",  "--", file_line, NULL };
	char *check200_argv[] = { bin,	"check",	  "-C", dir, "-p", pol, "bash",
				  "--", (char *)lines[0], NULL };
	char *true_argv[] = { "/bin/true", NULL };
	char *const *const argvs[] = { check_argv, check_file_argv, check200_argv, true_argv };
	double ms[4], cpu[4], warm;
	for (int i = 0; i < 10; i++) /* warm the page cache */
		spawn_once(check_file_argv, &warm);
	int failed = spawn_medians(argvs, 4, ms, cpu);
	double check_ms = ms[0], check_file_ms = ms[1], check200_ms = ms[2], true_ms = ms[3];
	nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
	if (failed || advisor_per_sec < 0) {
		fprintf(stderr, "bench-check: cannot run %s\n", failed ? bin : "lf_advisor_bash");
		return 1;
	}
	printf("check_process_ms: %.3f\n", check_ms);
	printf("check_process_file_ms: %.3f\n", check_file_ms);
	printf("true_process_ms: %.3f\n", true_ms);
	printf("check_over_true: %.2f\n", check_ms / true_ms);
	printf("check_file_over_true: %.2f\n", check_file_ms / true_ms);
	printf("check_process_200_rules_ms: %.3f\n", check200_ms);
	printf("check_process_cpu_ms: %.3f\n", cpu[0]);
	printf("check_process_file_cpu_ms: %.3f\n", cpu[1]);
	printf("true_process_cpu_ms: %.3f\n", cpu[3]);
	printf("bash_decisions_per_sec: %.0f\n", per_sec);
	printf("bash_trivial_decisions_per_sec: %.0f\n", trivial_per_sec);
	printf("bash_grammar_decisions_per_sec: %.0f\n", grammar_per_sec);
	printf("bash_everyday_over_trivial: %.2f\n", trivial_per_sec / per_sec);
	printf("advisor_bash_per_sec: %.0f\n", advisor_per_sec);
	printf("bash_policy_rules: %d\n", NRULES);
	lf_effective_free(eff);
	lf_policy_free(p);
	free(text);
	return 0;
}
