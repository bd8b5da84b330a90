// SPDX-License-Identifier: GPL-2.0
/*
 * /static/NAME: only the files built into the binary from web/static/
 * (web/assets.c), looked up by exact name; nothing is read from disk, so
 * no path can leave the folder.
 */
#include <string.h>
#include "lib/embed.h"
#include "web/web.h"

extern const struct embedded_file web_static_files[];

static const char *type_of(const char *name)
{
	const char *dot = strrchr(name, '.');

	if (!dot)
		return "application/octet-stream";
	if (!strcmp(dot, ".css"))
		return "text/css; charset=utf-8";
	if (!strcmp(dot, ".js"))
		return "text/javascript; charset=utf-8";
	if (!strcmp(dot, ".svg"))
		return "image/svg+xml";
	if (!strcmp(dot, ".png"))
		return "image/png";
	return "application/octet-stream";
}

const struct embedded_file *web_asset(const char *name)
{
	const struct embedded_file *f;

	for (f = web_static_files; f->name; f++)
		if (!strcmp(f->name, name))
			return f;
	return NULL;
}

void page_static(struct web_req *req)
{
	const struct embedded_file *f = web_asset(req->arg);

	if (!f) {
		web_error(req, 404, "no such file");
		return;
	}
	strbuf_add(&req->out, f->data, f->len);
	req->ctype = type_of(f->name);
	req->cache = 1;
}
