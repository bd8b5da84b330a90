#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
test_description='what an audit'"'"'s facts decide: rules propose verdicts, a person confirms, done follows'
. ./test-lib.sh
. "$TEST_DIRECTORY/lib-campaign.sh"

use_campaign_fixture "$PWD/fx"
export BKL_CHECKPATCH=
ANN='Ann Auditor <ann@example.org>'
REC=$FX/repo/drivers-audit

# locked: every write its open makes has a protection of its own (the
# driver's mutex, an atomic bit, the file, an object it allocated).
add_locked() {
	fixture_file $FX/cache/linux/pristine/drivers/char/locked.c <<-'EOF' &&
	// SPDX-License-Identifier: GPL-2.0
	#include <linux/fs.h>
	#include <linux/miscdevice.h>
	#include <linux/mutex.h>

	int test_and_set_bit(int nr, unsigned long *addr);

	struct locked_priv {
		int mode;
	};
	struct locked_driver_s {
		int id;
	};
	static struct locked_driver_s locked_driver;
	void *usb_find_interface(struct locked_driver_s *drv, int minor);

	static DEFINE_MUTEX(locked_mutex);
	static int locked_users;
	static unsigned long locked_busy;

	static int locked_open(struct inode *inode, struct file *file)
	{
		struct locked_priv *p;

		if (test_and_set_bit(0, &locked_busy))
			return -EBUSY;
		if (!usb_find_interface(&locked_driver, 0))
			return -ENODEV;
		p = kzalloc(sizeof(*p), GFP_KERNEL);
		if (!p)
			return -ENOMEM;
		p->mode = 1;
		mutex_lock(&locked_mutex);
		locked_users++;
		mutex_unlock(&locked_mutex);
		file->private_data = p;
		return 0;
	}

	static const struct file_operations locked_fops = {
		.owner = THIS_MODULE,
		.open = locked_open,
	};

	static struct miscdevice locked_dev = {
		.minor = MISC_DYNAMIC_MINOR,
		.name = "locked",
		.fops = &locked_fops,
	};

	static int __init locked_init(void)
	{
		return misc_register(&locked_dev);
	}
	module_init(locked_init);
	EOF
	echo "obj-\$(CONFIG_LOCKED)		+= locked.o" >>$FX/cache/linux/pristine/drivers/char/Makefile
}

# guarded: a watchdog's open, its writes behind a single-opener claim.
add_guarded() {
	fixture_file $FX/cache/linux/pristine/drivers/char/guarded.c <<-'EOF' &&
	// SPDX-License-Identifier: GPL-2.0
	#include <linux/fs.h>
	#include <linux/miscdevice.h>

	int test_and_set_bit(int nr, unsigned long *addr);
	void outb(int v, int port);

	static unsigned long guarded_open_bit;
	static int guarded_timeout = 60;

	static int guarded_open(struct inode *inode, struct file *file)
	{
		if (test_and_set_bit(0, &guarded_open_bit))
			return -EBUSY;
		if (guarded_timeout > 255)
			guarded_timeout = 255;
		outb(guarded_timeout, 0x443);
		return nonseekable_open(inode, file);
	}

	static const struct file_operations guarded_fops = {
		.owner = THIS_MODULE,
		.open = guarded_open,
	};

	static struct miscdevice guarded_dev = {
		.minor = MISC_DYNAMIC_MINOR,
		.name = "watchdog",
		.fops = &guarded_fops,
	};

	static int __init guarded_init(void)
	{
		return misc_register(&guarded_dev);
	}
	module_init(guarded_init);
	EOF
	echo "obj-\$(CONFIG_GUARDED)		+= guarded.o" >>$FX/cache/linux/pristine/drivers/char/Makefile
}

# early: its lock dropped on an error path that returns, the count
# written after it still under the lock; a label after the unlock.
add_early() {
	fixture_file $FX/cache/linux/pristine/drivers/char/early.c <<-'EOF' &&
	// SPDX-License-Identifier: GPL-2.0
	#include <linux/fs.h>
	#include <linux/miscdevice.h>
	#include <linux/mutex.h>

	static DEFINE_MUTEX(early_lock);
	static int early_count;
	static int early_fails;

	static int early_open(struct inode *inode, struct file *file)
	{
		mutex_lock(&early_lock);
		if (early_count > 3) {
			mutex_unlock(&early_lock);
			file->private_data = NULL;
			return -EBUSY;
		}
		early_count++;
		mutex_unlock(&early_lock);
		if (file->f_flags & O_EXCL)
			goto fail;
		return 0;
	fail:
		early_fails++;
		return -EBUSY;
	}

	static const struct file_operations early_fops = {
		.owner = THIS_MODULE,
		.open = early_open,
	};

	static struct miscdevice early_dev = {
		.minor = MISC_DYNAMIC_MINOR,
		.name = "early",
		.fops = &early_fops,
	};

	static int __init early_init(void)
	{
		return misc_register(&early_dev);
	}
	module_init(early_init);
	EOF
	echo "obj-\$(CONFIG_EARLY)		+= early.o" >>$FX/cache/linux/pristine/drivers/char/Makefile
}

