/*
 * keeprules.c - a converted record keeps its rule set (keeprules.h).
 */
#include <stdio.h>
#include <string.h>

#include "api/keeprules.h"
#include "core/adjudicate.h"

void
keeprules_describe(const struct record *r, const char *from,
    const struct text *t, char buf[RULESET_DESC_MAX],
    char what[VENUE_WHAT_MAX])
{
	struct venue v;
	struct ruleset rs;
	int stated = adjudicate_stated_limit(r);
	char n[16];

	venue_detect(r, from, t, &v);
	venue_ruleset(&v, r, NULL, &rs);
	/*
	 * The limit the record states rules unless the set overrides it;
	 * stated in a header it is the set's own, which the JSA check
	 * extension would go with, and a stated limit never has.
	 */
	if (stated >= 0 && !(rs.overridden & (1u << RS_MAX_MOVES))) {
		snprintf(n, sizeof(n), "%d", stated);
		(void)ruleset_set(&rs, "max-moves", n);
		if (rs.check_extension)
			(void)ruleset_set(&rs, "check-extension", "no");
	}
	ruleset_describe(&rs, buf, RULESET_DESC_MAX);
	snprintf(what, VENUE_WHAT_MAX, "%s", *v.what ? v.what : "no evidence");
}

/*
 * The set the n bytes of UTF-8 text (one record in format f) read back
 * under, into buf; -1 when they do not read back as a record.
 */
static int
read_back(const struct keeprules *k, const struct record *r,
    const struct format *f, const char *s, size_t n,
    char buf[RULESET_DESC_MAX])
{
	struct diag_list d = DIAG_LIST_INIT;
	char what[VENUE_WHAT_MAX];
	struct record back;
	struct reader rd;
	struct text t;
	int rc = -1;

	text_init(&t);
	record_init(&back, r->start.v);
	if (text_from_utf8(&t, s, n, &d) == 0) {
		reader_init(&rd, &t, r->start.v);
		if (k->lim)
			rd.lim = k->lim;
		if (f->read(&rd, &back, &d) == READ_OK) {
			keeprules_describe(&back, f->name, &t, buf, what);
			rc = 0;
		}
	}
	record_release(&back);
	text_release(&t);
	diag_list_release(&d);
	return rc;
}

int
keeprules_write(const struct keeprules *k, const struct record *r,
    const struct format *to, const struct write_opts *wo,
    struct strbuf *out, struct diag_list *d)
{
	char want[RULESET_DESC_MAX], got[RULESET_DESC_MAX];
	char what[VENUE_WHAT_MAX];
	struct write_opts stated = *wo;
	size_t at = out->len, nd = d->n;
	int position = to->write_at || !to->read;

	/*
	 * A rules header the target needs not, since it holds the evidence
	 * again (a WCSC game back in CSA), is left out: the header is there
	 * only while the evidence is not, and a round trip gives the
	 * original bytes back.
	 */
	if (!position && !k->no_header && record_find_header(r, HDR_RULES))
		stated.rules = "";
	if (to->write(r, &stated, out, d) < 0)
		return -1;
	if (position ||
	    read_back(k, r, to, out->buf + at, out->len - at, got) < 0)
		return 0;
	keeprules_describe(r, k->from, k->t, want, what);
	if (!strcmp(want, got))
		return 0;
	if (k->no_header || !(to->caps & CAP_HEADERS)) {
		diag_add(d, DIAG_WARNING, diag_id_name(DIAG_LIMIT), NULL, 0,
		    "%s %s what judges record %d by %s (%s): it reads back "
		    "under %s", to->name, k->no_header ? "gets no rules "
		    "header (none asked for) to hold" : "cannot hold",
		    k->index + 1, want, what, got);
		return 0;
	}
	/* Again, stating the set: the writer's findings once, not twice. */
	out->len = at;
	if (out->alloc)
		out->buf[at] = '\0';
	diag_list_truncate(d, nd);
	stated.rules = want;
	return to->write(r, &stated, out, d);
}
