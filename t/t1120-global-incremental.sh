#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
test_description='the global pass incrementally: the files analyzed since, the others from its snapshot, as a full pass'
. ./test-lib.sh

test_need_program SQLITE3 sqlite3 sqlite3

# dump DB: the global pass's results (implicit sites, coverage, the
# imbalances that depend on entry, chains with their steps), sorted
dump() {
	sqlite3 -separator '|' "$1" "
	SELECT 'site', file, line, function, lock FROM sites WHERE kind = 'implicit';
	SELECT 'cov', f.path, c.function, c.struct, c.member, c.tbl, c.store_file,
		c.store_line, c.via_file, c.via_line, c.via_function, c.reg_kind, c.reg_via,
		c.reg_file, c.reg_line, c.entry, c.edge, c.candidates, c.lock
		FROM coverage c JOIN files f ON f.id = c.file_id;
	SELECT 'imb', file, line, function, kind, lock, entry FROM imbalances
		WHERE entry IS NOT NULL;
	SELECT 'chain', c.file, c.line, c.function, c.class, c.path, c.lock, c.by_type,
		c.origin, (SELECT group_concat(s.step || ':' || s.function || '@' ||
		ifnull(s.file, '') || ':' || ifnull(s.line, '') || ':' || ifnull(s.edge, '') ||
		':' || ifnull(s.candidates, ''), ' ') FROM (SELECT * FROM chain_steps
		WHERE chain_id = c.id ORDER BY step) s) FROM chains c;
	SELECT 'meta', key, value FROM meta WHERE key IN ('analyzer.unresolved',
		'analyzer.unresolved_held');" | LC_ALL=C sort
}

# same DB: its results are those of a full pass over a copy of it
same_as_full() {
	rm -f full.db full.db.graph-bkl &&
	sqlite3 "$1" ".backup full.db" &&
	bkl merge --full --db full.db >/dev/null &&
	test "$(sqlite3 full.db "SELECT value FROM meta WHERE key = 'analyzer.last_pass'")" = full &&
	dump "$1" >inc.dump &&
	dump full.db >full.dump &&
	test_cmp full.dump inc.dump
}

last_pass() {
	sqlite3 "$1" "SELECT value FROM meta WHERE key = 'analyzer.last_pass'"
}

cat >bkl.h <<'EOF'
#define __acquires(x) __attribute__((context(x, 0, 1)))
#define __releases(x) __attribute__((context(x, 1, 0)))
extern void lock_kernel(void) __acquires(kernel_lock);
extern void unlock_kernel(void) __releases(kernel_lock);
extern void msleep(unsigned int msecs);
extern void wait_for_completion(void *x);
struct file_operations { int (*open)(int); int (*release)(int); };
struct file { const struct file_operations *f_op; };
extern int __register_chrdev(unsigned int major, unsigned int baseminor,
			     unsigned int count, const char *name,
			     const struct file_operations *fops);
EOF

cat >one.c <<'EOF'
#include "bkl.h"
void nap(void)
{
	msleep(10);
}
int chrdev_open(struct file *filp)
{
	int ret;

	lock_kernel();
	ret = filp->f_op->open(0);
	unlock_kernel();
	return ret;
}
int chrdev_release(struct file *filp)
{
	int ret;

	lock_kernel();
	ret = filp->f_op->release(0);
	unlock_kernel();
	return ret;
}
EOF

cat >two.c <<'EOF'
#include "bkl.h"
extern void nap(void);
static int two_open(int minor)
{
	return minor;
}
static const struct file_operations two_fops = { .open = two_open };
int two_init(void)
{
	return __register_chrdev(42, 0, 1, "two", &two_fops);
}
EOF

cat >three.c <<'EOF'
#include "bkl.h"
extern void nap(void);
static void drop(void)
{
	unlock_kernel();
}
int three_locked(void)
{
	lock_kernel();
	drop();
	return 0;
}
static int three_release(int minor)
{
	nap();
	return 0;
}
static const struct file_operations three_fops = { .release = three_release };
int three_init(void)
{
	return __register_chrdev(43, 0, 1, "three", &three_fops);
}
EOF

cat >four.c <<'EOF'
#include "bkl.h"
void four_wait(void *c)
{
	wait_for_completion(c);
}
int four(void)
{
	lock_kernel();
	four_wait(0);
	unlock_kernel();
	return 0;
}
EOF

test_expect_success 'the first pass is a full one, and writes its snapshot' '
	bkl analyze --db a.db one.c two.c three.c four.c >out &&
	test "$(last_pass a.db)" = full &&
	test -s a.db.graph-bkl &&
	test "$(sqlite3 a.db "SELECT count(*) FROM global_dirty")" = 0 &&
	same_as_full a.db
'

test_expect_success 'one file changed: an incremental pass, as a full one' '
	dump a.db >before &&
	sed "s/return minor;/nap();\n\treturn minor;/" two.c >two.new && mv two.new two.c &&
	bkl analyze --db a.db two.c >out &&
	test "$(last_pass a.db)" = "incremental 2" &&
	same_as_full a.db &&
	! grep "two_open|sleep" before &&
	grep "^chain|two.c|.*|two_open|sleep|" inc.dump
'

test_expect_success 'an entry changes: the unlock helper no longer called with the lock held' '
	grep "^imb|three.c|.*|drop|" inc.dump >/dev/null || true &&
	sed "s/^\tlock_kernel();\n\tdrop/XX/; /^int three_locked/,/^}/s/^\tlock_kernel();$//" three.c >three.new &&
	mv three.new three.c &&
	bkl analyze --db a.db three.c >out &&
	test "$(last_pass a.db)" = "incremental 2" &&
	same_as_full a.db &&
	grep "^imb|three.c|.*|drop|unlock-unheld|bkl|unheld$" inc.dump
