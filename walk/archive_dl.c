#include <pthread.h>
#include <stddef.h>

#include "walk/archive_dl.h"
#include "core/dl.h"

static pthread_once_t once = PTHREAD_ONCE_INIT;
/* Written once under pthread_once, read-only after. */
static struct archive_api api;
static const struct archive_api *loaded;
static const char *failure = "libarchive was not loaded";

#define SYM(field, name) { name, offsetof(struct archive_api, field) }
static const struct dl_sym syms[] = {
	SYM(read_new, "archive_read_new"),
	SYM(support_filter_all, "archive_read_support_filter_all"),
	SYM(support_format_all, "archive_read_support_format_all"),
	SYM(open_filename, "archive_read_open_filename"),
	SYM(next_header, "archive_read_next_header"),
	SYM(read_data, "archive_read_data"),
	SYM(filter_bytes, "archive_filter_bytes"),
	SYM(error_string, "archive_error_string"),
	SYM(read_free, "archive_read_free"),
	SYM(entry_filetype, "archive_entry_filetype"),
	SYM(entry_pathname, "archive_entry_pathname"),
	SYM(entry_size, "archive_entry_size"),
};
#undef SYM

static void
load(void)
{
	static const char *const names[] = {
		"libarchive.so.13", "libarchive.so", NULL
	};
	const char *missing;

	if (dl_load(names, syms, sizeof(syms) / sizeof(syms[0]), &api,
	    &missing))
		loaded = &api;
	else if (missing)
		failure = "libarchive lacks a function kifu needs";
	else
		failure = "cannot load libarchive (install libarchive13)";
}

const struct archive_api *
archive_api(const char **why)
{
	pthread_once(&once, load);
	if (!loaded && why)
		*why = failure;
	return loaded;
}
