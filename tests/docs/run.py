#!/usr/bin/env python3
"""Run every example of README.md and doc/*.md and compare what it prints.

    python3 tests/docs/run.py KIFU [DOC...]       (make check-docs)
    python3 tests/docs/run.py --actual KIFU DOC   print what each command
                                                  printed, in the doc's form

The convention (doc/README.md, "How the examples are tested"):

- A fenced block whose info string is `console` holds examples. A line
  that starts with `$ ` is a command (it goes on on the next line when
  it ends in a backslash, or when the next line starts with `> `, as a
  shell's second prompt shows it); the lines after it, up to the next
  command or the block's end, are what it prints: standard output, then
  standard error.
- A last line `[N]` says the command exits with status N; a command
  that exits with another status than the one shown (0 when none is)
  fails, as cram's tests do.
- In the expected lines, a line `...` stands for any lines (none too),
  and `[...]` inside a line for any text within that line. Blanks at the
  end of a line do not count; everything else is compared exactly.
- An HTML comment on the line before a block says more about it:
    <!-- doc-test: skip: REASON -->        not run; the reason is printed
    <!-- doc-test: needs PROGRAM -->       run only where PROGRAM is on PATH
                                           (or in /usr/games), else skipped
    <!-- doc-test: file NAME -->           the block (any kind) is written
                                           to NAME in the scratch directory
    <!-- doc-test: copy-of PATH -->        the block must be the source
                                           tree's PATH, byte for byte
  A block of shell commands (sh, bash, shell, zsh) must be marked skip:
  commands are shown in console blocks, which are run.
- Each document runs in a scratch directory of its own that holds a copy
  of testdata/ and of what tests/docs/files/ holds (when it exists), with
  `kifu` first on PATH; its blocks run in order, so a later example may
  use what an earlier one wrote. Paths are as from the top of the source
  tree, so a reader can run the same commands there.

A failing comparison prints the document, its line, the command and a
diff; the exit status is 1 if any example failed or a document breaks
the convention.
"""

