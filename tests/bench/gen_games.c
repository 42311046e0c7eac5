/*
 * gen_games - writes N CSA game records of random legal moves (fixed
 * seed, so every run builds the same corpus) for `make bench`.
 *
 *   gen_games DIR N [SEED [SHARED OPENINGS]]
 *
 * With SHARED and OPENINGS, game i starts with the first SHARED moves of
 * opening i % OPENINGS (each opening a random line of its own), as an
 * archive's games share their openings (the analysis cache's bench).
 */
#include <stdio.h>
#include <stdlib.h>

#include "core/movegen.h"
#include "core/position.h"

static const char *const code[PT_NB] = {
	"", "FU", "KY", "KE", "GI", "KA", "HI", "KI", "OU",
	"TO", "NY", "NK", "NG", "UM", "RY"
};

static uint64_t
next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

int
main(int argc, char **argv)
{
	uint64_t seed;
	long n, i, openings;
	int shared;

	if (argc < 3) {
		fputs("usage: gen_games DIR N [SEED [SHARED OPENINGS]]\n",
		    stderr);
		return 2;
	}
	n = atol(argv[2]);
	seed = argc > 3 ? strtoull(argv[3], NULL, 10) : 20261129;
	shared = argc > 5 ? atoi(argv[4]) : 0;
	openings = argc > 5 ? atol(argv[5]) : 1;
	if (openings < 1)
		openings = 1;
	for (i = 0; i < n; i++) {
		char path[4096];
		struct position pos;
		FILE *f;
		int ply, len = 60 + (int)(next(&seed) % 120);
		/* The opening's own generator, the same for all its games. */
		uint64_t os = (uint64_t)(i % openings + 1) * 0x9e3779b97f4a7c15ULL;

		snprintf(path, sizeof(path), "%s/g%06ld.csa", argv[1], i);
		if (!(f = fopen(path, "w"))) {
			perror(path);
			return 2;
		}
		fprintf(f, "V2.2\nN+black%ld\nN-white%ld\n$EVENT:bench %ld\n"
		    "PI\n+\n", i, i, i);
		position_set_start(&pos, variant_standard());
		for (ply = 0; ply < len; ply++) {
			struct move_list ml;
			struct undo u;
			move m;

			if (movegen_legal(&pos, &ml) == 0)
				break;
			m = ml.m[next(ply < shared ? &os : &seed) %
			    (uint64_t)ml.n];
			if (move_is_drop(m))
				fprintf(f, "%c00%d%d%s\nT%d\n",
				    pos.side == BLACK ? '+' : '-',
				    sq_file(move_to(m)) + 1,
				    sq_rank(move_to(m)) + 1,
				    code[move_drop_type(m)], (int)(next(&seed) % 30));
			else
				fprintf(f, "%c%d%d%d%d%s\nT%d\n",
				    pos.side == BLACK ? '+' : '-',
				    sq_file(move_from(m)) + 1,
				    sq_rank(move_from(m)) + 1,
				    sq_file(move_to(m)) + 1,
				    sq_rank(move_to(m)) + 1,
				    code[piece_type_of(move_piece_after(m))],
				    (int)(next(&seed) % 30));
			position_do_move(&pos, m, &u);
		}
		fputs("%TORYO\n", f);
		if (fclose(f) != 0) {
			perror(path);
			return 2;
		}
	}
	return 0;
}
