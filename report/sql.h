/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BKL_REPORT_SQL_H
#define BKL_REPORT_SQL_H

/*
 * Every statement the report and the dashboard run, in one place, against
 * the analyzer's and the campaign's tables.  Constant SQL, named binds:
 * @sub and @drv are the scope (NULL = any).  A site belongs to a driver
 * through the driver's files.
 */

static const char *const sql_campaign_tables[] = {
	"campaign_drivers", "campaign_driver_files", "campaign_state", NULL };
static const char *const sql_sites_tables[] = { "sites", "coverage", NULL };
static const char *const sql_imbalances_tables[] = { "imbalances", NULL };
static const char *const sql_chains_tables[] = { "chains", "chain_steps", NULL };
static const char *const sql_history_tables[] = { "campaign_log", NULL };
static const char *const sql_qemu_tables[] = { "qemu_results", NULL };
static const char *const sql_bugs_tables[] = { "campaign_bugs", NULL };
static const char *const sql_cover_tables[] = { "campaign_cover", "coverage", NULL };

#define SQL_SCOPE \
	" (@sub IS NULL OR d.subsystem = @sub) AND (@drv IS NULL OR d.driver = @drv) "

/* bkl audit records the tree it analyzed */
#define SQL_META_TREE \
	"SELECT value FROM meta WHERE key IN ('audit.tree', 'tree') ORDER BY key = 'tree' LIMIT 1"

/*
 * The analyzer names files as it was given them: tree-relative when bkl
 * audit runs it (from the tree's top), absolute when run by hand.  Both
 * are made tree-relative (@tree) to meet the campaign's driver files.
 */
#define SQL_REL(c) \
	"(CASE WHEN @tree IS NOT NULL AND substr(" c ", 1, length(@tree) + 1) = @tree || '/' " \
	"THEN substr(" c ", length(@tree) + 2) ELSE " c " END)"

#define SQL_DRIVER_EXISTS \
	"SELECT 1 FROM campaign_drivers d WHERE d.driver = @drv"
#define SQL_SUBSYSTEM_EXISTS \
	"SELECT 1 FROM campaign_drivers d WHERE d.subsystem = @sub LIMIT 1"

/* a driver with no history is unclaimed; nobody holds it when holder is '' */
#define SQL_DRIVERS \
	"SELECT d.driver, d.subsystem, coalesce(s.status, 'unclaimed'), d.module, d.config, " \
	"nullif(s.holder, ''), s.since, d.maintainers, d.lists " \
	"FROM campaign_drivers d LEFT JOIN campaign_state s ON s.driver = d.driver " \
	"WHERE" SQL_SCOPE "ORDER BY d.driver"

/* how the BKL reaches each driver in scope, and where it stands then */
#define SQL_COVER \
	"SELECT c.driver, c.cover, c.follows, c.via, c.status FROM campaign_cover c " \
	"JOIN campaign_drivers d ON d.driver = c.driver WHERE" SQL_SCOPE

/* bugs the audit found in the tree's own code, oldest first */
#define SQL_BUGS \
	"SELECT b.driver, b.note, b.ts FROM campaign_bugs b " \
	"JOIN campaign_drivers d ON d.driver = b.driver WHERE" SQL_SCOPE "ORDER BY b.ts, b.driver"

/* lock/unlock sites in no driver's files: the core's own (chrdev_open()...) */
#define SQL_CORE_SITES \
	"SELECT count(*) FROM sites s WHERE s.kind IN ('lock', 'unlock') AND NOT EXISTS " \
	"(SELECT 1 FROM campaign_driver_files f WHERE f.file = " SQL_REL("s.file") ")"

#define SQL_DRIVER_FILES \
	"SELECT f.driver, f.file FROM campaign_driver_files f " \
	"JOIN campaign_drivers d ON d.driver = f.driver WHERE" SQL_SCOPE "ORDER BY f.driver, f.file"

