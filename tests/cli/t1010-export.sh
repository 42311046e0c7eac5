#!/bin/sh
# kifu export (issue 14): the golden rows of testdata/training/ byte for
# byte through the command itself; every record of testdata/ exported,
# dumped and checked against the positions validate reaches; the
# filters alone and combined; the same bytes for every -j; --uniq in one
# run and across shards (--keys-out, --merge, GNU parallel); atomic
# output; usage and hostile inputs.
. "$(dirname "$0")/lib.sh"
g=$TESTDATA/training

# --- the golden rows: every format, every record, three rule settings ---

names=$(sed -E 's/^\{"name": "([^"]*)".*/\1/' "$g/INDEX.jsonl")
[ "$(echo "$names" | wc -l)" -eq 11 ] || { echo "$name: INDEX.jsonl"; failed=1; }
for n in $names; do
	src=$g/records/$n
	[ -f "$src" ] || src=$src.csa
	for rules in auto jsa csa; do
		for f in hcpe hcpe3 psv hcp; do
			expect_success "$n $f $rules" "$KIFU" export -t $f \
			    --results all --rules $rules -o "out.$f" --force "$src"
			cmp -s "out.$f" "$g/$n.$f" ||
			    { echo "$name: $n.$f ($rules) differs"; failed=1; }
		done
		expect_success "$n sfen $rules" "$KIFU" export -t sfen \
		    --results all --rules $rules "$src"
		cmp -s out "$g/$n.sfen.txt" ||
		    { echo "$name: $n.sfen.txt ($rules) differs"; diff out "$g/$n.sfen.txt" | head -3; failed=1; }
	done
done
# all records at once: the files one after another
for f in hcpe hcpe3 psv hcp; do
	: >cat.$f
	for n in $names; do cat "$g/$n.$f" >>cat.$f; done
done
set --
for n in $names; do
	src=$g/records/$n
	[ -f "$src" ] || src=$src.csa
	set -- "$@" "$src"
done
for f in hcpe hcpe3 psv hcp; do
	expect_success "all $f" "$KIFU" export -t $f --results all -o all.$f "$@"
	cmp -s all.$f cat.$f || { echo "$name: all records as $f"; failed=1; }
done
expect_stderr_has "summary" "kifu: export hcp: 11 records: 11 exported, 0 skipped; 11 rows, 352 bytes (rules auto)"

# --- every record of testdata/: export, dump, and what validate reaches ---

# The sfen lines give each exported record's start and moves; every
# prefix of them becomes a USI line, whose final position validate
# reports: that must be the position each psv, hcpe and hcpe3 row holds
# as dump decodes it, and after the last row's move, when the rows cover
# the whole record, validate's final position of the record itself.
"$KIFU" check --json "$TESTDATA" >check.jsonl 2>/dev/null
"$KIFU" export -t sfen --results all -v -j1 --keys-out s.keys -o s.txt \
    "$TESTDATA" 2>v.err || { echo "$name: export of testdata"; failed=1; }
"$KIFU" export -t psv --results all -j2 --keys-out p.keys -o p.psv \
    "$TESTDATA" 2>/dev/null || { echo "$name: psv of testdata"; failed=1; }
"$KIFU" export -t hcpe --results all -j3 -o h.hcpe "$TESTDATA" 2>/dev/null
"$KIFU" export -t hcpe3 --results all -o h.hcpe3 "$TESTDATA" 2>/dev/null
cut -d' ' -f2 s.keys | tail -n +2 >rows.s
cut -d' ' -f2 p.keys | tail -n +2 >rows.p
cmp -s rows.s rows.p || { echo "$name: psv and sfen rows of other records"; failed=1; }
# the records exported: check's, less those -v says were skipped
sed -n 's/^\(.*\): record \([0-9]*\): skipped (.*$/\1	\2/p; s/^\([^	]*\): skipped (.*$/\1	1/p' v.err >skipped
awk -F'\t' '
	FILENAME == "skipped" { gone[$1 "\t" ($2 - 1)] = 1; next }
	{
		f = $0; sub(/^\{"file": "/, "", f); sub(/", "index".*/, "", f)
		i = $0; sub(/.*"index": /, "", i); sub(/,.*/, "", i)
		if ((f "\t" i) in gone) next
		m = $0; sub(/.*"moves": /, "", m); sub(/,.*/, "", m)
		fin = $0; sub(/.*"final_sfen": "/, "", fin); sub(/".*/, "", fin)
		p = $0; sub(/.*"result": \{[^}]*"ply": /, "", p); sub(/\}.*/, "", p)
		print f "\t" i "\t" m "\t" p "\t" fin
	}' skipped check.jsonl >exported
