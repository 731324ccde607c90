/* SPDX-License-Identifier: MIT */
/*
 * The glob matcher (src/core/glob.c). Input: PATTERN '\n' PATH. The pattern
 * goes through lf_glob_init as written (NUL bytes included); the path is
 * normalised first, as lf_glob_match's contract asks.
 *
 * Properties:
 * - a validated pattern is normalised (no "", "." or ".." segment) and
 *   validating it again gives it back unchanged;
 * - its static prefix contains no metacharacter and ends at a segment end;
 * - the matcher agrees with a slow reference written here from the grammar
 *   (SPEC §1, doc/globs.md): a dynamic programme over segments and, inside a
 *   segment, over tokens — no backtracking shortcut shared with the
 *   implementation;
 * - what a pattern matches lies at or below its static prefix: fences are
 *   built from static prefixes, so a match outside would be a leak;
 * - lf_path_relative, which turns a request's path into the form globs
 *   match, agrees with a reference lexical normalisation (POSIX: "/.." is
 *   "/"; a relative path starts at the project root): a path that lands in
 *   the project must get its project-relative form, or a deny rule would
 *   be answered with the fallback.
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "core/model.h"
#include "fuzz.h"

#define REF_MAX_SEGS 64
#define REF_MAX_TOKENS 128

enum tok_kind {
	TOK_LIT,
	TOK_ANY,
	TOK_STAR,
	TOK_CLASS
};

struct tok {
	enum tok_kind kind;
	unsigned char c; /* TOK_LIT */
	bool set[256];	 /* TOK_CLASS, negation applied */
};

struct seg {
	const char *s;
	size_t len;
};

/*
 * Class grammar: '[' then an optional '!', then a first member that may be
 * ']', then members up to the closing ']'. A member "x-y" is a range when y
 * is not the closing ']'; a '-' elsewhere is literal. Returns the bytes
 * consumed, or 0 when the class is not closed inside the segment.
 */
static size_t ref_class(const char *p, size_t n, struct tok *t)
{
	size_t i = 1;
	bool neg = false;
	memset(t->set, 0, sizeof(t->set));
	if (i < n && p[i] == '!') {
		neg = true;
		i++;
	}
	bool first = true;
	for (;;) {
		if (i >= n)
			return 0;
		if (p[i] == ']' && !first)
			break;
		first = false;
		unsigned char lo = (unsigned char)p[i];
		if (i + 2 < n && p[i + 1] == '-' && p[i + 2] != ']') {
			unsigned char hi = (unsigned char)p[i + 2];
			for (unsigned c = lo; c <= hi; c++)
				t->set[c] = true;
			i += 3;
		} else {
			t->set[lo] = true;
			i++;
		}
	}
	if (neg)
		for (unsigned c = 0; c < 256; c++)
			t->set[c] = !t->set[c];
	t->kind = TOK_CLASS;
	return i + 1;
}

/* Splits one pattern segment into tokens. Returns the count, or -1 when
 * there are too many (the input is then skipped, not judged). */
static int ref_tokens(const char *p, size_t n, struct tok *toks)
{
	int nt = 0;
	for (size_t i = 0; i < n;) {
		if (nt == REF_MAX_TOKENS)
			return -1;
		struct tok *t = &toks[nt];
		if (p[i] == '*') {
			t->kind = TOK_STAR;
			i++;
		} else if (p[i] == '?') {
			t->kind = TOK_ANY;
			i++;
		} else if (p[i] == '[') {
			size_t k = ref_class(p + i, n - i, t);
			FUZZ_ASSERT(k != 0); /* validated patterns have closed classes */
			i += k;
		} else {
			t->kind = TOK_LIT;
			t->c = (unsigned char)p[i];
			i++;
		}
		nt++;
	}
	return nt;
}

