/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BKL_CAMPAIGN_CHECK_H
#define BKL_CAMPAIGN_CHECK_H

#include <sqlite3.h>

/*
 * Print every lock_kernel() a push-down in the series adds outside a
 * registered char device's open()/fasync() (or in a file the DB lacks),
 * then a summary line.  0: none; 1: some; -1 after error().
 */
int campaign_check_series(sqlite3 *db, const char *patches_dir, const char *tree);

#endif
