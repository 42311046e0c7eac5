#!/bin/sh
# kifu mate --sfen: answers, conventions, output forms, limits, errors.
. "$(dirname "$0")/lib.sh"

expect_exit 0 "mate in 1" "$KIFU" mate --sfen "4k4/9/4P4/9/9/9/9/9/9 b G 1"
expect_output "mate in 1" "mate 1: G*5b"

expect_exit 1 "no mate" "$KIFU" mate --sfen "4k4/9/9/9/9/9/9/9/9 b G 1"
expect_output "no mate" "nomate"

# yaneurao/YaneuraOu#162: 3 plies with futile interpositions set aside;
# every interposition counts under the game rules.
p="5pk2/7P1/4+R1+P1+b/8b/6R2/9/9/9/9 b 4g4s4n4l15p 1"
expect_exit 0 "problem rules" "$KIFU" mate --rules problem --sfen "$p"
expect_output "problem rules" "mate 3: 3c2c 1c3e 5c3c"
expect_exit 0 "game rules" "$KIFU" mate --rules game --sfen "$p"
expect_output "game rules" "mate 5: 3c2c N*3c 3e3c+ P*3b N*4c"
expect_exit 0 "kanji" "$KIFU" mate --rules problem --kanji --sfen "$p"
expect_output "kanji" "mate 3: ▲２三と(33) △３五馬(13) ▲３三龍(53)"

# The JSA's problem of the day, 2021-11-16: its published answer.
expect_exit 0 "jsa daily" "$KIFU" mate --rules problem \
	--sfen "9/6Spk/9/5R1+B1/9/9/9/9/9 b Nrb4g3s3n4l17p 1"
expect_output "jsa daily" "mate 5: 2d1c 1b1c N*2e 1c1b 4d1d"

# A USI position line, and --ply on it.
expect_exit 0 "position line" "$KIFU" mate \
	--sfen "position sfen 4k4/9/4P4/9/9/9/p8/9/9 w G 1 moves 9g9h"
expect_output "position line" "mate 1: G*5b"
expect_exit 1 "--ply" "$KIFU" mate --ply 0 \
	--sfen "position sfen 4k4/9/9/9/9/9/9/9/9 b G 1 moves G*5b 5a5b"
expect_output "--ply" "nomate"

expect_exit 0 "json" "$KIFU" mate --json --rules problem --sfen "$p"
grep -q '"status": "mate", "length": 3, "line": \["3c2c", "1c3e", "5c3c"\]' out ||
	{ echo "$name: json line"; cat out; failed=1; }
grep -q '"rules": "problem"' out && grep -q '"nodes": [0-9]' out &&
	grep -q '"time": [0-9]' out ||
	{ echo "$name: json fields"; cat out; failed=1; }
# The problem rules give the defender the pieces not placed.
grep -q '"sfen": "5pk2/7P1/4+R1+P1+b/8b/6R2/9/9/9/9 b 4g4s4n4l15p 1"' out ||
	{ echo "$name: json sfen"; cat out; failed=1; }

# Limits: unknown, never a guess, and why.
k="4RB1k1/5s3/7n1/5s1LP/9/7r1/9/9/6K2 b b4g2s3n3l17p 1"
expect_exit 1 "node limit" "$KIFU" mate --nodes 50 --sfen "$k"
expect_output "node limit" "unknown"
expect_exit 1 "node limit json" "$KIFU" mate --json --nodes 50 --sfen "$k"
grep -q '"status": "unknown", "length": null, "line": \[\], "stop": "nodes"' out ||
	{ echo "$name: unknown json"; cat out; failed=1; }
expect_exit 0 "small memory" "$KIFU" mate --memory 1M --sfen "$k"
expect_output "small memory" "mate 13: 4a2c+ L*3a N*3c 4d3c 2c3c 2f2d 5a3a+ 4b3a S*1b 2a1b L*1c 1b2a 1c1a+"

# Positions that are no problem: errors naming why.
expect_exit 2 "no kings" "$KIFU" mate --sfen "9/9/9/9/9/9/9/9/9 b G 1"
expect_stderr_has "no kings" "neither side has a king"
expect_stderr_has "no kings" "[no-kings]"
expect_exit 2 "no defender king" "$KIFU" mate --sfen "4K4/9/9/9/9/9/9/9/9 b G 1"
expect_stderr_has "no defender king" "White, the side not to move, has no king to mate [no-defender-king]"
expect_exit 2 "defender in check" "$KIFU" mate --sfen "4k4/4R4/9/9/9/9/9/9/4K4 b - 1"
expect_stderr_has "defender in check" "is already in check"
expect_stderr_has "defender in check" "[defender-in-check]"
expect_exit 2 "not an sfen" "$KIFU" mate --sfen "not a position"
expect_stderr_has "not an sfen" "[syntax]"

# Usage.
expect_exit 2 "no position" "$KIFU" mate
expect_stderr_has "no position" "no position"
expect_exit 2 "bad rules" "$KIFU" mate --rules jsa --sfen "$p"
expect_stderr_has "bad rules" "--rules takes game or problem"
expect_exit 2 "bad nodes" "$KIFU" mate --nodes -5 --sfen "$p"
expect_exit 2 "bad memory" "$KIFU" mate --memory lots --sfen "$p"
expect_exit 2 "memory per thread" "$KIFU" mate --memory 1M -j 4 --sfen "$p"
expect_exit 2 "both" "$KIFU" mate --sfen "$p" x.sfen
expect_exit 0 "help" "$KIFU" mate --help
grep -q "^usage: kifu mate" out || { echo "$name: help"; failed=1; }
expect_exit 0 "man page" "$KIFU" help --man mate
grep -q "^.Nm kifu-mate" out || { echo "$name: man"; failed=1; }
expect_exit 0 "completion" "$KIFU" complete values mate --rules
expect_output "completion" "game
problem"
finish
