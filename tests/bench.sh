#!/bin/sh
# Benchmark: usage `sh tests/bench.sh ./kifu` (what `make bench` runs).
#
# Measures, on one core:
#   - perft speed (leaf nodes per second, last ply bulk-counted) from the
#     start position at depths 5 and 6 and from the "matsuri" position at
#     depths 3 and 4, for kifu and for a baseline, and kifu/baseline;
#   - start-up cost: `kifu --version` run 1000 times against `/bin/true`
#     run 1000 times, in turn, three rounds (the best of each);
#   - `kifu validate` over real games (CSA, then KIF and KI2 in Shift_JIS)
#     and `kifu check` over generated ones, against cat reading the same
#     files;
#   - `kifu export -t hcpe` over the generated games, against `kifu check`
#     over them, and its rows/s against a stated figure for cshogi;
#   - `kifu find` (a position, a player) and `kifu stats` over the
#     same generated games, against check;
#   - `kifu tag` over them against check, and `kifu stats --by opening`
#     (the openings named as it counts) against `kifu stats`;
#   - `kifu index build` over the generated games against `kifu check`,
#     the database's size, and find --db / tree --db queries on it
#   - `kifu book build` over the same generated games at 40 plies,
#     against check, under the default memory budget and 16 MB;
#   - `kifu show`: a 150-move game as an animated GIF, a PNG and an SVG,
#     against rsvg-convert drawing the same SVG;
#   - the mate solver (mate/): the mate-in-N sets of game endings in
#     testdata/mate/bench-sets.tsv, each solved with a solver of its
#     own, length and line checked, CPU time per problem by N, nodes/s
#     and peak memory, with the plain search of tests/mate_ref.h beside
#     it for N <= 7. BENCH_ONLY=mate runs this part alone.
#   - `kifu analyze` with fairy-stockfish (tests/bench/analyze.sh): kifu's
#     own cost a position, its wall time against the engine's, -j2, the
#     cache, and a plain Python script driving the same engine.
#   - `kifu match` (tests/bench/match.sh): the referee's overhead from a
#     bestmove read to the next go written, median and p99, against the
#     mock engine and fairy-stockfish; games/s at --concurrency 2 and 1.
# Raw times differ from machine to machine and from run to run, so each is
# shown with a ratio to a baseline measured in the same run (kifu/osl,
# kifu/true): compare the ratios.  Matsuri depth 3 has few inner nodes and
# mostly measures the bulk count of the last ply.
#
# The baseline is OpenShogiLib (Debian's libosl-dev): a mature, fast C++
# shogi library that anyone can install from the distribution, with a
# full legal move generator.  tests/bench/osl_perft.cc walks the same tree
# with it, and its node counts are checked to equal kifu's.  kifu aims at
# 150 M nodes/s, about twice osl.
#
# kifu's node counts are checked against the known values: a wrong count
# prints a FAIL line and the script exits 1.  Without libosl (and not root
# to install it) kifu's own figures are still printed.

kifu=$1
if [ -z "$kifu" ] || [ ! -x "$kifu" ]; then
	echo "usage: sh tests/bench.sh KIFU" >&2
	exit 2
fi

# Everything, the timing loops included, runs pinned to core 0.
if [ -z "$BENCH_PINNED" ] && command -v taskset >/dev/null 2>&1; then
	BENCH_PINNED=1 exec taskset -c 0 sh "$0" "$@"
fi
pinned=${BENCH_PINNED:+core 0 (taskset)}

root=$(cd "$(dirname "$0")/.." && pwd)
osl_src=$root/tests/bench/osl_perft.cc
osl=$root/build/bench/osl_perft
matsuri='l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1'
fail=0

# --- the baseline -----------------------------------------------------------

# Sets osl_note to why the baseline is missing, or leaves it empty.
build_osl() {
	osl_note=
	if [ ! -f /usr/include/osl/numEffectState.h ] ||
	    [ ! -d /usr/include/boost ]; then
		if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
			echo "bench: installing libosl-dev (baseline)"
			# libosl's headers include boost's, but the package
			# does not depend on libboost-dev.
			export DEBIAN_FRONTEND=noninteractive
			apt-get install -y -qq libosl-dev libboost-dev \
			    >/dev/null 2>&1 ||
			{ apt-get update -qq >/dev/null 2>&1 &&
			    apt-get install -y -qq libosl-dev libboost-dev \
			    >/dev/null 2>&1; }
		fi
	fi
	if [ ! -f /usr/include/osl/numEffectState.h ]; then
		osl_note="libosl-dev is not installed (apt-get install libosl-dev libboost-dev)"
		return
	fi
	# Up to date: built after the source was last changed.
	if [ -x "$osl" ] && [ -n "$(find "$osl" -newer "$osl_src")" ]; then
		return
	fi
	mkdir -p "$(dirname "$osl")"
	if ! ${CXX:-g++} -O2 -o "$osl" "$osl_src" -losl \
	    >"$osl.log" 2>&1; then
		rm -f "$osl"
		osl_note="build of $osl failed, see $osl.log"
	fi
}

