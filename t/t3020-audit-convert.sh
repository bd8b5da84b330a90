#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
test_description='bkl audit-record and bkl convert: the facts, the verdict, the patch'
. ./test-lib.sh
. "$TEST_DIRECTORY/lib-campaign.sh"

use_campaign_fixture "$PWD/fx"
# The patches bkl convert writes go through checkpatch.pl from the real
# 6.1 ($PRISTINE, test-lib.sh; the setup unpacks it when missing).
test_need_program PERL perl perl
if test_have_prereq LINUX_SOURCE && test_have_prereq PERL; then
	export BKL_CHECKPATCH=$PRISTINE/scripts/checkpatch.pl
else
	export BKL_CHECKPATCH=
fi
test_need_program GCC gcc gcc
REC=$BKL_REPO/drivers-audit

applied_tree() {
	rm -rf "$1" && cp -r "$FX/cache/linux/pristine" "$1" &&
	while read p; do
		case "$p" in "#"*|"") continue;; esac
		patch -s -p1 -d "$1" <"$FX/repo/patches/$p" || return 1
	done <"$FX/repo/patches/series"
}

# Tick every item of a record's checklist.
tick_all() {	# record
	sed -i "s/^- \[ \]/- [x]/" "$1"
}

# Write a verdict into a record, its checklist done: the first line, then
# the reasoning.
set_verdict() {	# record verdict why
	tick_all "$1" &&
	awk -v v="$2" -v why="$3" '
		/^Verdict:/ { print "Verdict: " v; print why; next } { print }
	' "$1" >"$1.new" && mv "$1.new" "$1"
}

# No identity at all: no $BKL_AUTHOR, no git user (only the config given).
no_identity() {
	env -u BKL_AUTHOR GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 "$@"
}

test_expect_success LINUX_SOURCE 'setup: the pristine 6.1 tree (bkl tree unpacks it when missing)' '
	test_pristine_tree
'

test_expect_success 'setup: analyzed, and the test fixtures pushed down' '
	make_campaign_fixture "$FX" &&
	analyze_fixture "$FX" "$BKL_DB" &&
	bkl pushdown --all >/dev/null
'

test_expect_success 'convert before an audit record is refused' '
	test_must_fail bkl convert empty --verdict none 2>err &&
	test_one_line err "no audit record .*empty.md.: run .bkl audit-record. first"
'

test_expect_success 'audit-record: facts, checklist, an empty verdict' '
	bkl audit-record race foo empty bar waiter >out &&
	grep "^race: wrote drivers-audit/race-driver/race.md$" out &&
	R=$REC/race-driver/race.md &&
	grep "^| .race_open(). | drivers/char/race.c:8 | entry: ->open() called by misc_open() |" $R &&
	grep "^Other file operations: .race_ioctl().\.$" $R &&
	grep "^- registers: misc_register() in race_init() at drivers/char/race.c:37$" $R &&
	grep "^- \*\*after misc_register() at drivers/char/race.c:37, .race_table. is set here (line 41)\*\*$" $R &&
	grep "^| .race_table. | int \* | drivers/char/race.c:5 | .race_open(). reads | .race_init(). (w) |$" $R &&
	grep "^## Checklist$" $R && grep "^Verdict:$" $R &&
	grep "^  - wait, drivers/char/waiter.c:6: waiter_open -> flush_scheduled_work$" \
		$REC/char-and-misc-drivers/waiter.md &&
	grep "^- nothing the file operations read is set after a registration$" $REC/foo-driver/foo.md &&
	grep "^| .foo_count. | int | drivers/char/foo.c:4 | .foo_open(). writes | .foo_release(). (w) |$" \
		$REC/foo-driver/foo.md &&
	grep "^- module: .bar. (CONFIG_BAR), built from drivers/char/bar: drivers/char/bar/bar-core.c drivers/char/bar/bar-dev.c$" \
		$REC/bar-driver/bar.md &&
	grep "(empty) |$" $REC/char-and-misc-drivers/empty.md &&
	bkl status race >out && grep "^status: *pushed-down" out
