// SPDX-License-Identifier: GPL-2.0
/*
 * The flags Kbuild compiles each .c file with, asked of Kbuild itself.
 *
 * Why not parse the Makefiles: a file's flags come from the top Makefile
 * and arch/x86/Makefile (KBUILD_CPPFLAGS, LINUXINCLUDE, NOSTDINC_FLAGS,
 * the -include of compiler-version.h, kconfig.h, compiler_types.h), from
 * every parent directory (subdir-ccflags-y), from the directory
 * (ccflags-y, ccflags-remove-y) and from the file (CFLAGS_foo.o,
 * CFLAGS_REMOVE_foo.o, -DMODULE when it is part of a module, the module
 * it is linked into for KBUILD_MODNAME), all written in make with
 * ifeq/$(call cc-option)/$(srctree)/$(src) and the configuration.  On
 * 6.1 allmodconfig 28% of the 24,787 objects have per-directory or
 * per-file -I/-D flags (4,114 an -I, 3,894 a -D): a reader of Makefiles
 * would get a good part of those wrong.  So we let make evaluate them.
 * Measured on 300 random .c files: bare sparse reports errors in 37 with
 * these flags, in 76 with the common flags alone; of the 235 the config
 * builds, 4 have errors, none from a missing header or define (sparse's
 * own limits: amdgpu's sizeof static_assert, an address-space check).
 *
 * How: GNU make reads the makefiles named in $MAKEFILES before any
 * other, in every make, recursive ones included.  We point it at the
 * small makefile below and run `make O=obj bkl-print-flags` once.  The top
 * Makefile computes and exports the common flags as for a build; our
 * rule then walks the tree as Kbuild does (scripts/Makefile.build
 * obj=DIR, for each subdirectory it would descend into, plus those whose
 * option is off, where every object counts as off), and for each object a
 * pattern rule expands Kbuild's own $(c_flags) with $@ set as when
 * compiling it, and writes it with $(file) (no shell per object).  Nothing is compiled.  Whole 6.1 tree,
 * allmodconfig: 1,941 directories, 24,787 objects, 48 s at -j2; a
 * directory such as drivers/char and its parents: 2 s.  The dump is
 * kept next to the build and reused until a Makefile or the configuration
 * changes.  Limits: a .c file no Makefile lists gets its directory's
 * flags with KBUILD_MODNAME = its basename; a directory that only a
 * sibling's Makefile includes (amdgpu's display/) gets its flags only
 * when the dump covers that sibling (a whole-tree run does).
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "kbuild/flags.h"
#include "lib/paths.h"
#include "lib/run-command.h"
#include "ktree/series.h"
#include "lib/strbuf.h"
#include "lib/usage.h"

static const char flags_mk[] =
"# Written by bkl audit (kbuild/flags.c); read through $MAKEFILES.\n"
"ifneq ($(BKL_FLAGS_OUT),)\n"
"ifeq ($(sub_make_done),1)\n"
"ifdef obj\n"
".SECONDEXPANSION:\n"
"bkl-keep := -D% -U% -I% -include -imacros -isystem -iquote -idirafter -nostdinc \\\n"
"	-std=% -O% -m64 -m32 -mx32 -fshort-wchar -funsigned-char -fsigned-char\n"
"bkl-filter = $(filter-out $(filter-out $(bkl-keep),$(filter -%,$1)),$1)\n"
"bkl-out := $(BKL_FLAGS_OUT)/$(subst /,@,$(obj)).tsv\n"
"bkl-rel = $(if $(filter .,$(obj)),$1,$(addprefix $(obj)/,$1))\n"
"bkl-on = $(patsubst %.o,%,$(filter %.o,$(real-obj-y) $(real-obj-m) $(lib-y)))\n"
"bkl-off = $(filter-out $(bkl-on),$(patsubst %.o,%,$(call bkl-rel,$(call real-search,\\\n"
"	$(filter %.o,$(obj-) $(obj-n) $(lib-) $(lib-n)),.o,-objs -y -m))))\n"
"bkl-host = $(call bkl-rel,$(foreach p,$(hostprogs) $(userprogs),\\\n"
"	$(or $(patsubst %.o,%,$($(p)-objs)),$(p))))\n"
"bkl-in-scope = $(if $(filter .,$(BKL_SCOPE)),$1,$(foreach d,$1,\\\n"
"	$(if $(filter $d/% $d,$(BKL_SCOPE))$(filter $(addsuffix /%,$(BKL_SCOPE)),$d),$d)))\n"
"bkl-subdirs = $(sort $(subdir-ym) $(call bkl-rel,$(patsubst %/,%,$(filter %/,$(obj-) $(obj-n)))))\n"
"bkl-visit = $(foreach d,$(call bkl-in-scope,$(bkl-subdirs)),\\\n"
"	$(if $(wildcard $(srctree)/$d/Makefile $(srctree)/$d/Kbuild),$d))\n"
"bkl-dir: $$(addprefix bkl-sub/,$$(bkl-visit)) $$(addsuffix .bkl-$(if $(BKL_OFF),O,F),$$(bkl-on)) \\\n"
"		$$(addsuffix .bkl-O,$$(bkl-off))\n"
"	$(foreach h,$(bkl-host),$(file >>$(bkl-out),H\t$h\t))\n"
"	$(file >>$(bkl-out),D\t$(obj)\t$(call bkl-filter,$(subst --param ,--param=,\\\n"
"		$(NOSTDINC_FLAGS) $(LINUXINCLUDE) -include $(srctree)/include/linux/compiler_types.h \\\n"
"		$(_c_flags))))\n"
"bkl-sub/%:\n"
"	+$(MAKE) -f $(srctree)/scripts/Makefile.build obj=$* need-builtin=1 need-modorder=1 \\\n"
"		BKL_OFF=$(if $(BKL_OFF)$(filter-out $(subdir-ym),$*),1) bkl-dir\n"
"$(obj)/%.bkl-F $(obj)/%.bkl-O:\n"
"	$(file >>$(bkl-out),$(patsubst .bkl-%,%,$(suffix $@))\t$(obj)/$*\t$(call bkl-filter,\\\n"
"		$(subst --param ,--param=,$(c_flags))))\n"
"endif\n"
".PHONY: bkl-print-flags\n"
"bkl-print-flags:\n"
"	+$(if $(KBUILD_CFLAGS),$(MAKE) -f $(srctree)/scripts/Makefile.build obj=. \\\n"
"		need-builtin=1 need-modorder=1 bkl-dir,@:)\n"
"	$(if $(KBUILD_CFLAGS),$(file >$(BKL_FLAGS_OUT)/checkflags,$(CHECKFLAGS)))\n"
"endif\n"
"endif\n";

struct kf_entry {
	char *key;		/* "drivers/char/misc.c", or "drivers/char/" for a D line */
	char *flags;
	char *target;		/* Kbuild's own name when not key: "a/b/../c/x" */
	char kind;
};

