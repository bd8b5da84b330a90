#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
test_description='bkl analyze, sites, imbalance, chains, merge: the command line, bad input'
. ./test-lib.sh

test_need_program SQLITE3 sqlite3 sqlite3
test_need_program PYTHON3 python3 python3

q() {	# db sql: one query, its rows
	sqlite3 "$1" "$2"
}

cat >bkl.h <<'EOF'
#define __acquires(x) __attribute__((context(x, 0, 1)))
#define __releases(x) __attribute__((context(x, 1, 0)))
extern void lock_kernel(void) __acquires(kernel_lock);
extern void unlock_kernel(void) __releases(kernel_lock);
extern void msleep(unsigned int msecs);
struct file_operations { int (*open)(int); };
struct file { const struct file_operations *f_op; };
extern int __register_chrdev(unsigned int major, unsigned int baseminor,
			     unsigned int count, const char *name,
			     const struct file_operations *fops);
EOF

# one.c: chrdev_open, a helper that sleeps, a static helper named like two.c's
cat >one.c <<'EOF'
#include "bkl.h"
void nap(void)
{
	msleep(10);
}
static void helper(void)
{
	msleep(1);
}
int chrdev_open(struct file *filp)
{
	int ret;

	lock_kernel();
	ret = filp->f_op->open(0);
	helper();
	unlock_kernel();
	return ret;
}
EOF

# two.c: a registered open() that calls nap() in one.c; its own static helper
cat >two.c <<'EOF'
#include "bkl.h"
extern void nap(void);
static void helper(void)
{
}
static int two_open(int minor)
{
	helper();
	nap();
	return 0;
}
static const struct file_operations two_fops = { .open = two_open };
int two_init(void)
{
	return __register_chrdev(42, 0, 1, "two", &two_fops);
}
int quiet(void)
{
	lock_kernel();
	helper();
	unlock_kernel();
	return 0;
}
EOF

printf '#include "bkl.h"\nint broken(void)\n{\n\treturn 1 +;\n}\n' >broken.c
printf '#include "bkl.h"\n#include "nothere.h"\nint x;\n' >noheader.c

test_expect_success 'analyze two files, then query them' '
	bkl analyze --db a.db one.c two.c >out &&
	test_one_line out "^analyzed 2 files (0 failed): 4 sites, 0 imbalances" &&
	bkl sites --db a.db >sites &&
	grep "^one.c:14: warning: lock_kernel() in .chrdev_open.$" sites &&
	grep "^two.c:6: warning: .two_open. runs with the BKL held: file_operations.open called from chrdev_open (one.c:15), table two_fops registered by __register_chrdev (two.c:15): entry point$" sites &&
	bkl chains --db a.db >chains &&
	grep "^one.c:15: warning: .chrdev_open. may sleep with the BKL held (sleep):$" chains &&
	grep "^      nap  one.c:4$" chains &&
	grep "^two.c:9: warning: .two_open. may sleep" chains
'

test_expect_success SQLITE3 'static functions of the same name in two files are not confused' '
	test "$(q a.db "SELECT count(*) FROM functions WHERE name = '\''helper'\''")" = 2 &&
	test "$(q a.db "SELECT path FROM chains WHERE function = '\''chrdev_open'\'' AND line = 16")" = "[\"chrdev_open\",\"helper\",\"msleep\"]" &&
	test "$(q a.db "SELECT count(*) FROM chains WHERE function = '\''quiet'\''")" = 0
'

test_expect_success SQLITE3 'the files table: path as given, hash, flags, status, headers' '
	q a.db "SELECT path, status, flags FROM files ORDER BY path" >files &&
	printf "one.c|ok|\ntwo.c|ok|\n" >expect &&
	test_cmp expect files &&
	test "$(q a.db "SELECT length(hash) FROM files WHERE path = '\''one.c'\''")" = 16 &&
	q a.db "SELECT d.path FROM file_deps d JOIN files f ON f.id = d.file_id WHERE f.path = '\''one.c'\''" >deps &&
	grep "^bkl.h$" deps
'

