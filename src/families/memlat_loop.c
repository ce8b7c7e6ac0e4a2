/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Memory latency: a dependent-load pointer chase over working sets of growing size, two chains, and a clock estimate.
 *
 * Each load's address is the value the previous load returned, so loads
 * cannot overlap and the time per load is the latency of wherever the line
 * sits. Two chains over the same buffer:
 *  - forward: line i points to line i + 1 (stride 64 B), what the
 *    prefetchers follow;
 *  - random, page-permuted: the pages in a random order and the lines of
 *    each page in a random order, the even lines of every page on one pass
 *    and the odd lines on a second pass in another page order. No stride
 *    repeats, the line a pair prefetcher fetches beside a load is not
 *    wanted until the whole buffer has been walked again, and a page's TLB
 *    entry serves 32 loads, so the curve shows the caches, not the TLB.
 * A chain is built and walked once before it is timed; a point is the
 * fastest of many short timed walks (an interrupted walk is only ever slower).
 * Nothing is allocated, logged or published inside a timed walk. */
#include "workload.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "memlat.h"

#define PAGE 4096
#define LINES_PER_PAGE (PAGE / MEMLAT_LINE)
#define HUGE_ALIGN (2UL << 20)
#define WINDOWS 3       /* timed walks per point, at least */
#define MAX_WINDOWS 200
#define WINDOW_MIN 0.001 /* s: short enough that most are not preempted */

static volatile uintptr_t memlat_sink;

/* xorshift64*: the chains differ per copy and per size, and repeat per run. */
static uint64_t rnd_next(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ULL;
}

static void shuffle(uint32_t *v, size_t n, uint64_t *seed)
{
	for (size_t i = n; i > 1; i--) {
		size_t j = (size_t)(rnd_next(seed) % i);
		uint32_t t = v[i - 1];
		v[i - 1] = v[j];
		v[j] = t;
	}
}

static void link_order(char *buf, const uint32_t *order, size_t lines)
{
	for (size_t i = 0; i < lines; i++)
		*(void **)(buf + (size_t)order[i] * MEMLAT_LINE) =
			buf + (size_t)order[(i + 1) % lines] * MEMLAT_LINE;
}

static void build_fwd(char *buf, size_t lines)
{
	for (size_t i = 0; i < lines; i++)
		*(void **)(buf + i * MEMLAT_LINE) = buf + ((i + 1) % lines) * MEMLAT_LINE;
}

/* order: room for `lines` entries; pages: room for lines / 64 + 1. */
static void build_rnd(char *buf, size_t lines, uint32_t *order, uint32_t *pages, uint64_t *seed)
{
	size_t npages = (lines + LINES_PER_PAGE - 1) / LINES_PER_PAGE, k = 0;
	for (int parity = 0; parity < 2; parity++) {
		for (size_t p = 0; p < npages; p++)
			pages[p] = (uint32_t)p;
		shuffle(pages, npages, seed);
		for (size_t p = 0; p < npages; p++) {
			size_t first = (size_t)pages[p] * LINES_PER_PAGE, start = k;
			for (size_t l = first + (size_t)parity; l < first + LINES_PER_PAGE && l < lines; l += 2)
				order[k++] = (uint32_t)l;
			shuffle(order + start, k - start, seed);
		}
	}
	link_order(buf, order, lines);
}

/* Walks `loads` links (a multiple of 16) from p; returns where it stopped. */
static void *chase(void *p, uint64_t loads)
{
	void **q = p;
	for (uint64_t i = 0; i < loads; i += 16) {
#define L q = (void **)*q;
		L L L L L L L L L L L L L L L L
#undef L
	}
	return q;
}

/* ns per load at this size: one untimed walk of the whole chain, then the
 * fastest of many short timed walks (each the chain once, at least 1 ms),
 * as many as fit in `budget` s, at least three: a walk that another
 * process preempted is only ever slower, and a short one is often not. */
static double time_chain(char *buf, size_t lines, double budget)
{
	uint64_t once = ((uint64_t)lines + 15) & ~15ULL;
	double t0 = wl_now();
	void *p = chase(buf, once);
	double warm = wl_now() - t0;
	double per = warm > 0 ? warm / (double)once : 1e-9;
	uint64_t loads = once;
	if (per * (double)loads < WINDOW_MIN)
		loads = ((uint64_t)(WINDOW_MIN / per) + 15) & ~15ULL;
	int reps = (int)(budget / (per * (double)loads));
	reps = reps < WINDOWS ? WINDOWS : reps > MAX_WINDOWS ? MAX_WINDOWS : reps;
	double best = INFINITY;
	for (int w = 0; w < reps; w++) {
		t0 = wl_now();
		p = chase(p, loads);
		double el = wl_now() - t0;
		if (el < best)
			best = el;
	}
	memlat_sink = (uintptr_t)p;
	return best / (double)loads * 1e9;
}

/* The clock: a chain of dependent adds of a register, one cycle each on every core. Of a
 * register, not of a constant: the compiler made `x += 1` an `inc`, and Golden Cove and later
 * Intel cores (Alder Lake on) fold add-immediate chains at rename, several a cycle (a Xeon
 * read 20,579 MHz that way, 3,486 with a register operand). The empty asm on `one` keeps the
 * compiler from knowing it is 1; the one on x keeps it from folding the adds. MHz from the
 * fastest of 40 windows of about 1 ms (a preempted one is only slower). */
