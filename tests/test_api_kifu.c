/*
 * The public library, include/kifu/kifu.h (api/kifu.c), used as a
 * program that includes only that header would use it: reading files and
 * buffers, verdicts, headers, the move tree, writing, exporting, errors,
 * options, and two threads reading at once.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "kifu/kifu.h"

#define KIF_DIR "testdata/kif/json-kifu-format/test/files/kif/"
#define TRAINING "testdata/training/"

static const kifu_record *
read_one(const char *path, const kifu_options *o, kifu_file **f)
{
	kifu_error *e = NULL;

	if (kifu_read_file(path, o, f, &e) != KIFU_OK)
		fail_msg("%s: %s", path, e ? kifu_error_message(e) : "?");
	assert_null(e);
	assert_true(kifu_file_count(*f) >= 1);
	return kifu_file_record(*f, 0);
}

static void
test_api_read_verdict(void **state)
{
	kifu_file *f;
	const kifu_record *r;

	(void)state;
	r = read_one(KIF_DIR "fork.kif", NULL, &f);
	assert_string_equal(kifu_file_format(f), "kif");
	assert_string_equal(kifu_file_encoding(f), "CP932");
	assert_string_equal(kifu_file_name(f), KIF_DIR "fork.kif");
	assert_string_equal(kifu_record_status(r), "ok");
	assert_int_equal(kifu_record_moves(r), 3);
	assert_string_equal(kifu_record_result_winner(r), "black");
	assert_string_equal(kifu_record_result_reason(r), "resign");
	assert_int_equal(kifu_record_result_ply(r), 3);
	assert_string_equal(kifu_record_recorded_reason(r), "resign");
	assert_string_equal(kifu_record_recorded_terminal(r), "投了");
	assert_string_equal(kifu_record_rules(r), "jsa");
	assert_string_equal(kifu_record_rules_from(r), "auto");
	assert_null(kifu_record_rules_evidence(r));
	assert_int_equal(kifu_record_consistent(r), 1);
	assert_null(kifu_record_error(r));
	assert_string_equal(kifu_record_start_sfen(r),
	    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1");
	assert_string_equal(kifu_record_final_sfen(r),
	    "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P4P1/PP1PPPP1P/1B5R1/LNSGKGSNL "
	    "w - 4");
	/* The JSON line is validate's. */
	assert_non_null(strstr(kifu_record_json(r), "\"status\": \"ok\""));
	assert_null(strchr(kifu_record_json(r), '\n'));
	kifu_file_free(f);
}

static void
test_api_headers(void **state)
{
	kifu_file *f;
	const kifu_record *r;
	size_t i, n;
	int seen = 0;

	(void)state;
	r = read_one(TRAINING "records/r1-floodgate-2021.csa", NULL, &f);
	n = kifu_record_header_count(r);
	assert_true(n > 3);
	for (i = 0; i < n; i++)
		if (!strcmp(kifu_record_header_kind(r, i), "event")) {
			assert_string_equal(kifu_record_header_key(r, i),
			    "EVENT");
			seen = 1;
		}
	assert_true(seen);
	assert_string_equal(kifu_record_header(r, "black"), "10b_n003_1060");
	assert_null(kifu_record_header(r, "opening"));
	assert_null(kifu_record_header_key(r, n));
	assert_string_equal(kifu_record_rules_from(r), "auto");
	assert_non_null(kifu_record_rules_evidence(r));
	assert_true(kifu_record_rules_evidence_line(r) > 0);
	kifu_file_free(f);
}

