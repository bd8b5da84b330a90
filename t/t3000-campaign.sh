#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
test_description='the campaign: drivers, pick, claim, status, log, export/import'
. ./test-lib.sh
. "$TEST_DIRECTORY/lib-campaign.sh"

use_campaign_fixture "$PWD/fx"
export BKL_CHECKPATCH=
ANN='Ann Auditor <ann@example.org>'
BOB='Bob Builder <bob@example.org>'

test_expect_success 'setup: a small tree, its core series, a real analyzer run' '
	make_campaign_fixture "$FX" &&
	analyze_fixture "$FX" "$BKL_DB" &&
	bkl sites --db "$BKL_DB" --json >sites.json &&
	grep -c "\"kind\": \"implicit\"" sites.json >n && test "$(cat n)" = 6
'

test_expect_success 'drivers: each covered file is its Kbuild module' '
	bkl drivers >out &&
	sed 1d out | awk "{ print \$1, \$2, \$3, \$4 }" >actual &&
	cat >expect <<-EOF &&
	bar unclaimed own bar_open
	empty unclaimed own empty_open
	foo unclaimed own foo_open
	misc unclaimed own misc_open
	race unclaimed own race_open
	waiter unclaimed own waiter_open
	EOF
	test_cmp expect actual
'

test_expect_success 'drivers --json: module, symbol, files, subsystem, chains' '
	bkl drivers --json >d.json &&
	grep "\"driver\":\"bar\",\"module\":\"bar\",\"config\":\"CONFIG_BAR\"" d.json &&
	grep "\"files\":\[\"drivers/char/bar/bar-core.c\",\"drivers/char/bar/bar-dev.c\"\]" d.json &&
	grep "\"driver\":\"misc\".*\"config\":\"y\".*\"subsystem\":\"CHAR and MISC DRIVERS\"" d.json &&
	grep "\"driver\":\"race\".*\"subsystem\":\"RACE DRIVER\".*\"maintainers\":\[\"R Acer <racer@example.org>\"\]" d.json &&
	grep "\"driver\":\"waiter\".*\"chains\":{\"sleep\":0,\"wait\":1}" d.json &&
	grep "\"driver\":\"bar\".*\"chains\":{\"sleep\":1,\"wait\":0}" d.json &&
	grep "\"driver\":\"foo\".*\"lists\":\[\"foo-devel@example.org\"\]" d.json
'

test_expect_success 'drivers --subsystem and --status filter' '
	bkl drivers --subsystem "char and misc" >out &&
	test "$(sed 1d out | awk "{print \$1}" | tr "\n" " ")" = "empty misc waiter " &&
	bkl drivers --status claimed >out &&
	test "$(wc -l <out)" = 1 &&
	test_must_fail bkl drivers --status frozen 2>err &&
	test_one_line err "unknown status .frozen."
'

test_expect_success 'pick: empty open() first, wait chains last, with reasons' '
	bkl pick >out &&
	grep "^  1\. empty " out &&
	sed -n 2p out | grep "open() is empty: cycle the lock or drop it" &&
	tail -2 out | grep "^  6\. waiter " &&
	tail -1 out | grep "a wait chain under the BKL" &&
	grep -A1 " race " out | grep "registers its device (misc_register()) before initializing" &&
	bkl pick --json >p.json &&
	head -2 p.json | grep "{\"driver\":\"empty\"" &&
	bkl pick --subsystem "RACE" -n 1 >out &&
	test "$(grep -c "^ *[0-9]*\. " out)" = 1 && grep " race " out
'

test_expect_success 'claim, and a second claim is refused naming the holder' '
	BKL_DATE=2024-05-01T10:00:00Z bkl claim foo --by "$ANN" >out &&
	grep "claimed .foo." out &&
	test_must_fail bkl claim foo --by "$BOB" 2>err &&
	test_one_line err "error: .foo. is claimed by Ann Auditor <ann@example.org> since 2024-05-01T10:00:00Z" &&
	bkl claim foo --by "$ANN" >out && grep "already yours" out &&
	bkl pick >out && ! grep " foo " out
'

