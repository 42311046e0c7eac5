#!/bin/sh
# kifu tag --write: the headers go in after each record's last header,
# in the file's encoding and line ends, and every other byte stays (the
# output without the new lines is the input, byte for byte); the files
# read back to the same moves and names; -o DIR mirrors the paths (an
# archive's members under its path); --in-place keeps FILE.bak; a header
# a record has is kept unless --replace, which puts kifu's in its place;
# nothing existing is overwritten without --force.
. "$(dirname "$0")/lib.sh"
top=$(cd "$TESTDATA/.." && pwd)
cp -r "$top/testdata/tags/records" r

# The output less the lines kifu added is the input, byte for byte; and
# the lines added are the ones given (decoded), in that place.
same_but() {	# ORIG NEW ENCODING AFTER_LINE ADDED...
	python3 - "$@" <<'PY'
import sys
orig, new, enc, after = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
added = sys.argv[5:]
a = open(orig, "rb").read().splitlines(keepends=True)
b = open(new, "rb").read().splitlines(keepends=True)
got = b[after:after + len(added)]
assert [l.rstrip(b"\r\n").decode(enc) for l in got] == added, got
eol = a[after - 1][len(a[after - 1].rstrip(b"\r\n")):]
assert all(l.endswith(eol) for l in got), (got, eol)
assert b[:after] + b[after + len(added):] == a, "other bytes changed"
PY
}

expect_success "write -o" "$KIFU" tag --write -o tagged r
expect_stderr_has "write -o" "7 files written (21 header lines added, 0 replaced, 6 kept), 0 not"
[ "$(cd tagged && find . -type f | sort | tr '\n' ' ')" = "./r/kyoochi.kif ./r/minishogi.kifu ./r/mukai.ki2u ./r/shiken.ki2 ./r/swars.kifu ./r/two.csa ./r/yagura.kif " ] ||
    { echo "$name: -o wrote"; find tagged; failed=1; }
# CP932 and CRLF: after 手合割 (line 6), the last header; 戦型 was there
# and stays.
same_but r/yagura.kif tagged/r/yagura.kif cp932 6 "先手の戦型：矢倉" \
    "後手の戦型：矢倉" "後手の囲い：金矢倉" || { echo "$name: yagura.kif"; failed=1; }
# An ASCII CSA file of two records: CP932, as CSA without a declared
# encoding is; the game in $OPENING, the sides as comment lines.
python3 - r/two.csa tagged/r/two.csa <<'PY' || { echo "$name: two.csa"; failed=1; }
import sys
a = open(sys.argv[1], "rb").read().split(b"\n")
b = open(sys.argv[2], "rb").read().split(b"\n")
new = [l.decode("cp932") for l in b if l not in a]
assert new == ["$OPENING:角換わり", "'先手の戦型：角換わり, 早繰り銀",
    "'後手の戦型：角換わり", "'先手の囲い：居玉", "$OPENING:横歩取り",
    "'先手の戦型：横歩取り", "'先手の囲い：中住まい"], new
assert [l for l in b if l in a] == a
assert b[4] == "$OPENING:角換わり".encode("cp932"), b[:6]
PY
# UTF-8 (.ki2u), a record with nothing but 手合割 before its moves.
same_but r/mukai.ki2u tagged/r/mukai.ki2u utf-8 2 "戦型：向飛車" \
    "後手の戦型：向かい飛車" "先手の囲い：左美濃" "後手の囲い：銀冠" ||
    { echo "$name: mukai.ki2u"; failed=1; }
# Shogi Wars' 先手の戦法 is the opening header: kept, not doubled.
same_but r/swars.kifu tagged/r/swars.kifu utf-8 8 "戦型：相掛かり" ||
    { echo "$name: swars.kifu"; failed=1; }
# A handicap game: 下手 and 上手, and no 戦型. Its lines end in CR CR LF
# (an empty line between two), cut as kifu reads them: after 下手, line 12.
same_but r/kyoochi.kif tagged/r/kyoochi.kif cp932 12 "上手の戦型：向かい飛車" \
    "下手の囲い：左美濃" "上手の囲い：振り飛車穴熊" ||
    { echo "$name: kyoochi.kif"; failed=1; }
# Nothing to name: the file as it was.
cmp -s r/minishogi.kifu tagged/r/minishogi.kifu || { echo "$name: minishogi"; failed=1; }

# Read back: the same moves, the same names, no difference any more.
for f in yagura.kif two.csa mukai.ki2u kyoochi.kif shiken.ki2; do
	"$KIFU" convert -t usi r/$f >a.usi 2>/dev/null
	"$KIFU" convert -t usi tagged/r/$f >b.usi 2>/dev/null
	cmp -s a.usi b.usi || { echo "$name: $f moves differ"; failed=1; }
