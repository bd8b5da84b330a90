/*
 * A function that takes the BKL on every path is an acquire helper when
 * its callers release after the call (grab()), but a table's caller never
 * does: an ->unlocked_ioctl that takes it and never releases it leaks it
 * on every call: return-held at its return (sparse's one return block,
 * reached in one state).  A table that pairs
 * a taker with a function that releases is balanced across its calls
 * (seq_operations' ->start and ->stop): neither is reported, nor the
 * ->stop's unlock.  __acquires says a taker is meant (locked_ioctl).
 * A caller of the helper holds what it took: its unlock is no
 * unlock-unheld (user).
 */
#define __acquires(x) __attribute__((context(x, 0, 1)))
#define __releases(x) __attribute__((context(x, 1, 0)))
extern void lock_kernel(void) __acquires(kernel_lock);
extern void unlock_kernel(void) __releases(kernel_lock);
struct file;
struct seq_file;
struct file_operations {
	long (*unlocked_ioctl)(struct file *, unsigned int, unsigned long);
	long (*compat_ioctl)(struct file *, unsigned int, unsigned long);
};
struct seq_operations {
	void *(*start)(struct seq_file *m, long long *pos);
	void (*stop)(struct seq_file *m, void *v);
};

static long leaky_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	lock_kernel();
	if (cmd == 1)
		return -22;
	return 0;
}

static long locked_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
	__acquires(kernel_lock)
{
	lock_kernel();
	return 0;
}

static const struct file_operations leaky_fops = {
	.unlocked_ioctl = leaky_ioctl,
	.compat_ioctl = locked_ioctl,
};

static void *pair_start(struct seq_file *m, long long *pos)
{
	lock_kernel();
	return 0;
}

static void pair_stop(struct seq_file *m, void *v)
{
	unlock_kernel();
}

static const struct seq_operations pair_ops = {
	.start = pair_start,
	.stop = pair_stop,
};

static void grab(void)
{
	lock_kernel();
}

int user(void)
{
	grab();
	unlock_kernel();
	return 0;
}

/*
 * check-name: a taker reached through a table leaks, unless the table pairs it
 * check-command: imbalance
 * check-output-start
 * table-leak.c:33: warning: return with the BKL held in 'leaky_ioctl' (return-held; taken on every path, and a table calls it)
 * check-output-end
 * check-command: imbalance --json
 * check-output-start
 * [
 *   {"file": "table-leak.c", "line": 33, "function": "leaky_ioctl", "kind": "return-held", "stored": true}
 * ]
 * check-output-end
 */
