#!/bin/sh
# Runs the libFuzzer targets one after another for SECONDS each, seeded
# from testdata/ and with each format's dictionary; crashes, leaks and
# round-trip mismatches are written to WORK/art_TARGET/ and the run goes on.
#
#   make fuzz CC=clang && sh tests/fuzz/run.sh WORK SECONDS [TARGET...]
#
# WORK keeps the growing corpora (outside the source tree); rerun with the
# same WORK to continue where a run stopped.
set -eu
work=${1:?usage: run.sh WORK SECONDS [TARGET...]}
secs=${2:?usage: run.sh WORK SECONDS [TARGET...]}
shift 2
[ $# -gt 0 ] || set -- csa usi kif ki2 jkf detect
top=$(cd "$(dirname "$0")/../.." && pwd)
for t in "$@"; do
	case $t in
	detect) seeds="$top/testdata/csa $top/testdata/kif $top/testdata/ki2 $top/testdata/jkf $top/testdata/usi" ;;
	*) seeds=$top/testdata/$t ;;
	esac
	mkdir -p "$work/corpus_$t" "$work/art_$t"
	echo "== fuzz_$t for ${secs}s"
	# -fork keeps going after a finding; each is saved for a regression.
	# CPU time is what counts (the run may share the machine): time(1)
	# writes it to WORK/cpu_TARGET, one line a run.
	/usr/bin/time -a -o "$work/cpu_$t" -f '%e s wall, %U s user, %S s sys' \
	"$top/build/fuzz/fuzz_$t" -fork=1 -ignore_crashes=1 -ignore_ooms=1 \
		-ignore_timeouts=1 -timeout=10 -rss_limit_mb=2048 \
		-max_total_time="$secs" -dict="$top/tests/fuzz/dict/$t.dict" \
		-artifact_prefix="$work/art_$t/" "$work/corpus_$t" $seeds \
		>"$work/fuzz_$t.log" 2>&1 || true
	grep -E '^#[0-9]+' "$work/fuzz_$t.log" | tail -1
	ls "$work/art_$t" | wc -l | sed 's/^/findings: /'
	tail -n 1 "$work/cpu_$t"
done
