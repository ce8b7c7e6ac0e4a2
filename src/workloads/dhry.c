/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Dhrystone 2.1 with register variables (UnixBench's dhry2reg): the timed main loop and Proc_1..Proc_5. */
#include "workloads/dhry.h"

#include <stdlib.h>
#include <string.h>

#include "workloads/workloads.h"

struct dhry_record *dhry_ptr_glob;
struct dhry_record *dhry_next_ptr_glob;
int dhry_int_glob;
int dhry_bool_glob;
char dhry_ch_1_glob;
char dhry_ch_2_glob;
int dhry_arr_1_glob[50];
int dhry_arr_2_glob[50][50];

void dhry_proc_1(register struct dhry_record *ptr_val_par)
{
	register struct dhry_record *next_record = ptr_val_par->ptr_comp;

	*ptr_val_par->ptr_comp = *dhry_ptr_glob;
	ptr_val_par->variant.var_1.int_comp = 5;
	next_record->variant.var_1.int_comp = ptr_val_par->variant.var_1.int_comp;
	next_record->ptr_comp = ptr_val_par->ptr_comp;
	dhry_proc_3(&next_record->ptr_comp);
	if (next_record->discr == DHRY_IDENT_1) {
		next_record->variant.var_1.int_comp = 6;
		dhry_proc_6(ptr_val_par->variant.var_1.enum_comp,
			    &next_record->variant.var_1.enum_comp);
		next_record->ptr_comp = dhry_ptr_glob->ptr_comp;
		dhry_proc_7(next_record->variant.var_1.int_comp, 10,
			    &next_record->variant.var_1.int_comp);
	} else {
		*ptr_val_par = *ptr_val_par->ptr_comp;
	}
}

void dhry_proc_2(int *int_par_ref)
{
	register int int_loc = *int_par_ref + 10;
	/* Weicker left this uninitialised; UnixBench 6 starts it at Ident_1,
	 * so the loop runs once whatever Ch_1_Glob holds. Same here. */
	enum dhry_ident enum_loc = DHRY_IDENT_1;

	do {
		if (dhry_ch_1_glob == 'A') {
			int_loc -= 1;
			*int_par_ref = int_loc - dhry_int_glob;
			enum_loc = DHRY_IDENT_1;
		}
	} while (enum_loc != DHRY_IDENT_1);
}

void dhry_proc_3(register struct dhry_record **ptr_ref_par)
{
	if (dhry_ptr_glob != NULL)
		*ptr_ref_par = dhry_ptr_glob->ptr_comp;
	dhry_proc_7(10, dhry_int_glob, &dhry_ptr_glob->variant.var_1.int_comp);
}

void dhry_proc_4(void)
{
	register int bool_loc = dhry_ch_1_glob == 'A';

	dhry_bool_glob = bool_loc | dhry_bool_glob;
	dhry_ch_2_glob = 'B';
}

void dhry_proc_5(void)
{
	dhry_ch_1_glob = 'A';
	dhry_bool_glob = 0;
}

/*
 * UnixBench's main loop: one loop of Dhrystone per iteration, endless. The
 * loop index is the count, as in UnixBench (which reports it from its
 * SIGALRM handler); here it is stored to the slot every loop, as
 * UnixBench's loop stores its global Run_Index, and the sample's timer
 * leaves the loop (wl_run_timed). Locals whose address is passed on cannot
 * be `register`; the rest are, as in the register build.
 *
 * The compiled loop must do the work UnixBench's compiled loop does, no
 * more. Because the loop never ends, the locals' final values are dead, so
 * gcc deletes what only feeds them (the division Int_1_Loc = Int_2_Loc /
 * Int_3_Loc and the inlined Proc_2), as it does in UnixBench's binary, and
 * there is no stop check. `make bench-fidelity` counts both loops'
 * instructions under callgrind; docs/unixbench.md gives them.
 */
static _Noreturn void dhry_loop(struct workload_ctx *ctx)
{
	struct worker_slot *const slot = ctx->slot;
	int int_1_loc;
	register int int_2_loc;
	int int_3_loc;
	register char ch_index;
	enum dhry_ident enum_loc;
	char str_1_loc[DHRY_STR_LEN];
	char str_2_loc[DHRY_STR_LEN];
	register unsigned long run_index; /* UnixBench's type: 32 bits on i686 */

	strcpy(str_1_loc, "DHRYSTONE PROGRAM, 1'ST STRING");
	for (run_index = 1;; ++run_index) {
		wl_loop_store(slot, run_index - 1);
		dhry_proc_5();
		dhry_proc_4();
		int_1_loc = 2;
		int_2_loc = 3;
		strcpy(str_2_loc, "DHRYSTONE PROGRAM, 2'ND STRING");
		enum_loc = DHRY_IDENT_2;
		dhry_bool_glob = !dhry_func_2(str_1_loc, str_2_loc);
		while (int_1_loc < int_2_loc) {
			int_3_loc = 5 * int_1_loc - int_2_loc;
			dhry_proc_7(int_1_loc, int_2_loc, &int_3_loc);
			int_1_loc += 1;
		}
		dhry_proc_8(dhry_arr_1_glob, dhry_arr_2_glob, int_1_loc, int_3_loc);
		dhry_proc_1(dhry_ptr_glob);
		for (ch_index = 'A'; ch_index <= dhry_ch_2_glob; ++ch_index) {
			if (enum_loc == dhry_func_1(ch_index, 'C')) {
				dhry_proc_6(DHRY_IDENT_1, &enum_loc);
				strcpy(str_2_loc, "DHRYSTONE PROGRAM, 3'RD STRING");
				int_2_loc = (int)run_index;
				dhry_int_glob = (int)run_index;
			}
		}
		int_2_loc = int_2_loc * int_1_loc;
		int_1_loc = int_2_loc / int_3_loc;
		int_2_loc = 7 * (int_2_loc - int_3_loc) - int_1_loc;
		dhry_proc_2(&int_1_loc);
	}
}

static int dhry_run(struct workload_ctx *ctx)
{
	int rc;

	dhry_next_ptr_glob = malloc(sizeof *dhry_next_ptr_glob);
	dhry_ptr_glob = malloc(sizeof *dhry_ptr_glob);
	if (!dhry_next_ptr_glob || !dhry_ptr_glob) {
		free(dhry_next_ptr_glob);
		free(dhry_ptr_glob);
		return wl_fail(ctx, "Dhrystone could not allocate its two records.");
	}
	dhry_ptr_glob->ptr_comp = dhry_next_ptr_glob;
	dhry_ptr_glob->discr = DHRY_IDENT_1;
	dhry_ptr_glob->variant.var_1.enum_comp = DHRY_IDENT_3;
	dhry_ptr_glob->variant.var_1.int_comp = 40;
	strcpy(dhry_ptr_glob->variant.var_1.str_comp, "DHRYSTONE PROGRAM, SOME STRING");
	/* A second run in the same process (the unit tests) starts afresh. */
	memset(dhry_arr_1_glob, 0, sizeof dhry_arr_1_glob);
	memset(dhry_arr_2_glob, 0, sizeof dhry_arr_2_glob);
	dhry_int_glob = 0;
	dhry_bool_glob = 0;
	dhry_ch_1_glob = dhry_ch_2_glob = 0;
	dhry_arr_2_glob[8][7] = 10;

	rc = wl_run_timed(ctx, dhry_loop);
	/* Weicker prints the final state; checking what the loop must have
	 * stored (in the other file, so none of it can be folded) catches a
	 * broken or miscompiled loop. The count is the loops finished: the
	 * timer may have landed in the middle of the next one. */
	if (rc == 0)
		rc = dhry_check(ctx, atomic_load_explicit(&ctx->slot->count, memory_order_relaxed));
	free(dhry_ptr_glob);
	free(dhry_next_ptr_glob);
	dhry_ptr_glob = dhry_next_ptr_glob = NULL;
	return rc;
}

const struct workload wl_dhry = { .name = "dhry", .run = dhry_run };
