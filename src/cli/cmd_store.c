/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The stored-run commands that read and write runs: show, compare, import, export, noise. */
#include "commands.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "compare.h"
#include "import.h"
#include "lava.h"
#include "noise.h"
#include "options.h"
#include "paste.h"
#include "report.h"
#include "run.h"
#include "runfile.h"
#include "store.h"

/* Parses a command's options from the table; -1 to go on, else the exit code. */
static int parse(const char *cmd, int argc, char **argv, struct opt_parsed *p)
{
	return opts_parse(opts_command(cmd), argc, argv, p);
}

int cmd_show(int argc, char **argv)
{
	struct opt_parsed p;
	int rc = parse("show", argc, argv, &p);
	if (rc >= 0)
		return rc;
	if (p.noperands != 1) {
		opts_free(&p);
		return usage_error("usage: kbench show RUN");
	}
	char err[512];
	struct run *r = store_load(p.operand[0], err, sizeof err);
	opts_free(&p);
	if (!r)
		return runtime_error("%s", err);
	report_print(stdout, r);
	/* what the run's mode adds (a thermal check's verdict and table) */
	const struct run_mode_info *mode = run_mode_info(r->meta.mode);
	if (mode->print)
		mode->print(stdout, r);
	for (int i = 0; i < r->nnotes; i++)
		printf("note: %s\n", r->notes[i]);
	run_free(r);
	return 0;
}

static void free_runs(struct run **v, int n)
{
	for (int i = 0; i < n; i++)
		run_free(v[i]);
	free(v);
}

/* A host: side is titled by its selector: the runs' names say less than where they ran. */
static void host_titles(struct compare *c, const char *spec_a, const char *spec_b)
{
	for (int s = 0; s < 2; s++) {
		const char *spec = s ? spec_b : spec_a;
		if (strncmp(spec, STORE_HOST_PREFIX, strlen(STORE_HOST_PREFIX)) || strchr(spec, ','))
			continue;
		int n = s ? c->nb : c->na;
		const struct compare_ref *r = s ? c->b_runs : c->a_runs;
		char *title = s ? c->b_title : c->a_title;
		if (n == 1)
			snprintf(title, sizeof c->a_title, "%.90s (%s)", spec, r[0].id);
		else
			snprintf(title, sizeof c->a_title, "%.90s (%d runs)", spec, n);
	}
}

int cmd_compare(int argc, char **argv)
{
	struct opt_parsed p;
	int rc = parse("compare", argc, argv, &p);
	if (rc >= 0)
		return rc;
	int fmt = 0;
	long width = 0;
	double conf = strtod(opts_row(O_CONFIDENCE)->def, NULL);
	bool learn = true;
	for (int k = 0; k < p.n; k++) {
		const struct opt_item *it = &p.item[k];
		switch (it->def->id) {
		case O_JSON: fmt = 1; break;
		case O_CSV: fmt = 2; break;
		case O_DEFAULT_NOISE: learn = false; break;
		case O_WIDTH: width = it->i; break;
		case O_CONFIDENCE: conf = it->d; break;
		default: break;
		}
	}
	if (p.noperands != 2) {
		opts_free(&p);
		return usage_error("usage: kbench compare A B (see 'kbench compare --help')");
	}
	char *spec[2] = { p.operand[0], p.operand[1] };
	opts_free(&p);
	char err[512];
	int na, nb;
	struct run **a = store_load_group(spec[0], &na, err, sizeof err);
	if (!a)
		return runtime_error("%s", err);
	struct run **b = store_load_group(spec[1], &nb, err, sizeof err);
	if (!b) {
		free_runs(a, na);
		return runtime_error("%s", err);
	}
	struct compare_opts o = { .conf = conf, .default_noise = !learn };
	struct compare *c = compare_stored((const struct run *const *)a, na, (const struct run *const *)b,
					   nb, &o, err, sizeof err);
	rc = 0;
	if (!c) {
		rc = runtime_error("%s", err);
	} else {
		host_titles(c, spec[0], spec[1]);
		if (fmt == 1)
			rc = compare_print_json(stdout, c) < 0;
		else if (fmt == 2)
			compare_print_csv(stdout, c);
		else
			compare_print_text(stdout, c, width ? (int)width : terminal_width(NULL));
		compare_free(c);
	}
	free_runs(a, na);
	free_runs(b, nb);
	return rc;
}

