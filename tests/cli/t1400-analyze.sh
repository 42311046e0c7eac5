#!/bin/sh
# kifu analyze (issue 29) with the mock engine (tests/mock_engine.c,
# whose answers are legal and a function of the position): the comment
# forms and kifu's marker, other comments kept byte for byte, a re-run
# that changes nothing, JSON and its judgement, the summary, -o, -t,
# --in-place, the cache and its merge, -j, the choice of positions, the
# engines file, and the options refused before anything is analysed.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/engine.sh"
sh_src=$TESTDATA/kif/shogihome/testdata/book/source-with-score/src01.kifu

cat >g.csa <<'EOF'
V2.2
N+sente
N-gote
PI
+
+7776FU
-3334FU
+2726FU
'a comment of the player's
-8384FU
+2625FU
-8485FU
%TORYO
EOF

# --- the forms, and a re-run ---------------------------------------------------

run_analyze 0 "to stdout" --engine "$mockcmd" --nodes 100 g.csa
cp out a1.csa
n=$(grep -c "^'#kifu-analyze: 7 lines; kifu mock 1.0; nodes 100" a1.csa)
[ "$n" -eq 7 ] || { echo "$name: 7 positions, 7 markers: $n"; failed=1; }
for form in "^'#評価値=" "^'#読み筋=[▲△]" "^'#深さ=3$" "^'#ノード数=100$" \
    "^'#エンジン=kifu mock 1.0$" "^'\*解析 0  候補1 時間 00:00.0 深さ 3/5 ノード数 100 評価値 " \
    "^'\*\* -\{0,1\}[0-9]* [+-][0-9][0-9][0-9][0-9][A-Z][A-Z]"; do
	[ "$(grep -c "$form" a1.csa)" -eq 7 ] ||
	    { echo "$name: form '$form' is not on 7 positions"; failed=1; }
done
expect_stderr_has "totals" "kifu: 1 record, 7 positions: 7 searched, 0 from the cache, 0 unanalysed"
grep -qx "'a comment of the player's" a1.csa ||
    { echo "$name: the player's comment is gone"; failed=1; }
# What kifu wrote reads back: kifu's own evaluation reader (the one
# export uses) gives each move's row the score kifu wrote after it, from
# the mover's view.
expect_success "reads back" "$KIFU" validate a1.csa
"$KIFU" export -t sfen -o rows a1.csa 2>/dev/null
python3 - a1.csa rows <<'PY' || { echo "$name: export does not read kifu's scores"; failed=1; }
import sys
scores = [int(l.split()[1]) for l in open(sys.argv[1]) if l.startswith("'** ")]
rows = [l.split("\t") for l in open(sys.argv[2])]
assert len(rows) == 6 and len(scores) == 7, (len(rows), len(scores))
for k, r in enumerate(rows, 1):
    side = r[0].split()[1]
    assert int(r[2]) == (scores[k] if side == "b" else -scores[k]), (k, r)
PY
# The judgement is in the marker of the move that lost.
grep -q "^'#kifu-analyze: .*; \(疑問手\|悪手\|大悪手\) (loss [0-9]*)$" a1.csa ||
    { echo "$name: no move judged"; failed=1; }

# A second analysis replaces kifu's lines and nothing else.
run_analyze 0 "again" --engine "$mockcmd" --nodes 100 a1.csa
cmp -s out a1.csa || { echo "$name: a re-run changed the record"; diff a1.csa out | head; failed=1; }

# Another program's analysis (ShogiHome's, with its engine) is kept byte
# for byte, and kifu's block comes after it.
run_analyze 0 "shogihome record" --engine "$mockcmd" --nodes 100 "$sh_src"
cp out s1.kifu
"$KIFU" convert -t kifu "$sh_src" >plain.kifu 2>/dev/null
strip_kifu s1.kifu >stripped.kifu
cmp -s stripped.kifu plain.kifu ||
    { echo "$name: other comments changed"; diff plain.kifu stripped.kifu | head; failed=1; }
grep -A1 '^\*#エンジン=MyEngine$' s1.kifu | grep -q '^\*#kifu-analyze' ||
    { echo "$name: kifu's block is not after ShogiHome's"; failed=1; }
