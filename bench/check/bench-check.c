/* SPDX-License-Identifier: MIT */
/*
 * The advisory guard's cost (a benchmark, never a test):
 *   check_process_ms        wall time of one `landfence check bash -- LINE`
 *                           process with SPEC §4's example policy, the
 *                           latency an agent pays per tool call
 *   check_process_200_rules_ms  the same with the 200-rule policy
 *   true_process_ms         /bin/true spawned the same way
 *   check_over_true         their ratio
 *   bash_decisions_per_sec  lf_decide_bash in-process on a 200-rule policy
 * The policy: 100 file rules (two globs each, one in ten unanchored) and
 * 100 bash rules (two command rules each: prefix, exact or glob, over 25
 * real program names).
 * Process times are medians of interleaved runs.
 * The tool is $LANDFENCE_BIN, else the landfence beside the build's bench/.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/model.h"
#include "landfence.h"

extern char **environ;

#define NRULES 200

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
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

/* One spawn and wait, in milliseconds; < 0 on failure. */
static double spawn_once(char *const argv[])
{
	posix_spawn_file_actions_t fa;
	pid_t pid;
	int st, r;

	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	double t = now();
	r = posix_spawn(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (r != 0 || waitpid(pid, &st, 0) != pid)
		return -1;
	return (now() - t) * 1000.0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

#define RUNS 301

/* The median of RUNS spawns of each command, interleaved so that a
 * change in machine load hits them alike. */
static int spawn_medians(char *const *const argvs[], size_t n, double *out)
{
	static double t[4][RUNS];

	if (n > 4)
		return -1;
	for (int i = 0; i < RUNS; i++)
		for (size_t k = 0; k < n; k++)
			if ((t[k][i] = spawn_once(argvs[k])) < 0)
				return -1;
	for (size_t k = 0; k < n; k++) {
		qsort(t[k], RUNS, sizeof(double), cmp_double);
		out[k] = t[k][RUNS / 2];
	}
	return 0;
}

int main(int argc, char **argv)
{
	char bin[PATH_MAX], dir[] = "/tmp/lf-bench-check-XXXXXX", pol[PATH_MAX], small[PATH_MAX];
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

	/* in-process: about a second of decisions */
	size_t nl = sizeof(lines) / sizeof(lines[0]), count = 0;
	struct lf_verdict v;
	double t0 = now(), t;
	do {
		for (int k = 0; k < 1000; k++, count++)
			if (lf_effective_decide_bash(eff, "/work/proj", lines[count % nl], &v) != 0)
				return 1;
		t = now();
	} while (t - t0 < 1.0);
	double per_sec = (double)count / (t - t0);

	/* one process per decision, as an agent's hook runs it */
	if (!mkdtemp(dir))
		return 1;
	snprintf(pol, sizeof(pol), "%s/policy.json", dir);
	FILE *f = fopen(pol, "we");
	if (!f || fputs(text, f) < 0 || fclose(f) != 0)
		return 1;
	snprintf(small, sizeof(small), "%s/small.json", dir);
	f = fopen(small, "we");
	if (!f || fputs(small_policy, f) < 0 || fclose(f) != 0)
		return 1;
	char *check_argv[] = { bin,  "check",	       "-C", dir, "-p", small, "bash",
			       "--", (char *)lines[0], NULL };
	char *check200_argv[] = { bin,	"check",	  "-C", dir, "-p", pol, "bash",
				  "--", (char *)lines[0], NULL };
	char *true_argv[] = { "/bin/true", NULL };
	char *const *const argvs[] = { check_argv, check200_argv, true_argv };
	double ms[3];
	for (int i = 0; i < 10; i++) /* warm the page cache */
		spawn_once(check_argv);
	int failed = spawn_medians(argvs, 3, ms);
	double check_ms = ms[0], check200_ms = ms[1], true_ms = ms[2];
	unlink(small);
	unlink(pol);
	rmdir(dir);
	if (failed) {
		fprintf(stderr, "bench-check: cannot run %s\n", bin);
		return 1;
	}
	printf("check_process_ms: %.3f\n", check_ms);
	printf("true_process_ms: %.3f\n", true_ms);
	printf("check_over_true: %.2f\n", check_ms / true_ms);
	printf("check_process_200_rules_ms: %.3f\n", check200_ms);
	printf("bash_decisions_per_sec: %.0f\n", per_sec);
	printf("bash_policy_rules: %d\n", NRULES);
	lf_effective_free(eff);
	lf_policy_free(p);
	free(text);
	return 0;
}