int cmd_import(int argc, char **argv)
{
	struct opt_parsed p;
	int rc = parse("import", argc, argv, &p);
	if (rc >= 0)
		return rc;
	const char *name = NULL;
	for (int k = 0; k < p.n; k++)
		if (p.item[k].def->id == O_IMPORT_NAME)
			name = p.item[k].arg;
	if (p.noperands == 0) {
		opts_free(&p);
		return usage_error("usage: kbench import FILE... [--name NAME]");
	}
	int failed = 0;
	for (int i = 0; i < p.noperands; i++) {
		const char *file = p.operand[i];
		char err[512];
		struct import_result res;
		if (import_file(file, name, &res, err, sizeof err) < 0) {
			fprintf(stderr, "kbench: %s\n", err);
			failed++;
			continue;
		}
		for (int w = 0; w < res.nwarnings; w++)
			fprintf(stderr, "kbench: warning: %s\n", res.warnings[w]);
		for (int k = 0; k < res.nruns; k++) {
			struct run *r = res.runs[k];
			if (res.runfile) {
				/* A run from another store: once only, under its own id when that is free. */
				char same[16];
				int found = store_find_same(r, same, sizeof same, err, sizeof err);
				if (found < 0) {
					fprintf(stderr, "kbench: %s\n", err);
					failed++;
					continue;
				}
				if (found) {
					printf("%s: run %s (%s, measured on %s) is already stored as %s; not imported again\n",
					       file, r->meta.id, r->meta.name, r->meta.hostname[0] ? r->meta.hostname : "?",
					       same);
					continue;
				}
				char path[4200];
				snprintf(path, sizeof path, "%s/%s.json", store_dir(), r->meta.id);
				if (!store_id_valid(r->meta.id) || access(path, F_OK) == 0)
					r->meta.id[0] = 0; /* another run's id here: store_save makes a new one */
			}
			if (store_save(r, err, sizeof err) < 0) {
				fprintf(stderr, "kbench: %s: %s\n", file, err);
				failed++;
				continue;
			}
			printf("imported %s as %s (%s", file, r->meta.id, r->meta.name);
			if (res.runfile)
				printf(", %s run from %s", run_mode_info(r->meta.mode)->name, r->meta.hostname[0] ? r->meta.hostname : "?");
			printf("): %d block%s", r->nblocks, r->nblocks == 1 ? "" : "s");
			for (int b = 0; b < r->nblocks; b++)
				printf("%s%d cop%s index %.1f", b ? "; " : " (", r->blocks[b].copies,
				       r->blocks[b].copies == 1 ? "y" : "ies", r->blocks[b].index_score);
			printf("%s\n", r->nblocks ? ")" : "");
		}
		import_result_free(&res);
	}
	opts_free(&p);
	return failed ? 1 : 0;
}

/* One line per copy of each sample of a rate test; one line per sample
 * value of each point of a points test (test, point name as label, its
 * unit, mean as score, values kept, relative sd as spread, the value as
 * count), with the point's x, its unit and which way is better in the
 * last three columns (empty for a rate test). */