run_analyze 0 "shogihome again" --engine "$mockcmd" --nodes 100 s1.kifu
cmp -s out s1.kifu || { echo "$name: re-run changed s1.kifu"; failed=1; }
# A block of another program in kifu's forms, after kifu's, stays: the
# marker counts kifu's lines.
awk '{ print } /^\*\*解析 0  候補1/ && !done { print "*#評価値=12345"; done = 1 }' \
    s1.kifu >s2.kifu
run_analyze 0 "foreign line after the block" --engine "$mockcmd" --nodes 100 s2.kifu
grep -qx '\*#評価値=12345' out || { echo "$name: a foreign line was taken"; failed=1; }

# One form only.
run_analyze 0 "shogigui only" --engine "$mockcmd" --nodes 100 --comments shogigui -t kif g.csa
iconv -f CP932 -t UTF-8 out >gui.kif
grep -q '^\*#kifu-analyze: 1 line;' gui.kif && ! grep -q '^\*#評価値=' gui.kif ||
    { echo "$name: --comments shogigui"; failed=1; }
run_analyze 0 "shogihome only" --engine "$mockcmd" --nodes 100 --comments shogihome -t kifu g.csa
grep -q '^\*#kifu-analyze: 5 lines;' out && ! grep -q '^\*\*解析' out ||
    { echo "$name: --comments shogihome"; failed=1; }

# --- JSON ------------------------------------------------------------------------

run_analyze 0 "json" --engine "$mockcmd" --nodes 100 --multipv 3 --json g.csa
python3 - out <<'EOF' || failed=1
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
assert len(rows) == 7, len(rows)
keys = {"type", "file", "record", "ply", "sfen", "side", "played", "best",
        "ponder", "score_kind", "score_black", "score_mover", "mate", "bound",
        "depth", "seldepth", "nodes", "time_ms", "pv", "multipv", "best_value",
        "played_value", "loss", "class", "class_ja", "status", "error",
        "engine"}
for i, r in enumerate(rows):
    assert set(r) == keys, set(r) ^ keys
    assert r["ply"] == i and r["record"] == 0 and r["file"] == "g.csa"
    assert r["status"] == "searched" and r["engine"] == "kifu mock 1.0"
    assert len(r["multipv"]) == 3 and r["multipv"][0]["rank"] == 1
    assert r["pv"][0] == r["best"] and r["multipv"][0]["pv"] == r["pv"]
    sign = 1 if r["side"] == "black" else -1
    assert r["score_black"] == sign * r["score_mover"]
    # The MultiPV lines are 10 apart (the mock's rule).
    assert r["multipv"][1]["score_mover"] == r["score_mover"] - 10
    if i < 6:
        assert r["played"] is not None and r["loss"] is not None
        assert r["loss"] >= 0 and r["best_value"] == r["score_mover"]
        if r["played"] == r["best"]:
            assert r["loss"] == 0 and r["class"] is None
        cls = r["class"]
        want = (None if r["loss"] < 100 else "inaccuracy" if r["loss"] < 300
                else "mistake" if r["loss"] < 800 else "blunder")
        assert cls == want, (cls, r["loss"])
    else:
        assert r["played"] is None and r["loss"] is None
print("json ok", file=sys.stderr)
EOF

# The progress bar: positions, the rate, the ETA (positions counted first).
run_analyze 0 "progress" --engine "$mockcmd" --nodes 100 --json --progress g.csa
expect_stderr_has "bar" "/7 positions,"

# --- the summary ------------------------------------------------------------------

run_analyze 0 "summary" --engine "$mockcmd" --nodes 100 --summary g.csa
head -1 out | grep -q '^file  *record  side  *moves  avg loss  疑問手  悪手  大悪手  worst$' ||
    { echo "$name: summary header"; cat out; failed=1; }
[ "$(grep -c '^g.csa  *1  *\(black\|white\)  *3 ' out)" -eq 2 ] ||
    { echo "$name: summary rows"; cat out; failed=1; }
run_analyze 0 "summary json" --engine "$mockcmd" --nodes 100 --summary --json g.csa
[ "$(grep -c '"type": "summary"' out)" -eq 2 ] || { echo "$name: summary json"; failed=1; }

# --- where the records go -----------------------------------------------------------

mkdir -p in/sub
cp g.csa in/sub/a.csa
cp "$sh_src" in/b.kifu
run_analyze 0 "-o" --engine "$mockcmd" --nodes 100 -o outdir in
[ -f outdir/in/sub/a.csa ] && [ -f outdir/in/b.kifu ] ||
    { echo "$name: -o does not mirror the tree"; find outdir; failed=1; }
