/*
 * The registration rule belongs to chrdev_open (restrict rules name the
 * functions): setfl() holds the BKL around every file's ->fasync(), as
 * 2.6.26 did (patches/0009), so there every table's fasync is covered,
 * registered or not; chrdev_open's ->open() still reaches only the
 * registered table.
 */
#define __acquires(x) __attribute__((context(x, 0, 1)))
#define __releases(x) __attribute__((context(x, 1, 0)))
extern void lock_kernel(void) __acquires(kernel_lock);
extern void unlock_kernel(void) __releases(kernel_lock);

struct inode;
struct file;
struct file_operations {
	int (*open)(struct inode *, struct file *);
	int (*fasync)(int, struct file *, int);
};
struct file {
	const struct file_operations *f_op;
};
extern int __register_chrdev(unsigned int major, unsigned int baseminor,
			     unsigned int count, const char *name,
			     const struct file_operations *fops);

static int chrdev_call_open(struct inode *inode, struct file *filp)
{
	int ret;

	lock_kernel();
	ret = filp->f_op->open(inode, filp);
	unlock_kernel();
	return ret;
}

int chrdev_open(struct inode *inode, struct file *filp)
{
	return filp->f_op->open ? chrdev_call_open(inode, filp) : 0;
}

int setfl(int fd, struct file *filp, int on)
{
	int ret = 0;

	if (filp->f_op->fasync) {
		lock_kernel();
		ret = filp->f_op->fasync(fd, filp, on);
		unlock_kernel();
	}
	return ret;
}

static int reg_open(struct inode *i, struct file *f) { return 0; }
static int reg_fasync(int fd, struct file *f, int on) { return 0; }
static int sock_open(struct inode *i, struct file *f) { return 0; }
static int sock_fasync(int fd, struct file *f, int on) { return 0; }

static const struct file_operations reg_fops = { .open = reg_open, .fasync = reg_fasync };
const struct file_operations socket_file_ops = { .open = sock_open, .fasync = sock_fasync };

int reg_init(void)
{
	return __register_chrdev(60, 0, 1, "reg", &reg_fops);
}

/*
 * check-name: restrict rules are per function: setfl's fasync reaches all
 * check-command: sites
 * check-output-start
 * fasync.c:30: warning: lock_kernel() in 'chrdev_call_open'
 * fasync.c:32: warning: unlock_kernel() in 'chrdev_call_open'
 * fasync.c:46: warning: lock_kernel() in 'setfl'
 * fasync.c:48: warning: unlock_kernel() in 'setfl'
 * fasync.c:53: warning: 'reg_open' runs with the BKL held: file_operations.open called from chrdev_call_open (fasync.c:31), table reg_fops registered by __register_chrdev (fasync.c:63): entry point
 * fasync.c:54: warning: 'reg_fasync' runs with the BKL held: file_operations.fasync called from setfl (fasync.c:47), table reg_fops registered by __register_chrdev (fasync.c:63): entry point
 * fasync.c:56: warning: 'sock_fasync' runs with the BKL held: file_operations.fasync called from setfl (fasync.c:47): by type, one of 2
 * check-output-end
 */