nexp=$(wc -l <exported)
[ "$nexp" -eq "$(wc -l <rows.s)" ] ||
    { echo "$name: $nexp records exported by check's count, $(wc -l <rows.s) keys"; failed=1; }
[ "$nexp" -gt 300 ] || { echo "$name: only $nexp records exported"; failed=1; }
# rows end where the rules end the game
paste rows.s exported | awk -F'\t' '{ want = $5 < $4 ? $5 : $4
    if ($1 != want) { print "rows " $1 ", the rules end at " want ": " $2 " " $3; bad = 1 } }
    END { exit bad }' || { echo "$name: rows and the rules' end"; failed=1; }
# the prefixes, and what each must reach
paste rows.s exported | awk -F'\t' -v rows=s.txt '
	{
		n = $1
		for (k = 0; k < n; k++) {
			getline line <rows
			split(line, f, "\t")
			if (k == 0) start = f[1]
			mv[k] = f[2]
		}
		for (k = 0; k <= n; k++) {
			s = "position sfen " start
			if (k) s = s " moves"
			for (j = 0; j < k; j++) s = s " " mv[j]
			print s >"prefix.usi"
			print (k == n ? ($3 == $4 ? $6 : "-") : "row") >"want.kind"
		}
	}'
"$KIFU" validate --json prefix.usi 2>/dev/null |
    sed 's/.*"final_sfen": "\([^"]*\)".*/\1/' >reached
"$KIFU" dump p.psv | cut -f3 >psv.sfen
"$KIFU" dump h.hcpe | cut -f3 | sed 's/ [0-9]*$//' >hcpe.sfen
"$KIFU" dump h.hcpe3 | cut -f3 | sed 's/ [0-9]*$//' >hcpe3.sfen
[ "$(wc -l <psv.sfen)" -gt 15000 ] || { echo "$name: few rows"; failed=1; }
paste want.kind reached | awk -F'\t' -v psv=psv.sfen -v hcpe=hcpe.sfen \
    -v h3=hcpe3.sfen '
	$1 == "row" {
		getline a <psv; getline b <hcpe; getline c <h3
		s = $2; sub(/ [0-9]+$/, "", s)
		if (a != $2) { print "psv row " NR ": " a " != " $2; bad = 1 }
		if (b != s) { print "hcpe row " NR ": " b " != " s; bad = 1 }
		if (c != s) { print "hcpe3 row " NR ": " c " != " s; bad = 1 }
		rows++
		next
	}
	$1 != "-" && $1 != $2 { print "end " NR ": " $2 " != " $1; bad = 1 }
	END { if ((getline x <psv) > 0) { print "rows left"; bad = 1 }
	    exit bad }' | head -5 >bad.rows
[ -s bad.rows ] && { echo "$name: rows and validate's positions"; cat bad.rows; failed=1; }

# --- -j1, -j2, -j3: the same bytes, the same keys ---

for f in hcpe3 sfen; do
	for j in 1 2 3; do
		"$KIFU" export -t $f --results all --uniq -j$j -o j$j.$f \
		    --keys-out j$j.$f.keys "$TESTDATA" 2>j$j.err
	done
	cmp -s j1.$f j2.$f && cmp -s j1.$f j3.$f &&
	    cmp -s j1.$f.keys j2.$f.keys && cmp -s j1.$f.keys j3.$f.keys ||
	    { echo "$name: -j changes the $f rows"; failed=1; }
	sed -n 1p j1.err >want; sed -n 1p j3.err >got
	cmp -s want got || { echo "$name: -j changes the summary"; failed=1; }
done
cmp -s j1.sfen s.txt && { echo "$name: --uniq dropped nothing"; failed=1; }

