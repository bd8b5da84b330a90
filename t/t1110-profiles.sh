#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
test_description='bkl analyze: lock and kernel profiles, chosen from the tree or by option; bad input'
. ./test-lib.sh

test_need_program SQLITE3 sqlite3 sqlite3

V=$BKL_ROOT/analyzer/validation
P=$BKL_ROOT/analyzer/profiles

q() {	# db sql: one query, its rows
	sqlite3 "$1" "$2"
}

# tree26/: a 2.6.27 tree with the validation tests' headers and files
mkdir tree26 &&
cp -R "$V/trees/stub-2.6.27/." tree26/ &&
cp "$V/gfp-2.6.c" "$V/kernel-locked-macro.c" tree26/ &&
mkdir -p tree26/drivers/char && cp "$V/gfp-2.6.c" tree26/drivers/char/two.c
cat >loose.c <<'EOF2'
extern void lock_kernel(void);
extern void unlock_kernel(void);
extern void rtnl_lock(void);
extern void rtnl_unlock(void);
extern void msleep(unsigned int msecs);
void f(void)
{
	lock_kernel();
	msleep(1);
	unlock_kernel();
}
void g(void)
{
	rtnl_lock();
	msleep(1);
	rtnl_unlock();
}
EOF2

test_expect_success 'the profile line: on stderr, once, from the tree' '
	(cd tree26 && bkl analyze --db ../a.db -Iinclude gfp-2.6.c >../out 2>../err) &&
	test_one_line out "^analyzed 1 file (0 failed)" &&
	test_one_line err "^bkl analyze: profiles: lock bkl-2.6, kernel 2.6 (Linux 2.6.27 at .*/tree26; gfp bit __GFP_WAIT = 0x10, include/linux/gfp.h)$"
'

test_expect_success SQLITE3 'the profiles are kept in the DB for the global pass' '
	test "$(q a.db "SELECT value FROM meta WHERE key = '\''analyzer.lock_profile'\''")" = bkl-2.6 &&
	test "$(q a.db "SELECT value FROM meta WHERE key = '\''analyzer.kernel_profile'\''")" = 2.6 &&
	test "$(q a.db "SELECT value FROM meta WHERE key = '\''analyzer.gfp_reclaim'\''")" = 16 &&
	test "$(q a.db "SELECT value FROM meta WHERE key = '\''analyzer.release'\''")" = 2.6.27
'

test_expect_success 'the tree is found above the file, from another directory too' '
	bkl analyze --db b.db -Itree26/include tree26/drivers/char/two.c >/dev/null 2>err &&
	test_one_line err "kernel 2.6 (Linux 2.6.27 at .*/tree26;" &&
	bkl chains --db b.db >chains &&
	grep -c "may sleep with the BKL held" chains >n && test "$(cat n)" = 3
'

test_expect_success 'shards analyzed with the 2.6 profiles merge and resolve with them' '
	(cd tree26 && bkl analyze -q --no-resolve --db ../s1.db -Iinclude gfp-2.6.c &&
	 bkl analyze -q --no-resolve --db ../s2.db -Iinclude kernel-locked-macro.c) &&
	bkl merge --db m.db s1.db s2.db >/dev/null &&
	(cd tree26 && bkl analyze -q --db ../both.db -Iinclude gfp-2.6.c kernel-locked-macro.c) &&
	bkl chains --db m.db >merged && bkl chains --db both.db >direct &&
	test_cmp direct merged &&
	grep -q "^    kmalloc$" merged
'

test_expect_success '-q and --quiet-profiles: no profile line' '
	(cd tree26 && bkl analyze -q --db ../c.db -Iinclude gfp-2.6.c 2>../err) &&
	! test -s err &&
	(cd tree26 && bkl analyze --quiet-profiles --db ../c.db -Iinclude gfp-2.6.c >../out 2>../err) &&
	! test -s err && test_one_line out "^analyzed 1 file"
'

test_expect_success 'loose files (no tree, no option): bkl and 6.x, nothing said' '
	bkl analyze --db d.db loose.c >out 2>err &&
	! test -s err &&
	bkl chains --db d.db >chains &&
	grep -q "^loose.c:9: warning: .f. may sleep with the BKL held" chains &&
	! grep -q "rtnl" chains
'

