#!/bin/sh
# Runs every tests/cli/t*.sh against the kifu binary given as $1 and
# prints "N passed, N failed". Further arguments pick tests by prefix:
#   sh tests/cli/run.sh build/san/kifu t0600 t07
kifu=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
shift
here=$(cd "$(dirname "$0")" && pwd)
# The graphics libraries kifu show loads keep caches until exit.
LSAN_OPTIONS=suppressions=$here/../lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}
export LSAN_OPTIONS
# The engine tests' mock (tests/mock_engine.c), built by make check-cli.
MOCK_ENGINE=${MOCK_ENGINE:-$here/../../build/san/tests/mock_engine}
export MOCK_ENGINE
# A test that cannot run here (an engine not installed) exits 77 after
# saying why: counted apart, never as passed.
pass=0 fail=0 skip=0
for t in "$here"/t*.sh; do
	if [ $# -gt 0 ]; then
		want=0
		for p in "$@"; do
			case $(basename "$t") in "$p"*) want=1 ;; esac
		done
		[ "$want" -eq 1 ] || continue
	fi
	KIFU="$kifu" TESTDATA="$here/../../testdata" sh "$t"
	rc=$?
	if [ "$rc" -eq 0 ]; then
		pass=$((pass + 1))
	elif [ "$rc" -eq 77 ]; then
		echo "SKIP: $(basename "$t")"
		skip=$((skip + 1))
	else
		echo "FAIL: $(basename "$t")"
		fail=$((fail + 1))
	fi
done
echo "cli: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
