/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Facts about this machine and kernel for the run's metadata and the report header. */
#include "sysinfo.h"

#include <ctype.h>
#include <dirent.h>
#include <inttypes.h>
#include <langinfo.h>
#include <limits.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include <utmp.h>

#include "run.h"
#include "telemetry/sysroot.h"
#include "workloads/looper.h"

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

/* ARM's /proc/cpuinfo names no model: a core is an implementer and a part
 * number (the kernel's arch/arm64/include/asm/cputype.h; Linux's
 * cpuinfo_arm64). The cores of the boards kbench's users have, and the
 * usual servers; others are named by their numbers. */
static const struct {
	unsigned impl, part;
	const char *name;
} arm_parts[] = {
	{ 0x41, 0xb76, "ARM1176" },	      { 0x41, 0xc07, "ARM Cortex-A7" },
	{ 0x41, 0xc08, "ARM Cortex-A8" },     { 0x41, 0xc09, "ARM Cortex-A9" },
	{ 0x41, 0xc0f, "ARM Cortex-A15" },    { 0x41, 0xc0e, "ARM Cortex-A17" },
	{ 0x41, 0xd03, "ARM Cortex-A53" },    { 0x41, 0xd04, "ARM Cortex-A35" },
	{ 0x41, 0xd05, "ARM Cortex-A55" },    { 0x41, 0xd07, "ARM Cortex-A57" },
	{ 0x41, 0xd08, "ARM Cortex-A72" },    { 0x41, 0xd09, "ARM Cortex-A73" },
	{ 0x41, 0xd0a, "ARM Cortex-A75" },    { 0x41, 0xd0b, "ARM Cortex-A76" },
	{ 0x41, 0xd0c, "ARM Neoverse-N1" },   { 0x41, 0xd0d, "ARM Cortex-A77" },
	{ 0x41, 0xd40, "ARM Neoverse-V1" },   { 0x41, 0xd41, "ARM Cortex-A78" },
	{ 0x41, 0xd44, "ARM Cortex-X1" },     { 0x41, 0xd46, "ARM Cortex-A510" },
	{ 0x41, 0xd47, "ARM Cortex-A710" },   { 0x41, 0xd48, "ARM Cortex-X2" },
	{ 0x41, 0xd49, "ARM Neoverse-N2" },   { 0x41, 0xd4b, "ARM Cortex-A78C" },
	{ 0x41, 0xd4f, "ARM Neoverse-V2" },   { 0x41, 0xd80, "ARM Cortex-A520" },
	{ 0x41, 0xd81, "ARM Cortex-A720" },   { 0x41, 0xd82, "ARM Cortex-X4" },
	{ 0x43, 0x0af, "Cavium ThunderX2" },  { 0x46, 0x001, "Fujitsu A64FX" },
	{ 0x48, 0xd01, "HiSilicon TSV110" },  { 0x51, 0x800, "Qualcomm Kryo 2xx Gold" },
	{ 0x51, 0x801, "Qualcomm Kryo 2xx Silver" }, { 0x51, 0x803, "Qualcomm Kryo 3xx Silver" },
	{ 0x51, 0x804, "Qualcomm Kryo 4xx Gold" }, { 0x51, 0x805, "Qualcomm Kryo 4xx Silver" },
	{ 0x61, 0x022, "Apple M1 Icestorm" }, { 0x61, 0x023, "Apple M1 Firestorm" },
	{ 0x61, 0x032, "Apple M2 Blizzard" }, { 0x61, 0x033, "Apple M2 Avalanche" },
	{ 0xc0, 0xac3, "Ampere-1" },
};

/* Appends a core's name to the model: "ARM Cortex-A53 + ARM Cortex-A72" for
 * big.LITTLE, each kind once, in the order of the CPUs. */
