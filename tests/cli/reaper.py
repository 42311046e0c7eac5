#!/usr/bin/env python3
"""reaper.py REPORT CMD... - runs CMD as a child subreaper (Linux
PR_SET_CHILD_SUBREAPER) and, once it has exited, says what it left
behind: every process it started that outlived it comes back to this
process instead of init, alive or as a zombie. REPORT gets one line a
pid: "zombie PID" (a process that exited and nobody reaped: for a direct
child of CMD, a zombie CMD left) or "alive PID" (still running two
seconds after CMD exited: killed here, so that no test leaves one
behind). Exits with CMD's status (128 + N for signal N).

The engine tests (tests/cli/t14*-analyze-*.sh) run kifu through it, with
the mock engine writing its pids, and check that none of kifu's engines
is in the report."""
import ctypes
import os
import signal
import sys
import time

PR_SET_CHILD_SUBREAPER = 36


def main():
    report, cmd = sys.argv[1], sys.argv[2:]
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        sys.stderr.write("reaper.py: prctl failed\n")
        return 2
    child = os.fork()
    if child == 0:
        try:
            # A shell without job control starts a background command
            # with SIGINT and SIGQUIT ignored, and an ignored signal stays
            # ignored across exec: CMD would never see the SIGINT a test
            # sends it. Give it the default, as a terminal would.
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            signal.signal(signal.SIGQUIT, signal.SIG_DFL)
            os.execvp(cmd[0], cmd)
        finally:
            os._exit(127)
    # A test may ask for CMD to be interrupted: pass SIGTERM and SIGINT on.
    for s in (signal.SIGTERM, signal.SIGINT):
        signal.signal(s, lambda n, f: os.kill(child, n))
    while True:
        try:
            _, status = os.waitpid(child, 0)
            break
        except InterruptedError:
            continue
    code = os.waitstatus_to_exitcode(status)
    if code < 0:
        code = 128 - code
    lines = []
    deadline = time.monotonic() + 2.0
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            break
        if pid:
            lines.append("zombie %d" % pid)
            continue
        if time.monotonic() > deadline:
            for pid in alive_children():
                lines.append("alive %d" % pid)
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            deadline = time.monotonic() + 5.0
            while time.monotonic() < deadline:
                try:
                    if os.waitpid(-1, os.WNOHANG)[0] == 0:
                        time.sleep(0.01)
                except ChildProcessError:
                    break
            break
        time.sleep(0.01)
    with open(report, "w") as f:
        for line in lines:
            f.write(line + "\n")
    return code


def alive_children():
    me = os.getpid()
    out = []
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % d) as f:
                st = f.read()
        except OSError:
            continue
        fields = st[st.rindex(")") + 2:].split()
        if int(fields[1]) == me:
            out.append(int(d))
    return out


if __name__ == "__main__":
    sys.exit(main())