static void
test_api_nodes(void **state)
{
	kifu_file *f;
	const kifu_record *r;
	kifu_node n, v;
	char buf[200];
	int moves = 0, alternatives = 0;

	(void)state;
	r = read_one(KIF_DIR "fork.kif", NULL, &f);
	/* The main line: three moves and a terminal. */
	for (n = kifu_node_next(r, 0); n >= 0; n = kifu_node_next(r, n))
		if (kifu_node_is_move(r, n))
			moves++;
		else
			assert_string_equal(kifu_node_terminal(r, n), "resign");
	assert_int_equal(moves, 3);
	n = kifu_node_next(r, 0);
	assert_int_equal(kifu_node_ply(r, n), 1);
	assert_int_equal(kifu_node_usi(r, n, buf, sizeof(buf)), 4);
	assert_string_equal(buf, "7g7f");
	assert_true(kifu_node_kif(r, n, buf, sizeof(buf)) > 0);
	assert_string_equal(buf, "７六歩(77)");
	assert_int_equal(kifu_node_time_ms(r, n), 2000);
	assert_true(kifu_node_sfen(r, n, buf, sizeof(buf)) > 0);
	assert_string_equal(buf, "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/"
	    "1B5R1/LNSGKGSNL w - 2");
	/* A small buffer is cut, and told the length it needed. */
	assert_int_equal(kifu_node_usi(r, n, buf, 3), 4);
	assert_string_equal(buf, "7g");
	/* Variations branch off the main line's moves. */
	for (n = kifu_node_next(r, 0); n >= 0; n = kifu_node_next(r, n))
		for (v = kifu_node_alternative(r, n); v >= 0;
		    v = kifu_node_alternative(r, v)) {
			alternatives++;
			assert_int_equal(kifu_node_parent(r, v),
			    kifu_node_parent(r, n));
		}
	assert_true(alternatives >= 3);
	/* The start, and no move there. */
	assert_true(kifu_node_sfen(r, 0, buf, sizeof(buf)) > 0);
	assert_string_equal(buf, kifu_record_start_sfen(r));
	assert_int_equal(kifu_node_usi(r, 0, buf, sizeof(buf)), -1);
	assert_int_equal(kifu_node_next(r, 100000), -1);
	kifu_file_free(f);
}

static void
test_api_findings(void **state)
{
	/* White takes a pawn and drops it on file 8, its pawn's. */
	static const char game[] = "V2.2\nPI\n+\n+2726FU\n-8384FU\n+2625FU\n"
	    "-8485FU\n+2524FU\n-2324FU\n+6978KI\n-0083FU\n";
	kifu_file *f;
	kifu_error *e = NULL;
	const kifu_record *r;
	const kifu_error *x;

	(void)state;
	assert_int_equal(kifu_read_buffer(game, strlen(game), "nifu.csa", NULL,
	    &f, &e), KIFU_OK);
	r = kifu_file_record(f, 0);
	assert_string_equal(kifu_record_status(r), "illegal");
	x = kifu_record_error(r);
	assert_non_null(x);
	assert_string_equal(kifu_error_id(x), "nifu");
	assert_string_equal(kifu_error_severity(x), "error");
	assert_string_equal(kifu_error_file(x), "nifu.csa");
	assert_int_equal(kifu_error_line(x), 11);
	assert_int_equal(kifu_error_column(x), 1);
	assert_int_equal(kifu_error_ply(x), 8);
	assert_non_null(strstr(kifu_error_message(x), "nifu.csa:11:1: error:"));
	assert_int_equal(kifu_record_moves(r), 7);
	assert_true(kifu_record_finding_count(r) >= 1);
	kifu_file_free(f);
}

static void
test_api_errors(void **state)
{
	static const char junk[] = "this is no record\nat all\n";
	kifu_file *f = (kifu_file *)&f;
	kifu_error *e = NULL;

	(void)state;
	assert_int_equal(kifu_read_file("testdata/no/such.kif", NULL, &f, &e),
	    KIFU_ERR_IO);
	assert_null(f);
	assert_string_equal(kifu_error_id(e), "io");
	assert_non_null(strstr(kifu_error_message(e), "testdata/no/such.kif"));
	kifu_error_free(e);
	assert_int_equal(kifu_read_buffer(junk, strlen(junk), NULL, NULL, &f,
	    &e), KIFU_ERR_READ);
	assert_string_equal(kifu_error_id(e), "unknown-format");
	assert_string_equal(kifu_error_file(e), "<buffer>");
	kifu_error_free(e);
	assert_int_equal(kifu_read_buffer("\x82\xa0\xff\xfe", 4, "x.kif", NULL,
	    &f, &e), KIFU_ERR_READ);
	assert_string_equal(kifu_error_id(e), "encoding");
	kifu_error_free(e);
	/* err may be NULL. */
	assert_int_equal(kifu_read_buffer(junk, strlen(junk), NULL, NULL, &f,
	    NULL), KIFU_ERR_READ);
	kifu_error_free(NULL);
	kifu_file_free(NULL);
}

