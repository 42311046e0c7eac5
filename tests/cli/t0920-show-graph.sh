#!/bin/sh
# kifu show --graph: the evaluation graph of real records (kifu analyze's
# comments, with fairy-stockfish; Floodgate's, ShogiGUI's and ShogiHome's
# players' evaluations), as a sparkline, as SVG (parsed as XML: every
# point where its value puts it, gaps, mates, flags) and PNG (size,
# colours); a record without evaluations; the option errors; hostile
# comments and names. t0921 draws what a live kifu analyze writes.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
. "$here/graph.sh"

pic="python3 $here/../picture.py"
show=$TESTDATA/show
ouza=$show/analysed-ouza201410070101.kif
mate=$show/analysed-json-kifu-format-v2.csa
home=$show/shogihome-usi-csa-bridge-1.kifu
fg=$TESTDATA/csa/floodgate/floodgate.csa

# ---- the sparkline ----

expect_success "sparkline" "$KIFU" show --graph "$ouza"
expect_output "sparkline" "▅▅▅▅▅▅▅▅▄▅▅▅▅▅▅▅▅▅▅▅▅▅▅▅▄▄▅▅▄▅▅▄▅▄▄▅▅▅▅▄▄▄▄▄▅▄▄▄▅▅▅▅▅▅▆▆▆▆▅▆▆▅▆▆  103 moves, 104 of 104 positions evaluated; +822 at move 103; 疑問手 23, 悪手 19, 大悪手 3"
# The flags counted are the judgements kifu analyze wrote.
for c in 疑問手 悪手 大悪手; do
	want=$(iconv -f cp932 -t utf-8 "$ouza" | grep -c "^\*#kifu-analyze: .*; $c (loss [0-9]*)$")
	grep -q "$c $want[,]*\$\|$c $want," out ||
		{ echo "$name: $c: $want in the record"; cat out; failed=1; }
done
expect_success "sparkline --ply" "$KIFU" show --graph --ply 10 "$ouza"
expect_output "sparkline --ply" "▅▅▅▅▅▅▅▅▅▅▅  10 moves, 11 of 11 positions evaluated; +128 at move 10; 疑問手 3, 悪手 1, 大悪手 0"
expect_success "colour" "$KIFU" show --graph --color always --ply 10 "$ouza"
grep -q "$(printf '\033\\[31m▅\033\\[0m')" out || { echo "$name: no colour"; cat -v out; failed=1; }
expect_success "no colour" env NO_COLOR=1 "$KIFU" show --graph --ply 10 "$ouza"
grep -q "$(printf '\033')" out && { echo "$name: colour without a terminal"; failed=1; }
# A mate at the end, and the players' own evaluations.
expect_success "mate" "$KIFU" show --graph "$mate"
grep -q "▂▁▁▁▁▁  196 moves, 196 of 197 positions evaluated; ☖詰 at move 195; " out ||
	{ echo "$name: mate sparkline"; cat out; failed=1; }
expect_success "floodgate" "$KIFU" show --graph "$fg"
grep -q "  125 moves, 125 of 126 positions evaluated; +4370 at move 125 (the players' evaluations)\$" out ||
	{ echo "$name: floodgate"; cat out; failed=1; }
# ShogiHome: one side's engine wrote them; the other side's moves are gaps.
expect_success "shogihome gaps" "$KIFU" show --graph --ply 40 "$home"
expect_output "shogihome gaps" "            ▅ ▄ ▅ ▅ ▅ ▅ ▅ ▅ ▅ ▅ ▅ ▅ ▅ ▄ ▅  40 moves, 15 of 41 positions evaluated; +52 at move 40 (the players' evaluations)"

# ---- SVG ----

expect_success "svg" "$KIFU" show --graph --svg -o ouza.svg "$ouza"
check_graph ouza.svg 103 104 0 45
grep -q 'width="640" height="320" viewBox="0 0 640 320"' ouza.svg ||
	{ echo "$name: svg size"; failed=1; }
