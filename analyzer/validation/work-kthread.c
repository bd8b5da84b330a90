/*
 * kthread_stop() waits for the thread to return: a thread started with
 * kthread_run() (6.1's macro around kthread_create_on_node) whose
 * function takes the BKL, stored in a struct member directly or through
 * a local, stopped with the BKL held, is a deadlock; a thread that does
 * not take it is a wait.
 */
#define __acquires(x) __attribute__((context(x, 0, 1)))
#define __releases(x) __attribute__((context(x, 1, 0)))
extern void lock_kernel(void) __acquires(kernel_lock);
extern void unlock_kernel(void) __releases(kernel_lock);

struct task_struct;
extern struct task_struct *kthread_create_on_node(int (*threadfn)(void *data), void *data,
						  int node, const char namefmt[], ...);
#define kthread_create(threadfn, data, namefmt, arg...) \
	kthread_create_on_node(threadfn, data, -1, namefmt, ##arg)
extern int wake_up_process(struct task_struct *p);
#define kthread_run(threadfn, data, namefmt, ...)			   \
({									   \
	struct task_struct *__k						   \
		= kthread_create(threadfn, data, namefmt, ## __VA_ARGS__); \
	if (__k)							   \
		wake_up_process(__k);					   \
	__k;								   \
})
extern int kthread_stop(struct task_struct *k);
extern int kthread_should_stop(void);

struct card {
	struct task_struct *poller;
	struct task_struct *idler;
	int state;
};

static int card_poll_thread(void *data)
{
	struct card *c = data;

	while (!kthread_should_stop()) {
		lock_kernel();
		c->state++;
		unlock_kernel();
	}
	return 0;
}

static int card_idle_thread(void *data)
{
	while (!kthread_should_stop())
		;
	return 0;
}

int card_start(struct card *c)
{
	struct task_struct *t;

	c->poller = kthread_run(card_poll_thread, c, "card-poll");
	t = kthread_run(card_idle_thread, c, "card-idle");
	c->idler = t;
	return 0;
}

void card_close(struct card *c)
{
	lock_kernel();
	kthread_stop(c->idler);
	kthread_stop(c->poller);
	unlock_kernel();
}

/*
 * check-name: kthread_stop of a thread whose function takes the BKL
 * check-command: chains
 * check-output-start
 * work-kthread.c:68: warning: 'card_close' may wait for another task with the BKL held (wait):
 *   card_close  work-kthread.c:68
 *     kthread_stop
 * work-kthread.c:69: warning: 'card_close' may wait, with the BKL held, for work that takes it (deadlock):
 *   card_close  work-kthread.c:69
 *     kthread_stop  work-kthread.c:59  => its thread, started here
 *       card_poll_thread  work-kthread.c:41
 *         lock_kernel
 * check-output-end
 */
