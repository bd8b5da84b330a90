/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BKL_BUILTIN_H
#define BKL_BUILTIN_H

#include <sqlite3.h>

/*
 * One subcommand: one file builtin/<verb>.c with cmd_<verb>() and its
 * usage text, plus one row in commands[] (builtin/help.c).  `bkl help` is
 * made from that table, so a command that is not in it does not exist.
 */
struct cmd_struct {
	const char *name;
	int (*fn)(int argc, const char **argv);
	const char *summary;	/* one line for `bkl help` */
	const char *usage;	/* `bkl help CMD`, `bkl CMD -h` */
};

extern const struct cmd_struct commands[];
const struct cmd_struct *find_command(const char *name);

/*
 * builtin/sites.c: the body of bkl sites, imbalance and chains.  Parse
 * [--db DB] [--lock NAME] [--json] (and [--precise] if precise_ok), open
 * the DB, print(db, lock, flags): FACTS_JSON, FACTS_PRECISE.
 */
int facts_command(int argc, const char **argv, const char *usage,
		  int (*print)(sqlite3 *db, const char *lock, int flags), int precise_ok);

#define DECLARE_BUILTIN(verb)					\
	int cmd_##verb(int argc, const char **argv);		\
	extern const char usage_##verb[]

DECLARE_BUILTIN(help);
DECLARE_BUILTIN(tree);
DECLARE_BUILTIN(analyze);
DECLARE_BUILTIN(sites);
DECLARE_BUILTIN(imbalance);
DECLARE_BUILTIN(chains);
DECLARE_BUILTIN(merge);
DECLARE_BUILTIN(qemu);
DECLARE_BUILTIN(test);
DECLARE_BUILTIN(report);
DECLARE_BUILTIN(serve);
DECLARE_BUILTIN(audit);
DECLARE_BUILTIN(check);
DECLARE_BUILTIN(drivers);
DECLARE_BUILTIN(pick);
DECLARE_BUILTIN(claim);
DECLARE_BUILTIN(unclaim);
DECLARE_BUILTIN(status);
DECLARE_BUILTIN(log);
DECLARE_BUILTIN(pushdown);
DECLARE_BUILTIN(audit_record);
DECLARE_BUILTIN(convert);
DECLARE_BUILTIN(export);
DECLARE_BUILTIN(import);

#endif
