#!/bin/sh
# kifu convert keeps a record's verdict (issue 28): the rule set --rules
# auto picks comes from evidence in the record's text (core/venue.c), and
# where the target format cannot hold that evidence, convert states the
# set in a rules header (KIF/KI2 kifu-rules, CSA $KIFU_RULES, JKF
# "kifu-rules"), which kifu reads back as the strongest evidence.
#
# The records:
# - wcsc: a real WCSC31 game (muzudho-kif-parser, testdata/csa/), whose
#   server-style T lines and %ILLEGAL_MOVE make it csa with no move
#   limit; without them it is jsa;
# - foul: testdata/rules/server-mate-then-foul.csa, a game whose mated
#   program fouls after mate, which the CSA server allows: ok under csa,
#   a disputed claim (mismatch) under jsa;
# - kif: a KIF game from a GUI (jsa) with times and a terminal, which in
#   CSA, with T lines and a % terminal, would look like a server's log
#   (csa: a mate is no end of the game, the record's resignation counts);
# - event: a WCSC game whose $EVENT header every format but USI holds:
#   no rules header is needed.
. "$(dirname "$0")/lib.sh"
wcsc="$TESTDATA/csa/muzudho-kif-parser/docs/examples/csa/[wcsc31]WCSC31_L8_ANS_KFW_1.csa"
foul="$TESTDATA/rules/server-mate-then-foul.csa"
kif="$TESTDATA/kif/mog-core-scala/kif/game/008.kif"
event="$TESTDATA/rules/tournament-mate-then-foul.csa"

# verdict FILE: what validate says of each record, but for the file's
# name and the evidence (which is the rules header after a conversion):
# the -v line, then status, result, rules and consistent of --json.
verdict() {
	"$KIFU" validate -v "$1" 2>/dev/null |
	    sed -e 's/^[^:]*: record/record/' -e 's/ (auto.*//'
	"$KIFU" validate --json "$1" 2>/dev/null |
	    sed -e 's/.*\("status": "[a-z]*"\).*\("result": {[^}]*}\).*\("rules": "[^"]*"\).*\("consistent": [a-z]*\).*/\1 \2 \3 \4/'
}

expect_verdict() {
	if [ "$(verdict "$2")" != "$3" ]; then
		echo "$name: $1: the verdict changed"
		printf '%s\n' "$3" >want.v
		verdict "$2" >got.v
		diff want.v got.v
		failed=1
	fi
}

# The records' verdicts as their own formats give them.
want_wcsc=$(verdict "$wcsc")
want_foul=$(verdict "$foul")
want_kif=$(verdict "$kif")
case $want_foul in
*'ok, 196 moves, illegal-move, white wins, rules csa,max-moves=0'*) ;;
*) echo "$name: foul: $want_foul"; failed=1 ;;
esac
case $want_kif in
*'ok, 168 moves, checkmate, white wins, rules jsa'*) ;;
*) echo "$name: kif: $want_kif"; failed=1 ;;
esac

# --- every format's round trip keeps the verdict ---------------------

for src in wcsc foul kif event; do
	eval "path=\$$src"
	want=$(verdict "$path")
	for t in kif kifu ki2 ki2u csa jkf; do
		expect_success "$src -> $t" "$KIFU" convert -t $t -o $src.$t "$path"
		expect_verdict "$src -> $t" $src.$t "$want"
		# ... and back in every format again.
		for u in kifu ki2u csa jkf; do
			"$KIFU" convert -t $u -o $src.$t.$u $src.$t 2>/dev/null ||
				{ echo "$name: $src -> $t -> $u: not converted"; failed=1; continue; }
			expect_verdict "$src -> $t -> $u" $src.$t.$u "$want"
		done
	done
done

# What was written, and read back as what.
grep -qx 'kifu-rules：csa,max-moves=0' foul.kifu ||
	{ echo "$name: foul.kifu: no rules header"; head foul.kifu; failed=1; }
grep -q '^ *"kifu-rules": "csa,max-moves=0",*$' foul.jkf ||
	{ echo "$name: foul.jkf: no rules key"; head foul.jkf; failed=1; }
iconv -f CP932 -t UTF-8 foul.ki2 | grep -qx 'kifu-rules：csa,max-moves=0' ||
	{ echo "$name: foul.ki2: no rules header"; failed=1; }
grep -qx '\$KIFU_RULES:jsa' kif.csa ||
	{ echo "$name: kif.csa: no rules header"; head kif.csa; failed=1; }
