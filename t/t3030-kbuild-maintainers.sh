#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
test_description='which Kbuild module and MAINTAINERS section a file belongs to'
. ./test-lib.sh

mkf() { mkdir -p "$(dirname "$1")" && cat >"$1"; }

test_expect_success 'setup: a tree of Makefiles and a MAINTAINERS' '
	mkf t/Makefile <<-\EOF &&
	obj-y += drivers/ sound/
	EOF
	mkf t/drivers/Makefile <<-\EOF &&
	obj-$(CONFIG_CHAR) += char/
	obj-y += tty/
	EOF
	mkf t/drivers/char/Makefile <<-\EOF &&
	# a comment naming nothing.o
	obj-y				+= mem.o
	obj-$(CONFIG_NVRAM)		+= nvram.o # trailing comment
	obj-$(CONFIG_RTC)		+= rtc-core.o
	rtc-core-y			:= class.o \
					   interface.o
	rtc-core-$(CONFIG_RTC_DEV)	+= dev.o
	obj-$(CONFIG_FOO)		+= foo.o
	foo-objs			:= foo_main.o sub/foo_helper.o
	obj-$(CONFIG_A) += twice.o
	obj-$(CONFIG_B) += twice.o
	obj-m += modonly.o
	EOF
	mkf t/drivers/tty/Kbuild <<-\EOF &&
	obj-$(CONFIG_TTY) += tty_io.o
	EOF
	mkf t/drivers/tty/Makefile <<-\EOF &&
	include Kbuild
	EOF
	mkf t/sound/Makefile <<-\EOF &&
	obj-$(CONFIG_SND) += core/
	EOF
	mkf t/sound/core/Makefile <<-\EOF &&
	obj-y += mem.o
	EOF
	for f in drivers/char/mem drivers/char/nvram drivers/char/class drivers/char/interface \
		 drivers/char/dev drivers/char/foo_main drivers/char/sub/foo_helper \
		 drivers/char/twice drivers/char/modonly drivers/char/orphan drivers/tty/tty_io \
		 sound/core/mem; do
		mkf t/$f.c </dev/null || exit 1
	done &&
	mkdir -p t/drivers/char/ipmi &&
	mkf t/MAINTAINERS <<-\EOF
	List of maintainers
	-------------------

	Preamble with a tab-indented example:
		F: drivers/net/	all files in and below drivers/net

	Maintainers List
	----------------

	CHAR and MISC DRIVERS
	M:	Arnd Bergmann <arnd@arndb.de>
	L:	linux-kernel@vger.kernel.org
	S:	Supported
	F:	drivers/char/
	X:	drivers/char/nvram.c
	X:	drivers/char/ipmi/

	FOO DRIVER
	M:	Foo Fighter <foo@example.org>
	F:	drivers/char/foo*

	IPMI SUBSYSTEM
	M:	Ipmi Keeper <ipmi@example.org>
	F:	drivers/char/ipmi

	SOUND
	M:	Sound Person <snd@example.org>
	F:	sound/

	THE REST
	M:	Linus Torvalds <torvalds@linux-foundation.org>
	F:	*
	F:	*/
	EOF
'

which() { bkl drivers --which --tree "$PWD/t" "$@"; }

test_expect_success 'a plain obj-$(CONFIG_X) object is its own module' '
	which drivers/char/nvram.c >out &&
	printf "drivers/char/nvram.c\tnvram\tCONFIG_NVRAM\tTHE REST\tdrivers/char/nvram.c\n" >expect &&
	test_cmp expect out
'

test_expect_success 'composite objects: -y with continuation lines, -$(CONFIG_X), -objs' '
	which drivers/char/dev.c drivers/char/interface.c >out &&
	printf "drivers/char/dev.c\trtc-core\tCONFIG_RTC\tCHAR and MISC DRIVERS\tdrivers/char/class.c drivers/char/dev.c drivers/char/interface.c\n" >expect &&
	printf "drivers/char/interface.c\trtc-core\tCONFIG_RTC\tCHAR and MISC DRIVERS\tdrivers/char/class.c drivers/char/dev.c drivers/char/interface.c\n" >>expect &&
	test_cmp expect out &&
	which drivers/char/sub/foo_helper.c >out &&
	grep "^drivers/char/sub/foo_helper.c	foo	CONFIG_FOO	" out &&
	grep "	drivers/char/foo_main.c drivers/char/sub/foo_helper.c$" out
