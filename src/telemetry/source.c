/* What every telemetry source shares: opening one into a slot, pushing series, n/a summaries. */
#include "telemetry/source.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "run.h"
#include "telemetry/telemetry.h"

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
		char buf[96];
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

double telemetry_mono(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

