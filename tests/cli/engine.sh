# Sourced by the engine tests (tests/cli/t14*-analyze-*.sh, t145*-match-*)
# after lib.sh.
#
# run_analyze WANT TITLE ARGS...: `kifu analyze ARGS` must exit WANT; it
# runs bounded (timeout) under tests/cli/reaper.py, and then no engine
# it started may be left: not running, not a zombie it failed to reap.
# The mock engine writes its pid on every start to ./pids ($mock has the
# flag); a real engine's pids come from the report alone.
here_engine=$(cd "$(dirname "$0")" && pwd)
reaper="$here_engine/reaper.py"
mock=${MOCK_ENGINE:-}
[ -n "$mock" ] && [ -x "$mock" ] ||
	skip "the mock engine is not built (make $MOCK_ENGINE)"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
# The mock, writing its pids where the leftover check reads them.
mockcmd="$mock --pidfile $tmp/pids"

run_engine_cmd() {
	sub=$1 want=$2 title=$3; shift 3
	rm -f left
	timeout 600 python3 "$reaper" left "$KIFU" "$sub" "$@" >out 2>err
	got=$?
	if [ "$got" -ne "$want" ]; then
		echo "$name: $title: expected exit $want, got $got"
		head -20 err
		failed=1
	fi
	no_leftovers "$title"
}

run_analyze() {
	run_engine_cmd analyze "$@"
}

# run_match WANT TITLE ARGS...: the same for `kifu match ARGS`.
run_match() {
	run_engine_cmd match "$@"
}

# no_leftovers TITLE: nothing alive after kifu exited, and no engine of
# kifu's (a pid in ./pids without "child") left a zombie.
no_leftovers() {
	[ -s left ] || return 0
	if grep -q '^alive' left; then
		echo "$name: $1: processes left running:"; cat left
		failed=1
	fi
	while read -r what pid; do
		if [ -f pids ] && grep -qx "$pid" pids; then
			echo "$name: $1: engine $pid left behind ($what)"
			failed=1
		fi
	done <left
}

# strip_kifu FILE: the file without kifu's analysis blocks (the marker
# says how many lines follow it), for comparing what else is there.
strip_kifu() {
	awk '/^[*'"'"']#kifu-analyze: [0-9]+ line/ { n = $2 + 0; next }
	    n > 0 { n--; next } { print }' "$1"
}