static void arm_core(char *model, size_t len, unsigned impl, unsigned part)
{
	char name[48];
	snprintf(name, sizeof name, "CPU implementer 0x%02x part 0x%03x", impl, part);
	for (size_t i = 0; i < sizeof arm_parts / sizeof arm_parts[0]; i++)
		if (arm_parts[i].impl == impl && arm_parts[i].part == part)
			snprintf(name, sizeof name, "%s", arm_parts[i].name);
	for (const char *p = model; (p = strstr(p, name)); p += strlen(name))
		if ((p == model || p[-1] == ' ') && (!p[strlen(name)] || p[strlen(name)] == ' '))
			return;
	size_t n = strlen(model);
	snprintf(model + n, len - n, "%s%s", n ? " + " : "", name);
}

static void cpuinfo(struct run_meta *m)
{
	char path[PATH_MAX];
	FILE *f = sysroot_path(path, sizeof path, "/proc/cpuinfo") == 0 ? fopen(path, "r") : NULL;
	if (!f) {
		snprintf(m->cpu_model, sizeof m->cpu_model, "unknown");
		return;
	}
	char line[4096], cores[128] = "", board[96] = "", features[256] = "";
	bool model = false, bogo = false, flags = false, mc = false;
	unsigned impl = 0;
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
		} else if (!strncmp(line, "CPU implementer", 15)) {
			impl = (unsigned)strtoul(val, NULL, 0);
		} else if (!strncmp(line, "CPU part", 8)) {
			arm_core(cores, sizeof cores, impl, (unsigned)strtoul(val, NULL, 0));
		} else if (!features[0] && !strncmp(line, "Features", 8)) {
			snprintf(features, sizeof features, "%s", val);
		} else if (!strncmp(line, "Model", 5) && isspace((unsigned char)line[5])) {
			snprintf(board, sizeof board, "%s", val); /* Raspberry Pi kernels */
		} else if (!board[0] && !strncmp(line, "Hardware", 8)) {
			snprintf(board, sizeof board, "%s", val); /* 32-bit ARM kernels */
		}
	}
	fclose(f);
	/* ARM: the cores by name (a 32-bit kernel's "ARMv7 Processor rev 3 (v7l)"
	 * names only the architecture), and the board, from cpuinfo or else the
	 * device tree; its Features where x86 has flags. */
	if (cores[0] && (!model || !strncmp(m->cpu_model, "ARMv", 4))) {
		if (!board[0] && sysroot_read_line("/sys/firmware/devicetree/base/model", board,
						   sizeof board) != 0)
			board[0] = '\0';
		snprintf(m->cpu_model, sizeof m->cpu_model, "%s%s%s", cores, board[0] ? ", " : "", board);
		model = true;
	}
	if (!flags && features[0])
		snprintf(m->cpu_flags, sizeof m->cpu_flags, "%s", features);
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

/* The selected entry of a sysfs choice list ("always [madvise] never"), or
 * the whole value when it has no brackets (md's scheduler says "none"). */
static void bracketed(const char *line, char *out, size_t size)
{
	const char *open = strchr(line, '['), *close = open ? strchr(open, ']') : NULL;
	if (open && close)
		snprintf(out, size, "%.*s", (int)(close - open - 1), open + 1);
	else
		snprintf(out, size, "%s", line + strspn(line, " \t"));
	size_t n = strlen(out);
	while (n && isspace((unsigned char)out[n - 1]))
		out[--n] = '\0';
	if (!n)
		snprintf(out, size, "unknown");
}

/* A missing file (a kernel without THP, no sysfs) says so in `missing`: kbench runs anywhere. */
static void sys_choice(const char *path, char *out, size_t size, const char *missing)
{
	char line[256];
	if (sysroot_read_line(path, line, sizeof line) == 0)
		bracketed(line, out, size);
	else
		snprintf(out, size, "%s", missing);
}

