/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BKL_KBUILD_MODULES_H
#define BKL_KBUILD_MODULES_H

/*
 * Which Kbuild module a kernel source file belongs to, read from the
 * Makefile (or Kbuild file) of its directory as Kbuild reads it:
 *   obj-$(CONFIG_NVRAM) += nvram.o           nvram.c is module "nvram"
 *   obj-$(CONFIG_RTC_CLASS) += rtc-core.o    and
 *   rtc-core-$(CONFIG_RTC_INTF_DEV) += dev.o dev.c is part of "rtc-core"
 * Composite objects may name files below their directory ("sub/x.o"),
 * so the parents' Makefiles are searched too.  An obj-y module inherits
 * the symbol that includes its directory (obj-$(CONFIG_X) += dir/).
 */
struct kbuild_module {
	char *name;		/* "nvram", "rtc-core" */
	char *config;		/* "CONFIG_NVRAM"; "y" when always built */
	char *dir;		/* the Makefile's directory: "drivers/char" */
	char **files;		/* its .c files, tree-relative, sorted */
	int nr_files;
	int found;		/* 0: no Makefile names the file (module = file) */
};

struct kbuild_cache;

/* Parsed Makefiles of one tree, read once each. */
struct kbuild_cache *kbuild_cache_new(const char *tree);
void kbuild_cache_free(struct kbuild_cache *kc);

/* file is tree-relative ("drivers/char/nvram.c").  0, or -1 after error(). */
int kbuild_module_of(struct kbuild_cache *kc, const char *file, struct kbuild_module *m);
void kbuild_module_release(struct kbuild_module *m);

/*
 * How many Makefiles in the whole tree build an object of this name
 * (obj-... += name.o); the tree is scanned once, on first use.  A driver
 * whose module name is not unique is qualified by its directory.
 */
int kbuild_name_count(struct kbuild_cache *kc, const char *name);

#endif
