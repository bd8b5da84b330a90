/*
 * Entered with the BKL held, a function that drops it must take it back
 * on every path that returns: a return that does not while other paths
 * balance is return-released.  A static function is entered held when
 * every call of it is made with the BKL held (and no struct member holds
 * it); a function the BKL covers (an ->open reached from chrdev_open)
 * is too, but its unlock stays unlock-unheld (tty-ops.c).  An unlock
 * helper its callers call with the BKL held is no unlock-unheld; called
 * once without it, it is.
 */
#define __acquires(x) __attribute__((context(x, 0, 1)))
#define __releases(x) __attribute__((context(x, 1, 0)))
extern void lock_kernel(void) __acquires(kernel_lock);
extern void unlock_kernel(void) __releases(kernel_lock);
extern int step(int n);

static void drop_lock(void)
{
	unlock_kernel();
}

static void drop_lock_too(void)
{
	unlock_kernel();
}

static void inner_drop(void)
{
	unlock_kernel();
}

static void middle(void)
{
	inner_drop();
	step(0);
	lock_kernel();
}

static int do_io(int n)
{
	int ret = 0;

	unlock_kernel();
	if (step(n))
		return -1;
	ret = step(n + 1);
	lock_kernel();
	return ret;
}

int user(int n)
{
	int ret;

	lock_kernel();
	ret = do_io(n);
	middle();
	drop_lock();
	if (ret)
		return ret;
	lock_kernel();
	drop_lock_too();
	return 0;
}

int careless(int n)
{
	drop_lock_too();
	return n;
}

struct inode;
struct file;
struct file_operations {
	int (*open)(struct inode *, struct file *);
};
struct file {
	const struct file_operations *f_op;
};
struct cdev {
	const struct file_operations *ops;
};
extern void cdev_init(struct cdev *, const struct file_operations *);

int chrdev_open(struct inode *inode, struct file *filp)
{
	int ret = 0;

	lock_kernel();
	if (filp->f_op->open)
		ret = filp->f_op->open(inode, filp);
	unlock_kernel();
	return ret;
}

static int foo_open(struct inode *inode, struct file *filp)
{
	unlock_kernel();
	if (step(1))
		return -5;
	lock_kernel();
	return 0;
}

static const struct file_operations foo_fops = { .open = foo_open };
static struct cdev foo_cdev;

void foo_init(void)
{
	cdev_init(&foo_cdev, &foo_fops);
}

/*
 * check-name: return-released: entered held, a path returns without it
 * check-command: imbalance
 * check-output-start
 * return-released.c:24: warning: unlock_kernel() without the BKL held in 'drop_lock_too' (unlock-unheld)
 * return-released.c:45: warning: return with the BKL released in 'do_io' (return-released)
 * return-released.c:98: warning: unlock_kernel() without the BKL held in 'foo_open' (unlock-unheld)
 * return-released.c:100: warning: return with the BKL released in 'foo_open' (return-released)
 * check-output-end
 * check-command: imbalance --json
 * check-output-start
 * [
 *   {"file": "return-released.c", "line": 24, "function": "drop_lock_too", "kind": "unlock-unheld"},
 *   {"file": "return-released.c", "line": 45, "function": "do_io", "kind": "return-released"},
 *   {"file": "return-released.c", "line": 98, "function": "foo_open", "kind": "unlock-unheld"},
 *   {"file": "return-released.c", "line": 100, "function": "foo_open", "kind": "return-released"}
 * ]
 * check-output-end
 */
