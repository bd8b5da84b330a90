-- SPDX-License-Identifier: GPL-2.0
-- Work items, threads and workqueues, per file (analyzer/work.c), for
-- the global pass to tie a wait to the work it waits for:
--   work         object runs handler (INIT_WORK, INIT_DELAYED_WORK,
--                kthread_init_work: via; DECLARE_WORK in an initializer)
--   thread       the task pointer stored at object runs handler
--                (x->t = kthread_run(handler, ...))
--   queue        work object is queued on the workqueue stored at wq
--                (queue_work(x->wq, &x->w); schedule_work: system_wq)
--   wait-work    function waits at line (via: flush_work, cancel_work_sync,
--                ...) for the work object
--   wait-wq      ... for every work queued on the workqueue object
--                (flush_workqueue, destroy_workqueue, flush_scheduled_work)
--   wait-thread  ... for the thread stored at object (kthread_stop)
-- object: "struct foo+48" (byte 48 of any struct foo: INIT_WORK(&x->w, fn)
-- with x a struct foo *) or "var w+0" (a variable; object_static: the
-- file's own).  function is NULL in a variable's initializer.
CREATE TABLE work_facts (
	file_id		INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
	kind		TEXT NOT NULL CHECK (kind IN ('work', 'thread', 'queue',
				'wait-work', 'wait-wq', 'wait-thread')),
	object		TEXT NOT NULL,
	object_static	INTEGER NOT NULL DEFAULT 0,
	handler		TEXT,
	handler_static	INTEGER NOT NULL DEFAULT 0,
	wq		TEXT,
	wq_static	INTEGER NOT NULL DEFAULT 0,
	via		TEXT NOT NULL,
	function	TEXT,
	file		TEXT NOT NULL,
	line		INTEGER NOT NULL
);
CREATE INDEX work_facts_file ON work_facts(file_id);

-- A new chain class: 'deadlock', a wait with the lock held for work
-- (or a thread) whose handler takes the lock; its steps go on past the
-- wait into the handler, the wait's step with edge 'work', 'thread' or
-- 'queued' (the handler's work item set up, its thread started, its
-- work queued at the step's file:line; candidates: how many handlers
-- of that wait take the lock).  Tables rebuilt for their CHECKs; the
-- next global pass redoes the chains.
DROP TABLE chain_steps;
DROP TABLE chains;
CREATE TABLE chains (
	id		INTEGER PRIMARY KEY,
	file_id		INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
	file		TEXT NOT NULL,
	line		INTEGER NOT NULL,
	function	TEXT NOT NULL,
	class		TEXT NOT NULL CHECK (class IN ('sleep', 'wait', 'deadlock')),
	path		TEXT NOT NULL,
	lock		TEXT NOT NULL DEFAULT 'bkl',
	by_type		INTEGER,
	origin		TEXT CHECK (origin IN ('held', 'covered', 'by-type'))
);
CREATE INDEX chains_file ON chains(file_id);
CREATE INDEX chains_lock ON chains(lock, file, line);
CREATE TABLE chain_steps (
	chain_id	INTEGER NOT NULL REFERENCES chains(id) ON DELETE CASCADE,
	step		INTEGER NOT NULL,
	function	TEXT NOT NULL,
	file		TEXT,
	line		INTEGER,
	edge		TEXT CHECK (edge IN ('direct', 'registered', 'table', 'by-type',
				'work', 'thread', 'queued')),
	candidates	INTEGER,
	PRIMARY KEY (chain_id, step)
) WITHOUT ROWID;
INSERT OR REPLACE INTO meta (key, value) VALUES ('analyzer.resolved', '0');