static void
test_api_options(void **state)
{
	kifu_options *o = kifu_options_new();
	kifu_error *e = NULL;
	kifu_file *f;
	const kifu_record *r;

	(void)state;
	assert_int_equal(kifu_options_set(o, "speed", "9", &e), KIFU_ERR_ARG);
	assert_non_null(strstr(kifu_error_message(e), "speed"));
	kifu_error_free(e);
	assert_int_equal(kifu_options_set(o, "rules", "fide", &e),
	    KIFU_ERR_ARG);
	kifu_error_free(e);
	assert_int_equal(kifu_options_set(o, "rule.max-moves", "x", NULL),
	    KIFU_ERR_ARG);
	/* An override, then a set: the override stays, as on the command line. */
	assert_int_equal(kifu_options_set(o, "rule.declaration", "27", &e),
	    KIFU_OK);
	assert_null(e);
	assert_int_equal(kifu_options_set(o, "rules", "jsa", &e), KIFU_OK);
	r = read_one("testdata/rules/kachi-28.csa", o, &f);
	assert_string_equal(kifu_record_rules(r), "jsa,declaration=27");
	assert_string_equal(kifu_record_rules_from(r), "option");
	assert_string_equal(kifu_record_status(r), "ok");
	kifu_file_free(f);
	assert_int_equal(kifu_options_set(o, "rule.declaration", "24", &e),
	    KIFU_OK);
	r = read_one("testdata/rules/kachi-28.csa", o, &f);
	assert_string_equal(kifu_record_status(r), "mismatch");
	assert_int_equal(kifu_record_consistent(r), 0);
	kifu_file_free(f);
	assert_int_equal(kifu_options_set(o, "result-check", "no", &e),
	    KIFU_OK);
	r = read_one("testdata/rules/kachi-28.csa", o, &f);
	assert_string_equal(kifu_record_status(r), "ok");
	assert_int_equal(kifu_record_consistent(r), -1);
	kifu_file_free(f);
	kifu_options_free(o);
}

static void
test_api_write(void **state)
{
	kifu_file *f, *g;
	kifu_error *e = NULL;
	const kifu_record *r;
	kifu_options *o = kifu_options_new();
	char *text;
	size_t len;

	(void)state;
	r = read_one(TRAINING "records/r1-floodgate-2021.csa", NULL, &f);
	assert_int_equal(kifu_record_write(r, "kif", NULL, &text, &len, &e),
	    KIFU_OK);
	assert_null(e);
	/* .kif is CP932 unless said otherwise, and the text says so. */
	assert_non_null(strstr(text, "encoding=Shift_JIS"));
	assert_int_equal(strlen(text), len);
	assert_int_equal(kifu_read_buffer(text, len, "again.kif", NULL, &g,
	    &e), KIFU_OK);
	assert_string_equal(kifu_record_final_sfen(kifu_file_record(g, 0)),
	    kifu_record_final_sfen(r));
	kifu_free(text);
	kifu_file_free(g);
	/* USI holds no comments: under strict, that loss is an error. */
	assert_int_equal(kifu_options_set(o, "strict", "yes", NULL), KIFU_OK);
	assert_int_equal(kifu_record_write(r, "usi", o, &text, &len, &e),
	    KIFU_ERR_WRITE);
	assert_null(text);
	kifu_error_free(e);
	assert_int_equal(kifu_options_set(o, "strict", "no", NULL), KIFU_OK);
	assert_int_equal(kifu_options_set(o, "ply", "2", NULL), KIFU_OK);
	assert_int_equal(kifu_record_write(r, "sfen", o, &text, &len, NULL),
	    KIFU_OK);
	assert_string_equal(text, "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/7P1/"
	    "PPPPPPP1P/1B5R1/LNSGKGSNL b - 3\n");
	kifu_free(text);
	assert_int_equal(kifu_record_write(r, "nope", NULL, &text, &len, &e),
	    KIFU_ERR_ARG);
	kifu_error_free(e);
	kifu_options_free(o);
	kifu_file_free(f);
}

