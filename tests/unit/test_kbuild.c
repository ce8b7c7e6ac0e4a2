/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of kbuild: the generated tree's pinned hash, its files on disk, a deterministic build, the parameters, collecting builds into points. */
/* cost: 22 */
#include <math.h>
#include <stdbool.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "import.h"
#include "kbuild.h"
#include "run.h"
#include "settings.h"
#include "tests.h"
#include "scratch.h"
#include "workload.h"

/* The tree is part of what a run measures: the same on every machine for
 * the same kbench version. A change to the generator changes these; then
 * say so in the CHANGELOG (old and new build times do not compare). */
#define HASH_TINY 0x69c4eb1801fd3944ULL
#define HASH_FULL 0x3edefd3b42605c31ULL

/* A family's settings as the runner fills them for a run with params (not quick). */
/* The family's settings for params as a run on ncpus CPUs (quick or not) fills them. */
static int kb_fill(const char *params, int ncpus, bool quick, struct kbuild_opts *o, char *err,
		   size_t errlen)
{
	struct settings_env env = { .quick = quick, .ncpus = ncpus };
	return settings_fill(&kbuild_settings, params, &env, o, err, errlen);
}

static const void *filled(const struct settings *f, const char *params)
{
	static _Alignas(max_align_t) char s[SETTINGS_MAX_SIZE];
	char err[300];
	assert_int_equal(test_settings_fill(f, params, false, s, err, sizeof err), 0);
	return s;
}
static void test_hash_pinned(void **state)
{
	assert_true(kbuild_tree_hash(KBUILD_UNITS_TINY) == HASH_TINY);
	assert_true(kbuild_tree_hash(KBUILD_UNITS_FULL) == HASH_FULL);
	assert_true(kbuild_tree_hash(KBUILD_UNITS_TINY) != kbuild_tree_hash(KBUILD_UNITS_TINY + 1));
}

/* FNV-1a 64 of path and bytes, as the generator hashes them. */
static void fnv(uint64_t *h, const void *p, size_t n)
{
	const unsigned char *c = p;
	for (size_t i = 0; i < n; i++) {
		*h ^= c[i];
		*h *= 0x100000001b3ULL;
	}
}

static void hash_file(uint64_t *h, const char *dir, const char *rel)
{
	char path[512];
	snprintf(path, sizeof path, "%s/%s", dir, rel);
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	static char buf[1 << 20];
	size_t n = fread(buf, 1, sizeof buf, f);
	fclose(f);
	fnv(h, rel, strlen(rel) + 1);
	fnv(h, buf, n);
}