test_expect_success 'a file sparse cannot parse is recorded; the others are analyzed' '
	test_must_fail bkl analyze --db b.db one.c broken.c two.c >out 2>err &&
	test_one_line err "^bkl analyze: warning: .broken.c. not analyzed: broken.c:4:.*error: " &&
	test_one_line out "^analyzed 3 files (1 failed)" &&
	bkl sites --db b.db >sites &&
	grep -c "" sites >n && test "$(cat n)" = 5
'

test_expect_success SQLITE3 'the failed file has its first error and no facts' '
	q b.db "SELECT path, status FROM files ORDER BY path" >files &&
	printf "broken.c|error\none.c|ok\ntwo.c|ok\n" >expect &&
	test_cmp expect files &&
	q b.db "SELECT error FROM files WHERE path = '\''broken.c'\''" | grep "^broken.c:4:.*error: " &&
	test "$(q b.db "SELECT count(*) FROM functions f JOIN files ON files.id = f.file_id WHERE path = '\''broken.c'\''")" = 0
'

test_expect_success SQLITE3 'a missing header (sparse exits) costs that file only' '
	test_must_fail bkl analyze --db b.db noheader.c one.c 2>err &&
	test_one_line err "warning: .noheader.c. not analyzed: .*unable to open .nothere.h." &&
	test "$(q b.db "SELECT status FROM files WHERE path = '\''noheader.c'\''")" = error &&
	test "$(q b.db "SELECT status FROM files WHERE path = '\''one.c'\''")" = ok
'

test_expect_success SQLITE3 'address-space errors do not fail a file; other errors do' '
	cat >rcu.c <<-\EOF &&
	#include "bkl.h"
	#define __rcu __attribute__((noderef, address_space(__rcu)))
	struct s { int __rcu *p; };
	int f(struct s *x, int *q)
	{
		int r;

		lock_kernel();
		r = x->p == q;
		unlock_kernel();
		return r;
	}
	EOF
	sed "s/x->p == q/x->nothere == q/" rcu.c >member.c &&
	bkl analyze -q --db e.db rcu.c &&
	test "$(q e.db "SELECT status FROM files")" = ok &&
	test "$(q e.db "SELECT count(*) FROM sites")" = 2 &&
	test_must_fail bkl analyze --db e.db member.c 2>err &&
	test_one_line err "member.c.*error: no member .nothere." &&
	test "$(q e.db "SELECT path, status FROM files ORDER BY path")" = "member.c|error
rcu.c|ok"
'

test_expect_success SQLITE3 'one file alone (analyzed in place): sparse exiting is recorded too' '
	test_must_fail bkl analyze --db c.db noheader.c 2>err &&
	test_one_line err "warning: .noheader.c. not analyzed: .*unable to open .nothere.h." &&
	test "$(q c.db "SELECT status FROM files WHERE path = '\''noheader.c'\''")" = error &&
	test_must_fail bkl analyze --db c.db broken.c 2>err &&
	test_one_line err "warning: .broken.c. not analyzed: broken.c:4:" &&
	test "$(q c.db "SELECT status FROM files ORDER BY path")" = "error
error" &&
	bkl analyze -q --db c.db one.c &&
	test "$(q c.db "SELECT count(*) FROM files WHERE status = '\''ok'\''")" = 1
'

test_expect_success SQLITE3 'a missing file is one line and loses no data' '
	q b.db "SELECT count(*) FROM calls" >before &&
	test_must_fail bkl analyze --db b.db nothere.c 2>err &&
	test_one_line err "^bkl analyze: warning: cannot read .nothere.c.: No such file or directory$" &&
	q b.db "SELECT count(*) FROM calls" >after &&
	test_cmp before after &&
	test "$(q b.db "SELECT count(*) FROM files WHERE path = '\''nothere.c'\''")" = 0 &&
	mkdir adir &&
	test_must_fail bkl analyze --db b.db adir 2>err &&
	test_one_line err "cannot read .adir.: not a regular file"
'