test_expect_success 'an unknown driver is one clear line, for every command' '
	for cmd in claim unclaim status log audit-record convert pushdown; do
		test_must_fail bkl $cmd nosuch 2>err &&
		test_one_line err "no driver .nosuch." || exit 1
	done
'

test_expect_success 'claim wants "Name <email>"' '
	test_must_fail bkl claim bar --by "just a name" 2>err &&
	test_one_line err "is not \"Name <email>\""
'

test_expect_success 'unclaim: only the holder, unless --force' '
	test_must_fail bkl unclaim foo --by "$BOB" 2>err &&
	test_one_line err "held by Ann Auditor" &&
	test_must_fail bkl unclaim bar 2>err &&
	test_one_line err ".bar. is not claimed" &&
	bkl claim bar --by "$BOB" && bkl unclaim bar --by "$ANN" --force --note "stale" &&
	bkl status bar >out && grep "^status: *unclaimed" out && grep "^holder: *-" out
'

test_expect_success 'status --set: logged; blocked needs a reason' '
	test_must_fail bkl status waiter --set blocked 2>err &&
	test_one_line err "say why it is blocked" &&
	test_must_fail bkl status waiter --set sideways 2>err &&
	test_one_line err "unknown status .sideways." &&
	test_must_fail bkl status waiter --set claimed 2>err &&
	test_one_line err "claim a driver with" &&
	BKL_DATE=2024-05-02T09:00:00Z bkl status waiter --set blocked --note "flush_scheduled_work under the BKL" --by "$BOB" &&
	bkl status waiter >out &&
	grep "^status: *blocked since 2024-05-02T09:00:00Z" out &&
	grep "^note: *flush_scheduled_work under the BKL" out &&
	bkl pick >out && ! grep " waiter " out
'

test_expect_success 'status shows the newest bkl test result of each phase' '
	bkl status waiter >out && ! grep "^qemu" out &&
	for r in "before|fail|2024-05-02T10:00:00Z|old" "before|pass|2024-05-02T11:00:00Z|exercise: done: 10 opens" \
		"after|pass|2024-05-02T12:00:00Z|exercise: done: 20 opens"; do
		sqlite3 "$BKL_DB" "INSERT INTO qemu_results (driver, phase, result, at, log, detail)
			VALUES ('\''waiter'\'', '\''$(echo "$r" | cut -d"|" -f1)'\'', '\''$(echo "$r" | cut -d"|" -f2)'\'',
			'\''$(echo "$r" | cut -d"|" -f3)'\'', '\''/logs/x.log'\'', '\''$(echo "$r" | cut -d"|" -f4)'\'')" || return 1
	done &&
	bkl status waiter >out &&
	cat out &&
	grep "^qemu before:  pass at 2024-05-02T11:00:00Z: exercise: done: 10 opens$" out &&
	grep "^qemu after:   pass at 2024-05-02T12:00:00Z: exercise: done: 20 opens$" out &&
	test $(grep -c "^qemu" out) = 2 &&
	! grep "witness" out &&
	sqlite3 "$BKL_DB" "INSERT INTO qemu_witness (result_id, function, count, pushed_down)
		SELECT id, '\''waiter_open'\'', CASE phase WHEN '\''before'\'' THEN 7 ELSE 0 END, 1
		FROM qemu_results WHERE result = '\''pass'\'';
		INSERT INTO qemu_witness (result_id, function, count)
		SELECT id, '\''tty_open'\'', 3 FROM qemu_results WHERE result = '\''pass'\''" &&
	bkl status waiter >out &&
	cat out &&
	grep -A2 "^qemu before:" out | grep "^  *witness: waiter_open() took the BKL 7 times$" &&
	grep -A2 "^qemu after:" out | grep "^  *witness: waiter_open() took the BKL 0 times$" &&
	! grep "tty_open" out &&
	sqlite3 "$BKL_DB" "PRAGMA foreign_keys = ON; DELETE FROM qemu_results" &&
	test $(sqlite3 "$BKL_DB" "SELECT count(*) FROM qemu_witness") = 0
'

