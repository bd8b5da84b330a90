#ifndef _LINUX_WORKQUEUE_H
#define _LINUX_WORKQUEUE_H
extern void flush_scheduled_work(void);
extern int request_module(const char *name, ...);
struct semaphore { int count; };
extern void down(struct semaphore *sem);
extern void up(struct semaphore *sem);
#endif