# --- the filters, alone and combined ---

# A corpus to select from: the golden records, a Piyo Shogi game with
# ratings, a file of three records (two illegal), a record whose claim
# the rules contradict, one that cannot be read, and a copy.
mkdir F
cp "$g"/records/*.csa "$g"/records/*.kifu "$g"/records/*.usi F/
cp "$TESTDATA/kif/shogi-kifu-converter/data/tests/kif/piyo-shogi_KY.kif" F/piyo.kif
cp "$TESTDATA/csa/kifu/multi.csa" F/multi.csa
cp "$TESTDATA/csa/mog-core-scala/csa/game/002.csa" F/mismatch.csa
printf 'PI\n+7776FU\n-3334XX\n' >F/garbage.csa
cp F/r1-floodgate-2021.csa F/z-dup.csa

# skips TITLE OPTION...: the records export -v skips (FILE REASON, each
# file as its record number when it is not the first) and the counts.
skips() {
	t=$1; shift
	"$KIFU" export -t hcpe -v -o /dev/null "$@" F >/dev/null 2>err ||
	    { echo "$name: $t: exit $?"; cat err; failed=1; }
	sed -n 's|^F/\([^:]*\): record \([0-9]*\): skipped (\([a-z-]*\)).*|\1#\2 \3|p' err |
	    sed 's/#1 / /' >got.skips
	sed -n 's/^kifu: export hcpe: \([0-9]*\) records: \([0-9]*\) exported.*/\1 \2/p' err >got.counts
}
# want TITLE RECORDS EXPORTED [FILE REASON]...: after skips
want() {
	t=$1 n=$2 e=$3; shift 3
	printf '%s\n' "$@" | sed '/^$/d' >want.skips
	echo "$n $e" >want.counts
	cmp -s want.skips got.skips ||
	    { echo "$name: $t: skipped records"; diff want.skips got.skips; failed=1; }
	cmp -s want.counts got.counts ||
	    { echo "$name: $t: counts $(cat got.counts), not $n $e"; failed=1; }
}
bad='garbage.csa unreadable' ill2='multi.csa#2 illegal' ill3='multi.csa#3 illegal'

# the default: games decided on the board, any winner
skips "default"
want "default" 18 12 "$bad" "mismatch.csa results" "$ill2" "$ill3" \
    "r3-floodgate-2017-maxmoves.csa results" "r5-8mai-handicap.csa results"
expect_stderr_has "default" "kifu: export hcpe: 18 records: 12 exported, 6 skipped; 1295 rows, 49210 bytes (rules auto)"
expect_stderr_has "default" "  skipped      results 3, illegal 2, unreadable 1"
# a disputed record is exported with the rules' result, and counted
skips "--results all" --results all
want "--results all" 18 15 "$bad" "$ill2" "$ill3"
expect_stderr_has "disputed" "15 exported (1 with a disputed result), 3 skipped"
skips "--results" --results max-moves,abort,impasse
want "--results" 18 3 "$bad" "h1-nimai-handicap.csa results" \
    "h1-nimai-handicap.kifu results" "h2-hands-drops-promotions.csa results" \
    "h2-hands-drops-promotions.usi results" "h3-fu3hei-perpetual.csa results" \
    "multi.csa results" "$ill2" "$ill3" "piyo.kif results" \
    "r1-floodgate-2021.csa results" "r2-floodgate-2016.csa results" \
    "r4-wcsc32.csa results" "r6-aobazero-kachi.csa results" "z-dup.csa results"
skips "--min-moves" --min-moves 100 --results all
want "--min-moves" 18 8 "$bad" "h1-nimai-handicap.csa min-moves" \
    "h1-nimai-handicap.kifu min-moves" "h2-hands-drops-promotions.csa min-moves" \
    "h2-hands-drops-promotions.usi min-moves" "h3-fu3hei-perpetual.csa min-moves" \
    "multi.csa min-moves" "$ill2" "$ill3" "r5-8mai-handicap.csa min-moves"
