/* SPDX-License-Identifier: MIT */
/*
 * Text from outside (a file name, a policy's string, a hook payload, an
 * agent's settings) as landfence prints it: control characters escaped,
 * so that a name like $'z\e[1A\e[2K' cannot move the cursor, erase the
 * lines above it or write the clipboard (OSC 52) on the user's terminal.
 * Pure. Internal: not installed.
 *
 * The escapes: \n, \t, \r and \\x1b-style \xNN for the other C0 bytes and
 * DEL; \u0080 to \u009f for the C1 control characters encoded in UTF-8
 * (a terminal may take U+009B for CSI); \xNN for each byte that is not
 * part of valid UTF-8 (a lone 0x9b is CSI on an 8-bit terminal). A
 * backslash is written as it is. Everything else, printable UTF-8
 * included, is copied.
 */
#ifndef LF_CORE_TEXT_H
#define LF_CORE_TEXT_H

#include <stdbool.h>
#include <stddef.h>

/* The escaped form of s into a malloc'ed string; NULL when out of memory
 * (s NULL is ""). */
char *lf_text_escape(const char *s);

/* Whether s is printable ASCII only, so that escaping leaves it as it is
 * (a fast path for the common case; UTF-8 text answers false). */
bool lf_text_clean(const char *s);

/* One step of the escaper, for a stream that arrives in pieces (the
 * command-line tool's output): feeds the n bytes of in, writing what can
 * be decided into out (at least 6 * n + 18 bytes) and keeping an
 * unfinished UTF-8 sequence in st for the next call. keep_lines leaves
 * '\n' and '\t' as they are (whole messages, whose lines are meant).
 * n == 0 with in NULL ends the stream: what st holds is written as \xNN.
 * Returns the bytes written to out. */
struct lf_text_state {
	unsigned char pend[4];
	unsigned npend, need;
};
size_t lf_text_escape_step(struct lf_text_state *st, const char *in, size_t n, char *out,
			   bool keep_lines);

#endif /* LF_CORE_TEXT_H */
