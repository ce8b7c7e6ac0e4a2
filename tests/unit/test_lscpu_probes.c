/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The nominal clock on real machines: every lscpu probe in tests/fixtures/probes/lscpu (hw-probe's linuxhw/LsCPU, verbatim) laid out as its kernel's cpufreq driver shows it, and kbench's nominal checked against the documented base clock, per CPU generation. */
#include <ctype.h>
#include <dirent.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fakesys.h"

#include "telemetry/cpufreq.h"

/* The fields of one probe kbench's rule depends on, as lscpu printed them. */
struct probe {
	char id[16], arch[32], vendor[32], name[160], flags[4096];
	int family, model, ncpus;
	double cur, max, min; /* MHz; 0: not printed (no cpufreq driver) */
	int boost;            /* "Frequency boost:" (the global cpufreq/boost file): 1, 0, -1 not printed */
};

/* lscpu's number, in the probe's locale ("1832,6000" as well as "1832.6000"). */
static double lscpu_num(const char *s)
{
	char buf[64];
	snprintf(buf, sizeof buf, "%s", s);
	for (char *c = buf; *c; c++)
		if (*c == ',')
			*c = '.';
	return strtod(buf, NULL);
}

/* Reads "Key:   value" lines; newer lscpu indents some keys under others. The
 * first of a key wins; "BIOS Model name" is another key than "Model name". */
static bool probe_read(const char *path, const char *id, struct probe *p)
{
	FILE *f = fopen(path, "re");
	if (!f)
		return false;
	memset(p, 0, sizeof *p);
	snprintf(p->id, sizeof p->id, "%s", id);
	p->boost = -1;
	char line[8192];
	bool seen_family = false, seen_model = false;
	while (fgets(line, sizeof line, f)) {
		line[strcspn(line, "\n")] = '\0';
		char *key = line;
		while (*key == ' ')
			key++;
		char *colon = strchr(key, ':');
		if (!colon)
			continue;
		*colon = '\0';
		char *v = colon + 1;
		while (*v == ' ')
			v++;
		if (!strcmp(key, "Architecture"))
			snprintf(p->arch, sizeof p->arch, "%s", v);
		else if (!strcmp(key, "Vendor ID") && !p->vendor[0])
			snprintf(p->vendor, sizeof p->vendor, "%s", v);
		else if (!strcmp(key, "Model name") && !p->name[0])
			snprintf(p->name, sizeof p->name, "%s", v);
		else if (!strcmp(key, "CPU family") && !seen_family)
			p->family = atoi(v), seen_family = true;
		else if (!strcmp(key, "Model") && !seen_model)
			p->model = atoi(v), seen_model = true;
		else if (!strcmp(key, "CPU(s)") && !p->ncpus)
			p->ncpus = atoi(v);
		else if (!strcmp(key, "CPU MHz"))
			p->cur = lscpu_num(v);
		else if (!strcmp(key, "CPU max MHz"))
			p->max = lscpu_num(v);
		else if (!strcmp(key, "CPU min MHz"))
			p->min = lscpu_num(v);
		else if (!strcmp(key, "Frequency boost"))
			p->boost = !strcmp(v, "enabled");
		else if (!strcmp(key, "Flags"))
			snprintf(p->flags, sizeof p->flags, " %s ", v);
	}
	fclose(f);
	return p->arch[0] && p->name[0];
}

static bool has_flag(const struct probe *p, const char *flag)
{
	char word[64];
	snprintf(word, sizeof word, " %s ", flag);
	return strstr(p->flags, word) != NULL;
}

static bool is_x86(const struct probe *p)
{
	return !strcmp(p->arch, "x86_64") || (p->arch[0] == 'i' && strstr(p->arch, "86"));
}

/* The base clock a model name says after its "@" (Intel's "@ 1.60GHz", VIA's
 * "@1300+MHz" and "@ 1.0+ GHz"), MHz; 0 where it says none. */
static double name_clock(const char *name)
{
	const char *at = strchr(name, '@');
	if (!at)
		return 0;
	char *end;
	double v = strtod(at + 1, &end);
	if (end == at + 1)
		return 0;
	while (*end == '+' || *end == ' ')
		end++;
	return !strncmp(end, "GHz", 3) ? v * 1000 : !strncmp(end, "MHz", 3) ? v : 0;
}

/* intel_pstate's intel_pstate_cpu_ids: the family-6 models it drives without
 * HWP (drivers/cpufreq/intel_pstate.c). Avoton (77) is not among them. */
static bool intel_pstate_model(int model)
{
	static const int ids[] = { 42, 45, 55, 58, 60, 61, 62, 63, 69, 70, 71, 76, 78, 79,
				   86, 87, 92, 94, 85, 122, 133, 165, 106, 141, 143, 207 };
	for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++)
		if (ids[i] == model)
			return true;
	return false;
}

