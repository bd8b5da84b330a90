-- SPDX-License-Identifier: GPL-2.0
-- A correction ('bkl log --correct') is a step of its own that says which
-- earlier steps it corrects and how; the history is never rewritten.  It
-- moves the driver nowhere: a driver's state is its latest other step.
DROP VIEW campaign_state;
CREATE VIEW campaign_state AS
SELECT l.driver, l.status, l.holder, l.ts AS since, l.who, l.note
FROM campaign_log l
WHERE l.id = (SELECT m.id FROM campaign_log m WHERE m.driver = l.driver
	      AND m.action <> 'correct' ORDER BY m.ts DESC, m.id DESC LIMIT 1);
