// SPDX-License-Identifier: GPL-2.0
/*
 * Reading a kernel's serial console the way a person does: find each
 * report (lockdep splat, WARN, BUG, Oops, hung task, panic, a BKL
 * message), take its whole block of lines, and hold it against the
 * .expect file of the boot.  The formats are those of Linux 6.1:
 * lockdep prints a line of '=' then "WARNING: ..." or "[ BUG: ... ]",
 * WARN() prints "cut here", its message, "WARNING: CPU: ..." and ends
 * with "---[ end trace", stack dumps end with "</TASK>".
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "qemu/qemu.h"
#include "lib/usage.h"

#define MAX_BLOCK	300	/* lines: a report that never ends stops here */
#define EXCERPT_LINES	10

enum block_mode {
	M_LINE,		/* one line */
	M_TRACE,	/* ends with the stack dump's </TASK> */
	M_CUT,		/* ends with ---[ end trace */
	M_PANIC,	/* ends with ---[ end Kernel panic, or the console */
	M_LOCKLIST,	/* ends after the list of held locks */
	M_HUNG,		/* M_TRACE, plus the "all locks held" list after it */
	M_ALL_LOCKS,	/* that list: ends with a line of '=' */
};

struct header {
	const char *re_src;
	const char *kind;
	enum block_mode mode;
	regex_t re;
};

/* First match wins; lockdep's "=====" + WARNING form is checked before these. */
static struct header headers[] = {
	{ "^-+\\[ cut here \\]-+$", "warning", M_CUT },
	{ "^Kernel panic - not syncing", "panic", M_PANIC },
	{ "^(Oops: |general protection fault)", "oops", M_CUT },
	{ "^kernel BUG at ", "bug", M_CUT },
	{ "^BUG: (sleeping function called from invalid context|scheduling while atomic)",
	  "lockdep", M_TRACE },
	{ "^INFO: task .* blocked for more than", "hung-task", M_HUNG },
	{ "^(watchdog: )?BUG: ", "bug", M_TRACE },
	{ "^(rcu: )?INFO: .*(detected stalls?|self-detected stall)", "stall", M_TRACE },
	{ "^WARNING: ", "warning", M_CUT },
	{ "^test_[a-z0-9_]+: .*FAILED", "selftest", M_LINE },
	{ "BKL", "bkl", M_LINE },
};

static regex_t selftest_narration, oops_line;
static int regexes_ready;

static int compile_headers(void)
{
	size_t i;

	if (regexes_ready)
		return 0;
	for (i = 0; i < sizeof(headers) / sizeof(headers[0]); i++)
		if (regcomp(&headers[i].re, headers[i].re_src, REG_EXTENDED | REG_NOSUB))
			return error("bad built-in pattern '%s'", headers[i].re_src);
	if (regcomp(&selftest_narration, "^test_[a-z0-9_]+: ", REG_EXTENDED | REG_NOSUB) ||
	    regcomp(&oops_line, "^(Oops: |general protection fault)", REG_EXTENDED | REG_NOSUB))
		return error("bad built-in pattern");
	regexes_ready = 1;
	return 0;
}

static int matches(const regex_t *re, const char *s)
{
	return !regexec(re, s, 0, NULL, 0);
}

static int starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* A line made only of c, as lockdep draws above its reports. */
static int is_rule(const char *s, char c)
{
	size_t n = strspn(s, (char[]){ c, 0 });

	return n >= 10 && !s[n];
}

static const char *trimmed(const char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return s;
}

char *qemu_strip_line(char *line)
{
	char *p = line, *end;

	/* SeaBIOS's terminal resets: ESC c, ESC [ ... letter */
	while (*p == '\033') {
		if (p[1] == '[') {
			p += 2;
			while (*p && !isalpha((unsigned char)*p))
				p++;
			if (*p)
				p++;
		} else {
			p += p[1] ? 2 : 1;
		}
	}
	/* "[    1.234567] " and, with PRINTK_CALLER, "[    T1] " */
	while (*p == '[') {
		end = strchr(p, ']');
		if (!end || end[1] != ' ' || strspn(p + 1, " .0123456789TC") != (size_t)(end - p - 1))
			break;
		p = end + 2;
	}
	end = p + strlen(p);
	while (end > p && (end[-1] == '\r' || end[-1] == '\n'))
		*--end = '\0';
	return p;
}

