/*
 * A member call through an object the code points at a table it names
 * reaches that table only (a_ops = &udf_aops, as in 2.6 fs/udf): sparse
 * loads from udf_aops itself, through a local or through inode->a_ops
 * just stored.  Through an object nobody names, every writepage (by
 * type).  Covered both ways, a function keeps the precise evidence
 * (slow_writepage: its own chain is precise).
 */
#define __acquires(x) __attribute__((context(x, 0, 1)))
#define __releases(x) __attribute__((context(x, 1, 0)))
extern void lock_kernel(void) __acquires(kernel_lock);
extern void unlock_kernel(void) __releases(kernel_lock);
extern void msleep(unsigned int);

struct page;
struct address_space_operations {
	int (*writepage)(struct page *);
};
struct inode {
	const struct address_space_operations *a_ops;
};

static int udf_writepage(struct page *page)
{
	return 0;
}

static int slow_writepage(struct page *page)
{
	msleep(10);
	return 0;
}

static const struct address_space_operations udf_aops = { .writepage = udf_writepage };
static const struct address_space_operations slow_aops = { .writepage = slow_writepage };

int udf_local(struct page *page)
{
	const struct address_space_operations *a_ops = &udf_aops;
	int ret;

	lock_kernel();
	ret = a_ops->writepage(page);
	unlock_kernel();
	return ret;
}

int udf_stored(struct inode *inode, struct page *page)
{
	int ret;

	lock_kernel();
	inode->a_ops = &udf_aops;
	ret = inode->a_ops->writepage(page);
	unlock_kernel();
	return ret;
}

int any_inode(struct inode *inode, struct page *page)
{
	int ret;

	lock_kernel();
	ret = inode->a_ops->writepage(page);
	unlock_kernel();
	return ret;
}

int slow_named(struct page *page)
{
	int ret;

	lock_kernel();
	ret = slow_aops.writepage(page);
	unlock_kernel();
	return ret;
}

/*
 * check-name: a member call through a table the code names reaches that table only
 * check-command: chains
 * check-output-start
 * table-call.c:30: warning: 'slow_writepage' may sleep with the BKL held (sleep):
 *   slow_writepage  table-call.c:30
 *     msleep
 * table-call.c:64: warning: 'any_inode' may sleep with the BKL held (sleep):
 *   any_inode  table-call.c:64  (by type, one of 2)
 *     slow_writepage  table-call.c:30
 *       msleep
 * table-call.c:74: warning: 'slow_named' may sleep with the BKL held (sleep):
 *   slow_named  table-call.c:74
 *     slow_writepage  table-call.c:30
 *       msleep
 * check-output-end
 * check-command: chains --json
 * check-output-start
 * [
 *   {"file": "table-call.c", "line": 30, "function": "slow_writepage", "class": "sleep", "path": ["slow_writepage","msleep"], "by_type": 0, "origin": "covered", "built": null, "edges": [{"edge": "direct", "candidates": 1}]},
 *   {"file": "table-call.c", "line": 64, "function": "any_inode", "class": "sleep", "path": ["any_inode","slow_writepage","msleep"], "by_type": 1, "origin": "held", "built": null, "edges": [{"edge": "by-type", "candidates": 2}, {"edge": "direct", "candidates": 1}]},
 *   {"file": "table-call.c", "line": 74, "function": "slow_named", "class": "sleep", "path": ["slow_named","slow_writepage","msleep"], "by_type": 0, "origin": "held", "built": null, "edges": [{"edge": "table", "candidates": 1}, {"edge": "direct", "candidates": 1}]}
 * ]
 * check-output-end
 * check-command: sites
 * check-output-start
 * table-call.c:23: warning: 'udf_writepage' runs with the BKL held: address_space_operations.writepage called from udf_local (table-call.c:43): through table udf_aops
 * table-call.c:28: warning: 'slow_writepage' runs with the BKL held: address_space_operations.writepage called from slow_named (table-call.c:74): through table slow_aops
 * table-call.c:42: warning: lock_kernel() in 'udf_local'
 * table-call.c:44: warning: unlock_kernel() in 'udf_local'
 * table-call.c:52: warning: lock_kernel() in 'udf_stored'
 * table-call.c:55: warning: unlock_kernel() in 'udf_stored'
 * table-call.c:63: warning: lock_kernel() in 'any_inode'
 * table-call.c:65: warning: unlock_kernel() in 'any_inode'
 * table-call.c:73: warning: lock_kernel() in 'slow_named'
 * table-call.c:75: warning: unlock_kernel() in 'slow_named'
 * check-output-end
 */
