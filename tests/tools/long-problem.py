#!/usr/bin/env python3
# Writes testdata/rules/long-problem.usi (to stdout): 600 plies from a
# position with White's king alone, as a composed problem has it, so
# that `auto` judges it as a problem, with no move limit, where `jsa`
# stops it at move 500. Random legal moves (seeded: the file is the same
# every time), no position a third time, and never a move after which
# the side to move has no reply, so the line runs its whole length.
#   python3 tests/tools/long-problem.py ./kifu >testdata/rules/long-problem.usi
import random
import subprocess
import sys

kifu = sys.argv[1]
random.seed(1525)
start = "4k4/9/9/9/9/9/9/9/4G4 b R2B3G4S4N4L18P 1"


def run(*args, text=None):
    return subprocess.run([kifu, *args], input=text, capture_output=True,
                          text=True, check=False).stdout


def sfen_after(moves):
    return run("convert", "-t", "sfen", "-",
               text="sfen %s moves %s" % (start, " ".join(moves))).strip()


moves, seen, cur = [], {}, sfen_after([])
while len(moves) < 600:
    legal = run("moves", "--sfen", cur).split()
    random.shuffle(legal)
    for m in legal:
        nxt = sfen_after(moves + [m])
        key = nxt.rsplit(" ", 1)[0]
        if seen.get(key, 0) >= 2 or not run("moves", "--sfen", nxt).split():
            continue
        moves.append(m)
        seen[key] = seen.get(key, 0) + 1
        cur = nxt
        break
    else:
        sys.exit("no move to play at ply %d" % len(moves))
print("sfen %s moves %s" % (start, " ".join(moves)))
