/*
 * write.c - kifu's names into a record file as headers (write.h).
 */
#include <stdlib.h>
#include <string.h>

#include "tags/write.h"
#include "core/encode.h"
#include "core/xalloc.h"

int
tag_write_format(const char *format)
{
	static const char *const ok[] = { "kif", "kifu", "ki2", "ki2u", "csa" };
	size_t i;

	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
		if (!strcmp(format, ok[i]))
			return 1;
	return 0;
}

void
tag_edits_init(struct tag_edits *e)
{
	memset(e, 0, sizeof(*e));
}

void
tag_edits_clear(struct tag_edits *e)
{
	size_t i;

	for (i = 0; i < e->n; i++)
		free(e->v[i].text);
	e->n = 0;
	e->added = e->kept = e->replaced = 0;
}

void
tag_edits_release(struct tag_edits *e)
{
	tag_edits_clear(e);
	free(e->v);
	memset(e, 0, sizeof(*e));
}

static void
edit(struct tag_edits *e, uint32_t line, int drop, char *text)
{
	ALLOC_GROW(e->v, e->n + 1, e->alloc);
	e->v[e->n].line = line;
	e->v[e->n].drop = drop;
	e->v[e->n].text = text;
	e->n++;
}

/* A record's own name header: where it is, and which it is. */
struct own {
	uint32_t line;
	enum tag_header what;
	int side;
};

/* CSA: "'先手の戦型：..." comment lines among the lines before the moves. */
static size_t
csa_own(const struct text *t, uint32_t from, uint32_t to, struct own *v,
    size_t max)
{
	uint32_t l;
	size_t n = 0;

	for (l = from; l < to && l <= t->nlines && n < max; l++) {
		const char *p = text_line_ptr(t, l - 1);
		size_t len = t->lines[l - 1].len, k;

		if (!len || p[0] != '\'')
			continue;
		for (k = 1; k < len; k++)
			if (p[k] == ':' || (k + 3 <= len &&
			    memcmp(p + k, "：", 3) == 0))
				break;
		if (k < len && tag_header_key(p + 1, k - 1, &v[n].what,
		    &v[n].side)) {
			v[n].line = l;
			n++;
		}
	}
	return n;
}

int
tag_edits_add(struct tag_edits *e, const struct tagdefs *d,
    const struct record *r, const struct text *t, const char *format,
    const struct tag_result *res, int replace)
{
	struct own own[64];
	size_t nown = 0, i;
	uint32_t after = 0, first_move = 0, at, first_own = 0;
	int32_t m = r->nodes[0].next;
	int csa = !strcmp(format, "csa"), what, side, lines = 0;
	struct strbuf sb, val;

	if (!res->named)
		return 0;
	if (m >= 0)
		first_move = r->nodes[m].loc.line;
	for (i = 0; i < r->nheaders; i++) {
		const struct record_header *h = &r->headers[i];
		const char *key = record_str(r, h->key);

		if (h->loc.line > after &&
		    (!first_move || h->loc.line < first_move))
			after = h->loc.line;
		if (nown >= 63)
			continue;
		if (h->id == HDR_OPENING) {
			own[nown].what = TH_GAME;
			own[nown].side = -1;
			own[nown++].line = h->loc.line;
		} else if (!csa && h->id != HDR_RAW &&
		    tag_header_key(key, strlen(key), &own[nown].what,
		    &own[nown].side)) {
			own[nown++].line = h->loc.line;
		}
	}
	if (csa)
		nown += csa_own(t, r->loc.line, first_move ? first_move :
		    (uint32_t)t->nlines + 1, own + nown, 64 - nown);
	for (i = 0; i < nown; i++)
		if (own[i].line > after && (!first_move ||
		    own[i].line < first_move))
			after = own[i].line;
	/* After the last header line; a record without one: before it. */
	at = after ? after + 1 : r->loc.line ? r->loc.line : 1;
	strbuf_init(&sb);
	strbuf_init(&val);
	for (what = 0; what < TH_NB; what++)
		for (side = 0; side < (what == TH_GAME ? 1 : 2); side++) {
			int has = 0, k;

			strbuf_reset(&val);
			tag_header_value(d, res, (enum tag_header)what, side,
			    &val);
			for (i = 0; i < nown; i++)
				if ((int)own[i].what == what &&
				    (what == TH_GAME || own[i].side == side))
					has++;
			if (!val.len) {
				e->kept += has;
				continue;
			}
			if (has && !replace) {
				e->kept += has;
				continue;
			}
			for (k = 0, i = 0; i < nown; i++)
				if ((int)own[i].what == what &&
				    (what == TH_GAME || own[i].side == side)) {
					edit(e, own[i].line, 1, NULL);
					if (!first_own || own[i].line < first_own)
						first_own = own[i].line;
					k++;
				}
			e->replaced += k;
			if (csa && what == TH_GAME) {
				/* CSA has a header of its own for it. */
				strbuf_adds(&sb, "$OPENING:");
			} else {
				if (csa)
					strbuf_addc(&sb, '\'');
				strbuf_adds(&sb, tag_header_key_name(
				    (enum tag_header)what, side,
				    res->handicap));
				strbuf_adds(&sb, "：");
			}
			strbuf_add(&sb, val.buf, val.len);
			strbuf_addc(&sb, '\n');
			lines++;
		}
	if (lines) {
		/* Replacing: where the record's own were. */
		edit(e, first_own ? first_own : at, 0,
		    strbuf_detach(&sb, NULL));
		e->added += lines;
	}
	strbuf_release(&sb);
	strbuf_release(&val);
	return lines;
}

