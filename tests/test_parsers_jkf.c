/*
 * JSON Kifu Format: parsers/jkf.c (jkf_detect, jkf_read) and
 * writers/jkf.c (jkf_write).
 *
 * JSON in this file is written with single quotes, which jq() turns into
 * double quotes (one character for one, so columns stay as written).
 * Errors are checked by id, line and column only; problems found after
 * parsing have no place in the text (line 0). Written JKF is compared
 * with what is expected as JSON values (json_equal), not as text, after
 * normalise(): null members are dropped and a missing "initial" is the
 * even game, as the schema says.
 *
 * Records are resolved by the real replay (core/replay.c).
 */
#include <stdio.h>
#include <stdlib.h>

#include <jansson.h>

#include "reading.h"
#include "helpers.h"
#include "core/core.h"
#include "core/handicap.h"
#include "core/record.h"
#include "core/replay.h"
#include "core/text.h"
#include "parsers/format.h"
#include "parsers/jkf.h"

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* A text being read: everything one jkf_read needs. */

/* s with every ' made a ", in a buffer the caller frees. */
static char *
jq(const char *s)
{
	char *o = strdup(s), *p;

	assert_non_null(o);
	for (p = o; *p; p++)
		if (*p == '\'')
			*p = '"';
	return o;
}

static void
session_open(struct session *s, const char *src, size_t n,
    const struct variant *v)
{
	session_start(s, jkf_read, src, n, v);
}

/* Opens the single-quoted JSON text src. */
static void
session_openq(struct session *s, const char *src)
{
	char *text = jq(src);

	session_open(s, text, strlen(text), variant_standard());
	free(text);
}

static size_t
count_diags(const struct diag_list *d, enum diag_severity sev,
    enum diag_id id)
{
	size_t i, n = 0;

	for (i = 0; i < d->n; i++)
		n += d->v[i].severity == sev &&
		    !strcmp(d->v[i].id, diag_id_name(id));
	return n;
}

/* Asserts a diagnostic id at line:col with the given severity. */

/* Reads the single-quoted JKF src, which must read. */
static void
read_ok(struct session *s, const char *src)
{
	enum read_status rs;

	session_openq(s, src);
	if ((rs = session_next(s)) != READ_OK) {
		dump_diags(&s->d);
		fail_msg("record does not read (status %d)", (int)rs);
	}
}

/* Replays s's record, which must replay without errors. */
static void
replay_ok(struct session *s)
{
	struct replay rp;

	if (replay_record(&s->r, &rp, &s->d) != 0) {
		dump_diags(&s->d);
		fail_msg("record does not replay");
	}
}

/* The k-th node of the main line (0 = the root); -1 if it is shorter. */
static int32_t
nth(const struct record *r, int k)
{
	int32_t i = 0;

	while (k-- > 0 && i >= 0)
		i = r->nodes[i].next;
	return i;
}

static void
assert_start(const struct record *r, const char *sfen)
{
	char buf[SFEN_MAX];

	sfen_write(&r->start, buf);
	assert_string_equal(buf, sfen);
}

static void
assert_usi(const struct record *r, int32_t node, const char *usi)
{
	char buf[USI_MOVE_MAX];

	assert_true(node >= 0);
	assert_true(r->nodes[node].mv != MOVE_NONE);
	usi_format_move(r->nodes[node].mv, buf);
	assert_string_equal(buf, usi);
}

/* ---- JSON comparison ---- */

/* Drops null members (null = absent in JKF), recursively. */
static void
drop_nulls(json_t *j)
{
	size_t i;

	if (json_is_array(j)) {
		for (i = 0; i < json_array_size(j); i++)
			drop_nulls(json_array_get(j, i));
	} else if (json_is_object(j)) {
		void *it = json_object_iter(j);

		while (it) {
			json_t *v = json_object_iter_value(it);
			const char *key = json_object_iter_key(it);

			it = json_object_iter_next(j, it);
			if (json_is_null(v))
				json_object_del(j, key);
			else
				drop_nulls(v);
		}
	}
}

static void
normalise(json_t *doc)
{
	drop_nulls(doc);
	if (json_is_object(doc) && !json_object_get(doc, "initial"))
		json_object_set_new(doc, "initial",
		    json_pack("{s:s}", "preset", "HIRATE"));
}

/*
 * The member a path like "moves[55].move.relative" names, and its
 * parent; NULL if there is none.
 */
static json_t *
at_path(json_t *doc, const char *path, json_t **parent, char *last,
    size_t lastsz)
{
	json_t *j = doc;
	const char *p = path;

	*parent = NULL;
	while (*p && j) {
		size_t k;

		if (*p == '.')
			p++;
		if (*p == '[') {
			char *end;
			unsigned long idx = strtoul(p + 1, &end, 10);

			*parent = j;
			snprintf(last, lastsz, "[%lu", idx);
			j = json_array_get(j, idx);
			p = end + 1;
			continue;
		}
		k = strcspn(p, ".[");
		snprintf(last, lastsz, "%.*s", (int)k, p);
		*parent = j;
		j = json_object_get(j, last);
		p += k;
	}
	return j;
}

/* Deletes the member at path; fails if it must be there and is not. */
static void
delete_path(json_t *doc, const char *path, int must)
{
	char last[64];
	json_t *parent;

	if (!at_path(doc, path, &parent, last, sizeof(last))) {
		if (must)
			fail_msg("no '%s' to skip", path);
		return;
	}
	if (last[0] == '[')
		json_array_remove(parent, strtoul(last + 1, NULL, 10));
	else
		json_object_del(parent, last);
}

static json_t *
parse_json(const char *text, size_t n)
{
	json_error_t e;
	json_t *j = json_loadb(text, n, 0, &e);

	if (!j)
		fail_msg("bad JSON at %d:%d: %s", e.line, e.column, e.text);
	normalise(j);
	return j;
}

static void
show_json(const char *what, const json_t *j)
{
	char *s = json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS);

	print_message("%s: %s\n", what, s ? s : "?");
	free(s);
}

static void
assert_json_equal(const json_t *got, const json_t *want)
{
	if (!json_equal(got, want)) {
		show_json("got ", got);
		show_json("want", want);
		fail_msg("JSON differs");
	}
}

/* Writes r as JKF, which must succeed, and parses it back. */
static json_t *
write_json(const struct record *r, struct diag_list *d)
{
	struct strbuf sb = STRBUF_INIT;
	json_t *j;

	if (jkf_write(r, NULL, &sb, d) != 0) {
		dump_diags(d);
		fail_msg("jkf_write failed");
	}
	assert_true(sb.len > 0 && sb.buf[sb.len - 1] == '\n');
	j = parse_json(sb.buf, sb.len);
	strbuf_release(&sb);
	return j;
}

/* Asserts that r is written as the single-quoted JKF want. */
static void
assert_writes(const struct record *r, struct diag_list *d, const char *want)
{
	char *text = jq(want);
	json_t *w = parse_json(text, strlen(text)), *g = write_json(r, d);

	assert_json_equal(g, w);
	json_decref(g);
	json_decref(w);
	free(text);
}

/* JKF -> record -> JKF gives the same document, with no diagnostics. */
static void
assert_round_trip(const char *src)
{
	struct session s;

	read_ok(&s, src);
	replay_ok(&s);
	assert_writes(&s.r, &s.d, src);
	assert_no_diags(&s.d);
	session_close(&s);
}

/* ---- detection ---- */

struct detect_case {
	const char *name;
	const char *text;	/* single-quoted */
	int min, max;
};

static const struct detect_case detect_cases[] = {
	{ "header first", "{'header':{},'moves':[{}]}", 100, 100 },
	{ "moves first, spaced", " \n\t{ \n 'moves' : [ {} ], 'header': {}}",
	    100, 100 },
	{ "initial after another key", "{'x':{'header':1},'initial':null}",
	    100, 100 },
	{ "a BOM first", "\xef\xbb\xbf{'header':{}}", 100, 100 },
	{ "JKF keys only nested", "{'a':{'header':{},'moves':[]}}", 0, 0 },
	{ "JKF words as values", "{'a':'header','b':['moves']}", 0, 0 },
	{ "an escaped quote in a key", "{'a\\'header':1}", 0, 0 },
	{ "a JSON array", "[{'header':{},'moves':[]}]", 0, 0 },
	{ "a CSA record", "PI\n+\n+7776FU\n%TORYO\n", 0, 0 },
	{ "a KIF record", "手合割：平手\n   1 ７六歩(77)\n", 0, 0 },
	{ "an SFEN", "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/"
	    "LNSGKGSNL b - 1\n", 0, 0 },
	{ "empty", "", 0, 0 },
	{ "an empty object", "{}", 0, 0 },
};

static void
test_detect_case(void **state)
{
	const struct detect_case *c = *state;
	struct session s;
	int score;

	session_openq(&s, c->text);
	score = jkf_detect(&s.t);
	if (score < c->min || score > c->max)
		fail_msg("score %d, expected %d..%d", score, c->min, c->max);
	session_close(&s);
}

/* ---- initial: presets ---- */

struct preset_case {
	const char *name;
	enum handicap h;
};

