/* SPDX-License-Identifier: GPL-2.0-or-later */
/* CPU temperature through libsensors (with the user's sensors configuration) and the thermal zones: every temperature input, and a headline chosen by chip and label. */
#ifndef KBENCH_TELEMETRY_SENSORS_H
#define KBENCH_TELEMETRY_SENSORS_H

#include <stdbool.h>
#include <stddef.h>

/* As many inputs as the machine has (a two-socket server's coretemp alone has 2 x 57); the
 * headline picks at most SENSORS_PICK_MAX of them (every core of such a server). */
#define SENSORS_PICK_MAX 512
/* An input whose first read takes longer is left out of sampling: reads of a waking GPU or an SMM
 * handler take tens to hundreds of ms; a sysfs file in memory takes microseconds, a loaded machine
 * a few ms at worst. */
#define SENSORS_SLOW_MS 10.0

struct temp_input {
	char chip[64];   /* full chip name: "k10temp-pci-00c3" */
	char prefix[32]; /* the driver's name: "k10temp", "coretemp", "acpitz" */
	char label[48];  /* as shown: the user's sensors.conf label, else the kernel's */
	char klabel[48]; /* the kernel's label ("Tctl", "Package id 0", "temp1"): the rules go by it */
	double value;    /* °C; NAN when the read failed */
	double crit;     /* °C; 0 when the chip gives none (a zone: its critical trip point) */
	double max;      /* °C; 0 when none (a zone: its passive trip point) */
	bool max_constant; /* k10temp's temp1_max: a constant of the driver (70 °C), not a limit */
	int zone;        /* N of /sys/class/thermal/thermal_zoneN, -1 for a hwmon input */
	bool cpu_bound;  /* a zone (or a zone's hwmon twin) bound to the CPU's cooling devices */
	int sensor_type; /* tempN_type: 1 CPU diode, 5 AMD AMDSI, 6 Intel PECI (wired to the CPU); 0 none */
	bool sampled;    /* read every interval during a run: the headline's inputs only */
	double read_ms;  /* how long its first read took */
	char skip[112];  /* why it is not read ("not read: a GPU: a read may wake it"), "" when it is */
	/* libsensors handles (private to sensors.c) */
	const void *chip_ref;
	int nr_input, nr_crit, nr_max;
};

/* The headline "CPU temperature": one or more inputs whose maximum is shown. */
struct temp_pick {
	int n;
	int idx[SENSORS_PICK_MAX];
	char source[112]; /* "coretemp Package id 0", "k10temp Tctl", "thermal_zone0 cpu-thermal", ... */
	bool low_trust;   /* acpitz: a firmware zone, often not the CPU */
	bool user;        /* chosen with --sensor */
	double chip_limit;/* a limit borrowed from the same chip when the picked inputs have none */
	char chip_limit_name[8];
};

struct temp_sensors {
	bool available;     /* libsensors or the thermal zones gave temperature inputs */
	bool lib;           /* libsensors is initialised (sensors_cleanup to do) */
	char why[200];      /* why not, or why no headline */
	int n, cap;
	struct temp_input *in; /* n of them, allocated by sensors_open, freed by sensors_close */
	bool has_pick;
	struct temp_pick pick;
	double value;       /* the headline now, NAN when unknown */
	double limit;       /* its crit (else max) limit, 0 when none */
	char limit_name[8]; /* "crit", "max" or "passive" */
	char config_note[160]; /* the user's sensors configuration could not be used: why */
};

/* Readings outside (1, 127) °C are sensor faults or placeholders. */
static inline bool sensors_valid(double c)
{
	return c > 1 && c < 127;
}

/* A limit means one between 40 and 127 °C: below, no CPU and no zone is at its limit (firmware's
 * placeholders, an ACPI _CRT of 20.8 °C); above, the chip has none (acpitz's 200 or 226.8). */
static inline bool sensors_valid_limit(double c)
{
	return c >= 40 && c < 127;
}

/* src into dst (size bytes with the NUL), cut where a UTF-8 character starts: a sensors.conf
 * label in Russian is two bytes a letter, and half a letter stored is an invalid run file. */
void sensors_copy_label(char *dst, size_t size, const char *src);

/* Opens libsensors, lists every temperature input and picks the headline.
 * override is "CHIP:LABEL" from --sensor or NULL. Returns 0 (check
 * available / has_pick and why), or -ENOENT / -EINVAL with a sentence in
 * err when the override names no input here. */
int sensors_open(struct temp_sensors *s, const char *override, char *err, size_t errlen);
int sensors_sample(struct temp_sensors *s);
void sensors_close(struct temp_sensors *s);

/* The choice, from a list (pure, unit-tested), by the kernel's labels: coretemp
 * "Package id N" (max), then Tdie, then Tctl, then the max of Tccd* or coretemp
 * "Core N", then cpu_thermal / soc_thermal, then a CPU thermal zone (trip points
 * as limits), then acpitz (low trust), then an acpitz zone. Inputs with invalid
 * readings are passed over. Returns 0, -ENOENT (nothing fits; err says so)
 * or -EINVAL (a malformed override). */
int sensors_pick_cpu(const struct temp_input *in, int n, const char *override, struct temp_pick *out,
		     char *err, size_t errlen);
/* An ARM SoC's CPU sensor as hwmon names a thermal zone's twin: cpu*_thermal, soc*_thermal. */
bool sensors_is_soc(const struct temp_input *t);
/* The max of the picked valid readings (NAN if none), and the lowest limit among them:
 * crit, else max (never k10temp's constant max); a zone's passive trip, else its critical. */
double sensors_pick_value(const struct temp_input *in, const struct temp_pick *p, double *limit,
			  const char **limit_name);

#endif
