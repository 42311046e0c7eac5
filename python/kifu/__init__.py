"""kifu: shogi game records in KIF, KI2, CSA, USI/SFEN and JKF.

Every record is replayed through kifu's rules core and judged under a
rule set, exactly as ``kifu validate`` does; the names are those of its
JSON (``status``, ``final_sfen``, ``result``, ``rules``...)::

    import kifu

    for r in kifu.read("game.kif"):
        print(r.status, r.final_sfen, r.result["winner"], r.result["reason"])
        print(r.moves[:5])          # the main line, USI
        print(r.positions[-1])      # SFEN after the last legal move

    kifu.validate("game.csa")      # validate's JSON objects, one a record
    kifu.convert("game.csa", "kif")              # bytes, in CP932
    kifu.export(["a.csa", "games/"], "hcpe")     # NumPy array, cshogi's dtype

    with kifu.Engine("/usr/games/fairy-stockfish") as e:  # a USI engine
        e.analyse("startpos", moves=["7g7f"], nodes=20000)["score_black"]

Options are the command-line ones, by name with underscores (``rules="csa"``,
``max_moves=300`` for ``--max-moves``, ``encoding="UTF-8"``,
``rule={"declaration": "27"}``). A file that cannot be read, or holds no
record, raises KifuError with its file, line and column; a record with an
illegal move is returned with its status, and ``Record.check()`` raises.
"""
import json as _json
import os

from ._lib import ffi, lib

__all__ = ["KifuError", "Record", "Node", "Mate", "Engine", "Definitions",
           "read", "read_bytes", "validate", "convert", "export", "mate",
           "version", "RECORD_EXTENSIONS", "Stats", "stats", "File", "walk",
           "Book", "book_query"]

# What `kifu check` reads in a directory (doc/archives.md: record files only).
RECORD_EXTENSIONS = (".kif", ".kifu", ".ki2", ".ki2u", ".csa", ".usi",
                     ".sfen", ".jkf", ".bod")


def version():
    """The version of the libkifu in use."""
    return _str(lib.kifu_version())


def _str(p):
    return None if p == ffi.NULL else ffi.string(p).decode("utf-8")


class KifuError(Exception):
    """A problem with its place: ``str()`` is "file:line:col: ... [id]"."""

    def __init__(self, message, id=None, file=None, line=0, column=0,
                 ply=0, severity="error", text=None):
        super().__init__(message)
        self.message = message
        self.id = id
        self.file = file
        self.line = line
        self.column = column
        self.ply = ply
        self.severity = severity
        self.text = text if text is not None else message

    @classmethod
    def _from(cls, e):
        return cls(_str(lib.kifu_error_message(e)), _str(lib.kifu_error_id(e)),
                   _str(lib.kifu_error_file(e)), lib.kifu_error_line(e),
                   lib.kifu_error_column(e), lib.kifu_error_ply(e),
                   _str(lib.kifu_error_severity(e)),
                   _str(lib.kifu_error_text(e)))

    def __repr__(self):
        return "KifuError(%r)" % self.message


def _raise(errp):
    e = errp[0]
    err = KifuError._from(e)
    lib.kifu_error_free(e)
    raise err


def _bytes_out(fn, *args):
    """fn(*args, &out, &len, &err): the bytes it handed over, freed."""
    out = ffi.new("char **")
    n = ffi.new("size_t *")
    errp = ffi.new("kifu_error **")
    if fn(*args, out, n, errp) != 0:
        _raise(errp)
    try:
        return bytes(ffi.buffer(out[0], n[0]))
    finally:
        lib.kifu_free(out[0])


def _value(v):
    if isinstance(v, bool):
        return "yes" if v else "no"
    return str(v)


