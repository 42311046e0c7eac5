/*
 * Perft oracles (rules.md section 4): published leaf counts that only a
 * move generator getting every rule right reproduces. Depths here run in
 * seconds under the sanitizers; `make check-slow` runs depth 6.
 */
#include <stdio.h>

#include "helpers.h"
#include "core/perft.h"

struct perft_case {
	const char *name;
	const char *variant;
	const char *sfen;
	int depth;
	uint64_t nodes;
	int impossible;		/* composed position with more pieces than a set */
};

static const struct perft_case cases[] = {
	{ "start d1", "standard", "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1", 1, 30, 0 },
	{ "start d2", "standard", "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1", 2, 900, 0 },
	{ "start d3", "standard", "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1", 3, 25470, 0 },
	{ "start d4", "standard", "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1", 4, 719731, 0 },
	{ "start d5", "standard", "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1", 5, 19861490, 0 },
	{ "matsuri d3", "standard", "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1", 3, 4809015, 0 },
	{ "max moves d1", "standard", "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1", 1, 593, 0 },
	{ "max moves d2", "standard", "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1", 2, 105677, 0 },
	{ "uchifuzume trap d1", "standard", "7lk/9/8S/9/9/9/9/7L1/8K b P 1", 1, 85, 0 },
	{ "uchifuzume trap d4", "standard", "7lk/9/8S/9/9/9/9/7L1/8K b P 1", 4, 167089, 0 },
	{ "forced knight promotion d4", "standard", "7k1/9/9/9/l2s5/6snb/9/9/8K b 2G 1", 4, 6768869, 0 },
	{ "middle game 91 d3", "standard", "l7l/3s5/prnp2kp1/2p1Gppnp/1P7/PnPP1P3/3BP2PP/1S1G5/LN1K1G1+rL b SBG3ps 91", 3, 2067680, 0 },
	{ "middle game 124 d3", "standard", "8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w Sbgn3p 124", 3, 2552846, 0 },
	{ "bare kings with hands d2", "standard", "9/9/9/3k5/9/5K3/9/9/9 b RB2G2S2N2L9Prb2g2s2n2l9p 1", 2, 248257, 0 },
	{ "composed d3", "standard", "k+n7/sg7/9/9/9/9/+r5K1g/7L1/2LN1R1+Bb b RBGSNLP 1", 3, 414441, 1 },
	{ "stalemate d1", "standard", "+R+N+SGKG+S+N+R/+B+N+SG+LG+S+N+B/P+LPP+LPP+LP/1P2P2P1/9/9/9/9/4k4 b 9P 200", 1, 0, 0 },
	{ "minishogi d1", "minishogi", "rbsgk/4p/5/P4/KGSBR b - 1", 1, 14, 0 },
	{ "minishogi d2", "minishogi", "rbsgk/4p/5/P4/KGSBR b - 1", 2, 181, 0 },
	{ "minishogi d3", "minishogi", "rbsgk/4p/5/P4/KGSBR b - 1", 3, 2512, 0 },
	{ "minishogi d4", "minishogi", "rbsgk/4p/5/P4/KGSBR b - 1", 4, 35401, 0 },
	{ "minishogi d5", "minishogi", "rbsgk/4p/5/P4/KGSBR b - 1", 5, 533203, 0 },
};

/*
 * shogiops' minishogi fixtures (test/fixtures/perftMinishogi.ts, copied
 * to this file one position a line): random positions of real games,
 * depth 1, drops and promotions everywhere on the 5x5 board.
 */
#define SHOGIOPS_FIXTURES "testdata/minishogi/shogiops-perft.txt"

static void
test_shogiops_minishogi(void **state)
{
	FILE *f = fopen(SHOGIOPS_FIXTURES, "r");
	char line[256];
	int n = 0;

	(void)state;
	if (!f)
		fail_msg("cannot open %s (run from the top directory)",
		    SHOGIOPS_FIXTURES);
	while (fgets(line, sizeof(line), f)) {
		struct position pos;
		struct sfen_error e;
		unsigned long long want;
		int depth, at;

		if (line[0] == '#' || line[0] == '\n')
			continue;
		if (sscanf(line, "%d %llu %n", &depth, &want, &at) != 2)
			fail_msg("bad fixture line '%s'", line);
		line[strcspn(line, "\n")] = '\0';
		if (sfen_read(&pos, variant_minishogi(), line + at, &e) !=
		    SFEN_OK)
			fail_msg("'%s': %s", line + at, e.message);
		if (perft(&pos, depth) != want)
			fail_msg("'%s' depth %d: %llu leaves, shogiops counts "
			    "%llu", line + at, depth,
			    (unsigned long long)perft(&pos, depth), want);
		n++;
	}
	fclose(f);
	/* Every fixture of the file, none skipped. */
	assert_int_equal(n, 276);
}

static void
test_perft_case(void **state)
{
	const struct perft_case *pc = *state;
	struct position pos;
	struct sfen_error e;
	enum sfen_status st;
	uint64_t key;

	st = sfen_read(&pos, variant_by_name(pc->variant), pc->sfen, &e);
	assert_int_equal(st, pc->impossible ? SFEN_IMPOSSIBLE : SFEN_OK);
	key = position_key(&pos);
	assert_int_equal(perft(&pos, pc->depth), pc->nodes);
	/* perft must leave the position as it found it */
	assert_int_equal(position_key(&pos), key);
	assert_true(position_is_ok(&pos));
}

int
main(int argc, char **argv)
{
	struct CMUnitTest tests[sizeof(cases) / sizeof(cases[0]) + 1];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		tests[i].name = cases[i].name;
		tests[i].test_func = test_perft_case;
		tests[i].setup_func = NULL;
		tests[i].teardown_func = NULL;
		tests[i].initial_state = (void *)&cases[i];
	}
	tests[i++] = (struct CMUnitTest)cmocka_unit_test(
	    test_shogiops_minishogi);
	if (argc > 1)
		cmocka_set_test_filter(argv[1]);
	return _cmocka_run_group_tests("core/perft", tests,
	    sizeof(tests) / sizeof(tests[0]), NULL, NULL);
}
