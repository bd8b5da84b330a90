// SPDX-License-Identifier: GPL-2.0
/*
 * /driver/NAME: everything about one driver: its sites, its chains with
 * the source of every step, imbalances, the audit record
 * (drivers-audit/<subsystem>/<driver>.md), the patches
 * (patches/drivers/<driver>/) and the QEMU results.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include "campaign/drivers.h"
#include "lib/paths.h"
#include "qemu/driver.h"
#include "report/report.h"
#include "web/web.h"

#define MAX_DOC (256 * 1024)	/* show at most this much of a file */

/* A name from the DB used in a path: one plain component. */
static int safe_component(const char *s)
{
	return s && *s && *s != '.' && !strchr(s, '/') && strlen(s) < 200;
}

static void show_file(struct strbuf *sb, const char *path)
{
	struct strbuf doc = STRBUF_INIT;

	if (strbuf_read_file(&doc, path)) {
		strbuf_addstr(sb, "<p class=\"muted\">cannot be read</p>");
		return;
	}
	if (doc.len > MAX_DOC) {
		doc.len = MAX_DOC;
		doc.buf[doc.len] = '\0';
	}
	html_addf(sb, "<pre class=\"doc\">%s</pre>", sb_str(&doc));
	strbuf_release(&doc);
}

/* Where the campaign keeps a driver's record and patches (campaign/drivers.c). */
static char *campaign_path(const struct report_driver *rd, int record)
{
	struct campaign c = { .repo = (char *)bkl_repo_dir() };
	struct cdriver d = { .id = rd->name, .subsystem = rd->subsystem };

	return record ? cdriver_record_path(&c, &d) : cdriver_patch_dir(&c, &d);
}

static const char *repo_relative(const char *path)
{
	size_t n = strlen(bkl_repo_dir());

	return !strncmp(path, bkl_repo_dir(), n) && path[n] == '/' ? path + n + 1 : path;
}

