/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Rate tests: UnixBench's index tests and its other rates as rows of the test table, and UnixBench's tables of them in the text report. */
#include "family.h"

#include <math.h>
#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run.h"
#include "score.h"
#include "settings.h"
#include "tests.h"
#include "workloads/workloads.h"

/* Baselines are UnixBench's pgms/index.base ("George", a SPARCstation 20-61).
 *
 * Noise floors (.noise) are per-run relative sds, for full-length runs and
 * for quick runs. Two runs differ by sqrt(2)*sd, and a 95% interval of
 * their difference is about 2.77*sd wide each way, so the full-length ones
 * cover the A/A differences UnixBench itself showed on such a VM
 * (UNIXBENCH.md §9: spawn +22%, fsdisk +18%, pipe +9%, dhry -7%) with room
 * to spare.
 *
 * The quick ones are measured: back-to-back A/A pairs of quick runs on a
 * noisy 2-CPU VM (make bench-verdicts, 2026-12-01: the first five pairs
 * set them, about 1.3 times each test's spread between the two runs of a
 * pair, and no lower than the largest move issue 17 saw there: execl
 * -13%, context1 +31%, shell1 -15%). A quick run's many short samples pin
 * its own score down to +-1%, not where the machine is that minute: a
 * quick Dhrystone run read 17% below the one before it with four samples
 * within 0.3% of each other. Tests the A/A data says nothing about have
 * TEST_NOISE_UNMEASURED. */
