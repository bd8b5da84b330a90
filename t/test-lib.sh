# SPDX-License-Identifier: GPL-2.0
#
# A small git-style test library.  A test script sets test_description,
# sources this file, calls test_expect_success 'what' 'commands' and ends
# with test_done.  Each script runs in its own trash directory, with bkl
# (the one at the repository root) first in PATH.

TEST_DIRECTORY=$(cd "$(dirname "$0")" && pwd)
BKL_ROOT=$(cd "$TEST_DIRECTORY/.." && pwd)
PATH=$BKL_ROOT:$PATH
export PATH BKL_ROOT

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
		prereq=$1; shift
		if ! test_have_prereq "$prereq"; then
			test_skipped=$((test_skipped + 1))
			say "ok $test_count # skip $1 (missing $prereq)"
			return 0
		fi
	fi
	if (eval "set -e; $2") >"$TRASH_DIRECTORY/.out" 2>&1; then
		say "ok $test_count - $1"
	else
		test_failed=$((test_failed + 1))
		say "not ok $test_count - $1"
		sed 's/^/#	/' "$TRASH_DIRECTORY/.out" | tail -n 30
	fi
}

# Prerequisites, named as git names them: set with test_set_prereq.
test_prereqs=" "
test_set_prereq() { test_prereqs="$test_prereqs$1 "; }
test_have_prereq() { case "$test_prereqs" in *" $1 "*) return 0;; esac; return 1; }

# Expect a command to fail (exit 1..127, not a crash) and say so on stderr.
test_must_fail() {
	"$@"
	rc=$?
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
