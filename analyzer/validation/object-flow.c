/*
 * A member call through a file's static pointer reaches the table that
 * file stores into the object (pty.c: ptmx_open() calls
 * ptm_driver->ops->open(), and ptm_driver's ops are only ever
 * ptm_unix98_ops), not every table of the type.  A second table stored
 * into the same member, or a pointer of another file, leaves the call
 * resolved by type.
 */
#define __acquires(x) __attribute__((context(x, 0, 1)))
#define __releases(x) __attribute__((context(x, 1, 0)))
extern void lock_kernel(void) __acquires(kernel_lock);
extern void unlock_kernel(void) __releases(kernel_lock);
extern void msleep(unsigned int);

struct tty_struct;
struct file;
struct tty_operations {
	int (*open)(struct tty_struct *tty, struct file *filp);
};
struct tty_driver {
	const char *name;
	const struct tty_operations *ops;
};
extern struct tty_driver *tty_alloc_driver(unsigned int lines);
extern struct tty_driver *shared_driver;

static inline void tty_set_operations(struct tty_driver *driver,
				      const struct tty_operations *op)
{
	driver->ops = op;
}

static int pty_open(struct tty_struct *tty, struct file *filp)
{
	return 0;
}

static int slow_open(struct tty_struct *tty, struct file *filp)
{
	msleep(10);
	return 0;
}

static const struct tty_operations ptm_ops = { .open = pty_open };
const struct tty_operations slow_ops = { .open = slow_open };

static struct tty_driver *ptm_driver;
static struct tty_driver *two_driver;
static struct tty_driver *pts_driver;

int pty_init(void)
{
	ptm_driver = tty_alloc_driver(4);
	if (!ptm_driver)
		return -1;
	ptm_driver->name = "ptm";
	tty_set_operations(ptm_driver, &ptm_ops);
	two_driver = tty_alloc_driver(1);
	if (!two_driver)
		return -1;
	tty_set_operations(two_driver, &ptm_ops);
	return 0;
}

/* sparse stores through the value it stored into pts_driver */
void pts_init(void)
{
	pts_driver = tty_alloc_driver(2);
	tty_set_operations(pts_driver, &ptm_ops);
}

void two_slow(void)
{
	tty_set_operations(two_driver, &slow_ops);
}

int ptmx_open(struct tty_struct *tty, struct file *filp)
{
	int r;

	lock_kernel();
	r = ptm_driver->ops->open(tty, filp);		/* ptm_ops only: no chain */
	unlock_kernel();
	return r;
}

int pts_open(struct tty_struct *tty, struct file *filp)
{
	int r;

	lock_kernel();
	r = pts_driver->ops->open(tty, filp);		/* ptm_ops only: no chain */
	unlock_kernel();
	return r;
}

int two_open(struct tty_struct *tty, struct file *filp)
{
	int r;

	lock_kernel();
	r = two_driver->ops->open(tty, filp);		/* two tables: by type */
	unlock_kernel();
	return r;
}

int shared_open(struct tty_struct *tty, struct file *filp)
{
	int r;

	lock_kernel();
	r = shared_driver->ops->open(tty, filp);	/* another file's: by type */
	unlock_kernel();
	return r;
}

/*
 * check-name: a call through a file's static pointer reaches the table it stores there
 * check-command: chains
 * check-output-start
 * object-flow.c:40: warning: 'slow_open' may sleep with the BKL held (sleep; held only through a call by type):
 *   slow_open  object-flow.c:40
 *     msleep
 * object-flow.c:102: warning: 'two_open' may sleep with the BKL held (sleep):
 *   two_open  object-flow.c:102  (by type, one of 2)
 *     slow_open  object-flow.c:40
 *       msleep
 * object-flow.c:112: warning: 'shared_open' may sleep with the BKL held (sleep):
 *   shared_open  object-flow.c:112  (by type, one of 2)
 *     slow_open  object-flow.c:40
 *       msleep
 * check-output-end
 */
