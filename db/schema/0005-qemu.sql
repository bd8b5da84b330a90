-- SPDX-License-Identifier: GPL-2.0
-- bkl test: one row per boot of a driver's test kernel, before or after
-- its conversion.  The console log it points to is a copy kept in
-- $BKL_CACHE/qemu/logs/, never overwritten by a later run.
CREATE TABLE qemu_results (
	id		INTEGER PRIMARY KEY,
	driver		TEXT NOT NULL,		-- the campaign's driver, or a control's name
	phase		TEXT NOT NULL CHECK (phase IN ('before', 'after')),
	result		TEXT NOT NULL CHECK (result IN ('pass', 'fail', 'timeout', 'build-failed')),
	at		TEXT NOT NULL,		-- ISO 8601, UTC
	kernel		TEXT,			-- config + series key of the kernel booted
	series		TEXT,			-- hash of the part of patches/series applied
	accel		TEXT,			-- tcg, kvm
	build_seconds	REAL,
	boot_seconds	REAL,
	log		TEXT,			-- the console (or build) log
	detail		TEXT NOT NULL DEFAULT ''	-- the exerciser's summary, or the first problem
);
CREATE INDEX qemu_results_driver ON qemu_results(driver, at);
