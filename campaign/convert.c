// SPDX-License-Identifier: GPL-2.0
/*
 * bkl convert: after the audit, the pushed-down BKL goes.  Verdict none:
 * it protected nothing, drop it.  mutex: the driver's own state needs
 * serializing, so a driver-private mutex says exactly that.  init-order:
 * open() could run before the driver finished initializing; register the
 * device last, and the lock has nothing left to do.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "campaign/audit.h"
#include "campaign/patch.h"
#include "campaign/pushdown.h"
#include "campaign/record.h"
#include "campaign/rewrite.h"
#include "lib/paths.h"
#include "lib/run-command.h"
#include "lib/strbuf.h"
#include "lib/usage.h"

static const char *const slugs[V_NR] = {
	"remove-the-BKL-from-open", "replace-the-BKL-with-a-mutex",
	"register-the-device-once-it-is-initialized"
};
static const char *const subjects[V_NR] = {
	"remove the BKL from open()", "replace the BKL with a mutex",
	"register the device once it is initialized"
};

static int next_line(const struct csrc *c, int off)
{
	const char *nl = strchr(c->text + off, '\n');

	return nl ? (int)(nl - c->text) + 1 : c->size;
}

/* Is the statement [i, e] alone on its line(s)? */
static int own_lines(const struct csrc *c, int i, int e)
{
	int k = c->t[e].off + 1;

	while (c->text[k] == ' ' || c->text[k] == '\t')
		k++;
	return tok_starts_line(c, i) && (c->text[k] == '\n' || !c->text[k]);
}

/* Each "lock_kernel();" / "unlock_kernel();" in f: dropped, or made the mutex's. */
static int convert_calls(const struct csrc *c, const struct cfunc *f, const char *mutex,
			 struct edits *ed)
{
	int i, rb = c->t[f->lbrace].match, n = 0;

	for (i = f->lbrace + 1; i + 3 < rb; i++) {
		int unlock = tok_is(c, i, "unlock_kernel");

		if (!(unlock || tok_is(c, i, "lock_kernel")) || !tok_is(c, i + 1, "(") ||
		    !tok_is(c, i + 2, ")") || !tok_is(c, i + 3, ";"))
			continue;
		n++;
		if (mutex) {
			struct strbuf sb = STRBUF_INIT;

			strbuf_addf(&sb, "%s(&%s)", unlock ? "mutex_unlock" : "mutex_lock", mutex);
			edits_add(ed, c->t[i].off, c->t[i + 2].off + 1 - c->t[i].off, sb.buf);
			strbuf_release(&sb);
		} else if (own_lines(c, i, i + 3)) {
			int ls = line_start(c, c->t[i].off);

			edits_add(ed, ls, next_line(c, c->t[i + 3].off) - ls, "");
		} else {
			return error("'%s' line %d: the BKL call shares its line; do it by hand",
				     f->name, c->t[i].line);
		}
	}
	if (!n)
		return error("'%s()' takes no BKL in the series: was its push-down changed?", f->name);
	return 0;
}

/* Other BKL calls in the file, outside the functions we convert? */
static int bkl_elsewhere(const struct csrc *c, const struct cfunc *fs, int nr)
{
	int i, k;

	for (i = 0; i < c->nr; i++) {
		if (!tok_is(c, i, "lock_kernel") && !tok_is(c, i, "unlock_kernel") &&
		    !tok_is(c, i, "kernel_locked") && !tok_is(c, i, "cycle_kernel_lock"))
			continue;
		for (k = 0; k < nr; k++)
			if (i > fs[k].lbrace && i < c->t[fs[k].lbrace].match)
				break;
		if (k == nr)
			return 1;
	}
	return 0;
}