static const struct preset_case preset_cases[] = {
	{ "HIRATE", HANDICAP_EVEN }, { "KY", HANDICAP_LANCE },
	{ "KY_R", HANDICAP_RIGHT_LANCE }, { "KA", HANDICAP_BISHOP },
	{ "HI", HANDICAP_ROOK }, { "HIKY", HANDICAP_ROOK_LANCE },
	{ "2", HANDICAP_2 }, { "3", HANDICAP_3 }, { "4", HANDICAP_4 },
	{ "5", HANDICAP_5 }, { "5_L", HANDICAP_5_LEFT }, { "6", HANDICAP_6 },
	{ "7_L", HANDICAP_7_LEFT }, { "7_R", HANDICAP_7_RIGHT },
	{ "8", HANDICAP_8 }, { "10", HANDICAP_10 },
};

/* Each preset reads as its start and is written back as itself. */
static void
test_preset_case(void **state)
{
	const struct preset_case *c = *state;
	struct session s;
	char src[128];

	snprintf(src, sizeof(src), "{'header':{},'initial':{'preset':'%s'},"
	    "'moves':[{}]}", c->name);
	read_ok(&s, src);
	assert_no_diags(&s.d);
	assert_int_equal(s.r.handicap, c->h);
	assert_start(&s.r, handicap_sfen(c->h));
	assert_writes(&s.r, &s.d, src);
	assert_no_diags(&s.d);
	session_close(&s);
}

static void
test_jkf_no_initial_is_even(void **state)
{
	static const char *const srcs[] = {
		"{'header':{},'moves':[{}]}",
		"{'header':{},'initial':null,'moves':[{}]}",
	};
	size_t i;

	(void)state;
	for (i = 0; i < NELEM(srcs); i++) {
		struct session s;

		read_ok(&s, srcs[i]);
		assert_no_diags(&s.d);
		assert_int_equal(s.r.handicap, HANDICAP_EVEN);
		assert_start(&s.r, handicap_sfen(HANDICAP_EVEN));
		assert_writes(&s.r, &s.d,
		    "{'header':{},'initial':{'preset':'HIRATE'},'moves':[{}]}");
		session_close(&s);
	}
}

/* ---- initial: boards of their own ---- */

static const char *const kinds[] = {
	"", "FU", "KY", "KE", "GI", "KA", "HI", "KI", "OU",
	"TO", "NY", "NK", "NG", "UM", "RY"
};

/*
 * The OTHER initial of an SFEN, built here apart from the writer:
 * board[x-1][y-1], hands in the normalizer's order.
 */
static json_t *
other_initial(const char *sfen)
{
	static const enum piece_type order[] = { PT_PAWN, PT_LANCE, PT_KNIGHT,
		PT_SILVER, PT_GOLD, PT_BISHOP, PT_ROOK };
	json_t *board = json_array(), *hands = json_array();
	struct position pos;
	int f, rk, c;
	size_t i;

	load_sfen(&pos, sfen);
	for (f = 0; f < FILE_NB; f++) {
		json_t *col = json_array();

		for (rk = 0; rk < RANK_NB; rk++) {
			piece p = pos.board[sq_make(f, rk)];

			json_array_append_new(col, p == PIECE_NONE ?
			    json_object() : json_pack("{s:i,s:s}", "color",
			    (int)piece_color(p), "kind",
			    kinds[piece_type_of(p)]));
		}
		json_array_append_new(board, col);
	}
	for (c = 0; c < COLOR_NB; c++) {
		json_t *hand = json_object();

		for (i = 0; i < NELEM(order); i++)
			json_object_set_new(hand, kinds[order[i]],
			    json_integer(pos.hand[c][order[i]]));
		json_array_append_new(hands, hand);
	}
	return json_pack("{s:s,s:{s:i,s:o,s:o}}", "preset", "OTHER", "data",
	    "color", (int)pos.side, "board", board, "hands", hands);
}

/* A whole JKF document (malloc'd text) for a start given as an SFEN. */
static char *
other_doc(const char *sfen)
{
	json_t *doc = json_pack("{s:{},s:o,s:[{}]}", "header", "initial",
	    other_initial(sfen), "moves");
	char *text = json_dumps(doc, JSON_COMPACT);

	json_decref(doc);
	assert_non_null(text);
	return text;
}

struct board_case {
	const char *name;
	const char *sfen;
};

static const struct board_case board_cases[] = {
	/* shogi-kifu-converter's tsumeshogi.csa: 00AL gives White the rest */
	{ "tsume with 00AL", "9/9/3pp4/+r2k1p3/2L1+p4/2+R6/B8/B8/9 b "
	    "4g4s4n3l14p 1" },
	{ "White to move, both hands", "4k4/9/9/9/9/9/9/9/4K4 w RB2G2s3n4l9p "
	    "1" },
	{ "promoted pieces everywhere", "l3k3l/1+R5+B1/p+Pp+Sp+Np+Lp/9/9/9/"
	    "P1P1P1P1P/9/L3K4 b RBGSN3Pgsn3p 1" },
	{ "a handicap board with Black to move", "lnsgkgsn1/1r5b1/ppppppppp/"
	    "9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1" },
};

static void
test_board_case(void **state)
{
	const struct board_case *c = *state;
	char *text = other_doc(c->sfen);
	struct session s;

	session_open(&s, text, strlen(text), variant_standard());
	assert_int_equal(session_next(&s), READ_OK);
	assert_no_diags(&s.d);
	assert_start(&s.r, c->sfen);
	assert_int_equal(s.r.handicap, HANDICAP_NONE);
	{
		json_t *want = parse_json(text, strlen(text));
		json_t *got = write_json(&s.r, &s.d);

		assert_json_equal(got, want);
		json_decref(got);
		json_decref(want);
	}
	assert_no_diags(&s.d);
	session_close(&s);
	free(text);
}

/*
 * A document whose start is the SFEN's with one more piece: board
 * positions the SFEN reader (rightly) refuses to make.
 */
static char *
other_doc_plus(const char *sfen, int x, int y, int color, const char *kind)
{
	json_t *ini = other_initial(sfen), *doc;
	json_t *col = json_array_get(json_object_get(json_object_get(ini,
	    "data"), "board"), (size_t)x - 1);
	char *text;

	json_array_set_new(col, (size_t)y - 1, json_pack("{s:i,s:s}", "color",
	    color, "kind", kind));
	doc = json_pack("{s:{},s:o,s:[{}]}", "header", "initial", ini,
	    "moves");
	text = json_dumps(doc, JSON_COMPACT);
	json_decref(doc);
	assert_non_null(text);
	return text;
}

/* The CSA reader's policy: kept with a warning when the core can play it. */
static void
test_jkf_impossible_boards(void **state)
{
	struct session s;
	char *text;

	(void)state;
	/* a pawn on the last rank: a warning */
	text = other_doc_plus("4k4/9/9/9/9/9/9/9/4K4 b - 1", 9, 1, 0, "FU");
	session_open(&s, text, strlen(text), variant_standard());
	assert_int_equal(session_next(&s), READ_OK);
	assert_int_equal(s.d.n, 1);
	assert_diag(&s.d, DIAG_WARNING, DIAG_BAD_POSITION, 1, 24);
	assert_start(&s.r, "P3k4/9/9/9/9/9/9/9/4K4 b - 1");
	session_close(&s);
	free(text);
	/* two black kings: the record is lost */
	text = other_doc_plus("4k4/9/9/9/9/9/9/9/4K4 b - 1", 6, 9, 0, "OU");
	session_open(&s, text, strlen(text), variant_standard());
	assert_int_equal(session_next(&s), READ_ERROR);
	assert_diag(&s.d, DIAG_ERROR, DIAG_BAD_POSITION, 1, 24);
	assert_int_equal(session_next(&s), READ_EOF);
	session_close(&s);
	free(text);
}

/* ---- moves ---- */

#define MV(c, fx, fy, tx, ty, p) "{'move':{'color':" #c ",'from':{'x':" \
	#fx ",'y':" #fy "},'to':{'x':" #tx ",'y':" #ty "},'piece':'" p "'}}"

/* json-kifu-format's same_move_minimal, normalised, and a drop after it. */
#define SAME_MOVE_DOC "{'header':{},'initial':{'preset':'HIRATE'}," \
	"'moves':[{}," MV(0, 7, 7, 7, 6, "FU") "," MV(1, 3, 3, 3, 4, "FU") \
	",{'move':{'color':0,'from':{'x':8,'y':8},'to':{'x':2,'y':2}," \
	"'piece':'KA','promote':true,'capture':'KA'}}," \
	"{'move':{'color':1,'from':{'x':3,'y':1},'to':{'x':2,'y':2}," \
	"'piece':'GI','same':true,'capture':'UM'}}," MV(0, 2, 7, 2, 6, "FU") \
	",{'move':{'color':1,'to':{'x':5,'y':5},'piece':'KA'}}]}"

