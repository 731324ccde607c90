/* SPDX-License-Identifier: MIT */
/*
 * Host facts gathered on threads while the policy is read (prefetch.h).
 * Each fact has one job: a thread started by lf_prefetch_start, joined by
 * the one consumer that asks for it (or by lf_prefetch_end), its result
 * then handed over whole. Only the calling thread starts, joins and takes;
 * a job's result is written by its thread alone until the join, so no lock
 * is needed. Whatever goes wrong with a thread leaves the consumer to
 * gather the fact itself.
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <pwd.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/model.h"
#include "core/sandbox.h"
#include "fs/prefetch.h"

/* The only root the /etc job walks: lf_prefetch_etc hands its result over
 * for this very string, as facts_etc would have walked it. */
static const char etc_root[] = "/etc";

struct job {
	pthread_t thread;
	bool started; /* the thread runs or ran */
	bool joined;  /* and has been waited for: its result is ours */
	bool taken;   /* the result was handed over */
	int r;
};

static struct job etc_job, homes_job;
static struct lf_etc_scan etc_result;
static struct lf_homes homes_result;
static bool prefetch_started;

void lf_homes_fini(struct lf_homes *h)
{
	for (size_t i = 0; i < h->n; i++) {
		free(h->v[i].dir);
		free(h->v[i].name);
	}
	free(h->v);
	memset(h, 0, sizeof(*h));
}

int lf_homes_read(struct lf_homes *out)
{
	size_t cap = 0;
	int r = 0;

	memset(out, 0, sizeof(*out));
	setpwent();
	for (struct passwd *pw; r == 0 && (pw = getpwent());) {
		char *dir;

		if (!pw->pw_dir || pw->pw_dir[0] != '/' || strcmp(pw->pw_dir, "/") == 0)
			continue;
		/* A home that cannot be resolved (not there yet, not ours
		 * to look into) is compared as written. */
		dir = realpath(pw->pw_dir, NULL);
		if (!dir && errno == ENOMEM)
			r = -ENOMEM;
		if (r == 0 && !dir && !(dir = strdup(pw->pw_dir)))
			r = -ENOMEM;
		if (r == 0 && lf_grow((void **)&out->v, &cap, out->n, sizeof(*out->v)) < 0)
			r = -ENOMEM;
		if (r == 0) {
			out->v[out->n] =
				(struct lf_home){ dir, strdup(pw->pw_name ? pw->pw_name : "?"),
						  pw->pw_uid };
			if (!out->v[out->n].name)
				r = -ENOMEM;
			out->n++;
			dir = NULL;
		}
		free(dir);
	}
	endpwent();
	if (r < 0)
		lf_homes_fini(out);
	return r;
}

static void *etc_main(void *arg)
{
	(void)arg;
	etc_job.r = lf_etc_scan(etc_root, &etc_result);
	return NULL;
}

static void *homes_main(void *arg)
{
	(void)arg;
	homes_job.r = lf_homes_read(&homes_result);
	return NULL;
}

static void job_start(struct job *j, void *(*fn)(void *))
{
	j->started = pthread_create(&j->thread, NULL, fn, NULL) == 0;
}

/* Waits for the job's thread; true when its result may be read. A join
 * that fails leaves the result to the thread: it is never read or freed
 * (never seen: pthread_join fails only on a thread that is not joinable). */
static bool job_join(struct job *j)
{
	if (j->started && !j->joined)
		j->joined = pthread_join(j->thread, NULL) == 0;
	return j->joined;
}

void lf_prefetch_start(unsigned what)
{
	sigset_t all, saved;

	if (prefetch_started)
		return;
	prefetch_started = true;
	/* The threads inherit this mask: every signal stays with the
	 * calling thread and its handlers. */
	if (sigfillset(&all) != 0 || pthread_sigmask(SIG_SETMASK, &all, &saved) != 0)
		return;
	if (what & LF_PREFETCH_HOMES)
		job_start(&homes_job, homes_main);
	if (what & LF_PREFETCH_ETC)
		job_start(&etc_job, etc_main);
	(void)pthread_sigmask(SIG_SETMASK, &saved, NULL);
}

int lf_prefetch_etc(const char *root, struct lf_etc_scan *out)
{
	if (etc_job.started && !etc_job.taken && strcmp(root, etc_root) == 0) {
		if (!job_join(&etc_job))
			return -EIO;
		etc_job.taken = true;
		*out = etc_result;
		memset(&etc_result, 0, sizeof(etc_result));
		return etc_job.r;
	}
	return lf_etc_scan(root, out);
}

int lf_prefetch_homes(struct lf_homes *out)
{
	if (homes_job.started && !homes_job.taken) {
		if (!job_join(&homes_job))
			return -EIO;
		homes_job.taken = true;
		*out = homes_result;
		memset(&homes_result, 0, sizeof(homes_result));
		return homes_job.r;
	}
	return lf_homes_read(out);
}

void lf_prefetch_end(void)
{
	if (job_join(&etc_job) && !etc_job.taken) {
		etc_job.taken = true;
		lf_etc_scan_fini(&etc_result);
	}
	if (job_join(&homes_job) && !homes_job.taken) {
		homes_job.taken = true;
		lf_homes_fini(&homes_result);
	}
}
