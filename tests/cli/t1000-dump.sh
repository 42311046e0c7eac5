#!/bin/sh
# kifu dump (issue 14): every golden file of testdata/training/ reads back
# as its .rows.jsonl (made by cshogi) says, as text and as JSON Lines;
# then damaged and hostile files, each reported with its row and byte,
# the next row going on.
. "$(dirname "$0")/lib.sh"
g=$TESTDATA/training

# The golden rows as tab-separated fields: ply, SFEN without its move
# number, the number, USI move, eval, gamePly, winner, PSV result.
fields() {
	sed -E 's/^\{"ply": ([0-9]+), "sfen": "([^"]*) ([0-9]+)", "usi": "([^"]*)", "move16": [0-9]+, "psv_move": [0-9]+, "eval": (-?[0-9]+), "has_eval": [a-z]+, "stm": "[bw]", "game_ply": ([0-9]+), "winner": ([0-9]), "psv_result": (-?[0-9]+),.*$/\1	\2	\3	\4	\5	\6	\7	\8/' \
	    "$g/$1.rows.jsonl"
}

# HCPE3's result byte as dump words it.
words() {
	awk -v r="$1" 'BEGIN {
		split("draw black white ?", who, " ")
		w = who[r % 4 + 1]
		if (int(r / 4) % 2) w = w "+sennichite"
		if (int(r / 8) % 2) w = w "+declaration"
		if (int(r / 16) % 2) w = w "+max-moves"
		print w
	}'
}

names=$(sed -E 's/^\{"name": "([^"]*)".*/\1/' "$g/INDEX.jsonl")
[ "$(echo "$names" | wc -l)" -eq 11 ] || { echo "$name: INDEX.jsonl"; failed=1; }
for n in $names; do
	fields "$n" >f
	[ "$(wc -l <f)" -eq "$(wc -l <"$g/$n.rows.jsonl")" ] &&
	    ! grep -q '^{' f || { echo "$name: $n: rows.jsonl not parsed"; failed=1; }
	res=$(sed -n "s/^{\"name\": \"$n\", .*\"hcpe3_result\": \([0-9]*\),.*/\1/p" \
	    "$g/INDEX.jsonl")
	w=$(words "$res")
	# hcpe keeps no move number: dump says 1
	awk -F'	' -v OFS='	' '{ w = $7 == 1 ? "black" : $7 == 2 ? "white" : "draw"
	    print $1, 38 * $1, $2 " 1", $4, $5, w }' f >expect
	expect_success "$n.hcpe" "$KIFU" dump "$g/$n.hcpe"
	cmp -s expect out || { echo "$name: $n.hcpe"; diff expect out | head -5; failed=1; }
	# psv: the move number is gamePly
	awk -F'	' -v OFS='	' '{ r = $8 > 0 ? "win" : $8 < 0 ? "loss" : "draw"
	    print $1, 40 * $1, $2 " " $6, $4, $5, r }' f >expect
	expect_success "$n.psv" "$KIFU" dump "$g/$n.psv"
	cmp -s expect out || { echo "$name: $n.psv"; diff expect out | head -5; failed=1; }
	# hcpe3: one game, replayed from its start; one candidate a move
	awk -F'	' -v OFS='	' -v w="$w" '{
	    print $1, 36 + 10 * $1, $2 " " ($1 + 1), $4, $5, w, $4 ":1" }' f >expect
	expect_success "$n.hcpe3" "$KIFU" dump "$g/$n.hcpe3"
	cmp -s expect out || { echo "$name: $n.hcpe3"; diff expect out | head -5; failed=1; }
	# hcp: the start
	awk -F'	' -v OFS='	' 'NR == 1 { print 0, 0, $2 " 1", "-", "-", "-" }' f >expect
	expect_success "$n.hcp" "$KIFU" dump "$g/$n.hcp"
	cmp -s expect out || { echo "$name: $n.hcp"; diff expect out | head -5; failed=1; }
	# JSON Lines, psv's with its ply
	awk -F'	' -v f="$g/$n.psv" '{ printf "{\"file\": \"%s\", \"row\": %d, \"offset\": %d, \"sfen\": \"%s %d\", \"move\": \"%s\", \"eval\": %d, \"result\": %d, \"ply\": %d}\n", f, $1, 40 * $1, $2, $6, $4, $5, $8, $6 }' f >expect
	expect_success "$n.psv --json" "$KIFU" dump --json "$g/$n.psv"
	cmp -s expect out || { echo "$name: $n.psv --json"; diff expect out | head -5; failed=1; }
	awk -F'	' -v f="$g/$n.hcpe3" -v r="$res" '{ printf "{\"file\": \"%s\", \"row\": %d, \"offset\": %d, \"sfen\": \"%s %d\", \"move\": \"%s\", \"eval\": %d, \"result\": %d, \"game\": 0, \"candidates\": [[\"%s\", 1]]}\n", f, $1, 36 + 10 * $1, $2, $1 + 1, $4, $5, r, $4 }' f >expect
	expect_success "$n.hcpe3 --json" "$KIFU" dump --json "$g/$n.hcpe3"
	cmp -s expect out || { echo "$name: $n.hcpe3 --json"; diff expect out | head -5; failed=1; }
