#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# check-layers.sh [TOP]: the folders of bkl's C code are layered as
# README.md's Layout table says (its first column: the layer, lowest
# first).  Fails, naming both files, on
#   - an #include of a header in a folder of a higher layer (upward);
#   - a circle of includes between files (foo.c/foo.h count as one);
#   - two files that each call the other's functions, read from the
#     objects' symbols (nm) when they are built.
# A C file in no folder of the table fails too: every file has a layer.
set -e
top=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$top"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The layers: "PATH LAYER" per line, from | N | `path`, `path` | ... |
awk '/^## /{ on = ($0 == "## Layout") } on && /^\|/ {
	split($0, col, "|"); n = col[2]; gsub(/ /, "", n)
	if (n !~ /^[0-9]+$/) next
	s = col[3]
	while (match(s, /`[^`]+`/)) {
		print substr(s, RSTART + 1, RLENGTH - 2), n
		s = substr(s, RSTART + RLENGTH)
	}
}' README.md >"$tmp/layers"
[ -s "$tmp/layers" ] || { echo "check-layers: README.md has no Layout table with layers" >&2; exit 1; }

find . \( -path ./patches -o -path ./qemu-tests -o -path ./t -o -path ./analyzer/validation \
	-o -name node_modules -o -name '.*' -a ! -name . \) -prune -o \
	\( -name '*.c' -o -name '*.h' \) -type f -print | sed 's|^\./||' | sort >"$tmp/files"

# "FILE TARGET" per project include (relative to the top, or to FILE's folder)
while read -r f; do
	sed -n 's/^#[ \t]*include[ \t]*"\([^"]*\)".*/\1/p' "$f" | while read -r inc; do
		d=$(dirname "$f")
		if [ -f "$inc" ]; then
			echo "$f $inc"
		elif [ -f "$d/$inc" ]; then
			echo "$f $(realpath -m --relative-to=. "$d/$inc")"
		fi
	done
done <"$tmp/files" >"$tmp/includes"

rc=0
awk 'function layer(f,   best, bl, p) {
	best = -1; bl = 0
	for (p in L)
		if ((f == p || (p ~ /\/$/ && index(f, p) == 1)) && length(p) > bl) {
			best = L[p]; bl = length(p)
		}
	return best
}
FNR == NR { L[$1] = $2; next }
FILENAME ~ /files$/ { if (layer($1) < 0) { print "no layer: " $1 " is in no folder of README.md'"'"'s Layout"; bad = 1 }; next }
{
	a = layer($1); b = layer($2)
	if (a >= 0 && b > a) {
		print "upward include: " $1 " (layer " a ") includes " $2 " (layer " b ")"
		bad = 1
	}
}
END { exit bad }' "$tmp/layers" "$tmp/files" "$tmp/includes" || rc=1

# Include circles: foo.c and foo.h are one node
sed 's/\.[ch]\( \|$\)/\1/g' "$tmp/includes" | awk '$1 != $2' >"$tmp/edges"
if ! tsort "$tmp/edges" >/dev/null 2>"$tmp/loop"; then
	printf 'include circle: %s\n' "$(sed -n 's/^tsort: \([^ :]*\)$/\1/p' "$tmp/loop" | tr '\n' ' ' | sed 's/ $//; s/ / -> /g')"
	rc=1
fi

# Call circles: A uses a symbol B defines and B one A defines
objs=$(sed 's/\.c$/.o/;t;d' "$tmp/files" | while read -r o; do
	if [ -f "$o" ]; then echo "$o"; fi
done)
if [ -n "$objs" ]; then
	for o in $objs; do
		nm "$o" | awk -v f="${o%.o}.c" '$2 ~ /^[TDBR]$/ { print "D", f, $3 } $1 == "U" { print "U", f, $2 }'
	done | awk '$1 == "D" { def[$3] = $2; next } { use[NR] = $2 " " $3 }
	END {
		for (i in use) {
			split(use[i], a, " ")
			if ((a[2] in def) && def[a[2]] != a[1])
				e[a[1] " " def[a[2]]] = a[2]
		}
		for (k in e) {
			split(k, p, " ")
			r = p[2] " " p[1]
			if ((r in e) && p[1] < p[2]) {
				print "call circle: " p[1] " uses " e[k] "() of " p[2] ", which uses " e[r] "() of " p[1]
				bad = 1
			}
		}
		exit bad
	}' || rc=1
fi
exit $rc
