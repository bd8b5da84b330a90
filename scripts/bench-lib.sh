# SPDX-License-Identifier: GPL-2.0
# Sourced by the bench scripts: they set BKL, tmp and say() first.

# bench_sample N SCOPE...: every k-th file that the configured work tree
# builds in SCOPE, N at most, with its flags as `bkl audit --show-flags`
# prints them, into $tmp/sample.tsv; sets total, step and n.  Says why
# and returns 1 when there is nothing to measure.
bench_sample() {
	local want=$1

	shift
	if ! "$BKL" audit --show-flags "$@" >"$tmp/all.tsv" 2>"$tmp/err"; then
		say "cannot get the files' flags: skipped"
		sed 's/^/  /' "$tmp/err"
		return 1
	fi
	awk -F'\t' '$2 == "F"' "$tmp/all.tsv" >"$tmp/built.tsv"
	total=$(wc -l <"$tmp/built.tsv")
	[ "$total" -gt 0 ] || { say "no file to measure: skipped"; return 1; }
	step=$(( total / want ))
	[ "$step" -ge 1 ] || step=1
	awk -v s="$step" 'NR % s == 0' "$tmp/built.tsv" | head -n "$want" >"$tmp/sample.tsv"
	n=$(wc -l <"$tmp/sample.tsv")
}
