# SPDX-License-Identifier: GPL-2.0
#
# A small kernel-like tree for the campaign's tests (t30xx): a char device
# core whose chrdev_open() takes the BKL once the fixture's "core series"
# is applied, a misc layer, and drivers of each kind the campaign meets:
# a multi-return open() (foo), an empty one (empty), one that registers
# before it initializes (race), a composite module with state (bar: two
# files), one whose open() waits for a workqueue (waiter).
#
# make_campaign_fixture DIR: DIR/cache/linux/pristine (the tree),
# DIR/repo/patches (its series: the core patch), DIR/repo/drivers-audit.

fixture_file() {	# path, then the content on stdin
	mkdir -p "$(dirname "$1")" && cat >"$1"
}

make_fixture_tree() {
	t=$1
	fixture_file $t/Makefile <<'EOF'
VERSION = 6
PATCHLEVEL = 1
SUBLEVEL = 99
EXTRAVERSION =
EOF
	fixture_file $t/MAINTAINERS <<'EOF'
List of maintainers
-------------------

Descriptions of section entries
-------------------------------

	F: *Files* and directories wildcard patterns.

Maintainers List
----------------

BAR DRIVER
M:	Bar Keeper <bar@example.org>
S:	Maintained
F:	drivers/char/bar/

CHAR and MISC DRIVERS
M:	Arnd Bergmann <arnd@arndb.de>
M:	Greg Kroah-Hartman <gregkh@linuxfoundation.org>
L:	linux-kernel@vger.kernel.org
S:	Supported
F:	drivers/char/
X:	drivers/char/race.c

FOO DRIVER
M:	Foo Fighter <foo@example.org>
L:	foo-devel@example.org
S:	Maintained
F:	drivers/char/foo*

RACE DRIVER
M:	R Acer <racer@example.org>
S:	Odd Fixes
F:	drivers/char/race.c

FILESYSTEMS (VFS and infrastructure)
M:	Alexander Viro <viro@zeniv.linux.org.uk>
S:	Maintained
F:	fs/*

THE REST
M:	Linus Torvalds <torvalds@linux-foundation.org>
S:	Buried alive in reporters
F:	*
F:	*/
EOF
	fixture_file $t/include/linux/fs.h <<'EOF'
#ifndef _LINUX_FS_H
#define _LINUX_FS_H
#define NULL ((void *)0)
#define ENXIO 6
#define ENOMEM 12
#define EBUSY 16
#define ENODEV 19
#define EINVAL 22
#define O_EXCL 0200
#define GFP_KERNEL 0x400
#define __init
#define module_init(fn) int (*__initcall_##fn)(void) = fn
struct module;
#define THIS_MODULE ((struct module *)0)
struct cdev;
struct inode {
	unsigned int i_rdev;
	struct cdev *i_cdev;
};
struct file;
struct file_operations {
	struct module *owner;
	int (*open)(struct inode *, struct file *);
	int (*release)(struct inode *, struct file *);
	long (*unlocked_ioctl)(struct file *, unsigned int, unsigned long);
};
struct file {
	const struct file_operations *f_op;
	unsigned int f_flags;
	unsigned int f_mode;
	void *private_data;
};
static inline unsigned int iminor(const struct inode *inode)
{
	return inode->i_rdev & 0xff;
}
int register_chrdev(unsigned int major, const char *name,
		    const struct file_operations *fops);
int nonseekable_open(struct inode *inode, struct file *filp);
void *kzalloc(unsigned long size, unsigned int flags);
void flush_scheduled_work(void);
#endif
EOF
	fixture_file $t/include/linux/miscdevice.h <<'EOF'
#ifndef _LINUX_MISCDEVICE_H
#define _LINUX_MISCDEVICE_H
#include <linux/fs.h>
#define MISC_DYNAMIC_MINOR 255
struct miscdevice {
	int minor;
	const char *name;
	const struct file_operations *fops;
};
int misc_register(struct miscdevice *misc);
#endif
EOF
	fixture_file $t/include/linux/mutex.h <<'EOF'
#ifndef _LINUX_MUTEX_H
#define _LINUX_MUTEX_H
struct mutex {
	int owner;
};
#define DEFINE_MUTEX(m) struct mutex m = { 0 }
void mutex_lock(struct mutex *m);
void mutex_unlock(struct mutex *m);
#endif
EOF
	fixture_file $t/fs/Makefile <<'EOF'
obj-y := open.o char_dev.o
EOF
	fixture_file $t/fs/char_dev.c <<'EOF'
// SPDX-License-Identifier: GPL-2.0
#include <linux/fs.h>

const struct file_operations *lookup_fops(struct inode *inode);

static int chrdev_open(struct inode *inode, struct file *filp)
{
	const struct file_operations *fops = lookup_fops(inode);
	int ret = 0;

	filp->f_op = fops;
	if (filp->f_op->open)
		ret = filp->f_op->open(inode, filp);
	return ret;
}

const struct file_operations def_chr_fops = {
	.open = chrdev_open,
};
EOF
	fixture_file $t/drivers/Makefile <<'EOF'
obj-y += char/
EOF
	fixture_file $t/drivers/char/Makefile <<'EOF'
# SPDX-License-Identifier: GPL-2.0
obj-y				+= misc.o
obj-$(CONFIG_FOO)		+= foo.o
obj-$(CONFIG_EMPTY)		+= empty.o
obj-$(CONFIG_RACE)		+= race.o
obj-$(CONFIG_WAITER)		+= waiter.o
obj-$(CONFIG_BAR)		+= bar/
EOF
	fixture_file $t/drivers/char/bar/Makefile <<'EOF'
obj-$(CONFIG_BAR) += bar.o
bar-y := bar-core.o \
	 bar-dev.o
EOF
	fixture_file $t/drivers/char/misc.c <<'EOF'
// SPDX-License-Identifier: GPL-2.0
#include <linux/fs.h>
#include <linux/miscdevice.h>

static struct miscdevice *misc_list[4];
static int misc_count;

static int misc_open(struct inode *inode, struct file *file)
{
	int minor = iminor(inode);
	struct miscdevice *c = misc_list[minor & 3];
	int err = -ENODEV;

	if (!c)
		return err;
	file->f_op = c->fops;
	if (file->f_op->open)
		err = file->f_op->open(inode, file);
	return err;
}

static const struct file_operations misc_fops = {
	.owner = THIS_MODULE,
	.open = misc_open,
};

int misc_register(struct miscdevice *misc)
{
	misc_list[misc_count++ & 3] = misc;
	return 0;
}

static int __init misc_init(void)
{
	return register_chrdev(10, "misc", &misc_fops);
}
module_init(misc_init);
EOF
	fixture_file $t/drivers/char/foo.c <<'EOF'
// SPDX-License-Identifier: GPL-2.0
#include <linux/fs.h>

static int foo_count;
static int foo_ready;

static int foo_open(struct inode *inode, struct file *file)
{
	int minor = iminor(inode);

	if (minor > 3)
		return -ENODEV;
	if (!foo_ready)
		return -EBUSY;
	if (file->f_flags & O_EXCL) {
		/* only one exclusive opener */
		if (foo_count)
			return -EBUSY;
	}
	foo_count++;
	return nonseekable_open(inode, file);
}

static int foo_release(struct inode *inode, struct file *file)
{
	foo_count--;
	return 0;
}

static const struct file_operations foo_fops = {
	.owner = THIS_MODULE,
	.open = foo_open,
	.release = foo_release,
};

static int __init foo_init(void)
{
	foo_ready = 1;
	return register_chrdev(240, "foo", &foo_fops);
}
module_init(foo_init);
EOF
	fixture_file $t/drivers/char/empty.c <<'EOF'
// SPDX-License-Identifier: GPL-2.0
#include <linux/fs.h>
#include <linux/miscdevice.h>

static int empty_open(struct inode *inode, struct file *file)
{
	return nonseekable_open(inode, file);
}

static const struct file_operations empty_fops = {
	.owner = THIS_MODULE,
	.open = empty_open,
};

static struct miscdevice empty_dev = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "empty",
	.fops = &empty_fops,
};

