/*
 * Guards beyond a plain constant: kfree_rcu() hands kvfree_call_rcu()
 * `&p->rcu`, which is not 0, so neither its head-less might_sleep(), nor
 * the page allocation behind `!bnode && can_alloc` (can_alloc = !head,
 * inlined), nor the synchronize_rcu() that a `success` flag allows only
 * on the head-less path runs; pcpu_alloc() takes the plain mutex only for
 * __GFP_NOFAIL, a bit current_gfp_context() keeps; a loop that moves a
 * user pointer on under `if (ubuf)` never copies to user space when the
 * caller passes NULL (but one that loads the next pointer may).  Callers that pass other values keep their chains.
 */
#define __acquires(x) __attribute__((context(x, 0, 1)))
#define __releases(x) __attribute__((context(x, 1, 0)))
extern void lock_kernel(void) __acquires(kernel_lock);
extern void unlock_kernel(void) __releases(kernel_lock);
extern void msleep(unsigned int);
extern void wait_for_completion(void *);
extern void *krc_bnode(void);
extern int dbg_queue(void *);
extern unsigned int current_flags(void);
extern void memcpy_out(void *, int);

static void *done;

struct rcu_head { struct rcu_head *next; };
struct ctx { int nr; struct rcu_head rcu; };

static inline int add_ptr_to_bulk(void *ptr, _Bool can_alloc)
{
	void *bnode = krc_bnode();

	if (!bnode && can_alloc)
		msleep(1);			/* the page allocation */
	return dbg_queue(bnode);
}

void kvfree_call(struct rcu_head *head, unsigned long func)
{
	void *ptr;
	int success;

	if (head) {
		ptr = (char *)head - func;
	} else {
		wait_for_completion(done);	/* might_sleep() */
		ptr = (void *)func;
	}
	if (dbg_queue(ptr))
		return;
	success = add_ptr_to_bulk(ptr, !head);
	if (!success) {
		if (!head)
			goto unlock;
		head->next = ptr;
		success = 1;
	}
	dbg_queue(head);
unlock:
	if (!success)
		msleep(4);			/* synchronize_rcu() */
}

static int ctx_release(struct ctx *c)
{
	lock_kernel();
	if (c)
		kvfree_call(&c->rcu, 8);		/* not 0: no chain */
	unlock_kernel();
	return 0;
}

static int ctx_free_headless(struct rcu_head *h)
{
	lock_kernel();
	kvfree_call(h, 0);				/* may be 0: both */
	unlock_kernel();
	return 0;
}

#define GFP_KERNEL	0xcc0u
#define __GFP_NOFAIL	0x8000u

static inline unsigned int gfp_context(unsigned int flags)
{
	unsigned int pflags = current_flags();

	if (pflags & 0x70) {
		if (pflags & 0x10)
			flags &= ~0xc0u;
		else if (pflags & 0x20)
			flags &= ~0x80u;
	}
	return flags;
}

void *pcpu_alloc(unsigned long size, unsigned int gfp)
{
	gfp = gfp_context(gfp);
	if ((gfp & GFP_KERNEL) == GFP_KERNEL) {
		if (gfp & __GFP_NOFAIL)
			msleep(2);			/* mutex_lock() */
		else
			wait_for_completion(done);	/* mutex_lock_killable() */
	}
	return (void *)size;
}

static int pcpu_open(void)
{
	void *p, *q;

	lock_kernel();
	p = pcpu_alloc(8, GFP_KERNEL);			/* waits only */
	q = pcpu_alloc(8, GFP_KERNEL | __GFP_NOFAIL);	/* sleeps too */
	unlock_kernel();
	return p == q;
}

static int recv_msg(int count, void *kbuf, char *ubuf)
{
	while (count > 0) {
		if (ubuf) {
			msleep(3);			/* copy_to_user() */
			ubuf += 4;
		} else {
			memcpy_out(kbuf, 4);
		}
		count -= 4;
	}
	return 0;
}

static int bridge_packet(void *kbuf)
{
	int r;

	lock_kernel();
	r = recv_msg(4, kbuf, 0);			/* NULL: no chain */
	unlock_kernel();
	return r;
}

static int user_read(char *ubuf)
{
	int r;

	lock_kernel();
	r = recv_msg(4, 0, ubuf);			/* sleeps */
	unlock_kernel();
	return r;
}

extern void *next_buf(void);

static int poll_bufs(int n, char *buf)
{
	while (n-- > 0) {
		if (buf)
			msleep(5);			/* a later buf may be set */
		buf = next_buf();
	}
	return 0;
}

static int poll_open(void)
{
	int r;

	lock_kernel();
	r = poll_bufs(4, 0);				/* NULL first, then not: sleeps */
	unlock_kernel();
	return r;
}

extern void arch_hook(void);			/* may be __weak, unlinked */
static void own_hook(void) { }

static int run_hook(void (*fn)(void))
{
	if (!fn) {
		msleep(6);				/* the fallback */
		return 0;
	}
	fn();
	return 1;
}

static int hook_open(void)
{
	int r;

	lock_kernel();
	r = run_hook(own_hook);				/* a static function: no chain */
	r += run_hook(arch_hook);			/* may be NULL: sleeps */
	unlock_kernel();
	return r;
}

/*
 * check-name: non-zero arguments, bit tests and loop copies narrow the callee
 * check-command: chains
 * check-output-start
 * guard-values.c:74: warning: 'ctx_free_headless' may sleep with the BKL held (sleep):
 *   ctx_free_headless  guard-values.c:74
 *     kvfree_call  guard-values.c:49
 *       add_ptr_to_bulk  guard-values.c:32
 *         msleep
 * guard-values.c:74: warning: 'ctx_free_headless' may wait for another task with the BKL held (wait):
 *   ctx_free_headless  guard-values.c:74
 *     kvfree_call  guard-values.c:44
 *       wait_for_completion
 * guard-values.c:112: warning: 'pcpu_open' may wait for another task with the BKL held (wait):
 *   pcpu_open  guard-values.c:112
 *     pcpu_alloc  guard-values.c:102
 *       wait_for_completion
 * guard-values.c:113: warning: 'pcpu_open' may sleep with the BKL held (sleep):
 *   pcpu_open  guard-values.c:113
 *     pcpu_alloc  guard-values.c:100
 *       msleep
 * guard-values.c:147: warning: 'user_read' may sleep with the BKL held (sleep):
 *   user_read  guard-values.c:147
 *     recv_msg  guard-values.c:122
 *       msleep
 * guard-values.c:169: warning: 'poll_open' may sleep with the BKL held (sleep):
 *   poll_open  guard-values.c:169
 *     poll_bufs  guard-values.c:158
 *       msleep
 * guard-values.c:193: warning: 'hook_open' may sleep with the BKL held (sleep):
 *   hook_open  guard-values.c:193
 *     run_hook  guard-values.c:180
 *       msleep
 * check-output-end
 */
