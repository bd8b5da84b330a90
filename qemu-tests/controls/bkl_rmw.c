// SPDX-License-Identifier: GPL-2.0
/*
 * A negative control for bkl test: an open() whose read-modify-write of
 * the device's state has no lock but the BKL.  Each open() reads the open
 * count, sleeps a little (the rest of a real open(): a register access,
 * an allocation), then writes the count plus one.  Pushed down
 * (bkl_rmw_pushed.c: lock_kernel() in open()) the opens are serialized
 * and the count is exact.  Converted with the verdict "none" (this file:
 * no lock at all) two concurrent opens read the same count and one
 * update is lost; open() sees the count move under it and says so with a
 * WARN, which bkl test must report as a failure.  It is the conversion
 * the witness cannot judge by itself: the BKL did protect something here.
 */
#include <linux/bug.h>
#include <linux/delay.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/smp_lock.h>

#ifndef BKL_RMW_NAME
#define BKL_RMW_NAME "bkl_rmw"
#endif

/* Protected by the BKL, in the pushed-down form, and by nothing else. */
static unsigned long bkl_rmw_opens;

static int bkl_rmw_open(struct inode *inode, struct file *file)
{
	unsigned long seen;

#ifdef BKL_RMW_PUSHED
	lock_kernel();
#endif
	seen = READ_ONCE(bkl_rmw_opens);
	usleep_range(200, 500);
	WARN_ONCE(READ_ONCE(bkl_rmw_opens) != seen,
		  "%s: lost update: the open count went from %lu to %lu during open()\n",
		  BKL_RMW_NAME, seen, READ_ONCE(bkl_rmw_opens));
	WRITE_ONCE(bkl_rmw_opens, seen + 1);
#ifdef BKL_RMW_PUSHED
	unlock_kernel();
#endif
	return 0;
}

static const struct file_operations bkl_rmw_fops = {
	.owner = THIS_MODULE,
	.open = bkl_rmw_open,
	.llseek = noop_llseek,
};

static struct miscdevice bkl_rmw_dev = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = BKL_RMW_NAME,
	.fops = &bkl_rmw_fops,
};

static int __init bkl_rmw_init(void)
{
	return misc_register(&bkl_rmw_dev);
}

static void __exit bkl_rmw_exit(void)
{
	misc_deregister(&bkl_rmw_dev);
	pr_info("%s: %lu opens\n", BKL_RMW_NAME, bkl_rmw_opens);
}

module_init(bkl_rmw_init);
module_exit(bkl_rmw_exit);
MODULE_DESCRIPTION("bkl test negative control: a read-modify-write only the BKL serialized");
MODULE_LICENSE("GPL");
