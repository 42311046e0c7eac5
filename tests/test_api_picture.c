/*
 * The pictures of the public library (kifu.h: kifu_record_show,
 * api/picture.c): the terminal board, SVG, PNG and GIF as `kifu show`
 * draws them, the options that choose the position and the style, and
 * the errors.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "kifu/kifu.h"

#define MINI "testdata/show/minishogi.kifu"

/*
 * librsvg and the libraries under it keep their caches until exit
 * (tests/lsan.supp says which): not leaks of kifu's.
 */
const char *__lsan_default_suppressions(void);
const char *
__lsan_default_suppressions(void)
{
	return "leak:libfontconfig.so\nleak:libpango-1.0.so\n"
	    "leak:libpangoft2-1.0.so\nleak:libpangocairo-1.0.so\n"
	    "leak:librsvg-2.so\nleak:libcairo.so\nleak:libharfbuzz.so\n"
	    "leak:libfreetype.so\nleak:libglib-2.0.so\n"
	    "leak:libgobject-2.0.so\nleak:libgio-2.0.so\n";
}

static kifu_file *
read_path(const char *path)
{
	kifu_file *f;
	kifu_error *e = NULL;

	if (kifu_read_file(path, NULL, &f, &e) != KIFU_OK)
		fail_msg("%s: %s", path, kifu_error_message(e));
	return f;
}

static kifu_options *
options(const char *key, const char *value, ...)
{
	kifu_options *o = kifu_options_new();
	va_list ap;

	va_start(ap, value);
	while (key) {
		kifu_error *e = NULL;

		if (kifu_options_set(o, key, value, &e) != KIFU_OK)
			fail_msg("%s=%s: %s", key, value,
			    kifu_error_message(e));
		key = va_arg(ap, const char *);
		if (key)
			value = va_arg(ap, const char *);
	}
	va_end(ap);
	return o;
}

/* What kifu_record_show draws, or a failed test. */
static char *
show(const kifu_record *r, const char *what, const kifu_options *o,
    size_t *len)
{
	kifu_error *e = NULL;
	char *out;

	if (kifu_record_show(r, what, o, &out, len, &e) != KIFU_OK)
		fail_msg("%s: %s", what, kifu_error_message(e));
	assert_null(e);
	return out;
}

/* The picture libraries are there, or the test says it is skipped. */
static int
drawn(int rc, kifu_error *e)
{
	if (rc == KIFU_ERR_WRITE && !strcmp(kifu_error_id(e), "picture") &&
	    strstr(kifu_error_message(e), "cannot load")) {
		kifu_error_free(e);
		return 0;
	}
	if (rc != KIFU_OK)
		fail_msg("%s", e ? kifu_error_message(e) : "?");
	return 1;
}

static void
test_show_text(void **state)
{
	kifu_file *f = read_path(MINI);
	const kifu_record *r = kifu_file_record(f, 0);
	kifu_options *o;
	size_t len;
	char *t;

	(void)state;
	/* The last position, in kanji, with the players and the last move. */
	t = show(r, "text", NULL, &len);
	assert_int_equal(strlen(t), len);
	assert_non_null(strstr(t, "先手：Alice\n後手：Bob\n"));
	assert_non_null(strstr(t, "手数＝7  ▲５一飛打  まで\n"));
	assert_null(strstr(t, "\033["));
	kifu_free(t);
	/* After two moves, in CSA letters, marked, with the moves. */
	o = options("ply", "2", "ascii", "yes", "color", "always", "moves",
	    "yes", NULL);
	t = show(r, "text", o, &len);
	assert_non_null(strstr(t, "P3+FU"));
	assert_non_null(strstr(t, "\033[30;43m"));
	assert_non_null(strstr(t, "   7 ５一飛打"));
	kifu_free(t);
	kifu_options_free(o);
	/* The start: no move yet. */
	o = options("ply", "0", NULL);
	t = show(r, "text", o, &len);
	assert_null(strstr(t, "手数＝"));
	kifu_free(t);
	kifu_options_free(o);
	kifu_file_free(f);
}

