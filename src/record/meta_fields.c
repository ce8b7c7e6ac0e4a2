/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The rows of the run's metadata, in the order the run file writes them (meta_fields.h says what each column means). */
#include "meta_fields.h"

#include <stdint.h>

#include "run.h"

#define AT(f) .off = offsetof(struct run_meta, f), .size = sizeof(((struct run_meta *)0)->f)
#define TEXT(f) .key = #f, .kind = MK_TEXT, AT(f)
/* an optional key, there when its own text (or the sequence's id) is */
#define IF_SET(f) .optional = true, .present_off = offsetof(struct run_meta, f)
/* compare's environment notes: name, when, place */
#define NOTE(name, when, rank) .note = name, .note_when = when, .note_rank = rank

const struct meta_field meta_fields[] = {
	{ TEXT(id) },
	{ TEXT(name), .column = "name" },
	{ TEXT(kbench_version), NOTE("kbench", MN_UNLESS_IMPORTED, 10) },
	{ TEXT(build_flags), NOTE("build flags", MN_UNLESS_IMPORTED, 11) },
	{ TEXT(hostname), NOTE("host", MN_UNLESS_IMPORTED, 9), .column = "host" },
	{ TEXT(os) },
	{ TEXT(kernel_release), NOTE("kernel", MN_ALWAYS, 1), .column = "kernel" },
	{ TEXT(kernel_version), NOTE("kernel build", MN_UNLESS_IMPORTED, 2), .column = "kversion" },
	{ TEXT(machine) },
	{ TEXT(cmdline), NOTE("cmdline", MN_UNLESS_IMPORTED, 3), .column = "cmdline" },
	{ TEXT(cpu_model), NOTE("cpu", MN_UNLESS_IMPORTED, 8) },
	{ TEXT(cpu_flags) },
	{ .key = "bogomips", .kind = MK_DOUBLE, AT(bogomips) },
	{ .key = "ncpus", .kind = MK_INT, AT(ncpus), .min = 0, .max = 1 << 20 },
	{ TEXT(governor), NOTE("governor", MN_UNLESS_IMPORTED, 4) },
	{ TEXT(boost), NOTE("boost", MN_UNLESS_IMPORTED, 5) },
	{ TEXT(mitigations), NOTE("mitigations", MN_UNLESS_IMPORTED, 6) },
	{ TEXT(microcode), NOTE("microcode", MN_UNLESS_IMPORTED, 7) },
	{ .key = "mem_kib", .kind = MK_U64, AT(mem_kib) },
	{ TEXT(lang), NOTE("locale", MN_UNLESS_IMPORTED, 12) },
	{ TEXT(charmap) },
	{ TEXT(collate) },
	{ TEXT(uptime) },
	{ .key = "date", .kind = MK_TIME, AT(date), .column = "date" },
	{ .key = "date_utc", .kind = MK_UTC, AT(date) }, /* for people; readers use "date" */
	{ .key = "mode", .kind = MK_MODE, AT(mode), .column = "mode" },
	{ .key = "duration_override", .kind = MK_DOUBLE, AT(duration_override), .column = "duration" },
	{ .key = "iterations", .kind = MK_INT, AT(iterations), .min = 0, .max = 1 << 20, .column = "iterations" },
	/* 1.2, optional: how the samples were spread over the tests, when not each its own; the
	 * index allocation's seconds per copy count */
	{ TEXT(allocation), IF_SET(allocation) },
	{ .key = "budget", .kind = MK_DOUBLE, AT(budget), IF_SET(allocation), .positive = true },
	{ TEXT(source), .column = "has_source", .index_set = true },
	/* 1.1: the scratch filesystem and kernel settings; swap null = unknown */
	{ TEXT(scratch_dir) },
	{ TEXT(fs_type), NOTE("filesystem", MN_KNOWN, 13) },
	{ TEXT(fs_options), NOTE("mount options", MN_KNOWN, 14) },
	{ TEXT(fs_source) },
	{ TEXT(io_scheduler), NOTE("scheduler", MN_KNOWN, 15) },
	{ .key = "swap_total_kib", .kind = MK_KNOWN_U64, AT(swap_total_kib),
	  .known_off = offsetof(struct run_meta, swap_known), .sets_known = true },
	{ .key = "swap_used_kib", .kind = MK_KNOWN_U64, AT(swap_used_kib),
	  .known_off = offsetof(struct run_meta, swap_known) },
	{ TEXT(thp_enabled) },
	{ TEXT(thp_defrag) },
	{ TEXT(clocksource), NOTE("clocksource", MN_KNOWN, 16) },
	/* 1.2, optional: the workload parameters, how each meter measured, one run of a sequence */
	{ TEXT(params), IF_SET(params) },
	{ TEXT(meters), IF_SET(meters) },
	{ .key = "sequence", .kind = MK_TEXT, AT(seq.id), IF_SET(seq.id), .column = "seq" },
	{ .key = "sequence_purpose", .kind = MK_TEXT, AT(seq.purpose), IF_SET(seq.id) },
	{ .key = "sequence_run", .kind = MK_INT, AT(seq.run), .min = 0, .max = 1 << 20, IF_SET(seq.id),
	  .column = "seq_run" },
	{ .key = "sequence_runs", .kind = MK_INT, AT(seq.runs), .min = 0, .max = 1 << 20, IF_SET(seq.id) },
};
const size_t meta_field_count = sizeof meta_fields / sizeof meta_fields[0];

bool meta_field_present(const struct meta_field *f, const void *meta)
{
	if (f->positive && !(*(const double *)((const char *)meta + f->off) > 0))
		return false;
	return !f->optional || ((const char *)meta)[f->present_off] != '\0';
}