static const struct test_def rows[] = {
	{ .id = "dhry2reg", .label = "Dhrystone 2 using register variables",
	  .short_label = "Dhrystone 2", .about = "Dhrystone 2.1 loops (integer, strings, calls)",
	  .unit = "lps", .timebase = 1, .baseline = 116700.0, .category = "system",
	  .workload = &wl_dhry,
	  .seconds = 10, .samples = 10, .quick_seconds = 1, .noise = { 0.035, 0.075 } },
	{ .id = "whetstone-double", .label = "Double-Precision Whetstone",
	  .short_label = "Whetstone",
	  .about = "Whetstone, double precision, calibrated to the sample length",
	  .unit = "MWIPS", .baseline = 55.0, .category = "system",
	  /* it calibrates before the timed pass */
	  .workload = &wl_whetstone, .self_timed = true, .overrun = 1.15,
	  .seconds = 10, .samples = 10, .quick_seconds = 1, .noise = { 0.030, 0.035 } },
	{ .id = "execl", .label = "Execl Throughput",
	  .short_label = "Execl", .about = "a process re-executing itself",
	  .unit = "lps", .timebase = 1, .baseline = 43.0, .category = "system",
	  .workload = &wl_execl, .uncounted = true,
	  /* exec rates drift with the page cache and the pid space: longer samples */
	  .seconds = 30, .samples = 3, .quick_seconds = 2, .noise = { 0.035, 0.065 } },
	{ .id = "fstime", .label = "File Copy 1024 bufsize 2000 maxblocks",
	  .short_label = "File Copy 1024",
	  .about = "copy a 2000 KiB file in 1024-byte reads and writes",
	  .unit = "KBps", .baseline = 3960.0, .category = "system",
	  /* the file tests write (and read) their file before the timed part */
	  .workload = &wl_fscopy, .arg = "1024 2000", .self_timed = true, .overrun = 1.5,
	  /* the copy must run many file passes for the page cache to settle */
	  .seconds = 30, .samples = 3, .quick_seconds = 2, .noise = { 0.040, 0.120 } },
	{ .id = "fsbuffer", .label = "File Copy 256 bufsize 500 maxblocks",
	  .short_label = "File Copy 256",
	  .about = "copy a 500 KiB file in 256-byte reads and writes",
	  .unit = "KBps", .baseline = 1655.0, .category = "system",
	  .workload = &wl_fscopy, .arg = "256 500", .self_timed = true, .overrun = 1.5,
	  .seconds = 30, .samples = 3, .quick_seconds = 2, .noise = { 0.045, 0.100 } },
	{ .id = "fsdisk", .label = "File Copy 4096 bufsize 8000 maxblocks",
	  .short_label = "File Copy 4096",
	  .about = "copy an 8000 KiB file in 4096-byte reads and writes",
	  .unit = "KBps", .baseline = 5800.0, .category = "system",
	  .workload = &wl_fscopy, .arg = "4096 8000", .self_timed = true, .overrun = 1.5,
	  .seconds = 30, .samples = 3, .quick_seconds = 2, .noise = { 0.070, 0.100 } },
	{ .id = "pipe", .label = "Pipe Throughput",
	  .short_label = "Pipe", .about = "write and read back 512 bytes on one pipe",
	  .unit = "lps", .timebase = 1, .baseline = 12440.0, .category = "system",
	  .workload = &wl_pipe,
	  .seconds = 10, .samples = 10, .quick_seconds = 1, .noise = { 0.045, 0.050 } },
	{ .id = "context1", .label = "Pipe-based Context Switching",
	  .short_label = "Context Switch",
	  .about = "two processes passing a counter over two pipes",
	  .unit = "lps", .timebase = 1, .baseline = 4000.0, .category = "system",
	  .workload = &wl_context, .uncounted = true,
	  .seconds = 10, .samples = 10, .quick_seconds = 1, .noise = { 0.045, 0.120 } },
	{ .id = "spawn", .label = "Process Creation",
	  .short_label = "Process Creation", .about = "fork a child that exits at once, and wait",
	  .unit = "lps", .timebase = 1, .baseline = 126.0, .category = "system",
	  .workload = &wl_spawn, .uncounted = true,
	  .seconds = 30, .samples = 3, .quick_seconds = 2, .noise = { 0.080, 0.110 } },
	{ .id = "syscall", .label = "System Call Overhead",
	  .short_label = "System Call", .about = "close(dup()), getpid, getuid, umask",
	  .unit = "lps", .timebase = 1, .baseline = 15000.0, .category = "system",
	  .workload = &wl_syscall, .arg = "mix",
	  .seconds = 10, .samples = 10, .quick_seconds = 1, .noise = { 0.040, 0.055 } },
	{ .id = "shell1", .label = "Shell Scripts (1 concurrent)",
	  .short_label = "Shell (1)", .about = "one shell script of sort, od, grep, tee, wc",
	  .unit = "lpm", .timebase = 60, .baseline = 42.4, .category = "system",
	  .workload = &wl_shell, .arg = "1", .needs_data = true, .uncounted = true,
	  /* lpm counts whole loops: the unfinished last loop costs (loop/2)/length;
	   * 5 s keeps it < 0.5% */
	  .seconds = 60, .samples = 3, .quick_seconds = 5, .noise = { 0.030, 0.060 } },
	{ .id = "shell8", .label = "Shell Scripts (8 concurrent)",
	  .short_label = "Shell (8)", .about = "eight such scripts at once",
	  .unit = "lpm", .timebase = 60, .baseline = 6.0, .category = "system",
	  .workload = &wl_shell, .arg = "8", .needs_data = true, .uncounted = true,
	  .seconds = 60, .samples = 3, .quick_seconds = 5, .noise = { 0.040, 0.055 } },
	{ .id = "shell16", .label = "Shell Scripts (16 concurrent)",
	  .short_label = "Shell (16)", .about = "sixteen such scripts at once",
	  .unit = "lpm", .timebase = 60, .category = "misc",
	  .workload = &wl_shell, .arg = "16", .needs_data = true, .uncounted = true,
	  .seconds = 60, .samples = 3, .quick_seconds = 5, .noise = TEST_NOISE_UNMEASURED },
	/* In older UnixBench reports. A loop of 64 scripts takes about a second
	 * on a 2-CPU VM, and the unfinished last one weighs (loop/2)/length:
	 * 10 s samples, not 5 (still ~4% below a 60 s sample's 0.8%). */
	{ .id = "shell64", .label = "Shell Scripts (64 concurrent)",
	  .short_label = "Shell (64)", .about = "sixty-four such scripts at once",
	  .unit = "lpm", .timebase = 60, .category = "misc",
	  .workload = &wl_shell, .arg = "64", .needs_data = true, .uncounted = true,
	  /* its siblings' floor: the same scripts */
	  .seconds = 60, .samples = 3, .quick_seconds = 10, .noise = { 0.040, 0.055 } },
	/* UnixBench's fstime -w and -r: in its system category, with no baseline.
	 * Not in the A/A data: their noise floors are their copies' (the same
	 * files, buffers and page cache). */
	{ .id = "fstime-w", .label = "File Write 1024 bufsize 2000 maxblocks",
	  .short_label = "File Write 1024",
	  .about = "write a 2000 KiB file over and over in 1024-byte writes",
	  .unit = "KBps", .category = "system",
	  .workload = &wl_fscopy, .arg = "1024 2000 write", .self_timed = true, .overrun = 1.5,
	  .seconds = 30, .samples = 3, .quick_seconds = 2, .noise = { 0.040, 0.120 } },
	{ .id = "fstime-r", .label = "File Read 1024 bufsize 2000 maxblocks",
	  .short_label = "File Read 1024",
	  .about = "read a 2000 KiB file over and over in 1024-byte reads",
	  .unit = "KBps", .category = "system",
	  .workload = &wl_fscopy, .arg = "1024 2000 read", .self_timed = true, .overrun = 1.5,
	  .seconds = 30, .samples = 3, .quick_seconds = 2, .noise = { 0.040, 0.120 } },
	{ .id = "fsbuffer-w", .label = "File Write 256 bufsize 500 maxblocks",
	  .short_label = "File Write 256",
	  .about = "write a 500 KiB file over and over in 256-byte writes",
	  .unit = "KBps", .category = "system",
	  .workload = &wl_fscopy, .arg = "256 500 write", .self_timed = true, .overrun = 1.5,
	  .seconds = 30, .samples = 3, .quick_seconds = 2, .noise = { 0.045, 0.100 } },
	{ .id = "fsbuffer-r", .label = "File Read 256 bufsize 500 maxblocks",
	  .short_label = "File Read 256",
	  .about = "read a 500 KiB file over and over in 256-byte reads",
	  .unit = "KBps", .category = "system",
	  .workload = &wl_fscopy, .arg = "256 500 read", .self_timed = true, .overrun = 1.5,
	  .seconds = 30, .samples = 3, .quick_seconds = 2, .noise = { 0.045, 0.100 } },
	{ .id = "fsdisk-w", .label = "File Write 4096 bufsize 8000 maxblocks",
	  .short_label = "File Write 4096",
	  .about = "write an 8000 KiB file over and over in 4096-byte writes",
	  .unit = "KBps", .category = "system",
	  .workload = &wl_fscopy, .arg = "4096 8000 write", .self_timed = true, .overrun = 1.5,
	  .seconds = 30, .samples = 3, .quick_seconds = 2, .noise = { 0.070, 0.100 } },
	{ .id = "fsdisk-r", .label = "File Read 4096 bufsize 8000 maxblocks",
	  .short_label = "File Read 4096",
	  .about = "read an 8000 KiB file over and over in 4096-byte reads",
	  .unit = "KBps", .category = "system",
	  .workload = &wl_fscopy, .arg = "4096 8000 read", .self_timed = true, .overrun = 1.5,
	  .seconds = 30, .samples = 3, .quick_seconds = 2, .noise = { 0.070, 0.100 } },
	{ .id = "arithoh", .label = "Arithoh",
	  .about = "the arithmetic loop with no arithmetic",
	  .unit = "lps", .timebase = 1, .category = "misc",
	  .workload = &wl_arith, .arg = "arithoh",
	  .seconds = 10, .samples = 3, .quick_seconds = 1, .noise = TEST_NOISE_UNMEASURED },
	{ .id = "short", .label = "Arithmetic Test (short)",
	  .short_label = "Arith short",
	  .about = "sum of i*i/(i*i-1) in short",
	  .unit = "lps", .timebase = 1, .category = "misc",
	  .workload = &wl_arith, .arg = "short",
	  .seconds = 10, .samples = 3, .quick_seconds = 1, .noise = TEST_NOISE_UNMEASURED },
	{ .id = "int", .label = "Arithmetic Test (int)",
	  .short_label = "Arith int",
	  .about = "sum of i*i/(i*i-1) in int",
	  .unit = "lps", .timebase = 1, .category = "misc",
	  .workload = &wl_arith, .arg = "int",
	  .seconds = 10, .samples = 3, .quick_seconds = 1, .noise = TEST_NOISE_UNMEASURED },
	{ .id = "long", .label = "Arithmetic Test (long)",
	  .short_label = "Arith long",
	  .about = "sum of i*i/(i*i-1) in long",
	  .unit = "lps", .timebase = 1, .category = "misc",
	  .workload = &wl_arith, .arg = "long",
	  .seconds = 10, .samples = 3, .quick_seconds = 1, .noise = TEST_NOISE_UNMEASURED },
	{ .id = "float", .label = "Arithmetic Test (float)",
	  .short_label = "Arith float",
	  .about = "sum of i*i/(i*i-1) in float",
	  .unit = "lps", .timebase = 1, .category = "misc",
	  .workload = &wl_arith, .arg = "float",
	  .seconds = 10, .samples = 3, .quick_seconds = 1, .noise = TEST_NOISE_UNMEASURED },
	{ .id = "double", .label = "Arithmetic Test (double)",
	  .short_label = "Arith double",
	  .about = "sum of i*i/(i*i-1) in double",
	  .unit = "lps", .timebase = 1, .category = "misc",
	  .workload = &wl_arith, .arg = "double",
	  .seconds = 10, .samples = 3, .quick_seconds = 1, .noise = TEST_NOISE_UNMEASURED },
	{ .id = "register", .label = "Arithmetic Test (register)",
	  .short_label = "Arith register",
	  .about = "sum of i*i/(i*i-1) in register int",
	  .unit = "lps", .timebase = 1, .category = "misc",
	  .workload = &wl_arith, .arg = "register",
	  .seconds = 10, .samples = 3, .quick_seconds = 1, .noise = TEST_NOISE_UNMEASURED },
	{ .id = "hanoi", .label = "Recursion Test -- Tower of Hanoi",
	  .short_label = "Tower of Hanoi",
	  .about = "solve 10-disk Towers of Hanoi recursively",
	  .unit = "lps", .timebase = 1, .category = "misc",
	  .workload = &wl_hanoi,
	  .seconds = 20, .samples = 3, .quick_seconds = 1, .noise = TEST_NOISE_UNMEASURED },
	{ .id = "C", .label = "C Compiler Throughput (gcc)",
	  .short_label = "C Compiler",
	  .about = "gcc compiles and links a small C program (kbench's own, not UnixBench's)",
	  .unit = "lpm", .timebase = 60, .category = "misc",
	  .workload = &wl_cc, .needs_data = true, .uncounted = true,
	  /* a loop is a compile and link, tens of ms: 5 s keeps the unfinished one < 1% */
	  .seconds = 60, .samples = 3, .quick_seconds = 5, .noise = TEST_NOISE_UNMEASURED },
	{ .id = "grep", .label = "Grep a large file (system's grep)",
	  .short_label = "Grep",
	  .about = "grep -c over a 700 KB text file",
	  .unit = "lpm", .timebase = 60, .baseline = 1.0, .category = "misc",
	  .workload = &wl_grep, .needs_data = true, .uncounted = true,
	  .seconds = 30, .samples = 3, .quick_seconds = 3, .noise = TEST_NOISE_UNMEASURED },
};

