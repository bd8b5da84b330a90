#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
test_description='how the BKL reaches a driver: its own entry point, a parent, or a by-type edge alone'
. ./test-lib.sh
. "$TEST_DIRECTORY/lib-campaign.sh"

use_campaign_fixture "$PWD/fx"
export BKL_CHECKPATCH=
ANN='Ann Auditor <ann@example.org>'

# A small subsystem: vcore registers a char device whose open calls its
# child's open through the child's table (as v4l2_open() does); vkid is
# such a child, whose open powers a sensor through another table;
# vsensor's power is reached only through that by-type call from a
# driver with no entry point of its own.
add_subsystem() {
	p=$FX/cache/linux/pristine
	fixture_file $p/include/linux/vcore.h <<-'EOF' &&
	#ifndef _LINUX_VCORE_H
	#define _LINUX_VCORE_H
	#include <linux/fs.h>
	struct vcore_ops {
		int (*open)(struct file *);
	};
	struct vsensor_ops {
		int (*power)(int on);
	};
	struct vcore_dev {
		const struct vcore_ops *ops;
		const struct vsensor_ops *sensor;
	};
	int vcore_register(struct vcore_dev *vdev);
	#endif
	EOF
	fixture_file $p/drivers/char/vcore.c <<-'EOF' &&
	// SPDX-License-Identifier: GPL-2.0
	#include <linux/vcore.h>

	static struct vcore_dev *vcore_devs[4];

	static int vcore_open(struct inode *inode, struct file *filp)
	{
		struct vcore_dev *vdev = vcore_devs[iminor(inode) & 3];

		if (!vdev)
			return -ENODEV;
		filp->private_data = vdev;
		return vdev->ops->open(filp);
	}

	static const struct file_operations vcore_fops = {
		.owner = THIS_MODULE,
		.open = vcore_open,
	};

	int vcore_register(struct vcore_dev *vdev)
	{
		vcore_devs[0] = vdev;
		return 0;
	}

	static int __init vcore_init(void)
	{
		return register_chrdev(81, "vcore", &vcore_fops);
	}
	module_init(vcore_init);
	EOF
	fixture_file $p/drivers/char/vkid.c <<-'EOF' &&
	// SPDX-License-Identifier: GPL-2.0
	#include <linux/vcore.h>

	static int vkid_open(struct file *filp)
	{
		struct vcore_dev *vdev = filp->private_data;

		return vdev->sensor->power(1);
	}

	static const struct vcore_ops vkid_ops = {
		.open = vkid_open,
	};

	static struct vcore_dev vkid_dev = {
		.ops = &vkid_ops,
	};

	static int __init vkid_init(void)
	{
		return vcore_register(&vkid_dev);
	}
	module_init(vkid_init);
	EOF
	fixture_file $p/drivers/char/vsensor.c <<-'EOF' &&
	// SPDX-License-Identifier: GPL-2.0
	#include <linux/vcore.h>

	static int vsensor_power(int on)
	{
		return on ? 0 : -EINVAL;
	}

	const struct vsensor_ops vsensor_ops = {
		.power = vsensor_power,
	};
	EOF
	cat >>$p/drivers/char/Makefile <<-'EOF'
	obj-$(CONFIG_VCORE)		+= vcore.o
	obj-$(CONFIG_VKID)		+= vkid.o
	obj-$(CONFIG_VSENSOR)		+= vsensor.o
	EOF
}

test_expect_success 'setup: the fixture with a parent, a follower and a by-type reach' '
	make_campaign_fixture "$FX" &&
	add_subsystem &&
	analyze_fixture "$FX" "$BKL_DB"
'

test_expect_success 'drivers: REACH own, follows its parent, possibly with the by-type call' '
	bkl drivers >out &&
	grep "^vcore  *unclaimed  *own  *vcore_open " out &&
	grep "^vkid  *unclaimed  *follows  *vkid_open .*  follows vcore$" out &&
	grep "^vsensor  *unclaimed  *possibly  *vsensor_power .*  via vkid_open -> vsensor_ops.power (by-type)$" out &&
	grep "^foo  *unclaimed  *own " out
'

test_expect_success 'drivers --cover filters; --json says cover, follows, via' '
	bkl drivers --cover follows >out &&
	test "$(sed 1d out | awk "{print \$1}")" = vkid &&
	bkl drivers --cover possibly >out &&
	test "$(sed 1d out | awk "{print \$1}")" = vsensor &&
	test_must_fail bkl drivers --cover maybe 2>err &&
	grep "unknown reach .maybe." err &&
	bkl drivers --json >d.json &&
	grep "\"driver\":\"vkid\".*\"cover\":\"follows\",\"follows\":\[\"vcore\"\],\"via\":\"vcore_open -> vcore_ops.open (by-type)\"" d.json &&
	grep "\"driver\":\"vcore\".*\"cover\":\"own\",\"follows\":\[\],\"via\":null" d.json
'

test_expect_success 'report: a possibly covered driver is listed, not counted' '
	bkl report >out &&
	grep "^drivers: 8, 8 still under the BKL (unclaimed 8)$" out &&
	grep "^reach: 7 with an entry point of their own, 1 following a parent.s; 1 more only possibly covered (through a by-type edge alone), not counted$" out &&
	bkl report --format json >r.json &&
	grep "\"own\": 7, \"follows\": 1, \"possibly\": 1" r.json &&
	bkl report --driver vsensor >one &&
	grep "^reach: possibly (vkid_open -> vsensor_ops.power (by-type))$" one
'

test_expect_success 'a follower leaves the BKL with its parent, in the report and the burn-down' '
	BKL_DATE=2024-05-01T10:00:00Z bkl status vcore --set converted --by "$ANN" --note "test" &&
	bkl drivers >out &&
	grep "^vkid  *converted  *follows " out &&
	bkl status vkid >st &&
	grep "^status:       converted, as vcore (its own: unclaimed)$" st &&
	grep "^reach:        follows vcore, via vcore_open -> vcore_ops.open (by-type)$" st &&
	grep "^entry point:  vkid_open() drivers/char/vkid.c:4, covered by vcore_open()$" st &&
	bkl report >out &&
	grep "^drivers: 8, 6 still under the BKL (converted 2, unclaimed 6)$" out &&
	bkl report --format json >r.json &&
	grep "\"drivers\": 6, \"sites\"" r.json
'

test_done
