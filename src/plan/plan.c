/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The plan record: design and schedule, the boots measured, as JSON in <store>/plans/NAME.json written atomically. */
#include "plan.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fileio.h"
#include "store.h"

/* The record's format: a reader refuses a major it does not know. */
#define PLAN_FORMAT 1

bool plan_name_valid(const char *name)
{
	size_t n = strlen(name);
	if (n < 1 || n > 48 || !isalnum((unsigned char)name[0]))
		return false;
	for (size_t i = 0; i < n; i++)
		if (!(islower((unsigned char)name[i]) || isdigit((unsigned char)name[i]) || strchr("._-", name[i])))
			return false;
	return true;
}

/* A small generator of our own, so a seed gives the same order everywhere. */
static unsigned next_rand(unsigned *s)
{
	*s = *s * 1103515245u + 12345u;
	return (*s >> 16) & 0x7fff;
}

static void make_schedule(struct plan *p)
{
	unsigned s = p->seed;
	int n = 2 * p->boots;
	for (int pair = 0; pair < p->boots; pair++) {
		/* balanced: A B, then B A, ...; random: each pair's order a coin's */
		bool a_first = p->order == PLAN_ORDER_RANDOM ? next_rand(&s) & 1 : pair % 2 == 0;
		p->schedule[2 * pair] = a_first ? 'A' : 'B';
		p->schedule[2 * pair + 1] = a_first ? 'B' : 'A';
	}
	p->schedule[n] = 0;
}

int plan_init(struct plan *p, const char *name, const char *a, const char *b, int boots, int runs_per_boot,
	      double until, enum plan_order order, unsigned seed, int nargs, char *const *args, char *err,
	      size_t errlen)
{
	memset(p, 0, sizeof *p);
	p->promise = NAN;
	p->minutes = NAN;
	if (!plan_name_valid(name)) {
		snprintf(err, errlen, "plan name '%s': 1 to 48 lowercase letters, digits, '.', '_' or '-', starting with a letter or digit", name);
		return -1;
	}
	if (!*a || !*b || !strcmp(a, b)) {
		snprintf(err, errlen, "--kernels takes two different kernels, A,B (releases as uname -r prints them, or boot menu entries)");
		return -1;
	}
	if (boots < 1 || boots > PLAN_MAX_BOOTS || runs_per_boot < 1 || runs_per_boot > PLAN_MAX_RUNS ||
	    nargs > PLAN_MAX_ARGS) {
		snprintf(err, errlen, "a plan takes 1 to %d boots a kernel and 1 to %d runs a boot", PLAN_MAX_BOOTS,
			 PLAN_MAX_RUNS);
		return -1;
	}
	snprintf(p->name, sizeof p->name, "%s", name);
	/* an id of its own, so a plan made again under an old name shares no runs with it */
	if (store_new_id(p->id, sizeof p->id, err, errlen) < 0)
		return -1;
	snprintf(p->kernel[0], sizeof p->kernel[0], "%s", a);
	snprintf(p->kernel[1], sizeof p->kernel[1], "%s", b);
	p->boots = boots;
	p->runs_per_boot = runs_per_boot;
	p->until = until;
	p->alpha = PLAN_DEFAULT_ALPHA;
	p->order = order;
	p->seed = seed;
	p->created = time(NULL);
	gethostname(p->host, sizeof p->host - 1);
	for (int i = 0; i < nargs; i++)
		if (!(p->args[p->nargs++] = strdup(args[i])))
			abort();
	make_schedule(p);
	return 0;
}

void plan_free(struct plan *p)
{
	for (int i = 0; i < p->nargs; i++)
		free(p->args[i]);
	free(p->boot);
	memset(p, 0, sizeof *p);
}

void plan_path(const char *name, char *buf, size_t size)
{
	if (name)
		snprintf(buf, size, "%s/plans/%s.json", store_dir(), name);
	else
		snprintf(buf, size, "%s/plans", store_dir());
}

static const char *const state_names[] = { "running", "done", "abandoned" };

/* A JSON string of s, which may hold bytes that are no UTF-8 (a command
 * line is the kernel's bytes): those become '?', so the key is never lost. */
static json_t *text(const char *s)
{
	json_t *j = json_string(s);
	if (j)
		return j;
	char *c = strdup(s);
	if (!c)
		abort();
	for (unsigned char *u = (unsigned char *)c; *u; u++)
		if (*u >= 0x80)
			*u = '?';
	j = json_string(c);
	free(c);
	return j;
}

