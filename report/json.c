// SPDX-License-Identifier: GPL-2.0
/*
 * `bkl report --format json` and the dashboard's /api: a stable contract.
 * Keys are only ever added, never renamed; "version" changes if one must.
 * Every list is present (maybe empty) in the scopes that have it.
 *
 *   format "bkl-report", version 1, generated, linux, tree,
 *   scope {subsystem, driver}, missing (what is not in the DB yet, or null),
 *   totals {drivers, under_bkl, status {unclaimed ... blocked}, sites,
 *           sites_left, implicit, chains, deadlocks, imbalances, own, follows,
 *           possibly[, core_sites]}: drivers = own + follows; a possibly
 *           covered driver is in no other count
 * the whole tree:
 *   recent [{ts, driver, action, status, who, note}],
 *   burndown {points [{t, drivers, sites}], pace_per_day, projected_zero},
 *   subsystems [{rank, name, drivers, under_bkl, status, sites, ...}]
 * a subsystem or a driver:
 *   subsystem {name, list, maintainers []} (subsystem only),
 *   drivers [{name, subsystem, status, module, config, claimed_by, since,
 *             files [], sites, implicit, chains, deadlocks, imbalances,
 *             cover "own"|"follows"|"possibly"|null, follows [], via}],
 *   sites, implicit, imbalances [{file, line, function, kind, driver}],
 *   chains [{file, line, function, class, driver, path,
 *            steps [{function, file, line}]}], deadlock, then wait, first,
 *            shortest first (deadlocks: chains of class deadlock),
 *   qemu [{driver, phase, result, at, log}]
 * every scope:
 *   bugs [{driver, note, ts}]: bugs the audit found in the tree's own code
 */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "report/report.h"

#define REPORT_JSON_VERSION 1

static void key(struct strbuf *sb, const char *k)
{
	json_str_or_null(sb, k);
	strbuf_addstr(sb, ": ");
}

static void kv_str(struct strbuf *sb, const char *k, const char *v, int comma)
{
	key(sb, k);
	json_str_or_null(sb, v);
	if (comma)
		strbuf_addstr(sb, ", ");
}

static void kv_int(struct strbuf *sb, const char *k, long v, int comma)
{
	key(sb, k);
	strbuf_addf(sb, "%ld%s", v, comma ? ", " : "");
}

static void status_obj(struct strbuf *sb, const long *counts)
{
	int st;

	strbuf_addstr(sb, "{");
	for (st = 0; st < NR_STATUS; st++)
		kv_int(sb, report_status_name[st], counts[st], st < NR_STATUS - 1);
	strbuf_addstr(sb, "}");
}

static void subsys_obj(struct strbuf *sb, const struct report_subsys *s)
{
	kv_int(sb, "drivers", s->drivers_nr, 1);
	kv_int(sb, "under_bkl", s->remaining, 1);
	key(sb, "status");
	status_obj(sb, s->status);
	strbuf_addstr(sb, ", ");
	kv_int(sb, "sites", s->sites, 1);
	kv_int(sb, "sites_left", s->sites_left, 1);
	kv_int(sb, "implicit", s->implicit, 1);
	kv_int(sb, "chains", s->chains, 1);
	kv_int(sb, "deadlocks", s->deadlocks, 1);
	kv_int(sb, "imbalances", s->imbalances, 1);
	kv_int(sb, "own", s->own, 1);
	kv_int(sb, "follows", s->followers, 1);
	kv_int(sb, "possibly", s->possibly, 0);
}

static void totals_obj(struct strbuf *sb, const struct report *r)
{
	subsys_obj(sb, &r->total);
	if (!r->subsystem && !r->driver)
		strbuf_addf(sb, ", \"core_sites\": %d", r->total.core_sites);
}

static void iso_time(struct strbuf *sb, const char *k, time_t t, int comma)
{
	char buf[32];

	key(sb, k);
	if (!t) {
		strbuf_addstr(sb, "null");
	} else {
		strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
		json_str_or_null(sb, buf);
	}
	if (comma)
		strbuf_addstr(sb, ", ");
}

