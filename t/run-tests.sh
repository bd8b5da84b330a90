#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Run every t/t[0-9]*.sh (or those named) and print the closing line
# "N passed, N failed" that CI reads.
cd "$(dirname "$0")" || exit 1
BKL_TEST_RESULTS=$(mktemp)
export BKL_TEST_RESULTS
scripts=${*:-$(ls t[0-9]*.sh)}
for t in $scripts; do
	echo "*** $t"
	sh "./$(basename "$t")"
done
awk '{ p += $1; f += $2; s += $3 }
END { printf "%d passed, %d failed", p, f; if (s) printf ", %d skipped", s; printf "\n"; exit f > 0 }' \
	"$BKL_TEST_RESULTS"
rc=$?
rm -f "$BKL_TEST_RESULTS"
exit $rc
