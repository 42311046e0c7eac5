/*
 * reading.h - what the reader and writer tests share: reading a test file
 * whole, and printing or asserting on diagnostics.
 */
#ifndef KIFU_TESTS_READING_H
#define KIFU_TESTS_READING_H

#include <stdio.h>
#include <stdlib.h>

#include "helpers.h"
#include "core/diag.h"
#include "core/limit.h"
#include "core/record.h"
#include "core/replay.h"
#include "core/rules.h"
#include "core/text.h"
#include "parsers/format.h"

/* One reader over one test text: what every reader test opens. */
typedef enum read_status (*read_fn)(struct reader *, struct record *,
    struct diag_list *);

struct session {
	struct text t;
	struct reader rd;
	struct record r;
	struct diag_list d;
	read_fn read;
};

/* Opens src under the limits `lim` (the line limit included). */
static inline void
session_start_limited(struct session *s, read_fn read, const char *src,
    size_t n, const struct variant *v, const struct limits *lim)
{
	text_init(&s->t);
	s->t.max_line = lim->line;
	diag_list_init(&s->d);
	if (text_from_utf8(&s->t, src, n, &s->d) != 0)
		fail_msg("test text does not load");
	reader_init(&s->rd, &s->t, v);
	s->rd.lim = lim;
	record_init(&s->r, v);
	s->read = read;
}

static inline void
session_start(struct session *s, read_fn read, const char *src, size_t n,
    const struct variant *v)
{
	session_start_limited(s, read, src, n, v, &limits_default);
}

/* No limits at all: for the tests that make input huge on purpose. */
static const struct limits limits_none;

/* The next record (the record is reset first, as the commands do). */
static inline enum read_status
session_next(struct session *s)
{
	record_reset(&s->r, s->rd.v);
	return s->read(&s->rd, &s->r, &s->d);
}

static inline void
session_close(struct session *s)
{
	record_release(&s->r);
	diag_list_release(&s->d);
	text_release(&s->t);
}

static inline void
dump_diags(const struct diag_list *d)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		print_message("  %u:%u: %s: %s [%s]\n", d->v[i].loc.line,
		    d->v[i].loc.col, d->v[i].severity == DIAG_ERROR ? "error" :
		    d->v[i].severity == DIAG_WARNING ? "warning" : "note",
		    d->v[i].message, d->v[i].id);
}

/* Reads the first record of src with no limits; it must read. */
static inline void
read_unlimited(struct session *s, read_fn read, const char *src)
{
	enum read_status rs;

	session_start_limited(s, read, src, strlen(src), variant_standard(),
	    &limits_none);
	if ((rs = session_next(s)) != READ_OK) {
		dump_diags(&s->d);
		fail_msg("record does not read (status %d)", (int)rs);
	}
}

static inline void
assert_no_diags(const struct diag_list *d)
{
	if (d->n) {
		dump_diags(d);
		fail_msg("expected no diagnostics, got %zu", d->n);
	}
}

static inline void
assert_no_errors(const struct diag_list *d)
{
	if (d->errors) {
		dump_diags(d);
		fail_msg("expected no errors, got %zu", d->errors);
	}
}

static inline char *
slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long len;

	if (!f)
		return NULL;
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	len = ftell(f);
	assert_true(len >= 0);
	rewind(f);
	buf = malloc((size_t)len + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)len, f), (size_t)len);
	buf[len] = '\0';
	fclose(f);
	*n = (size_t)len;
	return buf;
}

/* Reads one USI line into r (initialised here) and replays it. */
static inline void
load_usi_variant(struct record *r, const struct variant *v, const char *line,
    int errors)
{
	struct text t;
	struct reader rd;
	struct diag_list d;
	struct replay rp;

	text_init(&t);
	diag_list_init(&d);
	record_init(r, v);
	if (text_from_utf8(&t, line, strlen(line), &d) != 0)
		fail_msg("test text does not load");
	reader_init(&rd, &t, v);
	if (usi_read(&rd, r, &d) != READ_OK) {
		dump_diags(&d);
		fail_msg("test USI '%s' does not read", line);
	}
	if (replay_record(r, &rp, &d) != errors) {
		dump_diags(&d);
		fail_msg("replaying '%s': expected %d errors", line, errors);
	}
	diag_list_release(&d);
	text_release(&t);
}

/* Fails unless d holds a diagnostic of that severity, id and place. */
static inline void
assert_diag(const struct diag_list *d, enum diag_severity sev,
    enum diag_id id, unsigned line, unsigned col)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		if (!strcmp(d->v[i].id, diag_id_name(id)) &&
		    d->v[i].loc.line == line && d->v[i].loc.col == col &&
		    d->v[i].severity == sev)
			return;
	dump_diags(d);
	fail_msg("expected %s '%s' at %u:%u", sev == DIAG_ERROR ? "error" :
	    "warning", diag_id_name(id), line, col);
}

/* Fails unless d holds the replay finding `rule` at line:col, move ply. */
static inline void
assert_finding(const struct diag_list *d, enum rule_id rule, unsigned line,
    unsigned col, int ply)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		if (!strcmp(d->v[i].id, rule_id_name(rule)) &&
		    d->v[i].loc.line == line && d->v[i].loc.col == col &&
		    d->v[i].ply == ply)
			return;
	dump_diags(d);
	fail_msg("expected '%s' at %u:%u, move %d", rule_id_name(rule), line,
	    col, ply);
}

#endif /* KIFU_TESTS_READING_H */
