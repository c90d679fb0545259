#!/bin/sh
# deb-src.sh PACKAGE: make `apt-get source PACKAGE` work, adding Debian's
# deb-src entry for the release this machine runs when it is missing
# (as root; otherwise name the commands).  One apt at a time: make may
# fetch two sources at once.
set -eu
. "$(dirname "$0")/lib.sh"

name=$1
srclist=/etc/apt/sources.list.d/emptylink-deb-src.sources
. /etc/os-release
apt-get source --print-uris -qq "$name" >/dev/null 2>&1 && exit 0
[ "$(id -u)" -eq 0 ] || die "Debian's source of $name is needed:
run as root: add a deb-src line for $VERSION_CODENAME, then apt-get update"
lock=${TMPDIR:-/tmp}/emptylink-apt.lock
exec 9>"$lock"
flock 9
if ! apt-get source --print-uris -qq "$name" >/dev/null 2>&1; then
	say "adding Debian's deb-src entry ($srclist)"
	cat >"$srclist" <<SRC
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: $VERSION_CODENAME $VERSION_CODENAME-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
	apt-get update -q >/dev/null || die "apt-get update failed"
fi
apt-get source --print-uris -qq "$name" >/dev/null 2>&1 ||
	die "apt-get source $name: Debian has no such source package for $VERSION_CODENAME"
