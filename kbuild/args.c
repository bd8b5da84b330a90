// SPDX-License-Identifier: GPL-2.0
/*
 * Compiler flags as sparse should get them: from a command line make
 * printed (quoted as for sh), or the one Kbuild gives a checker.  Only
 * what changes how sparse reads the code is kept (-D, -U, include paths,
 * -include, -std, -O, -m64 and the like); include paths are made
 * absolute, since Kbuild runs the compiler in the object tree and we run
 * the analyzer from the source tree's top.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "kbuild/flags.h"
#include "lib/strbuf.h"

void kflags_normalize_path(char *path)
{
	int abs = *path == '/';
	char *base = path + abs, *out = base, *src = base, *last;

	while (*src) {
		size_t n = strcspn(src, "/");

		if (!n || (n == 1 && src[0] == '.')) {
			/* "" or "." */
		} else if (n == 2 && src[0] == '.' && src[1] == '.') {
			for (last = out; last > base && last[-1] != '/'; last--)
				;
			if (out > base && !(out - last == 2 && !strncmp(last, "..", 2)))
				out = last > base ? last - 1 : base;
			else if (!abs)
				goto append;
		} else {
append:
			if (out > base)
				*out++ = '/';
			memmove(out, src, n);
			out += n;
		}
		src += n;
		if (*src == '/')
			src++;
	}
	if (out == base && !abs)
		*out++ = '.';
	*out = '\0';
}

int kflags_takes_arg(const char *a)
{
	static const char *const two[] = { "-I", "-D", "-U", "-include", "-imacros",
		"-isystem", "-iquote", "-idirafter", "--param", "-MF", "-MT", "-MQ", "-o",
		"-x", NULL };
	int i;

	for (i = 0; two[i]; i++)
		if (!strcmp(a, two[i]))
			return 1;
	return 0;
}

static int keep_plain(const char *a)
{
	static const char *const exact[] = { "-nostdinc", "-m64", "-m32", "-mx32",
		"-fshort-wchar", "-funsigned-char", "-fsigned-char", "-mbig-endian",
		"-mlittle-endian", NULL };
	int i;

	if (!strncmp(a, "-D", 2) || !strncmp(a, "-U", 2) || !strncmp(a, "-std=", 5) ||
	    !strncmp(a, "-O", 2) || !strncmp(a, "--arch=", 7))
		return 1;
	for (i = 0; exact[i]; i++)
		if (!strcmp(a, exact[i]))
			return 1;
	return 0;
}

static void add_path(struct strbuf *out, const char *path, const char *cwd)
{
	size_t at = out->len;

	if (path[0] != '/' && cwd)
		strbuf_addf(out, "%s/", cwd);
	strbuf_addstr(out, path);
	kflags_normalize_path(out->buf + at);
	out->len = strlen(out->buf);
}

static void add_arg_sep(struct strbuf *out)
{
	if (out->len)
		strbuf_addstr(out, "\n");
}

int kflags_filter(const char *a, const char *next, const char *cwd,
		  struct strbuf *out, int *used_next)
{
	*used_next = 0;
	if (a[0] != '-') {		/* a source file (checker mode) */
		add_arg_sep(out);
		strbuf_addstr(out, a);
		return 0;
	}
	if (!strncmp(a, "-I", 2) && a[2]) {
		add_arg_sep(out);
		strbuf_addstr(out, "-I");
		add_path(out, a + 2, cwd);
		return 0;
	}
	if (kflags_takes_arg(a)) {
		if (!next)
			return 1;
		*used_next = 1;
		if (!strcmp(a, "--param") || !strncmp(a, "-M", 2) || !strcmp(a, "-o") ||
		    !strcmp(a, "-x"))
			return 1;
		add_arg_sep(out);
		if (!strcmp(a, "-D") || !strcmp(a, "-U")) {
			strbuf_addf(out, "%s%s", a, next);
			return 0;
		}
		if (!strcmp(a, "-I")) {
			strbuf_addstr(out, "-I");
			add_path(out, next, cwd);
			return 0;
		}
		strbuf_addf(out, "%s\n", a);
		add_path(out, next, cwd);
		return 0;
	}
	if (!keep_plain(a))
		return 1;
	add_arg_sep(out);
	strbuf_addstr(out, a);
	return 0;
}

/* Split a make-printed command line as sh would: quotes and backslashes. */
static int shell_split(const char *s, char ***argv)
{
	int nr = 0, alloc = 0;
	struct strbuf w = STRBUF_INIT;

	*argv = NULL;
	for (;;) {
		int any = 0;
		char q = 0;

		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s || *s == '\n')
			break;
		strbuf_reset(&w);
		for (; *s && *s != '\n' && (q || (*s != ' ' && *s != '\t')); s++) {
			any = 1;
			if (q) {
				if (*s == q)
					q = 0;
				else if (q == '"' && *s == '\\' && s[1] && strchr("\"\\$`", s[1]))
					strbuf_add(&w, ++s, 1);
				else
					strbuf_add(&w, s, 1);
			} else if (*s == '\'' || *s == '"') {
				q = *s;
			} else if (*s == '\\' && s[1]) {
				strbuf_add(&w, ++s, 1);
			} else {
				strbuf_add(&w, s, 1);
			}
		}
		if (!any)
			continue;
		if (nr + 2 > alloc) {
			alloc = alloc ? alloc * 2 : 64;
			*argv = realloc(*argv, alloc * sizeof(**argv));
			if (!*argv)
				abort();
		}
		(*argv)[nr++] = strdup(sb_str(&w));
	}
	if (*argv)
		(*argv)[nr] = NULL;
	strbuf_release(&w);
	return nr;
}

static void free_argv(char **argv, int nr)
{
	while (nr--)
		free(argv[nr]);
	free(argv);
}

/* A make-printed flags string into our '\n'-joined argv. */
void kflags_filter_line(const char *flags, const char *cwd, struct strbuf *out)
{
	char **argv;
	int i, nr = shell_split(flags, &argv), used;

	strbuf_reset(out);
	for (i = 0; i < nr; i++) {
		kflags_filter(argv[i], i + 1 < nr ? argv[i + 1] : NULL, cwd, out, &used);
		i += used;
	}
	free_argv(argv, nr);
}

long long kflags_mtime_ns(const struct stat *st)
{
	return st->st_mtim.tv_sec * 1000000000LL + st->st_mtim.tv_nsec;
}