skips "--min-moves 104" --min-moves 104 --results checkmate
want "--min-moves 104" 18 1 "$bad" "h1-nimai-handicap.csa min-moves" \
    "h1-nimai-handicap.kifu min-moves" "h2-hands-drops-promotions.csa min-moves" \
    "h2-hands-drops-promotions.usi min-moves" "h3-fu3hei-perpetual.csa min-moves" \
    "mismatch.csa results" "multi.csa min-moves" "$ill2" "$ill3" \
    "r1-floodgate-2021.csa results" "r2-floodgate-2016.csa results" \
    "r3-floodgate-2017-maxmoves.csa results" "r4-wcsc32.csa results" \
    "r5-8mai-handicap.csa min-moves" "r6-aobazero-kachi.csa results" \
    "z-dup.csa results"
skips "--winner white" --winner white --results all
want "--winner white" 18 4 "$bad" "h1-nimai-handicap.csa winner" \
    "h1-nimai-handicap.kifu winner" "h2-hands-drops-promotions.csa winner" \
    "h2-hands-drops-promotions.usi winner" "mismatch.csa winner" "$ill2" \
    "$ill3" "piyo.kif winner" "r1-floodgate-2021.csa winner" \
    "r3-floodgate-2017-maxmoves.csa winner" "r5-8mai-handicap.csa winner" \
    "r6-aobazero-kachi.csa winner" "z-dup.csa winner"
skips "--winner black" --winner black
want "--winner black" 18 8 "$bad" "h3-fu3hei-perpetual.csa winner" \
    "mismatch.csa results" "multi.csa winner" "$ill2" "$ill3" \
    "r2-floodgate-2016.csa winner" "r3-floodgate-2017-maxmoves.csa results" \
    "r4-wcsc32.csa winner" "r5-8mai-handicap.csa results"
# Floodgate's 'black_rate/'white_rate and Piyo Shogi's (R990): r1 has
# 3382 and 3613, r2 3345 and 3453, r3 3526 and 3500, piyo 990 and 1050;
# a record without both is dropped
skips "--min-rating 3400" --min-rating 3400 --results all
want "--min-rating 3400" 18 1 "$bad" "h1-nimai-handicap.csa no-rating" \
    "h1-nimai-handicap.kifu no-rating" "h2-hands-drops-promotions.csa no-rating" \
    "h2-hands-drops-promotions.usi no-rating" "h3-fu3hei-perpetual.csa no-rating" \
    "mismatch.csa no-rating" "multi.csa no-rating" "$ill2" "$ill3" \
    "piyo.kif min-rating" "r1-floodgate-2021.csa min-rating" \
    "r2-floodgate-2016.csa min-rating" "r4-wcsc32.csa no-rating" \
    "r5-8mai-handicap.csa no-rating" "r6-aobazero-kachi.csa no-rating" \
    "z-dup.csa min-rating"
skips "--min-rating 990" --min-rating 990 --results all
grep -c 'min-rating' got.skips >n
[ "$(cat n)" -eq 0 ] && [ "$(cat got.counts)" = "18 5" ] ||
    { echo "$name: --min-rating 990: $(cat got.counts)"; cat got.skips; failed=1; }
# --uniq: the copy, and the KIF and USI twins (the same start and moves)
skips "--uniq" --uniq
want "--uniq" 18 9 "$bad" "h1-nimai-handicap.kifu uniq" \
    "h2-hands-drops-promotions.usi uniq" "mismatch.csa results" "$ill2" \
    "$ill3" "r3-floodgate-2017-maxmoves.csa results" \
    "r5-8mai-handicap.csa results" "z-dup.csa uniq"
# combined: each record counted by the first filter that drops it
skips "combined" --uniq --winner black --min-moves 30 --min-rating 900 \
    --results resign,checkmate
want "combined" 18 2 "$bad" "h1-nimai-handicap.csa no-rating" \
    "h1-nimai-handicap.kifu no-rating" "h2-hands-drops-promotions.csa no-rating" \
    "h2-hands-drops-promotions.usi no-rating" "h3-fu3hei-perpetual.csa min-moves" \
    "mismatch.csa no-rating" "multi.csa min-moves" "$ill2" "$ill3" \
    "r2-floodgate-2016.csa winner" "r3-floodgate-2017-maxmoves.csa results" \
    "r4-wcsc32.csa no-rating" "r5-8mai-handicap.csa min-moves" \
    "r6-aobazero-kachi.csa no-rating" "z-dup.csa uniq"
