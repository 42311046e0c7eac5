#!/bin/sh
# kifu validate over every CSA record in testdata/csa: each one validates
# or fails with the diagnostic judged right in validate.expect (JSON) and
# validate-human.expect.
. "$(dirname "$0")/lib.sh"
top=$(cd "$TESTDATA/.." && pwd)

(cd "$top" && find testdata/csa -name '*.csa' | LC_ALL=C sort) >list
(cd "$top" && xargs -d '\n' "$KIFU" validate --json) <list >out 2>err
cmp -s "$TESTDATA/csa/validate.expect" out ||
	{ echo "$name: JSON differs"; diff "$TESTDATA/csa/validate.expect" out | head -20; failed=1; }
grep -qv '^{.*}$' out && { echo "$name: --json printed a non-JSON line"; failed=1; }

(cd "$top" && xargs -d '\n' "$KIFU" validate) <list >out 2>err
cmp -s "$TESTDATA/csa/validate-human.expect" out ||
	{ echo "$name: human output differs"; diff "$TESTDATA/csa/validate-human.expect" out | head -20; failed=1; }

# Relative names in the messages, without writing into the source tree.
ln -s "$top/testdata" testdata
expect_exit 0 "valid file" "$KIFU" validate testdata/csa/floodgate/floodgate.csa
[ -s out ] && { echo "$name: valid file printed something"; failed=1; }
expect_exit 1 "nifu" "$KIFU" validate testdata/csa/kifu/nifu.csa
expect_output "nifu" "testdata/csa/kifu/nifu.csa:19:1: error: move 11 '+0077FU': a second unpromoted pawn on the file (nifu) [nifu]"

# Standard input is named <stdin>.
expect_exit 1 "stdin" sh -c "\"$KIFU\" validate - <testdata/csa/kifu/nifu.csa"
expect_output "stdin" "<stdin>:19:1: error: move 11 '+0077FU': a second unpromoted pawn on the file (nifu) [nifu]"

# A file that cannot be opened is trouble, and the others are still read.
expect_exit 2 "missing file" "$KIFU" validate /nonexistent.csa testdata/csa/kifu/nifu.csa
expect_stderr_has "missing file" "cannot read '/nonexistent.csa'"
grep -q 'nifu.csa:19:1' out || { echo "$name: went on after a missing file"; failed=1; }

# The foul the record's terminal reports is not a finding.
expect_exit 0 "excused foul" "$KIFU" validate testdata/csa/kifu/illegal-then-terminal.csa
expect_exit 0 "floodgate illegal summary" "$KIFU" validate --json testdata/csa/kifu/floodgate-illegal.csa
grep -q '"result": {"winner": "white", "reason": "illegal-move", "ply": 2}' out ||
	{ echo "$name: floodgate summary result"; cat out; failed=1; }

# Damaged input: a diagnostic with a place, never a crash.
printf 'PI\n+\n+7776FU\n\377\376\n' >bad-bytes.csa
expect_exit 1 "bad bytes" "$KIFU" validate bad-bytes.csa
expect_output "bad bytes" "bad-bytes.csa:4:1: error: byte 0xff is not valid UTF-8 (nor is the file CP932 or EUC-JP) [encoding]"
printf 'PI\n+\n+77\00076FU\n' >nul.csa
expect_exit 1 "NUL byte" "$KIFU" validate nul.csa
expect_output "NUL byte" "nul.csa:3:4: error: NUL byte: this is not a text file [encoding]"
printf 'hello, world\n' >hello.txt
expect_exit 1 "not a record" "$KIFU" validate --json hello.txt
grep -q '"status": "error".*"rule": "unknown-format"' out || { echo "$name: unknown format"; failed=1; }
: >empty.csa
expect_exit 1 "empty file" "$KIFU" validate empty.csa
head -c 3000 "$top/testdata/csa/floodgate/floodgate.csa" >truncated.csa
expect_exit 0 "truncated file is a shorter game" "$KIFU" validate truncated.csa
expect_exit 1 "forced format" "$KIFU" validate --from usi "$top/testdata/csa/kifu/nifu.csa"
expect_exit 2 "unknown --from" "$KIFU" validate --from xyz "$top/testdata/csa/kifu/nifu.csa"
expect_exit 2 "no file" "$KIFU" validate
finish
