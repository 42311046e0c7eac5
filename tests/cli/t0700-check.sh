#!/bin/sh
# kifu check: trees, archives, path lists, parallel output order, exit
# codes, summaries and sharding.
. "$(dirname "$0")/lib.sh"
top=$(cd "$TESTDATA/.." && pwd)
mkdir -p tree
cp -r "$top/testdata/csa/floodgate" "$top/testdata/csa/kifu" "$top/testdata/usi" tree/

# Output bytes do not depend on the number of threads.
for j in 1 2 3 8; do
	"$KIFU" check -j$j --json tree >j$j.out 2>/dev/null
done
for j in 2 3 8; do
	cmp -s j1.out j$j.out || { echo "$name: -j$j output differs from -j1"; failed=1; }
done
[ "$(wc -l <j1.out)" -eq 21 ] || { echo "$name: expected 21 records, got $(wc -l <j1.out)"; failed=1; }

# The same over many batches (workers take up to 64 inputs at a time):
# every record of testdata/, and a file that cannot be read among them,
# whose error must come in its turn. stderr (warnings, the io error)
# too, but for the timing line; and --fail-fast stops at the same place.
cp -r "$top/testdata" big
ln -s nowhere big/dangling.csa
mkdir big/empty
for j in 1 2 8; do
	"$KIFU" check -j$j -v --json big >big$j.out 2>big$j.err
	# It ran to the end (an empty directory once stopped it).
	grep -q '^kifu: [0-9]* records: ' big$j.err ||
		{ echo "$name: big: -j$j stopped early"; tail -3 big$j.err; failed=1; }
	grep -v '^  time ' big$j.err >big$j.errs
	"$KIFU" check -j$j --fail-fast big >ff$j.out 2>/dev/null
done
[ "$(wc -l <big1.out)" -gt 200 ] || { echo "$name: too few records in big"; failed=1; }
grep -q '"file": "big/dangling.csa", .*"rule": "io"' big1.out ||
	{ echo "$name: the unreadable file is not reported"; failed=1; }
for j in 2 8; do
	cmp -s big1.out big$j.out || { echo "$name: big: -j$j stdout differs"; failed=1; }
	cmp -s big1.errs big$j.errs || { echo "$name: big: -j$j stderr differs"; failed=1; }
	cmp -s ff1.out ff$j.out || { echo "$name: big: -j$j --fail-fast differs"; failed=1; }
done

expect_exit 1 "findings" "$KIFU" check tree
grep -q '^tree/kifu/nifu.csa:19:1: error: .*\[nifu\]$' out || { echo "$name: nifu line"; failed=1; }
# usi/SOURCES has no extension and is no record: skipped, not read.
expect_stderr_has "summary" "kifu: 21 records: 18 valid, 0 with a disputed result, 3 illegal, 0 unreadable; 1 file skipped (rules auto)"
expect_stderr_has "summary" "  skipped      (none) 1"
expect_exit 1 "rules" "$KIFU" check --rules csa --max-moves 300 tree
expect_stderr_has "rules" "(rules csa,max-moves=300)"
expect_exit 2 "bad rules" "$KIFU" check --rules nope tree
expect_exit 0 "all valid" "$KIFU" check tree/floodgate
expect_exit 2 "missing path" "$KIFU" check tree/floodgate /nonexistent
expect_stderr_has "missing path" "cannot read '/nonexistent'"

expect_exit 1 "quiet" "$KIFU" check -q tree
[ -s out ] && { echo "$name: --quiet printed records"; failed=1; }
expect_exit 1 "summary json" "$KIFU" check --summary-json tree
grep -q '^{"records": 21, "valid": 18, "invalid": 3, "unreadable": 0, "disputed": 0, "illegal": 3, "skipped": 1, "rules": "auto", "invalid_by_rule": {"nifu": 1, "no-piece": 1, "wrong-side": 1}, "unreadable_by_id": {}, "skipped_by_extension": {"(none)": 1}' out ||
	{ echo "$name: summary json"; cat out; failed=1; }
grep -q '"rules_by_set": {"jsa": [0-9]*, "csa": [0-9]*' out ||
	{ echo "$name: summary json: rules by set"; cat out; failed=1; }

