/* SPDX-License-Identifier: MIT */
/*
 * bench-masks: what the private mount namespace of precise denies costs
 * per launch (doc/landlock.md, "Masks"), against a bare child, measured
 * in the same run. A benchmark, not a test (bench/README.md).
 *
 * A project of 20 directories is compiled into a sandbox value whose
 * policy hides ten and makes ten read-only: 20 masks, and the project
 * root bound nodev,nosuid. Then, alternately, N times each:
 *   bare   a CLONE_VM | CLONE_VFORK child that exits at once (the
 *          launcher's own clone);
 *   ns     the same child entering the namespace of the value (unshare,
 *          the id maps when unprivileged, private propagation, the tmpfs
 *          stage, every bind and mask, the working directory) and
 *          exiting: what a launch adds, the namespace's teardown included;
 *   empty  the same with a value that has no mask (only the nodev bind):
 *          the namespace alone.
 * Prints medians and means of wall time per child, the masks' cost
 * (ns - bare) and the namespace's own (empty - bare).
 */
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/model.h"
#include "core/sandbox.h"
#include "landfence.h"
#include "launch/mountns.h"

#define NMASKS 20

static double now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

struct arg {
	const struct lf_ns_plan *plan; /* NULL: the bare child */
};

__attribute__((no_sanitize("address", "undefined"))) static int child(void *p)
{
	const struct arg *a = p;
	int step, op;

	if (a->plan && lf_ns_enter(a->plan, a->plan->userns_fd, &step, &op) < 0)
		_exit(1);
	_exit(0);
}

static char *stack_top;

/* One child, waited for: its wall time in ms, or a negative value. */
static double one(const struct arg *a)
{
	double t0 = now_ms();
	int st;
	pid_t pid = clone(child, stack_top, CLONE_VM | CLONE_VFORK | SIGCHLD, (void *)a);

	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st))
		return -1;
	return now_ms() - t0;
}

static int value_for(const char *root, const char *policy, struct lf_sandbox **sb)
{
	struct lf_policy *p = NULL;
	struct lf_effective *e = NULL;
	struct lf_plan *plan = NULL;
	struct lf_diag d;
	int r = lf_policy_parse(policy, strlen(policy), "bench.json", LF_LAYER_LOCAL, &p, &d);

	if (r == 0) {
		const struct lf_policy *layers[] = { p };
		r = lf_effective_resolve(layers, 1, &e);
	}
	struct lf_context ctx = { .project_root = root };
	if (r == 0)
		r = lf_plan_compile(e, &ctx, &plan);
	struct lf_sandbox_opts o = { .size = sizeof(o), .project_root = root };
	if (r == 0)
		r = lf_sandbox_new(e, plan, &o, sb, &d);
	if (r < 0)
		fprintf(stderr, "bench-masks: %s\n", d.message);
	lf_plan_free(plan);
	lf_effective_free(e);
	lf_policy_free(p);
	return r;
}

