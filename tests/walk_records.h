/*
 * walk_records.h - for the tests that must hold for every record in
 * testdata/: reads each record file (by its extension) with its parser,
 * replays every record in it, and hands each replayed record to a
 * callback. Undecodable files and unreadable records are passed over:
 * the parser tests judge those.
 */
#ifndef KIFU_TESTS_WALK_RECORDS_H
#define KIFU_TESTS_WALK_RECORDS_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "core/replay.h"
#include "core/text.h"
#include "parsers/format.h"
#include "parsers/jkf.h"

typedef void (*walk_record_fn)(void *ctx, const char *path,
    const struct record *r, const struct replay *rp);

static walk_record_fn walk_fn_;
static void *walk_ctx_;
static size_t walk_records_;

static enum read_status (*
walk_reader_for(const char *path))(struct reader *, struct record *,
    struct diag_list *)
{
	static const struct {
		const char *ext;
		enum read_status (*read)(struct reader *, struct record *,
		    struct diag_list *);
	} map[] = {
		{ ".csa", csa_read }, { ".kif", kif_read }, { ".kifu", kif_read },
		{ ".ki2", ki2_read }, { ".ki2u", ki2_read }, { ".usi", usi_read },
		{ ".sfen", usi_read }, { ".jkf", jkf_read }, { ".json", jkf_read },
	};
	const char *dot = strrchr(path, '.');
	size_t i;

	for (i = 0; dot && i < sizeof(map) / sizeof(map[0]); i++)
		if (strcasecmp(dot, map[i].ext) == 0)
			return map[i].read;
	return NULL;
}

static char *
walk_slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t alloc = 0, len = 0, got;

	if (!f)
		return NULL;
	do {
		if (len == alloc) {
			alloc = alloc ? 2 * alloc : 65536;
			buf = realloc(buf, alloc);
			if (!buf)
				abort();
		}
		got = fread(buf + len, 1, alloc - len, f);
		len += got;
	} while (got);
	fclose(f);
	*n = len;
	return buf;
}

static void
walk_file_(const char *path)
{
	enum read_status (*read)(struct reader *, struct record *,
	    struct diag_list *) = walk_reader_for(path);
	struct diag_list d = DIAG_LIST_INIT;
	struct record r;
	struct reader rd;
	struct text t;
	char *data;
	size_t n;

	if (!read || !(data = walk_slurp(path, &n)))
		return;
	text_init(&t);
	if (text_decode(&t, data, n, &d) == 0) {
		record_init(&r, variant_standard());
		reader_init(&rd, &t, variant_standard());
		for (;;) {
			struct replay rp;
			enum read_status st;

			diag_list_clear(&d);
			record_reset(&r, variant_standard());
			st = read(&rd, &r, &d);
			if (st == READ_EOF)
				break;
			if (st == READ_OK) {
				replay_record(&r, &rp, &d);
				walk_records_++;
				walk_fn_(walk_ctx_, path, &r, &rp);
			}
			if (st == READ_FATAL)
				break;
		}
		record_release(&r);
	}
	text_release(&t);
	diag_list_release(&d);
	free(data);
}

/* Depth first; the order does not matter to the tests. */
static void
walk_dir_(const char *dir)
{
	DIR *dp = opendir(dir);
	struct dirent *e;

	if (!dp)
		return;
	while ((e = readdir(dp))) {
		char path[4096];
		struct stat st;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (lstat(path, &st) < 0)
			continue;
		if (S_ISDIR(st.st_mode))
			walk_dir_(path);
		else if (S_ISREG(st.st_mode))
			walk_file_(path);
	}
	closedir(dp);
}

/* Calls fn for every record under dir; returns how many there were. */
static inline size_t
walk_records(const char *dir, walk_record_fn fn, void *ctx)
{
	walk_fn_ = fn;
	walk_ctx_ = ctx;
	walk_records_ = 0;
	walk_dir_(dir);
	return walk_records_;
}

#endif /* KIFU_TESTS_WALK_RECORDS_H */