static double clock_mhz(void)
{
	uint64_t x = (uint64_t)memlat_sink | 1, one = 1;
	__asm__ volatile("" : "+r"(one));
	double best = INFINITY;
	uint64_t iters = 1000;
	for (int w = 0; w < 41; w++) {
		double t0 = wl_now();
		for (uint64_t i = 0; i < iters; i++) {
#define A x += one; __asm__ volatile("" : "+r"(x));
			A A A A A A A A A A A A A A A A A A A A A A A A A A A A A A A A
			A A A A A A A A A A A A A A A A A A A A A A A A A A A A A A A A
#undef A
		}
		double el = wl_now() - t0;
		if (w == 0) { /* calibrate the window's length, untimed */
			iters = (uint64_t)(WINDOW_MIN / (el > 0 ? el : 1e-6) * (double)iters) + 1;
			continue;
		}
		double per = el / ((double)iters * 64);
		if (per < best)
			best = per;
	}
	memlat_sink = (uintptr_t)x;
	return 1e-6 / best;
}

/* What the kernel gave: the buffer's bytes in transparent huge pages, from
 * its mapping's AnonHugePages in /proc/self/smaps; -1 when unknown. */
static double huge_bytes(const char *buf)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	if (!f)
		return -1;
	char line[256];
	bool in = false;
	double kib = -1;
	while (fgets(line, sizeof line, f)) {
		unsigned long lo, hi;
		if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 && strchr(line, '-') < strchr(line, ' '))
			in = (uintptr_t)buf >= lo && (uintptr_t)buf < hi;
		else if (in && sscanf(line, "AnonHugePages: %lf kB", &kib) == 1)
			break;
	}
	fclose(f);
	return kib < 0 ? -1 : kib * 1024;
}

static int memlat_run(struct workload_ctx *ctx)
{
	struct memlat_caches caches;
	if (!ctx->settings)
		return wl_fail(ctx, "memlat: no settings given");
	struct memlat_sizes sz =
		*(const struct memlat_sizes *)ctx->settings; /* the runner's, from its caches */
	memlat_read_caches(&caches);
	uint64_t sizes[MEMLAT_MAX_SIZES];
	int nsizes = memlat_size_list(&sz, sizes, MEMLAT_MAX_SIZES);
	if (nsizes < 1)
		return wl_fail(ctx, "no sizes to measure");
	size_t maxlen = (size_t)sizes[nsizes - 1];
	size_t maxlines = maxlen / MEMLAT_LINE;
	size_t maplen = maxlen + HUGE_ALIGN;
	char *map = mmap(NULL, maplen, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED)
		return wl_fail(ctx, "cannot map %zu MiB for the chains: %s", maxlen >> 20, strerror(errno));
	char *buf = (char *)(((uintptr_t)map + HUGE_ALIGN - 1) & ~(uintptr_t)(HUGE_ALIGN - 1));
	/* Huge pages change what is measured (no TLB misses at all): only when asked. */
	madvise(map, maplen, sz.huge ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
	uint32_t *order = malloc(maxlines * sizeof *order);
	uint32_t *pages = malloc((maxlines / LINES_PER_PAGE + 2) * sizeof *pages);
	if (!order || !pages) {
		free(order);
		free(pages);
		munmap(map, maplen);
		return wl_fail(ctx, "out of memory for a chain of %zu lines", maxlines);
	}
	memset(buf, 1, maxlen); /* every page faulted in before anything is timed */
	wl_publish_point(ctx, MEMLAT_HUGE, (double)maxlen, huge_bytes(buf));

	/* The sample's length is the sweep's budget, spread over its points. */
	double budget = ctx->duration > 0 ? ctx->duration / (2.0 * nsizes) : 0.01;
	wl_publish_point(ctx, MEMLAT_CLOCK, 0, clock_mhz());
	wl_publish_point(ctx, MEMLAT_CEILING, 0, memlat_clock_ceiling());
	uint64_t seed = 0x9e3779b97f4a7c15ULL ^ ((uint64_t)ctx->copy << 32);
	uint64_t loads = 0;
	for (int i = 0; i < nsizes && !wl_stopped(ctx); i++) {
		size_t lines = (size_t)(sizes[i] / MEMLAT_LINE);
		build_fwd(buf, lines);
		double ns = time_chain(buf, lines, budget);
		wl_publish_point(ctx, MEMLAT_FWD, (double)sizes[i], ns);
		build_rnd(buf, lines, order, pages, &seed);
		double nr = time_chain(buf, lines, budget);
		wl_publish_point(ctx, MEMLAT_RND, (double)sizes[i], nr);
		loads += 2 * (uint64_t)lines;
		wl_publish(ctx, loads);
	}
	free(order);
	free(pages);
	munmap(map, maplen);
	/* The rate fields a self-timed test fills: loads walked per second. */
	ctx->slot->time = wl_now() - ctx->slot->t_start;
	ctx->slot->rate = (double)loads;
	return 0;
}

const struct workload wl_memlat = {
	.name = "memlat",
	.run = memlat_run,
};
