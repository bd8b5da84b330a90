#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Install what bkl-audit and its tests need from Debian, build libsparse
# from Debian's sparse source package into the cache (Debian ships sparse
# without the library), and install playwright-core (npm, no browser
# download) into the cache for the dashboard's browser test, which drives
# Debian's chromium.  Idempotent: seconds when everything is there.  After
# it, make test skips nothing.
set -e

: "${BKL_CACHE:=$HOME/.cache/bkl-audit}"
SPARSE_VER=0.6.4
SPARSE_DIR=$BKL_CACHE/sparse/sparse-$SPARSE_VER
# libsparse's die(), warning() and info() clash with bkl's own (lib/usage.c):
# bkl links libsparse-bkl.a, where they are sparse_die() and so on, and
# analyzer/sparse.h includes sparse's headers under those names.  Its
# blob_alloc() and blob_free() are weak there: analyzer/blob.c replaces
# them (the same blobs, without a page fault per 4 KiB).
SPARSE_LIB=$SPARSE_DIR/libsparse-bkl.a

# The tests also need: git (git am), perl (checkpatch.pl), python3, curl,
# bash, chromium and nodejs (the browser test), wrk (the web bench),
# parallel (the sharded audit over several machines).
PKGS="gcc make pkg-config linux-source-6.1 qemu-system-x86 bc flex bison
libelf-dev libssl-dev cpio kmod rsync xz-utils quilt dpkg-dev
libsqlite3-dev sqlite3 libmicrohttpd-dev busybox-static libc6-dev
curl wrk chromium nodejs git perl python3 bash parallel"

SUDO=
[ "$(id -u)" = 0 ] || SUDO=sudo

missing=
for p in $PKGS; do
	dpkg -s "$p" 2>/dev/null | grep -q '^Status: install ok installed' ||
		missing="$missing $p"
done
# npm comes with some nodejs builds (NodeSource's), apart in Debian's
command -v npm >/dev/null 2>&1 || missing="$missing npm"
updated=
if [ -n "$missing" ]; then
	echo "setup: installing$missing"
	$SUDO apt-get update -q >/dev/null
	updated=1
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q \
		--no-install-recommends $missing >/dev/null
fi

if [ ! -f "$SPARSE_LIB" ]; then
	src=/etc/apt/sources.list.d/bkl-audit-src.sources
	if ! grep -rqs '^Types:.*deb-src\|^deb-src' /etc/apt/sources.list /etc/apt/sources.list.d; then
		printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: bookworm\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' |
			$SUDO tee "$src" >/dev/null
		updated=
	fi
	[ -n "$updated" ] || $SUDO apt-get update -q >/dev/null
	mkdir -p "$BKL_CACHE/sparse"
	echo "setup: building libsparse $SPARSE_VER in $SPARSE_DIR"
	(cd "$BKL_CACHE/sparse" && rm -rf "sparse-$SPARSE_VER" &&
		apt-get source -q sparse >/dev/null 2>&1 &&
		make -C "sparse-$SPARSE_VER" -j"$(nproc)" libsparse.a >/dev/null) || true
	[ -f "$SPARSE_DIR/libsparse.a" ] || {
		echo "setup: error: could not build libsparse in '$SPARSE_DIR'" >&2
		exit 1
	}
fi
# Redone when an older setup made the library without weak blob_*()
if ! nm "$SPARSE_LIB" 2>/dev/null | grep -q ' W blob_alloc$'; then
	objcopy --redefine-sym die=sparse_die --redefine-sym warning=sparse_warning \
		--redefine-sym info=sparse_info \
		--weaken-symbol=blob_alloc --weaken-symbol=blob_free \
		"$SPARSE_DIR/libsparse.a" "$SPARSE_LIB"
fi

PW_DIR=$BKL_CACHE/playwright
if [ ! -f "$PW_DIR/node_modules/playwright-core/package.json" ]; then
	echo "setup: installing playwright-core (npm) in $PW_DIR"
	mkdir -p "$PW_DIR"
	[ -f "$PW_DIR/package.json" ] ||
		echo '{"name": "bkl-e2e", "private": true}' >"$PW_DIR/package.json"
	(cd "$PW_DIR" && timeout 600 npm install --no-audit --no-fund --silent playwright-core \
		>/dev/null) || true
	[ -f "$PW_DIR/node_modules/playwright-core/package.json" ] || {
		echo "setup: error: could not install playwright-core in '$PW_DIR'" >&2
		exit 1
	}
fi
