// SPDX-License-Identifier: GPL-2.0
/*
 * From "functions the BKL covers" to "drivers to convert": each covered
 * file's Kbuild module is a driver; MAINTAINERS says whose it is.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "campaign/drivers.h"
#include "db/db.h"
#include "kbuild/modules.h"
#include "ktree/maintainers.h"
#include "lib/paths.h"
#include "ktree/series.h"
#include "lib/strbuf.h"
#include "lib/usage.h"

struct strv {
	char **v;
	int nr;
};

static void strv_push(struct strv *s, const char *x)
{
	s->v = realloc(s->v, (s->nr + 1) * sizeof(*s->v));
	s->v[s->nr++] = strdup(x);
}

static void strv_release(struct strv *s)
{
	while (s->nr)
		free(s->v[--s->nr]);
	free(s->v);
	s->v = NULL;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void strv_sort_uniq(struct strv *s)
{
	int i, j;

	qsort(s->v, s->nr, sizeof(*s->v), cmp_str);
	for (i = j = 0; i < s->nr; i++) {
		if (j && !strcmp(s->v[j - 1], s->v[i])) {
			free(s->v[i]);
			continue;
		}
		s->v[j++] = s->v[i];
	}
	s->nr = j;
}

/* The files the campaign's own push-down patches touch ("+++ b/x"). */
static void patched_files(struct campaign *c, struct strv *files)
{
	struct strbuf dir = STRBUF_INIT, path = STRBUF_INIT, text = STRBUF_INIT;
	struct dirent *de, *pe;
	DIR *top, *sub;

	strbuf_addf(&dir, "%s/patches/drivers", c->repo);
	top = opendir(dir.buf);
	while (top && (de = readdir(top))) {
		if (de->d_name[0] == '.' || de->d_name[0] == '_')	/* _core: not a driver */
			continue;
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s", dir.buf, de->d_name);
		sub = opendir(path.buf);
		while (sub && (pe = readdir(sub))) {
			const char *p;
			size_t n = strlen(pe->d_name);

			if (n < 7 || strcmp(pe->d_name + n - 6, ".patch"))
				continue;
			strbuf_reset(&text);
			strbuf_reset(&path);
			strbuf_addf(&path, "%s/%s/%s", dir.buf, de->d_name, pe->d_name);
			if (strbuf_read_file(&text, path.buf))
				continue;
			for (p = text.buf; p && (p = strstr(p, "\n+++ b/")); p++) {
				char *f = strndup(p + 7, strcspn(p + 7, "\t\n"));

				if (strlen(f) > 2 && !strcmp(f + strlen(f) - 2, ".c"))
					strv_push(files, f);
				free(f);
			}
		}
		if (sub)
			closedir(sub);
	}
	if (top)
		closedir(top);
	strbuf_release(&dir);
	strbuf_release(&path);
	strbuf_release(&text);
}

static char *join(char **v, int nr)
{
	struct strbuf sb = STRBUF_INIT;
	int i;

	for (i = 0; i < nr; i++)
		strbuf_addf(&sb, "%s%s", i ? "; " : "", v[i]);
	return sb.buf ? sb.buf : strdup("");
}

/* The module name, or "<dir>-<name>" when another Makefile builds the same name. */
static char *driver_id(struct kbuild_cache *kc, const struct kbuild_module *m)
{
	const char *last = strrchr(m->dir, '/'), *prev = last;
	struct strbuf sb = STRBUF_INIT;
	int n;

	last = last ? last + 1 : m->dir;
	n = strlen(last);
	if (!strcmp(last, m->name) && prev) {	/* drivers/char/tpm/tpm.o: char-tpm */
		while (prev > m->dir && prev[-1] != '/')
			prev--;
		n = strcspn(prev, "/");
		last = prev;
	}
	if (kbuild_name_count(kc, m->name) > 1 && n)
		strbuf_addf(&sb, "%.*s-%s", n, last, m->name);
	else
		strbuf_addstr(&sb, m->name);
	return sb.buf;
}

static int store_driver(struct campaign *c, sqlite3_stmt *ins, sqlite3_stmt *insf,
			struct kbuild_cache *kc, const struct maintainers *mt,
			const struct kbuild_module *m, const char *file)
{
	const struct maint_section *s = maintainers_match(mt, file);
	char *id = driver_id(kc, m), *ms = s ? join(s->m, s->nr_m) : strdup("");
	char *ls = s ? join(s->l, s->nr_l) : strdup("");
	int i, ret;

	ret = db_bind_text(ins, "@driver", id) || db_bind_text(ins, "@module", m->name) ||
	      db_bind_text(ins, "@config", m->config) || db_bind_text(ins, "@dir", m->dir) ||
	      db_bind_text(ins, "@subsystem", s ? s->name : "THE REST") ||
	      db_bind_text(ins, "@maintainers", ms) || db_bind_text(ins, "@lists", ls) ||
	      db_step_done(ins);
	for (i = 0; !ret && i < m->nr_files; i++)
		ret = db_bind_text(insf, "@driver", id) || db_bind_text(insf, "@file", m->files[i]) ||
		      db_step_done(insf);
	if (!ret && !m->nr_files)	/* not found in a Makefile: the file alone */
		ret = db_bind_text(insf, "@driver", id) || db_bind_text(insf, "@file", file) ||
		      db_step_done(insf);
	free(id);
	free(ms);
	free(ls);
	return ret ? -1 : 0;
}

