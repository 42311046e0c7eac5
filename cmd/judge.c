/*
 * judge.c - one input in, one verdict per record out.
 */
#include <string.h>

#include "formats.h"
#include "judge.h"
#include "core/adjudicate.h"
#include "core/sfen.h"

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

static int
is_reading_error(const char *id)
{
	int i;

	for (i = 0; i < DIAG_ID_NB; i++)
		if (strcmp(id, diag_id_name(i)) == 0)
			return i != DIAG_WRONG_SIDE && i != DIAG_AMBIGUOUS;
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
	return !v->r || !v->rp || is_reading_error(e->id) ? VERDICT_ERROR :
	    VERDICT_ILLEGAL;
}

const char *
verdict_status_name(enum verdict_status s)
{
	return s == VERDICT_OK ? "ok" : s == VERDICT_ILLEGAL ? "illegal" :
	    "error";
}

static void
report_empty(struct judge *j, struct verdict *v, verdict_fn fn, void *ctx,
    enum diag_id id, const char *msg)
{
	diag_add(&j->d, DIAG_ERROR, diag_id_name(id), NULL, 0, "%s", msg);
	v->r = NULL;
	v->rp = NULL;
	fn(ctx, v);
}

int
judge_bytes(struct judge *j, const char *file, const char *path_hint,
    struct strbuf *data, verdict_fn fn, void *ctx)
{
	const struct format *f;
	struct verdict v;
	struct reader rd;
	int index = 0;

	memset(&v, 0, sizeof(v));
	v.file = file;
	v.d = &j->d;
	v.terminal = "";
	diag_list_clear(&j->d);
	if (text_decode_strbuf(&j->t, data, &j->d) < 0) {
		v.format = j->opts.from ? j->opts.from->name : NULL;
		fn(ctx, &v);
		return 1;
	}
	v.encoding = j->t.encoding;
	f = j->opts.from ? j->opts.from : formats_detect(&j->t, path_hint);
	if (!f) {
		report_empty(j, &v, fn, ctx, DIAG_UNKNOWN_FORMAT,
		    "not a record kifu can read");
		return 1;
	}
	v.format = f->name;
	reader_init(&rd, &j->t, variant_standard());
	for (;;) {
		struct replay rp;
		enum read_status st;

		diag_list_clear(&j->d);
		record_reset(&j->r, variant_standard());
		st = f->read(&rd, &j->r, &j->d);
		if (st == READ_EOF)
			break;
		v.index = index;
		v.r = &j->r;
		v.rp = NULL;
		v.has_recorded = 0;
		v.terminal = "";
		if (st == READ_OK) {
			replay_record(&j->r, &rp, &j->d);
			v.rp = &rp;
			adjudicate_basic(&j->r, &rp, &v.result);
			v.has_recorded = adjudicate_recorded(&j->r, &rp,
			    &v.recorded, &v.terminal);
		} else if (!j->d.errors) {
			diag_add(&j->d, DIAG_ERROR, diag_id_name(DIAG_SYNTAX),
			    NULL, 0, "record %d cannot be read", index + 1);
		}
		fn(ctx, &v);
		index++;
		if (st == READ_FATAL)
			break;
	}
	if (index == 0) {
		diag_list_clear(&j->d);
		v.index = 0;
		report_empty(j, &v, fn, ctx, DIAG_EMPTY, "no record in the file");
		return 1;
	}
	return index;
}

static void
add_clean(struct strbuf *sb, const char *s)
{
	for (; *s; s++)
		strbuf_addc(sb, (unsigned char)*s < 0x20 || *s == 0x7f ?
		    '?' : *s);
}

void
verdict_diags(struct strbuf *out, const struct verdict *v,
    enum diag_severity min, enum diag_severity max)
{
	static const char *const sev[] = { "note", "warning", "error" };
	size_t i;

	for (i = 0; i < v->d->n; i++) {
		const struct diag *g = &v->d->v[i];

		if (g->severity < min || g->severity > max)
			continue;
		add_clean(out, v->file);
		if (g->loc.line)
			strbuf_addf(out, ":%u:%u", g->loc.line, g->loc.col);
		strbuf_addf(out, ": %s: ", sev[g->severity]);
		add_clean(out, g->message);
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
	}
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
