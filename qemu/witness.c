// SPDX-License-Identifier: GPL-2.0
/*
 * The witness of bkl test: which functions took the BKL during a
 * driver's exercise, as the kernel counted them (CONFIG_BKL_DEBUG,
 * /sys/kernel/debug/bkl/acquirers, printed by qemu-tests/init/exercise.c),
 * checked against the driver's push-down: its open() must be among them
 * before the conversion and gone after it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/quote.h"
#include "qemu/qemu.h"
#include "qemu/witness.h"
#include "qemu/driver.h"
#include "ktree/series.h"
#include "lib/usage.h"

#define ACQ_BEGIN	"exercise: acquirers: begin"
#define ACQ_END		"exercise: acquirers: end"
#define ACQ_LINE	"exercise: acquirer: "
#define ACQ_NONE	"exercise: acquirers: none: "

static void add_fn(struct qwitness_fn **list, int *nr, const char *name, size_t len,
		   unsigned long count)
{
	*list = realloc(*list, (*nr + 1) * sizeof(**list));
	(*list)[*nr].name = strndup(name, len);
	(*list)[*nr].count = count;
	(*nr)++;
}

/*
 * "nvram_misc_open() in drivers/char/nvram.c, ->open() called from ...";
 * an ->fasync() too: the exerciser sets O_ASYNC on every node it opens.
 */
static void scan_entry_points(struct qwitness *w, char *para)
{
	char *tok[4] = { NULL }, *t;
	int n = 0;

	for (t = strtok(para, " \t\n"); t; t = strtok(NULL, " \t\n")) {
		size_t len;

		memmove(tok, tok + 1, 3 * sizeof(*tok));
		tok[3] = t;
		if (++n < 4)
			continue;
		len = strlen(tok[0]);
		if (len > 2 && !strcmp(tok[0] + len - 2, "()") && !strcmp(tok[1], "in") &&
		    (!strcmp(tok[3], "->open()") || !strcmp(tok[3], "->fasync()")))
			add_fn(&w->opens, &w->nr_opens, tok[0], len - 2, 0);
	}
}

static const char *pushdown_of(const struct series *s, const char *driver)
{
	char name[256];
	int i, conversion;

	for (i = 0; i < s->nr; i++)
		if (qdriver_patch_of(s->names[i], name, sizeof(name), &conversion) &&
		    !conversion && !strcmp(name, driver))
			return s->names[i];
	return NULL;
}

int qwitness_opens(struct qwitness *w, const struct series *s, const char *driver)
{
	const char *name = pushdown_of(s, driver);
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	char *para, *end;
	int ret = 0;

	if (!name)
		return 0;
	strbuf_addf(&path, "%s/%s", s->dir, name);
	if (strbuf_read_file(&text, path.buf) < 0) {
		ret = error("cannot read the push-down '%s': %s", path.buf, strerror(errno));
		goto out;
	}
	para = strstr(text.buf, "\nEntry points:\n");
	if (para) {
		para += strlen("\nEntry points:\n");
		end = strstr(para, "\n\n");
		if (end)
			*end = '\0';
		scan_entry_points(w, para);
	}
out:
	strbuf_release(&path);
	strbuf_release(&text);
	return ret;
}

int qwitness_has_conversion(const struct series *s, const char *driver)
{
	size_t n = strlen(driver);
	int i;

	for (i = 0; i < s->nr; i++)
		if (!strncmp(s->names[i], "drivers/", 8) && !strncmp(s->names[i] + 8, driver, n) &&
		    s->names[i][8 + n] == '/' && strncmp(s->names[i] + 9 + n, "0001-", 5))
			return 1;
	return 0;
}

/* "12 nvram_misc_open" or "3 bkl_rmw_open [bkl_rmw_pushed]"; '#' lines skipped */
static void parse_acquirer(struct qwitness *w, const char *p)
{
	char *end;
	unsigned long count = strtoul(p, &end, 10);

	if (end == p || *end != ' ')
		return;
	end++;
	add_fn(&w->acq, &w->nr_acq, end, strcspn(end, " \t"), count);
}

