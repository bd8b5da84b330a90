/*
 * In 2.6.27 kernel_locked() is a macro, current->lock_depth >= 0: the
 * bkl-2.6 lock profile's macro rule keeps it a call, so the pattern that
 * tests it correlates as with the series' static inline
 * (kernel-locked-inline.c): no imbalance, and careful() sleeps only when
 * it is held.  reiserfs_write_lock(sb), a macro of lock_kernel() there,
 * is a site under its own name.
 */
#include <linux/smp_lock.h>
#include <linux/reiserfs_fs.h>

static void vt_waitactive(int n)
{
	int bkl = kernel_locked();

	if (bkl)
		unlock_kernel();
	while (n--)
		schedule();
	if (bkl)
		lock_kernel();
}

static void careful(void)
{
	if (kernel_locked())
		msleep(10);
}

long vt_ioctl(int n)
{
	lock_kernel();
	vt_waitactive(n);
	careful();
	unlock_kernel();
	return 0;
}

int reiserfs_remount(struct super_block *s)
{
	reiserfs_write_lock(s);
	s->s_flags = 0;
	reiserfs_write_unlock(s);
	return 0;
}

/*
 * check-name: kernel_locked() as 2.6's macro (a macro rule)
 * check-tree: stub-2.6.27
 * check-analyze: -Iinclude
 * check-command: imbalance
 * check-output-start
 * check-output-end
 * check-command: sites
 * check-output-start
 * kernel-locked-macro.c:17: warning: unlock_kernel() in 'vt_waitactive'
 * kernel-locked-macro.c:21: warning: lock_kernel() in 'vt_waitactive'
 * kernel-locked-macro.c:32: warning: lock_kernel() in 'vt_ioctl'
 * kernel-locked-macro.c:35: warning: unlock_kernel() in 'vt_ioctl'
 * kernel-locked-macro.c:41: warning: reiserfs_write_lock() in 'reiserfs_remount'
 * kernel-locked-macro.c:43: warning: reiserfs_write_unlock() in 'reiserfs_remount'
 * check-output-end
 * check-command: chains
 * check-output-start
 * kernel-locked-macro.c:27: warning: 'careful' may sleep with the BKL held (sleep):
 *   careful  kernel-locked-macro.c:27
 *     msleep
 * kernel-locked-macro.c:34: warning: 'vt_ioctl' may sleep with the BKL held (sleep):
 *   vt_ioctl  kernel-locked-macro.c:34
 *     careful  kernel-locked-macro.c:27
 *       msleep
 * check-output-end
 */