static void
test_jkf_moves(void **state)
{
	struct session s;
	const struct record_node *n;

	(void)state;
	/* raw JKF: "to" left out where "same" says it */
	read_ok(&s, "{'header':{},'moves':[{}," MV(0, 7, 7, 7, 6, "FU") ","
	    MV(1, 3, 3, 3, 4, "FU") ",{'move':{'color':0,'from':{'x':8,"
	    "'y':8},'to':{'x':2,'y':2},'piece':'KA','promote':true}},"
	    "{'move':{'color':1,'from':{'x':3,'y':1},'piece':'GI',"
	    "'same':true}}," MV(0, 2, 7, 2, 6, "FU") ",{'move':{'color':1,"
	    "'to':{'x':5,'y':5},'piece':'KA'}}]}");
	assert_no_diags(&s.d);
	n = &s.r.nodes[nth(&s.r, 1)];
	assert_int_equal(n->spec.color, BLACK);
	assert_int_equal(n->spec.from, sq_make(6, 6));
	assert_int_equal(n->spec.to, sq_make(6, 5));
	assert_int_equal(n->spec.piece, PT_PAWN);
	assert_int_equal(n->spec.flags, 0);
	assert_int_equal(n->ply, 1);
	n = &s.r.nodes[nth(&s.r, 3)];
	assert_int_equal(n->spec.flags, SPEC_PROMOTE);
	assert_int_equal(n->spec.piece, PT_BISHOP);
	n = &s.r.nodes[nth(&s.r, 4)];
	assert_int_equal(n->spec.flags, SPEC_SAME);
	assert_int_equal(n->spec.to, SQ_NONE);
	assert_int_equal(n->spec.color, WHITE);
	n = &s.r.nodes[nth(&s.r, 6)];
	assert_int_equal(n->spec.flags, SPEC_DROP);
	assert_int_equal(n->spec.from, SQ_NONE);
	assert_int_equal(n->spec.to, sq_make(4, 4));
	assert_int_equal(n->ply, 6);
	replay_ok(&s);
	assert_usi(&s.r, nth(&s.r, 3), "8h2b+");
	assert_usi(&s.r, nth(&s.r, 4), "3a2b");
	assert_usi(&s.r, nth(&s.r, 6), "B*5e");
	/* normalised on the way out: to, same, capture */
	assert_writes(&s.r, &s.d, SAME_MOVE_DOC);
	assert_no_diags(&s.d);
	session_close(&s);
}

static void
test_jkf_move_flags(void **state)
{
	struct session s;
	const struct record_node *n;

	(void)state;
	/* promote false, relative letters, H, no colour */
	read_ok(&s, "{'header':{},'moves':[{},{'move':{'color':0,'from':"
	    "{'x':7,'y':7},'to':{'x':7,'y':6},'piece':'FU','promote':false,"
	    "'relative':'RU'}},{'move':{'to':{'x':5,'y':5},'piece':'KA',"
	    "'relative':'H'}},{'move':{'color':0,'from':{'x':1,'y':1},"
	    "'to':{'x':1,'y':2},'piece':'KY','relative':'LM','capture':null,"
	    "'same':false}}]}");
	assert_no_diags(&s.d);
	n = &s.r.nodes[nth(&s.r, 1)];
	assert_int_equal(n->spec.flags, SPEC_NO_PROMOTE);
	assert_int_equal(n->spec.rel, REL_RIGHT | REL_UP);
	n = &s.r.nodes[nth(&s.r, 2)];
	assert_int_equal(n->spec.flags, SPEC_DROP);
	assert_int_equal(n->spec.color, -1);
	assert_int_equal(n->spec.rel, 0);
	n = &s.r.nodes[nth(&s.r, 3)];
	assert_int_equal(n->spec.flags, 0);
	assert_int_equal(n->spec.rel, REL_LEFT | REL_SIDEWAYS);
	assert_true(strstr(record_str(&s.r, n->raw), "'KY'") == NULL);
	assert_true(strstr(record_str(&s.r, n->raw), "\"KY\"") != NULL);
	session_close(&s);
}

static void
test_jkf_times(void **state)
{
	struct session s;
	const struct record_node *n;

	(void)state;
	read_ok(&s, "{'header':{},'moves':[{},{'move':{'color':0,'from':"
	    "{'x':7,'y':7},'to':{'x':7,'y':6},'piece':'FU'},'time':{'now':"
	    "{'m':1,'s':2},'total':{'h':1,'m':0,'s':3}}},{'move':{'color':1,"
	    "'from':{'x':3,'y':3},'to':{'x':3,'y':4},'piece':'FU'},'time':"
	    "{'now':{'h':1,'m':2,'s':3},'total':{'h':null,'m':62,'s':3}}},"
	    "{'special':'TORYO','time':{'now':{'m':0,'s':-4},'total':"
	    "{'m':0,'s':1}}}]}");
	n = &s.r.nodes[nth(&s.r, 1)];
	assert_int_equal(n->time_ms, 62000);
	assert_int_equal(n->total_ms, 3603000);
	n = &s.r.nodes[nth(&s.r, 2)];
	assert_int_equal(n->time_ms, 3723000);
	assert_int_equal(n->total_ms, 3723000);
	/* a negative reading is no time: dropped with a warning */
	n = &s.r.nodes[nth(&s.r, 3)];
	assert_int_equal(n->time_ms, -1);
	assert_int_equal(n->total_ms, 1000);
	assert_diag(&s.d, DIAG_WARNING, DIAG_TIME, 1, 342);
	assert_int_equal(s.d.n, 1);
	session_close(&s);
}

/* The writer's totals: stated ones kept, others summed per side. */
static void
test_jkf_write_times(void **state)
{
	struct session s;
	struct replay rp;
	int32_t end;

	(void)state;
	static const char csa[] = "PI\n+\n+7776FU\nT5\n-3334FU\nT65\n"
	    "+2726FU\nT3600\n%TORYO\nT2\n";

	session_open(&s, csa, strlen(csa), variant_standard());
	assert_int_equal(csa_read(&s.rd, &s.r, &s.d), READ_OK);
	assert_int_equal(replay_record(&s.r, &rp, &s.d), 0);
	assert_writes(&s.r, &s.d, "{'header':{},'initial':{'preset':'HIRATE'},"
	    "'moves':[{},"
	    "{'move':{'color':0,'from':{'x':7,'y':7},'to':{'x':7,'y':6},"
	    "'piece':'FU'},'time':{'now':{'m':0,'s':5},'total':{'h':0,'m':0,"
	    "'s':5}}},"
	    "{'move':{'color':1,'from':{'x':3,'y':3},'to':{'x':3,'y':4},"
	    "'piece':'FU'},'time':{'now':{'m':1,'s':5},'total':{'h':0,'m':1,"
	    "'s':5}}},"
	    "{'move':{'color':0,'from':{'x':2,'y':7},'to':{'x':2,'y':6},"
	    "'piece':'FU'},'time':{'now':{'m':60,'s':0},'total':{'h':1,"
	    "'m':0,'s':5}}},"
	    "{'special':'TORYO','time':{'now':{'m':0,'s':2},'total':{'h':0,"
	    "'m':1,'s':7}}}]}");
	assert_no_diags(&s.d);
	/* a stated total wins; fractions of a second are dropped, once */
	end = record_main_end(&s.r);
	s.r.nodes[end].total_ms = 7000;
	s.r.nodes[nth(&s.r, 1)].time_ms = 5500;
	s.r.nodes[nth(&s.r, 3)].time_ms = 3600250;
	assert_writes(&s.r, &s.d, "{'header':{},'initial':{'preset':'HIRATE'},"
	    "'moves':[{},"
	    "{'move':{'color':0,'from':{'x':7,'y':7},'to':{'x':7,'y':6},"
	    "'piece':'FU'},'time':{'now':{'m':0,'s':5},'total':{'h':0,'m':0,"
	    "'s':5}}},"
	    "{'move':{'color':1,'from':{'x':3,'y':3},'to':{'x':3,'y':4},"
	    "'piece':'FU'},'time':{'now':{'m':1,'s':5},'total':{'h':0,'m':1,"
	    "'s':5}}},"
	    "{'move':{'color':0,'from':{'x':2,'y':7},'to':{'x':2,'y':6},"
	    "'piece':'FU'},'time':{'now':{'m':60,'s':0},'total':{'h':1,"
	    "'m':0,'s':5}}},"
	    "{'special':'TORYO','time':{'now':{'m':0,'s':2},'total':{'h':0,"
	    "'m':0,'s':7}}}]}");
	assert_int_equal(count_diags(&s.d, DIAG_WARNING, DIAG_LIMIT), 1);
	session_close(&s);
}

static void
test_jkf_comments(void **state)
{
	struct session s;
	int32_t n1;

	(void)state;
	read_ok(&s, "{'header':{},'moves':[{'comments':['a','&start','',"
	    "'b']},{'move':{'color':0,'from':{'x':7,'y':7},'to':{'x':7,"
	    "'y':6},'piece':'FU'},'comments':['&mark','&second','x']},"
	    "{'special':'CHUDAN','comments':['']}]}");
	assert_no_diags(&s.d);
	assert_string_equal(record_str(&s.r, s.r.nodes[0].comment), "a\n\nb");
	assert_string_equal(record_str(&s.r, s.r.nodes[0].bookmark), "start");
	n1 = nth(&s.r, 1);
	assert_string_equal(record_str(&s.r, s.r.nodes[n1].bookmark), "mark");
	/* a node has one bookmark: the second stays a comment line */
	assert_string_equal(record_str(&s.r, s.r.nodes[n1].comment),
	    "&second\nx");
	assert_true(s.r.nodes[nth(&s.r, 2)].comment != 0);
	replay_ok(&s);
	/* comment lines first, then the bookmark, as KIF writes them */
	assert_writes(&s.r, &s.d, "{'header':{},'moves':[{'comments':['a','',"
	    "'b','&start']},{'move':{'color':0,'from':{'x':7,'y':7},'to':"
	    "{'x':7,'y':6},'piece':'FU'},'comments':['&second','x','&mark']},"
	    "{'special':'CHUDAN','comments':['']}]}");
	assert_no_diags(&s.d);
	session_close(&s);
	/* the schema's moves[0].comment, a string */
	read_ok(&s, "{'header':{},'moves':[{'comment':'old'}]}");
	assert_no_diags(&s.d);
	assert_string_equal(record_str(&s.r, s.r.nodes[0].comment), "old");
	session_close(&s);
}

