#!/bin/sh
# kifu show in the terminal: the board in kanji (a KIF diagram that reads
# back) and in CSA letters, the start, a handicap game, every piece in
# hand, each side to move, colour, --moves, and the errors.
. "$(dirname "$0")/lib.sh"

sed -n 2p "$TESTDATA/usi/games.usi" >even.usi
sed -n 3p "$TESTDATA/usi/games.usi" >bishop.usi
echo "sfen 4k4/9/9/9/9/9/9/9/4K4 b 2R2B4G4S4N4L18P 1" >hands.sfen
cp "$TESTDATA/show/minishogi.kifu" mini.kifu
cp "$TESTDATA/kif/shogi-kifu-converter/data/tests/kif/everyday_20220604.kifu" tsume.kifu

# ---- the start, and both sides to move ----

expect_success "start" "$KIFU" show --ply 0 even.usi
expect_output "start" "後手の持駒：なし
  ９ ８ ７ ６ ５ ４ ３ ２ １
+---------------------------+
|v香v桂v銀v金v玉v金v銀v桂v香|一
| ・v飛 ・ ・ ・ ・ ・v角 ・|二
|v歩v歩v歩v歩v歩v歩v歩v歩v歩|三
| ・ ・ ・ ・ ・ ・ ・ ・ ・|四
| ・ ・ ・ ・ ・ ・ ・ ・ ・|五
| ・ ・ ・ ・ ・ ・ ・ ・ ・|六
| 歩 歩 歩 歩 歩 歩 歩 歩 歩|七
| ・ 角 ・ ・ ・ ・ ・ 飛 ・|八
| 香 桂 銀 金 玉 金 銀 桂 香|九
+---------------------------+
先手の持駒：なし
先手番"

expect_success "white to move" "$KIFU" show --ply 1 even.usi
sed -n '14,$p' out >got
printf '%s\n' "先手の持駒：なし" "手数＝1  ▲７六歩(77)  まで" "後手番" >want
cmp -s want got || { echo "$name: white to move"; diff want got; failed=1; }

# Black to move again after 10 moves, with a capture in White's hand.
expect_success "black to move" "$KIFU" show --ply 10 even.usi
expect_output "black to move" "後手の持駒：歩　
  ９ ８ ７ ６ ５ ４ ３ ２ １
+---------------------------+
|v香v桂v銀v金v玉 ・v銀v桂v香|一
| ・v飛 ・ ・ ・ ・v金v角 ・|二
|v歩 ・v歩v歩v歩v歩 ・ ・v歩|三
| ・ ・ ・ ・ ・ ・v歩v歩 ・|四
| ・v歩 ・ ・ ・ ・ ・ ・ ・|五
| ・ ・ 歩 ・ ・ ・ ・ ・ ・|六
| 歩 歩 ・ 歩 歩 歩 歩 ・ 歩|七
| ・ 角 金 ・ ・ ・ ・ 飛 ・|八
| 香 桂 銀 ・ 玉 金 銀 桂 香|九
+---------------------------+
先手の持駒：なし
手数＝10  △同　歩(23)  まで
先手番"

# The default and --last: after the last move.
expect_success "last" "$KIFU" show --last even.usi
cp out last.txt
expect_success "default" "$KIFU" show even.usi
cmp -s last.txt out || { echo "$name: --last is not the default"; failed=1; }
grep -q '^手数＝22  △３六角(45)  まで$' out ||
	{ echo "$name: default is not the last move"; cat out; failed=1; }

# ---- a handicap game: 上手 moves first ----

expect_success "handicap" "$KIFU" show --ply 3 bishop.usi
expect_output "handicap" "上手の持駒：なし
  ９ ８ ７ ６ ５ ４ ３ ２ １
