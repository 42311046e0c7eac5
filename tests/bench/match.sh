#!/bin/sh
# The match bench (issue 30): `sh tests/bench/match.sh ./kifu`, run by
# tests/bench.sh (make bench) with both cores, or alone. Figures:
#   - the referee's overhead: the time from reading one engine's bestmove
#     to writing the next go to the other, every move of a match at
#     --tc nodes=1, median and 99th percentile, against the mock engine
#     (tests/mock_engine.c, built by make check) and Fairy-Stockfish
#     (target: a median under 50 us);
#   - games per second at --tc nodes=1000 with Fairy-Stockfish,
#     --concurrency 2 against 1 (target: at least 1.8x on two cores).
# kifu writes each sample (microseconds) to $KIFU_MATCH_OVERHEAD when it
# is set: the samples are kifu's own monotonic clock, as the referee
# measures the engines' times. An engine that is missing is skipped, and
# said so.
kifu=$1
if [ -z "$kifu" ] || [ ! -x "$kifu" ]; then
	echo "usage: sh tests/bench/match.sh KIFU" >&2
	exit 2
fi
kifu=$(cd "$(dirname "$kifu")" && pwd)/$(basename "$kifu")
root=$(cd "$(dirname "$0")/../.." && pwd)
fsf=/usr/games/fairy-stockfish
mock=$root/build/san/tests/mock_engine
games=${BENCH_MATCH_GAMES:-20}
work=$root/build/bench/match
rm -rf "$work"
mkdir -p "$work"
cd "$work" || exit 2
cat >openings.txt <<'EOF'
startpos moves 7g7f 3c3d
startpos moves 2g2f 8c8d
startpos moves 7g7f 8c8d
startpos moves 2g2f 3c3d
startpos moves 5g5f 5c5d
EOF
echo
echo "match: the referee's overhead, bestmove read to the next go written (us)"

# pct FILE: "median p99 n" of the samples.
pct() {
	sort -n "$1" | awk '{ v[NR] = $1 } END {
	    if (NR == 0) { print "- - 0"; exit }
	    m = v[int((NR + 1) / 2)]; p = v[int(NR * 0.99 + 0.999)]
	    if (p == "") p = v[NR]
	    print m, p, NR }'
}

overhead() {
	title=$1; shift
	rm -f samples
	if ! KIFU_MATCH_OVERHEAD=$work/samples "$kifu" match "$@" --tc nodes=1 \
	    --openings openings.txt --games "$games" -q >out 2>err; then
		echo "match: $title: the match failed"; cat err
		return 1
	fi
	set -- $(pct samples)
	printf '  %-34s median %6s  p99 %7s  (%s moves)\n' "$title" "$1" "$2" "$3"
	median=$1
}

ofail=0
if [ -x "$mock" ]; then
	overhead "against the mock" --engine "$mock --name A" --engine "$mock --name B" \
	    --max-moves 200 || ofail=1
	m1=${median:-}
else
	echo "  against the mock: skipped: build it first (make $mock)"
fi
if [ -x "$fsf" ]; then
	overhead "against fairy-stockfish" --engine "$fsf" --option Threads=1 \
	    --engine "$fsf" --option Threads=1 || ofail=1
	m2=${median:-}
else
	echo "  against fairy-stockfish: skipped: not installed (apt-get install fairy-stockfish)"
fi
echo "target: a median under 50 us"

if [ -x "$fsf" ]; then
	now() { date +%s%N; }
	rate() {
		c=$1
		t0=$(now)
		"$kifu" match --engine "$fsf" --option Threads=1 --engine "$fsf" \
		    --option Threads=1 --tc nodes=1000 --openings openings.txt \
		    --games "$games" --concurrency "$c" -q >out 2>err || {
			echo "match: concurrency $c failed"; cat err; return 1; }
		t1=$(now)
		ms=$(( (t1 - t0) / 1000000 ))
	}
	rate 1 || ofail=1
	ms1=$ms
	rate 2 || ofail=1
	ms2=$ms
	echo
	echo "match: $games games of Fairy-Stockfish at --tc nodes=1000"
	awk -v a="$ms1" -v b="$ms2" -v g="$games" 'BEGIN {
	    printf "  --concurrency 1  %7d ms  %6.2f games/s\n", a, g * 1000 / a
	    printf "  --concurrency 2  %7d ms  %6.2f games/s  %.2fx\n", b, g * 1000 / b, a / b }'
	echo "target: --concurrency 2 at least 1.8x --concurrency 1 (two free cores)"
fi
exit $ofail
