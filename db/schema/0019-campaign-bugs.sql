-- SPDX-License-Identifier: GPL-2.0
-- A bug the audit found in the tree itself (a race in 6.1's own code, its
-- fix the driver's conversion): a step of its own, action 'bug', whose
-- note says what and where ('bkl audit-record --bug').  Like a
-- correction, it moves the driver nowhere.
DROP VIEW campaign_state;
CREATE VIEW campaign_state AS
SELECT l.driver, l.status, l.holder, l.ts AS since, l.who, l.note
FROM campaign_log l
WHERE l.id = (SELECT m.id FROM campaign_log m WHERE m.driver = l.driver
	      AND m.action NOT IN ('correct', 'bug') ORDER BY m.ts DESC, m.id DESC LIMIT 1);

CREATE VIEW campaign_bugs AS
SELECT driver, ts, who, note FROM campaign_log WHERE action = 'bug';
