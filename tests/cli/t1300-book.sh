#!/bin/sh
# kifu book (issue 17): ShogiHome's source games rebuilt into a book;
# every position and move of real records against the training rows of
# kifu export (an independent path to the same counts and evaluations);
# transpositions; --side; --min-count; merge equal to one build (shards,
# GNU parallel); the same bytes for every -j and with a tiny --memory
# (spilled runs, merged in several passes); sort and its round trip;
# query on sorted and unsorted books, by binary search; hostile books.
. "$(dirname "$0")/lib.sh"
b=$TESTDATA/book
startpos='lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1'

# --- ShogiHome's source games -------------------------------------------------

# They have no result: --results all takes them, as ShogiHome does.
expect_success "shogihome sources" "$KIFU" book build --results all \
    -o src.db "$b/source"
cmp -s src.db "$b/shogihome-source.db" ||
    { echo "$name: shogihome-source.db differs"; diff src.db "$b/shogihome-source.db" | head; failed=1; }
expect_stderr_has "summary" "6 records: 6 used, 0 skipped; 47 plies; 38 positions, 43 moves written"
# The counts at the start, by hand from the five files (src05 has two games).
expect_success "query startpos" "$KIFU" book query src.db --sfen "$startpos"
expect_output "startpos moves" "7g7f none none none 3
2g2f none none none 2
5g5f none none none 1"
# The defaults drop games without a decided result, as export's do.
expect_success "default selection" "$KIFU" book build "$b/source"
expect_output "empty book" "#YANEURAOU-DB2016 1.00"
expect_stderr_has "all dropped" "6 records: 0 used, 6 skipped"
expect_stderr_has "by results" "results 6"
# --max-ply: the positions at plies 0..N-1.
expect_success "max-ply 1" "$KIFU" book build --results all --max-ply 1 "$b/source"
expect_output "max-ply 1" "#YANEURAOU-DB2016 1.00
sfen $startpos
7g7f none none none 3
2g2f none none none 2
5g5f none none none 1"

# --- against export's rows: counts, lowest move numbers, mean evaluations ---

# Every position of every main line (--max-ply large), as export -t sfen
# gives them (SFEN, move, eval for the side to move or -); the book must
# hold the same positions, moves, counts and rounded means.
recs="$TESTDATA/training/records $TESTDATA/csa/floodgate $TESTDATA/rules"
expect_success "rows" "$KIFU" export -t sfen --results all -o rows.txt $recs
expect_success "book of the same" "$KIFU" book build --results all \
    --max-ply 100000 -o all.db $recs