static int __init empty_init(void)
{
	return misc_register(&empty_dev);
}
module_init(empty_init);
EOF
	fixture_file $t/drivers/char/race.c <<'EOF'
// SPDX-License-Identifier: GPL-2.0
#include <linux/fs.h>
#include <linux/miscdevice.h>

static int *race_table;
static int race_size;

static int race_open(struct inode *inode, struct file *file)
{
	if (!race_table)
		return -ENODEV;
	file->private_data = race_table;
	return 0;
}

static long race_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	return race_size;
}

static const struct file_operations race_fops = {
	.owner = THIS_MODULE,
	.open = race_open,
	.unlocked_ioctl = race_ioctl,
};

static struct miscdevice race_dev = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "race",
	.fops = &race_fops,
};

static int __init race_init(void)
{
	int err;

	err = misc_register(&race_dev);
	if (err)
		return err;
	race_size = 64;
	race_table = kzalloc(64, GFP_KERNEL);
	return 0;
}
module_init(race_init);
EOF
	fixture_file $t/drivers/char/waiter.c <<'EOF'
// SPDX-License-Identifier: GPL-2.0
#include <linux/fs.h>

static int waiter_open(struct inode *inode, struct file *file)
{
	flush_scheduled_work();
	return 0;
}

static const struct file_operations waiter_fops = {
	.owner = THIS_MODULE,
	.open = waiter_open,
};