#define SQL_SITES_FROM(table) \
	" FROM " table " s JOIN campaign_driver_files f ON f.file = " SQL_REL("s.file") \
	" JOIN campaign_drivers d ON d.driver = f.driver WHERE" SQL_SCOPE

#define SQL_COUNT_SITES \
	"SELECT f.driver, count(*)" SQL_SITES_FROM("sites") \
	"AND s.kind IN ('lock', 'unlock') GROUP BY f.driver"
#define SQL_COUNT_IMPLICIT \
	"SELECT f.driver, count(*)" SQL_SITES_FROM("sites") \
	"AND s.kind = 'implicit' GROUP BY f.driver"
#define SQL_COUNT_CHAINS \
	"SELECT f.driver, count(*)" SQL_SITES_FROM("chains") "GROUP BY f.driver"
/* chains of class deadlock: a wait, with the BKL held, for work that takes it */
#define SQL_COUNT_DEADLOCKS \
	"SELECT f.driver, count(*)" SQL_SITES_FROM("chains") "AND s.class = 'deadlock' " \
	"GROUP BY f.driver"
#define SQL_COUNT_IMBALANCES \
	"SELECT f.driver, count(*)" SQL_SITES_FROM("imbalances") "GROUP BY f.driver"

#define SQL_SITES \
	"SELECT f.file, s.line, s.function, s.kind, f.driver, s.callee" SQL_SITES_FROM("sites") \
	"AND s.kind IN ('lock', 'unlock') ORDER BY f.file, s.line"
/* an implicit site, and the call with the BKL held that covers it */
#define SQL_IMPLICIT \
	"SELECT f.file, s.line, s.function, s.kind, f.driver, " \
	"(SELECT 'via ' || c.struct || '.' || c.member || ', called by ' || c.via_function || " \
	"' at ' || " SQL_REL("c.via_file") " || ':' || c.via_line FROM coverage c " \
	"WHERE c.file_id = s.file_id AND c.function = s.function LIMIT 1)" \
	SQL_SITES_FROM("sites") "AND s.kind = 'implicit' ORDER BY f.file, s.line"
#define SQL_IMBALANCES \
	"SELECT f.file, s.line, s.function, s.kind, f.driver" SQL_SITES_FROM("imbalances") \
	"ORDER BY f.file, s.line"
/* deadlock, then wait, before sleep; the shortest path first is sorted in C */
#define SQL_CHAINS \
	"SELECT f.file, s.line, s.function, s.class, f.driver, s.path, s.id" SQL_SITES_FROM("chains") \
	"ORDER BY s.class = 'sleep', s.class = 'wait', f.file, s.line"
/* step N: function N, and where it calls function N + 1 */
#define SQL_CHAIN_STEPS \
	"SELECT function, " SQL_REL("file") ", line FROM chain_steps WHERE chain_id = @id ORDER BY step"

/* unix seconds, whether the column holds text or a number */
#define SQL_EPOCH(c) \
	"CASE typeof(" c ") WHEN 'integer' THEN " c " WHEN 'real' THEN CAST(" c " AS INTEGER) " \
	"ELSE CAST(strftime('%s', " c ") AS INTEGER) END"

#define SQL_HISTORY \
	"SELECT h.driver, h.status, " SQL_EPOCH("h.ts") " AS t FROM campaign_log h " \
	"WHERE h.action NOT IN ('correct', 'bug') " \
	"ORDER BY t, h.id"

/* one driver's steps (or the campaign's last ones), newest first */
#define SQL_LOG \
	"SELECT h.ts, h.action, h.status, h.holder, h.who, h.note, h.driver FROM campaign_log h " \
	"WHERE @drv IS NULL OR h.driver = @drv ORDER BY h.ts DESC, h.id DESC LIMIT @max"

#define SQL_QEMU \
	"SELECT q.driver, q.result, q.at, q.log, q.detail, q.phase FROM qemu_results q " \
	"JOIN campaign_drivers d ON d.driver = q.driver WHERE" SQL_SCOPE "ORDER BY q.at DESC, q.id DESC"

#endif