/*
 * Writing keeps the rule set the record's text points at, as convert
 * does: KIF cannot hold a server's T lines, so a rules header states
 * the set; without it ("rules-header" "no") the foul after mate the
 * server allowed reads back as a disputed claim under the JSA rules.
 */
static void
test_api_rules_header(void **state)
{
	kifu_file *f, *g;
	kifu_error *e = NULL;
	const kifu_record *r, *back;
	kifu_options *o = kifu_options_new();
	char *text;
	size_t len;

	(void)state;
	r = read_one("testdata/rules/server-mate-then-foul.csa", NULL, &f);
	assert_string_equal(kifu_record_status(r), "ok");
	assert_string_equal(kifu_record_rules(r), "csa,max-moves=0");
	assert_int_equal(kifu_record_write(r, "kifu", NULL, &text, &len, &e),
	    KIFU_OK);
	assert_non_null(strstr(text, "\nkifu-rules：csa,max-moves=0\n"));
	assert_int_equal(kifu_read_buffer(text, len, "back.kifu", NULL, &g,
	    &e), KIFU_OK);
	back = kifu_file_record(g, 0);
	assert_string_equal(kifu_record_status(back), "ok");
	assert_string_equal(kifu_record_rules(back), "csa,max-moves=0");
	assert_string_equal(kifu_record_header(back, "rules"),
	    "csa,max-moves=0");
	assert_string_equal(kifu_record_rules_evidence(back),
	    "kifu-rules 'csa,max-moves=0'");
	kifu_free(text);
	/* Back in CSA the T lines say it again: no header. */
	assert_int_equal(kifu_file_write(g, "csa", NULL, &text, &len, &e),
	    KIFU_OK);
	assert_null(strstr(text, "KIFU_RULES"));
	kifu_free(text);
	kifu_file_free(g);
	assert_int_equal(kifu_options_set(o, "rules-header", "no", NULL),
	    KIFU_OK);
	assert_int_equal(kifu_record_write(r, "jkf", o, &text, &len, &e),
	    KIFU_OK);
	assert_null(strstr(text, "kifu-rules"));
	assert_int_equal(kifu_read_buffer(text, len, "bare.jkf", NULL, &g,
	    &e), KIFU_OK);
	assert_string_equal(kifu_record_status(kifu_file_record(g, 0)),
	    "mismatch");
	assert_string_equal(kifu_record_rules(kifu_file_record(g, 0)), "jsa");
	kifu_free(text);
	kifu_file_free(g);
	/* That loss is an error under strict, and USI always loses it. */
	assert_int_equal(kifu_options_set(o, "strict", "yes", NULL), KIFU_OK);
	assert_int_equal(kifu_record_write(r, "kifu", o, &text, &len, &e),
	    KIFU_ERR_WRITE);
	assert_non_null(strstr(kifu_error_message(e),
	    "gets no rules header (none asked for) to hold what judges "
	    "record 1 by csa,max-moves=0"));
	kifu_error_free(e);
	assert_int_equal(kifu_options_set(o, "rules-header", "maybe", &e),
	    KIFU_ERR_ARG);
	kifu_error_free(e);
	kifu_options_free(o);
	kifu_file_free(f);
}

