/*
 * Constant arguments narrow the callee: the 2.6 compat ioctl handlers
 * call the native ioctl with one command, which reaches only its arm of
 * the switch on cmd.  A fall-through into an arm makes it reachable
 * from the arm above; the default arm runs for every other value; a
 * caller whose cmd is not constant reaches every arm.
 */
#define __acquires(x) __attribute__((context(x, 0, 1)))
#define __releases(x) __attribute__((context(x, 1, 0)))
extern void lock_kernel(void) __acquires(kernel_lock);
extern void unlock_kernel(void) __releases(kernel_lock);
extern void msleep(unsigned int);
extern void wait_for_completion(void *);
extern int quick(void);

static void *done;

static int dev_ioctl(unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case 1:
		return quick();
	case 2:
		quick();
		/* fall through */
	case 3:
		msleep(10);
		return 0;
	case 0x40045405:
		return 0;
	default:
		wait_for_completion(done);
		return -1;
	}
}

static int compat_ioctl(int which, unsigned long arg)
{
	int r;

	lock_kernel();
	if (which)
		r = dev_ioctl(1, arg);			/* no chain */
	else
		r = dev_ioctl(0x40045405, arg);		/* no chain */
	unlock_kernel();
	return r;
}

static int compat_ioctl_sleep(unsigned long arg)
{
	int r;

	lock_kernel();
	r = dev_ioctl(2, arg);				/* 2 falls into 3: sleeps */
	unlock_kernel();
	return r;
}

static int compat_ioctl_default(unsigned long arg)
{
	int r;

	lock_kernel();
	r = dev_ioctl(7, arg);				/* the default arm: waits */
	unlock_kernel();
	return r;
}

static int native_ioctl(unsigned int cmd, unsigned long arg)
{
	int r;

	lock_kernel();
	r = dev_ioctl(cmd, arg);			/* any arm */
	unlock_kernel();
	return r;
}

/*
 * check-name: a constant argument reaches only the switch arms it can take
 * check-command: chains
 * check-output-start
 * const-args.c:55: warning: 'compat_ioctl_sleep' may sleep with the BKL held (sleep):
 *   compat_ioctl_sleep  const-args.c:55
 *     dev_ioctl  const-args.c:27
 *       msleep
 * const-args.c:65: warning: 'compat_ioctl_default' may wait for another task with the BKL held (wait):
 *   compat_ioctl_default  const-args.c:65
 *     dev_ioctl  const-args.c:32
 *       wait_for_completion
 * const-args.c:75: warning: 'native_ioctl' may sleep with the BKL held (sleep):
 *   native_ioctl  const-args.c:75
 *     dev_ioctl  const-args.c:27
 *       msleep
 * const-args.c:75: warning: 'native_ioctl' may wait for another task with the BKL held (wait):
 *   native_ioctl  const-args.c:75
 *     dev_ioctl  const-args.c:32
 *       wait_for_completion
 * check-output-end
 */
