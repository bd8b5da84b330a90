/*
 * The rtnl lock profile (--lock-profile rtnl) on 6.1-style code: its
 * sites (rtnl_trylock() is a lock site, held where it returned nonzero),
 * a return with rtnl held on an error path, an unlock of an rtnl never
 * taken, and the deadlock class netdev knows: flushing work while
 * holding rtnl.  ASSERT_RTNL() is its rtnl_is_locked() test.
 */
#define WARN_ONCE(c, msg) ({ int __r = !!(c); if (__r) printk(msg); __r; })
#define ASSERT_RTNL() WARN_ONCE(!rtnl_is_locked(), "RTNL: assertion failed\n")

extern void rtnl_lock(void);
extern void rtnl_unlock(void);
extern int rtnl_trylock(void);
extern int rtnl_is_locked(void);
extern int printk(const char *fmt, ...);
extern void flush_workqueue(void *wq);
extern void msleep(unsigned int msecs);
extern int restart_syscall(void);

static void *wq;

int dev_change(int bad)
{
	rtnl_lock();
	if (bad)
		return -22;
	flush_workqueue(wq);
	rtnl_unlock();
	return 0;
}

int dev_try(void)
{
	if (!rtnl_trylock())
		return restart_syscall();
	msleep(1);
	rtnl_unlock();
	return 0;
}

void dev_release(void)
{
	rtnl_unlock();
}

void dev_assert(void)
{
	ASSERT_RTNL();
	msleep(2);
}

/*
 * check-name: the rtnl lock profile: sites, trylock, imbalances, chains
 * check-analyze: --lock-profile rtnl
 * check-analyze-warning: profiles: lock rtnl, kernel 6.x (no kernel tree found
 * check-command: sites
 * check-output-start
 * rtnl.c:24: warning: rtnl_lock() in 'dev_change'
 * rtnl.c:28: warning: rtnl_unlock() in 'dev_change'
 * rtnl.c:34: warning: rtnl_trylock() in 'dev_try'
 * rtnl.c:37: warning: rtnl_unlock() in 'dev_try'
 * rtnl.c:43: warning: rtnl_unlock() in 'dev_release'
 * check-output-end
 * check-command: imbalance
 * check-output-start
 * rtnl.c:26: warning: return with rtnl held in 'dev_change' (return-held)
 * rtnl.c:43: warning: rtnl_unlock() without rtnl held in 'dev_release' (unlock-unheld)
 * check-output-end
 * check-command: chains
 * check-output-start
 * rtnl.c:27: warning: 'dev_change' may wait for another task with rtnl held (wait):
 *   dev_change  rtnl.c:27
 *     flush_workqueue
 * rtnl.c:36: warning: 'dev_try' may sleep with rtnl held (sleep):
 *   dev_try  rtnl.c:36
 *     msleep
 * rtnl.c:49: warning: 'dev_assert' may sleep with rtnl held (sleep):
 *   dev_assert  rtnl.c:49
 *     msleep
 * check-output-end
 */
