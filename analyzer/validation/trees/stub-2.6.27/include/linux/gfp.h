/* The part of 2.6.27's include/linux/gfp.h that says which gfp bits sleep. */
#ifndef __LINUX_GFP_H
#define __LINUX_GFP_H
#include <linux/compiler.h>

typedef unsigned __bitwise gfp_t;

/*
 * Action modifiers - doesn't change the zoning
 */
#define __GFP_WAIT	((__force gfp_t)0x10u)	/* Can wait and reschedule? */
#define __GFP_HIGH	((__force gfp_t)0x20u)	/* Should access emergency pools? */
#define __GFP_IO	((__force gfp_t)0x40u)	/* Can start physical IO? */
#define __GFP_FS	((__force gfp_t)0x80u)	/* Can call down to low-level FS? */

#define GFP_ATOMIC	(__GFP_HIGH)
#define GFP_NOIO	(__GFP_WAIT)
#define GFP_NOFS	(__GFP_WAIT | __GFP_IO)
#define GFP_KERNEL	(__GFP_WAIT | __GFP_IO | __GFP_FS)

extern unsigned long __get_free_pages(gfp_t gfp_mask, unsigned int order);
#endif