test_expect_success 'setup: the fixture and a driver whose writes are all protected' '
	make_campaign_fixture "$FX" &&
	add_locked &&
	add_guarded &&
	add_early &&
	analyze_fixture "$FX" "$BKL_DB" &&
	bkl audit-record locked empty race foo bar guarded early >out &&
	grep "^locked: wrote drivers-audit/" out
'

test_expect_success 'an unlock before return is an error path; a label ends the lock' '
	R=$REC/char-and-misc-drivers/early.md &&
	grep "^No rule decides\.$" $R &&
	grep "^Left to check by reading the code: .early_fails. (drivers/char/early.c:24), written" $R &&
	! grep "^Left to check.*early_count" $R
'

test_expect_success 'protected: behind a single-opener claim no second open writes beside' '
	grep "^Rule protected proposes: \*\*none\*\*\.  The BKL serialized .guarded_open(). (drivers/char/guarded.c:11) against each other, and nothing else\.  What they (and the driver.s functions they call) write is protected without it: atomically .guarded_open_bit. (drivers/char/guarded.c:13); behind the single-opener claim of .guarded_open_bit., with no second open beside them, .guarded_timeout. (drivers/char/guarded.c:16), .outb(). (drivers/char/guarded.c:17)\.$" \
		$REC/char-and-misc-drivers/guarded.md
'

test_expect_success 'protected: each write named with what protects it' '
	R=$REC/char-and-misc-drivers/locked.md &&
	grep "^Rule protected proposes: \*\*none\*\*\.  The BKL serialized .locked_open(). (drivers/char/locked.c:21) against each other, and nothing else\.  What they (and the driver.s functions they call) write is protected without it: under the driver.s own locks .locked_users. (drivers/char/locked.c:34) under .locked_mutex.; atomically .locked_busy. (drivers/char/locked.c:25); this open.s own file or objects it allocated .p->mode. (drivers/char/locked.c:32), .file->private_data. (drivers/char/locked.c:36)\.$" $R
'

test_expect_success 'empty-open, init-order, and what is left where no rule decides' '
	grep "^Rule empty-open proposes: \*\*none\*\*\.  .empty_open(). (drivers/char/empty.c:5) do nothing a lock could protect" $REC/char-and-misc-drivers/empty.md &&
	grep "^Rule init-order proposes: \*\*init-order\*\*\.  misc_register() at drivers/char/race.c:37 makes the device reachable before .race_size. is set here (line 40)" $REC/race-driver/race.md &&
	grep "^No rule decides\.$" $REC/foo-driver/foo.md &&
	grep "^Left to check by reading the code: .foo_count. (drivers/char/foo.c:20), written by the entry points with no lock of the driver.s held" $REC/foo-driver/foo.md &&
	grep "^Left to check by reading the code: .bar_buf. (drivers/char/bar/bar-dev.c:10), .bar_users. (drivers/char/bar/bar-dev.c:14), written" $REC/bar-driver/bar.md
'

test_expect_success 'audit-record --rules writes the rule.s verdict, marked as the rule.s; audited' '
	BKL_DATE=2024-05-02T10:00:00Z bkl audit-record --rules --by "$ANN" locked empty race foo >out &&
	grep "^locked: rule protected gives verdict none$" out &&
	grep "^empty: rule empty-open gives verdict none$" out &&
	grep "^race: rule init-order gives verdict init-order$" out &&
	grep "^foo: no rule decides; left to check: .foo_count." out &&
	R=$REC/char-and-misc-drivers/locked.md &&
	sed -n "/^## Verdict$/,/^## Notes$/p" $R >v &&
	grep "^Verdict: none$" v &&
	grep "^The BKL serialized .locked_open()." v &&
	grep "^Given by rule protected (.bkl audit-record --rules., run by Ann Auditor <ann@example.org>, 2024-05-02); not yet confirmed by a person reading the code\.$" v &&
	bkl status locked >st && grep "^status: *audited" st &&
	bkl log locked | tail -1 | grep "audit .*Ann Auditor <ann@example.org>: verdict none, given by a rule$" &&
	bkl status foo >st && grep "^status: *pushed-down\|^status: *unclaimed" st &&
	cp $R locked.before &&
	bkl audit-record --rules --by "$ANN" locked >out &&
	test_cmp locked.before $R
'