+---------------------------+
|v香v桂v銀v金v玉v金v銀v桂v香|一
| ・v飛 ・ ・ ・ ・ ・ ・ ・|二
|v歩v歩v歩v歩v歩 ・ ・v歩v歩|三
| ・ ・ ・ ・ ・v歩v歩 ・ ・|四
| ・ ・ ・ ・ ・ ・ ・ ・ ・|五
| ・ ・ 歩 ・ ・ ・ ・ ・ ・|六
| 歩 歩 ・ 歩 歩 歩 歩 歩 歩|七
| ・ 角 ・ ・ ・ ・ ・ 飛 ・|八
| 香 桂 銀 金 玉 金 銀 桂 香|九
+---------------------------+
下手の持駒：なし
手数＝3  △４四歩(43)  まで
下手番"

# ---- every piece in a hand ----

expect_success "every piece in hand" "$KIFU" show hands.sfen
expect_output "every piece in hand" "後手の持駒：なし
  ９ ８ ７ ６ ５ ４ ３ ２ １
+---------------------------+
| ・ ・ ・ ・v玉 ・ ・ ・ ・|一
| ・ ・ ・ ・ ・ ・ ・ ・ ・|二
| ・ ・ ・ ・ ・ ・ ・ ・ ・|三
| ・ ・ ・ ・ ・ ・ ・ ・ ・|四
| ・ ・ ・ ・ ・ ・ ・ ・ ・|五
| ・ ・ ・ ・ ・ ・ ・ ・ ・|六
| ・ ・ ・ ・ ・ ・ ・ ・ ・|七
| ・ ・ ・ ・ ・ ・ ・ ・ ・|八
| ・ ・ ・ ・ 玉 ・ ・ ・ ・|九
+---------------------------+
先手の持駒：飛二　角二　金四　銀四　桂四　香四　歩十八　
先手番"

expect_success "every piece in hand, ascii" "$KIFU" show --ascii hands.sfen
expect_output "every piece in hand, ascii" "'  9  8  7  6  5  4  3  2  1
P1 *  *  *  * -OU *  *  *  * 
P2 *  *  *  *  *  *  *  *  * 
P3 *  *  *  *  *  *  *  *  * 
P4 *  *  *  *  *  *  *  *  * 
P5 *  *  *  *  *  *  *  *  * 
P6 *  *  *  *  *  *  *  *  * 
P7 *  *  *  *  *  *  *  *  * 
P8 *  *  *  *  *  *  *  *  * 
P9 *  *  *  * +OU *  *  *  * 
P+00HI00HI00KA00KA00KI00KI00KI00KI00GI00GI00GI00GI00KE00KE00KE00KE00KY00KY00KY00KY00FU00FU00FU00FU00FU00FU00FU00FU00FU00FU00FU00FU00FU00FU00FU00FU00FU00FU
P-
+"

# ---- CSA letters, and the players ----

expect_success "ascii" "$KIFU" show --ascii mini.kifu
expect_output "ascii" "N+Alice
N-Bob
'  5  4  3  2  1
P1+HI * -GI-KI-OU
P2-KA *  *  *  * 
P3 *  *  *  * -FU
P4 *  *  *  *  * 
P5+OU+KI+GI * +HI
P+
P-00KA00FU
'7: +0051HI
-"

# ---- minishogi in kanji, with names ----

expect_success "minishogi" "$KIFU" show mini.kifu
expect_output "minishogi" "手合割：5五将棋
先手：Alice
後手：Bob
後手の持駒：角　歩　
  ５ ４ ３ ２ １
+---------------+
| 飛 ・v銀v金v玉|一
|v角 ・ ・ ・ ・|二
| ・ ・ ・ ・v歩|三
| ・ ・ ・ ・ ・|四
| 玉 金 銀 ・ 飛|五
+---------------+
先手の持駒：なし
手数＝7  ▲５一飛打  まで
後手番"

# ---- the text reads back: kanji as KIF, letters as CSA ----

