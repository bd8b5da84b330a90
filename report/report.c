// SPDX-License-Identifier: GPL-2.0
/*
 * The report model's plumbing: status names, freeing, and reading a few
 * lines of source from the tree (the DB's paths are tree-relative).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report/report.h"

const char *const report_status_name[NR_STATUS] = {
	[ST_UNCLAIMED] = "unclaimed",
	[ST_CLAIMED] = "claimed",
	[ST_PUSHED_DOWN] = "pushed-down",
	[ST_AUDITED] = "audited",
	[ST_CONVERTED] = "converted",
	[ST_TESTED] = "tested",
	[ST_DONE] = "done",
	[ST_BLOCKED] = "blocked",
};

int report_status_parse(const char *s)
{
	int i;

	for (i = 0; s && i < NR_STATUS; i++)
		if (!strcmp(s, report_status_name[i]))
			return i;
	return -1;
}

/* Until it is converted a driver still takes the BKL; blocked ones too. */
int report_status_covered(int st)
{
	return st != ST_CONVERTED && st != ST_TESTED && st != ST_DONE;
}

int report_driver_counted(const struct report_driver *d)
{
	return !d->cover || strcmp(d->cover, "possibly");
}

static void free_sites(struct report_site *s, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		free(s[i].file);
		free(s[i].function);
		free(s[i].kind);
		free(s[i].driver);
		free(s[i].note);
	}
	free(s);
}

static void free_strv(char **v, int n)
{
	int i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void report_subsys_release(struct report_subsys *s)
{
	free(s->name);
	free(s->list);
	free_strv(s->maintainers, s->nr_maintainers);
	memset(s, 0, sizeof(*s));
}

void report_release(struct report *r)
{
	int i, j;

	free(r->tree);
	free(r->db_tree);
	free(r->version);
	free(r->generated);
	free(r->subsystem);
	free(r->driver);
	free(r->missing);
	free(r->audit_note);
	free(r->audit_json);
	report_subsys_release(&r->total);
	for (i = 0; i < r->nr_subs; i++)
		report_subsys_release(&r->subs[i]);
	free(r->subs);
	for (i = 0; i < r->nr_drivers; i++) {
		struct report_driver *d = &r->drivers[i];

		free(d->name);
		free(d->subsystem);
		free(d->status);
		free(d->module);
		free(d->config);
		free(d->claimed_by);
		free(d->since);
		free(d->cover);
		free(d->follows);
		free(d->via);
		free_strv(d->files, d->nr_files);
	}
	free(r->drivers);
	for (i = 0; i < r->nr_bugs; i++) {
		free(r->bugs[i].driver);
		free(r->bugs[i].note);
		free(r->bugs[i].ts);
	}
	free(r->bugs);
	free_sites(r->sites, r->nr_sites);
	free_sites(r->implicit, r->nr_implicit);
	free_sites(r->imbalances, r->nr_imbalances);
	for (i = 0; i < r->nr_chains; i++) {
		struct report_chain *c = &r->chains[i];

		free(c->file);
		free(c->function);
		free(c->class);
		free(c->driver);
		free(c->path);
		for (j = 0; j < c->nr_steps; j++) {
			free(c->steps[j].function);
			free(c->steps[j].file);
		}
		free(c->steps);
	}
	free(r->chains);
	for (i = 0; i < r->nr_qemu; i++) {
		free(r->qemu[i].driver);
		free(r->qemu[i].result);
		free(r->qemu[i].at);
		free(r->qemu[i].log);
		free(r->qemu[i].detail);
		free(r->qemu[i].phase);
	}
	free(r->qemu);
	for (i = 0; i < r->nr_log; i++) {
		free(r->log[i].ts);
		free(r->log[i].action);
		free(r->log[i].status);
		free(r->log[i].holder);
		free(r->log[i].who);
		free(r->log[i].note);
		free(r->log[i].driver);
	}
	free(r->log);
	free(r->bd.pts);
	memset(r, 0, sizeof(*r));
}

/* Tree-relative and staying inside: no "..", not absolute. */
static int tree_relative(const char *file)
{
	const char *p = file;

	if (!*file || *file == '/')
		return 0;
	while (p) {
		if (p[0] == '.' && p[1] == '.' && (p[2] == '/' || !p[2]))
			return 0;
		p = strchr(p, '/');
		if (p)
			p++;
	}
	return 1;
}

int report_source(const char *tree, const char *file, int line, int ctx,
		  int (*fn)(int no, const char *text, int hit, void *data), void *data)
{
	char path[4096], buf[1024];
	int no = 0, ret = 0;
	FILE *f;

	if (!tree || !file || !tree_relative(file) || line <= 0 ||
	    snprintf(path, sizeof(path), "%s/%s", tree, file) >= (int)sizeof(path))
		return -1;
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(buf, sizeof(buf), f)) {
		size_t len = strlen(buf);
		int whole = len && buf[len - 1] == '\n';

		if (whole)
			buf[--len] = '\0';
		if (!whole && !feof(f)) {
			/* a very long line: show its start, skip the rest */
			int c;

			while ((c = fgetc(f)) != EOF && c != '\n')
				;
		}
		no++;
		if (no > line + ctx)
			break;
		if (no >= line - ctx && (ret = fn(no, buf, no == line, data)))
			break;
	}
	fclose(f);
	return no < line ? -1 : ret;
}

/* "2.5 drivers a week": the unit that gives a readable number. */
void report_pace(double per_day, char *buf, size_t n)
{
	if (per_day >= 1)
		snprintf(buf, n, "%.1f drivers a day", per_day);
	else if (per_day * 7 >= 1)
		snprintf(buf, n, "%.1f drivers a week", per_day * 7);
	else if (per_day * 30.44 >= 1)
		snprintf(buf, n, "%.1f drivers a month", per_day * 30.44);
	else
		snprintf(buf, n, "%.2f drivers a year", per_day * 365.25);
}