# --- measuring --------------------------------------------------------------

# perft PROGRAM REPS ARGS...: runs `PROGRAM perft ARGS` (the baseline takes
# the same ARGS) REPS times; sets nodes to the leaf count, and secs and rate
# (M nodes/s) to those of the fastest run, as the program reported them
# for its tree walk alone.  The rate is read rather than worked out from
# secs, which has only 3 decimals.  (sh has no local variables: these
# helpers' names must not clash with their callers'.)
perft() {
	prog=$1 n=$2
	shift 2
	nodes='' secs='' rate=''
	while [ "$n" -gt 0 ]; do
		# stdout is the count alone; stderr the "... nodes in" line.
		if [ "$prog" = "$osl" ]; then
			out=$("$osl" "$@" 2>&1)
		else
			out=$("$prog" perft "$@" 2>&1)
		fi
		nodes=$(echo "$out" | grep -E '^[0-9]+$')
		s=$(echo "$out" | sed -n 's/.* nodes in \([0-9.]*\) s .*/\1/p')
		r=$(echo "$out" | sed -n 's/.* s (\([0-9.]*\) M nodes\/s.*/\1/p')
		if [ -n "$r" ] && { [ -z "$rate" ] ||
		    awk "BEGIN { exit !($r > $rate) }"; }; then
			secs=$s rate=$r
		fi
		n=$((n - 1))
	done
}

# now: nanoseconds since the epoch (whole seconds where date lacks %N).
now() {
	t=$(date +%s%N)
	case $t in
	*[!0-9]*) echo "$(date +%s)000000000" ;;
	*) echo "$t" ;;
	esac
}

# starts CMD...: runs CMD 1000 times; prints the total in milliseconds.
starts() {
	t0=$(now)
	i=0
	while [ $i -lt 1000 ]; do
		"$@" >/dev/null 2>&1
		i=$((i + 1))
	done
	t1=$(now)
	echo $(((t1 - t0) / 1000000))
}

# f X: X to 3 decimals; div A B: A/B to 2 decimals, or "-" when a figure
# is missing.
f() {
	[ -n "$1" ] || { echo "-"; return; }
	awk "BEGIN { printf \"%.3f\", $1 }"
}
div() {
	case "$1,$2" in ,*|*,|*-*) echo "-"; return ;; esac
	awk "BEGIN { if ($2 > 0) printf \"%.2f\", $1 / $2; else print \"-\" }"
}

# lower A B: the smaller of two times, A empty for none yet.
lower() { if [ -z "$1" ] || [ "$2" -lt "$1" ]; then echo "$2"; else echo "$1"; fi; }

# ms_of CMD...: wall time of one whole run of CMD in ms.
ms_of() {
	t0=$(now)
	"$@" >/dev/null 2>&1
	t1=$(now)
	echo $(((t1 - t0) / 1000000))
}

# xargs_ms LIST CMD...: ms that xargs takes to run CMD over the files of
# LIST (NUL-separated), at least 1.
xargs_ms() {
	xl=$1
	shift
	t0=$(now)
	xargs -0 "$@" <"$xl" >/dev/null 2>&1
	t1=$(now)
	ms=$(((t1 - t0) / 1000000))
	[ "$ms" -gt 0 ] || ms=1
	echo "$ms"
}

# against_cat LIST: "KIFU_MS CAT_MS", the best of three rounds of
# `kifu validate` and of cat over the files of LIST, after a first read
# that warms the page cache. The list is made before, so that no
# directory walk runs on the core being timed. A virtual machine's speed
# drifts by tens of percent within a minute: the rounds take kifu and
# cat in turn, so that both get the same chances.
against_cat() {
	xargs -0 cat <"$1" >/dev/null
	kb='' cb=''
	for _ in 1 2 3; do
		kb=$(lower "$kb" "$(xargs_ms "$1" "$kifu" validate)")
		cb=$(lower "$cb" "$(xargs_ms "$1" cat)")
	done
	echo "$kb $cb"
}

# --- mates --------------------------------------------------------------------