/* The header starting at line i, if any; *first may move up to its "=====" line. */
static const struct header *find_header(char **ln, int i, int *first)
{
	static struct header lockdep = { NULL, "lockdep", M_TRACE };
	static struct header lockdep_user = { NULL, "lockdep", M_LOCKLIST };
	size_t h;

	*first = i;
	if (i > 0 && is_rule(ln[i - 1], '=') &&
	    (starts(ln[i], "WARNING: ") || starts(ln[i], "[ BUG: ") || starts(ln[i], "BUG: "))) {
		*first = i - 1;
		if (strstr(ln[i], "lock held when returning to user space"))
			return &lockdep_user;
		return &lockdep;
	}
	for (h = 0; h < sizeof(headers) / sizeof(headers[0]); h++) {
		if (!matches(&headers[h].re, ln[i]))
			continue;
		if (headers[h].mode == M_LINE && !strcmp(headers[h].kind, "bkl") &&
		    matches(&selftest_narration, ln[i]))
			continue;	/* "test_bkl: case: ok" narrates; its reports come apart */
		return &headers[h];
	}
	return NULL;
}

/* Does a new report start at line j (closing a stack-dump block before it)? */
static int new_report_at(char **ln, int j, int *first)
{
	const struct header *h = find_header(ln, j, first);

	return h && h->mode != M_LINE && !matches(&oops_line, ln[j]);
}

static int block_end(char **ln, int n, int i, const struct header *h)
{
	enum block_mode mode = h->mode;
	int j, first, seen_held = 0;

	if (mode == M_LINE)
		return i;
	for (j = i + 1; j < n && j < i + MAX_BLOCK; j++) {
		const char *s = ln[j], *t = trimmed(s);

		if (starts(s, "---[ end trace") || starts(s, "---[ end Kernel panic"))
			return j;
		if (mode == M_PANIC)
			continue;
		if (starts(s, "Kernel panic - not syncing"))
			return j - 1;
		if (matches(&oops_line, s))
			mode = M_CUT;
		if (mode == M_CUT)
			continue;
		if (mode == M_LOCKLIST) {
			if (strstr(s, " held by "))
				seen_held = 1;
			else if (seen_held && *t != '#')
				return j - 1;
			continue;
		}
		if (mode == M_ALL_LOCKS) {
			if (is_rule(s, '='))
				return j;
			continue;
		}
		if (new_report_at(ln, j, &first))
			return first - 1;
		if (!strcmp(t, "</TASK>")) {
			int k = j + 1;

			while (k < n && !*trimmed(ln[k]))
				k++;
			if (mode == M_HUNG && k < n && starts(ln[k], "Showing all locks held"))
				mode = M_ALL_LOCKS;
			else
				return j;
		}
	}
	return j - 1;
}

static const char *refine_kind(char **ln, int first, int last, const char *kind)
{
	int i;

	for (i = first; i <= last; i++) {
		if (matches(&oops_line, ln[i]))
			return "oops";
		if (starts(ln[i], "kernel BUG at "))
			return "bug";
		if (!strcmp(kind, "warning") && strstr(ln[i], "DEBUG_LOCKS_WARN_ON"))
			kind = "lockdep";
	}
	return kind;
}

static char *make_excerpt(char **ln, int first, int last)
{
	struct strbuf sb = STRBUF_INIT;
	int i, shown = 0;

	for (i = first; i <= last; i++) {
		const char *t = trimmed(ln[i]);

		if (!*t || is_rule(t, '=') || is_rule(t, '-'))
			continue;
		if (shown++ == EXCERPT_LINES) {
			strbuf_addf(&sb, "... (console lines %d-%d)\n", first + 1, last + 1);
			break;
		}
		strbuf_addf(&sb, "%s\n", ln[i]);
	}
	if (sb.len)
		sb.buf[--sb.len] = '\0';
	return sb.buf ? sb.buf : strdup("");
}

