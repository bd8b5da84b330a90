#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
test_description='bad input, a full disk, hostile names: the campaign log and the DB stay whole'
. ./test-lib.sh
. "$TEST_DIRECTORY/lib-campaign.sh"

use_campaign_fixture "$PWD/fx"
export BKL_CHECKPATCH=
ANN='Ann Auditor <ann@example.org>'
LOG=$FX/repo/drivers-audit/campaign.log

# The log and the DB as they were: the log byte for byte, the DB whole.
save_state() { cp "$LOG" log.before; }
state_intact() {
	cmp "$LOG" log.before &&
	test "$(sqlite3 "$BKL_DB" "PRAGMA integrity_check")" = ok &&
	bkl log --check >/dev/null
}
# A full disk for one file: the write that crosses $2 bytes is cut there.
full_disk() {	# name bytes command...
	name=$1 bytes=$2 && shift 2 &&
	env LD_PRELOAD="$PWD/fail-write.so" BKL_FAIL_WRITE="$name:$bytes" "$@"
}

test_expect_success 'setup: the fixture, its analysis, a first claim; the fault helper' '
	make_campaign_fixture "$FX" &&
	analyze_fixture "$FX" "$BKL_DB" &&
	BKL_DATE=2024-05-01T10:00:00Z bkl claim foo --by "$ANN" &&
	cc -shared -fPIC -o fail-write.so "$TEST_DIRECTORY/helper/fail-write.c" -ldl &&
	test -s "$LOG"
'

test_expect_success 'a note over the limit is refused before anything is written' '
	save_state &&
	head -c 9000 /dev/zero | tr "\0" x >long &&
	test_must_fail bkl claim bar --by "$ANN" --note "$(cat long)" 2>err &&
	test_one_line err "step not recorded: note is longer than 1000 bytes" &&
	state_intact &&
	bkl status bar >out && grep "^status: *unclaimed" out
'

