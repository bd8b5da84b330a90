// SPDX-License-Identifier: GPL-2.0
/*
 * A negative control for bkl test: an open() that flushes a workqueue
 * whose work takes the BKL.  The driver is in its pushed-down form: the
 * BKL that chrdev_open() took around open() in 2.6.26 is taken by open()
 * itself (the test kernel's chrdev_open() and misc_open() take none), so
 * the flush waits for a work item that waits for the BKL this task
 * holds: with a mutex BKL, a deadlock (the 2.6.2x kernels escaped it only
 * because schedule() dropped the BKL).  The series' flush_workqueue()
 * helper warns and drops the BKL for the wait; bkl test must report the
 * warning as a failure.  bkl_flush_fixed.c queues in open() and flushes
 * in release(), which runs without the BKL.
 */
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/smp_lock.h>
#include <linux/workqueue.h>

#ifndef BKL_FLUSH_NAME
#define BKL_FLUSH_NAME "bkl_flush"
#endif

static struct workqueue_struct *bkl_flush_wq;
static atomic_t bkl_flush_runs;

static void bkl_flush_work_fn(struct work_struct *work)
{
	lock_kernel();
	atomic_inc(&bkl_flush_runs);
	unlock_kernel();
}

static DECLARE_WORK(bkl_flush_work, bkl_flush_work_fn);

static int bkl_flush_open(struct inode *inode, struct file *file)
{
	lock_kernel();
	queue_work(bkl_flush_wq, &bkl_flush_work);
#ifndef BKL_FLUSH_FIXED
	flush_workqueue(bkl_flush_wq);
#endif
	unlock_kernel();
	return 0;
}

static int bkl_flush_release(struct inode *inode, struct file *file)
{
#ifdef BKL_FLUSH_FIXED
	flush_workqueue(bkl_flush_wq);
#endif
	return 0;
}

static const struct file_operations bkl_flush_fops = {
	.owner = THIS_MODULE,
	.open = bkl_flush_open,
	.release = bkl_flush_release,
	.llseek = noop_llseek,
};

static struct miscdevice bkl_flush_dev = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = BKL_FLUSH_NAME,
	.fops = &bkl_flush_fops,
};

static int __init bkl_flush_init(void)
{
	int ret;

	bkl_flush_wq = alloc_workqueue(BKL_FLUSH_NAME, 0, 0);
	if (!bkl_flush_wq)
		return -ENOMEM;
	ret = misc_register(&bkl_flush_dev);
	if (ret)
		destroy_workqueue(bkl_flush_wq);
	return ret;
}

static void __exit bkl_flush_exit(void)
{
	misc_deregister(&bkl_flush_dev);
	destroy_workqueue(bkl_flush_wq);
}

module_init(bkl_flush_init);
module_exit(bkl_flush_exit);
MODULE_DESCRIPTION("bkl test negative control: flush_workqueue() under the BKL");
MODULE_LICENSE("GPL");
