#!/bin/sh
# The long perft oracles (rules.md section 4), too slow for `make check`.
kifu=$1
fail=0
check() {
	want=$1; shift
	got=$("$kifu" perft "$@" 2>/dev/null)
	if [ "$got" = "$want" ]; then
		echo "ok   perft $* = $got"
	else
		echo "FAIL perft $*: expected $want, got $got"; fail=$((fail + 1))
	fi
}
check 547581517 6
check 516925165 --sfen "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1" 4
check 129175973 --sfen "l7l/3s5/prnp2kp1/2p1Gppnp/1P7/PnPP1P3/3BP2PP/1S1G5/LN1K1G1+rL b SBG3ps 91" 4
check 207741677 --sfen "8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w Sbgn3p 124" 4
check 13033326 --force --sfen "k+n7/sg7/9/9/9/9/+r5K1g/7L1/2LN1R1+Bb b RBGSNLP 1" 4
check 112911856 --sfen "9/9/9/3k5/9/5K3/9/9/9 b RB2G2S2N2L9Prb2g2s2n2l9p 1" 3
echo "slow: $((6 - fail)) passed, $fail failed"
[ "$fail" -eq 0 ]
