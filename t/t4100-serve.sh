#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
test_description='bkl serve: pages, API, claims with CSRF, and bad requests'
. ./test-lib.sh
. "$TEST_DIRECTORY/lib-web.sh"

test_need_program CURL curl curl
test_need_program BASH bash bash

# claims append to the repository's campaign log: the fixture's, not ours
BKL_TREE=$PWD/fx/tree BKL_REPO=$PWD/fx/repo BKL_DB=$PWD/fx/bkl.db
# other locks' databases: $BKL_CACHE/NAME.db, the fixture's
BKL_CACHE=$PWD/cache
export BKL_TREE BKL_REPO BKL_DB BKL_CACHE

server_pid=
stop_server() {
	if [ -n "$server_pid" ]; then
		kill "$server_pid" 2>/dev/null
		wait "$server_pid" 2>/dev/null
		server_pid=
	fi
}
trap stop_server EXIT INT TERM

# Start bkl serve on a free loopback port; BASE is its URL.
start_server() {
	BKL_WEB_SYNC_SECONDS=1 bkl serve --port 0 "$@" >serve.out 2>serve.err &
	server_pid=$!
	i=0
	while ! grep -q "listening on" serve.out 2>/dev/null; do
		i=$((i + 1))
		if [ $i -gt 100 ] || ! kill -0 "$server_pid" 2>/dev/null; then
			cat serve.err
			return 1
		fi
		sleep 0.1
	done
	BASE=$(sed -n 's|.*listening on \(http://[^ ]*\)/ .*|\1|p' serve.out)
}

# code URL [curl args]: the status code only
code() {
	u=$1; shift
	curl -s -o /dev/null -w "%{http_code}" --max-time 20 "$@" "$BASE$u"
}

# A raw request on a socket (bash's /dev/tcp): the status line.
raw() {
	bash -c 'exec 3<>"/dev/tcp/127.0.0.1/$1" || exit 1
		printf "%b" "$2" >&3; timeout 20 head -n 1 <&3' raw "$PORT" "$1" | tr -d '\r'
}

test_expect_success 'setup: a small campaign' '
	web_fixture "$PWD/fx"
