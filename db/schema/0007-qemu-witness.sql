-- SPDX-License-Identifier: GPL-2.0
-- bkl test's witness: for one boot of qemu_results, how often each
-- function took the BKL while the exerciser ran (CONFIG_BKL_DEBUG's
-- /sys/kernel/debug/bkl/acquirers, reset before the exercise and printed
-- after it).  pushed_down marks the driver's ->open() entry points named
-- by its push-down, which must have a count before the conversion and 0
-- after it; they have a row even when they took the BKL 0 times.
CREATE TABLE IF NOT EXISTS qemu_witness (
	result_id	INTEGER NOT NULL REFERENCES qemu_results(id) ON DELETE CASCADE,
	function	TEXT NOT NULL,		-- "nvram_misc_open", as the kernel's %ps prints it
	count		INTEGER NOT NULL CHECK (count >= 0),
	pushed_down	INTEGER NOT NULL DEFAULT 0 CHECK (pushed_down IN (0, 1)),
	PRIMARY KEY (result_id, function)
);