grep -q '>☗豊島将之　☖羽生善治</text>' ouza.svg || { echo "$name: players"; failed=1; }
if command -v xmllint >/dev/null 2>&1; then
	xmllint --noout ouza.svg || { echo "$name: xmllint"; failed=1; }
fi
expect_success "svg to stdout" "$KIFU" show --graph --svg "$ouza"
cmp -s out ouza.svg || { echo "$name: svg to stdout"; failed=1; }
expect_success "svg mate" "$KIFU" show --graph --svg -o mate.svg "$mate"
# The engine saw the mate at 187, lost it at 188, saw it again from 189:
# one 詰, the second run being too near the first for a label of its own.
check_graph mate.svg 196 196 1 91
grep -q 'class="point" data-ply="195" data-value="-3000" data-score="-1000000000" data-mate="white"' mate.svg ||
	{ echo "$name: the mate at the edge"; grep 'data-ply="195"' mate.svg; failed=1; }
expect_success "svg floodgate" "$KIFU" show --graph --svg -o fg.svg "$fg"
check_graph fg.svg 125 125 0 0
expect_success "svg shogihome" "$KIFU" show --graph --svg -o home.svg "$home"
# Its engine saw a mate at 158, not at 160 and 162, again from 164 (one
# 詰, as above).
check_graph home.svg 169 79 1 0
# Every other move has none: no two points in a row, no line.
[ "$(grep -c 'class="line"' home.svg)" = 0 ] || { echo "$name: a line over gaps"; failed=1; }
expect_success "svg --ply" "$KIFU" show --graph --svg --ply 30 -o p30.svg "$ouza"
check_graph p30.svg 30 31 0 "$(grep -o 'class="flag" data-ply="[0-9]*"' ouza.svg | awk -F'"' '$4 <= 30' | wc -l)"

# ---- PNG ----

expect_success "png" "$KIFU" show --graph --png -o ouza.png "$ouza"
head -c 8 ouza.png | od -An -tx1 | grep -q '89 50 4e 47 0d 0a 1a 0a' ||
	{ echo "$name: png magic"; failed=1; }
[ "$($pic info ouza.png)" = "640 320 1" ] || { echo "$name: png size"; $pic info ouza.png; failed=1; }
# The page, and the flags' colours (疑問手, 悪手, 大悪手) inside their marks.
$pic has ouza.png ffffff e0a800 f06400 d01010 || { echo "$name: png colours"; failed=1; }
expect_success "png --size" "$KIFU" show --graph --png --size 1200 -o big.png "$mate"
[ "$($pic info big.png)" = "1200 600 1" ] || { echo "$name: png --size"; $pic info big.png; failed=1; }
expect_success "png to a pipe" sh -c "\"$KIFU\" show --graph --png \"$ouza\" | cat >pipe.png"
cmp -s pipe.png ouza.png || { echo "$name: png through a pipe"; failed=1; }
expect_exit 2 "png exists" "$KIFU" show --graph --png -o ouza.png "$mate"
expect_stderr_has "png exists" "exists; not replaced"
cmp -s pipe.png ouza.png || { echo "$name: png replaced"; failed=1; }

# ---- no evaluation ----

cp "$show/minishogi.kifu" mini.kifu
expect_exit 1 "none" "$KIFU" show --graph mini.kifu
expect_stderr_has "none" "mini.kifu: error: no evaluation in the comments of the main line's 7 moves (kifu analyze writes them) [no-evaluation]"
[ -s out ] && { echo "$name: output without evaluations"; failed=1; }
expect_exit 1 "none svg" "$KIFU" show --graph --svg -o none.svg mini.kifu
[ -e none.svg ] && { echo "$name: an SVG without evaluations"; failed=1; }
expect_exit 1 "none --ply 0" "$KIFU" show --graph --ply 0 "$fg"
expect_stderr_has "none --ply 0" "main line's 0 moves"

# ---- options ----

expect_exit 2 "graph gif" "$KIFU" show --graph --gif "$ouza"
expect_stderr_has "graph gif" "--graph draws with --svg or --png, not --gif"
for o in --moves --ascii --flip --no-flip; do
	expect_exit 2 "graph $o" "$KIFU" show --graph $o "$ouza"
	expect_stderr_has "graph $o" "are for the board, not --graph"