struct kbuild_flags {
	struct kf_entry *tab;
	size_t size, nr;	/* open addressing, size a power of two */
	char *checkflags;
};

static size_t kf_hash(const char *s)
{
	return (size_t)fnv1a(FNV1A_INIT, s, strlen(s));
}

static struct kf_entry *kf_find(struct kbuild_flags *kf, const char *key)
{
	size_t i = kf_hash(key) & (kf->size - 1);

	while (kf->tab[i].key && strcmp(kf->tab[i].key, key))
		i = (i + 1) & (kf->size - 1);
	return &kf->tab[i];
}

static void kf_grow(struct kbuild_flags *kf)
{
	struct kf_entry *old = kf->tab;
	size_t i, n = kf->size;

	kf->size = n ? n * 2 : 4096;
	kf->tab = calloc(kf->size, sizeof(*kf->tab));
	if (!kf->tab)
		abort();
	for (i = 0; i < n; i++)
		if (old[i].key)
			*kf_find(kf, old[i].key) = old[i];
	free(old);
}

/* F beats O beats H: a file built in this configuration takes those flags. */
static int kind_rank(char kind)
{
	return kind == KFLAGS_BUILT ? 3 : kind == KFLAGS_OFF ? 2 : 1;
}

static void kf_put(struct kbuild_flags *kf, const char *key, char kind, const char *flags,
		   const char *target)
{
	struct kf_entry *e;

	if ((kf->nr + 1) * 2 > kf->size)
		kf_grow(kf);
	e = kf_find(kf, key);
	if (e->key) {
		if (kind_rank(kind) <= kind_rank(e->kind))
			return;
		free(e->flags);
		free(e->target);
	} else {
		e->key = strdup(key);
		kf->nr++;
	}
	e->kind = kind;
	e->flags = strdup(flags);
	e->target = target ? strdup(target) : NULL;
}

