#!/bin/sh
# Checks the build dependencies of `make check`; installs the missing ones
# with apt-get when run as root on Debian, otherwise names them and fails.
missing=""
command -v pkg-config >/dev/null 2>&1 || missing="$missing pkg-config"
if command -v pkg-config >/dev/null 2>&1; then
	pkg-config --exists cmocka || missing="$missing libcmocka-dev"
	pkg-config --exists libpcre2-8 || missing="$missing libpcre2-dev"
	pkg-config --exists libarchive || missing="$missing libarchive-dev"
	pkg-config --exists jansson || missing="$missing libjansson-dev"
else
	missing="$missing libcmocka-dev libpcre2-dev libarchive-dev libjansson-dev"
fi
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
	echo "deps: installing$missing"
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
		apt-get install -y -qq $missing >/dev/null || exit 2
	exit 0
fi
echo "deps: missing build dependencies:$missing" >&2
echo "deps: install them with: sudo apt-get install$missing" >&2
exit 2
