-- SPDX-License-Identifier: GPL-2.0
-- bkl audit's plan while it runs: the files it has yet to analyze, in the
-- order it takes them.  A file leaves the table when its batch is merged,
-- so a killed audit resumes with what is left, and every reader of the DB
-- (pick, drivers, report, serve) can say how complete the analysis is.
-- meta holds audit.total (the files the audit covers), audit.state
-- (running, stopped, complete) and audit.pid.
CREATE TABLE IF NOT EXISTS audit_pending (
	path	TEXT PRIMARY KEY,		-- tree-relative .c file
	tier	INTEGER NOT NULL		-- 0 first: see lib/audit-order.c
);
