/* SPDX-License-Identifier: MIT */
/*
 * Host facts gathered on threads while the policy is read (prefetch.h).
 * Each fact is a job: run on a thread started by lf_prefetch_start, waited
 * for by the one consumer that asks for it, its result then handed over
 * whole. With three or more processors each job has a thread of its own;
 * with fewer, one thread runs the password database first (the project's
 * safety check asks for it early) and then /etc, so that the calling
 * thread keeps a processor to itself. A job's result is written by its
 * thread alone until the job says it is done (under the lock), and read
 * by the calling thread alone after that. Whatever goes wrong with a
 * thread leaves the consumer to gather the fact itself.
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
#include "fs/fs.h"
#include "fs/prefetch.h"

/* The only root the /etc job walks: lf_prefetch_etc hands its result over
 * for this very string, as facts_etc would have walked it. */
static const char etc_root[] = "/etc";

struct job {
	bool queued; /* a started thread will run it */
	bool done;   /* its result is written (under lock) */
	bool taken;  /* the result was handed over (or freed) */
	int r;
	void (*run)(struct job *j);
};

static struct lf_etc_scan etc_result;
static struct lf_homes homes_result;

static void etc_run(struct job *j)
{
	j->r = lf_etc_scan(etc_root, &etc_result);
}

static void homes_run(struct job *j)
{
	j->r = lf_homes_read(&homes_result);
}

static struct job homes_job = { .run = homes_run }, etc_job = { .run = etc_run };
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t done_cond = PTHREAD_COND_INITIALIZER;
static pthread_t threads[2];
static size_t nthreads;
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
	struct lf_realpath_memo memo = { 0 };
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
		dir = lf_realpath_memo(&memo, pw->pw_dir, NULL);
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
	lf_realpath_memo_fini(&memo);
	if (r < 0)
		lf_homes_fini(out);
	return r;
}

/* A thread's jobs, in order, ending with NULL. */
static void *worker(void *arg)
{
	struct job **jobs = arg;

	for (size_t i = 0; jobs[i]; i++) {
		jobs[i]->run(jobs[i]);
		/* A lock that fails (never seen) leaves done false: the
		 * consumer then waits for the thread's end instead. */
		if (pthread_mutex_lock(&lock) == 0) {
			jobs[i]->done = true;
			(void)pthread_cond_broadcast(&done_cond);
			(void)pthread_mutex_unlock(&lock);
		}
	}
	return NULL;
}

/* The jobs of each thread: static, the threads read them until joined. */
static struct job *queues[2][3];

static bool thread_start(struct job **jobs)
{
	if (pthread_create(&threads[nthreads], NULL, worker, jobs) != 0)
		return false;
	nthreads++;
	for (size_t i = 0; jobs[i]; i++)
		jobs[i]->queued = true;
	return true;
}

/* Waits for every thread: their jobs are then done, or never will be. */
static bool threads_join(void)
{
	bool ok = true;

	for (size_t i = 0; i < nthreads; i++)
		ok &= pthread_join(threads[i], NULL) == 0;
	nthreads = 0;
	return ok;
}

/* Waits until the job is done; false when that cannot be known. A lock
 * or a wait that fails (never seen) waits for the threads' end instead:
 * a thread that ended has run every job it had. */
static bool job_wait(struct job *j)
{
	bool done;

	if (pthread_mutex_lock(&lock) != 0)
		return threads_join();
	while (!j->done)
		if (pthread_cond_wait(&done_cond, &lock) != 0)
			break;
	done = j->done;
	(void)pthread_mutex_unlock(&lock);
	return done || threads_join();
}

void lf_prefetch_start(unsigned what)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	bool each =
		(what & LF_PREFETCH_THREAD_EACH) || (!(what & LF_PREFETCH_THREAD_ONE) && cpus >= 3);
	sigset_t all, saved;
	size_t q = 0, k = 0;

	if (prefetch_started)
		return;
	prefetch_started = true;
	if (what & LF_PREFETCH_HOMES)
		queues[q][k++] = &homes_job;
	if (each && k) {
		q++;
		k = 0;
	}
	if (what & LF_PREFETCH_ETC)
		queues[q][k++] = &etc_job;
	/* The threads inherit this mask: every signal stays with the
	 * calling thread and its handlers. */
	if (sigfillset(&all) != 0 || pthread_sigmask(SIG_SETMASK, &all, &saved) != 0)
		return;
	for (size_t i = 0; i < 2 && queues[i][0]; i++)
		if (!thread_start(queues[i]))
			break;
	(void)pthread_sigmask(SIG_SETMASK, &saved, NULL);
}

int lf_prefetch_etc(const char *root, struct lf_etc_scan *out)
{
	if (etc_job.queued && !etc_job.taken && strcmp(root, etc_root) == 0) {
		if (!job_wait(&etc_job))
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
	if (homes_job.queued && !homes_job.taken) {
		if (!job_wait(&homes_job))
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
	/* After the join no thread writes, and every queued job has run:
	 * what nobody took is freed. A join that fails (never seen) leaves
	 * the results alone. */
	if (!threads_join())
		return;
	if (etc_job.queued && !etc_job.taken) {
		etc_job.taken = true;
		lf_etc_scan_fini(&etc_result);
	}
	if (homes_job.queued && !homes_job.taken) {
		homes_job.taken = true;
		lf_homes_fini(&homes_result);
	}
}
