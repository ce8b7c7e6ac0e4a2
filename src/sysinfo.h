/* Facts about this machine and kernel, for the run's metadata and the report header. */
#ifndef KBENCH_SYSINFO_H
#define KBENCH_SYSINFO_H

struct run_meta;

/* Fills hostname, uname fields, cmdline, CPU model/flags/bogomips, cpu count,
 * governor, boost, mitigations, microcode, memory, locale, uptime, date. */
void sysinfo_fill(struct run_meta *m);

/* Online CPUs (UnixBench: getconf _NPROCESSORS_ONLN). */
int sysinfo_ncpus(void);

/* The locale the shell tests run in: en_US.utf8 when it exists (as UnixBench
 * forces), else C.UTF-8, else C. */
const char *sysinfo_shell_locale(void);

#endif
