/*
 * test_api_problems.c - the reader of problem lines (api/problems.h):
 * the forms of a line, comments and blank lines, line ends, errors at
 * their lines, and hostile streams: garbage, NUL bytes, a line longer
 * than the limit, millions of lines read in bounded memory.
 */
#include "helpers.h"

#include <stdio.h>
#include <stdlib.h>

#include "api/problems.h"
#include "core/sfen.h"

/* A stream of the text (a temporary file: fmemopen has no fileno). */
static FILE *
stream(const char *text, size_t n)
{
	FILE *f = tmpfile();

	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, n, f), n);
	rewind(f);
	return f;
}

struct got {
	int n;
	size_t line[16];
	char sfen[16][SFEN_MAX];
	const char *id[16];
};

static int
read_all(const char *text, size_t n, struct got *g)
{
	struct problem_reader pr;
	struct problem p;
	FILE *f = stream(text, n);
	int sniff;

	memset(g, 0, sizeof(*g));
	problem_reader_init(&pr, f, variant_standard(), -1);
	problem_init(&p);
	sniff = problem_reader_sniff(&pr);
	if (sniff > 0)
		while (problem_reader_next(&pr, &p) > 0 && g->n < 16) {
			const struct diag *e = diag_first_error(&p.d);

			g->line[g->n] = p.line;
			g->id[g->n] = e ? e->id : NULL;
			if (!e)
				sfen_write(&p.pos, g->sfen[g->n]);
			g->n++;
		}
	problem_release(&p);
	problem_reader_release(&pr);
	fclose(f);
	return sniff;
}

static void
test_forms(void **state)
{
	static const char text[] =
	    "\xef\xbb\xbf# a mate set\n"
	    "\n"
	    "4k4/9/4P4/9/9/9/9/9/9 b G 1\r\n"
	    "sfen 4k4/9/4P4/9/9/9/9/9/9 b G\n"
	    "position sfen 4k4/9/4P4/9/9/9/9/9/9 b G 1 moves 5c5b+ 5a5b\n"
	    "  # indented comment\n"
	    "startpos moves 7g7f\n"
	    "position startpos";
	struct got g;

	(void)state;
	assert_int_equal(read_all(text, strlen(text), &g), 1);
	assert_int_equal(g.n, 5);
	assert_int_equal(g.line[0], 3);
	assert_string_equal(g.sfen[0], "4k4/9/4P4/9/9/9/9/9/9 b G 1");
	assert_int_equal(g.line[1], 4);
	assert_string_equal(g.sfen[1], "4k4/9/4P4/9/9/9/9/9/9 b G 1");
	assert_int_equal(g.line[2], 5);
	assert_string_equal(g.sfen[2], "9/4k4/9/9/9/9/9/9/9 b Gp 3");
	assert_int_equal(g.line[3], 7);
	assert_int_equal(g.line[4], 8);	/* no final newline */
	assert_null(g.id[4]);
}

static void
test_errors_at_their_lines(void **state)
{
	static const char text[] =
	    "4k4/9/4P4/9/9/9/9/9/9 b G 1\n"
	    "garbage here\n"
	    "sfen 4k4/9/4P4/9/9/9/9/9/9 b G 1 moves 5c5b 5c5d\n"
	    "sfen 4k4/9/4P4/9/9/9/9/9/9 b G 1 moves P*5b\n"
	    "4k4/9/4P4/9/9/9/9/9/9 b G 1\n";
	struct got g;

	(void)state;
	assert_int_equal(read_all(text, strlen(text), &g), 1);
	assert_int_equal(g.n, 5);
	assert_null(g.id[0]);
	assert_int_equal(g.line[1], 2);
	assert_string_equal(g.id[1], "syntax");
	/* Illegal moves are judged by replay, with its rule ids. */
	assert_int_equal(g.line[2], 3);
	assert_string_equal(g.id[2], "no-piece");
	assert_int_equal(g.line[3], 4);
	assert_string_equal(g.id[3], "not-in-hand");
	assert_null(g.id[4]);
}

static void
test_nul_and_garbage(void **state)
{
	static const char text[] = "4k4/9/4P4/9/9/9/9/9/9 b G 1\n"
	    "4k4/9/4P4\0/9/9/9/9/9/9 b G 1\n"
	    "\xff\xfe\x01\x02 4k4\n"
	    "4k4/9/4P4/9/9/9/9/9/9 b G 1\n";
	struct got g;

	(void)state;
	assert_int_equal(read_all(text, sizeof(text) - 1, &g), 1);
	assert_int_equal(g.n, 4);
	assert_string_equal(g.id[1], "encoding");
	assert_non_null(g.id[2]);
	assert_null(g.id[3]);
	assert_int_equal(g.line[3], 4);
}

