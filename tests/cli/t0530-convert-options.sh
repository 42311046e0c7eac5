#!/bin/sh
# kifu convert: BOD output and --ply, --in-place and its backup,
# --replace-unencodable, and standard input and output for each format.
. "$(dirname "$0")/lib.sh"

# Inputs are copied here: nothing is ever written into the source tree.
sed -n 2p "$TESTDATA/usi/games.usi" >even.usi
sed -n 3p "$TESTDATA/usi/games.usi" >bishop.usi
cp "$TESTDATA/csa/floodgate/floodgate.csa" fg.csa
cp "$TESTDATA/kif/json-kifu-format/test/files/kif/henka.kif" henka.kif

# ---- BOD ----

expect_success "bod --ply 0" "$KIFU" convert -t bod --encoding UTF-8 --ply 0 even.usi
expect_output "bod --ply 0" "後手の持駒：なし
  ９ ８ ７ ６ ５ ４ ３ ２ １
+---------------------------+
|v香v桂v銀v金v玉v金v銀v桂v香|一
| ・v飛 ・ ・ ・ ・ ・v角 ・|二
|v歩v歩v歩v歩v歩v歩v歩v歩v歩|三
| ・ ・ ・ ・ ・ ・ ・ ・ ・|四
| ・ ・ ・ ・ ・ ・ ・ ・ ・|五
| ・ ・ ・ ・ ・ ・ ・ ・ ・|六
| 歩 歩 歩 歩 歩 歩 歩 歩 歩|七
| ・ 角 ・ ・ ・ ・ ・ 飛 ・|八
| 香 桂 銀 金 玉 金 銀 桂 香|九
+---------------------------+
先手の持駒：なし"
expect_stderr_has "bod names the loss" "bod holds only the start position; dropped: 22 moves, 1 terminal"

# A middle ply: the hands, the move that led there (同 as KIF writes
# it), the side to move.
expect_success "bod --ply 10" "$KIFU" convert -t bod --encoding UTF-8 --ply 10 even.usi
expect_output "bod --ply 10" "後手の持駒：歩　
  ９ ８ ７ ６ ５ ４ ３ ２ １
+---------------------------+
|v香v桂v銀v金v玉 ・v銀v桂v香|一
| ・v飛 ・ ・ ・ ・v金v角 ・|二
|v歩 ・v歩v歩v歩v歩 ・ ・v歩|三
| ・ ・ ・ ・ ・ ・v歩v歩 ・|四
| ・v歩 ・ ・ ・ ・ ・ ・ ・|五
| ・ ・ 歩 ・ ・ ・ ・ ・ ・|六
| 歩 歩 ・ 歩 歩 歩 歩 ・ 歩|七
| ・ 角 金 ・ ・ ・ ・ 飛 ・|八
| 香 桂 銀 ・ 玉 金 銀 桂 香|九
+---------------------------+
先手の持駒：なし
手数＝10  △同　歩(23)  まで"

# A handicap game names the sides 上手/下手; 上手 moves first.
expect_success "bod handicap" "$KIFU" convert -t bod --encoding UTF-8 --ply 2 bishop.usi
sed -n '1p; 14,$p' out >got
printf '%s\n' "上手の持駒：なし" "下手の持駒：なし" "手数＝2  ▲７六歩(77)  まで" "上手番" >want
cmp -s want got || { echo "$name: bod handicap labels"; diff want got; failed=1; }

# Without --ply: after the main line's last legal move. Written in CP932
# like .kif, it reads back as KIF, move number and all.
expect_success "bod to a file" "$KIFU" convert -t bod -o fg.bod fg.csa
expect_success "bod reads back" "$KIFU" validate --json fg.bod
grep -q '"format": "kif", "encoding": "CP932"' out ||
	{ echo "$name: fg.bod is not CP932 KIF"; cat out; failed=1; }
