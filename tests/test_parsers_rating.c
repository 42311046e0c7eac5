/*
 * Ratings in records (parsers/rating.h): shogi-server's rate lines in
 * the root comment, Piyo Shogi's "(R990)" after a player's name, and
 * what only looks like either.
 */
#include "helpers.h"
#include "core/record.h"
#include "parsers/rating.h"

struct rating_case {
	const char *name;
	const char *comment;	/* the root comment, lines joined by '\n' */
	const char *black, *white;	/* player headers; NULL none */
	int has_b, has_w;
	double b, w;
};

static const struct rating_case cases[] = {
	{ "Floodgate", "rating:a+1:b+2\nblack_rate:a+1:3382.0\n"
	    "white_rate:b+2:3613.0", NULL, NULL, 1, 1, 3382.0, 3613.0 },
	{ "Floodgate, one side", "black_rate:Titanda_L+bb6f:3526.0", NULL,
	    NULL, 1, 0, 3526.0, 0 },
	{ "a name with colons", "white_rate:x:y:1500", NULL, NULL, 0, 1, 0,
	    1500 },
	{ "negative, integer", "black_rate:n:-25\nwhite_rate:m:+0", NULL,
	    NULL, 1, 1, -25, 0 },
	{ "CR and blanks at the end", "black_rate:n:1200.5\r", NULL, NULL, 1,
	    0, 1200.5, 0 },
	{ "the first line counts", "black_rate:n:1\nblack_rate:n:2", NULL,
	    NULL, 1, 0, 1, 0 },
	{ "Piyo Shogi", NULL, "Lv19 ひよな(R990)", "Lv20 ピヨ馬(R1050) ", 1,
	    1, 990, 1050 },
	{ "the comment wins over the header", "white_rate:x:2000", NULL,
	    "y(R100)", 0, 1, 0, 2000 },
	/* not ratings */
	{ "no number", "black_rate:n:\nwhite_rate:n:abc", NULL, NULL, 0, 0,
	    0, 0 },
	{ "no name field", "black_rate:1500", NULL, NULL, 0, 0, 0, 0 },
	{ "a number glued to words", "black_rate:n:15x", NULL, NULL, 0, 0, 0,
	    0 },
	{ "not at the start of a line", "note black_rate:n:1500", NULL, NULL,
	    0, 0, 0, 0 },
	{ "huge", "black_rate:n:99999999999", NULL, NULL, 0, 0, 0, 0 },
	{ "a name with digits", NULL, "Player1500", "R2D2", 0, 0, 0, 0 },
	{ "R without digits", NULL, "x(R)", "y(Rx)", 0, 0, 0, 0 },
	{ "a signed R", NULL, "x(R-5)", "y(R+5)", 0, 0, 0, 0 },
	{ "other brackets", NULL, "x(1500)", "y[R1500]", 0, 0, 0, 0 },
	{ "nothing", NULL, NULL, NULL, 0, 0, 0, 0 },
};

static void
test_cases(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct rating_case *c = &cases[i];
		struct record r;
		struct ratings rt;

		record_init(&r, variant_standard());
		if (c->comment)
			record_add_comment(&r, 0, c->comment,
			    strlen(c->comment));
		if (c->black)
			record_add_header(&r, "先手", strlen("先手"), c->black,
			    strlen(c->black), HDR_BLACK, NULL);
		if (c->white)
			record_add_header(&r, "後手", strlen("後手"), c->white,
			    strlen(c->white), HDR_WHITE, NULL);
		rating_read(&r, &rt);
		if (rt.has[BLACK] != c->has_b || rt.has[WHITE] != c->has_w ||
		    (c->has_b && rt.rate[BLACK] != c->b) ||
		    (c->has_w && rt.rate[WHITE] != c->w))
			fail_msg("%s: got %d %g / %d %g", c->name, rt.has[BLACK],
			    rt.rate[BLACK], rt.has[WHITE], rt.rate[WHITE]);
		record_release(&r);
	}
}

/* A rate line after the first move is no header's: not read. */
static void
test_only_before_the_first_move(void **state)
{
	struct record r;
	struct ratings rt;
	int32_t n;

	(void)state;
	record_init(&r, variant_standard());
	n = record_add_node(&r, 0);
	record_add_comment(&r, n, "black_rate:n:1500", 17);
	rating_read(&r, &rt);
	assert_false(rt.has[BLACK]);
	record_release(&r);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cases),
		cmocka_unit_test(test_only_before_the_first_move),
	};

	return cmocka_run_group_tests_name("parsers/rating", tests, NULL,
	    NULL);
}
