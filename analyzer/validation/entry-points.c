/*
 * Where a push-down may go: only what chrdev_open() (and fasync) called
 * with the BKL held, the ->open/->fasync of a registered char device.
 * Functions those opens reach through other ops tables (a frontend's
 * i2c_gate_ctrl, reached by type from every driver that calls it) are
 * covered, but are no entry points; and a pushed-down open that takes
 * the BKL itself still makes what it calls covered, not entries.
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
	void *private_data;
};
struct frontend_ops {
	int (*i2c_gate_ctrl)(void *fe, int enable);
};
struct frontend {
	struct frontend_ops ops;
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
	return chrdev_call_open(inode, filp);
}

int vfs_fasync(int fd, struct file *filp, int on)
{
	int ret;

	lock_kernel();
	ret = filp->f_op->fasync(fd, filp, on);
	unlock_kernel();
	return ret;
}

static int demod_gate_ctrl(void *fe, int enable) { return 0; }
static int tuner_gate_ctrl(void *fe, int enable) { return 0; }
static const struct frontend_ops demod_ops = { .i2c_gate_ctrl = demod_gate_ctrl };
static const struct frontend_ops tuner_ops = { .i2c_gate_ctrl = tuner_gate_ctrl };

static int dvb_open(struct inode *i, struct file *f)
{
	struct frontend *fe = f->private_data;

	return fe->ops.i2c_gate_ctrl(fe, 1);
}

static int dvb_fasync(int fd, struct file *f, int on) { return 0; }
static int dbg_open(struct inode *i, struct file *f) { return 0; }
static int dbg_fasync(int fd, struct file *f, int on) { return 0; }

static const struct file_operations dvb_fops = { .open = dvb_open, .fasync = dvb_fasync };
const struct file_operations dbg_fops = { .open = dbg_open, .fasync = dbg_fasync };

int dvb_init(void)
{
	return __register_chrdev(212, 0, 1, "dvb", &dvb_fops);
}

/*
 * check-name: entry points: a registered char device's open and fasync only
 * check-command: sites
 * check-output-start
 * entry-points.c:38: warning: lock_kernel() in 'chrdev_call_open'
 * entry-points.c:40: warning: unlock_kernel() in 'chrdev_call_open'
 * entry-points.c:53: warning: lock_kernel() in 'vfs_fasync'
 * entry-points.c:55: warning: unlock_kernel() in 'vfs_fasync'
 * entry-points.c:59: warning: 'demod_gate_ctrl' runs with the BKL held: frontend_ops.i2c_gate_ctrl called from dvb_open (entry-points.c:68): by type, one of 2
 * entry-points.c:60: warning: 'tuner_gate_ctrl' runs with the BKL held: frontend_ops.i2c_gate_ctrl called from dvb_open (entry-points.c:68): by type, one of 2
 * entry-points.c:64: warning: 'dvb_open' runs with the BKL held: file_operations.open called from chrdev_call_open (entry-points.c:39), table dvb_fops registered by __register_chrdev (entry-points.c:80): entry point
 * entry-points.c:71: warning: 'dvb_fasync' runs with the BKL held: file_operations.fasync called from vfs_fasync (entry-points.c:54), table dvb_fops registered by __register_chrdev (entry-points.c:80): entry point
 * entry-points.c:73: warning: 'dbg_fasync' runs with the BKL held: file_operations.fasync called from vfs_fasync (entry-points.c:54): by type, one of 2
 * check-output-end
 * check-command: sites --json
 * check-output-start
 * [
 *   {"file": "entry-points.c", "line": 38, "function": "chrdev_call_open", "kind": "lock"},
 *   {"file": "entry-points.c", "line": 40, "function": "chrdev_call_open", "kind": "unlock"},
 *   {"file": "entry-points.c", "line": 53, "function": "vfs_fasync", "kind": "lock"},
 *   {"file": "entry-points.c", "line": 55, "function": "vfs_fasync", "kind": "unlock"},
 *   {"file": "entry-points.c", "line": 59, "function": "demod_gate_ctrl", "kind": "implicit", "entry": false, "edge": "by-type", "candidates": 2},
 *   {"file": "entry-points.c", "line": 60, "function": "tuner_gate_ctrl", "kind": "implicit", "entry": false, "edge": "by-type", "candidates": 2},
 *   {"file": "entry-points.c", "line": 64, "function": "dvb_open", "kind": "implicit", "entry": true, "edge": "registered", "candidates": 1},
 *   {"file": "entry-points.c", "line": 71, "function": "dvb_fasync", "kind": "implicit", "entry": true, "edge": "by-type", "candidates": 2},
 *   {"file": "entry-points.c", "line": 73, "function": "dbg_fasync", "kind": "implicit", "entry": false, "edge": "by-type", "candidates": 2}
 * ]
 * check-output-end
 */
