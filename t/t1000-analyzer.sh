#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
test_description='the BKL analyzer on analyzer/validation/*.c (sparse validation style)'
. ./test-lib.sh

VALIDATION=$BKL_ROOT/analyzer/validation

# Split a validation file's trailing comment into cmd.N (a bkl query and
# its options) and expect.N (the output it must print), N = 1, 2, ...
# Inside check-output-start/-end, a leading " * " (or a lone " *") is
# dropped; other lines are taken as they are.
split_checks() {
	awk '
	/^ \* check-command:/ {
		n++; sub(/^ \* check-command: */, ""); print > ("cmd." n); close("cmd." n); next
	}
	/^ \* check-output-start/ { out = 1; printf "" > ("expect." n); next }
	/^ \* check-output-end/ { out = 0; close("expect." n); next }
	out {
		if ($0 == " *") $0 = ""; else sub(/^ \* /, "")
		print > ("expect." n)
	}
	END { if (!n) exit 1 }' "$1"
}

# Analyze a copy of the file (so paths print as its base name) into a
# fresh DB, then run each check-command and compare with its output.
run_validation() {
	src=$1
	name=$(basename "$src")
	dir=v.${name%.c}
	tree=$(sed -n 's/^ \* check-tree: *//p' "$src")
	rm -rf "$dir" && mkdir "$dir" && cp "$src" "$dir/$name" &&
	if test -n "$tree"; then
		cp -R "$VALIDATION/trees/$tree/." "$dir/" || return 1
	fi &&
	(
		cd "$dir" || exit 1
		args=$(sed -n 's/^ \* check-analyze: *//p' "$name")
		# shellcheck disable=SC2086
		bkl analyze --db tmp.db $args "$name" >/dev/null 2>analyze.err || { cat analyze.err; exit 1; }
		sed -n 's/^ \* check-analyze-warning: *//p' "$name" >warnings
		while IFS= read -r w; do
			grep -F -e "$w" analyze.err >/dev/null ||
			{ echo "not in bkl analyze's stderr: $w"; cat analyze.err; exit 1; }
		done <warnings
		split_checks "$name" || { echo "no check-command in $name"; exit 1; }
		n=1
		while test -f "cmd.$n"; do
			test -f "expect.$n" || { echo "no output block for command $n"; exit 1; }
			# shellcheck disable=SC2046
			bkl $(cat "cmd.$n") --db tmp.db >"actual.$n" || exit 1
			test_cmp "expect.$n" "actual.$n" || exit 1
			n=$((n + 1))
		done
	)
}

for f in "$VALIDATION"/*.c; do
	name=$(sed -n 's/^ \* check-name: *//p' "$f")
	test_expect_success "$(basename "$f"): ${name:-no check-name}" "run_validation '$f'"
done

test_expect_success 'a wrong expectation fails its test' '
	f=$VALIDATION/opost.c &&
	mkdir -p wrong extra &&
	sed "s/(return-held)$/(unlock-unheld)/" "$f" >wrong/opost.c &&
	! cmp -s "$f" wrong/opost.c &&
	test_must_fail run_validation wrong/opost.c &&
	sed "/check-output-end/i\\
 * opost.c:1: warning: an extra line" "$f" >extra/opost.c &&
	grep -q "an extra line" extra/opost.c &&
	test_must_fail run_validation extra/opost.c &&
	run_validation "$f"
'

test_expect_success 'a validation file without check-command is an error' '
	printf "int x;\n" >nothing.c &&
	test_must_fail run_validation "$PWD/nothing.c"
'

test_done
