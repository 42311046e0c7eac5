#!/bin/sh
# Minishogi (5五将棋) in every format and command: the records of
# testdata/minishogi/ (testdata/README.md) are validated, judged under the
# minishogi rule set, converted to every format that holds minishogi and
# read back with the same moves and final position; JKF refuses them.
. "$(dirname "$0")/lib.sh"
top=$(cd "$TESTDATA/.." && pwd)
ln -s "$top/testdata" testdata
m=testdata/minishogi

# "winner reason ply" from kifu validate --json output.
json_result() {
	sed -n 's/.*"result": {"winner": "\([a-z]*\)", "reason": "\([a-z-]*\)", "ply": \([0-9]*\)}.*/\1 \2 \3/p' "$1"
}

# --- the records read, in every source format --------------------------

for f in game.usi game.csa game.kifu game.ki2u; do
	expect_exit 0 "validate $f" "$KIFU" validate --json "$m/$f"
	got=$(json_result out)
	[ "$got" = "black checkmate 43" ] ||
		{ echo "$name: $f: got '$got'"; failed=1; }
	grep -q '"final_sfen": "2G+Bk/G3p/K1R2/4S/1b+s+pR w - 44"' out ||
		{ echo "$name: $f: wrong final position"; cat out; failed=1; }
done
expect_exit 0 "lishogi handicap" "$KIFU" validate --json "$m/handicap.kifu"
[ "$(json_result out)" = "black resign 4" ] ||
	{ echo "$name: handicap: got '$(json_result out)'"; failed=1; }

# The issue's example: a 5-rank SFEN says minishogi by itself.
echo 'position sfen rbsgk/4p/5/P4/KGSBR b - 1 moves 1e1d' >issue.usi
expect_success "5-rank SFEN" "$KIFU" validate issue.usi
[ -s out ] && { echo "$name: 5-rank SFEN: $(cat out)"; failed=1; }

# startpos is the minishogi start only with --variant minishogi.
expect_exit 1 "startpos is 9x9" "$KIFU" validate "$m/sennichite.usi"
grep -q 'no-piece' out || { echo "$name: startpos: $(cat out)"; failed=1; }
expect_success "--variant" "$KIFU" validate --variant minishogi \
    "$m/sennichite.usi"
# JKF has no variant field: a JKF record is shogi whatever --variant says.
expect_success "jkf is 9x9" "$KIFU" validate --variant minishogi \
    testdata/jkf/json-kifu-format/test/files/jkf/ryuou201409020101.jkf
expect_exit 2 "unknown variant" "$KIFU" validate --variant chess issue.usi
expect_stderr_has "unknown variant" "unknown variant 'chess' (known: standard, minishogi)"

# --- an SFEN given on the command line ----------------------------------

# Its board's shape says minishogi, as the record's does above; the
# issue's example: the pawn drop on 1b mates and is uchifuzume.
mini='4k/2S2/3G1/5/K4 b P 1'
expect_exit 1 "legal 5x5 SFEN" "$KIFU" legal --sfen "$mini" P*1b
expect_output "legal 5x5 SFEN" "illegal uchifuzume"
expect_success "legal 5x5 move" "$KIFU" legal --sfen "sfen $mini" 2c2d 1a1b
expect_output "legal 5x5 move" "legal"
expect_exit 1 "legal 5x5 silver" "$KIFU" legal --sfen "$mini" 3b3d
expect_output "legal 5x5 silver" "illegal piece-movement"
expect_exit 2 "legal 5x5 square" "$KIFU" legal --sfen "$mini" 3b3f
expect_stderr_has "legal 5x5 square" "'3b3f' is not a USI move"
expect_success "moves 5x5 SFEN" "$KIFU" moves --sfen "$mini"
cp out moves.sfen
expect_success "moves --variant" "$KIFU" moves --variant minishogi --sfen "$mini"
cmp -s out moves.sfen || { echo "$name: moves differ with --variant"; failed=1; }
grep -qx 'P\*1c' moves.sfen && ! grep -qx 'P\*1b' moves.sfen &&
    ! grep -q '[6-9]' moves.sfen ||
	{ echo "$name: moves 5x5"; cat moves.sfen; failed=1; }
# perft from the minishogi start, as an SFEN: the counts of the start.
expect_success "perft 5x5 SFEN" "$KIFU" perft --sfen 'rbsgk/4p/5/P4/KGSBR b - 1' 3
expect_output "perft 5x5 SFEN" 2512
# --variant forces the start's game; an SFEN's board must agree with it.
for cmd in "legal 2c2d --sfen" "moves --sfen" "perft 1 --sfen"; do
	expect_exit 2 "$cmd conflict" "$KIFU" $cmd "$mini" --variant standard
	expect_stderr_has "$cmd conflict" "--variant standard, but SFEN '$mini' has a board of 5 ranks: a minishogi position"
