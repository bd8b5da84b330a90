# SPDX-License-Identifier: GPL-2.0
#
# A small git-style test library.  A test script sets test_description,
# sources this file, calls test_expect_success 'what' 'commands' and ends
# with test_done.  Each script runs in its own trash directory, with bkl
# (the one at the repository root) first in PATH.
#
# A body runs with set -e in a subshell: a command that fails fails the
# test, on a line of its own, at the end of an && chain, or inside a helper
# function.  As set -e has it, a chain that fails part-way and is followed
# by another line does not: chain a body whole, or not at all.
#
# A test is skipped only for what the machine lacks (a prerequisite, with
# the reason test_missing_prereq gave); what our own code does wrong is a
# failure, never a skip.

TEST_DIRECTORY=$(cd "$(dirname "$0")" && pwd)
BKL_ROOT=$(cd "$TEST_DIRECTORY/.." && pwd)
PATH=$BKL_ROOT:$PATH
export PATH BKL_ROOT
# The cache make test was given, before a script points BKL_CACHE at a
# fixture's: the pristine 6.1 tree (test_pristine_tree) lives there.
BKL_REAL_CACHE=${BKL_CACHE:-$HOME/.cache/bkl-audit}
PRISTINE=$BKL_REAL_CACHE/linux/pristine
export BKL_REAL_CACHE

test_name=$(basename "$0" .sh)
TRASH_DIRECTORY=$TEST_DIRECTORY/trash.$test_name
rm -rf "$TRASH_DIRECTORY"
mkdir -p "$TRASH_DIRECTORY" || exit 1
cd "$TRASH_DIRECTORY" || exit 1

test_count=0
test_failed=0
test_skipped=0

say() { printf '%s\n' "$*"; }

test_expect_success() {
	test_count=$((test_count + 1))
	if [ $# = 3 ]; then
		test_prereq_list=$1; shift
		test_lack=
		for test_p in $(echo "$test_prereq_list" | tr , ' '); do
			test_have_prereq "$test_p" || { test_lack=$test_p; break; }
		done
		if [ -n "$test_lack" ]; then
			test_skipped=$((test_skipped + 1))
			test_why="missing $test_lack: $(test_missing_reason "$test_lack")"
			say "ok $test_count # skip $1 ($test_why)"
			if [ -n "$BKL_TEST_SKIPS" ]; then
				printf '%s: %s (%s)\n' "$test_name" "$1" "$test_why" >>"$BKL_TEST_SKIPS"
			fi
			return 0
		fi
	fi
	# Not in an if, && or || context, where set -e would be ignored: the
	# subshell's status is taken on its own line.
	(set -e; false; true)
	if [ $? = 0 ]; then
		say "test-lib: test_expect_success '$1' called inside a condition" >&2
		exit 1
	fi
	(eval "set -e; $2") >"$TRASH_DIRECTORY/.out" 2>&1 </dev/null
	test_rc=$?
	if [ $test_rc = 0 ]; then
		say "ok $test_count - $1"
	else
		test_failed=$((test_failed + 1))
		say "not ok $test_count - $1"
		sed 's/^/#	/' "$TRASH_DIRECTORY/.out" | tail -n 30
	fi
}

# Prerequisites, named as git names them: set with test_set_prereq.  They
# are what the machine may lack (a program, the kernel tarball), never our
# own code: test_missing_prereq says what is missing and what installs it.
test_prereqs=" "
test_missing=
test_set_prereq() { test_prereqs="$test_prereqs$1 "; }
test_have_prereq() { case "$test_prereqs" in *" $1 "*) return 0;; esac; return 1; }
test_missing_prereq() {	# PREREQ REASON
	test_missing="$test_missing$1	$2
"
}
test_missing_reason() {
	r=$(printf '%s' "$test_missing" | sed -n "s/^$1	//p" | tail -n 1)
	printf '%s\n' "${r:-not found on this machine}"
}

# Set PREREQ when the program is in PATH; else say so, and that make setup
# installs it from the package named.
test_need_program() {	# PREREQ PROGRAM PACKAGE
	if command -v "$2" >/dev/null 2>&1; then
		test_set_prereq "$1"
	else
		test_missing_prereq "$1" "no $2 in PATH ('make setup' installs $3)"
	fi
}

# Real boots: QEMU, the kernel source, and a static libc for the initramfs.
test_need_qemu() {
	if ! command -v qemu-system-x86_64 >/dev/null 2>&1; then
		test_missing_prereq QEMU "no qemu-system-x86_64 in PATH ('make setup' installs qemu-system-x86)"
	elif ! test -f /usr/src/linux-source-6.1.tar.xz; then
		test_missing_prereq QEMU "no /usr/src/linux-source-6.1.tar.xz ('make setup' installs linux-source-6.1)"
	elif ! { echo "int main(void) { return 0; }" >"$TRASH_DIRECTORY/static.c" &&
		 gcc -static -o "$TRASH_DIRECTORY/static" "$TRASH_DIRECTORY/static.c"; } 2>/dev/null; then
		test_missing_prereq QEMU "gcc -static cannot link ('make setup' installs gcc and libc6-dev)"
	else
		test_set_prereq QEMU
	fi
}

# The kernel tarball: the one thing a pristine tree needs from the machine.
if test -f /usr/src/linux-source-6.1.tar.xz; then
	test_set_prereq LINUX_SOURCE
else
	test_missing_prereq LINUX_SOURCE \
		"no /usr/src/linux-source-6.1.tar.xz ('make setup' installs linux-source-6.1)"
fi

# Make $PRISTINE, the unpacked 6.1, when it is not there yet: bkl tree
# unpacks it with an empty series (nothing else is applied or checked).
# For a test body: it fails when bkl tree does.
test_pristine_tree() {
	test -f "$PRISTINE/Makefile" && return 0
	mkdir -p "$TRASH_DIRECTORY/.no-patches" &&
	: >"$TRASH_DIRECTORY/.no-patches/series" &&
	BKL_CACHE=$BKL_REAL_CACHE bkl tree --check --patches "$TRASH_DIRECTORY/.no-patches" &&
	test -f "$PRISTINE/Makefile"
}

# Expect a command to fail (exit 1..127, not a crash) and say so on stderr.
# The command runs as a condition, so set -e does not end the body when
# it fails as it should.
test_must_fail() {
	if "$@"; then
		rc=0
	else
		rc=$?
	fi
	if [ $rc = 0 ]; then
		echo "test_must_fail: '$*' succeeded" >&2
		return 1
	elif [ $rc -gt 129 ]; then
		echo "test_must_fail: '$*' died of signal $((rc - 128))" >&2
		return 1
	fi
	return 0
}

test_cmp() { diff -u "$1" "$2"; }

# The output has exactly one line, and it matches the pattern.
test_one_line() {
	[ "$(wc -l <"$1")" -eq 1 ] || { echo "expected one line in $1:"; cat "$1"; return 1; }
	grep -q -- "$2" "$1" || { echo "'$2' not in:"; cat "$1"; return 1; }
}

test_done() {
	passed=$((test_count - test_failed - test_skipped))
	say "# $test_name: $passed passed, $test_failed failed, $test_skipped skipped"
	if [ -n "$BKL_TEST_RESULTS" ]; then
		echo "$passed $test_failed $test_skipped" >>"$BKL_TEST_RESULTS"
	fi
	cd "$TEST_DIRECTORY" && [ "$test_failed" = 0 ] && rm -rf "$TRASH_DIRECTORY"
	[ "$test_failed" = 0 ]
	exit $?
}
