// SPDX-License-Identifier: GPL-2.0
/*
 * drivers-audit/<subsystem>/<driver>.md: the facts a reviewer needs, then
 * what the reviewer wrote.  Only the part above "## Checklist" is ever
 * regenerated; the checklist, the verdict and the notes are a person's.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "campaign/record.h"
#include "campaign/rules.h"
#include "campaign/audit.h"
#include "campaign/patch.h"
#include "campaign/pushdown.h"
#include "lib/paths.h"
#include "lib/strbuf.h"
#include "lib/usage.h"

#define KEEP_FROM "\n## Checklist\n"

const char *const verdict_names[V_NR] = { "none", "mutex", "init-order" };

int verdict_parse(const char *s)
{
	int i;

	for (i = 0; i < V_NR; i++)
		if (!strcmp(s, verdict_names[i]))
			return i;
	return -1;
}

/* ["a","b"] -> a -> b */
static void chain_path(struct strbuf *sb, const char *json)
{
	int first = 1;

	for (; *json; json++) {
		if (*json != '"')
			continue;
		strbuf_addstr(sb, first ? "" : " -> ");
		first = 0;
		for (json++; *json && *json != '"'; json++)
			strbuf_add(sb, json, 1);
		if (!*json)
			break;
	}
	if (first)
		strbuf_addstr(sb, json);
}

/* How the BKL covers e, in the table's "covered" column. */
static void covered_how(struct strbuf *sb, const struct centry *e)
{
	if (centry_is_entry(e))
		strbuf_addf(sb, "entry: ->%s() called by %s()", e->member, e->via);
	else if (e->implicit)
		strbuf_addstr(sb, "reached (below)");
	if (e->implicit && e->locks)
		strbuf_addstr(sb, "; ");
	if (e->locks)
		strbuf_addstr(sb, "takes it itself");
}

static void entry_points(struct strbuf *sb, const struct cdriver *d, const struct audit *a)
{
	int i, n;

	strbuf_addstr(sb, "\n### Entry points the BKL covers\n\n"
		      "| function | defined at | covered | lines |\n|---|---|---|---|\n");
	for (i = 0; i < d->nr_e; i++) {
		const struct afunc *f = audit_func(a, d->e[i].function);

		strbuf_addf(sb, "| `%s()` | %s:%d | ", d->e[i].function, d->e[i].file, d->e[i].line);
		covered_how(sb, &d->e[i]);
		strbuf_addf(sb, " | %d%s |\n", f ? f->lines : 0, f && f->empty ? " (empty)" : "");
	}
	if (!d->nr_e)
		strbuf_addstr(sb, "| (none left) | | | |\n");
	for (i = 0, n = 0; i < a->nr_f; i++)
		if (a->f[i].is_fop && !a->f[i].is_entry)
			strbuf_addf(sb, "%s`%s()`", n++ ? ", " : "\nOther file operations: ",
				    a->f[i].name);
	if (n)
		strbuf_addstr(sb, ".\n");
}

/*
 * Functions the BKL covers only because a call made with it held reaches
 * them: no push-down goes there (the caller's holder keeps it), but the
 * audit must know, with the edge's evidence and how sure it is.
 */
static void reached(struct strbuf *sb, const struct cdriver *d)
{
	int i, n = 0;

	for (i = 0; i < d->nr_e; i++) {
		const struct centry *e = &d->e[i];

		if (!e->implicit || e->entry)
			continue;
		if (!n++)
			strbuf_addstr(sb, "\n### Reached under the BKL (covered, not pushed down)\n\n");
		strbuf_addf(sb, "- `%s()` (%s:%d): ", e->function, e->file, e->line);
		if (!e->edge) {
			strbuf_addstr(sb, "covered, with no evidence in the DB\n");
		} else if (!strcmp(e->edge, "by-type") && e->candidates > FEW_CANDIDATES) {
			strbuf_addf(sb, "one of %d `%s` implementations that a call through `%s.%s` "
				    "made with the BKL held may reach (resolved by type: the DB "
				    "names no caller of this driver's)\n", e->candidates, e->member,
				    e->st, e->member);
		} else {
			strbuf_addf(sb, "reached under the BKL from `%s()` (%s:%d) via `%s.%s`",
				    e->via, e->via_file, e->via_line, e->st, e->member);
			if (!strcmp(e->edge, "by-type"))
				strbuf_addf(sb, ", by type (one of %d)", e->candidates);
			else if (!strcmp(e->edge, "table") && e->tbl)
				strbuf_addf(sb, ", through table `%s`, which that code names", e->tbl);
			else if (e->reg_via)
				strbuf_addf(sb, ", table `%s` %s `%s%s` (%s:%d)",
					    e->tbl ? e->tbl : "?", strchr(e->reg_via, '.') ?
					    "stored in" : "registered by", e->reg_via,
					    strchr(e->reg_via, '.') ? "" : "()", e->reg_file, e->reg_line);
			strbuf_addstr(sb, "\n");
		}
	}
}

