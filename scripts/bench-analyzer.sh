#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The analyzer's cost next to bare sparse: the same real kernel files,
# with the same flags (Kbuild's, from `bkl audit --show-flags`), one
# process per file each, alternating, on the configured work tree.
# Prints the ratio (goal: bkl analyze <= 1.15 x sparse), then the time of
# `bkl chains` and of the global pass over the whole-tree DB if there is
# one.  Never fails on timing; skips what it cannot measure.
#
#   BENCH_FILES=N   how many files (default 300)
#   BENCH_SCOPE     where to take them from (default "drivers fs kernel net sound mm")
set -u
cd "$(dirname "$0")/.." || exit 0
BKL=$PWD/bkl
: "${BKL_CACHE:=$HOME/.cache/bkl-audit}"
export BKL_CACHE
SPARSE_DIR=$BKL_CACHE/sparse/sparse-0.6.4
SPARSE=$SPARSE_DIR/sparse
N=${BENCH_FILES:-300}
SCOPE=${BENCH_SCOPE:-drivers fs kernel net sound mm}
TREE=$BKL_CACHE/linux/work
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

say() { echo "bench-analyzer: $*"; }
now() { date +%s.%N; }

if [ ! -x "$SPARSE" ] && ! make -C "$SPARSE_DIR" sparse >/dev/null 2>&1; then
	say "no sparse binary in $SPARSE_DIR: skipped"
	exit 0
fi
# Configures the tree (allmodconfig) the first time: a minute or two.
# Files this configuration builds, spread evenly over the scope.
# shellcheck source=scripts/bench-lib.sh
. scripts/bench-lib.sh
# shellcheck disable=SC2086
bench_sample "$N" $SCOPE || exit 0

cd "$TREE" || exit 0
t_sparse=0 t_bkl=0 failed=0
while IFS=$'\t' read -r -a a; do
	file=${a[0]}
	flags=("${a[@]:2}")
	t0=$(now)
	"$SPARSE" "${flags[@]}" "$file" >/dev/null 2>&1
	t1=$(now)
	"$BKL" analyze --no-resolve -q --db "$tmp/bench.db" "${flags[@]}" "$file" \
		>/dev/null 2>&1 || failed=$((failed + 1))
	t2=$(now)
	t_sparse=$(echo "$t_sparse + $t1 - $t0" | bc)
	t_bkl=$(echo "$t_bkl + $t2 - $t1" | bc)
done <"$tmp/sample.tsv"
ratio=$(echo "scale=3; $t_bkl / $t_sparse" | bc)
printf 'bench-analyzer: %d files (of %d built in %s): sparse %.1f s (%.3f s/file), bkl analyze %.1f s (%.3f s/file), %d not analyzed\n' \
	"$n" "$total" "$SCOPE" "$t_sparse" "$(echo "$t_sparse / $n" | bc -l)" \
	"$t_bkl" "$(echo "$t_bkl / $n" | bc -l)" "$failed"
verdict=ok
[ "$(echo "$ratio > 1.15" | bc)" = 1 ] && verdict="over the goal"
say "ratio bkl analyze / sparse: $ratio (goal <= 1.15: $verdict)"
say "  (sparse is Debian's, as built; bkl links analyzer/blob.c in place of its mmap-per-blob allocator)"

# The whole-tree DB, if `make audit` made one.
DB=${BKL_DB:-$BKL_CACHE/bkl.db}
files=$(sqlite3 "$DB" "SELECT count(*) FROM files" 2>/dev/null || echo 0)
if [ "$files" -lt 1000 ]; then
	say "no whole-tree database at $DB ($files files): bkl chains not timed"
	exit 0
fi
t0=$(now)
chains=$("$BKL" chains --db "$DB" 2>/dev/null | wc -l)
t1=$(now)
printf 'bench-analyzer: bkl chains over %s (%d files): %.1f s, %d lines\n' \
	"$DB" "$files" "$(echo "$t1 - $t0" | bc)" "$chains"
sqlite3 "$DB" ".backup '$tmp/resolve.db'" 2>/dev/null && {
	t0=$(now)
	"$BKL" merge --db "$tmp/resolve.db" >/dev/null 2>&1
	t1=$(now)
	printf 'bench-analyzer: the global pass (bkl merge, no shard) over it: %.1f s\n' \
		"$(echo "$t1 - $t0" | bc)"
}
exit 0
