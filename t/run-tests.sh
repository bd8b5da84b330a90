#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Run every t/t[0-9]*.sh (or those named) and print the closing line
# "N passed, N failed" that CI reads (", N skipped" after it when tests
# were skipped, each listed above it with the reason).  A script that
# ends before test_done counts as a failure.
cd "$(dirname "$0")" || exit 1
BKL_TEST_RESULTS=$(mktemp)
BKL_TEST_SKIPS=$(mktemp)
export BKL_TEST_RESULTS BKL_TEST_SKIPS
scripts=${*:-$(ls t[0-9]*.sh)}
for t in $scripts; do
	echo "*** $t"
	before=$(wc -l <"$BKL_TEST_RESULTS")
	sh "./$(basename "$t")"
	rc=$?
	if [ "$(wc -l <"$BKL_TEST_RESULTS")" = "$before" ]; then
		echo "*** $t: ended before test_done (exit status $rc): counted as one failure"
		echo "0 1 0" >>"$BKL_TEST_RESULTS"
	fi
done
if [ -s "$BKL_TEST_SKIPS" ]; then
	echo "skipped, and why:"
	sed 's/^/  /' "$BKL_TEST_SKIPS"
fi
awk '{ p += $1; f += $2; s += $3 }
END { printf "%d passed, %d failed", p, f; if (s) printf ", %d skipped", s; printf "\n"; exit f > 0 }' \
	"$BKL_TEST_RESULTS"
rc=$?
rm -f "$BKL_TEST_RESULTS" "$BKL_TEST_SKIPS"
exit $rc