static const char *mk_version(void)
{
	static char hex[17];

	snprintf(hex, sizeof(hex), "%016llx",
		 (unsigned long long)fnv1a(FNV1A_INIT, flags_mk, sizeof(flags_mk)));
	return hex;
}

/* The first line of make's output that says what went wrong. */
static void first_error(const char *log, struct strbuf *line)
{
	const char *p = strstr(log, "rror");

	if (!p)
		p = log;
	while (p > log && p[-1] != '\n')
		p--;
	strbuf_add(line, p, strcspn(p, "\n"));
}

int kbuild_flags_dump(const char *srctree, const char *objtree, const char *outdir,
		      const char *const *scope, int nr_scope, int jobs)
{
	struct strbuf path = STRBUF_INIT, log = STRBUF_INIT, sc = STRBUF_INIT;
	struct strbuf stamp = STRBUF_INIT, line = STRBUF_INIT, j = STRBUF_INIT, o = STRBUF_INIT;
	const char *rm[] = { "rm", "-rf", outdir, NULL };
	const char *make[] = { "make", "-k", "-s", NULL, "-C", srctree, NULL, "bkl-print-flags", NULL };
	int i, rc, ret = -1;

	if (run_command(rm, NULL, NULL) || mkdir_p(outdir))
		return error("cannot empty '%s'", outdir);
	strbuf_addf(&path, "%s/bkl-flags.mk", outdir);
	if (write_file(path.buf, flags_mk))
		goto out;
	strbuf_addf(&stamp, "mk %s\n", mk_version());
	for (i = 0; i < nr_scope; i++) {
		strbuf_addf(&sc, "%s%s", i ? " " : "", scope[i]);
		strbuf_addf(&stamp, "scope %s\n", scope[i]);
	}
	strbuf_addf(&j, "-j%d", jobs > 0 ? jobs : 1);
	strbuf_addf(&o, "O=%s", objtree);
	make[3] = j.buf;
	make[6] = o.buf;
	setenv("MAKEFILES", path.buf, 1);
	setenv("BKL_FLAGS_OUT", outdir, 1);
	setenv("BKL_SCOPE", sc.buf, 1);
	rc = run_command(make, NULL, &log);
	unsetenv("MAKEFILES");
	unsetenv("BKL_FLAGS_OUT");
	unsetenv("BKL_SCOPE");
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/make.log", outdir);
	write_file(path.buf, sb_str(&log));
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/..tsv", outdir);	/* obj=. */
	if (rc < 0 || !path_exists(path.buf)) {
		first_error(sb_str(&log), &line);
		error("kbuild could not list the flags of '%s': %s", srctree,
		      line.len ? line.buf : "no output");
		goto out;
	}
	if (rc)	{
		first_error(sb_str(&log), &line);
		warning("kbuild could not read some Makefiles (%s/make.log: %s); "
			"their files get their directory's flags", outdir, line.buf);
	}
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/stamp", outdir);
	ret = write_file(path.buf, stamp.buf);
out:
	strbuf_release(&path);
	strbuf_release(&log);
	strbuf_release(&sc);
	strbuf_release(&stamp);
	strbuf_release(&line);
	strbuf_release(&j);
	strbuf_release(&o);
	return ret;
}

static int newer_than(const char *path, long long t)
{
	struct stat st;

	return !stat(path, &st) && kflags_mtime_ns(&st) >= t;
}

static int covered(const char *stamp, const char *dir)
{
	const char *p = stamp;
	size_t n;

	while ((p = strstr(p, "scope "))) {
		p += 6;
		n = strcspn(p, "\n");
		if ((n == 1 && *p == '.') ||
		    (!strncmp(dir, p, n) && (dir[n] == '\0' || dir[n] == '/')))
			return 1;
	}
	return 0;
}