void report_json_burndown(struct strbuf *sb, const struct burndown *bd)
{
	char pace[32];
	int i;

	strbuf_addstr(sb, "{\"points\": [");
	for (i = 0; i < bd->nr; i++) {
		strbuf_addstr(sb, i ? ", {" : "{");
		iso_time(sb, "t", bd->pts[i].t, 1);
		kv_int(sb, "drivers", bd->pts[i].drivers, 1);
		kv_int(sb, "sites", bd->pts[i].sites, 0);
		strbuf_addstr(sb, "}");
	}
	snprintf(pace, sizeof(pace), "%.4f", bd->pace);
	strbuf_addf(sb, "], \"pace_per_day\": %s, ", pace);
	iso_time(sb, "projected_zero", bd->zero, 0);
	strbuf_addstr(sb, "}");
}

void report_json_driver(struct strbuf *sb, const struct report_driver *d)
{
	int i;

	strbuf_addstr(sb, "{");
	kv_str(sb, "name", d->name, 1);
	kv_str(sb, "subsystem", d->subsystem, 1);
	kv_str(sb, "status", d->status, 1);
	kv_str(sb, "module", d->module, 1);
	kv_str(sb, "config", d->config, 1);
	kv_str(sb, "claimed_by", d->claimed_by, 1);
	kv_str(sb, "since", d->since, 1);
	key(sb, "files");
	strbuf_addstr(sb, "[");
	for (i = 0; i < d->nr_files; i++) {
		strbuf_addstr(sb, i ? ", " : "");
		json_str_or_null(sb, d->files[i]);
	}
	strbuf_addstr(sb, "], ");
	kv_int(sb, "sites", d->sites, 1);
	kv_int(sb, "implicit", d->implicit, 1);
	kv_int(sb, "chains", d->chains, 1);
	kv_int(sb, "deadlocks", d->deadlocks, 1);
	kv_int(sb, "imbalances", d->imbalances, 1);
	kv_str(sb, "cover", d->cover, 1);
	key(sb, "follows");
	json_list(sb, d->follows);
	strbuf_addstr(sb, ", ");
	kv_str(sb, "via", d->via, 0);
	strbuf_addstr(sb, "}");
}

static void sites(struct strbuf *sb, const char *k, const struct report_site *s, int n)
{
	int i;

	strbuf_addstr(sb, ",\n");
	key(sb, k);
	strbuf_addstr(sb, "[");
	for (i = 0; i < n; i++) {
		strbuf_addstr(sb, i ? ",\n  {" : "\n  {");
		kv_str(sb, "file", s[i].file, 1);
		kv_int(sb, "line", s[i].line, 1);
		kv_str(sb, "function", s[i].function, 1);
		kv_str(sb, "kind", s[i].kind, 1);
		kv_str(sb, "driver", s[i].driver, 0);
		strbuf_addstr(sb, "}");
	}
	strbuf_addstr(sb, "]");
}

static void chains(struct strbuf *sb, const struct report *r)
{
	int i, j;

	strbuf_addstr(sb, ",\n\"chains\": [");
	for (i = 0; i < r->nr_chains; i++) {
		const struct report_chain *c = &r->chains[i];

		strbuf_addstr(sb, i ? ",\n  {" : "\n  {");
		kv_str(sb, "file", c->file, 1);
		kv_int(sb, "line", c->line, 1);
		kv_str(sb, "function", c->function, 1);
		kv_str(sb, "class", c->class, 1);
		kv_str(sb, "driver", c->driver, 1);
		kv_str(sb, "path", c->path, 1);
		strbuf_addstr(sb, "\"steps\": [");
		for (j = 0; j < c->nr_steps; j++) {
			strbuf_addstr(sb, j ? ", {" : "{");
			kv_str(sb, "function", c->steps[j].function, 1);
			kv_str(sb, "file", c->steps[j].file, 1);
			kv_int(sb, "line", c->steps[j].line, 0);
			strbuf_addstr(sb, "}");
		}
		strbuf_addstr(sb, "]}");
	}
	strbuf_addstr(sb, "]");
}

static void qemu(struct strbuf *sb, const struct report *r)
{
	int i;

	strbuf_addstr(sb, ",\n\"qemu\": [");
	for (i = 0; i < r->nr_qemu; i++) {
		strbuf_addstr(sb, i ? ",\n  {" : "\n  {");
		kv_str(sb, "driver", r->qemu[i].driver, 1);
		kv_str(sb, "phase", r->qemu[i].phase, 1);
		kv_str(sb, "result", r->qemu[i].result, 1);
		kv_str(sb, "at", r->qemu[i].at, 1);
		kv_str(sb, "log", r->qemu[i].log, 0);
		strbuf_addstr(sb, "}");
	}
	strbuf_addstr(sb, "]");
}

