/*
 * cmd.h - what the subcommands share. Only cmd/ prints or exits.
 *
 * Adding a subcommand:
 *   1. write cmd/<name>.c with int cmd_<name>(int argc, char **argv)
 *      and a static usage text; --help prints it to stdout, exit 0;
 *   2. declare it below;
 *   3. add a row to commands[] in cmd/kifu.c (alphabetical);
 *   4. add tests/cli/tNNNN-<name>-*.sh, a line in the README's tour and
 *      a doc/ section whose examples run (doc/README.md).
 *
 * Exit codes: 0 ok, 1 findings (an illegal move, an invalid record),
 * 2 trouble (usage, unreadable input, write failure).
 */
#ifndef KIFU_CMD_CMD_H
#define KIFU_CMD_CMD_H

#include <stdint.h>

#include "core/diag.h"
#include "core/position.h"
#include "core/strbuf.h"

enum { EXIT_OK = 0, EXIT_FINDINGS = 1, EXIT_TROUBLE = 2 };

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	/* One line for `kifu help`; NULL for a command for programs
	 * (completion), which the list leaves out. */
	const char *summary;
	const char *usage;	/* full help text; first line is the synopsis */
};

/* The command table of cmd/kifu.c, alphabetical, and a lookup in it. */
const struct command *cmd_commands(size_t *n);
const struct command *cmd_lookup(const char *name);

/*
 * A command's manual page in mdoc, made from its usage text (man.c), and
 * kifu(1) itself from the table.
 */
struct strbuf;
void cmd_man_page(struct strbuf *out, const char *name, const char *summary,
    const char *usage);
void cmd_man_main(struct strbuf *out, const struct command *cmds, size_t n);

int cmd_analyze(int argc, char **argv);
int cmd_book(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_complete(int argc, char **argv);
int cmd_convert(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_find(int argc, char **argv);
int cmd_index(int argc, char **argv);
int cmd_legal(int argc, char **argv);
int cmd_match(int argc, char **argv);
int cmd_mate(int argc, char **argv);
int cmd_moves(int argc, char **argv);
int cmd_perft(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_stats(int argc, char **argv);
int cmd_summary(int argc, char **argv);
int cmd_tag(int argc, char **argv);
int cmd_tree(int argc, char **argv);
int cmd_tsume(int argc, char **argv);
int cmd_validate(int argc, char **argv);

extern const char cmd_analyze_usage[];
extern const char cmd_book_usage[];
extern const char cmd_check_usage[];
extern const char cmd_complete_usage[];
extern const char cmd_convert_usage[];
extern const char cmd_dump_usage[];
extern const char cmd_export_usage[];
extern const char cmd_find_usage[];
extern const char cmd_index_usage[];
extern const char cmd_legal_usage[];
extern const char cmd_match_usage[];
extern const char cmd_mate_usage[];
extern const char cmd_moves_usage[];
extern const char cmd_perft_usage[];
extern const char cmd_show_usage[];
extern const char cmd_stats_usage[];
extern const char cmd_summary_usage[];
extern const char cmd_tag_usage[];
extern const char cmd_tree_usage[];
extern const char cmd_tsume_usage[];
extern const char cmd_validate_usage[];

/* "kifu: error: ..." on stderr; returns EXIT_TROUBLE for `return error(...)`. */
int cmd_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void cmd_warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void cmd_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Each diagnostic as FILE:LINE:COL: SEVERITY: MESSAGE [ID] on stderr. */
void cmd_print_diags(const char *file, const struct diag_list *d);
/* The same lines into out, those of at least severity min. */
void cmd_add_diags(struct strbuf *out, const char *file,
    const struct diag_list *d, enum diag_severity min);

/* Prints the synopsis and a hint to stderr; returns EXIT_TROUBLE. */
int cmd_usage_error(const char *usage, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Prints the full help to stdout; returns EXIT_OK. */
int cmd_help(const char *usage);

/*
 * Sets pos from a --sfen argument ("startpos", or an SFEN with or
 * without the "sfen" keyword; NULL means startpos). The game is the one
 * the SFEN's board has the shape of (sfen_board_variant), else the named
 * variant, else standard; a named variant the board contradicts is an
 * error. Impossible positions are refused unless
 * allow_impossible. Reports on stderr; returns 0 or EXIT_TROUBLE.
 */
int cmd_position(struct position *pos, const char *sfen,
    const char *variant, int allow_impossible);

/*
 * The variant --variant names, into *v. Returns 0, or EXIT_TROUBLE after
 * a usage error (printed with `usage`).
 */
int cmd_variant(const char *name, const struct variant **v,
    const char *usage);

/* Parses a non-negative int argument; -1 if it is not one. */
int cmd_parse_int(const char *s, int max);
/* A positive count (--nodes) or number of seconds (--time): 0, or -1. */
int cmd_parse_count(const char *s, uint64_t *out);
int cmd_parse_seconds(const char *s, double *out);

/*
 * What a library module's option call (filter_take, select_take...)
 * said was wrong, printed: as a usage error with the synopsis when rc is
 * OPT_USAGE (core/strbuf.h), else as an error. Returns EXIT_TROUBLE.
 */
int cmd_opt_error(int rc, const struct strbuf *why, const char *usage);

/*
 * Each line of what a library call said was wrong (a `why` of one
 * message a line: db/build.h, train/export.h) as an error. Returns
 * EXIT_TROUBLE.
 */
int cmd_errors(const struct strbuf *why);

/*
 * The encoding text for the terminal should be in: the locale's
 * (LC_CTYPE, LANG), UTF-8 when it names none kifu writes.
 */
const char *cmd_terminal_encoding(void);

/*
 * Appends s with control characters as '?', as every message of kifu
 * shows a name or a text from the input.
 */
void cmd_add_clean(struct strbuf *sb, const char *s);

/*
 * jsonl_read() (stats/jsonl.h) of a shard, what is wrong with it printed
 * on stderr. Returns 0, or EXIT_TROUBLE after any error.
 */
struct json_t;
int cmd_read_jsonl(const char *path,
    int (*fn)(void *ctx, struct json_t *o, char *why, size_t n), void *ctx);

/*
 * --in-place: output_replace (api/output.h) with its failures said on
 * stderr, as convert and analyze say them (cmd/convert.c). Returns 0 or
 * EXIT_TROUBLE.
 */
int cmd_replace_file(const char *path, const char *orig, size_t orig_n,
    const char *data, size_t n, int no_backup, int force);

#endif /* KIFU_CMD_CMD_H */
