#!/bin/sh
# The analysis bench (issue 29): `sh tests/bench/analyze.sh ./kifu`, run
# by tests/bench.sh (make bench) with both cores, or alone. Needs
# fairy-stockfish (skipped, and said so, without it). Figures, each
# against a baseline of the same run:
#   - kifu's own cost a position at --nodes 1: its CPU time (the totals
#     line, getrusage of kifu alone) and its wall time, per position;
#   - --nodes 20000 over 100 generated games: kifu's wall time against
#     the sum of the times the engine reported, and against that sum and
#     the engine's usinewgame before each search (its cost measured by
#     tests/bench/engine_newgame.py in the same run: work the engine does
#     outside the times it reports);
#   - -j2 against -j1;
#   - the cache: a second run over the same games against the first;
#   - a plain Python script driving the engine (tests/bench/analyze_py.py)
#     on the same positions at the same limit, against kifu -j1, and
#     against kifu -j2 with the cache, on 100 games sharing openings.
#     The engine's speed swings by 10% between identical runs on a shared
#     machine, more than kifu's share of the time: beside the wall times,
#     each side's wall is set against the engine's own reported times
#     of that run (their time outside the searches, compared).
# The positions are the first $BENCH_ANALYZE_PLIES + 1 (default 6) of
# each game, so that the run takes minutes, not hours, on a shared
# machine; raise it for a longer, steadier run.
kifu=$1
if [ -z "$kifu" ] || [ ! -x "$kifu" ]; then
	echo "usage: sh tests/bench/analyze.sh KIFU" >&2
	exit 2
fi
kifu=$(cd "$(dirname "$kifu")" && pwd)/$(basename "$kifu")
root=$(cd "$(dirname "$0")/../.." && pwd)
fsf=/usr/games/fairy-stockfish
py=${PYTHON:-python3}
[ -x /usr/bin/python3 ] && py=${PYTHON:-/usr/bin/python3}
plies=${BENCH_ANALYZE_PLIES:-5}
nodes=20000
echo
if [ ! -x "$fsf" ]; then
	echo "analyze: skipped: fairy-stockfish is not installed (apt-get install fairy-stockfish)"
	exit 0
fi
work=$root/build/bench/analyze
rm -rf "$work"
mkdir -p "$work/games" "$work/shared"
${CC:-cc} -O2 -I"$root" -D_POSIX_C_SOURCE=200809L -o "$work/gen_games" \
    "$root/tests/bench/gen_games.c" "$root/libkifu.a" -lpthread ||
    { echo "analyze: cannot build gen_games"; exit 2; }
"$work/gen_games" "$work/games" 100 20261203
# 10 openings of 3 moves, 10 games each: half of each game's positions
# analysed (0-5) are shared, as an archive's openings are.
"$work/gen_games" "$work/shared" 100 20261204 3 10
for d in games shared; do
	for f in "$work/$d"/*.csa; do
		"$kifu" convert -t usi "$f" 2>/dev/null
	done >"$work/$d.usi"
done

now() {
	t=$(date +%s%N 2>/dev/null)
	case $t in *N) echo $(($(date +%s) * 1000000000)) ;; *) echo "$t" ;; esac
}

# run NAME ARGS...: kifu analyze ARGS; sets ms (wall), pos, cpu (s),
# eng (s), inall (s) from its totals line.
run() {
	name=$1; shift
	t0=$(now)
	"$kifu" analyze --engine "$fsf" --no-progress "$@" >/dev/null 2>"$work/$name.err"
	rc=$?
	t1=$(now)
	ms=$(((t1 - t0) / 1000000))
	line=$(grep '^kifu: .* positions:' "$work/$name.err" | tail -1)
	pos=$(echo "$line" | sed 's/.* records\{0,1\}, \([0-9]*\) positions.*/\1/')
	eng=$(echo "$line" | sed 's/.*engine \([0-9.]*\) s.*/\1/')
	cpu=$(echo "$line" | sed 's/.*kifu \([0-9.]*\) s CPU.*/\1/')
	inall=$(echo "$line" | sed 's/.* \([0-9.]*\) s in all.*/\1/')
	[ "$rc" -le 1 ] && [ -n "$line" ] ||
	    { echo "analyze: FAIL: $name (exit $rc)"; head -5 "$work/$name.err"; exit 1; }
}

ratio() { awk "BEGIN { if ($2 > 0) printf \"%.2f\", $1 / $2; else print \"-\" }"; }
line() { printf '%-46s %9s %9s %9s\n' "$@"; }

echo "analyze: $($fsf </dev/null 2>/dev/null | head -1), --nodes $nodes, positions 0-$plies of 100 games"

# --- kifu's own cost, --nodes 1 (best of three) ---------------------------
best_cpu='' best_ms=''
for _ in 1 2 3; do
	run nodes1 --nodes 1 --to-ply "$plies" --json "$work/games"
	best_cpu=$(awk -v a="$best_cpu" -v b="$cpu" 'BEGIN { print (a == "" || b < a) ? b : a }')
	best_ms=$(awk -v a="$best_ms" -v b="$ms" 'BEGIN { print (a == "" || b < a) ? b : a }')
done
n1=$pos
line "kifu's own cost at --nodes 1" "positions" "ms/pos" "target"
line "kifu CPU time (getrusage, kifu alone)" "$n1" \
    "$(awk "BEGIN { printf \"%.3f\", $best_cpu * 1000 / $n1 }")" "< 0.2"
line "wall time, engine's work and pipes included" "$n1" \
    "$(awk "BEGIN { printf \"%.3f\", $best_ms / $n1 }")" ""

