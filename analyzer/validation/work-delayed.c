/*
 * cancel_delayed_work_sync() of a delayed work that INIT_DELAYED_WORK
 * set up on a struct member (its work_struct is its first member: the
 * delayed_work and its work are one object), called from a function the
 * BKL holder calls; the handler takes the BKL through a helper.  Another
 * struct's member of the same name is another object.
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
struct timer_list { long expires; };
struct delayed_work {
	struct work_struct work;
	struct timer_list timer;
};
#define INIT_WORK(_work, _func)				\
	do {						\
		(_work)->data = 0;			\
		(_work)->func = (_func);		\
	} while (0)
#define INIT_DELAYED_WORK(_work, _func)			\
	do {						\
		INIT_WORK(&(_work)->work, (_func));	\
		(_work)->timer.expires = 0;		\
	} while (0)
extern int cancel_delayed_work_sync(struct delayed_work *dwork);

struct modem {
	int flags;
	struct delayed_work poll;
};

struct other {
	struct delayed_work poll;
};

static void modem_locked_update(struct modem *m)
{
	lock_kernel();
	m->flags = 0;
	unlock_kernel();
}

static void modem_poll(struct work_struct *w)
{
	struct delayed_work *dw = (struct delayed_work *)w;
	struct modem *m = (struct modem *)((char *)dw - 8);

	modem_locked_update(m);
}

static void other_poll(struct work_struct *w)
{
}

void modem_setup(struct modem *m, struct other *o)
{
	INIT_DELAYED_WORK(&m->poll, modem_poll);
	INIT_DELAYED_WORK(&o->poll, other_poll);
}

static void modem_shutdown(struct modem *m)
{
	cancel_delayed_work_sync(&m->poll);
}

static void other_shutdown(struct other *o)
{
	cancel_delayed_work_sync(&o->poll);
}

int modem_ioctl(struct modem *m, struct other *o)
{
	lock_kernel();
	modem_shutdown(m);
	other_shutdown(o);
	unlock_kernel();
	return 0;
}

/*
 * check-name: cancel_delayed_work_sync of INIT_DELAYED_WORK's struct member
 * check-command: chains
 * check-output-start
 * work-delayed.c:85: warning: 'modem_ioctl' may wait, with the BKL held, for work that takes it (deadlock):
 *   modem_ioctl  work-delayed.c:85
 *     modem_shutdown  work-delayed.c:74
 *       cancel_delayed_work_sync  work-delayed.c:68  => its work, set up here
 *         modem_poll  work-delayed.c:59
 *           modem_locked_update  work-delayed.c:49
 *             lock_kernel
 * work-delayed.c:86: warning: 'modem_ioctl' may wait for another task with the BKL held (wait):
 *   modem_ioctl  work-delayed.c:86
 *     other_shutdown  work-delayed.c:79
 *       cancel_delayed_work_sync
 * check-output-end
 */
