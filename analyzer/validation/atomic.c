/*
 * printk() may be called in any context: what its body reaches (a
 * console driver that sleeps, say) is not a sleep of its caller.  An
 * "atomic" rule ends the search there, body or not; a real sleep next to
 * it still makes its chain.
 */
#define __acquires(x) __attribute__((context(x, 0, 1)))
#define __releases(x) __attribute__((context(x, 1, 0)))
extern void lock_kernel(void) __acquires(kernel_lock);
extern void unlock_kernel(void) __releases(kernel_lock);
extern void msleep(unsigned int ms);

static void console_flush(void)
{
	msleep(1);
}

int _printk(const char *fmt, ...)
{
	console_flush();
	return 0;
}

void warns(int n)
{
	lock_kernel();
	_printk("n = %d\n", n);
	if (n)
		msleep(n);
	unlock_kernel();
}

/*
 * check-name: atomic primitives (printk) end the chain search
 * check-command: chains
 * check-output-start
 * atomic.c:29: warning: 'warns' may sleep with the BKL held (sleep):
 *   warns  atomic.c:29
 *     msleep
 * check-output-end
 */
