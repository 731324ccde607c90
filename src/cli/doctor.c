/* SPDX-License-Identifier: MIT */
/*
 * landfence doctor [--json]: what this kernel can enforce.
 *
 * Exit status: 0 when every right and hardening landfence uses is
 * enforceable here, 1 when something is missing (the sandbox would be
 * Degraded or Unsupported for some policy), 125 on an internal error.
 */
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <linux/seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "cli/apparmor.h"
#include "cli/cli.h"

struct feature {
	const char *name;
	const char *what;
	int abi; /* Landlock ABI that brings it; 0: not a Landlock feature */
	bool ok;
	bool needed; /* landfence relies on it */
};

static bool have_seccomp_filter(void)
{
	unsigned act = SECCOMP_RET_ERRNO;
#ifdef SYS_seccomp
	if (syscall(SYS_seccomp, SECCOMP_GET_ACTION_AVAIL, 0, &act) == 0)
		return true;
#endif
	/* Kernels before 4.14 lack GET_ACTION_AVAIL; EINVAL from the mode
	 * query means no seccomp at all. */
	return prctl(PR_GET_SECCOMP, 0, 0, 0, 0) >= 0;
}

static bool have_nnp(void)
{
	return prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) >= 0;
}

static bool have_close_range(void)
{
	/* An empty range at the top: closes nothing, fails only with ENOSYS. */
	return close_range(~0U - 1, ~0U - 1, 0) == 0;
}

/* What doctor found: the kernel, the probe, the features. */
struct report {
	struct utsname u;
	struct lf_abi_probe p;
	struct feature *f;
	size_t nf;
	bool all; /* every feature landfence relies on is there */
	const char *hint;
	struct lf_apparmor_userns aa; /* Ubuntu's user-namespace restriction */
	bool ns, ns_user;	      /* the mount-namespace probe */
	char ns_failed[256];
};

static int print_json(const struct report *rp)
{
	json_t *root = json_object(), *feats = json_object();
	char *text;

	if (!root || !feats) {
		json_decref(root);
		json_decref(feats);
		return LF_EXIT_OWN;
	}
	json_object_set_new(root, "kernel", json_string(rp->u.release));
	json_object_set_new(root, "machine", json_string(rp->u.machine));
	json_object_set_new(root, "landlock_kernel_abi", json_integer(rp->p.kernel));
	json_object_set_new(root, "landlock_abi", json_integer(rp->p.abi));
	json_object_set_new(root, "abi_cap",
			    rp->p.cap >= 0 ? json_integer(rp->p.cap) : json_null());
	for (size_t i = 0; i < rp->nf; i++)
		json_object_set_new(feats, rp->f[i].name, json_boolean(rp->f[i].ok));
	json_object_set_new(root, "features", feats);
	json_object_set_new(root, "complete", json_boolean(rp->all));
	json_object_set_new(root, "network_restricted_by_default", json_false());
	json_object_set_new(root, "hint", rp->hint ? json_string(rp->hint) : json_null());
	json_object_set_new(root, "apparmor_restrict_unprivileged_userns",
			    rp->aa.restrict_userns >= 0 ? json_integer(rp->aa.restrict_userns)
							: json_null());
	json_object_set_new(root, "apparmor_label",
			    rp->aa.label[0] ? json_string(rp->aa.label) : json_null());
	json_object_set_new(root, "mount_namespace",
			    json_pack("{s:b, s:b, s:s?}", "available", rp->ns, "user", rp->ns_user,
				      "failed", rp->ns ? NULL : rp->ns_failed));
	text = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	json_decref(root);
	if (!text)
		return LF_EXIT_OWN;
	puts(text);
	free(text);
	return rp->all ? LF_EXIT_OK : 1;
}

