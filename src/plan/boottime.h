/* SPDX-License-Identifier: GPL-2.0-or-later */
/* This boot's time, as systemd measures it (systemd-analyze) or, without systemd, as the kernel's clock says init started. */
#ifndef KBENCH_BOOTTIME_H
#define KBENCH_BOOTTIME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct test_result;
struct run_block;

/* The phases of a boot, in order: systemd-analyze time's parts. */
enum boot_phase { BOOT_FIRMWARE, BOOT_LOADER, BOOT_KERNEL, BOOT_INITRD, BOOT_USERSPACE, BOOT_TOTAL, BOOT_NPHASES };

#define BOOTTIME_SLOWEST 5

struct boot_time {
	double s[BOOT_NPHASES];        /* seconds; NAN when not measured */
	char why[BOOT_NPHASES][160];   /* a phase not measured: why ("" when measured) */
	char method[96];               /* "systemd-analyze time", "the kernel's clock when init started (/proc/1/stat)" */
	char target[64];               /* "graphical.target"; "" when not said */
	double target_s;               /* when it was reached, in userspace; NAN unknown */
	int nslow;                     /* systemd-analyze blame's slowest units */
	struct {
		char unit[96];
		double s;
	} slow[BOOTTIME_SLOWEST];
	char chain[512];               /* the critical chain's units that took time, "unit +1.2s, ..." */
	bool ok;                       /* some phase was measured */
};

/* A time span as systemd prints one: "3min 34.953s", "798ms", "1h 2min 3s".
 * 0 with the seconds, or -1 (not a span). *end: the first character after it. */
int boottime_span(const char *s, double *out, const char **end);

/* Reads `systemd-analyze time`'s output (or the journal's "Startup finished
 * in ..." line) into bt; phases it does not report get their reason. 0, or
 * -1 with bt->why[BOOT_TOTAL] saying what the text said instead (systemd
 * not running, the boot not finished, no such line). */
int boottime_parse_time(const char *text, struct boot_time *bt);
/* `systemd-analyze blame`: the BOOTTIME_SLOWEST slowest units. How many. */
int boottime_parse_blame(const char *text, struct boot_time *bt);
/* `systemd-analyze critical-chain`: the units on it that took time, in order. How many. */
int boottime_parse_chain(const char *text, struct boot_time *bt);

/* This boot's time: systemd-analyze (from PATH) when systemd is init, else
 * the kernel's clock when init started (/proc/1/stat under the sysfs root),
 * else n/a with why (a container: its init started with the container, not
 * with the kernel). Never fails: bt->ok says whether anything was measured. */
void boottime_measure(struct boot_time *bt);

/* The boot's time as a result of a run (test id BOOTTIME_TEST): a points
 * result whose points are the phases measured, in seconds, lower better;
 * the method, the slowest units and the chain as its facts; n/a phases as
 * "n/a: why" facts. Skipped, with the reason, when nothing was measured.
 * Added to block b (the run's first block: a boot is one per run). */
#define BOOTTIME_TEST "boot"
struct test_result *boottime_add_result(struct run_block *b, const struct boot_time *bt);

const char *boottime_phase_name(enum boot_phase p); /* "firmware", ..., "total" */

/* This boot's time as a run of its own (`kbench boot`): the machine's facts,
 * one block of 1 copy holding the boot result, named name (NULL: the kernel
 * release). Its lines (each phase or why not, the slowest units, the chain)
 * go to out. 0 with the stored run's id, or -1 with err filled (nothing was
 * measured: nothing stored; or the save failed). */
int boottime_store(const char *name, FILE *out, char *id, size_t idlen, char *err, size_t errlen);

#endif