static struct qemu_report *add_report(struct qemu_result *res, const char *kind,
				      int first, int last, char *excerpt)
{
	struct qemu_report *r;

	res->reports = realloc(res->reports, (res->nr_reports + 1) * sizeof(*r));
	r = &res->reports[res->nr_reports++];
	r->kind = kind;
	r->expected = 0;
	r->first = first + 1;
	r->last = last + 1;
	r->excerpt = excerpt;
	return r;
}

/* Expected when some `report` directive matches one of its lines. */
static void judge_report(struct qemu_report *r, char **ln, struct qemu_expect *e)
{
	int i, k;

	for (k = 0; k < e->nr; k++) {
		if (e->rules[k].type != EXPECT_REPORT)
			continue;
		for (i = r->first - 1; i < r->last; i++)
			if (matches(&e->rules[k].re, ln[i]))
				break;
		if (i < r->last) {
			e->rules[k].hits++;
			r->expected = 1;
		}
	}
}

static void find_reports(char **ln, int n, struct qemu_expect *e, struct qemu_result *res)
{
	int i, first, last;

	for (i = 0; i < n; i++) {
		const struct header *h = find_header(ln, i, &first);

		if (!h)
			continue;
		last = block_end(ln, n, i, h);
		if (h->mode == M_PANIC)
			res->finished = 1;
		judge_report(add_report(res, refine_kind(ln, first, last, h->kind), first, last,
					make_excerpt(ln, first, last)), ln, e);
		i = last;
	}
}

static void match_lines(char **ln, int n, struct qemu_expect *e, struct qemu_result *res)
{
	int i, k;

	for (i = 0; i < n; i++) {
		if (starts(ln[i], "reboot: Power down") || starts(ln[i], "reboot: Restarting system"))
			res->finished = 1;
		for (k = 0; k < e->nr; k++)
			if (e->rules[k].type == EXPECT_LINE && matches(&e->rules[k].re, ln[i]))
				e->rules[k].hits++;
	}
}

static void list_missing(struct qemu_expect *e, struct qemu_result *res)
{
	struct strbuf sb = STRBUF_INIT;
	int k;

	for (k = 0; k < e->nr; k++) {
		if (e->rules[k].hits)
			continue;
		strbuf_addf(&sb, "%s %s", e->rules[k].type == EXPECT_LINE ? "line" : "report",
			    e->rules[k].pattern);
		res->missing = realloc(res->missing, (res->nr_missing + 1) * sizeof(char *));
		res->missing[res->nr_missing++] = strdup(sb.buf);
		strbuf_reset(&sb);
	}
	strbuf_release(&sb);
}

/* The last few console lines: where a run stopped. */
static void add_tail_report(struct qemu_result *res, const char *kind, char **ln, int n)
{
	int first = n, shown = 0;

	while (first > 0 && shown < 5)
		if (*trimmed(ln[--first]))
			shown++;
	if (!n)
		add_report(res, kind, 0, 0, strdup("(no console output)"));
	else
		add_report(res, kind, first, n - 1, make_excerpt(ln, first, n - 1));
}

static int split_lines(char *text, char ***lines)
{
	int n = 0, alloc = 0;
	char *p = text, *nl;

	*lines = NULL;
	while (*p) {
		nl = strchr(p, '\n');
		if (nl)
			*nl = '\0';
		if (n == alloc) {
			alloc = alloc ? alloc * 2 : 1024;
			*lines = realloc(*lines, alloc * sizeof(char *));
		}
		(*lines)[n++] = qemu_strip_line(p);
		if (!nl)
			break;
		p = nl + 1;
	}
	return n;
}

static enum qemu_verdict decide(const struct qemu_result *res, const struct qemu_run *run)
{
	int i;

	if (run ? run->timed_out : !res->finished)
		return V_TIMEOUT;
	for (i = 0; i < res->nr_reports; i++)
		if (!res->reports[i].expected)
			return V_FAIL;
	return res->nr_missing ? V_FAIL : V_PASS;
}