/* A line over the limit is an error, skipped whole, never kept. */
static void
test_long_line(void **state)
{
	struct problem_reader pr;
	struct problem p;
	size_t n = 5u << 20, i;
	char *text = malloc(n + 64);
	const struct diag *e;
	FILE *f;

	(void)state;
	assert_non_null(text);
	strcpy(text, "4k4/9/4P4/9/9/9/9/9/9 b G 1\nsfen ");
	for (i = strlen(text); i < n; i++)
		text[i] = 'x';
	strcpy(text + n, "\n4k4/9/4P4/9/9/9/9/9/9 b G 1\n");
	f = stream(text, strlen(text));
	problem_reader_init(&pr, f, variant_standard(), -1);
	pr.max_line = 4096;
	problem_init(&p);
	assert_int_equal(problem_reader_sniff(&pr), 1);
	assert_int_equal(problem_reader_next(&pr, &p), 1);
	assert_null(diag_first_error(&p.d));
	assert_int_equal(problem_reader_next(&pr, &p), 1);
	e = diag_first_error(&p.d);
	assert_non_null(e);
	assert_string_equal(e->id, "limit");
	assert_int_equal(p.line, 2);
	assert_true(pr.alloc < (1u << 20));
	assert_int_equal(problem_reader_next(&pr, &p), 1);
	assert_null(diag_first_error(&p.d));
	assert_int_equal(p.line, 3);
	assert_int_equal(problem_reader_next(&pr, &p), 0);
	problem_release(&p);
	problem_reader_release(&pr);
	fclose(f);
	free(text);
}

/* A huge set is streamed: the buffer stays small, every line counted. */
static void
test_streamed(void **state)
{
	static const char one[] = "4k4/9/4P4/9/9/9/9/9/9 b G 1\n";
	struct problem_reader pr;
	struct problem p;
	FILE *f = tmpfile();
	int i, n = 0;

	(void)state;
	assert_non_null(f);
	for (i = 0; i < 200000; i++)
		fputs(one, f);
	rewind(f);
	problem_reader_init(&pr, f, variant_standard(), -1);
	problem_init(&p);
	assert_int_equal(problem_reader_sniff(&pr), 1);
	while (problem_reader_next(&pr, &p) > 0) {
		assert_null(diag_first_error(&p.d));
		n++;
	}
	assert_int_equal(n, 200000);
	assert_int_equal(pr.line, 200000);
	assert_true(pr.alloc <= (256u << 10));
	problem_release(&p);
	problem_reader_release(&pr);
	fclose(f);
}

/* Not problem lines: the whole stream comes back for the record reader. */
static void
test_records_fall_back(void **state)
{
	static const char text[] = "# ---- Kifu for Windows ----\n"
	    "開始日時：2024/01/01\n手合割：平手\n   1 ７六歩(77)\n";
	struct problem_reader pr;
	struct strbuf sb = STRBUF_INIT;
	FILE *f = stream(text, sizeof(text) - 1);

	(void)state;
	problem_reader_init(&pr, f, variant_standard(), -1);
	assert_int_equal(problem_reader_sniff(&pr), 0);
	assert_int_equal(problem_reader_rest(&pr, &sb, 1u << 20), 0);
	assert_int_equal(sb.len, sizeof(text) - 1);
	assert_memory_equal(sb.buf, text, sb.len);
	strbuf_release(&sb);
	problem_reader_release(&pr);
	fclose(f);
}

/* --ply: the position after that many moves of the line. */
static void
test_ply(void **state)
{
	struct problem p;
	char sfen[SFEN_MAX];
	static const char line[] = "startpos moves 7g7f 3c3d 8h2b+";

	(void)state;
	problem_init(&p);
	problem_from_text(line, strlen(line), variant_standard(), 2, 0, &p);
	assert_null(diag_first_error(&p.d));
	sfen_write(&p.pos, sfen);
	assert_string_equal(sfen, "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/"
	    "PP1PPPPPP/1B5R1/LNSGKGSNL b - 3");
	problem_from_text(line, strlen(line), variant_standard(), 5, 0, &p);
	assert_non_null(diag_first_error(&p.d));
	problem_release(&p);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_forms),
		cmocka_unit_test(test_errors_at_their_lines),
		cmocka_unit_test(test_nul_and_garbage),
		cmocka_unit_test(test_long_line),
		cmocka_unit_test(test_streamed),
		cmocka_unit_test(test_records_fall_back),
		cmocka_unit_test(test_ply),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
