#!/bin/sh
# make install into a temporary DESTDIR, then use what was installed as
# a user would: the example programs of doc/library.md (api/example.c and
# api/example-walk.c, which tests/docs/run.py checks the document's copies
# against) built with pkg-config against the installed tree and run, the
# shared library's exported
# symbols (kifu_ only), the manual pages (rendered by man and mandoc
# without a warning), the bash and zsh completions, and make uninstall
# leaving nothing behind.
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
# The second, the walk with statistics and a book: the book is the one
# kifu book build writes from the same records, byte for byte.
# shellcheck disable=SC2086
cc -o "$tmp/example-walk" "$top/api/example-walk.c" $flags ||
	say "the walk example does not build"
out=$(cd "$top" && LD_LIBRARY_PATH="$root/lib" "$tmp/example-walk" \
    testdata/training/records "$tmp/book.db")
[ "$out" = "11 records; $tmp/book.db: 243 positions, 246 moves from 9 records" ] ||
	say "the walk example printed '$out'"
(cd "$top" && "$root/bin/kifu" book build -j1 -o "$tmp/book-cli.db" \
    testdata/training/records 2>/dev/null)
cmp -s "$tmp/book.db" "$tmp/book-cli.db" ||
	say "the walk example's book is not kifu book build's"
# A static build works too.
# shellcheck disable=SC2086
cc -o "$tmp/example-static" "$top/api/example.c" \
    $(pkg-config --cflags --libs --static kifu | sed "s|-lkifu|$root/lib/libkifu.a|") ||
	say "the example does not link statically"

# Every page renders without a warning, and lints clean where mandoc is.
pages=$(ls "$root/share/man/man1/" 2>/dev/null)
for c in $("$root/bin/kifu" complete commands); do
	echo "$pages" | grep -qx "kifu-$c.1" || say "no page for kifu $c"
done
echo "$pages" | grep -qx kifu.1 || say "no kifu(1)"
for p in "$root"/share/man/man1/*.1; do
	if command -v man >/dev/null 2>&1; then
		w=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$p" 2>&1 >/dev/null)
		[ -z "$w" ] || say "$(basename "$p"): $w"
		LC_ALL=C.UTF-8 MANWIDTH=80 man -l "$p" 2>/dev/null | grep -q . ||
			say "$(basename "$p") renders empty"
	fi
	if command -v mandoc >/dev/null 2>&1; then
		w=$(mandoc -T lint -W warning "$p" 2>&1)
		[ -z "$w" ] || say "$w"
	fi
done
# A page says what --help says: every option of the help is in the page.
for c in check convert show; do
	"$root/bin/kifu" complete options "$c" | cut -d' ' -f1 | sed 's/^-*//' |
	while read -r o; do
		[ "$o" = help ] && continue
		grep -q -- "Fl -\{0,1\}$o\b" "$root/share/man/man1/kifu-$c.1" ||
			echo "install: kifu-$c.1 lacks --$o"
	done
done >"$tmp/lacks"
[ -s "$tmp/lacks" ] && { cat "$tmp/lacks"; failed=1; }

# The completions load without errors, and bash's completes for real.
PATH="$root/bin:$PATH" bash -c '
	. "$1/share/bash-completion/completions/kifu"
	COMP_WORDS=(kifu che); COMP_CWORD=1; _kifu
	[ "${COMPREPLY[*]}" = check ] || { echo "commands: ${COMPREPLY[*]}"; exit 1; }
	COMP_WORDS=(kifu check --rules c); COMP_CWORD=3; _kifu
	[ "${COMPREPLY[*]}" = csa ] || { echo "values: ${COMPREPLY[*]}"; exit 1; }
	COMP_WORDS=(kifu convert --enc); COMP_CWORD=2; _kifu
	[ "${COMPREPLY[*]}" = --encoding ] || { echo "options: ${COMPREPLY[*]}"; exit 1; }
	cd "$2/testdata/rules"
	COMP_WORDS=(kifu validate kachi); COMP_CWORD=2; _kifu
	[ "${COMPREPLY[*]}" = kachi-28.csa ] || { echo "files: ${COMPREPLY[*]}"; exit 1; }
' sh "$root" "$top" 2>&1 || say "bash completion does not work"
if command -v zsh >/dev/null 2>&1; then
	out=$(PATH="$root/bin:$PATH" zsh -f -c '
		fpath=("$1/share/zsh/site-functions" $fpath)
		autoload -U compinit && compinit -u -D
		print -r -- "${_comps[kifu]}"' zsh "$root" 2>&1)
	[ "$out" = _kifu ] || say "zsh completion does not load: $out"
	zsh -n "$root/share/zsh/site-functions/_kifu" || say "zsh: syntax"
fi

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
