/*
 * judge.c - one input in, one verdict per record out.
 */
#include <stdlib.h>
#include <string.h>

#include "api/formats.h"
#include "api/judge.h"
#include "core/adjudicate.h"
#include "core/sfen.h"
#include "core/xalloc.h"

void
judge_init(struct judge *j, const struct judge_opts *o)
{
	memset(j, 0, sizeof(*j));
	if (o)
		j->opts = *o;
	record_init(&j->r, variant_standard());
	diag_list_init(&j->d);
	text_init(&j->t);
}

void
judge_release(struct judge *j)
{
	record_release(&j->r);
	diag_list_release(&j->d);
	text_release(&j->t);
}

struct judge *
judge_new(const struct judge_opts *o)
{
	struct judge *j = xmalloc(sizeof(*j));

	judge_init(j, o);
	return j;
}

void
judge_free(struct judge *j)
{
	judge_release(j);
	free(j);
}

static int
is_reading_error(const char *id)
{
	int i;

	/* A result the rules contradict was read fine: the record is invalid. */
	for (i = 0; i < DIAG_ID_NB; i++)
		if (strcmp(id, diag_id_name(i)) == 0)
			return i != DIAG_WRONG_SIDE && i != DIAG_AMBIGUOUS &&
			    i != DIAG_RESULT_MISMATCH;
	return 0;
}

const struct diag *
verdict_error(const struct verdict *v)
{
	return diag_first_error(v->d);
}

enum verdict_status
verdict_status(const struct verdict *v)
{
	const struct diag *e = verdict_error(v);

	if (!e)
		return VERDICT_OK;
	if (!v->r || !v->rp || is_reading_error(e->id))
		return VERDICT_ERROR;
	/*
	 * Replay reports an illegal move before adjudication runs, and a
	 * claim is not compared after one: the first error tells.
	 */
	return strcmp(e->id, diag_id_name(DIAG_RESULT_MISMATCH)) == 0 ?
	    VERDICT_MISMATCH : VERDICT_ILLEGAL;
}

const char *
verdict_status_name(enum verdict_status s)
{
	static const char *const names[] = {
		"ok", "mismatch", "illegal", "error"
	};

	return names[s];
}

const struct venue *
judge_adjudicate(struct judge *j, const struct format *f,
    const struct replay *rp, struct adjudication *adj, struct venue *venue)
{
	const struct ruleset *rs = j->opts.rules ? j->opts.rules :
	    ruleset_default();
	struct ruleset chosen;

	if (j->opts.auto_rules) {
		const struct record_header *h;

		venue_detect(&j->r, f->name, &j->t, venue);
		venue_ruleset(venue, &j->r, j->opts.rules, &chosen);
		rs = &chosen;
		/* A rules header that states nothing kifu knows is no evidence. */
		if (!venue->stated &&
		    (h = record_find_header(&j->r, HDR_RULES)))
			diag_add(&j->d, DIAG_WARNING,
			    diag_id_name(DIAG_SYNTAX), &h->loc, 0,
			    "rules header '%s' is no rule set (%s, then "
			    "KEY=VALUE settings after commas): not used",
			    record_str(&j->r, h->value), ruleset_names());
	}
	adjudicate(&j->r, rp, rs, adj);
	return j->opts.auto_rules ? venue : NULL;
}

/*
 * The result under the judge's rule set; a record that disagrees gets an
 * error at the first move after the end of the game, else at its
 * terminal, else (a summary line alone) with no place. Not after a foul
 * replay has reported: the game ended there, the record is invalid
 * already, and what it claims afterwards adds nothing.
 */
static void
adjudicate_record(struct judge *j, const struct format *f,
    const struct replay *rp, struct adjudication *adj, struct venue *venue,
    struct verdict *v)
{
	const struct record_node *n;

	v->venue = judge_adjudicate(j, f, rp, adj, venue);
	v->adj = adj;
	v->result = adj->result;
	v->has_recorded = adj->has_claim;
	v->recorded = adj->claim;
	v->terminal = adj->raw;
	v->result_checked = !j->opts.no_result_check;
	if (!v->result_checked || adj->consistent ||
	    (rp->illegal >= 0 && !rp->excused))
		return;
	n = adj->node >= 0 ? &j->r.nodes[adj->node] : NULL;
	diag_add(&j->d, DIAG_ERROR, diag_id_name(DIAG_RESULT_MISMATCH),
	    n ? &n->loc : NULL, n ? n->ply : adj->result.ply, "%s",
	    adj->message);
}

enum judge_open_status
judge_open(struct judge *j, struct judge_input *in, const char *path_hint,
    struct strbuf *data, unsigned flags)
{
	const struct limits *lim = j->opts.limits ? j->opts.limits :
	    &limits_default;
	const struct variant *vr = j->opts.variant ? j->opts.variant :
	    variant_standard();
	const struct format *f = NULL;
	int score = 0;

