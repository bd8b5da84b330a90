#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
test_description='bkl audit and bkl check: Kbuild flags, incremental runs, failures, summary'
. ./test-lib.sh

# $PRISTINE (test-lib.sh) is in the cache make test was given, not this one
BKL_CACHE=$PWD/cache
export BKL_CACHE

# ---- refusals: no kernel needed ----

test_expect_success 'a missing tree is one line' '
	test_must_fail bkl audit --tree nothere --db a.db 2>err &&
	test_one_line err "error: no kernel tree at .nothere."
'

test_expect_success 'a directory that is not a kernel tree is one line' '
	mkdir -p notkernel && echo "all:" >notkernel/Makefile &&
	test_must_fail bkl audit --tree notkernel --db a.db 2>err &&
	test_one_line err "error: .*notkernel/Makefile. has no VERSION.*not a kernel tree" &&
	mkdir -p empty &&
	test_must_fail bkl audit --tree empty --db a.db 2>err &&
	test_one_line err "error: no kernel Makefile at .*empty/Makefile."
'

test_expect_success 'a tree without Kbuild is one line' '
	mkdir -p nokbuild &&
	printf "VERSION = 6\nPATCHLEVEL = 1\nSUBLEVEL = 0\n" >nokbuild/Makefile &&
	test_must_fail bkl audit --tree nokbuild --db a.db 2>err &&
	test_one_line err "error: .*nokbuild. has no scripts/Makefile.build: not a Kbuild kernel tree"
'

test_expect_success 'a scope outside the tree, a bad config: one line each, nothing built' '
	mkdir -p fake/scripts && cp nokbuild/Makefile fake/ && : >fake/scripts/Makefile.build &&
	test_must_fail bkl audit --tree fake --db a.db drivers/nothere 2>err &&
	test_one_line err "error: .drivers/nothere. is not in the tree" &&
	test_must_fail bkl audit --tree fake --db a.db --config nosuch 2>err &&
	test_one_line err "error: .nosuch. is neither a config target" &&
	! test -e cache/audit
'

test_expect_success 'bkl check without a source file shows its usage' '
	test_must_fail bkl check --db a.db -D__KERNEL__ -Iinclude 2>err &&
	grep "^usage: bkl check" err
'

# ---- a real tree: a hard-linked copy of the pristine 6.1 with a test directory ----

# What the machine needs: the kernel tarball, make and gcc to configure the
# tree, sqlite3 to look inside.  Our own code (bkl tree, bkl audit, bkl
# analyze, bkl merge) is tested, never a reason to skip.
test_need_program MAKE make make
test_need_program GCC gcc gcc
test_need_program SQLITE3 sqlite3 sqlite3

# Never write through the hard links: replace a file, do not edit it.
replace() {	# file: copy, so the pristine inode is left alone
	cp "$1" "$1.new" && rm -f "$1" && mv "$1.new" "$1"
}

q() { sqlite3 db "$1"; }
audit() { bkl audit --tree tree --config tinyconfig --db db -j2 "$@" drivers/char/bkltest; }

test_expect_success LINUX_SOURCE 'setup: the pristine 6.1 tree (bkl tree unpacks it when missing)' '
	test_pristine_tree
'