int qwitness_read(struct qwitness *w, const char *path)
{
	struct strbuf console = STRBUF_INIT;
	char *line, *next;
	int in_list = 0;

	if (strbuf_read_file(&console, path) < 0) {
		strbuf_release(&console);
		return error("cannot read the console '%s': %s", path, strerror(errno));
	}
	for (line = console.buf; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		line = qemu_strip_line(line);
		if (!strcmp(line, ACQ_BEGIN)) {
			in_list = 1;
			w->seen = 1;
		} else if (!strcmp(line, ACQ_END)) {
			in_list = 0;
		} else if (in_list && !strncmp(line, ACQ_LINE, strlen(ACQ_LINE))) {
			parse_acquirer(w, line + strlen(ACQ_LINE));
		} else if (!strncmp(line, ACQ_NONE, strlen(ACQ_NONE)) && !w->none) {
			w->none = strdup(line + strlen(ACQ_NONE));
		}
	}
	strbuf_release(&console);
	return 0;
}

/* Match "name" and its compiler clones ("name.isra.0"). */
static unsigned long count_of(const struct qwitness *w, const char *name)
{
	size_t n = strlen(name);
	unsigned long sum = 0;
	int i;

	for (i = 0; i < w->nr_acq; i++)
		if (!strncmp(w->acq[i].name, name, n) &&
		    (!w->acq[i].name[n] || w->acq[i].name[n] == '.'))
			sum += w->acq[i].count;
	return sum;
}

static void fail_boot(struct qboot *b, const char *problem)
{
	struct qemu_result *r = &b->res;
	struct qemu_report *rep;

	r->reports = realloc(r->reports, (r->nr_reports + 1) * sizeof(*r->reports));
	rep = &r->reports[r->nr_reports++];
	memset(rep, 0, sizeof(*rep));
	rep->kind = "witness";
	rep->excerpt = strdup(problem);
	if (r->verdict == V_PASS)
		r->verdict = V_FAIL;
}

void qwitness_judge(struct qwitness *w, struct qboot *b)
{
	struct strbuf why = STRBUF_INIT, names = STRBUF_INIT;
	unsigned long total = 0;
	int i;

	for (i = 0; i < w->nr_opens; i++) {
		w->opens[i].count = count_of(w, w->opens[i].name);
		total += w->opens[i].count;
		strbuf_addf(&names, "%s%s()", i ? ", " : "", w->opens[i].name);
	}
	if (!w->seen)
		strbuf_addf(&why, "witness: no BKL acquirers on the console (%s)",
			    w->none ? w->none : "the exerciser did not print them");
	else if (!w->nr_opens)
		strbuf_addstr(&why, "witness: the push-down names no ->open() or ->fasync() entry point to look for");
	else if (w->expect && !total)
		strbuf_addf(&why, "witness: %s never took the BKL, though its push-down is applied",
			    names.buf);
	else if (!w->expect && total)
		strbuf_addf(&why, "witness: %s took the BKL %lu times after the conversion",
			    names.buf, total);
	if (why.len) {
		w->problem = strdup(why.buf);
		fail_boot(b, w->problem);
	}
	strbuf_release(&why);
	strbuf_release(&names);
}

static void json_fns(struct strbuf *sb, const struct qwitness_fn *fns, int nr)
{
	int i;

	strbuf_addch(sb, '[');
	for (i = 0; i < nr; i++) {
		strbuf_addstr(sb, i ? ",{\"function\":" : "{\"function\":");
		json_str_or_null(sb, fns[i].name);
		strbuf_addf(sb, ",\"count\":%lu}", fns[i].count);
	}
	strbuf_addch(sb, ']');
}

void qwitness_json(struct strbuf *sb, const struct qwitness *w)
{
	strbuf_addstr(sb, ",\"witness\":");
	if (!w->seen) {
		strbuf_addstr(sb, "null");
		return;
	}
	strbuf_addf(sb, "{\"expect\":\"%s\",\"opens\":", w->expect ? "taken" : "not taken");
	json_fns(sb, w->opens, w->nr_opens);
	strbuf_addstr(sb, ",\"acquirers\":");
	json_fns(sb, w->acq, w->nr_acq);
	strbuf_addch(sb, '}');
}

static void free_fns(struct qwitness_fn *fns, int nr)
{
	int i;

	for (i = 0; i < nr; i++)
		free(fns[i].name);
	free(fns);
}

void qwitness_release(struct qwitness *w)
{
	free_fns(w->acq, w->nr_acq);
	free_fns(w->opens, w->nr_opens);
	free(w->none);
	free(w->problem);
	memset(w, 0, sizeof(*w));
}