	memset(in, 0, sizeof(*in));
	diag_list_clear(&j->d);
	j->t.max_line = lim->line;
	if (text_decode_strbuf(&j->t, data, &j->d) < 0) {
		if (flags & JUDGE_PROBE) {
			diag_list_clear(&j->d);
			return JUDGE_SKIPPED;
		}
		return JUDGE_UNREADABLE;
	}
	in->decoded = 1;
	/* --from says how to read a record, not which files are records. */
	if (flags & JUDGE_PROBE) {
		f = formats_detect(&j->t, path_hint, &score);
		if (score < FORMATS_CERTAIN)
			return JUDGE_SKIPPED;
	}
	if (j->opts.from)
		f = j->opts.from;
	else if (!f)
		f = formats_detect(&j->t, path_hint, NULL);
	if (!f) {
		diag_add(&j->d, DIAG_ERROR, diag_id_name(DIAG_UNKNOWN_FORMAT),
		    NULL, 0, "not a record kifu can read");
		return JUDGE_UNREADABLE;
	}
	in->f = f;
	reader_init(&in->rd, &j->t, vr);
	in->rd.lim = lim;
	return JUDGE_READY;
}

static enum read_status
read_record(struct judge *j, struct judge_input *in)
{
	enum read_status st;

	diag_list_clear(&j->d);
	record_reset(&j->r, in->rd.v);
	st = in->f->read(&in->rd, &j->r, &j->d);
	if ((st == READ_ERROR || st == READ_FATAL) && !j->d.errors)
		diag_add(&j->d, DIAG_ERROR, diag_id_name(DIAG_SYNTAX), NULL, 0,
		    "record %d cannot be read", in->index + 1);
	return st;
}

enum read_status
judge_next(struct judge *j, struct judge_input *in, int headers_only)
{
	enum read_status st;

	in->before = in->rd;
	in->rd.headers_only = headers_only;
	st = read_record(j, in);
	in->rd.headers_only = 0;
	if (st != READ_EOF)
		in->index++;
	return st;
}

enum read_status
judge_reread(struct judge *j, struct judge_input *in)
{
	in->rd = in->before;
	return read_record(j, in);
}

int
judge_bytes(struct judge *j, const char *file, const char *path_hint,
    struct strbuf *data, unsigned flags, verdict_fn fn, void *ctx)
{
	struct judge_input in;
	struct verdict v;

	memset(&v, 0, sizeof(v));
	v.file = file;
	v.d = &j->d;
	v.terminal = "";
	switch (judge_open(j, &in, path_hint, data, flags)) {
	case JUDGE_SKIPPED:
		/* No verdict, only the count. */
		diag_list_clear(&j->d);
		v.skipped = 1;
		fn(ctx, &v);
		return 0;
	case JUDGE_UNREADABLE:
		/* Undecodable, or decoded and of no format kifu knows. */
		if (in.decoded)
			v.encoding = j->t.encoding;
		else if (j->opts.from)
			v.format = j->opts.from->name;
		fn(ctx, &v);
		return 1;
	case JUDGE_READY:
		break;
	}
	v.encoding = j->t.encoding;
	v.format = in.f->name;
	for (;;) {
		struct replay rp;
		struct adjudication adj;
		struct venue venue;
		enum read_status st = judge_next(j, &in, 0);

		if (st == READ_EOF)
			break;
		v.index = in.index - 1;
		v.r = &j->r;
		v.rp = NULL;
		v.adj = NULL;
		v.venue = NULL;
		v.has_recorded = 0;
		v.terminal = "";
		if (st == READ_OK) {
			replay_record(&j->r, &rp, &j->d);
			v.rp = &rp;
			adjudicate_record(j, in.f, &rp, &adj, &venue, &v);
		}
		fn(ctx, &v);
		if (st == READ_FATAL)
			break;
	}
	if (in.index == 0) {
		diag_list_clear(&j->d);
		diag_add(&j->d, DIAG_ERROR, diag_id_name(DIAG_EMPTY), NULL, 0,
		    "no record in the file");
		v.index = 0;
		v.r = NULL;
		v.rp = NULL;
		fn(ctx, &v);
		return 1;
	}
	return in.index;
}

void
verdict_diags(struct strbuf *out, const struct verdict *v,
    enum diag_severity min, enum diag_severity max)
{
	size_t i;

	for (i = 0; i < v->d->n; i++) {
		const struct diag *g = &v->d->v[i];

		if (g->severity < min || g->severity > max)
			continue;
		strbuf_add_printable(out, v->file);
		if (g->loc.line)
			strbuf_addf(out, ":%u:%u", g->loc.line, g->loc.col);
		strbuf_addf(out, ": %s: ", diag_severity_name(g->severity));
		strbuf_add_printable(out, g->message);
		strbuf_addf(out, " [%s]\n", g->id);
	}
}

