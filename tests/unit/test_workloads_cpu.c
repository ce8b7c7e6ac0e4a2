/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of the CPU workloads (Dhrystone, Whetstone, arith, hanoi), run in-process for a fraction of a second. */
/* cost: 9 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "workload.h"
#include "workloads/dhry.h"
#include "workloads/workloads.h"

/* A stand-in for the runner: reads the published count, then waits (up
 * to `second`) to see it move, then sets stop. Waiting for the change
 * rather than reading at a fixed time keeps the test honest on a busy
 * machine, where the worker may not run for a while. */
struct watcher {
	struct worker_slot *slot;
	double first;      /* seconds after the start of the first read */
	double second;     /* the latest second read */
	double stop_after; /* seconds after the start to set stop (at least); 0 = never */
	uint64_t at_first, at_second;
	_Atomic int done; /* the run has returned */
};

static void sleep_until(double t0, double at)
{
	double left = at - (wl_now() - t0);

	if (left > 0) {
		struct timespec ts = { (time_t)left, (long)((left - (double)(time_t)left) * 1e9) };
		nanosleep(&ts, NULL);
	}
}

static void *watch(void *arg)
{
	struct watcher *w = arg;
	double t0 = wl_now();

	sleep_until(t0, w->first);
	/* the first look waits for the first count: at a load of 15 on two CPUs a loop
	 * can get no CPU in its first 50 ms, and a zero here said nothing of the loop */
	while (atomic_load(&w->slot->count) == 0 && !atomic_load(&w->done) && wl_now() - t0 < 60)
		sleep_until(t0, wl_now() - t0 + 0.002);
	w->at_first = atomic_load(&w->slot->count);
	do {
		sleep_until(t0, wl_now() - t0 + 0.01);
		w->at_second = atomic_load(&w->slot->count);
	} while (w->at_second == w->at_first && !atomic_load(&w->done) && wl_now() - t0 < w->second);
	if (w->stop_after > 0) {
		sleep_until(t0, w->stop_after);
		atomic_store(&w->slot->stop, 1);
	}
	return NULL;
}

/* Runs `wl` with `arg` under a watcher; returns run()'s result. */
static int run_watched(const struct workload *wl, const char *arg, double duration,
		       struct worker_slot *slot, struct watcher *w)
{
	struct workload_ctx ctx = { .slot = slot, .copies = 1, .duration = duration, .arg = arg };
	pthread_t th;
	int rc;

	w->slot = slot;
	atomic_store(&w->done, 0);
	assert_int_equal(pthread_create(&th, NULL, watch, w), 0);
	rc = wl->run(&ctx);
	atomic_store(&w->done, 1);
	atomic_store(&slot->stop, 1); /* a self-timed run may end before the watcher */
	pthread_join(th, NULL);
	return rc;
}

static void test_dhry_counts_and_grows(void **state)
{
	struct worker_slot *slot = calloc(1, sizeof *slot);
	struct watcher w = { .first = 0.05, .second = 2, .stop_after = 0.5 };

	(void)state;
	assert_int_equal(run_watched(&wl_dhry, NULL, 0.5, slot, &w), 0);
	assert_string_equal(slot->err, "");
	assert_true(w.at_first > 0);
	assert_true(w.at_second > w.at_first);
	assert_true(atomic_load(&slot->count) >= w.at_second);
	free(slot);
}

/* Twice in one process: the second run must start from Dhrystone's initial
 * state again, or its final check fails. */
static void test_dhry_runs_twice(void **state)
{
	struct worker_slot *slot = calloc(1, sizeof *slot);
	struct watcher w = { .first = 0.01, .second = 2, .stop_after = 0.05 };

	(void)state;
	assert_int_equal(run_watched(&wl_dhry, NULL, 0.05, slot, &w), 0);
	memset(slot, 0, sizeof *slot);
	assert_int_equal(run_watched(&wl_dhry, NULL, 0.05, slot, &w), 0);
	assert_string_equal(slot->err, "");
	free(slot);
}

