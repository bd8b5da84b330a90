-- SPDX-License-Identifier: GPL-2.0
-- Several locks in one DB: bkl analyze --lock-profile rtnl stores its
-- facts next to the BKL's.  A file analyzed for a lock has its own files
-- row, keyed by (path, lock), and every fact hanging off it is that
-- lock's; sites, imbalances, coverage and chains also say it in a lock
-- column.  lock is the lock profile's name (analyzer/profiles/): 'bkl',
-- 'bkl-2.6', 'rtnl', 'console', 'tty'.  What a DB held before is the BKL's.
--
-- files is rebuilt for its new key (db.c applies migrations with foreign
-- keys off, so that dropping the old table cascades nowhere); the views
-- over it are made again.
DROP VIEW file_deps;
DROP VIEW unresolved_calls;

CREATE TABLE files_new (
	id		INTEGER PRIMARY KEY,
	path		TEXT NOT NULL,		-- as given on the command line
	lock		TEXT NOT NULL DEFAULT 'bkl',	-- the lock profile analyzed for
	hash		TEXT NOT NULL,		-- FNV-1a of the content, 16 hex digits
	flags		TEXT NOT NULL,		-- the sparse flags, space separated
	status		TEXT NOT NULL CHECK (status IN ('ok', 'error')),
	error		TEXT,			-- sparse's first error when status = 'error'
	unresolved	INTEGER NOT NULL DEFAULT 0, -- calls through non-member pointers
	analyzed_at	TEXT NOT NULL DEFAULT (datetime('now')),
	UNIQUE (path, lock)
);
INSERT INTO files_new (id, path, lock, hash, flags, status, error, unresolved, analyzed_at)
	SELECT id, path, 'bkl', hash, flags, status, error, unresolved, analyzed_at FROM files;
DROP TABLE files;
ALTER TABLE files_new RENAME TO files;
CREATE INDEX files_lock ON files(lock);

CREATE VIEW file_deps AS
	SELECT fh.file_id, f.path AS file, h.path, h.hash
	FROM file_headers fh JOIN files f ON f.id = fh.file_id JOIN headers h ON h.id = fh.header_id;

CREATE VIEW unresolved_calls AS
	SELECT f.path AS file, c.line, c.caller AS function, c.kind, c.struct, c.member, c.held,
	       f.lock
	FROM calls c JOIN files f ON f.id = c.file_id
	WHERE c.kind = 'pointer'
	   OR (c.kind = 'member' AND NOT EXISTS (SELECT 1 FROM fptr_stores s
		JOIN files sf ON sf.id = s.file_id AND sf.lock = f.lock
		WHERE s.struct = c.struct AND s.member = c.member AND s.kind = 'function'));

ALTER TABLE sites ADD COLUMN lock TEXT NOT NULL DEFAULT 'bkl';
ALTER TABLE imbalances ADD COLUMN lock TEXT NOT NULL DEFAULT 'bkl';
ALTER TABLE coverage ADD COLUMN lock TEXT NOT NULL DEFAULT 'bkl';
ALTER TABLE chains ADD COLUMN lock TEXT NOT NULL DEFAULT 'bkl';
CREATE INDEX sites_lock ON sites(lock, file, line);
CREATE INDEX chains_lock ON chains(lock, file, line);
