#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
test_description='bkl report: whole tree and per subsystem, text/md/html/json, -o, bad input'
. ./test-lib.sh
. "$TEST_DIRECTORY/lib-web.sh"

# JSON checks through SQLite's JSON functions (no extra package)
json() {	# FILE PATH
	sqlite3 :memory: "SELECT json_extract(readfile('$1'), '$2')"
}
json_len() {	# FILE PATH
	sqlite3 :memory: "SELECT json_array_length(readfile('$1'), '$2')"
}
# The campaign's numbers, counted straight from its tables (a cross-check).
count_drivers() {	# [SQL condition on the status]
	sqlite3 "$BKL_DB" "SELECT count(*) FROM campaign_drivers d LEFT JOIN campaign_state s
		ON s.driver = d.driver WHERE ${1:-1}"
}
ST="coalesce(s.status, 'unclaimed')"

CHAR="CHAR and MISC DRIVERS"
test_expect_success 'setup: a small campaign, by the real commands' '
	web_fixture "$PWD/fx"
'
BKL_TREE=$PWD/fx/tree BKL_REPO=$PWD/fx/repo BKL_DB=$PWD/fx/bkl.db
export BKL_TREE BKL_REPO BKL_DB

test_expect_success 'the whole tree: totals and subsystems ranked by remaining work' '
	bkl report >out &&
	grep "^BKL report: Linux 6.1.99$" out &&
	all=$(count_drivers) &&
	under=$(count_drivers "$ST NOT IN (\"converted\", \"tested\", \"done\")") &&
	unclaimed=$(count_drivers "$ST = \"unclaimed\"") &&
	grep "^drivers: $all, $under still under the BKL (done 1, claimed 1, unclaimed $unclaimed, blocked 1)$" out &&
	grep "^sites: [0-9]* explicit lock_kernel()/unlock_kernel() ([0-9]* left), [0-9]* implicit entry points; [0-9]* more explicit in core code$" out &&
	grep "^problems: [0-9]* chains sleeping under the BKL, 1 imbalance$" out &&
	sed -n "/^Subsystems by remaining work/,\$p" out >ranked &&
	sed -n 4p ranked | grep "^   1  2/3  *2  *3  *3  *1  CHAR and MISC DRIVERS$" &&
	grep "^   [0-9]  1/1  *0  *1  *0  *0  ARM/ZAP <b>&amp; DRIVER$" ranked &&
	grep "^   [0-9]  1/1  *0  *1  *0  *0  FOO DRIVER$" ranked &&
	test $(wc -l <ranked) = $((3 + $(sqlite3 "$BKL_DB" "SELECT count(DISTINCT subsystem) FROM campaign_drivers")))
'

test_expect_success 'the burn-down projects the day the last driver leaves the BKL' '
	grep "^burn-down: .* drivers a [a-z]*; at this pace the last one leaves the BKL on 20[0-9-]* (Molnar, 2008: \"10+ years\")$" out
'

test_expect_success 'one subsystem, text: maintainers, drivers, file:line: everywhere' '
	bkl report --subsystem "$CHAR" >out &&
	grep "^maintainers: Arnd Bergmann <arnd@arndb.de>, Greg Kroah-Hartman <gregkh@linuxfoundation.org>$" out &&
	grep "^list: linux-kernel@vger.kernel.org$" out &&
	grep "^  empty  *done  .*Bob Dev <bob@example.org>$" out &&
	grep "^  nvram  *unclaimed  *own  *2 sites  *1 implicit  *2 chains  *1 imbalances  -$" out &&
	grep "^  drivers/char/nvram.c:24: nvram_ioctl: lock \[nvram\]$" out &&
	grep "^  drivers/char/nvram.c:14: nvram_open: implicit (via file_operations.open, called by chrdev_open at fs/char_dev.c:14) \[nvram\]$" out &&
	! grep "foo_open" out
'

test_expect_success 'chains: wait before sleep, shortest first, source at each step' '
	sed -n "/^Chains/,/^Imbalances/p" out >chains &&
	grep "^  [0-9]\." chains >order &&
	sed -n 1p order | grep "^  1\. drivers/char/waiter.c:6: waiter_open: wait \[waiter\]$" &&
	sed -n 2p order | grep "^  2\. drivers/char/nvram.c:28: nvram_ioctl: sleep \[nvram\]$" &&
	sed -n 3p order | grep "^  3\. drivers/char/nvram.c:25: nvram_ioctl: sleep \[nvram\]$" &&
	grep "^     nvram_ioctl -> nvram_wait_ready -> msleep$" chains &&
	grep "^     >    6	.flush_scheduled_work();$" chains &&
	grep "^     drivers/char/nvram.c:11: nvram_wait_ready$" chains &&
	grep "^     >   11	.msleep(1);$" chains
'

test_expect_success 'imbalances come with their source' '
	sed -n "/^Imbalances/,/^Explicit/p" out >imb &&
	grep "^  drivers/char/nvram.c:27: nvram_ioctl: return-held \[nvram\]$" imb &&
	grep "^    >   27	..return -EINVAL;" imb