test_expect_success SQLITE3 'a database with a newer schema is refused, untouched' '
	cp a.db new.db &&
	q new.db "PRAGMA user_version = 999" &&
	q new.db "SELECT count(*) FROM calls" >before &&
	test_must_fail bkl analyze --db new.db one.c 2>err &&
	test_one_line err "error: database .new.db. has schema version 999, newer than this bkl" &&
	test_must_fail bkl sites --db new.db 2>err &&
	test_one_line err "newer than this bkl" &&
	test_must_fail bkl merge --db b.db new.db 2>err &&
	test_one_line err "newer than this bkl" &&
	q new.db "SELECT count(*) FROM calls" >after &&
	test_cmp before after
'

test_expect_success SQLITE3 're-analysis replaces the facts of a file' '
	cp a.db r.db &&
	q r.db "SELECT count(*) FROM calls" >before &&
	bkl analyze -q --db r.db one.c &&
	q r.db "SELECT count(*) FROM calls" >after &&
	test_cmp before after &&
	mkdir edit && sed "/helper();/d" one.c >edit/one.c && cp bkl.h edit/ &&
	(cd edit && bkl analyze -q --db ../r.db one.c) &&
	q r.db "SELECT count(*) FROM files WHERE path = '\''one.c'\''" >n && test "$(cat n)" = 1 &&
	test "$(q r.db "SELECT count(*) FROM chains WHERE function = '\''chrdev_open'\'' AND line = 16")" = 0
'

test_expect_success 'merging two shards equals analyzing both at once' '
	bkl analyze -q --no-resolve --db s1.db one.c &&
	bkl analyze -q --no-resolve --db s2.db two.c &&
	bkl sites --db s1.db >s1-sites &&
	! grep implicit s1-sites &&
	bkl merge --db m.db s1.db s2.db >out &&
	test_one_line out "^merged 2 shards into m.db$" &&
	for c in sites imbalance chains; do
		bkl $c --json --db a.db >all.$c &&
		bkl $c --json --db m.db >merged.$c &&
		test_cmp all.$c merged.$c || return 1
	done &&
	bkl chains --db m.db >merged.text && bkl chains --db a.db >all.text &&
	test_cmp all.text merged.text
'

test_expect_success 'a merged shard keeps its work facts: deadlock chains as analyzed at once' '
	mkdir wk && cp "$BKL_ROOT/analyzer/validation/work-flush.c" wk/ &&
	(cd wk && bkl analyze -q --db all.db work-flush.c &&
	 bkl analyze -q --no-resolve --db shard.db work-flush.c &&
	 bkl merge --db merged.db shard.db >/dev/null &&
	 bkl chains --db all.db >all && bkl chains --db merged.db >merged) &&
	grep -q "(deadlock)" wk/all &&
	test_cmp wk/all wk/merged
'

test_expect_success 'merging a shard again replaces its files' '
	bkl merge --db m.db s2.db &&
	bkl sites --json --db m.db >again &&
	test_cmp all.sites again
'

test_expect_success 'a missing shard is one line; the database is unchanged' '
	bkl sites --db m.db >before &&
	test_must_fail bkl merge --db m.db nothere.db 2>err &&
	test_one_line err "error: no shard database at .nothere.db." &&
	! test -e nothere.db &&
	bkl sites --db m.db >after &&
	test_cmp before after
'

test_expect_success SQLITE3 'calls through unresolved pointers are counted' '
	cat >ptr.c <<-\EOF &&
	#include "bkl.h"
	int call(int (*fn)(int), struct file *f)
	{
		int ret;

		lock_kernel();
		ret = fn(1) + f->f_op->open(2);
		unlock_kernel();
		return ret;
	}
	EOF
	bkl analyze -q --db p.db ptr.c &&
	test "$(q p.db "SELECT unresolved FROM files")" = 1 &&
	test "$(q p.db "SELECT value FROM meta WHERE key = '\''analyzer.unresolved'\''")" = 2 &&
	q p.db "SELECT kind, struct, member, held FROM unresolved_calls ORDER BY kind" >u &&
	printf "member|file_operations|open|yes\npointer|||yes\n" >expect &&
	test_cmp expect u
'

