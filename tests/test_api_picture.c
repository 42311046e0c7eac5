/*
 * The pictures of the public library (kifu.h: kifu_record_show,
 * api/picture.c): the terminal board, SVG, PNG and GIF as `kifu show`
 * draws them, the options that choose the position and the style, and
 * the errors.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "xmlcheck.h"
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

/* The checker (xmlcheck.h) tells what is not XML. */
static void
test_xml_checker(void **state)
{
	static const char *const bad[] = {
		"<a><b></a></b>", "<a x=\"1\" x=\"2\"/>", "<a>&</a>",
		"<a>&amp</a>", "<a>", "<a/><b/>", "<a x=1/>", "<a x='<'/>",
		"text<a/>", "<a>\x01</a>", "<a><!-- -- --></a>", "</a>", "",
	};
	char why[256];
	size_t i;

	(void)state;
	assert_true(xml_well_formed("<?xml version=\"1.0\"?>\n<a x='&lt;' "
	    "y=\"&#x41;&#65;\"><b/><!-- c --><c>&amp;&quot;</c></a>\n", why,
	    sizeof(why)));
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (xml_well_formed(bad[i], why, sizeof(why)))
			fail_msg("'%s' taken for XML", bad[i]);
}

/* An SVG kifu_record_show drew, well-formed, or a failed test. */
static void
assert_svg(const char *svg)
{
	char why[256];

	if (strncmp(svg, "<?xml", 5) || !strstr(svg, "<svg "))
		fail_msg("not an SVG: %.40s", svg);
	if (!xml_well_formed(svg, why, sizeof(why)))
		fail_msg("the SVG is not well-formed: %s", why);
}

static uint32_t
crc32_of(const unsigned char *p, size_t n)
{
	uint32_t c = 0xffffffffu;
	size_t i;
	int k;

	for (i = 0; i < n; i++) {
		c ^= p[i];
		for (k = 0; k < 8; k++)
			c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
	}
	return c ^ 0xffffffffu;
}

static uint32_t
be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	    (uint32_t)p[2] << 8 | p[3];
}

/*
 * A whole PNG: the magic, IHDR first (width, height), every chunk's
 * CRC right, IDAT between, IEND last and nothing after it.
 */
