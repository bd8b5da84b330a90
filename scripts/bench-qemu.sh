#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bkl test's figures: one driver warm (kernel cached: goal <= 60 s on two
# cores), the same driver after a one-file change to the series (an
# incremental build), and the whole `make qemu-test` run.  Results go to
# a scratch DB.  Never fails on timing; skips what it cannot run.
#
#   BENCH_DRIVER=NAME   the driver of the warm runs (default nvram)
#   BENCH_QEMU_ALL=0    skip the whole run (it boots every driver twice)
set -u
cd "$(dirname "$0")/.." || exit 0
BKL=$PWD/bkl
DRIVER=${BENCH_DRIVER:-nvram}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
BKL_DB=$tmp/bench.db
export BKL_DB

say() { echo "bench-qemu: $*"; }
now() { date +%s.%N; }
secs() { echo "$2 - $1" | bc; }

if ! command -v qemu-system-x86_64 >/dev/null || [ ! -f /usr/src/linux-source-6.1.tar.xz ]; then
	say "no QEMU or no linux-source-6.1: skipped"
	exit 0
fi

# The first run may build the kernel (cold); the second is warm.
t0=$(now)
"$BKL" test --json "$DRIVER" >"$tmp/1.json" 2>&1
t1=$(now)
"$BKL" test --json "$DRIVER" >"$tmp/2.json" 2>&1
t2=$(now)
build=$(sed -n 's/.*"build_seconds":\([0-9.]*\),"build_cached":\([a-z]*\).*/\1 s (cached: \2)/p' "$tmp/1.json")
say "bkl test $DRIVER, first run: $(secs "$t0" "$t1") s (build $build)"
say "bkl test $DRIVER, warm: $(secs "$t1" "$t2") s (goal <= 60 s)"
say "  $(grep -o '"boot_seconds":[0-9.]*' "$tmp/2.json" | head -1), $(grep -o '"accel":"[a-z]*"' "$tmp/2.json" | head -1)"

t3=$(now)
"$BKL" test --json --before "$DRIVER" >"$tmp/3.json" 2>&1
t4=$(now)
say "bkl test --before $DRIVER (its conversion taken out: incremental build): $(secs "$t3" "$t4") s"

if [ "${BENCH_QEMU_ALL:-1}" != 0 ]; then
	t5=$(now)
	"$BKL" test --all --both --json >"$tmp/all.json" 2>&1
	t6=$(now)
	say "make qemu-test (bkl test --all --both): $(secs "$t5" "$t6") s," \
		"$(grep -c '"verdict":"pass"' "$tmp/all.json") boots passed of $(grep -c '"verdict"' "$tmp/all.json")"
fi
exit 0
