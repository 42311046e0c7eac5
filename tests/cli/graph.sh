# Sourced by the tests of kifu show --graph (t0920, t0921), after lib.sh.

# check_graph SVG MOVES POINTS MATES FLAGS: SVG is well-formed, MOVES
# moves wide, with POINTS points each where its data-value puts it
# (x by its move, y linear from -3000 at the bottom to +3000 at the top,
# the zero line in the middle), MATES 詰 labels, FLAGS flags (each on a
# point, and counted in the legend), and its line broken at every gap.
check_graph() {
	python3 - "$@" <<'EOF' || { echo "$name: $1"; failed=1; }
import sys
import xml.etree.ElementTree as ET

path, moves, points, mates, flags = sys.argv[1], *map(int, sys.argv[2:])
ns = "{http://www.w3.org/2000/svg}"
root = ET.parse(path).getroot()
assert root.tag == ns + "svg", root.tag
assert int(root.get("data-moves")) == moves, root.get("data-moves")
plot = next(e for e in root.iter(ns + "rect") if e.get("class") == "plot")
x0, y0 = float(plot.get("x")), float(plot.get("y"))
x1, y1 = x0 + float(plot.get("width")), y0 + float(plot.get("height"))
zero = next(e for e in root.iter(ns + "line") if e.get("class") == "zero")
assert abs(float(zero.get("y1")) - (y0 + y1) / 2) < 0.02
pts = {}
for c in root.iter(ns + "circle"):
    if c.get("class") != "point":
        continue
    k, v = int(c.get("data-ply")), int(c.get("data-value"))
    assert -3000 <= v <= 3000, v
    score = int(c.get("data-score"))
    if c.get("data-mate"):
        assert v == (3000 if c.get("data-mate") == "black" else -3000)
    else:
        assert v == max(-3000, min(3000, score)), (v, score)
    x = x0 + (x1 - x0) * k / max(moves, 1)
    y = (y0 + y1) / 2 - (y1 - y0) / 2 * v / 3000
    assert abs(float(c.get("cx")) - x) < 0.02, (k, c.get("cx"), x)
    assert abs(float(c.get("cy")) - y) < 0.02, (k, v, c.get("cy"), y)
    pts[k] = (float(c.get("cx")), float(c.get("cy")))
assert len(pts) == points, (len(pts), points)
n = sum(1 for t in root.iter(ns + "text") if t.get("class") == "mate")
assert n == mates, (n, mates)
fl = [c for c in root.iter(ns + "circle") if c.get("class") == "flag"]
assert len(fl) == flags, (len(fl), flags)
for c in fl:
    k = int(c.get("data-ply"))
    assert (float(c.get("cx")), float(c.get("cy"))) == pts[k], k
legend = " ".join(t.text for t in root.iter(ns + "text")
                  if t.get("class") == "legend")
if root.get("data-source") == "analysis":
    for cls, ja in (("inaccuracy", "疑問手"), ("mistake", "悪手"),
                    ("blunder", "大悪手")):
        m = sum(1 for c in fl if c.get("data-class") == cls)
        assert "%s %d" % (ja, m) in legend, (legend, cls, m)
else:
    assert flags == 0 and legend == "対局者の評価値", legend
# Each path of the line runs through consecutive points only.
for p in root.iter(ns + "path"):
    if p.get("class") != "line":
        continue
    xs = [float(w.split()[0]) for w in p.get("d")[1:].split("L")]
    ks = sorted(k for k, (x, _) in pts.items()
                if any(abs(x - a) < 0.02 for a in xs))
    assert ks == list(range(ks[0], ks[0] + len(ks))), ks
EOF
}
