#!/bin/sh
# kifu analyze (issue 29) with the two real engines Debian packages,
# fairy-stockfish and gpsusi (../shared/docs/engines.md 1.5, 1.6):
# deterministic node searches (the same bytes again, with -j2, from the
# cache), MultiPV, a mate, minishogi, options refused before an engine
# could crash on them; gpsusi's limits, its private OSL_HOME. An engine
# that is not installed is a skip, said, never a pass.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/engine.sh"
fsf=/usr/games/fairy-stockfish
gps=/usr/games/gpsusi
[ -x "$fsf" ] || [ -x "$gps" ] ||
	skip "neither fairy-stockfish nor gpsusi is installed (apt-get install fairy-stockfish gpsshogi)"

cat >g.csa <<'EOF'
V2.2
PI
+
+7776FU
-3334FU
+2726FU
-8384FU
+2625FU
%TORYO
EOF
# Engines.md 1.5.4: White mates in 3 plies (B*5g 4h5h 7i6i).
echo 'sfen ln1gkg1nl/6+P2/2sppps1p/2p3p2/p8/P1P1P3P/2NP1PP2/3s1KSR1/L1+b2G1NL w R2Pbgp 42' >mate.usi

# nontime FILE: the JSON without what depends on the clock.
nontime() {
	sed 's/"time_ms": [0-9]*/"time_ms": T/g; s/"status": "cached"/"status": "searched"/' "$1"
}

if [ -x "$fsf" ]; then
	run_analyze 0 "fsf json" --engine "$fsf" --nodes 5000 --json g.csa
	nontime out >f1
	grep -q '"engine": "Fairy-Stockfish' out || { echo "$name: fsf name"; failed=1; }
	[ "$(wc -l <out)" -eq 6 ] || { echo "$name: fsf positions"; failed=1; }
	# With Threads 1 and a hash cleared before each search (usinewgame),
	# a node search gives the same answer again, and so with -j2.
	run_analyze 0 "fsf again" --engine "$fsf" --nodes 5000 --json g.csa
	nontime out | cmp -s - f1 || { echo "$name: fsf is not deterministic"; diff f1 out | head -4; failed=1; }
	run_analyze 0 "fsf -j2" --engine "$fsf" --nodes 5000 --json -j2 g.csa g.csa
	nontime out >f2
	cat f1 f1 | cmp -s - f2 ||
	    { echo "$name: fsf -j2 differs"; failed=1; }
	# The cache: a second run searches nothing and writes the same record.
	run_analyze 0 "fsf cache 1" --engine "$fsf" --nodes 5000 --cache c.db -t kif g.csa
	cp out c1.kif
	run_analyze 0 "fsf cache 2" --engine "$fsf" --nodes 5000 --cache c.db c1.kif
	cmp -s out c1.kif || { echo "$name: re-run with the cache changed the record"; failed=1; }
	expect_stderr_has "fsf cached" "0 searched, 6 from the cache"
	# MultiPV.
	run_analyze 0 "fsf multipv" --engine "$fsf" --nodes 5000 --multipv 3 --to-ply 0 --json g.csa
	grep -q '"rank": 3' out || { echo "$name: fsf multipv 3"; failed=1; }
	# A mate: White to move mates in 3 plies.
	run_analyze 0 "fsf mate" --engine "$fsf" --nodes 100000 --to-ply 0 --json mate.usi
	grep -q '"best": "B\*5g".*"score_kind": "mate", "score_black": -30000, "score_mover": 30000, "mate": 3,' out ||
	    { echo "$name: fsf mate"; cut -c1-400 out; failed=1; }
	# Minishogi, with the variant set by kifu.
	run_analyze 0 "fsf minishogi" --engine "$fsf" --nodes 2000 --to-ply 3 --json \
	    "$TESTDATA/minishogi/game.kifu"
	[ "$(grep -c '"status": "searched"' out)" -eq 4 ] || { echo "$name: fsf minishogi"; failed=1; }
	# A spin that is no number would abort Fairy-Stockfish: refused first.
	run_analyze 2 "fsf bad spin" --engine "$fsf" --option Threads=abc g.csa
	expect_stderr_has "fsf spin" "option 'Threads' takes a whole number, not 'abc'"
	run_analyze 2 "fsf no such option" --engine "$fsf" --option USI_Foo=1 g.csa
	expect_stderr_has "fsf option" "has no option 'USI_Foo'"
else
	echo "$name: skipped: fairy-stockfish is not installed (apt-get install fairy-stockfish)"
fi

if [ -x "$gps" ]; then
	conf=/usr/share/gpsshogi-data/gpsusi.conf
	had_conf=0
	[ -e "$conf" ] && had_conf=1
	mkdir t
	TMPDIR=$tmp/t run_analyze 0 "gpsusi" --engine "$gps" --movetime 1000 --timeout-init 120000 \
	    --to-ply 2 --json g.csa
	[ "$(grep -c '"status": "searched"' out)" -eq 3 ] || { echo "$name: gpsusi positions"; cat err; failed=1; }
	grep -q '"engine": "gpsshogi' out || { echo "$name: gpsusi name"; failed=1; }
	# It ran with a private OSL_HOME, removed at the end: the shared
	# file was not written, and no directory is left.
	[ "$(ls t)" = "" ] || { echo "$name: OSL_HOME left: $(ls t)"; failed=1; }
	[ "$had_conf" -eq 1 ] || [ ! -e "$conf" ] || { echo "$name: gpsusi wrote $conf"; failed=1; }
	# Its go takes no depth (nor nodes: the same table), no movetime
	# below a second (whole seconds), and it has no MultiPV.
	run_analyze 2 "gpsusi depth" --engine "$gps" --depth 5 --timeout-init 120000 g.csa
	expect_stderr_has "gpsusi depth" "does not take go depth (a search limit of --depth); nothing was analysed"
	run_analyze 2 "gpsusi movetime" --engine "$gps" --movetime 500 --timeout-init 120000 g.csa
	expect_stderr_has "gpsusi seconds" "counts time in whole seconds"
	run_analyze 2 "gpsusi multipv" --engine "$gps" --multipv 2 --timeout-init 120000 g.csa
	expect_stderr_has "gpsusi multipv" "has no MultiPV option"
else
	echo "$name: skipped: gpsusi is not installed (apt-get install gpsshogi)"
fi

finish
