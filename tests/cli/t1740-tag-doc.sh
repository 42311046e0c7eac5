#!/bin/sh
# Every name kifu's own definitions give is listed in `kifu tag --help`
# (and so in its man page) and has a row, with its definition, in
# doc/openings.md: a name added to tags/builtin.c without its
# documentation fails here. Each row shows the definition's field lines
# as --print-definitions prints them.
. "$(dirname "$0")/lib.sh"
top=$(cd "$TESTDATA/.." && pwd)
doc=$top/doc/openings.md

expect_success "definitions" "$KIFU" tag --print-definitions
cp out defs
expect_success "help" "$KIFU" tag --help
cp out help
expect_success "man" "$KIFU" help --man tag
cp out man

# kind name, one a line; and each definition's body joined as the
# doc's rows write it ("`board R24`<br>`plies -40`").
awk '/^[a-z]+ / { if (row != "") print row; row = "| " $2 " | "; sep = "";
		next }
	/^    / { sub(/^    /, ""); row = row sep "`" $0 "`"; sep = "<br>";
		next }
	END { if (row != "") print row }' defs >rows
awk '/^(style|opening|castle|game) / { print $2 }' defs | sort -u >names
awk '/^[a-z]+ / { n = $2 } /^    family / { print $2 }' defs | sort -u >families
[ -s names ] && [ -s rows ] || { echo "$name: no definitions read"; failed=1; }

while read -r n; do
	grep -q -- " $n\( \|\$\)" help ||
	    { echo "$name: $n is not in kifu tag --help"; failed=1; }
	grep -q -- "$n" man ||
	    { echo "$name: $n is not in the man page"; failed=1; }
done <names
while read -r f; do
	grep -q -- " $f\( \|\$\)" help ||
	    { echo "$name: the family $f is not in kifu tag --help"; failed=1; }
done <families
while read -r r; do
	grep -qF -- "$r |" "$doc" ||
	    { echo "$name: doc/openings.md has no row '$r |'"; failed=1; }
done <rows

finish