run_analyze 2 "-o refuses to replace" --engine "$mockcmd" --nodes 100 -o outdir in
expect_stderr_has "-o exists" "exists; not replaced (use --force)"
run_analyze 0 "-o -t" --engine "$mockcmd" --nodes 100 -o kifdir -t kif in/sub
[ -f kifdir/sub/a.kif ] || { echo "$name: -o -t kif"; find kifdir; failed=1; }
cp g.csa inplace.csa
run_analyze 0 "in place" --engine "$mockcmd" --nodes 100 --in-place inplace.csa
cmp -s inplace.csa.bak g.csa || { echo "$name: .bak is not the original"; failed=1; }
cmp -s inplace.csa a1.csa || { echo "$name: in-place result"; failed=1; }
run_analyze 2 "in place, .bak exists" --engine "$mockcmd" --nodes 100 --in-place inplace.csa
expect_stderr_has ".bak exists" "'inplace.csa.bak' exists; not replaced"
run_analyze 0 "in place, no backup" --engine "$mockcmd" --nodes 100 --in-place --no-backup inplace.csa
cmp -s inplace.csa a1.csa || { echo "$name: in-place again"; failed=1; }

# --- the cache ------------------------------------------------------------------------

run_analyze 0 "cache, first" --engine "$mockcmd" --nodes 100 --cache c.db --json g.csa
cp out j1
expect_stderr_has "searched" "7 searched, 0 from the cache"
run_analyze 0 "cache, second" --engine "$mockcmd" --nodes 100 --cache c.db --json g.csa
expect_stderr_has "cached" "0 searched, 7 from the cache"
sed 's/"status": "cached"/"status": "searched"/' out | cmp -s - j1 ||
    { echo "$name: the cache changed the JSON"; failed=1; }
# Another limit is another key.
run_analyze 0 "cache, other limit" --engine "$mockcmd" --nodes 200 --cache c.db --json g.csa
expect_stderr_has "other limit" "7 searched, 0 from the cache"
# Merged caches answer as each did.
run_analyze 0 "cache b" --engine "$mockcmd" --nodes 100 --cache b.db --json "$sh_src"
run_analyze 0 "merge" --merge-cache c.db b.db -o m.db
expect_stderr_has "merged" "results merged into m.db"
run_analyze 0 "merged" --engine "$mockcmd" --nodes 100 --cache m.db --json g.csa "$sh_src"
expect_stderr_has "merged cache" "0 searched, 18 from the cache"
run_analyze 2 "merge refuses to replace" --merge-cache c.db -o m.db
echo "not a database" >junk.db
run_analyze 2 "not a cache" --engine "$mockcmd" --nodes 100 --cache junk.db g.csa
expect_stderr_has "not a cache" "junk.db"

# --- the cache's note of the engine: a run the cache answers starts none ----------------

# A wrapper whose engine's name comes from a file: an engine that can
# change behind the same program file.
cat >eng.sh <<EOF
#!/bin/sh
exec $mock --pidfile $tmp/pids --name "\$(cat $tmp/name)"
EOF
chmod +x eng.sh
echo "kifu mock 1.0" >name
run_analyze 0 "note, first" --engine ./eng.sh --nodes 100 --cache n.db --json g.csa
cp out n1
run_analyze 0 "note, records" --engine ./eng.sh --nodes 100 --cache n.db g.csa
cp out nrec
: >pids
run_analyze 0 "note, second" --engine ./eng.sh --nodes 100 --cache n.db -j2 --json g.csa
expect_stderr_has "note, second" "0 searched, 7 from the cache, 0 unanalysed; engine 0.000 s"
expect_stderr_has "note, the name" "(kifu mock 1.0)"
[ -s pids ] && { echo "$name: a run the cache answers started an engine"; failed=1; }
sed 's/"status": "cached"/"status": "searched"/' out | cmp -s - n1 ||
    { echo "$name: the noted run's JSON differs"; failed=1; }