test_expect_success SQLITE3 'sparse flags: -D, -I, recorded; headers and their hashes' '
	mkdir -p inc &&
	printf "#define BKL_ON 1\n" >inc/conf.h &&
	cat >flags.c <<-\EOF &&
	#include "bkl.h"
	#include "conf.h"
	void f(void)
	{
	#if defined(USE_BKL) && BKL_ON
		lock_kernel();
	#endif
	}
	EOF
	bkl analyze -q --db f.db -Iinc flags.c &&
	test "$(q f.db "SELECT count(*) FROM sites")" = 0 &&
	bkl analyze -q --db f.db -DUSE_BKL -I inc flags.c &&
	test "$(q f.db "SELECT count(*) FROM sites")" = 1 &&
	test "$(q f.db "SELECT flags FROM files")" = "-DUSE_BKL -I inc" &&
	q f.db "SELECT path FROM file_deps ORDER BY path" >deps &&
	grep "^inc/conf.h$" deps && grep "^bkl.h$" deps &&
	q f.db "SELECT hash FROM file_deps WHERE path = '\''inc/conf.h'\''" >h1 &&
	printf "#define BKL_ON 0\n" >inc/conf.h &&
	bkl analyze -q --db f.db -DUSE_BKL -I inc flags.c &&
	q f.db "SELECT hash FROM file_deps WHERE path = '\''inc/conf.h'\''" >h2 &&
	! test_cmp h1 h2 &&
	test "$(q f.db "SELECT count(*) FROM sites")" = 0
'

test_expect_success SQLITE3 'a function with too many paths is walked coarsely, and says so' '
	{
		echo "#include \"bkl.h\"" &&
		echo "extern int g(int);" &&
		echo "int many(int *a)" && echo "{" && echo "	int r = 0;" &&
		for i in $(seq 24); do echo "	int c$i = a[$i];"; done &&
		for i in $(seq 24); do echo "	if (c$i) r += g($i);"; done &&
		echo "	lock_kernel();" &&
		for i in $(seq 24); do echo "	if (c$i) r += g($i);"; done &&
		echo "	unlock_kernel();" && echo "	return r;" && echo "}" &&
		echo "int few(int *a)" && echo "{" && echo "	return g(a[0]);" && echo "}"
	} >many.c &&
	bkl analyze -q --db cm.db many.c &&
	test "$(q cm.db "SELECT name, coarse FROM functions ORDER BY name")" = "few|0
many|1" &&
	test "$(q cm.db "SELECT count(*) FROM imbalances")" = 0 &&
	test "$(q cm.db "SELECT count(*) FROM calls WHERE caller = '\''many'\'' AND held = '\''yes'\''")" = 25
'

test_expect_success '--primitives replaces the table; a bad one is one line' '
	cat >nap.c <<-\EOF &&
	#include "bkl.h"
	extern void my_nap(void);
	void f(void)
	{
		lock_kernel();
		my_nap();
		unlock_kernel();
	}
	EOF
	bkl analyze -q --db n.db nap.c &&
	bkl chains --db n.db >c && ! test -s c &&
	{ cat "$BKL_ROOT/analyzer/profiles/bkl.lock" "$BKL_ROOT/analyzer/profiles/6.x.kernel" &&
	  echo "sleep my_nap"; } >prims.txt &&
	bkl analyze --db n.db --primitives prims.txt nap.c 2>err >/dev/null &&
	test_one_line err "^bkl analyze: profiles: primitives prims.txt (no kernel tree found" &&
	bkl chains --db n.db >c && grep "^    my_nap$" c &&
	echo "snooze my_nap" >bad.txt &&
	test_must_fail bkl analyze --db n.db --primitives bad.txt nap.c 2>err &&
	test_one_line err "error: bad.txt:1: bad primitive rule .snooze." &&
	test_must_fail bkl analyze --db n.db --primitives nothere.txt nap.c 2>err &&
	test_one_line err "error: cannot read primitives file .nothere.txt."
'

test_expect_success 'usage and bad options' '
	test_expect_code() { "$@"; test $? = 129; } &&
	test_expect_code bkl analyze --db x.db 2>err &&
	grep "^usage: bkl analyze" err &&
	test_must_fail bkl analyze one.c --db 2>err &&
	test_one_line err "option .--db. requires a value" &&
	test_must_fail bkl sites --db nothere.db 2>err &&
	test_one_line err "error: no database at .nothere.db." &&
	! test -e nothere.db &&
	test_must_fail bkl chains --bogus 2>err &&
	test_one_line err "unknown option .--bogus." &&
	test_must_fail bkl analyze --db x.db one.c -I 2>err &&
	test_one_line err "^bkl analyze: error: sparse: missing argument for -I option$"
