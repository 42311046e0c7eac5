/*
 * walk.c - files, directories and archives, in a stable order.
 */
/* d_type and DT_REG (BSD and glibc; DT_UNKNOWN falls back to stat). */
#define _DEFAULT_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "walk/walk.h"
#include "walk/archive_dl.h"
#include "api/formats.h"
#include "api/input.h"
#include "core/xalloc.h"

void
walk_init(struct walk *w, const struct walk_sink *sink)
{
	memset(w, 0, sizeof(*w));
	w->sink = *sink;
	strbuf_init(&w->buf);
}

void
walk_release(struct walk *w)
{
	strbuf_release(&w->buf);
	free(w->stack);
}

static int
is_archive(const char *path)
{
	static const struct {
		const char *ext;
		size_t len;
	} ext[] = {
		{ ".tar", 4 }, { ".tar.gz", 7 }, { ".tgz", 4 }, { ".tar.xz", 7 },
		{ ".txz", 4 }, { ".tar.bz2", 8 }, { ".tbz2", 5 },
		{ ".tar.zst", 8 }, { ".zip", 4 }, { ".7z", 3 }
	};
	size_t n = strlen(path), i;
	/* The last letter first: a walk asks this of every record file. */
	char last = n ? path[n - 1] : '\0';

	if (last >= 'A' && last <= 'Z')
		last = (char)(last - 'A' + 'a');
	for (i = 0; i < sizeof(ext) / sizeof(ext[0]); i++)
		if (n > ext[i].len && last == ext[i].ext[ext[i].len - 1] &&
		    strcasecmp(path + n - ext[i].len, ext[i].ext) == 0)
			return 1;
	return 0;
}

static int
fail(struct walk *w, const char *name, const char *why)
{
	return w->sink.fail(w->sink.ctx, name, why);
}

/*
 * Whether a file found in a directory or an archive is read: 1, with
 * *probe set when only its content can say; 0 after ignore().
 */
static int
wanted(struct walk *w, const char *name, int *probe)
{
	*probe = 0;
	if (w->all_files)
		return 1;
	switch (formats_classify_name(name)) {
	case NAME_RECORD:
		return 1;
	case NAME_PROBE:
		*probe = 1;
		return 1;
	default:
		w->sink.ignore(w->sink.ctx, name);
		return 0;
	}
}

static const char *
errstr(const struct archive_api *la, struct archive *a, const char *dflt)
{
	const char *e = la->error_string(a);

	return e ? e : dflt;
}

static int
walk_archive(struct walk *w, const char *path)
{
	const char *why = NULL;
	const struct archive_api *la = archive_api(&why);
	struct archive *a;
	struct archive_entry *e;
	struct strbuf name = STRBUF_INIT;
	int r = ARCHIVE_OK, stop = 0;

	if (!la)
		return fail(w, path, why);
	a = la->read_new();
	la->support_filter_all(a);
	la->support_format_all(a);
	if (la->open_filename(a, path, 1 << 16) != ARCHIVE_OK) {
		stop = fail(w, path, errstr(la, a, "cannot open the archive"));
		la->read_free(a);
		return stop;
	}
	while (!stop && ((r = la->next_header(a, &e)) == ARCHIVE_OK ||
	    r == ARCHIVE_WARN)) {
		la_int64_t size = la->entry_size(e);
		la_ssize_t k;
		int probe;

		if (la->entry_filetype(e) != AE_IFREG)
			continue;
		strbuf_reset(&name);
		strbuf_addf(&name, "%s//%s", path, la->entry_pathname(e) ?
		    la->entry_pathname(e) : "?");
		/* Unread members are skipped by libarchive's next_header. */
		if (!wanted(w, name.buf, &probe))
			continue;
		strbuf_reset(&w->buf);
		/* The header's size is the archive's word: a cap, not a fact. */
		if (size > 0)
			strbuf_grow(&w->buf, (uint64_t)size < INPUT_READ_MAX ?
			    (size_t)size + 1 : 65536);
		k = 0;
		while (w->buf.len < INPUT_READ_MAX) {
			size_t room;

			if (w->buf.alloc - w->buf.len < 2)
				strbuf_grow(&w->buf, 65536);
			room = w->buf.alloc - w->buf.len - 1;
			if (room > INPUT_READ_MAX - w->buf.len)
				room = INPUT_READ_MAX - w->buf.len;
			k = la->read_data(a, w->buf.buf + w->buf.len, room);
			if (k <= 0)
				break;
			w->buf.len += (size_t)k;
			w->buf.buf[w->buf.len] = '\0';
		}
		w->bytes_done = (uint64_t)la->filter_bytes(a, -1);
		if (k < 0) {
			stop = fail(w, name.buf, errstr(la, a,
			    "cannot read the member"));
			if (k == ARCHIVE_FATAL)
				break;
			continue;
		}
		stop = w->sink.file(w->sink.ctx, name.buf, &w->buf, probe);
	}
	if (!stop && r == ARCHIVE_FATAL)
		stop = fail(w, path, errstr(la, a, "damaged archive"));
	la->read_free(a);
	strbuf_release(&name);
	return stop;
}