/* Listed after every family's tests: UnixBench's order (tests/unit/test_tests.c). */
static const struct test_def rows_last[] = {
	{ .id = "sysexec", .label = "Exec System Call Overhead",
	  .short_label = "Exec Syscall",
	  .about = "fork, exec /bin/true, wait",
	  .unit = "lps", .timebase = 1, .baseline = 25.0, .category = "misc",
	  .workload = &wl_syscall, .arg = "exec", .uncounted = true,
	  .seconds = 10, .samples = 10, .quick_seconds = 1, .noise = TEST_NOISE_UNMEASURED },
};

/* Groups are lists of ids, not flags in the rows: each runs its tests in
 * UnixBench's order (its Run script's), which is not the table's. The index
 * group must be the rows with a system baseline (score.c counts those;
 * tests/unit/test_tests.c checks that they agree). */
static const char *const g_index[] = { "dhry2reg", "whetstone-double", "execl", "fstime",
	"fsbuffer", "fsdisk", "pipe", "context1", "spawn", "syscall", "shell1", "shell8", NULL };
static const char *const g_oldsystem[] = { "execl", "fstime", "fsbuffer", "fsdisk", "pipe",
	"context1", "spawn", "syscall", NULL };
static const char *const g_system[] = { "execl", "fstime", "fsbuffer", "fsdisk", "pipe",
	"context1", "spawn", "syscall", "shell1", "shell8", "shell16", NULL };
