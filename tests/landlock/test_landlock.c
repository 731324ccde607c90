/* SPDX-License-Identifier: MIT */
/*
 * The Landlock adapter: rights mapping per ABI, status and KernelTooOld,
 * final rules (host grants, profiles, the command, canonical fences), and
 * real enforcement in forked children on temporary trees.
 */
#include "helpers.h"

#include <linux/seccomp.h>
#include <sys/syscall.h>

#include "fs/fs.h"
#include "landlock/compat.h"
#include "launch/launch.h"

#define RO LF_ACCESS_RO
#define RW LF_ACCESS_RW

/* Rights named in SPEC §3. */
#define R_RO \
	(LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR | LANDLOCK_ACCESS_FS_EXECUTE)
#define R_RW                                                                                     \
	(LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_REMOVE_DIR |                         \
	 LANDLOCK_ACCESS_FS_REMOVE_FILE | LANDLOCK_ACCESS_FS_MAKE_DIR |                          \
	 LANDLOCK_ACCESS_FS_MAKE_REG | LANDLOCK_ACCESS_FS_MAKE_SOCK |                            \
	 LANDLOCK_ACCESS_FS_MAKE_FIFO | LANDLOCK_ACCESS_FS_MAKE_SYM | LANDLOCK_ACCESS_FS_REFER | \
	 LANDLOCK_ACCESS_FS_TRUNCATE)
#define R_ALL_ABI1 ((1ULL << 13) - 1)

struct fx {
	char base[PATH_MAX];
	char proj[PATH_MAX];
	char home[PATH_MAX];
	char out[PATH_MAX];
};

static void fx_path(char *buf, const char *dir, const char *rel)
{
	tpath(buf, dir, rel);
}

static int fx_setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));
	char p[PATH_MAX];

	assert_non_null(f);
	tmp_tree(f->base);
	fx_path(f->proj, f->base, "proj");
	fx_path(f->home, f->base, "home");
	fx_path(f->out, f->base, "outside");
	static const char *const proj_files[] = {
		"src/a.txt", "src/secret/k.txt", "docs/b.txt", "secret/k.txt", "notes.txt",
	};
	for (size_t i = 0; i < sizeof(proj_files) / sizeof(proj_files[0]); i++) {
		fx_path(p, f->proj, proj_files[i]);
		put(p, "data\n");
	}
	static const char *const home_files[] = {
		"private.txt",
		".bashrc",
		".claude/settings.json",
	};
	for (size_t i = 0; i < sizeof(home_files) / sizeof(home_files[0]); i++) {
		fx_path(p, f->home, home_files[i]);
		put(p, "home\n");
	}
	fx_path(p, f->home, ".claude.json");
	put(p, "{\"old\":1, \"longer\": \"than the new content\"}\n");
	fx_path(p, f->out, "o.txt");
	put(p, "outside\n");
	*state = f;
	return 0;
}

static int fx_teardown(void **state)
{
	struct fx *f = *state;

	rm_rf(f->base);
	free(f);
	return 0;
}

static void opts_init(struct lf_sandbox_opts *o, const struct fx *f, int abi)
{
	memset(o, 0, sizeof(*o));
	o->home = f->home;
	o->abi_max = abi_opt(abi);
}

/* ------------------------------------------------------------------------
 * Rights mapping, ABI
 */

static void test_rights_per_abi(void **state)
{
	static const struct {
		int abi;
		uint64_t handled;
		uint64_t scoped;
	} cases[] = {
		{ 0, 0, 0 },
		{ 1, R_ALL_ABI1, 0 },
		{ 2, R_ALL_ABI1 | LANDLOCK_ACCESS_FS_REFER, 0 },
		{ 3, (1ULL << 15) - 1, 0 },
		{ 4, (1ULL << 15) - 1, 0 },
		{ 5, (1ULL << 16) - 1, 0 },
		{ 6, (1ULL << 16) - 1, 3 },
		{ 7, (1ULL << 16) - 1, 3 },
		{ 8, (1ULL << 16) - 1, 3 }, /* newer than known: as 7 */
		{ 42, (1ULL << 16) - 1, 3 },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int abi = cases[i].abi;
		uint64_t h = lf_landlock_handled_fs(abi);

		assert_int_equal(h, cases[i].handled);
		assert_int_equal(lf_landlock_scoped(abi), cases[i].scoped);
		/* RO / RW exactly as SPEC §3, masked by the ABI. */
		assert_int_equal(lf_landlock_rights(RO, true, false, abi), R_RO & h);
		assert_int_equal(lf_landlock_rights(RW, true, false, abi), R_RW & h);
		assert_int_equal(lf_landlock_rights(RO | RW, true, false, abi), (R_RO | R_RW) & h);
		/* Device nodes handled, never granted. */
		assert_false(lf_landlock_rights(RO | RW, true, true, abi) &
			     (LANDLOCK_ACCESS_FS_MAKE_CHAR | LANDLOCK_ACCESS_FS_MAKE_BLOCK));
		if (abi >= 1)
			assert_true(h & LANDLOCK_ACCESS_FS_MAKE_CHAR);
		/* Files: file rights only. */
		assert_int_equal(lf_landlock_rights(RO | RW, false, true, abi) &
					 ~(uint64_t)LF_LANDLOCK_FILE_RIGHTS,
				 0);
		assert_int_equal(lf_landlock_rights(RO | RW, false, false, abi),
				 (LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_EXECUTE |
				  LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_TRUNCATE) &
					 h);
		/* ioctl only when asked, and only from ABI 5. */
		assert_int_equal(
			!!(lf_landlock_rights(RW, false, true, abi) & LANDLOCK_ACCESS_FS_IOCTL_DEV),
			abi >= 5);
		assert_false(lf_landlock_rights(RO | RW, true, false, abi) &
			     LANDLOCK_ACCESS_FS_IOCTL_DEV);
	}
	assert_string_equal(lf_landlock_right_name(LANDLOCK_ACCESS_FS_TRUNCATE), "truncate");
	assert_string_equal(lf_landlock_right_name(LANDLOCK_ACCESS_FS_IOCTL_DEV), "ioctl_dev");
	assert_null(lf_landlock_right_name(1ULL << 40));
}

static void test_abi_probe_cap(void **state)
{
	static const struct {
		const char *env;
		int want; /* -1: the kernel's ABI; -2: error */
	} cases[] = {
		{ NULL, -1 }, { "", -1 },  { "0", 0 },	 { "1", 1 },   { "2", 2 },
		{ "99", -1 }, { "x", -2 }, { "-1", -2 }, { "2x", -2 }, { " 2", -2 },
	};
	int k = kernel_abi();
	struct lf_abi_probe p;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int want = cases[i].want;

		if (cases[i].env)
			setenv("LANDFENCE_ABI_MAX", cases[i].env, 1);
		else
			unsetenv("LANDFENCE_ABI_MAX");
		if (want == -2) {
			assert_int_equal(lf_landlock_abi(-1), -EINVAL);
			continue;
		}
		if (want == -1 || want > k)
			want = k;
		assert_int_equal(lf_landlock_abi(-1), want);
		/* An explicit cap wins over the environment. */
		assert_int_equal(lf_landlock_abi(0), 0);
	}
	setenv("LANDFENCE_ABI_MAX", "garbage", 1);
	assert_int_equal(lf_landlock_probe(1, &p), 0);
	assert_int_equal(p.abi, k >= 1 ? 1 : 0);
	unsetenv("LANDFENCE_ABI_MAX");
	assert_non_null(lf_landlock_hint(ENOSYS));
	assert_non_null(strstr(lf_landlock_hint(EOPNOTSUPP), "lsm="));
	assert_non_null(strstr(lf_landlock_hint(ENOSYS), "CONFIG_SECURITY_LANDLOCK"));
	assert_null(lf_landlock_hint(0));
	assert_true(lf_profile_known("claude"));
	assert_true(lf_profile_known("codex"));
	assert_true(lf_profile_known("gemini"));
	assert_true(lf_profile_known("aider"));
	assert_false(lf_profile_known("claud"));
	assert_false(lf_profile_known(NULL));
}