/* What no ABI fences, said plainly whatever the kernel. */
static void print_limits(void)
{
	printf("Network access is not restricted by default: a sandboxed program can connect "
	       "to any host on any port, and send what it can read. A policy's \"network\" "
	       "section restricts TCP connect and bind to the ports it lists (Landlock ABI 4; "
	       "UDP, DNS among it, stays open).\n");
	printf("Not fenced on any kernel yet: named UNIX sockets. A sandboxed program can "
	       "connect(2) to a socket by path (ssh-agent, D-Bus, docker.sock) if it knows "
	       "the path; the environment scrub removes the usual addresses.\n");
	printf("Not fenced either: metadata. Landlock has no right for chmod, chown, utimes "
	       "or xattrs, so they work on any path the program can name (its own files, "
	       "as its user); set-user-ID and set-group-ID modes are refused by the seccomp "
	       "filter.\n");
	printf("Not fenced either: what Landlock does not mediate. stat(2) and inotify "
	       "work on any path the program can name; /proc shows every process's command "
	       "line; /dev/pts is granted whole for terminals made inside the sandbox, so "
	       "another session's terminal of the same user can be opened "
	       "(doc/escape.md).\n");
}

static int print_text(const struct report *rp)
{
	const struct lf_abi_probe *p = &rp->p;

	printf("kernel: %s %s %s\n", rp->u.sysname, rp->u.release, rp->u.machine);
	if (p->kernel == 0)
		printf("landlock: not available (%s)\n",
		       p->err == EOPNOTSUPP ? "built in but not enabled at boot"
		       : p->err == ENOSYS   ? "not built into this kernel"
					    : "probe failed");
	else
		printf("landlock: ABI %d\n", p->kernel);
	if (p->cap >= 0)
		printf("cap: LANDFENCE_ABI_MAX=%d, landfence uses ABI %d\n", p->cap, p->abi);
	printf("\nenforceable here:\n");
	for (size_t i = 0; i < rp->nf; i++) {
		char abi[16] = "";
		if (rp->f[i].abi > 0)
			snprintf(abi, sizeof(abi), "ABI %d", rp->f[i].abi);
		printf("  %-3s %-13s %-6s %s\n", rp->f[i].ok ? "yes" : "NO", rp->f[i].name, abi,
		       rp->f[i].what);
	}
	printf("\n");
	if (rp->hint)
		printf("%s\n", rp->hint);
	if (p->kernel == 0)
		printf("Without Landlock, `landfence run` refuses a policy whose fallback is deny "
		       "(KernelTooOld) and runs any other one unconfined, with a warning.\n");
	else if (p->abi < 3)
		printf("Hint: below ABI 3 truncation cannot be refused: a policy that fences "
		       "writes "
		       "is Degraded (fallback ask/allow) or refused (fallback deny).\n");
	else if (p->abi < 6)
		printf("Hint: below ABI 6 abstract UNIX sockets and signals are not scoped: a "
		       "sandboxed program can reach abstract sockets outside it.\n");
	print_limits();
	char aa_text[512];
	printf("%s\n", lf_apparmor_userns_text(&rp->aa, geteuid() == 0, aa_text, sizeof(aa_text)));
	if (rp->ns)
		printf("mount namespace: yes (%s): a deny or ask rule inside a grant is masked "
		       "(hidden or read-only), protected paths are kept read-only, grants are "
		       "mounted nodev,nosuid.\n",
		       rp->ns_user ? "in a user namespace" : "as root");
	else
		printf("mount namespace: NO (%s): a deny or ask rule inside a grant drops the "
		       "grant, protected paths are only watched (the post-run report).\n",
		       rp->ns_failed);
	if (rp->all)
		printf("Everything landfence uses is enforceable on this kernel.\n");
	else
		printf("Some protections are missing here: see above. Linux 6.12 or later gives "
		       "all of them.\n");
	return rp->all ? LF_EXIT_OK : 1;
}

/* Returns -1 after a good parse (json set), else the exit status. */
static const char usage_text[] =
	"usage: landfence doctor [--json]\n"
	"Says what this machine can enforce: the kernel, the Landlock ABI, and for each\n"
	"right and hardening whether it is enforceable here.\n"
	"\noptions:\n"
	"      --json            print one JSON object\n" LF_HELP_HELP
	"\nexit status: 0 everything landfence uses is enforceable, 1 something is\n"
	"missing, 2 usage error, 125 landfence's own error. See landfence-doctor(1).\n";

