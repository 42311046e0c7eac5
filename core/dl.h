/*
 * dl.h - loading a shared library on first use (dlopen), for the
 * libraries most runs of kifu never need: linking them would make every
 * start pay for loading them and theirs (see archive_dl.h, render.h).
 */
#ifndef KIFU_CORE_DL_H
#define KIFU_CORE_DL_H

#include <stddef.h>

/* One function of a library: its name and where its pointer goes. */
struct dl_sym {
	const char *name;
	size_t offset;		/* offsetof(struct api, field) */
};

/*
 * Opens the first of the NULL-terminated names that loads (RTLD_NOW,
 * RTLD_LOCAL), and sets each symbol's pointer in `api`. Returns the
 * handle; NULL when no name loads (*missing = NULL) or a symbol is
 * missing (*missing = its name; the library is closed again).
 */
void *dl_load(const char *const *names, const struct dl_sym *syms,
    size_t nsyms, void *api, const char **missing);

/*
 * A library as its loader knows it; static, one a library, filled in by
 * dl_library_load() (which a pthread_once calls).
 */
struct dl_library {
	const char *const *names;	/* sonames to try, NULL-terminated */
	const struct dl_sym *syms;
	size_t nsyms;
	void *api;			/* where the pointers go */
	const char *what;		/* its name in messages: "SQLite" */
	const char *package;		/* what to install: "libsqlite3-0" */
	int loaded;			/* set: every symbol is in api */
	char failure[160];		/* set: why not, when not */
};

void dl_library_load(struct dl_library *lib);

#endif /* KIFU_CORE_DL_H */