done
expect_exit 2 "9x9 under minishogi" "$KIFU" perft --variant minishogi --sfen \
    'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1' 1
expect_stderr_has "9x9 under minishogi" "has a board of 9 ranks: a standard position"
expect_success "--variant startpos" "$KIFU" perft --variant minishogi 2
expect_output "--variant startpos" 181
# A board of neither shape: the shogi reader says what is wrong.
expect_exit 2 "four ranks" "$KIFU" moves --sfen '4k/5/5/K4 b - 1'
expect_stderr_has "four ranks" "invalid SFEN '4k/5/5/K4 b - 1'"
# show, find and tree take an SFEN through the USI reader, which agrees.
printf '%s\n' "$mini" >mini.sfen
expect_success "show 5x5 SFEN" "$KIFU" show --color never mini.sfen
grep -q '^手合割：5五将棋$' out && grep -q '^  ５ ４ ３ ２ １$' out ||
	{ echo "$name: show 5x5 SFEN"; cat out; failed=1; }
# The position after 1e1d: the repetition games pass it at plies 1, 5, 9
# (sennichite.usi starts from startpos, shogi's without --variant).
expect_success "find --sfen 5x5" "$KIFU" find -l --sfen 'rbsgk/4p/5/P3R/KGSB1 w - 2' "$m"
expect_output "find --sfen 5x5" "$(printf '%s\n' "$m/sennichite.csa" "$m/sennichite.kifu")"
expect_success "find --usi 5x5" "$KIFU" find --usi 'sfen rbsgk/4p/5/P4/KGSBR b - 1 moves 1e1d' "$m/sennichite.kifu"
expect_output "find --usi 5x5" "$m/sennichite.kifu:1,5,9: - vs -, -, sennichite, white wins"

# --- results under the minishogi rule set --------------------------------

# Repetition: the side that made the first move (Black) loses; the record's
# 千日手 / %SENNICHITE / rep_draw agrees. --rule repetition=draw draws.
for f in sennichite.usi sennichite.kifu sennichite.csa; do
	expect_exit 0 "rep $f" "$KIFU" validate --json --variant minishogi \
	    --rules minishogi "$m/$f"
	[ "$(json_result out)" = "white sennichite 12" ] ||
		{ echo "$name: rep $f: got '$(json_result out)'"; failed=1; }
	grep -q '"rules": "minishogi", "rules_from": "option", "rules_evidence": null, "consistent": true' out ||
		{ echo "$name: rep $f: not consistent"; cat out; failed=1; }
	# auto knows a 5x5 board for what it is.
	expect_exit 0 "auto $f" "$KIFU" validate --json --variant minishogi "$m/$f"
	[ "$(json_result out)" = "white sennichite 12" ] ||
		{ echo "$name: auto $f: got '$(json_result out)'"; failed=1; }
	grep -q '"rules": "minishogi", "rules_from": "auto", "rules_evidence": {"what": "a 5x5 board", "line": [0-9]*}, "consistent": true' out ||
		{ echo "$name: auto $f: not minishogi"; cat out; failed=1; }
	expect_exit 0 "rep draw $f" "$KIFU" validate --json --variant minishogi \
	    --rules minishogi --rule repetition=draw "$m/$f"
	[ "$(json_result out)" = "none sennichite 12" ] ||
		{ echo "$name: rep draw $f: got '$(json_result out)'"; failed=1; }
	grep -q '"rules": "minishogi,repetition=draw"' out ||
		{ echo "$name: rep draw $f: rules"; cat out; failed=1; }
done
# Shogi's rules with the minishogi setting.
expect_exit 0 "jsa first-mover-loses" "$KIFU" validate --json \
    --variant minishogi --rule repetition=first-mover-loses \
    "$m/sennichite.usi"
[ "$(json_result out)" = "white sennichite 12" ] ||
	{ echo "$name: jsa first-mover: got '$(json_result out)'"; failed=1; }
expect_exit 2 "bad repetition" "$KIFU" validate --rule repetition=loss \
    "$m/game.usi"
expect_stderr_has "bad repetition" "bad rule setting repetition=loss"
# Perpetual check loses for the checker either way.
for rule in first-mover-loses draw; do
	expect_exit 0 "perpetual $rule" "$KIFU" validate --json \
	    --rules minishogi --rule repetition=$rule "$m/perpetual.usi"
	[ "$(json_result out)" = "white perpetual-check 12" ] ||
		{ echo "$name: perpetual $rule: $(json_result out)"; failed=1; }
done
# Fouls by their rule ids.
expect_exit 1 "fouls" "$KIFU" validate --json --variant minishogi \
    "$m/illegal.usi"
grep -q '"rule": "nifu"' out && grep -q '"rule": "dead-piece"' out ||
	{ echo "$name: fouls"; cat out; failed=1; }
