// SPDX-License-Identifier: GPL-2.0
/*
 * CSRF tokens for the claim form, with no server-side state: the browser
 * gets a random nonce in a SameSite=Strict cookie and, in the form's
 * hidden field, HMAC-SHA256(server secret, nonce).  A POST must carry
 * both and they must match; the secret is random per server process.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include "web/web.h"

#define CSRF_COOKIE "bkl_csrf"

struct sha256 {
	uint32_t h[8];
	uint64_t len;
	unsigned char buf[64];
	size_t fill;
};

static const uint32_t K[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

#define ROR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))

static void sha256_block(struct sha256 *s, const unsigned char *p)
{
	uint32_t w[64], a, b, c, d, e, f, g, h, t1, t2;
	int i;

	for (i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] << 24 | p[4 * i + 1] << 16 | p[4 * i + 2] << 8 | p[4 * i + 3];
	for (; i < 64; i++)
		w[i] = w[i - 16] + (ROR(w[i - 15], 7) ^ ROR(w[i - 15], 18) ^ (w[i - 15] >> 3)) +
		       w[i - 7] + (ROR(w[i - 2], 17) ^ ROR(w[i - 2], 19) ^ (w[i - 2] >> 10));
	a = s->h[0]; b = s->h[1]; c = s->h[2]; d = s->h[3];
	e = s->h[4]; f = s->h[5]; g = s->h[6]; h = s->h[7];
	for (i = 0; i < 64; i++) {
		t1 = h + (ROR(e, 6) ^ ROR(e, 11) ^ ROR(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i];
		t2 = (ROR(a, 2) ^ ROR(a, 13) ^ ROR(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
		h = g; g = f; f = e; e = d + t1;
		d = c; c = b; b = a; a = t1 + t2;
	}
	s->h[0] += a; s->h[1] += b; s->h[2] += c; s->h[3] += d;
	s->h[4] += e; s->h[5] += f; s->h[6] += g; s->h[7] += h;
}

static void sha256_init(struct sha256 *s)
{
	static const uint32_t iv[8] = {
		0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
		0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
	};

	memcpy(s->h, iv, sizeof(iv));
	s->len = 0;
	s->fill = 0;
}

static void sha256_update(struct sha256 *s, const void *data, size_t len)
{
	const unsigned char *p = data;

	s->len += len;
	while (len) {
		size_t n = 64 - s->fill < len ? 64 - s->fill : len;

		memcpy(s->buf + s->fill, p, n);
		s->fill += n;
		p += n;
		len -= n;
		if (s->fill == 64) {
			sha256_block(s, s->buf);
			s->fill = 0;
		}
	}
}

static void sha256_final(struct sha256 *s, unsigned char out[32])
{
	uint64_t bits = s->len * 8;
	unsigned char pad = 0x80, z = 0, lenbe[8];
	int i;

	sha256_update(s, &pad, 1);
	while (s->fill != 56)
		sha256_update(s, &z, 1);
	for (i = 0; i < 8; i++)
		lenbe[i] = bits >> (56 - 8 * i);
	sha256_update(s, lenbe, 8);
	for (i = 0; i < 8; i++) {
		out[4 * i] = s->h[i] >> 24;
		out[4 * i + 1] = s->h[i] >> 16;
		out[4 * i + 2] = s->h[i] >> 8;
		out[4 * i + 3] = s->h[i];
	}
}

void hmac_sha256(const unsigned char *key, size_t klen, const void *msg,
		 size_t mlen, unsigned char out[32])
{
	unsigned char k[64] = { 0 }, pad[64], inner[32];
	struct sha256 s;
	int i;

	if (klen > 64) {
		sha256_init(&s);
		sha256_update(&s, key, klen);
		sha256_final(&s, k);
	} else {
		memcpy(k, key, klen);
	}
	for (i = 0; i < 64; i++)
		pad[i] = k[i] ^ 0x36;
	sha256_init(&s);
	sha256_update(&s, pad, 64);
	sha256_update(&s, msg, mlen);
	sha256_final(&s, inner);
	for (i = 0; i < 64; i++)
		pad[i] = k[i] ^ 0x5c;
	sha256_init(&s);
	sha256_update(&s, pad, 64);
	sha256_update(&s, inner, 32);
	sha256_final(&s, out);
}

static void to_hex(const unsigned char *p, size_t n, char *hex)
{
	static const char digits[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < n; i++) {
		hex[2 * i] = digits[p[i] >> 4];
		hex[2 * i + 1] = digits[p[i] & 15];
	}
	hex[2 * n] = '\0';
}

static int is_nonce(const char *s)
{
	size_t i;

	for (i = 0; i < 32; i++)
		if (!s[i] || !strchr("0123456789abcdef", s[i]))
			return 0;
	return s[32] == '\0';
}

static void token_for(struct web_req *req, const char *nonce, char hex[65])
{
	unsigned char mac[32];

	hmac_sha256(req->srv->secret, sizeof(req->srv->secret), nonce, strlen(nonce), mac);
	to_hex(mac, 32, hex);
}

void csrf_token(struct web_req *req, char hex[65])
{
	const char *cookie = web_cookie(req, CSRF_COOKIE);
	char nonce[33];
	unsigned char raw[16];

	if (cookie && is_nonce(cookie)) {
		memcpy(nonce, cookie, 33);
	} else {
		if (getrandom(raw, sizeof(raw), 0) != sizeof(raw))
			memset(raw, 0, sizeof(raw));	/* still HMACed: only weaker */
		to_hex(raw, sizeof(raw), nonce);
		snprintf(req->set_cookie, sizeof(req->set_cookie),
			 CSRF_COOKIE "=%s; Path=/; HttpOnly; SameSite=Strict", nonce);
	}
	token_for(req, nonce, hex);
}

/* 1 when the form's token is the HMAC of the cookie's nonce. */
int csrf_check(struct web_req *req, const char *form_token)
{
	const char *cookie = web_cookie(req, CSRF_COOKIE);
	char want[65];
	unsigned char diff = 0;
	int i;

	if (!cookie || !is_nonce(cookie) || !form_token || strlen(form_token) != 64)
		return 0;
	token_for(req, cookie, want);
	for (i = 0; i < 64; i++)	/* constant time */
		diff |= want[i] ^ form_token[i];
	return diff == 0;
}