static void
test_jkf_headers(void **state)
{
	struct session s;

	(void)state;
	read_ok(&s, "{'header':{'先手':'a','下手':'b','棋戦':'c','手合割':"
	    "'平手　　','謎':'d','開始日時':''},'moves':[{}]}");
	assert_no_diags(&s.d);
	assert_int_equal(s.r.nheaders, 6);
	assert_int_equal(s.r.headers[0].id, HDR_BLACK);
	assert_int_equal(s.r.headers[1].id, HDR_BLACK);
	assert_string_equal(record_str(&s.r, s.r.headers[1].key), "下手");
	assert_int_equal(s.r.headers[2].id, HDR_EVENT);
	assert_int_equal(s.r.headers[3].id, HDR_HANDICAP);
	assert_int_equal(s.r.headers[4].id, HDR_OTHER);
	assert_string_equal(record_str(&s.r, s.r.headers[4].key), "謎");
	assert_int_equal(s.r.headers[5].id, HDR_START_TIME);
	assert_string_equal(record_str(&s.r, s.r.headers[5].value), "");
	session_close(&s);
}

/* CSA game information under its KIF names; what JKF cannot hold, once. */
static void
test_jkf_write_csa_headers(void **state)
{
	static const char csa[] = "V2.2\nN+sente\nN-gote\n$EVENT:ev\n"
	    "$SITE:site\n$START_TIME:2003/05/03 10:30:00\n$END_TIME:end\n"
	    "$TIME_LIMIT:00:25+00\n$OPENING:YAGURA\n$TIME:600+10\n"
	    "$MAX_MOVES:256\n$NOTE:n\n$FOO:bar\n'CSA comment\nPI\n+\n"
	    "raw line one\nraw line two\n";
	struct session s;

	(void)state;
	session_open(&s, csa, strlen(csa), variant_standard());
	assert_int_equal(csa_read(&s.rd, &s.r, &s.d), READ_OK);
	diag_list_clear(&s.d);
	assert_writes(&s.r, &s.d, "{'header':{'先手':'sente','後手':'gote',"
	    "'棋戦':'ev','場所':'site','開始日時':'2003/05/03 10:30:00',"
	    "'終了日時':'end','持ち時間':'00:25+00','戦型':'YAGURA',"
	    "'TIME':'600+10','最大手数':'256','備考':'n','FOO':'bar'},"
	    "'initial':{'preset':'HIRATE'},'moves':[{'comments':"
	    "['CSA comment']}]}");
	assert_int_equal(s.d.n, 1);
	assert_diag(&s.d, DIAG_WARNING, DIAG_LIMIT, 0, 0);
	session_close(&s);
}

/* One value a key: the first is kept, the rest reported once. */
static void
test_jkf_write_repeated_header(void **state)
{
	struct record r;
	struct diag_list d = DIAG_LIST_INIT;

	(void)state;
	record_init(&r, variant_standard());
	record_add_header(&r, "備考", strlen("備考"), "one", 3, HDR_NOTE,
	    NULL);
	record_add_header(&r, "NOTE", 4, "two", 3, HDR_NOTE, NULL);
	record_add_header(&r, "備考", strlen("備考"), "three", 5, HDR_NOTE,
	    NULL);
	assert_writes(&r, &d, "{'header':{'備考':'one'},'moves':[{}]}");
	assert_int_equal(d.n, 1);
	assert_diag(&d, DIAG_WARNING, DIAG_LIMIT, 0, 0);
	diag_list_release(&d);
	record_release(&r);
}

/* ---- specials ---- */

struct special_case {
	const char *word;
	enum special sp;
	const char *written;	/* the entry written back */
};

static const struct special_case special_cases[] = {
	{ "TORYO", SP_RESIGN, "{'special':'TORYO'}" },
	{ "CHUDAN", SP_ABORT, "{'special':'CHUDAN'}" },
	{ "SENNICHITE", SP_SENNICHITE, "{'special':'SENNICHITE'}" },
	{ "TIME_UP", SP_TIME_UP, "{'special':'TIME_UP'}" },
	{ "ILLEGAL_MOVE", SP_ILLEGAL_MOVE, "{'special':'ILLEGAL_MOVE'}" },
	{ "+ILLEGAL_ACTION", SP_ILLEGAL_BLACK,
	    "{'special':'+ILLEGAL_ACTION'}" },
	{ "-ILLEGAL_ACTION", SP_ILLEGAL_WHITE,
	    "{'special':'-ILLEGAL_ACTION'}" },
	/* unsigned (raw KIF 反則勝ち): Black moved last, so Black fouled */
	{ "ILLEGAL_ACTION", SP_ILLEGAL_WIN, "{'special':'+ILLEGAL_ACTION'}" },
	{ "JISHOGI", SP_IMPASSE, "{'special':'JISHOGI'}" },
	{ "KACHI", SP_DECLARATION, "{'special':'KACHI'}" },
	{ "HIKIWAKE", SP_DRAW_DECLARATION, "{'special':'HIKIWAKE'}" },
	{ "MAX_MOVES", SP_MAX_MOVES, "{'special':'MAX_MOVES'}" },
	{ "MATTA", SP_MATTA, "{'special':'MATTA'}" },
	{ "TSUMI", SP_MATE, "{'special':'TSUMI'}" },
	{ "FUZUMI", SP_NO_MATE, "{'special':'FUZUMI'}" },
	{ "ERROR", SP_ERROR, "{'special':'ERROR'}" },
	{ "TORYO!", SP_UNKNOWN,
	    "{'special':'CHUDAN','comments':['TORYO!']}" },
};

static void
test_special_case(void **state)
{
	const struct special_case *c = *state;
	struct session s;
	char src[256], want[256];
	int32_t end;

	snprintf(src, sizeof(src), "{'header':{},'moves':[{},"
	    MV(0, 7, 7, 7, 6, "FU") ",{'special':'%s'}]}", c->word);
	snprintf(want, sizeof(want), "{'header':{},'moves':[{},"
	    MV(0, 7, 7, 7, 6, "FU") ",%s]}", c->written);
	read_ok(&s, src);
	end = record_main_end(&s.r);
	assert_int_equal(s.r.nodes[end].special, c->sp);
	assert_int_equal(s.r.nodes[end].ply, 2);
	assert_string_equal(record_str(&s.r, s.r.nodes[end].raw), c->word);
	if (c->sp == SP_UNKNOWN) {
		assert_diag(&s.d, DIAG_WARNING, DIAG_SYNTAX, 1, 111);
		diag_list_clear(&s.d);
	}
	assert_no_diags(&s.d);
	replay_ok(&s);
	assert_writes(&s.r, &s.d, want);
	if (c->sp == SP_UNKNOWN) {
		assert_diag(&s.d, DIAG_WARNING, DIAG_LIMIT, 1, 100);
		diag_list_clear(&s.d);
	}
	assert_no_diags(&s.d);
	session_close(&s);
}

/* 反則勝ち after White's move: White fouled. */
static void
test_jkf_write_illegal_win_white(void **state)
{
	struct session s;

	(void)state;
	read_ok(&s, "{'header':{},'moves':[{}," MV(0, 7, 7, 7, 6, "FU") ","
	    MV(1, 3, 3, 3, 4, "FU") ",{'special':'ILLEGAL_ACTION'}]}");
	replay_ok(&s);
	assert_writes(&s.r, &s.d, "{'header':{},'moves':[{},"
	    MV(0, 7, 7, 7, 6, "FU") "," MV(1, 3, 3, 3, 4, "FU") ","
	    "{'special':'-ILLEGAL_ACTION'}]}");
	assert_no_diags(&s.d);
	session_close(&s);
}

/* A sealed move (封じ手) is CHUDAN in JKF, with a warning. */
static void
test_jkf_write_sealed(void **state)
{
	struct session s;

	(void)state;
	read_ok(&s, "{'header':{},'moves':[{}," MV(0, 7, 7, 7, 6, "FU") ","
	    "{'special':'CHUDAN'}]}");
	replay_ok(&s);
	s.r.nodes[record_main_end(&s.r)].special = SP_SEALED;
	s.r.nodes[record_main_end(&s.r)].raw = record_intern(&s.r, "封じ手",
	    strlen("封じ手"));
	assert_writes(&s.r, &s.d, "{'header':{},'moves':[{},"
	    MV(0, 7, 7, 7, 6, "FU") ",{'special':'CHUDAN','comments':"
	    "['封じ手']}]}");
	assert_int_equal(s.d.n, 1);
	assert_diag(&s.d, DIAG_WARNING, DIAG_LIMIT, 1, 100);
	session_close(&s);
}