/* "static DEFINE_MUTEX(x);" after the last #include of the leading block. */
static void add_mutex(const struct csrc *c, const char *mutex, struct edits *ed)
{
	int at = 0, off;
	struct strbuf sb = STRBUF_INIT;

	for (off = 0; off < c->size && (!c->nr || off <= c->t[0].off); off = next_line(c, off))
		if (!strncmp(c->text + off, "#include", 8))
			at = next_line(c, off);
	strbuf_addf(&sb, "\nstatic DEFINE_MUTEX(%s);\n", mutex);
	edits_add(ed, at, 0, sb.buf);
	strbuf_release(&sb);
}

static char *mutex_name(const struct cdriver *d, const struct csrc *c)
{
	struct strbuf sb = STRBUF_INIT;
	char *p;
	int i;

	strbuf_addf(&sb, "%s_mutex", d->id);
	for (p = sb.buf; *p; p++)
		if (*p == '-')
			*p = '_';
	for (i = 0; i < c->nr; i++)
		if (tok_is(c, i, sb.buf)) {
			strbuf_reset(&sb);
			strbuf_addf(&sb, "%s_open_mutex", d->id);
			for (p = sb.buf; *p; p++)
				if (*p == '-')
					*p = '_';
			break;
		}
	return sb.buf;
}

/* The files holding the driver's entry points, once each. */
static int entry_files(const struct cdriver *d, char ***files)
{
	int i, k, nr = 0;

	*files = NULL;
	for (i = 0; i < d->nr_e; i++) {
		for (k = 0; k < nr && strcmp((*files)[k], d->e[i].file); k++)
			;
		if (k < nr)
			continue;
		*files = realloc(*files, (nr + 1) * sizeof(**files));
		(*files)[nr++] = d->e[i].file;
	}
	return nr;
}

/*
 * Verdict none (and init-order): the push-down undone is the cleanest
 * result, the driver's open() as it was.  Only when patch 0001 still
 * reverses cleanly; otherwise the BKL lines are taken out one by one.
 */
static int revert_pushdown(const struct campaign *c, const char *scratch, const char *p1)
{
	struct strbuf dir = STRBUF_INIT, patch = STRBUF_INIT, out = STRBUF_INIT;
	const char *argv[] = { "patch", "-R", "-p1", "-s", "--batch", "--no-backup-if-mismatch",
			       "-r", "-", "-d", NULL, "-i", NULL, NULL };
	int ret;

	strbuf_addf(&dir, "%s/b", scratch);
	strbuf_addf(&patch, "%s/patches/%s", c->repo, p1);
	argv[9] = dir.buf;
	argv[11] = patch.buf;
	ret = run_command(argv, NULL, &out) ? -1 : 0;
	strbuf_release(&dir);
	strbuf_release(&patch);
	strbuf_release(&out);
	return ret;
}

static int convert_file(const struct cdriver *d, const char *scratch, const char *file,
			int verdict, struct strbuf *mutex_out)
{
	struct strbuf path = STRBUF_INIT, out = STRBUF_INIT;
	struct cfunc *fs = NULL;
	struct edits ed = { 0 };
	char *mutex = NULL;
	struct csrc c;
	int i, nr = 0, ret = -1;

	strbuf_addf(&path, "%s/b/%s", scratch, file);
	if (csrc_read(&c, path.buf))
		goto out;
	if (verdict == V_MUTEX) {
		mutex = mutex_name(d, &c);
		strbuf_addstr(mutex_out, mutex);
	}
	for (i = 0; i < d->nr_e; i++) {
		if (strcmp(d->e[i].file, file))
			continue;
		fs = realloc(fs, (nr + 1) * sizeof(*fs));
		if (csrc_find_function(&c, d->e[i].function, 0, &fs[nr])) {
			error("no definition of '%s' in '%s'", d->e[i].function, file);
			goto out_src;
		}
		if (convert_calls(&c, &fs[nr++], mutex, &ed))
			goto out_src;
	}
	if (!bkl_elsewhere(&c, fs, nr))
		rewrite_drop_include(&c, "linux/smp_lock.h", &ed);
	if (mutex) {
		if (rewrite_add_include(&c, "linux/mutex.h", &ed) < 0)
			goto out_src;
		add_mutex(&c, mutex, &ed);
	}
	if (edits_apply(c.text, c.size, &ed, &out))
		goto out_src;
	{
		FILE *f = fopen(path.buf, "w");

		if (!f || fwrite(out.buf, 1, out.len, f) != out.len || fclose(f))
			goto out_src;
	}
	ret = 0;
out_src:
	for (i = 0; i < nr; i++)
		free(fs[i].name);
	free(fs);
	csrc_release(&c);
out:
	free(mutex);
	edits_release(&ed);
	strbuf_release(&path);
	strbuf_release(&out);
	return ret;
}