test_expect_success LINUX_SOURCE 'setup: tree copy with drivers/char/bkltest' '
	{ cp -al "$PRISTINE/." tree 2>/dev/null || { rm -rf tree && cp -a "$PRISTINE/." tree; }; } &&
	! test -L tree &&
	replace tree/drivers/char/Makefile &&
	printf "obj-y += bkltest/\nsubdir-ccflags-y += -DBKLTEST_SUBDIR=1\n" >>tree/drivers/char/Makefile &&
	T=tree/drivers/char/bkltest && mkdir -p $T/inc &&
	cat >$T/Makefile <<-\EOF &&
	ccflags-y += -I$(srctree)/$(src)/inc
	CFLAGS_one.o += -DBKLTEST_PERFILE=1
	obj-y += one.o two.o three.o bad.o
	obj-m += mod.o
	EOF
	cat >$T/inc/bkltest.h <<-\EOF &&
	#include <linux/smp_lock.h>
	int bkltest_helper(int x);
	EOF
	cat >$T/one.c <<-\EOF &&
	#include <linux/fs.h>
	#include <bkltest.h>
	#ifndef BKLTEST_PERFILE
	#error CFLAGS_one.o missing
	#endif
	#ifndef BKLTEST_SUBDIR
	#error subdir-ccflags-y missing
	#endif
	int bkltest_open(struct inode *inode, struct file *filp)
	{
		lock_kernel();
		bkltest_helper(1);
		unlock_kernel();
		return 0;
	}
	EOF
	printf "#include <bkltest.h>\nint bkltest_helper(int x)\n{\n\treturn x;\n}\n" >$T/two.c &&
	printf "int bkltest_three(void)\n{\n\treturn 3;\n}\n" >$T/three.c &&
	printf "#include <bkltest.h>\nint bkltest_unlisted(void)\n{\n\treturn 0;\n}\n" >$T/unlisted.c &&
	printf "#ifndef MODULE\n#error -DMODULE missing\n#endif\nconst char *bkltest_name = KBUILD_MODNAME;\n" >$T/mod.c &&
	printf "int bkltest_bad(void\n{\n\treturn ;;; }}}\n" >$T/bad.c &&
	cat >tree/include/linux/smp_lock.h <<-\EOF
	#ifndef __LINUX_SMPLOCK_H
	#define __LINUX_SMPLOCK_H
	#ifdef CONFIG_BKL
	extern void lock_kernel(void);
	extern void unlock_kernel(void);
	#else
	#define lock_kernel()	do { } while (0)
	#define unlock_kernel()	do { } while (0)
	#endif
	#endif
	EOF
'

test_expect_success LINUX_SOURCE,MAKE,GCC,SQLITE3 'first run: configured out of tree, warns once that lock_kernel() is no call' '
	audit >out 2>err &&
	grep "^audit: 6 files: 6 analyzed, 0 skipped (unchanged), 1 failed" out &&
	test "$(grep -c "warning:" err)" = 1 &&
	grep "warning: lock_kernel() is not a real call after preprocessing: CONFIG_BKL is not set in tinyconfig" err &&
	test -f cache/audit/tinyconfig-*/include/generated/autoconf.h &&
	! test -e tree/.config && ! test -e tree/include/generated &&
	test "$(q "SELECT value FROM meta WHERE key = '\''audit.config_bkl'\''")" = n &&
	test "$(q "SELECT value FROM meta WHERE key = '\''audit.config'\''")" = tinyconfig
'

test_expect_success LINUX_SOURCE,MAKE,GCC,SQLITE3 'Kbuild flags: per-directory, per-file, subdir, -DMODULE, unlisted files' '
	for f in one two three mod unlisted; do
		test "$(q "SELECT status FROM audit_files WHERE path = '\''drivers/char/bkltest/$f.c'\''")" = ok ||
		{ q "SELECT * FROM audit_files WHERE path LIKE '\''%$f.c'\''"; return 1; }
	done
'

test_expect_success LINUX_SOURCE,MAKE,GCC,SQLITE3 'a file sparse cannot parse is recorded, the run goes on' '
	test "$(q "SELECT status FROM audit_files WHERE path = '\''drivers/char/bkltest/bad.c'\''")" = error &&
	q "SELECT error FROM audit_files WHERE path = '\''drivers/char/bkltest/bad.c'\''" | grep . &&
	grep "^audit: parse failures 1/6 (16.7%); outside arch/ other than x86 1/6 (16.7%)" out
'

test_expect_success LINUX_SOURCE,MAKE,GCC,SQLITE3 'second run skips everything' '
	audit >out &&
	grep "^audit: 6 files: 0 analyzed, 6 skipped (unchanged), 0 failed" out &&
	grep "^audit: parse failures 1/6" out
'

test_expect_success LINUX_SOURCE,MAKE,GCC,SQLITE3 'a global pass run with other rules (an older bkl) runs again, nothing re-analyzed' '
	q "UPDATE meta SET value = '\''older'\'' WHERE key = '\''analyzer.rules'\''" &&
	audit >out &&
	grep "^audit: 6 files: 0 analyzed, 6 skipped" out &&
	rules=$(q "SELECT value FROM meta WHERE key = '\''analyzer.rules'\''") &&
	test -n "$rules" && test "$rules" != older &&
	test "$(q "SELECT value FROM meta WHERE key = '\''analyzer.resolved'\''")" = 1