'

test_expect_success 'regenerating the facts keeps the verdict and the notes, byte for byte' '
	R=$REC/race-driver/race.md &&
	set_verdict $R init-order "race_init() registers the device before race_table and race_size are set; race_open() and race_ioctl() read them." &&
	printf "Checked with Ann.\n\n- [x] nothing else\n" >>$R &&
	sed -i "s/^- \[ \] Read each entry point/- [x] Read each entry point/" $R &&
	sed -n "/^## Checklist$/,\$p" $R >kept.before &&
	sed -i "s/^- subsystem: .*/- subsystem: stale/" $R &&
	bkl audit-record --by "Ann Auditor <ann@example.org>" race >out &&
	grep "regenerated the facts of drivers-audit/race-driver/race.md" out &&
	sed -n "/^## Checklist$/,\$p" $R >kept.after &&
	test_cmp kept.before kept.after &&
	grep "^- subsystem: RACE DRIVER$" $R &&
	bkl status race >out && grep "^status: *audited" out &&
	bkl log race >out && grep "audit .*Ann Auditor <ann@example.org>: verdict init-order" out
'

test_expect_success 'a record whose kept part is gone is not overwritten' '
	R=$REC/bar-driver/bar.md &&
	sed -i "s/^## Checklist$/## Things/" $R && cp $R bar.before &&
	test_must_fail bkl audit-record bar 2>err &&
	test_one_line err "has no \"## Checklist\" line" &&
	test_cmp bar.before $R &&
	sed -i "s/^## Things$/## Checklist/" $R
'

test_expect_success 'an unknown verdict in a record is named' '
	R=$REC/bar-driver/bar.md &&
	set_verdict $R sometimes "maybe" &&
	test_must_fail bkl convert bar 2>err &&
	test_one_line err "unknown verdict .sometimes." &&
	set_verdict $R mutex "bar_users and bar_buf are only serialized by the BKL: open() against open()."
'

test_expect_success 'convert --verdict must agree with the record' '
	test_must_fail bkl convert race --verdict none 2>err &&
	test_one_line err "the audit record of .race. says .init-order., not .none."
'

test_expect_success 'convert refuses while the checklist has unticked items, naming the first' '
	R=$REC/char-and-misc-drivers/empty.md &&
	awk "/^Verdict:/ { print \"Verdict: none\"; next } { print }" $R >$R.new && mv $R.new $R &&
	tick_all $R &&
	sed -i "s/^- \[x\] Does anything rely on the BKL being dropped/- [ ] Does anything rely on the BKL being dropped/" $R &&
	sed -i "s/^- \[x\] Does open() look up a table/- [ ] Does open() look up a table/" $R &&
	test_must_fail bkl convert empty 2>err &&
	test_one_line err "^bkl convert: error: the audit record of .empty. (drivers-audit/char-and-misc-drivers/empty.md) has unticked checklist items, the first: \"Does anything rely on the BKL being dropped when the task sleeps (the wait chains above; schedule(), request_module() under the lock)?\"$" &&
	! ls $BKL_REPO/patches/drivers/empty/0002-* 2>/dev/null &&
	! grep "drivers/empty/0002" $BKL_REPO/patches/series &&
	bkl status empty >out && grep "^status: *pushed-down" out &&
	sed -i "s/^- \[ \] Does anything rely/- [x] Does anything rely/" $R &&
	test_must_fail bkl convert empty 2>err &&
	test_one_line err "unticked checklist items, the first: \"Does open() look up a table (minor -> device) that hotplug or module unload changes?\"$"
'

