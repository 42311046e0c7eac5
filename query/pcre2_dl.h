/*
 * pcre2_dl.h - PCRE2 (8-bit), for kifu's modules: include this, not
 * <pcre2.h>. As SQLite (db/sqlite.h), it is loaded on first use rather
 * than linked, for the few runs that match patterns (find --regex): the
 * functions kifu calls are renamed here to wrappers (query/pcre2_dl.c)
 * that call the library through pointers. pcre2_dl_load() loads it;
 * the frees take a NULL unloaded.
 */
#ifndef KIFU_QUERY_PCRE2_DL_H
#define KIFU_QUERY_PCRE2_DL_H

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

/*
 * X(return type, name, library symbol, parameters, arguments): those
 * called only with what a loaded library handed out, then the frees.
 */
#define PCRE2_DL_PLAIN(X) \
	X(pcre2_code *, compile, "pcre2_compile_8", (PCRE2_SPTR pat, \
	    PCRE2_SIZE n, uint32_t opts, int *err, PCRE2_SIZE *off, \
	    pcre2_compile_context *cc), (pat, n, opts, err, off, cc)) \
	X(int, jit_compile, "pcre2_jit_compile_8", (pcre2_code *re, \
	    uint32_t opts), (re, opts)) \
	X(pcre2_match_data *, match_data_create, "pcre2_match_data_create_8", \
	    (uint32_t n, pcre2_general_context *gc), (n, gc)) \
	X(int, match, "pcre2_match_8", (const pcre2_code *re, PCRE2_SPTR s, \
	    PCRE2_SIZE n, PCRE2_SIZE at, uint32_t opts, \
	    pcre2_match_data *md, pcre2_match_context *mc), \
	    (re, s, n, at, opts, md, mc)) \
	X(int, get_error_message, "pcre2_get_error_message_8", (int err, \
	    PCRE2_UCHAR *buf, PCRE2_SIZE size), (err, buf, size))
#define PCRE2_DL_FREES(X) \
	X(void, code_free, "pcre2_code_free_8", (pcre2_code *re), (re)) \
	X(void, match_data_free, "pcre2_match_data_free_8", \
	    (pcre2_match_data *md), (md))

#define PCRE2_DL_PROTO(ret, name, sym, params, args) \
	ret pcre2_dl_##name params;
PCRE2_DL_PLAIN(PCRE2_DL_PROTO)
PCRE2_DL_FREES(PCRE2_DL_PROTO)
#undef PCRE2_DL_PROTO

/*
 * Loads PCRE2 once (thread-safe): 0, or -1 with the reason in *why
 * (static text). The functions below work after a 0.
 */
int pcre2_dl_load(const char **why);

/* The names the code writes, as pcre2.h spells them. */
#undef pcre2_compile
#undef pcre2_jit_compile
#undef pcre2_match_data_create
#undef pcre2_match
#undef pcre2_get_error_message
#undef pcre2_code_free
#undef pcre2_match_data_free
#define pcre2_compile pcre2_dl_compile
#define pcre2_jit_compile pcre2_dl_jit_compile
#define pcre2_match_data_create pcre2_dl_match_data_create
#define pcre2_match pcre2_dl_match
#define pcre2_get_error_message pcre2_dl_get_error_message
#define pcre2_code_free pcre2_dl_code_free
#define pcre2_match_data_free pcre2_dl_match_data_free

#endif /* KIFU_QUERY_PCRE2_DL_H */
