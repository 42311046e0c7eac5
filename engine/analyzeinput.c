/*
 * analyzeinput.c - one input of `kifu analyze` analysed into the text of
 * its outputs (analyzeinput.h).
 */
#include <string.h>

#include "analyzeinput.h"
#include "annotate.h"
#include "api/formats.h"
#include "core/encode.h"
#include "walk/mirror.h"

void
analyze_input_out_init(struct analyze_input_out *o, struct strbuf *out,
    struct strbuf *err)
{
	memset(o, 0, sizeof(*o));
	o->out = out;
	o->err = err;
	strbuf_init(&o->rows);
	strbuf_init(&o->text);
	strbuf_init(&o->orig);
	strbuf_init(&o->dest);
}

void
analyze_input_out_release(struct analyze_input_out *o)
{
	strbuf_release(&o->rows);
	strbuf_release(&o->text);
	strbuf_release(&o->orig);
	strbuf_release(&o->dest);
}

/* The record's positions all failed: counted, and the bar moved on. */
static void
unanalysed(struct analyzer *a, const struct record *r, const char *name,
    int index, const char *why, struct analyze_input_out *res)
{
	size_t n = analyze_count(r, a->o), i;

	strbuf_addf(res->err, "%s: error: record %d: ", name, index + 1);
	strbuf_add_printable(res->err, why);
	strbuf_addf(res->err, "; its %zu positions left unanalysed\n", n);
	res->positions += (long long)n;
	res->failed += (long long)n;
	res->status = 1;
	if (a->o->progress)
		for (i = 0; i < n; i++)
			a->o->progress(a->o->progress_ctx);
}

/* One record: analysed, and into res as the outputs want it. */
static void
one_record(const struct analyze_input_opts *o, struct analyzer *a,
    struct analyze_record *ar, struct record *r, const char *name, int index,
    const struct format *to, const char *enc, struct strbuf *plain,
    struct analyze_input_out *res)
{
	struct usi_error err;
	size_t i;

	res->records++;
	if (analyzer_set_variant(a, r->v, &err) < 0) {
		unanalysed(a, r, name, index, a->dead ? a->dead_why : err.msg,
		    res);
		analyze_record_reset(ar);
	} else {
		analyze_record(a, r, ar);
	}
	res->positions += (long long)ar->n;
	res->searched += ar->searched;
	res->cached += ar->cached;
	res->failed += ar->failed;
	res->engine_ms += ar->engine_ms;
	for (i = 0; i < ar->n; i++) {
		const struct analyze_pos *p = &ar->v[i];

		if (p->status != AN_FAILED)
			continue;
		res->status = 1;
		strbuf_addf(res->err, "%s: warning: record %d: the position "
		    "after %d move%s is left unanalysed: ", name, index + 1,
		    p->ply, p->ply == 1 ? "" : "s");
		strbuf_add_printable(res->err, p->error ? p->error : "");
		strbuf_addc(res->err, '\n');
	}
	if (o->json)
		analyze_json(r, ar, name, index, o->engine_name, res->out);
	if (o->summary && o->json)
		analyze_json_summary(r, ar, name, index, res->out);
	else if (o->summary)
		analyze_summary_rows(r, ar, name, index, &res->rows);
	if (o->records_out) {
		struct diag_list d;
		struct write_opts wo;

		annotate_record(r, ar, a->o, !strcmp(to->name, "csa"));
		memset(&wo, 0, sizeof(wo));
		wo.csa_version = 2;
		wo.encoding = enc;
		diag_list_init(&d);
		if (index > 0)
			strbuf_adds(plain, to->separator);
		if (to->write(r, &wo, plain, &d) < 0 || d.errors) {
			diag_list_lines(res->err, name, &d, DIAG_ERROR);
			res->status = 1;
			strbuf_reset(&res->dest);
		}
		diag_list_release(&d);
	}
}

/*
 * Where the input's records go, and in which encoding: 0, or the status
 * of an input that cannot be written as asked (said).
 */
static int
destination(const struct analyze_input_opts *o, const struct judge *j,
    const struct judge_input *ji, const char *name, const struct format *to,
    const char **enc, struct analyze_input_out *res)
{
	if (!(to->caps & CAP_COMMENTS) || !to->write) {
		strbuf_addf(res->err, "%s: error: %s cannot hold the analysis "
		    "(no comments); choose -t kif, csa, ... or --json\n", name,
		    to->name);
		return 1;
	}
	if (o->in_place)
		strbuf_adds(&res->dest, name);
	else if (o->out_dir && walk_mirror(name, o->paths, o->npaths,
	    o->out_dir, to->extensions[0], &res->dest) < 0) {
		strbuf_addf(res->err, "%s: error: cannot mirror this name "
		    "under '%s' (it leads out of it)\n", name, o->out_dir);
		return 2;
	}
	*enc = to == ji->f ? j->t.encoding : to->default_encoding;
	if (!o->out_dir && !o->in_place && o->stdout_encoding)
		*enc = o->stdout_encoding;
	return 0;
}

/* The records' text, encoded, into res->text (or stdout's text). */
static void
encode_records(const struct analyze_input_opts *o, const char *name,
    const struct strbuf *plain, const char *enc,
    struct analyze_input_out *res)
{
	struct span at;
	char cp[8];
	int rc = encode_text(plain->buf ? plain->buf : "", plain->len, enc,
	    NULL, NULL, &res->text, &at, cp);