'

test_expect_success 'a new file stores into a member other files call: as a full pass' '
	cat >five.c <<-\EOF &&
	#include "bkl.h"
	static int five_open(int minor)
	{
		msleep(1);
		return 0;
	}
	static const struct file_operations five_fops = { .open = five_open };
	int five_init(void)
	{
		return __register_chrdev(44, 0, 1, "five", &five_fops);
	}
	EOF
	bkl analyze --db a.db five.c >out &&
	test "$(last_pass a.db)" = "incremental 1" &&
	same_as_full a.db &&
	grep "^chain|five.c|.*|five_open|sleep|" inc.dump
'

test_expect_success 'a file removed through a merged shard: as a full pass' '
	rm -f shard.db &&
	bkl analyze --no-resolve --db shard.db four.c one.c >out &&
	sqlite3 a.db "PRAGMA foreign_keys = ON; DELETE FROM files WHERE path = '\''five.c'\''" &&
	bkl merge --db a.db shard.db >out &&
	last_pass a.db | grep "^incremental [1-9]" &&
	same_as_full a.db &&
	! grep "five_open" inc.dump
'

test_expect_success 'a deadlock across two files: the handler in one, the flush in another' '
	cat >work.h <<-\EOF &&
	struct work_struct;
	typedef void (*work_func_t)(struct work_struct *work);
	struct work_struct {
		long data;
		work_func_t func;
	};
	#define INIT_WORK(_work, _func) do { (_work)->data = 0; (_work)->func = (_func); } while (0)
	extern int flush_work(struct work_struct *work);
	struct port {
		int open;
		struct work_struct hangup;
	};
	EOF
	cat >six.c <<-\EOF &&
	#include "bkl.h"
	#include "work.h"
	static void six_hangup(struct work_struct *w)
	{
		lock_kernel();
		unlock_kernel();
	}
	void six_init(struct port *p)
	{
		INIT_WORK(&p->hangup, six_hangup);
	}
	EOF
	cat >seven.c <<-\EOF &&
	#include "bkl.h"
	#include "work.h"
	int seven_close(struct port *p)
	{
		lock_kernel();
		flush_work(&p->hangup);
		unlock_kernel();
		return 0;
	}
	EOF
	bkl analyze --db a.db seven.c >out &&
	same_as_full a.db &&
	! grep "^chain|seven.c|.*|deadlock|" inc.dump &&
	bkl analyze --db a.db six.c >out &&
	test "$(last_pass a.db)" = "incremental 1" &&
	same_as_full a.db &&
	grep "^chain|seven.c|.*|seven_close|deadlock|" inc.dump
'

test_expect_success 'a snapshot of another pass is not trusted: a full pass' '
	cp a.db.graph-bkl old.graph &&
	bkl merge --db a.db >out &&
	test "$(last_pass a.db)" = "incremental 0, snapshot kept" &&
	cmp old.graph a.db.graph-bkl &&
	bkl analyze --db a.db two.c >out &&
	test "$(last_pass a.db)" = "incremental 2" &&
	! cmp old.graph a.db.graph-bkl &&
	cp old.graph a.db.graph-bkl &&
	bkl merge --db a.db >out &&
	test "$(last_pass a.db)" = full &&
	same_as_full a.db &&
	printf "garbage" >a.db.graph-bkl &&
	bkl merge --db a.db >out &&
	test "$(last_pass a.db)" = full &&
	bkl merge --db a.db >out &&
	test "$(last_pass a.db)" = "incremental 0, snapshot kept" &&
	bkl merge --full --db a.db >out &&
	test "$(last_pass a.db)" = full &&
	same_as_full a.db
'

# 64 more files, each a char driver whose open sleeps or not
many_files() {
	for i in $(seq 10 73); do
		cat >m$i.c <<-EOF
		#include "bkl.h"
		extern void nap(void);
		static int m${i}_open(int minor)
		{
			return minor;
		}
		static const struct file_operations m${i}_fops = { .open = m${i}_open };
		int m${i}_init(void)
		{
			return __register_chrdev($i, 0, 1, "m$i", &m${i}_fops);
		}
		EOF
	done
}

test_expect_success 'few files analyzed since: the snapshot is kept, they stay dirty' '
	many_files &&
	bkl analyze --db a.db m*.c >out &&
	test "$(sqlite3 a.db "SELECT count(*) FROM global_dirty")" = 0 &&
	cp a.db.graph-bkl kept.graph &&
	sed "s/return minor;/nap();\n\treturn minor;/" m42.c >m42.new && mv m42.new m42.c &&
	bkl analyze --db a.db m42.c >out &&
	test "$(last_pass a.db)" = "incremental 2, snapshot kept" &&
	cmp kept.graph a.db.graph-bkl &&
	test "$(sqlite3 a.db "SELECT count(*) FROM global_dirty")" = 2 &&
	same_as_full a.db &&
	grep "^chain|m42.c|.*|m42_open|sleep|" inc.dump &&
	sed "s/nap();//" m42.c >m42.new && mv m42.new m42.c &&
	bkl analyze --db a.db m42.c >out &&
	last_pass a.db | grep "^incremental [2-4], snapshot kept$" &&
	same_as_full a.db &&
	! grep "^chain|m42.c|" inc.dump
'

test_expect_success 'more files than one in 16 of the DB analyzed since: a new snapshot' '
	bkl analyze --db a.db m1*.c >out &&
	last_pass a.db | grep "^incremental [1-9][0-9]$" &&
	! cmp kept.graph a.db.graph-bkl &&
	test "$(sqlite3 a.db "SELECT count(*) FROM global_dirty")" = 0 &&
	same_as_full a.db
'

test_done
