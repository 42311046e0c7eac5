#!/bin/sh
# The names in the index: build stores them (schema version 2), update
# names what it adds with the build's definitions, find --db answers
# --opening, --castle and --side as a scan does; an index of version 1
# (before the names) is still read, refuses only the name filters, and
# kifu index retag names it and makes it version 2; --definitions is
# stored with the index and used again.
. "$(dirname "$0")/lib.sh"
top=$(cd "$TESTDATA/.." && pwd)
mkdir r
cp "$top"/testdata/tags/records/* r/

same() {	# TITLE DB PATH FILTERS...: find --db prints what a scan does
	title=$1 db=$2 path=$3; shift 3
	"$KIFU" find "$@" $path >scan.out 2>scan.err; want=$?
	"$KIFU" find "$@" --db "$db" >db.out 2>db.err; got=$?
	if [ "$want" -ne "$got" ] || ! cmp -s scan.out db.out ||
	    ! cmp -s scan.err db.err; then
		echo "$name: $title: find --db differs (exit $want, $got): $*"
		diff scan.out db.out | head -5
		diff scan.err db.err | head -5
		failed=1
	fi
}

expect_success "build" "$KIFU" index build -o g.sqlite r
[ "$(sqlite3 g.sqlite 'PRAGMA user_version')" = 2 ] ||
    { echo "$name: version"; failed=1; }
# The rows are kifu tag's names.
sqlite3 -separator ' ' g.sqlite "SELECT f.path, t.side, t.kind, t.name,
    t.family, t.ply FROM tag t JOIN record r ON r.id = t.record JOIN file f
    ON f.id = r.file WHERE f.path = 'r/shiken.ki2' ORDER BY t.rowid" >rows
printf '%s\n' "r/shiken.ki2 black style 居飛車 居飛車 0" \
    "r/shiken.ki2 black castle 居飛車穴熊 穴熊 29" \
    "r/shiken.ki2 white style 振り飛車 振り飛車 6" \
    "r/shiken.ki2 white opening 四間飛車 四間飛車 6" \
    "r/shiken.ki2 white castle 銀冠 美濃 44" \
    "r/shiken.ki2  game 四間飛車 四間飛車 " \
    "r/shiken.ki2  matchup 対抗型 対抗型 " >want
cmp -s want rows || { echo "$name: tag rows"; diff want rows; failed=1; }
for f in "--opening 向飛車" "--opening 振り飛車 --side black" \
    "--castle 美濃 -c" "--castle 銀冠 --side white --json" \
    "--opening 相掛かり --castle 中住まい --side white"; do
	# shellcheck disable=SC2086
	same "$f" g.sqlite r $f
done
expect_exit 2 "an unknown name" "$KIFU" find --db g.sqlite --opening 無い
expect_stderr_has "an unknown name" "no opening named '無い'"
expect_exit 2 "--definitions with --db" "$KIFU" find --db g.sqlite \
    --definitions "$top/testdata/tags/definitions/add.def" --opening 鬼殺し

# tree --db: the openings each move leads to, every game of it counted
# once under its 戦型 (null: none); the table shows three.
expect_success "tree json" "$KIFU" tree --db g.sqlite --json --depth 2
python3 - out <<'PY' || { echo "$name: tree openings"; cat out; failed=1; }
import json, sys
def walk(moves):
    for m in moves:
        assert sum(o["games"] for o in m["openings"]) == m["games"], m
        walk(m.get("moves", []))
t = json.load(open(sys.argv[1], encoding="utf-8"))
walk(t["moves"])
names = {o["name"] for m in t["moves"] for o in m["openings"]}
assert {"相掛かり", "角換わり", "相矢倉"} <= names, names
PY
expect_success "tree text" "$KIFU" tree --db g.sqlite
grep -q '^move        games          black          draws          white  openings$' out &&
    grep -q '^2g2f .*  相掛かり 1$' out ||
    { echo "$name: tree text"; cat out; failed=1; }

# An index made before the names: version 1, no tag table.
cp g.sqlite v1.sqlite
sqlite3 v1.sqlite "DROP TABLE tag; DELETE FROM meta WHERE key LIKE 'tag-%';
    PRAGMA user_version = 1"
same "a version 1 index" v1.sqlite r --player 甲
same "a version 1 index, -c" v1.sqlite r -c --usi "startpos moves 7g7f"
expect_exit 2 "names from version 1" "$KIFU" find --db v1.sqlite --opening 四間飛車
expect_stderr_has "names from version 1" "'v1.sqlite' has no openings and castles (schema version 1): kifu index retag adds them"
expect_success "tree of version 1" "$KIFU" tree --db v1.sqlite --json
grep -q openings out && { echo "$name: tree of version 1 names"; failed=1; }
# update keeps it version 1 (and says so), and still finds what it adds.
cp "$top/testdata/find/transpose-a.kifu" r/
expect_success "update version 1" "$KIFU" index update v1.sqlite
expect_stderr_has "update version 1" "has no openings and castles (schema version 1)"
[ "$(sqlite3 v1.sqlite 'PRAGMA user_version')" = 1 ] ||
    { echo "$name: update changed the version"; failed=1; }
same "updated version 1" v1.sqlite r --player 羽生
# retag: every record named from its stored moves, version 2.
expect_success "retag" "$KIFU" index retag v1.sqlite
expect_stderr_has "retag" "records named (schema version 1 made 2)"
[ "$(sqlite3 v1.sqlite 'PRAGMA user_version')" = 2 ] ||
    { echo "$name: retag version"; failed=1; }
for f in "--opening 四間飛車" "--castle 美濃" "--opening 居飛車 --side white"; do
	# shellcheck disable=SC2086
	same "retagged: $f" v1.sqlite r $f
done
# The same rows as a build's.
"$KIFU" index build -o fresh.sqlite r 2>/dev/null
q="SELECT f.path, r.idx, t.side, t.kind, t.name, t.family, t.ply FROM tag t
    JOIN record r ON r.id = t.record JOIN file f ON f.id = r.file ORDER BY
    f.path, r.idx, t.rowid"
sqlite3 v1.sqlite "$q" >a.rows
sqlite3 fresh.sqlite "$q" >b.rows
cmp -s a.rows b.rows || { echo "$name: retag differs from build"; diff a.rows b.rows | head; failed=1; }
# update on version 2 names what it adds.
cp "$top/testdata/tags/records/shiken.ki2" r/again.ki2
expect_success "update names" "$KIFU" index update fresh.sqlite
same "update names" fresh.sqlite r --opening 四間飛車

# --definitions: stored with the build, used by update and find --db;
# retag without it goes back to kifu's own.
printf 'startpos moves 7g7f 3c3d 8i7g 8c8d 7g6e 6a5b\n' >r/oni.usi
expect_success "build with definitions" "$KIFU" index build -o d.sqlite \
    --definitions "$top/testdata/tags/definitions/add.def" r
"$KIFU" find --definitions "$top/testdata/tags/definitions/add.def" \
    --opening 鬼殺し r >scan.out 2>&1
"$KIFU" find --db d.sqlite --opening 鬼殺し >db.out 2>&1
grep -q '^r/oni.usi: ' db.out && cmp -s scan.out db.out ||
    { echo "$name: find --db of a user's name"; cat scan.out db.out; failed=1; }
cp r/oni.usi r/oni2.usi
expect_success "update with definitions" "$KIFU" index update d.sqlite
"$KIFU" find --db d.sqlite -c --opening 鬼殺し >out
[ "$(cat out)" = 2 ] || { echo "$name: update used other definitions"; failed=1; }
expect_exit 2 "update takes no definitions" "$KIFU" index update d.sqlite \
    --definitions "$top/testdata/tags/definitions/add.def"
expect_success "retag to kifu's own" "$KIFU" index retag d.sqlite
expect_exit 2 "a name no longer defined" "$KIFU" find --db d.sqlite --opening 鬼殺し
expect_exit 2 "retag of nothing" "$KIFU" index retag
expect_exit 2 "retag with rules" "$KIFU" index retag --rules csa d.sqlite
expect_exit 2 "retag, bad definitions" "$KIFU" index retag \
    --definitions "$top/testdata/tags/definitions/bad-square.def" d.sqlite
expect_stderr_has "retag, bad definitions" "bad-square.def:2:17"
finish