struct walk_dirfd {
	DIR *d;			/* the listing's, or NULL: fd alone */
	int fd;
	int refs;
	int *live;		/* the walk's count of them (walk.dirfds) */
	int short_is_end;	/* input_short_read_is_end(fd) */
};

void
walk_dirfd_hold(struct walk_dirfd *d)
{
	__atomic_add_fetch(&d->refs, 1, __ATOMIC_RELAXED);
}

void
walk_dirfd_release(struct walk_dirfd *d)
{
	if (__atomic_sub_fetch(&d->refs, 1, __ATOMIC_ACQ_REL) == 0) {
		if (d->d)
			closedir(d->d);
		else
			close(d->fd);
		__atomic_sub_fetch(d->live, 1, __ATOMIC_RELAXED);
		free(d);
	}
}

int
walk_dirfd_fd(const struct walk_dirfd *d)
{
	return d->fd;
}

int
walk_dirfd_short_is_end(const struct walk_dirfd *d)
{
	return d->short_is_end;
}

/*
 * The walk's own hold on a directory: the one listed (d), else path
 * opened again after a subdirectory; NULL if it cannot be, or if
 * WALK_DIRFDS are held already (the files are then opened by their whole
 * paths, which say why they cannot).
 */
static struct walk_dirfd *
dirfd_hold_new(struct walk *w, DIR *d, const char *path)
{
	struct walk_dirfd *h;
	int fd;

	if (__atomic_load_n(&w->dirfds, __ATOMIC_RELAXED) >= WALK_DIRFDS)
		return NULL;
	if ((fd = d ? dirfd(d) : open(path, O_RDONLY | O_DIRECTORY)) < 0)
		return NULL;
	__atomic_add_fetch(&w->dirfds, 1, __ATOMIC_RELAXED);
	h = xmalloc(sizeof(*h));
	h->d = d;
	h->fd = fd;
	h->refs = 1;
	h->live = &w->dirfds;
	h->short_is_end = input_short_read_is_end(fd);
	return h;
}

/*
 * A plain file; top: named by the user, and read whatever its name. dir:
 * NULL, or the directory that holds it, as path from byte base on.
 */
static int
walk_file_in(struct walk *w, const char *path, uint64_t size, int top,
    struct walk_dirfd *dir, size_t base)
{
	int stop, probe = 0;

	if (is_archive(path))
		return walk_archive(w, path);
	if (!top && !wanted(w, path, &probe)) {
		w->bytes_done += size;
		return 0;
	}
	if (w->sink.path) {
		stop = w->sink.path(w->sink.ctx, path, probe, dir, base);
		w->bytes_done += size;
		return stop;
	}
	if (input_read(path, &w->buf) < 0)
		return fail(w, path, strerror(errno));
	stop = w->sink.file(w->sink.ctx, path, &w->buf, probe);
	w->bytes_done += size;
	return stop;
}

static int
walk_file(struct walk *w, const char *path, uint64_t size, int top)
{
	return walk_file_in(w, path, size, top, NULL, 0);
}

/* A directory entry: its name, and its type when the listing says. */
struct entry {
	const char *name;
	/*
	 * The first eight bytes of the name (NUL-padded), the first the
	 * highest: two keys that differ order the names as strcmp does.
	 */
	uint64_t key;
	size_t off, len;	/* of the name in the listing's names */
	unsigned char type;	/* DT_REG, DT_DIR, ...; DT_UNKNOWN */
};

static uint64_t
name_key(const char *name, size_t len)
{
	uint64_t k = 0;
	size_t i;

	for (i = 0; i < 8; i++)
		k = k << 8 | (i < len ? (unsigned char)name[i] : 0);
	return k;
}

/* Most names differ in their first eight bytes: strcmp only for ties. */
static int
by_name(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return strcmp(x->name, y->name);
}

static int walk_any(struct walk *w, const char *path, int top);

/*
 * The entries of directory d but "." and "..", in name order (the same
 * output whatever order the disk lists), their names kept one after
 * another in *names, in that order: one allocation for a listing, not
 * one per file, and each name next to the one before when the walk
 * comes to it (the disk's order is a hash's, and a listing of 100,000
 * files does not stay in the cache while they are read).
 */
static struct entry *
list_dir(DIR *d, struct strbuf *names, size_t *n)
{
	struct entry *v = NULL;
	struct strbuf listed = STRBUF_INIT;
	size_t alloc = 0, i;
	struct dirent *de;

	*n = 0;
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		ALLOC_GROW(v, *n + 1, alloc);
		v[*n].off = listed.len;
		v[*n].len = strlen(de->d_name);
		v[(*n)++].type = de->d_type;
		strbuf_add(&listed, de->d_name, strlen(de->d_name) + 1);
	}
	for (i = 0; i < *n; i++) {
		v[i].name = listed.buf + v[i].off;
		v[i].key = name_key(v[i].name, v[i].len);
	}
	/* An empty directory has no array at all, which qsort may not take. */
	if (*n)
		qsort(v, *n, sizeof(*v), by_name);
	strbuf_grow(names, listed.len);
	for (i = 0; i < *n; i++) {
		v[i].off = names->len;
		strbuf_add(names, v[i].name, v[i].len + 1);
	}
	for (i = 0; i < *n; i++)
		v[i].name = names->buf + v[i].off;
	strbuf_release(&listed);
	return v;
}

