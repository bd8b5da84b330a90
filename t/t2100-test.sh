#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
test_description='bkl test: a driver exercised in QEMU before and after its conversion; the negative controls'
. ./test-lib.sh

CTL=$BKL_ROOT/qemu-tests/controls
BKL_DB=$PWD/bkl.db
export BKL_DB

test_expect_success 'usage, bad options and unknown drivers: one line each' '
	test_must_fail bkl test 2>err &&
	grep "^usage: bkl test" err &&
	test_must_fail bkl test --before --both nvram 2>err &&
	grep "^usage: bkl test" err &&
	test_must_fail bkl test --accel hvf nvram 2>err &&
	test_one_line err "error: --accel must be auto, tcg or kvm" &&
	test_must_fail bkl test no-such-driver 2>err &&
	test_one_line err "error: no QEMU test for driver .no-such-driver.: write .*qemu-tests/drivers/no-such-driver.test" &&
	test_must_fail bkl test --mark --no-record nvram 2>err &&
	test_one_line err "error: --mark needs the results recorded"
'

test_expect_success 'a bad .test file is one line naming file and line' '
	printf "node /dev/x\nfrobnicate 1\n" >bad.test &&
	test_must_fail bkl test ./bad.test 2>err &&
	test_one_line err "error: ./bad.test:2: unknown directive .frobnicate." &&
	printf "config NVRAM\nnode /dev/x\n" >bad.test &&
	test_must_fail bkl test ./bad.test 2>err &&
	test_one_line err "error: ./bad.test:1: bad config line .NVRAM." &&
	printf "node /dev/x\nioctl /dev/y 0x1\n" >bad.test &&
	test_must_fail bkl test ./bad.test 2>err &&
	test_one_line err "error: ./bad.test:2: bad ioctl ./dev/y 0x1." &&
	printf "config CONFIG_NVRAM=y\n" >bad.test &&
	test_must_fail bkl test ./bad.test 2>err &&
	test_one_line err "error: ./bad.test: no .node. to exercise" &&
	printf "kmod /lib/x.ko\nnode /dev/x\n" >bad.test &&
	test_must_fail bkl test ./bad.test 2>err &&
	test_one_line err "error: ./bad.test:1: one .kmod PATH.ko."
'

test_expect_success 'every shipped .test file parses, and their configs agree' '
	bkl test --list "$BKL_ROOT"/qemu-tests/drivers/*.test "$CTL"/*.test >out &&
	cat out &&
	grep "^nvram: .*qemu-tests/drivers/nvram.test" out &&
	grep "^  kernel parameters: bkl_nodes=/dev/rtc0 bkl_read=/dev/rtc0 bkl_ioctls=/dev/rtc0:0x80247009,/dev/rtc0:0x80287010$" out &&
	grep "^  module: .*/qemu-tests/controls/bkl_race.ko, loaded while opening" out &&
	grep "^  module: drivers/char/ppdev.ko of the kernel build, loaded while opening" out &&
	grep "^kernel config: base.config campaign.config .*/qemu/drivers-[0-9a-f]*/drivers.config$" out &&
	grep "^CONFIG_NVRAM=y$" "$(sed -n "s/^kernel config: base.config campaign.config //p" out)"
'

test_expect_success 'two driver tests asking one option differently: one line' '
	mkdir -p conflict/qemu-tests/drivers conflict/patches &&
	printf "config CONFIG_NVRAM=y\nnode /dev/nvram\n" >conflict/qemu-tests/drivers/a.test &&
	printf "config CONFIG_NVRAM=m\nnode /dev/nvram\n" >conflict/qemu-tests/drivers/b.test &&
	: >conflict/patches/series &&
	test_must_fail env BKL_REPO=$PWD/conflict bkl test --list a 2>err &&
	test_one_line err "error: .*b.test asks CONFIG_NVRAM=m, another driver test CONFIG_NVRAM=y"
'

test_expect_success 'a driver without a push-down in the series is refused in one line' '
	mkdir -p repo/qemu-tests/drivers repo/patches/drivers/convonly repo/patches/drivers/pushonly &&
	cp -r "$BKL_ROOT/qemu-tests/configs" repo/qemu-tests/ &&
	for d in nopatch convonly pushonly; do
		printf "node /dev/null\n" >repo/qemu-tests/drivers/$d.test || return 1
	done &&
	echo "--- a/x" >repo/patches/drivers/convonly/0002-x-remove-the-BKL.patch &&
	echo "--- a/x" >repo/patches/drivers/pushonly/0001-x-push-down-the-BKL.patch &&
	printf "%s\n" drivers/convonly/0002-x-remove-the-BKL.patch \
		drivers/pushonly/0001-x-push-down-the-BKL.patch >repo/patches/series &&
	test_must_fail env BKL_REPO=$PWD/repo bkl test --before nopatch 2>err &&
	test_one_line err "error: driver .nopatch. has no push-down in patches/series (drivers/nopatch/0001-\*)" &&
	test_must_fail env BKL_REPO=$PWD/repo bkl test convonly 2>err &&
	test_one_line err "error: driver .convonly. has no push-down in patches/series" &&
	test_must_fail env BKL_REPO=$PWD/repo bkl test --before pushonly 2>err &&
	test_one_line err "error: driver .pushonly. has no conversion in patches/series" &&
	echo "pushonly  # for the test" >repo/qemu-tests/campaign-withheld &&
	test_must_fail env BKL_REPO=$PWD/repo bkl test pushonly 2>err &&
	test_one_line err "error: driver .pushonly. is withheld from the test kernel"
