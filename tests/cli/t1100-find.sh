#!/bin/sh
# kifu find: positions (transpositions, variations, a handicap start,
# White to move first, repetitions, after the end of a disputed game,
# before an illegal move), every filter, Unicode folding, the outputs,
# exit codes and -j identity, on the samples of testdata/find/ and on
# the records of testdata/.
. "$(dirname "$0")/lib.sh"
top=$(cd "$TESTDATA/.." && pwd)
mkdir f
cp "$top"/testdata/find/* "$top/testdata/rules/sennichite-start.csa" \
    "$top/testdata/csa/kifu/nifu.csa" f/
rm -f f/SOURCES

# --- positions -------------------------------------------------------------

# The position after 7g7f 3c3d 2g2f 8c8d, reached in two move orders.
expect_success "transposition" "$KIFU" find \
    --usi "startpos moves 2g2f 8c8d 7g7f 3c3d" f
expect_output "transposition" \
"f/nifu.csa:4: sente vs gote, -, illegal-move, white wins
f/transpose-a.kifu:4: 羽生善治 vs 森内俊之, 2021-04-05, resign, white wins
f/transpose-b.csa:4: ＨＡＢＵ　Ｙｏｓｈｉｈａｒｕ vs ﾓﾘｳﾁ ﾄｼﾕｷ, 2014-10-12, resign, black wins"
# ... and in a variation of a third record, with --variations only.
expect_success "variations" "$KIFU" find --variations \
    --usi "startpos moves 2g2f 8c8d 7g7f 3c3d" f/variation.kifu
expect_output "variations" \
    "f/variation.kifu:4: ｶﾜｻｷ vs KAWASAKI Taro, 2021-04-05, abort"
expect_exit 1 "not in the main line" "$KIFU" find \
    --usi "startpos moves 2g2f 8c8d 7g7f 3c3d" f/variation.kifu
# The same SFEN, with another move number: the number is ignored.
expect_success "sfen" "$KIFU" find --sfen \
    "lnsgkgsnl/1r5b1/p1pppp1pp/1p4p2/9/2P4P1/PP1PPPP1P/1B5R1/LNSGKGSNL b - 99" \
    f/transpose-a.kifu
expect_output "sfen" \
    "f/transpose-a.kifu:4: 羽生善治 vs 森内俊之, 2021-04-05, resign, white wins"

# After a handicap start (角落ち: 上手, White, moves first).
expect_success "handicap start" "$KIFU" find --sfen \
    "lnsgkgsnl/1r7/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 1" f
expect_output "handicap start" \
    "f/bishop-handicap.kifu:2: 下手さん vs 上手さん, 2019-04-30, resign, black wins"

# White to move first from the even start: after 3c3d 7g7f the board of
# 7g7f 3c3d, but White to move; --board-only finds both.
expect_success "side to move" "$KIFU" find \
    --usi "startpos moves 7g7f 3c3d" f
expect_output "side to move" \
"f/hankaku.kif:2: ﾊﾌﾞ ﾖｼﾊﾙ vs 谷川浩司, 2003-09-08, resign, white wins
f/nifu.csa:2: sente vs gote, -, illegal-move, white wins
f/transpose-a.kifu:2: 羽生善治 vs 森内俊之, 2021-04-05, resign, white wins
f/two-games.csa#0:2: Alice vs Bob, 2020-01-02, resign, white wins"
expect_success "board only" "$KIFU" find --board-only \
    --usi "startpos moves 7g7f 3c3d" f
grep -q '^f/white-first.usi:2: - vs -, -, unfinished$' out &&
    [ "$(wc -l <out)" -eq 5 ] ||
    { echo "$name: --board-only"; cat out; failed=1; }
expect_success "white first" "$KIFU" find --sfen \
    "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 1" \
    f/white-first.usi
expect_output "white first" "f/white-first.usi:2: - vs -, -, unfinished"

# Every ply a position recurs at; a disputed record is searched whole: under
# jsa the game ends in sennichite at 12, the record goes on to 13.
expect_success "repetitions" "$KIFU" find --sfen startpos f/sennichite-start.csa
expect_output "repetitions" \
    "f/sennichite-start.csa:0,4,8,12: alice vs bob, -, sennichite"
expect_success "disputed" "$KIFU" find --rules jsa \
    --usi "startpos moves 2h5h" f/sennichite-start.csa
expect_output "disputed" \
    "f/sennichite-start.csa:1,5,9,13: alice vs bob, -, sennichite"

# An illegal move: searched up to the position before it (move 11 is nifu).
expect_success "before an illegal move" "$KIFU" find --at f/nifu.csa:10 f
expect_output "before an illegal move" \
    "f/nifu.csa:10: sente vs gote, -, illegal-move, white wins"
expect_exit 2 "--at past the legal moves" "$KIFU" find --at f/nifu.csa:11 f
expect_stderr_has "--at past" "has 10 legal moves, not 11"
# --at takes what find prints: FILE#INDEX:PLY.
expect_success "--at index" "$KIFU" find --at 'f/two-games.csa#1:3' f
expect_output "--at index" \
"f/nifu.csa:3: sente vs gote, -, illegal-move, white wins
f/transpose-a.kifu:3: 羽生善治 vs 森内俊之, 2021-04-05, resign, white wins
f/two-games.csa#1:3: Bob vs Alice, 2020-01-03, resign, black wins"

# --- names, folded ---------------------------------------------------------

# Full-width, half-width katakana (a CP932 file too), case.
for q in "habu yoshiharu" "HABU" "ＨＡＢＵ"; do
	expect_success "fold $q" "$KIFU" find --player "$q" f
	expect_output "fold $q" \
	    "f/transpose-b.csa: ＨＡＢＵ　Ｙｏｓｈｉｈａｒｕ vs ﾓﾘｳﾁ ﾄｼﾕｷ, 2014-10-12, resign, black wins"
done
expect_success "half-width kana" "$KIFU" find -l --player "ハブ" --player "ヨシハル" f
expect_output "half-width kana" "f/hankaku.kif"
expect_success "voiced mark" "$KIFU" find -l --white "モリウチ" f
expect_output "voiced mark" "f/transpose-b.csa"
expect_success "kana to half-width" "$KIFU" find -l --player "ｶﾜｻｷ" f
expect_output "kana to half-width" "f/variation.kifu"
expect_success "kawasaki" "$KIFU" find -l --white "kawasaki" f
expect_output "kawasaki" "f/variation.kifu"
expect_exit 1 "--black is Black" "$KIFU" find --black "kawasaki" f
expect_exit 1 "--exact" "$KIFU" find --exact --player "habu" f
expect_success "--exact as written" "$KIFU" find -c --exact --player "ＨＡＢＵ" f
expect_output "--exact as written" "1"
# 下手 and 上手 are Black and White.
expect_success "下手" "$KIFU" find -l --black "下手さん" --white "上手さん" f
expect_output "下手" "f/bishop-handicap.kifu"
# Several names: all must be there.
expect_success "two players" "$KIFU" find -c --player alice --player bob f
expect_output "two players" "3"
expect_exit 1 "two players, one absent" "$KIFU" find --player alice \
    --player carol f

# --regex: PCRE2, on the folded text, its own full-width forms folded.
expect_success "regex" "$KIFU" find -l --regex --player '^habu\s+yoshi' f
expect_output "regex" "f/transpose-b.csa"
expect_success "regex full-width" "$KIFU" find -l --regex --event '６[0-9]期' f
expect_output "regex full-width" "f/transpose-a.kifu"
expect_success "regex exact" "$KIFU" find -c --regex --exact --player '^[A-Z]' f
expect_output "regex exact" "3"
expect_exit 2 "bad regex" "$KIFU" find --regex --player '(' f
expect_stderr_has "bad regex" "--regex '(': missing closing parenthesis"

# Texts where a name occurs nowhere are passed over unread: never one
# that holds it in another form, nor a file without a record.
mkdir pre
printf 'V2.2\r\nN+Black123\r\nN-w\r\nPI\r\n+\r\n+7776FU\r\n' >pre/crlf.csa
printf 'V2.2\nN+ｂｌａｃｋ１２３\nN-w\nPI\n+\n' >pre/wide.csa
printf 'V2.2\nN+black12\nN-w\nPI\n+\n' >pre/near.csa
printf "V2.2\nN+x\nN-w\n'black123\nPI\n+\n" >pre/comment.csa
printf '{"header":{"先手":"\\u0042lack123"},"moves":[{}]}\n' >pre/escaped.jkf
printf '/\n/\n' >pre/slash.csa
expect_success "prefilter" "$KIFU" find -l --player BLACK123 pre
expect_output "prefilter" "pre/crlf.csa
pre/escaped.jkf
pre/wide.csa"
expect_stderr_has "prefilter" "pre/slash.csa: warning: not searched: no record in the file [empty]"
expect_success "prefilter, exact" "$KIFU" find -l --exact --player Black123 pre
expect_output "prefilter, exact" "pre/crlf.csa
pre/escaped.jkf"
expect_success "prefilter, -j2" "$KIFU" find -j2 -l --player black123 pre
expect_output "prefilter, -j2" "pre/crlf.csa
pre/escaped.jkf
pre/wide.csa"
# The bar counts files: a search passes some over without their records.
expect_success "progress" "$KIFU" find --progress -l --player black123 pre
expect_stderr_has "progress" "6 files, "

# --- the other filters -------------------------------------------------------

expect_success "event" "$KIFU" find -l --event "61期" f
expect_output "event" "f/transpose-a.kifu"
expect_success "event folded" "$KIFU" find -l --event "oui-SEN" f
expect_output "event folded" "f/transpose-b.csa"
# Dates from 2021年4月5日, 令和3年4月5日 and 2014/10/12 alike; ranges, open ends.
expect_success "date" "$KIFU" find -l --date 2021-04-05 f
expect_output "date" "f/transpose-a.kifu
f/variation.kifu"
expect_success "date month" "$KIFU" find -l --date 2021-04 f
expect_output "date month" "f/transpose-a.kifu
f/variation.kifu"
expect_success "date range" "$KIFU" find -l --date 2003..2019-04-30 f
expect_output "date range" "f/bishop-handicap.kifu
f/hankaku.kif
f/transpose-b.csa"
expect_success "date open" "$KIFU" find -l --date 2020-01-03.. f
expect_output "date open" "f/transpose-a.kifu
f/two-games.csa
f/variation.kifu"
expect_success "date one record of two" "$KIFU" find --date ..2020-01-02 \
    --player alice f
expect_output "date one record of two" \
    "f/two-games.csa#0: Alice vs Bob, 2020-01-02, resign, white wins"
expect_success "result" "$KIFU" find -l --result sennichite f
expect_output "result" "f/sennichite-start.csa"
expect_success "winner" "$KIFU" find -c --winner black f
expect_output "winner" "3"
expect_success "winner none" "$KIFU" find -l --winner none f
expect_output "winner none" "f/sennichite-start.csa
f/variation.kifu
f/white-first.usi"
expect_success "result and winner" "$KIFU" find -l --result illegal-move \
    --winner white f
expect_output "result and winner" "f/nifu.csa"
expect_success "moves" "$KIFU" find -l --moves 4 f
expect_output "moves" "f/bishop-handicap.kifu
f/transpose-a.kifu"
expect_success "moves range" "$KIFU" find -l --moves 12.. f
expect_output "moves range" "f/sennichite-start.csa"
expect_success "handicap" "$KIFU" find -l --handicap bishop f
expect_output "handicap" "f/bishop-handicap.kifu"
expect_success "handicap kanji" "$KIFU" find -l --handicap 角落ち f
expect_output "handicap kanji" "f/bishop-handicap.kifu"
expect_success "handicap any" "$KIFU" find -l --handicap any f
expect_output "handicap any" "f/bishop-handicap.kifu"
expect_success "handicap other" "$KIFU" find -l --handicap other f
expect_output "handicap other" "f/white-first.usi"
expect_success "even" "$KIFU" find -c --handicap even f
expect_output "even" "8"
expect_success "format" "$KIFU" find -l --format csa f
expect_output "format" "f/nifu.csa
f/sennichite-start.csa
f/transpose-b.csa
f/two-games.csa"
expect_success "format kifu" "$KIFU" find -c --format kifu f
expect_output "format kifu" "3"
# Every filter at once.
expect_success "all at once" "$KIFU" find --usi "startpos moves 7g7f" \
    --player 羽生 --event 王位 --date 2021 --result resign --winner white \
    --moves 1..10 --handicap even --format kifu f
expect_output "all at once" \
    "f/transpose-a.kifu:1: 羽生善治 vs 森内俊之, 2021-04-05, resign, white wins"

# --- outputs and exit codes -----------------------------------------------

expect_success "json" "$KIFU" find --json --usi "startpos moves 7g7f" \
    --date 2020 f/two-games.csa
expect_output "json" '{"file": "f/two-games.csa", "index": 0, "plies": [1], "headers": {"version": "2.2", "black": "Alice", "white": "Bob", "start-time": "2020/01/02 10:00:00", "date": "2020-01-02"}, "result": {"winner": "white", "reason": "resign", "ply": 2}}'
expect_success "json header search" "$KIFU" find --json --player ﾓﾘｳﾁ f
expect_output "json header search" '{"file": "f/transpose-b.csa", "index": 0, "plies": null, "headers": {"version": "2.2", "black": "ＨＡＢＵ　Ｙｏｓｈｉｈａｒｕ", "white": "ﾓﾘｳﾁ ﾄｼﾕｷ", "event": "Ｏｕｉ-sen 61", "start-time": "2014/10/12 10:00:00", "date": "2014-10-12"}, "result": {"winner": "black", "reason": "resign", "ply": 5}}'
expect_success "count" "$KIFU" find -c f
expect_output "count" "10"
expect_exit 1 "nothing" "$KIFU" find --player nobody f
[ -s out ] && { echo "$name: nothing matched, yet output"; failed=1; }
expect_exit 1 "count of nothing" "$KIFU" find -c --player nobody f
expect_output "count of nothing" "0"
expect_exit 2 "missing path" "$KIFU" find --player alice f /nonexistent
expect_stderr_has "missing path" "cannot read '/nonexistent'"
grep -q "two-games" out || { echo "$name: missing path stopped the run"; failed=1; }
expect_exit 2 "bad sfen" "$KIFU" find --sfen "lnsgkgsnl/9 b" f
expect_exit 2 "bad usi" "$KIFU" find --usi "startpos moves 7g7e" f
expect_exit 2 "bad date" "$KIFU" find --date 2021-13 f
expect_exit 2 "bad moves" "$KIFU" find --moves 10..2 f
expect_exit 2 "bad result" "$KIFU" find --result won f
expect_exit 2 "bad handicap" "$KIFU" find --handicap queen f
expect_exit 2 "bad format" "$KIFU" find --format bod f
expect_exit 2 "two positions" "$KIFU" find --sfen startpos --usi startpos f
expect_exit 2 "json and -l" "$KIFU" find --json -l f
expect_exit 2 "variations alone" "$KIFU" find --variations f
expect_exit 2 "no path" "$KIFU" find --player a
expect_success "help" "$KIFU" find --help
grep -q '^usage: kifu find' out || { echo "$name: --help"; failed=1; }

# A record that cannot be read: named on stderr, matched by its headers.
printf 'V2.2\nN+unread\nPI\n+\n+7776FU\n-33X4FU\n' >bad.csa
expect_success "unreadable by headers" "$KIFU" find --player unread bad.csa
expect_output "unreadable by headers" "bad.csa: unread vs -, -, unreadable"
expect_stderr_has "unreadable" "bad.csa:6:4: warning: a record that cannot be read is matched by its headers alone: bad move '-33X4FU' [syntax]"
expect_exit 1 "unreadable, no position" "$KIFU" find --sfen startpos bad.csa
expect_exit 1 "-s" "$KIFU" find -s --sfen startpos bad.csa
[ -s err ] && { echo "$name: -s printed"; cat err; failed=1; }

# --- the walk ------------------------------------------------------------------

# Every record of testdata/, many batches: the same bytes for every -j.
cp -r "$top/testdata" all
for j in 1 2 3 8; do
	"$KIFU" find -j$j --json --sfen startpos all >p$j.out 2>p$j.err
	"$KIFU" find -j$j --player 羽生 --variations --usi "startpos moves 7g7f 3c3d" all >v$j.out 2>&1
	"$KIFU" find -j$j -l --date 2014 all >l$j.out 2>/dev/null
done
[ "$(wc -l <p1.out)" -gt 250 ] || { echo "$name: too few at the start"; failed=1; }
for j in 2 3 8; do
	for k in p v l; do
		cmp -s $k"1.out" $k$j.out ||
		    { echo "$name: -j$j $k output differs"; failed=1; }
	done
	cmp -s p1.err p$j.err || { echo "$name: -j$j stderr differs"; failed=1; }
done
# Archives and path lists, as check walks them.
(cd f && tar czf ../f.tar.gz $(ls))
expect_success "archive" "$KIFU" find -l --player alice f.tar.gz
expect_output "archive" "f.tar.gz//sennichite-start.csa
f.tar.gz//two-games.csa"
find f -name '*.csa' | sort | tr '\n' '\0' >paths0
expect_success "--stdin -z" sh -c "\"$KIFU\" find -c --stdin -z <paths0"
expect_output "--stdin -z" "5"
# A position search stops where its answer is known, a header search
# reads no move; the answers are those of a whole reading.
"$KIFU" find -c --sfen startpos all >c.out 2>/dev/null
[ "$(cat c.out)" -eq "$(grep -c '' p1.out)" ] ||
    { echo "$name: -c and the listing disagree"; failed=1; }
"$KIFU" find -c --player 羽生 all >h.out 2>/dev/null
[ "$(cat h.out)" -eq "$("$KIFU" find --player 羽生 all 2>/dev/null | grep -c '')" ] ||
    { echo "$name: header -c and the listing disagree"; failed=1; }

finish
