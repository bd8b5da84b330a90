// SPDX-License-Identifier: GPL-2.0
/*
 * Merging shard DBs: `bkl audit` runs one `bkl analyze --no-resolve` per
 * file into per-worker shards, then merges them here and runs the global
 * pass once.  Per shard, one transaction: the shard's files replace the
 * same paths of the same lock in the DB (their old facts go by cascade), with file ids
 * renumbered; derived rows (implicit sites, coverage, chains) are not
 * copied: the global pass makes them again.
 */
#include <stdio.h>
#include "analyzer/analyzer.h"
#include "db/db.h"
#include "lib/usage.h"
#include "lib/paths.h"

static const char *const copy_sql[] = {
	"DELETE FROM main.files WHERE (path, lock) IN (SELECT path, lock FROM shard.files)",
	"INSERT INTO main.files (path, lock, hash, flags, status, error, partial, unresolved, "
	"analyzed_at) SELECT path, lock, hash, flags, status, error, partial, unresolved, "
	"analyzed_at FROM shard.files",
	"DROP TABLE IF EXISTS temp.bkl_idmap",
	"CREATE TEMP TABLE bkl_idmap AS SELECT s.id AS old, m.id AS new "
	"FROM shard.files s JOIN main.files m ON m.path = s.path AND m.lock = s.lock",
	"INSERT INTO main.headers (path, hash, mtime, size) "
	"SELECT path, hash, mtime, size FROM shard.headers WHERE true "
	"ON CONFLICT (path, hash) DO UPDATE SET mtime = excluded.mtime, size = excluded.size",
	"INSERT OR IGNORE INTO main.file_headers (file_id, header_id) "
	"SELECT i.new, mh.id FROM shard.file_headers fh "
	"JOIN temp.bkl_idmap i ON i.old = fh.file_id "
	"JOIN shard.headers sh ON sh.id = fh.header_id "
	"JOIN main.headers mh ON mh.path = sh.path AND mh.hash = sh.hash",
	"INSERT INTO main.functions (file_id, name, file, line, static, inline, coarse, partial, "
	"context_in, context_out) SELECT i.new, f.name, f.file, f.line, f.static, f.inline, "
	"f.coarse, f.partial, f.context_in, f.context_out "
	"FROM shard.functions f JOIN temp.bkl_idmap i ON i.old = f.file_id",
	"INSERT INTO main.calls (file_id, caller, line, kind, callee, callee_static, struct, "
	"member, held, gfp, tbl, tbl_static, guard, args, inlined, inline_path) SELECT i.new, "
	"c.caller, c.line, c.kind, c.callee, c.callee_static, c.struct, c.member, c.held, c.gfp, "
	"c.tbl, c.tbl_static, c.guard, c.args, c.inlined, c.inline_path FROM shard.calls c "
	"JOIN temp.bkl_idmap i ON i.old = c.file_id",
	"INSERT INTO main.fptr_stores (file_id, struct, member, value, kind, value_static, tbl, "
	"tbl_static, function, file, line) SELECT i.new, s.struct, s.member, s.value, s.kind, "
	"s.value_static, s.tbl, s.tbl_static, s.function, s.file, s.line FROM shard.fptr_stores s "
	"JOIN temp.bkl_idmap i ON i.old = s.file_id",
	"INSERT INTO main.registrations (file_id, kind, via, struct, member, tbl, tbl_static, "
	"function, file, line) SELECT i.new, r.kind, r.via, r.struct, r.member, r.tbl, "
	"r.tbl_static, r.function, r.file, r.line FROM shard.registrations r "
	"JOIN temp.bkl_idmap i ON i.old = r.file_id",
	"INSERT INTO main.sites (file_id, file, line, function, kind, callee, lock) "
	"SELECT i.new, s.file, s.line, s.function, s.kind, s.callee, s.lock FROM shard.sites s "
	"JOIN temp.bkl_idmap i ON i.old = s.file_id WHERE s.kind != 'implicit'",
	"INSERT INTO main.imbalances (file_id, file, line, function, kind, lock, entry) "
	"SELECT i.new, b.file, b.line, b.function, b.kind, b.lock, b.entry "
	"FROM shard.imbalances b JOIN temp.bkl_idmap i ON i.old = b.file_id",
	"INSERT INTO main.entry_imbalances (file_id, file, line, function, kind, entry, lock) "
	"SELECT i.new, b.file, b.line, b.function, b.kind, b.entry, b.lock "
	"FROM shard.entry_imbalances b JOIN temp.bkl_idmap i ON i.old = b.file_id",
	"INSERT INTO main.work_facts (file_id, kind, object, object_static, handler, "
	"handler_static, wq, wq_static, via, function, file, line) SELECT i.new, w.kind, "
	"w.object, w.object_static, w.handler, w.handler_static, w.wq, w.wq_static, w.via, "
	"w.function, w.file, w.line FROM shard.work_facts w "
	"JOIN temp.bkl_idmap i ON i.old = w.file_id",
	"DROP TABLE temp.bkl_idmap",
	"INSERT OR REPLACE INTO main.meta (key, value) VALUES ('analyzer.resolved', '0')",
	/* the profiles the shard was analyzed with, for the global pass */
	"INSERT OR REPLACE INTO main.meta (key, value) SELECT key, value FROM shard.meta "
	"WHERE key IN ('analyzer.lock_profile', 'analyzer.kernel_profile', "
	"'analyzer.primitives', 'analyzer.gfp_reclaim', 'analyzer.release', "
	"'analyzer.lock', 'analyzer.unlock')",
	NULL
};

/* Open the shard once on its own: that migrates an older one, refuses a newer one. */
static int check_shard(const char *path)
{
	sqlite3 *shard;

	if (!path_exists(path))
		return error("no shard database at '%s'", path);
	if (db_open(path, &shard))
		return -1;
	db_close(shard);
	return 0;
}

int analyzer_merge(sqlite3 *db, const char *shard_path)
{
	sqlite3_stmt *attach;
	int i, ret = -1;

	if (check_shard(shard_path))
		return -1;
	attach = db_prepare(db, "ATTACH DATABASE @path AS shard");
	if (!attach || db_bind_text(attach, "@path", shard_path) || db_step_done(attach)) {
		sqlite3_finalize(attach);
		return error("cannot attach '%s'", shard_path);
	}
	sqlite3_finalize(attach);
	if (db_begin(db))
		goto out_detach;
	for (i = 0; copy_sql[i]; i++)
		if (db_exec(db, copy_sql[i]))
			break;
	if (copy_sql[i]) {
		db_rollback(db);
		error("cannot merge '%s'; the database is unchanged", shard_path);
		goto out_detach;
	}
	ret = db_commit(db);
out_detach:
	db_exec(db, "DETACH DATABASE shard");
	return ret;
}
