/*
 * diag.h - diagnostics as values: an id, a severity, a place, a message.
 *
 * Library code appends to a caller-owned diag_list and carries on where it
 * can; only cmd/ prints. Tests assert on id, line and column, never on
 * message text.
 *
 * Positions: line is 1-based in the source file; col is 1-based and counts
 * Unicode code points of the decoded line (full-width KIF text makes byte
 * columns useless); byte is the offset in the decoded UTF-8 text.
 */
#ifndef KIFU_CORE_DIAG_H
#define KIFU_CORE_DIAG_H

#include <stddef.h>
#include <stdint.h>

/*
 * X(enum name, stable id) for diagnostics that are not move rules (those
 * are rule ids, core/rules.h). Ids are promises to scripts: add, never
 * rename.
 */
#define DIAG_LIST(X) \
	X(DIAG_SYNTAX, "syntax") \
	X(DIAG_ENCODING, "encoding") \
	X(DIAG_UNKNOWN_FORMAT, "unknown-format") \
	X(DIAG_IO, "io") \
	X(DIAG_BAD_POSITION, "bad-position") \
	X(DIAG_WRONG_SIDE, "wrong-side") \
	X(DIAG_UNKNOWN_LINE, "unknown-line") \
	X(DIAG_UNKNOWN_HANDICAP, "unknown-handicap") \
	X(DIAG_MOVE_AFTER_END, "move-after-end") \
	X(DIAG_RESULT_MISMATCH, "result-mismatch") \
	X(DIAG_TIME, "time") \
	X(DIAG_LIMIT, "limit") \
	X(DIAG_EMPTY, "empty") \
	X(DIAG_AMBIGUOUS, "ambiguous")

#define DIAG_ENUM(e, id) e,
enum diag_id { DIAG_LIST(DIAG_ENUM) DIAG_ID_NB };
#undef DIAG_ENUM

const char *diag_id_name(enum diag_id id);

enum diag_severity { DIAG_NOTE, DIAG_WARNING, DIAG_ERROR };

/* "note", "warning" or "error", as every message and JSON field says it. */
const char *diag_severity_name(enum diag_severity s);

struct span {
	uint32_t line;		/* 1-based; 0 = no place */
	uint32_t col;		/* 1-based, in code points */
	uint32_t byte;		/* offset in the decoded UTF-8 text */
	uint32_t len;		/* length in bytes of the decoded text */
};

struct diag {
	enum diag_severity severity;
	const char *id;		/* static: a diag id or a rule id */
	struct span loc;
	int ply;		/* move number the problem is at; 0 = none */
	char *message;		/* owned by the list */
};

struct diag_list {
	struct diag *v;
	size_t n, alloc;
	size_t errors, warnings;
};

#define DIAG_LIST_INIT { NULL, 0, 0, 0, 0 }

void diag_list_init(struct diag_list *d);
/* Frees every message and the array. */
void diag_list_release(struct diag_list *d);
void diag_list_clear(struct diag_list *d);
/* Drops every diagnostic after the first n (undoing what was added). */
void diag_list_truncate(struct diag_list *d, size_t n);

/* Appends a diagnostic; `id` must be a static string. Returns it. */
struct diag *diag_add(struct diag_list *d, enum diag_severity sev,
    const char *id, const struct span *loc, int ply, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

/* The first error, or NULL. */
const struct diag *diag_first_error(const struct diag_list *d);

/*
 * "FILE[:LINE:COL]: warning: WHAT: MESSAGE [ID]\n" for a record's first
 * error e (may be NULL) into out, control characters shown as '?': how
 * find and stats name a record they cannot read, and go on.
 */
struct strbuf;
void diag_warning_line(struct strbuf *out, const char *file,
    const struct diag *e, const char *what);

/*
 * "FILE[:LINE:COL]: SEVERITY: MESSAGE [ID]\n" for each diagnostic of d
 * of at least min into out, control characters of the message shown as
 * '?': how the commands that go on past a record say what was wrong.
 */
void diag_list_lines(struct strbuf *out, const char *file,
    const struct diag_list *d, enum diag_severity min);

#endif /* KIFU_CORE_DIAG_H */