/* Copies a string cut to size without cutting a UTF-8 character in two. */
static void copy_utf8(char *dst, size_t size, const char *src)
{
	size_t n = strlen(src);
	if (n >= size) {
		n = size - 1;
		while (n > 0 && ((unsigned char)src[n] & 0xc0) == 0x80)
			n--;
	}
	memcpy(dst, src, n);
	dst[n] = 0;
}

static json_t *num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

char *plan_dump(const struct plan *p)
{
	json_t *o = json_object(), *args = json_array(), *boots = json_array();
	json_object_set_new(o, "kbench_plan", json_integer(PLAN_FORMAT));
	json_object_set_new(o, "name", text(p->name));
	json_object_set_new(o, "id", text(p->id));
	json_object_set_new(o, "host", text(p->host));
	json_object_set_new(o, "created", json_integer((json_int_t)p->created));
	for (int s = 0; s < 2; s++) {
		json_t *k = json_object();
		json_object_set_new(k, "as_given", text(p->kernel[s]));
		json_object_set_new(k, "release", text(p->release[s]));
		json_object_set_new(k, "entry", text(p->entry[s]));
		json_object_set_new(k, "image", text(p->image[s]));
		json_object_set_new(o, s ? "B" : "A", k);
	}
	json_object_set_new(o, "boots", json_integer(p->boots));
	json_object_set_new(o, "runs_per_boot", json_integer(p->runs_per_boot));
	json_object_set_new(o, "until", num(p->until > 0 ? p->until : NAN));
	json_object_set_new(o, "confidence", num(1 - p->alpha));
	json_object_set_new(o, "order", text(p->order == PLAN_ORDER_RANDOM ? "random" : "balanced"));
	json_object_set_new(o, "seed", json_integer(p->seed));
	json_object_set_new(o, "schedule", text(p->schedule));
	for (int i = 0; i < p->nargs; i++)
		json_array_append_new(args, text(p->args[i]));
	json_object_set_new(o, "run_args", args);
	json_object_set_new(o, "promise", num(p->promise));
	json_object_set_new(o, "promise_calibrated", json_boolean(p->promise_calibrated));
	json_object_set_new(o, "minutes", num(p->minutes));
	json_object_set_new(o, "installed", json_boolean(p->installed));
	json_object_set_new(o, "wrong_boots", json_integer(p->wrong_boots));
	json_object_set_new(o, "ended", text(p->ended));
	for (int i = 0; i < p->nboots; i++) {
		const struct plan_boot *b = &p->boot[i];
		json_t *jb = json_object(), *runs = json_array();
		json_object_set_new(jb, "slot", json_integer(b->slot));
		json_object_set_new(jb, "side", json_stringn(&b->side, 1));
		json_object_set_new(jb, "boot_id", text(b->boot_id));
		json_object_set_new(jb, "release", text(b->release));
		json_object_set_new(jb, "cmdline", text(b->cmdline));
		json_object_set_new(jb, "started", json_integer((json_int_t)b->started));
		json_object_set_new(jb, "finished", json_integer((json_int_t)b->finished));
		json_object_set_new(jb, "state", text(state_names[b->state]));
		json_object_set_new(jb, "sequence", text(b->seq));
		json_object_set_new(jb, "note", text(b->note));
		for (int r = 0; r < b->nruns; r++)
			json_array_append_new(runs, text(b->runs[r]));
		json_object_set_new(jb, "runs", runs);
		json_array_append_new(boots, jb);
	}
	json_object_set_new(o, "boots_measured", boots);
	char *text = json_dumps(o, JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15));
	json_decref(o);
	if (!text)
		abort();
	return text;
}

static void str_of(json_t *o, const char *key, char *dst, size_t size)
{
	json_t *v = json_object_get(o, key);
	copy_utf8(dst, size, json_is_string(v) ? json_string_value(v) : "");
}

static long long int_of(json_t *o, const char *key, long long def)
{
	json_t *v = json_object_get(o, key);
	return json_is_integer(v) ? (long long)json_integer_value(v) : def;
}

static double real_of(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	return json_is_number(v) ? json_number_value(v) : NAN;
}

static int bad(char *err, size_t errlen, const char *what)
{
	snprintf(err, errlen, "not a kbench plan: %s", what);
	return -1;
}