static void
test_jkf_after_special(void **state)
{
	struct session s;

	(void)state;
	read_ok(&s, "{'header':{},'moves':[{}," MV(0, 7, 7, 7, 6, "FU") ","
	    "{'special':'TORYO'}," MV(1, 3, 3, 3, 4, "FU") ","
	    MV(0, 2, 7, 2, 6, "FU") "]}");
	assert_int_equal(s.d.n, 1);
	assert_diag(&s.d, DIAG_WARNING, DIAG_MOVE_AFTER_END, 1, 100);
	assert_int_equal(s.r.nnodes, 3);
	assert_int_equal(s.r.nodes[record_main_end(&s.r)].special, SP_RESIGN);
	session_close(&s);
}

/* ---- forks ---- */

/*
 * moves[2] has two forks; the first holds a fork of its own on its
 * second move. Every first entry of a fork stands in for moves[2].
 */
#define FORKS_DOC "{'header':{},'initial':{'preset':'HIRATE'},'moves':[{}," \
	MV(0, 7, 7, 7, 6, "FU") "," \
	"{'move':{'color':1,'from':{'x':3,'y':3},'to':{'x':3,'y':4}," \
	"'piece':'FU'},'forks':[" \
	    "[" MV(1, 8, 3, 8, 4, "FU") "," \
	    "{'move':{'color':0,'from':{'x':2,'y':7},'to':{'x':2,'y':6}," \
	    "'piece':'FU'},'forks':[[" MV(0, 6, 7, 6, 6, "FU") "," \
	    "{'special':'TORYO'}]]}]," \
	    "[{'move':{'color':1,'from':{'x':4,'y':1},'to':{'x':3,'y':2}," \
	    "'piece':'KI'},'comments':['in a fork']}]]}," \
	MV(0, 2, 7, 2, 6, "FU") "]}"

static void
test_jkf_forks(void **state)
{
	struct session s;
	const struct record *r;
	int32_t m1, m2, m3, f1, f1b, g, g2, f2;

	(void)state;
	read_ok(&s, FORKS_DOC);
	assert_no_diags(&s.d);
	r = &s.r;
	m1 = nth(r, 1);
	m2 = nth(r, 2);
	m3 = nth(r, 3);
	assert_int_equal(r->nodes[m3].ply, 3);
	assert_int_equal(r->nodes[m3].next, -1);
	/* the forks of moves[2] are alternatives to it, in order */
	f1 = r->nodes[m2].alt;
	assert_true(f1 >= 0);
	f2 = r->nodes[f1].alt;
	assert_true(f2 >= 0);
	assert_int_equal(r->nodes[f2].alt, -1);
	assert_int_equal(r->nodes[f1].parent, m1);
	assert_int_equal(r->nodes[f2].parent, m1);
	assert_int_equal(r->nodes[f1].ply, 2);
	assert_int_equal(r->nodes[f2].ply, 2);
	assert_string_equal(record_str(r, r->nodes[f2].comment), "in a fork");
	/* the nested fork replaces the fork's second move */
	f1b = r->nodes[f1].next;
	g = r->nodes[f1b].alt;
	assert_true(g >= 0);
	assert_int_equal(r->nodes[g].parent, f1);
	assert_int_equal(r->nodes[g].ply, 3);
	g2 = r->nodes[g].next;
	assert_int_equal(r->nodes[g2].special, SP_RESIGN);
	assert_int_equal(r->nodes[g2].ply, 4);
	replay_ok(&s);
	assert_usi(r, f1, "8c8d");
	assert_usi(r, f1b, "2g2f");
	assert_usi(r, g, "6g6f");
	assert_usi(r, f2, "4a3b");
	session_close(&s);
	assert_round_trip(FORKS_DOC);
}

/*
 * Forks nest as deep as a reader takes (JKF_MAX_FORK_DEPTH) and no
 * deeper: the writer drops the rest with one warning, and what it
 * writes reads back. Each level is a king step whose alternative steps
 * the other way and goes on.
 */
static void
test_jkf_deep_forks(void **state)
{
	static const char *const steps[4][2] = {
		{ "5i5h", "5i4h" }, { "5a5b", "5a4b" },
		{ "5h5i", "5h4h" }, { "5b5a", "5b4b" },
	};
	const int levels = JKF_MAX_FORK_DEPTH + 20;
	struct record r;
	struct diag_list d = DIAG_LIST_INIT;
	struct strbuf sb = STRBUF_INIT;
	struct session s;
	struct replay rp;
	int32_t parent = 0;
	int k;

	(void)state;
	record_init(&r, variant_standard());
	load_sfen(&r.start, "4k4/9/9/9/9/9/9/9/4K4 b - 1");
	for (k = 0; k <= levels; k++) {
		int32_t leaf = record_add_node(&r, parent);
		int32_t on = record_add_node(&r, parent);
		struct move_claim c;

		usi_parse_move(r.v, steps[k % 4][1], 4, &c);
		r.nodes[leaf].spec.from = (uint8_t)c.from;
		r.nodes[leaf].spec.to = (uint8_t)c.to;
		usi_parse_move(r.v, steps[k % 4][0], 4, &c);
		r.nodes[on].spec.from = (uint8_t)c.from;
		r.nodes[on].spec.to = (uint8_t)c.to;
		r.nodes[leaf].spec.piece = r.nodes[on].spec.piece = PT_KING;
		parent = on;
	}
	assert_int_equal(replay_record(&r, &rp, &d), 0);
	assert_int_equal(jkf_write(&r, NULL, &sb, &d), 0);
	assert_int_equal(d.n, 1);
	assert_diag(&d, DIAG_WARNING, DIAG_LIMIT, 0, 0);
	session_open(&s, sb.buf, sb.len, variant_standard());
	assert_int_equal(session_next(&s), READ_OK);
	assert_no_diags(&s.d);
	/* one move of the main line, and one per level of forks */
	assert_int_equal(s.r.nnodes, 1 + 2 * JKF_MAX_FORK_DEPTH + 1);
	replay_ok(&s);
	session_close(&s);
	strbuf_release(&sb);
	diag_list_release(&d);
	record_release(&r);
}

/* Forks one level deeper than the limit: an error, not a crash. */
static void
test_jkf_forks_too_deep(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	struct session s;
	int k;

	(void)state;
	strbuf_adds(&sb, "{\"header\":{},\"moves\":[{},");
	for (k = 0; k <= JKF_MAX_FORK_DEPTH; k++)
		strbuf_adds(&sb, "{\"move\":{\"to\":{\"x\":1,\"y\":1},"
		    "\"piece\":\"FU\"},\"forks\":[[");
	strbuf_adds(&sb, "{\"special\":\"TORYO\"}");
	for (k = 0; k <= JKF_MAX_FORK_DEPTH; k++)
		strbuf_adds(&sb, "]]}");
	strbuf_adds(&sb, "]}");
	session_open(&s, sb.buf, sb.len, variant_standard());
	assert_int_equal(session_next(&s), READ_ERROR);
	assert_diag(&s.d, DIAG_ERROR, DIAG_LIMIT, 1, 26076);
	session_close(&s);
	/* and JSON deeper than jansson takes */
	strbuf_reset(&sb);
	for (k = 0; k < 100000; k++)
		strbuf_addc(&sb, '[');
	session_open(&s, sb.buf, sb.len, variant_standard());
	assert_int_equal(session_next(&s), READ_ERROR);
	assert_diag(&s.d, DIAG_ERROR, DIAG_SYNTAX, 1, 2049);
	session_close(&s);
	strbuf_release(&sb);
}

/* ---- errors ---- */

struct error_case {
	const char *name;
	const char *text;	/* single-quoted */
	enum diag_id id;
	/*
	 * Where jansson's position says, or for what is found in the tree,
	 * the first character of the value the message's path names (of
	 * the object where a member is missing).
	 */
	unsigned line, col;
};

#define MOVES_AFTER(e) "{'header':{},'moves':[{}," e "]}"