# The sets were made by `mate_bench --generate 11` from the last 24
# positions of every game of ../shared/testdata (doc/mate.md, Speed);
# every mate of up to 7 plies in them was checked by the plain search.
mate_section() {
	mb=$root/build/bench/mate_bench
	mkdir -p "$root/build/bench"
	if ! ${CC:-cc} -O2 -D_POSIX_C_SOURCE=200809L -I"$root" \
	    -I"$root/include" -o "$mb" "$root/tests/bench/mate_bench.c" \
	    "$root/libkifu.a" -lpthread -ljansson -ldl; then
		echo "FAIL: mate_bench does not build"
		fail=1
		return
	fi
	echo
	echo "mate solver, game rules, one solver a problem (CPU time):"
	"$mb" --ref 7 "$root/testdata/mate/bench-sets.tsv" ||
	    { echo "FAIL: a mate not proved, or proved wrong"; fail=1; }
	echo "targets: every mate of up to 11 plies proved, none wrong;" \
	    "under 50 ms a problem for N <= 7"
}

if [ "${BENCH_ONLY:-}" = mate ]; then
	echo "kifu bench (mates only): $("$kifu" --version 2>/dev/null)"
	mate_section
	exit "$fail"
fi

# --- the run ----------------------------------------------------------------

build_osl

echo "kifu bench: $("$kifu" --version 2>/dev/null), ${pinned:-not pinned (no taskset)}"
if [ -z "$osl_note" ]; then
	echo "baseline:   OpenShogiLib $(dpkg-query -W -f '${Version}' \
	    libosl-dev 2>/dev/null) (tests/bench/osl_perft.cc)"
else
	echo "baseline:   MISSING - $osl_note; kifu's own figures only"
fi
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null |
    head -n 1)
[ -n "$cpu" ] && echo "cpu:        $cpu"
echo

line() { printf '%-18s %10s  %8s %8s  %8s %8s  %9s\n' "$@"; }
line "perft" "nodes" "kifu s" "kifu M/s" "osl s" "osl M/s" \
    "kifu/osl"

# row NAME EXPECTED REPS ARGS...
row() {
	name=$1 want=$2 reps=$3
	shift 3
	perft "$kifu" "$reps" "$@"
	k_nodes=$nodes k_secs=$secs k_rate=$rate
	o_secs='' o_rate='' o_note=''
	if [ -z "$osl_note" ]; then
		perft "$osl" "$reps" "$@"
		o_secs=$secs o_rate=$rate
		[ "$nodes" = "$want" ] ||
		    o_note="osl counted ${nodes:-nothing}, not $want: speeds not comparable"
	fi
	line "$name" "$k_nodes" "$(f "$k_secs")" "${k_rate:--}" \
	    "$(f "$o_secs")" "${o_rate:--}" "$(div "$k_rate" "$o_rate")"
	if [ "$k_nodes" != "$want" ]; then
		echo "FAIL $name: kifu counted $k_nodes nodes, expected $want"
		fail=1
	fi
	if [ -n "$o_note" ]; then
		echo "NOTE $name: $o_note"
	fi
}

# Short runs are repeated and the best time kept; long ones run once.
row "startpos depth 5" 19861490 3 5
row "startpos depth 6" 547581517 1 6
row "matsuri depth 3" 4809015 5 --sfen "$matsuri" 3
row "matsuri depth 4" 516925165 1 --sfen "$matsuri" 4

echo
# Three rounds in turn, the best of each: one round each, one after the
# other, read this machine's load as much as kifu (1.59x once).
k_ms='' t_ms=''
for r in 1 2 3; do
	k_ms=$(lower "$k_ms" "$(starts "$kifu" --version)")
	t_ms=$(lower "$t_ms" "$(starts /bin/true)")
done
sline() { printf '%-18s %10s  %8s  %9s\n' "$@"; }
sline "start-up x1000" "total ms" "ms/start" "kifu/true"
sline "kifu --version" "$k_ms" "$(div "$k_ms" 1000)" \
    "$(div "$k_ms" "$t_ms")"
sline "/bin/true" "$t_ms" "$(div "$t_ms" 1000)" ""

# --- validate -----------------------------------------------------------------