'

test_expect_success LINUX_SOURCE,MAKE,GCC,SQLITE3 'touching a header without changing it re-analyzes nothing' '
	touch tree/drivers/char/bkltest/inc/bkltest.h &&
	audit >out &&
	grep "^audit: 6 files: 0 analyzed, 6 skipped" out
'

test_expect_success LINUX_SOURCE,MAKE,GCC,SQLITE3 'editing a header re-analyzes its includers only' '
	echo "int bkltest_more(void);" >>tree/drivers/char/bkltest/inc/bkltest.h &&
	q "SELECT path, analyzed_at FROM audit_files ORDER BY path" >before &&
	sleep 1 && audit >out &&
	grep "^audit: 6 files: 3 analyzed, 3 skipped" out &&
	q "SELECT path, analyzed_at FROM audit_files ORDER BY path" >after &&
	diff before after | sed -n "s/^> \([^|]*\)|.*/\1/p" | sort >changed &&
	printf "drivers/char/bkltest/one.c\ndrivers/char/bkltest/two.c\ndrivers/char/bkltest/unlisted.c\n" >expect &&
	test_cmp expect changed
'

test_expect_success LINUX_SOURCE,MAKE,GCC,SQLITE3 'changing a file re-analyzes it' '
	printf "int bkltest_three(void)\n{\n\treturn 33;\n}\n" >tree/drivers/char/bkltest/three.c &&
	audit >out &&
	grep "^audit: 6 files: 1 analyzed, 5 skipped" out
'

test_expect_success LINUX_SOURCE,MAKE,GCC,SQLITE3 'changing a file'\''s flags in its Makefile re-analyzes it' '
	echo "CFLAGS_three.o += -DBKLTEST_THREE=1" >>tree/drivers/char/bkltest/Makefile &&
	audit >out &&
	grep "^audit: 6 files: 1 analyzed, 5 skipped" out
'

test_expect_success LINUX_SOURCE,MAKE,GCC,SQLITE3 '--force analyzes everything again' '
	audit --force >out &&
	grep "^audit: 6 files: 6 analyzed, 0 skipped (unchanged), 1 failed" out
'

# The tests after it know the six files: part.c goes again, pass or fail.
drop_part() {
	rm -f tree/drivers/char/bkltest/part.c &&
	p=drivers/char/bkltest/part.c &&
	q "PRAGMA foreign_keys = ON; DELETE FROM files WHERE path = '$p';
	   DELETE FROM audit_files WHERE path = '$p'; DELETE FROM audit_kinds WHERE path = '$p'"
}

test_expect_success LINUX_SOURCE,MAKE,GCC,SQLITE3 'a file sparse dropped code of is counted partial, apart from failed ones' '
	printf "struct foo { int x; };\nextern struct foo __attribute__((noderef, address_space(__bkltest))) *gp;\nint bkltest_part(struct foo *p)\n{\n\tif (gp == p)\n\t\treturn 1;\n\treturn 0;\n}\n" >tree/drivers/char/bkltest/part.c &&
	{
		audit >out &&
		grep "^audit: 7 files: 1 analyzed, 6 skipped (unchanged), 0 failed, 1 partial (sparse dropped code)" out &&
		q "SELECT partial FROM files WHERE path = '\''drivers/char/bkltest/part.c'\''" | grep "part.c:5:.*different address spaces" &&
		test "$(q "SELECT name FROM functions WHERE partial")" = bkltest_part
	} && drop_part || { drop_part; false; }
'

test_expect_success LINUX_SOURCE,MAKE,GCC,SQLITE3 'without it, nothing is partial' '
	audit >out &&
	grep "^audit: 6 files: 0 analyzed, 6 skipped (unchanged), 0 failed$" out
'

