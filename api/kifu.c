/*
 * kifu.c - the public library (include/kifu/kifu.h) over the internal
 * modules: reading and judging through api/judge.c, as `kifu validate`
 * does, writing through the format table, export through the row table.
 *
 * A kifu_record owns what judge_bytes() lent its callback: the record
 * itself (taken over, the judge given a fresh one), copies of the replay
 * and the adjudication, its findings, and the validate JSON line.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kifu/kifu.h"

#include "api/formats.h"
#include "api/input.h"
#include "api/judge.h"
#include "api/keeprules.h"
#include "api/libkifu.h"
#include "api/trainformats.h"
#include "core/core.h"
#include "core/encode.h"
#include "core/rules.h"
#include "core/sfen.h"
#include "core/usi.h"
#include "core/xalloc.h"
#include "engine/analyze.h"
#include "engine/usi.h"
#include "parsers/kakinoki.h"
#include "api/mateio.h"
#include "api/problems.h"
#include "book/bookagg.h"
#include "mate/mate.h"

/* The visibility a public function needs in libkifu.so. */
#define API __attribute__((visibility("default")))

struct kifu_error {
	char *message;		/* file:line:col: severity: text [id] */
	char *text;
	char *file;
	const char *id;		/* static */
	const char *severity;	/* static */
	unsigned line, col;
	int ply;
};

struct kifu_options {
	struct api_opts x;	/* pictures, books, the walk (api/options.c) */
	struct judge_opts jo;
	struct ruleset rules;	/* the named set, or the overrides (auto) */
	struct limits lim;
	struct write_opts wo;	/* encoding NULL: the format's */
	int ply;		/* -1: none */
	int strict;
	int no_rules_header;	/* "rules-header" "no" */
	struct train_opts to;
	struct {
		enum mate_rules rules;
		struct mate_limits lim;
		size_t memory;
	} mate;
};

struct kifu_record {
	struct record r;
	int readable;		/* read (and so replayed and judged) */
	int index;
	const char *format;	/* read as; static */
	struct replay rp;
	struct adjudication adj;
	struct venue venue;
	int has_venue, result_checked, has_recorded;
	const char *status;
	char start_sfen[SFEN_MAX], final_sfen[SFEN_MAX];
	struct kifu_error *findings;
	size_t nfindings;
	const struct kifu_error *error;
	char *json;
	const struct kifu_options *o;	/* the file's, for writing */
};

struct kifu_file {
	char *name;
	const char *format, *encoding;
	struct kifu_record **records;
	size_t n, alloc;
	struct kifu_options o;	/* a copy: records outlive the caller's */
	struct judge *j;	/* while reading */
	struct kifu_error *fail;	/* an input with no record: why */
};


API const char *
kifu_version(void)
{
	return KIFU_VERSION;
}

API void
kifu_free(void *p)
{
	free(p);
}

/* --- errors ----------------------------------------------------------- */

static void
error_fill(struct kifu_error *e, const char *file, const struct diag *d)
{
	struct strbuf sb = STRBUF_INIT;

	e->file = xstrndup(file, strlen(file));
	e->text = xstrndup(d->message, strlen(d->message));
	e->id = d->id;
	e->severity = diag_severity_name(d->severity);
	e->line = d->loc.line;
	e->col = d->loc.col;
	e->ply = d->ply;
	strbuf_adds(&sb, file);
	if (e->line)
		strbuf_addf(&sb, ":%u:%u", e->line, e->col);
	strbuf_addf(&sb, ": %s: %s [%s]", e->severity, e->text, e->id);
	e->message = strbuf_detach(&sb, NULL);
}

static void
error_clear(struct kifu_error *e)
{
	free(e->message);
	free(e->text);
	free(e->file);
}

static struct kifu_error *
error_from_diag(const char *file, const struct diag *d)
{
	struct kifu_error *e = xcalloc(1, sizeof(*e));

	error_fill(e, file, d);
	return e;
}

/* An error of the API's own (a bad argument, an I/O error), id static. */
static int
vfail(kifu_error **err, int status, const char *file, const char *id,
    const char *fmt, va_list ap)
{
	struct diag d;
	struct strbuf sb = STRBUF_INIT;

	if (!err)
		return status;
	strbuf_vaddf(&sb, fmt, ap);
	memset(&d, 0, sizeof(d));
	d.severity = DIAG_ERROR;
	d.id = id;
	d.message = sb.buf;
	*err = error_from_diag(file ? file : "kifu", &d);
	strbuf_release(&sb);
	return status;
}

/* For this file and those beside it (api/libkifu.h). */
int
api_fail(kifu_error **err, int status, const char *file, const char *id,
    const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	status = vfail(err, status, file, id, fmt, ap);
	va_end(ap);
	return status;
}

kifu_error *
api_error_from_diag(const char *file, const struct diag *d)
{
	return error_from_diag(file, d);
}

int
api_read_status(int rc, const char *path, const struct diag_list *d,
    kifu_error **err)
{
	const char *shown = strcmp(path, "-") ? path : "<stdin>";

	if (rc < 0)
		return api_fail(err, KIFU_ERR_IO, shown, "io", "cannot read "
		    "'%s': %s", shown, strerror(errno));
	if (rc > 0) {
		if (err)
			*err = error_from_diag(shown, diag_first_error(d));
		return KIFU_ERR_READ;
	}
	return KIFU_OK;
}


API const char *kifu_error_message(const kifu_error *e) { return e->message; }
API const char *kifu_error_text(const kifu_error *e) { return e->text; }
API const char *kifu_error_id(const kifu_error *e) { return e->id; }
API const char *kifu_error_severity(const kifu_error *e) { return e->severity; }
API const char *kifu_error_file(const kifu_error *e) { return e->file; }
API unsigned kifu_error_line(const kifu_error *e) { return e->line; }
API unsigned kifu_error_column(const kifu_error *e) { return e->col; }
API int kifu_error_ply(const kifu_error *e) { return e->ply; }

