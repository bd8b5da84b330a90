// SPDX-License-Identifier: GPL-2.0
/*
 * The waits of this series as its smp_lock.h spells them today:
 * bkl_drop_for_wait() and bkl_drop_quietly() are macros around
 * __bkl_drop_for_wait() and __bkl_drop_quietly(), each with a once-flag;
 * bkl_retake() takes the BKL back.  What runs in between runs without the
 * BKL (patches/0004-0006, 0013, 0014: flush_workqueue(), request_module(),
 * a tty open waiting for carrier): a caller holding it gets no chain
 * through them.  The profile named only the first spelling, __bkl_drop(),
 * and every chain through these waits was a false one.
 */
#define __acquires(x) __attribute__((context(x, 0, 1)))
#define __releases(x) __attribute__((context(x, 1, 0)))
extern void lock_kernel(void) __acquires(kernel_lock);
extern void unlock_kernel(void) __releases(kernel_lock);
extern int kernel_locked(void);
struct bkl_drop_once { int done; };
extern int __bkl_drop_for_wait(const char *what, struct bkl_drop_once *once);
extern int __bkl_drop_quietly(const char *what, struct bkl_drop_once *once);
extern void bkl_retake(int depth);
#define bkl_drop_for_wait(what)						\
({									\
	static struct bkl_drop_once __bkl_once;				\
	kernel_locked() ? __bkl_drop_for_wait(what, &__bkl_once) : -1;	\
})
#define bkl_drop_quietly()						\
({									\
	static struct bkl_drop_once __bkl_once;				\
	kernel_locked() ? __bkl_drop_quietly(__func__, &__bkl_once) : -1; \
})

struct completion;
extern void wait_for_completion(struct completion *c);

static void flush_like(struct completion *c)
{
	int bkl = bkl_drop_for_wait("flush_like");

	wait_for_completion(c);
	bkl_retake(bkl);
}

static void load_like(struct completion *c)
{
	int bkl = bkl_drop_quietly();

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
	flush_like(c);
	load_like(c);
	rude_wait(c);
	unlock_kernel();
	return 0;
}

/*
 * check-name: the series' __bkl_drop_for_wait()/__bkl_drop_quietly() drop the BKL for a wait
 * check-command: chains
 * check-output-start
 * drop-for-wait.c:61: warning: 'caller' may wait for another task with the BKL held (wait):
 *   caller  drop-for-wait.c:61
 *     rude_wait  drop-for-wait.c:53
 *       wait_for_completion
 * check-output-end
 * check-command: imbalance
 * check-output-start
 * check-output-end
 */