static int doctor_parse(int argc, char **argv, bool *json)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, LF_OPT_JSON },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		if (c == LF_OPT_JSON) {
			*json = true;
		} else if (c == 'h') {
			fputs(usage_text, stdout);
			return LF_EXIT_OK;
		} else {
			fputs(usage_text, stderr);
			return LF_EXIT_USAGE;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "landfence doctor: unexpected argument '%s'\n", argv[optind]);
		return LF_EXIT_USAGE;
	}
	return -1;
}

int lf_cmd_doctor(int argc, char **argv)
{
	struct report rp = { .all = true };
	bool json = false;
	int r;

	if ((r = doctor_parse(argc, argv, &json)) >= 0)
		return r;
	if (uname(&rp.u) < 0) {
		fprintf(stderr, "landfence: uname: %s\n", strerror(errno));
		return LF_EXIT_OWN;
	}
	r = lf_landlock_probe(-1, &rp.p);
	if (r < 0) {
		fprintf(stderr, "landfence: cannot probe Landlock: %s%s\n", strerror(-r),
			r == -EINVAL ? " (LANDFENCE_ABI_MAX must be a number >= 0)" : "");
		return r == -EINVAL ? LF_EXIT_USAGE : LF_EXIT_OWN;
	}

	struct feature f[] = {
		{ "filesystem", "read, write, execute, make and remove files", 1, false, true },
		{ "refer", "rename and link across directories", 2, false, true },
		{ "truncate", "truncate(2) and O_TRUNC", 3, false, true },
		{ "tcp", "TCP bind and connect ports (a policy's \"network\")", 4, false, false },
		{ "ioctl-dev", "ioctl on device files", 5, false, true },
		{ "scopes", "abstract UNIX sockets and signals stay inside the sandbox", 6, false,
		  true },
		{ "logging", "audit logging flags (not used by landfence)", 7, false, false },
		{ "no-new-privs", "setuid programs cannot gain privileges", 0, have_nnp(), true },
		{ "seccomp", "seccomp filter against TIOCSTI and TIOCLINUX", 0,
		  have_seccomp_filter(), true },
		{ "close_range", "close inherited descriptors at once (else a loop does it)", 0,
		  have_close_range(), false },
		/* No Landlock ABI up to 7 mediates connect(2) on a pathname
		 * socket; say so rather than let a green list suggest it. */
		{ "unix-connect", "named UNIX sockets (connect by path) fenced by Landlock", -1,
		  false, false },
		{ "metadata", "chmod, chown, utimes, xattrs of paths outside the grants fenced", -1,
		  false, false },
		{ "sysv-ipc", "SysV shared memory, queues, semaphores refused (seccomp)", 0,
		  have_seccomp_filter(), false },
		{ "setuid-modes", "set-user-ID / set-group-ID modes refused (seccomp)", 0,
		  have_seccomp_filter(), false },
	};
	rp.f = f;
	rp.nf = sizeof(f) / sizeof(f[0]);
	for (size_t i = 0; i < rp.nf; i++) {
		if (f[i].abi > 0)
			f[i].ok = rp.p.abi >= f[i].abi;
		if (f[i].needed && !f[i].ok)
			rp.all = false;
	}
	rp.hint = rp.p.kernel == 0 ? lf_landlock_hint(rp.p.err) : NULL;
	(void)lf_namespace_probe(&rp.ns, &rp.ns_user, rp.ns_failed, sizeof(rp.ns_failed));
	if (lf_apparmor_userns_read(LF_APPARMOR_USERNS_SYSCTL, LF_APPARMOR_LABEL, &rp.aa) < 0) {
		fprintf(stderr, "landfence: %s does not hold a number\n",
			LF_APPARMOR_USERNS_SYSCTL);
		return LF_EXIT_OWN;
	}
	return json ? print_json(&rp) : print_text(&rp);
}