/* ------------------------------------------------------------------------
 * Status and KernelTooOld (SPEC §3)
 */

static void test_status(void **state)
{
	struct fx *f = *state;
	static const struct spec_rule rules[] = {
		{ LF_CAP_READ, LF_ALLOW, "**" },
		{ LF_CAP_WRITE, LF_ALLOW, "src/**" },
		{ LF_CAP_WRITE, LF_DENY, "src/gen/**" },
	};
	static const struct {
		int abi;
		lf_posture fb;
		int rc;
		enum lf_status_kind kind;
		const char *reason; /* substring */
		unsigned flags;	    /* lf_sandbox_opts.flags */
	} cases[] = {
		{ 2, LF_ASK, 0, LF_STATUS_DEGRADED, "truncate" },
		{ 2, LF_ALLOW, 0, LF_STATUS_DEGRADED, "truncate" },
		{ 2, LF_DENY, -EOPNOTSUPP, 0, NULL },
		{ 1, LF_ASK, 0, LF_STATUS_DEGRADED, "truncate" },
		{ 1, LF_DENY, -EOPNOTSUPP, 0, NULL },
		{ 0, LF_ASK, 0, LF_STATUS_UNSUPPORTED, "" },
		{ 0, LF_ALLOW, 0, LF_STATUS_UNSUPPORTED, "" },
		{ 0, LF_DENY, -EOPNOTSUPP, 0, NULL },
		/* Below ABI 6 signals and abstract sockets are not scoped:
		 * Degraded, KernelTooOld under deny, unless accepted. */
		{ 3, LF_DENY, -EOPNOTSUPP, 0, NULL },
		{ 5, LF_DENY, -EOPNOTSUPP, 0, NULL },
		{ 4, LF_ASK, 0, LF_STATUS_DEGRADED, "not scoped" },
		{ 5, LF_ASK, 0, LF_STATUS_DEGRADED, "not scoped" },
		{ 3, LF_DENY, 0, LF_STATUS_ENFORCED, "", LF_SANDBOX_ALLOW_UNSCOPED },
		{ 5, LF_DENY, 0, LF_STATUS_ENFORCED, "", LF_SANDBOX_ALLOW_UNSCOPED },
		{ 6, LF_DENY, 0, LF_STATUS_ENFORCED, "" },
		{ 7, LF_DENY, 0, LF_STATUS_ENFORCED, "" },
		{ 7, LF_ASK, 0, LF_STATUS_ENFORCED, "" },
	};
	int k = kernel_abi();

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct world w = { 0 };
		struct lf_sandbox_opts o;

		if (cases[i].abi > k)
			continue;
		opts_init(&o, f, cases[i].abi);
		o.flags |= cases[i].flags;
		w.pol = policy_make(cases[i].fb, rules, 3);
		world_build(&w, f->proj, &o);
		assert_int_equal(w.rc, cases[i].rc);
		if (w.rc == -EOPNOTSUPP) {
			assert_null(w.sb);
			assert_non_null(strstr(w.diag.message, "KernelTooOld"));
		} else {
			const struct lf_status *st = lf_sandbox_status(w.sb);
			int fd = 0;
			struct lf_diag d;

			assert_int_equal(st->kind, cases[i].kind);
			assert_non_null(strstr(st->reason, cases[i].reason));
			assert_int_equal(lf_sandbox_abi(w.sb), cases[i].abi);
			assert_int_equal(lf_sandbox_handled(w.sb),
					 lf_landlock_handled_fs(cases[i].abi));
			assert_int_equal(lf_sandbox_scoped(w.sb), lf_landlock_scoped(cases[i].abi));
			assert_int_equal(lf_sandbox_ruleset_fd(w.sb, &fd, &d), 0);
			if (cases[i].abi == 0) {
				assert_int_equal(fd, -1);
			} else {
				assert_true(fd >= 0);
				assert_true(fcntl(fd, F_GETFD) & FD_CLOEXEC);
				close(fd);
			}
			/* Accepted, the missing scopes are a notice. */
			if (cases[i].abi >= 3 && cases[i].abi < 6 &&
			    (cases[i].flags & LF_SANDBOX_ALLOW_UNSCOPED)) {
				bool found = false;

				for (size_t n = 0; n < lf_sandbox_notice_count(w.sb); n++)
					found = found ||
						strstr(lf_sandbox_notice(w.sb, n), "scoped");
				assert_true(found);
			}
		}
		world_fini(&w);
	}
}

static void test_abi_env_garbage(void **state)
{
	struct fx *f = *state;
	struct world w = { 0 };
	struct lf_sandbox_opts o;

	opts_init(&o, f, -1);
	setenv("LANDFENCE_ABI_MAX", "seven", 1);
	w.pol = policy_make(LF_ASK, NULL, 0);
	world_build(&w, f->proj, &o);
	unsetenv("LANDFENCE_ABI_MAX");
	assert_int_equal(w.rc, -EINVAL);
	assert_non_null(strstr(w.diag.message, "LANDFENCE_ABI_MAX"));
	world_fini(&w);

	/* Through the environment, as `landfence run` sees it. */
	static const struct spec_rule rules[] = {
		{ LF_CAP_READ, LF_ALLOW, "**" },
		{ LF_CAP_WRITE, LF_DENY, "docs/**" },
	};
	static const struct {
		const char *env;
		lf_posture fb;
		int rc;
		enum lf_status_kind kind;
	} cases[] = {
		{ "2", LF_ASK, 0, LF_STATUS_DEGRADED },
		{ "2", LF_DENY, -EOPNOTSUPP, 0 },
		{ "0", LF_ASK, 0, LF_STATUS_UNSUPPORTED },
		{ "0", LF_DENY, -EOPNOTSUPP, 0 },
	};
	if (kernel_abi() < 3)
		return;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		setenv("LANDFENCE_ABI_MAX", cases[i].env, 1);
		w.pol = policy_make(cases[i].fb, rules, 2);
		world_build(&w, f->proj, &o);
		unsetenv("LANDFENCE_ABI_MAX");
		assert_int_equal(w.rc, cases[i].rc);
		if (w.rc == 0) {
			assert_int_equal(lf_sandbox_status(w.sb)->kind, cases[i].kind);
			if (cases[i].kind == LF_STATUS_DEGRADED)
				assert_non_null(
					strstr(lf_sandbox_status(w.sb)->reason, "truncate"));
		} else {
			assert_non_null(strstr(w.diag.message, "KernelTooOld"));
		}
		world_fini(&w);
	}
}

/* ------------------------------------------------------------------------
 * Final rules: shape
 */

static void check_rule_shapes(const struct lf_sandbox *sb)
{
	for (size_t i = 0; i < lf_sandbox_rule_count(sb); i++) {
		const struct lf_sandbox_rule *r = lf_sandbox_rule(sb, i);
		struct stat st;
		bool tty = strcmp(r->path, "/dev/tty") == 0 || strcmp(r->path, "/dev/ptmx") == 0 ||
			   strcmp(r->path, "/dev/pts") == 0 ||
			   strncmp(r->path, "/dev/pts/", 9) == 0;

		assert_true(r->path[0] == '/');
		assert_int_not_equal(r->access, 0);
		if (lf_sandbox_abi(sb) > 0)
			assert_int_not_equal(r->landlock, 0);
		assert_false(r->landlock &
			     (LANDLOCK_ACCESS_FS_MAKE_CHAR | LANDLOCK_ACCESS_FS_MAKE_BLOCK));
		if (r->ioctl_dev || (r->landlock & LANDLOCK_ACCESS_FS_IOCTL_DEV))
			assert_true(tty);
		assert_int_equal(stat(r->path, &st), 0);
		if (!S_ISDIR(st.st_mode))
			assert_int_equal(r->landlock & ~(uint64_t)LF_LANDLOCK_FILE_RIGHTS, 0);
		assert_int_equal(r->landlock & ~lf_sandbox_handled(sb), 0);
		/* One rule per path. */
		for (size_t j = i + 1; j < lf_sandbox_rule_count(sb); j++)
			assert_string_not_equal(r->path, lf_sandbox_rule(sb, j)->path);
	}
}