/* Swap from /proc/swaps (Size and Used are KiB), else /proc/meminfo; unknown without both. */
static void swap_info(struct run_meta *m)
{
	char path[PATH_MAX], line[512];
	m->swap_known = false;
	m->swap_total_kib = m->swap_used_kib = 0;
	FILE *f = sysroot_path(path, sizeof path, "/proc/swaps") == 0 ? fopen(path, "r") : NULL;
	if (f) {
		/* The file name is escaped (no blanks), so the columns split on white space. */
		unsigned long long size, used;
		while (fgets(line, sizeof line, f))
			if (sscanf(line, "%*s %*s %llu %llu", &size, &used) == 2) {
				m->swap_total_kib += size;
				m->swap_used_kib += used;
			}
		fclose(f);
		m->swap_known = true;
		return;
	}
	f = sysroot_path(path, sizeof path, "/proc/meminfo") == 0 ? fopen(path, "r") : NULL;
	if (!f)
		return;
	unsigned long long total = 0, free_kib = 0;
	bool t = false, fr = false;
	while (fgets(line, sizeof line, f)) {
		t |= sscanf(line, "SwapTotal: %llu", &total) == 1;
		fr |= sscanf(line, "SwapFree: %llu", &free_kib) == 1;
	}
	fclose(f);
	if (t && fr) {
		m->swap_known = true;
		m->swap_total_kib = total;
		m->swap_used_kib = total > free_kib ? total - free_kib : 0;
	}
}

const char *sysinfo_scratch_dir(const char *tmpdir)
{
	/* runner_new's rule: the file tests write there, so its filesystem is the one that counts. */
	if (tmpdir && *tmpdir)
		return tmpdir;
	const char *env = getenv("TMPDIR");
	return env && *env ? env : "/tmp";
}

/* mountinfo writes blanks and backslashes in paths as \ooo (octal): "\040" is a space. */
static void unescape_octal(char *s)
{
	char *w = s;
	for (const char *p = s; *p;) {
		if (p[0] == '\\' && p[1] >= '0' && p[1] <= '3' && p[2] >= '0' && p[2] <= '7' &&
		    p[3] >= '0' && p[3] <= '7') {
			*w++ = (char)((p[1] - '0') * 64 + (p[2] - '0') * 8 + (p[3] - '0'));
			p += 4;
		} else {
			*w++ = *p++;
		}
	}
	*w = '\0';
}

/* The length of mount point mp when it holds path (whole components only:
 * /tmp does not hold /tmpfoo), else -1. */
static long mount_holds(const char *mp, const char *path)
{
	if (path[0] != '/')
		return -1;
	if (!strcmp(mp, "/"))
		return 1;
	size_t n = strlen(mp);
	if (strncmp(mp, path, n) != 0 || (path[n] != '\0' && path[n] != '/'))
		return -1;
	return (long)n;
}

struct mount {
	char majmin[32];
	char point[PATH_MAX];
	char options[256];
	char type[32];
	char source[256];
};

/* Splits one mountinfo line: "36 35 98:0 /root /mnt opts [optional...] - type source superopts". */
static bool parse_mountinfo(char *line, struct mount *mt)
{
	char *field[8] = { 0 }, *save = NULL, *tok;
	int n = 0;
	bool dash = false;
	for (tok = strtok_r(line, " \n", &save); tok; tok = strtok_r(NULL, " \n", &save)) {
		if (n < 6) {
			field[n++] = tok;
		} else if (!dash) {
			dash = !strcmp(tok, "-");
		} else if (n < 8) {
			field[n++] = tok;
		} else {
			break;
		}
	}
	if (n < 8)
		return false;
	unescape_octal(field[4]);
	unescape_octal(field[7]);
	snprintf(mt->majmin, sizeof mt->majmin, "%s", field[2]);
	snprintf(mt->point, sizeof mt->point, "%s", field[4]);
	snprintf(mt->options, sizeof mt->options, "%s", field[5]);
	snprintf(mt->type, sizeof mt->type, "%s", field[6]);
	snprintf(mt->source, sizeof mt->source, "%s", field[7]);
	return true;
}

/* The mount that holds path: the longest matching mount point, and of two
 * mounts on one point the later (it covers the earlier). */
static bool find_mount(const char *path, struct mount *best)
{
	char file[PATH_MAX];
	if (sysroot_path(file, sizeof file, "/proc/self/mountinfo") < 0)
		return false;
	FILE *f = fopen(file, "r");
	if (!f)
		return false;
	char *line = NULL;
	size_t cap = 0;
	long best_len = -1;
	struct mount mt;
	while (getline(&line, &cap, f) > 0) {
		if (!parse_mountinfo(line, &mt))
			continue;
		long len = mount_holds(mt.point, path);
		if (len >= 0 && len >= best_len) {
			best_len = len;
			*best = mt;
		}
	}
	free(line);
	fclose(f);
	return best_len >= 0;
}