'

# analyzer/blob.c replaces libsparse's blob allocator only if setup.sh
# made the library's blob_alloc() weak; else the link keeps sparse's.
test_expect_success 'bkl links its own blob allocator, not libsparse'"'"'s' '
	nm "$BKL_ROOT/bkl" >syms &&
	grep " T blob_alloc$" syms &&
	grep " T blob_free$" syms
'

test_expect_success PYTHON3 '--json output parses, with exactly the contract keys' '
	mkdir js && cp "$BKL_ROOT/analyzer/validation/json.c" js/ &&
	(cd js && bkl analyze -q --db j.db json.c) &&
	for c in sites imbalance chains; do
		bkl $c --json --db js/j.db >$c.json || return 1
	done &&
	python3 - <<-\EOF
	import json
	for cmd, keys in (("sites", ["file", "line", "function", "kind"]),
			  ("imbalance", ["file", "line", "function", "kind"]),
			  ("chains", ["file", "line", "function", "class", "path"])):
	    rows = json.load(open(cmd + ".json"))
	    assert rows, cmd
	    for r in rows:
	        # implicit sites add entry, edge and candidates after the contract keys
	        extra = ["entry", "edge", "candidates"] if r.get("kind") == "implicit" else []
	        # chains add by_type and edges (how each call was resolved)
	        # (origin: why its first call runs under the lock; built: null
	        # for a DB of bkl analyze alone, no audit says what is built)
	        extra += ["by_type", "origin", "built", "edges"] if cmd == "chains" else []
	        if cmd == "chains":
	            assert len(r["edges"]) == len(r["path"]) - 1, r
	            assert all(e["edge"] in ("direct", "registered", "table", "by-type") for e in r["edges"]), r
	            in_path = sum(e["edge"] == "by-type" for e in r["edges"])
	            assert r["origin"] in ("held", "covered", "by-type"), r
	            assert (r["by_type"] > in_path) == (r["origin"] == "by-type"), r
	            assert r["built"] is None, r
	        assert list(r) == keys + extra, (cmd, r)
	    assert rows == sorted(rows, key=lambda r: (r["file"], r["line"], r["function"])), cmd
	EOF
'

test_expect_success 'chain-sample: precise and other chains, the same each time, with their calls' '
	mkdir cs && cp "$BKL_ROOT/analyzer/validation/table-call.c" cs/ &&
	(cd cs && bkl analyze -q --db c.db table-call.c) &&
	"$BKL_ROOT/scripts/chain-sample.sh" cs/c.db 5 >s1 &&
	"$BKL_ROOT/scripts/chain-sample.sh" cs/c.db 5 >s2 &&
	test_cmp s1 s2 &&
	test "$(grep -c "^P [0-9]*: " s1)" = 2 &&
	test "$(grep -c "^T [0-9]*: " s1)" = 1 &&
	grep "^T 1: table-call.c:64: any_inode: sleep, origin held, 1 by type$" s1 &&
	grep "^    any_inode  table-call.c:64  calls the next (by-type, 2)$" s1 &&
	grep "^    (under the lock: address_space_operations.writepage called from slow_named at table-call.c:74, table, 1)$" s1 &&
	"$BKL_ROOT/scripts/chain-sample.sh" cs/c.db 1 >s3 &&
	test "$(grep -c "^[PT] [0-9]*: " s3)" = 2 &&
	test_must_fail "$BKL_ROOT/scripts/chain-sample.sh" cs/nope.db 2>err &&
	test_one_line err "no database .cs/nope.db."
'

test_expect_success PYTHON3 'a file that cannot end fails alone, in one line, and the others are analyzed' '
	mkdir lim &&
	printf "#include \"self.h\"\nint x;\n" >lim/self.h &&
	printf "#include \"self.h\"\nint f(void) { return 0; }\n" >lim/loop.c &&
	python3 -c "print(\"int h(void) { return \" + \"+\".join([\"1\"] * 100000) + \"; }\")" >lim/deep.c &&
	python3 -c "
