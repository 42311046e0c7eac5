#!/bin/sh
# kifu tag: the names of testdata/tags/records (KIF, KI2, KI2U, KIFU,
# CSA with two records, a handicap game, minishogi), -j identity, JSON,
# --compare against the records' own headers, --definitions (added,
# overridden, refused with the place of the error), --print-definitions
# reading back as the same set, unreadable records, usage errors.
. "$(dirname "$0")/lib.sh"
top=$(cd "$TESTDATA/.." && pwd)
cp -r "$top/testdata/tags/records" r

expect_success "names" "$KIFU" tag r
expect_output "names" "r/kyoochi.kif: - (handicap, 対抗型); black 居飛車: - | 左美濃@24; white 振り飛車: 向かい飛車@11 | 振り飛車穴熊@25
r/minishogi.kifu: no names (minishogi)
r/mukai.ki2u: 向飛車 (対抗型); black 居飛車: - | 左美濃@19; white 振り飛車: 向かい飛車@8 | 銀冠@34
r/shiken.ki2: 四間飛車 (対抗型); black 居飛車: - | 居飛車穴熊@29; white 振り飛車: 四間飛車@6 | 銀冠@44
r/swars.kifu: 相掛かり (相居飛車); black 居飛車: 相掛かり@4 早繰り銀@27 | 中住まい@35; white 居飛車: 相掛かり@4 | 中住まい@18
r/two.csa#0: 角換わり (相居飛車); black 居飛車: 角換わり@8 早繰り銀@25 | 居玉@30; white 居飛車: 角換わり@8 | -
r/two.csa#1: 横歩取り (相居飛車); black 居飛車: 横歩取り@15 | 中住まい@23; white 居飛車: - | -
r/yagura.kif: 相矢倉 (相居飛車); black 居飛車: 矢倉@11 | -; white 居飛車: 矢倉@22 | 金矢倉@38"
expect_stderr_has "summary" "kifu tag: 8 records: 7 named, 1 with no names, 0 unreadable"
cp out names.txt

# The same bytes whatever -j is, and from a path list.
expect_success "-j1" "$KIFU" tag -j1 r
cmp -s out names.txt || { echo "$name: -j1 differs"; failed=1; }
find r -type f | sort | "$KIFU" tag -j3 --stdin >out 2>err
cmp -s out names.txt || { echo "$name: --stdin -j3 differs"; failed=1; }

# JSON: the names, the plies and the definitions that matched.
expect_success "json" "$KIFU" tag --json r/shiken.ki2 r/minishogi.kifu
python3 - out <<'PY' || { echo "$name: json"; cat out; failed=1; }
import json, sys
a, b = [json.loads(l) for l in open(sys.argv[1], encoding="utf-8")]
assert a["file"] == "r/shiken.ki2" and a["index"] == 0 and a["named"]
assert a["game"]["name"] == "四間飛車" and a["matchup"] == "対抗型"
w = a["white"]
assert w["style"]["name"] == "振り飛車" and w["style"]["ply"] == 6
assert [(o["name"], o["ply"]) for o in w["openings"]] == [("四間飛車", 6)]
assert [(o["name"], o["family"], o["ply"]) for o in w["castles"]] == [("銀冠", "美濃", 44)]
assert a["black"]["castles"][0]["definition"].startswith("builtin:")
assert b == {"file": "r/minishogi.kifu", "index": 0, "named": False, "why": "minishogi"}
PY

# --compare: where the record's own headers say otherwise. 四間対居飛穴
# reads as 四間飛車 and 矢倉 as 相矢倉's family: no difference there.
expect_success "compare" "$KIFU" tag --compare r/swars.kifu r/shiken.ki2 r/yagura.kif
expect_output "compare" "r/swars.kifu: 相掛かり (相居飛車); black 居飛車: 相掛かり@4 早繰り銀@27 | 中住まい@35; white 居飛車: 相掛かり@4 | 中住まい@18
    先手の戦型: record 相掛かり, 早繰り銀, 新村田システム; kifu 相掛かり, 早繰り銀
r/shiken.ki2: 四間飛車 (対抗型); black 居飛車: - | 居飛車穴熊@29; white 振り飛車: 四間飛車@6 | 銀冠@44
r/yagura.kif: 相矢倉 (相居飛車); black 居飛車: 矢倉@11 | -; white 居飛車: 矢倉@22 | 金矢倉@38"
expect_success "compare json" "$KIFU" tag --compare --json r/swars.kifu
grep -qF '"differences": [{"header": "先手の戦型", "record": "相掛かり, 早繰り銀, 新村田システム", "kifu": "相掛かり, 早繰り銀"}]' out ||
    { echo "$name: compare json"; cat out; failed=1; }

