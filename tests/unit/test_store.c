/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of the run store: where it lives, atomic saves that never overwrite, and naming runs. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "noise.h"
#include "run.h"
#include "store.h"
#include "tmpstore.h"

static struct run *mk(const char *name, const char *kernel, time_t date)
{
	struct run *r = run_new();
	if (name)
		snprintf(r->meta.name, sizeof r->meta.name, "%s", name);
	snprintf(r->meta.kernel_release, sizeof r->meta.kernel_release, "%s", kernel);
	r->meta.date = date;
	struct run_block *b = run_add_block(r, 1);
	struct test_result *t = run_block_add_test(b, "pipe", "Pipe Throughput", "lps", 1, 12440, "system");
	t->status = TEST_DONE;
	t->score = 1e6;
	return r;
}

static void save(struct run *r)
{
	char err[256];
	int rc = store_save(r, err, sizeof err);
	if (rc)
		fail_msg("%s", err);
}

static void test_dir_precedence(void **state)
{
	char *old = strdup(getenv("KBENCH_HOME"));
	setenv("KBENCH_HOME", "/a/b", 1);
	assert_string_equal(store_dir(), "/a/b");
	unsetenv("KBENCH_HOME");
	setenv("XDG_DATA_HOME", "/x", 1);
	assert_string_equal(store_dir(), "/x/kbench");
	unsetenv("XDG_DATA_HOME");
	setenv("HOME", "/home/u", 1);
	assert_string_equal(store_dir(), "/home/u/.local/share/kbench");
	setenv("KBENCH_HOME", old, 1);
	free(old);
}

static void test_save_and_resolve(void **state)
{
	struct run *a = mk(NULL, "6.1.0-13-amd64", 1000), *b = mk("pf", "6.8.0-pf3", 2000),
		   *c = mk("pf", "6.8.0-pf3", 3000);
	save(a);
	save(b);
	save(c);
	assert_string_equal(a->meta.name, "6.1.0-13-amd64"); /* defaults to the kernel release */
	assert_int_equal(strlen(a->meta.id), 8);
	char err[256];
	struct run *x;
	x = store_load(a->meta.id, err, sizeof err);
	assert_non_null(x);
	assert_string_equal(x->meta.kernel_release, "6.1.0-13-amd64");
	run_free(x);
	x = store_load("last", err, sizeof err);
	assert_non_null(x);
	assert_string_equal(x->meta.id, c->meta.id);
	run_free(x);
	x = store_load("last~2", err, sizeof err);
	assert_non_null(x);
	assert_string_equal(x->meta.id, a->meta.id);
	run_free(x);
	assert_null(store_load("last~3", err, sizeof err));
	assert_null(store_load("last~x", err, sizeof err));
	x = store_load("6.1.0-13-amd64", err, sizeof err);
	assert_non_null(x);
	run_free(x);
	/* A name two runs share is ambiguous for one run, a group for compare. */
	assert_null(store_load("pf", err, sizeof err));
	assert_non_null(strstr(err, "2 runs"));
	int n;
	struct run **g = store_load_group("pf", &n, err, sizeof err);
	assert_non_null(g);
	assert_int_equal(n, 2);
	for (int i = 0; i < n; i++)
		run_free(g[i]);
	free(g);
	char list[64];
	snprintf(list, sizeof list, "%s,%s", a->meta.id, c->meta.id);
	g = store_load_group(list, &n, err, sizeof err);
	assert_non_null(g);
	assert_int_equal(n, 2);
	for (int i = 0; i < n; i++)
		run_free(g[i]);
	free(g);
	/* A unique prefix; an ambiguous one says so. */
	char pre[8];
	snprintf(pre, sizeof pre, "%.5s", b->meta.id);
	x = store_load(pre, err, sizeof err);
	assert_non_null(x);
	assert_string_equal(x->meta.id, b->meta.id);
	run_free(x);
	assert_null(store_load("", err, sizeof err));
	assert_null(store_load("nosuchrun", err, sizeof err));
	assert_non_null(strstr(err, "nosuchrun"));
	/* A file path. */
	char path[256];
	snprintf(path, sizeof path, "%s/%s.json", store_dir(), b->meta.id);
	x = store_load(path, err, sizeof err);
	assert_non_null(x);
	run_free(x);
	run_free(a);
	run_free(b);
	run_free(c);
}

