/*
 * archive_dl.h - libarchive, loaded when the first archive is read.
 *
 * Linking libarchive pulls in ICU, libxml2 and libstdc++, which made every
 * `kifu` start take 5 ms instead of under 1; most runs never open an
 * archive, so the library is dlopen()ed on first use instead.
 */
#ifndef KIFU_WALK_ARCHIVE_DL_H
#define KIFU_WALK_ARCHIVE_DL_H

#include <archive.h>
#include <archive_entry.h>

struct archive_api {
	struct archive *(*read_new)(void);
	int (*support_filter_all)(struct archive *);
	int (*support_format_all)(struct archive *);
	int (*open_filename)(struct archive *, const char *, size_t);
	int (*next_header)(struct archive *, struct archive_entry **);
	la_ssize_t (*read_data)(struct archive *, void *, size_t);
	la_int64_t (*filter_bytes)(struct archive *, int);
	const char *(*error_string)(struct archive *);
	int (*read_free)(struct archive *);
	__LA_MODE_T (*entry_filetype)(struct archive_entry *);
	const char *(*entry_pathname)(struct archive_entry *);
	la_int64_t (*entry_size)(struct archive_entry *);
};

/*
 * The functions, loaded once (thread-safe); NULL when libarchive cannot
 * be loaded, with the reason in *why (static text).
 */
const struct archive_api *archive_api(const char **why);

#endif /* KIFU_WALK_ARCHIVE_DL_H */
