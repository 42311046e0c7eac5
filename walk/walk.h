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
	/* Directories being walked, to notice symlink loops. */
	struct walk_dir { uint64_t dev, ino; } *stack;
	size_t depth, alloc;
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

void walk_init(struct walk *w, const struct walk_sink *sink);
void walk_release(struct walk *w);

/* Walks one argument. Returns nonzero when the sink asked to stop. */
int walk_path(struct walk *w, const char *path);

/* Total bytes of the regular files under path (0 if unknown): for ETAs. */
uint64_t walk_size(const char *path);

#endif /* KIFU_WALK_WALK_H */
