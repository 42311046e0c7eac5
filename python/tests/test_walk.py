"""kifu.walk: the files `kifu check` reads, one File at a time."""
import json
import os
import shutil
import subprocess
import tarfile
import zipfile

import pytest

import kifu
from where import KIFU, TESTDATA

RECORDS = os.path.join(TESTDATA, "training/records")


@pytest.fixture
def tree(tmp_path):
    t = tmp_path / "tree"
    shutil.copytree(RECORDS, t / "records")
    (t / "records" / "notes.txt").write_text("no record\n")
    with zipfile.ZipFile(t / "games.zip", "w") as z:
        for name in ("r1-floodgate-2021.csa", "h1-nimai-handicap.kifu"):
            z.write(os.path.join(RECORDS, name), "zipped/" + name)
    with tarfile.open(t / "more.tar.gz", "w:gz") as tf:
        tf.add(os.path.join(RECORDS, "r4-wcsc32.csa"), "r4.csa")
    (t / "broken.csa").symlink_to("nowhere")
    return t


def test_walk_in_name_order_with_archives(tree):
    files = list(kifu.walk(tree))
    names = [f.name[len(str(tree)) + 1:] for f in files]
    assert names[0] == "broken.csa" and files[0].error.id == "io"
    assert files[0].data is None
    with pytest.raises(kifu.KifuError):
        files[0].records
    # An archive's members come in the archive's order.
    assert names[1:3] == ["games.zip//zipped/r1-floodgate-2021.csa",
                          "games.zip//zipped/h1-nimai-handicap.kifu"]
    assert names[3] == "more.tar.gz//r4.csa"
    assert [n for n in names[4:]] == sorted(
        "records/" + n for n in os.listdir(RECORDS)
        if not n.startswith("LICENSE"))
    zipped = files[1]
    assert zipped.error is None and zipped.format == "csa"
    (r,) = zipped.records
    (direct,) = kifu.read(os.path.join(RECORDS, "r1-floodgate-2021.csa"))
    assert r.json == dict(direct.json, file=zipped.name)


def test_walk_counts_what_check_counts(tree):
    out = subprocess.run([KIFU, "check", "--json", "-j1", str(tree)],
                         capture_output=True).stdout.decode()
    cli = [json.loads(line) for line in out.splitlines()]
    cli = [o for o in cli if "status" in o]
    mine = [{"file": f.name, "status": "error"} if f.error else r.json
            for f in kifu.walk(tree) for r in (f.records if not f.error
                                               else [None])]
    assert [(o["file"], o["status"]) for o in mine] == \
        [(o["file"], o["status"]) for o in cli]


def test_walk_options(tree):
    every = [f.name for f in kifu.walk(tree, all_files=True)]
    assert any(n.endswith("notes.txt") for n in every)
    assert not any(f.name.endswith("notes.txt") for f in kifu.walk(tree))
    (f,) = kifu.walk(os.path.join(RECORDS, "r6-aobazero-kachi.csa"),
                     rules="jsa")
    assert f.records[0].rules.startswith("jsa")
    with pytest.raises(kifu.KifuError) as e:
        kifu.walk(tree / "nothing")
    assert e.value.id == "io"
    with pytest.raises(kifu.KifuError):
        kifu.walk(tree, rules="fide")


def test_walk_is_lazy(tree):
    it = kifu.walk(tree)
    first = next(it)
    assert first.name.endswith("broken.csa")
    it.close()


def test_walk_errors_are_values(tmp_path):
    good = os.path.join(RECORDS, "r1-floodgate-2021.csa")
    with tarfile.open(tmp_path / "whole.tar", "w") as tf:
        for i in range(3):
            tf.add(good, "g%d.csa" % i)
    data = (tmp_path / "whole.tar").read_bytes()
    (tmp_path / "cut.tar").write_bytes(data[:3000])
    files = list(kifu.walk(tmp_path / "cut.tar"))
    assert files[-1].error is not None and files[-1].error.id == "io"
    assert all(f.error is None for f in files[:-1])
    # A record file that is no record: the walk hands it over, reading
    # it is what fails.
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "x.csa").write_bytes(b"\x00\xff" * 100)
    (f,) = kifu.walk(tmp_path / "d")
    assert f.data == b"\x00\xff" * 100
    with pytest.raises(kifu.KifuError):
        f.records
    assert f.error is not None