/* Kbuild's makefiles, the configuration, and the Makefiles of dir and its parents. */
static int parents_moved(const char *srctree, const char *objtree, const char *dir, long long t)
{
	static const char *const kbuild[] = { "Makefile", "Kbuild", "scripts/Makefile.build",
		"scripts/Makefile.lib", "scripts/Makefile.compiler", "scripts/Kbuild.include",
		"arch/x86/Makefile", NULL };
	struct strbuf p = STRBUF_INIT;
	const char *end;
	int i, moved = 0;

	for (i = 0; kbuild[i] && !moved; i++) {
		strbuf_reset(&p);
		strbuf_addf(&p, "%s/%s", srctree, kbuild[i]);
		moved = newer_than(p.buf, t);
	}
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/.config", objtree);
	moved = moved || newer_than(p.buf, t);
	for (end = dir; !moved; end++) {
		if (*end && *end != '/')
			continue;
		strbuf_reset(&p);
		strbuf_addf(&p, "%s/%.*s/Makefile", srctree, (int)(end - dir), dir);
		moved = newer_than(p.buf, t);
		strbuf_reset(&p);
		strbuf_addf(&p, "%s/%.*s/Kbuild", srctree, (int)(end - dir), dir);
		moved = moved || newer_than(p.buf, t);
		if (!*end)
			break;
	}
	strbuf_release(&p);
	return moved;
}

int kbuild_flags_fresh(const char *srctree, const char *objtree, const char *outdir,
		       const char *const *scope, int nr_scope, long long newest_makefile_ns)
{
	struct strbuf path = STRBUF_INIT, stamp = STRBUF_INIT, mk = STRBUF_INIT;
	struct stat st;
	long long t;
	int i, fresh = 0;

	strbuf_addf(&path, "%s/stamp", outdir);
	if (stat(path.buf, &st) || strbuf_read_file(&stamp, path.buf) < 0)
		goto out;
	t = kflags_mtime_ns(&st);
	strbuf_addf(&mk, "mk %s\n", mk_version());
	if (strncmp(stamp.buf, mk.buf, mk.len) || newest_makefile_ns >= t)
		goto out;
	for (i = 0; i < nr_scope; i++)
		if (!covered(stamp.buf, scope[i]) || parents_moved(srctree, objtree, scope[i], t))
			goto out;
	fresh = 1;
out:
	strbuf_release(&path);
	strbuf_release(&stamp);
	strbuf_release(&mk);
	return fresh;
}

static void name_fix(struct strbuf *out, const char *base, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		strbuf_add(out, base[i] == '-' || base[i] == ',' ? "_" : base + i, 1);
}

static int load_tsv(struct kbuild_flags *kf, const char *path, const char *objtree)
{
	struct strbuf text = STRBUF_INIT, key = STRBUF_INIT, flags = STRBUF_INIT;
	struct strbuf raw = STRBUF_INIT;
	char *line, *next, *tab1, *tab2;

	if (strbuf_read_file(&text, path) < 0)
		return error("cannot read '%s': %s", path, strerror(errno));
	for (line = text.buf; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		tab1 = strchr(line, '\t');
		tab2 = tab1 ? strchr(tab1 + 1, '\t') : NULL;
		if (!tab2 || tab1 != line + 1)
			continue;
		*tab2 = '\0';
		strbuf_reset(&key);
		strbuf_reset(&raw);
		strbuf_addstr(&key, tab1 + 1);
		strbuf_addstr(&raw, tab1 + 1);
		kflags_normalize_path(key.buf);
		key.len = strlen(key.buf);
		strbuf_addstr(&key, *line == KFLAGS_DIR ? "/" : ".c");
		kflags_filter_line(tab2 + 1, objtree, &flags);
		/* amdkfd is built from amdgpu's Makefile as amdgpu/../amdkfd/x.o */
		kf_put(kf, key.buf, *line, sb_str(&flags),
		       strncmp(key.buf, raw.buf, raw.len) ? raw.buf : NULL);
	}
	strbuf_release(&text);
	strbuf_release(&raw);
	strbuf_release(&key);
	strbuf_release(&flags);
	return 0;
}

