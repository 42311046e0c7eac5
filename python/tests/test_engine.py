"""kifu.Engine: the USI client of kifu analyze from Python. Needs
fairy-stockfish (apt-get install fairy-stockfish): skipped, and said so,
without it; the mock engine of the tests, when it is built, covers the
errors."""
import json
import os
import subprocess

import pytest

import kifu

TOP = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
KIFU = os.environ.get("KIFU", os.path.join(TOP, "kifu"))
FSF = "/usr/games/fairy-stockfish"
MOCK = os.path.join(TOP, "build", "san", "tests", "mock_engine")

need_fsf = pytest.mark.skipif(not os.access(FSF, os.X_OK),
                              reason="fairy-stockfish is not installed")
need_mock = pytest.mark.skipif(not os.access(MOCK, os.X_OK),
                               reason="the mock engine is not built")


@need_fsf
def test_analyse_as_kifu_analyze(tmp_path):
    with kifu.Engine(FSF, options={"Threads": 1}) as e:
        assert e.name.startswith("Fairy-Stockfish")
        a = e.analyse("startpos", moves=["7g7f", "3c3d"], nodes=5000)
        b = e.analyse("startpos", moves="7g7f 3c3d", nodes=5000)
        three = e.analyse("startpos", nodes=5000, multipv=3)
    assert a["ply"] == 2 and a["side"] == "black"
    assert a["best"] == a["pv"][0] and a["status"] == "searched"
    assert a["score_kind"] == "cp" and a["score_black"] == a["score_mover"]
    # A cleared hash each search: the same answer again.
    for k in ("best", "pv", "score_black", "depth", "nodes"):
        assert a[k] == b[k]
    assert [l["rank"] for l in three["multipv"]] == [1, 2, 3]
    # kifu analyze --json says the same of the same position.
    rec = tmp_path / "g.usi"
    rec.write_text("startpos moves 7g7f 3c3d\n")
    out = subprocess.run([KIFU, "analyze", "--engine", FSF, "--nodes", "5000",
                          "--from-ply", "2", "--json", str(rec)],
                         capture_output=True, check=True).stdout
    cli = json.loads(out.decode().splitlines()[0])
    for k in ("sfen", "best", "pv", "score_black", "depth", "nodes"):
        assert cli[k] == a[k], k


@need_fsf
def test_mate_and_minishogi():
    with kifu.Engine(FSF) as e:
        m = e.analyse("ln1gkg1nl/6+P2/2sppps1p/2p3p2/p8/P1P1P3P/2NP1PP2/"
                      "3s1KSR1/L1+b2G1NL w R2Pbgp 42", nodes=100000)
        assert m["best"] == "B*5g" and m["mate"] == 3
        assert m["score_mover"] == 30000
        mini = e.analyse("rbsgk/4p/5/P4/KGSBR b - 1", nodes=2000)
        assert mini["sfen"] == "rbsgk/4p/5/P4/KGSBR b - 1"
        assert mini["best"] is not None


@need_fsf
def test_refusals():
    with pytest.raises(kifu.KifuError) as x:
        kifu.Engine(FSF, options={"Threads": "abc"})
    assert x.value.id == "option" and "whole number" in str(x.value)
    with kifu.Engine(FSF) as e:
        with pytest.raises(kifu.KifuError) as x:
            e.analyse("startpos", moves=["7g7f", "7g7f"], nodes=10)
        assert x.value.id == "no-piece"
        with pytest.raises(kifu.KifuError) as x:
            e.analyse("not a position", nodes=10)
        with pytest.raises(ValueError):
            e.analyse("startpos", nodes=10, depth=3)
    with pytest.raises(ValueError):
        e.analyse("startpos")


def test_no_such_engine():
    with pytest.raises(kifu.KifuError) as x:
        kifu.Engine("/nonexistent/engine")
    assert x.value.id == "start" and "no such file" in str(x.value)


@need_mock
def test_faults_with_the_mock(tmp_path):
    pids = tmp_path / "pids"
    cmd = "%s --pidfile %s --fault hang-search --after 1 --counter %s" % (
        MOCK, pids, tmp_path / "n")
    with kifu.Engine(cmd) as e:
        with pytest.raises(kifu.KifuError) as x:
            e.analyse("startpos", nodes=10, timeout=0.5)
        assert x.value.id == "search" and "ran past 500 ms" in str(x.value)
    # Every engine process is gone, and was reaped.
    for line in pids.read_text().split("\n"):
        if line:
            pid = int(line.split()[0])
            assert not os.path.exists("/proc/%d" % pid)
