#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
test_description='bkl qemu: the console classifier on recorded logs, real boots'
. ./test-lib.sh

FIX=$BKL_ROOT/qemu-tests/fixtures
NOBKL=$BKL_ROOT/qemu-tests/boot/nobkl.expect

# classify LOG EXPECT: the JSON verdict object in out.json, bkl's exit
# status in rc; succeeds either way, so that it chains with &&.
classify() {
	rc=0
	bkl qemu --classify "$FIX/$1" --expect "$2" --json >out.json || rc=$?
	cat out.json
}

# The kinds of the unexpected reports, one per line, in console order.
unexpected_kinds() {
	grep -o '"kind":"[a-z-]*","expected":false' out.json | sed 's/"kind":"\([a-z-]*\)".*/\1/'
}

expected_kinds() {
	grep -o '"kind":"[a-z-]*","expected":true' out.json | sed 's/"kind":"\([a-z-]*\)".*/\1/'
}

# ---- the classifier, on consoles recorded from real boots (record.sh) ----

test_expect_success 'a clean console passes, selftest narration is no report' '
	grep "test_splat: BKL narration" "$FIX/clean.log" &&
	classify clean.log "$NOBKL" && test $rc = 0 &&
	grep "\"verdict\":\"pass\"" out.json &&
	grep "\"reports\":\[\],\"missing\":\[\]" out.json
'

test_expect_success 'the text verdict of a clean console' '
	bkl qemu --classify "$FIX/clean.log" --expect "$NOBKL" >out &&
	grep "^.*clean.log: pass (0 reports, 0 expected)$" out
'

test_expect_success 'an unexpected lockdep splat fails, with its excerpt' '
	classify circular.log "$NOBKL" && test $rc = 1 &&
	grep "\"verdict\":\"fail\"" out.json &&
	test "$(unexpected_kinds)" = lockdep &&
	grep "\"excerpt\":\"WARNING: possible circular locking dependency detected" out.json &&
	test_must_fail bkl qemu --classify "$FIX/circular.log" --expect "$NOBKL" >out &&
	grep "^  unexpected lockdep report, console lines [0-9]*-[0-9]*:$" out &&
	grep "^    | WARNING: possible circular locking dependency detected$" out &&
	grep "^    | .* is trying to acquire lock:$" out
'

test_expect_success 'a report directive makes the same splat expected' '
	classify circular.log "$FIX/circular.expect" && test $rc = 0 &&
	test "$(expected_kinds)" = lockdep
'

test_expect_success 'a console cut short is a timeout, quoting where it stopped' '
	classify truncated.log "$NOBKL" && test $rc = 1 &&
	grep "\"verdict\":\"timeout\"" out.json &&
	grep "\"kind\":\"timeout\",\"expected\":false,\"lines\":\[[0-9]*,[0-9]*\],\"excerpt\":\"[^\"]*chardev-open: /dev/ptmx" out.json &&
	grep -F "\"missing\":[\"line ^init: chardev-open: exit status 0 \\\\(\"," out.json
'

test_expect_success 'a kernel that hangs in an initcall is a timeout' '
	classify hang.log "$NOBKL" && test $rc = 1 &&
	grep "\"verdict\":\"timeout\"" out.json
'

test_expect_success 'an unexpected WARN() fails, with the message it printed' '
	classify warn.log "$NOBKL" && test $rc = 1 &&
	test "$(unexpected_kinds)" = warning &&
	grep "\"excerpt\":\"------------\[ cut here \]------------\\\\nsplat: a WARN() with its message\\\\nWARNING: CPU: " out.json
'

test_expect_success 'a WARN() the expect file allows passes' '
	classify warn.log "$FIX/warn.expect" && test $rc = 0 &&
	test "$(expected_kinds)" = warning
'

test_expect_success 'each kind of report is found, as its own block' '
	classify reports.log "$FIX/reports.expect" && test $rc = 0 &&
	expected_kinds >kinds &&
	printf "lockdep\nbkl\nselftest\nlockdep\nlockdep\nlockdep\noops\n" >want &&
	test_cmp want kinds
'

