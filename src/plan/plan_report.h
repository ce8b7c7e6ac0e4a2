/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A plan's answer: each row's effect from the boots (plan_stats.h), as a comparison the reports and exports take, and the plan's own words. */
#ifndef KBENCH_PLAN_REPORT_H
#define KBENCH_PLAN_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "plan_pace.h"
#include "plan_stats.h"

struct compare;
struct noise_table;
struct plan;
struct run;

/* One row: the index, a test, or a headline point, in one copy count. */
struct plan_row {
	char id[48];          /* "index", "dhry2reg", "boot:total": compare's row ids */
	char label[64];
	int copies;
	bool lower_better;    /* a time or a latency */
	bool weighted;        /* the index or a test in it: what --until settles */
	int busy_boots;       /* boots whose every run of this row was busy or throttled */
	const char *na_why;   /* a row without an interval: why ("busy", "no boot of B done yet") */
	struct pstat_prior prior;
	struct pstat_effect e;
	/* what the boots teach of the noise between boots: the boots' means' squared
	 * deviations from their side's mean (on df degrees of freedom, both sides),
	 * and the mean variance of a run within a boot (NAN: one run a boot) */
	double ss_means, df_means, within2;
	int verdict;          /* enum compare_verdict, in the row's own direction */
	struct plan_pace pace; /* the answer with the machine's pace taken out (plan_pace.h) */
	int pace_verdict;     /* its verdict, as verdict; VERDICT_NA when !pace.ok */
	bool settled;         /* at the plan's --until resolution */
	/* a pair test (context1) judged as compare judges it (compare_place.h): each run
	 * scored from the samples, or the time, of one placement; or n/a when the kernels'
	 * runs share none. The index row takes each run's index with that score. */
	int place_only;       /* enum placement; 0 every sample */
	bool place_by_time, place_differs;
};

struct plan_result {
	int nrows;
	struct plan_row *rows;
	int na, nb;           /* done boots a side */
	bool complete;        /* every slot done, or --until settled */
	double conf;          /* the intervals' confidence (--until: this look's) */
	int look;             /* --until: boots a side at this look (the fewer side's) */
	bool settled;         /* --until: every weighted row settled */
	bool calibrated;      /* the rows' priors come from learned floors */
	bool between_learned; /* earlier plans taught the noise between boots (plan_between) */
	int prior_runs;       /* stored runs behind them */
	bool any_paired;      /* some row's interval came from neighbour pairs */
	double index_resolution; /* the index's rules-out or interval half, a log ratio; NAN none */
	char setting[64];     /* the runs' noise setting ("quick", ...) */
	/* the runs read, each with the index of its boot in the plan */
	int nruns;
	struct run **runs;
	int *boot_of;
};

/* The answer from given runs (boot_of[i]: run i's boot, an index into
 * p->boot; only done boots count) and the noise known before the plan (nt,
 * NULL: defaults). Pure: no store, no files. */
void plan_analyze_runs(const struct plan *p, struct run *const *runs, const int *boot_of, int nruns,
		       const struct noise_table *nt, struct plan_result *res);
/* The same from the plan's stored runs, with the floors the store has
 * learned (the plan's own runs left out) and the noise between boots the
 * other plans of these settings taught (plan_between). 0, or -1 with err
 * filled (a run the plan lists is no longer stored: named). */
int plan_analyze(const struct plan *p, struct plan_result *res, char *err, size_t errlen);

/* The noise between boots as the stored plans taught it, per row and setting:
 * each plan's boots' means about their kernel's mean, less what the runs in a
 * boot explain (a method-of-moments estimate, pooled over plans and kernels). */
struct plan_between {
	int n;
	struct plan_between_row {
		char id[48], setting[64];
		int copies;
		double ss, df; /* sum of df times each kernel's between-boot variance, and df */
	} *v;
};
/* Learns from every stored plan but except (NULL: none). 0, or -1 with err filled. */
int plan_between_learn(struct plan_between *b, const char *except, char *err, size_t errlen);
/* The sd between boots learned for a row in a setting (its df in *df), or -1 when none. */
double plan_between_get(const struct plan_between *b, const char *id, int copies, const char *setting, double *df);
void plan_between_free(struct plan_between *b);
void plan_result_free(struct plan_result *res);

/* A row's answer in words: "B is 3.1% faster (1.2% to 5.0%)", "B is 4.9%
 * slower ...", "no change larger than 1.5% either way", "n/a (busy)". */
void plan_row_words(char *buf, size_t size, const struct plan_row *r);

/* The same at the same pace of the machine (plan_pace.h), with the pace's
 * own difference: "B is 3.0% slower (1.1% to 4.9%); pace within 0.8%" (no
 * pace difference larger either way), "no change larger than 2.1% either
 * way; B's pace -9.8% (-12.0% to -7.5%)", "n/a (under two boots a kernel)". */
void plan_row_pace_words(char *buf, size_t size, const struct plan_row *r);

/* The comparison of the plan's A runs and B runs (compare_stored's rows,
 * labels, scores and environment), each row's interval and verdict the
 * plan's, its footer the plan's: what the text table, the forum formats and
 * the HTML report print. NULL with err filled. */
struct compare *plan_to_compare(const struct plan *p, const struct plan_result *res, char *err, size_t errlen);

/* The report: text (width columns), markdown, json; html to a file path. */
int plan_print(FILE *f, const struct plan *p, const struct plan_result *res, const char *format, int width,
	       char *err, size_t errlen);
int plan_save_html(const char *path, const struct plan *p, const struct plan_result *res, char *err, size_t errlen);

#endif
