/*
 * Waits resolved to their work: flush_work() of a work item whose
 * handler takes the BKL, with the BKL held, is a deadlock (the handler
 * waits for the lock, the lock's holder for the handler); the same wait
 * for a handler that does not take it stays a wait.  The work is found
 * by the struct and member INIT_WORK set up (6.1's macro: a store into
 * work_struct.func), or by the variable DECLARE_WORK initialized; a
 * workqueue's flush waits for every work queued on it (queue_work on
 * the same struct member, schedule_work on system_wq; 6.1's
 * flush_workqueue() macro names it through a local).
 */
#define __acquires(x) __attribute__((context(x, 0, 1)))
#define __releases(x) __attribute__((context(x, 1, 0)))
extern void lock_kernel(void) __acquires(kernel_lock);
extern void unlock_kernel(void) __releases(kernel_lock);

struct list_head { struct list_head *next, *prev; };
struct work_struct;
typedef void (*work_func_t)(struct work_struct *work);
struct work_struct {
	long data;
	struct list_head entry;
	work_func_t func;
};
struct workqueue_struct;
extern struct workqueue_struct *system_wq;
#define INIT_WORK(_work, _func)				\
	do {						\
		(_work)->data = 0;			\
		(_work)->func = (_func);		\
	} while (0)
#define DECLARE_WORK(n, f) struct work_struct n = { .data = 0, .func = (f) }
extern int flush_work(struct work_struct *work);
extern int queue_work_on(int cpu, struct workqueue_struct *wq, struct work_struct *work);
static inline int queue_work(struct workqueue_struct *wq, struct work_struct *work)
{
	return queue_work_on(-1, wq, work);
}
static inline int schedule_work(struct work_struct *work)
{
	return queue_work(system_wq, work);
}
extern void __flush_workqueue(struct workqueue_struct *wq);
#define flush_scheduled_work() __flush_workqueue(system_wq)
#define flush_workqueue(wq) ({ struct workqueue_struct *_wq = (wq); __flush_workqueue(_wq); })
extern void destroy_workqueue(struct workqueue_struct *wq);

struct port {
	int open;
	struct work_struct hangup;
	struct work_struct tx;
	struct workqueue_struct *wq;
};

static void port_hangup(struct work_struct *w)
{
	lock_kernel();
	unlock_kernel();
}

static void port_tx(struct work_struct *w)
{
}

static void port_event(struct work_struct *w)
{
	lock_kernel();
	unlock_kernel();
}

static DECLARE_WORK(event_work, port_event);

void port_init(struct port *p)
{
	INIT_WORK(&p->hangup, port_hangup);
	INIT_WORK(&p->tx, port_tx);
	queue_work(p->wq, &p->hangup);
	schedule_work(&event_work);
}

int port_release(struct port *p)
{
	lock_kernel();
	flush_work(&p->tx);
	flush_work(&p->hangup);
	flush_workqueue(p->wq);
	destroy_workqueue(p->wq);
	flush_scheduled_work();
	unlock_kernel();
	return 0;
}

/*
 * check-name: flush_work and workqueue flushes resolved to their work
 * check-command: chains
 * check-output-start
 * work-flush.c:84: warning: 'port_release' may wait for another task with the BKL held (wait):
 *   port_release  work-flush.c:84
 *     flush_work
 * work-flush.c:85: warning: 'port_release' may wait, with the BKL held, for work that takes it (deadlock):
 *   port_release  work-flush.c:85
 *     flush_work  work-flush.c:75  => its work, set up here
 *       port_hangup  work-flush.c:57
 *         lock_kernel
 * work-flush.c:86: warning: 'port_release' may wait, with the BKL held, for work that takes it (deadlock):
 *   port_release  work-flush.c:86
 *     __flush_workqueue  work-flush.c:77  => work queued on it here
 *       port_hangup  work-flush.c:57
 *         lock_kernel
 * work-flush.c:87: warning: 'port_release' may wait, with the BKL held, for work that takes it (deadlock):
 *   port_release  work-flush.c:87
 *     destroy_workqueue  work-flush.c:77  => work queued on it here
 *       port_hangup  work-flush.c:57
 *         lock_kernel
 * work-flush.c:88: warning: 'port_release' may wait, with the BKL held, for work that takes it (deadlock):
 *   port_release  work-flush.c:88
 *     __flush_workqueue  work-flush.c:78  => work queued on it here
 *       port_event  work-flush.c:67
 *         lock_kernel
 * check-output-end
 */
