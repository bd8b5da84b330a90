#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
test_description='bkl tree --build: every patched file compiled, BKL on and off'
. ./test-lib.sh

REAL_CACHE=${BKL_CACHE:-$HOME/.cache/bkl-audit}
PRISTINE=$REAL_CACHE/linux/pristine

# ---- refusals: a tiny "kernel" tarball (as t0100's), no build ----

make_tarball() {	# name
	rm -rf mk && mkdir -p mk/linux-source-6.1/drivers/char mk/linux-source-6.1/scripts &&
	printf "VERSION = 6\nPATCHLEVEL = 1\nSUBLEVEL = 99\nEXTRAVERSION =\n" \
		>mk/linux-source-6.1/Makefile &&
	: >mk/linux-source-6.1/scripts/Makefile.build &&
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
	make_tarball good.tar.xz &&
	make_patch good 0001-good.patch 0 1 && echo 0001-good.patch >good/series &&
	make_patch bad 0001-bad.patch 7 8 && echo 0001-bad.patch >bad/series
'

test_expect_success 'no kernel tarball is one line' '
	test_must_fail env BKL_CACHE=$PWD/c0 bkl tree --build --tarball nothere.tar.xz \
		--patches good 2>err &&
	test_one_line err "error: no kernel tarball at .nothere.tar.xz."
'

test_expect_success 'a series that does not apply is one line; nothing is configured' '
	test_must_fail env BKL_CACHE=$PWD/c1 bkl tree --build --tarball good.tar.xz \
		--patches bad 2>err &&
	test_one_line err "error: patch .0001-bad.patch. does not apply to .drivers/char/mem.c." &&
	! test -e c1/build
'

test_expect_success 'a scope the series does not patch is one line' '
	test_must_fail env BKL_CACHE=$PWD/c1 bkl tree --build --tarball good.tar.xz \
		--patches good drivers/net 2>err &&
	test_one_line err "error: .drivers/net. holds no .c file the series patches" &&
	! test -e c1/build
'

test_expect_success '--build takes no --check; plain tree takes no paths' '
	test_must_fail bkl tree --build --check 2>err && grep "^usage: bkl tree" err &&
	test_must_fail bkl tree drivers/char 2>err && grep "^usage: bkl tree" err
'

# ---- a real tree ----

test -f "$PRISTINE/Makefile" && command -v make >/dev/null && command -v gcc >/dev/null &&
	command -v quilt >/dev/null && test_set_prereq KTREE

# A patch that writes file as the commands in $3 make it from the pristine one.
real_patch() {	# dir name file sed-script
	mkdir -p "$1" p.a/$(dirname "$3") p.b/$(dirname "$3") &&
	cp "$PRISTINE/$3" "p.a/$3" && sed "$4" "$PRISTINE/$3" >"p.b/$3" &&
	{ printf "From: A Developer <dev@example.org>\nSubject: [PATCH] test\n\n---\n" &&
	  diff -u --label "a/$3" --label "b/$3" "p.a/$3" "p.b/$3"; true; } >"$1/$2"
}

# A cache of its own whose trees are hard-linked copies of the real
# pristine one (quilt and Kbuild's O= never write through the links; the
# work tree is re-synced from pristine by size and time, so not copied).
# tinyconfig, the kill-the-BKL core, a patch that compiles, one that
# does not (a missing ';'), one in a file tinyconfig does not build.
test_expect_success KTREE 'setup: a series with a broken patch, in a cache of its own' '
	mkdir -p c2/linux s &&
	cp -al "$PRISTINE" c2/linux/pristine && cp -al "$PRISTINE" c2/linux/work &&
	rm -rf c2/linux/pristine/.pc c2/linux/work/.pc &&
	grep "^00[0-9][0-9]-" "$BKL_ROOT/patches/series" >s/series &&
	while read p; do cp "$BKL_ROOT/patches/$p" s/ || exit 1; done <s/series &&
	real_patch s 0101-good.patch fs/open.c "1a /* bkl tree --build: compiles */" &&
	real_patch s 0102-broken.patch kernel/exit.c "\$a int bkl_broken(void) { return 1 }" &&
	real_patch s 0103-off.patch drivers/char/ttyprintk.c "1a /* not in tinyconfig */" &&
	printf "0101-good.patch\n0102-broken.patch\n0103-off.patch\n" >>s/series
'

# --force: other runs of bkl tree --check touch the pristine files' times,
# which the hard links carry into this scratch work tree.
build_small() {
	BKL_CACHE=$PWD/c2 bkl tree --build --force -j2 --config tinyconfig --patches s \
		fs/open.c kernel/exit.c drivers/char/ttyprintk.c >out 2>err
}

test_expect_success KTREE 'a broken object fails the build, named with its first error, in both configs' '
	test_must_fail build_small &&
	cat out &&
	L=$(wc -l <c2/linux/work/kernel/exit.c) &&	# the appended line
	grep "^kernel/exit.o (tinyconfig CONFIG_BKL=y CONFIG_BKL_LEGACY_SITES=y): kernel/exit.c:$L:[0-9]*: error: expected .;. before .}. token$" out &&
	grep "^kernel/exit.o (tinyconfig CONFIG_BKL=n): kernel/exit.c:$L:[0-9]*: error: " out &&
	grep "^drivers/char/ttyprintk.o (tinyconfig CONFIG_BKL=y.*): not built by this config$" out &&
	grep "^drivers/char/ttyprintk.o (tinyconfig CONFIG_BKL=n): not built by this config$" out &&
	! grep "^fs/open.o" out &&
	grep "^2 objects, 1 failed (tinyconfig CONFIG_BKL=y CONFIG_BKL_LEGACY_SITES=y); 1 not built by this config; 2 compiled, 0 from the cache; " out &&
	grep "^2 objects, 1 failed (tinyconfig CONFIG_BKL=n); 1 not built by this config; 2 compiled, 0 from the cache; " out &&
	test "$(wc -l <out)" = 6 &&
	for c in y n; do
		test -f c2/build/tinyconfig-bkl-$c-*/fs/open.o &&
		! test -f c2/build/tinyconfig-bkl-$c-*/kernel/exit.o || exit 1
	done &&
	grep "^CONFIG_BKL=y$" c2/build/tinyconfig-bkl-y-*/.config &&
	! grep "^CONFIG_BKL=y$" c2/build/tinyconfig-bkl-n-*/.config
'

test_expect_success KTREE 'a rerun compiles nothing and reports the same' '
	grep -v "^2 objects" out >before &&
	test_must_fail build_small &&
	grep "^2 objects, 1 failed (.*); 1 not built by this config; 0 compiled, 2 from the cache; " out &&
	test "$(grep -c "0 compiled, 2 from the cache" out)" = 2 &&
	grep -v "^2 objects" out >after && test_cmp before after
'

test_expect_success KTREE 'the broken patch fixed: only its object is compiled again, and all pass' '
	real_patch s 0102-broken.patch kernel/exit.c "\$a int bkl_broken(void) { return 1; }" &&
	build_small &&
	test "$(grep -c "^2 objects, 0 failed (.*); 1 not built by this config; 1 compiled, 1 from the cache; " out)" = 2 &&
	! grep "error" out
'

# ---- the project's series: a sample, allmodconfig, in the real cache ----

# snd-seq's push-down put the include under #ifdef CONFIG_COMPAT (atyfb's,
# withdrawn since, under CONFIG_ADB_PMU): it fails exactly while the
# patched file still has it nested in an #if.
nested_include() {	# file: the #if depth of its smp_lock.h include
	awk '/^#[ \t]*if/ { d++ } /^#[ \t]*endif/ { d-- }
	     /^#include <linux\/smp_lock.h>/ { print d; exit }' "$1"
}

test_expect_success KTREE 'a sample of the series builds under both configs; failures are real' '
	grep -v "^#\\|^$" "$BKL_ROOT/patches/series" | sed "s|^|$BKL_ROOT/patches/|" |
		xargs sed -n "s|^+++ b/||p" | cut -f1 | grep "\.c$" | sort -u >all &&
	step=$(($(wc -l <all) / 22)) &&
	{ awk -v s=$step "NR % s == 1" all && echo sound/core/seq/seq_clientmgr.c; } |
		sort -u >sample &&
	n=$(wc -l <sample) && test $n -ge 20 &&
	{ bkl tree --build -j2 $(cat sample) >out 2>err; rc=$?; } &&
	cat out &&
	test "$(grep -c "^[0-9]* objects, [0-9]* failed (allmodconfig CONFIG_BKL=[yn]" out)" = 2 &&
	for c in y n; do
		sum=$(grep "^[0-9]* objects, [0-9]* failed (allmodconfig CONFIG_BKL=$c" out) &&
		built=${sum%% objects*} && off=$(echo "$sum" | sed "s/.*; \([0-9]*\) not built.*/\1/") &&
		test $((built + off)) = $n &&
		failed=$(echo "$sum" | sed "s/^[0-9]* objects, \([0-9]*\) failed.*/\1/") &&
		test "$(grep -c "^[^ ]*\.o (allmodconfig CONFIG_BKL=$c[^)]*): .*error" out)" = $failed &&
		test "$(grep -c "^[^ ]*\.o (allmodconfig CONFIG_BKL=$c[^)]*): not built by this config$" out)" = $off &&
		obj=$(ls -d "$REAL_CACHE"/build/allmodconfig-bkl-$c-* | head -1) &&
		while read f; do
			o=${f%.c}.o &&
			if grep -q "^$o (allmodconfig CONFIG_BKL=$c[^)]*): " out; then continue; fi &&
			test -f "$obj/$o" || { echo "$o: reported built, no $obj/$o"; exit 1; }
		done <sample || exit 1
	done &&
	if grep -q "): .*error" out; then test $rc = 1; else test $rc = 0; fi &&
	W=$REAL_CACHE/linux/work/sound/core/seq/seq_clientmgr.c &&
	if test "$(nested_include $W)" -gt 0; then
		test "$(grep -c "^sound/core/seq/seq_clientmgr.o (.*): .*error: implicit declaration of function .lock_kernel." out)" = 2
	else
		! grep "^sound/core/seq/seq_clientmgr.o (.*error" out
	fi
'

test_done
