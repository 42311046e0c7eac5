/*
 * The engines file (engine/enginefile.h): what it reads, and each thing
 * it refuses, with the line and column.
 */
#include <stdio.h>
#include <stdlib.h>

#include "helpers.h"
#include "engine/enginefile.h"

static int
parse(struct engine_file *f, const char *text, char *err, size_t n)
{
	enginefile_init(f);
	return enginefile_parse(f, text, strlen(text), "e.toml", err, n);
}

static void
test_good(void **state)
{
	static const char text[] =
	    "\xef\xbb\xbf# engines\n"
	    "[fsf]   # Fairy-Stockfish\n"
	    "command = \"/usr/games/fairy-stockfish\"\n"
	    "log = '/tmp/fsf.log'\n"
	    "timeout-init = 30_000\n"
	    "\n"
	    "[fsf.options]\r\n"
	    "Threads = 1\n"
	    "\"Move Overhead\" = -0\n"
	    "Ponder = false\n"
	    "'Debug Log File' = \"a\\tb \\u00e9\\U0001F600 \\\"q\\\"\"\n"
	    "[\"my gps\"]\n"
	    "command = \"/usr/games/gpsusi\"\n"
	    "[\"my gps\".env]\n"
	    "OSL_HOME = \"/srv/gps\"\n";
	struct engine_file f;
	const struct engine_entry *e;
	char err[256];

	(void)state;
	if (parse(&f, text, err, sizeof(err)) < 0)
		fail_msg("%s", err);
	assert_int_equal(f.n, 2);
	e = enginefile_find(&f, "fsf");
	assert_non_null(e);
	assert_string_equal(e->command, "/usr/games/fairy-stockfish");
	assert_string_equal(e->log, "/tmp/fsf.log");
	assert_int_equal(e->timeout_init, 30000);
	assert_int_equal(e->line, 2);
	assert_int_equal(e->noptions, 4);
	assert_string_equal(e->options[0], "Threads=1");
	assert_string_equal(e->options[1], "Move Overhead=0");
	assert_string_equal(e->options[2], "Ponder=false");
	assert_string_equal(e->options[3],
	    "Debug Log File=a\tb \xc3\xa9\xf0\x9f\x98\x80 \"q\"");
	assert_null(e->env[0]);
	e = enginefile_find(&f, "my gps");
	assert_non_null(e);
	assert_null(e->log);
	assert_int_equal(e->nenv, 1);
	assert_string_equal(e->env[0], "OSL_HOME=/srv/gps");
	assert_null(e->env[1]);
	assert_null(enginefile_find(&f, "gps"));
	enginefile_release(&f);
	/* An empty file names no engine. */
	assert_int_equal(parse(&f, "", err, sizeof(err)), 0);
	assert_int_equal(f.n, 0);
	enginefile_release(&f);
}

static void
test_bad(void **state)
{
	static const struct { const char *text, *want; } c[] = {
		{ "command = \"x\"\n", "e.toml:1:1: a key before any [engine]" },
		{ "[a]\nlog = \"x\"\n", "e.toml:1:1: engine 'a' has no command" },
		{ "[a]\ncommand = \"x\"\n[a]\n", "e.toml:3:1: engine 'a' is "
		    "defined twice (first on line 1)" },
		{ "[a]\ncommand = \"x\"\ncommand = \"y\"\n",
		    "e.toml:3:1: 'command' is given twice" },
		{ "[a]\ncommand = \"x\"\nbogus = 1\n",
		    "e.toml:3:1: unknown key 'bogus'" },
		{ "[a]\ncommand = \"x\n", "e.toml:2:11: the string is not "
		    "closed on its line" },
		{ "[a]\ncommand = \"x\\q\"\n", "e.toml:2:13: unknown escape" },
		{ "[a]\ncommand = \"\\u12\"\n", "e.toml:2:12: a \\u escape needs "
		    "4 hex digits" },
		{ "[a]\ncommand = \"\\ud800\"\n", "e.toml:2:12: \\uD800 is no "
		    "character" },
		{ "[a]\ncommand = [\"x\"]\n", "e.toml:2:11: arrays and inline "
		    "tables are not supported" },
		{ "[a]\ncommand = \"x\"\n[a.options]\nT = 1.5\n",
		    "e.toml:4:5: a string, an integer, true or false" },
		{ "[a]\ncommand = \"x\"\n[a.options]\nT = 01\n",
		    "e.toml:4:5: an integer may not start with 0" },
		{ "[a]\ncommand = \"x\"\n[a.options]\nT = 1\nT = 2\n",
		    "e.toml:5:1: 'T' is given twice" },
		{ "[a]\ncommand = \"x\"\n[a.other]\n", "e.toml:3:1: unknown table "
		    "'a.other'" },
		{ "[b.options]\n", "e.toml:1:1: [b.options] comes before [b]" },
		{ "[a]\ncommand = \"x\"\n[b]\ncommand = \"y\"\n[a.options]\n",
		    "e.toml:5:1: [a.options] must follow [a]" },
		{ "[a]\ncommand = \"x\" junk\n", "e.toml:2:15: unexpected text" },
		{ "[a]\ncommand = 5\n", "'command' takes the command line" },
		{ "[a]\ncommand = \"x\"\ntimeout-init = \"5\"\n",
		    "'timeout-init' takes milliseconds" },
		{ "[a]\ncommand = \"x\"\na.b = 1\n", "dotted keys" },
		{ "[[a]]\n", "arrays of tables" },
		{ "[a]\ncommand = '''x'''\n", "multi-line strings" },
		{ "[a]\ncommand = \"x\"\n[a.env]\n\"A B\" = \"1\"\n",
		    "'A B' cannot be a name here" },
		{ "[a]\ncommand = \"x\"\nx = 99999999999999999999\n",
		    "too large" },
	};
	struct engine_file f;
	char err[256];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		if (parse(&f, c[i].text, err, sizeof(err)) == 0)
			fail_msg("accepted: %s", c[i].text);
		if (!strstr(err, c[i].want))
			fail_msg("'%s': said '%s', not '%s'", c[i].text, err,
			    c[i].want);
		enginefile_release(&f);
	}
	/* A NUL byte: no text file. */
	enginefile_init(&f);
	assert_int_equal(enginefile_parse(&f, "[a]\0", 4, "e.toml", err,
	    sizeof(err)), -1);
	enginefile_release(&f);
}

