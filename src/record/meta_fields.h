/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The run's metadata declared once: a row per field of struct run_meta (its key in the run file, its kind, where it is, whether compare's environment notes and the store's index take it), from which the run file's writer, reader and sanitiser, the notes and the index's columns are made. */
#ifndef KBENCH_META_FIELDS_H
#define KBENCH_META_FIELDS_H

#include <stdbool.h>
#include <stddef.h>

enum meta_kind {
	MK_TEXT,      /* a char array: a JSON string, sanitised before it is written */
	MK_DOUBLE,    /* a double: a JSON number, null when not finite */
	MK_INT,       /* an int in [min, max]: a JSON integer */
	MK_U64,       /* a uint64_t from 0: a JSON integer */
	MK_TIME,      /* a time_t: Unix seconds */
	MK_UTC,       /* the time_t at off as "2024-05-01T12:00:00Z", for people: written, never read */
	MK_MODE,      /* a mode's row (const struct run_mode_info *): its name */
	MK_KNOWN_U64, /* a uint64_t written as null, and read as unknown, unless the bool at known_off is set */
};

/* When compare's environment notes say that two runs differ in a field. */
enum meta_note {
	MN_NONE,
	MN_ALWAYS,          /* whenever the two differ */
	MN_UNLESS_IMPORTED, /* and, when a side was imported, both know it (an import knows little) */
	MN_KNOWN,           /* when both sides know it (neither empty nor "unknown": run file 1.1) */
};

struct meta_field {
	const char *key;   /* in the run file's "meta" */
	enum meta_kind kind;
	size_t off, size;  /* in struct run_meta */
	/* An optional key (run file 1.2): written only when the text at present_off (its own,
	 * or what it belongs to: the sequence's id) is not empty; a reader without it reads it
	 * as empty or 0. */
	bool optional;
	size_t present_off;
	bool positive;      /* MK_DOUBLE: written only when above 0; a reader refuses one below 0 */
	long long min, max; /* MK_INT: the range a reader takes */
	size_t known_off;   /* MK_KNOWN_U64: the bool saying it is known */
	bool sets_known;    /* MK_KNOWN_U64: reading it says whether it is known (swap_total_kib) */
	/* compare's environment notes: the difference's name, when, and its place among them */
	const char *note;
	enum meta_note note_when;
	int note_rank;
	/* The store index's column for it (src/store/storeidx.c), NULL: none; index_set: the
	 * column holds whether the text is set (has_source), not the text. */
	const char *column;
	bool index_set;
};

/* In the order the run file writes them. */
extern const struct meta_field meta_fields[];
extern const size_t meta_field_count;

/* The field's place in a struct run_meta. */
static inline void *meta_at(const struct meta_field *f, void *meta)
{
	return (char *)meta + f->off;
}
static inline const void *meta_at_c(const struct meta_field *f, const void *meta)
{
	return (const char *)meta + f->off;
}

/* Whether an optional field is written for this meta (always for one that is not optional). */
bool meta_field_present(const struct meta_field *f, const void *meta);

#endif
