/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The latency workloads' shared parts: pinning, burners, calibrated work. */
#include "latload.h"

#include <errno.h>
#include <sched.h>
#include <string.h>

static volatile uint64_t lat_sink;

int lat_pick_cpu(int n)
{
	cpu_set_t set;
	if (sched_getaffinity(0, sizeof set, &set) < 0)
		return -1;
	int cpus[CPU_SETSIZE], k = 0;
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &set))
			cpus[k++] = c;
	return k ? cpus[k - 1 - (n % k)] : -1;
}

int lat_pin_self(int cpu)
{
	if (cpu < 0)
		return 0;
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof set, &set) < 0 ? -errno : 0;
}

static void *burn(void *arg)
{
	struct lat_burners *b = arg;
	uint64_t x = 1;
	while (!atomic_load_explicit(&b->stop, memory_order_relaxed))
		for (int i = 0; i < 4096; i++)
			x = x * 6364136223846793005ULL + 1442695040888963407ULL;
	lat_sink = x;
	return NULL;
}

struct burn_start {
	struct lat_burners *b;
	int cpu;
};

int lat_burners_start(struct lat_burners *b, const int *cpus, int n)
{
	memset(b, 0, sizeof *b);
	atomic_store(&b->stop, 0);
	for (int i = 0; i < n && i < LAT_MAX_BURNERS; i++) {
		pthread_attr_t at;
		pthread_attr_init(&at);
		/* a burner is SCHED_OTHER even when started by a SCHED_FIFO thread
		 * (threads inherit their creator's policy by default) */
		struct sched_param sp = { .sched_priority = 0 };
		pthread_attr_setinheritsched(&at, PTHREAD_EXPLICIT_SCHED);
		pthread_attr_setschedpolicy(&at, SCHED_OTHER);
		pthread_attr_setschedparam(&at, &sp);
		if (cpus[i] >= 0) {
			cpu_set_t set;
			CPU_ZERO(&set);
			CPU_SET(cpus[i], &set);
			pthread_attr_setaffinity_np(&at, sizeof set, &set);
		}
		int rc = pthread_create(&b->th[b->n], &at, burn, b);
		pthread_attr_destroy(&at);
		if (rc) {
			lat_burners_stop(b);
			return -rc;
		}
		b->cpu[b->n++] = cpus[i];
	}
	return 0;
}

void lat_burners_stop(struct lat_burners *b)
{
	atomic_store(&b->stop, 1);
	for (int i = 0; i < b->n; i++)
		pthread_join(b->th[i], NULL);
	b->n = 0;
}

int lat_burners_start_all(struct lat_burners *b, int per_cpu)
{
	cpu_set_t set;
	int cpus[LAT_MAX_BURNERS], k = 0;
	if (sched_getaffinity(0, sizeof set, &set) < 0)
		return -errno;
	for (int i = 0; i < per_cpu; i++)
		for (int c = 0; c < CPU_SETSIZE && k < LAT_MAX_BURNERS; c++)
			if (CPU_ISSET(c, &set))
				cpus[k++] = c;
	return lat_burners_start(b, cpus, k);
}

void lat_work(uint64_t loops)
{
	uint64_t x = loops | 1;
	for (uint64_t i = 0; i < loops; i++)
		x = x * 2862933555777941757ULL + 3037000493ULL;
	lat_sink = x;
}

double lat_loops_per_ms(void)
{
	double best = 0;
	for (int t = 0; t < 5; t++) {
		uint64_t t0 = lat_now_ns();
		lat_work(200000);
		double ms = (double)(lat_now_ns() - t0) / 1e6;
		if (ms > 0 && 200000 / ms > best)
			best = 200000 / ms;
	}
	return best > 0 ? best : 1e5;
}
