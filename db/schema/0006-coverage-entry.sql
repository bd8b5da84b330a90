-- SPDX-License-Identifier: GPL-2.0
-- What kind of call covers a function, and whether it is an entry point.
--  entry:      1 when the BKL reaches it as the ->open or ->fasync of a
--              file_operations table registered as a char device (the
--              registration the DB holds is reg_*): what chrdev_open(),
--              misc_open() and fasync called under the BKL, where a
--              push-down goes.  0: only reached under the BKL (covered
--              transitively, reported, never patched).
--  edge:       'registered' (a restricted or dispatching call, through a
--              registration the DB holds) or 'by-type' (every function
--              stored in that struct member anywhere).
--  candidates: how many functions the covering call may reach.
ALTER TABLE coverage ADD COLUMN entry INTEGER NOT NULL DEFAULT 0;
ALTER TABLE coverage ADD COLUMN edge TEXT NOT NULL DEFAULT 'by-type'
	CHECK (edge IN ('registered', 'by-type'));
ALTER TABLE coverage ADD COLUMN candidates INTEGER NOT NULL DEFAULT 0;

DROP VIEW implicit;
CREATE VIEW implicit AS
	SELECT s.file, s.line, s.function, c.struct, c.member, c.tbl,
	       c.via_function, c.via_file, c.via_line, c.reg_kind, c.reg_via, c.reg_file, c.reg_line,
	       c.entry, c.edge, c.candidates
	FROM sites s LEFT JOIN coverage c ON c.file_id = s.file_id AND c.function = s.function
	WHERE s.kind = 'implicit';

-- the rows above were derived without these columns: derive them again
INSERT OR REPLACE INTO meta (key, value) VALUES ('analyzer.resolved', '0');
