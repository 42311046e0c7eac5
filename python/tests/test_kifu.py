"""The Python package over libkifu: pytest, run by `make check`.

Records come from the project's testdata/; expected values are what
`kifu validate --json` and `kifu export` say of the same files, the
command run beside the package where the two must agree.
"""
import json
import os
import subprocess

import pytest

import kifu
from where import KIFU, TESTDATA

FORK = os.path.join(TESTDATA, "kif/json-kifu-format/test/files/kif/fork.kif")
FLOODGATE = os.path.join(TESTDATA, "training/records/r1-floodgate-2021.csa")
MULTI = os.path.join(TESTDATA, "csa/kifu/multi.csa")


def kifu_cli(*args):
    return subprocess.run([KIFU, *args], capture_output=True, check=False)


def test_version():
    out = kifu_cli("--version").stdout.decode().split()
    assert kifu.version() == out[1]


def test_read_names_as_validate():
    (r,) = kifu.read(FORK)
    assert r.status == "ok"
    assert r.format == "kif" and r.encoding == "CP932"
    assert r.moves == ["7g7f", "3c3d", "2g2f"]
    assert r.moves_count == 3
    assert r.result == {"winner": "black", "reason": "resign", "ply": 3}
    assert r.recorded == {"terminal": "投了", "winner": "black",
                          "reason": "resign"}
    assert r.rules == "jsa" and r.rules_from == "auto"
    assert r.rules_evidence is None
    assert r.consistent is True
    assert r.error is None
    assert r.positions[0] == r.start_sfen
    assert r.positions[-1] == r.final_sfen
    assert len(r.positions) == 4


def test_validate_equals_the_command():
    for path in (FORK, FLOODGATE, MULTI):
        cli = [json.loads(line) for line in
               kifu_cli("validate", "--json", path).stdout.splitlines()]
        assert kifu.validate(path) == cli


def test_evidence_and_headers():
    (r,) = kifu.read(FLOODGATE)
    assert r.rules == "csa"
    assert r.rules_evidence["what"].startswith("$EVENT")
    assert r.rules_evidence["line"] > 0
    assert r.header("black") == "10b_n003_1060"
    kinds = [k for _, _, k in r.headers]
    assert "event" in kinds
    assert r.header("nothing-of-the-kind") is None


def test_tree():
    (r,) = kifu.read(FORK)
    first = r.root.next
    assert first.usi == "7g7f" and first.kif == "７六歩(77)"
    assert first.time_ms == 2000
    assert first.ply == 1
    # Variations at move 1, 2 and 3 of the main line.
    branched = [n.ply for n in r.main_line() if n.alternatives]
    assert branched == [1, 2, 3]
    last = r.main_line()[-1].next
    assert last.terminal == "resign" and last.usi is None


def test_findings_and_check():
    records = kifu.read(MULTI)
    assert [r.status for r in records] == ["ok", "illegal", "illegal"]
    err = records[1].error
    assert err.id == "wrong-side" and err.line == 12 and err.column == 1
    assert str(err).startswith(MULTI + ":12:1: error:")
    with pytest.raises(kifu.KifuError) as e:
        records[1].check()
    assert e.value.id == "wrong-side"
    assert records[0].check() is records[0]


def test_errors():
    with pytest.raises(kifu.KifuError) as e:
        kifu.read(os.path.join(TESTDATA, "no", "such.kif"))
    assert e.value.id == "io" and "such.kif" in str(e.value)
    with pytest.raises(kifu.KifuError) as e:
        kifu.read_bytes(b"no record here\n")
    assert e.value.id == "unknown-format" and e.value.file == "<buffer>"
    with pytest.raises(kifu.KifuError) as e:
        kifu.read(FORK, rules="fide")
    assert e.value.id == "usage"