expect_success "evidence" "$KIFU" validate -v foul.kifu
expect_output "evidence" "foul.kifu: record 1: ok, 196 moves, illegal-move, white wins, rules csa,max-moves=0 (auto: kifu-rules 'csa,max-moves=0', line 6)"
expect_success "evidence json" "$KIFU" validate --json kif.csa
grep -q '"rules": "jsa", "rules_from": "auto", "rules_evidence": {"what": "$KIFU_RULES '"'jsa'"'", "line": [0-9]*}' out ||
	{ echo "$name: kif.csa evidence"; cat out; failed=1; }
# A target that holds the evidence gets no header: the CSA game in CSA,
# the $EVENT game anywhere, and a converted record back in its format,
# which is then the source as kifu writes it, byte for byte (but from
# KI2, which holds no times: the CSA text has no T lines to show the
# server, and states the set instead).
for f in foul.csa wcsc.csa kif.kif kif.csa.kifu event.kifu event.jkf \
    event.csa; do
	grep -q -i 'kifu.rules' $f && { echo "$name: $f: a rules header"; failed=1; }
done
"$KIFU" convert -t csa -o foul.canon.csa "$foul"
for t in kif kifu jkf; do
	cmp -s foul.$t.csa foul.canon.csa ||
		{ echo "$name: foul -> $t -> csa is not the source"; diff foul.canon.csa foul.$t.csa | head -5; failed=1; }
done
grep -qx '\$KIFU_RULES:csa,max-moves=0' foul.ki2u.csa ||
	{ echo "$name: foul -> ki2u -> csa: no rules header"; failed=1; }

# --- without the header -----------------------------------------------

# What the issue saw: the foul after mate reads back as a mismatch. The
# conversion says what is lost, and --strict refuses it.
expect_success "--no-rules-header" "$KIFU" convert -t kifu --no-rules-header \
    -o bare.kifu "$foul"
expect_stderr_has "--no-rules-header" "warning: kifu gets no rules header (none asked for) to hold what judges record 1 by csa,max-moves=0 (T times and %ILLEGAL_MOVE): it reads back under jsa [limit]"
grep -q 'kifu-rules' bare.kifu && { echo "$name: bare.kifu has a header"; failed=1; }
expect_exit 1 "bare reads back" "$KIFU" validate --json bare.kifu
grep -q '"status": "mismatch"' out && grep -q '"rules": "jsa"' out ||
	{ echo "$name: bare.kifu: $(cat out)"; failed=1; }
expect_exit 1 "--strict" "$KIFU" convert -t kifu --no-rules-header --strict \
    -o strict.kifu "$foul"
[ -e strict.kifu ] && { echo "$name: --strict wrote"; failed=1; }
# USI holds no header at all: a warning, the same every time.
expect_success "usi" "$KIFU" convert -t usi "$wcsc"
expect_stderr_has "usi" "warning: usi cannot hold what judges record 1 by csa,max-moves=0 (T times and %ILLEGAL_MOVE): it reads back under jsa [limit]"
# sfen and bod are a position: nothing to judge, nothing said.
expect_success "sfen" "$KIFU" convert -t sfen "$foul"
grep -q 'judges' err && { echo "$name: sfen: $(cat err)"; failed=1; }

# --- the header as evidence ----------------------------------------------

# Any set as results print it, hand-written too; it outweighs the rest.
sed 's/^kifu-rules：.*/kifu-rules：jsa,max-moves=100/' foul.kifu >hand.kifu
expect_exit 1 "hand-written" "$KIFU" validate -v hand.kifu
grep -q "under jsa,max-moves=100 rules the game ended at move 100" out ||
	{ echo "$name: hand-written: $(cat out err)"; failed=1; }
# One kifu cannot read is no evidence, and says so.
sed 's/^kifu-rules：.*/kifu-rules：wcsc/' foul.kifu >bad.kifu
expect_exit 1 "bad header" "$KIFU" validate -v bad.kifu
expect_stderr_has "bad header" "bad.kifu:6:1: warning: rules header 'wcsc' is no rule set (jsa, csa, wars, problem, minishogi, then KEY=VALUE settings after commas): not used [syntax]"
grep -q 'under jsa rules White wins by checkmate at move 196' out ||
	{ echo "$name: bad header: $(cat out)"; failed=1; }
# --rules takes the set as printed.
expect_success "--rules as printed" "$KIFU" validate -v --rules csa,max-moves=0 bare.kifu
expect_output "--rules as printed" "bare.kifu: record 1: ok, 196 moves, illegal-move, white wins, rules csa,max-moves=0"
expect_exit 2 "--rules bad setting" "$KIFU" validate --rules csa,max-moves=x bare.kifu

expect_success "help" "$KIFU" convert --help
grep -q -- '--no-rules-header' out || { echo "$name: help lacks --no-rules-header"; failed=1; }

finish