/* One pattern segment against one path segment; -1: too big to judge. */
static int ref_seg(struct seg pat, struct seg path)
{
	static struct tok toks[REF_MAX_TOKENS];
	int nt = ref_tokens(pat.s, pat.len, toks);
	if (nt < 0 || path.len > 255)
		return -1;
	/* m[i][j]: tokens i.. match path bytes j.. */
	static bool m[REF_MAX_TOKENS + 1][257];
	size_t n = path.len;
	for (int i = nt; i >= 0; i--) {
		for (size_t j = n + 1; j-- > 0;) {
			bool v;
			if (i == nt) {
				v = j == n;
			} else {
				const struct tok *t = &toks[i];
				unsigned char c = j < n ? (unsigned char)path.s[j] : 0;
				switch (t->kind) {
				case TOK_STAR:
					v = m[i + 1][j] || (j < n && m[i][j + 1]);
					break;
				case TOK_ANY:
					v = j < n && m[i + 1][j + 1];
					break;
				case TOK_LIT:
					v = j < n && c == t->c && m[i + 1][j + 1];
					break;
				default:
					v = j < n && t->set[c] && m[i + 1][j + 1];
					break;
				}
			}
			m[i][j] = v;
		}
	}
	return m[0][0];
}

static int segs_split(const char *s, struct seg *out)
{
	int n = 0;
	if (*s == '\0')
		return 0;
	for (;;) {
		if (n == REF_MAX_SEGS)
			return -1;
		const char *e = strchr(s, '/');
		size_t len = e ? (size_t)(e - s) : strlen(s);
		out[n++] = (struct seg){ s, len };
		if (!e)
			return n;
		s = e + 1;
	}
}

/*
 * The reference: M(i, j) = pattern segments i.. match path segments j..,
 * where running out of pattern matches whatever is left of the path (a
 * pattern covers what lies below what it matches), and "**" takes zero or
 * more path segments. Returns -1 when the input is too big to judge.
 */
static int ref_match(const char *pattern, const char *path)
{
	static struct seg ps[REF_MAX_SEGS], ss[REF_MAX_SEGS];
	int np = segs_split(pattern, ps), ns = segs_split(path, ss);
	if (np < 0 || ns < 0)
		return -1;
	static signed char segm[REF_MAX_SEGS][REF_MAX_SEGS];
	static bool M[REF_MAX_SEGS + 1][REF_MAX_SEGS + 1];
	for (int i = 0; i < np; i++)
		for (int j = 0; j < ns; j++) {
			int r = ref_seg(ps[i], ss[j]);
			if (r < 0)
				return -1;
			segm[i][j] = (signed char)r;
		}
	for (int i = np; i >= 0; i--)
		for (int j = ns; j >= 0; j--) {
			bool v;
			if (i == np)
				v = true;
			else if (ps[i].len == 2 && ps[i].s[0] == '*' && ps[i].s[1] == '*')
				v = M[i + 1][j] || (j < ns && M[i][j + 1]);
			else
				v = j < ns && segm[i][j] && M[i + 1][j + 1];
			M[i][j] = v;
		}
	return M[0][0];
}

/* Normalises the fuzzed path the way lf_path_relative hands paths over:
 * no empty, "." or ".." segment, no leading or trailing '/'. */
static void path_normalise(const char *in, size_t len, char *out)
{
	size_t n = 0;
	for (size_t i = 0; i < len;) {
		size_t e = i;
		while (e < len && in[e] != '/' && in[e] != '\0')
			e++;
		size_t seg = e - i;
		bool skip = seg == 0 || (seg == 1 && in[i] == '.') ||
			    (seg == 2 && in[i] == '.' && in[i + 1] == '.');
		if (!skip) {
			if (n)
				out[n++] = '/';
			memcpy(out + n, in + i, seg);
			n += seg;
		}
		i = e + 1;
	}
	out[n] = '\0';
}

#define PATH_ROOT "/p"

/* Reference: joins path onto PATH_ROOT when relative, resolves "", ".",
 * ".." (at "/" a ".." stays at "/"), then strips PATH_ROOT. Returns 0 with
 * rel, or 1 when the path lies outside. */
static int ref_relative(const char *path, char *rel, size_t size)
{
	static char abs[2 * FUZZ_MAX_INPUT + 8];
	static const char *segs[FUZZ_MAX_INPUT + 8];
	static size_t lens[FUZZ_MAX_INPUT + 8];
	size_t n = 0;
	snprintf(abs, sizeof(abs), "%s%s", path[0] == '/' ? "" : PATH_ROOT "/", path);
	for (const char *s = abs; *s;) {
		while (*s == '/')
			s++;
		if (!*s)
			break;
		const char *e = strchrnul(s, '/');
		size_t len = (size_t)(e - s);
		if (len == 1 && s[0] == '.') {
			/* nothing */
		} else if (len == 2 && s[0] == '.' && s[1] == '.') {
			if (n)
				n--;
		} else {
			segs[n] = s;
			lens[n++] = len;
		}
		s = e;
	}
	if (n == 0 || lens[0] != 1 || segs[0][0] != 'p')
		return 1;
	size_t o = 0;
	for (size_t i = 1; i < n; i++) {
		FUZZ_ASSERT(o + lens[i] + 2 <= size);
		if (o)
			rel[o++] = '/';
		memcpy(rel + o, segs[i], lens[i]);
		o += lens[i];
	}
	rel[o] = '\0';
	return 0;
}

