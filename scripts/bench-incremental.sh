#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The global pass after a one-file change, on a copy of the whole-tree
# DB, in one run: the full pass (bkl merge --full), then one file
# (BENCH_FILE, default drivers/char/nvram.c) analyzed again with the
# flags the DB has for it into a shard and merged (bkl audit's step:
# the incremental pass), each timed; the two passes' results are
# compared.  Never fails on timing; skips without a whole-tree DB.
set -u
cd "$(dirname "$0")/.." || exit 0
BKL=$PWD/bkl
: "${BKL_CACHE:=$HOME/.cache/bkl-audit}"
DB=${BKL_DB:-$BKL_CACHE/bkl.db}
FILE=${BENCH_FILE:-drivers/char/nvram.c}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

say() { echo "bench-incremental: $*"; }
now() { date +%s.%N; }

files=$(sqlite3 "$DB" "SELECT count(*) FROM files" 2>/dev/null || echo 0)
if [ "$files" -lt 1000 ]; then
	say "no whole-tree database at $DB ($files files): skipped"
	exit 0
fi
tree=$(sqlite3 "$DB" "SELECT value FROM meta WHERE key = 'audit.tree'")
flags=$(sqlite3 "$DB" "SELECT flags FROM files WHERE path = '$FILE' AND status = 'ok'")
if [ -z "$tree" ] || [ -z "$flags" ] || [ ! -f "$tree/$FILE" ]; then
	say "$FILE is not analyzed in $DB or not in its tree '$tree': skipped"
	exit 0
fi
sqlite3 "$DB" ".backup '$tmp/bench.db'" || exit 0
results() {	# DB: the pass's results, sorted
	sqlite3 "$1" "SELECT file, line, function, kind FROM sites WHERE kind = 'implicit';
		SELECT file_id, function, struct, member, via_function, entry, edge FROM coverage;
		SELECT file, line, function, kind, entry FROM imbalances WHERE entry IS NOT NULL;
		SELECT file, line, function, class, path, origin, by_type FROM chains" | LC_ALL=C sort
}

# the full pass (it writes the snapshot the next one starts from)
t0=$(now)
"$BKL" merge --full --db "$tmp/bench.db" >/dev/null 2>"$tmp/err" || {
	say "bkl merge --full failed:"; tail -3 "$tmp/err"; exit 0; }
t1=$(now)
full=$(echo "$t1 - $t0" | bc)

# one file again, as bkl audit does it: a shard, merged, the pass
read -r -a argv <<<"$flags"
t2=$(now)
(cd "$tree" && "$BKL" analyze --no-resolve -q --db "$tmp/shard.db" "${argv[@]}" "$FILE") \
	>/dev/null 2>"$tmp/err" || { say "bkl analyze $FILE failed:"; tail -3 "$tmp/err"; exit 0; }
t3=$(now)
"$BKL" merge --db "$tmp/bench.db" "$tmp/shard.db" >/dev/null 2>"$tmp/err" || {
	say "bkl merge failed:"; tail -3 "$tmp/err"; exit 0; }
t4=$(now)
how=$(sqlite3 "$tmp/bench.db" "SELECT value FROM meta WHERE key = 'analyzer.last_pass'")
printf 'bench-incremental: %s (%d files): full global pass %.1f s; %s re-analyzed %.1f s + merged with the %s pass %.1f s = %.1f s\n' \
	"$DB" "$files" "$full" "$FILE" "$(echo "$t3 - $t2" | bc)" "$how" \
	"$(echo "$t4 - $t3" | bc)" "$(echo "$t4 - $t2" | bc)"

# the same DB, a full pass: the same results?
results "$tmp/bench.db" >"$tmp/inc"
"$BKL" merge --full --db "$tmp/bench.db" >/dev/null 2>&1
results "$tmp/bench.db" >"$tmp/full"
if cmp -s "$tmp/inc" "$tmp/full"; then
	say "its results are the full pass's ($(wc -l <"$tmp/full") rows)"
else
	say "error: its results differ from the full pass's:"
	diff "$tmp/full" "$tmp/inc" | head -10
	exit 1
fi
exit 0
