# SPDX-License-Identifier: GPL-2.0
#
# A small campaign for the report and dashboard tests (t4000, t4100,
# t4200) and scripts/bench-web.sh, made by the real commands on a tree
# of our own: a char device core whose chrdev_open() calls ->open() with
# the BKL held, and five drivers: nvram (its own lock_kernel(), an
# imbalance, two sleep chains, markup in a comment), waiter (a wait
# chain), empty, foo (a subsystem of its own) and zap (a subsystem whose
# name has a slash and markup).  Then bkl analyze, bkl drivers, and a
# history spread over months by bkl claim / bkl status with $BKL_DATE.
#
# web_fixture DIR: the tree is DIR/tree, the DB DIR/bkl.db, the
# repository (its campaign log) DIR/repo.

web_file() {	# path, then the content on stdin
	mkdir -p "$(dirname "$1")" && cat >"$1"
}

web_fixture_tree() {
	web_file "$1/Makefile" <<-'EOF' &&
	VERSION = 6
	PATCHLEVEL = 1
	SUBLEVEL = 99
	EXTRAVERSION =
	EOF
	web_file "$1/MAINTAINERS" <<-'EOF' &&
	List of maintainers
	-------------------

	Maintainers List
	----------------

	ARM/ZAP <b>&amp; DRIVER
	M:	Zed <zed@example.org>
	S:	Orphan
	F:	drivers/char/zap.c

	CHAR and MISC DRIVERS
	M:	Arnd Bergmann <arnd@arndb.de>
	M:	Greg Kroah-Hartman <gregkh@linuxfoundation.org>
	L:	linux-kernel@vger.kernel.org
	S:	Supported
	F:	drivers/char/

	FILESYSTEMS (VFS and infrastructure)
	M:	Alexander Viro <viro@zeniv.linux.org.uk>
	S:	Maintained
	F:	fs/

	FOO DRIVER
	M:	Foo Fighter <foo@example.org>
	L:	foo-devel@example.org
	S:	Maintained
	F:	drivers/char/foo.c

	THE REST
	M:	Linus Torvalds <torvalds@linux-foundation.org>
	S:	Buried alive in reporters
	F:	*
	F:	*/
	EOF
	web_file "$1/include/linux/fs.h" <<-'EOF' &&
	#ifndef _LINUX_FS_H
	#define _LINUX_FS_H
	#define EBUSY 16
	#define EINVAL 22
	#define __init
	#define module_init(fn) int (*__initcall_##fn)(void) = fn
	struct module;
	#define THIS_MODULE ((struct module *)0)
	struct inode {
		unsigned int i_rdev;
	};
	struct file;
	struct file_operations {
		struct module *owner;
		int (*open)(struct inode *, struct file *);
		long (*unlocked_ioctl)(struct file *, unsigned int, unsigned long);
	};
	struct file {
		const struct file_operations *f_op;
	};
	int register_chrdev(unsigned int major, const char *name,
			    const struct file_operations *fops);
	void flush_scheduled_work(void);
	void msleep(unsigned int ms);
	#endif
	EOF
	web_file "$1/include/linux/smp_lock.h" <<-'EOF' &&
	#ifndef _LINUX_SMP_LOCK_H
	#define _LINUX_SMP_LOCK_H
	void lock_kernel(void);
	void unlock_kernel(void);
	#endif
	EOF
	web_file "$1/fs/Makefile" <<-'EOF' &&
	obj-y := char_dev.o
	EOF
	web_file "$1/fs/char_dev.c" <<'EOF' &&
// SPDX-License-Identifier: GPL-2.0
#include <linux/fs.h>
#include <linux/smp_lock.h>

const struct file_operations *lookup_fops(struct inode *inode);

static int chrdev_open(struct inode *inode, struct file *filp)
{
	int ret = 0;

	filp->f_op = lookup_fops(inode);
	if (filp->f_op->open) {
		lock_kernel();
		ret = filp->f_op->open(inode, filp);
		unlock_kernel();
	}
	return ret;
}

const struct file_operations def_chr_fops = {
	.open = chrdev_open,
};
EOF
	web_file "$1/drivers/Makefile" <<-'EOF' &&
	obj-y += char/
	EOF
	web_file "$1/drivers/char/Makefile" <<-'EOF' &&
	obj-$(CONFIG_NVRAM)		+= nvram.o
	obj-$(CONFIG_WAITER)		+= waiter.o
	obj-$(CONFIG_EMPTY)		+= empty.o
	obj-$(CONFIG_FOO)		+= foo.o
	obj-$(CONFIG_ZAP)		+= zap.o
	EOF
	web_file "$1/drivers/char/nvram.c" <<'EOF' &&
// SPDX-License-Identifier: GPL-2.0
#include <linux/fs.h>
#include <linux/smp_lock.h>

void msleep(unsigned int ms);

static int nvram_open_cnt;

static void nvram_wait_ready(void)
{
	msleep(1);
}

static int nvram_open(struct inode *inode, struct file *file)
{
	if (nvram_open_cnt)
		return -EBUSY;
	nvram_open_cnt++;
	return 0;
}

static long nvram_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	lock_kernel();
	nvram_wait_ready();
	if (cmd > 2)
		return -EINVAL;	/* <script>alert(1)</script> & the lock leaks */
	msleep(10);
	unlock_kernel();
	return 0;
}

