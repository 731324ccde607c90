/* SPDX-License-Identifier: MIT */
/* Names of the model's enumerations and the diagnostic format. Pure. */
#include <stdio.h>

#include "core/model.h"

const char *lf_effect_name(enum lf_effect effect)
{
	switch (effect) {
	case LF_ALLOW:
		return "allow";
	case LF_ASK:
		return "ask";
	case LF_DENY:
		return "deny";
	}
	return "?";
}

const char *lf_capability_name(enum lf_capability cap)
{
	switch (cap) {
	case LF_CAP_READ:
		return "read";
	case LF_CAP_WRITE:
		return "write";
	case LF_CAP_DELETE:
		return "delete";
	case LF_CAP_BASH:
		return "bash";
	}
	return "?";
}

const char *lf_layer_name(enum lf_layer layer)
{
	switch (layer) {
	case LF_LAYER_USER:
		return "user";
	case LF_LAYER_PROJECT:
		return "project";
	case LF_LAYER_AGENT:
		return "agent";
	case LF_LAYER_LOCAL:
		return "local";
	}
	return "?";
}

int lf_diag_format(const struct lf_diag *diag, char *buf, size_t size)
{
	if (!diag) {
		if (buf && size > 0)
			buf[0] = '\0';
		return 0;
	}
	/* snprintf only formats into memory; a NULL buffer just measures. */
	return snprintf(size ? buf : NULL, size, "%s:%u:%u: %s", diag->file, diag->line,
			diag->column, diag->message);
}