static const struct error_case error_cases[] = {
	/* JSON syntax, placed by jansson's position */
	{ "trailing comma", "{'header':{},'moves':[{},]}", DIAG_SYNTAX, 1, 26 },
	{ "bad token on line 2, after kanji",
	    "{'header':{'先手':'あ',\n  '後手': x},'moves':[]}",
	    DIAG_SYNTAX, 2, 9 },
	{ "CRLF lines", "{\r\n'header':{},\r\n'moves':[{}]]\r\n}", DIAG_SYNTAX,
	    3, 13 },
	{ "unterminated", "{'header':{},\n'moves':[{}]\n", DIAG_SYNTAX, 2, 13 },
	{ "text after the object", "{'header':{},'moves':[]} x", DIAG_SYNTAX,
	    1, 26 },
	{ "NUL escape", "{'header':{'a':'\\u0000'},'moves':[]}", DIAG_SYNTAX,
	    1, 16 },
	/* structure, found in the tree */
	{ "not an object", "[{'header':{}}]", DIAG_SYNTAX, 1, 1 },
	{ "no moves", "{'header':{}}", DIAG_SYNTAX, 1, 1 },
	{ "moves an object", "{'header':{},'moves':{}}", DIAG_SYNTAX, 1, 22 },
	{ "header an array", "{'header':[],'moves':[]}", DIAG_SYNTAX, 1, 11 },
	{ "header value a number", "{'header':{'手数':3},'moves':[]}",
	    DIAG_SYNTAX, 1, 17 },
	{ "unknown preset", "{'header':{},'initial':{'preset':'KY_L'},"
	    "'moves':[]}", DIAG_UNKNOWN_HANDICAP, 1, 24 },
	{ "no preset", "{'header':{},'initial':{},'moves':[]}", DIAG_SYNTAX,
	    1, 24 },
	{ "OTHER without data", "{'header':{},'initial':{'preset':'OTHER'},"
	    "'moves':[]}", DIAG_SYNTAX, 1, 24 },
	{ "board of 8 files", "{'header':{},'initial':{'preset':'OTHER',"
	    "'data':{'color':0,'board':[[],[],[],[],[],[],[],[]],'hands':"
	    "[{},{}]}},'moves':[]}", DIAG_SYNTAX, 1, 68 },
	{ "a king in hand", "{'header':{},'initial':{'preset':'OTHER',"
	    "'data':{'color':0,'board':{},'hands':[{'OU':1},{}]}},"
	    "'moves':[]}", DIAG_BAD_POSITION, 1, 86 },
	{ "one hand", "{'header':{},'initial':{'preset':'OTHER',"
	    "'data':{'color':0,'board':{},'hands':[{}]}},'moves':[]}",
	    DIAG_SYNTAX, 1, 79 },
	{ "moves[0] a move", "{'header':{},'moves':[" MV(0, 7, 7, 7, 6, "FU")
	    "]}", DIAG_SYNTAX, 1, 23 },
	{ "an entry not an object", MOVES_AFTER("[]"), DIAG_SYNTAX, 1, 26 },
	{ "an entry with neither", MOVES_AFTER("{'comments':['x']}"),
	    DIAG_SYNTAX, 1, 26 },
	{ "an entry with both", MOVES_AFTER("{'move':{'color':0,'to':{'x':5,"
	    "'y':5},'piece':'KA'},'special':'TORYO'}"), DIAG_SYNTAX, 1, 26 },
	{ "unknown piece", MOVES_AFTER("{'move':{'color':0,'from':{'x':7,"
	    "'y':7},'to':{'x':7,'y':6},'piece':'XX'}}"), DIAG_SYNTAX, 1, 93 },
	{ "no piece", MOVES_AFTER("{'move':{'color':0,'from':{'x':7,"
	    "'y':7},'to':{'x':7,'y':6}}}"), DIAG_SYNTAX, 1, 34 },
	{ "no to", MOVES_AFTER("{'move':{'color':0,'from':{'x':7,'y':7},"
	    "'piece':'FU'}}"), DIAG_SYNTAX, 1, 34 },
	{ "x off the board", MOVES_AFTER("{'move':{'color':0,'from':{'x':10,"
	    "'y':7},'to':{'x':7,'y':6},'piece':'FU'}}"), DIAG_SYNTAX, 1, 57 },
	{ "y a string", MOVES_AFTER("{'move':{'color':0,'from':{'x':7,"
	    "'y':'7'},'to':{'x':7,'y':6},'piece':'FU'}}"), DIAG_SYNTAX, 1, 63 },
	{ "color 2", MOVES_AFTER("{'move':{'color':2,'from':{'x':7,'y':7},"
	    "'to':{'x':7,'y':6},'piece':'FU'}}"), DIAG_SYNTAX, 1, 43 },
	{ "promote a string", MOVES_AFTER("{'move':{'color':0,'from':{'x':7,"
	    "'y':7},'to':{'x':7,'y':6},'piece':'FU','promote':'yes'}}"),
	    DIAG_SYNTAX, 1, 108 },
	{ "unknown relative", MOVES_AFTER("{'move':{'color':0,'from':{'x':7,"
	    "'y':7},'to':{'x':7,'y':6},'piece':'FU','relative':'Q'}}"),
	    DIAG_SYNTAX, 1, 109 },
	{ "unknown capture", MOVES_AFTER("{'move':{'color':0,'from':{'x':7,"
	    "'y':7},'to':{'x':7,'y':6},'piece':'FU','capture':'OO'}}"),
	    DIAG_SYNTAX, 1, 108 },
	{ "special a number", MOVES_AFTER("{'special':1}"), DIAG_SYNTAX,
	    1, 37 },
	{ "comments a string", MOVES_AFTER("{'special':'TORYO','comments':"
	    "'x'}"), DIAG_SYNTAX, 1, 56 },
	{ "a comment line a number", MOVES_AFTER("{'special':'TORYO',"
	    "'comments':['x',2]}"), DIAG_SYNTAX, 1, 61 },
	{ "time without s", MOVES_AFTER("{'special':'TORYO','time':{'now':"
	    "{'m':1}}}"), DIAG_SYNTAX, 1, 59 },
	{ "time m a string", MOVES_AFTER("{'special':'TORYO','time':{'now':"
	    "{'m':'1','s':0}}}"), DIAG_SYNTAX, 1, 64 },
	{ "forks an object", MOVES_AFTER("{'special':'TORYO','forks':{}}"),
	    DIAG_SYNTAX, 1, 53 },
	{ "a fork an object", MOVES_AFTER("{'special':'TORYO','forks':[{}]}"),
	    DIAG_SYNTAX, 1, 54 },
	{ "an error inside a fork", MOVES_AFTER("{'special':'TORYO','forks':"
	    "[[{'move':{'piece':'FU'}}]]}"), DIAG_SYNTAX,
	    1, 63 },
};

static void
test_error_case(void **state)
{
	const struct error_case *c = *state;
	struct session s;

	session_openq(&s, c->text);
	assert_int_equal(session_next(&s), READ_ERROR);
	assert_diag(&s.d, DIAG_ERROR, c->id, c->line, c->col);
	assert_int_equal(s.d.errors, 1);
	assert_int_equal(session_next(&s), READ_EOF);
	session_close(&s);
}

static void
test_jkf_unknown_keys_warn_once(void **state)
{
	struct session s;

	(void)state;
	read_ok(&s, "{'header':{},'version':'1.0','moves':[{'x':1},"
	    "{'move':{'color':0,'from':{'x':7,'y':7,'z':0},'to':{'x':7,"
	    "'y':6},'piece':'FU','note':''},'extra':[]}]}");
	assert_int_equal(s.d.n, 1);
	assert_diag(&s.d, DIAG_WARNING, DIAG_UNKNOWN_LINE, 0, 0);
	replay_ok(&s);
	session_close(&s);
	/* no header: read anyway, with a warning */
	read_ok(&s, "{'moves':[{}]}");
	assert_int_equal(s.d.n, 1);
	assert_diag(&s.d, DIAG_WARNING, DIAG_SYNTAX, 1, 1);
	session_close(&s);
}

/* A key given twice: JavaScript keeps the last value, and so do we. */
static void
test_jkf_duplicate_key(void **state)
{
	struct session s;

	(void)state;
	read_ok(&s, "{'header':{'先手':'a',\n 'x':'', '先手':'b'},'moves':[{}]}");
	assert_int_equal(s.d.n, 1);
	assert_diag(&s.d, DIAG_WARNING, DIAG_SYNTAX, 2, 10);
	assert_int_equal(s.r.nheaders, 2);
	assert_string_equal(record_str(&s.r, s.r.headers[0].value), "b");
	session_close(&s);
}

static void
test_jkf_empty_and_eof(void **state)
{
	static const char *const blanks[] = { "", " \n\r\n\t", "\xef\xbb\xbf" };
	struct session s;
	size_t i;

	(void)state;
	for (i = 0; i < NELEM(blanks); i++) {
		session_openq(&s, blanks[i]);
		assert_int_equal(session_next(&s), READ_EOF);
		assert_no_diags(&s.d);
		session_close(&s);
	}
	/* one record a file */
	read_ok(&s, "{'header':{},'moves':[{}]}");
	assert_int_equal(session_next(&s), READ_EOF);
	assert_int_equal(session_next(&s), READ_EOF);
	session_close(&s);
	/* JKF is 9x9 whatever the caller expected (no variant field) */
	{
		static const char src[] = "{\"header\":{},\"moves\":[{}]}";

		session_open(&s, src, strlen(src), variant_minishogi());
		assert_int_equal(session_next(&s), READ_OK);
		assert_int_equal(s.d.errors, 0);
		assert_ptr_equal(s.r.start.v, variant_standard());
		assert_int_equal(s.r.handicap, HANDICAP_EVEN);
		session_close(&s);
	}
}

/* ---- the writer on moves ---- */

/* A USI position line, read and replayed. */
static void
read_usi(struct session *s, const char *line)
{
	session_open(s, line, strlen(line), variant_standard());
	assert_int_equal(usi_read(&s->rd, &s->r, &s->d), READ_OK);
	replay_ok(s);
}

/* A file of the board with nothing on it. */
#define NO_FILE "[{},{},{},{},{},{},{},{},{}]"

struct write_case {
	const char *name;
	const char *usi;
	const char *jkf;	/* single-quoted */
};

