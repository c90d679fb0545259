#!/bin/sh
# deps.sh [PACKAGE:FILE...]: make sure every Debian package the harness
# uses (or those named) is installed: install the missing ones when
# running as root, otherwise name the exact command.
# The filesystems' own tools come from harness/filesystems.txt.
set -eu
. "$(dirname "$0")/lib.sh"

# package:command-or-file it provides
needs="
qemu-system-x86:/usr/bin/qemu-system-x86_64
linux-source-6.12:/usr/src/linux-source-6.12.tar.xz
busybox-static:/bin/busybox
gcc:/usr/bin/gcc
make:/usr/bin/make
libc6-dev:/usr/lib/x86_64-linux-gnu/libc.a
linux-libc-dev:/usr/include/linux/io_uring.h
flex:/usr/bin/flex
bison:/usr/bin/bison
bc:/usr/bin/bc
libelf-dev:/usr/include/libelf.h
libssl-dev:/usr/include/openssl/ssl.h
perl:/usr/bin/perl
xz-utils:/usr/bin/xz
lz4:/usr/bin/lz4
zstd:/usr/bin/zstd
cpio:/bin/cpio
ccache:/usr/bin/ccache
git:/usr/bin/git
dpkg-dev:/usr/bin/dpkg-source
python3:/usr/bin/python3
python3-ply:/usr/lib/python3/dist-packages/ply/__init__.py
python3-git:/usr/lib/python3/dist-packages/git/__init__.py
shellcheck:/usr/bin/shellcheck
patch:/usr/bin/patch
man-db:/usr/bin/man
groff-base:/usr/bin/groff
bsdextrautils:/usr/bin/col
mandoc:/usr/bin/mandoc
manpages:/usr/share/man/man2/symlink.2.gz
git-email:/usr/lib/git-core/git-send-email
libmailtools-perl:/usr/share/perl5/Mail/Address.pm
"
here=$(dirname "$0")
# shellcheck disable=SC2046
needs="$needs $("$here/registry.sh" packages $("$here/registry.sh" names))"
# deps.sh PACKAGE:FILE...: those only (a target's own needs: make fstests).
[ "$#" -eq 0 ] || needs="$*"

missing=
for n in $needs; do
	[ -e "${n#*:}" ] || missing="$missing ${n%%:*}"
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	die "missing packages:$missing
run: sudo apt-get update && sudo apt-get install -y --no-install-recommends$missing"
fi
say "installing Debian packages:$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >/dev/null ||
	die "apt-get update failed; install by hand:$missing"
# shellcheck disable=SC2086
apt-get install -y -q --no-install-recommends $missing >/dev/null ||
	die "apt-get install failed for:$missing"
for n in $needs; do
	[ -e "${n#*:}" ] || die "package ${n%%:*} installed but ${n#*:} is still missing"
done
