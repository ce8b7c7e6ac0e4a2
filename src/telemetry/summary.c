/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The telemetry lines of `kbench run`: one per test with -v (each source says its part), and the thermal summary at the end. */
#include "telemetry/telemetry.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "run.h"
#include "telemetry/source.h"
#include "wrap.h"

void telemetry_print_test_line(FILE *f, const struct test_result *t)
{
	/* Each source's part, in registry order, then the counters'. */
	char line[512] = "", part[128];
	size_t l = 0;
	for (int i = 0; telemetry_sources[i]; i++) {
		if (!telemetry_sources[i]->test_line || l >= sizeof line)
			continue;
		telemetry_sources[i]->test_line(t, part, sizeof part);
		l += snprintf(line + l, sizeof line - l, "%s, ", part);
	}
	char ipc[32], ghz[32], tc[48];
	telemetry_fmt_kv(ipc, sizeof ipc, test_summary_get(t, "ipc"), "%.2f");
	telemetry_fmt_kv(ghz, sizeof ghz, test_summary_get(t, "ghz"), "%.2f");
	const struct kv *c = test_summary_get(t, "counter.task-clock");
	if (c && c->has_value)
		snprintf(tc, sizeof tc, "%.2f s", c->value / 1e9);
	else
		telemetry_fmt_kv(tc, sizeof tc, c, "%.0f");
	/* The effective clock (cycles / ref-cycles) only where it was measured: elsewhere its n/a is the rule. */
	const struct kv *eff = test_summary_get(t, "freq.effective");
	char busy[48] = "";
	if (eff && eff->has_value)
		snprintf(busy, sizeof busy, ", effective clock %.0f MHz", eff->value);
	fprintf(f, "    telemetry: %sIPC %s, GHz %s, task-clock %s%s\n", line, ipc, ghz, tc, busy);
	/* A hybrid CPU: where the cycles ran, per core-type PMU (counter.cycles.PMU). */
	char shares[160] = "";
	size_t u = 0;
	for (int i = 0; i < t->nsummary && u < sizeof shares; i++) {
		const struct kv *k = &t->summary[i];
		const char *pmu = k->key + strlen("counter.cycles.");
		if (strncmp(k->key, "counter.cycles.", 15) || !k->has_value || !strcmp(pmu, "mux") ||
		    !strncmp(pmu, "copy", 4))
			continue;
		u += (size_t)snprintf(shares + u, sizeof shares - u, "%s%s %.0f%%", u ? ", " : "", pmu, k->value);
	}
	if (shares[0])
		fprintf(f, "    cycles ran on: %s\n", shares);
	/* The firmware's power budget held the package: said, but not as throttling. */
	const struct kv *pl = test_summary_get(t, "power.limit");
	if (pl && !strncmp(pl->text, "reached: ", 9))
		fprintf(f, "    power limit (not throttling): %s\n", pl->text + 9);
	const struct kv *mode = test_summary_get(t, "counters.mode");
	if (mode)
		fprintf(f, "    counters: %s\n", mode->text);
	const struct kv *th = test_summary_get(t, "throttled");
	const struct kv *evd = test_summary_get(t, "throttle.evidence");
	if (evd && strcmp(evd->text, "none"))
		fprintf(f, "    %s: %s\n", th && th->value ? "THROTTLED" : "evidence", evd->text);
}

/* A summary line whose value is why there is none: wrapped under the value's column
 * at 79, as a report's lines are (the throttle sentence alone is 150 characters). */
static void summary_why(FILE *f, const char *label, const char *why)
{
	fprintf(f, "  %-22s ", label);
	print_wrapped(f, why ? why : "n/a", 25, 25, 79);
}

void telemetry_print_summary(FILE *f, const struct run *r)
{
	double hot = NAN, low = NAN;
	const char *hot_at = NULL, *low_at = NULL;
	int hot_copies = 0, low_copies = 0, ntests = 0, nthrottled = 0;
	double thr_events = 0;
	bool thr_known = false;
	const char *temp_why = NULL, *freq_why = NULL, *thr_why = NULL, *temp_src = NULL;
	for (int b = 0; b < r->nblocks; b++) {
		const struct run_block *bl = &r->blocks[b];
		for (int i = 0; i < bl->ntests; i++) {
			const struct test_result *t = &bl->tests[i];
			const struct kv *kv;
			if (!t->nsummary)
				continue;
			ntests++;
			if ((kv = test_summary_get(t, "temp.max"))) {
				if (kv->has_value && (isnan(hot) || kv->value > hot)) {
					hot = kv->value;
					hot_at = t->id;
					hot_copies = bl->copies;
				} else if (!kv->has_value) {
					temp_why = kv->text;
				}
			}
			if ((kv = test_summary_get(t, "temp.source")))
				temp_src = kv->text;
			if ((kv = test_summary_get(t, "freq.min")) && kv->has_value &&
			    (isnan(low) || kv->value < low)) {
				low = kv->value;
				low_at = t->id;
				low_copies = bl->copies;
			}
			if ((kv = test_summary_get(t, "freq.mean")) && !kv->has_value)
				freq_why = kv->text;
			if ((kv = test_summary_get(t, "throttle.events"))) {
				if (kv->has_value) {
					thr_events += kv->value;
					thr_known = true;
				} else {
					thr_why = kv->text;
				}
			}
			if ((kv = test_summary_get(t, "throttled")) && kv->value)
				nthrottled++;
		}
	}
	if (!ntests)
		return;
	fprintf(f, "\nThermal summary\n");
	if (!isnan(hot))
		fprintf(f, "  hottest point:         %.1f °C during %d x %s (%s)\n", hot, hot_copies, hot_at,
			temp_src ? temp_src : "?");
	else
		summary_why(f, "hottest point:", temp_why);
	if (!isnan(low))
		fprintf(f, "  lowest busy frequency: %.0f MHz during %d x %s\n", low, low_copies, low_at);
	else
		summary_why(f, "lowest busy frequency:", freq_why);
	if (thr_known)
		fprintf(f, "  throttle events:       %.0f\n", thr_events);
	else
		summary_why(f, "throttle events:", thr_why);
	if (!nthrottled) {
		fprintf(f, "  no test looks throttled\n");
		return;
	}
	fprintf(f, "WARNING: %d test%s look%s throttled; their scores measure heat as much as the kernel:\n",
		nthrottled, nthrottled == 1 ? "" : "s", nthrottled == 1 ? "s" : "");
	for (int b = 0; b < r->nblocks; b++)
		for (int i = 0; i < r->blocks[b].ntests; i++) {
			const struct test_result *t = &r->blocks[b].tests[i];
			const struct kv *kv = test_summary_get(t, "throttled");
			if (!kv || !kv->value)
				continue;
			const struct kv *e = test_summary_get(t, "throttle.evidence");
			fprintf(f, "  %d x %s: %s\n", r->blocks[b].copies, t->id, e ? e->text : "");
		}
}
