/*
 * A sleep primitive ends the chain, whatever its body reaches: schedule()
 * here calls __schedule(), which calls the scheduler class through a
 * pointer, whose implementation takes a mutex, and msleep() calls
 * schedule() by name.  The chain is bkl_user -> msleep, not a chain on
 * into schedule, pick_next and mutex_lock.  A sleep primitive that calls
 * no primitive at all (ssleep here) is the end as it always was.
 */
#define __acquires(x) __attribute__((context(x, 0, 1)))
#define __releases(x) __attribute__((context(x, 1, 0)))
extern void lock_kernel(void) __acquires(kernel_lock);
extern void unlock_kernel(void) __releases(kernel_lock);
extern void mutex_lock(void *m);

struct sched_class {
	void (*pick_next)(void);
};

static int rq_lock;

static void fair_pick_next(void)
{
	mutex_lock(&rq_lock);
}

static const struct sched_class fair_class = {
	.pick_next = fair_pick_next,
};

static const struct sched_class *cur_class = &fair_class;

static void __schedule(void)
{
	cur_class->pick_next();
}

void schedule(void)
{
	__schedule();
}

void msleep(unsigned int msecs)
{
	while (msecs--)
		schedule();
}

void ssleep(unsigned int secs)
{
	secs++;
}

void bkl_user(void)
{
	lock_kernel();
	msleep(10);
	ssleep(1);
	unlock_kernel();
}

/*
 * check-name: a sleep primitive ends the chain, whatever its body calls
 * check-command: chains
 * check-output-start
 * sleep-sink.c:56: warning: 'bkl_user' may sleep with the BKL held (sleep):
 *   bkl_user  sleep-sink.c:56
 *     msleep
 * sleep-sink.c:57: warning: 'bkl_user' may sleep with the BKL held (sleep):
 *   bkl_user  sleep-sink.c:57
 *     ssleep
 * check-output-end
 */
