// SPDX-License-Identifier: GPL-2.0
/*
 * Which files bkl audit takes first (audit/order.h).  Registrations
 * are found by a plain substring search in each file: it runs before any
 * analysis and costs one read of a file that sparse is about to read
 * anyway.  A false hit only moves a file forward; the order never
 * changes what is analyzed.
 */
#define _GNU_SOURCE		/* memmem */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "audit/order.h"
#include "lib/strbuf.h"

struct audit_order {
	unsigned char *tier;
	int nr;
};

static const char *const first_dirs[] = { "drivers/char/", "drivers/tty/", "fs/", NULL };

/* The char-device registrations of analyzer/primitives.txt, by name. */
static const char *const chrdev_calls[] = {
	"cdev_init", "register_chrdev", "misc_register", "usb_register_dev",
	"snd_register_device", "register_sound_", "cdev.ops", NULL,
};

static int registers_chrdev(const char *path)
{
	struct strbuf text = STRBUF_INIT;
	int i, yes = 0;

	if (strbuf_read_file(&text, path) < 0)
		return 0;
	for (i = 0; chrdev_calls[i] && !yes; i++)
		yes = memmem(text.buf, text.len, chrdev_calls[i], strlen(chrdev_calls[i])) != NULL;
	strbuf_release(&text);
	return yes;
}

static size_t dir_len(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? (size_t)(slash - path) : 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int in_dirs(char **dirs, int nr, const char *path)
{
	size_t n = dir_len(path);
	int lo = 0, hi = nr;

	while (lo < hi) {
		int mid = (lo + hi) / 2;
		int c = strncmp(dirs[mid], path, n);

		if (!c)
			c = dirs[mid][n] ? 1 : 0;
		if (!c)
			return 1;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

struct audit_order *audit_order_new(const char *const *paths, int nr)
{
	struct audit_order *o = calloc(1, sizeof(*o));
	char **dirs = calloc(nr + 1, sizeof(*dirs));
	int i, j, nd = 0;

	if (!o || !dirs || !(o->tier = calloc(nr + 1, 1)))
		abort();
	o->nr = nr;
	for (i = 0; i < nr; i++) {
		o->tier[i] = 2;
		for (j = 0; first_dirs[j]; j++)
			if (!strncmp(paths[i], first_dirs[j], strlen(first_dirs[j])))
				o->tier[i] = 0;
		if (o->tier[i] && registers_chrdev(paths[i]))
			dirs[nd++] = strndup(paths[i], dir_len(paths[i]));
	}
	qsort(dirs, nd, sizeof(*dirs), cmp_str);
	for (i = 0; i < nr; i++)
		if (o->tier[i] && in_dirs(dirs, nd, paths[i]))
			o->tier[i] = 1;
	for (i = 0; i < nd; i++)
		free(dirs[i]);
	free(dirs);
	return o;
}

int audit_order_tier(const struct audit_order *o, int i)
{
	return i >= 0 && i < o->nr ? o->tier[i] : AUDIT_TIERS - 1;
}

void audit_order_free(struct audit_order *o)
{
	if (!o)
		return;
	free(o->tier);
	free(o);
}

void audit_area(const char *path, char *buf, size_t size)
{
	const char *slash = strchr(path, '/');
	size_t n = slash ? (size_t)(slash - path) : strlen(path);

	/* drivers/, sound/ and arch/ are many subsystems; the rest are one */
	if (slash && (!strncmp(path, "drivers/", 8) || !strncmp(path, "sound/", 6) ||
		      !strncmp(path, "arch/", 5)) && strchr(slash + 1, '/'))
		n = strchr(slash + 1, '/') - path;
	if (!slash)
		n = 1, path = ".";
	snprintf(buf, size, "%.*s", (int)n, path);
}
