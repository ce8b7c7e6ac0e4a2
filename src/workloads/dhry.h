/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Dhrystone 2.1's record type, globals and procedures, shared by its two translation units (dhry.c, dhry_procs.c). */
#ifndef KBENCH_WORKLOADS_DHRY_H
#define KBENCH_WORKLOADS_DHRY_H

#include <stdint.h>

#include "workload.h"

/*
 * Everything here has external linkage on purpose. UnixBench builds
 * Dhrystone from two files without LTO, so the main loop cannot inline the
 * procedures of the second file (Proc_6..8, Func_1..3), while the first
 * file's procedures (Proc_1..5) are ordinary extern functions the compiler
 * may inline into the loop by its own heuristics. Keeping the same split and
 * the same linkage keeps the same code, and so the same score.
 */

enum dhry_ident { DHRY_IDENT_1, DHRY_IDENT_2, DHRY_IDENT_3, DHRY_IDENT_4, DHRY_IDENT_5 };

#define DHRY_STR_LEN 31 /* Str_30: thirty characters and the terminator */

/* Rec_Type: a discriminated record whose first variant is the one used. */
struct dhry_record {
	struct dhry_record *ptr_comp;
	enum dhry_ident discr;
	union {
		struct {
			enum dhry_ident enum_comp;
			int int_comp;
			char str_comp[DHRY_STR_LEN];
		} var_1;
		struct {
			enum dhry_ident e_comp_2;
			char str_2_comp[DHRY_STR_LEN];
		} var_2;
		struct {
			char ch_1_comp;
			char ch_2_comp;
		} var_3;
	} variant;
};

/* The globals, defined in dhry.c. */
extern struct dhry_record *dhry_ptr_glob;
extern struct dhry_record *dhry_next_ptr_glob;
extern int dhry_int_glob;
extern int dhry_bool_glob;
extern char dhry_ch_1_glob;
extern char dhry_ch_2_glob;
extern int dhry_arr_1_glob[50];
extern int dhry_arr_2_glob[50][50];

/* The first file (dhry.c). */
void dhry_proc_1(struct dhry_record *ptr_val_par);
void dhry_proc_2(int *int_par_ref);
void dhry_proc_3(struct dhry_record **ptr_ref_par);
void dhry_proc_4(void);
void dhry_proc_5(void);

/* The second file (dhry_procs.c). */
void dhry_proc_6(enum dhry_ident enum_val_par, enum dhry_ident *enum_ref_par);
void dhry_proc_7(int int_1_par_val, int int_2_par_val, int *int_par_ref);
void dhry_proc_8(int arr_1_par_ref[50], int arr_2_par_ref[50][50], int int_1_par_val,
		 int int_2_par_val);
enum dhry_ident dhry_func_1(char ch_1_par_val, char ch_2_par_val);
int dhry_func_2(char str_1_par_ref[DHRY_STR_LEN], char str_2_par_ref[DHRY_STR_LEN]);
int dhry_func_3(enum dhry_ident enum_par_val);

/* Returns 0 when the globals and the two records hold what Dhrystone 2.1
 * leaves after `runs` finished loops, else -1 with a sentence in
 * ctx->slot->err (a miscompiled or broken loop). The sample's timer lands
 * anywhere in the next loop, so only what holds at every point of a loop
 * after the first is checked (not Bool_Glob, which Proc_5 clears and Proc_4
 * sets, nor the fields of the record Proc_1 rewrites; Ptr_Glob's Int_Comp
 * may be 5 or 17). The loop's locals are
 * not checked: in UnixBench's binary they are dead in its endless loop, and
 * reading them here would make gcc keep work UnixBench's loop does not do. */
int dhry_check(const struct workload_ctx *ctx, uint64_t runs);

#endif
