#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Draw chains for a precision check, deterministically: N precise chains
# (no call resolved by type, no file the audited configuration does not
# build: bkl chains --precise) and N others, each ranked by the SHA-1 of
# "file:line:function:class" (the same DB gives the same sample, and a
# chain keeps its rank when others come or go).  Prints each chain with
# its origin and every call with its file:line and edge kind, for a
# reader to judge against the source.
#
#   scripts/chain-sample.sh DB [N [LOCK]]     (N default 25, LOCK bkl)
set -e
db=$1 n=${2:-25} lock=${3:-bkl}
if [ -z "$db" ] || [ ! -f "$db" ]; then
	echo "usage: scripts/chain-sample.sh DB [N [LOCK]] (no database '$db')" >&2
	exit 1
fi
case $n in
''|*[!0-9]*) echo "chain-sample: N must be a number, not '$n'" >&2; exit 1 ;;
esac
case $lock in
''|*[!a-z0-9_-]*) echo "chain-sample: bad lock name '$lock'" >&2; exit 1 ;;
esac

# A chain through a file the audited configuration does not build is not
# precise (schema 14 on; an older DB: by_type alone)
unbuilt=0
if [ -n "$(sqlite3 "$db" "SELECT name FROM sqlite_master WHERE name = 'chains_unbuilt'")" ]; then
	unbuilt="id IN (SELECT chain_id FROM chains_unbuilt)"
fi

# id, precise, key; then the rank: sha1 of the key
ranked() {
	sqlite3 -separator '	' "$db" "SELECT id, by_type = 0 AND NOT $unbuilt, file || ':' || line || ':' ||
		function || ':' || class FROM chains WHERE lock = '$lock' AND by_type IS NOT NULL" |
	# one process for every hash, not a sha1sum per chain (thousands of them)
	perl -MDigest::SHA=sha1_hex -F'\t' -lane \
		'print substr(sha1_hex($F[2]), 0, 16), "\t$F[1]\t$F[0]"' | sort
}

show() {	# ID
	sqlite3 -separator '	' "$db" "SELECT file, line, function, class, origin, by_type, $unbuilt
		FROM chains WHERE id = $1" |
	while IFS='	' read -r file line fn class origin by_type unb; do
		printf '%s:%s: %s: %s, origin %s, %s by type%s\n' "$file" "$line" "$fn" \
			"$class" "$origin" "$by_type" \
			"$([ "$unb" = 1 ] && echo ', in a file the configuration does not build')"
	done
	# a covered function: the call that puts it under the lock
	sqlite3 -separator '	' "$db" "SELECT v.struct || '.' || v.member, v.via_function,
		v.via_file || ':' || v.via_line, v.edge, v.candidates, v.entry
		FROM chains c JOIN coverage v ON v.file_id = c.file_id AND
		v.function = c.function AND v.lock = c.lock WHERE c.id = $1 AND c.origin != 'held'" |
	while IFS='	' read -r member via at edge cand entry; do
		printf '    (under the lock: %s called from %s at %s, %s, %s%s)\n' "$member" "$via" \
			"$at" "$edge" "$cand" "$([ "$entry" = 1 ] && echo ', entry point')"
	done
	sqlite3 -separator '	' "$db" "SELECT step, function, coalesce(file || ':' || line, ''),
		coalesce(edge, ''), coalesce(candidates, '') FROM chain_steps
		WHERE chain_id = $1 ORDER BY step" |
	while IFS='	' read -r step fn at edge cand; do
		if [ -n "$edge" ]; then
			printf '    %s  %s  calls the next (%s, %s)\n' "$fn" "$at" "$edge" "$cand"
		else
			printf '    %s\n' "$fn"
		fi
	done
}

ranked >"${TMPDIR:-/tmp}/chain-sample.$$"
i=0
for precise in 1 0; do
	awk -F'	' -v p="$precise" '$2 == p { print $3 }' "${TMPDIR:-/tmp}/chain-sample.$$" |
	head -n "$n" | while read -r id; do
		i=$((i + 1))
		printf '%s %s: ' "$([ "$precise" = 1 ] && echo P || echo T)" "$i"
		show "$id"
	done
done
rm -f "${TMPDIR:-/tmp}/chain-sample.$$"