'

test_expect_success 'markdown: headings, a table, code blocks, for a mail' '
	bkl report --subsystem "$CHAR" --format md >out.md &&
	head -1 out.md | grep "^# BKL report: CHAR and MISC DRIVERS$" &&
	grep "^- \*\*maintainers:\*\* Arnd Bergmann" out.md &&
	grep "^## Drivers$" out.md &&
	grep "^| nvram | unclaimed | own | - | 2 | 1 | 2 | 1 |$" out.md &&
	grep "^1\. \`drivers/char/waiter.c:6:\` \`waiter_open\` \*\*wait\*\* \[waiter\]$" out.md &&
	test $(grep -c "^    \`\`\`$" out.md) -ge 8 &&
	! grep "^     \`\`\`" out.md &&
	bkl report --format md >all.md &&
	grep "^| 1 | CHAR and MISC DRIVERS | 2/3 | 2 | 3 | 3 | 1 |$" all.md
'

test_expect_success 'json: valid, stable keys, whole tree' '
	bkl report --format json >out.json &&
	test "$(json out.json "\$.format")" = bkl-report &&
	test "$(json out.json "\$.version")" = 1 &&
	test "$(json out.json "\$.linux")" = 6.1.99 &&
	test "$(json out.json "\$.totals.drivers")" = $(count_drivers) &&
	test "$(json out.json "\$.totals.under_bkl")" = $(count_drivers "$ST NOT IN (\"converted\", \"tested\", \"done\")") &&
	test "$(json out.json "\$.totals.status.done")" = 1 &&
	test "$(json out.json "\$.totals.status.blocked")" = 1 &&
	test -n "$(json out.json "\$.totals.core_sites")" &&
	test "$(json out.json "\$.subsystems[0].name")" = "$CHAR" &&
	test "$(json out.json "\$.subsystems[0].under_bkl")" = 2 &&
	test "$(json out.json "\$.recent[0].driver")" = zap &&
	test "$(json out.json "\$.burndown.points[0].drivers")" = $(count_drivers) &&
	test "$(json_len out.json "\$.burndown.points")" = 7 &&
	test -n "$(json out.json "\$.burndown.projected_zero")"
'

test_expect_success 'json: one subsystem, with chains and their steps' '
	bkl report --subsystem "$CHAR" --format json >sub.json &&
	test "$(json sub.json "\$.scope.subsystem")" = "$CHAR" &&
	test "$(json sub.json "\$.subsystem.maintainers[1]")" = "Greg Kroah-Hartman <gregkh@linuxfoundation.org>" &&
	test "$(json sub.json "\$.chains[0].class")" = wait &&
	test "$(json sub.json "\$.chains[2].steps[1].function")" = nvram_wait_ready &&
	test "$(json sub.json "\$.chains[2].steps[1].line")" = 11 &&
	test "$(json_len sub.json "\$.sites")" = 2 &&
	test "$(json_len sub.json "\$.implicit")" = 3 &&
	test "$(json sub.json "\$.drivers[0].name")" = empty &&
	test "$(json sub.json "\$.drivers[0].claimed_by")" = "Bob Dev <bob@example.org>"
'

test_expect_success 'html: one page, every name escaped' '
	bkl report --format html >all.html &&
	head -1 all.html | grep "^<!DOCTYPE html>$" &&
	grep "ARM/ZAP &lt;b&gt;&amp;amp; DRIVER" all.html &&
	! grep "<b>&amp;" all.html &&
	grep "<svg class=\"chart\"" all.html &&
	bkl report --driver nvram --format html >nvram.html &&
	grep "&lt;script&gt;alert(1)&lt;/script&gt; &amp; the lock leaks" nvram.html &&
	! grep "<script>alert" nvram.html
'

test_expect_success '-o FILE writes the file (whole), nothing on stdout' '
	echo stale >report.md &&
	bkl report --subsystem "$CHAR" --format md -o report.md >stdout &&
	! test -s stdout &&
	head -1 report.md | grep "^# BKL report: CHAR and MISC DRIVERS$" &&
	! grep stale report.md &&
	! test -e report.md.tmp
'

test_expect_success 'an unknown subsystem is one clear line, and no file' '
	test_must_fail bkl report --subsystem "NO SUCH THING" -o nothing.txt 2>err &&
	test_one_line err "error: no subsystem .NO SUCH THING. in the database" &&
	! test -e nothing.txt
'

test_expect_success 'an unknown format or driver is one line' '
	test_must_fail bkl report --format pdf 2>err &&
	test_one_line err "error: unknown format .pdf.: text, md, html or json" &&
	test_must_fail bkl report --driver nope 2>err &&
	test_one_line err "error: no driver .nope. in the database"
'

test_expect_success 'one driver: its sites with source' '
	bkl report --driver nvram >out &&
	grep "^status: unclaimed$" out &&
	grep "^  drivers/char/nvram.c:24: nvram_ioctl: lock$" out &&
	grep "^    >   24	.lock_kernel();$" out
