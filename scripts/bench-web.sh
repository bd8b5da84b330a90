#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Load check of `bkl serve`, on loopback only: 1000 concurrent connections
# against the overview, a subsystem, a driver and the API, for a bounded
# time (wrk), then 1000 requests at once (curl --parallel).  Prints the
# figures; fails only when a request failed or the server died, never on
# timing.  Uses a copy of the campaign DB when there is one
# ($BKL_DB or $BKL_CACHE/bkl.db), else the tests' small fixture.
set -u

: "${BKL_CACHE:=$HOME/.cache/bkl-audit}"
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BKL=$ROOT/bkl
CONNS=${BENCH_WEB_CONNS:-1000}
SECS=${BENCH_WEB_SECONDS:-10}
PATH=$ROOT:$PATH
export PATH

work=$(mktemp -d)
pid=
cleanup() {
	[ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT INT TERM

db=${BKL_DB:-$BKL_CACHE/bkl.db}
drivers=0
if [ -s "$db" ] && sqlite3 "$db" "SELECT 1 FROM sites LIMIT 1" 2>/dev/null | grep -q 1; then
	sqlite3 "$db" ".backup '$work/bkl.db'" || exit 1
	# derive the campaign's drivers on the copy, as any campaign command would
	"$BKL" drivers --db "$work/bkl.db" >/dev/null 2>&1
	drivers=$(sqlite3 "$work/bkl.db" 'SELECT count(*) FROM campaign_drivers' 2>/dev/null)
fi
if [ "${drivers:-0}" -gt 0 ]; then
	echo "bench-web: a copy of the campaign DB ($db, $drivers drivers)"
else
	rm -f "$work/bkl.db"
	TEST_DIRECTORY=$ROOT/t
	set +u	# the tests' libraries expect unset variables to be empty
	. "$ROOT/t/lib-web.sh"
	web_fixture "$work" >/dev/null || { echo "bench-web: cannot build the fixture" >&2; exit 1; }
	BKL_TREE=$work/tree BKL_REPO=$work/repo
	export BKL_TREE BKL_REPO
	echo "bench-web: no campaign DB with drivers in '$db': the tests' fixture"
fi

ulimit -n 8192 2>/dev/null
"$BKL" serve --db "$work/bkl.db" --port 0 >"$work/serve.out" 2>"$work/serve.err" &
pid=$!
i=0
while ! grep -q listening "$work/serve.out" 2>/dev/null; do
	i=$((i + 1))
	[ $i -gt 100 ] && { echo "bench-web: bkl serve did not start:" >&2; cat "$work/serve.err" >&2; exit 1; }
	sleep 0.1
done
base=$(sed -n 's|.*listening on \(http://[^ ]*\)/ .*|\1|p' "$work/serve.out")
sub=$(curl -s "$base/api/report" | sed -n 's/.*"rank": 1, "name": "\([^"]*\)".*/\1/p' | head -1 |
	sed 's/ /%20/g; s|/|%2F|g')
drv=$(sqlite3 "$work/bkl.db" "SELECT driver FROM campaign_drivers ORDER BY driver LIMIT 1")
urls="/ /pick /api/report /static/style.css ${sub:+/subsystem/$sub} ${drv:+/driver/$drv}"
fail=0

if command -v wrk >/dev/null; then
	for u in $urls; do
		wrk -t2 -c"$CONNS" -d"${SECS}s" --timeout 30s "$base$u" >"$work/wrk.out" 2>&1
		rps=$(sed -n 's/^Requests\/sec: *//p' "$work/wrk.out")
		lat=$(awk '/^ *Latency/ { print $2 " avg, " $4 " max" }' "$work/wrk.out")
		total=$(sed -n 's/^ *\([0-9]*\) requests in.*/\1/p' "$work/wrk.out")
		errs=$(sed -n 's/^ *Socket errors: //p; s/^ *Non-2xx or 3xx responses: /non-2xx /p' "$work/wrk.out" | tr '\n' ' ')
		printf 'bench-web: wrk %4d conns %3ss %-28s %8s req/s  %s requests  latency %s  %s\n' \
			"$CONNS" "$SECS" "$u" "$rps" "$total" "$lat" "${errs:-no errors}"
		[ -n "$errs" ] && fail=1
		if [ -z "$total" ] || [ "$total" = 0 ]; then
			echo "bench-web:   no answer in ${SECS}s:"; sed 's/^/bench-web:   /' "$work/wrk.out"
			fail=1
		fi
	done
else
	echo "bench-web: wrk not installed (apt-get install wrk): only the curl check"
fi

# 1000 requests in flight at once, each checked
n=0
: >"$work/urls"
while [ $n -lt "$CONNS" ]; do
	for u in $urls; do
		echo "url = \"$base$u\"" >>"$work/urls"
		echo "output = /dev/null" >>"$work/urls"
		n=$((n + 1))
	done
done
start=$(date +%s.%N)
curl -s --parallel --parallel-immediate --parallel-max "$CONNS" -K "$work/urls" \
	-w '%{http_code}\n' >"$work/codes" 2>"$work/curl.err"
end=$(date +%s.%N)
ok=$(grep -c '^200$' "$work/codes")
printf 'bench-web: curl --parallel %d requests at once: %d answered 200 in %.2f s\n' \
	"$n" "$ok" "$(echo "$end - $start" | bc)"
[ "$ok" = "$n" ] || { fail=1; sort "$work/codes" | uniq -c | sed 's/^/bench-web:   /'; }

if ! kill -0 "$pid" 2>/dev/null; then
	echo "bench-web: error: the server died" >&2
	cat "$work/serve.err" >&2
	fail=1
elif ! curl -sf -o /dev/null "$base/"; then
	echo "bench-web: error: the server no longer answers" >&2
	fail=1
fi
[ $fail = 0 ] && echo "bench-web: no errors"
[ $fail = 0 ] || { echo "bench-web: the server's messages:"; tail -n 20 "$work/serve.err" | sed 's/^/bench-web:   /'; }
exit $fail
