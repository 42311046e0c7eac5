"""Game statistics as ``kifu stats`` counts them (kifu_stats_*)."""
import json as _json
import os

from ._lib import ffi, lib


def _taken(p):
    """A char * the library handed over, as str, freed."""
    try:
        return ffi.string(p).decode("utf-8")
    finally:
        lib.kifu_free(p)


class Stats:
    """Results by reason and winner, game lengths, first moves, per player
    or per group (``by``: "none", "player", "event", "year",
    "first-moves", "opening", "castle", "matchup"; None: "none", or the
    grouping of the first JSON read)::

        s = kifu.Stats(by="player")
        for r in kifu.read("games.csa", result_check=False):
            s.add(r)
        s.json()["records"]

    Counts only add: ``merge`` joins the statistics of parts, ``read``
    the JSON lines earlier runs of ``kifu stats --json`` wrote.
    """

    def __init__(self, by=None):
        from . import _raise
        out = ffi.new("kifu_stats **")
        errp = ffi.new("kifu_error **")
        if lib.kifu_stats_new(by.encode() if by is not None else ffi.NULL,
                              out, errp) != 0:
            _raise(errp)
        self._ptr = ffi.gc(out[0], lib.kifu_stats_free)

    def _call(self, fn, *args):
        from . import _raise
        errp = ffi.new("kifu_error **")
        if fn(self._ptr, *args, errp) != 0:
            _raise(errp)
        return self

    def add(self, record):
        """Counts a Record; KifuError for one that could not be read."""
        return self._call(lib.kifu_stats_add, record._ptr)

    def merge(self, other):
        """Adds another Stats' counts (the same grouping)."""
        return self._call(lib.kifu_stats_merge, other._ptr)

    def read(self, path):
        """Adds the counts of a file of ``kifu stats --json`` lines."""
        return self._call(lib.kifu_stats_read, os.fsencode(path))

    @property
    def by(self):
        return ffi.string(lib.kifu_stats_by(self._ptr)).decode()

    @property
    def records(self):
        """The records counted."""
        return lib.kifu_stats_records(self._ptr)

    def json(self):
        """The object ``kifu stats --json`` prints, as a dict."""
        return _json.loads(_taken(lib.kifu_stats_json(self._ptr)))

    def text(self):
        """The tables ``kifu stats`` prints."""
        return _taken(lib.kifu_stats_text(self._ptr))

    __str__ = text

    def __repr__(self):
        return "Stats(by=%r, records=%d)" % (self.by, self.records)


def stats(paths, by=None, skipped=None, **options):
    """What ``kifu stats`` counts over the paths (files, directories,
    archives: as kifu.walk walks them), as a Stats. Records are judged as
    the command judges them (``rules`` "auto" by default, the claim not
    compared). A file or record that cannot be read is not counted, and,
    when ``skipped`` is a list, appended to it as a KifuError."""
    from . import KifuError
    from ._walk import records_under
    options.setdefault("result_check", False)
    s = Stats(by)
    for r in records_under(paths, skipped, **options):
        try:
            s.add(r)
        except KifuError as e:
            if skipped is not None:
                skipped.append(e)
    return s
