#!/bin/sh
# kifu convert: the conversion matrix. Every source below is converted to
# every target format and read back, and what both formats can hold is
# compared; then the target is converted back to the source's format.
#
# The sources, chosen to cover what the formats hold between them (the
# list is data for the loop at the bottom: format, file under testdata/,
# why; "file:N" is line N of the file, "file@N" the diagram kifu writes of
# its position after N moves; the test runs in a temporary directory and
# copies them there):
. "$(dirname "$0")/lib.sh"
cat >sources <<'EOF'
csa	csa/floodgate/floodgate.csa	Floodgate: a time on every move, '* comments, headers, a 'summary
csa3	csa/shogihome/testdata/conversion/output/all-to-csa/v3/kif-sjis.csa	CSA V3.0: times in milliseconds, %TORYO
csa	csa/shogi-kifu-converter/data/tests/csa/tsumeshogi.csa	a custom start (P-lines), a comment, %TSUMI
csa	rules/kachi-28.csa	an entering-king declaration (%KACHI), no moves
kif	kif/shogi-kifu-converter/data/tests/kif/forks.kif	variations (変化) with times, #-lines
kif	kif/json-kifu-format/test/files/kif/9fu.kif	a board-diagram start (nine pawns on one file), 詰
kif	kif/json-kifu-format/test/files/kif/20081220kyoochi.kif	a handicap (香落ち): 下手/上手, a comment
kifu	kif/muzudho-kif-parser/docs/examples/bookmark[shogigui].kifu	UTF-8; bookmarks (&), comments, variations
ki2	ki2/json-kifu-format/test/files/ki2/fork.ki2	KI2 variations, several ending in terminals
ki2	ki2/ruby-json-kifu-format/spec/fixtures/ki2/comments.ki2	KI2 comments on moves and variations, a foul
ki2u	ki2/shogi-kifu-converter/data/tests/ki2/4.ki2u	UTF-8 KI2, a comment on every move
usi	usi/games.usi:3	a handicap (bishop), White moves first, break
usi	usi/games.usi:8	a custom position, an entering-king declaration (win)
sfen	usi/positions.usi:5	a bare SFEN of a middle game, White to move, no move number
jkf	jkf/shogi-kifu-converter/data/tests/kif/forks.json	JKF forks with times
jkf	jkf/tsshogi/src/tests/testdata/jkf/sample04.jkf	JKF comments and times on a long game
bod	csa/floodgate/floodgate.csa@40	a bare board diagram (written by kifu: --ply 40)
EOF
#
# What is compared, and why this way:
# - the main line: `kifu convert -t usi` of the source and of the target
#   (for sfen and bod, which hold a position, `kifu convert -t sfen`).
#   USI is the plainest statement of a line of moves, and two texts in it
#   are equal exactly when the start and the moves are;
# - the result: the `result` object of `kifu validate --json` and the
#   winner and reason of `recorded` (not its raw `terminal`, which is
#   spelled the way each format spells it);
# - variations, comments, times and terminals: counts of the "move",
#   "forks", "comments", "time" and "special" keys in `kifu convert -t
#   jkf` of both. JKF is kifu's fullest format, so the two JSON texts
#   hold what each record holds; counting keys is robust to what may
#   legitimately change on the way (a comment's KIF '*' becoming a CSA
#   "'*", header names), yet any lost or invented comment, time or
#   branch changes a count;
# - headers: the number of header lines in `kifu convert -t kifu`.
# Each fact the target format can hold must survive (a dropped variation
# takes its moves, comments and times with it and excuses those). Any
# other fact that changes must have been reported: the conversion's
# warnings must name it ("time", "comment", "variation", "terminal",
# "header", "move"). Nothing is lost silently.
#
# Then the way back: the target converted to the source's format must be
# byte for byte the source in kifu's canonical dialect (the source
# converted to its own format) whenever the conversion reported no loss
# at all, since then it held everything. Sources that already are in the
# canonical dialect are counted; for them the check is against the very
# bytes of the file.

targets="kif kifu ki2 ki2u csa csa3 usi sfen jkf bod"

ext_of() {
	case $1 in
	csa3) echo csa ;;
	*) echo "$1" ;;
	esac
}

# The options that write format $1 (csa3: CSA V3.0).
to_opts() {
	case $1 in
	csa3) echo "-t csa --csa-version 3" ;;
	*) echo "-t $1" ;;
	esac
}