# --- nodes 20000: wall against the engine's own time; -j2 against -j1 -------
run j1 --nodes $nodes --to-ply "$plies" --json "$work/games"
j1ms=$ms j1eng=$eng j1pos=$pos j1all=$inall
newgame=$("$py" "$root/tests/bench/engine_newgame.py" "$fsf" 200 |
    sed -n 's/^newgame //p')
[ -n "$newgame" ] || { echo "analyze: FAIL: the usinewgame baseline"; exit 1; }
run j2 --nodes $nodes --to-ply "$plies" --json -j2 "$work/games"
j2ms=$ms
j1engms=$(awk "BEGIN { print $j1eng * 1000 }")
j1ngms=$(awk "BEGIN { print $j1engms + $newgame * $j1pos }")
echo
line "--nodes $nodes, $j1pos positions" "ms" "ratio" "target"
line "engine's reported times, summed (-j1)" \
    "$(awk "BEGIN { printf \"%d\", $j1engms }")" "1.00" ""
line "kifu -j1, wall (startup and quit included)" "$j1ms" \
    "$(ratio "$j1ms" "$j1engms")" "<= 1.05"
line "kifu -j1, the walk alone (first to last record)" \
    "$(awk "BEGIN { printf \"%d\", $j1all * 1000 }")" \
    "$(ratio "$(awk "BEGIN { print $j1all * 1000 }")" "$j1engms")" ""
line "the engine's usinewgame ($newgame ms), each search" \
    "$(awk "BEGIN { printf \"%d\", $newgame * $j1pos }")" \
    "$(ratio "$(awk "BEGIN { print $newgame * $j1pos }")" "$j1engms")" ""
line "kifu -j1, wall: against the two together" "$j1ms" \
    "$(ratio "$j1ms" "$j1ngms")" "<= 1.05"
line "kifu -j2, wall: -j1/-j2" "$j2ms" "$(ratio "$j1ms" "$j2ms")" ">= 1.8"

# --- the cache, on games that share openings --------------------------------
run k1 --nodes $nodes --to-ply "$plies" --json "$work/shared"
k1ms=$ms k1pos=$pos k1eng=$eng
rm -f "$work/cache.db"*
run c1 --nodes $nodes --to-ply "$plies" --json -j2 --cache "$work/cache.db" "$work/shared"
c1ms=$ms c1searched=$(sed -n 's/.* \([0-9]*\) searched.*/\1/p' "$work/c1.err" | tail -1)
run c2 --nodes $nodes --to-ply "$plies" --json -j2 --cache "$work/cache.db" "$work/shared"
c2ms=$ms
t0=$(now)
"$py" "$root/tests/bench/analyze_py.py" "$fsf" $nodes "$plies" "$work/shared.usi" \
    >"$work/py.out" || { echo "analyze: FAIL: the Python baseline"; exit 1; }
t1=$(now)
pyms=$(((t1 - t0) / 1000000))
pypos=$(sed 's/positions \([0-9]*\).*/\1/' "$work/py.out")
pyeng=$(sed -n 's/.* engine \([0-9.]*\).*/\1/p' "$work/py.out")
# Each side's wall over the engine's reported times of its own run.
pyover=$(ratio "$pyms" "$(awk "BEGIN { print $pyeng * 1000 }")")
k1over=$(ratio "$k1ms" "$(awk "BEGIN { print $k1eng * 1000 }")")
echo
line "100 games sharing 10 openings, $k1pos positions" "ms" "ratio" "target"
line "Python, a plain subprocess ($pypos positions)" "$pyms" "1.00" ""
line "kifu -j1, no cache: Python/kifu" "$k1ms" "$(ratio "$pyms" "$k1ms")" ">= 1"
line "  Python, wall / the engine's times of its run" "" "$pyover" ""
line "  kifu -j1, wall / the engine's times of its run" "" "$k1over" ""
line "  the same engine work: Python/kifu" "" "$(ratio "$pyover" "$k1over")" ">= 1"
# The two in turn, three pairs over 20 of the games: the median of the
# pairs' ratios, which a drift of the machine's speed moves least.
mkdir -p "$work/pairs"
for f in $(ls "$work/shared"/*.csa | head -20); do cp "$f" "$work/pairs/"; done
for f in "$work/pairs"/*.csa; do "$kifu" convert -t usi "$f" 2>/dev/null; done \
    >"$work/pairs.usi"
pairs=''
for _ in 1 2 3; do
	run pk --nodes $nodes --to-ply "$plies" --json "$work/pairs"
	pkms=$ms
	t0=$(now)
	"$py" "$root/tests/bench/analyze_py.py" "$fsf" $nodes "$plies" \
	    "$work/pairs.usi" >/dev/null || { echo "analyze: FAIL: the Python baseline"; exit 1; }
	t1=$(now)
	pairs="$pairs $(ratio "$(((t1 - t0) / 1000000))" "$pkms")"
done
pmed=$(echo $pairs | tr ' ' '\n' | sort -n | sed -n 2p)
line "  in turn, 3 pairs of $pos positions, median" "" "$pmed" ">= 1"
echo "    (the pairs: Python/kifu$pairs)"
line "kifu -j2, new cache ($c1searched searched): Python/kifu" "$c1ms" \
    "$(ratio "$pyms" "$c1ms")" ">= 2"
line "kifu -j2, the cache's second run: first/second" "$c2ms" \
    "$(ratio "$c1ms" "$c2ms")" ">= 50"