static void test_never_overwrites(void **state)
{
	struct run *a = mk("one", "k1", 5000);
	save(a);
	struct run *b = mk("two", "k2", 6000);
	snprintf(b->meta.id, sizeof b->meta.id, "%s", a->meta.id);
	char err[256];
	assert_int_equal(store_save(b, err, sizeof err), -EEXIST);
	struct run *x = store_load(a->meta.id, err, sizeof err);
	assert_non_null(x);
	assert_string_equal(x->meta.name, "one");
	run_free(x);
	/* A bad id is refused, not written somewhere odd. */
	snprintf(b->meta.id, sizeof b->meta.id, "../evil");
	assert_int_equal(store_save(b, err, sizeof err), -EINVAL);
	run_free(a);
	run_free(b);
}

static void test_broken_listed(void **state)
{
	char path[256];
	snprintf(path, sizeof path, "%s/deadbeef.json", store_dir());
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs("{\"format\":{\"major\":1},\"blocks\":[{\"copies\":", f);
	fclose(f);
	struct store_list l;
	char err[256];
	assert_int_equal(store_list(&l, err, sizeof err), 0);
	int broken = 0, good = 0;
	for (int i = 0; i < l.n; i++) {
		if (!l.e[i].error)
			good++;
		else {
			broken++;
			assert_string_equal(l.e[i].id, "deadbeef");
			assert_non_null(strstr(l.e[i].error, "deadbeef.json"));
		}
	}
	assert_int_equal(broken, 1);
	assert_true(good >= 1);
	store_list_free(&l);
	assert_null(store_load("deadbeef", err, sizeof err));
	char id[16];
	assert_int_equal(store_delete("deadbeef", id, sizeof id, err, sizeof err), 0);
	assert_int_equal(access(path, F_OK), -1);
	/* No temp files left behind by the saves. */
	char cmd[300];
	snprintf(cmd, sizeof cmd, "ls -a %s | grep -q '^\\.[^.]'", store_dir());
	assert_int_not_equal(system(cmd), 0);
}

/* The rule both front ends follow: a run is kept once a sample finished. */
static void test_worth_saving(void **state)
{
	char why[128] = "";
	struct run *r = run_new();
	struct run_block *b = run_add_block(r, 1);
	run_block_add_test(b, "pipe", "Pipe Throughput", "lps", 1, 12440, "system");
	run_block_add_test(b, "dhry2reg", "Dhrystone", "lps", 10, 116700, "system");
	/* adding a test may move the block's tests: take the pointers after */
	struct test_result *t = &b->tests[0], *u = &b->tests[1];
	t->status = TEST_SKIPPED; /* aborted before its first sample ended */
	assert_false(store_worth_saving(r, why, sizeof why));
	assert_non_null(strstr(why, "nothing was measured"));
	assert_false(store_worth_saving(r, NULL, 0));
	test_add_sample(u, 1); /* aborted after one sample: skipped, yet measured */
	u->status = TEST_SKIPPED;
	assert_true(store_worth_saving(r, why, sizeof why));
	run_free(r);
	/* an imported run has scores and no samples */
	r = run_new();
	b = run_add_block(r, 1);
	t = run_block_add_test(b, "pipe", "Pipe Throughput", "lps", 1, 12440, "system");
	t->status = TEST_IMPORTED;
	assert_true(store_worth_saving(r, NULL, 0));
	run_free(r);
	assert_false(store_worth_saving(NULL, NULL, 0));
}

