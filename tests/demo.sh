#!/bin/sh
# The README's first command ends here: a perft, the legality cases in
# testdata/legal/cases.tsv, kifu check over all of testdata/, and kifu show
# of a game in the terminal and as pictures in build/demo/, run by the kifu
# binary given as $1.
kifu=$1
data=$(dirname "$0")/../testdata/legal/cases.tsv
echo "== perft 5 from the start position"
"$kifu" perft 5 || exit 2
echo "== legality of testdata/legal/cases.tsv"
grep -v '^#' "$data" | while IFS='	' read -r name sfen moves; do
	# shellcheck disable=SC2086 # moves are separate arguments
	verdict=$("$kifu" legal --sfen "$sfen" $moves 2>/dev/null)
	[ $? -le 1 ] || { echo "$name: kifu failed" >&2; exit 2; }
	printf '%-32s %s\n' "$name" "$verdict"
done
echo "== kifu check over every record in testdata/ (it holds broken records on purpose)"
"$kifu" check -q --no-progress "$(dirname "$0")/../testdata"
rc=$?
[ $rc -le 1 ] || { echo "kifu check failed (exit $rc)" >&2; exit 2; }
game=$(dirname "$0")/../testdata/show/minishogi.kifu
out=$(dirname "$0")/../build/demo
mkdir -p "$out" || exit 2
echo "== kifu show: a minishogi game's end, then the game as pictures"
"$kifu" show --moves "$game" || exit 2
for pic in svg png gif; do
	"$kifu" show --$pic --force -o "$out/minishogi.$pic" "$game" || exit 2
	echo "wrote build/demo/minishogi.$pic"
done
exit 0