test_expect_success 'audit-record --confirm: a person.s line; nothing to confirm is an error' '
	test_must_fail bkl audit-record --confirm --by "$ANN" foo 2>err &&
	grep "error: .foo. has no verdict to confirm" err &&
	BKL_DATE=2024-05-03T10:00:00Z bkl audit-record --confirm --by "$ANN" --note "read locked_open()" locked >out &&
	grep "^locked: verdict confirmed by Ann Auditor <ann@example.org>$" out &&
	grep "^Confirmed by Ann Auditor <ann@example.org>, 2024-05-03, reading the code: read locked_open()$" \
		$REC/char-and-misc-drivers/locked.md &&
	bkl log locked | tail -1 | grep "confirm  *audited .*: verdict confirmed$" &&
	bkl audit-record --confirm --by "$ANN" locked >out &&
	grep "^locked: already confirmed$" out
'

test_expect_success 'a tested driver whose verdict is confirmed is done, without another step' '
	BKL_DATE=2024-05-04T10:00:00Z bkl status empty --set tested --by "$ANN" --note "booted" &&
	BKL_DATE=2024-05-04T11:00:00Z bkl audit-record --confirm --by "$ANN" empty >out &&
	grep "^.empty.: done$" out &&
	bkl status empty >st && grep "^status: *done" st &&
	bkl status locked >st && grep "^status: *audited" st
'

test_expect_success 'a verdict a person wrote, its checklist ticked, is confirmed: tested, it is done' '
	R=$REC/foo-driver/foo.md &&
	sed -i "s/^Verdict:$/Verdict: mutex\nfoo_count is changed by open and release with no lock: a mutex takes the BKL.s place./" $R &&
	sed -i "s/^- \[ \] /- [x] /" $R &&
	BKL_DATE=2024-05-04T12:00:00Z bkl status foo --set tested --by "$ANN" --note "booted" &&
	BKL_DATE=2024-05-04T13:00:00Z bkl audit-record --confirm --by "$ANN" foo >out &&
	grep "^foo: already confirmed$" out &&
	grep "^.foo.: done$" out &&
	! grep "^Confirmed by" $R
'

test_expect_success 'QEMU lacking its hardware, a confirmed conversion is done once it compiled both ways' '
	BKL_DATE=2024-05-04T14:00:00Z bkl status locked --set converted --by "$ANN" --note "converted" &&
	mkdir -p $BKL_REPO/qemu-tests &&
	printf "locked\tnot written yet: a test to write\n" >$BKL_REPO/qemu-tests/unexercised &&
	bkl audit-record --confirm --by "$ANN" locked >out &&
	! grep "done" out &&
	printf "locked\tQEMU presents no locked card\n" >$BKL_REPO/qemu-tests/unexercised &&
	mkdir -p $BKL_REPO/patches/drivers/locked &&
	printf "Subject: [PATCH] x\n---\n--- a/drivers/char/locked.c\n+++ b/drivers/char/locked.c\n" \
		>$BKL_REPO/patches/drivers/locked/0002-char-locked-remove-the-BKL-from-open.patch &&
	bkl audit-record --confirm --by "$ANN" locked >out &&
	grep "^.locked.: not done: drivers/char/locked.c did not compile under both configs" out &&
	H=$(python3 -c "
import os, sys
h = 0xcbf29ce484222325
for b in os.path.realpath(sys.argv[1]).encode():
	h = ((h ^ b) * 0x100000001b3) & 0xffffffffffffffff
print(\"%016x\" % h)" "$BKL_TREE") &&
	for b in y n; do
		mkdir -p $BKL_CACHE/build/allmodconfig-bkl-$b-$H &&
		printf "drivers/char/locked.c\t0\to\t\n" >$BKL_CACHE/build/allmodconfig-bkl-$b-$H/bkl-build.tsv
	done &&
	BKL_DATE=2024-05-04T15:00:00Z bkl audit-record --confirm --by "$ANN" locked >out &&
	grep "^.locked.: done$" out &&
	bkl log locked | tail -1 | grep "done  *done .*compiled with the BKL on and off (bkl tree --build); not in QEMU: QEMU presents no locked card$"
'

test_expect_success 'audit-record --bug: the record, the log and the report say it; the state stays' '
	test_must_fail bkl audit-record --bug "x" --by "$ANN" bar 2>err &&
	grep "error: .bar. has no verdict: write it before the bug it found" err &&
	bkl status race >before &&
	BKL_DATE=2024-05-05T10:00:00Z bkl audit-record --bug "race_init() registers before race_table is set" \
		--by "$ANN" race >out &&
	grep "^race: bug found, recorded$" out &&
	grep "^Bug found: race_init() registers before race_table is set$" $REC/race-driver/race.md &&
	bkl status race >after && test_cmp before after &&
	bkl log race | tail -1 | grep " bug  .*Ann Auditor <ann@example.org>: race_init() registers before race_table is set$" &&
	bkl report >out &&
	grep "^bugs found in the tree: 1 (race)$" out &&
	bkl report --format json >r.json &&
	grep "\"bugs\": \[{\"driver\": \"race\", \"note\": \"race_init() registers before race_table is set\", \"ts\": \"2024-05-05T10:00:00Z\"}\]" r.json
'

test_done
