/* SPDX-License-Identifier: MIT */
/* SHA-256 after FIPS 180-4, sections 4.1.2, 4.2.2, 5.1.1, 6.2; on x86-64
 * processors with the SHA extensions, the compression function of 6.2.2
 * by their instructions (Intel SDM vol. 2, SHA256RNDS2, SHA256MSG1,
 * SHA256MSG2): every launch with a project policy hashes it for the trust
 * check, ~63 instructions a byte here and ~4 there. */
#include <stdatomic.h>
#include <stdbool.h>
#include <string.h>

#include "project/sha256.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#include <immintrin.h>
#define HAVE_SHA_NI 1
#endif

static const uint32_t k[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
	0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
	0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
	0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
	0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
	0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
	0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
	0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
	0xc67178f2,
};

static uint32_t ror(uint32_t x, unsigned n)
{
	return (x >> n) | (x << (32 - n));
}

static void compress(uint32_t h[8], const uint8_t b[64])
{
	uint32_t w[64], v[8];

	for (int i = 0; i < 16; i++)
		w[i] = (uint32_t)b[4 * i] << 24 | (uint32_t)b[4 * i + 1] << 16 |
		       (uint32_t)b[4 * i + 2] << 8 | (uint32_t)b[4 * i + 3];
	for (int i = 16; i < 64; i++) {
		uint32_t s0 = ror(w[i - 15], 7) ^ ror(w[i - 15], 18) ^ (w[i - 15] >> 3);
		uint32_t s1 = ror(w[i - 2], 17) ^ ror(w[i - 2], 19) ^ (w[i - 2] >> 10);
		w[i] = w[i - 16] + s0 + w[i - 7] + s1;
	}
	memcpy(v, h, sizeof(v));
	for (int i = 0; i < 64; i++) {
		uint32_t s1 = ror(v[4], 6) ^ ror(v[4], 11) ^ ror(v[4], 25);
		uint32_t ch = (v[4] & v[5]) ^ (~v[4] & v[6]);
		uint32_t t1 = v[7] + s1 + ch + k[i] + w[i];
		uint32_t s0 = ror(v[0], 2) ^ ror(v[0], 13) ^ ror(v[0], 22);
		uint32_t maj = (v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]);
		uint32_t t2 = s0 + maj;
		v[7] = v[6];
		v[6] = v[5];
		v[5] = v[4];
		v[4] = v[3] + t1;
		v[3] = v[2];
		v[2] = v[1];
		v[1] = v[0];
		v[0] = t1 + t2;
	}
	for (int i = 0; i < 8; i++)
		h[i] += v[i];
}

#ifdef HAVE_SHA_NI
/* n blocks at b. The state in two registers, as the instructions take
 * it: (a, b, e, f) and (c, d, g, h), each from its highest lane down. */
__attribute__((target("sha,sse4.1,ssse3"))) static void compress_ni(uint32_t h[8], const uint8_t *b,
								    size_t n)
{
	/* Each 32-bit word of the block is big-endian. */
	const __m128i swap = _mm_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL);
	__m128i dcba = _mm_loadu_si128((const __m128i *)(const void *)&h[0]);
	__m128i hgfe = _mm_loadu_si128((const __m128i *)(const void *)&h[4]);
	__m128i cdab = _mm_shuffle_epi32(dcba, 0xb1);
	__m128i efgh = _mm_shuffle_epi32(hgfe, 0x1b);
	__m128i abef = _mm_alignr_epi8(cdab, efgh, 8);
	__m128i cdgh = _mm_blend_epi16(efgh, cdab, 0xf0);

	for (; n; n--, b += 64) {
		__m128i m[4], abef0 = abef, cdgh0 = cdgh;

		for (int i = 0; i < 4; i++)
			m[i] = _mm_shuffle_epi8(
				_mm_loadu_si128((const __m128i *)(const void *)(b + 16 * i)), swap);
		/* Sixteen groups of four rounds; from the fifth on, the group's
		 * four words of the schedule (6.2.2 step 1) replace those of
		 * the group four back, in a ring of four. */
		for (int g = 0; g < 16; g++) {
			__m128i *w = &m[g & 3];

			if (g >= 4) {
				__m128i back1 = m[(g + 3) & 3], back2 = m[(g + 2) & 3];
				__m128i x = _mm_sha256msg1_epu32(*w, m[(g + 1) & 3]);

				x = _mm_add_epi32(x, _mm_alignr_epi8(back1, back2, 4));
				*w = _mm_sha256msg2_epu32(x, back1);
			}
			__m128i kw = _mm_add_epi32(
				*w, _mm_loadu_si128((const __m128i *)(const void *)&k[4 * g]));
			cdgh = _mm_sha256rnds2_epu32(cdgh, abef, kw);
			abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_shuffle_epi32(kw, 0x0e));
		}
		abef = _mm_add_epi32(abef, abef0);
		cdgh = _mm_add_epi32(cdgh, cdgh0);
	}
	__m128i feba = _mm_shuffle_epi32(abef, 0x1b);
	__m128i dchg = _mm_shuffle_epi32(cdgh, 0xb1);
	_mm_storeu_si128((__m128i *)(void *)&h[0], _mm_blend_epi16(feba, dchg, 0xf0));
	_mm_storeu_si128((__m128i *)(void *)&h[4], _mm_alignr_epi8(dchg, feba, 8));
}

