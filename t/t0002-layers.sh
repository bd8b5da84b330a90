#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
test_description='the folders are layered as README.md says, with no circles'
. ./test-lib.sh

CHECK=$BKL_ROOT/scripts/check-layers.sh

# A tree of two layers: lib/ (0) below top/ (1).
make_tree() {
	rm -rf tree && mkdir -p tree/lib tree/top &&
	printf '# x\n\n## Layout\n\n| layer | path | what |\n| --- | --- | --- |\n| 0 | `lib/` | helpers |\n| 1 | `top/`, `main.c` | commands |\n\n## Next\n\n| 5 | `top/` | not a layout row |\n' >tree/README.md &&
	printf '#include "lib/a.h"\nint a(void) { return 1; }\n' >tree/lib/a.c &&
	printf 'int a(void);\n' >tree/lib/a.h &&
	printf '#include "lib/a.h"\n#include "top/t.h"\nint t(void) { return a(); }\n' >tree/top/t.c &&
	printf 'int t(void);\n' >tree/top/t.h &&
	printf '#include "top/t.h"\nint main(void) { return t(); }\n' >tree/main.c
}

test_expect_success 'bkl itself: no upward include, no circle, every file in a layer' '
	ls "$BKL_ROOT"/lib/usage.o "$BKL_ROOT"/builtin/help.o &&
	"$CHECK" "$BKL_ROOT" >out 2>&1 &&
	test ! -s out
'

test_expect_success 'a layered tree passes' '
	make_tree &&
	"$CHECK" "$PWD/tree" >out 2>&1 &&
	test ! -s out
'

test_expect_success 'an upward include fails, naming both files' '
	make_tree &&
	printf "#include \"top/t.h\"\n" >>tree/lib/a.c &&
	test_must_fail "$CHECK" "$PWD/tree" >out 2>&1 &&
	grep "^upward include: lib/a.c (layer 0) includes top/t.h (layer 1)$" out
'

test_expect_success 'a header of the same folder, included by its bare name, counts too' '
	make_tree &&
	printf "#include \"../top/t.h\"\n" >>tree/lib/a.h &&
	printf "#include \"a.h\"\n" >>tree/lib/a.c &&
	test_must_fail "$CHECK" "$PWD/tree" >out 2>&1 &&
	grep "^upward include: lib/a.h (layer 0) includes top/t.h (layer 1)$" out
'

test_expect_success 'an include circle in one layer fails, naming the files' '
	make_tree &&
	printf "#include \"top/u.h\"\n" >>tree/top/t.h &&
	printf "#include \"top/t.h\"\n" >tree/top/u.h &&
	test_must_fail "$CHECK" "$PWD/tree" >out 2>&1 &&
	grep "^include circle: top/[tu] -> top/[tu]$" out
'

test_expect_success 'two files that call each other fail, from their objects' '
	make_tree &&
	printf "int u(void) { return t(); }\n" >tree/top/u.c &&
	printf "int u(void);\nint t2(void) { return u(); }\n" >>tree/top/t.c &&
	(cd tree && cc -c -o top/t.o -I. top/t.c && cc -c -o top/u.o -I. -include top/t.h top/u.c) &&
	test_must_fail "$CHECK" "$PWD/tree" >out 2>&1 &&
	grep "^call circle: top/t.c uses u() of top/u.c, which uses t() of top/t.c$" out
'

test_expect_success 'a C file outside every layer fails' '
	make_tree &&
	mkdir tree/stray && printf "int s;\n" >tree/stray/s.c &&
	test_must_fail "$CHECK" "$PWD/tree" >out 2>&1 &&
	grep "^no layer: stray/s.c is in no folder of README.md" out
'

test_expect_success 'no Layout table is one line' '
	make_tree &&
	printf "# nothing\n" >tree/README.md &&
	test_must_fail "$CHECK" "$PWD/tree" >out 2>&1 &&
	test_one_line out "README.md has no Layout table"
'

test_done