# --require-eval: a side with no evaluation on its moves
skips "--require-eval" --require-eval --results all
grep -q '^r1-floodgate-2021.csa' got.skips &&
    { echo "$name: --require-eval dropped r1"; failed=1; }
for f in h3-fu3hei-perpetual.csa r5-8mai-handicap.csa \
    h2-hands-drops-promotions.usi piyo.kif; do
	grep -qx "$f no-eval" got.skips ||
	    { echo "$name: --require-eval kept $f"; cat got.skips; failed=1; }
done

# --- the rows' options ---

r1=$g/records/r1-floodgate-2021.csa
# --skip-plies: the rows from the 11th position on; hcpe3 keeps the
# moves, without candidates
expect_success "--skip-plies" "$KIFU" export -t psv --skip-plies 10 -o skip.psv "$r1"
tail -c +401 "$g/r1-floodgate-2021.psv" >want.psv
cmp -s want.psv skip.psv || { echo "$name: --skip-plies psv"; failed=1; }
expect_success "--skip-plies hcpe" "$KIFU" export -t hcpe --skip-plies 10 -o skip.hcpe "$r1"
tail -c +381 "$g/r1-floodgate-2021.hcpe" >want.hcpe
cmp -s want.hcpe skip.hcpe || { echo "$name: --skip-plies hcpe"; failed=1; }
expect_success "--skip-plies hcpe3" "$KIFU" export -t hcpe3 --skip-plies 10 -o skip.hcpe3 "$r1"
"$KIFU" dump skip.hcpe3 >got
"$KIFU" dump "$g/r1-floodgate-2021.hcpe3" | cut -f3-6 >full
cut -f3-6 got | cmp -s - full || { echo "$name: --skip-plies hcpe3 moves"; failed=1; }
[ "$(cut -f7 got | head -n 10 | sort -u)" = "-" ] &&
    [ "$(cut -f7 got | tail -n +11 | grep -c -- '^-$')" -eq 0 ] ||
    { echo "$name: --skip-plies hcpe3 candidates"; failed=1; }