def test_options():
    path = os.path.join(TESTDATA, "rules/kachi-28.csa")
    (r,) = kifu.read(path, rules="jsa")
    assert r.status == "mismatch" and r.consistent is False
    (r,) = kifu.read(path, rules="jsa", declaration=27)
    assert r.status == "ok" and r.rules == "jsa,declaration=27"
    (r,) = kifu.read(path, rules="jsa", result_check=False)
    assert r.status == "ok" and r.consistent is None
    (r,) = kifu.read(path, rules="jsa", rule={"declaration": "27"})
    assert r.rules == "jsa,declaration=27"
    (r,) = kifu.read(path, from_="csa", limit={"moves": 0})
    assert r.format == "csa"


def test_convert_equals_the_command():
    for to in ("kif", "ki2u", "csa", "usi", "jkf"):
        assert kifu.convert(FLOODGATE, to) == \
            kifu_cli("convert", "-t", to, FLOODGATE).stdout
    assert kifu.convert(FLOODGATE, "kif", encoding="UTF-8") == \
        kifu_cli("convert", "-t", "kif", "--encoding", "UTF-8",
                 FLOODGATE).stdout
    # Several records in a one-record format: refused.
    with pytest.raises(kifu.KifuError):
        kifu.convert(MULTI, "kif")


def test_convert_keeps_the_rule_set():
    # KIF cannot hold the server's T lines: a rules header says csa.
    foul = os.path.join(TESTDATA, "rules/server-mate-then-foul.csa")
    for to in ("kif", "kifu", "ki2", "ki2u", "jkf"):
        assert kifu.convert(foul, to) == \
            kifu_cli("convert", "-t", to, foul).stdout
    (r,) = kifu.read(foul)
    (again,) = kifu.read_bytes(r.write("kifu"), name="x.kifu")
    assert (again.status, again.rules) == ("ok", "csa,max-moves=0")
    assert again.header("rules") == "csa,max-moves=0"
    (bare,) = kifu.read_bytes(r.write("kifu", rules_header=False),
                              name="x.kifu")
    assert (bare.status, bare.rules) == ("mismatch", "jsa")


def test_flipped_board():
    path = os.path.join(TESTDATA, "kif/kifu-samples/flipped.kif")
    (r,) = kifu.read(path)
    assert r.flipped and r.json["flipped"] is True
    (again,) = kifu.read_bytes(r.write("ki2u"), name="x.ki2u")
    assert again.flipped
    (plain,) = kifu.read(FORK)
    assert not plain.flipped and "flipped" not in plain.json


def test_round_trip_through_bytes():
    (r,) = kifu.read(FLOODGATE)
    (again,) = kifu.read_bytes(r.write("kifu"), name="x.kifu")
    assert again.moves == r.moves
    assert again.final_sfen == r.final_sfen


def test_export_golden_rows():
    numpy = pytest.importorskip("numpy")
    rows = kifu.export(FLOODGATE, "hcpe")
    assert rows.dtype.names == ("hcp", "eval", "bestMove16", "gameResult",
                                "dummy")
    with open(os.path.join(TESTDATA, "training/r1-floodgate-2021.hcpe"),
              "rb") as f:
        golden = f.read()
    assert rows.tobytes() == golden
    psv = kifu.export(FLOODGATE, "psv")
    assert psv.dtype.itemsize == 40 and len(psv) == len(rows)
    assert (psv["gamePly"][:3] == numpy.array([1, 2, 3])).all()
    assert isinstance(kifu.export(FLOODGATE, "hcpe3"), bytes)
    lines = kifu.export(FLOODGATE, "sfen")
    assert len(lines) == len(rows) and "\t" in lines[0]


def test_export_directories_and_skips():
    skipped = []
    rows = kifu.export([os.path.join(TESTDATA, "training/records"),
                        os.path.join(TESTDATA, "rules/long-problem.usi")],
                       "hcpe", skipped=skipped)
    assert len(rows) > 1000
    assert "no-king" in [e.id for e in skipped]