import difflib
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
TIMEOUT = 600  # seconds a command may take: ASan, a loaded machine, engines
SHELL_LANGS = {"sh", "bash", "shell", "zsh"}
DIRECTIVE = re.compile(r"^\s*<!--\s*doc-test:\s*(.*?)\s*-->\s*$")
STATUS = re.compile(r"^\[(\d+)\]$")
FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})\s*([^`\s]*)")


class Block:
    def __init__(self, doc, line, lang, lines, directives):
        self.doc = doc
        self.line = line  # the line of the opening fence, from 1
        self.lang = lang
        self.lines = lines  # (line number, text) of the block's content
        self.directives = directives


def parse(doc, text, problems):
    """The fenced blocks of a Markdown text, with their directives."""
    lines = text.split("\n")
    blocks = []
    pending = []
    i = 0
    while i < len(lines):
        line = lines[i]
        m = DIRECTIVE.match(line)
        if m:
            pending.append((i + 1, m.group(1)))
            i += 1
            continue
        f = FENCE.match(line)
        if f:
            indent, fence, lang = f.group(1), f.group(2), f.group(3)
            start = i
            body = []
            i += 1
            while i < len(lines):
                c = lines[i]
                if c.strip().startswith(fence[0] * len(fence)) and \
                        c.strip().strip(fence[0]) == "":
                    break
                body.append((i + 1, c[len(indent):] if c.startswith(indent)
                             else c.lstrip()))
                i += 1
            else:
                problems.append("%s:%d: a block that never closes" %
                                (doc, start + 1))
            blocks.append(Block(doc, start + 1, lang, body,
                                [d for _, d in pending]))
            pending = []
            i += 1
            continue
        if pending:
            for n, d in pending:
                problems.append("%s:%d: doc-test directive '%s' is not "
                                "followed by a block" % (doc, n, d))
            pending = []
        # An indented code block showing a command would not be run.
        if re.match(r"^(    |\t)\s*\$ ", line):
            problems.append("%s:%d: a command outside a console block: %s" %
                            (doc, i + 1, line.strip()))
        i += 1
    for n, d in pending:
        problems.append("%s:%d: doc-test directive '%s' is not followed by "
                        "a block" % (doc, n, d))
    return blocks


def examples(block, problems):
    """The (line, command, expected lines) of a console block."""
    out = []
    cur = None
    rows = block.lines
    j = 0
    while j < len(rows):
        n, text = rows[j]
        if text.startswith("$ ") or text == "$":
            cmd = text[2:]
            while j + 1 < len(rows) and (cmd.endswith("\\") or
                                         rows[j + 1][1].startswith("> ")):
                j += 1
                more = rows[j][1]
                cmd += "\n" + (more[2:] if more.startswith("> ") else more)
            cur = (n, cmd, [])
            out.append(cur)
        elif cur is None:
            if text.strip():
                problems.append("%s:%d: output before the block's first "
                                "command" % (block.doc, n))
        else:
            cur[2].append(text)
        j += 1
    for n, _, exp in out:
        while exp and exp[-1] == "":
            exp.pop()
        if any(STATUS.match(t) for t in exp[:-1]):
            problems.append("%s:%d: an exit status [N] must be the last "
                            "line of a command's output" % (block.doc, n))
    if not out:
        problems.append("%s:%d: a console block without a command" %
                        (block.doc, block.line))
    return out


def line_matches(pattern, text):
    # Blanks at the end of a line are invisible in a document, and editors
    # strip them: they do not count.
    pattern, text = pattern.rstrip(" \t"), text.rstrip(" \t")
    if "[...]" not in pattern:
        return pattern == text
    parts = [re.escape(p) for p in pattern.split("[...]")]
    return re.fullmatch(".*".join(parts), text, re.S) is not None


def matches(expected, actual):
    """Whether the actual lines fit the expected ones (`...`: any lines)."""
    memo = {}

    def go(i, j):
        key = (i, j)
        if key in memo:
            return memo[key]
        if i == len(expected):
            r = j == len(actual)
        elif expected[i] == "...":
            r = any(go(i + 1, k) for k in range(j, len(actual) + 1))
        else:
            r = j < len(actual) and line_matches(expected[i], actual[j]) \
                and go(i + 1, j + 1)
        memo[key] = r
        return r

    sys.setrecursionlimit(max(10000, 4 * (len(expected) + len(actual))))
    return go(0, 0)


def find_program(name):
    path = os.environ.get("PATH", "") + os.pathsep + "/usr/games"
    return shutil.which(name, path=path)


def environment(bindir, scratch):
    env = dict(os.environ)
    env["PATH"] = bindir + os.pathsep + env.get("PATH", "/usr/bin:/bin") + \
        os.pathsep + "/usr/games"
    for k in ("LANGUAGE", "LC_CTYPE", "LC_MESSAGES", "NO_COLOR", "KIFU"):
        env.pop(k, None)
    env["LC_ALL"] = "C.UTF-8"
    env["LANG"] = "C.UTF-8"
    env["TZ"] = "UTC"
    env["TERM"] = "dumb"
    env["COLUMNS"] = "80"
    env["HOME"] = os.path.join(scratch, ".home")
    env["TMPDIR"] = os.path.join(scratch, ".tmp")
    # The graphics libraries kifu show loads keep caches until exit.
    supp = os.path.join(TOP, "tests", "lsan.supp")
    lsan = "suppressions=%s:print_suppressions=0" % supp
    if env.get("LSAN_OPTIONS"):
        lsan += ":" + env["LSAN_OPTIONS"]
    env["LSAN_OPTIONS"] = lsan
    # The Python package over the libkifu.so of this tree (make all).
    libs = sorted(f for f in os.listdir(TOP)
                  if re.fullmatch(r"libkifu\.so\.\d+\.\d+\.\d+", f))
    if libs:
        env["KIFU_LIBRARY"] = os.path.join(TOP, libs[-1])
        env["PYTHONPATH"] = os.path.join(TOP, "python") + \
            (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    return env


def prepare(scratch):
    shutil.copytree(os.path.join(TOP, "testdata"),
                    os.path.join(scratch, "testdata"), symlinks=True)
    files = os.path.join(TOP, "tests", "docs", "files")
    if os.path.isdir(files):
        for name in sorted(os.listdir(files)):
            src = os.path.join(files, name)
            dst = os.path.join(scratch, name)
            if os.path.isdir(src):
                shutil.copytree(src, dst, symlinks=True)
            else:
                shutil.copy2(src, dst)
    os.mkdir(os.path.join(scratch, ".home"))
    os.mkdir(os.path.join(scratch, ".tmp"))



def run(cmd, scratch, env):
    """What the command printed, as lines, and its exit status (-1:
    killed)."""
    # A session of its own, so that a command that hangs is killed with
    # everything it started (an engine, a pipeline): nothing is left behind.
    p = subprocess.Popen(["sh", "-c", cmd], cwd=scratch, env=env,
                         stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, start_new_session=True)
    try:
        stdout, stderr = p.communicate(timeout=TIMEOUT)
        status = p.returncode
        try:
            os.killpg(p.pid, signal.SIGKILL)  # what it left running
        except ProcessLookupError:
            pass
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        stdout, stderr = p.communicate()
        stderr += b"\n[doc-test: killed after %d s]\n" % TIMEOUT
        status = -9
    out = stdout + stderr
    text = out.decode("utf-8", "backslashreplace")
    if text.endswith("\n"):
        text = text[:-1]
    return (text.split("\n") if text else []), max(status, -1)


def check_doc(doc, kifu_dir, mode, counts, problems, skipped):
    rel = os.path.relpath(doc, TOP)
    with open(doc, encoding="utf-8") as f:
        text = f.read()
    blocks = parse(rel, text, problems)
    work = [b for b in blocks if b.lang == "console" or b.directives]
    for b in blocks:
        # A markdown block shows a document's text, examples and all.
        if b.lang not in ("console", "markdown", "md"):
            for n, t in b.lines:
                if t.startswith("$ ") and not any(
                        d.startswith("skip:") for d in b.directives):
                    problems.append("%s:%d: a command outside a console "
                                    "block: %s" % (rel, n, t))
        if b.lang in SHELL_LANGS and not any(d.startswith("skip:")
                                             for d in b.directives):
            problems.append("%s:%d: a %s block is not run: show commands "
                            "in a console block, or mark it skip with a "
                            "reason" % (rel, b.line, b.lang))
    if not work:
        return
    scratch = tempfile.mkdtemp(prefix="kifu-docs.")
    try:
        prepare(scratch)
        env = environment(kifu_dir, scratch)
        for b in work:
            skip = None
            for d in b.directives:
                if d.startswith("skip:"):
                    reason = d[5:].strip()
                    if not reason:
                        problems.append("%s:%d: skip without a reason" %
                                        (rel, b.line))
                    skip = reason or "no reason"
                elif d.startswith("needs "):
                    prog = d[6:].strip()
                    if not find_program(prog):
                        skip = "needs %s, which is not installed" % prog
                elif d.startswith("file "):
                    name = d[5:].strip()
                    path = os.path.join(scratch, name)
                    os.makedirs(os.path.dirname(path), exist_ok=True)
                    with open(path, "w", encoding="utf-8") as f:
                        f.write("".join(t + "\n" for _, t in b.lines))
                elif d.startswith("copy-of "):
                    name = d[8:].strip()
                    try:
                        with open(os.path.join(TOP, name),
                                  encoding="utf-8") as f:
                            want = f.read()
                    except OSError as e:
                        problems.append("%s:%d: copy-of %s: %s" %
                                        (rel, b.line, name, e.strerror))
                        continue
                    have = "".join(t + "\n" for _, t in b.lines)
                    counts["copies"] += 1
                    if have != want:
                        counts["failed"] += 1
                        print("FAIL: %s:%d: the block is not %s" %
                              (rel, b.line, name))
                        sys.stdout.writelines(difflib.unified_diff(
                            have.splitlines(True), want.splitlines(True),
                            rel, name))
                else:
                    problems.append("%s:%d: unknown doc-test directive '%s'"
                                    % (rel, b.line, d))
            if b.lang != "console":
                continue
            exs = examples(b, problems)
            if skip is not None:
                counts["skipped"] += len(exs)
                skipped.append("%s:%d: %d command(s): %s" %
                               (rel, b.line, len(exs), skip))
                continue
            if mode == "actual":
                print("```console")
            for n, cmd, expected in exs:
                actual, got = run(cmd, scratch, env)
                if mode == "actual":
                    print("$ " + cmd)
                    for a in actual:
                        print(a)
                    if got:
                        print("[%d]" % got)
                    continue
                counts["run"] += 1
                want = 0
                if expected and STATUS.match(expected[-1]):
                    want = int(expected[-1][1:-1])
                    expected = expected[:-1]
                if want == got and matches(expected, actual):
                    counts["passed"] += 1
                    continue
                counts["failed"] += 1
                print("FAIL: %s:%d: $ %s" % (rel, n, cmd))
                if want != got:
                    print("  exit status %s, not %d" %
                          (got if got >= 0 else "killed", want))
                for d in difflib.unified_diff(expected, actual,
                                              "%s (expected)" % rel,
                                              "kifu (actual)", lineterm=""):
                    print("  " + d)
            if mode == "actual":
                print("```")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def main(argv):
    mode = "check"
    if argv and argv[0] == "--actual":
        mode = "actual"
        argv = argv[1:]
    if not argv:
        print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
        return 2
    kifu = os.path.abspath(argv[0])
    if not os.access(kifu, os.X_OK):
        print("docs: %s is no program" % kifu, file=sys.stderr)
        return 2
    docs = [os.path.abspath(d) for d in argv[1:]]
    if not docs:
        docs = [os.path.join(TOP, "README.md")]
        d = os.path.join(TOP, "doc")
        if os.path.isdir(d):
            docs += sorted(os.path.join(d, f) for f in os.listdir(d)
                           if f.endswith(".md"))
    bindir = tempfile.mkdtemp(prefix="kifu-docs-bin.")
    try:
        os.symlink(kifu, os.path.join(bindir, "kifu"))
        counts = dict(run=0, passed=0, failed=0, skipped=0, copies=0)
        problems, skipped = [], []
        for doc in docs:
            check_doc(doc, bindir, mode, counts, problems, skipped)
    finally:
        shutil.rmtree(bindir, ignore_errors=True)
    if mode == "actual":
        return 0
    for s in skipped:
        print("skipped: " + s)
    for p in problems:
        print("docs: " + p)
    print("docs: %d documents, %d commands: %d passed, %d failed, "
          "%d skipped; %d copies checked; %d problems" %
          (len(docs), counts["run"], counts["passed"],
           counts["failed"], counts["skipped"], counts["copies"],
           len(problems)))
    return 1 if counts["failed"] or problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
