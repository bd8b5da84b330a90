#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
test_description='bkl pushdown: one patch per driver, then chrdev_open() without the BKL'
. ./test-lib.sh
. "$TEST_DIRECTORY/lib-campaign.sh"

use_campaign_fixture "$PWD/fx"
# checkpatch.pl from the real 6.1 ($PRISTINE, test-lib.sh), which the
# setup below unpacks when it is missing; perl runs it.
CHECKPATCH=$PRISTINE/scripts/checkpatch.pl
test_need_program PERL perl perl
if test_have_prereq LINUX_SOURCE && test_have_prereq PERL; then
	export BKL_CHECKPATCH=$CHECKPATCH
else
	export BKL_CHECKPATCH=
fi
test_need_program GIT git git
test_need_program GCC gcc gcc

# The fixture tree with the whole series applied, in DIR.
applied_tree() {
	rm -rf "$1" && cp -r "$FX/cache/linux/pristine" "$1" &&
	while read p; do
		case "$p" in "#"*|"") continue;; esac
		patch -s -p1 -d "$1" <"$FX/repo/patches/$p" || return 1
	done <"$FX/repo/patches/series"
}

PD=drivers/foo/0001-char-foo-push-down-the-BKL-into-open.patch

test_expect_success LINUX_SOURCE 'setup: the pristine 6.1 tree (bkl tree unpacks it when missing)' '
	test_pristine_tree
'

test_expect_success 'setup' '
	make_campaign_fixture "$FX" &&
	analyze_fixture "$FX" "$BKL_DB"
'

test_expect_success 'pushdown --core is refused while drivers rely on chrdev_open()' '
	test_must_fail bkl pushdown --core 2>err &&
	test_one_line err "error: 6 covered drivers still rely on chrdev_open().s BKL: bar, empty, foo, misc, race, waiter" &&
	! test -e "$BKL_REPO/patches/drivers/_core"
'

test_expect_success 'pushdown of a multi-return open(): the patch and its series line' '
	bkl pushdown foo >out &&
	test_one_line out "^foo: patches/$PD$" &&
	tail -1 "$BKL_REPO/patches/series" >last && echo "$PD" >expect && test_cmp expect last &&
	P=$BKL_REPO/patches/$PD &&
	head -2 "$P" >hdr &&
	printf "From: Camp Aigner <camp@example.org>\nSubject: [PATCH] char: foo: push down the BKL into open()\n" >expect &&
	test_cmp expect hdr &&
	grep "^Signed-off-by: Camp Aigner <camp@example.org>$" "$P" &&
	sed -n "/^Entry points:/,/^$/p" "$P" >eps && cat eps &&
	tr -s "\n " "  " <eps | grep "^Entry points: foo_open() in drivers/char/foo.c: ->open() of foo_fops, registered by [a-z_]*() at drivers/char/foo.c:[0-9]*, called by chrdev_open() at fs/char_dev.c:[0-9]* $" &&
	tr "\n" " " <"$P" | grep "chrdev_open() takes the big kernel lock around every character driver.s open() (CONFIG_BKL_LEGACY_SITES" &&
	grep "Those call sites are going to stop" "$P" &&
	grep "^+#include <linux/smp_lock.h>$" "$P" &&
	bkl status foo >out && grep "^status: *pushed-down" out
'

test_expect_success 'the patched open() unlocks on every return path' '
	applied_tree t1 &&
	sed -n "/^static int foo_open/,/^}/p" t1/drivers/char/foo.c >fn &&
	cat >expect <<\EOF &&
static int foo_open(struct inode *inode, struct file *file)
{
	int minor = iminor(inode);
	int ret;

	lock_kernel();
	if (minor > 3) {
		ret = -ENODEV;
		goto out;
	}
	if (!foo_ready) {
		ret = -EBUSY;
		goto out;
	}
	if (file->f_flags & O_EXCL) {
		/* only one exclusive opener */
		if (foo_count) {
			ret = -EBUSY;
			goto out;
		}
	}
	foo_count++;
	ret = nonseekable_open(inode, file);
out:
	unlock_kernel();
	return ret;
}
EOF
	test_cmp expect fn &&
	test "$(grep -c "return" fn)" = 1
'