/* b/ starts as a copy of a/, for the files we change. */
static int copy_to_b(const char *scratch, char *const *files, int nr)
{
	struct strbuf cmd = STRBUF_INIT;
	int i, ret = 0;

	for (i = 0; i < nr && !ret; i++) {
		struct strbuf from = STRBUF_INIT, text = STRBUF_INIT, to = STRBUF_INIT;
		FILE *f;

		strbuf_addf(&from, "%s/a/%s", scratch, files[i]);
		strbuf_addf(&to, "%s/b/%s", scratch, files[i]);
		ret = mkdir_parent(to.buf) || strbuf_read_file(&text, from.buf) ? -1 : 0;
		f = ret ? NULL : fopen(to.buf, "w");
		if (!ret && (!f || fwrite(sb_str(&text), 1, text.len, f) != text.len || fclose(f)))
			ret = error("cannot write '%s'", to.buf);
		strbuf_release(&from);
		strbuf_release(&to);
		strbuf_release(&text);
	}
	strbuf_release(&cmd);
	return ret;
}

static void changelog(const struct campaign *c, const struct cdriver *d, int verdict,
		      const char *why, const char *mutex, const char *order,
		      const char *audited, struct strbuf *body)
{
	char *rec = cdriver_record_path(c, d);
	struct strbuf eps = STRBUF_INIT, via = STRBUF_INIT;
	int i, k, n;

	/* what the push-down took it in: the functions with lock sites of their own */
	for (i = 0, k = 0; i < d->nr_e; i++)
		if (d->e[i].locks)
			strbuf_addf(&eps, "%s%s()", k++ ? ", " : "", d->e[i].function);
	for (i = 0, n = 0; i < d->nr_e; i++) {
		if (!d->e[i].locks || !centry_is_entry(&d->e[i]) || strstr(sb_str(&via), d->e[i].via))
			continue;
		strbuf_addf(&via, "%s%s()", n++ ? ", " : "", d->e[i].via);
	}
	strbuf_addf(body, "The big kernel lock in %s was pushed down from %s so that the "
		    "driver behaved exactly as before. ", eps.len ? eps.buf : "its entry points",
		    via.len ? via.buf : "its callers");
	if (verdict == V_NONE)
		strbuf_addstr(body, "The audit found nothing it protects here, so remove it.\n\n");
	else if (verdict == V_MUTEX)
		strbuf_addf(body, "The audit found driver state that still needs open() to be "
			    "serialized, so a driver-private mutex (%s) takes the BKL's place "
			    "and says what it is for.\n\n", mutex);
	else
		strbuf_addf(body, "The audit found the device registered before the driver "
			    "finished initializing, a race the lock never closed (module "
			    "initialization takes no BKL). Register the device only after "
			    "that (%s), and drop the lock.\n\n", order);
	if (why && *why)
		strbuf_addf(body, "Audit: %s\n\n", why);
	if (audited && *audited)
		strbuf_addf(body, "With the BKL held it calls entry points of other drivers "
			    "that take no BKL of their own; the audit of each found it needs "
			    "none (their records in drivers-audit/): %s.\n\n", audited);
	/* "path: ..." first on its line: checkpatch lets a long path be */
	strbuf_addf(body, "%s: the audit record, with the facts this rests on.\n",
		    rec + strlen(c->repo) + 1);
	strbuf_release(&eps);
	strbuf_release(&via);
	free(rec);
}

