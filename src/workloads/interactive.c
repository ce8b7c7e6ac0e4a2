/* Interactive tasks under load, interbench-style: audio, video and desktop tasks, each alone and beside one CPU burner per CPU.
 *
 * A task wakes at intended times and runs a burst of fixed work:
 *  - audio: every 10 ms, 0.5 ms of work (5% of a CPU);
 *  - video: 60 Hz (16.7 ms), 6.7 ms of work (40%);
 *  - desktop: bursty: 1 to 8 ms of work after 2 to 30 ms of idle (a
 *    fixed pseudo-random sequence, the same in every run).
 * Latency is when the task ran minus when it should have. A deadline is met
 * when the burst is done before the next period begins (desktop: within
 * its work's own time and one 60 Hz frame). A task that falls behind by
 * a whole period skips to now and counts the periods it skipped as missed.
 * The work is loops calibrated once, unloaded, at the start: under load
 * the same work takes longer, as it would for a real player. Six phases
 * share the sample: each task alone, then beside the burners. */
#include "workloads.h"

#include <errno.h>
#include <string.h>

#include "latency.h"
#include "latload.h"

struct task_shape {
	uint64_t period_ns, work_us;
};

static const struct task_shape shapes[IA_TASKS] = {
	[IA_AUDIO] = { 10000000ULL, 500 },
	[IA_VIDEO] = { 16666667ULL, 6667 },
	[IA_DESKTOP] = { 0, 0 }, /* drawn per burst */
};

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void run_task(struct workload_ctx *ctx, int task, struct lat_hist *h, uint64_t ns,
		     double loops_per_us, uint64_t *done)
{
	uint64_t seed = 0x2545f4914f6cdd1dULL;
	uint64_t next = lat_now_ns() + 1000000, end = next + ns;
	while (next < end && !wl_stopped(ctx)) {
		uint64_t period = shapes[task].period_ns, work_us = shapes[task].work_us;
		uint64_t deadline;
		if (task == IA_DESKTOP) {
			work_us = 1000 + rnd(&seed) % 7001;
			period = (2000 + rnd(&seed) % 28001) * 1000ULL + work_us * 1000;
			deadline = next + work_us * 1000 + 16666667ULL;
		} else {
			deadline = next + period;
		}
		struct timespec ts = lat_ts(next);
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
			;
		uint64_t now = lat_now_ns();
		lathist_add(h, now > next ? now - next : 0);
		lat_work((uint64_t)(loops_per_us * (double)work_us));
		uint64_t fin = lat_now_ns();
		if (fin <= deadline)
			h->met++;
		else
			h->missed++;
		next += period;
		if (fin > next + period) { /* a whole period behind: skip to now */
			uint64_t skipped = (fin - next) / period;
			h->missed += skipped;
			next += skipped * period;
		}
		wl_publish(ctx, ++*done);
	}
}

static int interactive_run(struct workload_ctx *ctx)
{
	struct worker_slot *s = ctx->slot;
	double loops_per_us = lat_loops_per_ms() / 1000;
	uint64_t phase_ns = (uint64_t)((ctx->duration > 0 ? ctx->duration : 6) / (IA_TASKS * IA_LOADS) * 1e9);
	uint64_t done = 0;
	for (int p = 0; p < IA_TASKS * IA_LOADS; p++)
		lathist_init(&s->hists[p]);
	for (int task = 0; task < IA_TASKS && !wl_stopped(ctx); task++)
		for (int load = 0; load < IA_LOADS && !wl_stopped(ctx); load++) {
			int p = task * IA_LOADS + load, rc;
			struct lat_burners b;
			if (load == IA_BURN && (rc = lat_burners_start_all(&b)) < 0)
				return wl_fail(ctx, "cannot start the CPU burners: %s", strerror(-rc));
			atomic_store_explicit(&s->nhists, p + 1, memory_order_release);
			run_task(ctx, task, &s->hists[p], phase_ns, loops_per_us, &done);
			if (load == IA_BURN)
				lat_burners_stop(&b);
		}
	s->time = wl_now() - s->t_start;
	s->rate = (double)done;
	return 0;
}

const struct workload wl_interactive = {
	.name = "interactive",
	.run = interactive_run,
};
