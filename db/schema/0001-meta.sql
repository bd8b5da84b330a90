-- SPDX-License-Identifier: GPL-2.0
-- Facts about a DB itself: which tree, which config, which bkl wrote it.
CREATE TABLE meta (
	key	TEXT PRIMARY KEY,
	value	TEXT NOT NULL
);