static void export_csv(FILE *f, const struct run *r)
{
	fprintf(f, "copies,test,label,unit,status,score,index,baseline,time,kept,spread,sample,copy,count,elapsed,x,xunit,better\n");
	for (int b = 0; b < r->nblocks; b++) {
		const struct run_block *bl = &r->blocks[b];
		for (int i = 0; i < bl->ntests; i++) {
			const struct test_result *t = &bl->tests[i];
			if (t->kind == RESULT_POINTS) {
				for (int k = 0; k < t->npoints; k++) {
					const struct point *p = &t->points[k];
					for (int s = 0; s < p->n; s++)
						fprintf(f, "%d,%s,\"%s\",%s,%s,%.10g,,,,%d,%.6g,%d,,%.10g,,%.10g,%s,%s\n",
							bl->copies, t->id, p->name, p->unit,
							test_status_name(t->status), point_mean(p), p->n,
							point_spread(p), s + 1, p->v[s], p->x, p->xunit,
							p->lower_better ? "lower" : "higher");
				}
				continue;
			}
			/* One line per copy of each sample; a test without samples still gets a line. */
			int ns = t->nsamples ? t->nsamples : 1;
			for (int s = 0; s < ns; s++) {
				int nc = t->nsamples ? t->samples[s].copies : 1;
				for (int c = 0; c < nc; c++) {
					fprintf(f, "%d,%s,\"%s\",%s,%s,%.10g,%.10g,%.10g,%.10g,%d,%.6g,", bl->copies,
						t->id, t->label, t->unit, test_status_name(t->status), t->score,
						t->index, t->baseline, t->time, t->kept, t->spread);
					if (t->nsamples)
						fprintf(f, "%d,%d,%.10g,%.10g,,,\n", s + 1, c + 1,
							t->samples[s].count[c], t->samples[s].elapsed[c]);
					else
						fprintf(f, ",,,,,,\n");
				}
			}
		}
		fprintf(f, "%d,index,\"System Benchmarks Index Score\",,%s,,%.10g,,,,,,,,,,,\n", bl->copies,
			bl->index_partial ? "partial" : "full", bl->index_score);
	}
}

/* Two sides of export A B: the comparison `kbench compare A B` shows. */
static struct compare *export_compare(const char *spec_a, const char *spec_b, char *err, size_t errlen)
{
	int na, nb;
	struct run **a = store_load_group(spec_a, &na, err, errlen);
	if (!a)
		return NULL;
	struct run **b = store_load_group(spec_b, &nb, err, errlen);
	if (!b) {
		free_runs(a, na);
		return NULL;
	}
	struct compare_opts o = { .conf = strtod(opts_row(O_CONFIDENCE)->def, NULL) };
	struct compare *c = compare_stored((const struct run *const *)a, na, (const struct run *const *)b,
					   nb, &o, err, errlen);
	free_runs(a, na);
	free_runs(b, nb);
	if (c)
		host_titles(c, spec_a, spec_b);
	return c;
}

int cmd_export(int argc, char **argv)
{
	struct opt_parsed p;
	int rc = parse("export", argc, argv, &p);
	if (rc >= 0)
		return rc;
	const char *format = opts_row(O_FORMAT)->def, *output = NULL;
	for (int k = 0; k < p.n; k++) {
		if (p.item[k].def->id == O_FORMAT)
			format = p.item[k].arg;
		else if (p.item[k].def->id == O_OUTPUT)
			output = p.item[k].arg;
	}
	const char *spec = p.operand[0], *spec_b = p.noperands > 1 ? p.operand[1] : NULL;
	int nops = p.noperands;
	opts_free(&p);
	if (nops != 1 && nops != 2)
		return usage_error("usage: kbench export RUN|A B --format FMT (see 'kbench export --help')");
	const struct paste_format *paste = paste_format_find(format);
	if (nops == 2 && !paste && strcmp(format, "json") && strcmp(format, "csv"))
		return usage_error("--format %s writes one run; A B takes json, csv, markdown, text or bbcode",
				   format);
	char err[512];
	struct run *r = NULL;
	struct compare *c = NULL;
	if (nops == 2 ? !(c = export_compare(spec, spec_b, err, sizeof err))
		      : !(r = store_load(spec, err, sizeof err)))
		return runtime_error("%s", err);
	FILE *f = stdout;
	if (output && !(f = fopen(output, "w"))) {
		int e = errno;
		run_free(r);
		compare_free(c);
		return runtime_error("cannot write %s: %s", output, strerror(e));
	}
	rc = 0;
	if (c && paste)
		paste_compare(f, c, paste);
	else if (c && !strcmp(format, "json"))
		rc = compare_print_json(f, c) < 0;
	else if (c)
		compare_print_csv(f, c);
	else if (paste)
		paste_run(f, r, paste);
	else if (!strcmp(format, "json"))
		rc = runfile_write(f, r, err, sizeof err) < 0;
	else if (!strcmp(format, "csv"))
		export_csv(f, r);
	else if (!strcmp(format, "lava"))
		lava_print(f, r);
	else
		report_print(f, r);
	if (fflush(f) != 0 || ferror(f))
		rc = 1, snprintf(err, sizeof err, "cannot write the export: %s", strerror(errno));
	if (f != stdout)
		fclose(f);
	run_free(r);
	compare_free(c);
	return rc ? runtime_error("%s", err) : 0;
}