/* root + sysfs path, its links followed: where a device's attributes really are. */
static bool sys_resolve(char *out, size_t size, const char *fmt, const char *arg)
{
	char p[PATH_MAX];
	if (sysroot_path(p, sizeof p, fmt, arg) < 0)
		return false;
	char *real = realpath(p, NULL);
	if (!real)
		return false;
	snprintf(out, size, "%s", real);
	free(real);
	return true;
}

/* The dm-N device whose dm/name is `name` (what /dev/mapper/name points to). */
static bool dm_by_name(const char *name, char *out, size_t size)
{
	char dir[PATH_MAX], line[256];
	if (sysroot_path(dir, sizeof dir, "/sys/block") < 0)
		return false;
	DIR *d = opendir(dir);
	if (!d)
		return false;
	struct dirent *e;
	bool found = false;
	while (!found && (e = readdir(d))) {
		if (strncmp(e->d_name, "dm-", 3) != 0)
			continue;
		char p[PATH_MAX];
		snprintf(p, sizeof p, "%s/%s/dm/name", dir, e->d_name);
		if (read_line(p, line, sizeof line) == 0 && !strcmp(line, name))
			found = sys_resolve(out, size, "/sys/block/%s", e->d_name);
	}
	closedir(d);
	return found;
}

/* The sysfs directory of the block device under a mount: from mountinfo's
 * major:minor, or for an anonymous one (btrfs says 0:N) from the source's name. */