static void chains(struct strbuf *sb, struct campaign *c, const struct cdriver *d)
{
	struct cchain *ch;
	int nr, i;

	strbuf_addf(sb, "\n### Sites, chains and imbalances\n\n"
		    "- lock_kernel() sites: %d, unlock_kernel() sites: %d\n"
		    "- imbalances: %d\n", d->locks, d->unlocks, d->imbalances);
	if (facts_chains(c, d, &ch, &nr)) {
		strbuf_addstr(sb, "- chains: (could not be read)\n");
		return;
	}
	strbuf_addf(sb, "- chains with the BKL held: %d sleep, %d wait\n", d->sleep, d->wait);
	for (i = 0; i < nr && i < 20; i++) {
		strbuf_addf(sb, "  - %s, %s:%d: ", ch[i].class, ch[i].file, ch[i].line);
		chain_path(sb, ch[i].path);
		strbuf_addstr(sb, "\n");
	}
	if (nr > 20)
		strbuf_addf(sb, "  - ... and %d more ('bkl chains')\n", nr - 20);
	cchains_release(ch, nr);
}

static void state(struct strbuf *sb, const struct audit *a)
{
	int g, i, k, any = 0;

	strbuf_addstr(sb, "\n### File-scope state the entry points touch\n\n");
	for (g = 0; g < a->nr_g; g++) {
		struct strbuf eps = STRBUF_INIT, others = STRBUF_INIT;
		int n_others = 0;

		for (i = 0; i < a->nr_f; i++) {
			const struct afunc *f = &a->f[i];

			for (k = 0; k < f->nr_u && f->u[k].g != g; k++)
				;
			if (k == f->nr_u)
				continue;
			if (f->is_entry)
				strbuf_addf(&eps, "%s`%s()` %s", eps.len ? ", " : "", f->name,
					    f->u[k].write ? "writes" : "reads");
			else if (n_others++ < 8)
				strbuf_addf(&others, "%s`%s()`%s", others.len ? ", " : "", f->name,
					    f->u[k].write ? " (w)" : "");
		}
		if (eps.len) {
			if (!any++)
				strbuf_addstr(sb, "| variable | type | defined at | entry points | "
					      "also used by |\n|---|---|---|---|---|\n");
			strbuf_addf(sb, "| `%s` | %s | %s:%d | %s | %s%s |\n", a->g[g].name, a->g[g].type,
				    a->g_file[g], a->g[g].line, eps.buf, n_others ? others.buf : "-",
				    n_others > 8 ? ", ..." : "");
		}
		strbuf_release(&eps);
		strbuf_release(&others);
	}
	if (!any)
		strbuf_addstr(sb, "None: the entry points touch no file-scope variable of the driver.\n");
}

static void order(struct strbuf *sb, const struct audit *a)
{
	int i;

	strbuf_addstr(sb, "\n### Registration before initialization\n\n"
		      "Does the driver make its device reachable (misc_register(), cdev_add(),\n"
		      "register_chrdev(), ...) before it initializes what open() or the other\n"
		      "file operations read?\n\n");
	for (i = 0; i < a->nr_regs; i++)
		strbuf_addf(sb, "- registers: %s\n", a->regs[i]);
	if (!a->nr_regs)
		strbuf_addstr(sb, "- no registration call found in the driver's files\n");
	for (i = 0; i < a->nr_rbi; i++)
		strbuf_addf(sb, "- **after %s() at %s:%d, `%s` is %s (line %d)**\n", a->rbi[i].reg_call,
			    a->rbi[i].file, a->rbi[i].reg_line, a->rbi[i].var, a->rbi[i].how,
			    a->rbi[i].init_line);
	if (a->nr_regs && !a->nr_rbi)
		strbuf_addstr(sb, "- nothing the file operations read is set after a registration\n");
}