test_expect_success LINUX_SOURCE,MAKE,GCC,SQLITE3 'a tree whose Kconfig has CONFIG_BKL: enabled, no warning, sites found' '
	replace tree/init/Kconfig &&
	printf "\nconfig BKL\n\tbool \"The Big Kernel Lock\"\n\nconfig BKL_LEGACY_SITES\n\tbool \"BKL legacy sites\"\n\tdepends on BKL\n" >>tree/init/Kconfig &&
	audit >out 2>err &&
	! grep "warning:" err &&
	test "$(q "SELECT value FROM meta WHERE key = '\''audit.config_bkl'\''")" = y &&
	test "$(q "SELECT value FROM meta WHERE key = '\''audit.lock_kernel_call'\''")" = yes &&
	grep "^audit: 6 files: 6 analyzed" out &&
	grep "^audit: database: [1-9][0-9]* BKL sites" out
'

test_expect_success LINUX_SOURCE,MAKE,GCC,SQLITE3 'bkl check as the Kbuild checker: make C=2 CHECK=...' '
	O=$(echo "$PWD"/cache/audit/tinyconfig-*) &&
	make -k -s -C tree O="$O" C=2 CHECK="bkl check --db $PWD/check.db" \
		drivers/char/bkltest/one.o drivers/char/bkltest/two.o >make.out 2>&1 &&
	sqlite3 check.db "SELECT path FROM files WHERE path LIKE '\''%bkltest%'\'' ORDER BY path" >paths &&
	printf "drivers/char/bkltest/one.c\ndrivers/char/bkltest/two.c\n" >expect &&
	test_cmp expect paths &&
	test "$(sqlite3 check.db "SELECT count(*) FROM files WHERE path LIKE '\''%bkltest%'\'' AND status = '\''ok'\''")" = 2 &&
	bkl merge --db check.db
'

test_expect_success LINUX_SOURCE,MAKE,GCC,SQLITE3 'a chain in a file the configuration does not build: built false, never precise' '
	for f in three unlisted; do
		printf "#include <linux/delay.h>\n#include <bkltest.h>\nint bkltest_%s(void)\n{\n\tlock_kernel();\n\tmsleep(1);\n\tunlock_kernel();\n\treturn 0;\n}\n" \
			$f >tree/drivers/char/bkltest/$f.c || return 1
	done &&
	audit >out &&
	q "SELECT path, kind FROM audit_kinds ORDER BY path" >kinds &&
	cat >expect <<-\EOF &&
	drivers/char/bkltest/bad.c|F
	drivers/char/bkltest/mod.c|F
	drivers/char/bkltest/one.c|F
	drivers/char/bkltest/three.c|F
	drivers/char/bkltest/two.c|F
	drivers/char/bkltest/unlisted.c|D
	EOF
	test_cmp expect kinds &&
	bkl chains --db db >chains &&
	grep "^drivers/char/bkltest/unlisted.c:6: .*(sleep; in a file the audited configuration does not build):" chains &&
	grep "^drivers/char/bkltest/three.c:6: .*(sleep):" chains &&
	bkl chains --db db --precise >precise &&
	grep "^drivers/char/bkltest/three.c:6:" precise &&
	! grep unlisted precise &&
	bkl chains --db db --json >chains.json &&
	grep "\"function\": \"bkltest_unlisted\".*\"built\": false" chains.json &&
	grep "\"function\": \"bkltest_three\".*\"built\": true" chains.json &&
	bkl report --db db --lock bkl >report &&
	grep "bkltest_unlisted: sleep .*(not precise: in a file the audited configuration does not build)" report &&
	grep "chains that sleep or wait with it held (1 precise" report
'

