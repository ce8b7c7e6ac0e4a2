/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A counter's reading as perf stat gives it: scaled for multiplexing, summed over core-type PMUs and copies, its state when there is no value, and ratios that are n/a without both sides. */
#include "telemetry/counters.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

enum counter_state counter_state_for_errno(int err)
{
	switch (err) {
	case ENOENT:
	case EOPNOTSUPP:
	case ENODEV:
	case EINVAL: /* a VM without a PMU answers some hardware events with EINVAL */
	case ENOSYS: /* a kernel without perf events; qemu-user, which does not emulate the call */
		return COUNTER_NOT_SUPPORTED;
	case EACCES:
	case EPERM:
		return COUNTER_NO_PERMISSION;
	default:
		return COUNTER_ERROR;
	}
}

void counter_scale(uint64_t raw, uint64_t enabled, uint64_t running, struct counter_value *out)
{
	out->raw = raw;
	out->enabled = enabled;
	out->running = running;
	out->npmus = 0;
	if (running == 0) {
		/* Never on the PMU: a zero here would be a lie. */
		out->state = COUNTER_NOT_COUNTED;
		out->value = NAN;
		out->mux = 0;
		return;
	}
	out->state = COUNTER_VALUE;
	if (enabled > running) {
		out->mux = (double)running / (double)enabled;
		out->value = (double)raw * ((double)enabled / (double)running);
	} else {
		out->mux = 1;
		out->value = (double)raw;
	}
}

void counter_sum_pmus(const uint64_t (*v)[3], int n, struct counter_value *out)
{
	uint64_t raw = 0, enabled = 0, running = 0;
	for (int p = 0; p < n; p++) {
		raw += v[p][0];
		if (v[p][1] > enabled)
			enabled = v[p][1]; /* every PMU's event is enabled the whole time */
		running += v[p][2];
	}
	/* The running times add up to the time enabled, give or take the reads' skew. */
	counter_scale(raw, enabled, running < enabled ? running : enabled, out);
	out->running = running;
	out->npmus = n;
	for (int p = 0; p < n && p < COUNTERS_MAX_PMUS; p++) {
		out->pmu_running[p] = v[p][2];
		out->share[p] = running ? (double)v[p][2] / (double)running : 0;
	}
}

void counter_add(struct counter_value *sum, const struct counter_value *v)
{
	if (v->state != COUNTER_VALUE) {
		if (sum->state != COUNTER_VALUE) {
			sum->state = v->state;
			sum->err = v->err;
		}
		return;
	}
	if (sum->state != COUNTER_VALUE)
		memset(sum, 0, sizeof *sum);
	sum->state = COUNTER_VALUE;
	sum->value += v->value;
	sum->raw += v->raw;
	sum->enabled += v->enabled;
	sum->running += v->running;
	sum->mux = sum->enabled ? fmin(1, (double)sum->running / (double)sum->enabled) : 1;
	if (v->npmus > sum->npmus)
		sum->npmus = v->npmus;
	uint64_t all = 0;
	for (int p = 0; p < sum->npmus && p < COUNTERS_MAX_PMUS; p++)
		all += sum->pmu_running[p] += v->pmu_running[p];
	for (int p = 0; p < sum->npmus && p < COUNTERS_MAX_PMUS; p++)
		sum->share[p] = all ? (double)sum->pmu_running[p] / (double)all : 0;
}

const char *counter_state_name(enum counter_state s)
{
	switch (s) {
	case COUNTER_VALUE: return "counted";
	case COUNTER_NOT_SUPPORTED: return "not supported";
	case COUNTER_NO_PERMISSION: return "no permission";
	case COUNTER_NOT_COUNTED: return "not counted";
	case COUNTER_ERROR: return "error";
	case COUNTER_UNOPENED: return "not opened";
	case COUNTER_USER_ONLY: return "not seen user-only";
	}
	return "?";
}

void counter_format(char *buf, size_t size, const struct counter_value *v)
{
	if (v->state != COUNTER_VALUE) {
		snprintf(buf, size, "<%s>", counter_state_name(v->state));
		return;
	}
	if (v->mux < 0.9995)
		snprintf(buf, size, "%.0f (mux %.0f%%)", v->value, v->mux * 100);
	else
		snprintf(buf, size, "%.0f", v->value);
}

double counter_ratio(const struct counter_value *num, const struct counter_value *den)
{
	if (!num || !den || num->state != COUNTER_VALUE || den->state != COUNTER_VALUE)
		return NAN;
	if (!(den->value > 0) || !isfinite(num->value))
		return NAN;
	return num->value / den->value;
}