static const char *const g_arithmetic[] = { "arithoh", "short", "int", "long", "float",
	"double", "whetstone-double", NULL };
static const char *const g_fs[] = { "fstime-w", "fstime-r", "fstime", "fsbuffer-w", "fsbuffer-r",
	"fsbuffer", "fsdisk-w", "fsdisk-r", "fsdisk", NULL };
static const char *const g_shell[] = { "shell1", "shell8", "shell16", "shell64", NULL };
static const char *const g_misc[] = { "C", "hanoi", "grep", "sysexec", NULL };
static const char *const g_dhry[] = { "dhry2reg", NULL };
static const char *const g_whets[] = { "whetstone-double", NULL };
static const char *const g_cpu[] = { "dhry2reg", "whetstone-double", NULL };
static const char *const g_io[] = { "fstime", "fsbuffer", "fsdisk", "pipe", NULL };

static const struct test_group groups[] = {
	{ "index", "the 12 tests of the System Benchmarks Index", g_index },
	{ "system", "execl, file copy, pipe, context switch, spawn, syscall, shell", g_system },
	{ "oldsystem", "the system group without the shell tests", g_oldsystem },
	{ "arithmetic", "the arithmetic loops and whetstone", g_arithmetic },
	{ "fs", "the file write, read and copy tests", g_fs },
	{ "shell", "shell scripts with 1, 8, 16 and 64 concurrent", g_shell },
	{ "misc", "C compiler, hanoi, grep and exec overhead", g_misc },
	{ "dhry", "Dhrystone", g_dhry },
	{ "whets", "Whetstone", g_whets },
	{ "cpu", "the two CPU-only index tests", g_cpu },
	{ "io", "the file copy and pipe tests", g_io },
};