# Game records: the Floodgate logs and professional games of testdata/csa,
# copied round-robin into $ngames loose files (the page cache holds them
# after the first read). The baseline is cat reading the same files.
ngames=5000
corpus=$root/build/bench/validate
if [ ! -f "$corpus/.complete-$ngames" ]; then
	rm -rf "$corpus"
	mkdir -p "$corpus"
	set -- "$root"/testdata/csa/floodgate/*.csa \
	    "$root"/testdata/csa/sugyan-shogi-testdata/testdata/*.csa \
	    "$root"/testdata/csa/sunfish4/kifu/learn/pro10/*.csa
	i=0
	while [ $i -lt $ngames ]; do
		for src in "$@"; do
			[ $i -lt $ngames ] || break
			cp "$src" "$corpus/g$i.csa"
			i=$((i + 1))
		done
	done
	touch "$corpus/.complete-$ngames"
fi
bytes=$(cat "$corpus"/g*.csa | wc -c)
# The file list is made once, outside the timing: the directory walk of
# find would otherwise run on the same core as the command timed.
list=$root/build/bench/validate.list
find "$corpus" -name 'g*.csa' -print0 >"$list"
set -- $(against_cat "$list"); v_ms=$1 c_ms=$2
echo
vline() { printf '%-26s %8s %12s %10s %10s\n' "$@"; }
vline "validate $ngames CSA games" "ms" "games/s" "MB/s" "x cat"
vline "kifu validate" "$v_ms" $((ngames * 1000 / v_ms)) \
    "$(awk "BEGIN { printf \"%.1f\", $bytes / 1048576 / ($v_ms / 1000) }")" \
    "$(div "$v_ms" "$c_ms")"
vline "cat" "$c_ms" $((ngames * 1000 / c_ms)) \
    "$(awk "BEGIN { printf \"%.1f\", $bytes / 1048576 / ($c_ms / 1000) }")" ""
echo "target: at least 20000 games/s on one core"

# --- validate KIF and KI2 -----------------------------------------------------

# The same real games as KIF and KI2 in Shift_JIS (CP932), as most .kif
# and .ki2 files are: each converted once by kifu itself (`convert -t kif
# --encoding CP932`, and ki2), then copied round-robin into $nkk loose
# .kif files and as many .ki2. Every file is decoded from CP932 on each
# run, so the rate includes the decoding. The baseline is cat again.
nkk=5000
kk=$root/build/bench/kakinoki
if [ ! -f "$kk/.complete-$nkk" ]; then
	rm -rf "$kk"
	mkdir -p "$kk/src"
	i=0
	for src in "$root"/testdata/csa/floodgate/*.csa \
	    "$root"/testdata/csa/sugyan-shogi-testdata/testdata/*.csa \
	    "$root"/testdata/csa/sunfish4/kifu/learn/pro10/*.csa; do
		for ext in kif ki2; do
			"$kifu" convert -t $ext --encoding CP932 "$src" \
			    >"$kk/src/s$i.$ext" 2>/dev/null ||
			    { echo "bench: cannot convert $src to $ext"; exit 2; }
		done
		i=$((i + 1))
	done
	# What is timed must be what it says: valid records, read as CP932.
	for ext in kif ki2; do
		nok=$("$kifu" validate --json "$kk"/src/*.$ext 2>/dev/null |
		    grep -c '"encoding": "CP932", "status": "ok"')
		[ "$nok" -eq "$i" ] ||
		    { echo "bench: only $nok of $i $ext files are valid CP932"; exit 2; }
	done
	for ext in kif ki2; do
		i=0
		while [ $i -lt $nkk ]; do
			for src in "$kk"/src/*.$ext; do
				[ $i -lt $nkk ] || break
				cp "$src" "$kk/g$i.$ext"
				i=$((i + 1))
			done
		done
	done
	touch "$kk/.complete-$nkk"
fi
mbs() { awk "BEGIN { printf \"%.1f\", $1 / 1048576 / ($2 / 1000) }"; }
echo
vline "validate $nkk CP932 files" "ms" "games/s" "MB/s" "x cat"
for ext in kif ki2; do
	kbytes=$(cat "$kk"/g*.$ext | wc -c)
	blist=$root/build/bench/kakinoki-$ext.list
	find "$kk" -name "g*.$ext" -print0 >"$blist"
	set -- $(against_cat "$blist"); kv_ms=$1 kc_ms=$2
	vline "kifu validate (.$ext)" "$kv_ms" $((nkk * 1000 / kv_ms)) \
	    "$(mbs "$kbytes" "$kv_ms")" "$(div "$kv_ms" "$kc_ms")"
	vline "cat (.$ext)" "$kc_ms" $((nkk * 1000 / kc_ms)) \
	    "$(mbs "$kbytes" "$kc_ms")" ""
done
echo "target: at least 10000 KIF games/s, decoding included"

# --- check --------------------------------------------------------------------

# kifu check over 100,000 generated games (random legal moves, fixed seed),
# as loose files and as one .tar.gz, with -j1 and -j2; cat reading the
# same files is the baseline. Peak memory comes from GNU time.
nchk=100000
chk=$root/build/bench/check
if [ ! -f "$chk/.complete-$nchk" ]; then
	rm -rf "$chk"
	mkdir -p "$chk/games"
	${CC:-cc} -O2 -I"$root" -D_POSIX_C_SOURCE=200809L -o "$chk/gen_games" \
	    "$root/tests/bench/gen_games.c" "$root/libkifu.a" -lpthread ||
	    { echo "bench: cannot build gen_games"; exit 2; }
	"$chk/gen_games" "$chk/games" $nchk
	(cd "$chk" && tar czf games.tar.gz games)
	touch "$chk/.complete-$nchk"
fi
clist=$root/build/bench/check.list
find "$chk/games" -name '*.csa' -print0 >"$clist"
xargs -0 cat <"$clist" >/dev/null
# once CMD...: wall time of one run in ms, and its peak RSS in KiB when
# GNU time is there ("-" otherwise).
once() {
	t0=$(now)
	if [ -x /usr/bin/time ]; then
		rss=$(/usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -n 1)
	else
		"$@" >/dev/null 2>&1
		rss=-
	fi
	t1=$(now)
	ms=$(((t1 - t0) / 1000000))
	[ "$ms" -gt 0 ] || ms=1
	echo "$ms $rss"
}
# higher A B: the larger of two memory peaks ("-": unknown).
higher() {
	case "$1,$2" in
	-,*|,*) echo "$2" ;;
	*,-) echo "$1" ;;
	*) if [ "$2" -gt "$1" ]; then echo "$2"; else echo "$1"; fi ;;
	esac
}
# The rest of the bench is pinned to core 0; -j2 needs two cores.
both=
ncpu=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
if [ -n "$BENCH_PINNED" ] && [ "$ncpu" -ge 2 ]; then
	both="taskset -c 0-$((ncpu - 1))"
fi
# Three rounds, each running every command once; the best time of each
# is kept, and the highest peak memory. A virtual machine's speed drifts
# by tens of percent over a minute: taking the rounds in turn gives -j1,
# -j2 and cat the same chances, so their ratios mean something.
# kifu find and kifu stats go in the same rounds, on one core as check
# -j1: a position search (the position after 7g7f 3c3d 2g2f, which 5 of
# the random games reach), a header search (--player black123: 111
# records), and the statistics; kifu tag and stats --by opening too,
# which name every game's openings and castles from the positions
# replay makes.
fpos='lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P4P1/PP1PPPP1P/1B5R1/LNSGKGSNL w - 4'
fs='' fp='' st='' fsm=- fpm=- stm=-
tg='' so='' tgm=- som=-
j1='' j2='' tz='' cm='' j1m=- j2m=- tzm=-
for _ in 1 2 3; do
	set -- $(once "$kifu" check -q -j1 "$chk/games")
	j1=$(lower "$j1" "$1") j1m=$(higher "$j1m" "$2")
	set -- $(once "$kifu" find -j1 --no-progress --sfen "$fpos" "$chk/games")
	fs=$(lower "$fs" "$1") fsm=$(higher "$fsm" "$2")
	set -- $(once "$kifu" find -j1 --no-progress --player black123 "$chk/games")
	fp=$(lower "$fp" "$1") fpm=$(higher "$fpm" "$2")
	set -- $(once "$kifu" stats -j1 --no-progress "$chk/games")
	st=$(lower "$st" "$1") stm=$(higher "$stm" "$2")
	set -- $(once "$kifu" tag -j1 --no-progress "$chk/games")
	tg=$(lower "$tg" "$1") tgm=$(higher "$tgm" "$2")
	set -- $(once "$kifu" stats -j1 --no-progress --by opening "$chk/games")
	so=$(lower "$so" "$1") som=$(higher "$som" "$2")
	set -- $(once $both "$kifu" check -q -j2 "$chk/games")
	j2=$(lower "$j2" "$1") j2m=$(higher "$j2m" "$2")
	set -- $(once $both "$kifu" check -q -j2 "$chk/games.tar.gz")
	tz=$(lower "$tz" "$1") tzm=$(higher "$tzm" "$2")
	set -- $(once sh -c 'xargs -0 cat <"$1"' sh "$clist")
	cm=$(lower "$cm" "$1")
done
echo
cline() { printf '%-30s %8s %12s %10s %10s\n' "$@"; }
cline "check $nchk CSA games" "ms" "records/s" "x cat" "peak KiB"
cline "kifu check -j1 (files)" "$j1" $((nchk * 1000 / j1)) "$(div "$j1" "$cm")" "$j1m"
cline "kifu check -j2 (files)" "$j2" $((nchk * 1000 / j2)) "$(div "$j2" "$cm")" "$j2m"
cline "kifu check -j2 (.tar.gz)" "$tz" $((nchk * 1000 / tz)) "$(div "$tz" "$cm")" "$tzm"
cline "cat (files)" "$cm" $((nchk * 1000 / cm)) "" ""
echo "-j2 / -j1 speed-up: $(div "$j1" "$j2")x"
echo "targets: -j2 >= 50000 records/s, -j2 >= 1.8x -j1, within 5x cat"
echo
cline "find and stats, $nchk games, -j1" "ms" "records/s" "x check" "peak KiB"
cline "kifu check -j1 (files)" "$j1" $((nchk * 1000 / j1)) "1.00" "$j1m"
cline "kifu find --sfen" "$fs" $((nchk * 1000 / fs)) "$(div "$j1" "$fs")" "$fsm"
cline "kifu find --player (headers)" "$fp" $((nchk * 1000 / fp)) "$(div "$j1" "$fp")" "$fpm"
cline "kifu stats" "$st" $((nchk * 1000 / st)) "$(div "$j1" "$st")" "$stm"
echo "targets (records/s against check's): find --sfen >= 0.8x, find --player >= 3x, stats >= 0.8x"
echo
cline "openings, $nchk games, -j1" "ms" "records/s" "x base" "peak KiB"
cline "kifu tag" "$tg" $((nchk * 1000 / tg)) "$(div "$j1" "$tg")" "$tgm"
cline "kifu stats --by opening" "$so" $((nchk * 1000 / so)) "$(div "$st" "$so")" "$som"
echo "x base: tag against check -j1, stats --by opening against stats"
echo "targets (records/s): tag >= 0.5x check; stats --by opening the same order as stats (>= 0.5x)"

# --- export -------------------------------------------------------------------

# kifu export -t hcpe over the same generated games, one core, against
# kifu check over them in the same rounds: the rows (every position of
# every game) to standard output (/dev/null), then to a file in build/bench (written to a
# temporary file, synced and put in place, as a user gets it), and with
# --uniq for its memory. The rows/s are compared with a Python loop
# over cshogi that parses, checks every move against the legal move
# list and writes rows: about 100,000 rows/s on the development machine
# (measured apart; cshogi is not installed here).
ex=$root/build/bench/export.hcpe
rows=$("$kifu" export -t hcpe -j1 "$chk/games" 2>&1 >/dev/null |
    sed -n 's/.* exported.*; \([0-9]*\) rows,.*/\1/p')