API void
kifu_error_free(kifu_error *e)
{
	if (!e)
		return;
	error_clear(e);
	free(e);
}

/* --- options ---------------------------------------------------------- */

static void
options_default(struct kifu_options *o)
{
	memset(o, 0, sizeof(*o));
	api_opts_init(&o->x);
	o->lim = limits_default;
	o->rules = *ruleset_default();
	o->rules.name = "auto";
	o->jo.auto_rules = 1;
	o->ply = -1;
	o->mate.rules = MATE_GAME;
	o->mate.memory = (size_t)256 << 20;
}

/* What the judge is to use: pointers into o itself, set again on copy. */
static void
options_link(struct kifu_options *o)
{
	o->jo.rules = &o->rules;
	o->jo.limits = &o->lim;
}

API kifu_options *
kifu_options_new(void)
{
	struct kifu_options *o = xmalloc(sizeof(*o));

	options_default(o);
	options_link(o);
	return o;
}

API void
kifu_options_free(kifu_options *o)
{
	free(o);
}

static int
yes_no(const char *v)
{
	return !strcmp(v, "yes") ? 1 : !strcmp(v, "no") ? 0 : -1;
}

/* A non-negative number, or -1. */
static long long
number(const char *v)
{
	char *end;
	long long n;

	if (!*v || *v == '-' || *v == '+')
		return -1;
	errno = 0;
	n = strtoll(v, &end, 10);
	return *end || errno ? -1 : n;
}

static int
set_rules(struct kifu_options *o, const char *v)
{
	const struct ruleset *base;
	unsigned keep = o->rules.overridden;
	struct ruleset ov = o->rules;

	if (!strcmp(v, "auto")) {
		o->jo.auto_rules = 1;
		o->rules.name = "auto";
		return 0;
	}
	if (!(base = ruleset_by_name(v)))
		return -1;
	/* Overrides set before the set stay, as on the command line. */
	o->rules = *base;
	o->rules.overridden = 0;
	ov.overridden = keep;
	ruleset_merge(&o->rules, &ov);
	o->jo.auto_rules = 0;
	return 0;
}

API int
kifu_options_set(kifu_options *o, const char *key, const char *value,
    kifu_error **err)
{
	long long n;
	int b;
	char spec[96];

	api_ok(err);
	if (!key || !value)
		return api_fail(err, KIFU_ERR_ARG, NULL, "usage",
		    "an option needs a key and a value");
	if ((b = api_opts_set(&o->x, key, value)) != 0) {
		if (b < 0)
			goto bad;
		return KIFU_OK;
	}
	if (!strcmp(key, "from")) {
		if (!(o->jo.from = formats_by_name(value)) || !o->jo.from->read)
			goto bad;
	} else if (!strcmp(key, "variant")) {
		if (!(o->jo.variant = variant_by_name(value)))
			goto bad;
	} else if (!strncmp(key, "limit.", 6)) {
		snprintf(spec, sizeof(spec), "%s=%s", key + 6, value);
		if (limits_parse(&o->lim, spec) < 0)
			goto bad;
	} else if (!strcmp(key, "rules")) {
		if (set_rules(o, value) < 0)
			goto bad;
	} else if (!strncmp(key, "rule.", 5)) {
		if (ruleset_set(&o->rules, key + 5, value) < 0)
			goto bad;
	} else if (!strcmp(key, "result-check")) {
		if ((b = yes_no(value)) < 0)
			goto bad;
		o->jo.no_result_check = !b;
	} else if (!strcmp(key, "encoding")) {
		if (!(o->wo.encoding = encode_name(value)))
			goto bad;
	} else if (!strcmp(key, "csa-version")) {
		if (strcmp(value, "2") && strcmp(value, "3"))
			goto bad;
		o->wo.csa_version = value[0] - '0';
	} else if (!strcmp(key, "ply")) {
		if ((n = number(value)) < 0 || n > 100000000)
			goto bad;
		o->ply = (int)n;
		o->to.ply = (int)n;
	} else if (!strcmp(key, "strict")) {
		if ((o->strict = yes_no(value)) < 0)
			goto bad;
	} else if (!strcmp(key, "rules-header")) {
		if ((b = yes_no(value)) < 0)
			goto bad;
		o->no_rules_header = !b;
	} else if (!strcmp(key, "skip-plies")) {
		if ((n = number(value)) < 0 || n > 100000000)
			goto bad;
		o->to.skip_plies = (int)n;
	} else if (!strcmp(key, "stop-at-eval")) {
		if ((n = number(value)) < 0)
			goto bad;
		o->to.stop_at_eval = n;
	} else if (!strcmp(key, "require-eval")) {
		if ((o->to.require_eval = yes_no(value)) < 0)
			goto bad;
	} else if (!strcmp(key, "mate.rules")) {
		if (mateio_rules_by_name(value, &o->mate.rules) < 0)
			goto bad;
	} else if (!strcmp(key, "mate.nodes")) {
		if ((n = number(value)) < 0)
			goto bad;
		o->mate.lim.nodes = (uint64_t)n;
	} else if (!strcmp(key, "mate.time")) {
		char *end;
		double t;

		errno = 0;
		t = strtod(value, &end);
		if (!*value || *end || errno || !(t >= 0) || t > 1e9)
			goto bad;
		o->mate.lim.seconds = t;
	} else if (!strcmp(key, "mate.memory")) {
		size_t m;

		if (bookagg_parse_size(value, &m) < 0 || m < ((size_t)1 << 20))
			goto bad;
		o->mate.memory = m;
	} else {
		return api_fail(err, KIFU_ERR_ARG, NULL, "usage",
		    "unknown option '%s'", key);
	}
	options_link(o);
	return KIFU_OK;
bad:
	return api_fail(err, KIFU_ERR_ARG, NULL, "usage",
	    "option '%s' does not take '%s'", key, value);
}

/* --- reading ---------------------------------------------------------- */

