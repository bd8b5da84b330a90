/*
 * A 2.6.27 tree (trees/stub-2.6.27: its Makefile says VERSION = 2,
 * PATCHLEVEL = 6): the 2.6 kernel profile and the bkl-2.6 lock profile
 * are chosen by themselves, and the gfp bit that allows sleeping is read
 * from the tree's gfp.h: __GFP_WAIT, 0x10.  GFP_KERNEL (0xd0) and
 * GFP_NOIO sleep, GFP_ATOMIC does not; with 6.x's 0x400 none would.  The
 * 2.6 primitives: down(), flush_scheduled_work(), request_module();
 * cycle_kernel_lock() is two sites at its call.
 */
#include <linux/slab.h>
#include <linux/smp_lock.h>
#include <linux/workqueue.h>

static struct semaphore sem;

int alloc_under_bkl(void)
{
	void *a, *b, *c;

	lock_kernel();
	a = kmalloc(16, GFP_ATOMIC);
	b = kmalloc(32, GFP_KERNEL);
	c = kmalloc(64, GFP_NOIO);
	unlock_kernel();
	return !a + !b + !c;
}

int waits_under_bkl(void)
{
	lock_kernel();
	down(&sem);
	up(&sem);
	flush_scheduled_work();
	request_module("char-major-%d", 10);
	unlock_kernel();
	return 0;
}

int pushed_down_open(void)
{
	cycle_kernel_lock();
	return (int)__get_free_pages(GFP_KERNEL, 0);
}

/*
 * check-name: 2.6 tree: the 2.6 profiles by themselves, __GFP_WAIT from its gfp.h
 * check-tree: stub-2.6.27
 * check-analyze: -Iinclude
 * check-command: sites
 * check-output-start
 * gfp-2.6.c:20: warning: lock_kernel() in 'alloc_under_bkl'
 * gfp-2.6.c:24: warning: unlock_kernel() in 'alloc_under_bkl'
 * gfp-2.6.c:30: warning: lock_kernel() in 'waits_under_bkl'
 * gfp-2.6.c:35: warning: unlock_kernel() in 'waits_under_bkl'
 * gfp-2.6.c:41: warning: lock_kernel() in 'pushed_down_open'
 * gfp-2.6.c:41: warning: unlock_kernel() in 'pushed_down_open'
 * check-output-end
 * check-analyze-warning: profiles: lock bkl-2.6, kernel 2.6 (Linux 2.6.27 at
 * check-analyze-warning: gfp bit __GFP_WAIT = 0x10, include/linux/gfp.h)
 * check-command: chains
 * check-output-start
 * gfp-2.6.c:22: warning: 'alloc_under_bkl' may sleep with the BKL held (sleep):
 *   alloc_under_bkl  gfp-2.6.c:22
 *     kmalloc
 * gfp-2.6.c:23: warning: 'alloc_under_bkl' may sleep with the BKL held (sleep):
 *   alloc_under_bkl  gfp-2.6.c:23
 *     kmalloc
 * gfp-2.6.c:31: warning: 'waits_under_bkl' may sleep with the BKL held (sleep):
 *   waits_under_bkl  gfp-2.6.c:31
 *     down
 * gfp-2.6.c:33: warning: 'waits_under_bkl' may wait for another task with the BKL held (wait):
 *   waits_under_bkl  gfp-2.6.c:33
 *     flush_scheduled_work
 * gfp-2.6.c:34: warning: 'waits_under_bkl' may wait for another task with the BKL held (wait):
 *   waits_under_bkl  gfp-2.6.c:34
 *     request_module
 * check-output-end
 */