static void test_host_grants_and_shapes(void **state)
{
	struct fx *f = *state;
	static const struct spec_rule rules[] = {
		{ LF_CAP_READ, LF_ALLOW, "**" },
		{ LF_CAP_WRITE, LF_ALLOW, "**" },
	};
	const char *profiles[] = { "claude", "codex" };
	char rundir[PATH_MAX];
	const struct lf_sandbox_rule *r;
	int k = kernel_abi();

	fx_path(rundir, f->base, "run");
	mkdir_p(rundir);
	for (int abi = 0; abi <= (k < 7 ? k : 7); abi++) {
		struct world w = { 0 };
		struct lf_sandbox_opts o;

		opts_init(&o, f, abi);
		o.run_dir = rundir;
		o.profiles = profiles;
		o.nprofiles = 2;
		w.pol = policy_make(LF_ASK, rules, 2);
		/* A host grant on /dev must not carry terminal ioctls. */
		assert_int_equal(lf_strv_push(&w.pol->host_read, "/dev"), 0);
		world_build(&w, f->proj, &o);
		assert_int_equal(w.rc, 0);
		check_rule_shapes(w.sb);

		r = rule_at(w.sb, "/usr");
		assert_non_null(r);
		assert_int_equal(r->access, RO);
		assert_int_equal(r->origin, LF_ORIGIN_HOST);
		/* /etc entry by entry: its secrets are no rule's. */
		assert_null(rule_at(w.sb, "/etc"));
		assert_non_null(rule_at(w.sb, "/etc/passwd"));
		for (size_t ri = 0; ri < lf_sandbox_rule_count(w.sb); ri++) {
			const char *rp = lf_sandbox_rule(w.sb, ri)->path;
			assert_false(lf_path_covers(rp, "/etc/shadow"));
			assert_false(lf_path_covers(rp, "/etc/gshadow"));
			assert_false(lf_path_covers(rp, "/etc/sudoers"));
			assert_false(lf_path_covers(rp, "/etc/ssl/private"));
		}
		assert_non_null(rule_at(w.sb, "/proc"));
		r = rule_at(w.sb, "/dev/null");
		assert_non_null(r);
		assert_int_equal(r->origin, LF_ORIGIN_DEVICE);
		assert_false(r->ioctl_dev);
		if (abi >= 3)
			assert_int_equal(r->landlock, LANDLOCK_ACCESS_FS_READ_FILE |
							      LANDLOCK_ACCESS_FS_WRITE_FILE |
							      LANDLOCK_ACCESS_FS_TRUNCATE);
		r = rule_at(w.sb, "/dev/tty");
		if (r) {
			assert_true(r->ioctl_dev);
			assert_int_equal(!!(r->landlock & LANDLOCK_ACCESS_FS_IOCTL_DEV), abi >= 5);
		}
		r = rule_at(w.sb, "/dev");
		assert_non_null(r);
		assert_false(r->ioctl_dev);
		assert_int_equal(r->origin, LF_ORIGIN_HOST_POLICY);
		r = rule_at(w.sb, rundir);
		assert_non_null(r);
		assert_int_equal(r->access, RO | RW);
		assert_int_equal(r->origin, LF_ORIGIN_RUN_DIR);
		r = rule_at(w.sb, f->proj);
		assert_non_null(r);
		assert_int_equal(r->origin, LF_ORIGIN_POLICY);
		world_fini(&w);
	}
}

static void test_profiles(void **state)
{
	struct fx *f = *state;
	char p[PATH_MAX];
	const char *bad[] = { "claude", "nosuch" };
	const char *claude[] = { "claude" };
	const struct lf_sandbox_rule *r;
	struct world w = { 0 };
	struct lf_sandbox_opts o;

	opts_init(&o, f, -1);
	o.profiles = bad;
	o.nprofiles = 2;
	w.pol = policy_make(LF_ASK, NULL, 0);
	world_build(&w, f->proj, &o);
	assert_int_equal(w.rc, -EINVAL);
	assert_non_null(strstr(w.diag.message, "nosuch"));
	world_fini(&w);

	/* From the policy's "profiles" as well as from the options. */
	opts_init(&o, f, -1);
	w.pol = policy_make(LF_ASK, NULL, 0);
	assert_int_equal(lf_strv_push(&w.pol->profiles, "claude"), 0);
	o.profiles = claude;
	o.nprofiles = 1;
	world_build(&w, f->proj, &o);
	assert_int_equal(w.rc, 0);
	fx_path(p, f->home, ".claude");
	r = rule_at(w.sb, p);
	assert_non_null(r);
	assert_int_equal(r->access, RO | RW);
	assert_int_equal(r->origin, LF_ORIGIN_PROFILE);
	fx_path(p, f->home, ".claude.json");
	r = rule_at(w.sb, p);
	assert_non_null(r);
	assert_int_equal(r->access, RO | RW);
	/* Never the home directory itself. */
	assert_null(rule_at(w.sb, f->home));
	/* Missing profile places are skipped and reported. */
	fx_path(p, f->home, ".cache/claude");
	assert_null(rule_at(w.sb, p));
	{
		bool reported = false;

		for (size_t i = 0; i < lf_sandbox_dropped_count(w.sb); i++) {
			const struct lf_sandbox_dropped *d = lf_sandbox_dropped(w.sb, i);

			if (strcmp(d->path, p) == 0 && !d->fence)
				reported = true;
		}
		assert_true(reported);
	}
	check_rule_shapes(w.sb);
	world_fini(&w);
}

/* ------------------------------------------------------------------------
 * Enforcement in children
 */

struct expect {
	enum op op;
	const char *dir; /* "proj", "home", "out" */
	const char *rel;
	int err; /* 0 or the errno expected */
};

static const char *fx_dir(const struct fx *f, const char *which)
{
	if (strcmp(which, "proj") == 0)
		return f->proj;
	if (strcmp(which, "home") == 0)
		return f->home;
	if (strcmp(which, "base") == 0)
		return f->base;
	return f->out;
}

static void run_expectations(const struct fx *f, int fd, const struct expect *e, size_t n)
{
	static const char *const names[] = { "read",  "list",	  "write",	"create", "unlink",
					     "mkdir", "truncate", "mknod-char", "exec" };

	for (size_t i = 0; i < n; i++) {
		char p[PATH_MAX];
		int got;

		if (e[i].rel[0] == '/')
			snprintf(p, sizeof(p), "%s", e[i].rel);
		else
			fx_path(p, fx_dir(f, e[i].dir), e[i].rel);
		got = child_op(fd, e[i].op, p);
		if (got != e[i].err)
			fail_msg("%s %s: got %s, expected %s", names[e[i].op], p,
				 got ? strerror(got) : "success",
				 e[i].err ? strerror(e[i].err) : "success");
	}
}

