/* SPDX-License-Identifier: MIT */
/*
 * The network in the sandbox value: open by default; a policy's "network"
 * restricts TCP to its ports, layers pooled by intersection; the status at
 * every ABI (KernelTooOld under fallback deny below ABI 4, Degraded
 * otherwise); the ruleset's port rules, applied in a forked child that
 * connects and binds on loopback for real.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/model.h"
#include "landfence.h"
#include "landlock/compat.h"
#include "landlock/sandbox.h"
#include "../enforce.h"

struct world {
	struct lf_policy *layers[2];
	size_t n;
	struct lf_effective *e;
	struct lf_plan *plan;
	struct lf_sandbox *sb;
	struct lf_diag diag;
	int rc;
};

/* Parses the layers, compiles the value at ABI abi (0: none). */
static void world(struct world *w, const char *const *texts, size_t n, int abi)
{
	struct lf_context ctx = { .project_root = "/tmp" };
	struct lf_sandbox_opts o = LF_SANDBOX_OPTS_INIT;

	memset(w, 0, sizeof(*w));
	for (size_t i = 0; i < n; i++)
		assert_int_equal(lf_policy_parse(texts[i], strlen(texts[i]), "t.json",
						 LF_LAYER_LOCAL, &w->layers[i], &w->diag),
				 0);
	w->n = n;
	assert_int_equal(lf_effective_resolve((const struct lf_policy *const *)w->layers, n, &w->e),
			 0);
	assert_int_equal(lf_plan_compile(w->e, &ctx, &w->plan), 0);
	o.project_root = "/tmp";
	o.abi_max = abi == 0 ? LF_ABI_NONE : abi;
	w->rc = lf_sandbox_new(w->e, w->plan, &o, &w->sb, &w->diag);
}

static void world_fini(struct world *w)
{
	lf_sandbox_free(w->sb);
	lf_plan_free(w->plan);
	lf_effective_free(w->e);
	for (size_t i = 0; i < w->n; i++)
		lf_policy_free(w->layers[i]);
}

static const struct lf_sandbox_port *port_of(const struct lf_sandbox *sb, unsigned port)
{
	for (size_t i = 0; i < lf_sandbox_port_count(sb); i++)
		if (lf_sandbox_port(sb, i)->port == port)
			return lf_sandbox_port(sb, i);
	return NULL;
}

static void test_default_open(void **state)
{
	/* Fallback ask: the value is built whatever the ABI (valgrind sees
	 * no Landlock). */
	const char *const p[] = { "{\"version\": 1, \"fallback\": \"ask\"}" };
	struct world w;
	char *text = NULL;
	(void)state;

	world(&w, p, 1, 7);
	assert_int_equal(w.rc, 0);
	assert_false(lf_sandbox_network_restricted(w.sb));
	assert_int_equal(lf_sandbox_handled_net(w.sb), 0);
	assert_int_equal(lf_sandbox_port_count(w.sb), 0);
	assert_int_equal(lf_sandbox_describe(w.sb, &text), 0);
	assert_null(strstr(text, "\nnet "));
	free(text);
	world_fini(&w);
}

/* Two layers restrict: a port is allowed only where both allow it. */
static void test_layers_intersect(void **state)
{
	const char *const p[] = {
		"{\"version\": 1, \"network\": {\"connect\": [443, 80, 22], \"bind\": [0, 8080]}}",
		"{\"version\": 1, \"network\": {\"connect\": [443, 22, 8443]}}",
	};
	struct world w;
	char *text = NULL;
	(void)state;

	world(&w, p, 2, 7);
	assert_int_equal(w.rc, 0);
	assert_true(lf_sandbox_network_restricted(w.sb));
	/* Handled only where the ABI in use has network rules. */
	assert_int_equal(lf_sandbox_handled_net(w.sb),
			 lf_sandbox_abi(w.sb) >= 4
				 ? LANDLOCK_ACCESS_NET_BIND_TCP | LANDLOCK_ACCESS_NET_CONNECT_TCP
				 : 0);
	assert_int_equal(lf_sandbox_port_count(w.sb), 2);
	assert_non_null(port_of(w.sb, 22));
	assert_true(port_of(w.sb, 443)->connect && !port_of(w.sb, 443)->bind);
	assert_null(port_of(w.sb, 80));
	assert_null(port_of(w.sb, 8080));		      /* the second layer binds nothing */
	assert_int_equal(lf_sandbox_port(w.sb, 0)->port, 22); /* in port order */
	assert_int_equal(lf_sandbox_describe(w.sb, &text), 0);
	assert_non_null(strstr(text, "net tcp restricted\n"));
	assert_non_null(strstr(text, "net port 443 connect\n"));
	free(text);
	world_fini(&w);
}