test_expect_success GCC 'patch -p1 applies it to the tree and the result compiles' '
	rm -rf t2 && cp -r "$FX/cache/linux/work" t2 &&
	patch -p1 -d t2 <"$BKL_REPO/patches/$PD" &&
	gcc -fsyntax-only -Wall -Werror -Wdeclaration-after-statement -I t2/include t2/drivers/char/foo.c
'

test_expect_success LINUX_SOURCE,PERL 'checkpatch.pl passes it' '
	perl "$CHECKPATCH" --no-tree -q "$BKL_REPO/patches/$PD"
'

test_expect_success GIT 'git am takes it' '
	rm -rf g && mkdir g && cp -r "$FX/cache/linux/work/." g/ && rm -rf g/.pc &&
	(cd g && git init -q && git add -A &&
	 git -c user.name=t -c user.email=t@e commit -qm base &&
	 git -c user.name=t -c user.email=t@e am -q "$BKL_REPO/patches/$PD" &&
	 git log -1 --format="%an <%ae>|%s" >../am) &&
	echo "Camp Aigner <camp@example.org>|char: foo: push down the BKL into open()" >expect &&
	test_cmp expect am
'

test_expect_success 'a second push-down is refused; --force makes it again' '
	test_must_fail bkl pushdown foo 2>err &&
	test_one_line err "error: .foo. is pushed down already" &&
	cp "$BKL_REPO/patches/$PD" before.patch &&
	bkl pushdown --force foo &&
	test_cmp before.patch "$BKL_REPO/patches/$PD" &&
	test "$(grep -c foo "$BKL_REPO/patches/series")" = 1
'

test_expect_success 'signed by who runs it: --by, else $BKL_AUTHOR, else git; nobody or a stand-in is one line' '
	P=$BKL_REPO/patches/$PD &&
	cp "$P" before.patch &&
	bkl pushdown --force --by "Bea By <bea@example.org>" foo &&
	grep "^From: Bea By <bea@example.org>$" "$P" &&
	grep "^Signed-off-by: Bea By <bea@example.org>$" "$P" &&
	printf "[user]\n\tname = Gil Gitter\n\temail = gil@example.org\n" >gitconfig &&
	env -u BKL_AUTHOR GIT_CONFIG_GLOBAL=$PWD/gitconfig GIT_CONFIG_NOSYSTEM=1 bkl pushdown --force foo &&
	grep "^From: Gil Gitter <gil@example.org>$" "$P" &&
	grep "^Signed-off-by: Gil Gitter <gil@example.org>$" "$P" &&
	cp "$P" gil.patch &&
	test_must_fail env -u BKL_AUTHOR GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 \
		bkl pushdown --force foo 2>err &&
	test_one_line err "^bkl pushdown: error: say who you are: --by \"Name <email>\", \$BKL_AUTHOR, or git.s user.name and user.email$" &&
	test_must_fail env BKL_AUTHOR="bkl-audit campaign <campaign@bkl-audit.invalid>" \
		bkl pushdown --force foo 2>err &&
	test_one_line err "^bkl pushdown: error: .bkl-audit campaign <campaign@bkl-audit.invalid>. (\$BKL_AUTHOR) is not \"Name <email>\"" &&
	test_cmp gil.patch "$P" &&
	bkl pushdown --force foo &&
	test_cmp before.patch "$P"
'

# dib3000mb in 6.1: wr() is "if (...) { ...; return -EREMOTEIO; }", a
# return the rewrite cannot see, so the first whole-tree push-down leaked
# the BKL there.  A returning macro, in the file or a "" header (read from
# the work tree, as the series leaves it), is refused.
test_expect_success 'a macro that returns, in the file or its header, is refused by name' '
	SRC=$FX/cache/linux/pristine/drivers/char/foo.c &&
	cp "$SRC" foo.c.orig && cp "$BKL_REPO/patches/$PD" before.patch &&
	# a condition, so that set -e leaves the clean-up below to run
	if {
		sed "s/^	foo_count++;$/	FOO_TRY(foo_count++);/" foo.c.orig >"$SRC" &&
		printf "#define FOO_TRY(x) if ((x) < 0) \\\\\n\treturn -EIO\n" >>"$SRC" &&
		test_must_fail bkl pushdown --force foo 2>err1 &&
		sed "s/^	foo_count++;$/	FOO_TRY(foo_count++);/" foo.c.orig >"$SRC" &&
		sed -i "1s/^/#include \"foo_priv.h\" \/\* its own header \*\/ /" "$SRC" &&
		printf "#define FOO_TRY(x) if ((x) < 0) return -EIO\n" >"$BKL_TREE/drivers/char/foo_priv.h" &&
		test_must_fail bkl pushdown --force foo 2>err2
	}; then
		rc=0
	else
		rc=$?
	fi
	cp foo.c.orig "$SRC" && rm -f "$BKL_TREE/drivers/char/foo_priv.h" &&
	{ cmp -s before.patch "$BKL_REPO/patches/$PD" || cp before.patch "$BKL_REPO/patches/$PD"; } &&
	test "$rc" = 0 &&
	test_one_line err1 "error: .foo_open. at drivers/char/foo.c:[0-9]*: the macro .FOO_TRY. returns, which the rewrite cannot see" &&
	test_one_line err2 "the macro .FOO_TRY. returns" &&
	test_cmp before.patch "$BKL_REPO/patches/$PD" &&
	test "$(grep -c foo "$BKL_REPO/patches/series")" = 1
