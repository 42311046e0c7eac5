/*
 * core/record: the node tree's links, comments joined line by line (also
 * interleaved between nodes, and many lines on one node in linear time),
 * comment batches, headers kept in order.
 */
#include "helpers.h"
#include "core/record.h"

static void
test_record_alternatives_in_order(void **state)
{
	struct record r;
	int32_t a, b, c, d;

	(void)state;
	record_init(&r, variant_standard());
	a = record_add_node(&r, 0);
	b = record_add_node(&r, 0);
	c = record_add_node(&r, 0);
	d = record_add_node(&r, a);
	/* The first child is the main line; the others follow as alternatives. */
	assert_int_equal(r.nodes[0].next, a);
	assert_int_equal(r.nodes[a].alt, b);
	assert_int_equal(r.nodes[b].alt, c);
	assert_int_equal(r.nodes[c].alt, -1);
	assert_int_equal(r.nodes[d].parent, a);
	assert_int_equal(r.nodes[d].ply, 2);
	assert_int_equal(record_main_end(&r), d);
	record_release(&r);
}

static void
test_record_comments(void **state)
{
	struct record r;
	int32_t a, b;

	(void)state;
	record_init(&r, variant_standard());
	a = record_add_node(&r, 0);
	b = record_add_node(&r, a);
	record_add_comment(&r, a, "one", 3);
	record_add_comment(&r, b, "x", 1);
	/* Not the last string in the pool any more: copied, still right. */
	record_add_comment(&r, a, "two", 3);
	record_add_comment(&r, a, "three", 5);
	record_add_comment(&r, b, "y", 1);
	assert_string_equal(record_str(&r, r.nodes[a].comment), "one\ntwo\nthree");
	assert_string_equal(record_str(&r, r.nodes[b].comment), "x\ny");
	record_release(&r);
}

static void
test_record_many_comment_lines(void **state)
{
	struct record r;
	size_t i, lines = 200000;
	const char *c;

	(void)state;
	record_init(&r, variant_standard());
	for (i = 0; i < lines; i++)
		record_add_comment(&r, 0, "abcdefgh", 8);
	c = record_str(&r, r.nodes[0].comment);
	assert_int_equal(strlen(c), lines * 9 - 1);
	/* Linear: the pool holds the comment once, not a growing series. */
	assert_true(r.pool.len < lines * 9 + 64);
	record_release(&r);
}

static void
test_record_comment_batch(void **state)
{
	struct record r;
	struct comment_batch b;
	size_t i, lines = 100000;
	int32_t a;

	(void)state;
	record_init(&r, variant_standard());
	comment_batch_init(&b);
	a = record_add_node(&r, 0);
	comment_batch_add(&b, &r, 0, "root", 4);
	/* Headers interned between the lines: still linear in the pool. */
	for (i = 0; i < lines; i++) {
		comment_batch_add(&b, &r, a, "line", 4);
		record_add_header(&r, "K", 1, "v", 1, HDR_OTHER, NULL);
	}
	assert_int_equal(r.nodes[a].comment, 0);	/* not flushed yet */
	comment_batch_flush(&b, &r);
	assert_string_equal(record_str(&r, r.nodes[0].comment), "root");
	assert_int_equal(strlen(record_str(&r, r.nodes[a].comment)),
	    lines * 5 - 1);
	assert_true(r.pool.len < lines * 10 + 64);
	comment_batch_release(&b);
	record_release(&r);
}

static void
test_record_headers(void **state)
{
	struct record r;
	const struct record_header *h;

	(void)state;
	record_init(&r, variant_standard());
	record_add_header(&r, "棋戦", 6, "竜王戦", 9, HDR_EVENT, NULL);
	record_add_header(&r, "X", 1, "1", 1, HDR_OTHER, NULL);
	record_add_header(&r, "場所", 6, "", 0, HDR_SITE, NULL);
	assert_int_equal(r.nheaders, 3);
	h = record_find_header(&r, HDR_SITE);
	assert_non_null(h);
	assert_string_equal(record_str(&r, h->key), "場所");
	assert_string_equal(record_str(&r, h->value), "");
	assert_string_equal(record_str(&r, r.headers[1].key), "X");
	assert_null(record_find_header(&r, HDR_NOTE));
	record_reset(&r, variant_standard());
	assert_int_equal(r.nheaders, 0);
	assert_int_equal(r.nnodes, 1);
	record_release(&r);
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_record_alternatives_in_order),
		cmocka_unit_test(test_record_comments),
		cmocka_unit_test(test_record_many_comment_lines),
		cmocka_unit_test(test_record_comment_batch),
		cmocka_unit_test(test_record_headers),
	};

	if (argc > 1)
		cmocka_set_test_filter(argv[1]);
	return cmocka_run_group_tests_name("core/record", tests, NULL, NULL);
}