/* Below ABI 4: KernelTooOld under fallback deny; Degraded otherwise,
 * nothing handled; no Landlock at all: Unsupported as ever. */
static void test_status_per_abi(void **state)
{
	static const char *const deny[] = {
		"{\"version\": 1, \"fallback\": \"deny\", \"network\": {\"connect\": [443]}}"
	};
	static const char *const ask[] = {
		"{\"version\": 1, \"fallback\": \"ask\", \"network\": {\"connect\": [443]}}"
	};
	struct world w;
	(void)state;

	for (int abi = 1; abi <= 7; abi++) {
		if (lf_landlock_abi(-1) < abi)
			break;
		world(&w, deny, 1, abi);
		if (abi < 4) {
			assert_int_equal(w.rc, -EOPNOTSUPP);
			assert_non_null(strstr(w.diag.message, "KernelTooOld"));
			/* Below ABI 3 truncate is missing first. */
			if (abi == 3)
				assert_non_null(strstr(w.diag.message, "restricts TCP"));
		} else {
			assert_int_equal(w.rc, 0);
			assert_int_equal(lf_sandbox_status(w.sb)->kind, LF_STATUS_ENFORCED);
		}
		world_fini(&w);
		world(&w, ask, 1, abi);
		assert_int_equal(w.rc, 0);
		if (abi == 3) {
			assert_int_equal(lf_sandbox_status(w.sb)->kind, LF_STATUS_DEGRADED);
			assert_int_equal(lf_sandbox_handled_net(w.sb), 0);
			assert_non_null(
				strstr(lf_sandbox_status(w.sb)->reason, "needs Landlock ABI 4"));
		}
		if (abi >= 4)
			assert_int_not_equal(lf_sandbox_handled_net(w.sb), 0);
		world_fini(&w);
	}
}

static int listener(uint16_t *port)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	assert_true(fd >= 0);
	assert_int_equal(bind(fd, (struct sockaddr *)&a, sizeof(a)), 0);
	assert_int_equal(listen(fd, 8), 0);
	assert_int_equal(getsockname(fd, (struct sockaddr *)&a, &len), 0);
	*port = ntohs(a.sin_port);
	return fd;
}

/* connect (bind == false) or bind to 127.0.0.1:port; 0 or errno. */
static int try_port(uint16_t port, bool bind_it)
{
	struct sockaddr_in a = { .sin_family = AF_INET,
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK),
				 .sin_port = htons(port) };
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), r;

	if (fd < 0)
		return errno;
	r = bind_it ? bind(fd, (struct sockaddr *)&a, sizeof(a))
		    : connect(fd, (struct sockaddr *)&a, sizeof(a));
	r = r < 0 ? errno : 0;
	close(fd);
	return r;
}

/* The real thing: the value's ruleset applied in a child, which connects
 * to one listener and not the other, and binds one port and not another. */
static void test_enforced_on_loopback(void **state)
{
	uint16_t ok, other, bind_ok, bind_other;
	int l1, l2, fd;
	char text[256];
	(void)state;
	NEED_LANDLOCK();

	if (lf_landlock_abi(-1) < 4) {
		if (must_enforce())
			fail_msg("Landlock ABI %d has no network rules", lf_landlock_abi(-1));
		skip();
	}
	l1 = listener(&ok);
	l2 = listener(&other);
	/* Two free ports to bind: listened on briefly, then closed. */
	fd = listener(&bind_ok);
	close(fd);
	fd = listener(&bind_other);
	close(fd);
	snprintf(text, sizeof(text),
		 "{\"version\": 1, \"fallback\": \"allow\", \"network\": {\"connect\": [%u], "
		 "\"bind\": [%u]}}",
		 ok, bind_ok);
	const char *const p[] = { text };
	struct world w;
	world(&w, p, 1, 7);
	assert_int_equal(w.rc, 0);
	int rfd = -1;
	assert_int_equal(lf_sandbox_ruleset_fd(w.sb, &rfd, &w.diag), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 || lf_landlock_restrict(rfd) < 0)
			_exit(100);
		int code = (try_port(ok, false) == 0 ? 0 : 1) |
			   (try_port(other, false) == EACCES ? 0 : 2) |
			   (try_port(bind_ok, true) == 0 ? 0 : 4) |
			   (try_port(bind_other, true) == EACCES ? 0 : 8);
		_exit(code);
	}
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	if (WEXITSTATUS(st) != 0)
		fail_msg("network rules: exit %d (1 allowed connect refused, 2 other connect not "
			 "EACCES, 4 allowed bind refused, 8 other bind not EACCES)",
			 WEXITSTATUS(st));
	close(rfd);
	close(l1);
	close(l2);
	world_fini(&w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default_open),
		cmocka_unit_test(test_layers_intersect),
		cmocka_unit_test(test_status_per_abi),
		cmocka_unit_test(test_enforced_on_loopback),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
