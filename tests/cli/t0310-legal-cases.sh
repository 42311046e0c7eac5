#!/bin/sh
# The README demo's legality table must match the judged-by-hand
# expectations in testdata/legal/cases.expect.
. "$(dirname "$0")/lib.sh"
sh "$TESTDATA/../tests/demo.sh" "$KIFU" >demo 2>err || { echo "$name: demo failed"; cat err; failed=1; }
sed -n '/^== legality/,/^== kifu check/p' demo | sed '1d;$d' >out
cmp -s "$TESTDATA/legal/cases.expect" out ||
	{ echo "$name: verdicts differ"; diff "$TESTDATA/legal/cases.expect" out; failed=1; }
finish
