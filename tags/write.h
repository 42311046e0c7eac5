/*
 * write.h - putting kifu's names into a record file as headers, keeping
 * every other byte of it (`kifu tag --write`).
 *
 * A file's records are read (their line numbers say where their headers
 * are); for each, tag_edits_add plans which header lines go in after
 * its last header line (KIF and KI2: "先手の戦型：四間飛車"; CSA: the
 * game in its own header "$OPENING:四間飛車", and the sides, which CSA
 * has no header for, as comment lines of the KIF text,
 * "'先手の戦型：四間飛車", which CSA readers pass over and kifu reads
 * back), and with replace which of its own name headers go. Then
 * tag_edits_apply makes the new bytes from the file's own: the lines
 * are cut where the text's lines are (LF, CRLF or CR, as core/text.c
 * cuts them), the new lines take the line ends of the line they follow
 * and the file's encoding, and nothing else changes.
 */
#ifndef KIFU_TAGS_WRITE_H
#define KIFU_TAGS_WRITE_H

#include "parsers/format.h"
#include "tags/report.h"

/* One planned change: a line dropped, or text put before a line. */
struct tag_edit {
	uint32_t line;		/* 1-based line of the file */
	int drop;		/* 1: the line goes; 0: text goes before it */
	char *text;		/* UTF-8 lines, each ended by '\n' */
};

struct tag_edits {
	struct tag_edit *v;
	size_t n, alloc;
	int added, kept, replaced;	/* header lines, for the summary */
};

/* Whether files of the format (its name) can get the headers. */
int tag_write_format(const char *format);

void tag_edits_init(struct tag_edits *e);
void tag_edits_release(struct tag_edits *e);
void tag_edits_clear(struct tag_edits *e);

/*
 * Plans the headers of record r (read from text t as format `format`,
 * named res). A header the record has already (either spelling, 戦型 or
 * 戦法) is kept unless replace, which drops the record's own and puts
 * kifu's where the first of them was; a header kifu has no name for is
 * never written, and with replace the record's own stays. Returns the
 * number of header lines the record gets.
 */
int tag_edits_add(struct tag_edits *e, const struct tagdefs *d,
    const struct record *r, const struct text *t, const char *format,
    const struct tag_result *res, int replace);

/*
 * The encoding new lines are written in: the file's (t->encoding) when
 * it holds more than ASCII; else the one it declares on its first lines
 * ("#KIF ... encoding=", "'CSA encoding=", "'encoding="); else what the
 * format's files are (.kifu and .ki2u UTF-8; KIF, KI2 and CSA without a
 * declaration Shift_JIS, as CP932).
 */
const char *tag_write_encoding(const struct text *t, const char *format,
    const char *name);

/*
 * The file's bytes raw[0..n) with the edits made, into out, the new
 * text in `encoding`. Returns 0, or -1 with an error in dl (a name the
 * encoding cannot hold; edits that do not fit the file).
 */
int tag_edits_apply(const struct tag_edits *e, const char *raw, size_t n,
    const char *encoding, struct strbuf *out, struct diag_list *dl);

/*
 * Reads the new bytes back as format f and checks that they hold the
 * same records, each with as many moves as before (moves[i] for record
 * i, nrec of them). Returns 0, or -1 with an error in dl: then nothing
 * may be written.
 */
int tag_edits_check(const char *bytes, size_t n, const struct format *f,
    const struct variant *v, const struct limits *lim, const int *moves,
    size_t nrec, struct diag_list *dl);

#endif /* KIFU_TAGS_WRITE_H */
