"""Record.board(), svg(), png(), gif(): what `kifu show` draws, byte for
byte, through the library (kifu_record_show)."""
import os
import struct
import subprocess
import xml.etree.ElementTree as ET
import zlib

import pytest

import kifu
from where import KIFU, TESTDATA

MINI = os.path.join(TESTDATA, "show/minishogi.kifu")
FLIPPED = os.path.join(TESTDATA, "kif/kifu-samples/flipped.kif")
FLOODGATE = os.path.join(TESTDATA, "training/records/r1-floodgate-2021.csa")


def show(*args):
    return subprocess.run([KIFU, "show", *args], capture_output=True,
                          check=True).stdout


def test_board_as_show_prints_it():
    (r,) = kifu.read(FLOODGATE)
    assert r.board() == show("--color", "never", FLOODGATE).decode()
    assert r.board(ply=10, ascii=True, moves=True) == show(
        "--color", "never", "--ply", "10", "--ascii", "--moves",
        FLOODGATE).decode()
    marked = r.board(ply=3, color=True)
    assert marked == show("--color", "always", "--ply", "3",
                          FLOODGATE).decode()
    assert "\033[30;43m" in marked


def test_svg_as_show_draws_it():
    (r,) = kifu.read(MINI)
    assert r.svg() == show("--svg", MINI).decode()
    assert r.svg(ply=0, flip=True, size=200) == show(
        "--svg", "--ply", "0", "--flip", "--size", "200", MINI).decode()
    # Jupyter's rich display: the final position.
    assert r._repr_svg_() == r.svg()


def test_a_record_saved_flipped():
    (r,) = kifu.read(FLIPPED)
    assert r.flipped
    assert r.svg() == r.svg(flip=True) != r.svg(flip=False)
    assert r.svg(flip=False) == show("--svg", "--no-flip", FLIPPED).decode()


def test_png_and_gif_as_show_makes_them():
    (r,) = kifu.read(MINI)
    png = r.png(size=240, ply=4)
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    assert png == show("--png", "--size", "240", "--ply", "4", MINI)
    gif = r.gif(size=200, delay=300)
    assert gif.startswith(b"GIF89a")
    assert gif == show("--gif", "--size", "200", "--delay", "300", MINI)
    timed = r.gif(size=200, real_time=0.5)
    assert timed == show("--gif", "--size", "200", "--real-time", "0.5",
                         MINI)
    assert timed != gif


def test_picture_errors():
    (r,) = kifu.read(MINI)
    with pytest.raises(kifu.KifuError) as e:
        r.svg(ply=8)
    assert e.value.id == "limit" and "7 legal moves" in str(e.value)
    with pytest.raises(kifu.KifuError) as e:
        r.png(size=50)
    assert e.value.id == "usage"
    with pytest.raises(kifu.KifuError):
        r.gif(delay=-5)
    # An illegal record: drawn up to its first illegal move.
    (bad,) = kifu.read_bytes(b"PI\n+\n+7776FU\n-3334FU\n+2277UM\n",
                             name="bad.csa")
    assert bad.status == "illegal"
    assert "手数＝2" in bad.board()


def _png_chunks(data):
    """The chunks of a PNG, each CRC checked."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    at, chunks = 8, []
    while at < len(data):
        n, kind = struct.unpack(">I4s", data[at:at + 8])
        body = data[at + 8:at + 8 + n]
        (crc,) = struct.unpack(">I", data[at + 8 + n:at + 12 + n])
        assert zlib.crc32(kind + body) == crc, kind
        chunks.append((kind, body))
        at += 12 + n
    assert at == len(data)
    return chunks


def test_pictures_are_well_formed():
    (mini,) = kifu.read(MINI)
    (game,) = kifu.read(FLOODGATE)
    for r in (mini, game):
        for ply in (0, 1, None):
            root = ET.fromstring(r.svg(ply=ply).encode())
            assert root.tag == "{http://www.w3.org/2000/svg}svg"
    chunks = _png_chunks(game.png(size=300))
    kinds = [k for k, _ in chunks]
    assert kinds[0] == b"IHDR" and kinds[-1] == b"IEND" and b"IDAT" in kinds
    width, height = struct.unpack(">II", chunks[0][1][:8])
    assert width == 300 and height > 0
    raw = zlib.decompress(b"".join(b for k, b in chunks if k == b"IDAT"))
    assert len(raw) > height * width  # a filter byte and pixels a row
    assert mini.gif(size=200).endswith(b";")


def test_hostile_names_stay_escaped():
    name = "A&B <script>\"x\"'</script>\x01"
    (r,) = kifu.read_bytes(("先手：%s\n後手：]]><!--\n"
                            "   1 ７六歩(77)\n*<b>&</b>\n" % name).encode(),
                           name="x.kif")
    svg = r.svg()
    ET.fromstring(svg.encode())
    assert "<script>" not in svg and "A&amp;B &lt;script&gt;" in svg
    long = "".join("<&>\"'"[i % 5] for i in range(100000))
    (r,) = kifu.read_bytes(("先手：%s\n   1 ７六歩(77)\n" % long).encode(),
                           name="long.kif")
    ET.fromstring(r.svg().encode())


ANALYSED = os.path.join(TESTDATA, "show/analysed-ouza201410070101.kif")


def test_graph_as_show_draws_it():
    (r,) = kifu.read(ANALYSED)
    assert r.graph() == show("--graph", "--color", "never",
                             ANALYSED).decode()
    assert r.graph(ply=30, color=True) == show(
        "--graph", "--color", "always", "--ply", "30", ANALYSED).decode()
    svg = r.graph_svg(ply=40, size=500)
    assert svg == show("--graph", "--svg", "--ply", "40", "--size", "500",
                       ANALYSED).decode()
    ET.fromstring(svg.encode())
    png = r.graph_png(size=320)
    assert png == show("--graph", "--png", "--size", "320", ANALYSED)
    assert _png_chunks(png)[0][0] == b"IHDR"
    (plain,) = kifu.read(MINI)
    with pytest.raises(kifu.KifuError) as e:
        plain.graph()
    assert e.value.id == "no-evaluation"
