#!/bin/sh
# What every start of kifu loads (issue 28): only the C library and
# jansson, which libkifu needs for JKF. SQLite (index, find --db, tree),
# PCRE2 (find --regex), libarchive (archives), librsvg and giflib (show's
# pictures) are loaded by the commands that use them, when they do; a
# missing one is an error naming its package for those commands only.
# Start-up time itself is tests/bench.sh's: here, what is loaded.
. "$(dirname "$0")/lib.sh"
top=$(cd "$TESTDATA/.." && pwd)

# The libraries the program itself names (the sanitizers' builds add
# their own, and theirs).
if command -v readelf >/dev/null 2>&1; then
	readelf -d "$KIFU" >libs 2>&1 || { echo "$name: readelf failed"; cat libs; failed=1; }
	grep -q NEEDED libs || { echo "$name: no NEEDED entries"; failed=1; }
	for lib in libsqlite3 libpcre2 libm.so libarchive librsvg libgif; do
		grep NEEDED libs | grep -q "$lib" &&
			{ echo "$name: kifu links $lib"; failed=1; }
	done
else
	echo "$name: note: no readelf; the linked libraries are not checked"
fi
# The dynamic loader's own account of a start: the libraries it opened.
LD_DEBUG=libs "$KIFU" --version >out 2>err || failed=1
grep -q 'calling init: .*libsqlite3\|calling init: .*libpcre2' err &&
	{ echo "$name: --version loads SQLite or PCRE2"; failed=1; }

# They still work, loaded on first use.
cp "$TESTDATA/csa/floodgate/floodgate.csa" game.csa
expect_success "index build" "$KIFU" index build -o games.sqlite game.csa
expect_success "find --db" "$KIFU" find --db games.sqlite --player ''
expect_success "find --regex" "$KIFU" find --regex --player '^.' game.csa
[ -s out ] || { echo "$name: find --regex found nothing"; failed=1; }
expect_success "tree" "$KIFU" tree --db games.sqlite --depth 1

if nolib_setup; then
	expect_exit 2 "no SQLite" nolib libsqlite3 "$KIFU" index build -o none.sqlite game.csa
	expect_stderr_has "no SQLite" "cannot load SQLite (install libsqlite3-0)"
	[ -e none.sqlite ] && { echo "$name: an index without SQLite"; failed=1; }
	expect_exit 2 "find --db, no SQLite" nolib libsqlite3 "$KIFU" find --db games.sqlite --player x
	expect_stderr_has "find --db, no SQLite" "cannot load SQLite (install libsqlite3-0)"
	expect_exit 2 "tree, no SQLite" nolib libsqlite3 "$KIFU" tree --db games.sqlite
	expect_stderr_has "tree, no SQLite" "cannot load SQLite (install libsqlite3-0)"
	expect_exit 2 "no PCRE2" nolib libpcre2 "$KIFU" find --regex --player x game.csa
	expect_stderr_has "no PCRE2" "kifu: error: --regex 'x': cannot load PCRE2 (install libpcre2-8-0)"
	# The rest of kifu does not need them.
	expect_exit 1 "find without them" nolib lib "$KIFU" find --player x game.csa
	expect_success "validate without them" nolib lib "$KIFU" validate game.csa
else
	echo "$name: note: no C compiler; missing-library checks skipped"
fi

finish
