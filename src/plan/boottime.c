/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Boot time: systemd-analyze's time, blame and critical-chain read, or the kernel's clock at init's start; stored as a points result. */
#include "boottime.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "command.h"
#include "run.h"
#include "store.h"
#include "sysinfo.h"
#include "telemetry/sysroot.h"

static const char *const phase_names[BOOT_NPHASES] = { "firmware", "loader", "kernel", "initrd", "userspace", "total" };

const char *boottime_phase_name(enum boot_phase p)
{
	return p < BOOT_NPHASES ? phase_names[p] : "?";
}

static void reset(struct boot_time *bt)
{
	memset(bt, 0, sizeof *bt);
	for (int i = 0; i < BOOT_NPHASES; i++)
		bt->s[i] = NAN;
	bt->target_s = NAN;
}

/* systemd's format_timespan units, longest first so "min" is not "m"+"in"
 * and "ms" is not "m"+"s" (src/basic/time-util.c). */
static const struct {
	const char *suffix;
	double seconds;
} span_units[] = {
	{ "month", 2629800 }, { "min", 60 }, { "ms", 1e-3 }, { "us", 1e-6 }, { "y", 31557600 },
	{ "w", 604800 },      { "d", 86400 }, { "h", 3600 },  { "s", 1 },
};

int boottime_span(const char *s, double *out, const char **end)
{
	double total = 0;
	int parts = 0;
	const char *p = s;
	for (;;) {
		const char *q = p;
		while (*q == ' ')
			q++;
		if (!isdigit((unsigned char)*q))
			break;
		char *num_end;
		double v = strtod(q, &num_end);
		size_t k;
		for (k = 0; k < sizeof span_units / sizeof span_units[0]; k++) {
			size_t n = strlen(span_units[k].suffix);
			if (!strncmp(num_end, span_units[k].suffix, n) && !isalpha((unsigned char)num_end[n]))
				break;
		}
		if (k == sizeof span_units / sizeof span_units[0] || !isfinite(v))
			break;
		total += v * span_units[k].seconds;
		p = num_end + strlen(span_units[k].suffix);
		parts++;
	}
	if (!parts)
		return -1;
	*out = total;
	if (end)
		*end = p;
	return 0;
}