/* Whether the processor has the SHA extensions and the SSSE3 and SSE4.1
 * the code above uses (CPUID leaf 7 EBX bit 29, leaf 1 ECX bits 9 and
 * 19): asked once, since CPUID traps to the hypervisor on a VM. 0 not
 * asked yet, 1 no, 2 yes. */
static atomic_int sha_ni;
static atomic_bool portable_only;

static bool use_ni(void)
{
	int v = atomic_load_explicit(&sha_ni, memory_order_relaxed);

	if (!v) {
		unsigned a, b, c, d;
		bool yes = __get_cpuid(1, &a, &b, &c, &d) && (c & (1u << 9)) && (c & (1u << 19)) &&
			   __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & (1u << 29));

		v = yes ? 2 : 1;
		atomic_store_explicit(&sha_ni, v, memory_order_relaxed);
	}
	return v == 2 && !atomic_load_explicit(&portable_only, memory_order_relaxed);
}
#endif

void lf_sha256_portable(bool only)
{
#ifdef HAVE_SHA_NI
	atomic_store(&portable_only, only);
#else
	(void)only;
#endif
}

/* n whole blocks at b. */
static void compress_blocks(uint32_t h[8], const uint8_t *b, size_t n)
{
#ifdef HAVE_SHA_NI
	if (use_ni()) {
		compress_ni(h, b, n);
		return;
	}
#endif
	for (; n; n--, b += 64)
		compress(h, b);
}

void lf_sha256_init(struct lf_sha256 *c)
{
	static const uint32_t iv[8] = { 0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
					0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19 };

	memcpy(c->h, iv, sizeof(iv));
	c->total = 0;
	c->used = 0;
}

void lf_sha256_add(struct lf_sha256 *c, const void *data, size_t len)
{
	const uint8_t *p = data;

	c->total += len;
	while (len) {
		/* Whole blocks straight from the data. */
		if (!c->used && len >= 64) {
			compress_blocks(c->h, p, len / 64);
			p += len / 64 * 64;
			len %= 64;
			continue;
		}
		size_t n = 64 - c->used;
		if (n > len)
			n = len;
		memcpy(c->block + c->used, p, n);
		c->used += n;
		p += n;
		len -= n;
		if (c->used == 64) {
			compress_blocks(c->h, c->block, 1);
			c->used = 0;
		}
	}
}

void lf_sha256_finish(struct lf_sha256 *c, uint8_t out[LF_SHA256_LEN])
{
	uint64_t bits = c->total * 8;
	uint8_t pad = 0x80, zero = 0, len[8];

	lf_sha256_add(c, &pad, 1);
	while (c->used != 56)
		lf_sha256_add(c, &zero, 1);
	for (int i = 0; i < 8; i++)
		len[i] = (uint8_t)(bits >> (56 - 8 * i));
	lf_sha256_add(c, len, 8);
	for (int i = 0; i < 8; i++) {
		out[4 * i] = (uint8_t)(c->h[i] >> 24);
		out[4 * i + 1] = (uint8_t)(c->h[i] >> 16);
		out[4 * i + 2] = (uint8_t)(c->h[i] >> 8);
		out[4 * i + 3] = (uint8_t)c->h[i];
	}
}

void lf_sha256_hex(const void *data, size_t len, char out[LF_SHA256_HEX_LEN + 1])
{
	static const char hex[] = "0123456789abcdef";
	struct lf_sha256 c;
	uint8_t d[LF_SHA256_LEN];

	lf_sha256_init(&c);
	lf_sha256_add(&c, data, len);
	lf_sha256_finish(&c, d);
	for (int i = 0; i < LF_SHA256_LEN; i++) {
		out[2 * i] = hex[d[i] >> 4];
		out[2 * i + 1] = hex[d[i] & 15];
	}
	out[LF_SHA256_HEX_LEN] = '\0';
}