/* ---- the settings (src/base/settings.h) ---- */

static int parse_pair_cpus(const char *text, void *field, char *err, size_t errlen)
{
	static const char *const w[] = { "any", "one", "two" };
	for (int i = 0; i < 3; i++)
		if (!strcmp(text, w[i])) {
			*(enum wl_pair_cpus *)field = (enum wl_pair_cpus)i;
			return 0;
		}
	snprintf(err, errlen, "'%.40s' is not any, one or two", text);
	return -1;
}

/* Two CPUs for one pair: the machine (or the CPUs kbench may use) must have them. */
static int check_pair_cpus(const char *text, char *err, size_t errlen)
{
	cpu_set_t allowed;
	if (strcmp(text, "two") || sched_getaffinity(0, sizeof allowed, &allowed) != 0 ||
	    CPU_COUNT(&allowed) >= 2)
		return 0;
	snprintf(err, errlen, "--pair-cpus two needs two CPUs; kbench may use %d here", CPU_COUNT(&allowed));
	return -1;
}

static const struct setting rate_rows[] = {
	{ .name = "pair-cpus", .kind = SET_TEXT, .arg = "any|one|two", .what = "any, one or two",
	  .def = "any", .offset = offsetof(struct rate_settings, pair_cpus), .parse = parse_pair_cpus,
	  .check = check_pair_cpus, .choices = "any one two",
	  .help = "context1: each copy's two processes where the scheduler puts them (any, as\n"
		  "UnixBench), pinned to one CPU (one) or to two (two)" },
};

static const struct settings rate_settings = {
	.rows = rate_rows, .n = sizeof rate_rows / sizeof rate_rows[0], .size = sizeof(struct rate_settings),
};