done

# Several files: each text line starts with its file; --from wins over
# the extension, and reads standard input.
cp "$g/r5-8mai-handicap.hcpe" a.hcpe
cp "$g/h3-fu3hei-perpetual.psv" b.bin
expect_success "two files" "$KIFU" dump a.hcpe b.bin
[ "$(grep -c '^a\.hcpe	' out)" -eq 25 ] && [ "$(grep -c '^b\.bin	' out)" -eq 25 ] ||
	{ echo "$name: two files"; head -3 out; failed=1; }
cp a.hcpe a.data
expect_success "--from" "$KIFU" dump --from hcpe a.data
"$KIFU" dump a.hcpe >want
cmp -s want out || { echo "$name: --from"; failed=1; }
"$KIFU" dump --from hcpe - <a.hcpe >out 2>err
cmp -s want out || { echo "$name: stdin"; failed=1; }
: >empty.hcpe
expect_success "empty file" "$KIFU" dump empty.hcpe
[ -s out ] && { echo "$name: empty file printed"; failed=1; }

# Usage and trouble: exit 2.
expect_success "--help" "$KIFU" dump --help
grep -q '^usage: kifu dump' out || { echo "$name: --help"; failed=1; }
expect_exit 2 "no file" "$KIFU" dump
expect_exit 2 "unknown extension" "$KIFU" dump a.data
expect_stderr_has "unknown extension" "cannot tell the format from the name; use --from"
expect_exit 2 "sfen is not read back" "$KIFU" dump --from sfen a.hcpe
expect_exit 2 "missing file" "$KIFU" dump nowhere.hcpe
expect_exit 2 "a directory" "$KIFU" dump --from hcpe .
expect_exit 2 "stdin without --from" "$KIFU" dump - <a.hcpe
# trouble with one file, the others still dumped
expect_exit 2 "missing among good" "$KIFU" dump a.hcpe nowhere.hcpe b.bin
[ "$(wc -l <out)" -eq 50 ] || { echo "$name: missing among good"; failed=1; }

# --- damaged files: exit 1, each bad row named, the next row goes on ---

# FILE BYTE OCTAL...: writes the bytes at BYTE.
poke() {
	f=$1 at=$2; shift 2
	printf "$@" | dd of="$f" bs=1 seek="$at" conv=notrunc 2>/dev/null
}

# not a whole number of rows
head -c 100 "$g/r1-floodgate-2021.hcpe" >cut.hcpe
expect_exit 1 "cut hcpe" "$KIFU" dump cut.hcpe
[ "$(wc -l <out)" -eq 2 ] || { echo "$name: cut hcpe rows"; failed=1; }
expect_stderr_has "cut hcpe" "cut.hcpe:row 2 (byte 76): error: the file ends 24 bytes into a 38-byte row (its size is no whole number of rows) [truncated]"
# a king field of 81 in row 1, an illegal move in row 3, a result byte of 3
cp "$g/r1-floodgate-2021.hcpe" bad.hcpe
poke bad.hcpe 38 '\243'
poke bad.hcpe $((2 * 38 + 34)) '\072\036'
poke bad.hcpe $((5 * 38 + 36)) '\003'
expect_exit 1 "bad rows" "$KIFU" dump bad.hcpe
[ "$(wc -l <out)" -eq 122 ] || { echo "$name: bad rows: $(wc -l <out) rows"; failed=1; }
expect_stderr_has "no king" "bad.hcpe:row 1 (byte 38): error: HCP: Black's king missing (square 81)"
expect_stderr_has "no king" "[no-king]"
expect_stderr_has "illegal move" "bad.hcpe:row 2 (byte 76): error: move 0x1e3a (7g7e) is not legal here: the piece cannot move that way [piece-movement]"
expect_stderr_has "bad result" "bad.hcpe:row 5 (byte 190): error: gameResult 3 "
# PackedSfen with an impossible position: row 14 of h3 has White in
# check; with its side bit flipped, Black is to move.
cp "$g/h3-fu3hei-perpetual.psv" bad.psv
b=$(od -An -tu1 -j 560 -N1 bad.psv | tr -d ' ')
poke bad.psv 560 "\\$(printf %o $((b ^ 1)))"
expect_exit 1 "impossible psv" "$KIFU" dump bad.psv
[ "$(wc -l <out)" -eq 24 ] || { echo "$name: impossible psv rows"; failed=1; }
expect_stderr_has "impossible psv" "bad.psv:row 14 (byte 560): error: PackedSfen: impossible position: white is in check but it is black to move [side-not-to-move-in-check]"
poke bad.psv $((38 + 40)) '\005'
expect_exit 1 "psv result" "$KIFU" dump bad.psv
expect_stderr_has "psv result" "bad.psv:row 1 (byte 40): error: game_result 5 is none of 1"