/* AMD's base clocks of the Zen parts in the corpus (AMD's product pages): no
 * Zen model name says its clock, and where the probe's max is CPPC's boost
 * ratio over P0 or amd-pstate's ceiling the base is not in the probe. A Zen
 * probe without its row here fails the test, so no expectation is guessed. */
static double zen_base(const char *name)
{
	static const struct {
		const char *model; /* with the space or end that follows it */
		double mhz;
	} bases[] = {
		{ "Ryzen 5 2500U ", 2000 }, { "Ryzen 5 3500U ", 2100 }, { "Ryzen 5 3600 ", 3600 },
		{ "Ryzen 5 4500U ", 2300 }, { "3020e ", 1200 },         { "Ryzen 5 5600X ", 3700 },
		{ "Ryzen 7 5800H ", 3200 }, { "Ryzen 7 2700X ", 3700 },
	};
	char padded[192];
	snprintf(padded, sizeof padded, "%s ", name);
	for (size_t i = 0; i < sizeof bases / sizeof bases[0]; i++)
		if (strstr(padded, bases[i].model))
			return bases[i].mhz;
	return 0;
}

/* The probe's CPU generation (or vendor), for the table. */
static const char *probe_group(const struct probe *p)
{
	if (!strcmp(p->vendor, "GenuineIntel")) {
		if (p->family == 15)
			return "Intel NetBurst (Pentium 4)";
		static const struct {
			int model;
			const char *group;
		} g[] = {
			{ 9, "Intel Pentium M, Core Duo" },     { 13, "Intel Pentium M, Core Duo" },
			{ 14, "Intel Pentium M, Core Duo" },    { 15, "Intel Core 2" },
			{ 22, "Intel Core 2" },                 { 23, "Intel Core 2" },
			{ 29, "Intel Core 2" },                 { 26, "Intel Nehalem, Westmere" },
			{ 30, "Intel Nehalem, Westmere" },      { 31, "Intel Nehalem, Westmere" },
			{ 46, "Intel Nehalem, Westmere" },      { 37, "Intel Nehalem, Westmere" },
			{ 44, "Intel Nehalem, Westmere" },      { 47, "Intel Nehalem, Westmere" },
			{ 42, "Intel Sandy Bridge" },           { 45, "Intel Sandy Bridge" },
			{ 58, "Intel Ivy Bridge" },             { 62, "Intel Ivy Bridge" },
			{ 60, "Intel Haswell" },                { 63, "Intel Haswell" },
			{ 69, "Intel Haswell" },                { 70, "Intel Haswell" },
			{ 61, "Intel Broadwell" },              { 71, "Intel Broadwell" },
			{ 79, "Intel Broadwell" },              { 86, "Intel Broadwell" },
			{ 28, "Intel Atom Bonnell" },           { 38, "Intel Atom Bonnell" },
			{ 39, "Intel Atom Saltwell" },          { 53, "Intel Atom Saltwell" },
			{ 54, "Intel Atom Saltwell" },          { 55, "Intel Atom Silvermont" },
			{ 77, "Intel Atom Silvermont" },        { 74, "Intel Atom Silvermont" },
			{ 76, "Intel Atom Airmont" },           { 92, "Intel Atom Goldmont" },
			{ 95, "Intel Atom Goldmont" },          { 122, "Intel Atom Goldmont Plus" },
		};
		for (size_t i = 0; i < sizeof g / sizeof g[0]; i++)
			if (p->family == 6 && g[i].model == p->model)
				return g[i].group;
		return p->family == 6 && p->model > 77 ? "Intel Skylake and later" : "Intel, other";
	}
	if (!strcmp(p->vendor, "AuthenticAMD") || !strcmp(p->vendor, "HygonGenuine")) {
		switch (p->family) {
		case 15: return "AMD K8";
		case 16: case 18: return "AMD K10";
		case 20: return "AMD Bobcat";
		case 21: return "AMD Bulldozer family";
		case 22: return "AMD Jaguar, Puma";
		case 23: return p->model < 0x30 ? "AMD Zen, Zen+" : "AMD Zen 2";
		case 25: return p->model < 0x60 && !(p->model >= 0x10 && p->model < 0x20) ? "AMD Zen 3" : "AMD Zen 4";
		default: return "AMD, other";
		}
	}
	if (!strcmp(p->vendor, "CentaurHauls"))
		return "VIA";
	return is_x86(p) ? "x86, other" : "ARM";
}