# What a format holds beyond a main line of moves (api/formats.c).
holds() {
	case $1:$2 in
	kif:*|kifu:*|jkf:*) return 0 ;;
	ki2:time|ki2u:time) return 1 ;;
	ki2:*|ki2u:*) return 0 ;;
	csa:forks|csa3:forks) return 1 ;;
	csa:*|csa3:*) return 0 ;;
	# USI has result tokens for some terminals only (writers/usi.c).
	usi:move) return 0 ;;
	*) return 1 ;;
	esac
}

# The word a warning uses for a fact.
word_of() {
	case $1 in
	move) echo move ;;
	forks) echo variation ;;
	comments) echo comment ;;
	time) echo time ;;
	special) echo terminal ;;
	header) echo header ;;
	esac
}

# facts FILE: one "key count" line per fact of the record in FILE.
facts() {
	"$KIFU" convert -t jkf "$1" >facts.jkf 2>/dev/null || return 1
	for k in move forks comments time special; do
		echo "$k $(grep -c "^ *\"$k\": " facts.jkf)"
	done
	# Headers are counted in KIF, which keeps two of one kind (JKF,
	# an object, cannot); 手合割 and the diagram's hands state the start,
	# which every format holds, and are not headers of their own; a
	# kifu-rules line states the rules where a format lost what chose
	# them (t0530 tests it), and is no header of the record's.
	"$KIFU" convert -t kifu "$1" 2>/dev/null | sed '/^手数----/q' |
	    grep '：' | grep -v '^手合割：' | grep -v 'の持駒：' |
	    grep -v '^kifu-rules：' >facts.hdr
	echo "header $(grep -c . facts.hdr)"
}

# result FILE: the computed and the recorded result, without the raw
# terminal. Under one rule set for every format: which set `auto` picks
# follows the evidence each format can hold (a CSA file kifu writes
# carries T lines after its moves, as a server's log does), which is
# not what this test is about.
result() {
	"$KIFU" validate --rules jsa --json "$1" 2>/dev/null |
	    sed -n 's/.*\("result": {[^}]*}\).*"recorded": {\([^}]*\)}.*/\1 \2/p' |
	    sed 's/"terminal": "[^"]*"//; s/^, //; s/ , / /'
}

# line FILE: the main line, or for sfen and bod the position.
line() {
	f=$1
	case $kind in
	position) "$KIFU" convert -t sfen "$f" 2>/dev/null ;;
	*) "$KIFU" convert -t usi "$f" 2>/dev/null ;;
	esac
}

# same SOURCE-FORMAT TARGET A B: whether A and B are the same text, but
# for what the way through TARGET may change without losing anything:
# CSA puts the players' names before other headers, so against CSA the
# lines are compared in any order (the moves' order is checked above);
# KIF states the start in a 手合割 line that JKF then keeps among its
# headers.
same() {
	case $2 in
	csa|csa3)
		LC_ALL=C sort "$3" >same.a
		LC_ALL=C sort "$4" >same.b ;;
	*)
		cp "$3" same.a
		cp "$4" same.b ;;
	esac
	if [ "$1" = jkf ]; then
		grep -v '^    "手合割": ' same.a >same.t; mv same.t same.a
		grep -v '^    "手合割": ' same.b >same.t; mv same.t same.b
	fi
	cmp -s same.a same.b
}

# The record as the sources list names it: a file, a line of one
# (file:N), or a diagram kifu writes of one (file@ply).
make_source() {
	case $2 in
	*@*)
		"$KIFU" convert -t bod --ply "${2#*@}" -o "$3" \
		    "$TESTDATA/${2%@*}" 2>/dev/null ;;
	*:*)
		sed -n "${2#*:}p" "$TESTDATA/${2%:*}" >"$3" ;;
	*)
		cp "$TESTDATA/$2" "$3" ;;
	esac
}

