#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
test_description='the committed series: checkpatch.pl finds nothing in any patch'
. ./test-lib.sh

# The pristine tree's checkpatch.pl with the flags bkl pushdown and bkl
# convert check their patches with (campaign/patch.c), less -q so
# that each patch at fault is named.  That the series applies to the
# real 6.1 is t0100's last test (bkl tree --check).
CHECKPATCH=${BKL_CACHE:-$HOME/.cache/bkl-audit}/linux/pristine/scripts/checkpatch.pl
test -f "$CHECKPATCH" && command -v perl >/dev/null && test_set_prereq CHECKPATCH

test_expect_success CHECKPATCH 'every patch in patches/series passes checkpatch.pl' '
	grep -v "^#\\|^$" "$BKL_ROOT/patches/series" >series &&
	test "$(wc -l <series)" -gt 0 &&
	(cd "$BKL_ROOT/patches" && xargs perl "$CHECKPATCH" --no-tree --no-summary) \
		<series >out 2>&1 || :
	grep "has style problems" out >bad || :
	test "$(grep -c "has no obvious style problems" out)" = $(($(wc -l <series) - $(wc -l <bad))) &&
	if test -s bad; then cat bad; grep -B1 -A3 "^\(ERROR\|WARNING\|CHECK\):" out | head -40; exit 1; fi
'

test_done
