-- SPDX-License-Identifier: GPL-2.0
-- The files the global pass has not seen yet.  Every files row inserted
-- or deleted (an analysis, a merged shard, a file gone from the tree)
-- leaves its id here; the global pass reads the rows of those files
-- only, takes the other files' facts from its snapshot of the last pass
-- (DB.graph-LOCK, analyzer/gcache.c), and empties the table in the
-- transaction that writes its results.  A file's facts are written only
-- with its files row (analyzer/store.c, merge.c), so nothing else
-- changes what the snapshot holds.
CREATE TABLE global_dirty (
	file_id		INTEGER PRIMARY KEY
);
CREATE TRIGGER files_dirty_insert AFTER INSERT ON files BEGIN
	INSERT OR IGNORE INTO global_dirty (file_id) VALUES (new.id);
END;
CREATE TRIGGER files_dirty_delete AFTER DELETE ON files BEGIN
	INSERT OR IGNORE INTO global_dirty (file_id) VALUES (old.id);
END;
