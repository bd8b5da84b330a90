#ifndef _LINUX_REISER_FS_H
#define _LINUX_REISER_FS_H
#include <linux/smp_lock.h>
/* 2.6.27: reiserfs' lock is the BKL */
#define reiserfs_write_lock( sb ) lock_kernel()
#define reiserfs_write_unlock( sb ) unlock_kernel()
struct super_block { int s_flags; };
#endif
