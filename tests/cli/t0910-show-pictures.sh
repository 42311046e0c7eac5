#!/bin/sh
# kifu show's pictures: the SVG parsed as XML with every piece on its
# square, the PNG and each GIF frame read back (size, frames, delays, and
# pixels of the board's and of the ink's colour), the SVG rendered a
# second way (rsvg-convert) and compared with kifu's PNG, GIF frames
# compared with the PNG of the same position, minishogi, and a missing
# library. tests/picture.py reads PNG and GIF with the standard library.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

pic="python3 $here/../picture.py"
sed -n 2p "$TESTDATA/usi/games.usi" >even.usi
cp "$TESTDATA/show/minishogi.kifu" mini.kifu
board=f0d39b ink=000000 shade=ee9a4d

# check_svg FILE SFEN [flip]: FILE is well-formed SVG whose pieces (class
# piece, data-square, data-color, data-piece) and hands are the SFEN's,
# and the pieces of the side at the top are turned round.
check_svg() {
	python3 - "$1" "$2" "${3:-}" <<'EOF' || failed=1
import sys
import xml.etree.ElementTree as ET

path, sfen, flip = sys.argv[1], sys.argv[2].split(), sys.argv[3] == "flip"
ns = "{http://www.w3.org/2000/svg}"
root = ET.parse(path).getroot()
if root.tag != ns + "svg":
    sys.exit("%s: root is %s" % (path, root.tag))
kinds = {"p": "FU", "l": "KY", "n": "KE", "s": "GI", "b": "KA", "r": "HI",
         "g": "KI", "k": "OU"}
pro = {"p": "TO", "l": "NY", "n": "NK", "s": "NG", "b": "UM", "r": "RY"}
want = set()
ranks = sfen[0].split("/")
for r, row in enumerate(ranks):
    f, plus = len(ranks), False
    for ch in row:
        if ch.isdigit():
            f -= int(ch)
        elif ch == "+":
            plus = True
        else:
            kind = (pro if plus else kinds)[ch.lower()]
            want.add(("%d%d" % (f, r + 1),
                      "black" if ch.isupper() else "white", kind))
            f, plus = f - 1, False
got = set()
for t in root.iter(ns + "text"):
    if t.get("class") == "piece":
        got.add((t.get("data-square"), t.get("data-color"),
                 t.get("data-piece")))
        turned = "rotate(180" in (t.get("transform") or "")
        if turned != ((t.get("data-color") == "white") != flip):
            sys.exit("%s: %s turned wrongly" % (path, t.get("data-square")))
if got != want:
    sys.exit("%s: pieces differ: missing %s, extra %s"
             % (path, sorted(want - got), sorted(got - want)))
hand = {}
if sfen[2] != "-":
    n = ""
    for ch in sfen[2]:
        if ch.isdigit():
            n += ch
            continue
        hand[("black" if ch.isupper() else "white", kinds[ch.lower()])] = \
            int(n or 1)
        n = ""
got = {}
for g in root.iter(ns + "g"):
    if g.get("class") == "hand":
        for t in g.iter(ns + "text"):
            if t.get("class") == "hand-piece":
                got[(g.get("data-color"), t.get("data-piece"))] = \
                    int(t.get("data-count"))
if got != hand:
    sys.exit("%s: hands differ: %s, not %s" % (path, got, hand))
EOF
}

# ---- SVG ----

for p in 0 1 10 22; do
	expect_success "svg --ply $p" "$KIFU" show --svg --ply $p -o p$p.svg even.usi
	"$KIFU" convert -t sfen --ply $p even.usi >p$p.sfen 2>/dev/null
	check_svg p$p.svg "$(cat p$p.sfen)"
done
grep -q 'width="480" height="428" viewBox="0 0 480 428"' p0.svg ||
	{ echo "$name: svg size"; failed=1; }
grep -q "font-family=\"'Noto Serif CJK JP',.*,serif\"" p0.svg ||
	{ echo "$name: svg fonts"; failed=1; }