static void test_reads_writes_as_planned(void **state)
{
	struct fx *f = *state;
	static const struct spec_rule rules[] = {
		{ LF_CAP_READ, LF_ALLOW, "src/**" },  { LF_CAP_READ, LF_ALLOW, "docs/**" },
		{ LF_CAP_WRITE, LF_ALLOW, "src/**" }, { LF_CAP_DELETE, LF_ALLOW, "src/**" },
		{ LF_CAP_WRITE, LF_DENY, "docs/**" },
	};
	static const struct expect ex[] = {
		{ OP_READ, "proj", "src/a.txt", 0 },
		{ OP_READ, "proj", "src/secret/k.txt", 0 },
		{ OP_READ, "proj", "docs/b.txt", 0 },
		{ OP_LIST, "proj", "docs", 0 },
		{ OP_WRITE, "proj", "src/a.txt", 0 },
		{ OP_CREATE, "proj", "src/new.txt", 0 },
		{ OP_MKDIR, "proj", "src/newdir", 0 },
		{ OP_UNLINK, "proj", "src/new.txt", 0 },
		{ OP_TRUNCATE, "proj", "src/a.txt", 0 },
		{ OP_WRITE, "proj", "docs/b.txt", EACCES },
		{ OP_CREATE, "proj", "docs/new.txt", EACCES },
		{ OP_TRUNCATE, "proj", "docs/b.txt", EACCES },
		{ OP_UNLINK, "proj", "docs/b.txt", EACCES },
		{ OP_READ, "proj", "secret/k.txt", EACCES },
		{ OP_READ, "proj", "notes.txt", EACCES },
		{ OP_LIST, "proj", ".", EACCES },
		{ OP_READ, "home", "private.txt", EACCES },
		{ OP_READ, "out", "o.txt", EACCES },
		{ OP_WRITE, "out", "o.txt", EACCES },
		{ OP_CREATE, "out", "x.txt", EACCES },
		{ OP_READ, "", "/etc/passwd", 0 },
		{ OP_WRITE, "", "/dev/null", 0 },
		{ OP_CREATE, "", "/etc/lf-landlock-test-never", EACCES },
		/* MAKE_CHAR is handled and never granted, even where RW is. */
		{ OP_MKNOD_CHAR, "proj", "src/null", EACCES },
		{ OP_EXEC, "", "/bin/true", 0 },
	};
	struct world w = { 0 };
	struct lf_sandbox_opts o;
	int fd;

	if (!need_landlock())
		return;
	opts_init(&o, f, -1);
	unsetenv("LANDFENCE_ABI_MAX");
	w.pol = policy_make(LF_DENY, rules, 5);
	world_build(&w, f->proj, &o);
	assert_int_equal(w.rc, 0);
	assert_int_equal(lf_sandbox_status(w.sb)->kind, LF_STATUS_ENFORCED);
	fd = world_fd(&w);
	run_expectations(f, fd, ex, sizeof(ex) / sizeof(ex[0]));
	close(fd);
	world_fini(&w);
}

/* The ruleset of every ABI from 1 to the kernel's is accepted and holds. */
static void test_enforced_at_every_abi(void **state)
{
	struct fx *f = *state;
	static const struct spec_rule rules[] = {
		{ LF_CAP_READ, LF_ALLOW, "docs/**" },
		{ LF_CAP_WRITE, LF_ALLOW, "src/**" },
	};
	static const struct expect ex[] = {
		{ OP_READ, "proj", "docs/b.txt", 0 },
		{ OP_READ, "proj", "notes.txt", EACCES },
		{ OP_WRITE, "proj", "docs/b.txt", EACCES },
		{ OP_CREATE, "proj", "src/n", 0 },
		{ OP_UNLINK, "proj", "src/n", 0 },
		{ OP_CREATE, "proj", "docs/n", EACCES },
		{ OP_READ, "home", "private.txt", EACCES },
		{ OP_EXEC, "", "/bin/true", 0 },
	};
	int k;

	if (!need_landlock())
		return;
	k = kernel_abi();
	for (int abi = 1; abi <= k; abi++) {
		struct world w = { 0 };
		struct lf_sandbox_opts o;
		int fd;

		opts_init(&o, f, abi);
		w.pol = policy_make(LF_ASK, rules, 2);
		world_build(&w, f->proj, &o);
		assert_int_equal(w.rc, 0);
		assert_int_equal(lf_sandbox_abi(w.sb), abi);
		fd = world_fd(&w);
		run_expectations(f, fd, ex, sizeof(ex) / sizeof(ex[0]));
		close(fd);
		world_fini(&w);
	}
}

/* Below ABI 3 the kernel cannot refuse truncate: what Degraded means. */
static void test_degraded_truncate_is_real(void **state)
{
	struct fx *f = *state;
	static const struct spec_rule rules[] = {
		{ LF_CAP_READ, LF_ALLOW, "**" },
		{ LF_CAP_WRITE, LF_DENY, "docs/**" },
	};
	static const struct expect ex[] = {
		{ OP_READ, "proj", "docs/b.txt", 0 },
		{ OP_WRITE, "proj", "docs/b.txt", EACCES },
		{ OP_TRUNCATE, "proj", "docs/b.txt", 0 },
	};
	struct world w = { 0 };
	struct lf_sandbox_opts o;
	int fd;

	if (!need_landlock())
		return;
	opts_init(&o, f, 2);
	w.pol = policy_make(LF_ASK, rules, 2);
	world_build(&w, f->proj, &o);
	assert_int_equal(w.rc, 0);
	assert_int_equal(lf_sandbox_status(w.sb)->kind, LF_STATUS_DEGRADED);
	fd = world_fd(&w);
	run_expectations(f, fd, ex, sizeof(ex) / sizeof(ex[0]));
	close(fd);
	world_fini(&w);
}

/* The seed's scenarios, end to end. */
static void test_seed_scenarios(void **state)
{
	struct fx *f = *state;
	static const struct spec_rule fence_read[] = {
		{ LF_CAP_READ, LF_ALLOW, "src/**" },
		{ LF_CAP_READ, LF_DENY, "src/secret/**" },
	};
	static const struct expect fence_read_ex[] = {
		{ OP_READ, "proj", "src/a.txt", EACCES },
		{ OP_READ, "proj", "src/secret/k.txt", EACCES },
		{ OP_LIST, "proj", "src", EACCES },
	};
	static const struct spec_rule deny_write[] = {
		{ LF_CAP_READ, LF_ALLOW, "src/**" },
		{ LF_CAP_WRITE, LF_ALLOW, "src/**" },
		{ LF_CAP_WRITE, LF_DENY, "src/**" },
	};
	static const struct expect deny_write_ex[] = {
		{ OP_READ, "proj", "src/a.txt", 0 },
		{ OP_READ, "proj", "src/secret/k.txt", 0 },
		{ OP_WRITE, "proj", "src/a.txt", EACCES },
		{ OP_CREATE, "proj", "src/n.txt", EACCES },
	};
	static const struct {
		const struct spec_rule *rules;
		size_t nrules;
		const struct expect *ex;
		size_t nex;
	} cases[] = {
		{ fence_read, 2, fence_read_ex, 3 },
		{ deny_write, 3, deny_write_ex, 4 },
	};

	if (!need_landlock())
		return;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct world w = { 0 };
		struct lf_sandbox_opts o;
		int fd;

		opts_init(&o, f, -1);
		unsetenv("LANDFENCE_ABI_MAX");
		w.pol = policy_make(LF_DENY, cases[i].rules, cases[i].nrules);
		world_build(&w, f->proj, &o);
		assert_int_equal(w.rc, 0);
		fd = world_fd(&w);
		run_expectations(f, fd, cases[i].ex, cases[i].nex);
		close(fd);
		world_fini(&w);
	}
}

static bool dropped_with_fence(const struct lf_sandbox *sb, const char *path)
{
	for (size_t i = 0; i < lf_sandbox_dropped_count(sb); i++) {
		const struct lf_sandbox_dropped *d = lf_sandbox_dropped(sb, i);

		if (strcmp(d->path, path) == 0 && d->fence)
			return true;
	}
	return false;
}

