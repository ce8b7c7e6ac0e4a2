/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The registry of the console's run modes: which setup fields, preset and screen each mode's runs get, one line each. */
#include "setup_mode.h"

#include <stddef.h>

#include "app.h"

/* A run's first: it is the mode of every run no other mode claims. */
static const struct setup_mode *const modes[] = {
	&setup_run,
	&setup_thermal, /* setup_thermal.c: a thermal check, on screen_thermal.c */
};
#define NMODES (sizeof modes / sizeof modes[0])

const struct setup_mode *setup_mode_timed(void)
{
	for (size_t i = 0; i < NMODES; i++)
		if (modes[i]->timed)
			return modes[i];
	return modes[0];
}

const struct setup_mode *setup_mode_of(const struct app *a)
{
	return a->req.run.timed_seconds > 0 ? setup_mode_timed() : modes[0];
}

const struct setup_mode *setup_mode_of_run(const struct run *r)
{
	for (size_t i = 0; i < NMODES; i++)
		if (modes[i]->shows && modes[i]->shows(r))
			return modes[i];
	return modes[0];
}

const struct setup_preset *setup_preset_at(int i, const struct setup_mode **mode)
{
	for (size_t m = 0; m < NMODES && i >= 0; m++) {
		if ((size_t)i < modes[m]->npresets) {
			*mode = modes[m];
			return &modes[m]->presets[i];
		}
		i -= (int)modes[m]->npresets;
	}
	return NULL;
}