static const struct file_operations nvram_fops = {
	.owner = THIS_MODULE,
	.open = nvram_open,
	.unlocked_ioctl = nvram_ioctl,
};

static int __init nvram_init(void)
{
	return register_chrdev(250, "nvram", &nvram_fops);
}
module_init(nvram_init);
EOF
	web_simple_driver "$1" waiter 251 "	flush_scheduled_work();" &&
	web_simple_driver "$1" empty 252 "" &&
	web_simple_driver "$1" foo 253 "" &&
	web_simple_driver "$1" zap 254 ""
}

web_simple_driver() {	# tree name major open()-body
	{
		printf '// SPDX-License-Identifier: GPL-2.0\n#include <linux/fs.h>\n\n'
		printf 'static int %s_open(struct inode *inode, struct file *file)\n{\n%s\n\treturn 0;\n}\n\n' "$2" "$4"
		printf 'static const struct file_operations %s_fops = {\n\t.owner = THIS_MODULE,\n' "$2"
		printf '\t.open = %s_open,\n};\n\n' "$2"
		printf 'static int __init %s_init(void)\n{\n\treturn register_chrdev(%s, "%s", &%s_fops);\n}\n' \
			"$2" "$3" "$2" "$2"
		printf 'module_init(%s_init);\n' "$2"
	} >"$1/drivers/char/$2.c"
}

web_fixture() {
	mkdir -p "$1/repo" &&
	web_fixture_tree "$1/tree" &&
	(cd "$1/tree" && bkl analyze -q --db "$1/bkl.db" -I include fs/char_dev.c drivers/char/*.c) &&
	(
		BKL_TREE=$1/tree BKL_REPO=$1/repo BKL_DB=$1/bkl.db
		export BKL_TREE BKL_REPO BKL_DB
		bkl drivers &&
		BKL_DATE=2024-01-02T10:00:00Z bkl claim foo --by "Ann Dev <ann@example.org>" &&
		BKL_DATE=2024-01-03T10:00:00Z bkl claim empty --by "Bob Dev <bob@example.org>" &&
		BKL_DATE=2024-02-01T10:00:00Z bkl status empty --set converted --by "Bob Dev <bob@example.org>" &&
		BKL_DATE=2024-03-01T10:00:00Z bkl status empty --set done --by "Bob Dev <bob@example.org>" \
			--note merged &&
		BKL_DATE=2024-03-05T10:00:00Z bkl status zap --set blocked --by "Bob Dev <bob@example.org>" \
			--note "needs the init order fixed first"
	) >/dev/null
}
