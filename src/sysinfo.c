/* Facts about this machine and kernel for the run's metadata and the report header. */
#include "sysinfo.h"

#include <ctype.h>
#include <dirent.h>
#include <inttypes.h>
#include <langinfo.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include <utmp.h>

#include "run.h"

int sysinfo_ncpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (int)n : 1;
}

static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	if (!fgets(buf, (int)len, f)) {
		fclose(f);
		return -1;
	}
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

static bool locale_exists(const char *name)
{
	locale_t l = newlocale(LC_ALL_MASK, name, (locale_t)0);
	if (!l)
		return false;
	freelocale(l);
	return true;
}

const char *sysinfo_shell_locale(void)
{
	/* UnixBench forces LANG=en_US.utf8; sort and grep are slower in UTF-8
	 * than in C, so the shell scores depend on it (UNIXBENCH.md §10). */
	static const char *const tries[] = { "en_US.utf8", "C.UTF-8", "C" };
	for (size_t i = 0; i < sizeof tries / sizeof tries[0]; i++)
		if (locale_exists(tries[i]))
			return tries[i];
	return "C";
}

/* UnixBench names a few CPU flags in words, in the alphabetical order of the raw flags. */
static void cpu_flag_words(const char *flags, char *out, size_t len)
{
	static const struct { const char *flag, *word; } words[] = {
		{ "ht", "Hyper-Threading" }, { "lm", "x86-64" }, { "mmx", "MMX" },
		{ "mmxext", "AMD MMX" }, { "pae", "Physical Address Ext" },
		{ "sep", "SYSENTER/SYSEXIT" }, { "svm", "AMD virtualization" },
		{ "syscall", "SYSCALL/SYSRET" }, { "vmx", "Intel virtualization" },
	};
	out[0] = '\0';
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
		size_t fl = strlen(words[i].flag);
		for (const char *p = flags; (p = strstr(p, words[i].flag)); p += fl) {
			bool start = p == flags || p[-1] == ' ';
			bool end = p[fl] == '\0' || p[fl] == ' ';
			if (start && end) {
				size_t used = strlen(out);
				snprintf(out + used, len - used, "%s%s", used ? ", " : "", words[i].word);
				break;
			}
		}
	}
}

static void cpuinfo(struct run_meta *m)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	if (!f)
		return;
	char line[4096];
	bool model = false, bogo = false, flags = false, mc = false;
	while (fgets(line, sizeof line, f)) {
		char *colon = strchr(line, ':');
		if (!colon)
			continue;
		char *val = colon + 1;
		while (*val == ' ')
			val++;
		val[strcspn(val, "\n")] = '\0';
		if (!model && !strncmp(line, "model name", 10)) {
			snprintf(m->cpu_model, sizeof m->cpu_model, "%s", val);
			model = true;
		} else if (!bogo && !strncasecmp(line, "bogomips", 8)) {
			m->bogomips = atof(val);
			bogo = true;
		} else if (!flags && !strncmp(line, "flags", 5)) {
			cpu_flag_words(val, m->cpu_flags, sizeof m->cpu_flags);
			flags = true;
		} else if (!mc && !strncmp(line, "microcode", 9)) {
			snprintf(m->microcode, sizeof m->microcode, "%s", val);
			mc = true;
		}
	}
	fclose(f);
	if (!model)
		snprintf(m->cpu_model, sizeof m->cpu_model, "unknown");
}

static void mitigations(struct run_meta *m)
{
	DIR *d = opendir("/sys/devices/system/cpu/vulnerabilities");
	if (!d) {
		snprintf(m->mitigations, sizeof m->mitigations, "unknown");
		return;
	}
	int mitigated = 0, vulnerable = 0, unaffected = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		char path[512], val[256];
		snprintf(path, sizeof path, "/sys/devices/system/cpu/vulnerabilities/%s", e->d_name);
		if (read_line(path, val, sizeof val) != 0)
			continue;
		if (!strncmp(val, "Not affected", 12))
			unaffected++;
		else if (!strncmp(val, "Vulnerable", 10))
			vulnerable++;
		else
			mitigated++;
	}
	closedir(d);
	snprintf(m->mitigations, sizeof m->mitigations, "%d mitigated, %d vulnerable, %d not affected",
		 mitigated, vulnerable, unaffected);
}

