"""A record's position as ``kifu show`` draws it: the terminal board,
SVG, PNG, the game as an animated GIF, and its evaluations as a graph
(kifu_record_show)."""
from ._lib import lib


def _show(record, what, options):
    # Imported here: the package's __init__ imports this module.
    from . import _Options, _bytes_out
    o = _Options({k: v for k, v in options.items() if v is not None})
    return _bytes_out(lib.kifu_record_show, record._ptr, what.encode(),
                      o.ptr)


class Pictures:
    """The pictures of a Record (its base class).

    ``ply`` is the position after that many moves of the main line
    (None: after its last legal move); ``flip`` draws the board as White
    sees it (None: as the record says, ``Record.flipped``); ``size`` is
    the width in pixels (120-4000).
    """

    def board(self, ply=None, ascii=False, color=False, moves=False):
        """The board as ``kifu show`` prints it: a KIF diagram in kanji
        (CSA's P lines with ascii=True), the last move's square in ANSI
        colour with color=True, the main line listed after it with
        moves=True."""
        return _show(self, "text", {
            "ply": ply, "ascii": ascii, "moves": moves,
            "color": "always" if color else "never"}).decode("utf-8")

    def svg(self, ply=None, flip=None, size=480):
        """The position as an SVG diagram (str)."""
        return _show(self, "svg", {"ply": ply, "flip": flip,
                                   "size": size}).decode("utf-8")

    def png(self, ply=None, flip=None, size=480):
        """The position as a PNG (bytes), drawn by librsvg."""
        return _show(self, "png", {"ply": ply, "flip": flip, "size": size})

    def gif(self, ply=None, flip=None, size=480, delay=1000,
            real_time=None):
        """The game from the start to the position as an animated GIF
        (bytes): a frame a move, each ``delay`` ms, or with real_time
        (a factor) the time the record gives the next move, times it."""
        return _show(self, "gif", {"ply": ply, "flip": flip, "size": size,
                                   "delay": delay, "real_time": real_time})

    def graph(self, ply=None, color=False):
        """The evaluations of the main line (to ply) as ``kifu show
        --graph`` prints them: a sparkline, the last evaluation and the
        flagged moves, one line (ANSI colours with color=True).
        KifuError (id "no-evaluation") for a record without any."""
        return _show(self, "graph", {
            "ply": ply, "color": "always" if color else "never"}
        ).decode("utf-8")

    def graph_svg(self, ply=None, size=640):
        """The evaluation graph as SVG (str), as ``--graph --svg``."""
        return _show(self, "graph-svg", {"ply": ply,
                                         "size": size}).decode("utf-8")

    def graph_png(self, ply=None, size=640):
        """The evaluation graph as a PNG (bytes), as ``--graph --png``."""
        return _show(self, "graph-png", {"ply": ply, "size": size})

    def _repr_svg_(self):
        # Jupyter shows a record as its final position.
        if self.final_sfen is None:
            return None
        return self.svg()
