#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
test_description='the test harness: a failing command fails its test, skips say why'
. ./test-lib.sh

# A copy of the harness with one test script of our own, run in a
# directory of its own: nested/t9000-nested.sh, its results in nested.out.
nested() {	# the body of the nested script, after sourcing test-lib.sh
	rm -rf nested && mkdir nested &&
	cp "$TEST_DIRECTORY/test-lib.sh" "$TEST_DIRECTORY/run-tests.sh" nested/ &&
	{
		printf '#!/bin/sh\ntest_description=nested\n. ./test-lib.sh\n' &&
		cat &&
		printf 'test_done\n'
	} >nested/t9000-nested.sh &&
	(cd nested && env -u BKL_TEST_RESULTS -u BKL_TEST_SKIPS sh ./t9000-nested.sh) >nested.out 2>&1
}

test_expect_success 'a passing body passes' '
	nested <<-\EOF &&
	test_expect_success "true" "true; test_must_fail false; ! false"
	EOF
	cat nested.out &&
	grep "^ok 1 - true$" nested.out &&
	grep "^# t9000-nested: 1 passed, 0 failed, 0 skipped$" nested.out
'

test_expect_success 'a failing command not chained with && fails the test' '
	test_must_fail nested <<-\EOF &&
	test_expect_success "unchained" "
		false
		echo after the failure
	"
	EOF
	cat nested.out &&
	grep "^not ok 1 - unchained$" nested.out &&
	! grep "after the failure" nested.out &&
	grep "^# t9000-nested: 0 passed, 1 failed, 0 skipped$" nested.out
'

test_expect_success 'a failing command inside a helper function fails the test' '
	test_must_fail nested <<-\EOF &&
	helper() { false; echo helper went on; }
	test_expect_success "helper" "helper; true"
	EOF
	cat nested.out &&
	grep "^not ok 1 - helper$" nested.out &&
	! grep "helper went on" nested.out
'

test_expect_success 'a failure at the end of an && chain fails the test' '
	test_must_fail nested <<-\EOF &&
	test_expect_success "chain" "true && false
		true"
	EOF
	grep "^not ok 1 - chain$" nested.out
'

test_expect_success 'a test run inside a condition is refused, not passed' '
	test_must_fail nested <<-\EOF &&
	test_expect_success "in a condition" "false; true" || true
	EOF
	cat nested.out &&
	grep "called inside a condition" nested.out &&
	! grep "^ok 1" nested.out
'

test_expect_success 'a skip names the missing prerequisite and why' '
	nested <<-\EOF &&
	test_missing_prereq FROB "no frob in PATH (make setup installs frobnicator)"
	test_expect_success FROB "needs frob" "false"
	test_expect_success NOREASON "needs more" "false"
	EOF
	cat nested.out &&
	grep "^ok 1 # skip needs frob (missing FROB: no frob in PATH (make setup installs frobnicator))$" nested.out &&
	grep "^ok 2 # skip needs more (missing NOREASON: not found on this machine)$" nested.out &&
	grep "^# t9000-nested: 0 passed, 0 failed, 2 skipped$" nested.out
'

test_expect_success 'run-tests.sh lists the skips, then the closing line' '
	nested <<-\EOF &&
	test_expect_success "one" "true"
	test_expect_success FROB "needs frob" "false"
	EOF
	sh nested/run-tests.sh >out &&
	cat out &&
	grep "^skipped, and why:$" out &&
	grep "^  t9000-nested: needs frob (missing FROB: not found on this machine)$" out &&
	test "$(tail -n 1 out)" = "1 passed, 0 failed, 1 skipped"
'

test_expect_success 'run-tests.sh counts a script that dies before test_done as failed' '
	nested <<-\EOF &&
	test_expect_success "one" "true"
	exit 0
	EOF
	test_must_fail sh nested/run-tests.sh >out &&
	cat out &&
	grep "t9000-nested.sh: ended before test_done" out &&
	test "$(tail -n 1 out)" = "0 passed, 1 failed"
'

test_done