int qemu_classify(const char *console, struct qemu_expect *e,
		  const struct qemu_run *run, struct qemu_result *res)
{
	char *text = strdup(console), **ln;
	int n, k;

	memset(res, 0, sizeof(*res));
	if (compile_headers()) {
		free(text);
		return -1;
	}
	for (k = 0; k < e->nr; k++)
		e->rules[k].hits = 0;
	n = split_lines(text, &ln);
	match_lines(ln, n, e, res);
	find_reports(ln, n, e, res);
	list_missing(e, res);
	if (run ? run->timed_out : !res->finished)
		add_tail_report(res, "timeout", ln, n);
	else if (run && !res->finished)
		add_tail_report(res, "qemu", ln, n);
	res->verdict = decide(res, run);
	free(ln);
	free(text);
	return 0;
}

void qemu_result_release(struct qemu_result *res)
{
	int i;

	for (i = 0; i < res->nr_reports; i++)
		free(res->reports[i].excerpt);
	for (i = 0; i < res->nr_missing; i++)
		free(res->missing[i]);
	free(res->reports);
	free(res->missing);
	memset(res, 0, sizeof(*res));
}

const char *qemu_verdict_name(enum qemu_verdict v)
{
	static const char *names[] = { "pass", "fail", "timeout", "build-failed" };

	return names[v];
}

static int add_rule(struct qemu_expect *e, enum expect_type type, const char *pattern,
		    int lineno)
{
	struct expect_rule *r;
	char msg[256];
	int err;

	e->rules = realloc(e->rules, (e->nr + 1) * sizeof(*r));
	r = &e->rules[e->nr];
	memset(r, 0, sizeof(*r));
	err = regcomp(&r->re, pattern, REG_EXTENDED | REG_NOSUB);
	if (err) {
		regerror(err, &r->re, msg, sizeof(msg));
		return error("%s:%d: bad regular expression '%s': %s", e->path, lineno, pattern, msg);
	}
	r->type = type;
	r->pattern = strdup(pattern);
	r->lineno = lineno;
	e->nr++;
	return 0;
}

static int parse_directive(struct qemu_expect *e, char *line, int lineno)
{
	char *p = (char *)trimmed(line), *end = p + strlen(p), *arg;
	size_t word;

	while (end > p && isspace((unsigned char)end[-1]))
		*--end = '\0';
	if (!*p || *p == '#')
		return 0;
	word = strcspn(p, " \t");
	arg = (char *)trimmed(p + word);
	if (!*arg)
		return error("%s:%d: '%.*s' needs a regular expression", e->path, lineno,
			     (int)word, p);
	if (word == 4 && !strncmp(p, "line", 4))
		return add_rule(e, EXPECT_LINE, arg, lineno);
	if (word == 6 && !strncmp(p, "report", 6))
		return add_rule(e, EXPECT_REPORT, arg, lineno);
	return error("%s:%d: unknown directive '%.*s' (expected 'line' or 'report')",
		     e->path, lineno, (int)word, p);
}

int qemu_expect_read(struct qemu_expect *e, const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	char *p, *nl;
	int lineno = 0, ret = 0;

	memset(e, 0, sizeof(*e));
	e->path = strdup(path);
	if (strbuf_read_file(&sb, path) < 0) {
		strbuf_release(&sb);
		return error("cannot read the expectations '%s'", path);
	}
	for (p = sb.buf; p && *p && !ret; p = nl ? nl + 1 : NULL) {
		nl = strchr(p, '\n');
		if (nl)
			*nl = '\0';
		ret = parse_directive(e, p, ++lineno);
	}
	strbuf_release(&sb);
	return ret;
}

void qemu_expect_release(struct qemu_expect *e)
{
	int i;

	for (i = 0; i < e->nr; i++) {
		regfree(&e->rules[i].re);
		free(e->rules[i].pattern);
	}
	free(e->rules);
	free(e->path);
	memset(e, 0, sizeof(*e));
}
