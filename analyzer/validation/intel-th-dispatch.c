/*
 * A dispatcher that is not misc_open(): intel_th_output_open() (covered:
 * its table is registered with register_chrdev) replaces the file's fops
 * by its output driver's and calls their ->open() with the BKL still
 * held.  The output drivers' tables are stored in struct intel_th_driver
 * .fops (a register-store rule), and only those are reached: a table
 * debugfs uses, held in a plain pointer, is not, although a generic
 * file_operations.open call would reach every .open of the tree.
 */
#define __acquires(x) __attribute__((context(x, 0, 1)))
#define __releases(x) __attribute__((context(x, 1, 0)))
extern void lock_kernel(void) __acquires(kernel_lock);
extern void unlock_kernel(void) __releases(kernel_lock);

struct inode;
struct file;
struct file_operations {
	int (*open)(struct inode *, struct file *);
};
struct file {
	const struct file_operations *f_op;
};
struct intel_th_driver {
	const char *name;
	const struct file_operations *fops;
};
extern int __register_chrdev(unsigned int major, unsigned int baseminor,
			     unsigned int count, const char *name,
			     const struct file_operations *fops);
extern struct intel_th_driver *output_driver(struct inode *inode);

int chrdev_open(struct inode *inode, struct file *filp)
{
	int ret = 0;

	lock_kernel();
	if (filp->f_op->open)
		ret = filp->f_op->open(inode, filp);
	unlock_kernel();
	return ret;
}

static int intel_th_output_open(struct inode *inode, struct file *file)
{
	struct intel_th_driver *thdrv = output_driver(inode);

	file->f_op = thdrv->fops;
	return file->f_op->open ? file->f_op->open(inode, file) : 0;
}

static const struct file_operations intel_th_output_fops = {
	.open = intel_th_output_open,
};

int intel_th_init(void)
{
	return __register_chrdev(0, 0, 256, "intel_th/output", &intel_th_output_fops);
}

static int msc_open(struct inode *i, struct file *f) { return 0; }
static int stats_open(struct inode *i, struct file *f) { return 0; }

static const struct file_operations msc_fops = { .open = msc_open };
static const struct file_operations stats_fops = { .open = stats_open };

struct intel_th_driver msc_driver = { .name = "msc", .fops = &msc_fops };
const struct file_operations *debugfs_stats_fops = &stats_fops;

/*
 * check-name: intel_th_output_open dispatches to intel_th_driver tables only
 * check-command: sites
 * check-output-start
 * intel-th-dispatch.c:36: warning: lock_kernel() in 'chrdev_open'
 * intel-th-dispatch.c:39: warning: unlock_kernel() in 'chrdev_open'
 * intel-th-dispatch.c:43: warning: 'intel_th_output_open' runs with the BKL held: file_operations.open called from chrdev_open (intel-th-dispatch.c:38), table intel_th_output_fops registered by __register_chrdev (intel-th-dispatch.c:57): entry point
 * intel-th-dispatch.c:60: warning: 'msc_open' runs with the BKL held: file_operations.open called from intel_th_output_open (intel-th-dispatch.c:48), table msc_fops registered by intel_th_driver.fops (intel-th-dispatch.c:66): entry point
 * check-output-end
 */