/* Allow read on link, a symlink to secret; deny read on secret. */
static void test_symlink_to_fence(void **state)
{
	struct fx *f = *state;
	static const struct spec_rule rules[] = {
		{ LF_CAP_READ, LF_ALLOW, "link/**" },
		{ LF_CAP_READ, LF_ALLOW, "outlink/**" },
		{ LF_CAP_READ, LF_DENY, "secret/**" },
		{ LF_CAP_READ, LF_DENY, "outlink/**" },
	};
	static const struct expect ex[] = {
		{ OP_READ, "proj", "link/k.txt", EACCES },
		{ OP_READ, "proj", "secret/k.txt", EACCES },
		{ OP_LIST, "proj", "link", EACCES },
	};
	char link[PATH_MAX], target[PATH_MAX];
	struct world w = { 0 };
	struct lf_sandbox_opts o;
	int fd;

	if (!need_landlock())
		return;
	fx_path(link, f->proj, "link");
	fx_path(target, f->proj, "secret");
	assert_int_equal(symlink(target, link), 0);
	opts_init(&o, f, -1);
	unsetenv("LANDFENCE_ABI_MAX");
	w.pol = policy_make(LF_ASK, rules, 4);
	world_build(&w, f->proj, &o);
	assert_int_equal(w.rc, 0);
	assert_null(rule_at(w.sb, target));
	assert_true(dropped_with_fence(w.sb, target));
	fd = world_fd(&w);
	run_expectations(f, fd, ex, sizeof(ex) / sizeof(ex[0]));
	close(fd);
	world_fini(&w);
	unlink(link);
}

/* The project root is a symlink; a host grant on the real tree would open
 * the fence if fences were compared lexically. */
static void test_project_root_symlink(void **state)
{
	struct fx *f = *state;
	static const struct spec_rule rules[] = {
		{ LF_CAP_READ, LF_ALLOW, "docs/**" },
		{ LF_CAP_READ, LF_DENY, "secret/**" },
	};
	static const struct expect ex[] = {
		{ OP_READ, "base", "plink/docs/b.txt", 0 },
		{ OP_READ, "proj", "docs/b.txt", 0 },
		{ OP_READ, "base", "plink/secret/k.txt", EACCES },
		{ OP_READ, "proj", "secret/k.txt", EACCES },
		{ OP_READ, "proj", "notes.txt", EACCES },
	};
	char plink[PATH_MAX];
	struct world w = { 0 };
	struct lf_sandbox_opts o;
	int fd;

	if (!need_landlock())
		return;
	fx_path(plink, f->base, "plink");
	assert_int_equal(symlink(f->proj, plink), 0);
	opts_init(&o, f, -1);
	unsetenv("LANDFENCE_ABI_MAX");
	w.pol = policy_make(LF_ASK, rules, 2);
	assert_int_equal(lf_strv_push(&w.pol->host_read, f->proj), 0);
	o.project_root = plink;
	world_build(&w, plink, &o);
	assert_int_equal(w.rc, 0);
	assert_null(rule_at(w.sb, f->proj));
	assert_true(dropped_with_fence(w.sb, f->proj));
	fd = world_fd(&w);
	run_expectations(f, fd, ex, sizeof(ex) / sizeof(ex[0]));
	close(fd);
	world_fini(&w);
	unlink(plink);
}

/* Runs op in a child that builds sb's ruleset itself under the launcher's
 * seccomp profile, where openat2 looks absent (a run inside a sandbox),
 * so that each rule is opened whole; then restricts itself. Returns as
 * child_op does; 253-255 for a setup failure. */
static int child_op_no_openat2(const struct lf_sandbox *sb, enum op op, const char *path)
{
	struct sock_fprog prog = { 0 };
	int status;
	pid_t pid;

	assert_int_equal(lf_seccomp_build(&prog, false), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct lf_diag d;
		int fd = -1;

		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
		    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0) < 0)
			_exit(253);
		if (syscall(SYS_openat2, AT_FDCWD, "/", NULL, 0) != -1 || errno != ENOSYS)
			_exit(254);
		if (lf_sandbox_ruleset_fd(sb, &fd, &d) < 0 || fd < 0)
			_exit(255);
		if (lf_landlock_restrict(fd) < 0)
			_exit(252);
		_exit(op_do(op, path) & 0xff);
	}
	lf_seccomp_free(&prog);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	return WEXITSTATUS(status);
}

/* Red team, round 3: between the build of the value and the ruleset, a
 * directory on a rule's path is swapped for a symbolic link to a fenced
 * one (another session writing the project: `src` exchanged with a link
 * to `secret`). The rule must not land on the fenced directory's inode:
 * it is left out, with openat2 (RESOLVE_NO_SYMLINKS on the directory as
 * well as the last component) and without (the path opened whole, then
 * named by /proc/self/fd). Before the fix, secret/gen/x was read. */
static void test_parent_swapped_for_link(void **state)
{
	struct fx *f = *state;
	static const struct spec_rule rules[] = {
		{ LF_CAP_READ, LF_ALLOW, "src/gen/**" },
		{ LF_CAP_READ, LF_DENY, "secret/**" },
	};
	char gen[PATH_MAX], ok[PATH_MAX], leak[PATH_MAX], src[PATH_MAX], moved[PATH_MAX],
		moved_ok[PATH_MAX];
	struct world w = { 0 };
	struct lf_sandbox_opts o;
	int fd;

	if (!need_landlock())
		return;
	fx_path(gen, f->proj, "src/gen");
	fx_path(ok, f->proj, "src/gen/x");
	fx_path(leak, f->proj, "secret/gen/x");
	fx_path(src, f->proj, "src");
	fx_path(moved, f->proj, "src.moved");
	fx_path(moved_ok, f->proj, "src.moved/gen/x");
	put(ok, "OK\n");
	put(leak, "LEAK\n");
	opts_init(&o, f, -1);
	unsetenv("LANDFENCE_ABI_MAX");
	w.pol = policy_make(LF_ASK, rules, 2);
	world_build(&w, f->proj, &o);
	assert_int_equal(w.rc, 0);
	assert_non_null(rule_at(w.sb, gen));

	/* As built: the rule holds, both ways. */
	fd = world_fd(&w);
	assert_int_equal(child_op(fd, OP_READ, ok), 0);
	assert_int_equal(child_op(fd, OP_READ, leak), EACCES);
	close(fd);
	assert_int_equal(child_op_no_openat2(w.sb, OP_READ, ok), 0);
	assert_int_equal(child_op_no_openat2(w.sb, OP_READ, leak), EACCES);

	/* src swapped for a link to secret: the rule on src/gen is left
	 * out (losing an allow is safe), never put on secret/gen. */
	assert_int_equal(rename(src, moved), 0);
	assert_int_equal(symlink("secret", src), 0);
	fd = world_fd(&w);
	assert_int_equal(child_op(fd, OP_READ, leak), EACCES);
	assert_int_equal(child_op(fd, OP_READ, ok), EACCES);
	assert_int_equal(child_op(fd, OP_READ, moved_ok), EACCES);
	close(fd);
	assert_int_equal(child_op_no_openat2(w.sb, OP_READ, leak), EACCES);
	assert_int_equal(child_op_no_openat2(w.sb, OP_READ, ok), EACCES);
	assert_int_equal(child_op_no_openat2(w.sb, OP_READ, moved_ok), EACCES);

	assert_int_equal(unlink(src), 0);
	assert_int_equal(rename(moved, src), 0);
	world_fini(&w);
	unlink(ok);
	unlink(leak);
}

/* A host path that does not exist is skipped, never widened to its
 * parent; a host grant covering a fence is dropped. */
