/*
 * walk.h - every input `kifu check` is given, one record file at a time:
 * plain files, directories (recursively, in name order), '-' (standard
 * input) and archives (.tar, .tar.gz, .tar.xz, .tar.bz2, .zip, .7z) read
 * in place through libarchive. A member is named "archive.zip//dir/x.kif".
 */
#ifndef KIFU_WALK_WALK_H
#define KIFU_WALK_WALK_H

#include <stdint.h>

#include "core/strbuf.h"

/*
 * In a directory or an archive, only record files are read: those whose
 * extension is a record format's, and those whose name says nothing (no
 * extension, .json), which come with `probe` set: the callee reads them
 * only if their content is certainly a record. Every other file goes to
 * ignore(). A path named on the command line is always read. With
 * walk.all_files, every file is read.
 */
/*
 * A directory a walk holds open while it lists plain files from it, so
 * that they are read by their names in it (input_read_at): the kernel's
 * lookup of every component of a long path costs more than reading a
 * small record. Shared by the walk and the files a sink has not read
 * yet; the last release closes it. Any thread may hold and release one.
 */
struct walk_dirfd;
void walk_dirfd_hold(struct walk_dirfd *d);
void walk_dirfd_release(struct walk_dirfd *d);
int walk_dirfd_fd(const struct walk_dirfd *d);
/* input_read_at's short_is_end for the regular files listed in it. */
int walk_dirfd_short_is_end(const struct walk_dirfd *d);

struct walk_sink {
	void *ctx;
	/*
	 * One input's bytes. The callee may swap data's buffer with one of
	 * its own (the walker reuses whatever it is given back). Returns
	 * nonzero to stop the walk.
	 */
	int (*file)(void *ctx, const char *name, struct strbuf *data,
	    int probe);
	/*
	 * Optional: a plain file by name, for the callee to read itself
	 * (in parallel); when NULL, plain files come through file(). dir,
	 * when not NULL, is the directory that holds the file, as the name
	 * from byte base on: the callee holds it until it has read it.
	 */
	int (*path)(void *ctx, const char *name, int probe,
	    struct walk_dirfd *dir, size_t base);
	/* A file not read because its name says it is no record. */
	void (*ignore)(void *ctx, const char *name);
	/* An input that cannot be read (counted; the walk goes on). */
	int (*fail)(void *ctx, const char *name, const char *why);
	/* Something skipped on purpose: a fifo, a device, a symlink loop. */
	void (*skip)(void *ctx, const char *name, const char *why);
};

struct walk_frame;

struct walk {
	struct walk_sink sink;
	struct strbuf buf;
	uint64_t bytes_done;	/* input bytes consumed so far (progress) */
	/*
	 * Whether bytes_done must count plain files found in directories:
	 * that takes a stat() of each, which the directory listing's file
	 * type otherwise saves (set it for a progress bar).
	 */
	int sizes;
	int all_files;		/* read every file, not only record files */
	int stopped;
	/*
	 * The directories and archives being walked, innermost last (a
	 * directory's listing, names only; an archive's reader): what the
	 * walk holds at once grows with the depth of the tree, never with
	 * the number of files.
	 */
	struct walk_frame *frames;
	size_t depth, alloc;
	const char *top;	/* walk_start's path, not yet visited */
	/*
	 * Directories held open (struct walk_dirfd) and not yet closed, by
	 * the walk or by files not read yet: at most WALK_DIRFDS, so that a
	 * tree of small directories cannot run the process out of file
	 * descriptors (past it, files are opened by their whole paths).
	 * Atomic: the readers' threads release them.
	 */
	int dirfds;
};

#define WALK_DIRFDS 16

/* sink may be NULL for a walk that is only pulled (walk_next). */
void walk_init(struct walk *w, const struct walk_sink *sink);
void walk_release(struct walk *w);

/*
 * Walks one argument, calling the sink for each input. Returns nonzero
 * when the sink asked to stop.
 */
int walk_path(struct walk *w, const char *path);

/*
 * The same walk, pulled an input at a time: walk_start, then walk_next
 * until WALK_END. Each event is what walk_path hands the sink's
 * callback of that name (WALK_PATH only when the sink has path()); its
 * pointers stay valid until the next call. walk_start drops what is
 * left of an earlier walk; path is borrowed until WALK_END.
 */
enum walk_kind {
	WALK_END, WALK_FILE, WALK_PATH, WALK_IGNORE, WALK_FAIL, WALK_SKIP
};

struct walk_event {
	enum walk_kind kind;
	const char *name;
	struct strbuf *data;	/* WALK_FILE: w->buf (may be swapped) */
	int probe;		/* WALK_FILE, WALK_PATH */
	struct walk_dirfd *dir;	/* WALK_PATH: as walk_sink.path's */
	size_t base;
	const char *why;	/* WALK_FAIL, WALK_SKIP */
};

void walk_start(struct walk *w, const char *path);
enum walk_kind walk_next(struct walk *w, struct walk_event *ev);

/* Total bytes of the regular files under path (0 if unknown): for ETAs. */
uint64_t walk_size(const char *path);

#endif /* KIFU_WALK_WALK_H */