int kbuild_flags_load(struct kbuild_flags **out, const char *outdir, const char *objtree)
{
	struct kbuild_flags *kf = calloc(1, sizeof(*kf));
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT, flags = STRBUF_INIT;
	struct dirent *de;
	DIR *d = opendir(outdir);
	int ret = -1;

	if (!kf)
		abort();
	kf_grow(kf);
	if (!d) {
		error("cannot read '%s': %s", outdir, strerror(errno));
		goto out;
	}
	while ((de = readdir(d))) {
		size_t n = strlen(de->d_name);

		if (n < 5 || strcmp(de->d_name + n - 4, ".tsv"))
			continue;
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s", outdir, de->d_name);
		if (load_tsv(kf, path.buf, objtree))
			goto out;
	}
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/checkflags", outdir);
	if (strbuf_read_file(&text, path.buf) >= 0)
		kflags_filter_line(text.buf, objtree, &flags);
	kf->checkflags = strdup(sb_str(&flags));
	ret = 0;
out:
	if (d)
		closedir(d);
	strbuf_release(&path);
	strbuf_release(&text);
	strbuf_release(&flags);
	if (ret)
		kbuild_flags_free(kf);
	else
		*out = kf;
	return ret;
}

void kbuild_flags_free(struct kbuild_flags *kf)
{
	size_t i;

	if (!kf)
		return;
	for (i = 0; i < kf->size; i++) {
		free(kf->tab[i].key);
		free(kf->tab[i].flags);
		free(kf->tab[i].target);
	}
	free(kf->tab);
	free(kf->checkflags);
	free(kf);
}

const char *kbuild_checkflags(struct kbuild_flags *kf)
{
	return kf->checkflags;
}

size_t kbuild_flags_count(struct kbuild_flags *kf)
{
	return kf->nr;
}

void kbuild_flags_target(struct kbuild_flags *kf, const char *src, struct strbuf *out)
{
	struct kf_entry *e = kf_find(kf, src);
	size_t n = strlen(src);

	strbuf_reset(out);
	if (e->key && e->target)
		strbuf_addf(out, "%s.o", e->target);
	else if (n > 2 && !strcmp(src + n - 2, ".c"))
		strbuf_addf(out, "%.*s.o", (int)(n - 2), src);
	else
		strbuf_addstr(out, src);
}

enum kflags_kind kbuild_flags_for(struct kbuild_flags *kf, const char *src, struct strbuf *out)
{
	struct strbuf dir = STRBUF_INIT;
	struct kf_entry *e = kf_find(kf, src);
	const char *base, *dot;
	enum kflags_kind kind;

	strbuf_reset(out);
	if (e->key) {
		if (out->len && *e->flags)
			strbuf_addstr(out, "\n");
		strbuf_addstr(out, e->flags);
		return e->kind;
	}
	/* Not listed: the flags of the nearest directory Kbuild visited. */
	strbuf_addstr(&dir, src);
	for (;;) {
		char *slash = strrchr(dir.buf, '/');

		if (!slash) {
			e = kf_find(kf, "./");
			break;
		}
		slash[1] = '\0';
		e = kf_find(kf, dir.buf);
		if (e->key)
			break;
		*slash = '\0';
	}
	if (e->key && *e->flags)
		strbuf_addf(out, "%s%s", out->len ? "\n" : "", e->flags);
	base = strrchr(src, '/');
	base = base ? base + 1 : src;
	dot = strrchr(base, '.');
	strbuf_addf(out, "%s-DKBUILD_BASENAME=\"", out->len ? "\n" : "");
	name_fix(out, base, dot ? (size_t)(dot - base) : strlen(base));
	strbuf_addstr(out, "\"\n-DKBUILD_MODNAME=\"");
	name_fix(out, base, dot ? (size_t)(dot - base) : strlen(base));
	strbuf_addstr(out, "\"\n-D__KBUILD_MODNAME=kmod_");
	name_fix(out, base, dot ? (size_t)(dot - base) : strlen(base));
	/* as for a built-in object: module.h's MODULE_FILE needs it */
	strbuf_addf(out, "\n-DKBUILD_MODFILE=\"%.*s\"",
		    (int)(dot ? (size_t)(dot - src) : strlen(src)), src);
	kind = KFLAGS_DIR;
	strbuf_release(&dir);
	return kind;
}
