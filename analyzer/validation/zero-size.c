/*
 * An allocation of nothing does not sleep: kmalloc_slab() returns
 * ZERO_SIZE_PTR for a size of 0 before any allocation, whatever the gfp
 * flags.  The rules name the size arguments (kmalloc's first,
 * kvmalloc_array's count and size): a constant 0 in one of them ends no
 * chain, and neither does an allocation inside the inlined body of an
 * inline called with 0 (tun's ptr_ring_init(&tx_ring, 0, GFP_KERNEL):
 * kvmalloc_array(0, ...) -> kvmalloc -> kvmalloc_node).  The same calls
 * with a size do sleep.
 */
#define __acquires(x) __attribute__((context(x, 0, 1)))
#define __releases(x) __attribute__((context(x, 1, 0)))
extern void lock_kernel(void) __acquires(kernel_lock);
extern void unlock_kernel(void) __releases(kernel_lock);

typedef unsigned int gfp_t;
typedef unsigned long size_t;
#define ___GFP_IO		0x40u
#define ___GFP_FS		0x80u
#define ___GFP_DIRECT_RECLAIM	0x400u
#define ___GFP_KSWAPD_RECLAIM	0x800u
#define GFP_KERNEL	(___GFP_DIRECT_RECLAIM | ___GFP_KSWAPD_RECLAIM | ___GFP_IO | ___GFP_FS)

extern void *__kmalloc(size_t size, gfp_t flags);
extern void *kvmalloc_node(size_t size, gfp_t flags, int node);
static inline void *kvmalloc(size_t size, gfp_t flags)
{
	return kvmalloc_node(size, flags, -1);
}
static inline void *kvmalloc_array(size_t n, size_t size, gfp_t flags)
{
	size_t bytes;

	if (__builtin_mul_overflow(n, size, &bytes))
		return 0;
	return kvmalloc(bytes, flags);
}
static inline void *ring_alloc(int size, gfp_t gfp)
{
	return kvmalloc_array(size, sizeof(void *), gfp);
}

int alloc_nothing(void)
{
	void *a, *b;

	lock_kernel();
	a = __kmalloc(0, GFP_KERNEL);
	b = ring_alloc(0, GFP_KERNEL);
	unlock_kernel();
	return !a + !b;
}

int alloc_something(int n)
{
	void *a, *b;

	lock_kernel();
	a = __kmalloc(8, GFP_KERNEL);
	b = ring_alloc(n, GFP_KERNEL);
	unlock_kernel();
	return !a + !b;
}

/*
 * check-name: an allocation of 0 bytes does not sleep
 * check-command: chains
 * check-output-start
 * zero-size.c:59: warning: 'alloc_something' may sleep with the BKL held (sleep):
 *   alloc_something  zero-size.c:59
 *     __kmalloc
 * zero-size.c:60: warning: 'alloc_something' may sleep with the BKL held (sleep):
 *   alloc_something  zero-size.c:60
 *     kvmalloc
 * check-output-end
 */