/*
 * Did the audit of the driver that owns a dependent entry point find that
 * it needs no lock (verdict none, a rule's or a person's)?  Then the BKL
 * its caller holds around it protects nothing there either.
 */
static int dependent_needs_none(struct campaign *c, const char *id)
{
	struct cdriver dd;
	char *path;
	int verdict = -1;

	if (!strcmp(id, "?") || campaign_driver(c, id, &dd))
		return 0;
	path = cdriver_record_path(c, &dd);
	if (access(path, R_OK) || record_verdict(path, &verdict, NULL))
		verdict = -1;
	free(path);
	cdriver_release(&dd);
	return verdict == V_NONE;
}

/*
 * Does the driver that owns a dependent entry point take the BKL itself
 * (its push-down in the series), or protect what the BKL did (a follower's
 * own conversion: a mutex, an initialization moved)?
 */
static int dependent_has_patch(struct campaign *c, const char *id)
{
	int n, found = 0;

	for (n = 1; n <= 2 && !found && strcmp(id, "?"); n++) {
		char *p = campaign_patch_find_id(c, id, n);

		found = p && series_contains(c, p);
		free(p);
	}
	return found;
}

/*
 * misc_open() calls every misc driver's open() with the BKL held: its lock
 * may go only once each of them takes the BKL itself or was audited to
 * need none (its followers' records: "audited" gets their names for the
 * changelog), and only a whole-tree audit knows them all.
 */
static int check_dependents(struct campaign *c, const struct cdriver *d, int partial,
			    struct strbuf *audited)
{
	struct strbuf left = STRBUF_INIT;
	char **dep;
	int nr, i, missing = 0, ret = 0, files;

	if (facts_dependents(c, d, &dep, &nr))
		return -1;
	for (i = 0; i < nr; i++) {
		char *tab = strchr(dep[i], '\t');

		*tab = '\0';
		if (dependent_has_patch(c, dep[i]))
			continue;
		if (dependent_needs_none(c, dep[i])) {
			strbuf_addf(audited, "%s%s (%s())", audited->len ? ", " : "", dep[i],
				    tab + 1);
			continue;
		}
		if (missing++ < 8)
			strbuf_addf(&left, "%s%s (%s())", missing > 1 ? ", " : "", dep[i], tab + 1);
	}
	if (missing)
		ret = error("'%s' calls %d entry point%s of other drivers with the BKL held that "
			    "take%s no BKL of %s own and %s no audit verdict of none: %s%s; "
			    "push %s down, audit %s or fix %s first", d->id, missing,
			    missing == 1 ? "" : "s", missing == 1 ? "s" : "",
			    missing == 1 ? "its" : "their", missing == 1 ? "has" : "have", left.buf,
			    missing > 8 ? ", ..." : "", missing == 1 ? "it" : "them",
			    missing == 1 ? "it" : "them", missing == 1 ? "it" : "them");
	else if ((nr || facts_indirect_calls(c, d)) && !partial &&
		 (files = facts_analyzed_files(c)) < WHOLE_TREE_FILES)
		ret = error("'%s' calls through function pointers with the BKL held; the DB holds "
			    "%d analyzed files, not the whole tree: code outside them would lose the "
			    "BKL unseen (run 'bkl audit', or --partial)", d->id, files);
	for (i = 0; i < nr; i++)
		free(dep[i]);
	free(dep);
	strbuf_release(&left);
	return ret;
}

/*
 * The reviewer's checklist, every item ticked: the verdict rests on it;
 * or a rule's verdict (bkl audit-record --rules), which rests on the
 * facts the rule names and says so in the changelog.
 */