static void
test_read(void **state)
{
	struct engine_file f;
	struct strbuf p = STRBUF_INIT;
	char err[256];

	(void)state;
	enginefile_init(&f);
	assert_int_equal(enginefile_read(&f, "/nonexistent/engines.toml", err,
	    sizeof(err)), 1);
	setenv("XDG_CONFIG_HOME", "/x", 1);
	assert_int_equal(enginefile_default_path(&p), 0);
	assert_string_equal(p.buf, "/x/kifu/engines.toml");
	strbuf_reset(&p);
	setenv("XDG_CONFIG_HOME", "relative", 1);
	setenv("HOME", "/home/u", 1);
	assert_int_equal(enginefile_default_path(&p), 0);
	assert_string_equal(p.buf, "/home/u/.config/kifu/engines.toml");
	strbuf_release(&p);
	enginefile_release(&f);
}

/* --engines names a file that must exist; the default need not. */
static void
test_load(void **state)
{
	struct engine_file f;
	char err[256];

	(void)state;
	enginefile_init(&f);
	assert_int_equal(enginefile_load(&f, "/nonexistent/engines.toml", err,
	    sizeof(err)), -1);
	assert_string_equal(err, "cannot read '/nonexistent/engines.toml': "
	    "no such file");
	setenv("XDG_CONFIG_HOME", "/nonexistent", 1);
	assert_int_equal(enginefile_load(&f, NULL, err, sizeof(err)), 0);
	assert_int_equal(f.n, 0);
	setenv("XDG_CONFIG_HOME", "testdata/engine/xdg", 1);
	unsetenv("HOME");
	assert_int_equal(enginefile_load(&f, NULL, err, sizeof(err)), 0);
	assert_int_equal(f.n, 0);
	assert_int_equal(enginefile_load(&f, "testdata/engine/engines.toml",
	    err, sizeof(err)), 0);
	assert_true(f.n > 0);
	enginefile_release(&f);
	enginefile_init(&f);
	/* a file that is there but wrong is its error, named */
	assert_int_equal(enginefile_load(&f, "testdata/engine/comment.txt",
	    err, sizeof(err)), -1);
	assert_non_null(strstr(err, "testdata/engine/comment.txt:"));
	enginefile_release(&f);
}

/* An --engine by name or as a command line, its options merged. */
static void
test_use(void **state)
{
	static const char text[] =
	    "[fsf]\ncommand = \"/usr/games/fairy-stockfish --x 'a b'\"\n"
	    "[fsf.options]\nThreads = 1\nHash = 16\n";
	const char *user[] = { "hash=64", "USI_Ponder=false" };
	const char *bad[] = { "Name=a\nisready" };
	struct engine_file f;
	struct engine_use u;
	char err[256];

	(void)state;
	assert_int_equal(parse(&f, text, err, sizeof(err)), 0);
	assert_int_equal(enginefile_use(&f, "fsf", user, 2, &u, err,
	    sizeof(err)), 0);
	assert_ptr_equal(u.entry, &f.v[0]);
	assert_string_equal(u.argv[0], "/usr/games/fairy-stockfish");
	assert_string_equal(u.argv[2], "a b");
	assert_null(u.argv[3]);
	/* the user's hash replaces the file's Hash in its place */
	assert_int_equal(u.noptions, 3);
	assert_string_equal(u.options[0], "Threads=1");
	assert_string_equal(u.options[1], "hash=64");
	assert_string_equal(u.options[2], "USI_Ponder=false");
	engine_use_release(&u);
	/* not a name in the file: a command line, no options of its own */
	assert_int_equal(enginefile_use(&f, "./engine -v", NULL, 0, &u, err,
	    sizeof(err)), 0);
	assert_null(u.entry);
	assert_string_equal(u.argv[1], "-v");
	assert_int_equal(u.noptions, 0);
	engine_use_release(&u);
	assert_int_equal(enginefile_use(&f, "'unclosed", NULL, 0, &u, err,
	    sizeof(err)), -1);
	engine_use_release(&u);
	assert_int_equal(enginefile_use(&f, "fsf", bad, 1, &u, err,
	    sizeof(err)), -1);
	assert_string_equal(err, "an option holds a line break");
	engine_use_release(&u);
	enginefile_release(&f);
}

int
main(void)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good),
		cmocka_unit_test(test_bad),
		cmocka_unit_test(test_read),
		cmocka_unit_test(test_load),
		cmocka_unit_test(test_use),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
