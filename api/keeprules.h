/*
 * keeprules.h - a converted record is judged by the rules it was judged
 * by before.
 *
 * Under --rules auto a record's rule set comes from its own text (a
 * server's T lines and % terminal, a game id, a Shogi Wars header:
 * core/venue.h), and not every format can hold that evidence: a WCSC
 * game in CSA is judged as shogi-server judges it, and the same game in
 * KIF, without the CSA lines, under the JSA rules, where the foul the
 * mated program made after mate is a move after the end. So a record is
 * read back from the text written for it, and when that text points at
 * another set, it is written again stating the set in a rules header
 * (KIF/KI2 kifu-rules, CSA $KIFU_RULES, JKF "kifu-rules"), the strongest
 * evidence there is; a format without headers (USI) gets a warning.
 */
#ifndef KIFU_API_KEEPRULES_H
#define KIFU_API_KEEPRULES_H

#include "parsers/format.h"
#include "core/venue.h"

struct keeprules {
	const char *from;		/* the format r was read as */
	const struct text *t;		/* the text it was read from, or NULL */
	const struct limits *lim;	/* for reading back; NULL: defaults */
	int no_header;			/* warn instead (--no-rules-header) */
	int index;			/* r's number in its file, from 0 */
};

/*
 * Appends r, written as `to` with options wo, to out, as `kifu convert`
 * writes it: once, and again with a rules header when the first text
 * reads back under another rule set than r's own evidence gives; where
 * no header can be written, a warning in d says which set is lost.
 * Position formats (sfen, bod) are written as they are: no game to
 * judge. Returns what the writer returns: 0, or -1 on error.
 */
int keeprules_write(const struct keeprules *k, const struct record *r,
    const struct format *to, const struct write_opts *wo,
    struct strbuf *out, struct diag_list *d);

/*
 * The rule set r is judged by under --rules auto, read as format `from`
 * from t (NULL: no lines for evidence found in comments), as printed
 * with results, and with the limit r states spelled out (a header that
 * says the set must say the limit too, which the text may not keep).
 */
void keeprules_describe(const struct record *r, const char *from,
    const struct text *t, char buf[RULESET_DESC_MAX],
    char what[VENUE_WHAT_MAX]);

#endif /* KIFU_API_KEEPRULES_H */
