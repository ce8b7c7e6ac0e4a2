/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `kbench sensors --dump FILE`: a tar of the sysfs and procfs files kbench reads, for a bug report or a test fixture. */
#include "telemetry/dump.h"

#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "telemetry/sysroot.h"

/* What the readers in src/telemetry and src/record/sysinfo.c open, as glob patterns under the root. An
 * allow-list, so a power supply's serial_number, model_name or manufacturer never goes in. */
static const char *const wanted[] = {
	"sys/class/hwmon/hwmon*/"
	"{name,temp*_input,temp*_label,temp*_crit,temp*_max,temp*_crit_hyst,temp*_type}",
	"sys/class/hwmon/hwmon*/device/power/runtime_status",
	"sys/class/thermal/thermal_zone*/"
	"{type,temp,mode,policy,trip_point_*_type,trip_point_*_temp,trip_point_*_hyst}",
	"sys/class/thermal/cooling_device*/{type,cur_state,max_state,stats/total_trans,stats/"
	"time_in_state_ms}",
	"sys/class/power_supply/*/{type,scope,present,status,online,power_now,current_now,voltage_now,"
	"energy_now,energy_full,charge_now,charge_full,capacity}",
	"sys/class/powercap/intel-rapl:*/{name,energy_uj,max_energy_range_uj,enabled}",
	"sys/class/powercap/intel-rapl:*/constraint_*_{name,power_limit_uw,time_window_us,max_power_uw}",
	"sys/devices/system/cpu/{online,possible,present}",
	"sys/devices/system/cpu/cpu[0-9]*/cpufreq/*",
	"sys/devices/system/cpu/cpu[0-9]*/acpi_cppc/{nominal_freq,lowest_freq,highest_perf,nominal_perf}",
	"sys/devices/system/cpu/cpu[0-9]*/topology/"
	"{physical_package_id,core_id,cluster_id,die_id,core_cpus_list}",
	"sys/devices/system/cpu/cpu[0-9]*/thermal_throttle/*",
	"sys/devices/system/cpu/cpufreq/boost",
	"sys/devices/system/cpu/intel_pstate/*",
	"sys/devices/system/cpu/{cpu_core,cpu_atom}/cpus",
	"sys/bus/event_source/devices/*/{type,cpumask,cpus,caps/pmu_name}",
	"sys/bus/event_source/devices/power/events/*",
	"proc/cpuinfo",
	"proc/stat",
	"proc/sys/kernel/{perf_event_paranoid,nmi_watchdog}",
	"etc/sensors3.conf",
	"etc/sensors.d/*",
};

/* The longest file kept: sysfs attributes are a page at most; /proc/cpuinfo of a big machine is more. */
#define DUMP_MAX_FILE (4u << 20)

struct tar {
	FILE *f;
	int n;
	long mtime;
};

static void octal(char *field, size_t width, unsigned long long v)
{
	snprintf(field, width, "%0*llo", (int)width - 1, v);
}

/* One ustar member: a 512-byte header (a name too long for 100 bytes is split into prefix/name at a
 * '/'), the data, padding to 512. */
static int tar_add(struct tar *t, const char *name, unsigned mode, const char *data, size_t size)
{
	unsigned char h[512];
	memset(h, 0, sizeof h);
	size_t len = strlen(name);
	if (len < 100) {
		memcpy(h, name, len);
	} else {
		const char *cut = name + len - 99;
		cut = strchr(cut, '/');
		if (!cut || cut - name > 155)
			return -ENAMETOOLONG;
		memcpy(h + 345, name, (size_t)(cut - name));
		memcpy(h, cut + 1, strlen(cut + 1));
	}
	octal((char *)h + 100, 8, mode & 07777);
	octal((char *)h + 108, 8, 0);
	octal((char *)h + 116, 8, 0);
	octal((char *)h + 124, 12, size);
	octal((char *)h + 136, 12, (unsigned long long)t->mtime);
	h[156] = '0';
	memcpy(h + 257, "ustar", 6);
	memcpy(h + 263, "00", 2);
	memcpy(h + 265, "root", 4);
	memcpy(h + 297, "root", 4);
	memset(h + 148, ' ', 8);
	unsigned sum = 0;
	for (size_t i = 0; i < sizeof h; i++)
		sum += h[i];
	snprintf((char *)h + 148, 8, "%06o", sum);
	h[155] = ' ';
	static const char zero[512];
	if (fwrite(h, 1, sizeof h, t->f) != sizeof h || (size && fwrite(data, 1, size, t->f) != size) ||
	    (size % 512 && fwrite(zero, 1, 512 - size % 512, t->f) != 512 - size % 512))
		return -EIO;
	t->n++;
	return 0;
}