static void
test_show_svg(void **state)
{
	kifu_file *f = read_path(MINI);
	const kifu_record *r = kifu_file_record(f, 0);
	kifu_options *o;
	char *a, *b;
	size_t len;

	(void)state;
	a = show(r, "svg", NULL, &len);
	assert_true(!strncmp(a, "<?xml", 5));
	assert_non_null(strstr(a, "width=\"480\""));
	assert_non_null(strstr(a, "Alice"));
	assert_non_null(strstr(a, "</svg>"));
	o = options("flip", "yes", "size", "300", NULL);
	b = show(r, "svg", o, &len);
	assert_non_null(strstr(b, "width=\"300\""));
	kifu_options_free(o);
	/* Flipped at the same size differs; as the record says, it does not. */
	o = options("flip", "no", NULL);
	kifu_free(b);
	b = show(r, "svg", o, &len);
	assert_string_equal(a, b);
	kifu_options_free(o);
	o = options("flip", "yes", NULL);
	kifu_free(b);
	b = show(r, "svg", o, &len);
	assert_string_not_equal(a, b);
	kifu_free(a);
	kifu_free(b);
	kifu_options_free(o);
	kifu_file_free(f);
}

/* A record saved flipped (盤面回転) is drawn so unless told otherwise. */
static void
test_show_flipped_record(void **state)
{
	kifu_file *f = read_path("testdata/kif/kifu-samples/flipped.kif");
	const kifu_record *r = kifu_file_record(f, 0);
	kifu_options *yes = options("flip", "yes", NULL);
	kifu_options *no = options("flip", "no", NULL);
	char *a, *b, *c;
	size_t len;

	(void)state;
	a = show(r, "svg", NULL, &len);
	b = show(r, "svg", yes, &len);
	c = show(r, "svg", no, &len);
	assert_string_equal(a, b);
	assert_string_not_equal(a, c);
	kifu_free(a);
	kifu_free(b);
	kifu_free(c);
	kifu_options_free(yes);
	kifu_options_free(no);
	kifu_file_free(f);
}

static void
test_show_png_gif(void **state)
{
	static const unsigned char png_magic[8] = {
		0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'
	};
	kifu_file *f = read_path(MINI);
	const kifu_record *r = kifu_file_record(f, 0);
	kifu_options *o = options("size", "240", "ply", "3", "delay", "100",
	    NULL);
	kifu_error *e = NULL;
	char *out;
	size_t len, whole;
	int rc;

	(void)state;
	rc = kifu_record_show(r, "png", o, &out, &len, &e);
	if (!drawn(rc, e)) {
		kifu_options_free(o);
		kifu_file_free(f);
		skip();
	}
	assert_true(len > 1000);
	assert_memory_equal(out, png_magic, 8);
	/* IHDR: 240 pixels wide. */
	assert_int_equal(((unsigned char)out[16] << 24 |
	    (unsigned char)out[17] << 16 | (unsigned char)out[18] << 8 |
	    (unsigned char)out[19]), 240);
	kifu_free(out);
	rc = kifu_record_show(r, "gif", o, &out, &len, &e);
	if (!drawn(rc, e)) {
		kifu_options_free(o);
		kifu_file_free(f);
		skip();
	}
	assert_memory_equal(out, "GIF89a", 6);
	assert_int_equal((unsigned char)out[6] | (unsigned char)out[7] << 8,
	    240);
	kifu_free(out);
	kifu_options_free(o);
	/* The whole game: more frames, more bytes. */
	o = options("size", "240", NULL);
	out = show(r, "gif", o, &whole);
	assert_true(whole > len);
	kifu_free(out);
	kifu_options_free(o);
	kifu_file_free(f);
}

