-- SPDX-License-Identifier: GPL-2.0
-- Why a chain's first call runs under the lock: 'held' (its function
-- takes the lock itself on a path to the call), 'covered' (the function
-- is covered, through registered tables, tables the code names or a char
-- device's entry point, back to a function that holds it) or 'by-type' (some call
-- on that coverage was resolved by the member's type alone; chains.by_type
-- counts those calls too).  NULL on chains stored before this version.
ALTER TABLE chains ADD COLUMN origin TEXT
	CHECK (origin IN ('held', 'covered', 'by-type'));
