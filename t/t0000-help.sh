#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
test_description='bkl help is generated from the command table'
. ./test-lib.sh

test_expect_success 'bkl alone lists the commands' '
	bkl >out &&
	grep "^   help " out &&
	grep "^   tree " out
'

test_expect_success 'every listed command has a usage that names it' '
	bkl help | sed -n "s/^   \([a-z-]*\) .*/\1/p" >cmds &&
	test -s cmds &&
	while read c; do
		bkl help $c | head -1 | grep "^usage: bkl $c" || exit 1
		bkl $c -h | head -1 | grep "^usage: bkl $c" || exit 1
	done <cmds
'

test_expect_success 'every builtin file is in the table' '
	for f in "$BKL_ROOT"/builtin/*.c; do
		c=$(basename $f .c)
		grep "^   $c " cmds || bkl help | grep "^   $c " || { echo "$c missing"; exit 1; }
	done
'

test_expect_success 'an unknown command is one clear line' '
	test_must_fail bkl frobnicate 2>err &&
	test_one_line err "fatal: .frobnicate. is not a bkl command"
'

test_expect_success 'bkl help of an unknown command fails' '
	test_must_fail bkl help frobnicate 2>err &&
	test_one_line err "no such command .frobnicate."
'

test_expect_success 'an unknown option is refused with the usage' '
	test_must_fail bkl tree --frobnicate 2>err &&
	grep "unknown option .--frobnicate." err
'

test_done