[ "$(grep -c '"status": "ok"' out)" = 1 ] ||
	{ echo "$name: the promoting pawn is legal"; cat out; failed=1; }

# --- written in every format and read back --------------------------------

# "start moves" and the final position of a file, as USI and SFEN say.
usi_of() { "$KIFU" convert -t usi "$@" 2>/dev/null; }
sfen_of() { "$KIFU" convert -t sfen "$@" 2>/dev/null; }

for src in game.usi game.csa game.kifu game.ki2u handicap.kifu; do
	want_usi=$(usi_of "$m/$src")
	want_sfen=$(sfen_of "$m/$src")
	[ -n "$want_usi" ] && [ -n "$want_sfen" ] ||
		{ echo "$name: $src does not convert"; failed=1; continue; }
	case $want_usi in
	*startpos*) echo "$name: $src: startpos written"; failed=1 ;;
	esac
	for to in usi csa kif kifu ki2 ki2u; do
		out=out-${src%%.*}-${src#*.}.$to
		expect_success "$src -> $to" "$KIFU" convert -t "$to" -o "$out" \
		    "$m/$src"
		[ "$(usi_of "$out")" = "$want_usi" ] ||
			{ echo "$name: $src -> $to: moves differ"; failed=1; }
		[ "$(sfen_of "$out")" = "$want_sfen" ] ||
			{ echo "$name: $src -> $to: position differs"; failed=1; }
	done
	for to in sfen bod; do
		out=pos-${src%%.*}-${src#*.}.$to
		expect_success "$src -> $to" "$KIFU" convert -t "$to" -o "$out" \
		    "$m/$src"
		[ "$(sfen_of "$out")" = "$want_sfen" ] ||
			{ echo "$name: $src -> $to: position differs"; failed=1; }
	done
	expect_exit 1 "$src -> jkf" "$KIFU" convert -t jkf "$m/$src"
	expect_stderr_has "$src -> jkf" "jkf cannot hold minishogi records"
done

# What each format says of the variant.
"$KIFU" convert -t csa "$m/game.kifu" >w.csa 2>/dev/null
grep -q '^PI' w.csa && { echo "$name: csa wrote PI"; failed=1; }
grep -q '^P6' w.csa && { echo "$name: csa wrote P6"; failed=1; }
grep -qx 'P5+OU+KI+GI+KA+HI' w.csa ||
	{ echo "$name: csa board"; cat w.csa; failed=1; }
"$KIFU" convert -t kifu "$m/game.csa" >w.kifu 2>/dev/null
grep -q '^手合割：5五将棋' w.kifu ||
	{ echo "$name: kif head"; head w.kifu; failed=1; }
"$KIFU" convert -t kifu "$m/handicap.kifu" >h.kifu 2>/dev/null
grep -q '^上手の持駒：なし' h.kifu && grep -q '^下手の持駒：なし' h.kifu &&
    grep -q '^上手番' h.kifu ||
	{ echo "$name: handicap labels"; cat h.kifu; failed=1; }
"$KIFU" convert -t bod --encoding UTF-8 --ply 0 "$m/game.usi" >b.bod \
    2>/dev/null
grep -q '^  ５ ４ ３ ２ １$' b.bod && grep -q '^+---------------+$' b.bod ||
	{ echo "$name: bod"; cat b.bod; failed=1; }
# --variant on convert: startpos is written as the 5x5 SFEN.
expect_success "convert --variant" "$KIFU" convert --variant minishogi \
    -t usi "$m/sennichite.usi"
expect_output "convert --variant" "$(printf 'position sfen rbsgk/4p/5/P4/KGSBR b - 1 moves 1e1d 4a3b 1d1e 3b4a 1e1d 4a3b 1d1e 3b4a 1e1d 4a3b 1d1e 3b4a rep_draw')"

# --- kifu check ------------------------------------------------------------

mkdir tree
cp "$m"/*.usi "$m"/*.csa "$m"/*.kifu "$m"/*.ki2u tree/
# A shogi record among them: a 9-rank SFEN says so under any --variant.
echo "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 moves 7g7f 3c3d resign" >tree/shogi.usi
expect_exit 1 "check" "$KIFU" check -q -j2 tree
expect_exit 1 "check --variant" "$KIFU" check --json -j2 --variant minishogi \
    tree
# Only illegal.usi's two fouls: every other record is valid.
[ "$(grep -vc '"status": "ok"' out)" = 2 ] ||
	{ echo "$name: check --variant"; grep -v '"status": "ok"' out; failed=1; }
rm tree/illegal.usi
expect_success "check clean" "$KIFU" check -q -j2 --variant minishogi \
    --rules minishogi tree

for c in validate check convert; do
	expect_success "$c --help" "$KIFU" $c --help
	grep -q -- '--variant <name>' out ||
		{ echo "$name: $c --help lacks --variant"; failed=1; }
done

finish
