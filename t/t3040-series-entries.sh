#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
test_description='the committed series: every push-down goes into a registered char device open()/fasync()'
. ./test-lib.sh

# The real cache: the work tree and this test's DB are kept there, so a
# second run analyzes only what the series changed.
: "${BKL_CACHE:=$HOME/.cache/bkl-audit}"
export BKL_CACHE
# One DB per schema version: a bkl of another version (an older clone
# on the same cache) neither refuses this one nor reads facts it lacks.
DB=$BKL_CACHE/series-check-v$(ls "$BKL_ROOT"/db/schema/*.sql | wc -l).db
PATCHES=$BKL_ROOT/patches

test -f /usr/src/linux-source-6.1.tar.xz && test_set_prereq LINUX_SOURCE
test_need_program PYTHON3 python3 python3

# What the push-downs change, and every file their changelogs name as
# evidence (the registration, the call made with the BKL held): the DB
# must hold those facts itself.
series_files() {
	grep "^drivers/.*/0001-.*push-down" "$PATCHES/series" | while read -r p; do
		grep "^+++ b/" "$PATCHES/$p" | sed "s|^+++ b/||"
		sed -n "/^Entry points:/,/^Signed-off-by:/p" "$PATCHES/$p" | tr -s "\n " "  " |
			grep -o " at [A-Za-z0-9_/.,+-]*\.c:[0-9]*" | sed "s/^ at //; s/:[0-9]*$//"
	done | sort -u
}

test_expect_success LINUX_SOURCE 'the work tree has the series' '
	bkl tree >out &&
	grep "patches applied" out
'

test_expect_success LINUX_SOURCE 'every push-down names its registration and its caller' '
	n=0 &&
	for p in $(grep "^drivers/.*/0001-.*push-down" "$PATCHES/series"); do
		sed -n "/^Entry points:/,/^Signed-off-by:/p" "$PATCHES/$p" | tr -s "\n " "  " >eps &&
		grep -q "\(registered by [a-z0-9_]*()\|stored in [a-z0-9_]*\.[a-z0-9_]*\) at [^ ]*:[0-9]*, called by [a-z0-9_]*() at [^ ]*:[0-9]*" eps ||
		{ echo "patches/$p: no registration and caller in its changelog"; n=$((n + 1)); }
	done &&
	test $n = 0
'

test_expect_success LINUX_SOURCE 'the files the series touches and names are analyzed' '
	series_files >files &&
	test "$(wc -l <files)" -gt 100 &&
	(cd "$BKL_CACHE/linux/work" && bkl audit --db "$DB" $(cat "$TRASH_DIRECTORY/files")) >audit.out &&
	grep "^audit: database:" audit.out
'

test_expect_success LINUX_SOURCE 'no push-down outside a registered char device open()/fasync()' '
	bkl pushdown --check --db "$DB" >out || { cat out; false; } &&
	grep "^series: [0-9]* push-downs, [0-9]* lock_kernel() added, 0 outside a registered char device open()/fasync(), 0 not in the DB$" out
'

test_expect_success 'every patch an audit record cites is in the series' '
	grep -ho "drivers/[a-z0-9_-]*/000[0-9]-[A-Za-z0-9_.-]*\.patch" "$BKL_ROOT"/drivers-audit/*/*.md |
		sort -u >cited &&
	test -s cited &&
	n=0 &&
	while read -r p; do
		grep -qxF "$p" "$PATCHES/series" && test -f "$PATCHES/$p" ||
			{ echo "a record cites patches/$p, which is not in the series"; n=$((n + 1)); }
	done <cited &&
	test $n = 0
'

test_expect_success LINUX_SOURCE 'every file:line a push-down cites holds what it names, where the patch stands' '
	"$BKL_ROOT/scripts/check-citations.sh" "$PATCHES" >out 2>&1 ||
		{ cat out; exit 1; }
	tail -n 1 out | grep "^[0-9]* citations in [0-9]* push-downs, 0 wrong$"
'

test_expect_success LINUX_SOURCE 'every none conversion gives back its driver exactly as before the push-down' '
	"$BKL_ROOT/scripts/check-conversions.sh" "$PATCHES" >out 2>&1 ||
		{ cat out; exit 1; }
	tail -n 1 out >last &&
	n=$(grep -c "^drivers/.*/0002-.*-remove-the-BKL-from-" "$PATCHES/series") &&
	grep "^$n none conversions, $n restore their driver exactly$" last
'

test_expect_success 'every conversion is exercised in QEMU, or says what QEMU lacks' '
	grep "^drivers/.*/0002-" "$PATCHES/series" | cut -d/ -f2 | sort -u >converted &&
	: >unsaid &&
	while read -r d; do
		test -f "$BKL_ROOT/qemu-tests/drivers/$d.test" ||
			grep -q "^$d	." "$BKL_ROOT/qemu-tests/unexercised" ||
			echo "$d" >>unsaid
	done <converted &&
	{ test ! -s unsaid || { cat unsaid; false; }; }
'

test_expect_success LINUX_SOURCE,PYTHON3 'every push-down puts smp_lock.h among the <...> includes, before local ones' '
	"$BKL_ROOT/scripts/place-includes.py" --check "$PATCHES" >out 2>&1 ||
		{ cat out; exit 1; }
	grep "^0 patches to change$" out
'

test_expect_success LINUX_SOURCE 'the whole series against 6.1: the BKL, the fixes, and the drivers it still holds' '
	"$BKL_ROOT/scripts/series-diffstat.sh" "$PATCHES" >out 2>&1 || { cat out; false; } &&
	cat out &&
	grep "^ include/linux/smp_lock.h  *+[0-9]* -0  *infrastructure$" out &&
	! grep "^ fs/char_dev.c \|^ fs/fcntl.c \|^ drivers/char/misc.c " out &&
	grep "^[0-9]* files: [0-9]* infrastructure, [0-9]* fixes, [0-9]* layout, [0-9]* still holding the BKL, 0 unexplained$" out
'

test_done