class _Options:
    """kifu_options from keyword arguments; freed with the object."""

    def __init__(self, kw):
        self.ptr = ffi.gc(lib.kifu_options_new(), lib.kifu_options_free)
        for key, value in kw.items():
            if value is None:
                continue
            if key == "rule":
                for k, v in value.items():
                    self._set("rule." + k.replace("_", "-"), v)
            elif key == "limit":
                for k, v in value.items():
                    self._set("limit." + k, v)
            elif key in ("max_moves", "declaration",
                         "repetition_counts_start"):
                self._set("rule." + key.replace("_", "-"), value)
            elif key == "result_check":
                self._set("result-check", value)
            else:
                # from_ for from, which Python keeps for itself.
                self._set(key.rstrip("_").replace("_", "-"), value)

    def _set(self, key, value):
        errp = ffi.new("kifu_error **")
        if lib.kifu_options_set(self.ptr, key.encode(),
                                _value(value).encode(), errp) != 0:
            _raise(errp)


class Definitions:
    """Openings and castles to name by: kifu's own with a file's over them,
    as ``kifu tag --definitions FILE`` reads it (doc/openings.md)."""

    def __init__(self, path):
        p = ffi.new("kifu_definitions **")
        errp = ffi.new("kifu_error **")
        if lib.kifu_definitions_read(os.fsencode(path), p, errp) != 0:
            _raise(errp)
        self.path = path
        self._ptr = ffi.gc(p[0], lib.kifu_definitions_free)

    def __repr__(self):
        return "Definitions(%r)" % self.path


class Node:
    """A move or a terminal in a record's tree; node 0 is the start."""

    __slots__ = ("_record", "index")

    def __init__(self, record, index):
        self._record = record
        self.index = index

    def _r(self):
        return self._record._ptr

    def _text(self, fn):
        buf = ffi.new("char[256]")
        n = fn(self._r(), self.index, buf, 256)
        if n < 0:
            return None
        if n >= 256:
            buf = ffi.new("char[]", n + 1)
            fn(self._r(), self.index, buf, n + 1)
        return ffi.string(buf).decode("utf-8")

    def _link(self, fn):
        i = fn(self._r(), self.index)
        return None if i < 0 else Node(self._record, i)

    @property
    def next(self):
        """The first continuation (the main line's), or None."""
        return self._link(lib.kifu_node_next)

    @property
    def alternative(self):
        """The next variation branching at the same place, or None."""
        return self._link(lib.kifu_node_alternative)

    @property
    def parent(self):
        return self._link(lib.kifu_node_parent)

    @property
    def alternatives(self):
        """This node's siblings after it: the variations at this place."""
        out, n = [], self.alternative
        while n is not None:
            out.append(n)
            n = n.alternative
        return out

    @property
    def ply(self):
        return lib.kifu_node_ply(self._r(), self.index)

    @property
    def is_move(self):
        return bool(lib.kifu_node_is_move(self._r(), self.index))

    @property
    def usi(self):
        return self._text(lib.kifu_node_usi)

    @property
    def kif(self):
        return self._text(lib.kifu_node_kif)

    @property
    def sfen(self):
        """The position after this node's move (the start for node 0)."""
        return self._text(lib.kifu_node_sfen)

    @property
    def text(self):
        return _str(lib.kifu_node_text(self._r(), self.index))

    @property
    def comment(self):
        return _str(lib.kifu_node_comment(self._r(), self.index))

    @property
    def time_ms(self):
        t = lib.kifu_node_time_ms(self._r(), self.index)
        return None if t < 0 else t

    @property
    def terminal(self):
        return _str(lib.kifu_node_terminal(self._r(), self.index))

    @property
    def rule(self):
        """The rule the move breaks ("nifu"), or None."""
        return _str(lib.kifu_node_rule(self._r(), self.index))

    def __repr__(self):
        return "Node(%d, %r)" % (self.index, self.usi or self.terminal)


# The pictures use the helpers above (a module of its own keeps them apart).
from ._pictures import Pictures as _Pictures  # noqa: E402


