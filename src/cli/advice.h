/* SPDX-License-Identifier: MIT */
/*
 * The advisory answer shared by `landfence check` and `landfence hook`
 * (src/cli/check.c): the policy's verdict, and for a file request what the
 * kernel will do with it under the compiled plan. An agent is never told
 * allow for what the kernel refuses (doc/hook.md).
 */
#ifndef LF_CLI_ADVICE_H
#define LF_CLI_ADVICE_H

#include <stdbool.h>

#include "cli/cli.h"
#include "landfence.h"

struct lf_plan;
struct lf_sandbox;

/* What answers: the loaded policy and, built on first need, the plan and
 * the final Landlock rules. */
struct lf_advisor {
	struct lf_cli_state *st;
	const char *profiles[LF_CLI_MAX_PROFILES + 1];
	size_t nprofiles;
	bool kernel_ready; /* plan and sandbox tried */
	int kernel_err;	   /* < 0: building them failed (-EOPNOTSUPP: KernelTooOld) */
	char kernel_msg[600];
	struct lf_plan *plan;
	struct lf_sandbox *sb;
};

struct lf_advice {
	enum lf_effect effect;	  /* the answer for the agent */
	struct lf_verdict policy; /* the policy's verdict */
	bool kernel_checked;	  /* a file request: the kernel was consulted */
	bool kernel_enforced;	  /* Landlock will enforce the plan here */
	bool kernel_grants;	  /* a final rule of the class covers the path */
	bool downgraded;	  /* the policy said allow or ask, the kernel refuses */
	char path[4096];	  /* the request's absolute path (file requests) */
	char kernel[1024];	  /* what the kernel will do, and why */
};

/* Sets up an advisor over a loaded state; profiles are the --profile names
 * (the policy's own "profiles" are added). */
void lf_advisor_init(struct lf_advisor *a, struct lf_cli_state *st, const char *const *profiles,
		     size_t nprofiles);
void lf_advisor_fini(struct lf_advisor *a);

/* A file request: cap read, write or delete; path absolute, or relative to
 * cwd (absolute; NULL = the project root). Returns 0, -EINVAL, -ENOMEM. */
int lf_advise_file(struct lf_advisor *a, enum lf_capability cap, const char *path, const char *cwd,
		   struct lf_advice *out);

/* A command line, run in cwd (absolute; NULL = the project root). */
int lf_advise_bash(struct lf_advisor *a, const char *line, const char *cwd, struct lf_advice *out);

/* The deciding rule in words: "LAYER FILE:LINE:COLUMN", "fallback", or
 * "not analysable: …". */
void lf_advice_rule(const struct lf_verdict *v, char *buf, size_t size);

/* snprintf that may truncate on purpose (messages for people). */
void lf_text(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif /* LF_CLI_ADVICE_H */
