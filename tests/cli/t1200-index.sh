#!/bin/sh
# kifu index, find --db and tree --db: the index answers every filter as
# a scan of the indexed paths does (output, stderr, exit code, order),
# also after an update that adds, changes and deletes files; a build
# killed mid-run leaves the old index readable; tree's counts are a
# scan's; the schema version, foreign and damaged files are refused.
. "$(dirname "$0")/lib.sh"
top=$(cd "$TESTDATA/.." && pwd)
cp -R "$top/testdata" td

# scan_equals_db TITLE DB PATH FILTERS...: find over PATH and find --db
# DB print the same, to stdout and stderr, and exit alike.
scan_equals_db() {
	title=$1 db=$2 path=$3; shift 3
	"$KIFU" find -j2 --no-progress "$@" $path >scan.out 2>scan.err
	want=$?
	"$KIFU" find "$@" --db "$db" >db.out 2>db.err
	got=$?
	if [ "$want" -ne "$got" ] || ! cmp -s scan.out db.out ||
	    ! cmp -s scan.err db.err; then
		echo "$name: $title: find --db differs from the scan" \
		    "(exit $want, $got): $*"
		diff scan.out db.out | head -5
		diff scan.err db.err | head -5
		failed=1
	fi
}

# every_filter TITLE DB PATH: scan_equals_db for each filter and output.
every_filter() {
	for f in "" "--json" "-l" "-c" "-s" "--player 羽生" "--black habu" \
	    "--white 森内" "--event 竜王" "--date 2020.." "--date ..2010-05" \
	    "--date 2014" "--moves 50..100" "--moves ..20" "--result resign" \
	    "--result sennichite" "--winner white" "--winner none" \
	    "--handicap any" "--handicap other" "--handicap bishop" \
	    "--format csa" "--format kif" "--regex --player ^ha" \
	    "--exact --player Alice" "--player a --player b" \
	    "-l --player a --date 2000.."; do
		# shellcheck disable=SC2086 # the words of a filter
		scan_equals_db "$1" "$2" "$3" $f
	done
	scan_equals_db "$1" "$2" "$3" --usi startpos
	scan_equals_db "$1" "$2" "$3" --usi "startpos moves 7g7f"
	scan_equals_db "$1" "$2" "$3" --json --usi "startpos moves 2g2f"
	scan_equals_db "$1" "$2" "$3" --variations \
	    --usi "startpos moves 7g7f 3c3d"
	scan_equals_db "$1" "$2" "$3" --board-only \
	    --usi "startpos moves 7g7f 3c3d"
	scan_equals_db "$1" "$2" "$3" -c --winner black \
	    --usi "startpos moves 2g2f"
	scan_equals_db "$1" "$2" "$3" --player 羽生 --json \
	    --usi "startpos moves 7g7f"
	scan_equals_db "$1" "$2" "$3" --sfen \
	    "lnsgkgsnl/1r7/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 1"
	# The openings and castles (kifu tag) the index stores.
	for f in "--opening 四間飛車" "--opening 振り飛車 --side white" \
	    "--opening 居飛車 --side black -c" "--castle 美濃" \
	    "--castle 美濃囲い" "--opening 矢倉 --castle 金矢倉 --side black" \
	    "--opening 相掛かり --json" "-l --castle 穴熊" \
	    "--opening 三間飛車 --winner black" \
	    "--opening 角換わり --opening 早繰り銀" "--castle 居玉 --moves ..60" \
	    "--opening 石田流 --player a"; do
		# shellcheck disable=SC2086 # the words of a filter
		scan_equals_db "$1" "$2" "$3" $f
	done
	scan_equals_db "$1" "$2" "$3" --opening 中飛車 \
	    --usi "startpos moves 7g7f"
}

# --- build, and every filter against a scan -------------------------------

expect_success "build" "$KIFU" index build -j2 -o all.sqlite td
expect_stderr_has "build report" "records of"
[ "$(sqlite3 all.sqlite 'PRAGMA user_version')" = 2 ] &&
    [ "$(sqlite3 all.sqlite 'PRAGMA journal_mode')" = wal ] ||
    { echo "$name: schema version or WAL not set"; failed=1; }
