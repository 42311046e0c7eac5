#!/bin/sh
# Hostile input (issue 8): truncation at every byte, bad and mixed
# encodings, NUL bytes, huge lines, deep and wide variations, endless
# empty CSA games, deep JSON, symlink loops, and every reading limit.
# Each must end quickly with a diagnostic and an exit status scripts can
# trust; none may crash (the binary under test carries ASan+UBSan).
. "$(dirname "$0")/lib.sh"
top=$(cd "$TESTDATA/.." && pwd)

# expect_line TITLE REGEX: some line of stdout+stderr matches REGEX.
expect_line() {
	if ! cat out err | grep -Eq -- "$2"; then
		echo "$name: $1: no line matches '$2'"; cat out err | head -5
		failed=1
	fi
}

# --- every prefix of a sample, each a file of its own ---
mkdir cut
for s in kif/json-kifu-format/test/files/kif/fork.kif \
    kif/shogihome/testdata/conversion/input/sub02/kif-sjis.kif \
    ki2/json-kifu-format/test/files/ki2/denou3-1.ki2 \
    csa/shogi-kifu-converter/data/tests/csa/v22.csa \
    jkf/shogi-kifu-converter/data/tests/kif/example.json; do
	size=$(wc -c <"$top/testdata/$s")
	base=$(basename "$s")
	k=0
	while [ "$k" -lt "$size" ]; do
		head -c "$k" "$top/testdata/$s" >"cut/$k.$base"
		k=$((k + 1))
	done
done
files=$(find cut -type f | wc -l)
"$KIFU" check -j2 --all-files --json cut >out 2>err
rc=$?
[ "$rc" -le 1 ] || { echo "$name: truncations: exit $rc"; tail -3 err; failed=1; }
# One verdict at least for every file, and each is a JSON object.
seen=$(sed 's/^{"file": "\([^"]*\)".*/\1/' out | sort -u | wc -l)
[ "$seen" -eq "$files" ] ||
	{ echo "$name: truncations: $seen of $files files reported"; failed=1; }
grep -qv '^{"file": ' out && { echo "$name: truncations: not JSON"; failed=1; }
# Cut inside a character (after the lead byte of 開 that starts line 3 of
# the Shift_JIS sample): an encoding error with its place, not a guess.
at=$(($(head -n 2 "$top/testdata/kif/json-kifu-format/test/files/kif/fork.kif" | wc -c) + 1))
expect_exit 1 "cut in a character" "$KIFU" validate "cut/$at.fork.kif"
expect_line "cut in a character" "^cut/$at\.fork\.kif:3:1: error: .*\[encoding\]\$"

# --- encodings ---
printf '#KIF version=2.0 encoding=UTF-8\n手合割：平手\n' >mixed.kif
printf '\220\346\216\350\201\106\210\242\n' >>mixed.kif	# 先手：山 in CP932
printf '手数----指手---------消費時間--\n   1 ７六歩(77)\n' >>mixed.kif
expect_exit 1 "UTF-8 and CP932 mixed" "$KIFU" validate mixed.kif
expect_line "UTF-8 and CP932 mixed" '^mixed\.kif:3:1: error: byte 0x90 is not valid .*\[encoding\]$'
printf 'PI\n+\n+7776FU\n\377\376\n' >junk.csa
expect_exit 1 "junk bytes" "$KIFU" validate junk.csa
expect_line "junk bytes" '^junk\.csa:4:1: error: .*\[encoding\]$'
printf 'PI\n+\n+7776FU\n-33\00034FU\n' >nul.csa
expect_exit 1 "NUL byte" "$KIFU" validate nul.csa
expect_line "NUL byte" '^nul\.csa:4:4: error: NUL byte: this is not a text file \[encoding\]$'
printf '\357\273\277\202\240\n' >bom.kif
expect_exit 1 "BOM then CP932" "$KIFU" validate bom.kif
expect_line "BOM then CP932" '^bom\.kif:1:1: error: .*\[encoding\]$'