# bkltest_pick is built in pk.c and unlisted in pq.c, which comes second
# (a second run): the last definition seen, the sleeping one, is not the
# one a call by name reaches
test_expect_success LINUX_SOURCE,MAKE,GCC,SQLITE3 'a call by name reaches the definition the configuration builds' '
	T=tree/drivers/char/bkltest &&
	replace $T/Makefile && echo "obj-y += pk.o callers.o" >>$T/Makefile &&
	printf "int bkltest_pick(void)\n{\n\treturn 1;\n}\n" >$T/pk.c &&
	cat >$T/callers.c <<-\EOF &&
	#include <bkltest.h>
	int bkltest_pick(void);
	int bkltest_callers(void)
	{
		int r;

		lock_kernel();
		r = bkltest_pick();
		unlock_kernel();
		return r;
	}
	EOF
	audit >out &&
	printf "#include <linux/delay.h>\nint bkltest_pick(void)\n{\n\tmsleep(1);\n\treturn 1;\n}\n" >$T/pq.c &&
	audit >out &&
	q "SELECT path || '\'' '\'' || kind FROM audit_kinds WHERE path GLOB '\''*bkltest/p[kq].c'\'' ORDER BY path" >kinds &&
	printf "drivers/char/bkltest/pk.c F\ndrivers/char/bkltest/pq.c D\n" >expect &&
	test_cmp expect kinds &&
	bkl chains --db db >chains &&
	! grep bkltest_callers chains &&
	q "SELECT count(*) FROM functions WHERE name = '\''bkltest_pick'\''" >n &&
	test "$(cat n)" = 2 &&
	rm $T/pk.c $T/pq.c $T/callers.c && sed -i "\$d" $T/Makefile &&
	audit >out && grep "^audit: 3 files gone from the tree" out
'

# ---- the order, a killed audit resumed, shards on several "hosts" ----

SCOPE="drivers/char/bkltest drivers/misc/bkltest2 lib/bkltest3.c lib/bkltest4.c"
audit_all() { bkl audit --tree tree --config tinyconfig -j1 "$@" $SCOPE; }
# sparse takes seconds over this one (3^10 copies of v): an audit to kill
slow_c='#define A(x) ((x) + (x) * 3 + ((x) ^ 5))
#define B(x) A(A(A(x)))
#define C(x) B(B(x))
int bkltest4(int v)
{
	return C(A(B(v)));
}'

test_expect_success LINUX_SOURCE 'setup: a char-device registrar, its neighbour, two files elsewhere' '
	replace tree/drivers/misc/Makefile &&
	echo "obj-y += bkltest2/" >>tree/drivers/misc/Makefile &&
	mkdir -p tree/drivers/misc/bkltest2 &&
	echo "obj-y += reg.o other.o" >tree/drivers/misc/bkltest2/Makefile &&
	cat >tree/drivers/misc/bkltest2/reg.c <<-\EOF &&
	#include <linux/miscdevice.h>
	static struct miscdevice bkltest2_dev;
	int bkltest2_init(void)
	{
		return misc_register(&bkltest2_dev);
	}
	EOF
	printf "int bkltest2_other(void)\n{\n\treturn 2;\n}\n" >tree/drivers/misc/bkltest2/other.c &&
	replace tree/lib/Makefile &&
	echo "obj-y += bkltest3.o bkltest4.o" >>tree/lib/Makefile &&
	printf "int bkltest3(void)\n{\n\treturn 3;\n}\n" >tree/lib/bkltest3.c &&
	printf "%s\n" "$slow_c" >tree/lib/bkltest4.c
'

test_expect_success LINUX_SOURCE,MAKE,GCC,SQLITE3 '--plan: drivers/char first, then the registrar and its directory, then the rest' '
	audit_all --db db --plan --force >plan &&
	cat >expect <<-\EOF &&
	0	drivers/char/bkltest/bad.c
	0	drivers/char/bkltest/mod.c
	0	drivers/char/bkltest/one.c
	0	drivers/char/bkltest/three.c
	0	drivers/char/bkltest/two.c
	0	drivers/char/bkltest/unlisted.c
	1	drivers/misc/bkltest2/other.c
	1	drivers/misc/bkltest2/reg.c
	2	lib/bkltest3.c
	2	lib/bkltest4.c
	EOF
	test_cmp expect plan &&
	audit_all --db db --plan >plan &&
	sed -n "7,10p" expect >expect.new &&
	test_cmp expect.new plan &&
	test "$(q "SELECT count(*) FROM audit_pending")" = 0
'

