/*
 * walk.c - files, directories and archives, in a stable order.
 *
 * The walk is an iterator (walk_next): the directories and archives it
 * is inside are frames on a stack, a directory's sorted listing or an
 * archive's reader each, and every call goes on from the innermost one.
 * walk_path pushes what it pulls into the sink's callbacks.
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

static const char *
errstr(const struct archive_api *la, struct archive *a, const char *dflt)
{
	const char *e = la->error_string(a);

	return e ? e : dflt;
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


/* A directory or an archive the walk is inside. */
struct walk_frame {
	int archive;
	int done;		/* popped at the next call */
	char *path;
	/* a directory: its entries in name order, and the next one */
	uint64_t dev, ino;	/* to notice symlink loops */
	struct entry *names;
	struct strbuf listing;	/* the entries' names */
	size_t n, i;
	struct strbuf sub;	/* path/ and the entry at hand */
	size_t dirlen;
	struct walk_dirfd *at;	/* held for its plain files, or NULL */
	int reopen_failed;
	/* an archive */
	const struct archive_api *la;
	struct archive *a;
};

void
walk_init(struct walk *w, const struct walk_sink *sink)
{
	memset(w, 0, sizeof(*w));
	if (sink)
		w->sink = *sink;
	strbuf_init(&w->buf);
}

static void
pop(struct walk *w)
{
	struct walk_frame *f = &w->frames[--w->depth];

	if (f->archive) {
		f->la->read_free(f->a);
	} else {
		if (f->at)
			walk_dirfd_release(f->at);
		free(f->names);
		strbuf_release(&f->listing);
	}
	strbuf_release(&f->sub);
	free(f->path);
}

static void
drop_all(struct walk *w)
{
	while (w->depth)
		pop(w);
	w->top = NULL;
}

void
walk_release(struct walk *w)
{
	drop_all(w);
	strbuf_release(&w->buf);
	free(w->frames);
}

static struct walk_frame *
push(struct walk *w, const char *path)
{
	struct walk_frame *f;

	ALLOC_GROW(w->frames, w->depth + 1, w->alloc);
	f = &w->frames[w->depth++];
	memset(f, 0, sizeof(*f));
	f->path = xstrndup(path, strlen(path));
	return f;
}

static enum walk_kind
event(struct walk_event *ev, enum walk_kind k, const char *name,
    const char *why)
{
	memset(ev, 0, sizeof(*ev));
	ev->kind = k;
	ev->name = name;
	ev->why = why;
	return k;
}

static enum walk_kind
failed(struct walk_event *ev, const char *name, const char *why)
{
	return event(ev, WALK_FAIL, name, why);
}

/*
 * Whether a file found in a directory or an archive is read: 1, with
 * *probe set when only its content can say; 0 if it is to be ignored.
 */
static int
wanted(const struct walk *w, const char *name, int *probe)
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
		return 0;
	}
}

/* Enters an archive: WALK_END (its members come next) or WALK_FAIL. */
static enum walk_kind
enter_archive(struct walk *w, const char *path, struct walk_event *ev)
{
	const char *why = NULL;
	const struct archive_api *la = archive_api(&why);
	struct walk_frame *f;
	struct archive *a;

	if (!la)
		return failed(ev, path, why);
	a = la->read_new();
	la->support_filter_all(a);
	la->support_format_all(a);
	f = push(w, path);
	f->archive = 1;
	f->la = la;
	f->a = a;
	if (la->open_filename(a, path, 1 << 16) != ARCHIVE_OK) {
		f->done = 1;
		return failed(ev, f->path, errstr(la, a,
		    "cannot open the archive"));
	}
	return WALK_END;
}

