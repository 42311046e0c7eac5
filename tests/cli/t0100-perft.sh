#!/bin/sh
. "$(dirname "$0")/lib.sh"

expect_success "perft 3" "$KIFU" perft 3
expect_output "perft 3" 25470
expect_stderr_has "rate on stderr" "nodes/s"

expect_success "perft 0" "$KIFU" perft 0
expect_output "perft 0" 1

expect_success "perft from sfen" "$KIFU" perft --sfen \
	"sfen 7lk/9/8S/9/9/9/9/7L1/8K b P 1" 3
expect_output "uchifuzume trap" 10786

expect_success "minishogi" "$KIFU" perft --variant minishogi 4
expect_output "minishogi" 35401

expect_success "divide" "$KIFU" perft --divide 2
[ "$(wc -l <out)" -eq 31 ] || { echo "$name: divide rows"; failed=1; }
grep -qx '7g7f 30' out || { echo "$name: divide lacks 7g7f 30"; failed=1; }
[ "$(tail -n 1 out)" = 900 ] || { echo "$name: divide total"; failed=1; }

expect_exit 2 "bad depth" "$KIFU" perft x
expect_exit 2 "negative depth" "$KIFU" perft -- -1
expect_exit 2 "no depth" "$KIFU" perft
expect_exit 2 "bad sfen" "$KIFU" perft --sfen "lnsgkgsnl/9 b - 1" 1
expect_stderr_has "bad sfen" "[sfen-syntax]"
expect_exit 2 "impossible sfen" "$KIFU" perft \
	--sfen "k+n7/sg7/9/9/9/9/+r5K1g/7L1/2LN1R1+Bb b RBGSNLP 1" 1
expect_stderr_has "impossible sfen" "[too-many-pieces]"
expect_success "impossible sfen forced" "$KIFU" perft --force \
	--sfen "k+n7/sg7/9/9/9/9/+r5K1g/7L1/2LN1R1+Bb b RBGSNLP 1" 2
expect_output "forced" 1148
finish