# --definitions: a name added (鬼殺し, 7六歩 7七桂 6五桂) with a game rule
# ahead of kifu's; an override in place; refused files name the place.
printf 'startpos moves 7g7f 3c3d 8i7g 8c8d 7g6e 6a5b\n' >oni.usi
expect_success "added" "$KIFU" tag --definitions "$top/testdata/tags/definitions/add.def" oni.usi
expect_output "added" "oni.usi: 鬼殺し (相居飛車); black 居飛車: 鬼殺し@5 | -; white 居飛車: - | -"
printf 'startpos moves 7g7f 3c3d 8i7g 8c8d 7g6e 6a5b 9g9f 9c9d 1g1f 1c1d 9f9e 9d9e 1f1e 1d1e 3g3f 7c7d 4g4f 6c6d 2g2f 4c4d 5g5f\n' >oni21.usi
expect_success "added game" "$KIFU" tag --definitions "$top/testdata/tags/definitions/add.def" oni21.usi
grep -q '^oni21.usi: 鬼殺し (相居飛車); black 居飛車: 鬼殺し@5' out ||
    { echo "$name: the added game rule"; cat out; failed=1; }
expect_success "without" "$KIFU" tag oni21.usi
grep -q '^oni21.usi: 力戦 (相居飛車)' out || { echo "$name: 力戦"; cat out; failed=1; }
expect_success "override" "$KIFU" tag --definitions "$top/testdata/tags/definitions/override.def" r/yagura.kif r/two.csa
expect_output "override" "r/yagura.kif: 相矢倉 (相居飛車); black 居飛車: 矢倉@29 | -; white 居飛車: 矢倉@30 | 金矢倉@38
r/two.csa#0: 角換わり (相居飛車); black 居飛車: 角換わり@8 早繰り銀@25 | -; white 居飛車: 角換わり@8 | -
r/two.csa#1: 横歩取り (相居飛車); black 居飛車: 横歩取り@15 | 中住まい@23; white 居飛車: - | -"
expect_exit 2 "bad square" "$KIFU" tag --definitions "$top/testdata/tags/definitions/bad-square.def" r
expect_stderr_has "bad square" "bad-square.def:2:17: error: no rank 'x' (1-9 or *) [syntax]"
[ -s out ] && { echo "$name: output after a refused file"; failed=1; }
expect_exit 2 "bad kind" "$KIFU" tag --definitions "$top/testdata/tags/definitions/bad-kind.def" r
expect_stderr_has "bad kind" "bad-kind.def:1:1: error: no kind 'castel'"
expect_exit 2 "unknown name" "$KIFU" tag --definitions "$top/testdata/tags/definitions/unknown-name.def" r
expect_stderr_has "unknown name" "unknown-name.def:1: opening 新戦法 requires 飛車先交喚: no definition of that name"
expect_exit 2 "missing file" "$KIFU" tag --definitions nothing.def r
expect_stderr_has "missing file" "cannot read 'nothing.def'"
head -c 2000000 /dev/zero | tr '\0' '#' >huge.def
expect_exit 2 "huge file" "$KIFU" tag --definitions huge.def r
expect_stderr_has "huge file" "a definitions file of more than"

# --print-definitions: kifu's own, and with a file; the text reads back
# as the very same set.
expect_success "print" "$KIFU" tag --print-definitions
grep -q '^castle 美濃囲い    # builtin:' out || { echo "$name: print"; failed=1; }
sed 's/    # .*//' out >all.def
expect_success "print reads back" "$KIFU" tag --definitions all.def r
cmp -s out names.txt || { echo "$name: printed definitions name otherwise"; diff names.txt out; failed=1; }
expect_success "print with a file" "$KIFU" tag --print-definitions --definitions "$top/testdata/tags/definitions/add.def"
grep -q '^opening 鬼殺し    # .*add.def:4$' out || { echo "$name: print with a file"; cat out | tail; failed=1; }
expect_exit 2 "print takes no path" "$KIFU" tag --print-definitions r

# A record that cannot be read: named on stderr, exit 1, the rest named.
printf '手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   4 ２六歩(27)\n' >broken.kif
expect_exit 1 "unreadable" "$KIFU" tag broken.kif r/shiken.ki2
expect_stderr_has "unreadable" "broken.kif:5:4: warning: record not named:"
grep -q '^r/shiken.ki2: 四間飛車' out || { echo "$name: after an unreadable"; failed=1; }
expect_exit 1 "quiet" "$KIFU" tag -s broken.kif
grep -q 'warning' err && { echo "$name: -s warns"; failed=1; }

# Usage.
expect_exit 2 "write where" "$KIFU" tag --write r
expect_stderr_has "write where" "one of them"
expect_exit 2 "write both" "$KIFU" tag --write -o x --in-place r
expect_exit 2 "-o alone" "$KIFU" tag -o x r
expect_exit 2 "--replace alone" "$KIFU" tag --replace r
expect_exit 2 "--no-backup" "$KIFU" tag --write -o x --no-backup r
expect_exit 2 "unknown option" "$KIFU" tag --bogus r
expect_exit 2 "no path" "$KIFU" tag
expect_success "help" "$KIFU" tag --help
grep -q '^usage: kifu tag' out || { echo "$name: help"; failed=1; }
finish
