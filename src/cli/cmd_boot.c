/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `kbench boot`: this boot's time as systemd measures it (or the kernel's clock when init started), stored as a run. */
#include "commands.h"

#include <stdio.h>

#include "boottime.h"
#include "options.h"

extern const struct opt_command cmd_boot_entry;

/* kbench boot's own options. */
struct boot_args {
	const char *name;
};

static const struct opt_def boot_rows[] = {
	{ .name = "name", .kind = OK_STRING,
	  .arg = "NAME", .what = "a name",
	  .help = "the stored run's name (default: the kernel release)",
	  OPT_OWN(struct boot_args, name) },
	{ .name = NULL },
};

static int boot_exec(int argc, char **argv)
{
	struct opt_parsed p;
	struct boot_args a = { NULL };
	char err[512], id[16];
	int rc = opts_take(&cmd_boot_entry, argc, argv, &p, NULL, &a);
	if (rc >= 0)
		return rc;
	int extra = p.noperands;
	opts_free(&p);
	if (extra)
		return usage_error("boot takes no tests: it measures this boot");
	if (boottime_store(a.name, stdout, id, sizeof id, err, sizeof err) < 0)
		return runtime_error("%s", err);
	printf("Stored as %s: 'kbench compare' of two kernels' boot runs compares their boot times (lower is better).\n",
	       id);
	return 0;
}

const struct opt_command cmd_boot_entry = {
	.name = "boot", .args = "[--name NAME]", .about = "this boot's time, phase by phase, stored as a run",
	.text = "Reads this boot's time as systemd measures it (systemd-analyze time: firmware, loader,\n"
		"kernel, initrd, userspace and the total, with blame's slowest units and the critical\n"
		"chain), or without systemd the kernel's clock when init started, and stores it as a run\n"
		"whose result 'boot' compares like any other (lower is better). A phase not measured says\n"
		"why. Each 'kbench plan step' records its boot's time the same way.",
	.options = boot_rows, .exec = boot_exec,
};