static void audit_record(struct strbuf *sb, const struct report_driver *d)
{
	char *path;

	strbuf_addstr(sb, "<h2>Audit record</h2>");
	if (!safe_component(d->name)) {
		strbuf_addstr(sb, "<p class=\"muted\">none</p>");
		return;
	}
	path = campaign_path(d, 1);
	if (!path_exists(path)) {
		html_addf(sb, "<p class=\"muted\">none yet: it goes in <code>%s</code></p>", repo_relative(path));
	} else {
		html_addf(sb, "<p><code>%s</code></p>", repo_relative(path));
		show_file(sb, path);
	}
	free(path);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void patches(struct strbuf *sb, const struct report_driver *d)
{
	struct strbuf dir = STRBUF_INIT, path = STRBUF_INIT;
	struct dirent *e;
	char **names = NULL;
	int nr = 0, alloc = 0, i;
	DIR *dh;

	strbuf_addstr(sb, "<h2>Patches</h2>");
	if (!safe_component(d->name))
		return;
	{
		char *pdir = campaign_path(d, 0);

		strbuf_addstr(&dir, pdir);
		free(pdir);
	}
	dh = opendir(dir.buf);
	while (dh && (e = readdir(dh))) {
		if (e->d_name[0] == '.')
			continue;
		ALLOC_GROW(names, nr, alloc);
		names[nr++] = strdup(e->d_name);
	}
	if (dh)
		closedir(dh);
	qsort(names, nr, sizeof(*names), cmp_str);
	if (!nr)
		html_addf(sb, "<p class=\"muted\">none yet: they go in <code>%s/</code></p>",
			  repo_relative(dir.buf));
	for (i = 0; i < nr; i++) {
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s", dir.buf, names[i]);
		html_addf(sb, "<details><summary><code>%s</code></summary>", repo_relative(path.buf));
		show_file(sb, path.buf);
		strbuf_addstr(sb, "</details>");
		free(names[i]);
	}
	free(names);
	strbuf_release(&dir);
	strbuf_release(&path);
}

/* How the BKL reaches it, and whether QEMU exercises it (or what QEMU lacks). */
static void html_reach_qemu(struct strbuf *sb, const struct report_driver *d)
{
	struct strbuf why = STRBUF_INIT;
	int r = qdriver_exercised(d->name, &why);

	if (d->cover)
		html_addf(sb, "<dt>reach</dt><dd>%s%s%s%s%s</dd>", d->cover,
			  d->follows && *d->follows ? " " : "", d->follows ? d->follows : "",
			  d->via && *d->via ? ": " : "", d->via ? d->via : "");
	if (r > 0)
		html_addf(sb, "<dt>QEMU</dt><dd>exercised by <code>%s</code></dd>", why.buf);
	else if (!r)
		html_addf(sb, "<dt>QEMU</dt><dd>not exercised: %s</dd>", why.buf);
	strbuf_release(&why);
}

static void history(struct strbuf *sb, const struct report *r)
{
	int i;

	html_addf(sb, "<h2>History (%d)</h2>", r->nr_log);
	if (!r->nr_log) {
		strbuf_addstr(sb, "<p class=\"muted\">nothing done yet</p>");
		return;
	}
	strbuf_addstr(sb, "<table><thead><tr><th>when</th><th>step</th><th>status after</th>"
		      "<th>holder</th><th>by</th><th>note</th></tr></thead><tbody>");
	for (i = 0; i < r->nr_log; i++) {
		const struct report_event *e = &r->log[i];

		html_addf(sb, "<tr><td>%s</td><td>%s</td><td><span class=\"status %s\">%s</span></td>"
			  "<td>%s</td><td>%s</td><td>%s</td></tr>", e->ts, e->action, e->status,
			  e->status, e->holder, e->who, e->note);
	}
	strbuf_addstr(sb, "</tbody></table>");
}

void html_driver_body(struct strbuf *sb, const struct report *r, int with_repo)
{
	const struct report_driver *d = &r->drivers[0];
	int i;

	html_addf(sb, "<p class=\"muted\"><a href=\"/\">overview</a> / <a href=\"/subsystem/%u\">%s</a> / driver</p>"
		  "<h1>%s <span class=\"status %s\">%s</span></h1>",
		  d->subsystem, d->subsystem, d->name, d->status, d->status);
	html_addf(sb, "<div class=\"panel\"><dl class=\"facts\"><dt>subsystem</dt>"
		  "<dd><a href=\"/subsystem/%u\">%s</a></dd><dt>module</dt><dd><code>%s</code></dd>"
		  "<dt>config</dt><dd><code>%s</code></dd><dt>files</dt><dd>",
		  d->subsystem, d->subsystem, d->module, d->config);
	for (i = 0; i < d->nr_files; i++)
		html_addf(sb, i ? "<br><code>%s</code>" : "<code>%s</code>", d->files[i]);
	html_addf(sb, "</dd><dt>maintainers</dt><dd>");
	for (i = 0; i < r->total.nr_maintainers; i++)
		html_addf(sb, i ? "<br>%s" : "%s", r->total.maintainers[i]);
	if (!r->total.nr_maintainers)
		strbuf_addstr(sb, "<span class=\"muted\">none listed</span>");
	html_addf(sb, "</dd><dt>list</dt><dd>%s</dd>",
		  r->total.list && *r->total.list ? r->total.list : "none listed");
	html_addf(sb, "<dt>claimed by</dt><dd>%s%s%s</dd>",
		  d->claimed_by ? d->claimed_by : "nobody",
		  d->since ? ", since " : "", d->since ? d->since : "");
	html_addf(sb, "<dt>found</dt><dd>%d explicit sites, %d implicit entry points, "
		  "%d chains, %d imbalances</dd>", d->sites, d->implicit, d->chains, d->imbalances);
	html_reach_qemu(sb, d);
	strbuf_addstr(sb, "</dl>");
	if (!d->claimed_by && !strcmp(d->status, "unclaimed"))
		html_addf(sb, "<p><a href=\"/pick#%u\">Claim it on the pick-a-driver page \xe2\x86\x92</a></p>",
			  d->name);
	html_addf(sb, "<p class=\"muted\">As JSON: <a href=\"/api/driver/%u\">/api/driver/%s</a></p></div>",
		  d->name, d->name);
	html_chains(sb, r, 0, 10);
	html_sites(sb, "Imbalances", r->imbalances, r->nr_imbalances, r->tree, 0, 1);
	html_sites(sb, "Explicit lock_kernel() sites", r->sites, r->nr_sites, r->tree, 0, 1);
	html_sites(sb, "Implicitly covered entry points", r->implicit, r->nr_implicit, r->tree, 0, 1);
	if (with_repo) {
		audit_record(sb, d);
		patches(sb, d);
	}
	html_qemu(sb, r, 0);
	history(sb, r);
}

void page_driver(struct web_req *req)
{
	struct report r;
	int ret = report_load(req->db, NULL, req->arg, req->srv->tree, &r);

	if (ret < 0) {
		web_error(req, 500, "cannot read the campaign from the database");
		return;
	}
	if (ret || !r.nr_drivers) {
		if (!ret)
			report_release(&r);
		web_error(req, 404, "no such driver");
		return;
	}
	page_begin(req, r.drivers[0].name, NULL);
	html_driver_body(&req->out, &r, 1);
	page_end(req);
	report_release(&r);
}