/* The automatic comparison: another kernel with one of our copy counts, else our kernel. */
static void test_pick_baseline(void **state)
{
	char *old = strdup(getenv("KBENCH_HOME")), dir[128], err[256];
	snprintf(dir, sizeof dir, "%s/pick", tmpstore_home);
	setenv("KBENCH_HOME", dir, 1);
	struct run *ours = mk(NULL, "6.8.0", 5000);
	assert_null(store_pick_baseline(ours, err, sizeof err)); /* an empty store */
	assert_non_null(strstr(err, "no stored run"));
	struct run *older = mk(NULL, "6.1.0", 1000), *same = mk(NULL, "6.8.0", 2000),
		   *other = mk(NULL, "6.1.0", 3000), *wide = mk(NULL, "5.10.0", 4000);
	wide->blocks[0].copies = 4; /* no copy count in common */
	save(older);
	save(same);
	save(other);
	save(wide);
	save(ours); /* stored itself: never its own base */
	struct run *b = store_pick_baseline(ours, err, sizeof err);
	assert_non_null(b);
	assert_string_equal(b->meta.id, other->meta.id); /* the newest of another kernel */
	run_free(b);
	assert_int_equal(store_delete(older->meta.id, NULL, 0, err, sizeof err), 0);
	assert_int_equal(store_delete(other->meta.id, NULL, 0, err, sizeof err), 0);
	b = store_pick_baseline(ours, err, sizeof err);
	assert_non_null(b);
	assert_string_equal(b->meta.id, same->meta.id); /* else the same kernel */
	run_free(b);
	/* a newer run of another kernel with other tests only: nothing to compare, passed over */
	struct run *unlike = mk(NULL, "6.1.0", 4500);
	snprintf(unlike->blocks[0].tests[0].id, sizeof unlike->blocks[0].tests[0].id, "memlat");
	save(unlike);
	b = store_pick_baseline(ours, err, sizeof err);
	assert_non_null(b);
	assert_string_equal(b->meta.id, same->meta.id);
	run_free(b);
	run_free(unlike);
	ours->blocks[0].copies = 8;
	assert_null(store_pick_baseline(ours, err, sizeof err));
	assert_non_null(strstr(err, "at these copy counts"));
	run_free(ours);
	run_free(older);
	run_free(same);
	run_free(other);
	run_free(wide);
	setenv("KBENCH_HOME", old, 1);
	free(old);
}

static struct run *from_host(const char *host, const char *name, const char *kernel, time_t date)
{
	struct run *r = mk(name, kernel, date);
	snprintf(r->meta.hostname, sizeof r->meta.hostname, "%s", host);
	return r;
}

/* A lab's runs: host: selects every run one machine measured, host:HOST:NAME those of one name. */
static void test_host_groups(void **state)
{
	char *old = strdup(getenv("KBENCH_HOME")), dir[128], err[256];
	snprintf(dir, sizeof dir, "%s/hosts", tmpstore_home);
	setenv("KBENCH_HOME", dir, 1);
	struct run *v[] = { from_host("boardA", "k1", "6.1.0", 100), from_host("boardA", "k2", "6.8.0", 200),
			    from_host("boardB", "k1", "6.1.0", 300), from_host("boardB", "k2", "6.8.0", 400),
			    from_host("boardAB", "k1", "6.1.0", 500) };
	for (int i = 0; i < 5; i++)
		save(v[i]);
	int n;
	struct run **g = store_load_group("host:boardA", &n, err, sizeof err);
	assert_non_null(g);
	assert_int_equal(n, 2); /* boardAB is another host, not a prefix match */
	for (int i = 0; i < n; i++) {
		assert_string_equal(g[i]->meta.hostname, "boardA");
		run_free(g[i]);
	}
	free(g);
	g = store_load_group("host:boardB:k2,host:boardA:k2", &n, err, sizeof err);
	assert_non_null(g);
	assert_int_equal(n, 2);
	assert_string_equal(g[0]->meta.id, v[3]->meta.id);
	assert_string_equal(g[1]->meta.id, v[1]->meta.id);
	for (int i = 0; i < n; i++)
		run_free(g[i]);
	free(g);
	assert_null(store_load_group("host:boardC", &n, err, sizeof err));
	assert_non_null(strstr(err, "hosts in the store: "));
	assert_non_null(strstr(err, "boardB"));
	/* One run by host alone when it is the only one; else it is a group, said so. */
	struct run *r = store_load("host:boardAB", err, sizeof err);
	assert_non_null(r);
	assert_string_equal(r->meta.id, v[4]->meta.id);
	run_free(r);
	assert_null(store_load("host:boardA", err, sizeof err));
	assert_non_null(strstr(err, "matches 2 runs"));
	for (int i = 0; i < 5; i++)
		run_free(v[i]);
	setenv("KBENCH_HOME", old, 1);
	free(old);
}