int boottime_parse_time(const char *text, struct boot_time *bt)
{
	reset(bt);
	snprintf(bt->method, sizeof bt->method, "systemd-analyze time");
	const char *p = strstr(text, "Startup finished in ");
	if (!p) {
		/* what it said instead, its first line */
		const char *t = text;
		while (*t == ' ' || *t == '\n')
			t++;
		if (!strncmp(t, "Bootup is not yet finished", 26))
			snprintf(bt->why[BOOT_TOTAL], sizeof bt->why[0], "the boot has not finished (systemd still has jobs to run)");
		else if (strstr(t, "has not been booted with systemd"))
			snprintf(bt->why[BOOT_TOTAL], sizeof bt->why[0], "systemd is not this system's init");
		else
			snprintf(bt->why[BOOT_TOTAL], sizeof bt->why[0], "systemd-analyze said: %.*s", (int)strcspn(t, "\n"), t);
		return -1;
	}
	p += strlen("Startup finished in ");
	for (;;) {
		double v;
		const char *e;
		if (boottime_span(p, &v, &e) < 0)
			break;
		while (*e == ' ')
			e++;
		if (*e == '(') {
			size_t n = strcspn(e + 1, ")");
			for (int i = 0; i < BOOT_TOTAL; i++)
				if (n == strlen(phase_names[i]) && !strncmp(e + 1, phase_names[i], n))
					bt->s[i] = v;
			e += n + 1 + (e[n + 1] == ')');
		}
		while (*e == ' ')
			e++;
		if (*e == '+') {
			p = e + 1;
			continue;
		}
		if (*e == '=' && boottime_span(e + 1, &v, &e) == 0)
			bt->s[BOOT_TOTAL] = v;
		break;
	}
	const char *r = strstr(p, " reached after ");
	if (r) {
		const char *ls = r;
		while (ls > text && ls[-1] != '\n' && ls[-1] != ' ')
			ls--;
		snprintf(bt->target, sizeof bt->target, "%.*s", (int)(r - ls), ls);
		double v;
		if (boottime_span(r + strlen(" reached after "), &v, NULL) == 0)
			bt->target_s = v;
	}
	bool kernel = !isnan(bt->s[BOOT_KERNEL]);
	if (isnan(bt->s[BOOT_USERSPACE]) && !kernel) {
		snprintf(bt->why[BOOT_TOTAL], sizeof bt->why[0], "systemd-analyze reported no phase");
		return -1;
	}
	/* A container's systemd reports its userspace alone: the kernel
	 * booted with the host (systemd's analyze leaves it out since v238). */
	static const char *const container = "a container: the kernel booted with the host, not with this system";
	if (!kernel) {
		for (int i = BOOT_FIRMWARE; i <= BOOT_INITRD; i++)
			snprintf(bt->why[i], sizeof bt->why[0], "%s", container);
		bt->s[BOOT_TOTAL] = NAN;
		snprintf(bt->why[BOOT_TOTAL], sizeof bt->why[0], "%s", container);
	} else {
		if (isnan(bt->s[BOOT_FIRMWARE]))
			snprintf(bt->why[BOOT_FIRMWARE], sizeof bt->why[0],
				 "the boot loader reports no firmware time (systemd-boot does; GRUB and BIOS do not)");
		if (isnan(bt->s[BOOT_LOADER]))
			snprintf(bt->why[BOOT_LOADER], sizeof bt->why[0],
				 "the boot loader reports no time of its own (systemd-boot does; GRUB does not)");
		if (isnan(bt->s[BOOT_INITRD]))
			snprintf(bt->why[BOOT_INITRD], sizeof bt->why[0],
				 "no initrd time: none, or one without systemd (its time is in the kernel's)");
		if (isnan(bt->s[BOOT_TOTAL])) /* the journal's line has no total: the parts' sum */
			for (int i = BOOT_FIRMWARE; i < BOOT_TOTAL; i++)
				if (!isnan(bt->s[i]))
					bt->s[BOOT_TOTAL] = (isnan(bt->s[BOOT_TOTAL]) ? 0 : bt->s[BOOT_TOTAL]) + bt->s[i];
	}
	bt->ok = true;
	return 0;
}

int boottime_parse_blame(const char *text, struct boot_time *bt)
{
	bt->nslow = 0;
	for (const char *p = text; *p && bt->nslow < BOOTTIME_SLOWEST;) {
		double v;
		const char *e;
		if (boottime_span(p, &v, &e) == 0) {
			while (*e == ' ')
				e++;
			size_t n = strcspn(e, "\n");
			while (n && e[n - 1] == ' ')
				n--;
			if (n) {
				snprintf(bt->slow[bt->nslow].unit, sizeof bt->slow[0].unit, "%.*s", (int)n, e);
				bt->slow[bt->nslow++].s = v;
			}
		}
		const char *nl = strchr(p, '\n');
		p = nl ? nl + 1 : p + strlen(p);
	}
	return bt->nslow;
}

int boottime_parse_chain(const char *text, struct boot_time *bt)
{
	int n = 0;
	size_t used = 0;
	bt->chain[0] = 0;
	for (const char *p = text; *p;) {
		size_t len = strcspn(p, "\n");
		/* "    └─NetworkManager.service @14.795s +2.055s": the unit, its start, what it took */
		const char *plus = NULL;
		for (const char *q = p; q < p + len; q++)
			if (*q == '+' && q > p && q[-1] == ' ')
				plus = q;
		double took;
		if (plus && boottime_span(plus + 1, &took, NULL) == 0) {
			const char *u = p;
			while (u < p + len && !isalnum((unsigned char)*u) && *u != '-' && *u != '\\')
				u++; /* past the tree's drawing (UTF-8 box characters) */
			size_t ul = strcspn(u, " \n");
			int w = snprintf(bt->chain + used, sizeof bt->chain - used, "%s%.*s +%.3gs", n ? ", " : "",
					 (int)ul, u, took);
			if (w < 0 || (size_t)w >= sizeof bt->chain - used) {
				bt->chain[used] = 0;
				break;
			}
			used += (size_t)w;
			n++;
		}
		p += len + (p[len] == '\n');
	}
	return n;
}

