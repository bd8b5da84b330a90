/*
 * The series' waits give the BKL back for the time of the wait
 * (bkl_drop_for_wait() then bkl_retake(), patches/0002): what they call
 * in between runs without it, so a caller holding the BKL gets no chain
 * through them, and they are not imbalanced.  Without the drop, the same
 * wait is a chain.
 */
#define __acquires(x) __attribute__((context(x, 0, 1)))
#define __releases(x) __attribute__((context(x, 1, 0)))
extern void lock_kernel(void) __acquires(kernel_lock);
extern void unlock_kernel(void) __releases(kernel_lock);
extern int kernel_locked(void);
extern int __bkl_drop(void);
extern void bkl_retake(int depth);
#define bkl_drop_for_wait(what)	(kernel_locked() ? __bkl_drop() : -1)

struct completion;
extern void wait_for_completion(struct completion *c);

static void polite_wait(struct completion *c)
{
	int bkl = bkl_drop_for_wait("polite_wait");

	wait_for_completion(c);
	bkl_retake(bkl);
}

static void rude_wait(struct completion *c)
{
	wait_for_completion(c);
}

int caller(struct completion *c)
{
	lock_kernel();
	polite_wait(c);
	rude_wait(c);
	unlock_kernel();
	return 0;
}

/*
 * check-name: the series' __bkl_drop()/bkl_retake() around waits
 * check-command: chains
 * check-output-start
 * drop-retake.c:37: warning: 'caller' may wait for another task with the BKL held (wait):
 *   caller  drop-retake.c:37
 *     rude_wait  drop-retake.c:30
 *       wait_for_completion
 * check-output-end
 * check-command: imbalance
 * check-output-start
 * check-output-end
 */