ec='' ee='' ef='' eu='' eem=- eum=-
for _ in 1 2 3; do
	set -- $(once "$kifu" check -q -j1 "$chk/games")
	ec=$(lower "$ec" "$1")
	set -- $(once "$kifu" export -t hcpe -j1 -o - "$chk/games")
	ee=$(lower "$ee" "$1") eem=$(higher "$eem" "$2")
	set -- $(once "$kifu" export -t hcpe -j1 --force -o "$ex" "$chk/games")
	ef=$(lower "$ef" "$1")
	set -- $(once "$kifu" export -t hcpe -j1 --uniq -o - "$chk/games")
	eu=$(lower "$eu" "$1") eum=$(higher "$eum" "$2")
done
rm -f "$ex"
echo
eline() { printf '%-34s %8s %12s %10s %10s\n' "$@"; }
eline "export $nchk CSA games ($rows rows)" "ms" "rows/s" "x check" "peak KiB"
eline "kifu check -j1" "$ec" "" "" ""
eline "kifu export -t hcpe -j1 (stdout)" "$ee" $((rows * 1000 / ee)) "$(div "$ee" "$ec")" "$eem"
eline "kifu export -t hcpe -j1 (file)" "$ef" $((rows * 1000 / ef)) "$(div "$ef" "$ec")" ""
eline "kifu export --uniq (stdout)" "$eu" $((rows * 1000 / eu)) "$(div "$eu" "$ec")" "$eum"
echo "Python loop over cshogi (stated): 100000 rows/s; kifu (stdout): $(div $((rows * 1000 / ee)) 100000)x"
echo "targets: export at most 1.3x check's time, at least 25x the cshogi loop, flat memory with --uniq"
# --- index --------------------------------------------------------------------