class Record(_Pictures):
    """One record of a file, replayed and judged.

    The attributes carry the names of ``kifu validate --json``: status,
    moves_count (its "moves"), final_sfen, result, recorded, rules,
    rules_from, rules_evidence, consistent, flipped, error, warnings; plus
    the headers, the main line (moves, in USI), its positions (SFEN, the
    start first) and the whole tree from ``root``; its pictures as
    ``kifu show`` draws them: board(), svg(), png(), gif().
    """

    def __init__(self, file, ptr):
        self._file = file         # keeps the C file alive
        self._ptr = ptr
        self._json = None

    @property
    def json(self):
        """validate's JSON object for this record."""
        if self._json is None:
            self._json = _json.loads(_str(lib.kifu_record_json(self._ptr)))
        return self._json

    file = property(lambda self: self._file.name)
    format = property(lambda self: self._file.format)
    encoding = property(lambda self: self._file.encoding)
    index = property(lambda self: lib.kifu_record_index(self._ptr))
    status = property(lambda self: _str(lib.kifu_record_status(self._ptr)))
    moves_count = property(lambda self: lib.kifu_record_moves(self._ptr))
    start_sfen = property(
        lambda self: _str(lib.kifu_record_start_sfen(self._ptr)))
    final_sfen = property(
        lambda self: _str(lib.kifu_record_final_sfen(self._ptr)))
    rules = property(lambda self: _str(lib.kifu_record_rules(self._ptr)))
    rules_from = property(
        lambda self: _str(lib.kifu_record_rules_from(self._ptr)))

    @property
    def result(self):
        if lib.kifu_record_result_winner(self._ptr) == ffi.NULL:
            return None
        return {"winner": _str(lib.kifu_record_result_winner(self._ptr)),
                "reason": _str(lib.kifu_record_result_reason(self._ptr)),
                "ply": lib.kifu_record_result_ply(self._ptr)}

    @property
    def recorded(self):
        out = {"terminal": _str(lib.kifu_record_recorded_terminal(
            self._ptr))}
        w = lib.kifu_record_recorded_winner(self._ptr)
        if w != ffi.NULL:
            out["winner"] = _str(w)
            out["reason"] = _str(lib.kifu_record_recorded_reason(self._ptr))
        return out

    @property
    def rules_evidence(self):
        what = _str(lib.kifu_record_rules_evidence(self._ptr))
        if what is None:
            return None
        line = lib.kifu_record_rules_evidence_line(self._ptr)
        return {"what": what, "line": line or None}

    @property
    def consistent(self):
        c = lib.kifu_record_consistent(self._ptr)
        return None if c < 0 else bool(c)

    @property
    def flipped(self):
        """Whether the record shows its board as White sees it (盤面回転)."""
        return bool(lib.kifu_record_flipped(self._ptr))

    @property
    def findings(self):
        return [KifuError._from(lib.kifu_record_finding(self._ptr, i))
                for i in range(lib.kifu_record_finding_count(self._ptr))]

    @property
    def error(self):
        e = lib.kifu_record_error(self._ptr)
        return None if e == ffi.NULL else KifuError._from(e)

    @property
    def warnings(self):
        return [f for f in self.findings if f.severity == "warning"]

    def check(self):
        """Raises KifuError for a record whose status is not "ok"."""
        if self.error is not None:
            raise self.error
        return self

    @property
    def headers(self):
        """(key as written, value, kind) for every header, in order."""
        n = lib.kifu_record_header_count(self._ptr)
        return [(_str(lib.kifu_record_header_key(self._ptr, i)),
                 _str(lib.kifu_record_header_value(self._ptr, i)),
                 _str(lib.kifu_record_header_kind(self._ptr, i)))
                for i in range(n)]

    def header(self, kind):
        """The value of the first header of a kind ("black", "event"...)."""
        return _str(lib.kifu_record_header(self._ptr, kind.encode()))

    @property
    def root(self):
        return Node(self, 0)

    def main_line(self):
        """The main line's legal moves, as Nodes."""
        out, n = [], self.root.next
        while n is not None and n.is_move:
            out.append(n)
            n = n.next
        return out

    @property
    def moves(self):
        """The main line's legal moves in USI."""
        return [n.usi for n in self.main_line()]

    @property
    def positions(self):
        """SFEN of the start and of the position after every legal move."""
        return [self.start_sfen] + [n.sfen for n in self.main_line()]

    def tags(self, definitions=None):
        """The record's openings and castles, as ``kifu tag --json`` names
        them: a dict with "named", "matchup", "game" and, for "black" and
        "white", "style", "openings" and "castles" (name, family, ply).

        definitions: a Definitions, or a definitions file's path, over
        kifu's own; None for kifu's own alone."""
        if definitions is not None and not isinstance(definitions,
                                                      Definitions):
            definitions = Definitions(definitions)
        d = definitions._ptr if definitions is not None else ffi.NULL
        out = ffi.new("char **")
        errp = ffi.new("kifu_error **")
        if lib.kifu_record_tags(self._ptr, d, out, errp) != 0:
            _raise(errp)
        try:
            return _json.loads(ffi.string(out[0]).decode("utf-8"))
        finally:
            lib.kifu_free(out[0])

    def write(self, format, **options):
        """This record in another format, as bytes (its encoding).

        Without options, those the record was read with."""
        o = _Options(options).ptr if options else ffi.NULL
        return _bytes_out(lib.kifu_record_write, self._ptr, format.encode(),
                          o)

    def export(self, format="hcpe", **options):
        """The record's training rows as bytes; KifuError when skipped.

        Without options, those the record was read with."""
        out = ffi.new("void **")
        n = ffi.new("size_t *")
        rows = ffi.new("size_t *")
        errp = ffi.new("kifu_error **")
        o = _Options(options).ptr if options else ffi.NULL
        if lib.kifu_record_export(self._ptr, format.encode(), o, out, n,
                                  rows, errp) != 0:
            _raise(errp)
        try:
            return bytes(ffi.buffer(out[0], n[0]))
        finally:
            lib.kifu_free(out[0])

    def __repr__(self):
        return "Record(%r#%d, %s, %s)" % (self.file, self.index, self.status,
                                          self.final_sfen)