/* The next member of the archive of frame f, or WALK_END after it. */
static enum walk_kind
next_member(struct walk *w, struct walk_frame *f, struct walk_event *ev)
{
	const struct archive_api *la = f->la;
	struct archive_entry *e;
	int r, probe;

	while ((r = la->next_header(f->a, &e)) == ARCHIVE_OK ||
	    r == ARCHIVE_WARN) {
		la_int64_t size = la->entry_size(e);
		la_ssize_t k;

		if (la->entry_filetype(e) != AE_IFREG)
			continue;
		strbuf_reset(&f->sub);
		strbuf_addf(&f->sub, "%s//%s", f->path, la->entry_pathname(e) ?
		    la->entry_pathname(e) : "?");
		/* Unread members are skipped by libarchive's next_header. */
		if (!wanted(w, f->sub.buf, &probe))
			return event(ev, WALK_IGNORE, f->sub.buf, NULL);
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
			k = la->read_data(f->a, w->buf.buf + w->buf.len, room);
			if (k <= 0)
				break;
			w->buf.len += (size_t)k;
			w->buf.buf[w->buf.len] = '\0';
		}
		w->bytes_done = (uint64_t)la->filter_bytes(f->a, -1);
		if (k < 0) {
			/* Nothing can be read after a fatal error. */
			f->done = k == ARCHIVE_FATAL;
			return failed(ev, f->sub.buf, errstr(la, f->a,
			    "cannot read the member"));
		}
		event(ev, WALK_FILE, f->sub.buf, NULL);
		ev->data = &w->buf;
		ev->probe = probe;
		return WALK_FILE;
	}
	f->done = 1;
	if (r == ARCHIVE_FATAL)
		return failed(ev, f->path, errstr(la, f->a, "damaged archive"));
	return WALK_END;
}

/*
 * A plain file; top: named by the user, and read whatever its name. dir:
 * NULL, or the directory that holds it, as path from byte base on.
 * WALK_END when it was an archive, entered.
 */
static enum walk_kind
visit_file(struct walk *w, const char *path, uint64_t size, int top,
    struct walk_dirfd *dir, size_t base, struct walk_event *ev)
{
	int probe = 0;

	if (is_archive(path))
		return enter_archive(w, path, ev);
	w->bytes_done += size;
	if (!top && !wanted(w, path, &probe))
		return event(ev, WALK_IGNORE, path, NULL);
	if (w->sink.path) {
		event(ev, WALK_PATH, path, NULL);
		ev->probe = probe;
		ev->dir = dir;
		ev->base = base;
		return WALK_PATH;
	}
	if (input_read(path, &w->buf) < 0)
		return failed(ev, path, strerror(errno));
	event(ev, WALK_FILE, path, NULL);
	ev->data = &w->buf;
	ev->probe = probe;
	return WALK_FILE;
}

static enum walk_kind
enter_dir(struct walk *w, const char *path, const struct stat *st,
    struct walk_event *ev)
{
	struct walk_frame *f;
	size_t i;
	DIR *d;

	for (i = 0; i < w->depth; i++)
		if (!w->frames[i].archive &&
		    w->frames[i].dev == (uint64_t)st->st_dev &&
		    w->frames[i].ino == (uint64_t)st->st_ino)
			return event(ev, WALK_SKIP, path, "symlink loop");
	if (!(d = opendir(path)))
		return failed(ev, path, strerror(errno));
	f = push(w, path);
	f->dev = (uint64_t)st->st_dev;
	f->ino = (uint64_t)st->st_ino;
	f->names = list_dir(d, &f->listing, &f->n);
	/* Kept open for its files; not while a subdirectory is walked. */
	if (!(f->at = dirfd_hold_new(w, d, path)))
		closedir(d);
	strbuf_adds(&f->sub, path);
	if (f->sub.buf[f->sub.len - 1] != '/')
		strbuf_addc(&f->sub, '/');
	f->dirlen = f->sub.len;
	return WALK_END;
}

