#!/bin/sh
# kifu validate --rules: Floodgate records come out under csa as their
# 'summary says the server decided them, and so under auto (the default),
# which finds the evidence; jsa gives the JSA result, and single settings
# can be overridden. testdata/README.md describes the
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
	grep -q '"rules": "csa", "rules_from": "option", "rules_evidence": null, "consistent": true' out ||
		{ echo "$name: csa $f: not consistent"; cat out; failed=1; }
	# auto finds the server in the record, and says where.
	expect_exit 0 "auto $f" "$KIFU" validate --json "$f"
	[ "$(json_result out)" = "$said" ] ||
		{ echo "$name: auto $f: got '$(json_result out)', summary says '$said'"; failed=1; }
	grep -q '"rules": "csa[,a-z=0-9-]*", "rules_from": "auto", "rules_evidence": {"what": "[^"]*", "line": [1-9][0-9]*}, "consistent": true' out ||
		{ echo "$name: auto $f: not consistent under csa"; cat out; failed=1; }
done
[ "$n" -ge 8 ] || { echo "$name: only $n Floodgate records"; failed=1; }

# What jsa makes of them: expect_jsa FILE EXIT "WINNER REASON".
expect_jsa() {
	result=$3
	expect_exit "$2" "jsa $1" "$KIFU" validate --json --rules jsa "$1"
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
grep -q '"status": "mismatch".*"ply": 12}.*"consistent": false.*"rule": "result-mismatch"' out ||
	{ echo "$name: sennichite through the start"; cat out; failed=1; }
expect_jsa testdata/rules/perpetual-check.csa 1 "white perpetual-check"
# 28 points: a CSA win, a JSA draw.
expect_jsa testdata/rules/kachi-28.csa 1 "none declaration"
grep -q '"points": {"black": 28, "white": 0}' out ||
	{ echo "$name: declaration points"; cat out; failed=1; }
expect_jsa testdata/rules/illegal-kachi-27.csa 1 "none declaration"
expect_jsa testdata/rules/max-moves-10.csa 0 "none max-moves"

# The human form names both claims.
expect_exit 1 "human" "$KIFU" validate --rules jsa testdata/rules/kachi-28.csa
expect_output "human" "testdata/rules/kachi-28.csa:17:1: error: the record says Black wins by declaration ('summary:kachi:alice win:bob lose'), but under jsa rules draw by declaration at move 0: Black declares with 28 points (31 to win, 24 to draw) [result-mismatch]"
expect_exit 0 "wars" "$KIFU" validate --rules wars testdata/rules/kachi-28.csa

# Overrides.
expect_exit 0 "--declaration 27" "$KIFU" validate --rules jsa --declaration 27 testdata/rules/kachi-28.csa
expect_exit 1 "--declaration none" "$KIFU" validate --rules csa --declaration none testdata/rules/kachi-28.csa
expect_exit 1 "--declaration 24" "$KIFU" validate --json --rules csa --declaration 24 testdata/rules/kachi-28.csa
grep -q '"status": "mismatch".*"rules": "csa,declaration=24", "rules_from": "option", "rules_evidence": null, "consistent": false' out ||
	{ echo "$name: overridden rules"; cat out; failed=1; }
expect_exit 1 "--max-moves 0" "$KIFU" validate --rules jsa --max-moves 0 testdata/rules/max-moves-10.csa
grep -q 'the record says draw by max-moves' out || { echo "$name: no limit"; cat out; failed=1; }
expect_exit 1 "--max-moves 8" "$KIFU" validate --rules csa --max-moves 8 testdata/rules/max-moves-10.csa
expect_output "--max-moves 8" "testdata/rules/max-moves-10.csa:25:1: error: under csa,max-moves=8 rules the game ended at move 8, draw by max-moves: the limit of 8 moves; the record goes on to move 10 [result-mismatch]"
expect_exit 0 "--max-moves 10" "$KIFU" validate --max-moves 10 testdata/rules/max-moves-10.csa
expect_exit 0 "usi sennichite, jsa" "$KIFU" validate --rules jsa testdata/rules/sennichite-start.usi
# A USI line shows no venue: auto is jsa.
expect_exit 0 "usi sennichite, auto" "$KIFU" validate --json testdata/rules/sennichite-start.usi
grep -q '"rules": "jsa", "rules_from": "auto", "rules_evidence": null' out ||
	{ echo "$name: auto without evidence"; cat out; failed=1; }
expect_exit 1 "usi sennichite, csa" "$KIFU" validate --rules csa testdata/rules/sennichite-start.usi
grep -q 'occurred four times (the last one 3 times)' out || { echo "$name: three times"; cat out; failed=1; }
expect_exit 0 "--repetition-counts-start yes" "$KIFU" validate --rules csa --repetition-counts-start yes testdata/rules/sennichite-start.usi
expect_exit 1 "--repetition-counts-start no" "$KIFU" validate --rules jsa --repetition-counts-start no testdata/rules/sennichite-start.usi
expect_exit 0 "--rule" "$KIFU" validate --rules csa --rule repetition-counts-start=yes testdata/rules/sennichite-start.usi
# Overrides apply after the set, whatever their order.
expect_exit 0 "order" "$KIFU" validate --repetition-counts-start yes --rules csa testdata/rules/sennichite-start.usi

# -v prints the rule set with every result.
expect_exit 0 "-v" "$KIFU" validate -v --rules csa testdata/rules/kachi-28.csa
expect_output "-v" "testdata/rules/kachi-28.csa: record 1: ok, 0 moves, declaration, black wins, points black 28 white 0, rules csa"
expect_exit 0 "-v auto" "$KIFU" validate -v testdata/rules/kachi-28.csa
expect_output "-v auto" "testdata/rules/kachi-28.csa: record 1: ok, 0 moves, declaration, black wins, points black 28 white 0, rules csa,max-moves=0 (auto: 'summary, line 18)"

# --no-result-check: the claim is not compared, and nothing is disputed.
expect_exit 0 "--no-result-check" "$KIFU" validate --json --rules jsa --no-result-check testdata/rules/kachi-28.csa
grep -q '"status": "ok".*"rules_evidence": null, "points"' out ||
	{ echo "$name: --no-result-check"; cat out; failed=1; }
grep -q '"consistent"' out && { echo "$name: --no-result-check says consistent"; failed=1; }

# auto on records shaped like the ones issue 13 names (testdata/README.md).
# A tournament game whose mated program fouls: the server's verdict.
expect_exit 0 "mate, then a foul" "$KIFU" validate -v testdata/rules/tournament-mate-then-foul.csa
expect_output "mate, then a foul" "testdata/rules/tournament-mate-then-foul.csa: record 1: ok, 196 moves, illegal-move, white wins, rules csa,max-moves=0 (auto: \$EVENT WCSC, line 4)"
expect_exit 1 "mate, then a foul, jsa" "$KIFU" validate --json --rules jsa testdata/rules/tournament-mate-then-foul.csa
grep -q '"status": "mismatch".*"reason": "checkmate", "ply": 196' out ||
	{ echo "$name: mate then foul under jsa"; cat out; failed=1; }
# A tournament record that states no limit has none.
expect_exit 0 "tournament, 400 moves" "$KIFU" validate -v testdata/rules/tournament-long.csa
expect_output "tournament, 400 moves" "testdata/rules/tournament-long.csa: record 1: ok, 400 moves, declaration, black wins, points black 40 white 11, rules csa,max-moves=0 (auto: \$EVENT WCSC, line 4)"
expect_exit 1 "tournament, 400 moves, csa" "$KIFU" validate --rules csa testdata/rules/tournament-long.csa
grep -q 'ended at move 256, draw by max-moves' out || { echo "$name: csa limit"; cat out; failed=1; }
# The printed set gives the same result with --rules.
expect_exit 0 "printed set" "$KIFU" validate --rules csa --max-moves 0 testdata/rules/tournament-long.csa
# A problem is as long as its composer made it.
expect_exit 0 "long problem" "$KIFU" validate -v testdata/rules/long-problem.usi
expect_output "long problem" "testdata/rules/long-problem.usi: record 1: ok, 600 moves, unfinished, rules problem (auto: one king at the start, line 1)"
expect_exit 1 "long problem, jsa" "$KIFU" validate --rules jsa testdata/rules/long-problem.usi
grep -q 'ended at move 500, draw by max-moves' out || { echo "$name: jsa limit"; cat out; failed=1; }
expect_exit 0 "--rules problem" "$KIFU" validate --rules problem testdata/rules/long-problem.usi
# Shogi Wars, from a shogi-extend export.
sw="testdata/kif/muzudho-kif-parser/docs/examples/surokiti0510-muzudho-20211004_204159[shogiextend].kifu"
expect_exit 0 "wars" "$KIFU" validate --json "$sw"
grep -q '"rules": "wars", "rules_from": "auto", "rules_evidence": {"what": "棋戦 将棋ウォーズ", "line": 7}' out ||
	{ echo "$name: wars evidence"; cat out; failed=1; }
# Overrides on top of auto.
expect_exit 1 "auto and --max-moves" "$KIFU" validate --max-moves 300 testdata/rules/tournament-long.csa
grep -q 'under csa,max-moves=300 rules the game ended at move 300' out ||
	{ echo "$name: override on auto"; cat out; failed=1; }

# Usage errors.
expect_exit 2 "unknown set" "$KIFU" validate --rules fide testdata/rules/kachi-28.csa
expect_stderr_has "unknown set" "unknown rule set 'fide' (known: auto, jsa, csa, wars, problem, minishogi)"
expect_exit 2 "bad declaration" "$KIFU" validate --declaration 25 testdata/rules/kachi-28.csa
expect_exit 2 "bad max-moves" "$KIFU" validate --max-moves -1 testdata/rules/kachi-28.csa
expect_exit 2 "bad yes/no" "$KIFU" validate --repetition-counts-start maybe testdata/rules/kachi-28.csa
expect_exit 2 "bad --rule" "$KIFU" validate --rule mate-ends-game testdata/rules/kachi-28.csa
expect_exit 2 "unknown --rule" "$KIFU" validate --rule speed=9 testdata/rules/kachi-28.csa
finish
