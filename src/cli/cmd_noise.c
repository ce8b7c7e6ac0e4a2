/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `kbench noise`: this machine's run-to-run noise floor per test and setting, and how it was learned. */
#include "commands.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "noise.h"
#include "options.h"
#include "run.h"

extern const struct opt_command cmd_noise_entry;

static int noise_exec(int argc, char **argv)
{
	struct opt_parsed p;
	int rc = opts_parse(&cmd_noise_entry, argc, argv, &p);
	if (rc >= 0)
		return rc;
	rc = p.noperands ? usage_error("noise takes no arguments (got '%s')", p.operand[0]) : -1;
	opts_free(&p);
	if (rc >= 0)
		return rc;
	char err[512];
	struct noise_table nt;
	if (noise_learn_store(&nt, NULL, 0, err, sizeof err) < 0)
		return runtime_error("%s", err);
	printf("Run-to-run noise floor per test (sd of one run's score between identical\n"
	       "runs; two single runs must differ by about 2.8 x this to count as a change).\n"
	       "Each setting (quick, full, or --duration and -i) has its own: a quick run\n"
	       "moves more. The full defaults widen by sqrt(nominal/actual), at most 3x, for\n"
	       "shorter samples.\n");
	if (nt.groups)
		printf("Learned from %d stored runs in %d set%s of same kernel and settings, blended\n"
		       "with the defaults (each default counts as %d A/A comparison%s).\n",
		       nt.runs, nt.groups, nt.groups == 1 ? "" : "s", NOISE_PRIOR_DF,
		       NOISE_PRIOR_DF == 1 ? "" : "s");
	else
		printf("No A/A runs stored yet (two or more runs of one kernel with the same settings):\n"
		       "the defaults below are used. 'kbench calibrate' learns this machine's.\n");
	/* The two usual settings always, then every other one something was learned for. */
	struct run *like = run_new();
	static const struct run_mode_info *const modes[] = { &run_mode_full, &run_mode_quick };
	char shown[16][64];
	int nshown = 0;
	for (int i = 0; i < 2; i++) {
		like->meta.mode = modes[i];
		noise_setting(like, shown[nshown], sizeof shown[0]);
		printf("\n%s runs:\n", shown[nshown++]);
		noise_print(stdout, &nt, like, NULL);
	}
	for (int i = 0; i < nt.n && nshown < 16; i++) {
		bool seen = false;
		for (int k = 0; k < nshown && !seen; k++)
			seen = !strcmp(shown[k], nt.f[i].setting);
		if (seen)
			continue;
		/* A run of that setting, for the defaults that go with it. */
		memset(&like->meta, 0, sizeof like->meta);
		like->meta.mode = nt.f[i].mode;
		like->meta.duration_override = nt.f[i].duration_override;
		like->meta.iterations = nt.f[i].iterations;
		const char *st = nt.f[i].setting;
		snprintf(shown[nshown], sizeof shown[0], "%s", st);
		printf("\n%s runs:\n", shown[nshown++]);
		noise_print(stdout, &nt, like, NULL);
	}
	run_free(like);
	noise_free(&nt);
	return 0;
}

const struct opt_command cmd_noise_entry = {
	.name = "noise", .args = "", .about = "this machine's run-to-run noise floor per test",
	.text = "The run-to-run noise floor per test and setting, and how it was learned.",
	.exec = noise_exec,
};
