#!/bin/sh
# kifu match (issue 30) with the real engines of Debian
# (../shared/docs/engines.md 1.5, 1.6): Fairy-Stockfish against itself
# (Threads 1, a node limit: deterministic), in parallel and not, and in
# minishogi; Fairy-Stockfish against gpsusi under byoyomi, gpsusi with a
# private OSL_HOME and no Fischer. Every record validates with the
# referee's verdict. An engine that is not installed is a skip, said.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/engine.sh"

fsf=/usr/games/fairy-stockfish
gps=/usr/games/gpsusi
[ -x "$fsf" ] || [ -x "$gps" ] ||
	skip "neither fairy-stockfish nor gpsusi is installed (apt-get install fairy-stockfish gpsshogi)"

valid() {
	d=$1 title=$2; shift 2
	if ! "$KIFU" validate "$@" "$d"/* >vout 2>verr; then
		echo "$name: $title: records do not validate:"; cat vout verr
		failed=1
	fi
}

# moves DIR: each record's moves, one record a line.
moves() {
	for f in "$1"/*; do grep '^[+-][0-9]' "$f" | tr '\n' ' '; echo; done
}

cat >ops.txt <<'EOF'
startpos moves 7g7f 3c3d
startpos moves 2g2f 8c8d
startpos moves 7g7f 8c8d
EOF

if [ -x "$fsf" ]; then
	F="$fsf"
	run_match 0 "fsf self-match" --engine "$F" --option Threads=1 --engine "$F" \
	    --option Threads=1 --games 6 --tc nodes=400 --openings ops.txt --max-moves 120 \
	    -o a --results a.jsonl --timeout-init 60000
	valid a "fsf self-match" --rules csa,max-moves=120
	grep -q '^Fairy-Stockfish 11.1 LB 64 vs Fairy-Stockfish 11.1 LB 64 #2: 6 games' out ||
	    { echo "$name: fsf stats"; cat out; failed=1; }
	grep -q "^'\*\* -\?[0-9]* [+-][0-9]" a/game-0001.csa ||
	    { echo "$name: no Floodgate score comment"; failed=1; }
	# Deterministic: the same games with two at once.
	run_match 0 "fsf concurrency 2" --engine "$F" --option Threads=1 --engine "$F" \
	    --option Threads=1 --games 6 --tc nodes=400 --openings ops.txt --max-moves 120 \
	    --concurrency 2 -o b --timeout-init 60000
	valid b "fsf concurrency 2" --rules csa,max-moves=120
	moves a >ma
	moves b >mb
	cmp -s ma mb || { echo "$name: games differ with --concurrency 2"; diff ma mb | head -5; failed=1; }
	# Minishogi, the variant set by kifu, minishogi's rules.
	run_match 0 "fsf minishogi" --variant minishogi --engine "$F" --option Threads=1 \
	    --engine "$F" --option Threads=1 --games 2 --tc nodes=300 -o m -t kif \
	    --timeout-init 60000
	valid m "fsf minishogi" --variant minishogi --rules minishogi
	# A time control: 2 s + 0.1 s Fischer, a short game.
	run_match 0 "fsf fischer" --engine "$F" --option Threads=1 --engine "$F" \
	    --option Threads=1 --games 2 --tc 2+0.1 --max-moves 16 -o f --timeout-init 60000
	valid f "fsf fischer" --rules csa,max-moves=16
	grep -q '^\$TIME:2+0+0.1' f/game-0001.csa || { echo "$name: fischer \$TIME"; failed=1; }
	run_match 2 "fsf bad option" --engine "$F" --option Threads=abc --engine "$F" --games 2
	expect_stderr_has "fsf bad option" "option 'Threads' takes a whole number, not 'abc'"
else
	echo "$name: skipped: fairy-stockfish is not installed (apt-get install fairy-stockfish)"
fi

if [ -x "$gps" ] && [ -x "$fsf" ]; then
	conf=/usr/share/gpsshogi-data/gpsusi.conf
	had_conf=0
	[ -e "$conf" ] && had_conf=1
	mkdir t
	# gpsusi counts whole seconds and overruns short byoyomi (engines.md
	# 1.6.3): 1 s with a margin of 1 s.
	TMPDIR=$tmp/t run_match 0 "fsf vs gpsusi" --engine "$fsf" --option Threads=1 \
	    --engine "$gps" --games 2 --tc byoyomi=1 --timemargin 1000 --max-moves 10 \
	    --timeout-init 120000 -o g --results g.jsonl
	valid g "fsf vs gpsusi" --rules csa,max-moves=10
	grep -q '"white":"gpsshogi' g.jsonl || { echo "$name: gpsusi name"; cat g.jsonl; failed=1; }
	[ "$(ls t)" = "" ] || { echo "$name: OSL_HOME left: $(ls t)"; failed=1; }
	[ "$had_conf" -eq 1 ] || [ ! -e "$conf" ] || { echo "$name: gpsusi wrote $conf"; failed=1; }
	TMPDIR=$tmp/t run_match 2 "gpsusi fischer" --engine "$fsf" --engine "$gps" --tc 10+1 \
	    --timeout-init 120000
	expect_stderr_has "gpsusi fischer" "does not take go binc"
	TMPDIR=$tmp/t run_match 2 "gpsusi nodes" --engine "$fsf" --engine "$gps" --tc nodes=100 \
	    --timeout-init 120000
	expect_stderr_has "gpsusi nodes" "does not take go nodes"
else
	echo "$name: skipped: gpsusi or fairy-stockfish is not installed (apt-get install gpsshogi fairy-stockfish)"
fi

finish
