// SPDX-License-Identifier: GPL-2.0
/* bkl_race.c, fixed: initialize first, then register the device. */
#define BKL_RACE_FIXED
#define BKL_RACE_NAME "bkl_race_fixed"
#include "bkl_race.c"
