#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bkl audit with one analyzer process and with two, on the same fixed
# sample of the configured work tree (every k-th file that allmodconfig
# builds under drivers/char, drivers/tty and fs), each into a new
# database: the speed-up of -j2 over -j1 in this run.  Then the size of
# the audit's first tier (drivers/char, drivers/tty, fs) and the time to
# its first report at the -j2 rate measured here.  Never fails on timing.
#
#   BENCH_AUDIT_FILES=N   the sample's size (default 60)
set -u
cd "$(dirname "$0")/.." || exit 0
BKL=$PWD/bkl
: "${BKL_CACHE:=$HOME/.cache/bkl-audit}"
export BKL_CACHE
N=${BENCH_AUDIT_FILES:-60}
SCOPE="drivers/char drivers/tty fs"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

say() { echo "bench-audit: $*"; }
now() { date +%s.%N; }

# shellcheck source=scripts/bench-lib.sh
. scripts/bench-lib.sh
# shellcheck disable=SC2086
bench_sample "$N" $SCOPE || exit 0
cut -f1 "$tmp/sample.tsv" >"$tmp/sample"

run() {	# JOBS: seconds of a fresh audit of the sample
	local t0 t1

	t0=$(now)
	# shellcheck disable=SC2046
	"$BKL" audit -j "$1" --db "$tmp/j$1.db" $(cat "$tmp/sample") \
		>"$tmp/j$1.out" 2>"$tmp/j$1.err" || {
		say "bkl audit -j $1 failed:"
		sed 's/^/  /' "$tmp/j$1.err" | tail -5
		return 1
	}
	t1=$(now)
	echo "$t1 - $t0" | bc
}
j1=$(run 1) || exit 0
j2=$(run 2) || exit 0
printf 'bench-audit: %d files (every %dth of %d built in %s): -j1 %.1f s, -j2 %.1f s, speed-up %.2f on %d CPUs\n' \
	"$n" "$step" "$total" "$SCOPE" "$j1" "$j2" "$(echo "$j1 / $j2" | bc -l)" "$(nproc)"

# The first tier of a whole-tree audit, and when its report would come.
if "$BKL" audit --plan --force --db "$tmp/plan.db" >"$tmp/plan" 2>"$tmp/err"; then
	tier0=$(awk -F'\t' '$1 == 0' "$tmp/plan" | wc -l)
	all=$(wc -l <"$tmp/plan")
	printf 'bench-audit: the whole tree: %d files, %d in the first tier; at -j2 this run'\''s rate, its report after about %.0f min\n' \
		"$all" "$tier0" "$(echo "$j2 / $n * $tier0 / 60" | bc -l)"
else
	say "no plan of the whole tree:"
	sed 's/^/  /' "$tmp/err" | tail -3
fi
exit 0