expect_exit 1 "fail-fast" "$KIFU" check -j2 --fail-fast tree
[ "$(grep -c 'error:' out)" -ge 1 ] && ! grep -q nifu out ||
	{ echo "$name: --fail-fast went on"; cat out; failed=1; }

# Path lists on stdin, newline- or NUL-separated.
find tree/floodgate -name '*.csa' | sort >paths
expect_success "--stdin" sh -c "\"$KIFU\" check --stdin <paths"
expect_stderr_has "--stdin" "3 records: 3 valid"
tr '\n' '\0' <paths >paths0
expect_success "--stdin -z" sh -c "\"$KIFU\" check --stdin -z <paths0"
expect_stderr_has "--stdin -z" "3 records: 3 valid"
expect_exit 1 "stdin record" sh -c "\"$KIFU\" check - <tree/kifu/nifu.csa"
grep -q '^<stdin>:19:1:' out || { echo "$name: <stdin> name"; failed=1; }

# Archives are read in place; members are named archive//path.
(cd tree && tar czf ../a.tar.gz floodgate kifu && tar cJf ../a.tar.xz floodgate)
expect_exit 1 "tar.gz" "$KIFU" check a.tar.gz a.tar.xz
grep -q '^a.tar.gz//kifu/nifu.csa:19:1: error' out || { echo "$name: member name"; cat out; failed=1; }
expect_stderr_has "archives" "12 records: 9 valid, 0 with a disputed result, 3 illegal"
if command -v python3 >/dev/null 2>&1; then
	(cd tree && python3 -c "import zipfile,sys; z=zipfile.ZipFile('../a.zip','w'); [z.write(f) for f in sys.argv[1:]]" floodgate/*.csa)
	expect_success "zip" "$KIFU" check a.zip
	expect_stderr_has "zip" "3 records: 3 valid"
fi
head -c 3000 a.tar.gz >broken.tar.gz
expect_exit 2 "damaged archive" "$KIFU" check broken.tar.gz
expect_stderr_has "damaged archive" "broken.tar.gz"

# Trees with loops, fifos and junk: skipped or reported, never stuck.
mkdir -p odd/sub
ln -s .. odd/sub/loop
mkfifo odd/fifo 2>/dev/null
printf 'not a record\n' >odd/junk.txt
cp tree/floodgate/floodgate.csa odd/sub/
expect_exit 0 "odd tree" "$KIFU" check odd
expect_stderr_has "symlink loop" "skipped 'odd/sub/loop': symlink loop"
[ -p odd/fifo ] && expect_stderr_has "fifo" "skipped 'odd/fifo': fifo"
expect_stderr_has "junk skipped" "1 records: 1 valid, 0 with a disputed result, 0 illegal, 0 unreadable; 1 file skipped"
expect_stderr_has "junk skipped" "  skipped      .txt 1"
expect_exit 1 "--all-files" "$KIFU" check --all-files odd
grep -q "odd/junk.txt: error: not a record kifu can read \[unknown-format\]" out ||
	{ echo "$name: --all-files: junk not reported"; cat out; failed=1; }
# Named, a file is read whatever its name.
expect_exit 1 "junk named" "$KIFU" check odd/junk.txt
grep -q "odd/junk.txt: error: not a record kifu can read" out ||
	{ echo "$name: named junk not reported"; cat out; failed=1; }

# Record files only, as a downloaded collection has them: a README, a
# licence, an extensionless record (read: its content is certain), a
# binary without extension, records with upper-case extensions, and the
# same in an archive.
mkdir -p dl
printf '# My games\nSome notes.\n' >dl/README.md
printf 'MIT License\n\nPermission is hereby granted\n' >dl/LICENSE
cp tree/floodgate/floodgate.csa dl/GAME1
cp tree/floodgate/floodgate.csa dl/GAME2.CSA
printf '\000\001\002binary' >dl/blob
printf '{"name": "x", "version": "1.0.0"}\n' >dl/package.json
expect_exit 0 "downloaded folder" "$KIFU" check --json dl
[ "$(wc -l <out)" -eq 2 ] || { echo "$name: dl: want 2 records"; cat out; failed=1; }
grep -q '"file": "dl/GAME1",.*"status": "ok"' out || { echo "$name: dl: extensionless record"; cat out; failed=1; }
expect_stderr_has "downloaded folder" "2 records: 2 valid, 0 with a disputed result, 0 illegal, 0 unreadable; 4 files skipped"
expect_stderr_has "downloaded folder" "  skipped      (none) 2, .json 1, .md 1"
(cd dl && tar cf ../dl.tar .)
expect_exit 0 "archive of it" "$KIFU" check dl.tar
expect_stderr_has "archive of it" "2 records: 2 valid, 0 with a disputed result, 0 illegal, 0 unreadable; 4 files skipped"
expect_exit 1 "archive, --all-files" "$KIFU" check --all-files dl.tar
expect_stderr_has "archive, --all-files" "6 records: 2 valid"

# A disputed result is a finding of its own kind, counted apart.
mkdir -p disp
cp "$top/testdata/csa/mog-core-scala/csa/game/002.csa" disp/
cp tree/kifu/nifu.csa disp/
expect_exit 1 "disputed" "$KIFU" check disp
expect_stderr_has "disputed" "2 records: 0 valid, 1 with a disputed result, 1 illegal, 0 unreadable"
expect_exit 0 "--no-result-check" "$KIFU" check --no-result-check disp/002.csa

expect_exit 0 "progress forced" "$KIFU" check --progress tree/floodgate
expect_stderr_has "progress" "records, "
expect_exit 0 "progress off" "$KIFU" check --no-progress tree/floodgate
grep -q "ETA" err && { echo "$name: progress when off"; failed=1; }

# Sharding: two shards' JSON Lines merge into the summary of one run.
find tree -type f | sort >all
split -n r/2 all shard.
if command -v parallel >/dev/null 2>&1; then
	parallel --will-cite "\"$KIFU\" check --stdin --json <{} >{}.jsonl 2>/dev/null" ::: shard.aa shard.ab
else
	for s in shard.aa shard.ab; do "$KIFU" check --stdin --json <$s >$s.jsonl 2>/dev/null; done
fi
"$KIFU" summary --json shard.aa.jsonl shard.ab.jsonl >merged 2>err
"$KIFU" check --summary-json --stdin <all 2>/dev/null | sed 's/, "seconds".*}$/}/' >single
cmp -s single merged || { echo "$name: merged summary differs"; diff single merged; failed=1; }
# Shards with disputed results: the new status counts as disputed, and so
# does an older shard's "illegal" whose rule is result-mismatch.
"$KIFU" check --json disp >new.jsonl 2>/dev/null
cat >old.jsonl <<'EOF'
{"file": "old.csa", "index": 0, "format": "csa", "encoding": "UTF-8", "status": "illegal", "moves": 3, "final_sfen": "x", "result": {"winner": "none", "reason": "unfinished", "ply": 3}, "recorded": {"terminal": ""}, "rules": "jsa", "consistent": false, "error": {"line": 9, "col": 1, "byte": 0, "ply": 4, "rule": "result-mismatch", "message": "m"}}
EOF
expect_exit 1 "summary of disputed" "$KIFU" summary new.jsonl old.jsonl
head -n 1 out >first
printf '%s\n' "kifu: 3 records: 0 valid, 2 with a disputed result, 1 illegal, 0 unreadable (rules mixed)" >want
cmp -s want first || { echo "$name: summary of disputed"; cat out; failed=1; }
printf '{"oops": 1}\nnot json\n' >bad.jsonl
expect_exit 2 "summary of junk" "$KIFU" summary bad.jsonl
expect_stderr_has "summary of junk" "bad.jsonl:2:"

# A tree of one-record directories under a low limit of open files: the
# walk holds a few directories open for their files (walk.h, WALK_DIRFDS),
# never one for every file waiting to be read.
mkdir small
i=0
while [ $i -lt 300 ]; do
	mkdir small/d$i && cp "$TESTDATA/csa/floodgate/floodgate.csa" small/d$i/g.csa
	i=$((i + 1))
done
(ulimit -n 40 && exec "$KIFU" check -j8 small) >out 2>err
rc=$?
[ $rc -eq 0 ] && ! grep -q 'error' err && grep -q '^kifu: 300 records: 300 valid' err ||
    { echo "$name: small directories under ulimit -n 40: exit $rc"; head -3 err; failed=1; }
finish