test_expect_success '--lock-profile rtnl: its sites and chains, and messages name it' '
	bkl analyze --db r.db --lock-profile rtnl loose.c >out 2>err &&
	test_one_line err "^bkl analyze: profiles: lock rtnl, kernel 6.x (no kernel tree found; gfp bit 0x400, the profile.s)$" &&
	bkl sites --db r.db >sites &&
	printf "%s\n" "loose.c:14: warning: rtnl_lock() in '\''g'\''" \
		"loose.c:16: warning: rtnl_unlock() in '\''g'\''" >expect &&
	test_cmp expect sites &&
	bkl chains --db r.db >chains &&
	grep warning chains >w &&
	test_one_line w "^loose.c:15: warning: .g. may sleep with rtnl held (sleep):$"
'

test_expect_success '--lock-profile=NAME and --kernel-profile NAME; console and tty load' '
	bkl analyze --db e.db --lock-profile=console --kernel-profile 2.6 loose.c 2>err >/dev/null &&
	test_one_line err "profiles: lock console, kernel 2.6 (no kernel tree found; gfp bit 0x10" &&
	bkl analyze --db e.db --lock-profile tty loose.c 2>err >/dev/null &&
	test_one_line err "profiles: lock tty, kernel 6.x"
'

test_expect_success 'a kernel profile forced on a tree it does not fit: the gfp bit is not verified' '
	(cd tree26 && bkl analyze --db ../f.db --kernel-profile 6.x -Iinclude gfp-2.6.c >/dev/null 2>../err) &&
	grep -q "^bkl analyze: warning: __GFP_DIRECT_RECLAIM not found in .*/tree26.s include/linux/gfp_types.h: using 0x400, not verified for Linux 2.6.27$" err &&
	grep -q "profiles: lock bkl, kernel 6.x (Linux 2.6.27 at .*; gfp bit 0x400, the profile.s: not verified)" err &&
	test "$(grep -c "" err)" = 2 &&
	bkl chains --db f.db >chains &&
	! grep -q kmalloc chains
'

# Per file (before the global pass): the global pass then sees that
# vt_waitactive()'s one caller holds the BKL, and its unlock is not unheld.
test_expect_success 'without its macro rule, 2.6 kernel_locked() is lost: a false imbalance' '
	grep -v "^macro" "$P/bkl-2.6.lock" >nomacro.txt &&
	cat "$P/2.6.kernel" >>nomacro.txt &&
	(cd tree26 && bkl analyze -q --no-resolve --db ../g.db --primitives ../nomacro.txt \
		-Iinclude kernel-locked-macro.c &&
	 bkl analyze -q --db ../h.db -Iinclude kernel-locked-macro.c) &&
	bkl imbalance --db g.db >without &&
	grep -q "unlock_kernel() without the BKL held in .vt_waitactive. (unlock-unheld)" without &&
	bkl merge --db g.db --primitives nomacro.txt >/dev/null &&
	bkl imbalance --db g.db >resolved &&
	! test -s resolved &&
	bkl imbalance --db h.db >with &&
	! test -s with
'

test_expect_success 'an unknown profile is one line, exit status 1, no database made' '
	exit_1() { "$@"; test $? = 1; } &&
	exit_1 bkl analyze --db x.db --lock-profile foo loose.c 2>err &&
	test_one_line err "^bkl analyze: error: unknown lock profile .foo. (known: bkl-2.6, bkl, console, rtnl, tty)$" &&
	! test -e x.db &&
	exit_1 bkl analyze --db x.db --kernel-profile 3.x loose.c 2>err &&
	test_one_line err "^bkl analyze: error: unknown kernel profile .3.x. (known: 2.6, 6.x)$" &&
	! test -e x.db
'

test_expect_success 'a missing value, a bad macro rule: one line each' '
	test_must_fail bkl analyze --db x.db loose.c --lock-profile 2>err &&
	test_one_line err "option .--lock-profile. requires a value" &&
	{ cat "$P/bkl.lock" "$P/6.x.kernel" && echo "macro nothere"; } >badmacro.txt &&
	test_must_fail bkl analyze --db y.db --primitives badmacro.txt loose.c 2>err &&
	test_one_line err "error: badmacro.txt: macro .nothere. names no lock, unlock or primitive rule" &&
	echo "releases 6.0 6.99" >kernelrule.txt &&
	test_must_fail bkl analyze --db y.db --primitives kernelrule.txt loose.c 2>err &&
	test_one_line err "error: kernelrule.txt: no gfp-reclaim rule"
