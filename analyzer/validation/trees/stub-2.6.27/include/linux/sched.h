#ifndef _LINUX_SCHED_H
#define _LINUX_SCHED_H
struct task_struct {
	int lock_depth;		/* BKL lock depth */
};
extern struct task_struct *get_current(void);
#define current get_current()
extern void schedule(void);
extern void msleep(unsigned int msecs);
#endif
