#!/bin/sh
# kifu validate --rules: Floodgate records come out under csa as their
# 'summary says the server decided them, jsa gives the JSA result, and
# single settings can be overridden. testdata/README.md describes the
# small records in testdata/rules/.
. "$(dirname "$0")/lib.sh"
top=$(cd "$TESTDATA/.." && pwd)
# Relative names in the messages, without writing into the source tree.
ln -s "$top/testdata" testdata

# "winner reason" from a Floodgate 'summary line, matched to N+/N- by
# name as shogi-server's own scripts do (formats.md 2.8).
summary_result() {
	awk -F: '
	/^N\+/ { black = substr($0, 3) }
	/^N-/ { white = substr($0, 3) }
	/^'"'"'summary:/ {
		split("toryo resign|abnormal resign|time up time-up|" \
		    "kachi declaration|illegal kachi declaration|" \
		    "illegal move illegal-move|uchifuzume illegal-move|" \
		    "oute_kaihimore illegal-move|oute_sennichite perpetual-check|" \
		    "sennichite sennichite|max_moves max-moves", m, "|")
		for (i in m) {
			n = split(m[i], w, " ")
			type = w[1]
			for (k = 2; k < n; k++)
				type = type " " w[k]
			if (type == $2)
				reason = w[n]
		}
		winner = "none"
		for (f = 3; f <= 4; f++) {
			s = $f
			mark = s; sub(/.* /, "", mark)
			name = s; sub(/ [^ ]*$/, "", name)
			if (mark == "win")
				winner = name == white ? "white" : "black"
		}
		print winner, reason
	}' "$1"
}

# "winner reason" from kifu validate --json output.
json_result() {
	sed -n 's/.*"result": {"winner": "\([a-z]*\)", "reason": "\([a-z-]*\)".*/\1 \2/p' "$1"
}

