-- SPDX-License-Identifier: GPL-2.0
-- How the audited configuration takes each .c file bkl audit walked
-- (lib/kbuild-flags.h): F built; O listed under an option that is off;
-- D listed nowhere, analyzed with its directory's flags; I #included by
-- another .c file; H a host program, not analyzed.  Rewritten for every
-- file a run walks.
CREATE TABLE audit_kinds (
	path	TEXT PRIMARY KEY,	-- tree-relative .c file
	kind	TEXT NOT NULL CHECK (kind IN ('F', 'O', 'D', 'I', 'H'))
) WITHOUT ROWID;

-- The chains that run through a file the configuration does not build
-- (O or D): sonypi.c is X86_32 only, yet an x86_64 audit analyzes it.
-- Its chain may be real on another configuration, but it is not in the
-- kernel that was audited, so `bkl chains --precise` leaves it out.
CREATE VIEW chains_unbuilt AS
	SELECT c.id AS chain_id, c.file FROM chains c
	JOIN audit_kinds k ON k.path = c.file AND k.kind IN ('O', 'D')
	UNION
	SELECT s.chain_id, s.file FROM chain_steps s
	JOIN audit_kinds k ON k.path = s.file AND k.kind IN ('O', 'D');
