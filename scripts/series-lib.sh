# SPDX-License-Identifier: GPL-2.0
#
# series-lib.sh, sourced by the scripts that apply patches/series one
# patch at a time to a scratch tree (check-conversions.sh,
# series-diffstat.sh): sets top, patches (the script's first argument,
# else patches/ here), pristine, and tmp (removed on exit) holding
# tree/, a hard-linked copy of the pristine tree, which patch(1) breaks
# the links of as it writes; and touched PATCH, the files PATCH changes.
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
patches=${1:-$top/patches}
: "${BKL_CACHE:=$HOME/.cache/bkl-audit}"
pristine=$BKL_CACHE/linux/pristine
[ -d "$pristine" ] || {
	echo "$(basename "$0" .sh): no pristine tree in '$pristine': run 'bkl tree'" >&2
	exit 1
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -al "$pristine" "$tmp/tree"

# the files a patch touches, from its "+++ b/..." lines
touched() { sed -n 's|^+++ b/\([^	]*\).*|\1|p' "$1"; }
