// SPDX-License-Identifier: GPL-2.0
/* bkl_rmw.c before its conversion: the BKL pushed down into open(). */
#define BKL_RMW_PUSHED
#define BKL_RMW_NAME "bkl_rmw_pushed"
#include "bkl_rmw.c"
