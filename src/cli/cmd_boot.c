/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `kbench boot`: this boot's time as systemd measures it (or the kernel's clock when init started), stored as a run. */
#include "commands.h"

#include <stdio.h>

#include "boottime.h"
#include "options.h"

int cmd_boot(int argc, char **argv)
{
	struct opt_parsed p;
	int rc = opts_parse(opts_command("boot"), argc, argv, &p);
	if (rc >= 0)
		return rc;
	struct boot_args a = { NULL };
	char err[512], id[16];
	rc = opts_apply(&p, NULL, &a, err, sizeof err);
	int extra = p.noperands;
	opts_free(&p);
	if (rc < 0)
		return usage_error("%s", err);
	if (extra)
		return usage_error("boot takes no tests: it measures this boot");
	if (boottime_store(a.name, stdout, id, sizeof id, err, sizeof err) < 0)
		return runtime_error("%s", err);
	printf("Stored as %s: 'kbench compare' of two kernels' boot runs compares their boot times (lower is better).\n",
	       id);
	return 0;
}
