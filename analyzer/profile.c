// SPDX-License-Identifier: GPL-2.0
/*
 * Which profiles a run uses, said once and kept in the DB's meta table
 * for the global pass (which may run later, in bkl merge or bkl audit,
 * without the tree at hand):
 *
 *   analyzer.lock_profile, analyzer.kernel_profile   the names
 *   analyzer.primitives   the --primitives file instead of both, or ''
 *   analyzer.gfp_reclaim  the gfp bit the run used (read from the tree)
 *   analyzer.release      the tree's release, '' when none was found
 *   analyzer.lock, analyzer.unlock   how messages name the lock and its unlock
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analyzer/analyzer.h"
#include "analyzer/internal.h"
#include "db/db.h"
#include "lib/strbuf.h"
#include "lib/usage.h"

/*
 * The kernel profile: the one asked for, else the tree's release's (the
 * nearest, with a warning, for a release no profile covers), else 6.x.
 * Then the gfp bit from the tree's headers when there is a tree.
 */
int profiles_choose(struct primitives *p, const struct analyzer_opts *o,
		    const struct tree_info *t, struct strbuf *said)
{
	const char *kernel = o->kernel_profile, *header = NULL;
	unsigned long long bit;
	int exact = 1, talk = !o->quiet_profiles;

	if (!kernel && !o->primitives && t->root)
		kernel = profile_kernel_for(t->version, t->patchlevel, &exact);
	if (primitives_load(p, o->primitives, o->lock_profile, kernel))
		return -1;
	if (!exact && talk)
		warning("Linux %s has no kernel profile: using %s, the nearest; its sleep, "
			"wait and registration rules are not verified for %s",
			t->release, p->kernel_profile, t->release);
	if (o->primitives)
		strbuf_addf(said, "primitives %s", o->primitives);
	else
		strbuf_addf(said, "lock %s, kernel %s", p->lock_profile, p->kernel_profile);
	if (!t->root) {
		strbuf_addf(said, " (no kernel tree found; gfp bit 0x%llx, the profile's)",
			    p->gfp_reclaim);
		return 0;
	}
	strbuf_addf(said, " (Linux %s at %s; ", t->release, t->root);
	if (!tree_gfp_bit(t, p, &bit, &header)) {
		p->gfp_reclaim = bit;
		strbuf_addf(said, "gfp bit %s = 0x%llx, %s)", p->gfp_macro, bit, header);
		return 0;
	}
	strbuf_addf(said, "gfp bit 0x%llx, the profile's: not verified)", p->gfp_reclaim);
	if (talk)
		warning("%s not found in %s's %s: using 0x%llx, not verified for Linux %s",
			p->gfp_macro ? p->gfp_macro : "no gfp macro in the profile, or it is",
			t->root, p->nr_gfp_headers ? p->gfp_headers[0] : "headers",
			p->gfp_reclaim, t->release);
	return 0;
}

static int set_meta(sqlite3 *db, const char *key, const char *value)
{
	sqlite3_stmt *st = db_prepare(db, "INSERT OR REPLACE INTO meta (key, value) "
				      "VALUES (@key, @value)");
	int ret;

	ret = !st || db_bind_text(st, "@key", key) || db_bind_text(st, "@value", value) ||
	      db_step_done(st) ? -1 : 0;
	sqlite3_finalize(st);
	return ret;
}

int profiles_store(sqlite3 *db, const struct primitives *p, const struct analyzer_opts *o,
		   const struct tree_info *t)
{
	char bit[32];

	snprintf(bit, sizeof(bit), "%llu", p->gfp_reclaim);
	return set_meta(db, "analyzer.lock_profile", p->lock_profile) ||
	       set_meta(db, "analyzer.kernel_profile", p->kernel_profile) ||
	       set_meta(db, "analyzer.primitives", o->primitives ? o->primitives : "") ||
	       set_meta(db, "analyzer.gfp_reclaim", bit) ||
	       set_meta(db, "analyzer.release", t->root ? t->release : "") ||
	       set_meta(db, "analyzer.lock", p->describe) ||
	       set_meta(db, "analyzer.unlock", prim_unlock_name(p)) ? -1 : 0;
}

/* meta's value for key into buf ('' when it has none) */
static void get_meta(sqlite3 *db, const char *key, char *buf, size_t size)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT value FROM meta WHERE key = @key");

	buf[0] = '\0';
	if (st && !db_bind_text(st, "@key", key) && sqlite3_step(st) == SQLITE_ROW)
		snprintf(buf, size, "%s", (const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
}

/*
 * The profiles of one lock's global pass: that lock profile, the kernel
 * profile the analysis stored (6.x for a DB analyzed before profiles),
 * with the gfp bit it read from the tree; for the BKL ('bkl' rows), the
 * --primitives file given, else the one the analysis used, if any.
 */
int profiles_from_db(sqlite3 *db, const struct analyzer_opts *o, const char *lock,
		     struct primitives *p)
{
	char kernel[256], file[4096], bit[32];

	get_meta(db, "analyzer.primitives", file, sizeof(file));
	get_meta(db, "analyzer.kernel_profile", kernel, sizeof(kernel));
	get_meta(db, "analyzer.gfp_reclaim", bit, sizeof(bit));
	if (o && o->primitives)
		snprintf(file, sizeof(file), "%s", o->primitives);
	if (*file && !strcmp(lock, "bkl")) {
		if (primitives_load(p, file, NULL, NULL))
			return -1;
	} else if (primitives_load(p, NULL, lock, *file || !*kernel ? NULL : kernel)) {
		return -1;
	}
	/* the bit the analysis read from the tree's headers */
	if (p->gfp_macro && *bit && strtoull(bit, NULL, 10))
		p->gfp_reclaim = strtoull(bit, NULL, 10);
	return 0;
}

/* "the BKL", "unlock_kernel": how messages name a lock of the DB and its unlock */
void profiles_names(sqlite3 *db, const char *lock, char *name, size_t nsize,
		    char *unlock, size_t usize)
{
	const char *d, *u;

	if (!profile_describe(lock, &d, &u)) {
		snprintf(name, nsize, "%s", d);
		snprintf(unlock, usize, "%s", u);
		return;
	}
	/* a --primitives file's lock ('bkl'): what the analysis stored */
	get_meta(db, "analyzer.lock", name, nsize);
	get_meta(db, "analyzer.unlock", unlock, usize);
	if (!*name)
		snprintf(name, nsize, "the BKL");
	if (!*unlock)
		snprintf(unlock, usize, "unlock_kernel");
}

int analyzer_check_profiles(const struct analyzer_opts *o)
{
	struct primitives p;

	if (o->primitives || (!o->lock_profile && !o->kernel_profile))
		return 0;
	if (primitives_load(&p, NULL, o->lock_profile, o->kernel_profile))
		return -1;
	primitives_release(&p);
	return 0;
}

int analyzer_say_profiles(const char *tree, const struct analyzer_opts *o)
{
	char *argv[] = { "bkl", "-I", (char *)tree, NULL };
	struct strbuf said = STRBUF_INIT;
	struct primitives p;
	struct tree_info t;
	int ret;

	tree_find(3, argv, &t);
	ret = profiles_choose(&p, o, &t, &said);
	if (!ret) {
		fprintf(stderr, "%s: profiles: %s\n", bkl_prog, said.buf);
		primitives_release(&p);
	}
	strbuf_release(&said);
	tree_release(&t);
	return ret;
}
