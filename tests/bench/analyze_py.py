#!/usr/bin/env python3
"""analyze_py.py ENGINE NODES PLIES FILE... - what users write by hand
around an engine (the baseline of kifu analyze in make bench): a plain
subprocess, `position`/`go` a position, read to `bestmove`, keep the last
score. FILEs hold USI records ("[position] startpos moves ...", one a line, as
kifu convert -t usi writes them); the
positions after 0 to PLIES moves of each are analysed at `go nodes
NODES`, each from a cleared hash (usinewgame), as kifu analyze does.
Prints "positions N seconds S engine E", E the engine's own times (the
last info line's time of each search) summed, in seconds: the bench
compares each side's wall time with the engine's work it waited for,
which swings from run to run on a shared machine."""
import subprocess
import sys
import time


def main():
    engine, nodes, plies = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    games = []
    for path in sys.argv[4:]:
        with open(path) as f:
            for line in f:
                words = line.split()
                if words[:1] == ["position"]:
                    words = words[1:]
                if words[:2] == ["startpos", "moves"]:
                    games.append(words[2:])
                elif words == ["startpos"]:
                    games.append([])
    t0 = time.monotonic()
    p = subprocess.Popen([engine], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                         text=True, bufsize=1)

    def send(s):
        p.stdin.write(s + "\n")
        p.stdin.flush()

    def until(word):
        while True:
            line = p.stdout.readline()
            if not line:
                raise SystemExit("the engine died")
            if line.split()[:1] == [word]:
                return line

    send("usi")
    until("usiok")
    send("isready")
    until("readyok")
    n = 0
    engine_ms = 0
    scores = []
    for moves in games:
        for k in range(min(plies, len(moves)) + 1):
            send("usinewgame")
            send("position startpos moves " + " ".join(moves[:k])
                 if k else "position startpos")
            send("go nodes %d" % nodes)
            score = None
            took = 0
            while True:
                line = p.stdout.readline()
                w = line.split()
                if not w:
                    if not line:
                        raise SystemExit("the engine died")
                    continue
                if w[0] == "bestmove":
                    break
                if w[0] == "info" and "score" in w:
                    i = w.index("score")
                    score = (w[i + 1], w[i + 2])
                if w[0] == "info" and "time" in w:
                    took = int(w[w.index("time") + 1])
            scores.append(score)
            engine_ms += took
            n += 1
    send("quit")
    p.wait()
    print("positions %d seconds %.3f engine %.3f"
          % (n, time.monotonic() - t0, engine_ms / 1000))


if __name__ == "__main__":
    main()
