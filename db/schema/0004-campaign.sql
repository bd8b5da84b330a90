-- SPDX-License-Identifier: GPL-2.0
-- The campaign: which driver (Kbuild module) owns the BKL-covered code, and
-- every step taken on it.  campaign_drivers is derived from the analyzer's
-- facts and the tree (re-made whenever they change); campaign_log is the
-- history, mirrored line by line in drivers-audit/campaign.log in the
-- repository, so rebuilding the DB from the tree loses none of it.
CREATE TABLE campaign_drivers (
	driver		TEXT PRIMARY KEY,	-- the module name, qualified when not unique
	module		TEXT NOT NULL,		-- "nvram", "rtc-core"
	config		TEXT NOT NULL,		-- "CONFIG_NVRAM"; "y" when always built
	dir		TEXT NOT NULL,		-- the Makefile's directory
	subsystem	TEXT NOT NULL,		-- MAINTAINERS section title
	maintainers	TEXT NOT NULL DEFAULT '',	-- its M: lines, joined by "; "
	lists		TEXT NOT NULL DEFAULT ''	-- its L: lines, joined by "; "
);

CREATE TABLE campaign_driver_files (
	driver	TEXT NOT NULL REFERENCES campaign_drivers(driver) ON DELETE CASCADE,
	file	TEXT NOT NULL,			-- tree-relative .c file
	PRIMARY KEY (driver, file)
);
CREATE INDEX campaign_driver_files_file ON campaign_driver_files(file);

CREATE TABLE campaign_log (
	id	INTEGER PRIMARY KEY,
	ts	TEXT NOT NULL,			-- ISO 8601, UTC: 2024-05-01T12:00:00Z
	driver	TEXT NOT NULL,
	action	TEXT NOT NULL,			-- claim unclaim status pushdown audit convert
	status	TEXT NOT NULL CHECK (status IN ('unclaimed', 'claimed', 'pushed-down',
			'audited', 'converted', 'tested', 'done', 'blocked')),
	holder	TEXT NOT NULL DEFAULT '',	-- who holds the driver after this step
	who	TEXT NOT NULL,			-- who took the step
	note	TEXT NOT NULL DEFAULT '',
	UNIQUE (ts, driver, action, status, holder, who, note)
);
CREATE INDEX campaign_log_driver ON campaign_log(driver, ts, id);

-- The state of each driver with a history: its latest step.
CREATE VIEW campaign_state AS
SELECT l.driver, l.status, l.holder, l.ts AS since, l.who, l.note
FROM campaign_log l
WHERE l.id = (SELECT m.id FROM campaign_log m WHERE m.driver = l.driver
	      ORDER BY m.ts DESC, m.id DESC LIMIT 1);
