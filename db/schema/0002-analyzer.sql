-- SPDX-License-Identifier: GPL-2.0
-- bkl analyze: the facts of each translation unit (all rows hang off
-- files.id and are replaced together when the file is analyzed again),
-- then what the global pass (bkl analyze without --no-resolve, bkl merge)
-- derives over the whole call graph: implicit sites, coverage evidence,
-- chains.  See db/README.md for the columns and example queries.

CREATE TABLE files (
	id		INTEGER PRIMARY KEY,
	path		TEXT NOT NULL UNIQUE,	-- as given on the command line
	hash		TEXT NOT NULL,		-- FNV-1a of the content, 16 hex digits
	flags		TEXT NOT NULL,		-- the sparse flags, space separated
	status		TEXT NOT NULL CHECK (status IN ('ok', 'error')),
	error		TEXT,			-- sparse's first error when status = 'error'
	unresolved	INTEGER NOT NULL DEFAULT 0, -- calls through non-member pointers
	analyzed_at	TEXT NOT NULL DEFAULT (datetime('now'))
);

-- Every version of a header sparse read: its path, FNV-1a hash, and the
-- mtime (ns) and size it had when hashed, so that an unchanged header is
-- known by stat() alone.  A version no file uses any more is dropped by
-- the global pass.
CREATE TABLE headers (
	id	INTEGER PRIMARY KEY,
	path	TEXT NOT NULL,
	hash	TEXT NOT NULL,
	mtime	INTEGER NOT NULL,
	size	INTEGER NOT NULL,
	UNIQUE (path, hash)
);

-- The headers sparse read for a file (its input streams, -include files first).
CREATE TABLE file_headers (
	file_id		INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
	header_id	INTEGER NOT NULL REFERENCES headers(id),
	PRIMARY KEY (file_id, header_id)
) WITHOUT ROWID;
CREATE INDEX file_headers_header ON file_headers(header_id);

-- ... as one reads them: file (files.path), header path and hash.
CREATE VIEW file_deps AS
	SELECT fh.file_id, f.path AS file, h.path, h.hash
	FROM file_headers fh JOIN files f ON f.id = fh.file_id JOIN headers h ON h.id = fh.header_id;

CREATE TABLE functions (
	file_id	INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
	name	TEXT NOT NULL,
	file	TEXT NOT NULL,		-- where it is defined (files.path, or a file it includes)
	line	INTEGER NOT NULL,
	static	INTEGER NOT NULL,	-- 1: static, known by (file_id, name) only
	inline	INTEGER NOT NULL DEFAULT 0,
	coarse	INTEGER NOT NULL DEFAULT 0,	-- 1: too many paths; branch conditions forgotten
	PRIMARY KEY (file_id, name)
);
CREATE INDEX functions_name ON functions(name);

-- Call edges.  held: may the BKL be held at this call?  'yes' (this
-- function holds it on some path), 'caller' (only if its caller held it),
-- 'no' (not on any path: e.g. released around the call).
CREATE TABLE calls (
	file_id		INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
	caller		TEXT NOT NULL,		-- functions.name, same file_id
	line		INTEGER NOT NULL,
	kind		TEXT NOT NULL CHECK (kind IN ('direct', 'member', 'pointer')),
	callee		TEXT,			-- direct: the function called
	callee_static	INTEGER NOT NULL DEFAULT 0, -- direct: a static function of this file
	struct		TEXT,			-- member: struct tag and member called through
	member		TEXT,
	held		TEXT NOT NULL CHECK (held IN ('no', 'yes', 'caller')),
	gfp		INTEGER			-- allocation primitives: the constant gfp argument
);
CREATE INDEX calls_file ON calls(file_id, caller);
CREATE INDEX calls_member ON calls(struct, member);

