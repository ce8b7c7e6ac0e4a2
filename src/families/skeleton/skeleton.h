/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The skeleton family's header: what its loop publishes, and the names its family file and its loop share (the recipe: docs/HACKING.md, "Adding a family"). */
#ifndef KBENCH_SKELETON_H
#define KBENCH_SKELETON_H

struct family;
struct test_result;
struct worker_slot;
struct workload;

/* Required: the family (family_skeleton.c), reached by this pointer, never by
 * its name, and listed once in src/registry/family_list.c. */
extern const struct family family_skeleton;
/* Required: the loop the test row runs (skeleton_loop.c). */
extern const struct workload wl_skeleton;

/* What the loop publishes (workload.h, struct wl_point .series): x = the calls
 * timed together, v = ns per call, the fastest of the batches of that size. */
enum skeleton_series { SKELETON_NS };
/* The batch sizes of a sweep, 1 to 256 calls: per-call cost falls as the
 * clock reads around a batch spread over more calls. */
#define SKELETON_BATCHES 5

/* Required of a points test: its collect (tests.h), one sample's published
 * points into the test's points. */
void skeleton_collect(struct test_result *t, const struct worker_slot *slots, int copies,
		      const void *settings);

#endif
