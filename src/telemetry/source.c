/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What every telemetry source shares: opening one into a slot, pushing series, n/a summaries, preflight findings, kbench sensors. */
#include "telemetry/source.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "run.h"
#include "telemetry/frame.h"

int telemetry_slot_open(struct telemetry_slot *s, const struct telemetry_source *src, const struct telemetry_ctx *c,
			char *err, size_t errlen)
{
	memset(s, 0, sizeof *s);
	s->src = src;
	if (src->size && !(s->priv = calloc(1, src->size))) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	int rc = src->open(s, c, err, errlen);
	if (rc < 0) {
		free(s->priv);
		s->priv = NULL;
	}
	return rc;
}

void telemetry_slot_close(struct telemetry_slot *s)
{
	if (s->src && s->src->close && s->priv)
		s->src->close(s);
	free(s->priv);
	s->priv = NULL;
}

void telemetry_push(const struct telemetry_ctx *c, const char *name, const char *unit, double v)
{
	if (c->run && !isnan(v))
		series_push(run_series(c->run, name, unit), c->now, v);
}

void telemetry_set_or_na(struct test_result *tr, const char *key, double v, const char *why)
{
	if (isnan(v) || isinf(v)) {
		char buf[KV_TEXT_MAX];
		snprintf(buf, sizeof buf, "n/a%s%s", why ? ": " : "", why ? why : "");
		test_summary_set(tr, key, 0, buf);
	} else {
		test_summary_set(tr, key, v, NULL);
	}
}

void telemetry_fmt_kv(char *buf, size_t size, const struct kv *kv, const char *fmt)
{
	if (!kv)
		snprintf(buf, size, "n/a");
	else if (!kv->has_value)
		snprintf(buf, size, "%s", strncmp(kv->text, "n/a", 3) ? kv->text : "n/a");
	else
		snprintf(buf, size, fmt, kv->value);
}

void telemetry_finding(struct run *run, FILE *out, const char *fmt, ...)
{
	char buf[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	run_add_note(run, "preflight: %s", buf);
	if (out)
		fprintf(out, "preflight: %s\n", buf);
}

int telemetry_show_sources(FILE *f, const char *sensor, char *err, size_t errlen)
{
	struct telemetry_opts o = { .sensor = sensor };
	struct telemetry_frame frame;
	memset(&frame, 0, sizeof frame);
	struct telemetry_ctx c = { .opts = &o, .test_id = "?", .frame = &frame };
	bool first = true;
	for (int i = 0; telemetry_sources[i]; i++) {
		const struct telemetry_source *src = telemetry_sources[i];
		if (!src->title)
			continue;
		struct telemetry_slot s;
		int rc = telemetry_slot_open(&s, src, &c, err, errlen);
		if (rc < 0)
			return rc;
		fprintf(f, "%s%s\n", first ? "" : "\n", src->title);
		first = false;
		if (src->show) {
			src->show(&s, f);
		} else if (!s.available) {
			fprintf(f, "  %s\n", s.status);
		} else {
			if (src->sample)
				src->sample(&s, &c);
			fprintf(f, "  %s (%s)\n", s.reading[0] ? s.reading : "no reading yet", s.status);
		}
		telemetry_slot_close(&s);
	}
	return 0;
}
