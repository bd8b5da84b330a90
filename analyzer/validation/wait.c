/*
 * The wait class: waiting, with the BKL held, for another task that may
 * itself need the BKL (flush_scheduled_work in release_dev, request_module
 * in misc_open and get_fs_type, in 2008).  In 6.1 request_module() is a
 * macro for __request_module().  A function that also sleeps gets one
 * chain per class.
 */
#define __acquires(x) __attribute__((context(x, 0, 1)))
#define __releases(x) __attribute__((context(x, 1, 0)))
extern void lock_kernel(void) __acquires(kernel_lock);
extern void unlock_kernel(void) __releases(kernel_lock);

struct workqueue_struct;
struct mutex;
extern void flush_workqueue(struct workqueue_struct *wq);
extern int __request_module(int wait, const char *fmt, ...);
#define request_module(mod...) __request_module(1, mod)
extern void mutex_lock(struct mutex *m);
extern void mutex_unlock(struct mutex *m);

static struct workqueue_struct *wq;
static struct mutex *big;

static void release_dev(int n)
{
	mutex_lock(big);
	flush_workqueue(wq);
	mutex_unlock(big);
}

int tty_release(int n)
{
	lock_kernel();
	release_dev(n);
	unlock_kernel();
	return 0;
}

int get_fs_type(const char *name)
{
	int ret;

	lock_kernel();
	ret = request_module("fs-%s", name);
	unlock_kernel();
	return ret;
}

/*
 * check-name: the wait class: flush_workqueue, request_module
 * check-command: chains
 * check-output-start
 * wait.c:34: warning: 'tty_release' may sleep with the BKL held (sleep):
 *   tty_release  wait.c:34
 *     release_dev  wait.c:26
 *       mutex_lock
 * wait.c:34: warning: 'tty_release' may wait for another task with the BKL held (wait):
 *   tty_release  wait.c:34
 *     release_dev  wait.c:27
 *       flush_workqueue
 * wait.c:44: warning: 'get_fs_type' may wait for another task with the BKL held (wait):
 *   get_fs_type  wait.c:44
 *     __request_module
 * check-output-end
 */