/* Without systemd: when the kernel started init, by its clock (the start
 * time in /proc/1/stat is in clock ticks since boot). A container's init
 * started with the container, long after the kernel: n/a. */
static void from_init_start(struct boot_time *bt)
{
	char path[4096], buf[1024];
	snprintf(bt->method, sizeof bt->method, "the kernel's clock when init started (/proc/1/stat)");
	static const char *const marks[] = { "/.dockerenv", "/run/.containerenv" };
	for (size_t i = 0; i < sizeof marks / sizeof marks[0]; i++)
		if (sysroot_exists(marks[i])) {
			snprintf(bt->why[BOOT_KERNEL], sizeof bt->why[0], "a container (%s): its init started with it, not with the kernel",
				 marks[i]);
			return;
		}
	sysroot_path(path, sizeof path, "/proc/1/stat");
	FILE *f = fopen(path, "r");
	size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
	if (f)
		fclose(f);
	buf[n] = 0;
	/* the fields after the command's closing parenthesis: state is field 3, starttime 22 */
	const char *p = strrchr(buf, ')');
	unsigned long long ticks = 0;
	int field = 2;
	for (; p && *p && field < 22; p++)
		if (*p == ' ')
			field++;
	if (!p || sscanf(p, "%llu", &ticks) != 1) {
		snprintf(bt->why[BOOT_KERNEL], sizeof bt->why[0], "/proc/1/stat cannot be read");
		return;
	}
	double s = (double)ticks / (double)sysconf(_SC_CLK_TCK);
	if (s > 600) {
		snprintf(bt->why[BOOT_KERNEL], sizeof bt->why[0],
			 "init started %.0f s after the kernel: a container, or an init started by hand", s);
		return;
	}
	bt->s[BOOT_KERNEL] = bt->s[BOOT_TOTAL] = s;
	bt->ok = true;
}

void boottime_measure(struct boot_time *bt)
{
	char comm[64] = "", err[256];
	reset(bt);
	sysroot_read_line("/proc/1/comm", comm, sizeof comm);
	if (!strcmp(comm, "systemd")) {
		const char *argv[] = { "systemd-analyze", "time", NULL };
		char *out = NULL;
		int rc = command_run(argv, &out, 30, err, sizeof err);
		if (rc >= 0) {
			/* its answer, whatever it is: a time, or why there is none */
			int prc = boottime_parse_time(out ? out : "", bt);
			free(out);
			if (prc < 0)
				return;
			const char *blame[] = { "systemd-analyze", "blame", "--no-pager", NULL };
			if (command_run(blame, &out, 30, err, sizeof err) == 0)
				boottime_parse_blame(out, bt);
			free(out);
			out = NULL;
			const char *chain[] = { "systemd-analyze", "critical-chain", "--no-pager", NULL };
			if (command_run(chain, &out, 30, err, sizeof err) == 0)
				boottime_parse_chain(out, bt);
			free(out);
			return;
		}
		/* systemd without its analyze tool: the kernel's clock still says something */
	}
	from_init_start(bt);
	if (!bt->ok) {
		snprintf(bt->why[BOOT_TOTAL], sizeof bt->why[0], "%s", bt->why[BOOT_KERNEL]);
		return;
	}
	for (int i = 0; i < BOOT_NPHASES; i++)
		if (isnan(bt->s[i]))
			snprintf(bt->why[i], sizeof bt->why[0], "not measured without systemd-analyze (init is %s)",
				 comm[0] ? comm : "unknown");
}

