#!/bin/sh
# Rewrites the validate expectations of testdata/{csa,kif,ki2} with what
# the kifu given as $1 (default ./kifu) says now. Run it after a change
# that is meant to alter verdicts, then read `git diff testdata/` line by
# line: every changed verdict must be right, and every record that is not
# ok must be judged in that folder's VERDICTS.md (t0410 checks this).
set -eu
kifu=$(cd "$(dirname "${1:-./kifu}")" && pwd)/$(basename "${1:-./kifu}")
cd "$(dirname "$0")/.."
regen() {
	dir=$1; shift
	find "testdata/$dir" -type f \( "$@" \) | LC_ALL=C sort >/tmp/kifu-regen.$$
	xargs -d '\n' "$kifu" validate --json </tmp/kifu-regen.$$ \
	    >"testdata/$dir/validate.expect" 2>/dev/null || true
	xargs -d '\n' "$kifu" validate </tmp/kifu-regen.$$ \
	    >"testdata/$dir/validate-human.expect" 2>/dev/null || true
	rm -f /tmp/kifu-regen.$$
}
regen csa -name '*.csa'
regen kif -name '*.kif' -o -name '*.kifu'
regen ki2 -name '*.ki2' -o -name '*.KI2' -o -name '*.ki2u'