# Every Floodgate record: csa reproduces the summary, consistently.
n=0
for f in testdata/csa/floodgate/*.csa testdata/rules/*.csa; do
	grep -q "^'summary:" "$f" || continue
	n=$((n + 1))
	said=$(summary_result "$f")
	expect_exit 0 "csa $f" "$KIFU" validate --json --rules csa "$f"
	got=$(json_result out)
	[ "$got" = "$said" ] ||
		{ echo "$name: csa $f: got '$got', summary says '$said'"; failed=1; }
	grep -q '"rules": "csa", "consistent": true' out ||
		{ echo "$name: csa $f: not consistent"; cat out; failed=1; }
done
[ "$n" -ge 8 ] || { echo "$name: only $n Floodgate records"; failed=1; }

# What jsa makes of them: expect_jsa FILE EXIT "WINNER REASON".
expect_jsa() {
	result=$3
	expect_exit "$2" "jsa $1" "$KIFU" validate --json "$1"
	got=$(json_result out)
	[ "$got" = "$result" ] ||
		{ echo "$name: jsa $1: got '$got', want '$result'"; failed=1; }
	grep -q '"rules": "jsa"' out || { echo "$name: jsa $1: rules"; failed=1; }
}
fg=testdata/csa/floodgate
# The record's 'Max_Moves:256 is the limit, whatever the rule set.
expect_jsa "$fg/[floodgate]wdoor+floodgate-300-10F+Titanda_L+SILENT_MAJORITY_sf170225_6950XEE+20170302210003.csa" 0 "none max-moves"
expect_jsa "$fg/floodgate.csa" 0 "black resign"
# Mated, then resigned: JSA names the mate; the record agrees.
expect_jsa "$fg/json-kifu-format-v2.csa" 0 "white checkmate"
grep -q '"consistent": true' out || { echo "$name: resigning when mated"; failed=1; }
# The start position counts for JSA: over at 12, the server went on.
expect_jsa testdata/rules/sennichite-start.csa 1 "none sennichite"
grep -q '"ply": 12}.*"consistent": false.*"rule": "result-mismatch"' out ||
	{ echo "$name: sennichite through the start"; cat out; failed=1; }
expect_jsa testdata/rules/perpetual-check.csa 1 "white perpetual-check"
# 28 points: a CSA win, a JSA draw.
expect_jsa testdata/rules/kachi-28.csa 1 "none declaration"
grep -q '"points": {"black": 28, "white": 0}' out ||
	{ echo "$name: declaration points"; cat out; failed=1; }
expect_jsa testdata/rules/illegal-kachi-27.csa 1 "none declaration"
expect_jsa testdata/rules/max-moves-10.csa 0 "none max-moves"

# The human form names both claims.
expect_exit 1 "human" "$KIFU" validate testdata/rules/kachi-28.csa
expect_output "human" "testdata/rules/kachi-28.csa:17:1: error: the record says Black wins by declaration ('summary:kachi:alice win:bob lose'), but under jsa rules draw by declaration at move 0: Black declares with 28 points (31 to win, 24 to draw) [result-mismatch]"
expect_exit 0 "wars" "$KIFU" validate --rules wars testdata/rules/kachi-28.csa

# Overrides.
expect_exit 0 "--declaration 27" "$KIFU" validate --declaration 27 testdata/rules/kachi-28.csa
expect_exit 1 "--declaration none" "$KIFU" validate --rules csa --declaration none testdata/rules/kachi-28.csa
expect_exit 1 "--declaration 24" "$KIFU" validate --json --rules csa --declaration 24 testdata/rules/kachi-28.csa
grep -q '"rules": "csa,declaration=24", "consistent": false' out ||
	{ echo "$name: overridden rules"; cat out; failed=1; }
expect_exit 1 "--max-moves 0" "$KIFU" validate --max-moves 0 testdata/rules/max-moves-10.csa
grep -q 'the record says draw by max-moves' out || { echo "$name: no limit"; cat out; failed=1; }
expect_exit 1 "--max-moves 8" "$KIFU" validate --rules csa --max-moves 8 testdata/rules/max-moves-10.csa
expect_output "--max-moves 8" "testdata/rules/max-moves-10.csa:25:1: error: under csa,max-moves=8 rules the game ended at move 8, draw by max-moves: the limit of 8 moves; the record goes on to move 10 [result-mismatch]"
expect_exit 0 "--max-moves 10" "$KIFU" validate --max-moves 10 testdata/rules/max-moves-10.csa
expect_exit 0 "usi sennichite, jsa" "$KIFU" validate testdata/rules/sennichite-start.usi
expect_exit 1 "usi sennichite, csa" "$KIFU" validate --rules csa testdata/rules/sennichite-start.usi
grep -q 'occurred four times (the last one 3 times)' out || { echo "$name: three times"; cat out; failed=1; }
expect_exit 0 "--repetition-counts-start yes" "$KIFU" validate --rules csa --repetition-counts-start yes testdata/rules/sennichite-start.usi
expect_exit 1 "--repetition-counts-start no" "$KIFU" validate --repetition-counts-start no testdata/rules/sennichite-start.usi
expect_exit 0 "--rule" "$KIFU" validate --rules csa --rule repetition-counts-start=yes testdata/rules/sennichite-start.usi
# Overrides apply after the set, whatever their order.
expect_exit 0 "order" "$KIFU" validate --repetition-counts-start yes --rules csa testdata/rules/sennichite-start.usi

# -v prints the rule set with every result.
expect_exit 0 "-v" "$KIFU" validate -v --rules csa testdata/rules/kachi-28.csa
expect_output "-v" "testdata/rules/kachi-28.csa: record 1: ok, 0 moves, declaration, black wins, points black 28 white 0, rules csa"

# Usage errors.
expect_exit 2 "unknown set" "$KIFU" validate --rules fide testdata/rules/kachi-28.csa
expect_stderr_has "unknown set" "unknown rule set 'fide' (known: jsa, csa, wars, minishogi)"
expect_exit 2 "bad declaration" "$KIFU" validate --declaration 25 testdata/rules/kachi-28.csa
expect_exit 2 "bad max-moves" "$KIFU" validate --max-moves -1 testdata/rules/kachi-28.csa
expect_exit 2 "bad yes/no" "$KIFU" validate --repetition-counts-start maybe testdata/rules/kachi-28.csa
expect_exit 2 "bad --rule" "$KIFU" validate --rule mate-ends-game testdata/rules/kachi-28.csa
expect_exit 2 "unknown --rule" "$KIFU" validate --rule speed=9 testdata/rules/kachi-28.csa
finish
