/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Facts about this machine and kernel, for the run's metadata and the report header. */
#ifndef KBENCH_SYSINFO_H
#define KBENCH_SYSINFO_H

struct run_meta;

/* Fills hostname, uname fields, cmdline, CPU model/flags/bogomips, cpu count,
 * governor, boost, mitigations, microcode, memory, locale, uptime, date, and
 * (through the sysroot) swap from /proc/swaps or else /proc/meminfo,
 * transparent huge pages and the clocksource: what cannot be read says
 * "unknown" or "n/a" (swap: swap_known false). */
void sysinfo_fill(struct run_meta *m);

/* The scratch directory a run with this --tmpdir writes to: tmpdir, else
 * $TMPDIR, else /tmp (runner_new's rule). */
const char *sysinfo_scratch_dir(const char *tmpdir);

/* Fills scratch_dir and the filesystem that holds it (from
 * /proc/self/mountinfo): type, mount options, source and the disk's I/O
 * scheduler ("none" off a block device). Not found: "unknown", no error. */
void sysinfo_fill_storage(struct run_meta *m, const char *tmpdir);

/* Online CPUs (UnixBench: getconf _NPROCESSORS_ONLN). */
int sysinfo_ncpus(void);

#endif
