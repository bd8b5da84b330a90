/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BKL_CAMPAIGN_PATCH_H
#define BKL_CAMPAIGN_PATCH_H

#include "campaign/drivers.h"

struct strbuf;

/* patches/series, as names relative to patches/ ("drivers/nvram/0001-...patch"). */
int series_contains(const struct campaign *c, const char *rel);
int series_append(const struct campaign *c, const char *rel);
int series_remove(const struct campaign *c, const char *rel);

/* The driver's patch number n (1: push-down, 2: conversion), or NULL. */
char *campaign_patch_find(const struct campaign *c, const struct cdriver *d, int n);
char *campaign_patch_find_id(const struct campaign *c, const char *id, int n);
/* The files a patch's text touches ("+++ b/x"), appended to *v (*nr of them). */
void campaign_patch_files(const char *text, char ***v, int *nr);

/*
 * A scratch directory holding "a/<file>" for each file, as the pristine
 * tree has it with patches/series applied (all of it but skip: one patch,
 * or with a trailing '/' every patch under that directory), and an
 * empty "b/".  Only the patches that touch these files are applied, and
 * only to the files they touch: cheap enough to run per driver.
 */
int campaign_base(const struct campaign *c, char *const *files, int nr, const char *skip,
		  struct strbuf *dir);
void campaign_scratch_remove(const char *dir);

struct cpatch {
	const char *rel;	/* where, relative to patches/ */
	const char *author;	/* "Name <email>": From: and Signed-off-by: */
	const char *subject;	/* without "[PATCH] " */
	const char *body;	/* the changelog, wrapped at 72 */
	const char *scratch;	/* campaign_base()'s dir, with b/ filled in */
	char *const *files;
	int nr;
};

/*
 * diff -u a/ b/ under a mail header, into patches/<rel>; then the tree's
 * scripts/checkpatch.pl must pass (the patch is removed if it does not).
 */
int campaign_write_patch(const struct campaign *c, const struct cpatch *p);
/* Wrap text at width into sb (paragraphs separated by blank lines kept). */
void wrap_text(struct strbuf *sb, const char *text, int width);

#endif