"$KIFU" convert -t sfen fg.bod >a.sfen 2>/dev/null
"$KIFU" convert -t sfen fg.csa >b.sfen 2>/dev/null
cmp -s a.sfen b.sfen || { echo "$name: bod position"; diff a.sfen b.sfen; failed=1; }
grep -q ' 126$' a.sfen || { echo "$name: bod move number"; cat a.sfen; failed=1; }
for p in 0 1 64; do
	"$KIFU" convert -t bod --ply $p -o p$p.bod fg.csa 2>/dev/null
	"$KIFU" convert -t sfen p$p.bod >a.sfen 2>/dev/null
	"$KIFU" convert -t sfen --ply $p fg.csa >b.sfen 2>/dev/null
	cmp -s a.sfen b.sfen || { echo "$name: bod --ply $p"; diff a.sfen b.sfen; failed=1; }
done

expect_exit 1 "--ply beyond the end" "$KIFU" convert -t bod --ply 126 -o late.bod fg.csa
expect_stderr_has "--ply beyond the end" "no bod for ply 126: the main line has 125 legal moves"
[ -e late.bod ] && { echo "$name: wrote a diagram past the end"; failed=1; }
expect_success "--ply at the end" "$KIFU" convert -t bod --ply 125 fg.csa
expect_exit 2 "--ply with csa" "$KIFU" convert -t csa --ply 3 fg.csa
expect_exit 2 "--ply not a number" "$KIFU" convert -t bod --ply x fg.csa
expect_exit 1 "bod holds one record" "$KIFU" convert -t bod "$TESTDATA/usi/games.usi"
expect_exit 1 "--strict bod" "$KIFU" convert -t bod --strict fg.csa
expect_success "--strict bod of a bare position" "$KIFU" convert -t bod --strict p0.bod

# ---- --in-place ----

"$KIFU" convert -t kif henka.kif >canon.kif 2>/dev/null
cp henka.kif orig.kif
chmod 640 henka.kif
expect_success "--in-place" "$KIFU" convert --in-place -t kif henka.kif
[ -s out ] && { echo "$name: --in-place wrote to stdout"; failed=1; }
cmp -s henka.kif canon.kif || { echo "$name: --in-place result"; failed=1; }
cmp -s henka.kif.bak orig.kif || { echo "$name: .bak is not the original"; failed=1; }
[ "$(ls -l henka.kif | cut -c1-10)" = "-rw-r-----" ] ||
	{ echo "$name: --in-place changed the mode"; ls -l henka.kif; failed=1; }
ls | grep -q kifu-tmp && { echo "$name: left a temporary file"; failed=1; }

# An existing backup is kept unless --force, and then nothing changes.
cp henka.kif.bak bak.before
echo "* edited" >>henka.kif
cp henka.kif edited.kif
expect_exit 2 "--in-place, .bak exists" "$KIFU" convert --in-place -t kif henka.kif
expect_stderr_has "--in-place, .bak exists" "'henka.kif.bak' exists; not replaced"
cmp -s henka.kif edited.kif || { echo "$name: changed the file anyway"; failed=1; }
cmp -s henka.kif.bak bak.before || { echo "$name: replaced the .bak"; failed=1; }
"$KIFU" convert -t kif edited.kif >canon2.kif 2>/dev/null
expect_success "--in-place --force" "$KIFU" convert --in-place --force -t kif henka.kif
cmp -s henka.kif.bak edited.kif || { echo "$name: --force .bak"; failed=1; }
cmp -s henka.kif canon2.kif || { echo "$name: --force result"; failed=1; }

rm henka.kif.bak
cp orig.kif henka.kif
expect_success "--no-backup" "$KIFU" convert --in-place --no-backup -t kif henka.kif
[ -e henka.kif.bak ] && { echo "$name: --no-backup made a .bak"; failed=1; }
cmp -s henka.kif canon.kif || { echo "$name: --no-backup result"; failed=1; }

