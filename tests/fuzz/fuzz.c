/*
 * fuzz.c - one libFuzzer target per input format (FUZZ_FORMAT: "csa",
 * "usi", "kif", "ki2", "jkf", or "detect" for decoding + detection).
 *
 * Each input is decoded, read record by record, replayed, written in every
 * format that can hold it and read back: the main line must come back
 * move for move (a round-trip oracle, not only a crash test), and the
 * last position's pictures and the evaluation graph (kifu show) must be
 * sound (the SVGs well-formed XML, tests/xmlcheck.h); a reader asked for
 * the headers only (kifu find) must give the same headers and start; the
 * headers fold and give dates as kifu find compares them, both stable
 * when done again. A mismatch aborts, which libFuzzer reports like a
 * crash.
 *
 *   make fuzz CC=clang && build/fuzz/fuzz_csa -max_total_time=60 testdata/csa
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/formats.h"
#include "core/date.h"
#include "core/fold.h"
#include "core/replay.h"
#include "core/usi.h"
#include "picture/diagram.h"
#include "picture/graph.h"
#include "../xmlcheck.h"

/* Kept small so that one input cannot take seconds. */
#define MAX_INPUT (1 << 18)
#define MAX_RECORDS 8

static const struct limits no_limits;

static const char *const targets[] = {
	"kif", "ki2", "csa", "jkf", "usi", NULL
};

/* The main line's legal moves as USI text, space-separated. */
static void
main_line(const struct record *r, struct strbuf *sb)
{
	int32_t i;

	strbuf_reset(sb);
	for (i = r->nodes[0].next; i >= 0 && r->nodes[i].mv != MOVE_NONE;
	    i = r->nodes[i].next) {
		char usi[USI_MOVE_MAX];

		usi_format_move(r->nodes[i].mv, usi);
		strbuf_adds(sb, usi);
		strbuf_addc(sb, ' ');
	}
}

/* Writes r as `to`, reads it back and compares the main lines. */
static void
round_trip(const struct record *r, const struct format *to,
    const struct strbuf *want)
{
	struct write_opts o = { 2, "UTF-8", NULL };
	struct strbuf out = STRBUF_INIT, got;
	struct diag_list d = DIAG_LIST_INIT;
	struct text t;
	struct reader rd;
	struct record back;
	struct replay rp;

	strbuf_init(&got);
	text_init(&t);
	/*
	 * The limits are a policy for reading, not a property of the record:
	 * a record just within them may be written with a few lines more
	 * (the writer's own headers), so the output is read back without.
	 */
	t.max_line = 0;
	record_init(&back, variant_standard());
	if (to->write(r, &o, &out, &d) < 0 || d.errors)
		goto out;
	if (text_from_utf8(&t, out.buf, out.len, &d) < 0)
		goto out;
	reader_init(&rd, &t, r->v);
	rd.lim = &no_limits;
	record_reset(&back, r->v);
	if (to->read(&rd, &back, &d) != READ_OK) {
		fprintf(stderr, "fuzz: %s output does not read back:\n%s\n",
		    to->name, out.buf);
		abort();
	}
	replay_record(&back, &rp, &d);
	main_line(&back, &got);
	if (strcmp(got.buf, want->buf) != 0) {
		fprintf(stderr, "fuzz: %s round trip changed the moves\n"
		    " want: %s\n got:  %s\n%s\n", to->name, want->buf,
		    got.buf, out.buf);
		abort();
	}
out:
	record_release(&back);
	text_release(&t);
	diag_list_release(&d);
	strbuf_release(&out);
	strbuf_release(&got);
}

/*
 * kifu show's pictures of the last position: the terminal board must read
 * back as KIF to the same position, and the SVG must be whole, without a
 * character XML cannot hold.
 */