static void
record_free(struct kifu_record *k)
{
	size_t i;

	if (!k)
		return;
	record_release(&k->r);
	for (i = 0; i < k->nfindings; i++)
		error_clear(&k->findings[i]);
	free(k->findings);
	free(k->json);
	free(k);
}

static void
keep_verdict(void *ctx, const struct verdict *v)
{
	struct kifu_file *f = ctx;
	struct kifu_record *k;
	struct strbuf sb = STRBUF_INIT;
	const struct diag *e = verdict_error(v);
	size_t i;

	if (!v->r) {
		/* No record in the input: the file fails, with this. */
		if (!f->fail && e)
			f->fail = error_from_diag(v->file, e);
		return;
	}
	k = xcalloc(1, sizeof(*k));
	f->format = v->format;
	f->encoding = v->encoding;
	k->index = v->index;
	k->format = v->format;
	k->status = verdict_status_name(verdict_status(v));
	k->o = &f->o;
	verdict_json(&sb, v);
	if (sb.len && sb.buf[sb.len - 1] == '\n')
		sb.buf[--sb.len] = '\0';
	k->json = strbuf_detach(&sb, NULL);
	k->findings = xreallocarray(NULL, v->d->n + 1, sizeof(*k->findings));
	for (i = 0; i < v->d->n; i++) {
		error_fill(&k->findings[i], v->file, &v->d->v[i]);
		if (!k->error && v->d->v[i].severity == DIAG_ERROR)
			k->error = &k->findings[i];
	}
	k->nfindings = v->d->n;
	sfen_write(&v->r->start, k->start_sfen);
	if (v->rp) {
		k->readable = 1;
		k->rp = *v->rp;
		sfen_write(&v->rp->final, k->final_sfen);
	}
	if (v->adj) {
		k->adj = *v->adj;
		k->result_checked = v->result_checked;
		k->has_recorded = v->has_recorded;
	}
	if (v->venue) {
		k->venue = *v->venue;
		k->has_venue = 1;
	}
	/*
	 * Take the record over: the judge reads the next one into a fresh
	 * record. The adjudication's raw terminal points into the record's
	 * pool, which moves with it.
	 */
	k->r = f->j->r;
	record_init(&f->j->r, v->r->v);
	ALLOC_GROW(f->records, f->n + 1, f->alloc);
	f->records[f->n++] = k;
}

static int
read_data(struct strbuf *data, const char *name, const kifu_options *o,
    kifu_file **out, kifu_error **err)
{
	struct kifu_file *f = xcalloc(1, sizeof(*f));
	struct judge j;

	core_init();
	if (o)
		f->o = *o;
	else
		options_default(&f->o);
	options_link(&f->o);
	f->name = xstrndup(name, strlen(name));
	judge_init(&j, &f->o.jo);
	f->j = &j;
	judge_bytes(&j, f->name, f->name, data, 0, keep_verdict, f);
	f->j = NULL;
	judge_release(&j);
	if (!f->n) {
		kifu_error *e = f->fail;

		f->fail = NULL;
		kifu_file_free(f);
		if (err)
			*err = e;
		else
			kifu_error_free(e);
		return KIFU_ERR_READ;
	}
	*out = f;
	return KIFU_OK;
}

API int
kifu_read_file(const char *path, const kifu_options *o, kifu_file **out,
    kifu_error **err)
{
	struct strbuf data = STRBUF_INIT;
	int rc;

	*out = NULL;
	api_ok(err);
	if (!path)
		return api_fail(err, KIFU_ERR_ARG, NULL, "usage", "no path");
	if (input_read(path, &data) < 0) {
		rc = api_fail(err, KIFU_ERR_IO, input_display_name(path), "io",
		    "cannot read '%s': %s", input_display_name(path),
		    strerror(errno));
		strbuf_release(&data);
		return rc;
	}
	rc = read_data(&data, input_display_name(path), o, out, err);
	strbuf_release(&data);
	return rc;
}

API int
kifu_read_buffer(const void *bytes, size_t len, const char *name,
    const kifu_options *o, kifu_file **out, kifu_error **err)
{
	struct strbuf data = STRBUF_INIT;
	int rc;

	*out = NULL;
	api_ok(err);
	if (!bytes && len)
		return api_fail(err, KIFU_ERR_ARG, NULL, "usage", "no data");
	strbuf_add(&data, bytes ? bytes : "", len);
	rc = read_data(&data, name ? name : "<buffer>", o, out, err);
	strbuf_release(&data);
	return rc;
}

API void
kifu_file_free(kifu_file *f)
{
	size_t i;

	if (!f)
		return;
	for (i = 0; i < f->n; i++)
		record_free(f->records[i]);
	free(f->records);
	free(f->name);
	kifu_error_free(f->fail);
	free(f);
}

API const char *kifu_file_name(const kifu_file *f) { return f->name; }
API const char *kifu_file_format(const kifu_file *f) { return f->format; }
API const char *kifu_file_encoding(const kifu_file *f) { return f->encoding; }
API size_t kifu_file_count(const kifu_file *f) { return f->n; }

API const kifu_record *
kifu_file_record(const kifu_file *f, size_t i)
{
	return i < f->n ? f->records[i] : NULL;
}

/* --- verdicts --------------------------------------------------------- */

API const char *kifu_record_status(const kifu_record *r) { return r->status; }
API int kifu_record_index(const kifu_record *r) { return r->index; }

API int
kifu_record_moves(const kifu_record *r)
{
	return r->readable ? r->rp.moves : 0;
}

API const char *
kifu_record_start_sfen(const kifu_record *r)
{
	return r->start_sfen;
}

API const char *
kifu_record_final_sfen(const kifu_record *r)
{
	return r->readable ? r->final_sfen : NULL;
}

API const char *
kifu_record_result_winner(const kifu_record *r)
{
	return r->readable ? winner_name(r->adj.result.winner) : NULL;
}

