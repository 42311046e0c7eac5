#!/bin/sh
# kifu mate FILE: problem lines (streamed), records, -j, errors.
. "$(dirname "$0")/lib.sh"

set=$TESTDATA/mate/set.sfen
expect_exit 2 "set" "$KIFU" mate "$set"
expect_output "set" "$set:3: mate 9: G*5b 5a5b G*5c 5b5c 6e5d 5c4b G*4c 4b3a G*3b
$set:4: mate 7: R*3a L*2a L*1b 1a1b N*2d 1b1a S*1b
$set:5: mate 5: 4a2c 1b1a P*1b 1a2b 3c3b+
$set:7: mate 1: G*5b
$set:8: nomate
$set:11: mate 1: 3c2a+"
expect_stderr_has "set" "$set:9: error: Black, the side not to move, has no king to mate [no-defender-king]"
expect_stderr_has "set" "$set:10:2: error: bad SFEN: unexpected 'o' in board [syntax]"

# -j: the same bytes, in input order.
"$KIFU" mate "$set" >one 2>/dev/null
expect_exit 2 "-j 3" "$KIFU" mate -j 3 "$set"
cmp -s one out || { echo "$name: -j 3 differs"; diff one out; failed=1; }

# Standard input, and JSON with the source line.
expect_exit 2 "stdin json" sh -c "\"$KIFU\" mate --json - <\"$set\""
[ "$(grep -c '"status": "mate"' out)" -eq 5 ] ||
	{ echo "$name: stdin json mates"; cat out; failed=1; }
grep -q '"file": "<stdin>", "source_line": 10, "status": "error", "error": {"id": "syntax"' out ||
	{ echo "$name: stdin json error"; cat out; failed=1; }

# Records: the final position, or the one after --ply moves.
expect_exit 0 "kif record" "$KIFU" mate --rules problem --ply 0 \
	"$TESTDATA/tsume/jsa-20211116.kif"
expect_output "kif record" "$TESTDATA/tsume/jsa-20211116.kif:1: mate 5: 2d1c 1b1c N*2e 1c1b 4d1d"
expect_exit 0 "kif record ply 2" "$KIFU" mate --rules problem --ply 2 \
	"$TESTDATA/tsume/jsa-20211116.kif"
expect_output "kif record ply 2" "$TESTDATA/tsume/jsa-20211116.kif:1: mate 3: N*2e 1c1b 4d1d"
expect_exit 2 "ply past the end" "$KIFU" mate --ply 9 \
	"$TESTDATA/tsume/jsa-20211116.kif"
expect_stderr_has "ply past the end" "the record has 5 moves, not 9"
# After the solution the attacker, who has no king, is to be mated.
expect_exit 2 "after the end" "$KIFU" mate "$TESTDATA/tsume/jsa-20211116.csa"
expect_stderr_has "after the end" "jsa-20211116.csa:1: error: Black, the side not to move, has no king to mate [no-defender-king]"

# Hostile files: garbage, NUL bytes, a line past the limit.
printf '4k4/9/4P4/9/9/9/9/9/9 b G 1\n\000\001\002\nsfen \377\376\n' >bad.sfen
expect_exit 2 "garbage lines" "$KIFU" mate bad.sfen
expect_output "garbage lines" "bad.sfen:1: mate 1: G*5b"
expect_stderr_has "garbage lines" "bad.sfen:2"
expect_stderr_has "garbage lines" "[encoding]"
{ printf '4k4/9/4P4/9/9/9/9/9/9 b G 1\nsfen '
  head -c 5000000 /dev/zero | tr '\0' x
  printf '\n4k4/9/4P4/9/9/9/9/9/9 b G 1\n'; } >long.sfen
expect_exit 2 "a line past the limit" "$KIFU" mate long.sfen
expect_output "a line past the limit" "long.sfen:1: mate 1: G*5b
long.sfen:3: mate 1: G*5b"
expect_stderr_has "a line past the limit" "long.sfen:2:1: error: line longer than"
expect_stderr_has "a line past the limit" "[limit]"
expect_exit 2 "missing file" "$KIFU" mate nonexistent.sfen
expect_stderr_has "missing file" "cannot read 'nonexistent.sfen'"
: >empty.sfen
expect_exit 0 "empty file" "$KIFU" mate empty.sfen
printf '# nothing yet\n\n' >comments.sfen
expect_exit 0 "comments only" "$KIFU" mate comments.sfen
[ -s out ] && { echo "$name: comments only printed"; failed=1; }
finish
