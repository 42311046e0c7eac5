/*
 * pcre2_dl.c - PCRE2 loaded on first use: the wrappers query/pcre2_dl.h
 * renames PCRE2's functions to.
 */
#include <pthread.h>
#include <stddef.h>

#include "query/pcre2_dl.h"
#include "core/dl.h"

struct pcre2_api {
#define FIELD(ret, name, sym, params, args) ret (*name) params;
	PCRE2_DL_PLAIN(FIELD)
	PCRE2_DL_FREES(FIELD)
#undef FIELD
};

#define SYM(ret, name, sym, params, args) \
	{ sym, offsetof(struct pcre2_api, name) },
static const struct dl_sym syms[] = {
	PCRE2_DL_PLAIN(SYM)
	PCRE2_DL_FREES(SYM)
};
#undef SYM

static const char *const names[] = {
	"libpcre2-8.so.0", "libpcre2-8.so", NULL
};
static pthread_once_t once = PTHREAD_ONCE_INIT;
/* Written once under pthread_once, read-only after. */
static struct pcre2_api api;
static const struct pcre2_api *loaded;
static struct dl_library lib = {
	names, syms, sizeof(syms) / sizeof(syms[0]), &api, "PCRE2",
	"libpcre2-8-0", 0, "PCRE2 was not loaded"
};

static void
load(void)
{
	dl_library_load(&lib);
	loaded = lib.loaded ? &api : NULL;
}

int
pcre2_dl_load(const char **why)
{
	pthread_once(&once, load);
	if (!loaded)
		*why = lib.failure;
	return loaded ? 0 : -1;
}

#define CALL(ret, name, sym, params, args) \
	ret pcre2_dl_##name params { return loaded->name args; }
PCRE2_DL_PLAIN(CALL)
#undef CALL

/* What nothing was compiled for is freed without a library. */
#define FREE(ret, name, sym, params, args) \
	ret pcre2_dl_##name params { if (loaded) loaded->name args; }
PCRE2_DL_FREES(FREE)
#undef FREE
