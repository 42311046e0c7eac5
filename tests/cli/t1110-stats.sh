#!/bin/sh
# kifu stats: the counts of a known set (testdata/find/ and two records
# of testdata/ whose results the rules decide), the median of an even
# count, tables aligned by terminal columns, merged shards equal to one
# run for every --by, -j identity, exit codes, hostile shards.
. "$(dirname "$0")/lib.sh"
top=$(cd "$TESTDATA/.." && pwd)
mkdir f
cp "$top"/testdata/find/* "$top/testdata/rules/sennichite-start.csa" \
    "$top/testdata/csa/kifu/nifu.csa" f/
rm -f f/SOURCES

# Ten games: 4, 2, 4, 5, 2, 3, 3, 3 plies, a sennichite at 13 (Floodgate
# rules: the record's 'summary), a nifu at move 11 (the foul loses at 10).
# Eight even starts, the bishop handicap, White first from the even board.
expect_success "json" "$KIFU" stats --json f
expect_output "json" '{"records": 10, "results": {"by_reason": {"resign": 6, "abort": 1, "illegal-move": 1, "sennichite": 1, "unfinished": 1}, "by_winner": {"black": {"count": 3, "percent": 30.0}, "white": {"count": 4, "percent": 40.0}, "draw": {"count": 1, "percent": 10.0}, "none": {"count": 2, "percent": 20.0}}}, "even": {"records": 8, "results": {"by_reason": {"resign": 5, "abort": 1, "illegal-move": 1, "sennichite": 1}, "by_winner": {"black": {"count": 2, "percent": 25.0}, "white": {"count": 4, "percent": 50.0}, "draw": {"count": 1, "percent": 12.5}, "none": {"count": 1, "percent": 12.5}}}}, "handicap": {"records": 1, "results": {"by_reason": {"resign": 1}, "by_winner": {"black": {"count": 1, "percent": 100.0}, "white": {"count": 0, "percent": 0.0}, "draw": {"count": 0, "percent": 0.0}, "none": {"count": 0, "percent": 0.0}}}}, "length": {"min": 2, "median": 3.50, "mean": 4.90, "max": 13, "histogram": [{"from": 0, "to": 19, "count": 10, "plies": [0, 0, 2, 3, 2, 1, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0]}]}, "declarations": 0, "sennichite": 1, "max_moves": 0, "openings": [{"moves": "7g7f 3c3d", "count": 4}, {"moves": "3c3d 7g7f", "count": 2}, {"moves": "2g2f 3c3d", "count": 1}, {"moves": "2g2f 8c8d", "count": 1}, {"moves": "2h5h 8b5b", "count": 1}, {"moves": "7g7f 8c8d", "count": 1}]}'
# Under jsa the shuffle is a sennichite at 12: the rules' result counts.
expect_success "rules" "$KIFU" stats --json --rules jsa f/sennichite-start.csa
grep -q '"length": {"min": 12, "median": 12,' out ||
    { echo "$name: --rules jsa"; cat out; failed=1; }
# An odd count: the middle game.
expect_success "odd median" "$KIFU" stats --json f/two-games.csa f/hankaku.kif
grep -q '"median": 2, "mean": 2.33, "max": 3' out ||
    { echo "$name: odd median"; cat out; failed=1; }

expect_success "text" "$KIFU" stats f
expect_output "text" "kifu stats: 10 records (8 even, 1 handicap, 1 other starts), rules auto

  games     records  black       %  white      %  draw      %  none      %
  all            10      3   30.0%      4  40.0%     1  10.0%     2  20.0%
  even            8      2   25.0%      4  50.0%     1  12.5%     1  12.5%
  handicap        1      1  100.0%      0   0.0%     0   0.0%     0   0.0%
  reasons     resign 6, abort 1, illegal-move 1, sennichite 1, unfinished 1
  endings     declarations 0, sennichite 1, max-moves 0
  length      min 2, median 3.50, mean 4.90, max 13 (plies)
              0-19  10  ########################################
  openings    6 different first two moves:
              7g7f 3c3d  4  40.0%
              3c3d 7g7f  2  20.0%
              2g2f 3c3d  1  10.0%
              2g2f 8c8d  1  10.0%
              2h5h 8b5b  1  10.0%
              7g7f 8c8d  1  10.0%"

# Players: as Black and as White, first and last date.
expect_success "players" "$KIFU" stats --json --by player f/two-games.csa
grep -q '"players": \[{"name": "Alice", "games": 2, "black": {"wins": 0, "losses": 1, "draws": 0, "unfinished": 0}, "white": {"wins": 0, "losses": 1, "draws": 0, "unfinished": 0}, "first": "2020-01-02", "last": "2020-01-03"}, {"name": "Bob", "games": 2, "black": {"wins": 1, "losses": 0, "draws": 0, "unfinished": 0}, "white": {"wins": 1, "losses": 0, "draws": 0, "unfinished": 0}, "first": "2020-01-02", "last": "2020-01-03"}\]' out ||
    { echo "$name: players"; cat out; failed=1; }
# The table lines up names in kanji, full-width and half-width forms:
# every row's columns start at the same terminal column.
expect_success "player table" "$KIFU" stats --by player f
sed -n '/^by player$/,$p' out | sed 1d >table
python3 - table <<'EOF' || { echo "$name: the player table is not aligned"; cat table; failed=1; }
import re, sys, unicodedata
def width(s):
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in s)
rows = [l.rstrip("\n") for l in open(sys.argv[1], encoding="utf-8")]
assert len(rows) == 17, rows
# The games column ends where its header does, in every row; so does
# the name column before it.
head = rows[0]
want = width(head[:head.index("games") + len("games")])
for r in rows[1:]:
    m = re.match(r"^  (.*?)  +(\d+)  ", r)
    assert m and width(r[:m.end(2)]) == want, (r, want)
EOF
expect_success "groups" "$KIFU" stats --by year f
# 2021: a loss and an aborted game, which is no draw.
grep -q '^  2021          2    0.0%   50.0%   0.0%  50.0%    3.50  3.50$' out ||
    { echo "$name: --by year"; cat out; failed=1; }
# The first two moves (what --by opening was before the tags): the JSON
# is the same, so that shards written then merge.
expect_success "groups json" "$KIFU" stats --json --by first-moves f
grep -q '"groups": \[{"opening": "7g7f 3c3d", "records": 4,' out ||
    { echo "$name: --by first-moves"; cat out; failed=1; }
expect_success "an old --by opening shard" "$KIFU" stats --merge "$top/testdata/stats/find-opening.json"
grep -q '^by first-moves$' out || { echo "$name: old shard"; cat out; failed=1; }

# --- merged shards, -j --------------------------------------------------------

cp -r "$top/testdata" all
# b.json: every folder of the test data but a.json's, whatever is added.
rest=$(for d in all/*/; do
	case $d in all/csa/ | all/jkf/) ;; *) printf '%s ' "${d%/}" ;; esac