test_expect_success 'control characters in a note or a name are refused' '
	save_state &&
	test_must_fail bkl claim bar --by "$ANN" --note "$(printf "a\033]0;x\007b")" 2>err &&
	test_one_line err "note holds a control character" &&
	test_must_fail bkl claim bar --by "$ANN" --note "$(printf "one\ntwo")" 2>err &&
	test_one_line err "note holds a control character" &&
	test_must_fail bkl claim bar --by "$(printf "Ann <a@example.org>\033[2J")" 2>err &&
	test "$(wc -l <err)" = 1 &&
	test_must_fail bkl claim bar --by "Ann $(printf "\377") <a@example.org>" 2>err &&
	test "$(wc -l <err)" = 1 &&
	state_intact
'

test_expect_success 'import: a NUL byte, a future date or a long field refuses the file whole' '
	save_state &&
	printf "2024-05-01T11:00:00Z\tbar\tclaim\tclaimed\t$ANN\t$ANN\tx\0y\n" >nul.log &&
	test_must_fail bkl import nul.log 2>err &&
	test_one_line err "nul.log. line 1 is not a campaign step: it holds a NUL byte" &&
	printf "2024-05-01T11:00:00Z\tbar\tclaim\tclaimed\t$ANN\t$ANN\tok\n9999-12-31T00:00:00Z\tbar\tclaim\tclaimed\t$ANN\t$ANN\t\n" >future.log &&
	test_must_fail bkl import future.log 2>err &&
	test_one_line err "future.log. line 2 is not a campaign step: time .9999-12-31T00:00:00Z. is in the future" &&
	printf "2024-05-01T11:00:00Z\tbar\tclaim\tclaimed\t$ANN\t$ANN\t%s\n" "$(cat long)" >long.log &&
	test_must_fail bkl import long.log 2>err &&
	test_one_line err "long.log. line 1 is not a campaign step: note is longer than 1000 bytes" &&
	state_intact
'

test_expect_success 'a full disk while appending leaves the log as it was, and says so' '
	save_state &&
	test_must_fail full_disk campaign.log 30 bkl claim bar --by "$ANN" 2>err &&
	test_one_line err "cannot write .*campaign.log.: No space left on device (the log is as it was)" &&
	state_intact &&
	bkl status bar >out && grep "^status: *unclaimed" out
'

test_expect_success 'a DB that fails after the log has the step: recorded, and the DB catches up' '
	full_disk bkl.db-wal 0 bkl claim bar --by "$ANN" >out 2>err &&
	grep "the step is recorded in .*campaign.log.; the database .*bkl.db. catches up from it" err &&
	tail -1 "$LOG" | grep "	bar	claim	claimed	" &&
	bkl status bar >out && grep "^holder: *Ann Auditor" out &&
	test "$(sqlite3 "$BKL_DB" "SELECT count(*) FROM campaign_log WHERE driver = '"'"'bar'"'"'")" = 1
'

test_expect_success 'a torn last line is named, kept apart, and the next step is whole' '
	printf "2024-05-01T12:00:00Z\tempty\tclaim\tcla" >>"$LOG" &&
	test_must_fail bkl log --check >out 2>err &&
	grep "line $(wc -l <"$LOG" | awk "{print \$1 + 1}") is not a campaign step" err &&
	grep "1 line is not a campaign step" out &&
	bkl claim waiter --by "$ANN" 2>err &&
	grep "is not a campaign step (no status .cla.): left out" err &&
	tail -1 "$LOG" | grep "^20.*	waiter	claim	claimed	" &&
	bkl status waiter >out 2>/dev/null && grep "^holder: *Ann Auditor" out &&
	bkl status empty >out 2>/dev/null && grep "^status: *unclaimed" out
'

test_expect_success 'concurrent claims: every step is a whole line' '
	sed -i "/	cla\$/d" "$LOG" && bkl log --check &&
	for d in race empty misc; do
		bkl claim $d --by "$ANN" >/dev/null 2>&1 &
	done &&
	wait &&
	bkl log --check &&
	test "$(grep -c "	claim	claimed	" "$LOG")" = 6
'

test_expect_success 'report -o: a FIFO, a symlink or a device is not replaced' '
	mkfifo fifo &&
	test_must_fail bkl report -o fifo 2>err &&
	test_one_line err "^bkl report: error: .fifo. is not a regular file: not replaced$" &&
	test -p fifo &&
	echo precious >target && ln -s target link &&
	test_must_fail bkl report -o link 2>err &&
	test_one_line err ".link. is not a regular file: not replaced" &&
	test -h link && test "$(cat target)" = precious &&
	if mknod node c 1 7 2>/dev/null; then
		test_must_fail bkl report -o node 2>err &&
		test -c node
	fi
'

test_expect_success 'report -o: a planted PATH.tmp symlink is not followed' '
	ln -s target out.txt.tmp &&
	bkl report -o out.txt &&
	test "$(cat target)" = precious &&
	grep "drivers" out.txt &&
	test -z "$(ls -a | grep "^\.out\.txt\.")"
'

test_expect_success 'report -o on a full disk leaves the old file whole' '
	echo old >kept.txt &&
	test_must_fail full_disk kept.txt 100 bkl report -o kept.txt 2>err &&
	test_one_line err "cannot write .kept.txt.: No space left on device" &&
	test "$(cat kept.txt)" = old &&
	test -z "$(ls -a | grep "^\.kept\.txt\.")"
'

test_expect_success 'export -o is replaced whole too' '
	bkl export -o backup.log &&
	cmp backup.log "$LOG" &&
	echo old >backup.log &&
	test_must_fail full_disk backup.log 50 bkl export -o backup.log 2>err &&
	test "$(cat backup.log)" = old
'

test_expect_success 'a short write to stdout fails the command, naming it' '
	for cmd in "export" "export --json" "report" "report --format json" "drivers" \
		   "drivers --json" "log" "status foo" "pick" "sites" "chains" "help"; do
		test_must_fail bkl $cmd >/dev/full 2>err &&
		grep "cannot write to standard output: No space left on device" err ||
			{ echo "bkl $cmd"; exit 1; }
	done
'

test_expect_success 'names from an older DB reach terminals quoted, never raw' '
	sqlite3 "$BKL_DB" "INSERT INTO campaign_log (ts, driver, action, status, holder, who, note) VALUES
		('"'"'2099-01-01T00:00:00Z'"'"', '"'"'empty'"'"', '"'"'claim'"'"', '"'"'claimed'"'"',
		 '"'"'Eve$(printf "\033")[2J <e@example.org>'"'"', '"'"'Eve$(printf "\033")[2J <e@example.org>'"'"',
		 '"'"'line$(printf "\n")forged: 1 passed'"'"')" &&
	for cmd in "status empty" "log empty" "drivers" "report --driver empty"; do
		bkl $cmd >out 2>/dev/null &&
		! grep -q "$(printf "\033")" out &&
		! grep -q "^forged" out &&
		grep -q "Eve\\\\e\[2J" out || { echo "bkl $cmd:"; cat out; exit 1; }
	done
'

test_expect_success 'report --format md carries no markup from a name' '
	bkl unclaim race --by "$ANN" &&
	bkl claim race --by "Mal <script>alert(1)</script> <x@example.org>" &&
	bkl report --format md --driver race >out.md &&
	! grep "<script>" out.md &&
	grep "Mal &lt;script&gt;alert(1)&lt;/script&gt; &lt;x@example.org&gt;" out.md
'

test_expect_success 'a missing DB is one line naming it; nothing is created' '
	for cmd in "report" "pick" "status foo" "drivers" "log" "sites" "export" \
		   "claim foo --by \"$ANN\""; do
		eval test_must_fail bkl $cmd --db typo.db 2>err &&
		test_one_line err "no database at .typo.db.: .bkl audit. makes it" &&
		test ! -e typo.db || { echo "bkl $cmd"; exit 1; }
	done &&
	test_must_fail bkl serve --port 0 --db typo.db 2>err &&
	test_one_line err "no database at .typo.db." && test ! -e typo.db
'

# Run "$@" as someone who may read the fixture but write neither the DB
# nor its directory (root writes anything: drop to nobody).
as_reader() {
	if [ "$(id -u)" = 0 ]; then
		setpriv --reuid=65534 --regid=65534 --clear-groups env HOME=/nonexistent "$@"
	else
		"$@"
	fi
}

test_expect_success 'a read-only DB is read, and says when the log is ahead of it' '
	sqlite3 "$BKL_DB" "PRAGMA wal_checkpoint(TRUNCATE)" >/dev/null &&
	mkdir ro && cp "$BKL_DB" ro/bkl.db && chmod 0444 ro/bkl.db && chmod 0555 ro &&
	chmod -R a+rX "$FX" . &&
	as_reader bkl status foo --db ro/bkl.db >out 2>err &&
	grep "^status: *claimed" out && test ! -s err &&
	as_reader bkl log --db ro/bkl.db >out && test -s out &&
	as_reader bkl pick --db ro/bkl.db -n 0 >out &&
	as_reader bkl drivers --db ro/bkl.db >out &&
	as_reader bkl report --db ro/bkl.db >out && grep drivers out &&
	printf "2024-05-01T14:00:00Z\tbar\tnote\tclaimed\t$ANN\t$ANN\tlater\n" >>"$LOG" &&
	as_reader bkl status bar --db ro/bkl.db >out 2>err &&
	test_one_line err "database .*ro/bkl.db. is read-only: 1 step of .*campaign.log. is not in it" &&
	as_reader bkl report --db ro/bkl.db >out 2>err &&
	test_one_line err "is read-only: 1 step of" &&
	test ! -e ro/bkl.db-wal
'

test_expect_success 'a damaged DB fails the command, never a wrong number' '
	cp "$BKL_DB" bad.db && sqlite3 bad.db "PRAGMA wal_checkpoint(TRUNCATE)" >/dev/null &&
	size=$(stat -c %s bad.db) && pages=$((size / 4096)) &&
	test $pages -gt 8 &&
	dd if=/dev/urandom of=bad.db bs=4096 seek=$((pages / 2)) count=$((pages / 3)) conv=notrunc 2>/dev/null &&
	failed=0 &&
	for cmd in "report" "report --format json" "drivers" "pick" "sites" "chains"; do
		if bkl $cmd --db bad.db >out 2>err; then
			echo "bkl $cmd succeeded on a damaged DB:"; cat out; failed=1
		else
			grep -q "corrupt\|damaged\|malformed\|not a database" err ||
				{ echo "bkl $cmd:"; cat err; failed=1; }
		fi
	done &&
	test $failed = 0
'

test_expect_success 'a damaged audit progress is an error, not a wrong count with exit 0' '
	cp "$BKL_DB" prog.db && sqlite3 prog.db "PRAGMA wal_checkpoint(TRUNCATE)" >/dev/null &&
	awk "BEGIN { print \"BEGIN; INSERT OR REPLACE INTO meta (key, value) VALUES (\x27audit.state\x27, \x27complete\x27);\";
		for (i = 0; i < 400; i++)
			printf \"INSERT INTO audit_files VALUES (\x27drivers/x/f%03d.c\x27, \x27h\x27, \x27f\x27, \x27ok\x27, NULL, 0);\n\", i;
		print \"COMMIT;\" }" | sqlite3 prog.db &&
	sqlite3 prog.db "PRAGMA wal_checkpoint(TRUNCATE)" >/dev/null &&
	bkl report --db prog.db --format json >good.json &&
	grep "\"total\":400" good.json &&
	for p in $(sqlite3 prog.db "SELECT rootpage FROM sqlite_master WHERE tbl_name = '"'"'audit_files'"'"'"); do
		dd if=/dev/urandom of=prog.db bs=4096 seek=$((p - 1)) count=1 conv=notrunc 2>/dev/null || exit 1
	done &&
	test_must_fail bkl report --db prog.db --format json >bad.json 2>err &&
	grep "corrupt" err
'

test_expect_success 'a negative or a newer schema version is one line' '
	cp "$BKL_DB" neg.db && sqlite3 neg.db "PRAGMA user_version = -3" &&
	test_must_fail bkl report --db neg.db 2>err &&
	test_one_line err "neg.db. is not a bkl database (schema version -3)" &&
	cp "$BKL_DB" new.db && sqlite3 new.db "PRAGMA user_version = 999" &&
	test_must_fail bkl status foo --db new.db 2>err &&
	test_one_line err "new.db. has schema version 999, newer than this bkl" &&
	printf "not sqlite at all, but long enough to be read as a header......................................................." >junk.db &&
	test_must_fail bkl report --db junk.db 2>err &&
	test_one_line err "junk.db.*not a database"
'

test_expect_success 'integers out of range are one line, not a wrapped value' '
	test_must_fail timeout 10 bkl serve --port 4294967297 2>err &&
	test_one_line err "option .--port. expects a number from 0 to 65535, not .4294967297." &&
	test_must_fail bkl pick -n 4294967297 2>err &&
	test_one_line err "option .-n. expects a number from 0 to 2147483647" &&
	test_must_fail bkl pick -n 99999999999999999999999 2>err &&
	test_one_line err "option .-n. expects a number" &&
	test_must_fail bkl audit --timeout -5 2>err &&
	test_one_line err "option .--timeout. expects a number from 0" &&
	test_must_fail bkl tree --build -j 0 2>err &&
	test_one_line err "option .-j. expects a number from 1 to 1024, not .0."
'

test_done
