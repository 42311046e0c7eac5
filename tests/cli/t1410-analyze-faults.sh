#!/bin/sh
# kifu analyze (issue 29) against each fault of an engine, shown by the
# mock (tests/mock_engine.c): an engine that does not start, never
# answers, dies or hangs in a search, floods or garbles its output,
# sends an illegal or empty bestmove, closes its output; and kifu
# itself interrupted. None may hang kifu (every run is bounded), leave a
# process or a zombie (tests/cli/engine.sh), or lose what was analysed.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/engine.sh"

cat >g.csa <<'EOF'
V2.2
PI
+
+7776FU
-3334FU
+2726FU
-8384FU
+2625FU
-8485FU
%TORYO
EOF

# fault NAME [--at N | --after N]: the mock's arguments for a fault,
# counting its go commands afresh.
fault() {
	f=$1; shift
	rm -f "$tmp/count" "$tmp/pids"
	echo "$mockcmd --fault $f --counter $tmp/count $*"
}

# statuses: the JSON lines' statuses, one a line, in order.
statuses() {
	python3 -c 'import json,sys
for l in open(sys.argv[1]): print(json.loads(l)["status"])' out
}

# --- the engine does not start -------------------------------------------------------

run_analyze 2 "no such file" --engine "/nonexistent/engine --flag" g.csa
expect_stderr_has "no such file" "cannot run the engine '/nonexistent/engine': no such file"
printf '#!/bin/sh\n' >notexec
chmod 644 notexec
run_analyze 2 "not executable" --engine "$tmp/notexec" g.csa
expect_stderr_has "not executable" "not executable"
run_analyze 2 "not in PATH" --engine "kifu-no-such-engine" g.csa
expect_stderr_has "not in PATH" "no such file in PATH"
run_analyze 2 "unclosed quote" --engine "$mock 'x" g.csa
expect_stderr_has "quote" "unclosed quote"
run_analyze 2 "exits at start" --engine "$(fault exit-start)" g.csa
expect_stderr_has "exit status" "(it exited with status 3)"
run_analyze 2 "no usiok" --engine "$(fault no-usiok)" --timeout-init 1000 g.csa
expect_stderr_has "usiok" "did not answer usi (usiok) within 1000 ms; ended"
run_analyze 2 "flood before usiok" --engine "$(fault flood-init)" --timeout-init 1000 g.csa
expect_stderr_has "flood" "did not answer usi (usiok) within 1000 ms"
run_analyze 2 "no readyok" --engine "$(fault no-readyok)" --timeout-init 1000 g.csa
expect_stderr_has "readyok" "did not answer isready (readyok) within 1000 ms"
[ ! -s out ] || { echo "$name: an engine that never started wrote output"; failed=1; }

# --- faults in the middle of a search: the run goes on -----------------------------------

# The engine dies in its third search (its fourth go: kifu tries the
# limit of an engine it does not know first): that position is
# unanalysed, the engine is started again, the rest is analysed.
rm -f count
run_analyze 1 "dies mid-search" --engine "$(fault die-search --at 4)" --nodes 100 --json g.csa
[ "$(statuses | tr '\n' ' ')" = "searched searched failed searched searched searched searched " ] ||
    { echo "$name: dies mid-search: $(statuses | tr '\n' ' ')"; failed=1; }
expect_stderr_has "died" "closed its output while kifu waited for bestmove (it exited with status 134)"
expect_stderr_has "restarted" "kifu mock 1.0 started again"
expect_stderr_has "reported" "the position after 2 moves is left unanalysed"
[ "$(grep -c . pids)" -eq 2 ] || { echo "$name: not one restart"; failed=1; }

# Hangs past the limit and ignores stop (and SIGTERM): stop, then kill,
# then a new engine for the next position.
rm -f count
t0=$(date +%s)
run_analyze 1 "hangs" --engine "$(fault hang-search --at 3)" --nodes 100 --timeout-search 1000 --json g.csa
t1=$(date +%s)
[ "$(statuses | tr '\n' ' ')" = "searched failed searched searched searched searched searched " ] ||
    { echo "$name: hangs: $(statuses | tr '\n' ' ')"; failed=1; }
expect_stderr_has "hang" "ran past 1000 ms and did not answer stop within"
[ $((t1 - t0)) -lt 120 ] || { echo "$name: the hang took $((t1 - t0)) s"; failed=1; }

# Answers stop, but only stop: each position is stopped and unanalysed
# (a stopped search is not the one asked for), the engine kept.
rm -f pids
run_analyze 1 "overruns" --engine "$(fault overrun --after 1)" --nodes 100 --timeout-search 300 --json g.csa
[ "$(statuses | sort -u)" = failed ] || { echo "$name: overrun analysed"; failed=1; }
expect_stderr_has "stopped" "ran past 300 ms; stopped (the position is left unanalysed)"
[ "$(grep -c . pids)" -eq 1 ] || { echo "$name: an engine that answers stop was ended"; failed=1; }

# Floods its output until stopped: the deadline still holds.
run_analyze 1 "floods" --engine "$(fault flood-search --after 1)" --nodes 100 --timeout-search 300 --to-ply 1 --json g.csa
[ "$(statuses | sort -u)" = failed ] || { echo "$name: flood analysed"; failed=1; }

# Closes its output in the second search, and keeps running.
rm -f count pids
run_analyze 1 "closes its output" --engine "$(fault close-output --at 3)" --nodes 100 --json g.csa
[ "$(statuses | tr '\n' ' ')" = "searched failed searched searched searched searched searched " ] ||
    { echo "$name: close-output: $(statuses | tr '\n' ' ')"; failed=1; }
