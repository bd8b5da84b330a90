/*
 * An if on a parameter narrows as a switch does: fasync_helper() only
 * adds an entry (and may sleep) when `on` is set, so a release that
 * passes on = 0 under the BKL does not sleep in it, while ->fasync(),
 * which passes its own `on`, may.  A test of another parameter (a NULL
 * check before the switch) does not hide the switch's narrowing.
 */
#define __acquires(x) __attribute__((context(x, 0, 1)))
#define __releases(x) __attribute__((context(x, 1, 0)))
extern void lock_kernel(void) __acquires(kernel_lock);
extern void unlock_kernel(void) __releases(kernel_lock);
extern void msleep(unsigned int);
extern void wait_for_completion(void *);

struct file;
static void *done;

static int remove_entry(struct file *filp)
{
	return 0;
}

static int add_entry(int fd, struct file *filp)
{
	msleep(1);
	return 1;
}

int fasync_helper(int fd, struct file *filp, int on)
{
	if (!on)
		return remove_entry(filp);
	return add_entry(fd, filp);
}

static int dev_release(struct file *filp)
{
	int r;

	lock_kernel();
	r = fasync_helper(-1, filp, 0);			/* on = 0: no chain */
	unlock_kernel();
	return r;
}

static int dev_fasync(int fd, struct file *filp, int on)
{
	int r;

	lock_kernel();
	r = fasync_helper(fd, filp, on);		/* any on: sleeps */
	unlock_kernel();
	return r;
}

static int set_mode(struct file *filp, unsigned int cmd)
{
	if (!filp)
		return -1;
	switch (cmd) {
	case 1:
		return 0;
	default:
		wait_for_completion(done);
		return 1;
	}
}

static int dev_reset(struct file *filp)
{
	int r;

	lock_kernel();
	r = set_mode(filp, 1);				/* cmd 1: no chain */
	unlock_kernel();
	return r;
}

static int nap_if(unsigned int cmd)
{
	if (cmd == 7)
		msleep(7);
	if (cmd != 9)
		return 0;
	wait_for_completion(done);
	return 9;
}

static int dev_modes(void)
{
	int r;

	lock_kernel();
	r = nap_if(8);					/* neither 7 nor 9: no chain */
	r += nap_if(7);					/* sleeps */
	r += nap_if(9);					/* waits */
	unlock_kernel();
	return r;
}

/*
 * check-name: an if on a parameter narrows what a constant argument reaches
 * check-command: chains
 * check-output-start
 * const-if.c:51: warning: 'dev_fasync' may sleep with the BKL held (sleep):
 *   dev_fasync  const-if.c:51
 *     fasync_helper  const-if.c:33
 *       add_entry  const-if.c:25
 *         msleep
 * const-if.c:95: warning: 'dev_modes' may sleep with the BKL held (sleep):
 *   dev_modes  const-if.c:95
 *     nap_if  const-if.c:82
 *       msleep
 * const-if.c:96: warning: 'dev_modes' may wait for another task with the BKL held (wait):
 *   dev_modes  const-if.c:96
 *     nap_if  const-if.c:85
 *       wait_for_completion
 * check-output-end
 */
