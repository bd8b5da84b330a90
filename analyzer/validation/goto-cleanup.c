/*
 * goto-cleanup: every error path goes through "out", which unlocks:
 * balanced.  One early return bypasses the cleanup: a leak at that
 * return, not at the shared one.
 */
#define __acquires(x) __attribute__((context(x, 0, 1)))
#define __releases(x) __attribute__((context(x, 1, 0)))
extern void lock_kernel(void) __acquires(kernel_lock);
extern void unlock_kernel(void) __releases(kernel_lock);
extern int probe(int n);
extern void release(int n);

int open_ok(int n)
{
	int ret;

	lock_kernel();
	ret = probe(n);
	if (ret)
		goto out;
	ret = probe(n + 1);
	if (ret)
		goto out_release;
	ret = probe(n + 2);
	if (!ret)
		goto out;
out_release:
	release(n);
out:
	unlock_kernel();
	return ret;
}

int open_bad(int n)
{
	int ret;

	lock_kernel();
	ret = probe(n);
	if (ret)
		goto out;
	if (probe(n + 1) < 0)
		return -5;
	ret = probe(n + 2);
out:
	unlock_kernel();
	return ret;
}

/*
 * check-name: goto cleanup, and a return that skips it
 * check-command: imbalance
 * check-output-start
 * goto-cleanup.c:43: warning: return with the BKL held in 'open_bad' (return-held)
 * check-output-end
 */
