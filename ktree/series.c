// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ktree/series.h"
#include "lib/strbuf.h"
#include "lib/usage.h"

uint64_t fnv1a(uint64_t h, const void *data, unsigned long len)
{
	const unsigned char *p = data;

	while (len--) {
		h ^= *p++;
		h *= 0x100000001b3ULL;
	}
	return h;
}

static int add_patch(struct series *s, const char *name)
{
	struct strbuf path = STRBUF_INIT, body = STRBUF_INIT;
	int ret = 0;

	strbuf_addf(&path, "%s/%s", s->dir, name);
	if (strbuf_read_file(&body, path.buf) < 0) {
		ret = error("series names '%s', which cannot be read", name);
		goto out;
	}
	s->names = realloc(s->names, (s->nr + 1) * sizeof(*s->names));
	s->names[s->nr++] = strdup(name);
	s->hash = fnv1a(s->hash, name, strlen(name) + 1);
	s->hash = fnv1a(s->hash, body.buf, body.len);
out:
	strbuf_release(&path);
	strbuf_release(&body);
	return ret;
}

int series_read(struct series *s, const char *patches_dir)
{
	struct strbuf path = STRBUF_INIT;
	char line[4096];
	FILE *f;
	int ret = 0;

	memset(s, 0, sizeof(*s));
	s->dir = realpath(patches_dir, NULL);	/* quilt runs in the tree */
	if (!s->dir)
		return error("no patches directory '%s'", patches_dir);
	s->hash = FNV1A_INIT;
	strbuf_addf(&path, "%s/series", patches_dir);
	f = fopen(path.buf, "r");
	if (!f) {
		ret = error("cannot read the series '%s'", path.buf);
		goto out;
	}
	while (fgets(line, sizeof(line), f)) {
		char *name = strtok(line, " \t\r\n");	/* drop "-p1" and the like */

		if (!name || name[0] == '#')
			continue;
		if (add_patch(s, name)) {
			ret = -1;
			break;
		}
	}
	fclose(f);
out:
	strbuf_release(&path);
	return ret;
}

void series_release(struct series *s)
{
	int i;

	for (i = 0; i < s->nr; i++)
		free(s->names[i]);
	free(s->names);
	free(s->dir);
	free(s->file);
	memset(s, 0, sizeof(*s));
}

const char *series_hash_hex(const struct series *s)
{
	static char hex[17];

	snprintf(hex, sizeof(hex), "%016llx", (unsigned long long)s->hash);
	return hex;
}

int series_subset(struct series *dst, const struct series *src, const char *file,
		  int (*keep)(const char *name, int idx, void *data), void *data)
{
	struct strbuf list = STRBUF_INIT;
	FILE *f;
	int i, ret = -1;

	memset(dst, 0, sizeof(*dst));
	dst->dir = strdup(src->dir);
	dst->hash = FNV1A_INIT;
	for (i = 0; i < src->nr; i++) {
		if (!keep(src->names[i], i, data))
			continue;
		if (add_patch(dst, src->names[i]))
			goto out;
		strbuf_addf(&list, "%s\n", src->names[i]);
	}
	f = fopen(file, "w");
	if (!f || fputs(sb_str(&list), f) < 0 || fclose(f)) {
		error("cannot write the series '%s'", file);
		goto out;
	}
	dst->file = strdup(file);
	ret = 0;
out:
	strbuf_release(&list);
	if (ret)
		series_release(dst);
	return ret;
}

int series_is_end(const char *name)
{
	return !strncmp(name, "end/", 4);
}

static int before_end(const char *name, int idx, void *data)
{
	return !series_is_end(name);
}

int series_campaign(struct series *dst, const struct series *src, const char *file)
{
	return series_subset(dst, src, file, before_end, NULL);
}
