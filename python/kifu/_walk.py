"""The walk over files, directories and archives (kifu_walk_*)."""
import os

from ._lib import ffi, lib


class File:
    """One file the walk found: its ``name`` (as shown in messages,
    "a.zip//x.csa" for a member), its bytes (``data``), and its
    ``records``, read on first use with the walk's options (KifuError
    when the file cannot be read). ``error`` is that KifuError, or the
    walk's own when it could not read the file at all (then ``data`` is
    None), or None."""

    def __init__(self, name, data, options, error=None):
        self.name = name
        self.data = data
        self._options = options
        self._error = error
        self._file = None

    def _read(self):
        from . import KifuError, _File, _raise
        if self._file is None and self._error is None:
            fp = ffi.new("kifu_file **")
            errp = ffi.new("kifu_error **")
            if lib.kifu_read_buffer(self.data, len(self.data),
                                    self.name.encode(), self._options.ptr,
                                    fp, errp) != 0:
                try:
                    _raise(errp)
                except KifuError as e:
                    self._error = e
            else:
                self._file = _File(fp[0])
        return self._file

    @property
    def records(self):
        """The file's Records; KifuError when it cannot be read."""
        if self._read() is None:
            raise self._error
        return self._file.records()

    @property
    def error(self):
        self._read()
        return self._error

    @property
    def format(self):
        return self._read() and self._file.format

    @property
    def encoding(self):
        return self._read() and self._file.encoding

    def __repr__(self):
        return "File(%r)" % self.name


def walk(path, all_files=False, **options):
    """Every record file under path as ``kifu check`` walks it: a file, a
    directory (recursively, in name order), or an archive read in place
    (.tar, .tar.gz, .zip, .7z...), one File at a time::

        for f in kifu.walk("games.zip"):
            if f.error:
                print(f.error)
                continue
            for r in f.records:
                ...

    Only record files are read in directories and archives (every file
    with all_files=True). The options are read()'s, for the records. A
    file the walk cannot read, or passes over (a fifo, a symlink loop:
    ``error.id`` "skipped"), comes as a File with ``error`` set. Memory
    does not grow with the number of files: the walk holds one.
    """
    from . import _Options, _raise
    o = _Options(dict(options, all_files=all_files))
    wp = ffi.new("kifu_walk **")
    errp = ffi.new("kifu_error **")
    if lib.kifu_walk_open(os.fsencode(path), o.ptr, wp, errp) != 0:
        _raise(errp)
    return _files(ffi.gc(wp[0], lib.kifu_walk_free), o)


def _files(w, o):
    from . import KifuError
    name = ffi.new("char **")
    data = ffi.new("void **")
    n = ffi.new("size_t *")
    errp = ffi.new("kifu_error **")
    while True:
        rc = lib.kifu_walk_next(w, name, data, n, errp)
        if rc == 0:
            return
        if rc < 0:
            e = KifuError._from(errp[0])
            lib.kifu_error_free(errp[0])
            yield File(e.file, None, o, e)
            continue
        yield File(ffi.string(name[0]).decode("utf-8", "surrogateescape"),
                   bytes(ffi.buffer(data[0], n[0])), o)


def records_under(paths, skipped=None, **options):
    """The records of every file under the paths (walked, read with the
    options), one at a time; a file that cannot be read is passed over
    and, when skipped is a list, appended to it as a KifuError."""
    from . import KifuError
    if isinstance(paths, (str, bytes, os.PathLike)):
        paths = [paths]
    for path in paths:
        for f in walk(path, **options):
            try:
                records = f.records
            except KifuError as e:
                if skipped is not None:
                    skipped.append(e)
                continue
            yield from records