/* Any path: an event, or WALK_END when a frame was entered (or none). */
static enum walk_kind
visit(struct walk *w, const char *path, int top, struct walk_event *ev)
{
	struct stat st;

	if (!strcmp(path, "-") && top) {
		if (input_read(path, &w->buf) < 0)
			return failed(ev, "<stdin>", strerror(errno));
		event(ev, WALK_FILE, "<stdin>", NULL);
		ev->data = &w->buf;
		return WALK_FILE;
	}
	/* stat follows symlinks: a link to a directory is walked, with the loop check. */
	if (stat(path, &st) < 0) {
		/* Found in a directory, a loop is skipped; named, it is trouble. */
		if (errno == ELOOP && !top)
			return event(ev, WALK_SKIP, path, "symlink loop");
		return failed(ev, path, strerror(errno));
	}
	if (S_ISDIR(st.st_mode))
		return enter_dir(w, path, &st, ev);
	if (S_ISREG(st.st_mode))
		return visit_file(w, path, (uint64_t)st.st_size, top, NULL, 0,
		    ev);
	if (top && S_ISFIFO(st.st_mode))
		return visit_file(w, path, 0, 1, NULL, 0, ev);	/* asked for by name */
	return event(ev, WALK_SKIP, path, S_ISFIFO(st.st_mode) ? "fifo" :
	    S_ISSOCK(st.st_mode) ? "socket" : "device");
}

/* The next entry of the directory of frame f, or WALK_END after it. */
static enum walk_kind
next_entry(struct walk *w, size_t fi, struct walk_event *ev)
{
	struct walk_frame *f = &w->frames[fi];
	const struct entry *e;

	if (f->i == f->n) {
		f->done = 1;
		return WALK_END;
	}
	e = &f->names[f->i++];
	f->sub.len = f->dirlen;
	strbuf_add(&f->sub, e->name, e->len);
	/*
	 * A plain file the listing names as one needs no stat(): in a tree
	 * of small records that is one system call in five.
	 */
	if (e->type == DT_REG && !w->sizes) {
		if (!f->at && !f->reopen_failed)
			f->reopen_failed = !(f->at = dirfd_hold_new(w, NULL,
			    f->path));
		/* A path too long to open is an error, as ever. */
		return visit_file(w, f->sub.buf, 0, 0, f->sub.len < PATH_MAX ?
		    f->at : NULL, f->dirlen, ev);
	}
	if (f->at) {
		walk_dirfd_release(f->at);
		f->at = NULL;
	}
	/* The subdirectory's frame may move this one: f is not used after. */
	return visit(w, f->sub.buf, 0, ev);
}

void
walk_start(struct walk *w, const char *path)
{
	drop_all(w);
	w->top = path;
}

enum walk_kind
walk_next(struct walk *w, struct walk_event *ev)
{
	enum walk_kind k;

	for (;;) {
		if (w->depth && w->frames[w->depth - 1].done) {
			pop(w);
			continue;
		}
		if (!w->depth) {
			const char *top = w->top;

			if (!top)
				return event(ev, WALK_END, NULL, NULL);
			w->top = NULL;
			k = visit(w, top, 1, ev);
		} else if (w->frames[w->depth - 1].archive) {
			k = next_member(w, &w->frames[w->depth - 1], ev);
		} else {
			k = next_entry(w, w->depth - 1, ev);
		}
		if (k != WALK_END)
			return k;
	}
}

/* An event to the sink's callback for it: nonzero to stop. */
static int
dispatch(struct walk *w, const struct walk_event *ev)
{
	const struct walk_sink *s = &w->sink;

	switch (ev->kind) {
	case WALK_FILE:
		return s->file(s->ctx, ev->name, ev->data, ev->probe);
	case WALK_PATH:
		return s->path(s->ctx, ev->name, ev->probe, ev->dir, ev->base);
	case WALK_IGNORE:
		s->ignore(s->ctx, ev->name);
		return 0;
	case WALK_FAIL:
		return s->fail(s->ctx, ev->name, ev->why);
	case WALK_SKIP:
		s->skip(s->ctx, ev->name, ev->why);
		return 0;
	default:
		return 0;
	}
}

int
walk_path(struct walk *w, const char *path)
{
	struct walk_event ev;

	if (w->stopped)
		return 1;
	walk_start(w, path);
	while (walk_next(w, &ev) != WALK_END)
		if (dispatch(w, &ev)) {
			drop_all(w);
			w->stopped = 1;
			break;
		}
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