/* One layout of a probe: what its driver shows, and what kbench must say. */
struct layout {
	const char *driver; /* scaling_driver; NULL: no cpufreq at all */
	double max;         /* cpuinfo_max_freq */
	double p0;          /* acpi-cpufreq's top P-state (scaling_available_frequencies); 0 none */
	double base_freq;   /* intel_pstate's base_frequency; 0 none */
	double cppc_nominal;/* acpi_cppc/nominal_freq; 0 none */
	bool cppc;          /* acpi_cppc/ exists (CPPC's boost ratio may be in max) */
	int boost;          /* the global boost file: 1, 0, -1 none */
	int no_turbo;       /* intel_pstate/no_turbo: 0, 1, -1 none */
	double want;        /* the documented base clock; 0: none the machine says */
};

/* How the probe's kernel laid its CPU out (drivers/cpufreq, Documentation/
 * admin-guide/pm/{intel_pstate,amd-pstate,cpufreq}.rst), from what lscpu
 * printed. Returns the layouts (a second where kernels differ: intel_pstate
 * before 4.20 had HWP without base_frequency; CPPC's nominal_freq is optional). */
static int probe_layouts(const struct probe *p, struct layout out[2])
{
	memset(out, 0, 2 * sizeof out[0]);
	struct layout *l = &out[0];
	l->boost = l->no_turbo = -1;
	double name = name_clock(p->name);
	bool intel = !strcmp(p->vendor, "GenuineIntel");
	bool amd = !strcmp(p->vendor, "AuthenticAMD") || !strcmp(p->vendor, "HygonGenuine");
	if (!p->max) { /* no cpufreq driver: /proc/cpuinfo's model name alone */
		l->want = is_x86(p) ? name : 0;
		return 1;
	}
	l->max = p->max;
	/* acpi-cpufreq's global boost file exists where the CPU has IDA or CPB;
	 * lscpu says its state where it printed "Frequency boost". */
	int acpi_boost = p->boost >= 0 ? p->boost : has_flag(p, "ida") || has_flag(p, "cpb") ? 1 : -1;
	if (intel && has_flag(p, "hwp")) {
		/* intel_pstate with HWP: max is HWP's highest (turbo), base_frequency
		 * the guaranteed clock, the model name's */
		l->driver = "intel_pstate";
		l->no_turbo = 0;
		l->base_freq = name;
		l->want = name;
		out[1] = *l;
		out[1].base_freq = 0; /* Linux 4.6 to 4.19: HWP, no base_frequency */
		return name ? 2 : 1;
	}
	if (intel && p->family == 6 && intel_pstate_model(p->model) && !(name && fabs(p->max - (name + 1)) < 0.6)) {
		/* intel_pstate without HWP: max is the turbo ratio's clock; no switch but no_turbo */
		l->driver = "intel_pstate";
		l->no_turbo = has_flag(p, "ida") || p->max > name + 1 ? 0 : 1;
		l->want = name;
		return 1;
	}
	if (intel || !strcmp(p->vendor, "CentaurHauls")) {
		/* acpi-cpufreq (speedstep-centrino, p4-clockmod, e_powersaver show the same
		 * top): P0 is the turbo P-state, base + 1 MHz, where the CPU has IDA */
		l->driver = "acpi-cpufreq";
		l->p0 = p->max;
		l->boost = acpi_boost;
		l->want = name;
		return 1;
	}
	if (amd && p->family == 15) { /* powernow-k8: no boost; the top FID is the rated clock */
		l->driver = "powernow-k8";
		l->want = p->max;
		return 1;
	}
	if (amd && p->family >= 23) {
		double base = zen_base(p->name);
		if (!base)
			fail_msg("%s (%s): a Zen part without its base clock in zen_base()", p->id, p->name);
		if (p->max > base * 1.05 && p->min < 1000) {
			/* amd-pstate (5.17+): max is highest_perf's clock, min lowest_perf's
			 * (hundreds of MHz, under any P-state); CPPC's nominal_freq the base */
			l->driver = "amd-pstate";
			l->cppc = true;
			l->cppc_nominal = base;
			l->boost = 1;
			l->want = base;
			return 1;
		}
		if (p->max > base * 1.05) {
			/* acpi-cpufreq, Linux 5.11+: max is P0 times CPPC's highest/nominal
			 * (a Ryzen 5 3600's 4714 and 3950, a 5800H's 5269); P0 is the base */
			l->driver = "acpi-cpufreq";
			l->p0 = base;
			l->cppc = true;
			l->boost = acpi_boost;
			l->want = base;
			out[1] = *l;
			out[1].cppc_nominal = base;
			return 2;
		}
		/* acpi-cpufreq before 5.11: max is P0 as the firmware's _PSS lists it,
		 * within a few percent of the base (a 4500U's 2375 for 2.3 GHz) */
		if (p->max < base * 0.95)
			fail_msg("%s (%s): P0 %.0f MHz, the base is %.0f", p->id, p->name, p->max, base);
		l->driver = "acpi-cpufreq";
		l->p0 = p->max;
		l->boost = acpi_boost;
		l->want = p->max;
		return 1;
	}
	if (amd) { /* acpi-cpufreq: P0 is the top of _PSS, where AMD lists no boost P-state */
		l->driver = "acpi-cpufreq";
		l->p0 = p->max;
		l->boost = acpi_boost;
		l->want = p->max;
		return 1;
	}
	/* ARM and the rest: cpufreq-dt, scmi, cppc_cpufreq: max is the top OPP; no clock in any name */
	l->driver = p->boost >= 0 ? "cppc_cpufreq" : "cpufreq-dt";
	l->boost = p->boost;
	l->want = 0;
	return 1;
}