/* KIF's 盤面回転: the flag, in the JSON, and kept by writing KIF. */
static void
test_api_flipped(void **state)
{
	static const char plain[] = "手合割：平手\n   1 ７六歩(77)\n";
	kifu_file *f, *g;
	kifu_error *e = NULL;
	const kifu_record *r;
	char *text;
	size_t len;

	(void)state;
	r = read_one("testdata/kif/kifu-samples/flipped.kif", NULL, &f);
	assert_int_equal(kifu_record_flipped(r), 1);
	assert_non_null(strstr(kifu_record_json(r), ", \"flipped\": true}"));
	assert_int_equal(kifu_record_write(r, "kifu", NULL, &text, &len, &e),
	    KIFU_OK);
	assert_non_null(strstr(text, "\n盤面回転\n"));
	assert_int_equal(kifu_read_buffer(text, len, "x.kifu", NULL, &g, &e),
	    KIFU_OK);
	assert_int_equal(kifu_record_flipped(kifu_file_record(g, 0)), 1);
	kifu_free(text);
	kifu_file_free(g);
	kifu_file_free(f);
	assert_int_equal(kifu_read_buffer(plain, strlen(plain), "p.kifu", NULL,
	    &f, &e), KIFU_OK);
	assert_int_equal(kifu_record_flipped(kifu_file_record(f, 0)), 0);
	assert_null(strstr(kifu_record_json(kifu_file_record(f, 0)),
	    "flipped"));
	kifu_file_free(f);
}

/* A file of several records: one text, or refused by a one-record format. */
static void
test_api_file_write(void **state)
{
	kifu_file *f;
	kifu_error *e = NULL;
	char *text, *p;
	size_t len;
	int lines = 0;

	(void)state;
	read_one("testdata/csa/kifu/multi.csa", NULL, &f);
	assert_true(kifu_file_count(f) == 3);
	assert_int_equal(kifu_file_write(f, "usi", NULL, &text, &len, &e),
	    KIFU_OK);
	for (p = text; *p; p++)
		lines += *p == '\n';
	assert_int_equal(lines, 3);
	kifu_free(text);
	assert_int_equal(kifu_file_write(f, "kif", NULL, &text, &len, &e),
	    KIFU_ERR_WRITE);
	assert_null(text);
	assert_string_equal(kifu_error_id(e), "limit");
	kifu_error_free(e);
	kifu_file_free(f);
}

static char *
slurp(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	char *buf;
	long n;

	if (!fp)
		fail_msg("cannot open %s", path);
	fseek(fp, 0, SEEK_END);
	n = ftell(fp);
	rewind(fp);
	buf = malloc((size_t)n + 1);
	if (fread(buf, 1, (size_t)n, fp) != (size_t)n)
		fail_msg("cannot read %s", path);
	fclose(fp);
	*len = (size_t)n;
	return buf;
}

/* The rows of the golden files, byte for byte (testdata/training). */
static void
test_api_export(void **state)
{
	static const char *const formats[] = { "hcpe", "psv", "hcpe3" };
	kifu_file *f;
	kifu_error *e = NULL;
	const kifu_record *r;
	void *none;
	size_t i;

	(void)state;
	r = read_one(TRAINING "records/r1-floodgate-2021.csa", NULL, &f);
	for (i = 0; i < 3; i++) {
		char path[128];
		void *rows;
		size_t len, n, glen;
		char *golden;

		snprintf(path, sizeof(path), TRAINING "r1-floodgate-2021.%s",
		    formats[i]);
		golden = slurp(path, &glen);
		assert_int_equal(kifu_record_export(r, formats[i], NULL, &rows,
		    &len, &n, &e), KIFU_OK);
		assert_true(n > 100);
		assert_int_equal(len, glen);
		assert_memory_equal(rows, golden, len);
		kifu_free(rows);
		free(golden);
	}
	kifu_file_free(f);
	/* A problem has one king: no 256-bit code holds it. */
	r = read_one("testdata/rules/long-problem.usi", NULL, &f);
	assert_int_equal(kifu_record_export(r, "hcpe", NULL, &none, NULL, NULL,
	    &e), KIFU_ERR_SKIP);
	assert_null(none);
	assert_string_equal(kifu_error_id(e), "no-king");
	kifu_error_free(e);
	kifu_file_free(f);
}

struct worker {
	const char *path;
	char sfen[200];
};

