// SPDX-License-Identifier: GPL-2.0
/*
 * Why Kconfig dropped an option a fragment asked for: its entry in the
 * tree's Kconfig files, its "depends on" lines, and which symbols of
 * those the final .config does not have.  Only the entry's own lines are
 * read (an enclosing "if" or menu dependency is not), which names the
 * usual culprit: CONFIG_PCI for a PCI driver, CONFIG_ACPI for hpet.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include "qemu/qemu.h"
#include "lib/run-command.h"
#include "lib/strbuf.h"

static int entry_ends(const char *text)
{
	static const char *const starts[] = { "config ", "menuconfig ", "choice", "endchoice",
					      "menu ", "endmenu", "if ", "endif", "source ",
					      "comment ", NULL };
	int i;

	for (i = 0; starts[i]; i++)
		if (!strncmp(text, starts[i], strlen(starts[i])))
			return 1;
	return 0;
}

/*
 * grep -n's "path:N:text" (the match) or "path-N-text" (context): the
 * text, and whether it is the match.  A path may hold '-' itself.
 */
static const char *grep_text(const char *line, const char *end, int *match)
{
	const char *p, *q;

	for (p = line; p < end; p++) {
		if (*p != ':' && *p != '-')
			continue;
		for (q = p + 1; q < end && isdigit((unsigned char)*q); q++)
			;
		if (q > p + 1 && q < end && *q == *p) {
			*match = *p == ':';
			return q + 1;
		}
	}
	*match = 0;
	return end;
}

/* "depends on" expressions of the entry grep matched, "a && b" joined. */
static void collect_depends(const char *grep_out, struct strbuf *deps)
{
	const char *line = grep_out, *nl, *end, *text;
	int in_entry = 0, match;

	for (; line && *line; line = nl ? nl + 1 : NULL) {
		nl = strchr(line, '\n');
		end = nl ? nl : line + strlen(line);
		text = grep_text(line, end, &match);
		text += strspn(text, " \t");
		if (match) {
			in_entry = 1;
			continue;
		}
		if (!in_entry)
			continue;
		if (entry_ends(text)) {
			in_entry = 0;
			continue;
		}
		if (!strncmp(text, "depends on ", 11))
			strbuf_addf(deps, "%s(%.*s)", deps->len ? " && " : "",
				    (int)strcspn(text + 11, "\n#"), text + 11);
	}
}

/* Is CONFIG_<sym> one of the ", "-separated names in out already? */
static int listed(const struct strbuf *out, const char *sym)
{
	const char *p = sb_str(out);
	size_t n = strlen(sym);

	for (; *p; p += strcspn(p, ",") + (p[strcspn(p, ",")] ? 2 : 0))
		if (!strncmp(p, "CONFIG_", 7) && !strncmp(p + 7, sym, n) && (!p[7 + n] || p[7 + n] == ','))
			return 1;
	return 0;
}

/* Each symbol of expr that config does not set to y or m. */
static void unset_symbols(const char *expr, const char *config, struct strbuf *out)
{
	const char *p = expr;

	while (*p) {
		char sym[128], key[140];
		size_t n;

		if (!isupper((unsigned char)*p) && !isdigit((unsigned char)*p) && *p != '_') {
			p++;
			continue;
		}
		n = strspn(p, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_abcdefghijklmnopqrstuvwxyz");
		snprintf(sym, sizeof(sym), "%.*s", (int)(n < sizeof(sym) ? n : sizeof(sym) - 1), p);
		p += n;
		if (!strcmp(sym, "y") || !strcmp(sym, "m") || !strcmp(sym, "n") ||
		    !isupper((unsigned char)sym[0]))
			continue;
		snprintf(key, sizeof(key), "\nCONFIG_%s=", sym);
		if (strstr(config, key) || listed(out, sym))
			continue;
		strbuf_addf(out, "%sCONFIG_%s", out->len ? ", " : "", sym);
	}
}

void qemu_kconfig_why(const char *tree, const char *config, const char *option,
		      struct strbuf *why)
{
	struct strbuf pat = STRBUF_INIT, out = STRBUF_INIT, deps = STRBUF_INIT;
	struct strbuf unset = STRBUF_INIT, cfg = STRBUF_INIT;
	const char *argv[] = { "grep", "-rn", "--include=Kconfig*", "-A40", "-E", NULL, ".", NULL };
	const char *name = option + (strncmp(option, "CONFIG_", 7) ? 0 : 7);

	strbuf_addf(&pat, "^(menu)?config %s$", name);
	argv[5] = pat.buf;
	strbuf_addf(&cfg, "\n%s", config);	/* every line starts with '\n' */
	if (run_command(argv, tree, &out) || !out.len) {
		strbuf_addstr(why, "there is no such option in the tree's Kconfig");
		goto out;
	}
	collect_depends(out.buf, &deps);
	unset_symbols(sb_str(&deps), cfg.buf, &unset);
	if (!deps.len)
		strbuf_addstr(why, "its dependencies (of an enclosing menu or if) are off");
	else if (unset.len)
		strbuf_addf(why, "it depends on %s, and %s %s not set", deps.buf, unset.buf,
			    strchr(unset.buf, ',') ? "are" : "is");
	else
		strbuf_addf(why, "it depends on %s", deps.buf);
out:
	strbuf_release(&pat);
	strbuf_release(&out);
	strbuf_release(&deps);
	strbuf_release(&unset);
	strbuf_release(&cfg);
}