# The target must be the format the name says; one real file; no -o.
expect_exit 2 "--in-place into another format" "$KIFU" convert --in-place -t csa henka.kif
expect_stderr_has "--in-place into another format" "not a csa file's"
expect_exit 2 "--in-place kif as kifu" "$KIFU" convert --in-place -t kifu henka.kif
expect_exit 2 "--in-place two files" "$KIFU" convert --in-place -t kif henka.kif orig.kif
expect_exit 2 "--in-place stdin" "$KIFU" convert --in-place -t kif -
expect_exit 2 "--in-place -o" "$KIFU" convert --in-place -t kif -o x.kif henka.kif
expect_exit 2 "--no-backup alone" "$KIFU" convert --no-backup -t kif henka.kif
cmp -s henka.kif canon.kif || { echo "$name: a refused --in-place wrote"; failed=1; }

# An illegal record is not written over the file, and no .bak is made.
cp "$TESTDATA/csa/kifu/nifu.csa" nifu.csa
cp nifu.csa nifu.orig
expect_exit 1 "--in-place illegal" "$KIFU" convert --in-place -t csa nifu.csa
cmp -s nifu.csa nifu.orig || { echo "$name: illegal record replaced"; failed=1; }
[ -e nifu.csa.bak ] && { echo "$name: .bak of an unconverted file"; failed=1; }

# A diagram normalised in place stays a diagram; a CSA file stays CSA.
cp p64.bod norm.bod
expect_success "--in-place bod" "$KIFU" convert --in-place --no-backup -t bod norm.bod
cmp -s norm.bod p64.bod || { echo "$name: bod not stable in place"; failed=1; }
cp fg.csa norm.csa
"$KIFU" convert -t csa fg.csa >canon.csa 2>/dev/null
expect_success "--in-place csa" "$KIFU" convert --in-place -t csa norm.csa
cmp -s norm.csa canon.csa || { echo "$name: csa in place"; failed=1; }

if [ "$(id -u)" != 0 ]; then
	mkdir ro && cp orig.kif ro/h.kif && chmod 555 ro
	expect_exit 2 "--in-place, read-only directory" "$KIFU" convert --in-place -t kif ro/h.kif
	cmp -s ro/h.kif orig.kif || { echo "$name: read-only in place"; failed=1; }
	[ "$(ls ro)" = h.kif ] || { echo "$name: left files in ro/"; ls ro; failed=1; }
	chmod 755 ro
fi

# ---- characters the output encoding cannot hold ----

printf "V2.2\nN+\360\237\230\200 and \360\237\230\201\nN-x\nPI\n+\n+7776FU\n'\360\237\230\200\n" >emoji.csa
expect_exit 1 "unencodable" "$KIFU" convert -t kif -o e.kif emoji.csa
expect_stderr_has "unencodable" "'😀' cannot be written in CP932"
[ -e e.kif ] && { echo "$name: wrote an unencodable record"; failed=1; }
expect_success "--replace-unencodable" "$KIFU" convert -t kif --replace-unencodable -o e.kif emoji.csa
expect_stderr_has "--replace-unencodable" "emoji.csa: warning: output line 3 column 4: '😀' cannot be written in CP932; replaced with '〓' [encoding]"
expect_stderr_has "--replace-unencodable" "output line 3 column 10: '😁'"
expect_stderr_has "--replace-unencodable" "output line 7 column 2: '😀'"
[ "$(grep -c 'replaced with' err)" -eq 3 ] || { echo "$name: not one warning each"; cat err; failed=1; }
iconv -f CP932 -t UTF-8 e.kif | grep -q '^先手：〓 and 〓$' ||
	{ echo "$name: no 〓 in the output"; failed=1; }
expect_success "--replace-unencodable, EUC-JP" "$KIFU" convert -t csa --encoding EUC-JP --replace-unencodable emoji.csa
iconv -f EUC-JP -t UTF-8 out | grep -q "^'〓$" ||
	{ echo "$name: EUC-JP 〓"; cat out; failed=1; }
expect_exit 1 "--replace-unencodable --strict" "$KIFU" convert -t kif --replace-unencodable --strict -o s.kif emoji.csa
expect_stderr_has "--replace-unencodable --strict" "not written: --strict and 3 characters replaced"
[ -e s.kif ] && { echo "$name: --strict wrote a replaced file"; failed=1; }
expect_success "UTF-8 holds everything" "$KIFU" convert -t kifu --replace-unencodable --strict emoji.csa
grep -q '😀' out || { echo "$name: UTF-8 output lost a character"; failed=1; }