static int __init waiter_init(void)
{
	return register_chrdev(241, "waiter", &waiter_fops);
}
module_init(waiter_init);
EOF
	fixture_file $t/drivers/char/bar/bar-core.c <<'EOF'
// SPDX-License-Identifier: GPL-2.0
#include <linux/fs.h>

extern const struct file_operations bar_fops;

static int __init bar_init(void)
{
	return register_chrdev(242, "bar", &bar_fops);
}
module_init(bar_init);
EOF
	fixture_file $t/drivers/char/bar/bar-dev.c <<'EOF'
// SPDX-License-Identifier: GPL-2.0
#include <linux/fs.h>

static unsigned long bar_users;
static void *bar_buf;

static int bar_open(struct inode *inode, struct file *file)
{
	if (!bar_users) {
		bar_buf = kzalloc(4096, GFP_KERNEL);
		if (!bar_buf)
			return -ENOMEM;
	}
	bar_users++;
	file->private_data = bar_buf;
	return 0;
}

const struct file_operations bar_fops = {
	.owner = THIS_MODULE,
	.open = bar_open,
};
EOF
}

# The fixture's core series: smp_lock.h and the BKL in chrdev_open().
make_fixture_core_patch() {	# tree patches-dir
	rm -rf core.tmp && mkdir -p core.tmp/a/fs core.tmp/b/fs core.tmp/b/include/linux &&
	cp "$1/fs/char_dev.c" core.tmp/a/fs/ &&
	fixture_file core.tmp/b/include/linux/smp_lock.h <<'EOF' &&
#ifndef _LINUX_SMP_LOCK_H
#define _LINUX_SMP_LOCK_H
void lock_kernel(void);
void unlock_kernel(void);
int kernel_locked(void);
#endif
EOF
	if test "$FIXTURE_CORE_STYLE" = helper; then
	fixture_file core.tmp/b/fs/char_dev.c <<'EOF'
// SPDX-License-Identifier: GPL-2.0
#include <linux/fs.h>
#include <linux/smp_lock.h>

const struct file_operations *lookup_fops(struct inode *inode);

#ifdef CONFIG_BKL_LEGACY_SITES
/*
 * Linux 2.6.26 called every char driver's ->open() under the BKL.
 */
static int chrdev_call_open(struct inode *inode, struct file *filp)
{
	int ret;

	lock_kernel();
	ret = filp->f_op->open(inode, filp);
	unlock_kernel();
	return ret;
}
#else
static int chrdev_call_open(struct inode *inode, struct file *filp)
{
	return filp->f_op->open(inode, filp);
}
#endif

static int chrdev_open(struct inode *inode, struct file *filp)
{
	const struct file_operations *fops = lookup_fops(inode);
	int ret = 0;

	filp->f_op = fops;
	if (filp->f_op->open)
		ret = chrdev_call_open(inode, filp);
	return ret;
}

const struct file_operations def_chr_fops = {
	.open = chrdev_open,
};
EOF
	else
	fixture_file core.tmp/b/fs/char_dev.c <<'EOF'
// SPDX-License-Identifier: GPL-2.0
#include <linux/fs.h>
#include <linux/smp_lock.h>

const struct file_operations *lookup_fops(struct inode *inode);

static int chrdev_open(struct inode *inode, struct file *filp)
{
	const struct file_operations *fops = lookup_fops(inode);
	int ret = 0;

	filp->f_op = fops;
	if (filp->f_op->open) {
#ifdef CONFIG_BKL_LEGACY_SITES
		lock_kernel();
#endif
		ret = filp->f_op->open(inode, filp);
#ifdef CONFIG_BKL_LEGACY_SITES
		unlock_kernel();
#endif
	}
	return ret;
}

const struct file_operations def_chr_fops = {
	.open = chrdev_open,
};
EOF
	fi &&
	mkdir -p "$2" &&
	{
		printf 'From: Core Keeper <core@example.org>\n'
		printf 'Subject: [PATCH] bkl: the big kernel lock, taken by chrdev_open()\n\n'
		printf 'Signed-off-by: Core Keeper <core@example.org>\n---\n'
		(cd core.tmp && diff -u --label a/fs/char_dev.c --label b/fs/char_dev.c \
			a/fs/char_dev.c b/fs/char_dev.c;
		 diff -u --label /dev/null --label b/include/linux/smp_lock.h \
			/dev/null b/include/linux/smp_lock.h; true)
	} >"$2/0001-bkl-core.patch" &&
	echo 0001-bkl-core.patch >"$2/series" &&
	rm -rf core.tmp
}

