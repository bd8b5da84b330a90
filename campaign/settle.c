// SPDX-License-Identifier: GPL-2.0
/*
 * Done means done: a driver is done when its conversion is in the series,
 * a person confirmed its verdict, and it passed bkl test before and after;
 * or, where QEMU cannot present it, when the files its patches touch
 * compiled under both configs of the last bkl tree --build and
 * qemu-tests/unexercised says which hardware QEMU lacks.  The campaign
 * state says so without a separate step.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "campaign/patch.h"
#include "campaign/record.h"
#include "kbuild/build.h"
#include "qemu/driver.h"
#include "lib/paths.h"
#include "lib/strbuf.h"
#include "lib/usage.h"

/* "not written yet: ...", "withheld ...": no hardware missing, a test to write */
static int qemu_lacks_it(const char *id, struct strbuf *why)
{
	if (qdriver_exercised(id, why) != 0)
		return 0;
	return strncmp(sb_str(why), "not written yet", 15) && strncmp(sb_str(why), "withheld", 8);
}

/* The .c files the driver's patches touch, each compiled with CONFIG_BKL on and off? */
static int compiled_both(const struct campaign *c, const struct cdriver *d, struct strbuf *bad)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	char real[PATH_MAX], **files = NULL;
	int n, i, nr = 0, ok = 1;

	if (!realpath(c->tree, real))
		return 0;
	for (n = 1; n <= 2 && ok; n++) {
		char *rel = campaign_patch_find_id(c, d->id, n);

		strbuf_reset(&path);
		strbuf_reset(&text);
		strbuf_addf(&path, "%s/patches/%s", c->repo, rel ? rel : "");
		if (rel && strbuf_read_file(&text, path.buf))
			ok = 0;
		else if (rel)
			campaign_patch_files(text.buf, &files, &nr);
		free(rel);
	}
	for (i = 0; i < nr; i++) {
		size_t len = strlen(files[i]);

		if (ok && len > 2 && !strcmp(files[i] + len - 2, ".c") &&
		    (tree_build_result(real, "allmodconfig", 1, files[i]) != 'o' ||
		     tree_build_result(real, "allmodconfig", 0, files[i]) != 'o')) {
			strbuf_addstr(bad, files[i]);
			ok = 0;
		}
		free(files[i]);
	}
	free(files);
	strbuf_release(&path);
	strbuf_release(&text);
	return ok;
}

int campaign_settle(struct campaign *c, const struct cdriver *d, const char *who)
{
	char *path = cdriver_record_path(c, d);
	struct strbuf why = STRBUF_INIT, bad = STRBUF_INIT, note = STRBUF_INIT;
	struct cstate st;
	int ret = 0;

	if (campaign_state(c, d->id, &st)) {
		free(path);
		return -1;
	}
	if (!record_confirmed(path))
		goto out;
	if (st.status == CS_TESTED)
		strbuf_addstr(&note, "converted in the series, verdict confirmed, bkl test passed");
	else if (st.status == CS_CONVERTED && qemu_lacks_it(d->id, &why) &&
		 compiled_both(c, d, &bad))
		strbuf_addf(&note, "converted in the series, verdict confirmed, compiled with the "
			    "BKL on and off (bkl tree --build); not in QEMU: %s", why.buf);
	else if (st.status == CS_CONVERTED && bad.len)
		printf("'%s': not done: %s did not compile under both configs of the last "
		       "bkl tree --build (make check)\n", d->id, bad.buf);
	if (note.len) {
		ret = campaign_record(c, d->id, "done", CS_DONE, st.holder, who, note.buf);
		if (!ret)
			printf("'%s': done\n", d->id);
	}
out:
	cstate_release(&st);
	strbuf_release(&why);
	strbuf_release(&bad);
	strbuf_release(&note);
	free(path);
	return ret;
}
