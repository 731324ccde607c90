/* SPDX-License-Identifier: MIT */
/* One table of programs' rows without pointers (shell_table.c, "Tables
 * without pointers"), included once a table with SH_PT_DEF the .def file
 * that lists it (a string) and SH_PT_NAME the name of the rows' array;
 * the strings are SH_PT_NAME_str, a struct SH_PT_NAME_blob. No include
 * guard: each inclusion makes another table. */
#define P(n, o, ops, f, h, r, c) \
	SH_DECL(name_, n) SH_DECL(opts_, o) SH_DECL(ops_, ops) SH_DECL(reason_, r) SH_DECL(conf_, c)
struct SH_CAT(SH_PT_NAME, _blob) {
#include SH_PT_DEF
};
#undef P
#define P(n, o, ops, f, h, r, c) SH_INIT(n) SH_INIT(o) SH_INIT(ops) SH_INIT(r) SH_INIT(c)
static const struct SH_CAT(SH_PT_NAME, _blob) SH_CAT(SH_PT_NAME, _str) = {
#include SH_PT_DEF
};
#undef P
#define SH_PT_BLOB SH_CAT(SH_PT_NAME, _blob)
#define P(n, o, ops, f, h, r, c)          \
	{ SH_OFF(SH_PT_BLOB, name_, n),   \
	  SH_OFF(SH_PT_BLOB, opts_, o),   \
	  SH_OFF(SH_PT_BLOB, ops_, ops),  \
	  SH_OFF(SH_PT_BLOB, reason_, r), \
	  SH_OFF(SH_PT_BLOB, conf_, c),   \
	  f,                              \
	  HX_##h },
static const struct prog_row SH_PT_NAME[] = {
#include SH_PT_DEF
};
#undef P
#undef SH_PT_BLOB
#undef SH_PT_NAME
#undef SH_PT_DEF