test_expect_success 'verdict none: the push-down undone' '
	set_verdict $REC/char-and-misc-drivers/empty.md none "empty_open() only calls nonseekable_open()." &&
	S=$BKL_REPO/patches/series &&
	mkdir -p $BKL_REPO/patches/end && : >$BKL_REPO/patches/end/0001-the-end.patch &&
	printf "# the end\nend/0001-the-end.patch\n" >>$S &&
	bkl convert empty >out &&
	tail -3 $S >tail &&
	sed -n 1p tail | grep "^drivers/empty/0002-char-empty" &&
	sed -n 2p tail | grep "^# the end$" &&
	sed -n 3p tail | grep "^end/0001-the-end.patch$" &&
	grep -v "^# the end$\|^end/" $S >s.new && mv s.new $S && rm -r $BKL_REPO/patches/end &&
	P=$BKL_REPO/patches/drivers/empty/0002-char-empty-remove-the-BKL-from-open.patch &&
	test_one_line out "^empty: patches/drivers/empty/0002-char-empty-remove-the-BKL-from-open.patch$" &&
	grep "^Audit: empty_open() only calls nonseekable_open().$" $P &&
	grep "^+	return nonseekable_open(inode, file);$" $P &&
	grep "^-#include <linux/smp_lock.h>$" $P &&
	tail -1 "$BKL_REPO/patches/series" | grep "0002-char-empty" &&
	bkl status empty >out && grep "^status: *converted" out
'

test_expect_success 'with nobody to sign it, or a stand-in address, convert writes nothing' '
	bkl claim bar --by "Holly Holder <holly@example.org>" &&
	P=$BKL_REPO/patches/drivers/bar/0002-char-bar-replace-the-BKL-with-a-mutex.patch &&
	test_must_fail no_identity bkl convert bar 2>err &&
	test_one_line err "^bkl convert: error: say who you are: --by \"Name <email>\", \$BKL_AUTHOR, or git.s user.name and user.email$" &&
	test_must_fail env BKL_AUTHOR="bkl-audit campaign <campaign@bkl-audit.invalid>" bkl convert bar 2>err &&
	test_one_line err "^bkl convert: error: .bkl-audit campaign <campaign@bkl-audit.invalid>. (\$BKL_AUTHOR) is not \"Name <email>\" with an address someone reads$" &&
	! test -e $P && ! grep "drivers/bar/0002" $BKL_REPO/patches/series &&
	bkl log bar | tail -1 | grep "claim  *pushed-down  *Holly Holder"
'

test_expect_success 'verdict mutex: a driver-private mutex, signed by who runs convert (git user), not the holder' '
	printf "[user]\n\tname = Gil Gitter\n\temail = gil@example.org\n" >gitconfig &&
	no_identity env GIT_CONFIG_GLOBAL=$PWD/gitconfig bkl convert bar >out &&
	P=$BKL_REPO/patches/drivers/bar/0002-char-bar-replace-the-BKL-with-a-mutex.patch &&
	grep "^From: Gil Gitter <gil@example.org>$" $P &&
	grep "^Signed-off-by: Gil Gitter <gil@example.org>$" $P &&
	! grep "Holly" $P &&
	bkl log bar | tail -1 | grep "convert  *converted  *Gil Gitter <gil@example.org>" &&
	grep "^+static DEFINE_MUTEX(bar_mutex);$" $P &&
	grep "^+	mutex_lock(&bar_mutex);$" $P && grep "^+	mutex_unlock(&bar_mutex);$" $P &&
	grep "^+#include <linux/mutex.h>$" $P && grep "^-#include <linux/smp_lock.h>$" $P
'

test_expect_success 'verdict init-order: the initialization moves above the registration' '
	bkl convert race >out &&
	P=$BKL_REPO/patches/drivers/race/0002-char-race-register-the-device-once-it-is-initialized.patch &&
	tr "\n" " " <$P | grep "(race_size and race_table are now set before misc_register())" &&
	applied_tree t1 &&
	sed -n "/^static int __init race_init/,/^}/p" t1/drivers/char/race.c >fn &&
	grep -n "race_size = 64;\|race_table = kzalloc\|misc_register" fn | cut -d: -f1 | tr "\n" " " >order &&
	test "$(cat order)" = "5 6 7 " &&
	! grep "lock_kernel" t1/drivers/char/race.c
'