static void test_host_missing_and_fenced(void **state)
{
	struct fx *f = *state;
	static const struct spec_rule rules[] = {
		{ LF_CAP_READ, LF_ALLOW, "docs/**" },
		{ LF_CAP_READ, LF_DENY, "secret/**" },
		{ LF_CAP_WRITE, LF_DENY, "docs/**" },
	};
	static const struct expect ex[] = {
		{ OP_READ, "home", "private.txt", EACCES },
		{ OP_READ, "proj", "secret/k.txt", EACCES },
		{ OP_READ, "base", "x.txt", EACCES },
		{ OP_CREATE, "base", "y.txt", EACCES },
		{ OP_READ, "proj", "docs/b.txt", 0 },
		{ OP_WRITE, "proj", "docs/b.txt", EACCES },
	};
	char missing[PATH_MAX], x[PATH_MAX];
	struct world w = { 0 };
	struct lf_sandbox_opts o;
	int fd;

	if (!need_landlock())
		return;
	fx_path(x, f->base, "x.txt");
	put(x, "x\n");
	fx_path(missing, f->home, "nothere");
	opts_init(&o, f, -1);
	unsetenv("LANDFENCE_ABI_MAX");
	w.pol = policy_make(LF_ASK, rules, 3);
	assert_int_equal(lf_strv_push(&w.pol->host_read, "~/nothere"), 0);
	/* The project lives below base: read base covers the read fence, and
	 * write base covers the write fence. */
	assert_int_equal(lf_strv_push(&w.pol->host_read, f->base), 0);
	assert_int_equal(lf_strv_push(&w.pol->host_write, f->base), 0);
	world_build(&w, f->proj, &o);
	assert_int_equal(w.rc, 0);
	assert_null(rule_at(w.sb, missing));
	assert_null(rule_at(w.sb, f->home));
	assert_null(rule_at(w.sb, f->base));
	assert_true(dropped_with_fence(w.sb, f->base));
	{
		bool skipped = false;

		for (size_t i = 0; i < lf_sandbox_dropped_count(w.sb); i++) {
			const struct lf_sandbox_dropped *d = lf_sandbox_dropped(w.sb, i);

			if (strcmp(d->path, missing) == 0 && !d->fence &&
			    d->origin == LF_ORIGIN_HOST_POLICY)
				skipped = true;
		}
		assert_true(skipped);
	}
	check_rule_shapes(w.sb);
	fd = world_fd(&w);
	run_expectations(f, fd, ex, sizeof(ex) / sizeof(ex[0]));
	close(fd);
	world_fini(&w);

	/* "~" itself covering the project, fenced, is dropped too. */
	opts_init(&o, f, -1);
	o.home = f->base;
	w.pol = policy_make(LF_ASK, rules, 3);
	assert_int_equal(lf_strv_push(&w.pol->host_read, "~"), 0);
	world_build(&w, f->proj, &o);
	assert_int_equal(w.rc, 0);
	assert_null(rule_at(w.sb, f->base));
	assert_true(dropped_with_fence(w.sb, f->base));
	world_fini(&w);

	/* A host path neither absolute nor "~/...": a policy error. */
	opts_init(&o, f, -1);
	w.pol = policy_make(LF_ASK, rules, 3);
	assert_int_equal(lf_strv_push(&w.pol->host_write, "relative/dir"), 0);
	world_build(&w, f->proj, &o);
	assert_int_equal(w.rc, -EINVAL);
	assert_non_null(strstr(w.diag.message, "relative/dir"));
	world_fini(&w);
}

/* Fallback allow: an implicit allow ** per class, fenced like any allow. */
static void test_fallback_materialised(void **state)
{
	struct fx *f = *state;
	static const struct spec_rule rules[] = {
		{ LF_CAP_WRITE, LF_DENY, "docs/**" },
	};
	static const struct expect ex[] = {
		{ OP_READ, "proj", "docs/b.txt", 0 },
		{ OP_READ, "proj", "secret/k.txt", 0 },
		{ OP_WRITE, "proj", "docs/b.txt", EACCES },
		{ OP_WRITE, "proj", "src/a.txt", EACCES },
		{ OP_READ, "home", "private.txt", EACCES },
	};
	const struct lf_sandbox_rule *r;
	struct world w = { 0 };
	struct lf_sandbox_opts o;
	int fd;

	if (!need_landlock())
		return;
	opts_init(&o, f, -1);
	unsetenv("LANDFENCE_ABI_MAX");
	w.pol = policy_make(LF_ALLOW, rules, 1);
	world_build(&w, f->proj, &o);
	assert_int_equal(w.rc, 0);
	r = rule_at(w.sb, f->proj);
	assert_non_null(r);
	assert_int_equal(r->origin, LF_ORIGIN_FALLBACK);
	assert_int_equal(r->access, RO); /* RW dropped: a write fence exists */
	assert_true(dropped_with_fence(w.sb, f->proj));
	fd = world_fd(&w);
	run_expectations(f, fd, ex, sizeof(ex) / sizeof(ex[0]));
	close(fd);
	world_fini(&w);

	/* No fence: both classes on the root. */
	w.pol = policy_make(LF_ALLOW, NULL, 0);
	world_build(&w, f->proj, &o);
	assert_int_equal(w.rc, 0);
	r = rule_at(w.sb, f->proj);
	assert_non_null(r);
	assert_int_equal(r->access, RO | RW);
	world_fini(&w);
}

/* The command and its interpreter, outside every grant, are granted
 * read+execute and reported; a fenced command is not. */
static void test_command_grant(void **state)
{
	struct fx *f = *state;
	static const struct spec_rule rules[] = {
		{ LF_CAP_READ, LF_ALLOW, "docs/**" },
		{ LF_CAP_READ, LF_DENY, "secret/**" },
	};
	char script[PATH_MAX], interp[PATH_MAX], body[PATH_MAX + 32], cmd[PATH_MAX * 2];
	char fenced[PATH_MAX];
	const struct lf_sandbox_rule *r;
	struct world w = { 0 };
	struct lf_sandbox_opts o;
	int fd;

	if (!need_landlock())
		return;
	fx_path(interp, f->out, "bin/mysh");
	fx_path(script, f->out, "run.sh");
	mkdir_p(strcat(strcpy(body, f->out), "/bin"));
	snprintf(cmd, sizeof(cmd), "cp /bin/sh '%s'", interp);
	assert_int_equal(system(cmd), 0);
	snprintf(body, sizeof(body), "#!%s\nexit 0\n", interp);
	put(script, body);
	fx_path(fenced, f->proj, "secret/tool.sh");
	put(fenced, "#!/bin/sh\nexit 0\n");

	opts_init(&o, f, -1);
	unsetenv("LANDFENCE_ABI_MAX");
	o.command = script;
	w.pol = policy_make(LF_DENY, rules, 2);
	world_build(&w, f->proj, &o);
	assert_int_equal(w.rc, 0);
	r = rule_at(w.sb, script);
	assert_non_null(r);
	assert_int_equal(r->origin, LF_ORIGIN_COMMAND);
	assert_int_equal(r->access, RO);
	r = rule_at(w.sb, interp);
	assert_non_null(r);
	assert_int_equal(r->origin, LF_ORIGIN_COMMAND);
	{
		size_t n = 0;

		for (size_t i = 0; i < lf_sandbox_notice_count(w.sb); i++)
			if (strstr(lf_sandbox_notice(w.sb, i), "outside the host grants"))
				n++;
		assert_int_equal(n, 2);
	}
	check_rule_shapes(w.sb);
	fd = world_fd(&w);
	assert_int_equal(child_op(fd, OP_EXEC, script), 0);
	assert_int_equal(child_op(fd, OP_READ, script), 0);
	assert_int_equal(child_op(fd, OP_WRITE, script), EACCES);
	assert_int_equal(child_op(fd, OP_EXEC, fenced), EACCES);
	close(fd);
	world_fini(&w);

	/* A command under the host grants adds nothing. */
	o.command = "/bin/true";
	w.pol = policy_make(LF_DENY, rules, 2);
	world_build(&w, f->proj, &o);
	assert_int_equal(w.rc, 0);
	for (size_t i = 0; i < lf_sandbox_rule_count(w.sb); i++)
		assert_int_not_equal(lf_sandbox_rule(w.sb, i)->origin, LF_ORIGIN_COMMAND);
	world_fini(&w);

	/* A fenced command is dropped, not granted. */
	o.command = fenced;
	w.pol = policy_make(LF_DENY, rules, 2);
	world_build(&w, f->proj, &o);
	assert_int_equal(w.rc, 0);
	assert_null(rule_at(w.sb, fenced));
	assert_true(dropped_with_fence(w.sb, fenced));
	world_fini(&w);
}

