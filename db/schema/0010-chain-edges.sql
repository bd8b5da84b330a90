-- SPDX-License-Identifier: GPL-2.0
-- How each call of a chain was resolved, as coverage.edge says it for
-- implicit sites: 'direct' (a call by name), 'registered' (through a
-- member whose table reaches the call through a registration the DB
-- holds) or 'by-type' (every function stored in that struct member
-- anywhere: candidates of them).  NULL on a chain's last step, and on
-- chains stored before this version (the next global pass redoes them).
ALTER TABLE chain_steps ADD COLUMN edge TEXT
	CHECK (edge IN ('direct', 'registered', 'by-type'));
ALTER TABLE chain_steps ADD COLUMN candidates INTEGER;
-- The chain's by-type calls: 0 is a chain `bkl chains --precise` shows;
-- NULL, not known (stored before this version).
ALTER TABLE chains ADD COLUMN by_type INTEGER;