# --- a 100 MB line: rejected by the line limit, not parsed ---
{ printf '*'; head -c 104857600 /dev/zero | tr '\0' 'a'; echo; } >long.kif
expect_exit 1 "100 MB line" "$KIFU" validate long.kif
expect_line "100 MB line" "^long\.kif:1:1: error: line of 104857601 bytes is longer than the limit 'line' \(4194304 bytes\) \[limit\]$"
rm long.kif

# --- variations nested a million deep (two moves a variation) ---
awk 'BEGIN {
	m[0] = "３八飛(28)"; m[1] = "７二飛(82)"; m[2] = "２八飛(38)"; m[3] = "８二飛(72)";
	print "手合割：平手"; print "手数----指手---------消費時間--";
	printf "   1 %s\n   2 %s\n", m[0], m[1];
	for (k = 2; k <= 1000000; k++)
		printf "\n変化：%d手\n%4d %s\n%4d %s\n", k, k, m[(k-1)%4], k+1, m[k%4];
}' >deep.kif
expect_exit 1 "deep variations" "$KIFU" validate deep.kif
expect_line "deep variations" "^deep\.kif:4007:6: error: variations nested more than 1000 deep \(the limit 'depth'\) \[limit\]$"
# Without the limits, 100000 deep is read, replayed and written in every
# format in linear time (the writers walk with explicit stacks).
head -n 400003 deep.kif >deep100k.kif
for t in kif ki2 csa jkf usi; do
	expect_success "deep variations to $t" "$KIFU" convert -t $t \
		--limit depth=0 --limit moves=0 -o deep100k.$t.out deep100k.kif
done
rm deep.kif

# --- a hundred thousand alternatives to one move ---
awk 'BEGIN {
	print "手合割：平手"; print "手数----指手---------消費時間--";
	print "   1 ７六歩(77)";
	for (k = 0; k < 100000; k++) print "\n変化：1手\n   1 ７六歩(77)";
}' >wide.kif
expect_exit 1 "wide variations" "$KIFU" validate wide.kif
expect_line "wide variations" "^wide\.kif:300003:6: error: more than 100000 moves in one record, counting every variation \(the limit 'moves'\) \[limit\]$"
expect_success "wide variations, no limit" "$KIFU" validate --limit moves=0 wide.kif

# --- a million empty CSA games ---
awk 'BEGIN { for (k = 0; k < 1000000; k++) print "/" }' >slash.csa
expect_exit 1 "a million '/'" "$KIFU" validate slash.csa
expect_line "a million '/'" '^slash\.csa: error: no record in the file \[empty\]$'
printf '+\n+7776FU\n' >>slash.csa
expect_exit 0 "a million '/', then a game" "$KIFU" validate -v slash.csa
expect_line "a million '/', then a game" "^slash\.csa:1:1: warning: 1000000 empty records from here on, only '/' lines \[empty\]$"

# --- deep JSON ---
awk 'BEGIN { for (k = 0; k < 100000; k++) printf "["; for (k = 0; k < 100000; k++) printf "]" }' >deep.jkf
expect_exit 1 "deep JSON" "$KIFU" validate --from jkf deep.jkf
expect_line "deep JSON" '^deep\.jkf:1:[0-9]+: error: invalid JSON: maximum parsing depth reached.*\[syntax\]$'
awk 'BEGIN {
	printf "{\"header\":{},\"moves\":[{}";
	for (k = 0; k < 3000; k++) printf ",{\"move\":{\"to\":{\"x\":7,\"y\":6},\"piece\":\"FU\"},\"forks\":[[";
	for (k = 0; k < 3000; k++) printf "]]}";
	printf "]}";
}' >forks.jkf
expect_exit 1 "deep forks" "$KIFU" validate forks.jkf
expect_line "deep forks" 'error: .*\[(syntax|limit)\]$'

# --- a whole game on one USI line, past the move limit ---
awk 'BEGIN { printf "startpos moves"; for (k = 0; k < 50001; k++) printf " 2h3h 8b7b 3h2h 7b8b"; print "" }' >long.usi
expect_exit 1 "long USI game" "$KIFU" validate long.usi
expect_line "long USI game" "^long\.usi:1:500016: error: more than 100000 moves in one record.*\[limit\]$"

