/* SPDX-License-Identifier: GPL-2.0-or-later */
/* An A/B plan across boots as a record: its design, its schedule of boots, and the boots measured, stored atomically in the run store. */
#ifndef KBENCH_PLAN_H
#define KBENCH_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

/* At most this many boots a kernel (the cap of --boots and of --until). */
#define PLAN_MAX_BOOTS 50
/* At most this many runs a boot. */
#define PLAN_MAX_RUNS 20
/* --until's cap when --boots is not given: boots a kernel. */
#define PLAN_UNTIL_BOOTS 10
/* The plan's runs, as `kbench run` takes them: at most this many words. */
#define PLAN_MAX_ARGS 64

enum plan_order {
	PLAN_ORDER_BALANCED, /* A B | B A | A B ...: a drift falls on both kernels alike */
	PLAN_ORDER_RANDOM,   /* each neighbour pair in a random order (seeded) */
};

enum plan_boot_state {
	PLAN_BOOT_RUNNING,   /* begun: some of its runs may be stored */
	PLAN_BOOT_DONE,      /* all its runs stored */
	PLAN_BOOT_ABANDONED, /* the machine rebooted before its runs were done: measured again */
};

/* One boot of the machine that the plan measured (or began to). */
struct plan_boot {
	int slot;             /* its place in the schedule, 0-based */
	char side;            /* 'A' or 'B' */
	char boot_id[40];     /* /proc/sys/kernel/random/boot_id */
	char release[96];     /* the running kernel's release (/proc/sys/kernel/osrelease) */
	char cmdline[512];    /* /proc/cmdline */
	time_t started, finished;
	enum plan_boot_state state;
	char seq[64];         /* the sequence id its runs carry (meta.seq.id): found by it when resumed */
	char note[160];       /* what to know of it ("did not settle: ..."); "" nothing */
	int nruns;            /* its stored runs, in the order they ran */
	char runs[PLAN_MAX_RUNS][16];
};

struct plan {
	char name[49];        /* [a-z0-9._-], the file's name in the store's plans/ */
	char id[16];          /* made at plan new: its boots' sequence ids start with it */
	char host[96];
	time_t created;
	char kernel[2][256];  /* A and B as given: kernel releases or boot menu entries */
	char release[2][96];  /* the release each boots, when known ("" until a boot says) */
	char entry[2][256];   /* the boot menu entry found for each at plan new ("" none) */
	char image[2][256];   /* that entry's kernel image ("/boot/vmlinuz-6.6.8-pf1"; "" unknown) */
	int boots;            /* a kernel's boots (with --until: the most it may take) */
	double until;         /* --until: the resolution to settle at, a log ratio; 0 none */
	double alpha;         /* 1 - the intervals' confidence (--confidence; 0.05 unless asked) */
	int runs_per_boot;
	enum plan_order order;
	unsigned seed;
	char schedule[2 * PLAN_MAX_BOOTS + 1]; /* "ABBAAB...": the side of each slot */
	int nargs;
	char *args[PLAN_MAX_ARGS]; /* each run's options and tests, as `kbench run` takes them */
	/* What plan new promised (plan_stats: the resolution of the design). */
	double promise;       /* the index change found 9 times in 10, a log ratio; NAN unknown */
	bool promise_calibrated;
	double minutes;       /* minutes of runs a kernel, estimated */
	bool installed;       /* `plan install`'s unit is in place */
	int wrong_boots;      /* boots in a row of the wrong kernel (a step with --reboot gives up at 2) */
	char ended[128];      /* why the plan ended ("" while it goes on) */
	int nboots;
	struct plan_boot *boot; /* in the order they were begun */
};

/* The confidence a plan's intervals have unless asked otherwise. */
#define PLAN_DEFAULT_ALPHA 0.05
/* The confidences --confidence takes, in percent. */
#define PLAN_CONF_MIN_PCT 80
#define PLAN_CONF_MAX_PCT 99.9

/* A plan name: 1 to 48 of [a-z0-9._-], starting with a letter or digit. */
bool plan_name_valid(const char *name);

/* A new plan's record (not saved): the schedule from order and seed. Its
 * args are copied. 0, or -1 with err filled (a bad name, a kernel twice, boots
 * or runs out of range). */
int plan_init(struct plan *p, const char *name, const char *a, const char *b, int boots, int runs_per_boot,
	      double until, enum plan_order order, unsigned seed, int nargs, char *const *args, char *err,
	      size_t errlen);
void plan_free(struct plan *p);

/* The store's plans directory ("<store>/plans"), and a plan's file in it. */
void plan_path(const char *name, char *buf, size_t size);
/* Writes the plan to its file as a whole or not at all (temp file, fsync,
 * rename, directory fsync). 0, or -1 with err filled. */
int plan_save(const struct plan *p, char *err, size_t errlen);
/* Reads a plan by name. 0, or -1 with err filled (none of that name, a file that is not a plan). */
int plan_load(const char *name, struct plan *p, char *err, size_t errlen);
/* Reads a plan from its text (what plan_load reads; the fuzz target's door). 0, or -1 with err filled. */
int plan_parse(const char *text, size_t len, struct plan *p, char *err, size_t errlen);
/* The plan as its file holds it (malloc'd JSON text). */
char *plan_dump(const struct plan *p);
/* The names of the stored plans, newest first (malloc'd, each and the array). How many, or -1. */
int plan_list(char ***names, char *err, size_t errlen);
/* Removes a plan's record (its runs stay in the store). 0, or -1 with err filled. */
int plan_remove(const char *name, char *err, size_t errlen);

/* The first slot of the schedule without a done boot; -1 when every slot has one. */
int plan_next_slot(const struct plan *p);
/* The side ('A' or 'B') of a slot; 0 past the schedule. */
char plan_slot_side(const struct plan *p, int slot);
/* The boot begun in this boot of the machine (its boot id), or NULL. */
struct plan_boot *plan_find_boot(struct plan *p, const char *boot_id);
/* Boots done a side. */
int plan_done(const struct plan *p, char side);
/* A new boot record (begun now, in slot, for side): appended and returned. */
struct plan_boot *plan_add_boot(struct plan *p, int slot, char side);
/* Which side the running kernel is, from its release and command line: 'A'
 * or 'B' when one side's release (or its name as given, when no release is
 * known yet) is it; when both sides are that release (two builds of one
 * version), the image the boot loader started (BOOT_IMAGE= in cmdline) against
 * each side's image; 0 when neither side, '?' when it cannot tell. */
char plan_side_of(const struct plan *p, const char *release, const char *cmdline);

#endif