static void
pictures(const struct record *r)
{
	struct strbuf out = STRBUF_INIT;
	struct diag_list d = DIAG_LIST_INIT;
	struct text_style ts = { 0, 0 };
	struct svg_style ss = { 480, 0 };
	struct diagram dg;
	struct record back;
	struct reader rd;
	struct text t;
	char why[256];
	size_t i;

	text_init(&t);
	record_init(&back, r->v);
	diagram_at(&dg, r, -1);
	diagram_text(&dg, &ts, &out);
	if (text_from_utf8(&t, out.buf, out.len, &d) < 0)
		abort();
	reader_init(&rd, &t, r->v);
	rd.lim = &no_limits;
	if (kif_read(&rd, &back, &d) != READ_OK ||
	    position_key(&back.start) != position_key(&dg.pos)) {
		fprintf(stderr, "fuzz: the board does not read back:\n%s\n",
		    out.buf);
		abort();
	}
	strbuf_reset(&out);
	ss.flip = dg.number & 1;
	diagram_svg(&dg, &ss, &out);
	for (i = 0; i < out.len; i++)
		if ((unsigned char)out.buf[i] < 0x20 && out.buf[i] != '\n')
			abort();
	if (out.len < 7 || strcmp(out.buf + out.len - 7, "</svg>\n") != 0)
		abort();
	if (strlen(out.buf) != out.len ||
	    !xml_well_formed(out.buf, why, sizeof(why))) {
		fprintf(stderr, "fuzz: the SVG is not XML: %s\n%s\n", why,
		    out.buf);
		abort();
	}
	record_release(&back);
	text_release(&t);
	diag_list_release(&d);
	strbuf_release(&out);
}

/* Whether the text holds a control character other than '\n'. */
static int
has_control(const struct strbuf *sb)
{
	size_t i;

	for (i = 0; i < sb->len; i++)
		if ((unsigned char)sb->buf[i] < 0x20 && sb->buf[i] != '\n')
			return 1;
	return 0;
}

/*
 * The evaluation graph: every point in range, the counts consistent, the
 * SVG whole, well-formed and without control characters, the sparkline
 * one line.
 */
static void
graph(const struct record *r)
{
	struct strbuf out = STRBUF_INIT;
	struct graph_opts o;
	struct graph g;
	char why[256] = "";
	int k, points = 0;

	graph_init(&g);
	graph_opts_init(&o);
	graph_read(&g, r, -1, &o);
	for (k = 0; k < g.n; k++) {
		const struct graph_point *p = &g.v[k];

		points += p->has;
		if (p->value < -GRAPH_CLIP || p->value > GRAPH_CLIP ||
		    (!p->has && (p->value || p->cls)) ||
		    (p->cls && g.source != GRAPH_ANALYSIS)) {
			fprintf(stderr, "fuzz: graph point %d: has %d, value "
			    "%d, class %d\n", k, p->has, p->value, p->cls);
			abort();
		}
	}
	if (points != g.points || (points == 0) != (g.source == GRAPH_NONE)) {
		fprintf(stderr, "fuzz: graph: %d points, %d counted\n",
		    points, g.points);
		abort();
	}
	graph_svg(&g, 640, &out);
	if (has_control(&out) || out.len < 7 ||
	    strcmp(out.buf + out.len - 7, "</svg>\n") != 0 ||
	    strlen(out.buf) != out.len ||
	    !xml_well_formed(out.buf, why, sizeof(why))) {
		fprintf(stderr, "fuzz: the graph's SVG is not whole XML "
		    "(%s):\n%s\n", why, out.buf);
		abort();
	}
	strbuf_reset(&out);
	graph_sparkline(&g, 64, 1, &out);
	if (memchr(out.buf, '\n', out.len)) {
		fprintf(stderr, "fuzz: the sparkline is two lines: %s\n",
		    out.buf);
		abort();
	}
	graph_release(&g);
	strbuf_release(&out);
}

/* The next header from *i on that is no raw line (HDR_RAW); NULL: none. */
static const struct record_header *
next_header(const struct record *r, size_t *i)
{
	while (*i < r->nheaders && r->headers[*i].id == HDR_RAW)
		(*i)++;
	return *i < r->nheaders ? &r->headers[(*i)++] : NULL;
}

