/*
 * The rtnl lock profile: cancel_work_sync() with rtnl held of a work
 * whose handler calls rtnl_lock() is netdev's classic deadlock (the
 * handler blocks on rtnl, the rtnl holder waits for the handler); a
 * handler that only tries the lock (rtnl_trylock(), rescheduling itself
 * when it fails) does not block on it: a wait.  Nor is a handler that
 * reaches rtnl_lock() only through a call resolved by the member's type
 * alone (any function stored in that member anywhere) a deadlock.
 */
extern void rtnl_lock(void);
extern void rtnl_unlock(void);
extern int rtnl_trylock(void);

struct list_head { struct list_head *next, *prev; };
struct work_struct;
typedef void (*work_func_t)(struct work_struct *work);
struct work_struct {
	long data;
	struct list_head entry;
	work_func_t func;
};
#define INIT_WORK(_work, _func)				\
	do {						\
		(_work)->data = 0;			\
		(_work)->func = (_func);		\
	} while (0)
extern int cancel_work_sync(struct work_struct *work);

struct net_device;
struct hw_ops {
	void (*reset)(struct net_device *dev);
};
struct priv {
	struct net_device *dev;
	struct work_struct reset_task;
	struct work_struct stats_task;
	struct work_struct hw_task;
	const struct hw_ops *ops;
};
extern struct priv *netdev_priv(const struct net_device *dev);

static void reset_task(struct work_struct *w)
{
	rtnl_lock();
	rtnl_unlock();
}

static void stats_task(struct work_struct *w)
{
	if (!rtnl_trylock())
		return;
	rtnl_unlock();
}

static void other_hw_reset(struct net_device *dev)
{
	rtnl_lock();
	rtnl_unlock();
}

const struct hw_ops other_hw_ops = { .reset = other_hw_reset };

static void hw_task(struct work_struct *w)
{
	struct priv *priv = (struct priv *)((char *)w - 40);

	priv->ops->reset(priv->dev);
}

int drv_probe(struct net_device *dev)
{
	struct priv *priv = netdev_priv(dev);

	INIT_WORK(&priv->reset_task, reset_task);
	INIT_WORK(&priv->stats_task, stats_task);
	INIT_WORK(&priv->hw_task, hw_task);
	return 0;
}

int drv_close(struct net_device *dev)
{
	struct priv *priv = netdev_priv(dev);

	rtnl_lock();
	cancel_work_sync(&priv->stats_task);
	cancel_work_sync(&priv->reset_task);
	cancel_work_sync(&priv->hw_task);
	rtnl_unlock();
	return 0;
}

/*
 * check-name: rtnl: cancel_work_sync of a work whose handler takes rtnl
 * check-analyze: --lock-profile rtnl
 * check-command: chains
 * check-output-start
 * work-rtnl.c:85: warning: 'drv_close' may wait for another task with rtnl held (wait):
 *   drv_close  work-rtnl.c:85
 *     cancel_work_sync
 * work-rtnl.c:86: warning: 'drv_close' may wait, with rtnl held, for work that takes it (deadlock):
 *   drv_close  work-rtnl.c:86
 *     cancel_work_sync  work-rtnl.c:74  => its work, set up here
 *       reset_task  work-rtnl.c:44
 *         rtnl_lock
 * work-rtnl.c:87: warning: 'drv_close' may wait for another task with rtnl held (wait):
 *   drv_close  work-rtnl.c:87
 *     cancel_work_sync
 * check-output-end
 */