static const char *fingerprint(struct campaign *c, const struct strv *files)
{
	static char hex[17];
	uint64_t h = fnv1a(FNV1A_INIT, c->tree, strlen(c->tree) + 1);
	int i;

	for (i = 0; i < files->nr; i++)
		h = fnv1a(h, files->v[i], strlen(files->v[i]) + 1);
	snprintf(hex, sizeof(hex), "%016llx", (unsigned long long)h);
	return hex;
}

static int unchanged(struct campaign *c, const char *fp)
{
	sqlite3_stmt *q = db_prepare(c->db, "SELECT value FROM meta WHERE key = 'campaign.fingerprint'");
	int same = 0;

	if (q && sqlite3_step(q) == SQLITE_ROW)
		same = !strcmp((const char *)sqlite3_column_text(q, 0), fp);
	sqlite3_finalize(q);
	return same;
}

static int store_all(struct campaign *c, const struct strv *files, const char *fp)
{
	struct kbuild_cache *kc = kbuild_cache_new(c->tree);
	struct maintainers mt;
	struct strbuf path = STRBUF_INIT;
	sqlite3_stmt *ins = NULL, *insf = NULL, *meta = NULL;
	int i, ret = -1;

	strbuf_addf(&path, "%s/MAINTAINERS", c->tree);
	if (maintainers_read(path.buf, c->tree, &mt))
		goto out;
	if (db_begin(c->db))
		goto out_mt;
	ins = db_prepare(c->db, "INSERT OR IGNORE INTO campaign_drivers (driver, module, config, dir, "
			 "subsystem, maintainers, lists) VALUES (@driver, @module, @config, @dir, "
			 "@subsystem, @maintainers, @lists)");
	insf = db_prepare(c->db, "INSERT OR IGNORE INTO campaign_driver_files (driver, file) "
			  "VALUES (@driver, @file)");
	meta = db_prepare(c->db, "INSERT OR REPLACE INTO meta (key, value) "
			  "VALUES ('campaign.fingerprint', @fp)");
	if (!ins || !insf || !meta || db_exec(c->db, "DELETE FROM campaign_drivers"))
		goto out_rollback;
	for (i = 0; i < files->nr; i++) {
		struct kbuild_module m;

		if (kbuild_module_of(kc, files->v[i], &m))
			goto out_rollback;
		ret = store_driver(c, ins, insf, kc, &mt, &m, files->v[i]);
		kbuild_module_release(&m);
		if (ret)
			goto out_rollback;
	}
	ret = db_bind_text(meta, "@fp", fp) || db_step_done(meta) || db_commit(c->db) ? -1 : 0;
	if (ret)
		goto out_rollback;
	goto out_mt;
out_rollback:
	ret = -1;
	db_rollback(c->db);
out_mt:
	sqlite3_finalize(ins);
	sqlite3_finalize(insf);
	sqlite3_finalize(meta);
	maintainers_release(&mt);
out:
	kbuild_cache_free(kc);
	strbuf_release(&path);
	return ret;
}

int campaign_refresh(struct campaign *c)
{
	struct strv files = { 0 };
	char **cov = NULL;
	int nr = 0, i, ret;
	const char *fp;

	if (facts_check(c) || facts_covered_files(c, &cov, &nr))
		return -1;
	for (i = 0; i < nr; i++) {
		strv_push(&files, cov[i]);
		free(cov[i]);
	}
	free(cov);
	patched_files(c, &files);
	strv_sort_uniq(&files);
	fp = fingerprint(c, &files);
	ret = unchanged(c, fp) ? 0 : store_all(c, &files, fp);
	strv_release(&files);
	return ret;
}

static char *col(sqlite3_stmt *q, int i)
{
	const unsigned char *s = sqlite3_column_text(q, i);

	return strdup(s ? (const char *)s : "");
}

