/*
 * Allocations sleep only when their gfp flags allow direct reclaim
 * (__GFP_DIRECT_RECLAIM, 0x400 in 6.1): GFP_KERNEL does, GFP_ATOMIC and
 * GFP_NOWAIT do not.  The constant is read after inlining (kmalloc() is
 * inline in 6.1 and passes its flags to __kmalloc()), and through a
 * wrapper's parameter (grab(); gfp-params.c has more of those).
 */
#define __acquires(x) __attribute__((context(x, 0, 1)))
#define __releases(x) __attribute__((context(x, 1, 0)))
extern void lock_kernel(void) __acquires(kernel_lock);
extern void unlock_kernel(void) __releases(kernel_lock);

typedef unsigned int gfp_t;
#define ___GFP_HIGH		0x20u
#define ___GFP_IO		0x40u
#define ___GFP_FS		0x80u
#define ___GFP_DIRECT_RECLAIM	0x400u
#define ___GFP_KSWAPD_RECLAIM	0x800u
#define __GFP_RECLAIM	((gfp_t)(___GFP_DIRECT_RECLAIM|___GFP_KSWAPD_RECLAIM))
#define GFP_ATOMIC	(___GFP_HIGH|___GFP_KSWAPD_RECLAIM)
#define GFP_KERNEL	(__GFP_RECLAIM | ___GFP_IO | ___GFP_FS)
#define GFP_NOWAIT	(___GFP_KSWAPD_RECLAIM)

extern void *__kmalloc(unsigned long size, gfp_t flags);
static inline void *kmalloc(unsigned long size, gfp_t flags)
{
	return __kmalloc(size, flags);
}
extern void *kmem_cache_alloc(void *cache, gfp_t flags);

static void *grab(unsigned long n, gfp_t flags)
{
	return kmalloc(n, flags);
}

int alloc_under_bkl(void *cache)
{
	void *a, *b, *c, *d;

	lock_kernel();
	a = kmalloc(16, GFP_ATOMIC);
	b = kmem_cache_alloc(cache, GFP_NOWAIT);
	c = kmalloc(32, GFP_KERNEL);
	d = grab(64, GFP_KERNEL);
	unlock_kernel();
	return !a + !b + !c + !d;
}

/*
 * check-name: gfp flags: GFP_KERNEL sleeps, GFP_ATOMIC does not
 * check-command: chains
 * check-output-start
 * gfp.c:43: warning: 'alloc_under_bkl' may sleep with the BKL held (sleep):
 *   alloc_under_bkl  gfp.c:43
 *     kmalloc
 * gfp.c:44: warning: 'alloc_under_bkl' may sleep with the BKL held (sleep):
 *   alloc_under_bkl  gfp.c:44
 *     grab  gfp.c:33
 *       kmalloc  gfp.c:27
 *         __kmalloc
 * check-output-end
 */