API const char *
kifu_record_result_reason(const kifu_record *r)
{
	return r->readable ? reason_name(r->adj.result.reason) : NULL;
}

API int
kifu_record_result_ply(const kifu_record *r)
{
	return r->readable ? r->adj.result.ply : 0;
}

API const char *
kifu_record_recorded_winner(const kifu_record *r)
{
	return r->readable && r->has_recorded ?
	    winner_name(r->adj.claim.winner) : NULL;
}

API const char *
kifu_record_recorded_reason(const kifu_record *r)
{
	return r->readable && r->has_recorded ?
	    reason_name(r->adj.claim.reason) : NULL;
}

API const char *
kifu_record_recorded_terminal(const kifu_record *r)
{
	return r->readable && r->adj.raw ? r->adj.raw : "";
}

API const char *
kifu_record_rules(const kifu_record *r)
{
	return r->readable ? r->adj.rules : NULL;
}

API const char *
kifu_record_rules_from(const kifu_record *r)
{
	return !r->readable ? NULL : r->has_venue ? "auto" : "option";
}

API const char *
kifu_record_rules_evidence(const kifu_record *r)
{
	return r->has_venue && r->venue.what[0] ? r->venue.what : NULL;
}

API unsigned
kifu_record_rules_evidence_line(const kifu_record *r)
{
	return r->has_venue ? r->venue.line : 0;
}

API int
kifu_record_flipped(const kifu_record *r)
{
	return r->r.flipped != 0;
}

API int
kifu_record_consistent(const kifu_record *r)
{
	return r->readable && r->result_checked ? r->adj.consistent : -1;
}

API size_t
kifu_record_finding_count(const kifu_record *r)
{
	return r->nfindings;
}

API const kifu_error *
kifu_record_finding(const kifu_record *r, size_t i)
{
	return i < r->nfindings ? &r->findings[i] : NULL;
}

API const kifu_error *
kifu_record_error(const kifu_record *r)
{
	return r->error;
}

API const char *
kifu_record_json(const kifu_record *r)
{
	return r->json;
}

/* --- headers ---------------------------------------------------------- */

API size_t
kifu_record_header_count(const kifu_record *r)
{
	return r->r.nheaders;
}

static const struct record_header *
header_at(const kifu_record *r, size_t i)
{
	return i < r->r.nheaders ? &r->r.headers[i] : NULL;
}

API const char *
kifu_record_header_key(const kifu_record *r, size_t i)
{
	const struct record_header *h = header_at(r, i);

	return h ? record_str(&r->r, h->key) : NULL;
}

API const char *
kifu_record_header_value(const kifu_record *r, size_t i)
{
	const struct record_header *h = header_at(r, i);

	return h ? record_str(&r->r, h->value) : NULL;
}

API const char *
kifu_record_header_kind(const kifu_record *r, size_t i)
{
	const struct record_header *h = header_at(r, i);

	return h ? header_id_name(h->id) : NULL;
}

API const char *
kifu_record_header(const kifu_record *r, const char *kind)
{
	size_t i;

	for (i = 0; i < r->r.nheaders; i++)
		if (!strcmp(header_id_name(r->r.headers[i].id), kind))
			return record_str(&r->r, r->r.headers[i].value);
	return NULL;
}

/* --- nodes ------------------------------------------------------------ */

static const struct record_node *
node_at(const kifu_record *r, kifu_node n)
{
	return n >= 0 && (size_t)n < r->r.nnodes ? &r->r.nodes[n] : NULL;
}

API size_t
kifu_record_node_count(const kifu_record *r)
{
	return r->r.nnodes;
}

API kifu_node
kifu_node_next(const kifu_record *r, kifu_node n)
{
	const struct record_node *nd = node_at(r, n);

	return nd ? nd->next : -1;
}

API kifu_node
kifu_node_alternative(const kifu_record *r, kifu_node n)
{
	const struct record_node *nd = node_at(r, n);

	return nd ? nd->alt : -1;
}

API kifu_node
kifu_node_parent(const kifu_record *r, kifu_node n)
{
	const struct record_node *nd = node_at(r, n);

	return nd ? nd->parent : -1;
}

API int
kifu_node_ply(const kifu_record *r, kifu_node n)
{
	const struct record_node *nd = node_at(r, n);

	return nd ? nd->ply : -1;
}

static int
is_move(const struct record_node *nd)
{
	return nd && nd->parent >= 0 && nd->special == SP_NONE &&
	    nd->mv != MOVE_NONE;
}

API int
kifu_node_is_move(const kifu_record *r, kifu_node n)
{
	return is_move(node_at(r, n));
}

API const char *
kifu_node_rule(const kifu_record *r, kifu_node n)
{
	const struct record_node *nd = node_at(r, n);

	return nd && nd->rule > RULE_OK && nd->rule < RULE_NB ?
	    rule_id_name((enum rule_id)nd->rule) : NULL;
}

API const char *
kifu_node_terminal(const kifu_record *r, kifu_node n)
{
	const struct record_node *nd = node_at(r, n);

	return nd && nd->special != SP_NONE ?
	    special_name((enum special)nd->special) : NULL;
}

API const char *
kifu_node_text(const kifu_record *r, kifu_node n)
{
	const struct record_node *nd = node_at(r, n);

	return nd ? record_str(&r->r, nd->raw) : NULL;
}

API const char *
kifu_node_comment(const kifu_record *r, kifu_node n)
{
	const struct record_node *nd = node_at(r, n);

	return nd ? record_str(&r->r, nd->comment) : NULL;
}

API int64_t
kifu_node_time_ms(const kifu_record *r, kifu_node n)
{
	const struct record_node *nd = node_at(r, n);

	return nd ? nd->time_ms : -1;
}

/* Copies s into buf as snprintf would; returns strlen(s). */
static int
copy_out(const char *s, size_t len, char *buf, size_t size)
{
	if (size) {
		size_t k = len < size - 1 ? len : size - 1;

		memcpy(buf, s, k);
		buf[k] = '\0';
	}
	return (int)len;
}