# ---- standard input and output, every format ----

# Each format read from '-' (detected from the text alone) gives what the
# file gives, and each target written to '-' what it writes by default.
for f in csa kif kifu ki2 ki2u jkf usi sfen bod; do
	"$KIFU" convert -t $f -o in.$f fg.csa 2>/dev/null ||
		{ echo "$name: cannot make in.$f"; failed=1; continue; }
	case $f in
	sfen|bod) to=sfen ;;
	*) to=usi ;;
	esac
	"$KIFU" convert -t $to in.$f >want 2>/dev/null
	expect_success "stdin $f" sh -c "\"$KIFU\" convert -t $to - <in.$f"
	cmp -s want out || { echo "$name: stdin $f"; diff want out | head -4; failed=1; }
	expect_success "-o - $f" "$KIFU" convert -t $f -o - fg.csa
	cmp -s in.$f out || { echo "$name: -o - $f"; failed=1; }
	expect_success "stdin to stdout $f" sh -c "\"$KIFU\" convert -t $f - <fg.csa"
	cmp -s in.$f out || { echo "$name: stdin to stdout $f"; failed=1; }
done
# Stdin with -o DIR is named after stdin.
mkdir d
expect_success "stdin into a directory" sh -c "\"$KIFU\" convert -t kif -o d - fg.csa <even.usi"
[ -s d/stdin.kif ] && [ -s d/fg.kif ] || { echo "$name: -o DIR with stdin"; ls d; failed=1; }
if [ -w /dev/full ]; then
	expect_exit 2 "bod to a full disk" sh -c "\"$KIFU\" convert -t bod fg.csa >/dev/full"
	expect_stderr_has "bod to a full disk" "write error"
fi
# To a terminal: the terminal's encoding, said once; to a pipe, the
# format's. script(1) gives the command a terminal.
if command -v script >/dev/null 2>&1; then
	fg=$TESTDATA/csa/floodgate/floodgate.csa
	LC_ALL=C.UTF-8 script -qec "\"$KIFU\" convert -t kif \"$fg\"" /dev/null >tty.out 2>&1
	tr -d '\r' <tty.out >tty.txt
	grep -q '^kifu: note: writing UTF-8 to the terminal, not CP932, the encoding of kif files' tty.txt ||
		{ echo "$name: terminal: no note"; head -3 tty.txt; failed=1; }
	grep -q '^#KIF version=2.0 encoding=UTF-8$' tty.txt ||
		{ echo "$name: terminal: not UTF-8"; head -3 tty.txt; failed=1; }
	grep -q '^先手：10b_n003_1060$' tty.txt ||
		{ echo "$name: terminal: no kanji"; head -5 tty.txt; failed=1; }
	[ "$(grep -c 'kifu: note' tty.txt)" -eq 1 ] ||
		{ echo "$name: terminal: the note is not said once"; failed=1; }
	# --encoding wins, even on a terminal.
	LC_ALL=C.UTF-8 script -qec "\"$KIFU\" convert -t kif --encoding CP932 \"$fg\"" /dev/null >tty.out 2>&1
	grep -q 'encoding=Shift_JIS' tty.out && ! grep -q 'kifu: note' tty.out ||
		{ echo "$name: terminal: --encoding"; failed=1; }
	# In the C locale (ASCII), UTF-8 all the same.
	LC_ALL=C script -qec "\"$KIFU\" convert -t kif \"$fg\"" /dev/null >tty.out 2>&1
	grep -q 'encoding=UTF-8' tty.out || { echo "$name: terminal: C locale"; failed=1; }
fi
expect_success "to a pipe" "$KIFU" convert -t kif "$TESTDATA/csa/floodgate/floodgate.csa"
head -n 1 out | grep -q 'encoding=Shift_JIS' || { echo "$name: pipe: not Shift_JIS"; failed=1; }
[ -s err ] && { echo "$name: pipe: said something"; cat err; failed=1; }
finish
