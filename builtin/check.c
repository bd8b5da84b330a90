// SPDX-License-Identifier: GPL-2.0
/*
 * bkl check: the analyzer as Kbuild's checker.  Kbuild runs
 * `$(CHECK) $(CHECKFLAGS) $(c_flags) $<` in the object tree for each file
 * it compiles (C=1) or every file (C=2).  We keep the flags sparse
 * needs, make relative include paths absolute (they are relative to the
 * object tree), name a file of the kernel tree by its tree-relative path
 * as bkl audit does (so both fill the same rows), and run the analyzer
 * without the global pass.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "builtin.h"
#include "db/db.h"
#include "kbuild/flags.h"
#include "lib/paths.h"
#include "lib/run-command.h"
#include "lib/strbuf.h"
#include "lib/usage.h"

const char usage_check[] =
	"usage: bkl check [--db DB] [--] <the arguments Kbuild passes to $(CHECK)>\n"
	"\n"
	"Kbuild checker mode: analyze one file into the database.  Use it as\n"
	"\n"
	"    make C=2 CHECK=\"bkl check --db /abs/path/bkl.db\"      (every file)\n"
	"    make C=1 CHECK=\"bkl check --db /abs/path/bkl.db\"      (files rebuilt)\n"
	"    make M=dir C=2 CHECK=\"bkl check --db ...\"             (a module)\n"
	"\n"
	"Kbuild runs the checker in the object tree: give --db an absolute path.\n"
	"A file of the kernel tree ($srctree) is recorded under its tree-relative\n"
	"name, as bkl audit records it.  The global pass is not run: run\n"
	"'bkl merge --db DB' (or bkl audit) after the build.  A file the analyzer\n"
	"cannot parse is recorded with its error and the exit status is 0, so the\n"
	"build goes on; an analyzer that crashes fails the file.\n"
	"\n"
	"    --db DB          the database (default $BKL_DB, else $BKL_CACHE/bkl.db)\n";

/* Absolute, normalized: relative names are relative to the object tree. */
static char *absolute(const char *path, const char *cwd)
{
	struct strbuf sb = STRBUF_INIT;

	if (path[0] != '/')
		strbuf_addf(&sb, "%s/", cwd);
	strbuf_addstr(&sb, path);
	kflags_normalize_path(sb.buf);
	return sb.buf;
}

/*
 * A file under the kernel tree: tree-relative, and the analyzer runs
 * from the tree's top.  Anything else (an external module): absolute.
 */
static char *place_file(const char *file, const char *cwd, const char **run_dir)
{
	const char *env = getenv("srctree");
	char *abs = absolute(file, cwd), real[PATH_MAX], *top;
	size_t n;

	*run_dir = NULL;
	if (!env || !*env)
		return abs;
	top = absolute(env, cwd);
	if (realpath(top, real)) {
		free(top);
		top = strdup(real);
	}
	n = strlen(top);
	if (!strncmp(abs, top, n) && abs[n] == '/') {
		char *rel = strdup(abs + n + 1);

		*run_dir = top;
		free(abs);
		return rel;
	}
	free(top);
	return abs;
}

int cmd_check(int argc, const char **argv)
{
	const char *db_opt = NULL, *run_dir = NULL, **av;
	struct strbuf flags = STRBUF_INIT;
	char cwd[PATH_MAX], *file = NULL, *db_path, *p;
	int i, nr = 0, used, rc, ret = 0;

	if (!getcwd(cwd, sizeof(cwd)))
		return error("cannot find the current directory");
	/* Our options first; everything after them is Kbuild's. */
	for (i = 1; i < argc; ) {
		if (!strcmp(argv[i], "--db") && i + 1 < argc) {
			db_opt = argv[i + 1];
			i += 2;
		} else if (!strncmp(argv[i], "--db=", 5)) {
			db_opt = argv[i++] + 5;
		} else {
			i += !strcmp(argv[i], "--");
			break;
		}
	}
	for (; i < argc; i++) {
		if (argv[i][0] != '-') {
			if (file)
				return error("one source file at a time: '%s' and '%s'", file, argv[i]);
			file = (char *)argv[i];
			continue;
		}
		kflags_filter(argv[i], i + 1 < argc ? argv[i + 1] : NULL, cwd, &flags, &used);
		i += used;
	}
	if (!file) {
		strbuf_release(&flags);
		return show_usage(usage_check, 1);
	}
	db_path = absolute(db_opt ? db_opt : db_default_path(), cwd);
	file = place_file(file, cwd, &run_dir);
	av = calloc(flags.len + 9, sizeof(*av));
	if (!av)
		abort();
	av[nr++] = bkl_self_exe();
	av[nr++] = "analyze";
	av[nr++] = "--no-resolve";
	/* one run per file under Kbuild: the DB's meta keeps the profiles */
	av[nr++] = "--quiet-profiles";
	av[nr++] = "--db";
	av[nr++] = db_path;
	for (p = flags.buf; p && *p; ) {
		av[nr++] = p;
		p += strcspn(p, "\n");
		if (*p)
			*p++ = '\0';
	}
	av[nr++] = file;
	rc = run_command(av, run_dir, NULL);
	if (rc < 0 || rc >= 128)
		ret = error("the analyzer %s on '%s'", rc < 0 ? "could not run" : "crashed", file);
	free(av);
	free(file);
	free(db_path);
	free((char *)run_dir);
	strbuf_release(&flags);
	return ret;
}
