/* SPDX-License-Identifier: MIT */
/*
 * JSON documents with positions. jansson reports a line and column only
 * for syntax errors; every semantic error of a policy or settings file
 * must name where the offending key or value was written too. The scanner
 * here walks the text in document order beside the tree jansson built
 * (objects keep insertion order) and records the position of every key and
 * value. Internal to src/policy.
 */
#ifndef LF_POLICY_JPOS_H
#define LF_POLICY_JPOS_H

#include <jansson.h>
#include <stddef.h>

#include "core/model.h"
#include "landfence.h"

/* The position of one value, and of its members or elements. */
struct lf_jpos {
	unsigned line, column; /* where the value starts, 1-based */
	size_t n;	       /* members of an object, elements of an array */
	struct lf_jpos_kid *kids;
};

struct lf_jpos_kid {
	unsigned key_line, key_column; /* the member's key (objects only) */
	struct lf_jpos value;
};

/* A parsed document: the jansson tree and its position tree. */
struct lf_jdoc {
	json_t *root;
	struct lf_jpos pos;
};

/* Parses text[0..len) as one JSON value (any type) with duplicate keys
 * rejected and NUL bytes in strings kept (so callers can reject them by
 * name). Returns 0 and fills doc, or:
 *   -EINVAL  syntax error, empty document, duplicate key: diag filled
 *   -ENOMEM */
int lf_jdoc_parse(struct lf_jdoc *doc, const char *text, size_t len, const char *filename,
		  struct lf_diag *diag);
void lf_jdoc_fini(struct lf_jdoc *doc);

/* Sets the function lf_jdoc_parse calls with a document's length before
 * parsing it, or NULL (the default: none is called). Only the command-line
 * tool sets one, once, before anything is parsed: it makes room in its
 * heap for the tree in one step (lf_cli_heap_room, src/cli/heap.c). A
 * library embedded elsewhere never touches its host's allocator. */
void lf_jdoc_set_reserve(void (*reserve)(size_t len));

/* The kid of an object's position for the member at insertion index i, or
 * NULL when the trees disagree (never for a document parsed here). */
const struct lf_jpos_kid *lf_jpos_kid(const struct lf_jpos *pos, size_t i);

/* The name of a JSON value's type with its article ("a string", "an
 * array", "null"), for "is X, expected Y" messages. */
const char *lf_json_type_name(const json_t *v);

/* Quotes s (of length len) for a message: at most about 60 bytes, control
 * characters and NUL escaped. */
void lf_quote(char *buf, size_t size, const char *s, size_t len);

#endif /* LF_POLICY_JPOS_H */