API int
kifu_node_usi(const kifu_record *r, kifu_node n, char *buf, size_t size)
{
	const struct record_node *nd = node_at(r, n);
	char usi[USI_MOVE_MAX];

	if (!is_move(nd))
		return -1;
	usi_format_move(nd->mv, usi);
	return copy_out(usi, strlen(usi), buf, size);
}

API int
kifu_node_kif(const kifu_record *r, kifu_node n, char *buf, size_t size)
{
	const struct record_node *nd = node_at(r, n);
	struct strbuf sb = STRBUF_INIT;
	int len;

	if (!is_move(nd))
		return -1;
	kakinoki_write_move(&sb, nd->mv, kakinoki_is_same(&r->r, n));
	len = copy_out(sb.buf, sb.len, buf, size);
	strbuf_release(&sb);
	return len;
}

API int
kifu_node_sfen(const kifu_record *r, kifu_node n, char *buf, size_t size)
{
	struct position pos = r->r.start;
	char sfen[SFEN_MAX];
	int32_t *path, depth = 0, i;

	if (!node_at(r, n))
		return -1;
	/* The moves from the start to n, then played in order. */
	for (i = n; i > 0; i = r->r.nodes[i].parent)
		depth++;
	path = xreallocarray(NULL, (size_t)depth + 1, sizeof(*path));
	for (i = n, depth = 0; i > 0; i = r->r.nodes[i].parent)
		path[depth++] = i;
	while (depth-- > 0) {
		const struct record_node *nd = &r->r.nodes[path[depth]];
		struct undo u;

		if (nd->special != SP_NONE)
			continue;
		if (!is_move(nd)) {
			free(path);
			return -1;
		}
		position_do_move(&pos, nd->mv, &u);
	}
	free(path);
	sfen_write(&pos, sfen);
	return copy_out(sfen, strlen(sfen), buf, size);
}

/* --- writing and exporting -------------------------------------------- */

/*
 * Appends record r in format f to text (UTF-8), as convert writes it.
 * Returns KIFU_OK or an error for *err.
 */
static int
write_text(const kifu_record *r, const struct format *f,
    const struct kifu_options *opts, const struct write_opts *wo,
    struct strbuf *text, kifu_error **err)
{
	struct keeprules kr;
	struct diag_list d;
	int rc = KIFU_OK, w;
	size_t i;

	if (!r->readable)
		return api_fail(err, KIFU_ERR_WRITE, NULL, "syntax",
		    "record %d could not be read", r->index + 1);
	diag_list_init(&d);
	kr.from = r->format;
	kr.t = NULL;
	kr.lim = &opts->lim;
	kr.no_header = opts->no_rules_header;
	kr.index = r->index;
	w = opts->ply >= 0 && f->write_at ?
	    f->write_at(&r->r, opts->ply, wo, text, &d) :
	    keeprules_write(&kr, &r->r, f, wo, text, &d);
	for (i = 0; i < d.n && rc == KIFU_OK; i++)
		if (d.v[i].severity == DIAG_ERROR || (opts->strict &&
		    d.v[i].severity == DIAG_WARNING)) {
			if (err)
				*err = error_from_diag(f->name, &d.v[i]);
			rc = KIFU_ERR_WRITE;
		}
	if (rc == KIFU_OK && w < 0)
		rc = api_fail(err, KIFU_ERR_WRITE, NULL, "limit",
		    "%s cannot hold record %d", f->name, r->index + 1);
	diag_list_release(&d);
	return rc;
}

/* text in the encoding wo says, into *out. */
static int
encode_out(const struct strbuf *text, const struct write_opts *wo, char **out,
    size_t *len, kifu_error **err)
{
	struct strbuf enc = STRBUF_INIT;
	struct span bad;
	char cp[8];
	int rc = KIFU_OK;

	switch (encode_text(text->buf, text->len, wo->encoding, NULL, NULL,
	    &enc, &bad, cp)) {
	case 0:
		*out = strbuf_detach(&enc, len);
		break;
	case -1:
		rc = api_fail(err, KIFU_ERR_WRITE, NULL, "encoding",
		    "line %u, column %u: '%s' cannot be written in %s",
		    bad.line, bad.col, cp, wo->encoding);
		break;
	default:
		rc = api_fail(err, KIFU_ERR_WRITE, NULL, "encoding",
		    "this system cannot convert to %s", wo->encoding);
		break;
	}
	strbuf_release(&enc);
	return rc;
}

/* The format and the write options for writing as opts says. */
static const struct format *
writer_for(const char *format, const struct kifu_options *opts,
    struct write_opts *wo, kifu_error **err)
{
	const struct format *f = format ? formats_by_name(format) : NULL;

	if (!f || !f->write) {
		api_fail(err, KIFU_ERR_ARG, NULL, "usage", "unknown format "
		    "'%s' (known: %s)", format ? format : "",
		    formats_names());
		return NULL;
	}
	*wo = opts->wo;
	if (!wo->encoding)
		wo->encoding = f->default_encoding;
	return f;
}

API int
kifu_record_write(const kifu_record *r, const char *format,
    const kifu_options *o, char **out, size_t *len, kifu_error **err)
{
	const struct kifu_options *opts = o ? o : r->o;
	struct write_opts wo;
	const struct format *f;
	struct strbuf text = STRBUF_INIT;
	int rc;

	*out = NULL;
	if (len)
		*len = 0;
	api_ok(err);
	if (!(f = writer_for(format, opts, &wo, err)))
		return KIFU_ERR_ARG;
	if ((rc = write_text(r, f, opts, &wo, &text, err)) == KIFU_OK)
		rc = encode_out(&text, &wo, out, len, err);
	strbuf_release(&text);
	return rc;
}