static void whole_tree(struct strbuf *sb, const struct report *r)
{
	int i;

	strbuf_addstr(sb, ",\n\"recent\": [");
	for (i = 0; i < r->nr_log; i++) {
		strbuf_addstr(sb, i ? ",\n  {" : "\n  {");
		kv_str(sb, "ts", r->log[i].ts, 1);
		kv_str(sb, "driver", r->log[i].driver, 1);
		kv_str(sb, "action", r->log[i].action, 1);
		kv_str(sb, "status", r->log[i].status, 1);
		kv_str(sb, "who", r->log[i].who, 1);
		kv_str(sb, "note", r->log[i].note, 0);
		strbuf_addstr(sb, "}");
	}
	strbuf_addstr(sb, "]");
	strbuf_addstr(sb, ",\n\"burndown\": ");
	report_json_burndown(sb, &r->bd);
	strbuf_addstr(sb, ",\n\"subsystems\": [");
	for (i = 0; i < r->nr_subs; i++) {
		strbuf_addf(sb, "%s{\"rank\": %d, ", i ? ",\n  " : "\n  ", i + 1);
		kv_str(sb, "name", r->subs[i].name, 1);
		subsys_obj(sb, &r->subs[i]);
		strbuf_addstr(sb, "}");
	}
	strbuf_addstr(sb, "]");
}

void report_json(struct strbuf *sb, const struct report *r)
{
	int i;

	strbuf_addf(sb, "{\"format\": \"bkl-report\", \"version\": %d,\n", REPORT_JSON_VERSION);
	kv_str(sb, "generated", r->generated, 1);
	kv_str(sb, "linux", r->version, 1);
	kv_str(sb, "tree", r->tree, 0);
	strbuf_addstr(sb, ",\n\"scope\": {");
	kv_str(sb, "subsystem", r->subsystem, 1);
	kv_str(sb, "driver", r->driver, 0);
	strbuf_addstr(sb, "},\n\"totals\": {");
	totals_obj(sb, r);
	strbuf_addstr(sb, "},\n");
	kv_str(sb, "missing", r->missing, 0);
	strbuf_addstr(sb, ",\n\"bugs\": [");
	for (i = 0; i < r->nr_bugs; i++) {
		strbuf_addstr(sb, i ? ", {" : "{");
		kv_str(sb, "driver", r->bugs[i].driver, 1);
		kv_str(sb, "note", r->bugs[i].note, 1);
		kv_str(sb, "ts", r->bugs[i].ts, 0);
		strbuf_addstr(sb, "}");
	}
	strbuf_addstr(sb, "]");
	if (r->audit_json)
		strbuf_addf(sb, ",\n\"audit\": %s", r->audit_json);
	if (!r->subsystem && !r->driver) {
		whole_tree(sb, r);
		strbuf_addstr(sb, "}\n");
		return;
	}
	if (r->subsystem) {
		strbuf_addstr(sb, ",\n\"subsystem\": {");
		kv_str(sb, "name", r->subsystem, 1);
		kv_str(sb, "list", r->total.list, 1);
		strbuf_addstr(sb, "\"maintainers\": [");
		for (i = 0; i < r->total.nr_maintainers; i++) {
			strbuf_addstr(sb, i ? ", " : "");
			json_str_or_null(sb, r->total.maintainers[i]);
		}
		strbuf_addstr(sb, "]}");
	}
	strbuf_addstr(sb, ",\n\"drivers\": [");
	for (i = 0; i < r->nr_drivers; i++) {
		strbuf_addstr(sb, i ? ",\n  " : "\n  ");
		report_json_driver(sb, &r->drivers[i]);
	}
	strbuf_addstr(sb, "]");
	sites(sb, "sites", r->sites, r->nr_sites);
	sites(sb, "implicit", r->implicit, r->nr_implicit);
	sites(sb, "imbalances", r->imbalances, r->nr_imbalances);
	chains(sb, r);
	qemu(sb, r);
	strbuf_addstr(sb, "}\n");
}
