#!/bin/sh
# Checks the build dependencies of `make check`; installs the missing ones
# with apt-get when run as root on Debian, otherwise names them and fails.
missing=""
command -v pkg-config >/dev/null 2>&1 || missing="$missing pkg-config"
if command -v pkg-config >/dev/null 2>&1; then
	pkg-config --exists cmocka || missing="$missing libcmocka-dev"
	pkg-config --exists libpcre2-8 || missing="$missing libpcre2-dev"
	pkg-config --exists libarchive || missing="$missing libarchive-dev"
	pkg-config --exists jansson || missing="$missing libjansson-dev"
	pkg-config --exists librsvg-2.0 || missing="$missing librsvg2-dev"
	pkg-config --exists sqlite3 || missing="$missing libsqlite3-dev"
else
	missing="$missing libcmocka-dev libpcre2-dev libarchive-dev libjansson-dev"
	missing="$missing librsvg2-dev libsqlite3-dev"
fi
# kifu index: the sqlite3 shell reads and damages indexes in the tests.
command -v sqlite3 >/dev/null 2>&1 || missing="$missing sqlite3"
# kifu show: giflib's header (no .pc in Debian), a CJK font for the
# pictures, and for the tests rsvg-convert (a second rendering) and
# python3 (tests/picture.py reads the PNG and GIF files).
printf '#include <gif_lib.h>\n' | ${CC:-cc} -E -x c - >/dev/null 2>&1 ||
	missing="$missing libgif-dev"
if command -v fc-list >/dev/null 2>&1; then
	fc-list :lang=ja | grep -q . || missing="$missing fonts-noto-cjk"
else
	[ -e /usr/share/fonts/opentype/noto/NotoSerifCJK-Regular.ttc ] ||
		missing="$missing fonts-noto-cjk"
fi
command -v rsvg-convert >/dev/null 2>&1 || missing="$missing librsvg2-bin"
command -v python3 >/dev/null 2>&1 || missing="$missing python3"
# The installed pages and completions (tests/install.sh): man-db and
# mandoc render and lint the pages, zsh loads its completion.
command -v man >/dev/null 2>&1 || missing="$missing man-db"
command -v mandoc >/dev/null 2>&1 || missing="$missing mandoc"
command -v zsh >/dev/null 2>&1 || missing="$missing zsh"
# The Python package's tests: Debian's python3 with cffi, pytest and
# NumPy (the Makefile's PYTHON, /usr/bin/python3 where it exists).
py=${PYTHON:-python3}
if command -v "$py" >/dev/null 2>&1; then
	"$py" -c 'import cffi' 2>/dev/null || missing="$missing python3-cffi"
	"$py" -c 'import pytest' 2>/dev/null || missing="$missing python3-pytest"
	"$py" -c 'import numpy' 2>/dev/null || missing="$missing python3-numpy"
else
	missing="$missing python3-cffi python3-pytest python3-numpy"
fi
# The engines of kifu analyze's tests (Debian's fairy-stockfish and
# gpsshogi): installed when root can, else their tests say "skipped";
# never a reason to fail.
engines=""
[ -x /usr/games/fairy-stockfish ] || engines="$engines fairy-stockfish"
[ -x /usr/games/gpsusi ] || engines="$engines gpsshogi"
if [ -n "$engines" ]; then
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
		echo "deps: installing$engines (the engines' tests)"
		{ apt-get install -y -qq $engines >/dev/null 2>&1 ||
		    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
		    apt-get install -y -qq $engines >/dev/null; }; } ||
		    echo "deps: could not install$engines: their tests are skipped"
	else
		echo "deps: not installed:$engines; the engine tests that need them are skipped (sudo apt-get install$engines)"
	fi
fi
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
	echo "deps: installing$missing"
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
		apt-get install -y -qq $missing >/dev/null || exit 2
	exit 0
fi
echo "deps: missing build dependencies:$missing" >&2
echo "deps: install them with: sudo apt-get install$missing" >&2
exit 2