def test_mate():
    m = kifu.mate("4k4/9/4P4/9/9/9/9/9/9 b G 1")
    assert m.status == "mate" and m.length == 1 and bool(m)
    assert m.line == ["G*5b"] and m.line_kif == ["▲５二金打"]
    assert m.json["line"] == m.line and m.json["nodes"] == m.nodes
    # Futile interpositions do not count under the problem rules
    # (yaneurao/YaneuraOu#162: 3 plies; every interposition counted: 5).
    sfen = "5pk2/7P1/4+R1+P1+b/8b/6R2/9/9/9/9 b 4g4s4n4l15p 1"
    assert kifu.mate(sfen, rules="problem").length == 3
    assert kifu.mate(sfen).length == 5
    # The problem rules fill the defender's hand.
    assert kifu.mate("4k4/9/4P4/9/9/9/9/9/9 b G 1",
                     rules="problem").sfen.endswith("b G2r2b3g4s4n4l17p 1")
    nomate = kifu.mate("4k4/9/9/9/9/9/9/9/9 b G 1")
    assert nomate.status == "nomate" and nomate.length is None
    assert not nomate


def test_mate_same_as_cli():
    sfen = "4RB1k1/5s3/7n1/5s1LP/9/7r1/9/9/6K2 b b4g2s3n3l17p 1"
    m = kifu.mate(sfen)
    out = subprocess.run([KIFU, "mate", "--json", "--sfen", sfen],
                         capture_output=True, text=True, check=False)
    cli = json.loads(out.stdout)
    assert (m.status, m.length, m.line) == (cli["status"], cli["length"],
                                            cli["line"])


def test_mate_limits_and_errors():
    m = kifu.mate("4RB1k1/5s3/7n1/5s1LP/9/7r1/9/9/6K2 b b4g2s3n3l17p 1",
                  nodes=50)
    assert m.status == "unknown" and m.stop == "nodes" and m.line == []
    with pytest.raises(kifu.KifuError) as e:
        kifu.mate("4K4/9/9/9/9/9/9/9/9 b G 1")
    assert e.value.id == "no-defender-king"
    with pytest.raises(kifu.KifuError) as e:
        kifu.mate("not a position")
    assert e.value.id == "syntax"
    with pytest.raises(kifu.KifuError):
        kifu.mate("4k4/9/4P4/9/9/9/9/9/9 b G 1", rules="jsa")


TAGS = os.path.join(TESTDATA, "tags")


def tag_cli(*args):
    """`kifu tag --json`'s objects, without the file and the index."""
    out = []
    for line in kifu_cli("tag", "--json", *args).stdout.splitlines():
        o = json.loads(line)
        del o["file"], o["index"]
        out.append(o)
    return out


def test_tags_equal_the_command():
    records = os.path.join(TAGS, "records")
    for name in sorted(os.listdir(records)):
        path = os.path.join(records, name)
        assert [r.tags() for r in kifu.read(path)] == tag_cli(path), name


def test_tags_names_and_plies():
    (r,) = kifu.read(os.path.join(TAGS, "records", "mukai.ki2u"))
    t = r.tags()
    assert t["named"] is True and t["matchup"] == "対抗型"
    assert t["game"]["name"] == "向飛車"
    assert t["white"]["style"]["name"] == "振り飛車"
    assert [(o["name"], o["ply"]) for o in t["white"]["openings"]] == \
        [("向かい飛車", 8)]
    (r,) = kifu.read(os.path.join(TAGS, "records", "minishogi.kifu"))
    assert r.tags() == {"named": False, "why": "minishogi"}


def test_tags_definitions():
    path = os.path.join(TAGS, "records", "yagura.kif")
    defs = os.path.join(TAGS, "definitions", "override.def")
    (r,) = kifu.read(path)
    d = kifu.Definitions(defs)
    assert r.tags(d) == r.tags(defs) == tag_cli("--definitions", defs,
                                                 path)[0]
    castles = [c["name"] for s in ("black", "white")
               for c in r.tags(d)[s]["castles"]]
    assert "居玉" not in castles
    with pytest.raises(kifu.KifuError) as e:
        kifu.Definitions(os.path.join(TAGS, "definitions", "bad-square.def"))
    assert e.value.file.endswith("bad-square.def") and e.value.line == 2
    with pytest.raises(kifu.KifuError) as e:
        kifu.Definitions(os.path.join(TAGS, "no-such.def"))
    assert e.value.id == "io"