static int
walk_dir(struct walk *w, const char *path, const struct stat *st)
{
	struct entry *names;
	size_t n, i, dirlen;
	struct strbuf sub = STRBUF_INIT, buf = STRBUF_INIT;
	struct walk_dirfd *at;
	DIR *d;
	int stop = 0, reopen_failed = 0;

	for (i = 0; i < w->depth; i++)
		if (w->stack[i].dev == (uint64_t)st->st_dev &&
		    w->stack[i].ino == (uint64_t)st->st_ino) {
			w->sink.skip(w->sink.ctx, path, "symlink loop");
			return 0;
		}
	if (!(d = opendir(path)))
		return fail(w, path, strerror(errno));
	names = list_dir(d, &buf, &n);
	/* Kept open for its files; not while a subdirectory is walked. */
	if (!(at = dirfd_hold_new(w, d, path)))
		closedir(d);
	ALLOC_GROW(w->stack, w->depth + 1, w->alloc);
	w->stack[w->depth].dev = (uint64_t)st->st_dev;
	w->stack[w->depth].ino = (uint64_t)st->st_ino;
	w->depth++;
	strbuf_adds(&sub, path);
	if (sub.buf[sub.len - 1] != '/')
		strbuf_addc(&sub, '/');
	dirlen = sub.len;
	for (i = 0; i < n && !stop; i++) {
		sub.len = dirlen;
		strbuf_add(&sub, names[i].name, names[i].len);
		/*
		 * A plain file the listing names as one needs no stat(): in
		 * a tree of small records that is one system call in five.
		 */
		if (names[i].type == DT_REG && !w->sizes) {
			if (!at && !reopen_failed)
				reopen_failed = !(at = dirfd_hold_new(w, NULL,
				    path));
			/* A path too long to open is an error, as ever. */
			stop = walk_file_in(w, sub.buf, 0, 0,
			    sub.len < PATH_MAX ? at : NULL, dirlen);
			continue;
		}
		if (at) {
			walk_dirfd_release(at);
			at = NULL;
		}
		stop = walk_any(w, sub.buf, 0);
	}
	if (at)
		walk_dirfd_release(at);
	w->depth--;
	free(names);
	strbuf_release(&buf);
	strbuf_release(&sub);
	return stop;
}

static int
walk_any(struct walk *w, const char *path, int top)
{
	struct stat st;

	if (!strcmp(path, "-") && top) {
		if (input_read(path, &w->buf) < 0)
			return fail(w, "<stdin>", strerror(errno));
		return w->sink.file(w->sink.ctx, "<stdin>", &w->buf, 0);
	}
	/* stat follows symlinks: a link to a directory is walked, with the loop check. */
	if (stat(path, &st) < 0) {
		/* Found in a directory, a loop is skipped; named, it is trouble. */
		if (errno == ELOOP && !top) {
			w->sink.skip(w->sink.ctx, path, "symlink loop");
			return 0;
		}
		return fail(w, path, strerror(errno));
	}
	if (S_ISDIR(st.st_mode))
		return walk_dir(w, path, &st);
	if (S_ISREG(st.st_mode))
		return walk_file(w, path, (uint64_t)st.st_size, top);
	if (top && S_ISFIFO(st.st_mode))
		return walk_file(w, path, 0, 1);	/* asked for by name */
	w->sink.skip(w->sink.ctx, path, S_ISFIFO(st.st_mode) ? "fifo" :
	    S_ISSOCK(st.st_mode) ? "socket" : "device");
	return 0;
}

int
walk_path(struct walk *w, const char *path)
{
	if (w->stopped)
		return 1;
	w->stopped = walk_any(w, path, 1);
	return w->stopped;
}

static uint64_t
size_of(const char *path, int depth)
{
	struct stat st;
	uint64_t total = 0;

	if (depth > 64 || stat(path, &st) < 0)
		return 0;
	if (S_ISREG(st.st_mode))
		return (uint64_t)st.st_size;
	if (S_ISDIR(st.st_mode)) {
		struct strbuf sub = STRBUF_INIT;
		struct dirent *de;
		DIR *d = opendir(path);

		if (!d)
			return 0;
		while ((de = readdir(d))) {
			if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
				continue;
			strbuf_reset(&sub);
			strbuf_addf(&sub, "%s/%s", path, de->d_name);
			total += size_of(sub.buf, depth + 1);
		}
		closedir(d);
		strbuf_release(&sub);
	}
	return total;
}

uint64_t
walk_size(const char *path)
{
	return strcmp(path, "-") ? size_of(path, 0) : 0;
}