# DIR: the tree, the repository, the work tree and a DB from real analyzer runs.
make_campaign_fixture() {
	d=$1
	mkdir -p "$d/cache/linux" "$d/repo/drivers-audit" &&
	make_fixture_tree "$d/cache/linux/pristine" &&
	make_fixture_core_patch "$d/cache/linux/pristine" "$d/repo/patches"
}

# Re-make the work tree from the series and analyze it into DB.
analyze_fixture() {	# dir db
	BKL_CACHE=$1/cache BKL_REPO=$1/repo bkl tree --patches "$1/repo/patches" --force >/dev/null &&
	(cd "$1/cache/linux/work" &&
	 bkl analyze -q --db "$2" -I include -D CONFIG_BKL_LEGACY_SITES \
		fs/char_dev.c drivers/char/*.c drivers/char/bar/*.c)
}

# use_campaign_fixture DIR: FX=DIR, and bkl's cache, repository, DB and
# tree there, signed by the fixture's campaigner.
use_campaign_fixture() {
	FX=$1
	BKL_CACHE=$FX/cache BKL_REPO=$FX/repo BKL_DB=$FX/bkl.db BKL_TREE=$FX/cache/linux/work
	BKL_AUTHOR='Camp Aigner <camp@example.org>'
	export FX BKL_CACHE BKL_REPO BKL_DB BKL_TREE BKL_AUTHOR
}
