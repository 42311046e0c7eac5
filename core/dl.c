#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "core/dl.h"

void *
dl_load(const char *const *names, const struct dl_sym *syms, size_t nsyms,
    void *api, const char **missing)
{
	void *h = NULL;
	size_t i;

	*missing = NULL;
	for (i = 0; names[i] && !h; i++)
		h = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
	if (!h)
		return NULL;
	for (i = 0; i < nsyms; i++) {
		void *p = dlsym(h, syms[i].name);

		if (!p) {
			*missing = syms[i].name;
			dlclose(h);
			return NULL;
		}
		/* dlsym gives a void *; POSIX makes it a function's too. */
		memcpy((char *)api + syms[i].offset, &p, sizeof(p));
	}
	return h;
}

void
dl_library_load(struct dl_library *lib)
{
	const char *missing;

	lib->loaded = dl_load(lib->names, lib->syms, lib->nsyms, lib->api,
	    &missing) != NULL;
	if (lib->loaded)
		return;
	if (missing)
		snprintf(lib->failure, sizeof(lib->failure), "%s lacks %s, "
		    "which kifu needs", lib->what, missing);
	else
		snprintf(lib->failure, sizeof(lib->failure), "cannot load %s "
		    "(install %s)", lib->what, lib->package);
}
