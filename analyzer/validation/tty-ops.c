/*
 * A covered function is a context where the BKL is held for its own
 * indirect calls: tty_fops reaches chrdev_open (cdev_init), so tty_open
 * is covered, and its tty->ops->open() covers every tty_operations.open
 * (tty_operations is not restricted to registered tables).  Calls in a
 * covered function make chains (not precise where a call by type covers
 * it); what it does after dropping the BKL does not.  Dropping the BKL of
 * the caller is an unlock-unheld: it breaks without chrdev_open()'s BKL.
 */
#define __acquires(x) __attribute__((context(x, 0, 1)))
#define __releases(x) __attribute__((context(x, 1, 0)))
extern void lock_kernel(void) __acquires(kernel_lock);
extern void unlock_kernel(void) __releases(kernel_lock);
extern void schedule(void);

struct inode;
struct file;
struct tty_struct;
struct file_operations {
	int (*open)(struct inode *, struct file *);
};
struct file {
	const struct file_operations *f_op;
	struct tty_struct *private_data;
};
struct tty_operations {
	int (*open)(struct tty_struct *, struct file *);
	void (*close)(struct tty_struct *, struct file *);
};
struct tty_struct {
	const struct tty_operations *ops;
};
struct cdev {
	const struct file_operations *ops;
};
struct mutex;
extern void mutex_lock(struct mutex *m);
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

static int tty_open(struct inode *inode, struct file *filp)
{
	struct tty_struct *tty = filp->private_data;
	int ret;

	ret = tty->ops->open(tty, filp);
	unlock_kernel();
	schedule();
	lock_kernel();
	return ret;
}

static const struct file_operations tty_fops = { .open = tty_open };
static struct cdev tty_cdev;

void tty_init(void)
{
	cdev_init(&tty_cdev, &tty_fops);
}

static struct mutex *port_lock;

static int uart_open(struct tty_struct *tty, struct file *filp)
{
	mutex_lock(port_lock);
	return 0;
}

static void uart_close(struct tty_struct *tty, struct file *filp)
{
}

static int pty_open(struct tty_struct *tty, struct file *filp)
{
	return 0;
}

static const struct tty_operations uart_ops = { .open = uart_open, .close = uart_close };
static const struct tty_operations pty_ops = { .open = pty_open };

/*
 * check-name: covered functions hold the BKL for their own indirect calls
 * check-command: sites
 * check-output-start
 * tty-ops.c:44: warning: lock_kernel() in 'chrdev_open'
 * tty-ops.c:47: warning: unlock_kernel() in 'chrdev_open'
 * tty-ops.c:51: warning: 'tty_open' runs with the BKL held: file_operations.open called from chrdev_open (tty-ops.c:46), table tty_fops registered by cdev_init (tty-ops.c:68): entry point
 * tty-ops.c:57: warning: unlock_kernel() in 'tty_open'
 * tty-ops.c:59: warning: lock_kernel() in 'tty_open'
 * tty-ops.c:73: warning: 'uart_open' runs with the BKL held: tty_operations.open called from tty_open (tty-ops.c:56): by type, one of 2
 * tty-ops.c:83: warning: 'pty_open' runs with the BKL held: tty_operations.open called from tty_open (tty-ops.c:56): by type, one of 2
 * check-output-end
 * check-command: chains
 * check-output-start
 * tty-ops.c:46: warning: 'chrdev_open' may sleep with the BKL held (sleep):
 *   chrdev_open  tty-ops.c:46
 *     tty_open  tty-ops.c:56  (by type, one of 2)
 *       uart_open  tty-ops.c:75
 *         mutex_lock
 * tty-ops.c:56: warning: 'tty_open' may sleep with the BKL held (sleep):
 *   tty_open  tty-ops.c:56  (by type, one of 2)
 *     uart_open  tty-ops.c:75
 *       mutex_lock
 * tty-ops.c:75: warning: 'uart_open' may sleep with the BKL held (sleep; held only through a call by type):
 *   uart_open  tty-ops.c:75
 *     mutex_lock
 * check-output-end
 * check-command: chains --precise
 * check-output-start
 * check-output-end
 * check-command: chains --json
 * check-output-start
 * [
 *   {"file": "tty-ops.c", "line": 46, "function": "chrdev_open", "class": "sleep", "path": ["chrdev_open","tty_open","uart_open","mutex_lock"], "by_type": 1, "origin": "held", "built": null, "edges": [{"edge": "registered", "candidates": 1}, {"edge": "by-type", "candidates": 2}, {"edge": "direct", "candidates": 1}]},
 *   {"file": "tty-ops.c", "line": 56, "function": "tty_open", "class": "sleep", "path": ["tty_open","uart_open","mutex_lock"], "by_type": 1, "origin": "covered", "built": null, "edges": [{"edge": "by-type", "candidates": 2}, {"edge": "direct", "candidates": 1}]},
 *   {"file": "tty-ops.c", "line": 75, "function": "uart_open", "class": "sleep", "path": ["uart_open","mutex_lock"], "by_type": 1, "origin": "by-type", "built": null, "edges": [{"edge": "direct", "candidates": 1}]}
 * ]
 * check-output-end
 * check-command: imbalance
 * check-output-start
 * tty-ops.c:57: warning: unlock_kernel() without the BKL held in 'tty_open' (unlock-unheld)
 * check-output-end
 */