static const struct write_case write_cases[] = {
	/* 不成 is written only where promoting was possible */
	{ "promote false into the zone", "position sfen 4k4/9/9/4S4/9/9/9/9/"
	    "4K4 b - 1 moves 5d5c 5a4a 5c4d",
	    "{'header':{},'initial':{'preset':'OTHER','data':{'color':0,"
	    "'board':[" NO_FILE "," NO_FILE "," NO_FILE "," NO_FILE ","
	    "[{'color':1,'kind':'OU'},{},{},{'color':0,'kind':'GI'},{},{},"
	    "{},{},{'color':0,'kind':'OU'}],"
	    NO_FILE "," NO_FILE "," NO_FILE "," NO_FILE "],"
	    "'hands':[{'FU':0,'KY':0,'KE':0,"
	    "'GI':0,'KI':0,'KA':0,'HI':0},{'FU':0,'KY':0,'KE':0,'GI':0,"
	    "'KI':0,'KA':0,'HI':0}]}},'moves':[{},"
	    "{'move':{'color':0,'from':{'x':5,'y':4},'to':{'x':5,'y':3},"
	    "'piece':'GI','promote':false}},"
	    "{'move':{'color':1,'from':{'x':5,'y':1},'to':{'x':4,'y':1},"
	    "'piece':'OU'}},"
	    "{'move':{'color':0,'from':{'x':5,'y':3},'to':{'x':4,'y':4},"
	    "'piece':'GI','promote':false}}]}" },
	/* 打 when a board piece could go there too; 左 for two golds */
	{ "relative words", "position sfen 4k4/9/9/9/9/9/9/3G1G3/4K1S2 b S 1 "
	    "moves S*3h 5a5b 6h5h",
	    NULL },
};

static void
test_write_case(void **state)
{
	const struct write_case *c = *state;
	struct session s;
	json_t *got;

	read_usi(&s, c->usi);
	if (c->jkf) {
		assert_writes(&s.r, &s.d, c->jkf);
	} else {
		json_t *m;

		/* only the moves are looked at */
		got = write_json(&s.r, &s.d);
		m = json_object_get(json_array_get(json_object_get(got,
		    "moves"), 1), "move");
		assert_string_equal(json_string_value(json_object_get(m,
		    "relative")), "H");
		assert_null(json_object_get(m, "from"));
		m = json_object_get(json_array_get(json_object_get(got,
		    "moves"), 3), "move");
		assert_string_equal(json_string_value(json_object_get(m,
		    "relative")), "L");
		json_decref(got);
	}
	assert_no_diags(&s.d);
	session_close(&s);
}

/* A line stops before a move the rules refused, with one warning. */
static void
test_jkf_write_unresolved(void **state)
{
	struct session s;
	struct replay rp;

	(void)state;
	session_openq(&s, "{'header':{},'moves':[{}," MV(0, 7, 7, 7, 6, "FU")
	    ",{'move':{'color':1,'from':{'x':3,'y':3},'to':{'x':3,'y':5},"
	    "'piece':'FU'},'forks':[[" MV(1, 3, 3, 3, 4, "FU") ",{'move':"
	    "{'color':0,'from':{'x':2,'y':8},'to':{'x':2,'y':1},'piece':"
	    "'HI'}}]]}," MV(0, 2, 7, 2, 6, "FU") "]}");
	assert_int_equal(session_next(&s), READ_OK);
	assert_int_equal(replay_record(&s.r, &rp, &s.d), 2);
	diag_list_clear(&s.d);
	assert_writes(&s.r, &s.d, "{'header':{},'moves':[{},"
	    MV(0, 7, 7, 7, 6, "FU") "]}");
	assert_int_equal(s.d.n, 1);
	assert_diag(&s.d, DIAG_WARNING, DIAG_LIMIT, 1, 100);
	session_close(&s);
}

/*
 * A refused move the record's own terminal reports as the foul that
 * ended the game: the signed ILLEGAL_ACTION, the move as a comment.
 */
static void
test_jkf_write_foul(void **state)
{
	struct session s;
	struct replay rp;
	json_t *got, *e;

	(void)state;
	session_openq(&s, "{'header':{},'moves':[{}," MV(0, 7, 7, 7, 6, "FU")
	    "," MV(1, 3, 3, 3, 4, "FU") ",{'move':{'color':0,'from':{'x':2,"
	    "'y':8},'to':{'x':2,'y':2},'piece':'HI'}},{'special':"
	    "'ILLEGAL_ACTION','comments':['foul']}]}");
	assert_int_equal(session_next(&s), READ_OK);
	assert_int_equal(replay_record(&s.r, &rp, &s.d), 0);
	assert_true(rp.excused);
	diag_list_clear(&s.d);
	got = write_json(&s.r, &s.d);
	assert_int_equal(json_array_size(json_object_get(got, "moves")), 4);
	e = json_array_get(json_object_get(got, "moves"), 3);
	assert_string_equal(json_string_value(json_object_get(e, "special")),
	    "+ILLEGAL_ACTION");
	assert_int_equal(json_array_size(json_object_get(e, "comments")), 2);
	assert_non_null(strstr(json_string_value(json_array_get(
	    json_object_get(e, "comments"), 0)), "illegal move"));
	assert_string_equal(json_string_value(json_array_get(
	    json_object_get(e, "comments"), 1)), "foul");
	assert_int_equal(s.d.n, 1);
	assert_diag(&s.d, DIAG_WARNING, DIAG_LIMIT, 1, 174);
	json_decref(got);
	session_close(&s);
}

static void
test_jkf_write_minishogi(void **state)
{
	struct record r;
	struct diag_list d = DIAG_LIST_INIT;
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	record_init(&r, variant_minishogi());
	assert_int_equal(jkf_write(&r, NULL, &sb, &d), -1);
	assert_int_equal(d.errors, 1);
	assert_int_equal(sb.len, 0);
	strbuf_release(&sb);
	diag_list_release(&d);
	record_release(&r);
}

/* Strings that are not UTF-8 (no reader makes them) still give JSON. */
static void
test_jkf_write_bad_utf8(void **state)
{
	struct record r;
	struct diag_list d = DIAG_LIST_INIT;

	(void)state;
	record_init(&r, variant_standard());
	record_add_header(&r, "k\xff", 2, "v\xc3", 2, HDR_OTHER, NULL);
	record_add_comment(&r, 0, "a\xe3\x81", 3);
	assert_writes(&r, &d, "{'header':{'k\xef\xbf\xbd':'v\xef\xbf\xbd'},"
	    "'moves':[{'comments':['a\xef\xbf\xbd\xef\xbf\xbd']}]}");
	assert_int_equal(d.n, 1);
	assert_diag(&d, DIAG_WARNING, DIAG_LIMIT, 0, 0);
	diag_list_release(&d);
	record_release(&r);
}

/* ---- round trips of documents in the normalised form ---- */

static const char *const round_trips[] = {
	SAME_MOVE_DOC,
	FORKS_DOC,
	/* a handicap game: White moves first */
	"{'header':{'下手':'a','上手':'b'},'initial':{'preset':'KA'},"
	"'moves':[{'comments':['c']}," MV(1, 3, 3, 3, 4, "FU") ","
	MV(0, 7, 7, 7, 6, "FU") ",{'special':'TORYO'}]}",
	/* times, comments and a bookmark on every kind of entry */
	"{'header':{'先手':'x'},'initial':{'preset':'HIRATE'},'moves':["
	"{'comments':['first','&bm']},"
	"{'move':{'color':0,'from':{'x':7,'y':7},'to':{'x':7,'y':6},"
	"'piece':'FU'},'time':{'now':{'m':1,'s':0},'total':{'h':0,'m':1,"
	"'s':0}},'comments':['a','b']},"
	"{'special':'KACHI','time':{'now':{'m':0,'s':3},'total':{'h':2,"
	"'m':0,'s':3}},'comments':['&end']}]}",
};

static void
test_jkf_round_trips(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < NELEM(round_trips); i++)
		assert_round_trip(round_trips[i]);
}

/* ---- real files (testdata/jkf/<source>/, see testdata/README.md) ---- */

/* Reads a record file of the format (csa_read or jkf_read) and replays it. */
static int
read_file(struct session *s, const char *path, int jkf)
{
	size_t n;
	char *buf = slurp(path, &n);

	if (!buf)
		return -1;
	text_init(&s->t);
	diag_list_init(&s->d);
	assert_int_equal(text_decode(&s->t, buf, n, &s->d), 0);
	free(buf);
	reader_init(&s->rd, &s->t, variant_standard());
	record_init(&s->r, variant_standard());
	s->read = jkf_read;
	if (jkf)
		assert_int_equal(jkf_detect(&s->t), 100);
	assert_int_equal(jkf ? jkf_read(&s->rd, &s->r, &s->d) :
	    csa_read(&s->rd, &s->r, &s->d), READ_OK);
	assert_no_diags(&s->d);
	replay_ok(s);
	assert_no_diags(&s->d);
	return 0;
}

#define SKC "testdata/jkf/shogi-kifu-converter/data/tests/"

struct file_case {
	const char *jkf;	/* the expected JKF */
	const char *csa;	/* the record it was made from; NULL: none */
	const char *skip;	/* a member both sides leave out, or NULL */
};

