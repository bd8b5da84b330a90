/*
 * ext3_fill_super() of 2.6.3x dropped the BKL its caller used to hold
 * (do_kern_mount), and took it back before returning: once the VFS no
 * longer held it, the unlock released a lock never taken.  Testing
 * kernel_locked() first, or saying __releases, is fine.
 */
#define __acquires(x) __attribute__((context(x, 0, 1)))
#define __releases(x) __attribute__((context(x, 1, 0)))
extern void lock_kernel(void) __acquires(kernel_lock);
extern void unlock_kernel(void) __releases(kernel_lock);
extern int kernel_locked(void);

struct super_block;
extern int ext3_load_journal(struct super_block *sb);
extern int ext3_setup_super(struct super_block *sb);

static int ext3_fill_super(struct super_block *sb, void *data, int silent)
{
	int ret;

	unlock_kernel();
	ret = ext3_load_journal(sb);
	if (ret)
		goto failed;
	ret = ext3_setup_super(sb);
failed:
	lock_kernel();
	return ret;
}

static int careful_fill_super(struct super_block *sb)
{
	int ret;

	if (kernel_locked())
		unlock_kernel();
	ret = ext3_load_journal(sb);
	return ret;
}

static void drop_bkl(void) __releases(kernel_lock)
{
	unlock_kernel();
}

int get_sb(struct super_block *sb)
{
	int ret = ext3_fill_super(sb, 0, 0);

	ret |= careful_fill_super(sb);
	lock_kernel();
	drop_bkl();
	return ret;
}

/*
 * check-name: unlock of a BKL the function never took (ext3 fill_super)
 * check-command: imbalance
 * check-output-start
 * fill_super.c:21: warning: unlock_kernel() without the BKL held in 'ext3_fill_super' (unlock-unheld)
 * check-output-end
 */
