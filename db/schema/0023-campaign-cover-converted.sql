-- SPDX-License-Identifier: GPL-2.0
-- A follower stands where its parent stands, up to "converted": it leaves
-- the BKL with its parent's conversion, but tested and done are its own
-- (a QEMU test of it, a verdict a person confirmed: campaign/settle.c),
-- not its parent's.  A blocked parent still blocks it.
DROP VIEW campaign_cover;
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
       CASE WHEN p.r = 7 AND k.r < 4 THEN 'blocked'
	    WHEN p.r >= 2 AND min(p.r, 4) > k.r AND k.r < 4
	    THEN (SELECT status FROM rank WHERE r = min(p.r, 4))
	    ELSE k.status END AS status
FROM campaign_drivers d LEFT JOIN fol f ON f.driver = d.driver
LEFT JOIN via v ON v.driver = d.driver
LEFT JOIN par p ON p.driver = d.driver
LEFT JOIN campaign_state s ON s.driver = d.driver
JOIN rank k ON k.status = coalesce(s.status, 'unclaimed');
