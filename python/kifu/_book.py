"""Opening books in YaneuraOu's text format, as ``kifu book`` makes and
reads them (kifu_book_*)."""
import os

from ._lib import ffi, lib

# kifu_book_count's names of what a build counts.
_COUNTS = ("records", "used", "plies", "positions", "moves")


class Book:
    """A book built from records one by one, with the options of ``kifu
    book build`` (``max_ply=40``, ``min_count``, ``side`` "black" or
    "white", ``memory`` "512M") and the selection ``kifu export`` shares
    (``min_moves``, ``min_rating``, ``results`` as a list or a comma
    list, ``winner``, ``uniq``)::

        b = kifu.Book(max_ply=24, min_rating=3000)
        b.add_paths(["floodgate/"])
        b.write("book.db")

    Writing ends a book (its table is emptied as it is written): write()
    or text(), once.
    """

    def __init__(self, **options):
        from . import _Options, _raise
        if isinstance(options.get("results"), (list, tuple)):
            options["results"] = ",".join(options["results"])
        o = _Options(options)
        out = ffi.new("kifu_book **")
        errp = ffi.new("kifu_error **")
        if lib.kifu_book_new(o.ptr, out, errp) != 0:
            _raise(errp)
        self._ptr = ffi.gc(out[0], lib.kifu_book_free)

    def add(self, record):
        """Adds a Record: True when its positions went in, False when it
        was left out (``skipped`` counts why)."""
        from . import _raise
        errp = ffi.new("kifu_error **")
        rc = lib.kifu_book_add(self._ptr, record._ptr, errp)
        if rc == lib.KIFU_ERR_SKIP:
            lib.kifu_error_free(errp[0])
            return False
        if rc != 0:
            _raise(errp)
        return True

    def add_paths(self, paths, skipped=None, **options):
        """Adds every record under the paths (files, directories,
        archives, walked as kifu.walk walks them, read with read()'s
        options), as ``kifu book build`` does. A file that cannot be read
        is left out and, when ``skipped`` is a list, appended to it as a
        KifuError. Returns the number of records used."""
        from ._walk import records_under
        return sum(self.add(r) for r in records_under(paths, skipped,
                                                      **options))

    def read(self, path):
        """Combines a book file with this one, as ``kifu book merge``."""
        from . import _raise
        errp = ffi.new("kifu_error **")
        if lib.kifu_book_read(self._ptr, os.fsencode(path), errp) != 0:
            _raise(errp)
        return self

    def text(self):
        """The book (sorted, as YaneuraOu sorts one), as str."""
        from . import _bytes_out
        return _bytes_out(lib.kifu_book_write, self._ptr).decode("utf-8")

    def write(self, path, replace=False):
        """Writes the book to path, whole or not at all (an existing file
        is replaced only with replace=True)."""
        from . import _raise
        errp = ffi.new("kifu_error **")
        if lib.kifu_book_write_file(self._ptr, os.fsencode(path),
                                    1 if replace else 0, errp) != 0:
            _raise(errp)

    def count(self, what):
        """A count by kifu_book_count's name ("used", "min-moves"...)."""
        n = lib.kifu_book_count(self._ptr, what.encode())
        if n < 0:
            raise ValueError("no count %r" % what)
        return n

    @property
    def counts(self):
        """records, used, plies, positions and moves, as a dict."""
        return {k: self.count(k) for k in _COUNTS}

    def __repr__(self):
        return "Book(%s)" % ", ".join("%s=%d" % kv
                                      for kv in self.counts.items())


def _field(v):
    return None if v == "none" else int(v)


def book_query(path, position):
    """The moves of a position (an SFEN, or a USI position "startpos
    moves 7g7f ...") in the book at path, as ``kifu book query`` lists
    them, most played first: dicts of move, ponder, value, depth, count
    (None for "none"); None when the book does not have the position."""
    from . import _raise
    out = ffi.new("char **")
    errp = ffi.new("kifu_error **")
    rc = lib.kifu_book_query(os.fsencode(path), position.encode(), out, errp)
    if rc < 0:
        _raise(errp)
    if rc == 0:
        return None
    try:
        text = ffi.string(out[0]).decode("utf-8")
    finally:
        lib.kifu_free(out[0])
    moves = []
    for line in text.splitlines():
        move, ponder, value, depth, count = line.split()
        moves.append({"move": move,
                      "ponder": None if ponder == "none" else ponder,
                      "value": _field(value), "depth": _field(depth),
                      "count": int(count)})
    return moves