[ "$(grep -c 'class="last"' p0.svg)" = 0 ] && [ "$(grep -c 'class="last"' p1.svg)" = 1 ] ||
	{ echo "$name: svg shading"; failed=1; }
grep -q '>10手目　△同　歩まで</text>' p10.svg || { echo "$name: svg move line"; failed=1; }
if command -v xmllint >/dev/null 2>&1; then
	xmllint --noout p10.svg || { echo "$name: xmllint"; failed=1; }
fi
# To stdout with -o - or no -o; --flip turns the board round.
expect_success "svg -o -" "$KIFU" show --svg --ply 10 -o - even.usi
cmp -s out p10.svg || { echo "$name: svg to stdout"; failed=1; }
expect_success "svg --flip" "$KIFU" show --svg --flip --ply 10 even.usi
cp out flip.svg
check_svg flip.svg "$(cat p10.sfen)" flip
python3 - <<'EOF' || { echo "$name: --flip"; failed=1; }
import xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
def xs(path):
    return {t.get("data-square"): float(t.get("x"))
            for t in ET.parse(path).getroot().iter(ns + "text")
            if t.get("class") == "piece"}
a, b = xs("p10.svg"), xs("flip.svg")
assert a["91"] < a["11"] and b["91"] > b["11"], (a["91"], b["91"])
assert abs(a["91"] + b["91"] - a["11"] - b["11"]) < 0.1
EOF
# Names are escaped.
printf '%s\n' "先手：<T & \"J\">" "手合割：平手" \
    "手数----指手---------消費時間--" "   1 ７六歩(77)" >names.kifu
expect_success "svg names" "$KIFU" show --svg -o names.svg names.kifu
check_svg names.svg "$("$KIFU" convert -t sfen names.kifu 2>/dev/null)"
grep -q '>☗&lt;T &amp; &quot;J&quot;&gt;</text>' names.svg ||
	{ echo "$name: names escaped"; grep name names.svg; failed=1; }

# ---- PNG, and the SVG rendered a second way ----

expect_success "png" "$KIFU" show --png --ply 10 -o p10.png even.usi
[ "$($pic info p10.png)" = "480 428 1" ] ||
	{ echo "$name: png size"; $pic info p10.png; failed=1; }
$pic has p10.png ffffff $board $ink $shade || { echo "$name: png is blank"; failed=1; }
$pic has p0.svg 2>/dev/null && { echo "$name: picture.py took an SVG"; failed=1; }
expect_success "png to a pipe" sh -c "\"$KIFU\" show --png --ply 10 even.usi | cat >pipe.png"
cmp -s pipe.png p10.png || { echo "$name: png through a pipe"; failed=1; }
expect_success "png --size" "$KIFU" show --png --size 800 -o big.png even.usi
[ "$($pic info big.png)" = "800 714 1" ] ||
	{ echo "$name: --size"; $pic info big.png; failed=1; }
if command -v rsvg-convert >/dev/null 2>&1; then
	for p in 0 10 22; do
		[ -e p$p.png ] || "$KIFU" show --png --ply $p -o p$p.png even.usi
		rsvg-convert -o r$p.png p$p.svg
		set -- $($pic diff p$p.png r$p.png 0) 999 999
		awk "BEGIN { exit !($1 < 0.5 && $2 < 64) }" ||
			{ echo "$name: rsvg-convert differs at ply $p: mean $1, max $2"; failed=1; }
	done
else
	echo "$name: note: no rsvg-convert (librsvg2-bin); second rendering skipped"
fi

# ---- GIF ----

