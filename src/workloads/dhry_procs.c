/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Dhrystone 2.1's second translation unit: Proc_6..Proc_8, Func_1..Func_3, and the check of the final state. */
#include "workloads/dhry.h"

#include <string.h>

void dhry_proc_6(register enum dhry_ident enum_val_par, register enum dhry_ident *enum_ref_par)
{
	*enum_ref_par = enum_val_par;
	if (!dhry_func_3(enum_val_par))
		*enum_ref_par = DHRY_IDENT_4;
	switch (enum_val_par) {
	case DHRY_IDENT_1:
		*enum_ref_par = DHRY_IDENT_1;
		break;
	case DHRY_IDENT_2:
		if (dhry_int_glob > 100)
			*enum_ref_par = DHRY_IDENT_1;
		else
			*enum_ref_par = DHRY_IDENT_4;
		break;
	case DHRY_IDENT_3:
		*enum_ref_par = DHRY_IDENT_2;
		break;
	case DHRY_IDENT_4:
		break;
	case DHRY_IDENT_5:
		*enum_ref_par = DHRY_IDENT_3;
		break;
	}
}

void dhry_proc_7(int int_1_par_val, int int_2_par_val, int *int_par_ref)
{
	register int int_loc = int_1_par_val + 2;

	*int_par_ref = int_2_par_val + int_loc;
}

void dhry_proc_8(int arr_1_par_ref[50], int arr_2_par_ref[50][50], int int_1_par_val,
		 int int_2_par_val)
{
	register int int_index;
	register int int_loc = int_1_par_val + 5;

	arr_1_par_ref[int_loc] = int_2_par_val;
	arr_1_par_ref[int_loc + 1] = arr_1_par_ref[int_loc];
	arr_1_par_ref[int_loc + 30] = int_loc;
	for (int_index = int_loc; int_index <= int_loc + 1; ++int_index)
		arr_2_par_ref[int_loc][int_index] = int_loc;
	arr_2_par_ref[int_loc][int_loc - 1] += 1;
	arr_2_par_ref[int_loc + 20][int_loc] = arr_1_par_ref[int_loc];
	dhry_int_glob = 5;
}

enum dhry_ident dhry_func_1(char ch_1_par_val, char ch_2_par_val)
{
	register char ch_1_loc = ch_1_par_val;
	register char ch_2_loc = ch_1_loc;

	if (ch_2_loc != ch_2_par_val)
		return DHRY_IDENT_1;
	dhry_ch_1_glob = ch_1_loc;
	return DHRY_IDENT_2;
}

int dhry_func_2(char str_1_par_ref[DHRY_STR_LEN], char str_2_par_ref[DHRY_STR_LEN])
{
	register int int_loc = 2;
	register char ch_loc = 0;

	while (int_loc <= 2) {
		if (dhry_func_1(str_1_par_ref[int_loc], str_2_par_ref[int_loc + 1]) == DHRY_IDENT_1) {
			ch_loc = 'A';
			int_loc += 1;
		}
	}
	if (ch_loc >= 'W' && ch_loc < 'Z')
		int_loc = 7;
	if (ch_loc == 'R')
		return 1;
	if (strcmp(str_1_par_ref, str_2_par_ref) > 0) {
		int_loc += 7;
		dhry_int_glob = int_loc;
		return 1;
	}
	return 0;
}

int dhry_func_3(enum dhry_ident enum_par_val)
{
	register enum dhry_ident enum_loc = enum_par_val;

	return enum_loc == DHRY_IDENT_3;
}

/* One expected value: the sentence names the variable, as Weicker's output does. */
static int dhry_expect(const struct workload_ctx *ctx, const char *what, long got, long want)
{
	if (got == want)
		return 0;
	return wl_fail(ctx, "Dhrystone computed %s = %ld, it should be %ld: the loop is broken.",
		       what, got, want);
}

static int dhry_expect_str(const struct workload_ctx *ctx, const char *what, const char *got,
			   const char *want)
{
	if (strcmp(got, want) == 0)
		return 0;
	return wl_fail(ctx, "Dhrystone computed %s = \"%.40s\", it should be \"%s\".", what, got, want);
}

int dhry_check(const struct workload_ctx *ctx, uint64_t runs)
{
	const struct dhry_record *p = dhry_ptr_glob, *n = dhry_next_ptr_glob;
	/* Arr_2_Glob[8][7] started at 10 and gained one per loop (as an int),
	 * one more if the timer landed after Proc_8 of the unfinished loop. */
	int arr_2 = dhry_arr_2_glob[8][7];
	int arr_2_want = (int)(unsigned)(10u + (unsigned)runs);

	if (runs == 0)
		return 0; /* stopped before the first loop ended: nothing to check */
	if (dhry_expect(ctx, "Int_Glob", dhry_int_glob, 5) ||
	    dhry_expect(ctx, "Ch_1_Glob", dhry_ch_1_glob, 'A') ||
	    dhry_expect(ctx, "Ch_2_Glob", dhry_ch_2_glob, 'B') ||
	    dhry_expect(ctx, "Arr_1_Glob[8]", dhry_arr_1_glob[8], 7) ||
	    dhry_expect(ctx, "Arr_2_Glob[8][7]", arr_2,
			arr_2 == (int)((unsigned)arr_2_want + 1u) ? arr_2 : arr_2_want) ||
	    dhry_expect(ctx, "Ptr_Glob->Discr", p->discr, DHRY_IDENT_1) ||
	    dhry_expect(ctx, "Ptr_Glob->Enum_Comp", p->variant.var_1.enum_comp, DHRY_IDENT_3) ||
	    /* Proc_1 sets it to 5, and Proc_3 (via Proc_7) back to 17. */
	    dhry_expect(ctx, "Ptr_Glob->Int_Comp", p->variant.var_1.int_comp,
			p->variant.var_1.int_comp == 5 ? 5 : 17) ||
	    dhry_expect_str(ctx, "Ptr_Glob->Str_Comp", p->variant.var_1.str_comp,
			    "DHRYSTONE PROGRAM, SOME STRING") ||
	    dhry_expect(ctx, "Next_Ptr_Glob->Discr", n->discr, DHRY_IDENT_1) ||
	    dhry_expect_str(ctx, "Next_Ptr_Glob->Str_Comp", n->variant.var_1.str_comp,
			    "DHRYSTONE PROGRAM, SOME STRING"))
		return -1;
	return 0;
}
