// SPDX-License-Identifier: GPL-2.0
/* bkl_flush.c, fixed: flush in release(), where the BKL is not held. */
#define BKL_FLUSH_FIXED
#define BKL_FLUSH_NAME "bkl_flush_fixed"
#include "bkl_flush.c"
