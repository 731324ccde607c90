/* SPDX-License-Identifier: MIT */
/*
 * The embedded default policy (SPEC §4): with no policy file, the project
 * is readable and writable and every command may run; the fallback deny
 * keeps everything else (home, other projects, keys) out of reach, while
 * the adapter's host grants make programs run at all. It is kept as text
 * and read by the ordinary parser so that every rule has a source line
 * that `landfence plan` can show.
 */
#include <errno.h>
#include <string.h>

#include "core/model.h"
#include "policy/policy.h"

const char lf_policy_default_text[] =
	"{\n"
	"  \"version\": 1,\n"
	"  \"fallback\": \"deny\",\n"
	"  \"rules\": [\n"
	"    { \"effect\": \"allow\", \"capability\": \"read\",   \"paths\": [\"**\"] },\n"
	"    { \"effect\": \"allow\", \"capability\": \"write\",  \"paths\": [\"**\"] },\n"
	"    { \"effect\": \"allow\", \"capability\": \"delete\", \"paths\": [\"**\"] },\n"
	"    { \"effect\": \"allow\", \"capability\": \"bash\" }\n"
	"  ]\n"
	"}\n";

int lf_policy_default(struct lf_policy **out)
{
	struct lf_diag diag;
	struct lf_policy *p;
	int r;

	if (!out)
		return -EINVAL;
	r = lf_policy_parse(lf_policy_default_text, strlen(lf_policy_default_text),
			    LF_POLICY_DEFAULT_FILE, LF_LAYER_PROJECT, &p, &diag);
	if (r < 0)
		return r;
	*out = p;
	return 0;
}
