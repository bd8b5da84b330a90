-- SPDX-License-Identifier: GPL-2.0
-- Inlined calls (analyzer/inlined.c).  sparse inlines a static inline
-- into its caller: the body's calls are the caller's, at the line the
-- caller called the inline, its branches already narrowed by the
-- constants passed.
--   inlined      1: the call of an inline as the user wrote it (a row
--                kept because a rule names the inline: fsleep); its
--                body's calls are rows of their own, so a sleep rule
--                does not end a chain there: the body's branches do
--   inline_path  a call made inside an inlined body: the inlines it is
--                in, outermost first, each with where it makes the next
--                call ("fsleep include/linux/delay.h:60;usleep_range
--                include/linux/delay.h:48"); NULL: the caller's own call,
--                or a file analyzed before this version
-- Chain steps through an inline have the edge 'inlined': chain_steps is
-- rebuilt for its CHECK, and the next global pass redoes the chains.
ALTER TABLE calls ADD COLUMN inlined INTEGER NOT NULL DEFAULT 0;
ALTER TABLE calls ADD COLUMN inline_path TEXT;
DELETE FROM chains;
DROP TABLE chain_steps;
CREATE TABLE chain_steps (
	chain_id	INTEGER NOT NULL REFERENCES chains(id) ON DELETE CASCADE,
	step		INTEGER NOT NULL,
	function	TEXT NOT NULL,
	file		TEXT,
	line		INTEGER,
	edge		TEXT CHECK (edge IN ('direct', 'registered', 'table', 'by-type',
				'work', 'thread', 'queued', 'inlined')),
	candidates	INTEGER,
	PRIMARY KEY (chain_id, step)
) WITHOUT ROWID;
INSERT OR REPLACE INTO meta (key, value) VALUES ('analyzer.resolved', '0');
