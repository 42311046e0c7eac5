#!/bin/sh
# make install into a temporary DESTDIR, then use what was installed as
# a user would: the example program of README.md built with pkg-config
# against the installed tree and run, the shared library's exported
# symbols (kifu_ only), and make uninstall leaving nothing behind.
#   sh tests/install.sh        (make check-install; needs `make` first)
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kifu-install.XXXXXX")
failed=0
prefix=/usr/local
say() { echo "install: $*"; failed=1; }

make -s -C "$top" install DESTDIR="$tmp" PREFIX="$prefix" >"$tmp.log" 2>&1 ||
	{ say "make install failed"; cat "$tmp.log"; exit 1; }
root=$tmp$prefix
for f in bin/kifu lib/libkifu.a lib/libkifu.so lib/libkifu.so.0 \
    include/kifu/kifu.h lib/pkgconfig/kifu.pc; do
	[ -e "$root/$f" ] || say "missing $f"
done
readelf -d "$root/lib/libkifu.so" | grep -q 'SONAME.*libkifu\.so\.0' ||
	say "no soname libkifu.so.0"

# Only the public API is exported.
others=$(nm -D --defined-only "$root/lib/libkifu.so" |
    awk '$2 != "A" && $3 !~ /^kifu_/ { print $3 }')
[ -z "$others" ] || say "exported beyond kifu_: $(echo $others | head -c 300)"
[ "$(nm -D --defined-only "$root/lib/libkifu.so" | grep -c ' kifu_')" -gt 50 ] ||
	say "too few kifu_ symbols"
# Every function the header declares is there, and nothing it does not.
sed -n 's/^[a-z].*[ *]\(kifu_[a-z0-9_]*\)(.*/\1/p' "$top/include/kifu/kifu.h" |
    sort -u >"$tmp/declared"
nm -D --defined-only "$root/lib/libkifu.so" | awk '$3 ~ /^kifu_/ { print $3 }' |
    sed 's/@.*//' | sort -u >"$tmp/exported"
cmp -s "$tmp/declared" "$tmp/exported" ||
	{ say "declared and exported differ"; diff "$tmp/declared" "$tmp/exported"; }

# The README's example is api/example.c, word for word.
awk '/<!-- api\/example.c -->/ { p = 1; next }
    p && /^    / { s = 1; print substr($0, 5); next }
    p && s && /^$/ { print; next }
    p && s { exit }' "$top/README.md" | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}' \
    >"$tmp/readme-example.c"
cmp -s "$tmp/readme-example.c" "$top/api/example.c" ||
	{ say "README's example is not api/example.c"; diff "$tmp/readme-example.c" "$top/api/example.c" | head; }

# Built against the installed tree only, as a user would.
export PKG_CONFIG_PATH="$root/lib/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$tmp"
flags=$(pkg-config --cflags --libs kifu) || say "pkg-config knows no kifu"
[ "$(pkg-config --modversion kifu)" = "$("$root/bin/kifu" --version | cut -d' ' -f2)" ] ||
	say "pkg-config's version is not kifu's"
# shellcheck disable=SC2086
cc -o "$tmp/example" "$top/api/example.c" $flags || say "the example does not build"
out=$(LD_LIBRARY_PATH="$root/lib" "$tmp/example" \
    "$top/testdata/training/records/r1-floodgate-2021.csa")
[ "$out" = "lg1+P3nl/k1s3gs1/p3+Bp2p/4p1p2/3+B1N1p1/P5P2/KPNsP3P/G8/L1s5L w 2RG3Pn3p 126 black resign (csa)" ] ||
	say "the example printed '$out'"
LD_LIBRARY_PATH="$root/lib" ldd "$tmp/example" | grep -q "$root/lib/libkifu.so.0" ||
	say "the example is not linked to the installed library"
# A static build works too.
# shellcheck disable=SC2086
cc -o "$tmp/example-static" "$top/api/example.c" \
    $(pkg-config --cflags --libs --static kifu | sed "s|-lkifu|$root/lib/libkifu.a|") ||
	say "the example does not link statically"

make -s -C "$top" uninstall DESTDIR="$tmp" PREFIX="$prefix" >"$tmp.log" 2>&1 ||
	{ say "make uninstall failed"; cat "$tmp.log"; }
left=$(find "$tmp$prefix" \( -type f -o -type l \) | head)
[ -z "$left" ] || say "left after uninstall: $left"

if [ "$failed" -eq 0 ]; then
	rm -rf "$tmp" "$tmp.log"
	echo "install: ok"
else
	echo "install: kept $tmp"
fi
exit "$failed"
