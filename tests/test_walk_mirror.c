/*
 * The paths of `kifu analyze -o DIR` (walk/mirror.h): the input tree
 * under the directory, the argument's last component kept, archives'
 * members under the archive's name, the extension the target format's,
 * and no name that leads out of the directory.
 */
#include <stdio.h>

#include "helpers.h"
#include "core/core.h"
#include "walk/mirror.h"

struct mirror_case {
	const char *name;	/* as the walk names the input */
	const char *args[3];	/* the command's paths, NULL-ended */
	const char *ext;
	const char *want;	/* NULL: refused */
};

static const struct mirror_case cases[] = {
	/* A directory argument keeps its last component. */
	{ "games/a.kif", { "games" }, ".kif", "out/games/a.kif" },
	{ "games/a.kif", { "games/" }, ".kif", "out/games/a.kif" },
	{ "games//a.kif", { "games//" }, ".kif", "out/games/a.kif" },
	{ "x/games/sub/a.csa", { "x/games" }, ".csa", "out/games/sub/a.csa" },
	{ "./games/a.kif", { "./games" }, ".kif", "out/games/a.kif" },
	/* "." and ".." name no component to keep. */
	{ "./a.kif", { "." }, ".kif", "out/a.kif" },
	{ "../x/a.kif", { ".." }, ".kif", "out/x/a.kif" },
	/* A file named itself: its own name. */
	{ "in/../h.csa", { "in/../h.csa" }, ".csa", "out/h.csa" },
	{ "a.kif", { "a.kif" }, ".kif", "out/a.kif" },
	/* The longest argument it is under, by whole components. */
	{ "games/sub/a.kif", { "games", "games/sub" }, ".kif", "out/sub/a.kif" },
	{ "games/a.kif", { "game" }, ".kif", "out/games/a.kif" },
	/* Archives: the members under the archive's name. */
	{ "arc.tar//in/c.csa", { "arc.tar" }, ".csa", "out/arc.tar/in/c.csa" },
	{ "d/arc.zip//x.kif", { "d" }, ".kif", "out/d/arc.zip/x.kif" },
	/* The target's extension replaces a record format's only. */
	{ "g/a.csa", { "g" }, ".kif", "out/g/a.kif" },
	{ "g/notes.txt", { "g" }, ".kif", "out/g/notes.txt.kif" },
	{ "g/a", { "g" }, ".kif", "out/g/a.kif" },
	{ "g/.kif", { "g" }, ".csa", "out/g/.kif.csa" },
	{ "g/a.b/c", { "g" }, ".kif", "out/g/a.b/c.kif" },
	{ "<stdin>", { NULL }, ".csa", "out/stdin.csa" },
	/* Nothing leads up and out of the directory. */
	{ "../etc/a.kif", { NULL }, ".kif", NULL },
	{ "x/../../a.kif", { "y" }, ".kif", NULL },
	{ "arc.tar//../../a.kif", { "arc.tar" }, ".kif", NULL },
	{ "g/..", { "g" }, ".kif", NULL },
	/* A name that is nothing. */
	{ "", { NULL }, ".kif", NULL },
	{ ".", { "." }, ".kif", NULL },
};

static void
test_cases(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct mirror_case *c = &cases[i];
		struct strbuf out = STRBUF_INIT;
		int n = 0, rc;

		while (n < 3 && c->args[n])
			n++;
		strbuf_adds(&out, "kept:");
		rc = walk_mirror(c->name, (char *const *)c->args, n, "out",
		    c->ext, &out);
		if (!c->want) {
			if (rc != -1 || strcmp(out.buf, "kept:"))
				fail_msg("'%s': refused wanted, got %d '%s'",
				    c->name, rc, out.buf);
		} else if (rc != 0 || strcmp(out.buf + 5, c->want)) {
			fail_msg("'%s': '%s' wanted, got %d '%s'", c->name,
			    c->want, rc, out.buf + 5);
		}
		strbuf_release(&out);
	}
}

int
main(void)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cases),
	};

	core_init();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
