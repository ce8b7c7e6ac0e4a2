/* SPDX-License-Identifier: GPL-2.0-or-later */
/* CPU temperature through libsensors (with the user's sensors configuration) and the thermal zones: every temperature input, and a headline chosen by chip and label. */
#include "telemetry/sensors.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <sensors/error.h>
#include <sensors/sensors.h>

#include "run.h"
#include "telemetry/frame.h"
#include "telemetry/source.h"
#include "telemetry/sysroot.h"
#include "telemetry/thermal_zone.h"
#include "telemetry/throttle.h"
#include "workload.h"

static double read_sub(const sensors_chip_name *chip, int nr)
{
	double v;
	if (nr < 0 || sensors_get_value(chip, nr, &v) != 0)
		return NAN;
	return v;
}

static char parse_error[160];

/* libsensors prints a configuration's errors on stderr by default: keep the first for kbench sensors. */
static void keep_parse_error(const char *err, const char *file, int line)
{
	if (!parse_error[0])
		snprintf(parse_error, sizeof parse_error, "%.60s line %d: %.80s", file ? file : "?", line, err);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int add_conf_name(const char *name, void *arg)
{
	char ***v = arg;
	size_t n = 0;
	while (*v && (*v)[n])
		n++;
	char **w = realloc(*v, (n + 2) * sizeof *w);
	if (!w)
		return 1;
	w[n] = strdup(name);
	w[n + 1] = NULL;
	*v = w;
	return w[n] ? 0 : 1;
}

static void append_file(FILE *out, const char *rel)
{
	char path[4096], buf[4096];
	if (sysroot_path(path, sizeof path, "%s", rel) < 0)
		return;
	FILE *f = fopen(path, "re");
	size_t n;
	while (f && (n = fread(buf, 1, sizeof buf, f)) > 0)
		fwrite(buf, 1, n, out);
	if (f) {
		fclose(f);
		fputc('\n', out);
	}
}

/* A tree under KBENCH_SYSFS_ROOT that carries a sensors configuration (an extracted `sensors --dump`,
 * which holds the machine's /etc/sensors3.conf and sensors.d; a layout with an etc/) is read with
 * its own configuration, as `sensors` on that machine read it, not with this machine's: the
 * labels and computes of the dump's machine. Its sensors3.conf then sensors.d's files in name order
 * (libsensors' own order), as one stream; NULL for the real root or a tree without either. */
static FILE *tree_config(char **buf, size_t *len)
{
	if (!sysroot()[0] || (!sysroot_exists("/kbench-dump.txt") && !sysroot_exists("/etc/sensors3.conf") &&
			      !sysroot_exists("/etc/sensors.d")))
		return NULL;
	FILE *out = open_memstream(buf, len);
	if (!out)
		return NULL;
	append_file(out, "/etc/sensors3.conf");
	char **names = NULL;
	sysroot_dir_each("/etc/sensors.d", add_conf_name, &names);
	size_t n = 0;
	while (names && names[n])
		n++;
	if (n)
		qsort(names, n, sizeof *names, by_name);
	for (size_t i = 0; i < n; i++) {
		char rel[512];
		if (names[i][0] != '.') {
			snprintf(rel, sizeof rel, "/etc/sensors.d/%s", names[i]);
			append_file(out, rel);
		}
		free(names[i]);
	}
	free(names);
	if (fclose(out) != 0)
		return NULL;
	return *len ? fmemopen(*buf, *len, "r") : fopen("/dev/null", "re"); /* none: an empty one */
}

/* The system's configuration (/etc/sensors3.conf, /etc/sensors.d/), as `sensors` reads it (or a
 * fixture tree's own: tree_config): its labels are shown, its ignores hide inputs, its computes
 * scale values and limits. When it does not parse, an empty one, and note says why. */
static int init_libsensors(char *note, size_t notelen)
{
	parse_error[0] = '\0';
	sensors_parse_error_wfn = keep_parse_error;
	char *buf = NULL;
	size_t len = 0;
	FILE *tree = tree_config(&buf, &len);
	int rc = sensors_init(tree);
	if (tree)
		fclose(tree);
	free(buf);
	if (rc == 0)
		return 0;
	snprintf(note, notelen, "%s sensors configuration was not used (%s)", tree ? "the tree's" : "your",
		 parse_error[0] ? parse_error : sensors_strerror(rc));
	sensors_cleanup();
	FILE *f = fopen("/dev/null", "re");
	rc = sensors_init(f);
	if (f)
		fclose(f);
	return rc;
}

void sensors_copy_label(char *dst, size_t size, const char *src)
{
	if (!size)
		return;
	size_t n = strlen(src);
	if (n >= size) {
		n = size - 1;
		/* back to the start of the character the cut falls in (its continuation bytes are 10xxxxxx) */
		size_t k = n;
		while (k > 0 && ((unsigned char)src[k] & 0xC0) == 0x80)
			k--;
		n = k;
	}
	memcpy(dst, src, n);
	dst[n] = '\0';
}

/* libsensors keeps one state for the whole process: started by its first user and ended by its
 * last, so that one user's close never takes the chips from under another (the console keeps its
 * sampler open across its runs while each run's preflight opens the sources and closes them). */
static int lib_users;
static char lib_note[200];

static int lib_start(char *note, size_t notelen)
{
	if (lib_users > 0) {
		lib_users++;
		snprintf(note, notelen, "%s", lib_note);
		return 0;
	}
	int rc = init_libsensors(note, notelen);
	if (rc == 0) {
		lib_users = 1;
		snprintf(lib_note, sizeof lib_note, "%s", note);
	}
	return rc;
}

static void lib_end(void)
{
	if (lib_users > 0 && --lib_users == 0)
		sensors_cleanup();
}

/* The kernel's own label of a feature (tempN_label beside the chip's inputs), else its name. */
static void kernel_label(const sensors_chip_name *chip, const sensors_feature *f, char *buf, size_t size)
{
	char p[512], line[256];
	snprintf(p, sizeof p, "%s/%s_label", chip->path ? chip->path : "", f->name);
	FILE *fp = chip->path ? fopen(p, "re") : NULL;
	if (fp && fgets(line, sizeof line, fp)) {
		line[strcspn(line, "\n")] = '\0';
		while (*line && line[strlen(line) - 1] == ' ')
			line[strlen(line) - 1] = '\0';
		sensors_copy_label(buf, size, line);
	} else {
		snprintf(buf, size, "%s", f->name);
	}
	if (fp)
		fclose(fp);
}

/* Chips whose reads disturb the machine (issue reports and the drivers' own notes): a GPU's hwmon
 * wakes a runtime-suspended card (reads of hundreds of ms), NVMe and drivetemp send a command to the
 * drive, dell_smm enters SMM and stalls every CPU. Read only when --sensor names them. */
static const struct {
	const char *prefix, *why;
} slow_chips[] = {
	{ "amdgpu", "a GPU: a read may wake it" },
	{ "nouveau", "a GPU: a read may wake it" },
	{ "radeon", "a GPU: a read may wake it" },
	{ "nvme", "each read is a command to the drive" },
	{ "drivetemp", "each read is a command to the drive" },
	{ "dell_smm", "each read stalls every CPU in SMM" },
};

static bool named_by(const char *override, const struct temp_input *t)
{
	if (!override || !*override)
		return false;
	size_t cl = strcspn(override, ":");
	return (strlen(t->prefix) == cl && !strncmp(t->prefix, override, cl)) ||
	       (strlen(t->chip) == cl && !strncmp(t->chip, override, cl));
}

/* The device behind a chip is runtime-suspended: reading its sensors would resume it. */
static bool runtime_suspended(const sensors_chip_name *chip)
{
	if (!chip->path)
		return false;
	char p[512], st[32] = "";
	snprintf(p, sizeof p, "%s/device/power/runtime_status", chip->path);
	FILE *f = fopen(p, "re");
	if (!f)
		return false;
	if (!fgets(st, sizeof st, f))
		st[0] = '\0';
	fclose(f);
	return !strncmp(st, "suspended", 9);
}

/* The first read of an input, timed; a known-slow chip or a suspended device is not read at all
 * (unless --sensor names it): t->skip says why. */
static void first_read(struct temp_input *t, const sensors_chip_name *chip, const char *override)
{
	bool named = named_by(override, t);
	t->value = NAN;
	for (size_t k = 0; k < sizeof slow_chips / sizeof slow_chips[0] && !named; k++)
		if (!strcmp(t->prefix, slow_chips[k].prefix)) {
			snprintf(t->skip, sizeof t->skip, "not read: %s (--sensor %s:LABEL reads it)",
				 slow_chips[k].why, slow_chips[k].prefix);
			return;
		}
	if (!named && runtime_suspended(chip)) {
		snprintf(t->skip, sizeof t->skip, "not read: its device is runtime-suspended (a read would wake it)");
		return;
	}
	struct timespec a, b;
	clock_gettime(CLOCK_MONOTONIC, &a);
	t->value = read_sub(chip, t->nr_input);
	clock_gettime(CLOCK_MONOTONIC, &b);
	t->read_ms = (double)(b.tv_sec - a.tv_sec) * 1e3 + (double)(b.tv_nsec - a.tv_nsec) / 1e6;
}

/* A new input at the end of s->in, zeroed; NULL when memory runs out (the inputs so far stay). */
static struct temp_input *new_input(struct temp_sensors *s)
{
	if (s->n == s->cap) {
		int cap = s->cap ? 2 * s->cap : 64;
		struct temp_input *in = realloc(s->in, (size_t)cap * sizeof *in);
		if (!in)
			return NULL;
		s->in = in;
		s->cap = cap;
	}
	struct temp_input *t = &s->in[s->n++];
	memset(t, 0, sizeof *t);
	return t;
}

/* Every thermal zone as an input (chip "thermal_zoneN", label its type), after the hwmon ones. */
static void add_zones(struct temp_sensors *s)
{
	struct thermal_zone z[THERMAL_ZONES_MAX];
	int nz = thermal_zones_list(z, THERMAL_ZONES_MAX);
	for (int k = 0; k < nz; k++) {
		struct temp_input *t = new_input(s);
		if (!t)
			break;
		snprintf(t->chip, sizeof t->chip, "thermal_zone%d", z[k].id);
		snprintf(t->prefix, sizeof t->prefix, "thermal_zone%d", z[k].id);
		snprintf(t->label, sizeof t->label, "%s", z[k].type);
		snprintf(t->klabel, sizeof t->klabel, "%s", z[k].type);
		t->zone = z[k].id;
		t->value = z[k].temp;
		t->max = sensors_valid_limit(z[k].passive) ? z[k].passive : 0;
		t->crit = sensors_valid_limit(z[k].critical) ? z[k].critical : 0;
		t->cpu_bound = z[k].cpu_bound;
		t->nr_input = t->nr_crit = t->nr_max = -1;
	}
}

/* Zone z's hwmon twin is named prefix: thermal_hwmon.c names it after the zone's type, '-' made '_'. */
static bool is_twin(const struct temp_input *z, const char *prefix)
{
	if (z->zone < 0 || strlen(z->klabel) != strlen(prefix))
		return false;
	for (size_t k = 0; prefix[k]; k++)
		if (z->klabel[k] != prefix[k] && !(z->klabel[k] == '-' && prefix[k] == '_'))
			return false;
	return true;
}

/* A zone's twin (on no bus: virtual) is bound where its zone is. */
static void twins_bound(struct temp_sensors *s)
{
	for (int i = 0; i < s->n; i++) {
		struct temp_input *t = &s->in[i];
		for (int k = 0; k < s->n && t->zone < 0 && strstr(t->chip, "-virtual-") && !t->cpu_bound; k++)
			t->cpu_bound = s->in[k].cpu_bound && is_twin(&s->in[k], t->prefix);
	}
}

/* A hwmon chip that is a thermal zone's twin (cpu_thermal for the zone cpu-thermal) exports only the
 * critical trip; the zone's passive trip, where the board starts slowing the CPU, is its limit. */
static void zone_twin_limit(struct temp_sensors *s)
{
	const struct temp_input *a = &s->in[s->pick.idx[0]];
	if (a->zone >= 0 || !sensors_is_soc(a) || s->pick.user)
		return;
	for (int i = 0; i < s->n; i++) {
		const struct temp_input *z = &s->in[i];
		if (z->max > 0 && is_twin(z, a->prefix) && (s->pick.chip_limit == 0 || z->max < s->pick.chip_limit)) {
			s->pick.chip_limit = z->max;
			snprintf(s->pick.chip_limit_name, sizeof s->pick.chip_limit_name, "passive");
		}
	}
}

int sensors_open(struct temp_sensors *s, const char *override, char *err, size_t errlen)
{
	memset(s, 0, sizeof *s);
	s->value = NAN;
	int rc = lib_start(s->config_note, sizeof s->config_note);
	bool lib = rc == 0;
	if (!lib)
		snprintf(s->config_note, sizeof s->config_note, "libsensors failed to start: %s", sensors_strerror(rc));
	const sensors_chip_name *chip;
	int cnr = 0, nchips = 0;
	while (lib && (chip = sensors_get_detected_chips(NULL, &cnr))) {
		nchips++;
		const sensors_feature *f;
		int fnr = 0;
		while ((f = sensors_get_features(chip, &fnr))) {
			if (f->type != SENSORS_FEATURE_TEMP)
				continue;
			const sensors_subfeature *sin =
				sensors_get_subfeature(chip, f, SENSORS_SUBFEATURE_TEMP_INPUT);
			struct temp_input *t = sin ? new_input(s) : NULL;
			if (!t)
				continue;
			t->zone = -1;
			sensors_snprintf_chip_name(t->chip, sizeof t->chip, chip);
			snprintf(t->prefix, sizeof t->prefix, "%s", chip->prefix);
			char *label = sensors_get_label(chip, f);
			sensors_copy_label(t->label, sizeof t->label, label ? label : f->name);
			free(label);
			kernel_label(chip, f, t->klabel, sizeof t->klabel);
			t->chip_ref = chip;
			t->nr_input = sin->number;
			const sensors_subfeature *sc = sensors_get_subfeature(chip, f, SENSORS_SUBFEATURE_TEMP_CRIT);
			const sensors_subfeature *sm = sensors_get_subfeature(chip, f, SENSORS_SUBFEATURE_TEMP_MAX);
			t->nr_crit = sc ? sc->number : -1;
			t->nr_max = sm ? sm->number : -1;
			const sensors_subfeature *st = sensors_get_subfeature(chip, f, SENSORS_SUBFEATURE_TEMP_TYPE);
			double ty = st ? read_sub(chip, st->number) : NAN;
			t->sensor_type = isfinite(ty) ? (int)ty : 0;
			first_read(t, chip, override);
			double c = read_sub(chip, t->nr_crit), m = read_sub(chip, t->nr_max);
			t->crit = sensors_valid_limit(c) ? c : 0;
			t->max = sensors_valid_limit(m) ? m : 0;
			t->max_constant = !strcmp(t->prefix, "k10temp");
		}
	}
	add_zones(s);
	twins_bound(s);
	if (!s->n) {
		if (!nchips)
			snprintf(s->why, sizeof s->why,
				 "no hwmon chips and no thermal zones (a VM, or no sensor driver)");
		else
			snprintf(s->why, sizeof s->why,
				 "libsensors found %d chips but no temperature inputs, and no thermal zones", nchips);
		rc = 0;
		if (override && *override) {
			snprintf(err, errlen, "--sensor %s: there are no temperature inputs here", override);
			rc = -ENOENT;
		}
		if (lib)
			lib_end();
		free(s->in);
		s->in = NULL;
		s->cap = 0;
		return rc;
	}
	s->lib = lib;
	s->available = true;
	char why[200] = "";
	rc = sensors_pick_cpu(s->in, s->n, override, &s->pick, why, sizeof why);
	if (rc == 0) {
		s->has_pick = true;
		zone_twin_limit(s);
		/* The observer reads the headline's inputs only, and those not slow unless it is all there is. */
		for (int k = 0; k < s->pick.n; k++)
			s->in[s->pick.idx[k]].sampled = true;
		for (int k = 0; k < s->pick.n && s->pick.n > 1; k++) {
			struct temp_input *t = &s->in[s->pick.idx[k]];
			if (t->read_ms > SENSORS_SLOW_MS) {
				t->sampled = false;
				snprintf(t->skip, sizeof t->skip, "left out of sampling: its read took %.1f ms",
					 t->read_ms);
			}
		}
		const char *ln;
		s->value = sensors_pick_value(s->in, &s->pick, &s->limit, &ln);
		snprintf(s->limit_name, sizeof s->limit_name, "%s", ln);
	} else if (override && *override) {
		snprintf(err, errlen, "%s", why);
		if (lib)
			lib_end();
		s->lib = false;
		s->available = false;
		free(s->in);
		s->in = NULL;
		s->n = s->cap = 0;
		return rc;
	} else {
		snprintf(s->why, sizeof s->why, "%s", why);
	}
	return 0;
}

int sensors_sample(struct temp_sensors *s)
{
	if (!s->available)
		return -ENODEV;
	for (int i = 0; i < s->n; i++) {
		struct temp_input *t = &s->in[i];
		if (!t->sampled)
			continue;
		if (t->zone >= 0 && thermal_zone_read(t->zone, &t->value) < 0)
			t->value = NAN;
		else if (t->zone < 0)
			t->value = read_sub(t->chip_ref, t->nr_input);
	}
	if (s->has_pick)
		s->value = sensors_pick_value(s->in, &s->pick, NULL, NULL);
	return 0;
}

void sensors_close(struct temp_sensors *s)
{
	if (s->lib)
		lib_end();
	s->lib = false;
	s->available = false;
	s->has_pick = false;
	free(s->in);
	s->in = NULL;
	s->n = s->cap = 0;
}

/* ---- the source: series temp.cpu, temp.CHIP.LABEL; summaries temp.max/start/limit/source, sample.N.temp ---- */

#define SERIES_MAX_INPUTS 32

struct temp_state {
	struct temp_sensors ts;
	double run_temp0; /* the headline when the run began, for --cooldown */
	/* the test so far */
	double tmax, tstart;
	double s_tmax[TELEMETRY_SAMPLE_MAX];
};

static int temp_open(struct telemetry_slot *s, const struct telemetry_ctx *c, char *err, size_t errlen)
{
	struct temp_state *st = s->priv;
	int rc = sensors_open(&st->ts, c->opts->sensor, err, errlen);
	if (rc < 0)
		return rc;
	s->available = st->ts.has_pick;
	if (st->ts.has_pick)
		snprintf(s->status, sizeof s->status, "%s", st->ts.pick.source);
	else
		snprintf(s->status, sizeof s->status, "n/a: %s", st->ts.why);
	st->run_temp0 = st->ts.value;
	st->tmax = st->tstart = NAN;
	struct telemetry_frame *f = c->frame;
	f->temp = st->ts.value;
	f->temp_source = s->status;
	f->temp_limit = st->ts.limit;
	return 0;
}

static void temp_sample(struct telemetry_slot *s, const struct telemetry_ctx *c)
{
	struct temp_state *st = s->priv;
	struct temp_sensors *ts = &st->ts;
	struct telemetry_frame *f = c->frame;
	if (!ts->available || sensors_sample(ts) != 0)
		return;
	f->temp = ts->value;
	telemetry_push(c, "temp.cpu", "C", ts->value);
	char name[80];
	for (int i = 0; i < ts->n && i < SERIES_MAX_INPUTS; i++) {
		if (!ts->in[i].sampled)
			continue;
		snprintf(name, sizeof name, "temp.%s.%s", ts->in[i].prefix, ts->in[i].label);
		telemetry_push(c, name, "C", ts->in[i].value);
	}
	if (!isnan(ts->value))
		snprintf(s->reading, sizeof s->reading, "%.1f °C", ts->value);
	if (!c->in_test || isnan(ts->value))
		return;
	if (isnan(st->tmax) || ts->value > st->tmax)
		st->tmax = ts->value;
	if (c->busy && c->sample > 0 && c->sample <= TELEMETRY_SAMPLE_MAX) {
		double *m = &st->s_tmax[c->sample - 1];
		if (isnan(*m) || ts->value > *m)
			*m = ts->value;
	}
}

static void temp_run_begin(struct telemetry_slot *s, const struct telemetry_ctx *c)
{
	struct temp_state *st = s->priv;
	st->run_temp0 = st->ts.has_pick ? st->ts.value : NAN;
}

/* --cooldown: at most cooldown_max seconds, until the CPU is within 2 °C of the run's start. */
static void cooldown(struct temp_state *st, const struct telemetry_ctx *c)
{
	const struct telemetry_opts *o = c->opts;
	struct temp_sensors *ts = &st->ts;
	if (!o->cooldown || !ts->has_pick || isnan(st->run_temp0))
		return;
	sensors_sample(ts);
	double target = st->run_temp0 + 2, start = wl_now();
	if (isnan(ts->value) || ts->value <= target)
		return;
	if (o->log)
		fprintf(o->log, "cooldown: CPU at %.1f °C, waiting for %.1f °C (at most %.0f s)\n",
			ts->value, target, o->cooldown_max);
	while (wl_now() - start < o->cooldown_max) {
		struct timespec nap = { 0, 500 * 1000 * 1000 };
		nanosleep(&nap, NULL);
		sensors_sample(ts);
		if (!isnan(ts->value) && ts->value <= target)
			break;
	}
	if (c->run)
		run_add_note(c->run, "cooldown before %s: waited %.0f s, CPU at %.1f °C (start of run %.1f °C)",
			     c->test_id, wl_now() - start, ts->value, st->run_temp0);
}

static void temp_test_begin(struct telemetry_slot *s, const struct telemetry_ctx *c)
{
	struct temp_state *st = s->priv;
	if (!c->first_test)
		cooldown(st, c);
	st->tmax = NAN;
	for (int i = 0; i < TELEMETRY_SAMPLE_MAX; i++)
		st->s_tmax[i] = NAN;
	if (st->ts.available)
		sensors_sample(&st->ts);
	st->tstart = st->ts.has_pick ? st->ts.value : NAN;
}

static void temp_test_end(struct telemetry_slot *s, const struct telemetry_ctx *c, struct test_result *tr,
			  struct throttle_inputs *in)
{
	struct temp_state *st = s->priv;
	const struct temp_sensors *ts = &st->ts;
	char buf[KV_TEXT_MAX];
	if (ts->has_pick) {
		telemetry_set_or_na(tr, "temp.max", st->tmax, "no valid reading");
		telemetry_set_or_na(tr, "temp.start", st->tstart, "no valid reading");
		if (ts->limit > 0)
			test_summary_set(tr, "temp.limit", ts->limit, NULL);
		snprintf(buf, sizeof buf, "%s", ts->pick.source);
		test_summary_set(tr, "temp.source", 0, buf);
	} else {
		snprintf(buf, sizeof buf, "%s", s->status);
		test_summary_set(tr, "temp.max", 0, buf);
	}
	for (int k = 0; k < c->sample && k < TELEMETRY_SAMPLE_MAX; k++) {
		if (isnan(st->s_tmax[k]))
			continue;
		char key[64];
		snprintf(key, sizeof key, "sample.%d.temp", k + 1);
		test_summary_set(tr, key, st->s_tmax[k], NULL);
	}
	in->temp_max = st->tmax;
	in->temp_limit = ts->has_pick ? ts->limit : 0;
	in->limit_name = ts->limit_name;
	in->sample_temp = st->s_tmax;
}

static void temp_test_line(const struct test_result *tr, char *buf, size_t size)
{
	char v[48];
	telemetry_fmt_kv(v, sizeof v, test_summary_get(tr, "temp.max"), "%.1f °C");
	snprintf(buf, size, "temp max %s", v);
}

static void temp_show(struct telemetry_slot *s, FILE *f)
{
	struct temp_state *st = s->priv;
	const struct temp_sensors *ts = &st->ts;
	if (!ts->available) {
		fprintf(f, "  n/a: %s\n", ts->why);
		if (ts->config_note[0])
			fprintf(f, "  note: %s\n", ts->config_note);
		return;
	}
	for (int i = 0; i < ts->n; i++) {
		const struct temp_input *t = &ts->in[i];
		char v[24], lim[80] = "";
		if (t->skip[0] && isnan(t->value))
			snprintf(v, sizeof v, "%9s", "--");
		else if (sensors_valid(t->value))
			snprintf(v, sizeof v, "%6.1f °C", t->value);
		else if (isnan(t->value))
			snprintf(v, sizeof v, "%9s", "n/a");
		else
			snprintf(v, sizeof v, "%6.1f ?? (invalid)", t->value);
		if (t->zone >= 0 && (t->max > 0 || t->crit > 0)) {
			int m = 0;
			m += snprintf(lim + m, sizeof lim - (size_t)m, "  (");
			if (t->max > 0)
				m += snprintf(lim + m, sizeof lim - (size_t)m, "passive %.1f °C%s", t->max,
					      t->crit > 0 ? ", " : "");
			if (t->crit > 0)
				snprintf(lim + m, sizeof lim - (size_t)m, "crit %.1f °C", t->crit);
			snprintf(lim + strlen(lim), sizeof lim - strlen(lim), ")");
		} else if (t->crit > 0) {
			snprintf(lim, sizeof lim, "  (crit %.1f °C)", t->crit);
		} else if (t->max > 0 && t->max_constant) {
			snprintf(lim, sizeof lim, "  (max %.1f °C: the driver's constant, not a limit)", t->max);
		} else if (t->max > 0) {
			snprintf(lim, sizeof lim, "  (max %.1f °C)", t->max);
		}
		bool picked = false;
		for (int k = 0; k < ts->pick.n && ts->has_pick; k++)
			picked |= ts->pick.idx[k] == i;
		fprintf(f, "  %c %-24s %-16s %s%s\n", picked ? '*' : ' ', t->chip, t->label, v, lim);
		if (t->skip[0])
			fprintf(f, "      (%s)\n", t->skip);
		else if (t->read_ms > SENSORS_SLOW_MS)
			fprintf(f, "      (slow: its read took %.1f ms; %s)\n", t->read_ms,
				t->sampled ? "read anyway: the headline has no other input" : "not sampled during runs");
	}
	if (ts->config_note[0])
		fprintf(f, "  note: %s\n", ts->config_note);
	if (ts->has_pick) {
		fprintf(f, "  headline CPU temperature: ");
		if (isnan(ts->value))
			fprintf(f, "n/a");
		else
			fprintf(f, "%.1f °C", ts->value);
		fprintf(f, " from %s", ts->pick.source);
		if (ts->limit > 0)
			fprintf(f, ", %s %.1f °C", ts->limit_name, ts->limit);
		fprintf(f, "\n");
	} else {
		fprintf(f, "  headline CPU temperature: n/a: %s\n", ts->why);
	}
}

static void temp_preflight(struct telemetry_slot *s, struct run *run, FILE *out)
{
	struct temp_state *st = s->priv;
	const struct temp_sensors *ts = &st->ts;
	if (!ts->has_pick)
		return; /* the preflight says n/a */
	if (ts->pick.low_trust)
		telemetry_finding(run, out, "CPU temperature comes from %s", ts->pick.source);
	double warm = ts->limit > 0 ? ts->limit - 25 : 70;
	if (!isnan(ts->value) && ts->value >= warm)
		telemetry_finding(run, out, "CPU is at %.1f °C, still warm (from a previous run?): results start "
				  "throttle-prone (fix: wait, or run with --cooldown)", ts->value);
}

static void temp_close(struct telemetry_slot *s)
{
	struct temp_state *st = s->priv;
	sensors_close(&st->ts);
}

const struct telemetry_source temp_source = {
	.name = "temp",
	.what = "CPU temperature",
	.title = "Temperature (libsensors, thermal zones)",
	.size = sizeof(struct temp_state),
	.open = temp_open,
	.sample = temp_sample,
	.close = temp_close,
	.run_begin = temp_run_begin,
	.test_begin = temp_test_begin,
	.test_end = temp_test_end,
	.test_line = temp_test_line,
	.show = temp_show,
	.preflight = temp_preflight,
};

/* --sensor is checked as the options are parsed, so a misspelled one stops the run before anything starts. */
int telemetry_check_sensor(const char *opt, const char *arg, char *err, size_t errlen)
{
	struct temp_sensors ts;
	if (sensors_open(&ts, arg, err, errlen) < 0)
		return -1;
	sensors_close(&ts);
	return 0;
}
