/*
 * In the BKL series kernel_locked() is a static inline reading the task's
 * lock depth (patches/0001): the pattern that tests it still correlates,
 * and a holder is known to hold it.
 */
#define __acquires(x) __attribute__((context(x, 0, 1)))
#define __releases(x) __attribute__((context(x, 1, 0)))
struct task_struct {
	int lock_depth;
};
extern struct task_struct *get_current(void);
#define current get_current()
extern void lock_kernel(void) __acquires(kernel_lock);
extern void unlock_kernel(void) __releases(kernel_lock);
static inline int kernel_locked(void)
{
	return current->lock_depth >= 0;
}
extern void schedule(void);
extern void msleep(unsigned int msecs);

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

/*
 * check-name: kernel_locked() as the series' static inline
 * check-command: imbalance
 * check-output-start
 * check-output-end
 * check-command: chains
 * check-output-start
 * kernel-locked-inline.c:37: warning: 'careful' may sleep with the BKL held (sleep):
 *   careful  kernel-locked-inline.c:37
 *     msleep
 * kernel-locked-inline.c:44: warning: 'vt_ioctl' may sleep with the BKL held (sleep):
 *   vt_ioctl  kernel-locked-inline.c:44
 *     careful  kernel-locked-inline.c:37
 *       msleep
 * check-output-end
 */
