-- SPDX-License-Identifier: GPL-2.0
-- Imbalances that depend on how a function is entered.  A function
-- whose callers hold the lock may drop it: its unlock is not
-- "unlock-unheld" then; and a return with the lock released while
-- another path balances is "return-released" (a new kind) when it is
-- entered with the lock held (its callers hold it, or coverage says so).
-- The analysis of a file writes these candidates to entry_imbalances;
-- the global pass writes those that stand into imbalances with entry
-- set ('held': the function is entered with the lock held; 'unheld': it
-- is not known to be), after deleting the rows it wrote before.  Until
-- the global pass runs, imbalances has a file's 'unheld' rows (what it
-- said before this version).  entry NULL: stands however it is entered.
--
-- imbalances is rebuilt for its new kind (migrations run with foreign
-- keys off: the drop cascades nowhere).
CREATE TABLE imbalances_new (
	file_id		INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
	file		TEXT NOT NULL,
	line		INTEGER NOT NULL,
	function	TEXT NOT NULL,
	kind		TEXT NOT NULL CHECK (kind IN ('return-held', 'unlock-unheld',
						      'return-released')),
	lock		TEXT NOT NULL DEFAULT 'bkl',
	entry		TEXT CHECK (entry IN ('held', 'unheld'))
);
INSERT INTO imbalances_new (file_id, file, line, function, kind, lock)
	SELECT file_id, file, line, function, kind, lock FROM imbalances;
DROP TABLE imbalances;
ALTER TABLE imbalances_new RENAME TO imbalances;
CREATE INDEX imbalances_file ON imbalances(file_id);

CREATE TABLE entry_imbalances (
	file_id		INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
	file		TEXT NOT NULL,
	line		INTEGER NOT NULL,
	function	TEXT NOT NULL,
	kind		TEXT NOT NULL CHECK (kind IN ('unlock-unheld', 'return-released')),
	entry		TEXT NOT NULL CHECK (entry IN ('held', 'unheld')),
	lock		TEXT NOT NULL DEFAULT 'bkl'
);
CREATE INDEX entry_imbalances_file ON entry_imbalances(file_id);