int cmd_noise(int argc, char **argv)
{
	struct opt_parsed p;
	int rc = parse("noise", argc, argv, &p);
	if (rc >= 0)
		return rc;
	rc = p.noperands ? usage_error("noise takes no arguments (got '%s')", p.operand[0]) : -1;
	opts_free(&p);
	if (rc >= 0)
		return rc;
	char err[512];
	struct noise_table nt;
	if (noise_learn_store(&nt, NULL, 0, err, sizeof err) < 0)
		return runtime_error("%s", err);
	printf("Run-to-run noise floor per test (sd of one run's score between identical\n"
	       "runs; two single runs must differ by about 2.8 x this to count as a change).\n"
	       "Each setting (quick, full, or --duration and -i) has its own: a quick run\n"
	       "moves more. The full defaults widen by sqrt(nominal/actual), at most 3x, for\n"
	       "shorter samples.\n");
	if (nt.groups)
		printf("Learned from %d stored runs in %d set%s of same kernel and settings, blended\n"
		       "with the defaults (each default counts as %d A/A comparison%s).\n",
		       nt.runs, nt.groups, nt.groups == 1 ? "" : "s", NOISE_PRIOR_DF,
		       NOISE_PRIOR_DF == 1 ? "" : "s");
	else
		printf("No A/A runs stored yet (two or more runs of one kernel with the same settings):\n"
		       "the defaults below are used. 'kbench calibrate' learns this machine's.\n");
	/* The two usual settings always, then every other one something was learned for. */
	struct run *like = run_new();
	static const enum run_mode modes[] = { RUN_MODE_FULL, RUN_MODE_QUICK };
	char shown[16][64];
	int nshown = 0;
	for (int i = 0; i < 2; i++) {
		like->meta.mode = modes[i];
		noise_setting(like, shown[nshown], sizeof shown[0]);
		printf("\n%s runs:\n", shown[nshown++]);
		noise_print(stdout, &nt, like, NULL);
	}
	for (int i = 0; i < nt.n && nshown < 16; i++) {
		bool seen = false;
		for (int k = 0; k < nshown && !seen; k++)
			seen = !strcmp(shown[k], nt.f[i].setting);
		if (seen)
			continue;
		/* A run of that setting, for the defaults that go with it. */
		memset(&like->meta, 0, sizeof like->meta);
		like->meta.mode = nt.f[i].mode;
		like->meta.duration_override = nt.f[i].duration_override;
		like->meta.iterations = nt.f[i].iterations;
		const char *st = nt.f[i].setting;
		snprintf(shown[nshown], sizeof shown[0], "%s", st);
		printf("\n%s runs:\n", shown[nshown++]);
		noise_print(stdout, &nt, like, NULL);
	}
	run_free(like);
	noise_free(&nt);
	return 0;
}