# The audit in its own session, so that kill -9 takes its analyzers too.
test_expect_success LINUX_SOURCE,MAKE,GCC,SQLITE3 'an audit killed with -9 mid-run: the readers say it stopped and how far it got' '
	{ setsid bkl audit --tree tree --config tinyconfig -j1 --batch 1 --db db $SCOPE >killed.out 2>&1 & } &&
	pid=$! && n=0 &&
	while test "$(q "SELECT count(*) FROM audit_pending")" != 1 && test $n -lt 600; do
		sleep 0.1; n=$((n + 1))
	done &&
	test "$(q "SELECT path FROM audit_pending")" = lib/bkltest4.c &&
	kill -0 $pid && kill -9 -$pid &&
	{ wait $pid; test $? = 137; } &&
	test "$(q "SELECT value FROM meta WHERE key = '\''audit.state'\''")" = running &&
	bkl report --db db --format json >report.json 2>report.err &&
	grep "\"audit\": {\"state\":\"stopped\",\"total\":10,\"analyzed\":9,\"running\":false" report.json &&
	grep "\"pending_areas\":\[{\"area\":\"lib\",\"left\":1}\]" report.json &&
	bkl pick --db db >pick.out 2>pick.err;
	grep "warning: the audit is incomplete: 9 of 10 files analyzed (90.0%, stopped); 2 of 3 areas complete, drivers/char complete; run .make audit. (or .bkl audit.) to resume" pick.err &&
	bkl drivers --db db >/dev/null 2>drivers.err &&
	sed "s/^bkl pick: /bkl drivers: /" pick.err >expect &&
	test_cmp expect drivers.err
'

test_expect_success LINUX_SOURCE,MAKE,GCC,SQLITE3 'run again, it resumes: only the file it was in is analyzed, then it is complete' '
	replace tree/lib/bkltest4.c &&
	printf "int bkltest4(int v)\n{\n\treturn v;\n}\n" >tree/lib/bkltest4.c &&
	audit_all --db db >out &&
	grep "^audit: 10 files: 1 analyzed, 9 skipped (unchanged), 0 failed" out &&
	test "$(q "SELECT value FROM meta WHERE key = '\''audit.state'\''")" = complete &&
	test "$(q "SELECT count(*) FROM audit_pending")" = 0 &&
	bkl pick --db db >pick.out 2>pick.err;
	! grep "incomplete" pick.err &&
	bkl report --db db --format json | grep "\"audit\": {\"state\":\"complete\",\"total\":10,\"analyzed\":10,\"running\":false"
'

test_expect_success LINUX_SOURCE,MAKE,GCC,SQLITE3 '--jobs-list N: N shard commands; bkl merge joins their databases into the same facts' '
	audit_all --db sharded --force --jobs-list 2 >jobs &&
	test "$(wc -l <jobs)" = 2 &&
	grep "^BKL_CACHE=.$PWD/cache. .*/bkl. audit --tree .*/tree. --config .tinyconfig. --db .$PWD/sharded.shard-1-of-2. -j 1 --timeout 300 --shard 1/2 --force .drivers/char/bkltest. " jobs &&
	grep -- "--shard 2/2" jobs &&
	! test -e sharded &&
	sh -e jobs >shards.out 2>&1 &&
	a=$(sqlite3 sharded.shard-1-of-2 "SELECT count(*) FROM audit_files") &&
	b=$(sqlite3 sharded.shard-2-of-2 "SELECT count(*) FROM audit_files") &&
	test $a -gt 0 && test $b -gt 0 && test $((a + b)) = 10 &&
	bkl merge --db sharded sharded.shard-1-of-2 sharded.shard-2-of-2 &&
	test "$(sqlite3 sharded "SELECT count(*) FROM audit_files")" = 10 &&
	bkl sites --db db --json >sites.db &&
	bkl sites --db sharded --json >sites.sharded &&
	grep bkltest_open sites.db && test_cmp sites.db sites.sharded &&
	audit_all --db sharded >out &&
	grep "^audit: 10 files: 0 analyzed, 10 skipped (unchanged)" out
'

test_need_program PARALLEL parallel parallel