/* The final-state check catches a wrong result, naming the variable. */
static void test_dhry_check_catches_wrong_state(void **state)
{
	struct worker_slot *slot = calloc(1, sizeof *slot);
	struct workload_ctx ctx = { .slot = slot };
	struct dhry_record rec[2];

	(void)state;
	memset(rec, 0, sizeof rec);
	rec[0].ptr_comp = &rec[1];
	rec[0].variant.var_1.enum_comp = DHRY_IDENT_3;
	rec[0].variant.var_1.int_comp = 17;
	strcpy(rec[0].variant.var_1.str_comp, "DHRYSTONE PROGRAM, SOME STRING");
	rec[1].ptr_comp = &rec[1];
	rec[1].variant.var_1.enum_comp = DHRY_IDENT_2;
	rec[1].variant.var_1.int_comp = 18;
	strcpy(rec[1].variant.var_1.str_comp, "DHRYSTONE PROGRAM, SOME STRING");
	dhry_ptr_glob = &rec[0];
	dhry_next_ptr_glob = &rec[1];
	dhry_int_glob = 5;
	dhry_bool_glob = 1;
	dhry_ch_1_glob = 'A';
	dhry_ch_2_glob = 'B';
	dhry_arr_1_glob[8] = 7;
	dhry_arr_2_glob[8][7] = 13;
	assert_int_equal(dhry_check(&ctx, 3), 0);

	/* Three loops leave Arr_2_Glob[8][7] at 13, or 14 when the timer landed
	 * after Proc_8 of the fourth; 2 loops cannot leave 13, 5 cannot. */
	assert_int_equal(dhry_check(&ctx, 2), 0);
	assert_int_equal(dhry_check(&ctx, 1), -1);
	assert_non_null(strstr(slot->err, "Arr_2_Glob[8][7]"));
	assert_int_equal(dhry_check(&ctx, 4), -1);
	assert_non_null(strstr(slot->err, "Arr_2_Glob[8][7]"));
	dhry_int_glob = 4;
	assert_int_equal(dhry_check(&ctx, 3), -1);
	assert_non_null(strstr(slot->err, "Int_Glob"));
	dhry_ptr_glob = dhry_next_ptr_glob = NULL;
	free(slot);
}

static void test_hanoi_counts_and_grows(void **state)
{
	struct worker_slot *slot = calloc(1, sizeof *slot);
	struct watcher w = { .first = 0.05, .second = 2, .stop_after = 0.5 };

	(void)state;
	assert_int_equal(run_watched(&wl_hanoi, NULL, 0.5, slot, &w), 0);
	assert_string_equal(slot->err, "");
	assert_true(w.at_first > 0);
	assert_true(w.at_second > w.at_first);
	free(slot);
}

static void test_hanoi_rejects_bad_disks(void **state)
{
	struct worker_slot *slot = calloc(1, sizeof *slot);
	struct workload_ctx ctx = { .slot = slot, .arg = "ten" };

	(void)state;
	assert_int_equal(wl_hanoi.run(&ctx), -1);
	assert_non_null(strstr(slot->err, "ten"));
	free(slot);
}

static void test_arith_every_type(void **state)
{
	static const char *const types[] = { "arithoh", "short", "int", "long",
					     "float", "double", "register" };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof types / sizeof types[0]; i++) {
		struct worker_slot *slot = calloc(1, sizeof *slot);
		/* first look at 50 ms: a 32-bit build publishes the count every 10 ms; half a
		 * second, so a busy machine still gives the loop more than one time slice */
		struct watcher w = { .first = 0.05, .second = 2, .stop_after = 0.5 };

		assert_int_equal(run_watched(&wl_arith, types[i], 0.5, slot, &w), 0);
		assert_string_equal(slot->err, "");
		assert_true(w.at_first > 0);
		assert_true(w.at_second > w.at_first);
		free(slot);
	}
}

