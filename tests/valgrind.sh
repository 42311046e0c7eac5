#!/bin/sh
# Runs the CLI tests (tests/cli/) with every kifu process under valgrind's
# memcheck: invalid reads and writes, uses of uninitialised values, leaks
# (definite and indirect) and unclosed file descriptors. Each process logs
# to its own file; any non-empty log fails the run and is printed.
#
#   sh tests/valgrind.sh ./kifu      (make check-valgrind)
set -u
command -v valgrind >/dev/null 2>&1 ||
	{ echo "valgrind.sh: valgrind is not installed (apt-get install -y valgrind)"; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/kifu-valgrind.XXXXXX")
mkdir "$work/logs"
# A copy: a rebuild during the (long) run must not change what is tested.
cp "$1" "$work/kifu.bin"
kifu=$work/kifu.bin
# The tests run "$KIFU"; this is what they get.
cat >"$work/kifu" <<WRAP
#!/bin/sh
exec valgrind -q --error-exitcode=99 --leak-check=full \\
	--suppressions="$here/valgrind.supp" \\
	--show-leak-kinds=definite,indirect \\
	--errors-for-leak-kinds=definite,indirect --track-fds=yes \\
	--log-file="$work/logs/%p.log" "$kifu" "\$@"
WRAP
chmod +x "$work/kifu"
sh "$here/cli/run.sh" "$work/kifu"
status=$?
bad=0
for log in "$work"/logs/*.log; do
	[ -s "$log" ] || continue
	# --track-fds also lists what the harness handed down (std streams,
	# redirections, the log itself): those are not kifu's leaks.
	awk '/FILE DESCRIPTORS:/ || /^==[0-9]+== *$/ { next }
	    /Open file descriptor/ { fd = $0; getline
		if ($0 ~ /inherited from parent/) next; print fd }
	    { print }' "$log" >"$log.findings"
	if [ -s "$log.findings" ]; then
		bad=$((bad + 1))
		[ "$bad" -le 5 ] && { echo "== $log"; head -40 "$log.findings"; }
	fi
done
n=$(ls "$work"/logs/*.log 2>/dev/null | wc -l)
echo "valgrind: $n kifu processes, $bad with findings"
if [ "$status" -eq 0 ] && [ "$bad" -eq 0 ]; then
	rm -rf "$work"
	exit 0
fi
echo "valgrind: logs kept in $work/logs"
exit 1