class _File:
    def __init__(self, ptr):
        self.ptr = ffi.gc(ptr, lib.kifu_file_free)
        self.name = _str(lib.kifu_file_name(ptr))
        self.format = _str(lib.kifu_file_format(ptr))
        self.encoding = _str(lib.kifu_file_encoding(ptr))

    def records(self):
        return [Record(self, lib.kifu_file_record(self.ptr, i))
                for i in range(lib.kifu_file_count(self.ptr))]


def _read_file(path, options):
    fp = ffi.new("kifu_file **")
    errp = ffi.new("kifu_error **")
    if lib.kifu_read_file(os.fsencode(path), options, fp, errp) != 0:
        _raise(errp)
    return _File(fp[0])


def read(path, **options):
    """Every record of a file (any format and encoding), as Records."""
    return _read_file(path, _Options(options).ptr).records()


def read_bytes(data, name=None, **options):
    """Every record of bytes in memory; name is shown in messages."""
    fp = ffi.new("kifu_file **")
    errp = ffi.new("kifu_error **")
    if lib.kifu_read_buffer(data, len(data),
                            name.encode() if name else ffi.NULL,
                            _Options(options).ptr, fp, errp) != 0:
        _raise(errp)
    return _File(fp[0]).records()


def validate(path, **options):
    """validate's JSON objects, one for each record of the file."""
    return [r.json for r in read(path, **options)]


def convert(path, to, **options):
    """The file in another format, as `kifu convert` writes it (bytes)."""
    o = _Options(options).ptr
    f = _read_file(path, o)
    return _bytes_out(lib.kifu_file_write, f.ptr, to.encode(), o)


def _paths(paths):
    """Files, and the record files of directories, in name order."""
    if isinstance(paths, (str, bytes, os.PathLike)):
        paths = [paths]
    for p in paths:
        if os.path.isdir(p):
            for top, dirs, files in os.walk(p):
                dirs.sort()
                for name in sorted(files):
                    if name.lower().endswith(RECORD_EXTENSIONS):
                        yield os.path.join(top, name)
        else:
            yield p