/* --- the encoding -------------------------------------------------------- */

/* "encoding=NAME" on one of the first lines, as text.c honours it. */
static const char *
declared(const struct text *t)
{
	size_t i;

	for (i = 0; i < t->nlines && i < 3; i++) {
		const char *p = text_line_ptr(t, i);
		size_t len = t->lines[i].len, k;
		const char *eq;
		char name[32];

		if (!len || (p[0] != '#' && p[0] != '\''))
			continue;
		eq = NULL;
		for (k = 0; k + 9 <= len; k++)
			if (!memcmp(p + k, "encoding=", 9)) {
				eq = p + k + 9;
				break;
			}
		if (!eq)
			continue;
		for (k = 0; eq + k < p + len && k < sizeof(name) - 1 &&
		    eq[k] != ' ' && eq[k] != '\t'; k++)
			name[k] = eq[k];
		name[k] = '\0';
		return encode_name(name);
	}
	return NULL;
}

static int
has_ext(const char *name, const char *ext)
{
	size_t n = name ? strlen(name) : 0, k = strlen(ext), i;

	if (n < k)
		return 0;
	for (i = 0; i < k; i++) {
		char c = name[n - k + i];

		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		if (c != ext[i])
			return 0;
	}
	return 1;
}

const char *
tag_write_encoding(const struct text *t, const char *format, const char *name)
{
	const char *enc;

	if (!t->ascii)
		return t->encoding;
	if ((enc = declared(t)))
		return enc;
	if (!strcmp(format, "kifu") || !strcmp(format, "ki2u") ||
	    has_ext(name, ".kifu") || has_ext(name, ".ki2u"))
		return "UTF-8";
	return "CP932";
}

/* --- applying ------------------------------------------------------------- */

/* Where line l (1-based) of raw starts and ends, line end included. */
struct raw_line {
	size_t off, len, end;	/* end: off + len + the line end */
};

static size_t
raw_lines(const char *raw, size_t n, struct raw_line **out)
{
	struct raw_line *v = NULL;
	size_t nv = 0, av = 0, i = 0, start = 0;

	while (i < n) {
		if (raw[i] == '\n' || raw[i] == '\r') {
			size_t len = i - start;

			i += raw[i] == '\r' && i + 1 < n && raw[i + 1] == '\n' ?
			    2 : 1;
			ALLOC_GROW(v, nv + 1, av);
			v[nv].off = start;
			v[nv].len = len;
			v[nv].end = i;
			nv++;
			start = i;
		} else {
			i++;
		}
	}
	if (start < n) {
		ALLOC_GROW(v, nv + 1, av);
		v[nv].off = start;
		v[nv].len = n - start;
		v[nv].end = n;
		nv++;
	}
	*out = v;
	return nv;
}

static int
cmp_edit(const void *a, const void *b)
{
	const struct tag_edit *x = a, *y = b;

	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	/* Before a line: the new text first, then the line may go. */
	return x->drop - y->drop;
}

/* The line end the file uses near line l: that line's own, else LF. */
static const char *
eol_of(const char *raw, const struct raw_line *v, size_t nv, size_t l)
{
	size_t k;

	for (k = l; k-- > 0;)
		if (v[k].end > v[k].off + v[k].len) {
			size_t len = v[k].end - v[k].off - v[k].len;

			return len == 2 ? "\r\n" : raw[v[k].off + v[k].len] ==
			    '\r' ? "\r" : "\n";
		}
	for (k = l; k < nv; k++)
		if (v[k].end > v[k].off + v[k].len) {
			size_t len = v[k].end - v[k].off - v[k].len;

			return len == 2 ? "\r\n" : raw[v[k].off + v[k].len] ==
			    '\r' ? "\r" : "\n";
		}
	return "\n";
}

