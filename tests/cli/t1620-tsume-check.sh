#!/bin/sh
# kifu tsume check: sound problems, flawed solutions, records without one.
. "$(dirname "$0")/lib.sh"

t=$TESTDATA/tsume
# The JSA's problem of the day, 2021-11-16, in every format, and unsolved.
expect_exit 0 "sound" "$KIFU" tsume check "$t/jsa-20211116.kif" \
	"$t/jsa-20211116.csa" "$t/jsa-20211116.ki2"
expect_output "sound" "$t/jsa-20211116.kif:1: record 1: sound: mate in 5
$t/jsa-20211116.csa:1: record 1: sound: mate in 5
$t/jsa-20211116.ki2:1: record 1: sound: mate in 5"
expect_exit 0 "no solution" "$KIFU" tsume check "$t/jsa-20211116-unsolved.kif"
expect_output "no solution" "$t/jsa-20211116-unsolved.kif:1: record 1: no solution in the record: mate 5: 2d1c 1b1c N*2e 1c1b 4d1d"

expect_exit 1 "flawed" "$KIFU" tsume check "$t/flawed.usi"
expect_output "flawed" "$t/flawed.usi:1: record 1: unsound: mate in 5 written, exact length 3
  exact length: 3 plies, not 5: 3c2c 1c3e 5c3c
  ply 2: futile interposition played (無駄合): N*3c
  ply 3: cook (余詰): 3e3c (mate in 1)
  ply 3: cook (余詰): 5c3c (mate in 1)
  ply 4: futile interposition played (無駄合): P*3b
  note: ply 5: another last move (最終手余詰): 3c3b
$t/flawed.usi:2: record 2: unsound: mate in 3 written, exact length 5
  exact length: 5 plies, not 3: 2d1c 1b1c N*2e 1c1b 4d1d
  ply 2: longer defence (変長): 1b1c N*2e 1c1b 4d1d (mate in 4)
  ply 3: pieces left (駒余り): N
  note: ply 3: another last move (最終手余詰): 4d4a
$t/flawed.usi:3: record 3: unsound: mate in 3
  ply 2: escape (不詰): 1a2b
$t/flawed.usi:4: record 4: unsound: mate in 1
  ply 1: pieces left (駒余り): G
$t/flawed.usi:5: record 5: unsound: mate in 3 written, exact length 1
  exact length: 1 ply, not 3: G*5b
  ply 3: no mate at the end
$t/flawed.usi:6: record 6: sound: mate in 13
  note: ply 7: non-determinate (非限定): 5a3a (mate in 7)"

expect_exit 1 "kanji" "$KIFU" tsume check --kanji "$t/flawed.usi"
grep -q "  ply 2: escape (不詰): △同　玉(11)" out ||
	{ echo "$name: kanji"; cat out; failed=1; }

expect_exit 1 "json" "$KIFU" tsume check --json "$t/flawed.usi"
[ "$(wc -l <out)" -eq 6 ] || { echo "$name: json lines"; failed=1; }
grep -q '"status": "unsound", "length": 3, "exact": null, "reasons": \[{"kind": "no-mate", "ply": 2, "move": \["1a2b"\]}\]' out ||
	{ echo "$name: json escape"; cat out; failed=1; }
grep -q '{"kind": "futile-interposition", "ply": 2, "move": \["N\*3c"\]}' out ||
	{ echo "$name: json futile"; cat out; failed=1; }

# The last 31 plies of ミクロコスモス: sound, with its blemishes.
expect_exit 0 "microcosmos end" "$KIFU" tsume check "$t/microcosmos-end.usi"
head -1 out | grep -q "record 1: sound: mate in 31$" ||
	{ echo "$name: microcosmos end"; cat out; failed=1; }
grep -q "note: ply 17: non-determinate (非限定): L\*1g (mate in 15)" out ||
	{ echo "$name: microcosmos 非限定"; cat out; failed=1; }
grep -q "note: ply 1: transposition (手順前後): 9c8b" out ||
	{ echo "$name: microcosmos 手順前後"; cat out; failed=1; }

# Limits: unknown.
expect_exit 1 "limits" "$KIFU" tsume check --nodes 200 "$t/flawed.usi"
grep -q "record 6: unknown: mate in 13" out ||
	{ echo "$name: unknown"; cat out; failed=1; }

# A record that is no problem, and usage.
printf 'sfen 4K4/9/9/9/9/9/9/9/9 b G 1 moves G*5b\n' >nokingdef.usi
expect_exit 2 "no defender king" "$KIFU" tsume check nokingdef.usi
expect_stderr_has "no defender king" "[no-defender-king]"
expect_exit 2 "no subcommand" "$KIFU" tsume
expect_exit 2 "unknown subcommand" "$KIFU" tsume solve x.kif
expect_exit 2 "no file" "$KIFU" tsume check
expect_exit 2 "missing file" "$KIFU" tsume check nonexistent.kif
expect_exit 0 "help" "$KIFU" tsume --help
expect_exit 0 "man page" "$KIFU" help --man tsume
finish
