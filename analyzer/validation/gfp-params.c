// SPDX-License-Identifier: GPL-2.0
/*
 * Values through parameters: the gfp flags a caller passes decide
 * whether the allocation its wrappers make can sleep, through any
 * number of wrappers (a() -> b(gfp) -> c(gfp) -> kmalloc(.., gfp)); a
 * wrapper may add bits (gfp | __GFP_ZERO) or take them away (gfp &
 * ~__GFP_DIRECT_RECLAIM).  A constant command reaches a guard in a
 * callee through wrappers too; a member call through a table the code
 * names passes its constants on as a direct call does; a wrapper that
 * calls itself passes them on to itself.  A caller whose flags are not
 * constant says nothing of them: no chain, as for kmalloc itself.
 */
#define __acquires(x) __attribute__((context(x, 0, 1)))
#define __releases(x) __attribute__((context(x, 1, 0)))
extern void lock_kernel(void) __acquires(kernel_lock);
extern void unlock_kernel(void) __releases(kernel_lock);
extern void msleep(unsigned int);

typedef unsigned int gfp_t;
#define ___GFP_HIGH		0x20u
#define ___GFP_IO		0x40u
#define ___GFP_FS		0x80u
#define ___GFP_ZERO		0x100u
#define ___GFP_DIRECT_RECLAIM	0x400u
#define ___GFP_KSWAPD_RECLAIM	0x800u
#define __GFP_ZERO	((gfp_t)___GFP_ZERO)
#define __GFP_DIRECT_RECLAIM	((gfp_t)___GFP_DIRECT_RECLAIM)
#define __GFP_RECLAIM	((gfp_t)(___GFP_DIRECT_RECLAIM|___GFP_KSWAPD_RECLAIM))
#define GFP_ATOMIC	(___GFP_HIGH|___GFP_KSWAPD_RECLAIM)
#define GFP_KERNEL	(__GFP_RECLAIM | ___GFP_IO | ___GFP_FS)
#define GFP_NOWAIT	(___GFP_KSWAPD_RECLAIM)

extern void *__kmalloc(unsigned long size, gfp_t flags);
static inline void *kmalloc(unsigned long size, gfp_t flags)
{
	return __kmalloc(size, flags);
}

static void *get_buf(unsigned long n, gfp_t gfp)
{
	return kmalloc(n, gfp);
}

static void *get_buf2(unsigned long n, gfp_t gfp)
{
	return get_buf(n * 2, gfp);
}

static void *get_buf3(gfp_t gfp, unsigned long n)
{
	return get_buf2(n + 1, gfp);
}

static void *get_zeroed(unsigned long n, gfp_t gfp)
{
	return kmalloc(n, gfp | __GFP_ZERO);
}

static void *get_noreclaim(unsigned long n, gfp_t gfp)
{
	return get_buf(n, gfp & ~__GFP_DIRECT_RECLAIM);
}

int one_level(void)
{
	void *a, *b;

	lock_kernel();
	a = get_buf(32, GFP_KERNEL);		/* sleeps */
	b = get_buf(32, GFP_ATOMIC);		/* no chain */
	unlock_kernel();
	return !a + !b;
}

int more_levels(void)
{
	void *a, *b, *c;

	lock_kernel();
	a = get_buf2(8, GFP_KERNEL);		/* two levels: sleeps */
	b = get_buf3(GFP_KERNEL, 8);		/* three levels: sleeps */
	c = get_buf3(GFP_NOWAIT, 8);		/* no chain */
	unlock_kernel();
	return !a + !b + !c;
}

int or_and(void)
{
	void *a, *b, *c;

	lock_kernel();
	a = get_zeroed(8, GFP_KERNEL);		/* | __GFP_ZERO: sleeps */
	b = get_zeroed(8, GFP_ATOMIC);		/* no chain */
	c = get_noreclaim(8, GFP_KERNEL);	/* reclaim masked off: no chain */
	unlock_kernel();
	return !a + !b + !c;
}

