-- SPDX-License-Identifier: GPL-2.0
-- A function that takes the lock on every path and is reached through a
-- table (an ->unlocked_ioctl that forgets its unlock_kernel()) leaks it
-- on every call: its returns are return-held candidates with entry
-- 'stored' (analyzer/check_imbalance.c), which the global pass keeps
-- when a table holds the function and no function of that table releases
-- the lock (seq_operations' ->start and ->stop pair up: entry.c).
--
-- functions.context_in/_out: sparse's context annotation of the function
-- on the lock (__acquires: 0, 1; __releases: 1, 0; __must_hold: 1, 1),
-- NULL when it has none: the global pass takes in >= 1 as evidence that
-- the function is entered with the lock held, static or not.
--
-- imbalances and entry_imbalances are rebuilt for the new entry (and
-- kind) their CHECKs allow; migrations run with foreign keys off.
CREATE TABLE imbalances_new (
	file_id		INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
	file		TEXT NOT NULL,
	line		INTEGER NOT NULL,
	function	TEXT NOT NULL,
	kind		TEXT NOT NULL CHECK (kind IN ('return-held', 'unlock-unheld',
						      'return-released')),
	lock		TEXT NOT NULL DEFAULT 'bkl',
	entry		TEXT CHECK (entry IN ('held', 'unheld', 'stored'))
);
INSERT INTO imbalances_new (file_id, file, line, function, kind, lock, entry)
	SELECT file_id, file, line, function, kind, lock, entry FROM imbalances;
DROP TABLE imbalances;
ALTER TABLE imbalances_new RENAME TO imbalances;
CREATE INDEX imbalances_file ON imbalances(file_id);

CREATE TABLE entry_imbalances_new (
	file_id		INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
	file		TEXT NOT NULL,
	line		INTEGER NOT NULL,
	function	TEXT NOT NULL,
	kind		TEXT NOT NULL CHECK (kind IN ('unlock-unheld', 'return-released',
						      'return-held')),
	entry		TEXT NOT NULL CHECK (entry IN ('held', 'unheld', 'stored')),
	lock		TEXT NOT NULL DEFAULT 'bkl'
);
INSERT INTO entry_imbalances_new (file_id, file, line, function, kind, entry, lock)
	SELECT file_id, file, line, function, kind, entry, lock FROM entry_imbalances;
DROP TABLE entry_imbalances;
ALTER TABLE entry_imbalances_new RENAME TO entry_imbalances;
CREATE INDEX entry_imbalances_file ON entry_imbalances(file_id);

ALTER TABLE functions ADD COLUMN context_in INTEGER;
ALTER TABLE functions ADD COLUMN context_out INTEGER;