static void
assert_png(const unsigned char *p, size_t len, uint32_t width)
{
	static const unsigned char magic[8] = {
		0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'
	};
	size_t at = 8;
	int chunks = 0, idat = 0;

	assert_true(len > 8 + 25 + 12);
	assert_memory_equal(p, magic, 8);
	for (;;) {
		uint32_t n;

		assert_true(at + 12 <= len);
		n = be32(p + at);
		assert_true(n <= len - at - 12);
		if (crc32_of(p + at + 4, n + 4) != be32(p + at + 8 + n))
			fail_msg("chunk %d (%.4s): bad CRC", chunks, p + at + 4);
		if (!chunks) {
			assert_memory_equal(p + at + 4, "IHDR", 4);
			assert_int_equal(be32(p + at + 8), width);
			assert_true(be32(p + at + 12) > 0);
		}
		idat += !memcmp(p + at + 4, "IDAT", 4);
		chunks++;
		if (!memcmp(p + at + 4, "IEND", 4)) {
			assert_int_equal(at + 12 + n, len);
			break;
		}
		at += 12 + n;
	}
	assert_true(idat > 0);
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
	assert_svg(a);
	assert_int_equal(strlen(a), len);
	assert_non_null(strstr(a, "width=\"480\""));
	assert_non_null(strstr(a, "Alice"));
	assert_non_null(strstr(a, "</svg>"));
	o = options("flip", "yes", "size", "300", NULL);
	b = show(r, "svg", o, &len);
	assert_svg(b);
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
	assert_svg(b);
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

/*
 * Names and comments as a hostile record gives them: markup and
 * entities in the players' names, a name far too long, control bytes.
 * The SVG stays well-formed, and shows the names escaped.
 */
static void
test_show_hostile_headers(void **state)
{
	static const char kif[] = "先手：A&B <script>\"x\"'</script>\n"
	    "後手：]]><!-- &amp; \x01\x7f\n"
	    "手数----指手---------消費時間--\n"
	    "   1 ７六歩(77)\n*<b>&</b>\n   2 ３四歩(33)\n";
	struct { char *p; size_t n; } big;
	kifu_file *f;
	kifu_error *e = NULL;
	char *svg;
	size_t len, i;

	(void)state;
	assert_int_equal(kifu_read_buffer(kif, strlen(kif), "x.kif", NULL, &f,
	    &e), KIFU_OK);
	svg = show(kifu_file_record(f, 0), "svg", NULL, &len);
	assert_svg(svg);
	assert_null(strstr(svg, "<script>"));
	assert_non_null(strstr(svg, "A&amp;B &lt;script&gt;"));
	assert_null(strchr(svg, '\x01'));
	kifu_free(svg);
	kifu_file_free(f);
	/* A name of 100,000 bytes. */
	big.n = 100000;
	big.p = malloc(big.n + 64);
	memcpy(big.p, "先手：", strlen("先手："));
	for (i = strlen("先手："); i < big.n; i++)
		big.p[i] = "<&>\"'"[i % 5];
	memcpy(big.p + big.n, "\n   1 ７六歩(77)\n", strlen(
	    "\n   1 ７六歩(77)\n") + 1);
	if (kifu_read_buffer(big.p, strlen(big.p), "big.kif", NULL, &f, &e) ==
	    KIFU_OK) {
		if (kifu_record_show(kifu_file_record(f, 0), "svg", NULL, &svg,
		    &len, &e) == KIFU_OK) {
			assert_svg(svg);
			kifu_free(svg);
		} else {
			kifu_error_free(e);
		}
		kifu_file_free(f);
	} else {
		kifu_error_free(e);
	}
	free(big.p);
}

static void
test_show_png_gif(void **state)
{
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
	assert_png((const unsigned char *)out, len, 240);
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
	assert_int_equal((unsigned char)out[len - 1], 0x3b);	/* trailer */
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

/* The evaluation graph, as kifu show --graph draws it. */
static void
test_show_graph(void **state)
{
	kifu_file *f = read_path("testdata/show/analysed-ouza201410070101.kif");
	const kifu_record *r = kifu_file_record(f, 0);
	kifu_options *o;
	kifu_error *e = NULL;
	char *out, *all;
	size_t len;
	int rc;

	(void)state;
	out = show(r, "graph", NULL, &len);
	assert_int_equal(strlen(out), len);
	assert_non_null(strstr(out, "\xe2\x96"));	/* blocks: ▁..█ */
	assert_ptr_equal(strchr(out, '\n'), out + len - 1);
	assert_null(strstr(out, "\033["));
	kifu_free(out);
	out = show(r, "graph-svg", NULL, &len);
	assert_svg(out);
	assert_non_null(strstr(out, "width=\"640\""));
	assert_non_null(strstr(out, "class=\"point\""));
	/* To a ply: fewer points. */
	o = options("ply", "10", NULL);
	all = out;
	out = show(r, "graph-svg", o, &len);
	assert_svg(out);
	assert_true(strlen(out) < strlen(all));
	assert_null(strstr(out, "data-ply=\"11\""));
	kifu_free(out);
	kifu_free(all);
	kifu_options_free(o);
	o = options("size", "300", NULL);
	rc = kifu_record_show(r, "graph-png", o, &out, &len, &e);
	if (drawn(rc, e)) {
		assert_png((const unsigned char *)out, len, 300);
		kifu_free(out);
	}
	kifu_options_free(o);
	kifu_file_free(f);
	/* A record without an evaluation has no graph. */
	f = read_path(MINI);
	assert_int_equal(kifu_record_show(kifu_file_record(f, 0), "graph",
	    NULL, &out, &len, &e), KIFU_ERR_WRITE);
	assert_null(out);
	assert_string_equal(kifu_error_id(e), "no-evaluation");
	kifu_error_free(e);
	kifu_file_free(f);
}

struct drawer {
	const kifu_record *r;
	const char *what;
	char *out;
	size_t len;
	int rc;
};

static void *
draw(void *arg)
{
	struct drawer *d = arg;
	kifu_options *o = kifu_options_new();
	kifu_error *e = NULL;

	kifu_options_set(o, "size", "200", NULL);
	d->rc = kifu_record_show(d->r, d->what, o, &d->out, &d->len, &e);
	kifu_error_free(e);
	kifu_options_free(o);
	return NULL;
}

/*
 * Threads draw at once (the libraries loaded under pthread_once, each
 * picture its own state): the same bytes as one after the other.
 */
static void
test_show_threads(void **state)
{
	kifu_file *f = read_path(MINI);
	struct drawer d[4], alone;
	pthread_t t[4];
	int i;

	(void)state;
	for (i = 0; i < 4; i++) {
		memset(&d[i], 0, sizeof(d[i]));
		d[i].r = kifu_file_record(f, 0);
		d[i].what = i % 2 ? "png" : "svg";
		assert_int_equal(pthread_create(&t[i], NULL, draw, &d[i]), 0);
	}
	for (i = 0; i < 4; i++)
		assert_int_equal(pthread_join(t[i], NULL), 0);
	for (i = 0; i < 4; i++) {
		memset(&alone, 0, sizeof(alone));
		alone.r = d[i].r;
		alone.what = d[i].what;
		draw(&alone);
		assert_int_equal(d[i].rc, alone.rc);
		if (d[i].rc == KIFU_OK) {
			assert_int_equal(d[i].len, alone.len);
			assert_memory_equal(d[i].out, alone.out, alone.len);
		}
		kifu_free(d[i].out);
		kifu_free(alone.out);
	}
	kifu_file_free(f);
}

static void
test_show_errors(void **state)
{
	static const char junk[] = "PI\n+\n+7776FU\n-3334FU\n+2277UM\n"
	    "-8822UM\n";
	static const char two[] = "PI\n+\n+7776FU\n/\nPI\n+\n+7776XX\n";
	static const char *const refused[][2] = {
		{ "size", "119" }, { "size", "4001" }, { "size", "480px" },
		{ "flip", "maybe" }, { "color", "auto" }, { "delay", "-1" },
		{ "real-time", "0" }, { "real-time", "x" }, { "ascii", "2" },
	};
	kifu_file *f = read_path(MINI);
	const kifu_record *r = kifu_file_record(f, 0);
	kifu_options *o = kifu_options_new();
	kifu_error *e = NULL;
	char *out = (char *)&out;
	size_t len = 7, i;

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
	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		if (kifu_options_set(o, refused[i][0], refused[i][1], &e) !=
		    KIFU_ERR_ARG)
			fail_msg("%s=%s taken", refused[i][0], refused[i][1]);
		assert_string_equal(kifu_error_id(e), "usage");
		kifu_error_free(e);
	}
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
		cmocka_unit_test(test_xml_checker),
		cmocka_unit_test(test_show_text),
		cmocka_unit_test(test_show_svg),
		cmocka_unit_test(test_show_flipped_record),
		cmocka_unit_test(test_show_hostile_headers),
		cmocka_unit_test(test_show_png_gif),
		cmocka_unit_test(test_show_graph),
		cmocka_unit_test(test_show_threads),
		cmocka_unit_test(test_show_errors),
	};

	if (argc > 1)
		cmocka_set_test_filter(argv[1]);
	return cmocka_run_group_tests_name("api/picture", tests, NULL, NULL);
}
