#!/bin/sh
# kifu stats by the names kifu tag gives: --by opening and --by castle
# count each side's names from the side that played them, --by matchup
# groups the games, --vs crosses a side's names with the opponent's;
# shards of each merge to what one run gives; usage errors.
. "$(dirname "$0")/lib.sh"
top=$(cd "$TESTDATA/.." && pwd)
cp -r "$top/testdata/tags/records" r

expect_success "by opening" "$KIFU" stats --by opening r
sed -n '/^by opening$/,$p' out >table
printf '%s\n' "by opening" \
"  opening     games  W-L-D    win  as black W-L-D  as white W-L-D  first       last" \
"  (none)          6  2-1-0  66.7%  2-0-0           0-1-0           2008-12-20  2024-05-01" \
"  向かい飛車      2  0-1-0   0.0%  0-0-0           0-1-0           2008-12-20  2008-12-20" \
"  早繰り銀        2  0-1-0   0.0%  0-1-0           0-0-0           -           -" \
"  相掛かり        2  1-1-0  50.0%  0-1-0           1-0-0           -           -" \
"  矢倉            2  0-0-0      -  0-0-0           0-0-0           -           -" \
"  角換わり        2  0-0-0      -  0-0-0           0-0-0           -           -" \
"  四間飛車        1  0-0-0      -  0-0-0           0-0-0           -           -" \
"  横歩取り        1  0-0-0      -  0-0-0           0-0-0           -           -" >want
cmp -s want table || { echo "$name: --by opening"; diff want table; failed=1; }

# The same counts from kifu tag's own names: every side's openings.
"$KIFU" tag --json r >tags.json 2>/dev/null
"$KIFU" stats --json --by castle r >castle.json
python3 - tags.json castle.json <<'PY' || { echo "$name: castles against kifu tag"; failed=1; }
import collections, json, sys
want = collections.Counter()
for l in open(sys.argv[1], encoding="utf-8"):
    o = json.loads(l)
    for side in ("black", "white"):
        names = [c["name"] for c in o[side]["castles"]] if o["named"] else []
        for n in names or [None]:
            want[n] += 1
got = {g["name"]: g["games"] for g in json.load(open(sys.argv[2], encoding="utf-8"))["by_castle"]}
assert dict(want) == got, (dict(want), got)
PY

expect_success "by matchup" "$KIFU" stats --by matchup r
sed -n '/^by matchup$/,$p' out >table
printf '%s\n' "by matchup" \
"  matchup   records   black  white  draw   none  median  mean" \
"  相居飛車        4    0.0%  25.0%  0.0%  75.0%   88.50    88" \
"  対抗型          3   33.3%   0.0%  0.0%  66.7%     142   125" \
"  (none)          1  100.0%   0.0%  0.0%   0.0%      43    43" >want
cmp -s want table || { echo "$name: --by matchup"; diff want table; failed=1; }

expect_success "vs" "$KIFU" stats --json --by opening --vs castle r/shiken.ki2
grep -qF '"vs": {"by": "castle", "pairs": [{"name": null, "opponent": "銀冠", "games": 1, "wins": 0, "losses": 0, "draws": 0, "unfinished": 1}, {"name": "四間飛車", "opponent": "居飛車穴熊", "games": 1, "wins": 0, "losses": 0, "draws": 0, "unfinished": 1}]}' out ||
    { echo "$name: --vs"; cat out; failed=1; }
expect_success "vs text" "$KIFU" stats --by opening --vs castle r/shiken.ki2
grep -q '^by opening, against the opponent.s castle$' out &&
    grep -q '^  四間飛車  居飛車穴熊      1  0-0-0    -$' out ||
    { echo "$name: --vs text"; cat out; failed=1; }

# Shards merge, the --vs pairs too; -j changes nothing.
cp -r "$top/testdata" all
# b.json: every folder of the test data but a.json's, whatever main adds.
rest=$(for d in all/*/; do
	case $d in all/csa/ | all/kif/) ;; *) printf '%s ' "${d%/}" ;; esac
done)
for by in "opening --vs opening" "castle --vs opening" matchup; do
	"$KIFU" stats -s --json --by $by all >one.json
	"$KIFU" stats -s --json --by $by all/csa all/kif >a.json
	"$KIFU" stats -s --json --by $by $rest >b.json
	expect_success "merge $by" "$KIFU" stats --merge --json a.json b.json
	cmp -s out one.json || { echo "$name: --merge --by $by differs"; failed=1; }
	"$KIFU" stats -s -j3 --json --by $by all >j3.json
	cmp -s j3.json one.json || { echo "$name: -j3 --by $by differs"; failed=1; }
done
"$KIFU" stats -s --json --by castle all/csa >c.json
expect_exit 2 "merge, another grouping" "$KIFU" stats --merge a.json c.json
expect_stderr_has "merge, another grouping" "grouped by 'castle'"
"$KIFU" stats -s --json --by opening all/csa >o.json
"$KIFU" stats -s --json --by opening --vs opening all/kif >ov.json
expect_exit 2 "merge, another cross table" "$KIFU" stats --merge --by opening --vs castle o.json ov.json
expect_stderr_has "merge, another cross table" "crossed with 'opening'"

# --definitions counts by the user's names.
printf 'startpos moves 7g7f 3c3d 8i7g 8c8d 7g6e 6a5b\n' >oni.usi
expect_success "definitions" "$KIFU" stats --by opening --definitions "$top/testdata/tags/definitions/add.def" oni.usi
grep -q '^  鬼殺し ' out || { echo "$name: --definitions"; cat out; failed=1; }

expect_exit 2 "vs alone" "$KIFU" stats --vs castle r
expect_stderr_has "vs alone" "--vs goes with --by opening or --by castle"
expect_exit 2 "vs by player" "$KIFU" stats --by player --vs castle r
expect_exit 2 "bad vs" "$KIFU" stats --by opening --vs matchup r
expect_exit 2 "definitions and merge" "$KIFU" stats --merge --definitions x.def a.json
expect_exit 2 "bad definitions" "$KIFU" stats --by opening --definitions "$top/testdata/tags/definitions/bad-kind.def" r
expect_stderr_has "bad definitions" "bad-kind.def:1:1: error: no kind 'castel'"
finish
