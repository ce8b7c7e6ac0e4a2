/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Timer wake-up latency, cyclictest-style: a thread sleeps to absolute 1 ms deadlines; latency = when it ran minus when it should have.
 *
 * Four phases share the sample's length: SCHED_OTHER alone, SCHED_OTHER
 * beside a CPU burner pinned to the same CPU, and the same two under
 * SCHED_FIFO when the kernel permits it (else they are skipped and the
 * refusal is published). --fifo off runs the first two, --fifo only the
 * last two (refused, the test failed, without the permission); --period-us
 * sets the period (1000 us, cyclictest's default). The thread is pinned to one CPU so that the
 * burner shares it. Each wake-up adds one count to a preallocated
 * histogram in the shared slot: no call, allocation, lock or log.
 *
 * As cyclictest does, the thread holds /dev/cpu_dma_latency at 0 while it
 * measures (where permitted: root), so an idle CPU's exit from a deep
 * C-state (on a VM, the halt to the host) is not counted as the scheduler's
 * latency, and its timer slack is 1 ns, not the 50 us a SCHED_OTHER thread
 * gets by default (a SCHED_FIFO one has none): the phases then differ by
 * what the scheduler does, not by how deep the idle CPU slept. */
#include "workload.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdint.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "latency.h"
#include "latload.h"

static void measure(struct workload_ctx *ctx, struct lat_hist *h, uint64_t ns, uint64_t period)
{
	uint64_t next = lat_now_ns() + period, end = next + ns, n = 0;
	while (next < end && !wl_stopped(ctx)) {
		struct timespec ts = lat_ts(next);
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
			;
		uint64_t now = lat_now_ns();
		lathist_add(h, now > next ? now - next : 0);
		next += period;
		if ((++n & 63) == 0)
			wl_publish(ctx, n);
	}
}

static int timerlat_run(struct workload_ctx *ctx)
{
	struct worker_slot *s = ctx->slot;
	if (!ctx->settings)
		return wl_fail(ctx, "timerlat: no settings given");
	struct lat_params lp = *(const struct lat_params *)ctx->settings;
	int first = lp.fifo == LAT_FIFO_ONLY ? TL_FIFO : TL_OTHER;
	int last = lp.fifo == LAT_FIFO_OFF ? TL_OTHER_BURN : TL_FIFO_BURN;
	int cpu = lat_pick_cpu(ctx->copy);
	int rc = lat_pin_self(cpu);
	if (rc < 0)
		return wl_fail(ctx, "cannot pin the timer thread to CPU %d: %s", cpu, strerror(-rc));
	wl_publish_point(ctx, LAT_CPU, 0, cpu);
	prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
	int dma = open("/dev/cpu_dma_latency", O_WRONLY | O_CLOEXEC);
	int32_t zero = 0;
	if (dma >= 0 && write(dma, &zero, sizeof zero) != (ssize_t)sizeof zero) {
		close(dma);
		dma = -1;
	}
	wl_publish_point(ctx, LAT_DMA, 0, dma >= 0 ? 0 : errno);
	uint64_t phase_ns = (uint64_t)((ctx->duration > 0 ? ctx->duration : 4) / (last - first + 1) * 1e9);
	for (int p = 0; p < TL_PHASES; p++)
		lathist_init(&s->hists[p]);
	for (int p = first; p <= last && !wl_stopped(ctx); p++) {
		bool fifo = p == TL_FIFO || p == TL_FIFO_BURN, burn = p == TL_OTHER_BURN || p == TL_FIFO_BURN;
		if (fifo) {
			struct sched_param sp = { .sched_priority = 1 };
			if (sched_setscheduler(0, SCHED_FIFO, &sp) < 0) {
				int e = errno;
				if (lp.fifo == LAT_FIFO_ONLY) {
					if (dma >= 0)
						close(dma);
					return wl_fail(ctx, "--fifo only: SCHED_FIFO not permitted (%s): needs root or CAP_SYS_NICE", strerror(e));
				}
				wl_publish_point(ctx, LAT_FIFO_DENIED, 0, e);
				break;
			}
		}
		struct lat_burners b;
		if (burn && (rc = lat_burners_start(&b, &cpu, 1)) < 0)
			return wl_fail(ctx, "cannot start a CPU burner: %s", strerror(-rc));
		atomic_store_explicit(&s->nhists, p + 1, memory_order_release);
		measure(ctx, &s->hists[p], phase_ns, (uint64_t)lp.period_us * 1000);
		if (burn)
			lat_burners_stop(&b);
	}
	struct sched_param sp = { .sched_priority = 0 };
	sched_setscheduler(0, SCHED_OTHER, &sp);
	if (dma >= 0)
		close(dma); /* the kernel drops the request with the last descriptor */
	s->time = wl_now() - s->t_start;
	uint64_t n = 0;
	for (int p = 0; p < TL_PHASES; p++)
		n += s->hists[p].n;
	s->rate = (double)n;
	return 0;
}

const struct workload wl_timerlat = {
	.name = "timerlat",
	.run = timerlat_run,
};