done)
for by in none player event year first-moves castle matchup opening; do
	"$KIFU" stats -s --json --by $by all >one.json
	"$KIFU" stats -s --json --by $by all/csa all/jkf >a.json
	"$KIFU" stats -s --json --by $by $rest >b.json
	cat a.json b.json >ab.json
	expect_success "merge $by" "$KIFU" stats --merge --json a.json b.json
	cmp -s out one.json || { echo "$name: --merge --by $by differs"; failed=1; }
	expect_success "merge one file $by" "$KIFU" stats --merge --json ab.json
	cmp -s out one.json || { echo "$name: merge of ab.json --by $by"; failed=1; }
	for j in 1 3 8; do
		"$KIFU" stats -s -j$j --json --by $by all >j$j.json
		cmp -s j$j.json one.json ||
		    { echo "$name: -j$j --by $by differs"; failed=1; }
	done
done
expect_exit 2 "merge, other grouping" "$KIFU" stats --merge --by year a.json
expect_stderr_has "merge, other grouping" "grouped by 'opening'"
"$KIFU" stats -s --by player all >one.txt 2>/dev/null
"$KIFU" stats -s --json --by player all/csa all/jkf >a.json
"$KIFU" stats -s --json --by player $rest >b.json
expect_success "merge text" "$KIFU" stats --merge --by player a.json b.json
tail -n +2 out >merged.txt
tail -n +2 one.txt | cmp -s - merged.txt ||
    { echo "$name: merged tables differ"; failed=1; }