/* ---- print: UnixBench's tables (UNIXBENCH.md §8), byte for byte in layout ---- */

static int by_label(const void *a, const void *b)
{
	const struct test_result *x = *(const struct test_result *const *)a;
	const struct test_result *y = *(const struct test_result *const *)b;
	return strcmp(x->label, y->label);
}

extern const struct family family_rate;

static bool reportable(const struct test_result *t)
{
	return (t->status == TEST_DONE || t->status == TEST_IMPORTED) && t->score > 0 &&
	       test_result_family(t) == &family_rate;
}

/* One category's index table. For "system" the index and fullness come from
 * the block (score_block); other categories are computed here, always partial. */
static void index_table(FILE *f, const struct test_result **sorted, int n, const char *category,
			const struct run_block *b)
{
	bool system = !strcmp(category, "system");
	int rows = 0, with_base = 0;
	double ratios[64];
	for (int i = 0; i < n; i++) {
		if (strcmp(sorted[i]->category, category) != 0)
			continue;
		rows++;
		if (sorted[i]->baseline > 0 && with_base < 64)
			ratios[with_base++] = sorted[i]->score / sorted[i]->baseline;
	}
	if (!rows)
		return;
	bool partial = system ? b->index_partial : true;
	double idx = system ? b->index_score : 10.0 * score_geomean(ratios, (size_t)with_base, 1e-6);
	const char *header = !system ? "Non-Index Benchmarks"
			     : partial ? "System Benchmarks Partial Index"
				       : "System Benchmarks Index Values";
	fprintf(f, "%-40s %12s %12s %8s\n", header, "BASELINE", "RESULT", "INDEX");
	for (int i = 0; i < n; i++) {
		const struct test_result *t = sorted[i];
		if (strcmp(t->category, category) != 0)
			continue;
		if (t->baseline > 0)
			fprintf(f, "%-40s %12.1f %12.1f %8.1f\n", t->label, t->baseline, t->score,
				score_index(t->score, t->baseline));
		else
			fprintf(f, "%-40s %12s %12.1f %8s\n", t->label, "---", t->score, "---");
	}
	if (!with_base) {
		fputc('\n', f);
		return;
	}
	fprintf(f, "%-40s %12s %12s %8s\n", "", "", "", "========");
	const char *title = !system ? "Non-Index Benchmarks Index Score (Partial Only)"
			    : partial ? "System Benchmarks Index Score (Partial Only)"
				      : "System Benchmarks Index Score";
	fprintf(f, "%-66s %8.1f\n\n", title, idx);
}

/* A budget below what every test's fewest samples take is spent on those, not ended
 * (runner_estimate_test): say so, or "in 6 s" reads as a promise the run broke. */
static void least_line(FILE *f, const struct run_block *b, double budget)
{
	double took = 0;
	int fewest = 0, most = 0;
	for (int i = 0; i < b->ntests; i++) {
		const struct test_result *t = &b->tests[i];
		const struct kv *secs = test_summary_get(t, "quick_seconds");
		if (t->status != TEST_DONE || !secs)
			continue;
		took += secs->value;
		fewest = fewest && fewest < t->nsamples ? fewest : t->nsamples;
		most = most > t->nsamples ? most : t->nsamples;
	}
	if (fewest > 0 && fewest == most && took > 1.25 * budget)
		fprintf(f, "  less than the tests' fewest samples take: each took its %d, %.0f s in all\n", fewest,
			took);
}

/* A quick run says how precise each score is and what stopped the test: its precision
 * (each test until its interval was within it), or the index allocation (the samples
 * shared out to narrow the index's interval most in the seconds given, in rounds). */
