/*
 * misc devices: misc_fops is registered with register_chrdev, so
 * misc_open() is covered by chrdev_open(); inside it, file->f_op->open()
 * runs with the BKL still held and dispatches to the tables registered
 * with misc_register() (through struct miscdevice .fops, by a static
 * miscdevice or one filled in the function that registers it).  A table
 * of a miscdevice never registered is not reached.  misc_open()'s own
 * calls make chains: the request_module() of 2008 among them.
 */
#define __acquires(x) __attribute__((context(x, 0, 1)))
#define __releases(x) __attribute__((context(x, 1, 0)))
extern void lock_kernel(void) __acquires(kernel_lock);
extern void unlock_kernel(void) __releases(kernel_lock);

struct inode { int minor; };
struct file;
struct file_operations {
	int (*open)(struct inode *, struct file *);
};
struct file {
	const struct file_operations *f_op;
};
struct miscdevice {
	int minor;
	const char *name;
	const struct file_operations *fops;
	struct miscdevice *next;
};
struct mutex;
extern void mutex_lock(struct mutex *m);
extern void mutex_unlock(struct mutex *m);
extern int __request_module(int wait, const char *fmt, ...);
#define request_module(mod...) __request_module(1, mod)
extern int __register_chrdev(unsigned int major, unsigned int baseminor,
			     unsigned int count, const char *name,
			     const struct file_operations *fops);
extern int misc_register(struct miscdevice *misc);

int chrdev_open(struct inode *inode, struct file *filp)
{
	int ret = 0;

	lock_kernel();
	if (filp->f_op->open)
		ret = filp->f_op->open(inode, filp);
	unlock_kernel();
	return ret;
}

static struct mutex *misc_mtx;
static struct miscdevice *misc_list;

static int misc_open(struct inode *inode, struct file *file)
{
	struct miscdevice *c;
	int err = -19;

	mutex_lock(misc_mtx);
	for (c = misc_list; c; c = c->next)
		if (c->minor == inode->minor)
			break;
	if (!c) {
		mutex_unlock(misc_mtx);
		request_module("char-major-%d-%d", 10, inode->minor);
		mutex_lock(misc_mtx);
		for (c = misc_list; c; c = c->next)
			if (c->minor == inode->minor)
				break;
		if (!c)
			goto fail;
	}
	file->f_op = c->fops;
	if (file->f_op->open)
		err = file->f_op->open(inode, file);
fail:
	mutex_unlock(misc_mtx);
	return err;
}

static const struct file_operations misc_fops = {
	.open = misc_open,
};

int misc_init(void)
{
	return __register_chrdev(10, 0, 256, "misc", &misc_fops);
}

static int foo_open(struct inode *i, struct file *f) { return 0; }
static int bar_open(struct inode *i, struct file *f) { return 0; }
static int lost_open(struct inode *i, struct file *f) { return 0; }

static const struct file_operations foo_fops = { .open = foo_open };
static const struct file_operations bar_fops = { .open = bar_open };
static const struct file_operations lost_fops = { .open = lost_open };

static struct miscdevice foo_misc = { .minor = 42, .name = "foo", .fops = &foo_fops };
static struct miscdevice lost_misc = { .minor = 43, .name = "lost", .fops = &lost_fops };

struct bar_dev {
	struct miscdevice misc;
};

int foo_init(struct bar_dev *bar)
{
	int ret = misc_register(&foo_misc);

	bar->misc.minor = 44;
	bar->misc.fops = &bar_fops;
	return ret ? ret : misc_register(&bar->misc);
}

/*
 * check-name: misc_register, dispatched by misc_open
 * check-command: sites
 * check-output-start
 * misc-dispatch.c:43: warning: lock_kernel() in 'chrdev_open'
 * misc-dispatch.c:46: warning: unlock_kernel() in 'chrdev_open'
 * misc-dispatch.c:53: warning: 'misc_open' runs with the BKL held: file_operations.open called from chrdev_open (misc-dispatch.c:45), table misc_fops registered by __register_chrdev (misc-dispatch.c:86): entry point
 * misc-dispatch.c:89: warning: 'foo_open' runs with the BKL held: file_operations.open called from misc_open (misc-dispatch.c:74), table foo_fops registered by misc_register (misc-dispatch.c:106): entry point
 * misc-dispatch.c:90: warning: 'bar_open' runs with the BKL held: file_operations.open called from misc_open (misc-dispatch.c:74), table bar_fops registered by misc_register (misc-dispatch.c:110): entry point
 * check-output-end
 * check-command: chains
 * check-output-start
 * misc-dispatch.c:45: warning: 'chrdev_open' may sleep with the BKL held (sleep):
 *   chrdev_open  misc-dispatch.c:45
 *     misc_open  misc-dispatch.c:58
 *       mutex_lock
 * misc-dispatch.c:45: warning: 'chrdev_open' may wait for another task with the BKL held (wait):
 *   chrdev_open  misc-dispatch.c:45
 *     misc_open  misc-dispatch.c:64
 *       __request_module
 * misc-dispatch.c:58: warning: 'misc_open' may sleep with the BKL held (sleep):
 *   misc_open  misc-dispatch.c:58
 *     mutex_lock
 * misc-dispatch.c:64: warning: 'misc_open' may wait for another task with the BKL held (wait):
 *   misc_open  misc-dispatch.c:64
 *     __request_module
 * misc-dispatch.c:65: warning: 'misc_open' may sleep with the BKL held (sleep):
 *   misc_open  misc-dispatch.c:65
 *     mutex_lock
 * check-output-end
 */
