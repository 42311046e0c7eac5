#!/bin/sh
# kifu match (issue 30) with the mock engine (tests/mock_engine.c): each
# way a game ends (mate by a real engine is in t1460), each fault of an
# engine (an illegal move, a false declaration, no bestmove, death at
# move k, noise before usiok, a stop ignored, a late readyok, a flood),
# time losses, the openings file and its errors, the results and
# --report, the statistics and SPRT stopping, concurrency in game order,
# SIGINT. Every record written must validate with the referee's verdict;
# no run may hang (bounded) or leave an engine behind (engine.sh).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/engine.sh"

# fault NAME ARGS: the mock with a fault, its go commands counted afresh
# (kifu tries the limit of an engine it does not know with one go first).
fault() {
	f=$1; shift
	rm -f "$tmp/count"
	echo "$mockcmd --name A --fault $f --counter $tmp/count $*"
}
B="$mockcmd --name B"

# reasons FILE: "result reason" of each game of a results file.
reasons() {
	python3 -c 'import json,sys
for l in open(sys.argv[1]): g = json.loads(l); print(g["result"], g["reason"])' "$1" |
	    tr '\n' ';'
}

# valid DIR TITLE: every record validates under the rules given after.
valid() {
	d=$1 title=$2; shift 2
	if ! "$KIFU" validate "$@" "$d"/* >vout 2>verr; then
		echo "$name: $title: records do not validate:"; cat vout verr
		failed=1
	fi
}

# one TITLE EXPECT ENGINE-A [ARGS]: a game, A as Black, its "result reason".
one() {
	title=$1 wanted=$2 a=$3; shift 3
	rm -rf rec r.jsonl
	run_match 0 "$title" --engine "$a" --engine "${other:-$B}" --games 1 --no-repeat \
	    --tc nodes=10 --timeout-move 2000 -o rec --results r.jsonl "$@"
	got=$(reasons r.jsonl)
	[ "$got" = "$wanted;" ] || { echo "$name: $title: got '$got', want '$wanted'"; failed=1; }
	valid rec "$title" --rules "${vrules:-csa}"
}

# --- endings, scripted -----------------------------------------------------------

one "max moves" "draw max-moves" "$mockcmd --name A"
grep -q '^%MAX_MOVES' rec/game-0001.csa || { echo "$name: no %MAX_MOVES"; failed=1; }
one "move limit 10" "draw max-moves" "$mockcmd --name A" --max-moves 10
grep -c '^[+-][0-9]' rec/game-0001.csa | grep -qx 10 || { echo "$name: not 10 moves"; failed=1; }
# Both kings step out and back: the start position comes back, a fourth
# time on move 13 (csa: the start is not its own first occurrence).
rm -rf rec r.jsonl
run_match 0 "sennichite" --engine "$mockcmd --name A --play 5i4h,4h5i" \
    --engine "$mockcmd --name B --play 5a4b,4b5a" --games 1 --no-repeat --tc nodes=1 \
    -o rec --results r.jsonl
[ "$(reasons r.jsonl)" = "draw sennichite;" ] || { echo "$name: sennichite: $(reasons r.jsonl)"; failed=1; }
valid rec sennichite --rules csa
grep -c '^[+-][0-9]' rec/game-0001.csa | grep -qx 13 || { echo "$name: sennichite not on move 13"; failed=1; }
cat >perp.sfen <<'EOF'
# Black's rook checks on files 1 and 2, White's king steps aside
sfen 8k/9/7R1/9/9/9/9/9/K8 b r2b4g4s4n4l18p 1
EOF
rm -rf rec r.jsonl
run_match 0 "perpetual check" --engine "$mockcmd --name A --play 2c1c,1c2c" \
    --engine "$mockcmd --name B --play 1a2a,2a1a" --games 1 --no-repeat --tc nodes=1 \
    --openings perp.sfen -o rec --results r.jsonl
[ "$(reasons r.jsonl)" = "white perpetual-check;" ] ||
    { echo "$name: perpetual: $(reasons r.jsonl)"; failed=1; }
valid rec "perpetual check" --rules csa
grep -q '^%+ILLEGAL_ACTION' rec/game-0001.csa || { echo "$name: perpetual terminal"; failed=1; }
cat >decl.sfen <<'EOF'
position sfen RRBBGGGGS/S3K4/9/9/9/9/9/9/4k4 b 2P2s4n4l16p 1
EOF
one "declaration" "black declaration" "$mockcmd --name A --fault declare-win" --openings decl.sfen
grep -q '^%KACHI' rec/game-0001.csa || { echo "$name: no %KACHI"; failed=1; }
# Under the JSA's 24-point rule 28 points draw.
vrules=jsa
one "declaration jsa" "draw declaration" "$mockcmd --name A --fault declare-win" \
    --openings decl.sfen --rules jsa
vrules=csa
one "false declaration" "white false-declaration" "$(fault declare-win --at 3)"
grep -q '^%ILLEGAL_MOVE' rec/game-0001.csa || { echo "$name: false declaration terminal"; failed=1; }
one "resign" "white resign" "$(fault resign --at 3)"

# --- faults -----------------------------------------------------------------------

one "illegal move" "white illegal-move" "$(fault illegal-bestmove --at 4)"
grep -q "sent an illegal bestmove '5e5e'" r.jsonl || { echo "$name: illegal move text"; failed=1; }
one "empty bestmove" "white illegal-move" "$(fault empty-bestmove --at 2)"
one "dies at move 5" "white crash" "$(fault die-search --at 4)"
grep -q 'exited with status 134' r.jsonl || { echo "$name: death text"; cat r.jsonl; failed=1; }
one "no bestmove, stop ignored" "white hang" "$(fault hang-search --at 2)"
grep -q 'did not answer stop and was ended' r.jsonl || { echo "$name: hang text"; failed=1; }
one "no bestmove until stop" "white hang" "$(fault overrun --at 2)"
grep -q 'it answered stop' r.jsonl || { echo "$name: overrun text"; failed=1; }
one "flood" "white hang" "$(fault flood-search --at 2)"
one "closes its output" "white crash" "$(fault close-output --at 3)"
one "noise before usiok" "draw max-moves" "$mockcmd --name A --fault noise-init" --max-moves 20
one "late readyok" "draw max-moves" "$mockcmd --name A --ready-delay 800" --max-moves 20
run_match 2 "readyok past the timeout" --engine "$mockcmd --name A --ready-delay 3000" \
    --engine "$B" --timeout-init 1000 --games 1
expect_stderr_has "readyok timeout" "did not answer isready (readyok) within 1000 ms"
run_match 2 "never starts" --engine "/nonexistent/engine" --engine "$B" --games 1
expect_stderr_has "no engine" "no such file"

# An engine that dies is started again and plays the next game.
rm -rf rec r.jsonl
run_match 0 "restarted" --engine "$(fault die-search --at 4)" --engine "$B" --games 2 \
    --tc nodes=10 --max-moves 20 -o rec --results r.jsonl
[ "$(reasons r.jsonl)" = "white crash;draw max-moves;" ] ||
    { echo "$name: restart: $(reasons r.jsonl)"; failed=1; }
valid rec restarted --rules csa

# --- time ---------------------------------------------------------------------------

# 0.5 s and 0.1 s byoyomi, 0.3 s a move: Black's third move is late.
one "time up" "white time-up" "$mockcmd --name A --think 300" --tc 0.5+byoyomi=0.1
grep -q '^%TIME_UP' rec/game-0001.csa || { echo "$name: no %TIME_UP"; failed=1; }
grep -q '^\$TIME:0.5+0.1+0' rec/game-0001.csa || { echo "$name: no \$TIME"; failed=1; }
grep -q '^T0.3' rec/game-0001.csa || { echo "$name: no T0.3"; failed=1; }
# The same with a margin that covers it: no loss.
one "time margin" "draw max-moves" "$mockcmd --name A --think 300" --tc 0.5+byoyomi=0.1 \
    --timemargin 400 --max-moves 6
# Fischer: 0.2 s and 0.15 s a move, 0.1 s a move used: never short.
one "fischer" "draw max-moves" "$mockcmd --name A --think 100" --tc 0.2+0.15 --max-moves 8
grep -q '^\$TIME:0.2+0+0.15' rec/game-0001.csa || { echo "$name: fischer \$TIME"; failed=1; }

# The go lines the engine got: the clocks, in milliseconds.
rm -rf rec r.jsonl log
run_match 0 "go lines" --engine "$mockcmd --name A --log $tmp/log" --engine "$B" --games 1 \
    --no-repeat --tc 60+byoyomi=2 --max-moves 4
grep -q '^go btime 60000 wtime 60000 byoyomi 2000$' log || { echo "$name: go line"; grep '^go' log; failed=1; }
grep -q '^usinewgame$' log || { echo "$name: no usinewgame"; failed=1; }
grep -q '^gameover draw$' log || { echo "$name: no gameover"; failed=1; }
run_match 0 "go fischer" --engine "$mockcmd --name A --log $tmp/log2" --engine "$B" --games 1 \
    --no-repeat --tc 10+0.5 --max-moves 2
grep -q '^go btime 10000 wtime 10000 binc 500 winc 500$' log2 || { echo "$name: go fischer"; grep '^go' log2; failed=1; }

# --- openings --------------------------------------------------------------------------

cat >ops.txt <<'EOF'
# three openings, every form
startpos moves 7g7f 3c3d
position startpos moves 2g2f 8c8d
sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2 moves 3c3d

EOF
rm -rf rec r.jsonl
run_match 0 "openings" --engine "$mockcmd --name A" --engine "$B" --games 6 --tc nodes=1 \
    --max-moves 10 --openings ops.txt -o rec --results r.jsonl
python3 -c 'import json,sys
g = [json.loads(l) for l in open("r.jsonl")]
assert [x["opening"] for x in g] == ["ops.txt:2", "ops.txt:2", "ops.txt:3", "ops.txt:3", "ops.txt:4", "ops.txt:4"], g
assert [(x["black"], x["white"]) for x in g] == [("A", "B"), ("B", "A")] * 3
assert [x["pair"] for x in g] == [1, 1, 2, 2, 3, 3]
assert g[0]["opening_plies"] == 2 and g[4]["opening_plies"] == 1
' || { echo "$name: openings schedule"; cat r.jsonl; failed=1; }
valid rec openings --rules csa,max-moves=10
grep -q "kifu match: opening ops.txt:2 sfen" rec/game-0001.csa || { echo "$name: opening comment"; failed=1; }
# --random --seed: another order, the same for the same seed.
run_match 0 "random 1" --engine "$mockcmd --name A" --engine "$B" --games 6 --tc nodes=1 \
    --max-moves 4 --openings ops.txt --random --seed 7 --results ra.jsonl
run_match 0 "random 2" --engine "$mockcmd --name A" --engine "$B" --games 6 --tc nodes=1 \
    --max-moves 4 --openings ops.txt --random --seed 7 --results rb.jsonl
[ "$(grep -o '"opening":"[^"]*"' ra.jsonl)" = "$(grep -o '"opening":"[^"]*"' rb.jsonl)" ] ||
    { echo "$name: --seed is not reproducible"; failed=1; }
# --opening-plies cuts every line.
run_match 0 "opening plies" --engine "$mockcmd --name A" --engine "$B" --games 2 --tc nodes=1 \
    --max-moves 4 --openings ops.txt --opening-plies 1 --results rp.jsonl
grep -q '"opening_plies":1' rp.jsonl || { echo "$name: --opening-plies"; failed=1; }
# Records as openings: the first plies of each.
cp "$TESTDATA/csa/sample.csa" game.csa 2>/dev/null || printf 'V2.2\nPI\n+\n+7776FU\n-3334FU\n+8822UM\n-2122GI\n%%TORYO\n' >game.csa
run_match 0 "record openings" --engine "$mockcmd --name A" --engine "$B" --games 2 --tc nodes=1 \
    --max-moves 8 --openings game.csa --opening-plies 3 --results rr.jsonl
grep -q '"opening":"game.csa:1","opening_position":"sfen [^"]* moves [^ ]* [^ ]* [^ "]*"' rr.jsonl ||
    { echo "$name: record opening"; cat rr.jsonl; failed=1; }
# Illegal openings: an error naming the file and line, before any game.
printf 'startpos moves 7g7f\nstartpos moves 7g7f 7g7f\n' >bad.txt
run_match 2 "illegal opening" --engine "$mockcmd --name A" --engine "$B" --openings bad.txt -o rec2
expect_stderr_has "illegal opening" "bad.txt:2: move 2 7g7f is illegal"
[ ! -d rec2 ] || { echo "$name: a game was played from an illegal opening"; failed=1; }
printf 'position startpos moves 7g7f\nposition 7g7f\n' >bad2.txt
run_match 2 "stray position" --engine "$mockcmd --name A" --engine "$B" --openings bad2.txt
expect_stderr_has "stray position" "bad2.txt:2: an opening is 'startpos' or 'sfen ...'"
printf 'sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNX b - 1\n' >bad3.txt
run_match 2 "bad sfen" --engine "$mockcmd --name A" --engine "$B" --openings bad3.txt
expect_stderr_has "bad sfen" "bad3.txt:1: bad SFEN"
printf 'V2.2\nPI\n+\n+7776FU\n-3334FU\n+7776FU\n%%TORYO\n' >badrec.csa
run_match 2 "illegal record opening" --engine "$mockcmd --name A" --engine "$B" --openings badrec.csa
expect_stderr_has "illegal record" "badrec.csa:6: move 3 is illegal"
run_match 0 "record cut before its foul" --engine "$mockcmd --name A" --engine "$B" --games 2 \
    --openings badrec.csa --opening-plies 2 --tc nodes=1 --max-moves 4

# --- adjudication by score --------------------------------------------------------------

# A scores itself at -1000, B itself at +1000: after three moves each, A
# (Black, to move) resigns for its engine.
other="$mockcmd --name B --score 1000"
one "adjudicated resign" "white adjudicated-resign" "$mockcmd --name A --score -1000" \
    --resign 1000,3
other=
grep -c '^[+-][0-9]' rec/game-0001.csa | grep -qx 6 || { echo "$name: resign not after 6 moves"; failed=1; }
grep -q "adjudicated: Black's engine scored itself at -1000" rec/game-0001.csa ||
    { echo "$name: resign comment"; failed=1; }
# The mock's scores lie within +-300: drawn after two moves each from
# move 6 on.
one "adjudicated draw" "draw adjudicated-draw" "$mockcmd --name A" --draw 300,2,6
grep -c '^[+-][0-9]' rec/game-0001.csa | grep -qx 6 || { echo "$name: draw not after 6 moves"; failed=1; }

# --- statistics, results, --report, SPRT --------------------------------------------------

# A loses every game (a false declaration on its first move): the
# statistics say so, and --report reads the same numbers back.
rm -rf rec r.jsonl
run_match 0 "stats" --engine "$mockcmd --name A --fault declare-win" --engine "$B" --games 4 \
    --tc nodes=1 --results r.jsonl
grep -q '^A vs B: 4 games, +0 =0 -4, score 0.0%$' out || { echo "$name: stats line"; cat out; failed=1; }
grep -q 'pairs of 2: LL 2, LD 0, DD+WL 0, WD 0, WW 0' out || { echo "$name: pairs"; cat out; failed=1; }
grep -q '^Endings: false-declaration 4$' out || { echo "$name: endings"; cat out; failed=1; }
head -2 out >match_head
expect_success "report" "$KIFU" match --report r.jsonl
head -2 out | cmp -s - match_head || { echo "$name: --report differs"; cat out match_head; failed=1; }
# Shards merge: the same file twice is 8 games, 4 pairs.
expect_success "report shards" "$KIFU" match --report r.jsonl r.jsonl
grep -q '^A vs B: 8 games, +0 =0 -8' out || { echo "$name: shards"; cat out; failed=1; }
grep -q 'pairs of 4: LL 4,' out || { echo "$name: shard pairs"; cat out; failed=1; }
printf '{"black":"A"}\n' >broken.jsonl
expect_exit 2 "report broken" "$KIFU" match --report broken.jsonl
# SPRT: every game lost, so H0 is accepted long before 400 games.
run_match 0 "sprt" --engine "$mockcmd --name A --fault declare-win" --engine "$B" --games 400 \
    --tc nodes=1 --sprt elo0=0,elo1=10 --results s.jsonl
grep -q 'H0 accepted' out || { echo "$name: sprt"; cat out; failed=1; }
n=$(wc -l <s.jsonl)
[ "$n" -lt 400 ] && [ $((n % 2)) -eq 0 ] || { echo "$name: sprt stopped after $n games"; failed=1; }

# --- concurrency: games in order, the same games ------------------------------------------

rm -rf rec r.jsonl
run_match 0 "concurrency" --engine "$mockcmd --name A" --engine "$B" --games 6 --concurrency 3 \
    --tc nodes=1 --max-moves 30 --openings ops.txt -o rec --results r.jsonl
python3 -c 'import json
g = [json.loads(l) for l in open("r.jsonl")]
assert [x["game"] for x in g] == [1, 2, 3, 4, 5, 6], g' || { echo "$name: order"; failed=1; }
ls rec | tr '\n' ' ' | grep -qx 'game-0001.csa game-0002.csa game-0003.csa game-0004.csa game-0005.csa game-0006.csa ' ||
    { echo "$name: records $(ls rec)"; failed=1; }
valid rec concurrency --rules csa,max-moves=30
# Three engines: a gauntlet (A against each other), or a round robin.
run_match 0 "gauntlet" --engine "$mockcmd --name A" --engine "$B" --engine "$mockcmd --name C" \
    --games 2 --tc nodes=1 --max-moves 6 --results gl.jsonl
[ "$(grep -c ' games, ' out)" -eq 2 ] || { echo "$name: gauntlet pairings"; cat out; failed=1; }
grep -q '^A vs C: 2 games' out || { echo "$name: gauntlet A vs C"; cat out; failed=1; }
run_match 0 "round robin" --engine "$mockcmd --name A" --engine "$B" --engine "$mockcmd --name C" \
    --tournament round-robin --games 2 --tc nodes=1 --max-moves 6 --affinity
grep -q '^B vs C: 2 games' out || { echo "$name: round robin B vs C"; cat out; failed=1; }
# A book as openings: walks weighted by its counts.
cp "$TESTDATA/book/shogihome-style.db" book.db
run_match 0 "book openings" --engine "$mockcmd --name A" --engine "$B" --games 4 --tc nodes=1 \
    --max-moves 8 --openings book.db --opening-plies 4 --results bk.jsonl
grep -q '"opening":"book.db#1","opening_position":"sfen [^"]* moves ' bk.jsonl ||
    { echo "$name: book openings"; cat bk.jsonl; failed=1; }

# Existing records are kept unless --force.
run_match 2 "no overwrite" --engine "$mockcmd --name A" --engine "$B" --games 1 --tc nodes=1 \
    --max-moves 4 -o rec
expect_stderr_has "overwrite" "it exists (--force replaces it)"
run_match 0 "force" --engine "$mockcmd --name A" --engine "$B" --games 1 --tc nodes=1 \
    --max-moves 4 -o rec --force

# --- SIGINT: games in play abandoned, the rest complete, no engine left ---------------------

rm -rf rec r.jsonl left
# (Not under timeout(1), which would send the signal to kifu a second
# time, as its whole process group's: a second SIGINT ends kifu at once.)
python3 "$reaper" left "$KIFU" match --engine "$mockcmd --name A --think 50" \
    --engine "$B" --games 100 --tc nodes=1 --max-moves 40 -o rec --results r.jsonl \
    >out 2>err &
pid=$!
i=0
while [ ! -s r.jsonl ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
kill -INT "$pid"
i=0
while kill -0 "$pid" 2>/dev/null && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
if kill -0 "$pid" 2>/dev/null; then
	echo "$name: SIGINT: kifu did not end within 60 s"
	kill -KILL "$pid"
	failed=1
fi
wait "$pid"
rc=$?
[ "$rc" -eq 130 ] || { echo "$name: SIGINT: exit $rc"; cat err; failed=1; }
no_leftovers "SIGINT"
n=$(wc -l <r.jsonl)
[ "$n" -ge 1 ] && [ "$n" -lt 100 ] || { echo "$name: SIGINT: $n games"; failed=1; }
[ "$(ls rec | wc -l)" -eq "$n" ] || { echo "$name: SIGINT: records $(ls rec | wc -l) for $n results"; failed=1; }
valid rec SIGINT --rules csa,max-moves=40
grep -q 'games in progress were abandoned' err || { echo "$name: SIGINT note"; cat err; failed=1; }

# --- usage --------------------------------------------------------------------------------

expect_exit 2 "one engine" "$KIFU" match --engine "$B"
expect_stderr_has "one engine" "a match needs two engines"
expect_exit 2 "bad tc" "$KIFU" match --engine a --engine b --tc 10+x
expect_stderr_has "bad tc" "is no time control"
expect_exit 2 "bad sprt" "$KIFU" match --engine a --engine b --sprt elo0=5,elo1=0
expect_stderr_has "bad sprt" "elo0 must be less than elo1"
expect_exit 2 "option first" "$KIFU" match --option Threads=1 --engine a
expect_stderr_has "option first" "give the engine first"
# An engine known to abort on binc (gpsusi, by its id name) gets none.
run_match 2 "fischer refused" --engine "$mockcmd --name gpsshogi-like" --engine "$B" \
    --tc 10+1 --games 1
expect_stderr_has "fischer refused" "does not take go binc"
run_match 2 "unknown option" --engine "$mockcmd --name A" --option NoSuch=1 --engine "$B" --games 1
expect_stderr_has "unknown option" "NoSuch"

# Engines by name from an engines file, as analyze takes them: the
# file's options go along; a file named that is not there is an error.
cat >engines.toml <<EOF
[a]
command = "$mockcmd --name A"
[b]
command = "$mockcmd --name B"
EOF
run_match 0 "engines file" --engines engines.toml --engine a --engine b --games 2 \
    --tc nodes=1 --max-moves 6 -o byname --results byname.jsonl
grep -q '"black":"A"' byname.jsonl && grep -q '"white":"A"' byname.jsonl ||
    { echo "$name: engines file: the named engines did not play"; failed=1; }
valid byname "engines file"
run_match 2 "no engines file" --engines nothing.toml --engine a --engine b --games 1
expect_stderr_has "no engines file" "cannot read 'nothing.toml': no such file"

finish
