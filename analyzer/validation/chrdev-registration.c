/*
 * chrdev_open() calls f_op->open with the BKL held (as our series makes
 * it): the tables that reach a character-device registration are
 * covered, whichever way they get there; a debugfs-only table is not.
 */
#define __acquires(x) __attribute__((context(x, 0, 1)))
#define __releases(x) __attribute__((context(x, 1, 0)))
extern void lock_kernel(void) __acquires(kernel_lock);
extern void unlock_kernel(void) __releases(kernel_lock);

struct inode;
struct file;
struct file_operations {
	void *owner;
	int (*open)(struct inode *, struct file *);
	int (*release)(struct inode *, struct file *);
};
struct file {
	const struct file_operations *f_op;
};
struct cdev {
	void *kobj;
	const struct file_operations *ops;
};
struct dentry;

extern int __register_chrdev(unsigned int major, unsigned int baseminor,
			     unsigned int count, const char *name,
			     const struct file_operations *fops);
static inline int register_chrdev(unsigned int major, const char *name,
				  const struct file_operations *fops)
{
	return __register_chrdev(major, 0, 256, name, fops);
}
extern void cdev_init(struct cdev *, const struct file_operations *);
extern int cdev_add(struct cdev *, unsigned int, unsigned int);
extern struct dentry *debugfs_create_file(const char *name, unsigned short mode,
					  struct dentry *parent, void *data,
					  const struct file_operations *fops);

int chrdev_open(struct inode *inode, struct file *filp)
{
	int ret = 0;

	lock_kernel();
	if (filp->f_op->open)
		ret = filp->f_op->open(inode, filp);
	unlock_kernel();
	return ret;
}

static int a_open(struct inode *i, struct file *f) { return 0; }
static int a_release(struct inode *i, struct file *f) { return 0; }
static int b_open(struct inode *i, struct file *f) { return 0; }
static int c_open(struct inode *i, struct file *f) { return 0; }
static int dbg_open(struct inode *i, struct file *f) { return 0; }

static const struct file_operations a_fops = {
	.open		= a_open,
	.release	= a_release,
};
static const struct file_operations b_fops = { .open = b_open };
static const struct file_operations c_fops = { .open = c_open };
static const struct file_operations dbg_fops = { .open = dbg_open };

static struct cdev b_cdev;
struct my_dev {
	struct cdev cdev;
};

int init(struct my_dev *d)
{
	register_chrdev(10, "a", &a_fops);
	cdev_init(&b_cdev, &b_fops);
	cdev_add(&b_cdev, 0, 1);
	d->cdev.ops = &c_fops;
	debugfs_create_file("dbg", 0444, 0, 0, &dbg_fops);
	return 0;
}

/*
 * check-name: registration-aware coverage of file_operations
 * check-command: sites
 * check-output-start
 * chrdev-registration.c:45: warning: lock_kernel() in 'chrdev_open'
 * chrdev-registration.c:48: warning: unlock_kernel() in 'chrdev_open'
 * chrdev-registration.c:52: warning: 'a_open' runs with the BKL held: file_operations.open called from chrdev_open (chrdev-registration.c:47), table a_fops registered by __register_chrdev (chrdev-registration.c:73): entry point
 * chrdev-registration.c:54: warning: 'b_open' runs with the BKL held: file_operations.open called from chrdev_open (chrdev-registration.c:47), table b_fops registered by cdev_init (chrdev-registration.c:74): entry point
 * chrdev-registration.c:55: warning: 'c_open' runs with the BKL held: file_operations.open called from chrdev_open (chrdev-registration.c:47), table c_fops registered by cdev.ops (chrdev-registration.c:76): entry point
 * check-output-end
 */