# cshogi's record types, field for field (doc/training.md).
_DTYPES = {
    "hcpe": [("hcp", "u1", (32,)), ("eval", "<i2"), ("bestMove16", "<u2"),
             ("gameResult", "u1"), ("dummy", "u1")],
    "psv": [("sfen", "u1", (32,)), ("score", "<i2"), ("move", "<u2"),
            ("gamePly", "<u2"), ("game_result", "i1"), ("padding", "u1")],
    "hcp": [("hcp", "u1", (32,))],
}


def export(paths, format="hcpe", skipped=None, **options):
    """Training rows of every record of the paths (files or directories).

    hcpe, psv and hcp give a NumPy array of cshogi's dtype when NumPy is
    installed, else bytes; hcpe3 gives bytes (games of several sizes);
    sfen gives a list of lines. Records that cannot be exported (an
    illegal move, a position the format cannot hold) are left out and,
    when `skipped` is a list, appended to it as KifuErrors. A file that
    cannot be read raises KifuError.
    """
    chunks = []
    o = _Options(options)
    for path in _paths(paths):
        # Each record exports under the options its file was read with.
        for r in _read_file(path, o.ptr).records():
            try:
                chunks.append(r.export(format))
            except KifuError as e:
                if skipped is not None:
                    skipped.append(e)
    data = b"".join(chunks)
    if format == "sfen":
        return data.decode("utf-8").splitlines()
    if format not in _DTYPES:
        return data
    try:
        import numpy
    except ImportError:
        return data
    return numpy.frombuffer(data, dtype=numpy.dtype(_DTYPES[format]))


class Mate:
    """What ``kifu.mate`` found (the fields of ``kifu mate --json``).

    ``status`` is "mate", "nomate" (proved: no mate by checks at all) or
    "unknown" (the limits ran out; ``stop`` says which, and ``found`` is
    the length of a mate found but not proved shortest, or None).
    ``length`` is the mate's plies (None unless "mate"), ``line`` its
    moves in USI, ``line_kif`` as KIF writes them (▲５二金打), ``sfen``
    the position solved (the defender's hand filled under the problem
    rules), ``nodes`` and ``time`` (seconds) what it took.
    """

    __slots__ = ("status", "length", "line", "line_kif", "sfen", "stop",
                 "found", "nodes", "time", "json")

    def __init__(self, m):
        self.status = _str(lib.kifu_mate_status(m))
        n = lib.kifu_mate_length(m)
        self.length = n if n >= 0 else None
        count = lib.kifu_mate_line_count(m)
        self.line = [_str(lib.kifu_mate_line_usi(m, i)) for i in range(count)]
        self.line_kif = [_str(lib.kifu_mate_line_kif(m, i))
                         for i in range(count)]
        self.sfen = _str(lib.kifu_mate_sfen(m))
        self.stop = _str(lib.kifu_mate_stop(m)) or None
        found = lib.kifu_mate_found(m)
        self.found = found if found >= 0 else None
        self.nodes = lib.kifu_mate_nodes(m)
        self.time = lib.kifu_mate_seconds(m)
        self.json = _json.loads(_str(lib.kifu_mate_json(m)))

    def __bool__(self):
        return self.status == "mate"

    def __repr__(self):
        if self.status == "mate":
            return "Mate(mate %d: %s)" % (self.length, " ".join(self.line))
        return "Mate(%s)" % self.status


def mate(sfen, rules="game", nodes=None, time=None, memory=None, ply=None):
    """Solves a position for a mate by checks, as ``kifu mate`` does.

    ``sfen`` is an SFEN (with or without "sfen"), "startpos" or a USI
    position line with "moves ..."; ``rules`` "game" (any mate, every
    interposition counts) or "problem" (composed-problem conventions);
    ``nodes`` and ``time`` (seconds) limit the search, ``memory`` its
    tables ("256M", the default). Returns a Mate; a text that is no
    position, or a position with no king to mate or with the side not to
    move in check, raises KifuError (``id`` says which).
    """
    opts = _Options({})
    for key, value in (("mate.rules", rules), ("mate.nodes", nodes),
                       ("mate.time", time), ("mate.memory", memory),
                       ("ply", ply)):
        if value is not None:
            opts._set(key, value)
    out = ffi.new("kifu_mate **")
    errp = ffi.new("kifu_error **")
    if lib.kifu_mate_solve(sfen.encode(), opts.ptr, out, errp) != 0:
        _raise(errp)
    m = out[0]
    try:
        return Mate(m)
    finally:
        lib.kifu_mate_free(m)


