"""Where the tests find the source tree's test data and the kifu program
(KIFU: the one make check-python names, else the tree's own)."""
import os

TOP = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
TESTDATA = os.path.join(TOP, "testdata")
KIFU = os.environ.get("KIFU", os.path.join(TOP, "kifu"))
