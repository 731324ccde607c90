/* SPDX-License-Identifier: MIT */
/* Development scaffold: weak entries for subcommands not yet written. */
#include <stdio.h>

#include "cli/cli.h"

#define PENDING(fn)                                                            \
	__attribute__((weak)) int fn(int argc, char **argv)                    \
	{                                                                      \
		(void)argc;                                                    \
		fprintf(stderr, "landfence: %s: not built yet\n", argv[0]);    \
		return LF_EXIT_OWN;                                            \
	}
PENDING(lf_cmd_run)
PENDING(lf_cmd_plan)
PENDING(lf_cmd_check)
PENDING(lf_cmd_hook)
PENDING(lf_cmd_import)
PENDING(lf_cmd_export)
PENDING(lf_cmd_doctor)
PENDING(lf_cmd_init)
PENDING(lf_cmd_trust)