struct test_result *boottime_add_result(struct run_block *b, const struct boot_time *bt)
{
	struct test_result *t = run_block_add_test(b, BOOTTIME_TEST, "Boot time", "s", 0, 0, "boot");
	t->kind = RESULT_POINTS;
	test_summary_set(t, "boot.method", NAN, bt->method);
	if (!bt->ok) {
		t->status = TEST_SKIPPED;
		snprintf(t->reason, sizeof t->reason, "boot time n/a: %s", bt->why[BOOT_TOTAL]);
		return t;
	}
	t->status = TEST_DONE;
	/* the total first: it heads the report's rows */
	static const enum boot_phase order[] = { BOOT_TOTAL, BOOT_FIRMWARE, BOOT_LOADER, BOOT_KERNEL, BOOT_INITRD, BOOT_USERSPACE };
	for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
		enum boot_phase ph = order[i];
		char key[64];
		snprintf(key, sizeof key, "boot.%s", phase_names[ph]);
		if (isnan(bt->s[ph])) {
			char text[KV_TEXT_MAX];
			snprintf(text, sizeof text, "n/a: %s", bt->why[ph]);
			test_summary_set(t, key, NAN, text);
			continue;
		}
		struct point *p = test_point(t, phase_names[ph], (double)i, "", "s", true, true);
		point_push(p, bt->s[ph]);
	}
	if (bt->target[0] && !isnan(bt->target_s))
		test_summary_set(t, "boot.target", bt->target_s, bt->target);
	char slow[KV_TEXT_MAX] = "";
	size_t u = 0;
	for (int i = 0; i < bt->nslow && u < sizeof slow; i++) {
		int w = snprintf(slow + u, sizeof slow - u, "%s%s %.3gs", i ? ", " : "", bt->slow[i].unit, bt->slow[i].s);
		if (w < 0 || (size_t)w >= sizeof slow - u)
			break;
		u += (size_t)w;
	}
	if (slow[0])
		test_summary_set(t, "boot.slowest", NAN, slow);
	if (bt->chain[0]) {
		char chain[KV_TEXT_MAX];
		snprintf(chain, sizeof chain, "%s", bt->chain);
		test_summary_set(t, "boot.chain", NAN, chain);
	}
	return t;
}

int boottime_store(const char *name, FILE *out, char *id, size_t idlen, char *err, size_t errlen)
{
	struct boot_time bt;
	boottime_measure(&bt);
	if (!bt.ok) {
		snprintf(err, errlen, "boot time n/a: %s", bt.why[BOOT_TOTAL]);
		return -1;
	}
	fprintf(out, "Boot time (%s):\n", bt.method);
	for (int i = 0; i < BOOT_NPHASES; i++) {
		if (isnan(bt.s[i]))
			fprintf(out, "  %-10s n/a: %s\n", phase_names[i], bt.why[i]);
		else
			fprintf(out, "  %-10s %8.3f s\n", phase_names[i], bt.s[i]);
	}
	if (bt.target[0] && !isnan(bt.target_s))
		fprintf(out, "  %s reached after %.3f s in userspace\n", bt.target, bt.target_s);
	for (int i = 0; i < bt.nslow; i++)
		fprintf(out, "%s %s %.3f s\n", i ? "            " : "  slowest:  ", bt.slow[i].unit, bt.slow[i].s);
	if (bt.chain[0])
		fprintf(out, "  critical chain: %s\n", bt.chain);
	struct run *r = run_new();
	sysinfo_fill(&r->meta);
	r->meta.date = time(NULL);
	r->meta.mode = &run_mode_full;
	if (name)
		snprintf(r->meta.name, sizeof r->meta.name, "%s", name);
	struct run_block *b = run_add_block(r, 1);
	b->start = b->end = r->meta.date;
	boottime_add_result(b, &bt);
	int rc = store_save(r, err, errlen);
	if (rc == 0)
		snprintf(id, idlen, "%s", r->meta.id);
	run_free(r);
	return rc < 0 ? -1 : 0;
}