API int
kifu_file_write(const kifu_file *file, const char *format,
    const kifu_options *o, char **out, size_t *len, kifu_error **err)
{
	const struct kifu_options *opts = o ? o : &file->o;
	struct write_opts wo;
	const struct format *f;
	struct strbuf text = STRBUF_INIT;
	int rc = KIFU_OK;
	size_t i;

	*out = NULL;
	if (len)
		*len = 0;
	api_ok(err);
	if (!(f = writer_for(format, opts, &wo, err)))
		return KIFU_ERR_ARG;
	if (file->n > 1 && !f->separator)
		return api_fail(err, KIFU_ERR_WRITE, file->name, "limit",
		    "%s holds one record a file; %s has %zu", f->name,
		    file->name, file->n);
	for (i = 0; i < file->n && rc == KIFU_OK; i++) {
		if (i)
			strbuf_adds(&text, f->separator);
		rc = write_text(file->records[i], f, opts, &wo, &text, err);
	}
	if (rc == KIFU_OK)
		rc = encode_out(&text, &wo, out, len, err);
	strbuf_release(&text);
	return rc;
}

API int
kifu_record_export(const kifu_record *r, const char *format,
    const kifu_options *o, void **out, size_t *len, size_t *rows,
    kifu_error **err)
{
	const struct kifu_options *opts = o ? o : r->o;
	const struct train_format *f = format ? train_formats_by_name(format) :
	    NULL;
	struct train_game g;
	struct strbuf sb = STRBUF_INIT;
	enum train_skip s;
	size_t n = 0;

	*out = NULL;
	if (len)
		*len = 0;
	if (rows)
		*rows = 0;
	api_ok(err);
	if (!f)
		return api_fail(err, KIFU_ERR_ARG, NULL, "usage",
		    "unknown training format '%s' (known: %s)",
		    format ? format : "", train_formats_names());
	if (!r->readable || (strcmp(r->status, "ok") &&
	    strcmp(r->status, "mismatch")))
		return api_fail(err, KIFU_ERR_SKIP, NULL,
		    train_skip_name(TRAIN_SKIP_ILLEGAL), "record %d: %s",
		    r->index + 1, r->error ? r->error->text :
		    "it could not be read");
	g.r = &r->r;
	g.rp = &r->rp;
	g.adj = &r->adj;
	s = f->write(&g, &opts->to, &sb, &n);
	if (s != TRAIN_WRITTEN) {
		strbuf_release(&sb);
		return api_fail(err, KIFU_ERR_SKIP, NULL, train_skip_name(s),
		    "record %d: %s", r->index + 1, train_skip_description(s));
	}
	if (rows)
		*rows = n;
	*out = strbuf_detach(&sb, len);
	return KIFU_OK;
}

/* --- mates ------------------------------------------------------------- */

struct kifu_mate {
	struct mate_result r;
	char sfen[SFEN_MAX];
	char **usi, **kif;	/* the line, one string a move */
	char *json;
};

API int
kifu_mate_solve(const char *sfen, const kifu_options *o, kifu_mate **out,
    kifu_error **err)
{
	struct kifu_options def;
	struct problem pb;
	struct mate_error me;
	struct mate_ctx *c;
	struct kifu_mate *m;
	struct strbuf sb = STRBUF_INIT;
	const struct diag *e;
	struct position pos;
	int i;

	api_ok(err);
	*out = NULL;
	if (!o) {
		options_default(&def);
		o = &def;
	}
	if (!sfen)
		return api_fail(err, KIFU_ERR_ARG, NULL, "usage",
		    "no position");
	problem_init(&pb);
	problem_from_text(sfen, strlen(sfen), o->jo.variant ? o->jo.variant :
	    variant_standard(), o->ply, 0, &pb);
	if ((e = diag_first_error(&pb.d))) {
		int st = api_fail(err, KIFU_ERR_READ, "<sfen>", e->id, "%s",
		    e->message);

		problem_release(&pb);
		return st;
	}
	pos = pb.pos;
	problem_release(&pb);
	if (mate_prepare(&pos, o->mate.rules, &me) < 0)
		return api_fail(err, KIFU_ERR_ARG, "<sfen>", me.id, "%s",
		    me.message);
	if (!(c = mate_ctx_new(o->mate.memory)))
		return api_fail(err, KIFU_ERR_ARG, NULL, "memory",
		    "the memory budget (%zu bytes) cannot be had",
		    o->mate.memory);
	m = xcalloc(1, sizeof(*m));
	mate_result_init(&m->r);
	mate_solve(c, &pos, o->mate.rules, &o->mate.lim, &m->r);
	mate_ctx_free(c);
	sfen_write(&pos, m->sfen);
	m->usi = xcalloc((size_t)m->r.line.n + 1, sizeof(*m->usi));
	m->kif = xcalloc((size_t)m->r.line.n + 1, sizeof(*m->kif));
	for (i = 0; i < m->r.line.n; i++) {
		struct mate_line one = { 1, 1, &m->r.line.m[i] };
		struct position q = pos;
		struct undo u;
		int k;

		/* A move's text needs its side and the move before it (同). */
		for (k = 0; k < i; k++)
			position_do_move(&q, m->r.line.m[k], &u);
		strbuf_reset(&sb);
		mateio_line(&sb, &q, &one, 0);
		m->usi[i] = xstrndup(sb.buf, sb.len);
		strbuf_reset(&sb);
		if (i > 0 && move_to(m->r.line.m[i - 1]) ==
		    move_to(m->r.line.m[i])) {
			strbuf_adds(&sb, q.side == BLACK ? "▲" : "△");
			kakinoki_write_move(&sb, m->r.line.m[i], 1);
		} else {
			mateio_line(&sb, &q, &one, 1);
		}
		m->kif[i] = xstrndup(sb.buf, sb.len);
	}
	strbuf_reset(&sb);
	strbuf_adds(&sb, "{\"file\": null, \"source_line\": null");
	mateio_result_json(&sb, &pos, o->mate.rules, &m->r, 0);
	strbuf_addc(&sb, '}');
	m->json = strbuf_detach(&sb, NULL);
	*out = m;
	return KIFU_OK;
}

