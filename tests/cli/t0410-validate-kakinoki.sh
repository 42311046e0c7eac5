#!/bin/sh
# kifu validate over every KIF/KIFU record in testdata/kif and every
# KI2/KI2U record in testdata/ki2: each one validates or fails with the
# diagnostic judged right in validate.expect (JSON) and
# validate-human.expect; VERDICTS.md beside them says why, record by
# record.
. "$(dirname "$0")/lib.sh"
top=$(cd "$TESTDATA/.." && pwd)

# check_dir DIR FIND-ARGS...: the records of testdata/DIR against
# testdata/DIR/validate.expect and validate-human.expect.
check_dir() {
	dir=$1; shift
	(cd "$top" && find "testdata/$dir" -type f \( "$@" \) | LC_ALL=C sort) >list
	[ -s list ] || { echo "$name: no records under testdata/$dir"; failed=1; }
	(cd "$top" && xargs -d '\n' "$KIFU" validate --json) <list >out 2>err
	cmp -s "$TESTDATA/$dir/validate.expect" out ||
		{ echo "$name: $dir: JSON differs"; diff "$TESTDATA/$dir/validate.expect" out | head -20; failed=1; }
	grep -qv '^{.*}$' out && { echo "$name: $dir: --json printed a non-JSON line"; failed=1; }
	[ "$(wc -l <out)" -eq "$(wc -l <list)" ] ||
		{ echo "$name: $dir: not one JSON line per record"; failed=1; }
	(cd "$top" && xargs -d '\n' "$KIFU" validate) <list >out 2>err
	cmp -s "$TESTDATA/$dir/validate-human.expect" out ||
		{ echo "$name: $dir: human output differs"; diff "$TESTDATA/$dir/validate-human.expect" out | head -20; failed=1; }
	# Every record that is not ok has its line in VERDICTS.md.
	grep -v '"status": "ok"' "$TESTDATA/$dir/validate.expect" |
	    sed 's/^{"file": "testdata\/[^/]*\/\([^"]*\)".*/\1/' >judged
	while IFS= read -r f; do
		grep -qF -- "\`$f\`" "$TESTDATA/$dir/VERDICTS.md" ||
			{ echo "$name: $dir/VERDICTS.md does not judge $f"; failed=1; }
	done <judged
}

check_dir kif -name '*.kif' -o -name '*.kifu'
check_dir ki2 -name '*.ki2' -o -name '*.KI2' -o -name '*.ki2u'

# Relative names in the messages, without writing into the source tree.
ln -s "$top/testdata" testdata
jkf=testdata/kif/json-kifu-format/test/files/kif
expect_exit 0 "valid KIF" "$KIFU" validate "$jkf/ryuou201409020101.kif"
[ -s out ] && { echo "$name: valid file printed something"; failed=1; }
expect_exit 0 "valid KI2" "$KIFU" validate testdata/ki2/json-kifu-format/test/files/ki2/20091203.ki2
expect_exit 1 "move number repeated" "$KIFU" validate "$jkf/fork-test.kif"
expect_output "move number repeated" "$jkf/fork-test.kif:18:4: error: move number 5 where 6 should follow [syntax]"

# Shift_JIS in, said so; the same record from standard input.
expect_success "CP932 KIF" "$KIFU" validate --json "$jkf/ryuou201409020101.kif"
grep -q '"format": "kif", "encoding": "CP932", "status": "ok", "moves": 117' out ||
	{ echo "$name: CP932 KIF"; cat out; failed=1; }
expect_success "KIF on stdin" sh -c "\"$KIFU\" validate --json - <$jkf/ryuou201409020101.kif"
grep -q '"file": "<stdin>", "index": 0, "format": "kif", "encoding": "CP932"' out ||
	{ echo "$name: KIF on stdin"; cat out; failed=1; }

# The foul the record's terminal reports is not a finding; a foul kept
# as a move with only a comment (81Dojo) is.
expect_exit 0 "反則勝ち" "$KIFU" validate testdata/kif/mog-core-scala/kif/game/017.kif
expect_exit 1 "foul without a terminal" "$KIFU" validate testdata/kif/mog-core-scala/kif/game/015.kif
expect_output "foul without a terminal" "testdata/kif/mog-core-scala/kif/game/015.kif:91:6: error: move 83 '１七玉(28)': the move leaves the mover's king in check [self-check]"

# A declaration with 28 points: a draw under JSA's 24-point rule, a win
# under the 27-point rule of the shogi-server game it comes from, which
# auto finds from the game id in its 表題.
e2e=testdata/kif/shogihome/usi-csa-bridge-e2e/3/record.kifu
expect_exit 1 "declaration under jsa" "$KIFU" validate --rules jsa "$e2e"
expect_exit 0 "declaration under csa" "$KIFU" validate --rules csa "$e2e"
expect_exit 0 "declaration under auto" "$KIFU" validate -v "$e2e"
expect_output "declaration under auto" "$e2e: record 1: ok, 0 moves, declaration, white wins, points black 0 white 28, rules csa,max-moves=0 (auto: 表題 'test+test-30-5F+Enemy+usi-csa-bridge+...', line 1)"

# A composed problem: mate where only futile interpositions are left.
tsume=testdata/ki2/json-kifu-format/test/files/ki2/kobayashi_kinsho196702.ki2
expect_exit 0 "problem under auto" "$KIFU" validate -v "$tsume"
expect_output "problem under auto" "$tsume: record 1: ok, 49 moves, checkmate, black wins, rules problem (auto: one king at the start, line 9)"
expect_exit 1 "problem under jsa" "$KIFU" validate --json --rules jsa "$tsume"
grep -q '"status": "mismatch"' out || { echo "$name: problem under jsa"; cat out; failed=1; }

# Damaged input: a diagnostic with a place, never a crash.
printf '手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(34)\n' >from.kif
expect_exit 1 "wrong origin" "$KIFU" validate from.kif
grep -q '^from.kif:4:' out || { echo "$name: wrong origin"; cat out; failed=1; }
printf '▲７六歩    △３四歩    ▲２二角成  △同　金\n' >bad.ki2
expect_exit 1 "KI2 illegal" "$KIFU" validate bad.ki2
grep -q '^bad.ki2:1:' out || { echo "$name: KI2 illegal"; cat out; failed=1; }
printf '手合割：平手\n   1 ７六歩(77)\n   2 \377\376\n' >bytes.kif
expect_exit 1 "bad bytes" "$KIFU" validate bytes.kif
grep -q '\[encoding\]$' out || { echo "$name: bad bytes"; cat out; failed=1; }
# JKF: jansson keeps no places, kifu finds them again: the entry of an
# illegal move, the value a structural error names.
cat >bad.jkf <<'EOF2'
{"header": {"先手": "羽生"},
 "moves": [{},
  {"move": {"from": {"x": 7, "y": 7}, "to": {"x": 7, "y": 6}, "piece": "FU"}},
  {"move": {"from": {"x": 5, "y": 3}, "to": {"x": 5, "y": 5}, "piece": "FU"}}]}
EOF2
expect_exit 1 "JKF illegal move" "$KIFU" validate bad.jkf
grep -q "^bad.jkf:4:3: error: move 2 .*\[piece-movement\]$" out ||
	{ echo "$name: JKF illegal move"; cat out; failed=1; }
sed 's/"piece": "FU"}}]}/"piece": "歩"}}]}/' bad.jkf >kanji.jkf
expect_exit 1 "JKF bad piece" "$KIFU" validate kanji.jkf
expect_output "JKF bad piece" "kanji.jkf:4:72: error: moves[2].move.piece: unknown piece kind '歩' [syntax]"
finish