# --- headers and record size ---
awk 'BEGIN { for (k = 0; k < 5000; k++) printf "キー%d：値\n", k; print "手数----指手---------消費時間--" }' >headers.kif
expect_exit 1 "headers" "$KIFU" validate headers.kif
expect_line "headers" "^headers\.kif:1001:1: error: more than 1000 headers in one record \(the limit 'headers'\) \[limit\]$"
expect_exit 0 "headers, raised" "$KIFU" validate --limit headers=5000 headers.kif
expect_exit 1 "record size" "$KIFU" validate --limit record=1000 \
	"$top/testdata/csa/floodgate/floodgate.csa"
expect_line "record size" "^.*floodgate\.csa:[0-9]+:1: error: record of more than 1000 bytes \(the limit 'record'\) \[limit\]$"
expect_exit 1 "record size, jkf" "$KIFU" validate --limit record=100 \
	"$top/testdata/jkf/shogi-kifu-converter/data/tests/kif/example.json"
expect_line "record size, jkf" "record of more than 100 bytes \(the limit 'record'\) \[limit\]$"
expect_exit 1 "line limit, check" "$KIFU" check --limit line=10 "$top/testdata/csa/floodgate"
expect_line "line limit, check" "error: line of [0-9]+ bytes is longer than the limit 'line' \(10 bytes\) \[limit\]$"
expect_exit 1 "line limit, convert" "$KIFU" convert -t usi --limit line=10 \
	"$top/testdata/csa/floodgate/floodgate.csa"
expect_line "line limit, convert" "\[limit\]$"
expect_exit 2 "bad --limit" "$KIFU" validate --limit moves=many x.kif
expect_stderr_has "bad --limit" "--limit wants NAME=N"
expect_exit 2 "unknown --limit" "$KIFU" check --limit size=3 x.kif

# --- symlink loops ---
mkdir -p loops/a/b
cp "$top/testdata/csa/floodgate/floodgate.csa" loops/a/b/
ln -s .. loops/a/b/up
ln -s ../../a loops/a/b/again
ln -s l2 loops/l1
ln -s l1 loops/l2
expect_exit 0 "symlink loops" "$KIFU" check -v loops
expect_stderr_has "symlink loops" "skipped 'loops/l1': symlink loop"
expect_stderr_has "symlink loops" "skipped 'loops/a/b/up': symlink loop"
expect_stderr_has "symlink loops" "kifu: 1 records: 1 valid"
expect_exit 2 "a loop named" "$KIFU" check loops/l1
expect_stderr_has "a loop named" "cannot read 'loops/l1'"

# --- inputs past the size kifu reads (1 GiB) ---
# Refused after 1 GiB + 1 byte, not loaded whole: a sparse 3 GiB file in
# a walked directory and named, and a tar member whose header claims
# 2^62 bytes (GNU base-256), which kifu grew a buffer to and died.
mkdir -p big
if truncate -s 3G big/big.csa 2>/dev/null; then
	expect_exit 1 "3 GiB file, walked" "$KIFU" check -v big
	expect_line "3 GiB file, walked" "^big/big\.csa: error: input larger than the 1073741824 bytes kifu reads \[limit\]\$"
	expect_exit 1 "3 GiB file, named" "$KIFU" validate big/big.csa
	expect_line "3 GiB file, named" "^big/big\.csa: error: input larger than the 1073741824 bytes kifu reads \[limit\]\$"
	rm -f big/big.csa
fi
python3 - <<'PY'
import io, tarfile
ti = tarfile.TarInfo("g.csa")
ti.size = 5
buf = io.BytesIO()
with tarfile.open(fileobj=buf, mode="w", format=tarfile.GNU_FORMAT) as t:
    t.addfile(ti, io.BytesIO(b"V2.2\n"))
b = bytearray(buf.getvalue())
b[124:136] = b"\x80\0\0\0" + (1 << 62).to_bytes(8, "big")
b[148:156] = b" " * 8
b[148:156] = ("%06o\0 " % sum(b[0:512])).encode()
open("claims-2p62.tar", "wb").write(b)
PY
expect_exit 2 "a member claiming 2^62 bytes" "$KIFU" check claims-2p62.tar
expect_stderr_has "a member claiming 2^62 bytes" "cannot read 'claims-2p62.tar//g.csa': Truncated tar archive [io]"

finish