every_filter "testdata" all.sqlite td

# SQL as a user of the schema (doc/archives.md) writes it runs as written.
sqlite3 all.sqlite "SELECT r.black, r.white, r.winner, r.reason FROM record r
    JOIN header h ON h.record = r.id WHERE h.id = 'event' AND h.value
    LIKE '%竜王%' LIMIT 1" >sql.out && [ -s sql.out ] ||
    { echo "$name: a user's query"; failed=1; }

# --- tree: the counts of a scan -------------------------------------------

# How a scan would run (-j, progress) means nothing to the index: taken.
expect_success "db takes -j" "$KIFU" find --db all.sqlite -j2 --no-progress \
    -c --player 羽生
expect_success "tree json" "$KIFU" tree --db all.sqlite --json
cp out tree.json
python3 - tree.json >moves.txt <<'EOF' || failed=1
import json, sys
t = json.load(open(sys.argv[1]))
assert set(t) == {"sfen", "games", "moves"}, t.keys()
prev = None
for m in t["moves"]:
    assert set(m) == {"move", "games", "black", "draws", "white",
        "openings"}, m
    key = (-m["games"], m["move"])
    assert prev is None or prev <= key, "not sorted by games"
    prev = key
    print(m["move"], m["games"], m["black"], m["draws"], m["white"])
EOF
games=$("$KIFU" find -c --usi startpos td 2>/dev/null)
grep -q "\"games\": $games," tree.json ||
    { echo "$name: tree games at the start, not $games"; failed=1; }
while read -r mv g b d w; do
	pos="startpos moves $mv"
	count() { "$KIFU" find -c --usi "$pos" "$@" td 2>/dev/null; }
	sg=$(count) sb=$(count --winner black) sw=$(count --winner white)
	sd=$(($(count --winner none) - $(count --result unfinished) -
	    $(count --result abort)))
	[ "$g $b $d $w" = "$sg $sb $sd $sw" ] ||
	    { echo "$name: tree $mv: $g $b $d $w, a scan $sg $sb $sd $sw"; \
	    failed=1; }
done <moves.txt
[ "$(wc -l <moves.txt)" -ge 5 ] || { echo "$name: tree: few moves"; failed=1; }
expect_success "tree text" "$KIFU" tree --db all.sqlite --depth 2 \
    --usi "startpos moves 7g7f"
grep -q '^3c3d  ' out && grep -q '^  2g2f  ' out ||
    { echo "$name: tree --depth 2"; cat out; failed=1; }
expect_exit 1 "tree of a position no game reached" "$KIFU" tree \
    --db all.sqlite --sfen "4k4/9/9/9/9/9/9/9/4K4 b - 1"

# --- update: added, changed, deleted files ---------------------------------