/* The same run imported again, whatever its id and name, is found; a run that differs is not. */
static void test_find_same(void **state)
{
	char *old = strdup(getenv("KBENCH_HOME")), dir[128], err[256], id[16];
	snprintf(dir, sizeof dir, "%s/same", tmpstore_home);
	setenv("KBENCH_HOME", dir, 1);
	struct run *a = from_host("boardA", "k1", "6.1.0", 100);
	save(a);
	struct run *b = from_host("boardA", "other name", "6.1.0", 100);
	assert_int_equal(store_find_same(b, id, sizeof id, err, sizeof err), 1);
	assert_string_equal(id, a->meta.id);
	b->blocks[0].tests[0].score *= 1.0000001;
	assert_int_equal(store_find_same(b, id, sizeof id, err, sizeof err), 0);
	b->blocks[0].tests[0].score = a->blocks[0].tests[0].score;
	snprintf(b->meta.hostname, sizeof b->meta.hostname, "boardB");
	assert_int_equal(store_find_same(b, id, sizeof id, err, sizeof err), 0);
	run_free(a);
	run_free(b);
	setenv("KBENCH_HOME", old, 1);
	free(old);
}

/* Runs imported from other machines are the console's automatic baseline only when no run of this one fits. */
static void test_pick_baseline_here_first(void **state)
{
	char *old = strdup(getenv("KBENCH_HOME")), dir[128], err[256];
	snprintf(dir, sizeof dir, "%s/here", tmpstore_home);
	setenv("KBENCH_HOME", dir, 1);
	struct run *ours = from_host("vm", NULL, "6.8.0", 5000);
	struct run *local = from_host("vm", NULL, "6.1.0", 1000), *lab = from_host("boardB", NULL, "6.1.0", 3000);
	snprintf(lab->meta.source, sizeof lab->meta.source, "/lab/boardB-1.json");
	save(local);
	save(lab);
	struct run *b = store_pick_baseline(ours, err, sizeof err);
	assert_non_null(b);
	assert_string_equal(b->meta.id, local->meta.id); /* older, but measured here */
	run_free(b);
	assert_int_equal(store_delete(local->meta.id, NULL, 0, err, sizeof err), 0);
	b = store_pick_baseline(ours, err, sizeof err);
	assert_non_null(b);
	assert_string_equal(b->meta.id, lab->meta.id); /* nothing here: the lab's run */
	run_free(b);
	run_free(ours);
	run_free(local);
	run_free(lab);
	setenv("KBENCH_HOME", old, 1);
	free(old);
}

/* Noise floors from the index (and from its kept sets, the second time) are those learned from
 * the run files themselves, with and without runs excluded; a file changed by hand counts anew. */
static void expect_same_table(const struct noise_table *x, const struct noise_table *y)
{
	assert_int_equal(x->n, y->n);
	assert_int_equal(x->groups, y->groups);
	assert_int_equal(x->runs, y->runs);
	for (int i = 0; i < x->n; i++) {
		assert_string_equal(x->f[i].id, y->f[i].id);
		assert_string_equal(x->f[i].setting, y->f[i].setting);
		assert_int_equal(x->f[i].df, y->f[i].df);
		assert_true(x->f[i].learned == y->f[i].learned);
		assert_true(x->f[i].sigma == y->f[i].sigma);
		assert_int_equal(x->f[i].pace_df, y->f[i].pace_df);
		assert_true(fabs(x->f[i].pace_sxx - y->f[i].pace_sxx) <= 1e-12 * fabs(y->f[i].pace_sxx));
		assert_true(fabs(x->f[i].pace_sxy - y->f[i].pace_sxy) <= 1e-12 * fabs(y->f[i].pace_sxy));
		assert_true(fabs(x->f[i].pace_syy - y->f[i].pace_syy) <= 1e-12 * fabs(y->f[i].pace_syy));
	}
}