for p in 0 1 2 10 22; do
	"$KIFU" show --ply $p even.usi >shown.txt
	"$KIFU" convert -t sfen shown.txt >a.sfen 2>/dev/null
	"$KIFU" convert -t sfen --ply $p even.usi >b.sfen 2>/dev/null
	cmp -s a.sfen b.sfen || { echo "$name: kanji --ply $p reads back"; diff a.sfen b.sfen; failed=1; }
	"$KIFU" show --ascii --ply $p even.usi >shown.csa
	"$KIFU" convert -t sfen shown.csa 2>/dev/null | sed 's/ [0-9]*$//' >a.sfen
	sed 's/ [0-9]*$//' b.sfen >c.sfen
	cmp -s a.sfen c.sfen || { echo "$name: ascii --ply $p reads back"; diff a.sfen c.sfen; failed=1; }
done
"$KIFU" show mini.kifu >shown.txt
"$KIFU" convert -t sfen shown.txt >a.sfen 2>/dev/null
"$KIFU" convert -t sfen mini.kifu >b.sfen 2>/dev/null
cmp -s a.sfen b.sfen || { echo "$name: minishogi reads back"; diff a.sfen b.sfen; failed=1; }

# ---- colour: the last move's square, and NO_COLOR ----

esc=$(printf '\033')
expect_success "color always" "$KIFU" show --color always --ply 1 even.usi
grep -q "^| ・ ・${esc}\[30;43m 歩${esc}\[0m ・ ・ ・ ・ ・ ・|六$" out ||
	{ echo "$name: --color always marks 7f"; cat -v out; failed=1; }
[ "$(grep -c "$esc" out)" = 1 ] || { echo "$name: one marked square"; failed=1; }
expect_success "color always, ascii" "$KIFU" show --ascii --color always --ply 1 even.usi
grep -qF "P6 *  * ${esc}[30;43m+FU${esc}[0m *  * " out ||
	{ echo "$name: ascii marks 7f"; cat -v out; failed=1; }
expect_success "color never" "$KIFU" show --color never --ply 1 even.usi
grep -q "$esc" out && { echo "$name: --color never"; failed=1; }
# auto: colour on a terminal only, and never with NO_COLOR set.
expect_success "auto, a pipe" "$KIFU" show --ply 1 even.usi
grep -q "$esc" out && { echo "$name: colour into a pipe"; failed=1; }
if script -qec true /dev/null >/dev/null 2>&1; then
	script -qec "\"$KIFU\" show --ply 1 even.usi" /dev/null >tty.txt 2>&1
	grep -q "${esc}\[30;43m" tty.txt || { echo "$name: no colour on a terminal"; cat -v tty.txt; failed=1; }
	NO_COLOR=1 script -qec "\"$KIFU\" show --ply 1 even.usi" /dev/null >tty.txt 2>&1
	grep -q "${esc}\[30;43m" tty.txt && { echo "$name: NO_COLOR ignored"; failed=1; }
	NO_COLOR=1 script -qec "\"$KIFU\" show --color always --ply 1 even.usi" /dev/null >tty.txt 2>&1
	grep -q "${esc}\[30;43m" tty.txt || { echo "$name: --color always under NO_COLOR"; failed=1; }
	# Binary pictures are refused on a terminal.
	script -qec "\"$KIFU\" show --png even.usi; echo rc=\$?" /dev/null >tty.txt 2>&1
	grep -q "rc=2" tty.txt && grep -q "no text for a terminal" tty.txt ||
		{ echo "$name: PNG to a terminal"; cat tty.txt; failed=1; }
	script -qec "\"$KIFU\" show --gif -o - even.usi; echo rc=\$?" /dev/null >tty.txt 2>&1
	grep -q "rc=2" tty.txt || { echo "$name: GIF to a terminal"; cat tty.txt; failed=1; }
else
	echo "$name: note: no script(1); terminal checks skipped"
fi

# ---- --moves: the main line as KIF writes it ----

expect_success "--moves" "$KIFU" show --moves tsume.kifu
"$KIFU" convert -t kifu tsume.kifu 2>/dev/null |
	sed -n '/^手数----/,/^まで/p' >want
