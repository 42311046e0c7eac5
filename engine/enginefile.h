/*
 * enginefile.h - the engines file: names for engine commands and their
 * options, so that `kifu analyze --engine fsf` works in scripts.
 *
 * The file is a small subset of TOML (https://toml.io), so that editors
 * colour it and other tools read it: one table per engine, with an
 * options table and an environment table of its own.
 *
 *   # ~/.config/kifu/engines.toml
 *   [fsf]
 *   command = "/usr/games/fairy-stockfish"
 *   log = "/tmp/fsf.log"          # optional: --engine-log
 *   timeout-init = 30000          # optional: --timeout-init, ms
 *
 *   [fsf.options]                 # setoption, checked as --option is
 *   Threads = 1
 *   Hash = 256
 *   "Move Overhead" = 0           # names with spaces are quoted
 *
 *   [gps]
 *   command = "/usr/games/gpsusi"
 *   [gps.env]                     # added to the engine's environment
 *   OSL_HOME = "/srv/gps"
 *
 * Keys are bare (letters, digits, '_', '-') or quoted; values are basic
 * strings ("...", with \" \\ \n \t \uXXXX escapes), literal strings
 * ('...'), integers and booleans. Anything else (arrays, floats, dates,
 * inline tables, dotted keys) is an error naming its line and column, as
 * is an unknown key or a key given twice: a typo never passes silently.
 *
 * Where: --engines FILE, else $XDG_CONFIG_HOME/kifu/engines.toml, else
 * ~/.config/kifu/engines.toml. A missing default file is no error.
 */
#ifndef KIFU_ENGINE_ENGINEFILE_H
#define KIFU_ENGINE_ENGINEFILE_H

#include <stddef.h>

#include "core/strbuf.h"

struct engine_entry {
	char *name;		/* all owned */
	char *command;
	char *log;		/* NULL: none given */
	long long timeout_init;	/* 0: none given */
	char **options;		/* "Name=Value", in the file's order */
	size_t noptions;
	char **env;		/* "NAME=VALUE", NULL-terminated */
	size_t nenv;
	unsigned line;		/* of its table header */
};

struct engine_file {
	struct engine_entry *v;
	size_t n, alloc;
};

void enginefile_init(struct engine_file *f);
void enginefile_release(struct engine_file *f);

/*
 * Reads the text of an engines file (name: for messages). Returns 0, or
 * -1 with "name:line:col: what" in err.
 */
int enginefile_parse(struct engine_file *f, const char *text, size_t len,
    const char *name, char *err, size_t n);

/*
 * Reads the file at path. Returns 0, 1 when it does not exist (f stays
 * empty), or -1 with err filled.
 */
int enginefile_read(struct engine_file *f, const char *path, char *err,
    size_t n);

/* The default path (see above) into out; -1 when no home is known. */
int enginefile_default_path(struct strbuf *out);

/*
 * The engines file a command names with --engines (path), else the
 * default one, as `kifu analyze` and `kifu match` read it: a file named
 * that does not exist is an error, a default that does not exist is no
 * file (f stays empty). Returns 0, or -1 with err filled.
 */
int enginefile_load(struct engine_file *f, const char *path, char *err,
    size_t n);

const struct engine_entry *enginefile_find(const struct engine_file *f,
    const char *name);

/*
 * An engine as a command names it (--engine and the --option's after
 * it): the file's entry of that name, else a command line (split as a
 * shell would). Its options are the entry's, then the user's; a later
 * setting of a name (in any case) replaces the earlier in its place.
 */
struct engine_use {
	const struct engine_entry *entry;	/* the file's; NULL: none */
	char **argv;			/* owned (usi_argv_free) */
	char **options;			/* owned: "Name=Value", in order */
	size_t noptions;
};

/*
 * Resolves name and the user's "Name=Value" options (borrowed) into u.
 * Returns 0, or -1 with why in err (a command line that does not split,
 * an option holding a line break). u is to be released either way.
 */
int enginefile_use(const struct engine_file *f, const char *name,
    const char *const *user, size_t nuser, struct engine_use *u, char *err,
    size_t n);
void engine_use_release(struct engine_use *u);

#endif /* KIFU_ENGINE_ENGINEFILE_H */
