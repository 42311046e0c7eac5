#!/bin/sh
# A KIF saved with its board turned (issue 28): Kifu for Windows writes
# a 盤面回転 line among the headers, which users also spell 盤面反転.
# Both are read as the record's flipped flag: in validate --json, kept by the KIF and KI2 writers (as
# 盤面回転), dropped with a warning by CSA, JKF, USI and the position
# formats, and used by kifu show's pictures as --flip is.
# testdata/kif/kifu-samples/flipped.kif is Kakinoki's example KIF
# (Shift_JIS) with the line after its headers (testdata/README.md).
. "$(dirname "$0")/lib.sh"
top=$(cd "$TESTDATA/.." && pwd)
ln -s "$top/testdata" testdata
f=testdata/kif/kifu-samples/flipped.kif

# --- read ----------------------------------------------------------------

expect_success "validate" "$KIFU" validate --json "$f"
grep -q '"status": "ok", "moves": 2,' out && grep -q '"flipped": true}$' out ||
	{ echo "$name: validate: $(cat out)"; failed=1; }
# Not flipped: no field at all.
expect_success "not flipped" "$KIFU" validate --json \
    testdata/kif/shogi-kifu-converter/data/tests/kif/example.kif
grep -q flipped out && { echo "$name: example.kif flipped"; failed=1; }
# The issue's spelling, where the issue put it; and after a board.
printf '%s\n' "手合割：平手" "盤面反転" "先手：a" "手数----指手---------消費時間--" \
    "   1 ７六歩(77)" "   2 投了" >hanten.kifu
expect_success "盤面反転" "$KIFU" validate --json hanten.kifu
grep -q '"status": "ok".*"flipped": true' out ||
	{ echo "$name: 盤面反転: $(cat out) $(cat err)"; failed=1; }
"$KIFU" convert -t bod --encoding UTF-8 --ply 0 hanten.kifu 2>/dev/null >board.kifu
printf '%s\n' "盤面回転" "   1 ７六歩(77)" >>board.kifu
expect_success "after a board" "$KIFU" validate --json board.kifu
grep -q '"flipped": true' out || { echo "$name: after a board: $(cat out)"; failed=1; }

# --- written --------------------------------------------------------------

for t in kif kifu ki2 ki2u; do
	expect_success "-> $t" "$KIFU" convert -t $t --encoding UTF-8 -o x.$t "$f"
	grep -q '盤面' err && { echo "$name: -> $t warns: $(cat err)"; failed=1; }
	grep -qx '盤面回転' x.$t || { echo "$name: -> $t: no 盤面回転"; failed=1; }
	# After the headers, before the moves.
	awk '/^後手：/ { h = NR } /^盤面回転$/ { f = NR }
	    /^(手数--|▲|   1 )/ && !m { m = NR }
	    END { exit !(h && f > h && m > f) }' x.$t ||
		{ echo "$name: -> $t: where"; cat x.$t; failed=1; }
	expect_success "$t reads back" "$KIFU" validate --json x.$t
	grep -q '"flipped": true' out || { echo "$name: $t: not flipped again"; failed=1; }
done
# One pass is the canonical text: again the same bytes.
"$KIFU" convert -t kif -o again.kif x.kif 2>/dev/null
"$KIFU" convert -t kif -o once.kif "$f" 2>/dev/null
cmp -s again.kif once.kif || { echo "$name: kif -> kif not stable"; failed=1; }
# Where no format has the place, a warning says it is dropped.
for t in csa jkf usi; do
	expect_success "-> $t" "$KIFU" convert -t $t -o x.$t "$f"
	expect_stderr_has "-> $t" "$f:8:1: warning: $t cannot say the board is shown as White sees it (盤面回転); dropped [limit]"
	grep -q '盤面' x.$t && { echo "$name: $t holds it"; failed=1; }
done
expect_exit 1 "--strict" "$KIFU" convert -t csa --strict -o strict.csa "$f"
for t in sfen bod; do
	expect_success "-> $t" "$KIFU" convert -t $t -o x.$t "$f"
	expect_stderr_has "-> $t" "the turned board (盤面回転)"
done

# --- kifu show -------------------------------------------------------------

# Its pictures are --flip's; --no-flip is Black's view, as without the line.
"$KIFU" convert -t kifu -o plain.kifu testdata/kif/shogi-kifu-converter/data/tests/kif/example.kif 2>/dev/null
expect_success "svg" "$KIFU" show --svg -o own.svg "$f"
expect_success "svg --flip" "$KIFU" show --svg --flip -o flip.svg plain.kifu
expect_success "svg --no-flip" "$KIFU" show --svg --no-flip -o noflip.svg "$f"
expect_success "svg plain" "$KIFU" show --svg -o plain.svg plain.kifu
cmp -s own.svg flip.svg || { echo "$name: show: not as --flip"; failed=1; }
cmp -s noflip.svg plain.svg || { echo "$name: show --no-flip: not as unflipped"; failed=1; }
cmp -s own.svg plain.svg && { echo "$name: show: not flipped"; failed=1; }
expect_success "gif" "$KIFU" show --gif -o own.gif "$f"
expect_success "gif --flip" "$KIFU" show --gif --flip -o flip.gif plain.kifu
cmp -s own.gif flip.gif || { echo "$name: gif: not as --flip"; failed=1; }
expect_exit 2 "--no-flip in text" "$KIFU" show --no-flip "$f"
expect_stderr_has "--no-flip in text" "--flip, --no-flip and --size are for pictures"
expect_success "show text" "$KIFU" show --color never "$f"
expect_success "help" "$KIFU" show --help
grep -q -- '--no-flip' out || { echo "$name: help lacks --no-flip"; failed=1; }

finish