'

test_expect_success 'obj-y takes the symbol of the directory that includes it' '
	which drivers/char/mem.c sound/core/mem.c >out &&
	grep "^drivers/char/mem.c	mem	CONFIG_CHAR	CHAR and MISC DRIVERS	" out &&
	grep "^sound/core/mem.c	mem	CONFIG_SND	SOUND	" out
'

test_expect_success 'one object under two symbols names both; obj-m; a Kbuild file' '
	which drivers/char/twice.c drivers/char/modonly.c drivers/tty/tty_io.c >out &&
	grep "^drivers/char/twice.c	twice	CONFIG_A || CONFIG_B	" out &&
	grep "^drivers/char/modonly.c	modonly	CONFIG_CHAR	" out &&
	grep "^drivers/tty/tty_io.c	tty_io	CONFIG_TTY	THE REST	" out
'

test_expect_success 'a file no Makefile names is flagged with a ?' '
	which drivers/char/orphan.c >out &&
	grep "^drivers/char/orphan.c	orphan?	?	" out
'

test_expect_success 'MAINTAINERS: X: excludes, the deepest F: wins, globs stay in their directory' '
	which drivers/char/foo_main.c drivers/char/sub/foo_helper.c >out &&
	grep "^drivers/char/foo_main.c	foo	CONFIG_FOO	FOO DRIVER	" out &&
	grep "^drivers/char/sub/foo_helper.c	foo	CONFIG_FOO	CHAR and MISC DRIVERS	" out &&
	mkf t/drivers/char/ipmi/Makefile <<-\EOF &&
	obj-m += ipmi_devintf.o
	EOF
	mkf t/drivers/char/ipmi/ipmi_devintf.c </dev/null &&
	which drivers/char/ipmi/ipmi_devintf.c >out &&
	grep "	IPMI SUBSYSTEM	" out
'

test_expect_success 'a tree without MAINTAINERS is one line' '
	mkdir -p empty &&
	test_must_fail bkl drivers --which --tree "$PWD/empty" x.c 2>err &&
	test_one_line err "cannot read .*MAINTAINERS"
'

# The real 6.1 of the cache make test was given ($PRISTINE, test-lib.sh).
LINUX=$PRISTINE

test_expect_success LINUX_SOURCE 'setup: the pristine 6.1 tree (bkl tree unpacks it when missing)' '
	test_pristine_tree
'

test_expect_success LINUX_SOURCE 'the real 6.1 tree: modules, symbols, subsystems' '
	bkl drivers --which --tree "$LINUX" drivers/char/misc.c drivers/char/nvram.c \
		drivers/char/random.c drivers/rtc/dev.c drivers/char/hw_random/core.c \
		drivers/tty/serial/8250/8250_core.c drivers/char/hpet.c drivers/tty/pty.c \
		fs/fuse/dev.c drivers/watchdog/i6300esb.c | cut -f1-4 >out &&
	cat >expect <<-\EOF &&
	drivers/char/misc.c	misc	y	CHAR and MISC DRIVERS
	drivers/char/nvram.c	nvram	CONFIG_NVRAM	CHAR and MISC DRIVERS
	drivers/char/random.c	random	y	RANDOM NUMBER DRIVER
	drivers/rtc/dev.c	rtc-core	CONFIG_RTC_CLASS	REAL TIME CLOCK (RTC) SUBSYSTEM
	drivers/char/hw_random/core.c	rng-core	CONFIG_HW_RANDOM	HARDWARE RANDOM NUMBER GENERATOR CORE
	drivers/tty/serial/8250/8250_core.c	8250	CONFIG_SERIAL_8250	SERIAL DRIVERS
	drivers/char/hpet.c	hpet	CONFIG_HPET	HPET: High Precision Event Timers driver
	drivers/tty/pty.c	pty	CONFIG_LEGACY_PTYS || CONFIG_UNIX98_PTYS	TTY LAYER
	fs/fuse/dev.c	fuse	CONFIG_FUSE_FS	FUSE: FILESYSTEM IN USERSPACE
	drivers/watchdog/i6300esb.c	i6300esb	CONFIG_I6300ESB_WDT	WATCHDOG DEVICE DRIVERS
	EOF
	test_cmp expect out
'

test_done