'
# Started here, not in a test's subshell, so that the server is our child
# and BASE is set for the tests below.  A server that does not start is
# our failure: the next test fails, and so do those that talk to it.
BASE=
test_have_prereq CURL && start_server >serve.start 2>&1
PORT=${BASE##*:}

test_expect_success CURL 'bkl serve starts, and says where it listens' '
	cat serve.start &&
	test -n "$BASE" &&
	kill -0 "$server_pid"
'

test_expect_success CURL 'it listens on loopback only by default' '
	grep "^bkl serve: listening on http://127\.0\.0\.1:[0-9]*/ " serve.out
'

test_expect_success CURL 'the overview: totals, burn-down, subsystems by work left' '
	curl -sf "$BASE/" >page &&
	grep "<h1>Big Kernel Lock removal: where the campaign stands</h1>" page &&
	under=$(bkl report --format json | sed -n "s/.*\"under_bkl\": \([0-9]*\),.*/\1/p" | head -1) &&
	test "$under" -gt 0 &&
	grep -o "<div class=\"n\"><a href=\"/pick\">$under</a></div><div class=\"l\">drivers still under the BKL" page &&
	grep "<svg class=\"chart\"" page &&
	grep "the last driver leaves the BKL on <b>20" page &&
	grep -o "<a href=\"/subsystem/[^\"]*\">[^<]*</a>" page >subs &&
	head -1 subs | grep "CHAR%20and%20MISC%20DRIVERS" &&
	grep "/subsystem/ARM%2FZAP%20%3Cb%3E%26amp%3B%20DRIVER\">ARM/ZAP &lt;b&gt;&amp;amp; DRIVER</a>" subs
'

test_expect_success CURL 'every page has the security headers' '
	curl -sI "$BASE/" >h &&
	grep -i "^content-security-policy: default-src .none.; style-src .self.; script-src .self." h &&
	grep -i "^x-content-type-options: nosniff" h &&
	grep -i "^x-frame-options: DENY" h
'

test_expect_success CURL 'a subsystem, with a slash and markup in its name' '
	curl -sf "$BASE/subsystem/ARM%2FZAP%20%3Cb%3E%26amp%3B%20DRIVER" >page &&
	grep "<h1>ARM/ZAP &lt;b&gt;&amp;amp; DRIVER</h1>" page &&
	grep "<a href=\"/driver/zap\">zap</a>" page &&
	curl -sf "$BASE/subsystem/FOO%20DRIVER" >page &&
	grep "<h1>FOO DRIVER</h1>" page &&
	grep "<td>Ann Dev &lt;ann@example.org&gt;</td><td>2024-01-02T10:00:00Z</td>" page &&
	grep "foo-devel@example.org" page
'

test_expect_success CURL 'a driver: chains with source, imbalances, escaped' '
	curl -sf "$BASE/driver/nvram" >page &&
	grep "<h1>nvram <span class=\"status unclaimed\">unclaimed</span></h1>" page &&
	grep "<span class=\"hit\"><i>28</i>	msleep(10);</span>" page &&
	grep "<code>nvram_ioctl</code><span class=\"arrow\">.*</span><code>nvram_wait_ready</code>" page &&
	grep "&lt;script&gt;alert(1)&lt;/script&gt; &amp; the lock leaks" page &&
	! grep "<script>alert" page &&
	grep "drivers-audit/char-and-misc-drivers/nvram.md" page &&
	curl -sf "$BASE/driver/empty" >page &&
	grep "<td>2024-03-01T10:00:00Z</td><td>status</td><td><span class=\"status done\">done</span></td>" page
'

test_expect_success CURL 'the API mirrors the CLI --json' '
	curl -sf "$BASE/api/report" | grep -v "^\"generated\"" >api.json &&
	bkl report --format json | grep -v "^\"generated\"" >cli.json &&
	test_cmp cli.json api.json &&
	curl -sf "$BASE/api/subsystem/FOO%20DRIVER" | grep -v "^\"generated\"" >api.json &&
	bkl report --subsystem "FOO DRIVER" --format json | grep -v "^\"generated\"" >cli.json &&
	test_cmp cli.json api.json &&
	curl -sf "$BASE/api/pick" >api.json && bkl pick --json -n 0 >cli.json && test_cmp cli.json api.json &&
	grep "\"driver\":\"waiter\"" api.json &&
	curl -sf "$BASE/api/drivers" >api.json && bkl drivers --json >cli.json && test_cmp cli.json api.json &&
	curl -sf "$BASE/api/log/empty" >api.json && bkl log --json empty >cli.json && test_cmp cli.json api.json &&
	curl -sf "$BASE/api/chains" >api.json && bkl chains --json >cli.json && test_cmp cli.json api.json &&
	curl -sf "$BASE/api/sites" >api.json && bkl sites --json >cli.json && test_cmp cli.json api.json &&
	curl -sf "$BASE/api/imbalances" >api.json && bkl imbalance --json >cli.json && test_cmp cli.json api.json &&
	curl -sI "$BASE/api/report" | grep -i "^content-type: application/json"
'

test_expect_success CURL 'unknown things are 404s' '
	test $(code /driver/nope) = 404 &&
	test $(code /subsystem/NOPE) = 404 &&
	test $(code /api/driver/nope) = 404 &&
	test $(code /api/log/nope) = 404 &&
	curl -s "$BASE/api/driver/nope" | grep "^{\"error\": \"no such driver\"}$" &&
	test $(code /nope) = 404 &&
	test $(code /driver/) = 404 &&
	test $(code /static/nope.css) = 404 &&
	test $(code /static/style.css) = 200
'

test_expect_success CURL 'other locks: the profiles, and an audited one as a page' '
	mkdir -p rt cache && cp "$BKL_ROOT/analyzer/validation/rtnl.c" rt/ &&
	(cd rt && bkl analyze -q --lock-profile rtnl --db "$BKL_CACHE/rtnl.db" rtnl.c) &&
	curl -sf "$BASE/locks" >locks.html &&
	grep "<a href=\"/lock/rtnl\">rtnl</a></td><td>1</td>" locks.html &&
	grep "<tr><td>console</td><td class=\"muted\">not audited" locks.html &&
	grep "<a href=\"/lock/bkl\">bkl</a>" locks.html &&
	curl -sf "$BASE/lock/rtnl" >rtnl.html &&
	grep "<h1>rtnl</h1>" rtnl.html &&
	bkl report --lock rtnl --db "$BKL_CACHE/rtnl.db" | sed -n "1s/^lock rtnl: //p" >summary &&
	grep "^1 files analyzed (0 failed): .* chains .*(. precise: no call by type, every file built)$" summary &&
	grep -F "<p>$(cat summary).</p>" rtnl.html &&
	grep "<tr><td><code>\.</code></td>" rtnl.html &&
	grep "<code>rtnl.c:27</code> <code>dev_change</code> <span class=\"kind wait\">wait</span>" rtnl.html &&
	grep "<code>rtnl.c:27: dev_change</code> calls <code>flush_workqueue</code> (direct)" rtnl.html &&
	grep "<li><code>rtnl.c:[0-9]*</code> <code>dev_change</code> <span class=\"kind\">return-held</span></li>" rtnl.html &&
	test $(code /lock/console) = 404 &&
	test $(code /lock/..%2Frtnl) = 404 &&
	test $(code "/lock/a%3Cb%3E") = 404
'

test_expect_success CURL 'static files cannot leave their folder' '
	test $(code /static/../../etc/passwd --path-as-is) = 404 &&
	test $(code /static/..%2F..%2Fetc%2Fpasswd) = 404 &&
	test $(code /static/%2e%2e/%2e%2e/etc/passwd --path-as-is) = 404 &&
	test $(code /static//etc/passwd --path-as-is) = 404 &&
	! curl -s --path-as-is "$BASE/static/../../etc/passwd" | grep "root:"
'

test_expect_success CURL 'a claim without the token is refused (403), nothing changes' '
	test $(code /claim -d "driver=nvram&by=Eve+%3Ceve%40example.org%3E") = 403 &&
	test $(code /claim -b "bkl_csrf=0123456789abcdef0123456789abcdef" \
		-d "driver=nvram&by=Eve+%3Ceve%40example.org%3E&csrf=00") = 403 &&
	test -z "$(sqlite3 "$BKL_DB" "SELECT 1 FROM campaign_log WHERE driver = '\''nvram'\''")"
'

test_expect_success CURL 'a token for another cookie, or from another origin, is refused' '
	curl -s -c jar "$BASE/pick" >pick.html &&
	token=$(sed -n "s/.*name=\"csrf\" value=\"\([0-9a-f]*\)\".*/\1/p" pick.html | head -1) &&
	test ${#token} = 64 &&
	test $(code /claim -b "bkl_csrf=0123456789abcdef0123456789abcdef" \
		--data-urlencode "csrf=$token" -d driver=nvram --data-urlencode "by=Eve <eve@example.org>") = 403 &&
	test $(code /claim -b jar -H "Origin: http://evil.example" \
		--data-urlencode "csrf=$token" -d driver=nvram --data-urlencode "by=Eve <eve@example.org>") = 403 &&
	test -z "$(sqlite3 "$BKL_DB" "SELECT 1 FROM campaign_log WHERE driver = '\''nvram'\''")"
'

test_expect_success CURL 'the cookie is HttpOnly and SameSite=Strict' '
	curl -sI "$BASE/pick" | grep -i "^set-cookie: bkl_csrf=[0-9a-f]\{32\}; Path=/; HttpOnly; SameSite=Strict"
'

test_expect_success CURL 'a claim with the token does what bkl claim does' '
	token=$(sed -n "s/.*name=\"csrf\" value=\"\([0-9a-f]*\)\".*/\1/p" pick.html | head -1) &&
	curl -s -o /dev/null -D hdr -b jar --data-urlencode "csrf=$token" -d driver=nvram \
		--data-urlencode "by=Jo Dev <jo@example.org>" "$BASE/claim" &&
	grep "^HTTP/1.1 303" hdr &&
	grep -i "^location: /driver/nvram" hdr &&
	test "$(sqlite3 "$BKL_DB" "SELECT status, holder, who FROM campaign_state WHERE driver = '\''nvram'\''")" = \
		"claimed|Jo Dev <jo@example.org>|Jo Dev <jo@example.org>" &&
	grep "	nvram	claim	claimed	Jo Dev <jo@example.org>	" fx/repo/drivers-audit/campaign.log &&
	curl -sf "$BASE/driver/nvram" | grep "<h1>nvram <span class=\"status claimed\">claimed</span></h1>" &&
	! curl -sf "$BASE/pick" | grep "name=\"driver\" value=\"nvram\""
'

test_expect_success CURL 'a second claim, a bad name, an unknown driver' '
	token=$(sed -n "s/.*name=\"csrf\" value=\"\([0-9a-f]*\)\".*/\1/p" pick.html | head -1) &&
	test $(code /claim -b jar --data-urlencode "csrf=$token" -d driver=nvram \
		--data-urlencode "by=Eve <eve@example.org>") = 409 &&
	curl -s -b jar --data-urlencode "csrf=$token" -d driver=nvram \
		--data-urlencode "by=Eve <eve@example.org>" "$BASE/claim" |
		grep "nvram&#39; is claimed by Jo Dev &lt;jo@example.org&gt; since" &&
	test $(code /claim -b jar --data-urlencode "csrf=$token" -d driver=zap -d by=eve) = 400 &&
	test $(code /claim -b jar --data-urlencode "csrf=$token" -d driver=empty \
		--data-urlencode "by=Eve <eve@example.org>") = 409 &&
	test $(code /claim -b jar --data-urlencode "csrf=$token" -d driver=nope \
		--data-urlencode "by=Eve <eve@example.org>") = 404 &&
	test "$(sqlite3 "$BKL_DB" "SELECT count(*) FROM campaign_log WHERE who LIKE '\''Eve%'\''")" = 0
'

test_expect_success CURL 'wrong methods are 405' '
	test $(code / -X PUT) = 405 &&
	test $(code / -X DELETE) = 405 &&
	test $(code /claim) = 405 &&
	test $(code / -d x=1) = 405
'

test_expect_success CURL 'big POST bodies are refused (413), with or without a length' '
	head -c 1048576 /dev/zero | tr "\0" a >big &&
	test $(code /claim --data-binary @big) = 413 &&
	test $(code /claim -H "Transfer-Encoding: chunked" --data-binary @big) = 413 &&
	test $(code /claim -H "Content-Length: 99999999999" -d x) = 413
'

# the status line, or nothing when the server just closed the connection
refused() {	# REQUEST STATUS-REGEX
	raw "$1" >status &&
	{ ! test -s status || grep "^HTTP/1.1 $2" status || { cat status; false; }; }
}

test_expect_success CURL,BASH 'malformed requests get an error, not a crash' '
	refused "GARBAGE\r\n\r\n" 400 &&
	refused "GET / HTTP/9.9\r\nHost: 127.0.0.1\r\n\r\n" 505 &&
	raw "GET / HTTP/1.1\r\n\r\n" | grep "^HTTP/1.1 400" &&
	raw "GET /%zz%00 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" | grep "^HTTP/1.1 400" &&
	raw "POST /claim HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: -5\r\n\r\n" | grep "^HTTP/1.1 400" &&
	head -c 100000 /dev/zero | tr "\0" a >longurl &&
	# the server answers 414 and closes while the client may still be
	# writing the 100 KB line: a reset can eat the answer, so up to 3 tries
	for i in 1 2 3; do
		raw "GET /$(cat longurl) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" >long.out
		grep "^HTTP/1.1 414" long.out && break
	done &&
	grep "^HTTP/1.1 414" long.out &&
	test $(code /) = 200
'

test_expect_success CURL 'a NUL or a control character in the path is 400, not a cut path' '
	test $(code /static/style.css) = 200 &&
	test $(code /static/style.css%00.js) = 400 &&
	test $(code /driver/foo%00) = 400 &&
	test $(code /api/log/foo%0a) = 400
'

test_expect_success CURL 'too many query arguments: 414 at once, from 17 to 12,000 of them' '
	for n in 17 999 2000 12000; do
		q=$(awk -v n=$n "BEGIN { for (i = 0; i < n; i++) printf \"%sa%d=1\", i ? \"&\" : \"\", i }") &&
		test "$(curl -s -o /dev/null -w "%{http_code}" --max-time 5 "$BASE/api/drivers?$q")" = 414 ||
			{ echo "$n arguments"; exit 1; }
	done &&
	test $(code "/?a=1") = 200
'

test_expect_success CURL 'the API answers from its cache while the DB is unchanged: no command per request' '
	test $(code /api/drivers) = 200 &&
	curl -sf "$BASE/api/drivers" >cached.json &&
	{ (echo "BEGIN IMMEDIATE;"; sleep 6; echo "COMMIT;") | sqlite3 "$BKL_DB" & } &&
	holder=$! && sleep 0.5 &&
	curl -sf --max-time 4 "$BASE/api/drivers" >while-locked.json &&
	test_cmp cached.json while-locked.json &&
	wait $holder
'

test_expect_success CURL 'another Host (DNS rebinding) is refused' '
	test $(code / -H "Host: evil.example") = 400 &&
	test $(code /api/report -H "Host: evil.example:$PORT") = 400 &&
	test $(code / -H "Host: localhost:$PORT") = 200
'

test_expect_success CURL 'bound to another loopback address, its own name is its Host' '
	BKL_WEB_SYNC_SECONDS=3600 bkl serve --bind 127.0.0.2 --port 0 >b2.out 2>b2.err &
	b2=$! && i=0 &&
	until grep -q "listening on" b2.out; do
		i=$((i + 1)) && test $i -lt 100 && sleep 0.1 || { kill $b2; cat b2.err; exit 1; }
	done &&
	url=$(sed -n "s|.*listening on \(http://[^ ]*\)/ .*|\1|p" b2.out) &&
	status=$(curl -s -o /dev/null -w "%{http_code}" --max-time 10 "$url/") &&
	evil=$(curl -s -o /dev/null -w "%{http_code}" --max-time 10 -H "Host: evil.example" "$url/") &&
	kill $b2; wait $b2 || :;
	test "$status" = 200 && test "$evil" = 400
'

test_expect_success CURL,BASH 'a stalled client does not stall the others' '
	bash -c "exec 3<>/dev/tcp/127.0.0.1/$PORT; printf \"GET / HTTP/1.1\r\nHost: x\r\n\" >&3; sleep 5" &
	stall=$! &&
	sleep 0.5 &&
	test $(code /) = 200 &&
	test $(code /api/report) = 200 &&
	kill $stall
'

test_expect_success CURL 'a step pulled into the repository log appears by itself' '
	printf "2024-04-02T10:00:00Z\tzap\tclaim\tclaimed\tDee Dev <dee@example.org>\tDee Dev <dee@example.org>\t\n" \
		>>fx/repo/drivers-audit/campaign.log &&
	i=0 &&
	until curl -sf "$BASE/driver/zap" | grep "<h1>zap <span class=\"status claimed\">claimed</span></h1>"; do
		i=$((i + 1)) && test $i -lt 50 && sleep 0.2 || return 1
	done
'

test_expect_success CURL 'a change made by the CLI shows at once (no stale page)' '
	curl -sf "$BASE/driver/foo" >before &&
	! grep "Recorded as tested" before &&
	BKL_DATE=2024-05-01T10:00:00Z bkl status foo --set tested --by "Ann Dev <ann@example.org>" \
		--note "qemu: the bkl boot passed" &&
	curl -sf "$BASE/driver/foo" >after &&
	grep "<h1>foo <span class=\"status tested\">tested</span></h1>" after &&
	grep "Recorded as tested on 2024-05-01T10:00:00Z by Ann Dev &lt;ann@example.org&gt;: qemu: the bkl boot passed" after
'

test_expect_success CURL 'after all that the server still answers' '
	kill -0 $server_pid &&
	test $(code /) = 200 &&
	test $(code /driver/nvram) = 200
'

test_expect_success CURL 'a bad address or a busy port is one line' '
	test_must_fail bkl serve --bind nowhere.example --port 0 2>err &&
	test_one_line err "error: .nowhere.example. is not an IPv4 or IPv6 address" &&
	kill -0 $server_pid &&
	test_must_fail timeout 10 bkl serve --port $PORT 2>err &&
	test_one_line err "error: cannot listen on 127.0.0.1 port $PORT"
'

test_expect_success CURL 'the server stops on SIGTERM' '
	kill $server_pid &&
	i=0 &&
	while kill -0 $server_pid 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done &&
	! kill -0 $server_pid 2>/dev/null
'
stop_server

test_done
