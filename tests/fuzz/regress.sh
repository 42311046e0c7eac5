#!/bin/sh
# Replays, for each fuzz target, testdata/regress/TARGET/ (every input a
# fuzzer once broke kifu with) and the target's seeds from testdata/
# through the target's oracle: parse, replay, write every format, read
# back (dump: read as every training-row format, each row checked; keys:
# every line read writes back as it was; stats: read as kifu stats
# shards, written and read back; book: every move line writes back
# and reads to the same fields; engine: the engines file, USI lines and
# answers, analysis comments; tags: definitions files, read over kifu's
# own, written back and read again; results: kifu match's results
# files, counted, written again and counted the same). BIN holds
# regress_TARGET binaries (tests/fuzz/standalone.c).
#
#   sh tests/fuzz/regress.sh build/san/fuzz
set -u
bin=${1:?usage: regress.sh BIN}
top=$(cd "$(dirname "$0")/../.." && pwd)
fail=0
for t in csa usi kif ki2 jkf detect dump keys stats book problems engine \
    tags results; do
	case $t in
	detect) seeds="csa usi kif ki2 jkf minishogi" ;;
	dump) seeds=training ;;
	keys) seeds=keys ;;
	stats) seeds=stats ;;
	book) seeds=book ;;
	problems) seeds="mate tsume" ;;
	engine) seeds=engine ;;
	tags) seeds=tags/definitions ;;
	# show/: records with evaluation comments, for the graph.
	kif | csa) seeds="$t show" ;;
	*) seeds=$t ;;
	esac
	# testdata/regress/TARGET exists once a target has had a finding.
	dirs=
	for d in "regress/$t" $seeds; do
		[ -d "$top/testdata/$d" ] && dirs="$dirs $top/testdata/$d"
	done
	# shellcheck disable=SC2086
	n=$(find $dirs -type f ! -name '*.md' ! -name '*.expect' \
		! -name SOURCES | wc -l)
	echo "== regress $t: $n inputs"
	# shellcheck disable=SC2086
	find $dirs -type f ! -name '*.md' ! -name '*.expect' ! -name SOURCES \
		-print0 | xargs -0 "$bin/regress_$t" >/dev/null || fail=1
done
exit $fail