expect_stderr_has "--skip-plies hcpe3" "1 exported, 0 skipped; 115 rows"
expect_success "--skip-plies past the end" "$KIFU" export -t hcpe -v --skip-plies 125 "$r1"
expect_stderr_has "--skip-plies past the end" "skipped (no-rows)"
# --stop-at-eval N: the first row whose |eval| >= N is the last; the
# golden evals (clamped to 32767) say where, for N up to 32767
for n in $names; do
	src=$g/records/$n
	[ -f "$src" ] || src=$src.csa
	for stop in 300 32767; do
		w=$(sed -E 's/.*"eval": (-?[0-9]+),.*/\1/' "$g/$n.rows.jsonl" |
		    awk -v s=$stop '{ n++; if ($1 >= s || -$1 >= s) { print n; done = 1; exit } }
		    END { if (!done) print n }')
		"$KIFU" export -t hcpe --results all --stop-at-eval $stop \
		    -o stop.hcpe --force "$src" 2>/dev/null
		head -c $((38 * w)) "$g/$n.hcpe" | cmp -s - stop.hcpe ||
		    { echo "$name: $n --stop-at-eval $stop: not the first $w rows"; failed=1; }
	done
done
# 100000, dlshogi's mate stop, is more than the field holds: the score as
# written counts (r6's first 100000 is on ply 387)
expect_success "--stop-at-eval 100000" "$KIFU" export -t sfen --stop-at-eval 100000 \
    "$g/records/r6-aobazero-kachi.csa"
w=$(grep -n "^'\*\* -*100000" "$g/records/r6-aobazero-kachi.csa" | head -n 1 | cut -d: -f1)
wmoves=$(head -n "$w" "$g/records/r6-aobazero-kachi.csa" | grep -c '^[+-][0-9]')
[ "$(wc -l <out)" -eq "$wmoves" ] ||
    { echo "$name: --stop-at-eval 100000: $(wc -l <out) rows, not $wmoves"; failed=1; }
# --ply: hcp holds the position after N plies, or the record is short
for ply in 0 1 60 124 125; do
	expect_success "--ply $ply" "$KIFU" export -t hcp --ply $ply -o p$ply.hcp "$r1"
	got=$("$KIFU" dump p$ply.hcp | cut -f3 | sed 's/ 1$//')
	if [ $ply -lt 125 ]; then
		w=$(sed -n "$((ply + 1))p" "$g/r1-floodgate-2021.rows.jsonl" |
		    sed -E 's/.*"sfen": "([^"]*) [0-9]+".*/\1/')
	else
		w=$("$KIFU" validate --json "$r1" | sed -E 's/.*"final_sfen": "([^"]*) [0-9]+".*/\1/')
	fi
	[ "$got" = "$w" ] || { echo "$name: --ply $ply: $got"; failed=1; }
done
expect_success "--ply past the end" "$KIFU" export -t hcp --ply 126 -v -o p126.hcp "$r1"
expect_stderr_has "--ply past the end" "skipped (short)"
[ -f p126.hcp ] && [ ! -s p126.hcp ] || { echo "$name: --ply past the end wrote"; failed=1; }
# what the codes cannot hold: each reason counted (testdata/ has
# minishogi, tsume problems, records without moves)
"$KIFU" export -t hcpe --results all -o /dev/null "$TESTDATA" 2>err
for why in variant no-king no-rows illegal unreadable; do
	grep -q "^  skipped .* $why [0-9]" err ||
	    { echo "$name: testdata: no '$why' skips"; cat err; failed=1; }
done
# psv: a move number gamePly cannot hold
echo 'position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 65535 moves 7g7f 3c3d resign' >late.usi
expect_success "game-ply" "$KIFU" export -t psv -v -o late.psv late.usi
expect_stderr_has "game-ply" "skipped (game-ply)"
expect_success "game-ply hcpe" "$KIFU" export -t hcpe -o late.hcpe late.usi
[ "$(wc -c <late.hcpe)" -eq 76 ] || { echo "$name: hcpe of a late start"; failed=1; }

# --- --uniq across shards: --keys-out, then --merge ---

find "$TESTDATA/csa" "$TESTDATA/kif" "$TESTDATA/usi" "$TESTDATA/training" \
    -type f | sort >paths
"$KIFU" export -t psv --results all --uniq --stdin -o one.psv <paths 2>one.err
one=$(sed -n 's/^kifu: export psv: [0-9]* records: \([0-9]*\) exported.*rows, \([0-9]*\) bytes.*/\1 \2/p' one.err)
[ -n "$one" ] && [ -s one.psv ] || { echo "$name: one run"; cat one.err; failed=1; }
# three shards by hand: --uniq in each or not, the merge is the same
n=$(wc -l <paths)
head -n $((n / 3)) paths >part1
sed -n "$((n / 3 + 1)),$((2 * n / 3))p" paths >part2
tail -n +$((2 * n / 3 + 1)) paths >part3
for u in --uniq --no-progress; do
	for i in 1 2 3; do
		"$KIFU" export -t psv --results all $u --stdin -o s$i.psv \
		    --keys-out s$i.keys --force <part$i 2>/dev/null
	done
	expect_success "merge ($u)" "$KIFU" export --merge -o merged.psv --force \
	    s1.psv s1.keys s2.psv s2.keys s3.psv s3.keys
	cmp -s one.psv merged.psv || { echo "$name: merged shards ($u) differ from one run"; failed=1; }
	got=$(sed -n 's/^kifu: merge psv: 3 shards, [0-9]* records: \([0-9]*\) exported.*rows, \([0-9]*\) bytes.*/\1 \2/p' err)
	[ "$got" = "$one" ] || { echo "$name: merge summary ($u): $got, not $one"; cat err; failed=1; }
done
# a merge's keys merge again: (s1 + s2) + s3
expect_success "merge of a merge" "$KIFU" export --merge -o m12.psv --keys-out m12.keys \
    s1.psv s1.keys s2.psv s2.keys
expect_success "merge of a merge" "$KIFU" export --merge -o m123.psv m12.psv m12.keys s3.psv s3.keys
cmp -s one.psv m123.psv || { echo "$name: a merge of merges differs"; failed=1; }
# GNU parallel, as doc/training.md's recipe has it
if command -v parallel >/dev/null 2>&1; then
	parallel --pipe-part -a paths --block -1 -j 3 \
	    "'$KIFU' export -t psv --results all --uniq --stdin -j1 -o p{#}.psv --keys-out p{#}.keys" \
	    2>/dev/null
	set --
	for i in $(ls p*.keys | sed 's/^p\([0-9]*\)\.keys$/\1/' | sort -n); do
		set -- "$@" p$i.psv p$i.keys
	done
	[ $# -ge 4 ] || { echo "$name: parallel made $(($# / 2)) shards"; failed=1; }
	expect_success "merge (parallel)" "$KIFU" export --merge -o par.psv "$@"
	cmp -s one.psv par.psv || { echo "$name: parallel shards differ from one run"; failed=1; }
fi
# merging what does not fit: nothing written, exit 2
cp s1.keys cut.keys
printf '0123456789abcdef 1 40\n' >>cut.keys
expect_exit 2 "keys of other rows" "$KIFU" export --merge -o bad.psv s1.psv cut.keys
expect_stderr_has "keys of other rows" "not the keys of these rows"
head -c 100 s1.keys >cut.keys
expect_exit 2 "a cut keys file" "$KIFU" export --merge -o bad.psv s1.psv cut.keys
expect_stderr_has "a cut keys file" "cut.keys:"
expect_exit 2 "rows for keys" "$KIFU" export --merge -o bad.psv s1.keys s1.psv
expect_stderr_has "rows for keys" "not a keys file"
"$KIFU" export -t hcpe --results all -o x.hcpe --keys-out x.keys "$r1" 2>/dev/null
expect_exit 2 "two formats" "$KIFU" export --merge -o bad.psv s1.psv s1.keys x.hcpe x.keys
expect_stderr_has "two formats" "shards of one format only"
expect_exit 2 "-t disagrees" "$KIFU" export --merge -t hcpe -o bad.psv s1.psv s1.keys
expect_exit 2 "odd arguments" "$KIFU" export --merge -o bad.psv s1.psv
expect_exit 2 "missing shard" "$KIFU" export --merge -o bad.psv s1.psv nowhere.keys
expect_exit 2 "walk options" "$KIFU" export --merge --uniq -o bad.psv s1.psv s1.keys
[ -e bad.psv ] && { echo "$name: a failed merge left bad.psv"; failed=1; }
ls | grep -q 'kifu-tmp' && { echo "$name: a temporary file left"; failed=1; }

# --- output: atomic, never over a file without --force ---

echo keep >kept.hcpe
expect_exit 2 "existing -o" "$KIFU" export -t hcpe -o kept.hcpe "$r1"
expect_stderr_has "existing -o" "File exists (use --force to replace it)"
[ "$(cat kept.hcpe)" = keep ] || { echo "$name: an existing file was replaced"; failed=1; }
expect_exit 2 "existing --keys-out" "$KIFU" export -t hcpe -o new.hcpe --keys-out kept.hcpe "$r1"
[ -e new.hcpe ] && { echo "$name: rows written though the keys could not be"; failed=1; }
expect_success "--force" "$KIFU" export -t hcpe -o kept.hcpe --force "$r1"
cmp -s kept.hcpe "$g/r1-floodgate-2021.hcpe" || { echo "$name: --force"; failed=1; }
# a write that fails half-way (the file size limit) leaves nothing
(ulimit -f 64; trap '' XFSZ; exec "$KIFU" export -t psv --results all -o big.psv \
    --keys-out big.keys "$TESTDATA") >out 2>err
[ $? -eq 2 ] || { echo "$name: a failed write: exit not 2"; failed=1; }
expect_stderr_has "a failed write" "nothing written"
[ -e big.psv ] || [ -e big.keys ] && { echo "$name: a failed write left a file"; failed=1; }
ls | grep -q 'kifu-tmp' && { echo "$name: a failed write left its temporary file"; failed=1; }
# stopped by a signal: nothing left either
mkfifo feed
"$KIFU" export -t hcpe --stdin -o sig.hcpe <feed 2>/dev/null &
pid=$!
exec 3>feed
echo "$r1" >&3
sleep 1
ls | grep -q 'sig.hcpe.kifu-tmp' || { echo "$name: no temporary file while running"; failed=1; }
{ kill -TERM $pid; wait $pid; } 2>/dev/null
exec 3>&-
[ -e sig.hcpe ] && { echo "$name: SIGTERM left sig.hcpe"; failed=1; }
ls | grep -q 'kifu-tmp' && { echo "$name: SIGTERM left a temporary file"; failed=1; }
# standard output: a full disk, a terminal, a device
"$KIFU" export -t hcpe "$r1" >/dev/full 2>err
[ $? -eq 2 ] || { echo "$name: /dev/full: exit not 2"; failed=1; }
grep -q "cannot write '<stdout>'" err || { echo "$name: /dev/full"; cat err; failed=1; }
if command -v script >/dev/null 2>&1; then
	script -qec "'$KIFU' export -t hcpe '$r1'; echo rc=\$?" /dev/null >tty.out 2>&1
	grep -q "refusing to write binary rows to a terminal" tty.out &&
	    grep -q 'rc=2' tty.out || { echo "$name: a terminal"; cat tty.out; failed=1; }
fi
expect_success "/dev/null" "$KIFU" export -t hcpe --force -o /dev/null "$r1"
[ -c /dev/null ] || { echo "$name: /dev/null is no longer a device"; failed=1; }
expect_success "-o -" "$KIFU" export -t hcpe -o - "$r1"
cmp -s out "$g/r1-floodgate-2021.hcpe" || { echo "$name: -o -"; failed=1; }
expect_exit 2 "a directory that is not there" "$KIFU" export -t hcpe -o nodir/x.hcpe "$r1"

# --- the summary as JSON ---

expect_success "--summary-json" "$KIFU" export -t hcpe --summary-json -o s.hcpe -j2 F
grep -q '^{"mode": "export", "format": "hcpe", "rules": "auto", "records": 18, "exported": 12, "disputed": 0, "skipped": 6, "skipped_by_reason": {"results": 3, "illegal": 2, "unreadable": 1}, "files_skipped": 0, "rows": 1295, "bytes": 49210, "seconds": [0-9.]*, "rows_per_second": [0-9]*}$' out ||
    { echo "$name: --summary-json"; cat out; failed=1; }
[ -s err ] && { echo "$name: --summary-json printed on stderr"; cat err; failed=1; }

# --- usage ---

expect_success "--help" "$KIFU" export --help
grep -q '^usage: kifu export -t <format>' out || { echo "$name: --help"; failed=1; }
expect_success "help export" "$KIFU" help export
for args in "" "-t hcpe" "-t xyz $r1" "$r1" "-t psv --ply 3 $r1" \
    "-t hcp --skip-plies 3 $r1" "-t hcpe --results resign,nothing $r1" \
    "-t hcpe --winner draw $r1" "-t hcpe --min-rating high $r1" \
    "-t hcpe --stop-at-eval 0 $r1" "-t hcpe --min-moves -1 $r1" \
    "-t hcpe --summary-json $r1" "-t hcpe -o a --keys-out a $r1" \
    "-t hcpe --keys-out - -o k.hcpe $r1" "-t hcpe --bogus $r1" "-t hcpe -j 0 $r1"; do
	# shellcheck disable=SC2086
	expect_exit 2 "usage: $args" "$KIFU" export $args
done

# --- hostile inputs: the fuzzers' findings and damaged files ---

mkdir H
cp -r "$TESTDATA/regress" H/
head -c 3000 /dev/urandom >H/noise.csa
printf '\000\001\002' >H/nul.kif
: >H/empty.usi
ln -s . H/loop
for f in hcpe hcpe3 psv hcp sfen; do
	"$KIFU" export -t $f --results all --all-files -o h.$f --force H 2>err
	rc=$?
	[ $rc -eq 0 ] || { echo "$name: hostile $f: exit $rc"; tail -3 err; failed=1; }
	grep -q "^kifu: export $f: " err || { echo "$name: hostile $f: no summary"; failed=1; }
done

finish