# ssh as GNU parallel calls it, to a "host" that is this machine.
test_expect_success LINUX_SOURCE,MAKE,GCC,SQLITE3,PARALLEL 'the shard commands under GNU parallel on two ssh "hosts", merged' '
	cat >fakessh <<-\EOF &&
	#!/bin/sh
	# ssh [OPTIONS] HOST [--] COMMAND...: COMMAND here, as HOST would run it
	while :; do
		case $1 in
		-[bcDEeFIiJLlmOopQRSWw]) shift 2 ;;
		-*) shift ;;
		*) break ;;
		esac
	done
	echo "$1" >>"$(dirname "$0")/hosts"
	shift
	test "$1" = -- && shift
	# sshd gives the login its SHELL; parallel runs the job with it
	# (without one, its remote wrapper runs nothing and exits 0)
	SHELL=/bin/sh exec sh -c "$*"
	EOF
	chmod +x fakessh &&
	audit_all --db par --force --jobs-list 2 >jobs &&
	parallel --will-cite --ssh "$PWD/fakessh" --sshlogin 1/h1,1/h2 <jobs >par.out 2>&1 &&
	printf "h1\nh2\n" >expect && sort -u hosts >hosts.used && test_cmp expect hosts.used &&
	bkl merge --db par par.shard-1-of-2 par.shard-2-of-2 &&
	bkl sites --db par --json >sites.par &&
	test_cmp sites.db sites.par
'

# ---- another big lock: rtnl, with its own lock profile and database ----

test_expect_success LINUX_SOURCE,MAKE,GCC,SQLITE3 '--lock rtnl: its own database, the profiles said once, rtnl facts per area' '
	cat >tree/drivers/misc/bkltest2/rt.c <<-\EOF &&
	#include <linux/rtnetlink.h>
	#include <linux/delay.h>
	int bkltest2_rt(int x)
	{
		rtnl_lock();
		msleep(10);
		if (x)
			return -1;
		rtnl_unlock();
		return 0;
	}
	EOF
	echo "obj-y += rt.o" >>tree/drivers/misc/bkltest2/Makefile &&
	bkl audit --tree tree --config tinyconfig -j1 --lock rtnl drivers/misc/bkltest2 >out 2>err &&
	test "$(grep -c "profiles: " err)" = 1 && grep "profiles: .*rtnl" err &&
	grep "^audit: 3 files: 3 analyzed, 0 skipped" out &&
	test "$(sqlite3 cache/rtnl.db "SELECT DISTINCT lock FROM files")" = rtnl &&
	test "$(q "SELECT count(*) FROM files WHERE lock != '\''bkl'\''")" = 0 &&
	bkl report --lock rtnl >rep &&
	grep "^lock rtnl: 3 files analyzed (0 failed): 2 sites, 1 imbalances, 1 chains .*(1 precise: no call by type, every file built)$" rep &&
	grep "^    2           1       1        1  drivers/misc/bkltest2$" rep &&
	grep "^  drivers/misc/bkltest2/rt.c:[0-9]*: bkltest2_rt: return-held$" rep &&
	grep "^  drivers/misc/bkltest2/rt.c:6: bkltest2_rt: sleep with rtnl held: bkltest2_rt -> msleep$" rep &&
	grep "^      drivers/misc/bkltest2/rt.c:6: bkltest2_rt calls msleep (direct)$" rep &&
	bkl report --lock rtnl --format json >rep.json &&
	grep "^{\"format\": \"bkl-lock-report\", \"version\": 2, \"lock\": \"rtnl\", \"totals\": {\"files\": 3, " rep.json &&
	grep "\"class\": \"sleep\", \"path\": \[\"bkltest2_rt\",\"msleep\"\], \"by_type\": 0, \"origin\": \"held\", \"built\": true, \"steps\": \[{\"function\": \"bkltest2_rt\", \"file\": \"drivers/misc/bkltest2/rt.c\", \"line\": 6, \"edge\": \"direct\", \"candidates\": 1}" rep.json &&
	bkl audit --tree tree --config tinyconfig -j1 --lock rtnl drivers/misc/bkltest2 >out 2>err &&
	grep "^audit: 3 files: 0 analyzed, 3 skipped" out
'

test_expect_success LINUX_SOURCE,MAKE,GCC,SQLITE3 'an audited database holds one lock: rtnl into the BKL one is refused' '
	test_must_fail bkl audit --tree tree --config tinyconfig --db db --lock rtnl drivers/misc/bkltest2 2>err &&
	test_one_line err "error: .*db. holds facts of lock .bkl.: audit .rtnl. into a database of its own (without --db: .*cache/rtnl.db.)" &&
	test_must_fail bkl report --lock console 2>err &&
	test_one_line err "error: no database at .*cache/console.db. (run .bkl audit --lock console.)"
'

test_done
