// SPDX-License-Identifier: GPL-2.0
/*
 * A negative control for bkl test: a misc device registered before the
 * state its open() reads is set up.  That is the race Alan Cox warned
 * about: once misc_register() returns, the node is there and open() can
 * run, while init is still "initializing" (here a 200 ms sleep stands for
 * the rest of a real probe).  Under the 2.6.26 BKL an init that held the
 * lock kept open() out; without it, an early open() finds no state, and
 * this driver says so with a WARN, which bkl test must report as a
 * failure.  bkl_race_fixed.c builds the same driver initialized first.
 */
#include <linux/delay.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/slab.h>

#ifndef BKL_RACE_NAME
#define BKL_RACE_NAME "bkl_race"
#endif

struct bkl_race_state {
	atomic_t opens;
};

static struct bkl_race_state *bkl_race_state;

static int bkl_race_open(struct inode *inode, struct file *file)
{
	struct bkl_race_state *s = READ_ONCE(bkl_race_state);

	if (WARN_ONCE(!s, "%s: open() before the device was initialized\n", BKL_RACE_NAME))
		return -ENODEV;
	atomic_inc(&s->opens);
	return 0;
}

static const struct file_operations bkl_race_fops = {
	.owner = THIS_MODULE,
	.open = bkl_race_open,
	.llseek = noop_llseek,
};

static struct miscdevice bkl_race_dev = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = BKL_RACE_NAME,
	.fops = &bkl_race_fops,
};

static int __init bkl_race_init(void)
{
	struct bkl_race_state *s = kzalloc(sizeof(*s), GFP_KERNEL);
	int ret;

	if (!s)
		return -ENOMEM;
#ifdef BKL_RACE_FIXED
	WRITE_ONCE(bkl_race_state, s);
	ret = misc_register(&bkl_race_dev);
#else
	ret = misc_register(&bkl_race_dev);
	msleep(200);
	WRITE_ONCE(bkl_race_state, s);
#endif
	if (ret) {
		WRITE_ONCE(bkl_race_state, NULL);
		kfree(s);
	}
	return ret;
}

static void __exit bkl_race_exit(void)
{
	misc_deregister(&bkl_race_dev);
	kfree(bkl_race_state);
}

module_init(bkl_race_init);
module_exit(bkl_race_exit);
MODULE_DESCRIPTION("bkl test negative control: registered before initialized");
MODULE_LICENSE("GPL");