'

# Run "bkl pushdown --force foo" on a variant of the fixture's foo.c made
# by the shell commands in $1 (on foo.c, the pristine file); stderr in
# err, the patched foo.c in foo.out; foo.c and the patch put back after.
pushdown_variant() {
	SRC=$FX/cache/linux/pristine/drivers/char/foo.c &&
	cp "$SRC" foo.c.orig && cp "$BKL_REPO/patches/$PD" before.patch &&
	cp foo.c.orig foo.c && (eval "$1") && cp foo.c "$SRC" &&
	{ bkl pushdown --force foo 2>err; rc=$?; } &&
	rm -rf v && mkdir -p v/drivers/char && cp foo.c v/drivers/char/foo.c &&
	{ test $rc != 0 || patch -s -p1 -d v <"$BKL_REPO/patches/$PD"; } &&
	cp v/drivers/char/foo.c foo.out
	cp foo.c.orig "$SRC" && cp before.patch "$BKL_REPO/patches/$PD" &&
	return $rc
}

# atyfb, neofb, cirrusfb, sisusbvga, snd-seq: the include was sorted in
# among <linux/...> lines that sat under an #ifdef the build leaves out.
test_expect_success GCC 'the include goes after the last #include no #if encloses' '
	pushdown_variant "sed -i \"s|^#include <linux/fs.h>$|&\n#ifdef CONFIG_FOO_PMU\n#include <linux/mutex.h>\n#if 1\n#endif\n#endif|\" foo.c" &&
	sed -n "/^#include <linux\/fs.h>$/{n;p;}" foo.out >next &&
	echo "#include <linux/smp_lock.h>" >expect && test_cmp expect next &&
	test "$(grep -c smp_lock foo.out)" = 1 &&
	mkdir -p inc/linux && cp "$BKL_TREE"/include/linux/*.h inc/linux/ &&
	gcc -fsyntax-only -Wall -Werror -I inc -x c foo.out
'

test_expect_success 'the include goes among the <...> ones: before local headers and CREATE_TRACE_POINTS' '
	pushdown_variant "sed -i \"s|^#include <linux/fs.h>$|&\n#include <linux/errno.h>\n#include \\\"foo.h\\\"\n#define CREATE_TRACE_POINTS\n#include <linux/types.h>|\" foo.c && echo >foo.h && cp foo.h \"\$(dirname \$SRC)\"" &&
	sed -n "/^#include <linux\/errno.h>$/{n;p;}" foo.out >next &&
	echo "#include <linux/smp_lock.h>" >expect && test_cmp expect next &&
	test "$(grep -c smp_lock foo.out)" = 1
'

test_expect_success 'a file whose every #include is under an #if is refused by name' '
	test_must_fail pushdown_variant "sed -i \"s|^#include <linux/fs.h>$|#ifdef __KERNEL__\n&\n#endif|\" foo.c" &&
	test_one_line err "error: .drivers/char/foo.c. has no #include outside #if/#ifdef before its first function to add <linux/smp_lock.h> after" &&
	test_cmp before.patch "$BKL_REPO/patches/$PD"
'

# counter in 6.1: "struct counter_device *const counter = container_of(...)"
# became a declaration and an assignment below lock_kernel(): no build.
test_expect_success 'a const variable whose initializer must move is refused at file:line' '
	test_must_fail pushdown_variant "sed -i \"s|^	int minor = iminor(inode);$|&\n	const int busy = foo_count;|\" foo.c" &&
	test_one_line err "error: drivers/char/foo.c:[0-9]*: .busy. in .foo_open. is const: its initializer cannot become an assignment below lock_kernel()" &&
	line=$(grep -n "const int busy" foo.out | cut -d: -f1) &&
	grep -q "foo.c:$line:" err &&
	test_must_fail pushdown_variant "sed -i \"s|^	int minor = iminor(inode);$|&\n	int *const cp = \&foo_count;|\" foo.c" &&
	test_one_line err "error: drivers/char/foo.c:[0-9]*: .cp. in .foo_open. is const" &&
	test_cmp before.patch "$BKL_REPO/patches/$PD"
'

test_expect_success GCC 'a pointer to const is moved below the lock, and compiles' '
	pushdown_variant "sed -i \"s|^	int minor = iminor(inode);$|&\n	const int *cp = \&foo_count;|\" foo.c" &&
	sed -n "/^	lock_kernel();/{n;p;}" foo.out >next &&
	echo "	cp = &foo_count;" >expect && test_cmp expect next &&
	grep "^	const int \*cp;$" foo.out &&
	mkdir -p inc/linux && cp "$BKL_TREE"/include/linux/*.h inc/linux/ &&
	gcc -fsyntax-only -Wall -Werror -Wno-unused-but-set-variable -I inc -x c foo.out
'

# hpet_fasync() in 6.1: "if (x) return 0; else return -EIO;" became
# "}" and "else {" on two lines, which checkpatch.pl refuses.
test_expect_success 'an if/else of returns becomes "} else {"' '
	pushdown_variant "sed -i \"s|^	if (!foo_ready)$|	if (minor == 1)\n		return -EIO;\n	else\n		return -EAGAIN;\n&|\" foo.c" &&
	grep -A3 "^	if (minor == 1) {$" foo.out >got &&
	printf "	if (minor == 1) {\n		ret = -EIO;\n		goto out;\n	} else {\n" >expect &&
	test_cmp expect got &&
	! grep "^	else" foo.out
'

test_expect_success 'the series still applies to the pristine tree' '
	bkl tree --check --patches "$BKL_REPO/patches" >out &&
	grep "series applies (2 patches)" out
'

test_expect_success 'pushdown --all: the covered drivers the audited config builds' '
	printf "CONFIG_FOO=m\nCONFIG_BAR=y\nCONFIG_EMPTY=m\nCONFIG_RACE=y\n# CONFIG_WAITER is not set\n" >dot-config &&
	BKL_KCONFIG=$PWD/dot-config bkl pushdown --all >out &&
	tail -1 out | grep "^pushed down 4 drivers; 0 failed; 1 had theirs already; 1 not built in the audited config (--any-config)$" &&
	! test -e "$BKL_REPO/patches/drivers/waiter" &&
	BKL_KCONFIG=$PWD/dot-config bkl drivers --json >d.json &&
	grep "\"driver\":\"waiter\".*\"built\":\"n\"" d.json &&
	grep "\"driver\":\"foo\".*\"built\":\"m\"" d.json &&
	grep "\"driver\":\"misc\".*\"built\":\"y\"" d.json &&
	BKL_KCONFIG=$PWD/dot-config bkl pushdown --all --any-config >out &&
	tail -1 out | grep "^pushed down 1 driver; 0 failed; 5 had theirs already$" &&
	bkl tree --check --patches "$BKL_REPO/patches" >out &&
	grep "series applies (7 patches)" out &&
	bkl drivers --status pushed-down >out && test "$(sed 1d out | wc -l)" = 6
'

test_expect_success GCC 'every pushed-down file compiles' '
	applied_tree t3 &&
	for f in misc foo empty race waiter; do
		gcc -fsyntax-only -Wall -Werror -Wdeclaration-after-statement -I t3/include \
			t3/drivers/char/$f.c || exit 1
	done &&
	gcc -fsyntax-only -Wall -Werror -I t3/include t3/drivers/char/bar/bar-dev.c
'

test_expect_success 'an initializer that reads driver state moves below the lock' '
	sed -n "/^static int misc_open/,/^}/p" t3/drivers/char/misc.c >fn &&
	grep "^	struct miscdevice \*c;$" fn &&
	sed -n "/^	lock_kernel();/{n;p;}" fn >next &&
	echo "	c = misc_list[minor & 3];" >expect && test_cmp expect next &&
	grep "^	int minor = iminor(inode);$" fn &&
	grep "^		goto out;$" fn && ! grep -w "ret" fn
'

test_expect_success LINUX_SOURCE,PERL 'every push-down passes checkpatch.pl' '
	for p in "$BKL_REPO"/patches/drivers/*/0001-*.patch; do
		perl "$CHECKPATCH" --no-tree -q "$p" || exit 1
	done