awk -F'\t' '{
	split($1, f, " "); k = f[1] " " f[2] " " f[3] "|" $2
	n[k]++
	if (!(f[1] " " f[2] " " f[3] in low) || f[4] + 0 < low[f[1] " " f[2] " " f[3]])
		low[f[1] " " f[2] " " f[3]] = f[4] + 0
	if ($3 != "-") { s[k] += $3; e[k]++ }
}
END {
	for (k in n) {
		split(k, p, "|")
		v = "none"
		if (e[k]) { m = s[k] / e[k]; a = m < 0 ? -m : m; r = int(a + 0.5); v = m < 0 ? -r : r }
		print p[1] "|" low[p[1]] "|" p[2] "|" n[k] "|" v
	}
}' rows.txt | LC_ALL=C sort >expect.rows
awk '/^sfen / { key = $2 " " $3 " " $4; ply = $5; next }
/^[^#]/ { print key "|" ply "|" $1 "|" $5 "|" $3 }' all.db | LC_ALL=C sort >actual.rows
[ -s expect.rows ] && cmp -s expect.rows actual.rows ||
    { echo "$name: book and export rows disagree"; diff expect.rows actual.rows | head; failed=1; }
grep -q ' -\?[0-9][0-9]* none [0-9]' all.db ||
    { echo "$name: no evaluated move in the book"; failed=1; }
# Sorted as YaneuraOu sorts: by the sfen lines' bytes.
grep '^sfen ' all.db | LC_ALL=C sort -c 2>/dev/null ||
    { echo "$name: positions not in byte order"; failed=1; }
[ "$(grep -c '^sfen ' all.db)" -eq "$(grep '^sfen ' all.db | cut -d' ' -f2-4 | sort -u | wc -l)" ] ||
    { echo "$name: a position written twice"; failed=1; }

# --- transpositions, --side, --min-count ---------------------------------------

printf '%s\n' 'position startpos moves 7g7f 3c3d 2g2f 8c8d' \
    'position startpos moves 2g2f 3c3d 7g7f 4a3b' \
    'position startpos moves 5i5h 5a5b 5h5i 5b5a 7g7f' >tr.usi
expect_success "transpositions" "$KIFU" book build --results all -o tr.db tr.usi
expect_success "after 3 plies, both orders" "$KIFU" book query tr.db \
    --usi "startpos moves 2g2f 3c3d 7g7f"
expect_output "merged" "4a3b none none none 1
8c8d none none none 1"
# The start again at move 5 (kings back): one position, its lowest number.
expect_success "start seen twice" "$KIFU" book query tr.db --usi startpos
expect_output "start moves" "7g7f none none none 2
2g2f none none none 1
5i5h none none none 1"
[ "$(grep -c "^sfen $startpos\$" tr.db)" -eq 1 ] ||
    { echo "$name: the start is not one position with move number 1"; failed=1; }
expect_success "side black" "$KIFU" book build --results all --side black -o black.db tr.usi
grep '^sfen ' black.db | grep -qv ' b ' && { echo "$name: --side black kept white"; failed=1; }
expect_success "side white" "$KIFU" book build --results all --side white -o white.db tr.usi
grep '^sfen ' white.db | grep -qv ' w ' && { echo "$name: --side white kept black"; failed=1; }
[ "$(($(grep -c '^sfen' black.db) + $(grep -c '^sfen' white.db)))" -eq "$(grep -c '^sfen' tr.db)" ] ||
    { echo "$name: black and white do not add up"; failed=1; }
expect_success "min-count 2" "$KIFU" book build --results all --min-count 2 tr.usi
expect_output "min-count 2" "#YANEURAOU-DB2016 1.00
sfen $startpos
7g7f none none none 2"

# --- the same bytes for every -j and memory budget -------------------------------

expect_success "-j1" "$KIFU" book build --results all -j1 -o j1.db $recs "$b/source"
expect_success "-j4" "$KIFU" book build --results all -j4 -o j4.db $recs "$b/source"
cmp -s j1.db j4.db || { echo "$name: -j4 differs from -j1"; failed=1; }
# Each worker counts into a table of its own and the tables join: every
# job's share in memory and spilled, from two to four workers, and the
# summary's counts as -j1's. --uniq keeps the first of repeated games in
# input order (the main thread counts then): the same bytes too.
expect_success "-j1 summary" "$KIFU" book build --results all -j1 -o j1s.db $recs "$b/source"
sed 's/time .*//' err >j1.sum
for j in 2 3 4; do
	expect_success "-j$j" "$KIFU" book build --results all -j$j --memory 2K \
	    --force -o jm.db $recs "$b/source"
	cmp -s j1.db jm.db || { echo "$name: -j$j with 2K differs from -j1"; failed=1; }
	sed 's/time .*//; s/ (memory spilled [0-9]* times)//' err >jm.sum
	sed 's/ (memory spilled [0-9]* times)//' j1.sum | cmp -s - jm.sum ||
	    { echo "$name: -j$j's summary differs"; diff j1.sum jm.sum; failed=1; }
done
cp "$b/source/src02.kifu" dup02.kifu
expect_success "--uniq -j1" "$KIFU" book build --results all --uniq -j1 \
    -o u1.db "$b/source" dup02.kifu
expect_stderr_has "--uniq drops the copy" "uniq 1"
expect_success "--uniq -j3" "$KIFU" book build --results all --uniq -j3 \
    -o u3.db "$b/source" dup02.kifu
cmp -s u1.db u3.db || { echo "$name: --uniq -j3 differs from -j1"; failed=1; }
cmp -s u1.db src.db || { echo "$name: --uniq kept the copy"; failed=1; }
mkdir runs
expect_success "tiny memory" env TMPDIR="$PWD/runs" "$KIFU" book build \
    --results all -j3 --memory 1K -o spill.db $recs "$b/source"
cmp -s j1.db spill.db || { echo "$name: spilled build differs"; failed=1; }
# More runs than are merged at once (64): merged in passes.
n=$(sed -n 's/.*memory spilled \([0-9]*\) times.*/\1/p' err)
[ "${n:-0}" -gt 64 ] || { echo "$name: only ${n:-0} spills"; failed=1; }
[ -z "$(ls -A runs)" ] || { echo "$name: runs left in TMPDIR"; failed=1; }
# More runs than are kept open (256): merged down while the build goes on.
expect_success "whole testdata" "$KIFU" book build --results all -o td.db "$TESTDATA"
expect_success "whole testdata, 1K" "$KIFU" book build --results all --memory 1K \
    -o td1.db "$TESTDATA"
n=$(sed -n 's/.*memory spilled \([0-9]*\) times.*/\1/p' err)
[ "${n:-0}" -gt 256 ] || { echo "$name: only ${n:-0} spills of testdata"; failed=1; }
cmp -s td.db td1.db || { echo "$name: testdata spilled differs"; failed=1; }
# Budgets that keep some runs in memory before they go to files, and one
# that keeps every run in memory (the table is sorted into runs long
# before the budget is reached: bookagg.h's BOOKAGG_CHUNK).
for m in 64K 300K 1M 64M; do
	expect_success "whole testdata, $m" "$KIFU" book build --results all \
	    --memory $m -o "td$m.db" "$TESTDATA"
	cmp -s td.db "td$m.db" || { echo "$name: testdata at $m differs"; failed=1; }
done

# --- merge equals one build -----------------------------------------------------

# in reverse order: the first play of a move is not where one build has it
set -- $(find $recs "$b/source" -type f -name '*.*' | LC_ALL=C sort -r)
i=0
for f in "$@"; do
	i=$((i + 1))
	expect_success "shard $i" "$KIFU" book build --results all -o "shard$i.db" "$f"
done
expect_success "merge" "$KIFU" book merge -o merged.db shard*.db
cmp -s j1.db merged.db || { echo "$name: merged shards differ from one build"; diff j1.db merged.db | head; failed=1; }
expect_success "merge spilled" "$KIFU" book merge --memory 1K -o merged2.db shard*.db
cmp -s j1.db merged2.db || { echo "$name: spilled merge differs"; failed=1; }
expect_success "merge min-count" "$KIFU" book merge --min-count 2 -o mc.db shard*.db
expect_success "build min-count" "$KIFU" book build --results all --min-count 2 -o mc1.db $recs "$b/source"
cmp -s mc.db mc1.db || { echo "$name: --min-count after merge differs"; failed=1; }
if command -v parallel >/dev/null 2>&1; then
	printf '%s\n' "$@" >files.txt
	parallel -j3 "\"$KIFU\" book build --results all -o par{#}.db {} 2>/dev/null" <files.txt ||
	    { echo "$name: parallel failed"; failed=1; }
	expect_success "merge parallel" "$KIFU" book merge -o par.db par*.db
	cmp -s j1.db par.db || { echo "$name: GNU parallel shards differ"; failed=1; }
fi

# Comments in a merge: each comment line once (a book merged with itself
# comes out as it was); a move's end-of-line text stays on its line, not
# glued onto a comment line after it.
startpos_sfen="sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
printf '#YANEURAOU-DB2016 1.00\n%s\n#pos A\n7g7f 3c3d 10 none 2\n#move A\n' "$startpos_sfen" >ca.db
printf '#YANEURAOU-DB2016 1.00\n%s\n#pos A\n7g7f 3c3d 20 none 2 tail B\n' "$startpos_sfen" >cb.db
printf '#YANEURAOU-DB2016 1.00\n%s\n#pos E\n#pos A\n7g7f 3c3d 10 none 2 tail E\n#move A\n#move E\n' "$startpos_sfen" >ce.db
expect_success "merge comments with themselves" "$KIFU" book merge -o - ca.db ca.db
expect_output "merge comments with themselves" "#YANEURAOU-DB2016 1.00
$startpos_sfen
#pos A
7g7f 3c3d 10 none 4
#move A"
expect_success "merge end-of-line text" "$KIFU" book merge -o - ca.db cb.db
expect_output "merge end-of-line text" "#YANEURAOU-DB2016 1.00
$startpos_sfen
#pos A
7g7f 3c3d 15 none 4 tail B
#move A"
for mem in 512M 1K; do
	expect_success "merge three, $mem" "$KIFU" book merge --memory $mem -o - ca.db ce.db cb.db
	expect_output "merge three, $mem" "#YANEURAOU-DB2016 1.00
$startpos_sfen
#pos A
#pos E
7g7f 3c3d 13 none 6 tail E tail B #kifu-evals=6/80
#move A
#move E"
done

# --- sort ------------------------------------------------------------------------

expect_success "sort shogihome-style" "$KIFU" book sort -o s1.db "$b/shogihome-style.db"
cmp -s s1.db "$b/shogihome-style.sorted.db" ||
    { echo "$name: sorted shogihome-style differs"; diff s1.db "$b/shogihome-style.sorted.db"; failed=1; }
expect_success "sort bom crlf unsorted" "$KIFU" book sort -o s2.db "$b/bom-crlf-unsorted.db"
cmp -s s2.db "$b/shogihome-style.sorted.db" ||
    { echo "$name: sorted bom-crlf-unsorted differs"; diff s2.db "$b/shogihome-style.sorted.db"; failed=1; }
for f in s1.db j1.db all.db "$b/shogihome-source.db"; do
	expect_success "round trip $f" "$KIFU" book sort -o rt.db --force "$f"
	cmp -s rt.db "$f" || { echo "$name: $f does not come back byte for byte"; failed=1; }
done
# A move played 0 times is the book's, not a filter's: sort keeps it. A
# value edited by hand wins over a #kifu-evals tag it no longer agrees with.
start='lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1'
printf '#YANEURAOU-DB2016 1.00\nsfen %s\n7g7f none none none 0\n2g2f none 99 5 4 #kifu-evals=4/41\n' \
    "$start" >edited.db
expect_success "sort count 0, stale tag" "$KIFU" book sort -o - edited.db
printf '#YANEURAOU-DB2016 1.00\nsfen %s\n2g2f none 99 5 4\n7g7f none none none 0\n' \
    "$start" >edited.want
cmp -s out edited.want || { echo "$name: count 0 or stale tag"; cat out; failed=1; }
# A sorted book whose SFEN writes the hands in another order (PR for RP):
# the search compares positions, not their spelling.
printf '#YANEURAOU-DB2016 1.00\nsfen 4k4/9/9/9/9/9/9/9/4K4 b PR 1\n5i5h none none none 1\nsfen %s\n7g7f none none none 3\n' \
    "$start" >odd.db
expect_success "query another spelling" "$KIFU" book query odd.db \
    --sfen "4k4/9/9/9/9/9/9/9/4K4 b RP 1"
grep -qx "5i5h none none none 1" out ||
    { echo "$name: query another spelling"; cat out; failed=1; }
# Two sorted books joined end to end are not one sorted book: a query
# must not binary-search it, and answers as on the sorted join.
cat td.db s1.db >joined.db
expect_success "sort joined" "$KIFU" book sort -o joined-sorted.db joined.db
grep '^sfen ' s1.db | sed 's/^sfen //' >joined.sfen
while read -r sf; do
	"$KIFU" book query joined.db --sfen "$sf" >q1 2>&1
	"$KIFU" book query joined-sorted.db --sfen "$sf" >q2 2>&1
	cmp -s q1 q2 || { echo "$name: joined book, $sf"; failed=1; break; }
done <joined.sfen
expect_success "sort stdin" sh -c "\"$KIFU\" book sort - <\"$b/bom-crlf-unsorted.db\""
cmp -s out "$b/shogihome-style.sorted.db" || { echo "$name: sort - differs"; failed=1; }

# --- query ------------------------------------------------------------------------

# sorted, with a BOM and CRLF line ends
{ printf '\357\273\277'; sed 's/$/\r/' s1.db; } >s1-bom-crlf.db
{ printf '\357\273\277'; grep -v '^#YANE' s1.db; } >s1-bom.db
for f in "$b/shogihome-style.db" "$b/bom-crlf-unsorted.db" s1.db s1-bom-crlf.db s1-bom.db; do
	expect_success "query $f" "$KIFU" book query "$f" --usi startpos
	expect_output "query $f" "7g7f 3c3d 40 20 19
2g2f none 35 18 19
5g5f none -20 16 2"
	expect_exit 1 "absent in $f" "$KIFU" book query "$f" --usi "startpos moves 1g1f"
	[ -s out ] && { echo "$name: output for an absent position"; failed=1; }
done
expect_success "query sfen move number ignored" "$KIFU" book query s1.db \
    --sfen "lnsgkgsnl/1r5b1/ppppppppp/9/9/P8/1PPPPPPPP/1B5R1/LNSGKGSNL w - 40"
expect_output "first position" "8c8d none none none 1"
# A sorted book is searched, not read: a broken position far away does
# not matter until it is the one asked for.
cp all.db broken.db
line=$(grep -n '^sfen ' broken.db | tail -n 1 | cut -d: -f1)
last=$(sed -n "${line}p" broken.db | cut -d' ' -f2-4)
sed -i "$((line + 1))s/.*/9i9a none none none 1/" broken.db
first=$(grep -m1 '^sfen ' broken.db | cut -d' ' -f2-)
expect_success "binary search" "$KIFU" book query broken.db --sfen "$first"
expect_exit 2 "the broken one" "$KIFU" book query broken.db --sfen "$last"
expect_stderr_has "named" "broken.db:$((line + 1)):1: error: move '9i9a' is illegal"
# An unsorted book is read through (and so checked whole).
expect_exit 2 "sort broken" "$KIFU" book sort broken.db
# The same answers from the book with its positions in reverse order
# (read through) as from the sorted one (searched).
awk '/^#YANE/ { next } /^sfen / { n++ } { b[n] = b[n] $0 "\n" }
END { for (i = n; i > 0; i--) printf "%s", b[i] }' all.db >rev.db
for q in "$startpos" "$first" "$last"; do
	expect_success "search $q" "$KIFU" book query all.db --sfen "$q"
	mv out search.out
	expect_success "scan $q" "$KIFU" book query rev.db --sfen "$q"
	cmp -s search.out out && [ -s out ] ||
	    { echo "$name: search and scan disagree on $q"; failed=1; }
done

# An error found by the search names its line, the BOM's line too.
{ printf '\357\273\277'; printf '%s\n' "sfen $startpos" '7g7f none 1 2 3' '7g7e'; } >bom1.db
expect_exit 2 "search error, line 3" "$KIFU" book query bom1.db --usi startpos
expect_stderr_has "search error, line 3" "bom1.db:3:1: error: move '7g7e'"

# --- hostile and broken books -------------------------------------------------------

expect_exit 2 "bad header" "$KIFU" book sort -o x.db "$b/bad-header.db"
expect_stderr_has "bad header" "bad-header.db:1:1: error: header '#YANEURAOU-DB2015 1.00' is not '#YANEURAOU-DB2016 1.00' [book-header]"
[ -e x.db ] && { echo "$name: output left after an error"; failed=1; }
expect_exit 2 "illegal move" "$KIFU" book merge -o x.db "$b/illegal-move.db"
expect_stderr_has "illegal move" "illegal-move.db:4:1: error: move '7g7e' is illegal in this position: the piece cannot move that way [piece-movement]"
expect_exit 2 "illegal ponder" "$KIFU" book sort "$b/illegal-ponder.db"
expect_stderr_has "illegal ponder" "illegal-ponder.db:4:6: error: ponder '2b8h+' is illegal after '2g2f'"
expect_exit 2 "query illegal" "$KIFU" book query "$b/illegal-move.db" --usi startpos
expect_stderr_has "query illegal" "illegal-move.db:4:1:"
sp="sfen $startpos"
while IFS='|' read -r what text msg; do
	printf "$text" >h.db
	expect_exit 2 "hostile: $what" "$KIFU" book sort h.db
	expect_stderr_has "hostile: $what" "$msg"
done <<'EOF'
move first|7g7f none 0 0 1\n|h.db:1:1: error: a move before any 'sfen' line [book-syntax]
garbage|#YANEURAOU-DB2016 1.00\nhello\n|h.db:2:1: error: 'hello' is neither 'sfen', a USI move nor a comment [book-syntax]
bad value|sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n7g7f none 1x 0 1\n|h.db:2:11: error: value '1x' is not a number [book-syntax]
bad count|sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n7g7f none 1 0 -1\n|h.db:2:15: error: count '-1' is not a number [book-syntax]
huge value|sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n7g7f none 99999999999999999999 0 1\n|h.db:2:11: error: value
bad ponder|sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n7g7f 3c3 0 0 1\n|h.db:2:6: error: ponder '3c3' is not a USI move [book-syntax]
bad sfen|sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1 b - 1\n|h.db:1:
two kings|sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKKSNL b - 1\n|h.db:1:
nul byte|sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n7g7f\000 none\n|h.db:2:5: error: a NUL byte inside a line [book-syntax]
other header|\357\273\277#YANEURAOU-DB2017\n|h.db:1:1: error: header
drop of nothing|sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\nP*5e none\n|h.db:2:1: error: move 'P*5e' is illegal in this position: the piece is not in hand [not-in-hand]
EOF
# Counts and evaluations that would add up past 2^63 - 1: an error, in a
# table (naming the line) and across spilled runs (naming the move and
# position), and nothing written. Tags whose numbers are absurd are stale:
# the value on the line wins. (Each once crashed under UBSan.)
{ echo '#YANEURAOU-DB2016 1.00'
  for i in 1 2 3 4 5 6 7 8 9 10; do echo "$sp"; echo '7g7f none 1000000000 none 1000000000'; done; } >ov.db
expect_exit 2 "overflow" "$KIFU" book sort -o ov-out.db ov.db
expect_stderr_has "overflow" "ov.db:21:1: error: the counts or evaluations of 7g7f add up past 9223372036854775807 with the book's earlier lines [book-overflow]"
[ -e ov-out.db ] && { echo "$name: output left after an overflow"; failed=1; }
{ echo '#YANEURAOU-DB2016 1.00'
  for i in 1 2 3 4 5; do echo "$sp"; echo '7g7f none 1000000000 none 1000000000'; done
  grep -v '^#YANE' all.db | awk -v sp="$sp" '/^sfen / { keep = $0 != sp } keep'
  for i in 1 2 3 4 5 6; do echo "$sp"; echo '7g7f none 1000000000 none 1000000000'; done; } >ovs.db
expect_exit 2 "overflow across runs" "$KIFU" book sort --memory 1K -o ov-out.db ovs.db
expect_stderr_has "overflow across runs" "error: the counts or evaluations of 7g7f at $(echo "$startpos" | cut -d' ' -f1-3) add up past 9223372036854775807 [book-overflow]; nothing written"
[ -e ov-out.db ] && { echo "$name: output left after an overflow"; failed=1; }
for tag in 9223372036854775807/9223372036854775807 1/-9223372036854775808 \
    3/9223372036854775807 9223372036854775807/-9223372036854775808; do
	printf '#YANEURAOU-DB2016 1.00\n%s\n7g7f none 5 none 3 #kifu-evals=%s\n' "$sp" "$tag" >tag.db
	expect_success "absurd tag $tag" "$KIFU" book merge -o - tag.db tag.db
	expect_output "absurd tag $tag" "#YANEURAOU-DB2016 1.00
$sp
7g7f none 5 none 6"
done

awk 'BEGIN { printf "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n#"; for (i = 0; i < 70000; i++) printf "x"; print "" }' >long.db
expect_exit 2 "long line" "$KIFU" book sort long.db
expect_stderr_has "long line" "long.db:2:1: error: line of 70001 bytes"
: >empty.db
expect_success "empty book" "$KIFU" book sort empty.db
expect_output "empty book" "#YANEURAOU-DB2016 1.00"
expect_exit 2 "missing book" "$KIFU" book query nothing.db --usi startpos
expect_stderr_has "missing" "cannot read 'nothing.db'"
# A file with no position line is no book, or an empty one: read through,
# not searched, so that a text that is no book is named, not "not found".
expect_exit 2 "no book" "$KIFU" book query "$TESTDATA/README.md" --usi startpos
expect_stderr_has "no book" "README.md:1:1: error:"
expect_stderr_has "no book" "[book-header]"
printf '#YANEURAOU-DB2016 1.00\n#a comment\n' >empty-book.db
expect_exit 1 "an empty book" "$KIFU" book query empty-book.db --usi startpos

# --- usage ---------------------------------------------------------------------------

expect_success "help" "$KIFU" book --help
expect_exit 2 "no subcommand" "$KIFU" book
expect_exit 2 "unknown subcommand" "$KIFU" book frobnicate
expect_exit 2 "query needs a position" "$KIFU" book query s1.db
expect_exit 2 "query both" "$KIFU" book query s1.db --usi startpos --sfen "$startpos"
expect_exit 2 "bad memory" "$KIFU" book build --memory 12Q "$b/source"
expect_stderr_has "bad memory" "--memory takes a size"
expect_exit 2 "bad side" "$KIFU" book build --side red "$b/source"
expect_exit 2 "selection on merge" "$KIFU" book merge --results all s1.db
expect_exit 2 "exists" "$KIFU" book sort -o s1.db "$b/shogihome-style.db"
expect_stderr_has "exists" "use --force"
expect_exit 2 "bad --usi" "$KIFU" book query s1.db --usi "startpos moves 1a1a"

finish
