#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
test_description='bkl tree: pristine and work trees, the series, bad input'
. ./test-lib.sh

# A tiny "kernel" tarball: enough for the version check and quilt.
make_tarball() {	# name version
	rm -rf mk && mkdir -p mk/linux-source-6.1/drivers/char &&
	echo "$2" | awk -F. '{ printf "VERSION = %s\nPATCHLEVEL = %s\nSUBLEVEL = %s\nEXTRAVERSION =\n", $1, $2, $3 }' \
		>mk/linux-source-6.1/Makefile &&
	printf "static int open_mem(void)\n{\n\treturn 0;\n}\n" >mk/linux-source-6.1/drivers/char/mem.c &&
	tar -C mk -cJf "$1" linux-source-6.1
}

make_patch() {	# dir name old new
	mkdir -p "$1" &&
	cat >"$1/$2" <<-PATCH
	From: A Developer <dev@example.org>
	Subject: [PATCH] char: mem: test

	--- a/drivers/char/mem.c
	+++ b/drivers/char/mem.c
	@@ -1,4 +1,4 @@
	 static int open_mem(void)
	 {
	-	return $3;
	+	return $4;
	 }
	PATCH
}

test_expect_success 'setup' '
	make_tarball good.tar.xz 6.1.99 &&
	make_tarball old.tar.xz 5.10.1 &&
	mkdir empty && echo "# nothing yet" >empty/series &&
	make_patch good 0001-good.patch 0 1 && echo 0001-good.patch >good/series &&
	make_patch bad 0001-bad.patch 7 8 && echo 0001-bad.patch >bad/series &&
	mkdir missing && echo 0001-gone.patch >missing/series
'

test_expect_success 'an empty series gives the pristine tree' '
	BKL_CACHE=$PWD/c1 bkl tree --tarball good.tar.xz --patches empty >out &&
	grep "^linux 6.1.99: 0 patches applied in $PWD/c1/linux/work$" out &&
	test -f c1/linux/pristine/drivers/char/mem.c &&
	test -f c1/linux/work/drivers/char/mem.c
'

test_expect_success 'the series is applied to the work tree only' '
	BKL_CACHE=$PWD/c1 bkl tree --tarball good.tar.xz --patches good >out &&
	grep "^linux 6.1.99: 1 patches applied" out &&
	grep "return 1;" c1/linux/work/drivers/char/mem.c &&
	grep "return 0;" c1/linux/pristine/drivers/char/mem.c
'

test_expect_success 'an unchanged series reuses the work tree' '
	touch -d "2000-01-01" c1/linux/work/drivers/char/mem.c &&
	BKL_CACHE=$PWD/c1 bkl tree --tarball good.tar.xz --patches good &&
	test "$(stat -c %Y c1/linux/work/drivers/char/mem.c)" = "$(date -d 2000-01-01 +%s)"
'

test_expect_success 'a tarball that is not 6.1 is refused in one line' '
	test_must_fail env BKL_CACHE=$PWD/c2 bkl tree --tarball old.tar.xz --patches empty 2>err &&
	test_one_line err "error: .old.tar.xz. is Linux 5.10.1, not 6.1.x" &&
	! test -e c2/linux/pristine
'

test_expect_success 'a missing tarball is one line' '
	test_must_fail env BKL_CACHE=$PWD/c3 bkl tree --tarball nothere.tar.xz --patches empty 2>err &&
	test_one_line err "error: no kernel tarball at .nothere.tar.xz."
'

test_expect_success 'a full disk is refused before unpacking' '
	test_must_fail env BKL_CACHE=$PWD/c3 BKL_TREE_RESERVE_MIB=999999999 \
		bkl tree --tarball good.tar.xz --patches empty 2>err &&
	test_one_line err "error: not enough disk space in .*MiB needed" &&
	! test -e c3/linux/pristine
'

test_expect_success 'a patch that does not apply is named, with its file' '
	test_must_fail env BKL_CACHE=$PWD/c1 bkl tree --tarball good.tar.xz --patches bad --force 2>err &&
	test_one_line err "error: patch .0001-bad.patch. does not apply to .drivers/char/mem.c." &&
	grep "return 0;" c1/linux/pristine/drivers/char/mem.c