static void quick_table(FILE *f, const struct run_block *b)
{
	const struct test_result *first = NULL;
	for (int i = 0; i < b->ntests && !first; i++)
		if (test_is_quick(&b->tests[i]))
			first = &b->tests[i];
	if (!first)
		return;
	if (first->quick_asked > 0)
		fprintf(f, "Quick run: each test stopped once its 95%% interval was within +-%.1f%%\n",
			first->quick_asked * 100);
	else {
		fprintf(f, "Quick run: samples in rounds, shared out to narrow the index's interval most in %.0f s\n",
			first->quick_budget);
		least_line(f, b, first->quick_budget);
	}
	for (int i = 0; i < b->ntests; i++) {
		const struct test_result *t = &b->tests[i];
		const struct kv *p = test_summary_get(t, "quick_precision");
		const struct kv *why = test_summary_get(t, "quick_stop");
		const struct kv *secs = test_summary_get(t, "quick_seconds");
		if (t->status != TEST_DONE || !why)
			continue;
		char prec[16];
		if (p)
			snprintf(prec, sizeof prec, "+-%.2f%%", p->value * 100);
		else
			snprintf(prec, sizeof prec, "n/a");
		fprintf(f, "  %-40s %9s %4d samples %6.1f s%s\n", t->label, prec, t->nsamples,
			secs ? secs->value : 0,
			!strcmp(why->text, "precise") || !strcmp(why->text, "allocated")
				? ""
				: "  (limit reached before the precision)");
	}
	fputc('\n', f);
}

/* Where a pair test's processes ran (context1: on one CPU, or each wake-up
 * crossing to another): the split over its samples, since the two read
 * several times apart and a run holding both is two measurements. */
static void placement_lines(FILE *f, const struct run_block *b)
{
	bool any = false;
	for (int i = 0; i < b->ntests; i++) {
		const struct test_result *t = &b->tests[i];
		int n[PLACE_COUNT] = { 0 }, nt = 0;
		double one = 0; /* the mixed samples' mean share of time on one CPU */
		for (int s = 0; s < t->nsamples; s++) {
			const struct sample *sm = &t->samples[s];
			enum placement pl = sample_placement(sm);
			n[pl]++;
			for (int c = 0; pl == PLACE_MIXED && c < sm->copies; c++)
				if (isfinite(sample_time_in(sm, c, PLACE_ONE))) {
					one += sample_time_in(sm, c, PLACE_ONE);
					nt++;
				}
		}
		if (!reportable(t) || n[PLACE_UNKNOWN] == t->nsamples)
			continue;
		fprintf(f, "Placement: %s: each pair on one CPU in %d of %d samples, on two CPUs in %d", t->id,
			n[PLACE_ONE], t->nsamples, n[PLACE_TWO]);
		if (n[PLACE_MIXED])
			fprintf(f, ", mixed in %d", n[PLACE_MIXED]);
		if (nt)
			fprintf(f, " (on one CPU %.1f%% of their time)", one / nt * 100);
		fputc('\n', f);
		any = true;
	}
	if (any)
		fputc('\n', f);
}

/* A block's rate results sorted by label with their scores, then the index
 * tables and, in a quick run, how precise each score is. */
static void print_block(FILE *f, const struct run *r, const struct run_block *b)
{
	const struct test_result **sorted = calloc((size_t)b->ntests + 1, sizeof *sorted);
	if (!sorted)
		return;
	int n = 0;
	for (int i = 0; i < b->ntests; i++)
		if (reportable(&b->tests[i]))
			sorted[n++] = &b->tests[i];
	qsort(sorted, (size_t)n, sizeof *sorted, by_label);
	for (int i = 0; i < n; i++) {
		const struct test_result *t = sorted[i];
		fprintf(f, "%-40s %12.1f %-5s (%.1f s, %d samples)\n", t->label, t->score, t->unit, t->time,
			t->kept);
	}
	fputc('\n', f);
	index_table(f, sorted, n, "system", b);
	index_table(f, sorted, n, "misc", b);
	if (r->meta.mode == &run_mode_quick)
		quick_table(f, b);
	placement_lines(f, b);
	free(sorted);
}

/* UnixBench's tests: their text is UnixBench's report (print_block), their one setting
 * context1's placement; every other verb is the default, a rate being a result with no points. */
const struct family family_rate = {
	.name = "rate",
	.settings = &rate_settings,
	.rows = rows, .nrows = sizeof rows / sizeof rows[0],
	.rows_last = rows_last, .nrows_last = sizeof rows_last / sizeof rows_last[0],
	.groups = groups, .ngroups = sizeof groups / sizeof groups[0],
	.print_block = print_block,
};
