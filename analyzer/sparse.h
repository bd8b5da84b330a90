/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BKL_ANALYZER_SPARSE_H
#define BKL_ANALYZER_SPARSE_H

/*
 * sparse's headers, under the names bkl links them by: libsparse's die(),
 * warning() and info() are renamed sparse_*() in libsparse-bkl.a (see
 * scripts/setup.sh) so that bkl's own die()/warning() (lib/usage.h) keep
 * their meaning.  Include this, never sparse's lib.h directly.
 */
#define die sparse_die
#define warning sparse_warning
#define info sparse_info
#include "lib.h"
#include "allocate.h"
#include "token.h"
#include "parse.h"
#include "symbol.h"
#include "expression.h"
#include "linearize.h"
#include "flow.h"
#undef die
#undef warning
#undef info

#include "lib/usage.h"

#endif
