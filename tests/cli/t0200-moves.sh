#!/bin/sh
. "$(dirname "$0")/lib.sh"

expect_success "startpos" "$KIFU" moves
[ "$(wc -l <out)" -eq 30 ] || { echo "$name: startpos count"; failed=1; }
sort -c out 2>/dev/null || { echo "$name: not sorted"; failed=1; }

# Black to move with a pawn in hand and the uchifuzume square excluded.
expect_success "uchifuzume excluded" "$KIFU" moves \
	--sfen "7lk/9/8S/9/9/9/9/7L1/8K b P 1"
grep -qx 'P\*1b' out && { echo "$name: P*1b is pawn-drop mate"; failed=1; }
grep -qx 'P\*1d' out || { echo "$name: P*1d missing"; failed=1; }

expect_success "stalemate has no moves" "$KIFU" moves --sfen \
	"+R+N+SGKG+S+N+R/+B+N+SG+LG+S+N+B/P+LPP+LPP+LP/1P2P2P1/9/9/9/9/4k4 b 9P 200"
[ -s out ] && { echo "$name: stalemate printed moves"; failed=1; }

expect_success "promotion choices" "$KIFU" moves --sfen "4k4/9/4P4/9/9/9/9/9/4K4 b - 1"
grep -qx '5c5b+' out && grep -qx '5c5b' out || { echo "$name: promotion pair"; failed=1; }
finish