print(\"#define A0(x) x x x x\")
for i in range(1, 14): print(\"#define A%d(x) A%d(x) A%d(x) A%d(x) A%d(x)\" % ((i,) + (i - 1,) * 4))
print(\"int v = 0 A13(+1);\")" >lim/slow.c &&
	cp one.c lim/ok.c && cp bkl.h lim/ &&
	(cd lim && test_must_fail bkl analyze --db ../lim.db --timeout 2 loop.c deep.c slow.c ok.c 2>../err) &&
	grep "^bkl analyze: warning: .loop.c. not analyzed: loop.c: error: #include nested deeper than 200" err &&
	grep "^bkl analyze: warning: .deep.c. not analyzed: deep.c: error: sparse ran out of stack" err &&
	grep "^bkl analyze: warning: .slow.c. not analyzed: slow.c: error: analysis took longer than 2 s" err &&
	test "$(wc -l <err)" = 3 &&
	test "$(q lim.db "SELECT status, count(*) FROM files GROUP BY status ORDER BY status" | tr "\n" " ")" = "error|3 ok|1 "
'

test_expect_success 'one such file alone: bounded too, not a hang' '
	(cd lim && test_must_fail bkl analyze --db ../lim1.db loop.c 2>../err) &&
	test_one_line err "loop.c: error: #include nested deeper than 200" &&
	test_must_fail bkl analyze --db lim1.db --max-mem 100000000000 lim/ok.c 2>err &&
	test_one_line err "option .--max-mem. expects a number from 0 to"
'

# part.c: sparse drops the if that compares pointers of different address
# spaces (an error the analyzer lives with); bad.c: an undefined function
cat >part.c <<'EOF'
#include "bkl.h"
#define __rcu __attribute__((noderef, address_space(__rcu)))
struct foo { int x; };
extern struct foo __rcu *gp;
int lost(struct foo *p)
{
	lock_kernel();
	if (gp == p) {
		unlock_kernel();
		return -1;
	}
	if (p->x)
		return -2;
	unlock_kernel();
	return 0;
}
EOF
cat >bad.c <<'EOF'
int f(int n)
{
	return undefined_fn(n);
}
EOF

test_expect_success 'a file sparse dropped code of is partial, apart from failed ones' '
	test_must_fail bkl analyze --db part.db part.c bad.c one.c >out 2>err &&
	grep "^analyzed 3 files (1 failed, 1 partial): " out &&
	grep "^bkl analyze: warning: .part.c. analyzed in part (sparse dropped code): part.c:8:16: error: incompatible types in comparison expression (different address spaces)" err &&
	grep "^bkl analyze: warning: .bad.c. not analyzed: bad.c:3:16: error: undefined identifier .undefined_fn." err &&
	test "$(q part.db "SELECT path, status, partial IS NOT NULL FROM files ORDER BY path" | tr "\n" " ")" = "bad.c|error|0 one.c|ok|0 part.c|ok|1 " &&
	test "$(q part.db "SELECT name FROM functions WHERE partial")" = lost &&
	bkl imbalance --db part.db >imb &&
	grep "^part.c:13: warning: return with the BKL held in .lost. (return-held; partial: sparse dropped some of its code)$" imb &&
	bkl report --db part.db --lock bkl >rep &&
	grep "^lock bkl: 3 files analyzed (1 failed, 1 partial): " rep &&
	grep "^  part.c:13: lost: return-held (partial)$" rep &&
	bkl report --db part.db --lock bkl --format json >rep.json &&
	grep "\"totals\": {\"files\": 3, \"failed\": 1, .*\"partial\": 1}" rep.json &&
	grep "\"function\": \"lost\", \"kind\": \"return-held\", \"partial\": true}" rep.json
'

test_expect_success 'partial survives a merge of shards' '
	bkl analyze --no-resolve --db shard-part.db part.c >/dev/null 2>&1 &&
	bkl merge --db merged-part.db shard-part.db >/dev/null &&
	test "$(q merged-part.db "SELECT partial IS NOT NULL FROM files WHERE path = \"part.c\"")" = 1 &&
	test "$(q merged-part.db "SELECT name FROM functions WHERE partial")" = lost
'

test_done