# kifu index build over the same 100,000 generated games, -j2, against
# kifu check -j2 in the same run (once each: a build takes minutes; check
# is timed before and after it and the faster kept); the database's size
# per record; then, warm, the whole process of a position search and of
# a player search with find --db (the position and player of the find
# section above) and of tree at the start, the best of five runs each.
# SQLite alone writing the same position and occurrence rows is timed
# too: no build of this schema can be faster.
db=$root/build/bench/index.sqlite
rm -f "$db" "$db".tmp.*
set -- $(once $both "$kifu" check -q -j2 "$chk/games")
ic=$1
set -- $(once $both "$kifu" index build -j2 --no-progress -o "$db" "$chk/games")
ib=$1 ibm=$2
set -- $(once $both "$kifu" check -q -j2 "$chk/games")
ic=$(lower "$ic" "$1")
dbbytes=$(wc -c <"$db")
# The floor: SQLite alone writing the same number of position and
# occurrence rows, and their two indexes (tests/bench/sqlite_floor.c).
npos=$(sqlite3 "$db" 'SELECT count(*) FROM position' 2>/dev/null)
nocc=$(sqlite3 "$db" 'SELECT count(*) FROM occurrence' 2>/dev/null)
floor=$root/build/bench/sqlite_floor
fl=-
if [ -n "$npos" ] && [ -n "$nocc" ] &&
    ${CC:-cc} -O2 -o "$floor" "$root/tests/bench/sqlite_floor.c" -lsqlite3; then
	set -- $(once $both "$floor" "$db.floor" "$npos" "$nocc")
	fl=$1
	rm -f "$db.floor"