int plan_parse(const char *text, size_t len, struct plan *p, char *err, size_t errlen)
{
	memset(p, 0, sizeof *p);
	json_error_t je;
	json_t *o = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
	if (!o) {
		snprintf(err, errlen, "not a kbench plan: line %d: %s", je.line, je.text);
		return -1;
	}
	int rc = -1;
	json_t *fmt = json_object_get(o, "kbench_plan");
	if (!json_is_object(o) || !json_is_integer(fmt)) {
		bad(err, errlen, "no \"kbench_plan\" format number");
		goto out;
	}
	if (json_integer_value(fmt) != PLAN_FORMAT) {
		snprintf(err, errlen, "plan format %lld: this kbench reads format %d", (long long)json_integer_value(fmt),
			 PLAN_FORMAT);
		goto out;
	}
	str_of(o, "name", p->name, sizeof p->name);
	str_of(o, "id", p->id, sizeof p->id);
	str_of(o, "host", p->host, sizeof p->host);
	p->created = (time_t)int_of(o, "created", 0);
	for (int s = 0; s < 2; s++) {
		json_t *k = json_object_get(o, s ? "B" : "A");
		str_of(k, "as_given", p->kernel[s], sizeof p->kernel[s]);
		str_of(k, "release", p->release[s], sizeof p->release[s]);
		str_of(k, "entry", p->entry[s], sizeof p->entry[s]);
		str_of(k, "image", p->image[s], sizeof p->image[s]);
	}
	long long boots = int_of(o, "boots", 0), runs = int_of(o, "runs_per_boot", 0);
	if (!plan_name_valid(p->name) || !p->kernel[0][0] || !p->kernel[1][0] || boots < 1 || boots > PLAN_MAX_BOOTS ||
	    runs < 1 || runs > PLAN_MAX_RUNS) {
		bad(err, errlen, "its name, kernels, boots or runs a boot are missing or out of range");
		goto out;
	}
	p->boots = (int)boots;
	p->runs_per_boot = (int)runs;
	p->until = real_of(o, "until");
	if (!(p->until > 0 && p->until < 1))
		p->until = 0;
	/* a plan stored before --confidence, or one whose figure is out of range: 95% */
	double conf = real_of(o, "confidence");
	p->alpha = conf * 100 >= PLAN_CONF_MIN_PCT - 1e-9 && conf * 100 <= PLAN_CONF_MAX_PCT + 1e-9 ? 1 - conf
												    : PLAN_DEFAULT_ALPHA;
	char order[16];
	str_of(o, "order", order, sizeof order);
	p->order = !strcmp(order, "random") ? PLAN_ORDER_RANDOM : PLAN_ORDER_BALANCED;
	p->seed = (unsigned)int_of(o, "seed", 0);
	str_of(o, "schedule", p->schedule, sizeof p->schedule);
	if (strlen(p->schedule) != (size_t)(2 * p->boots) || strspn(p->schedule, "AB") != strlen(p->schedule)) {
		bad(err, errlen, "its schedule is not one A or B a slot");
		goto out;
	}
	json_t *args = json_object_get(o, "run_args");
	size_t i;
	json_t *v;
	json_array_foreach(args, i, v)
	{
		if (!json_is_string(v) || p->nargs == PLAN_MAX_ARGS) {
			bad(err, errlen, "its run options are not a list of at most 64 words");
			goto out;
		}
		if (!(p->args[p->nargs++] = strdup(json_string_value(v))))
			abort();
	}
	p->promise = real_of(o, "promise");
	p->promise_calibrated = json_is_true(json_object_get(o, "promise_calibrated"));
	p->minutes = real_of(o, "minutes");
	p->installed = json_is_true(json_object_get(o, "installed"));
	long long wrong = int_of(o, "wrong_boots", 0);
	p->wrong_boots = wrong < 0 || wrong > 1000 ? 0 : (int)wrong;
	str_of(o, "ended", p->ended, sizeof p->ended);
	json_t *boots_j = json_object_get(o, "boots_measured");
	if (json_array_size(boots_j) > 4 * PLAN_MAX_BOOTS) {
		bad(err, errlen, "it lists more boots than a plan may measure");
		goto out;
	}
	json_array_foreach(boots_j, i, v)
	{
		char side[4], state[16];
		str_of(v, "side", side, sizeof side);
		long long slot = int_of(v, "slot", -1);
		if (!json_is_object(v) || (strcmp(side, "A") && strcmp(side, "B")) || slot < 0 || slot >= 2 * p->boots) {
			bad(err, errlen, "a boot without its side or slot");
			goto out;
		}
		struct plan_boot *b = plan_add_boot(p, (int)slot, side[0]);
		str_of(v, "boot_id", b->boot_id, sizeof b->boot_id);
		str_of(v, "release", b->release, sizeof b->release);
		str_of(v, "cmdline", b->cmdline, sizeof b->cmdline);
		b->started = (time_t)int_of(v, "started", 0);
		b->finished = (time_t)int_of(v, "finished", 0);
		str_of(v, "sequence", b->seq, sizeof b->seq);
		str_of(v, "note", b->note, sizeof b->note);
		str_of(v, "state", state, sizeof state);
		b->state = !strcmp(state, "done") ? PLAN_BOOT_DONE : !strcmp(state, "abandoned") ? PLAN_BOOT_ABANDONED
												      : PLAN_BOOT_RUNNING;
		json_t *runs_j = json_object_get(v, "runs");
		size_t r;
		json_t *rv;
		json_array_foreach(runs_j, r, rv)
		{
			if (!json_is_string(rv) || b->nruns == PLAN_MAX_RUNS || !store_id_valid(json_string_value(rv))) {
				bad(err, errlen, "a boot's runs are not a list of run ids");
				goto out;
			}
			snprintf(b->runs[b->nruns++], sizeof b->runs[0], "%s", json_string_value(rv));
		}
	}
	rc = 0;
out:
	json_decref(o);
	if (rc)
		plan_free(p);
	return rc;
}