expect_success "gif" "$KIFU" show --gif -o g.gif even.usi
set -- $($pic info g.gif) - - -
[ "$1 $2 $3" = "480 428 23" ] || { echo "$name: gif size and frames: $*"; failed=1; }
shift 3
[ "$*" = "$(printf '100 %.0s' $(seq 22))300 - - -" ] || { echo "$name: gif delays: $*"; failed=1; }
$pic has g.gif $board $ink || { echo "$name: a blank gif frame"; failed=1; }
# Each frame is the picture of its position.
for p in 0 1 10 22; do
	[ -e p$p.png ] || "$KIFU" show --png --ply $p -o p$p.png even.usi
	set -- $($pic diff g.gif p$p.png $p) 999 999
	awk "BEGIN { exit !($1 < 1.0 && $2 < 48) }" ||
		{ echo "$name: gif frame $p differs from its png: mean $1, max $2"; failed=1; }
done
expect_success "gif --delay --ply" "$KIFU" show --gif --delay 250 --ply 3 -o d.gif even.usi
[ "$($pic info d.gif)" = "480 428 4 25 25 25 300" ] ||
	{ echo "$name: --delay"; $pic info d.gif; failed=1; }
expect_success "gif --delay long" "$KIFU" show --gif --delay 5000 --ply 1 -o d2.gif even.usi
[ "$($pic info d2.gif)" = "480 428 2 500 500" ] ||
	{ echo "$name: a long --delay"; $pic info d2.gif; failed=1; }
# The record's own times: the frame lasts while the next move was thought.
expect_success "gif --real-time" "$KIFU" show --gif --real-time 0.5 -o rt.gif mini.kifu
[ "$($pic info rt.gif)" = "480 405 8 150 250 100 50 200 350 500 300" ] ||
	{ echo "$name: --real-time"; $pic info rt.gif; failed=1; }
expect_success "gif to a pipe" sh -c "\"$KIFU\" show --gif --ply 3 --delay 250 even.usi | cat >pipe.gif"
cmp -s pipe.gif d.gif || { echo "$name: gif through a pipe"; failed=1; }

# ---- minishogi ----

expect_success "minishogi svg" "$KIFU" show --svg -o mini.svg mini.kifu
check_svg mini.svg "$("$KIFU" convert -t sfen mini.kifu 2>/dev/null)"
[ "$(grep -c 'class="file"' mini.svg)" = 5 ] && [ "$(grep -c 'class="rank"' mini.svg)" = 5 ] ||
	{ echo "$name: minishogi numerals"; failed=1; }
expect_success "minishogi png" "$KIFU" show --png --flip --ply 4 -o mini.png mini.kifu
[ "$($pic info mini.png)" = "480 405 1" ] || { echo "$name: minishogi png"; $pic info mini.png; failed=1; }
$pic has mini.png $board $ink $shade || { echo "$name: minishogi png is blank"; failed=1; }
$pic has rt.gif $board $ink || { echo "$name: minishogi gif is blank"; failed=1; }

# ---- files: never replaced without --force ----

expect_exit 2 "png exists" "$KIFU" show --png -o p10.png even.usi
expect_stderr_has "png exists" "exists; not replaced"
cmp -s pipe.png p10.png || { echo "$name: png replaced"; failed=1; }
expect_success "png --force" "$KIFU" show --png --force -o p10.png even.usi
cmp -s pipe.png p10.png && { echo "$name: --force did not replace"; failed=1; }

# ---- without librsvg or giflib: an error naming the package ----

if nolib_setup; then
	expect_exit 2 "no librsvg" nolib librsvg "$KIFU" show --png -o none.png even.usi
	expect_stderr_has "no librsvg" "cannot draw the PNG: cannot load librsvg (install librsvg2-2)"
	[ -e none.png ] && { echo "$name: a PNG without librsvg"; failed=1; }
	expect_exit 2 "no giflib" nolib libgif "$KIFU" show --gif -o none.gif even.usi
	expect_stderr_has "no giflib" "cannot load giflib (install libgif7)"
	[ -e none.gif ] && { echo "$name: a GIF without giflib"; failed=1; }
	# The rest of kifu does not need them.
	expect_success "svg without librsvg" nolib librsvg "$KIFU" show --svg -o none.svg even.usi
else
	echo "$name: note: no C compiler; missing-library checks skipped"
fi

finish