static int load_files(struct campaign *c, struct cdriver *d)
{
	sqlite3_stmt *q = db_prepare(c->db, "SELECT file FROM campaign_driver_files "
				     "WHERE driver = @d ORDER BY file");

	if (!q || db_bind_text(q, "@d", d->id)) {
		sqlite3_finalize(q);
		return -1;
	}
	while (sqlite3_step(q) == SQLITE_ROW) {
		d->files = realloc(d->files, (d->nr_files + 1) * sizeof(*d->files));
		d->files[d->nr_files++] = col(q, 0);
	}
	sqlite3_finalize(q);
	return 0;
}

static int cmp_id(const void *key, const void *elem)
{
	return strcmp(key, ((const struct cdriver *)elem)->id);
}

/*
 * campaign_cover's rows, in one query: the view computes every driver's
 * at once (a query per driver cost 20 ms each).  d[0..known) is sorted
 * by id; a driver with no row (only the log knows it) is its own item.
 */
static int load_covers(struct campaign *c, const char *only, struct cdriver *d, int known, int nr)
{
	sqlite3_stmt *q = db_prepare(c->db, "SELECT driver, cover, follows, via, status "
				     "FROM campaign_cover WHERE @only IS NULL OR driver = @only");
	int i, ret = 0;

	for (i = 0; i < nr; i++)
		d[i].status = d[i].st.status;
	if (!q || (only && db_bind_text(q, "@only", only)))
		ret = -1;
	while (!ret && sqlite3_step(q) == SQLITE_ROW) {
		struct cdriver *x = bsearch(sqlite3_column_text(q, 0), d, known, sizeof(*d), cmp_id);
		int st = cstatus_parse((const char *)sqlite3_column_text(q, 4));

		if (!x)
			continue;
		x->cover = col(q, 1);
		x->follows = col(q, 2);
		x->via = col(q, 3);
		if (st >= 0)
			x->status = st;
	}
	sqlite3_finalize(q);
	for (i = 0; i < nr; i++)
		if (!d[i].cover) {
			d[i].cover = strdup("own");
			d[i].follows = strdup("");
			d[i].via = strdup("");
		}
	return ret;
}

static int load_one(struct campaign *c, sqlite3_stmt *q, struct cdriver *d, int known)
{
	memset(d, 0, sizeof(*d));
	d->id = col(q, 0);
	d->known = known;
	d->module = known ? col(q, 1) : strdup(d->id);
	d->config = known ? col(q, 2) : strdup("?");
	d->dir = known ? col(q, 3) : strdup("?");
	d->subsystem = known ? col(q, 4) : strdup("?");
	d->maintainers = known ? col(q, 5) : strdup("");
	d->lists = known ? col(q, 6) : strdup("");
	if (campaign_state(c, d->id, &d->st))
		return -1;
	if (!known)
		return 0;
	return load_files(c, d) || facts_fill(c, d) ? -1 : 0;
}

int campaign_load(struct campaign *c, const char *only, struct cdriver **out, int *nr)
{
	static const char *const sql[2] = {
		"SELECT driver, module, config, dir, subsystem, maintainers, lists "
		"FROM campaign_drivers WHERE @only IS NULL OR driver = @only ORDER BY driver",
		"SELECT DISTINCT driver FROM campaign_log WHERE (@only IS NULL OR driver = @only) "
		"AND driver NOT IN (SELECT driver FROM campaign_drivers) ORDER BY driver"
	};
	struct cdriver *d = NULL;
	int n = 0, known = 0, pass, ret = 0;

	*out = NULL;
	*nr = 0;
	if (campaign_refresh(c))
		return -1;
	for (pass = 0; pass < 2 && !ret; pass++) {
		sqlite3_stmt *q = db_prepare(c->db, sql[pass]);

		if (!q || (only && db_bind_text(q, "@only", only))) {
			sqlite3_finalize(q);
			ret = -1;
			break;
		}
		while (!ret && sqlite3_step(q) == SQLITE_ROW) {
			d = realloc(d, (n + 1) * sizeof(*d));
			ret = load_one(c, q, &d[n++], pass == 0);
		}
		sqlite3_finalize(q);
		if (!pass)
			known = n;
	}
	if (!ret)
		ret = load_covers(c, only, d, known, n);
	if (!ret && only && !n)
		ret = error("no driver '%s' (see 'bkl drivers')", only);
	if (ret) {
		cdrivers_release(d, n);
		return -1;
	}
	*out = d;
	*nr = n;
	return 0;
}

int campaign_driver(struct campaign *c, const char *id, struct cdriver *d)
{
	struct cdriver *all;
	int nr;

	if (campaign_load(c, id, &all, &nr))
		return -1;
	*d = all[0];
	while (--nr > 0)
		cdriver_release(&all[nr]);
	free(all);
	return 0;
}