'

test_expect_success 'pushdown --core wants a whole-tree audit, or --partial' '
	test_must_fail bkl pushdown --core 2>err &&
	test_one_line err "error: the DB holds 8 analyzed files, not the whole tree" &&
	! test -e "$BKL_REPO/patches/drivers/_core"
'

test_expect_success 'pushdown --core: chrdev_open() stops taking the BKL' '
	bkl pushdown --core --partial >out &&
	test_one_line out "^chrdev_open(): patches/drivers/_core/0001-chrdev-stop-taking-the-BKL-in-chrdev_open.patch$" &&
	P=$BKL_REPO/patches/drivers/_core/0001-chrdev-stop-taking-the-BKL-in-chrdev_open.patch &&
	grep "^-		lock_kernel();$" "$P" && grep "^-		unlock_kernel();$" "$P" &&
	! grep "^+" "$P" | grep -v "^+++" &&
	bkl tree --check --patches "$BKL_REPO/patches" >out &&
	grep "series applies (8 patches)" out &&
	test_must_fail bkl pushdown --core --partial 2>err &&
	test_one_line err "stops taking the BKL already"
'

test_expect_success 'after --core, the analyzer sees the drivers taking the BKL themselves' '
	analyze_fixture "$FX" "$BKL_DB" &&
	bkl sites --db "$BKL_DB" >sites &&
	! grep "chrdev_open" sites &&
	grep "runs with the BKL held" sites >implicit &&
	# misc_open() took the BKL itself: what it dispatches to still runs under it
	test "$(grep -c "called from misc_open" implicit)" = 2 &&
	test "$(wc -l <implicit)" = 2 &&
	test "$(grep -c "lock_kernel() in" sites)" = 12 &&
	bkl drivers --json >d.json &&
	grep "\"driver\":\"foo\".*\"entry_points\":\[{\"function\":\"foo_open\",\"file\":\"drivers/char/foo.c\",\"line\":[0-9]*,\"implicit\":false,\"locks\":1,\"member\":\"\",\"via\":\"\"}\].*\"sites\":{\"lock\":1,\"unlock\":1}" d.json &&
	test "$(grep -c "\"status\":\"pushed-down\"" d.json)" = 6