-- Function pointers (kind 'function') and tables (kind 'table': a
-- variable's address, as .fops = &foo_fops) stored into struct members,
-- in initializers (function NULL) or assignments.
CREATE TABLE fptr_stores (
	file_id		INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
	struct		TEXT NOT NULL,
	member		TEXT NOT NULL,
	value		TEXT NOT NULL,
	kind		TEXT NOT NULL CHECK (kind IN ('function', 'table')),
	value_static	INTEGER NOT NULL,
	tbl		TEXT,			-- the variable holding the member, NULL through a pointer
	tbl_static	INTEGER NOT NULL DEFAULT 0,
	function	TEXT,
	file		TEXT NOT NULL,
	line		INTEGER NOT NULL
);
CREATE INDEX fptr_stores_file ON fptr_stores(file_id);
CREATE INDEX fptr_stores_member ON fptr_stores(struct, member);

-- A table handed to a registration (register rules in primitives.txt) or
-- stored where it registers (cdev.ops).  With struct/member, tbl is a
-- container (a struct miscdevice) whose member holds the table.
CREATE TABLE registrations (
	file_id		INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
	kind		TEXT NOT NULL,		-- chrdev, misc, ...
	via		TEXT NOT NULL,		-- register_chrdev, cdev.ops, ...
	struct		TEXT,
	member		TEXT,
	tbl		TEXT,			-- NULL: passed through a pointer
	tbl_static	INTEGER NOT NULL DEFAULT 0,
	function	TEXT,
	file		TEXT NOT NULL,
	line		INTEGER NOT NULL
);
CREATE INDEX registrations_file ON registrations(file_id);

-- lock/unlock sites come with their file; implicit sites from the global pass.
CREATE TABLE sites (
	file_id		INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
	file		TEXT NOT NULL,
	line		INTEGER NOT NULL,
	function	TEXT NOT NULL,
	kind		TEXT NOT NULL CHECK (kind IN ('lock', 'unlock', 'implicit')),
	callee		TEXT			-- lock/unlock: the primitive called
);
CREATE INDEX sites_file ON sites(file_id);

CREATE TABLE imbalances (
	file_id		INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
	file		TEXT NOT NULL,
	line		INTEGER NOT NULL,
	function	TEXT NOT NULL,
	kind		TEXT NOT NULL CHECK (kind IN ('return-held', 'unlock-unheld'))
);
CREATE INDEX imbalances_file ON imbalances(file_id);

-- Why an implicit site is covered: the call made with the BKL held, the
-- member it goes through, the table, and (restricted structs) the
-- registration that makes the table reachable.
CREATE TABLE coverage (
	file_id		INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
	function	TEXT NOT NULL,		-- the covered function
	struct		TEXT NOT NULL,
	member		TEXT NOT NULL,
	tbl		TEXT,
	store_file	TEXT NOT NULL,
	store_line	INTEGER NOT NULL,
	via_file	TEXT NOT NULL,		-- the call made with the BKL held
	via_line	INTEGER NOT NULL,
	via_function	TEXT NOT NULL,
	reg_kind	TEXT,
	reg_via		TEXT,
	reg_file	TEXT,
	reg_line	INTEGER
);
CREATE INDEX coverage_file ON coverage(file_id);

-- The implicit sites with their evidence, as one might look for them.
CREATE VIEW implicit AS
	SELECT s.file, s.line, s.function, c.struct, c.member, c.tbl,
	       c.via_function, c.via_file, c.via_line, c.reg_kind, c.reg_via, c.reg_file, c.reg_line
	FROM sites s LEFT JOIN coverage c ON c.file_id = s.file_id AND c.function = s.function
	WHERE s.kind = 'implicit';

-- From a call made with the BKL held to a sleeping (or waiting) primitive,
-- the shortest path per site and class.  path: JSON array of function names.
CREATE TABLE chains (
	id		INTEGER PRIMARY KEY,
	file_id		INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
	file		TEXT NOT NULL,
	line		INTEGER NOT NULL,
	function	TEXT NOT NULL,
	class		TEXT NOT NULL CHECK (class IN ('sleep', 'wait')),
	path		TEXT NOT NULL
);
CREATE INDEX chains_file ON chains(file_id);

-- The evidence: step N is function N of the path and, but for the last,
-- the file:line where it calls function N+1.
CREATE TABLE chain_steps (
	chain_id	INTEGER NOT NULL REFERENCES chains(id) ON DELETE CASCADE,
	step		INTEGER NOT NULL,
	function	TEXT NOT NULL,
	file		TEXT,
	line		INTEGER,
	PRIMARY KEY (chain_id, step)
) WITHOUT ROWID;

-- Calls through pointers the global pass could not resolve (member
-- calls with no stored function, and non-member pointers): the count the
-- analysis does not silently drop.  Also meta 'analyzer.unresolved'.
CREATE VIEW unresolved_calls AS
	SELECT f.path AS file, c.line, c.caller AS function, c.kind, c.struct, c.member, c.held
	FROM calls c JOIN files f ON f.id = c.file_id
	WHERE c.kind = 'pointer'
	   OR (c.kind = 'member' AND NOT EXISTS (SELECT 1 FROM fptr_stores s
		WHERE s.struct = c.struct AND s.member = c.member AND s.kind = 'function'));