/* The layout as files under the fake root: cpu0.. (up to 4), cpufreq as the
 * driver has it, /proc/cpuinfo as the architecture prints it. */
static void put_layout(const struct probe *p, const struct layout *l)
{
	int n = p->ncpus < 1 ? 1 : p->ncpus > 4 ? 4 : p->ncpus;
	bool x86 = is_x86(p);
	char cpuinfo[2048] = "";
	size_t len = 0;
	for (int c = 0; c < n; c++) {
		char d[128];
		snprintf(d, sizeof d, "sys/devices/system/cpu/cpu%d", c);
		char f[192];
		snprintf(f, sizeof f, "%s/online", d);
		fakesys_put(f, "1\n");
		/* arm64's /proc/cpuinfo has no model name; 32-bit ARM's names the core, no clock either way */
		if (x86)
			len += (size_t)snprintf(cpuinfo + len, sizeof cpuinfo - len,
						"processor\t: %d\nvendor_id\t: %s\nmodel name\t: %s\ncpu MHz\t\t: %.3f\n\n", c,
						p->vendor, p->name, p->cur ? p->cur : p->max);
		else if (strcmp(p->arch, "aarch64"))
			len += (size_t)snprintf(cpuinfo + len, sizeof cpuinfo - len, "processor\t: %d\nmodel name\t: %s\n\n", c,
						p->name);
		else
			len += (size_t)snprintf(cpuinfo + len, sizeof cpuinfo - len, "processor\t: %d\nBogoMIPS\t: 50.00\n\n", c);
		if (!l->driver)
			continue;
		snprintf(f, sizeof f, "%s/cpufreq/scaling_driver", d);
		fakesys_put(f, "%s\n", l->driver);
		snprintf(f, sizeof f, "%s/cpufreq/cpuinfo_max_freq", d);
		fakesys_put(f, "%.0f\n", l->max * 1000);
		snprintf(f, sizeof f, "%s/cpufreq/cpuinfo_min_freq", d);
		fakesys_put(f, "%.0f\n", (p->min ? p->min : l->max) * 1000);
		snprintf(f, sizeof f, "%s/cpufreq/scaling_cur_freq", d);
		fakesys_put(f, "%.0f\n", (p->cur ? p->cur : l->max) * 1000);
		if (l->p0) {
			snprintf(f, sizeof f, "%s/cpufreq/scaling_available_frequencies", d);
			double lo = p->min && p->min < l->p0 ? p->min : l->p0;
			fakesys_put(f, "%.0f %.0f %.0f \n", l->p0 * 1000, (l->p0 + lo) / 2 * 1000, lo * 1000);
		}
		if (l->base_freq) {
			snprintf(f, sizeof f, "%s/cpufreq/base_frequency", d);
			fakesys_put(f, "%.0f\n", l->base_freq * 1000);
		}
		if (l->cppc) {
			snprintf(f, sizeof f, "%s/acpi_cppc/highest_perf", d);
			fakesys_put(f, "%.0f\n", 166.0);
		}
		if (l->cppc_nominal) {
			snprintf(f, sizeof f, "%s/acpi_cppc/nominal_freq", d);
			fakesys_put(f, "%.0f\n", l->cppc_nominal);
		}
	}
	fakesys_put("proc/cpuinfo", "%s", cpuinfo);
	if (l->boost >= 0)
		fakesys_put("sys/devices/system/cpu/cpufreq/boost", "%d\n", l->boost);
	if (l->no_turbo >= 0)
		fakesys_put("sys/devices/system/cpu/intel_pstate/no_turbo", "%d\n", l->no_turbo);
}

