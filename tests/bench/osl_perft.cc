// osl_perft - the perft baseline of tests/bench.sh, built on OpenShogiLib
// (Debian's libosl-dev).  It counts the leaves of the legal-move tree the
// way `kifu perft` does, so the two figures can be set side by side:
//
//   osl_perft [--sfen SFEN] DEPTH
//
// prints the leaf count on stdout and, on stderr, a line in kifu's format
//   osl_perft: depth D: N nodes in S s (R M nodes/s, last ply bulk-counted)
// where S times the tree walk only (parsing and set-up are not timed).
//
// Move generation is NumEffectState::generateWithFullUnpromotions(): the
// plain generateLegal() leaves out the non-promotions of pawns, bishops
// and rooks (and of lances to the second rank), which are legal moves and
// which kifu counts.  Both reject pawn-drop mate and self-check, so the
// whole list is legal and the last ply is counted by the list's length
// (bulk counting), as kifu does.  Moves are made and unmade in place with
// makeUnmakeMove(), osl's own idiom, rather than by copying the state.

#include <osl/numEffectState.h>
#include <osl/container.h>
#include <osl/usi.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>

namespace {

typedef unsigned long long u64;

u64 perft(osl::NumEffectState &state, int depth);

// makeUnmakeMove() calls this with the move made; the move is unmade
// when it returns.
struct Child {
	osl::NumEffectState *state;
	int depth;
	u64 nodes;
	void operator()(osl::Square) { nodes += perft(*state, depth); }
};

u64 perft(osl::NumEffectState &state, int depth)
{
	osl::MoveVector moves;
	state.generateWithFullUnpromotions(moves);
	if (depth <= 1)
		return moves.size();
	Child child = { &state, depth - 1, 0 };
	for (size_t i = 0; i < moves.size(); i++)
		state.makeUnmakeMove(moves[i], child);
	return child.nodes;
}

int usage(void)
{
	std::fprintf(stderr, "usage: osl_perft [--sfen SFEN] DEPTH\n");
	return 2;
}

} // namespace

int main(int argc, char **argv)
{
	std::string position = "startpos";
	int i = 1;
	if (i + 1 < argc && std::strcmp(argv[i], "--sfen") == 0) {
		position = std::string("sfen ") + argv[i + 1];
		i += 2;
	}
	if (i + 1 != argc)
		return usage();
	char *end;
	long depth = std::strtol(argv[i], &end, 10);
	if (*end != '\0' || depth < 1 || depth > 20)
		return usage();

	osl::NumEffectState state;
	try {
		state = osl::usi::makeState(position);
	} catch (const std::exception &e) {
		std::fprintf(stderr, "osl_perft: bad position: %s\n", e.what());
		return 2;
	}

	std::chrono::steady_clock::time_point t0 =
	    std::chrono::steady_clock::now();
	u64 nodes = perft(state, (int)depth);
	double secs = std::chrono::duration<double>(
	    std::chrono::steady_clock::now() - t0).count();

	std::printf("%llu\n", nodes);
	std::fprintf(stderr,
	    "osl_perft: depth %ld: %llu nodes in %.3f s "
	    "(%.1f M nodes/s, last ply bulk-counted)\n",
	    depth, nodes, secs, secs > 0 ? nodes / secs / 1e6 : 0.0);
	return 0;
}
