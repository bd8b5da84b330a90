/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BKL_KBUILD_FLAGS_H
#define BKL_KBUILD_FLAGS_H

struct strbuf;

/*
 * The flags Kbuild compiles each .c file with, asked of Kbuild itself
 * (see kbuild/flags.c for how), in a configured out-of-tree build.
 * Paths are tree-relative ("drivers/char/misc.c"); a file's flags are an
 * argv for sparse joined by '\n', every include path made absolute.
 */
struct kbuild_flags;

enum kflags_kind {
	KFLAGS_BUILT = 'F',	/* Kbuild builds it in this configuration */
	KFLAGS_OFF = 'O',	/* its Makefile lists it, under an option that is off */
	KFLAGS_DIR = 'D',	/* not listed: its directory's flags */
	KFLAGS_HOST = 'H',	/* a host or user program: not kernel code */
};

/*
 * Evaluate the Makefiles of the directories in scope (and of their
 * parents, for subdir-ccflags-y) with make -j jobs; dumps go to outdir.
 * Reused while no Makefile moved: see kbuild_flags_fresh().
 */
int kbuild_flags_dump(const char *srctree, const char *objtree, const char *outdir,
		      const char *const *scope, int nr_scope, int jobs);
/*
 * Whether outdir's dump covers scope and is newer than the configuration,
 * Kbuild's own makefiles, the scope's parents' Makefiles and
 * newest_makefile_ns (the newest Makefile the caller saw in scope).
 */
int kbuild_flags_fresh(const char *srctree, const char *objtree, const char *outdir,
		       const char *const *scope, int nr_scope, long long newest_makefile_ns);
int kbuild_flags_load(struct kbuild_flags **out, const char *outdir, const char *objtree);
void kbuild_flags_free(struct kbuild_flags *kf);
/* src's flags, Kbuild's $(c_flags) for it, into out (reset first). */
enum kflags_kind kbuild_flags_for(struct kbuild_flags *kf, const char *src, struct strbuf *out);
/* The object Kbuild builds src as: "x/y.o", or "x/../z/y.o" from another Makefile. */
void kbuild_flags_target(struct kbuild_flags *kf, const char *src, struct strbuf *out);
/* The sparse-relevant part of $(CHECKFLAGS): what Kbuild gives a checker before c_flags. */
const char *kbuild_checkflags(struct kbuild_flags *kf);
/* Number of files and directories the dump knows. */
size_t kbuild_flags_count(struct kbuild_flags *kf);
/* A stat time in ns, for comparing mtimes. */
struct stat;
long long kflags_mtime_ns(const struct stat *st);

/*
 * One compiler flag as sparse should see it, with its argument when the
 * flag takes one as the next word (-I dir, -include file): 0 keep, 1 drop.
 * A relative include path is made absolute from cwd (Kbuild runs the
 * compiler in the object tree).
 */
int kflags_filter(const char *arg, const char *next, const char *cwd,
		  struct strbuf *out, int *used_next);
/* A make-printed flags string (sh quoting) through kflags_filter(), into out. */
void kflags_filter_line(const char *flags, const char *cwd, struct strbuf *out);
/* Normalize a path in place: "a/b/../c" -> "a/c", "./x" -> "x". */
void kflags_normalize_path(char *path);
/* Is a path one of sparse's include-like flags that take the next word? */
int kflags_takes_arg(const char *arg);

#endif
