-- SPDX-License-Identifier: GPL-2.0
-- A member call whose object sparse knows is a variable (`a_ops =
-- &udf_aops; a_ops->writepage()`): calls.tbl names it, and the call
-- reaches only what that table holds.  NULL: not known (any object, or a
-- file analyzed before this version: `bkl audit --force` redoes it).
ALTER TABLE calls ADD COLUMN tbl TEXT;
ALTER TABLE calls ADD COLUMN tbl_static INTEGER NOT NULL DEFAULT 0;

-- Such a call is an edge of its own kind, 'table'.  coverage and
-- chain_steps are derived: made again with the new kind allowed, and
-- filled by the next global pass.
DROP VIEW implicit;
DROP TABLE coverage;
CREATE TABLE coverage (
	file_id		INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
	function	TEXT NOT NULL,		-- the covered function
	struct		TEXT NOT NULL,
	member		TEXT NOT NULL,
	tbl		TEXT,
	store_file	TEXT NOT NULL,
	store_line	INTEGER NOT NULL,
	via_file	TEXT NOT NULL,		-- the call made with the lock held
	via_line	INTEGER NOT NULL,
	via_function	TEXT NOT NULL,
	reg_kind	TEXT,
	reg_via		TEXT,
	reg_file	TEXT,
	reg_line	INTEGER,
	entry		INTEGER NOT NULL DEFAULT 0,
	edge		TEXT NOT NULL DEFAULT 'by-type'
			CHECK (edge IN ('registered', 'table', 'by-type')),
	candidates	INTEGER NOT NULL DEFAULT 0,
	lock		TEXT NOT NULL DEFAULT 'bkl'
);
CREATE INDEX coverage_file ON coverage(file_id);
CREATE VIEW implicit AS
	SELECT s.file, s.line, s.function, c.struct, c.member, c.tbl,
	       c.via_function, c.via_file, c.via_line, c.reg_kind, c.reg_via, c.reg_file, c.reg_line,
	       c.entry, c.edge, c.candidates
	FROM sites s LEFT JOIN coverage c ON c.file_id = s.file_id AND c.function = s.function
	WHERE s.kind = 'implicit';

DROP TABLE chain_steps;
CREATE TABLE chain_steps (
	chain_id	INTEGER NOT NULL REFERENCES chains(id) ON DELETE CASCADE,
	step		INTEGER NOT NULL,
	function	TEXT NOT NULL,
	file		TEXT,
	line		INTEGER,
	edge		TEXT CHECK (edge IN ('direct', 'registered', 'table', 'by-type')),
	candidates	INTEGER,
	PRIMARY KEY (chain_id, step)
) WITHOUT ROWID;
DELETE FROM chains;
DELETE FROM sites WHERE kind = 'implicit';
INSERT OR REPLACE INTO meta (key, value) VALUES ('analyzer.resolved', '0');