'

test_expect_success 'a core series that takes the BKL in a helper: --core keeps the plain variant' '
	FX2=$PWD/fx2 &&
	FIXTURE_CORE_STYLE=helper make_campaign_fixture "$FX2" &&
	(
		use_campaign_fixture "$FX2" &&
		analyze_fixture "$FX2" "$BKL_DB" &&
		bkl sites --db "$BKL_DB" >sites &&
		grep "lock_kernel() in .chrdev_call_open." sites &&
		test "$(grep -c "called from chrdev_call_open" sites)" = 4 &&
		bkl pushdown --all >/dev/null &&
		bkl pushdown --core --partial >/dev/null &&
		bkl tree --check --patches "$BKL_REPO/patches" >/dev/null
	) &&
	P=$FX2/repo/patches/drivers/_core/0001-chrdev-stop-taking-the-BKL-in-chrdev_open.patch &&
	grep "^-#ifdef CONFIG_BKL_LEGACY_SITES$" $P && grep "^-#else$" $P && grep "^-#endif$" $P &&
	grep "^-	lock_kernel();$" $P &&
	! grep "^-	return filp->f_op->open(inode, filp);$" $P &&
	! grep "^+" $P | grep -v "^+++"
'

# A frontend-like ops table: gate_open() is a registered char device's
# open; the gate_ctrl() implementations it calls through gate_ops are
# only reached (by type), in gate itself and in another module (tuner).
test_expect_success 'push-downs go into registered opens only; what they reach is reported' '
	FX3=$PWD/fx3 &&
	make_campaign_fixture "$FX3" &&
	T=$FX3/cache/linux/pristine/drivers/char &&
	printf "obj-\$(CONFIG_GATE)\t\t+= gate.o\nobj-\$(CONFIG_TUNER)\t\t+= tuner.o\n" >>$T/Makefile &&
	cat >$T/gate.h <<-\EOF &&
	struct gate_ops { int (*gate_ctrl)(void *fe, int on); };
	struct gate_dev { const struct gate_ops *ops; };
	EOF
	cat >$T/gate.c <<-\EOF &&
	// SPDX-License-Identifier: GPL-2.0
	#include <linux/fs.h>
	#include "gate.h"

	static int demod_gate_ctrl(void *fe, int on)
	{
		return on;
	}

	const struct gate_ops demod_ops = { .gate_ctrl = demod_gate_ctrl };

	static int gate_open(struct inode *inode, struct file *file)
	{
		struct gate_dev *dev = file->private_data;

		return dev->ops->gate_ctrl(dev, 1);
	}

	static const struct file_operations gate_fops = {
		.owner = THIS_MODULE,
		.open = gate_open,
	};

	static int __init gate_init(void)
	{
		return register_chrdev(242, "gate", &gate_fops);
	}
	module_init(gate_init);
	EOF
	cat >$T/tuner.c <<-\EOF &&
	// SPDX-License-Identifier: GPL-2.0
	#include <linux/fs.h>
	#include "gate.h"

	static int tuner_gate_ctrl(void *fe, int on)
	{
		return 0;
	}

	const struct gate_ops tuner_ops = { .gate_ctrl = tuner_gate_ctrl };
	EOF
	(
		use_campaign_fixture "$FX3" &&
		analyze_fixture "$FX3" "$BKL_DB" &&
		bkl sites --db "$BKL_DB" >sites &&
		grep "^drivers/char/tuner.c:[0-9]*: warning: .tuner_gate_ctrl. runs with the BKL held: gate_ops.gate_ctrl called from gate_open (drivers/char/gate.c:[0-9]*): by type, one of 2$" sites &&
		grep "^drivers/char/gate.c:[0-9]*: warning: .gate_open. .*: entry point$" sites &&
		test_must_fail bkl pushdown tuner 2>err &&
		test_one_line err "^bkl pushdown: error: .tuner. has no registered char device open() or fasync(): tuner_gate_ctrl() is only reached under the BKL, from gate_open() through gate_ops.gate_ctrl (by-type): nothing to push down$" &&
		! test -e "$BKL_REPO/patches/drivers/tuner" &&
		bkl pushdown gate >out &&
		P=$BKL_REPO/patches/drivers/gate/0001-char-gate-push-down-the-BKL-into-open.patch &&
		grep "^Subject: \[PATCH\] char: gate: push down the BKL into open()$" $P &&
		test "$(grep -c "^+.*lock_kernel();" $P)" = 2 &&
		! sed -n "/^Entry points:/,/^Signed/p" $P | grep "demod\|tuner" &&
		! grep "^+.*demod\|tuner" $P &&
		bkl audit-record tuner gate >out &&
		R=$BKL_REPO/drivers-audit/char-and-misc-drivers &&
		grep "^- .tuner_gate_ctrl(). (drivers/char/tuner.c:[0-9]*): reached under the BKL from .gate_open(). (drivers/char/gate.c:[0-9]*) via .gate_ops.gate_ctrl., by type (one of 2)$" $R/tuner.md &&
		grep "^| .gate_open(). | drivers/char/gate.c:[0-9]* | entry: ->open() called by chrdev_open() |" $R/gate.md &&
		analyze_fixture "$FX3" "$BKL_DB" &&
		bkl pushdown --check >out &&
		test_one_line out "^series: 1 push-downs, 1 lock_kernel() added, 0 outside a registered char device open()/fasync(), 0 not in the DB$" &&
		mkdir -p "$BKL_REPO/patches/drivers/tuner" &&
		BAD=drivers/tuner/0001-char-tuner-push-down-the-BKL-into-gate_ctrl.patch &&
		cat >"$BKL_REPO/patches/$BAD" <<-\EOF &&
		From: Camp Aigner <camp@example.org>
		Subject: [PATCH] char: tuner: push down the BKL into gate_ctrl()

		--- a/drivers/char/tuner.c
		+++ b/drivers/char/tuner.c
		@@ -4,5 +4,7 @@

		 static int tuner_gate_ctrl(void *fe, int on)
		 {
		+	lock_kernel();
		+	unlock_kernel();
		 return 0;
		 }
		EOF
		echo "$BAD" >>"$BKL_REPO/patches/series" &&
		analyze_fixture "$FX3" "$BKL_DB" &&
		(bkl pushdown --check >out; test $? = 1) &&
		grep "^patches/$BAD: tuner_gate_ctrl() (drivers/char/tuner.c:5) is no registered char device open()/fasync(): reached through gate_ops.gate_ctrl from gate_open() (by-type, one of 2)$" out &&
		grep "^series: 2 push-downs, 2 lock_kernel() added, 1 outside" out &&
		test_must_fail bkl pushdown --withdraw tuner 2>err &&
		grep "^usage: bkl pushdown" err &&
		bkl pushdown --withdraw --why "tuner_gate_ctrl() is no entry point" tuner >out &&
		test_one_line out "^tuner: withdrew 1 patch$" &&
		! grep tuner "$BKL_REPO/patches/series" &&
		! test -e "$BKL_REPO/patches/drivers/tuner" &&
		grep "	tuner	withdraw	unclaimed		Camp Aigner <camp@example.org>	0001-char-tuner-push-down-the-BKL-into-gate_ctrl.patch withdrawn: tuner_gate_ctrl() is no entry point$" \
			"$BKL_REPO/drivers-audit/campaign.log" &&
		analyze_fixture "$FX3" "$BKL_DB" &&
		bkl pushdown --check >out &&
		grep "^series: 1 push-downs, 1 lock_kernel() added, 0 outside" out
	)