run_analyze 0 "note, records again" --engine ./eng.sh --nodes 100 --cache n.db g.csa
cmp -s out nrec || { echo "$name: the noted run's records differ"; failed=1; }
[ -s pids ] && { echo "$name: a run the cache answers started an engine"; failed=1; }
# Another limit or option is another note: the engine is started.
run_analyze 0 "note, other limit" --engine ./eng.sh --nodes 300 --cache n.db --json g.csa
[ -s pids ] || { echo "$name: another limit started no engine"; failed=1; }
# The program file changed (an upgrade): started again.
: >pids
echo "# changed" >>eng.sh
run_analyze 0 "note, program changed" --engine ./eng.sh --nodes 100 --cache n.db --json g.csa
[ -s pids ] || { echo "$name: a changed program was not started"; failed=1; }
expect_stderr_has "program changed" "0 searched, 7 from the cache"
# An engine changed behind the same file is caught at its first search:
# the positions it would search are left unanalysed, the cached ones
# (h.csa's start is g.csa's) answered, and the note dropped, so that the
# next run starts the engine.
cat >h.csa <<'EOF'
V2.2
PI
+
+2726FU
-8384FU
%TORYO
EOF
echo "kifu mock 2.0" >name
: >pids
run_analyze 1 "note, another engine" --engine ./eng.sh --nodes 100 --cache n.db --json g.csa h.csa
expect_stderr_has "another engine" "kifu mock 2.0 is not the engine the cache noted for this command"
expect_stderr_has "another engine, cached" "8 from the cache, 2 unanalysed"
[ "$(grep -c '"status": "failed"' out)" -eq 2 ] ||
    { echo "$name: another engine: 2 positions failed"; failed=1; }
run_analyze 0 "note dropped" --engine ./eng.sh --nodes 100 --cache n.db --json g.csa h.csa
expect_stderr_has "note dropped" "9 searched, 1 from the cache, 0 unanalysed"
expect_stderr_has "note dropped, the name" "(kifu mock 2.0)"

# --- -j: the same bytes, in input order --------------------------------------------------

for i in 1 2 3 4 5 6; do cp g.csa "in/sub/g$i.csa"; done
run_analyze 0 "-j1" --engine "$mockcmd" --nodes 100 --json -j1 in
cp out jobs1
run_analyze 0 "-j3" --engine "$mockcmd" --nodes 100 --json -j3 in
cmp -s out jobs1 || { echo "$name: -j3 differs from -j1"; failed=1; }
[ "$(sort -u pids | wc -l)" -ge 4 ] || { echo "$name: -j3 started no 3 engines"; failed=1; }

# --- which positions ---------------------------------------------------------------------

run_analyze 0 "ply range" --engine "$mockcmd" --nodes 100 --json --from-ply 2 --to-ply 4 g.csa
[ "$(grep -c '"ply": [234],' out)" -eq 3 ] && [ "$(wc -l <out)" -eq 3 ] ||
    { echo "$name: --from-ply 2 --to-ply 4"; failed=1; }
run_analyze 0 "side" --engine "$mockcmd" --nodes 100 --json --side white g.csa
# White's moves 2, 4, 6 and the positions before them: 1 to 6.
[ "$(wc -l <out)" -eq 6 ] || { echo "$name: --side white positions"; failed=1; }
[ "$(grep -c '"side": "white".*"loss": [0-9]' out)" -eq 3 ] &&
    [ "$(grep -c '"side": "black".*"loss": [0-9]' out)" -eq 0 ] ||
    { echo "$name: --side white judges White's moves only"; failed=1; }
v=$TESTDATA/kif/json-kifu-format/test/files/kif/doh_branch.kifu
run_analyze 0 "main line" --engine "$mockcmd" --nodes 100 --json "$v"
[ "$(wc -l <out)" -eq 4 ] || { echo "$name: main line of doh_branch"; failed=1; }
run_analyze 0 "variations" --engine "$mockcmd" --nodes 100 --json --variations "$v"
# Seven positions: 0-3 of the main line, 3' 4' of the first variation,
# 4'' of the second; one object a move played, so two for the position
# after move 2 (moves 3 and 3') and two after 3' (4' and 4'').
[ "$(wc -l <out)" -eq 9 ] || { echo "$name: variations"; cut -c1-80 out; failed=1; }
run_analyze 0 "variations written" --engine "$mockcmd" --nodes 100 --variations "$v"
[ "$(grep -c '^\*#kifu-analyze' out)" -eq 7 ] || { echo "$name: variations' comments"; failed=1; }

# --- minishogi: the variant set, moves on 5x5 -----------------------------------------