static void *
reader(void *arg)
{
	struct worker *w = arg;
	int k;

	for (k = 0; k < 20; k++) {
		kifu_file *f;

		if (kifu_read_file(w->path, NULL, &f, NULL) != KIFU_OK)
			return NULL;
		snprintf(w->sfen, sizeof(w->sfen), "%s",
		    kifu_record_final_sfen(kifu_file_record(f, 0)));
		kifu_file_free(f);
	}
	return w;
}

/* No shared state: two threads read at once and get what one would. */
static void
test_api_threads(void **state)
{
	struct worker w[2] = {
		{ TRAINING "records/r1-floodgate-2021.csa", "" },
		{ KIF_DIR "fork.kif", "" },
	};
	pthread_t t[2];
	kifu_file *f;
	int i;

	(void)state;
	for (i = 0; i < 2; i++)
		assert_int_equal(pthread_create(&t[i], NULL, reader, &w[i]), 0);
	for (i = 0; i < 2; i++) {
		void *ret;

		assert_int_equal(pthread_join(t[i], &ret), 0);
		assert_ptr_equal(ret, &w[i]);
		assert_string_equal(w[i].sfen, kifu_record_final_sfen(
		    read_one(w[i].path, NULL, &f)));
		kifu_file_free(f);
	}
}

/* The names kifu tag gives; the record is left as it was read. */
static void
test_api_tags(void **state)
{
	kifu_file *f;
	const kifu_record *r;
	kifu_definitions *d;
	kifu_error *e = NULL;
	char *out, *again, sfen[200];

	(void)state;
	r = read_one("testdata/tags/records/mukai.ki2u", NULL, &f);
	snprintf(sfen, sizeof(sfen), "%s", kifu_record_final_sfen(r));
	assert_int_equal(kifu_record_tags(r, NULL, &out, &e), KIFU_OK);
	assert_null(e);
	assert_true(out[0] == '{' && out[strlen(out) - 1] == '}');
	assert_non_null(strstr(out, "\"named\": true"));
	assert_non_null(strstr(out, "\"matchup\": \"対抗型\""));
	assert_non_null(strstr(out, "\"name\": \"向かい飛車\", "
	    "\"family\": \"向飛車\", \"definition\": \"builtin:"));
	assert_int_equal(kifu_record_tags(r, NULL, &again, NULL), KIFU_OK);
	assert_string_equal(out, again);
	assert_string_equal(kifu_record_final_sfen(r), sfen);
	kifu_free(again);

	/* A file's definitions over kifu's own: 居玉 off. */
	assert_int_equal(kifu_definitions_read(
	    "testdata/tags/definitions/override.def", &d, &e), KIFU_OK);
	assert_int_equal(kifu_record_tags(r, d, &again, NULL), KIFU_OK);
	assert_null(strstr(again, "居玉"));
	kifu_free(again);
	kifu_definitions_free(d);
	kifu_free(out);
	kifu_file_free(f);

	r = read_one("testdata/tags/records/minishogi.kifu", NULL, &f);
	assert_int_equal(kifu_record_tags(r, NULL, &out, NULL), KIFU_OK);
	assert_string_equal(out, "{\"named\": false, \"why\": \"minishogi\"}");
	kifu_free(out);
	kifu_file_free(f);

	assert_int_equal(kifu_definitions_read(
	    "testdata/tags/definitions/bad-square.def", &d, &e), KIFU_ERR_READ);
	assert_null(d);
	assert_int_equal(kifu_error_line(e), 2);
	kifu_error_free(e);
	assert_int_equal(kifu_definitions_read("testdata/tags/no-such.def",
	    &d, &e), KIFU_ERR_IO);
	kifu_error_free(e);
}

static void
test_api_version(void **state)
{
	char want[32];

	(void)state;
	snprintf(want, sizeof(want), "%d.%d.%d", KIFU_VERSION_MAJOR,
	    KIFU_VERSION_MINOR, KIFU_VERSION_PATCH);
	assert_string_equal(kifu_version(), want);
}