static void
test_show_errors(void **state)
{
	static const char junk[] = "PI\n+\n+7776FU\n-3334FU\n+2277UM\n"
	    "-8822UM\n";
	static const char two[] = "PI\n+\n+7776FU\n/\nPI\n+\n+7776XX\n";
	kifu_file *f = read_path(MINI);
	const kifu_record *r = kifu_file_record(f, 0);
	kifu_options *o = kifu_options_new();
	kifu_error *e = NULL;
	char *out = (char *)&out;
	size_t len = 7;

	(void)state;
	assert_int_equal(kifu_record_show(r, "jpeg", NULL, &out, &len, &e),
	    KIFU_ERR_ARG);
	assert_null(out);
	assert_int_equal(len, 0);
	assert_string_equal(kifu_error_id(e), "usage");
	assert_non_null(strstr(kifu_error_message(e), "jpeg"));
	kifu_error_free(e);
	assert_int_equal(kifu_record_show(r, NULL, NULL, &out, NULL, NULL),
	    KIFU_ERR_ARG);
	/* Past the main line's 7 moves. */
	assert_int_equal(kifu_options_set(o, "ply", "8", NULL), KIFU_OK);
	assert_int_equal(kifu_record_show(r, "svg", o, &out, &len, &e),
	    KIFU_ERR_ARG);
	assert_string_equal(kifu_error_id(e), "limit");
	assert_non_null(strstr(kifu_error_message(e), "7 legal moves"));
	kifu_error_free(e);
	/* Values the options do not take leave them as they were. */
	assert_int_equal(kifu_options_set(o, "size", "119", &e), KIFU_ERR_ARG);
	kifu_error_free(e);
	assert_int_equal(kifu_options_set(o, "size", "4001", NULL),
	    KIFU_ERR_ARG);
	assert_int_equal(kifu_options_set(o, "flip", "maybe", NULL),
	    KIFU_ERR_ARG);
	assert_int_equal(kifu_options_set(o, "color", "auto", NULL),
	    KIFU_ERR_ARG);
	assert_int_equal(kifu_options_set(o, "delay", "-1", NULL),
	    KIFU_ERR_ARG);
	assert_int_equal(kifu_options_set(o, "real-time", "0", NULL),
	    KIFU_ERR_ARG);
	assert_int_equal(kifu_options_set(o, "real-time", "0.5", NULL),
	    KIFU_OK);
	assert_int_equal(kifu_options_set(o, "ply", "7", NULL), KIFU_OK);
	out = show(r, "svg", o, &len);
	assert_non_null(strstr(out, "width=\"480\""));
	kifu_free(out);
	kifu_options_free(o);
	kifu_file_free(f);
	/* An illegal record is drawn up to its first illegal move. */
	assert_int_equal(kifu_read_buffer(junk, strlen(junk), "bad.csa", NULL,
	    &f, &e), KIFU_OK);
	r = kifu_file_record(f, 0);
	assert_string_equal(kifu_record_status(r), "illegal");
	out = show(r, "text", NULL, &len);
	assert_non_null(strstr(out, "手数＝2  △３四歩(33)  まで\n"));
	kifu_free(out);
	kifu_file_free(f);
	/* One that could not be read is not drawn. */
	assert_int_equal(kifu_read_buffer(two, strlen(two), "two.csa", NULL,
	    &f, &e), KIFU_OK);
	assert_int_equal(kifu_record_show(kifu_file_record(f, 1), "svg", NULL,
	    &out, &len, &e), KIFU_ERR_WRITE);
	assert_null(out);
	assert_string_equal(kifu_error_id(e), "syntax");
	kifu_error_free(e);
	kifu_file_free(f);
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_show_text),
		cmocka_unit_test(test_show_svg),
		cmocka_unit_test(test_show_flipped_record),
		cmocka_unit_test(test_show_png_gif),
		cmocka_unit_test(test_show_errors),
	};

	if (argc > 1)
		cmocka_set_test_filter(argv[1]);
	return cmocka_run_group_tests_name("api/picture", tests, NULL, NULL);
}
