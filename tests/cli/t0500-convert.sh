#!/bin/sh
# kifu convert: round trips over the corpus, safe writes, --strict.
. "$(dirname "$0")/lib.sh"
top=$(cd "$TESTDATA/.." && pwd)

# Every valid CSA record: CSA -> CSA is stable after one pass (the
# canonical dialect), keeps the moves and the result, and USI -> CSA ->
# USI gives back the same line.
(cd "$top" && find testdata/csa -name '*.csa' | LC_ALL=C sort) >list
n=0
while IFS= read -r f; do
	"$KIFU" validate "$top/$f" >/dev/null 2>&1 || continue
	n=$((n + 1))
	"$KIFU" convert -t csa "$top/$f" >a.csa 2>/dev/null ||
		{ echo "$name: $f: csa failed"; failed=1; continue; }
	"$KIFU" convert -t csa a.csa >b.csa 2>/dev/null
	cmp -s a.csa b.csa || { echo "$name: $f: CSA not stable"; failed=1; }
	for v in 3; do
		"$KIFU" convert -t csa --csa-version $v a.csa >c.csa 2>/dev/null
		"$KIFU" convert -t csa c.csa >d.csa 2>/dev/null
		cmp -s a.csa d.csa || { echo "$name: $f: V3 round trip"; failed=1; }
	done
	"$KIFU" validate --json "$top/$f" | sed 's/"file": "[^"]*", //; s/"rules_evidence": \(null\|{[^}]*}\), //; s/, "warnings".*}$/}/' >j1
	"$KIFU" validate --json a.csa | sed 's/"file": "[^"]*", //; s/"rules_evidence": \(null\|{[^}]*}\), //; s/, "warnings".*}$/}/' >j2
	# The encoding may change (EUC-JP/CP932 in, UTF-8 out); moves and results may not.
	sed -i 's/"encoding": "[^"]*", //' j1 j2
	cmp -s j1 j2 || { echo "$name: $f: moves or result changed"; diff j1 j2 | head -4; failed=1; }
	"$KIFU" convert -t usi a.csa >a.usi 2>/dev/null
	"$KIFU" convert -t csa a.usi >e.csa 2>/dev/null
	"$KIFU" convert -t usi e.csa >b.usi 2>/dev/null
	cmp -s a.usi b.usi || { echo "$name: $f: USI round trip"; failed=1; }
done <list
[ "$n" -gt 100 ] || { echo "$name: only $n records converted"; failed=1; }

cp "$top/testdata/csa/floodgate/floodgate.csa" in.csa
expect_success "to a file" "$KIFU" convert -t usi -o out.usi in.csa
[ -s out.usi ] || { echo "$name: no out.usi"; failed=1; }
echo keep >kept.usi
expect_exit 2 "no overwrite" "$KIFU" convert -t usi -o kept.usi in.csa
expect_stderr_has "no overwrite" "'kept.usi' exists; not replaced (use --force)"
[ "$(cat kept.usi)" = keep ] || { echo "$name: kept.usi was replaced"; failed=1; }
expect_success "--force" "$KIFU" convert -t usi --force -o kept.usi in.csa
cmp -s kept.usi out.usi || { echo "$name: --force did not replace"; failed=1; }

expect_exit 1 "--strict" "$KIFU" convert -t usi --strict -o strict.usi in.csa
[ -e strict.usi ] && { echo "$name: --strict wrote a file"; failed=1; }
expect_stderr_has "--strict names the loss" "usi cannot hold comments"

mkdir outdir
cp "$top/testdata/usi/games.usi" g.usi
expect_success "several inputs into a directory" "$KIFU" convert -t csa -o outdir in.csa g.usi
[ -s outdir/in.csa ] && [ -s outdir/g.csa ] || { echo "$name: outdir"; ls outdir; failed=1; }
expect_exit 2 "several inputs, -o a file" "$KIFU" convert -t csa -o x.csa in.csa g.usi

# A directory that cannot be written: by mode bits, or, for root (whom
# mode bits do not stop; CI runs as root), a read-only tmpfs mount.
mkdir ro
ro_ok=0
if [ "$(id -u)" != 0 ]; then
	chmod 555 ro && ro_ok=1
elif mount -t tmpfs -o ro,size=64k tmpfs ro 2>/dev/null; then
	ro_ok=1
fi
if [ "$ro_ok" = 1 ]; then
	expect_exit 2 "read-only directory" "$KIFU" convert -t usi -o ro/x.usi in.csa
	expect_stderr_has "read-only directory" "cannot write 'ro/x.usi'"
	[ -z "$(ls ro)" ] || { echo "$name: left a file in ro/"; failed=1; }
	[ "$(id -u)" = 0 ] && umount ro
fi
if [ -w /dev/full ]; then
	expect_exit 2 "full disk" sh -c "\"$KIFU\" convert -t usi in.csa >/dev/full"
	expect_stderr_has "full disk" "write error"
fi

expect_exit 1 "illegal record refused" "$KIFU" convert -t usi "$top/testdata/csa/kifu/nifu.csa"
[ -s out ] && { echo "$name: wrote an illegal record"; failed=1; }
expect_success "--allow-illegal" "$KIFU" convert -t usi --allow-illegal "$top/testdata/csa/kifu/nifu.csa"
expect_output "--allow-illegal" "position startpos moves 7g7f 3c3d 2g2f 8c8d 2f2e 8d8e 2e2d 2c2d 2h2d 8e8f"

expect_success "stdin to stdout" sh -c "\"$KIFU\" convert -t sfen - <g.usi"
[ "$(wc -l <out)" -eq 6 ] || { echo "$name: sfen lines"; failed=1; }

# A character CP932 cannot hold is an error naming it, not a '?'.
printf "V2.2\nN+\360\237\230\200\nPI\n+\n+7776FU\n" >emoji.csa
expect_exit 1 "unencodable" "$KIFU" convert -t csa --encoding cp932 emoji.csa
expect_stderr_has "unencodable" "cannot be written in CP932"
expect_exit 2 "no -t" "$KIFU" convert in.csa
expect_exit 2 "bad -t" "$KIFU" convert -t xyz in.csa
finish