static const struct file_case file_cases[] = {
	{ SKC "csa/WCSC32_F7_NBS_DLS.json",
	    "testdata/csa/shogi-kifu-converter/data/tests/csa/"
	    "WCSC32_F7_NBS_DLS.csa", NULL },
	{ SKC "csa/floodgate.json",
	    "testdata/csa/shogi-kifu-converter/data/tests/csa/floodgate.csa",
	    NULL },
	{ SKC "csa/initial_2.json",
	    "testdata/csa/shogi-kifu-converter/data/tests/csa/initial_2.csa",
	    NULL },
	{ SKC "csa/initial_4.json",
	    "testdata/csa/shogi-kifu-converter/data/tests/csa/initial_4.csa",
	    NULL },
	{ SKC "csa/initial_6.json",
	    "testdata/csa/shogi-kifu-converter/data/tests/csa/initial_6.csa",
	    NULL },
	{ SKC "csa/initial_hi.json",
	    "testdata/csa/shogi-kifu-converter/data/tests/csa/initial_hi.csa",
	    NULL },
	{ SKC "csa/initial_hirate.json",
	    "testdata/csa/shogi-kifu-converter/data/tests/csa/"
	    "initial_hirate.csa", NULL },
	{ SKC "csa/initial_ka.json",
	    "testdata/csa/shogi-kifu-converter/data/tests/csa/initial_ka.csa",
	    NULL },
	{ SKC "csa/initial_ky.json",
	    "testdata/csa/shogi-kifu-converter/data/tests/csa/initial_ky.csa",
	    NULL },
	{ SKC "csa/tsumeshogi.json",
	    "testdata/csa/shogi-kifu-converter/data/tests/csa/tsumeshogi.csa",
	    NULL },
	{ SKC "csa/v22.json",
	    "testdata/csa/shogi-kifu-converter/data/tests/csa/v22.csa", NULL },
	{ SKC "kif/Shogidokoro.json", NULL, NULL },
	{ SKC "kif/empty.json", NULL, NULL },
	{ SKC "kif/everyday_20211107.json", NULL, NULL },
	{ SKC "kif/everyday_20220604.json", NULL, NULL },
	{ SKC "kif/example.json", NULL, NULL },
	{ SKC "kif/forks.json", NULL, NULL },
	{ SKC "kif/oui202106290101.json", NULL, NULL },
	{ SKC "kif/piyo-shogi_KY.json", NULL, NULL },
	{ SKC "ki2/4.json", NULL, NULL },
	/*
	 * ▲５九銀左 in the KI2: the other silver, on 4八, is pinned against
	 * the king on 4七 by the dragon on 4九, so it cannot go to 5九 and
	 * JSA notation needs no 左. core/notation.c counts legal moves only,
	 * as the rule says ("can move there"); shogi-kifu-converter kept the
	 * word the KI2 wrote.
	 */
	{ SKC "ki2/simple.json", NULL, "moves[55].move.relative" },
	{ "testdata/jkf/json-kifu-format/test/files/jkf/"
	    "ryuou201409020101.jkf", NULL, NULL },
	{ "testdata/jkf/json-kifu-format/test/files/jkf/"
	    "same_move_minimal.jkf", NULL, NULL },
	{ "testdata/jkf/ruby-json-kifu-format/spec/fixtures/jkf/"
	    "ryuou201409020101.jkf", NULL, NULL },
	{ "testdata/jkf/tsshogi/src/tests/testdata/jkf/sample01.jkf", NULL,
	    NULL },
	{ "testdata/jkf/tsshogi/src/tests/testdata/jkf/sample02.jkf", NULL,
	    NULL },
	{ "testdata/jkf/tsshogi/src/tests/testdata/jkf/sample03.jkf", NULL,
	    NULL },
	{ "testdata/jkf/tsshogi/src/tests/testdata/jkf/sample04.jkf", NULL,
	    NULL },
	{ "testdata/jkf/tsshogi/src/tests/testdata/jkf/sample05.jkf", NULL,
	    NULL },
};

/*
 * shogi-kifu-converter keeps only the CSA comments after the start
 * position (after the "+" line) for moves[0]; the CSA reader keeps every
 * comment before the first move there, the file's first line and
 * floodgate's 'Max_Moves included, since nothing else holds them. Theirs
 * must be the end of ours; then both are set aside.
 */
static void
compare_root_comments(json_t *got, json_t *want)
{
	json_t *g = json_array_get(json_object_get(got, "moves"), 0);
	json_t *w = json_array_get(json_object_get(want, "moves"), 0);
	json_t *gc = json_object_get(g, "comments");
	json_t *wc = json_object_get(w, "comments");
	size_t i, gn = json_array_size(gc), wn = json_array_size(wc);

	assert_true(gn >= wn);
	for (i = 0; i < wn; i++)
		assert_true(json_equal(json_array_get(gc, gn - wn + i),
		    json_array_get(wc, i)));
	json_object_del(g, "comments");
	json_object_del(w, "comments");
}

static void
test_file_case(void **state)
{
	const struct file_case *c = *state;
	struct session s;
	size_t n;
	char *text = slurp(c->jkf, &n);
	json_t *want, *got;

	if (!text) {
		skip();
		return;
	}
	want = parse_json(text, n);
	free(text);
	if (c->skip)
		delete_path(want, c->skip, 1);
	/* JKF -> record -> JKF */
	assert_int_equal(read_file(&s, c->jkf, 1), 0);
	got = write_json(&s.r, &s.d);
	assert_no_diags(&s.d);
	if (c->skip)
		delete_path(got, c->skip, 0);
	assert_json_equal(got, want);
	json_decref(got);
	session_close(&s);
	/* CSA -> record -> JKF */
	if (c->csa) {
		assert_int_equal(read_file(&s, c->csa, 0), 0);
		got = write_json(&s.r, &s.d);
		assert_no_diags(&s.d);
		compare_root_comments(got, want);
		assert_json_equal(got, want);
		json_decref(got);
		session_close(&s);
	}
	json_decref(want);
}

/* ---- the test list ---- */

#define N_FIXED 24
#define N_TESTS (N_FIXED + NELEM(detect_cases) + NELEM(preset_cases) + \
	NELEM(board_cases) + NELEM(special_cases) + NELEM(error_cases) + \
	NELEM(write_cases) + NELEM(file_cases))

static void
add_cases(struct CMUnitTest *tests, char (*names)[128], size_t *n,
    const char *prefix, CMUnitTestFunction f, const void *cases,
    size_t size, size_t count)
{
	size_t i;

	for (i = 0; i < count; i++, (*n)++) {
		const void *c = (const char *)cases + i * size;

		/* Every case table starts with a name, a word or a path. */
		snprintf(names[*n], sizeof(names[*n]), "%s: %s", prefix,
		    *(const char *const *)c);
		tests[*n].name = names[*n];
		tests[*n].test_func = f;
		tests[*n].setup_func = NULL;
		tests[*n].teardown_func = NULL;
		tests[*n].initial_state = (void *)(uintptr_t)c;
	}
}

#define ADD(prefix, f, table) add_cases(tests, names, &n, prefix, f, \
	table, sizeof(table[0]), NELEM(table))

int
main(int argc, char **argv)
{
	static struct CMUnitTest tests[N_TESTS];
	static char names[N_TESTS][128];
	static const struct CMUnitTest fixed[] = {
		cmocka_unit_test(test_jkf_no_initial_is_even),
		cmocka_unit_test(test_jkf_impossible_boards),
		cmocka_unit_test(test_jkf_moves),
		cmocka_unit_test(test_jkf_move_flags),
		cmocka_unit_test(test_jkf_times),
		cmocka_unit_test(test_jkf_write_times),
		cmocka_unit_test(test_jkf_comments),
		cmocka_unit_test(test_jkf_headers),
		cmocka_unit_test(test_jkf_write_csa_headers),
		cmocka_unit_test(test_jkf_write_repeated_header),
		cmocka_unit_test(test_jkf_write_illegal_win_white),
		cmocka_unit_test(test_jkf_write_sealed),
		cmocka_unit_test(test_jkf_after_special),
		cmocka_unit_test(test_jkf_forks),
		cmocka_unit_test(test_jkf_deep_forks),
		cmocka_unit_test(test_jkf_forks_too_deep),
		cmocka_unit_test(test_jkf_unknown_keys_warn_once),
		cmocka_unit_test(test_jkf_duplicate_key),
		cmocka_unit_test(test_jkf_empty_and_eof),
		cmocka_unit_test(test_jkf_write_unresolved),
		cmocka_unit_test(test_jkf_write_foul),
		cmocka_unit_test(test_jkf_write_minishogi),
		cmocka_unit_test(test_jkf_write_bad_utf8),
		cmocka_unit_test(test_jkf_round_trips),
	};
	size_t i, n = 0;

	_Static_assert(sizeof(fixed) / sizeof(fixed[0]) == N_FIXED,
	    "N_FIXED is the length of fixed[]");
	core_init();
	for (i = 0; i < NELEM(fixed); i++)
		tests[n++] = fixed[i];
	ADD("detect", test_detect_case, detect_cases);
	ADD("preset", test_preset_case, preset_cases);
	ADD("board", test_board_case, board_cases);
	ADD("special", test_special_case, special_cases);
	ADD("error", test_error_case, error_cases);
	ADD("write", test_write_case, write_cases);
	ADD("file", test_file_case, file_cases);
	if (n != N_TESTS) {
		fprintf(stderr, "test list has %zu tests, not %zu\n", n,
		    (size_t)N_TESTS);
		return 1;
	}
	if (argc > 1)
		cmocka_set_test_filter(argv[1]);
	return cmocka_run_group_tests_name("parsers/jkf", tests, NULL, NULL);
}