# hcpe3: a bad move passes over the rest of its game, not the next game
cp "$g/h3-fu3hei-perpetual.hcpe3" two.hcpe3
cat "$g/h3-fu3hei-perpetual.hcpe3" >>two.hcpe3
poke two.hcpe3 $((36 + 10 * 4)) '\000\000'	# game 0, move 4: no move
expect_exit 1 "hcpe3 bad move" "$KIFU" dump two.hcpe3
[ "$(wc -l <out)" -eq 29 ] || { echo "$name: hcpe3 bad move: $(wc -l <out) rows"; failed=1; }
expect_stderr_has "hcpe3 bad move" "two.hcpe3:row 4 (byte 76): error: move 0 is no move [no-move]"
[ "$(awk -F'	' '$1 == 25 { print $2 }' out)" -eq $((286 + 36)) ] ||
	{ echo "$name: hcpe3 bad move: the second game"; failed=1; }
# a bad start position: the whole game is passed over
cp "$g/h3-fu3hei-perpetual.hcpe3" two.hcpe3
cat "$g/h3-fu3hei-perpetual.hcpe3" >>two.hcpe3
poke two.hcpe3 0 '\377'
expect_exit 1 "hcpe3 bad header" "$KIFU" dump two.hcpe3
expect_stderr_has "hcpe3 bad header" "two.hcpe3:game 0 (byte 0): error: HCP: "
[ "$(wc -l <out)" -eq 25 ] && [ "$(head -n 1 out | cut -f 1)" -eq 25 ] ||
	{ echo "$name: hcpe3 bad header"; failed=1; }
# a huge move count in a short file stops the file, at once
cp "$g/h3-fu3hei-perpetual.hcpe3" huge.hcpe3
poke huge.hcpe3 32 '\377\377'
expect_exit 1 "hcpe3 65535 moves" "$KIFU" dump huge.hcpe3
expect_stderr_has "hcpe3 65535 moves" "huge.hcpe3:game 0 (byte 0): error: game 0 has 65535 moves, and the file ends in move 26 [truncated]"
[ -s out ] && { echo "$name: hcpe3 65535 moves printed rows"; failed=1; }
cp "$g/h3-fu3hei-perpetual.hcpe3" huge.hcpe3
poke huge.hcpe3 $((36 + 4)) '\377\377'	# move 0: 65535 candidates
expect_exit 1 "hcpe3 65535 candidates" "$KIFU" dump huge.hcpe3
expect_stderr_has "hcpe3 65535 candidates" "[truncated]"
# 600 candidates in a file that has the bytes: impossible, the game goes on
cp "$g/h3-fu3hei-perpetual.hcpe3" many.hcpe3
poke many.hcpe3 $((36 + 4)) '\130\002'	# 600
dd if=/dev/zero bs=4 count=599 2>/dev/null >pad
{ head -c 46 many.hcpe3; cat pad; tail -c +47 many.hcpe3; } >many2.hcpe3
expect_exit 1 "hcpe3 600 candidates" "$KIFU" dump many2.hcpe3
expect_stderr_has "hcpe3 600 candidates" "many2.hcpe3:row 0 (byte 36): error: 600 candidate moves; no position has more than 593 legal moves [bad-count]"
[ "$(wc -l <out)" -eq 24 ] || { echo "$name: hcpe3 600 candidates: $(wc -l <out) rows"; failed=1; }

# every prefix of an hcpe3 file: no row, and one error each, at its game
mkdir p
size=$(wc -c <"$g/h3-fu3hei-perpetual.hcpe3")
k=1
while [ "$k" -lt "$size" ]; do
	head -c "$k" "$g/h3-fu3hei-perpetual.hcpe3" >"p/$k.hcpe3"
	k=$((k + 1))
done
expect_exit 1 "every prefix" "$KIFU" dump p/*.hcpe3
[ -s out ] && { echo "$name: every prefix: rows printed"; failed=1; }
[ "$(grep -c '^p/[0-9]*\.hcpe3:game 0 (byte 0): error: .* \[truncated\]$' err)" \
    -eq $((size - 1)) ] && [ "$(wc -l <err)" -eq $((size - 1)) ] ||
	{ echo "$name: every prefix: $(wc -l <err) errors"; head -3 err; failed=1; }

# pseudo-random bytes and a text file, as every format: no crash, exit 1
LC_ALL=C awk 'BEGIN { srand(14); for (i = 0; i < 40000; i++)
    printf "%c", int(rand() * 256) }' >noise
for f in hcpe hcpe3 psv hcp; do
	"$KIFU" dump --from $f noise >out 2>err
	rc=$?
	[ "$rc" -eq 1 ] || { echo "$name: noise as $f: exit $rc"; tail -2 err; failed=1; }
	grep -v '^noise:\(row [0-9]*\|game [0-9]*\) (byte [0-9]*): error: .* \[[a-z-]*\]$' err |
	    head -3 >odd
	[ -s odd ] && { echo "$name: noise as $f: odd message"; cat odd; failed=1; }
	"$KIFU" dump --json --from $f "$g/records/r1-floodgate-2021.csa" >out 2>err
	[ $? -eq 1 ] || { echo "$name: a CSA file as $f"; failed=1; }
done

finish