done
expect_success "read back" "$KIFU" tag --compare r
grep -v '^    ' out | sed 's,^r/,tagged/r/,' >names.txt
grep '^    先手の戦型: record 相掛かり, 早繰り銀, 新村田システム' out >>names.txt
expect_success "read back" "$KIFU" tag --compare tagged/r
sort out >o.sorted; sort names.txt >n.sorted
cmp -s o.sorted n.sorted || { echo "$name: read back"; diff n.sorted o.sorted; failed=1; }
expect_success "valid" "$KIFU" check -q tagged/r

# An existing file is not replaced without --force.
cp tagged/r/yagura.kif keep.kif
expect_exit 2 "exists" "$KIFU" tag --write -o tagged r/yagura.kif
expect_stderr_has "exists" "r/yagura.kif: not written: 'tagged/r/yagura.kif' exists (use --force)"
cmp -s keep.kif tagged/r/yagura.kif || { echo "$name: replaced"; failed=1; }
expect_success "force" "$KIFU" tag --write --force -o tagged r/yagura.kif

# --replace: kifu's names where the record's own were (戦型 on line 3).
expect_success "replace" "$KIFU" tag --write --replace -o rep r/yagura.kif
python3 - r/yagura.kif rep/r/yagura.kif <<'PY' || { echo "$name: replace"; failed=1; }
import sys
a = open(sys.argv[1], "rb").read().decode("cp932").split("\r\n")
b = open(sys.argv[2], "rb").read().decode("cp932").split("\r\n")
assert a[2] == "戦型：矢倉" and b[2:6] == ["戦型：相矢倉", "先手の戦型：矢倉",
    "後手の戦型：矢倉", "後手の囲い：金矢倉"], b[:8]
assert b[:2] + b[6:] == a[:2] + a[3:]
PY

# --in-place: FILE.bak is the original; a second run changes nothing.
cp r/shiken.ki2 s.ki2
expect_success "in place" "$KIFU" tag --write --in-place s.ki2
cmp -s s.ki2.bak r/shiken.ki2 || { echo "$name: .bak"; failed=1; }
cmp -s s.ki2 tagged/r/shiken.ki2 || { echo "$name: in place"; failed=1; }
cp s.ki2 once.ki2
expect_success "again" "$KIFU" tag --write --in-place s.ki2
expect_stderr_has "again" "0 files written"
cmp -s s.ki2 once.ki2 || { echo "$name: a second run changed it"; failed=1; }
expect_exit 2 "bak exists" "$KIFU" tag --write --in-place --replace s.ki2
expect_stderr_has "bak exists" "'s.ki2.bak' exists (use --force or --no-backup)"
cmp -s s.ki2 once.ki2 || { echo "$name: written though the .bak exists"; failed=1; }
cp r/two.csa t.csa
expect_success "no backup" "$KIFU" tag --write --in-place --no-backup t.csa
[ -e t.csa.bak ] && { echo "$name: --no-backup kept one"; failed=1; }
cmp -s t.csa tagged/r/two.csa || { echo "$name: no backup"; failed=1; }

# Archives: members under the archive's path with -o; not in place.
tar cf r.tar r
expect_success "archive -o" "$KIFU" tag --write -o arch r.tar
cmp -s arch/r.tar/r/yagura.kif tagged/r/yagura.kif || { echo "$name: archive -o"; failed=1; }
expect_exit 2 "archive in place" "$KIFU" tag --write --in-place r.tar
expect_stderr_has "archive in place" "r.tar//r/yagura.kif: not written: a member of an archive is not written in place (use -o DIR)"

# Formats without a place for the headers: copied as they were, with a
# note; a file with an unreadable record likewise; standard input has no
# name to be written under.
cp "$top/testdata/jkf/json-kifu-format/test/files/jkf/ryuou201409020101.jkf" g.jkf
printf '手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   4 ２六歩(27)\n' >broken.kif
expect_exit 1 "copied" "$KIFU" tag --write -o cp g.jkf broken.kif
expect_stderr_has "copied" "g.jkf: copied without headers: its format has no place for these headers"
expect_stderr_has "copied" "broken.kif: copied without headers: a record of it cannot be read"
cmp -s g.jkf cp/g.jkf && cmp -s broken.kif cp/broken.kif ||
    { echo "$name: copied"; failed=1; }
expect_exit 2 "stdin" "$KIFU" tag --write -o sin - <r/shiken.ki2
expect_stderr_has "stdin" "<stdin>: not written: it has no name to be written under"
# A name the file's encoding cannot hold: the file is left alone.
printf 'castle 囲い😀\n    board K59\n    plies 0\n' >emoji.def
cp r/yagura.kif e.kif
expect_exit 2 "unencodable" "$KIFU" tag --write --in-place --no-backup --definitions emoji.def e.kif
expect_stderr_has "unencodable" "cannot be written in CP932"
cmp -s e.kif r/yagura.kif || { echo "$name: unencodable written"; failed=1; }
# A path out of the directory is refused.
mkdir sub && cp r/shiken.ki2 sub/x.ki2 && cd sub
expect_exit 2 "dotdot" "$KIFU" tag --write -o ../o2 ../sub/x.ki2
expect_stderr_has "dotdot" "not written: it has no name to be written under"
cd ..
finish
