# Sourced by every tests/cli/t*.sh. $KIFU is the binary under test,
# $TESTDATA the project's testdata/. Each test runs in its own temporary
# directory, which is removed on success and kept on failure.
set -u
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kifu-cli.XXXXXX")
cd "$tmp" || exit 1
failed=0
name=$(basename "$0" .sh)

# expect_success TITLE CMD...: CMD must exit 0.
expect_success() {
	title=$1; shift
	if ! "$@" >out 2>err; then
		echo "$name: $title: expected success, got $?"; cat err
		failed=1
	fi
}

# expect_exit CODE TITLE CMD...: CMD must exit with CODE.
expect_exit() {
	want=$1 title=$2; shift 2
	"$@" >out 2>err
	got=$?
	if [ "$got" -ne "$want" ]; then
		echo "$name: $title: expected exit $want, got $got"; cat err
		failed=1
	fi
}

# expect_output TITLE TEXT: stdout of the last command must equal TEXT.
expect_output() {
	printf '%s\n' "$2" >expect
	if ! cmp -s expect out; then
		echo "$name: $1: output differs"; diff expect out | head -20
		failed=1
	fi
}

# expect_stderr_has TITLE TEXT: stderr of the last command contains TEXT.
expect_stderr_has() {
	if ! grep -qF -- "$2" err; then
		echo "$name: $1: stderr lacks '$2'"; cat err
		failed=1
	fi
}

# nolib_setup: builds a shim of dlopen (nolib.so, in the test's
# directory) and defines `nolib LIB CMD...`, which runs CMD with every
# library whose name holds LIB missing for dlopen. Fails without a C
# compiler (the caller then says the checks are skipped).
nolib_setup() {
	cat >nolib.c <<'EOF'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

/* dlopen, but the library whose name holds $HIDE_LIB is not there. */
void *
dlopen(const char *file, int mode)
{
	static void *(*real)(const char *, int);
	const char *hide = getenv("HIDE_LIB");

	if (file && hide && strstr(file, hide))
		return NULL;
	if (!real)
		*(void **)&real = dlsym(RTLD_NEXT, "dlopen");
	return real(file, mode);
}
EOF
	${CC:-cc} -shared -fPIC -o nolib.so nolib.c 2>/dev/null || return 1
	nolib() {
		HIDE_LIB=$1 LD_PRELOAD=./nolib.so \
		    ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
		export HIDE_LIB LD_PRELOAD ASAN_OPTIONS
		shift
		"$@"
		nolib_rc=$?
		unset HIDE_LIB LD_PRELOAD
		return $nolib_rc
	}
}

# skip WHY: the test cannot run here; says so and exits 77 (run.sh
# counts it as skipped, never as passed).
skip() {
	echo "$name: skipped: $1"
	cd / && rm -rf "$tmp"
	exit 77
}

finish() {
	if [ "$failed" -eq 0 ]; then
		cd / && rm -rf "$tmp"
	else
		echo "$name: kept $tmp"
	fi
	exit "$failed"
}