/* Duplicate paths from several sources are merged by unioning access. */
static void test_merge_duplicates(void **state)
{
	struct fx *f = *state;
	static const struct spec_rule rules[] = {
		{ LF_CAP_READ, LF_ALLOW, "docs/**" },
	};
	char docs[PATH_MAX];
	const struct lf_sandbox_rule *r;
	struct world w = { 0 };
	struct lf_sandbox_opts o;

	fx_path(docs, f->proj, "docs");
	opts_init(&o, f, -1);
	w.pol = policy_make(LF_ASK, rules, 1);
	assert_int_equal(lf_strv_push(&w.pol->host_write, docs), 0);
	world_build(&w, f->proj, &o);
	assert_int_equal(w.rc, 0);
	r = rule_at(w.sb, docs);
	assert_non_null(r);
	assert_int_equal(r->access, RO | RW);
	check_rule_shapes(w.sb);
	world_fini(&w);
}

/*
 * Claude Code saves ~/.claude.json under a lock directory
 * (~/.claude.json.lock), through a temporary file beside it
 * (~/.claude.json.tmp.PID.TIME) renamed over the original, and writes the
 * file in place when that fails. The profile grants the file only: the
 * lock and the temporary file are refused, the in-place write succeeds,
 * and nothing else can be created in the home directory.
 */
enum {
	DANCE_OK = 0,
	DANCE_LOCK_ALLOWED = 10,
	DANCE_TMP_ALLOWED = 11,
	DANCE_WRITE_FAILED = 12,
	DANCE_HOME_CREATE = 13,
	DANCE_BASHRC_WRITE = 14,
	DANCE_DIR_WRITE_FAILED = 15,
	DANCE_SETUP = 16,
};

static int claude_save_dance(const char *home)
{
	static const char content[] = "{\"new\":2}\n";
	char lock[PATH_MAX + 64], tmp[PATH_MAX + 64], cfg[PATH_MAX + 64], p[PATH_MAX + 64];
	int fd;
	bool locked = false;

	snprintf(lock, sizeof(lock), "%s/.claude.json.lock", home);
	snprintf(cfg, sizeof(cfg), "%s/.claude.json", home);
	snprintf(tmp, sizeof(tmp), "%s/.claude.json.tmp.%d.1770000000000", home, (int)getpid());
	if (mkdir(lock, 0777) == 0)
		locked = true;
	else if (errno != EACCES)
		return DANCE_SETUP;
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd >= 0) {
		/* The atomic path worked: finish it like Claude Code does. */
		if (write(fd, content, sizeof(content) - 1) < 0 || close(fd) < 0 ||
		    rename(tmp, cfg) < 0)
			return DANCE_WRITE_FAILED;
		return DANCE_TMP_ALLOWED;
	}
	/* The fallback, as Claude Code 2.1 does it (seen with strace): open
	 * O_RDWR|O_CREAT, write, cut the rest. */
	fd = open(cfg, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
	if (fd < 0)
		return DANCE_WRITE_FAILED;
	if (write(fd, content, sizeof(content) - 1) != (ssize_t)sizeof(content) - 1 ||
	    ftruncate(fd, (off_t)sizeof(content) - 1) < 0)
		return DANCE_WRITE_FAILED;
	close(fd);
	if (locked) {
		rmdir(lock);
		return DANCE_LOCK_ALLOWED;
	}
	/* Its own directory stays fully writable. */
	snprintf(p, sizeof(p), "%s/.claude/projects", home);
	if (mkdir(p, 0700) < 0)
		return DANCE_DIR_WRITE_FAILED;
	snprintf(p, sizeof(p), "%s/.claude/projects/s.jsonl", home);
	fd = open(p, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0)
		return DANCE_DIR_WRITE_FAILED;
	close(fd);
	/* Nothing else in the home directory. */
	snprintf(p, sizeof(p), "%s/evil", home);
	fd = open(p, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
	if (fd >= 0 || errno != EACCES)
		return DANCE_HOME_CREATE;
	snprintf(p, sizeof(p), "%s/.bashrc", home);
	fd = open(p, O_WRONLY | O_APPEND | O_CLOEXEC);
	if (fd >= 0 || errno != EACCES)
		return DANCE_BASHRC_WRITE;
	if (rename(cfg, p) == 0 || errno != EACCES)
		return DANCE_BASHRC_WRITE;
	return DANCE_OK;
}

/* landfence's configuration directory is a built-in write fence: a
 * project rooted at the home directory loses write there (reported like a
 * policy fence), and the directory stays readable through its own
 * read-only host grant. */
static void test_config_dir_fenced(void **state)
{
	struct fx *f = *state;
	char cfg[PATH_MAX], trusted[PATH_MAX], other[PATH_MAX];
	struct world w = { 0 };
	struct lf_sandbox_opts o;
	const struct lf_sandbox_rule *r;
	bool reported = false;
	int fd;

	if (!need_landlock())
		return;
	unsetenv("XDG_CONFIG_HOME");
	opts_init(&o, f, -1);
	fx_path(cfg, f->home, ".config/landfence");
	fx_path(trusted, f->home, ".config/landfence/trusted");
	fx_path(other, f->home, "notes.txt");
	mkdir_p(cfg);
	put(trusted, "0000 /x/.landfence/policy.json\n");
	put(other, "n\n");
	w.pol = policy_make(LF_ALLOW, NULL, 0);
	world_build(&w, f->home, &o);
	assert_int_equal(w.rc, 0);
	r = rule_at(w.sb, f->home);
	assert_non_null(r);
	assert_int_equal(r->access, RO);
	r = rule_at(w.sb, cfg);
	assert_non_null(r);
	assert_int_equal(r->access, RO);
	for (size_t i = 0; i < lf_sandbox_dropped_count(w.sb); i++) {
		const struct lf_sandbox_dropped *d = lf_sandbox_dropped(w.sb, i);
		if (d->fence && !strcmp(d->fence, cfg) && d->access == RW &&
		    !strcmp(d->path, f->home))
			reported = true;
	}
	assert_true(reported);
	fd = world_fd(&w);
	assert_int_equal(child_op(fd, OP_READ, trusted), 0);
	assert_int_equal(child_op(fd, OP_WRITE, trusted), EACCES);
	assert_int_equal(child_op(fd, OP_READ, other), 0);
	assert_int_equal(child_op(fd, OP_WRITE, other), EACCES);
	close(fd);
	world_fini(&w);
}

static void test_claude_save_dance(void **state)
{
	struct fx *f = *state;
	const char *claude[] = { "claude" };
	char cfg[PATH_MAX], buf[64];
	struct world w = { 0 };
	struct lf_sandbox_opts o;
	int fd, status;
	ssize_t n;
	pid_t pid;

	if (!need_landlock())
		return;
	opts_init(&o, f, -1);
	unsetenv("LANDFENCE_ABI_MAX");
	o.profiles = claude;
	o.nprofiles = 1;
	w.pol = policy_make(LF_DENY, NULL, 0);
	world_build(&w, f->proj, &o);
	assert_int_equal(w.rc, 0);
	fd = world_fd(&w);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 || lf_landlock_restrict(fd) < 0)
			_exit(DANCE_SETUP);
		_exit(claude_save_dance(f->home));
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), DANCE_OK);
	close(fd);
	fx_path(cfg, f->home, ".claude.json");
	fd = open(cfg, O_RDONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	assert_true(n > 0);
	buf[n] = '\0';
	assert_string_equal(buf, "{\"new\":2}\n");
	world_fini(&w);
}

