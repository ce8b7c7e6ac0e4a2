/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A sequence of runs: each run stored with its sequence and number, and one started again (after a kill -9 at any step of a save) makes only the runs not stored, none twice. */
/* cost: 12 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "request.h"
#include "run.h"
#include "runfile.h"
#include "sequence.h"
#include "store.h"

static char home[] = "/tmp/kbench-test-sequence.XXXXXX";

/* Two tenths of a second of Dhrystone, no telemetry: a run the store keeps. */
static void tiny(struct run_request *rq)
{
	run_request_init(rq);
	assert_int_equal(run_request_add(rq, "dhry2reg"), 0);
	rq->run.copies[rq->run.ncopies++] = 1;
	rq->run.samples = 1;
	rq->run.duration = 0.05;
	rq->run.pause = 0;
	rq->tele.off = true;
}

static int begun[SEQUENCE_MAX + 1], nbegun, ended;

static void on_begin(void *ctx, int k, int n)
{
	begun[nbegun++] = k;
}

static void on_end(void *ctx, int k, const struct session_result *res)
{
	ended++;
}

static const struct sequence_face face = { .begin = on_begin, .end = on_end };

/* The runs of sequence id in the store's files (read one by one, not through the index the
 * test means to kill): how many hold each number (index 1..n). */
static int count_runs(const char *id, int *per, int n)
{
	memset(per, 0, sizeof per[0] * (size_t)(n + 1));
	DIR *d = opendir(home);
	assert_non_null(d);
	int total = 0;
	for (struct dirent *e; (e = readdir(d));) {
		size_t len = strlen(e->d_name);
		if (e->d_name[0] == '.' || len < 6 || strcmp(e->d_name + len - 5, ".json"))
			continue;
		char path[4400], err[300];
		snprintf(path, sizeof path, "%s/%s", home, e->d_name);
		struct run *r = runfile_read(path, err, sizeof err);
		if (!r)
			fail_msg("%s: %s", path, err);
		if (!strcmp(r->meta.seq.id, id)) {
			assert_true(r->meta.seq.run >= 1 && r->meta.seq.run <= n);
			assert_int_equal(r->meta.seq.runs, n);
			assert_string_equal(r->meta.seq.purpose, "test");
			assert_string_equal(r->meta.name, "seq-test");
			per[r->meta.seq.run]++;
			total++;
		}
		run_free(r);
	}
	closedir(d);
	return total;
}

/* What a child's sequence did, told the parent through a pipe. */
struct told {
	struct sequence_result res;
	char id[64];
	int begun[SEQUENCE_MAX + 1], nbegun, ended;
};

/* The sequence run in a child process (the parent never opens the store's index, which a
 * forked child must not share), killed with SIGKILL at step kill_at (NULL: none). True when
 * it ran to the end, with what it did in *t; false when it was killed. */
static bool child_sequence(struct run_sequence *s, const char *kill_at, struct told *t)
{
	int fd[2];
	assert_int_equal(pipe(fd), 0);
	fflush(NULL);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(fd[0]);
		if (kill_at)
			setenv("KBENCH_TEST_KILL_AT", kill_at, 1);
		static struct run_request rq;
		tiny(&rq);
		static struct told c;
		nbegun = ended = 0;
		if (sequence_run(s, &rq, &face, &c.res) < 0)
			_exit(2);
		snprintf(c.id, sizeof c.id, "%s", s->id);
		memcpy(c.begun, begun, sizeof c.begun);
		c.nbegun = nbegun;
		c.ended = ended;
		_exit(write(fd[1], &c, sizeof c) == (ssize_t)sizeof c ? 0 : 3);
	}
	close(fd[1]);
	ssize_t got = read(fd[0], t, sizeof *t);
	close(fd[0]);
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	if (WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL)
		return false;
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0 || got != (ssize_t)sizeof *t)
		fail_msg("the sequence's child ended with status %d", st);
	snprintf(s->id, sizeof s->id, "%s", t->id);
	return true;
}

static int setup(void **state)
{
	(void)state;
	if (!mkdtemp(home))
		return -1;
	setenv("KBENCH_HOME", home, 1);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[200];
	snprintf(cmd, sizeof cmd, "rm -rf %s", home);
	return system(cmd);
}

/* Each run is stored with the sequence's id, purpose and number; started again with that
 * id, only the runs not stored are made. */
static void stores_tags_and_resumes(void **state)
{
	(void)state;
	struct run_sequence s = { .name = "seq-test", .purpose = "test", .runs = 3 };
	static struct told t;
	assert_true(child_sequence(&s, NULL, &t));
	assert_int_equal(t.res.end, SEQ_DONE);
	assert_int_equal(t.res.stored, 3);
	assert_int_equal(t.res.before, 0);
	assert_int_equal(t.nbegun, 3);
	assert_int_equal(t.ended, 3);
	assert_true(!strncmp(s.id, "test-", 5)); /* made, as its purpose and an id */
	int per[4];
	assert_int_equal(count_runs(s.id, per, 3), 3);
	assert_true(per[1] == 1 && per[2] == 1 && per[3] == 1);

	/* the second run's file gone: started again, the sequence makes run 2 alone */
	char path[4400];
	snprintf(path, sizeof path, "%s/%s.json", home, t.res.ids[1]);
	assert_int_equal(unlink(path), 0);
	assert_true(child_sequence(&s, NULL, &t));
	assert_int_equal(t.res.before, 2);
	assert_int_equal(t.res.stored, 1);
	assert_int_equal(t.nbegun, 1);
	assert_int_equal(t.begun[0], 2);
	assert_int_equal(count_runs(s.id, per, 3), 3);
	assert_true(per[1] == 1 && per[2] == 1 && per[3] == 1);

	/* all stored: nothing to make */
	assert_true(child_sequence(&s, NULL, &t));
	assert_int_equal(t.res.before, 3);
	assert_int_equal(t.nbegun, 0);
	assert_int_equal(t.res.end, SEQ_DONE);
}

/* Killed (SIGKILL) at each step of the first run's save, or of the index update that the
 * next start makes of it, then started again: every run is stored exactly once. */
static void resumes_after_kill_9_at_any_step(void **state)
{
	(void)state;
	/* the steps each attempt but the last is killed at */
	static const char *const scenarios[][2] = {
		{ "save-created" }, { "save-half" }, { "save-written" }, { "save-linked" },
		{ "save-linked", "index-begin" }, { "save-linked", "index-commit" },
	};
	for (size_t i = 0; i < sizeof scenarios / sizeof scenarios[0]; i++) {
		struct run_sequence s = { .name = "seq-test", .purpose = "test", .runs = 2 };
		snprintf(s.id, sizeof s.id, "test-kill-%zu", i);
		static struct told t;
		for (size_t k = 0; k < 2 && scenarios[i][k]; k++)
			if (child_sequence(&s, scenarios[i][k], &t))
				fail_msg("scenario %zu: not killed at %s", i, scenarios[i][k]);
		assert_true(child_sequence(&s, NULL, &t));
		assert_int_equal(t.res.end, SEQ_DONE);
		int per[3];
		assert_int_equal(count_runs(s.id, per, 2), 2);
		if (per[1] != 1 || per[2] != 1)
			fail_msg("scenario %zu: run 1 stored %d times, run 2 %d times", i, per[1], per[2]);
		/* a save killed before its link left nothing stored: the run was made again */
		bool linked = !strcmp(scenarios[i][0], "save-linked");
		assert_int_equal(t.res.before, linked ? 1 : 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(stores_tags_and_resumes),
		cmocka_unit_test(resumes_after_kill_9_at_any_step),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
