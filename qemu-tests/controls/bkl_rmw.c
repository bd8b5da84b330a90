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
 * WARN, which bkl test must report as a failure.
 *
 * A plain char device, not a misc one: misc_open() calls every misc
 * driver's open() under misc_mtx, which would serialize it anyway.
 */
#include <linux/bug.h>
#include <linux/delay.h>
#include <linux/fs.h>
#include <linux/device.h>
#include <linux/err.h>
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

static int bkl_rmw_major;
static struct class *bkl_rmw_class;

static int __init bkl_rmw_init(void)
{
	struct device *dev;
	int ret;

	bkl_rmw_major = register_chrdev(0, BKL_RMW_NAME, &bkl_rmw_fops);
	if (bkl_rmw_major < 0)
		return bkl_rmw_major;
	bkl_rmw_class = class_create(THIS_MODULE, BKL_RMW_NAME);
	if (IS_ERR(bkl_rmw_class)) {
		ret = PTR_ERR(bkl_rmw_class);
		goto out_chrdev;
	}
	/* devtmpfs makes /dev/BKL_RMW_NAME */
	dev = device_create(bkl_rmw_class, NULL, MKDEV(bkl_rmw_major, 0), NULL, BKL_RMW_NAME);
	if (IS_ERR(dev)) {
		ret = PTR_ERR(dev);
		goto out_class;
	}
	return 0;

out_class:
	class_destroy(bkl_rmw_class);
out_chrdev:
	unregister_chrdev(bkl_rmw_major, BKL_RMW_NAME);
	return ret;
}

static void __exit bkl_rmw_exit(void)
{
	device_destroy(bkl_rmw_class, MKDEV(bkl_rmw_major, 0));
	class_destroy(bkl_rmw_class);
	unregister_chrdev(bkl_rmw_major, BKL_RMW_NAME);
	pr_info("%s: %lu opens\n", BKL_RMW_NAME, bkl_rmw_opens);
}

module_init(bkl_rmw_init);
module_exit(bkl_rmw_exit);
MODULE_DESCRIPTION("bkl test negative control: a read-modify-write only the BKL serialized");
MODULE_LICENSE("GPL");