static bool block_device(const struct mount *mt, char *out, size_t size)
{
	if (strncmp(mt->majmin, "0:", 2) != 0 && sys_resolve(out, size, "/sys/dev/block/%s", mt->majmin))
		return true;
	if (!strncmp(mt->source, "/dev/mapper/", 12))
		return dm_by_name(mt->source + 12, out, size);
	if (strncmp(mt->source, "/dev/", 5) != 0)
		return false;
	char name[256];
	snprintf(name, sizeof name, "%s", mt->source);
	char *real = realpath(mt->source, NULL); /* /dev/disk/by-uuid/... links to the node */
	if (real && !strncmp(real, "/dev/", 5))
		snprintf(name, sizeof name, "%s", real);
	free(real);
	const char *base = strrchr(name, '/') + 1;
	return *base && sys_resolve(out, size, "/sys/class/block/%s", base);
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

/* The scheduler that orders a device's I/O: a partition's is its disk's;
 * dm and md (scheduler "none") pass their I/O to the devices under them
 * (slaves/), so the first of those answers. 0, or -1 when not found. */
static int disk_scheduler(const char *dev, int depth, char *out, size_t size)
{
	char disk[PATH_MAX], p[PATH_MAX + 32], line[256];
	snprintf(disk, sizeof disk, "%s", dev);
	snprintf(p, sizeof p, "%s/partition", disk);
	char *slash = strrchr(disk, '/');
	if (access(p, F_OK) == 0 && slash && slash != disk)
		*slash = '\0';
	snprintf(p, sizeof p, "%s/queue/scheduler", disk);
	bool have = read_line(p, line, sizeof line) == 0;
	if (have)
		bracketed(line, out, size);
	if ((!have || !strcmp(out, "none")) && depth < 4) {
		snprintf(p, sizeof p, "%s/slaves", disk);
		struct dirent **list;
		int n = scandir(p, &list, NULL, by_name);
		bool below = false;
		for (int i = 0; i < n; i++) {
			if (!below && list[i]->d_name[0] != '.') {
				char sp[PATH_MAX + 300];
				snprintf(sp, sizeof sp, "%s/slaves/%s", disk, list[i]->d_name);
				char *real = realpath(sp, NULL);
				char sched[64];
				if (real && disk_scheduler(real, depth + 1, sched, sizeof sched) == 0) {
					snprintf(out, size, "%s", sched);
					below = have = true;
				}
				free(real);
			}
			free(list[i]);
		}
		if (n >= 0)
			free(list);
	}
	return have ? 0 : -1;
}

void sysinfo_fill_storage(struct run_meta *m, const char *tmpdir)
{
	const char *dir = sysinfo_scratch_dir(tmpdir);
	char path[PATH_MAX];
	char *real = realpath(dir, NULL);
	if (real)
		snprintf(path, sizeof path, "%s", real);
	else if (dir[0] != '/' && getcwd(path, sizeof path - 1))
		snprintf(path + strlen(path), sizeof path - strlen(path), "/%s", dir);
	else
		snprintf(path, sizeof path, "%s", dir);
	free(real);
	snprintf(m->scratch_dir, sizeof m->scratch_dir, "%s", path);
	struct mount mt;
	if (!find_mount(path, &mt)) {
		snprintf(m->fs_type, sizeof m->fs_type, "unknown");
		snprintf(m->fs_options, sizeof m->fs_options, "unknown");
		snprintf(m->fs_source, sizeof m->fs_source, "unknown");
		snprintf(m->io_scheduler, sizeof m->io_scheduler, "unknown");
		return;
	}
	snprintf(m->fs_type, sizeof m->fs_type, "%s", mt.type);
	snprintf(m->fs_options, sizeof m->fs_options, "%s", mt.options);
	snprintf(m->fs_source, sizeof m->fs_source, "%s", mt.source);
	char dev[PATH_MAX];
	if (block_device(&mt, dev, sizeof dev)) {
		if (disk_scheduler(dev, 0, m->io_scheduler, sizeof m->io_scheduler) != 0)
			snprintf(m->io_scheduler, sizeof m->io_scheduler, "unknown");
	} else {
		/* A block device that sysfs does not show is unknown; tmpfs, overlay,
		 * nfs and the like have no disk, so no scheduler. */
		bool block = strncmp(mt.majmin, "0:", 2) != 0 || !strncmp(mt.source, "/dev/", 5);
		snprintf(m->io_scheduler, sizeof m->io_scheduler, "%s", block ? "unknown" : "none");
	}
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
	/* under KBENCH_SYSFS_ROOT, as the clock telemetry reads it: a fake tree's governor */
	if (sysroot_read_line("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", m->governor,
			      sizeof m->governor) != 0)
		snprintf(m->governor, sizeof m->governor, "n/a");
	char v[32];
	if (sysroot_read_line("/sys/devices/system/cpu/cpufreq/boost", v, sizeof v) == 0)
		snprintf(m->boost, sizeof m->boost, "%s", v[0] == '1' ? "on" : "off");
	else if (sysroot_read_line("/sys/devices/system/cpu/intel_pstate/no_turbo", v, sizeof v) == 0)
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
	const char *lang = looper_locale();
	snprintf(m->lang, sizeof m->lang, "%s", lang);
	locale_t l = newlocale(LC_ALL_MASK, lang, (locale_t)0);
	if (l) {
		snprintf(m->charmap, sizeof m->charmap, "\"%s\"", nl_langinfo_l(CODESET, l));
		snprintf(m->collate, sizeof m->collate, "\"%s\"", nl_langinfo_l(CODESET, l));
		freelocale(l);
	}
	uptime_line(m);
	swap_info(m);
	sys_choice("/sys/kernel/mm/transparent_hugepage/enabled", m->thp_enabled,
		   sizeof m->thp_enabled, "n/a");
	sys_choice("/sys/kernel/mm/transparent_hugepage/defrag", m->thp_defrag, sizeof m->thp_defrag,
		   "n/a");
	if (sysroot_read_line("/sys/devices/system/clocksource/clocksource0/current_clocksource",
			      m->clocksource, sizeof m->clocksource) != 0 || !m->clocksource[0])
		snprintf(m->clocksource, sizeof m->clocksource, "unknown");
	m->date = time(NULL);
	snprintf(m->kbench_version, sizeof m->kbench_version, "%s", KBENCH_VERSION);
	snprintf(m->build_flags, sizeof m->build_flags, "%s", KBENCH_BUILD_FLAGS);
	if (!m->name[0])
		snprintf(m->name, sizeof m->name, "%s", m->kernel_release);
}
