#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#include <string.h>

#include "archive_dl.h"

static pthread_once_t once = PTHREAD_ONCE_INIT;
/* Written once under pthread_once, read-only after. */
static struct archive_api api;
static const struct archive_api *loaded;
static const char *failure = "libarchive was not loaded";

static void *
sym(void *h, const char *name, int *ok)
{
	void *p = dlsym(h, name);

	if (!p)
		*ok = 0;
	return p;
}

static void
load(void)
{
	static const char *const names[] = {
		"libarchive.so.13", "libarchive.so", NULL
	};
	void *h = NULL;
	int i, ok = 1;

	for (i = 0; names[i] && !h; i++)
		h = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		failure = "cannot load libarchive (install libarchive13)";
		return;
	}
	/* dlsym returns void *: the casts go through a union-free memcpy. */
#define LOAD(field, name) do { \
	void *p_ = sym(h, name, &ok); \
	memcpy(&api.field, &p_, sizeof(p_)); \
} while (0)
	LOAD(read_new, "archive_read_new");
	LOAD(support_filter_all, "archive_read_support_filter_all");
	LOAD(support_format_all, "archive_read_support_format_all");
	LOAD(open_filename, "archive_read_open_filename");
	LOAD(next_header, "archive_read_next_header");
	LOAD(read_data, "archive_read_data");
	LOAD(filter_bytes, "archive_filter_bytes");
	LOAD(error_string, "archive_error_string");
	LOAD(read_free, "archive_read_free");
	LOAD(entry_filetype, "archive_entry_filetype");
	LOAD(entry_pathname, "archive_entry_pathname");
	LOAD(entry_size, "archive_entry_size");
#undef LOAD
	if (!ok) {
		failure = "libarchive lacks a function kifu needs";
		return;
	}
	loaded = &api;
}

const struct archive_api *
archive_api(const char **why)
{
	pthread_once(&once, load);
	if (!loaded && why)
		*why = failure;
	return loaded;
}
