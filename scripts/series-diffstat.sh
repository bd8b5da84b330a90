#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# series-diffstat.sh [PATCHES-DIR]: what the whole series, its end
# included, leaves of Linux 6.1.  The series is applied to a scratch copy
# of the pristine tree in $BKL_CACHE; every file it leaves different is
# printed with diffstat's counts and why it differs:
#   infrastructure   the BKL itself, its debug helpers and selftest (the
#                    core patches, patches/0*.patch)
#   fix              a conversion that fixed 6.1's own code (a mutex, an
#                    initialization moved; drivers/D/0002-* that does not
#                    "remove the BKL")
#   layout           a "none" conversion that kept the push-down's layout of a
#                    6.1 line checkpatch rejects (its changelog says so)
#   BKL: D           a driver the campaign pushed the BKL into and has not
#                    converted yet (its push-down is still in the tree)
#   unexplained      anything else: a "none" conversion that did not give
#                    its driver back, a patch nobody can account for
# then "N files: ..." and the drivers still holding the BKL.  Exits 1 when a file is unexplained; after the
# campaign's end only the first two remain (bkl report says why each
# driver of the third is left).  t3040 runs it on the committed series.
. "$(dirname "$0")/series-lib.sh"
: >"$tmp/list"


# who touched each file: "file<TAB>class" lines, the last patch's class
# deciding between a driver's push-down and its conversion
: >"$tmp/owners"
cd "$tmp/tree"
for p in $(grep -v '^#\|^$' "$patches/series"); do
	patch -p1 -s -N -r - --no-backup-if-mismatch <"$patches/$p" >/dev/null ||
		{ echo "series-diffstat: 'patches/$p' does not apply" >&2; exit 2; }
	case "$p" in
	drivers/*/0001-*)
		d=${p#drivers/}; class="BKL: ${d%%/*}" ;;
	drivers/*/0002-*-remove-the-BKL-from-*)
		class=none
		# 6.1's own line checkpatch rejects, kept as the push-down wrote it
		grep -q "which checkpatch rejects" "$patches/$p" && class=layout ;;
	drivers/*/0002-*)
		class=fix ;;
	end/*)
		class=end ;;
	*)
		class=infrastructure ;;
	esac
	for f in $(touched "$patches/$p"); do
		printf '%s\t%s\n' "$f" "$class" >>"$tmp/owners"
	done
done

# a file's class: infrastructure wins (the core touched it for the BKL),
# then a fix, then a driver still under the BKL (its last patch a
# push-down); a file only "none" conversions and the end left is 6.1's
classify() {
	awk -F'\t' -v f="$1" '
		$1 == f { c[$2] = 1; last = $2 }
		END {
			if ("infrastructure" in c) print "infrastructure"
			else if ("fix" in c) print "fix"
			else if (last == "layout") print "layout"
			else if (last ~ /^BKL: /) print last
			else print "unexplained"
		}' "$tmp/owners"
}

n=0 bad=0 infra=0 fix=0 bkl=0 ws=0
for f in $(cut -f1 "$tmp/owners" | sort -u); do
	if cmp -s "$f" "$pristine/$f" 2>/dev/null; then
		continue
	fi
	class=$(classify "$f")
	stat=$(diff -uN "$pristine/$f" "$f" 2>/dev/null |
	       awk '/^\+\+\+|^---/ { next } /^\+/ { a++ } /^-/ { d++ }
		    END { printf "+%d -%d", a, d }')
	printf ' %-60s %-12s %s\n' "$f" "$stat" "$class" | tee -a "$tmp/list"
	n=$((n + 1))
	case "$class" in
	infrastructure) infra=$((infra + 1)) ;;
	fix) fix=$((fix + 1)) ;;
	layout) ws=$((ws + 1)) ;;
	BKL:*) bkl=$((bkl + 1)) ;;
	*) bad=$((bad + 1)) ;;
	esac
done
echo "$n files: $infra infrastructure, $fix fixes, $ws layout, $bkl still holding the BKL, $bad unexplained"
drivers=$(grep -o 'BKL: [^ ]*$' "$tmp/list" | sed 's/^BKL: //' | sort -u | tr '\n' ' ')
[ -z "$drivers" ] || echo "still holding the BKL: $drivers"
[ "$bad" = 0 ]
