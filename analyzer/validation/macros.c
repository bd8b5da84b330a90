/*
 * Sites behind macros are at the macro's use, in the function using it.
 */
#define __acquires(x) __attribute__((context(x, 0, 1)))
#define __releases(x) __attribute__((context(x, 1, 0)))
extern void lock_kernel(void) __acquires(kernel_lock);
extern void unlock_kernel(void) __releases(kernel_lock);
extern int do_ioctl(unsigned int cmd);

#define BKL_ENTER()	lock_kernel()
#define BKL_EXIT()	unlock_kernel()
#define WITH_BKL(stmt)	do { lock_kernel(); stmt; unlock_kernel(); } while (0)

long foo_ioctl(unsigned int cmd)
{
	long ret;

	BKL_ENTER();
	ret = do_ioctl(cmd);
	BKL_EXIT();
	return ret;
}

long bar_ioctl(unsigned int cmd)
{
	long ret;

	WITH_BKL(ret = do_ioctl(cmd));
	return ret;
}

/*
 * check-name: sites through macros
 * check-command: sites
 * check-output-start
 * macros.c:18: warning: lock_kernel() in 'foo_ioctl'
 * macros.c:20: warning: unlock_kernel() in 'foo_ioctl'
 * macros.c:28: warning: lock_kernel() in 'bar_ioctl'
 * macros.c:28: warning: unlock_kernel() in 'bar_ioctl'
 * check-output-end
 * check-command: imbalance
 * check-output-start
 * check-output-end
 */