API void
kifu_mate_free(kifu_mate *m)
{
	int i;

	if (!m)
		return;
	for (i = 0; i < m->r.line.n; i++) {
		free(m->usi[i]);
		free(m->kif[i]);
	}
	free(m->usi);
	free(m->kif);
	free(m->json);
	mate_result_release(&m->r);
	free(m);
}

API const char *
kifu_mate_status(const kifu_mate *m)
{
	return mate_status_name(m->r.status);
}

API int
kifu_mate_length(const kifu_mate *m)
{
	return m->r.status == MATE_MATE ? m->r.length : -1;
}

API size_t
kifu_mate_line_count(const kifu_mate *m)
{
	return (size_t)m->r.line.n;
}

API const char *
kifu_mate_line_usi(const kifu_mate *m, size_t i)
{
	return i < (size_t)m->r.line.n ? m->usi[i] : NULL;
}

API const char *
kifu_mate_line_kif(const kifu_mate *m, size_t i)
{
	return i < (size_t)m->r.line.n ? m->kif[i] : NULL;
}

API const char *
kifu_mate_sfen(const kifu_mate *m)
{
	return m->sfen;
}

API const char *
kifu_mate_stop(const kifu_mate *m)
{
	return m->r.status == MATE_UNKNOWN ? mate_stop_name(m->r.stop) : "";
}

API int
kifu_mate_found(const kifu_mate *m)
{
	return m->r.status == MATE_UNKNOWN ? m->r.found : -1;
}

API uint64_t
kifu_mate_nodes(const kifu_mate *m)
{
	return m->r.nodes;
}

API double
kifu_mate_seconds(const kifu_mate *m)
{
	return m->r.seconds;
}

API const char *
kifu_mate_json(const kifu_mate *m)
{
	return m->json;
}

/* --- engines ------------------------------------------------------------ */

struct kifu_engine {
	struct usi_engine *e;
	struct analyze_opts o;
	struct analyzer a;
	int multipv;		/* the MultiPV option as last set */
	unsigned checked;	/* the limits tried: 1 << usi_limit_kind */
	struct analyze_pos p;
};

API int
kifu_engine_start(const char *command, const char *const *options,
    const char *log, long init_timeout_ms, unsigned flags, kifu_engine **out,
    kifu_error **err)
{
	struct usi_start_opts so;
	struct usi_error ue;
	struct kifu_engine *k;
	size_t i;

	*out = NULL;
	core_init();
	if (!command)
		return api_fail(err, KIFU_ERR_ARG, NULL, "engine",
		    "no engine command");
	memset(&so, 0, sizeof(so));
	so.command = command;
	so.log_path = log;
	so.init_timeout_ms = init_timeout_ms > 0 ? init_timeout_ms : 0;
	so.no_parent_death = (flags & KIFU_ENGINE_OUTLIVE_THREAD) != 0;
	k = xcalloc(1, sizeof(*k));
	if (usi_start(&so, &k->e, &ue) < 0) {
		free(k);
		return api_fail(err, KIFU_ERR_ENGINE, NULL,
		    usi_status_name(ue.status), "%s", ue.msg);
	}
	for (i = 0; options && options[i]; i++) {
		const char *eq = strchr(options[i], '=');
		char *name;
		int rc;

		if (!eq || eq == options[i]) {
			usi_close(k->e);
			free(k);
			return api_fail(err, KIFU_ERR_ARG, NULL, "option",
			    "an engine option is name=value, not '%s'",
			    options[i]);
		}
		name = xstrndup(options[i], (size_t)(eq - options[i]));
		rc = usi_set_option(k->e, name, eq + 1, &ue);
		free(name);
		if (rc < 0)
			goto failed;
	}
	if (usi_ready(k->e, &ue) < 0)
		goto failed;
	analyze_opts_init(&k->o);
	k->o.engine_name = usi_engine_name(k->e);
	k->multipv = 0;
	analyzer_init(&k->a, k->e, &k->o);
	usi_result_init(&k->p.r);
	*out = k;
	api_ok(err);
	return KIFU_OK;
failed:
	usi_close(k->e);
	free(k);
	return api_fail(err, KIFU_ERR_ENGINE, NULL, usi_status_name(ue.status),
	    "%s", ue.msg);
}

API const char *
kifu_engine_name(const kifu_engine *e)
{
	return usi_engine_name(e->e);
}

API const char *
kifu_engine_author(const kifu_engine *e)
{
	return usi_engine_author(e->e);
}

/* "nodes N", "depth N", "movetime MS" into l; -1 if it is none. */
static int
parse_limit(const char *s, struct usi_limit *l)
{
	static const enum usi_limit_kind kinds[] = {
		USI_LIMIT_NODES, USI_LIMIT_DEPTH, USI_LIMIT_MOVETIME
	};
	size_t i;

	for (i = 0; s && i < 3; i++) {
		const char *name = usi_limit_name(kinds[i]);
		size_t n = strlen(name);
		char *end;
		long long v;

		if (strncmp(s, name, n) || s[n] != ' ')
			continue;
		errno = 0;
		v = strtoll(s + n + 1, &end, 10);
		if (errno || *end || v < 1 || s[n + 1] < '0' || s[n + 1] > '9')
			return -1;
		l->kind = kinds[i];
		l->value = v;
		return 0;
	}
	return -1;
}

/* The position and the moves played from it, each judged. */
static int
setup_position(const char *sfen, const char *moves, struct position *start,
    struct position *pos, move **mv, int *n, kifu_error **err)
{
	const char *s = sfen ? sfen : "startpos";
	const struct variant *v = variant_standard();
	struct sfen_error se;
	size_t ranks = 1, i, alloc = 0;
	const char *p;