void cdriver_release(struct cdriver *d)
{
	int i;

	for (i = 0; i < d->nr_files; i++)
		free(d->files[i]);
	for (i = 0; i < d->nr_e; i++) {
		free(d->e[i].function);
		free(d->e[i].file);
		free(d->e[i].member);
		free(d->e[i].via);
		free(d->e[i].st);
		free(d->e[i].edge);
		free(d->e[i].tbl);
		free(d->e[i].via_file);
		free(d->e[i].reg_via);
		free(d->e[i].reg_file);
	}
	free(d->files);
	free(d->e);
	free(d->id);
	free(d->module);
	free(d->config);
	free(d->dir);
	free(d->subsystem);
	free(d->maintainers);
	free(d->lists);
	free(d->cover);
	free(d->follows);
	free(d->via);
	cstate_release(&d->st);
	memset(d, 0, sizeof(*d));
}

void cdrivers_release(struct cdriver *d, int nr)
{
	int i;

	for (i = 0; i < nr; i++)
		cdriver_release(&d[i]);
	free(d);
}

char *cdriver_area(const struct cdriver *d)
{
	const char *p = d->dir, *slash;

	if (!strncmp(p, "drivers/", 8))
		p += 8;
	else if ((slash = strchr(p, '/')))	/* fs/fuse -> fuse, sound/core -> core */
		p = slash + 1;
	return strndup(p, strcspn(p, "/"));
}

/* "CHAR and MISC DRIVERS" -> "char-and-misc-drivers" */
char *subsystem_slug(const char *s)
{
	struct strbuf sb = STRBUF_INIT;
	int dash = 0;

	for (; *s; s++) {
		char ch = *s;

		if ((ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9')) {
			if (dash && sb.len)
				strbuf_addstr(&sb, "-");
			dash = 0;
			ch = ch >= 'A' && ch <= 'Z' ? ch - 'A' + 'a' : ch;
			strbuf_add(&sb, &ch, 1);
		} else {
			dash = 1;
		}
	}
	return sb.buf ? sb.buf : strdup("unknown");
}

char *cdriver_record_path(const struct campaign *c, const struct cdriver *d)
{
	struct strbuf sb = STRBUF_INIT;
	char *slug = subsystem_slug(d->subsystem);

	strbuf_addf(&sb, "%s/drivers-audit/%s/%s.md", c->repo, slug, d->id);
	free(slug);
	return sb.buf;
}

char *cdriver_patch_dir(const struct campaign *c, const struct cdriver *d)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "%s/patches/drivers/%s", c->repo, d->id);
	return sb.buf;
}

static void read_kconfig(struct campaign *c)
{
	sqlite3_stmt *q = db_prepare(c->db, "SELECT value FROM meta WHERE key = 'audit.objtree'");
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	const char *env = getenv("BKL_KCONFIG");

	c->kconfig_read = 1;
	if (env && *env)
		strbuf_addstr(&path, env);
	else if (q && sqlite3_step(q) == SQLITE_ROW)
		strbuf_addf(&path, "%s/.config", sqlite3_column_text(q, 0));
	sqlite3_finalize(q);
	if (path.len && !strbuf_read_file(&text, path.buf)) {
		strbuf_addstr(&text, "\n");
		c->kconfig = malloc(text.len + 2);
		sprintf(c->kconfig, "\n%s", text.buf);
	}
	strbuf_release(&path);
	strbuf_release(&text);
}

/* One symbol's value in the .config: 'y', 'm' or 'n'. */
static int symbol_value(const char *kconfig, const char *sym, size_t n)
{
	const char *p = kconfig;

	while ((p = strstr(p, "\nCONFIG_"))) {
		p++;
		if (!strncmp(p, sym, n) && p[n] == '=')
			return p[n + 1] == 'y' || p[n + 1] == 'm' ? p[n + 1] : 'n';
	}
	return 'n';
}

int cdriver_built(struct campaign *c, const struct cdriver *d)
{
	const char *p = d->config;
	int best = 'n';

	if (!strcmp(p, "y"))
		return 'y';
	if (!c->kconfig_read)
		read_kconfig(c);
	if (!c->kconfig || !strncmp(p, "?", 1))
		return '?';
	while ((p = strstr(p, "CONFIG_"))) {	/* "CONFIG_A || CONFIG_B": the best */
		size_t n = strspn(p, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_");
		int v = symbol_value(c->kconfig, p, n);

		if (v == 'y' || (v == 'm' && best == 'n'))
			best = v;
		p += n;
	}
	return best;
}

char *cdriver_prefix(const struct cdriver *d, int for_file)
{
	char *area = cdriver_area(d);
	struct strbuf sb = STRBUF_INIT;

	if (!strcmp(area, d->module))	/* "watchdog: ", not "watchdog: watchdog: " */
		strbuf_addstr(&sb, area);
	else
		strbuf_addf(&sb, for_file ? "%s-%s" : "%s: %s", area, d->module);
	free(area);
	return sb.buf;
}
