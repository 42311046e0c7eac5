#include <dlfcn.h>
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
