-- SPDX-License-Identifier: GPL-2.0
-- bkl audit's bookkeeping for incremental runs (builtin/audit.c).
--
-- audit_stamps: the size and mtime at which bkl last hashed a source file
-- or header, so that an unchanged file is known by stat() alone and only
-- a file whose mtime moved is read and hashed again.  The hash is then
-- compared with the one the analyzer recorded when it read the file.
CREATE TABLE audit_stamps (
	path	TEXT PRIMARY KEY,	-- as the analyzer names it (tree-relative or absolute)
	mtime	INTEGER NOT NULL,	-- nanoseconds
	size	INTEGER NOT NULL,
	hash	TEXT NOT NULL		-- FNV-1a of the content, 16 hex digits
);

-- audit_files: what bkl audit last ran the analyzer on, with which flags
-- and content, and how it went: a file whose flags, content and headers
-- are unchanged is not analyzed again, whether it parsed or not.
CREATE TABLE audit_files (
	path		TEXT PRIMARY KEY,	-- tree-relative .c file
	flags_hash	TEXT NOT NULL,		-- FNV-1a of the flags it was analyzed with
	src_hash	TEXT NOT NULL,		-- FNV-1a of its content then
	status		TEXT NOT NULL CHECK (status IN ('ok', 'error', 'crash')),
	error		TEXT,			-- the first error line when not ok
	analyzed_at	INTEGER NOT NULL	-- unix time
);