test_expect_success 'log: every step with time and who, oldest first' '
	bkl log >out &&
	head -1 out | grep "^2024-05-01T10:00:00Z  foo  *claim  *claimed  *Ann Auditor" &&
	bkl log waiter >out &&
	test_one_line out "waiter  *status  *blocked  *Bob Builder <bob@example.org>: flush_scheduled_work" &&
	bkl log --json >log.json &&
	grep "{\"ts\":\"2024-05-02T09:00:00Z\",\"driver\":\"waiter\",\"action\":\"status\",\"status\":\"blocked\"" log.json &&
	bkl log empty >out && test ! -s out
'

test_expect_success 'the history lives in the repository: a rebuilt DB loses nothing' '
	grep -c . "$BKL_REPO/drivers-audit/campaign.log" >n && test "$(cat n)" = 5 &&
	bkl log >before &&
	rm -f "$BKL_DB" "$BKL_DB-wal" "$BKL_DB-shm" &&
	analyze_fixture "$FX" "$BKL_DB" &&
	bkl log >after &&
	test_cmp before after &&
	bkl status foo >out && grep "^holder: *Ann Auditor" out
'

test_expect_success 'export / import round trip into a fresh repository and DB' '
	bkl export -o history.log &&
	bkl export --json >history.json &&
	grep "\"drivers\":\[" history.json && grep "{\"driver\":\"foo\",\"status\":\"claimed\",\"holder\":\"Ann Auditor" history.json &&
	mkdir -p other/drivers-audit &&
	BKL_REPO=$PWD/other BKL_DB=$PWD/other.db bkl import history.log >out &&
	grep "history.log: [1-9][0-9]* new steps" out &&
	BKL_REPO=$PWD/other BKL_DB=$PWD/other.db bkl export -o again.log &&
	test_cmp history.log again.log &&
	test -s other/drivers-audit/campaign.log &&
	BKL_REPO=$PWD/other BKL_DB=$PWD/other.db bkl import history.log >out &&
	grep "history.log: 0 new steps" out
'

test_expect_success 'log --correct: a new step naming what it corrects; the old steps stay, the state too' '
	cp "$FX/repo/drivers-audit/campaign.log" log.before &&
	bkl status foo >st.before &&
	ts=$(bkl log foo | sed -n 1p | cut -d" " -f1) &&
	BKL_DATE=2024-05-03T09:00:00Z bkl log --correct foo --step "$ts" --by "$BOB" \
		--note "Ann ran it from Bob.s checkout" >out &&
	grep "^.foo.: corrected $ts claim claimed, signed Ann Auditor <ann@example.org>$" out &&
	head -n $(wc -l <log.before) "$FX/repo/drivers-audit/campaign.log" >log.head &&
	test_cmp log.before log.head &&
	tail -1 "$FX/repo/drivers-audit/campaign.log" >last &&
	grep "	foo	correct	claimed	Ann Auditor <ann@example.org>	Bob Builder <bob@example.org>	corrects $ts claim claimed, signed Ann Auditor <ann@example.org>: Ann ran it from Bob.s checkout$" last &&
	bkl status foo >st.after &&
	test_cmp st.before st.after &&
	bkl log foo | tail -1 | grep "correct  *claimed  *Bob Builder"
'

test_expect_success 'log --correct refuses a step that is not there, or no reason' '
	test_must_fail bkl log --correct foo --step 1999-01-01T00:00:00Z --note x 2>err &&
	test_one_line err "error: .foo. has no step at .1999-01-01T00:00:00Z. (see .bkl log foo.)" &&
	test_must_fail bkl log --correct foo --step 1999-01-01T00:00:00Z 2>err &&
	grep "names the steps it corrects (--step) and why (--note)" err &&
	bkl log --check
'

test_expect_success 'import refuses a file that is not a campaign log, whole' '
	{ head -3 history.log; echo "this is not a step"; } >bad.log &&
	test_must_fail env BKL_REPO=$PWD/other2 BKL_DB=$PWD/other2.db bkl import bad.log 2>err &&
	test_one_line err "error: .bad.log. line 4 is not a campaign step" &&
	! test -e other2/drivers-audit/campaign.log
'

test_done