'

test_expect_success 'a --primitives file of the old form (gfp-reclaim VALUE) still works' '
	{ grep -v "^gfp-reclaim" "$P/6.x.kernel" && cat "$P/bkl.lock" && echo "gfp-reclaim 0x400"; } >old.txt &&
	bkl analyze -q --db o.db --primitives old.txt loose.c &&
	bkl chains --db o.db >chains &&
	grep -q "^loose.c:9: warning: .f. may sleep with the BKL held" chains
'

test_expect_success SQLITE3 'rtnl next to the BKL in one DB: each lock its own rows' '
	bkl analyze -q --db two.db loose.c &&
	bkl analyze -q --db two.db --lock-profile rtnl loose.c &&
	test "$(q two.db "SELECT lock, count(*) FROM files GROUP BY lock ORDER BY lock")" = "bkl|1
rtnl|1" &&
	test "$(q two.db "SELECT lock, callee FROM sites WHERE kind = '\''lock'\'' ORDER BY lock")" = "bkl|lock_kernel
rtnl|rtnl_lock" &&
	bkl chains --db two.db >bkl.chains &&
	grep -q "^loose.c:9: warning: .f. may sleep with the BKL held" bkl.chains &&
	! grep -q rtnl bkl.chains &&
	bkl chains --db two.db --lock rtnl >rtnl.chains &&
	grep -q "^loose.c:15: warning: .g. may sleep with rtnl held" rtnl.chains &&
	! grep -q "BKL" rtnl.chains &&
	test "$(q two.db "SELECT lock, count(*) FROM chains GROUP BY lock ORDER BY lock")" = "bkl|1
rtnl|1"
'

test_expect_success SQLITE3 'analyzing one lock again leaves the other alone; merge keeps both' '
	bkl analyze -q --db two.db loose.c &&
	test "$(q two.db "SELECT count(*) FROM chains WHERE lock = '\''rtnl'\''")" = 1 &&
	bkl analyze -q --no-resolve --db sh1.db loose.c &&
	bkl analyze -q --no-resolve --db sh2.db --lock-profile rtnl loose.c &&
	bkl merge --db mm.db sh1.db sh2.db >/dev/null &&
	for l in bkl rtnl; do
		bkl chains --db two.db --lock $l >a.$l &&
		bkl chains --db mm.db --lock $l >b.$l &&
		test_cmp a.$l b.$l || return 1
	done &&
	bkl sites --db mm.db --lock console >none && ! test -s none
'

cat >old-rows.sql <<'EOF2'
PRAGMA user_version = 8;
INSERT INTO files (id, path, hash, flags, status) VALUES (7, 'x.c', '0', '', 'ok');
INSERT INTO functions (file_id, name, file, line, static) VALUES (7, 'f', 'x.c', 1, 0);
INSERT INTO sites (file_id, file, line, function, kind, callee)
	VALUES (7, 'x.c', 2, 'f', 'lock', 'lock_kernel');
EOF2

test_expect_success SQLITE3 'a DB of schema 8 is migrated: its facts are the BKL'\''s, none lost' '
	for f in "$BKL_ROOT"/db/schema/000[1-8]-*.sql; do cat "$f" || return 1; done >v8.sql &&
	q old.db ".read v8.sql" && q old.db ".read old-rows.sql" &&
	bkl sites --db old.db >sites &&
	test_one_line sites "^x.c:2: warning: lock_kernel() in .f.$" &&
	test "$(q old.db "PRAGMA user_version")" = "$(ls "$BKL_ROOT"/db/schema/0*.sql | wc -l)" &&
	test "$(q old.db "SELECT id, path, lock FROM files")" = "7|x.c|bkl" &&
	test "$(q old.db "SELECT count(*) FROM functions WHERE file_id = 7")" = 1 &&
	test -z "$(q old.db "PRAGMA foreign_key_check")" &&
	q old.db "PRAGMA foreign_keys = ON; DELETE FROM files WHERE id = 7" &&
	test "$(q old.db "SELECT count(*) FROM functions")" = 0
'

test_expect_success 'bkl analyze -h tells the profile options' '
	bkl analyze -h >usage &&
	grep -q -- "--lock-profile NAME" usage &&
	grep -q -- "--kernel-profile NAME" usage &&
	grep -q -- "--quiet-profiles" usage
'

test_done