# A shard written before "none" and "unfinished" were counted apart (its
# unfinished and aborted games are among the draws) still merges: what it
# says is kept as it says it.
"$KIFU" stats -s --json --by player f >new.json
sed -e 's/, "none": {"count": [0-9]*, "percent": [0-9.]*}//g' \
    -e 's/, "unfinished": [0-9]*//g' new.json >old.json
grep -q '"none"\|"unfinished"' old.json && { echo "$name: old.json"; failed=1; }
expect_success "merge an old shard" "$KIFU" stats --merge --json --by player old.json
grep -q '"by_winner": {"black": {"count": 3, "percent": 30.0}, "white": {"count": 4, "percent": 40.0}, "draw": {"count": 1, "percent": 10.0}, "none": {"count": 0, "percent": 0.0}}' out ||
    { echo "$name: an old shard's counts"; cat out; failed=1; }

# --- exit codes, hostile shards ---------------------------------------------

expect_exit 1 "unreadable records" "$KIFU" stats all/kif
expect_stderr_has "unreadable records" "warning: record not counted: "
expect_stderr_has "unreadable records" "could not be read and are not counted"
expect_exit 2 "bad --by" "$KIFU" stats --by month f
expect_exit 2 "missing path" "$KIFU" stats f /nonexistent
expect_exit 2 "no path" "$KIFU" stats
expect_exit 2 "merge nothing" "$KIFU" stats --merge
printf 'not json\n' >bad1.json
printf '{"records": 1}\n' >bad2.json
printf '{"records": 1, "results": {"by_reason": {"won": 1}, "by_winner": {}}}\n' >bad3.json
"$KIFU" stats --json f/hankaku.kif |
    sed 's/"from": 0/"from": 2000000000/' >bad4.json
"$KIFU" stats --json f/hankaku.kif | sed 's/"count": 1}/"count": -1}/' >bad5.json
"$KIFU" stats --json f/hankaku.kif | sed 's/"plies": \[0, 0, 1/"plies": [0, 0, "x"/' >bad6.json
for i in 1 2 3 4 5 6; do
	expect_exit 2 "hostile shard $i" "$KIFU" stats --merge bad$i.json
	expect_stderr_has "hostile shard $i" "bad$i.json:1:"
done
# Counts that add up past 2^63 once wrapped round ("-2 records" from two
# shards of 2^63 - 1 records). Every count read is summed, and a sum past
# 2^62 is refused, so no counter can wrap: one shard of 2^61 records
# merges, two are refused at the second, and so is a shard of 2^63 - 1.
"$KIFU" stats --json f/hankaku.kif |
    sed 's/"records": 1,/"records": 2305843009213693952,/' >huge.json
expect_success "one huge shard" "$KIFU" stats --merge --json huge.json
grep -q '"records": 2305843009213693952' out ||
    { echo "$name: a huge count alone was not kept"; failed=1; }
expect_exit 2 "huge shards" "$KIFU" stats --merge huge.json huge.json
expect_stderr_has "huge shards" "huge.json:1:"
expect_stderr_has "huge shards" "counts too large in all"
grep -q -- '-[0-9]* records' out && { echo "$name: a sum wrapped"; failed=1; }
"$KIFU" stats --json f/hankaku.kif |
    sed 's/"records": 1,/"records": 9223372036854775807,/' >huge1.json
expect_exit 2 "a shard past 2^62" "$KIFU" stats --merge huge1.json
expect_stderr_has "a shard past 2^62" "counts too large in all"
"$KIFU" stats --json f/hankaku.kif |
    sed 's/"count": 1}/"count": 4611686018427387904}/g' >huge2.json
expect_exit 2 "huge counts in one shard" "$KIFU" stats --merge huge2.json
expect_stderr_has "huge counts in one shard" "counts too large in all"
expect_success "help" "$KIFU" stats --help
grep -q '^usage: kifu stats' out || { echo "$name: --help"; failed=1; }

finish