test_expect_success 'a report no directive allows fails alone' '
	grep -v "BKL: flush" "$FIX/reports.expect" >no-bkl.expect &&
	classify reports.log no-bkl.expect && test $rc = 1 &&
	test "$(unexpected_kinds)" = bkl &&
	grep "\"excerpt\":\"BKL: flush_workqueue() called with the BKL held by splat/1\"" out.json
'

test_expect_success 'a hung task carries the list of locks naming the owner' '
	classify hung.log "$FIX/hung.expect" && test $rc = 0 &&
	test "$(expected_kinds | sort -u)" = hung-task &&
	classify hung.log "$NOBKL" && test $rc = 1 &&
	test "$(unexpected_kinds | sort -u)" = hung-task
'

test_expect_success 'a panic fails the boot, it is no timeout' '
	classify panic.log "$NOBKL" && test $rc = 1 &&
	grep "\"verdict\":\"fail\"" out.json &&
	test "$(unexpected_kinds)" = panic
'

test_expect_success 'directives nothing matched are listed as missing' '
	cp "$NOBKL" more.expect &&
	echo "line ^no such line\$" >>more.expect &&
	echo "report never reported" >>more.expect &&
	classify clean.log more.expect && test $rc = 1 &&
	grep "\"verdict\":\"fail\"" out.json &&
	grep "\"missing\":\[\"line ^no such line\$\",\"report never reported\"\]" out.json
'

test_expect_success 'a bad expect file is one line naming file and line' '
	printf "# fine\nline ok\nexpect nothing\n" >bad.expect &&
	test_must_fail bkl qemu --classify "$FIX/clean.log" --expect bad.expect 2>err &&
	test_one_line err "error: bad.expect:3: unknown directive .expect." &&
	printf "report (unclosed\n" >bad.expect &&
	test_must_fail bkl qemu --classify "$FIX/clean.log" --expect bad.expect 2>err &&
	test_one_line err "error: bad.expect:1: bad regular expression" &&
	printf "line\n" >bad.expect &&
	test_must_fail bkl qemu --classify "$FIX/clean.log" --expect bad.expect 2>err &&
	test_one_line err "error: bad.expect:1: .line. needs a regular expression"
'

test_expect_success 'misuse is refused in one line' '
	test_must_fail bkl qemu --classify nothere.log --expect "$NOBKL" 2>err &&
	test_one_line err "error: cannot read the console log .nothere.log." &&
	test_must_fail bkl qemu --classify "$FIX/clean.log" 2>err &&
	test_one_line err "error: --classify needs --expect FILE" &&
	test_must_fail bkl qemu --accel hvf 2>err &&
	test_one_line err "error: --accel must be auto, tcg or kvm" &&
	test_must_fail bkl qemu --config no-such-fragment 2>err &&
	test_one_line err "error: no config fragment .*/qemu-tests/configs/no-such-fragment.config."
'

# ---- real boots: need QEMU, the kernel source and a static libc ----

test_need_qemu


test_expect_success QEMU 'the nobkl kernel boots clean and the exerciser runs' '
	bkl qemu --config nobkl --json >out.json &&
	cat out.json &&
	grep "\"verdict\":\"pass\"" out.json &&
	grep "\"reports\":\[\],\"missing\":\[\]" out.json &&
	log=$(sed "s/.*\"log\":\"\([^\"]*\)\".*/\1/" out.json) &&
	grep "^chardev-open: done: [1-9][0-9]* opens, 0 devices missing" "$log" &&
	grep "^bkl-qemu: end of tests" "$log"
'

test_expect_success QEMU 'a second run reuses the kernel: no rebuild' '
	bkl qemu --config nobkl --json >out.json &&
	cat out.json &&
	grep "\"build_cached\":true" out.json &&
	grep "\"build_seconds\":[0-4]\.[0-9]," out.json
'