static int write_text(FILE *f, void *arg)
{
	return fputs(arg, f) < 0 || fputc('\n', f) == EOF ? -1 : 0;
}

int plan_save(const struct plan *p, char *err, size_t errlen)
{
	char dir[4096], path[4200];
	plan_path(NULL, dir, sizeof dir);
	/* the store first, then its plans/ */
	if (mkdir(store_dir(), 0755) < 0 && errno != EEXIST) {
		snprintf(err, errlen, "cannot make the store %s: %s", store_dir(), strerror(errno));
		return -1;
	}
	if (mkdir(dir, 0755) < 0 && errno != EEXIST) {
		snprintf(err, errlen, "cannot make %s: %s", dir, strerror(errno));
		return -1;
	}
	plan_path(p->name, path, sizeof path);
	char *text = plan_dump(p);
	int rc = file_write_atomic(path, write_text, text, err, errlen);
	free(text);
	return rc < 0 ? -1 : 0;
}

int plan_load(const char *name, struct plan *p, char *err, size_t errlen)
{
	memset(p, 0, sizeof *p);
	if (!plan_name_valid(name)) {
		snprintf(err, errlen, "no plan '%s' (a plan name is lowercase letters, digits, '.', '_' and '-')", name);
		return -1;
	}
	char path[4200], why[600];
	plan_path(name, path, sizeof path);
	char *text = NULL;
	size_t len = 0;
	int rc = file_read_all(path, path, 4 << 20, &text, &len, why, sizeof why);
	if (rc == -ENOENT) {
		snprintf(err, errlen, "no plan '%s' ('kbench plan list' lists the plans)", name);
		return -1;
	}
	if (rc < 0) {
		snprintf(err, errlen, "%s", why);
		return -1;
	}
	rc = plan_parse(text, len, p, why, sizeof why);
	free(text);
	if (rc < 0) {
		snprintf(err, errlen, "%s: %s", path, why);
		return -1;
	}
	if (strcmp(p->name, name)) {
		snprintf(err, errlen, "%s: holds the plan '%s', not '%s'", path, p->name, name);
		plan_free(p);
		return -1;
	}
	return 0;
}

struct listed {
	char *name;
	time_t mtime;
};

static int newest_first(const void *a, const void *b)
{
	const struct listed *x = a, *y = b;
	return x->mtime != y->mtime ? (x->mtime < y->mtime ? 1 : -1) : strcmp(x->name, y->name);
}