test_expect_success 'misc_open() keeps its BKL until what it calls takes its own' '
	bkl audit-record misc >/dev/null &&
	set_verdict $REC/char-and-misc-drivers/misc.md none "misc_mtx serializes misc_list; the BKL only covered the opens misc_open() calls." &&
	cp "$BKL_REPO/patches/series" series.save &&
	sed -i "/^drivers\/race\//d" "$BKL_REPO/patches/series" &&
	test_must_fail bkl convert misc 2>err &&
	test_one_line err "error: .misc. calls 1 entry point of other drivers with the BKL held that takes no BKL of its own and has no audit verdict of none: race (race_open()); push it down, audit it or fix it first" &&
	cp $REC/race-driver/race.md race.save &&
	set_verdict $REC/race-driver/race.md none "race_open() reads race_table, set before misc_register(); it writes nothing." &&
	bkl convert --partial misc >out &&
	P=$BKL_REPO/patches/drivers/misc/0002-char-misc-remove-the-BKL-from-open.patch &&
	tr "\n" " " <$P | grep "the audit of each found it needs none (their records in drivers-audit/): race (race_open())" &&
	rm $P && sed -i "/^drivers\/misc\/0002/d" "$BKL_REPO/patches/series" series.save &&
	cp race.save $REC/race-driver/race.md &&
	cp series.save "$BKL_REPO/patches/series" &&
	test_must_fail bkl convert misc 2>err &&
	test_one_line err "the DB holds 8 analyzed files, not the whole tree" &&
	bkl convert --partial misc >out &&
	grep "^misc: patches/drivers/misc/0002-char-misc-remove-the-BKL-from-open.patch$" out &&
	bkl tree --check --patches "$BKL_REPO/patches" >/dev/null
'

test_expect_success 'a conversion twice, or without a push-down, is refused' '
	test_must_fail bkl convert race 2>err &&
	test_one_line err ".race. is converted already" &&
	sed -i "/drivers\/waiter\/0001/d" "$BKL_REPO/patches/series" &&
	bkl audit-record waiter >/dev/null &&
	test_must_fail bkl convert waiter --verdict none 2>err &&
	test_one_line err ".waiter. has no push-down in the series: run .bkl pushdown waiter. first"
'

test_expect_success 'verdict init-order beyond a plain move: a skeleton, not in the series' '
	F=$FX/cache/linux/pristine/drivers/char/foo.c &&
	sed -i "/^static int __init foo_init/,\$d" $F &&
	cat >>$F <<\EOF &&
static void foo_setup(void)
{
	foo_ready = 1;
}

static int __init foo_init(void)
{
	int err = register_chrdev(240, "foo", &foo_fops);

	foo_setup();
	return err;
}
module_init(foo_init);
EOF
	bkl pushdown --force foo >/dev/null &&
	analyze_fixture "$FX" "$BKL_DB" &&
	bkl audit-record foo >/dev/null &&
	grep "foo_ready. is set in foo_setup()" $REC/foo-driver/foo.md &&
	set_verdict $REC/foo-driver/foo.md init-order "foo_setup() runs after register_chrdev()." &&
	bkl convert foo >out &&
	grep "^foo: a skeleton, not in the series: patches/drivers/foo/0002-char-foo-register-the-device-once-it-is-initialized.patch.draft$" out &&
	grep "foo_ready. is set in foo_setup()" out &&
	! grep "0002-char-foo" "$BKL_REPO/patches/series" &&
	bkl status foo >out && grep "^status: *pushed-down" out
'

test_expect_success 'the queue applies, and every conversion is checked' '
	bkl tree --check --patches "$BKL_REPO/patches" >out &&
	grep "series applies" out
'

test_expect_success GCC 'converted files compile' '
	applied_tree t2 &&
	for f in drivers/char/empty.c drivers/char/race.c drivers/char/bar/bar-dev.c; do
		gcc -fsyntax-only -Wall -Werror -Wdeclaration-after-statement -I t2/include t2/$f || exit 1
	done
'

test_done