/* A Raspberry Pi's /proc/cpuinfo names the board's serial number: that line stays home. */
static size_t drop_serials(char *buf, size_t n)
{
	size_t out = 0;
	for (size_t i = 0; i < n;) {
		size_t e = i;
		while (e < n && buf[e] != '\n')
			e++;
		if (e < n)
			e++;
		if (strncasecmp(buf + i, "serial", 6)) {
			memmove(buf + out, buf + i, e - i);
			out += e - i;
		}
		i = e;
	}
	return out;
}

/* One file: its bytes as a reader gets them (nothing when it may not read them: the mode says why). */
static int add_file(struct tar *t, const char *full, const char *rel, char *buf)
{
	struct stat st;
	if (stat(full, &st) < 0 || !S_ISREG(st.st_mode))
		return 0;
	size_t n = 0;
	int fd = open(full, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		ssize_t r;
		while (n < DUMP_MAX_FILE && (r = read(fd, buf + n, DUMP_MAX_FILE - n)) > 0)
			n += (size_t)r;
		close(fd);
	}
	if (!strcmp(rel, "proc/cpuinfo"))
		n = drop_serials(buf, n);
	return tar_add(t, rel, st.st_mode, buf, n);
}

int telemetry_dump(const char *path, char *err, size_t errlen)
{
	char *buf = malloc(DUMP_MAX_FILE);
	if (!buf) {
		snprintf(err, errlen, "--dump: out of memory");
		return -ENOMEM;
	}
	struct tar t = { .f = fopen(path, "wbe"), .mtime = (long)time(NULL) };
	if (!t.f) {
		int e = errno;
		snprintf(err, errlen, "--dump: cannot create %s: %s", path, strerror(e));
		free(buf);
		return -e;
	}
	/* What made it: kbench's version and the kernel's release (not the node name). */
	struct utsname u;
	bool un = uname(&u) == 0;
	char about[400];
	int m = snprintf(about, sizeof about, "kbench %s sensors --dump\nkernel %s %s\nuid %s\nroot %s\n",
			 KBENCH_VERSION, un ? u.release : "?", un ? u.machine : "?",
			 geteuid() == 0 ? "root" : "not root", sysroot()[0] ? "a fixture tree" : "/");
	int rc = tar_add(&t, "kbench-dump.txt", 0644, about, (size_t)m);
	const char *root = sysroot();
	size_t rl = strlen(root);
	for (size_t i = 0; i < sizeof wanted / sizeof wanted[0] && rc == 0; i++) {
		char pat[600];
		snprintf(pat, sizeof pat, "%s/%s", root, wanted[i]);
		glob_t g;
		if (glob(pat, GLOB_BRACE, NULL, &g) != 0)
			continue;
		for (size_t k = 0; k < g.gl_pathc && rc == 0; k++)
			rc = add_file(&t, g.gl_pathv[k], g.gl_pathv[k] + rl + 1, buf);
		globfree(&g);
	}
	static const char end[1024];
	if (rc == 0 && fwrite(end, 1, sizeof end, t.f) != sizeof end)
		rc = -EIO;
	if (fclose(t.f) != 0 && rc == 0)
		rc = -errno;
	free(buf);
	if (rc < 0) {
		snprintf(err, errlen, "--dump: writing %s failed: %s", path, strerror(-rc));
		unlink(path);
		return rc;
	}
	return t.n;
}
