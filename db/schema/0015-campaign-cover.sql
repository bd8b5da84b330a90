-- SPDX-License-Identifier: GPL-2.0
-- How the BKL reaches each of the campaign's drivers, from the coverage
-- the global pass found (views: always as current as coverage is).
--
-- campaign_cover_edges: one row per coverage row of a driver's function,
-- with the driver whose files hold the covering call (parent; NULL when
-- that call is in no driver's files, as chrdev_call_open() in fs/ is),
-- and whether the table the function is stored in is in the driver's own
-- files (own_table: not so for nonseekable_open(), a helper fs/open.c
-- lends to ublk's table).
-- Paths are made tree-relative with the tree bkl audit recorded.
CREATE VIEW campaign_cover_edges AS
WITH t AS (
	SELECT coalesce((SELECT value FROM meta WHERE key IN ('audit.tree', 'tree')
			 ORDER BY key = 'tree' LIMIT 1), '') AS tree
), r AS (
	SELECT c.function, c.entry, c.edge, c.struct, c.member, c.via_function, c.store_file,
	       CASE WHEN t.tree <> '' AND substr(f.path, 1, length(t.tree) + 1) = t.tree || '/'
		    THEN substr(f.path, length(t.tree) + 2) ELSE f.path END AS file,
	       CASE WHEN t.tree <> '' AND substr(c.via_file, 1, length(t.tree) + 1) = t.tree || '/'
		    THEN substr(c.via_file, length(t.tree) + 2) ELSE c.via_file END AS via_file
	FROM coverage c JOIN files f ON f.id = c.file_id, t
)
SELECT df.driver, r.function, r.entry, r.edge, r.struct, r.member, r.via_function,
       r.via_file, pf.driver AS parent,
       EXISTS (SELECT 1 FROM campaign_driver_files sf WHERE sf.driver = df.driver
	       AND sf.file = r.store_file) AS own_table
FROM r JOIN campaign_driver_files df ON df.file = r.file
LEFT JOIN campaign_driver_files pf ON pf.file = r.via_file;

-- campaign_cover: each driver's class.
--   own       it has an entry point of its own (a registered char device's
--             open/fasync the BKL is taken around, in a table of its own
--             files: the push-down's place),
--             or lock_kernel() in its files: a campaign item
--   follows   reached only from another driver's own entry point
--             (v4l2_open() calls a V4L2 driver's open, tty_open() a tty
--             driver's): it leaves the BKL when that parent does
--   possibly  reached only from code that is neither: through a by-type
--             edge a driver with no entry point of its own makes (the
--             sensor's s_power from any bridge that calls it): listed,
--             not counted as under the BKL
-- follows: the parents, joined by "; "; via: the covering calls,
-- "via_function -> struct.member (edge)", for the drivers not own.
-- status: where the driver stands.  A follower stands where its least
-- advanced parent does once that parent has its push-down, until it has
-- a status of its own further on (v4l2_open() leaving the BKL takes every
-- V4L2 driver with it; a follower converted on its own stays converted).
CREATE VIEW campaign_cover AS
WITH e AS MATERIALIZED (
	SELECT * FROM campaign_cover_edges
), own AS MATERIALIZED (
	SELECT driver FROM e WHERE entry = 1 AND own_table
	UNION
	SELECT df.driver FROM sites s JOIN campaign_driver_files df ON df.file = s.file
	WHERE s.kind = 'lock'
), fol AS (
	SELECT driver, group_concat(parent, '; ') AS follows FROM (
		SELECT DISTINCT driver, parent FROM e
		WHERE parent <> driver AND parent IN own AND driver NOT IN own
		ORDER BY driver, parent)
	GROUP BY driver
), via AS (
	SELECT driver, group_concat(v, '; ') AS via FROM (
		SELECT DISTINCT driver, via_function || ' -> ' || struct || '.' || member ||
		       ' (' || edge || ')' AS v FROM e
		WHERE driver NOT IN own ORDER BY driver, v)
	GROUP BY driver
), rank(status, r) AS (
	VALUES ('unclaimed', 0), ('claimed', 1), ('pushed-down', 2), ('audited', 3),
	       ('converted', 4), ('tested', 5), ('done', 6), ('blocked', 7)
), par AS (
	SELECT p.driver, min(k.r) AS r FROM (
		SELECT DISTINCT driver, parent FROM e
		WHERE parent <> driver AND parent IN own AND driver NOT IN own) p
	LEFT JOIN campaign_state s ON s.driver = p.parent
	JOIN rank k ON k.status = coalesce(s.status, 'unclaimed')
	GROUP BY p.driver
)
SELECT d.driver,
       CASE WHEN d.driver IN own THEN 'own'
	    WHEN f.follows IS NOT NULL THEN 'follows'
	    ELSE 'possibly' END AS cover,
       f.follows, v.via,
       CASE WHEN p.r >= 2 AND p.r > k.r AND k.r < 4
	    THEN (SELECT status FROM rank WHERE r = p.r)
	    ELSE k.status END AS status
FROM campaign_drivers d LEFT JOIN fol f ON f.driver = d.driver
LEFT JOIN via v ON v.driver = d.driver
LEFT JOIN par p ON p.driver = d.driver
LEFT JOIN campaign_state s ON s.driver = d.driver
JOIN rank k ON k.status = coalesce(s.status, 'unclaimed');