'

test_expect_success 'a series naming a missing patch is one line' '
	test_must_fail env BKL_CACHE=$PWD/c1 bkl tree --tarball good.tar.xz --patches missing 2>err &&
	test_one_line err "error: series names .0001-gone.patch., which cannot be read"
'

test_expect_success '--check verifies without touching the work tree' '
	BKL_CACHE=$PWD/c1 bkl tree --tarball good.tar.xz --patches good --force &&
	BKL_CACHE=$PWD/c1 bkl tree --check --tarball good.tar.xz --patches good >out &&
	grep "^linux 6.1.99: series applies (1 patches)" out &&
	test_must_fail env BKL_CACHE=$PWD/c1 bkl tree --check --tarball good.tar.xz --patches bad 2>err &&
	test_one_line err "0001-bad.patch. does not apply" &&
	grep "return 1;" c1/linux/work/drivers/char/mem.c &&
	grep "return 0;" c1/linux/pristine/drivers/char/mem.c &&
	! test -e c1/linux/check.tmp
'

test_expect_success 'edits in the work tree are not thrown away' '
	sleep 1 && echo "/* mine */" >>c1/linux/work/drivers/char/mem.c &&
	test_must_fail env BKL_CACHE=$PWD/c1 bkl tree --tarball good.tar.xz --patches empty 2>err &&
	test_one_line err "error: .*drivers/char/mem.c. was edited after the series was applied" &&
	grep "mine" c1/linux/work/drivers/char/mem.c
'

test_expect_success 'a pristine tree that is a symlink (a shared cache) is never patched' '
	mkdir -p c4/linux && ln -s "$PWD/c1/linux/pristine" c4/linux/pristine &&
	touch -d "2001-01-01" c1/linux/pristine/drivers/char/mem.c &&
	BKL_CACHE=$PWD/c4 bkl tree --check --tarball good.tar.xz --patches good >out &&
	test "$(stat -c %Y c1/linux/pristine/drivers/char/mem.c)" = "$(date -d 2001-01-01 +%s)" &&
	grep "^linux 6.1.99: series applies (1 patches)" out &&
	BKL_CACHE=$PWD/c4 bkl tree --tarball good.tar.xz --patches good >out &&
	grep "return 1;" c4/linux/work/drivers/char/mem.c &&
	grep "return 0;" c1/linux/pristine/drivers/char/mem.c &&
	! test -e c1/linux/pristine/.pc &&
	! test -e c4/linux/check.tmp
'

test_expect_success 'the series end is left out of the work tree, but for --end and --check' '
	mkdir -p ended/end &&
	cp good/0001-good.patch ended/ &&
	make_patch ended/end 0001-the-end.patch 1 2 &&
	printf "0001-good.patch\n# the end\nend/0001-the-end.patch\n" >ended/series &&
	BKL_CACHE=$PWD/c5 bkl tree --tarball good.tar.xz --patches ended >out &&
	grep "^linux 6.1.99: 1 patches applied" out &&
	grep "return 1;" c5/linux/work/drivers/char/mem.c &&
	BKL_CACHE=$PWD/c5 bkl tree --end --tarball good.tar.xz --patches ended >out &&
	grep "^linux 6.1.99: 2 patches applied" out &&
	grep "return 2;" c5/linux/work/drivers/char/mem.c &&
	BKL_CACHE=$PWD/c5 bkl tree --check --tarball good.tar.xz --patches ended >out &&
	grep "^linux 6.1.99: series applies (2 patches)" out &&
	BKL_CACHE=$PWD/c5 bkl tree --tarball good.tar.xz --patches ended >out &&
	grep "return 1;" c5/linux/work/drivers/char/mem.c
'

test_expect_success LINUX_SOURCE 'the project series applies to the real 6.1' '
	bkl tree --check >out &&
	grep "^linux 6\.1\.[0-9]*: series applies" out
'

test_done