run_analyze 1 "minishogi, no variant" --engine "$mockcmd" --nodes 100 --json "$TESTDATA/minishogi/game.kifu"
expect_stderr_has "no minishogi" "plays no minishogi"
run_analyze 0 "minishogi" --engine "$mockcmd --variants --log $tmp/log" --nodes 100 --json \
    "$TESTDATA/minishogi/game.kifu" g.csa
grep -q "setoption name UCI_Variant value minishogi" log &&
    grep -q "setoption name UCI_Variant value shogi" log ||
    { echo "$name: variant not set per record"; failed=1; }
grep -q '"sfen": "rbsgk/4p/5/P4/KGSBR b - 1"' out || { echo "$name: minishogi sfen"; failed=1; }
# With a cache (the engine started when a search needs it): a record the
# engine cannot play fails alone, and the next ones are analysed.
run_analyze 1 "minishogi, no variant, cache" --engine "$mockcmd" --nodes 100 --cache mini.db --json \
    "$TESTDATA/minishogi/game.kifu" g.csa
expect_stderr_has "no minishogi, cache" "plays no minishogi"
expect_stderr_has "no minishogi, the rest" "7 searched, 0 from the cache"
run_analyze 0 "minishogi, cache" --engine "$mockcmd --variants --log $tmp/mlog" --nodes 100 --cache mini2.db \
    --json "$TESTDATA/minishogi/game.kifu" g.csa
cp out mini1
run_analyze 0 "minishogi, cached" --engine "$mockcmd --variants --log $tmp/mlog" --nodes 100 --cache mini2.db \
    --json g.csa "$TESTDATA/minishogi/game.kifu" g.csa
grep -c '"status": "cached"' out >/dev/null && [ "$(grep -c '"status": "searched"' out)" -eq 0 ] ||
    { echo "$name: minishogi, cached: searched again"; failed=1; }

# --- the engines file -----------------------------------------------------------------------

cat >engines.toml <<EOF
# test engines
[mock]
command = "$mockcmd --log $tmp/elog"
[mock.options]
Threads = 2
Style = "wild"
EOF
run_analyze 0 "engines file" --engines engines.toml --engine mock --nodes 100 --json g.csa
grep -q "setoption name Threads value 2" elog && grep -q "setoption name Style value wild" elog ||
    { echo "$name: the engines file's options"; failed=1; }
mkdir -p xdg/kifu
cp engines.toml xdg/kifu/engines.toml
XDG_CONFIG_HOME=$tmp/xdg run_analyze 0 "default engines file" --engine mock --nodes 100 \
    --option Threads=3 --json g.csa
grep -q "setoption name Threads value 3" elog || { echo "$name: --option over the file"; failed=1; }
printf '[mock]\ncommand = "x"\nbogus = 1\n' >bad.toml
run_analyze 2 "engines file error" --engines bad.toml --engine mock g.csa
expect_stderr_has "file:line:col" "bad.toml:3:1: unknown key 'bogus'"

# --- refused before anything is analysed --------------------------------------------------------

run_analyze 2 "unknown option" --engine "$mockcmd" --option Hash=16 g.csa
expect_stderr_has "unknown option" "kifu mock 1.0 has no option 'Hash'"
run_analyze 2 "out of range" --engine "$mockcmd" --option Threads=99 g.csa
expect_stderr_has "range" "option 'Threads' takes 1 to 4, not 99"
run_analyze 2 "wrong type" --engine "$mockcmd" --option Ponder=maybe g.csa
expect_stderr_has "type" "option 'Ponder' takes true or false"
run_analyze 2 "depth on gpsshogi" --engine "$mockcmd --name gpsshogi_mock" --depth 8 g.csa
expect_stderr_has "depth" "gpsshogi_mock does not take go depth (a search limit of --depth); nothing was analysed"
run_analyze 2 "no multipv" --engine "$mockcmd --no-multipv" --multipv 2 g.csa
expect_stderr_has "multipv" "has no MultiPV option"
for bad in "--nodes 0" "--depth x" "--thresholds 300,100,800" "--side both" \
    "--comments kif" "--json --in-place" "-t usi" "--multipv 999"; do
	# shellcheck disable=SC2086
	run_analyze 2 "usage $bad" --engine "$mockcmd" $bad g.csa
done
run_analyze 2 "no engine" g.csa
[ ! -s out ] || { echo "$name: refusals wrote output"; failed=1; }

finish