expect_stderr_has "closed" "closed its output"

# An illegal or empty bestmove: said, unanalysed; the engine goes on.
run_analyze 1 "illegal bestmove" --engine "$(fault illegal-bestmove --after 1)" --nodes 100 --to-ply 0 --json g.csa
expect_stderr_has "illegal" "sent an illegal bestmove '5e5e'"
run_analyze 1 "empty bestmove" --engine "$(fault empty-bestmove --after 1)" --nodes 100 --to-ply 0 --json g.csa
expect_stderr_has "empty" "sent an empty bestmove"
# An illegal move in a PV: the PV is cut there, the position analysed.
run_analyze 0 "illegal pv" --engine "$(fault illegal-pv --after 1)" --nodes 100 --to-ply 0 --json g.csa
expect_stderr_has "cut" "PV 1 cut at its move 3, '5e5e'"
grep -q '"pv": \["[^"]*", "[^"]*"\]' out || { echo "$name: PV not cut to 2 moves"; failed=1; }

# Garbage and over-long lines around the answers: ignored, said.
run_analyze 0 "garbage" --engine "$(fault garbage --after 1)" --nodes 100 --json g.csa
[ "$(statuses | sort -u)" = searched ] || { echo "$name: garbage broke the analysis"; failed=1; }
run_analyze 0 "long lines" --engine "$(fault long-lines --after 1)" --nodes 100 --to-ply 1 --json g.csa
expect_stderr_has "long" "longer than 65536 bytes dropped"
# A bestmove without any info: analysed, no score; the comment says so.
run_analyze 0 "no score" --engine "$(fault no-score --after 1)" --nodes 1 g.csa
grep -q "^'#kifu-analyze: 3 lines; kifu mock 1.0; nodes 1; no score$" out ||
    { echo "$name: no score"; head -8 out; failed=1; }
# Mates: mate distance in JSON and ShogiHome's 詰み line.
run_analyze 0 "mate scores" --engine "$(fault mate-score --after 1)" --nodes 100 --to-ply 1 --json g.csa
grep -q '"score_kind": "mate", "score_black": -\{0,1\}30000, "score_mover": -\{0,1\}30000, "mate": -\{0,1\}[23]' out ||
    { echo "$name: mate json"; failed=1; }
run_analyze 0 "mate comments" --engine "$(fault mate-score --after 1)" --nodes 100 --to-ply 0 g.csa
grep -q "^'#詰み=\(先手\|後手\)勝ち:[23]手$" out || { echo "$name: 詰み line"; failed=1; }

# An engine that leaves a child in its group: the whole group is ended.
run_analyze 0 "child in the group" --engine "$mockcmd --spawn-child" --nodes 100 --to-ply 1 g.csa
child=$(awk '$2 == "child" { print $1 }' pids | tail -1)
[ -n "$child" ] && ! grep -q "alive $child" left || { echo "$name: the child survived"; failed=1; }

# --- kifu interrupted ---------------------------------------------------------------------------

# bg_analyze ARGS...: kifu analyze in the background under the reaper;
# returns once the engine runs (its pid is in ./pids).
bg_analyze() {
	rm -f pids left
	python3 "$reaper" left "$KIFU" analyze "$@" >out 2>err &
	bg=$!
	i=0
	while [ ! -s pids ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
	sleep 0.5
}

# bg_wait: waits for the background run, at most 60 s (then it is
# killed, and that is a failure); its status in $bgrc.
bg_wait() {
	i=0
	while kill -0 "$bg" 2>/dev/null && [ $i -lt 600 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	if kill -0 "$bg" 2>/dev/null; then
		echo "$name: kifu did not end within 60 s of the signal"
		kill -KILL "$bg"
		failed=1
	fi
	wait "$bg"
	bgrc=$?
}

# SIGTERM while the engine hangs: the handler ends and reaps the engines.
rm -f count
bg_analyze --engine "$(fault hang-search)" --nodes 100 --timeout-search 600000 g.csa
kill -TERM "$bg"
bg_wait
[ "$bgrc" -eq 143 ] || { echo "$name: kifu did not die of SIGTERM"; failed=1; }
no_leftovers "SIGTERM"
# SIGINT likewise.
bg_analyze --engine "$(fault hang-search)" --nodes 100 --timeout-search 600000 g.csa
kill -INT "$bg"
bg_wait
no_leftovers "SIGINT"
# SIGKILL: no handler runs; the engine goes with kifu (PR_SET_PDEATHSIG)
# and is left to init as a zombie, which is no longer kifu's to reap.
# What was analysed before is in the cache: a killed run keeps it.
bg_analyze --engine "$(fault hang-search --at 5)" --nodes 100 --cache killed.db \
    --timeout-search 600000 g.csa
i=0
while [ "$(grep -c . pids)" -lt 1 ] || ! grep -q . count 2>/dev/null ||
    [ "$(cat count)" -lt 5 ]; do
	sleep 0.1
	i=$((i + 1))
	[ $i -lt 600 ] || break
done
kifu_pid=$(pgrep -P "$bg" | head -1)
kill -KILL "$kifu_pid"
bg_wait
if grep -q '^alive' left; then echo "$name: SIGKILL left an engine running"; cat left; failed=1; fi
run_analyze 0 "after a kill" --engine "$mockcmd" --nodes 100 --cache killed.db --json g.csa
# The probe and three searches were done before the hang, and kept.
expect_stderr_has "kept" "4 searched, 3 from the cache"

finish
