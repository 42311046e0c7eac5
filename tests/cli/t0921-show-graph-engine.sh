#!/bin/sh
# kifu show --graph over what kifu analyze writes, live: the first moves of
# a game analysed by fairy-stockfish, then drawn; every analysed position a
# point, every judgement kifu analyze wrote a flag. Skipped (exit 77)
# without the engine.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
. "$here/graph.sh"

fsf=/usr/games/fairy-stockfish
if [ ! -x "$fsf" ]; then
	echo "$name: $fsf is not installed (apt-get install fairy-stockfish)"
	rm -rf "$tmp"
	exit 77
fi
sed -n 2p "$TESTDATA/usi/games.usi" >even.usi
expect_success "analyze" timeout 300 "$KIFU" analyze --engine "$fsf" \
    --option Threads=1 --nodes 2000 --to-ply 12 -t kif -o an even.usi
expect_success "graph" "$KIFU" show --graph --svg -o an.svg an/even.kif
# The game has 22 moves; the start and the first 12 were analysed.
check_graph an.svg 22 13 0 "$(LC_ALL=C grep -ac '^\*#kifu-analyze: .*(loss [0-9]*)' an/even.kif)"
expect_success "sparkline" "$KIFU" show --graph an/even.kif
grep -q "  22 moves, 13 of 23 positions evaluated; [-+0-9]* at move 12; " out ||
	{ echo "$name: sparkline"; cat out; failed=1; }

[ "$failed" -eq 0 ] && rm -rf "$tmp"
exit "$failed"
