/*
 * YaneuraOu's text book (parsers/book.h): each kind of line as real
 * books write it, the fields ShogiHome leaves empty, what is refused
 * (with its line and column), and the writer's lines read back.
 */
#include "helpers.h"
#include "parsers/book.h"

static void
parse_ok(const char *text, int first, struct book_line *l)
{
	struct book_error err;

	if (book_parse_line(text, strlen(text), 7, first, l, &err) != 0)
		fail_msg("'%s': %s", text, err.message);
}

static void
test_book_kinds(void **state)
{
	struct book_line l;

	(void)state;
	parse_ok("#YANEURAOU-DB2016 1.00", 1, &l);
	assert_int_equal(l.type, BOOK_SKIP);
	parse_ok("\xef\xbb\xbf#YANEURAOU-DB2016 1.00\r", 1, &l);
	assert_int_equal(l.type, BOOK_SKIP);
	parse_ok("#YANEURAOU-DB2016 1.00", 0, &l);	/* later: a comment */
	assert_int_equal(l.type, BOOK_COMMENT);
	parse_ok("// a comment", 1, &l);
	assert_int_equal(l.type, BOOK_COMMENT);
	parse_ok("   ", 0, &l);
	assert_int_equal(l.type, BOOK_SKIP);
	parse_ok("\xef\xbb\xbfsfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/"
	    "1B5R1/LNSGKGSNL b - 1\r", 1, &l);
	assert_int_equal(l.type, BOOK_POSITION);
	assert_int_equal(l.text.n, strlen("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/"
	    "PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"));
}

static void
test_book_moves(void **state)
{
	struct book_line l;

	(void)state;
	parse_ok("2g2f 3c3d 63 27 935", 0, &l);
	assert_int_equal(l.type, BOOK_MOVE);
	assert_int_equal(l.text.n, 4);
	assert_memory_equal(l.ponder.p, "3c3d", 4);
	assert_int_equal(l.ponder_col, 6);
	assert_true(l.has_value && l.has_depth);
	assert_int_equal(l.value, 63);
	assert_int_equal(l.depth, 27);
	assert_int_equal(l.count, 935);
	assert_int_equal(l.tail.n, 0);
	/* ShogiHome: empty value and depth */
	parse_ok("2b8h+ none   103", 0, &l);
	assert_int_equal(l.text.n, 5);
	assert_int_equal(l.ponder.n, 0);
	assert_false(l.has_value || l.has_depth);
	assert_int_equal(l.count, 103);
	/* a comment after the count is the tail, as written */
	parse_ok("7g7f none 20 25 6 #single line comment", 0, &l);
	assert_int_equal(l.tail.n, strlen(" #single line comment"));
	assert_memory_equal(l.tail.p, " #single line comment", l.tail.n);
	/* missing fields: none, count 1; signs; resign as ponder */
	parse_ok("P*5e", 0, &l);
	assert_int_equal(l.count, 1);
	assert_false(l.has_value);
	parse_ok("8h2b+ resign -300 None", 0, &l);
	assert_int_equal(l.ponder.n, 0);
	assert_int_equal(l.value, -300);
	assert_false(l.has_depth);
	parse_ok("7g7f none +5 0 0", 0, &l);
	assert_int_equal(l.value, 5);
	assert_int_equal(l.count, 0);
}

struct bad {
	const char *text;
	int first;
	size_t col;
	const char *id;
};

static const struct bad bad[] = {
	{ "#YANEURAOU-DB2016 2.00", 1, 1, "book-header" },
	{ "# a comment first", 1, 1, "book-header" },
	{ "hello", 0, 1, "book-syntax" },
	{ "sfen", 0, 1, "book-syntax" },
	{ "7g7", 0, 1, "book-syntax" },
	{ "7j7f none", 0, 1, "book-syntax" },
	{ "K*5e none", 0, 1, "book-syntax" },
	{ "7g7f 3c3d+x", 0, 6, "book-syntax" },
	{ "7g7f none 1.5", 0, 11, "book-syntax" },
	{ "7g7f none 0 -", 0, 13, "book-syntax" },
	{ "7g7f none 0 0 +1", 0, 15, "book-syntax" },
	{ "7g7f none 0 0 1e3", 0, 15, "book-syntax" },
	{ "7g7f none 10000000000", 0, 11, "book-syntax" },
	{ "7g7f\r none", 0, 5, "book-syntax" },
};

static void
test_book_refused(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct book_line l;
		struct book_error err;

		if (book_parse_line(bad[i].text, strlen(bad[i].text), 3,
		    bad[i].first, &l, &err) == 0)
			fail_msg("'%s' was read", bad[i].text);
		assert_int_equal(err.line, 3);
		if (err.col != bad[i].col || strcmp(err.id, bad[i].id))
			fail_msg("'%s': col %zu id %s, not %zu %s", bad[i].text,
			    err.col, err.id, bad[i].col, bad[i].id);
	}
}

static void
test_book_key(void **state)
{
	const char *s = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/"
	    "LNSGKGSNL b 2P 17";
	long long ply;
	size_t n = book_sfen_key(s, strlen(s), &ply);

	(void)state;
	assert_int_equal(n, strlen(s) - 3);
	assert_int_equal(ply, 17);
	n = book_sfen_key("9/9/9/9/9/9/9/9/9 w -", 21, &ply);
	assert_int_equal(n, 21);
	assert_int_equal(ply, 0);
}

/* What the writer writes, the reader reads back to the same fields. */
static void
test_book_write_read(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	struct book_move_out m;
	struct book_line l;

	(void)state;
	memset(&m, 0, sizeof(m));
	m.move = "8h2b+";
	m.count = 3;
	book_write_move(&sb, &m);
	assert_string_equal(sb.buf, "8h2b+ none none none 3\n");
	sb.buf[--sb.len] = '\0';	/* lines are read without their end */
	parse_ok(sb.buf, 0, &l);
	assert_int_equal(l.count, 3);
	strbuf_reset(&sb);
	m.ponder = "3c3d";
	m.has_value = 1;
	m.value = -12;
	m.has_depth = 1;
	m.depth = 0;
	m.tail = " #x";
	m.tail_len = 3;
	book_write_move(&sb, &m);
	assert_string_equal(sb.buf, "8h2b+ 3c3d -12 0 3 #x\n");
	sb.buf[--sb.len] = '\0';
	parse_ok(sb.buf, 0, &l);
	assert_int_equal(l.value, -12);
	assert_int_equal(l.depth, 0);
	assert_int_equal(l.count, 3);
	assert_int_equal(l.tail.n, 3);
	strbuf_reset(&sb);
	book_write_header(&sb);
	book_write_position(&sb, "9/9/9/9/9/9/9/9/9 b -", 21, 5);
	assert_string_equal(sb.buf, BOOK_HEADER "\nsfen 9/9/9/9/9/9/9/9/9 b - 5\n");
	strbuf_release(&sb);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_book_kinds),
		cmocka_unit_test(test_book_moves),
		cmocka_unit_test(test_book_refused),
		cmocka_unit_test(test_book_key),
		cmocka_unit_test(test_book_write_read),
	};

	return cmocka_run_group_tests_name("parsers/book", tests, NULL, NULL);
}