sed -n '/^手数----/,$p' out >got
cmp -s want got || { echo "$name: --moves"; diff want got | head; failed=1; }
grep -q '^\*ヒント:こじあける感覚$' got || { echo "$name: --moves comment"; failed=1; }
grep -q '^   9 １三飛成(12) ( 0:00/00:00:00)$' got || { echo "$name: --moves time"; failed=1; }
# The variation is not listed; the shown move is marked in colour.
grep -q '変化' got && { echo "$name: --moves lists a variation"; failed=1; }
expect_success "--moves --ply" "$KIFU" show --moves --ply 3 --color always tsume.kifu
grep -q "^${esc}\[30;43m   3 ２五桂打     ( 0:00/00:00:00)${esc}\[0m$" out ||
	{ echo "$name: --moves marks move 3"; cat -v out | tail -15; failed=1; }
# A comment cannot drive the terminal.
printf '%s\n' "手合割：平手" "手数----指手---------消費時間--" \
    "   1 ７六歩(77)" "*a$(printf '\033')[2Jb" >esc.kifu
expect_success "escape in a comment" "$KIFU" show --moves esc.kifu
grep -q "$esc" out && { echo "$name: escape passed through"; failed=1; }
grep -q '^\*a?\[2Jb$' out || { echo "$name: escape shown"; cat -v out; failed=1; }

# ---- errors ----

expect_exit 1 "--ply beyond the end" "$KIFU" show --ply 23 even.usi
expect_stderr_has "--ply beyond the end" "no position after move 23: the main line has 22 legal moves"
[ -s out ] && { echo "$name: printed past the end"; failed=1; }
expect_exit 2 "no file" "$KIFU" show
expect_exit 2 "two files" "$KIFU" show even.usi bishop.usi
expect_exit 2 "--ply and --last" "$KIFU" show --ply 1 --last even.usi
expect_exit 2 "bad --color" "$KIFU" show --color sometimes even.usi
expect_exit 2 "bad --ply" "$KIFU" show --ply -1 even.usi
expect_exit 2 "svg and png" "$KIFU" show --svg --png even.usi
expect_exit 2 "--moves with --svg" "$KIFU" show --svg --moves even.usi
expect_exit 2 "--flip in the terminal" "$KIFU" show --flip even.usi
expect_exit 2 "--delay without --gif" "$KIFU" show --png --delay 10 -o x.png even.usi
expect_exit 2 "--size too small" "$KIFU" show --svg --size 50 even.usi
expect_exit 2 "--real-time 0" "$KIFU" show --gif --real-time 0 -o x.gif even.usi
expect_exit 2 "missing file" "$KIFU" show nosuch.kif
expect_stderr_has "missing file" "cannot read 'nosuch.kif'"
echo "not a record" >junk.txt
expect_exit 1 "not a record" "$KIFU" show junk.txt
expect_stderr_has "not a record" "[unknown-format]"
# An illegal record is shown up to its first illegal move.
echo "position startpos moves 7g7f 3c3d 7f7e 7e7d" >illegal.usi
expect_exit 1 "illegal record" "$KIFU" show illegal.usi
expect_stderr_has "illegal record" "shown up to its first illegal move (3 moves)"
grep -q '^手数＝3  ▲７五歩(76)  まで$' out || { echo "$name: illegal record shown"; cat out; failed=1; }
expect_success "help" "$KIFU" show --help
grep -q '^usage: kifu show' out || { echo "$name: help"; failed=1; }
expect_success "kifu help lists show" "$KIFU" help
grep -q '^   show ' out || { echo "$name: help lists show"; failed=1; }

# -o writes a file once, atomically; --force replaces it.
expect_success "-o" "$KIFU" show -o board.txt even.usi
cmp -s board.txt last.txt || { echo "$name: -o file"; failed=1; }
expect_exit 2 "-o exists" "$KIFU" show -o board.txt --ply 0 even.usi
expect_stderr_has "-o exists" "exists; not replaced"
cmp -s board.txt last.txt || { echo "$name: -o replaced"; failed=1; }
expect_success "-o --force" "$KIFU" show -o board.txt --force --ply 0 even.usi
grep -q '^先手番$' board.txt || { echo "$name: --force"; failed=1; }

finish
