// SPDX-License-Identifier: GPL-2.0
/*
 * What a request carries: headers, cookies, query arguments (from
 * libmicrohttpd), and the fields of a form body.
 */
#include <microhttpd.h>
#include <string.h>
#include "web/web.h"

const char *web_header(struct web_req *req, const char *name)
{
	return MHD_lookup_connection_value(req->conn, MHD_HEADER_KIND, name);
}

const char *web_cookie(struct web_req *req, const char *name)
{
	return MHD_lookup_connection_value(req->conn, MHD_COOKIE_KIND, name);
}

const char *web_query(struct web_req *req, const char *name)
{
	return MHD_lookup_connection_value(req->conn, MHD_GET_ARGUMENT_KIND, name);
}

int web_hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/*
 * Decode %XX and '+' into out; -1 when it does not fit, holds a NUL or a
 * bad escape (a name with those is not one we have anyway).
 */
int url_decode(const char *in, size_t len, char *out, size_t outsz)
{
	size_t i, o = 0;

	for (i = 0; i < len; i++) {
		int c = (unsigned char)in[i];

		if (c == '%') {
			int h, l;

			if (i + 2 >= len)
				return -1;
			h = web_hexval(in[i + 1]);
			l = web_hexval(in[i + 2]);
			if (h < 0 || l < 0)
				return -1;
			c = h * 16 + l;
			i += 2;
		} else if (c == '+') {
			c = ' ';
		}
		if (!c || o + 1 >= outsz)
			return -1;
		out[o++] = c;
	}
	out[o] = '\0';
	return 0;
}

int form_get(const char *body, const char *name, char *out, size_t outsz)
{
	size_t nlen = strlen(name);
	const char *p = body;

	while (p && *p) {
		const char *end = strchr(p, '&');
		size_t len = end ? (size_t)(end - p) : strlen(p);

		if (len > nlen && !strncmp(p, name, nlen) && p[nlen] == '=')
			return url_decode(p + nlen + 1, len - nlen - 1, out, outsz) ? 0 : 1;
		if (len == nlen && !strncmp(p, name, nlen)) {
			out[0] = '\0';
			return 1;
		}
		p = end ? end + 1 : NULL;
	}
	return 0;
}