static void decide(struct strbuf *sb, const struct cdriver *d, const struct audit *a)
{
	struct proposal p;

	strbuf_addstr(sb, "\n### What the facts decide\n\n");
	if (audit_propose(d, a, &p) >= 0)
		strbuf_addf(sb, "Rule %s proposes: **%s**.  %s\n", p.rule, verdict_names[p.verdict],
			    sb_str(&p.why));
	else
		strbuf_addstr(sb, "No rule decides.\n");
	if (p.left.len)
		strbuf_addf(sb, "\nLeft to check by reading the code: %s.\n", p.left.buf);
	proposal_release(&p);
}

static void facts(struct strbuf *sb, struct campaign *c, const struct cdriver *d,
		  const struct audit *a)
{
	int i;

	strbuf_addf(sb, "# %s: BKL audit\n\n"
		    "<!-- Written by 'bkl audit-record %s'.  Everything above \"## Checklist\" is\n"
		    "     regenerated from the tree and the DB; the checklist, the verdict and\n"
		    "     the notes are kept as you write them. -->\n\n"
		    "## Facts\n\n", d->id, d->id);
	strbuf_addf(sb, "- module: `%s` (%s), built from %s:", d->module, d->config, d->dir);
	for (i = 0; i < d->nr_files; i++)
		strbuf_addf(sb, " %s", d->files[i]);
	strbuf_addf(sb, "\n- subsystem: %s\n", d->subsystem);
	if (*d->maintainers)
		strbuf_addf(sb, "- maintainers: %s\n", d->maintainers);
	if (*d->lists)
		strbuf_addf(sb, "- lists: %s\n", d->lists);
	for (i = 1; i <= 2; i++) {
		char *p = campaign_patch_find(c, d, i);

		if (p)
			strbuf_addf(sb, "- patch: patches/%s\n", p);
		free(p);
	}
	entry_points(sb, d, a);
	reached(sb, d);
	chains(sb, c, d);
	state(sb, a);
	order(sb, a);
	decide(sb, d, a);
}

static const char checklist[] =
	"\n## Checklist\n\n"
	"- [ ] Read each entry point: what could the BKL serialize there (open against\n"
	"      open, against release, against ioctl, against module init and exit)?\n"
	"- [ ] For each variable above: what else protects it (a spinlock, a mutex,\n"
	"      atomic operations, the device's refcount), and who writes it?\n"
	"- [ ] Does anything rely on the BKL being dropped when the task sleeps\n"
	"      (the wait chains above; schedule(), request_module() under the lock)?\n"
	"- [ ] Registration against initialization: can open() or ioctl() run before\n"
	"      the data they read is ready?\n"
	"- [ ] Does open() look up a table (minor -> device) that hotplug or module\n"
	"      unload changes?\n"
	"- [ ] Write the verdict below, then run 'bkl convert %s'.\n"
	"\n## Verdict\n\n"
	"<!-- First line \"Verdict: none\" (the BKL protects nothing here),\n"
	"     \"Verdict: mutex\" (the driver's own state needs a driver-private mutex)\n"
	"     or \"Verdict: init-order\" (open() races the driver's initialization),\n"
	"     then why, in a few sentences a maintainer can check. -->\n"
	"Verdict:\n"
	"\n## Notes\n\n";