class Engine:
    """A USI engine process, as ``kifu analyze`` runs one::

        with kifu.Engine("/usr/games/fairy-stockfish",
                         options={"Threads": 1}) as e:
            a = e.analyse("startpos", moves=["7g7f"], nodes=20000)
            print(a["best"], a["score_black"], a["pv"])

    The command line is split as a shell would (no shell runs); options
    are checked against those the engine declares before they are sent
    (KifuError with id "option" otherwise). ``analyse`` returns the
    object ``kifu analyze --json`` writes for a position (best, ponder,
    score_black, score_mover, mate, depth, nodes, pv, multipv, ...).
    Each search starts from a cleared hash, so node searches repeat.
    ``close()`` (or leaving the ``with``) ends the engine's processes;
    an Engine is used from one thread at a time, and by default dies with
    the thread that started it (``outlive_thread=True`` keeps it).
    """

    def __init__(self, command, options=None, log=None, init_timeout=None,
                 outlive_thread=False):
        opts = [("%s=%s" % (k, _engine_value(v))).encode()
                for k, v in (options or {}).items()]
        keep = [ffi.new("char[]", o) for o in opts]
        arr = ffi.new("const char *[]", keep + [ffi.NULL])
        out = ffi.new("kifu_engine **")
        errp = ffi.new("kifu_error **")
        flags = lib.KIFU_ENGINE_OUTLIVE_THREAD if outlive_thread else 0
        if lib.kifu_engine_start(
                command.encode(), arr, log.encode() if log else ffi.NULL,
                int(init_timeout * 1000) if init_timeout else 0, flags, out,
                errp) != 0:
            _raise(errp)
        self._e = out[0]

    @property
    def name(self):
        """The engine's ``id name``."""
        return _str(lib.kifu_engine_name(self._live()))

    @property
    def author(self):
        return _str(lib.kifu_engine_author(self._live()))

    def _live(self):
        if self._e is None:
            raise ValueError("the engine is closed")
        return self._e

    def analyse(self, sfen="startpos", moves=(), nodes=None, depth=None,
                movetime=None, multipv=1, timeout=None):
        """The analysis of the position after `moves` (USI) from `sfen`,
        with one limit: nodes, depth, or movetime (milliseconds; the
        default, 1000). timeout: the longest a search may take, in
        seconds."""
        given = [(k, v) for k, v in (("nodes", nodes), ("depth", depth),
                                     ("movetime", movetime)) if v is not None]
        if len(given) > 1:
            raise ValueError("one limit: nodes, depth or movetime")
        kind, value = given[0] if given else ("movetime", 1000)
        if isinstance(moves, str):
            moves = moves.split()
        out = ffi.new("char **")
        errp = ffi.new("kifu_error **")
        if lib.kifu_engine_analyse(
                self._live(), sfen.encode(), " ".join(moves).encode(),
                ("%s %d" % (kind, int(value))).encode(), int(multipv),
                int(timeout * 1000) if timeout else 0, out, errp) != 0:
            _raise(errp)
        try:
            return _json.loads(ffi.string(out[0]).decode("utf-8"))
        finally:
            lib.kifu_free(out[0])

    def close(self):
        """Stops and quits the engine and ends its processes."""
        if self._e is not None:
            lib.kifu_engine_close(self._e)
            self._e = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        if getattr(self, "_e", None) is not None:
            self.close()


def _engine_value(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


# Statistics, books and the walk, each in a module of its own.
from ._stats import Stats, stats  # noqa: E402,F401
from ._walk import File, walk  # noqa: E402,F401
from ._book import Book, book_query  # noqa: E402,F401