int main(int argc, char **argv)
{
	int runs = argc > 1 ? atoi(argv[1]) : 300;
	char tmpl[] = "/tmp/lf-bench-masks.XXXXXX", root[PATH_MAX], policy[4096],
	     path[PATH_MAX + 8];
	struct lf_sandbox *masked = NULL, *plain = NULL;
	struct lf_ns_plan pm, pp;
	size_t n = 0;

	if (runs < 10)
		runs = 10;
	if (!mkdtemp(tmpl) || !realpath(tmpl, root))
		return 1;
	n = (size_t)snprintf(
		policy, sizeof(policy),
		"{\"version\": 1, \"fallback\": \"deny\", \"rules\": ["
		"{\"effect\": \"allow\", \"capability\": \"read\", \"paths\": [\"**\"]},"
		"{\"effect\": \"allow\", \"capability\": \"write\", \"paths\": [\"**\"]}");
	for (int i = 0; i < NMASKS; i++) {
		snprintf(path, sizeof(path), "%s/d%02d", root, i);
		mkdir(path, 0755);
		n += (size_t)snprintf(policy + n, sizeof(policy) - n,
				      ",{\"effect\": \"deny\", \"capability\": \"%s\", "
				      "\"paths\": [\"d%02d/**\"]}",
				      i % 2 ? "write" : "read", i);
	}
	snprintf(policy + n, sizeof(policy) - n, "]}");
	static const char plain_policy[] =
		"{\"version\": 1, \"fallback\": \"deny\", \"rules\": ["
		"{\"effect\": \"allow\", \"capability\": \"read\", \"paths\": [\"**\"]},"
		"{\"effect\": \"allow\", \"capability\": \"write\", \"paths\": [\"**\"]}]}";
	if (value_for(root, policy, &masked) < 0 || value_for(root, plain_policy, &plain) < 0)
		return 1;
	const struct lf_namespace *ns = lf_sandbox_namespace(masked);
	if (!ns->available) {
		printf("masks: skipped (no mount namespace here: %s)\n", ns->failed);
		return 0;
	}
	size_t project_masks = 0;
	for (size_t i = 0; i < lf_sandbox_mask_count(masked); i++)
		project_masks += !strncmp(lf_sandbox_mask(masked, i)->path, root, strlen(root));
	if (lf_ns_plan_build(masked, root, &pm) < 0 || lf_ns_plan_build(plain, root, &pp) < 0)
		return 1;

	size_t page = (size_t)sysconf(_SC_PAGESIZE), total = 256 * 1024 + page;
	char *map = mmap(NULL, total, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
	if (map == MAP_FAILED)
		return 1;
	stack_top = map + total;

	double *t[3];
	struct arg args[3] = { { NULL }, { &pm }, { &pp } };
	for (int k = 0; k < 3; k++)
		t[k] = calloc((size_t)runs, sizeof(double));
	for (int k = 0; k < 3; k++)
		(void)one(&args[k]); /* warm up */
	for (int i = 0; i < runs; i++)
		for (int k = 0; k < 3; k++)
			if ((t[k][i] = one(&args[k])) < 0) {
				fprintf(stderr, "bench-masks: a child failed\n");
				return 1;
			}
	double med[3], mean[3];
	for (int k = 0; k < 3; k++) {
		double s = 0;
		for (int i = 0; i < runs; i++)
			s += t[k][i];
		mean[k] = s / runs;
		qsort(t[k], (size_t)runs, sizeof(double), cmp_double);
		med[k] = t[k][runs / 2];
	}
	printf("masks_runs: %d\n", runs);
	printf("masks_namespace: %s\n", ns->user ? "user+mount (unprivileged)" : "mount (root)");
	printf("masks_value: %zu masks (%zu in the project, the rest /etc), %zu pins, %zu nodev "
	       "binds, %zu mounts\n",
	       ns->nmasks, project_masks, ns->npins, ns->nnodev, ns->nmounts);
	printf("masks_bare_child_ms (median, mean): %.3f, %.3f\n", med[0], mean[0]);
	printf("masks_ns_child_ms (median, mean): %.3f, %.3f\n", med[1], mean[1]);
	printf("masks_empty_ns_child_ms (median, mean): %.3f, %.3f\n", med[2], mean[2]);
	printf("masks_cost_per_launch_ms (ns - bare; median, mean): %.3f, %.3f\n", med[1] - med[0],
	       mean[1] - mean[0]);
	printf("masks_namespace_alone_ms (empty - bare; median, mean): %.3f, %.3f\n",
	       med[2] - med[0], mean[2] - mean[0]);
	printf("masks_per_mask_us (ns - empty, per mount; median): %.1f\n",
	       (med[1] - med[2]) * 1000.0 /
		       (double)(ns->nmounts > lf_sandbox_namespace(plain)->nmounts
					? ns->nmounts - lf_sandbox_namespace(plain)->nmounts
					: 1));
	lf_ns_plan_fini(&pm);
	lf_ns_plan_fini(&pp);
	lf_sandbox_free(masked);
	lf_sandbox_free(plain);
	for (int k = 0; k < 3; k++)
		free(t[k]);
	munmap(map, total);
	char cmd[PATH_MAX + 16];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	return system(cmd) == 0 ? 0 : 1;
}
