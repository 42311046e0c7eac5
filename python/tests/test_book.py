"""kifu.Book and kifu.book_query: the books `kifu book` builds, merges and
queries, through the library."""
import os
import subprocess

import pytest

import kifu
from where import KIFU, TESTDATA

BOOKS = os.path.join(TESTDATA, "book")
RECORDS = os.path.join(TESTDATA, "training/records")
START = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"


def build(*args):
    return subprocess.run([KIFU, "book", "build", "-j1", *args],
                          capture_output=True, check=True).stdout.decode()


def test_book_equals_the_command():
    b = kifu.Book(results=["all"])
    assert b.add_paths(os.path.join(BOOKS, "source")) == 6
    with open(os.path.join(BOOKS, "shogihome-source.db")) as f:
        assert b.text() == f.read()
    assert b.counts == {"records": 6, "used": 6, "plies": 47,
                        "positions": 38, "moves": 43}
    for opts, args in (({"max_ply": 10, "side": "white"},
                        ["--max-ply", "10", "--side", "white"]),
                       ({"min_moves": 100, "winner": "black"},
                        ["--min-moves", "100", "--winner", "black"]),
                       ({"min_count": 2, "uniq": True},
                        ["--min-count", "2", "--uniq"])):
        b = kifu.Book(**opts)
        b.add_paths(RECORDS)
        assert b.text() == build(*args, RECORDS), opts


def test_book_by_hand_and_why_records_are_left_out():
    b = kifu.Book(min_moves=150)
    added = [b.add(r) for f in kifu.walk(RECORDS) for r in f.records]
    assert added.count(True) == b.count("used")
    assert b.count("min-moves") + b.count("used") + b.count("results") \
        == b.count("records") == len(added)
    with pytest.raises(ValueError):
        b.count("nonsense")
    assert "Book(records=" in repr(b)


def test_book_merge_write_query(tmp_path):
    path = tmp_path / "merged.db"
    b = kifu.Book().read(os.path.join(BOOKS, "shogihome-style.db"))
    b.read(os.path.join(BOOKS, "shogihome-style.db"))
    b.write(path)
    once = kifu.book_query(os.path.join(BOOKS, "shogihome-style.db"), START)
    twice = kifu.book_query(path, START)
    assert [m["move"] for m in once] == [m["move"] for m in twice]
    assert [2 * m["count"] for m in once] == [m["count"] for m in twice]
    cli = subprocess.run([KIFU, "book", "query", str(path), "--sfen", START],
                         capture_output=True).stdout.decode().splitlines()
    assert [m["move"] for m in twice] == [line.split()[0] for line in cli]
    assert kifu.book_query(path, "startpos moves 1g1f 9c9d 1f1e") is None
    with pytest.raises(kifu.KifuError):
        kifu.Book().write(path)          # not replaced
    kifu.Book().write(path, replace=True)
    assert kifu.book_query(path, "startpos") is None


def test_book_errors(tmp_path):
    with pytest.raises(kifu.KifuError) as e:
        kifu.Book().read(os.path.join(BOOKS, "illegal-move.db"))
    assert e.value.line > 1
    with pytest.raises(kifu.KifuError) as e:
        kifu.Book(side="up")
    assert e.value.id == "usage"
    with pytest.raises(kifu.KifuError) as e:
        kifu.book_query(tmp_path / "none.db", START)
    assert e.value.id == "io"
    with pytest.raises(kifu.KifuError):
        kifu.book_query(os.path.join(BOOKS, "shogihome-style.db"), "9/9 b")
    b = kifu.Book()
    b.text()
    with pytest.raises(kifu.KifuError) as e:
        b.text()                          # written: the table is gone
    assert "written" in str(e.value)


HEAD = "#YANEURAOU-DB2016 1.00\nsfen %s\n" % START


@pytest.mark.parametrize("name,data,where", [
    ("nul", (HEAD + "7g7f no\0ne 0 0 1\n").encode(), (3, 8)),
    ("nosfen", b"#YANEURAOU-DB2016 1.00\n7g7f none 0 0 1\n", (2, 1)),
    ("count", (HEAD + "7g7f none 0 0 99999999999999999999\n").encode(),
     (3, 15)),
    ("long", (HEAD + "a" * (1 << 20) + "\n").encode(), (3, None)),
    ("latin1", HEAD.encode() + b"7g7f none 0 0 1 \xe9t\xe9\n7g7f x\n",
     (4, None)),
])
def test_hostile_books(tmp_path, name, data, where):
    path = tmp_path / (name + ".db")
    path.write_bytes(data)
    b = kifu.Book()
    with pytest.raises(kifu.KifuError) as e:
        b.read(path)
    assert e.value.file == str(path)
    assert e.value.line == where[0]
    if where[1] is not None:
        assert e.value.column == where[1]
    # What came before the error is there; the book is still whole.
    assert b.text().startswith("#YANEURAOU-DB2016 1.00\n")


def test_hostile_queries(tmp_path):
    junk = tmp_path / "junk.db"
    junk.write_bytes(bytes((i * 7919) % 251 for i in range(4096)))
    with pytest.raises(kifu.KifuError) as e:
        kifu.book_query(junk, START)
    assert e.value.line == 1
    with pytest.raises(kifu.KifuError):
        kifu.book_query(os.path.join(BOOKS, "shogihome-style.db"),
                        "sfen " + "1" * 100000)
    with pytest.raises(kifu.KifuError):
        kifu.book_query(os.path.join(BOOKS, "shogihome-style.db"),
                        "startpos moves 7g7f 7g7f")
    big = tmp_path / "big.db"
    big.write_text(HEAD + "7g7f none 1000000000 0 1000000000\n")
    b = kifu.Book()
    with pytest.raises(kifu.KifuError) as e:
        for _ in range(10):
            b.read(big)
    assert e.value.id == "book-overflow"