int unknown_flags(gfp_t gfp)
{
	void *a;

	lock_kernel();
	a = get_buf(8, gfp);			/* not known: no chain */
	unlock_kernel();
	return !a;
}

#define CMD_RESET	3
#define CMD_STAT	4

static int do_cmd(int fd, unsigned int cmd)
{
	if (cmd == CMD_RESET)
		msleep(10);
	return fd;
}

static int cmd_wrap(unsigned int cmd, int fd)
{
	return do_cmd(fd, cmd);
}

static int cmd_wrap2(int fd, unsigned int cmd)
{
	return cmd_wrap(cmd, fd) + 1;
}

int commands(int fd)
{
	int r;

	lock_kernel();
	r = cmd_wrap2(fd, CMD_STAT);		/* no chain */
	r += cmd_wrap2(fd, CMD_RESET);		/* sleeps */
	unlock_kernel();
	return r;
}

struct buf_ops {
	void *(*alloc)(unsigned long n, gfp_t gfp);
};

static const struct buf_ops my_ops = {
	.alloc = get_buf,
};

int through_table(void)
{
	void *a, *b;

	lock_kernel();
	a = my_ops.alloc(16, GFP_ATOMIC);	/* no chain */
	b = my_ops.alloc(16, GFP_KERNEL);	/* sleeps */
	unlock_kernel();
	return !a + !b;
}

static void *retry_alloc(int tries, gfp_t gfp)
{
	void *p = get_buf(8, gfp);

	if (!p && tries)
		return retry_alloc(tries - 1, gfp);
	return p;
}

int recursive(void)
{
	void *a, *b;

	lock_kernel();
	a = retry_alloc(3, GFP_NOWAIT);		/* no chain */
	b = retry_alloc(3, GFP_KERNEL);		/* sleeps */
	unlock_kernel();
	return !a + !b;
}

/*
 * check-name: gfp flags and commands passed through wrappers' parameters
 * check-command: chains
 * check-output-start
 * gfp-params.c:69: warning: 'one_level' may sleep with the BKL held (sleep):
 *   one_level  gfp-params.c:69
 *     get_buf  gfp-params.c:41
 *       kmalloc  gfp-params.c:36
 *         __kmalloc
 * gfp-params.c:80: warning: 'more_levels' may sleep with the BKL held (sleep):
 *   more_levels  gfp-params.c:80
 *     get_buf2  gfp-params.c:46
 *       get_buf  gfp-params.c:41
 *         kmalloc  gfp-params.c:36
 *           __kmalloc
 * gfp-params.c:81: warning: 'more_levels' may sleep with the BKL held (sleep):
 *   more_levels  gfp-params.c:81
 *     get_buf3  gfp-params.c:51
 *       get_buf2  gfp-params.c:46
 *         get_buf  gfp-params.c:41
 *           kmalloc  gfp-params.c:36
 *             __kmalloc
 * gfp-params.c:92: warning: 'or_and' may sleep with the BKL held (sleep):
 *   or_and  gfp-params.c:92
 *     get_zeroed  gfp-params.c:56
 *       kmalloc
 * gfp-params.c:135: warning: 'commands' may sleep with the BKL held (sleep):
 *   commands  gfp-params.c:135
 *     cmd_wrap2  gfp-params.c:126
 *       cmd_wrap  gfp-params.c:121
 *         do_cmd  gfp-params.c:115
 *           msleep
 * gfp-params.c:154: warning: 'through_table' may sleep with the BKL held (sleep):
 *   through_table  gfp-params.c:154
 *     get_buf  gfp-params.c:41
 *       kmalloc  gfp-params.c:36
 *         __kmalloc
 * gfp-params.c:174: warning: 'recursive' may sleep with the BKL held (sleep):
 *   recursive  gfp-params.c:174
 *     retry_alloc  gfp-params.c:161
 *       get_buf  gfp-params.c:41
 *         kmalloc  gfp-params.c:36
 *           __kmalloc
 * check-output-end
 */