static void make_dir(char *dir, size_t len)
{
	snprintf(dir, len, "%s/kbuild-test-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	assert_non_null(mkdtemp(dir));
}

/* What was written is what was hashed, file by file in the generator's order. */
static void test_files_on_disk(void **state)
{
	char dir[256];
	make_dir(dir, sizeof dir);
	uint64_t hash;
	char err[200];
	assert_int_equal(kbuild_generate(dir, KBUILD_UNITS_TINY, &hash, err, sizeof err), 0);
	assert_true(hash == HASH_TINY);
	uint64_t h = 0xcbf29ce484222325ULL;
	hash_file(&h, dir, "include/kb_common.h");
	hash_file(&h, dir, "include/mod_0.h");
	for (int u = 0; u < KBUILD_UNITS_TINY; u++) {
		char rel[64];
		snprintf(rel, sizeof rel, "src/mod0/unit%d.c", u);
		hash_file(&h, dir, rel);
	}
	hash_file(&h, dir, "src/main.c");
	hash_file(&h, dir, "Makefile");
	assert_true(h == hash);
	scratch_rm_tree(dir);
}

/* Two trees built in two places make the same program, byte for byte, and
 * it runs: the build is deterministic and the code is valid C. */
static void test_build_deterministic(void **state)
{
	if (system("command -v make >/dev/null && command -v cc >/dev/null") != 0) {
		print_message("no make or cc here: it builds\n");
		skip();
	}
	char a[256], b[256], cmd[1200];
	make_dir(a, sizeof a);
	make_dir(b, sizeof b);
	uint64_t ha, hb;
	char err[200];
	assert_int_equal(kbuild_generate(a, KBUILD_UNITS_TINY, &ha, err, sizeof err), 0);
	assert_int_equal(kbuild_generate(b, KBUILD_UNITS_TINY, &hb, err, sizeof err), 0);
	assert_true(ha == hb);
	/* Not a sub-make of the make that runs the tests: `make test CFLAGS=...`
	 * (debian/rules passes Debian's) would hand its variables to the tree's
	 * builds through MAKEFLAGS, -g with each tree's own path among them. */
	snprintf(cmd, sizeof cmd,
		 "unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES; "
		 "make -s -j2 -C %s >/dev/null 2>&1 && make -s -j2 -C %s >/dev/null 2>&1 && "
		 "%s/kbprog >/dev/null && cmp -s %s/kbprog %s/kbprog && "
		 "test $(ls %s/obj/*.o | wc -l) -eq %d",
		 a, b, a, a, b, a, kbuild_objects(KBUILD_UNITS_TINY));
	assert_int_equal(system(cmd), 0);
	/* no warnings at the tree's flags either */
	snprintf(cmd, sizeof cmd,
		 "unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES; "
		 "make -s -C %s clean && make -s -C %s 2>&1 | grep -q warning", a, a);
	assert_int_not_equal(system(cmd), 0);
	scratch_rm_tree(a);
	scratch_rm_tree(b);
}

static void test_params(void **state)
{
	struct kbuild_opts o;
	char err[200];
	assert_int_equal(kb_fill(NULL, 2, false, &o, err, sizeof err), 0);
	assert_int_equal(o.units, KBUILD_UNITS_FULL);
	assert_int_equal(o.njobs, 3);
	assert_int_equal(o.jobs[0], 1);
	assert_int_equal(o.jobs[1], 2);
	assert_int_equal(o.jobs[2], 4);
	assert_int_equal(kb_fill(NULL, 1, true, &o, err, sizeof err), 0);
	assert_int_equal(o.units, KBUILD_UNITS_SMALL);
	assert_int_equal(o.njobs, 2); /* 1 and 2: the half is the CPU itself */
	assert_int_equal(
		kb_fill("sizes=1K:2K tree=tiny make-jobs=3,1,3 jobs=200", 2, false, &o, err, sizeof err),
		0);
	assert_int_equal(o.units, KBUILD_UNITS_TINY);
	assert_int_equal(o.njobs, 2);
	assert_int_equal(o.jobs[0], 3);
	assert_int_equal(o.jobs[1], 1);
	assert_int_equal(kb_fill("tree=12", 2, false, &o, err, sizeof err), 0);
	assert_int_equal(o.units, 12);
	int j[KBUILD_MAX_JOBS], n;
	assert_int_equal(kbuild_parse_jobs("0", j, &n, err, sizeof err), -1);
	assert_non_null(strstr(err, "from 1 to 1024"));
	assert_int_equal(kbuild_parse_jobs("2,", j, &n, err, sizeof err), -1);
	assert_int_equal(kbuild_parse_jobs("-1", j, &n, err, sizeof err), -1);
	assert_int_equal(kbuild_parse_jobs("1,2,3,4,5,6,7,8,9", j, &n, err, sizeof err), -1);
	int u;
	assert_int_equal(kbuild_parse_tree("huge", &u, err, sizeof err), -1);
	assert_int_equal(kbuild_parse_tree("0", &u, err, sizeof err), -1);
	assert_int_equal(kbuild_parse_tree("99999", &u, err, sizeof err), -1);
}

/* Two copies' builds of one sample: one point per -j and field, the mean of
 * the copies; CPU% from user + sys over elapsed; a build without its time
 * (cut short) leaves no point; the tree in the summary. */
static void test_collect(void **state)
{
	static struct worker_slot slots[2];
	memset(slots, 0, sizeof slots);
	for (int c = 0; c < 2; c++) {
		struct workload_ctx ctx = { .slot = &slots[c], .copy = c, .copies = 2 };
		wl_publish_point(&ctx, KB_UNITS, 0, KBUILD_UNITS_TINY);
		wl_publish_point(&ctx, KB_USER, 1, 8 + c);
		wl_publish_point(&ctx, KB_SYS, 1, 1);
		wl_publish_point(&ctx, KB_ELAPSED, 1, 10 + 2 * c);
		wl_publish_point(&ctx, KB_USER, 2, 9); /* cut short: no elapsed */
	}
	struct run *r = run_new();
	struct run_block *b = run_add_block(r, 2);
	struct test_result *t = run_block_add_test(b, "kbuild", "Build", "s", 0, 0, "build");
	t->kind = RESULT_POINTS;
	kbuild_collect(t, slots, 2, filled(&kbuild_settings, "make-jobs=1,2"));
	kbuild_collect(t, slots, 2, filled(&kbuild_settings, "make-jobs=1,2"));
	const struct point *el = test_find_point(t, "-j1");
	assert_non_null(el);
	assert_true(el->summary && el->lower_better);
	assert_int_equal(el->n, 2);
	assert_true(fabs(el->v[0] - 11) < 1e-9);
	const struct point *cpu = test_find_point(t, "-j1 cpu");
	assert_non_null(cpu);
	assert_true(fabs(cpu->v[0] - 100 * 9.5 / 11) < 1e-9);
	assert_null(test_find_point(t, "-j2"));
	assert_null(test_find_point(t, "-j2 user"));
	const struct kv *tree = test_summary_get(t, "tree");
	assert_non_null(tree);
	assert_non_null(strstr(tree->text, "hash"));
	const struct kv *jobs = test_summary_get(t, "jobs");
	assert_string_equal(jobs->text, "1,2");
	char *buf;
	size_t len;
	FILE *f = open_memstream(&buf, &len);
	assert_true(kbuild_print_test(f, t));
	fclose(f);
	assert_non_null(strstr(buf, "Elapsed Time"));
	assert_non_null(strstr(buf, "11.00 (0.00)"));
	assert_non_null(strstr(buf, "327.3")); /* builds per hour: 3600 / 11 */
	free(buf);
	run_free(r);
}

/* What the console names, replayed from the points the workload really
 * published, point by point as the screen may read them: the first sample
 * prepares, then the warm-up; a later sample (the tree built) never says
 * "warm-up build", and while the clean before a build runs it says so. */
static void phases_of(struct worker_slot *slot, char texts[][64], int *n)
{
	*n = 0;
	int np = atomic_load(&slot->npoints);
	for (int i = 0; i <= np; i++) {
		struct kbuild_live kl;
		if (!kbuild_live_state(slot->points, i, &kl))
			continue;
		char t[64];
		kbuild_live_text(&kl, 2, t, sizeof t);
		if (*n == 0 || strcmp(texts[*n - 1], t))
			snprintf(texts[(*n)++], 64, "%s", t);
	}
}

static void test_live_phases(void **state)
{
	(void)state;
	if (system("command -v make >/dev/null && command -v cc >/dev/null") != 0) {
		print_message("no make or cc here: it builds\n");
		skip();
	} /* it builds: a board without make and cc cannot */
	char dir[] = "/tmp/kbuild-phases.XXXXXX", scratch[64];
	assert_non_null(mkdtemp(dir));
	snprintf(scratch, sizeof scratch, "%s/s", dir);
	assert_int_equal(mkdir(scratch, 0755), 0);
	static struct worker_slot slot;
	struct kbuild_opts o;
	char err[200];
	assert_int_equal(
		test_settings_fill(&kbuild_settings, "tree=1 make-jobs=1,2", false, &o, err, sizeof err),
		0);
	struct workload_ctx ctx = { .slot = &slot,
				    .copies = 1,
				    .duration = 200,
				    .tmpdir = scratch,
				    .shm_fd = -1,
				    .settings = &o };
	char texts[WL_MAX_POINTS][64];
	int n;
	for (int sample = 0; sample < 2; sample++) {
		memset(&slot, 0, sizeof slot);
		assert_int_equal(wl_kbuild.run(&ctx), 0);
		phases_of(&slot, texts, &n);
		for (int i = 0; i < n; i++)
			print_message("sample %d: %s\n", sample + 1, texts[i]);
		int k = 0;
		assert_string_equal(texts[k++], "preparing"); /* the tree generated, or found */
		if (sample == 0)
			assert_string_equal(texts[k++], "warm-up build");
		assert_string_equal(texts[k++], "cleaning for build 1 of 2");
		assert_string_equal(texts[k++], "build 1 of 2: -j1");
		/* its time published, the next clean not begun yet */
		assert_string_equal(texts[k++], "build 2 of 2: -j1");
		assert_string_equal(texts[k++], "cleaning for build 2 of 2");
		assert_string_equal(texts[k++], "build 2 of 2: -j2");
		assert_string_equal(texts[k++], "2 builds done");
		assert_int_equal(n, k);
	}
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

/* Kernel mode's parameters: the source path's escapes undone (a blank, a
 * '%'), the config checked, the defaults; --source's checks on trees made
 * here; the live state's objects from KB_OBJECTS; estimates that grow with
 * the config and the tarball. */
static void test_kernel_params(void **state)
{
	char dir[] = "/tmp/kbuild-unit.XXXXXX";
	assert_non_null(mkdtemp(dir));
	char tree[600], params[4096] = "tree=tiny", path[700], err[400];
	snprintf(tree, sizeof tree, "%s/my linux 100%%", dir);
	assert_int_equal(mkdir(tree, 0755), 0);
	struct kbuild_opts o;
	/* not a tree yet */
	assert_int_equal(kbuild_check_source(tree, err, sizeof err), -1);
	assert_non_null(strstr(err, "is not a Linux source tree"));
	const char *files[] = { "Makefile", "Kconfig" }, *dirs[] = { "arch", "scripts" };
	for (int i = 0; i < 2; i++) {
		snprintf(path, sizeof path, "%s/%s", tree, files[i]);
		FILE *f = fopen(path, "w");
		assert_non_null(f);
		fclose(f);
		snprintf(path, sizeof path, "%s/%s", tree, dirs[i]);
		assert_int_equal(mkdir(path, 0755), 0);
	}
	assert_int_equal(kbuild_check_source(tree, err, sizeof err), 0);
	assert_int_equal(kbuild_param_source(params, sizeof params, tree), 0);
	assert_null(strchr(strstr(params, "source="), ' ')); /* one word */
	assert_int_equal(kb_fill(params, 2, false, &o, err, sizeof err), 0);
	assert_string_equal(o.source, tree);
	assert_string_equal(o.config, "tinyconfig");
	strcat(params, " config=defconfig make-jobs=2");
	assert_int_equal(kb_fill(params, 2, false, &o, err, sizeof err), 0);
	assert_string_equal(o.config, "defconfig");
	assert_int_equal(o.njobs, 1);
	assert_int_equal(kb_fill("config=oldconfig", 2, false, &o, err, sizeof err), -1);
	assert_non_null(strstr(err, "tinyconfig, defconfig or allnoconfig"));
	/* a params buffer too small for the path says so */
	char small[24] = "";
	assert_int_equal(kbuild_param_source(small, sizeof small, tree), -1);

	/* a .config at the top: built in place, refused */
	snprintf(path, sizeof path, "%s/.config", tree);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fclose(f);
	assert_int_equal(kbuild_check_source(tree, err, sizeof err), -1);
	assert_non_null(strstr(err, "configured or built in place"));
	unlink(path);
	/* tarballs by their names; a file of another name is refused */
	assert_true(kbuild_is_tarball("/usr/src/linux-source-6.1.tar.xz"));
	assert_true(kbuild_is_tarball("linux-6.1.tgz"));
	assert_false(kbuild_is_tarball("linux-6.1.zip"));
	snprintf(path, sizeof path, "%s/linux.zip", dir);
	f = fopen(path, "w");
	fclose(f);
	assert_int_equal(kbuild_check_source(path, err, sizeof err), -1);
	assert_non_null(strstr(err, "want a Linux source directory or a .tar.xz"));
	unlink(path);
	assert_int_equal(kbuild_check_source("/nonexistent/linux", err, sizeof err), -1);
	assert_non_null(strstr(err, "No such file"));

	/* the estimates: tinyconfig a few minutes at -j 1,2 on 2 CPUs, not a second nor an hour;
	 * defconfig longer; the first sample longer than the next */
	char p1[4200] = "", p2[4300];
	assert_int_equal(kbuild_param_source(p1, sizeof p1, tree), 0);
	strcat(p1, " make-jobs=1,2");
	snprintf(p2, sizeof p2, "%s config=defconfig", p1);
	struct kbuild_opts o1, o2;
	assert_int_equal(test_settings_fill(&kbuild_settings, p1, false, &o1, err, sizeof err), 0);
	assert_int_equal(test_settings_fill(&kbuild_settings, p2, false, &o2, err, sizeof err), 0);
	double tiny = kbuild_sample_seconds(&o1, false, 0), tiny1 = kbuild_sample_seconds(&o1, true, 0);
	double def = kbuild_sample_seconds(&o2, false, 0);
	int ncpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
	if (ncpus == 2) {
		assert_true(tiny > 120 && tiny < 600);
		assert_true(def > 5 * tiny);
	}
	assert_true(tiny1 > tiny && def > tiny);

	/* the console's state: KB_OBJECTS is the total, 0 while unknown; x = -1 preparing */
	struct wl_point pts[] = { { KB_OBJECTS, 0, 0 }, { KB_BEGIN, -1, 0.1 }, { KB_BEGIN, 0, 30 } };
	struct kbuild_live kl;
	assert_false(kbuild_live_state(pts + 1, 1, &kl)); /* a begin alone is no kbuild */
	assert_true(kbuild_live_state(pts, 2, &kl));      /* preparing */
	assert_int_equal(kl.jobs, -1);
	assert_int_equal(kl.objects, 0);
	assert_true(kbuild_live_state(pts, 3, &kl));
	assert_int_equal(kl.objects, 0);
	assert_int_equal(kl.jobs, 0);
	struct wl_point later[] = { { KB_OBJECTS, 0, 480 }, { KB_BEGIN, 2, 40 } };
	assert_true(kbuild_live_state(later, 2, &kl));
	assert_int_equal(kl.objects, 480);
	assert_int_equal(kl.jobs, 2);

	snprintf(path, sizeof path, "rm -rf '%s'", dir);
	assert_int_equal(system(path), 0);
}

static const char *fixture(const char *name)
{
	static char p[512];
	const char *top = getenv("KBENCH_TOP");
	snprintf(p, sizeof p, "%s/tests/fixtures/%s", top ? top : ".", name);
	return p;
}

/* kernbench's blocks, new format (-j on the Average line) and old (-j on
 * the run lines above), into an imported kbuild run: a point per -j with
 * the mean, the sd kept, the release from the first line. */
static void test_import_kernbench(void **state)
{
	struct import_result res;
	char err[300];
	assert_int_equal(import_file(fixture("kernbench-0.50.log"), NULL, &res, err,
				     sizeof err), 0);
	assert_int_equal(res.nruns, 1);
	struct run *r = res.runs[0];
	assert_string_equal(r->meta.kernel_release, "4.19.0-rc4");
	assert_ptr_equal(r->meta.mode, &run_mode_imported);
	const struct test_result *t = run_block_find_test(run_find_block(r, 1), "kbuild");
	assert_non_null(t);
	assert_int_equal(t->status, TEST_IMPORTED);
	const struct point *p = test_find_point(t, "-j16");
	assert_non_null(p);
	assert_true(p->summary && p->lower_better && p->n == 1 && fabs(p->v[0] - 189.37) < 1e-9);
	assert_true(fabs(test_find_point(t, "-j2 user")->v[0] - 631.86) < 1e-9);
	assert_true(fabs(test_find_point(t, "-j16 cpu")->v[0] - 376) < 1e-9);
	assert_true(fabs(test_summary_get(t, "sd -j2")->value - 1.12) < 1e-9);
	import_result_free(&res);

	assert_int_equal(import_file(fixture("kernbench-old.log"), "old", &res, err,
				     sizeof err), 0);
	t = run_block_find_test(run_find_block(res.runs[0], 1), "kbuild");
	p = test_find_point(t, "-j2");
	assert_non_null(p);
	assert_true(fabs(p->v[0] - 97.402) < 1e-9);
	import_result_free(&res);

	/* a block without its -j anywhere is no result */
	const char *bad = "Average Half Load Run (std deviation):\nElapsed Time 97.4 (0.5)\n";
	assert_int_not_equal(import_text(bad, strlen(bad), "bad.log", NULL, &res, err, sizeof err), 0);
}

/* kcbench's reports, 0.9's (Compiler:, [P:...]) and an older one's quoted
 * twice in a mail: a run per report, a point per -j with the mean of its
 * builds, their sd and count kept, CPU% as -jN cpu, the header's facts. */
static void test_import_kcbench(void **state)
{
	struct import_result res;
	char err[300];
	assert_int_equal(import_file(fixture("kcbench-0.9.log"), NULL, &res, err, sizeof err), 0);
	assert_int_equal(res.nruns, 1);
	struct run *r = res.runs[0];
	assert_string_equal(r->meta.kernel_release, "6.1.0-13-amd64");
	assert_string_equal(r->meta.machine, "x86_64");
	assert_string_equal(r->meta.cpu_model, "AMD Ryzen 5 3400G with Radeon Vega Graphics");
	assert_int_equal(r->meta.ncpus, 8);
	const struct test_result *t = run_block_find_test(run_find_block(r, 1), "kbuild");
	assert_non_null(t);
	assert_int_equal(t->status, TEST_IMPORTED);
	const struct point *p = test_find_point(t, "-j8");
	assert_non_null(p);
	assert_true(p->summary && p->lower_better && p->n == 1 && fabs(p->v[0] - 251.50) < 1e-9);
	assert_true(fabs(test_find_point(t, "-j11")->v[0] - 249.00) < 1e-9);
	assert_true(fabs(test_find_point(t, "-j8 cpu")->v[0] - 377) < 1e-9);
	assert_true(fabs(test_find_point(t, "-j11 cpu")->v[0] - 381) < 1e-9);
	assert_true(fabs(test_summary_get(t, "sd -j8")->value - 1.32 / sqrt(2)) < 1e-9);
	assert_true(test_summary_get(t, "builds -j11")->value == 2);
	assert_string_equal(test_summary_get(t, "compiler")->text, "gcc (Debian 12.2.0-14) 12.2.0");
	assert_string_equal(test_summary_get(t, "config")->text, "defconfig");
	assert_string_equal(test_summary_get(t, "kernel_version")->text, "6.1.0");
	assert_string_equal(test_summary_get(t, "tree")->text, "Linux 6.1.0, defconfig (kcbench)");
	assert_null(test_find_point(t, "-j8 user"));
	import_result_free(&res);

	assert_int_equal(import_file(fixture("kcbench-mail.txt"), NULL, &res, err, sizeof err), 0);
	assert_int_equal(res.nruns, 2);
	assert_string_equal(res.runs[0]->meta.kernel_release, "5.10.0-rc3");
	assert_string_equal(res.runs[1]->meta.kernel_release, "5.10.0-rc3-patched");
	t = run_block_find_test(run_find_block(res.runs[0], 1), "kbuild");
	assert_true(fabs(test_find_point(t, "-j4")->v[0] - 611.20) < 1e-9);
	assert_true(fabs(test_find_point(t, "-j6")->v[0] - 618.00) < 1e-9); /* "sec /" */
	assert_null(test_summary_get(t, "sd -j6"));
	assert_null(test_find_point(t, "-j4 cpu"));
	assert_string_equal(test_summary_get(t, "compiler")->text,
			    "gcc (GCC) 10.2.1 20201016 (Red Hat 10.2.1-6)");
	t = run_block_find_test(run_find_block(res.runs[1], 1), "kbuild");
	assert_true(fabs(test_find_point(t, "-j4")->v[0] - 600.00) < 1e-9);
	assert_true(fabs(test_summary_get(t, "sd -j4")->value - 2.6 / sqrt(2)) < 1e-9);
	assert_null(test_find_point(t, "-j6"));
	import_result_free(&res);

	/* build lines without a time, or without the kernels/hour, are no result */
	const char *bad = "Processor: x [2 CPUs]\nRun 1 (-j 2): n/a kernels/hour\n"
			  "Run 2 (-j 2): 12.5 seconds\n";
	assert_int_not_equal(import_text(bad, strlen(bad), "bad.log", NULL, &res, err, sizeof err), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hash_pinned),
		cmocka_unit_test(test_files_on_disk),
		cmocka_unit_test(test_build_deterministic),
		cmocka_unit_test(test_params),
		cmocka_unit_test(test_collect),
		cmocka_unit_test(test_live_phases),
		cmocka_unit_test(test_import_kernbench),
		cmocka_unit_test(test_import_kcbench),
		cmocka_unit_test(test_kernel_params),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
