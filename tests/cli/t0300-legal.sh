#!/bin/sh
. "$(dirname "$0")/lib.sh"

expect_success "opening" "$KIFU" legal 7g7f 3c3d 8h2b+ 3a2b
expect_output "opening" legal

expect_exit 1 "pawn two squares" "$KIFU" legal 7g7e
expect_output "pawn two squares" "illegal piece-movement"
expect_stderr_has "names the move" "move 1 '7g7e'"

expect_exit 1 "second move by the wrong side" "$KIFU" legal 7g7f 7f7e
expect_output "wrong side" "illegal not-own-piece"

expect_exit 1 "nifu" "$KIFU" legal --sfen "4k4/9/9/9/9/9/4P4/9/4K4 b P 1" P*5e
expect_output "nifu" "illegal nifu"

expect_exit 1 "uchifuzume" "$KIFU" legal --sfen "7lk/9/8S/9/9/9/9/7L1/8K b P 1" P*1b
expect_output "uchifuzume" "illegal uchifuzume"

expect_exit 1 "self-check" "$KIFU" legal --sfen "4k4/9/9/9/4r4/9/4B4/9/4K4 b - 1" 5g4f
expect_output "pinned bishop" "illegal self-check"

expect_exit 1 "dead piece" "$KIFU" legal --sfen "4k4/9/P8/9/9/9/9/9/4K4 b - 1" 9c9b 5a4a 9b9a
expect_output "pawn to last rank unpromoted" "illegal dead-piece"

expect_exit 2 "not USI" "$KIFU" legal 7g7
expect_stderr_has "not USI" "'7g7' is not a USI move"
expect_exit 2 "no moves" "$KIFU" legal
finish
