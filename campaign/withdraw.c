// SPDX-License-Identifier: GPL-2.0
/*
 * bkl pushdown --withdraw: take a driver's patches out of the queue (its
 * push-down and what was built on it), and say why in the history.  The
 * driver goes back to unclaimed: what the BKL covers there is then the
 * business of whoever holds the BKL around it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "campaign/pushdown.h"
#include "campaign/patch.h"
#include "campaign/campaign.h"
#include "lib/strbuf.h"
#include "lib/usage.h"

static int remove_patch(const struct campaign *c, const char *rel)
{
	struct strbuf path = STRBUF_INIT;
	int ret = 0;

	strbuf_addf(&path, "%s/patches/%s", c->repo, rel);
	if (series_remove(c, rel) || (unlink(path.buf) && errno != ENOENT))
		ret = error("cannot remove 'patches/%s': %s", rel, strerror(errno));
	strbuf_release(&path);
	return ret;
}

int campaign_withdraw(struct campaign *c, const char *id, const char *who, const char *why)
{
	struct strbuf dir = STRBUF_INIT, names = STRBUF_INIT;
	int n, nr = 0, ret = 0;

	for (n = 9; n >= 1 && !ret; n--) {	/* the last patch first */
		char *p = campaign_patch_find_id(c, id, n);

		if (!p)
			continue;
		ret = remove_patch(c, p);
		strbuf_addf(&names, "%s%s", nr++ ? ", " : "", strrchr(p, '/') + 1);
		free(p);
	}
	if (!nr && !ret)
		ret = error("'%s' has no patch in patches/drivers/%s to withdraw", id, id);
	if (ret)
		goto out;
	strbuf_addf(&dir, "%s/patches/drivers/%s", c->repo, id);
	rmdir(dir.buf);
	strbuf_addf(&names, " withdrawn: %s", why);
	ret = campaign_record(c, id, "withdraw", CS_UNCLAIMED, "", who, names.buf);
	if (!ret)
		printf("%s: withdrew %d patch%s\n", id, nr, nr == 1 ? "" : "es");
out:
	strbuf_release(&dir);
	strbuf_release(&names);
	return ret;
}
