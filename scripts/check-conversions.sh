#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# check-conversions.sh [PATCHES-DIR]: a "none" conversion
# (drivers/D/0002-*-remove-the-BKL-from-*.patch) gives back the driver's
# code exactly as it was before its push-down (drivers/D/0001-*): the
# series is applied one patch at a time to a scratch copy of the pristine
# tree in $BKL_CACHE, each file a push-down touches is saved before it,
# and compared byte for byte once the conversion has applied.  Prints each
# that differs (and whether the saved copy was 6.1's own; a difference in
# layout alone, whitespace and parentheses, passes where the conversion's
# changelog says 6.1's line is one checkpatch rejects), then "N none
# conversions, K restore their driver exactly"; exits 1 when one does not.
# t3040 runs it on the committed series.
. "$(dirname "$0")/series-lib.sh"
mkdir "$tmp/saved"

cd "$tmp/tree"
n=0 ok=0
for p in $(grep -v '^#\|^$' "$patches/series"); do
	case "$p" in
	drivers/*/0001-*)
		d=${p#drivers/}; d=${d%%/*}
		for f in $(touched "$patches/$p"); do
			mkdir -p "$tmp/saved/$d/$(dirname "$f")"
			cp "$f" "$tmp/saved/$d/$f"
		done ;;
	esac
	# hard links are shared with the pristine tree: patch writes new files
	patch -p1 -s -N -r - --no-backup-if-mismatch <"$patches/$p" >/dev/null ||
		{ echo "check-conversions: 'patches/$p' does not apply" >&2; exit 2; }
	case "$p" in
	drivers/*/0002-*-remove-the-BKL-from-*) ;;
	*) continue ;;
	esac
	d=${p#drivers/}; d=${d%%/*}
	n=$((n + 1))
	same=1
	for f in $(cd "$tmp/saved/$d" && find . -type f | sed 's|^\./||'); do
		# whitespace only, where 6.1's own line fails checkpatch and the
		# changelog says the conversion keeps the push-down's form of it
		if ! cmp -s "$f" "$tmp/saved/$d/$f" &&
		   [ "$(tr -d ' \t\n()' <"$f")" = "$(tr -d ' \t\n()' <"$tmp/saved/$d/$f")" ] &&
		   grep -q "which checkpatch rejects" "$patches/$p"; then
			echo "patches/$p: $f as before the push-down but for the layout checkpatch asks for"
			continue
		fi
		if ! cmp -s "$f" "$tmp/saved/$d/$f"; then
			same=0
			if cmp -s "$tmp/saved/$d/$f" "$pristine/$f"; then
				what="6.1's"
			else
				what="the series'"
			fi
			echo "patches/$p: $f differs from $what $f before the push-down"
		fi
	done
	ok=$((ok + same))
done
echo "$n none conversions, $ok restore their driver exactly"
[ "$n" = "$ok" ]