static void check_relative(const char *path)
{
	static char got[2 * FUZZ_MAX_INPUT + 8], want[2 * FUZZ_MAX_INPUT + 8];
	int r = lf_path_relative(PATH_ROOT, path, got, sizeof(got));
	FUZZ_ASSERT(r == 0 || r == 1);
	int w = ref_relative(path, want, sizeof(want));
	if (r != w || (r == 0 && strcmp(got, want) != 0)) {
		fprintf(stderr,
			"lf_path_relative(\"%s\", \"%s\"): %d \"%s\", reference %d \"%s\"\n",
			PATH_ROOT, path, r, r == 0 ? got : "", w, w == 0 ? want : "");
		abort();
	}
}

static void check_normalised(const struct lf_glob *g)
{
	const char *p = g->pattern;
	FUZZ_ASSERT(p && p[0] != '\0' && p[0] != '/');
	struct seg segs[REF_MAX_SEGS];
	int n = segs_split(p, segs);
	for (int i = 0; i < n; i++) {
		FUZZ_ASSERT(segs[i].len > 0);
		FUZZ_ASSERT(!(segs[i].len == 1 && segs[i].s[0] == '.'));
		FUZZ_ASSERT(!(segs[i].len == 2 && segs[i].s[0] == '.' && segs[i].s[1] == '.'));
	}
	size_t len = strlen(p);
	FUZZ_ASSERT(g->prefix_len <= len);
	FUZZ_ASSERT(g->prefix_len == len || g->prefix_len == 0 || p[g->prefix_len] == '/');
	for (size_t i = 0; i < g->prefix_len; i++)
		FUZZ_ASSERT(p[i] != '*' && p[i] != '?' && p[i] != '[');
	/* Normalisation is idempotent. */
	struct lf_glob again;
	struct lf_diag diag;
	FUZZ_ASSERT(lf_glob_init(&again, p, len, &diag) == 0);
	FUZZ_ASSERT(strcmp(again.pattern, p) == 0);
	FUZZ_ASSERT(again.prefix_len == g->prefix_len);
	lf_glob_fini(&again);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > FUZZ_MAX_INPUT)
		return 0;
	const char *in = (const char *)data;
	const char *nl = memchr(in, '\n', size);
	size_t plen = nl ? (size_t)(nl - in) : size;

	/* The raw path, up to a NUL byte, as a request would give it. */
	char path[FUZZ_MAX_INPUT + 1];
	size_t rl = nl ? size - plen - 1 : 0;
	if (nl) {
		memcpy(path, nl + 1, rl);
		path[rl] = '\0';
		check_relative(path);
	}

	struct lf_glob g;
	struct lf_diag diag;
	memset(&diag, 0, sizeof(diag));
	int r = lf_glob_init(&g, in, plen, &diag);
	if (r != 0) {
		FUZZ_ASSERT(r == -EINVAL || r == -ENOMEM);
		FUZZ_ASSERT(memchr(diag.message, '\0', sizeof(diag.message)) != NULL);
		FUZZ_ASSERT(r == -ENOMEM || diag.message[0] != '\0');
		return 0;
	}
	check_normalised(&g);

	if (nl)
		path_normalise(nl + 1, rl, path);
	else
		path[0] = '\0';

	bool got = lf_glob_match(&g, path);
	int want = ref_match(g.pattern, path);
	if (want >= 0 && got != (want != 0)) {
		fprintf(stderr, "glob \"%s\" path \"%s\": matcher says %d, reference %d\n",
			g.pattern, path, got, want);
		abort();
	}
	if (got && g.prefix_len > 0) {
		/* A match lies at or below the static prefix. */
		FUZZ_ASSERT(strncmp(path, g.pattern, g.prefix_len) == 0);
		FUZZ_ASSERT(path[g.prefix_len] == '\0' || path[g.prefix_len] == '/');
	}
	lf_glob_fini(&g);
	return 0;
}
