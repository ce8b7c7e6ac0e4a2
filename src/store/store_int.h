/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the run store's two files share (store.c, store_names.c); nothing else includes it. */
#ifndef KBENCH_STORE_INT_H
#define KBENCH_STORE_INT_H

struct storeidx_row;

/* Adds a row of the index to a list: arg is { struct store_list *, int *capacity }. Returns 0. */
int store_add_row(const struct storeidx_row *row, void *arg);

#endif