static void learn_from_files(struct noise_table *t, const char *const *ex, int nex)
{
	struct store_list l;
	char err[256];
	assert_int_equal(store_list(&l, err, sizeof err), 0);
	const struct run **runs = calloc((size_t)l.n + 1, sizeof *runs);
	int n = 0;
	for (int i = 0; i < l.n; i++)
		if (!l.e[i].error)
			runs[n++] = store_entry_load(&l.e[i], err, sizeof err);
	noise_learn(t, runs, n, ex, nex);
	for (int i = 0; i < n; i++)
		run_free((struct run *)runs[i]);
	free(runs);
	store_list_free(&l);
}

static void test_noise_from_index(void **state)
{
	char *old = strdup(getenv("KBENCH_HOME")), dir[128], err[256];
	snprintf(dir, sizeof dir, "%s/noise", tmpstore_home);
	setenv("KBENCH_HOME", dir, 1);
	char ids[9][16];
	for (int i = 0; i < 9; i++) {
		/* three settings of three runs; scores that move a little */
		struct run *r = mk(NULL, i < 3 ? "6.1.0" : i < 6 ? "6.8.0" : "6.9.0", 1000 + i);
		r->meta.mode = i >= 6 ? &run_mode_quick : &run_mode_full;
		r->blocks[0].tests[0].score = 1e6 * (1 + 0.01 * (i % 3)) + i;
		r->blocks[0].index_score = 500 + i;
		r->blocks[0].index_tests = 1;
		/* a pace for all but one run of each setting: the index's slope on it is learned */
		for (int k = 0; i % 3 != 2 && k < RUN_PACE_MIN; k++)
			series_push(run_series(r, "pace", "M/s"), k, 900 + 7 * i + k);
		save(r);
		snprintf(ids[i], sizeof ids[i], "%s", r->meta.id);
		run_free(r);
	}
	for (int pass = 0; pass < 2; pass++) {
		struct noise_table a, b;
		assert_int_equal(noise_learn_store(&a, NULL, 0, err, sizeof err), 0);
		learn_from_files(&b, NULL, 0);
		assert_true(a.groups == 3);
		/* two runs of each set have a pace: one degree of freedom a set (two full sets, one quick) */
		for (int q = 0; q < a.n; q++)
			if (!strcmp(a.f[q].id, NOISE_INDEX_ID)) {
				assert_int_equal(a.f[q].pace_df, strcmp(a.f[q].setting, "quick") ? 2 : 1);
				assert_true(a.f[q].pace_sxy > 0);
			}
		expect_same_table(&a, &b);
		noise_free(&a);
		noise_free(&b);
		const char *ex[] = { ids[4], ids[0] };
		assert_int_equal(noise_learn_store(&a, ex, 2, err, sizeof err), 0);
		learn_from_files(&b, ex, 2);
		expect_same_table(&a, &b);
		noise_free(&a);
		noise_free(&b);
	}
	/* a run file changed by hand: its new score is learned from */
	char path[256];
	snprintf(path, sizeof path, "%s/%s.json", dir, ids[1]);
	struct run *r = store_load(ids[1], err, sizeof err);
	assert_non_null(r);
	r->blocks[0].tests[0].score *= 1.5;
	unlink(path);
	save(r);
	run_free(r);
	struct noise_table a, b;
	assert_int_equal(noise_learn_store(&a, NULL, 0, err, sizeof err), 0);
	learn_from_files(&b, NULL, 0);
	expect_same_table(&a, &b);
	noise_free(&a);
	noise_free(&b);
	setenv("KBENCH_HOME", old, 1);
	free(old);
}