/* The mate solver: answers, lines in both notations, errors by id. */
static void
test_api_mate(void **state)
{
	kifu_options *o = kifu_options_new();
	kifu_error *e = NULL;
	kifu_mate *m = NULL;

	(void)state;
	assert_int_equal(kifu_mate_solve("4k4/9/4P4/9/9/9/9/9/9 b G 1", NULL,
	    &m, &e), KIFU_OK);
	assert_null(e);
	assert_string_equal(kifu_mate_status(m), "mate");
	assert_int_equal(kifu_mate_length(m), 1);
	assert_int_equal(kifu_mate_line_count(m), 1);
	assert_string_equal(kifu_mate_line_usi(m, 0), "G*5b");
	assert_string_equal(kifu_mate_line_kif(m, 0), "▲５二金打");
	assert_null(kifu_mate_line_usi(m, 1));
	assert_string_equal(kifu_mate_stop(m), "");
	assert_non_null(strstr(kifu_mate_json(m), "\"status\": \"mate\""));
	kifu_mate_free(m);

	/* Problem rules: futile interpositions do not count. */
	assert_int_equal(kifu_options_set(o, "mate.rules", "problem", &e),
	    KIFU_OK);
	assert_int_equal(kifu_mate_solve("5pk2/7P1/4+R1+P1+b/8b/6R2/9/9/9/9 "
	    "b 4g4s4n4l15p 1", o, &m, &e), KIFU_OK);
	assert_int_equal(kifu_mate_length(m), 3);
	assert_string_equal(kifu_mate_line_kif(m, 2), "▲３三龍(53)");
	kifu_mate_free(m);

	assert_int_equal(kifu_mate_solve("4k4/9/9/9/9/9/9/9/9 b G 1", NULL,
	    &m, &e), KIFU_OK);
	assert_string_equal(kifu_mate_status(m), "nomate");
	assert_int_equal(kifu_mate_length(m), -1);
	kifu_mate_free(m);

	/* Out of nodes: unknown, and why. */
	assert_int_equal(kifu_options_set(o, "mate.rules", "game", &e),
	    KIFU_OK);
	assert_int_equal(kifu_options_set(o, "mate.nodes", "50", &e),
	    KIFU_OK);
	assert_int_equal(kifu_mate_solve("4RB1k1/5s3/7n1/5s1LP/9/7r1/9/9/6K2 "
	    "b b4g2s3n3l17p 1", o, &m, &e), KIFU_OK);
	assert_string_equal(kifu_mate_status(m), "unknown");
	assert_string_equal(kifu_mate_stop(m), "nodes");
	kifu_mate_free(m);

	assert_int_equal(kifu_mate_solve("9/9/9/9/9/9/9/9/9 b G 1", NULL, &m,
	    &e), KIFU_ERR_ARG);
	assert_null(m);
	assert_string_equal(kifu_error_id(e), "no-kings");
	kifu_error_free(e);
	assert_int_equal(kifu_mate_solve("junk", NULL, &m, &e), KIFU_ERR_READ);
	assert_string_equal(kifu_error_id(e), "syntax");
	kifu_error_free(e);
	assert_int_equal(kifu_options_set(o, "mate.rules", "jsa", &e),
	    KIFU_ERR_ARG);
	kifu_error_free(e);
	assert_int_equal(kifu_options_set(o, "mate.memory", "10K", &e),
	    KIFU_ERR_ARG);
	kifu_error_free(e);
	kifu_options_free(o);
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_api_version),
		cmocka_unit_test(test_api_read_verdict),
		cmocka_unit_test(test_api_headers),
		cmocka_unit_test(test_api_nodes),
		cmocka_unit_test(test_api_findings),
		cmocka_unit_test(test_api_errors),
		cmocka_unit_test(test_api_options),
		cmocka_unit_test(test_api_write),
		cmocka_unit_test(test_api_file_write),
		cmocka_unit_test(test_api_rules_header),
		cmocka_unit_test(test_api_flipped),
		cmocka_unit_test(test_api_export),
		cmocka_unit_test(test_api_threads),
		cmocka_unit_test(test_api_mate),
		cmocka_unit_test(test_api_tags),
	};

	if (argc > 1)
		cmocka_set_test_filter(argv[1]);
	return cmocka_run_group_tests_name("api/kifu", tests, NULL, NULL);
}