/* The edit's text in the file's encoding and line ends. */
static int
put_text(const char *text, const char *encoding, const char *eol,
    struct strbuf *out, struct diag_list *dl)
{
	struct strbuf enc = STRBUF_INIT;
	struct span bad;
	char cp[8];
	const char *p = text;

	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		int rc;

		strbuf_reset(&enc);
		rc = encode_text(p, len, encoding, NULL, NULL, &enc, &bad, cp);
		if (rc < 0) {
			diag_add(dl, DIAG_ERROR, diag_id_name(DIAG_ENCODING),
			    NULL, 0, rc == -1 ? "'%s' cannot be written in %s"
			    : "this system cannot write %s%s", rc == -1 ? cp :
			    encoding, rc == -1 ? encoding : "");
			strbuf_release(&enc);
			return -1;
		}
		strbuf_add(out, enc.buf, enc.len);
		strbuf_adds(out, eol);
		p += len + (nl != NULL);
	}
	strbuf_release(&enc);
	return 0;
}

int
tag_edits_apply(const struct tag_edits *e, const char *raw, size_t n,
    const char *encoding, struct strbuf *out, struct diag_list *dl)
{
	struct raw_line *v;
	struct tag_edit *sorted;
	size_t nv = raw_lines(raw, n, &v), i, k = 0, l;
	int rc = 0;

	sorted = xreallocarray(NULL, e->n ? e->n : 1, sizeof(*sorted));
	if (e->n) {
		memcpy(sorted, e->v, e->n * sizeof(*sorted));
		qsort(sorted, e->n, sizeof(*sorted), cmp_edit);
	}
	for (i = 0; i < e->n; i++)
		if (sorted[i].line < 1 || sorted[i].line > nv + 1 ||
		    (sorted[i].drop && sorted[i].line > nv)) {
			diag_add(dl, DIAG_ERROR, diag_id_name(DIAG_SYNTAX), NULL,
			    0, "a header line out of the file (line %u of %zu)",
			    sorted[i].line, nv);
			rc = -1;
			goto out;
		}
	for (l = 1; l <= nv + 1; l++) {
		int dropped = 0;

		for (; k < e->n && sorted[k].line == l; k++) {
			if (sorted[k].drop) {
				dropped = 1;
				continue;
			}
			/* After a last line without an end, end it first. */
			if (l == nv + 1 && nv && v[nv - 1].end ==
			    v[nv - 1].off + v[nv - 1].len)
				strbuf_adds(out, eol_of(raw, v, nv, nv));
			if (put_text(sorted[k].text, encoding,
			    eol_of(raw, v, nv, l - 1), out, dl) < 0) {
				rc = -1;
				goto out;
			}
		}
		if (l > nv)
			break;
		if (dropped) {
			/* A byte-order mark stays where it was. */
			if (l == 1 && v[0].len >= 3 &&
			    !memcmp(raw, "\xef\xbb\xbf", 3))
				strbuf_add(out, raw, 3);
			continue;
		}
		strbuf_add(out, raw + v[l - 1].off, v[l - 1].end - v[l - 1].off);
	}
out:
	free(sorted);
	free(v);
	return rc;
}

/* --- checking -------------------------------------------------------------- */

int
tag_edits_check(const char *bytes, size_t n, const struct format *f,
    const struct variant *v, const struct limits *lim, const int *moves,
    size_t nrec, struct diag_list *dl)
{
	struct text t;
	struct reader rd;
	struct record r;
	struct diag_list d = DIAG_LIST_INIT;
	size_t i = 0;
	int rc = 0;

	text_init(&t);
	if (lim)
		t.max_line = lim->line;
	record_init(&r, v);
	if (text_decode(&t, bytes, n, &d) < 0) {
		diag_add(dl, DIAG_ERROR, diag_id_name(DIAG_ENCODING), NULL, 0,
		    "the file with its new headers does not decode");
		rc = -1;
		goto out;
	}
	reader_init(&rd, &t, v);
	if (lim)
		rd.lim = lim;
	for (;;) {
		enum read_status st;

		record_reset(&r, v);
		diag_list_clear(&d);
		st = f->read(&rd, &r, &d);
		if (st == READ_EOF)
			break;
		if (st != READ_OK || i >= nrec ||
		    record_main_moves(&r) != moves[i]) {
			diag_add(dl, DIAG_ERROR, diag_id_name(DIAG_SYNTAX), NULL,
			    0, "record %zu does not read back as it was with "
			    "its new headers", i + 1);
			rc = -1;
			goto out;
		}
		i++;
	}
	if (i != nrec) {
		diag_add(dl, DIAG_ERROR, diag_id_name(DIAG_SYNTAX), NULL, 0,
		    "%zu records read back with the new headers, not %zu", i,
		    nrec);
		rc = -1;
	}
out:
	record_release(&r);
	text_release(&t);
	diag_list_release(&d);
	return rc;
}
