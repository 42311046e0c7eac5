#!/bin/sh
. "$(dirname "$0")/lib.sh"

expect_success "--version" "$KIFU" --version
grep -q '^kifu [0-9]' out || { echo "$name: bad --version: $(cat out)"; failed=1; }

expect_success "help lists commands" "$KIFU" help
for c in legal moves perft; do
	grep -q "^   $c " out || { echo "$name: help lacks $c"; failed=1; }
done

expect_success "help CMD" "$KIFU" help perft
grep -q '^usage: kifu perft' out || { echo "$name: help perft"; failed=1; }
expect_success "CMD --help" "$KIFU" perft --help
grep -q '^usage: kifu perft' out || { echo "$name: perft --help"; failed=1; }

expect_exit 2 "no command" "$KIFU"
expect_exit 2 "unknown command" "$KIFU" frobnicate
expect_stderr_has "unknown command" "'frobnicate' is not a kifu command"
expect_exit 2 "help of unknown command" "$KIFU" help frobnicate
expect_exit 2 "unknown option" "$KIFU" moves --bogus
expect_stderr_has "unknown option" "usage: kifu moves"

# Output that cannot be written is trouble, never success.
if [ -w /dev/full ]; then
	expect_exit 2 "write error" sh -c "\"$KIFU\" moves >/dev/full"
	expect_stderr_has "write error" "write error"
fi
finish