int plan_list(char ***names, char *err, size_t errlen)
{
	char dir[4096];
	plan_path(NULL, dir, sizeof dir);
	*names = NULL;
	DIR *d = opendir(dir);
	if (!d) {
		if (errno == ENOENT)
			return 0;
		snprintf(err, errlen, "%s: %s", dir, strerror(errno));
		return -1;
	}
	struct listed *v = NULL;
	int n = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);
		if (len < 6 || strcmp(de->d_name + len - 5, ".json"))
			continue;
		char name[64], path[4200];
		snprintf(name, sizeof name, "%.*s", (int)(len - 5), de->d_name);
		if (!plan_name_valid(name))
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
		struct stat st;
		if (stat(path, &st) < 0)
			continue;
		struct listed *nv = realloc(v, (size_t)(n + 1) * sizeof *nv);
		if (!nv || !(nv[n].name = strdup(name)))
			abort();
		v = nv;
		v[n++].mtime = st.st_mtime;
	}
	closedir(d);
	qsort(v, (size_t)n, sizeof *v, newest_first);
	*names = calloc((size_t)n + 1, sizeof **names);
	if (!*names)
		abort();
	for (int i = 0; i < n; i++)
		(*names)[i] = v[i].name;
	free(v);
	return n;
}

int plan_remove(const char *name, char *err, size_t errlen)
{
	char path[4200];
	if (!plan_name_valid(name)) {
		snprintf(err, errlen, "no plan '%s'", name);
		return -1;
	}
	plan_path(name, path, sizeof path);
	if (unlink(path) < 0) {
		snprintf(err, errlen, errno == ENOENT ? "no plan '%s'" : "cannot remove the plan '%s': %s", name,
			 strerror(errno));
		return -1;
	}
	return 0;
}

int plan_next_slot(const struct plan *p)
{
	int n = 2 * p->boots;
	for (int s = 0; s < n; s++) {
		bool done = false;
		for (int i = 0; i < p->nboots && !done; i++)
			done = p->boot[i].slot == s && p->boot[i].state == PLAN_BOOT_DONE;
		if (!done)
			return s;
	}
	return -1;
}

char plan_slot_side(const struct plan *p, int slot)
{
	return slot >= 0 && slot < 2 * p->boots ? p->schedule[slot] : 0;
}

struct plan_boot *plan_find_boot(struct plan *p, const char *boot_id)
{
	for (int i = 0; i < p->nboots; i++)
		if (!strcmp(p->boot[i].boot_id, boot_id))
			return &p->boot[i];
	return NULL;
}

int plan_done(const struct plan *p, char side)
{
	int n = 0;
	for (int i = 0; i < p->nboots; i++)
		n += p->boot[i].side == side && p->boot[i].state == PLAN_BOOT_DONE;
	return n;
}

struct plan_boot *plan_add_boot(struct plan *p, int slot, char side)
{
	struct plan_boot *nb = realloc(p->boot, (size_t)(p->nboots + 1) * sizeof *nb);
	if (!nb)
		abort();
	p->boot = nb;
	struct plan_boot *b = &p->boot[p->nboots++];
	memset(b, 0, sizeof *b);
	b->slot = slot;
	b->side = side;
	b->started = time(NULL);
	return b;
}

/* The image the boot loader started, from the command line's BOOT_IMAGE=
 * (GRUB puts it first: "BOOT_IMAGE=/boot/vmlinuz-6.1.0-13-amd64 root=...",
 * or "BOOT_IMAGE=(hd0,gpt2)/vmlinuz-..."). */
static void boot_image(const char *cmdline, char *buf, size_t size)
{
	buf[0] = 0;
	const char *p = strstr(cmdline, "BOOT_IMAGE=");
	if (!p)
		return;
	p += strlen("BOOT_IMAGE=");
	if (*p == '(' && strchr(p, ')'))
		p = strchr(p, ')') + 1;
	snprintf(buf, size, "%.*s", (int)strcspn(p, " \t\n"), p);
}

char plan_side_of(const struct plan *p, const char *release, const char *cmdline)
{
	bool is[2];
	for (int s = 0; s < 2; s++)
		is[s] = !strcmp(p->release[s][0] ? p->release[s] : p->kernel[s], release);
	if (is[0] != is[1])
		return is[0] ? 'A' : 'B';
	if (!is[0])
		return 0;
	char img[256];
	boot_image(cmdline ? cmdline : "", img, sizeof img);
	for (int s = 0; s < 2; s++)
		if (img[0] && p->image[s][0] && !strcmp(img, p->image[s]) && strcmp(p->image[0], p->image[1]))
			return s ? 'B' : 'A';
	return '?';
}