/* The arithmetic is done: a loop with a hundred divisions is slower than
 * the empty one (the compiler did not fold the sum away). */
/* UnixBench's typed loops compile to a hundred-step empty loop per count
 * (the arithmetic folds away, the loop stays), arithoh to the bare count:
 * so a typed test counts far fewer loops than arithoh. If the typed loop
 * were dropped too, as it is when the loop can end, they would be equal. */
static void test_arith_types_keep_their_loop(void **state)
{
	struct worker_slot *a = calloc(1, sizeof *a), *b = calloc(1, sizeof *b);
	struct watcher wa = { .first = 0.01, .second = 2, .stop_after = 0.1 };
	struct watcher wb = wa;

	(void)state;
	assert_int_equal(run_watched(&wl_arith, "arithoh", 0.1, a, &wa), 0);
	assert_int_equal(run_watched(&wl_arith, "int", 0.1, b, &wb), 0);
	assert_true(atomic_load(&a->count) > 10 * atomic_load(&b->count));
	free(a);
	free(b);
}

/* A count past 2^32, as a 10 s arithoh sample makes on a fast CPU: a 32-bit
 * build's loops count in a 32-bit word (UnixBench's unsigned long) whose
 * wraps are folded into the 64-bit count. Started just below 2^32, the
 * count must end above it, not back near 0. */
static void test_count_passes_2_to_the_32(void **state)
{
	struct worker_slot *slot = calloc(1, sizeof *slot);
	struct workload_ctx ctx = { .slot = slot, .copies = 1, .duration = 0.1, .arg = "arithoh" };

	(void)state;
	wl_loop_store(slot, 0xffffffffUL - 1000);
	assert_int_equal(wl_arith.run(&ctx), 0);
	uint64_t n = atomic_load(&slot->count);
	assert_true(n > (1ULL << 32));
	assert_true(n < (1ULL << 33));
	free(slot);
}

/* The CPU loops have no stop check: the sample's timer ends them, at their
 * duration, with no stop flag ever set. */
static void test_cpu_loops_end_on_their_timer(void **state)
{
	static const struct {
		const struct workload *wl;
		const char *arg;
	} loops[] = { { &wl_dhry, NULL }, { &wl_hanoi, NULL }, { &wl_arith, "int" },
		      { &wl_arith, "arithoh" } };

	(void)state;
	for (size_t i = 0; i < sizeof loops / sizeof loops[0]; i++) {
		struct worker_slot *slot = calloc(1, sizeof *slot);
		struct workload_ctx ctx = { .slot = slot, .copies = 1, .duration = 0.1,
					    .arg = loops[i].arg };
		double t0 = wl_now();

		assert_int_equal(loops[i].wl->run(&ctx), 0);
		double took = wl_now() - t0;
		assert_string_equal(slot->err, "");
		assert_true(took >= 0.1 && took < 5);
		assert_true(atomic_load(&slot->count) > 0);
		assert_int_equal(atomic_load(&slot->stop), 0);
		free(slot);
	}
}

/* The timer lands anywhere in a Dhrystone loop, and the final check must
 * pass wherever it lands: hundreds of samples of a few loops each. */
static void test_dhry_check_holds_wherever_the_timer_lands(void **state)
{
	struct worker_slot *slot = calloc(1, sizeof *slot);

	(void)state;
	for (int i = 0; i < 300; i++) {
		struct workload_ctx ctx = { .slot = slot, .copies = 1,
					    .duration = 0.0005 + 0.00001 * (i % 97) };
		memset(slot, 0, sizeof *slot);
		assert_int_equal(wl_dhry.run(&ctx), 0);
		assert_string_equal(slot->err, "");
	}
	free(slot);
}