'

test_need_qemu

# The controls prove the harness can fail: each broken one must fail for
# its own reason, each fixed one must pass (one kernel for all six).
# bkl_flush's open() takes the BKL itself (its push-down: the test kernel's
# chrdev_open() and misc_open() take none), and the flush helper warns; its
# verdict is fail, or timeout should the boot deadlock after the warning.
# bkl_rmw is a conversion with verdict none of a driver whose open() only
# the BKL serialized: the concurrent opens lose an update, while its
# pushed-down form passes; the witness shows bkl_rmw_open() under the BKL
# only there.
test_expect_success QEMU 'negative controls: the races fail, their fixes pass' '
	test_must_fail bkl test --json --timeout 40 "$CTL/bkl_race.test" "$CTL/bkl_race_fixed.test" \
		"$CTL/bkl_flush.test" "$CTL/bkl_flush_fixed.test" \
		"$CTL/bkl_rmw.test" "$CTL/bkl_rmw_pushed.test" >out.json &&
	cat out.json &&
	test $(wc -l <out.json) = 6 &&
	grep "^{\"driver\":\"bkl_rmw\",\"phase\":\"after\".*\"verdict\":\"fail\"" out.json |
		grep "\"kind\":\"warning\",\"expected\":false" |
		grep "bkl_rmw: lost update: the open count went from" &&
	grep "^{\"driver\":\"bkl_rmw_pushed\".*\"verdict\":\"pass\"" out.json |
		grep "\"reports\":\[\],\"missing\":\[\]" |
		grep "\"acquirers\":\[.*{\"function\":\"bkl_rmw_open\",\"count\":[1-9]" &&
	! grep "^{\"driver\":\"bkl_rmw\",.*\"function\":\"bkl_rmw_open\"" out.json &&
	grep "^{\"driver\":\"bkl_race\",\"phase\":\"after\".*\"verdict\":\"fail\"" out.json |
		grep "\"kind\":\"warning\",\"expected\":false" |
		grep "bkl_race: open() before the device was initialized" &&
	grep "^{\"driver\":\"bkl_race_fixed\".*\"verdict\":\"pass\"" out.json |
		grep "\"reports\":\[\],\"missing\":\[\]" &&
	grep "^{\"driver\":\"bkl_flush\",.*\"verdict\":\"\(fail\|timeout\)\"" out.json |
		grep "BKL: flush_workqueue() called with the BKL held" &&
	grep "^{\"driver\":\"bkl_flush_fixed\".*\"verdict\":\"pass\"" out.json |
		grep "\"detail\":\"exercise: done: [1-9]"
'

test_expect_success QEMU 'the results are in the DB, with their logs kept' '
	sqlite3 "$BKL_DB" "SELECT driver, phase, result FROM qemu_results ORDER BY id" >got &&
	printf "%s\n" "bkl_race|after|fail" "bkl_race_fixed|after|pass" \
		"bkl_flush|after|fail" "bkl_flush_fixed|after|pass" \
		"bkl_rmw|after|fail" "bkl_rmw_pushed|after|pass" >want &&
	sed "s/^bkl_flush|after|timeout$/bkl_flush|after|fail/" got >got.1 &&
	test_cmp want got.1 &&
	for log in $(sqlite3 "$BKL_DB" "SELECT log FROM qemu_results"); do
		test -f "$log" && grep -q "Linux version 6\.1" "$log" || return 1
	done
'

# A real driver, both phases: nvram before its conversion (open() under
# the pushed-down BKL) and after it (no BKL), on one kernel configuration.
# The witness: nvram_misc_open() among the BKL's acquirers before, and
# gone after (misc_open() takes none in the test kernel).
test_expect_success QEMU 'nvram before and after its conversion: both clean, the witness sees it' '
	bkl test --both --json nvram >out.json &&
	cat out.json &&
	test $(wc -l <out.json) = 2 &&
	grep "^{\"driver\":\"nvram\",\"phase\":\"before\".*\"verdict\":\"pass\"" out.json |
		grep "\"witness\":{\"expect\":\"taken\",\"opens\":\[{\"function\":\"nvram_misc_open\",\"count\":[1-9][0-9]*}\]" &&
	grep "^{\"driver\":\"nvram\",\"phase\":\"after\".*\"verdict\":\"pass\"" out.json |
		grep "\"witness\":{\"expect\":\"not taken\",\"opens\":\[{\"function\":\"nvram_misc_open\",\"count\":0}\]" &&
	! grep "\"function\":\"misc_open\"" out.json &&
	sqlite3 "$BKL_DB" "SELECT q.phase, w.count FROM qemu_witness w JOIN qemu_results q
		ON q.id = w.result_id WHERE q.driver = '\''nvram'\'' AND w.pushed_down = 1
		AND w.function = '\''nvram_misc_open'\'' ORDER BY q.id" >got &&
	sed -n "1s/^before|[1-9][0-9]*$/before|N/p;2p" got >got.1 &&
	printf "%s\n" "before|N" "after|0" >want &&
	test_cmp want got.1 &&
	grep "\"detail\":\"exercise: done: [1-9][0-9]* opens of 1 nodes" out.json &&
	before=$(sed -n "1s/.*\"series\":\"\([0-9a-f]*\)\".*/\1/p" out.json) &&
	after=$(sed -n "2s/.*\"series\":\"\([0-9a-f]*\)\".*/\1/p" out.json) &&
	test -n "$before" && test "$before" != "$after"
'

test_done
