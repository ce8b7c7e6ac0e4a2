/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `kbench sensors`: the temperatures, frequencies, throttle and power sources this machine offers, the way sensors shows them, or a tar of the files read. */
#include "commands.h"

#include <stdio.h>

#include "options.h"
#include "request.h"
#include "telemetry/dump.h"
#include "telemetry/source.h"

extern const struct opt_command cmd_sensors_entry;

/* Where its options land: --sensor (a run option too, landing in the run request) and --dump. */
struct sensors_opts {
	const char *dump;
};

static const struct opt_def sensors_rows[] = {
	{ .name = "dump", .kind = OK_STRING,
	  .arg = "FILE", .what = "a file name",
	  .help = "write a tar of the sysfs and procfs files kbench reads (values, labels,\n"
		  "modes; no serial numbers or host names) to attach to a bug report",
	  OPT_OWN(struct sensors_opts, dump) },
	{ .name = NULL },
};

static int sensors_exec(int argc, char **argv)
{
	struct opt_parsed p;
	static struct run_request rq;
	run_request_init(&rq); /* a second call (the cli fuzzer's) keeps no --sensor of the first */
	struct sensors_opts own = { 0 };
	int rc = opts_take(&cmd_sensors_entry, argc, argv, &p, &rq, &own);
	if (rc >= 0)
		return rc;
	char err[240];
	const char *override = rq.tele.sensor, *dump = own.dump;
	if (p.noperands)
		rc = usage_error("sensors: unexpected argument '%s' (try 'kbench sensors --help')",
				 p.operand[0]);
	opts_free(&p);
	if (rc >= 0)
		return rc;
	if (dump) {
		if (!*dump)
			return usage_error("sensors: --dump wants a file name");
		int n = telemetry_dump(dump, err, sizeof err);
		if (n < 0)
			return runtime_error("%s", err);
		printf("wrote %s: %d files kbench reads (values and modes; no serial numbers or host names)\n",
		       dump, n);
		return 0;
	}
	/* Each source's section (src/telemetry/registry.c lists them). */
	if (telemetry_show_sources(stdout, override, err, sizeof err) < 0)
		return usage_error("%s", err);
	printf("\nCounters: see 'kbench events'\n");
	return 0;
}

const struct opt_command cmd_sensors_entry = {
	.name = "sensors", .bit = OC_SENSORS, .args = "[--sensor CHIP:LABEL] [--dump FILE]",
	.about = "temperatures, frequencies, throttle and power sources here",
	.text = "The chips, temperatures, frequencies, throttle counters and power sources\n"
		"found here, with the headline choices, or why each is unavailable.",
	.options = sensors_rows, .exec = sensors_exec,
};
