/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The run store: one JSON file per run in one directory, saved atomically, found by id or name. */
#ifndef KBENCH_STORE_H
#define KBENCH_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

struct run;

/* $KBENCH_HOME, else $XDG_DATA_HOME/kbench, else ~/.local/share/kbench
 * (a static buffer, recomputed on each call so tests can change the env). */
const char *store_dir(void);

/* Saves a run as <store>/<id>.json: assigns r->meta.id when empty and the
 * name (kernel release) when empty; writes a temp file in the same
 * directory, fsyncs it, links it into place without replacing anything,
 * fsyncs the directory. Returns 0, or -errno with a sentence in err.
 * Never overwrites another run's file: an id already present is -EEXIST. */
int store_save(struct run *r, char *err, size_t errlen);

/* The one rule both front ends follow before storing a run they made: a run
 * is worth saving when at least one sample of one test finished (or it holds
 * imported scores). An interrupted run keeps its finished samples, marked
 * incomplete; one stopped before any sample finished measured nothing, and
 * storing it would only add an empty run to the history (and to the runs a
 * comparison may pick). False fills why with a sentence. */
bool store_worth_saving(const struct run *r, char *why, size_t whylen);

/* One block's index of a stored run, as lists show it. */
struct store_block {
	int copies;
	double index_score;
	bool index_partial;
};

/* At most this many blocks of a run are listed (a list line holds fewer). */
#define STORE_LIST_BLOCKS 16

/* One stored file, read or not, as the store's index summarises it: what
 * lists and picking need. The run itself is read by store_entry_load. */
struct store_entry {
	char id[16];
	char *file;       /* "<id>.json" in the store */
	char *error;      /* NULL when the file reads as a run; else why it is broken */
	time_t date;      /* run date, else the file's mtime */
	char name[96];
	char kernel[96];  /* meta.kernel_release */
	char host[96];
	char mode[16];
	bool incomplete;
	bool from_elsewhere; /* a measured run that came in by kbench import */
	int nblocks;      /* all of them; the first STORE_LIST_BLOCKS are in blocks */
	struct store_block blocks[STORE_LIST_BLOCKS];
	char tests[160];  /* run_tests_text */
};

struct store_list {
	int n;
	struct store_entry *e; /* newest first (date, then id) */
};

/* Lists every *.json in the store from its index (brought up to date with
 * the files first). A missing store is an empty list (0). Broken files are
 * listed with their error. -errno on an unreadable directory. */
int store_list(struct store_list *out, char *err, size_t errlen);
void store_list_free(struct store_list *l);

/* The same entries one at a time, newest first, none kept: what a list of
 * ten thousand prints without holding them all. The entry is valid during
 * the call only; fn returns nonzero to stop. 0, or -errno as store_list. */
int store_each(int (*fn)(const struct store_entry *e, void *arg), void *arg, char *err, size_t errlen);

/* A page of that list for a screen that scrolls through thousands: count
 * entries from offset (0: the newest); how many there are; the position of
 * the next entry after position after (wrapping round) whose id, name,
 * kernel, host or tests hold text (ASCII case ignored), -1 for none. Each
 * 0, or -errno with err filled. */
int store_page(long offset, long count, struct store_list *out, char *err, size_t errlen);
int store_count(long *n, char *err, size_t errlen);
int store_find(long after, const char *text, long *found, char *err, size_t errlen);

/* Reads one listed run in full (run_free() it); NULL with err filled. */
struct run *store_entry_load(const struct store_entry *e, char *err, size_t errlen);

/* What `kbench runs` and `kbench delete` select by: every set field must hold. */
struct store_filter {
	const char *kernel; /* fnmatch pattern on the kernel release */
	const char *name;   /* fnmatch pattern on the name */
	const char *tests;  /* comma-separated test ids, each held by the run */
	const char *mode;   /* exact */
	bool has_since, has_until;
	time_t since, until; /* inclusive */
};

/* Does a listed run pass the filter? A broken file passes only an empty filter. */
bool store_filter_match(const struct store_filter *f, const struct store_entry *e);
bool store_filter_empty(const struct store_filter *f);

/* "YYYY-MM-DD" or "YYYY-MM-DD HH:MM" (local time) as a time; a day alone is
 * its first second, or its last when end_of_day. 0, or -1 when not a date. */
int store_parse_date(const char *s, bool end_of_day, time_t *out);

/* Resolves one spec among the listed runs: exact id, exact name, last,
 * last~N, unique id prefix, host:HOST[:NAME] matching one run. Returns the
 * entry index, or -1 with err filled (unknown, ambiguous, broken). */
int store_list_find(const struct store_list *l, const char *spec, char *err, size_t errlen);

/* A spec that selects by the host a run was measured on: host:HOST is every
 * stored run from HOST (runs imported from a lab keep their hostname),
 * host:HOST:NAME those of them named NAME. */
#define STORE_HOST_PREFIX "host:"

/* Every run a spec names: a comma-separated list of specs, each of which
 * may be a name several runs share or a host: selector (a group). Returns a
 * malloc'd array of loaded runs (the caller run_free()s each and frees the
 * array), or NULL. */
struct run **store_load_group(const char *spec, int *n, char *err, size_t errlen);

/* Is run r (from another store, say) already stored? The same host, date,
 * kernel, mode, tests and scores, whatever its id and name. 1 with the
 * stored run's id, 0, or -1 with err filled. */
int store_find_same(const struct run *r, char *id, size_t idlen, char *err, size_t errlen);

/* One run: id, unique id prefix, name (must be unique), a file path, last, last~N,
 * host:HOST[:NAME] when it matches one run. */
struct run *store_load(const char *spec, char *err, size_t errlen);

/* The stored run to compare run r with when none is named (the console's
 * automatic choice): the newest stored run of another kernel release with
 * one of r's copy counts; failing that, the newest other run with one of
 * them (the same kernel). r itself, by id, is never picked. Returns the
 * loaded run (run_free() it), or NULL with why filled. */
struct run *store_pick_baseline(const struct run *r, char *why, size_t whylen);

/* Which runs of the sequence id (meta.seq.id) are stored: stored[k - 1] is set for each run
 * number k from 1 to n that a readable stored run holds. How many, or -errno with err filled. */
int store_seq_stored(const char *id, bool *stored, int n, char *err, size_t errlen);

/* Removes a stored run's file (by spec; never a path outside the store). */
int store_delete(const char *spec, char *deleted_id, size_t idlen, char *err, size_t errlen);

/* Lowercase letters, digits, '-' and '_', 1 to 15 of them: what store_save takes. */
bool store_id_valid(const char *id);

/* Makes a fresh short id (8 lowercase hex digits) not present in the store. */
int store_new_id(char *id, size_t len, char *err, size_t errlen);

#endif