/* Terminal ioctls: only on /dev/tty, /dev/ptmx, /dev/pts. */
static void test_ioctl_dev_only_terminals(void **state)
{
	struct fx *f = *state;
	static const struct spec_rule rules[] = {
		{ LF_CAP_READ, LF_ALLOW, "**" },
		{ LF_CAP_WRITE, LF_ALLOW, "**" },
	};
	struct world w = { 0 };
	struct lf_sandbox_opts o;
	size_t with = 0;

	opts_init(&o, f, kernel_abi() >= 5 ? 5 : -1);
	w.pol = policy_make(LF_ALLOW, rules, 2);
	assert_int_equal(lf_strv_push(&w.pol->host_write, "/dev"), 0);
	assert_int_equal(lf_strv_push(&w.pol->host_write, "/dev/null"), 0);
	world_build(&w, f->proj, &o);
	assert_int_equal(w.rc, 0);
	check_rule_shapes(w.sb);
	for (size_t i = 0; i < lf_sandbox_rule_count(w.sb); i++) {
		const struct lf_sandbox_rule *r = lf_sandbox_rule(w.sb, i);

		if (r->ioctl_dev)
			with++;
	}
	assert_true(with <= 3);
	assert_false(rule_at(w.sb, "/dev")->ioctl_dev);
	world_fini(&w);
}

/* lf_sandbox_describe: the value as lines, the three header lines first,
 * the entries sorted, the run directory written $TMPDIR, every rule,
 * fence and scrubbed variable present once. */
static void test_describe(void **state)
{
	static const struct spec_rule rules[] = {
		{ LF_CAP_READ, LF_ALLOW, "src/**" },
		{ LF_CAP_WRITE, LF_DENY, "src/gen/**" },
	};
	struct fx *f = *state;
	struct world w = { 0 };
	struct lf_sandbox_opts o;
	char rundir[PATH_MAX], want[PATH_MAX + 64], *text = NULL;

	fx_path(rundir, f->base, "run-describe");
	mkdir_p(rundir);
	opts_init(&o, f, -1);
	o.run_dir = rundir;
	w.pol = policy_make(LF_DENY, rules, 2);
	world_build(&w, f->proj, &o);
	if (w.rc == -EOPNOTSUPP) {
		world_fini(&w);
		return; /* no Landlock here: no value */
	}
	assert_int_equal(w.rc, 0);
	assert_int_equal(lf_sandbox_describe(w.sb, &text), 0);
	snprintf(want, sizeof(want), "abi %d\nfallback deny\nstatus ", lf_sandbox_abi(w.sb));
	assert_int_equal(strncmp(text, want, strlen(want)), 0);
	assert_non_null(strstr(text, "\nrule read+write $TMPDIR run-dir\n"));
	assert_null(strstr(text, rundir));
	snprintf(want, sizeof(want), "\nrule read %s/src policy\n", f->proj);
	assert_non_null(strstr(text, want));
	snprintf(want, sizeof(want), "\nfence write %s/src/gen\n", f->proj);
	assert_non_null(strstr(text, want));
	assert_non_null(strstr(text, "\nenv SSH_AUTH_SOCK\n"));
	assert_non_null(strstr(text, "\nenv LANDFENCE_*\n"));
	/* Sorted after the header. */
	const char *prev = NULL;
	size_t lines = 0;
	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n"), lines++)
		if (lines >= 3) {
			if (prev)
				assert_true(strcmp(prev, line) <= 0);
			prev = line;
		}
	assert_int_equal(lines, 3 + lf_sandbox_rule_count(w.sb) + lf_sandbox_fence_count(w.sb) +
					lf_sandbox_env_count(w.sb));
	free(text);
	world_fini(&w);
}

/* The three stages by hand, with grants discovered on the host: one
 * outside every fence becomes a toolchain rule, one that covers a fence of
 * its class loses that class and is listed as dropped, as every grant. */
static void test_discovered_grants_fenced(void **state)
{
	static const struct spec_rule rules[] = {
		{ LF_CAP_READ, LF_ALLOW, "src/**" },
		{ LF_CAP_READ, LF_DENY, "src/secret/**" },
	};
	struct fx *f = *state;
	struct world w = { 0 };
	struct lf_sandbox_input *in = NULL;
	struct lf_sandbox *sb = NULL;
	struct lf_diag d;
	char tool[PATH_MAX], src[PATH_MAX], canon_src[PATH_MAX];
	struct lf_sandbox_opts o;

	fx_path(tool, f->out, "toolchain");
	mkdir_p(tool);
	fx_path(src, f->proj, "src");
	mkdir_p(src);
	assert_non_null(realpath(src, canon_src));
	opts_init(&o, f, -1);
	w.pol = policy_make(LF_ASK, rules, 2);
	world_build(&w, f->proj, &o);
	assert_int_equal(w.rc, 0);
	const struct lf_discovered found[] = {
		{ tool, LF_ACCESS_RO, "PATH entry (test)" },
		{ src, LF_ACCESS_RO, "a toolchain in the project (test)" },
	};
	struct lf_host host = {
		.project_root = f->proj,
		.home = f->home,
		.discovered = found,
		.ndiscovered = 2,
	};
	assert_int_equal(lf_landlock_probe(-1, &host.probe), 0);
	assert_int_equal(lf_sandbox_sources(w.eff, w.plan, &host, NULL, 0, &in, &d), 0);
	assert_int_equal(lf_facts_gather(in), 0);
	assert_int_equal(lf_sandbox_compile(in, &sb, &d), 0);
	const struct lf_sandbox_rule *r = rule_at(sb, tool);
	assert_non_null(r);
	assert_int_equal(r->origin, LF_ORIGIN_TOOLCHAIN);
	assert_string_equal(r->why, "PATH entry (test)");
	/* src is read-fenced by src/secret: the discovered grant is dropped. */
	assert_null(rule_at(sb, canon_src));
	bool dropped = false;
	for (size_t i = 0; i < lf_sandbox_dropped_count(sb); i++) {
		const struct lf_sandbox_dropped *x = lf_sandbox_dropped(sb, i);
		dropped = dropped || (x->origin == LF_ORIGIN_TOOLCHAIN && x->fence &&
				      !strcmp(x->path, canon_src));
	}
	assert_true(dropped);
	lf_sandbox_free(sb);
	lf_sandbox_input_free(in);
	world_fini(&w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rights_per_abi),
		cmocka_unit_test(test_abi_probe_cap),
		cmocka_unit_test_setup_teardown(test_status, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_abi_env_garbage, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_host_grants_and_shapes, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_profiles, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_reads_writes_as_planned, fx_setup,
						fx_teardown),
		cmocka_unit_test_setup_teardown(test_enforced_at_every_abi, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_degraded_truncate_is_real, fx_setup,
						fx_teardown),
		cmocka_unit_test_setup_teardown(test_seed_scenarios, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_symlink_to_fence, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_project_root_symlink, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_parent_swapped_for_link, fx_setup,
						fx_teardown),
		cmocka_unit_test_setup_teardown(test_host_missing_and_fenced, fx_setup,
						fx_teardown),
		cmocka_unit_test_setup_teardown(test_fallback_materialised, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_command_grant, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_merge_duplicates, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_claude_save_dance, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_config_dir_fenced, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_describe, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_discovered_grants_fenced, fx_setup,
						fx_teardown),
		cmocka_unit_test_setup_teardown(test_ioctl_dev_only_terminals, fx_setup,
						fx_teardown),
	};

	unsetenv("LANDFENCE_ABI_MAX");
	return cmocka_run_group_tests_name("landlock", tests, NULL, NULL);
}