mkdir u
cp td/find/*.kifu td/find/*.csa u/
rm u/two-games.csa
expect_success "build small" "$KIFU" index build -o u.sqlite u
every_filter "before the update" u.sqlite u
cp td/find/two-games.csa u/                     # added
cp td/find/hankaku.kif u/HANKAKU.KIF            # added, upper case
rm u/transpose-b.csa                            # deleted
sed 's/羽生善治/羽生名人/' u/transpose-a.kifu >x && mv x u/transpose-a.kifu
expect_success "update" "$KIFU" index update u.sqlite
every_filter "after the update" u.sqlite u
[ "$(sqlite3 u.sqlite "SELECT count(*) FROM file WHERE path =
    'u/transpose-b.csa'")" = 0 ] || { echo "$name: deleted file kept"; \
    failed=1; }
# Nothing changed: nothing read again, the answers the same.
expect_success "update again" "$KIFU" index update u.sqlite
expect_stderr_has "update again" "updated: 0 records of 0 files"
every_filter "after an empty update" u.sqlite u
# A path given to update joins the index.
mkdir v && cp td/find/white-first.usi v/
expect_success "update with a path" "$KIFU" index update u.sqlite v
scan_equals_db "a new path" u.sqlite "u v" --usi startpos
"$KIFU" find --db u.sqlite -l >out
grep -q '^v/white-first.usi$' out ||
    { echo "$name: update PATH"; cat out; failed=1; }
# No position left that no record reaches.
[ "$(sqlite3 u.sqlite "SELECT count(*) FROM position p WHERE NOT EXISTS
    (SELECT 1 FROM occurrence o WHERE o.position = p.id)")" = 0 ] ||
    { echo "$name: orphan positions"; failed=1; }

# --- a build killed mid-run leaves the old index ----------------------------

# One file of 20,000 records: the build is still reading it when killed.
awk 'FNR == 1 && NR > 1 { exit } { line[NR] = $0 } END {
	for (g = 0; g < 20000; g++) {
		for (i = 1; i <= NR; i++) print line[i]
		print "/"
	}
}' td/find/transpose-b.csa >big.csa
"$KIFU" find --db u.sqlite --player 羽生 >before.out
"$KIFU" index build -j1 --force -o u.sqlite big.csa 2>/dev/null &
pid=$!
n=0
while [ $n -lt 400 ] && ! ls u.sqlite.tmp.* >/dev/null 2>&1; do
	sleep 0.05
	n=$((n + 1))
done
sleep 0.3
kill -9 $pid 2>/dev/null
wait $pid 2>/dev/null
ls u.sqlite.tmp.* >/dev/null 2>&1 ||
    { echo "$name: the build left no temporary file to find"; failed=1; }
expect_success "old index after a kill" "$KIFU" find --db u.sqlite \
    --player 羽生
cmp -s before.out out ||
    { echo "$name: the old index changed under a killed build"; failed=1; }
[ "$(sqlite3 u.sqlite 'PRAGMA integrity_check')" = ok ] ||
    { echo "$name: integrity after a kill"; failed=1; }
ls | grep -v '^u\.sqlite\.tmp\.' | grep '^u\.sqlite' | sort >left.out
printf 'u.sqlite\n' >left.expect
# WAL side files may stand beside an index that is open: none is.
cmp -s left.expect left.out ||
    { echo "$name: stray files after a kill:"; cat left.out; failed=1; }
# The next build removes the temporary file the killed one left.
expect_success "build after a kill" "$KIFU" index build --force \
    -o u.sqlite u
if ls u.sqlite.tmp.* >/dev/null 2>&1; then
	echo "$name: stale temporary file kept"; failed=1
fi

# --- readers go on while an update runs (WAL) ---------------------------------

mkdir w && cp td/find/transpose-a.kifu w/
expect_success "build w" "$KIFU" index build -o w.sqlite w
"$KIFU" find --db w.sqlite --player 羽生 >w.before
head -n 40000 big.csa >w/many.csa
"$KIFU" index update w.sqlite 2>/dev/null &
pid=$!
n=0
while kill -0 $pid 2>/dev/null && [ $n -lt 20 ]; do
	"$KIFU" find --db w.sqlite --player 羽生 >w.now 2>w.err
	rc=$?
	# The old state until the update commits: never an error.
	if [ $rc -ne 0 ] || { ! cmp -s w.before w.now &&
	    [ "$(sed -n 1p w.now)" != "$(sed -n 1p w.before)" ]; }; then
		echo "$name: a reader during an update: exit $rc"; cat w.err
		failed=1
		break
	fi
	n=$((n + 1))
done
wait $pid || { echo "$name: the update under readers failed"; failed=1; }

# An update killed mid-run changes nothing: one transaction.
"$KIFU" find --db w.sqlite -c >w.before
cp big.csa w/more.csa
"$KIFU" index update w.sqlite 2>/dev/null &
pid=$!
sleep 0.5
kill -9 $pid 2>/dev/null
wait $pid 2>/dev/null
expect_success "after a killed update" "$KIFU" find --db w.sqlite -c
cmp -s w.before out ||
    { echo "$name: a killed update changed the index"; failed=1; }
[ "$(sqlite3 w.sqlite 'PRAGMA integrity_check')" = ok ] ||
    { echo "$name: integrity after a killed update"; failed=1; }
expect_success "update after a kill" "$KIFU" index update w.sqlite
scan_equals_db "after a killed update" w.sqlite w -c

# --- refusals: usage, foreign and damaged files ------------------------------

expect_exit 2 "build without -o" "$KIFU" index build u
expect_exit 2 "build over an index" "$KIFU" index build -o u.sqlite u
expect_stderr_has "build over an index" "--force"
echo "not a database" >notes.txt
expect_exit 2 "build over another file" "$KIFU" index build --force \
    -o notes.txt u
expect_stderr_has "build over another file" "is not a kifu index"
[ "$(cat notes.txt)" = "not a database" ] ||
    { echo "$name: a user's file was replaced"; failed=1; }
expect_exit 2 "find --db with a path" "$KIFU" find --db u.sqlite u
expect_exit 2 "find --db with rules" "$KIFU" find --db u.sqlite --rules csa
expect_exit 2 "tree without --db" "$KIFU" tree
expect_exit 2 "update with rules" "$KIFU" index update u.sqlite --rules csa
expect_exit 2 "not sqlite" "$KIFU" find --db notes.txt
expect_stderr_has "not sqlite" "is not a kifu index"
expect_exit 2 "missing" "$KIFU" tree --db nowhere.sqlite
sqlite3 other.sqlite "CREATE TABLE t(x); INSERT INTO t VALUES(1)"
expect_exit 2 "another schema" "$KIFU" find --db other.sqlite
expect_stderr_has "another schema" "is not a kifu index"
expect_exit 2 "update another schema" "$KIFU" index update other.sqlite
cp u.sqlite v9.sqlite
sqlite3 v9.sqlite "PRAGMA user_version = 9"
expect_exit 2 "another version" "$KIFU" find --db v9.sqlite
expect_stderr_has "another version" "schema version 9"
expect_exit 2 "tree, another version" "$KIFU" tree --db v9.sqlite
expect_exit 2 "update, another version" "$KIFU" index update v9.sqlite
head -c 12000 u.sqlite >cut.sqlite
expect_exit 2 "truncated" "$KIFU" find --db cut.sqlite --player a
expect_exit 2 "truncated tree" "$KIFU" tree --db cut.sqlite
for bad in "UPDATE record SET plies = 'many'" \
    "UPDATE record SET winner = 7" "UPDATE record SET start = 'x'" \
    "UPDATE header SET id = 'nonsense'" "UPDATE file SET seq = 'late'" \
    "UPDATE record SET variant = 'chess'"; do
	cp u.sqlite bad.sqlite
	sqlite3 bad.sqlite "$bad" 2>/dev/null
	expect_exit 2 "$bad" "$KIFU" find --db bad.sqlite
	expect_stderr_has "$bad" "kifu: error:"
done
cp u.sqlite bad.sqlite
sqlite3 bad.sqlite "UPDATE occurrence SET move = 'P*1a' WHERE move IS NOT NULL"
expect_exit 2 "tree of an illegal stored move" "$KIFU" tree --db bad.sqlite \
    --depth 2
cp u.sqlite bad.sqlite
sqlite3 bad.sqlite "UPDATE position SET sfen = x'00ff'"
expect_exit 2 "position of the wrong type" "$KIFU" tree --db bad.sqlite
# A result or a move the index should not hold is damage, not a draw or
# text pasted into the JSON.
for bad in "UPDATE record SET winner = 'purple'" \
    "UPDATE record SET reason = 'lunch'" \
    "UPDATE occurrence SET move = 'a\"b' WHERE move IS NOT NULL"; do
	cp u.sqlite bad.sqlite
	sqlite3 bad.sqlite "$bad" 2>/dev/null
	expect_exit 2 "tree: $bad" "$KIFU" tree --db bad.sqlite --json
	expect_stderr_has "tree: $bad" "kifu: error:"
done
cp u.sqlite bad.sqlite
sqlite3 bad.sqlite "UPDATE record SET format = 'bogus'"
expect_exit 2 "a format with no name" "$KIFU" find --db bad.sqlite --format kif
expect_stderr_has "a format with no name" "damaged kifu index"
expect_success "help" "$KIFU" index --help
expect_success "help" "$KIFU" tree --help

finish