# A series with one more patch, on kernel/panic.c: same configuration,
# another kernel.  Kbuild must rebuild panic.o (and what links it) only,
# and again when the patch goes away: a file put back with its old
# pristine mtime would leave the patched object in the kernel.
test_expect_success QEMU 'a new series rebuilds only what it changed, both ways' '
	mkdir -p inc && cp -r "$BKL_ROOT/patches" inc/patches &&
	ln -s "$BKL_ROOT/qemu-tests" inc/qemu-tests &&
	mkdir -p a/kernel b/kernel && cp "$PRISTINE/kernel/panic.c" a/kernel/ &&
	sed "1a/* bkl-audit: t2000 incremental build */" a/kernel/panic.c >b/kernel/panic.c &&
	{ diff -u a/kernel/panic.c b/kernel/panic.c >inc/patches/9999-t2000.patch; test $? = 1; } &&
	echo 9999-t2000.patch >>inc/patches/series &&
	BKL_REPO=$PWD/inc bkl qemu --config nobkl --json >out.json &&
	cat out.json && grep "\"verdict\":\"pass\"" out.json &&
	dir=$(sed "s/.*\"log\":\"\([^\"]*\)\/console-[^\"]*\".*/\1/" out.json) &&
	grep "t2000 incremental" "$dir/src/kernel/panic.c" &&
	grep "^  CC      kernel/panic.o" "$dir/build.log" &&
	test $(grep -c "^  CC  " "$dir/build.log") -lt 300 &&
	bkl qemu --config nobkl --json >out.json &&
	cat out.json && grep "\"verdict\":\"pass\"" out.json &&
	! grep "t2000 incremental" "$dir/src/kernel/panic.c" &&
	grep "^  CC      kernel/panic.o" "$dir/build.log" &&
	test $(grep -c "^  CC  " "$dir/build.log") -lt 300
'

test_expect_success QEMU 'a boot that outlives --timeout is killed: timeout' '
	test_must_fail bkl qemu --config nobkl --timeout 1 --json >out.json &&
	cat out.json &&
	grep "\"verdict\":\"timeout\"" out.json &&
	grep "\"boot_seconds\":1\.[0-9]," out.json
'

test_expect_success QEMU 'an option Kconfig drops is one line naming its unmet dependency, no build' '
	mkdir -p repo/qemu-tests/configs repo/qemu-tests/boot &&
	ln -s "$BKL_ROOT/patches" repo/patches &&
	cp "$BKL_ROOT/qemu-tests/configs/base.config" repo/qemu-tests/configs/ &&
	cp "$NOBKL" repo/qemu-tests/boot/dropped.expect &&
	printf "CONFIG_BKL_AUDIT_NO_SUCH_OPTION=y\nCONFIG_HPET=y\n" >repo/qemu-tests/configs/dropped.config &&
	test_must_fail env BKL_REPO=$PWD/repo bkl qemu --config dropped --json >out.json 2>err &&
	cat out.json err &&
	test $(wc -l <err) = 2 &&
	grep "^bkl qemu: error: kernel config: CONFIG_BKL_AUDIT_NO_SUCH_OPTION=y (dropped.config) is not set in the final .config: there is no such option in the tree.s Kconfig$" err &&
	grep "^CONFIG_HPET=y (dropped.config) is not set in the final .config: it depends on (ACPI), and CONFIG_ACPI is not set$" err &&
	grep "\"verdict\":\"build-failed\"" out.json &&
	log=$(sed "s/.*\"log\":\"\([^\"]*\)\".*/\1/" out.json) &&
	test -f "$log" && ! test -f "$(dirname "$log")/arch/x86/boot/bzImage" &&
	rm -rf "$(dirname "$log")"
'

# The series is ours: a kill-the-BKL core missing from it is a failure.
test_expect_success QEMU 'the bkl kernel boots, and its reports are the expected ones' '
	sed -n "s/^\([^#][^ ]*\).*/\1/p" "$BKL_ROOT/patches/series" >series &&
	(cd "$BKL_ROOT/patches" && xargs grep -l "^+++ [^ ]*lib/kernel_lock\.c") <series >core &&
	test -s core &&
	test -f "$BKL_ROOT/qemu-tests/configs/bkl.config" &&
	test -f "$BKL_ROOT/qemu-tests/boot/bkl.expect" &&
	bkl qemu --config bkl --json >out.json &&
	cat out.json &&
	grep "\"verdict\":\"pass\"" out.json
'

test_done