	while (*s == ' ')
		s++;
	if (!strncmp(s, "sfen ", 5))
		s += 5;
	for (i = 0; s[i] && s[i] != ' '; i++)
		ranks += s[i] == '/';
	if (ranks == 5)
		v = variant_minishogi();
	if (!strcmp(s, "startpos"))
		position_set_start(start, v);
	else if (sfen_read(start, v, s, &se) != SFEN_OK)
		return api_fail(err, KIFU_ERR_ARG, NULL, se.id,
		    "not a position: %s", se.message);
	*pos = *start;
	*mv = NULL;
	*n = 0;
	for (p = moves ? moves : ""; *p; ) {
		size_t k = strcspn(p, " ");
		struct move_claim c;
		enum rule_id rule = RULE_OK;
		struct undo u;
		move m;

		if (!k) {
			p++;
			continue;
		}
		if (usi_parse_move(v, p, k, &c) < 0 ||
		    (rule = rules_check_move(pos, &c, &m)) != RULE_OK) {
			free(*mv);
			*mv = NULL;
			return api_fail(err, KIFU_ERR_ARG, NULL,
			    rule != RULE_OK ? rule_id_name(rule) : "syntax",
			    "move %d '%.*s': %s", *n + 1,
			    (int)(k > 16 ? 16 : k), p, rule != RULE_OK ?
			    rule_description(rule) : "not a USI move");
		}
		ALLOC_GROW(*mv, (size_t)*n + 1, alloc);
		(*mv)[(*n)++] = m;
		position_do_move(pos, m, &u);
		p += k;
	}
	return KIFU_OK;
}

API int
kifu_engine_analyse(kifu_engine *k, const char *sfen, const char *moves,
    const char *limit, int multipv, long timeout_ms, char **json,
    kifu_error **err)
{
	struct position start, pos;
	struct usi_error ue;
	struct strbuf sb = STRBUF_INIT;
	move *mv = NULL;
	int n = 0, rc;

	*json = NULL;
	if (parse_limit(limit, &k->o.limit) < 0)
		return api_fail(err, KIFU_ERR_ARG, NULL, "limit", "a limit is "
		    "\"nodes N\", \"depth N\" or \"movetime MS\", not '%s'",
		    limit ? limit : "");
	if (multipv < 1 || multipv > USI_MULTIPV_MAX)
		return api_fail(err, KIFU_ERR_ARG, NULL, "multipv", "multipv "
		    "takes 1 to %d, not %d", USI_MULTIPV_MAX, multipv);
	if ((rc = setup_position(sfen, moves, &start, &pos, &mv, &n, err)))
		return rc;
	if (!usi_alive(k->e) && usi_restart(k->e, &ue) < 0)
		goto engine;
	if (!(k->checked & (1u << k->o.limit.kind))) {
		if (usi_check_limit(k->e, &k->o.limit, &ue) < 0)
			goto engine;
		if (!usi_alive(k->e) && usi_restart(k->e, &ue) < 0)
			goto engine;
		k->checked |= 1u << k->o.limit.kind;
	}
	if (multipv != k->multipv) {
		const char *name = usi_multipv_option(k->e);
		char v[16];

		snprintf(v, sizeof(v), "%d", multipv);
		if (!name && multipv > 1) {
			ue.status = USI_ERR_UNSUPPORTED;
			snprintf(ue.msg, sizeof(ue.msg), "%s has no MultiPV "
			    "option", usi_engine_name(k->e));
			goto engine;
		}
		if (name && usi_set_option(k->e, name, v, &ue) < 0)
			goto engine;
		k->multipv = multipv;
	}
	k->o.multipv = multipv;
	k->o.timeout_ms = timeout_ms > 0 ? timeout_ms :
	    k->o.limit.kind == USI_LIMIT_MOVETIME ? k->o.limit.value + 10000 :
	    300000;
	if (analyzer_set_variant(&k->a, start.v, &ue) < 0)
		goto engine;
	k->a.dead = 0;
	analyze_position(&k->a, &start, mv, n, &pos, 1, &k->p);
	k->p.ply = n;
	k->p.parent = -1;
	if (k->p.status == AN_FAILED) {
		rc = api_fail(err, KIFU_ERR_ENGINE, NULL, "search", "%s",
		    k->p.error ? k->p.error : "the search failed");
		free(k->p.error);
		k->p.error = NULL;
		free(mv);
		return rc;
	}
	analyze_json_position(&k->p, &pos, MOVE_NONE, usi_engine_name(k->e),
	    &sb);
	/* One object, without the line's end. */
	if (sb.len && sb.buf[sb.len - 1] == '\n')
		sb.buf[--sb.len] = '\0';
	*json = strbuf_detach(&sb, NULL);
	free(mv);
	api_ok(err);
	return KIFU_OK;
engine:
	free(mv);
	return api_fail(err, KIFU_ERR_ENGINE, NULL, usi_status_name(ue.status),
	    "%s", ue.msg);
}

API void
kifu_engine_close(kifu_engine *k)
{
	if (!k)
		return;
	analyzer_release(&k->a);
	free(k->p.error);
	usi_result_release(&k->p.r);
	usi_close(k->e);
	free(k);
}

/* --- for the files beside this one (api/libkifu.h) -------------------- */

const struct api_opts *
api_options(const kifu_options *o, struct api_opts *defaults)
{
	if (o)
		return &o->x;
	api_opts_init(defaults);
	return defaults;
}

int
api_options_ply(const kifu_options *o)
{
	return o ? o->ply : -1;
}

const kifu_options *
api_record_options(const kifu_record *k)
{
	return k->o;
}

void
api_record_judged(const kifu_record *k, struct api_judged *out)
{
	int s;

	memset(out, 0, sizeof(*out));
	for (s = VERDICT_OK; s < VERDICT_ERROR; s++)
		if (!strcmp(k->status, verdict_status_name(
		    (enum verdict_status)s)))
			break;
	out->status = (enum verdict_status)s;
	out->index = k->index;
	out->error = k->error;
	if (k->readable) {
		out->r = &k->r;
		out->rp = &k->rp;
		out->adj = &k->adj;
	}
}