static void
json_str(struct strbuf *sb, const char *key, const char *s)
{
	strbuf_addf(sb, "\"%s\": \"", key);
	strbuf_add_json_string(sb, s, strlen(s));
	strbuf_adds(sb, "\"");
}

static void
json_diag(struct strbuf *sb, const struct diag *g)
{
	strbuf_addf(sb, "{\"line\": %u, \"col\": %u, \"byte\": %u, "
	    "\"ply\": %d, ", g->loc.line, g->loc.col, g->loc.byte, g->ply);
	json_str(sb, "rule", g->id);
	strbuf_adds(sb, ", ");
	json_str(sb, "message", g->message);
	strbuf_adds(sb, "}");
}

static void
json_result(struct strbuf *sb, const struct game_result *res, int ply)
{
	json_str(sb, "winner", winner_name(res->winner));
	strbuf_adds(sb, ", ");
	json_str(sb, "reason", reason_name(res->reason));
	if (ply)
		strbuf_addf(sb, ", \"ply\": %d", res->ply);
}

void
verdict_rules_text(struct strbuf *out, const struct verdict *v)
{
	if (!v->adj)
		return;
	strbuf_adds(out, v->adj->rules);
	if (!v->venue)
		return;
	strbuf_adds(out, " (auto");
	if (v->venue->what[0]) {
		strbuf_addf(out, ": %s", v->venue->what);
		if (v->venue->line)
			strbuf_addf(out, ", line %u", v->venue->line);
	}
	strbuf_adds(out, ")");
}

/*
 * The fields the rule set adds: "rules", "rules_from", "rules_evidence",
 * "consistent", "points".
 */
static void
json_adjudication(struct strbuf *sb, const struct verdict *v)
{
	const struct adjudication *a = v->adj;

	strbuf_adds(sb, ", ");
	json_str(sb, "rules", a->rules);
	strbuf_addf(sb, ", \"rules_from\": \"%s\", \"rules_evidence\": ",
	    v->venue ? "auto" : "option");
	if (v->venue && v->venue->what[0]) {
		strbuf_adds(sb, "{");
		json_str(sb, "what", v->venue->what);
		if (v->venue->line)
			strbuf_addf(sb, ", \"line\": %u", v->venue->line);
		else
			strbuf_adds(sb, ", \"line\": null");
		strbuf_adds(sb, "}");
	} else {
		strbuf_adds(sb, "null");
	}
	if (v->result_checked)
		strbuf_addf(sb, ", \"consistent\": %s", a->consistent ?
		    "true" : "false");
	if (a->has_points)
		strbuf_addf(sb, ", \"points\": {\"black\": %d, \"white\": %d}",
		    a->points[BLACK], a->points[WHITE]);
}

void
verdict_json(struct strbuf *sb, const struct verdict *v)
{
	const struct diag *err = verdict_error(v);
	size_t i;
	int nw = 0;

	strbuf_adds(sb, "{");
	json_str(sb, "file", v->file);
	strbuf_addf(sb, ", \"index\": %d, ", v->index);
	json_str(sb, "format", v->format ? v->format : "");
	strbuf_adds(sb, ", ");
	json_str(sb, "encoding", v->encoding ? v->encoding : "");
	strbuf_adds(sb, ", ");
	json_str(sb, "status", verdict_status_name(verdict_status(v)));
	if (v->r && v->rp) {
		char sfen[SFEN_MAX];

		sfen_write(&v->rp->final, sfen);
		strbuf_addf(sb, ", \"moves\": %d, ", v->rp->moves);
		json_str(sb, "final_sfen", sfen);
		strbuf_adds(sb, ", \"result\": {");
		json_result(sb, &v->result, 1);
		strbuf_adds(sb, "}, \"recorded\": {");
		json_str(sb, "terminal", v->terminal);
		if (v->has_recorded) {
			strbuf_adds(sb, ", ");
			json_result(sb, &v->recorded, 0);
		}
		strbuf_adds(sb, "}");
		if (v->adj)
			json_adjudication(sb, v);
	}
	/* Only when set, as "points": a display hint few records have. */
	if (v->r && v->r->flipped)
		strbuf_adds(sb, ", \"flipped\": true");
	if (err) {
		strbuf_adds(sb, ", \"error\": ");
		json_diag(sb, err);
	}
	for (i = 0; i < v->d->n; i++) {
		if (v->d->v[i].severity != DIAG_WARNING)
			continue;
		strbuf_adds(sb, nw++ ? ", " : ", \"warnings\": [");
		json_diag(sb, &v->d->v[i]);
	}
	if (nw)
		strbuf_adds(sb, "]");
	strbuf_adds(sb, "}\n");
}