static void test_arith_rejects_unknown_type(void **state)
{
	struct worker_slot *slot = calloc(1, sizeof *slot);
	struct workload_ctx ctx = { .slot = slot, .arg = "quad" };

	(void)state;
	assert_int_equal(wl_arith.run(&ctx), -1);
	assert_non_null(strstr(slot->err, "\"quad\""));
	assert_int_equal(atomic_load(&slot->count), 0);

	memset(slot, 0, sizeof *slot);
	ctx.arg = NULL;
	assert_int_equal(wl_arith.run(&ctx), -1);
	assert_true(strlen(slot->err) > 0);
	free(slot);
}

/* Calibrated to a 0.3 s sample: the timed pass lasts about that long (within
 * a factor of three: a busy machine may give the calibration and the timed
 * pass different shares of a CPU), and the count moves. */
static void test_whetstone_targets_duration(void **state)
{
	struct worker_slot *slot = calloc(1, sizeof *slot);
	struct watcher w = { .first = 0.05, .second = 2 };

	(void)state;
	assert_int_equal(run_watched(&wl_whetstone, NULL, 0.3, slot, &w), 0);
	assert_string_equal(slot->err, "");
	assert_true(slot->rate > 0);
	assert_true(slot->time > 0.1 && slot->time < 0.9);
	/* calibration (>= 1 pass) and the timed pass, eight sections each */
	assert_true(atomic_load(&slot->count) >= 16);
	assert_true(w.at_second > w.at_first);
	free(slot);
}

/* Calibration is UnixBench's in proportion: passes five times longer until one takes more than
 * a twentieth of the sample (its 0.5 s of 10 s), so a short sample calibrates for less than its
 * own length; with a fixed half second, a 0.2 s sample spent at least 0.5 s calibrating (up to
 * 3 s), and the suite's short runs most of their Whetstone time. */
static void test_whetstone_calibrates_in_proportion(void **state)
{
	struct worker_slot *slot = calloc(1, sizeof *slot);
	struct workload_ctx ctx = { .slot = slot, .copies = 1, .duration = 0.2 };

	(void)state;
	double t0 = wl_now();
	assert_int_equal(wl_whetstone.run(&ctx), 0);
	double calibrating = wl_now() - t0 - slot->time;
	assert_string_equal(slot->err, "");
	assert_true(slot->time > 0);
	if (!(calibrating < slot->time))
		fail_msg("calibrated for %.3f s before a %.3f s pass", calibrating, slot->time);
	free(slot);
}

/* A skipped test: stop already set, so whetstone returns at once. */
static void test_whetstone_stops_early(void **state)
{
	struct worker_slot *slot = calloc(1, sizeof *slot);
	struct workload_ctx ctx = { .slot = slot, .duration = 10 };
	double t0;

	(void)state;
	atomic_store(&slot->stop, 1);
	t0 = wl_now();
	assert_int_equal(wl_whetstone.run(&ctx), 0);
	assert_true(wl_now() - t0 < 0.5);
	assert_true(slot->rate == 0);
	free(slot);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dhry_counts_and_grows),
		cmocka_unit_test(test_dhry_runs_twice),
		cmocka_unit_test(test_dhry_check_catches_wrong_state),
		cmocka_unit_test(test_dhry_check_holds_wherever_the_timer_lands),
		cmocka_unit_test(test_hanoi_counts_and_grows),
		cmocka_unit_test(test_hanoi_rejects_bad_disks),
		cmocka_unit_test(test_arith_every_type),
		cmocka_unit_test(test_arith_types_keep_their_loop),
		cmocka_unit_test(test_count_passes_2_to_the_32),
		cmocka_unit_test(test_cpu_loops_end_on_their_timer),
		cmocka_unit_test(test_arith_rejects_unknown_type),
		cmocka_unit_test(test_whetstone_targets_duration),
		cmocka_unit_test(test_whetstone_calibrates_in_proportion),
		cmocka_unit_test(test_whetstone_stops_early),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
