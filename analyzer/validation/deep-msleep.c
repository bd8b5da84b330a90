/*
 * A sleep four calls down, through msleep(), whose body is analyzed too:
 * the chain ends at msleep all the same, the first primitive on the way.
 * Going on into its body would name calls the chain cannot know run:
 * this schedule_timeout() calls schedule() only when its timeout is not
 * MAX_SCHEDULE_TIMEOUT, as the kernel's first schedule() call runs only
 * when it is.  The chain is the shortest: the longer way through level3
 * is not the one printed.
 */
#define __acquires(x) __attribute__((context(x, 0, 1)))
#define __releases(x) __attribute__((context(x, 1, 0)))
extern void lock_kernel(void) __acquires(kernel_lock);
extern void unlock_kernel(void) __releases(kernel_lock);
extern void __schedule(int preempt);
extern void set_current_state(int state);

void schedule(void)
{
	__schedule(0);
}

long schedule_timeout(long timeout)
{
	if (timeout == 0x7fffffff)
		return timeout;
	set_current_state(2);
	schedule();
	return 0;
}

void msleep(unsigned int msecs)
{
	long timeout = msecs / 4 + 1;

	while (timeout)
		timeout = schedule_timeout(timeout);
}

static void level3(int n)
{
	msleep(n);
}

static void level2(int n)
{
	if (n > 10)
		level3(n);
	msleep(n);
}

static void level1(int n)
{
	level2(n + 1);
}

int deep_entry(int n)
{
	lock_kernel();
	level1(n);
	unlock_kernel();
	return 0;
}

/*
 * check-name: the deep msleep chain ends at msleep, not in its body
 * check-command: chains
 * check-output-start
 * deep-msleep.c:59: warning: 'deep_entry' may sleep with the BKL held (sleep):
 *   deep_entry  deep-msleep.c:59
 *     level1  deep-msleep.c:53
 *       level2  deep-msleep.c:48
 *         msleep
 * check-output-end
 * check-command: chains --json
 * check-output-start
 * [
 *   {"file": "deep-msleep.c", "line": 59, "function": "deep_entry", "class": "sleep", "path": ["deep_entry","level1","level2","msleep"], "by_type": 0, "origin": "held", "built": null, "edges": [{"edge": "direct", "candidates": 1}, {"edge": "direct", "candidates": 1}, {"edge": "direct", "candidates": 1}]}
 * ]
 * check-output-end
 */