static void uptime_line(struct run_meta *m)
{
	char up[128] = "", load[128] = "";
	double secs = 0;
	if (read_line("/proc/uptime", up, sizeof up) == 0)
		secs = atof(up);
	double l1 = 0, l5 = 0, l15 = 0;
	if (read_line("/proc/loadavg", load, sizeof load) == 0)
		sscanf(load, "%lf %lf %lf", &l1, &l5, &l15);
	int users = 0;
	setutent();
	struct utmp *u;
	while ((u = getutent()))
		if (u->ut_type == USER_PROCESS)
			users++;
	endutent();
	time_t now = time(NULL);
	struct tm tm;
	localtime_r(&now, &tm);
	long days = (long)secs / 86400, hours = ((long)secs % 86400) / 3600, mins = ((long)secs % 3600) / 60;
	char dayspart[32] = "";
	if (days)
		snprintf(dayspart, sizeof dayspart, "%ld day%s, ", days, days == 1 ? "" : "s");
	snprintf(m->uptime, sizeof m->uptime,
		 "%02d:%02d:%02d up %s%2ld:%02ld,  %d user%s,  load average: %.2f, %.2f, %.2f", tm.tm_hour,
		 tm.tm_min, tm.tm_sec, dayspart, hours, mins, users, users == 1 ? "" : "s", l1, l5, l15);
}

void sysinfo_fill(struct run_meta *m)
{
	struct utsname u;
	if (uname(&u) == 0) {
		snprintf(m->hostname, sizeof m->hostname, "%s", u.nodename);
		snprintf(m->kernel_release, sizeof m->kernel_release, "%s", u.release);
		snprintf(m->kernel_version, sizeof m->kernel_version, "%s", u.version);
		snprintf(m->machine, sizeof m->machine, "%s", u.machine);
		/* uname -o on glibc Linux prints GNU/Linux; uname(2) has no such field. */
		snprintf(m->os, sizeof m->os, "%s", !strcmp(u.sysname, "Linux") ? "GNU/Linux" : u.sysname);
	}
	if (read_line("/proc/cmdline", m->cmdline, sizeof m->cmdline) != 0)
		m->cmdline[0] = '\0';
	cpuinfo(m);
	m->ncpus = sysinfo_ncpus();
	if (read_line("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", m->governor,
		      sizeof m->governor) != 0)
		snprintf(m->governor, sizeof m->governor, "n/a");
	char v[32];
	if (read_line("/sys/devices/system/cpu/cpufreq/boost", v, sizeof v) == 0)
		snprintf(m->boost, sizeof m->boost, "%s", v[0] == '1' ? "on" : "off");
	else if (read_line("/sys/devices/system/cpu/intel_pstate/no_turbo", v, sizeof v) == 0)
		snprintf(m->boost, sizeof m->boost, "%s", v[0] == '1' ? "off" : "on");
	else
		snprintf(m->boost, sizeof m->boost, "n/a");
	mitigations(m);
	FILE *f = fopen("/proc/meminfo", "r");
	if (f) {
		char line[256];
		while (fgets(line, sizeof line, f))
			if (sscanf(line, "MemTotal: %" SCNu64, &m->mem_kib) == 1)
				break;
		fclose(f);
	}
	const char *lang = sysinfo_shell_locale();
	snprintf(m->lang, sizeof m->lang, "%s", lang);
	locale_t l = newlocale(LC_ALL_MASK, lang, (locale_t)0);
	if (l) {
		snprintf(m->charmap, sizeof m->charmap, "\"%s\"", nl_langinfo_l(CODESET, l));
		snprintf(m->collate, sizeof m->collate, "\"%s\"", nl_langinfo_l(CODESET, l));
		freelocale(l);
	}
	uptime_line(m);
	m->date = time(NULL);
	snprintf(m->kbench_version, sizeof m->kbench_version, "%s", KBENCH_VERSION);
	snprintf(m->build_flags, sizeof m->build_flags, "%s", KBENCH_BUILD_FLAGS);
	if (!m->name[0])
		snprintf(m->name, sizeof m->name, "%s", m->kernel_release);
}
