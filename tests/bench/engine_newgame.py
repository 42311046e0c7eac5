#!/usr/bin/env python3
"""engine_newgame.py ENGINE N - what an engine takes for `usinewgame`, in
milliseconds a call: N times usinewgame + isready (to readyok), less N
times isready alone. kifu analyze sends usinewgame before each search
under --nodes and --depth (a cleared hash: repeatable results), and the
engine does that work outside the times it reports for its searches; the
analysis bench (tests/bench/analyze.sh) measures it with this, in the
same run. Prints "newgame MS"."""
import subprocess
import sys
import time


def main():
    engine, n = sys.argv[1], int(sys.argv[2])
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
                return

    def timed(cmd):
        t0 = time.monotonic()
        for _ in range(n):
            send(cmd)
            until("readyok")
        return time.monotonic() - t0

    send("usi")
    until("usiok")
    send("isready")
    until("readyok")
    alone = timed("isready")
    both = timed("usinewgame\nisready")
    send("quit")
    p.wait()
    print("newgame %.3f" % (max(both - alone, 0) * 1000 / n))


if __name__ == "__main__":
    main()