/* kbench's nominal for the layout is right: the documented base clock where
 * there is one, never turbo's or boost's ceiling; where none is (ARM, names
 * without a clock) unknown or cpufreq's own top, labelled a ceiling with boost
 * on, never a figure of its own. */
static bool nominal_right(const struct layout *l, const struct cpufreq *cf)
{
	if (l->want > 0)
		return fabs(cf->nominal_mhz - l->want) < 0.5 && !cf->nominal_ceiling;
	if (cf->nominal_mhz == 0)
		return true;
	return l->driver && fabs(cf->nominal_mhz - l->max) < 0.5 && cf->nominal_ceiling == (l->boost == 1);
}

#define NGROUPS 40

struct tally {
	const char *group;
	int probes, layouts, right;
};

static struct cpufreq cf; /* 8192 CPUs' worth: not on the stack */

static void nominal_clock_on_the_lscpu_probes(void **state)
{
	(void)state;
	const char *top = getenv("KBENCH_TOP");
	char dir[512], path[768], line[1024];
	snprintf(dir, sizeof dir, "%s/tests/fixtures/probes/lscpu", top ? top : ".");
	snprintf(path, sizeof path, "%s/sources.tsv", dir);
	FILE *src = fopen(path, "re");
	assert_non_null(src);
	struct tally t[NGROUPS] = { { 0 } };
	int ng = 0, probes = 0, layouts = 0, right = 0;
	while (fgets(line, sizeof line, src)) {
		if (line[0] == '#')
			continue;
		char id[16], commit[48], spath[512];
		assert_int_equal(sscanf(line, "%15[^\t]\t%47[^\t]\t%511[^\n]", id, commit, spath), 3);
		/* the source path ends with the probe ID */
		const char *slash = strrchr(spath, '/');
		assert_true(slash && !strcmp(slash + 1, id) && strlen(commit) == 40);
		struct probe p;
		snprintf(path, sizeof path, "%s/%s", dir, id);
		if (!probe_read(path, id, &p))
			fail_msg("%s: unreadable, or no Architecture or Model name", id);
		const char *group = probe_group(&p);
		int g = 0;
		while (g < ng && strcmp(t[g].group, group))
			g++;
		if (g == ng) {
			assert_true(ng < NGROUPS);
			t[ng++].group = group;
		}
		t[g].probes++, probes++;
		struct layout l[2];
		int nl = probe_layouts(&p, l);
		for (int k = 0; k < nl; k++) {
			fakesys_remove();
			fakesys_make("lscpu");
			put_layout(&p, &l[k]);
			cpufreq_open(&cf);
			t[g].layouts++, layouts++;
			if (nominal_right(&l[k], &cf)) {
				t[g].right++, right++;
				continue;
			}
			print_message("%s (%s, %s): nominal %.1f MHz%s (%s), want %.1f\n", id, p.name,
				      l[k].driver ? l[k].driver : "no cpufreq", cf.nominal_mhz,
				      cf.nominal_ceiling ? " (a ceiling)" : "", cf.nominal_from, l[k].want);
		}
	}
	fclose(src);
	/* every probe file has its source */
	DIR *d = opendir(dir);
	assert_non_null(d);
	int files = 0;
	for (struct dirent *e; (e = readdir(d));)
		files += e->d_name[0] != '.' && strcmp(e->d_name, "sources.tsv");
	closedir(d);
	assert_int_equal(files, probes);
	print_message("%-28s %6s %7s %5s\n", "CPU group", "probes", "layouts", "right");
	for (int g = 0; g < ng; g++)
		print_message("%-28s %6d %7d %5d\n", t[g].group, t[g].probes, t[g].layouts, t[g].right);
	print_message("%d of %d layouts of %d lscpu probes: the nominal clock is the documented base clock, "
		      "or unknown where none is\n",
		      right, layouts, probes);
	assert_true(probes >= 300);
	assert_int_equal(right, layouts);
}

static int setup(void **state)
{
	(void)state;
	return fakesys_make("lscpu");
}

static int teardown(void **state)
{
	(void)state;
	return fakesys_remove();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(nominal_clock_on_the_lscpu_probes),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