	if (rc < 0) {
		if (rc == -2)
			strbuf_addf(res->err, "%s: error: cannot convert to "
			    "%s\n", name, enc);
		else
			strbuf_addf(res->err, "%s: error: output line %u column "
			    "%u: '%s' cannot be written in %s; not written "
			    "[encoding]\n", name, at.line, at.col, cp, enc);
		res->status = 1;
		strbuf_reset(&res->dest);
		strbuf_reset(&res->text);
	} else if (!o->out_dir && !o->in_place) {
		strbuf_add(res->out, res->text.buf, res->text.len);
		strbuf_reset(&res->text);
	}
}

int
analyze_input(const struct analyze_input_opts *o, struct analyzer *a,
    struct judge *j, struct analyze_record *ar, const struct pipe_input *in,
    struct analyze_input_out *res)
{
	const char *name = in->name;
	struct strbuf plain = STRBUF_INIT;
	struct judge_input ji;
	const struct format *to;
	const char *enc = NULL;
	int index = 0, bad = 0;

	if (o->in_place && (strstr(name, "//") || !strcmp(name, "<stdin>"))) {
		strbuf_addf(res->err, "%s: error: --in-place rewrites files; "
		    "this is %s (use -o)\n", name, strstr(name, "//") ?
		    "a member of an archive" : "standard input");
		return res->status = 2;
	}
	if (o->in_place)
		strbuf_add(&res->orig, in->data->buf ? in->data->buf : "",
		    in->data->len);
	switch (judge_open(j, &ji, name, in->data, in->flags)) {
	case JUDGE_SKIPPED:
		return res->status;
	case JUDGE_UNREADABLE:
		diag_list_lines(res->err, name, &j->d, DIAG_ERROR);
		return res->status = 1;
	case JUDGE_READY:
		break;
	}
	to = o->to ? o->to : ji.f;
	if (o->records_out && (res->status = destination(o, j, &ji, name, to,
	    &enc, res)))
		return res->status;
	for (;;) {
		enum read_status st = judge_next(j, &ji, 0);
		struct replay rp;

		if (st == READ_EOF)
			break;
		if (st != READ_OK) {
			diag_list_lines(res->err, name, &j->d, DIAG_ERROR);
			bad = 1;
			if (st == READ_FATAL)
				break;
			index++;
			continue;
		}
		replay_record(&j->r, &rp, &j->d);
		if (j->d.errors) {
			diag_list_lines(res->err, name, &j->d, DIAG_ERROR);
			strbuf_addf(res->err, "%s: note: record %d is not "
			    "analysed (an illegal move)\n", name, index + 1);
			bad = 1;
			index++;
			continue;
		}
		if (index > 0 && o->records_out && !to->separator) {
			strbuf_addf(res->err, "%s: error: %s holds one record a "
			    "file; record %d and later not written\n", name,
			    to->name, index + 1);
			bad = 1;
			break;
		}
		one_record(o, a, ar, &j->r, name, index, to, enc, &plain, res);
		index++;
	}
	if (bad) {
		res->status = 1;
		if (res->dest.len)
			strbuf_addf(res->err, "%s: note: not written: it "
			    "holds a record that was not analysed\n", name);
		strbuf_reset(&res->dest);
	} else if (!index) {
		strbuf_addf(res->err, "%s: error: no record in the file "
		    "[empty]\n", name);
		res->status = 1;
		strbuf_reset(&res->dest);
	} else if (o->records_out && (res->dest.len || (!o->out_dir &&
	    !o->in_place))) {
		encode_records(o, name, &plain, enc, res);
	}
	strbuf_release(&plain);
	return res->status;
}

/* --- counting, for a progress bar ------------------------------------ */

struct count {
	const struct judge_opts *jo;
	const struct analyze_opts *ao;
	long long total;
};

static void *
count_worker_new(void *ctx)
{
	return judge_new(((struct count *)ctx)->jo);
}

static void
count_worker_free(void *ctx, void *w)
{
	(void)ctx;
	judge_free(w);
}

/* A batch of the count: a pipe_batch first, as every batch. */
struct count_batch {
	struct pipe_batch base;
	long long n;
};

static int
count_input(void *ctx, void *wv, void *batch, const struct pipe_input *in)
{
	struct count *c = ctx;
	struct judge *j = wv;
	struct judge_input ji;
	long long *n = &((struct count_batch *)batch)->n;

	if (in->error || judge_open(j, &ji, in->name, in->data, in->flags) !=
	    JUDGE_READY)
		return 0;
	for (;;) {
		enum read_status st = judge_next(j, &ji, 0);
		struct replay rp;

		if (st == READ_EOF || st == READ_FATAL)
			break;
		if (st != READ_OK)
			continue;
		replay_record(&j->r, &rp, &j->d);
		if (!j->d.errors)
			*n += (long long)analyze_count(&j->r, c->ao);
	}
	return 0;
}

static int
count_emit(void *ctx, void *batch)
{
	long long *n = &((struct count_batch *)batch)->n;

	((struct count *)ctx)->total += *n;
	*n = 0;
	return 0;
}

static const struct pipeline_ops count_ops = {
	.batch_size = sizeof(struct count_batch),
	.worker_new = count_worker_new,
	.worker_free = count_worker_free,
	.input = count_input,
	.emit = count_emit,
};

long long
analyze_count_inputs(const struct pipeline_opts *po,
    const struct judge_opts *jo, const struct analyze_opts *ao,
    char *const *paths, int npaths)
{
	struct count c = { jo, ao, 0 };
	struct pipeline_opts o = *po;

	/* Counting is quick: full batches, and nothing to say. */
	o.batch_max = 0;
	o.report = NULL;
	o.progress = 0;
	o.out = o.err = NULL;
	pipeline_run(&o, &count_ops, &c, paths, npaths, 0, 0, NULL, NULL);
	return c.total;
}