/* last~N in a group names the N-th newest run, whatever the group took before it. */
static void test_group_last(void **state)
{
	char *old = strdup(getenv("KBENCH_HOME")), dir[128], err[256];
	snprintf(dir, sizeof dir, "%s/grouplast", tmpstore_home);
	setenv("KBENCH_HOME", dir, 1);
	struct run *v[] = { mk("a", "6.1.0", 100), mk("b", "6.2.0", 200), mk("c", "6.3.0", 300) };
	for (int i = 0; i < 3; i++)
		save(v[i]);
	int n;
	struct run **g = store_load_group("last,last~1", &n, err, sizeof err);
	assert_non_null(g);
	assert_int_equal(n, 2);
	assert_string_equal(g[0]->meta.name, "c");
	assert_string_equal(g[1]->meta.name, "b");
	for (int i = 0; i < n; i++)
		run_free(g[i]);
	free(g);
	g = store_load_group("b,last~1", &n, err, sizeof err);
	assert_null(g); /* b is last~1: named twice */
	for (int i = 0; i < 3; i++)
		run_free(v[i]);
	setenv("KBENCH_HOME", old, 1);
	free(old);
}

/* The history screen's pages and search: a page is the list's slice in its
 * order, the search wraps round from the cursor and takes '%' and '_' as
 * themselves, and a file copied in after a check is seen by the next one. */
static void test_page_and_find(void **state)
{
	char *old = strdup(getenv("KBENCH_HOME")), dir[128], err[256];
	snprintf(dir, sizeof dir, "%s/pages", tmpstore_home);
	setenv("KBENCH_HOME", dir, 1);
	/* newest first; letters no hex id or "pipe" holds */
	const char *names[] = { "v", "w_x", "k", "m%y", "u" };
	for (int i = 0; i < 5; i++) {
		struct run *r = mk(names[i], "6.1.0", 1000 - i);
		save(r);
		run_free(r);
	}
	long n = 0, at = 0;
	assert_int_equal(store_count(&n, err, sizeof err), 0);
	assert_int_equal(n, 5);
	struct store_list page;
	assert_int_equal(store_page(1, 3, &page, err, sizeof err), 0);
	assert_int_equal(page.n, 3);
	assert_string_equal(page.e[0].name, "w_x");
	assert_string_equal(page.e[2].name, "m%y");
	store_list_free(&page);
	assert_int_equal(store_page(4, 10, &page, err, sizeof err), 0);
	assert_int_equal(page.n, 1);
	assert_string_equal(page.e[0].name, "u");
	store_list_free(&page);
	/* '%' and '_' are the characters, not LIKE's wildcards */
	assert_int_equal(store_find(0, "%", &at, err, sizeof err), 0);
	assert_int_equal(at, 3);
	assert_int_equal(store_find(0, "_", &at, err, sizeof err), 0);
	assert_int_equal(at, 1);
	assert_int_equal(store_find(0, "m_y", &at, err, sizeof err), 0);
	assert_int_equal(at, -1);
	/* after the cursor first, then round from the newest, the cursor's own last */
	assert_int_equal(store_find(2, "6.1", &at, err, sizeof err), 0);
	assert_int_equal(at, 3);
	assert_int_equal(store_find(4, "6.1", &at, err, sizeof err), 0);
	assert_int_equal(at, 0);
	assert_int_equal(store_find(2, "K", &at, err, sizeof err), 0);
	assert_int_equal(at, 2);
	setenv("KBENCH_HOME", old, 1);
	free(old);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dir_precedence), cmocka_unit_test(test_save_and_resolve),
		cmocka_unit_test(test_never_overwrites), cmocka_unit_test(test_broken_listed),
		cmocka_unit_test(test_worth_saving), cmocka_unit_test(test_pick_baseline),
		cmocka_unit_test(test_host_groups), cmocka_unit_test(test_find_same),
		cmocka_unit_test(test_pick_baseline_here_first), cmocka_unit_test(test_noise_from_index),
		cmocka_unit_test(test_group_last), cmocka_unit_test(test_page_and_find),
	};
	return cmocka_run_group_tests(tests, tmpstore_setup, tmpstore_teardown);
}