done
expect_exit 2 "graph --size" "$KIFU" show --graph --size 800 "$ouza"
expect_exit 2 "graph svg --color" "$KIFU" show --graph --svg --color always "$ouza"
expect_success "help" "$KIFU" show --help
grep -q -- "--graph  *the evaluations as a graph" out || { echo "$name: help"; failed=1; }

# ---- hostile input ----

# Numbers past any size, words where numbers go, markup in names and
# comments, control characters, CRLF: drawn or left out, never markup.
printf '%s\r\n' "先手：<b>&\"x\"</b>" "後手：$(printf 'a\001\033[31mb')" "手合割：平手" \
    "手数----指手---------消費時間--" \
    "   1 ７六歩(77)" "**評価値=99999999999999999999999" \
    "   2 ３四歩(33)" "**評価値=-" \
    "   3 ２六歩(27)" "**評価値=+詰" \
    "   4 ８四歩(83)" "**対局 評価値 +詰 5 読み筋 <script>" \
    "   5 ２五歩(26)" "**評価値=-99999999999999999999999" \
    "   6 ８五歩(84)" "** 12x" \
    "   7 ７八金(69)" "**評価値=١٢٣" \
    "   8 ３二金(41)" "** -0" >hostile.kifu
expect_success "hostile" "$KIFU" show --graph hostile.kifu
expect_output "hostile" " █  █▁  ▅  8 moves, 4 of 9 positions evaluated; 0 at move 8 (the players' evaluations)"
expect_success "hostile svg" "$KIFU" show --graph --svg -o hostile.svg hostile.kifu
check_graph hostile.svg 8 4 1 0
grep -q '<b>\|<script\|'"$(printf '\001\|\033')" hostile.svg && { echo "$name: markup let through"; failed=1; }
grep -q '&lt;b&gt;&amp;&quot;x&quot;&lt;/b&gt;' hostile.svg || { echo "$name: names escaped"; failed=1; }
# An illegal record: its graph up to the first illegal move, exit 1.
printf '%s\n' "手合割：平手" "手数----指手---------消費時間--" \
    "   1 ７六歩(77)" "**評価値=120" "   2 ３四歩(33)" "**評価値=100" \
    "   3 ７六歩(77)" "**評価値=900" "   4 ８四歩(83)" "**評価値=50" >illegal.kif
expect_exit 1 "illegal" "$KIFU" show --graph illegal.kif
expect_output "illegal" " ▅▅  2 moves, 2 of 3 positions evaluated; +100 at move 2 (the players' evaluations)"
expect_stderr_has "illegal" "illegal.kif: warning: shown up to its first illegal move (2 moves) [limit]"
# Not a record, empty, a directory.
printf '\000\001\002garbage' >bin.kif
expect_exit 1 "binary" "$KIFU" show --graph bin.kif
: >empty.kif
expect_exit 1 "empty" "$KIFU" show --graph empty.kif
expect_exit 2 "directory" "$KIFU" show --graph .
# A long game: ミクロコスモス's 1,525 plies, a score after each move.
"$KIFU" convert -t csa "$TESTDATA/tsume/microcosmos.usi" 2>/dev/null |
	awk '{ print } /^[-+][0-9]/ { n++; print "\047** " (n % 2 ? n : -n) * 1000 }' >long.csa
expect_success "long" "$KIFU" show --graph long.csa
case $(cat out) in
*"  1525 moves, 1525 of 1526 positions evaluated; +1525000 at move 1525 (the players' evaluations)") ;;
*) echo "$name: long"; cat out err; failed=1 ;;
esac
[ "$(cut -d' ' -f1 out | wc -m)" -le 66 ] || { echo "$name: long sparkline too wide"; failed=1; }
expect_success "long svg" "$KIFU" show --graph --svg -o long.svg long.csa
check_graph long.svg 1525 1525 0 0

[ "$failed" -eq 0 ] && rm -rf "$tmp"
exit "$failed"
