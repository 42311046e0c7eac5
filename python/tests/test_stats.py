"""kifu.Stats and kifu.stats: what `kifu stats --json` prints, counted
through the library."""
import json
import os
import subprocess

import pytest

import kifu
from where import KIFU, TESTDATA

RECORDS = os.path.join(TESTDATA, "training/records")
FIND = os.path.join(TESTDATA, "find")


def cli_stats(*args):
    out = subprocess.run([KIFU, "stats", "--json", *args],
                         capture_output=True).stdout
    return json.loads(out)


@pytest.mark.parametrize("by", ["none", "player", "event", "year",
                                "first-moves", "opening", "castle",
                                "matchup"])
def test_stats_equal_the_command(by):
    for path in (RECORDS, FIND):
        assert kifu.stats(path, by=by).json() == \
            cli_stats("--by", by, path)


def test_stats_by_hand_and_merged(tmp_path):
    whole = kifu.stats(RECORDS, by="player")
    a, b = kifu.Stats(by="player"), kifu.Stats(by="player")
    for i, f in enumerate(kifu.walk(RECORDS, result_check=False)):
        for r in f.records:
            (a if i % 2 else b).add(r)
    assert a.records + b.records == whole.records == 11
    assert a.merge(b).json() == whole.json()
    assert a.by == "player" and "records=11" in repr(a)
    # The tables are the command's, but for the rule set it names.
    assert whole.text() == subprocess.run(
        [KIFU, "stats", "--by", "player", RECORDS],
        capture_output=True).stdout.decode().replace(", rules auto", "", 1)
    # Shards written by the command read back into the same counts.
    shard = tmp_path / "shard.json"
    shard.write_text(json.dumps(cli_stats("--by", "player", RECORDS)) + "\n")
    read = kifu.Stats().read(shard)
    assert read.by == "player" and read.json() == whole.json()


def test_stats_errors(tmp_path):
    with pytest.raises(kifu.KifuError) as e:
        kifu.Stats(by="colour")
    assert e.value.id == "usage"
    with pytest.raises(kifu.KifuError):
        kifu.Stats(by="player").merge(kifu.stats(RECORDS, by="event"))
    bad = tmp_path / "bad.json"
    bad.write_text('{"records": 1}\nnot json\n')
    with pytest.raises(kifu.KifuError) as e:
        kifu.Stats().read(bad)
    assert e.value.line >= 1 and e.value.file == str(bad)
    with pytest.raises(kifu.KifuError) as e:
        kifu.Stats().read(tmp_path / "none.json")
    assert e.value.id == "io"
    skipped = []
    s = kifu.stats([RECORDS, os.path.join(TESTDATA, "csa/kifu")],
                   skipped=skipped)
    assert s.records > 11


@pytest.mark.parametrize("text,line", [
    (b'{"records": -5}\n', 1),
    (b'\n{"records": 99999999999999999999999}\n', 2),
    (b'{"records": "x"}\n', 1),
    (b'{"records": 1}\0\n', 1),
    (b"[" * 100000 + b"]" * 100000 + b"\n", 1),
    (b"\xff\xfe{}\n", 1),
])
def test_hostile_shards(tmp_path, text, line):
    bad = tmp_path / "bad.json"
    bad.write_bytes(text)
    s = kifu.Stats()
    with pytest.raises(kifu.KifuError) as e:
        s.read(bad)
    assert e.value.line == line and e.value.file == str(bad)
    assert s.records == 0