fi
qp='' qn='' qt=''
"$kifu" tree --db "$db" >/dev/null
for _ in 1 2 3 4 5; do
	qp=$(lower "$qp" "$(ms_of "$kifu" find --db "$db" --sfen "$fpos")")
	qn=$(lower "$qn" "$(ms_of "$kifu" find --db "$db" --player black123)")
	qt=$(lower "$qt" "$(ms_of "$kifu" tree --db "$db")")
done
echo
iline() { printf '%-34s %8s %12s %10s %10s\n' "$@"; }
iline "index $nchk CSA games" "ms" "records/s" "x check" "peak KiB"
iline "kifu check -j2" "$ic" $((nchk * 1000 / ic)) "1.00" ""
iline "kifu index build -j2" "$ib" $((nchk * 1000 / ib)) "$(div "$ib" "$ic")" "$ibm"
if [ "$fl" != - ]; then
	iline "SQLite alone, the same rows" "$fl" $((nchk * 1000 / fl)) "$(div "$fl" "$ic")" ""
fi
echo "database: $dbbytes bytes, $((dbbytes / nchk)) bytes a record ($npos positions, $nocc occurrences)"
iline "find --db --sfen (whole process)" "$qp" "" "" ""
iline "find --db --player (whole process)" "$qn" "" "" ""
iline "tree --db at the start" "$qt" "" "" ""
echo "targets: build at most 3x check's time; queries under 50 ms, tree under 200 ms"
rm -f "$db" "$db-wal" "$db-shm"

# --- book -------------------------------------------------------------------

# kifu book build over the same generated games at 40 plies (the
# default), one core, against kifu check in the same rounds: the book to
# a file in build/bench (sorted, written whole and put in place), under
# the default memory budget and under 16 MB (the table spills sorted
# runs to temporary files, merged at the end: the same bytes). Random
# games make nearly every position after the first plies a new one
# (3.6 million positions, a 370 MB book): the worst case for a book.
# The floor: the finished book's entries, already made and in memory,
# sorted by their SFEN text and written out, nothing else
# (tests/bench/book_floor.c; it prints the milliseconds it timed).
bk=$root/build/bench/book.db
bfloor=$root/build/bench/book_floor
${CC:-cc} -O2 -o "$bfloor" "$root/tests/bench/book_floor.c" || bfloor=
bc='' bd='' bs='' bf='' bj='' bdm=- bsm=- bjm=-
for _ in 1 2 3; do
	set -- $(once "$kifu" check -q -j1 "$chk/games")
	bc=$(lower "$bc" "$1")
	set -- $(once "$kifu" book build -j1 --no-progress --force -o "$bk" "$chk/games")
	bd=$(lower "$bd" "$1") bdm=$(higher "$bdm" "$2")
	if [ -n "$bfloor" ] && set -- $("$bfloor" "$bk" "$bk.floor"); then
		bf=$(lower "$bf" $(($1 + $2)))
		cmp -s "$bk" "$bk.floor" ||
		    { echo "FAIL: book_floor's book differs"; fail=1; }
	fi
	rm -f "$bk.floor"
	set -- $(once "$kifu" book build -j1 --no-progress --memory 16M --force -o "$bk.16" "$chk/games")
	bs=$(lower "$bs" "$1") bsm=$(higher "$bsm" "$2")
	set -- $(once "$kifu" book build -j2 --no-progress --force -o "$bk.j2" "$chk/games")
	bj=$(lower "$bj" "$1") bjm=$(higher "$bjm" "$2")
