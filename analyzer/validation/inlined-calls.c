// SPDX-License-Identifier: GPL-2.0
/*
 * Inlined calls.  sparse inlines a static inline into its caller, the
 * constants it passes folded: fsleep(5) keeps only the udelay() branch,
 * fsleep(100) the usleep_range() one.  Those calls are the caller's,
 * made in the inline: a chain through them names the inline as a step
 * (edge "inlined"), at the line of its body that sleeps.  A rule naming
 * an inline (the 6.x profile's `sleep fsleep`) applies to the branches
 * its inlined body keeps, not to every call of it: fsleep(5) makes no
 * chain, fsleep(usecs) may take either sleeping branch.  Inlined in an
 * out-of-line wrapper, the body's comparisons are tests of the wrapper's
 * parameter, which its callers' constants narrow (guards.c).
 */
#define __acquires(x) __attribute__((context(x, 0, 1)))
#define __releases(x) __attribute__((context(x, 1, 0)))
extern void lock_kernel(void) __acquires(kernel_lock);
extern void unlock_kernel(void) __releases(kernel_lock);
extern void udelay(unsigned long usecs);
extern void usleep_range(unsigned long min, unsigned long max);
extern void msleep(unsigned int msecs);

/* as 6.1's fsleep() in include/linux/delay.h, which the profile names */
static inline void fsleep(unsigned long usecs)
{
	if (usecs <= 10)
		udelay(usecs);
	else if (usecs <= 20000)
		usleep_range(usecs, 2 * usecs);
	else
		msleep((usecs + 999) / 1000);
}

/* named by no rule: in milliseconds, a strict comparison */
static inline void dev_mdelay(unsigned int msecs)
{
	if (msecs < 2)
		udelay(msecs * 1000);
	else
		msleep(msecs);
}

/* sleeps whatever its caller passes */
static inline void dev_settle(void)
{
	msleep(20);
}

/* an inline calling another: both are steps */
static inline void dev_idle(void)
{
	dev_mdelay(30);
}

/* takes the lock itself, and sleeps with it */
static inline void dev_reset_locked(void)
{
	lock_kernel();
	msleep(1);
	unlock_kernel();
}

void dev_short(void)
{
	lock_kernel();
	fsleep(5);				/* udelay: no chain */
	dev_mdelay(1);				/* no chain */
	unlock_kernel();
}

void dev_long(void)
{
	lock_kernel();
	fsleep(100);				/* usleep_range */
	dev_mdelay(50);				/* msleep */
	dev_settle();
	dev_idle();
	unlock_kernel();
}

void dev_any(unsigned long usecs)
{
	lock_kernel();
	fsleep(usecs);				/* may: usleep_range or msleep */
	unlock_kernel();
}

void dev_reset(void)
{
	dev_reset_locked();
}

/* an out-of-line wrapper: its caller's constant reaches the inlined body */
static void dev_wait(unsigned long usecs)
{
	fsleep(usecs);
}

void dev_poll(void)
{
	lock_kernel();
	dev_wait(5);				/* no chain */
	dev_wait(30000);			/* msleep */
	unlock_kernel();
}

/*
 * check-name: inlined calls: the inline is a step, its rule applies to its kept branches
 * check-command: imbalance
 * check-output-start
 * check-output-end
 * check-command: chains
 * check-output-start
 * inlined-calls.c:73: warning: 'dev_long' may sleep with the BKL held (sleep):
 *   dev_long  inlined-calls.c:73
 *     fsleep  inlined-calls.c:28
 *       usleep_range
 * inlined-calls.c:74: warning: 'dev_long' may sleep with the BKL held (sleep):
 *   dev_long  inlined-calls.c:74
 *     dev_mdelay  inlined-calls.c:39
 *       msleep
 * inlined-calls.c:75: warning: 'dev_long' may sleep with the BKL held (sleep):
 *   dev_long  inlined-calls.c:75
 *     dev_settle  inlined-calls.c:45
 *       msleep
 * inlined-calls.c:76: warning: 'dev_long' may sleep with the BKL held (sleep):
 *   dev_long  inlined-calls.c:76
 *     dev_idle  inlined-calls.c:51
 *       dev_mdelay  inlined-calls.c:39
 *         msleep
 * inlined-calls.c:83: warning: 'dev_any' may sleep with the BKL held (sleep):
 *   dev_any  inlined-calls.c:83
 *     fsleep  inlined-calls.c:28
 *       usleep_range
 * inlined-calls.c:89: warning: 'dev_reset' may sleep with the BKL held (sleep):
 *   dev_reset  inlined-calls.c:89
 *     dev_reset_locked  inlined-calls.c:58
 *       msleep
 * inlined-calls.c:102: warning: 'dev_poll' may sleep with the BKL held (sleep):
 *   dev_poll  inlined-calls.c:102
 *     dev_wait  inlined-calls.c:95
 *       fsleep  inlined-calls.c:30
 *         msleep
 * check-output-end
 * check-command: chains --json
 * check-output-start
 * [
 *   {"file": "inlined-calls.c", "line": 73, "function": "dev_long", "class": "sleep", "path": ["dev_long","fsleep","usleep_range"], "by_type": 0, "origin": "held", "built": null, "edges": [{"edge": "inlined", "candidates": 1}, {"edge": "direct", "candidates": 1}]},
 *   {"file": "inlined-calls.c", "line": 74, "function": "dev_long", "class": "sleep", "path": ["dev_long","dev_mdelay","msleep"], "by_type": 0, "origin": "held", "built": null, "edges": [{"edge": "inlined", "candidates": 1}, {"edge": "direct", "candidates": 1}]},
 *   {"file": "inlined-calls.c", "line": 75, "function": "dev_long", "class": "sleep", "path": ["dev_long","dev_settle","msleep"], "by_type": 0, "origin": "held", "built": null, "edges": [{"edge": "inlined", "candidates": 1}, {"edge": "direct", "candidates": 1}]},
 *   {"file": "inlined-calls.c", "line": 76, "function": "dev_long", "class": "sleep", "path": ["dev_long","dev_idle","dev_mdelay","msleep"], "by_type": 0, "origin": "held", "built": null, "edges": [{"edge": "inlined", "candidates": 1}, {"edge": "inlined", "candidates": 1}, {"edge": "direct", "candidates": 1}]},
 *   {"file": "inlined-calls.c", "line": 83, "function": "dev_any", "class": "sleep", "path": ["dev_any","fsleep","usleep_range"], "by_type": 0, "origin": "held", "built": null, "edges": [{"edge": "inlined", "candidates": 1}, {"edge": "direct", "candidates": 1}]},
 *   {"file": "inlined-calls.c", "line": 89, "function": "dev_reset", "class": "sleep", "path": ["dev_reset","dev_reset_locked","msleep"], "by_type": 0, "origin": "held", "built": null, "edges": [{"edge": "inlined", "candidates": 1}, {"edge": "direct", "candidates": 1}]},
 *   {"file": "inlined-calls.c", "line": 102, "function": "dev_poll", "class": "sleep", "path": ["dev_poll","dev_wait","fsleep","msleep"], "by_type": 0, "origin": "held", "built": null, "edges": [{"edge": "direct", "candidates": 1}, {"edge": "inlined", "candidates": 1}, {"edge": "direct", "candidates": 1}]}
 * ]
 * check-output-end
 */
