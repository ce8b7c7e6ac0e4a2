/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the latency workloads share: nanosecond clocks, pinning, CPU burners, a fixed amount of work. */
#ifndef KBENCH_LATLOAD_H
#define KBENCH_LATLOAD_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <time.h>

static inline uint64_t lat_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static inline struct timespec lat_ts(uint64_t ns)
{
	return (struct timespec){ .tv_sec = (time_t)(ns / 1000000000ULL), .tv_nsec = (long)(ns % 1000000000ULL) };
}

/* The n-th CPU (from the end, modulo) this process may run on; -1 if unknown. */
int lat_pick_cpu(int n);
/* Pins the calling thread to cpu (-1: leaves it); 0 or -errno. */
int lat_pin_self(int cpu);

/* CPU burners: SCHED_OTHER threads that spin until stopped, each pinned
 * to its CPU (cpus[i], -1 unpinned). Up to LAT_MAX_BURNERS. */
#define LAT_MAX_BURNERS 256
struct lat_burners {
	int n;
	_Atomic int stop;
	pthread_t th[LAT_MAX_BURNERS];
	int cpu[LAT_MAX_BURNERS];
};
/* 0, or -errno when a thread cannot be made (those made are stopped). */
int lat_burners_start(struct lat_burners *b, const int *cpus, int n);
void lat_burners_stop(struct lat_burners *b);
/* per_cpu burners on each CPU this process may run on. */
int lat_burners_start_all(struct lat_burners *b, int per_cpu);

/* A fixed amount of CPU work (a dependent chain no compiler can fold). */
void lat_work(uint64_t loops);
/* Loops of lat_work per millisecond on this CPU, measured now (the best of a few tries). */
double lat_loops_per_ms(void);

#endif
