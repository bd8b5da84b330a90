/*
 * A 4.19 tree (trees/stub-4.19): no kernel profile is for 4.19, so the
 * nearest (6.x) is used, with a warning that names what is not verified.
 * The gfp bit is still the tree's: ___GFP_DIRECT_RECLAIM is 0x400000u in
 * 4.19, not 6.1's 0x400, and GFP_KERNEL sleeps.
 */
#include <linux/gfp.h>

extern void lock_kernel(void);
extern void unlock_kernel(void);

int alloc_under_bkl(void)
{
	void *a, *b;

	lock_kernel();
	a = kmalloc(16, GFP_ATOMIC);
	b = kmalloc(32, GFP_KERNEL);
	unlock_kernel();
	return !a + !b;
}

/*
 * check-name: an unknown release: the nearest profile, a warning, the tree's gfp bit
 * check-tree: stub-4.19
 * check-analyze: -Iinclude
 * check-analyze-warning: warning: Linux 4.19.0 has no kernel profile: using 6.x, the nearest; its sleep, wait and registration rules are not verified for 4.19.0
 * check-analyze-warning: profiles: lock bkl, kernel 6.x (Linux 4.19.0 at
 * check-analyze-warning: gfp bit __GFP_DIRECT_RECLAIM = 0x400000, include/linux/gfp.h)
 * check-command: chains
 * check-output-start
 * unknown-release.c:18: warning: 'alloc_under_bkl' may sleep with the BKL held (sleep):
 *   alloc_under_bkl  unknown-release.c:18
 *     kmalloc
 * check-output-end
 */
