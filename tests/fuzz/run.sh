#!/bin/sh
# Runs the libFuzzer targets one after another until each has used
# SECONDS of CPU time (fuzzing, not waiting for a busy machine), seeded
# from testdata/ and with each format's dictionary. Crashes, leaks, hangs
# and round-trip mismatches are written to WORK/art_TARGET/ and the run
# goes on (fork mode). Linux (/proc) and GNU time.
#
#   make fuzz CC=clang && sh tests/fuzz/run.sh WORK SECONDS [TARGET...]
#
# WORK keeps the growing corpora (outside the source tree); rerun with the
# same WORK to continue where a run stopped. WORK/cpu_TARGET gets a line
# of CPU time per run.
set -eu
work=${1:?usage: run.sh WORK SECONDS [TARGET...]}
secs=${2:?usage: run.sh WORK SECONDS [TARGET...]}
shift 2
[ $# -gt 0 ] || set -- csa usi kif ki2 jkf detect dump keys stats book tags \
    results
top=$(cd "$(dirname "$0")/../.." && pwd)

# CPU seconds used by process $1 and the children it has reaped.
cpu_of() {
	awk '{ print int(($14 + $15 + $16 + $17) / 100) }' "/proc/$1/stat" \
	    2>/dev/null || echo 0
}

for t in "$@"; do
	case $t in
	detect) seeds="$top/testdata/csa $top/testdata/kif $top/testdata/ki2 $top/testdata/jkf $top/testdata/usi $top/testdata/minishogi" ;;
	dump) seeds=$top/testdata/training ;;
	stats) seeds=$top/testdata/stats ;;
	tags) seeds=$top/testdata/tags/definitions ;;
	*) seeds=$top/testdata/$t ;;
	esac
	mkdir -p "$work/corpus_$t" "$work/art_$t"
	echo "== fuzz_$t for ${secs} CPU seconds"
	# -fork=1 keeps going after a finding; each is saved for a regression.
	# shellcheck disable=SC2086
	# setsid: the fuzzer leads a process group of its own, so that
	# stopping it also stops the job it is running.
	/usr/bin/time -a -o "$work/cpu_$t" -f '%e s wall, %U s user, %S s sys' \
	    setsid "$top/build/fuzz/fuzz_$t" -fork=1 -ignore_crashes=1 \
		-ignore_ooms=1 -ignore_timeouts=1 -timeout=10 \
		-rss_limit_mb=2048 -dict="$top/tests/fuzz/dict/$t.dict" \
		-artifact_prefix="$work/art_$t/" "$work/corpus_$t" $seeds \
		>"$work/fuzz_$t.log" 2>&1 &
	timer=$!
	sleep 2
	fuzzer=$(pgrep -P "$timer" | head -n 1)
	while kill -0 "$timer" 2>/dev/null; do
		if [ "$(cpu_of "$fuzzer")" -ge "$secs" ]; then
			# SIGTERM (libFuzzer ignores INT in fork mode), to the
			# whole group: the fuzzer and its current job.
			kill -TERM "-$fuzzer" 2>/dev/null || true
			break
		fi
		sleep 5
	done
	wait "$timer" || true
	grep -E '^#[0-9]+' "$work/fuzz_$t.log" | tail -n 1
	echo "findings: $(ls "$work/art_$t" | wc -l)"
	tail -n 1 "$work/cpu_$t"
done