'

test_expect_success 'an open() that another driver registers is a shared helper: refused in one line' '
	FX4=$PWD/fx4 &&
	make_campaign_fixture "$FX4" &&
	T=$FX4/cache/linux/pristine/drivers/char &&
	printf "obj-\$(CONFIG_HELPER)\t\t+= helper.o\nobj-\$(CONFIG_USER)\t\t+= user.o\n" >>$T/Makefile &&
	cat >$T/helper.c <<-\EOF &&
	// SPDX-License-Identifier: GPL-2.0
	#include <linux/fs.h>

	int helper_open(struct inode *inode, struct file *file)
	{
		return 0;
	}
	EOF
	cat >$T/user.c <<-\EOF &&
	// SPDX-License-Identifier: GPL-2.0
	#include <linux/fs.h>

	int helper_open(struct inode *inode, struct file *file);

	static const struct file_operations user_fops = {
		.owner = THIS_MODULE,
		.open = helper_open,
	};

	static int __init user_init(void)
	{
		return register_chrdev(243, "user", &user_fops);
	}
	module_init(user_init);
	EOF
	(
		use_campaign_fixture "$FX4" &&
		analyze_fixture "$FX4" "$BKL_DB" &&
		bkl sites --db "$BKL_DB" >sites &&
		grep "^drivers/char/helper.c:[0-9]*: warning: .helper_open. .*: entry point$" sites &&
		cp "$BKL_REPO/patches/series" series.before &&
		test_must_fail bkl pushdown helper 2>err &&
		test_one_line err "^bkl pushdown: error: .helper.: helper_open() in drivers/char/helper.c is the ->open of file_operations in drivers/char/user.c, none of its own: a shared helper gets no push-down$" &&
		! test -e "$BKL_REPO/patches/drivers/helper" &&
		test_cmp series.before "$BKL_REPO/patches/series" &&
		P=drivers/helper/0001-char-helper-push-down-the-BKL-into-open.patch &&
		mkdir -p "$BKL_REPO/patches/drivers/helper" &&
		printf "%s\n" "Subject: [PATCH] char: helper: push down the BKL into open()" "" "---" \
			"--- a/drivers/char/helper.c" "+++ b/drivers/char/helper.c" "@@ -4,4 +4,6 @@" \
			" int helper_open(struct inode *inode, struct file *file)" " {" \
			"+	lock_kernel();" "+	unlock_kernel();" " 	return 0;" " }" >"$BKL_REPO/patches/$P" &&
		echo "$P" >>"$BKL_REPO/patches/series" &&
		test_must_fail bkl pushdown --check >out &&
		grep "^patches/$P: helper_open() (drivers/char/helper.c:4) is the ->open of file_operations in drivers/char/user.c, none in its own module: a shared helper gets no push-down$" out
	)
'

test_done