/*
 * The headers of a whole read (r) and of a headers-only read (h) of one
 * record (but for the raw lines a move line may hold, which a headers-only
 * read passes over); each value folded (again: the same) and read as a
 * date (the date read again: the same).
 */
static void
headers(const struct record *r, const struct record *h)
{
	struct strbuf once = STRBUF_INIT, twice = STRBUF_INIT;
	char date[DATE_MAX], again[DATE_MAX];
	const struct record_header *a, *b;
	size_t i, j = 0, k = 0;
	int len;

	if (h && position_key(&h->start) != position_key(&r->start))
		abort();
	while (h && ((a = next_header(r, &j)), (b = next_header(h, &k)),
	    a || b))
		if (!a || !b || a->id != b->id || strcmp(record_str(r,
		    a->value), record_str(h, b->value))) {
			fprintf(stderr, "fuzz: a headers-only read differs\n");
			abort();
		}
	for (i = 0; i < r->nheaders; i++) {
		const char *v = record_str(r, r->headers[i].value);

		strbuf_reset(&once);
		strbuf_reset(&twice);
		fold_append(&once, v, strlen(v));
		fold_append(&twice, once.len ? once.buf : "", once.len);
		if (once.len != twice.len ||
		    (once.len && memcmp(once.buf, twice.buf, once.len))) {
			fprintf(stderr, "fuzz: folding '%s' twice differs\n",
			    v);
			abort();
		}
		len = date_parse(v, strlen(v), date);
		if ((len != 0 && len != 4 && len != 7 && len != 10) ||
		    (size_t)len != strlen(date) ||
		    date_parse(date, strlen(date), again) != len ||
		    strcmp(date, again)) {
			fprintf(stderr, "fuzz: date '%s' of '%s'\n", date, v);
			abort();
		}
	}
	strbuf_release(&once);
	strbuf_release(&twice);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
	struct diag_list d = DIAG_LIST_INIT;
	struct strbuf want;
	const struct format *f;
	struct diag_list hd = DIAG_LIST_INIT;
	struct reader rd, hrd;
	struct record r, h;
	struct text t;
	int k, i;

	if (n > MAX_INPUT)
		return 0;
	strbuf_init(&want);
	text_init(&t);
	record_init(&r, variant_standard());
	record_init(&h, variant_standard());
	if (text_decode(&t, (const char *)data, n, &d) < 0)
		goto out;
	f = strcmp(FUZZ_FORMAT, "detect") == 0 ? formats_detect(&t, NULL, NULL) :
	    formats_by_name(FUZZ_FORMAT);
	if (!f)
		goto out;
	reader_init(&rd, &t, variant_standard());
	reader_init(&hrd, &t, variant_standard());
	hrd.headers_only = 1;
	for (k = 0; k < MAX_RECORDS; k++) {
		struct replay rp;
		enum read_status st, hst = READ_EOF;
		int lockstep = hrd.line == rd.line && !hrd.done;

		diag_list_clear(&d);
		record_reset(&r, variant_standard());
		st = f->read(&rd, &r, &d);
		if (lockstep) {
			diag_list_clear(&hd);
			record_reset(&h, variant_standard());
			hst = f->read(&hrd, &h, &hd);
		}
		if (st == READ_EOF || st == READ_FATAL)
			break;
		if (st != READ_OK)
			continue;
		headers(&r, lockstep && hst == READ_OK ? &h : NULL);
		if (lockstep && hst != READ_OK) {
			fprintf(stderr, "fuzz: a record reads, not its "
			    "headers\n");
			abort();
		}
		replay_record(&r, &rp, &d);
		main_line(&r, &want);
		for (i = 0; targets[i]; i++)
			round_trip(&r, formats_by_name(targets[i]), &want);
		pictures(&r);
		graph(&r);
	}
out:
	record_release(&r);
	record_release(&h);
	text_release(&t);
	diag_list_release(&d);
	diag_list_release(&hd);
	strbuf_release(&want);
	return 0;
}