int record_write(struct campaign *c, const struct cdriver *d, int *created)
{
	char *path = cdriver_record_path(c, d), *keep = NULL;
	struct strbuf old = STRBUF_INIT, sb = STRBUF_INIT;
	struct audit a;
	FILE *f;
	int ret = -1;

	*created = !path_exists(path);
	if (!*created) {
		if (strbuf_read_file(&old, path)) {
			error("cannot read '%s'", path);
			goto out;
		}
		keep = strstr(old.buf, KEEP_FROM);
		if (!keep) {
			error("'%s' has no \"## Checklist\" line: the part to keep is unclear; "
			      "restore it and run again", path);
			goto out;
		}
	}
	if (audit_analyze(c, d, NULL, &a))
		goto out;
	facts(&sb, c, d, &a);
	audit_release(&a);
	if (keep)
		strbuf_addstr(&sb, keep);
	else
		strbuf_addf(&sb, checklist, d->id);
	if (mkdir_parent(path))
		goto out;
	f = fopen(path, "w");
	if (!f || fwrite(sb.buf, 1, sb.len, f) != sb.len || fclose(f)) {
		error("cannot write '%s'", path);
		goto out;
	}
	ret = 0;
out:
	free(path);
	strbuf_release(&old);
	strbuf_release(&sb);
	return ret;
}

/* "- [ ] text" or "- [x] text": 1 unticked, 0 ticked, -1 no checkbox. */
static int checkbox(const char *line, const char **text)
{
	while (*line == ' ' || *line == '\t')
		line++;
	if ((*line != '-' && *line != '*') || line[1] != ' ' || line[2] != '[' || line[4] != ']')
		return -1;
	*text = line + 5;
	if (line[3] == ' ')
		return 1;
	return line[3] == 'x' || line[3] == 'X' ? 0 : -1;
}

