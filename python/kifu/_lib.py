"""The C library through cffi's ABI mode: no compiler at install time.

The declarations are read from kifu.h itself, so that they cannot drift
from the library: everything between the markers cffi can parse (the
prototypes and typedefs), with the preprocessor lines left out.
"""
import ctypes.util
import os
import re

from cffi import FFI

_HERE = os.path.dirname(os.path.abspath(__file__))


def _header_path():
    for path in (os.environ.get("KIFU_HEADER"),
                 os.path.join(_HERE, "kifu.h"),
                 os.path.join(_HERE, "..", "..", "include", "kifu", "kifu.h"),
                 "/usr/local/include/kifu/kifu.h",
                 "/usr/include/kifu/kifu.h"):
        if path and os.path.exists(path):
            return path
    raise ImportError("kifu.h not found: set KIFU_HEADER to its path")


def _declarations(text):
    """The header as cffi reads it: comments, the include guard and the
    extern "C" lines out; integer #defines kept (cffi takes them)."""
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    keep = []
    for line in text.splitlines():
        if line.startswith("#"):
            if re.match(r"#define KIFU_\w+ \d+$", line):
                keep.append(line)
            continue
        if line.strip() in ('extern "C" {', "}"):
            continue
        keep.append(line)
    return "\n".join(keep)


def _library_path():
    for path in (os.environ.get("KIFU_LIBRARY"),
                 os.path.join(_HERE, "libkifu.so.0"),
                 os.path.join(_HERE, "..", "..", "libkifu.so.0")):
        if path and os.path.exists(path):
            return path
    found = ctypes.util.find_library("kifu")
    if found:
        return found
    raise ImportError("libkifu not found: install kifu (make install) or "
                      "set KIFU_LIBRARY to libkifu.so's path")


ffi = FFI()
with open(_header_path(), encoding="utf-8") as f:
    ffi.cdef(_declarations(f.read()))
lib = ffi.dlopen(_library_path())