done
cmp -s "$bk" "$bk.16" || { echo "FAIL: book build with --memory 16M differs"; fail=1; }
cmp -s "$bk" "$bk.j2" || { echo "FAIL: book build -j2 differs"; fail=1; }
rm -f "$bk" "$bk.16" "$bk.j2"
echo
bline() { printf '%-34s %8s %12s %10s %10s\n' "$@"; }
bline "book $nchk CSA games, 40 plies" "ms" "records/s" "x check" "peak KiB"
bline "kifu check -j1" "$bc" $((nchk * 1000 / bc)) "1.00" ""
bline "kifu book build -j1 (512M)" "$bd" $((nchk * 1000 / bd)) "$(div "$bc" "$bd")" "$bdm"
bline "kifu book build -j1 (16M, spills)" "$bs" $((nchk * 1000 / bs)) "$(div "$bc" "$bs")" "$bsm"
bline "kifu book build -j2 (512M)" "$bj" $((nchk * 1000 / bj)) "$(div "$bc" "$bj")" "$bjm"
echo "book build -j2 against -j1: $(div "$bd" "$bj")x (each worker counts into its own table)"
[ -z "$bf" ] ||
    bline "sort and write alone (the floor)" "$bf" "" "$(div "$bc" "$bf")" ""
echo "targets: book build >= 0.7x check's records/s; peak memory within the budget"
# A build judges every game as check does, then does the book's own work:
# at 0.7x its records/s, that work would have 0.43 of check's time.
[ -z "$bf" ] || echo "the floor takes $(div "$bf" "$bc") of check's time; 0.7x leaves the book's own work 0.43"
# --- show -------------------------------------------------------------------

# Pictures: a 150-move game as a GIF (151 frames, each drawn by librsvg
# where it changed, quantised and encoded with giflib), one PNG, one SVG;
# the baseline is rsvg-convert drawing that SVG to PNG, start-up included.
game="$root/testdata/kif/muzudho-kif-parser/20211002_223506_KifuwarabeW31B22vsKifuwarabeW31B22[shogigui].kifu"
pic=$root/build/bench/show
mkdir -p "$pic"
gm='' pm='' sm='' rm_=''
"$kifu" show --svg --ply 150 -o - "$game" >"$pic/p150.svg" 2>/dev/null
for _ in 1 2 3; do
	gm=$(lower "$gm" "$(ms_of "$kifu" show --gif --ply 150 -o - "$game")")
	pm=$(lower "$pm" "$(ms_of "$kifu" show --png --ply 150 -o - "$game")")
	sm=$(lower "$sm" "$(ms_of "$kifu" show --svg --ply 150 -o - "$game")")
	if command -v rsvg-convert >/dev/null 2>&1; then
		rm_=$(lower "$rm_" "$(ms_of rsvg-convert -o "$pic/r.png" \
		    "$pic/p150.svg")")
	fi
done
echo
pline() { printf '%-38s %8s %10s\n' "$@"; }
pline "show, 480 px wide" "ms" "ms/frame"
pline "kifu show --gif, 150 moves (151 frames)" "$gm" "$(div "$gm" 151)"
pline "kifu show --png" "$pm" ""
pline "kifu show --svg" "$sm" ""
pline "rsvg-convert, the same SVG to PNG" "${rm_:--}" ""
echo "target: a 150-move GIF in a few seconds (under 3000 ms)"

mate_section
# --- analyze ----------------------------------------------------------------

# kifu analyze with fairy-stockfish (tests/bench/analyze.sh): both cores,
# since an engine runs beside kifu and -j2 is measured against -j1.
if command -v taskset >/dev/null 2>&1 && [ "$(nproc 2>/dev/null || echo 1)" -ge 2 ]; then
	taskset -c 0,1 sh "$root/tests/bench/analyze.sh" "$kifu" || afail=1
else
	sh "$root/tests/bench/analyze.sh" "$kifu" || afail=1
fi

# kifu match (tests/bench/match.sh): both cores, as for analyze.
if command -v taskset >/dev/null 2>&1 && [ "$(nproc 2>/dev/null || echo 1)" -ge 2 ]; then
	taskset -c 0,1 sh "$root/tests/bench/match.sh" "$kifu" || mfail=1
else
	sh "$root/tests/bench/match.sh" "$kifu" || mfail=1
fi

echo
echo "target: kifu at 150 M nodes/s, about 2x osl (kifu/osl column >= 2)"
if [ "${mfail:-0}" -ne 0 ]; then
	echo "bench: FAIL - the match bench did not run through"
	exit 1
fi
if [ "$fail" -ne 0 ]; then
	echo "bench: FAIL - kifu's node counts are wrong"
	exit 1
fi
if [ "${afail:-0}" -ne 0 ]; then
	echo "bench: FAIL - the analyze bench did not run through"
	exit 1
fi