int record_unticked(const char *path, struct strbuf *item)
{
	struct strbuf text = STRBUF_INIT;
	char *sec = NULL, *line, *save;
	const char *p, *end, *t;
	int ret = 0, in_item = 0;

	if (strbuf_read_file(&text, path))
		return error("no audit record '%s': run 'bkl audit-record' first", path);
	p = strstr(text.buf, KEEP_FROM);
	if (!p) {
		ret = error("'%s' has no \"## Checklist\" line", path);
		goto out;
	}
	p += strlen(KEEP_FROM);
	end = strstr(p, "\n## ");
	sec = strndup(p, end ? (size_t)(end - p) : strlen(p));
	/* an item goes on in the indented lines under it, up to the next one */
	for (line = strtok_r(sec, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		int box = checkbox(line, &t);

		if (box >= 0 && in_item)
			break;
		if (box == 1) {
			in_item = 1;
		} else if (in_item && (*line == ' ' || *line == '\t')) {
			t = line;
		} else if (in_item) {
			break;
		} else {
			continue;
		}
		for (; *t; t++)	/* one line: runs of blanks as one space */
			if (*t != ' ' && *t != '\t')
				strbuf_add(item, t, 1);
			else if (item->len && item->buf[item->len - 1] != ' ')
				strbuf_addch(item, ' ');
	}
	while (item->len && item->buf[item->len - 1] == ' ')
		item->buf[--item->len] = '\0';
	ret = in_item;
out:
	free(sec);
	strbuf_release(&text);
	return ret;
}

int record_verdict(const char *path, int *verdict, struct strbuf *why)
{
	struct strbuf text = STRBUF_INIT;
	const char *p, *end;
	char *sec = NULL, *line, *save;
	int ret = 1, in_comment = 0;

	*verdict = -1;
	if (strbuf_read_file(&text, path))
		return error("no audit record '%s': run 'bkl audit-record' first", path);
	p = strstr(text.buf, "\n## Verdict\n");
	if (!p)
		goto out;
	p += 12;
	end = strstr(p, "\n## ");
	end = end ? end : p + strlen(p);
	sec = strndup(p, end - p);
	for (line = strtok_r(sec, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (in_comment || !strncmp(line, "<!--", 4)) {	/* the instructions */
			in_comment = !strstr(line, "-->");
			continue;
		}
		if (!strncasecmp(line, "Verdict:", 8)) {
			const char *v = line + 8;
			char word[32];

			while (*v == ' ' || *v == '\t')
				v++;
			snprintf(word, sizeof(word), "%.*s", (int)strcspn(v, " \t.,:;"), v);
			*verdict = verdict_parse(word);
			if (*word && *verdict < 0) {
				ret = error("'%s': unknown verdict '%s' (none, mutex or init-order)",
					    path, word);
				goto out;
			}
			v += strlen(word);
			while (*v && strchr(" \t.,:;-", *v))
				v++;
			if (why && *v)
				strbuf_addf(why, "%s ", v);
		} else if (why) {
			strbuf_addf(why, "%s ", line);
		}
	}
	ret = *verdict < 0;
out:
	free(sec);
	strbuf_release(&text);
	return ret;
}

/*
 * Put text after "## Verdict"'s empty "Verdict:" line (the rule's verdict),
 * or after the verdict's last line (a confirmation); the rest is kept
 * byte for byte.
 */
static int record_insert(const char *path, const char *text, int fill)
{
	struct strbuf old = STRBUF_INIT, sb = STRBUF_INIT;
	const char *sec, *at, *end;
	int ret = -1;

	if (strbuf_read_file(&old, path))
		return error("no audit record '%s': run 'bkl audit-record' first", path);
	sec = strstr(old.buf, "\n## Verdict\n");
	end = sec ? strstr(sec + 12, "\n## ") : NULL;
	if (!sec || !end) {
		error("'%s' has no \"## Verdict\" section followed by another", path);
		goto out;
	}
	at = fill ? strstr(sec, "\nVerdict:\n") : end;
	if (fill && (!at || at > end)) {
		error("'%s' has a verdict already", path);
		goto out;
	}
	if (fill)
		at += strlen("\nVerdict:");
	while (!fill && at > sec && at[-1] == '\n')
		at--;		/* after the verdict's last line, before blank lines */
	strbuf_add(&sb, old.buf, at - old.buf);
	strbuf_addstr(&sb, fill ? " " : "\n");
	strbuf_addstr(&sb, text);
	strbuf_addstr(&sb, at);
	ret = replace_file(path, sb.buf, sb.len);
out:
	strbuf_release(&old);
	strbuf_release(&sb);
	return ret;
}

int record_rule_verdict(const char *path, const struct proposal *p, const char *who,
			const char *date)
{
	struct strbuf sb = STRBUF_INIT;
	int ret;

	strbuf_addf(&sb, "%s\n%s\nGiven by rule %s ('bkl audit-record --rules', run by %s, %.10s); "
		    "not yet confirmed by a person reading the code.", verdict_names[p->verdict],
		    p->why.buf, p->rule, who, date);
	ret = record_insert(path, sb.buf, 1);
	strbuf_release(&sb);
	return ret;
}

int record_append_verdict(const char *path, const char *line)
{
	return record_insert(path, line, 0);
}

int record_confirm(const char *path, const char *who, const char *date, const char *note)
{
	struct strbuf sb = STRBUF_INIT;
	int ret;

	strbuf_addf(&sb, "Confirmed by %s, %.10s, reading the code%s%s", who, date,
		    note && *note ? ": " : ".", note && *note ? note : "");
	ret = record_insert(path, sb.buf, 0);
	strbuf_release(&sb);
	return ret;
}

int record_confirmed(const char *path)
{
	struct strbuf text = STRBUF_INIT, item = STRBUF_INIT;
	const char *sec, *end;
	int yes = 0, v;

	if (strbuf_read_file(&text, path))
		return 0;
	sec = strstr(text.buf, "\n## Verdict\n");
	end = sec ? strstr(sec + 12, "\n## ") : NULL;
	if (sec) {
		const char *c = strstr(sec, "\nConfirmed by ");
		const char *r = strstr(sec, "\nGiven by rule ");

		yes = c && (!end || c < end);
		/* a verdict a person wrote, every checklist item ticked, is a person's */
		if (!yes && (!r || (end && r > end)) && !record_verdict(path, &v, NULL))
			yes = record_unticked(path, &item) == 0;
	}
	strbuf_release(&text);
	strbuf_release(&item);
	return yes;
}

int record_propose(struct campaign *c, const struct cdriver *d, struct proposal *p)
{
	struct audit a;
	int v;

	if (audit_analyze(c, d, NULL, &a))
		return -2;
	v = audit_propose(d, &a, p);
	audit_release(&a);
	return v;
}