'

test_expect_success 'without the tree, the report says the source is missing' '
	bkl report --driver nvram --tree "$PWD/nowhere" >out &&
	grep "(source not available)" out &&
	grep "^  drivers/char/nvram.c:24: nvram_ioctl: lock$" out
'

test_expect_success 'a claim made since shows in the next report' '
	BKL_DATE=2024-04-01T10:00:00Z bkl claim nvram --by "Cy Dev <cy@example.org>" &&
	bkl report --subsystem "$CHAR" >out &&
	grep "^  nvram  *claimed .*Cy Dev <cy@example.org>$" out
'

test_expect_success 'a step pulled into the repository log shows too' '
	printf "2024-04-02T10:00:00Z\twaiter\tclaim\tclaimed\tDee Dev <dee@example.org>\tDee Dev <dee@example.org>\t\n" \
		>>fx/repo/drivers-audit/campaign.log &&
	bkl report --subsystem "$CHAR" >out &&
	grep "^  waiter  *claimed .*Dee Dev <dee@example.org>$" out
'

test_expect_success 'no database: one line naming it, and none is made' '
	test_must_fail env BKL_DB="$PWD/none.db" BKL_TREE= bkl report >out 2>err &&
	test_one_line err "no database at .*none.db.: .bkl audit. makes it" &&
	test ! -e none.db && ! test -s out
'

test_expect_success 'an empty database: a report that says so' '
	echo >e.c && bkl analyze -q --db "$PWD/empty.db" e.c &&
	BKL_DB="$PWD/empty.db" BKL_TREE= bkl report >out &&
	grep "^drivers: 0, 0 still under the BKL" out &&
	BKL_DB="$PWD/empty.db" BKL_TREE= bkl report --format json >e.json &&
	test "$(json e.json "\$.totals.drivers")" = 0
'

test_expect_success 'a file that is not a database is refused' '
	echo "not sqlite" >bad.db &&
	test_must_fail env BKL_DB="$PWD/bad.db" bkl report >out 2>err &&
	test_one_line err "error: cannot use database .*bad.db.: it is not a database" &&
	! test -s out &&
	test "$(cat bad.db)" = "not sqlite"
'

test_expect_success '--lock: precise chains counted apart, shortest first, why each is not' '
	mkdir lk && cp "$BKL_ROOT/analyzer/validation/tty-ops.c" lk/ &&
	(cd lk && bkl analyze -q --db l.db tty-ops.c) &&
	bkl report --lock bkl --db lk/l.db >out &&
	grep "^lock bkl: 1 files analyzed (0 failed): 4 sites, 1 imbalances, 3 chains .* (0 precise: no call by type, every file built)$" out &&
	grep "^    4           1       3        0  \.$" out &&
	sed -n "/^chains/,\$p" out | grep "^  [^ ]" >chains &&
	cat >expect <<-\EOF &&
	  tty-ops.c:75: uart_open: sleep with bkl held: uart_open -> mutex_lock (not precise: under the lock only through a call by type)
	  tty-ops.c:56: tty_open: sleep with bkl held: tty_open -> uart_open -> mutex_lock (not precise: 1 call by type)
	  tty-ops.c:46: chrdev_open: sleep with bkl held: chrdev_open -> tty_open -> uart_open -> mutex_lock (not precise: 1 call by type)
	EOF
	test_cmp expect chains &&
	bkl report --lock bkl --db lk/l.db --format json >l.json &&
	test "$(json l.json "\$.totals.precise")" = 0 &&
	test "$(json l.json "\$.totals.chains")" = 3 &&
	test "$(json_len l.json "\$.chains")" = 3 &&
	test "$(json_len l.json "\$.imbalances")" = 1 &&
	test "$(json l.json "\$.chains[0].origin")" = by-type &&
	test "$(json l.json "\$.chains[0].by_type")" = 1 &&
	test "$(json l.json "\$.chains[2].origin")" = held
'

test_expect_success 'the burn-down at 0: the day the last driver left the BKL' '
	for d in $(sqlite3 "$BKL_DB" "SELECT d.driver FROM campaign_drivers d LEFT JOIN campaign_state s
			ON s.driver = d.driver WHERE $ST NOT IN (\"converted\", \"tested\", \"done\")"); do
		bkl status $d --set converted --by "Bob Dev <bob@example.org>" --note "converted" >/dev/null ||
			return 1
	done &&
	bkl report >out &&
	grep "^drivers: [0-9]*, 0 still under the BKL (" out &&
	grep "^burn-down: 0 drivers left; the last one left the BKL on 20[0-9-]* (Molnar, 2008: \"10+ years\")$" out &&
	grep "^problems: [1-9][0-9]* chains* sleeping under the BKL, all through the 2.6.26 sites of the tree the campaign audits (the series. end removes them), [0-9]* imbalance" out
'

test_done