nsrc=0 npairs=0 nback=0 ncanon=0
while IFS='	' read -r sfmt spath why; do
	nsrc=$((nsrc + 1))
	sext=$(ext_of "$sfmt")
	src=src$nsrc.$sext
	label="$spath ($sfmt)"
	make_source "$sfmt" "$spath" "$src" ||
		{ echo "$name: $label: cannot make the source"; failed=1; continue; }
	# shellcheck disable=SC2046
	"$KIFU" convert $(to_opts "$sfmt") -o canon$nsrc.$sext "$src" 2>/dev/null ||
		{ echo "$name: $label: not converted to its own format"; failed=1; continue; }
	cmp -s "$src" canon$nsrc.$sext && ncanon=$((ncanon + 1))
	facts "$src" >src.facts ||
		{ echo "$name: $label: no JKF"; failed=1; continue; }
	result "$src" >src.result
	for t in $targets; do
		npairs=$((npairs + 1))
		text=$(ext_of "$t")
		out=out$nsrc.$t.$text
		case $t in
		sfen|bod) kind=position ;;
		*) kind=record ;;
		esac
		# shellcheck disable=SC2046
		if ! "$KIFU" convert $(to_opts "$t") -o "$out" "$src" 2>warn; then
			echo "$name: $label -> $t: conversion failed"; cat warn
			failed=1; continue
		fi
		# The main line (or the position) both hold.
		line "$src" >a.line
		line "$out" >b.line
		if ! cmp -s a.line b.line; then
			# A terminal the target has no word for, a start's move
			# number it cannot state: differences it must report.
			for f in a.line b.line; do
				sed -e 's/ resign$//' -e 's/ win$//' -e 's/ draw$//' \
				    -e 's/ rep_draw$//' -e 's/ break$//' \
				    -e 's/ timeout$//' "$f" >"$f.t"
				sed -e 's/^\(position sfen [^ ]* [bw] [^ ]*\) [0-9][0-9]*/\1/' \
				    -e 's/^\([^ ]* [bw] [^ ]*\) [0-9][0-9]*$/\1/' \
				    "$f.t" >"$f.n"
			done
			if ! cmp -s a.line.n b.line.n; then
				echo "$name: $label -> $t: main line differs"
				diff a.line b.line | head -4; failed=1
			elif ! cmp -s a.line.t b.line.t &&
			    ! grep -q 'move number' warn; then
				echo "$name: $label -> $t: move number lost silently"
				diff a.line b.line | head -4; failed=1
			elif ! cmp -s a.line a.line.t && ! cmp -s a.line.t b.line.t &&
			    ! grep -q terminal warn; then
				echo "$name: $label -> $t: terminal lost silently"
				diff a.line b.line | head -4; failed=1
			fi
		fi
		if [ "$kind" = record ]; then
			result "$out" >b.result
			if ! cmp -s src.result b.result &&
			    ! grep -q -e terminal -e variation warn; then
				echo "$name: $label -> $t: result differs"
				diff src.result b.result; failed=1
			fi
		fi
		# Variations, comments, times, terminals, headers.
		facts "$out" >out.facts ||
			{ echo "$name: $label -> $t: no JKF of the output"; failed=1; continue; }
		# What a target cannot hold as such it may keep as a comment
		# (CSA: KIF's #-lines, headers it has no line for): more
		# comments, fewer headers, nothing lost.
		more=$(($(sed -n 's/^comments //p' out.facts) -
		    $(sed -n 's/^comments //p' src.facts)))
		while read -r k n; do
			m=$(sed -n "s/^$k //p" out.facts)
			[ "$n" = "$m" ] && continue
			[ "$k" = comments ] && [ "$m" -gt "$n" ] && continue
			[ "$k" = header ] && [ "$m" -lt "$n" ] &&
			    [ $((n - m)) -le "$more" ] && continue
			if [ "$kind" = record ] && holds "$t" "$k" &&
			    ! grep -q variation warn; then
				echo "$name: $label -> $t: $k $n became $m"
				failed=1
			elif ! grep -q "$(word_of "$k")" warn &&
			    ! grep -q variation warn; then
				echo "$name: $label -> $t: $k $n became $m, unreported"
				cat warn; failed=1
			fi
		done <src.facts
		# The way back, when nothing was lost.
		if ! grep -q warning warn; then
			nback=$((nback + 1))
			# shellcheck disable=SC2046
			"$KIFU" convert $(to_opts "$sfmt") -o back$nsrc.$t.$sext "$out" 2>/dev/null
			same "$sfmt" "$t" canon$nsrc.$sext back$nsrc.$t.$sext ||
				{ echo "$name: $label -> $t -> $sfmt: not the canonical source"; diff canon$nsrc.$sext back$nsrc.$t.$sext | head -6; failed=1; }
		fi
	done
done <sources
# 17 sources (5 of them canonical), 170 conversions, 90 of them lossless
# and converted back: the checks must not fade away unnoticed.
[ "$nsrc" -ge 17 ] && [ "$npairs" -ge 170 ] && [ "$nback" -ge 80 ] ||
	{ echo "$name: only $nsrc sources, $npairs conversions, $nback ways back"; failed=1; }
[ -n "${VERBOSE:-}" ] &&
	echo "$name: $nsrc sources ($ncanon canonical), $npairs conversions, $nback lossless ones converted back"
finish