static int checklist_done(const struct campaign *c, const struct cdriver *d, const char *why)
{
	char *path = cdriver_record_path(c, d);
	struct strbuf item = STRBUF_INIT;
	int r = why && strstr(why, "Given by rule ") ? 0 : record_unticked(path, &item);

	if (r > 0)
		error("the audit record of '%s' (%s) has unticked checklist items, the first: \"%s\"",
		      d->id, path + strlen(c->repo) + 1, item.buf);
	free(path);
	strbuf_release(&item);
	return r ? -1 : 0;
}

int campaign_convert(struct campaign *c, const struct cdriver *d, int verdict,
		     const char *why, const char *author, int partial)
{
	struct strbuf scratch = STRBUF_INIT, rel = STRBUF_INIT, subject = STRBUF_INIT;
	struct strbuf body = STRBUF_INIT, mutex = STRBUF_INIT, order = STRBUF_INIT;
	struct strbuf audited = STRBUF_INIT;
	char *p1 = campaign_patch_find(c, d, 1), *p2 = campaign_patch_find(c, d, 2);
	char *prefix = cdriver_prefix(d, 0), *file_prefix = cdriver_prefix(d, 1), **files;
	int i, nr = entry_files(d, &files), ret = -1, r, reverted = 0;

	if (!p1 || !series_contains(c, p1)) {
		error("'%s' has no push-down in the series: run 'bkl pushdown %s' first", d->id, d->id);
		goto out;
	}
	if (p2 && series_contains(c, p2)) {
		error("'%s' is converted already (patches/%s)", d->id, p2);
		goto out;
	}
	if (checklist_done(c, d, why))
		goto out;
	if (verdict != V_MUTEX && check_dependents(c, d, partial, &audited))
		goto out;
	if (verdict == V_MUTEX && nr > 1) {
		error("'%s' has entry points in %d files: a shared mutex is for a person to place",
		      d->id, nr);
		goto out;
	}
	if (campaign_base(c, d->files, d->nr_files, NULL, &scratch) ||
	    copy_to_b(scratch.buf, d->files, d->nr_files))
		goto out;
	reverted = verdict != V_MUTEX && !revert_pushdown(c, scratch.buf, p1);
	if (verdict != V_MUTEX && !reverted && copy_to_b(scratch.buf, d->files, d->nr_files))
		goto out_scratch;	/* a half-reversed b/ is no base */
	if (verdict == V_INIT_ORDER) {
		r = reorder_init(c, d, scratch.buf, author, &order);
		if (r) {
			ret = r < 0 ? -1 : 0;	/* 1: a skeleton was written instead */
			goto out_scratch;
		}
	}
	for (i = 0; i < nr && !reverted; i++)
		if (convert_file(d, scratch.buf, files[i], verdict, &mutex))
			goto out_scratch;
	strbuf_addf(&rel, "drivers/%s/0002-%s-%s.patch", d->id, file_prefix, slugs[verdict]);
	strbuf_addf(&subject, "%s: %s", prefix, subjects[verdict]);
	changelog(c, d, verdict, why, mutex.buf, order.buf, audited.buf, &body);
	{
		struct cpatch p = { rel.buf, author, subject.buf, body.buf, scratch.buf, d->files,
				    d->nr_files };

		if (campaign_write_patch(c, &p) || series_append(c, rel.buf))
			goto out_scratch;
	}
	strbuf_reset(&body);
	strbuf_addf(&body, "verdict %s: %s", verdict_names[verdict], rel.buf);
	ret = campaign_advance(c, d->id, "convert", CS_CONVERTED, author, body.buf);
	if (!ret)
		printf("%s: patches/%s\n", d->id, rel.buf);
out_scratch:
	campaign_scratch_remove(scratch.buf);
out:
	free(files);
	free(prefix);
	free(file_prefix);
	free(p1);
	free(p2);
	strbuf_release(&scratch);
	strbuf_release(&rel);
	strbuf_release(&subject);
	strbuf_release(&body);
	strbuf_release(&mutex);
	strbuf_release(&order);
	strbuf_release(&audited);
	return ret;
}
