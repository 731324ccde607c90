/* SPDX-License-Identifier: MIT */
/*
 * Host facts that depend on no policy (hostfacts.h): the password
 * database's homes. (A thread gathering this and the look at /etc while
 * the policy was read was tried: on the 2-processor VM it saved 1 % of a
 * launch's wall time and cost 15 % more CPU, so facts are gathered where
 * they are needed; bench/README.md.)
 */
#include <errno.h>
#include <pwd.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/model.h"
#include "fs/fs.h"
#include "fs/hostfacts.h"

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
